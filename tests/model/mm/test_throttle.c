// SPDX-License-Identifier: MIT
/*
 * tests/model/mm/test_throttle.c - dirty throttling's arithmetic
 * (model/mm/page-writeback.c) against values worked out by hand from the
 * formulas of v6.18's mm/page-writeback.c (domain_dirty_limits,
 * pos_ratio_polynom, wb_position_ratio, wb_max_pause, wb_min_pause,
 * dirty_poll_interval, wb_update_write_bandwidth,
 * wb_update_dirty_ratelimit) and fs/fs-writeback.c writeback_chunk_size,
 * with HZ = 250 and 4 KiB pages.  Each expected value has its working in
 * the comment; C's integer division truncates toward zero, as div64_s64
 * does.  Then the mechanism in one untimed world: a writer past its
 * window at a tiny limit gets -EAGAIN with BDP_ASYNC; and
 * __wb_update_bandwidth's order in a timed one.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "wpsim/harness.h"
#include "model/linux/syscalls.h"
#include "model/world.h"
#include "sim/clock.h"
#include "sim/engine.h"
#include "sim/strategy.h"

/* 16 GiB of dirtyable memory: 4194304 pages, + 1 (never 0). */
#define AVAIL_16G	4194305ul

Test(throttle, domain_dirty_limits_from_ratios)
{
	struct km_dirty_throttle_control dtc = { .avail = AVAIL_16G };
	struct km_dirty_sysctl vm = { .dirty_ratio = 20,
				      .dirty_background_ratio = 10 };

	km_domain_dirty_limits(&dtc, &vm);
	/* ratio = 20 * 4096 / 100 = 819 per page; 819 * 4194305 / 4096 =
	 * 838656.2 -> 838656.  bg: 409 * 4194305 / 4096 = 418816.1. */
	cr_assert_eq(dtc.thresh, 838656);
	cr_assert_eq(dtc.bg_thresh, 418816);
}

Test(throttle, domain_dirty_limits_from_bytes_halves_a_large_bg)
{
	struct km_dirty_throttle_control dtc = { .avail = AVAIL_16G };
	struct km_dirty_sysctl vm = { .dirty_ratio = 20,
				      .dirty_background_ratio = 10,
				      .dirty_bytes = 10ul << 20 };

	km_domain_dirty_limits(&dtc, &vm);
	/* thresh = DIV_ROUND_UP(10 MiB, 4096) = 2560; bg from the ratio,
	 * 418816 >= thresh, so bg_thresh = thresh / 2 = 1280. */
	cr_assert_eq(dtc.thresh, 2560);
	cr_assert_eq(dtc.bg_thresh, 1280);
	vm.dirty_background_bytes = 4097;
	km_domain_dirty_limits(&dtc, &vm);
	cr_assert_eq(dtc.bg_thresh, 2);		/* DIV_ROUND_UP(4097, 4096) */
}

Test(throttle, pos_ratio_polynom_is_2_at_freerun_1_at_setpoint_0_at_limit)
{
	/* thresh 819, bg 409: freerun (819 + 409) / 2 = 614, setpoint
	 * (614 + 819) / 2 = 716, limit 819; 1.0 is 1024. */
	cr_assert_eq(km_pos_ratio_polynom(716, 716, 819), 1024);
	/* x = (716 - 614) * 1024 / (103 | 1) = 104448 / 103 = 1014;
	 * 1014 * 1014 >> 10 = 1004; 1004 * 1014 >> 10 = 994; + 1024. */
	cr_assert_eq(km_pos_ratio_polynom(716, 614, 819), 2018);
	/* x = -103 * 1024 / 103 = -1024: -1024 cubed >> 20 = -1024; 0. */
	cr_assert_eq(km_pos_ratio_polynom(716, 819, 819), 0);
	/* x = -184 * 1024 / 103 = -1829 (toward zero): below 0, clamped. */
	cr_assert_eq(km_pos_ratio_polynom(716, 900, 819), 0);
	/* x = 416 * 1024 / 103 = 4135: 1 + 65.4, clamped to 2.0. */
	cr_assert_eq(km_pos_ratio_polynom(716, 300, 819), 2048);
}

