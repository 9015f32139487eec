// SPDX-License-Identifier: MIT
/*
 * tests/model/block/test_blk_wbt.c - writeback throttling's rules
 * (model/block/blk-wbt.c; Kernel: block/blk-wbt.c, block/blk-rq-qos.c,
 * v6.18).
 *
 * Pure functions: no engine (but the window's samples, which m_wbt_done
 * takes inside an execution).  The figures are the kernel's arithmetic
 * worked by hand: a queue of 128 tags starts at RWB_DEF_DEPTH 16 (normal
 * limit (16 + 1) / 2 = 8, background (16 + 3) / 4 = 4); each step down
 * halves depth - 1 (16 -> 8 -> 4 -> 2 -> 1, and no further); each step
 * up from 0 doubles it, up to 3/4 of the queue (31, 61, then 96 capped:
 * "scaled_max", no further step up).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "model/block/blk-wbt.h"
#include "model/linux/writeback.h"
#include "model/world.h"
#include "sim/clock.h"
#include "sim/engine.h"
#include "sim/strategy.h"

static void rwb_setup(struct km_rq_wb *rwb, unsigned int queue_depth)
{
	memset(rwb, 0, sizeof(*rwb));
	rwb->enabled = true;
	rwb->min_lat_nsec = 2000000;
	rwb->win_nsec = rwb->cur_win_nsec = KM_RWB_WINDOW_NSEC;
	rwb->rq_depth.default_depth = KM_RWB_DEF_DEPTH;
	rwb->rq_depth.queue_depth = queue_depth;
	km_rq_depth_calc_max_depth(&rwb->rq_depth);
	km_calc_wb_limits(rwb);
}

Test(blk_wbt, default_depth_and_limits)
{
	struct km_rq_wb rwb;

	rwb_setup(&rwb, 128);
	cr_assert_eq(rwb.rq_depth.max_depth, 16);
	cr_assert_eq(rwb.wb_normal, 8);
	cr_assert_eq(rwb.wb_background, 4);
	rwb_setup(&rwb, 4);
	cr_assert_eq(rwb.rq_depth.max_depth, 4);
	cr_assert_eq(rwb.wb_normal, 2);
	cr_assert_eq(rwb.wb_background, 1);
	rwb_setup(&rwb, 1);	/* QD=1 devices: depth 2 */
	cr_assert_eq(rwb.rq_depth.max_depth, 2);
	cr_assert_eq(rwb.wb_normal, 2);
	cr_assert_eq(rwb.wb_background, 1);
	rwb.min_lat_nsec = 0;	/* off: no limits */
	km_calc_wb_limits(&rwb);
	cr_assert_eq(rwb.wb_normal, 0);
	cr_assert_eq(rwb.wb_background, 0);
}

Test(blk_wbt, scale_down_halves_to_one)
{
	struct km_rq_wb rwb;
	const unsigned int want[] = { 8, 4, 2, 1 };

	rwb_setup(&rwb, 128);
	for (unsigned int i = 0; i < 4; i++) {
		cr_assert(km_rq_depth_scale_down(&rwb.rq_depth, true));
		cr_assert_eq(rwb.rq_depth.max_depth, want[i], "step %u: %u",
			     i + 1, rwb.rq_depth.max_depth);
	}
	cr_assert_not(km_rq_depth_scale_down(&rwb.rq_depth, true));
	cr_assert_eq(rwb.rq_depth.scale_step, 4);
	km_calc_wb_limits(&rwb);
	cr_assert_eq(rwb.wb_normal, 1);
	cr_assert_eq(rwb.wb_background, 1);
}

