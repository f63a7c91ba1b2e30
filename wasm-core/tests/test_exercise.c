/*
 * test_exercise.c - the exercise generator (src/exercise/), many seeds of every kind:
 *   - each problem is made, and each answer is one of its question's form that the checker
 *     takes as right; a wrong answer of the form is wrong, and text not of the form is not
 *     marked at all but told the form;
 *   - replaying the problem's op script (blab replay) logs the very records its answers were
 *     read from: the state the answers describe;
 *   - the answers depend only on what the problem states: the same problem reached another
 *     way (other pages for the slabs, another zone size or layout under the pcp list, the
 *     buddy zone built by its history instead of laid out) has the same answers;
 *   - the seeds of a class are stable (the documented formulas), and bad input is refused.
 * BLAB_EXERCISE_SEEDS sets the seeds per kind (default 1000; the debug build, which checks
 * the whole zone after every op, takes a tenth).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "exercise/exercise.h"

static unsigned seeds(void)
{
	const char *e = getenv("BLAB_EXERCISE_SEEDS");
#ifdef BLAB_SMALL_TESTS
	unsigned def = 100;
#else
	unsigned def = 1000;
#endif
	return e ? (unsigned)atoi(e) : def;
}

/* an answer of the question's form that is not the right one */
static void wrong_answer(const struct ex_question *q, char *out, size_t len)
{
	const char *a = ex_str(&q->answer);
	switch (q->form) {
	case EX_FORM_NUMBER:
		snprintf(out, len, "%llu", strtoull(a, NULL, 10) + 1);
		break;
	case EX_FORM_PFN:
		snprintf(out, len, "0x%llx", strtoull(a, NULL, 16) + 1);
		break;
	case EX_FORM_BUDDYINFO:
		snprintf(out, len, "%s", a);
		out[0] = out[0] == '9' ? '8' : (char)(out[0] + 1);
		break;
	case EX_FORM_YESNO:
		snprintf(out, len, "%s", strcmp(a, "yes") ? "yes" : "no");
		break;
	case EX_FORM_CHOICE:
		snprintf(out, len, "%c", a[0] == 'a' ? 'b' : 'a');
		break;
	case EX_FORM_LIST:
		snprintf(out, len, "%s", strcmp(a, "none") ? "none" : "1");
		break;
	default:
		snprintf(out, len, "%c%s", a[0] == 'Z' ? 'Y' : a[0] + 1, a + 1);
		break;
	}
}

static void check_answers(const struct blab_exercise *ex)
{
	CHECK_EQ(blab_exercise_nquestions(ex), ex->nq);
	CHECK(blab_exercise_answer(ex, ex->nq) == NULL);
	CHECK_EQ(blab_exercise_check(ex, ex->nq, "1", NULL, 0), BLAB_ELIMIT);
	for (unsigned i = 0; i < ex->nq; i++) {
		/* the public face says the same as the form's own checker */
		CHECK_EQ(blab_exercise_check(ex, i, blab_exercise_answer(ex, i), NULL, 0), 0);
	}
	for (unsigned i = 0; i < ex->nq; i++) {
		const struct ex_question *q = &ex->q[i];
		char say[200], wrong[300];
		CHECK(ex_str(&q->text)[0] != 0);
		CHECK(ex_str(&q->answer)[0] != 0);
		CHECK_EQ(ex_check(q, ex_str(&q->answer), say, sizeof(say)), 0);
		wrong_answer(q, wrong, sizeof(wrong));
		CHECK_EQ(ex_check(q, wrong, say, sizeof(say)), 1);
		/* not of the form: told which form, not marked */
		CHECK_EQ(ex_check(q, "=?", say, sizeof(say)), 2);
		CHECK(say[0] != 0);
		if (q->form == EX_FORM_CHOICE)
			CHECK(q->nchoices >= 2 && (unsigned)(ex_str(&q->answer)[0] - 'a') < q->nchoices);
	}
}

/* ops replayed on a fresh script log what the problem's run logged */
static void check_replay(const struct blab_exercise *ex)
{
	FILE *devnull = fopen("/dev/null", "w");
	struct blab_script *s = blab_script_new(devnull, devnull);
	const char *p = ex_str(&ex->ops);
	unsigned lineno = 0;
	int bad = 0;

	while (*p && !bad) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		bad = blab_script_bytes(s, p, n, ++lineno);
		p += n + (nl ? 1 : 0);
	}
	CHECK_EQ(bad, 0);
	if (ex->log_hash != ex_script_log_hash(s)) {
		char d[120];
		snprintf(d, sizeof(d), "%s: the replay of ops logs other records", ex_str(&ex->title));
		harness_fail(__FILE__, __LINE__, "replay", d);
	}
	blab_script_free(s);
	fclose(devnull);
}

