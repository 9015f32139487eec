// SPDX-License-Identifier: MIT
/*
 * model/fs/ioctl.c - ioctl(2) on a file: vfs_ioctl.
 *
 * Models fs/ioctl.c of v6.18 as far as the model's commands go: the
 * syscall (model/fs/syscalls.c's ioctl row) falls through do_vfs_ioctl,
 * whose generic commands (FIOCLEX, FIONBIO, FIFREEZE, FS_IOC_FIEMAP,
 * FICLONE, ...) are none of the block device's, to vfs_ioctl: the
 * file's ->unlocked_ioctl, or -ENOTTY when it has none.
 *
 * The model's files: the raw block device's def_blk_fops has
 * blkdev_ioctl (model/block/ioctl.c: BLKDISCARD, BLKGETSIZE64,
 * BLKFLSBUF); XFS's and ext4's f_op leave unlocked_ioctl out.  In
 * v6.18 they have one (xfs_file_ioctl, fs/xfs/xfs_ioctl.c; ext4_ioctl,
 * fs/ext4/ioctl.c) whose switch ends in "default: return -ENOTTY" for
 * a command neither knows, which every block-device command is: so a
 * BLKDISCARD on a regular file is -ENOTTY either way (fio's err=25,
 * measured on XFS, docs/fio.md).  The memory devices (drivers/char/
 * mem.c) have no unlocked_ioctl in the kernel either.
 *
 * Leaves out: do_vfs_ioctl's generic commands, the security hook
 * (security_file_ioctl), the file descriptor (-EBADF), compat ioctls.
 */
#include "model/linux/fs.h"

/**
 * km_vfs_ioctl - the file's ioctl.
 * Kernel: fs/ioctl.c vfs_ioctl, v6.18.
 * Context: task; the file's ioctl may sleep.
 * Return: what ->unlocked_ioctl returns; -ENOTTY when the file has none
 * (and for -ENOIOCTLCMD, which no model ioctl returns).
 * Divergences: @arg is the user memory the command reads or writes
 * (the model has no user memory).
 */
long km_vfs_ioctl(struct km_file *filp, unsigned int cmd, uint64_t *arg)
{
	long error = -KM_ENOTTY;

	if (!filp->f_op->unlocked_ioctl)
		goto out;
	error = filp->f_op->unlocked_ioctl(filp, cmd, arg);
out:
	return error;
}
