/*
 * ex_main.c - `blab exercise`: its arguments, and what each way of calling it prints.
 *
 *   blab exercise KIND [--seed N] [--level 1..3] [--preset P] [--student NAME]
 *                      [-c | --answers] [--json] [--check N=ANSWER ...]
 *   blab exercise --sheet --kind K[,K..] [--level L[,L..]] [--count N] [--seed N]
 *                      [--student NAME] [--preset P] [--json | --csv]
 *   blab exercise --student-seed NAME [--seed N]
 *
 * It lives in the core, not in cli/, because the browser runs the very same code through
 * wasm/api.c: the same arguments print the same bytes natively and in WebAssembly. Every
 * argument is bounded and checked, and a refusal says which and why (exit status 2).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "exercise.h"

#define MAX_CHECKS BLAB_EXERCISE_MAX_QUESTIONS

struct ex_args {
	int kind;                 /* -1: none given */
	uint64_t seed;
	unsigned levels[BLAB_EXERCISE_LEVELS], nlevels;
	int kinds[BLAB_EX_KINDS], nkinds;
	const char *preset, *student, *student_seed;
	unsigned count;
	int answers, json, csv, sheet, help;
	struct { unsigned q; const char *typed; } check[MAX_CHECKS];
	unsigned nchecks;
};

