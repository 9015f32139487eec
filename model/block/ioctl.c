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
 * read-only checks, the plug, fatal signals.  blk_ioctl_discard drops the range's cached
 * pages first, under the device inode's i_rwsem and invalidate_lock
 * (truncate_bdev_range, model/block/bdev.c).
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


/* blkdev_flushbuf: the device's page cache written back and waited for
 * (sync_blockdev; its error is not returned), then its clean pages
 * dropped (invalidate_bdev): model/block/bdev.c.  No holder's ->sync (the
 * model's device holds no mounted filesystem's superblock here). */
static int blkdev_flushbuf(struct km_file *file)
{
	km_sync_blockdev(file->f_inode);
	km_invalidate_bdev(file->f_inode);
	return 0;
}

/**
 * km_blkdev_ioctl - ioctl(2) on the block device.
 * Kernel: block/ioctl.c blkdev_ioctl -> blkdev_common_ioctl, v6.18.
 * Context: task; BLKDISCARD sleeps for its bios.
 * Return: 0 or -errno; BLKGETSIZE64 puts the device's bytes in @arg[0];
 * -ENOTTY for a command the model does not have.
 * Divergences: BLKFLSBUF has no CAP_SYS_ADMIN check and no holder's
 * ->sync; the
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
