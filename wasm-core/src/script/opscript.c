/*
 * opscript.c - the op-script language of `blab replay`: one op per line, `#` comments.
 *
 *   zone pages=N [start_pfn=P] [cpus=C] [preset=NAME] [batch=B] [high=H] [top_order=K]
 *        [pageblock_order=K] [pcp=none|hotcold|lifo] [pcp_per_mt=0|1] [pcp_max_order=0..3]
 *        [bulk_free=one_pass|two_pass|two_pass_prefetch|single_pass_prefetch|single_pass]
 *        [bulk_rr=batch_free|list] [free_factor=0|1|2] [merge_tail=0|1] [watermarks=0|1]
 *        [log=RECORDS] [events=state,explain,lock,cache|all]
 *        [skip_merge=0|1] [clusters=none|per_free|per_bulk]
 *        [high_max=H] [pcp_lock=0|1] [alloc_factor=0|1] [free_high=none|all|batch|half_min]
 *        [bulk_chunk=0|1] [drain_chunk=0|1] [buddy_map=0|1] [expand_top=0|1]
 *        [pcp_thp=none|per_mt|one|movable] [pcp_batch_scale_max=0..6]
 *   alloc order=K [cpu=C] [mt=movable|unmovable|reclaimable] [cold=0|1] [compact=merge|migrate]
 *        [count=N]
 *   compact order=K [cpu=C] [mode=merge|migrate]
 *   fragindex
 *   free pfn=P order=K [cpu=C] [cold=0|1]   |   free last=N [cpu=C]
 *   drain cpu=C|all [by=D]
 *   decay cpu=C|all
 *   buddyinfo | pcp | zoneinfo | events | check
 *   snapshot [nr_free=N0,N1,..] [pcp=CPU:COUNT,..]   (right after `zone`: the zone again, in
 *        the state a /proc/buddyinfo + /proc/zoneinfo snapshot gives; more snapshot lines
 *        add pcp counts, or replace nr_free; blab_zone_create_snapshot())
 *
 * A bad line makes blab_script_line() return nonzero after writing "line N: why" to err
 * (stdout is flushed first, so nothing printed before is lost). Numbers are decimal or 0x
 * hex and bounded; lines are bounded by BLAB_SCRIPT_MAX_LINE.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mm/mm.h"

#define MAX_TOKENS 32

struct blab_script {
	FILE *out, *err;
	struct blab_zone *z;
	unsigned lineno;
	uint32_t events_shown; /* log records already printed by `events` */
	/* `snapshot` re-creates the zone from its `zone` line, so it must come before any op */
	struct blab_zone_config cfg;
	int fresh;
	struct blab_snapshot snap;
	/* what the script's allocs got and has not freed by `free last=`, newest last: so a
	 * script (a lesson's) can free what it allocated without naming pfns */
	struct held { uint64_t pfn; uint8_t order; } *held;
	uint32_t nheld, capheld;
	uint32_t pcp_count[BLAB_MAX_CPUS];
	uint64_t mem_limit; /* each zone's host memory bound (0: the default) */
};

struct kv {
	char *key, *val;
	int used;
};

struct blab_script *blab_script_new(void *out, void *err)
{
	struct blab_script *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->out = out ? out : stdout;
	s->err = err ? err : stderr;
	return s;
}

void blab_script_free(struct blab_script *s)
{
	if (!s)
		return;
	blab_zone_destroy(s->z);
	free(s->held);
	free(s);
}

void blab_script_set_mem_limit(struct blab_script *s, uint64_t bytes)
{
	if (s)
		s->mem_limit = bytes;
}

#define MAX_HELD (1u << 20) /* blocks `free last=` can give back (docs/limits.md) */
#define MAX_COUNT 65536u    /* alloc count=N */

static int hold(struct blab_script *s, uint64_t pfn, unsigned order)
{
	if (s->nheld == s->capheld) {
		uint32_t ncap = s->capheld ? s->capheld * 2 : 1024;
		struct held *n;
		if (s->capheld >= MAX_HELD)
			return 0; /* past the bound the oldest stay held: said in blab replay --help */
		n = realloc(s->held, (size_t)ncap * sizeof(*n));
		if (!n)
			return BLAB_ENOMEMHOST;
		s->held = n;
		s->capheld = ncap;
	}
	s->held[s->nheld].pfn = pfn;
	s->held[s->nheld].order = (uint8_t)order;
	s->nheld++;
	return 0;
}

struct blab_zone *blab_script_zone(struct blab_script *s)
{
	return s ? s->z : NULL;
}

#define UTF8_BOM "\xef\xbb\xbf"

/* "line N: why" on err, with what the line's words hold spelled out when it could hide
 * itself (a control character, a bidirectional override: blab_text_escape()) */
static int bad(struct blab_script *s, const char *fmt, ...)
{
	char msg[2 * BLAB_SCRIPT_MAX_LINE], shown[6 * sizeof(msg)];
	va_list ap;
	fflush(s->out);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	blab_text_escape(shown, sizeof(shown), msg);
	fprintf(s->err, "line %u: %s\n", s->lineno, shown);
	fflush(s->err);
	return 1;
}

/* decimal or 0x hex, no sign, no trailing junk, <= max */
static int parse_u64(const char *str, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	unsigned base = 10;
	const char *p = str;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	if (!*p)
		return -1;
	for (; *p; p++) {
		unsigned d;
		if (*p >= '0' && *p <= '9')
			d = (unsigned)(*p - '0');
		else if (base == 16 && *p >= 'a' && *p <= 'f')
			d = (unsigned)(*p - 'a' + 10);
		else if (base == 16 && *p >= 'A' && *p <= 'F')
			d = (unsigned)(*p - 'A' + 10);
		else
			return -1;
		if (d > max || v > (max - d) / base)
			return -2; /* d > max: max - d would wrap */
		v = v * base + d;
	}
	*out = v;
	return 0;
}

