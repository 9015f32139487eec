// SPDX-License-Identifier: MIT
/*
 * model/block/blk-wbt.c - buffered writeback throttling (wbt).
 *
 * Models block/blk-wbt.c (wbt_wait, bio_to_wbt_flags,
 * wbt_should_throttle, get_limit, close_io, wb_recent_wait, wbt_issue,
 * wbt_done, wbt_rqw_done, calc_wb_limits, scale_up/down, rwb_arm_timer,
 * wb_timer_fn, latency_exceeded, wbt_init's defaults), the parts of
 * block/blk-rq-qos.c it uses (rq_depth_calc_max_depth,
 * rq_qos_wait, rq_wait_inc_below; rq_depth_* are in blk-rq-qos.c) and of
 * block/blk-stat.c (a window's read and write completion latencies,
 * issue to completion, while the callback's timer is pending), v6.18.
 *
 * A buffered-writeback write (not REQ_SYNC|REQ_IDLE: O_DIRECT and the
 * XFS log are not throttled) may have at most get_limit() requests in
 * flight: the full depth (16 by default, min the queue's) when a task
 * slept in balance_dirty_pages within the last second or the bio is
 * REQ_SYNC (WB_SYNC_ALL writeback: fsync), a quarter of it when the bio
 * is REQ_BACKGROUND (the flusher's kupdate and background passes) or a
 * read was issued or completed within 100 ms, half of it otherwise
 * (writeback kicked by a writer: DONTCACHE, sync_file_range).  A waiter is woken
 * when the in-flight count falls to the limit's wake point (to zero on
 * a queue with a volatile write cache and no recent dirty throttling).
 * Every window (100 ms, shorter when scaled down) the minimum read
 * latency of the window against wbt_lat_usec scales the depth down
 * (halving) or up.
 *
 * Only in a timed run, and only when the device profile gives
 * wbt_lat_usec (the queue/wbt_lat_usec of the device it describes;
 * the kernel enables wbt by default on blk-mq queues, at 2 ms for
 * non-rotational and 75 ms for rotational ones; a profile that does
 * not state it describes no throttling, as before this file).
 *
 * Leaves out: the swap and discard wait queues (WBT_SWAP for REQ_SWAP
 * writes from swap_writeout, WBT_DISCARD; the model has
 * neither), the sysfs and debugfs knobs, enable states other
 * than on/off, queue-depth changes, requeues, merges (wbt_track of a
 * merged bio), per-cgroup throttling (blk-iocost, blk-iolatency: other
 * rq_qos policies), blk-stat's per-CPU buckets (one window sum) and
 * tracepoints.  The queue is one set up long before the run: no read
 * close at its start (close_io), as no dirty throttling (wb_recent_wait).
 * docs/model/blk-wbt.md.
 */
#include <string.h>

#include "model/block/blk-wbt.h"
#include "model/linux/backing-dev.h"
#include "model/linux/writeback.h"
#include "model/world.h"
#include "sim/clock.h"

/* REQ_META, REQ_PRIO and REQ_SWAP: the model's bios carry none of them
 * (REQ_HIPRIO is REQ_SYNC | REQ_META | REQ_PRIO | REQ_SWAP in
 * block/blk-wbt.c, v6.18). */
#define KM_REQ_HIPRIO	REQ_SYNC

/* HZ in ns: wb_recent_wait's second, close_io's HZ / 10. */
#define WBT_HZ_NS	(KM_HZ * KM_NS_PER_JIFFY)

/**
 * km_calc_wb_limits - the normal and background limits from the depth.
 * Kernel: block/blk-wbt.c calc_wb_limits, v6.18.
 * Context: any; pure.
 * Return: none.
 */
void km_calc_wb_limits(struct km_rq_wb *rwb)
{
	if (rwb->min_lat_nsec == 0) {
		rwb->wb_normal = rwb->wb_background = 0;
	} else if (rwb->rq_depth.max_depth <= 2) {
		rwb->wb_normal = rwb->rq_depth.max_depth;
		rwb->wb_background = 1;
	} else {
		rwb->wb_normal = (rwb->rq_depth.max_depth + 1) / 2;
		rwb->wb_background = (rwb->rq_depth.max_depth + 3) / 4;
	}
}

