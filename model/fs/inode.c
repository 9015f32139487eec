// SPDX-License-Identifier: MIT
/*
 * model/fs/inode.c - direct-I/O accounting of an inode.
 *
 * Models include/linux/fs.h inode_dio_begin/inode_dio_end and
 * fs/inode.c inode_dio_wait, v6.18 (reference kernel-fs.md §1.5).
 * __mark_inode_dirty is in model/fs/fs-writeback.c.
 *
 * And iput and evict (fs/inode.c, v6.18) as far as wpsim replay's
 * unlink, rename and close need them: the last link and the last open
 * file gone, the inode's page cache is truncated and its blocks freed.
 *
 * Leaves out: the rest of fs/inode.c (inode allocation, the inode
 * cache, the LRU of unused inodes, timestamps: the model's inodes live
 * as long as the world; an evicted one is made anew by an O_CREAT open).
 */
#include "model/linux/fs.h"
#include "model/linux/mm.h"
#include "model/world.h"

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
 * km_evict - the inode's last reference and link are gone: drop it.
 * Kernel: fs/inode.c evict, v6.18 (s_op->evict_inode: XFS's
 * xfs_fs_evict_inode -> truncate_inode_pages_final; the blocks freed
 * later by xfs_inactive -> xfs_inactive_truncate).
 * Context: task; no other reference to @inode.
 * Return: none.
 * Divergences: the page cache is truncated under the inode lock (the
 * model's truncate expects it; the kernel needs none, nobody else holds
 * the inode); the blocks are freed at once rather than by the inodegc
 * worker, and i_size is set to 0 so that the inode can be made anew;
 * the mapped blocks are found by reading the block map without a
 * scheduling point (the kernel walks its extent tree), each one freed
 * with one.
 */
void km_evict(struct km_inode *inode)
{
	km_inode_lock(inode);
	km_truncate_inode_pages_range(&inode->i_data, 0, -1);
	km_down_write(&inode->i_data_sem);
	/* xfs_itruncate_extents walks the extents there are: the blocks
	 * mapped (found without a step: a hole stays one). */
	{
		unsigned long freed = 0;

		for (unsigned long b = m_extent_next_mapped(inode, 0);
		     b < inode->nr_blocks;
		     b = m_extent_next_mapped(inode, b + 1)) {
			m_extent_write(inode, b, M_EXT_HOLE);
			freed++;
		}
		/* The blocks back to the filesystem's free count, when it
		 * is kept (the world's glue: XFS's m_fdblocks). */
		m_world_blocks_freed(inode, freed);
	}
	km_up_write(&inode->i_data_sem);
	km_i_size_write(inode, 0);
	inode->i_evicted = true;
	km_inode_unlock(inode);
}

/**
 * km_iput - put a reference to @inode; evict it at the last one when it
 * has no link left.
 * Kernel: fs/inode.c iput -> iput_final, v6.18 (generic_drop_inode:
 * !inode->i_nlink).
 * Context: task.
 * Return: none.
 * Divergences: the references counted are the open files' (i_openers),
 * not i_count; a linked inode stays (the kernel keeps it cached too).
 */
void km_iput(struct km_inode *inode)
{
	if (inode->i_openers || inode->i_nlink || inode->i_evicted)
		return;
	km_evict(inode);
}
