// SPDX-License-Identifier: MIT
/*
 * model/mm/dontcache.c - RWF_DONTCACHE: dropbehind folios, their drop
 * after writeback, WB_DONTCACHE_DIRTY, and seed 003's marking of folios
 * that are already cached.
 *
 * Models, per --variant dontcache=… (kernel-mm.md §3):
 *  6.18  mm/filemap.c folio_end_dropbehind -> filemap_end_dropbehind ->
 *        folio_unmap_invalidate (mm/truncate.c), and the post-write kick
 *        (filemap_flush_range from generic_write_sync).
 *  7.3   + WB_DONTCACHE_DIRTY (model/mm/page-writeback.c
 *        m_dontcache_account/unaccount; the adopt path in
 *        model/mm/filemap.c), with the drift seed 003 2/7 fixes.
 *  v11   + seed 003 1/7-4/7: the drift fix (a folio leaves the counter
 *        only if it was counted) and folio_mark_dropbehind() for a folio
 *        that is already cached, called by a DONTCACHE write that finds
 *        it.  Implemented from the v12 cover letter (the v11 patch body is
 *        not public): under the folio lock and xa_lock, set PG_dropbehind
 *        and, if the folio looks counted as dirty (PG_dirty and the DIRTY
 *        mark), add it to WB_DONTCACHE_DIRTY.
 *        v11 also has 5/7 (a DONTCACHE write that covers a folio only
 *        partially keeps it, not dropbehind, until the DONTCACHE write
 *        that completes it, which marks it with folio_mark_dropbehind)
 *        and 6/7 (after its sync, a DSYNC DONTCACHE writer completes
 *        its partially covered folios itself:
 *        filemap_dontcache_edge_complete).  Both from the v12 cover
 *        letter only (docs/algorithms/dontcache.md, "Partial folios").
 *  v12   + folio_mark_dropbehind() leaves a mapped folio unmarked,
 *        filemap_end_dropbehind() does not drop a mapped folio, and
 *        filemap_dontcache_edge_complete() leaves a mapped folio alone.
 *
 * folio_unmap_invalidate tests PG_dirty and removes the folio in one
 * i_lock + xa_lock section, after filemap_release_folio (iomap frees its
 * per-block state; a dirty folio is refused).
 *
 * Leaves out (for now): the v7.2 flusher-side
 * kick (the model writes back inline, as 6.18 does), the read-side drop
 * in filemap_read, the IRQ-context completion of XFS ioends that need no
 * workqueue (every completion is task context here; see
 * km_folio_end_dropbehind), NFSD 7/7.
 */
#include "model/linux/mm.h"
#include "model/linux/pagemap.h"
#include "model/linux/writeback.h"
#include "model/world.h"
#include "model/lockdep.h"
#include "sim/clock.h"

/**
 * km_folio_unmap_invalidate - remove a clean, locked folio from the cache.
 * Kernel: mm/truncate.c folio_unmap_invalidate, v6.18.
 * Context: folio locked; takes the PTE lock, i_lock, xa_lock.
 * Return: 1 if removed, -EBUSY if it left the mapping, keeps private data
 * (dirty, under writeback) or is dirty.
 *
 * The dirty test and the removal are one i_lock + xa_lock section, as in
 * the kernel: a dirtier that does not hold the folio lock (one that
 * dirties a pinned page, a zap) either sets PG_dirty before the section
 * (-EBUSY, the folio stays) or takes xa_lock after it and finds
 * folio->mapping NULL (nothing is accounted).
 * Divergences: no ->launder_folio (XFS has none); no inode LRU.
 */