Test(throttle, wb_position_ratio_global_and_wb_lines)
{
	struct km_dirty_throttle_control dtc = {
		.thresh = 819, .bg_thresh = 409, .dirty = 716,
		.wb_dirty = 716, .wb_thresh = 819,
	};

	/* At the setpoint, write_bw 25600 pages/s: global 1024; x =
	 * (819 << 16) / (819 | 1) = 65536, wb_setpoint 716, span = 8 *
	 * 25600 = 204800, x_intercept 205516; 1024 * 204800 / (204800 | 1)
	 * = 1023.99 -> 1023; 716 is not under the reserve (819 / 2). */
	km_wb_position_ratio(&dtc, 25600);
	cr_assert_eq(dtc.limit, 819);
	cr_assert_eq(dtc.pos_ratio, 1023);
	/* At 300: global clamped to 2048; wb line 2048 * (205516 - 300) /
	 * 204801 = 2052.15 -> 2052; reserve: 300 < 409, 300 > 409 / 8, so
	 * 2052 * 409 / 300 = 2797.56 -> 2797. */
	dtc.dirty = dtc.wb_dirty = 300;
	km_wb_position_ratio(&dtc, 25600);
	cr_assert_eq(dtc.pos_ratio, 2797);
	/* At the limit: 0. */
	dtc.dirty = dtc.wb_dirty = 819;
	km_wb_position_ratio(&dtc, 25600);
	cr_assert_eq(dtc.pos_ratio, 0);
	/* The wb line ends at x_intercept - span / 4, where the kernel's
	 * `wb_dirty < x_intercept - span / 4` turns to pos_ratio / 4:
	 * write_bw 4: span 32, x_intercept 716 + 32 = 748, the end 740.
	 * Global at 740: x = -24 * 1024 / 103 = -238; 238 * 238 >> 10 =
	 * 55; 55 * -238 >> 10 = -13; 1024 - 13 = 1011.  At the end itself
	 * the quarter: 1011 / 4 = 252 (seed 60731's mutant that took the
	 * line there too gave 1011 * 8 / 33 = 245); one page below it, the
	 * line: 1011 * 9 / 33 = 275. */
	cr_assert_eq(km_pos_ratio_polynom(716, 740, 819), 1011);
	dtc.dirty = dtc.wb_dirty = 740;
	km_wb_position_ratio(&dtc, 4);
	cr_assert_eq(dtc.pos_ratio, 252);
	dtc.wb_dirty = 739;
	km_wb_position_ratio(&dtc, 4);
	cr_assert_eq(dtc.pos_ratio, 275);
}

Test(throttle, dirty_poll_interval)
{
	/* ilog2(838656) = 19, 19 >> 1 = 9: 512 pages. */
	cr_assert_eq(km_dirty_poll_interval(0, 838656), 512);
	/* ilog2(19) = 4: 1 << 2. */
	cr_assert_eq(km_dirty_poll_interval(800, 819), 4);
	cr_assert_eq(km_dirty_poll_interval(819, 819), 1);
	cr_assert_eq(km_dirty_poll_interval(0, 1), 1);	/* 1 << (0 >> 1) */
}

Test(throttle, wb_max_pause)
{
	/* roundup_pow_of_two(1 + 250 / 8) = 32.  25600 / 32 = 800;
	 * 700 / 801 = 0, + 1: 1 jiffy. */
	cr_assert_eq(km_wb_max_pause(25600, 700), 1);
	/* 1000 / 32 = 31; 700 / 32 = 21, + 1 = 22. */
	cr_assert_eq(km_wb_max_pause(1000, 700), 22);
	/* 100000 / 32 + 1 = 3126, capped at MAX_PAUSE = 250 / 5 = 50. */
	cr_assert_eq(km_wb_max_pause(1000, 100000), 50);
	cr_assert_eq(KM_MAX_PAUSE, 50);
}

Test(throttle, wb_min_pause)
{
	int pages = -1;

	/* One dd at INIT_BW: hi = lo = ilog2(25600) = 14; t = 250 / 100 =
	 * 2, min(2, 1 + 50 / 2); pages = 25600 * 2 / 256 = 200 (>= 32);
	 * pause = 250 * 200 / 25601 = 1 <= 50; min pause 1 + 2 / 2. */
	cr_assert_eq(km_wb_min_pause(25600, 25600, 50, 25600, 25600, &pages),
		     2);
	cr_assert_eq(pages, 200);
	/* Many dirtiers: lo = ilog2(100) = 6, t = 2 + 8 * 2500 / 1024 = 21;
	 * pages = 100 * 21 / 256 = 8 < 32, so t = 50, pages = 5000 / 256 =
	 * 19; pause = 250 * 19 / 51 = 93 > 50: pages = 50 * 50 / 256 = 9;
	 * under 32 pages the min pause is t = 50. */
	cr_assert_eq(km_wb_min_pause(25600, 100, 50, 50, 100, &pages), 50);
	cr_assert_eq(pages, 9);
}

