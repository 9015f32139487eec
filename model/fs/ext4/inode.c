// SPDX-License-Identifier: MIT
/*
 * model/fs/ext4/inode.c - ext4's block mapping: ext4_map_blocks (a lookup,
 * then the allocation, split or conversion), the direct I/O's
 * iomap_begin, and truncate(2) (the size part of ext4_setattr).
 *
 * Models fs/ext4/inode.c of v6.18 (kernel-fs.md §1.2): ext4_map_blocks
 * (the lookup under i_data_sem shared, then with EXT4_GET_BLOCKS_CREATE
 * and a range not mapped written ext4_ext_map_blocks under i_data_sem
 * held for write: model/fs/ext4/extents.c); ext4_iomap_begin,
 * ext4_iomap_alloc (a journal handle and ext4_map_blocks with
 * EXT4_GET_BLOCKS_IO_CREATE_EXT inside i_size, so an unwritten extent is
 * split at submission and a hole allocated unwritten;
 * EXT4_GET_BLOCKS_CREATE past it) and ext4_iomap_overwrite_begin;
 * ext4_setattr for ATTR_SIZE (i_disksize and i_size set together under
 * i_data_sem, inode_dio_wait only when shrinking) with ext4_truncate
 * reduced to freeing the blocks past the new size.
 *
 * With the world's free-cluster count (model/fs/ext4/balloc.c), an
 * allocation claims its clusters and truncate gives them back.
 *
 * Leaves out: the extent status cache, the extent tree's records (the
 * block map is one state per block: extents.c), delalloc (delalloc
 * blocks read as holes), the journal (a handle is its cost), bigalloc,
 * inline data, the buffered and DAX mappings, atomic writes' mapping;
 * in ext4_setattr the journal (handle, orphan list, ordered-data
 * truncate, fast commit), the layout breaking, timestamps and the other
 * attributes.
 */
#include "model/fs/xfs.h"
#include "model/fs/ext4.h"
#include "model/cost.h"
#include "model/linux/mm.h"
#include "model/world.h"

/**
 * km_ext4_map_blocks - map a logical block range: the first run of blocks
 * in one state, created with EXT4_GET_BLOCKS_CREATE.
 * Kernel: fs/ext4/inode.c ext4_map_blocks, v6.18 (ext4_map_query_blocks
 * and ext4_map_create_blocks for an extent-mapped file).
 * Context: takes i_data_sem: shared for the lookup
 * (ext4_map_query_blocks), then, with EXT4_GET_BLOCKS_CREATE when the
 * range is not mapped written, for write (ext4_map_create_blocks).
 * Return: blocks mapped (> 0), 0 for a hole without
 * EXT4_GET_BLOCKS_CREATE (m_len = hole length), or -errno
 * (km_ext4_ext_map_blocks': -ENOSPC).  A written range returns after the
 * lookup whatever @flags; an unwritten one is split (PRE_IO) or
 * converted (CONVERT) under the write lock; a hole allocated is
 * EXT4_MAP_NEW | EXT4_MAP_MAPPED (and EXT4_MAP_UNWRITTEN under
 * EXT4_GET_BLOCKS_UNWRIT_EXT).
 * Divergences: no extent status cache (the kernel answers a cached
 * range from ext4_es_lookup_extent with no lock; here every lookup walks
 * the block map under i_data_sem shared); delalloc blocks read as holes;
 * no EXT4_GET_BLOCKS_CONVERT_UNWRITTEN, ZERO, CACHED_NOWAIT or
 * QUERY_LAST_IN_LEAF (no caller in the model), no check_block_validity,
 * no fast-commit tracking, no ordered-data jbd2 inode.
 */
int km_ext4_map_blocks(struct km_inode *inode, struct km_ext4_map_blocks *map,
		       int flags)
{
	int retval;

	map->m_flags = 0;
	/* ext4_map_query_blocks: the lookup without allocating. */
	km_down_read(&inode->i_data_sem);
	retval = km_ext4_ext_map_blocks(inode, map, 0);
	km_up_read(&inode->i_data_sem);
	/* If it is only a block(s) look up */
	if (!(flags & EXT4_GET_BLOCKS_CREATE))
		return retval;
	/* Returns if the blocks have already been allocated (written). */
	if (retval > 0 && (map->m_flags & EXT4_MAP_MAPPED))
		return retval;
	/* ext4_map_create_blocks: new blocks, or an unwritten extent to
	 * split or convert, under i_data_sem held for write. */
	km_down_write(&inode->i_data_sem);
	map->m_flags = 0;
	retval = km_ext4_ext_map_blocks(inode, map, flags);
	km_up_write(&inode->i_data_sem);
	return retval;
}

