/* sim_table.c - a run's counters printed from tables of fields and columns (sim_table.h) */
#include "sim_table.h"

#include <string.h>

/* the counter in decimal, as printf's %llu, %u or %d writes it; returns buf */
static const char *sim_field_text(char *buf, size_t n, const struct sim_field *f,
				  const struct blab_sim_result *r)
{
	const char *p = (const char *)r + f->off;

	if (f->kind == SIM_U64) {
		uint64_t v;
		memcpy(&v, p, sizeof(v));
		snprintf(buf, n, "%llu", (unsigned long long)v);
	} else if (f->kind == SIM_U32) {
		uint32_t v;
		memcpy(&v, p, sizeof(v));
		snprintf(buf, n, "%u", v);
	} else {
		int32_t v;
		memcpy(&v, p, sizeof(v));
		snprintf(buf, n, "%d", v);
	}
	return buf;
}

void sim_fields_json(FILE *out, const struct sim_field *t, size_t n,
		     const struct blab_sim_result *r, uint32_t workload)
{
	char v[32];

	for (size_t i = 0; i < n; i++)
		if (t[i].only & SIM_WL(workload))
			fprintf(out, ",\"%s\":%s", t[i].name,
				sim_field_text(v, sizeof(v), &t[i], r));
}

void sim_columns_head(FILE *out, const struct sim_column *t, size_t n, int csv,
		      const char *prefix)
{
	for (size_t i = 0; i < n; i++) {
		if (!csv)
			fprintf(out, " %*s", t[i].width, t[i].head);
		else if (prefix)
			fprintf(out, ",%s_%s", prefix, t[i].csv);
		else
			fprintf(out, ",%s", t[i].csv);
	}
}

void sim_columns_row(FILE *out, const struct sim_column *t, size_t n,
		     const struct blab_sim_result *r, int csv)
{
	char v[40];

	for (size_t i = 0; i < n; i++) {
		if (t[i].derive)
			t[i].derive(v, sizeof(v), r);
		else
			sim_field_text(v, sizeof(v), &t[i].field, r);
		if (csv)
			fprintf(out, ",%s", v);
		else
			fprintf(out, " %*s", t[i].width, v);
	}
}