Test(throttle, wb_update_write_bandwidth)
{
	struct km_bdi_writeback wb = { .write_bandwidth = 25600,
				       .avg_write_bandwidth = 25600 };

	/* period = roundup_pow_of_two(750) = 1024.  2000 pages in 50
	 * jiffies: (2000 * 250 + 25600 * 974) >> 10 = 25434400 >> 10 =
	 * 24838; avg == old: unchanged. */
	km_wb_update_write_bandwidth(&wb, 50, 2000);
	cr_assert_eq(wb.write_bandwidth, 24838);
	cr_assert_eq(wb.avg_write_bandwidth, 25600);
	/* Again: (500000 + 24838 * 974) >> 10 = 24113; avg > old >= bw:
	 * avg -= (25600 - 24838) >> 3 = 95. */
	wb.written_stamp = 2000;
	km_wb_update_write_bandwidth(&wb, 50, 4000);
	cr_assert_eq(wb.write_bandwidth, 24113);
	cr_assert_eq(wb.avg_write_bandwidth, 25505);
	/* elapsed past the period: bw = 1000 * 250 / 2000 = 125 = avg. */
	wb.written_stamp = 4000;
	km_wb_update_write_bandwidth(&wb, 2000, 5000);
	cr_assert_eq(wb.avg_write_bandwidth, 125);
}

Test(throttle, wb_update_dirty_ratelimit)
{
	struct km_bdi_writeback wb = { .avg_write_bandwidth = 10000,
				       .dirty_ratelimit = 25600,
				       .balanced_dirty_ratelimit = 25600 };
	struct km_dirty_throttle_control dtc = { .thresh = 819,
						 .bg_thresh = 409,
						 .dirty = 700,
						 .pos_ratio = 1024 };

	/* dirty_rate = 5000 * 250 / 50 = 25000; task_ratelimit = 25600 + 1;
	 * balanced = 25601 * 10000 / (25000 | 1) = 10239, above write_bw:
	 * 10000.  700 < setpoint 716: x = min(25600, 10000, 25601), not
	 * above 25600: no step. */
	km_wb_update_dirty_ratelimit(&wb, &dtc, 5000, 50);
	cr_assert_eq(wb.balanced_dirty_ratelimit, 10000);
	cr_assert_eq(wb.dirty_ratelimit, 25600);
	/* Over the setpoint at pos_ratio 0.5: task_ratelimit 12800 + 1,
	 * balanced 12801 * 10000 / 25001 = 5120; x = max(6000, 5120,
	 * 12801) = 12801, step 25600 - 12801 = 12799; shift = 25600 /
	 * 25599 = 1: step = DIV_ROUND_UP(6399, 8) = 800, down. */
	wb.balanced_dirty_ratelimit = 6000;
	dtc.dirty = 750;
	dtc.pos_ratio = 512;
	km_wb_update_dirty_ratelimit(&wb, &dtc, 5000, 50);
	cr_assert_eq(wb.balanced_dirty_ratelimit, 5120);
	cr_assert_eq(wb.dirty_ratelimit, 24800);
}

/*
 * The branches the cases above leave: mm/page-writeback.c v6.18
 * domain_dirty_limits (bg_thresh equal to thresh is halved; thresh is
 * capped at UINT_MAX pages), wb_update_write_bandwidth (the average
 * rises toward a rising bandwidth; `old >= bw` at equality),
 * wb_update_dirty_ratelimit (a step up below the setpoint; a step too
 * small for the rate, shift >= BITS_PER_LONG, is none) and
 * wb_position_ratio (wb_thresh above thresh is clamped; deep in the
 * reserve area the ratio is multiplied by 8).
 */
