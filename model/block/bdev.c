// SPDX-License-Identifier: MIT
/*
 * model/block/bdev.c - what block/bdev.c does to the block device's page
 * cache: sync_blockdev, invalidate_bdev, truncate_bdev_range.
 *
 * Models block/bdev.c of v6.18 for the world's one device, whose inode
 * and mapping m_bdev_open makes (model/block/fops.c): the writeback and
 * wait of its whole page cache (sync_blockdev, BLKFLSBUF's), the drop of
 * its clean folios (invalidate_bdev), the drop of a range, dirty or not
 * (truncate_bdev_range: BLKDISCARD, BLKZEROOUT and fallocate of the
 * device call it before their I/O), and the last close's writeback and
 * drop of the whole cache (bdev_release -> blkdev_put_whole ->
 * blkdev_flush_mapping: sync_blockdev, kill_bdev).
 *
 * Leaves out: the holders and the exclusive open (bd_prepare_to_claim:
 * truncate_bdev_range always truncates, as it does for an exclusive
 * opener), freezing, the bdev filesystem and the inode's allocation
 * (m_bdev_open), set_blocksize, partitions, the disk's open_mutex, media
 * change events, the driver's ->release, bdev_write_inode (the bdev
 * inode's timestamps); the buffer-head LRUs and the per-CPU LRU caches
 * invalidate_bdev and kill_bdev drain (the model has neither).
 */
#include <limits.h>

#include "model/block/fops.h"
#include "model/linux/mm.h"
#include "model/linux/pagemap.h"
#include "model/linux/writeback.h"
#include "model/world.h"

/*
 * @lend (inclusive; < 0: the end), cut to the last byte below the
 * mapping's extent (one past the highest index ever stored): no page
 * lies beyond it, so truncating there drops what truncating to @lend
 * drops.  The kernel's walk (find_lock_entries) visits the entries there
 * are; the model's truncate reads each index of its range, and a
 * device's range is the device.  One scheduling point (the extent).
 */
static loff_t below_extent(struct km_address_space *mapping, loff_t lend)
{
	loff_t top = ((loff_t)sim_word_read(&mapping->xa_extent)
		      << PAGE_SHIFT) - 1;

	return lend < 0 || lend > top ? top : lend;
}

/**
 * km_sync_blockdev - write back the device's page cache and wait.
 * Kernel: block/bdev.c sync_blockdev, v6.18 (filemap_write_and_wait of
 * bd_mapping).
 * Context: task; sleeps for the writeback.
 * Return: 0 or the writeback error (the mapping's, consumed).
 * Divergences: @bd_inode stands for the block_device (the world has one
 * device; NULL before its first open: no page cache, 0).
 */
int km_sync_blockdev(struct km_inode *bd_inode)
{
	if (!bd_inode)
		return 0;
	return km_filemap_write_and_wait_range(km_inode_mapping(bd_inode), 0,
					       LLONG_MAX);
}

/**
 * km_sync_blockdev_nowait - start writeback of the device's page cache.
 * Kernel: block/bdev.c sync_blockdev_nowait, v6.18 (filemap_flush of
 * bd_mapping: WB_SYNC_NONE, the whole mapping, no wait).
 * Context: task.
 * Return: 0 or the write's error.
 * Divergences: as km_sync_blockdev (NULL: no page cache, 0).
 */
int km_sync_blockdev_nowait(struct km_inode *bd_inode)
{
	if (!bd_inode)
		return 0;
	return km___filemap_fdatawrite_range(km_inode_mapping(bd_inode), 0,
					     LLONG_MAX, WB_SYNC_NONE);
}

/**
 * km_invalidate_bdev - drop the device's clean, unlocked folios.
 * Kernel: block/bdev.c invalidate_bdev, v6.18 (invalidate_mapping_pages
 * over the whole mapping when it has pages).
 * Context: task; never sleeps (trylocks).
 * Return: none.
 * Divergences: no invalidate_bh_lrus or lru_add_drain_all (no buffer
 * heads, no LRU caches in the model).
 */
void km_invalidate_bdev(struct km_inode *bd_inode)
{
	struct km_address_space *mapping;

	if (!bd_inode)
		return;
	mapping = km_inode_mapping(bd_inode);
	if (sim_word_read(&mapping->nrpages))
		km_mapping_try_invalidate(mapping, 0, m_file_pages_max - 1,
					  NULL);
}

/**
 * km_truncate_bdev_range - drop the device's cached bytes
 * [@lstart, @lend], dirty or not, before I/O that changes them below the
 * page cache (discard, zeroout).
 * Kernel: block/bdev.c truncate_bdev_range, v6.18.
 * Context: task; the callers hold the inode's i_rwsem and the mapping's
 * invalidate_lock; sleeps (folio locks, writeback waits).
 * Return: 0.
 * Divergences: no claim of the device (bd_prepare_to_claim) for a
 * non-exclusive opener, so never the invalidate_inode_pages2_range of
 * a device another holder has claimed: the model has no holders; the
 * range is cut at the mapping's extent (below_extent: the same pages).
 */
int km_truncate_bdev_range(struct km_inode *bd_inode, loff_t lstart,
			   loff_t lend)
{
	if (!bd_inode)
		return 0;
	lend = below_extent(km_inode_mapping(bd_inode), lend);
	if (lend >= lstart)
		km_truncate_inode_pages_range(km_inode_mapping(bd_inode),
					      lstart, lend);
	return 0;
}

/* kill_bdev: the whole page cache dropped, unless it is empty. */
static void kill_bdev(struct km_inode *bd_inode)
{
	struct km_address_space *mapping = km_inode_mapping(bd_inode);

	if (!sim_word_read(&mapping->nrpages))	/* mapping_empty */
		return;
	/* truncate_inode_pages(mapping, 0), to the extent */
	km_truncate_inode_pages_range(mapping, 0, below_extent(mapping, -1));
}

/**
 * km_bdev_release - a file of the device is closed (its last reference).
 * Kernel: block/bdev.c bdev_release -> blkdev_put_whole ->
 * blkdev_flush_mapping, v6.18.
 * Context: task; the last opener's sleeps for the writeback.
 * Return: none.  The last opener's close writes the device's page cache
 * back and waits (sync_blockdev), then drops every page (kill_bdev).
 * Divergences: @bdev_file's open is counted by m_bdev_open
 * (m_world()->bdev_openers, the kernel's bd_openers), without the
 * disk's open_mutex; no holder, no write access, no partitions, no
 * media events, no driver release; sync_blockdev's error is dropped, as
 * the kernel drops it.
 */
void km_bdev_release(struct km_file *bdev_file)
{
	struct m_world *w = m_world();

	if (!w->bdev_openers || --w->bdev_openers)
		return;
	/* blkdev_flush_mapping */
	km_sync_blockdev(bdev_file->f_inode);
	kill_bdev(bdev_file->f_inode);
}
