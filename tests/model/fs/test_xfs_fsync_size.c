// SPDX-License-Identifier: MIT
/*
 * tests/model/fs/test_xfs_fsync_size.c - fdatasync after a size change
 * on the timed device writes the XFS log; with nothing new logged it
 * only flushes the device's cache.
 *
 * Issue 30, test strength: seed 5051's mutant that negates the
 * `if (!log)` of m_xfs_log_size_change (model/fs/xfs/xfs_inode_item.c)
 * survived the quick suite: no test counted the log writes of an
 * fdatasync after i_size moved (the mutant never commits the size, so
 * fdatasync finds the inode unpinned and only flushes).
 *
 * Kernel (v6.18): fs/xfs/xfs_iops.c xfs_setattr_size logs the new size
 * (xfs_trans_log_inode, XFS_ILOG_CORE) in the truncate transaction;
 * fs/xfs/xfs_inode_item.c xfs_inode_item_committing records the
 * checkpoint in ili_datasync_seq for a change that is not only
 * timestamps; fs/xfs/xfs_file.c xfs_file_fsync -> xfs_fsync_flush_log
 * forces that sequence (one iclog write, which flushes and FUAs: no
 * separate blkdev_issue_flush); a second fdatasync finds the item
 * unpinned (ili_datasync_seq 0) and only issues the cache flush.  The
 * model logs the size at the fsync (m_xfs_log_size_change, its stand-in
 * for the size transaction: docs/model/xfs_log.md).
 *
 * Issue 28: every inode has its log item (struct km_inode's i_itemp,
 * the kernel's ip->i_itemp of fs/xfs/xfs_inode_item.c, v6.18), not only
 * inodes 1..16: the same truncate and two fdatasyncs on inode 17 of a
 * world of 17 files (a file_table) write the log as on inode 1.  Before
 * the item moved into the inode, inode 17's first fdatasync wrote no
 * log (0 log writes, one empty flush).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "model/fs/xfs.h"
#include "model/fs/xfs_log.h"
#include "model/linux/bio.h"
#include "model/linux/syscalls.h"
#include "model/world.h"
#include "../timed-profile.h"

static struct hw_nvme_profile P;
static unsigned int the_file;		/* the file truncated and synced */
static unsigned int nr_files = 1;	/* > M_FILES_MAX: a file_table */
static struct m_file_config table[M_FILES_MAX + 1];
static long r_truncate;
static int r_sync[2];
static struct m_blkdev_timed_stats after[2];

static void truncate_up_then_fdatasync(void *arg)
{
	struct km_file *file = m_world()->files[the_file];

	(void)arg;
	cr_assert_eq(file->f_inode->i_ino, the_file + 1);
	r_truncate = m_syscall(M_SYS_FTRUNCATE, &(struct m_sys_args){
		.file = file, .pos = 4 * PAGE_SIZE });
	r_sync[0] = km_xfs_file_fsync(file, 0, -1, 1);
	m_blkdev_timed_stats(&after[0]);
	r_sync[1] = km_xfs_file_fsync(file, 0, -1, 1);
	m_blkdev_timed_stats(&after[1]);
}

static void setup(void *unused)
{
	struct m_world_config c;

	(void)unused;
	m_world_config_default(&c);
	c.files[0].size = 2 * PAGE_SIZE;
	c.files[0].layout = "WW";
	if (nr_files > 1) {
		for (unsigned int f = 0; f < nr_files; f++)
			table[f] = c.files[0];
		c.file_table = table;
		c.nr_files = nr_files;
	}
	m_world_setup(&c);
	cr_assert_eq(m_blkdev_attach_timed(&m_world()->dev, &P, 1, 7), 0);
	sim_task_spawn("t", truncate_up_then_fdatasync, NULL);
}

static void truncate_and_check(unsigned int files, unsigned int file);

Test(xfs_fsync, fdatasync_after_truncate_up_writes_the_log_once)
{
	truncate_and_check(1, 0);
}

/* Inode 17 of 17 (beyond the 16 a config holds inline): the same. */
Test(xfs_fsync, fdatasync_on_inode_17_writes_the_log_as_inode_1)
{
	truncate_and_check(M_FILES_MAX + 1, M_FILES_MAX);
}

static void truncate_and_check(unsigned int files, unsigned int file)
{
	static const struct sim_program prog = { .name = "xfs-fsync-size",
						 .setup = setup };
	struct sim_outcome o;

	nr_files = files;
	the_file = file;
	timed_test_profile(&P);
	timed_test_run(&prog, &o);
	cr_assert_eq(o.kind, SIM_OK, "%s", o.message);

	cr_assert_eq(r_truncate, 0);
	cr_assert_eq(r_sync[0], 0);
	cr_assert_eq(r_sync[1], 0);
	/* The first fdatasync forces the size's checkpoint: one iclog
	 * write, no separate flush. */
	cr_assert_eq(after[0].log_writes, 1, "%llu log writes",
		     (unsigned long long)after[0].log_writes);
	cr_assert_eq(after[0].empty_flush_bios, 0, "%llu empty flushes",
		     (unsigned long long)after[0].empty_flush_bios);
	/* The second: nothing pinned, the cache flush only. */
	cr_assert_eq(after[1].log_writes, 1, "%llu log writes",
		     (unsigned long long)after[1].log_writes);
	cr_assert_eq(after[1].empty_flush_bios, 1, "%llu empty flushes",
		     (unsigned long long)after[1].empty_flush_bios);
}
