// SPDX-License-Identifier: MIT
/*
 * tests/model/mm/test_paths.c - the model's kernel paths one at a time:
 * a single task runs a syscall sequence (device completions run as
 * events when the task waits), then the test checks counters, flags,
 * marks and content.  Every execution also passes the model's quiescent
 * checks (the public harness, <wpsim/harness.h>).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "wpsim/harness.h"
#include "model/linux/syscalls.h"

static struct km_file *F(void)
{
	return m_world()->files[0];
}

static struct wpsim_race T;
static void (*body)(void);

static void body_task(void *arg)
{
	(void)arg;
	body();
}

/* Run @fn once, in one task, with T.config; fail the test on failure. */
static void run(void (*fn)(void))
{
	body = fn;
	wpsim_race_task(&T, "P0", body_task, NULL);
	WPSIM_ASSERT_RUN_ONCE(&T);
}

static void one_page(void)
{
	wpsim_race_init(&T, "paths");
	T.world.files[0].size = PAGE_SIZE;
}

#define STAT(x)	 ((int64_t)sim_word_peek(&m_world()->node.stat[x]))
#define WBSTAT(x) ((int64_t)sim_word_peek(&m_world()->wb.stat[x]))
#define DEV()	 (&m_world()->dev)
#define FOLIO0() m_folio_lookup(&m_world()->inodes[0]->i_data, 0)

static void partial_write(void)
{
	struct km_folio *folio;

	SIM_ASSERT_EQ(m_pwritev2(F(), 512, 1024, 0, 7, 0), 1024);
	folio = FOLIO0();
	SIM_ASSERT(folio);
	/* The block held data on disk: __iomap_write_begin read it. */
	SIM_ASSERT_EQ(sim_word_peek(&DEV()->reads), 1);
	SIM_ASSERT_EQ(m_folio_sector(folio, 0), 1000);
	SIM_ASSERT_EQ(m_folio_sector(folio, 1), 7);
	SIM_ASSERT_EQ(m_folio_sector(folio, 2), 7);
	SIM_ASSERT_EQ(m_folio_sector(folio, 3), 1000);
	SIM_ASSERT(m_folio_flag_peek(folio, PG_dirty));
	SIM_ASSERT(m_folio_flag_peek(folio, PG_uptodate));
	SIM_ASSERT(m_xa_get_mark(&m_world()->inodes[0]->i_data, 0,
				 PAGECACHE_TAG_DIRTY));
	SIM_ASSERT_EQ(STAT(NR_FILE_DIRTY), 1);
	SIM_ASSERT_EQ(STAT(NR_DIRTIED), 1);
	SIM_ASSERT_EQ(WBSTAT(WB_RECLAIMABLE), 1);
	SIM_ASSERT_EQ(WBSTAT(WB_DIRTIED), 1);
}

Test(paths, partial_write_reads_the_block_first)
{
	one_page();
	run(partial_write);
}

static void full_write(void)
{
	SIM_ASSERT_EQ(m_pwritev2(F(), 0, 4096, 0, 7, 0), 4096);
	SIM_ASSERT_EQ(sim_word_peek(&DEV()->reads), 0);
	SIM_ASSERT_EQ(m_folio_sector(FOLIO0(), 7), 7);
}

Test(paths, full_page_write_reads_nothing)
{
	one_page();
	run(full_write);
}

/*
 * A folio's content (issue 28): read from a block of one write, and
 * written whole, it is one id (no array of an id per sector); a write
 * of part of it with another id makes the array; a write of all of it
 * gives the array back.
 */
static void one_id_until_partial(void)
{
	struct km_folio *folio;

	SIM_ASSERT_EQ(m_pwritev2(F(), 0, 4096, 0, 7, 0), 4096);
	folio = FOLIO0();
	SIM_ASSERT(M_FOLIO_IS_ONE(folio->content));
	SIM_ASSERT_EQ(m_folio_sector(folio, 5), 7);
	SIM_ASSERT_EQ(m_pwritev2(F(), 1024, 512, 0, 8, 0), 512);
	SIM_ASSERT(!M_FOLIO_IS_ONE(folio->content));
	SIM_ASSERT_EQ(m_folio_sector(folio, 1), 7);
	SIM_ASSERT_EQ(m_folio_sector(folio, 2), 8);
	SIM_ASSERT_EQ(m_folio_sector(folio, 3), 7);
	SIM_ASSERT_EQ(m_pwritev2(F(), 0, 4096, 0, 9, 0), 4096);
	SIM_ASSERT(M_FOLIO_IS_ONE(folio->content));
	SIM_ASSERT_EQ(m_folio_sector(folio, 2), 9);
}

