// SPDX-License-Identifier: MIT
/*
 * model/block/ioctl.c - BLKDISCARD.
 *
 * Models blk_ioctl_discard of block/ioctl.c, v6.18: the byte range is
 * checked against the device, its cached pages dropped under the
 * device inode's i_rwsem and invalidate_lock (truncate_bdev_range,
 * model/block/bdev.c), then cut into discard bios
 * (model/block/blk-lib.c's km_blk_alloc_discard_bio), each chained to the
 * next and submitted, the last waited for.
 *
 * Leaves out: every other ioctl; the FMODE_WRITE and read-only checks,
 * the plug, fatal signals.
 */
#include "model/block/fops.h"
#include "model/linux/bio.h"
#include "model/world.h"

/* inode_lock(bd_mapping->host) and filemap_invalidate_lock(bd_mapping),
 * or their unlocks in the reverse order. */
static void inode_lock_and_invalidate(struct km_inode *bd_inode, bool lock)
{
	if (lock) {
		km_inode_lock(bd_inode);
		km_down_write(&bd_inode->i_data.invalidate_lock);
	} else {
		km_up_write(&bd_inode->i_data.invalidate_lock);
		km_inode_unlock(bd_inode);
	}
}

/**
 * km_blk_ioctl_discard - ioctl(BLKDISCARD, {start, len}).
 * Kernel: block/ioctl.c blk_ioctl_discard, v6.18.
 * Context: task; sleeps until every discard bio has ended.
 * Return: 0, -EOPNOTSUPP (the device cannot discard), -EINVAL (range
 * not on the logical block or beyond the device), or the bios' error.
 * Divergences: no FMODE_WRITE or read-only check (every model file is
 * writable), no fatal signals, no plug.
 */
int km_blk_ioctl_discard(struct km_file *file, uint64_t start, uint64_t len)
{
	struct m_blkdev *dev = &m_world()->dev;
	const struct km_queue_limits *lim = &m_world()->dev.limits;
	struct km_bio *prev = NULL, *bio;
	sector_t sector, nr_sects;
	int err = 0;

	(void)file;
	if (!lim->max_discard_sectors)
		return -KM_EOPNOTSUPP;
	/* blk_validate_byte_range */
	if ((start | len) & (lim->logical_block_size - 1) ||
	    start + len < start || start + len > (uint64_t)dev->nr_sectors << SECTOR_SHIFT)
		return -KM_EINVAL;
	inode_lock_and_invalidate(file->f_inode, true);
	err = km_truncate_bdev_range(file->f_inode, (loff_t)start,
				     (loff_t)(start + len - 1));
	if (err)
		goto fail;
	sector = start >> SECTOR_SHIFT;
	nr_sects = len >> SECTOR_SHIFT;
	while ((bio = km_blk_alloc_discard_bio(&sector, &nr_sects)))
		prev = km_bio_chain_and_submit(prev, bio);
	if (prev) {
		err = km_submit_bio_wait(prev);
		if (err == -KM_EOPNOTSUPP)
			err = 0;
	}
fail:
	inode_lock_and_invalidate(file->f_inode, false);
	return err;
}

