/*
 * fuzz_core_api.c - libFuzzer target: the public C API (blab.h) driven by fuzz bytes.
 *
 * The first bytes build a struct blab_zone_config: page count, start pfn, cpus, orders,
 * a preset or raw strategy bytes, batch/high overrides and a log - each drawn from a menu
 * that mixes ordinary values with absurd ones (0, limit + 1, 2^32 - 1, start pfns that
 * overflow), which blab_zone_create() must refuse with the documented error. The rest is a
 * sequence of steps: synchronous alloc/free/drain with arbitrary (often invalid) cpus, pfns
 * and orders; resumable ops (blab_op_*) started and stepped interleaved across cpus; frees
 * of blocks from a shadow list of what is allocated (so deep states are reached), of tail
 * pages, with the wrong order, twice; info and log queries. The invariant checker runs after
 * every step and a violation aborts. At the end every op is finished, every block freed and
 * every cpu drained: the zone must then be entirely free again.
 *
 * Valid zones are capped at FUZZ_MAX_PAGES pages so one execution stays fast; the limit
 * itself is exercised by the absurd values, which never allocate.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "blab.h"
#include "machine/model/model.h"

#define FUZZ_MAX_PAGES 4096u
#define MAX_SHADOW 4096u
#define MAX_CPUS_OPS 8u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct in {
	const uint8_t *d;
	size_t n, i;
};
static uint8_t u8(struct in *in)
{
	return in->i < in->n ? in->d[in->i++] : 0;
}
static uint16_t u16(struct in *in)
{
	uint16_t v = u8(in);
	return (uint16_t)(v | (uint16_t)u8(in) << 8);
}
static uint32_t u32(struct in *in)
{
	uint32_t v = u16(in);
	return v | (uint32_t)u16(in) << 16;
}
static uint64_t u64(struct in *in)
{
	uint64_t v = u32(in);
	return v | (uint64_t)u32(in) << 32;
}

#define DIE(...)                                                                     \
	do {                                                                         \
		fprintf(stderr, "fuzz_core_api: " __VA_ARGS__);                      \
		fputc('\n', stderr);                                                 \
		abort();                                                             \
	} while (0)

static void check(const struct blab_zone *z, const char *what)
{
	char msg[256];
	int err = blab_check(z, msg, sizeof(msg));
	if (err)
		DIE("invariant violated after %s: %s (%s)", what, msg, blab_strerror(err));
}

/* every return value must be a known code */
static void known(int err, const char *what)
{
	if (err > BLAB_STEP_LOCK || err < BLAB_EHOSTMEM)
		DIE("%s returned %d, not a blab_error", what, err);
}

struct blk {
	uint64_t pfn;
	uint8_t order;
};
struct shadow {
	struct blk b[MAX_SHADOW];
	unsigned n;
};
static void sh_add(struct shadow *s, uint64_t pfn, unsigned order)
{
	if (s->n < MAX_SHADOW)
		s->b[s->n++] = (struct blk){pfn, (uint8_t)order};
}
static struct blk sh_take(struct shadow *s, unsigned i)
{
	struct blk b = s->b[i];
	s->b[i] = s->b[--s->n];
	return b;
}

/* ---- the zone config ---- */

