// SPDX-License-Identifier: MIT
/*
 * model/drivers/block/virtio_blk.c - the virtio disk's ring, timed.
 *
 * Models drivers/block/virtio_blk.c, v6.18, as far as its ring bounds
 * what reaches the host: virtblk_probe sizes the queue to fill the ring
 * (queue_depth = vq->num_free, halved when the device has no indirect
 * descriptors: VIRTIO_RING_F_INDIRECT_DESC), and virtio_queue_rq ->
 * virtblk_add_req puts a request in the ring as its header, one
 * descriptor per data segment and its status (virtqueue_add_sgs), so a
 * request of n segments takes 2 + n descriptors.  When they are not
 * free the add fails with -ENOSPC: queue_rq stops the hardware queue
 * (blk_mq_stop_hw_queue) and returns BLK_STS_DEV_RESOURCE, the request
 * goes to hctx->dispatch, and the requests behind it stay in the I/O
 * scheduler (the disk's mq-deadline: block/blk-mq-sched.c
 * __blk_mq_do_dispatch_sched takes one only when it can be dispatched),
 * where a bio that comes meanwhile can merge into one of them
 * (blk_mq_submit_bio -> blk_mq_sched_bio_merge -> dd_bio_merge ->
 * blk_mq_sched_try_merge: model/block/blk-merge.c).  virtblk_done frees
 * the descriptors of what the host returned (virtqueue_get_buf) and
 * restarts a stopped queue (blk_mq_start_stopped_hw_queues), which
 * dispatches the waiting requests in turn until the ring is full again.
 *
 * On this machine (docs/model/blk-mq.md "The virtio ring", 2026-12-07):
 * vda has 128 tags and no indirect descriptors (feature bit 28 clear),
 * so a ring of 256; the loop device's requests come to it as the
 * backing file's direct I/O, one bio each, with their pages as
 * segments: a 512 KiB request of 128 pages takes 130, and a second
 * does not fit beside it.
 *
 * Leaves out: mq-deadline's dispatch order (sorted batches, fifo_batch,
 * the expiry of the FIFO: the model dispatches in arrival order), its
 * per-priority lists; the scheduler's own tags (nr_requests) and the
 * driver tags (the ring binds first for every request of more than one
 * segment); kblockd's run after a restart (the model dispatches in the
 * completion, at its time, with no CPU); the insert merge
 * (model/block/blk-merge.c); a flush's request takes its two
 * descriptors but never merges; the ring's use by other I/O of the
 * disk (the host's root filesystem shares vda).
 */
#include <errno.h>
#include <stddef.h>

#include "model/drivers/virtio_blk.h"

void m_virtblk_init(struct m_virtblk *vb, uint32_t ring_descs,
		    uint32_t max_sectors, uint32_t max_segments,
		    void (*issue)(struct m_sched_rq *rq))
{
	*vb = (struct m_virtblk){ .ring_descs = ring_descs,
				  .descs_free = ring_descs, .issue = issue };
	m_sched_queue_init(&vb->sched, max_sectors, max_segments);
}

/**
 * km_virtio_queue_rq - put a request in the ring.
 * Kernel: drivers/block/virtio_blk.c virtio_queue_rq (virtblk_add_req),
 * v6.18.
 * Context: the queue's run (the submitter's, or the completion's after
 * a restart): a step on the timed queue.
 * Return: 0 with the request's descriptors taken (rq->descs); -ENOSPC
 * (BLK_STS_DEV_RESOURCE) when they are not free, the queue then
 * stopped.
 * Divergences: the descriptors of a data request are 2 + its segments
 * as the model counts them (a page of a direct I/O buffer, a folio:
 * blk_rq_map_sg merges physically contiguous ones, the model never);
 * no kick or notify is modelled (the device takes the request at once:
 * m_virtblk's issue).
 */
int km_virtio_queue_rq(struct m_virtblk *vb, struct m_sched_rq *rq)
{
	uint32_t descs = 2 + (rq->sectors ? rq->segs : 0);

	if (descs > vb->descs_free) {
		vb->stats.ring_full++;
		vb->stopped = true;	/* blk_mq_stop_hw_queue */
		return -ENOSPC;
	}
	vb->descs_free -= descs;
	rq->descs = descs;
	vb->stats.requests++;
	if (vb->ring_descs - vb->descs_free > vb->stats.descs_max)
		vb->stats.descs_max = vb->ring_descs - vb->descs_free;
	return 0;
}

/*
 * blk_mq_run_hw_queue -> blk_mq_sched_dispatch_requests: nothing while
 * the queue is stopped; else hctx->dispatch first, then the scheduler's
 * requests, each to queue_rq until one does not fit (it goes to
 * hctx->dispatch, out of the scheduler: no merge into it any more).
 */
static void virtblk_run_queue(struct m_virtblk *vb)
{
	while (!vb->stopped) {
		struct m_sched_rq *rq = vb->dispatch;

		if (rq)
			vb->dispatch = NULL;
		else
			rq = m_sched_pop(&vb->sched);
		if (!rq)
			return;
		rq->dispatched = true;
		if (km_virtio_queue_rq(vb, rq)) {
			vb->dispatch = rq;
			return;
		}
		vb->issue(rq);
	}
}

void m_virtblk_submit_bio(struct m_virtblk *vb, struct m_sched_rq *bio)
{
	uint32_t waiting;

	vb->stats.bios++;
	bio->next = bio->bio_next = bio->biotail = NULL;
	bio->dispatched = false;
	bio->descs = 0;
	/* blk_mq_attempt_bio_merge -> blk_mq_sched_bio_merge (dd_bio_merge). */
	if (km_blk_mq_sched_try_merge(&vb->sched, bio))
		return;
	/* blk_mq_insert_request (dd_insert_request), blk_mq_run_hw_queue. */
	m_sched_insert(&vb->sched, bio);
	waiting = vb->sched.nr + (vb->dispatch != NULL);
	if (waiting > vb->stats.waiting_max)
		vb->stats.waiting_max = waiting;
	virtblk_run_queue(vb);
}

/**
 * km_virtblk_done - the host returned requests: free their descriptors
 * and restart the queue.
 * Kernel: drivers/block/virtio_blk.c virtblk_done, v6.18
 * (virtqueue_get_buf, blk_mq_start_stopped_hw_queues).
 * Context: the completion (interrupt), a step on the timed queue.
 * Divergences: one call a completed request (the kernel's takes every
 * used buffer of the interrupt); the restart runs the queue at once
 * where the kernel's is kblockd's work (async), at no CPU.
 */
void km_virtblk_done(struct m_virtblk *vb, uint32_t descs)
{
	vb->descs_free += descs;
	if (vb->stopped) {
		vb->stopped = false;
		vb->stats.restarts++;
	}
	virtblk_run_queue(vb);
}
