/*
 * ex_slab.c - slab problems: a SLUB cache on two CPUs, kmalloc and kfree, the object each
 * allocation gets, when a new slab is taken, and where a freed object goes (the CPU's
 * c->freelist, or its slab's own freelist when the slab is another CPU's or no CPU's).
 *
 * The cache is kmalloc-512 or kmalloc-1024 with order-0 slabs (as /sys/kernel/slab/NAME/order
 * would set it), so a slab holds 8 or 4 objects. The state comes from a random history of
 * kmalloc and kfree on both CPUs; the problem prints every slab (who holds it, which objects
 * are handed out, its own freelist in order), each CPU's c->freelist in order and the partial
 * list's order: all the slab layer reads. Slabs are named by letters in the order they were
 * made and objects by their number in the slab, never by the pages the page allocator gave
 * them, so the answers do not depend on where the slabs are (tests move them: ex->perturb).
 *
 *   level 1  one kmalloc (which object; a new slab?) or one kfree (which freelist; what it
 *            holds after)
 *   level 2  kmalloc, kfree, kmalloc: the objects, a slab's own freelist after the kfree
 *   level 3  a remote kfree into a CPU's cpu slab, then that CPU's allocations until
 *            ___slab_alloc() takes the slab's own freelist back (get_freelist())
 */
#include <stdlib.h>
#include <string.h>
#include "exercise.h"
#include "machine/prim.h" /* PAGE_OFFSET: an object's address from its record */

#define MAX_SLABS 26u
#define MAX_OBJS 8u
#define MAX_HELD 64u
#define MAX_OPS 10u
#define TRIES 200u

struct sop {
	uint8_t free;   /* kfree, else kmalloc */
	uint8_t cpu;
	uint64_t addr;  /* kfree: the object */
};

struct sl {
	struct blab_exercise *ex;
	uint32_t size, objects;
	uint64_t slab_pfn[MAX_SLABS]; /* by letter: the slab's first page */
	unsigned nslabs;
	struct sop op[MAX_OPS];
	unsigned nops;
	uint32_t ev[MAX_OPS + 1];
	struct ex_buf state;
};

static int letter_of(const struct sl *s, uint64_t pfn)
{
	for (unsigned i = 0; i < s->nslabs; i++)
		if (s->slab_pfn[i] == pfn)
			return (int)i;
	return -1;
}

/* "B3" for an address */
static void object_name(const struct sl *s, uint64_t addr, char *out, size_t len)
{
	uint64_t pfn = (addr - PAGE_OFFSET) >> PAGE_SHIFT;
	int l = letter_of(s, pfn);
	snprintf(out, len, "%c%llu", l < 0 ? '?' : 'A' + l,
		 (unsigned long long)((addr - frame_vaddr(pfn)) / s->size));
}

/* new slabs since record `from`, in the order they were made, get the next letters */
static void name_new_slabs(struct sl *s, struct blab_zone *z, uint32_t from)
{
	uint32_t n;
	const struct blab_event *ev = blab_log(z, &n);
	for (uint32_t i = from; i < n; i++)
		if (ev[i].type == BLAB_EV_SLAB_NEW && s->nslabs < MAX_SLABS) {
			int l = letter_of(s, ev[i].pfn);
			if (l >= 0) /* a page given back and made a slab again: a new slab, new letter */
				s->slab_pfn[l] = ~0ull;
			s->slab_pfn[s->nslabs++] = ev[i].pfn;
		}
}

static void list_objs(struct ex_buf *b, const uint16_t *o, uint32_t n)
{
	if (!n)
		ex_puts(b, "none");
	for (uint32_t i = 0; i < n; i++)
		ex_printf(b, "%s%u", i ? "," : "", o[i]);
}

/* the same for people: "3, 1" */
static void show_objs(struct ex_buf *b, const uint16_t *o, uint32_t n)
{
	if (!n)
		ex_puts(b, "empty");
	for (uint32_t i = 0; i < n; i++)
		ex_printf(b, "%s%u", i ? ", " : "", o[i]);
}

