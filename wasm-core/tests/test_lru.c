/* test_lru.c - the workloads' LRU list (workload_common.c): add at the head, release from
 * anywhere, migration in place, and the lru_lock around each batch */
#include "common.h"
#include "workloads/workload_common.h"

/* the list from head to tail into out (at most max entries); the count, or -1 when the
 * prev links do not mirror the next links */
static int walk(const struct sim_lru *l, uint32_t *out, int max)
{
	int n = 0;

	for (uint32_t i = l->link[l->head].next, p = l->head; i != l->head; p = i, i = l->link[i].next) {
		if (l->link[i].prev != p || n == max)
			return -1;
		out[n++] = i;
	}
	if (l->link[l->head].prev != (n ? out[n - 1] : l->head))
		return -1;
	return n;
}

static void add_release_migrate(void)
{
	struct blab_zone *z = mkzone("v4.16", 64, 0, 2, 6, 6);
	struct sim_lru l;
	const uint32_t a[3] = {10, 11, 12}, b[2] = {40, 41}, rel[1] = {11};
	const uint32_t rest[4] = {41, 50, 12, 10};
	uint32_t got[8];

	CHECK(z);
	CHECK_EQ(sim_lru_init(&l, z->pages), 0);
	CHECK_EQ(walk(&l, got, 8), 0);

	/* cpu 0 adds its pagevec, then cpu 1 its own: each goes on at the head, so the
	 * newest page comes first and the two CPUs' pages meet in the middle */
	sim_lru_add_batch(z, 0, &l, a, 0, 3);
	sim_lru_add_batch(z, 1, &l, b, 0, 2);
	CHECK_EQ(walk(&l, got, 8), 5);
	CHECK_EQ(got[0], 41);
	CHECK_EQ(got[1], 40);
	CHECK_EQ(got[2], 12);
	CHECK_EQ(got[3], 11);
	CHECK_EQ(got[4], 10);
	CHECK_EQ(z->machine.lock_owner[BLAB_LOCK_LRU], BLAB_CPU_NONE); /* released */

	/* release_pages() of a page in the middle joins its neighbours */
	sim_lru_release_batch(z, 0, &l, rel, 0, 1);
	CHECK_EQ(walk(&l, got, 8), 4);
	CHECK_EQ(l.link[12].next, 10);
	CHECK_EQ(l.link[10].prev, 12);

	/* compaction moved page 40 to 50: 50 takes its place; a page not on the list is
	 * left alone */
	sim_lru_migrated(&l, 40, 50);
	sim_lru_migrated(&l, 11, 60);
	CHECK_EQ(walk(&l, got, 8), 4);
	CHECK_EQ(got[1], 50);

	/* everything off again, in any order: the list is empty and can be refilled */
	sim_lru_release_batch(z, 1, &l, rest, 0, 4);
	CHECK_EQ(walk(&l, got, 8), 0);
	sim_lru_add_batch(z, 1, &l, rest, 1, 2);
	CHECK_EQ(walk(&l, got, 8), 2);
	CHECK_EQ(got[0], 12);
	CHECK_EQ(got[1], 50);

	sim_lru_free(&l);
	CHECK(!l.link);
	blab_zone_destroy(z);
}

/*
 * parallel_free's shape (workload_parallel_free.c): three CPUs fault 100 pages each, adding
 * them 15 at a time so that their pagevecs interleave on the list, then each releases its
 * own pages 32 at a time: the list ends empty and every hold is released.
 */
static void pagevecs_in_release_out(void)
{
	enum { CPUS = 3, PAGES = 100 };
	struct blab_zone *z = mkzone("v4.16", 512, 0, CPUS, 6, 6);
	struct sim_lru l;
	uint32_t pfns[CPUS][PAGES], got[CPUS * PAGES + 1];

	CHECK(z);
	CHECK_EQ(sim_lru_init(&l, z->pages), 0);
	for (uint32_t c = 0; c < CPUS; c++)
		for (uint32_t i = 0; i < PAGES; i++)
			pfns[c][i] = i * CPUS + c; /* neighbours on the list are other CPUs' pages */
	for (uint32_t i = 0; i < PAGES; i += BLAB_SIM_PAGEVEC)
		for (uint32_t c = 0; c < CPUS; c++)
			sim_lru_add_batch(z, c, &l, pfns[c], i, sim_pagevec_size(PAGES, i));
	CHECK_EQ(walk(&l, got, CPUS * PAGES + 1), CPUS * PAGES);
	/* the last pagevecs (10 pages each) went on CPU 0's, 1's, 2's: CPU 2's newest page is
	 * at the head, CPU 1's newest right after CPU 2's 10 */
	CHECK_EQ(got[0], pfns[2][PAGES - 1]);
	CHECK_EQ(got[PAGES % BLAB_SIM_PAGEVEC], pfns[1][PAGES - 1]);
	for (uint32_t i = 0; i < PAGES; i += SIM_SWAP_CLUSTER_MAX)
		for (uint32_t c = 0; c < CPUS; c++) {
			uint32_t n = PAGES - i < SIM_SWAP_CLUSTER_MAX ? PAGES - i : SIM_SWAP_CLUSTER_MAX;
			sim_lru_release_batch(z, c, &l, pfns[c], i, n);
			CHECK_EQ(z->machine.lock_owner[BLAB_LOCK_LRU], BLAB_CPU_NONE);
		}
	CHECK_EQ(walk(&l, got, CPUS * PAGES + 1), 0);
	for (uint32_t c = 0; c < CPUS; c++)
		for (uint32_t i = 0; i < PAGES; i++)
			CHECK(l.link[pfns[c][i]].prev == l.link[pfns[c][i]].next); /* both off-list marks */
	sim_lru_free(&l);
	blab_zone_destroy(z);
}

int main(void)
{
	add_release_migrate();
	pagevecs_in_release_out();
	return harness_report("test_lru");
}
