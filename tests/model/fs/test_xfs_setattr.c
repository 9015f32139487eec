// SPDX-License-Identifier: MIT
/*
 * tests/model/fs/test_xfs_setattr.c - XFS's truncate to the size the
 * file already has (fs/xfs/xfs_iops.c xfs_setattr_size, v6.18: the
 * size does not grow, so xfs_truncate_page zeroes the rest of the EOF
 * block, not xfs_zero_range; class P of docs/model/fidelity.md).  One
 * task (issue 30, test strength: seed 65519's #56, xfs_iops.c:107
 * `newsize > oldsize` as `>=`, took the growing branch at equality and
 * zeroed nothing).
 *
 *   1. A 1000-byte file, its block written, nothing cached:
 *      ftruncate(1000): 0; xfs_truncate_page zeroes [1000, 4096) of
 *      the EOF block through the page cache (iomap_zero_range of a
 *      written block): page 0 cached and dirty, its sectors past 1024
 *      zero, sector 0 the disk's data.
 *   2. A 4096-byte file (a block boundary): ftruncate(4096): 0, nothing
 *      to zero, nothing cached.
 * Kernel: fs/xfs/xfs_iops.c xfs_setattr_size, fs/xfs/xfs_iomap.c
 * xfs_truncate_page, fs/iomap/buffered-io.c iomap_zero_range, v6.18.
 */
#include <criterion/criterion.h>

#include "wpsim/harness.h"
#include "model/linux/pagemap.h"
#include "model/linux/syscalls.h"

static struct wpsim_race T;
static long tr_ret;
static bool tr_cached, tr_dirty;
static uint32_t tr_sec[8];

static void same_size_task(void *arg)
{
	struct km_file *f = m_world()->files[0];
	loff_t size = *(loff_t *)arg;
	struct km_folio *folio;

	tr_ret = km_do_sys_ftruncate(f, size);
	folio = m_folio_lookup(&f->f_inode->i_data, 0);
	tr_cached = folio != NULL;
	tr_dirty = folio && m_folio_flag_peek(folio, PG_dirty);
	for (size_t s = 0; s < 8; s++)
		tr_sec[s] = folio ? m_folio_sector(folio, s) : ~0u;
}

static loff_t size_1000 = 1000, size_4096 = 4096;

Test(xfs_setattr, truncate_to_the_same_unaligned_size_zeroes_the_eof_block)
{
	wpsim_race_init(&T, "xfs-truncate-same-size");
	T.world.files[0].size = 1000;
	T.world.files[0].layout = "W";
	wpsim_race_task(&T, "P0", same_size_task, &size_1000);
	WPSIM_ASSERT_RUN_ONCE(&T);
	cr_expect_eq(tr_ret, 0);
	cr_expect(tr_cached && tr_dirty,
		  "the EOF block zeroed through the cache: %s, %s",
		  tr_cached ? "cached" : "not cached",
		  tr_dirty ? "dirty" : "clean");
	for (size_t s = 2; s < 8; s++)
		cr_expect_eq(tr_sec[s], 0, "sector %zu past EOF: %u", s,
			     tr_sec[s]);
	cr_expect(tr_sec[0] != 0 && tr_sec[0] != ~0u,
		  "sector 0 keeps the disk's data: %u", tr_sec[0]);
}

Test(xfs_setattr, truncate_to_the_same_aligned_size_zeroes_nothing)
{
	wpsim_race_init(&T, "xfs-truncate-same-aligned");
	T.world.files[0].size = 4096;
	T.world.files[0].layout = "W";
	wpsim_race_task(&T, "P0", same_size_task, &size_4096);
	WPSIM_ASSERT_RUN_ONCE(&T);
	cr_expect_eq(tr_ret, 0);
	cr_expect(!tr_cached, "a block boundary: nothing to zero");
}