/* the same problem reached another way has the same answers */
static void check_unambiguous(const struct blab_exercise *ex, const char *preset)
{
	struct blab_exercise *other;
	char why[300];
	int err = ex_make(ex->kind, ex->level, ex->seed, preset, 1, &other, why, sizeof(why));
	CHECK_EQ(err, 0);
	if (err)
		return;
	CHECK_EQ(other->nq, ex->nq);
	for (unsigned i = 0; i < ex->nq && i < other->nq; i++)
		if (strcmp(ex_str(&ex->q[i].answer), ex_str(&other->q[i].answer)) ||
		    strcmp(ex_str(&ex->q[i].text), ex_str(&other->q[i].text))) {
			char d[300];
			snprintf(d, sizeof(d), "%s question %u: %s, reached another way %s",
				 ex_str(&ex->title), i + 1, ex_str(&ex->q[i].answer),
				 ex_str(&other->q[i].answer));
			harness_fail(__FILE__, __LINE__, "unambiguous", d);
		}
	blab_exercise_free(other);
}

static void test_kind(unsigned kind)
{
	unsigned n = seeds();
	for (unsigned seed = 0; seed < n; seed++) {
		struct blab_exercise *ex;
		char why[300];
		unsigned level = 1 + seed % 3;
		int err = blab_exercise_make(kind, level, seed, NULL, &ex, why, sizeof(why));
		if (err) {
			harness_fail(__FILE__, __LINE__, "make", why);
			continue;
		}
		CHECK(ex->nq >= 1 && ex->nq <= BLAB_EXERCISE_MAX_QUESTIONS);
		check_answers(ex);
		check_replay(ex);
		check_unambiguous(ex, NULL);
		blab_exercise_free(ex);
	}
}

/*
 * Every preset a kind is posed on, not only its default: 30 seeds of each level (a tenth in
 * the debug build), the same checks. A preset the kind refuses is refused with its reason.
 */
static void test_presets(unsigned kind)
{
#ifdef BLAB_SMALL_TESTS
	unsigned n = 3;
#else
	unsigned n = 30;
#endif
	unsigned posed = 0;

	for (unsigned i = 0; blab_preset_name(i); i++) {
		const char *preset = blab_preset_name(i);
		for (unsigned seed = 0; seed < 3 * n; seed++) {
			struct blab_exercise *ex;
			char why[300];
			int err = blab_exercise_make(kind, 1 + seed % 3, seed, preset, &ex, why, sizeof(why));
			if (err == BLAB_EPRESET) {
				CHECK(strstr(why, preset) != NULL);
				break;
			}
			if (err) {
				harness_fail(__FILE__, __LINE__, preset, why);
				continue;
			}
			posed += seed == 0;
			check_answers(ex);
			check_replay(ex);
			check_unambiguous(ex, preset);
			blab_exercise_free(ex);
		}
	}
	CHECK(posed >= 3);
}

/* the batch a pcp problem states (its zoneinfo lines) */
static unsigned long stated_batch(const struct blab_exercise *ex)
{
	const char *b = strstr(ex_str(&ex->statement), "  batch:");
	return b ? strtoul(b + strlen("  batch:"), NULL, 10) : 0;
}

/*
 * pcp level 1 in each era: a single allocation sometimes refills and sometimes does not, and
 * a single free sometimes drains and sometimes does not (a level whose answer is always 0
 * teaches nothing); on 6.7 some refills are larger than batch (batch << alloc_factor).
 */
static void test_pcp_level1(void)
{
	static const char *const presets[] = {"v4.16", "v5.14", "v6.7"};
	for (unsigned k = 0; k < 3; k++) {
		unsigned seen[2][2] = {{0}}, big = 0, n = 200;
		for (unsigned seed = 0; seed < n; seed++) {
			struct blab_exercise *ex;
			char why[300];
			if (blab_exercise_make(BLAB_EX_PCP, 1, seed, presets[k], &ex, why, sizeof(why))) {
				harness_fail(__FILE__, __LINE__, presets[k], why);
				continue;
			}
			const char *text = ex_str(&ex->q[0].text), *answer = ex_str(&ex->q[0].answer);
			unsigned is_free = strstr(text, "free_pcppages_bulk()") != NULL;
			unsigned long pages = strtoul(answer, NULL, 10);
			seen[is_free][pages > 0]++;
			if (!is_free && pages > stated_batch(ex))
				big++;
			blab_exercise_free(ex);
		}
		for (unsigned f = 0; f < 2; f++)
			for (unsigned e = 0; e < 2; e++)
				if (seen[f][e] < n / 10) {
					char d[160];
					snprintf(d, sizeof(d), "%s level 1: %u of %u %s %s", presets[k], seen[f][e], n,
						 f ? "frees" : "allocations", e ? "refill or drain" : "do not");
					harness_fail(__FILE__, __LINE__, "pcp level 1", d);
				}
		if (!strcmp(presets[k], "v6.7"))
			CHECK(big >= n / 20);
		else
			CHECK_EQ(big, 0);
	}
}