/*
 * ext4_set_iomap (fs/ext4/inode.c, v6.18): the mapping's type, the
 * unwritten bit tested before the mapped one (a split or a new unwritten
 * allocation has both), IOMAP_F_NEW for EXT4_MAP_NEW.  KM: no
 * IOMAP_F_DIRTY (the model's ext4 has no O_DSYNC, the flag's one user).
 */
static void ext4_set_iomap(struct km_inode *inode, struct km_iomap *iomap,
			   const struct km_ext4_map_blocks *map)
{
	unsigned int blkbits = inode->i_blkbits;

	iomap->flags = (map->m_flags & EXT4_MAP_NEW) ? IOMAP_F_NEW : 0;
	iomap->offset = (loff_t)map->m_lblk << blkbits;
	iomap->length = (loff_t)map->m_len << blkbits;
	iomap->type = (map->m_flags & EXT4_MAP_UNWRITTEN) ? IOMAP_UNWRITTEN :
		      (map->m_flags & EXT4_MAP_MAPPED) ? IOMAP_MAPPED :
		      IOMAP_HOLE;
}

/**
 * km_ext4_iomap_alloc - allocate or split the blocks of a direct write
 * that are not mapped written, in a journal handle.
 * Kernel: fs/ext4/inode.c ext4_iomap_alloc, v6.18.
 * Context: a direct write's iomap_begin, i_rwsem held (shared or
 * exclusive); takes i_data_sem (in ext4_map_blocks: shared to look, for
 * write to allocate or split).
 * Return: blocks mapped (> 0) or -errno (-ENOSPC after
 * ext4_should_retry_alloc's tries).  The flags: past i_size (the first
 * block at or beyond it) EXT4_GET_BLOCKS_CREATE, so a hole there is
 * allocated written (NEW); inside it EXT4_GET_BLOCKS_IO_CREATE_EXT, so a
 * hole is allocated unwritten and an unwritten extent is split around
 * the write (PRE_IO), both reported unwritten and NEW.
 * Divergences: the handle is its cost (m_cost_ext4_map_handle, started
 * for each try; no journal: no credits, no -ENOMEM); no IOMAP_DAX, no
 * IOMAP_ATOMIC (ext4_map_blocks_atomic_write, the forced commit); the
 * files are extent-mapped, so the -ENOTBLK of an indirect-mapped hole is
 * never taken; an -ENOSPC retry asks again for the trimmed length (the
 * kernel retries with the map as the failed ext4_map_blocks left it).
 */
static int km_ext4_iomap_alloc(struct km_inode *inode,
			       struct km_ext4_map_blocks *map,
			       unsigned int flags)
{
	unsigned int blkbits = inode->i_blkbits;
	unsigned int len;
	int ret, m_flags, retries = 0;

	(void)flags;	/* IOMAP_DAX, IOMAP_ATOMIC: not modelled */
	/* Trim the mapping request to the most one DIO maps at once. */
	if (map->m_len > EXT4_DIO_MAX_BLOCKS)
		map->m_len = EXT4_DIO_MAX_BLOCKS;
	len = map->m_len;
retry:
	/* ext4_journal_start(inode, EXT4_HT_MAP_BLOCKS, dio_credits) */
	m_cost_ext4_map_handle();
	/* i_size, not i_disksize (the kernel's comment: delalloc writeback
	 * may push i_disksize out during the I/O). */
	if (((loff_t)map->m_lblk << blkbits) >= km_i_size_read(inode))
		m_flags = EXT4_GET_BLOCKS_CREATE;
	else
		m_flags = EXT4_GET_BLOCKS_IO_CREATE_EXT;
	ret = km_ext4_map_blocks(inode, map, m_flags);
	/* ext4_journal_stop(handle) */
	if (ret == -KM_ENOSPC && km_ext4_should_retry_alloc(&retries)) {
		map->m_len = len;
		goto retry;
	}
	return ret;
}

/*
 * The fast path of the seed 002 series' tree (Baokun Li's patches
 * apply on a tree with 5d87c7fca2c1 "ext4: avoid starting handle when
 * dio writing an unwritten extent" and 012924f0eeef "ext4: remove
 * useless ext4_iomap_overwrite_ops", after v6.18: the patch 1/2 text,
 * ../shared/seeds/002_cdc48bc5817f773e.txt): its ext4_iomap_begin takes
 * a mapped or an unwritten range inside i_size without a handle, and
 * the conversion is left to ext4_dio_write_end_io.  v6.18 (base) takes a
 * written range only.
 */
