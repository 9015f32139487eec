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
 * Leaves out: submit_bio_noacct's checks (the flush filter is
 * model/block/blk-flush.c's, applied on the timed path), cgroup
 * throttling and accounting, bio splitting, recursion avoidance
 * (current->bio_list), plugging, integrity, crypto.
 */
#include "model/linux/bio.h"
#include "model/world.h"

/**
 * km_submit_bio - submit a bio; it completes later, as an event.
 * Kernel: block/blk-core.c submit_bio, v6.18.
 * Context: any task context.
 */
void km_submit_bio(struct km_bio *bio)
{
	struct m_blkdev *dev = &m_world()->dev;

	SIM_ASSERT_MSG(bio->no_content ||
		       bio->sector + (m_bio_size(bio) >> SECTOR_SHIFT) <=
		       dev->nr_sectors, "bio beyond the device");
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
	sim_event_post(bio->op == REQ_OP_WRITE ? "bio-write" : "bio-read",
		       m_bio_device_complete, bio);
}
