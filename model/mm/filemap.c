// SPDX-License-Identifier: MIT
/*
 * model/mm/filemap.c - the page cache: folio lock and waits, lookup and
 * insertion, removal, writeback completion, fdatawrite/fdatawait, the
 * fsync error report, and folio content copies.
 *
 * Models mm/filemap.c of v6.18 (../shared/reference/kernel-mm.md §2.5,
 * §2.6, §5, §6): folio_lock/__folio_lock/folio_unlock, folio_wait_bit,
 * __filemap_get_folio, filemap_add_folio, filemap_remove_folio,
 * folio_end_writeback, mapping_set_error, filemap_fdatawrite_wbc,
 * __filemap_fdatawait_range, file_check_and_advance_wb_err,
 * file_write_and_wait_range.
 *
 * Leaves out: RCU lookups (a lookup reads the slot as one point), folio
 * splitting, readahead, LRU and workingset, shadow entries, memcg
 * charging, PG_reclaim rotation, large-folio allocation fallbacks (a
 * mapping's folios all have one order), the hashed folio wait table (each
 * folio has its own queue) and exclusive lock hand-off in folio_unlock
 * (waiters wake and retry the bit).
 */
#include <string.h>

#include "model/linux/pagemap.h"
#include "model/lockdep.h"
#include "model/linux/writeback.h"
#include "model/world.h"
#include "sim/clock.h"

/* ---- xarray marks and slots (lib/xarray.c semantics) ------------------- */

bool m_xa_get_mark(struct km_address_space *mapping, pgoff_t index, int tag)
{
	if (index >= M_FILE_PAGES_MAX)
		return false;
	return (sim_word_read(&mapping->i_pages[index].marks) >> tag) & 1;
}

void m_xa_set_mark(struct km_address_space *mapping, pgoff_t index, int tag)
{
	SIM_ASSERT(sim_spin_held_by_me(&mapping->xa_lock) || !sim_in_task());
	sim_bit_set(&mapping->i_pages[index].marks, (unsigned int)tag);
}

void m_xa_clear_mark(struct km_address_space *mapping, pgoff_t index, int tag)
{
	SIM_ASSERT(sim_spin_held_by_me(&mapping->xa_lock) || !sim_in_task());
	sim_bit_clear(&mapping->i_pages[index].marks, (unsigned int)tag);
}

/**
 * km_mapping_tagged - does any entry carry @tag?
 * Kernel: include/linux/pagemap.h (xa_marked), v6.18.
 * Divergences: the kernel reads one root bit; the model scans the slots
 * without a scheduling point per slot (a hint, as in the kernel).
 */
bool km_mapping_tagged(struct km_address_space *mapping, int tag)
{
	for (pgoff_t i = 0; i < M_FILE_PAGES_MAX; i++)
		if ((sim_word_peek(&mapping->i_pages[i].marks) >> tag) & 1)
			return true;
	return false;
}

struct km_folio *m_folio_by_id(uint32_t id)
{
	struct m_world *w = m_world();

	if (id == 0 || id > w->nr_folios)
		return NULL;
	return w->folios[id];
}

/* Read the slot of @index: the folio there, or NULL (one point). */
struct km_folio *m_folio_lookup(struct km_address_space *mapping,
				pgoff_t index)
{
	if (index >= M_FILE_PAGES_MAX)
		return NULL;
	return m_folio_by_id((uint32_t)sim_word_read(
				&mapping->i_pages[index].entry));
}

/* ---- content ------------------------------------------------------------ */

void m_folio_copy_in(struct km_folio *folio, size_t offset, size_t len,
		     uint32_t data_id)
{
	sim_word_add(&folio->data_version, 1);
	for (size_t s = offset >> SECTOR_SHIFT;
	     s < (offset + len + SECTOR_SIZE - 1) >> SECTOR_SHIFT; s++)
		folio->data[s] = data_id;
}

void m_folio_zero(struct km_folio *folio, size_t offset, size_t len)
{
	sim_cpu_zero(len);
	m_folio_copy_in(folio, offset, len, 0);
}