/* wbt_update_limits: back to step 0. */
static void wbt_update_limits(struct km_rq_wb *rwb)
{
	rwb->rq_depth.scale_step = 0;
	rwb->rq_depth.scaled_max = false;
	km_rq_depth_calc_max_depth(&rwb->rq_depth);
	km_calc_wb_limits(rwb);
}

void m_wbt_init(struct km_rq_wb *rwb, unsigned int queue_depth,
		uint64_t min_lat_usec, bool write_cache)
{
	memset(rwb, 0, sizeof(*rwb));
	sim_word_init(&rwb->inflight, 0, "wbt.inflight");
	sim_waitq_init(&rwb->wait, "wbt.wait");
	sim_word_init(&rwb->state, 0, "wbt");
	/* wbt_init stamps both with jiffies: the queue's setup.  The
	 * model's queue was set up long before the run (close_io). */
	rwb->last_comp_ns = rwb->last_issue_ns = KM_WBT_NEVER;
	rwb->win_nsec = KM_RWB_WINDOW_NSEC;
	rwb->enabled = min_lat_usec != 0;
	rwb->rq_depth.default_depth = KM_RWB_DEF_DEPTH;
	rwb->min_lat_nsec = min_lat_usec * 1000;
	rwb->rq_depth.queue_depth = queue_depth;
	rwb->write_cache = write_cache;
	wbt_update_limits(rwb);
}

/*
 * wb_recent_wait: a task slept in balance_dirty_pages within the last
 * second (wb->dirty_sleep, mm/page-writeback.c).  Jiffies, as the
 * kernel's time_before(jiffies, dirty_sleep + HZ); the kernel starts
 * dirty_sleep at the wb's creation (wb_init), the model at "never".
 */
static bool wb_recent_wait(void)
{
	const struct km_bdi_writeback *wb = &m_world()->wb;
	/* The model's jiffies: 1 + (mm/page-writeback.c). */
	unsigned long jiffies = 1 + (unsigned long)(sim_now() /
						    KM_NS_PER_JIFFY);

	return wb->dirty_sleep && jiffies < wb->dirty_sleep + KM_HZ;
}

/* A stamp of close_io's within 100 ms (HZ / 10) before @now_ns. */
static bool stamp_close(uint64_t stamp_ns, uint64_t now_ns)
{
	return stamp_ns != KM_WBT_NEVER && now_ns < stamp_ns + WBT_HZ_NS / 10;
}

/*
 * close_io: a read issued or completed within 100 ms (HZ / 10).
 * wbt_init stamps last_issue and last_comp with the queue's setup time,
 * so the kernel holds a new queue's writeback to the background limit
 * for its first 100 ms; the model's queue is one set up long before the
 * run (m_wbt_init: KM_WBT_NEVER), as the devices the runs describe are
 * (the validation grid's loop device is set up minutes before any row),
 * and close_io is true only after a read of the run.
 */
static bool close_io(const struct km_rq_wb *rwb, uint64_t now_ns)
{
	return stamp_close(rwb->last_issue_ns, now_ns) ||
	       stamp_close(rwb->last_comp_ns, now_ns);
}

/**
 * km_wbt_get_limit - how many writeback requests may be in flight.
 * Kernel: block/blk-wbt.c get_limit, v6.18.
 * Context: any; reads the throttle's fields.
 * Return: the limit.
 * Divergences: no discards in the model (the kernel's first test,
 * REQ_OP_DISCARD -> wb_background, has nothing to act on).  The flags
 * come from the writeback control as the kernel sets them
 * (km_wbc_to_write_flags, include/model/linux/writeback.h: REQ_SYNC for
 * WB_SYNC_ALL, REQ_BACKGROUND for the flusher's kupdate and background
 * passes; model/fs/iomap/buffered-io.c puts them on its bios).
 * close_io's stamps start at "no read yet" (KM_WBT_NEVER: a queue set
 * up before the run), where wbt_init stamps the setup's jiffies.
 */
