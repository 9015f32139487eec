// SPDX-License-Identifier: MIT
/*
 * model/block/blk-mq.c - hardware queues, tags, requests.
 *
 * Models block/blk-mq.c (blk_mq_submit_bio's order of steps, request
 * flags), block/blk-mq-tag.c (a tag per request from the hardware
 * queue's set, none free -> sleep or -EAGAIN with NOWAIT),
 * v6.18, as pure functions (the CPU to queue map is in
 * model/block/blk-mq-cpumap.c): the timed engine's integration adds the
 * sleeping (docs/model/blk-mq.md).
 *
 * Bio splitting happens before (km_submit_bio, model/block/blk-merge.c).
 *
 * Leaves out: plugging and the plug's cached requests, merging (every
 * bio is one request), the I/O schedulers (mq-deadline's scheduler tags and
 * dispatch order; requests are issued directly, as with "none"), the
 * dispatch list and BLK_STS_RESOURCE requeues, reserved tags, shared
 * tag sets and the fair-share depth of hctx_may_queue, poll and read
 * queue maps, sbitmap's per-CPU allocation hints (the lowest free tag is
 * taken), queue freezing and usage counters, rq_qos (wbt), timeouts,
 * integrity, crypto, zoned write plugging.
 */
#include <errno.h>
#include <string.h>

#include "model/block/blk-mq.h"

static uint32_t bitmap_words(uint32_t nr_tags)
{
	return (nr_tags + 63) / 64;
}

size_t m_blk_mq_mem_size(uint32_t nr_hw_queues, uint32_t queue_depth)
{
	return (size_t)nr_hw_queues * (sizeof(struct m_blk_mq_hw_ctx) +
				       bitmap_words(queue_depth) *
				       sizeof(uint64_t));
}

int m_blk_mq_init_queue(struct m_request_queue *q,
			const struct hw_nvme_profile *p, uint32_t nr_cpus,
			void *mem)
{
	uint32_t nr_hw = p->nr_hw_queues < nr_cpus ? p->nr_hw_queues :
						     nr_cpus;
	char *m = mem;

	if (!nr_cpus || nr_cpus > M_BLK_MQ_CPUS_MAX ||
	    nr_hw > M_BLK_MQ_HW_QUEUES_MAX || !p->queue_depth ||
	    p->queue_depth > M_BLK_MQ_DEPTH_MAX || !mem)
		return -EINVAL;
	memset(q, 0, sizeof(*q));
	q->nr_cpus = nr_cpus;
	q->nr_hw_queues = nr_hw;
	q->queue_depth = p->queue_depth;
	if (hw_nvme_volatile_cache(p))
		q->features |= M_BLK_FEAT_WRITE_CACHE;
	if (hw_nvme_native_fua(p))
		q->features |= M_BLK_FEAT_FUA;
	if (p->rotational)
		q->features |= M_BLK_FEAT_ROTATIONAL;
	q->hctx = (struct m_blk_mq_hw_ctx *)m;
	m += (size_t)nr_hw * sizeof(*q->hctx);
	for (uint32_t i = 0; i < nr_hw; i++) {
		struct m_blk_mq_hw_ctx *h = &q->hctx[i];

		memset(h, 0, sizeof(*h));
		h->queue_num = i;
		h->tags.nr_tags = p->queue_depth;
		h->tags.nr_free = p->queue_depth;
		h->tags.bitmap = (uint64_t *)m;
		memset(m, 0, bitmap_words(p->queue_depth) * sizeof(uint64_t));
		m += bitmap_words(p->queue_depth) * sizeof(uint64_t);
	}
	km_blk_mq_map_queues(q->mq_map, nr_cpus, nr_hw);
	return 0;
}

struct m_blk_mq_hw_ctx *m_blk_mq_map_queue(struct m_request_queue *q,
					   uint32_t cpu)
{
	if (cpu >= q->nr_cpus)
		return NULL;
	return &q->hctx[q->mq_map[cpu]];
}

int m_blk_mq_get_tag(struct m_blk_mq_hw_ctx *hctx, unsigned int flags)
{
	struct m_blk_mq_tags *t = &hctx->tags;

	if (t->nr_free) {
		for (uint32_t w = 0; w < bitmap_words(t->nr_tags); w++) {
			uint64_t free_bits = ~t->bitmap[w];
			uint32_t bit;

			if (!free_bits)
				continue;
			bit = (uint32_t)__builtin_ctzll(free_bits);
			if (w * 64 + bit >= t->nr_tags)
				break;
			t->bitmap[w] |= 1ULL << bit;
			t->nr_free--;
			hctx->requests++;
			return (int)(w * 64 + bit);
		}
	}
	hctx->tag_busy++;
	return (flags & M_BLK_MQ_REQ_NOWAIT) ? -EAGAIN : -EBUSY;
}

