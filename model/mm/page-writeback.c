// SPDX-License-Identifier: MIT
/*
 * model/mm/page-writeback.c - dirtying, cleaning and writeback state of
 * page-cache folios, the writeback walk, dirty throttling.
 *
 * Models mm/page-writeback.c of v6.18 (checked against the 2026 text the
 * reference notes call S-PW-2026, ../shared/reference/kernel-mm.md §1-§4):
 * folio_mark_dirty, filemap_dirty_folio, __folio_mark_dirty,
 * folio_account_dirtied, folio_account_cleaned, __folio_cancel_dirty,
 * folio_clear_dirty_for_io, folio_redirty_for_writepage,
 * __folio_start_writeback, __folio_end_writeback, folio_wait_writeback,
 * folio_wait_stable, tag_pages_for_writeback, writeback_iter,
 * do_writepages, balance_dirty_pages_ratelimited_flags.
 *
 * Leaves out: memcg and cgroup writeback (one bdi_writeback, one node),
 * the per-CPU ratelimit and task nr_dirtied, task I/O accounting,
 * bandwidth estimation, reclaim hints (PG_reclaim), the dirty-limit
 * feedback controller (a single page threshold replaces it, see
 * km_balance_dirty_pages_ratelimited_flags), swap and shmem.
 */
#include "model/linux/pagemap.h"
#include "model/linux/writeback.h"
#include "model/world.h"
#include "sim/clock.h"

static void wb_stat_mod(struct km_bdi_writeback *wb, enum km_wb_stat_item i,
			long nr)
{
	sim_word_add_nr(&wb->stat[i], nr);
}

static void node_stat_mod(enum km_node_stat_item i, long nr)
{
	sim_word_add_nr(&m_world()->node.stat[i], nr);
}

static struct km_address_space *folio_mapping(struct km_folio *folio)
{
	return sim_word_read(&folio->mapping) ? folio->owner : NULL;
}

static bool dontcache_counted(void)
{
	return m_world()->dontcache >= M_DC_7_3;
}

/**
 * m_dontcache_account - add a dropbehind folio to WB_DONTCACHE_DIRTY.
 * Kernel: mm/page-writeback.c folio_account_dirtied line, v7.3
 * (88d6f128d06d); v11/v12 also record that the folio is counted (our
 * reading of seed 003 2/7, see folio->dontcache_counted).
 */
void m_dontcache_account(struct km_folio *folio, long nr)
{
	uint64_t counted = 0;

	if (m_world()->dontcache >= M_DC_V11)
		counted = sim_word_xchg(&folio->dontcache_counted, 1);
	wb_stat_mod(folio->owner->host->wb, WB_DONTCACHE_DIRTY, nr);
	/*
	 * World invariant 11 (docs/model/world.md): a folio enters the
	 * counter once until it leaves it.  Checked here, after the add,
	 * because the double count is a moment, not a state: the later
	 * clean takes one count off and the end state can look right
	 * (sashiko's v11 4/7 race, seed 003).
	 */
	SIM_CHECK(!counted, "invariant 11: folio %u entered "
		  "WB_DONTCACHE_DIRTY while already counted (WB_DONTCACHE_"
		  "DIRTY now %lld)", folio->id,
		  (long long)sim_word_peek(
			  &folio->owner->host->wb->stat[WB_DONTCACHE_DIRTY]));
}

/**
 * m_dontcache_unaccount - take a folio off WB_DONTCACHE_DIRTY.
 * Kernel: v7.3: whenever PG_dropbehind is set now (the drift: a folio
 * that became dropbehind after it was counted dirty, or lost the flag in
 * between, is taken off wrongly).  Patch: seed 003 v11/v12 2/7: only if
 * it was counted there.
 */
