// SPDX-License-Identifier: MIT
/*
 * model/mm/vmscan.c - page-cache reclaim at a limit: an LRU of the page
 * cache's folios, and direct reclaim of the clean, unlocked, unmapped
 * folios not under writeback when an allocation would pass the limit.
 *
 * Models mm/vmscan.c of v6.18 as far as a page-cache limit needs it:
 * shrink_folio_list's checks in its order (trylock, mapped, writeback,
 * dirty, private data) and __remove_mapping (the refcount freeze under
 * i_lock and xa_lock, the dirty re-check, __filemap_remove_folio), with
 * the inactive file LRU as a list the allocating task scans from its
 * oldest end (shrink_inactive_list, isolate_lru_folios).  Only in runs
 * with a page-cache limit (wpsim fio --mem SIZE, struct
 * m_world_config.mem_pages): exploration never reclaims.
 *
 * Leaves out: the active list, references and second chances
 * (folio_check_references: every folio is reclaimed in LRU order),
 * kswapd, watermarks, zones and memcg (the limit is the page cache's
 * size in pages, checked by the allocating task, not the machine's free
 * memory), pageout of dirty folios (a dirty folio is kept for the
 * flusher, as kswapd-less direct reclaim of file folios does), unmapping
 * (a mapped folio is kept), workingset shadows, the LRU's per-CPU
 * batches and lru_lock (the list changes in the step that inserts or
 * removes a folio, without a scheduling point), and reclaim throttling
 * (when nothing can be reclaimed the allocation goes over the limit).
 */
#include "model/linux/pagemap.h"
#include "model/world.h"
#include "sim/arena.h"

#define SWAP_CLUSTER_MAX	32	/* folios isolated per pass */

/* ---- the LRU (bookkeeping, no scheduling points) ------------------------ */

/* folio_add_lru: a folio that enters the page cache goes to the head. */
void m_lru_add(struct km_folio *folio)
{
	struct m_world *w = m_world();

	if (!w->mem_pages || folio->on_lru)
		return;
	folio->on_lru = true;
	folio->lru_prev = 0;
	folio->lru_next = w->lru_head;
	if (w->lru_head)
		w->folios[w->lru_head]->lru_prev = folio->id;
	else
		w->lru_tail = folio->id;
	w->lru_head = folio->id;
}

/* Off the LRU (removal from the page cache, or isolation). */
void m_lru_del(struct km_folio *folio)
{
	struct m_world *w = m_world();

	if (!folio->on_lru)
		return;
	if (folio->lru_prev)
		w->folios[folio->lru_prev]->lru_next = folio->lru_next;
	else
		w->lru_head = folio->lru_next;
	if (folio->lru_next)
		w->folios[folio->lru_next]->lru_prev = folio->lru_prev;
	else
		w->lru_tail = folio->lru_prev;
	folio->on_lru = false;
	folio->lru_prev = folio->lru_next = 0;
}

/* ---- reclaim ------------------------------------------------------------ */

/**
 * km___remove_mapping - take a locked, clean folio out of the page cache
 * if nobody but the caller and the page cache holds it.
 * Kernel: mm/vmscan.c __remove_mapping, v6.18.
 * Context: folio locked and isolated (the caller holds a reference).
 * Return: true if removed; the folio's refcount is then frozen at 0.
 * Divergences: the expected count is 2 (the model's page cache holds one
 * reference per folio, not one per page); no swap cache, no workingset
 * shadow, no ->free_folio (XFS and ext4 have none), no inode LRU.
 */
static bool km___remove_mapping(struct km_address_space *mapping,
				struct km_folio *folio)
{
	SIM_ASSERT_MSG(m_folio_flag_peek(folio, PG_locked),
		       "folio %u: __remove_mapping of an unlocked folio",
		       folio->id);
	sim_spin_lock(&mapping->host->i_lock);
	sim_spin_lock(&mapping->xa_lock);
	/* folio_ref_freeze(folio, 2) */
	if (sim_word_cmpxchg(&folio->refcount, 2, 0) != 2)
		goto cannot_free;
	if (sim_bit_test(&folio->flags, PG_dirty)) {
		sim_word_write(&folio->refcount, 2);	/* unfreeze */
		goto cannot_free;
	}
	km___filemap_remove_folio(folio);
	sim_spin_unlock(&mapping->xa_lock);
	sim_spin_unlock(&mapping->host->i_lock);
	return true;

cannot_free:
	sim_spin_unlock(&mapping->xa_lock);
	sim_spin_unlock(&mapping->host->i_lock);
	return false;
}

