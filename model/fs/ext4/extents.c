// SPDX-License-Identifier: MIT
/*
 * model/fs/ext4/extents.c - ext4's extent mapping under i_data_sem: the
 * lookup, the allocation of a hole, the split of an unwritten extent
 * before a direct write's I/O and its conversion after.
 *
 * Models fs/ext4/extents.c of v6.18: ext4_ext_map_blocks (the extent
 * that covers the first block, or the hole there; with
 * EXT4_GET_BLOCKS_CREATE a hole is allocated, unwritten with
 * EXT4_GET_BLOCKS_UNWRIT_EXT), ext4_ext_handle_unwritten_extents (an
 * unwritten extent found: split before the I/O with
 * EXT4_GET_BLOCKS_PRE_IO, converted after it with
 * EXT4_GET_BLOCKS_CONVERT, reported unwritten to a lookup),
 * ext4_split_convert_extents and ext4_convert_unwritten_extents_endio (as
 * stores of the range's block states), and ext4_convert_unwritten_extents
 * (the direct write's completion: a journal handle per run of blocks).
 *
 * The block map is one state per block (model/fs/xfs/xfs_iomap.c keeps
 * it): an "extent" is the run of blocks in one state from the block asked
 * for, so a split or a merge of extent records changes no state.  A split
 * is the stores of the states of the blocks it isolates (the same state
 * again: the kernel rewrites the records that cover them, under
 * i_data_sem held for write), so a lookup of those blocks orders against
 * it as it does in the kernel.
 *
 * Leaves out: the extent tree itself (ext4_find_extent's path, index and
 * leaf blocks, depth, ext4_ext_insert_extent, the records' merges), the
 * extent status cache (a lookup always walks the "tree" under i_data_sem
 * shared, where the kernel answers most from ext4_es_lookup_extent with
 * no lock), the journal (a handle is its cost only: no jbd2 state, no
 * credits, no commit), bigalloc's implied clusters, the zeroout of
 * EXT4_EXT_MAY_ZEROOUT, EXT4_GET_BLOCKS_CONVERT_UNWRITTEN (no caller in
 * the model), indirect-mapped files.
 */
#include "model/fs/xfs.h"
#include "model/fs/ext4.h"
#include "model/cost.h"
#include "model/world.h"

/* The run of blocks in @state from @lblk, at most @max long (the
 * extent's remaining length: "allocated" in the kernel).  Delalloc blocks
 * read as holes (the model's ext4 has no delalloc). */
static unsigned int ext4_run(struct km_inode *inode, unsigned long lblk,
			     unsigned int max, char *state)
{
	unsigned long end = lblk + max, b;
	char s0;

	if (end > inode->nr_blocks)
		end = inode->nr_blocks;
	if (lblk >= end) {
		*state = M_EXT_HOLE;
		return 0;
	}
	s0 = m_extent_read(inode, lblk);
	if (s0 == M_EXT_DELALLOC)
		s0 = M_EXT_HOLE;
	for (b = lblk + 1; b < end; b++) {
		char s = m_extent_read(inode, b);

		if (s == M_EXT_DELALLOC)
			s = M_EXT_HOLE;
		if (s != s0)
			break;
	}
	*state = s0;
	return (unsigned int)(b - lblk);
}

/* Store @state into blocks [@lblk, @lblk + @len): the records the kernel
 * rewrites (i_data_sem held for write: lockdep's rule for the map). */
static void ext4_store_run(struct km_inode *inode, unsigned long lblk,
			   unsigned int len, char state)
{
	for (unsigned long b = lblk; b < lblk + len; b++)
		m_extent_write(inode, b, state);
}

/**
 * km_ext4_split_convert_extents - split an unwritten extent so that the
 * blocks a direct write is about to write are one extent of their own.
 * Kernel: fs/ext4/extents.c ext4_split_convert_extents, v6.18 (called
 * with EXT4_GET_BLOCKS_CONVERT and, always, EXT4_GET_BLOCKS_PRE_IO:
 * ext4_split_extent, up to three unwritten extents, none merged back).
 * Context: i_data_sem held for write.
 * Return: 0; *@allocated capped to the blocks of the map.
 * Divergences: the block map has no records: the split is the stores of
 * the isolated blocks' state (unwritten, unchanged); no zeroout
 * (EXT4_EXT_MAY_ZEROOUT), no -ENOSPC for a new leaf (the kernel passes
 * EXT4_GET_BLOCKS_METADATA_NOFAIL).
 */
static int km_ext4_split_convert_extents(struct km_inode *inode,
					 struct km_ext4_map_blocks *map,
					 unsigned int *allocated)
{
	if (*allocated > map->m_len)
		*allocated = map->m_len;
	ext4_store_run(inode, map->m_lblk, *allocated, M_EXT_UNWRITTEN);
	return 0;
}

