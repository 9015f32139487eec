// SPDX-License-Identifier: MIT
/*
 * model/mm/filemap.c - the page cache: folio lock and waits, lookup and
 * insertion, removal, writeback completion, fdatawrite/fdatawait, the
 * fsync error report, and folio content copies.
 *
 * Models mm/filemap.c of v6.18 (../shared/reference/kernel-mm.md §2.5,
 * §2.6, §5, §6): folio_lock/__folio_lock/folio_unlock, folio_wait_bit,
 * folio_get/folio_put (include/linux/mm.h), __filemap_get_folio,
 * filemap_add_folio, filemap_remove_folio, folio_end_writeback,
 * mapping_set_error, filemap_fdatawrite_wbc, __filemap_fdatawait_range,
 * file_check_and_advance_wb_err, file_write_and_wait_range, filemap_read
 * (the buffered read), kiocb_write_and_wait and
 * filemap_range_needs_writeback (before a direct read),
 * page_cache_prev_miss and page_cache_next_miss (readahead's history,
 * model/mm/readahead.c), mapping_seek_hole_data (iomap's delalloc
 * release, model/fs/iomap/buffered-io.c), filemap_get_folios_tag,
 * filemap_end_dropbehind, folio_end_dropbehind, filemap_flush_range and
 * the seed 003 dropbehind functions (folio_mark_dropbehind, the partial
 * folios of 5/7 and 6/7) at the end of the file.
 *
 * Leaves out: RCU lookups (a lookup reads the slot as one point), folio
 * splitting, readahead in filemap_read for a file whose ra_pages is 0
 * (exploration: a miss creates and reads its folio, the I/O of
 * read_ahead_kb=0; with ra_pages, wpsim fio, filemap_get_pages runs
 * page_cache_sync_ra and page_cache_async_ra, model/mm/readahead.c),
 * the read batch (one folio per lookup), LRU and workingset, shadow entries, memcg
 * charging, PG_reclaim rotation, large folios for readahead and reads
 * (page_cache_ra_order: a read's new folios have the mapping's minimum
 * order; only __filemap_get_folio with an order asked, the buffered
 * write, makes larger ones, on a mapping that allows them), a
 * large-folio allocation failing for want of memory, the hashed folio wait table (each
 * folio has its own queue) and exclusive lock hand-off in folio_unlock
 * (waiters wake and retry the bit).
 */
#include <string.h>

#include "model/linux/pagemap.h"
#include "model/linux/readahead.h"
#include "model/linux/preempt.h"
#include "model/lockdep.h"
#include "model/linux/writeback.h"
#include "model/world.h"
#include "sim/clock.h"

/**
 * km_mapping_tagged - does any entry carry @tag?
 * Kernel: include/linux/pagemap.h mapping_tagged (xa_marked), v6.18.
 * Divergences: the kernel reads one root mark bit (one load); the model
 * has no root marks, so it makes one scheduling point (the read of the
 * slot extent) and records the slots' marks in that step
 * (sim_word_read_also), so that a mark set or cleared by another task is
 * a conflict DPOR sees.  Before issue 17 the slots were peeked: the
 * answer decided fsync's early return unseen by DPOR, which then never
 * ran a writer's tagging before it (a write then fsync on another
 * thread: DFS found the bio, DPOR did not).  A long timed run answers
 * from its index of marks (no exploration there).
 */
bool km_mapping_tagged(struct km_address_space *mapping, int tag)
{
	pgoff_t extent = (pgoff_t)sim_word_read(&mapping->xa_extent);

	if (mapping->marks_indexed)
		return m_xa_marks_index_next(mapping, 0, tag) <
		       m_file_pages_max;
	for (pgoff_t i = 0; i < extent && i < m_file_pages_max; i++)
		if ((m_xa_marks_also(mapping, i) >> tag) & 1)
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
	if (index >= m_file_pages_max)
		return NULL;
	return m_folio_by_id((uint32_t)m_xa_load_entry(mapping, index));
}

/* ---- content ------------------------------------------------------------ */

/*
 * Stable pages (a model check, not kernel code): on a mapping with
 * AS_STABLE_WRITES (mapping_stable_writes, include/linux/pagemap.h
 * v6.18) nobody changes a folio's data while PG_writeback is set; every
 * writer waits first (folio_wait_stable in write_begin and page_mkwrite,
 * folio_wait_writeback in truncate_inode_partial_folio), so the device
 * (a checksum, a RAID parity) sees the data the bio was built from.  The
 * flags are peeked: the check adds no scheduling point.
 */
static void check_stable_pages(struct km_folio *folio, size_t offset)
{
	struct km_address_space *mapping = folio->owner;

	SIM_CHECK(!mapping ||
		  !((sim_word_peek(&mapping->flags) >> AS_STABLE_WRITES) & 1) ||
		  !m_folio_flag_peek(folio, PG_writeback),
		  "stable pages: folio %u (index %lu) changed at byte %zu "
		  "under writeback on a mapping with AS_STABLE_WRITES",
		  folio->id, (unsigned long)folio->index, offset);
}

/* Sectors in @folio, and the bytes of its array of ids (not through
 * km_folio_size: a function record of a witness lists km_ calls). */
static size_t folio_sectors(const struct km_folio *folio)
{
	return (PAGE_SIZE << folio->order) >> SECTOR_SHIFT;
}

static size_t folio_ids_bytes(const struct km_folio *folio)
{
	return folio_sectors(folio) * sizeof(uint32_t);
}

/* The folio's one id again (its array, if any, given back). */
static void folio_content_one(struct km_folio *folio, uint32_t id)
{
	if (!M_FOLIO_IS_ONE(folio->content) && folio->content)
		sim_arena_free((void *)folio->content, folio_ids_bytes(folio));
	folio->content = M_FOLIO_ONE(id);
}

uint32_t *m_folio_ids(struct km_folio *folio)
{
	uint32_t *ids;
	uint32_t id;

	if (!M_FOLIO_IS_ONE(folio->content))
		return (uint32_t *)folio->content;
	id = (uint32_t)(folio->content >> 1);
	ids = sim_arena_alloc(folio_ids_bytes(folio));
	for (size_t s = 0; s < folio_sectors(folio); s++)
		ids[s] = id;
	folio->content = (uintptr_t)ids;
	return ids;
}

/*
 * A folio keeps one id while a write covers it whole or writes the id it
 * holds; an array from the first write of part of it with another id
 * (until a write covers it whole again).
 */
void m_folio_fill(struct km_folio *folio, size_t first, size_t n,
		  uint32_t id)
{
	uint32_t *ids;

	if (!n)
		return;
	if ((first == 0 && n >= folio_sectors(folio)) ||
	    (M_FOLIO_IS_ONE(folio->content) &&
	     (uint32_t)(folio->content >> 1) == id)) {
		folio_content_one(folio, id);
		return;
	}
	ids = m_folio_ids(folio);
	for (size_t s = first; s < first + n; s++)
		ids[s] = id;
}

void m_folio_ids_out(const struct km_folio *folio, size_t first, size_t n,
		     uint32_t *out)
{
	for (size_t s = 0; s < n; s++)
		out[s] = m_folio_sector(folio, first + s);
}

