// SPDX-License-Identifier: MIT
/*
 * tests/model/fs/test_flusher_expire.c - the periodic flusher on the
 * timed device writes a page back once it has been dirty for
 * dirty_expire_interval (30 s), looking every dirty_writeback_interval
 * (5 s): not before, and not a period later.
 *
 * Issue 30, test strength: the timed flusher's arithmetic
 * (m_wb_periodic_flusher, model/fs/fs-writeback.c: the dirty count's
 * test, the start of the dirty time, the expiry test) was executed by no
 * quick test, so its mutants (a negated test, `>=` made `>`) could only
 * survive.
 *
 * Kernel (v6.18, dirty_expire_centisecs 3000, dirty_writeback_centisecs
 * 500): fs/fs-writeback.c __mark_inode_dirty sets the inode's
 * dirtied_when at its first dirtying and wb_wakeup_delayed queues the
 * flusher 5 s later; wb_workfn -> wb_do_writeback ->
 * wb_check_old_data_flush runs every 5 s while there is dirty data and
 * writes (wb_writeback, for_kupdate) the inodes dirtied at or before
 * now - 30 s.  A page dirtied at 12 s is written at the 42 s look: dirty
 * at 40 s, clean by 46 s.  The model measures the 30 s from the first
 * look that saw the page dirty (15 s; m_wb_periodic_flusher's
 * Divergences): it writes at 45 s, inside the same window.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "model/linux/bio.h"
#include "model/linux/syscalls.h"
#include "model/linux/writeback.h"
#include "model/world.h"
#include "../timed-profile.h"

#define SEC	1000000000ull

static struct hw_nvme_profile P;
static struct sim_word alive;
static long r_write;
static uint64_t dirty_at[3];	/* NR_FILE_DIRTY at 11 s, 40 s, 46 s */

static void flusher(void *arg)
{
	(void)arg;
	m_wb_periodic_flusher(&alive);
}

static void writer(void *arg)
{
	(void)arg;
	sim_sleep_ns(12 * SEC);
	r_write = m_syscall(M_SYS_PWRITE64, &(struct m_sys_args){
		.file = m_world()->files[0], .pos = 0, .len = PAGE_SIZE,
		.data_id = 5 });
}

static void checker(void *arg)
{
	struct m_world *w = m_world();

	(void)arg;
	sim_sleep_ns(11 * SEC);
	dirty_at[0] = sim_word_read(&w->node.stat[NR_FILE_DIRTY]);
	sim_sleep_ns(29 * SEC);
	dirty_at[1] = sim_word_read(&w->node.stat[NR_FILE_DIRTY]);
	sim_sleep_ns(6 * SEC);
	dirty_at[2] = sim_word_read(&w->node.stat[NR_FILE_DIRTY]);
	sim_word_write(&alive, 0);
}

static void setup(void *unused)
{
	struct m_world_config c;

	(void)unused;
	m_world_config_default(&c);
	m_world_setup(&c);
	cr_assert_eq(m_blkdev_attach_timed(&m_world()->dev, &P, 1, 7), 0);
	sim_word_init(&alive, 1, "alive");
	sim_task_spawn("flusher", flusher, NULL);
	sim_task_spawn("writer", writer, NULL);
	sim_task_spawn("checker", checker, NULL);
}

Test(flusher, writes_a_page_back_once_it_expired)
{
	static const struct sim_program prog = { .name = "flusher-expire",
						 .setup = setup };
	struct sim_outcome o;

	timed_test_profile(&P);
	timed_test_run(&prog, &o);
	cr_assert_eq(o.kind, SIM_OK, "%s", o.message);

	cr_assert_eq(r_write, PAGE_SIZE);
	cr_assert_eq(dirty_at[0], 0, "dirty pages at 11 s: %llu",
		     (unsigned long long)dirty_at[0]);
	cr_assert_eq(dirty_at[1], 1, "dirty pages at 40 s (dirtied at 12 s, "
		     "not yet 30 s old): %llu",
		     (unsigned long long)dirty_at[1]);
	cr_assert_eq(dirty_at[2], 0, "dirty pages at 46 s (30 s old at "
		     "42 s): %llu", (unsigned long long)dirty_at[2]);
}