void m_dontcache_unaccount(struct km_folio *folio, long nr)
{
	if (m_world()->dontcache >= M_DC_V11) {
		if (sim_word_xchg(&folio->dontcache_counted, 0))
			wb_stat_mod(folio->owner->host->wb, WB_DONTCACHE_DIRTY,
				    -nr);
		return;
	}
	if (sim_bit_test(&folio->flags, PG_dropbehind))
		wb_stat_mod(folio->owner->host->wb, WB_DONTCACHE_DIRTY, -nr);
}

/**
 * km_folio_account_dirtied - account a folio that became dirty.
 * Kernel: mm/page-writeback.c, v6.18 (+ WB_DONTCACHE_DIRTY, v7.3).
 * Context: xa_lock held (the kernel also has IRQs off).
 * Divergences: no memcg, no task/percpu ratelimit counters; the
 * WB_DONTCACHE_DIRTY line exists only in dontcache variants >= 7.3.
 */
void km_folio_account_dirtied(struct km_folio *folio,
			      struct km_address_space *mapping)
{
	struct km_bdi_writeback *wb = mapping->host->wb;
	long nr = (long)km_folio_nr_pages(folio);

	node_stat_mod(NR_FILE_DIRTY, nr);
	if (dontcache_counted() && sim_bit_test(&folio->flags, PG_dropbehind))
		m_dontcache_account(folio, nr);
	node_stat_mod(NR_ZONE_WRITE_PENDING, nr);
	node_stat_mod(NR_DIRTIED, nr);
	wb_stat_mod(wb, WB_RECLAIMABLE, nr);
	wb_stat_mod(wb, WB_DIRTIED, nr);
}

/**
 * km___folio_mark_dirty - account and tag a folio whose PG_dirty is set.
 * Kernel: mm/page-writeback.c, v6.18.
 * Context: takes xa_lock; caller holds the folio lock or the PTE lock.
 * Divergences: @warn is accepted but nothing warns.
 */
void km___folio_mark_dirty(struct km_folio *folio,
			   struct km_address_space *mapping, int warn)
{
	(void)warn;
	sim_spin_lock(&mapping->xa_lock);
	if (sim_word_read(&folio->mapping)) {	/* Race with truncate? */
		km_folio_account_dirtied(folio, mapping);
		m_xa_set_mark(mapping, folio->index, PAGECACHE_TAG_DIRTY);
	}
	sim_spin_unlock(&mapping->xa_lock);
}

/**
 * km_filemap_dirty_folio - mark a folio dirty for filesystems without
 * buffer heads.
 * Kernel: mm/page-writeback.c, v6.18.
 * Context: folio locked, or its PTE lock held (zap).
 * Return: true if the folio was newly dirtied.
 */
bool km_filemap_dirty_folio(struct km_address_space *mapping,
			    struct km_folio *folio)
{
	if (sim_bit_test_and_set(&folio->flags, PG_dirty))
		return false;
	km___folio_mark_dirty(folio, mapping, 1);
	km___mark_inode_dirty(mapping->host, I_DIRTY_PAGES);
	return true;
}

/**
 * km_folio_mark_dirty - mark a folio dirty through its mapping's a_ops.
 * Kernel: mm/page-writeback.c, v6.18.
 * Context: folio locked, or PTE lock held; must not race truncation.
 * Return: true if the folio was newly dirtied.
 * Divergences: PG_reclaim is not modelled, so it is not cleared here.
 */
bool km_folio_mark_dirty(struct km_folio *folio)
{
	struct km_address_space *mapping = folio_mapping(folio);

	if (!mapping)
		return !sim_bit_test_and_set(&folio->flags, PG_dirty);
	return mapping->a_ops->dirty_folio(mapping, folio);
}

/**
 * km_folio_redirty_for_writepage - decline to write a folio taken for I/O.
 * Kernel: mm/page-writeback.c, v6.18.
 * Context: folio locked.
 * Return: true if the folio was newly dirtied.
 */
bool km_folio_redirty_for_writepage(struct km_writeback_control *wbc,
				    struct km_folio *folio)
{
	struct km_address_space *mapping = folio->owner;
	long nr = (long)km_folio_nr_pages(folio);
	bool ret;

