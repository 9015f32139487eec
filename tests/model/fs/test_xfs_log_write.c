// SPDX-License-Identifier: MIT
/*
 * tests/model/fs/test_xfs_log_write.c - log_write_ns, the XFS iclog
 * write's time beyond its device commands (session 19, h19-sync): waited
 * once per iclog write, as a sleep (no CPU), before the iclog's
 * completion is processed; the forces that wait for that iclog wait for
 * it too; at 0 nothing is charged.
 *
 * Kernel (v6.18): fs/xfs/xfs_log.c xlog_force_lsn writes the iclog
 * (xlog_sync -> xlog_write_iclog), its bio's completion queues
 * xlog_ioend_work, which processes it (xlog_state_done_syncing ->
 * xlog_state_do_callback) and wakes the iclog's waiters (ic_force_wait);
 * fs/xfs/xfs_log_cil.c xlog_cil_push_now queues the CIL push on the
 * xfs-cil work queue.  The model runs both inline and waits the figure
 * at the end of the record's write (model/fs/xfs/xfs_log.c
 * xlog_write_iclog; docs/model/xfs_log.md).
 *
 * Fails when: the m_cost_log_write() call in xlog_write_iclog is removed
 * (no extra time); the figure is charged as CPU (sim_cpu_spend: the
 * task's CPU time grows); it is charged after done_seq is advanced (a
 * force that joined another task's iclog returns 70 us before the
 * writer: a_joining_force_returns_after_the_iclogs_figure, checked by
 * moving the call, 2026-12-07); or it is charged twice.  The race test
 * (three tasks on two CPUs, eight timed schedules) checks that every
 * force still returns with its sequence stable and waited at least the
 * figure.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "model/cost.h"
#include "model/fs/xfs.h"
#include "model/fs/xfs_log.h"
#include "model/linux/bio.h"
#include "model/world.h"
#include "../timed-profile.h"

#define LOG_WRITE_NS	70000ull

static struct hw_nvme_profile P;

/* ---- One force --------------------------------------------------------- */

static uint64_t force_ns, force_cpu_ns;
static int r_force;

static void commit_and_force_once(void *arg)
{
	struct km_inode *inode = m_world()->inodes[0];
	uint64_t t0, cpu0;

	(void)arg;
	km_xlog_cil_commit(inode, XFS_ILOG_CORE);
	t0 = sim_now();
	cpu0 = sim_task_cpu_ns(sim_task_current());
	r_force = km_xfs_log_force_seq(m_xfs_inode_item_seq(inode, true),
				       NULL);
	force_ns = sim_now() - t0;
	force_cpu_ns = sim_task_cpu_ns(sim_task_current()) - cpu0;
}

static void setup_one(void *unused)
{
	struct m_world_config c;

	(void)unused;
	m_world_config_default(&c);
	c.files[0].size = PAGE_SIZE;
	c.files[0].layout = "W";
	m_world_setup(&c);
	cr_assert_eq(m_blkdev_attach_timed(&m_world()->dev, &P, 1, 7), 0);
	sim_task_spawn("t", commit_and_force_once, NULL);
}

static void run_one(uint64_t log_write_ns)
{
	static const struct sim_program prog = { .name = "xfs-log-write",
						 .setup = setup_one };
	struct m_cost_table table = m_cost_default.model;
	struct sim_outcome o;

	table.log_write_ns = log_write_ns;
	m_cost_configure(&table);
	timed_test_profile(&P);
	r_force = -1;
	timed_test_run(&prog, &o);
	m_cost_configure(&m_cost_default.model);
	cr_assert_eq(o.kind, SIM_OK, "%s", o.message);
	cr_assert_eq(r_force, 0);
}