/* the cache as the problem prints it: each slab, each CPU's c->freelist */
static void print_state(struct sl *s, struct blab_zone *z, struct ex_buf *t)
{
	struct blab_slab_info info[MAX_SLABS];
	uint32_t n = 0;
	uint16_t objs[MAX_OBJS];
	uint32_t no;

	blab_kmem_cache_slabs(z, 0, info, MAX_SLABS, &n);
	ex_puts(t, "The slabs (objects numbered 0 up from the slab's start; each slab's own freelist,\n"
		   "slab->freelist, head first):\n\n");
	for (unsigned l = 0; l < s->nslabs; l++) {
		const struct blab_slab_info *i = NULL;
		uint8_t free_here[MAX_OBJS] = {0};
		unsigned shown = 0;
		for (uint32_t k = 0; k < n; k++)
			if (info[k].pfn == s->slab_pfn[l])
				i = &info[k];
		if (!i)
			continue; /* given back to the page allocator */
		blab_kmem_freelist(z, 0, BLAB_CPU_NONE, i->pfn, objs, MAX_OBJS, &no);
		for (uint32_t k = 0; k < no; k++)
			free_here[objs[k]] = 1;
		if (i->cpu != BLAB_CPU_NONE) {
			uint16_t c[MAX_OBJS];
			uint32_t nc;
			blab_kmem_freelist(z, 0, i->cpu, 0, c, MAX_OBJS, &nc);
			for (uint32_t k = 0; k < nc; k++)
				free_here[c[k]] = 1;
		}
		ex_printf(t, "  %c  pfn 0x%llx, ", 'A' + l, (unsigned long long)i->pfn);
		if (i->cpu != BLAB_CPU_NONE)
			ex_printf(t, "CPU %u's cpu slab", i->cpu);
		else if (i->on_partial)
			ex_printf(t, "on the partial list, place %u", i->partial_pos + 1);
		else
			ex_puts(t, "full, on no list");
		ex_puts(t, "\n     handed out:");
		for (unsigned k = 0; k < s->objects; k++)
			if (!free_here[k]) {
				ex_printf(t, " %c%u", 'A' + l, k);
				shown++;
			}
		if (!shown)
			ex_puts(t, " none");
		ex_puts(t, "\n     own freelist: ");
		show_objs(t, objs, no);
		ex_puts(t, "\n");
	}
	ex_puts(t, "\nEach CPU's c->freelist (objects of its cpu slab), head first:\n\n");
	for (unsigned cpu = 0; cpu < 2; cpu++) {
		const struct blab_slab_info *i = NULL;
		for (uint32_t k = 0; k < n; k++)
			if (info[k].cpu == cpu)
				i = &info[k];
		if (!i) {
			ex_printf(t, "  CPU %u: no cpu slab\n", cpu);
			continue;
		}
		blab_kmem_freelist(z, 0, cpu, 0, objs, MAX_OBJS, &no);
		ex_printf(t, "  CPU %u: slab %c, c->freelist: ", cpu, 'A' + letter_of(s, i->pfn));
		show_objs(t, objs, no);
		ex_puts(t, "\n");
	}
}

/* the address the last SLAB_ALLOC record in [from, to) handed out, or 0 */
static uint64_t allocated(struct blab_zone *z, uint32_t from, uint32_t to)
{
	uint32_t n;
	const struct blab_event *ev = blab_log(z, &n);
	for (uint32_t i = from; i < to && i < n; i++)
		if (ev[i].type == BLAB_EV_SLAB_ALLOC)
			return ev[i].pfn + PAGE_OFFSET;
	return 0;
}

static int count_ev(struct blab_zone *z, uint32_t from, uint32_t to, unsigned type, unsigned flags)
{
	uint32_t n;
	int c = 0;
	const struct blab_event *ev = blab_log(z, &n);
	for (uint32_t i = from; i < to && i < n; i++)
		if (ev[i].type == type && (ev[i].flags & flags) == flags)
			c++;
	return c;
}