void m_folio_copy_out(struct km_folio *folio, size_t offset, size_t len,
		      uint32_t *out)
{
	size_t first = offset >> SECTOR_SHIFT;

	sim_word_read(&folio->data_version);
	for (size_t s = first;
	     s < (offset + len + SECTOR_SIZE - 1) >> SECTOR_SHIFT; s++)
		out[s - first] = folio->data[s];
}

/* ---- folio lock and waits ----------------------------------------------- */

/**
 * km_folio_wait_bit - sleep until @bit_nr of the folio's flags is clear.
 * Kernel: mm/filemap.c folio_wait_bit -> folio_wait_bit_common, v6.18.
 * Context: may sleep.
 * Divergences: PG_waiters is the queue's occupancy, not a flag bit.
 */
void km_folio_wait_bit(struct km_folio *folio, int bit_nr)
{
	sim_bit_wait(&folio->flags, (unsigned int)bit_nr, &folio->waitq);
}

void km_folio_wait_locked(struct km_folio *folio)
{
	km_folio_wait_bit(folio, PG_locked);
}

/**
 * km_folio_trylock - take the folio lock if it is free.
 * Kernel: include/linux/pagemap.h, v6.18.
 */
bool km_folio_trylock(struct km_folio *folio)
{
	return !sim_bit_test_and_set(&folio->flags, PG_locked);
}

/**
 * km_folio_lock - take the folio lock, sleeping while another holds it.
 * Kernel: include/linux/pagemap.h folio_lock, mm/filemap.c __folio_lock,
 * v6.18.
 * Context: may sleep.
 * Divergences: the kernel hands the lock to an exclusive waiter in
 * folio_unlock; the model wakes the waiters and they retry the bit.
 */
void km_folio_lock(struct km_folio *folio)
{
	while (sim_bit_test_and_set(&folio->flags, PG_locked))
		km_folio_wait_bit(folio, PG_locked);
}

/**
 * km_folio_unlock - release the folio lock and wake its waiters.
 * Kernel: mm/filemap.c, v6.18.
 */
void km_folio_unlock(struct km_folio *folio)
{
	SIM_ASSERT_MSG(m_folio_flag_peek(folio, PG_locked),
		       "folio %u: unlock of an unlocked folio", folio->id);
	sim_bit_clear_and_wake(&folio->flags, PG_locked, &folio->waitq);
}

void km_folio_get(struct km_folio *folio)
{
	sim_word_add(&folio->refcount, 1);
}

void km_folio_put(struct km_folio *folio)
{
	int64_t ref = sim_word_add(&folio->refcount, -1);

	SIM_ASSERT_MSG(ref >= 0, "folio %u: refcount underflow", folio->id);
}

/* ---- insertion and lookup ----------------------------------------------- */

/**
 * km_filemap_alloc_folio - allocate a folio (not yet in the page cache).
 * Kernel: mm/filemap.c filemap_alloc_folio, v6.18.
 * Divergences: never fails; the folio is the model's, with an id.
 */
struct km_folio *km_filemap_alloc_folio(struct km_address_space *mapping,
					pgoff_t index, unsigned int order)
{
	struct m_world *w = m_world();
	struct km_folio *folio;
	uint32_t id;

	if (w->nr_folios == M_FOLIOS_MAX)
		sim_fail(SIM_FAIL_BOUND, "more than %d folios", M_FOLIOS_MAX);
	id = ++w->nr_folios;
	sim_cpu_folio_alloc();
	folio = sim_arena_alloc(sizeof(*folio));
	folio->id = id;
	folio->owner = mapping;
	folio->index = index & ~((1UL << order) - 1);
	folio->order = order;
	sim_word_init(&folio->flags, 0, "folio%u.flags", id);
	sim_waitq_init(&folio->waitq, "folio%u.wait", id);
	sim_word_init(&folio->mapping, 0, "folio%u.mapping", id);
	sim_word_init(&folio->refcount, 1, "folio%u.refcount", id);
	sim_word_init(&folio->mapcount, 0, "folio%u.mapcount", id);
	sim_word_init(&folio->pte, 0, "folio%u.pte", id);
	sim_spin_init(&folio->ifs_lock, "folio%u.ifs_lock", id);
	sim_word_init(&folio->ifs, 0, "folio%u.ifs", id);
	sim_word_init(&folio->ifs_attached, 0, "folio%u.private", id);
	sim_word_init(&folio->data_version, 0, "folio%u.data", id);
	sim_word_init(&folio->dontcache_counted, 0, "folio%u.dc_counted", id);
	sim_word_init(&folio->dontcache_written, 0, "folio%u.dc_written", id);
	folio->data = sim_arena_alloc(SECTORS_PER_PAGE * sizeof(uint32_t) <<
				      order);
	m_lockdep_folio_rules(folio, mapping);
	w->folios[id] = folio;
	return folio;
}