Test(xfs_log_write, a_force_waits_log_write_ns_once_without_cpu)
{
	uint64_t ns0, cpu0;

	run_one(0);
	ns0 = force_ns;
	cpu0 = force_cpu_ns;
	cr_assert_gt(ns0, 0);
	run_one(LOG_WRITE_NS);
	/* The figure, and the sleep's own resumption (a scheduling point:
	 * the engine's resume_ns at most, sim_cpu_costs_default's 100). */
	cr_assert_geq(force_ns, ns0 + LOG_WRITE_NS,
		      "force %llu ns, without the figure %llu",
		      (unsigned long long)force_ns, (unsigned long long)ns0);
	cr_assert_leq(force_ns, ns0 + LOG_WRITE_NS +
		      sim_cpu_costs_default.resume_ns,
		      "force %llu ns, without the figure %llu",
		      (unsigned long long)force_ns, (unsigned long long)ns0);
	/* No CPU but the resumption (a figure charged as CPU would add
	 * LOG_WRITE_NS here). */
	cr_assert_leq(force_cpu_ns, cpu0 + sim_cpu_costs_default.resume_ns,
		     "CPU %llu ns, without %llu",
		     (unsigned long long)force_cpu_ns,
		     (unsigned long long)cpu0);
}

/* ---- Concurrent forces: the waiters of an iclog wait for its figure --- */

#define NR_TASKS	3
#define NR_FORCES	4

static int r_forces[NR_TASKS][NR_FORCES];
static bool stable[NR_TASKS][NR_FORCES];
static uint64_t elapsed[NR_TASKS][NR_FORCES];
static struct m_blkdev_timed_stats end_stats;
static int tasks_done;

static void commit_and_force(void *arg)
{
	unsigned int t = (unsigned int)(uintptr_t)arg;
	struct km_inode *inode = m_world()->inodes[t];
	struct m_xfs_log *log = m_world()->xfs_log;

	for (unsigned int i = 0; i < NR_FORCES; i++) {
		uint64_t seq = km_xlog_cil_commit(inode, XFS_ILOG_CORE);
		uint64_t t0 = sim_now();

		r_forces[t][i] = km_xfs_log_force_seq(
			m_xfs_inode_item_seq(inode, true), NULL);
		elapsed[t][i] = sim_now() - t0;
		stable[t][i] = sim_word_peek(&log->done_seq) >= seq;
	}
	if (++tasks_done == NR_TASKS)
		m_blkdev_timed_stats(&end_stats);
}

static void setup_many(void *unused)
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
	memset(r_forces, 0xff, sizeof(r_forces));
	memset(stable, 0, sizeof(stable));
	memset(elapsed, 0, sizeof(elapsed));
	tasks_done = 0;
	for (unsigned int t = 0; t < NR_TASKS; t++)
		sim_task_spawn("t", commit_and_force, (void *)(uintptr_t)t);
}

Test(xfs_log_write, concurrent_forces_wait_for_their_iclogs_figure)
{
	static const struct sim_program prog = { .name = "xfs-log-write-race",
						 .setup = setup_many };
	struct m_cost_table table = m_cost_default.model;
	struct sim_exec_options exec = { 0 };
	struct sim_strategy s;
	struct sim_outcome o;

	table.log_write_ns = LOG_WRITE_NS;
	timed_test_profile(&P);
	sim_clock_configure(&(struct sim_clock_config){
		.cpus = 2, .costs = sim_cpu_costs_default });
	for (uint64_t seed = 1; seed <= 8; seed++) {
		m_cost_configure(&table);
		sim_strategy_timed(&s, seed, 1);
		sim_exec_run(&prog, &s, &exec, &o);
		sim_strategy_fini(&s);
		m_cost_configure(&m_cost_default.model);
		cr_assert_eq(o.kind, SIM_OK, "seed %llu: %s",
			     (unsigned long long)seed, o.message);
		cr_assert_eq(tasks_done, NR_TASKS);
		/* Forces share iclog writes (fewer writes than forces). */
		cr_assert_lt(end_stats.log_writes, NR_TASKS * NR_FORCES,
			     "seed %llu: %llu log writes",
			     (unsigned long long)seed,
			     (unsigned long long)end_stats.log_writes);
		for (unsigned int t = 0; t < NR_TASKS; t++)
			for (unsigned int i = 0; i < NR_FORCES; i++) {
				cr_assert_eq(r_forces[t][i], 0);
				cr_assert(stable[t][i], "seed %llu: task %u "
					  "force %u returned unstable",
					  (unsigned long long)seed, t, i);
				/* Each force waited for an iclog written
				 * after its commit: its figure too, whether
				 * it wrote that iclog or joined it. */
				cr_assert_geq(elapsed[t][i], LOG_WRITE_NS,
					      "seed %llu: task %u force %u "
					      "took %llu ns",
					      (unsigned long long)seed, t, i,
					      (unsigned long long)
					      elapsed[t][i]);
			}
	}
}