static void make_config(struct in *in, struct blab_zone_config *cfg, uint32_t *want_pages)
{
	uint8_t sel;

	blab_zone_config_init(cfg);
	sel = u8(in);
	switch (sel % 8) {
	case 0: cfg->pages = 0; break;
	case 1: cfg->pages = BLAB_MAX_PAGES + 1; break;
	case 2: cfg->pages = UINT32_MAX; break;
	case 3: cfg->pages = 1u + u8(in); break;
	case 7: cfg->pages = 1u + u16(in) % FUZZ_MAX_PAGES; break;
	default: cfg->pages = 1u + u16(in) % 1024u; break;
	}
	sel = u8(in);
	switch (sel % 8) {
	case 0: cfg->start_pfn = 0; break;
	case 1: cfg->start_pfn = u16(in); break;
	case 2: cfg->start_pfn = (uint64_t)u16(in) << (u8(in) % 40); break;
	case 3: cfg->start_pfn = BLAB_MAX_START_PFN - cfg->pages; break;       /* last valid */
	case 4: cfg->start_pfn = BLAB_MAX_START_PFN - cfg->pages + 1; break;   /* one past */
	case 5: cfg->start_pfn = UINT64_MAX - u8(in); break;                   /* overflows */
	case 6: cfg->start_pfn = u64(in); break;
	default: cfg->start_pfn = 1u << 10; break;
	}
	sel = u8(in);
	switch (sel % 8) {
	case 0: cfg->cpus = 0; break;
	case 1: cfg->cpus = 256; break;
	case 2: cfg->cpus = 257; break;
	case 3: cfg->cpus = 0xffff; break;
	default: cfg->cpus = (uint16_t)(1 + sel / 8 % MAX_CPUS_OPS); break;
	}
	sel = u8(in);
	cfg->top_order = sel < 0xf0 ? sel % 12 : (sel == 0xff ? 0xff : sel);
	sel = u8(in);
	cfg->pageblock_order = sel < 0xf0 ? sel % 12 : (sel == 0xff ? 0xff : sel);
	sel = u8(in);
	if (sel % 16 == 15)
		cfg->machine = u8(in);
	sel = u8(in);
	if (sel < 0xf0) {
		blab_preset(blab_preset_name(sel % blab_preset_count()), &cfg->strategy);
	} else {
		/* raw strategy switches, mostly out of range */
		cfg->strategy.pcp = u8(in) % 5;
		cfg->strategy.pcp_per_mt = u8(in) % 3;
		cfg->strategy.pcp_max_order = u8(in) % 6;
		cfg->strategy.bulk_free = u8(in) % 7;
		cfg->strategy.merge_tail = u8(in) % 3;
		cfg->strategy.high_mode = u8(in) % 3;
		cfg->strategy.batch_era = u8(in) % 4;
		cfg->strategy.watermarks = u8(in) % 3;
		cfg->strategy.pcp_thp = u8(in) % 5;
	}
	sel = u8(in);
	switch (sel % 8) {
	case 0: break;
	case 1: cfg->strategy.batch = 1; break;
	case 2: cfg->strategy.batch = 1u << 20; break;
	case 3: cfg->strategy.batch = (1u << 20) + 1; break;
	case 4: cfg->strategy.batch = UINT32_MAX; break;
	default: cfg->strategy.batch = 1u + u8(in) % 64; break;
	}
	sel = u8(in);
	switch (sel % 8) {
	case 0: break;
	case 1: cfg->strategy.high = 1; break;
	case 2: cfg->strategy.high = 1u << 24; break;
	case 3: cfg->strategy.high = (1u << 24) + 1; break;
	case 4: cfg->strategy.high = UINT32_MAX; break;
	default: cfg->strategy.high = u16(in) % 512; break;
	}
	sel = u8(in);
	switch (sel % 8) {
	case 0: cfg->log_capacity = 0; break;
	case 1: cfg->log_capacity = 1; break;
	case 2: cfg->log_capacity = 2; break;
	case 3: cfg->log_capacity = BLAB_MAX_LOG_EVENTS + 1; break;
	case 4: cfg->log_capacity = UINT32_MAX; break;
	default: cfg->log_capacity = 2u + u16(in) % 4096; break;
	}
	cfg->log_mask = u8(in);
	/* the host memory bound: none (the default), tiny, or just below / at what it needs */
	sel = u8(in);
	switch (sel % 8) {
	case 1: cfg->mem_limit = 1; break;
	case 2: cfg->mem_limit = blab_zone_mem_bytes(cfg) - 1; break;
	case 3: cfg->mem_limit = blab_zone_mem_bytes(cfg); break;
	default: break;
	}
	*want_pages = cfg->pages;
}

/* what blab_zone_create() must answer, per docs/limits.md (order of checks as in zone.c) */
static int expected_create(const struct blab_zone_config *c)
{
	unsigned top = c->top_order == 0xff ? BLAB_DEFAULT_TOP_ORDER : c->top_order, pbo;
	if (c->pages == 0)
		return BLAB_EINVAL;
	if (c->pages > BLAB_MAX_PAGES || c->start_pfn >= BLAB_MAX_START_PFN ||
	    c->start_pfn + c->pages > BLAB_MAX_START_PFN)
		return BLAB_ELIMIT;
	if (c->cpus > BLAB_MAX_CPUS)
		return BLAB_ECPU;
	if (top > BLAB_MAX_ORDER_LIMIT)
		return BLAB_EORDER;
	pbo = c->pageblock_order == 0xff ? (top < 9 ? top : 9) : c->pageblock_order;
	if (pbo > top)
		return BLAB_EORDER;
	if (c->machine != BLAB_MACHINE_PLAIN && c->machine != BLAB_MACHINE_MODEL &&
	    c->machine != BLAB_MACHINE_REAL)
		return BLAB_EINVAL;
	if (c->machine == BLAB_MACHINE_REAL &&
	    (c->log_mask || c->log_capacity || c->sink || c->strategy.watermarks))
		return BLAB_EINVAL; /* a real zone has no log and no watermarks */
	if (c->machine == BLAB_MACHINE_MODEL) {
		/* a model zone has at most the modelled machine's CPUs (default parameters) */
		struct model_params def;
		model_params_default(&def);
		if ((c->cpus ? c->cpus : 1u) > model_cpus_max(&def))
			return BLAB_ECPU;
	}
	if (c->log_capacity > BLAB_MAX_LOG_EVENTS)
		return BLAB_ELIMIT;
	if (c->log_capacity == 1)
		return BLAB_EINVAL;
	return 1; /* the strategy decides: ESTRATEGY, ELIMIT, then the memory bound: EHOSTMEM */
}

