/*
 * workload_hackbench.c - hackbench's message passing on the model machine (docs/slab.md).
 *
 * hackbench runs groups of sender and receiver processes over socketpairs: every message is
 * an object allocated on the sender's CPU (the skb) and freed on the receiver's CPU once
 * read. Here each group is one sender and one receiver; group g's sender runs on CPU g.
 *
 *   remote (the default): group g's receiver runs on CPU (g + 1) % groups, so every CPU runs
 *     one sender and one receiver of a neighbouring group, as the real benchmark's far more
 *     numerous processes share every CPU. Objects are allocated on one CPU and freed on
 *     another: remote frees build the cpu slab's freelist in the receiver's cache.
 *   same-CPU (the control): group g's receiver runs on CPU g too; every free is a fast-path
 *     free onto the CPU's own freelist.
 *
 * A CPU alternates between its two roles, one message at a time (a step each): send = send
 * work, kmem_cache_alloc(), write the message into the object, queue it on the socket;
 * receive = receive work, take it off the socket, read it, kmem_cache_free(). A socket holds
 * BLAB_HACKBENCH_QUEUE messages. When a CPU can do neither (its socket is full, its
 * incoming one empty) it sleeps until the other side can have moved: its clock jumps past the
 * other CPU's, or to when the message it waits for was sent. The score is messages per
 * second of virtual time; the run ends when every message is read. Then each CPU shrinks
 * the cache (flushes its cpu slab, gives empty slabs back), outside the timed part.
 */
#include <stdio.h>
#include <stdlib.h>

#include "machine/machine.h"
#include "sim.h"
#include "workload_common.h"

/* [est] the work of a unix-socket write() / read() of 100 bytes apart from the allocation,
 * the copies and the socket lines the model touches itself: syscall entry and exit, skb set-up,
 * wake-up. docs/slab.md says what they set. */
#define HB_SEND_CYCLES 600u
#define HB_RECV_CYCLES 600u
#define HB_MESSAGE_BYTES 100u /* hackbench's default datasize */
/* the sockets' lines (sk_receive_queue head, lock): in the vmalloc area, one line a group */
#define HB_SOCKET_BASE 0xffffc90100000000ull

struct hb_socket {
	uint64_t addr[BLAB_HACKBENCH_QUEUE];
	uint64_t sent_at[BLAB_HACKBENCH_QUEUE];
	uint64_t read_at[BLAB_HACKBENCH_QUEUE]; /* when the slot's last message was taken */
	uint32_t head, tail;                     /* messages taken / queued, ever */
	uint32_t sent, received;
};

enum { HB_IDLE = 0, HB_SENDING, HB_RECEIVING, HB_SHRINK, HB_DONE };

struct hb_task {
	uint8_t state;
	uint8_t last_sent; /* alternate: after a send, try to receive first */
	uint32_t send_group, recv_group;
	uint64_t end;      /* clock when this CPU's last message was sent and read */
	struct blab_slab_op op;
};

struct hb_state {
	uint32_t cache;
	uint32_t groups, loops;
	struct hb_socket *sock;
	struct hb_task *tasks;
};

static uint32_t sender_cpu(const struct hb_state *st, uint32_t g)
{
	(void)st;
	return g;
}

static uint32_t receiver_cpu(const struct sim_run *run, uint32_t g)
{
	const struct hb_state *st = run->priv;
	return run->c->hackbench.same_cpu ? g : (g + 1u) % st->groups;
}

static uint64_t socket_vaddr(uint32_t g)
{
	return HB_SOCKET_BASE + (uint64_t)g * 64u;
}

/* the object lines a 100-byte message covers */
static void touch_message(struct blab_zone *z, unsigned cpu, uint64_t addr, uint32_t size,
			  int write)
{
	uint32_t bytes = size < HB_MESSAGE_BYTES ? size : HB_MESSAGE_BYTES;
	for (uint64_t line = addr & ~63ull; line < addr + bytes; line += 64u)
		mach_touch(&z->machine, cpu, line, write, BLAB_PATH_NONE);
}

static uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* Runs the slab op in flight: 1 when it finished, 0 when the step must end before a lock,
 * or a negative error. */
static int step_slab(struct blab_zone *z, struct hb_task *t)
{
	int ret = blab_slab_op_step(z, &t->op);
	if (ret == BLAB_STEP_LOCK)
		return 0;
	if (ret != BLAB_STEP_DONE)
		return ret < 0 ? ret : BLAB_EINVAL;
	return 1;
}