void m_folio_copy_in(struct km_folio *folio, size_t offset, size_t len,
		     uint32_t data_id)
{
	size_t first = offset >> SECTOR_SHIFT;

	check_stable_pages(folio, offset);
	sim_word_add(&folio->data_version, 1);
	m_folio_fill(folio, first,
		     ((offset + len + SECTOR_SIZE - 1) >> SECTOR_SHIFT) - first,
		     data_id);
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
	m_folio_ids_out(folio, first,
			((offset + len + SECTOR_SIZE - 1) >> SECTOR_SHIFT) -
			first, out);
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

/**
 * km_folio_wait_locked - wait until the folio is unlocked.
 * Kernel: include/linux/pagemap.h folio_wait_locked, v6.18.
 * Context: sleeps; not with the folio lock held.
 */
void km_folio_wait_locked(struct km_folio *folio)
{
	km_folio_wait_bit(folio, PG_locked);
}

/*
 * A folio is locked only by a task that holds a reference to it: the
 * lock bit lives in the struct folio, which the last folio_put frees
 * (and the allocator gives out again).  Every v6.18 caller takes its
 * reference first (filemap_get_entry's folio_try_get, find_lock_entries,
 * the page cache's own reference for a new folio); a lock taken after
 * the last put is a use after free, which the kernel leaves to KASAN.
 * The model's check: the count is above 0 once the lock is held (a peek,
 * no scheduling point).  Reclaim's locked folio frozen at 0
 * (km___remove_mapping) was locked before the freeze.
 */
static void folio_lock_check_reference(struct km_folio *folio)
{
	SIM_ASSERT_MSG(sim_word_peek(&folio->refcount) > 0,
		       "folio %u: locked with no reference held (its last "
		       "reference was dropped: a use after free)", folio->id);
}

/**
 * km_folio_trylock - take the folio lock if it is free.
 * Kernel: include/linux/pagemap.h, v6.18.
 * Divergences: checks that the taker holds a reference (above).
 */
bool km_folio_trylock(struct km_folio *folio)
{
	if (sim_bit_test_and_set(&folio->flags, PG_locked))
		return false;
	folio_lock_check_reference(folio);
	return true;
}

/**
 * km_folio_lock - take the folio lock, sleeping while another holds it.
 * Kernel: include/linux/pagemap.h folio_lock, mm/filemap.c __folio_lock,
 * v6.18.
 * Context: may sleep.
 * Divergences: the kernel hands the lock to an exclusive waiter in
 * folio_unlock; the model wakes the waiters and they retry the bit;
 * checks that the taker holds a reference (folio_lock_check_reference).
 */
void km_folio_lock(struct km_folio *folio)
{
	/* The same test-and-set, marked as a bit lock's take. */
	while (!sim_bitlock_take(&folio->flags, PG_locked))
		km_folio_wait_bit(folio, PG_locked);
	folio_lock_check_reference(folio);
}

/**
 * km_folio_unlock - release the folio lock and wake its waiters.
 * Kernel: mm/filemap.c, v6.18.
 * Divergences: also checks that a reference is still held (refcount
 * above 0): unlocking a folio after its last folio_put is a use after
 * free, which the kernel leaves to KASAN.
 */
void km_folio_unlock(struct km_folio *folio)
{
	SIM_ASSERT_MSG(m_folio_flag_peek(folio, PG_locked),
		       "folio %u: unlock of an unlocked folio", folio->id);
	SIM_ASSERT_MSG(sim_word_peek(&folio->refcount) > 0,
		       "folio %u: unlocked after its last reference was "
		       "dropped (a use after free)", folio->id);
	/* The same clear and wake, marked as the bit lock's release
	 * (sim/shared.h). */
	sim_bitlock_release(&folio->flags, PG_locked, &folio->waitq);
}

/**
 * km_folio_get - take a reference to a folio.
 * Kernel: include/linux/mm.h folio_get -> folio_ref_inc ->
 * page_ref_inc (atomic_inc, no result), v6.18.
 * Divergences: no VM_BUG_ON on a zero or overflowing count.  The add is
 * sim_word_add_nr: two tasks' gets and puts commute, so DPOR runs one
 * order of them (docs/architecture.md, "Reference counts").
 */
void km_folio_get(struct km_folio *folio)
{
	sim_word_add_nr(&folio->refcount, 1);
}

/**
 * km_folio_put - drop a reference to a folio.
 * Kernel: include/linux/mm.h folio_put -> folio_put_testzero ->
 * page_ref_dec_and_test, then __folio_put on zero, v6.18.
 * Divergences: in an exploration nothing is freed at zero (a folio is
 * freed only by reclaim's freeze, model/mm/vmscan.c, whose cmpxchg and
 * reads of the count stay ordered with every get and put); the kernel's
 * result only decides that free, so the model's decrement is an add with
 * no result (sim_word_add_nr), which commutes with other tasks' gets and
 * puts.  In a long run (timed: wpsim fio, replay) the last put frees the
 * folio as __folio_put does (m_folio_free: its id and struct kept for the
 * next allocation), so a folio truncated or invalidated out of the cache
 * (fadvise DONTNEED, truncate, punch) gives its memory back; the count
 * after the decrement is read without a point (the timed schedule has one
 * order, and a folio out of the cache at zero has no other holder).
 * The underflow check reads the count after the decrement in the order
 * run (a check, no point of its own); an imbalance also fails
 * invariant 12 at the end of every execution (model/world.c), in every
 * order.
 */
void km_folio_put(struct km_folio *folio)
{
	int64_t ref;

	sim_word_add_nr(&folio->refcount, -1);
	ref = (int64_t)sim_word_peek(&folio->refcount);
	SIM_ASSERT_MSG(ref >= 0, "folio %u: refcount underflow", folio->id);
	if (ref == 0 && m_world()->long_run) {
		/* The page cache holds a reference: at zero the folio is out
		 * of it (and off the LRU: km___filemap_remove_folio). */
		SIM_ASSERT_MSG(!sim_word_peek(&folio->mapping),
			       "folio %u: last reference dropped while in the "
			       "page cache", folio->id);
		m_folio_free(folio);
	}
}

/*
 * A table by folio id twice as large (at least 64 entries, at most
 * m_folios_max() + 1): memory follows the folios made, not the bound.
 */
static void m_grow_ids(void **table, uint32_t *cap, size_t size)
{
	uint32_t next = *cap ? 2 * *cap : 64;
	void *bigger;

	if (next > m_folios_max() + 1)
		next = (uint32_t)m_folios_max() + 1;
	bigger = sim_arena_alloc(next * size);
	if (*table) {
		memcpy(bigger, *table, *cap * size);
		sim_arena_free(*table, *cap * size);
	}
	*table = bigger;
	*cap = next;
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

	if (w->nr_free_ids) {
		/* Reclaim freed it: the id and the struct again (folios are
		 * type-stable, as struct page is; lookups re-check). */
		id = w->free_ids[--w->nr_free_ids];
		folio = w->folios[id];
		memset(folio, 0, sizeof(*folio));
		m_cost_folio_alloc();
		goto init;
	}
	if (w->nr_folios == m_folios_max())
		sim_fail(SIM_FAIL_BOUND, "more than %lu folios in one "
			 "execution (twice --max-pages, at least %d; raise "
			 "--max-pages)", m_folios_max(), M_FOLIOS_MIN);
	id = ++w->nr_folios;
	if (id >= w->folios_cap)
		m_grow_ids((void **)&w->folios, &w->folios_cap,
			   sizeof(*w->folios));
	m_cost_folio_alloc();
	folio = sim_arena_alloc(sizeof(*folio));
init:
	folio->id = id;
	folio->owner = mapping;
	folio->index = index & ~((1UL << order) - 1);
	folio->order = order;
	if (w->long_run) {
		/* A long run: each word one more instance of its kind's
		 * object (model/world.h, m_folio_objects). */
		const struct m_folio_objects *o = &w->folio_objects;

		sim_word_init_as(&folio->flags, 0, o->flags);
		sim_waitq_init_as(&folio->waitq, o->waitq);
		sim_word_init_as(&folio->mapping, 0, o->mapping);
		sim_word_init_as(&folio->refcount, 1, o->refcount);
		sim_word_init_as(&folio->mapcount, 0, o->mapcount);
		sim_word_init_as(&folio->pte, 0, o->pte);
		sim_word_init_as(&folio->ifs_lock.word, 0, o->ifs_lock);
		sim_word_init_as(&folio->ifs, 0, o->ifs);
		sim_word_init_as(&folio->ifs_attached, 0, o->ifs_attached);
		sim_word_init_as(&folio->data_version, 0, o->data_version);
		sim_word_init_as(&folio->dontcache_counted, 0,
				 o->dontcache_counted);
		sim_word_init_as(&folio->dontcache_written, 0,
				 o->dontcache_written);
	} else {
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
		sim_word_init(&folio->dontcache_counted, 0,
			      "folio%u.dc_counted", id);
		sim_word_init(&folio->dontcache_written, 0,
			      "folio%u.dc_written", id);
	}
	folio->flags.tag = M_WORD_TAG_FOLIO_FLAGS;	/* model/world.c */
	folio->content = M_FOLIO_ONE(0);	/* zeroes */
	m_lockdep_folio_rules(folio, mapping);
	w->folios[id] = folio;
	return folio;
}

/*
 * A folio reclaim took out of the page cache (refcount frozen at 0), or
 * whose last reference was dropped out of it (km_folio_put), is freed:
 * its content's memory given back, its id and struct kept for the next
 * allocation.  Only in a long run, whose folios' words are instances of
 * the world's folio objects (nothing to retire).
 */
void m_folio_free(struct km_folio *folio)
{
	struct m_world *w = m_world();

	if (folio->waitq.more)
		sim_arena_free(folio->waitq.more, folio->waitq.more_cap *
			       sizeof(*folio->waitq.more));
	folio_content_one(folio, 0);
	if (w->nr_free_ids == w->free_ids_cap)
		m_grow_ids((void **)&w->free_ids, &w->free_ids_cap,
			   sizeof(*w->free_ids));
	w->free_ids[w->nr_free_ids++] = folio->id;
}

/**
 * m_folio_lookup_get - the folio at @index with a reference, or NULL.
 * The lookup and folio_try_get of filemap_get_entry (mm/filemap.c,
 * v6.18): without a page-cache limit no folio is ever freed, so a read of
 * the slot and a get (two points, as the model always had); with one,
 * a get that finds the count frozen, or a slot that no longer holds the
 * folio after the get, starts over (the kernel's xas_reload check).
 * Divergence: after a failed get the model waits for xa_lock, which the
 * freezer holds, before it looks again; the kernel retries at once.
 */
struct km_folio *m_folio_lookup_get(struct km_address_space *mapping,
				    pgoff_t index)
{
	struct km_folio *folio;

	if (!m_world()->mem_pages) {
		folio = m_folio_lookup(mapping, index);
		if (folio)
			km_folio_get(folio);
		return folio;
	}
	for (;;) {
		folio = m_folio_lookup(mapping, index);
		if (!folio)
			return NULL;
		if (!m_folio_try_get(folio)) {
			/* Frozen: reclaim holds xa_lock until it unfreezes
			 * or removes the folio.  Wait for it there rather
			 * than retry at once (a retry loop that a schedule
			 * could run forever). */
			sim_spin_lock(&mapping->xa_lock);
			sim_spin_unlock(&mapping->xa_lock);
			continue;
		}
		if (m_folio_lookup(mapping, index) == folio)
			return folio;
		km_folio_put(folio);
	}
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
		if (m_xa_load_entry(mapping, folio->index + i)) {
			sim_spin_unlock(&mapping->xa_lock);
			return -KM_EEXIST;
		}
	}
	for (unsigned long i = 0; i < nr; i++)
		m_xa_store_entry(mapping, folio->index + i, folio->id);
	if (sim_word_read(&mapping->xa_extent) < folio->index + nr)
		sim_word_write(&mapping->xa_extent, folio->index + nr);
	sim_word_write(&folio->mapping, 1);
	km_folio_get(folio);	/* the page cache's reference */
	m_lru_add(folio);	/* folio_add_lru (none without a limit) */
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
 * seed 003 1/7 moves this into a helper, 2/7 adds the condition).  In
 * 7.3 the subtraction follows the test-and-clear that found the flag
 * set: it does not test the flag again (m_dontcache_unaccount's 7.3
 * rule, "PG_dropbehind set now", would find it just cleared and take
 * nothing off: issue 30 item 7).
 */
