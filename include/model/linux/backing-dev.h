/* SPDX-License-Identifier: MIT */
/*
 * Writeback accounting (include/linux/backing-dev-defs.h, mmzone.h),
 * v6.18 plus WB_DONTCACHE_DIRTY (seed 003: v7.3, 88d6f128d06d).
 *
 * One bdi_writeback and one node in the model: the per-wb counters and
 * the node counters the write path keeps.  Each counter is a struct
 * sim_word: the kernel's percpu and atomic counters become exact words
 * whose every update is a scheduling point.
 */
#ifndef WPSIM_MODEL_LINUX_BACKING_DEV_H
#define WPSIM_MODEL_LINUX_BACKING_DEV_H

#include "model/linux/types.h"
#include "sim/shared.h"

enum km_wb_stat_item {
	WB_RECLAIMABLE,
	WB_WRITEBACK,
	WB_DIRTIED,
	WB_WRITTEN,
	WB_DONTCACHE_DIRTY,	/* v7.3; kept only by dontcache >= 7.3 */
	NR_WB_STAT_ITEMS,
};

enum km_node_stat_item {
	NR_FILE_PAGES,
	NR_FILE_DIRTY,
	NR_WRITEBACK,
	NR_DIRTIED,
	NR_WRITTEN,
	NR_ZONE_WRITE_PENDING,	/* a zone stat in the kernel */
	NR_NODE_STAT_ITEMS,
};

/*
 * Per-task dirty-throttling state (struct task_struct's nr_dirtied,
 * nr_dirtied_pause, dirty_paused_when): task-local, so plain fields.
 */
struct km_bdp_task {
	long nr_dirtied;
	long nr_dirtied_pause;
	unsigned long dirty_paused_when;	/* jiffies, 0 = never */
	/* --variant uring=v1 (seed 004 patch 11): the end of an
	 * asynchronous pause, and the window to take then (-1: none). */
	unsigned long bdp_pause;
	long bdp_nr_dirtied_pause;
	bool forked;		/* the fork-time values were set */
};

struct km_bdi_writeback {
	struct sim_word stat[NR_WB_STAT_ITEMS];
	/* The domain's hard dirty limit in pages (global_wb_domain's
	 * dirty_limit; the model's dirtyable memory is constant, so it
	 * equals thresh); 0 = no limit configured: no throttling, no
	 * background threshold.  Writers at the limit sleep on
	 * throttle_wait. */
	struct sim_word dirty_limit;
	struct sim_waitq throttle_wait;
	/*
	 * Only with a limit (the objects are registered only then, so a
	 * world without one is unchanged): domain_dirty_limits' result,
	 * fixed at setup; the bandwidth estimator's state (updated under
	 * list_lock, read lockless as the kernel's READ_ONCE); the
	 * flusher's state bit and work item; the tasks' state.
	 */
	unsigned long thresh, bg_thresh;
	struct sim_spinlock list_lock;
	unsigned long bw_time_stamp;		/* jiffies */
	/* wb->dirty_sleep: the last balance_dirty_pages pause (jiffies,
	 * 0 = none yet), read by blk-wbt's wb_recent_wait. */
	unsigned long dirty_sleep;
	unsigned long dirtied_stamp, written_stamp;
	unsigned long write_bandwidth, avg_write_bandwidth; /* pages/s */
	unsigned long dirty_ratelimit, balanced_dirty_ratelimit;
	bool dirty_exceeded;
	struct sim_word writeback_running;	/* WB_writeback_running */
	/* The background work item's pending bit (a kick spawns it). */
	struct sim_word flusher_kick;
	struct km_bdp_task *tasks;		/* [SIM_TASKS_LIMIT] */
	struct km_bdp_task *tasks_high;		/* [SIM_IDS_LIMIT -
						 * SIM_TASKS_LIMIT]: higher
						 * ids, made on first use */
	/* What the run's throttling did (for wpsim fio's report and the
	 * tests): pauses slept, their total in ns, -EAGAINs, background
	 * writeback starts and chunks, the highest dirty + writeback a
	 * writer saw, and the rounds past the freerun ceiling with the sum
	 * of the dirty + writeback count they saw. */
	uint64_t nr_pauses, pause_ns, nr_eagain, nr_bg_starts;
	uint64_t nr_deferred;	/* uring=v1: asynchronous pauses set */
	uint64_t bg_passes, dirty_max;
	uint64_t rounds, rounds_dirty_sum;	/* rounds past freerun */
};

struct km_node {
	struct sim_word stat[NR_NODE_STAT_ITEMS];
};

const char *m_wb_stat_name(enum km_wb_stat_item item);
const char *m_node_stat_name(enum km_node_stat_item item);

#endif
