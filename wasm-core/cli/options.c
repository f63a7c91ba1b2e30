/* options.c - parsing, --help and the --json echo from one option table (options.h) */
#include "options.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void *field(void *base, const struct cli_opt *o)
{
	return (char *)base + o->off;
}

static int say(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (err && errlen)
		vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* a decimal number 0..max, nothing before or after it: 0 or -1 */
static int parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;
	if (!s || *s < '0' || *s > '9')
		return -1; /* strtoull would take a sign or leading blanks */
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

int cli_parse_size(const char *s, uint64_t *out)
{
	static const char units[] = "KMGT";
	char num[32];
	size_t n = strspn(s, "0123456789");
	uint64_t v, mul = 1;
	const char *u = s + n;

	if (!n || n >= sizeof(num))
		return -1;
	memcpy(num, s, n);
	num[n] = 0;
	if (parse_u64(num, UINT64_MAX, &v))
		return -1;
	if (*u) {
		const char *k = strchr(units, *u);
		if (!k || !*k)
			return -1;
		int binary = u[1] == 'i';
		if (u[1 + binary] != 0)
			return -1;
		for (long i = 0; i <= k - units; i++)
			mul *= binary ? 1024u : 1000u;
	}
	if (v > UINT64_MAX / mul)
		return -1;
	*out = v * mul;
	return 0;
}

int cli_mem_limit(uint64_t *limit, char *err, size_t errlen)
{
	const char *env = getenv("BLAB_MEM_LIMIT");
	if (*limit || !env || !*env)
		return 0;
	if (cli_parse_size(env, limit) || !*limit)
		return say(err, errlen, "BLAB_MEM_LIMIT wants bytes (a number with K, M, G or T, "
			   "or Ki, Mi, Gi, Ti), not '%s'", env);
	return 0;
}

static int in_mask(const struct cli_parse *p, const struct cli_opt *o)
{
	return !o->only || (o->only & p->mask);
}

static int is_name(const struct cli_opt *o, const char *name)
{
	if (o->name_ok)
		return o->name_ok(name);
	for (const char *const *c = o->choices; c && *c; c++)
		if (!strcmp(*c, name))
			return 1;
	return 0;
}

static int set_list(const struct cli_opt *o, struct cli_list *l, const char *v, char *err,
		    size_t errlen)
{
	char *tok, *end;

	if (strlen(v) >= sizeof(l->buf))
		return say(err, errlen, "%s list too long: %s", o->name, v);
	memset(l, 0, sizeof(*l));
	strcpy(l->buf, v);
	if (!*v)
		return say(err, errlen, "%s needs at least one value", o->name);
	for (tok = l->buf;; tok = end + 1) {
		end = strchr(tok, ',');
		if (end)
			*end = 0;
		if (!*tok)
			return say(err, errlen, "%s: an empty value in '%s'", o->name, v);
		if (l->n == o->count || l->n == CLI_LIST_MAX) {
			unsigned most = o->count < CLI_LIST_MAX ? (unsigned)o->count : CLI_LIST_MAX;
			return say(err, errlen, "%s: at most %u value%s", o->name, most,
				   most == 1 ? "" : "s");
		}
		if (o->kind == CLI_NUMBERS) {
			uint64_t x;
			if (parse_u64(tok, UINT64_MAX, &x) || x < o->min || x > o->max)
				return say(err, errlen, "%s wants numbers %llu..%llu, not '%s'",
					   o->name, (unsigned long long)o->min,
					   (unsigned long long)o->max, tok);
			for (uint32_t i = 0; i < l->n; i++)
				if (l->v[i] == x)
					return say(err, errlen, "%s: %s given twice", o->name, tok);
			l->v[l->n] = x;
		} else {
			if (!is_name(o, tok))
				return say(err, errlen, o->unknown, tok);
			for (uint32_t i = 0; i < l->n; i++)
				if (!strcmp(l->name[i], tok))
					return say(err, errlen, "%s: '%s' given twice", o->name, tok);
		}
		l->name[l->n++] = tok;
		if (!end)
			break;
	}
	return 0;
}

/* "none, merge or full" */
static void choice_list(char *buf, size_t len, const char *const *c)
{
	size_t n = 0;
	buf[0] = 0;
	for (unsigned i = 0; c[i]; i++)
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s",
				      !i ? "" : c[i + 1] ? ", " : " or ", c[i]);
}

