// SPDX-License-Identifier: MIT
/*
 * model/fs/open.c - truncate and fallocate, the VFS half: ftruncate(2)
 * (do_sys_ftruncate -> do_ftruncate -> do_truncate, which reaches the
 * filesystem's ->setattr through inode->i_op) and fallocate(2)
 * (ksys_fallocate -> vfs_fallocate -> file->f_op->fallocate).
 *
 * And close(2): filp_close -> fput -> __fput (fs/file_table.c) ->
 * dput -> iput, the inode evicted when it has no link and no open file
 * left (model/fs/inode.c).
 *
 * Models fs/open.c of v6.18.
 *
 * Leaves out: file descriptors (-EBADF), f_mode (every model file is
 * writable), append-only and immutable inodes, swap files, security
 * and fsnotify hooks, suid stripping (dentry_needs_remove_privs: the
 * model has no modes), sb_start_write (no freezing), s_maxbytes (the
 * model's bound on a file is its --max-pages, checked by the front
 * ends), truncate(2) by path, the fallocate modes the model has not
 * (ZERO_RANGE, COLLAPSE_RANGE, INSERT_RANGE, UNSHARE_RANGE,
 * WRITE_ZEROES: -EOPNOTSUPP as for a filesystem without them).
 */
#include "model/linux/syscalls.h"

/**
 * km_do_truncate - set the size of @filp's inode to @length.
 * Kernel: fs/open.c do_truncate, v6.18 (ATTR_SIZE | ATTR_MTIME |
 * ATTR_CTIME | ATTR_FILE to notify_change -> i_op->setattr).
 * Context: task; the filesystem's ->setattr takes the inode lock.
 * Return: 0 or -errno.
 * Divergences: inode_lock is taken inside the model's ->setattr_size
 * (km_xfs_setattr_size), not here around notify_change; no
 * notify_change checks (times, privileges); a filesystem without
 * ->setattr_size in the model (ext4) is a model bound.
 */
int km_do_truncate(struct km_file *filp, loff_t length)
{
	const struct km_inode_operations *iop = filp->f_inode->i_op;

	if (length < 0)
		return -KM_EINVAL;
	if (!iop->setattr_size)
		return (int)m_vfs_not_modelled(iop->name, "setattr");
	return iop->setattr_size(filp, length);
}

/**
 * km_do_sys_ftruncate - ftruncate(2) of @file to @length.
 * Kernel: fs/open.c do_sys_ftruncate -> do_ftruncate, v6.18.
 * Context: task (the entry cost is m_syscall's).
 * Return: 0 or -errno (-EINVAL for a negative @length).
 * Divergences: the file stands for the fd; see the file's "Leaves out".
 */
long km_do_sys_ftruncate(struct km_file *file, loff_t length)
{
	if (length < 0)
		return -KM_EINVAL;
	return km_do_truncate(file, length);
}

/**
 * km_vfs_fallocate - allocate or punch [@offset, @offset + @len).
 * Kernel: fs/open.c vfs_fallocate, v6.18.
 * Context: task; the filesystem's ->fallocate takes its locks.
 * Return: 0 or -errno: -EINVAL for a negative @offset or @len <= 0;
 * -EOPNOTSUPP for a mode the model has not, or PUNCH_HOLE without
 * KEEP_SIZE; -EFBIG when the end overflows.
 * Divergences: see the file's "Leaves out"; a filesystem without
 * ->fallocate in the model (ext4) is a model bound, not -EOPNOTSUPP.
 */
int km_vfs_fallocate(struct km_file *file, int mode, loff_t offset,
		     loff_t len)
{
	if (offset < 0 || len <= 0)
		return -KM_EINVAL;
	if (mode & ~(KM_FALLOC_FL_KEEP_SIZE | KM_FALLOC_FL_PUNCH_HOLE))
		return -KM_EOPNOTSUPP;
	/* Punch hole must have keep size set. */
	if ((mode & KM_FALLOC_FL_PUNCH_HOLE) &&
	    !(mode & KM_FALLOC_FL_KEEP_SIZE))
		return -KM_EOPNOTSUPP;
	/* Check for wraparound (the kernel's signed sum wraps: it builds
	 * with -fno-strict-overflow; here the sum is unsigned, or the
	 * compiler would drop the test as always false). */
	if ((loff_t)((uint64_t)offset + (uint64_t)len) < 0)
		return -KM_EFBIG;
	if (!file->f_op->fallocate)
		return (int)m_vfs_not_modelled(file->f_op->name, "fallocate");
	return file->f_op->fallocate(file, mode, offset, len);
}

/**
 * km_ksys_fallocate - fallocate(2).
 * Kernel: fs/open.c ksys_fallocate, v6.18.
 * Context: task (the entry cost is m_syscall's).
 * Return: as km_vfs_fallocate.
 * Divergences: the file stands for the fd (no -EBADF).
 */
int km_ksys_fallocate(struct km_file *file, int mode, loff_t offset,
		      loff_t len)
{
	return km_vfs_fallocate(file, mode, offset, len);
}

/**
 * km_filp_close - close(2) of @filp: drop its reference; the last one
 * puts the inode.
 * Kernel: fs/open.c filp_close, v6.18 (no ->flush on XFS or ext4;
 * fput -> __fput -> dput -> iput, which evicts an unlinked inode).
 * Context: task (the entry cost is m_syscall's).
 * Return: 0.
 * Divergences: the references are counted per inode (i_openers: every
 * open and dup of any description), not per struct file, and ->release
 * runs at every close (a description shared by dup is released at its
 * first close, not its last); __fput runs
 * at once, not from task_work at the return to user space; a close of
 * a file the model never saw opened (opened before a trace began)
 * drops nothing.
 */
int km_filp_close(struct km_file *filp)
{
	struct km_inode *inode = filp->f_inode;

	/* __fput: the description's ->release (XFS: xfs_file_release). */
	if (filp->f_op->release)
		filp->f_op->release(inode, filp);
	if (!inode->i_openers)
		return 0;
	if (--inode->i_openers)
		return 0;
	km_iput(inode);
	return 0;
}
