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
 * The flush state machine of block/blk-flush.c, v6.18 (km_blk_insert_flush,
 * blk_flush_complete_seq, blk_kick_flush, km_flush_end_io,
 * km_mq_flush_data_end_io), one per hardware queue: a request whose
 * sequence needs a PREFLUSH or POSTFLUSH waits on the pending list; one
 * flush request is in flight at a time (C1) and serves every request
 * that was pending when it was issued, so concurrent flushes share one
 * device flush, and a request arriving while a flush is in flight waits
 * for the next one; a pending flush is deferred while a flush-sequenced
 * request executes its DATA (C2), unless the list has waited
 * FLUSH_PENDING_TIMEOUT (C3).  The timed block layer (model/block/bio.c)
 * issues what it asks for (struct m_blk_flush_ops).
 *
 * And blkdev_issue_flush (km_blkdev_issue_flush), the empty PREFLUSH bio
 * fsync sends when it has no log to force.
 *
 * Leaves out: the flush request's borrowed tag (it needs none in the
 * model: the device takes as many commands as the queue has tags, and
 * the pending requests hold theirs), the requeue list and its work item
 * (a DATA step and the flush request are issued at once, in the context
 * that queued them), I/O scheduler insertion, the REQ_DRV/FAILFAST flags
 * of the flush request, blk_account_io_flush.  docs/model/blk-mq.md.
 */
#include <errno.h>

#include "model/block/blk-mq.h"
#include "model/linux/bio.h"
#include "model/world.h"
#include "sim/engine.h"

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

/* ---- the flush state machine -------------------------------------------- */

void m_blk_flush_queue_init(struct m_blk_flush_queue *fq, uint32_t *changes)
{
	*fq = (struct m_blk_flush_queue){ .changes = changes };
}

/* Every writer of the fields m_blk_flush_queue_check reads (the two
 * indexes, flush_queue[]) calls this first: it is how the device's
 * check knows an idle queue is still idle (m_blkdev_check). */
static void fq_changed(struct m_blk_flush_queue *fq)
{
	if (fq->changes)
		(*fq->changes)++;
	sim_check_touch();	/* the device check's watch (m_blkdev_check) */
}

bool m_blk_flush_queue_idle(const struct m_blk_flush_queue *fq)
{
	return fq->flush_pending_idx == fq->flush_running_idx &&
	       !fq->flush_queue[0] && !fq->flush_queue[1];
}

/* blk_flush_cur_seq: the lowest step not done yet (1 << ffz). */
static unsigned int blk_flush_cur_seq(const struct m_blk_mq_request *rq)
{
	return 1u << __builtin_ctz(~rq->flush_seq);
}

/* blk_flush_restore_request: a normal request again (RQF_FLUSH_SEQ off,
 * the saved end_io back). */
static void blk_flush_restore_request(struct m_blk_mq_request *rq)
{
	rq->flush_seq_active = false;
}

/* blk_rq_init_flush (v6.18): RQF_FLUSH_SEQ, rq->flush.seq = 0, end_io =
 * mq_flush_data_end_io (the caller routes the DATA completion). */
static void blk_rq_init_flush(struct m_blk_mq_request *rq)
{
	rq->flush_seq = 0;
	rq->flush_seq_active = true;
	rq->flush_next = NULL;
}

static void flush_list_add_tail(struct m_blk_flush_queue *fq,
				unsigned int idx, struct m_blk_mq_request *rq)
{
	fq_changed(fq);
	rq->flush_next = NULL;
	if (fq->flush_queue[idx])
		fq->flush_queue_tail[idx]->flush_next = rq;
	else
		fq->flush_queue[idx] = rq;
	fq->flush_queue_tail[idx] = rq;
}

/* time_before(a, b) (include/linux/jiffies.h). */
static bool time_before(unsigned long a, unsigned long b)
{
	return (long)(a - b) < 0;
}

/*
 * blk_kick_flush - consider issuing the flush request.
 * Kernel: block/blk-flush.c blk_kick_flush, v6.18.
 * Context: fq->mq_flush_lock (the caller's access to the queue).
 * Divergences: the flush request is issued at once (the kernel adds it
 * to q->flush_list and kicks the requeue work).
 */
