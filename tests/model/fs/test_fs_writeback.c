// SPDX-License-Identifier: MIT
/*
 * tests/model/fs/test_fs_writeback.c - model/fs/fs-writeback.c's
 * per-inode pass (m_writeback_inode: writeback_single_inode ->
 * __writeback_single_inode) and its I_SYNC rules, one task (issue 30,
 * test strength: three of four seeds' real gaps in fs-writeback.c were
 * its I_SYNC wait and its counters, at a rate of 31 a hundred mutants
 * drawn there, the highest of any file; docs/reliability.md, seed
 * 65519's section).
 *
 * Kernel: fs/fs-writeback.c writeback_single_inode,
 * __writeback_single_inode, inode_sync_complete, v6.18: under i_lock,
 * an inode whose writeback is under way (I_SYNC) makes a WB_SYNC_NONE
 * pass return 0 at once (WB_SYNC_ALL waits for it: the scenario
 * review/sync-all-waits-for-i-sync); otherwise I_SYNC is set for the
 * pass, do_writepages runs, a WB_SYNC_ALL pass waits for the writeback
 * and returns filemap_fdatawait's error, and I_SYNC is cleared after.
 */
#include <criterion/criterion.h>

#include "wpsim/harness.h"
#include "model/linux/pagemap.h"
#include "model/linux/writeback.h"

static struct wpsim_race T;

static struct km_inode *I(void)
{
	return m_world()->inodes[0];
}

static bool flag(pgoff_t i, int bit)
{
	struct km_folio *folio = m_folio_lookup(&I()->i_data, i);

	return folio && m_folio_flag_peek(folio, bit);
}

static int wb_ret[3];
static bool wb_dirty[3][2], wb_writeback[3][2], wb_isync[3];

static void snap(int k)
{
	for (pgoff_t i = 0; i < 2; i++) {
		wb_dirty[k][i] = flag(i, PG_dirty);
		wb_writeback[k][i] = flag(i, PG_writeback);
	}
	wb_isync[k] = sim_word_peek(&I()->i_state) & I_SYNC;
}

/*
 * Two dirty pages.
 *   1. I_SYNC set (another pass's writeback under way, as a flusher's
 *      would be), a WB_SYNC_NONE pass: 0 at once, nothing written,
 *      I_SYNC still set (the other pass clears it).
 *   2. I_SYNC cleared, a WB_SYNC_NONE pass: both pages written (clean,
 *      their writeback started or done), I_SYNC clear after it.
 *   3. A WB_SYNC_ALL pass: 0, and it returns with no page under
 *      writeback (filemap_fdatawait).
 */
static void pass_task(void *arg)
{
	struct km_inode *inode = I();

	(void)arg;
	sim_spin_lock(&inode->i_lock);
	sim_word_write(&inode->i_state,
		       sim_word_read(&inode->i_state) | I_SYNC);
	sim_spin_unlock(&inode->i_lock);
	wb_ret[0] = m_writeback_inode(inode, WB_SYNC_NONE);
	snap(0);
	sim_spin_lock(&inode->i_lock);
	sim_bit_clear_and_wake(&inode->i_state, __I_SYNC, &inode->sync_wait);
	sim_spin_unlock(&inode->i_lock);
	wb_ret[1] = m_writeback_inode(inode, WB_SYNC_NONE);
	snap(1);
	wb_ret[2] = m_writeback_inode(inode, WB_SYNC_ALL);
	snap(2);
}

Test(fs_writeback, sync_none_pass_skips_an_inode_under_i_sync)
{
	wpsim_race_init(&T, "writeback-inode-i-sync");
	T.world.files[0].size = 8192;
	T.world.files[0].layout = "WW";
	T.world.files[0].cached_first = 0;
	T.world.files[0].cached_last = 1;
	T.world.files[0].dirty_first = 0;
	T.world.files[0].dirty_last = 1;
	wpsim_race_task(&T, "P0", pass_task, NULL);
	WPSIM_ASSERT_RUN_ONCE(&T);
	cr_expect_eq(wb_ret[0], 0);
	cr_expect(wb_dirty[0][0] && wb_dirty[0][1],
		  "a WB_SYNC_NONE pass wrote an inode under I_SYNC");
	cr_expect(wb_isync[0], "I_SYNC cleared by a pass that skipped");
	cr_expect_eq(wb_ret[1], 0);
	cr_expect(!wb_dirty[1][0] && !wb_dirty[1][1],
		  "the pass without I_SYNC left a page dirty");
	cr_expect(!wb_isync[1], "I_SYNC left set after the pass");
	cr_expect_eq(wb_ret[2], 0);
	cr_expect(!wb_writeback[2][0] && !wb_writeback[2][1],
		  "WB_SYNC_ALL returned with a page under writeback");
	cr_expect(!wb_dirty[2][0] && !wb_dirty[2][1] && !wb_isync[2]);
}
