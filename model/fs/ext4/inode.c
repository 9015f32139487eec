// SPDX-License-Identifier: MIT
/*
 * model/fs/ext4/inode.c - ext4's block mapping: ext4_map_blocks as a
 * lookup or an unwritten allocation, the direct write's iomap_begin,
 * and truncate(2) (the size part of ext4_setattr).
 *
 * Models fs/ext4/inode.c of v6.18 (kernel-fs.md §1.2): ext4_map_blocks
 * (the first run of blocks in one state under i_data_sem; with
 * EXT4_GET_BLOCKS_CREATE_UNWRIT_EXT a hole becomes unwritten and NEW) and
 * ext4_iomap_begin for a direct write (ext4_iomap_alloc for a hole);
 * ext4_setattr for ATTR_SIZE (i_disksize and i_size set together under
 * i_data_sem, inode_dio_wait only when shrinking) with ext4_truncate
 * reduced to freeing the blocks past the new size.
 *
 * With the world's free-cluster count (model/fs/ext4/balloc.c), an
 * allocation claims its clusters and truncate gives them back.
 *
 * Leaves out: the extent status cache, the extent tree and its
 * splitting (the block map is one state per block), delalloc (delalloc
 * blocks read as holes), the journal, bigalloc, inline data, the
 * buffered and DAX mappings; in ext4_setattr the journal (handle,
 * orphan list, ordered-data truncate, fast commit), the layout breaking,
 * timestamps and the other attributes.
 */
#include "model/fs/xfs.h"
#include "model/fs/ext4.h"
#include "model/linux/mm.h"

/**
 * km_ext4_map_blocks - map a logical block range: the first run of blocks
 * in one state.
 * Kernel: fs/ext4/inode.c ext4_map_blocks, v6.18.
 * Context: takes i_data_sem, shared for a lookup, exclusive to allocate.
 * Return: blocks mapped (> 0), 0 for a hole (m_len = hole length), or
 * -errno.  With EXT4_GET_BLOCKS_CREATE_UNWRIT_EXT a hole is allocated as
 * unwritten and reported EXT4_MAP_NEW; with the world's free-cluster
 * count kept, its clusters are claimed first (ext4_mb_new_blocks: the
 * length halved until the claim succeeds, so the allocation may be
 * shorter than the hole), -ENOSPC when not one is free.
 * Divergences: delalloc blocks read as holes; no extent status cache;
 * the claim and the allocation are one section under i_data_sem (the
 * kernel's ext4_mb_new_blocks claims under it too, then allocates).
 */
int km_ext4_map_blocks(struct km_inode *inode, struct km_ext4_map_blocks *map,
		       int flags)
{
	unsigned long b, end = map->m_lblk + map->m_len;
	char state;

	if (end > inode->nr_blocks)
		end = inode->nr_blocks;
	if (flags & EXT4_GET_BLOCKS_CREATE_UNWRIT_EXT)
		km_down_write(&inode->i_data_sem);
	else
		km_down_read(&inode->i_data_sem);
	state = m_extent_read(inode, map->m_lblk);
	if (state == M_EXT_DELALLOC)
		state = M_EXT_HOLE;
	for (b = map->m_lblk + 1; b < end; b++) {
		char s = m_extent_read(inode, b);

		if (s == M_EXT_DELALLOC)
			s = M_EXT_HOLE;
		if (s != state)
			break;
	}
	map->m_len = (unsigned int)(b - map->m_lblk);
	map->m_flags = 0;
	if (state == M_EXT_WRITTEN) {
		map->m_flags = EXT4_MAP_MAPPED;
	} else if (state == M_EXT_UNWRITTEN) {
		map->m_flags = EXT4_MAP_UNWRITTEN;
	} else if (flags & EXT4_GET_BLOCKS_CREATE_UNWRIT_EXT) {
		/* ext4_ext_map_blocks -> ext4_mb_new_blocks (mballoc.c):
		 * without delalloc the clusters are claimed first, the
		 * length halved until the claim succeeds; none: -ENOSPC. */
		if (m_ext4_clusters_counted()) {
			unsigned int len = map->m_len;

			while (len && km_ext4_claim_free_clusters(len, 0))
				len >>= 1;
			if (!len) {
				km_up_write(&inode->i_data_sem);
				return -KM_ENOSPC;
			}
			map->m_len = len;
		}
		for (b = map->m_lblk; b < map->m_lblk + map->m_len; b++)
			m_extent_write(inode, b, M_EXT_UNWRITTEN);
		map->m_flags = EXT4_MAP_UNWRITTEN | EXT4_MAP_NEW;
	}
	if (flags & EXT4_GET_BLOCKS_CREATE_UNWRIT_EXT)
		km_up_write(&inode->i_data_sem);
	else
		km_up_read(&inode->i_data_sem);
	if (!map->m_flags)
		return 0;
	return (int)map->m_len;
}