static void blk_kick_flush(struct m_blk_flush_queue *fq,
			   const struct m_blk_flush_ops *ops)
{
	unsigned int idx = fq->flush_pending_idx;

	/* C1: one flush in flight; nothing pending, nothing to do. */
	if (fq->flush_pending_idx != fq->flush_running_idx ||
	    !fq->flush_queue[idx])
		return;
	/* C2 and C3. */
	if (fq->flush_data_in_flight &&
	    time_before(ops->jiffies(),
			fq->flush_pending_since + M_FLUSH_PENDING_TIMEOUT))
		return;
	/* Issue, and toggle pending_idx: a flush is in flight. */
	fq_changed(fq);
	fq->flush_pending_idx ^= 1;
	ops->issue_flush(fq);
}

/*
 * blk_flush_complete_seq - @rq completed the @seq steps; start its next.
 * Kernel: block/blk-flush.c blk_flush_complete_seq, v6.18.
 * Context: fq->mq_flush_lock.
 * Divergences: DATA is issued at once (the kernel moves the request to
 * the requeue list and kicks it).
 */
static void blk_flush_complete_seq(struct m_blk_mq_request *rq,
				   struct m_blk_flush_queue *fq,
				   unsigned int seq, int error,
				   const struct m_blk_flush_ops *ops)
{
	unsigned int idx = fq->flush_pending_idx;

	SIM_ASSERT_MSG(!(rq->flush_seq & seq), "flush seq %#x again", seq);
	rq->flush_seq |= seq;
	seq = error ? M_REQ_FSEQ_DONE : blk_flush_cur_seq(rq);
	switch (seq) {
	case M_REQ_FSEQ_PREFLUSH:
	case M_REQ_FSEQ_POSTFLUSH:
		/* Queue for flush. */
		if (!fq->flush_queue[idx])
			fq->flush_pending_since = ops->jiffies();
		flush_list_add_tail(fq, idx, rq);
		break;
	case M_REQ_FSEQ_DATA:
		fq->flush_data_in_flight++;
		ops->issue_data(rq);
		break;
	case M_REQ_FSEQ_DONE:
		blk_flush_restore_request(rq);
		ops->end_request(rq, error);
		break;
	default:
		SIM_ASSERT_MSG(false, "flush seq %#x", seq);
	}
	blk_kick_flush(fq, ops);
}

/**
 * km_flush_end_io - the flush request completed: every request it served
 * goes on to its next step.
 * Kernel: block/blk-flush.c flush_end_io, v6.18.
 * Context: the completion (interrupt); fq->mq_flush_lock.
 * Divergences: no request refcount, timeout path or accounting; the
 * served list is taken whole before walking it (the kernel walks it in
 * place with list_for_each_entry_safe; they differ only if a request
 * went back onto the list being walked, which needs an empty request
 * with both a PREFLUSH and a POSTFLUSH and a flush kicked mid-walk).
 */
void km_flush_end_io(struct m_blk_flush_queue *fq, int error,
		     const struct m_blk_flush_ops *ops)
{
	unsigned int idx = fq->flush_running_idx;
	struct m_blk_mq_request *rq = fq->flush_queue[idx], *n;

	SIM_ASSERT_MSG(fq->flush_pending_idx != fq->flush_running_idx,
		       "flush_end_io with no flush in flight");
	fq_changed(fq);
	fq->flush_queue[idx] = NULL;
	fq->flush_queue_tail[idx] = NULL;
	/* Account the completion of the flush request. */
	fq->flush_running_idx ^= 1;
	/* And push the waiting requests to the next stage. */
	for (; rq; rq = n) {
		unsigned int seq = blk_flush_cur_seq(rq);

		n = rq->flush_next;
		rq->flush_next = NULL;
		SIM_ASSERT_MSG(seq == M_REQ_FSEQ_PREFLUSH ||
			       seq == M_REQ_FSEQ_POSTFLUSH,
			       "flush_end_io: request at seq %#x", seq);
		blk_flush_complete_seq(rq, fq, seq, error, ops);
	}
}

