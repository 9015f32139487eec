// SPDX-License-Identifier: MIT
/*
 * model/fs/xfs/xfs_aops.c - the address_space operations of an XFS file.
 *
 * Models fs/xfs/xfs_aops.c of v6.18 as far as the model's page cache
 * calls it: xfs_address_space_operations (->read_folio =
 * xfs_vm_read_folio, ->writepages = xfs_vm_writepages, ->dirty_folio =
 * iomap_dirty_folio, ->release_folio = iomap_release_folio) and the
 * writeback ops iomap_writepages calls back: the range's mapping
 * (xfs_writeback_range -> xfs_map_blocks, allocating delalloc blocks:
 * xfs_bmapi_convert_delalloc), the choice of the ioend's completion
 * context (xfs_writeback_submit: xfs_ioend_needs_wq_completion) and the
 * completion that needs a task (xfs_end_bio -> xfs_end_io ->
 * xfs_end_ioend: unwritten extents converted, xfs_iomap_write_unwritten;
 * the on-disk size logged, xfs_setfilesize).
 *
 * On the timed device an ioend of the merging writeback
 * (model/fs/iomap/ioend.c, `wpsim fio` on XFS) that needs a task is
 * queued by xfs_end_bio in the interrupt on the inode's list, and the
 * inode's one work item (xfs_end_io) takes the list whole, sorts it,
 * merges contiguous ioends and completes them one after the other: one
 * kworker at a time per inode, as the kernel's work item never runs
 * twice at once.
 *
 * Where v6.18 completes a buffered ioend (docs/model/xfs_aops.md,
 * "Completion context"): an append (io_offset + io_size > i_disk_size),
 * unwritten, shared or DONTCACHE ioend gets bi_end_io = xfs_end_bio,
 * which queues it to the inode's ioend list and the m_unwritten_workqueue
 * kworker; any other ioend (an overwrite of written blocks inside the
 * on-disk size) keeps iomap's ioend_writeback_end_bio and ends writeback
 * in the interrupt: no kworker, no ILOCK, in_task() false (a dropbehind
 * folio in it is not dropped: folio_end_dropbehind).
 *
 * Leaves out: the writeback context's cached mapping and its sequence
 * checks, COW fork (IOMAP_IOEND_SHARED) and zoned writeback, the
 * per-inode ioend list where it is not used: untimed, the completion
 * event runs the ioend's completion itself, in task context (one
 * completion step per bio for the exploration: model/block/bio.c), and
 * the per-run writeback of a mapping without ioend merging
 * (model/fs/iomap/buffered-io.c) spawns one kworker per bio on the timed
 * device; the shutdown and error cleanup of
 * xfs_end_ioend (an error only ends writeback), memalloc_nofs, i_size
 * updates at completion (the model raises i_size in the write),
 * direct_IO, swap, migrate_folio.
 */
#include "model/fs/xfs.h"
#include "model/linux/workqueue.h"
#include "sim/clock.h"

/* xfs_vm_read_folio: iomap_read_folio with xfs_read_iomap_ops. */
static int xfs_vm_read_folio(struct km_folio *folio)
{
	return km_iomap_read_folio(folio, &m_xfs_read_iomap_ops);
}

/* xfs_vm_readahead: iomap_readahead with xfs_read_iomap_ops. */
static void xfs_vm_readahead(struct km_readahead_control *rac)
{
	km_iomap_readahead(rac, &m_xfs_read_iomap_ops);
}

/*
 * xfs_ioend_is_append (v6.18): "fast and loose" — the ioend's end
 * against the on-disk size, read without the ILOCK.
 */
static bool xfs_ioend_is_append(struct km_inode *inode, loff_t offset,
				loff_t size)
{
	return offset + size > (loff_t)sim_word_read(&inode->i_disksize);
}

/**
 * km_xfs_ioend_needs_wq_completion - must this ioend complete in a task?
 * Kernel: fs/xfs/xfs_aops.c xfs_ioend_needs_wq_completion, v6.18 (the
 * DONTCACHE case from Jens Axboe's "iomap: don't lose folio dropbehind
 * state for overwrites", posted 2025-05-27).
 * Context: the writeback task, at submission (xfs_writeback_submit).
 * Return: true, in this order, when the ioend is an append (changing
 * the on-disk size needs a transaction), unwritten or shared (extent
 * manipulation needs one), or DONTCACHE (page cache invalidation cannot
 * be done in IRQ context); else false: the bio ends in the interrupt.
 * Divergences: no IOMAP_IOEND_SHARED (no reflink in the model).
 */
