/* SPDX-License-Identifier: MIT */
/*
 * model/block/blk-mq: the multi-queue block layer between a bio and the
 * device: software (per-CPU) to hardware queue mapping, tags per hardware
 * queue, request flags, and the PREFLUSH/FUA sequencing.
 *
 * Kernel: block/blk-mq.c, block/blk-mq-tag.c, block/blk-mq-cpumap.c,
 * block/blk-flush.c, block/blk-core.c (submit_bio_noacct's flush filter),
 * lib/group_cpus.c, v6.18.  docs/model/blk-mq.md says what is modelled,
 * what is left out and how the timed engine is meant to wait.
 *
 * A pure function layer: nothing here is a scheduling point and nothing
 * sleeps.  Where the kernel sleeps (no tag free), m_blk_mq_get_tag()
 * returns -EBUSY and the caller waits on the hardware queue's tag wait
 * queue and retries (the engine integration, docs/model/blk-mq.md).
 */
#ifndef WPSIM_MODEL_BLOCK_BLK_MQ_H
#define WPSIM_MODEL_BLOCK_BLK_MQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model/hw/nvme.h"
#include "model/linux/bio.h"

/* include/linux/blk_types.h, v6.18: REQ_SYNC, REQ_IDLE and REQ_FUA come
 * from model/linux/bio.h; the model's bit for REQ_PREFLUSH: */
#ifndef REQ_PREFLUSH
#define REQ_PREFLUSH	(1u << 3)
#endif

/* Queue features (include/linux/blkdev.h, v6.18, BLK_FEAT_*). */
#define M_BLK_FEAT_WRITE_CACHE	(1u << 0)
#define M_BLK_FEAT_FUA		(1u << 1)
#define M_BLK_FEAT_ROTATIONAL	(1u << 2)

/* Tag allocation flags (include/linux/blk-mq.h, BLK_MQ_REQ_*). */
#define M_BLK_MQ_REQ_NOWAIT	(1u << 0)

/* PREFLUSH/FUA sequence steps (block/blk-flush.c, REQ_FSEQ_*). */
#define M_REQ_FSEQ_PREFLUSH	(1u << 0)
#define M_REQ_FSEQ_DATA		(1u << 1)
#define M_REQ_FSEQ_POSTFLUSH	(1u << 2)

/* Bounds, with units. */
#define M_BLK_MQ_CPUS_MAX	256	/* software queues (CPUs) */
#define M_BLK_MQ_HW_QUEUES_MAX	256	/* hardware queues */
#define M_BLK_MQ_DEPTH_MAX	4096	/* tags per hardware queue */
#define M_BLK_PLAN_STEPS_MAX	3	/* PREFLUSH, DATA, POSTFLUSH */

/* Tags of one hardware queue: a bitmap, 1 = in use (sbitmap_queue). */
struct m_blk_mq_tags {
	uint32_t nr_tags;
	uint32_t nr_free;
	uint64_t *bitmap;		/* [(nr_tags + 63) / 64] */
};

struct m_blk_mq_hw_ctx {
	uint32_t queue_num;
	struct m_blk_mq_tags tags;
	uint64_t requests;		/* tags handed out, ever */
	uint64_t tag_busy;		/* allocations that found none free */
};

struct m_request_queue {
	unsigned int features;		/* M_BLK_FEAT_* */
	bool write_cache_disabled;	/* BLK_FLAG_WRITE_CACHE_DISABLED */
	uint32_t nr_cpus;
	uint32_t nr_hw_queues;
	uint32_t queue_depth;		/* tags per hardware queue */
	uint16_t mq_map[M_BLK_MQ_CPUS_MAX];	/* CPU -> hardware queue */
	struct m_blk_mq_hw_ctx *hctx;	/* [nr_hw_queues] */
};

/* One device command of a request's sequence. */
struct m_blk_plan {
	unsigned int nr;			/* steps, 0 = done already */
	struct hw_nvme_cmd step[M_BLK_PLAN_STEPS_MAX];
	unsigned int policy;			/* M_REQ_FSEQ_* */
};