Test(blk_wbt, scale_up_doubles_to_three_quarters)
{
	struct km_rq_wb rwb;

	rwb_setup(&rwb, 128);
	cr_assert(km_rq_depth_scale_up(&rwb.rq_depth));
	cr_assert_eq(rwb.rq_depth.max_depth, 31);
	cr_assert(km_rq_depth_scale_up(&rwb.rq_depth));
	cr_assert_eq(rwb.rq_depth.max_depth, 61);
	cr_assert(km_rq_depth_scale_up(&rwb.rq_depth));
	cr_assert_eq(rwb.rq_depth.max_depth, 96);
	cr_assert(rwb.rq_depth.scaled_max);
	cr_assert_not(km_rq_depth_scale_up(&rwb.rq_depth));
	/* A latency violation from a negative step snaps back to 0. */
	cr_assert(km_rq_depth_scale_down(&rwb.rq_depth, true));
	cr_assert_eq(rwb.rq_depth.scale_step, 0);
	cr_assert_eq(rwb.rq_depth.max_depth, 16);
}

Test(blk_wbt, limit_by_priority_reads_and_dirty_throttling)
{
	struct km_rq_wb rwb;
	uint64_t now = 10 * KM_RWB_WINDOW_NSEC;

	rwb_setup(&rwb, 128);
	cr_assert_eq(km_wbt_get_limit(&rwb, 0, now, false), 8);
	cr_assert_eq(km_wbt_get_limit(&rwb, REQ_SYNC, now, false), 16);
	cr_assert_eq(km_wbt_get_limit(&rwb, 0, now, true), 16);
	rwb.last_comp_ns = now - 50000000;	/* a read 50 ms ago */
	cr_assert_eq(km_wbt_get_limit(&rwb, 0, now, false), 4);
	rwb.last_comp_ns = now - 100000000;	/* 100 ms: not close */
	cr_assert_eq(km_wbt_get_limit(&rwb, 0, now, false), 8);
	/* Background (kupdate, over bg_thresh): the background limit
	 * without a read close; fsync's REQ_SYNC and a recent dirty
	 * throttle still win. */
	cr_assert_eq(km_wbt_get_limit(&rwb, REQ_BACKGROUND, now, false), 4);
	cr_assert_eq(km_wbt_get_limit(&rwb, REQ_BACKGROUND, now, true), 16);
}

/*
 * close_io (block/blk-wbt.c, v6.18) on a queue m_wbt_init set up: the
 * kernel's wbt_init stamps last_issue and last_comp with the setup's
 * jiffies, so a queue's first 100 ms hold writeback to wb_background;
 * the model's queue is one set up long before the run, so a plain
 * write at time 0 gets wb_normal (8), and only a read of the run opens
 * the 100 ms window (4), from its issue or its completion.
 */
Test(blk_wbt, a_queue_set_up_before_the_run_has_no_read_close)
{
	struct km_rq_wb rwb;

	m_wbt_init(&rwb, 128, 2000, true);
	cr_assert_eq(rwb.last_issue_ns, KM_WBT_NEVER);
	cr_assert_eq(rwb.last_comp_ns, KM_WBT_NEVER);
	cr_assert_eq(km_wbt_get_limit(&rwb, 0, 0, false), 8);
	cr_assert_eq(km_wbt_get_limit(&rwb, 0, 50000000, false), 8);
	cr_assert_eq(km_wbt_get_limit(&rwb, REQ_BACKGROUND, 0, false), 4);
	rwb.last_issue_ns = 20000000;		/* a read issued at 20 ms */
	cr_assert_eq(km_wbt_get_limit(&rwb, 0, 20000000, false), 4);
	cr_assert_eq(km_wbt_get_limit(&rwb, 0, 119999999, false), 4);
	cr_assert_eq(km_wbt_get_limit(&rwb, 0, 120000000, false), 8);
	rwb.last_comp_ns = 150000000;		/* its completion at 150 ms */
	cr_assert_eq(km_wbt_get_limit(&rwb, 0, 249999999, false), 4);
	cr_assert_eq(km_wbt_get_limit(&rwb, 0, 250000000, false), 8);
}

/*
 * wbc_to_write_flags (include/linux/writeback.h, v6.18): REQ_SYNC for
 * WB_SYNC_ALL whatever else is set, REQ_BACKGROUND for a WB_SYNC_NONE
 * kupdate or background pass, nothing for other WB_SYNC_NONE writeback
 * (a DONTCACHE kick, sync_file_range, the writer's own flush).
 */