static int refuse(FILE *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int refuse(FILE *err, const char *fmt, ...)
{
	char msg[512], shown[6 * sizeof(msg)];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	blab_text_escape(shown, sizeof(shown), msg); /* what it echoes of the input, spelled out */
	fprintf(err, "blab exercise: %s\n", shown);
	return 2;
}

/* a decimal number lo..hi, nothing else */
static int whole(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
	uint64_t v = 0;
	if (!s || !*s || strlen(s) > 20)
		return -1;
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9' || v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

static const char KINDS[] = "buddy, pcp, watermarks, slab, result";

static int parse_kinds(FILE *err, const char *s, struct ex_args *a)
{
	char buf[128];
	char *p, *q;
	if (strlen(s) >= sizeof(buf))
		return refuse(err, "--kind: too long; kinds: %s", KINDS);
	strcpy(buf, s);
	a->nkinds = 0;
	for (p = buf; p; p = q) {
		int k;
		q = strchr(p, ',');
		if (q)
			*q++ = 0;
		k = blab_exercise_kind(p);
		if (k < 0)
			return refuse(err, "--kind: unknown kind '%s'; kinds: %s", p, KINDS);
		for (int i = 0; i < a->nkinds; i++)
			if (a->kinds[i] == k)
				return refuse(err, "--kind: %s twice", p);
		a->kinds[a->nkinds++] = k;
	}
	return 0;
}

static int parse_levels(FILE *err, const char *s, struct ex_args *a, int list)
{
	char buf[32];
	char *p, *q;
	if (strlen(s) >= sizeof(buf))
		return refuse(err, "--level wants 1, 2 or 3%s, not '%.40s'", list ? " (or a list: 1,3)" : "", s);
	strcpy(buf, s);
	a->nlevels = 0;
	for (p = buf; p; p = q) {
		uint64_t v;
		q = strchr(p, ',');
		if (q)
			*q++ = 0;
		if (whole(p, 1, BLAB_EXERCISE_LEVELS, &v) || a->nlevels == BLAB_EXERCISE_LEVELS ||
		    (!list && q))
			return refuse(err, "--level wants 1, 2 or 3%s, not '%s'", list ? " (or a list: 1,3)" : "", s);
		a->levels[a->nlevels++] = (unsigned)v;
	}
	return 0;
}

static int parse_check(FILE *err, const char *s, struct ex_args *a)
{
	const char *eq = strchr(s, '=');
	char num[8];
	uint64_t q;
	if (!eq || eq == s || (size_t)(eq - s) >= sizeof(num))
		return refuse(err, "--check wants N=ANSWER, N a question's number, not '%.60s'", s);
	memcpy(num, s, (size_t)(eq - s));
	num[eq - s] = 0;
	if (whole(num, 1, BLAB_EXERCISE_MAX_QUESTIONS, &q))
		return refuse(err, "--check: '%s' is not a question's number (1..%u)", num,
			      BLAB_EXERCISE_MAX_QUESTIONS);
	if (strlen(eq + 1) > BLAB_EXERCISE_ANSWER_MAX)
		return refuse(err, "--check %s: the answer is longer than %u bytes", num,
			      BLAB_EXERCISE_ANSWER_MAX);
	if (a->nchecks == MAX_CHECKS)
		return refuse(err, "--check: at most %u answers", MAX_CHECKS);
	for (unsigned i = 0; i < a->nchecks; i++)
		if (a->check[i].q == q)
			return refuse(err, "--check: question %s twice", num);
	a->check[a->nchecks].q = (unsigned)q;
	a->check[a->nchecks].typed = eq + 1;
	a->nchecks++;
	return 0;
}

static int takes_value(const char *o)
{
	static const char *const with[] = {"--seed", "--level", "--kind", "--count", "--preset",
					   "--student", "--student-seed", "--check"};
	for (unsigned i = 0; i < sizeof(with) / sizeof(with[0]); i++)
		if (!strcmp(o, with[i]))
			return 1;
	return 0;
}

static int parse(int argc, char **argv, FILE *err, struct ex_args *a)
{
	memset(a, 0, sizeof(*a));
	a->kind = -1;
	a->count = 10;
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		uint64_t n;
		int r = 0, takes = 1;

		if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
			a->help = 1;
			return 0;
		} else if (!strcmp(o, "-c") || !strcmp(o, "--answers")) {
			a->answers = 1, takes = 0;
		} else if (!strcmp(o, "--json")) {
			a->json = 1, takes = 0;
		} else if (!strcmp(o, "--csv")) {
			a->csv = 1, takes = 0;
		} else if (!strcmp(o, "--sheet")) {
			a->sheet = 1, takes = 0;
		} else if (o[0] == '-' && !takes_value(o)) {
			return refuse(err, "unknown argument '%.60s' (blab exercise --help)", o);
		} else if (o[0] == '-' && !v) {
			return refuse(err, "%s wants a value", o);
		} else if (!strcmp(o, "--seed")) {
			if (whole(v, 0, BLAB_EXERCISE_SEED_MAX, &n))
				return refuse(err, "--seed wants a whole number 0..4294967295, not '%.40s'", v);
			a->seed = n;
		} else if (!strcmp(o, "--level")) {
			r = parse_levels(err, v, a, 1);
		} else if (!strcmp(o, "--kind")) {
			r = parse_kinds(err, v, a);
		} else if (!strcmp(o, "--count")) {
			if (whole(v, 1, BLAB_EXERCISE_MAX_COUNT, &n))
				return refuse(err, "--count wants 1..%u problems, not '%.40s'",
					      BLAB_EXERCISE_MAX_COUNT, v);
			a->count = (unsigned)n;
		} else if (!strcmp(o, "--preset")) {
			if (strlen(v) >= 32)
				return refuse(err, "--preset: no preset has a name that long");
			a->preset = v;
		} else if (!strcmp(o, "--student")) {
			a->student = v;
		} else if (!strcmp(o, "--student-seed")) {
			a->student_seed = v;
		} else if (!strcmp(o, "--check")) {
			r = parse_check(err, v, a);
		} else if (o[0] != '-' && a->kind < 0 && !a->sheet) {
			a->kind = blab_exercise_kind(o);
			if (a->kind < 0)
				return refuse(err, "unknown kind '%.40s'; kinds: %s", o, KINDS);
			takes = 0;
		} else {
			return refuse(err, "unknown argument '%.60s' (blab exercise --help)", o);
		}
		if (r)
			return r;
		i += takes;
	}
	if (!a->nlevels)
		a->levels[a->nlevels++] = 1;
	return 0;
}