void m_blk_mq_put_tag(struct m_blk_mq_hw_ctx *hctx, int tag)
{
	struct m_blk_mq_tags *t = &hctx->tags;

	t->bitmap[tag / 64] &= ~(1ULL << (tag % 64));
	t->nr_free++;
}

/* The data command of a request, after the flush rules. */
static void data_cmd(const struct m_blk_mq_request *rq,
		     struct hw_nvme_cmd *cmd)
{
	*cmd = (struct hw_nvme_cmd){
		.op = rq->op == REQ_OP_READ ? HW_NVME_READ :
		      rq->op == REQ_OP_DISCARD ? HW_NVME_DISCARD :
						 HW_NVME_WRITE,
		.flags = (rq->cmd_flags & REQ_FUA) ? HW_NVME_CMD_FUA : 0,
		.lba = rq->sector,
		.bytes = rq->bytes,
	};
}

int m_blk_mq_submit_bio(struct m_request_queue *q, uint32_t cpu,
			enum km_req_op op, unsigned int opf, sector_t sector,
			uint32_t bytes, unsigned int alloc_flags,
			struct m_blk_mq_request *rq)
{
	struct m_blk_mq_hw_ctx *hctx;
	struct m_blk_plan *plan = &rq->plan;
	unsigned int policy;
	int tag, rc;

	/* A bio without data is only a flush. */
	if ((bytes > HW_NVME_CMD_BYTES_MAX && op != REQ_OP_DISCARD) ||
	    bytes % HW_NVME_SECTOR_BYTES ||
	    (!bytes && (op == REQ_OP_READ ||
			!(opf & (REQ_PREFLUSH | REQ_FUA)))))
		return -EINVAL;
	/* submit_bio_noacct (block/blk-core.c): the flush filter. */
	rc = m_blk_flush_filter_bio(q, op, &opf, bytes);
	if (rc)
		return rc;
	/* blk_mq_get_new_requests: the software queue's hctx, a tag. */
	hctx = m_blk_mq_map_queue(q, cpu);
	if (!hctx)
		return -EINVAL;
	tag = m_blk_mq_get_tag(hctx, alloc_flags);
	if (tag < 0)
		return tag;
	/* blk_mq_bio_to_request. */
	memset(rq, 0, sizeof(*rq));
	rq->hctx = hctx;
	rq->tag = tag;
	rq->op = op;
	rq->cmd_flags = opf;
	rq->sector = sector;
	rq->bytes = bytes;
	/* op_is_flush -> blk_insert_flush; else issue the data alone. */
	if (!(opf & (REQ_PREFLUSH | REQ_FUA))) {
		plan->policy = M_REQ_FSEQ_DATA;
		plan->nr = 1;
		data_cmd(rq, &plan->step[0]);
		return 0;
	}
	policy = m_blk_flush_policy(q, &rq->cmd_flags, bytes);
	plan->policy = policy;
	if (!policy) {
		/* blk_insert_flush ends the request at once. */
		m_blk_mq_put_tag(hctx, tag);
		return 1;
	}
	if (policy & M_REQ_FSEQ_PREFLUSH)
		plan->step[plan->nr++] = (struct hw_nvme_cmd){
			.op = HW_NVME_FLUSH };
	if (policy & M_REQ_FSEQ_DATA)
		data_cmd(rq, &plan->step[plan->nr++]);
	if (policy & M_REQ_FSEQ_POSTFLUSH)
		plan->step[plan->nr++] = (struct hw_nvme_cmd){
			.op = HW_NVME_FLUSH };
	return 0;
}

void m_blk_mq_end_request(struct m_blk_mq_request *rq)
{
	m_blk_mq_put_tag(rq->hctx, rq->tag);
	rq->tag = -1;
}

void m_blk_mq_dump(const struct m_request_queue *q, FILE *out)
{
	fprintf(out, "blk-mq: %u CPUs, %u hardware queues x %u tags, "
		"features%s%s%s%s\n", q->nr_cpus, q->nr_hw_queues,
		q->queue_depth,
		q->features & M_BLK_FEAT_WRITE_CACHE ? " write_cache" : "",
		q->features & M_BLK_FEAT_FUA ? " fua" : "",
		q->features & M_BLK_FEAT_ROTATIONAL ? " rotational" : "",
		q->write_cache_disabled ? " (write cache disabled)" : "");
	for (uint32_t i = 0; i < q->nr_hw_queues; i++) {
		const struct m_blk_mq_hw_ctx *h = &q->hctx[i];

		fprintf(out, "  hctx %u: cpus", i);
		for (uint32_t c = 0; c < q->nr_cpus; c++)
			if (q->mq_map[c] == i)
				fprintf(out, " %u", c);
		fprintf(out, "; tags in use %u/%u, requests %llu, busy %llu\n",
			h->tags.nr_tags - h->tags.nr_free, h->tags.nr_tags,
			(unsigned long long)h->requests,
			(unsigned long long)h->tag_busy);
	}
}