/* ---- the steps ---- */

struct run {
	struct blab_zone *z;
	struct blab_zone_info info;
	struct shadow sh;
	struct blab_op op[MAX_CPUS_OPS];
	uint8_t pending[MAX_CPUS_OPS];
	uint8_t done[MAX_CPUS_OPS]; /* the op ran to its end (DONE or an error that ends it) */
};

static unsigned pick_cpu(struct in *in, const struct run *r)
{
	uint8_t b = u8(in);
	if (b >= 0xf0)
		return b == 0xff ? 0xffffffffu : 256u + b; /* out of range */
	return b % r->info.cpus;
}

static uint64_t pick_pfn(struct in *in, const struct run *r)
{
	uint8_t b = u8(in);
	switch (b % 6) {
	case 0: return u64(in);
	case 1: return r->info.start_pfn - 1 - u8(in) % 4;
	case 2: return r->info.start_pfn + r->info.pages + u8(in) % 4;
	case 3:
		if (r->sh.n)
			return r->sh.b[u16(in) % r->sh.n].pfn + (u8(in) % 5) - 2;
		/* fall through */
	default: return r->info.start_pfn + u32(in) % r->info.pages;
	}
}

/* errors blab_op_step() gives before the op starts; it may be stepped again */
static int not_started(int ret)
{
	return ret == BLAB_ECPU || ret == BLAB_EBUSY || ret == BLAB_EINVAL;
}

static void after_done(struct run *r, struct blab_op *op, int ret)
{
	r->done[op - r->op] = !not_started(ret);
	if (ret == BLAB_STEP_DONE && op->kind == BLAB_OP_ALLOC)
		sh_add(&r->sh, op->pfn, op->order);
}

/* one step of the pending op of cpu c */
static void step_op(struct run *r, unsigned c)
{
	int ret = blab_op_step(r->z, &r->op[c]);
	known(ret, "blab_op_step");
	if (ret == BLAB_STEP_LOCK || ret == BLAB_ELOCKED)
		return;
	r->pending[c] = 0;
	after_done(r, &r->op[c], ret);
}