static int usage(FILE *f)
{
	fprintf(f,
"usage: blab exercise KIND [--seed N] [--level 1..3] [--preset P] [--student NAME]\n"
"                          [-c | --answers] [--json] [--check N=ANSWER ...]\n"
"       blab exercise --sheet --kind K[,K..] [--level L[,L..]] [--count N] [--seed N]\n"
"                          [--student NAME] [--preset P] [--json | --csv]\n"
"       blab exercise --student-seed NAME [--seed N]\n"
"\n"
"A problem made from a seed and answered by running the allocator core: the answers\n"
"and their working (the events, by kernel function) come from the core itself.\n"
"\n"
"kinds:\n"
"  buddy       a small zone's free lists; alloc(order) / free(pfn, order): the pfn\n"
"              handed out, a block's buddy, the order a free ends at, /proc/buddyinfo\n"
"  pcp         one CPU's pcp list (count/high/batch): when rmqueue_bulk() refills and\n"
"              free_pcppages_bulk() drains, how many pages, count and high after\n"
"  watermarks  does zone_watermark_ok() pass; which zone of a node serves a request\n"
"  slab        a SLUB cache on two CPUs, kmalloc/kfree: the object handed out, when a\n"
"              new slab is taken, the freelists after a remote free\n"
"  result      a compare of two presets run on the model machine: which is faster,\n"
"              which counter explains it\n"
"levels: 1 one operation, 2 a short sequence, 3 a sequence with a twist.\n"
"\n"
"  --seed N        0..4294967295 (default 0): the same seed, the same problem\n"
"  --level L       1, 2 or 3 (default 1); a list (1,2,3) for a sheet\n"
"  --preset P      the kernel it is posed on (default: the kind's; blab presets)\n"
"  --student NAME  the student's own seed from NAME and --seed (the class seed)\n"
"  -c, --answers   the answers, and the working that gave each\n"
"  --json          one JSON object: kind, seed, level, preset, ops (the problem as a\n"
"                  blab replay op script), questions, and with -c answers\n"
"  --check N=A     hold answer A to question N: right, wrong (with the working), or\n"
"                  not an answer of the question's form (it says which form)\n"
"  --sheet         a sheet of --count problems (default 10) for a class: Markdown with\n"
"                  an answer key after the problems; --json or --csv for the key alone\n"
"  --kind K,..     the kinds a sheet cycles through\n"
"  --student-seed NAME   print the seed a student of class --seed N gets\n"
"\n"
"examples:\n"
"  blab exercise buddy --seed 7 --level 2\n"
"  blab exercise buddy --seed 7 --level 2 -c\n"
"  blab exercise pcp --seed 3 --check 1=2 --check 2=31\n"
"  blab exercise --sheet --kind buddy,pcp --count 20 --seed 2024 > sheet.md\n");
	return 0;
}

