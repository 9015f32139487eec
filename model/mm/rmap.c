// SPDX-License-Identifier: MIT
/*
 * model/mm/rmap.c - write-protecting the PTEs of a file folio.
 *
 * Models mm/rmap.c folio_mkclean of v6.18 for the model's one shared VMA
 * per file: under the PTE lock, a PTE that is dirty or writable is made
 * clean and read-only, and counted.  (kernel-mm.md §1.5 C, §2.1.)
 *
 * Leaves out: i_mmap_rwsem and the interval-tree walk (one VMA), TLB
 * flushes (no TLB), anonymous and KSM folios.
 */
#include "model/linux/mm.h"
#include "model/linux/pagemap.h"
#include "model/world.h"
#include "model/lockdep.h"

/**
 * km_folio_mkclean - clean and write-protect every PTE mapping a folio.
 * Kernel: mm/rmap.c, v6.18.
 * Context: folio locked; takes the PTE lock.
 * Return: how many PTEs were cleaned (0 or 1 here).
 *
 * The walk takes the PTE lock even for a PTE a zap is clearing
 * (page_mkclean_one uses PVMW_SYNC), so it waits for a zap that holds the
 * PTE's dirt until that dirt is in PG_dirty (km_zap_present_folio_ptes).
 */
int km_folio_mkclean(struct km_folio *folio)
{
	struct km_address_space *mapping = folio->owner;
	int cleaned = 0;

	/* BUG_ON(!folio_test_locked(folio)) (mm/rmap.c). */
	m_assert_folio_locked(folio);
	if (!sim_word_read(&folio->mapcount))
		return 0;
	sim_spin_lock(&mapping->ptl);
	{
		uint64_t pte = sim_word_read(&folio->pte);

		if ((pte & M_PTE_PRESENT) &&
		    (pte & (M_PTE_DIRTY | M_PTE_WRITE))) {
			sim_word_write(&folio->pte,
				       pte & ~(uint64_t)(M_PTE_DIRTY |
							 M_PTE_WRITE));
			cleaned = 1;
		}
	}
	sim_spin_unlock(&mapping->ptl);
	return cleaned;
}
