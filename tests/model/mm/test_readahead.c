// SPDX-License-Identifier: MIT
/*
 * tests/model/mm/test_readahead.c - the readahead window
 * (model/mm/readahead.c) against values derived by hand from v6.18's
 * mm/readahead.c: get_init_ra_size, get_next_ra_size, ractl_max_pages,
 * page_cache_sync_ra (new stream, forced read with ra_pages 0, random
 * read, history), page_cache_async_ra (the marked folio moves the
 * window on), page_cache_prev_miss and do_page_cache_ra's EOF clamp.
 */
#include <criterion/criterion.h>

#include "wpsim/harness.h"
#include "model/linux/pagemap.h"
#include "model/linux/readahead.h"

/* ---- pure arithmetic ---------------------------------------------------- */

/*
 * get_init_ra_size(size, max): roundup_pow_of_two(size), x4 if <= max/32,
 * x2 if <= max/4, else max.  With max 32 (read_ahead_kb=128):
 * 1 -> 1 <= 1: 4;  2 -> 2 <= 8: 4;  3 -> 4: 8;  8 -> 8 <= 8: 16;
 * 9 -> 16 > 8: 32.  With max 512 (2 MiB): 16 -> 16 <= 16: 64.
 */
Test(readahead, init_ra_size)
{
	cr_assert_eq(km_get_init_ra_size(1, 32), 4);
	cr_assert_eq(km_get_init_ra_size(2, 32), 4);
	cr_assert_eq(km_get_init_ra_size(3, 32), 8);
	cr_assert_eq(km_get_init_ra_size(8, 32), 16);
	cr_assert_eq(km_get_init_ra_size(9, 32), 32);
	cr_assert_eq(km_get_init_ra_size(16, 512), 64);
	cr_assert_eq(km_get_init_ra_size(300, 512), 512);
}

/* get_next_ra_size(cur, max): x4 below max/16, x2 up to max/2, else max.
 * max 32: 1 -> 4 (1 < 2); 2 -> 4 (2 <= 16); 4 -> 8; 16 -> 32 (16 <= 16);
 * 17 -> 32. */
Test(readahead, next_ra_size)
{
	struct km_file_ra_state ra = { .ra_pages = 32 };
	unsigned long cur[] = { 1, 2, 4, 16, 17, 32 };
	unsigned long want[] = { 4, 4, 8, 32, 32, 32 };

	for (size_t i = 0; i < sizeof(cur) / sizeof(cur[0]); i++) {
		ra.size = (unsigned int)cur[i];
		cr_assert_eq(km_get_next_ra_size(&ra, 32), want[i],
			     "size %lu", cur[i]);
	}
}

/* ractl_max_pages: a request above ra_pages may grow to io_pages. */
Test(readahead, max_pages_up_to_io_pages)
{
	struct km_file_ra_state ra = { .ra_pages = 32 };
	struct km_readahead_control ractl = { .ra = &ra, .io_pages = 256 };

	cr_assert_eq(km_ractl_max_pages(&ractl, 8), 32);
	cr_assert_eq(km_ractl_max_pages(&ractl, 100), 100);
	cr_assert_eq(km_ractl_max_pages(&ractl, 1000), 256);
	ractl.io_pages = 16;
	cr_assert_eq(km_ractl_max_pages(&ractl, 100), 32);
}

/* ---- in a world: the page cache's history ------------------------------ */

static struct km_file_ra_state ra;
static struct km_readahead_control ractl;
static pgoff_t got[16];
static unsigned long got_nr[16], got_mark[16], got_size[16], got_async[16];
static unsigned int got_reads[16];

static void ractl_at(pgoff_t index)
{
	ractl = (struct km_readahead_control){
		.file = wpsim_file("f"),
		.mapping = km_inode_mapping(wpsim_file("f")->f_inode),
		.ra = &ra, ._index = index, .io_pages = 64,
		.read_mark = (unsigned long)-1 };
}

static void keep(int k)
{
	got[k] = ractl.read_index;
	got_nr[k] = ractl.read_nr;
	got_mark[k] = ractl.read_mark;
	got_size[k] = ra.size;
	got_async[k] = ra.async_size;
	got_reads[k] = ractl.reads;
}

/*
 * A sequential reader of one page at a time, ra_pages 32, a 1 MiB file:
 * 0. miss at 0: init window: start 0, size get_init_ra_size(1, 32) = 4,
 *    async 4 - 1 = 3: read [0, 4), PG_readahead on page 0 + 4 - 3 = 1.
 * 1. hit of the marked page 1: expected = 0 + 4 - 3 = 1: start 4, size
 *    max(4, next(4) = 8) = 8, async 8: read [4, 12), mark at 4 + 0 = 4.
 * 2. hit at 4 (expected 4 + 8 - 8 = 4): start 12, size 16, async 16.
 * 3. hit at 12: start 28, size 32 (16 <= 32/2), async 32.
 * 4. hit at 28: start 60, size 32 (max), async 32.
 */
