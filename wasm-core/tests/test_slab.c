/*
 * The slab layer on the plain machine: fast and slow paths, remote frees onto the slab's own
 * freelist, the tid, empty slabs given back, the checker (and that it can fail), bad
 * arguments. Every step is followed by blab_check(), which runs the slab checker too.
 */
#include <string.h>

#include "blab_slab.h"
#include "harness.h"
#include "mm/slab.h" /* to corrupt a slab on purpose: the checker must notice */

#define PAGES 4096u

static struct blab_zone *zone(unsigned cpus)
{
	struct blab_zone_config cfg;
	struct blab_zone *z = NULL;
	blab_zone_config_init(&cfg);
	cfg.pages = PAGES;
	cfg.start_pfn = 0x1000;
	cfg.cpus = (uint16_t)cpus;
	cfg.log_capacity = 1u << 16;
	cfg.log_mask = BLAB_EVC_STATE;
	CHECK_EQ(blab_zone_create(&cfg, &z), 0);
	return z;
}

static void ok(const struct blab_zone *z)
{
	char why[256];
	int r = blab_check(z, why, sizeof(why));
	if (r)
		fprintf(stderr, "check: %s\n", why);
	CHECK_EQ(r, 0);
}

static uint32_t free_and_pcp(const struct blab_zone *z)
{
	struct blab_zone_info zi;
	blab_zone_info(z, &zi);
	return zi.free_pages + zi.pcp_pages;
}

static void test_create(void)
{
	struct blab_zone *z = zone(2);
	struct blab_kmem_cache_info ci;
	uint32_t id, ids[BLAB_SLAB_MAX_CACHES];
	char longname[64];

	CHECK_EQ(blab_kmem_cache_create(z, "kmalloc-256", 256, BLAB_SLAB_ORDER_AUTO, 0, &id), 0);
	CHECK_EQ(blab_kmem_cache_info(z, id, &ci), 0);
	CHECK(!strcmp(ci.name, "kmalloc-256"));
	CHECK_EQ(ci.size, 256);
	CHECK_EQ(ci.offset, 0);
	/* calculate_order(): 4 * (fls(2) + 1) = 12 objects: order 0 holds 16 */
	CHECK_EQ(ci.order, 0);
	CHECK_EQ(ci.objects, 16);
	CHECK_EQ(ci.min_partial, 5); /* ilog2(256) / 2 = 4, clamped to MIN_PARTIAL */
	CHECK_EQ(blab_kmem_cache_destroy(z, id), 0);
	CHECK_EQ(blab_kmem_cache_info(z, id, &ci), BLAB_ESLABCACHE);

	/* size rounds up to 8; the free pointer in the middle when asked */
	CHECK_EQ(blab_kmem_cache_create(z, "odd", 100, 1, BLAB_SLAB_FP_MIDDLE, &id), 0);
	CHECK_EQ(blab_kmem_cache_info(z, id, &ci), 0);
	CHECK_EQ(ci.size, 104);
	CHECK_EQ(ci.offset, 48);
	CHECK_EQ(ci.order, 1);
	CHECK_EQ(ci.objects, 8192 / 104);
	CHECK_EQ(blab_kmem_cache_destroy(z, id), 0);

	/* bad arguments */
	CHECK_EQ(blab_kmem_cache_create(NULL, "x", 64, 0, 0, &id), BLAB_EINVAL);
	CHECK_EQ(blab_kmem_cache_create(z, NULL, 64, 0, 0, &id), BLAB_EINVAL);
	CHECK_EQ(blab_kmem_cache_create(z, "x", 64, 0, 0, NULL), BLAB_EINVAL);
	CHECK_EQ(blab_kmem_cache_create(z, "", 64, 0, 0, &id), BLAB_EINVAL);
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = 0;
	CHECK_EQ(blab_kmem_cache_create(z, longname, 64, 0, 0, &id), BLAB_EINVAL);
	CHECK_EQ(blab_kmem_cache_create(z, "x", 64, 0, 0x80, &id), BLAB_EINVAL);
	CHECK_EQ(blab_kmem_cache_create(z, "x", 0, 0, 0, &id), BLAB_ELIMIT);
	CHECK_EQ(blab_kmem_cache_create(z, "x", 7, 0, 0, &id), BLAB_ELIMIT);
	CHECK_EQ(blab_kmem_cache_create(z, "x", BLAB_SLAB_MAX_SIZE + 1, 0, 0, &id), BLAB_ELIMIT);
	CHECK_EQ(blab_kmem_cache_create(z, "x", 64, 4, 0, &id), BLAB_EORDER);
	CHECK_EQ(blab_kmem_cache_create(z, "x", 8192, 0, 0, &id), BLAB_EORDER);
	for (unsigned i = 0; i < BLAB_SLAB_MAX_CACHES; i++)
		CHECK_EQ(blab_kmem_cache_create(z, "many", 64, 0, 0, &ids[i]), 0);
	CHECK_EQ(blab_kmem_cache_create(z, "one-too-many", 64, 0, 0, &id), BLAB_ELIMIT);
	for (unsigned i = 0; i < BLAB_SLAB_MAX_CACHES; i++)
		CHECK_EQ(blab_kmem_cache_destroy(z, ids[i]), 0);
	CHECK_EQ(blab_kmem_cache_destroy(z, 99), BLAB_ESLABCACHE);
	CHECK_EQ(blab_kmem_cache_destroy(NULL, 0), BLAB_EINVAL);
	CHECK_EQ(blab_kmem_cache_info(z, 0, NULL), BLAB_EINVAL);
	CHECK_EQ(blab_kmem_cache_set_flags(z, 99, 0), BLAB_ESLABCACHE);
	ok(z);
	blab_zone_destroy(z);
}

