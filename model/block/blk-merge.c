// SPDX-License-Identifier: MIT
/*
 * model/block/blk-merge.c - bio splitting to the queue limits.
 *
 * Models the splitting half of block/blk-merge.c, v6.18, and
 * __bio_split_to_limits with bio_may_need_split (block/blk.h): a read or
 * write bio larger than max_sectors (aligned to the physical block when
 * it can be), or with more segments than max_segments, or with a gap at
 * the virtual boundary, is split: the front part is a new bio chained to
 * the original (bio_chain), the original is advanced past it and
 * submitted again (model/block/blk-core.c's loop plays current->bio_list);
 * a discard bio is split at max_discard_sectors and the granularity.
 * The device model (model/hw/nvme.c) then sees each piece as a command.
 *
 * The model's bios carry data three ways (include/model/linux/bio.h):
 * folio ranges (vec[]: one bvec each), a direct I/O buffer (dio_len:
 * the user buffer, one bvec per 4 KiB page of it, the buffer taken as
 * page aligned: fio's buffers are), or zeroes (zero_len: one bvec, the
 * zero folio).  bvec_phys is not known: a folio and a page are taken as
 * physically aligned to their size, so seg_boundary_mask (4 GiB) never
 * splits.
 *
 * Merging (since session 24, h24-merge): the merge of a bio into a
 * request an I/O scheduler holds (blk_mq_sched_try_merge: the elevator's
 * lookup, bio_attempt_back_merge / _front_merge with their limits, and
 * the request merge that follows, attempt_merge), for the disk below a
 * loop device (model/drivers/block/virtio_blk.c), on struct m_sched_rq
 * (include/model/linux/elevator.h): a request is its sectors, its
 * segments and its bios, nothing of struct request's data.
 *
 * Leaves out: the plug merge (blk_attempt_plug_merge: every plug of the
 * model's paths holds one request when it is flushed), the software
 * queues' merge without a scheduler (blk_bio_list_merge), the insert
 * merge (elv_attempt_insert_merge: it finds only what the bio merge
 * before it found), discard merges, blk_recalc_rq_segments, zone append and write
 * zeroes splitting, integrity, polled bios.  An atomic write
 * (REQ_ATOMIC) is bounded by atomic_write_max_sectors and its boundary
 * and is never split: one that would need it ends with -EINVAL.
 */
#include <errno.h>
#include <limits.h>

#include "model/linux/elevator.h"
#include "model/linux/bio.h"
#include "model/world.h"

/* One bvec of a model bio: its offset in its first page, its length. */
struct bvec {
	size_t offset;
	size_t len;
};

/*
 * bio_for_each_bvec, for the model's three kinds of data, in transfer
 * order: zeroes, the direct I/O buffer (page by page), then vec[].
 * Return: false past the last bvec; else bvec @i in *@bv.
 */
static bool bio_bvec(const struct km_bio *bio, size_t i, struct bvec *bv)
{
	size_t dio_pages = (bio->dio_len + PAGE_SIZE - 1) >> PAGE_SHIFT;
	struct km_bio_vec v;

	if (bio->zero_len) {
		if (!i) {
			*bv = (struct bvec){ 0, bio->zero_len };
			return true;
		}
		i--;
	}
	if (i < dio_pages) {
		size_t left = bio->dio_len - (i << PAGE_SHIFT);

		*bv = (struct bvec){ 0, left < PAGE_SIZE ? left : PAGE_SIZE };
		return true;
	}
	i -= dio_pages;
	if (i >= m_bio_iter_vcnt(bio))
		return false;
	v = m_bio_iter_vec(bio, (unsigned int)i);
	*bv = (struct bvec){ v.offset, v.len };
	return true;
}

/* bio_allowed_max_sectors */
static unsigned int bio_allowed_max_sectors(const struct km_queue_limits *lim)
{
	return (UINT_MAX - UINT_MAX % lim->logical_block_size) >> SECTOR_SHIFT;
}

/*
 * bio_submit_split: a negative @split_sectors ends the bio with that
 * error; a positive one splits the front part off (bio_split), chains it
 * to @bio (bio_chain) and marks it REQ_NOMERGE.  Return: the bio to
 * submit now, or NULL.  The kernel resubmits the remainder here
 * (submit_bio_noacct_nocheck: onto current->bio_list); the model's
 * km_submit_bio loops on it instead (model/block/blk-core.c).
 */