/* ---- A force that joins an iclog on its way waits for its figure ------ */

static uint64_t end_ns[2];
static int r_join[2];

/* Task 0 commits and forces at once (it writes the iclog); task 1
 * commits into the same context, then forces 1 us later: its sequence
 * is already in the iclog being written, so it waits for that iclog
 * (xlog_wait_on_iclog) and must not return before the iclog's figure
 * has passed. */
static void commit_then_force(void *arg)
{
	unsigned int t = (unsigned int)(uintptr_t)arg;
	struct km_inode *inode = m_world()->inodes[t];

	km_xlog_cil_commit(inode, XFS_ILOG_CORE);
	if (t)
		sim_sleep_ns(1000);
	r_join[t] = km_xfs_log_force_seq(m_xfs_inode_item_seq(inode, true),
					 NULL);
	end_ns[t] = sim_now();
}

static void setup_join(void *unused)
{
	struct m_world_config c;

	(void)unused;
	m_world_config_default(&c);
	c.nr_files = 2;
	for (unsigned int f = 0; f < 2; f++) {
		c.files[f].size = PAGE_SIZE;
		c.files[f].layout = "W";
	}
	m_world_setup(&c);
	cr_assert_eq(m_blkdev_attach_timed(&m_world()->dev, &P, 1, 7), 0);
	memset(r_join, 0xff, sizeof(r_join));
	for (unsigned int t = 0; t < 2; t++)
		sim_task_spawn("t", commit_then_force, (void *)(uintptr_t)t);
}

Test(xfs_log_write, a_joining_force_returns_after_the_iclogs_figure)
{
	static const struct sim_program prog = { .name = "xfs-log-write-join",
						 .setup = setup_join };
	struct m_cost_table table = m_cost_default.model;
	struct sim_exec_options exec = { 0 };
	struct sim_strategy s;
	struct sim_outcome o;
	struct m_blkdev_timed_stats st;

	table.log_write_ns = LOG_WRITE_NS;
	m_cost_configure(&table);
	timed_test_profile(&P);
	sim_clock_configure(&(struct sim_clock_config){
		.cpus = 2, .costs = sim_cpu_costs_default });
	sim_strategy_timed(&s, 1, 1);
	sim_exec_run(&prog, &s, &exec, &o);
	sim_strategy_fini(&s);
	m_cost_configure(&m_cost_default.model);
	m_blkdev_timed_stats(&st);
	cr_assert_eq(o.kind, SIM_OK, "%s", o.message);
	cr_assert_eq(r_join[0], 0);
	cr_assert_eq(r_join[1], 0);
	/* One iclog write served both. */
	cr_assert_eq(st.log_writes, 1, "%llu log writes",
		     (unsigned long long)st.log_writes);
	/* The joiner wakes when the writer has processed the completion,
	 * after the figure: not LOG_WRITE_NS before the writer returns. */
	cr_assert_geq(end_ns[1] + sim_cpu_costs_default.resume_ns +
		      sim_cpu_costs_default.wake_ns, end_ns[0],
		      "joiner returned at %llu ns, the writer at %llu",
		      (unsigned long long)end_ns[1],
		      (unsigned long long)end_ns[0]);
}
