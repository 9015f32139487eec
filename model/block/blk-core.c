// SPDX-License-Identifier: MIT
/*
 * model/block/blk-core.c - submit_bio.
 *
 * Models submit_bio of block/blk-core.c, v6.18: the bio goes to the
 * device.  Untimed, its completion is an engine event the strategy
 * schedules like an interrupt (m_bio_device_complete, model/block/bio.c);
 * timed, it goes through blk-mq to the NVMe model
 * (m_blk_timed_submit_bio).
 *
 * A bio beyond the queue limits is split first (model/block/
 * blk-merge.c), as blk_mq_submit_bio does; the pieces go in order.
 *
 * Leaves out: submit_bio_noacct's checks (the flush filter is
 * model/block/blk-flush.c's, applied on the timed path), cgroup
 * throttling and accounting, stacking drivers' recursion (the bio_list
 * only orders a split's remainder after its front), plugging,
 * integrity, crypto.
 */
#include "model/linux/bio.h"
#include "model/world.h"

/*
 * One bio within the limits, to the device: blk_mq_submit_bio's issue
 * (timed), or the completion event (untimed).
 */
static void submit_bio_one(struct m_blkdev *dev, struct km_bio *bio)
{
	/*
	 * The bio's number matters only to "fail the Nth bio"; without that
	 * injection the count is an add nobody reads back, so submissions
	 * commute for DPOR (model bookkeeping, not kernel state).
	 */
	if (dev->fail_nth_bio)
		bio->index = (uint32_t)sim_word_add(&dev->bios_submitted, 1);
	else
		sim_word_add_nr(&dev->bios_submitted, 1);
	if (dev->timed) {
		m_blk_timed_submit_bio(dev->timed, bio);
		return;
	}
	sim_event_post(bio->op == REQ_OP_WRITE ? "bio-write" :
		       bio->op == REQ_OP_DISCARD ? "bio-discard" : "bio-read",
		       m_bio_device_complete, bio);
}

/**
 * km_submit_bio - submit a bio; it completes later, as an event.
 * Kernel: block/blk-core.c submit_bio, v6.18, with the loop of
 * __submit_bio_noacct_mq and the split of blk_mq_submit_bio
 * (block/blk-mq.c: __bio_split_to_limits).
 * Context: any task context.
 * Divergences: the device without atomic writes (unit min 0) ends a
 * REQ_ATOMIC bio with -EINVAL where the kernel's modulo by 0 cannot
 * happen (no file of such a device has FMODE_CAN_ATOMIC_WRITE); a bio
 * too large for the queue limits is split here, on
 * both devices (model/block/blk-merge.c): each piece is submitted in
 * turn, the front first, as current->bio_list orders them; every piece
 * counts as a bio submitted (dev->bios_submitted).
 */
void km_submit_bio(struct km_bio *bio)
{
	struct m_blkdev *dev = &m_world()->dev;
	struct km_bio *split;
	unsigned int nr_segs;

	SIM_ASSERT_MSG(bio->no_content ||
		       bio->sector + (m_bio_size(bio) >> SECTOR_SHIFT) <=
		       dev->nr_sectors, "bio beyond the device");
	/* submit_bio_noacct: a discard the device cannot do. */
	if (bio->op == REQ_OP_DISCARD && !dev->limits.max_discard_sectors) {
		bio->status = -KM_EOPNOTSUPP;
		km_bio_endio(bio);
		return;
	}
	/*
	 * submit_bio_noacct: an atomic write larger than the queue's unit
	 * max, or not a multiple of its unit min
	 * (blk_validate_atomic_write_op_size), ends with BLK_STS_INVAL.
	 */
	if (bio->op == REQ_OP_WRITE && (bio->opf & REQ_ATOMIC) &&
	    (m_bio_size(bio) > dev->limits.atomic_write_unit_max ||
	     !dev->limits.atomic_write_unit_min ||
	     m_bio_size(bio) % dev->limits.atomic_write_unit_min)) {
		bio->status = -KM_EINVAL;
		km_bio_endio(bio);
		return;
	}
	do {
		split = km___bio_split_to_limits(bio, &dev->limits, &nr_segs);
		if (!split)
			return;
		submit_bio_one(dev, split);
	} while (split != bio);
}