static void sequential(void *arg)
{
	(void)arg;
	km_file_ra_state_init(&ra, 32);
	ractl_at(0);
	km_page_cache_sync_ra(&ractl, 1);
	keep(0);
	for (int k = 1; k <= 4; k++) {
		pgoff_t at = (pgoff_t)(ra.start + ra.size - ra.async_size);
		struct km_folio *folio;

		ractl_at(at);
		folio = m_folio_lookup(ractl.mapping, at);
		SIM_ASSERT_MSG(folio, "page %llu cached", (unsigned long long)at);
		sim_bit_set(&folio->flags, PG_readahead);
		km_page_cache_async_ra(&ractl, folio, 1);
		SIM_ASSERT(!sim_bit_test(&folio->flags, PG_readahead));
		keep(k);
	}
}

Test(readahead, sequential_stream_ramps_up)
{
	static struct wpsim_race t;
	pgoff_t start[] = { 0, 4, 12, 28, 60 };
	unsigned long size[] = { 4, 8, 16, 32, 32 };
	unsigned long async[] = { 3, 8, 16, 32, 32 };
	unsigned long mark[] = { 1, 0, 0, 0, 0 };

	wpsim_race_init(&t, "readahead-sequential");
	t.world.files[0].size = 1 << 20;
	t.world.files[0].cached_first = 0;	/* the whole file cached, */
	t.world.files[0].cached_last = 255;	/* as the reads left it */
	wpsim_race_task(&t, "P0", sequential, NULL);
	WPSIM_ASSERT_RUN_ONCE(&t);
	for (int k = 0; k <= 4; k++) {
		cr_assert_eq(got[k], start[k], "step %d: start %llu", k,
			     (unsigned long long)got[k]);
		cr_assert_eq(got_nr[k], size[k], "step %d: nr %lu", k,
			     got_nr[k]);
		cr_assert_eq(got_size[k], size[k], "step %d", k);
		cr_assert_eq(got_async[k], async[k], "step %d", k);
		cr_assert_eq(got_mark[k], mark[k], "step %d: mark %lu", k,
			     got_mark[k]);
	}
}

/*
 * read_ahead_kb=0 (ra_pages 0): page_cache_sync_ra forces one page and
 * leaves the state alone (the model's filemap_read as it is); an
 * async hit does nothing.
 * A random read: prev_pos far behind (page 10), no cached history
 * before index 30 (prev_miss(29) = 29, contig 0 <= req 2): the request
 * as is (do_page_cache_ra(2, 0)), no mark, state untouched.
 * History, ra_pages 16: pages 10..49 cached, prev_pos at page 1, a miss
 * at 50: prev_miss(49, 16) scans 49..34, all present: returns 34 (the
 * last scanned); contig = 50 - 34 - 1 = 15 > 2: size min(15 + 2, 16) =
 * 16, async 1: read [50, 66), clamped to the 64-page file's last page
 * 63: 14 pages, the mark on the last (14 - 1 = 13).  prev_miss(49, 80)
 * reaches the miss at 9.
 * Near EOF: a file whose last page is 52: the same window reads 3.
 */
static void others(void *arg)
{
	struct km_address_space *m;

	(void)arg;
	km_file_ra_state_init(&ra, 0);
	ractl_at(5);
	km_page_cache_sync_ra(&ractl, 8);
	keep(0);
	SIM_ASSERT_EQ(ra.size, 0);

	km_file_ra_state_init(&ra, 32);
	ra.prev_pos = 10 * 4096;
	ractl_at(30);
	m = ractl.mapping;
	SIM_ASSERT(!m_folio_lookup(m, 29));
	km_page_cache_sync_ra(&ractl, 2);
	keep(1);
	SIM_ASSERT_EQ(ra.size, 0);
	SIM_ASSERT_EQ(km_page_cache_prev_miss(m, 39, 8), 39);
}

static void history(void *arg)
{
	(void)arg;
	km_file_ra_state_init(&ra, 16);
	ra.prev_pos = 1 * 4096;
	ractl_at(50);
	SIM_ASSERT_EQ(km_page_cache_prev_miss(ractl.mapping, 49, 16), 34);
	SIM_ASSERT_EQ(km_page_cache_prev_miss(ractl.mapping, 49, 80), 9);
	km_page_cache_sync_ra(&ractl, 2);
	keep(2);
}