static struct km_bio *bio_submit_split(struct km_bio *bio, int split_sectors)
{
	struct km_bio *split;

	if (split_sectors < 0) {
		bio->status = split_sectors == -EAGAIN ? -KM_EAGAIN :
			      split_sectors == -EINVAL ? -KM_EINVAL : -KM_EIO;
		km_bio_endio(bio);
		return NULL;
	}
	if (!split_sectors)
		return bio;
	split = km_bio_split(bio, (unsigned int)split_sectors);
	km_bio_chain(split, bio);
	m_world()->dev.bios_split++;
	split->opf |= REQ_NOMERGE;
	return split;
}

/**
 * km_bio_split_discard - split a discard bio at max_discard_sectors.
 * Kernel: block/blk-merge.c bio_split_discard, v6.18.
 * Context: the submitter's; no shared access.
 * Return: the bio to submit now (@bio when it fits).
 */
struct km_bio *km_bio_split_discard(struct km_bio *bio,
				    const struct km_queue_limits *lim,
				    unsigned int *nsegs)
{
	unsigned int max_discard_sectors, granularity, split_sectors;
	sector_t tmp;

	*nsegs = 1;
	granularity = lim->discard_granularity >> SECTOR_SHIFT;
	if (granularity < 1)
		granularity = 1;
	max_discard_sectors = lim->max_discard_sectors;
	if (max_discard_sectors > bio_allowed_max_sectors(lim))
		max_discard_sectors = bio_allowed_max_sectors(lim);
	max_discard_sectors -= max_discard_sectors % granularity;
	if (!max_discard_sectors)
		return bio;
	if ((m_bio_size(bio) >> SECTOR_SHIFT) <= max_discard_sectors)
		return bio;
	split_sectors = max_discard_sectors;
	/* Stop at the previous aligned sector if the next would not be. */
	tmp = bio->sector + split_sectors -
	      ((lim->discard_alignment >> SECTOR_SHIFT) % granularity);
	tmp = tmp % granularity;
	if (split_sectors > tmp)
		split_sectors -= (unsigned int)tmp;
	return bio_submit_split(bio, (int)split_sectors);
}

/* get_max_io_size: max_sectors, its end on a physical block if it can. */
static unsigned int get_max_io_size(const struct km_bio *bio,
				    const struct km_queue_limits *lim)
{
	unsigned int pbs = lim->physical_block_size >> SECTOR_SHIFT;
	unsigned int lbs = lim->logical_block_size >> SECTOR_SHIFT;
	bool is_atomic = bio->opf & REQ_ATOMIC;
	unsigned int max_sectors, start, end;
	unsigned int boundary_sectors = is_atomic ?
		lim->atomic_write_boundary_sectors : 0;

	/* blk_boundary_sectors: an atomic write's boundary (chunk_sectors
	 * is 0 in the model's limits). */
	if (is_atomic)
		max_sectors = lim->atomic_write_max_sectors;
	else
		max_sectors = lim->max_sectors;
	if (boundary_sectors) {
		unsigned int left = boundary_sectors -
			(unsigned int)(bio->sector & (boundary_sectors - 1));

		if (left < max_sectors)
			max_sectors = left;
	}
	start = (unsigned int)(bio->sector & (pbs - 1));
	end = (start + max_sectors) & ~(pbs - 1);
	if (end > start)
		return end - start;
	return max_sectors & ~(lbs - 1);
}

/* bvec_gap_to_prev (block/blk.h): an SG gap at the virtual boundary. */
static bool bvec_gap_to_prev(const struct km_queue_limits *lim,
			     const struct bvec *bprv, size_t offset)
{
	if (!lim->virt_boundary_mask)
		return false;
	return (offset & lim->virt_boundary_mask) ||
	       ((bprv->offset + bprv->len) & lim->virt_boundary_mask);
}

/*
 * bvec_split_segs: the segments of @bv that fit in @max_segs and
 * @max_bytes are added to *@nsegs and *@bytes.  Return: true when @bv
 * must be split (it does not fit whole).
 */