	wbc->pages_skipped += nr;
	ret = km_filemap_dirty_folio(mapping, folio);
	node_stat_mod(NR_DIRTIED, -nr);
	wb_stat_mod(mapping->host->wb, WB_DIRTIED, -nr);
	return ret;
}

/**
 * km_folio_account_cleaned - undo the accounting of a dirty folio.
 * Kernel: mm/page-writeback.c, v6.18 (+ WB_DONTCACHE_DIRTY, v7.3).
 * Context: the caller cleared PG_dirty.
 * Divergences: no task cancelled_write_bytes.  The v7.3 form takes the
 * folio off WB_DONTCACHE_DIRTY whenever PG_dropbehind is set now; seed
 * 003's 2/7 makes that "only if it was counted" (dontcache variants).
 */
void km_folio_account_cleaned(struct km_folio *folio,
			      struct km_bdi_writeback *wb)
{
	long nr = (long)km_folio_nr_pages(folio);

	node_stat_mod(NR_FILE_DIRTY, -nr);
	if (dontcache_counted())
		m_dontcache_unaccount(folio, nr);
	node_stat_mod(NR_ZONE_WRITE_PENDING, -nr);
	wb_stat_mod(wb, WB_RECLAIMABLE, -nr);
}

/**
 * km___folio_cancel_dirty - clear PG_dirty and its accounting without I/O.
 * Kernel: mm/page-writeback.c, v6.18.
 * Context: folio locked (truncation).  Leaves the DIRTY mark and PTEs.
 */
void km___folio_cancel_dirty(struct km_folio *folio)
{
	struct km_address_space *mapping = folio_mapping(folio);

	if (mapping) {
		if (sim_bit_test_and_clear(&folio->flags, PG_dirty))
			km_folio_account_cleaned(folio, mapping->host->wb);
	} else {
		sim_bit_clear(&folio->flags, PG_dirty);
	}
}

/**
 * km_folio_cancel_dirty - km___folio_cancel_dirty if the folio is dirty.
 * Kernel: include/linux/pagemap.h, v6.18.
 */
void km_folio_cancel_dirty(struct km_folio *folio)
{
	if (sim_bit_test(&folio->flags, PG_dirty))
		km___folio_cancel_dirty(folio);
}

int km_folio_mkclean(struct km_folio *folio);

/**
 * km_folio_clear_dirty_for_io - take a locked folio for writeback.
 * Kernel: mm/page-writeback.c, v6.18.
 * Context: folio locked.  The DIRTY mark is left set (it is fixed by
 * __folio_start_writeback or a redirty while the folio stays locked).
 * Return: true if the folio was dirty (counters moved).
 */
bool km_folio_clear_dirty_for_io(struct km_folio *folio)
{
	struct km_address_space *mapping = folio_mapping(folio);
	bool ret = false;

	SIM_ASSERT_MSG(m_folio_flag_peek(folio, PG_locked),
		       "folio %u: clear_dirty_for_io without the folio lock",
		       folio->id);
	if (!mapping)
		return sim_bit_test_and_clear(&folio->flags, PG_dirty);
	/* Write-protect the PTEs; their dirt moves to PG_dirty. */
	if (!m_broken(M_BREAK_CLEAR_DIRTY_NO_MKCLEAN) &&
	    km_folio_mkclean(folio))
		km_folio_mark_dirty(folio);
	if (sim_bit_test_and_clear(&folio->flags, PG_dirty)) {
		struct km_bdi_writeback *wb = mapping->host->wb;
		long nr = (long)km_folio_nr_pages(folio);

		node_stat_mod(NR_FILE_DIRTY, -nr);
		if (dontcache_counted())
			m_dontcache_unaccount(folio, nr);
		node_stat_mod(NR_ZONE_WRITE_PENDING, -nr);
		wb_stat_mod(wb, WB_RECLAIMABLE, -nr);
		ret = true;
	}
	return ret;
}