static void test_fast_slow_remote(void)
{
	struct blab_zone *z = zone(2);
	uint32_t before = free_and_pcp(z), id;
	struct blab_kmem_cache_info ci;
	struct blab_kmem_cache_cpu_info cc;
	uint64_t a[64];

	CHECK_EQ(blab_kmem_cache_create(z, "obj-128", 128, 0, 0, &id), 0); /* 32 per slab */
	CHECK_EQ(blab_kmem_cache_cpu_info(z, id, 1, &cc), 0);
	CHECK_EQ(cc.tid, 1); /* init_tid(): the cpu number */
	CHECK_EQ(cc.slab, 0);

	for (unsigned i = 0; i < 64; i++) {
		CHECK_EQ(blab_kmem_cache_alloc(z, id, 0, &a[i]), 0);
		ok(z);
	}
	/* objects at direct-map addresses, 128 bytes apart inside a slab, all different */
	for (unsigned i = 0; i < 64; i++) {
		CHECK(a[i] >= 0xffff888000000000ull && a[i] < 0xffffea0000000000ull);
		CHECK_EQ(a[i] % 128, 0);
		for (unsigned j = 0; j < i; j++)
			CHECK(a[i] != a[j]);
	}
	CHECK_EQ(a[1] - a[0], 128);
	CHECK_EQ(blab_kmem_cache_info(z, id, &ci), 0);
	CHECK_EQ(ci.inuse, 64);
	CHECK_EQ(ci.nr_slabs, 2);
	CHECK_EQ(ci.stats.alloc_slab, 2);
	CHECK_EQ(ci.stats.alloc_slowpath, 2);  /* the first object of each new slab */
	CHECK_EQ(ci.stats.alloc_fastpath, 62);
	CHECK_EQ(blab_kmem_cache_cpu_info(z, id, 0, &cc), 0);
	CHECK_EQ(cc.tid, 64u * 256u); /* one next_tid() per allocation */
	CHECK_EQ(cc.nr_free, 0);
	CHECK(cc.slab != 0);

	/* the cpu slab's object freed on cpu 0: fast path, LIFO reuse */
	CHECK_EQ(blab_kmem_cache_free(z, id, 0, a[63]), 0);
	CHECK_EQ(blab_kmem_cache_info(z, id, &ci), 0);
	CHECK_EQ(ci.stats.free_fastpath, 1);
	CHECK_EQ(blab_kmem_cache_alloc(z, id, 0, &a[63]), 0);
	CHECK_EQ(blab_kmem_cache_cpu_info(z, id, 0, &cc), 0);
	CHECK_EQ(cc.tid, 66u * 256u);

	/* remote frees: cpu 1 frees cpu 0's objects, onto the slabs' own freelists */
	for (unsigned i = 32; i < 48; i++) {
		CHECK_EQ(blab_kmem_cache_free(z, id, 1, a[i]), 0);
		ok(z);
	}
	CHECK_EQ(blab_kmem_cache_info(z, id, &ci), 0);
	CHECK_EQ(ci.stats.free_slowpath, 16);
	CHECK_EQ(ci.stats.free_remote, 16);
	CHECK_EQ(ci.stats.free_frozen, 16); /* the second slab is still cpu 0's cpu slab */
	/* cpu 0's next allocation refills from that slab's own freelist (get_freelist) */
	CHECK_EQ(blab_kmem_cache_alloc(z, id, 0, &a[32]), 0);
	CHECK_EQ(blab_kmem_cache_info(z, id, &ci), 0);
	CHECK_EQ(ci.stats.alloc_refill, 1);
	CHECK_EQ(blab_kmem_cache_cpu_info(z, id, 0, &cc), 0);
	CHECK_EQ(cc.nr_free, 15);
	/* LIFO: the object freed last comes back first */
	CHECK_EQ(a[32], a[47]);
	ok(z);

	/* the first (full, unfrozen) slab: a free puts it on the partial list */
	CHECK_EQ(blab_kmem_cache_free(z, id, 1, a[0]), 0);
	CHECK_EQ(blab_kmem_cache_info(z, id, &ci), 0);
	CHECK_EQ(ci.stats.free_add_partial, 1);
	CHECK_EQ(ci.nr_partial, 1);
	ok(z);

	/* free everything (cpu 1) and shrink: every page comes back */
	for (unsigned i = 1; i < 32; i++)
		CHECK_EQ(blab_kmem_cache_free(z, id, 1, a[i]), 0);
	for (unsigned i = 32; i < 64; i++)
		if (i < 33 || i >= 48)
			CHECK_EQ(blab_kmem_cache_free(z, id, 1, a[i]), 0);
	for (unsigned i = 33; i < 48; i++)
		CHECK_EQ(blab_kmem_cache_free(z, id, 1, a[i]), BLAB_EDOUBLEFREE);
	CHECK_EQ(blab_kmem_cache_info(z, id, &ci), 0);
	CHECK_EQ(ci.inuse, 0);
	ok(z);
	CHECK_EQ(blab_kmem_cache_shrink(z, id, 0), 0);
	CHECK_EQ(blab_kmem_cache_info(z, id, &ci), 0);
	CHECK_EQ(ci.nr_slabs, 0);
	CHECK_EQ(ci.stats.free_slab, 2);
	CHECK_EQ(free_and_pcp(z), before);
	ok(z);
	CHECK_EQ(blab_kmem_cache_destroy(z, id), 0);
	blab_zone_destroy(z);
}