static struct kv *find(struct kv *kv, int n, const char *key)
{
	for (int i = n - 1; i >= 0; i--)
		if (strcmp(kv[i].key, key) == 0) {
			kv[i].used = 1;
			return &kv[i];
		}
	return NULL;
}

/* k's value as a number up to max: 0, or -1 after reporting an error */
static int kv_number(struct blab_script *s, const char *cmd, const struct kv *k, uint64_t max,
		     uint64_t *out)
{
	int r = parse_u64(k->val, max, out);
	if (r == -1) {
		bad(s, "%s: %s=%s is not a number (decimal or 0x hex)", cmd, k->key, k->val);
		return -1;
	}
	if (r == -2) {
		bad(s, "%s: %s=%s is too large (at most %llu)", cmd, k->key, k->val,
		    (unsigned long long)max);
		return -1;
	}
	return 0;
}

/* a numeric key; 0 when absent (value untouched), 1 when set, -1 after reporting an error */
static int num(struct blab_script *s, const char *cmd, struct kv *kv, int n, const char *key,
	       uint64_t max, uint64_t *out)
{
	struct kv *k = find(kv, n, key);
	if (!k)
		return 0;
	return kv_number(s, cmd, k, max, out) ? -1 : 1;
}

static int flag01(struct blab_script *s, const char *cmd, struct kv *kv, int n, const char *key,
		  uint8_t *out)
{
	uint64_t v;
	int r = num(s, cmd, kv, n, key, 1, &v);
	if (r == 1)
		*out = (uint8_t)v;
	return r;
}

static int unknown_keys(struct blab_script *s, const char *cmd, struct kv *kv, int n)
{
	for (int i = 0; i < n; i++)
		if (!kv[i].used)
			return bad(s, "%s: unknown key '%s' (see blab replay --help)", cmd, kv[i].key);
	return 0;
}

static int need_zone(struct blab_script *s, const char *cmd)
{
	if (s->z)
		return 0;
	return bad(s, "%s: no zone yet: the script must start with 'zone pages=N'", cmd);
}

static const char *const bulk_names[] = {"one_pass", "two_pass", "two_pass_prefetch",
					 "single_pass_prefetch", "single_pass"};
static const char *const pcp_names[] = {"none", "hotcold", "lifo"};
static const char *const thp_names[] = {"none", "per_mt", "one", "movable"};
static const char *const free_high_names[] = {"none", "all", "batch", "half_min"};
static const char *const cluster_names[] = {"none", "per_free", "per_bulk"};
static const char *const bulk_rr_names[] = {"batch_free", "list"};

static int pick_name(const char *val, const char *const *names, int count)
{
	for (int i = 0; i < count; i++)
		if (strcmp(val, names[i]) == 0)
			return i;
	return -1;
}

/*
 * pcp_batch_scale_max=0..6: CONFIG_PCP_BATCH_SCALE_MAX (52166607ecc9), which exists only with
 * the 6.7 switches. A line that turns one of them on over an older preset, and does not name
 * the option, gets the Kconfig's default (5); one that turns them all off over a 6.7+ preset
 * has no option left. Run after every other strategy key.
 */
static int zone_batch_scale(struct blab_script *s, struct kv *kv, int n,
			    struct blab_strategy *st)
{
	uint64_t v;
	int r = num(s, "zone", kv, n, "pcp_batch_scale_max", BLAB_PCP_BATCH_SCALE_MAX_LIMIT, &v);

	if (r < 0)
		return 1;
	if (r && !blab_strategy_has_batch_scale(st))
		return bad(s, "zone: pcp_batch_scale_max=%u: CONFIG_PCP_BATCH_SCALE_MAX came with "
			      "6.7 (52166607ecc9); this zone has none of its switches (alloc_factor, "
			      "free_factor=2, the auto-tuned high, drain_chunk)",
			   (unsigned)v);
	if (r)
		st->pcp_batch_scale_max = (uint8_t)v;
	else if (!blab_strategy_has_batch_scale(st))
		st->pcp_batch_scale_max = 0;
	else if (!st->pcp_batch_scale_max)
		st->pcp_batch_scale_max = BLAB_PCP_BATCH_SCALE_MAX_DEFAULT;
	return 0;
}

/* ---- the zone line: a table of its keys ---- */

/* what a `zone` line builds while its keys are read */
struct zone_line {
	struct blab_zone_config cfg;
	int pmo_given; /* pcp_max_order= was on the line */
};

/*
 * One key of the zone line: what reads it (set), and for the plain kinds where its value goes
 * in struct blab_zone_config (off, size) with its bound (a number's max) or its names (a
 * name's index is stored, the names listed in the error). Keys are read in the table's
 * order, so a line with two bad keys is refused for the one higher in the table.
 */
struct zone_key {
	const char *key;
	int (*set)(struct blab_script *s, const struct zone_key *zk, struct kv *k,
		   struct zone_line *zl); /* 0, or 1 after reporting */
	uint8_t required;
	uint16_t off;
	uint8_t size;
	uint64_t max;
	const char *const *names;
	uint8_t nnames;
};

static void zone_store(struct zone_line *zl, const struct zone_key *zk, uint64_t v)
{
	char *p = (char *)&zl->cfg + zk->off;

	if (zk->size == 1) {
		uint8_t x = (uint8_t)v;
		memcpy(p, &x, sizeof(x));
	} else if (zk->size == 2) {
		uint16_t x = (uint16_t)v;
		memcpy(p, &x, sizeof(x));
	} else if (zk->size == 4) {
		uint32_t x = (uint32_t)v;
		memcpy(p, &x, sizeof(x));
	} else {
		memcpy(p, &v, sizeof(v));
	}
}

/* a number (decimal or 0x hex) up to zk->max */
static int zone_number(struct blab_script *s, const struct zone_key *zk, struct kv *k,
		       struct zone_line *zl)
{
	uint64_t v;

	if (kv_number(s, "zone", k, zk->max, &v))
		return 1;
	zone_store(zl, zk, v);
	return 0;
}

