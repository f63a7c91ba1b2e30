/*
 * zoneinfo.c - /proc/zoneinfo of a real machine (mm/vmstat.c zoneinfo_show_print()), and the
 * pcp sizes each preset's kernel would give its zones (include/blab_zoneinfo.h).
 *
 * The file is a list of zones, each opened by "Node N, zone NAME": its free pages and
 * watermarks as "key value" lines, the node's and the zone's statistics (also "key value"),
 * then "pagesets", one block per CPU ("cpu: N", then "count:", "high:", "batch:" and, from
 * 6.7, "high_min:", "high_max:"), and a tail of "key: value" lines (start_pfn among them).
 * The parser takes the lines it needs by name, skips any other line of a statistic's shape,
 * and refuses everything else with the line number and why, so a wrong or damaged file is
 * never half-read.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blab.h"
#include "blab_zoneinfo.h"
#include "base/textout.h"

#define MAX_TOKENS 8

struct parse {
	struct blab_zoneinfo *zi;
	struct blab_zoneinfo_zone *z; /* the zone being read, or NULL */
	unsigned lineno;
	char *err;
	size_t errlen;
	/* the zone's fields seen so far (each at most once) */
	unsigned seen;
	int in_pagesets;
	/* the pageset being read: its cpu, line, fields seen */
	int in_cpu;
	int in_cold; /* before 2.6.25: a CPU's cold list ("cpu: N pcp: 1"), read and not kept */
	uint32_t cpu, cpu_line;
	unsigned cpu_seen;
	uint32_t count, high, batch, high_min, high_max;
	uint8_t *cpu_used; /* BLAB_ZONEINFO_MAX_CPUS flags for the zone */
};

enum { F_FREE = 1, F_MIN = 2, F_LOW = 4, F_HIGH = 8, F_SPANNED = 16, F_PRESENT = 32,
       F_MANAGED = 64, F_START = 128 };
enum { C_COUNT = 1, C_HIGH = 2, C_BATCH = 4, C_HIGH_MIN = 8, C_HIGH_MAX = 16 };

static int fail(struct parse *p, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct parse *p, int code, const char *fmt, ...)
{
	va_list ap;
	char msg[256];
	int n = 0;

	if (p->err && p->errlen) {
		if (p->lineno)
			n = snprintf(p->err, p->errlen, "line %u: ", p->lineno);
		if (n < 0 || (size_t)n >= p->errlen)
			n = 0;
		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
		/* the message echoes the file's words: a control or bidirectional character in
		 * them is spelled out, not sent to the terminal or the page */
		blab_text_escape(p->err + n, p->errlen - (size_t)n, msg);
	}
	return code;
}

/* a whole decimal number of at most 2^52; -1 when s is not one */
static int number(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	*out = 0;
	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
		if (v > BLAB_ZONEINFO_MAX_NUMBER)
			return -2;
	}
	*out = v;
	return 0;
}

/* a statistic's name: lower case, digits, '_' and '-' */
static int word(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_' || *s == '-'))
			return 0;
	return 1;
}

/* a zone's name as the kernel spells them (zone_names[] in mm/page_alloc.c): it is printed
 * into the JSON report and the page as it is, so nothing that needs quoting may be in it */
static int zone_name_ok(const char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	return 1;
}

/* "name:" */
static int word_colon(const char *s)
{
	size_t n = strlen(s);
	char buf[64];

	if (n < 2 || n >= sizeof(buf) || s[n - 1] != ':')
		return 0;
	memcpy(buf, s, n - 1);
	buf[n - 1] = 0;
	return word(buf);
}

static int num_of(struct parse *p, const char *what, const char *s, uint64_t *v)
{
	int r = number(s, v);

	if (r == -2)
		return fail(p, BLAB_ELIMIT, "%s: %.24s is larger than 2^52", what, s);
	if (r)
		return fail(p, BLAB_ESNAPSHOT, "%s: expected a whole number, found \"%.24s\"", what, s);
	return 0;
}