static int set(const struct cli_opt *o, void *base, const char *v, char *err, size_t errlen)
{
	uint64_t x;

	switch (o->kind) {
	case CLI_FLAG:
		*(int *)field(base, o) = 1;
		return 0;
	case CLI_TEXT:
		*(const char **)field(base, o) = v;
		return 0;
	case CLI_UINT:
		if (parse_u64(v, o->max, &x) || x < o->min) {
			if (o->max == UINT64_MAX && !o->min)
				return say(err, errlen, "%s wants a decimal number, not '%s'", o->name, v);
			return say(err, errlen, "%s wants %llu..%llu, not '%s'", o->name,
				   (unsigned long long)o->min, (unsigned long long)o->max, v);
		}
		*(uint64_t *)field(base, o) = x;
		return 0;
	case CLI_POW2:
		if (parse_u64(v, o->max, &x) || x < o->min || (x & (x - 1)))
			return say(err, errlen, "%s wants %llu, %llu, %llu, .. %llu, not '%s'", o->name,
				   (unsigned long long)o->min, (unsigned long long)o->min * 2,
				   (unsigned long long)o->min * 4, (unsigned long long)o->max, v);
		*(uint64_t *)field(base, o) = x;
		return 0;
	case CLI_SIZE:
		if (cli_parse_size(v, &x) || x < o->min || x > o->max)
			return say(err, errlen, "%s wants bytes (a number with K, M, G or T, or Ki, "
				   "Mi, Gi, Ti), at least %llu, not '%s'", o->name,
				   (unsigned long long)o->min, v);
		*(uint64_t *)field(base, o) = x;
		return 0;
	case CLI_CHOICE:
		for (x = 0; o->choices[x]; x++)
			if (!strcmp(o->choices[x], v)) {
				*(uint64_t *)field(base, o) = x;
				return 0;
			}
		{
			char all[160];
			choice_list(all, sizeof(all), o->choices);
			return say(err, errlen, "%s wants %s, not '%s'", o->name, all, v);
		}
	case CLI_NUMBERS:
	case CLI_NAMES:
		return set_list(o, (struct cli_list *)field(base, o), v, err, errlen);
	}
	return say(err, errlen, "%s: unknown kind", o->name);
}

int cli_parse(struct cli_parse *p, int argc, char **argv, void *base, char *err, size_t errlen)
{
	if (err && errlen)
		err[0] = 0;
	if (p->nopt > sizeof(p->given))
		return say(err, errlen, "too many options in the table");
	memset(p->given, 0, sizeof(p->given));
	/* every default, the mask's or not: a field a workload does not use still holds it */
	for (size_t k = 0; k < p->nopt; k++)
		if (p->opt[k].def && set(&p->opt[k], base, p->opt[k].def, err, errlen))
			return -1; /* a default the table cannot parse: a bug in the table */
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		const struct cli_opt *o = NULL;
		size_t k;
		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return 1;
		for (k = 0; k < p->nopt && !o; k++)
			if (!strcmp(p->opt[k].name, a) && in_mask(p, &p->opt[k]))
				o = &p->opt[k];
		if (!o) {
			for (k = 0; k < p->nopt; k++)
				if (!strcmp(p->opt[k].name, a)) {
					if (p->why_not)
						return say(err, errlen, p->why_not, a);
					break;
				}
			if (p->for_what)
				return say(err, errlen, "unknown option '%s' for %s", a, p->for_what);
			return say(err, errlen, "unknown option '%s'", a);
		}
		k = (size_t)(o - p->opt);
		if (p->given[k])
			return say(err, errlen, "%s given twice", a);
		p->given[k] = 1;
		if (o->kind != CLI_FLAG) {
			if (!v)
				return say(err, errlen, "%s needs a value", a);
			i++;
		}
		if (set(o, base, v, err, errlen))
			return -1;
	}
	return 0;
}