/* one of zk->names, stored as its index */
static int zone_name(struct blab_script *s, const struct zone_key *zk, struct kv *k,
		     struct zone_line *zl)
{
	char expect[BLAB_SCRIPT_MAX_LINE] = "";
	int i = pick_name(k->val, zk->names, zk->nnames);

	if (i >= 0) {
		zone_store(zl, zk, (uint64_t)i);
		return 0;
	}
	for (int j = 0; j < zk->nnames; j++) /* "a, b or c" */
		snprintf(expect + strlen(expect), sizeof(expect) - strlen(expect), "%s%s",
			 j == 0 ? "" : j + 1 < zk->nnames ? ", " : " or ", zk->names[j]);
	return bad(s, "zone: %s=%s: expected %s", zk->key, k->val, expect);
}

static int zone_preset(struct blab_script *s, const struct zone_key *zk, struct kv *k,
		       struct zone_line *zl)
{
	char names[BLAB_SCRIPT_MAX_LINE] = "";

	if (!blab_preset(k->val, &zl->cfg.strategy))
		return 0;
	for (unsigned i = 0; i < blab_preset_count(); i++)
		snprintf(names + strlen(names), sizeof(names) - strlen(names), " %s",
			 blab_preset_name(i));
	return bad(s, "zone: unknown preset '%s'; presets:%s", k->val, names);
}

static int zone_cpus(struct blab_script *s, const struct zone_key *zk, struct kv *k,
		     struct zone_line *zl)
{
	uint64_t v;

	if (kv_number(s, "zone", k, zk->max, &v))
		return 1;
	if (v == 0) /* the API takes 0 for its default of 1; a script says what it means */
		return bad(s, "zone: cpus=0: a zone needs at least one cpu (1..%u)", BLAB_MAX_CPUS);
	zone_store(zl, zk, v);
	return 0;
}

static int zone_pcp_max_order(struct blab_script *s, const struct zone_key *zk, struct kv *k,
			      struct zone_line *zl)
{
	zl->pmo_given = 1;
	return zone_number(s, zk, k, zl);
}

static int zone_pcp(struct blab_script *s, const struct zone_key *zk, struct kv *k,
		    struct zone_line *zl)
{
	struct blab_strategy *st = &zl->cfg.strategy;

	if (zone_name(s, zk, k, zl))
		return 1;
	if (st->pcp == BLAB_PCP_HOTCOLD && zl->pmo_given && st->pcp_max_order)
		return bad(s, "zone: pcp_max_order=%u needs pcp=lifo: the 2002 hot/cold lists held order-0 pages only",
			   st->pcp_max_order);
	if (st->pcp == BLAB_PCP_HOTCOLD)
		st->pcp_max_order = 0; /* the preset's default, not the user's */
	return 0;
}

/* which classes to record: state,explain,lock,cache or all */
static int zone_events(struct blab_script *s, const struct zone_key *zk, struct kv *k,
		       struct zone_line *zl)
{
	static const char *const cls[] = {"state", "explain", "lock", "cache"};
	char buf[64];
	char *p, *q;

	if (strlen(k->val) >= sizeof(buf))
		return bad(s, "zone: events=%s: too long", k->val);
	strcpy(buf, k->val);
	zl->cfg.log_mask = 0;
	for (p = buf; p && *p; p = q) {
		int i;
		q = strchr(p, ',');
		if (q)
			*q++ = 0;
		if (strcmp(p, "all") == 0) {
			zl->cfg.log_mask = BLAB_EVC_ALL;
			continue;
		}
		i = pick_name(p, cls, 4);
		if (i < 0)
			return bad(s, "zone: events=%s: expected a list of state, explain, lock, cache, or all",
				   k->val);
		zl->cfg.log_mask |= (uint8_t)(1u << i);
	}
	return 0;
}

#define ZCFG(member)                                                                        \
	.off = (uint16_t)offsetof(struct blab_zone_config, member),                        \
	.size = (uint8_t)sizeof(((struct blab_zone_config *)0)->member)
#define ZNUM(k, member, bound) {.key = k, .set = zone_number, ZCFG(member), .max = (bound)}
#define ZFLAG(k, member) ZNUM(k, strategy.member, 1)
#define ZNAME(k, member, list)                                                              \
	{.key = k, .set = zone_name, ZCFG(strategy.member), .names = list,                  \
	 .nnames = sizeof(list) / sizeof(list[0])}

static const struct zone_key zone_keys[] = {
	{.key = "preset", .set = zone_preset}, /* first: the keys below change its values */
	{.key = "pages", .set = zone_number, .required = 1, ZCFG(pages), .max = BLAB_MAX_PAGES},
	ZNUM("start_pfn", start_pfn, BLAB_MAX_START_PFN - 1),
	{.key = "cpus", .set = zone_cpus, ZCFG(cpus), .max = BLAB_MAX_CPUS},
	ZNUM("top_order", top_order, BLAB_MAX_ORDER_LIMIT),
	ZNUM("pageblock_order", pageblock_order, BLAB_MAX_ORDER_LIMIT),
	ZNUM("batch", strategy.batch, 1u << 20),
	ZNUM("high", strategy.high, 1u << 24),
	ZNUM("high_max", strategy.high_max, 1u << 24),
	ZNUM("free_factor", strategy.free_factor, BLAB_FREE_COUNT),
	ZNAME("free_high", free_high, free_high_names),
	ZNAME("pcp_thp", pcp_thp, thp_names),
	{.key = "pcp_max_order", .set = zone_pcp_max_order, ZCFG(strategy.pcp_max_order),
	 .max = BLAB_PCP_MAX_ORDER},
	ZNAME("clusters", clusters, cluster_names),
	ZFLAG("skip_merge", skip_merge),
	ZFLAG("pcp_per_mt", pcp_per_mt),
	ZFLAG("merge_tail", merge_tail),
	ZFLAG("watermarks", watermarks),
	ZFLAG("pcp_lock", pcp_lock),
	ZFLAG("alloc_factor", alloc_factor),
	ZFLAG("bulk_chunk", bulk_chunk),
	ZFLAG("drain_chunk", drain_chunk),
	ZFLAG("buddy_map", buddy_map),
	ZFLAG("expand_top", expand_top),
	/* after pcp_max_order: the hot/cold lists refuse one given with them */
	{.key = "pcp", .set = zone_pcp, ZCFG(strategy.pcp), .names = pcp_names,
	 .nnames = sizeof(pcp_names) / sizeof(pcp_names[0])},
	ZNAME("bulk_rr", bulk_rr, bulk_rr_names),
	ZNAME("bulk_free", bulk_free, bulk_names),
	ZNUM("log", log_capacity, BLAB_MAX_LOG_EVENTS),
	{.key = "events", .set = zone_events},
};