/**
 * km_filemap_add_folio - insert a locked folio into the page cache.
 * Kernel: mm/filemap.c filemap_add_folio -> __filemap_add_folio, v6.18.
 * Context: folio locked by the caller; takes xa_lock.
 * Return: 0, or -EEXIST if another folio got there first.
 */
int km_filemap_add_folio(struct km_address_space *mapping,
			 struct km_folio *folio, pgoff_t index)
{
	unsigned long nr = km_folio_nr_pages(folio);

	(void)index;
	/* __filemap_add_folio: VM_BUG_ON_FOLIO(!folio_test_locked). */
	m_assert_folio_locked(folio);
	sim_spin_lock(&mapping->xa_lock);
	for (unsigned long i = 0; i < nr; i++) {
		if (sim_word_read(&mapping->i_pages[folio->index + i].entry)) {
			sim_spin_unlock(&mapping->xa_lock);
			return -KM_EEXIST;
		}
	}
	for (unsigned long i = 0; i < nr; i++)
		sim_word_write(&mapping->i_pages[folio->index + i].entry,
			       folio->id);
	if (sim_word_read(&mapping->xa_extent) < folio->index + nr)
		sim_word_write(&mapping->xa_extent, folio->index + nr);
	sim_word_write(&folio->mapping, 1);
	km_folio_get(folio);	/* the page cache's reference */
	sim_word_add_nr(&mapping->nrpages, (int64_t)nr);
	sim_word_add_nr(&m_world()->node.stat[NR_FILE_PAGES], (int64_t)nr);
	sim_spin_unlock(&mapping->xa_lock);
	return 0;
}

/*
 * A lookup without FGP_DONTCACHE "adopts" a dropbehind folio: it stays
 * cached.  6.18: test, then clear.  7.3 (v7.2 form, Jeff Layton's v7
 * 2/3) and the seed 003 variants: one atomic test-and-clear, and a dirty
 * folio leaves WB_DONTCACHE_DIRTY (v11/v12: only if it was counted,
 * seed 003 1/7 moves this into a helper, 2/7 adds the condition).
 */
static void filemap_adopt_dropbehind(struct km_folio *folio)
{
	if (m_world()->dontcache == M_DC_6_18) {
		if (sim_bit_test(&folio->flags, PG_dropbehind))
			sim_bit_clear(&folio->flags, PG_dropbehind);
		return;
	}
	if (sim_bit_test_and_clear(&folio->flags, PG_dropbehind) &&
	    sim_bit_test(&folio->flags, PG_dirty))
		m_dontcache_unaccount(folio, (long)km_folio_nr_pages(folio));
}

/**
 * km___filemap_get_folio - find, and with FGP_CREAT create, a folio.
 * Kernel: mm/filemap.c, v6.18.
 * Context: may sleep unless FGP_NOWAIT.
 * Return: .folio with a reference (locked with FGP_LOCK, a new folio
 * unlocked with FGP_FOR_MMAP), or .err = -ENOENT (not cached, no
 * FGP_CREAT) or -EAGAIN (FGP_NOWAIT would block).
 *
 * Order as the kernel: lookup, lock and truncation check, FGP_STABLE
 * wait; or create (FGP_DONTCACHE: dropbehind; FGP_FOR_MMAP: unlocked);
 * last, a lookup without FGP_DONTCACHE clears dropbehind.
 * Divergences: no FGP_ACCESSED aging; a new folio's order is the
 * mapping's; allocation never fails (no -ENOMEM, so no NOWAIT -EAGAIN
 * for it); the dropbehind clear is the dontcache variant's adopt step,
 * at the 6.18 position in every variant (7.x text not read).  An index
 * beyond the model's M_FILE_PAGES_MAX pages is a bound failure, not a
 * return value (the kernel has no such limit).
 */
