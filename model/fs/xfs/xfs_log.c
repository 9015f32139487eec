// SPDX-License-Identifier: MIT
/*
 * model/fs/xfs/xfs_log.c - the XFS log, as fsync and syncfs see it on
 * the timed device.
 *
 * Models fs/xfs/xfs_log.c of v6.18: xfs_log_force_seq and xlog_force_lsn
 * (km_xfs_log_force_seq, with its log_flushed report), xfs_log_force
 * with XFS_LOG_SYNC (km_xfs_log_force, syncfs's: session 20), the iclog write
 * (xlog_sync -> xlog_write_iclog: a 4 KiB REQ_SYNC | REQ_IDLE |
 * REQ_PREFLUSH | REQ_FUA bio, completions processed in order, then the
 * checkpoint's items unpinned; the record's time beyond a 4 KiB data
 * write's, log_write_ns, before its completion is processed).
 * xfs_file_fsync and xfs_fsync_flush_log
 * are in model/fs/xfs/xfs_file.c, the inode log item's sequences in
 * model/fs/xfs/xfs_inode_item.c, the CIL push in
 * model/fs/xfs/xfs_log_cil.c.  Untimed there is no log: a completed bio
 * is durable (docs/timed-mode.md).
 *
 * Since session 23 (h23-fdsync) a checkpoint has the bytes its commits
 * said (log_convert_bytes per splitting unwritten conversion), and one
 * larger than the active iclog's room is written into several iclogs
 * of M_XFS_ICLOG_BYTES, in order, the commit iclog after the one before
 * it (m_xlog_write); at 0 bytes every record is one 4 KiB iclog.
 *
 * Leaves out: log items, transactions and their reservations, the
 * iclog ring's count (8 logbufs: no wait for a free iclog), the
 * record's formatting (its bytes are the commits' figures), the AIL and
 * tail pushing, log recovery, shutdown, the log_flushed report and
 * stats, external log devices.
 */