static void filemap_adopt_dropbehind(struct km_folio *folio)
{
	long nr = (long)km_folio_nr_pages(folio);

	if (m_world()->dontcache == M_DC_6_18) {
		if (sim_bit_test(&folio->flags, PG_dropbehind))
			sim_bit_clear(&folio->flags, PG_dropbehind);
		return;
	}
	if (sim_bit_test_and_clear(&folio->flags, PG_dropbehind) &&
	    sim_bit_test(&folio->flags, PG_dirty)) {
		if (m_world()->dontcache >= M_DC_V11)
			m_dontcache_unaccount(folio, nr);
		else
			m_dontcache_sub(folio, nr);
	}
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
 * A new folio has the order FGF_GET_ORDER(@fgp_flags) asks (the
 * write's size, iomap_get_folio's fgf_set_order), within the mapping's
 * minimum and maximum, made smaller when @index is not aligned to it,
 * and one order smaller after each -EEXIST (a range partly cached), to
 * the minimum; a mapping without large folios (every scenario) has one
 * order and makes one try.  The kernel aligns @index itself (to the
 * minimum order) before the allocation, so its look again after -EEXIST
 * reads the aligned slot; the model keeps the caller's @index for that
 * lookup (the same folio either way; the slot read is what every
 * scenario's exploration has always seen).
 * Divergences: no FGP_ACCESSED aging; allocation never fails (no
 * -ENOMEM, so no NOWAIT -EAGAIN for it, and no fallback to a smaller
 * order for want of memory: only a partly cached range makes one); the
 * dropbehind clear is the dontcache variant's adopt step,
 * at the 6.18 position in every variant (7.x text not read).  An index
 * beyond the model's m_file_pages_max pages (--max-pages) is a bound
 * failure, not a return value (the kernel has no such limit).
 */
struct km_folio_or_err km___filemap_get_folio(struct km_address_space *mapping,
					      pgoff_t index,
					      unsigned int fgp_flags)
{
	struct km_folio_or_err r = { NULL, 0, false };
	struct km_folio *folio;

	if (index >= m_file_pages_max)
		sim_fail(SIM_FAIL_BOUND, "page index %lu: the model has %lu "
			 "pages per file (raise --max-pages)",
			 (unsigned long)index, m_file_pages_max);
repeat:
	folio = m_folio_lookup_get(mapping, index);
	if (folio) {
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
			/* VM_BUG_ON_FOLIO(!folio_contains(folio, index)):
			 * the order read directly (no km_ call: the
			 * witness pages list every km_ call a step makes). */
			SIM_ASSERT_MSG(folio->index <= index &&
				       index < folio->index +
					       (1UL << folio->order),
				       "folio %u (index %lu, order %u) looked "
				       "up at index %lu", folio->id,
				       (unsigned long)folio->index,
				       (unsigned int)folio->order,
				       (unsigned long)index);
		}
		if (fgp_flags & FGP_STABLE)
			km_folio_wait_stable(folio);
	} else {
		unsigned int min_order = km_mapping_min_folio_order(mapping);
		unsigned int order = FGF_GET_ORDER(fgp_flags);
		pgoff_t start = km_mapping_align_index(mapping, index);
		int err;

		if (!(fgp_flags & FGP_CREAT)) {
			r.err = -KM_ENOENT;
			return r;
		}
		if (order < min_order)
			order = min_order;
		/* The kernel WARNs and locks anyway. */
		if (!(fgp_flags & (FGP_LOCK | FGP_FOR_MMAP)))
			fgp_flags |= FGP_LOCK;
		if (order > km_mapping_max_folio_order(mapping))
			order = km_mapping_max_folio_order(mapping);
		/* If we're not aligned, allocate a smaller folio. */
		if (start & ((1UL << order) - 1))
			order = (unsigned int)__builtin_ctzl(start);
		/*
		 * Largest first; a range partly cached (-EEXIST from
		 * filemap_add_folio) tries the next order down, to the
		 * mapping's minimum, and only then looks again.
		 */
		do {
			/* Direct reclaim at a page-cache limit (none:
			 * no-op). */
			m_reclaim_for(1UL << order);
			folio = km_filemap_alloc_folio(mapping, start, order);
			/* A new folio is locked before it becomes visible. */
			folio->flags.value |= 1ULL << PG_locked;
			if (fgp_flags & FGP_DONTCACHE)
				folio->flags.value |= 1ULL << PG_dropbehind;
			err = km_filemap_add_folio(mapping, folio, start);
			if (!err)
				break;
			/* filemap_add_folio: __folio_clear_locked on failure
			 * (the folio was never visible: no point); then
			 * folio_put. */
			folio->flags.value &= ~(1ULL << PG_locked);
			sim_word_write(&folio->refcount, 0);
			/* The last put frees it in a long run, as
			 * km_folio_put does (with a page-cache limit
			 * too). */
			if (m_world()->long_run || m_world()->mem_pages)
				m_folio_free(folio);
			folio = NULL;
		} while (order-- > min_order);
		if (err == -KM_EEXIST)
			goto repeat;
		/* filemap_add_folio locks it; mmap expects it unlocked. */
		if (fgp_flags & FGP_FOR_MMAP)
			km_folio_unlock(folio);
		r.created = true;
	}
	/* Not an uncached lookup: clear dropbehind if set (never for
	 * filemap_read's own lookups, M_FGP_READ). */
	if (!(fgp_flags & (FGP_DONTCACHE | M_FGP_READ)))
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
 * Divergences: filemap_unaccount_folio's WARN_ON_ONCE of a dirty folio
 * is a failure (the accounting after it stays, unreached); no shadow
 * entries.
 */
void km___filemap_remove_folio(struct km_folio *folio)
{
	struct km_address_space *mapping = folio->owner;
	unsigned long nr = km_folio_nr_pages(folio);

	/* "The caller must hold the i_pages lock"; page_cache_delete:
	 * VM_BUG_ON_FOLIO(!folio_test_locked) (mm/filemap.c). */
	sim_assert_held(&mapping->xa_lock);
	m_assert_folio_locked(folio);
	/* filemap_unaccount_folio: VM_BUG_ON_FOLIO(folio_mapped(folio)),
	 * "still mapped when deleted": every caller unmaps it first
	 * (truncate_cleanup_folio, folio_unmap_invalidate) or keeps a
	 * mapped folio (mapping_evict_folio, shrink_folio_list). */
	SIM_ASSERT_MSG(!sim_word_peek(&folio->mapcount),
		       "folio %u still mapped when deleted from the page "
		       "cache", folio->id);
	/* filemap_unaccount_folio: WARN_ON_ONCE(folio_test_dirty(folio) &&
	 * mapping_can_writeback(mapping)), "Dirty folio here signals a bug
	 * and loss of unwritten data": every caller cleans it first
	 * (truncate_cleanup_folio's folio_cancel_dirty) or re-tests
	 * PG_dirty under xa_lock (__remove_mapping, folio_unmap_invalidate).
	 * The model's mappings all write back: a failure. */
	SIM_ASSERT_MSG(!m_folio_flag_peek(folio, PG_dirty),
		       "folio %u deleted from the page cache dirty (its data "
		       "is lost)", folio->id);
	if (sim_bit_test(&folio->flags, PG_dirty))
		km_folio_account_cleaned(folio, mapping->host->wb);
	for (unsigned long i = 0; i < nr; i++) {
		m_xa_store_entry(mapping, folio->index + i, 0);
		m_xa_store_marks(mapping, folio->index + i, 0);
	}
	sim_word_write(&folio->mapping, 0);
	m_lru_del(folio);
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

	/* BUG_ON(!folio_test_locked(folio)) (mm/filemap.c, v6.18) */
	m_assert_folio_locked(folio);
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
 * Context as the caller's: v6.18 XFS ends writeback in hardirq context
 * or in the xfs_end_io kworker (model/fs/xfs/xfs_aops.c,
 * docs/model/writeback-completion.md).
 */
void km_folio_end_writeback(struct km_folio *folio)
{
	struct km_bdi_writeback *wb = folio->owner->host->wb;

	SIM_ASSERT_MSG(m_folio_flag_peek(folio, PG_writeback),
		       "folio %u: end_writeback without PG_writeback",
		       folio->id);
	km_folio_get(folio);
	/* The tag, the counters and the wake-up beyond the model's steps
	 * (profiles/cpu/default.cpu). */
	m_cost_writeback_end();
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

/**
 * km___filemap_fdatawrite_range - start writeback of a byte range in
 * @sync_mode.
 * Kernel: mm/filemap.c __filemap_fdatawrite_range, v6.18.
 * Context: process context; may sleep (WB_SYNC_NONE: only on the folio
 * locks writeback_iter takes).
 * Return: 0 or the writepages error.
 * Divergences: nr_to_write is 2^30 pages, not LONG_MAX (the model's
 * files hold at most 2^28 pages).
 */
int km___filemap_fdatawrite_range(struct km_address_space *mapping,
				  loff_t start, loff_t end, int sync_mode)
{
	struct km_writeback_control wbc = {
		.sync_mode = sync_mode,
		.nr_to_write = 1L << 30,
		.range_start = start,
		.range_end = end,
	};

	return km_filemap_fdatawrite_wbc(mapping, &wbc);
}

/**
 * km_filemap_fdatawrite_range - start writeback of a byte range,
 * WB_SYNC_ALL.
 * Kernel: mm/filemap.c filemap_fdatawrite_range, v6.18.
 * Context: process context; may sleep.
 * Return: 0 or the writepages error.
 */
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
 * Kernel: mm/filemap.c __filemap_fdatawait_range, v6.18.
 * Context: may sleep.
 * Each round takes a batch of up to KM_PAGEVEC_SIZE folios tagged
 * WRITEBACK (km_filemap_get_folios_tag, each with a reference), waits
 * for each, then releases the batch: writeback that starts on a folio of
 * the range the batch's lookup already passed is not waited for.
 * Divergences: an end past the file (@end < 0) stops at the model's
 * m_file_pages_max pages; the batch lives in a writeback_control (the
 * model's folio batch), not a folio_batch.
 */
void km___filemap_fdatawait_range(struct km_address_space *mapping,
				  loff_t start, loff_t end)
{
	pgoff_t index = (pgoff_t)start >> PAGE_SHIFT;
	pgoff_t last = end < 0 ? m_file_pages_max - 1 :
		       (pgoff_t)end >> PAGE_SHIFT;
	struct km_writeback_control batch = { 0 };

	while (index <= last) {
		unsigned int nr = km_filemap_get_folios_tag(
			mapping, &index, last, PAGECACHE_TAG_WRITEBACK,
			&batch);

		if (!nr)
			break;
		for (unsigned int i = 0; i < nr; i++)
			km_folio_wait_writeback(batch.fbatch[i]);
		/* folio_batch_release */
		for (unsigned int i = 0; i < nr; i++)
			km_folio_put(batch.fbatch[i]);
		batch.fbatch_nr = 0;
		sim_preempt_point();	/* cond_resched() */
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
 * km_file_fdatawait_range - wait for writeback in a byte range and report
 * an error not yet seen through @file.
 * Kernel: mm/filemap.c file_fdatawait_range, v6.18.
 * Context: may sleep.
 * Return: 0 or the error (file_check_and_advance_wb_err, which also
 * clears AS_EIO / AS_ENOSPC).
 */
int km_file_fdatawait_range(struct km_file *file, loff_t start_byte,
			    loff_t end_byte)
{
	struct km_address_space *mapping = km_inode_mapping(file->f_inode);

	km___filemap_fdatawait_range(mapping, start_byte, end_byte);
	return km_file_check_and_advance_wb_err(file);
}

static bool mapping_needs_writeback(struct km_address_space *mapping);

/**
 * km_file_write_and_wait_range - write back a range and wait, then report
 * the file's unseen writeback error.
 * Kernel: mm/filemap.c file_write_and_wait_range, v6.18.
 * Context: process context; may sleep (the writeback and the wait).
 * Return: 0 or -errno.
 *
 * As in the kernel, a mapping with no page cached (mapping_needs_writeback:
 * nrpages 0) is neither written nor waited for; the file's errseq is
 * still checked and advanced.  So fsync of a file written only with
 * O_DIRECT reads nrpages once here, not the DIRTY and WRITEBACK marks.
 */
int km_file_write_and_wait_range(struct km_file *file, loff_t lstart,
				 loff_t lend)
{
	struct km_address_space *mapping = km_inode_mapping(file->f_inode);
	int err = 0, err2;

	if (lend < lstart)
		return 0;
	if (mapping_needs_writeback(mapping)) {
		err = km_filemap_fdatawrite_range(mapping, lstart, lend);
		/* See comment of filemap_write_and_wait(): -EIO no wait. */
		if (err != -KM_EIO)
			km___filemap_fdatawait_range(mapping, lstart, lend);
	}
	err2 = km_file_check_and_advance_wb_err(file);
	if (!err)
		err = err2;
	return err;
}

/**
 * km_filemap_check_errors - report and clear the legacy AS_ENOSPC and
 * AS_EIO bits.
 * Kernel: mm/filemap.c filemap_check_errors, v6.18.
 */
int km_filemap_check_errors(struct km_address_space *mapping)
{
	int ret = 0;

	if (sim_bit_test(&mapping->flags, AS_ENOSPC) &&
	    sim_bit_test_and_clear(&mapping->flags, AS_ENOSPC))
		ret = -KM_ENOSPC;
	if (sim_bit_test(&mapping->flags, AS_EIO) &&
	    sim_bit_test_and_clear(&mapping->flags, AS_EIO))
		ret = -KM_EIO;
	return ret;
}

/*
 * mapping_needs_writeback - might writeback be needed or in progress?
 * Kernel: mm/filemap.c mapping_needs_writeback, v6.18 (one plain load
 * of mapping->nrpages; a folio under writeback is still cached).
 */
static bool mapping_needs_writeback(struct km_address_space *mapping)
{
	return sim_word_read(&mapping->nrpages) != 0;
}

/**
 * km_filemap_write_and_wait_range - write back a byte range and wait.
 * Kernel: mm/filemap.c filemap_write_and_wait_range, v6.18.
 * Context: process context; may sleep (the writeback and the wait).
 * Return: 0 or -errno (the writepages error, else the AS_* bits).
 *
 * A mapping with no page cached (mapping_needs_writeback: nrpages 0)
 * is neither written nor waited for; only its AS_* bits are tested.
 * So an O_DIRECT write on a file with nothing cached reads nrpages once
 * here, not the DIRTY and WRITEBACK marks.
 */
int km_filemap_write_and_wait_range(struct km_address_space *mapping,
				    loff_t lstart, loff_t lend)
{
	int err = 0, err2;

	if (lend < lstart)
		return 0;
	if (mapping_needs_writeback(mapping)) {
		err = km_filemap_fdatawrite_range(mapping, lstart, lend);
		/* -EIO may mean the worst happened: no wait then. */
		if (err != -KM_EIO)
			km___filemap_fdatawait_range(mapping, lstart, lend);
	}
	err2 = km_filemap_check_errors(mapping);
	if (!err)
		err = err2;
	return err;
}

/* filemap_range_has_page: is any index of [pos, end] cached? */
static bool filemap_range_has_page(struct km_address_space *mapping,
				   loff_t pos, loff_t end)
{
	for (pgoff_t i = (pgoff_t)pos >> PAGE_SHIFT;
	     i <= (pgoff_t)end >> PAGE_SHIFT && i < m_file_pages_max; i++)
		if (m_folio_lookup(mapping, i))
			return true;
	return false;
}

/**
 * km_filemap_invalidate_pages - before a direct write: write back and
 * drop the cached folios of [pos, end].
 * Kernel: mm/filemap.c filemap_invalidate_pages, v6.18.
 * Return: 0, -EAGAIN (@nowait and a folio is cached), the writeback
 * error, or -EBUSY (a folio could not be dropped).
 */
int km_filemap_invalidate_pages(struct km_address_space *mapping, loff_t pos,
				loff_t end, bool nowait)
{
	int ret;

	if (nowait) {
		if (filemap_range_has_page(mapping, pos, end))
			return -KM_EAGAIN;
	} else {
		ret = km_filemap_write_and_wait_range(mapping, pos, end);
		if (ret)
			return ret;
	}
	return km_invalidate_inode_pages2_range(mapping,
						(pgoff_t)pos >> PAGE_SHIFT,
						(pgoff_t)end >> PAGE_SHIFT);
}

/**
 * km_kiocb_invalidate_pages - the page-cache step before a direct write.
 * Kernel: mm/filemap.c kiocb_invalidate_pages, v6.18.
 */
int km_kiocb_invalidate_pages(struct km_kiocb *iocb, size_t count)
{
	return km_filemap_invalidate_pages(
		km_inode_mapping(iocb->ki_filp->f_inode), iocb->ki_pos,
		iocb->ki_pos + (loff_t)count - 1,
		iocb->ki_flags & IOCB_NOWAIT);
}

/**
 * km_kiocb_invalidate_post_direct_write - after a direct write: drop the
 * folios a racing buffered read (or fault) cached meanwhile.
 * Kernel: mm/filemap.c kiocb_invalidate_post_direct_write, v6.18.
 * Divergences: a failure is silent (the kernel logs
 * dio_warn_stale_pagecache once); the write has succeeded either way.
 */
void km_kiocb_invalidate_post_direct_write(struct km_kiocb *iocb,
					   size_t count)
{
	struct km_address_space *mapping =
		km_inode_mapping(iocb->ki_filp->f_inode);

	if (sim_word_read(&mapping->nrpages))
		km_invalidate_inode_pages2_range(mapping,
			(pgoff_t)iocb->ki_pos >> PAGE_SHIFT,
			(pgoff_t)(iocb->ki_pos + (loff_t)count - 1) >>
			PAGE_SHIFT);
}

/**
 * km_filemap_range_needs_writeback - would a write-and-wait of
 * [@start_byte, @end_byte] have to wait?
 * Kernel: include/linux/pagemap.h filemap_range_needs_writeback (the
 * nrpages and tag tests) -> mm/filemap.c filemap_range_has_writeback,
 * v6.18.
 * Context: no locks (the kernel walks under RCU).
 * Return: true when a folio of the range is dirty, locked or under
 * writeback.
 * Divergences: each slot is one lookup (no RCU retry); the walk stops at
 * the model's file bound.
 */
bool km_filemap_range_needs_writeback(struct km_address_space *mapping,
				      loff_t start_byte, loff_t end_byte)
{
	if (!mapping_needs_writeback(mapping))
		return false;
	if (!km_mapping_tagged(mapping, PAGECACHE_TAG_DIRTY) &&
	    !km_mapping_tagged(mapping, PAGECACHE_TAG_WRITEBACK))
		return false;
	if (end_byte < start_byte)
		return false;
	for (pgoff_t i = (pgoff_t)start_byte >> PAGE_SHIFT;
	     i <= (pgoff_t)end_byte >> PAGE_SHIFT && i < m_file_pages_max;
	     i++) {
		struct km_folio *folio = m_folio_lookup(mapping, i);
		uint64_t flags;

		if (!folio)
			continue;
		flags = sim_word_read(&folio->flags);
		if (flags & ((1ull << PG_dirty) | (1ull << PG_locked) |
			     (1ull << PG_writeback)))
			return true;
	}
	return false;
}

/**
 * km_kiocb_write_and_wait - before a direct read: write back the dirty
 * folios of the range and wait for their writeback.
 * Kernel: mm/filemap.c kiocb_write_and_wait, v6.18.
 * Context: task; may sleep (not under IOCB_NOWAIT).
 * Return: 0, -EAGAIN under IOCB_NOWAIT when the range needs writeback,
 * or the writeback error.
 */
int km_kiocb_write_and_wait(struct km_kiocb *iocb, size_t count)
{
	struct km_address_space *mapping =
		km_inode_mapping(iocb->ki_filp->f_inode);
	loff_t pos = iocb->ki_pos;
	loff_t end = pos + (loff_t)count - 1;

	if (iocb->ki_flags & IOCB_NOWAIT) {
		if (km_filemap_range_needs_writeback(mapping, pos, end))
			return -KM_EAGAIN;
		return 0;
	}
	return km_filemap_write_and_wait_range(mapping, pos, end);
}

/* ---- buffered read ----------------------------------------------------- */

/**
 * km_page_cache_prev_miss - the first index at or below @index, scanning
 * down at most @max_scan slots, without a folio.
 * Kernel: mm/filemap.c page_cache_prev_miss, v6.18.
 * Context: no locks (the kernel scans under RCU); one lookup per slot.
 * Return: that index; the last one scanned if all were present; ULONG_MAX
 * (all ones) when the scan passed index 0 with every page present.
 */
pgoff_t km_page_cache_prev_miss(struct km_address_space *mapping,
				pgoff_t index, unsigned long max_scan)
{
	pgoff_t i = index;
	bool first = true;

	while (max_scan--) {
		if (!first) {
			if (i == 0)
				return (pgoff_t)-1;	/* wrapped: a miss */
			i--;
		}
		first = false;
		if (i >= m_file_pages_max || !m_folio_lookup(mapping, i))
			break;
	}
	return i;
}

/**
 * km_page_cache_next_miss - the first index at or above @index, scanning
 * up at most @max_scan slots, without a folio.
 * Kernel: mm/filemap.c page_cache_next_miss, v6.18.
 * Context: as km_page_cache_prev_miss.
 * Return: that index, or @index + @max_scan when all were present.
 */
pgoff_t km_page_cache_next_miss(struct km_address_space *mapping,
				pgoff_t index, unsigned long max_scan)
{
	for (unsigned long k = 0; k < max_scan; k++) {
		pgoff_t i = index + k;

		if (i >= m_file_pages_max || !m_folio_lookup(mapping, i))
			return i;
	}
	return index + max_scan;
}

/*
 * folio_seek_hole_data: within @folio, from @start (at most @end, the
 * folio's end), the first byte of data (@seek_data) or of a hole.  An
 * uptodate folio is all data; one that is not has its blocks asked one
 * at a time (->is_partially_uptodate, under the folio lock), from the
 * block holding @start.  mm/filemap.c v6.18.
 */
static loff_t folio_seek_hole_data(struct km_address_space *mapping,
				   struct km_folio *folio, loff_t start,
				   loff_t end, bool seek_data)
{
	size_t bsz = (size_t)1 << mapping->host->i_blkbits;
	size_t offset;

	if (sim_bit_test(&folio->flags, PG_uptodate))
		return seek_data ? start : end;
	if (!mapping->a_ops->is_partially_uptodate)
		return seek_data ? end : start;
	km_folio_lock(folio);
	if (!sim_word_read(&folio->mapping))
		goto unlock;		/* truncated meanwhile */
	offset = (size_t)(start - km_folio_pos(folio)) & ~(bsz - 1);
	do {
		if (mapping->a_ops->is_partially_uptodate(folio, offset,
							  bsz) == seek_data)
			break;
		start = (start + (loff_t)bsz) & ~((loff_t)bsz - 1);
		offset += bsz;
	} while (offset < km_folio_size(folio));
unlock:
	km_folio_unlock(folio);
	return start;
}

/**
 * km_mapping_seek_hole_data - the first byte of data (@seek_data) or of
 * a hole in the page cache of @mapping within [@start, @end).
 * Kernel: mm/filemap.c mapping_seek_hole_data, v6.18: data is what is
 * cached and uptodate (a folio, or its uptodate blocks); what is not
 * cached is a hole.
 * Context: takes and drops each folio's reference (find_get_entry), and
 * its lock when it is not uptodate (folio_seek_hole_data); may sleep.
 * Return: the offset found (at most @end); -ENXIO when @end <= @start,
 * or when seeking data and none is there.
 * Divergences: no value (shadow or swap) entries (the model keeps none);
 * one slot read per page index, where the kernel's xas_find walks the
 * xarray under RCU and steps over a large folio's other indices.
 */
loff_t km_mapping_seek_hole_data(struct km_address_space *mapping,
				 loff_t start, loff_t end, bool seek_data)
{
	pgoff_t index = (pgoff_t)(start >> PAGE_SHIFT);
	pgoff_t max = (pgoff_t)((end - 1) >> PAGE_SHIFT);

	if (end <= start)
		return -KM_ENXIO;
	for (; index <= max && index < m_file_pages_max; index++) {
		struct km_folio *folio = m_folio_lookup_get(mapping, index);
		loff_t pos = (loff_t)index << PAGE_SHIFT;
		loff_t folio_end;

		if (!folio)
			continue;
		if (start < pos) {
			if (!seek_data) {
				km_folio_put(folio);
				goto out;
			}
			start = pos;
		}
		/* seek_folio_size: the end of the folio holding @pos. */
		folio_end = km_folio_pos(folio) + (loff_t)km_folio_size(folio);
		start = folio_seek_hole_data(mapping, folio, start, folio_end,
					     seek_data);
		km_folio_put(folio);
		if (start < folio_end)
			goto out;
		if (start >= end)
			break;
		index = (pgoff_t)(folio_end >> PAGE_SHIFT) - 1;
	}
	if (seek_data)
		return -KM_ENXIO;
out:
	return start > end ? end : start;
}


/*
 * The model's AOP_TRUNCATED_PAGE (include/linux/fs.h: a positive value
 * no errno uses): the folio went away or the lock was only waited for,
 * so filemap_get_pages looks again.
 */
#define M_AOP_TRUNCATED_PAGE 0x80001

/*
 * filemap_create_folio: a new locked folio at @index, inserted and read
 * (filemap_read_folio: ->read_folio, which here returns when the read
 * is done and has unlocked the folio).  IOCB_NOWAIT: -EAGAIN.  Another
 * task's folio already at @index: M_AOP_TRUNCATED_PAGE, look again.
 * The insertion and the read under the invalidate_lock shared (against
 * truncate and hole punch, which hold it exclusive).  mm/filemap.c
 * v6.18.
 */
static int filemap_create_folio(struct km_kiocb *iocb,
				struct km_address_space *mapping,
				pgoff_t index, struct km_folio **foliop)
{
	struct km_folio *folio;
	int error;

	if (iocb->ki_flags & IOCB_NOWAIT)
		return -KM_EAGAIN;
	if (index >= m_file_pages_max)
		sim_fail(SIM_FAIL_BOUND, "page index %lu: the model has %lu "
			 "pages per file (raise --max-pages)",
			 (unsigned long)index, m_file_pages_max);
	/* Direct reclaim at a page-cache limit (none: no-op). */
	m_reclaim_for(1UL << mapping->folio_order);
	folio = km_filemap_alloc_folio(mapping, index, mapping->folio_order);
	/* filemap_add_folio takes the new folio's lock before it is seen;
	 * a DONTCACHE read's folio is dropbehind (class AB). */
	folio->flags.value |= 1ULL << PG_locked;
	if (iocb->ki_flags & IOCB_DONTCACHE)
		folio->flags.value |= 1ULL << PG_dropbehind;
	km_down_read(&mapping->invalidate_lock);
	if (km_filemap_add_folio(mapping, folio, index) == -KM_EEXIST) {
		km_up_read(&mapping->invalidate_lock);
		folio->flags.value &= ~(1ULL << PG_locked);
		sim_word_write(&folio->refcount, 0);
		/* folio_put: freed in a long run, as km_folio_put. */
		if (m_world()->long_run || m_world()->mem_pages)
			m_folio_free(folio);
		return M_AOP_TRUNCATED_PAGE;
	}
	error = mapping->a_ops->read_folio(folio);
	km_up_read(&mapping->invalidate_lock);
	if (error) {
		km_folio_put(folio);
		return error;
	}
	*foliop = folio;
	return 0;
}

/*
 * filemap_range_uptodate: can a read of @count bytes at @pos use @folio
 * as it is?  Uptodate, or the blocks the read covers in it uptodate
 * (->is_partially_uptodate, when blocks are smaller than the folio).
 * mm/filemap.c v6.18; the model has no splice, so need_uptodate (a
 * pipe's "whole folio") is always false and left out.
 */
static bool filemap_range_uptodate(struct km_address_space *mapping,
				   loff_t pos, size_t count,
				   struct km_folio *folio)
{
	loff_t folio_pos = (loff_t)folio->index << PAGE_SHIFT;

	if (sim_bit_test(&folio->flags, PG_uptodate))
		return true;
	if (!mapping->a_ops->is_partially_uptodate)
		return false;
	if ((1UL << mapping->host->i_blkbits) >= km_folio_size(folio))
		return false;
	if (folio_pos > pos) {
		count -= (size_t)(folio_pos - pos);
		pos = 0;
	} else {
		pos -= folio_pos;
	}
	return mapping->a_ops->is_partially_uptodate(folio, (size_t)pos,
						     count);
}

/*
 * filemap_update_page: @folio (a reference held) is not uptodate.  First
 * the invalidate_lock shared (IOCB_NOWAIT: a trylock, -EAGAIN when a
 * truncate, punch or zeroing holds it), held to the end.  The folio's
 * lock is trylocked; taken by someone else, IOCB_NOWAIT gives -EAGAIN,
 * else the reader drops the invalidate_lock, waits for the unlock, drops
 * its reference (folio_put_wait_locked: this is where a reader waits for
 * a read in flight) and looks again.  Under the lock: a folio that left the
 * mapping is looked up again; one whose range the read covers is
 * uptodate (filemap_range_uptodate: the folio, or the blocks of @count
 * bytes at ki_pos) is unlocked and used; a NOWAIT read gives -EAGAIN,
 * else ->read_folio.  mm/filemap.c v6.18.
 * Return: 0 (folio uptodate, unlocked), M_AOP_TRUNCATED_PAGE (the
 * reference is dropped) or -errno (the caller drops it).
 * break=nowait_read_no_recheck: a NOWAIT read takes the folio without
 * the re-check under the lock.
 */
static int filemap_update_page(struct km_kiocb *iocb, size_t count,
			       struct km_folio *folio)
{
	struct km_address_space *mapping = folio->owner;
	int error;

	if (iocb->ki_flags & IOCB_NOWAIT) {
		if (!km_down_read_trylock(&mapping->invalidate_lock))
			return -KM_EAGAIN;
	} else {
		km_down_read(&mapping->invalidate_lock);
	}
	if (!km_folio_trylock(folio)) {
		error = -KM_EAGAIN;
		if (iocb->ki_flags & IOCB_NOWAIT)
			goto unlock_mapping;
		km_up_read(&mapping->invalidate_lock);
		km_folio_wait_locked(folio);
		km_folio_put(folio);
		return M_AOP_TRUNCATED_PAGE;
	}
	error = M_AOP_TRUNCATED_PAGE;
	if (!sim_word_read(&folio->mapping))
		goto unlock;
	error = 0;
	if (filemap_range_uptodate(mapping, iocb->ki_pos, count, folio) ||
	    ((iocb->ki_flags & IOCB_NOWAIT) &&
	     m_broken(M_BREAK_NOWAIT_READ_NO_RECHECK)))
		goto unlock;
	error = -KM_EAGAIN;
	if (iocb->ki_flags & IOCB_NOWAIT)
		goto unlock;
	/* filemap_read_folio */
	error = mapping->a_ops->read_folio(folio);
	goto unlock_mapping;
unlock:
	km_folio_unlock(folio);
unlock_mapping:
	km_up_read(&mapping->invalidate_lock);
	if (error == M_AOP_TRUNCATED_PAGE)
		km_folio_put(folio);
	return error;
}

/*
 * filemap_get_pages: the folio at ki_pos, with a reference, uptodate and
 * unlocked; or -EAGAIN (IOCB_NOWAIT) or a read error.  @count is what
 * is left of the read (not clamped to i_size: the kernel's iter count).
 * mm/filemap.c v6.18: the lookup takes no folio lock
 * (filemap_get_read_batch, one folio here); with readahead (ra_pages),
 * or under IOCB_NOWAIT, a miss runs page_cache_sync_ra and looks again
 * (NOWAIT: the read it started is in flight, so the folio's lock is
 * held and filemap_update_page says -EAGAIN, unless the read needed no
 * I/O: holes and unwritten blocks are zeroed at once); still none:
 * filemap_create_folio; with readahead a PG_readahead folio starts the
 * next window (filemap_readahead -> page_cache_async_ra); a folio not
 * uptodate goes to filemap_update_page.
 */
static struct km_folio_or_err filemap_get_pages(struct km_kiocb *iocb,
						size_t count)
{
	struct km_file *filp = iocb->ki_filp;
	struct km_address_space *mapping = km_inode_mapping(filp->f_inode);
	pgoff_t index = (pgoff_t)(iocb->ki_pos >> PAGE_SHIFT);
	/* The index after the read's end (min folio order 0). */
	pgoff_t last_index = (pgoff_t)((iocb->ki_pos + (loff_t)count +
					PAGE_SIZE - 1) >> PAGE_SHIFT);
	struct km_readahead_control ractl = {
		.file = filp, .mapping = mapping, .ra = &filp->f_ra,
		/* bdi->io_pages (blk_apply_bdi_limits): max_sectors in
		 * pages. */
		.io_pages = m_world()->dev.limits.max_sectors >>
			    (PAGE_SHIFT - SECTOR_SHIFT),
		.random = (filp->f_mode & FMODE_RANDOM) != 0,
		/* IOCB_DONTCACHE: ractl.dropbehind (class AB). */
		.dropbehind = (iocb->ki_flags & IOCB_DONTCACHE) != 0,
		.submit = true,
		.read_mark = (unsigned long)-1,
	};
	bool ra = filp->f_ra.ra_pages != 0;
	struct km_folio_or_err r = { 0 };
	struct km_folio *folio;
	int err;

retry:
	folio = m_folio_lookup_get(mapping, index);
	/* A miss runs page_cache_sync_ra (with ra_pages 0 it forces a
	 * one-page read); the model takes that path for a blocking read
	 * only with readahead, and for a NOWAIT one always: there the
	 * read it starts decides the answer (class D). */
	if (!folio && (ra || (iocb->ki_flags & IOCB_NOWAIT))) {
		ractl._index = index;
		km_page_cache_sync_ra(&ractl, last_index - index);
		folio = m_folio_lookup_get(mapping, index);
	}
	if (!folio) {
		err = filemap_create_folio(iocb, mapping, index, &folio);
		if (err == M_AOP_TRUNCATED_PAGE)
			goto retry;
		if (err) {
			r.err = err;
			return r;
		}
		r.folio = folio;
		return r;
	}
	if (ra && sim_bit_test(&folio->flags, PG_readahead)) {
		/* filemap_readahead */
		ractl._index = folio->index;
		km_page_cache_async_ra(&ractl, folio,
				       last_index - folio->index);
	}
	if (!sim_bit_test(&folio->flags, PG_uptodate)) {
		err = filemap_update_page(iocb, count, folio);
		if (err == M_AOP_TRUNCATED_PAGE)
			goto retry;
		if (err) {
			km_folio_put(folio);
			r.err = err;
			return r;
		}
	}
	r.folio = folio;
	return r;
}

/*
 * filemap_end_dropbehind_read: after the copy, a dropbehind folio that is
 * neither under writeback nor dirty is dropped if its lock is free
 * (mm/filemap.c v6.18).
 */
static void filemap_end_dropbehind_read(struct km_folio *folio)
{
	if (!sim_bit_test(&folio->flags, PG_dropbehind))
		return;
	if (sim_bit_test(&folio->flags, PG_writeback) ||
	    sim_bit_test(&folio->flags, PG_dirty))
		return;
	if (km_folio_trylock(folio)) {
		km_filemap_end_dropbehind(folio);
		km_folio_unlock(folio);
	}
}

/**
 * km_filemap_read - buffered read of @count bytes at ki_pos into @out (one
 * write id per sector).
 * Kernel: mm/filemap.c filemap_read, v6.18.
 * Context: no locks; takes a folio's lock only to read it (a cached
 * uptodate folio is copied without its lock, so a read does not wait
 * for writeback, a writer's write_begin..write_end, truncate or
 * page_mkwrite holding it).
 * Return: bytes read, or -errno if nothing was read.
 *
 * Each round: i_size is read (ki_pos at or past it ends the read), the
 * folio at ki_pos is found (filemap_get_pages), then i_size is read
 * again, now that the folio is uptodate, and the copy stops there (a
 * truncate that raced the lookup shortens the read); ki_pos advances
 * with each copy, so an error after some bytes returns those bytes.
 * Divergences: one folio per round (no batch), so the round's
 * cond_resched() (a mark, sim_preempt_point) comes per folio, the
 * kernel's per batch; no s_maxbytes or
 * negative-position checks (the front ends pass valid positions); no
 * folio_mark_accessed or file_accessed (no LRU, no atime).  With
 * ra_pages 0 (exploration) no readahead: a missing folio is created
 * locked and read with read_folio (the I/O of page_cache_sync_ra's
 * forced one-page read, in fewer steps), and ra->prev_pos is left alone
 * (only readahead reads it).  IOCB_NOWAIT: a miss runs
 * page_cache_sync_ra also with ra_pages 0 (its forced one-page read, as
 * the kernel; docs/model/fidelity.md, class D).  filemap_update_page and
 * filemap_create_folio take the invalidate_lock shared, as v6.18's
 * (a cached uptodate folio is copied without it).  A folio that is not
 * uptodate is read from when the blocks the read covers are
 * (filemap_range_uptodate; docs/model/fidelity.md, class C).  The
 * lookups never clear PG_dropbehind (M_FGP_READ: filemap_get_read_batch
 * does not), and each folio ends with filemap_end_dropbehind_read
 * (issue 30 item 8).
 */
long km_filemap_read(struct km_kiocb *iocb, size_t count, uint32_t *out)
{
	struct km_inode *inode = iocb->ki_filp->f_inode;
	struct km_file_ra_state *ra = &iocb->ki_filp->f_ra;
	loff_t last_pos = ra->prev_pos;
	long already_read = 0;
	loff_t isize = 0;
	int error = 0;

	if (!count)
		return 0;
	do {
		struct km_folio_or_err r;
		struct km_folio *folio;
		loff_t end_offset;
		size_t off, n;

		sim_preempt_point();	/* cond_resched() */
		if (iocb->ki_pos >= km_i_size_read(inode))
			break;
		r = filemap_get_pages(iocb, count);
		if (r.err) {
			error = r.err;
			break;
		}
		folio = r.folio;
		/* i_size again, now that the folio is uptodate. */
		isize = km_i_size_read(inode);
		if (iocb->ki_pos >= isize)
			goto put_folio;
		end_offset = iocb->ki_pos + (loff_t)count;
		if (end_offset > isize)
			end_offset = isize;
		off = (size_t)(iocb->ki_pos - km_folio_pos(folio));
		n = km_folio_size(folio) - off;
		if ((loff_t)n > end_offset - iocb->ki_pos)
			n = (size_t)(end_offset - iocb->ki_pos);
		m_folio_copy_out(folio, off, n,
				 out + ((size_t)already_read >> SECTOR_SHIFT));
		already_read += (long)n;
		iocb->ki_pos += (loff_t)n;
		count -= n;
		last_pos = iocb->ki_pos;
put_folio:
		filemap_end_dropbehind_read(folio);
		km_folio_put(folio);
	} while (count && iocb->ki_pos < isize && !error);
	/* ra->prev_pos = last_pos: the file's readahead state, which only
	 * a file with readahead reads (ra_pages 0: left alone). */
	if (ra->ra_pages)
		ra->prev_pos = last_pos;
	return already_read ? already_read : error;
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
unsigned int km_filemap_get_folios_tag(struct km_address_space *mapping,
				       pgoff_t *start, pgoff_t end, int tag,
				       struct km_writeback_control *wbc)
{
	pgoff_t extent = sim_word_read(&mapping->xa_extent);
	pgoff_t i = *start;

	/*
	 * A folio of several pages that covers *@start from an earlier
	 * index: its multi-index entry carries its marks at every index it
	 * covers, so the kernel's walk (xas_find_marked) finds it from the
	 * middle.  The model keeps the marks at the head index: look there
	 * (class V, docs/model/fidelity.md).  Only where a folio can span
	 * pages, so mappings of one-page folios take no further step.
	 */
	if (mapping->max_folio_order > 0 && i <= end && i < extent) {
		struct km_folio *folio = m_folio_lookup_get(mapping, i);

		if (folio && folio->index < i &&
		    m_xa_get_mark(mapping, folio->index, tag)) {
			i = folio->index + km_folio_nr_pages(folio);
			wbc->fbatch[wbc->fbatch_nr++] = folio;
			if (m_sync_tag_dirty())
				*start = i;
		} else if (folio) {
			km_folio_put(folio);
		}
	}

	/* sync_tag=dirty: v2.6.34's pagevec_lookup_tag, which leaves the
	 * index just past the last page found, so the next lookup of the
	 * walk sees pages tagged since. */
	if (m_sync_tag_dirty()) {
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

/* ---- RWF_DONTCACHE: dropbehind ---------------------------------------- */

/*
 * RWF_DONTCACHE: dropbehind folios, their drop after writeback,
 * WB_DONTCACHE_DIRTY, and seed 003's marking of folios that are already
 * cached (docs/model/dontcache.md).
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
 * folio_unmap_invalidate (model/mm/truncate.c) tests PG_dirty and
 * removes the folio in one i_lock + xa_lock section, after filemap_release_folio (iomap frees its
 * per-block state; a dirty folio is refused).
 *
 * Leaves out here (for now): the v7.2 flusher-side
 * kick (the model writes back inline, as 6.18 does), the read-side drop
 * in filemap_read, NFSD 7/7.  (XFS ioends that need no workqueue end in
 * hardirq context, where km_folio_end_dropbehind skips the drop.)
 */

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
 * Kernel: mm/filemap.c folio_end_dropbehind, v6.18: nothing unless
 * PG_dropbehind; then, only in task context (in_task()) and if the
 * folio lock is free (trylock), filemap_end_dropbehind.  In hardirq
 * context the drop is skipped and PG_dropbehind stays set.
 * Context: completion, hardirq or task (model/kernel/softirq.c); never
 * sleeps (trylock).
 * In v6.18 XFS completes an ioend in task context (the xfs_end_io
 * kworker) only when xfs_ioend_needs_wq_completion: an append,
 * unwritten, shared or IOMAP_IOEND_DONTCACHE ioend (the folio was
 * dropbehind when the ioend was built, iomap_add_to_ioend); the others
 * end writeback in the bio's end_io in hardirq context, where this skips
 * the drop (model/fs/xfs/xfs_aops.c, docs/model/writeback-completion.md).
 * Divergences: none in the decision.  Under the seed-003 variants (v11,
 * v12) a folio that folio_mark_dropbehind marks after its ioend was
 * built without the flag is kept, as v6.18's context rule keeps it; the
 * seeds' own completion context is not public (7.3's block tree moves
 * dropbehind completions to BIO_COMPLETE_IN_TASK; not modelled).
 */
void km_folio_end_dropbehind(struct km_folio *folio)
{
	if (!sim_bit_test(&folio->flags, PG_dropbehind))
		return;
	if (!km_in_task() || !km_folio_trylock(folio))
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
 * Divergences: none known in the context: this matters when the
 * completion's trylock failed, the folio was dirtied again after the
 * sync, or the ioend that cleaned it completed in hardirq context (an
 * overwrite ioend built before the folio was marked:
 * km_folio_end_dropbehind does not drop there, as v6.18's does not).
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
