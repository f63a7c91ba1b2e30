/*
 * ex_core.c - a problem's life: made from its seed by its kind's generator, run on the core
 * as an op script, read back, freed. The texts it grows, and the kinds' table.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "exercise.h"

/* ---- texts ---- */

static void reserve(struct ex_buf *b, size_t more)
{
	size_t cap;
	char *p;

	if (b->nomem || b->len + more + 1 <= b->cap)
		return;
	cap = b->cap ? b->cap : 256;
	while (cap < b->len + more + 1)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p) {
		b->nomem = 1;
		return;
	}
	b->p = p;
	b->cap = cap;
}

void ex_puts(struct ex_buf *b, const char *s)
{
	size_t n = strlen(s);
	reserve(b, n);
	if (b->nomem)
		return;
	memcpy(b->p + b->len, s, n + 1);
	b->len += n;
}

void ex_printf(struct ex_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	reserve(b, (size_t)n);
	if (b->nomem)
		return;
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

#define WRAP 90 /* columns of a paragraph a problem prints */

void ex_para(struct ex_buf *b, const char *fmt, ...)
{
	char text[2048];
	const char *p = text;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	/* a blank line between paragraphs */
	if (b->len && !(b->len >= 2 && b->p[b->len - 1] == '\n' && b->p[b->len - 2] == '\n'))
		ex_puts(b, b->p[b->len - 1] == '\n' ? "\n" : "\n\n");
	while (*p) {
		size_t n = strlen(p), cut = n;
		if (n > WRAP) {
			cut = WRAP;
			while (cut && p[cut] != ' ')
				cut--;
			if (!cut)
				cut = strcspn(p, " "); /* one word longer than a line: it stays whole */
		}
		reserve(b, cut + 1);
		if (b->nomem)
			return;
		memcpy(b->p + b->len, p, cut);
		b->len += cut;
		b->p[b->len++] = '\n';
		b->p[b->len] = 0;
		p += cut;
		while (*p == ' ')
			p++;
	}
}

const char *ex_str(const struct ex_buf *b)
{
	return b->p && !b->nomem ? b->p : "";
}

void ex_buf_free(struct ex_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

/* ---- the kinds ---- */

static const struct {
	const char *name;
	int (*make)(struct blab_exercise *ex);
} kinds[BLAB_EX_KINDS] = {
	{"buddy", ex_buddy},   {"pcp", ex_pcp},       {"watermarks", ex_watermarks},
	{"slab", ex_slab},     {"result", ex_result},
};

const char *blab_exercise_kind_name(unsigned kind)
{
	return kind < BLAB_EX_KINDS ? kinds[kind].name : NULL;
}

int blab_exercise_kind(const char *name)
{
	for (unsigned i = 0; name && i < BLAB_EX_KINDS; i++)
		if (strcmp(name, kinds[i].name) == 0)
			return (int)i;
	return -1;
}

uint32_t ex_below(struct blab_exercise *ex, uint32_t n)
{
	return blab_rng_below(&ex->rng, n);
}

int ex_fail(struct blab_exercise *ex, int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ex->why, sizeof(ex->why), fmt, ap);
	va_end(ap);
	return err;
}

int ex_found(struct blab_exercise *ex, const char *kind, int err)
{
	if (err == 2)
		return ex_fail(ex, BLAB_ECHECK, "%s: no problem of level %u found for seed %llu", kind,
			       ex->level, (unsigned long long)ex->seed);
	if (!err)
		ex_printf(&ex->title, "%s, level %u, seed %llu (preset %s)", kind, ex->level,
			  (unsigned long long)ex->seed, ex->preset);
	return err;
}

struct ex_question *ex_question(struct blab_exercise *ex, unsigned form, const char *fmt, ...)
{
	struct ex_question *q;
	va_list ap;
	char text[1024];

	if (ex->nq == BLAB_EXERCISE_MAX_QUESTIONS)
		return NULL;
	q = &ex->q[ex->nq++];
	q->form = (uint8_t)form;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	ex_puts(&q->text, text);
	return q;
}

int ex_preset(struct blab_exercise *ex, const char *def, struct blab_strategy *s)
{
	if (!ex->preset[0])
		snprintf(ex->preset, sizeof(ex->preset), "%s", def);
	if (blab_preset(ex->preset, s) == 0)
		return 0;
	{
		char names[512] = "";
		for (unsigned i = 0; i < blab_preset_count(); i++)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), " %s",
				 blab_preset_name(i));
		return ex_fail(ex, BLAB_EPRESET, "unknown preset '%s'; presets:%s", ex->preset, names);
	}
}

/* ---- op scripts, line by line ---- */

int ex_run_open(struct ex_run *r, struct ex_buf *ops)
{
	memset(r, 0, sizeof(*r));
	r->ops = ops;
	r->out = open_memstream(&r->outp, &r->outl);
	r->err = open_memstream(&r->errp, &r->errl);
	if (r->out && r->err)
		r->s = blab_script_new(r->out, r->err);
	if (!r->s) {
		ex_run_close(r);
		return BLAB_ENOMEMHOST;
	}
	return 0;
}