/* the result kind: its runs are the model machine's, so fewer seeds; no op script */
static void test_result(void)
{
	for (unsigned seed = 0; seed < 30; seed++) {
		struct blab_exercise *ex;
		char why[300];
		int err = blab_exercise_make(BLAB_EX_RESULT, 1 + seed % 3, seed, NULL, &ex, why, sizeof(why));
		CHECK_EQ(err, 0);
		if (err)
			continue;
		check_answers(ex);
		CHECK(strstr(ex_str(&ex->statement), "?compare=") != NULL);
		CHECK_EQ(ex_str(&ex->ops)[0], 0);
		blab_exercise_free(ex);
	}
}

static void test_forms(void)
{
	struct ex_question q;
	char say[200];

	memset(&q, 0, sizeof(q));
	q.form = EX_FORM_BUDDYINFO;
	q.width = 11;
	ex_puts(&q.answer, "1 0 2 0 0 0 0 0 0 0 0");
	CHECK_EQ(ex_check(&q, "1 0 2 0 0 0 0 0 0 0 0", say, sizeof(say)), 0);
	CHECK_EQ(ex_check(&q, "Node 0, zone   Normal  1 0 2 0 0 0 0 0 0 0 0", say, sizeof(say)), 0);
	CHECK_EQ(ex_check(&q, "1,0,2,0,0,0,0,0,0,0,0", say, sizeof(say)), 0);
	CHECK_EQ(ex_check(&q, "1 0 2 0 0 0 0 0 0 0 1", say, sizeof(say)), 1);
	CHECK_EQ(ex_check(&q, "1 0 2 0 0 0 0 0 0 0", say, sizeof(say)), 2);
	CHECK(strstr(say, "a buddyinfo line has 11 counts") && strstr(say, "this one has 10"));
	CHECK_EQ(ex_check(&q, "", say, sizeof(say)), 2);
	ex_buf_free(&q.answer);

	q.form = EX_FORM_PFN;
	ex_puts(&q.answer, "0x1c");
	CHECK_EQ(ex_check(&q, " 0x1C ", say, sizeof(say)), 0);
	CHECK_EQ(ex_check(&q, "28", say, sizeof(say)), 0);
	CHECK_EQ(ex_check(&q, "1c", say, sizeof(say)), 2);
	CHECK_EQ(ex_check(&q, "0x", say, sizeof(say)), 2);
	CHECK_EQ(ex_check(&q, "99999999999999999999999", say, sizeof(say)), 2);
	ex_buf_free(&q.answer);

	q.form = EX_FORM_LIST;
	ex_puts(&q.answer, "none");
	CHECK_EQ(ex_check(&q, "-", say, sizeof(say)), 0);
	CHECK_EQ(ex_check(&q, " none ", say, sizeof(say)), 0);
	CHECK_EQ(ex_check(&q, "", say, sizeof(say)), 0);
	CHECK_EQ(ex_check(&q, "3", say, sizeof(say)), 1);
	CHECK_EQ(ex_check(&q, "3 x", say, sizeof(say)), 2);
	ex_buf_free(&q.answer);

	q.form = EX_FORM_OBJECT;
	ex_puts(&q.answer, "B3");
	CHECK_EQ(ex_check(&q, "b 3", say, sizeof(say)), 0);
	CHECK_EQ(ex_check(&q, "B:3", say, sizeof(say)), 0);
	CHECK_EQ(ex_check(&q, "B4", say, sizeof(say)), 1);
	CHECK_EQ(ex_check(&q, "3B", say, sizeof(say)), 2);
	ex_buf_free(&q.answer);

	q.form = EX_FORM_CHOICE;
	q.nchoices = 3;
	ex_puts(&q.answer, "b");
	CHECK_EQ(ex_check(&q, "B)", say, sizeof(say)), 0);
	CHECK_EQ(ex_check(&q, "2", say, sizeof(say)), 0);
	CHECK_EQ(ex_check(&q, "c", say, sizeof(say)), 1);
	CHECK_EQ(ex_check(&q, "d", say, sizeof(say)), 2);
	CHECK(strstr(say, "a to c") != NULL);
	ex_buf_free(&q.answer);

	q.form = EX_FORM_YESNO;
	ex_puts(&q.answer, "no");
	CHECK_EQ(ex_check(&q, "No", say, sizeof(say)), 0);
	CHECK_EQ(ex_check(&q, "yes", say, sizeof(say)), 1);
	CHECK_EQ(ex_check(&q, "maybe", say, sizeof(say)), 2);
	ex_buf_free(&q.answer);
}