unsigned int km_wbt_get_limit(struct km_rq_wb *rwb, unsigned int opf,
			      uint64_t now_ns, bool recent_wait)
{
	unsigned int limit;

	if ((opf & KM_REQ_HIPRIO) || recent_wait)
		limit = rwb->rq_depth.max_depth;
	else if ((opf & REQ_BACKGROUND) || close_io(rwb, now_ns))
		limit = rwb->wb_background;
	else
		limit = rwb->wb_normal;
	return limit;
}

/* wbt_should_throttle: writes but O_DIRECT's (REQ_SYNC | REQ_IDLE). */
static bool wbt_should_throttle(const struct km_bio *bio)
{
	if (bio->op != REQ_OP_WRITE)
		return false;
	return (bio->opf & (REQ_SYNC | REQ_IDLE)) != (REQ_SYNC | REQ_IDLE);
}

/**
 * km_bio_to_wbt_flags - what wbt does with a bio.
 * Kernel: block/blk-wbt.c bio_to_wbt_flags, v6.18.
 * Context: any; pure.
 * Return: KM_WBT_READ, KM_WBT_TRACKED or 0.
 * Divergences: no WBT_SWAP, no WBT_DISCARD (neither exists in the
 * model).  An empty flush bio is a write in the model (REQ_OP_WRITE
 * with REQ_PREFLUSH and no data) where the kernel's is REQ_OP_FLUSH
 * after blk-flush: it is not throttled here either.
 */
unsigned int km_bio_to_wbt_flags(const struct km_rq_wb *rwb,
				 const struct km_bio *bio)
{
	unsigned int flags = 0;

	if (!rwb->enabled)
		return 0;
	if (bio->op == REQ_OP_READ)
		flags = KM_WBT_READ;
	else if (wbt_should_throttle(bio) && m_bio_size(bio))
		flags |= KM_WBT_TRACKED;
	return flags;
}

/* rq_wait_inc_below on the rq_wait, inside the caller's step. */
static bool inflight_cb(struct km_rq_wb *rwb, unsigned int opf)
{
	unsigned int limit = km_wbt_get_limit(rwb, opf, sim_now(),
					      wb_recent_wait());
	uint64_t cur = sim_word_read_also(&rwb->inflight);

	if (cur >= limit)
		return false;
	sim_word_add_also(&rwb->inflight, 1);
	return true;
}

/* rwb_arm_timer -> blk_stat_activate_nsecs: a new window. */
static void wb_timer_fn(void *arg);

static void rwb_arm_timer(struct km_rq_wb *rwb)
{
	if (rwb->rq_depth.scale_step > 0) {
		unsigned int x = (unsigned int)(rwb->rq_depth.scale_step + 1)
				 << 8;
		unsigned int r = 0;

		/* int_sqrt (lib/math/int_sqrt.c): the floor. */
		while ((uint64_t)(r + 1) * (r + 1) <= x)
			r++;
		rwb->cur_win_nsec = (rwb->win_nsec << 4) / r;
	} else {
		rwb->cur_win_nsec = rwb->win_nsec;
	}
	memset(rwb->stat, 0, sizeof(rwb->stat));
	rwb->stat_active = true;
	sim_timer_post_ns("wbt-window", wb_timer_fn, rwb, rwb->cur_win_nsec);
}

/**
 * m_wbt_throttle - wbt_wait: a tracked write waits until fewer than
 * get_limit() are in flight, then counts itself in; a read notes its
 * issue time.
 * Kernel: block/blk-wbt.c wbt_wait, __wbt_wait; block/blk-rq-qos.c
 * rq_qos_wait, v6.18.
 * Context: the submitter, before a request is allocated; may sleep.
 * Return: the bio's wbt flags (the request keeps them: wbt_track).
 * Divergences: rq_qos_wait's waker takes the token for the first
 * waiter it wakes (rq_qos_wake_function) and stops at the first that
 * cannot have one; here every woken waiter tries again itself, in
 * queue order, and one that cannot goes back to sleep.  The check and
 * the enqueue are one step, so the kernel's first-waiter re-check has
 * nothing to close.
 */