Test(paths, folio_content_one_id_until_partial_write)
{
	one_page();
	run(one_id_until_partial);
}

static void read_one_block(void)
{
	uint32_t ids[SECTORS_PER_PAGE];

	SIM_ASSERT_EQ(m_pwritev2(F(), 512, 512, 0, 7, 0), 512);
	/* __iomap_write_begin read the block: one write's id, 1000. */
	SIM_ASSERT_EQ(sim_word_peek(&DEV()->reads), 1);
	m_folio_ids_out(FOLIO0(), 0, SECTORS_PER_PAGE, ids);
	SIM_ASSERT_EQ(ids[0], 1000);
	SIM_ASSERT_EQ(ids[1], 7);
	SIM_ASSERT_EQ(ids[7], 1000);
}

Test(paths, folio_read_then_partial_write)
{
	one_page();
	run(read_one_block);
}

static void write_fsync(void)
{
	SIM_ASSERT_EQ(m_pwritev2(F(), 0, 4096, 0, 7, 0), 4096);
	SIM_ASSERT_EQ(km_xfs_file_fsync(F(), 0, INT64_MAX, 0), 0);
	SIM_ASSERT_EQ(m_dev_data(DEV(), m_inode_sector(F()->f_inode, 0)), 7);
	SIM_ASSERT(!m_folio_flag_peek(FOLIO0(), PG_dirty));
	SIM_ASSERT(!m_folio_flag_peek(FOLIO0(), PG_writeback));
	SIM_ASSERT_EQ(STAT(NR_FILE_DIRTY), 0);
	SIM_ASSERT_EQ(STAT(NR_WRITTEN), 1);
	SIM_ASSERT_EQ(WBSTAT(WB_WRITTEN), 1);
	SIM_ASSERT_EQ(STAT(NR_ZONE_WRITE_PENDING), 0);
}

Test(paths, fsync_writes_back_and_moves_the_counters)
{
	one_page();
	run(write_fsync);
}

static void read_hole(void)
{
	uint32_t out[8];

	memset(out, 0xff, sizeof(out));
	SIM_ASSERT_EQ(m_pread(F(), 0, 4096, out), 4096);
	for (int i = 0; i < 8; i++)
		SIM_ASSERT_EQ(out[i], 0);
	SIM_ASSERT_EQ(sim_word_peek(&DEV()->reads), 0);
}

Test(paths, read_of_a_hole_is_zeroes_without_io)
{
	one_page();
	T.world.files[0].layout = "H";
	run(read_hole);
}

static void read_written(void)
{
	uint32_t out[8];

	SIM_ASSERT_EQ(m_pread(F(), 0, 4096, out), 4096);
	SIM_ASSERT_EQ(out[3], 1000);
	SIM_ASSERT_EQ(sim_word_peek(&DEV()->reads), 1);
	/* Cached now: a second read does no I/O. */
	SIM_ASSERT_EQ(m_pread(F(), 0, 4096, out), 4096);
	SIM_ASSERT_EQ(sim_word_peek(&DEV()->reads), 1);
}

Test(paths, read_of_written_blocks_reads_once)
{
	one_page();
	run(read_written);
}

static void fallocate_then_read(void)
{
	uint32_t out[8];

	SIM_ASSERT_EQ(km_xfs_file_fallocate(F(), 0, 4096, 4096), 0);
	SIM_ASSERT_EQ(km_i_size_read(F()->f_inode), 8192);
	SIM_ASSERT_EQ(m_extent_peek(F()->f_inode, 1), 'U');
	SIM_ASSERT_EQ(m_pread(F(), 4096, 4096, out), 4096);
	SIM_ASSERT_EQ(out[0], 0);
	SIM_ASSERT_EQ(sim_word_peek(&DEV()->reads), 0);
	/* Writeback converts the unwritten block at completion. */
	SIM_ASSERT_EQ(m_pwritev2(F(), 4096, 4096, 0, 9, 0), 4096);
	SIM_ASSERT_EQ(km_xfs_file_fsync(F(), 0, INT64_MAX, 0), 0);
	SIM_ASSERT_EQ(m_extent_peek(F()->f_inode, 1), 'W');
}