Test(blk_wbt, writeback_bio_flags_from_the_wbc)
{
	struct km_writeback_control wbc;

	memset(&wbc, 0, sizeof(wbc));
	cr_assert_eq(km_wbc_to_write_flags(&wbc), 0);
	wbc.for_kupdate = true;
	cr_assert_eq(km_wbc_to_write_flags(&wbc), REQ_BACKGROUND);
	wbc.for_kupdate = false;
	wbc.for_background = true;
	cr_assert_eq(km_wbc_to_write_flags(&wbc), REQ_BACKGROUND);
	wbc.sync_mode = WB_SYNC_ALL;
	cr_assert_eq(km_wbc_to_write_flags(&wbc), REQ_SYNC);
	wbc.for_background = false;
	cr_assert_eq(km_wbc_to_write_flags(&wbc), REQ_SYNC);
}

Test(blk_wbt, which_bios_are_throttled)
{
	struct km_rq_wb rwb;
	struct km_bio bio;

	rwb_setup(&rwb, 128);
	memset(&bio, 0, sizeof(bio));
	bio.op = REQ_OP_WRITE;
	bio.zero_len = 4096;			/* 4 KiB of data */
	cr_assert_eq(km_bio_to_wbt_flags(&rwb, &bio), KM_WBT_TRACKED);
	bio.opf = REQ_SYNC;			/* WB_SYNC_ALL writeback */
	cr_assert_eq(km_bio_to_wbt_flags(&rwb, &bio), KM_WBT_TRACKED);
	bio.opf = REQ_BACKGROUND;		/* kupdate, background */
	cr_assert_eq(km_bio_to_wbt_flags(&rwb, &bio), KM_WBT_TRACKED);
	bio.opf = REQ_SYNC | REQ_IDLE;		/* O_DIRECT */
	cr_assert_eq(km_bio_to_wbt_flags(&rwb, &bio), 0);
	bio.op = REQ_OP_READ;
	bio.opf = 0;
	cr_assert_eq(km_bio_to_wbt_flags(&rwb, &bio), KM_WBT_READ);
	rwb.enabled = false;
	cr_assert_eq(km_bio_to_wbt_flags(&rwb, &bio), 0);
}

Test(blk_wbt, window_verdicts)
{
	struct km_rq_wb rwb;
	uint64_t now = 10 * KM_RWB_WINDOW_NSEC;

	rwb_setup(&rwb, 128);
	cr_assert_eq(km_latency_exceeded(&rwb, now, false), KM_LAT_UNKNOWN);
	cr_assert_eq(km_latency_exceeded(&rwb, now, true),
		     KM_LAT_UNKNOWN_WRITES);
	rwb.stat[1].nr_samples = 3;		/* writes, no read */
	cr_assert_eq(km_latency_exceeded(&rwb, now, false),
		     KM_LAT_UNKNOWN_WRITES);
	rwb.stat[0].nr_samples = 1;		/* a read of 1 ms: fine */
	rwb.stat[0].min_ns = 1000000;
	cr_assert_eq(km_latency_exceeded(&rwb, now, false), KM_LAT_OK);
	rwb.stat[0].min_ns = 3000000;		/* 3 ms > 2 ms */
	cr_assert_eq(km_latency_exceeded(&rwb, now, false), KM_LAT_EXCEEDED);
	/* Exactly the target is not above it ("stat[READ].min >
	 * rwb->min_lat_nsec"; seed 64153's #105 took >=). */
	rwb.stat[0].min_ns = rwb.min_lat_nsec;
	cr_assert_eq(km_latency_exceeded(&rwb, now, false), KM_LAT_OK);
	rwb.stat[0].min_ns = rwb.min_lat_nsec + 1;
	cr_assert_eq(km_latency_exceeded(&rwb, now, false), KM_LAT_EXCEEDED);
	/* A read outstanding longer than the window, no read finished. */
	memset(rwb.stat, 0, sizeof(rwb.stat));
	rwb.sync_cookie = 1;
	rwb.sync_issue_ns = now - 2 * KM_RWB_WINDOW_NSEC;
	cr_assert_eq(km_latency_exceeded(&rwb, now, false), KM_LAT_EXCEEDED);
}

