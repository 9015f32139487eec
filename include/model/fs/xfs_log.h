/* SPDX-License-Identifier: MIT */
/*
 * The XFS log of the model (fs/xfs/xfs_log.c, fs/xfs/xfs_log_cil.c),
 * v6.18, as fsync needs it on the timed device: model/fs/xfs/xfs_log.c,
 * model/fs/xfs/xfs_log_cil.c, docs/model/xfs_log.md.
 */
#ifndef WPSIM_MODEL_FS_XFS_LOG_H
#define WPSIM_MODEL_FS_XFS_LOG_H

#include "model/kernel/rwsem.h"
#include "model/linux/bio.h"
#include "model/world.h"

#define M_XFS_LOG_BYTES	(64ull << 20)	/* an internal log of 64 MiB */
/* An iclog: the mount's default logbsize for a v2 log (XLOG_BIG_RECORD_BSIZE,
 * fs/xfs/libxfs/xfs_log_format.h, applied in xlog_get_iclog_buffer_size,
 * fs/xfs/xfs_log.c, v6.18; this machine's loop XFS: logbsize=32k). */
#define M_XFS_ICLOG_BYTES	(32ull << 10)

/*
 * The log's state (struct xlog and its CIL, as far as the model keeps
 * them): where it sits on the device and the checkpoint sequences.
 * Each inode's log item is its own (struct km_inode's i_itemp, made
 * with the inode: any number of files).
 */
struct m_xfs_log {
	sector_t log_sector;			/* the internal log */
	uint64_t log_blocks, log_next;
	/*
	 * The CIL (struct xfs_cil, fs/xfs/xfs_log_priv.h): xc_ctx_lock is
	 * held shared by a commit (xlog_cil_commit) and exclusive by the
	 * push that switches the context (xlog_cil_push_work), so no
	 * commit joins a context being switched; xc_push_lock orders the
	 * push requests and the switch (cil_seq written under both,
	 * push_seq under xc_push_lock).  xc_commit_wait: forces waiting
	 * for a requested push to switch its context.
	 */
	struct km_rw_semaphore xc_ctx_lock;
	struct sim_spinlock xc_push_lock;
	struct sim_waitq xc_commit_wait;
	struct sim_word cil_seq;		/* xc_current_sequence */
	struct sim_word push_seq;		/* xc_push_seq: last push
						 * requested */
	struct sim_word cil_written_seq;	/* last checkpoint written
						 * into an iclog (commit_lsn
						 * set) */
	struct sim_word ctx_bytes;		/* the current context's
						 * space_used: its record's
						 * bytes (since session 23) */
	/*
	 * The iclogs (struct xlog): l_icloglock covers an iclog's state
	 * changes: the switch of the active iclog to WANT_SYNC/SYNCING
	 * (written_seq, iclogs_syncing raised), its completion (done_seq,
	 * iclogs_syncing lowered) and a forcer's look at them.
	 */
	struct sim_spinlock l_icloglock;
	struct sim_word written_seq;		/* last one in an iclog write */
	struct sim_word done_seq;		/* last one on stable storage */
	struct sim_word iclogs_syncing;		/* iclog writes in flight */
	struct sim_word iclog_used;		/* bytes in the active
						 * iclog (ic_offset), since
						 * session 23 */
	struct sim_waitq log_wait;		/* ic_write_wait and
						 * ic_force_wait in one */
};

/*
 * The log on the timed device, set up when the device is attached
 * (struct m_blkdev's timed_attached, set by m_world_setup): the model's
 * xfs_log_mount.  Untimed there is no log (a completed bio is durable).
 */
void m_xfs_log_mount(struct m_blkdev *dev, uint64_t capacity_bytes);

/* The inode log item's flags a change logs (fs/xfs/libxfs/xfs_log_format.h,
 * v6.18): XFS_ILOG_CORE (the size, the extents: what fdatasync needs),
 * XFS_ILOG_TIMESTAMP and XFS_ILOG_IVERSION (what it does not). */
#define XFS_ILOG_CORE		0x001
#define XFS_ILOG_TIMESTAMP	0x4000
#define XFS_ILOG_IVERSION	0x8000

/*
 * The inode log item (model/fs/xfs/xfs_inode_item.c): a committed change
 * records its checkpoint sequence (km_xfs_inode_item_committing); the
 * sequences fsync and fdatasync force (m_xfs_inode_item_seq: 0 once the
 * checkpoint is on stable storage, xfs_inode_item_unpin); the model's
 * stand-in for the size and allocation transactions of writeback
 * (m_xfs_log_size_change); the coarse clock's test for a timestamp update
 * (m_xfs_mtime_stale).  All are no-ops without the log (untimed).
 */
void km_xfs_inode_item_committing(struct km_inode *inode, uint64_t seq,
				  unsigned int dirty_flags);
uint64_t m_xfs_inode_item_seq(struct km_inode *inode, bool datasync);
void m_xfs_log_size_change(struct km_inode *inode);
void m_xfs_log_alloc_change(struct km_inode *inode);
void m_xfs_log_alloc_change_len(struct km_inode *inode, uint64_t len);
bool m_xfs_mtime_stale(struct km_inode *inode);
void m_xfs_mtime_set(struct km_inode *inode);

/* The timestamp update transaction (model/fs/xfs/xfs_iops.c). */
int km_xfs_vn_update_time(struct km_inode *inode, int flags);

/*
 * m_xfs_log_force: @inode's pending change (a CORE change) joins the CIL's
 * current sequence and the sequence is forced (km_xfs_log_force_seq):
 * iclogs are written in order (4 KiB, REQ_PREFLUSH | REQ_FUA), a force
 * waits for the iclog before it, and forces that arrive meanwhile share
 * the next iclog write.
 */
int m_xfs_log_force(struct km_inode *inode);
uint64_t km_xlog_cil_force_seq(uint64_t seq);
/* A transaction that logged @inode (@dirty_flags: XFS_ILOG_*) commits
 * into the CIL's current sequence (xlog_cil_commit), under xc_ctx_lock
 * shared; returns the sequence.  A no-op returning 0 without the log. */
uint64_t km_xlog_cil_commit(struct km_inode *inode, unsigned int dirty_flags);
/* The same with the transaction's record bytes (what of xlog_cil_insert_items'
 * len the model knows: log_convert_bytes per splitting conversion). */
uint64_t m_xlog_cil_commit_len(struct km_inode *inode,
			       unsigned int dirty_flags, uint64_t len);
/* The checkpoint's record into the iclogs (xlog_write), from the CIL push:
 * true when it spanned iclogs (the commit iclog then follows the one
 * before it). */
bool m_xlog_write(struct m_xfs_log *log, uint64_t len);
int km_xfs_log_force_seq(uint64_t seq, int *log_flushed);
/* xfs_log_force(mp, XFS_LOG_SYNC): the whole log stable (syncfs's
 * xfs_fs_sync_fs); 0 without the log. */
int km_xfs_log_force(void);

#endif
