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
 * up to UINT_MAX sectors (docs/model/block.md), and the atomic write
 * limits of a namespace whose AWUPF is 0 (one logical block:
 * drivers/nvme/host/core.c nvme_configure_atomic_write, v6.18), which
 * blk_validate_atomic_write_limits and blk_atomic_writes_update_limits
 * turn into atomic_write_unit_min/max (docs/model/atomic-write.md).
 *
 * The default max_sectors is min(max_hw_sectors, BLK_DEF_MAX_SECTORS_CAP),
 * the cap 4 MiB (8192 sectors) since v6.17 (commit 9b8b84879d4a "block:
 * Increase BLK_DEF_MAX_SECTORS_CAP"; 1280 KiB before): this machine's
 * virtio disk, with max_hw_sectors_kb 2147483647, shows max_sectors_kb
 * 4096 on v6.18.
 *
 * Leaves out: io_min/io_opt (no device of the model reports them: the
 * max_sectors they can raise above the cap is never raised),
 * max_dev_sectors (SCSI), seg_boundary_mask (always
 * BLK_SEG_BOUNDARY_MASK), stacked atomic limits, zoned limits, write zeroes,
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
/* include/linux/blkdev.h, v6.18: SZ_4M >> SECTOR_SHIFT (commit
 * 9b8b84879d4a, v6.17; 2560, 1280 KiB, before it). */
#define BLK_DEF_MAX_SECTORS_CAP	((4u << 20) >> SECTOR_SHIFT)
#define BLK_SEG_BOUNDARY_MASK	0xFFFFFFFFUL
#define BIO_MAX_VECS		256	/* include/linux/bio.h */

static bool is_power_of_2(unsigned long n)
{
	return n && !(n & (n - 1));
}

static unsigned int rounddown_pow_of_two(unsigned int n)
{
	unsigned int p = 1;

	if (!n)
		return 0;
	while (p <= n / 2)
		p <<= 1;
	return p;
}

static unsigned int min_uint(unsigned int a, unsigned int b)
{
	return a < b ? a : b;
}

/*
 * The NVMe driver's atomic write limits (drivers/nvme/host/core.c
 * nvme_configure_atomic_write, v6.18), set before the limits are
 * validated: with NABO non-zero none (an offset boundary is not
 * supported); the namespace's NAWUPF when NSFEAT says it is defined and
 * it is non-zero (with NABSPF as the boundary), else the controller's
 * AWUPF; the unit from one logical block to the largest power of two in
 * the atomic size, BLK_FEAT_ATOMIC_WRITES set.  The driver also caps the
 * physical block size at the atomic size (nvme_update_disk_info): the
 * model's physical block is the logical one, never above it.
 */
void m_queue_limits_nvme_atomic(struct km_queue_limits *lim,
				const struct m_nvme_atomic_id *id)
{
	unsigned int bs = lim->logical_block_size, atomic_bs, boundary = 0;

	lim->features &= ~BLK_FEAT_ATOMIC_WRITES;
	lim->atomic_write_hw_max = 0;
	lim->atomic_write_hw_unit_min = 0;
	lim->atomic_write_hw_unit_max = 0;
	lim->atomic_write_hw_boundary = 0;
	if (!id->supported || id->nabo)
		return;
	if (id->nsfeat_atomics && id->nawupf) {
		atomic_bs = (1 + id->nawupf) * bs;
		if (id->nabspf)
			boundary = (id->nabspf + 1) * bs;
	} else {
		atomic_bs = (1 + id->awupf) * bs;
	}
	lim->atomic_write_hw_max = atomic_bs;
	lim->atomic_write_hw_boundary = boundary;
	lim->atomic_write_hw_unit_min = bs;
	lim->atomic_write_hw_unit_max = rounddown_pow_of_two(atomic_bs);
	lim->features |= BLK_FEAT_ATOMIC_WRITES;
}

void m_queue_limits_default(struct km_queue_limits *lim)
{
	static const struct m_nvme_atomic_id awupf0 = { .supported = true };

	*lim = (struct km_queue_limits){
		.max_hw_sectors = (8u << 20) >> SECTOR_SHIFT,
		.max_segments = 256,
		.virt_boundary_mask = 4096 - 1,
		.max_segment_size = UINT_MAX,
		.logical_block_size = SECTOR_SIZE,
		.max_discard_sectors = UINT_MAX,
	};
	m_queue_limits_nvme_atomic(lim, &awupf0);
	km_blk_validate_limits(lim);
}

/* blk_queue_max_guaranteed_bio: the bytes a bio of max_segments (at most
 * BIO_MAX_VECS) is sure to hold, the first and last segment a logical
 * block each, the others a page. */
static unsigned int blk_queue_max_guaranteed_bio(
	const struct km_queue_limits *lim)
{
	unsigned int max_segments = min_uint(BIO_MAX_VECS, lim->max_segments);
	unsigned int length;

	length = min_uint(max_segments, 2) * lim->logical_block_size;
	if (max_segments > 2)
		length += (max_segments - 2) * PAGE_SIZE;
	return length;
}

/* blk_atomic_writes_update_limits: the unit bounded by what one bio is
 * sure to carry, a power of two. */
static void blk_atomic_writes_update_limits(struct km_queue_limits *lim)
{
	unsigned int unit_limit = min_uint(lim->max_hw_sectors << SECTOR_SHIFT,
					   blk_queue_max_guaranteed_bio(lim));

	unit_limit = rounddown_pow_of_two(unit_limit);
	lim->atomic_write_max_sectors =
		min_uint(lim->atomic_write_hw_max >> SECTOR_SHIFT,
			 lim->max_hw_sectors);
	lim->atomic_write_unit_min =
		min_uint(lim->atomic_write_hw_unit_min, unit_limit);
	lim->atomic_write_unit_max =
		min_uint(lim->atomic_write_hw_unit_max, unit_limit);
	lim->atomic_write_boundary_sectors =
		lim->atomic_write_hw_boundary >> SECTOR_SHIFT;
}

/**
 * km_blk_validate_atomic_write_limits - derive the atomic write limits.
 * Kernel: block/blk-settings.c blk_validate_atomic_write_limits (with
 * blk_atomic_writes_update_limits), v6.18.
 * Context: any; no shared state (limits are set before a run).
 * Return: none; the derived limits are 0 when the hardware's are
 * missing or inconsistent ("unsupported").
 * Divergences: the kernel's WARN_ON_ONCEs are plain checks; no stacked
 * limits (UINT_MAX) to refuse.
 */
void km_blk_validate_atomic_write_limits(struct km_queue_limits *lim)
{
	unsigned int boundary_sectors;
	unsigned int atomic_write_hw_max_sectors =
		lim->atomic_write_hw_max >> SECTOR_SHIFT;

	if (!(lim->features & BLK_FEAT_ATOMIC_WRITES))
		goto unsupported;
	if (lim->atomic_write_hw_max == UINT_MAX)
		goto unsupported;
	if (!lim->atomic_write_hw_max)
		goto unsupported;
	if (!is_power_of_2(lim->atomic_write_hw_unit_min))
		goto unsupported;
	if (!is_power_of_2(lim->atomic_write_hw_unit_max))
		goto unsupported;
	if (lim->atomic_write_hw_unit_min > lim->atomic_write_hw_unit_max)
		goto unsupported;
	if (lim->atomic_write_hw_unit_max > lim->atomic_write_hw_max)
		goto unsupported;
	if (lim->chunk_sectors &&
	    atomic_write_hw_max_sectors > lim->chunk_sectors)
		goto unsupported;
	boundary_sectors = lim->atomic_write_hw_boundary >> SECTOR_SHIFT;
	if (boundary_sectors) {
		if (lim->atomic_write_hw_max > lim->atomic_write_hw_boundary)
			goto unsupported;
		if (lim->chunk_sectors % boundary_sectors)
			goto unsupported;
		if (!is_power_of_2(boundary_sectors))
			goto unsupported;
	}
	blk_atomic_writes_update_limits(lim);
	return;
unsupported:
	lim->atomic_write_max_sectors = 0;
	lim->atomic_write_boundary_sectors = 0;
	lim->atomic_write_unit_min = 0;
	lim->atomic_write_unit_max = 0;
}

/**
 * km_blk_validate_limits - complete and check a set of queue limits.
 * Kernel: block/blk-settings.c blk_validate_limits, v6.18, with
 * BLK_DEF_MAX_SECTORS_CAP of include/linux/blkdev.h, v6.18.
 * Context: any; no shared state (the limits are set before a run).
 * Return: 0, or -EINVAL with @lim partly updated (the caller keeps a
 * copy, as queue_limits_commit_update does).
 * Divergences: the steps for the fields the model has, in the kernel's
 * order; max_discard_sectors is the hardware's (no user limit).  No
 * io_min or io_opt: the kernel first raises io_min to the physical block
 * and rounds io_opt down to it, then, with no user max_sectors, takes
 * min(max_hw_sectors, io_opt) when io_opt is above the cap, else
 * min(max_hw_sectors, io_min) when io_min is above it, before the
 * default min(max_hw_sectors, cap).  No device of the model reports
 * either (the NVMe defaults, the profiles' virtio and SCSI disks: this
 * machine's virtio disk shows optimal_io_size 0, minimum_io_size 4096),
 * so with both at or below the cap the kernel takes the default branch
 * the model has.  No max_dev_sectors (SCSI): max_hw_sectors alone.
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
		/* KM: the io_opt and io_min branches omitted (no device
		 * reports them; see Divergences). */
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
	km_blk_validate_atomic_write_limits(lim);
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