/* the zone line's keys, read by the table; then what no single key decides */
static int zone_read_keys(struct blab_script *s, struct kv *kv, int n, struct zone_line *zl)
{
	struct blab_zone_config *cfg = &zl->cfg;

	blab_zone_config_init(cfg);
	cfg->log_capacity = 65536; /* enough for `events` in a teaching script */
	for (size_t i = 0; i < sizeof(zone_keys) / sizeof(zone_keys[0]); i++) {
		const struct zone_key *zk = &zone_keys[i];
		struct kv *k = find(kv, n, zk->key);
		if (!k && zk->required)
			return bad(s, "zone: %s=N is required", zk->key);
		if (k && zk->set(s, zk, k, zl))
			return 1;
	}
	/* the preset's free_high (5.18+) and THP lists (44042b449872 on) belong to
	 * per-migratetype LIFO lists only: other lists drop them, unless they were asked for
	 * (then the strategy check refuses the mix) */
	if (cfg->strategy.pcp != BLAB_PCP_LIFO || !cfg->strategy.pcp_per_mt) {
		if (!find(kv, n, "free_high"))
			cfg->strategy.free_high = BLAB_FREE_HIGH_NONE;
		if (!find(kv, n, "pcp_thp"))
			cfg->strategy.pcp_thp = BLAB_THP_NONE;
	}
	if (zone_batch_scale(s, kv, n, &cfg->strategy) || unknown_keys(s, "zone", kv, n))
		return 1;
	if (cfg->pageblock_order != 0xff &&
	    cfg->pageblock_order > (cfg->top_order == 0xff ? BLAB_DEFAULT_TOP_ORDER : cfg->top_order))
		return bad(s, "zone: pageblock_order=%u is larger than top_order=%u",
			   cfg->pageblock_order,
			   cfg->top_order == 0xff ? BLAB_DEFAULT_TOP_ORDER : cfg->top_order);
	return 0;
}

static int cmd_zone(struct blab_script *s, struct kv *kv, int n)
{
	struct zone_line zl = {0};
	struct blab_zone *z;
	int err;

	if (zone_read_keys(s, kv, n, &zl))
		return 1;
	zl.cfg.mem_limit = s->mem_limit;
	err = blab_zone_create(&zl.cfg, &z);
	if (err == BLAB_EHOSTMEM) {
		char need[32], limit[32];
		return bad(s, "zone: the host is out of memory for it: the zone needs %s, the "
			      "limit is %s",
			   blab_mem_text(need, sizeof(need), blab_zone_mem_bytes(&zl.cfg)),
			   blab_mem_text(limit, sizeof(limit), blab_mem_limit(s->mem_limit)));
	}
	if (err)
		return bad(s, "zone: %s", blab_strerror(err));
	blab_zone_destroy(s->z);
	s->z = z;
	s->nheld = 0;
	s->events_shown = 0;
	s->cfg = zl.cfg;
	s->fresh = 1;
	memset(&s->snap, 0, sizeof(s->snap));
	memset(s->pcp_count, 0, sizeof(s->pcp_count));
	return 0;
}

/*
 * Comma lists of the snapshot line. nr_free=N0,N1,..: one count per order from 0 (the
 * columns of /proc/buddyinfo); pcp=CPU:COUNT,..: pages on those cpus' pcp lists.
 */
static int snapshot_nr_free(struct blab_script *s, const char *val, uint32_t *nr_free)
{
	char buf[BLAB_SCRIPT_MAX_LINE + 1];
	char *p, *q;
	unsigned o = 0;

	strcpy(buf, val); /* val is part of a line no longer than buf */
	memset(nr_free, 0, sizeof(uint32_t) * (BLAB_MAX_ORDER_LIMIT + 1));
	for (p = buf; p; p = q, o++) {
		uint64_t v;
		int r;
		q = strchr(p, ',');
		if (q)
			*q++ = 0;
		if (o > BLAB_MAX_ORDER_LIMIT)
			return bad(s, "snapshot: nr_free=%s: more than %u orders (0..%u)", val,
				   BLAB_MAX_ORDER_LIMIT + 1, BLAB_MAX_ORDER_LIMIT);
		r = parse_u64(p, BLAB_MAX_PAGES, &v);
		if (r == -1)
			return bad(s, "snapshot: nr_free: order %u: '%s' is not a number", o, p);
		if (r == -2)
			return bad(s, "snapshot: nr_free: order %u: %s is too large (at most %u)", o, p,
				   BLAB_MAX_PAGES);
		if (v && o > s->z->top_order)
			return bad(s, "snapshot: nr_free: %llu free blocks of order %u, but the zone's top_order is %u",
				   (unsigned long long)v, o, s->z->top_order);
		nr_free[o] = (uint32_t)v;
	}
	return 0;
}