static int hb_step(struct sim_run *run, unsigned cpu)
{
	struct hb_state *st = run->priv;
	struct hb_task *t = &st->tasks[cpu];
	struct blab_zone *z = run->z;
	struct model_machine *mm = run->mm;
	struct hb_socket *out = &st->sock[t->send_group], *in = &st->sock[t->recv_group];
	uint32_t size = run->c->hackbench.object_size;
	int ret;

	switch (t->state) {
	case HB_IDLE: {
		uint64_t now = mm->now[cpu], wake = UINT64_MAX;
		uint32_t oslot = out->tail % BLAB_HACKBENCH_QUEUE, islot = in->head % BLAB_HACKBENCH_QUEUE;
		int send_left = out->sent < st->loops, recv_left = in->received < st->loops;
		int can_send = send_left && out->tail - out->head < BLAB_HACKBENCH_QUEUE &&
			       (out->tail < BLAB_HACKBENCH_QUEUE || out->read_at[oslot] <= now);
		int can_recv = in->head != in->tail && in->sent_at[islot] <= now;

		if (!send_left && !recv_left) {
			t->end = now;
			blab_slab_op_shrink(&t->op, st->cache, cpu);
			t->state = HB_SHRINK;
			return SIM_STEP;
		}
		if (can_send && (!can_recv || !t->last_sent)) {
			model_work(mm, cpu, HB_SEND_CYCLES);
			blab_slab_op_alloc(&t->op, st->cache, cpu);
			t->state = HB_SENDING;
			t->last_sent = 1;
			return SIM_STEP;
		}
		if (can_recv) {
			uint64_t addr = in->addr[islot];
			model_work(mm, cpu, HB_RECV_CYCLES);
			mach_touch(&z->machine, cpu, socket_vaddr(t->recv_group), 1, BLAB_PATH_NONE);
			touch_message(z, cpu, addr, size, 0);
			in->read_at[islot] = mm->now[cpu];
			in->head++;
			blab_slab_op_free(&t->op, st->cache, cpu, addr);
			t->state = HB_RECEIVING;
			t->last_sent = 0;
			return SIM_STEP;
		}
		/* asleep until the other side can have moved */
		if (send_left) {
			if (out->tail - out->head == BLAB_HACKBENCH_QUEUE)
				wake = mm->now[receiver_cpu(run, t->send_group)] + 1u;
			else
				wake = out->read_at[oslot];
		}
		if (recv_left) {
			uint64_t w = in->head != in->tail
					     ? in->sent_at[islot]
					     : mm->now[sender_cpu(st, t->recv_group)] + 1u;
			if (w < wake)
				wake = w;
		}
		mm->now[cpu] = max64(now + 1u, wake);
		return SIM_STEP;
	}
	case HB_SENDING: {
		uint32_t slot = out->tail % BLAB_HACKBENCH_QUEUE;
		if ((ret = step_slab(z, t)) <= 0)
			return ret < 0 ? ret : SIM_STEP;
		touch_message(z, cpu, t->op.addr, size, 1);
		mach_touch(&z->machine, cpu, socket_vaddr(t->send_group), 1, BLAB_PATH_NONE);
		out->addr[slot] = t->op.addr;
		out->sent_at[slot] = mm->now[cpu];
		out->tail++;
		out->sent++;
		t->state = HB_IDLE;
		return SIM_STEP;
	}
	case HB_RECEIVING:
		if ((ret = step_slab(z, t)) <= 0)
			return ret < 0 ? ret : SIM_STEP;
		in->received++;
		t->state = HB_IDLE;
		return SIM_STEP;
	case HB_SHRINK:
		if ((ret = step_slab(z, t)) <= 0)
			return ret < 0 ? ret : SIM_STEP;
		t->state = HB_DONE;
		return SIM_FINISHED;
	default:
		return SIM_FINISHED;
	}
}

static int hb_check(const struct blab_sim_config *c, char *err, size_t errlen)
{
	const struct blab_sim_hackbench *h = &c->hackbench;
#define HB_FAIL(code, ...)                                                                 \
	do {                                                                               \
		if (err && errlen)                                                         \
			snprintf(err, errlen, __VA_ARGS__);                                \
		return (code);                                                             \
	} while (0)
	if (h->groups < 1 || h->groups > BLAB_HACKBENCH_MAX_GROUPS)
		HB_FAIL(BLAB_ELIMIT, "groups must be 1..%u", BLAB_HACKBENCH_MAX_GROUPS);
	if (!h->same_cpu && h->groups < 2)
		HB_FAIL(BLAB_EINVAL, "remote frees need at least 2 groups (or same-cpu)");
	if (c->cpus != h->groups)
		HB_FAIL(BLAB_ECPU, "hackbench runs one CPU per group: cpus %u, groups %u", c->cpus,
			h->groups);
	if (h->loops < 1 || h->loops > BLAB_HACKBENCH_MAX_LOOPS)
		HB_FAIL(BLAB_ELIMIT, "loops must be 1..%u", BLAB_HACKBENCH_MAX_LOOPS);
	if ((uint64_t)h->groups * h->loops > BLAB_HACKBENCH_MAX_WORK)
		HB_FAIL(BLAB_ELIMIT, "groups x loops = %llu is over %llu",
			(unsigned long long)h->groups * h->loops,
			(unsigned long long)BLAB_HACKBENCH_MAX_WORK);
	if (h->object_size < BLAB_SLAB_MIN_SIZE || h->object_size > 4096u)
		HB_FAIL(BLAB_ELIMIT, "object size must be %u..4096 bytes", BLAB_SLAB_MIN_SIZE);
	if (h->slub_prefetch > 1 || h->same_cpu > 1)
		HB_FAIL(BLAB_EINVAL, "slub_prefetch and same_cpu are 0 or 1");
	return 0;
#undef HB_FAIL
}