unsigned int m_wbt_throttle(struct km_rq_wb *rwb, const struct km_bio *bio)
{
	unsigned int flags = km_bio_to_wbt_flags(rwb, bio);

	if (!rwb->enabled)
		return flags;
	sim_word_add(&rwb->state, 1);
	if (!(flags & KM_WBT_TRACKED)) {
		if (flags & KM_WBT_READ)
			rwb->last_issue_ns = sim_now();
		return flags;
	}
	if (sim_waitq_active_also(&rwb->wait) ||
	    !inflight_cb(rwb, bio->opf)) {
		for (;;) {
			sim_waitq_sleep(&rwb->wait);
			sim_word_add(&rwb->state, 1);
			if (inflight_cb(rwb, bio->opf))
				break;
		}
	}
	if (!rwb->stat_active)
		rwb_arm_timer(rwb);
	return flags;
}

/**
 * m_wbt_issue - wbt_issue: remember the first outstanding read's issue
 * time (a read stuck longer than the window counts as a violation).
 * Kernel: block/blk-wbt.c wbt_issue, v6.18.
 * Context: the submitter, in the step that issued the request.
 * Return: none.
 * Divergences: the cookie is the bio's index, not the request's address.
 */
void m_wbt_issue(struct km_rq_wb *rwb, unsigned int wbt_flags,
		 const struct km_bio *bio)
{
	if (!rwb->enabled)
		return;
	if ((wbt_flags & KM_WBT_READ) && !rwb->sync_issue_ns) {
		rwb->sync_cookie = bio->index + 1;
		rwb->sync_issue_ns = sim_now();
	}
}

/* wbt_rqw_done: one tracked request less; wake waiters past the mark. */
static void wbt_rqw_done(struct km_rq_wb *rwb)
{
	int64_t inflight;
	unsigned int limit;

	sim_word_add_also(&rwb->inflight, -1);
	inflight = (int64_t)sim_word_read_also(&rwb->inflight);
	if (rwb->write_cache && !wb_recent_wait())
		limit = 0;
	else
		limit = rwb->wb_normal;
	if (inflight && inflight >= (int64_t)limit)
		return;
	if (sim_waitq_active_also(&rwb->wait)) {
		int64_t diff = (int64_t)limit - inflight;

		if (!inflight || diff >= rwb->wb_background / 2)
			sim_waitq_wake_all(&rwb->wait);
	}
}

/**
 * m_wbt_done - a request ended: its latency goes into the window (if
 * one is open and the request carried data), then wbt_done.
 * Kernel: block/blk-stat.c blk_stat_add; block/blk-wbt.c wbt_done,
 * __wbt_done, wbt_rqw_done, v6.18.
 * Context: interrupt (the request's last completion).
 * Return: none.
 * Divergences: blk-stat's sample is issue to completion of the model's
 * request (its first device command to its last); the kernel's is
 * blk_mq_start_request to blk_mq_end_request, the same span.
 */
void m_wbt_done(struct km_rq_wb *rwb, unsigned int wbt_flags,
		const struct km_bio *bio, uint64_t io_start_ns, bool has_data)
{
	uint64_t now = sim_now();

	if (!rwb->enabled)
		return;
	sim_word_add(&rwb->state, 1);
	if (rwb->stat_active && has_data) {
		struct km_blk_rq_stat *st =
			&rwb->stat[bio->op == REQ_OP_READ ? 0 : 1];
		uint64_t lat = now - io_start_ns;

		if (!st->nr_samples || lat < st->min_ns)
			st->min_ns = lat;
		st->nr_samples++;
	}
	if (!(wbt_flags & KM_WBT_TRACKED)) {
		if (rwb->sync_cookie == bio->index + 1) {
			rwb->sync_issue_ns = 0;
			rwb->sync_cookie = 0;
		}
		if (wbt_flags & KM_WBT_READ)
			rwb->last_comp_ns = now;
	} else {
		wbt_rqw_done(rwb);
	}
}