/*
 * The window's samples (blk_stat_add into the callback's READ and WRITE
 * buckets, from wbt_done's request): one sample per completion that
 * carries data while the window is open, the bucket's minimum kept.
 * Two writes are fewer than RWB_MIN_WRITE_SAMPLES (3): with a slow read
 * the verdict is "unknown, writes", not "exceeded"; the third write makes
 * the read count, and a faster read lowers the minimum to a good window.
 * No sample without data, nor while no window is open.  m_wbt_done's
 * words are the engine's: it runs in a task of one execution.
 * Kernel: block/blk-stat.c blk_stat_add, blk_rq_stat_add; block/blk-wbt.c
 * wbt_done, latency_exceeded, v6.18.
 */
static struct km_rq_wb wrwb;
static uint32_t samples[8][2];
static uint64_t min_ns[8][2];
static int verdict[8];

static void complete(enum km_req_op op, uint64_t lat_ns, bool has_data)
{
	struct km_bio bio;

	memset(&bio, 0, sizeof(bio));
	bio.op = op;
	m_wbt_done(&wrwb, op == REQ_OP_READ ? KM_WBT_READ : 0, &bio,
		   sim_now() - lat_ns, has_data);
}

static void note(int k)
{
	for (int b = 0; b < 2; b++) {
		samples[k][b] = wrwb.stat[b].nr_samples;
		min_ns[k][b] = wrwb.stat[b].min_ns;
	}
	verdict[k] = km_latency_exceeded(&wrwb, 10 * KM_RWB_WINDOW_NSEC,
					 false);
}

static void samples_task(void *arg)
{
	(void)arg;
	complete(REQ_OP_WRITE, 1000000, true);	/* no window open */
	note(0);
	wrwb.stat_active = true;
	complete(REQ_OP_WRITE, 1000000, true);
	complete(REQ_OP_WRITE, 500000, true);
	complete(REQ_OP_WRITE, 100, false);	/* no data */
	complete(REQ_OP_READ, 3000000, true);
	note(1);
	complete(REQ_OP_WRITE, 2000000, true);
	note(2);
	complete(REQ_OP_READ, 1000000, true);
	note(3);
}

static void samples_setup(void *unused)
{
	(void)unused;
	m_wbt_init(&wrwb, 128, 2000, false);
	cr_assert(wrwb.enabled && wrwb.min_lat_nsec == 2000000);
	sim_task_spawn("P0", samples_task, NULL);
}

/* Runs @setup's program once on one CPU under the timed strategy, to
 * its end (@steps_max 0: the engine's default bound). */
static void wbt_run_timed(const char *name, void (*setup)(void *),
			  uint64_t steps_max)
{
	const struct sim_program prog = { .name = name, .setup = setup };
	struct sim_exec_options exec = { .steps_max = steps_max };
	struct sim_strategy st;
	struct sim_outcome o;

	sim_clock_configure(&(struct sim_clock_config){
		.cpus = 1, .costs = sim_cpu_costs_default });
	sim_strategy_timed(&st, 1, 1);
	sim_exec_run(&prog, &st, &exec, &o);
	sim_strategy_fini(&st);
	cr_assert_eq(o.kind, SIM_OK, "%s", o.message);
}

Test(blk_wbt, window_samples_count_each_completion)
{
	wbt_run_timed("wbt-samples", samples_setup, 0);
	cr_expect_eq(samples[0][1], 0, "a sample with no window open");
	cr_expect_eq(samples[1][1], 2, "write samples");
	cr_expect_eq(min_ns[1][1], 500000);
	cr_expect_eq(samples[1][0], 1, "read samples");
	cr_expect_eq(min_ns[1][0], 3000000);
	cr_expect_eq(verdict[1], KM_LAT_UNKNOWN_WRITES);
	cr_expect_eq(samples[2][1], 3);
	cr_expect_eq(min_ns[2][1], 500000);
	cr_expect_eq(verdict[2], KM_LAT_EXCEEDED);
	cr_expect_eq(samples[3][0], 2);
	cr_expect_eq(min_ns[3][0], 1000000);
	cr_expect_eq(verdict[3], KM_LAT_OK);
}

