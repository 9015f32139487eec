// SPDX-License-Identifier: MIT
/*
 * model/fs/fs-writeback.c - the flusher: one writeback pass over an
 * inode, background writeback over bg_thresh, and the periodic flusher
 * of timed runs.
 *
 * Models fs/fs-writeback.c of v6.18: __mark_inode_dirty (only its
 * I_DIRTY_PAGES effect), writeback_chunk_size, writeback_single_inode ->
 * do_writepages (m_writeback_inode), wb_start_background_writeback ->
 * wb_wakeup, and wb_workfn's wb_do_writeback with
 * wb_check_old_data_flush and wb_check_background_flush.  The flusher
 * writes back through the generic do_writepages (mm/page-writeback.c):
 * it knows no filesystem.
 *
 * Leaves out: wb work items and their list, waking the flusher from
 * __mark_inode_dirty, the superblock's dirty_inode hook, the b_dirty/b_io/b_more_io
 * inode lists and dirtied_when (the files are walked in index order),
 * writeback of the inode itself (write_inode), sync(2) and
 * writeback_inodes_sb, cgroup writeback, laptop mode, the 100 ms slice
 * of wb_writeback.
 */
#include "model/linux/pagemap.h"
#include "model/linux/writeback.h"
#include "model/world.h"
#include "sim/clock.h"

/**
 * km___mark_inode_dirty - mark the inode's dirty state.
 * Kernel: fs/fs-writeback.c, v6.18.
 * Context: takes i_lock.
 * Divergences: only sets the flag under i_lock; no list moves.
 */
void km___mark_inode_dirty(struct km_inode *inode, unsigned int flags)
{
	sim_spin_lock(&inode->i_lock);
	sim_word_write(&inode->i_state, sim_word_read(&inode->i_state) | flags);
	sim_spin_unlock(&inode->i_lock);
}

/**
 * km_writeback_chunk_size - pages a background pass writes of one inode
 * before it looks at the threshold again.
 * Kernel: fs/fs-writeback.c writeback_chunk_size, v6.18 (WB_SYNC_NONE,
 * work->nr_pages LONG_MAX).
 */
long km_writeback_chunk_size(const struct km_bdi_writeback *wb)
{
	unsigned long pages = wb->avg_write_bandwidth / 2;

	/* min(wb->avg_write_bandwidth / 2, global_wb_domain.dirty_limit /
	 * DIRTY_SCOPE) */
	if (pages > wb->thresh / KM_DIRTY_SCOPE)
		pages = wb->thresh / KM_DIRTY_SCOPE;

	return (long)((pages + KM_MIN_WRITEBACK_PAGES) /
		      KM_MIN_WRITEBACK_PAGES * KM_MIN_WRITEBACK_PAGES);
}

/**
 * m_writeback_inode - one flusher pass over an inode.
 * Kernel: fs/fs-writeback.c writeback_single_inode -> do_writepages,
 * v6.18.
 * Divergences: no wb work items, no inode lists: the scenario's flusher
 * task writes back the inode it names.
 */
int m_writeback_inode(struct km_inode *inode, int sync_mode)
{
	struct km_writeback_control wbc = {
		.sync_mode = (enum km_writeback_sync_modes)sync_mode,
		.nr_to_write = 1L << 30,
		.range_start = 0,
		.range_end = -1,
	};
	int ret = km_do_writepages(km_inode_mapping(inode), &wbc);

	if (sync_mode == WB_SYNC_ALL)
		km___filemap_fdatawait_range(km_inode_mapping(inode), 0, -1);
	return ret;
}

/*
 * wb_check_background_flush -> wb_writeback (for_background): while the
 * dirty count is over bg_thresh, write each file's next chunk
 * (writeback_chunk_size pages, range_cyclic, WB_SYNC_NONE).
 * Kernel: fs/fs-writeback.c, v6.18.
 * Divergences: the files in index order, not the b_io list's dirtied_when
 * order; a round that writes nothing ends the pass (the kernel waits for
 * an inode under writeback and goes on); no 100 ms slice per round.
 */