/* the pageset being read is complete: fold it into its zone */
static int end_cpu(struct parse *p)
{
	struct blab_zoneinfo_zone *z = p->z;
	unsigned need = C_COUNT | C_HIGH | C_BATCH;

	p->in_cold = 0;
	if (!p->in_cpu)
		return 0;
	p->in_cpu = 0;
	if (p->cpu_seen & (C_HIGH_MIN | C_HIGH_MAX))
		need |= C_HIGH_MIN | C_HIGH_MAX;
	if ((p->cpu_seen & need) != need) {
		p->lineno = p->cpu_line;
		return fail(p, BLAB_ESNAPSHOT,
			    "the pageset of cpu %u ends without its %s (a truncated file?)", p->cpu,
			    !(p->cpu_seen & C_COUNT) ? "count" : !(p->cpu_seen & C_HIGH) ? "high"
			    : !(p->cpu_seen & C_BATCH) ? "batch" : !(p->cpu_seen & C_HIGH_MIN)
			    ? "high_min" : "high_max");
	}
	if (z->ncpus && z->has_high_min != !!(p->cpu_seen & C_HIGH_MIN)) {
		p->lineno = p->cpu_line;
		return fail(p, BLAB_ESNAPSHOT, "cpu %u's pageset %s high_min and high_max, cpu %u's %s",
			    p->cpu, z->has_high_min ? "lacks" : "has", z->first_cpu,
			    z->has_high_min ? "had them" : "did not");
	}
	if (!z->ncpus) {
		z->first_cpu = p->cpu;
		z->batch = p->batch;
		z->high = p->high;
		z->high_min = p->high_min;
		z->high_max = p->high_max;
		z->has_high_min = !!(p->cpu_seen & C_HIGH_MIN);
		z->high_lo = z->high_hi = p->high;
	} else {
		if (p->batch != z->batch || p->high_min != z->high_min || p->high_max != z->high_max)
			z->cpus_differ = 1;
		if (p->high < z->high_lo)
			z->high_lo = p->high;
		if (p->high > z->high_hi)
			z->high_hi = p->high;
	}
	z->ncpus++;
	z->count += p->count;
	if (z->ncpus > p->zi->cpus)
		p->zi->cpus = z->ncpus;
	if (z->has_high_min)
		p->zi->format_67 = 1;
	return 0;
}

/* the zone being read is complete */
static int end_zone(struct parse *p)
{
	struct blab_zoneinfo_zone *z = p->z;
	int r;

	if (!z)
		return 0;
	if ((r = end_cpu(p)))
		return r;
	if (!(p->seen & (F_PRESENT | F_MANAGED)) || !(p->seen & F_LOW)) {
		p->lineno = z->line;
		return fail(p, BLAB_ESNAPSHOT, "zone %s of node %u ends without its %s (a truncated file?)",
			    z->name, z->node, (p->seen & F_LOW) ? "present or managed pages" : "low watermark");
	}
	if (!z->has_managed)
		z->managed = z->present; /* before 3.x: no managed line, present is the closest */
	p->z = NULL;
	return 0;
}

