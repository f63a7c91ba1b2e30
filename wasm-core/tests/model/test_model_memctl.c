/* A socket's memory controller (memctl.h): the data sheet's bandwidth an epoch, reads first
 * with Cobham's wait, writes spilling into later epochs, the calendar taking requests out of
 * order, and no limit at all with mem_channels 0. */
#include "harness.h"
#include "machine/model/memctl.h"

/* the defaults: 6 x DDR4-2666 x 8 bytes at 78 % = 99,815 MB/s; at 2,500 MHz an epoch of 1,024
 * cycles carries 40,884 bytes; one line's burst on one channel is 7.5 cycles (120 sixteenths) */
static void test_from_the_data_sheet(void)
{
	struct model_params p;
	struct mem_ctl mc;
	model_params_default(&p);
	CHECK_EQ(model_mem_limit_mbs(&p), 99815);
	memctl_init(&mc, &p);
	CHECK_EQ(mc.cap, 40884);
	CHECK_EQ(mc.svc16, 120);
	CHECK_EQ(mc.rfo, 1);
}

static void test_no_limit(void)
{
	struct model_params p;
	struct mem_ctl mc;
	model_params_default(&p);
	p.mem_channels = 0;
	CHECK_EQ(model_mem_limit_mbs(&p), 0);
	memctl_init(&mc, &p);
	CHECK_EQ(memctl_read(&mc, 123), 0);
	CHECK_EQ(memctl_writeback(&mc, 456, 1000000), 456);
	CHECK_EQ(mc.c.read_lines, 0);
	CHECK_EQ(mc.c.wb_lines, 0);
}

/* reads wait as in a priority queue: about half a burst behind a full epoch of writes, and
 * never for the writes booked before them */
static void test_reads_first(void)
{
	struct model_params p;
	struct mem_ctl mc;
	model_params_default(&p);
	memctl_init(&mc, &p);
	CHECK_EQ(memctl_read(&mc, 0), 0); /* an idle controller: the burst on an empty channel */
	/* 300 dirty lines pushed out: 300 write-backs and 300 reads for ownership, 38,400 bytes:
	 * they fit epoch 0 */
	CHECK_EQ(memctl_writeback(&mc, 10, 300), 10);
	CHECK_EQ(mc.c.wb_lines, 300);
	CHECK_EQ(mc.c.rfo_lines, 300);
	/* u = 38,464 / 40,884, r = 64 / 40,884: 38,464 x 120 / (32 x 40,820) = 3 cycles */
	CHECK_EQ(memctl_read(&mc, 20), 3);
	/* 1,000 more lines fill three more epochs; a read at cycle 30 still waits a few cycles,
	 * not for them */
	CHECK(memctl_writeback(&mc, 20, 1000) > 3 * 1024);
	CHECK(memctl_read(&mc, 30) <= 4);
	CHECK_EQ(mc.c.read_lines, 3);
	CHECK_EQ(mc.c.spilled, 1);
}

/* writes take the room left and go on: 50 clears' 8,192 bytes each, all at cycle 0, are
 * carried at the controller's rate, the last one 409,600 bytes / 40,884 an epoch later */
static void test_writes_wait_for_room(void)
{
	struct model_params p;
	struct mem_ctl mc;
	uint64_t done = 0;
	model_params_default(&p);
	memctl_init(&mc, &p);
	for (int k = 0; k < 50; k++) {
		uint64_t d = memctl_writeback(&mc, 0, 64);
		CHECK(d >= done); /* in booking order */
		done = d;
	}
	/* ten full epochs, then 760 bytes of the eleventh: 10,240 + 760 x 1,024 / 40,884 */
	CHECK_EQ(done, 10259);
	/* without reads for ownership a cleared line is its write-back alone: half the bytes */
	p.clear_page_rfo = 0;
	memctl_init(&mc, &p);
	for (int k = 0; k < 50; k++)
		done = memctl_writeback(&mc, 0, 64);
	CHECK_EQ(done, 5 * 1024 + (204800 - 5 * 40884) * 1024 / 40884);
	CHECK_EQ(mc.c.rfo_lines, 0);
}

/* requests in any order within the calendar's span each book their own epoch; one older than
 * the span is booked in its oldest epoch */
static void test_out_of_order(void)
{
	struct model_params p;
	struct mem_ctl mc;
	model_params_default(&p);
	memctl_init(&mc, &p);
	CHECK_EQ(memctl_writeback(&mc, 5000, 300), 5000); /* epoch 4 */
	CHECK_EQ(memctl_writeback(&mc, 100, 300), 100);   /* epoch 0, earlier: room of its own */
	CHECK_EQ(mc.c.spilled, 0);
	/* far ahead: the calendar moves on, and epochs 0 and 4 leave it */
	uint64_t late = (uint64_t)MEMCTL_EPOCHS * MEMCTL_EPOCH * 2;
	CHECK_EQ(memctl_writeback(&mc, late, 300), late);
	CHECK_EQ(mc.head, late >> MEMCTL_EPOCH_SHIFT);
	/* cycle 0 is past the span: booked in the oldest epoch, which is empty */
	CHECK_EQ(memctl_writeback(&mc, 0, 300), 0);
	CHECK_EQ(mc.used[(mc.head - MEMCTL_EPOCHS + 1) % MEMCTL_EPOCHS], 38400);
}

int main(void)
{
	test_from_the_data_sheet();
	test_no_limit();
	test_reads_first();
	test_writes_wait_for_room();
	test_out_of_order();
	return harness_report("test_model_memctl");
}