/**
 * km_ext4_convert_unwritten_extents_endio - mark the unwritten extent a
 * direct write wrote initialized.
 * Kernel: fs/ext4/extents.c ext4_convert_unwritten_extents_endio, v6.18
 * (a larger extent than the I/O's is split first:
 * ext4_split_convert_extents with EXT4_GET_BLOCKS_CONVERT).
 * Context: i_data_sem held for write.
 * Return: 0.
 * Divergences: the extent's blocks written as written (no records to
 * split or merge, ext4_ext_try_to_merge).
 */
static int km_ext4_convert_unwritten_extents_endio(struct km_inode *inode,
						   struct km_ext4_map_blocks *map,
						   unsigned int allocated)
{
	if (allocated > map->m_len)
		allocated = map->m_len;
	ext4_store_run(inode, map->m_lblk, allocated, M_EXT_WRITTEN);
	return 0;
}

/**
 * km_ext4_ext_handle_unwritten_extents - the first block lies in an
 * unwritten extent: split it before the I/O, convert it after, or report
 * it.
 * Kernel: fs/ext4/extents.c ext4_ext_handle_unwritten_extents, v6.18.
 * Context: i_data_sem held (for write with EXT4_GET_BLOCKS_CREATE).
 * Return: the blocks mapped (> 0).  Flags:
 * EXT4_GET_BLOCKS_PRE_IO (a direct write's submission): split,
 * EXT4_MAP_UNWRITTEN | EXT4_MAP_NEW | EXT4_MAP_MAPPED;
 * EXT4_GET_BLOCKS_CONVERT (its completion): converted, EXT4_MAP_MAPPED;
 * EXT4_GET_BLOCKS_UNWRIT_EXT alone: EXT4_MAP_UNWRITTEN | EXT4_MAP_MAPPED;
 * no EXT4_GET_BLOCKS_CREATE (a lookup): EXT4_MAP_UNWRITTEN;
 * EXT4_GET_BLOCKS_CREATE (a write past i_size into an unwritten extent,
 * ext4_iomap_alloc's flag there): converted to written at once
 * (ext4_ext_convert_to_initialized), EXT4_MAP_NEW | EXT4_MAP_MAPPED.
 * Divergences: ext4_ext_convert_to_initialized converts exactly the
 * map's blocks (the kernel may zero out and convert a short unwritten
 * neighbour with them, EXT4_EXT_MAY_ZEROOUT); no -EFSCORRUPTED
 * (allocated == 0 cannot happen in the block map).
 */
static int km_ext4_ext_handle_unwritten_extents(struct km_inode *inode,
						struct km_ext4_map_blocks *map,
						int flags,
						unsigned int *allocated)
{
	/* get_block() before submitting IO, split the extent */
	if (flags & EXT4_GET_BLOCKS_PRE_IO) {
		km_ext4_split_convert_extents(inode, map, allocated);
		map->m_flags |= EXT4_MAP_UNWRITTEN;
		goto out;
	}
	/* IO end_io complete, convert the filled extent to written */
	if (flags & EXT4_GET_BLOCKS_CONVERT) {
		km_ext4_convert_unwritten_extents_endio(inode, map,
							*allocated);
		goto map_out;
	}
	/* repeat fallocate creation request: already unwritten */
	if (flags & EXT4_GET_BLOCKS_UNWRIT_EXT) {
		map->m_flags |= EXT4_MAP_UNWRITTEN;
		goto map_out;
	}
	/* a lookup */
	if (!(flags & EXT4_GET_BLOCKS_CREATE)) {
		map->m_flags |= EXT4_MAP_UNWRITTEN;
		goto out1;
	}
	/* ext4_ext_convert_to_initialized */
	if (*allocated > map->m_len)
		*allocated = map->m_len;
	ext4_store_run(inode, map->m_lblk, *allocated, M_EXT_WRITTEN);
out:
	map->m_flags |= EXT4_MAP_NEW;
map_out:
	map->m_flags |= EXT4_MAP_MAPPED;
out1:
	if (*allocated > map->m_len)
		*allocated = map->m_len;
	map->m_len = *allocated;
	return (int)*allocated;
}

