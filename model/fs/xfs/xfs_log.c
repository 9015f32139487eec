// SPDX-License-Identifier: MIT
/*
 * model/fs/xfs/xfs_log.c - the XFS log, as fsync sees it on the timed
 * device.
 *
 * Models fs/xfs/xfs_log.c of v6.18: xfs_log_force_seq and xlog_force_lsn
 * (km_xfs_log_force_seq), the iclog write (xlog_sync ->
 * xlog_write_iclog: a 4 KiB REQ_PREFLUSH | REQ_FUA bio, completions
 * processed in order) and, for xfs_file_fsync, xfs_fsync_flush_log
 * (m_xfs_log_force) with the model's "pinned" test (m_xfs_log_pinned:
 * i_size changed since the inode's last log force).  The CIL push is in
 * model/fs/xfs/xfs_log_cil.c.  Untimed there is no log: a completed bio
 * is durable (docs/timed-mode.md).
 *
 * Leaves out: log items, transactions and their reservations, the
 * iclog ring and its sizes (one 4 KiB write per iclog, no checkpoint
 * spans two), the AIL and tail pushing, log recovery, shutdown, the
 * log_flushed report and stats, external log devices.
 */
#include "model/fs/xfs_log.h"
#include "model/linux/fs.h"
#include "sim/arena.h"

/*
 * m_xfs_log_mount - the log's part of xfs_log_mount: the log sits in the
 * middle of the device, as XFS's internal log sits in a middle
 * allocation group; every sequence starts empty (the CIL's current
 * context is 1).  Called from m_blkdev_attach_timed (dev->timed_attached).
 */
void m_xfs_log_mount(struct m_blkdev *dev, uint64_t capacity_bytes)
{
	struct m_xfs_log *log = sim_arena_alloc(sizeof(*log));

	(void)dev;
	log->log_blocks = M_XFS_LOG_BYTES >> PAGE_SHIFT;
	sim_word_init(&log->cil_seq, 1, "xfs.cil_seq");
	sim_word_init(&log->push_seq, 0, "xfs.push_seq");
	sim_word_init(&log->written_seq, 0, "xfs.written_seq");
	sim_word_init(&log->done_seq, 0, "xfs.done_seq");
	sim_word_init(&log->iclogs_syncing, 0, "xfs.iclogs_syncing");
	sim_waitq_init(&log->log_wait, "xfs.log_wait");
	log->log_sector = ((capacity_bytes / 2) >> PAGE_SHIFT)
			  << (PAGE_SHIFT - SECTOR_SHIFT);
	m_world()->xfs_log = log;
}

bool m_xfs_log_pinned(struct km_inode *inode, int datasync)
{
	struct m_xfs_log *log = m_world()->xfs_log;

	(void)datasync;
	if (!log || inode->i_ino > M_FILES_LONG_MAX)
		return false;
	return km_i_size_read(inode) != log->logged_size[inode->i_ino];
}

/*
 * One iclog write holding every checkpoint pushed so far: a log buffer
 * write with PREFLUSH and FUA, waited for; its completion is processed
 * only after the iclog before it completed (xlog_state_do_callback runs
 * iclogs in order), then its waiters are woken.
 */
static int xlog_write_iclog(struct m_xfs_log *log)
{
	uint64_t prev = sim_word_read(&log->written_seq);
	uint64_t mine = sim_word_read(&log->push_seq);
	struct km_bio *bio;
	int status;

	sim_word_write(&log->written_seq, mine);
	sim_word_add(&log->iclogs_syncing, 1);
	bio = km_bio_alloc(REQ_OP_WRITE, REQ_SYNC | REQ_IDLE | REQ_PREFLUSH |
			   REQ_FUA, log->log_sector + (log->log_next++ %
						       log->log_blocks) *
			   SECTORS_PER_PAGE);
	bio->dio_len = PAGE_SIZE;
	bio->no_content = true;
	status = km_submit_bio_wait(bio);
	while (sim_word_read(&log->done_seq) < prev)
		sim_waitq_sleep(&log->log_wait);
	sim_word_write(&log->done_seq, mine);
	sim_word_add(&log->iclogs_syncing, -1);
	sim_waitq_wake_all(&log->log_wait);
	return status;
}

/*
 * xlog_force_lsn: force the iclog holding checkpoint @seq and wait for
 * it.  An iclog not yet written waits once for the iclog before it if
 * that one is being written (more forces join it meanwhile: -EAGAIN,
 * the caller retries with @already_slept), then is written; one already
 * written is waited for.
 */
static int xlog_force_lsn(struct m_xfs_log *log, uint64_t seq,
			  bool already_slept)
{
	if (sim_word_read(&log->written_seq) < seq) {
		/* XLOG_STATE_ACTIVE */
		if (!already_slept && sim_word_read(&log->iclogs_syncing)) {
			sim_waitq_sleep(&log->log_wait);
			return -KM_EAGAIN;
		}
		return xlog_write_iclog(log);
	}
	/* On its way to disk: xlog_wait_on_iclog. */
	while (sim_word_read(&log->done_seq) < seq)
		sim_waitq_sleep(&log->log_wait);
	return 0;
}

/**
 * km_xfs_log_force_seq - make a checkpoint sequence stable.
 * Kernel: fs/xfs/xfs_log.c xfs_log_force_seq, xlog_force_lsn, v6.18.
 * Context: task, the timed device; XFS_LOG_SYNC (waits).
 * Return: 0 or the log write's error.
 * Divergences: no shutdown, no log_flushed report, no stats; the iclog
 * states are the sequences written and done (ACTIVE = not yet written,
 * WANT_SYNC/SYNCING = written, not done); iclogs written in order, each
 * completing after the one before it; one 4 KiB write per iclog.
 */
int km_xfs_log_force_seq(uint64_t seq)
{
	struct m_xfs_log *log = m_world()->xfs_log;
	uint64_t lsn = km_xlog_cil_force_seq(seq);
	int ret;

	if (!lsn)
		return 0;
	ret = xlog_force_lsn(log, lsn, false);
	if (ret == -KM_EAGAIN)
		ret = xlog_force_lsn(log, lsn, true);
	return ret;
}

/*
 * xfs_fsync_flush_log for an inode with a change to log: the change is
 * in the CIL's current context (ili_commit_seq), which is forced.
 */
int m_xfs_log_force(struct km_inode *inode)
{
	struct m_xfs_log *log = m_world()->xfs_log;
	uint64_t seq = sim_word_read(&log->cil_seq);

	if (inode->i_ino <= M_FILES_LONG_MAX)
		log->logged_size[inode->i_ino] = km_i_size_read(inode);
	return km_xfs_log_force_seq(seq);
}