static int new_zone(struct parse *p, char **tok, int ntok)
{
	struct blab_zoneinfo *zi = p->zi;
	struct blab_zoneinfo_zone *z;
	uint64_t node;
	size_t nl = ntok == 4 ? strlen(tok[1]) : 0; /* tok[1..3] exist only on a whole line */
	int r;

	if (ntok != 4 || nl < 2 || tok[1][nl - 1] != ',' || strcmp(tok[2], "zone") != 0)
		return fail(p, BLAB_ESNAPSHOT, "expected \"Node N, zone NAME\"");
	tok[1][nl - 1] = 0;
	if ((r = num_of(p, "the node", tok[1], &node)))
		return r;
	if (node > BLAB_ZONEINFO_MAX_NODE)
		return fail(p, BLAB_ELIMIT, "node %llu: nodes go up to %u", (unsigned long long)node,
			    BLAB_ZONEINFO_MAX_NODE);
	if (strlen(tok[3]) >= sizeof(z->name))
		return fail(p, BLAB_ESNAPSHOT, "zone name \"%.24s\" is too long", tok[3]);
	if (!zone_name_ok(tok[3]))
		return fail(p, BLAB_ESNAPSHOT, "zone name \"%.24s\": letters, digits and '_' only "
			    "(the kernel's are DMA, DMA32, Normal, HighMem, Movable, Device)", tok[3]);
	if ((r = end_zone(p)))
		return r;
	if (zi->nzones == BLAB_ZONEINFO_MAX_ZONES)
		return fail(p, BLAB_ELIMIT, "more than %u zones", BLAB_ZONEINFO_MAX_ZONES);
	for (uint32_t i = 0; i < zi->nzones; i++)
		if (zi->zone[i].node == node && strcmp(zi->zone[i].name, tok[3]) == 0)
			return fail(p, BLAB_ESNAPSHOT, "node %u's zone %s a second time", (unsigned)node,
				    tok[3]);
	z = &zi->zone[zi->nzones++];
	memset(z, 0, sizeof(*z));
	z->node = (uint32_t)node;
	strcpy(z->name, tok[3]);
	z->line = p->lineno;
	p->z = z;
	p->seen = 0;
	p->in_pagesets = 0;
	memset(p->cpu_used, 0, BLAB_ZONEINFO_MAX_CPUS);
	{
		/* nodes: count the distinct ones */
		uint32_t i;
		for (i = 0; i + 1 < zi->nzones && zi->zone[i].node != node; i++)
			;
		if (i + 1 == zi->nzones)
			zi->nodes++;
	}
	return 0;
}

/* a field of the zone: "key value", each at most once */
static int zone_field(struct parse *p, const char *key, unsigned flag, uint64_t *dst,
		      const char *val)
{
	int r;

	if (p->seen & flag)
		return fail(p, BLAB_ESNAPSHOT, "a second \"%s\" in node %u's zone %s", key,
			    p->z->node, p->z->name);
	if ((r = num_of(p, key, val, dst)))
		return r;
	p->seen |= flag;
	return 0;
}

static int new_cpu(struct parse *p, char **tok, int ntok)
{
	uint64_t cpu, which = 0;
	int r;

	if (ntok != 2 && !(ntok == 4 && strcmp(tok[2], "pcp:") == 0))
		return fail(p, BLAB_ESNAPSHOT, "expected \"cpu: N\"");
	if ((r = end_cpu(p)) || (r = num_of(p, "cpu", tok[1], &cpu)))
		return r;
	if (ntok == 4 && (r = num_of(p, "pcp", tok[3], &which)))
		return r;
	if (cpu >= BLAB_ZONEINFO_MAX_CPUS)
		return fail(p, BLAB_ELIMIT, "cpu %llu: CPUs go up to %u", (unsigned long long)cpu,
			    BLAB_ZONEINFO_MAX_CPUS - 1);
	if (which > 1)
		return fail(p, BLAB_ESNAPSHOT, "pcp: %llu: the 2002 lists are 0 (hot) and 1 (cold)",
			    (unsigned long long)which);
	if (!p->in_pagesets)
		return fail(p, BLAB_ESNAPSHOT, "\"cpu: %u\" before \"pagesets\"", (unsigned)cpu);
	if (which == 1) {
		p->in_cold = 1; /* before 2.6.25: the cold list, after the CPU's hot list */
		return 0;
	}
	if (p->cpu_used[cpu])
		return fail(p, BLAB_ESNAPSHOT, "cpu %u's pageset a second time in zone %s",
			    (unsigned)cpu, p->z->name);
	p->cpu_used[cpu] = 1;
	p->in_cpu = 1;
	p->cpu = (uint32_t)cpu;
	p->cpu_line = p->lineno;
	p->cpu_seen = 0;
	p->count = p->high = p->batch = p->high_min = p->high_max = 0;
	return 0;
}

