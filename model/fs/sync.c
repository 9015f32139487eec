// SPDX-License-Identifier: MIT
/*
 * model/fs/sync.c - fsync(2), fdatasync(2) and sync_file_range(2): the
 * VFS half, which reaches the filesystem's ->fsync through file->f_op,
 * and sync_file_range, which works on the page cache alone.
 *
 * Models fs/sync.c of v6.18: do_fsync -> vfs_fsync -> vfs_fsync_range,
 * ksys_sync_file_range -> sync_file_range, and syncfs(2) ->
 * sync_filesystem (session 20: the writeback of the superblock's inodes,
 * WB_SYNC_NONE then WB_SYNC_ALL, the file system's ->sync_fs around
 * them, and the device's page cache).
 *
 * Leaves out: file descriptors (-EBADF), I_DIRTY_TIME (the model keeps
 * no lazy timestamps: mark_inode_dirty_sync is never needed), sync(2)
 * (iterate_supers, sync_bdevs: the model has one file system a world
 * and no front end issues it), s_umount (nothing remounts or freezes),
 * the 32-bit pgoff_t clamp and S_ISREG checks (every model file is
 * regular).
 */
#include <limits.h>

#include "model/block/fops.h"
#include "model/linux/pagemap.h"
#include "model/linux/syscalls.h"
#include "model/linux/writeback.h"
#include "model/world.h"

/**
 * km_vfs_fsync_range - fsync (or fdatasync) [@start, @end] of @file.
 * Kernel: fs/sync.c vfs_fsync_range, v6.18.
 * Context: task; the filesystem's ->fsync takes its locks and waits.
 * Return: 0 or -errno (the filesystem's).
 * Divergences: no I_DIRTY_TIME step (see the file); a filesystem whose
 * ->fsync the model lacks (ext4) is a model bound, not the kernel's
 * -EINVAL for a file without one.
 */
int km_vfs_fsync_range(struct km_file *file, loff_t start, loff_t end,
		       int datasync)
{
	if (!file->f_op->fsync)
		return (int)m_vfs_not_modelled(file->f_op->name, "fsync");
	return file->f_op->fsync(file, start, end, datasync);
}

/**
 * km_vfs_fsync - fsync the whole file.
 * Kernel: fs/sync.c vfs_fsync, v6.18.
 * Context: task.
 * Return: as km_vfs_fsync_range.
 */
int km_vfs_fsync(struct km_file *file, int datasync)
{
	return km_vfs_fsync_range(file, 0, LLONG_MAX, datasync);
}

/**
 * km_do_fsync - fsync(2) (@datasync 0) or fdatasync(2) (1).
 * Kernel: fs/sync.c do_fsync, v6.18.
 * Context: task (the entry cost is m_syscall's).
 * Return: as km_vfs_fsync.
 * Divergences: the file stands for the fd (no -EBADF).
 */
int km_do_fsync(struct km_file *file, int datasync)
{
	return km_vfs_fsync(file, datasync);
}

/**
 * km_sync_file_range - write and/or wait on a range of the page cache.
 * Kernel: fs/sync.c sync_file_range, v6.18.
 * Context: task; waits on writeback.
 * Return: 0 or -errno (-EINVAL for unknown flags or a bad range; the
 * write's error; a wait's writeback error).
 * SYNC_FILE_RANGE_WRITE writes with WB_SYNC_NONE (a folio under
 * writeback is skipped, not waited for), and with WB_SYNC_ALL only when
 * WAIT_BEFORE and WAIT_AFTER are both asked for
 * (SYNC_FILE_RANGE_WRITE_AND_WAIT), as the kernel does (class AC of
 * docs/model/fidelity.md: WRITE|WAIT_AFTER was WB_SYNC_ALL here, which
 * waited for a folio redirtied under writeback and wrote it again).
 * @nbytes 0 is "to the end" (endbyte -1 for the model's writeback range).
 *
 * Each wait is file_fdatawait_range: it reports a writeback error not
 * yet seen through this file and advances the file's sample (and clears
 * AS_EIO / AS_ENOSPC), so a later fsync of the same file does not report
 * it again; an error of the wait before the write ends the call there.
 */
