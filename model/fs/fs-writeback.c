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
 * wb_check_old_data_flush and wb_check_background_flush; and syncfs's
 * passes over a superblock's inodes, writeback_inodes_sb and
 * sync_inodes_sb with wait_sb_inodes (session 20).  The flusher
 * writes back through the generic do_writepages (mm/page-writeback.c):
 * it knows no filesystem.
 *
 * Writeback of one inode is serialised by I_SYNC in i_state under
 * i_lock (writeback_single_inode, writeback_sb_inodes); the background
 * work item does not run twice at once (a kick while it runs queues it
 * again, to run after it: workqueue non-reentrancy).
 *
 * Leaves out: wb work items other than the background one, their list,
 * waking the flusher from __mark_inode_dirty, the superblock's
 * dirty_inode hook, the b_dirty/b_io/b_more_io inode lists and
 * dirtied_when (the files are walked in index order),
 * writeback of the inode itself (write_inode), sync(2)'s
 * wakeup_flusher_threads, the superblock passes' hand-off to the
 * flusher's work list (the calling task runs them), cgroup writeback,
 * laptop mode, the 100 ms slice of wb_writeback.
 */
#include "model/linux/pagemap.h"
#include "model/linux/writeback.h"
#include "model/lockdep.h"
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

/*
 * __inode_wait_for_writeback: with i_lock held, wait until I_SYNC is
 * clear (i_lock dropped while asleep, taken again to look).
 */
static void inode_wait_for_writeback(struct km_inode *inode)
{
	while (sim_word_read(&inode->i_state) & I_SYNC) {
		sim_spin_unlock(&inode->i_lock);
		sim_bit_wait(&inode->i_state, __I_SYNC, &inode->sync_wait);
		sim_spin_lock(&inode->i_lock);
	}
}

/*
 * inode_sync_complete: with i_lock held, clear I_SYNC and wake its
 * waiters (inode_wake_up_bit).
 */
static void inode_sync_complete(struct km_inode *inode)
{
	/* assert_spin_locked(&inode->i_lock) (fs/fs-writeback.c, v6.18) */
	sim_assert_held(&inode->i_lock);
	sim_bit_clear_and_wake(&inode->i_state, __I_SYNC, &inode->sync_wait);
}

/*
 * __writeback_single_inode: do_writepages, and for WB_SYNC_ALL the wait
 * (filemap_fdatawait: the wait and filemap_check_errors, which returns
 * and clears AS_EIO / AS_ENOSPC), whose error is returned if the write
 * gave none.  I_SYNC is held by the caller.  Not modelled: the
 * I_DIRTY_* clear and re-set, write_inode (review F4.5).
 */
static int writeback_single_inode_locked(struct km_inode *inode,
					 struct km_writeback_control *wbc)
{
	struct km_address_space *mapping = km_inode_mapping(inode);
	int ret;

	/* WARN_ON(!(inode->i_state & I_SYNC)) (v6.18) */
	SIM_ASSERT_MSG(sim_word_peek(&inode->i_state) & I_SYNC,
		       "%s: written back without I_SYNC", inode->name);
	ret = km_do_writepages(mapping, wbc);
	if (wbc->sync_mode == WB_SYNC_ALL) {
		int err;

		km___filemap_fdatawait_range(mapping, 0, -1);
		err = km_filemap_check_errors(mapping);
		if (ret == 0)
			ret = err;
	}
	return ret;
}

/**
 * m_writeback_inode - one flusher pass over an inode.
 * Kernel: fs/fs-writeback.c writeback_single_inode ->
 * __writeback_single_inode, v6.18.
 * Context: takes i_lock; may sleep (writeback, I_SYNC).
 * Return: do_writepages' error, else (WB_SYNC_ALL) the wait's
 * (filemap_fdatawait, which consumes AS_EIO / AS_ENOSPC).
 * Under i_lock: an inode whose writeback is under way (I_SYNC) makes a
 * WB_SYNC_NONE pass return 0 at once, and a WB_SYNC_ALL one wait for it
 * to end; then I_SYNC is set for the pass and cleared (waking the
 * waiters) after it.
 * Divergences: no wb work items, no inode lists: the scenario's flusher
 * task writes back the inode it names; the "inode fully clean" early
 * return is left out (the model never clears I_DIRTY_PAGES, review
 * F4.5: the pass over a clean mapping writes nothing).
 */
int m_writeback_inode(struct km_inode *inode, int sync_mode)
{
	struct km_writeback_control wbc = {
		.sync_mode = (enum km_writeback_sync_modes)sync_mode,
		.nr_to_write = 1L << 30,
		.range_start = 0,
		.range_end = -1,
	};
	int ret = 0;

	sim_spin_lock(&inode->i_lock);
	if (sim_word_read(&inode->i_state) & I_SYNC) {
		if (sync_mode != WB_SYNC_ALL)
			goto out;
		inode_wait_for_writeback(inode);
	}
	sim_word_write(&inode->i_state,
		       sim_word_read(&inode->i_state) | I_SYNC);
	sim_spin_unlock(&inode->i_lock);

	ret = writeback_single_inode_locked(inode, &wbc);

	sim_spin_lock(&inode->i_lock);
	inode_sync_complete(inode);
out:
	sim_spin_unlock(&inode->i_lock);
	return ret;
}

