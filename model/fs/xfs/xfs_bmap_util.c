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
	/* ip->i_diflags |= XFS_DIFLAG_PREALLOC, in the transaction. */
	inode->i_xfs_diflag_prealloc = true;
	km_up_write(&inode->i_data_sem);
	return 0;
}

/**
 * km_xfs_can_free_eofblocks - are there blocks past EOF to free?
 * Kernel: fs/xfs/xfs_bmap_util.c xfs_can_free_eofblocks, v6.18.
 * Context: the IOLOCK held exclusive by the caller; takes the ILOCK
 * (i_data_sem) shared for the lookup.
 * Return: false for an empty file without cached pages; for a
 * preallocated file (XFS_DIFLAG_PREALLOC, set by fallocate) whether it
 * has delalloc blocks; else whether it has an extent at or after the
 * block of EOF (XFS_B_TO_FSB of i_size).
 * Divergences: only regular files in the model; the extent list is
 * always read in; no realtime rounding; s_maxbytes is the file's room
 * (nr_blocks): an EOF at its end has nothing past it.  ip->i_delayed_blks
 * (a counter of the whole file's delalloc blocks, read without a lock)
 * is not read: the blocks from the EOF block on are, under the ILOCK
 * (m_xfs_has_extent_from; for a preallocated file the delalloc ones,
 * m_xfs_has_delalloc_from), so delalloc blocks inside EOF alone do not
 * set XFS_EOFBLOCKS_RELEASED (the kernel's release then frees nothing
 * past EOF but sets the flag).  The whole map read as a counter
 * (m_xfs_has_delayed_blks) broke the claims test's linearisations
 * (tests/review/test_claims.c, fsync-vs-appender-livelock): not decided
 * why.
 */
bool km_xfs_can_free_eofblocks(struct km_inode *inode)
{
	loff_t isize = km_i_size_read(inode);
	unsigned long end_fsb = (unsigned long)((isize +
		((loff_t)1 << inode->i_blkbits) - 1) >> inode->i_blkbits);
	bool found;

	/* Zero sized, no cached pages (nor delalloc blocks: none without
	 * a page): nothing. */
	if (isize == 0 &&
	    sim_word_read(&km_inode_mapping(inode)->nrpages) == 0)
		return false;
	if (inode->nr_blocks <= end_fsb)
		return false;
	/* Under the ILOCK shared: a preallocated file only for its
	 * delalloc blocks; any other for an extent from the EOF block. */
	km_down_read(&inode->i_data_sem);
	found = inode->i_xfs_diflag_prealloc ?
		m_xfs_has_delalloc_from(inode, end_fsb) :
		m_xfs_has_extent_from(inode, end_fsb);
	km_up_read(&inode->i_data_sem);
	return found;
}

/**
 * km_xfs_free_eofblocks - free the blocks past EOF.
 * Kernel: fs/xfs/xfs_bmap_util.c xfs_free_eofblocks, v6.18.
 * Context: the IOLOCK held exclusive by the caller; waits for direct
 * I/O (inode_dio_wait); takes the ILOCK (i_data_sem) exclusive.
 * Return: 0.  A preallocated file (XFS_DIFLAG_PREALLOC) only has its
 * delalloc blocks from the block of EOF on punched
 * (xfs_bmap_punch_delalloc_range); any other has every block from the
 * block of EOF (XFS_B_TO_FSB of i_size) on freed
 * (xfs_itruncate_extents_flags to XFS_ISIZE): delalloc reservations and
 * real extents, back to the free-space count when it is kept.  The
 * on-disk size is not changed.
 * Divergences: no quota (xfs_qm_dqattach), no append-only flag; the
 * truncate is one section under the ILOCK (the kernel's
 * xfs_itruncate_extents_flags runs a transaction per extent) and costs
 * nothing in timed mode and logs nothing (no log item: the inode is not
 * pinned for a later fsync); the inode's eofblocks tag is not kept (no
 * blockgc worker).
 */
int km_xfs_free_eofblocks(struct km_inode *inode)
{
	loff_t from, room = (loff_t)inode->nr_blocks << inode->i_blkbits;

	km_inode_dio_wait(inode);
	from = km_i_size_read(inode);
	from = (from + ((loff_t)1 << inode->i_blkbits) - 1) &
	       ~(((loff_t)1 << inode->i_blkbits) - 1);
	if (from >= room)
		return 0;
	if (inode->i_xfs_diflag_prealloc) {
		km_xfs_bmap_punch_delalloc_range(inode, from, room);
		return 0;
	}
	km_down_write(&inode->i_data_sem);	/* xfs_ilock(ILOCK_EXCL) */
	m_xfs_extent_free_range(inode, from, room - from);
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

/*
 * xfs_blockgc_free_space (fs/xfs/xfs_icache.c, v6.18) as the buffered
 * write's -ENOSPC retry calls it (XFS_ICWALK_FLAG_SYNC), for the
 * post-EOF blocks only: each XFS file of the world
 * (xfs_inode_free_eofblocks) whose IOLOCK can be taken without waiting
 * has its blocks past EOF freed when xfs_can_free_eofblocks finds some.
 * Divergences: every XFS inode is looked at (the kernel walks those
 * tagged XFS_ICI_BLOCKGC_TAG, which every reservation with a
 * preallocation tags); a busy IOLOCK skips the inode (the kernel's SYNC
 * walk returns -EAGAIN and walks again, a delay until it is free); no
 * COW blocks (no reflink), no inodes being reclaimed; the flush of the
 * background workers (xfs_blockgc_flush_all) is not modelled (there are
 * none).
 */
void m_xfs_blockgc_free_space(void)
{
	struct m_world *w = m_world();

	for (unsigned int f = 0; f < w->nr_files; f++) {
		struct km_inode *ip = w->inodes[f];

		if (ip->i_fop != &km_xfs_file_operations || ip->i_evicted ||
		    !ip->i_nlink)
			continue;
		if (!km_inode_trylock(ip))	/* xfs_ilock_nowait */
			continue;
		if (km_xfs_can_free_eofblocks(ip))
			km_xfs_free_eofblocks(ip);
		km_inode_unlock(ip);
	}
}