static bool bvec_split_segs(const struct km_queue_limits *lim,
			    const struct bvec *bv, unsigned int *nsegs,
			    unsigned int *bytes, unsigned int max_segs,
			    unsigned int max_bytes)
{
	unsigned int max_len = max_bytes - *bytes;
	unsigned int len = bv->len < max_len ? (unsigned int)bv->len :
					       max_len;
	unsigned int total_len = 0, seg_size;

	while (len && *nsegs < max_segs) {
		/* get_max_segment_size; the boundary mask never binds. */
		seg_size = len < lim->max_segment_size ? len :
							 lim->max_segment_size;
		(*nsegs)++;
		total_len += seg_size;
		len -= seg_size;
		if ((bv->offset + total_len) & lim->virt_boundary_mask)
			break;
	}
	*bytes += total_len;
	return len > 0 || bv->len > max_len;
}

/**
 * km_bio_split_rw_at - whether and where to split a read or write bio.
 * Kernel: block/blk-merge.c bio_split_rw_at, v6.18.
 * Context: any; no shared access.
 * Return: 0 when @bio fits (*@segs its segments), the sectors of the
 * front part to split off, -EINVAL for a REQ_ATOMIC bio and -EAGAIN for
 * a REQ_NOWAIT bio that needs a split.
 * Divergences: no polled bios to clear;
 * the split alignment is the logical block (no zoned devices).
 */
int km_bio_split_rw_at(struct km_bio *bio, const struct km_queue_limits *lim,
		       unsigned int *segs, unsigned int max_bytes)
{
	struct bvec bv, bvprv;
	bool have_prev = false;
	unsigned int nsegs = 0, bytes = 0;

	for (size_t i = 0; bio_bvec(bio, i, &bv); i++) {
		if (have_prev && bvec_gap_to_prev(lim, &bvprv, bv.offset))
			goto split;
		if (nsegs < lim->max_segments &&
		    bytes + bv.len <= max_bytes &&
		    bv.offset + bv.len <= lim->min_segment_size) {
			nsegs++;
			bytes += (unsigned int)bv.len;
		} else if (bvec_split_segs(lim, &bv, &nsegs, &bytes,
					   lim->max_segments, max_bytes)) {
			goto split;
		}
		bvprv = bv;
		have_prev = true;
	}
	*segs = nsegs;
	return 0;
split:
	/* An atomic write is never split: the caller ends it with
	 * BLK_STS_INVAL. */
	if (bio->opf & REQ_ATOMIC)
		return -EINVAL;
	if (bio->opf & REQ_NOWAIT)
		return -EAGAIN;
	*segs = nsegs;
	bytes -= bytes % lim->logical_block_size;
	return (int)(bytes >> SECTOR_SHIFT);
}

/* bio_split_rw */
static struct km_bio *bio_split_rw(struct km_bio *bio,
				   const struct km_queue_limits *lim,
				   unsigned int *nr_segs)
{
	return bio_submit_split(bio, km_bio_split_rw_at(bio, lim, nr_segs,
				get_max_io_size(bio, lim) << SECTOR_SHIFT));
}

/* bio_may_need_split (block/blk.h): the one-bvec fast path. */
static bool bio_may_need_split(const struct km_bio *bio,
			       const struct km_queue_limits *lim)
{
	struct bvec bv, next;

	if (lim->chunk_sectors)
		return true;
	if (!bio_bvec(bio, 0, &bv) || bio_bvec(bio, 1, &next))
		return true;
	return bv.len + bv.offset > lim->min_segment_size;
}

/**
 * km___bio_split_to_limits - split a bio to fit the queue limits.
 * Kernel: block/blk.h __bio_split_to_limits, v6.18 (called by
 * blk_mq_submit_bio).
 * Context: the submitter's; no shared access (the remaining count of a
 * split's parent is made by km_bio_chain).
 * Return: the bio to submit now: @bio when it fits, else the front part
 * split off it (@bio is then the remainder, to be submitted next);
 * NULL when @bio was ended with an error.
 */
struct km_bio *km___bio_split_to_limits(struct km_bio *bio,
					const struct km_queue_limits *lim,
					unsigned int *nr_segs)
{
	switch (bio->op) {
	case REQ_OP_READ:
	case REQ_OP_WRITE:
		if (bio_may_need_split(bio, lim))
			return bio_split_rw(bio, lim, nr_segs);
		*nr_segs = 1;
		return bio;
	case REQ_OP_DISCARD:
		return km_bio_split_discard(bio, lim, nr_segs);
	}
	*nr_segs = 0;
	return bio;
}