#include "model/cost.h"
#include "model/fs/xfs_log.h"
#include "model/linux/fs.h"
#include "model/lockdep.h"
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
	const struct sim_lock_ref none = { 0 };

	(void)dev;
	log->log_blocks = M_XFS_LOG_BYTES >> PAGE_SHIFT;
	km_init_rwsem(&log->xc_ctx_lock, "xfs.xc_ctx_lock");
	if (m_world()->rwsem == M_RWSEM_SUMMARY)
		m_rwsem_use_summary(&log->xc_ctx_lock);
	sim_spin_init(&log->xc_push_lock, "xfs.xc_push_lock");
	sim_waitq_init(&log->xc_commit_wait, "xfs.xc_commit_wait");
	sim_word_init(&log->cil_seq, 1, "xfs.cil_seq");
	sim_word_init(&log->push_seq, 0, "xfs.push_seq");
	sim_word_init(&log->cil_written_seq, 0, "xfs.cil_written_seq");
	sim_word_init(&log->ctx_bytes, 0, "xfs.ctx_bytes");
	sim_spin_init(&log->l_icloglock, "xfs.l_icloglock");
	sim_word_init(&log->written_seq, 0, "xfs.written_seq");
	sim_word_init(&log->done_seq, 0, "xfs.done_seq");
	sim_word_init(&log->iclogs_syncing, 0, "xfs.iclogs_syncing");
	sim_word_init(&log->iclog_used, 0, "xfs.iclog_used");
	sim_waitq_init(&log->log_wait, "xfs.log_wait");
	/*
	 * The locking rules (fs/xfs/xfs_log_priv.h struct xfs_cil and
	 * struct xlog, v6.18): the current context, read by commits under
	 * xc_ctx_lock shared and switched under it exclusive
	 * (xlog_cil_commit, xlog_cil_push_work); xc_push_seq and the
	 * contexts' commit lsns under xc_push_lock (xlog_cil_push_now,
	 * xlog_cil_set_ctx_write_state; the model's waiters read the
	 * latter's word as they sleep, as xlog_wait does with the lock
	 * dropped); the iclog states under l_icloglock
	 * (xlog_state_switch_iclogs asserts it, xlog_force_lsn and
	 * xlog_state_do_callback hold it), done_seq read freely (the
	 * model's stand-in for the pin count and the committing list).
	 */
	sim_word_guard_ref(&log->cil_seq, SIM_GUARD_ALL, 0,
			   m_lock_rwsem(&log->xc_ctx_lock), none);
	sim_word_guard_ref(&log->push_seq, SIM_GUARD_ALL, 0,
			   SIM_LOCK(&log->xc_push_lock), none);
	sim_word_guard(&log->cil_written_seq, &log->xc_push_lock);
	sim_word_guard_ref(&log->written_seq, SIM_GUARD_ALL, 0,
			   SIM_LOCK(&log->l_icloglock), none);
	sim_word_guard_ref(&log->iclogs_syncing, SIM_GUARD_ALL, 0,
			   SIM_LOCK(&log->l_icloglock), none);
	sim_word_guard(&log->done_seq, &log->l_icloglock);
	sim_word_guard(&log->iclog_used, &log->l_icloglock);
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
 * One iclog write holding every checkpoint written into the active
 * iclog so far (cil_written_seq), with @flags (REQ_PREFLUSH, REQ_FUA:
 * the iclog's NEED_FLUSH and NEED_FUA) and @bytes (what it holds: at
 * least one 4 KiB page), entered with l_icloglock held, as
 * xlog_force_and_check_iclog is: the active iclog switched to
 * WANT_SYNC and released to SYNCING under it (xlog_state_switch_iclogs,
 * xlog_state_release_iclog: written_seq and iclogs_syncing change in
 * one section), the lock dropped around the write (xlog_sync: a log
 * buffer write with PREFLUSH and FUA, waited for); its completion is
 * processed only after the iclog before it completed
 * (xlog_state_do_callback runs iclogs in order, under l_icloglock),
 * then its waiters are woken.
 *
 * Before the completion is processed the task waits log_write_ns (the
 * CPU profile's; nothing when it is 0): what the kernel's log force
 * takes beyond the device commands the model issues for it.  On this
 * machine's loop device, traced (docs/validation.md, session 19
 * h19-sync), two things: the record is written at the log's sector
 * granularity (512 bytes: 1-5.5 KiB from where the last record ended,
 * so most records cover parts of two or three 4 KiB pages of the
 * backing file) and those writes took 69 us at p50 on the disk below
 * against 31 us for the 4 KiB data writes of the same run; and the
 * log's own hand-offs, which the model runs inline: the CIL push on the
 * xfs-cil work queue (xlog_cil_push_now queues it and the force sleeps
 * on xc_commit_wait), the bio's completion on the log's ioend work
 * queue (xlog_ioend_work -> xlog_state_done_syncing), and the flush
 * machinery's requeue of the DATA step (kblockd).  One figure stands
 * for both, taken at the end of the record's I/O, while the waiters of
 * the iclog wait for it as they wait for its completion.
 */
static int xlog_write_iclog(struct m_xfs_log *log, unsigned int flags,
			    uint64_t bytes)
{
	uint64_t prev = sim_word_read(&log->written_seq);
	uint64_t mine = sim_word_read(&log->cil_written_seq);
	uint64_t pages = bytes > PAGE_SIZE ?
			 (bytes + PAGE_SIZE - 1) >> PAGE_SHIFT : 1;
	struct km_bio *bio;
	int status;

	sim_word_add(&log->iclogs_syncing, 1);
	sim_word_write(&log->written_seq, mine);
	sim_spin_unlock(&log->l_icloglock);
	/* The ring: a record that would cross the log's end starts at its
	 * beginning (the kernel splits it there, xlog_write_iclog). */
	if (log->log_next % log->log_blocks + pages > log->log_blocks)
		log->log_next += log->log_blocks -
				 log->log_next % log->log_blocks;
	bio = km_bio_alloc(REQ_OP_WRITE, REQ_SYNC | REQ_IDLE | flags,
			   log->log_sector + (log->log_next % log->log_blocks) *
			   SECTORS_PER_PAGE);
	log->log_next += pages;
	bio->dio_len = pages << PAGE_SHIFT;
	bio->no_content = true;
	status = km_submit_bio_wait(bio);
	m_cost_log_write();	/* log_write_ns: a wait, at 0 nothing */
	while (sim_word_read(&log->done_seq) < prev)
		sim_waitq_sleep(&log->log_wait);
	sim_spin_lock(&log->l_icloglock);
	sim_word_write(&log->done_seq, mine);
	sim_word_add(&log->iclogs_syncing, -1);
	sim_waitq_wake_all(&log->log_wait);
	sim_spin_unlock(&log->l_icloglock);
	return status;
}