Test(paths, fallocate_makes_unwritten_extents)
{
	one_page();
	run(fallocate_then_read);
}

static void append(void)
{
	SIM_ASSERT_EQ(m_pwritev2(F(), 0, 1024, RWF_APPEND, 4, 0), 1024);
	SIM_ASSERT_EQ(km_i_size_read(F()->f_inode), 4096 + 1024);
	/* The new block was a hole: delalloc, zeroed, no read. */
	SIM_ASSERT_EQ(m_extent_peek(F()->f_inode, 1), 'D');
	SIM_ASSERT_EQ(sim_word_peek(&DEV()->reads), 0);
}

Test(paths, append_extends_i_size_over_delalloc)
{
	one_page();
	run(append);
}

static void truncate_dirty(void)
{
	SIM_ASSERT_EQ(m_pwritev2(F(), 0, 8192, 0, 3, 0), 8192);
	SIM_ASSERT_EQ(STAT(NR_FILE_DIRTY), 2);
	SIM_ASSERT_EQ(km_xfs_setattr_size(F(), 1024), 0);
	/* Page 1 is gone with its dirt; page 0 is zeroed past 1024. */
	SIM_ASSERT(!m_folio_lookup(&F()->f_inode->i_data, 1));
	SIM_ASSERT_EQ(STAT(NR_FILE_DIRTY), 1);
	SIM_ASSERT_EQ(m_folio_sector(FOLIO0(), 1), 3);
	SIM_ASSERT_EQ(m_folio_sector(FOLIO0(), 2), 0);
	SIM_ASSERT_EQ(sim_word_peek(&F()->f_inode->i_data.nrpages), 1);
}

Test(paths, truncate_cancels_dirty_folios_and_zeroes_the_tail)
{
	wpsim_race_init(&T, "paths");
	T.world.files[0].size = 2 * PAGE_SIZE;
	run(truncate_dirty);
}

static void punch(void)
{
	uint32_t out[8];

	SIM_ASSERT_EQ(km_xfs_file_fallocate(F(), KM_FALLOC_FL_PUNCH_HOLE, 4096,
					    4096), 0);
	SIM_ASSERT(!m_folio_lookup(&F()->f_inode->i_data, 1));
	SIM_ASSERT_EQ(m_extent_peek(F()->f_inode, 1), 'H');
	SIM_ASSERT_EQ(m_pread(F(), 4096, 4096, out), 4096);
	SIM_ASSERT_EQ(out[0], 0);
}

Test(paths, punch_hole_drops_the_cache_and_the_blocks)
{
	wpsim_race_init(&T, "paths");
	T.world.files[0].size = 2 * PAGE_SIZE;
	T.world.files[0].cached_first = 0;
	T.world.files[0].cached_last = 1;
	run(punch);
}

static void sync_range(void)
{
	SIM_ASSERT_EQ(m_pwritev2(F(), 0, 4096, 0, 3, 0), 4096);
	SIM_ASSERT_EQ(km_sync_file_range(F(), 0, 4096,
					 KM_SYNC_FILE_RANGE_WRITE |
					 KM_SYNC_FILE_RANGE_WAIT_AFTER), 0);
	SIM_ASSERT(!m_folio_flag_peek(FOLIO0(), PG_dirty));
	SIM_ASSERT(!m_folio_flag_peek(FOLIO0(), PG_writeback));
	SIM_ASSERT_EQ(m_dev_data(DEV(), 0), 3);
}

Test(paths, sync_file_range_write_and_wait)
{
	one_page();
	run(sync_range);
}

/*
 * fs/sync.c sync_file_range, v6.18: an end past LLONG_MAX (the kernel's
 * wrapped offset + nbytes is negative) is -EINVAL, as a negative offset
 * or length is; nothing is written.  Before the fix the model computed
 * that sum as a signed overflow (undefined in C; review F4.2).
 */