struct km_folio_or_err km___filemap_get_folio(struct km_address_space *mapping,
					      pgoff_t index,
					      unsigned int fgp_flags)
{
	struct km_folio_or_err r = { NULL, 0, false };
	struct km_folio *folio;

	if (index >= M_FILE_PAGES_MAX)
		sim_fail(SIM_FAIL_BOUND, "page index %lu: the model has %d "
			 "pages per file", (unsigned long)index,
			 M_FILE_PAGES_MAX);
repeat:
	folio = m_folio_lookup(mapping, index);
	if (folio) {
		km_folio_get(folio);
		if (fgp_flags & FGP_LOCK) {
			if (fgp_flags & FGP_NOWAIT) {
				if (!km_folio_trylock(folio)) {
					km_folio_put(folio);
					r.err = -KM_EAGAIN;
					return r;
				}
			} else {
				km_folio_lock(folio);
			}
			/* Has the folio been truncated? */
			if (!sim_word_read(&folio->mapping)) {
				km_folio_unlock(folio);
				km_folio_put(folio);
				goto repeat;
			}
		}
		if (fgp_flags & FGP_STABLE)
			km_folio_wait_stable(folio);
	} else {
		if (!(fgp_flags & FGP_CREAT)) {
			r.err = -KM_ENOENT;
			return r;
		}
		/* The kernel WARNs and locks anyway. */
		if (!(fgp_flags & (FGP_LOCK | FGP_FOR_MMAP)))
			fgp_flags |= FGP_LOCK;
		folio = km_filemap_alloc_folio(mapping, index,
					       mapping->folio_order);
		/* A new folio is locked before it becomes visible. */
		folio->flags.value |= 1ULL << PG_locked;
		if (fgp_flags & FGP_DONTCACHE)
			folio->flags.value |= 1ULL << PG_dropbehind;
		if (km_filemap_add_folio(mapping, folio, index) ==
		    -KM_EEXIST) {
			/* filemap_add_folio: __folio_clear_locked on failure
			 * (the folio was never visible: no point). */
			folio->flags.value &= ~(1ULL << PG_locked);
			sim_word_write(&folio->refcount, 0);
			goto repeat;
		}
		/* filemap_add_folio locks it; mmap expects it unlocked. */
		if (fgp_flags & FGP_FOR_MMAP)
			km_folio_unlock(folio);
		r.created = true;
	}
	/* Not an uncached lookup: clear dropbehind if set. */
	if (!(fgp_flags & FGP_DONTCACHE))
		filemap_adopt_dropbehind(folio);
	r.folio = folio;
	return r;
}

/**
 * km___filemap_remove_folio - delete a folio from the page cache.
 * Kernel: mm/filemap.c __filemap_remove_folio -> filemap_unaccount_folio,
 * page_cache_delete, v6.18.
 * Context: folio locked, not under writeback (the callers check it);
 * i_lock and xa_lock held.
 * Divergences: a still-dirty folio is accounted cleaned, as
 * filemap_unaccount_folio does after its WARN (the model flags nothing);
 * no shadow entries.
 */
void km___filemap_remove_folio(struct km_folio *folio)
{
	struct km_address_space *mapping = folio->owner;
	unsigned long nr = km_folio_nr_pages(folio);

	/* "The caller must hold the i_pages lock"; page_cache_delete:
	 * VM_BUG_ON_FOLIO(!folio_test_locked) (mm/filemap.c). */
	sim_assert_held(&mapping->xa_lock);
	m_assert_folio_locked(folio);
	if (sim_bit_test(&folio->flags, PG_dirty))
		km_folio_account_cleaned(folio, mapping->host->wb);
	for (unsigned long i = 0; i < nr; i++) {
		sim_word_write(&mapping->i_pages[folio->index + i].entry, 0);
		sim_word_write(&mapping->i_pages[folio->index + i].marks, 0);
	}
	sim_word_write(&folio->mapping, 0);
	sim_word_add_nr(&mapping->nrpages, -(int64_t)nr);
	sim_word_add_nr(&m_world()->node.stat[NR_FILE_PAGES], -(int64_t)nr);
}

