// SPDX-License-Identifier: MIT
/*
 * tests/model/mm/test_truncate.c - model/mm/truncate.c function by
 * function, one task, every answer and every branch's effect on the
 * page cache (issue 30, test strength: of the real gaps four mutation
 * seeds left, six were in truncate.c, the most of any file but
 * page-writeback.c; docs/reliability.md, seed 65519's section).
 *
 * Kernel: mm/truncate.c truncate_inode_pages_range,
 * truncate_inode_partial_folio, pagecache_isize_extended,
 * invalidate_inode_pages2_range, folio_unmap_invalidate,
 * mapping_evict_folio, mapping_try_invalidate, v6.18.
 *
 * The tests call the functions directly on a page cache set up by the
 * world (cached, dirty, mapped ranges) or by writes, and read the cache
 * back with peeks (m_folio_lookup, m_folio_sector): what each function
 * removes, keeps, zeroes and answers.  Races are in test_races.c,
 * test_fadvise.c and test_filemap.c.
 */
#include <criterion/criterion.h>
#include <limits.h>
#include <string.h>

#include "wpsim/harness.h"
#include "model/linux/mm.h"
#include "model/linux/pagemap.h"
#include "model/linux/syscalls.h"
#include "model/observe.h"

static struct wpsim_race T;

static struct km_file *F(void)
{
	return m_world()->files[0];
}

static struct km_address_space *M(void)
{
	return &F()->f_inode->i_data;
}

static bool cached(pgoff_t i)
{
	return m_folio_lookup(M(), i) != NULL;
}

/* The write id of sector @s (0..7) of page @i, or ~0u when not cached. */
static uint32_t sector_of(pgoff_t i, size_t s)
{
	struct km_folio *folio = m_folio_lookup(M(), i);

	return folio ? m_folio_sector(folio, s) : ~0u;
}

/* ---- mapping_try_invalidate and mapping_evict_folio ----------------- */

/*
 * Ten clean pages cached; page 1 dirty, page 3 mapped (setup).  The
 * task holds an extra reference on page 2 and the lock of page 4, then
 * asks mapping_try_invalidate for pages [0, 6] (inclusive):
 *   evicted: 0, 5, 6 (3 pages);
 *   refused by mapping_evict_folio, counted in nr_failed: 1 (dirty),
 *     2 (a reference beyond the cache's and the caller's), 3 (mapped);
 *   skipped, not counted: 4 (its lock taken: trylock fails);
 *   not looked at: 7-9 (past the range's end).
 * Then [7, 9] with no nr_failed (3 evicted), then, the reference and
 * the lock given back, [0, 9] again: 2 and 4 go (2 pages), 1 and 3 are
 * refused again (nr_failed 2).
 */
static unsigned long ti_n[3], ti_failed[3];
static bool ti_cached[3][10];

static void try_invalidate_task(void *arg)
{
	struct km_folio *f2 = m_folio_lookup(M(), 2);
	struct km_folio *f4 = m_folio_lookup(M(), 4);

	(void)arg;
	km_folio_get(f2);
	km_folio_get(f4);
	km_folio_lock(f4);
	ti_n[0] = km_mapping_try_invalidate(M(), 0, 6, &ti_failed[0]);
	for (pgoff_t i = 0; i < 10; i++)
		ti_cached[0][i] = cached(i);
	ti_n[1] = km_mapping_try_invalidate(M(), 7, 9, NULL);
	for (pgoff_t i = 0; i < 10; i++)
		ti_cached[1][i] = cached(i);
	km_folio_unlock(f4);
	km_folio_put(f4);
	km_folio_put(f2);
	ti_n[2] = km_mapping_try_invalidate(M(), 0, 9, &ti_failed[2]);
	for (pgoff_t i = 0; i < 10; i++)
		ti_cached[2][i] = cached(i);
}

/* Ten written pages, all cached; page 1 dirty, page 3 mapped. */
static void ten_cached_pages(void)
{
	T.world.files[0].size = 10 * 4096;
	T.world.files[0].layout = "WWWWWWWWWW";
	T.world.files[0].cached_first = 0;
	T.world.files[0].cached_last = 9;
	T.world.files[0].dirty_first = 1;
	T.world.files[0].dirty_last = 1;
	T.world.files[0].mapped_first = 3;
	T.world.files[0].mapped_last = 3;
}