int cli_given(const struct cli_parse *p, const char *name)
{
	for (size_t k = 0; k < p->nopt; k++)
		if (p->given[k] && !strcmp(p->opt[k].name, name))
			return 1;
	return 0;
}

void cli_synopsis(FILE *f, const struct cli_parse *p, const char *lead, unsigned indent)
{
	size_t col = strlen(lead);
	fputs(lead, f);
	for (size_t k = 0; k < p->nopt; k++) {
		const struct cli_opt *o = &p->opt[k];
		char item[96];
		int req = o->flags & CLI_REQUIRED;
		if (!in_mask(p, o))
			continue;
		snprintf(item, sizeof(item), "%s%s%s%s%s", req ? "" : "[", o->name,
			 o->kind == CLI_FLAG ? "" : " ", o->kind == CLI_FLAG ? "" : o->value,
			 req ? "" : "]");
		if (col + 1 + strlen(item) > 80) {
			fprintf(f, "\n%*s", (int)indent, "");
			col = indent;
		} else {
			fputc(' ', f);
			col++;
		}
		fputs(item, f);
		col += strlen(item);
	}
	fputc('\n', f);
}

#define HELP_COL 23 /* where the option list's text starts */

/* words of text from column col on, wrapped before column 80 at HELP_COL; returns the column */
static size_t wrap(FILE *f, const char *text, size_t col)
{
	while (*text) {
		size_t n = strcspn(text, " ");
		if (col > HELP_COL && col + 1 + n > 80) {
			fprintf(f, "\n%*s", HELP_COL, "");
			col = HELP_COL;
		} else if (col > HELP_COL) {
			fputc(' ', f);
			col++;
		}
		fwrite(text, 1, n, f);
		col += n;
		text += n;
		text += strspn(text, " ");
	}
	return col;
}

void cli_help(FILE *f, const struct cli_parse *p)
{
	for (size_t k = 0; k < p->nopt; k++) {
		const struct cli_opt *o = &p->opt[k];
		char head[64], def[80];
		size_t col;
		if (!in_mask(p, o))
			continue;
		snprintf(head, sizeof(head), "  %s%s%s", o->name, o->kind == CLI_FLAG ? "" : " ",
			 o->kind == CLI_FLAG ? "" : o->value);
		fputs(head, f);
		col = strlen(head);
		if (col + 1 > HELP_COL) {
			fprintf(f, "\n%*s", HELP_COL, "");
		} else {
			fprintf(f, "%*s", (int)(HELP_COL - col), "");
		}
		col = wrap(f, o->help ? o->help : "", HELP_COL);
		if (o->def && o->kind != CLI_FLAG) {
			snprintf(def, sizeof(def), "(default %s)", o->def);
			wrap(f, def, col);
		}
		fputc('\n', f);
	}
}

void cli_json(FILE *f, const struct cli_parse *p, const void *base)
{
	for (size_t k = 0; k < p->nopt; k++) {
		const struct cli_opt *o = &p->opt[k];
		const void *v = (const char *)base + o->off;
		if (!o->json || !in_mask(p, o))
			continue;
		switch (o->kind) {
		case CLI_FLAG:
			if ((o->flags & CLI_JSON_IF_SET) && !*(const int *)v)
				break;
			fprintf(f, "\"%s\":%s,", o->json, *(const int *)v ? "true" : "false");
			break;
		case CLI_UINT:
		case CLI_POW2:
		case CLI_SIZE:
			fprintf(f, "\"%s\":%llu,", o->json, (unsigned long long)*(const uint64_t *)v);
			break;
		case CLI_CHOICE:
			fprintf(f, "\"%s\":\"%s\",", o->json, o->choices[*(const uint64_t *)v]);
			break;
		case CLI_NAMES: {
			const struct cli_list *l = v;
			if (l->n)
				fprintf(f, "\"%s\":\"%s\",", o->json, l->name[0]);
			break;
		}
		case CLI_NUMBERS:
		case CLI_TEXT:
			break; /* not settings the echo carries */
		}
	}
}
