// SPDX-License-Identifier: MIT
/*
 * model/mm/truncate.c - removing folios from the page cache on truncate
 * and hole punch.
 *
 * Models mm/truncate.c of v6.18 (kernel-mm.md §6):
 * truncate_inode_pages_range with its non-blocking first pass (trylock;
 * folios locked or under writeback are left for later), the partial
 * folios at both ends (wait for writeback, zero the range, keep the
 * folio), and the blocking second pass (lock, wait for writeback,
 * truncate_inode_folio); truncate_cleanup_folio (unmap, cancel dirty);
 * truncate_pagecache and truncate_pagecache_range;
 * invalidate_inode_pages2_range; folio_unmap_invalidate (the drop of a
 * clean dropbehind folio, RWF_DONTCACHE).
 *
 * Leaves out: shadow/value entries, ->invalidate_folio (iomap's frees the
 * ifs only), large-folio splitting (a partial large folio is kept and
 * zeroed), the restart-from-start loop of pass 2 (one sweep: the callers
 * hold i_rwsem exclusive, so no new folios appear in the range except
 * through faults, which the model's scenarios do not race with truncate).
 */
#include "model/linux/mm.h"
#include "model/linux/pagemap.h"
#include "model/linux/writeback.h"
#include "model/world.h"
#include "sim/clock.h"

/**
 * km_truncate_cleanup_folio - unmap a folio and cancel its dirtiness.
 * Kernel: mm/truncate.c, v6.18.
 * Context: folio locked.
 */
static void km_truncate_cleanup_folio(struct km_folio *folio)
{
	km_unmap_mapping_folio(folio);
	km_folio_cancel_dirty(folio);
}

/**
 * km_truncate_inode_folio - remove one locked folio.
 * Kernel: mm/truncate.c, v6.18.
 * Return: 0, or -EIO if it already left the mapping.
 */
static int km_truncate_inode_folio(struct km_address_space *mapping,
				   struct km_folio *folio)
{
	if (!sim_word_read(&folio->mapping) || folio->owner != mapping)
		return -KM_EIO;
	km_truncate_cleanup_folio(folio);
	km_filemap_remove_folio(folio);
	return 0;
}

/*
 * truncate_inode_partial_folio: zero [start, end] inside a folio that the
 * range covers only in part; a folio wholly inside is removed.
 * Kernel: mm/truncate.c truncate_inode_partial_folio, v6.18: after the
 * zeroing a folio larger than the mapping's minimum is split, and when
 * the split fails a clean folio is removed whole (a dirty one is kept).
 * Divergences: the model has no folio split: it is taken as failed, so a
 * clean large folio is removed whole (v6.18's try_folio_split fails while
 * the folio has a reference beyond the page cache's, as a folio in a
 * per-CPU LRU batch has; the running v6.18 kernel dropped the pages
 * outside the range in every such punch the oracle saw: class X,
 * docs/model/fidelity.md).  A truncate's split at the new EOF
 * (truncate_setsize -> truncate_pagecache) succeeds on the running
 * kernel, clean or dirty, and the pages past EOF go (__folio_split
 * trims them): the model keeps a dirty folio whole and removes a clean
 * one whole there too (class AE, a documented divergence: the model's
 * folio cannot be divided).  No folio_invalidate (iomap's does nothing
 * for part of a folio).
 */
static void truncate_inode_partial_folio(struct km_folio *folio, loff_t start,
					 loff_t end)
{
	loff_t pos = km_folio_pos(folio);
	size_t size = km_folio_size(folio);
	size_t offset, length;

	offset = start > pos ? (size_t)(start - pos) : 0;
	length = end < pos + (loff_t)size - 1 ? (size_t)(end - pos) + 1 - offset :
		 size - offset;
	km_folio_wait_writeback(folio);
	if (offset == 0 && length == size) {
		km_truncate_inode_folio(folio->owner, folio);
		return;
	}
	m_folio_zero(folio, offset, length);
	if (km_folio_nr_pages(folio) <=
	    (1UL << km_mapping_min_folio_order(folio->owner)))
		return;
	/* split_folio failed (not modelled): a clean folio goes whole. */
	if (sim_bit_test(&folio->flags, PG_dirty))
		return;
	km_truncate_inode_folio(folio->owner, folio);
}

static bool folio_in_range(struct km_folio *folio, pgoff_t start, pgoff_t end)
{
	return folio->index >= start &&
	       folio->index + km_folio_nr_pages(folio) - 1 <= end;
}

/**
 * km_truncate_inode_pages_range - drop the page cache over a byte range.
 * Kernel: mm/truncate.c, v6.18.
 * Context: i_rwsem held exclusive; the truncate and punch callers hold
 * the mapping's invalidate_lock exclusive too (XFS's and ext4's setattr,
 * xfs_flush_unmap_range, the block device's zeroing ioctls), so no
 * fault, readahead or read creates a folio behind the first pass; a
 * failed write's iomap_write_failed and eviction hold only i_rwsem, as
 * in v6.18.
 */