/**
 * km___folio_start_writeback - set PG_writeback and its mark and counters.
 * Kernel: mm/page-writeback.c, v6.18.
 * Context: folio locked, PG_writeback clear (both asserted).
 * Divergences: no writeback_inodes / sb inode list; NR_WRITEBACK is a
 * node stat here.
 */
void km___folio_start_writeback(struct km_folio *folio, bool keep_write)
{
	struct km_address_space *mapping = folio_mapping(folio);
	long nr = (long)km_folio_nr_pages(folio);

	SIM_ASSERT_MSG(m_folio_flag_peek(folio, PG_locked),
		       "folio %u: start_writeback without the folio lock",
		       folio->id);
	SIM_ASSERT_MSG(!m_folio_flag_peek(folio, PG_writeback),
		       "folio %u: start_writeback twice", folio->id);
	if (mapping) {
		sim_spin_lock(&mapping->xa_lock);
		sim_bit_set(&folio->flags, PG_writeback);
		m_xa_set_mark(mapping, folio->index, PAGECACHE_TAG_WRITEBACK);
		wb_stat_mod(mapping->host->wb, WB_WRITEBACK, nr);
		if (m_broken(M_BREAK_TAG_BEFORE_DIRTY_TEST) ||
		    !sim_bit_test(&folio->flags, PG_dirty))
			m_xa_clear_mark(mapping, folio->index,
					PAGECACHE_TAG_DIRTY);
		if (!keep_write)
			m_xa_clear_mark(mapping, folio->index,
					PAGECACHE_TAG_TOWRITE);
		sim_spin_unlock(&mapping->xa_lock);
	} else {
		sim_bit_set(&folio->flags, PG_writeback);
	}
	node_stat_mod(NR_WRITEBACK, nr);
	node_stat_mod(NR_ZONE_WRITE_PENDING, nr);
}

void km_folio_start_writeback(struct km_folio *folio)
{
	km___folio_start_writeback(folio, false);
}

/**
 * km___folio_end_writeback - clear PG_writeback, its mark and counters.
 * Kernel: mm/page-writeback.c, v6.18.
 * Context: process or completion (event) context; takes xa_lock.
 * Return: true if someone waits on the folio (PG_waiters).
 */
bool km___folio_end_writeback(struct km_folio *folio)
{
	struct km_address_space *mapping = folio_mapping(folio);
	long nr = (long)km_folio_nr_pages(folio);
	bool ret;

	if (mapping) {
		struct km_bdi_writeback *wb = mapping->host->wb;

		sim_spin_lock(&mapping->xa_lock);
		ret = sim_bit_test_and_clear(&folio->flags, PG_writeback) &&
		      sim_waitq_active_also(&folio->waitq) > 0;
		m_xa_clear_mark(mapping, folio->index, PAGECACHE_TAG_WRITEBACK);
		wb_stat_mod(wb, WB_WRITEBACK, -nr);
		wb_stat_mod(wb, WB_WRITTEN, nr);
		sim_spin_unlock(&mapping->xa_lock);
	} else {
		ret = sim_bit_test_and_clear(&folio->flags, PG_writeback) &&
		      sim_waitq_active_also(&folio->waitq) > 0;
	}
	node_stat_mod(NR_WRITEBACK, -nr);
	node_stat_mod(NR_ZONE_WRITE_PENDING, -nr);
	node_stat_mod(NR_WRITTEN, nr);
	return ret;
}

/**
 * km_folio_wait_writeback - wait for PG_writeback to clear.
 * Kernel: mm/page-writeback.c, v6.18.
 * Context: may sleep; no spinlocks.
 */
void km_folio_wait_writeback(struct km_folio *folio)
{
	while (sim_bit_test(&folio->flags, PG_writeback))
		km_folio_wait_bit(folio, PG_writeback);
}

