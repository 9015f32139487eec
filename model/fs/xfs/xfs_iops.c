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
 * Leaves out: the rest of xfs_setattr_nonsize/xfs_vn_setattr (mode,
 * owner, times), the MMAPLOCK, the truncate transaction and its log
 * item, i_disk_size (the on-disk size: the writeback after zeroing
 * starts at the old i_size; the kernel-doc below lists the
 * consequences).
 */
#include "model/fs/xfs.h"
#include "model/fs/xfs_log.h"
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
 * the word does not exist and the flag is clear: nothing is done, no
 * scheduling point (so that writeback and fsync keep their steps in
 * every execution without a truncate down).  Divergence: a clear that
 * runs before a racing truncate's set is then not an access DPOR sees;
 * the two orders are still explored when the truncate and the writeback
 * conflict elsewhere (the page cache), as they do when the truncate
 * drops a folio.
 */
void m_xfs_iflags_clear_truncated(struct km_inode *inode)
{
	if (!inode->i_xfs_iflags.id)
		return;
	sim_spin_lock(&inode->i_lock);
	sim_word_write(&inode->i_xfs_iflags,
		       sim_word_read(&inode->i_xfs_iflags) &
		       ~(uint64_t)XFS_ITRUNCATED);
	sim_spin_unlock(&inode->i_lock);
}

/**
 * km_xfs_setattr_size - truncate(2).
 * Kernel: fs/xfs/xfs_iops.c xfs_setattr_size, v6.18.
 * Context: takes the IOLOCK exclusive.
 * When the size does not grow (also when it stays the same: class P of
 * docs/model/fidelity.md), the page cache past it is dropped
 * (truncate_setsize -> truncate_pagecache), the blocks past its block
 * are freed (xfs_itruncate_extents) and the inode is marked
 * XFS_ITRUNCATED, which the next close reads (km_xfs_file_release,
 * class N).
 * Divergences: no MMAPLOCK; blocks past the new size become holes at once.
 * truncate_setsize's truncate_pagecache on a growing size is left out
 * (nothing is cached past the old size).
 * An extending truncate zeroes the grown range through km_xfs_zero_range
 * before the size changes (xfs_zero_range, iomap_zero_range's mapping
 * walk: class F); one that does not grow zeroes the tail of the new EOF
 * block (km_xfs_truncate_page: xfs_truncate_page, class E), which leaves
 * that folio dirty in the cache.  truncate_setsize's
 * pagecache_isize_extended write-protects the folio straddling the old
 * EOF when the size grows (issue 30 item 4).  When the zeroing zeroed a
 * folio, [old size, new size) is written back and waited for
 * (filemap_write_and_wait_range after truncate_setsize; class K of
 * docs/model/fidelity.md): the kernel's range is [i_disk_size, new
 * size), and the model, which has no XFS i_disk_size, takes the old
 * size for it.  So a truncate down writes nothing back (the range is
 * empty), where the kernel writes back [i_disk_size, new size) when
 * appended data past the on-disk size is not yet written back (still
 * dirty or its ioend not completed); the kernel also writes that range
 * when i_disk_size lags the old size with nothing zeroed.
 */
int km_xfs_setattr_size(struct km_file *file, loff_t newsize)
{
	struct km_inode *inode = file->f_inode;
	loff_t oldsize;
	bool did_zeroing = false;

	km_inode_lock(inode);
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
	/* newsize <= oldsize: xfs_itruncate_extents frees every block
	 * from the one past the new EOF, also when the size does not
	 * change (class P: blocks fallocated past EOF with KEEP_SIZE). */
	if (newsize <= oldsize) {
		km_truncate_pagecache(inode, newsize);
		km_down_write(&inode->i_data_sem);
		if (newsize < (loff_t)inode->nr_blocks << inode->i_blkbits) {
			loff_t from = (newsize + ((loff_t)1 << inode->i_blkbits)
				       - 1) & ~(((loff_t)1 << inode->i_blkbits)
						- 1);
			loff_t to = (loff_t)inode->nr_blocks << inode->i_blkbits;

			if (to > from)
				m_xfs_extent_set_range(inode, from, to - from,
						       0, M_EXT_HOLE);
		}
		/* xfs_iflags_set(ip, XFS_ITRUNCATED), the ILOCK still
		 * held: flush on close (km_xfs_file_release, class N). */
		sim_spin_lock(&inode->i_lock);		/* i_flags_lock */
		sim_word_write(m_xfs_iflags(inode),
			       sim_word_read(m_xfs_iflags(inode)) |
			       XFS_ITRUNCATED);
		sim_spin_unlock(&inode->i_lock);
		km_up_write(&inode->i_data_sem);
	}
	/* filemap_write_and_wait_range(i_disk_size, newsize - 1): the
	 * model's i_disk_size is the old size, so the range is empty when
	 * the size does not grow. */
	if (did_zeroing && newsize > oldsize) {
		int err = km_filemap_write_and_wait_range(
				km_inode_mapping(inode), oldsize, newsize - 1);

		if (err) {
			km_inode_unlock(inode);
			return err;
		}
	}
	km_inode_unlock(inode);
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
	km_xfs_inode_item_committing(inode, sim_word_read(&log->cil_seq),
				     XFS_ILOG_TIMESTAMP);
	km_up_write(&inode->i_data_sem);	/* the commit unlocks it */
	return 0;
}