/**
 * km_bio_split_to_limits - split a bio to its device's limits.
 * Kernel: block/blk-merge.c bio_split_to_limits, v6.18.
 * Context: the submitter's.
 * Return: as km___bio_split_to_limits.
 */
struct km_bio *km_bio_split_to_limits(struct km_bio *bio)
{
	unsigned int nr_segs;

	return km___bio_split_to_limits(bio, &m_world()->dev.limits,
					&nr_segs);
}

/* ---- merging (since session 24, h24-merge) ---- */

void m_sched_queue_init(struct m_sched_queue *q, uint32_t max_sectors,
			uint32_t max_segments)
{
	*q = (struct m_sched_queue){ .max_sectors = max_sectors,
				     .max_segments = max_segments };
	q->tail = &q->head;
}

/* rq_mergeable / bio_mergeable (include/linux/blkdev.h, bio.h): no
 * REQ_NOMERGE_FLAGS (REQ_NOMERGE, REQ_PREFLUSH, REQ_FUA), not a flush. */
static bool sched_rq_mergeable(const struct m_sched_rq *rq)
{
	return !rq->nomerge;
}

/* req_set_nomerge (block/blk.h): a request that would grow too large
 * takes no more merges. */
static void req_set_nomerge(struct m_sched_queue *q, struct m_sched_rq *req)
{
	req->nomerge = true;
	if (q->last_merge == req)
		q->last_merge = NULL;
}

/**
 * km_blk_rq_merge_ok - may @bio go into @rq at all?
 * Kernel: block/blk-merge.c blk_rq_merge_ok, v6.18.
 * Context: under the scheduler's lock (the caller's step).
 * Return: both mergeable and of one operation.
 * Divergences: the cgroup, integrity, crypto, write hint, write stream,
 * I/O priority and atomic checks always pass (the model's bios are
 * alike in all of them).
 */
bool km_blk_rq_merge_ok(const struct m_sched_rq *rq,
			const struct m_sched_rq *bio)
{
	if (!sched_rq_mergeable(rq) || !sched_rq_mergeable(bio))
		return false;
	return rq->op == bio->op;
}

/**
 * km_blk_try_merge - which side of @rq @bio joins.
 * Kernel: block/blk-merge.c blk_try_merge, v6.18.
 * Context: any; no shared access.
 * Return: KM_ELEVATOR_BACK_MERGE when @bio starts where @rq ends,
 * KM_ELEVATOR_FRONT_MERGE when it ends where @rq starts, else
 * KM_ELEVATOR_NO_MERGE.
 * Divergences: no discard merge (the model's disk below takes no
 * discard through the ring).
 */
enum km_elv_merge km_blk_try_merge(const struct m_sched_rq *rq,
				   const struct m_sched_rq *bio)
{
	if (rq->sector + rq->sectors == bio->sector)
		return KM_ELEVATOR_BACK_MERGE;
	if (rq->sector - bio->sectors == bio->sector)
		return KM_ELEVATOR_FRONT_MERGE;
	return KM_ELEVATOR_NO_MERGE;
}

/* ll_new_hw_segment: the request's segments grow by the bio's, up to
 * the queue's max_segments. */
static bool ll_new_hw_segment(struct m_sched_queue *q, struct m_sched_rq *req,
			      const struct m_sched_rq *bio)
{
	if (req->segs + bio->segs > q->max_segments) {
		req_set_nomerge(q, req);
		return false;
	}
	req->segs += bio->segs;
	return true;
}

/**
 * km_ll_back_merge_fn - does @bio fit behind @req?
 * Kernel: block/blk-merge.c ll_back_merge_fn, v6.18.
 * Context: under the scheduler's lock.
 * Return: true with @req's segments grown; false (and @req takes no
 * more merges) when the sum passes max_sectors or max_segments.
 * Divergences: no SG gap check (the virtio disk has no virtual
 * boundary), no integrity or crypto; blk_rq_get_max_sectors is the
 * queue's max_sectors (no chunk or atomic boundary).
 */
bool km_ll_back_merge_fn(struct m_sched_queue *q, struct m_sched_rq *req,
			 const struct m_sched_rq *bio)
{
	if ((uint64_t)req->sectors + bio->sectors > q->max_sectors) {
		req_set_nomerge(q, req);
		return false;
	}
	return ll_new_hw_segment(q, req, bio);
}