static void sync_range_einval(void)
{
	SIM_ASSERT_EQ(m_pwritev2(F(), 0, 4096, 0, 3, 0), 4096);
	SIM_ASSERT_EQ(km_sync_file_range(F(), 4096, INT64_MAX,
					 KM_SYNC_FILE_RANGE_WRITE), -KM_EINVAL);
	SIM_ASSERT_EQ(km_sync_file_range(F(), -1, 4096,
					 KM_SYNC_FILE_RANGE_WRITE), -KM_EINVAL);
	SIM_ASSERT_EQ(km_sync_file_range(F(), 0, -1,
					 KM_SYNC_FILE_RANGE_WRITE), -KM_EINVAL);
	SIM_ASSERT(m_folio_flag_peek(FOLIO0(), PG_dirty));
	/* The largest end that does not wrap is accepted. */
	SIM_ASSERT_EQ(km_sync_file_range(F(), 4096, INT64_MAX - 4096,
					 KM_SYNC_FILE_RANGE_WRITE), 0);
}

Test(paths, sync_file_range_end_past_llong_max_is_einval)
{
	one_page();
	run(sync_range_einval);
}

static void nowait_needs_read(void)
{
	SIM_ASSERT_EQ(m_pwritev2(F(), 512, 512, RWF_NOWAIT, 3, 0), -KM_EAGAIN);
	/* The folio was created (and stays, clean, not uptodate). */
	SIM_ASSERT_EQ(STAT(NR_FILE_DIRTY), 0);
	SIM_ASSERT_EQ(sim_word_peek(&DEV()->reads), 0);
}

Test(paths, nowait_write_that_needs_a_read_is_eagain)
{
	one_page();
	run(nowait_needs_read);
}

static void throttled(void)
{
	SIM_ASSERT_EQ(m_pwritev2(F(), 0, 4096, 0, 3, 0), 4096);
	/* One dirty page reaches the limit: NOWAIT gets -EAGAIN. */
	SIM_ASSERT_EQ(m_pwritev2(F(), 4096, 4096, RWF_NOWAIT, 4, 0),
		      -KM_EAGAIN);
}

Test(paths, dirty_limit_makes_nowait_writers_eagain)
{
	wpsim_race_init(&T, "paths");
	T.world.files[0].size = 2 * PAGE_SIZE;
	T.world.dirty_limit_pages = 1;
	run(throttled);
}

static void store_and_unmap(void)
{
	struct km_folio *folio;

	SIM_ASSERT_EQ(m_mmap_store(F(), 0, 512, 5), 0);
	folio = FOLIO0();
	SIM_ASSERT(m_folio_flag_peek(folio, PG_dirty));
	SIM_ASSERT_EQ(sim_word_peek(&folio->pte),
		      M_PTE_PRESENT | M_PTE_WRITE | M_PTE_DIRTY);
	SIM_ASSERT_EQ(km_xfs_file_fsync(F(), 0, INT64_MAX, 0), 0);
	/* Cleaned for I/O: write-protected and clean. */
	SIM_ASSERT_EQ(sim_word_peek(&folio->pte), M_PTE_PRESENT);
	SIM_ASSERT_EQ(m_dev_data(DEV(), 0), 5);
	/* A store now faults again and redirties the folio. */
	SIM_ASSERT_EQ(m_mmap_store(F(), 512, 512, 6), 0);
	SIM_ASSERT(m_folio_flag_peek(folio, PG_dirty));
	m_munmap(F());
	SIM_ASSERT_EQ(sim_word_peek(&folio->mapcount), 0);
}

Test(paths, mmap_store_faults_dirties_and_is_write_protected_by_writeback)
{
	one_page();
	T.world.files[0].mapped_first = 0;
	T.world.files[0].mapped_last = 0;
	run(store_and_unmap);
}

static void errseq_basics(void)
{
	struct sim_word *e = &F()->f_inode->i_data.wb_err;
	struct km_file *late;

	SIM_ASSERT_EQ(km_errseq_sample(e), 0);
	km_errseq_set(e, -KM_EIO);
	SIM_ASSERT_EQ(km_errseq_check(e, 0), -KM_EIO);
	SIM_ASSERT_EQ(km_file_check_and_advance_wb_err(F()), -KM_EIO);
	SIM_ASSERT_EQ(km_file_check_and_advance_wb_err(F()), 0);
	/* A description opened after the error was seen does not see it. */
	late = m_file_open(F()->f_inode, 0);
	SIM_ASSERT_EQ(km_file_check_and_advance_wb_err(late), 0);
}

Test(errseq, seen_once_and_not_by_later_opens)
{
	one_page();
	run(errseq_basics);
}
