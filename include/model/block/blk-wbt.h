/* SPDX-License-Identifier: MIT */
/*
 * model/block/blk-wbt: buffered writeback throttling, the rq_qos policy
 * that limits how many buffered-writeback requests are in flight on a
 * queue and scales that depth by the latency reads see.
 *
 * Kernel: block/blk-wbt.c, block/blk-rq-qos.c (rq_depth_*, rq_qos_wait,
 * rq_wait_inc_below), block/blk-stat.c (the window's read/write
 * latency statistics), v6.18.  Only in a timed run (the block device's
 * timed queue, model/block/bio.c), and only when the device profile
 * sets wbt_lat_usec (queue/wbt_lat_usec of the device the profile
 * describes); docs/model/blk-wbt.md.
 */
#ifndef WPSIM_MODEL_BLOCK_BLK_WBT_H
#define WPSIM_MODEL_BLOCK_BLK_WBT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "model/linux/bio.h"
#include "sim/shared.h"

/* block/blk-wbt.c, enum wbt_flags. */
#define KM_WBT_TRACKED	1u	/* write, tracked for throttling */
#define KM_WBT_READ	2u	/* read */

/* block/blk-wbt.c: RWB_DEF_DEPTH, RWB_WINDOW_NSEC, RWB_MIN_WRITE_SAMPLES,
 * RWB_UNKNOWN_BUMP. */
#define KM_RWB_DEF_DEPTH		16
#define KM_RWB_WINDOW_NSEC		(100ull * 1000 * 1000)
#define KM_RWB_MIN_WRITE_SAMPLES	3
#define KM_RWB_UNKNOWN_BUMP		5

/* block/blk-wbt.c, the timer's verdicts. */
enum { KM_LAT_OK = 1, KM_LAT_UNKNOWN, KM_LAT_UNKNOWN_WRITES,
       KM_LAT_EXCEEDED };

/* block/blk-rq-qos.h, struct rq_depth. */
struct km_rq_depth {
	unsigned int max_depth;
	int scale_step;
	bool scaled_max;
	unsigned int queue_depth;
	unsigned int default_depth;
};

/* block/blk-stat.h, struct blk_rq_stat: the window's samples of one
 * direction (only what wbt reads: the count and the minimum). */
struct km_blk_rq_stat {
	uint64_t min_ns;
	uint32_t nr_samples;
};

/*
 * struct rq_wb, one rq_wait (the background one: the model has no
 * swap writes and no discards).  @state stands for the fields the kernel
 * reads and writes without a lock (READ_ONCE/WRITE_ONCE and the
 * stat callback's per-CPU buckets): every entry into wbt touches it,
 * so each entry is a step of its own.
 */
struct km_rq_wb {
	unsigned int wb_background;
	unsigned int wb_normal;
	bool enabled;
	unsigned int unknown_cnt;
	uint64_t win_nsec;
	uint64_t cur_win_nsec;
	uint64_t sync_issue_ns;		/* 0 = none */
	uint32_t sync_cookie;		/* the read's bio index + 1 */
	uint64_t last_issue_ns;		/* last read issued; KM_WBT_NEVER */
	uint64_t last_comp_ns;		/* last read completed; KM_WBT_NEVER */
	uint64_t min_lat_nsec;
	bool write_cache;		/* QUEUE_FLAG_WC */
	struct km_rq_depth rq_depth;
	struct sim_word inflight;	/* rq_wait.inflight */
	struct sim_waitq wait;		/* rq_wait.wait */
	struct sim_word state;
	/* blk_stat_callback: active while its timer is pending. */
	bool stat_active;
	struct km_blk_rq_stat stat[2];	/* READ, WRITE */
};

/* last_issue_ns, last_comp_ns: no read since the queue was set up. */
#define KM_WBT_NEVER	UINT64_MAX

/*
 * Set up @rwb for a queue of @queue_depth tags, with the latency target
 * @min_lat_usec (0: off, nothing is throttled), as wbt_init does, but
 * for a queue set up long before the run: no read close
 * (last_issue_ns, last_comp_ns KM_WBT_NEVER), where wbt_init stamps
 * both with the setup's jiffies (model/block/blk-wbt.c, close_io).
 * @write_cache: the queue has a volatile write cache.
 */
void m_wbt_init(struct km_rq_wb *rwb, unsigned int queue_depth,
		uint64_t min_lat_usec, bool write_cache);

/* The pure rules (block/blk-rq-qos.c, block/blk-wbt.c). */
bool km_rq_depth_calc_max_depth(struct km_rq_depth *rqd);
bool km_rq_depth_scale_up(struct km_rq_depth *rqd);
bool km_rq_depth_scale_down(struct km_rq_depth *rqd, bool hard_throttle);
void km_calc_wb_limits(struct km_rq_wb *rwb);
unsigned int km_wbt_get_limit(struct km_rq_wb *rwb, unsigned int opf,
			      uint64_t now_ns, bool recent_wait);
unsigned int km_bio_to_wbt_flags(const struct km_rq_wb *rwb,
				 const struct km_bio *bio);
int km_latency_exceeded(struct km_rq_wb *rwb, uint64_t now_ns,
			bool recent_wait);

/*
 * The timed queue's hooks (rq_qos_throttle, _track/_issue, _done):
 * m_wbt_throttle before a request is allocated (may sleep), returns the
 * bio's wbt flags; m_wbt_issue when its first command goes to the
 * device; m_wbt_done when the request ends (interrupt context).
 */
unsigned int m_wbt_throttle(struct km_rq_wb *rwb, const struct km_bio *bio);
void m_wbt_issue(struct km_rq_wb *rwb, unsigned int wbt_flags,
		 const struct km_bio *bio);
void m_wbt_done(struct km_rq_wb *rwb, unsigned int wbt_flags,
		const struct km_bio *bio, uint64_t io_start_ns, bool has_data);

void m_wbt_dump(const struct km_rq_wb *rwb, FILE *out);

#endif