int km_folio_unmap_invalidate(struct km_address_space *mapping,
			      struct km_folio *folio)
{
	SIM_ASSERT_MSG(m_folio_flag_peek(folio, PG_locked),
		       "folio %u: unmap_invalidate without the folio lock",
		       folio->id);
	/* folio_mapped -> unmap_mapping_folio: a dirty PTE's dirt moves to
	 * the folio here. */
	km_unmap_mapping_folio(folio);
	if (!sim_word_read(&folio->mapping) || folio->owner != mapping)
		return -KM_EBUSY;
	if (!km_filemap_release_folio(folio))
		return -KM_EBUSY;
	sim_spin_lock(&mapping->host->i_lock);
	sim_spin_lock(&mapping->xa_lock);
	if (sim_bit_test(&folio->flags, PG_dirty))
		goto failed;
	km___filemap_remove_folio(folio);
	sim_spin_unlock(&mapping->xa_lock);
	sim_spin_unlock(&mapping->host->i_lock);
	km_filemap_free_folio(mapping, folio);
	/* The xarray, LRU and freeing work beyond the model's steps
	 * (profiles/cpu/default.cpu). */
	sim_cpu_folio_drop();
	return 1;
failed:
	sim_spin_unlock(&mapping->xa_lock);
	sim_spin_unlock(&mapping->host->i_lock);
	return -KM_EBUSY;
}

/**
 * km_filemap_end_dropbehind - drop a locked dropbehind folio if clean.
 * Kernel: mm/filemap.c, v6.16+ (2026 text); v12: not a mapped folio.
 * Context: folio locked.
 */
void km_filemap_end_dropbehind(struct km_folio *folio)
{
	struct km_address_space *mapping = folio->owner;

	/* VM_BUG_ON_FOLIO(!folio_test_locked) (mm/filemap.c). */
	m_assert_folio_locked(folio);
	if (sim_bit_test(&folio->flags, PG_writeback) ||
	    sim_bit_test(&folio->flags, PG_dirty))
		return;
	if (m_world()->dontcache == M_DC_V12 &&
	    sim_word_read(&folio->mapcount))
		return;
	if (!sim_bit_test_and_clear(&folio->flags, PG_dropbehind))
		return;
	if (sim_word_read(&folio->mapping))
		km_folio_unmap_invalidate(mapping, folio);
}

/**
 * km_folio_end_dropbehind - after writeback: drop a dropbehind folio.
 * Kernel: mm/filemap.c folio_end_dropbehind, v6.18 (2026 split form).
 * Context: completion; never sleeps (trylock).
 * Divergences: in_task() is always true.  In v6.18 XFS completes an
 * ioend in the xfs_end_io kworker (task context) only when it is an
 * append, unwritten, shared or IOMAP_IOEND_DONTCACHE (the folio was
 * dropbehind when the ioend was built); other ioends end writeback in
 * the bio's end_io, in IRQ context, where the drop is skipped.  Same
 * decision in the 6.18 variant (a folio is dropbehind from creation);
 * in v11/v12 a folio marked by folio_mark_dropbehind after its ioend was
 * built is dropped here and kept by the kernel
 * (docs/model/writeback-completion.md).
 */
void km_folio_end_dropbehind(struct km_folio *folio)
{
	if (!sim_bit_test(&folio->flags, PG_dropbehind))
		return;
	if (!km_folio_trylock(folio))
		return;
	km_filemap_end_dropbehind(folio);
	km_folio_unlock(folio);
}

/**
 * km_folio_mark_dropbehind - make a cached folio dropbehind and account
 * it.
 * Patch: seed 003 v11 4/7 and v12 4/7, implemented from the v12 cover
 * letter; the patch body is not public (docs/algorithms/dontcache.md).
 * Context: folio locked; takes xa_lock.
 * v11: under xa_lock, set PG_dropbehind; if PG_dirty and the DIRTY mark
 * say the folio is already counted as dirty, add it to
 * WB_DONTCACHE_DIRTY.  The race: an unlocked dirtier (the zap path) has
 * set PG_dirty but not yet counted it; with a stale DIRTY mark this counts
 * it, and the dirtier, finding PG_dropbehind, counts it again.
 * v12: a mapped folio is left unmarked (the folio lock keeps an unmapped
 * folio unmapped, closing the window for every non-buffer-head dirtier).
 */
