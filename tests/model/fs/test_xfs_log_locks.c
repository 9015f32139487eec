// SPDX-License-Identifier: MIT
/*
 * tests/model/fs/test_xfs_log_locks.c - concurrent commits and forces of
 * the XFS log on two CPUs, timed: every force returns with its sequence
 * on stable storage, and the log's locks are held where v6.18 holds
 * them (the locking rules m_xfs_log_mount states fail an execution that
 * touches a word without its lock).
 *
 * Issue 30, test strength: seed 65519's #76 (the CIL context switch in
 * two steps a commit could fall between) and seed 64153's #22 (the
 * iclog switch in two steps a forcer could fall between) survived
 * because the model had no xc_ctx_lock and no l_icloglock.  Since
 * 2026-12-06 it has both; this test fails when any of their lock/unlock
 * pairs is deleted (model/fs/xfs/xfs_log.c, xfs_log_cil.c):
 *   - km_xlog_cil_commit's km_down_read/km_up_read of xc_ctx_lock:
 *     "reads xfs.cil_seq without xfs.xc_ctx_lock held";
 *   - xlog_cil_push_work's km_down_write/km_up_write: "writes
 *     xfs.cil_seq without xfs.xc_ctx_lock held exclusive";
 *   - xlog_force_lsn's l_icloglock (its lock and both unlocks):
 *     written_seq read without it;
 *   - xlog_write_iclog's completion section: done_seq written without it.
 *
 * Kernel (v6.18): fs/xfs/xfs_log_cil.c xlog_cil_commit (down_read of
 * xc_ctx_lock), xlog_cil_push_work (down_write, xlog_cil_ctx_switch under
 * xc_push_lock), xlog_cil_push_now, xlog_cil_force_seq; fs/xfs/xfs_log.c
 * xlog_force_lsn, xlog_state_switch_iclogs (assert_spin_locked of
 * l_icloglock), xlog_state_do_callback.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "model/fs/xfs.h"
#include "model/fs/xfs_log.h"
#include "model/linux/bio.h"
#include "model/world.h"
#include "../timed-profile.h"

#define NR_TASKS	3
#define NR_FORCES	6

static struct hw_nvme_profile P;
static int r_force[NR_TASKS][NR_FORCES];
static bool stable[NR_TASKS][NR_FORCES];
static struct m_blkdev_timed_stats end_stats;
static int tasks_done;

/* A transaction on the task's inode, then fsync's force of it; after
 * the force the commit's sequence must be on stable storage. */
static void commit_and_force(void *arg)
{
	unsigned int t = (unsigned int)(uintptr_t)arg;
	struct km_inode *inode = m_world()->inodes[t];
	struct m_xfs_log *log = m_world()->xfs_log;

	for (unsigned int i = 0; i < NR_FORCES; i++) {
		uint64_t seq = km_xlog_cil_commit(inode, XFS_ILOG_CORE);

		r_force[t][i] = km_xfs_log_force_seq(
			m_xfs_inode_item_seq(inode, true), NULL);
		stable[t][i] = sim_word_peek(&log->done_seq) >= seq;
	}
	if (++tasks_done == NR_TASKS)
		m_blkdev_timed_stats(&end_stats);
}

static void setup(void *unused)
{
	struct m_world_config c;

	(void)unused;
	m_world_config_default(&c);
	c.nr_files = NR_TASKS;
	for (unsigned int f = 0; f < NR_TASKS; f++) {
		c.files[f].size = PAGE_SIZE;
		c.files[f].layout = "W";
	}
	m_world_setup(&c);
	cr_assert_eq(m_blkdev_attach_timed(&m_world()->dev, &P, 1, 7), 0);
	memset(r_force, 0xff, sizeof(r_force));
	memset(stable, 0, sizeof(stable));
	tasks_done = 0;
	for (unsigned int t = 0; t < NR_TASKS; t++)
		sim_task_spawn("t", commit_and_force, (void *)(uintptr_t)t);
}

Test(xfs_log, concurrent_forces_on_two_cpus_are_stable_and_locked)
{
	static const struct sim_program prog = { .name = "xfs-log-locks",
						 .setup = setup };
	struct sim_exec_options exec = { 0 };
	struct sim_strategy s;
	struct sim_outcome o;
	uint64_t log_writes_min = UINT64_MAX, log_writes_max = 0;

	timed_test_profile(&P);
	sim_clock_configure(&(struct sim_clock_config){
		.cpus = 2, .costs = sim_cpu_costs_default });
	/* Twelve timed schedules (ties drawn from the seed). */
	for (uint64_t seed = 1; seed <= 12; seed++) {
		sim_strategy_timed(&s, seed, 1);
		sim_exec_run(&prog, &s, &exec, &o);
		sim_strategy_fini(&s);
		cr_assert_eq(o.kind, SIM_OK, "seed %llu: %s",
			     (unsigned long long)seed, o.message);
		cr_assert_eq(tasks_done, NR_TASKS);
		for (unsigned int t = 0; t < NR_TASKS; t++)
			for (unsigned int i = 0; i < NR_FORCES; i++) {
				cr_assert_eq(r_force[t][i], 0);
				cr_assert(stable[t][i], "seed %llu: task %u's "
					  "force %u returned before its "
					  "sequence was stable",
					  (unsigned long long)seed, t, i);
			}
		if (end_stats.log_writes < log_writes_min)
			log_writes_min = end_stats.log_writes;
		if (end_stats.log_writes > log_writes_max)
			log_writes_max = end_stats.log_writes;
	}
	/* Forces share iclog writes: fewer than one per force, at least
	 * one per force of a task (each waits for its own). */
	cr_assert_geq(log_writes_min, NR_FORCES, "%llu",
		      (unsigned long long)log_writes_min);
	cr_assert_lt(log_writes_max, NR_TASKS * NR_FORCES, "%llu",
		     (unsigned long long)log_writes_max);
	cr_log_info("log writes %llu..%llu", (unsigned long long)log_writes_min,
		    (unsigned long long)log_writes_max);
}
