// SPDX-License-Identifier: MIT
/*
 * tests/model/mm/test_fadvise.c - posix_fadvise(POSIX_FADV_DONTNEED)
 * (model/mm/fadvise.c, mapping_try_invalidate in model/mm/truncate.c)
 * against v6.18's mm/fadvise.c generic_fadvise and mm/truncate.c:
 * writeback started on the dirty folios and not waited for, clean folios
 * evicted, folios under writeback kept, and the range's first and last
 * whole pages (the last partial page kept unless the range ends at the
 * file's last byte).
 *
 * Each test runs the default schedule once: the task runs until it
 * waits, device completions come when every task waits, so the
 * writeback DONTNEED starts is still in flight when it invalidates.
 */
#include <criterion/criterion.h>

#include "wpsim/harness.h"
#include "model/linux/fadvise.h"
#include "model/linux/pagemap.h"

static struct km_address_space *mapping_of(const char *name)
{
	return km_inode_mapping(wpsim_file(name)->f_inode);
}

static bool cached(pgoff_t index)
{
	return m_folio_lookup(mapping_of("f"), index) != NULL;
}

/*
 * 1. pages 0-3 cached, page 1 dirty; DONTNEED over the whole file
 *    (len 0): fdatawrite (WB_SYNC_NONE) starts writeback of page 1;
 * 2. mapping_try_invalidate: pages 0, 2, 3 are clean: evicted; page 1 is
 *    under writeback: find_lock_entries skips it, it stays.
 * The bug it would catch: DONTNEED dropping a dirty folio (lost data) or
 * waiting for writeback (a blocking advice).
 */
static void dontneed_whole(void *arg)
{
	struct km_folio *folio;

	(void)arg;
	SIM_ASSERT_EQ(km_ksys_fadvise64_64(wpsim_file("f"), 0, 0,
					   KM_POSIX_FADV_DONTNEED), 0);
	SIM_ASSERT(!cached(0));
	SIM_ASSERT(!cached(2));
	SIM_ASSERT(!cached(3));
	folio = m_folio_lookup(mapping_of("f"), 1);
	SIM_ASSERT_MSG(folio, "the folio under writeback stays cached");
	SIM_ASSERT(m_folio_flag_peek(folio, PG_writeback));
	SIM_ASSERT_EQ(sim_word_peek(&mapping_of("f")->nrpages), 1);
}

Test(fadvise, dontneed_keeps_writeback_drops_clean)
{
	static struct wpsim_race t;

	wpsim_race_init(&t, "fadvise-dontneed");
	t.world.files[0].size = 4 * 4096;
	t.world.files[0].cached_first = 0;
	t.world.files[0].cached_last = 3;
	t.world.files[0].dirty_first = 1;
	t.world.files[0].dirty_last = 1;
	wpsim_race_task(&t, "P0", dontneed_whole, NULL);
	WPSIM_ASSERT_RUN_ONCE(&t);
}

/*
 * The range's whole pages, a 4-page file, all clean:
 * - [0, 4196): endbyte 4195 is neither a page's last byte nor the
 *   file's: the last partial page (1) is kept, page 0 evicted;
 * - [0, 3 * 4096 + 100) on a file of that size: endbyte is the file's
 *   last byte, so its partial page 3 is evicted too.
 */
static void dontneed_partial(void *arg)
{
	(void)arg;
	SIM_ASSERT_EQ(km_ksys_fadvise64_64(wpsim_file("f"), 0, 4096 + 100,
					   KM_POSIX_FADV_DONTNEED), 0);
	SIM_ASSERT(!cached(0));
	SIM_ASSERT(cached(1));
	SIM_ASSERT(cached(2));
	SIM_ASSERT_EQ(km_ksys_fadvise64_64(wpsim_file("f"), 4096,
					   2 * 4096 + 100,
					   KM_POSIX_FADV_DONTNEED), 0);
	SIM_ASSERT(!cached(1));
	SIM_ASSERT(!cached(2));
	SIM_ASSERT(!cached(3));
	SIM_ASSERT_EQ(km_ksys_fadvise64_64(wpsim_file("f"), 0, -1,
					   KM_POSIX_FADV_DONTNEED),
		      -KM_EINVAL);
}

Test(fadvise, dontneed_whole_pages_of_the_range)
{
	static struct wpsim_race t;

	wpsim_race_init(&t, "fadvise-range");
	t.world.files[0].size = 3 * 4096 + 100;
	t.world.files[0].cached_first = 0;
	t.world.files[0].cached_last = 3;
	wpsim_race_task(&t, "P0", dontneed_partial, NULL);
	WPSIM_ASSERT_RUN_ONCE(&t);
}

static void dontneed_one(void *arg)
{
	(void)arg;
	SIM_ASSERT_EQ(km_ksys_fadvise64_64(wpsim_file("f"), 0, 0,
					   KM_POSIX_FADV_DONTNEED), 0);
}

