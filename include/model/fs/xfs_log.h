/* SPDX-License-Identifier: MIT */
/*
 * The XFS log of the model (fs/xfs/xfs_log.c, fs/xfs/xfs_log_cil.c),
 * v6.18, as fsync needs it on the timed device: model/fs/xfs/xfs_log.c,
 * model/fs/xfs/xfs_log_cil.c, docs/model/xfs_log.md.
 */
#ifndef WPSIM_MODEL_FS_XFS_LOG_H
#define WPSIM_MODEL_FS_XFS_LOG_H

#include "model/linux/bio.h"
#include "model/world.h"

#define M_XFS_LOG_BYTES	(64ull << 20)	/* an internal log of 64 MiB */

/*
 * The log's state (struct xlog and its CIL, as far as the model keeps
 * them): where it sits on the device, the size each inode's last log
 * force recorded, and the checkpoint sequences.
 */
struct m_xfs_log {
	sector_t log_sector;			/* the internal log */
	uint64_t log_blocks, log_next;
	loff_t logged_size[M_FILES_LONG_MAX + 1];	/* by i_ino */
	/* The sequences (km_xfs_log_force_seq). */
	struct sim_word cil_seq;		/* xc_current_sequence */
	struct sim_word push_seq;		/* last context pushed */
	struct sim_word written_seq;		/* last one in an iclog write */
	struct sim_word done_seq;		/* last one on stable storage */
	struct sim_word iclogs_syncing;		/* iclog writes in flight */
	struct sim_waitq log_wait;		/* xc_commit_wait, ic_write_wait,
						 * ic_force_wait in one */
};

/*
 * The log on the timed device, set up when the device is attached
 * (struct m_blkdev's timed_attached, set by m_world_setup): the model's
 * xfs_log_mount.  Untimed there is no log (a completed bio is durable).
 */
void m_xfs_log_mount(struct m_blkdev *dev, uint64_t capacity_bytes);

/*
 * m_xfs_log_pinned: whether @inode has a change the log must make
 * durable before fsync returns (the model: i_size differs from the size
 * the last log force of this inode recorded).  m_xfs_log_force: the
 * inode's change joins the CIL's current sequence, its logged size is
 * recorded, and the sequence is forced (km_xfs_log_force_seq): iclogs are
 * written in order (4 KiB, REQ_PREFLUSH | REQ_FUA), a force waits for the
 * iclog before it, and forces that arrive meanwhile share the next iclog
 * write.
 */
bool m_xfs_log_pinned(struct km_inode *inode, int datasync);
int m_xfs_log_force(struct km_inode *inode);
uint64_t km_xlog_cil_force_seq(uint64_t seq);
int km_xfs_log_force_seq(uint64_t seq);

#endif