/* "count:", "high:", "batch:", "high_min:", "high_max:" of the pageset being read; 1 when
 * the key is not one of them */
static int cpu_field(struct parse *p, const char *key, const char *val)
{
	static const char *const names[] = {"count:", "high:", "batch:", "high_min:", "high_max:"};
	uint32_t *dst[] = {&p->count, &p->high, &p->batch, &p->high_min, &p->high_max};
	uint64_t v;
	int r;

	for (unsigned i = 0; i < 5; i++) {
		if (strcmp(key, names[i]) != 0)
			continue;
		if (p->in_cold)
			return num_of(p, key, val, &v);
		if (!p->in_cpu)
			return fail(p, BLAB_ESNAPSHOT, "\"%s\" outside a CPU's pageset", key);
		if (p->cpu_seen & (1u << i))
			return fail(p, BLAB_ESNAPSHOT, "a second \"%s\" in cpu %u's pageset", key,
				    p->cpu);
		if ((r = num_of(p, key, val, &v)))
			return r;
		if (v > 0xffffffffu)
			return fail(p, BLAB_ELIMIT, "%s %llu: a pageset counts in 32 bits", key,
				    (unsigned long long)v);
		*dst[i] = (uint32_t)v;
		p->cpu_seen |= 1u << i;
		return 0;
	}
	return 1;
}

static int line(struct parse *p, char *s)
{
	char *tok[MAX_TOKENS];
	int ntok = 0, r;
	uint64_t v;

	for (char *q = strtok(s, " \t\r\v\f"); q; q = strtok(NULL, " \t\r\v\f")) {
		if (ntok == MAX_TOKENS) {
			if (strcmp(tok[0], "protection:") == 0)
				break; /* lowmem_reserve of every zone type: read no further */
			return fail(p, BLAB_ESNAPSHOT, "not a /proc/zoneinfo line (more than %d words)",
				    MAX_TOKENS);
		}
		tok[ntok++] = q;
	}
	if (!ntok)
		return 0;
	if (strcmp(tok[0], "Node") == 0)
		return new_zone(p, tok, ntok);
	if (!p->z)
		return fail(p, BLAB_ESNAPSHOT, "\"%.32s\" before the first \"Node N, zone NAME\" line "
						"(is this /proc/zoneinfo?)", tok[0]);
	if (ntok == 2 && strcmp(tok[0], "per-node") == 0 && strcmp(tok[1], "stats") == 0)
		return 0;
	if (ntok == 1 && strcmp(tok[0], "pagesets") == 0) {
		p->in_pagesets = 1;
		return 0;
	}
	if (strcmp(tok[0], "protection:") == 0 || strcmp(tok[0], "scanned") == 0)
		return 0; /* lowmem_reserve[]; 2.6's "scanned N (a: N i: N)" */
	if (strcmp(tok[0], "cpu:") == 0)
		return new_cpu(p, tok, ntok);
	if (ntok == 3 && strcmp(tok[0], "pages") == 0 && strcmp(tok[1], "free") == 0)
		return zone_field(p, "pages free", F_FREE, &p->z->free, tok[2]);
	if (ntok == 2 && (r = cpu_field(p, tok[0], tok[1])) != 1)
		return r;
	if (ntok == 2 && word(tok[0])) {
		static const char *const keys[] = {"min", "low", "high", "spanned", "present",
						   "managed"};
		static const unsigned flags[] = {F_MIN, F_LOW, F_HIGH, F_SPANNED, F_PRESENT,
						 F_MANAGED};
		uint64_t *dst[] = {&p->z->wmark_min, &p->z->wmark_low, &p->z->wmark_high, &p->z->spanned,
				   &p->z->present, &p->z->managed};
		for (unsigned i = 0; i < 6; i++)
			if (strcmp(tok[0], keys[i]) == 0) {
				if (p->in_pagesets)
					break; /* a statistic of that name after the watermarks */
				if (flags[i] == F_MANAGED)
					p->z->has_managed = 1;
				return zone_field(p, keys[i], flags[i], dst[i], tok[1]);
			}
		return num_of(p, tok[0], tok[1], &v); /* a statistic: its shape is checked */
	}
	if (ntok == 2 && strcmp(tok[0], "start_pfn:") == 0) {
		if ((r = end_cpu(p)))
			return r;
		p->z->has_start_pfn = 1;
		return zone_field(p, "start_pfn", F_START, &p->z->start_pfn, tok[1]);
	}
	if (ntok >= 2 && word_colon(tok[ntok - 2]) && number(tok[ntok - 1], &v) == 0) {
		/* "vm stats threshold: 24", "node_unreclaimable: 0", ...: the words are names */
		for (int i = 0; i < ntok - 2; i++)
			if (!word(tok[i]))
				return fail(p, BLAB_ESNAPSHOT, "not a /proc/zoneinfo line: \"%.40s\"",
					    tok[0]);
		if ((r = end_cpu(p)))
			return r;
		return 0;
	}
	return fail(p, BLAB_ESNAPSHOT, "not a /proc/zoneinfo line: \"%.40s%s\"", tok[0],
		    ntok > 1 ? " ..." : "");
}

