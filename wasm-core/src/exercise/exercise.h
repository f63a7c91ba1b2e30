/*
 * exercise.h - what the exercise generator's files share (the public face is
 * include/blab_exercise.h).
 *
 * A problem is built in three moves, the same for every kind: draw a state and the
 * operations from the seed (the core's PRNG), write them as an op script (`ops`) and run it
 * on the core line by line, then read each answer, and the records that explain it, from the
 * core's state and its event log. What a student reads (`statement`) is printed from the
 * same state, so it states everything the answers depend on.
 */
#ifndef BLAB_EXERCISE_INTERNAL_H
#define BLAB_EXERCISE_INTERNAL_H

#include <stdio.h>
#include "blab.h"
#include "blab_exercise.h"
#include "blab_slab.h"

/* a growing text; a failed allocation leaves it short and sets nomem (checked once, at the end) */
struct ex_buf {
	char *p;
	size_t len, cap;
	int nomem;
};
void ex_puts(struct ex_buf *b, const char *s);
void ex_printf(struct ex_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *ex_str(const struct ex_buf *b); /* "" when empty */
/* a paragraph, wrapped at 90 columns, ending in a newline */
void ex_para(struct ex_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ex_buf_free(struct ex_buf *b);

/* the forms an answer takes (ex_answer.c parses each) */
enum ex_form {
	EX_FORM_NUMBER = 0,    /* a whole number */
	EX_FORM_PFN = 1,       /* a pfn, 0x hex or decimal */
	EX_FORM_BUDDYINFO = 2, /* width counts, order 0 first */
	EX_FORM_YESNO = 3,
	EX_FORM_CHOICE = 4,    /* one of choice[], by its letter */
	EX_FORM_LIST = 5,      /* numbers in order, or none */
	EX_FORM_OBJECT = 6,    /* a slab's letter and an object's index: B3 */
	EX_FORMS = 7,
};
const char *ex_form_name(unsigned form);

#define EX_MAX_CHOICES 5u

struct ex_question {
	struct ex_buf text;
	uint8_t form;
	uint8_t width;           /* EX_FORM_BUDDYINFO: counts in a line (top_order + 1) */
	uint8_t nchoices;
	struct ex_buf choice[EX_MAX_CHOICES];
	struct ex_buf answer;    /* as -c prints it, and what a typed answer is held to */
	struct ex_buf working;   /* one line per step, by kernel function */
	uint32_t ev_from, ev_to; /* the replay's records that show the working */
};

struct blab_exercise {
	unsigned kind, level;
	uint64_t seed;
	char preset[32];
	int perturb;           /* tests: the printed problem reached another way (ex_make) */
	struct blab_rng rng;
	struct ex_buf title, statement, ops;
	struct ex_question q[BLAB_EXERCISE_MAX_QUESTIONS];
	unsigned nq;
	uint32_t setup_events; /* records of ops' replay before the problem's own ops run */
	const char *views;     /* the figures the browser draws: registry ids, comma separated */
	struct ex_buf json;    /* members the kind adds to --json (the result kind's runs) */
	uint64_t log_hash;     /* of the problem run's event logs (ex_seal): what a replay of
				* ops must log again, record for record */
	char why[256];         /* what went wrong, for a BLAB_E* return */
};

/* ex_make(): blab_exercise_make() with the test switch perturb */
int ex_make(unsigned kind, unsigned level, uint64_t seed, const char *preset, int perturb,
	    struct blab_exercise **out, char *why, size_t whylen);
struct ex_question *ex_question(struct blab_exercise *ex, unsigned form, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
uint32_t ex_below(struct blab_exercise *ex, uint32_t n); /* the seed's PRNG: [0, n) */
int ex_fail(struct blab_exercise *ex, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* the end of a kind's search for a problem: err 2 (every try drawn, none fit) becomes the
 * reason BLAB_ECHECK gives; success titles the problem "KIND, level L, seed S (preset P)" */
int ex_found(struct blab_exercise *ex, const char *kind, int err);

/* An op script run line by line on the core (the plain machine), each line also written to
 * ex->ops: what the problem's `ops` replays is exactly what its answers were read from. */
struct ex_run {
	struct blab_script *s;
	FILE *out, *err;
	char *outp, *errp;
	size_t outl, errl;
	unsigned lineno;
	struct ex_buf *ops; /* NULL: a scratch run, not part of the problem */
};
int ex_run_open(struct ex_run *r, struct ex_buf *ops);
/* one line; nonzero (the core's "line N: why" in ex->why) when the core refused it */
int ex_run(struct blab_exercise *ex, struct ex_run *r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
struct blab_zone *ex_zone(struct ex_run *r);
/* the run the answers were read from is done: keep its logs' hash (ex->log_hash) */
void ex_seal(struct blab_exercise *ex, struct ex_run *r);
/* the hash of a script's zones' logs (each of DMA, DMA32, Normal it has), as ex_seal() takes it */
uint64_t ex_script_log_hash(struct blab_script *s);
uint32_t ex_events(struct ex_run *r); /* records logged so far */
void ex_run_close(struct ex_run *r);

/* the preset, checked: its strategy, or an error naming the presets */
int ex_preset(struct blab_exercise *ex, const char *def, struct blab_strategy *s);

/* working: the records [from, to) of z's log as sentences (ex_working.c), of the layers
 * `what` names: the buddy lists, the pcp lists, the slab layer */
enum { EX_WORK_PAGES = 1, EX_WORK_PCP = 2, EX_WORK_SLAB = 4 };
void ex_working(struct ex_question *q, const struct blab_zone *z, uint32_t from, uint32_t to,
		unsigned what);
/* the zone's free lists, head first, and its allocated blocks, as a problem states them */
void ex_state_buddy(struct ex_buf *b, const struct blab_zone *z);
/* "Node 0, zone Normal" then the counts, as the answer to a buddyinfo question */
void ex_buddyinfo(struct ex_buf *b, const struct blab_zone *z);

/* the kinds */
int ex_buddy(struct blab_exercise *ex);
int ex_pcp(struct blab_exercise *ex);
int ex_watermarks(struct blab_exercise *ex);
int ex_slab(struct blab_exercise *ex);
int ex_result(struct blab_exercise *ex);

/* typed answers (ex_answer.c): 0 right, 1 wrong, 2 not of the form (say: the form) */
int ex_check(const struct ex_question *q, const char *typed, char *say, size_t saylen);
/* what a question's form looks like, for the student: "a pfn, e.g. 0x1c" */
void ex_form_hint(const struct ex_question *q, char *out, size_t len);

/* printing (ex_print.c) */
void ex_print_text(FILE *f, const struct blab_exercise *ex, int answers);
/* close = 0 leaves the object open, for members the caller adds (check marks) */
void ex_print_json(FILE *f, const struct blab_exercise *ex, int answers, int close);
/* a sheet: fmt 0 Markdown (problems, then the key), 1 JSON, 2 the key as CSV */
int ex_sheet(FILE *out, FILE *err, const int *kinds, int nkinds, const unsigned *levels,
	     unsigned nlevels, unsigned count, uint64_t seed, const char *student,
	     const char *preset, unsigned fmt);
void ex_json_string(FILE *f, const char *s);
void ex_json_lines(FILE *f, const char *s);           /* lines as a JSON array of strings */
void ex_print_lines(FILE *f, const char *s, const char *indent); /* each line indented */

#endif