Test(truncate, try_invalidate_counts_evictions_and_refusals)
{
	static const bool want[3][10] = {
		{ 0, 1, 1, 1, 1, 0, 0, 1, 1, 1 },
		{ 0, 1, 1, 1, 1, 0, 0, 0, 0, 0 },
		{ 0, 1, 0, 1, 0, 0, 0, 0, 0, 0 },
	};

	wpsim_race_init(&T, "try-invalidate");
	ten_cached_pages();
	wpsim_race_task(&T, "P0", try_invalidate_task, NULL);
	WPSIM_ASSERT_RUN_ONCE(&T);
	cr_expect_eq(ti_n[0], 3, "[0, 6]: %lu pages evicted", ti_n[0]);
	cr_expect_eq(ti_failed[0], 3, "[0, 6]: %lu refused", ti_failed[0]);
	cr_expect_eq(ti_n[1], 3, "[7, 9]: %lu pages evicted", ti_n[1]);
	cr_expect_eq(ti_n[2], 2, "[0, 9]: %lu pages evicted", ti_n[2]);
	cr_expect_eq(ti_failed[2], 2, "[0, 9]: %lu refused", ti_failed[2]);
	for (int k = 0; k < 3; k++)
		for (int i = 0; i < 10; i++)
			cr_expect_eq(ti_cached[k][i], want[k][i],
				     "call %d: page %d %s", k + 1, i,
				     ti_cached[k][i] ? "cached" : "evicted");
}

/* ---- folio_unmap_invalidate and invalidate_inode_pages2_range ------- */

/*
 * Ten pages cached, page 1 dirty, page 3 mapped with a clean PTE.
 *   folio_unmap_invalidate, each folio locked and referenced:
 *     page 0 (clean): 1, removed; again on the same folio, now out of
 *       the mapping: -EBUSY;
 *     page 1 (dirty): -EBUSY, kept, still dirty;
 *     page 3 (mapped, clean PTE): unmapped, then removed: 1;
 *     page 5 after a store through the mapping (a dirty PTE): the
 *       unmap moves the dirt to the folio: -EBUSY, kept, dirty.
 *   invalidate_inode_pages2_range of [6, 8]: 0, pages 6-8 gone, 9 kept;
 *   of [0, 9]: -EBUSY (pages 1 and 5 dirty stay), 2, 4, 9 gone.
 */
static int ui_ret[5], ip_ret[2];
static bool ui_kept[5], ui_dirty[5];
static bool ip_cached[2][10];

static int unmap_invalidate_one(pgoff_t i, int k)
{
	struct km_folio *folio = m_folio_lookup(M(), i);
	int ret;

	km_folio_get(folio);
	km_folio_lock(folio);
	ret = km_folio_unmap_invalidate(M(), folio);
	ui_dirty[k] = m_folio_flag_peek(folio, PG_dirty);
	if (k == 0)	/* the same folio again, out of the mapping */
		ui_ret[1] = km_folio_unmap_invalidate(M(), folio);
	km_folio_unlock(folio);
	km_folio_put(folio);
	ui_kept[k] = cached(i);
	return ret;
}

static void unmap_invalidate_task(void *arg)
{
	(void)arg;
	ui_ret[0] = unmap_invalidate_one(0, 0);
	ui_ret[2] = unmap_invalidate_one(1, 2);
	ui_ret[3] = unmap_invalidate_one(3, 3);
	SIM_ASSERT_EQ(m_mmap_store(F(), 5 * 4096, 512, 9), 0);
	ui_ret[4] = unmap_invalidate_one(5, 4);
	ip_ret[0] = km_invalidate_inode_pages2_range(M(), 6, 8);
	for (pgoff_t i = 0; i < 10; i++)
		ip_cached[0][i] = cached(i);
	ip_ret[1] = km_invalidate_inode_pages2_range(M(), 0, 9);
	for (pgoff_t i = 0; i < 10; i++)
		ip_cached[1][i] = cached(i);
	m_munmap(F());
}