/**
 * km_mq_flush_data_end_io - a flush-sequenced request's DATA completed.
 * Kernel: block/blk-flush.c mq_flush_data_end_io, v6.18.
 * Context: the completion (interrupt); fq->mq_flush_lock.
 * Divergences: no scheduler driver tag to put, no sched restart.
 */
void km_mq_flush_data_end_io(struct m_blk_flush_queue *fq,
			     struct m_blk_mq_request *rq, int error,
			     const struct m_blk_flush_ops *ops)
{
	SIM_ASSERT_MSG(fq->flush_data_in_flight > 0,
		       "flush data end with none in flight");
	fq->flush_data_in_flight--;
	blk_flush_complete_seq(rq, fq, M_REQ_FSEQ_DATA, error, ops);
}

/**
 * km_blk_insert_flush - a PREFLUSH/FUA request enters the machinery.
 * Kernel: block/blk-flush.c blk_insert_flush, v6.18 (the policy and the
 * flag changes are m_blk_flush_policy's, already in rq->plan.policy and
 * rq->cmd_flags).
 * Context: the submitter (blk_mq_submit_bio); takes fq->mq_flush_lock.
 * Return: true when the machinery took @rq (or ended it: no policy),
 * false when the caller issues its DATA directly (data only; data with a
 * POSTFLUSH, then rq->flush_seq_active routes its completion to
 * km_mq_flush_data_end_io).
 */
bool km_blk_insert_flush(struct m_blk_flush_queue *fq,
			 struct m_blk_mq_request *rq,
			 const struct m_blk_flush_ops *ops)
{
	unsigned int policy = rq->plan.policy;

	switch (policy) {
	case 0:
		/* An empty flush on a queue without a write cache. */
		ops->end_request(rq, 0);
		return true;
	case M_REQ_FSEQ_DATA:
		/* Data, no flush needed: a normal request. */
		return false;
	case M_REQ_FSEQ_DATA | M_REQ_FSEQ_POSTFLUSH:
		/* The data goes as it is; its completion queues the
		 * POSTFLUSH. */
		blk_rq_init_flush(rq);
		rq->flush_seq |= M_REQ_FSEQ_PREFLUSH;
		fq->flush_data_in_flight++;
		return false;
	default:
		blk_rq_init_flush(rq);
		blk_flush_complete_seq(rq, fq, M_REQ_FSEQ_ACTIONS & ~policy, 0,
				       ops);
		return true;
	}
}

/*
 * m_blk_flush_queue_check - invariants of one flush queue, after every
 * step (called from m_blkdev_check on the timed device):
 *  1. the pending and running indexes are 0 or 1;
 *  2. with a flush in flight (the indexes differ) the list it serves,
 *     flush_queue[running_idx], is not empty (blk_kick_flush issues for
 *     a non-empty list, and only flush_end_io takes it);
 *  3. with none in flight the list the last flush served is empty;
 *  4. every request on a list is flush-sequenced and waits for a
 *     PREFLUSH or a POSTFLUSH.
 * Not checked: flush_data_in_flight against the requests executing DATA
 * (they are on no list).
 */
void m_blk_flush_queue_check(const struct m_blk_flush_queue *fq)
{
	unsigned int p = fq->flush_pending_idx, r = fq->flush_running_idx;

	SIM_CHECK(p <= 1 && r <= 1, "flush queue: indexes %u/%u", p, r);
	if (p != r)
		SIM_CHECK(fq->flush_queue[r] != NULL,
			  "flush queue: a flush in flight serves nothing");
	else
		SIM_CHECK(fq->flush_queue[p ^ 1] == NULL,
			  "flush queue: served requests left after the flush");
	for (unsigned int i = 0; i < 2; i++)
		for (const struct m_blk_mq_request *rq = fq->flush_queue[i];
		     rq; rq = rq->flush_next) {
			unsigned int seq = blk_flush_cur_seq(rq);

			SIM_CHECK(rq->flush_seq_active &&
				  (seq == M_REQ_FSEQ_PREFLUSH ||
				   seq == M_REQ_FSEQ_POSTFLUSH),
				  "flush queue: request at seq %#x on list %u",
				  seq, i);
		}
}