/* Empty slabs: kept on the partial list while it holds fewer than min_partial, given
 * back to the page allocator after that. */
static void test_empty_slab_rule(void)
{
	struct blab_zone *z = zone(2);
	uint32_t before = free_and_pcp(z), id;
	struct blab_kmem_cache_info ci;
	enum { N = 20 * 32 };
	static uint64_t a[N];

	CHECK_EQ(blab_kmem_cache_create(z, "obj-128", 128, 0, 0, &id), 0);
	for (unsigned i = 0; i < N; i++)
		CHECK_EQ(blab_kmem_cache_alloc(z, id, 0, &a[i]), 0);
	CHECK_EQ(blab_kmem_cache_info(z, id, &ci), 0);
	CHECK_EQ(ci.nr_slabs, 20);
	CHECK(free_and_pcp(z) < before);
	/* free from cpu 1, slab by slab: an empty slab stays while nr_partial (itself counted,
	 * as in __slab_free) is below min_partial = 5 */
	for (unsigned i = 0; i < N; i++)
		CHECK_EQ(blab_kmem_cache_free(z, id, 1, a[i]), 0);
	ok(z);
	CHECK_EQ(blab_kmem_cache_info(z, id, &ci), 0);
	CHECK_EQ(ci.inuse, 0);
	/* 19 full slabs became empty (the 20th is cpu 0's cpu slab): 4 kept, 15 given back */
	CHECK_EQ(ci.nr_partial, 4);
	CHECK_EQ(ci.stats.free_slab, 15);
	CHECK_EQ(ci.stats.free_remove_partial, 15);
	CHECK_EQ(ci.nr_slabs, 5);
	/* the shrink gives back the rest, cpu 0's cpu slab included */
	CHECK_EQ(blab_kmem_cache_shrink(z, id, 0), 0);
	CHECK_EQ(blab_kmem_cache_info(z, id, &ci), 0);
	CHECK_EQ(ci.nr_slabs, 0);
	CHECK_EQ(free_and_pcp(z), before);
	ok(z);
	blab_zone_destroy(z);
}