/**
 * km_ext4_ext_map_blocks - map the blocks from map->m_lblk: the extent
 * that covers the first one, or the hole there, allocated with
 * EXT4_GET_BLOCKS_CREATE.
 * Kernel: fs/ext4/extents.c ext4_ext_map_blocks, v6.18.
 * Context: i_data_sem held: shared for a lookup (no
 * EXT4_GET_BLOCKS_CREATE), for write otherwise (ext4_map_blocks takes
 * it).
 * Return: the blocks mapped (> 0: the extent's remaining blocks, at most
 * m_len), 0 for a hole without EXT4_GET_BLOCKS_CREATE (m_len = the
 * hole's length), -ENOSPC when the world keeps a free-cluster count and
 * not one cluster is free.  A written extent: EXT4_MAP_MAPPED; an
 * unwritten one: km_ext4_ext_handle_unwritten_extents; a hole allocated:
 * EXT4_MAP_NEW | EXT4_MAP_MAPPED, with EXT4_MAP_UNWRITTEN under
 * EXT4_GET_BLOCKS_UNWRIT_EXT.
 * Divergences: the extent is the run of blocks in one state (the block
 * map has no records: two adjacent extents in one state are one); the
 * allocation (ext4_mb_new_blocks) claims the hole's clusters, halving the
 * length until the claim succeeds, and takes them in the same section
 * (model/fs/ext4/balloc.c); no goal, no physical blocks.
 */
int km_ext4_ext_map_blocks(struct km_inode *inode,
			   struct km_ext4_map_blocks *map, int flags)
{
	unsigned int allocated;
	char state;

	/* find extent for this block */
	allocated = ext4_run(inode, map->m_lblk, map->m_len, &state);
	if (state == M_EXT_WRITTEN) {
		map->m_flags |= EXT4_MAP_MAPPED;
		map->m_len = allocated;
		return (int)allocated;
	}
	if (state == M_EXT_UNWRITTEN)
		return km_ext4_ext_handle_unwritten_extents(inode, map, flags,
							    &allocated);
	/* requested block isn't allocated yet */
	if (!(flags & EXT4_GET_BLOCKS_CREATE)) {
		map->m_len = allocated;
		return 0;
	}
	map->m_len = allocated;
	/* ext4_mb_new_blocks (mballoc.c): without delalloc the clusters are
	 * claimed first, the length halved until the claim succeeds; none:
	 * -ENOSPC. */
	if (m_ext4_clusters_counted()) {
		unsigned int len = map->m_len;

		while (len && km_ext4_claim_free_clusters(len, 0))
			len >>= 1;
		if (!len)
			return -KM_ENOSPC;
		map->m_len = len;
	}
	if (flags & EXT4_GET_BLOCKS_UNWRIT_EXT) {
		ext4_store_run(inode, map->m_lblk, map->m_len,
			       M_EXT_UNWRITTEN);
		map->m_flags |= EXT4_MAP_UNWRITTEN;
	} else {
		ext4_store_run(inode, map->m_lblk, map->m_len, M_EXT_WRITTEN);
	}
	map->m_flags |= EXT4_MAP_NEW | EXT4_MAP_MAPPED;
	return (int)map->m_len;
}

/**
 * km_ext4_convert_unwritten_extents - convert the unwritten blocks a
 * direct write wrote: a journal handle and an ext4_map_blocks with
 * EXT4_GET_BLOCKS_IO_CONVERT_EXT for each run of blocks in one state.
 * Kernel: fs/ext4/extents.c ext4_convert_unwritten_extents, v6.18
 * (called with no handle by ext4_dio_write_end_io: a handle per run).
 * Context: the direct write's completion; takes i_data_sem (in
 * ext4_map_blocks: shared to look, for write to convert).
 * Return: 0, or the error of ext4_map_blocks.
 * Divergences: a handle is its cost (m_cost_ext4_map_handle; no
 * journal, so no -ENOMEM or journal abort, no ext4_mark_inode_dirty); the
 * kernel's ext4_warning on a zero return is not printed.
 */
int km_ext4_convert_unwritten_extents(struct km_inode *inode, loff_t offset,
				      loff_t len)
{
	unsigned int blkbits = inode->i_blkbits;
	struct km_ext4_map_blocks map;
	unsigned int max_blocks;
	int ret = 0;

	map.m_lblk = (unsigned long)(offset >> blkbits);
	/* EXT4_MAX_BLOCKS(len, offset, blkbits) */
	max_blocks = (unsigned int)(((offset + len +
				      ((loff_t)1 << blkbits) - 1) >> blkbits) -
				    (offset >> blkbits));
	while (ret >= 0 && (unsigned int)ret < max_blocks) {
		map.m_lblk += (unsigned long)ret;
		map.m_len = (max_blocks -= (unsigned int)ret);
		/* ext4_journal_start(EXT4_HT_MAP_BLOCKS) .. _stop */
		m_cost_ext4_map_handle();
		ret = km_ext4_map_blocks(inode, &map,
					 EXT4_GET_BLOCKS_IO_CONVERT_EXT);
		if (ret <= 0)
			break;
	}
	return ret > 0 ? 0 : ret;
}
