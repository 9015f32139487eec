// SPDX-License-Identifier: MIT
/*
 * model/fs/iomap/ioend.c - the buffered writeback ioend: contiguous
 * folio ranges appended to one bio, submitted when the next range does
 * not follow or at the end of the pass.
 *
 * Models fs/iomap/ioend.c of v6.18: iomap_alloc_ioend,
 * iomap_can_add_to_ioend, iomap_add_to_ioend,
 * iomap_ioend_writeback_submit and the completion
 * (ioend_writeback_end_bio -> iomap_finish_ioend_buffered), with XFS's
 * ->writeback_submit folded in (xfs_writeback_submit, fs/xfs/xfs_aops.c:
 * the filesystem's ->ioend_needs_wq chooses a task, xfs_end_bio's
 * workqueue, or the interrupt for the bio's completion).
 *
 * Used only on a mapping that opts in (struct m_file_config
 * large_folios: wpsim fio on XFS); elsewhere the model's writeback builds
 * one bio per run of dirty blocks of a folio (model/fs/iomap/buffered-io.c)
 * and every scenario's exploration stays as it was.
 *
 * The completion of ioends the filesystem queued (iomap_sort_ioends,
 * iomap_ioend_try_merge, iomap_finish_ioends: XFS's xfs_end_io) is here
 * too; on the timed device a filesystem with ->end_bio gets the ioend
 * from the interrupt (xfs_end_bio) and completes it in its own work item
 * (model/fs/xfs/xfs_aops.c); untimed, and for a filesystem without it,
 * the bio's completion ends its ioend on its own.
 *
 * Leaves out: ioend chaining (io_parent, io_remaining: the model's
 * ioends are not split), IOMAP_IOEND_SHARED and _BOUNDARY (no reflink, no
 * realtime or zoned devices), cgroup writeback accounting.  The ioend's
 * bio holds BIO_MAX_VECS (256) folio ranges, as the kernel's
 * (iomap_alloc_ioend); the kernel's also merges a range into the last
 * bvec when its page follows in memory (bio_add_page's
 * bvec_try_merge_page), the model's never (km_bio_add_folio): the
 * kernel's bio can hold more folios than 256.
 */
#include "model/fs/iomap.h"
#include "model/linux/bio.h"
#include "model/linux/pagemap.h"
#include "model/world.h"
#include "sim/arena.h"

/* Kernel: fs/iomap/internal.h IOEND_BATCH_SIZE, v6.18. */
#define IOEND_BATCH_SIZE	4096

/* The ioend and its two tables, one block of the arena. */
static size_t ioend_bytes(unsigned int max_folios)
{
	return sizeof(struct m_ioend) +
	       max_folios * (sizeof(struct km_folio *) +
			     sizeof(struct sim_word *));
}

static void ioend_free(struct m_ioend *ioend)
{
	sim_arena_free(ioend, ioend_bytes(ioend->max_folios));
}

/* ioend_writeback_end_bio -> iomap_finish_ioend_buffered, in the
 * interrupt; or, for an ioend the filesystem sent to its workqueue
 * (->ioend_needs_wq at submission) without an ->end_bio of its own
 * (untimed: the completion event stands in for the kworker), after its
 * completion (->ioend_done), in task context. */
static void ioend_writeback_end_bio(struct km_bio *bio)
{
	struct m_ioend *ioend = bio->private;
	struct km_inode *inode = ioend->io_inode;

	if (bio->status)
		km_mapping_set_error(km_inode_mapping(inode), bio->status);
	else if (bio->end_io_in_task && ioend->ops->ioend_done)
		ioend->ops->ioend_done(inode, ioend->io_offset,
				       (loff_t)ioend->io_size,
				       ioend->io_flags);
	/* Walk all folios in the bio, ending their writeback. */
	for (unsigned int i = 0; i < bio->vcnt; i++)
		km_iomap_finish_folio_write(bio->vec[i].folio,
					    ioend->pending[i]);
	ioend_free(ioend);
}

/*
 * The bi_end_io of an ioend the filesystem completes itself (->end_bio:
 * XFS's xfs_end_bio), in the interrupt: the bio's status and folio
 * ranges go into the ioend (the kernel's ioend is its bio, put only by
 * iomap_finish_ioend_buffered; the model's bio is put when this
 * returns), then the filesystem queues it.
 */