/**
 * km_filemap_free_folio - drop the page cache's reference to a removed
 * folio.
 * Kernel: mm/filemap.c filemap_free_folio, v6.18.
 * Divergences: no ->free_folio (XFS has none); the page cache holds one
 * reference whatever the folio's order.
 */
void km_filemap_free_folio(struct km_address_space *mapping,
			   struct km_folio *folio)
{
	(void)mapping;
	km_folio_put(folio);
}

/**
 * km_filemap_release_folio - ask the filesystem to free a folio's private
 * data before it leaves the page cache.
 * Kernel: mm/filemap.c filemap_release_folio, v6.18.
 * Context: folio locked.
 * Return: true if the folio has no private data (left).
 * Divergences: folio_needs_release is "iomap per-block state attached"
 * (no buffer heads, no AS_RELEASE_ALWAYS).
 */
bool km_filemap_release_folio(struct km_folio *folio)
{
	struct km_address_space *mapping =
		sim_word_read(&folio->mapping) ? folio->owner : NULL;

	if (!sim_word_read(&folio->ifs_attached))	/* folio_needs_release */
		return true;
	if (sim_bit_test(&folio->flags, PG_writeback))
		return false;
	if (mapping && mapping->a_ops->release_folio)
		return mapping->a_ops->release_folio(folio);
	return true;
}

/**
 * km_filemap_remove_folio - delete a locked folio from the page cache.
 * Kernel: mm/filemap.c filemap_remove_folio, v6.18.
 * Context: folio locked, not under writeback; takes i_lock then xa_lock.
 * Divergences: no inode LRU (mapping_shrinkable, inode_add_lru).
 */
void km_filemap_remove_folio(struct km_folio *folio)
{
	struct km_address_space *mapping = folio->owner;

	SIM_ASSERT_MSG(!sim_bit_test(&folio->flags, PG_writeback),
		       "folio %u removed from the page cache under writeback",
		       folio->id);
	sim_spin_lock(&mapping->host->i_lock);
	sim_spin_lock(&mapping->xa_lock);
	km___filemap_remove_folio(folio);
	sim_spin_unlock(&mapping->xa_lock);
	sim_spin_unlock(&mapping->host->i_lock);
	km_filemap_free_folio(mapping, folio);
}

/* ---- writeback completion ----------------------------------------------- */

/**
 * km_folio_end_writeback - end writeback of a folio.
 * Kernel: mm/filemap.c, v6.18 (folio_end_writeback_no_dropbehind then
 * folio_end_dropbehind, the 2026 split).
 * Context: process or completion (event) context.
 * Divergences: no PG_reclaim rotation, no reclaim throttling hook.  A
 * writer throttled by the model's dirty limit is woken here: the
 * stand-in for the end of the pause it would sleep in v6.18
 * (balance_dirty_pages: io_schedule_timeout, no completion wakes it).
 * The model has one completion context; v6.18 XFS ends writeback in IRQ
 * context or in the xfs_end_io kworker (docs/model/writeback-completion.md).
 */
void km_folio_end_writeback(struct km_folio *folio)
{
	struct km_bdi_writeback *wb = folio->owner->host->wb;

	SIM_ASSERT_MSG(m_folio_flag_peek(folio, PG_writeback),
		       "folio %u: end_writeback without PG_writeback",
		       folio->id);
	km_folio_get(folio);
	if (km___folio_end_writeback(folio))
		sim_waitq_wake_up(&folio->waitq);
	if (sim_waitq_active_also(&wb->throttle_wait))
		sim_waitq_wake_up(&wb->throttle_wait);
	km_folio_end_dropbehind(folio);
	km_folio_put(folio);
}

/* ---- errors and the fsync family ---------------------------------------- */

/**
 * km_mapping_set_error - record a writeback error on the mapping.
 * Kernel: include/linux/pagemap.h, v6.18 (errseq; AS_EIO/AS_ENOSPC for
 * the legacy filemap_check_errors).
 */
