// SPDX-License-Identifier: MIT
/*
 * model/mm/dontcache.c - dropping a dropbehind (RWF_DONTCACHE) folio when
 * its writeback ends.
 *
 * Models mm/filemap.c of v6.18: folio_end_dropbehind ->
 * filemap_end_dropbehind -> folio_unmap_invalidate (kernel-mm.md §3.4):
 * after writeback completion, a folio that is clean and was dropbehind is
 * trylocked and, if it is still in its mapping, clean, not under
 * writeback and not mapped, removed from the page cache.
 *
 * Leaves out (for now): the seed 003 variants (7.3, v11, v12), which
 * change when PG_dropbehind is set and counted; the read-side drop; the
 * post-write writeback kick.  The DONTCACHE issue adds them.
 */
#include "model/linux/pagemap.h"
#include "model/linux/writeback.h"
#include "model/world.h"

/**
 * km_folio_end_dropbehind - drop a clean dropbehind folio after writeback.
 * Kernel: mm/filemap.c folio_end_dropbehind, v6.18 (2026 split form).
 * Context: completion (event) or process context; never sleeps (trylock).
 */
void km_folio_end_dropbehind(struct km_folio *folio)
{
	if (sim_bit_test(&folio->flags, PG_dirty))
		return;
	if (!sim_bit_test_and_clear(&folio->flags, PG_dropbehind))
		return;
	/* filemap_end_dropbehind: only if we can lock it now. */
	if (!km_folio_trylock(folio))
		return;
	if (sim_word_read(&folio->mapping) &&
	    !sim_bit_test(&folio->flags, PG_dirty) &&
	    !sim_bit_test(&folio->flags, PG_writeback) &&
	    !sim_word_read(&folio->mapcount))
		km_filemap_remove_folio(folio);	/* folio_unmap_invalidate */
	km_folio_unlock(folio);
}
