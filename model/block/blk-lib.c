// SPDX-License-Identifier: MIT
/*
 * model/block/blk-lib.c - discard.
 *
 * Models blkdev_issue_discard, __blkdev_issue_discard,
 * blk_alloc_discard_bio and bio_discard_limit of block/blk-lib.c, v6.18:
 * the range is cut into REQ_OP_DISCARD bios whose ends fall on the
 * discard granularity, each chained to the next and submitted, the last
 * waited for.  The block layer splits them further to
 * max_discard_sectors (model/block/blk-merge.c); the device model
 * (model/hw/nvme.c) takes each as a DISCARD command, whose cost is the
 * command overhead (docs/model/nvme.md, step 6), and the sectors read
 * back as zeroes (model/block/bio.c; an assumption, docs/model/block.md).
 *
 * Leaves out: partitions (bd_start_sect is 0), the plug, cond_resched,
 * secure erase, write zeroes (blkdev_issue_zeroout).
 */
#include "model/linux/bio.h"
#include "model/world.h"

/* bio_discard_limit: to the next granularity boundary, else the most a
 * bio's size can hold, a multiple of the granularity. */
static sector_t bio_discard_limit(const struct km_queue_limits *lim,
				  sector_t sector)
{
	/* KM: no discard (granularity 0) is taken as 512 bytes; such a
	 * device fails the bio at submission (km_submit_bio). */
	uint32_t bytes = lim->discard_granularity ? lim->discard_granularity :
						    SECTOR_SIZE;
	sector_t gran = bytes >> SECTOR_SHIFT;
	sector_t aligned = (sector + gran - 1) / gran * gran;

	if (aligned != sector)
		return aligned - sector;
	return (UINT32_MAX - UINT32_MAX % bytes) >> SECTOR_SHIFT;
}

/**
 * km_blk_alloc_discard_bio - the next discard bio of a range.
 * Kernel: block/blk-lib.c blk_alloc_discard_bio, v6.18.
 * Context: task.
 * Return: the bio, *@sector and *@nr_sects moved past it; NULL when
 * nothing is left.
 */
struct km_bio *km_blk_alloc_discard_bio(sector_t *sector, sector_t *nr_sects)
{
	sector_t limit = bio_discard_limit(&m_world()->dev.limits, *sector);
	sector_t bio_sects = *nr_sects < limit ? *nr_sects : limit;
	struct km_bio *bio;

	if (!bio_sects)
		return NULL;
	bio = km_bio_alloc(REQ_OP_DISCARD, 0, *sector);
	bio->discard_len = (size_t)bio_sects << SECTOR_SHIFT;
	*sector += bio_sects;
	*nr_sects -= bio_sects;
	return bio;
}

/**
 * km___blkdev_issue_discard - submit the discard bios of a range, all
 * but the last, which is returned in *@biop.
 * Kernel: block/blk-lib.c __blkdev_issue_discard, v6.18.
 * Context: task.
 * Return: 0.
 */
int km___blkdev_issue_discard(sector_t sector, sector_t nr_sects,
			      struct km_bio **biop)
{
	struct km_bio *bio;

	while ((bio = km_blk_alloc_discard_bio(&sector, &nr_sects)))
		*biop = km_bio_chain_and_submit(*biop, bio);
	return 0;
}

/**
 * km_blkdev_issue_discard - discard a range of the device and wait.
 * Kernel: block/blk-lib.c blkdev_issue_discard, v6.18.
 * Context: task; sleeps until the last bio (and every bio chained to
 * it) has ended.
 * Return: 0 or the first error of the bios (-EIO); -EOPNOTSUPP is 0.
 * Divergences: no plug (the model has none); the waited bio is put by
 * km_submit_bio_wait.
 */
int km_blkdev_issue_discard(sector_t sector, sector_t nr_sects)
{
	struct km_bio *bio = NULL;
	int ret;

	ret = km___blkdev_issue_discard(sector, nr_sects, &bio);
	if (!ret && bio) {
		ret = km_submit_bio_wait(bio);
		if (ret == -KM_EOPNOTSUPP)
			ret = 0;
	}
	return ret;
}