Test(throttle, limits_bandwidth_and_ratio_edges)
{
	struct km_dirty_throttle_control dtc = { .avail = AVAIL_16G };
	struct km_dirty_sysctl vm = { .dirty_ratio = 20,
				      .dirty_background_ratio = 10,
				      .dirty_bytes = 8192,
				      .dirty_background_bytes = 8192 };
	struct km_bdi_writeback wb;
	struct km_dirty_throttle_control pdtc = {
		.thresh = 819, .bg_thresh = 409, .dirty = 100,
		.wb_dirty = 40, .wb_thresh = 1000,
	};

	/* thresh = bg_thresh = 2 pages: bg_thresh >= thresh, so 2 / 2. */
	km_domain_dirty_limits(&dtc, &vm);
	cr_assert_eq(dtc.thresh, 2);
	cr_assert_eq(dtc.bg_thresh, 1);
	/* 2^32 pages of dirty_bytes: capped at UINT_MAX; bg from the
	 * ratio, 418816, below it. */
	vm.dirty_bytes = (1ul << 32) * 4096;
	vm.dirty_background_bytes = 0;
	km_domain_dirty_limits(&dtc, &vm);
	cr_assert_eq(dtc.thresh, 4294967295ul);
	cr_assert_eq(dtc.bg_thresh, 418816);

	/* 1000 pages in 50 jiffies from write_bw 1000: (250000 + 1000 *
	 * 974) >> 10 = 1224000 >> 10 = 1195; avg 900 < old 1000 <= 1195:
	 * avg += (1000 - 900) >> 3 = 12. */
	memset(&wb, 0, sizeof(wb));
	wb.write_bandwidth = 1000;
	wb.avg_write_bandwidth = 900;
	km_wb_update_write_bandwidth(&wb, 50, 1000);
	cr_assert_eq(wb.write_bandwidth, 1195);
	cr_assert_eq(wb.avg_write_bandwidth, 912);
	/* bw equal to the old bandwidth: 1 page in 1 jiffy from 250:
	 * (250 + 250 * 1023) >> 10 = 250; avg 300 > old 250 >= 250:
	 * avg -= 50 >> 3 = 6. */
	memset(&wb, 0, sizeof(wb));
	wb.write_bandwidth = 250;
	wb.avg_write_bandwidth = 300;
	km_wb_update_write_bandwidth(&wb, 1, 1);
	cr_assert_eq(wb.write_bandwidth, 250);
	cr_assert_eq(wb.avg_write_bandwidth, 294);

	/* Below the setpoint (700 < 716), pos_ratio 2.0: dirty_rate 500 *
	 * 250 / 50 = 2500; task_ratelimit 1000 * 2048 >> 10 = 2000, + 1;
	 * balanced = 2001 * 10000 / 2501 = 8000; x = min(4000, 8000, 2001)
	 * = 2001 > 1000: step 1001; shift 1000 / 2003 = 0: step =
	 * DIV_ROUND_UP(1001, 8) = 126; 1000 < 8000: up, 1126. */
	memset(&wb, 0, sizeof(wb));
	wb.avg_write_bandwidth = 10000;
	wb.dirty_ratelimit = 1000;
	wb.balanced_dirty_ratelimit = 4000;
	dtc = (struct km_dirty_throttle_control){ .thresh = 819,
		.bg_thresh = 409, .dirty = 700, .pos_ratio = 2048 };
	km_wb_update_dirty_ratelimit(&wb, &dtc, 500, 50);
	cr_assert_eq(wb.balanced_dirty_ratelimit, 8000);
	cr_assert_eq(wb.dirty_ratelimit, 1126);
	/* The same with the last balanced rate 1003: x = 1003, step 3;
	 * shift 1000 / 7 = 142 >= BITS_PER_LONG: no step. */
	wb.dirty_ratelimit = 1000;
	wb.balanced_dirty_ratelimit = 1003;
	km_wb_update_dirty_ratelimit(&wb, &dtc, 500, 50);
	cr_assert_eq(wb.dirty_ratelimit, 1000);
	cr_assert_eq(wb.balanced_dirty_ratelimit, 8000);

	/* dirty 100: x = 616 * 1024 / 103 = 6124, cubed and + 1.0 far
	 * above 2.0: 2048.  wb_thresh 1000 > thresh: 819, so x = 65536,
	 * wb_setpoint 716, span 8 * 25600 = 204800, x_intercept 205516;
	 * 2048 * (205516 - 40) / 204801 = 2054; the reserve: 40 < 819 /
	 * 2 = 409 and 40 <= 409 / 8 = 51: * 8 = 16432. */
	km_wb_position_ratio(&pdtc, 25600);
	cr_assert_eq(pdtc.pos_ratio, 16432);
	/* Above 409 / 8: 2054 * 409 / 60 = 14001. */
	pdtc.wb_dirty = 60;
	km_wb_position_ratio(&pdtc, 25600);
	/* 2048 * (205516 - 60) / 204801 = 2054. */
	cr_assert_eq(pdtc.pos_ratio, 14001);
}

Test(throttle, writeback_chunk_size)
{
	struct km_bdi_writeback wb = { .avg_write_bandwidth = 25600,
				       .thresh = 838656 };

	/* min(25600 / 2, 838656 / 8) = 12800; round_down(12800 + 1024,
	 * 1024) = 13312. */
	cr_assert_eq(km_writeback_chunk_size(&wb), 13312);
	/* min(12800, 819 / 8 = 102) + 1024 -> 1024. */
	wb.thresh = 819;
	cr_assert_eq(km_writeback_chunk_size(&wb), 1024);
}