static int snapshot_pcp(struct blab_script *s, const char *val, uint32_t *pcp_count)
{
	char buf[BLAB_SCRIPT_MAX_LINE + 1];
	char *p, *q;

	strcpy(buf, val);
	for (p = buf; p; p = q) {
		uint64_t cpu, count;
		char *colon;
		q = strchr(p, ',');
		if (q)
			*q++ = 0;
		colon = strchr(p, ':');
		if (!colon)
			return bad(s, "snapshot: pcp: '%s' is not CPU:COUNT", p);
		*colon = 0;
		if (parse_u64(p, 0xffff, &cpu))
			return bad(s, "snapshot: pcp: cpu '%s' is not a number below 65536", p);
		if (cpu >= s->z->cpus)
			return bad(s, "snapshot: pcp: cpu %llu out of range (the zone has %u cpus: 0..%u)",
				   (unsigned long long)cpu, s->z->cpus, s->z->cpus - 1u);
		if (parse_u64(colon + 1, BLAB_MAX_PAGES, &count))
			return bad(s, "snapshot: pcp: cpu %llu: count '%s' is not a number up to %u",
				   (unsigned long long)cpu, colon + 1, BLAB_MAX_PAGES);
		pcp_count[cpu] = (uint32_t)count;
	}
	return 0;
}

static int cmd_snapshot(struct blab_script *s, struct kv *kv, int n)
{
	struct blab_snapshot snap;
	uint32_t pcp_count[BLAB_MAX_CPUS];
	struct blab_zone *z;
	struct kv *nf, *pc;
	uint64_t need = 0;
	int err;

	if (need_zone(s, "snapshot"))
		return 1;
	if (!s->fresh)
		return bad(s, "snapshot: must come right after 'zone', before any alloc, free, drain or compact");
	nf = find(kv, n, "nr_free");
	pc = find(kv, n, "pcp");
	if (unknown_keys(s, "snapshot", kv, n))
		return 1;
	if (!nf && !pc)
		return bad(s, "snapshot: nr_free=N0,N1,.. or pcp=CPU:COUNT,.. is required");
	/* a refused line changes nothing: work on copies */
	snap = s->snap;
	memcpy(pcp_count, s->pcp_count, sizeof(pcp_count));
	if (nf && snapshot_nr_free(s, nf->val, snap.nr_free))
		return 1;
	if (pc && snapshot_pcp(s, pc->val, pcp_count))
		return 1;
	snap.pcp_count = pcp_count;
	err = blab_zone_create_snapshot(&s->cfg, &snap, &z);
	if (err == BLAB_ESNAPSHOT) {
		blab_snapshot_pages(&snap, s->cfg.start_pfn, s->z->top_order, s->z->cpus,
				    BLAB_MAX_START_PFN, &need);
		return bad(s, "snapshot: the free blocks (each beside an allocated buddy) and the pcp pages need %llu pages, but the zone has pages=%u",
			   (unsigned long long)need, s->z->pages);
	}
	if (err == BLAB_ESTRATEGY)
		return bad(s, "snapshot: pcp pages need pcp lists, and this zone has pcp=none");
	if (err)
		return bad(s, "snapshot: %s", blab_strerror(err));
	blab_snapshot_pages(&snap, s->cfg.start_pfn, z->top_order, z->cpus, z->pages, &need);
	blab_zone_destroy(s->z);
	s->z = z;
	s->nheld = 0;
	s->snap = snap;
	s->snap.pcp_count = NULL;
	memcpy(s->pcp_count, pcp_count, sizeof(pcp_count));
	s->events_shown = 0;
	fprintf(s->out, "snapshot: %u free pages in %llu laid-out pages from pfn 0x%llx, %u pcp pages, the other %llu pages allocated\n",
		z->free_pages, (unsigned long long)(need - z->pcp_pages),
		(unsigned long long)z->start_pfn, z->pcp_pages,
		(unsigned long long)(z->pages - need));
	return 0;
}

static int get_cpu(struct blab_script *s, const char *cmd, struct kv *kv, int n, unsigned *cpu)
{
	uint64_t v = 0;
	if (num(s, cmd, kv, n, "cpu", 0xffff, &v) < 0)
		return 1;
	if (v >= s->z->cpus)
		return bad(s, "%s: cpu=%llu out of range (the zone has %u cpus: 0..%u)", cmd,
			   (unsigned long long)v, s->z->cpus, s->z->cpus - 1u);
	*cpu = (unsigned)v;
	return 0;
}

static const char *const compact_modes[] = {"merge", "migrate"};

/* compaction moved a block: say where it went, so the script can free it there */
static void print_migrated(void *ctx, uint64_t old_pfn, uint64_t new_pfn, unsigned order)
{
	struct blab_script *s = ctx;
	fprintf(s->out, "migrate pfn=0x%llx -> pfn=0x%llx order=%u\n", (unsigned long long)old_pfn,
		(unsigned long long)new_pfn, order);
}

static int cmd_compact(struct blab_script *s, struct kv *kv, int n)
{
	uint64_t order;
	unsigned cpu = 0;
	int r, mode = BLAB_COMPACT_MERGE, ok = 0, err;
	struct kv *k;
	struct blab_compact_stats before, after;

	if (need_zone(s, "compact"))
		return 1;
	if ((r = num(s, "compact", kv, n, "order", 255, &order)) < 0)
		return 1;
	if (r == 0)
		return bad(s, "compact: order=K is required");
	if (get_cpu(s, "compact", kv, n, &cpu))
		return 1;
	if ((k = find(kv, n, "mode"))) {
		mode = pick_name(k->val, compact_modes, 2);
		if (mode < 0)
			return bad(s, "compact: mode=%s: expected merge or migrate", k->val);
	}
	if (unknown_keys(s, "compact", kv, n))
		return 1;
	if (order < 1 || order > s->z->top_order)
		return bad(s, "compact: order=%llu: %s (1..%u)", (unsigned long long)order,
			   blab_strerror(BLAB_EORDER), s->z->top_order);
	blab_compact_stats(s->z, &before);
	err = blab_compact(s->z, cpu, (unsigned)order, (unsigned)mode, print_migrated, s, &ok);
	if (err)
		return bad(s, "compact: %s", blab_strerror(err));
	blab_compact_stats(s->z, &after);
	fprintf(s->out, "compact order=%llu: %s, merged %llu, migrated %llu, scanned %llu\n",
		(unsigned long long)order, ok ? "success" : "no block",
		(unsigned long long)(after.merged - before.merged),
		(unsigned long long)(after.migrated - before.migrated),
		(unsigned long long)(after.scanned - before.scanned));
	return 0;
}