/* kmalloc and kfree on both CPUs at random: a few slabs, partly used, some freed remotely */
static int history(struct sl *s, struct ex_run *r)
{
	struct blab_exercise *ex = s->ex;
	uint64_t held[MAX_HELD];
	unsigned nheld = 0, steps = s->objects * (2 + ex_below(ex, 2)) + ex_below(ex, 4);
	int err = 0;

	for (unsigned i = 0; i < steps && !err; i++) {
		unsigned cpu = ex_below(ex, 2);
		if (nheld && (nheld == MAX_HELD || ex_below(ex, 100) < 35)) {
			unsigned k = ex_below(ex, nheld);
			err = ex_run(ex, r, "kfree addr=0x%llx cpu=%u", (unsigned long long)held[k], cpu);
			held[k] = held[--nheld];
		} else {
			uint32_t before = ex_events(r);
			err = ex_run(ex, r, "kmalloc size=%u cpu=%u", s->size, cpu);
			if (!err)
				held[nheld++] = allocated(ex_zone(r), before, ex_events(r));
		}
	}
	return err;
}

/* an object handed out, at random: from a given slab letter (or any: -1) */
static uint64_t pick_held(struct sl *s, struct blab_zone *z, int letter)
{
	struct blab_slab_info info[MAX_SLABS];
	uint64_t cand[MAX_SLABS * MAX_OBJS];
	uint32_t n = 0, nc = 0;

	blab_kmem_cache_slabs(z, 0, info, MAX_SLABS, &n);
	for (uint32_t k = 0; k < n; k++) {
		uint8_t free_here[MAX_OBJS] = {0};
		uint16_t o[MAX_OBJS];
		uint32_t no;
		int l = letter_of(s, info[k].pfn);
		if (l < 0 || (letter >= 0 && l != letter))
			continue;
		blab_kmem_freelist(z, 0, BLAB_CPU_NONE, info[k].pfn, o, MAX_OBJS, &no);
		for (uint32_t i = 0; i < no; i++)
			free_here[o[i]] = 1;
		if (info[k].cpu != BLAB_CPU_NONE) {
			blab_kmem_freelist(z, 0, info[k].cpu, 0, o, MAX_OBJS, &no);
			for (uint32_t i = 0; i < no; i++)
				free_here[o[i]] = 1;
		}
		for (unsigned i = 0; i < s->objects; i++)
			if (!free_here[i])
				cand[nc++] = info[k].base + (uint64_t)i * s->size;
	}
	return nc ? cand[ex_below(s->ex, nc)] : 0;
}

/* the problem's ops for this try, from the state after the history */
static int draw_ops(struct sl *s, struct blab_zone *z)
{
	struct blab_exercise *ex = s->ex;
	s->nops = 0;
	if (ex->level == 1) {
		uint64_t a = ex_below(ex, 2) ? pick_held(s, z, -1) : 0;
		s->op[s->nops++] = (struct sop){a != 0, (uint8_t)ex_below(ex, 2), a};
		return 1;
	}
	if (ex->level == 2) {
		uint64_t a = pick_held(s, z, -1);
		if (!a)
			return 0;
		s->op[s->nops++] = (struct sop){0, (uint8_t)ex_below(ex, 2), 0};
		s->op[s->nops++] = (struct sop){1, (uint8_t)ex_below(ex, 2), a};
		s->op[s->nops++] = (struct sop){0, (uint8_t)ex_below(ex, 2), 0};
		return 1;
	}
	{
		/* a CPU whose cpu slab has an object handed out: the other CPU frees it, then the
		 * owner allocates until its c->freelist is used up and one more */
		unsigned cpu = ex_below(ex, 2);
		struct blab_slab_info info[MAX_SLABS];
		uint16_t o[MAX_OBJS];
		uint32_t n = 0, no = 0;
		int l = -1;
		uint64_t a;
		blab_kmem_cache_slabs(z, 0, info, MAX_SLABS, &n);
		for (uint32_t k = 0; k < n; k++)
			if (info[k].cpu == cpu)
				l = letter_of(s, info[k].pfn);
		if (l < 0 || !(a = pick_held(s, z, l)))
			return 0;
		blab_kmem_freelist(z, 0, cpu, 0, o, MAX_OBJS, &no);
		s->op[s->nops++] = (struct sop){1, (uint8_t)(1 - cpu), a};
		for (uint32_t k = 0; k <= no && s->nops < MAX_OPS; k++)
			s->op[s->nops++] = (struct sop){0, (uint8_t)cpu, 0};
		return s->nops <= MAX_OPS;
	}
}