/* ---- the mechanism, untimed --------------------------------------------- */

static struct wpsim_race T;

static void over_limit(void)
{
	struct km_file *f = m_world()->files[0];

	/* Limit 2 pages: thresh 2, bg_thresh 1, freerun 1; the task's
	 * window is min(32, dirty_poll_interval(0, 2) = 1). */
	SIM_ASSERT_EQ(m_pwritev2(f, 0, 4096, 0, 3, 0), 4096);
	/* dirty 1 <= freerun: free; the window becomes poll(1, 2) = 1. */
	SIM_ASSERT_EQ(m_pwritev2(f, 4096, 4096, RWF_NOWAIT, 4, 0), 4096);
	/* dirty 2 >= limit: pos_ratio 0, task_ratelimit 0: -EAGAIN. */
	SIM_ASSERT_EQ(m_pwritev2(f, 8192, 4096, RWF_NOWAIT, 5, 0),
		      -KM_EAGAIN);
}

static void body(void *arg)
{
	(void)arg;
	over_limit();
}

Test(throttle, nowait_writer_past_the_limit_gets_eagain)
{
	struct km_bdi_writeback *wb;

	wpsim_race_init(&T, "throttle");
	T.world.files[0].size = 4 * PAGE_SIZE;
	T.world.dirty_limit_pages = 2;
	wpsim_race_task(&T, "P0", body, NULL);
	WPSIM_ASSERT_RUN_ONCE(&T);
	wb = &m_world()->wb;
	cr_assert_eq(wb->thresh, 2);
	cr_assert_eq(wb->bg_thresh, 1);
	cr_assert_eq(wb->nr_eagain, 1);
	/* Over bg_thresh with no writeback running: the flusher was
	 * kicked on both looks past 1 dirty page. */
	cr_assert_eq(wb->nr_bg_starts, 2);
	cr_assert_eq(wb->nr_pauses, 0);
	/* The flush-bg work then writes both dirty pages back in one
	 * round (a chunk of 1024 pages): one pass, the "chunks" of wpsim
	 * fio's dirty report (seed 64153's #54 counted each pass as two). */
	cr_assert_eq(wb->bg_passes, 1, "background passes: %llu",
		     (unsigned long long)wb->bg_passes);
}

/*
 * The background work item never runs twice at once (review F4.8).
 * Four pages are dirty over a 2-page limit (bg_thresh 1); P0 and P1 each
 * kick background writeback (wb_start_background_writeback).  In v6.18
 * the kick is mod_delayed_work on bdi_wq: a work item that is pending
 * stays one; one that is executing (its pending bit already cleared) is
 * queued again and runs after the current run, on the same worker
 * (workqueue non-reentrancy).  So the two kicks give one flush-bg run or
 * two in a row, never two side by side.
 * Property: two "flush-bg" tasks' steps interleave (the schedule has a
 * step of one between two steps of the other).  Expect Never.  The model
 * before the fix cleared its pending bit as the work started and spawned
 * a second task for a kick after that: Sometimes.
 * Kernel: fs/fs-writeback.c wb_start_background_writeback, wb_wakeup;
 * kernel/workqueue.c __queue_work, process_one_work, v6.18.
 */
static void kick(void *arg)
{
	(void)arg;
	km_wb_start_background_writeback(&m_world()->wb);
}

static bool flush_bg_runs_overlap(struct wpsim_race *race)
{
	const uint16_t *s;
	uint32_t n = sim_exec_schedule(&s);
	int open_task = -1;
	bool done[64] = { false };

	(void)race;
	for (uint32_t i = 0; i < n; i++) {
		const char *name = sim_exec_task_name(s[i]);

		if (!name || strcmp(name, "flush-bg") != 0)
			continue;
		if (s[i] < 64 && done[s[i]])
			return true;	/* a task that another followed */
		if (open_task >= 0 && open_task != s[i] && open_task < 64)
			done[open_task] = true;
		open_task = s[i];
	}
	return false;
}

Test(throttle, background_work_never_runs_twice_at_once)
{
	wpsim_race_init(&T, "bg-work-once");
	T.world.files[0].size = 4 * PAGE_SIZE;
	T.world.files[0].cached_first = 0;
	T.world.files[0].cached_last = 3;
	T.world.files[0].dirty_first = 0;
	T.world.files[0].dirty_last = 3;
	T.world.dirty_limit_pages = 2;
	wpsim_race_task(&T, "P0", kick, NULL);
	wpsim_race_task(&T, "P1", kick, NULL);
	T.property = flush_bg_runs_overlap;
	T.property_text = "two flush-bg runs interleave";
	T.expect = WPSIM_NEVER;
	WPSIM_ASSERT_RACE(&T);
}