void km_folio_mark_dropbehind(struct km_folio *folio)
{
	struct km_address_space *mapping = folio->owner;

	if (m_world()->dontcache < M_DC_V11)
		return;
	if (m_world()->dontcache == M_DC_V12 &&
	    sim_word_read(&folio->mapcount))
		return;
	sim_spin_lock(&mapping->xa_lock);
	if (!sim_bit_test_and_set(&folio->flags, PG_dropbehind) &&
	    sim_bit_test(&folio->flags, PG_dirty) &&
	    m_xa_get_mark(mapping, folio->index, PAGECACHE_TAG_DIRTY))
		m_dontcache_account(folio, (long)km_folio_nr_pages(folio));
	sim_spin_unlock(&mapping->xa_lock);
}

/**
 * km_filemap_flush_range - start writeback of a range, WB_SYNC_NONE.
 * Kernel: mm/filemap.c filemap_flush_range (v6.19 name of
 * filemap_fdatawrite_range_kick), v6.18.
 * Return: 0 or the writepages error.
 */
int km_filemap_flush_range(struct km_address_space *mapping, loff_t start,
			   loff_t end)
{
	struct km_writeback_control wbc = {
		.sync_mode = WB_SYNC_NONE,
		.nr_to_write = 1L << 30,
		.range_start = start,
		.range_end = end,
	};

	return km_filemap_fdatawrite_wbc(mapping, &wbc);
}

/* ---- seed 003 5/7 and 6/7: partially covered folios -------------------- */

/**
 * m_dontcache_keeps_partial - does this DONTCACHE write keep its folio?
 * Patch: seed 003 v12 5/7, implemented from the cover letter (the patch
 * body is not public): "5/7 keeps a partially covered folio until the
 * write that completes it".  Our reading: iomap_write_begin does not ask
 * for FGP_DONTCACHE when the write covers its folio only partially.
 * @mapping: the file's mapping (its folio order gives the folio size).
 * @pos, @len: the part of the write that falls in one folio (the write
 * loop's chunk, already clamped to the folio's end).
 * Context: any; no shared access.
 * Return: true in v11/v12 when [@pos, @pos + @len) starts or ends inside
 * its folio; false in 6.18 and 7.3, and for a whole folio.
 */
bool m_dontcache_keeps_partial(struct km_address_space *mapping, loff_t pos,
			       size_t len)
{
	loff_t mask = (loff_t)(PAGE_SIZE << mapping->folio_order) - 1;

	if (m_world()->dontcache < M_DC_V11)
		return false;
	return (pos & mask) || ((pos + (loff_t)len) & mask);
}

/* Is the folio wholly covered by DONTCACHE writes?  Folio locked. */
static bool dontcache_folio_complete(struct km_folio *folio)
{
	uint64_t range = sim_word_read(&folio->dontcache_written);

	return M_DC_RANGE_START(range) == 0 &&
	       M_DC_RANGE_END(range) == km_folio_size(folio);
}

/**
 * m_dontcache_write_partial - a DONTCACHE write covers part of a locked
 * folio: keep the folio, or mark it dropbehind if this write completes
 * it.
 * Patch: seed 003 v12 5/7, implemented from the cover letter (the patch
 * body is not public; the function's name is the model's).  The cover
 * letter: "5/7 keeps a partially covered folio until the write that
 * completes it"; 4/7 "adds folio_mark_dropbehind() for a folio that is
 * already dirty", which the completing write needs: the folio holds the
 * other write's dirty data.  Our reading:
 *  - "keep" = the folio is not dropbehind: created without PG_dropbehind
 *    (the lookup had no FGP_DONTCACHE), and a cached folio found by the
 *    lookup without FGP_DONTCACHE lost the flag there (the 1/7 helper,
 *    with 2/7's accounting), so no writeback completion drops it;
 *  - the folio remembers the bytes DONTCACHE writes have covered
 *    (folio->dontcache_written, one interval; two disjoint parts keep
 *    the longer one, so a third write may be needed to complete it);
 *  - the write after which the folio is wholly covered marks it with
 *    folio_mark_dropbehind (v12: not a mapped folio), so the writeback
 *    that follows drops it.
 * @folio: locked, in the page cache, found or created by write_begin.
 * @pos, @len: the write's part in @folio.
 * Context: folio locked; folio_mark_dropbehind takes xa_lock.
 * Return: none.
 */