static void test_bad_frees(void)
{
	struct blab_zone *z = zone(2);
	uint32_t id, other;
	uint64_t a, b, pfn;
	struct blab_slab_op op;

	CHECK_EQ(blab_kmem_cache_create(z, "a", 64, 0, 0, &id), 0);
	CHECK_EQ(blab_kmem_cache_create(z, "b", 64, 0, 0, &other), 0);
	CHECK_EQ(blab_kmem_cache_alloc(z, id, 0, &a), 0);
	CHECK_EQ(blab_kmem_cache_alloc(z, other, 0, &b), 0);
	CHECK_EQ(blab_kmem_cache_free(z, id, 0, b), BLAB_ESLABOBJ);      /* another cache's */
	CHECK_EQ(blab_kmem_cache_free(z, id, 0, a + 8), BLAB_ESLABOBJ);  /* inside an object */
	CHECK_EQ(blab_kmem_cache_free(z, id, 0, 0), BLAB_ESLABOBJ);
	CHECK_EQ(blab_kmem_cache_free(z, id, 0, ~0ull), BLAB_ESLABOBJ);
	CHECK_EQ(blab_kmem_cache_free(z, id, 0, 0xffff888000000000ull), BLAB_ESLABOBJ);
	CHECK_EQ(blab_alloc(z, 0, 0, BLAB_MT_MOVABLE, &pfn), 0); /* a page, not a slab */
	CHECK_EQ(blab_kmem_cache_free(z, id, 0, 0xffff888000000000ull + (pfn << 12)),
		 BLAB_ESLABOBJ);
	CHECK_EQ(blab_kmem_cache_free(z, 77, 0, a), BLAB_ESLABCACHE);
	CHECK_EQ(blab_kmem_cache_free(z, id, 5, a), BLAB_ECPU);
	CHECK_EQ(blab_kmem_cache_free(NULL, id, 0, a), BLAB_EINVAL);
	CHECK_EQ(blab_kmem_cache_alloc(z, id, 0, NULL), BLAB_EINVAL);
	CHECK_EQ(blab_kmem_cache_alloc(z, id, 2, &a), BLAB_ECPU);
	CHECK_EQ(blab_kmem_cache_free(z, id, 0, a), 0);
	CHECK_EQ(blab_kmem_cache_free(z, id, 0, a), BLAB_EDOUBLEFREE); /* fast-path double free */
	CHECK_EQ(blab_kmem_cache_free(z, id, 1, a), BLAB_EDOUBLEFREE); /* and from another cpu */
	/* destroy refuses while objects are in use */
	CHECK_EQ(blab_kmem_cache_destroy(z, other), BLAB_EBUSY);
	/* resumable ops: garbage is refused, not followed */
	CHECK_EQ(blab_slab_op_step(z, NULL), BLAB_EINVAL);
	CHECK_EQ(blab_slab_op_alloc(NULL, id, 0), BLAB_EINVAL);
	memset(&op, 0xa5, sizeof(op));
	op.cache = id;
	op.cpu = 0;
	CHECK(blab_slab_op_step(z, &op) < 0);
	blab_slab_op_alloc(&op, id, 0);
	op.kind = 9;
	CHECK_EQ(blab_slab_op_step(z, &op), BLAB_EINVAL);
	/* an op in flight makes the cpu busy: a shrink stops before list_lock */
	blab_slab_op_shrink(&op, id, 0);
	CHECK_EQ(blab_slab_op_step(z, &op), BLAB_STEP_LOCK);
	CHECK_EQ(op.lock, BLAB_LOCK_SLAB_LIST);
	CHECK_EQ(blab_kmem_cache_alloc(z, id, 0, &a), BLAB_EBUSY);
	while (blab_slab_op_step(z, &op) == BLAB_STEP_LOCK)
		;
	CHECK_EQ(blab_slab_op_step(z, &op), BLAB_EINVAL); /* done: not resumable */
	CHECK_EQ(blab_kmem_cache_free(z, other, 1, b), 0);
	ok(z);
	blab_zone_destroy(z);
}