static bool ext4_fast_path_takes_unwritten(void)
{
	return m_world()->ext4_dio != M_EXT4_DIO_BASE;
}

/**
 * km_ext4_iomap_begin - map a direct I/O's range: a lookup, and for a
 * write whose range is not mapped written, ext4_iomap_alloc.
 * Kernel: fs/ext4/inode.c ext4_iomap_begin, v6.18 (ext4_iomap_ops;
 * with seed 002's patches, the fast path of their tree:
 * ext4_fast_path_takes_unwritten).
 * Context: i_rwsem held by the caller; takes i_data_sem (shared to look;
 * for write in ext4_iomap_alloc).
 * Return: 0 with @iomap set, or -errno from ext4_iomap_alloc.  A write
 * inside i_size looks the range up first and returns a written run as it
 * is; anything else (an unwritten run or a hole inside i_size, or any
 * write reaching past i_size, which is not looked up) goes to
 * ext4_iomap_alloc.  A read only looks up: a hole is IOMAP_HOLE.
 * Divergences: no EXT4_MAX_LOGICAL_BLOCK or inline-data checks (the
 * model's files are small and extent-mapped), no fscrypt limit, no
 * IOMAP_ATOMIC; under ext4_dio=patch1/patch2/unsafe_shared the fast
 * path is the one their tree's commit message describes (the code of
 * 5d87c7fca2c1 is not in the seed).
 */
int km_ext4_iomap_begin(struct km_inode *inode, loff_t pos, loff_t len,
			unsigned int flags, struct km_iomap *iomap)
{
	struct km_ext4_map_blocks map;
	unsigned int blkbits = inode->i_blkbits;
	unsigned int orig_mlen;
	int ret;

	/* The first and last logical blocks. */
	map.m_lblk = (unsigned long)(pos >> blkbits);
	map.m_len = (unsigned int)(((pos + len - 1) >> blkbits) -
				   (pos >> blkbits) + 1);
	orig_mlen = map.m_len;
	if (flags & IOMAP_WRITE) {
		/* Already allocated: no journal handle. */
		if (pos + len <= km_i_size_read(inode)) {
			unsigned int fast = EXT4_MAP_MAPPED;

			if (ext4_fast_path_takes_unwritten())
				fast |= EXT4_MAP_UNWRITTEN;
			ret = km_ext4_map_blocks(inode, &map, 0);
			if ((map.m_flags & fast) && ret > 0)
				goto out;
			map.m_len = orig_mlen;
		}
		ret = km_ext4_iomap_alloc(inode, &map, flags);
	} else {
		ret = km_ext4_map_blocks(inode, &map, 0);
	}
	if (ret < 0)
		return ret;
out:
	ext4_set_iomap(inode, iomap, &map);
	return 0;
}

/**
 * km_ext4_iomap_overwrite_begin - map a direct write that overwrites
 * written blocks: the lookup only, no handle.
 * Kernel: fs/ext4/inode.c ext4_iomap_overwrite_begin, v6.18
 * (ext4_iomap_overwrite_ops: ext4_dio_write_iter's choice for a write
 * under the shared i_rwsem whose range ext4_overwrite_io found written).
 * Context: i_rwsem held shared; takes i_data_sem shared.
 * Return: 0 with @iomap set, or -errno.  The kernel's
 * WARN_ON_ONCE(type != IOMAP_MAPPED) is a model failure here (with
 * panic_on_warn, as syzbot runs): the shared i_rwsem keeps every change
 * of a written range out (truncate and hole punch take it exclusive).
 */
int km_ext4_iomap_overwrite_begin(struct km_inode *inode, loff_t pos,
				  loff_t len, unsigned int flags,
				  struct km_iomap *iomap)
{
	int ret;

	/* No blocks to allocate: look up as for a read. */
	flags &= ~IOMAP_WRITE;
	ret = km_ext4_iomap_begin(inode, pos, len, flags, iomap);
	if (!ret && iomap->type != IOMAP_MAPPED)
		sim_fail(SIM_FAIL_ASSERT, "WARNING in "
			 "ext4_iomap_overwrite_begin: WARN_ON_ONCE(!ret && "
			 "iomap->type != IOMAP_MAPPED): type %d at %lld",
			 (int)iomap->type, (long long)pos);
	return ret;
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