/*
 * xlog_state_switch_iclogs' ic_offset: the active iclog is switched out
 * with the bytes it holds (what xlog_sync writes, rounded up to the
 * model's 4 KiB pages), and the next one starts empty.  Under
 * l_icloglock.  Without log_convert_bytes no record has bytes and
 * nothing is read (no step: every profile without it schedules as
 * before).
 */
static uint64_t xlog_switch_active(struct m_xfs_log *log)
{
	uint64_t used;

	if (!m_cost_log_convert_bytes())
		return 0;
	used = sim_word_read(&log->iclog_used);

	if (used)
		sim_word_write(&log->iclog_used, 0);
	return used;
}

/**
 * m_xlog_write - the CIL push writes a checkpoint's record into the
 * iclogs.
 * Kernel: fs/xfs/xfs_log.c xlog_write -> xlog_write_get_more_iclog_space
 * -> xlog_state_get_iclog_space (an iclog without room for the rest is
 * switched, xlog_state_switch_iclogs, and released to be written,
 * xlog_state_release_iclog -> xlog_sync -> xlog_write_iclog), and
 * fs/xfs/xfs_log_cil.c xlog_cil_push_work's wait for the iclog before
 * the commit iclog (xlog_wait_on_iclog(commit_iclog->ic_prev), when
 * start_lsn != commit_lsn), v6.18.
 * Context: the CIL push (the forcing task), no lock held; takes
 * l_icloglock; sleeps for each full iclog's write.
 * Return: true when the record spanned iclogs (one or more were filled
 * and written here), false when it fits the active iclog's room.
 * The active iclog holds @len more bytes afterwards: the commit iclog,
 * which the force that wants the checkpoint writes (xlog_force_lsn),
 * with PREFLUSH | FUA.  The first iclog of the checkpoint (its start
 * record) is written with PREFLUSH (xlog_cil_set_ctx_write_state's
 * NEED_FLUSH), and with FUA as well when it holds an earlier
 * checkpoint's commit record (NEED_FUA); the iclogs after it with
 * neither.
 * Divergences: the record's bytes are what the commits said
 * (log_convert_bytes per splitting conversion, headers included); an
 * iclog's room is M_XFS_ICLOG_BYTES, its header in it; each full iclog
 * is written and waited for before the next is filled, where the
 * kernel submits each as it fills and waits only for the last before
 * the commit iclog (the same for a record of two iclogs); the record is
 * written after every earlier checkpoint's commit record
 * (xlog_cil_order_write's START ordering is weaker: two checkpoints'
 * records never interleave here).
 */
bool m_xlog_write(struct m_xfs_log *log, uint64_t len)
{
	bool spanned = false;
	uint64_t used;

	sim_spin_lock(&log->l_icloglock);
	used = sim_word_read(&log->iclog_used);
	while (used + len > M_XFS_ICLOG_BYTES) {
		unsigned int flags = spanned ? 0 : REQ_PREFLUSH |
				     (used ? REQ_FUA : 0);

		len -= M_XFS_ICLOG_BYTES - used;
		sim_word_write(&log->iclog_used, 0);
		/* xlog_write_iclog drops l_icloglock, waits for the
		 * write and for the iclogs before it to complete. */
		xlog_write_iclog(log, flags, M_XFS_ICLOG_BYTES);
		spanned = true;
		sim_spin_lock(&log->l_icloglock);
		used = sim_word_read(&log->iclog_used);
	}
	sim_word_write(&log->iclog_used, used + len);
	sim_spin_unlock(&log->l_icloglock);
	return spanned;
}

/*
 * xlog_force_lsn: force the iclog holding checkpoint @seq and wait for
 * it, under l_icloglock.  An iclog not yet written waits once for the
 * iclog before it if that one is being written (more forces join it
 * meanwhile: -EAGAIN, the caller retries with @already_slept), then is
 * written; one already written is waited for.  Each wait drops the
 * lock as it sleeps (xlog_wait, xlog_wait_on_iclog).
 */