/* /sys/kernel/debug/extfrag/{unusable_index,extfrag_index}: "%d.%03d " per order */
static void print_fragindex(struct blab_script *s)
{
	for (int which = 0; which < 2; which++) {
		fprintf(s->out, "%s Node 0, zone %8s ", which ? "extfrag_index " : "unusable_index",
			"Normal");
		for (unsigned o = 0; o <= s->z->top_order; o++) {
			int32_t un, ex, v;
			blab_zone_frag_index(s->z, o, &un, &ex);
			v = which ? ex : un;
			fprintf(s->out, "%s%d.%03d ", v < 0 ? "-" : "", (v < 0 ? -v : v) / 1000,
				(v < 0 ? -v : v) % 1000);
		}
		fputc('\n', s->out);
	}
	fprintf(s->out, "merge-skipped pages: %u\n", s->z->merge_skipped);
}

static int cmd_alloc(struct blab_script *s, struct kv *kv, int n)
{
	uint64_t order, pfn, count = 1, first = 0, i;
	unsigned cpu = 0, mt = BLAB_MT_MOVABLE;
	uint8_t cold = 0;
	struct kv *k;
	int r, err = 0, compact = -1;

	if (need_zone(s, "alloc"))
		return 1;
	if (num(s, "alloc", kv, n, "count", MAX_COUNT, &count) < 0)
		return 1;
	if (count < 1)
		return bad(s, "alloc: count=0: at least 1");
	if ((r = num(s, "alloc", kv, n, "order", 255, &order)) < 0)
		return 1;
	if (r == 0)
		return bad(s, "alloc: order=K is required");
	if (get_cpu(s, "alloc", kv, n, &cpu) || flag01(s, "alloc", kv, n, "cold", &cold) < 0)
		return 1;
	if ((k = find(kv, n, "mt"))) {
		static const char *const mts[] = {"unmovable", "movable", "reclaimable"};
		int m = pick_name(k->val, mts, 3);
		if (m < 0)
			return bad(s, "alloc: mt=%s: expected movable, unmovable or reclaimable", k->val);
		mt = (unsigned)m;
	}
	if ((k = find(kv, n, "compact"))) {
		compact = pick_name(k->val, compact_modes, 2);
		if (compact < 0)
			return bad(s, "alloc: compact=%s: expected merge or migrate", k->val);
		if (cold)
			return bad(s, "alloc: compact= and cold=1 do not go together");
	}
	if (unknown_keys(s, "alloc", kv, n))
		return 1;
	if (order > s->z->top_order)
		return bad(s, "alloc: order=%llu: %s (0..%u)", (unsigned long long)order,
			   blab_strerror(BLAB_EORDER), s->z->top_order);
	for (i = 0; i < count; i++) {
		if (compact >= 0)
			err = blab_alloc_compact(s->z, cpu, (unsigned)order, mt, (unsigned)compact,
						 print_migrated, s, &pfn);
		else
			err = blab_alloc_gfp(s->z, cpu, (unsigned)order, mt,
					     cold ? BLAB_GFP_COLD : 0, &pfn);
		if (err)
			break;
		if (!i)
			first = pfn;
		if (hold(s, pfn, (unsigned)order))
			return bad(s, "alloc: out of host memory");
		if (count == 1)
			fprintf(s->out, "pfn=0x%llx order=%llu migratetype=%u\n",
				(unsigned long long)pfn, (unsigned long long)order, mt);
	}
	if (err == BLAB_ENOMEM || err == BLAB_EWMARK) {
		/* an observed outcome, not a bad line */
		if (count > 1)
			fprintf(s->out, "alloc order=%llu count=%llu failed after %llu: %s\n",
				(unsigned long long)order, (unsigned long long)count,
				(unsigned long long)i, blab_strerror(err));
		else
			fprintf(s->out, "alloc order=%llu failed: %s\n", (unsigned long long)order,
				blab_strerror(err));
		return 0;
	}
	if (err)
		return bad(s, "alloc: %s", blab_strerror(err));
	if (count > 1)
		fprintf(s->out, "alloc order=%llu count=%llu cpu=%u: pfn=0x%llx .. pfn=0x%llx\n",
			(unsigned long long)order, (unsigned long long)count, cpu,
			(unsigned long long)first, (unsigned long long)pfn);
	return 0;
}

/* free last=N: the N newest blocks the script's allocs got, newest first (as munmap gives
 * back what page faults took); a block the script freed by its pfn meanwhile is passed over */
static int free_last(struct blab_script *s, uint64_t last, unsigned cpu)
{
	uint64_t freed = 0;

	while (freed < last && s->nheld) {
		const struct held *h = &s->held[--s->nheld];
		int err = blab_free(s->z, cpu, h->pfn, h->order);
		if (err == BLAB_EDOUBLEFREE || err == BLAB_EONPCP || err == BLAB_ENOTALLOC ||
		    err == BLAB_ETAIL || err == BLAB_EWRONGORDER)
			continue; /* not held any more: freed, or reused, by another line */
		if (err)
			return bad(s, "free last: pfn=0x%llx order=%u: %s",
				   (unsigned long long)h->pfn, h->order, blab_strerror(err));
		freed++;
	}
	if (freed < last)
		fprintf(s->out, "free last=%llu: %llu blocks were held, all freed\n",
			(unsigned long long)last, (unsigned long long)freed);
	return 0;
}

