// SPDX-License-Identifier: MIT
/*
 * model/fs/xfs/xfs_bmap_util.c - allocating the blocks of a range
 * (fallocate) and freeing them (hole punch).
 *
 * Models fs/xfs/xfs_bmap_util.c of v6.18: xfs_alloc_file_space (holes
 * and delalloc blocks of the range allocated unwritten, as
 * xfs_bmapi_write with XFS_BMAPI_PREALLOC does: class H of
 * docs/model/fidelity.md), xfs_flush_unmap_range (write
 * back and drop the page cache over the range rounded out to the larger
 * of the allocation unit and the page) and xfs_free_file_space (free the
 * blocks the range covers whole, zero the partial ones through the page
 * cache with xfs_zero_range, write back a zeroed EOF page).  Issue 30
 * items 2 and 3.  xfs_bmap_punch_delalloc_range (a short buffered
 * write's unused reservation, class Y).
 *
 * Leaves out: the extent tree and its transactions (the model's block
 * map, model/fs/xfs/xfs_iomap.c, is changed in one section under the
 * ILOCK where the kernel unmaps extent by extent, xfs_unmap_extent),
 * quota, realtime and zoned allocation (the allocation unit is the
 * block), extent size hints, ENOSPC, layout breaking.
 */
#include <limits.h>

#include "model/fs/xfs.h"
#include "model/linux/mm.h"
#include "model/linux/pagemap.h"
#include "model/world.h"

/**
 * km_xfs_alloc_file_space - preallocate [@offset, @offset + @len):
 * every block of it that has no disk block gets one, unwritten.
 * Kernel: fs/xfs/xfs_bmap_util.c xfs_alloc_file_space ->
 * fs/xfs/libxfs/xfs_bmap.c xfs_bmapi_write(XFS_BMAPI_PREALLOC), v6.18.
 * Context: IOLOCK held exclusive by the caller; takes the ILOCK
 * (i_data_sem) exclusive.
 * From the block of @offset (XFS_B_TO_FSBT) to the block of the last byte
 * (XFS_B_TO_FSB of the end), block by block: a hole is allocated
 * unwritten; so is a delalloc block (a buffered write's reservation not
 * yet written back): xfs_bmapi_write allocates the part of a delalloc
 * extent inside the range (bma.wasdel, its length cut at the range's
 * end) and xfs_bmapi_allocate gives a PREALLOC allocation the unwritten
 * state, so the dirty folios over it are later written into unwritten
 * blocks and converted at the ioend's completion (class H of
 * docs/model/fidelity.md).  Written and unwritten blocks are left.
 * Return: 0, -EINVAL for an empty range, or -ENOSPC when the free-space
 * count is kept and cannot cover the range's holes.
 * Divergences: the range is done in one section under the ILOCK (the
 * kernel runs a transaction per xfs_bmapi_write call, one extent each,
 * each reserving its blocks: an -ENOSPC there leaves the extents already
 * allocated, here nothing is); the reservation is the data blocks (no
 * XFS_DIOSTRAT_SPACE_RES btree blocks); no log item for it (timed mode:
 * the allocation does not pin the inode for fsync, as the model's hole
 * allocation never did); no quota, extent size hint, realtime or
 * always-COW; the delalloc reservation's accounting (i_delayed_blks) is
 * the block map itself.
 */
int km_xfs_alloc_file_space(struct km_inode *inode, loff_t offset,
			    loff_t len)
{
	unsigned long first, last;

	if (len <= 0)
		return -KM_EINVAL;
	first = (unsigned long)(offset >> inode->i_blkbits);
	last = (unsigned long)((offset + len - 1) >> inode->i_blkbits);
	km_down_write(&inode->i_data_sem);	/* xfs_ilock(ILOCK_EXCL) */
	/* xfs_trans_alloc_inode(resblks): xfs_dec_fdblocks for the holes
	 * (a delalloc block's reservation is already taken); -ENOSPC
	 * allocates nothing. */
	if (m_xfs_fdblocks_counted()) {
		unsigned long holes = 0;
		int error;

		for (unsigned long b = first; b <= last &&
		     b < inode->nr_blocks; b++)
			holes += m_extent_read(inode, b) == M_EXT_HOLE;
		error = holes ? km_xfs_dec_freecounter(holes, false) : 0;
		if (error) {
			km_up_write(&inode->i_data_sem);
			return error;
		}
	}
	for (unsigned long b = first; b <= last && b < inode->nr_blocks; b++) {
		char state = m_extent_read(inode, b);

		/* xfs_bmapi_write: need_alloc (a hole) or wasdelay. */
		if (state == M_EXT_HOLE || state == M_EXT_DELALLOC)
			m_extent_write(inode, b, M_EXT_UNWRITTEN);
	}
	km_up_write(&inode->i_data_sem);
	return 0;
}