/*
 * ext4_iomap_begin for a DIO write: map, allocating holes unwritten.
 * ext4 decides IOCB_NOWAIT in ext4_dio_write_checks (the mapping never
 * answers -EAGAIN here).  For a DIO read (@flags without IOMAP_WRITE)
 * only the lookup: a hole is IOMAP_HOLE (ext4_set_iomap).
 */
int m_ext4_dio_iomap_begin(struct km_inode *inode, loff_t pos, loff_t len,
			   unsigned int flags, struct km_iomap *iomap)
{
	struct km_ext4_map_blocks map;
	unsigned int blkbits = inode->i_blkbits;
	int ret;

	map.m_lblk = (unsigned long)(pos >> blkbits);
	map.m_len = (unsigned int)(((pos + len + ((loff_t)1 << blkbits) - 1)
				    >> blkbits) - (pos >> blkbits));
	ret = km_ext4_map_blocks(inode, &map, 0);
	if (ret == 0 && (flags & IOMAP_WRITE)) {	/* ext4_iomap_alloc */
		int retries = 0;
		unsigned int len = map.m_len;

		do {
			map.m_len = len;
			ret = km_ext4_map_blocks(inode, &map,
					EXT4_GET_BLOCKS_CREATE_UNWRIT_EXT);
		} while (ret == -KM_ENOSPC &&
			 km_ext4_should_retry_alloc(&retries));
		if (ret < 0)
			return ret;
	}
	iomap->offset = (loff_t)map.m_lblk << blkbits;
	iomap->length = (loff_t)map.m_len << blkbits;
	iomap->type = (map.m_flags & EXT4_MAP_MAPPED) ? IOMAP_MAPPED :
		      (map.m_flags & EXT4_MAP_UNWRITTEN) ? IOMAP_UNWRITTEN :
		      IOMAP_HOLE;
	iomap->flags = (map.m_flags & EXT4_MAP_NEW) ? IOMAP_F_NEW : 0;
	return 0;
}

/**
 * km_ext4_setattr - truncate(2) of an ext4 file: the ATTR_SIZE part of
 * ext4_setattr.
 * Kernel: fs/ext4/inode.c ext4_setattr, v6.18.
 * Context: takes i_rwsem exclusive (the VFS's do_truncate holds it in
 * the kernel), then, after the DIO wait of a shrink, the mapping's
 * invalidate_lock exclusive (filemap_invalidate_lock) until the blocks
 * are freed, and i_data_sem around the size change.
 * Return: 0.
 * Divergences: no journal: no handle, no orphan list, no
 * ext4_begin_ordered_truncate; no ext4_break_layouts;
 * no ext4_block_truncate_page zeroing the tail of an unaligned old EOF
 * block when growing (block-aligned sizes only are exact); ext4_truncate
 * is reduced to turning the blocks past the new size into holes under
 * i_data_sem.  Growing does not wait for direct I/O in flight, as in the
 * kernel: an AIO completion may run between the i_disksize and the
 * i_size update (scenarios/history/ext4-dio-end-io-vs-truncate-up.litmus).
 */
int km_ext4_setattr(struct km_file *file, loff_t newsize)
{
	struct km_inode *inode = file->f_inode;
	loff_t oldsize, old_disksize;
	bool shrink;

	km_inode_lock(inode);
	oldsize = km_i_size_read(inode);
	shrink = newsize < oldsize;
	/* Blocks are going to be removed from the inode: wait for DIO. */
	if (shrink)
		km_inode_dio_wait(inode);
	km_down_write(&km_inode_mapping(inode)->invalidate_lock);
	if (newsize != oldsize) {
		km_down_write(&inode->i_data_sem);
		old_disksize = (loff_t)sim_word_read(&inode->i_disksize);
		sim_word_write(&inode->i_disksize, (uint64_t)newsize);
		/* i_size under i_data_sem with i_disksize (the kernel's
		 * comment: against ext4_wb_update_i_disksize). */
		km_i_size_write(inode, newsize);
		(void)old_disksize;	/* restored on a journal error */
		km_up_write(&inode->i_data_sem);
		if (!shrink)
			km_pagecache_isize_extended(inode, oldsize, newsize);
	}
	km_truncate_pagecache(inode, km_i_size_read(inode));
	/* ext4_truncate even if the size did not change. */
	if (newsize <= oldsize) {
		unsigned long b = (unsigned long)((newsize +
			((loff_t)1 << inode->i_blkbits) - 1) >>
			inode->i_blkbits);

		unsigned long freed = 0;

		km_down_write(&inode->i_data_sem);
		for (; b < inode->nr_blocks; b++)
			if (m_extent_read(inode, b) != M_EXT_HOLE) {
				m_extent_write(inode, b, M_EXT_HOLE);
				freed++;
			}
		/* ext4_free_blocks: the clusters back to the count. */
		m_ext4_clusters_freed(freed);
		km_up_write(&inode->i_data_sem);
	}
	km_up_write(&km_inode_mapping(inode)->invalidate_lock);
	km_inode_unlock(inode);
	return 0;
}