int blab_zoneinfo_parse(const char *text, size_t len, struct blab_zoneinfo **out, char *err,
			size_t errlen)
{
	struct parse p = {0};
	char *buf;
	size_t start = 0;
	int r = 0;

	if (err && errlen)
		err[0] = 0;
	if (!text || !out)
		return BLAB_EINVAL;
	*out = NULL;
	p.err = err;
	p.errlen = errlen;
	if (len > BLAB_ZONEINFO_MAX_BYTES)
		return fail(&p, BLAB_ELIMIT, "%zu bytes: a zoneinfo is at most %u", len,
			    BLAB_ZONEINFO_MAX_BYTES);
	p.zi = calloc(1, sizeof(*p.zi));
	p.cpu_used = calloc(BLAB_ZONEINFO_MAX_CPUS, 1);
	buf = malloc(BLAB_ZONEINFO_MAX_LINE + 1);
	if (!p.zi || !p.cpu_used || !buf) {
		r = fail(&p, BLAB_ENOMEMHOST, "out of host memory");
		goto out;
	}
	while (start < len && !r) {
		size_t end = start;
		while (end < len && text[end] != '\n')
			end++;
		p.lineno++;
		if (end - start > BLAB_ZONEINFO_MAX_LINE) {
			r = fail(&p, BLAB_ELIMIT, "longer than %u bytes", BLAB_ZONEINFO_MAX_LINE);
			break;
		}
		memcpy(buf, text + start, end - start);
		buf[end - start] = 0;
		if (strlen(buf) != end - start) {
			r = fail(&p, BLAB_ESNAPSHOT, "a NUL byte: not a text file");
			break;
		}
		r = line(&p, buf);
		start = end + 1;
	}
	if (!r)
		r = end_zone(&p);
	if (!r && !p.zi->nzones) {
		p.lineno = 0;
		r = fail(&p, BLAB_ESNAPSHOT, len ? "no \"Node N, zone NAME\" line: not a /proc/zoneinfo"
						 : "the file is empty");
	}
out:
	free(buf);
	free(p.cpu_used);
	if (r) {
		free(p.zi);
		return r;
	}
	*out = p.zi;
	return 0;
}

void blab_zoneinfo_free(struct blab_zoneinfo *zi)
{
	free(zi);
}