void km_truncate_inode_pages_range(struct km_address_space *mapping,
				   loff_t lstart, loff_t lend)
{
	pgoff_t start = (pgoff_t)((lstart + (loff_t)PAGE_SIZE - 1) >>
				  PAGE_SHIFT);
	pgoff_t end, last = m_file_pages_max - 1;
	struct km_folio_or_err r;
	struct km_folio *folio;
	bool same_folio;

	if (lend >= 0)
		last = (pgoff_t)lend >> PAGE_SHIFT;
	end = lend < 0 ? m_file_pages_max : (pgoff_t)((lend + 1) >> PAGE_SHIFT);
	if (!sim_word_read(&mapping->nrpages))
		return;

	/* Pass 1: folios wholly inside, trylocked, not under writeback. */
	for (pgoff_t i = start; i < end && i < m_file_pages_max; i++) {
		folio = m_folio_lookup(mapping, i);
		if (!folio || folio->index != i ||
		    !folio_in_range(folio, start, end - 1))
			continue;
		/* find_lock_entries: folio_try_get, then folio_trylock. */
		km_folio_get(folio);
		if (!km_folio_trylock(folio)) {
			km_folio_put(folio);
			continue;
		}
		if (!m_broken(M_BREAK_TRUNCATE_NO_WAIT) &&
		    sim_bit_test(&folio->flags, PG_writeback)) {
			km_folio_unlock(folio);
			km_folio_put(folio);
			continue;
		}
		km_truncate_inode_folio(mapping, folio);
		km_folio_unlock(folio);
		km_folio_put(folio);	/* folio_batch_release */
	}

	/*
	 * The partial folio at the start, then at the end, each looked up
	 * by __filemap_get_folio(FGP_LOCK): locked, looked up again if it
	 * was truncated meanwhile, and, a lookup without FGP_DONTCACHE,
	 * no longer dropbehind (class AA of docs/model/fidelity.md).  A
	 * folio that is not partial is left to pass 2.
	 */
	same_folio = lend >= 0 &&
		     ((pgoff_t)lstart >> PAGE_SHIFT) == (pgoff_t)lend >> PAGE_SHIFT;
	r.err = -KM_ENOENT;	/* past the model's pages: not cached */
	if (((pgoff_t)lstart >> PAGE_SHIFT) < m_file_pages_max)
		r = km___filemap_get_folio(mapping,
					   (pgoff_t)lstart >> PAGE_SHIFT,
					   FGP_LOCK);
	if (!r.err) {
		folio = r.folio;
		same_folio = lend < 0 || lend < km_folio_pos(folio) +
					   (loff_t)km_folio_size(folio);
		/* Partial at its start, or (same_folio) at the range's
		 * end: the kernel hands the start folio to
		 * truncate_inode_partial_folio whatever its position, and
		 * does not look the end up again when it is this folio. */
		if (km_folio_pos(folio) < lstart ||
		    (lend >= 0 && km_folio_pos(folio) +
		     (loff_t)km_folio_size(folio) - 1 > lend))
			truncate_inode_partial_folio(folio, lstart,
				lend < 0 ?
				(loff_t)(m_file_pages_max * PAGE_SIZE) :
				lend);
		km_folio_unlock(folio);
		km_folio_put(folio);
	}
	if (lend >= 0 && !same_folio && last < m_file_pages_max) {
		r = km___filemap_get_folio(mapping, last, FGP_LOCK);
		if (!r.err) {
			folio = r.folio;
			if (km_folio_pos(folio) >= lstart &&
			    km_folio_pos(folio) + (loff_t)km_folio_size(folio)
			    - 1 > lend)
				truncate_inode_partial_folio(folio, lstart,
							     lend);
			km_folio_unlock(folio);
			km_folio_put(folio);
		}
	}

	/* Pass 2: everything left inside, waiting as needed. */
	for (pgoff_t i = start; i < end && i < m_file_pages_max; i++) {
		folio = m_folio_lookup(mapping, i);
		if (!folio || folio->index != i ||
		    !folio_in_range(folio, start, end - 1))
			continue;
		km_folio_get(folio);
		km_folio_lock(folio);
		if (!m_broken(M_BREAK_TRUNCATE_NO_WAIT))
			km_folio_wait_writeback(folio);
		km_truncate_inode_folio(mapping, folio);
		km_folio_unlock(folio);
		km_folio_put(folio);
	}
}