Test(truncate, unmap_invalidate_and_invalidate_pages2_answers)
{
	static const bool want[2][10] = {
		{ 0, 1, 1, 0, 1, 1, 0, 0, 0, 1 },
		{ 0, 1, 0, 0, 0, 1, 0, 0, 0, 0 },
	};

	wpsim_race_init(&T, "unmap-invalidate");
	ten_cached_pages();
	wpsim_race_task(&T, "P0", unmap_invalidate_task, NULL);
	WPSIM_ASSERT_RUN_ONCE(&T);
	cr_expect_eq(ui_ret[0], 1, "clean: %d", ui_ret[0]);
	cr_expect(!ui_kept[0]);
	cr_expect_eq(ui_ret[1], -KM_EBUSY, "out of the mapping: %d",
		     ui_ret[1]);
	cr_expect_eq(ui_ret[2], -KM_EBUSY, "dirty: %d", ui_ret[2]);
	cr_expect(ui_kept[2] && ui_dirty[2]);
	cr_expect_eq(ui_ret[3], 1, "mapped, clean PTE: %d", ui_ret[3]);
	cr_expect(!ui_kept[3]);
	cr_expect_eq(ui_ret[4], -KM_EBUSY, "dirty PTE: %d", ui_ret[4]);
	cr_expect(ui_kept[4] && ui_dirty[4],
		  "the dirty PTE's dirt moves to the folio, which stays");
	cr_expect_eq(ip_ret[0], 0, "[6, 8] clean: %d", ip_ret[0]);
	cr_expect_eq(ip_ret[1], -KM_EBUSY, "[0, 9] with dirty pages: %d",
		     ip_ret[1]);
	for (int k = 0; k < 2; k++)
		for (int i = 0; i < 10; i++)
			cr_expect_eq(ip_cached[k][i], want[k][i],
				     "invalidate %d: page %d %s", k + 1, i,
				     ip_cached[k][i] ? "cached" : "gone");
}

/* ---- truncate_inode_pages_range ------------------------------------- */

/*
 * Four pages written (id 7, dirty), 4 KiB blocks, sectors of 512 bytes.
 *   [1536, 9215]: page 0 kept, sectors 3-7 zeroed (the partial start:
 *     offset 1536 to the folio's end); page 1 removed (wholly inside,
 *     its dirtiness cancelled); page 2 kept, sectors 0-1 zeroed (the
 *     partial end: to byte 9215 inclusive); page 3 untouched.
 *   [9728, -1] (to EOF): page 2's sectors 3-7 zeroed, page 3 removed.
 *   page 0 written again (id 8), [512, 1023]: one sector inside one
 *     folio (start and end the same folio): sector 1 zeroed, page 0
 *     kept.
 *   page 1 written again (id 9), [4096, 8191] (page-aligned): page 1
 *     removed, pages 0 and 2 untouched.
 * The dirty count follows: 4 pages dirty, 3 after the first truncate,
 * 2 after the second, 3 after page 1 is written again, 2 at the end.
 */
static uint32_t tr_sec[4][4][8];
static bool tr_cached[4][4];
static uint64_t tr_dirty[4];

static void snapshot(int k)
{
	for (pgoff_t i = 0; i < 4; i++) {
		tr_cached[k][i] = cached(i);
		for (size_t s = 0; s < 8; s++)
			tr_sec[k][i][s] = sector_of(i, s);
	}
	tr_dirty[k] = sim_word_peek(&m_world()->node.stat[NR_FILE_DIRTY]);
}

