// SPDX-License-Identifier: MIT
/*
 * model/fs/xfs/xfs_inode_item.c - the inode log item's fsync state.
 *
 * Models fs/xfs/xfs_inode_item.c of v6.18 as xfs_file_fsync reads it:
 * xfs_inode_item_committing (a committed change records its checkpoint
 * sequence in ili_commit_seq, and in ili_datasync_seq when it is more
 * than a timestamp or i_version change) and xfs_inode_item_unpin (the
 * last unpin, when the checkpoint is on stable storage, clears both).
 * Plus stand-ins of the model, each named where it acts: the size
 * transaction (m_xfs_log_size_change), the allocation transactions of
 * writeback (m_xfs_log_alloc_change) and
 * the coarse clock's test for a timestamp update (m_xfs_mtime_stale).
 * Timed device only: without the log (untimed) every function here
 * returns at once and touches nothing (docs/model/xfs_log.md).
 *
 * Leaves out: the log item's formatting (ili_fields, the log vector),
 * ili_last_fields and the inode flush to its buffer (xfs_iflush), the
 * AIL, stale inodes, the pin count itself (a sequence not yet on stable
 * storage is "pinned").
 */
#include "model/fs/xfs_log.h"
#include "model/linux/fs.h"
#include "model/linux/writeback.h"
#include "sim/clock.h"

/* The log, on the timed device (else NULL); every inode has its log
 * item (struct km_inode's i_itemp, made with the inode). */
static struct m_xfs_log *inode_log(const struct km_inode *inode)
{
	(void)inode;
	return m_world()->xfs_log;
}

/**
 * km_xfs_inode_item_committing - a transaction that logged the inode
 * commits into checkpoint @seq.
 * Kernel: fs/xfs/xfs_inode_item.c xfs_inode_item_committing, v6.18.
 * Context: the committing task, from km_xlog_cil_commit with the CIL's
 * xc_ctx_lock held shared (the kernel also holds ili_lock; the model's
 * fields are the inode's own, written in the step that read @seq).
 * Return: none.
 * Divergences: @dirty_flags is the transaction's ili_dirty_flags, given
 * by the caller (the model has no per-transaction item state to clear);
 * the fields are plain, in the caller's step.
 */
void km_xfs_inode_item_committing(struct km_inode *inode, uint64_t seq,
				  unsigned int dirty_flags)
{
	struct m_xfs_log *log = inode_log(inode);

	if (!log)
		return;
	inode->i_itemp.ili_commit_seq = seq;
	if (dirty_flags & ~(XFS_ILOG_IVERSION | XFS_ILOG_TIMESTAMP))
		inode->i_itemp.ili_datasync_seq = seq;
}

/*
 * m_xfs_inode_item_seq: the sequence fsync (@datasync false: the last
 * commit) or fdatasync (the last change that is not only timestamps)
 * must force, or 0.  xfs_inode_item_unpin clears both when the inode's
 * last pinned checkpoint completes; the model reads them as cleared once
 * the log's done sequence has reached the last commit's (the same
 * moment: the iclog completion that makes the checkpoint stable,
 * xlog_write_iclog), never on an fdatasync's earlier sequence alone.
 */
uint64_t m_xfs_inode_item_seq(struct km_inode *inode, bool datasync)
{
	struct m_xfs_log *log = inode_log(inode);
	uint64_t seq, done;

	if (!log)
		return 0;
	seq = datasync ? inode->i_itemp.ili_datasync_seq :
			 inode->i_itemp.ili_commit_seq;
	if (!seq)
		return 0;
	done = sim_word_read(&log->done_seq);
	if (done >= inode->i_itemp.ili_commit_seq) {
		/* xfs_inode_item_unpin: the last unpin, once the inode's
		 * last pinned checkpoint (its last commit) is stable. */
		inode->i_itemp.ili_commit_seq = 0;
		inode->i_itemp.ili_datasync_seq = 0;
		return 0;
	}
	/* Still pinned by a later commit: an fdatasync whose sequence is
	 * stable already forces nothing (xfs_log_force_seq of a completed
	 * sequence), and both fields stay for the fsync to come. */
	return done >= seq ? 0 : seq;
}

/*
 * m_xfs_log_size_change: the model's stand-in for the transactions of
 * writeback and its completion that log the inode's core (delalloc
 * conversion, xfs_bmapi_convert_delalloc; the on-disk size update,
 * xfs_setfilesize): when i_size differs from the size the inode last
 * logged, a CORE change commits into the CIL's current sequence.  The
 * model's i_disk_size (m_xfs_setfilesize) is not what it compares
 * (docs/model/xfs_log.md).
 */
void m_xfs_log_size_change(struct km_inode *inode)
{
	struct m_xfs_log *log = inode_log(inode);
	loff_t size;

	if (!log)
		return;
	size = km_i_size_read(inode);
	if (size == inode->i_itemp.logged_size)
		return;
	inode->i_itemp.logged_size = size;
	km_xlog_cil_commit(inode, XFS_ILOG_CORE);
}

/*
 * m_xfs_log_alloc_change: the model's stand-in for the allocation
 * transactions of writeback and its completion (delalloc conversion,
 * xfs_bmapi_convert_delalloc; unwritten conversion,
 * xfs_iomap_write_unwritten), each of which logs the inode's core
 * (XFS_ILOG_CORE): a change that fsync and fdatasync must force, whatever
 * the size.  Called by the writeback hooks when a range changed state.
 */
void m_xfs_log_alloc_change(struct km_inode *inode)
{
	m_xfs_log_alloc_change_len(inode, 0);
}

/* The same with the transactions' record bytes (since session 23: the
 * unwritten conversions' log_convert_bytes, m_xfs_end_ioend_convert). */
void m_xfs_log_alloc_change_len(struct km_inode *inode, uint64_t len)
{
	struct m_xfs_log *log = inode_log(inode);

	if (!log)
		return;
	m_xlog_cil_commit_len(inode, XFS_ILOG_CORE, len);
}

/*
 * m_xfs_mtime_stale: inode_needs_update_time (fs/inode.c, v6.18) for an
 * XFS inode (FS_MGTIME): the time a write sets is the coarse clock's
 * (ktime_get_coarse_real_ts64_mg, advanced once a tick), so mtime and
 * ctime need an update when the clock has ticked since the last one:
 * once a jiffy (HZ 250, this machine's CONFIG_HZ) of writes.  The model
 * reads the inode's mtime in the step the caller's read of its
 * time_needs_update word made.  Without the log (untimed: no clock)
 * false.  Divergences: no fine-grained update after a ctime query
 * (I_CTIME_QUERIED: nothing stats the file during a run), no i_version.
 */
bool m_xfs_mtime_stale(struct km_inode *inode)
{
	struct m_xfs_log *log = inode_log(inode);
	uint64_t jiffy = 1 + sim_now() / KM_NS_PER_JIFFY;

	if (!log)
		return false;
	return inode->i_itemp.mtime_jiffy != jiffy;
}

/* The update itself: the inode's mtime is now (xfs_vn_update_time). */
void m_xfs_mtime_set(struct km_inode *inode)
{
	struct m_xfs_log *log = inode_log(inode);

	if (log)
		inode->i_itemp.mtime_jiffy = 1 + sim_now() /
						 KM_NS_PER_JIFFY;
}