/**
 * km_shrink_folio_list - try to free each isolated folio; put the rest
 * back on the LRU.
 * Kernel: mm/vmscan.c shrink_folio_list, v6.18.
 * Context: the folios are isolated, each with a reference of the caller.
 * Return: the number of pages freed.
 * Divergences: see the file comment: no references, no pageout, no
 * unmapping; a folio that is kept goes back to the LRU's head (the
 * kernel's putback_lru_folios, to the active list for an activated one).
 */
static unsigned long km_shrink_folio_list(struct km_folio **list,
					  unsigned int count)
{
	unsigned long freed = 0;

	for (unsigned int i = 0; i < count; i++) {
		struct km_folio *folio = list[i];
		struct km_address_space *mapping = folio->owner;
		unsigned long nr = km_folio_nr_pages(folio);

		if (!km_folio_trylock(folio))
			goto keep;
		/* Truncated since it was isolated: only our reference. */
		if (!sim_word_read(&folio->mapping))
			goto keep_locked;
		if (sim_word_read(&folio->mapcount))
			goto keep_locked;	/* !sc->may_unmap */
		if (sim_bit_test(&folio->flags, PG_writeback))
			goto keep_locked;
		if (sim_bit_test(&folio->flags, PG_dirty))
			goto keep_locked;	/* the flusher writes it */
		if (sim_word_read(&folio->ifs_attached) &&
		    !km_filemap_release_folio(folio))
			goto keep_locked;
		if (!km___remove_mapping(mapping, folio))
			goto keep_locked;
		/*
		 * __folio_clear_locked: the count is frozen at 0, nobody
		 * else can reach the folio, so no waiter to wake (and not
		 * folio_unlock, which needs a reference held).
		 */
		sim_bit_clear(&folio->flags, PG_locked);
		m_folio_free(folio);
		freed += nr;
		continue;
keep_locked:
		km_folio_unlock(folio);
keep:
		if (sim_word_read(&folio->mapping))
			m_lru_add(folio);
		km_folio_put(folio);
	}
	return freed;
}

/* folio_try_get: a reference unless the count is frozen at 0. */
bool m_folio_try_get(struct km_folio *folio)
{
	for (;;) {
		uint64_t ref = sim_word_read(&folio->refcount);

		if (ref == 0)
			return false;
		if (sim_word_cmpxchg(&folio->refcount, ref, ref + 1) == ref)
			return true;
	}
}

/*
 * Direct reclaim before allocating @nr pages of page cache: while the
 * page cache would pass the limit, isolate up to SWAP_CLUSTER_MAX folios
 * from the LRU's oldest end and shrink them (try_to_free_pages ->
 * shrink_inactive_list, reduced to the inactive file list).  Stops when
 * under the limit or when a pass frees nothing.
 */
void m_reclaim_for(unsigned long nr)
{
	struct m_world *w = m_world();
	struct km_folio *list[SWAP_CLUSTER_MAX];

	if (!w || !w->mem_pages)
		return;
	while (sim_word_read(&w->node.stat[NR_FILE_PAGES]) + nr >
	       w->mem_pages) {
		unsigned int count = 0, scan = 0;
		uint32_t id = w->lru_tail;
		unsigned long freed;

		/* isolate_lru_folios: oldest first, each with a reference. */
		while (id && count < SWAP_CLUSTER_MAX &&
		       scan++ < 4 * SWAP_CLUSTER_MAX) {
			struct km_folio *folio = w->folios[id];

			id = folio->lru_prev;
			m_lru_del(folio);
			if (!m_folio_try_get(folio))
				continue;
			list[count++] = folio;
		}
		freed = count ? km_shrink_folio_list(list, count) : 0;
		if (!freed)
			return;	/* nothing to free: over the limit */
		w->reclaimed_pages += freed;
	}
}