static void truncate_range_task(void *arg)
{
	struct km_inode *inode = F()->f_inode;

	(void)arg;
	SIM_ASSERT_EQ(m_pwritev2(F(), 0, 4 * 4096, 0, 7, 0), 4 * 4096);
	km_inode_lock(inode);
	km_truncate_inode_pages_range(M(), 1536, 9215);
	snapshot(0);
	km_truncate_pagecache(inode, 9728);
	snapshot(1);
	km_inode_unlock(inode);
	SIM_ASSERT_EQ(m_pwritev2(F(), 0, 4096, 0, 8, 0), 4096);
	km_inode_lock(inode);
	km_truncate_pagecache_range(inode, 512, 1023);
	snapshot(2);
	km_inode_unlock(inode);
	SIM_ASSERT_EQ(m_pwritev2(F(), 4096, 4096, 0, 9, 0), 4096);
	km_inode_lock(inode);
	km_truncate_inode_pages_range(M(), 4096, 8191);
	snapshot(3);
	km_inode_unlock(inode);
}

static void expect_sectors(int k, pgoff_t i, const uint32_t want[8])
{
	for (size_t s = 0; s < 8; s++)
		cr_expect_eq(tr_sec[k][i][s], want[s],
			     "step %d: page %lu sector %zu holds %u, not %u",
			     k + 1, (unsigned long)i, s, tr_sec[k][i][s],
			     want[s]);
}

Test(truncate, pages_range_zeroes_partial_ends_and_drops_whole_folios)
{
	static const uint32_t p0[8] = { 7, 7, 7, 0, 0, 0, 0, 0 };
	static const uint32_t p2a[8] = { 0, 0, 7, 7, 7, 7, 7, 7 };
	static const uint32_t p2b[8] = { 0, 0, 7, 0, 0, 0, 0, 0 };
	static const uint32_t all7[8] = { 7, 7, 7, 7, 7, 7, 7, 7 };
	static const uint32_t p0c[8] = { 8, 0, 8, 8, 8, 8, 8, 8 };

	wpsim_race_init(&T, "truncate-range");
	T.world.files[0].size = 4 * 4096;
	T.world.files[0].layout = "WWWW";
	wpsim_race_task(&T, "P0", truncate_range_task, NULL);
	WPSIM_ASSERT_RUN_ONCE(&T);
	/* [1536, 9215] */
	cr_expect(tr_cached[0][0] && !tr_cached[0][1] && tr_cached[0][2] &&
		  tr_cached[0][3], "step 1: pages 0, 2, 3 cached, 1 not");
	expect_sectors(0, 0, p0);
	expect_sectors(0, 2, p2a);
	expect_sectors(0, 3, all7);
	cr_expect_eq(tr_dirty[0], 3, "step 1: %llu dirty",
		     (unsigned long long)tr_dirty[0]);
	/* [9728, EOF] */
	cr_expect(tr_cached[1][0] && !tr_cached[1][1] && tr_cached[1][2] &&
		  !tr_cached[1][3], "step 2: pages 0, 2 cached");
	expect_sectors(1, 0, p0);
	expect_sectors(1, 2, p2b);
	cr_expect_eq(tr_dirty[1], 2);
	/* [512, 1023] inside page 0 */
	cr_expect(tr_cached[2][0] && tr_cached[2][2]);
	expect_sectors(2, 0, p0c);
	expect_sectors(2, 2, p2b);
	/* [4096, 8191]: page 1 whole */
	cr_expect(tr_cached[3][0] && !tr_cached[3][1] && tr_cached[3][2],
		  "step 4: pages 0 and 2 cached, 1 not");
	expect_sectors(3, 0, p0c);
	expect_sectors(3, 2, p2b);
	cr_expect_eq(tr_dirty[3], 2, "step 4: %llu dirty",
		     (unsigned long long)tr_dirty[3]);
}

/* ---- pagecache_isize_extended --------------------------------------- */

/*
 * 1 KiB blocks in 4 KiB pages (the function acts only when a block is
 * smaller than a page).  Page 0 cached and dirty (id 5, then 6):
 *   (1000, 8192): the block after 1000 starts at 1024, inside the page:
 *     the dirty folio's bytes from the sector after 1000 (1024) to the
 *     folio's end are zeroed: sectors 2-7;
 *   (1000, 1024): the new size ends at that block: nothing;
 *   (3072, 3584): sector 6 zeroed (to the new size, inside the folio);
 *   (4096, 8192): the old size on a page boundary: nothing;
 *   (2000, 1000): not an extension: nothing;
 *   written back (clean), not mapped, (1000, 8192): nothing (only a
 *     dirty folio is zeroed);
 *   a store through the mapping into the clean folio (dirty PTE), then
 *     (1000, 8192): folio_mkclean write-protects the PTE and finds it
 *     dirty, the folio is marked dirty and zeroed (sectors 2-7), and
 *     the PTE is no longer writable (the next store faults:
 *     ->page_mkwrite reserves the new blocks).
 */