/**
 * km_xfs_flush_unmap_range - write back and drop the page cache over
 * [@offset, @offset + @len) rounded out to max(block, page).
 * Kernel: fs/xfs/xfs_bmap_util.c xfs_flush_unmap_range, v6.18.
 * Context: IOLOCK and MMAPLOCK held exclusive by the caller.
 * Return: 0 or the writeback error.
 * Divergences: the allocation unit is the block (no realtime extents).
 */
int km_xfs_flush_unmap_range(struct km_inode *inode, loff_t offset,
			     loff_t len)
{
	loff_t bsize = (loff_t)1 << inode->i_blkbits;
	loff_t rounding = bsize > (loff_t)PAGE_SIZE ? bsize : (loff_t)PAGE_SIZE;
	loff_t start = offset / rounding * rounding;
	loff_t end = (offset + len + rounding - 1) / rounding * rounding - 1;
	int error;

	error = km_filemap_write_and_wait_range(km_inode_mapping(inode), start,
						end);
	if (error)
		return error;
	km_truncate_pagecache_range(inode, start, end);
	return 0;
}

/**
 * km_xfs_free_file_space - punch [@offset, @offset + @len): free the
 * blocks it covers whole, zero the rest of it.
 * Kernel: fs/xfs/xfs_bmap_util.c xfs_free_file_space, v6.18.
 * Context: IOLOCK and MMAPLOCK held exclusive by the caller; takes the
 * ILOCK (i_data_sem) to change the block map.
 * Return: 0 or -errno (the flush's writeback error).
 * Divergences: the blocks are unmapped in one section under the ILOCK
 * (the kernel's xfs_unmap_extent runs a transaction per extent); no
 * quota attach.
 */
int km_xfs_free_file_space(struct km_inode *inode, loff_t offset, loff_t len)
{
	loff_t bsize = (loff_t)1 << inode->i_blkbits;
	loff_t start, end, isize;
	int error;

	if (len <= 0)
		return 0;
	error = km_xfs_flush_unmap_range(inode, offset, len);
	if (error)
		return error;
	/* XFS_B_TO_FSB rounds the start up, XFS_B_TO_FSBT the end down. */
	start = (offset + bsize - 1) / bsize * bsize;
	end = (offset + len) / bsize * bsize;
	if (end > start)
		m_xfs_unmap_blocks(inode, start, end - start);
	/* The partial blocks: zeroed, never past EOF (i_size unchanged). */
	isize = km_i_size_read(inode);
	if (offset >= isize)
		return 0;
	if (offset + len > isize)
		len = isize - offset;
	km_xfs_zero_range(inode, offset, len);
	/* Zeroed up to an EOF inside a page: write the EOF page back. */
	if (offset + len >= isize && ((offset + len) & (PAGE_SIZE - 1)))
		error = km_filemap_write_and_wait_range(
			km_inode_mapping(inode),
			(offset + len) & ~(loff_t)(PAGE_SIZE - 1), LLONG_MAX);
	return error;
}

/**
 * km_xfs_bmap_punch_delalloc_range - the delalloc blocks of
 * [@start_byte, @end_byte) go back to holes.
 * Kernel: fs/xfs/xfs_bmap_util.c xfs_bmap_punch_delalloc_range, v6.18
 * (XFS_DATA_FORK, no zoned context): from the block of @start_byte
 * (XFS_B_TO_FSBT, rounded down) to the block holding the range's last
 * byte (XFS_B_TO_FSB of @end_byte, rounded up), every delalloc extent
 * part is removed (xfs_bmap_del_extent_delay); other extents are left.
 * Context: takes the ILOCK (i_data_sem) exclusive.
 * Return: none.
 * Divergences: block by block in one section under the ILOCK (the
 * kernel walks the extent records backwards from the end); the
 * reservation's accounting (i_delayed_blks, quota) is the block map
 * itself; the free-space count, when kept, gets the blocks back at once.
 */
void km_xfs_bmap_punch_delalloc_range(struct km_inode *inode,
				      loff_t start_byte, loff_t end_byte)
{
	unsigned long n;

	if (end_byte <= start_byte)
		return;
	km_down_write(&inode->i_data_sem);	/* xfs_ilock(ILOCK_EXCL) */
	n = m_xfs_extent_set_range(inode, start_byte, end_byte - start_byte,
				   M_EXT_DELALLOC, M_EXT_HOLE);
	/* xfs_bmap_del_extent_delay: xfs_add_fdblocks of the reservation,
	 * when the world keeps the free-space count (xfs_mount.c). */
	if (n && m_xfs_fdblocks_counted())
		km_xfs_add_freecounter(n);
	km_up_write(&inode->i_data_sem);
}
