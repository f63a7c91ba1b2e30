/*
 * machine.c - starting and stopping a zone's machine (the model's and the real machine's own
 * set-up is behind _mach_model_init / _mach_real_init), and the event records every machine
 * stamps with its clock.
 */
#include <stdlib.h>
#include <string.h>

#include "blab_model.h"
#include "machine.h"

void _mach_emit(struct blab_machine *m, unsigned type, uint64_t pfn, unsigned order,
		unsigned cpu, unsigned mt, unsigned path, unsigned flags, uint32_t arg0,
		uint32_t arg1)
{
	if (!m->log.sink && (m->log.full || !m->log.cap))
		return; /* before reading the clock: the real machine's costs a system call */
	mach_log_event(m, mach_now(m, cpu), type, pfn, order, cpu, mt, path, flags, arg0, arg1);
}

int mach_check(unsigned kind, const struct model_params *p, unsigned cpus)
{
	struct model_params def;
	char why[128];

	if (kind != BLAB_MACHINE_PLAIN && kind != BLAB_MACHINE_MODEL && kind != BLAB_MACHINE_REAL)
		return BLAB_EINVAL;
	if (kind != BLAB_MACHINE_MODEL)
		return 0;
	if (!p) {
		model_params_default(&def);
		p = &def;
	}
	if (model_params_check(p, why, sizeof(why)))
		return BLAB_EINVAL;
	if (cpus > model_cpus_max(p))
		return BLAB_ECPU;
	return 0;
}

/* m is zeroed memory or a machine started before (its plain pcp->lock words are freed) */
static void mach_reset(struct blab_machine *m, unsigned kind)
{
	free(m->pcp_owner);
	m->kind = (uint8_t)kind;
	m->impl = NULL;
	m->impl_shared = 0;
	m->lock_base = 0;
	m->clock = NULL;
	m->nclocks = 0;
	for (int i = 0; i < MACH_NLOCKS; i++)
		m->lock_owner[i] = BLAB_CPU_NONE;
	m->pcp_owner = NULL;
	m->npcp = 0;
}

int mach_init(struct blab_machine *m, unsigned kind, const struct model_params *p,
	      unsigned cpus, uint64_t first_pfn, uint64_t pages, int real_timed)
{
	mach_reset(m, BLAB_MACHINE_PLAIN);
	if (kind == BLAB_MACHINE_MODEL) {
		struct model_params def;
		if (!p) {
			model_params_default(&def);
			p = &def;
		}
		if (_mach_model_init(m, p, cpus, first_pfn, pages))
			return BLAB_ENOMEMHOST;
	} else if (kind == BLAB_MACHINE_REAL) {
		if (_mach_real_init(m, cpus, real_timed))
			return BLAB_ENOMEMHOST;
	} else {
		/* the plain machine's pcp->lock words (the others keep their own) */
		m->pcp_owner = malloc((cpus ? cpus : 1u) * sizeof(*m->pcp_owner));
		if (!m->pcp_owner)
			return BLAB_ENOMEMHOST;
		m->npcp = cpus ? cpus : 1u;
		for (uint32_t c = 0; c < m->npcp; c++)
			m->pcp_owner[c] = BLAB_CPU_NONE;
	}
	m->kind = (uint8_t)kind;
	return 0;
}

uint64_t mach_mem_bytes(unsigned kind, const struct model_params *p, unsigned cpus,
			uint64_t pages)
{
	struct model_params def;
	if (kind == BLAB_MACHINE_REAL)
		return _mach_real_mem_bytes(cpus);
	if (kind != BLAB_MACHINE_MODEL)
		return 0;
	if (!p) {
		model_params_default(&def);
		p = &def;
	}
	return _mach_model_mem_bytes(p, cpus, pages);
}

int mach_check_shared(const struct model_machine *mm, unsigned node, unsigned cpus,
		      uint64_t first_pfn, uint64_t pages)
{
	return _mach_model_check_shared(mm, node, cpus, first_pfn, pages);
}

void mach_init_shared(struct blab_machine *m, struct model_machine *mm, unsigned node)
{
	mach_reset(m, BLAB_MACHINE_MODEL);
	_mach_model_init_shared(m, mm, node);
}

void mach_free(struct blab_machine *m)
{
	free(m->pcp_owner);
	m->pcp_owner = NULL;
	m->npcp = 0;
	if (m->impl_shared)
		m->impl = NULL; /* its owner frees it */
	if (m->impl && m->kind == BLAB_MACHINE_REAL)
		_mach_real_free(m);
	else if (m->impl)
		_mach_model_free(m);
	m->impl = NULL;
}