/* ll_front_merge_fn: the same limits (no boundary to the bio's start). */
static bool ll_front_merge_fn(struct m_sched_queue *q, struct m_sched_rq *req,
			      const struct m_sched_rq *bio)
{
	if ((uint64_t)req->sectors + bio->sectors > q->max_sectors) {
		req_set_nomerge(q, req);
		return false;
	}
	return ll_new_hw_segment(q, req, bio);
}

/* Append @bio's bios (itself, then its chain) to @req's chain. */
static void chain_bios(struct m_sched_rq *req, struct m_sched_rq *bio)
{
	struct m_sched_rq *tail = bio->biotail ? bio->biotail : bio;

	if (req->biotail)
		req->biotail->bio_next = bio;
	else
		req->bio_next = bio;
	req->biotail = tail;
}

/**
 * km_bio_attempt_back_merge - put @bio behind @req.
 * Kernel: block/blk-merge.c bio_attempt_back_merge, v6.18.
 * Context: under the scheduler's lock.
 * Return: true (BIO_MERGE_OK) when it fits (km_ll_back_merge_fn).
 * Divergences: no rq_qos_merge (the disk below has no wbt in the
 * model), no failfast mixing, no accounting.
 */
bool km_bio_attempt_back_merge(struct m_sched_queue *q, struct m_sched_rq *req,
			       struct m_sched_rq *bio)
{
	if (!km_ll_back_merge_fn(q, req, bio))
		return false;
	chain_bios(req, bio);
	req->sectors += bio->sectors;
	q->bio_merges++;
	return true;
}

/**
 * km_bio_attempt_front_merge - put @bio before @req.
 * Kernel: block/blk-merge.c bio_attempt_front_merge, v6.18.
 * Context: under the scheduler's lock.
 * Return: true (BIO_MERGE_OK) when it fits (ll_front_merge_fn).
 * Divergences: @bio joins the end of @req's chain of bios, not its
 * head (the model's request is its first bio's node; the chain's order
 * only orders the completions of one instant); as the back merge.
 */
bool km_bio_attempt_front_merge(struct m_sched_queue *q,
				struct m_sched_rq *req, struct m_sched_rq *bio)
{
	if (!ll_front_merge_fn(q, req, bio))
		return false;
	chain_bios(req, bio);
	req->sector = bio->sector;
	req->sectors += bio->sectors;
	q->bio_merges++;
	return true;
}

/* The scheduler's list without @rq (deadline_remove_request). */
static void sched_remove(struct m_sched_queue *q, struct m_sched_rq *rq)
{
	struct m_sched_rq **pp = &q->head;

	while (*pp != rq)
		pp = &(*pp)->next;
	*pp = rq->next;
	if (q->tail == &rq->next)
		q->tail = pp;
	rq->next = NULL;
	q->nr--;
	if (q->last_merge == rq)
		q->last_merge = NULL;
}

void m_sched_insert(struct m_sched_queue *q, struct m_sched_rq *rq)
{
	rq->next = NULL;
	*q->tail = rq;
	q->tail = &rq->next;
	q->nr++;
	if (sched_rq_mergeable(rq) && !q->last_merge)
		q->last_merge = rq;
}

struct m_sched_rq *m_sched_pop(struct m_sched_queue *q)
{
	struct m_sched_rq *rq = q->head;

	if (rq)
		sched_remove(q, rq);
	return rq;
}

/*
 * attempt_merge (block/blk-merge.c): @next behind @req when both are
 * mergeable, of one operation, adjacent, and the sum fits
 * (ll_merge_requests_fn); @next's bios go to @req and @next leaves the
 * scheduler (elv_merge_requests -> dd_merged_requests, last_merge =
 * @req).  Returns whether it merged.
 */
static bool attempt_merge(struct m_sched_queue *q, struct m_sched_rq *req,
			  struct m_sched_rq *next)
{
	if (!sched_rq_mergeable(req) || !sched_rq_mergeable(next))
		return false;
	if (req->op != next->op)
		return false;
	if (req->sector + req->sectors != next->sector)
		return false;
	if ((uint64_t)req->sectors + next->sectors > q->max_sectors ||
	    req->segs + next->segs > q->max_segments)
		return false;
	req->segs += next->segs;
	sched_remove(q, next);
	chain_bios(req, next);
	next->biotail = NULL;
	req->sectors += next->sectors;
	q->last_merge = req;
	q->rq_merges++;
	return true;
}