/*
 * The throttle and its wake-up in one timed execution on one CPU
 * (block/blk-wbt.c wbt_wait, wbt_rqw_done; block/blk-rq-qos.c
 * rq_qos_wait, v6.18).  Queue 128, 2 ms target: wb_normal 8,
 * wb_background 4.  P0 submits five plain writes: each is tracked, and
 * a read issued at time 0 (its "close I/O" window: 100 ms) holds them
 * to wb_background (get_limit): four pass, the fifth sleeps.  P1 then completes the writes one at a time, 1 ms apart,
 * and notes how many of P0's writes had passed after each:
 *   - no write cache: wbt_rqw_done's limit is wb_normal (8); 3 in
 *     flight is below it and 8 - 3 >= 4 / 2, so the first completion
 *     wakes P0, whose fifth write passes (3 < 4): 5 after one;
 *   - a write cache and no recent dirty wait: the limit is 0, so no
 *     completion wakes anyone until none is in flight: 4, 4, 4, then
 *     5 after the fourth.
 * Each completion also puts a write sample into the window the first
 * write opened (rwb_arm_timer: stat_active).
 */
static struct km_rq_wb trwb;
static int passed;
static int passed_after[4];
static uint64_t inflight_end;
static uint32_t samples_end;

static void thr_submitter(void *arg)
{
	struct km_bio bio;

	(void)arg;
	memset(&bio, 0, sizeof(bio));
	bio.op = REQ_OP_WRITE;
	bio.dio_len = 4096;		/* data: tracked */
	for (int i = 0; i < 5; i++) {
		m_wbt_throttle(&trwb, &bio);
		passed++;
	}
}

static void thr_completer(void *arg)
{
	struct km_bio bio;

	(void)arg;
	memset(&bio, 0, sizeof(bio));
	bio.op = REQ_OP_WRITE;
	for (int i = 0; i < 4; i++) {
		sim_sleep_ns(1000000);
		m_wbt_done(&trwb, KM_WBT_TRACKED, &bio, sim_now() - 1000, true);
		sim_sleep_ns(1000000);
		passed_after[i] = passed;
	}
	inflight_end = sim_word_peek(&trwb.inflight);
	samples_end = trwb.stat[1].nr_samples;	/* 8 ms: the first window */
	/* The fifth: none in flight, so the window's timer stops re-arming
	 * once the depth is back at its default. */
	m_wbt_done(&trwb, KM_WBT_TRACKED, &bio, sim_now() - 1000, true);
}

static bool thr_write_cache;

static void thr_setup(void *unused)
{
	struct m_world_config c;

	(void)unused;
	/* wb_recent_wait reads the world's wb (no dirty wait: never). */
	m_world_config_default(&c);
	m_world_setup(&c);
	m_wbt_init(&trwb, 128, 2000, thr_write_cache);
	cr_assert_eq(trwb.wb_normal, 8);
	cr_assert_eq(trwb.wb_background, 4);
	trwb.last_issue_ns = 0;		/* a read issued at time 0 */
	passed = 0;
	memset(passed_after, 0, sizeof(passed_after));
	sim_task_spawn("P0", thr_submitter, NULL);
	sim_task_spawn("P1", thr_completer, NULL);
}

static void thr_run(bool write_cache)
{
	thr_write_cache = write_cache;
	wbt_run_timed("wbt-throttle", thr_setup, 60000);
}

Test(blk_wbt, throttled_write_woken_by_a_completion)
{
	thr_run(false);
	cr_assert_eq(passed_after[0], 5, "after one completion: %d",
		     passed_after[0]);
	cr_assert_eq(passed, 5);
	cr_assert_eq(inflight_end, 1, "in flight: %llu", (unsigned long long)inflight_end);	/* 5 in, 4 completed */
	cr_assert_eq(samples_end, 4);
}

Test(blk_wbt, write_cache_wakes_only_when_none_is_in_flight)
{
	thr_run(true);
	cr_assert_eq(passed_after[0], 4);
	cr_assert_eq(passed_after[1], 4);
	cr_assert_eq(passed_after[2], 4);
	cr_assert_eq(passed_after[3], 5, "after the last: %d",
		     passed_after[3]);
	cr_assert_eq(inflight_end, 1);
}

