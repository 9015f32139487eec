// SPDX-License-Identifier: MIT
/*
 * model/fs/xfs/xfs_super.c - XFS's superblock operations, as far as
 * syncfs(2) reaches them.
 *
 * Models fs/xfs/xfs_super.c of v6.18: xfs_fs_sync_fs (the ->sync_fs of
 * xfs_super_operations), called twice by sync_filesystem
 * (model/fs/sync.c): a no-op without @wait, a synchronous log force
 * with it.
 *
 * Leaves out: every other super operation (the model mounts nothing:
 * its XFS is there from the world's setup), laptop mode's log work, the
 * freeze path's inodegc / blockgc / zone gc stops (nothing freezes).
 */
#include "model/fs/xfs_log.h"
#include "model/linux/fs.h"

/**
 * km_xfs_fs_sync_fs - make the file system's metadata stable.
 * Kernel: fs/xfs/xfs_super.c xfs_fs_sync_fs, v6.18.
 * Context: task; waits for the log force.
 * Return: 0 or the log force's error.
 * Without @wait nothing is done ("doing anything during the async pass
 * would be counterproductive"); with it, xfs_log_force(mp,
 * XFS_LOG_SYNC): km_xfs_log_force.
 * Divergences: no superblock argument (the world has one XFS); no
 * tracepoint, laptop-mode or freeze steps (see the file).
 */
int km_xfs_fs_sync_fs(int wait)
{
	if (!wait)
		return 0;
	return km_xfs_log_force();
}

/* xfs_super_operations (fs/xfs/xfs_super.c, v6.18): ->sync_fs only. */
const struct km_super_operations km_xfs_super_operations = {
	.name = "xfs",
	.sync_fs = km_xfs_fs_sync_fs,
};
