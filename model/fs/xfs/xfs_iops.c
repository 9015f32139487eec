// SPDX-License-Identifier: MIT
/*
 * model/fs/xfs/xfs_iops.c - truncate(2) of an XFS file.
 *
 * Models xfs_setattr_size of fs/xfs/xfs_iops.c, v6.18: the size change
 * under the IOLOCK, zeroing a grown range (xfs_zero_range,
 * model/fs/xfs/xfs_iomap.c) or the tail of a new EOF block
 * (xfs_truncate_page), dropping the page cache and the blocks past
 * a size that does not grow, and the XFS_ITRUNCATED mark the close
 * reads (xfs_file_release, model/fs/xfs/xfs_file.c).
 *
 * And xfs_vn_update_time on the timed device: the timestamp update a
 * write makes once the coarse clock has ticked, logged in a transaction
 * (the log: model/fs/xfs/xfs_log.c).
 *
 * truncate(2) holds the IOLOCK (the VFS's inode_lock) and the MMAPLOCK
 * (mapping->invalidate_lock, xfs_vn_setattr) exclusive across the size
 * change, so no page fault, readahead or read that creates a folio runs
 * inside it.
 *
 * Leaves out: the rest of xfs_setattr_nonsize/xfs_vn_setattr (mode,
 * owner, times), layout breaking, the truncate transaction's cost and
 * its own log item.
 */
#include "model/fs/xfs.h"
#include "model/fs/xfs_log.h"
#include "model/linux/bio.h"
#include "model/linux/mm.h"
#include "model/linux/pagemap.h"
#include "model/world.h"

struct sim_word *m_xfs_iflags(struct km_inode *inode)
{
	if (!inode->i_xfs_iflags.id)
		sim_word_init(&inode->i_xfs_iflags, 0, "%s.xfs_iflags",
			      inode->name);
	return &inode->i_xfs_iflags;
}

/*
 * xfs_iflags_clear(ip, XFS_ITRUNCATED) (xfs_vm_writepages, xfs_file_fsync):
 * under i_flags_lock.  Before the first truncate down of an execution
 * the flag is clear: nothing is done, no scheduling point (so that
 * writeback and fsync keep their steps in every execution without a
 * truncate down).  Divergence: a clear that runs before a racing
 * truncate's set is then not an access DPOR sees; the two orders are
 * still explored when the truncate and the writeback conflict elsewhere
 * (the page cache), as they do when the truncate drops a folio.
 * The test is the model's i_xfs_itruncated_set (set by the truncate
 * only), not whether the word exists: before session 17 a close
 * (km_xfs_file_release's test-and-clear) also made the word, so a
 * writeback or fsync after another task's close took i_lock and one
 * after it did not, a dependency no access recorded (claims'
 * linearisation of fsync-vs-appender-livelock replayed into it).
 */
void m_xfs_iflags_clear_truncated(struct km_inode *inode)
{
	if (!inode->i_xfs_itruncated_set)
		return;
	sim_spin_lock(&inode->i_lock);
	sim_word_write(&inode->i_xfs_iflags,
		       sim_word_read(&inode->i_xfs_iflags) &
		       ~(uint64_t)XFS_ITRUNCATED);
	sim_spin_unlock(&inode->i_lock);
}

/**
 * m_xfs_setattr_size - change the size with the IOLOCK held: truncate(2)
 * and an extending fallocate (xfs_falloc_setsize).
 * Kernel: fs/xfs/xfs_iops.c xfs_setattr_size, v6.18.
 * Context: the IOLOCK (i_rwsem) and the MMAPLOCK (invalidate_lock) held
 * exclusive; waits for DIO.
 * Return: 0 or the writeback's error.
 * When the size does not grow (also when it stays the same: class P of
 * docs/model/fidelity.md), the page cache past it is dropped
 * (truncate_setsize -> truncate_pagecache), the blocks past its block
 * are freed (xfs_itruncate_extents) and the inode is marked
 * XFS_ITRUNCATED, which the next close reads (km_xfs_file_release,
 * class N).  A growing size zeroes the grown range through
 * km_xfs_zero_range before the size changes (xfs_zero_range, class F);
 * one that does not grow zeroes the tail of the new EOF block
 * (km_xfs_truncate_page: xfs_truncate_page, class E).
 * truncate_setsize's pagecache_isize_extended write-protects the folio
 * straddling the old EOF when the size grows (issue 30 item 4).  Then,
 * when the zeroing zeroed something, or the size grows past an on-disk
 * size that lags the old size, [i_disk_size, new size) is written back
 * and waited for (the "null files problem" comment), and the
 * transaction sets i_disk_size to the new size (classes E, K and O of
 * docs/model/fidelity.md).
 * A truncate to 0 of a file of size 0 without extents (delalloc
 * reservations do not count: i_df.if_nextents) returns at once.
 * Divergences: no transaction of its own (its log item:
 * m_xfs_log_size_change at the next writeback); the old size is read
 * again after the DIO wait (the kernel reads it once, before; only the
 * short path's test reads it first, and only for a truncate to 0);
 * blocks past the new
 * size become holes at once; truncate_setsize's truncate_pagecache on a
 * growing size is left out (nothing is cached past the old size).
 */