static int run_op(struct sl *s, struct ex_run *r, unsigned k)
{
	const struct sop *o = &s->op[k];
	if (o->free)
		return ex_run(s->ex, r, "kfree addr=0x%llx cpu=%u", (unsigned long long)o->addr, o->cpu);
	return ex_run(s->ex, r, "kmalloc size=%u cpu=%u", s->size, o->cpu);
}

/* where a kfree put its object (the CPU's c->freelist or the slab's own), and the slab's own
 * freelist after it */
static void freed_where(struct sl *s, struct blab_zone *z, unsigned k, int *on_cpu,
			struct ex_buf *list)
{
	uint64_t pfn = (s->op[k].addr - PAGE_OFFSET) >> PAGE_SHIFT;
	uint32_t n, no, e;
	const struct blab_event *ev = blab_log(z, &n);
	uint16_t o[MAX_OBJS];

	*on_cpu = 0;
	for (e = s->ev[k]; e < s->ev[k + 1]; e++)
		if (ev[e].type == BLAB_EV_SLAB_FREE)
			*on_cpu = 1;
	if (blab_kmem_freelist(z, 0, BLAB_CPU_NONE, pfn, o, MAX_OBJS, &no))
		no = 0; /* the slab went back to the page allocator */
	list_objs(list, o, no);
}

/* what op k did, read off the core right after it ran */
struct sdid {
	char obj[8];         /* kmalloc: the object it got */
	uint8_t new_slab;    /* kmalloc: new_slab() ran */
	uint8_t refill;      /* kmalloc: ___slab_alloc() took the cpu slab's own freelist */
	int on_cpu;          /* kfree: onto the CPU's c->freelist (else the slab's own) */
	struct ex_buf slab_list; /* kfree: the freed object's slab's own freelist after it */
};

static void rules(struct ex_buf *t)
{
	ex_para(t, "The rules (SLUB, mm/slub.c): kmalloc on a CPU takes the head of its "
		   "c->freelist. When that is empty, ___slab_alloc() takes the cpu slab's own "
		   "freelist if kfrees from elsewhere put objects there (get_freelist()); else it "
		   "gives the cpu slab up (a full slab sits on no list) and takes the slab at the head "
		   "of the partial list, or else a new slab from the page allocator (new_slab(): all "
		   "its objects on the freelist, 0 first). kfree on the CPU whose cpu slab holds the "
		   "object pushes it on that CPU's c->freelist; any other kfree pushes it on its "
		   "slab's own freelist (__slab_free()), and a full slab then goes on the tail of the "
		   "partial list. A slab that empties stays on the partial list while the node holds "
		   "fewer than min_partial partial slabs, else goes back to the page allocator.");
}