int blab_zoneinfo_find(const struct blab_zoneinfo *zi, int node, const char *name)
{
	if (!zi || !name)
		return -1;
	for (uint32_t i = 0; i < zi->nzones; i++)
		if ((node < 0 || zi->zone[i].node == (uint32_t)node) &&
		    strcmp(zi->zone[i].name, name) == 0)
			return (int)i;
	return -1;
}

unsigned blab_zoneinfo_node_cpus(const struct blab_zoneinfo *zi, unsigned node_cpus)
{
	unsigned n;

	if (node_cpus)
		return node_cpus;
	if (!zi || !zi->cpus)
		return 1;
	n = zi->cpus / (zi->nodes ? zi->nodes : 1);
	return n ? n : 1;
}

int blab_zoneinfo_strategy(const struct blab_zoneinfo *zi, unsigned zone, unsigned node_cpus,
			   struct blab_strategy *s)
{
	struct blab_pcp_sizes sz;
	const struct blab_zoneinfo_zone *z;
	int r;

	if (!zi || !s || zone >= zi->nzones)
		return BLAB_EINVAL;
	z = &zi->zone[zone];
	s->batch = s->high = s->high_max = 0; /* the era's formulas, not a preset's numbers */
	if ((r = blab_pcp_sizes(s, z->managed, z->wmark_low, blab_zoneinfo_node_cpus(zi, node_cpus),
				&sz)))
		return r;
	s->batch = sz.batch;
	s->high = sz.high;
	s->high_max = sz.high_max;
	return 0;
}

/* ---- the report ---- */


/*
 * How a preset's sizes differ from what the kernel printed, as "field ours != kernel's"
 * items (at most 3): batch always; a 6.7+ preset's high_min and high_max when the file has
 * them; any other preset's one high against the file's high (before 6.7) or high_min (from
 * 6.7, whose `high` moves).
 */
struct diff {
	unsigned n;
	const char *field[3];
	uint32_t ours[3], theirs[3];
};

static void diff_add(struct diff *d, const char *field, uint32_t ours, uint32_t theirs)
{
	if (ours == theirs || d->n == 3)
		return;
	d->field[d->n] = field;
	d->ours[d->n] = ours;
	d->theirs[d->n] = theirs;
	d->n++;
}

static void diff_of(const struct blab_zoneinfo_zone *z, const struct blab_strategy *s,
		    const struct blab_pcp_sizes *sz, struct diff *d)
{
	memset(d, 0, sizeof(*d));
	diff_add(d, "batch", sz->batch, z->batch);
	if (s->high_mode == BLAB_HIGH_AUTO && z->has_high_min) {
		diff_add(d, "high_min", sz->high_min, z->high_min);
		diff_add(d, "high_max", sz->high_max, z->high_max);
	} else if (s->high_mode == BLAB_HIGH_AUTO) {
		diff_add(d, "high", sz->high_min, z->high);
	} else {
		diff_add(d, "high", sz->high, z->has_high_min ? z->high_min : z->high);
	}
}

/* preset i's strategy and sizes for zone z on a node of cpus CPUs, and how they differ from
 * what the kernel printed: 0, or nonzero when the preset has no sizes for it */
static int preset_vs_kernel(const struct blab_zoneinfo_zone *z, unsigned i, unsigned cpus,
			    struct blab_strategy *s, struct blab_pcp_sizes *sz, struct diff *d)
{
	blab_preset(blab_preset_name(i), s);
	if (blab_pcp_sizes(s, z->managed, z->wmark_low, cpus, sz))
		return -1;
	diff_of(z, s, sz, d);
	return 0;
}

/* the names of the presets in mask (bit i: preset i), in preset order, each in quote,
 * after sep (the first after first_sep) */
static void put_matches(struct text_out *o, uint64_t mask, const char *first_sep,
			const char *sep, const char *quote)
{
	for (unsigned i = 0; mask; i++, mask >>= 1)
		if (mask & 1u) {
			text_put(o, "%s%s%s%s", first_sep, quote, blab_preset_name(i), quote);
			first_sep = sep;
		}
}