static void test_seeds_and_refusals(void)
{
	struct blab_exercise *ex;
	char why[300];

	/* the documented formulas: FNV-1a of "7:ada lovelace", and the PRNG's first draw */
	CHECK_EQ(blab_exercise_student_seed(7, "  Ada   LOVELACE "),
		 blab_exercise_student_seed(7, "ada lovelace"));
	CHECK(blab_exercise_student_seed(7, "ada lovelace") != blab_exercise_student_seed(8, "ada lovelace"));
	{
		uint32_t h = 2166136261u;
		for (const char *p = "7:ada lovelace"; *p; p++) {
			h ^= (unsigned char)*p;
			h *= 16777619u;
		}
		CHECK_EQ(blab_exercise_student_seed(7, "Ada Lovelace"), h);
	}
	CHECK_EQ(blab_exercise_student_seed(7, "   "), -1);
	CHECK_EQ(blab_exercise_student_seed(7, "a\x1b[31m"), -1);
	CHECK_EQ(blab_exercise_student_seed(BLAB_EXERCISE_SEED_MAX + 1, "a"), -1);
	{
		struct blab_rng r;
		blab_rng_seed(&r, (5ull << 32) | 3);
		CHECK_EQ(blab_exercise_item_seed(5, 3), blab_rng_next(&r) >> 32);
	}
	CHECK_EQ(blab_exercise_make(BLAB_EX_KINDS, 1, 0, NULL, &ex, why, sizeof(why)), BLAB_EINVAL);
	CHECK_EQ(blab_exercise_make(0, 4, 0, NULL, &ex, why, sizeof(why)), BLAB_EINVAL);
	CHECK_EQ(blab_exercise_make(0, 1, BLAB_EXERCISE_SEED_MAX + 1, NULL, &ex, why, sizeof(why)), BLAB_EINVAL);
	CHECK_EQ(blab_exercise_make(BLAB_EX_BUDDY, 1, 0, "v9.99", &ex, why, sizeof(why)), BLAB_EPRESET);
	CHECK(strstr(why, "unknown preset") != NULL);
	CHECK_EQ(blab_exercise_make(BLAB_EX_BUDDY, 1, 0, "lu-rfc-p2", &ex, why, sizeof(why)), BLAB_EPRESET);
	CHECK_EQ(blab_exercise_make(BLAB_EX_PCP, 1, 0, "v2.5.44", &ex, why, sizeof(why)), BLAB_EPRESET);
	CHECK_EQ(blab_exercise_make(BLAB_EX_WATERMARKS, 1, 0, "v6.7", &ex, why, sizeof(why)), BLAB_EPRESET);
	/* the same seed, the same problem */
	{
		struct blab_exercise *a, *b;
		CHECK_EQ(blab_exercise_make(BLAB_EX_SLAB, 2, 42, NULL, &a, why, sizeof(why)), 0);
		CHECK_EQ(blab_exercise_make(BLAB_EX_SLAB, 2, 42, NULL, &b, why, sizeof(why)), 0);
		CHECK(!strcmp(ex_str(&a->statement), ex_str(&b->statement)));
		CHECK(!strcmp(blab_exercise_ops(a), blab_exercise_ops(b)));
		blab_exercise_free(a);
		blab_exercise_free(b);
	}
}

int main(void)
{
	test_forms();
	test_seeds_and_refusals();
	for (unsigned k = BLAB_EX_BUDDY; k < BLAB_EX_RESULT; k++)
		test_kind(k);
	for (unsigned k = BLAB_EX_BUDDY; k < BLAB_EX_RESULT; k++)
		test_presets(k);
	test_pcp_level1();
	test_result();
	return harness_report("test_exercise");
}