bool km_xfs_ioend_needs_wq_completion(struct km_inode *inode, loff_t offset,
				      loff_t size, unsigned int io_flags)
{
	/* A new on-disk size is logged in a transaction. */
	if (xfs_ioend_is_append(inode, offset, size))
		return true;
	/* So is an extent conversion (no SHARED: no COW here). */
	if (io_flags & IOMAP_IOEND_UNWRITTEN)
		return true;
	/* Invalidating a dropbehind folio needs task context. */
	if (io_flags & IOMAP_IOEND_DONTCACHE)
		return true;
	return false;
}

/**
 * km_xfs_end_ioend - the task-context completion of an ioend that
 * completed without error.
 * Kernel: fs/xfs/xfs_aops.c xfs_end_ioend, v6.18, from the xfs_end_io
 * kworker (xfs_end_bio queued it).
 * Context: task (the kworker; untimed, the completion event standing in
 * for it); takes the ILOCK (i_data_sem) exclusive only for the work
 * there is: the unwritten conversion (xfs_iomap_write_unwritten, which
 * also moves i_disk_size in its transaction) when the ioend is
 * unwritten, then xfs_setfilesize when it still ends past i_disk_size
 * (xfs_ioend_is_append, read again without the lock).
 * Return: none; the caller ends writeback (iomap_finish_ioends).
 * Divergences: no shutdown check, no COW (IOMAP_IOEND_SHARED) or zoned
 * completion, no error path (the caller handles the bio's error before
 * calling); the kernel's transactions are the model's log items
 * (m_xfs_log_alloc_change).
 */
static void km_xfs_end_ioend(struct km_inode *inode, loff_t offset,
			     loff_t size, unsigned int io_flags)
{
	if (io_flags & IOMAP_IOEND_UNWRITTEN)
		m_xfs_end_ioend_convert(inode, offset, size);
	if (xfs_ioend_is_append(inode, offset, size))
		m_xfs_setfilesize(inode, offset, size);
}

/*
 * The inode's ioend work item (ip->i_ioend_work on
 * mp->m_unwritten_workqueue): its pending bit (WORK_STRUCT_PENDING) and
 * whether a worker executes it (the pool's busy hash), kept under
 * i_ioend_lock in the model.
 */
#define M_XFS_IOEND_WORK_PENDING	1u
#define M_XFS_IOEND_WORK_EXECUTING	2u

/* ip->i_ioend_lock, registered at its first use (a timed run's first
 * queued ioend), so that no other object's id moves without it. */
static struct sim_spinlock *xfs_ioend_lock(struct km_inode *ip)
{
	if (!ip->i_ioend_lock.word.id)
		sim_spin_init(&ip->i_ioend_lock, "%s.i_ioend_lock", ip->name);
	return &ip->i_ioend_lock;
}

/*
 * xfs_end_ioend (v6.18) for one ioend of the list, merged ones
 * included: the bio's status, else the unwritten conversion and the size
 * (km_xfs_end_ioend, over the merged range), then iomap_finish_ioends.
 */
static void xfs_end_ioend(struct m_ioend *ioend)
{
	int error = ioend->io_error;

	if (!error)
		km_xfs_end_ioend(ioend->io_inode, ioend->io_offset,
				 (loff_t)ioend->io_size, ioend->io_flags);
	km_iomap_finish_ioends(ioend, error);
}

/**
 * km_xfs_end_io - the inode's ioend work item: complete every queued
 * ioend.
 * Kernel: fs/xfs/xfs_aops.c xfs_end_io, v6.18, run by a kworker of
 * m_unwritten_workqueue as ip->i_ioend_work (kernel/workqueue.c
 * process_one_work: the pending bit is cleared as the work starts; a work
 * item queued while it executes runs again after it, on the same
 * worker, never twice at once).
 * Context: task (the kworker "kworker/xfs-conv"); takes i_ioend_lock,
 * then per ioend what xfs_end_ioend takes (the ILOCK for a conversion or
 * a new on-disk size) and the folio trylocks of the drop behind.
 * Return: none.  Under i_ioend_lock the list is taken whole
 * (list_replace_init); outside it, sorted by offset (iomap_sort_ioends),
 * and each ioend, with those that continue it merged in
 * (iomap_ioend_try_merge), completed (xfs_end_ioend).  Then, if the work
 * was queued again meanwhile, once more.
 * Divergences: the worker is a task spawned when the work is queued and
 * not executing, not a pool's kworker; the work's state is kept under
 * i_ioend_lock (the kernel's are atomic bits of the work_struct); no
 * memalloc_nofs, no zoned or COW ioends, no shutdown check.
 */