/*
 * The window's timer (block/blk-wbt.c wb_timer_fn, rwb_arm_timer,
 * v6.18), one task on one CPU, queue 128, 2 ms target:
 *   t=0: a tracked write passes (in flight 1) and opens a 100 ms
 *        window; a read completes in 3 ms and three writes with data
 *        complete (samples, untracked): read 1, writes 3;
 *   t=100 ms: latency_exceeded: the read's 3 ms is over 2 ms:
 *        scale_down(hard): step 1, depth 1 + (16 - 1) / 2 = 8, limits
 *        (8 + 1) / 2 = 4 and (8 + 3) / 4 = 2; re-armed (step 1) with
 *        the window shrunk to (100 ms << 4) / int_sqrt(2 << 8 = 512:
 *        22) = 72727272 ns;
 *   t=172.7 ms: no sample, one write in flight: "unknown, writes":
 *        scale_up: step 0, depth 16, the window 100 ms again;
 *   then the write completes; t=272.7 ms: no sample, none in flight,
 *        no dirty wait: "unknown": unknown_cnt 1 (of 5), nothing
 *        scaled, and with step 0 and nothing in flight the timer is
 *        not re-armed.
 */
static struct km_rq_wb twrwb;
static int tw_step[3];
static unsigned int tw_depth[3], tw_normal[3], tw_bg[3];
static uint64_t tw_win[3];
static bool tw_active_end;
static unsigned int tw_unknown_end;

static void tw_note(int k)
{
	tw_step[k] = twrwb.rq_depth.scale_step;
	tw_depth[k] = twrwb.rq_depth.max_depth;
	tw_normal[k] = twrwb.wb_normal;
	tw_bg[k] = twrwb.wb_background;
	tw_win[k] = twrwb.cur_win_nsec;
}

/*
 * The start both window tests share: a tracked write passes @rwb
 * (@w, a 4 KiB write bio the caller keeps), then 5 ms later a read
 * completes 3 ms after its issue and three writes 100 us after theirs.
 */
static void slow_read_window(struct km_rq_wb *rwb, struct km_bio *w)
{
	struct km_bio r;

	memset(w, 0, sizeof(*w));
	w->op = REQ_OP_WRITE;
	w->dio_len = 4096;
	memset(&r, 0, sizeof(r));
	r.op = REQ_OP_READ;
	r.dio_len = 4096;
	m_wbt_throttle(rwb, w);
	sim_sleep_ns(5000000);
	m_wbt_done(rwb, KM_WBT_READ, &r, sim_now() - 3000000, true);
	for (int i = 0; i < 3; i++)
		m_wbt_done(rwb, 0, w, sim_now() - 100000, true);
}

static void tw_task(void *arg)
{
	struct km_bio w;

	(void)arg;
	slow_read_window(&twrwb, &w);
	tw_note(0);
	sim_sleep_until(110000000);
	tw_note(1);
	sim_sleep_until(180000000);
	tw_note(2);
	m_wbt_done(&twrwb, KM_WBT_TRACKED, &w, sim_now() - 1000, false);
	sim_sleep_until(300000000);
	tw_active_end = twrwb.stat_active;
	tw_unknown_end = twrwb.unknown_cnt;
}

static void tw_setup(void *unused)
{
	struct m_world_config c;

	(void)unused;
	m_world_config_default(&c);
	m_world_setup(&c);
	m_wbt_init(&twrwb, 128, 2000, false);
	sim_task_spawn("P0", tw_task, NULL);
}