int m_xfs_setattr_size(struct km_inode *inode, loff_t newsize)
{
	loff_t oldsize, disk_size;
	bool did_zeroing = false;

	/*
	 * Short circuit the truncate case for zero length files: a truncate
	 * to 0 of an empty file without extents changes nothing (the
	 * timestamps, xfs_setattr_nonsize: not modelled) and does not mark
	 * the inode XFS_ITRUNCATED, so its next close does not flush (class
	 * Z of docs/model/fidelity.md).
	 */
	if (newsize == 0 && km_i_size_read(inode) == 0 &&
	    !m_xfs_has_extents(inode))
		return 0;
	if (!m_broken(M_BREAK_TRUNCATE_NO_DIO_WAIT))
		km_inode_dio_wait(inode);
	oldsize = km_i_size_read(inode);
	if (newsize > oldsize)
		did_zeroing = km_xfs_zero_range(inode, oldsize,
						newsize - oldsize);
	else
		did_zeroing = km_xfs_truncate_page(inode, newsize);
	/* truncate_setsize: i_size_write, pagecache_isize_extended,
	 * truncate_pagecache. */
	km_i_size_write(inode, newsize);
	if (newsize > oldsize)
		km_pagecache_isize_extended(inode, oldsize, newsize);
	else
		km_truncate_pagecache(inode, newsize);
	/* filemap_write_and_wait_range(i_disk_size, newsize - 1) when the
	 * zeroing dirtied something or the grown size is past an on-disk
	 * size that lags the old one (read without the ILOCK, as the
	 * kernel's ip->i_disk_size here). */
	disk_size = (loff_t)sim_word_read(&inode->i_disksize);
	if ((did_zeroing || (newsize > disk_size && oldsize != disk_size)) &&
	    disk_size <= newsize - 1) {
		int err = km_filemap_write_and_wait_range(
				km_inode_mapping(inode), disk_size, newsize - 1);

		if (err)
			return err;
	}
	/* The size transaction, under the ILOCK: i_disk_size = newsize;
	 * then, when the size does not grow, xfs_itruncate_extents frees
	 * every block from the one past the new EOF (also when the size
	 * does not change: class P) and XFS_ITRUNCATED is set. */
	km_down_write(&inode->i_data_sem);
	sim_word_write(&inode->i_disksize, (uint64_t)newsize);
	if (newsize <= oldsize) {
		if (newsize < (loff_t)inode->nr_blocks << inode->i_blkbits) {
			loff_t from = (newsize + ((loff_t)1 << inode->i_blkbits)
				       - 1) & ~(((loff_t)1 << inode->i_blkbits)
						- 1);
			loff_t to = (loff_t)inode->nr_blocks << inode->i_blkbits;

			if (to > from)
				m_xfs_extent_free_range(inode, from,
							to - from);
		}
		/* xfs_iflags_set(ip, XFS_ITRUNCATED), the ILOCK still
		 * held: flush on close (km_xfs_file_release, class N). */
		inode->i_xfs_itruncated_set = true;
		sim_spin_lock(&inode->i_lock);		/* i_flags_lock */
		sim_word_write(m_xfs_iflags(inode),
			       sim_word_read(m_xfs_iflags(inode)) |
			       XFS_ITRUNCATED);
		sim_spin_unlock(&inode->i_lock);
	}
	km_up_write(&inode->i_data_sem);
	return 0;
}

/**
 * km_xfs_setattr_size - truncate(2).
 * Kernel: fs/xfs/xfs_iops.c xfs_vn_setattr (ATTR_SIZE:
 * xfs_ilock(XFS_MMAPLOCK_EXCL)) -> xfs_vn_setattr_size ->
 * xfs_setattr_size, v6.18; the inode_lock is the VFS's (fs/open.c
 * do_truncate).
 * Context: takes the IOLOCK (i_rwsem), then the MMAPLOCK
 * (invalidate_lock), both exclusive.
 * Return: 0 or the writeback's error (m_xfs_setattr_size).
 * Divergences: no xfs_break_layouts (no pNFS or DAX layouts).
 */
int km_xfs_setattr_size(struct km_file *file, loff_t newsize)
{
	struct km_inode *inode = file->f_inode;
	int err;

	km_inode_lock(inode);
	km_down_write(&km_inode_mapping(inode)->invalidate_lock);
	err = m_xfs_setattr_size(inode, newsize);
	km_up_write(&km_inode_mapping(inode)->invalidate_lock);
	km_inode_unlock(inode);
	return err;
}

