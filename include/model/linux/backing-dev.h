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

struct km_bdi_writeback {
	struct sim_word stat[NR_WB_STAT_ITEMS];
	/* Dirty throttling: pages (dirty + writeback) before writers wait;
	 * 0 = no limit.  Writers waiting sleep on throttle_wait. */
	struct sim_word dirty_limit;
	struct sim_waitq throttle_wait;
};

struct km_node {
	struct sim_word stat[NR_NODE_STAT_ITEMS];
};

const char *m_wb_stat_name(enum km_wb_stat_item item);
const char *m_node_stat_name(enum km_node_stat_item item);

#endif
