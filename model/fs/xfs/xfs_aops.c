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
 * xfs_bmapi_convert_delalloc) and the ioend's completion (xfs_end_ioend:
 * unwritten extents converted, xfs_iomap_write_unwritten).
 *
 * Leaves out: the writeback context's cached mapping and its sequence
 * checks, COW fork and zoned writeback, ioend merging, the choice between
 * completing in the interrupt and in the ioend workqueue (the model's
 * bios ask for a task: model/fs/iomap/buffered-io.c), i_size updates at
 * completion (the model raises i_size in the write), direct_IO, swap,
 * migrate_folio, readahead.
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
 * xfs_end_ioend (v6.18), for an ioend that completed without error: its
 * unwritten blocks converted (xfs_iomap_write_unwritten), then, when it
 * ends past the on-disk size (xfs_ioend_is_append: read without the
 * ILOCK), xfs_setfilesize.
 */
static void xfs_end_ioend(struct km_inode *inode, loff_t pos, loff_t len)
{
	m_xfs_end_ioend_convert(inode, pos, len);
	if (pos + len > (loff_t)sim_word_read(&inode->i_disksize))
		m_xfs_setfilesize(inode, pos, len);
}

/* xfs_writeback_range's mapping and xfs_end_ioend. */
static const struct km_iomap_writeback_ops xfs_writeback_ops = {
	.writeback_range = m_xfs_writeback_allocate,
	.ioend_done = xfs_end_ioend,
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