/* every message in flight in its own slab at worst, plus each CPU's slab and the empty
 * slabs min_partial keeps, each up to order 3 */
static uint64_t hb_zone_pages(const struct blab_sim_config *c)
{
	return ((uint64_t)c->hackbench.groups * (BLAB_HACKBENCH_QUEUE + 4u) + 16u) << 3;
}

static int hb_setup(struct sim_run *run, char *err, size_t errlen)
{
	const struct blab_sim_config *c = run->c;
	struct hb_state *st = calloc(1, sizeof(*st));
	char name[32];
	int ret;

	if (st) {
		st->sock = calloc(c->hackbench.groups, sizeof(*st->sock));
		st->tasks = calloc(c->cpus, sizeof(*st->tasks));
	}
	run->priv = st;
	if (!st || !st->sock || !st->tasks) {
		if (err && errlen)
			snprintf(err, errlen, "out of host memory");
		return BLAB_ENOMEMHOST;
	}
	st->groups = c->hackbench.groups;
	st->loops = c->hackbench.loops;
	snprintf(name, sizeof(name), "hackbench-%u", c->hackbench.object_size);
	ret = blab_kmem_cache_create(run->z, name, c->hackbench.object_size, BLAB_SLAB_ORDER_AUTO,
				     c->hackbench.slub_prefetch ? BLAB_SLAB_PREFETCH : 0, &st->cache);
	if (ret) {
		if (err && errlen)
			snprintf(err, errlen, "cannot create the cache: %s", blab_strerror(ret));
		return ret;
	}
	for (uint32_t g = 0; g < st->groups; g++) {
		st->tasks[sender_cpu(st, g)].send_group = g;
		st->tasks[receiver_cpu(run, g)].recv_group = g;
	}
	return 0;
}

static void hb_finish(const struct sim_run *run, struct blab_sim_result *r)
{
	const struct hb_state *st = run->priv;
	struct blab_kmem_cache_info info;
	const struct cache_counters fast_c = cache_path_counters(&run->mm->cache,
								 BLAB_PATH_SLAB_ALLOC_FAST);
	const struct cache_counters *fast = &fast_c;
	uint64_t end = 0;

	for (uint32_t cpu = 0; cpu < run->c->cpus; cpu++)
		end = max64(end, st->tasks[cpu].end);
	r->messages = (uint64_t)st->groups * st->loops;
	sim_score_add(r, r->messages, end, run->mp->cpu_mhz);
	r->pages_total = r->pages_scored = 0;
	if (blab_kmem_cache_info(run->z, st->cache, &info) == 0)
		r->slab = info.stats;
	/* prefetch outcomes are counted by the access's path, wasted ones by the prefetch's */
	r->slab_pf_hit = fast->access[CACHE_PF_HIT];
	r->slab_pf_late = fast->access[CACHE_PF_LATE];
	r->slab_pf_wasted = fast->pf_wasted;
	r->elapsed_cycles = end; /* cycles_max, set by the loop, includes the final shrink */
}

static void hb_teardown(struct sim_run *run)
{
	struct hb_state *st = run->priv;
	if (st) {
		free(st->sock);
		free(st->tasks);
		free(st);
	}
	run->priv = NULL;
}

const struct sim_workload sim_workload_hackbench = {
	.name = "hackbench",
	.id = BLAB_WL_HACKBENCH,
	.score_unit = "messages/s",
	.one_zone_why = "its slab caches and their pages live in one zone (the slab layer has no per-node lists)",
	.check = hb_check,
	.zone_pages = hb_zone_pages,
	.setup = hb_setup,
	.step = hb_step,
	.finish = hb_finish,
	.teardown = hb_teardown,
};