/* ---- __wb_update_bandwidth in a timed world ------------------------------ */

/*
 * The bandwidth update of balance_dirty_pages (mm/page-writeback.c
 * __wb_update_bandwidth, v6.18): wb_update_dirty_ratelimit runs first,
 * with write_bw = the average write bandwidth as it was, then
 * wb_update_write_bandwidth changes the average.  Timed, one CPU, a
 * 2-page limit (thresh 2, bg_thresh 1: freerun 1, setpoint 1); the
 * background work is held "pending" (bit 0 of flusher_kick,
 * WB_WORK_PENDING in model/fs/fs-writeback.c), so no flusher runs and
 * nothing is written back (WB_WRITTEN stays 0).  The world starts at
 * jiffies 1 (the model's jiffies count from 1), INIT_BW 25600 for both
 * bandwidths and both rate limits.
 *   1. pages 0 and 1 written: 2 dirty (WB_DIRTIED 2); page 1's look
 *      is free (1 <= freerun);
 *   2. at jiffies 61 a RWF_NOWAIT write of page 2 looks: dirty 2 at the
 *      limit, pos_ratio 0, task_ratelimit 0 + 1; 60 jiffies since the
 *      stamp (>= BANDWIDTH_INTERVAL 50): the update.  dirty_rate = 2 *
 *      250 / 60 = 8; balanced = 1 * 25600 / (8 | 1) = 2844; dirty 2 >=
 *      setpoint: x = max(25600, 2844, 1) = 25600, no step: rate limit
 *      25600.  Then the write bandwidth: period 1024, (0 * 250 + 25600
 *      * (1024 - 60)) >> 10 = 24100; the average equals the old
 *      bandwidth: 25600 kept.  Stamp 61.  The write: -EAGAIN;
 *   3. at jiffies 121 again: dirty_rate (2 - 2) * 250 / 60 = 0;
 *      balanced = 1 * write_bw / 1, capped at write_bw: the average
 *      before this update, 25600.  Then (24100 * 964) >> 10 = 22687;
 *      the average 25600 > old 24100 >= 22687: 25600 - (1500 >> 3) =
 *      25413.
 * Seed 62417's #64 (the two updates swapped) gave 25413 at step 3: the
 * balanced rate from the new average.
 */
static long bw_ret[2];
static unsigned long bw_snap[2][5];

static void bw_snapshot(int k)
{
	struct km_bdi_writeback *wb = &m_world()->wb;

	bw_snap[k][0] = wb->bw_time_stamp;
	bw_snap[k][1] = wb->balanced_dirty_ratelimit;
	bw_snap[k][2] = wb->dirty_ratelimit;
	bw_snap[k][3] = wb->write_bandwidth;
	bw_snap[k][4] = wb->avg_write_bandwidth;
}

static void bw_task(void *arg)
{
	struct km_file *f = m_world()->files[0];

	(void)arg;
	sim_word_add(&m_world()->wb.flusher_kick, 1u << 0);
	SIM_ASSERT_EQ(m_pwritev2(f, 0, 4096, 0, 3, 0), 4096);
	SIM_ASSERT_EQ(m_pwritev2(f, 4096, 4096, 0, 4, 0), 4096);
	/* jiffies = 1 + now / 4 ms: 61 from 240 ms (+1 ms of margin). */
	sim_sleep_until(241000000ull);
	bw_ret[0] = m_pwritev2(f, 8192, 4096, RWF_NOWAIT, 5, 0);
	bw_snapshot(0);
	sim_sleep_until(481000000ull);
	bw_ret[1] = m_pwritev2(f, 8192, 4096, RWF_NOWAIT, 5, 0);
	bw_snapshot(1);
}

static void bw_setup(void *unused)
{
	struct m_world_config c;

	(void)unused;
	m_world_config_default(&c);
	c.files[0].size = 4 * PAGE_SIZE;
	c.dirty_limit_pages = 2;
	m_world_setup(&c);
	sim_task_spawn("P0", bw_task, NULL);
}

