// SPDX-License-Identifier: MIT
/*
 * model/fs/namei.c - unlink(2) and rename(2) as far as the write path
 * needs them: a link dropped, and the inode evicted (its page cache
 * truncated, its blocks freed) when its last link and last open file
 * are gone; and open(2)'s O_CREAT of an evicted inode.
 *
 * Models fs/namei.c of v6.18: do_unlinkat -> vfs_unlink, do_renameat2
 * -> vfs_rename (the target's link dropped, iput after the rename).
 *
 * Leaves out: path lookup and dentries (the caller names the inode; a
 * trace's paths are resolved by tools/trace/), directories and their
 * locks (lock_rename, the parent's i_rwsem), permissions, delegations,
 * fsnotify, the filesystem's directory update and its log transaction
 * (xfs_remove, xfs_rename: no cost is charged for them), hard links
 * (every inode has one link), RENAME_EXCHANGE and RENAME_WHITEOUT.
 */
#include "model/linux/fs.h"
#include "model/linux/syscalls.h"

/**
 * km_vfs_unlink - drop @inode's link.
 * Kernel: fs/namei.c vfs_unlink, v6.18 (inode_lock of the target, then
 * dir->i_op->unlink: xfs_vn_unlink -> xfs_remove -> xfs_droplink).
 * Context: task; takes and releases the inode lock.
 * Return: 0, or -ENOENT when @inode has no link left.
 * Divergences: no directory, no dentry (d_delete); see the file's
 * "Leaves out".
 */
int km_vfs_unlink(struct km_inode *inode)
{
	int error = 0;

	km_inode_lock(inode);
	if (!inode->i_nlink)
		error = -KM_ENOENT;
	else
		inode->i_nlink--;
	km_inode_unlock(inode);
	return error;
}

/**
 * km_do_unlinkat - unlink(2), unlinkat(2) without AT_REMOVEDIR.
 * Kernel: fs/namei.c do_unlinkat, v6.18: vfs_unlink, then iput of the
 * inode the dentry held (evict at the last reference with no link).
 * Context: task (the entry cost is m_syscall's).
 * Return: 0 or -errno.
 * Divergences: the inode stands for the looked-up path.
 */
int km_do_unlinkat(struct km_inode *inode)
{
	int error = km_vfs_unlink(inode);

	if (!error)
		km_iput(inode);
	return error;
}

/**
 * km_do_renameat2 - rename(2) of @old over @target (NULL: none).
 * Kernel: fs/namei.c do_renameat2 -> vfs_rename, v6.18: the source and
 * the target locked (lock_two_nondirectories), i_op->rename (xfs_rename
 * drops the target's link), unlocked; iput of the target after.
 * Context: task (the entry cost is m_syscall's).
 * Return: 0 or -errno (-ENOENT when @old has no link).
 * Divergences: the two inodes are locked in the order of their numbers
 * (the kernel orders by address); see the file's "Leaves out".
 */
int km_do_renameat2(struct km_inode *old, struct km_inode *target)
{
	struct km_inode *first = old, *second = target;
	int error = 0;

	if (target == old)
		return 0;
	if (target && target->i_ino < old->i_ino) {
		first = target;
		second = old;
	}
	km_inode_lock(first);
	if (second)
		km_inode_lock(second);
	if (!old->i_nlink)
		error = -KM_ENOENT;
	else if (target && target->i_nlink)
		target->i_nlink--;
	if (second)
		km_inode_unlock(second);
	km_inode_unlock(first);
	if (!error && target)
		km_iput(target);
	return error;
}
