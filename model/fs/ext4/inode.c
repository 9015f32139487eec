// SPDX-License-Identifier: MIT
/*
 * model/fs/ext4/inode.c - ext4's block mapping: ext4_map_blocks as a
 * lookup or an unwritten allocation, and the direct write's
 * iomap_begin.
 *
 * Models fs/ext4/inode.c of v6.18 (kernel-fs.md §1.2): ext4_map_blocks
 * (the first run of blocks in one state under i_data_sem; with
 * EXT4_GET_BLOCKS_CREATE_UNWRIT_EXT a hole becomes unwritten and NEW) and
 * ext4_iomap_begin for a direct write (ext4_iomap_alloc for a hole).
 *
 * Leaves out: the extent status cache, the extent tree and its
 * splitting (the block map is one state per block), delalloc (delalloc
 * blocks read as holes), the journal, bigalloc, inline data, the
 * buffered and DAX mappings.
 */
#include "model/fs/ext4.h"

/**
 * km_ext4_map_blocks - map a logical block range: the first run of blocks
 * in one state.
 * Kernel: fs/ext4/inode.c ext4_map_blocks, v6.18.
 * Context: takes i_data_sem, shared for a lookup, exclusive to allocate.
 * Return: blocks mapped (> 0), 0 for a hole (m_len = hole length), or
 * -errno.  With EXT4_GET_BLOCKS_CREATE_UNWRIT_EXT a hole is allocated as
 * unwritten and reported EXT4_MAP_NEW.
 * Divergences: delalloc blocks read as holes; no extent status cache.
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
	state = (char)sim_word_read(&inode->extent[map->m_lblk]);
	if (state == M_EXT_DELALLOC)
		state = M_EXT_HOLE;
	for (b = map->m_lblk + 1; b < end; b++) {
		char s = (char)sim_word_read(&inode->extent[b]);

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
		for (b = map->m_lblk; b < map->m_lblk + map->m_len; b++)
			sim_word_write(&inode->extent[b], M_EXT_UNWRITTEN);
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
	if (ret == 0 && (flags & IOMAP_WRITE))	/* ext4_iomap_alloc */
		km_ext4_map_blocks(inode, &map,
				   EXT4_GET_BLOCKS_CREATE_UNWRIT_EXT);
	iomap->offset = (loff_t)map.m_lblk << blkbits;
	iomap->length = (loff_t)map.m_len << blkbits;
	iomap->type = (map.m_flags & EXT4_MAP_MAPPED) ? IOMAP_MAPPED :
		      (map.m_flags & EXT4_MAP_UNWRITTEN) ? IOMAP_UNWRITTEN :
		      IOMAP_HOLE;
	iomap->flags = (map.m_flags & EXT4_MAP_NEW) ? IOMAP_F_NEW : 0;
	return 0;
}