static uint32_t ie_sec[7][8];
static bool ie_pte_writable;

static void ie_snap(int k)
{
	for (size_t s = 0; s < 8; s++)
		ie_sec[k][s] = sector_of(0, s);
}

static void isize_extended_task(void *arg)
{
	struct km_inode *inode = F()->f_inode;
	struct km_folio *folio;

	(void)arg;
	SIM_ASSERT_EQ(m_pwritev2(F(), 0, 4096, 0, 5, 0), 4096);
	km_inode_lock(inode);
	km_pagecache_isize_extended(inode, 1000, 8192);
	ie_snap(0);
	km_inode_unlock(inode);
	SIM_ASSERT_EQ(m_pwritev2(F(), 0, 4096, 0, 6, 0), 4096);
	km_inode_lock(inode);
	km_pagecache_isize_extended(inode, 1000, 1024);
	ie_snap(1);
	km_pagecache_isize_extended(inode, 3072, 3584);
	ie_snap(2);
	km_pagecache_isize_extended(inode, 4096, 8192);
	km_pagecache_isize_extended(inode, 2000, 1000);
	ie_snap(3);
	km_inode_unlock(inode);
	SIM_ASSERT_EQ(km_vfs_fsync_range(F(), 0, LLONG_MAX, 0), 0);
	km_inode_lock(inode);
	km_pagecache_isize_extended(inode, 1000, 8192);
	ie_snap(4);
	km_inode_unlock(inode);
	SIM_ASSERT_EQ(m_mmap_store(F(), 0, 512, 9), 0);
	km_inode_lock(inode);
	km_pagecache_isize_extended(inode, 1000, 8192);
	ie_snap(5);
	folio = m_folio_lookup(M(), 0);
	ie_pte_writable = sim_word_peek(&folio->pte) & M_PTE_WRITE;
	km_inode_unlock(inode);
	m_munmap(F());
}

Test(truncate, isize_extended_zeroes_the_dirty_folio_past_the_old_size)
{
	static const uint32_t a[8] = { 5, 5, 0, 0, 0, 0, 0, 0 };
	static const uint32_t b[8] = { 6, 6, 6, 6, 6, 6, 6, 6 };
	static const uint32_t c[8] = { 6, 6, 6, 6, 6, 6, 0, 6 };
	static const uint32_t d[8] = { 9, 6, 0, 0, 0, 0, 0, 0 };

	wpsim_race_init(&T, "isize-extended");
	T.world.files[0].size = 4096;
	T.world.files[0].blkbits = 10;
	T.world.files[0].layout = "WWWW";
	wpsim_race_task(&T, "P0", isize_extended_task, NULL);
	WPSIM_ASSERT_RUN_ONCE(&T);
	for (size_t s = 0; s < 8; s++) {
		cr_expect_eq(ie_sec[0][s], a[s], "(1000, 8192) sector %zu: %u",
			     s, ie_sec[0][s]);
		cr_expect_eq(ie_sec[1][s], b[s], "(1000, 1024) sector %zu: %u",
			     s, ie_sec[1][s]);
		cr_expect_eq(ie_sec[2][s], c[s], "(3072, 3584) sector %zu: %u",
			     s, ie_sec[2][s]);
		cr_expect_eq(ie_sec[3][s], c[s],
			     "no extension past a block: sector %zu: %u", s,
			     ie_sec[3][s]);
		cr_expect_eq(ie_sec[4][s], c[s], "clean: sector %zu: %u", s,
			     ie_sec[4][s]);
		cr_expect_eq(ie_sec[5][s], d[s], "dirty PTE: sector %zu: %u",
			     s, ie_sec[5][s]);
	}
	cr_expect(!ie_pte_writable, "the PTE is write-protected");
}
