// SPDX-License-Identifier: MIT
/*
 * model/fs/inode.c - direct-I/O accounting of an inode.
 *
 * Models include/linux/fs.h inode_dio_begin/inode_dio_end and
 * fs/inode.c inode_dio_wait, v6.18 (reference kernel-fs.md §1.5).
 * __mark_inode_dirty is in model/fs/fs-writeback.c.
 *
 * Leaves out: the rest of fs/inode.c (inode allocation, the inode
 * cache, iput, timestamps: the model's inodes live as long as the world).
 */
#include "model/linux/fs.h"

/**
 * km_inode_dio_begin - count one direct I/O in flight.
 * Kernel: include/linux/fs.h, v6.18.
 */
void km_inode_dio_begin(struct km_inode *inode)
{
	sim_word_add(&inode->i_dio_count, 1);
}

/**
 * km_inode_dio_end - one direct I/O done; wake inode_dio_wait at zero.
 * Kernel: include/linux/fs.h (atomic_dec_and_test + wake_up_var), v6.18.
 */
void km_inode_dio_end(struct km_inode *inode)
{
	if (sim_word_add(&inode->i_dio_count, -1) == 0)
		sim_waitq_wake_up(&inode->dio_wait);
}

/**
 * km_inode_dio_wait - wait until no direct I/O is in flight.
 * Kernel: fs/inode.c, v6.18.
 * Context: i_rwsem held exclusive by callers that need a stable answer.
 */
void km_inode_dio_wait(struct km_inode *inode)
{
	while (sim_word_read(&inode->i_dio_count) != 0)
		sim_waitq_sleep(&inode->dio_wait);
}