/*
 * writeback_sb_inodes' step for one inode of a WB_SYNC_NONE pass: an
 * inode under writeback (I_SYNC) is skipped (requeue_io); else I_SYNC is
 * set, __writeback_single_inode runs, and I_SYNC is cleared.  Returns
 * false if the inode was skipped.
 */
static bool wb_writeback_one(struct km_inode *inode,
			     struct km_writeback_control *wbc)
{
	sim_spin_lock(&inode->i_lock);
	if (sim_word_read(&inode->i_state) & I_SYNC) {
		sim_spin_unlock(&inode->i_lock);
		return false;
	}
	sim_word_write(&inode->i_state,
		       sim_word_read(&inode->i_state) | I_SYNC);
	sim_spin_unlock(&inode->i_lock);
	writeback_single_inode_locked(inode, wbc);
	sim_spin_lock(&inode->i_lock);
	inode_sync_complete(inode);
	sim_spin_unlock(&inode->i_lock);
	return true;
}

/*
 * wb_check_background_flush -> wb_writeback (for_background): while the
 * dirty count is over bg_thresh, write each file's next chunk
 * (writeback_chunk_size pages, range_cyclic, WB_SYNC_NONE).
 * Kernel: fs/fs-writeback.c, v6.18.
 * Each inode's chunk goes through writeback_sb_inodes' I_SYNC test: an
 * inode whose writeback is under way (m_writeback_inode, a kupdate pass)
 * is skipped.
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

			/* writeback_sb_inodes: an inode under writeback
			 * (I_SYNC) is requeued, not written. */
			wb_writeback_one(w->inodes[f], &wbc);
			/* if (need_resched()) cond_resched() */
			sim_preempt_point();
			progress += chunk - wbc.nr_to_write;
		}
		if (!progress)
			break;
	}
}

/*
 * The background work item's state in wb->flusher_kick: its pending bit
 * (WORK_STRUCT_PENDING) and whether a worker is executing it (the
 * workqueue's busy hash, under pool->lock in the kernel).
 */
#define WB_WORK_PENDING		0
#define WB_WORK_EXECUTING	1

/*
 * The background work item (wb_workfn run for wb_start_background_
 * writeback's wake-up), on a kworker of its own: the pending bit is
 * cleared as it starts (process_one_work), WB_writeback_running is set
 * while it writes back over bg_thresh, and it returns.  A kick that came
 * while it ran set the pending bit again: the same worker runs it once
 * more (a work item never runs twice at once), else it stops executing.
 */
static void wb_bg_workfn(void *arg)
{
	struct km_bdi_writeback *wb = arg;

	do {
		sim_bit_clear(&wb->flusher_kick, WB_WORK_PENDING);
		sim_word_write(&wb->writeback_running, 1);
		wb_background_flush(m_world());
		sim_word_write(&wb->writeback_running, 0);
		sim_preempt_point();	/* process_one_work's cond_resched */
	} while (sim_word_cmpxchg(&wb->flusher_kick, 1u << WB_WORK_EXECUTING,
				  0) != 1u << WB_WORK_EXECUTING);
}

/**
 * km_wb_start_background_writeback - queue the flusher's work for
 * background writeback.
 * Kernel: fs/fs-writeback.c wb_start_background_writeback -> wb_wakeup
 * (mod_delayed_work on bdi_wq), v6.18.
 * Context: any.
 * A kick while the work is pending adds nothing; one while it executes
 * (pending already cleared) makes it pending again, and the executing
 * worker runs it again after the current run (workqueue
 * non-reentrancy); otherwise a worker starts it.
 * Divergences: no tracepoint and no work_lock / WB_registered test; the
 * work item runs in a task spawned when it is queued ("flush-bg"), not
 * in a pool's kworker.
 */