/**
 * km_pagecache_isize_extended - i_size grew from @from to @to: make the
 * next store into the folio straddling the old EOF fault, so that
 * ->page_mkwrite reserves the blocks past it, and zero that folio's
 * post-EOF part if it is dirty.
 * Kernel: mm/truncate.c pagecache_isize_extended, v6.18 (from
 * truncate_setsize, issue 30 item 4; and from iomap_write_iter when a
 * write starts past the old EOF).
 * Context: i_rwsem held; takes the folio lock.
 * Divergences: folio_zero_segment of a partial sector zeroes from the
 * next sector boundary (the content model is per sector: the sector
 * holding @from keeps its data).
 */
void km_pagecache_isize_extended(struct km_inode *inode, loff_t from,
				 loff_t to)
{
	loff_t bsize = (loff_t)1 << inode->i_blkbits;
	loff_t rounded_from;
	struct km_folio_or_err r;
	struct km_folio *folio;

	if (from >= to || bsize >= (loff_t)PAGE_SIZE)
		return;
	/* Page straddling @from will not have any hole block created? */
	rounded_from = (from + bsize - 1) & ~(bsize - 1);
	if (to <= rounded_from || !(rounded_from & (PAGE_SIZE - 1)))
		return;
	/* filemap_lock_folio: not cached, nothing to do. */
	r = km___filemap_get_folio(km_inode_mapping(inode),
				   (pgoff_t)(from >> PAGE_SHIFT), FGP_LOCK);
	if (r.err)
		return;
	folio = r.folio;
	if (km_folio_mkclean(folio))
		km_folio_mark_dirty(folio);
	if (sim_bit_test(&folio->flags, PG_dirty)) {
		loff_t fpos = km_folio_pos(folio);
		loff_t size = (loff_t)km_folio_size(folio);
		loff_t offset = (from - fpos + (loff_t)SECTOR_SIZE - 1) &
				~((loff_t)SECTOR_SIZE - 1);
		loff_t end = to - fpos < size ? to - fpos : size;

		if (end > offset)
			m_folio_zero(folio, (size_t)offset,
				     (size_t)(end - offset));
	}
	km_folio_unlock(folio);
	km_folio_put(folio);
}

/**
 * km_truncate_pagecache - unmap and drop the page cache past @newsize.
 * Kernel: mm/truncate.c, v6.18.
 */
void km_truncate_pagecache(struct km_inode *inode, loff_t newsize)
{
	km_truncate_inode_pages_range(km_inode_mapping(inode), newsize, -1);
}

/**
 * km_truncate_pagecache_range - the same over [lstart, lend].
 * Kernel: mm/truncate.c, v6.18.
 */
void km_truncate_pagecache_range(struct km_inode *inode, loff_t lstart,
				 loff_t lend)
{
	km_truncate_inode_pages_range(km_inode_mapping(inode), lstart, lend);
}

/**
 * km_invalidate_inode_pages2_range - drop the clean folios of a range,
 * waiting for writeback; a dirty one stays.
 * Kernel: mm/truncate.c invalidate_inode_pages2_range, v6.18.
 * Context: may sleep: the folio lock, the writeback wait.
 * Return: 0, or -EBUSY when a folio could not be dropped (dirty, or
 * refused by ->release_folio).
 * Divergences: folios are found one index at a time, where the kernel
 * fills a batch with find_get_entries; a mapped folio is unmapped alone by
 * folio_unmap_invalidate under its lock (the kernel first zaps the rest
 * of the range in one unmap_mapping_pages, before the folio lock); no
 * shadow or DAX entries.
 */
int km_invalidate_inode_pages2_range(struct km_address_space *mapping,
				     pgoff_t start, pgoff_t end)
{
	pgoff_t extent;
	int ret = 0, ret2;

	if (!sim_word_read(&mapping->nrpages))	/* mapping_empty */
		return 0;
	extent = (pgoff_t)sim_word_read(&mapping->xa_extent);
	for (pgoff_t i = start; i <= end && i < extent; i++) {
		struct km_folio *folio = m_folio_lookup(mapping, i);

		/* find_get_entries returns every folio that overlaps the
		 * range, a large one that starts before @start too (class
		 * V, docs/model/fidelity.md). */
		if (!folio || (folio->index != i &&
			       !(i == start && folio->index < start)))
			continue;
		km_folio_get(folio);
		km_folio_lock(folio);
		if (!sim_word_read(&folio->mapping) ||
		    folio->owner != mapping) {
			km_folio_unlock(folio);
			km_folio_put(folio);
			continue;
		}
		km_folio_wait_writeback(folio);
		ret2 = km_folio_unmap_invalidate(mapping, folio);
		if (ret2 < 0)
			ret = ret2;
		km_folio_unlock(folio);
		km_folio_put(folio);
	}
	return ret;
}

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
	m_cost_folio_drop();
	return 1;
failed:
	sim_spin_unlock(&mapping->xa_lock);
	sim_spin_unlock(&mapping->host->i_lock);
	return -KM_EBUSY;
}

