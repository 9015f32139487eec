// SPDX-License-Identifier: MIT
/*
 * model/fs/inode.c - direct-I/O accounting of an inode and marking an
 * inode dirty.
 *
 * Models include/linux/fs.h inode_dio_begin/inode_dio_end and
 * fs/inode.c inode_dio_wait, v6.18 (reference kernel-fs.md §1.5), and
 * fs/fs-writeback.c __mark_inode_dirty (only its I_DIRTY_PAGES effect).
 *
 * Leaves out: the inode writeback lists and their lock, dirtied_when,
 * waking the flusher (the model's flusher is a scenario task), the
 * superblock's dirty_inode hook.
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

/**
 * km___mark_inode_dirty - mark the inode's dirty state.
 * Kernel: fs/fs-writeback.c, v6.18.
 * Context: takes i_lock.
 * Divergences: only sets the flag under i_lock; no list moves.
 */
void km___mark_inode_dirty(struct km_inode *inode, unsigned int flags)
{
	sim_spin_lock(&inode->i_lock);
	sim_word_write(&inode->i_state, sim_word_read(&inode->i_state) | flags);
	sim_spin_unlock(&inode->i_lock);
}