static int xlog_force_lsn(struct m_xfs_log *log, uint64_t seq,
			  int *log_flushed, bool already_slept)
{
	sim_spin_lock(&log->l_icloglock);
	if (sim_word_read(&log->written_seq) < seq) {
		/* XLOG_STATE_ACTIVE */
		if (!already_slept && sim_word_read(&log->iclogs_syncing)) {
			sim_spin_unlock(&log->l_icloglock);
			sim_waitq_sleep(&log->log_wait);
			return -KM_EAGAIN;
		}
		/* xlog_force_and_check_iclog: this force writes it
		 * (xlog_force_iclog: NEED_FLUSH | NEED_FUA), switched with
		 * what it holds (ic_offset). */
		if (log_flushed)
			*log_flushed = 1;
		return xlog_write_iclog(log, REQ_PREFLUSH | REQ_FUA,
					xlog_switch_active(log));
	}
	/* On its way to disk: xlog_wait_on_iclog. */
	sim_spin_unlock(&log->l_icloglock);
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
 * marking has nothing to add, every model iclog write carries both),
 * changed and looked at under l_icloglock as v6.18's are, the switch to
 * WANT_SYNC and the release to SYNCING in one section (the kernel drops
 * the lock between them only when another writer still holds the
 * iclog: the model has none); the -EAGAIN wait sleeps in the step that
 * drops the lock (xlog_wait: enqueued before the unlock), the wait for
 * an iclog on its way to disk re-reads done_seq after the unlock;
 * iclogs written in order, each completing after the one before it; an
 * iclog write is the bytes the active iclog holds (iclog_used, since
 * session 23; at least 4 KiB, in 4 KiB pages: the kernel's is the
 * record rounded to the log's 512-byte sector, from where the last one
 * ended: its extra device time, and the CIL push's and the ioend's
 * work-queue hand-offs, are one figure, log_write_ns, waited at the end
 * of the write); a checkpoint fills iclogs only through m_xlog_write
 * (the push), never by a force.
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
	km_xlog_cil_commit(inode, XFS_ILOG_CORE);
	return km_xfs_log_force_seq(m_xfs_inode_item_seq(inode, true), NULL);
}

/**
 * km_xfs_log_force - make everything the log holds stable (XFS_LOG_SYNC).
 * Kernel: fs/xfs/xfs_log.c xfs_log_force, v6.18 (from xfs_fs_sync_fs).
 * Context: task, the timed device; waits.
 * Return: 0 or the log write's error.
 * The CIL is forced up to its current sequence (xlog_cil_force) when it
 * is not empty, and its iclog written and waited for; with an empty CIL
 * an iclog already on its way to disk is waited for; a log with nothing
 * in it and nothing in flight costs no I/O (the kernel's "iclog ACTIVE
 * and empty, the one before it done" case).
 * Divergences: XFS_LOG_SYNC only (the model's one caller waits); no log
 * (untimed: a completed bio is durable, see the file): 0; the
 * model's CIL has no items (xfs_log_cil.c): "not empty" is read from the
 * inode log items, the highest sequence an XFS inode's item was committed
 * into and that is not yet stable (m_xfs_inode_item_seq), which is what
 * gets forced (the kernel forces xc_current_sequence: the same
 * checkpoints, since a checkpoint with no inode item holds nothing the
 * model logs); the wait for an iclog in flight re-reads done_seq after
 * l_icloglock is dropped, as the force of a written sequence does.
 */
int km_xfs_log_force(void)
{
	struct m_world *w = m_world();
	struct m_xfs_log *log = w->xfs_log;
	uint64_t seq = 0, written;

	if (!log)
		return 0;
	for (unsigned int f = 0; f < w->nr_files; f++) {
		struct km_inode *inode = w->inodes[f];
		uint64_t s;

		if (!inode || inode->i_fop != &km_xfs_file_operations)
			continue;
		s = m_xfs_inode_item_seq(inode, false);
		if (s > seq)
			seq = s;
	}
	if (seq)
		return km_xfs_log_force_seq(seq, NULL);
	/* An empty CIL: the iclog before the active one, if on its way. */
	sim_spin_lock(&log->l_icloglock);
	written = sim_word_read(&log->written_seq);
	sim_spin_unlock(&log->l_icloglock);
	while (sim_word_read(&log->done_seq) < written)
		sim_waitq_sleep(&log->log_wait);
	return 0;
}