Test(blk_wbt, window_timer_scales_and_shrinks_the_window)
{
	wbt_run_timed("wbt-window", tw_setup, 60000);
	cr_assert_eq(tw_step[0], 0);
	cr_assert_eq(tw_win[0], KM_RWB_WINDOW_NSEC);
	cr_assert_eq(tw_step[1], 1);
	cr_assert_eq(tw_depth[1], 8);
	cr_assert_eq(tw_normal[1], 4);
	cr_assert_eq(tw_bg[1], 2);
	cr_assert_eq(tw_win[1], 72727272, "window: %llu",
		     (unsigned long long)tw_win[1]);
	cr_assert_eq(tw_step[2], 0);
	cr_assert_eq(tw_depth[2], 16);
	cr_assert_eq(tw_win[2], KM_RWB_WINDOW_NSEC);
	cr_assert(!tw_active_end, "the timer re-armed with nothing to do");
	cr_assert_eq(tw_unknown_end, 1);
}

/*
 * A read's bookkeeping (block/blk-wbt.c wbt_wait, wbt_issue, wbt_done,
 * v6.18): a read is never throttled but stamps last_issue (wbt_wait:
 * wb_timestamp); the first outstanding read is remembered as the sync
 * cookie with its issue time (wbt_issue), a second read leaves it; the
 * cookie's own completion clears it and stamps last_comp.  A throttle
 * that is off (min_lat 0: not enabled) does none of it.
 */
static struct km_rq_wb rdrwb;
static unsigned int rd_flags;
static uint64_t rd_issue_stamp, rd_sync_issue, rd_sync_cookie_1,
		rd_sync_cookie_2, rd_cookie_after, rd_comp_stamp;
static bool rd_off;

static void rd_task(void *arg)
{
	struct km_bio r1, r2;

	(void)arg;
	memset(&r1, 0, sizeof(r1));
	r1.op = REQ_OP_READ;
	r1.dio_len = 4096;
	r1.index = 6;
	r2 = r1;
	r2.index = 9;
	sim_sleep_ns(5000000);
	rd_flags = m_wbt_throttle(&rdrwb, &r1);
	rd_issue_stamp = rdrwb.last_issue_ns;
	m_wbt_issue(&rdrwb, rd_flags, &r1);
	rd_sync_issue = rdrwb.sync_issue_ns;
	rd_sync_cookie_1 = rdrwb.sync_cookie;
	sim_sleep_ns(1000000);
	m_wbt_issue(&rdrwb, rd_flags, &r2);
	rd_sync_cookie_2 = rdrwb.sync_cookie;
	sim_sleep_ns(2000000);
	m_wbt_done(&rdrwb, rd_flags, &r1, 5000000, true);
	rd_cookie_after = rdrwb.sync_cookie;
	rd_comp_stamp = rdrwb.last_comp_ns;
}

static void rd_setup(void *unused)
{
	struct m_world_config c;

	(void)unused;
	m_world_config_default(&c);
	m_world_setup(&c);
	m_wbt_init(&rdrwb, 128, rd_off ? 0 : 2000, false);
	sim_task_spawn("P0", rd_task, NULL);
}

static void rd_run(bool off)
{
	rd_off = off;
	wbt_run_timed("wbt-read", rd_setup, 60000);
}

Test(blk_wbt, a_read_stamps_issue_and_is_the_sync_cookie)
{
	rd_run(false);
	cr_assert_eq(rd_flags, KM_WBT_READ);
	cr_assert_geq(rd_issue_stamp, 5000000);
	cr_assert_lt(rd_issue_stamp, 6000000);
	cr_assert_eq(rd_sync_issue, rd_issue_stamp);
	cr_assert_eq(rd_sync_cookie_1, 7);	/* bio index 6, + 1 */
	cr_assert_eq(rd_sync_cookie_2, 7, "the first read stays the cookie");
	cr_assert_eq(rd_cookie_after, 0);
	cr_assert_geq(rd_comp_stamp, 8000000);
	rd_run(true);
	cr_assert_eq(rd_flags, 0);
	cr_assert_eq(rd_issue_stamp, KM_WBT_NEVER);	/* no read stamped */
	cr_assert_eq(rd_sync_cookie_1, 0);
	cr_assert_eq(rd_comp_stamp, KM_WBT_NEVER);
}