void km_wb_start_background_writeback(struct km_bdi_writeback *wb)
{
	uint64_t old = sim_word_read(&wb->flusher_kick), prev;

	wb->nr_bg_starts++;
	/* One atomic step, as __queue_work under pool->lock. */
	for (;;) {
		if (old & (1u << WB_WORK_PENDING))
			return;
		prev = sim_word_cmpxchg(&wb->flusher_kick, old,
					old | 1u << WB_WORK_PENDING |
					1u << WB_WORK_EXECUTING);
		if (prev == old)
			break;
		old = prev;
	}
	if (!(old & (1u << WB_WORK_EXECUTING)))
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

	wb_writeback_one(inode, &wbc);
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

/* The inodes of @sb's superblock: those with its file operations. */
static bool same_sb(const struct km_inode *inode, const struct km_inode *sb)
{
	return inode && inode->i_fop == sb->i_fop;
}

/**
 * km_writeback_inodes_sb - start writeback of a superblock's dirty inodes.
 * Kernel: fs/fs-writeback.c writeback_inodes_sb ->
 * __writeback_inodes_sb_nr (WB_SYNC_NONE, tagged_writepages, nr_pages
 * get_nr_dirty_pages(), WB_REASON_SYNC) -> wb_writeback ->
 * writeback_sb_inodes, v6.18.
 * Context: task; the WB_SYNC_NONE pass waits on nothing but the folio
 * locks and the bios' queue.
 * Each inode of @sb goes through writeback_sb_inodes' step: one whose
 * writeback is under way (I_SYNC) is requeued, not written; else I_SYNC
 * is set, do_writepages runs with the tagged wbc (the pages dirty when
 * the pass started: tag_pages_for_writeback), and I_SYNC is cleared.
 * Divergences: the work item is run in the calling task, not queued to
 * the flusher and waited for (wb_wait_for_completion: the caller waits
 * either way; the flusher's own passes can run meanwhile, as they can
 * beside the kernel's work item); the inodes in index order (no b_dirty
 * / b_io lists), clean ones included (their pass writes nothing); no
 * bdi_has_dirty_io shortcut; an inode skipped for I_SYNC is not gone
 * back to (the kernel's wb_writeback requeues it to b_more_io and, after
 * a round with no progress, waits for it, inode_sleep_on_writeback, and
 * writes it: here sync_inodes_sb's pass writes it); nr_to_write is not
 * shared between inodes
 * (the dirty count at the start bounds the whole pass in the kernel: no
 * page dirtied after the tag is written either way).
 */
void km_writeback_inodes_sb(struct km_inode *sb)
{
	struct m_world *w = m_world();

	for (unsigned int f = 0; f < w->nr_files; f++) {
		struct km_writeback_control wbc = {
			.sync_mode = WB_SYNC_NONE,
			.tagged_writepages = 1,
			.nr_to_write = 1L << 30,
			.range_start = 0,
			.range_end = -1,
		};

		if (!same_sb(w->inodes[f], sb))
			continue;
		wb_writeback_one(w->inodes[f], &wbc);
	}
}

/*
 * wait_sb_inodes: wait for the writeback under way on each inode of @sb
 * (filemap_fdatawait_keep_errors: the error stays in the mapping for the
 * file's own fsync to report).  Divergences: every inode of the
 * superblock is looked at (the kernel walks s_inodes_wb, the inodes with
 * writeback tags), no s_sync_lock (one syncfs at a time is not needed by
 * anything the model checks: the waits are on the folios).
 */
static void wait_sb_inodes(struct km_inode *sb)
{
	struct m_world *w = m_world();

	for (unsigned int f = 0; f < w->nr_files; f++) {
		if (!same_sb(w->inodes[f], sb))
			continue;
		km___filemap_fdatawait_range(km_inode_mapping(w->inodes[f]),
					     0, -1);
		sim_preempt_point();	/* cond_resched() */
	}
}

/**
 * km_sync_inodes_sb - write and wait on a superblock's dirty inodes.
 * Kernel: fs/fs-writeback.c sync_inodes_sb (WB_SYNC_ALL, for_sync,
 * nr_pages LONG_MAX, WB_REASON_SYNC) -> wb_writeback ->
 * writeback_sb_inodes, then wait_sb_inodes, v6.18.
 * Context: task; waits for an inode's writeback under way (I_SYNC) and
 * for every folio under writeback.
 * Each inode of @sb: a pass under way is waited for (a WB_SYNC_ALL pass
 * never skips an inode), then I_SYNC is set, do_writepages runs with
 * WB_SYNC_ALL, and I_SYNC is cleared; for_sync: no per-inode wait
 * (__writeback_single_inode leaves it to wait_sb_inodes), no error
 * consumed.  Then wait_sb_inodes waits on them all.
 * Divergences: as km_writeback_inodes_sb (the calling task runs the work
 * item); do_writepages' error is dropped, as the kernel's
 * writeback_sb_inodes drops it.
 */
void km_sync_inodes_sb(struct km_inode *sb)
{
	struct m_world *w = m_world();

	for (unsigned int f = 0; f < w->nr_files; f++) {
		struct km_inode *inode = w->inodes[f];
		struct km_writeback_control wbc = {
			.sync_mode = WB_SYNC_ALL,
			.nr_to_write = 1L << 30,
			.range_start = 0,
			.range_end = -1,
		};

		if (!same_sb(inode, sb))
			continue;
		sim_spin_lock(&inode->i_lock);
		inode_wait_for_writeback(inode);
		sim_word_write(&inode->i_state,
			       sim_word_read(&inode->i_state) | I_SYNC);
		sim_spin_unlock(&inode->i_lock);
		km_do_writepages(km_inode_mapping(inode), &wbc);
		sim_spin_lock(&inode->i_lock);
		inode_sync_complete(inode);
		sim_spin_unlock(&inode->i_lock);
	}
	wait_sb_inodes(sb);
}
