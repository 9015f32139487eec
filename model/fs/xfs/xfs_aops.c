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
 * per-inode ioend list, its sorting and merging (iomap_sort_ioends,
 * iomap_ioend_try_merge: the model's timed device spawns one kworker per
 * bio; untimed, the completion event runs the kworker's work itself, in
 * task context: model/block/bio.c), the shutdown and error cleanup of
 * xfs_end_ioend (an error only ends writeback), memalloc_nofs, i_size
 * updates at completion (the model raises i_size in the write),
 * direct_IO, swap, migrate_folio.
 */
#include "model/fs/xfs.h"

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

/* xfs_writeback_range's mapping, xfs_writeback_submit's choice of
 * completion, and xfs_end_ioend. */
static const struct km_iomap_writeback_ops xfs_writeback_ops = {
	.writeback_range = m_xfs_writeback_allocate,
	.ioend_needs_wq = km_xfs_ioend_needs_wq_completion,
	.ioend_done = km_xfs_end_ioend,
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