/*
 * xfs_inode_can_hw_atomic_write (fs/xfs/xfs_inode.h, v6.18): the data
 * device's atomic unit covers one fs block.  The buftarg's awu_min/max
 * are the bdev's unit min/max, zeroed by
 * xfs_configure_buftarg_atomic_writes (fs/xfs/xfs_buf.c) when they do
 * not cover a single fs block.
 */
static bool xfs_inode_can_hw_atomic_write(const struct km_inode *inode)
{
	const struct km_queue_limits *lim = &m_world()->dev.limits;
	unsigned int blocksize = 1u << inode->i_blkbits;
	unsigned int min_bytes = lim->atomic_write_unit_min;
	unsigned int max_bytes = lim->atomic_write_unit_max;

	if (min_bytes > max_bytes || min_bytes > blocksize ||
	    max_bytes < blocksize)
		max_bytes = 0;
	return max_bytes > 0;
}

/**
 * km_xfs_get_atomic_write_min - the smallest RWF_ATOMIC write of a file.
 * Kernel: fs/xfs/xfs_iops.c xfs_get_atomic_write_min, v6.18.
 * Context: any; reads setup-time limits only.
 * Return: the fs block size when the device can write one block
 * atomically, else 0 (no atomic writes: the file gets no
 * FMODE_CAN_ATOMIC_WRITE).
 * Divergences: the model's XFS has no reflink, so the software
 * (copy-on-write) atomic write, xfs_inode_can_sw_atomic_write, is never
 * available: as an XFS made with mkfs.xfs -m reflink=0.
 */
unsigned int km_xfs_get_atomic_write_min(const struct km_inode *inode)
{
	if (xfs_inode_can_hw_atomic_write(inode))
		return 1u << inode->i_blkbits;
	return 0;
}

/**
 * km_xfs_get_atomic_write_max - the largest RWF_ATOMIC write of a file.
 * Kernel: fs/xfs/xfs_iops.c xfs_get_atomic_write_max, v6.18.
 * Context: any; reads setup-time limits only.
 * Return: without out-of-place (COW) writes, exactly one fs block when
 * the device can write it atomically, else 0.
 * Divergences: no reflink (see km_xfs_get_atomic_write_min): the
 * software maximum (the AG's awu_max, 1 MiB on this machine's default
 * mkfs) never applies.
 */
unsigned int km_xfs_get_atomic_write_max(const struct km_inode *inode)
{
	if (xfs_inode_can_hw_atomic_write(inode))
		return 1u << inode->i_blkbits;
	return 0;
}

/*
 * xfs_inode_operations (fs/xfs/xfs_iops.c, v6.18): ->setattr for
 * ATTR_SIZE (xfs_vn_setattr -> xfs_vn_setattr_size -> xfs_setattr_size),
 * as far as the model has it.
 */
const struct km_inode_operations km_xfs_inode_operations = {
	.name = "xfs",
	.setattr_size = km_xfs_setattr_size,
};

/**
 * km_xfs_vn_update_time - a write's mtime and ctime update, logged.
 * Kernel: fs/xfs/xfs_iops.c xfs_vn_update_time, v6.18 (reached from
 * kiocb_modified -> file_modified_flags -> __file_update_time ->
 * inode_update_time).
 * Context: task, IOLOCK held; takes the ILOCK (i_data_sem) exclusive.
 * Return: 0.
 * Divergences: timed device only (untimed there is no log and no clock:
 * nothing is done); no lazytime; no transaction reservation (log space
 * is never short: no tail pushing) and no CPU cost of the transaction
 * (no calibrated figure); @flags (S_MTIME | S_CTIME) is not read: both
 * are set, as a write sets them.  The commit goes straight into the
 * CIL's current sequence (xfs_trans_commit -> xlog_cil_commit ->
 * xfs_inode_item_committing) with XFS_ILOG_TIMESTAMP only, so it pins
 * the inode for fsync and not for fdatasync.
 */
int km_xfs_vn_update_time(struct km_inode *inode, int flags)
{
	struct m_xfs_log *log = m_world()->xfs_log;

	(void)flags;
	if (!log)
		return 0;
	/* xfs_trans_alloc(tr_fsyncts): reservation not modelled. */
	km_down_write(&inode->i_data_sem);	/* xfs_ilock(ILOCK_EXCL) */
	m_xfs_mtime_set(inode);		/* inode_set_ctime_current, mtime */
	/* xfs_trans_ijoin, xfs_trans_log_inode(XFS_ILOG_TIMESTAMP),
	 * xfs_trans_commit: the inode joins the current checkpoint. */
	km_xlog_cil_commit(inode, XFS_ILOG_TIMESTAMP);
	km_up_write(&inode->i_data_sem);	/* the commit unlocks it */
	return 0;
}