/**
 * km_latency_exceeded - the window's verdict.
 * Kernel: block/blk-wbt.c latency_exceeded, stat_sample_valid,
 * rwb_sync_issue_lat, v6.18.
 * Context: the window's timer.
 * Return: KM_LAT_OK, KM_LAT_UNKNOWN, KM_LAT_UNKNOWN_WRITES or
 * KM_LAT_EXCEEDED.
 */
int km_latency_exceeded(struct km_rq_wb *rwb, uint64_t now_ns,
			bool recent_wait)
{
	const struct km_blk_rq_stat *stat = rwb->stat;
	uint64_t thislat = 0;

	if (rwb->sync_issue_ns && rwb->sync_cookie)
		thislat = now_ns - rwb->sync_issue_ns;
	if (thislat > rwb->cur_win_nsec ||
	    (thislat > rwb->min_lat_nsec && !stat[0].nr_samples))
		return KM_LAT_EXCEEDED;
	if (!(stat[0].nr_samples >= 1 &&
	      stat[1].nr_samples >= KM_RWB_MIN_WRITE_SAMPLES)) {
		if (stat[1].nr_samples || recent_wait ||
		    sim_word_peek(&rwb->inflight))
			return KM_LAT_UNKNOWN_WRITES;
		return KM_LAT_UNKNOWN;
	}
	if (stat[0].min_ns > rwb->min_lat_nsec)
		return KM_LAT_EXCEEDED;
	return KM_LAT_OK;
}

/* scale_up, scale_down: a new depth, new limits. */
static void scale_up(struct km_rq_wb *rwb)
{
	if (!km_rq_depth_scale_up(&rwb->rq_depth))
		return;
	km_calc_wb_limits(rwb);
	rwb->unknown_cnt = 0;
	sim_waitq_wake_all(&rwb->wait);		/* rwb_wake_all */
}

static void scale_down(struct km_rq_wb *rwb, bool hard_throttle)
{
	if (!km_rq_depth_scale_down(&rwb->rq_depth, hard_throttle))
		return;
	km_calc_wb_limits(rwb);
	rwb->unknown_cnt = 0;
}

/*
 * wb_timer_fn (block/blk-wbt.c, v6.18), run by the window's timer
 * (blk_stat_timer_fn: the window is closed, its samples summed).
 */
static void wb_timer_fn(void *arg)
{
	struct km_rq_wb *rwb = arg;
	uint64_t inflight;
	int status;

	sim_word_add(&rwb->state, 1);
	rwb->stat_active = false;
	inflight = sim_word_read_also(&rwb->inflight);
	status = km_latency_exceeded(rwb, sim_now(), wb_recent_wait());
	switch (status) {
	case KM_LAT_EXCEEDED:
		scale_down(rwb, true);
		break;
	case KM_LAT_OK:
	case KM_LAT_UNKNOWN_WRITES:
		scale_up(rwb);
		break;
	case KM_LAT_UNKNOWN:
		if (++rwb->unknown_cnt < KM_RWB_UNKNOWN_BUMP)
			break;
		if (rwb->rq_depth.scale_step > 0)
			scale_up(rwb);
		else if (rwb->rq_depth.scale_step < 0)
			scale_down(rwb, false);
		break;
	default:
		break;
	}
	if (rwb->rq_depth.scale_step || inflight)
		rwb_arm_timer(rwb);
}

void m_wbt_dump(const struct km_rq_wb *rwb, FILE *out)
{
	fprintf(out, "wbt: %s, min_lat %llu ns, step %d, depth %u "
		"(normal %u, background %u), inflight %llu\n",
		rwb->enabled ? "on" : "off",
		(unsigned long long)rwb->min_lat_nsec,
		rwb->rq_depth.scale_step, rwb->rq_depth.max_depth,
		rwb->wb_normal, rwb->wb_background,
		(unsigned long long)sim_word_peek(&rwb->inflight));
}