/* The checker is not a rubber stamp: corrupt one free pointer, one counter, one tid. */
static void test_checker_fails(void)
{
	struct blab_zone *z = zone(1);
	uint32_t id;
	uint64_t a[4];
	char why[256];
	struct kmem_cache *c;
	struct slab *s;

	CHECK_EQ(blab_kmem_cache_create(z, "c", 256, 0, 0, &id), 0);
	for (unsigned i = 0; i < 4; i++)
		CHECK_EQ(blab_kmem_cache_alloc(z, id, 0, &a[i]), 0);
	ok(z);
	c = &z->slab->caches[id];
	s = &z->slab->slabs[c->cpu_slab[0].slab];
	{
		uint16_t keep = s->fp[c->cpu_slab[0].freelist];
		s->fp[c->cpu_slab[0].freelist] = 0; /* points at a handed-out object */
		CHECK_EQ(blab_slab_check(z, why, sizeof(why)), BLAB_ECHECK);
		CHECK(strstr(why, "freelist") != NULL);
		s->fp[c->cpu_slab[0].freelist] = keep;
	}
	ok(z);
	c->inuse++;
	CHECK_EQ(blab_check(z, why, sizeof(why)), BLAB_ECHECK);
	CHECK(strstr(why, "inuse") != NULL);
	c->inuse--;
	c->cpu_slab[0].tid++;
	CHECK_EQ(blab_slab_check(z, why, sizeof(why)), BLAB_ECHECK);
	CHECK(strstr(why, "tid") != NULL);
	c->cpu_slab[0].tid--;
	s->state[0] = OBJ_SLAB_FREE; /* a handed-out object on no freelist */
	CHECK_EQ(blab_slab_check(z, why, sizeof(why)), BLAB_ECHECK);
	s->state[0] = OBJ_ALLOC;
	ok(z);
	CHECK_EQ(blab_slab_check(NULL, why, sizeof(why)), BLAB_EINVAL);
	blab_zone_destroy(z);
}