void m_dontcache_write_partial(struct km_folio *folio, loff_t pos,
			       size_t len)
{
	size_t start = (size_t)(pos - km_folio_pos(folio));
	size_t end = start + len;
	uint64_t range = sim_word_read(&folio->dontcache_written);
	size_t s = M_DC_RANGE_START(range), e = M_DC_RANGE_END(range);

	if (e > s && start <= e && end >= s) {	/* overlaps or touches */
		if (s < start)
			start = s;
		if (e > end)
			end = e;
	} else if (e - s > end - start) {	/* disjoint: keep the longer */
		start = s;
		end = e;
	}
	sim_word_write(&folio->dontcache_written, M_DC_RANGE(start, end));
	if (start == 0 && end == km_folio_size(folio))
		km_folio_mark_dropbehind(folio);
}

/**
 * km_filemap_dontcache_edge_complete - a syncing DONTCACHE writer
 * completes a partially covered folio of its write itself.
 * Patch: seed 003 v12 6/7, implemented from the cover letter (the patch
 * body is not public; the name is the cover letter's): "6/7 lets a
 * writer that syncs its own write complete those folios itself, after
 * the sync", and v12: "filemap_dontcache_edge_complete() leaves a mapped
 * folio alone, dirty or clean".  Our reading: after the sync, if the
 * folio is wholly covered by DONTCACHE writes (the other write has
 * written its part: 7/7's "only once both WRITEs have written it"), the
 * writer locks it (sleeping, where the drop at writeback completion only
 * trylocks) and completes it: dirty or under writeback again, it is
 * marked dropbehind and the writeback that cleans it drops it; clean, it
 * is dropped now.  A folio the other write has not completed stays kept.
 * @mapping: the file's mapping.
 * @pos: a byte of the folio (the write's first or last byte).
 * Context: process context, no locks held; takes the folio lock, may
 * sleep.
 * Return: none.
 * Divergences: the model's writeback completion already runs in task
 * context (it trylocks and drops), so this only matters when that
 * trylock failed or the folio was dirtied again after the sync; in the
 * kernel, a completion in IRQ context does not drop the folio at all.
 */
void km_filemap_dontcache_edge_complete(struct km_address_space *mapping,
					loff_t pos)
{
	struct km_folio_or_err r;
	struct km_folio *folio;

	/* FGP_DONTCACHE: the lookup must not adopt (clear) the folio. */
	r = km___filemap_get_folio(mapping, (pgoff_t)pos >> PAGE_SHIFT,
				   FGP_LOCK | FGP_DONTCACHE);
	if (r.err)
		return;
	folio = r.folio;
	if (!dontcache_folio_complete(folio))
		goto out;
	if (m_world()->dontcache == M_DC_V12 &&
	    sim_word_read(&folio->mapcount))
		goto out;	/* v12: a mapped folio is left alone */
	km_folio_mark_dropbehind(folio);
	km_filemap_end_dropbehind(folio);
out:
	km_folio_unlock(folio);
	km_folio_put(folio);
}

/**
 * m_dontcache_sync_edges - after a DSYNC DONTCACHE write of
 * [@pos, @pos + @count) has synced: complete its first and last folio
 * if the write covered them only partially.
 * Patch: seed 003 v12 6/7, from the cover letter (where the series calls
 * filemap_dontcache_edge_complete is our reading: generic_write_sync,
 * after vfs_fsync_range succeeded).
 * Context: process context, no locks held.
 * Return: none.
 */
void m_dontcache_sync_edges(struct km_address_space *mapping, loff_t pos,
			    long count)
{
	loff_t mask = (loff_t)(PAGE_SIZE << mapping->folio_order) - 1;
	loff_t last = pos + count - 1;

	if (m_world()->dontcache < M_DC_V11 || count <= 0)
		return;
	if (pos & mask)
		km_filemap_dontcache_edge_complete(mapping, pos);
	/* The last folio, unless it is the first one, done above. */
	if (((last + 1) & mask) &&
	    (!(pos & mask) || (last & ~mask) != (pos & ~mask)))
		km_filemap_dontcache_edge_complete(mapping, last);
}