static void ioend_fs_end_bio(struct km_bio *bio)
{
	struct m_ioend *ioend = bio->private;

	ioend->io_error = bio->status;
	ioend->nr_folios = bio->vcnt;
	for (unsigned int i = 0; i < bio->vcnt; i++)
		ioend->folio[i] = bio->vec[i].folio;
	ioend->bio = NULL;
	ioend->ops->end_bio(ioend);
}

/* iomap_finish_ioend_buffered: one ioend whose bio has ended. */
static void iomap_finish_ioend_buffered(struct m_ioend *ioend, int error)
{
	if (error)
		km_mapping_set_error(km_inode_mapping(ioend->io_inode), error);
	/* Walk all folios in the bio, ending their writeback. */
	for (unsigned int i = 0; i < ioend->nr_folios; i++)
		km_iomap_finish_folio_write(ioend->folio[i],
					    ioend->pending[i]);
	ioend_free(ioend);
}

/**
 * km_iomap_finish_ioends - end the writeback of an ioend and of the
 * ioends merged into it.
 * Kernel: fs/iomap/ioend.c iomap_finish_ioends, v6.18 (with
 * iomap_finish_ioend and iomap_finish_ioend_buffered).
 * Context: task (the filesystem's completion worker: "can only be called
 * from task contexts as merged ioends can be of unbound length").
 * Return: none; every ioend is freed.
 * Divergences: no cond_resched every IOEND_BATCH_SIZE * 8 folios (32 768
 * completions: the model's merged ioends are far smaller; the
 * completion worker's marks are xfs_end_io's, per ioend); no io_remaining count (an ioend here is
 * never split: the model's bios are not chained to ioends); the error is
 * the caller's for each ioend, as the kernel passes it.
 */
void km_iomap_finish_ioends(struct m_ioend *ioend, int error)
{
	struct m_ioend *next = ioend->io_merged;

	iomap_finish_ioend_buffered(ioend, error);
	while (next) {
		ioend = next;
		next = ioend->io_merged;
		iomap_finish_ioend_buffered(ioend, error);
	}
}

/* iomap_ioend_can_merge, v6.18: same status, same NOMERGE flags,
 * contiguous in the file and on the device (no BOUNDARY in the model). */
static bool iomap_ioend_can_merge(const struct m_ioend *ioend,
				  const struct m_ioend *next)
{
	if (ioend->io_error != next->io_error)
		return false;
	if ((ioend->io_flags & IOMAP_IOEND_NOMERGE_FLAGS) !=
	    (next->io_flags & IOMAP_IOEND_NOMERGE_FLAGS))
		return false;
	if (ioend->io_offset + (loff_t)ioend->io_size != next->io_offset)
		return false;
	if (ioend->io_sector + (ioend->io_size >> SECTOR_SHIFT) !=
	    next->io_sector)
		return false;
	return true;
}

/**
 * km_iomap_ioend_try_merge - take the ioends at the head of @more that
 * continue @ioend into it.
 * Kernel: fs/iomap/ioend.c iomap_ioend_try_merge, v6.18.
 * Context: the completion worker; the list is its own (no shared state).
 * Return: none; @ioend's size covers the merged ones, which hang off
 * @ioend->io_merged in order and leave @more.
 */
void km_iomap_ioend_try_merge(struct m_ioend *ioend, struct m_ioend **more)
{
	struct m_ioend **tail = &ioend->io_merged;
	struct m_ioend *next;

	ioend->io_merged = NULL;
	while ((next = *more) && iomap_ioend_can_merge(ioend, next)) {
		*more = next->io_list;
		next->io_list = NULL;
		next->io_merged = NULL;
		*tail = next;
		tail = &next->io_merged;
		ioend->io_size += next->io_size;
	}
}

/**
 * km_iomap_sort_ioends - sort a list of ioends by file offset.
 * Kernel: fs/iomap/ioend.c iomap_sort_ioends (list_sort with
 * iomap_ioend_compare), v6.18.
 * Context: the completion worker; the list is its own.
 * Return: none.  Stable, as list_sort is: equal offsets keep their order.
 * Divergences: an insertion sort (the lists are short) where the kernel
 * merge-sorts; the same order.
 */