/* The events a view needs: cache created, alloc, free, remote free, new slab, cpu slab. */
static void test_events(void)
{
	struct blab_zone *z = zone(2);
	uint32_t id, n, seen[64] = {0};
	uint64_t a, b;
	const struct blab_event *ev;

	CHECK_EQ(blab_kmem_cache_create(z, "ev", 512, 0, BLAB_SLAB_PREFETCH, &id), 0);
	CHECK_EQ(blab_kmem_cache_alloc(z, id, 0, &a), 0);
	CHECK_EQ(blab_kmem_cache_alloc(z, id, 0, &b), 0);
	CHECK_EQ(blab_kmem_cache_free(z, id, 0, b), 0);
	CHECK_EQ(blab_kmem_cache_free(z, id, 1, a), 0);
	ev = blab_log(z, &n);
	for (uint32_t i = 0; i < n; i++)
		if (ev[i].type < 64)
			seen[ev[i].type]++;
	CHECK_EQ(seen[BLAB_EV_SLAB_CACHE_CREATE], 1);
	CHECK_EQ(seen[BLAB_EV_SLAB_NEW], 1);
	CHECK_EQ(seen[BLAB_EV_SLAB_ALLOC], 2);
	CHECK_EQ(seen[BLAB_EV_SLAB_FREE], 1);
	CHECK_EQ(seen[BLAB_EV_SLAB_REMOTE_FREE], 1);
	CHECK(seen[BLAB_EV_SLAB_CPU_SLAB] >= 1);
	CHECK(blab_event_name(BLAB_EV_SLAB_REMOTE_FREE) != NULL);
	CHECK(blab_path_name(BLAB_PATH_SLAB_ALLOC_FAST) != NULL);
	for (uint32_t i = 0; i < n; i++)
		if (ev[i].type == BLAB_EV_SLAB_REMOTE_FREE) {
			CHECK_EQ(ev[i].pfn, a - BLAB_PAGE_OFFSET);
			CHECK_EQ(ev[i].cpu, 1);
			CHECK_EQ(ev[i].arg1, 0); /* cpu 0's cpu slab */
		}
	blab_zone_destroy(z);
}

/*
 * Several CPUs with slab ops in flight at once, stepped in random order (as the model's
 * scheduler does): allocations, frees on random CPUs (mostly remote), shrinks, and now and
 * then a second free of an object whose first free is still in flight, which must fail as a
 * double free while the first succeeds. The checker runs after every step; at the end
 * everything is freed and shrunk and every page is back.
 */
/* A finished free in test_interleaved(): it succeeded, or it was the losing second free
 * of a pair (dup), which finds the object free, or its emptied slab given back already (then
 * it is no object of the cache at all). Anything else fails the test. */
static void count_free(int ret, int dup, uint32_t *ok_frees, uint32_t *double_frees)
{
	if (ret == 0)
		(*ok_frees)++;
	else if (dup && (ret == BLAB_EDOUBLEFREE || ret == BLAB_ESLABOBJ))
		(*double_frees)++;
	else
		CHECK_EQ(ret, 0);
}