static void report_zone_text(struct text_out *o, const struct blab_zoneinfo_zone *z, unsigned cpus)
{
	uint64_t matches = 0; /* bit i: preset i gives what the kernel printed */
	unsigned same_era = 0, era_matches = 0;

	text_put(o, "\nNode %u, zone %s (line %u): managed %llu%s, low watermark %llu\n", z->node,
	    z->name, z->line, (unsigned long long)z->managed,
	    z->has_managed ? "" : " (present: the file has no managed line)",
	    (unsigned long long)z->wmark_low);
	if (!z->ncpus) {
		text_put(o, "  no pagesets: an empty zone has no pcp lists\n");
		return;
	}
	text_put(o, "  kernel printed: batch %u, high %u", z->batch, z->high);
	if (z->high_lo != z->high_hi)
		text_put(o, " (%u .. %u over the CPUs)", z->high_lo, z->high_hi);
	if (z->has_high_min)
		text_put(o, ", high_min %u, high_max %u", z->high_min, z->high_max);
	text_put(o, "  (cpu %u; %u CPUs%s)\n", z->first_cpu, z->ncpus,
	    z->cpus_differ ? "; CPUs DIFFER in batch/high_min/high_max" : "");
	text_put(o, "  %-15s %7s %8s %9s %9s  %s\n", "preset", "batch", "high", "high_min", "high_max",
	    "vs the kernel");
	for (unsigned i = 0; i < blab_preset_count(); i++) {
		struct blab_strategy s;
		struct blab_pcp_sizes sz;
		struct diff d;
		char hmin[16] = "-", hmax[16] = "-";
		if (preset_vs_kernel(z, i, cpus, &s, &sz, &d))
			continue;
		if (s.high_mode == BLAB_HIGH_AUTO) {
			snprintf(hmin, sizeof(hmin), "%u", sz.high_min);
			snprintf(hmax, sizeof(hmax), "%u", sz.high_max);
		}
		text_put(o, "  %-15s %7u %8u %9s %9s  ", blab_preset_name(i), sz.batch, sz.high, hmin,
		    hmax);
		if (!d.n)
			text_put(o, "same\n");
		for (unsigned k = 0; k < d.n; k++)
			text_put(o, "%s %u != %u%s", d.field[k], d.ours[k], d.theirs[k],
			    k + 1 < d.n ? ", " : "\n");
		if (z->has_high_min == (s.high_mode == BLAB_HIGH_AUTO)) {
			same_era++;
			era_matches += !d.n;
		}
		if (!d.n)
			matches |= 1ull << i;
	}
	text_put(o, "  matches:");
	put_matches(o, matches, " ", " ", "");
	if (!matches)
		text_put(o, " none");
	text_put(o, "\n");
	if (z->has_high_min && same_era && !era_matches)
		text_put(o, "  MISMATCH: no 6.7+ preset gives what this kernel printed (a watermark or the "
		       "CPUs may have changed since high_min was set; try --cpus)\n");
	else if (!matches)
		text_put(o, "  MISMATCH: no preset gives what this kernel printed\n");
}