int ex_run(struct blab_exercise *ex, struct ex_run *r, const char *fmt, ...)
{
	char line[BLAB_SCRIPT_MAX_LINE + 1];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(line))
		return ex_fail(ex, BLAB_ELIMIT, "an op-script line of the problem is too long");
	if (r->ops) {
		ex_puts(r->ops, line);
		ex_puts(r->ops, "\n");
	}
	if (blab_script_line(r->s, line, ++r->lineno)) {
		fflush(r->err);
		return ex_fail(ex, BLAB_ECHECK, "the core refused the problem's own op script (%s): %.120s",
			       line, r->errp ? r->errp : "");
	}
	return 0;
}

struct blab_zone *ex_zone(struct ex_run *r)
{
	return blab_script_zone(r->s);
}

uint64_t ex_script_log_hash(struct blab_script *s)
{
	static const char *const names[] = {"DMA", "DMA32", "Normal"};
	uint64_t h = 14695981039346656037ull; /* FNV-1a, 64 bits */

	for (unsigned z = 0; z < 3; z++) {
		uint32_t n = 0;
		const struct blab_event *ev = blab_log(blab_script_zone_named(s, names[z]), &n);
		const unsigned char *p = (const unsigned char *)ev;
		for (size_t i = 0; i < (size_t)n * sizeof(*ev); i++) {
			h ^= p[i];
			h *= 1099511628211ull;
		}
		h ^= n;
		h *= 1099511628211ull;
	}
	return h;
}

void ex_seal(struct blab_exercise *ex, struct ex_run *r)
{
	ex->log_hash = ex_script_log_hash(r->s);
}

uint32_t ex_events(struct ex_run *r)
{
	uint32_t n = 0;
	blab_log(ex_zone(r), &n);
	return n;
}

void ex_run_close(struct ex_run *r)
{
	blab_script_free(r->s);
	if (r->out)
		fclose(r->out);
	if (r->err)
		fclose(r->err);
	free(r->outp);
	free(r->errp);
	memset(r, 0, sizeof(*r));
}

/* ---- a problem ---- */

int ex_make(unsigned kind, unsigned level, uint64_t seed, const char *preset, int perturb,
	    struct blab_exercise **out, char *why, size_t whylen)
{
	struct blab_exercise *ex;
	int err;

	if (!out)
		return BLAB_EINVAL;
	*out = NULL;
	if (kind >= BLAB_EX_KINDS || level < 1 || level > BLAB_EXERCISE_LEVELS ||
	    seed > BLAB_EXERCISE_SEED_MAX || (preset && strlen(preset) >= 32)) {
		if (why && whylen)
			snprintf(why, whylen, "kind, level 1..3, seed 0..2^32-1 or preset out of range");
		return BLAB_EINVAL;
	}
	ex = calloc(1, sizeof(*ex));
	if (!ex)
		return BLAB_ENOMEMHOST;
	ex->kind = kind;
	ex->level = level;
	ex->seed = seed;
	ex->perturb = perturb;
	if (preset)
		snprintf(ex->preset, sizeof(ex->preset), "%s", preset);
	/* one stream per kind and seed: a kind's problems never echo another's */
	blab_rng_seed(&ex->rng, (seed << 3) | kind);
	err = kinds[kind].make(ex);
	if (!err && (ex->statement.nomem || ex->ops.nomem || ex->title.nomem || ex->json.nomem))
		err = ex_fail(ex, BLAB_ENOMEMHOST, "out of host memory for the problem's text");
	for (unsigned i = 0; !err && i < ex->nq; i++)
		if (ex->q[i].text.nomem || ex->q[i].answer.nomem || ex->q[i].working.nomem)
			err = ex_fail(ex, BLAB_ENOMEMHOST, "out of host memory for the problem's text");
	if (err) {
		if (why && whylen)
			snprintf(why, whylen, "%s", ex->why[0] ? ex->why : blab_strerror(err));
		blab_exercise_free(ex);
		return err;
	}
	*out = ex;
	return 0;
}

int blab_exercise_make(unsigned kind, unsigned level, uint64_t seed, const char *preset,
		       struct blab_exercise **out, char *why, size_t whylen)
{
	return ex_make(kind, level, seed, preset, 0, out, why, whylen);
}

void blab_exercise_free(struct blab_exercise *ex)
{
	if (!ex)
		return;
	ex_buf_free(&ex->title);
	ex_buf_free(&ex->statement);
	ex_buf_free(&ex->ops);
	ex_buf_free(&ex->json);
	for (unsigned i = 0; i < BLAB_EXERCISE_MAX_QUESTIONS; i++) {
		ex_buf_free(&ex->q[i].text);
		ex_buf_free(&ex->q[i].answer);
		ex_buf_free(&ex->q[i].working);
		for (unsigned c = 0; c < EX_MAX_CHOICES; c++)
			ex_buf_free(&ex->q[i].choice[c]);
	}
	free(ex);
}

unsigned blab_exercise_nquestions(const struct blab_exercise *ex)
{
	return ex ? ex->nq : 0;
}

const char *blab_exercise_answer(const struct blab_exercise *ex, unsigned q)
{
	return ex && q < ex->nq ? ex_str(&ex->q[q].answer) : NULL;
}

const char *blab_exercise_ops(const struct blab_exercise *ex)
{
	return ex ? ex_str(&ex->ops) : "";
}

int blab_exercise_check(const struct blab_exercise *ex, unsigned q, const char *typed, char *say,
			size_t saylen)
{
	if (!ex || !typed)
		return BLAB_EINVAL;
	if (q >= ex->nq)
		return BLAB_ELIMIT;
	return ex_check(&ex->q[q], typed, say, saylen);
}