/**
 * km_mapping_evict_folio - remove a clean, unused folio from the cache.
 * Kernel: mm/truncate.c mapping_evict_folio, v6.18, with mm/vmscan.c
 * remove_mapping.
 * Context: folio locked; the caller holds a reference; takes i_lock and
 * xa_lock.
 * Return: the pages removed (0: kept).
 * Divergences: "unused" is the model's: not mapped (mapcount; the
 * model's PTE holds no reference) and no reference beyond the page
 * cache's and the caller's; remove_mapping's refcount freeze is a
 * re-read of the refcount under i_lock and xa_lock (more than the page
 * cache's and the caller's: kept), then the PG_dirty re-test (a dirtier
 * without the folio lock either dirtied it before the section, and it
 * stays, or finds folio->mapping NULL after it); the count is not frozen,
 * so a lookup racing after the re-read takes a reference to a folio
 * being removed where the kernel's folio_try_get would fail; the
 * page cache's reference is dropped as filemap_free_folio does, and the
 * memory is not freed (km_folio_put).
 */
long km_mapping_evict_folio(struct km_address_space *mapping,
			    struct km_folio *folio)
{
	unsigned long nr = km_folio_nr_pages(folio);

	/* The page may have been truncated before it was locked. */
	if (!mapping)
		return 0;
	if (sim_bit_test(&folio->flags, PG_dirty) ||
	    sim_bit_test(&folio->flags, PG_writeback))
		return 0;
	/* The refcount is raised if the folio is mapped (the model: its
	 * mapcount) or held by anyone but the page cache and the caller. */
	if (sim_word_read(&folio->mapcount) ||
	    sim_word_read(&folio->refcount) > 2)
		return 0;
	if (!km_filemap_release_folio(folio))
		return 0;
	sim_spin_lock(&mapping->host->i_lock);
	sim_spin_lock(&mapping->xa_lock);
	/* __remove_mapping: the refcount freeze (a reference taken since
	 * the test above fails it), then PG_dirty. */
	if (sim_word_read(&folio->refcount) > 2 ||
	    sim_bit_test(&folio->flags, PG_dirty)) {
		sim_spin_unlock(&mapping->xa_lock);
		sim_spin_unlock(&mapping->host->i_lock);
		return 0;
	}
	km___filemap_remove_folio(folio);
	sim_spin_unlock(&mapping->xa_lock);
	sim_spin_unlock(&mapping->host->i_lock);
	km_filemap_free_folio(mapping, folio);
	m_cost_folio_drop();
	return (long)nr;
}

/**
 * km_mapping_try_invalidate - evict every clean, unlocked, unmapped
 * folio of [@start, @end] (page indexes, inclusive) that is not under
 * writeback.
 * Kernel: mm/truncate.c mapping_try_invalidate, v6.18, with
 * find_lock_entries (mm/filemap.c): a folio is skipped, not waited for,
 * when its lock is taken, when it left the mapping or when it is under
 * writeback; one that mapping_evict_folio keeps counts in @nr_failed.
 * Context: process context; never sleeps (trylock only).
 * Return: the pages evicted.
 * Divergences: folios are found one index at a time (the kernel fills
 * a batch); no shadow entries, no LRU deactivation of the kept folios
 * (deactivate_file_folio), no cond_resched.
 */
unsigned long km_mapping_try_invalidate(struct km_address_space *mapping,
					pgoff_t start, pgoff_t end,
					unsigned long *nr_failed)
{
	unsigned long count = 0;
	pgoff_t extent;

	if (!sim_word_read(&mapping->nrpages))
		return 0;
	extent = (pgoff_t)sim_word_read(&mapping->xa_extent);
	for (pgoff_t i = start; i <= end && i < extent; i++) {
		struct km_folio *folio = m_folio_lookup_get(mapping, i);
		long ret;

		if (!folio)
			continue;
		/* find_lock_entries: only folios wholly in the range. */
		if (folio->index < start ||
		    folio->index + km_folio_nr_pages(folio) - 1 > end) {
			km_folio_put(folio);
			continue;
		}
		if (!km_folio_trylock(folio)) {
			km_folio_put(folio);
			continue;
		}
		if (!sim_word_read(&folio->mapping) ||
		    folio->owner != mapping ||
		    sim_bit_test(&folio->flags, PG_writeback)) {
			km_folio_unlock(folio);
			km_folio_put(folio);
			continue;
		}
		ret = km_mapping_evict_folio(mapping, folio);
		km_folio_unlock(folio);
		if (!ret && nr_failed)
			(*nr_failed)++;
		count += (unsigned long)ret;
		km_folio_put(folio);
		i = folio->index + km_folio_nr_pages(folio) - 1;
	}
	return count;
}
