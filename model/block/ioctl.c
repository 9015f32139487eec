// SPDX-License-Identifier: MIT
/*
 * model/block/ioctl.c - BLKDISCARD.
 *
 * Models blk_ioctl_discard of block/ioctl.c, v6.18: the byte range is
 * checked against the device, cut into discard bios
 * (model/block/blk-lib.c's km_blk_alloc_discard_bio), each chained to the
 * next and submitted, the last waited for.
 *
 * Leaves out: every other ioctl; the FMODE_WRITE and read-only checks,
 * the inode and invalidate locks and truncate_bdev_range (the model's
 * block device has no page cache: model/block/fops.c), the plug, fatal
 * signals.
 */
#include "model/block/fops.h"
#include "model/linux/bio.h"
#include "model/world.h"

/**
 * km_blk_ioctl_discard - ioctl(BLKDISCARD, {start, len}).
 * Kernel: block/ioctl.c blk_ioctl_discard, v6.18.
 * Context: task; sleeps until every discard bio has ended.
 * Return: 0, -EOPNOTSUPP (the device cannot discard), -EINVAL (range
 * not on the logical block or beyond the device), or the bios' error.
 * Divergences: no FMODE_WRITE or read-only check (every model file is
 * writable), no locks, no truncate_bdev_range (no bdev page cache), no
 * fatal signals.
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
	sector = start >> SECTOR_SHIFT;
	nr_sects = len >> SECTOR_SHIFT;
	while ((bio = km_blk_alloc_discard_bio(&sector, &nr_sects)))
		prev = km_bio_chain_and_submit(prev, bio);
	if (prev) {
		err = km_submit_bio_wait(prev);
		if (err == -KM_EOPNOTSUPP)
			err = 0;
	}
	return err;
}

