// SPDX-License-Identifier: MIT
/*
 * model/fs/xfs/xfs_log.c - the XFS log, as fsync sees it on the timed
 * device.
 *
 * Models fs/xfs/xfs_log.c of v6.18: xfs_log_force_seq and xlog_force_lsn
 * (km_xfs_log_force_seq, with its log_flushed report), the iclog write
 * (xlog_sync -> xlog_write_iclog: a 4 KiB REQ_SYNC | REQ_IDLE |
 * REQ_PREFLUSH | REQ_FUA bio, completions processed in order, then the
 * checkpoint's items unpinned).  xfs_file_fsync and xfs_fsync_flush_log
 * are in model/fs/xfs/xfs_file.c, the inode log item's sequences in
 * model/fs/xfs/xfs_inode_item.c, the CIL push in
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
 * context is 1), and the world's files are on disk at their sizes.
 * Called from m_blkdev_attach_timed (dev->timed_attached).
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
	/* The files exist on disk at their sizes (laid out and synced
	 * before the run): nothing of theirs is in the log yet.  A file
	 * added later (a create) starts so too (model/world.c
	 * setup_file). */
	for (unsigned int f = 0; f < m_world()->nr_files; f++) {
		struct km_inode *inode = m_world()->inodes[f];

		inode->i_itemp.logged_size =
			(loff_t)sim_word_peek(&inode->i_size);
	}
	m_world()->xfs_log = log;
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
			  int *log_flushed, bool already_slept)
{
	if (sim_word_read(&log->written_seq) < seq) {
		/* XLOG_STATE_ACTIVE */
		if (!already_slept && sim_word_read(&log->iclogs_syncing)) {
			sim_waitq_sleep(&log->log_wait);
			return -KM_EAGAIN;
		}
		/* xlog_force_and_check_iclog: this force writes it. */
		if (log_flushed)
			*log_flushed = 1;
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
 * Return: 0 or the log write's error.  *@log_flushed (when given) is set
 * to 1 when this force wrote the iclog (found it ACTIVE); not when the
 * sequence was already stable or its iclog already on its way to disk:
 * xfs_file_fsync then flushes the device's cache itself.
 * Divergences: no shutdown, no stats; the iclog states are the
 * sequences written and done (ACTIVE = not yet written, WANT_SYNC/
 * SYNCING = written, not done: the WANT_SYNC case's NEED_FLUSH|NEED_FUA
 * marking has nothing to add, every model iclog write carries both);
 * iclogs written in order, each completing after the one before it; one
 * 4 KiB write per iclog.
 */
int km_xfs_log_force_seq(uint64_t seq, int *log_flushed)
{
	struct m_xfs_log *log = m_world()->xfs_log;
	uint64_t lsn = km_xlog_cil_force_seq(seq);
	int ret;

	if (!lsn)
		return 0;
	ret = xlog_force_lsn(log, lsn, log_flushed, false);
	if (ret == -KM_EAGAIN)
		ret = xlog_force_lsn(log, lsn, log_flushed, true);
	return ret;
}

/*
 * m_xfs_log_force: @inode's pending change is logged (a CORE change in
 * the CIL's current context) and that sequence forced.
 */
int m_xfs_log_force(struct km_inode *inode)
{
	struct m_xfs_log *log = m_world()->xfs_log;

	km_xfs_inode_item_committing(inode, sim_word_read(&log->cil_seq),
				     XFS_ILOG_CORE);
	return km_xfs_log_force_seq(m_xfs_inode_item_seq(inode, true), NULL);
}