static int cmd_free(struct blab_script *s, struct kv *kv, int n)
{
	uint64_t order, pfn;
	unsigned cpu = 0;
	uint8_t cold = 0;
	int r, err;

	if (need_zone(s, "free"))
		return 1;
	if (find(kv, n, "last")) {
		uint64_t last;
		if (num(s, "free", kv, n, "last", MAX_HELD, &last) < 0 ||
		    get_cpu(s, "free", kv, n, &cpu) || unknown_keys(s, "free", kv, n))
			return 1;
		return free_last(s, last, cpu);
	}
	if ((r = num(s, "free", kv, n, "pfn", UINT64_MAX, &pfn)) < 0)
		return 1;
	if (r == 0)
		return bad(s, "free: pfn=P is required");
	if ((r = num(s, "free", kv, n, "order", 255, &order)) < 0)
		return 1;
	if (r == 0)
		return bad(s, "free: order=K is required");
	if (get_cpu(s, "free", kv, n, &cpu) || flag01(s, "free", kv, n, "cold", &cold) < 0)
		return 1;
	if (unknown_keys(s, "free", kv, n))
		return 1;
	err = blab_free_gfp(s->z, cpu, pfn, (unsigned)order, cold ? BLAB_GFP_COLD : 0);
	if (err)
		return bad(s, "free pfn=0x%llx order=%llu: %s", (unsigned long long)pfn,
			   (unsigned long long)order, blab_strerror(err));
	return 0;
}

static int cmd_drain(struct blab_script *s, struct kv *kv, int n)
{
	struct kv *k;
	int err;

	if (need_zone(s, "drain"))
		return 1;
	k = find(kv, n, "cpu");
	if (!k)
		return bad(s, "drain: cpu=C or cpu=all is required");
	if (strcmp(k->val, "all") == 0) {
		if (find(kv, n, "by"))
			return bad(s, "drain: by=D drains one cpu's lists: give cpu=C");
		if (unknown_keys(s, "drain", kv, n))
			return 1;
		err = blab_drain_all(s->z);
	} else {
		unsigned cpu = 0, by = 0;
		struct kv *b = find(kv, n, "by");
		k->used = 0;
		if (get_cpu(s, "drain", kv, n, &cpu))
			return 1;
		if (b) {
			/* get_cpu() reads cpu=: read by= the same way, on its own */
			char key[] = "cpu";
			struct kv one = {key, b->val, 0};
			if (get_cpu(s, "drain by", &one, 1, &by))
				return 1;
			b->used = 1;
		}
		if (unknown_keys(s, "drain", kv, n))
			return 1;
		err = b ? blab_drain_remote(s->z, by, cpu) : blab_drain(s->z, cpu);
		if (err == BLAB_ESTRATEGY)
			return bad(s, "drain by=%u: another cpu's lists are drained from outside only "
				      "from 6.0 on (pcp_lock=1)", by);
	}
	if (err)
		return bad(s, "drain: %s", blab_strerror(err));
	return 0;
}

/* decay_pcp_high() of one or every cpu, as the vmstat worker does about once a second */
static int cmd_decay(struct blab_script *s, struct kv *kv, int n)
{
	struct kv *k;
	unsigned cpu = 0, first, last;
	int err = 0;

	if (need_zone(s, "decay"))
		return 1;
	k = find(kv, n, "cpu");
	if (!k)
		return bad(s, "decay: cpu=C or cpu=all is required");
	if (strcmp(k->val, "all") == 0) {
		k->used = 1;
		first = 0;
		last = s->z->cpus - 1u;
	} else if (get_cpu(s, "decay", kv, n, &cpu)) {
		return 1;
	} else {
		first = last = cpu;
	}
	if (unknown_keys(s, "decay", kv, n))
		return 1;
	for (unsigned c = first; c <= last && !err; c++)
		err = blab_decay(s->z, c);
	if (err)
		return bad(s, "decay: %s", blab_strerror(err));
	return 0;
}

/* mm/vmstat.c frag_show_print(): "Node %d, zone %8s " then "%6lu " per order */
static void print_buddyinfo(struct blab_script *s)
{
	fprintf(s->out, "Node 0, zone %8s ", "Normal");
	for (unsigned o = 0; o <= s->z->top_order; o++)
		fprintf(s->out, "%6lu ", (unsigned long)s->z->free_area[o].nr_free);
	fputc('\n', s->out);
}

/* the pagesets part of mm/vmstat.c zoneinfo_show_print() */
static void print_pcp(struct blab_script *s)
{
	struct blab_zone *z = s->z;
	fprintf(s->out, "  pagesets\n");
	if (z->s.pcp == BLAB_PCP_NONE) {
		fprintf(s->out, "    (none: every page takes zone->lock)\n");
		return;
	}
	for (unsigned cpu = 0; cpu < z->cpus; cpu++) {
		for (unsigned w = 0; w < (z->s.pcp == BLAB_PCP_HOTCOLD ? 2u : 1u); w++) {
			const struct per_cpu_pages *pcp = &z->pageset[cpu].pcp[w];
			if (z->s.pcp == BLAB_PCP_HOTCOLD)
				fprintf(s->out, "    cpu: %u pcp: %u\n", cpu, w);
			else
				fprintf(s->out, "    cpu: %u\n", cpu);
			if (z->s.high_mode == BLAB_HIGH_AUTO) /* 6.7+: the range too */
				fprintf(s->out,
					"              count:    %u\n"
					"              high:     %u\n"
					"              batch:    %u\n"
					"              high_min: %u\n"
					"              high_max: %u\n",
					pcp->count, pcp->high, pcp->batch, pcp->high_min,
					pcp->high_max);
			else
				fprintf(s->out,
					"              count: %u\n"
					"              high:  %u\n"
					"              batch: %u\n",
					pcp->count, pcp->high, pcp->batch);
		}
	}
}

static void print_zoneinfo(struct blab_script *s)
{
	struct blab_zone *z = s->z;
	fprintf(s->out,
		"Node 0, zone %8s\n"
		"  pages free     %u\n"
		"        min      %u\n"
		"        low      %u\n"
		"        high     %u\n"
		"        spanned  %u\n"
		"        present  %u\n"
		"        managed  %u\n",
		"Normal", z->free_pages, z->wmark[WMARK_MIN], z->wmark[WMARK_LOW],
		z->wmark[WMARK_HIGH], z->pages, z->pages, z->managed_pages);
	print_pcp(s);
	fprintf(s->out, "  start_pfn:           %llu\n", (unsigned long long)z->start_pfn);
}

