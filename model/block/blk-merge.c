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
 * Leaves out: merging of bios into requests (plug merge, back and front
 * merge, the elevator's), blk_recalc_rq_segments, zone append and write
 * zeroes splitting, integrity, polled bios.  An atomic write
 * (REQ_ATOMIC) is bounded by atomic_write_max_sectors and its boundary
 * and is never split: one that would need it ends with -EINVAL.
 */
#include <errno.h>
#include <limits.h>

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