static void statement(struct sl *s)
{
	struct ex_buf *t = &s->ex->statement;

	ex_para(t, "Two CPUs and one cache, kmalloc-%u: %u-byte objects in order-0 slabs of %u "
		   "objects (as /sys/kernel/slab/kmalloc-%u/order = 0 sets it), min_partial 5. A "
		   "slab is named by a letter in the order slabs were made (a new one takes the next "
		   "letter), an object by its slab and its number: B3 is slab B's object 3.",
		s->size, s->size, s->objects, s->size);
	rules(t);
	ex_puts(t, "\n");
	ex_puts(t, ex_str(&s->state));
	ex_puts(t, "\nThese run in order:\n\n");
	for (unsigned k = 0; k < s->nops; k++) {
		if (s->op[k].free) {
			char name[8];
			object_name(s, s->op[k].addr, name, sizeof(name));
			ex_printf(t, "  %u. kfree(%s) on CPU %u\n", k + 1, name, s->op[k].cpu);
		} else {
			ex_printf(t, "  %u. kmalloc(%u) on CPU %u\n", k + 1, s->size, s->op[k].cpu);
		}
	}
}

static struct ex_question *ask(struct sl *s, struct blab_zone *z, unsigned k, unsigned form,
			       const char *text)
{
	struct ex_question *q = ex_question(s->ex, form, "%s", text);
	ex_working(q, z, s->ev[k], s->ev[k + 1], EX_WORK_SLAB);
	return q;
}

static void q_object(struct sl *s, struct blab_zone *z, unsigned k, const struct sdid *d)
{
	char text[80];
	struct ex_question *q;
	snprintf(text, sizeof(text), "Which object does op %u get?", k + 1);
	q = ask(s, z, k, EX_FORM_OBJECT, text);
	ex_puts(&q->answer, d[k].obj);
	ex_printf(&q->working, "that is object %s\n", d[k].obj);
}

static void q_where(struct sl *s, struct blab_zone *z, unsigned k, const struct sdid *d)
{
	char name[8], text[200];
	struct ex_question *q;
	object_name(s, s->op[k].addr, name, sizeof(name));
	snprintf(text, sizeof(text), "Op %u frees %s on CPU %u: where does the object go?", k + 1, name,
		 s->op[k].cpu);
	q = ask(s, z, k, EX_FORM_CHOICE, text);
	ex_printf(&q->choice[0], "CPU %u's c->freelist", s->op[k].cpu);
	ex_puts(&q->choice[1], "its slab's own freelist (slab->freelist)");
	q->nchoices = 2;
	ex_puts(&q->answer, d[k].on_cpu ? "a" : "b");
}

static void q_slab_list(struct sl *s, struct blab_zone *z, unsigned k, const struct sdid *d)
{
	char name[8], text[240];
	struct ex_question *q;
	object_name(s, s->op[k].addr, name, sizeof(name));
	snprintf(text, sizeof(text), "After op %u, what is slab %c's own freelist (slab->freelist: object numbers, head first)?",
		 k + 1, name[0]);
	q = ask(s, z, k, EX_FORM_LIST, text);
	ex_puts(&q->answer, ex_str(&d[k].slab_list));
}

static void questions(struct sl *s, struct blab_zone *z, const struct sdid *d)
{
	struct blab_exercise *ex = s->ex;
	if (ex->level == 1) {
		if (s->op[0].free) {
			q_where(s, z, 0, d);
			q_slab_list(s, z, 0, d);
		} else {
			struct ex_question *q;
			q_object(s, z, 0, d);
			q = ask(s, z, 0, EX_FORM_YESNO, "Does op 1 take a new slab from the page allocator (new_slab())?");
			ex_puts(&q->answer, d[0].new_slab ? "yes" : "no");
		}
		return;
	}
	if (ex->level == 2) {
		q_object(s, z, 0, d);
		q_slab_list(s, z, 1, d);
		q_object(s, z, 2, d);
		return;
	}
	q_slab_list(s, z, 0, d);
	{
		struct ex_question *q = ex_question(ex, EX_FORM_NUMBER,
			"Which op is the first whose ___slab_alloc() takes the cpu slab's own freelist back (get_freelist())? (its number)");
		unsigned first = 0;
		for (unsigned k = 0; k < s->nops && !first; k++)
			if (d[k].refill)
				first = k + 1;
		ex_printf(&q->answer, "%u", first);
		ex_working(q, z, s->ev[0], s->ev[s->nops], EX_WORK_SLAB);
	}
	q_object(s, z, s->nops - 1, d);
}