Test(throttle, bandwidth_update_takes_the_rate_limit_from_the_old_average)
{
	static const struct sim_program prog = { .name = "bw-update",
						 .setup = bw_setup };
	struct sim_exec_options exec = { 0 };
	struct sim_strategy st;
	struct sim_outcome o;

	sim_clock_configure(&(struct sim_clock_config){
		.cpus = 1, .costs = sim_cpu_costs_default });
	sim_strategy_timed(&st, 1, 1);
	sim_exec_run(&prog, &st, &exec, &o);
	sim_strategy_fini(&st);
	cr_assert_eq(o.kind, SIM_OK, "%s", o.message);
	cr_assert_eq(bw_ret[0], -KM_EAGAIN);
	cr_assert_eq(bw_snap[0][0], 61);
	cr_assert_eq(bw_snap[0][1], 2844);
	cr_assert_eq(bw_snap[0][2], 25600);
	cr_assert_eq(bw_snap[0][3], 24100);
	cr_assert_eq(bw_snap[0][4], 25600);
	cr_assert_eq(bw_ret[1], -KM_EAGAIN);
	cr_assert_eq(bw_snap[1][0], 121);
	cr_assert_eq(bw_snap[1][1], 25600, "balanced: %lu", bw_snap[1][1]);
	cr_assert_eq(bw_snap[1][2], 25600);
	cr_assert_eq(bw_snap[1][3], 22687);
	cr_assert_eq(bw_snap[1][4], 25413);
}

/*
 * balance_dirty_pages' pause (mm/page-writeback.c v6.18: period =
 * HZ * pages_dirtied / task_ratelimit, less the time since the task's
 * last look, dirty_paused_when; below min_pause no sleep, the credit
 * kept; above max_pause capped).  Timed, one CPU, an 8-page limit
 * (thresh 8, bg_thresh 4: freerun 6, setpoint 7), the background work
 * held pending (no flusher) and the wb's dirty_ratelimit set to 100
 * pages/s.  Pages 0-6 are written: the looks at 2, 4 and 6 dirty pages
 * are free (the last sets dirty_paused_when and a window of
 * dirty_poll_interval(6, 8) = 1 page).  Page 7's look sees 7 dirty:
 * pos_ratio 1024 (the setpoint) on the wb line 1024 * 182042 / 182043
 * = 1023, task_ratelimit 100 * 1023 >> 10 = 99; period 250 * 1 / 99 =
 * 2 jiffies; max_pause 7 / (1 + 25600 / 32) + 1 = 1; min_pause:
 * t = min(2 + (14 - 6) * 2500 / 1024, 1 + 1 / 2) = 1, pages 100 / 256
 * = 0 < 32 so t = max_pause = 1, pause estimate 0: min_pause 1.
 *   - right after page 6's look: pause 2 - 0 = 2, over max_pause:
 *     one sleep of 1 jiffy (4 ms);
 *   - 12 ms (3 jiffies) later: pause 2 - 3 = -1 < min_pause, and not
 *     below -HZ: no sleep, dirty_paused_when += period.
 * The write returns 4096 either way.
 */
static long pz_ret;
static unsigned long pz_pauses, pz_pause_ns;
static bool pz_gap;

static void pz_task(void *arg)
{
	struct km_file *f = m_world()->files[0];
	struct km_bdi_writeback *wb = &m_world()->wb;

	(void)arg;
	sim_word_add(&wb->flusher_kick, 1u << 0);	/* WB_WORK_PENDING */
	wb->dirty_ratelimit = 100;
	for (int i = 0; i < 7; i++)
		SIM_ASSERT_EQ(m_pwritev2(f, (loff_t)i * 4096, 4096, 0, 3, 0),
			      4096);
	if (pz_gap)
		sim_sleep_ns(12000000);
	pz_ret = m_pwritev2(f, 7 * 4096, 4096, 0, 3, 0);
	pz_pauses = wb->nr_pauses;
	pz_pause_ns = wb->pause_ns;
}

static void pz_setup(void *unused)
{
	struct m_world_config c;

	(void)unused;
	m_world_config_default(&c);
	c.files[0].size = 8 * PAGE_SIZE;
	c.dirty_limit_pages = 8;
	m_world_setup(&c);
	sim_task_spawn("P0", pz_task, NULL);
}

static void pz_run(bool gap)
{
	static const struct sim_program prog = { .name = "bdp-pause",
						 .setup = pz_setup };
	struct sim_exec_options exec = { 0 };
	struct sim_strategy st;
	struct sim_outcome o;

	pz_gap = gap;
	sim_clock_configure(&(struct sim_clock_config){
		.cpus = 1, .costs = sim_cpu_costs_default });
	sim_strategy_timed(&st, 1, 1);
	sim_exec_run(&prog, &st, &exec, &o);
	sim_strategy_fini(&st);
	cr_assert_eq(o.kind, SIM_OK, "%s", o.message);
}