/* the log records not yet shown, one per line, fields named as in docs/events.md */
static void print_events(struct blab_script *s)
{
	uint32_t n;
	const struct blab_event *ev = blab_log(s->z, &n);

	for (uint32_t i = s->events_shown; i < n; i++) {
		const struct blab_event *e = &ev[i];
		const char *name = blab_event_name(e->type);
		const char *path = blab_path_name(e->path);
		fprintf(s->out, "%6u t=%llu %-14s pfn=0x%llx order=%u cpu=", i,
			(unsigned long long)e->time, name ? name : "?", (unsigned long long)e->pfn,
			e->order);
		if (e->cpu == BLAB_CPU_NONE)
			fprintf(s->out, "-");
		else
			fprintf(s->out, "%u", e->cpu);
		fprintf(s->out, " mt=%u path=%s flags=0x%x arg0=%u arg1=%u\n", e->mt,
			path ? path : "?", e->flags, e->arg0, e->arg1);
	}
	s->events_shown = n;
	if (blab_log_full(s->z))
		fprintf(s->out, "events: the log is full (raise log=N on the zone line)\n");
}

static int simple(struct blab_script *s, const char *cmd, struct kv *kv, int n)
{
	char msg[256];
	int err;

	if (need_zone(s, cmd) || unknown_keys(s, cmd, kv, n))
		return 1;
	if (strcmp(cmd, "buddyinfo") == 0) {
		print_buddyinfo(s);
	} else if (strcmp(cmd, "pcp") == 0) {
		print_pcp(s);
	} else if (strcmp(cmd, "zoneinfo") == 0) {
		print_zoneinfo(s);
	} else if (strcmp(cmd, "events") == 0) {
		print_events(s);
	} else if (strcmp(cmd, "fragindex") == 0) {
		print_fragindex(s);
	} else {
		err = blab_check(s->z, msg, sizeof(msg));
		if (err)
			return bad(s, "check: %s: %s", blab_strerror(err), msg);
		fprintf(s->out, "check: ok\n");
	}
	return 0;
}

/*
 * A line as raw bytes, the way a file or a browser hands it over: a NUL byte would cut the
 * line short in C, so it is refused here, once, for the CLI and the JS API alike.
 */
int blab_script_bytes(struct blab_script *s, const char *bytes, size_t len, unsigned lineno)
{
	char buf[BLAB_SCRIPT_MAX_LINE + 1];

	if (!s || (!bytes && len))
		return 1;
	s->lineno = lineno;
	if (len > BLAB_SCRIPT_MAX_LINE)
		return bad(s, "line longer than %u characters", BLAB_SCRIPT_MAX_LINE);
	if (len && memchr(bytes, 0, len))
		return bad(s, "NUL byte in the line (not a text file?)");
	if (len)
		memcpy(buf, bytes, len);
	buf[len] = 0;
	return blab_script_line(s, buf, lineno);
}

int blab_script_line(struct blab_script *s, const char *line, unsigned lineno)
{
	char buf[BLAB_SCRIPT_MAX_LINE + 1];
	char *tok[MAX_TOKENS];
	struct kv kv[MAX_TOKENS];
	int ntok = 0, n = 0;
	size_t len;
	char *p;

	if (!s || !line)
		return 1;
	s->lineno = lineno;
	if (lineno == 1 && !strncmp(line, UTF8_BOM, 3))
		line += 3; /* a byte order mark some editors put first: not part of the op */
	len = strlen(line);
	if (len > BLAB_SCRIPT_MAX_LINE)
		return bad(s, "line longer than %u characters", BLAB_SCRIPT_MAX_LINE);
	memcpy(buf, line, len + 1);
	if ((p = strchr(buf, '#')))
		*p = 0;
	for (p = buf; *p;) {
		while (*p && strchr(" \t\r\n\v\f", *p))
			*p++ = 0;
		if (!*p)
			break;
		if (ntok == MAX_TOKENS)
			return bad(s, "more than %d words", MAX_TOKENS);
		tok[ntok++] = p;
		while (*p && !strchr(" \t\r\n\v\f", *p))
			p++;
	}
	if (ntok == 0)
		return 0;
	for (int i = 1; i < ntok; i++) {
		char *eq = strchr(tok[i], '=');
		if (!eq || eq == tok[i] || !eq[1])
			return bad(s, "%s: '%s' is not key=value", tok[0], tok[i]);
		*eq = 0;
		kv[n].key = tok[i];
		kv[n].val = eq + 1;
		kv[n].used = 0;
		n++;
	}
	if (strcmp(tok[0], "zone") == 0)
		return cmd_zone(s, kv, n);
	if (strcmp(tok[0], "snapshot") == 0)
		return cmd_snapshot(s, kv, n);
	if (strcmp(tok[0], "alloc") == 0 || strcmp(tok[0], "free") == 0 ||
	    strcmp(tok[0], "drain") == 0 || strcmp(tok[0], "compact") == 0 ||
	    strcmp(tok[0], "decay") == 0)
		s->fresh = 0; /* the zone is no longer the one its `zone` line made */
	if (strcmp(tok[0], "alloc") == 0)
		return cmd_alloc(s, kv, n);
	if (strcmp(tok[0], "free") == 0)
		return cmd_free(s, kv, n);
	if (strcmp(tok[0], "drain") == 0)
		return cmd_drain(s, kv, n);
	if (strcmp(tok[0], "decay") == 0)
		return cmd_decay(s, kv, n);
	if (strcmp(tok[0], "compact") == 0)
		return cmd_compact(s, kv, n);
	if (strcmp(tok[0], "buddyinfo") == 0 || strcmp(tok[0], "pcp") == 0 ||
	    strcmp(tok[0], "zoneinfo") == 0 || strcmp(tok[0], "check") == 0 ||
	    strcmp(tok[0], "events") == 0 || strcmp(tok[0], "fragindex") == 0)
		return simple(s, tok[0], kv, n);
	return bad(s, "unknown op '%s' (expected zone, snapshot, alloc, free, drain, decay, compact, buddyinfo, pcp, zoneinfo, fragindex, events or check)",
		   tok[0]);
}
