/*
 * ex_sheet.c - a sheet for a class: --count problems cycling through the kinds (and the
 * levels), each with its own seed drawn from the class seed (blab_exercise_item_seed()),
 * printed as Markdown with the answer key after the problems, or the key as JSON or CSV.
 */
#include <stdlib.h>
#include <string.h>
#include "exercise.h"

static void csv_field(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
	fputc('"', f);
}

static void markdown_problem(FILE *out, unsigned i, const struct blab_exercise *ex)
{
	fprintf(out, "## Problem %u: %s\n\n```text\n%s```\n\n", i + 1, ex_str(&ex->title),
		ex_str(&ex->statement));
	for (unsigned k = 0; k < ex->nq; k++) {
		const struct ex_question *q = &ex->q[k];
		char hint[160];
		ex_form_hint(q, hint, sizeof(hint));
		fprintf(out, "%u. %s *(%s)*\n", k + 1, ex_str(&q->text), hint);
		for (unsigned c = 0; c < q->nchoices; c++)
			fprintf(out, "   %c) %s\n", 'a' + c, ex_str(&q->choice[c]));
	}
	fprintf(out, "\nIn the browser: `?exercise=%s&seed=%llu&level=%u%s%s`\n\n",
		blab_exercise_kind_name(ex->kind), (unsigned long long)ex->seed, ex->level,
		ex->preset[0] ? "&preset=" : "", ex->preset);
}

static void markdown_key(FILE *out, unsigned i, const struct blab_exercise *ex)
{
	fprintf(out, "## Problem %u: %s\n\n", i + 1, ex_str(&ex->title));
	for (unsigned k = 0; k < ex->nq; k++) {
		const struct ex_question *q = &ex->q[k];
		const char *w = ex_str(&q->working);
		fprintf(out, "%u. **%s**", k + 1, ex_str(&q->answer));
		if (q->form == EX_FORM_CHOICE && q->answer.len == 1 &&
		    (unsigned)(q->answer.p[0] - 'a') < q->nchoices)
			fprintf(out, " (%s)", ex_str(&q->choice[q->answer.p[0] - 'a']));
		fputc('\n', out);
		while (*w) {
			const char *nl = strchr(w, '\n');
			size_t n = nl ? (size_t)(nl - w) : strlen(w);
			fprintf(out, "   - %.*s\n", (int)n, w);
			w += n + (nl ? 1 : 0);
		}
	}
	fputc('\n', out);
}

int ex_sheet(FILE *out, FILE *err, const int *kinds, int nkinds, const unsigned *levels,
	     unsigned nlevels, unsigned count, uint64_t seed, const char *student,
	     const char *preset, unsigned fmt)
{
	struct blab_exercise **ex = calloc(count, sizeof(*ex));
	int rc = 0;

	if (!ex) {
		fprintf(err, "blab exercise: out of host memory for the sheet\n");
		return 1;
	}
	for (unsigned i = 0; i < count && !rc; i++) {
		char why[300];
		int e = blab_exercise_make((unsigned)kinds[i % (unsigned)nkinds],
					   levels[(i / (unsigned)nkinds) % nlevels],
					   blab_exercise_item_seed(seed, i), preset, &ex[i], why,
					   sizeof(why));
		if (e) {
			fprintf(err, "blab exercise: problem %u: %s\n", i + 1, why);
			rc = e == BLAB_EPRESET || e == BLAB_EINVAL ? 2 : 1;
		}
	}
	if (rc)
		goto out;
	if (fmt == 1) {
		fprintf(out, "{\"sheet\":{\"seed\":%llu,\"count\":%u,", (unsigned long long)seed, count);
		if (student) {
			fputs("\"student\":", out);
			ex_json_string(out, student);
			fputc(',', out);
		}
		fputs("\"kinds\":[", out);
		for (int k = 0; k < nkinds; k++)
			fprintf(out, "%s\"%s\"", k ? "," : "", blab_exercise_kind_name((unsigned)kinds[k]));
		fputs("],\"levels\":[", out);
		for (unsigned l = 0; l < nlevels; l++)
			fprintf(out, "%s%u", l ? "," : "", levels[l]);
		fputs("]},\"problems\":[", out);
		for (unsigned i = 0; i < count; i++) {
			fputs(i ? ",\n" : "\n", out);
			ex_print_json(out, ex[i], 1, 1);
		}
		fputs("\n]}\n", out);
	} else if (fmt == 2) {
		fputs("problem,kind,level,seed,preset,question,answer,form\n", out);
		for (unsigned i = 0; i < count; i++)
			for (unsigned k = 0; k < ex[i]->nq; k++) {
				fprintf(out, "%u,%s,%u,%llu,%s,%u,", i + 1,
					blab_exercise_kind_name(ex[i]->kind), ex[i]->level,
					(unsigned long long)ex[i]->seed, ex[i]->preset, k + 1);
				csv_field(out, ex_str(&ex[i]->q[k].answer));
				fprintf(out, ",%s\n", ex_form_name(ex[i]->q[k].form));
			}
	} else {
		fprintf(out, "# Exercise sheet: class seed %llu, %u problems\n\n",
			(unsigned long long)seed, count);
		if (student)
			fprintf(out, "For **%s** (their own seed, from the class seed and the name).\n\n",
				student);
		fprintf(out, "Each problem names its seed: `blab exercise KIND --seed N --level L` prints it "
			     "again, with `-c` its answers and their working.\n\n");
		for (unsigned i = 0; i < count; i++)
			markdown_problem(out, i, ex[i]);
		fprintf(out, "<div style=\"page-break-before: always\"></div>\n\n# Answer key\n\n");
		for (unsigned i = 0; i < count; i++)
			markdown_key(out, i, ex[i]);
	}
out:
	for (unsigned i = 0; i < count; i++)
		blab_exercise_free(ex[i]);
	free(ex);
	return rc;
}
