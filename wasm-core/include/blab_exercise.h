/*
 * blab_exercise.h - seeded, auto-checked problems posed on the core (docs/exercises.md).
 *
 * A problem is made from (kind, level, seed, preset) with the core's PRNG: a zone, a pcp
 * list, a slab cache or a pair of model-machine runs, and operations to run on it. The
 * answers are read from the core after running them (its state and its event log), never
 * worked out a second time. `ops` is the problem as an op script (blab replay) that reaches
 * the state the answers describe.
 */
#ifndef BLAB_EXERCISE_H
#define BLAB_EXERCISE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- limits (docs/limits.md) ---- */
#define BLAB_EXERCISE_SEED_MAX 4294967295ull /* seeds are 0 .. 2^32 - 1 */
#define BLAB_EXERCISE_LEVELS 3u              /* 1 one op, 2 a sequence, 3 with a twist */
#define BLAB_EXERCISE_MAX_COUNT 1000u        /* problems on one sheet */
#define BLAB_EXERCISE_NAME_MAX 80u           /* bytes of a student's name or ID */
#define BLAB_EXERCISE_ANSWER_MAX 256u        /* bytes of one typed answer */
#define BLAB_EXERCISE_MAX_QUESTIONS 4u

enum blab_exercise_kind {
	BLAB_EX_BUDDY = 0,      /* a zone's free lists, alloc(order) / free(pfn, order) */
	BLAB_EX_PCP = 1,        /* one CPU's pcp list: refills, drains, count, high */
	BLAB_EX_WATERMARKS = 2, /* zone_watermark_ok(), and which zone of a node serves it */
	BLAB_EX_SLAB = 3,       /* a SLUB cache on two CPUs: kmalloc / kfree */
	BLAB_EX_RESULT = 4,     /* reading a compare of two presets run by the model machine */
	BLAB_EX_KINDS = 5,
};
const char *blab_exercise_kind_name(unsigned kind); /* "buddy", ...; NULL past the end */
int blab_exercise_kind(const char *name);          /* its kind, or -1 */

/*
 * `blab exercise ARGS` (argv[0] is "exercise"): a problem, a sheet, a check of typed
 * answers or a student's seed, printed on out, a refusal on err ("blab exercise: why").
 * Returns the exit status: 0, or 2 for arguments it refuses. out and err are FILE *. The
 * CLI and the browser (wasm/api.c) both run it, so the same arguments print the same bytes.
 */
int blab_exercise_main(int argc, char **argv, void *out, void *err);

/* ---- one problem, for tests and tools ---- */
struct blab_exercise;
/* preset NULL or "": the kind's default. 0, or a BLAB_E* code with the reason in why. */
int blab_exercise_make(unsigned kind, unsigned level, uint64_t seed, const char *preset,
		       struct blab_exercise **out, char *why, size_t whylen);
void blab_exercise_free(struct blab_exercise *ex);
unsigned blab_exercise_nquestions(const struct blab_exercise *ex);
/* the answer as -c prints it; NULL past the questions */
const char *blab_exercise_answer(const struct blab_exercise *ex, unsigned q);
/* the problem as an op script; "" for the result kind, whose runs are blab sim's */
const char *blab_exercise_ops(const struct blab_exercise *ex);
/* A typed answer to question q (0-based): 0 right, 1 wrong, 2 not an answer of the
 * question's form (say tells which form: "a buddyinfo line has 11 counts"), or a negative
 * BLAB_E* code. */
int blab_exercise_check(const struct blab_exercise *ex, unsigned q, const char *typed, char *say,
			size_t saylen);

/* A student's own seed: FNV-1a (32-bit) of "<class seed>:<name>", the name trimmed, its
 * runs of blanks made one space and its ASCII letters lower case (docs/exercises.md). -1
 * for a name that is empty, longer than BLAB_EXERCISE_NAME_MAX or hides characters. */
int64_t blab_exercise_student_seed(uint64_t class_seed, const char *name);
/* Problem i of a sheet with class seed s: the top 32 bits of the first output of the core's
 * PRNG seeded with s * 2^32 + i (xoshiro256** through splitmix64). */
uint64_t blab_exercise_item_seed(uint64_t class_seed, uint32_t i);

#ifdef __cplusplus
}
#endif
#endif
