// SPDX-License-Identifier: MIT
/*
 * tests/model/fs/test_syncfs.c - syncfs(2) on the timed device (issue
 * 28 B2.4, session 20): every file of the file system is written back
 * and waited on, not only the fd's, and the log is forced; a second
 * syncfs with nothing dirty costs no I/O.
 *
 * Kernel (v6.18): fs/sync.c SYSCALL_DEFINE1(syncfs) -> sync_filesystem:
 * writeback_inodes_sb (WB_SYNC_NONE), ->sync_fs(sb, 0),
 * sync_blockdev_nowait, sync_inodes_sb (WB_SYNC_ALL, then
 * wait_sb_inodes), ->sync_fs(sb, 1) (fs/xfs/xfs_super.c
 * xfs_fs_sync_fs: xfs_log_force(mp, XFS_LOG_SYNC)), sync_blockdev.
 * Model: model/fs/sync.c km_sys_syncfs, model/fs/fs-writeback.c
 * km_writeback_inodes_sb / km_sync_inodes_sb, model/fs/xfs/xfs_super.c,
 * model/fs/xfs/xfs_log.c km_xfs_log_force.
 *
 * Fails when: the superblock walk writes back only the fd's file (the
 * other file stays dirty); ->sync_fs(sb, 1) is not called or
 * km_xfs_log_force forces nothing (the size changes stay in the CIL:
 * no log write, the inode items still pinned; checked by dropping the
 * call, 2026-12-07); wait_sb_inodes is left out (folios still under
 * writeback when syncfs returns; checked the same way); the empty-log
 * case writes an iclog (the second syncfs adds bios).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "model/fs/xfs.h"
#include "model/fs/xfs_log.h"
#include "model/linux/bio.h"
#include "model/linux/pagemap.h"
#include "model/linux/syscalls.h"
#include "model/linux/writeback.h"
#include "model/world.h"
#include "../timed-profile.h"

#define NR_FILES	2

static struct hw_nvme_profile P;
static long r_write[NR_FILES], r_sync[2];
static bool tagged[2][NR_FILES], pinned[NR_FILES];
static struct m_blkdev_timed_stats before, after_first, after_second;
static bool done;

static long syncfs_of(struct km_file *file)
{
	return m_syscall(M_SYS_SYNCFS, &(struct m_sys_args){ .file = file });
}

/* What syncfs must have left: no file dirty or under writeback. */
static void look(unsigned int k)
{
	for (unsigned int f = 0; f < NR_FILES; f++) {
		struct km_address_space *mapping =
			km_inode_mapping(m_world()->inodes[f]);

		tagged[k][f] = km_mapping_tagged(mapping, PAGECACHE_TAG_DIRTY) ||
			       km_mapping_tagged(mapping,
						 PAGECACHE_TAG_WRITEBACK);
	}
}

/* Each file grows by a page (a size change for the log at writeback),
 * then one syncfs through file 0, then another. */
static void writer(void *arg)
{
	(void)arg;
	for (unsigned int f = 0; f < NR_FILES; f++)
		r_write[f] = m_pwritev2(m_world()->files[f], PAGE_SIZE,
					PAGE_SIZE, 0, 10 + f, 0);
	m_blkdev_timed_stats(&before);
	r_sync[0] = syncfs_of(m_world()->files[0]);
	look(0);
	for (unsigned int f = 0; f < NR_FILES; f++)
		pinned[f] = m_xfs_inode_item_seq(m_world()->inodes[f],
						 false) != 0;
	m_blkdev_timed_stats(&after_first);
	r_sync[1] = syncfs_of(m_world()->files[0]);
	look(1);
	m_blkdev_timed_stats(&after_second);
	done = true;
}

/* The flusher's pass over file 1 while the writer's syncfs runs. */
static void flusher(void *arg)
{
	(void)arg;
	for (unsigned int i = 0; i < 4 && !done; i++) {
		sim_sleep_ns(5000);
		m_writeback_inode(m_world()->inodes[1], WB_SYNC_NONE);
	}
}

static bool with_flusher;

static void setup(void *unused)
{
	struct m_world_config c;

	(void)unused;
	m_world_config_default(&c);
	c.nr_files = NR_FILES;
	for (unsigned int f = 0; f < NR_FILES; f++) {
		c.files[f].size = PAGE_SIZE;
		c.files[f].layout = "WH";
	}
	m_world_setup(&c);
	cr_assert_eq(m_blkdev_attach_timed(&m_world()->dev, &P, 1, 7), 0);
	memset(r_write, 0xff, sizeof(r_write));
	memset(r_sync, 0xff, sizeof(r_sync));
	memset(tagged, 1, sizeof(tagged));
	memset(pinned, 1, sizeof(pinned));
	done = false;
	sim_task_spawn("w", writer, NULL);
	if (with_flusher)
		sim_task_spawn("flush", flusher, NULL);
}

static void check(const char *what)
{
	for (unsigned int f = 0; f < NR_FILES; f++) {
		cr_assert_eq(r_write[f], PAGE_SIZE, "%s", what);
		cr_assert_not(tagged[0][f], "%s: file %u dirty or under "
			      "writeback after syncfs", what, f);
		cr_assert_not(pinned[f], "%s: file %u's size change not "
			      "stable after syncfs", what, f);
		cr_assert_not(tagged[1][f], "%s", what);
	}
	cr_assert_eq(r_sync[0], 0, "%s", what);
	cr_assert_eq(r_sync[1], 0, "%s", what);
	/* The log was forced: an iclog write (PREFLUSH | FUA). */
	cr_assert_gt(after_first.log_writes, before.log_writes, "%s", what);
	/* Nothing dirty, nothing in the CIL: no I/O at all. */
	cr_assert_eq(after_second.bios, after_first.bios, "%s: %llu bios "
		     "from a syncfs of a clean file system", what,
		     (unsigned long long)(after_second.bios -
					  after_first.bios));
}

Test(syncfs, writes_every_file_of_the_file_system_and_forces_the_log)
{
	static const struct sim_program prog = { .name = "syncfs",
						 .setup = setup };
	struct sim_outcome o;

	timed_test_profile(&P);
	with_flusher = false;
	timed_test_run(&prog, &o);
	cr_assert_eq(o.kind, SIM_OK, "%s", o.message);
	check("one task");
	/* The data writes of both files (the fd's and the other). */
	cr_assert_geq(after_first.write_bios - before.write_bios,
		      NR_FILES + after_first.log_writes - before.log_writes);
}

Test(syncfs, waits_for_writeback_the_flusher_started)
{
	static const struct sim_program prog = { .name = "syncfs-flusher",
						 .setup = setup };
	struct sim_exec_options exec = { 0 };
	struct sim_strategy s;
	struct sim_outcome o;

	timed_test_profile(&P);
	with_flusher = true;
	sim_clock_configure(&(struct sim_clock_config){
		.cpus = 2, .costs = sim_cpu_costs_default });
	for (uint64_t seed = 1; seed <= 8; seed++) {
		char what[32];

		snprintf(what, sizeof(what), "seed %llu",
			 (unsigned long long)seed);
		sim_strategy_timed(&s, seed, 1);
		sim_exec_run(&prog, &s, &exec, &o);
		sim_strategy_fini(&s);
		cr_assert_eq(o.kind, SIM_OK, "%s: %s", what, o.message);
		check(what);
	}
}