void km_mapping_set_error(struct km_address_space *mapping, int error)
{
	if (!error)
		return;
	km_errseq_set(&mapping->wb_err, error);
	if (error == -KM_ENOSPC)
		sim_bit_set(&mapping->flags, AS_ENOSPC);
	else
		sim_bit_set(&mapping->flags, AS_EIO);
}

/**
 * km_filemap_fdatawrite_wbc - start writeback of a mapping.
 * Kernel: mm/filemap.c, v6.18.
 * Return: 0 or the writepages error.
 */
int km_filemap_fdatawrite_wbc(struct km_address_space *mapping,
			      struct km_writeback_control *wbc)
{
	if (!km_mapping_tagged(mapping, PAGECACHE_TAG_DIRTY))
		return 0;
	return km_do_writepages(mapping, wbc);
}

int km_filemap_fdatawrite_range(struct km_address_space *mapping, loff_t start,
				loff_t end)
{
	struct km_writeback_control wbc = {
		.sync_mode = WB_SYNC_ALL,
		.nr_to_write = 1L << 30,
		.range_start = start,
		.range_end = end,
	};

	return km_filemap_fdatawrite_wbc(mapping, &wbc);
}

/**
 * km___filemap_fdatawait_range - wait for writeback in a byte range.
 * Kernel: mm/filemap.c, v6.18.
 */
void km___filemap_fdatawait_range(struct km_address_space *mapping,
				  loff_t start, loff_t end)
{
	pgoff_t index = (pgoff_t)start >> PAGE_SHIFT;
	pgoff_t last = end < 0 ? M_FILE_PAGES_MAX - 1 :
		       (pgoff_t)end >> PAGE_SHIFT;
	pgoff_t extent = sim_word_read(&mapping->xa_extent);

	while (index <= last && index < extent) {
		struct km_folio *folio;

		if (!m_xa_get_mark(mapping, index, PAGECACHE_TAG_WRITEBACK)) {
			index++;
			continue;
		}
		folio = m_folio_lookup(mapping, index);
		if (!folio) {
			index++;
			continue;
		}
		km_folio_get(folio);
		km_folio_wait_writeback(folio);
		index = folio->index + km_folio_nr_pages(folio);
		km_folio_put(folio);
	}
}

/**
 * km_file_check_and_advance_wb_err - report a writeback error once per
 * file description.
 * Kernel: mm/filemap.c, v6.18.
 * Context: takes file->f_lock when the error changed.
 * Return: 0 or the error not yet seen through this file.
 *
 * The lockless errseq_check against this file's sample handles the
 * common case; when it differs, the sample is read again and advanced
 * under f_lock, so of two tasks that fsync one file description after
 * one error exactly one gets it.
 */
int km_file_check_and_advance_wb_err(struct km_file *file)
{
	struct km_address_space *mapping = km_inode_mapping(file->f_inode);
	uint64_t old = sim_word_read(&file->f_wb_err);
	int err = 0;

	/* Locklessly handle the common case where nothing has changed. */
	if (km_errseq_check(&mapping->wb_err, old)) {
		sim_spin_lock(&file->f_lock);
		err = km_errseq_check_and_advance(&mapping->wb_err,
						  &file->f_wb_err);
		sim_spin_unlock(&file->f_lock);
	}
	/* Clear the legacy AS_* bits as well (filemap_check_errors). */
	sim_bit_clear(&mapping->flags, AS_EIO);
	sim_bit_clear(&mapping->flags, AS_ENOSPC);
	return err;
}

/**
 * km_file_write_and_wait_range - write back a range and wait, then report
 * the file's unseen writeback error.
 * Kernel: mm/filemap.c, v6.18.
 * Return: 0 or -errno.
 */
int km_file_write_and_wait_range(struct km_file *file, loff_t lstart,
				 loff_t lend)
{
	struct km_address_space *mapping = km_inode_mapping(file->f_inode);
	int err = 0, err2;

	if (lend < lstart)
		return 0;
	err = km_filemap_fdatawrite_range(mapping, lstart, lend);
	/* See comment of filemap_write_and_wait(): -EIO still waits. */
	if (err != -KM_EIO)
		km___filemap_fdatawait_range(mapping, lstart, lend);
	err2 = km_file_check_and_advance_wb_err(file);
	if (!err)
		err = err2;
	return err;
}