/**
 * km_folio_wait_stable - wait for writeback if the mapping needs stable
 * pages.
 * Kernel: mm/page-writeback.c, v6.18 (AS_STABLE_WRITES since v6.7).
 * Context: folio locked by the caller, may sleep.
 */
void km_folio_wait_stable(struct km_folio *folio)
{
	if (sim_bit_test(&folio->owner->flags, AS_STABLE_WRITES))
		km_folio_wait_writeback(folio);
}

/**
 * km_tag_pages_for_writeback - set TOWRITE on every DIRTY index in range.
 * Kernel: mm/page-writeback.c, v6.18.
 * Context: takes xa_lock.
 * Divergences: the lock is never dropped mid-range (the kernel drops it
 * every 4096 entries; our files are smaller); the walk stops at the
 * mapping's extent (one past the highest index ever stored).
 */
void km_tag_pages_for_writeback(struct km_address_space *mapping,
				pgoff_t start, pgoff_t end)
{
	pgoff_t extent;

	sim_spin_lock(&mapping->xa_lock);
	extent = sim_word_read(&mapping->xa_extent);
	for (pgoff_t i = start;; i++) {
		i = m_xa_next_marked(mapping, i, end, extent,
				     PAGECACHE_TAG_DIRTY);
		if (i > end || i >= extent)
			break;
		m_xa_set_mark(mapping, i, PAGECACHE_TAG_TOWRITE);
	}
	sim_spin_unlock(&mapping->xa_lock);
}

/* sync_tag=dirty: the WB_SYNC_ALL walk of before v2.6.35 (no TOWRITE). */
static bool sync_tag_dirty(void)
{
	struct m_world *w = m_world();

	return w && w->sync_tag == M_SYNC_TAG_DIRTY;
}

static int wbc_to_tag(const struct km_writeback_control *wbc)
{
	if ((wbc->sync_mode == WB_SYNC_ALL || wbc->tagged_writepages) &&
	    !sync_tag_dirty())
		return PAGECACHE_TAG_TOWRITE;
	return PAGECACHE_TAG_DIRTY;
}

/**
 * km_filemap_get_folios_tag - collect the folios tagged @tag from *@start
 * to @end into @wbc's batch, with a reference each.
 * Kernel: mm/filemap.c filemap_get_folios_tag, v6.18.
 * Context: no locks (the kernel walks under RCU).
 * Return: the number of folios in the batch.  *@start is the index after
 * the last folio when the batch filled, else past @end: this lookup
 * decides which folios of the range the batch holds.
 * Divergences: each slot's mark and entry are one read each (no RCU
 * retry); the walk stops at the mapping's extent.  Under --variant
 * sync_tag=dirty (not v6.18) the lookup is v2.6.34's pagevec_lookup_tag:
 * *@start is left just past the last folio found (find_get_pages_tag),
 * not at @end + 1, so the walk's next lookup starts there; the batch
 * stays 31 (v2.6.34: 14).
 */
static unsigned int km_filemap_get_folios_tag(struct km_address_space *mapping,
					      pgoff_t *start, pgoff_t end,
					      int tag,
					      struct km_writeback_control *wbc)
{
	pgoff_t extent = sim_word_read(&mapping->xa_extent);
	pgoff_t i = *start;