static void wb_background_flush(struct m_world *w)
{
	struct km_bdi_writeback *wb = &w->wb;

	while (km_wb_over_bg_thresh(wb)) {
		long chunk = km_writeback_chunk_size(wb), progress = 0;

		wb->bg_passes++;
		for (unsigned int f = 0; f < w->nr_files; f++) {
			struct km_writeback_control wbc = {
				.sync_mode = WB_SYNC_NONE,
				.nr_to_write = chunk,
				.for_background = 1,
				.range_cyclic = 1,
				.range_end = -1,
			};

			km_do_writepages(km_inode_mapping(w->inodes[f]),
					 &wbc);
			progress += chunk - wbc.nr_to_write;
		}
		if (!progress)
			break;
	}
}

/*
 * The background work item (wb_workfn run for wb_start_background_
 * writeback's wake-up), on a kworker of its own: the pending bit is
 * cleared as it starts, WB_writeback_running is set while it writes back
 * over bg_thresh, and it returns.
 */
static void wb_bg_workfn(void *arg)
{
	struct km_bdi_writeback *wb = arg;

	sim_word_write(&wb->flusher_kick, 0);
	sim_word_write(&wb->writeback_running, 1);
	wb_background_flush(m_world());
	sim_word_write(&wb->writeback_running, 0);
}

/**
 * km_wb_start_background_writeback - queue the flusher's work for
 * background writeback.
 * Kernel: fs/fs-writeback.c wb_start_background_writeback -> wb_wakeup
 * (mod_delayed_work on bdi_wq), v6.18.
 * Divergences: no tracepoint; the work item runs in a task spawned when
 * it is queued ("flush-bg"), not in a pool's kworker; flusher_kick is
 * its pending bit (a kick while it is pending adds nothing).
 */
void km_wb_start_background_writeback(struct km_bdi_writeback *wb)
{
	wb->nr_bg_starts++;
	if (!sim_word_xchg(&wb->flusher_kick, 1))
		sim_task_spawn("flush-bg", wb_bg_workfn, wb);
}

/*
 * wb_check_old_data_flush -> wb_writeback (for_kupdate, WB_SYNC_NONE):
 * one inode's pass; its bios carry REQ_BACKGROUND (wbc_to_write_flags).
 */
static void wb_kupdate_inode(struct km_inode *inode)
{
	struct km_writeback_control wbc = {
		.sync_mode = WB_SYNC_NONE,
		.nr_to_write = 1L << 30,
		.for_kupdate = 1,
		.range_start = 0,
		.range_end = -1,
	};

	km_do_writepages(km_inode_mapping(inode), &wbc);
}

/**
 * m_wb_periodic_flusher - the flusher (wb_workfn), for timed runs: every
 * dirty_writeback_interval (5 s) it reads the dirty page count; once
 * pages have been dirty for dirty_expire_interval (30 s) it writes
 * every file back, WB_SYNC_NONE; with dirty limits, a count over
 * bg_thresh also gets background writeback (wb_check_background_flush).
 * It returns when *@alive reads 0 (the run's workload has ended).
 * Kernel: fs/fs-writeback.c wb_workfn, wb_do_writeback,
 * wb_check_old_data_flush, wb_check_background_flush, v6.18.
 * Divergences: one flusher for the whole world; "dirty for long enough"
 * is measured from the first step the count was non-zero, not per inode
 * (dirtied_when); the writers' kicks run in a task of their own
 * (km_wb_start_background_writeback), which can write back while this
 * one does (the kernel's one work item serialises them); the periodic
 * look comes 5 s after the last one ends, not after the last old-data
 * flush (last_old_flush).
 */
void m_wb_periodic_flusher(struct sim_word *alive)
{
	struct m_world *w = m_world();
	struct km_bdi_writeback *wb = &w->wb;
	uint64_t dirty_since = 0;

	for (;;) {
		uint64_t dirty;

		sim_sleep_ns(M_DIRTY_WRITEBACK_NS);
		if (sim_word_read(alive) == 0)
			return;
		dirty = sim_word_read(&w->node.stat[NR_FILE_DIRTY]);
		if (!dirty) {
			dirty_since = 0;
			continue;
		}
		if (!dirty_since)
			dirty_since = sim_now();
		if (sim_now() - dirty_since >= M_DIRTY_EXPIRE_NS) {
			for (unsigned int f = 0; f < w->nr_files; f++)
				wb_kupdate_inode(w->inodes[f]);
			dirty_since = 0;
		}
		if (wb->tasks && dirty > wb->bg_thresh)
			wb_background_flush(w);
	}
}