void km_iomap_sort_ioends(struct m_ioend **list)
{
	struct m_ioend *sorted = NULL, *e = *list;

	while (e) {
		struct m_ioend *next = e->io_list, **at = &sorted;

		while (*at && (*at)->io_offset <= e->io_offset)
			at = &(*at)->io_list;
		e->io_list = *at;
		*at = e;
		e = next;
	}
	*list = sorted;
}

/**
 * km_iomap_ioend_writeback_submit - submit the open ioend's bio.
 * Kernel: fs/iomap/ioend.c iomap_ioend_writeback_submit, v6.18, called
 * as XFS's ->writeback_submit (xfs_writeback_submit).
 * Context: process context; the ioend's folios are under writeback and
 * unlocked, but for the one whose range did not merge (locked).
 * Return: 0, or @error after ending the ioend with it.
 * First XFS's choice of completion (xfs_writeback_submit): a task, the
 * kworker of xfs_end_bio, when the filesystem's ->ioend_needs_wq
 * (xfs_ioend_needs_wq_completion) says so, else the interrupt.
 * Divergences: wpc->wb_ctx is cleared here (the kernel's callers
 * overwrite it or finish).
 */
int km_iomap_ioend_writeback_submit(struct m_iomap_wpc *wpc, int error)
{
	struct m_ioend *ioend = wpc->wb_ctx;
	struct km_bio *bio = ioend->bio;

	wpc->wb_ctx = NULL;
	bio->end_io_in_task = ioend->ops->ioend_needs_wq &&
		ioend->ops->ioend_needs_wq(ioend->io_inode, ioend->io_offset,
					   (loff_t)ioend->io_size,
					   ioend->io_flags);
	/* Timed, the filesystem's own bi_end_io (xfs_end_bio) queues the
	 * ioend to its work item from the interrupt. */
	if (bio->end_io_in_task && ioend->ops->end_bio &&
	    m_world()->dev.timed) {
		bio->end_io_in_task = false;
		bio->end_io = ioend_fs_end_bio;
	}
	if (error) {
		bio->status = error;
		bio->end_io(bio);
		return error;
	}
	km_submit_bio(bio);
	return 0;
}

/**
 * km_iomap_alloc_ioend - a new ioend and its bio, starting at @pos.
 * Kernel: fs/iomap/ioend.c iomap_alloc_ioend (with iomap_init_ioend),
 * v6.18: REQ_OP_WRITE | wbc_to_write_flags(wbc), the sector of @pos.
 * Context: any; allocates.
 * Return: the ioend, also left in wpc->wb_ctx by the caller.
 * The bio has room for BIO_MAX_VECS bvecs (bio_alloc_bioset with
 * BIO_MAX_VECS from iomap_ioend_bioset).
 * Divergences: never fails; no write hint, no cgroup; the ioend is not
 * the bio's container (the model's bio is freed when it ends: the ioend
 * keeps its folios, a slot a bvec).  The ioend's fields are set here
 * (iomap_init_ioend's, and the model's own); its two tables, like the
 * bio's bvecs (km_bio_alloc_bioset), are not cleared: a slot is written
 * (at its bvec's km_bio_add_folio, at the bio's end) before it is read.
 */
static struct m_ioend *km_iomap_alloc_ioend(struct m_iomap_wpc *wpc,
					    loff_t pos,
					    unsigned int ioend_flags)
{
	struct m_ioend *ioend = sim_arena_alloc_head(
		ioend_bytes(BIO_MAX_VECS), sizeof(struct m_ioend));
	struct km_bio *bio = km_bio_alloc_bioset(
		REQ_OP_WRITE, km_wbc_to_write_flags(wpc->wbc),
		m_inode_sector(wpc->inode, pos), BIO_MAX_VECS);

	bio->private = ioend;
	bio->end_io = ioend_writeback_end_bio;
	wpc->nr_folios = 0;
	ioend->bio = bio;
	ioend->io_inode = wpc->inode;
	ioend->ops = wpc->ops;
	ioend->io_offset = pos;
	ioend->io_size = 0;	/* bi_size of the empty bio */
	ioend->bio_size = 0;
	ioend->max_folios = BIO_MAX_VECS;
	ioend->folio = (struct km_folio **)(ioend + 1);
	ioend->pending = (struct sim_word **)(ioend->folio + BIO_MAX_VECS);
	ioend->io_flags = ioend_flags;
	ioend->io_sector = bio->sector;
	ioend->io_error = 0;
	ioend->nr_folios = 0;
	ioend->io_list = NULL;
	ioend->io_merged = NULL;
	return ioend;
}