/* A request: one bio, one tag, one plan (no merging). */
struct m_blk_mq_request {
	struct m_blk_mq_hw_ctx *hctx;
	int tag;
	enum km_req_op op;
	unsigned int cmd_flags;		/* REQ_* after the flush rules */
	sector_t sector;
	uint32_t bytes;
	struct m_blk_plan plan;
	/* rq->wbt_flags and rq->io_start_time_ns (model/block/blk-wbt.c);
	 * set by the timed queue after m_blk_mq_submit_bio. */
	unsigned int wbt_flags;
	uint64_t io_start_ns;
	/* The device's ticket for its command in flight (a pass_complete
	 * device holds its completion to its pass's end: model/block/bio.c
	 * timed_step_done, model/hw/nvme.c). */
	struct hw_nvme_ticket ticket;
	/* The ring descriptors its command holds on a virtio disk below
	 * (model/drivers/block/virtio_blk.c; 0: none, or a bio merged
	 * into another's command). */
	uint32_t vq_descs;
	/* The flush state machine (model/block/blk-flush.c): RQF_FLUSH_SEQ,
	 * rq->flush.seq, its place on a flush list (rq->queuelist), the bio
	 * it carries. */
	bool flush_seq_active;
	unsigned int flush_seq;			/* M_REQ_FSEQ_* done */
	struct m_blk_mq_request *flush_next;
	struct km_bio *bio;
};

/* REQ_FSEQ_DONE and REQ_FSEQ_ACTIONS (block/blk-flush.c, v6.18). */
#define M_REQ_FSEQ_DONE		(1u << 3)
#define M_REQ_FSEQ_ACTIONS	(M_REQ_FSEQ_PREFLUSH | M_REQ_FSEQ_DATA | \
				 M_REQ_FSEQ_POSTFLUSH)

/*
 * struct blk_flush_queue (block/blk.h, v6.18), one per hardware queue:
 * the double-buffered pending lists, which one collects (pending_idx)
 * and which one the flush in flight serves (running_idx; equal: none in
 * flight), when the pending list got its first request (jiffies), and
 * how many flush-sequenced requests are executing DATA.
 */
struct m_blk_flush_queue {
	unsigned int flush_pending_idx;
	unsigned int flush_running_idx;
	unsigned long flush_pending_since;
	unsigned int flush_data_in_flight;
	struct m_blk_mq_request *flush_queue[2];	/* FIFO heads */
	struct m_blk_mq_request *flush_queue_tail[2];
	/* Model glue: counts every change of the fields
	 * m_blk_flush_queue_check reads (the indexes and the lists), so
	 * that the device's check can pass idle queues that did not
	 * change (m_blkdev_check); NULL counts nothing. */
	uint32_t *changes;
};

/*
 * What the flush state machine asks of the queue below it (the timed
 * block layer, model/block/bio.c): issue @rq's DATA command (the
 * requeue list -> dispatch), issue the flush request of @fq (REQ_OP_FLUSH
 * borrowing the first pending request's tag), end @rq (blk_mq_end_request),
 * and the time in jiffies.
 */
struct m_blk_flush_ops {
	void (*issue_data)(struct m_blk_mq_request *rq);
	void (*issue_flush)(struct m_blk_flush_queue *fq);
	void (*end_request)(struct m_blk_mq_request *rq, int error);
	unsigned long (*jiffies)(void);
};

/* FLUSH_PENDING_TIMEOUT (block/blk-flush.c, v6.18): 5 * HZ, HZ 250. */
#define M_FLUSH_PENDING_TIMEOUT	(5 * 250)

void m_blk_flush_queue_init(struct m_blk_flush_queue *fq, uint32_t *changes);
/* True when @fq holds nothing: no flush in flight, both lists empty. */
bool m_blk_flush_queue_idle(const struct m_blk_flush_queue *fq);
/* Invariants of @fq (model/block/blk-flush.c lists them); no yields. */
void m_blk_flush_queue_check(const struct m_blk_flush_queue *fq);

/*
 * km_blk_insert_flush - a request with PREFLUSH/FUA enters the flush
 * machinery (block/blk-flush.c blk_insert_flush, v6.18), after
 * m_blk_flush_policy set rq->plan.policy.
 * Return: true when the machinery took it (or ended it), false when the
 * caller issues its DATA as a normal request (data only; or data with a
 * POSTFLUSH, counted in flush_data_in_flight, whose completion must go
 * to km_mq_flush_data_end_io since rq->flush_seq_active is set).
 */
bool km_blk_insert_flush(struct m_blk_flush_queue *fq,
			 struct m_blk_mq_request *rq,
			 const struct m_blk_flush_ops *ops);

/* km_flush_end_io - the flush request of @fq completed (flush_end_io). */
void km_flush_end_io(struct m_blk_flush_queue *fq, int error,
		     const struct m_blk_flush_ops *ops);

/* km_mq_flush_data_end_io - a flush-sequenced request's DATA completed. */
void km_mq_flush_data_end_io(struct m_blk_flush_queue *fq,
			     struct m_blk_mq_request *rq, int error,
			     const struct m_blk_flush_ops *ops);

/* Bytes of memory m_blk_mq_init_queue() needs. */
size_t m_blk_mq_mem_size(uint32_t nr_hw_queues, uint32_t queue_depth);