static void reset(struct blab_exercise *ex)
{
	ex_buf_free(&ex->ops);
	for (unsigned i = 0; i < ex->nq; i++) {
		ex_buf_free(&ex->q[i].text);
		ex_buf_free(&ex->q[i].answer);
		ex_buf_free(&ex->q[i].working);
		for (unsigned c = 0; c < EX_MAX_CHOICES; c++)
			ex_buf_free(&ex->q[i].choice[c]);
		ex->q[i].nchoices = 0;
	}
	ex->nq = 0;
}

/* one try: 0, 2 to draw again, or an error */
static int try_once(struct sl *s, struct ex_run *r)
{
	struct blab_exercise *ex = s->ex;
	struct sdid d[MAX_OPS];
	struct blab_zone *z;
	int err;

	memset(d, 0, sizeof(d));
	s->nslabs = 0;
	if ((err = ex_run(ex, r, "zone pages=256 cpus=2 preset=%s", ex->preset)))
		return err;
	/* perturbed: the page allocator hands the slabs other pages */
	if (ex->perturb && (err = ex_run(ex, r, "alloc order=3 count=3")))
		return err;
	if ((err = ex_run(ex, r, "kmem_cache_create name=kmalloc-%u size=%u order=0", s->size, s->size)))
		return err;
	if ((err = history(s, r)))
		return err;
	z = ex_zone(r);
	ex->setup_events = ex_events(r);
	name_new_slabs(s, z, 0);
	ex_buf_free(&s->state);
	print_state(s, z, &s->state);
	if (!draw_ops(s, z))
		return 2;
	for (unsigned k = 0; k < s->nops; k++) {
		s->ev[k] = ex_events(r);
		if ((err = run_op(s, r, k)))
			break;
		s->ev[k + 1] = ex_events(r);
		name_new_slabs(s, z, s->ev[k]);
		if (s->op[k].free) {
			freed_where(s, z, k, &d[k].on_cpu, &d[k].slab_list);
		} else {
			object_name(s, allocated(z, s->ev[k], s->ev[k + 1]), d[k].obj, sizeof(d[k].obj));
			d[k].new_slab = count_ev(z, s->ev[k], s->ev[k + 1], BLAB_EV_SLAB_NEW, 0) > 0;
			d[k].refill = count_ev(z, s->ev[k], s->ev[k + 1], BLAB_EV_SLAB_CPU_SLAB, 2) > 0;
		}
	}
	if (!err && ex->level == 3 && !d[s->nops - 1].refill)
		err = 2;
	if (!err)
		questions(s, z, d);
	for (unsigned k = 0; k < MAX_OPS; k++)
		ex_buf_free(&d[k].slab_list);
	return err;
}

int ex_slab(struct blab_exercise *ex)
{
	struct sl *s = calloc(1, sizeof(*s));
	struct blab_strategy st;
	int err;

	if (!s)
		return BLAB_ENOMEMHOST;
	s->ex = ex;
	if ((err = ex_preset(ex, BLAB_DEFAULT_PRESET, &st)))
		goto out;
	ex->views = "slab";
	s->size = ex_below(ex, 2) ? 1024 : 512;
	s->objects = 4096 / s->size;
	err = 2;
	for (unsigned t = 0; t < TRIES && err == 2; t++) {
		struct ex_run r;
		reset(ex);
		if ((err = ex_run_open(&r, &ex->ops)))
			goto out;
		err = try_once(s, &r);
		if (!err)
			ex_seal(ex, &r);
		ex_run_close(&r);
	}
	if ((err = ex_found(ex, "slab", err)))
		goto out;
	statement(s);
out:
	ex_buf_free(&s->state);
	free(s);
	return err;
}
