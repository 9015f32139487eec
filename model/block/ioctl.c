// SPDX-License-Identifier: MIT
/*
 * model/block/ioctl.c - the block device's ioctls: BLKDISCARD,
 * BLKGETSIZE64, BLKFLSBUF.
 *
 * Models block/ioctl.c of v6.18: blkdev_ioctl (def_blk_fops's
 * unlocked_ioctl, reached through fs/ioctl.c vfs_ioctl) with
 * blkdev_common_ioctl's commands the model has, and blk_ioctl_discard:
 * the byte range is
 * checked against the device, cut into discard bios
 * (model/block/blk-lib.c's km_blk_alloc_discard_bio), each chained to the
 * next and submitted, the last waited for.
 *
 * Leaves out: every other ioctl (-ENOTTY, as the NVMe driver's
 * nvme_ioctl answers a command it does not know); the FMODE_WRITE and
 * read-only checks,
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


/* blkdev_flushbuf: sync_blockdev and invalidate_bdev of the device's
 * page cache, which the model's bdev does not have (model/block/fops.c):
 * nothing to write or drop. */
static int blkdev_flushbuf(struct km_file *file)
{
	(void)file;
	return 0;
}

/**
 * km_blkdev_ioctl - ioctl(2) on the block device.
 * Kernel: block/ioctl.c blkdev_ioctl -> blkdev_common_ioctl, v6.18.
 * Context: task; BLKDISCARD sleeps for its bios.
 * Return: 0 or -errno; BLKGETSIZE64 puts the device's bytes in @arg[0];
 * -ENOTTY for a command the model does not have.
 * Divergences: BLKFLSBUF's sync_blockdev and invalidate_bdev have
 * nothing to do (no bdev page cache) and no CAP_SYS_ADMIN check; the
 * other commands of blkdev_common_ioctl and the driver's ioctl are left
 * out (-ENOTTY).
 */
long km_blkdev_ioctl(struct km_file *file, unsigned int cmd, uint64_t *arg)
{
	switch (cmd) {
	case KM_BLKDISCARD:
		return km_blk_ioctl_discard(file, arg[0], arg[1]);
	case KM_BLKFLSBUF:
		return blkdev_flushbuf(file);
	case KM_BLKGETSIZE64:
		arg[0] = (uint64_t)m_world()->dev.nr_sectors << SECTOR_SHIFT;
		return 0;
	default:
		return -KM_ENOTTY;
	}
}