/*
 * Set up @q for @nr_cpus CPUs over a device of profile @p, as the NVMe
 * and virtio drivers do: nr_hw_queues = min(CPUs, the device's queues),
 * queue_depth tags each, features from the profile (volatile cache ->
 * WRITE_CACHE, native FUA -> FUA, rotational), then km_blk_mq_map_queues.
 * @mem: m_blk_mq_mem_size(nr_hw_queues, depth) bytes, 8-byte aligned.
 * Return: 0, or -EINVAL (no CPUs, or beyond the bounds above).
 */
int m_blk_mq_init_queue(struct m_request_queue *q,
			const struct hw_nvme_profile *p, uint32_t nr_cpus,
			void *mem);

/*
 * km_blk_mq_map_queues - spread CPUs over hardware queues.
 * Kernel: block/blk-mq-cpumap.c blk_mq_map_queues with
 * lib/group_cpus.c group_cpus_evenly, v6.18.
 * Divergences: one NUMA node, no SMT siblings, every possible CPU
 * present; the default map only (no read or poll maps).
 */
void km_blk_mq_map_queues(uint16_t *mq_map, uint32_t nr_cpus,
			  uint32_t nr_queues);

/* The hardware queue @cpu's software queue maps to; NULL past nr_cpus. */
struct m_blk_mq_hw_ctx *m_blk_mq_map_queue(struct m_request_queue *q,
					   uint32_t cpu);

/*
 * Allocate a tag on @hctx (blk_mq_get_tag without its sleep).
 * Return: the tag (lowest free), -EAGAIN when none is free and @flags has
 * M_BLK_MQ_REQ_NOWAIT, -EBUSY when none is free and the caller would
 * sleep in the kernel: it must wait for m_blk_mq_put_tag() on this hctx
 * and call again.
 */
int m_blk_mq_get_tag(struct m_blk_mq_hw_ctx *hctx, unsigned int flags);

/*
 * Free @tag (blk_mq_put_tag).  The kernel's sbitmap_queue_clear then
 * wakes a waiter of the tag wait queue: the caller's part.
 */
void m_blk_mq_put_tag(struct m_blk_mq_hw_ctx *hctx, int tag);

/* blk_queue_write_cache() of v6.18: the feature, unless disabled. */
bool m_blk_queue_write_cache(const struct m_request_queue *q);

/*
 * The flush filter of submit_bio_noacct (block/blk-core.c, v6.18): on a
 * queue without a volatile write cache PREFLUSH and FUA are stripped from
 * *@opf, and a bio left without data completes at once.
 * Return: 1 when the bio is complete (status 0) without reaching the
 * driver, 0 to go on, -EIO for PREFLUSH/FUA on an op other than WRITE.
 */
int m_blk_flush_filter_bio(const struct m_request_queue *q,
			   enum km_req_op op, unsigned int *opf,
			   uint32_t bytes);

/*
 * The policy of blk_insert_flush (block/blk-flush.c, v6.18): which of
 * PREFLUSH, DATA, POSTFLUSH a request needs; *@cmd_flags loses
 * REQ_PREFLUSH, loses REQ_FUA unless the queue has FUA, gains REQ_SYNC.
 */
unsigned int m_blk_flush_policy(const struct m_request_queue *q,
				unsigned int *cmd_flags, uint32_t bytes);

/*
 * A bio's path to the device, in blk_mq_submit_bio's order: the flush
 * filter, map @cpu to its hardware queue, get a tag, bio to request,
 * the flush policy, the plan of device commands (FLUSH, the data command
 * with FUA when native, FLUSH).  @bytes is the bio's size (0 for an
 * empty flush).
 * Return: 0 with @rq set up (rq->plan.nr steps to issue in order, each
 * after the previous completes); 1 when the bio completed without the
 * device (no tag is held); -EAGAIN / -EBUSY from m_blk_mq_get_tag (no
 * tag held; with -EBUSY wait and retry); -EIO from the filter; -EINVAL
 * for a CPU past nr_cpus, a size hw_nvme rejects, or a bio without data
 * that is not a flush.
 */
int m_blk_mq_submit_bio(struct m_request_queue *q, uint32_t cpu,
			enum km_req_op op, unsigned int opf, sector_t sector,
			uint32_t bytes, unsigned int alloc_flags,
			struct m_blk_mq_request *rq);

/* The request completed (every plan step done): free its tag. */
void m_blk_mq_end_request(struct m_blk_mq_request *rq);

/* Deterministic dump: per hardware queue, tags in use, counters. */
void m_blk_mq_dump(const struct m_request_queue *q, FILE *out);

#endif