static void km_xfs_end_io(void *arg)
{
	struct km_inode *ip = arg;
	struct sim_spinlock *lock = xfs_ioend_lock(ip);
	struct m_ioend *tmp, *ioend;

	for (;;) {
		sim_spin_lock(lock);
		ip->i_ioend_work &= ~M_XFS_IOEND_WORK_PENDING;
		tmp = ip->i_ioend_list;
		ip->i_ioend_list = NULL;
		sim_spin_unlock(lock);

		km_iomap_sort_ioends(&tmp);
		while ((ioend = tmp)) {
			tmp = ioend->io_list;
			ioend->io_list = NULL;
			km_iomap_ioend_try_merge(ioend, &tmp);
			xfs_end_ioend(ioend);
			sim_preempt_point();	/* cond_resched() */
		}

		sim_spin_lock(lock);
		if (!(ip->i_ioend_work & M_XFS_IOEND_WORK_PENDING)) {
			ip->i_ioend_work = 0;
			sim_spin_unlock(lock);
			return;
		}
		sim_spin_unlock(lock);
	}
}

/**
 * km_xfs_end_bio - the bi_end_io of an ioend that completes in a task:
 * queue it on the inode's list for the inode's work item.
 * Kernel: fs/xfs/xfs_aops.c xfs_end_bio, v6.18.
 * Context: the bio's completion (the interrupt); takes i_ioend_lock
 * (spin_lock_irqsave).
 * Return: none.  If the list was empty the work item is queued
 * (queue_work: set pending unless it is; a worker starts it unless one
 * executes it, which then runs it again); the ioend goes to the tail.
 * Divergences: no zone append (no realtime device); the ioend carries
 * its bio's status and folios (model/fs/iomap/ioend.c), the bio itself
 * is put when this returns.  Used on the timed device only: untimed, the
 * completion event runs the ioend's completion itself, in task context,
 * one ioend per event (the exploration keeps one completion step per
 * bio).  The worker task is spawned after i_ioend_lock is dropped (the
 * kernel's queue_work is under it; the bits it sets are set under it
 * here), on the CPU m_queue_work_percpu chooses (model/kernel/
 * workqueue.c: the completion's CPU when the device names its
 * interrupt's, irq_cpu; else a free one).
 */
static void km_xfs_end_bio(struct m_ioend *ioend)
{
	struct km_inode *ip = ioend->io_inode;
	struct sim_spinlock *lock = xfs_ioend_lock(ip);
	struct m_ioend **tail;
	bool start = false;

	sim_spin_lock(lock);
	if (!ip->i_ioend_list &&
	    !(ip->i_ioend_work & M_XFS_IOEND_WORK_PENDING)) {
		start = !(ip->i_ioend_work & M_XFS_IOEND_WORK_EXECUTING);
		ip->i_ioend_work |= M_XFS_IOEND_WORK_PENDING |
				    M_XFS_IOEND_WORK_EXECUTING;
	}
	for (tail = &ip->i_ioend_list; *tail; tail = &(*tail)->io_list)
		;
	ioend->io_list = NULL;
	*tail = ioend;
	sim_spin_unlock(lock);
	if (start)
		m_queue_work_percpu("kworker/xfs-conv", km_xfs_end_io, ip);
}

/* xfs_writeback_range's mapping, xfs_writeback_submit's choice of
 * completion, xfs_end_ioend, and (timed) xfs_end_bio. */
static const struct km_iomap_writeback_ops xfs_writeback_ops = {
	.writeback_range = m_xfs_writeback_allocate,
	.ioend_needs_wq = km_xfs_ioend_needs_wq_completion,
	.ioend_done = km_xfs_end_ioend,
	.end_bio = km_xfs_end_bio,
};

/* The writethrough bios' completion converts like an ioend (seed 000). */
const struct km_iomap_writeback_ops *const m_xfs_writeback_ops =
	&xfs_writeback_ops;

/* xfs_vm_writepages: xfs_iflags_clear(ip, XFS_ITRUNCATED), then
 * iomap_writepages with XFS's writeback ops. */
static int xfs_vm_writepages(struct km_address_space *mapping,
			     struct km_writeback_control *wbc)
{
	m_xfs_iflags_clear_truncated(mapping->host);
	return km_iomap_writepages(mapping, wbc, &xfs_writeback_ops);
}

const struct km_address_space_operations m_xfs_aops = {
	.dirty_folio = km_iomap_dirty_folio,
	.writepages = xfs_vm_writepages,
	.read_folio = xfs_vm_read_folio,
	.readahead = xfs_vm_readahead,
	.release_folio = km_iomap_release_folio,
	.is_partially_uptodate = km_iomap_is_partially_uptodate,
};