int km_sync_file_range(struct km_file *file, loff_t offset, loff_t nbytes,
		       unsigned int flags)
{
	struct km_address_space *mapping = km_inode_mapping(file->f_inode);
	loff_t endbyte;
	int ret;

	ret = -KM_EINVAL;
	if (flags & ~(unsigned int)(KM_SYNC_FILE_RANGE_WAIT_BEFORE |
				    KM_SYNC_FILE_RANGE_WRITE |
				    KM_SYNC_FILE_RANGE_WAIT_AFTER))
		goto out;
	/*
	 * The kernel computes offset + nbytes with wrapping arithmetic and
	 * rejects a negative end; in C that sum may not overflow, so the
	 * same case is tested before it (offset, nbytes >= 0 here).
	 */
	if (offset < 0 || nbytes < 0 || nbytes > INT64_MAX - offset)
		goto out;
	endbyte = nbytes ? offset + nbytes - 1 : -1;

	ret = 0;
	if (flags & KM_SYNC_FILE_RANGE_WAIT_BEFORE) {
		ret = km_file_fdatawait_range(file, offset, endbyte);
		if (ret < 0)
			goto out;
	}
	if (flags & KM_SYNC_FILE_RANGE_WRITE) {
		struct km_writeback_control wbc = {
			/* SYNC_FILE_RANGE_WRITE_AND_WAIT: WB_SYNC_ALL. */
			.sync_mode = (flags & (KM_SYNC_FILE_RANGE_WAIT_BEFORE |
					       KM_SYNC_FILE_RANGE_WAIT_AFTER)) ==
				     (KM_SYNC_FILE_RANGE_WAIT_BEFORE |
				      KM_SYNC_FILE_RANGE_WAIT_AFTER) ?
				     WB_SYNC_ALL : WB_SYNC_NONE,
			.nr_to_write = 1L << 30,
			.range_start = offset,
			.range_end = endbyte,
		};

		ret = km_filemap_fdatawrite_wbc(mapping, &wbc);
		if (ret < 0)
			goto out;
	}
	if (flags & KM_SYNC_FILE_RANGE_WAIT_AFTER)
		ret = km_file_fdatawait_range(file, offset, endbyte);
out:
	return ret;
}

/**
 * km_ksys_sync_file_range - sync_file_range(2).
 * Kernel: fs/sync.c ksys_sync_file_range, v6.18.
 * Context: task (the entry cost is m_syscall's).
 * Return: as km_sync_file_range.
 * Divergences: the file stands for the fd (no -EBADF).
 */
int km_ksys_sync_file_range(struct km_file *file, loff_t offset,
			    loff_t nbytes, unsigned int flags)
{
	return km_sync_file_range(file, offset, nbytes, flags);
}

/**
 * km_sync_filesystem - write out and wait on a file system's dirty data
 * and make its metadata stable.
 * Kernel: fs/sync.c sync_filesystem, v6.18.
 * Context: task; waits for writeback, the log or journal, the device.
 * Return: 0, ->sync_fs's error, or sync_blockdev's.
 * @sb: the superblock, named by one of its inodes (the model has no
 * struct super_block: its inodes are those with @sb's i_fop, its
 * operations the file operations' s_op, its device the world's).
 * The steps, in the kernel's order: writeback_inodes_sb (WB_SYNC_NONE:
 * start writeback of every dirty inode), ->sync_fs(sb, 0),
 * sync_blockdev_nowait, sync_inodes_sb (WB_SYNC_ALL, and wait for all
 * writeback), ->sync_fs(sb, 1) (XFS: a synchronous log force,
 * model/fs/xfs/xfs_super.c), sync_blockdev.
 * Divergences: no s_umount (see the file) and no sb_rdonly test (the
 * model's file systems are read-write); a file system without ->sync_fs
 * in the model (ext4: its journal commit, ext4_sync_fs, is not modelled)
 * is a model bound (m_vfs_not_modelled), not the kernel's skip of a
 * NULL ->sync_fs; the device's page cache is the world's bdev inode's
 * (NULL until a front end opens the device: nothing to write).
 */
int km_sync_filesystem(struct km_inode *sb)
{
	const struct km_super_operations *sop = sb->i_fop->s_op;
	struct km_inode *bd_inode = m_world()->bdev_inode;
	int ret;

	if (!sop || !sop->sync_fs)
		return (int)m_vfs_not_modelled(sb->i_fop->name, "sync_fs");
	km_writeback_inodes_sb(sb);
	ret = sop->sync_fs(0);
	if (ret)
		return ret;
	ret = km_sync_blockdev_nowait(bd_inode);
	if (ret)
		return ret;
	km_sync_inodes_sb(sb);
	ret = sop->sync_fs(1);
	if (ret)
		return ret;
	return km_sync_blockdev(bd_inode);
}

/**
 * km_sys_syncfs - syncfs(2): sync the file system @file is on.
 * Kernel: fs/sync.c SYSCALL_DEFINE1(syncfs), v6.18.
 * Context: task (the entry cost is m_syscall's).
 * Return: sync_filesystem's error, else 0.
 * Divergences: the file stands for the fd (no -EBADF); no s_umount
 * taken around sync_filesystem (see the file); no
 * errseq_check_and_advance of sb->s_wb_err against f_sb_err (the model
 * keeps writeback errors per mapping only: a write error of any file of
 * the file system, which the kernel's syncfs reports once per open file
 * description, is not reported here; the file's own fsync still reports
 * it).
 */
int km_sys_syncfs(struct km_file *file)
{
	return km_sync_filesystem(file->f_inode);
}