	/* sync_tag=dirty: v2.6.34's pagevec_lookup_tag, which leaves the
	 * index just past the last page found, so the next lookup of the
	 * walk sees pages tagged since. */
	if (sync_tag_dirty()) {
		while (i <= end && i < extent) {
			struct km_folio *folio;

			if (!m_xa_get_mark(mapping, i, tag) ||
			    !(folio = m_folio_lookup_get(mapping, i))) {
				i++;
				continue;
			}
			i = folio->index + km_folio_nr_pages(folio);
			wbc->fbatch[wbc->fbatch_nr++] = folio;
			*start = i;
			if (wbc->fbatch_nr == KM_PAGEVEC_SIZE)
				return wbc->fbatch_nr;
		}
		if (!wbc->fbatch_nr)
			*start = end == (pgoff_t)-1 ? (pgoff_t)-1 : end + 1;
		return wbc->fbatch_nr;
	}
	for (;;) {
		struct km_folio *folio;

		i = m_xa_next_marked(mapping, i, end, extent, tag);
		if (i > end || i >= extent)
			break;
		folio = m_folio_lookup_get(mapping, i);
		if (!folio) {
			i++;
			continue;
		}
		i = folio->index + km_folio_nr_pages(folio);
		wbc->fbatch[wbc->fbatch_nr++] = folio;
		if (wbc->fbatch_nr == KM_PAGEVEC_SIZE) {
			*start = i;
			return wbc->fbatch_nr;
		}
	}
	*start = end == (pgoff_t)-1 ? (pgoff_t)-1 : end + 1;
	return wbc->fbatch_nr;
}

/* folio_batch_release: drop the batch's references, empty it. */
static void folio_batch_release(struct km_writeback_control *wbc)
{
	for (unsigned int i = 0; i < wbc->fbatch_nr; i++)
		km_folio_put(wbc->fbatch[i]);
	wbc->fbatch_nr = wbc->fbatch_i = 0;
}

static struct km_folio *folio_batch_next(struct km_writeback_control *wbc)
{
	if (wbc->fbatch_i >= wbc->fbatch_nr)
		return NULL;
	return wbc->fbatch[wbc->fbatch_i++];
}

/* folio_prepare_writeback: false means skip this folio. */
static bool folio_prepare_writeback(struct km_address_space *mapping,
				    struct km_writeback_control *wbc,
				    struct km_folio *folio)
{
	if (folio_mapping(folio) != mapping)
		return false;
	if (!sim_bit_test(&folio->flags, PG_dirty))
		return false;
	if (sim_bit_test(&folio->flags, PG_writeback)) {
		if (wbc->sync_mode == WB_SYNC_NONE)
			return false;
		km_folio_wait_writeback(folio);
	}
	if (!km_folio_clear_dirty_for_io(folio))
		return false;
	return true;
}

static struct km_folio *writeback_get_folio(struct km_address_space *mapping,
					    struct km_writeback_control *wbc)
{
	struct km_folio *folio;

retry:
	folio = folio_batch_next(wbc);
	if (!folio) {
		folio_batch_release(wbc);
		km_filemap_get_folios_tag(mapping, &wbc->index, wbc->end,
					  wbc_to_tag(wbc), wbc);
		folio = folio_batch_next(wbc);
		if (!folio)
			return NULL;
	}
	km_folio_lock(folio);
	if (!folio_prepare_writeback(mapping, wbc, folio)) {
		km_folio_unlock(folio);
		goto retry;
	}
	return folio;
}

/**
 * km_writeback_iter - iterate the folios of a mapping for writeback.
 * Kernel: mm/page-writeback.c, v6.18 (v6.10+ shape).
 * Context: may sleep: folio lock, writeback wait.
 * Return: the next folio, locked, PG_dirty clear and counters moved, DIRTY
 * mark still set; NULL at the end (*error = first error for SYNC_ALL).
 *
 * The folios of a pass come from batches of up to KM_PAGEVEC_SIZE, each
 * looked up in one filemap_get_folios_tag: a folio tagged after the
 * lookup, inside the range it covered, is not visited by this pass (in
 * WB_SYNC_NONE; for WB_SYNC_ALL the TOWRITE set is fixed earlier), and a
 * folio replaced at its index after the lookup fails the mapping test.
 * The batch holds its references until it is released.
 * Divergences: no WARN_ON_ONCE(*error > 0), no BUG_ON after the
 * writeback wait.  Under --variant sync_tag=dirty (not v6.18) a
 * WB_SYNC_ALL pass neither tags nor walks TOWRITE: it walks DIRTY, the
 * walk of write_cache_pages before v2.6.35 (commit "mm: implement
 * writeback livelock avoidance using page tagging"), in the v6.18 shape
 * (folio batches of 31, not pagevecs of 14; the rest of that old
 * function, e.g. its nr_to_write handling, is not modelled).
 */
