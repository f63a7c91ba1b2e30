/*
 * ex_print.c - a problem as a student reads it (text), with its answers and their working
 * (-c), and as one JSON object (--json) for the browser and for tools.
 */
#include <string.h>
#include "exercise.h"

void ex_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* the working's lines, each indented */
void ex_print_lines(FILE *f, const char *s, const char *indent)
{
	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		fprintf(f, "%s%.*s\n", indent, (int)n, s);
		s += n + (nl ? 1 : 0);
	}
}

void ex_print_text(FILE *f, const struct blab_exercise *ex, int answers)
{
	fprintf(f, "%s\n\n%s\nQuestions\n\n", ex_str(&ex->title), ex_str(&ex->statement));
	for (unsigned i = 0; i < ex->nq; i++) {
		const struct ex_question *q = &ex->q[i];
		char hint[160];
		ex_form_hint(q, hint, sizeof(hint));
		fprintf(f, "  %u. %s\n", i + 1, ex_str(&q->text));
		for (unsigned c = 0; c < q->nchoices; c++)
			fprintf(f, "       %c) %s\n", 'a' + c, ex_str(&q->choice[c]));
		fprintf(f, "     [%s]\n", hint);
	}
	if (!answers)
		return;
	fprintf(f, "\nAnswers, and the working from the core's event log\n\n");
	for (unsigned i = 0; i < ex->nq; i++) {
		const struct ex_question *q = &ex->q[i];
		fprintf(f, "  %u. %s", i + 1, ex_str(&q->answer));
		if (q->form == EX_FORM_CHOICE && q->answer.len == 1 &&
		    (unsigned)(q->answer.p[0] - 'a') < q->nchoices)
			fprintf(f, ") %s", ex_str(&q->choice[q->answer.p[0] - 'a']));
		fputc('\n', f);
		ex_print_lines(f, ex_str(&q->working), "       ");
	}
}

void ex_json_lines(FILE *f, const char *s)
{
	int first = 1;
	fputc('[', f);
	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		char line[1024];
		if (n >= sizeof(line))
			n = sizeof(line) - 1;
		memcpy(line, s, n);
		line[n] = 0;
		if (!first)
			fputc(',', f);
		ex_json_string(f, line);
		first = 0;
		s += (nl ? (size_t)(nl - s) + 1 : strlen(s));
	}
	fputc(']', f);
}

void ex_print_json(FILE *f, const struct blab_exercise *ex, int answers, int close)
{
	fprintf(f, "{\"kind\":\"%s\",\"seed\":%llu,\"level\":%u,\"preset\":",
		blab_exercise_kind_name(ex->kind), (unsigned long long)ex->seed, ex->level);
	ex_json_string(f, ex->preset);
	fputs(",\"title\":", f);
	ex_json_string(f, ex_str(&ex->title));
	fputs(",\"statement\":", f);
	ex_json_string(f, ex_str(&ex->statement));
	fputs(",\"ops\":", f);
	ex_json_string(f, ex_str(&ex->ops));
	fprintf(f, ",\"setup_events\":%u,\"views\":", ex->setup_events);
	ex_json_string(f, ex->views ? ex->views : "");
	fputs(ex->json.len ? "," : "", f);
	fputs(ex_str(&ex->json), f);
	fputs(",\"questions\":[", f);
	for (unsigned i = 0; i < ex->nq; i++) {
		const struct ex_question *q = &ex->q[i];
		char hint[160];
		ex_form_hint(q, hint, sizeof(hint));
		fprintf(f, "%s{\"n\":%u,\"text\":", i ? "," : "", i + 1);
		ex_json_string(f, ex_str(&q->text));
		fprintf(f, ",\"form\":\"%s\",\"hint\":", ex_form_name(q->form));
		ex_json_string(f, hint);
		if (q->form == EX_FORM_BUDDYINFO)
			fprintf(f, ",\"width\":%u", q->width);
		if (q->nchoices) {
			fputs(",\"choices\":[", f);
			for (unsigned c = 0; c < q->nchoices; c++) {
				fputs(c ? "," : "", f);
				ex_json_string(f, ex_str(&q->choice[c]));
			}
			fputc(']', f);
		}
		fputc('}', f);
	}
	fputc(']', f);
	if (answers) {
		fputs(",\"answers\":[", f);
		for (unsigned i = 0; i < ex->nq; i++) {
			const struct ex_question *q = &ex->q[i];
			fprintf(f, "%s{\"n\":%u,\"answer\":", i ? "," : "", i + 1);
			ex_json_string(f, ex_str(&q->answer));
			fputs(",\"working\":", f);
			ex_json_lines(f, ex_str(&q->working));
			fprintf(f, ",\"events\":[%u,%u]}", q->ev_from, q->ev_to);
		}
		fputc(']', f);
	}
	if (close)
		fputc('}', f);
}