/* elv_latter_request / elv_former_request (mq-deadline's sort list:
 * elv_rb_latter_request, elv_rb_former_request): the request of the
 * same operation next above / below @rq's sector. */
static struct m_sched_rq *sched_neighbour(struct m_sched_queue *q,
					  const struct m_sched_rq *rq,
					  bool latter)
{
	struct m_sched_rq *best = NULL;

	for (struct m_sched_rq *r = q->head; r; r = r->next) {
		if (r == rq || r->op != rq->op)
			continue;
		if (latter ? r->sector > rq->sector &&
			     (!best || r->sector < best->sector) :
			     r->sector < rq->sector &&
			     (!best || r->sector > best->sector))
			best = r;
	}
	return best;
}

/*
 * elv_merge (block/elevator.c) with mq-deadline's request_merge
 * (dd_request_merge, block/mq-deadline.c): the one-hit cache
 * (q->last_merge), then the hash of the requests' ends (a back merge:
 * elv_rqhash_find, the newest first; a request no longer mergeable is
 * passed over), then the sort list (a front merge: a request starting
 * where the bio ends; front_merges is 1 by default).
 */
static enum km_elv_merge elv_merge(struct m_sched_queue *q,
				   struct m_sched_rq **req,
				   const struct m_sched_rq *bio)
{
	struct m_sched_rq *found = NULL;
	enum km_elv_merge ret;

	if (!sched_rq_mergeable(bio))
		return KM_ELEVATOR_NO_MERGE;
	if (q->last_merge && km_blk_rq_merge_ok(q->last_merge, bio)) {
		ret = km_blk_try_merge(q->last_merge, bio);
		if (ret != KM_ELEVATOR_NO_MERGE) {
			*req = q->last_merge;
			return ret;
		}
	}
	for (struct m_sched_rq *r = q->head; r; r = r->next)
		if (sched_rq_mergeable(r) && r->sector + r->sectors ==
		    bio->sector)
			found = r;	/* the hash's newest */
	if (found && km_blk_rq_merge_ok(found, bio)) {
		*req = found;
		return KM_ELEVATOR_BACK_MERGE;
	}
	for (struct m_sched_rq *r = q->head; r; r = r->next)
		if (r->op == bio->op && r->sector == bio->sector + bio->sectors) {
			if (km_blk_rq_merge_ok(r, bio)) {
				*req = r;
				return KM_ELEVATOR_FRONT_MERGE;
			}
			break;
		}
	return KM_ELEVATOR_NO_MERGE;
}

/**
 * km_blk_mq_sched_try_merge - merge @bio into a request the scheduler
 * holds.
 * Kernel: block/blk-merge.c blk_mq_sched_try_merge, v6.18 (from
 * mq-deadline's dd_bio_merge, block/mq-deadline.c, under dd->lock).
 * Context: the submitter's step on the disk's queue.
 * Return: true when @bio went into a request (it is then one of that
 * request's bios, and a request its growth made adjacent may have
 * joined too); false when @bio needs a request of its own.
 * Divergences: mq-deadline's allow_merge is absent (as in v6.18); the
 * lists are searched in arrival order where the kernel looks up a hash
 * and a red-black tree, the same requests found; dd_request_merged's
 * repositioning has nothing to move (the model's list is not sorted).
 */
bool km_blk_mq_sched_try_merge(struct m_sched_queue *q, struct m_sched_rq *bio)
{
	struct m_sched_rq *rq = NULL, *other;

	switch (elv_merge(q, &rq, bio)) {
	case KM_ELEVATOR_BACK_MERGE:
		if (!km_bio_attempt_back_merge(q, rq, bio))
			return false;
		/* attempt_back_merge: the request after it may join. */
		other = sched_neighbour(q, rq, true);
		if (!other || !attempt_merge(q, rq, other))
			q->last_merge = rq;	/* elv_merged_request */
		return true;
	case KM_ELEVATOR_FRONT_MERGE:
		if (!km_bio_attempt_front_merge(q, rq, bio))
			return false;
		/* attempt_front_merge: it may join the one before it. */
		other = sched_neighbour(q, rq, false);
		if (!other || !attempt_merge(q, other, rq))
			q->last_merge = rq;
		return true;
	default:
		return false;
	}
}
