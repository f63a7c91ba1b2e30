/*
 * sim_table.h - the counters of a run (struct blab_sim_result) as rows of a table: a field
 * names a counter once, by its --json name and where it sits, and a column shows a counter
 * (or a value derived from the run) in the text table and the CSV alike. Both front ends
 * print from such tables, so which counter goes where, and for which workload, reads as a
 * list instead of as a format string per output.
 */
#ifndef BLAB_CLI_SIM_TABLE_H
#define BLAB_CLI_SIM_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "blab_sim.h"

enum sim_field_kind { SIM_U64, SIM_U32, SIM_I32 };

/* one counter of struct blab_sim_result */
struct sim_field {
	const char *name; /* its --json key */
	uint16_t off;     /* where it sits in struct blab_sim_result */
	uint8_t kind;     /* enum sim_field_kind, from the member's own type */
	uint32_t only;    /* the workloads that print it: a bit per workload id */
};

#define SIM_WL(id) (1u << (id))
#define SIM_WL_ALL 0xffffffffu

#define SIM_FIELD_KIND(member)                                                             \
	_Generic(((const struct blab_sim_result *)0)->member, uint64_t: SIM_U64,           \
		 uint32_t: SIM_U32, int32_t: SIM_I32)
#define SIM_FIELD(name, member, only)                                                      \
	{name, (uint16_t)offsetof(struct blab_sim_result, member), SIM_FIELD_KIND(member), only}

/* ,"name":value for each field whose `only` has the workload's bit, in the table's order */
void sim_fields_json(FILE *out, const struct sim_field *t, size_t n,
		     const struct blab_sim_result *r, uint32_t workload);

/* one column of the text table and the CSV: a counter, or a value derived from the run */
struct sim_column {
	const char *head; /* the text table's header */
	int width;        /* the text table right-aligns it in this many characters */
	const char *csv;  /* the CSV header's name */
	struct sim_field field; /* the counter, when derive is NULL */
	void (*derive)(char *buf, size_t n, const struct blab_sim_result *r);
};

/* the header of the columns: " HEAD" each (text), or ",PREFIX_NAME" each (CSV; prefix may be
 * NULL: ",NAME") */
void sim_columns_head(FILE *out, const struct sim_column *t, size_t n, int csv,
		      const char *prefix);
/* one run's values: " VALUE" right-aligned each (text), or ",VALUE" each (CSV) */
void sim_columns_row(FILE *out, const struct sim_column *t, size_t n,
		     const struct blab_sim_result *r, int csv);

#endif