Test(readahead, forced_random_and_history)
{
	static struct wpsim_race t;

	wpsim_race_init(&t, "readahead-others");
	t.world.files[0].size = 1 << 20;
	wpsim_race_task(&t, "P0", others, NULL);
	WPSIM_ASSERT_RUN_ONCE(&t);
	cr_assert_eq(got[0], 5);
	cr_assert_eq(got_nr[0], 1, "ra_pages 0 reads %lu pages", got_nr[0]);
	cr_assert_eq(got_mark[0], (unsigned long)-1);
	cr_assert_eq(got[1], 30);
	cr_assert_eq(got_nr[1], 2);
	cr_assert_eq(got_mark[1], (unsigned long)-1);

	wpsim_race_init(&t, "readahead-history");
	t.world.files[0].size = 64 * 4096;
	t.world.files[0].cached_first = 10;
	t.world.files[0].cached_last = 49;
	wpsim_race_task(&t, "P0", history, NULL);
	WPSIM_ASSERT_RUN_ONCE(&t);
	cr_assert_eq(got[2], 50);
	cr_assert_eq(got_nr[2], 14);
	cr_assert_eq(got_size[2], 16);
	cr_assert_eq(got_async[2], 1);
	cr_assert_eq(got_mark[2], 13);

	wpsim_race_init(&t, "readahead-eof");
	t.world.files[0].size = 53 * 4096 - 100;
	t.world.files[0].cached_first = 10;
	t.world.files[0].cached_last = 49;
	wpsim_race_task(&t, "P0", history, NULL);
	WPSIM_ASSERT_RUN_ONCE(&t);
	cr_assert_eq(got_nr[2], 3, "clamped to the last page: %lu",
		     got_nr[2]);
	cr_assert_eq(got_reads[2], 1);
}

/* ---- wired in: filemap_read with ra_pages ------------------------------- */

static bool ra_cached(pgoff_t index)
{
	return m_folio_lookup(km_inode_mapping(wpsim_file("f")->f_inode),
			      index) != NULL;
}

static bool ra_marked(pgoff_t index)
{
	struct km_folio *folio = m_folio_lookup(
		km_inode_mapping(wpsim_file("f")->f_inode), index);

	return folio && m_folio_flag_peek(folio, PG_readahead);
}

static struct km_file_ra_state ra_after[2];

/*
 * A sequential reader of one page at a time through filemap_read, on a
 * 16-page file whose blocks are all written, read_ahead_kb 128 KiB
 * (ra_pages 32); the default schedule (reads complete when the task
 * waits for them):
 * 1. read page 0: a miss: page_cache_sync_ra's new window [0, 4), async
 *    3: folios 0-3 added and read (one bio), PG_readahead on page 1; the
 *    reader waits for folio 0's read (filemap_update_page).
 * 2. read page 1: the mark: page_cache_async_ra clears it and moves the
 *    window to [4, 12), all async: folios 4-11 added, PG_readahead on 4;
 *    page 1 is uptodate, copied without waiting.
 * Then f_ra is { start 4, size 8, async 8 } and prev_pos 8192.  The bug
 * this pins: a window not read (no folio past the request), a mark not
 * moved, or a reader that does not wait for the read in flight (it
 * would copy a folio that is not uptodate: the world check fails).
 */
static void reader(void *arg)
{
	uint32_t buf[8];
	struct km_file *f = wpsim_file("f");

	(void)arg;
	SIM_ASSERT_EQ(m_pread(f, 0, 4096, buf), 4096);
	SIM_ASSERT(ra_cached(0) && ra_cached(3) && !ra_cached(4));
	SIM_ASSERT(ra_marked(1) && !ra_marked(0) && !ra_marked(2));
	ra_after[0] = f->f_ra;
	SIM_ASSERT_EQ(m_pread(f, 4096, 4096, buf), 4096);
	SIM_ASSERT(!ra_marked(1) && ra_marked(4));
	SIM_ASSERT(ra_cached(11) && !ra_cached(12));
	ra_after[1] = f->f_ra;
}

Test(readahead, filemap_read_reads_the_window)
{
	static struct wpsim_race t;

	wpsim_race_init(&t, "readahead-filemap-read");
	t.world.ra_pages = 32;
	t.world.files[0].size = 16 * 4096;
	t.world.files[0].layout = "WWWWWWWWWWWWWWWW";
	wpsim_race_task(&t, "P0", reader, NULL);
	WPSIM_ASSERT_RUN_ONCE(&t);
	cr_assert_eq(ra_after[0].start, 0);
	cr_assert_eq(ra_after[0].size, 4);
	cr_assert_eq(ra_after[0].async_size, 3);
	cr_assert_eq(ra_after[0].prev_pos, 4096);
	cr_assert_eq(ra_after[1].start, 4);
	cr_assert_eq(ra_after[1].size, 8);
	cr_assert_eq(ra_after[1].async_size, 8);
	cr_assert_eq(ra_after[1].prev_pos, 8192);
}