static void test_interleaved(uint64_t seed, uint32_t nsteps)
{
	enum { CPUS = 4, NCACHE = 3, MAXOBJ = 4096 };
	static const uint32_t sizes[NCACHE] = {64, 192, 2048};
	struct blab_zone *z = zone(CPUS);
	struct blab_rng r;
	struct blab_slab_op op[CPUS];
	int busy[CPUS] = {0}, dup[CPUS] = {0};
	uint32_t before = free_and_pcp(z), ids[NCACHE], n = 0, ok_frees = 0, double_frees = 0,
		 dup_started = 0;
	static uint64_t obj[MAXOBJ];
	static uint32_t objc[MAXOBJ];
	char why[256];

	for (unsigned c = 0; c < NCACHE; c++)
		CHECK_EQ(blab_kmem_cache_create(z, "mix", sizes[c], BLAB_SLAB_ORDER_AUTO,
						c == 1 ? BLAB_SLAB_PREFETCH | BLAB_SLAB_FP_MIDDLE : 0,
						&ids[c]),
			 0);
	blab_rng_seed(&r, seed);
	for (uint32_t step = 0; step < nsteps; step++) {
		unsigned cpu = blab_rng_below(&r, CPUS);
		int ret;
		if (!busy[cpu]) {
			uint32_t x = blab_rng_below(&r, 20);
			dup[cpu] = 0;
			int pair = 0; /* a double-free pair in flight: no allocation may reuse
				       * the object before both frees are done (that would be an ABA
				       * no allocator can see) */
			for (unsigned o = 0; o < CPUS; o++)
				pair |= busy[o] && dup[o];
			if (x < 10 && n < MAXOBJ && !pair) {
				blab_slab_op_alloc(&op[cpu], ids[blab_rng_below(&r, NCACHE)], cpu);
			} else if (x < 19 && n) {
				uint32_t k = blab_rng_below(&r, n);
				blab_slab_op_free(&op[cpu], objc[k], cpu, obj[k]);
				/* sometimes the same object goes to a second CPU's free at once
				 * (only while no allocation is in flight: one could get the
				 * object back between the two frees) */
				int allocating = 0;
				for (unsigned o = 0; o < CPUS; o++)
					allocating |= busy[o] && op[o].kind == BLAB_SLAB_OP_ALLOC;
				for (unsigned o = 0; o < CPUS && !allocating; o++)
					if (o != cpu && !busy[o] && blab_rng_below(&r, 20) == 0) {
						blab_slab_op_free(&op[o], objc[k], o, obj[k]);
						busy[o] = 1;
						dup[o] = 1;
						dup[cpu] = 1;
						dup_started++;
						break;
					}
				obj[k] = obj[n - 1];
				objc[k] = objc[n - 1];
				n--;
			} else {
				blab_slab_op_shrink(&op[cpu], ids[blab_rng_below(&r, NCACHE)], cpu);
			}
			busy[cpu] = 1;
		}
		ret = blab_slab_op_step(z, &op[cpu]);
		if (blab_check(z, why, sizeof(why))) {
			fprintf(stderr, "step %u: %s\n", step, why);
			CHECK(!"checker");
			break;
		}
		if (ret == BLAB_STEP_LOCK)
			continue;
		busy[cpu] = 0;
		if (op[cpu].kind == BLAB_SLAB_OP_ALLOC) {
			CHECK_EQ(ret, 0);
			if (ret == 0 && n < MAXOBJ) {
				for (uint32_t k = 0; k < n; k++)
					CHECK(obj[k] != op[cpu].addr);
				obj[n] = op[cpu].addr;
				objc[n++] = op[cpu].cache;
			}
		} else if (op[cpu].kind == BLAB_SLAB_OP_FREE) {
			count_free(ret, dup[cpu], &ok_frees, &double_frees);
		} else {
			CHECK_EQ(ret, 0);
		}
	}
	/* let the ops in flight finish, then free the rest and shrink everything */
	for (unsigned cpu = 0; cpu < CPUS; cpu++)
		while (busy[cpu]) {
			int ret = blab_slab_op_step(z, &op[cpu]);
			if (ret == BLAB_STEP_LOCK)
				continue;
			busy[cpu] = 0;
			if (op[cpu].kind == BLAB_SLAB_OP_FREE)
				count_free(ret, dup[cpu], &ok_frees, &double_frees);
		}
	CHECK(dup_started > 0);
	/* every duplicate free failed, every first free succeeded */
	CHECK_EQ(double_frees, dup_started);
	for (uint32_t k = 0; k < n; k++)
		CHECK_EQ(blab_kmem_cache_free(z, objc[k], (unsigned)(k % CPUS), obj[k]), 0);
	for (unsigned c = 0; c < NCACHE; c++) {
		struct blab_kmem_cache_info ci;
		CHECK_EQ(blab_kmem_cache_info(z, ids[c], &ci), 0);
		CHECK_EQ(ci.inuse, 0);
		CHECK_EQ(blab_kmem_cache_destroy(z, ids[c]), 0);
	}
	CHECK_EQ(free_and_pcp(z), before);
	ok(z);
	(void)ok_frees;
	blab_zone_destroy(z);
}

int main(void)
{
	test_create();
	test_fast_slow_remote();
	test_empty_slab_rule();
	test_bad_frees();
	test_checker_fails();
	test_events();
	for (uint64_t seed = 1; seed <= 4; seed++)
		test_interleaved(seed, 6000);
	return harness_report("test_slab");
}
