/* SPDX-License-Identifier: MIT */
/*
 * include/linux/elevator.h's enum elv_merge, with the model's request of
 * a scheduler and the merge functions (declared here, outside the
 * floors, as the kernel's are shared between block/ and the drivers).
 *
 * Merging of bios into the requests an I/O scheduler holds
 * (model/block/blk-merge.c; block/blk-merge.c, block/elevator.c,
 * block/mq-deadline.c, v6.18), for the disk below a loop device
 * (model/drivers/block/virtio_blk.c): a request waiting in the
 * scheduler while the disk's ring is full takes an adjacent bio into it
 * (a back or front merge), and two requests made adjacent by it become
 * one.  Timed only; since session 24 (h24-merge).
 */
#ifndef WPSIM_MODEL_LINUX_ELEVATOR_H
#define WPSIM_MODEL_LINUX_ELEVATOR_H

#include <stdbool.h>
#include <stdint.h>

/* enum elv_merge (include/linux/elevator.h, v6.18), the cases the model
 * has (no discard merge). */
enum km_elv_merge {
	KM_ELEVATOR_NO_MERGE = 0,
	KM_ELEVATOR_FRONT_MERGE = 1,
	KM_ELEVATOR_BACK_MERGE = 2,
};

/*
 * A request of the scheduler's disk (struct request: blk_rq_pos,
 * blk_rq_sectors, nr_phys_segments, its bio chain), or a bio coming to
 * it (one of its own).  @arg is the caller's (the model's bio of the
 * loop device's request whose backing bio this is, or a flush).
 */
struct m_sched_rq {
	struct m_sched_rq *next;	/* the scheduler's list, arrival order */
	struct m_sched_rq *bio_next;	/* rq->bio ... bi_next: its bios */
	struct m_sched_rq *biotail;	/* rq->biotail */
	uint64_t sector;		/* blk_rq_pos */
	uint32_t sectors;		/* blk_rq_sectors */
	uint32_t segs;			/* nr_phys_segments */
	uint32_t descs;			/* ring descriptors while in flight */
	uint8_t op;			/* the device's command (HW_NVME_*) */
	bool nomerge;			/* !rq_mergeable: a flush, FUA */
	bool dispatched;		/* out of the scheduler (hctx->dispatch) */
	uint8_t kind;			/* the caller's: what @arg is */
	void *arg;
};

/* The scheduler's requests (mq-deadline's sort and FIFO lists, its
 * elevator hash, q->last_merge) and the disk's limits that bound a
 * merge (blk_rq_get_max_sectors, blk_rq_get_max_segments). */
struct m_sched_queue {
	struct m_sched_rq *head, **tail;
	struct m_sched_rq *last_merge;	/* q->last_merge */
	uint32_t nr;
	uint32_t max_sectors;
	uint32_t max_segments;
	uint64_t bio_merges;		/* bios merged into a request */
	uint64_t rq_merges;		/* requests merged into another */
};

void m_sched_queue_init(struct m_sched_queue *q, uint32_t max_sectors,
			uint32_t max_segments);
bool km_blk_rq_merge_ok(const struct m_sched_rq *rq,
			const struct m_sched_rq *bio);
enum km_elv_merge km_blk_try_merge(const struct m_sched_rq *rq,
				   const struct m_sched_rq *bio);
bool km_ll_back_merge_fn(struct m_sched_queue *q, struct m_sched_rq *req,
			 const struct m_sched_rq *bio);
/* The scheduler's list (dd_insert_request without its insert merge;
 * dd_dispatch_request's removal, in arrival order). */
void m_sched_insert(struct m_sched_queue *q, struct m_sched_rq *rq);
struct m_sched_rq *m_sched_pop(struct m_sched_queue *q);
bool km_bio_attempt_back_merge(struct m_sched_queue *q, struct m_sched_rq *req,
			       struct m_sched_rq *bio);
bool km_bio_attempt_front_merge(struct m_sched_queue *q,
				struct m_sched_rq *req, struct m_sched_rq *bio);
bool km_blk_mq_sched_try_merge(struct m_sched_queue *q, struct m_sched_rq *bio);

#endif