static void truncate_then_write(void *arg)
{
	(void)arg;
	SIM_ASSERT_EQ(m_syscall(M_SYS_FTRUNCATE, &(struct m_sys_args){
		.file = wpsim_file("f"), .pos = 0 }), 0);
	SIM_ASSERT_EQ(m_pwritev2(wpsim_file("f"), 0, 4096, 0, 7, 0), 4096);
}

/*
 * DONTNEED vs truncate and a rewrite, where folios are freed (a long
 * run's world: the last folio_put frees the folio and its id is reused
 * by the next allocation).
 *
 *   P0 (fadvise DONTNEED)               P1 (ftruncate 0; pwrite 0 4096)
 *   1. find_lock_entries: folio 1 of
 *      page 0, a reference (2)
 *                                       2. truncate: folio 1 locked,
 *                                          out of the cache (1), unlocked
 *   3. folio_trylock succeeds; it left
 *      the mapping: folio_unlock, then
 *      folio_put (0: freed)
 *                                       4. the write's new folio takes
 *                                          the freed id, locked
 * Must hold: no interleaving breaks an invariant or an assertion.
 * Bug (seed 60731's mutant of truncate.c:424, the put before the
 * unlock): at 3 the put frees folio 1 while P0 still holds its lock;
 * P0's unlock is then a use after free (the model's folio_unlock
 * asserts a reference: "unlocked after its last reference was
 * dropped"), and P1's allocation at 4 may already hold the id.  Only a
 * world that frees folios sees it: the quick suite's other runs of this
 * path keep every folio.
 * Kernel: mm/truncate.c mapping_try_invalidate, mm/filemap.c
 * find_lock_entries (folio_unlock before folio_put), v6.18.
 */
Test(race, dontneed_vs_truncate_and_rewrite__unlock_before_put)
{
	static struct wpsim_race t;

	wpsim_race_init(&t, "fadvise-dontneed-vs-truncate");
	t.world.long_run = true;
	t.world.files[0].size = 4096;
	t.world.files[0].cached_first = 0;
	t.world.files[0].cached_last = 0;
	wpsim_race_task(&t, "P0", dontneed_one, NULL);
	wpsim_race_task(&t, "P1", truncate_then_write, NULL);
	t.expect = WPSIM_NEVER;
	WPSIM_ASSERT_RACE(&t);
}

static void direct_write_one(void *arg)
{
	struct km_file *direct = m_file_open(wpsim_file("f")->f_inode,
					     KM_O_DIRECT);

	(void)arg;
	wpsim_reg_set(0, m_pwritev2(direct, 0, 4096, 0, 7, 0));
}

/*
 * An O_DIRECT write vs DONTNEED of the page it overwrites.
 *
 *   P0 (O_DIRECT pwrite 0 4096)         P1 (fadvise DONTNEED)
 *                                       1. find_lock_entries: folio 1,
 *                                          a reference, trylocked
 *   2. kiocb_invalidate_pages ->
 *      invalidate_inode_pages2_range:
 *      finds folio 1, folio_get (its
 *      reference), folio_lock: sleeps
 *                                       3. mapping_evict_folio: P0's
 *                                          reference keeps it; unlock
 *   4. locked; still in the mapping:
 *      dropped (clean), unlocked, put
 * Or P1 evicts before P0's lookup: P0 finds nothing to drop.
 * Must hold: no interleaving fails an assertion; a folio is locked only
 * by a holder of a reference (the model's check in folio_lock).
 * Bug (seed 60731's mutant of truncate.c:263, folio_lock before
 * folio_get in invalidate_inode_pages2_range): at 2 P0 sleeps on the
 * lock holding no reference, P1 evicts the folio and drops the last
 * reference (the page cache's and its own), and P0 then locks a freed
 * folio (in the kernel: memory another task may own).  No end state
 * shows it (the folio has left the mapping; P0 unlocks and puts it);
 * the check in km_folio_lock fails the execution.
 * Kernel: mm/truncate.c invalidate_inode_pages2_range (find_get_entries
 * takes the references, then folio_lock), mapping_try_invalidate,
 * v6.18.
 */
Test(race, direct_write_vs_dontneed__locked_with_a_reference)
{
	static struct wpsim_race t;

	wpsim_race_init(&t, "direct-write-vs-dontneed");
	t.world.files[0].size = 4096;
	t.world.files[0].cached_first = 0;
	t.world.files[0].cached_last = 0;
	wpsim_race_task(&t, "P0", direct_write_one, NULL);
	wpsim_race_task(&t, "P1", dontneed_one, NULL);
	t.expect = WPSIM_NEVER;
	WPSIM_ASSERT_RACE(&t);
}