Test(throttle, pause_counts_the_time_since_the_last_look)
{
	pz_run(false);
	cr_assert_eq(pz_ret, 4096);
	cr_assert_eq(pz_pauses, 1, "pauses: %lu", pz_pauses);
	/* One jiffy, and the step that ends the sleep. */
	cr_assert_geq(pz_pause_ns, 4000000, "%lu", pz_pause_ns);
	cr_assert_lt(pz_pause_ns, 5000000, "%lu", pz_pause_ns);
	pz_run(true);
	cr_assert_eq(pz_ret, 4096);
	cr_assert_eq(pz_pauses, 0, "pauses: %lu", pz_pauses);
}

/*
 * Two dirtiers' bandwidth updates in one jiffy (mm/page-writeback.c
 * __wb_update_bandwidth under wb->list_lock, v6.18).  Timed, two CPUs,
 * a 4-page limit (bg 2, freerun 3), the background work held pending,
 * two files: P0 writes pages 0 and 1 of file 0, P1 pages 0 and 1 of
 * file 1 (each task's first window is dirty_poll_interval(0, 4) = 2
 * pages: no look), 4 dirty.  At jiffies 61 both look with RWF_NOWAIT
 * (4 at the limit: pos_ratio 0, -EAGAIN), 60 jiffies after the stamp:
 * both update, one after the other under the lock:
 *   the first: dirty_rate 4 * 250 / 60 = 16, balanced 1 * 25600 / 17 =
 *   1505, write bandwidth (25600 * 964) >> 10 = 24100, the average
 *   kept (25600), stamp 61;
 *   the second: elapsed max(61 - 61, 1) = 1, dirty_rate 0: balanced =
 *   write_bw = 25600; (24100 * 1023) >> 10 = 24076; the average
 *   25600 > 24100 >= 24076: 25600 - (1500 >> 3) = 25413.
 * Without the lock the two read the stamp and the counters in steps of
 * their own and compute from the same old state.
 */
static long bw2_ret[2];

static void bw2_task(void *arg)
{
	int id = (int)(intptr_t)arg;
	struct km_file *f = m_world()->files[id];

	if (id == 0)
		sim_word_add(&m_world()->wb.flusher_kick, 1u << 0);
	SIM_ASSERT_EQ(m_pwritev2(f, 0, 4096, 0, 3, 0), 4096);
	SIM_ASSERT_EQ(m_pwritev2(f, 4096, 4096, 0, 4, 0), 4096);
	sim_sleep_until(241000000ull);
	bw2_ret[id] = m_pwritev2(f, 8192, 4096, RWF_NOWAIT, 5, 0);
}

static void bw2_setup(void *unused)
{
	struct m_world_config c;

	(void)unused;
	m_world_config_default(&c);
	c.nr_files = 2;
	c.files[0].size = 4 * PAGE_SIZE;
	c.files[1] = c.files[0];	/* nothing cached, as file 0 */
	c.files[1].name = "g";
	c.dirty_limit_pages = 4;
	m_world_setup(&c);
	sim_task_spawn("P0", bw2_task, (void *)(intptr_t)0);
	sim_task_spawn("P1", bw2_task, (void *)(intptr_t)1);
}

Test(throttle, two_bandwidth_updates_in_one_jiffy_follow_each_other)
{
	static const struct sim_program prog = { .name = "bw-update-2",
						 .setup = bw2_setup };
	struct sim_exec_options exec = { 0 };
	struct sim_strategy st;
	struct sim_outcome o;
	struct km_bdi_writeback *wb;

	sim_clock_configure(&(struct sim_clock_config){
		.cpus = 2, .costs = sim_cpu_costs_default });
	sim_strategy_timed(&st, 1, 1);
	sim_exec_run(&prog, &st, &exec, &o);
	sim_strategy_fini(&st);
	cr_assert_eq(o.kind, SIM_OK, "%s", o.message);
	wb = &m_world()->wb;
	cr_assert_eq(bw2_ret[0], -KM_EAGAIN);
	cr_assert_eq(bw2_ret[1], -KM_EAGAIN, "P1: %ld", bw2_ret[1]);
	cr_assert_eq(wb->bw_time_stamp, 61);
	cr_assert_eq(wb->balanced_dirty_ratelimit, 25600, "%lu",
		     wb->balanced_dirty_ratelimit);
	cr_assert_eq(wb->dirty_ratelimit, 25600);
	cr_assert_eq(wb->write_bandwidth, 24076, "%lu", wb->write_bandwidth);
	cr_assert_eq(wb->avg_write_bandwidth, 25413, "%lu",
		     wb->avg_write_bandwidth);
}
