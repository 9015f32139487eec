// SPDX-License-Identifier: MIT
/*
 * model/block/blk-flush.c - which flushes a PREFLUSH/FUA bio costs.
 *
 * Models the decisions of block/blk-flush.c (blk_insert_flush's policy)
 * and of block/blk-core.c (submit_bio_noacct's flush filter), v6.18:
 *
 *  - no volatile write cache (blk_queue_write_cache() false: the feature
 *    is absent, or disabled through sysfs): PREFLUSH and FUA are stripped
 *    from the bio, and a bio without data completes without reaching the
 *    driver;
 *  - a write cache: PREFLUSH becomes a flush before the data; FUA is
 *    passed down when the queue has BLK_FEAT_FUA, else it becomes a
 *    flush after the data;
 *  - a request that went through the policy loses REQ_PREFLUSH, loses
 *    REQ_FUA unless the queue has FUA, and gains REQ_SYNC.
 *
 * And blkdev_issue_flush (km_blkdev_issue_flush), the empty PREFLUSH bio
 * fsync sends when it has no log to force.
 *
 * Leaves out: the flush queue itself (the double-buffered pending lists,
 * C1 "one flush in flight" with C2/C3, and so the coalescing of
 * concurrent flushes into one device flush: each request here issues its
 * own), the borrowed tag of the flush request, error propagation through
 * the sequence, the I/O scheduler's insertion.  docs/model/blk-mq.md.
 */
#include <errno.h>

#include "model/block/blk-mq.h"
#include "model/linux/bio.h"
#include "model/world.h"

bool m_blk_queue_write_cache(const struct m_request_queue *q)
{
	return (q->features & M_BLK_FEAT_WRITE_CACHE) &&
	       !q->write_cache_disabled;
}

/* op_is_flush (include/linux/blk_types.h, v6.18). */
static bool op_is_flush(unsigned int opf)
{
	return opf & (REQ_FUA | REQ_PREFLUSH);
}

int m_blk_flush_filter_bio(const struct m_request_queue *q,
			   enum km_req_op op, unsigned int *opf,
			   uint32_t bytes)
{
	if (!op_is_flush(*opf))
		return 0;
	/* KM: the kernel WARNs and ends the bio with BLK_STS_IOERR. */
	if (op != REQ_OP_WRITE)
		return -EIO;
	if (!m_blk_queue_write_cache(q)) {
		*opf &= ~(REQ_PREFLUSH | REQ_FUA);
		if (!bytes)
			return 1;
	}
	return 0;
}

unsigned int m_blk_flush_policy(const struct m_request_queue *q,
				unsigned int *cmd_flags, uint32_t bytes)
{
	bool supports_fua = q->features & M_BLK_FEAT_FUA;
	unsigned int policy = 0;

	if (bytes)
		policy |= M_REQ_FSEQ_DATA;
	if (m_blk_queue_write_cache(q)) {
		if (*cmd_flags & REQ_PREFLUSH)
			policy |= M_REQ_FSEQ_PREFLUSH;
		if ((*cmd_flags & REQ_FUA) && !supports_fua)
			policy |= M_REQ_FSEQ_POSTFLUSH;
	}
	*cmd_flags &= ~REQ_PREFLUSH;
	if (!supports_fua)
		*cmd_flags &= ~REQ_FUA;
	*cmd_flags |= REQ_SYNC;
	return policy;
}

/**
 * km_blkdev_issue_flush - flush the device's volatile write cache.
 * Kernel: block/blk-flush.c blkdev_issue_flush, v6.18: an empty
 * REQ_OP_WRITE | REQ_PREFLUSH bio, submit_bio_wait.
 * Context: task; sleeps until the flush completes.
 * Return: 0 or -EIO.
 * Divergences: on the untimed device (no volatile cache) nothing is
 * submitted: submit_bio_noacct would end the bio at once, and skipping
 * it keeps every exploration's steps as they were.
 */
int km_blkdev_issue_flush(void)
{
	struct km_bio *bio;

	if (!m_world()->dev.timed)
		return 0;
	bio = km_bio_alloc(REQ_OP_WRITE, REQ_PREFLUSH, 0);
	return km_submit_bio_wait(bio);
}
