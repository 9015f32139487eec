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
 *  v12   + folio_mark_dropbehind() leaves a mapped folio unmarked, and
 *        filemap_end_dropbehind() does not drop a mapped folio.
 *
 * Leaves out (for now): 5/7 (keep a partially covered folio until the
 * write that completes it), 6/7 (a syncing writer completes its shared
 * folios itself, filemap_dontcache_edge_complete), the v7.2 flusher-side
 * kick (the model writes back inline, as 6.18 does), the read-side drop
 * in filemap_read, dropping from IRQ context (completions run as task
 * context here, as XFS's ioend work does), NFSD 7/7.
 */
#include "model/linux/mm.h"
#include "model/linux/pagemap.h"
#include "model/linux/writeback.h"
#include "model/world.h"

/**
 * km_folio_unmap_invalidate - remove a clean, locked folio from the cache.
 * Kernel: mm/truncate.c folio_unmap_invalidate, v6.18.
 * Context: folio locked; takes the PTE lock, i_lock, xa_lock.
 * Return: 1 if removed, -EBUSY if it left the mapping or is dirty.
 * Divergences: no ->launder_folio, no private data to release.
 */
int km_folio_unmap_invalidate(struct km_address_space *mapping,
			      struct km_folio *folio)
{
	/* A dirty PTE's dirt moves to the folio here. */
	km_unmap_mapping_folio(folio);
	if (!sim_word_read(&folio->mapping) || folio->owner != mapping)
		return -KM_EBUSY;
	sim_spin_lock(&mapping->host->i_lock);
	sim_spin_lock(&mapping->xa_lock);
	if (sim_bit_test(&folio->flags, PG_dirty)) {
		sim_spin_unlock(&mapping->xa_lock);
		sim_spin_unlock(&mapping->host->i_lock);
		return -KM_EBUSY;
	}
	sim_spin_unlock(&mapping->xa_lock);
	sim_spin_unlock(&mapping->host->i_lock);
	km_filemap_remove_folio(folio);
	return 1;
}

/**
 * km_filemap_end_dropbehind - drop a locked dropbehind folio if clean.
 * Kernel: mm/filemap.c, v6.16+ (2026 text); v12: not a mapped folio.
 * Context: folio locked.
 */
void km_filemap_end_dropbehind(struct km_folio *folio)
{
	struct km_address_space *mapping = folio->owner;

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
 * Divergences: completions are task context in the model (XFS completes
 * buffered ioends from a workqueue), so in_task() is always true.
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