struct km_folio *km_writeback_iter(struct km_address_space *mapping,
				   struct km_writeback_control *wbc,
				   struct km_folio *folio, int *error)
{
	if (!folio) {
		wbc->fbatch_nr = wbc->fbatch_i = 0;	/* folio_batch_init */
		wbc->saved_err = *error = 0;
		if (wbc->range_cyclic) {
			wbc->index = sim_word_read(&mapping->writeback_index);
			wbc->end = (pgoff_t)-1;
		} else {
			wbc->index = (pgoff_t)wbc->range_start >> PAGE_SHIFT;
			wbc->end = wbc->range_end < 0 ? (pgoff_t)-1 :
				   (pgoff_t)wbc->range_end >> PAGE_SHIFT;
		}
		if ((wbc->sync_mode == WB_SYNC_ALL ||
		     wbc->tagged_writepages) && !sync_tag_dirty())
			km_tag_pages_for_writeback(mapping, wbc->index,
						   wbc->end);
	} else {
		wbc->nr_to_write -= (long)km_folio_nr_pages(folio);
		if (wbc->sync_mode == WB_SYNC_ALL) {
			if (*error && !wbc->saved_err)
				wbc->saved_err = *error;
		} else if (*error || wbc->nr_to_write <= 0) {
			/* done: */
			if (wbc->range_cyclic)
				sim_word_write(&mapping->writeback_index,
					       folio->index +
					       km_folio_nr_pages(folio));
			folio_batch_release(wbc);
			return NULL;
		}
	}
	folio = writeback_get_folio(mapping, wbc);
	if (!folio) {
		if (wbc->range_cyclic)
			sim_word_write(&mapping->writeback_index, 0);
		*error = wbc->saved_err;
		return NULL;
	}
	sim_cpu_writeback_folio();
	return folio;
}

/**
 * km_do_writepages - write back a mapping through its a_ops.
 * Kernel: mm/page-writeback.c, v6.18.
 * Divergences: no -ENOMEM retry, no bandwidth estimate.
 */
int km_do_writepages(struct km_address_space *mapping,
		     struct km_writeback_control *wbc)
{
	if (wbc->nr_to_write <= 0)
		return 0;
	if (!mapping->a_ops->writepages)
		return 0;
	sim_cpu_writeback_call();
	return mapping->a_ops->writepages(mapping, wbc);
}

/**
 * km_balance_dirty_pages_ratelimited_flags - throttle a dirtier.
 * Kernel: mm/page-writeback.c, v6.18 (BDP_ASYNC since v6.0).
 * Context: may sleep unless BDP_ASYNC.
 * Return: 0, or -EAGAIN with BDP_ASYNC when the writer would be throttled.
 * Divergences: the model has one threshold in pages (wb.dirty_limit,
 * 0 = none) instead of the dirty-limit feedback controller: a writer is
 * throttled while NR_FILE_DIRTY + NR_WRITEBACK >= the limit, and sleeps
 * until a writeback completion wakes it; no ratelimit window.
 */
int km_balance_dirty_pages_ratelimited_flags(struct km_address_space *mapping,
					     unsigned int flags)
{
	struct km_bdi_writeback *wb = mapping->host->wb;
	struct km_node *node = &m_world()->node;
	uint64_t limit = sim_word_read(&wb->dirty_limit);

	if (!limit)
		return 0;
	for (;;) {
		uint64_t used = sim_word_read(&node->stat[NR_FILE_DIRTY]) +
				sim_word_read(&node->stat[NR_WRITEBACK]);

		if (used < limit)
			return 0;
		if (flags & BDP_ASYNC)
			return -KM_EAGAIN;
		sim_waitq_sleep(&wb->throttle_wait);
	}
}