static void report_zone_json(struct text_out *o, const struct blab_zoneinfo_zone *z, unsigned cpus)
{
	int first = 1;
	uint64_t matches = 0; /* as report_zone_text()'s */

	text_put(o, "{\"node\":%u,\"zone\":\"%s\",\"line\":%u,\"managed\":%llu,\"managed_line\":%s,"
	       "\"present\":%llu,\"free\":%llu,\"min\":%llu,\"low\":%llu,\"high\":%llu,"
	       "\"pagesets\":%u",
	    z->node, z->name, z->line, (unsigned long long)z->managed,
	    z->has_managed ? "true" : "false", (unsigned long long)z->present,
	    (unsigned long long)z->free, (unsigned long long)z->wmark_min,
	    (unsigned long long)z->wmark_low, (unsigned long long)z->wmark_high, z->ncpus);
	if (z->has_start_pfn)
		text_put(o, ",\"start_pfn\":%llu", (unsigned long long)z->start_pfn);
	if (!z->ncpus) {
		text_put(o, ",\"kernel\":null,\"presets\":{},\"matches\":[]}");
		return;
	}
	text_put(o, ",\"kernel\":{\"cpu\":%u,\"batch\":%u,\"high\":%u,\"high_lo\":%u,\"high_hi\":%u,"
	       "\"count\":%llu",
	    z->first_cpu, z->batch, z->high, z->high_lo, z->high_hi, (unsigned long long)z->count);
	if (z->has_high_min)
		text_put(o, ",\"high_min\":%u,\"high_max\":%u", z->high_min, z->high_max);
	text_put(o, ",\"cpus_differ\":%s},\"presets\":{", z->cpus_differ ? "true" : "false");
	for (unsigned i = 0; i < blab_preset_count(); i++) {
		struct blab_strategy s;
		struct blab_pcp_sizes sz;
		struct diff d;
		if (preset_vs_kernel(z, i, cpus, &s, &sz, &d))
			continue;
		text_put(o, "%s\"%s\":{\"batch\":%u,\"high\":%u", first ? "" : ",", blab_preset_name(i),
		    sz.batch, sz.high);
		first = 0;
		if (s.high_mode == BLAB_HIGH_AUTO)
			text_put(o, ",\"high_min\":%u,\"high_max\":%u", sz.high_min, sz.high_max);
		text_put(o, ",\"differs\":[");
		for (unsigned k = 0; k < d.n; k++)
			text_put(o, "%s{\"field\":\"%s\",\"computed\":%u,\"kernel\":%u}", k ? "," : "",
			    d.field[k], d.ours[k], d.theirs[k]);
		text_put(o, "]}");
		if (!d.n)
			matches |= 1ull << i;
	}
	text_put(o, "},\"matches\":[");
	put_matches(o, matches, "", ",", "\"");
	text_put(o, "]}");
}

size_t blab_zoneinfo_report(const struct blab_zoneinfo *zi, unsigned node_cpus, int json,
			    char *buf, size_t cap)
{
	struct text_out o = {buf, cap, 0};
	unsigned cpus;

	if (cap)
		buf[0] = 0;
	if (!zi)
		return 0;
	cpus = blab_zoneinfo_node_cpus(zi, node_cpus);
	if (json) {
		text_put(&o, "{\"zones_count\":%u,\"nodes\":%u,\"cpus\":%u,\"node_cpus\":%u,"
			"\"node_cpus_given\":%s,\"format\":\"%s\",\"zones\":[",
		    zi->nzones, zi->nodes, zi->cpus, cpus, node_cpus ? "true" : "false",
		    zi->format_67 ? "6.7+" : "before 6.7");
		for (uint32_t i = 0; i < zi->nzones; i++) {
			if (i)
				text_put(&o, ",");
			report_zone_json(&o, &zi->zone[i], cpus);
		}
		text_put(&o, "]}\n");
		return o.len;
	}
	text_put(&o, "/proc/zoneinfo: %u zones on %u node%s, %u CPUs with pagesets, %s\n", zi->nzones,
	    zi->nodes, zi->nodes == 1 ? "" : "s", zi->cpus,
	    zi->format_67 ? "the 6.7+ format (high_min and high_max printed)"
			  : "the format before 6.7 (count, high, batch)");
	text_put(&o, "zone_highsize() splits a zone's low watermark over its node's %u CPUs (%s)\n",
	    cpus, node_cpus ? "as given" : zi->nodes > 1 ? "the CPUs over the nodes: an estimate; "
							 "give the node's CPUs with --cpus"
							 : "every CPU the file lists");
	for (uint32_t i = 0; i < zi->nzones; i++)
		report_zone_text(&o, &zi->zone[i], cpus);
	return o.len;
}