/* one problem: text, JSON, answers, checks */
static int one(FILE *out, FILE *err, const struct ex_args *a, uint64_t seed)
{
	struct blab_exercise *ex;
	char why[300];
	int rc = blab_exercise_make((unsigned)a->kind, a->levels[0], seed, a->preset, &ex, why,
				    sizeof(why));
	if (rc == BLAB_EPRESET || rc == BLAB_EINVAL)
		return refuse(err, "%s", why);
	if (rc) {
		fprintf(err, "blab exercise: %s\n", why);
		return 1;
	}
	for (unsigned i = 0; i < a->nchecks; i++)
		if (a->check[i].q > ex->nq) {
			rc = refuse(err, "--check %u: this problem has %u questions", a->check[i].q, ex->nq);
			blab_exercise_free(ex);
			return rc;
		}
	if (a->json) {
		ex_print_json(out, ex, a->answers, 0); /* the marks go inside the object */
	} else {
		ex_print_text(out, ex, a->answers);
	}
	if (a->nchecks) {
		if (!a->json)
			fprintf(out, "\nYour answers\n\n");
		for (unsigned i = 0; i < a->nchecks; i++) {
			const struct ex_question *q = &ex->q[a->check[i].q - 1];
			char say[256];
			int m = ex_check(q, a->check[i].typed, say, sizeof(say));
			static const char *const marks[] = {"right", "wrong", "malformed"};
			if (m < 0)
				m = 1;
			if (a->json) {
				fprintf(out, "%s{\"n\":%u,\"mark\":\"%s\"", i ? "," : ",\"marks\":[",
					a->check[i].q, marks[m]);
				if (m == 2) {
					fputs(",\"say\":", out);
					ex_json_string(out, say);
				}
				if (m == 1) {
					fputs(",\"answer\":", out);
					ex_json_string(out, ex_str(&q->answer));
					fputs(",\"working\":", out);
					ex_json_lines(out, ex_str(&q->working));
					fprintf(out, ",\"events\":[%u,%u]", q->ev_from, q->ev_to);
				}
				fputc('}', out);
			} else if (m == 0) {
				fprintf(out, "  %u. right\n", a->check[i].q);
			} else if (m == 2) {
				fprintf(out, "  %u. not an answer: %s\n", a->check[i].q, say);
			} else {
				fprintf(out, "  %u. wrong: the answer is %s, from the core's working:\n",
					a->check[i].q, ex_str(&q->answer));
				ex_print_lines(out, ex_str(&q->working), "       ");
			}
		}
		if (a->json)
			fputc(']', out);
	}
	if (a->json)
		fputs("}\n", out);
	blab_exercise_free(ex);
	return 0;
}

int blab_exercise_main(int argc, char **argv, void *outp, void *errp)
{
	FILE *out = outp ? outp : stdout, *err = errp ? errp : stderr;
	struct ex_args a;
	uint64_t seed;
	int rc = parse(argc, argv, err, &a);

	if (rc)
		return rc;
	if (a.help || argc < 2)
		return argc < 2 ? (usage(err), 2) : usage(out);
	seed = a.seed;
	if (a.student || a.student_seed) {
		int64_t s = blab_exercise_student_seed(a.seed, a.student ? a.student : a.student_seed);
		if (s < 0)
			return refuse(err, "--student%s: a name or ID of 1..%u bytes, nothing hidden or reversed in it",
				      a.student ? "" : "-seed", BLAB_EXERCISE_NAME_MAX);
		seed = (uint64_t)s;
	}
	if (a.student_seed) {
		if (a.kind >= 0 || a.sheet)
			return refuse(err, "--student-seed prints a seed: use --student NAME with a problem or a sheet");
		fprintf(out, "%llu\n", (unsigned long long)seed);
		return 0;
	}
	if (a.csv && !a.sheet)
		return refuse(err, "--csv is a sheet's answer key: add --sheet");
	if (a.csv && a.json)
		return refuse(err, "--csv or --json, not both");
	if (a.sheet) {
		if (a.kind >= 0)
			return refuse(err, "--sheet takes its kinds from --kind, not a KIND argument");
		if (!a.nkinds)
			return refuse(err, "--sheet needs --kind K[,K..] (kinds: %s)", KINDS);
		if (a.answers || a.nchecks)
			return refuse(err, "a sheet has its answer key already: no -c or --check");
		return ex_sheet(out, err, a.kinds, a.nkinds, a.levels, a.nlevels, a.count, seed,
				a.student, a.preset, a.json ? 1u : a.csv ? 2u : 0u);
	}
	if (a.kind < 0)
		return refuse(err, "which kind? %s (or --sheet)", KINDS);
	if (a.nkinds || a.count != 10)
		return refuse(err, "--kind and --count are a sheet's (add --sheet)");
	if (a.nlevels > 1)
		return refuse(err, "--level: one level for one problem (a list is a sheet's)");
	return one(out, err, &a, seed);
}
