// SPDX-License-Identifier: MIT
/*
 * tests/model/mm/test_filemap_read.c - the buffered read's use of a
 * cached folio that is not uptodate (mm/filemap.c filemap_update_page,
 * filemap_range_uptodate, v6.18), one task (issue 30, test strength:
 * mm/filemap.c draws eleven mutants of a seed's 110, the most of any
 * file; docs/reliability.md, seed 65519's section).
 *
 * 1 KiB blocks in 4 KiB pages, an XFS file of two written pages, none
 * cached.  A buffered write of block 0 caches page 0 with that block
 * uptodate (and dirty) and the other three not: the folio is not
 * uptodate.  Then:
 *   1. RWF_NOWAIT read of block 2: the folio's lock is free, but the
 *      range is not uptodate and reading it would block: -EAGAIN;
 *   2. RWF_NOWAIT read of block 0: is_partially_uptodate says the
 *      range is uptodate: 1024 bytes of the write (id 5);
 *   3. a blocking read of block 2: ->read_folio fills the folio from
 *      the disk: 1024 bytes, the disk's data;
 *   4. RWF_NOWAIT read of block 2 again: the same 1024 bytes, now
 *      from the cache (no -EAGAIN);
 *   5. RWF_NOWAIT read of page 1, never cached: -EAGAIN (no readahead
 *      under IOCB_NOWAIT: filemap_get_pages).
 * Kernel: mm/filemap.c filemap_read, filemap_get_pages,
 * filemap_update_page, filemap_range_uptodate; fs/iomap/buffered-io.c
 * iomap_is_partially_uptodate, v6.18.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "wpsim/harness.h"
#include "model/linux/fs.h"
#include "model/linux/pagemap.h"
#include "model/linux/syscalls.h"

static struct wpsim_race T;

static long r[5];
static uint32_t out[5][2];	/* the two sectors each read returns */
static bool folio_uptodate_before;

static void read_task(void *arg)
{
	struct km_file *f = m_world()->files[0];

	(void)arg;
	memset(out, 0xff, sizeof(out));
	SIM_ASSERT_EQ(m_pwritev2(f, 0, 1024, 0, 5, 0), 1024);
	folio_uptodate_before = m_folio_flag_peek(
		m_folio_lookup(&f->f_inode->i_data, 0), PG_uptodate);
	r[0] = m_preadv2(f, 2048, 1024, RWF_NOWAIT, out[0]);
	r[1] = m_preadv2(f, 0, 1024, RWF_NOWAIT, out[1]);
	r[2] = m_preadv2(f, 2048, 1024, 0, out[2]);
	r[3] = m_preadv2(f, 2048, 1024, RWF_NOWAIT, out[3]);
	r[4] = m_preadv2(f, 4096, 1024, RWF_NOWAIT, out[4]);
}

Test(filemap_read, nowait_read_of_a_folio_not_uptodate)
{
	wpsim_race_init(&T, "nowait-read-partial-folio");
	T.world.files[0].size = 8192;
	T.world.files[0].blkbits = 10;
	T.world.files[0].layout = "WWWWWWWW";
	wpsim_race_task(&T, "P0", read_task, NULL);
	WPSIM_ASSERT_RUN_ONCE(&T);
	cr_assert(!folio_uptodate_before,
		  "the setup: page 0 is cached and not uptodate");
	cr_expect_eq(r[0], -KM_EAGAIN, "NOWAIT, block not uptodate: %ld",
		     r[0]);
	cr_expect_eq(r[1], 1024, "NOWAIT, block uptodate: %ld", r[1]);
	cr_expect(out[1][0] == 5 && out[1][1] == 5, "block 0: %u %u",
		  out[1][0], out[1][1]);
	cr_expect_eq(r[2], 1024, "blocking read: %ld", r[2]);
	cr_expect(out[2][0] != 5 && out[2][0] != 0 && out[2][0] == out[2][1],
		  "block 2 from the disk: %u %u", out[2][0], out[2][1]);
	cr_expect_eq(r[3], 1024, "NOWAIT, now uptodate: %ld", r[3]);
	cr_expect(out[3][0] == out[2][0] && out[3][1] == out[2][1],
		  "the cached block 2: %u %u", out[3][0], out[3][1]);
	cr_expect_eq(r[4], -KM_EAGAIN, "NOWAIT, not cached: %ld", r[4]);
}
