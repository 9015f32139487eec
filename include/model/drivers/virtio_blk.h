/* SPDX-License-Identifier: MIT */
/*
 * The virtio disk below a loop device: its ring's descriptors and the
 * requests that wait for them in the disk's I/O scheduler
 * (model/drivers/block/virtio_blk.c; drivers/block/virtio_blk.c,
 * block/blk-mq.c, block/blk-mq-sched.c, block/mq-deadline.c, v6.18).
 * Timed only; a device profile with virtio_ring_descs
 * (include/model/hw/nvme.h).  Since session 24 (h24-merge).
 */
#ifndef WPSIM_MODEL_DRIVERS_VIRTIO_BLK_H
#define WPSIM_MODEL_DRIVERS_VIRTIO_BLK_H

#include <stdbool.h>
#include <stdint.h>

#include "model/linux/elevator.h"

struct m_virtblk_stats {
	uint64_t bios;			/* bios that came to the disk */
	uint64_t requests;		/* requests queue_rq took into the ring */
	uint64_t ring_full;		/* queue_rq's -ENOSPC (DEV_RESOURCE) */
	uint64_t restarts;		/* virtblk_done restarting the queue */
	uint32_t waiting_max;		/* the most requests waiting at once */
	uint32_t descs_max;		/* the most descriptors in use */
};

struct m_virtblk {
	uint32_t ring_descs;		/* vring.num */
	uint32_t descs_free;		/* vq->num_free */
	bool stopped;			/* BLK_MQ_S_STOPPED */
	struct m_sched_rq *dispatch;	/* hctx->dispatch: the one that failed */
	struct m_sched_queue sched;	/* mq-deadline's requests */
	/* virtqueue_notify: the device takes @rq (its bios: rq, then its
	 * bio_next chain). */
	void (*issue)(struct m_sched_rq *rq);
	struct m_virtblk_stats stats;
};

void m_virtblk_init(struct m_virtblk *vb, uint32_t ring_descs,
		    uint32_t max_sectors, uint32_t max_segments,
		    void (*issue)(struct m_sched_rq *rq));
/* blk_mq_submit_bio on the disk: @bio (one of its own, the caller's
 * node, alive until issued) merges into a waiting request, or becomes
 * a request that is inserted and the queue run. */
void m_virtblk_submit_bio(struct m_virtblk *vb, struct m_sched_rq *bio);
int km_virtio_queue_rq(struct m_virtblk *vb, struct m_sched_rq *rq);
void km_virtblk_done(struct m_virtblk *vb, uint32_t descs);

#endif
