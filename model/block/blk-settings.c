// SPDX-License-Identifier: MIT
/*
 * model/block/blk-settings.c - the queue limits bio splitting reads.
 *
 * Models blk_validate_limits of block/blk-settings.c, v6.18, for the
 * limits the model's block layer uses (struct km_queue_limits,
 * include/model/linux/bio.h): the logical and physical block size,
 * max_hw_sectors and the max_sectors derived from it and the user's
 * max_sectors_kb, the segment limits and min_segment_size, discard.
 * The defaults are those of an NVMe PCI controller without an MDTS
 * limit (drivers/nvme/host/pci.c nvme_pci_enable and core.c
 * nvme_set_ctrl_limits, v6.18): max_hw_sectors NVME_MAX_BYTES (8 MiB),
 * max_segments NVME_MAX_SEGS (4096 / 16 = 256), a 4 KiB virtual
 * boundary and no segment size limit, 512-byte logical blocks, discard
 * up to UINT_MAX sectors (docs/model/block.md).
 *
 * Leaves out: io_min/io_opt (and the max_sectors they can raise),
 * max_dev_sectors (SCSI), seg_boundary_mask (always
 * BLK_SEG_BOUNDARY_MASK), atomic writes, zoned limits, write zeroes,
 * integrity, stacking (blk_stack_limits), the freeze and commit of
 * queue_limits_commit_update.
 */
#include <errno.h>
#include <limits.h>

#include "model/linux/bio.h"

#define BLK_MAX_SEGMENTS	128
#define BLK_SAFE_MAX_SECTORS	255
#define BLK_MAX_SEGMENT_SIZE	65536
#define BLK_MIN_SEGMENT_SIZE	4096
#define BLK_DEF_MAX_SECTORS_CAP	2560	/* include/linux/blkdev.h */
#define BLK_SEG_BOUNDARY_MASK	0xFFFFFFFFUL

void m_queue_limits_default(struct km_queue_limits *lim)
{
	*lim = (struct km_queue_limits){
		.max_hw_sectors = (8u << 20) >> SECTOR_SHIFT,
		.max_segments = 256,
		.virt_boundary_mask = 4096 - 1,
		.max_segment_size = UINT_MAX,
		.logical_block_size = SECTOR_SIZE,
		.max_discard_sectors = UINT_MAX,
	};
	km_blk_validate_limits(lim);
}

static bool is_power_of_2(unsigned long n)
{
	return n && !(n & (n - 1));
}

/**
 * km_blk_validate_limits - complete and check a set of queue limits.
 * Kernel: block/blk-settings.c blk_validate_limits, v6.18.
 * Context: any; no shared state (the limits are set before a run).
 * Return: 0, or -EINVAL with @lim partly updated (the caller keeps a
 * copy, as queue_limits_commit_update does).
 * Divergences: the steps for the fields the model has, in the kernel's
 * order; max_discard_sectors is the hardware's (no user limit).
 */
int km_blk_validate_limits(struct km_queue_limits *lim)
{
	unsigned int max_hw_sectors, logical_block_sectors;
	unsigned long seg_size;

	if (!lim->logical_block_size)
		lim->logical_block_size = SECTOR_SIZE;
	else if (lim->logical_block_size < SECTOR_SIZE ||
		 lim->logical_block_size > PAGE_SIZE * 16 ||
		 !is_power_of_2(lim->logical_block_size))
		return -EINVAL;	/* blk_validate_block_size */
	if (lim->physical_block_size < lim->logical_block_size)
		lim->physical_block_size = lim->logical_block_size;
	else if (!is_power_of_2(lim->physical_block_size))
		return -EINVAL;
	if (!lim->max_hw_sectors)
		lim->max_hw_sectors = BLK_SAFE_MAX_SECTORS;
	if (lim->max_hw_sectors < PAGE_SIZE >> SECTOR_SHIFT)
		return -EINVAL;
	logical_block_sectors = lim->logical_block_size >> SECTOR_SHIFT;
	if (logical_block_sectors > lim->max_hw_sectors)
		return -EINVAL;
	lim->max_hw_sectors -= lim->max_hw_sectors % logical_block_sectors;
	max_hw_sectors = lim->max_hw_sectors;
	if (lim->max_user_sectors) {
		if (lim->max_user_sectors < BLK_MIN_SEGMENT_SIZE / SECTOR_SIZE)
			return -EINVAL;
		lim->max_sectors = lim->max_user_sectors < max_hw_sectors ?
				   lim->max_user_sectors : max_hw_sectors;
	} else {
		lim->max_sectors = max_hw_sectors < BLK_DEF_MAX_SECTORS_CAP ?
				   max_hw_sectors : BLK_DEF_MAX_SECTORS_CAP;
	}
	lim->max_sectors -= lim->max_sectors % logical_block_sectors;
	if (!lim->max_segments)
		lim->max_segments = BLK_MAX_SEGMENTS;
	if (lim->max_discard_sectors) {
		if (lim->discard_granularity < lim->physical_block_size)
			lim->discard_granularity = lim->physical_block_size;
	} else {
		lim->discard_granularity = 0;
	}
	if (lim->virt_boundary_mask) {
		if (!lim->max_segment_size)
			lim->max_segment_size = UINT_MAX;
	} else {
		if (!lim->max_segment_size)
			lim->max_segment_size = BLK_MAX_SEGMENT_SIZE;
		if (lim->max_segment_size < BLK_MIN_SEGMENT_SIZE)
			return -EINVAL;
	}
	if (BLK_SEG_BOUNDARY_MASK > lim->max_segment_size - 1UL)
		seg_size = lim->max_segment_size;
	else
		seg_size = BLK_SEG_BOUNDARY_MASK + 1;
	lim->min_segment_size = seg_size < PAGE_SIZE ? (unsigned int)seg_size :
						      PAGE_SIZE;
	return 0;
}

/*
 * The sysfs files (block/blk-sysfs.c queue_max_sectors_store: the
 * user's max_sectors_kb becomes max_user_sectors, then the limits are
 * validated) and the driver's limits a front end may give for its
 * device: 0 leaves a value as it is.
 */
int m_blkdev_set_limits(struct m_blkdev *dev, unsigned int max_sectors_kb,
			unsigned int max_hw_sectors_kb,
			unsigned int max_segments,
			unsigned int logical_block_size)
{
	struct km_queue_limits lim = dev->limits;

	if (max_sectors_kb > UINT_MAX / 2 || max_hw_sectors_kb > UINT_MAX / 2)
		return -EINVAL;
	if (max_sectors_kb)
		lim.max_user_sectors = max_sectors_kb << 1;
	if (max_hw_sectors_kb)
		lim.max_hw_sectors = max_hw_sectors_kb << 1;
	if (max_segments)
		lim.max_segments = max_segments;
	if (logical_block_size) {
		lim.logical_block_size = logical_block_size;
		if (lim.physical_block_size < logical_block_size)
			lim.physical_block_size = logical_block_size;
	}
	if (km_blk_validate_limits(&lim))
		return -EINVAL;
	dev->limits = lim;
	return 0;
}