/**
 * km_iomap_can_add_to_ioend - may the range at @pos join the open ioend?
 * Kernel: fs/iomap/ioend.c iomap_can_add_to_ioend, v6.18.
 * Context: any; reads no shared state (the ioend is the writer's own).
 * Return: true when the flags that forbid merging agree, @pos follows
 * the ioend in the file and on the device, and fewer than
 * IOEND_BATCH_SIZE folios are in it.
 */
static bool km_iomap_can_add_to_ioend(struct m_iomap_wpc *wpc, loff_t pos,
				      unsigned int ioend_flags)
{
	struct m_ioend *ioend = wpc->wb_ctx;
	struct km_bio *bio = ioend->bio;

	if ((ioend_flags & IOMAP_IOEND_NOMERGE_FLAGS) !=
	    (ioend->io_flags & IOMAP_IOEND_NOMERGE_FLAGS))
		return false;
	if (pos != ioend->io_offset + (loff_t)ioend->io_size)
		return false;
	/* bio_end_sector */
	if (m_inode_sector(wpc->inode, pos) !=
	    bio->sector + (ioend->bio_size >> SECTOR_SHIFT))
		return false;
	if (wpc->nr_folios >= IOEND_BATCH_SIZE)
		return false;
	return true;
}

/**
 * km_iomap_add_to_ioend - add the mapped range [@pos, @pos + @len) of a
 * locked folio under writeback to the open ioend, or submit that and
 * open another.
 * Kernel: fs/iomap/ioend.c iomap_add_to_ioend, v6.18, called by
 * xfs_writeback_range after xfs_map_blocks (here: after the caller's
 * ->writeback_range, which mapped the range).
 * Context: @folio locked, PG_writeback set; may submit I/O.
 * Return: the bytes added (@len), or the submit's error.
 * The ioend is unwritten when the mapping is (@map_flags: what
 * ->writeback_range returned, the kernel's wpc->iomap.type from
 * xfs_map_blocks), dontcache when the folio is dropbehind.  io_size
 * stops at @end_pos (the folio's end or EOF), as the kernel clamps it.
 * Divergences: a hole is never passed in (the model's writeback maps
 * every dirty run); the map length is the whole range (one mapping per
 * run: the model's ->writeback_range maps the run whole, unwritten if
 * any of its blocks is).
 */
int km_iomap_add_to_ioend(struct m_iomap_wpc *wpc, struct km_folio *folio,
			  loff_t pos, loff_t end_pos, size_t len,
			  struct sim_word *pending, unsigned int map_flags)
{
	struct m_ioend *ioend = wpc->wb_ctx;
	size_t poff = (size_t)(pos - km_folio_pos(folio));
	unsigned int ioend_flags = map_flags & IOMAP_IOEND_UNWRITTEN;
	int error;

	if (sim_bit_test(&folio->flags, PG_dropbehind))
		ioend_flags |= IOMAP_IOEND_DONTCACHE;

	if (!ioend || !km_iomap_can_add_to_ioend(wpc, pos, ioend_flags)) {
new_ioend:
		if (ioend) {
			error = km_iomap_ioend_writeback_submit(wpc, 0);
			if (error)
				return error;
		}
		wpc->wb_ctx = ioend = km_iomap_alloc_ioend(wpc, pos,
							   ioend_flags);
	}
	if (!km_bio_add_folio(ioend->bio, folio, len, poff))
		goto new_ioend;
	ioend->pending[ioend->bio->vcnt - 1] = pending;
	ioend->bio_size += len;
	/* iomap_start_folio_write: the model counts the folio's bios at
	 * the start (iomap_writeback_folio), not bytes here. */
	ioend->io_size += len;
	if (ioend->io_offset + (loff_t)ioend->io_size > end_pos)
		ioend->io_size = (size_t)(end_pos - ioend->io_offset);
	return (int)len;
}