/*
 * The unknown windows' bump (block/blk-wbt.c wb_timer_fn, LAT_UNKNOWN,
 * v6.18: `if (++rwb->unknown_cnt < RWB_UNKNOWN_BUMP) break;`, then a
 * step toward the center): one task on one CPU, queue 128, 2 ms
 * target, the window_timer test's start (a read of 3 ms, three write
 * samples, the tracked write completed before the window ends):
 *   t=100 ms: exceeded: scale_down, step 1, the window 72727272 ns,
 *        re-armed (step 1);
 *   t=172.7, 245.5, 318.2, 390.9 ms: no sample, nothing in flight, no
 *        dirty wait: "unknown": unknown_cnt 1 to 4, step still 1;
 *   t=463.6 ms: the fifth: unknown_cnt reaches RWB_UNKNOWN_BUMP (5):
 *        scale_up, step 0, unknown_cnt 0, and with step 0 and nothing
 *        in flight the timer stops.
 *   Then five times (t=600 ms, 800, ... 1400): a tracked write passes
 *        (opening a window) and completes with no sample; its window
 *        ends "unknown": unknown_cnt 1 to 5, and at the fifth, at the
 *        center (step 0), nothing is scaled: v6.18 steps toward the
 *        center only from either side (scale_step > 0 up, < 0 down).
 * Seed 65519's #37 (`< RWB_UNKNOWN_BUMP` as `<=`) stepped back only at
 * the sixth unknown window (536.4 ms); its #59 (`scale_step > 0` as
 * `>= 0`) scaled up from the center at the fifth: step -1.
 */
static struct km_rq_wb ubrwb;
static int ub_step[3];
static unsigned int ub_unknown[3];
static bool ub_active[3];

static void ub_task(void *arg)
{
	struct km_bio w;

	(void)arg;
	slow_read_window(&ubrwb, &w);
	m_wbt_done(&ubrwb, KM_WBT_TRACKED, &w, sim_now() - 1000, false);
	sim_sleep_until(440000000);
	ub_step[0] = ubrwb.rq_depth.scale_step;
	ub_unknown[0] = ubrwb.unknown_cnt;
	ub_active[0] = ubrwb.stat_active;
	sim_sleep_until(520000000);
	ub_step[1] = ubrwb.rq_depth.scale_step;
	ub_unknown[1] = ubrwb.unknown_cnt;
	ub_active[1] = ubrwb.stat_active;
	for (int k = 0; k < 5; k++) {
		sim_sleep_until(600000000 + (uint64_t)k * 200000000);
		m_wbt_throttle(&ubrwb, &w);
		sim_sleep_ns(1000000);
		m_wbt_done(&ubrwb, KM_WBT_TRACKED, &w, sim_now() - 1000,
			   false);
	}
	sim_sleep_until(1600000000);
	ub_step[2] = ubrwb.rq_depth.scale_step;
	ub_unknown[2] = ubrwb.unknown_cnt;
	ub_active[2] = ubrwb.stat_active;
}

static void ub_setup(void *unused)
{
	struct m_world_config c;

	(void)unused;
	m_world_config_default(&c);
	m_world_setup(&c);
	m_wbt_init(&ubrwb, 128, 2000, false);
	sim_task_spawn("P0", ub_task, NULL);
}

Test(blk_wbt, unknown_windows_step_back_at_the_fifth)
{
	wbt_run_timed("wbt-unknown-bump", ub_setup, 60000);
	cr_expect_eq(ub_step[0], 1, "after four unknown windows: step %d",
		     ub_step[0]);
	cr_expect_eq(ub_unknown[0], 4, "unknown windows counted: %u",
		     ub_unknown[0]);
	cr_expect(ub_active[0], "the timer stopped with step 1");
	cr_expect_eq(ub_step[1], 0, "after the fifth: step %d", ub_step[1]);
	cr_expect_eq(ub_unknown[1], 0);
	cr_expect(!ub_active[1], "the timer re-armed with step 0 and "
		  "nothing in flight");
	cr_expect_eq(ub_unknown[2], 5, "five unknown windows at the center: "
		     "%u", ub_unknown[2]);
	cr_expect_eq(ub_step[2], 0, "scaled from the center: step %d",
		     ub_step[2]);
	cr_expect(!ub_active[2]);
}