static void do_step(struct run *r, struct in *in)
{
	uint8_t opc = u8(in);
	uint64_t pfn;
	unsigned cpu, order, c;
	int ret;

	switch (opc % 14) {
	case 0:
	case 1: /* alloc */
		cpu = pick_cpu(in, r);
		order = u8(in);
		order = order < 0xf0 ? order % (r->info.top_order + 2u) : order;
		{
			uint8_t m = u8(in);
			ret = blab_alloc_gfp(r->z, cpu, order, m < 0xf0 ? m % 3 : m, m & 1 ? BLAB_GFP_COLD : 0,
					     &pfn);
			known(ret, "blab_alloc_gfp");
			if (cpu >= r->info.cpus && ret != BLAB_ECPU)
				DIE("alloc on cpu %u of %u gave %d, not ECPU", cpu, r->info.cpus, ret);
			if (ret == 0) {
				if (pfn < r->info.start_pfn ||
				    pfn + (1ull << order) > r->info.start_pfn + r->info.pages ||
				    (pfn & ((1ull << order) - 1)))
					DIE("alloc gave pfn 0x%llx order %u outside the zone or unaligned",
					    (unsigned long long)pfn, order);
				sh_add(&r->sh, pfn, order);
			}
		}
		break;
	case 2:
	case 3: /* free a block we hold */
		if (!r->sh.n)
			break;
		{
			struct blk b = sh_take(&r->sh, u16(in) % r->sh.n);
			uint8_t g = u8(in);
			cpu = g % r->info.cpus;
			ret = blab_free_gfp(r->z, cpu, b.pfn, b.order, g & 0x80 ? BLAB_GFP_COLD : 0);
			known(ret, "blab_free_gfp");
			if (ret == BLAB_EBUSY) {
				sh_add(&r->sh, b.pfn, b.order); /* its cpu has an op in flight */
			} else if (ret != 0) {
				DIE("freeing allocated block pfn 0x%llx order %u gave %s",
				    (unsigned long long)b.pfn, b.order, blab_strerror(ret));
			} else if (g & 0x40) {
				ret = blab_free(r->z, cpu, b.pfn, b.order);
				if (ret == 0)
					DIE("double free of pfn 0x%llx order %u accepted",
					    (unsigned long long)b.pfn, b.order);
			}
		}
		break;
	case 4: /* free anything */
		cpu = pick_cpu(in, r);
		pfn = pick_pfn(in, r);
		order = u8(in);
		ret = blab_free_gfp(r->z, cpu, pfn, order, u8(in));
		known(ret, "blab_free_gfp");
		if (ret == 0) {
			/* only legal when it was a block we hold: find and drop it */
			unsigned i;
			for (i = 0; i < r->sh.n; i++)
				if (r->sh.b[i].pfn == pfn && r->sh.b[i].order == order)
					break;
			if (i == r->sh.n)
				DIE("free of pfn 0x%llx order %u succeeded but it was not allocated",
				    (unsigned long long)pfn, order);
			sh_take(&r->sh, i);
		}
		break;
	case 5: /* a tail page, the wrong order */
		if (r->sh.n) {
			struct blk b = r->sh.b[u16(in) % r->sh.n];
			if (b.order) {
				ret = blab_free(r->z, 0, b.pfn + 1, b.order - 1u);
				if (ret == 0)
					DIE("free of a tail page accepted");
			}
			ret = blab_free(r->z, 0, b.pfn, (b.order + 1u + u8(in) % 3) % 11);
			if (ret == 0)
				DIE("free with the wrong order accepted");
		}
		break;
	case 6: /* drain */
		cpu = pick_cpu(in, r);
		ret = blab_drain(r->z, cpu);
		known(ret, "blab_drain");
		break;
	case 7:
		ret = blab_drain_all(r->z);
		known(ret, "blab_drain_all");
		break;
	case 8: /* start a resumable op */
		c = u8(in) % MAX_CPUS_OPS;
		if (r->pending[c]) {
			step_op(r, c);
			break;
		}
		{
			uint8_t k = u8(in);
			unsigned ocpu = k & 0x80 ? pick_cpu(in, r) : c % r->info.cpus;
			struct blab_op *op = &r->op[c];
			r->done[c] = 0;
			if (k % 3 == 0) {
				uint8_t m = u8(in);
				ret = blab_op_alloc(op, ocpu, u8(in) % (r->info.top_order + 2u),
						    m < 0xf0 ? m % 3 : m, m & 1);
			} else if (k % 3 == 1 && r->sh.n) {
				unsigned i = u16(in) % r->sh.n;
				ret = blab_op_free(op, ocpu, r->sh.b[i].pfn, r->sh.b[i].order, u8(in) & 1);
				if (ret == 0 && ocpu < r->info.cpus) {
					int s = blab_op_step(r->z, op);
					known(s, "blab_op_step");
					if (s == 0 || s == BLAB_STEP_LOCK || s == BLAB_ELOCKED)
						sh_take(&r->sh, i);
					else if (s != BLAB_EBUSY)
						DIE("free op of an allocated block: %s", blab_strerror(s));
					r->pending[c] = s == BLAB_STEP_LOCK || s == BLAB_ELOCKED;
					if (!r->pending[c])
						r->done[c] = !not_started(s);
					break;
				}
			} else {
				ret = blab_op_drain(op, ocpu);
			}
			if (ret)
				DIE("blab_op_* constructor failed: %d", ret);
			ret = blab_op_step(r->z, op);
			known(ret, "blab_op_step");
			r->pending[c] = ret == BLAB_STEP_LOCK || ret == BLAB_ELOCKED;
			if (!r->pending[c])
				after_done(r, op, ret);
		}
		break;
	case 9: /* step pending ops */
	case 10:
		c = u8(in) % MAX_CPUS_OPS;
		if (r->pending[c])
			step_op(r, c);
		break;
	case 11: /* queries */
	{
		struct blab_zone_info zi;
		struct blab_pcp_info pi;
		uint32_t n = 0;
		ret = blab_zone_info(r->z, &zi);
		if (ret || zi.free_pages + zi.pcp_pages > zi.pages)
			DIE("zone_info: %d, free %u + pcp %u > pages %u", ret, zi.free_pages,
			    zi.pcp_pages, zi.pages);
		known(blab_pcp_info(r->z, pick_cpu(in, r), u8(in) % 4, &pi), "blab_pcp_info");
		const struct blab_event *ev = blab_log(r->z, &n);
		if (n && !ev)
			DIE("log count %u without records", n);
		for (uint32_t i = 0; i < n; i++)
			if (!blab_event_name(ev[i].type))
				DIE("log record %u has unknown type %u", i, ev[i].type);
		(void)blab_log_full(r->z);
		break;
	}
	case 12:
		if (u8(in) & 1)
			blab_log_clear(r->z);
		else
			blab_mark(r->z, pick_cpu(in, r), u32(in), u32(in));
		break;
	default: /* a finished op must not step again */
		c = u8(in) % MAX_CPUS_OPS;
		if (!r->pending[c] && r->done[c]) {
			ret = blab_op_step(r->z, &r->op[c]);
			if (ret != BLAB_EINVAL)
				DIE("stepping a finished op gave %d", ret);
		}
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct in in = {data, size, 0};
	struct blab_zone_config cfg;
	struct run *r;
	uint32_t pages;
	int ret, want;

	make_config(&in, &cfg, &pages);
	want = expected_create(&cfg);
	if (want == 1 && cfg.pages > FUZZ_MAX_PAGES)
		return 0; /* legal but too slow to fuzz */
	r = calloc(1, sizeof(*r));
	if (!r)
		abort();
	ret = blab_zone_create(&cfg, &r->z);
	known(ret, "blab_zone_create");
	if (want != 1 && ret != want)
		DIE("zone_create gave %d (%s), expected %d (%s)", ret, blab_strerror(ret), want,
		    blab_strerror(want));
	if (want == 1 && ret != 0 && ret != BLAB_ESTRATEGY && ret != BLAB_ELIMIT &&
	    ret != BLAB_EHOSTMEM)
		DIE("zone_create gave %d (%s) for a config past the generic checks", ret,
		    blab_strerror(ret));
	if (want == 1 && (ret == 0 || ret == BLAB_EHOSTMEM) &&
	    (ret == BLAB_EHOSTMEM) != (blab_zone_mem_bytes(&cfg) > blab_mem_limit(cfg.mem_limit)))
		DIE("zone_create gave %d with a need of %llu bytes and a limit of %llu", ret,
		    (unsigned long long)blab_zone_mem_bytes(&cfg),
		    (unsigned long long)blab_mem_limit(cfg.mem_limit));
	if (ret) {
		if (r->z)
			DIE("zone_create failed but set *out");
		free(r);
		return 0;
	}
	if (blab_zone_info(r->z, &r->info) || r->info.pages != pages)
		DIE("zone_info after create");
	check(r->z, "create");
	for (unsigned steps = 0; in.i < in.n && steps < 256; steps++) {
		do_step(r, &in);
		check(r->z, "a step");
	}

	/* finish every op, free everything, drain: the zone must be whole again */
	for (unsigned round = 0; round < 64; round++) {
		int any = 0;
		for (unsigned c = 0; c < MAX_CPUS_OPS; c++)
			if (r->pending[c]) {
				step_op(r, c);
				any = 1;
			}
		if (!any)
			break;
	}
	for (unsigned c = 0; c < MAX_CPUS_OPS; c++)
		if (r->pending[c])
			DIE("op of slot %u did not finish in 64 steps", c);
	check(r->z, "finishing ops");
	while (r->sh.n) {
		struct blk b = sh_take(&r->sh, r->sh.n - 1);
		ret = blab_free(r->z, 0, b.pfn, b.order);
		if (ret)
			DIE("final free of pfn 0x%llx order %u: %s", (unsigned long long)b.pfn,
			    b.order, blab_strerror(ret));
	}
	ret = blab_drain_all(r->z);
	if (ret)
		DIE("final drain_all: %s", blab_strerror(ret));
	check(r->z, "final drain");
	if (blab_zone_info(r->z, &r->info) || r->info.free_pages != r->info.pages ||
	    r->info.pcp_pages != 0)
		DIE("after freeing everything: free %u pcp %u of %u pages", r->info.free_pages,
		    r->info.pcp_pages, r->info.pages);
	blab_zone_destroy(r->z);
	free(r);
	return 0;
}
