// SPDX-License-Identifier: MIT
/*
 * model/fs/xfs/xfs_log_cil.c - the XFS CIL: commits into its current
 * context and the push a log force needs.
 *
 * Models fs/xfs/xfs_log_cil.c of v6.18: xlog_cil_commit (a transaction
 * joins the current context under xc_ctx_lock held shared),
 * xlog_cil_force_seq with xlog_cil_push_now (a push requested under
 * xc_push_lock) and xlog_cil_push_work (the context switch under
 * xc_ctx_lock held exclusive and xc_push_lock; the checkpoint's commit
 * lsn set in order, xlog_cil_order_write and
 * xlog_cil_set_ctx_write_state), as far as the sequences of
 * struct m_xfs_log (include/model/fs/xfs_log.h) carry them.
 *
 * Leaves out: the CIL's items (log vectors, shadow buffers, per-CPU
 * lists, the checkpoint's ticket and formatting: since session 23 a
 * context's space_used is kept as the bytes its commits say, ctx_bytes,
 * and the push writes that many into the iclogs, m_xlog_write), the
 * push work queue (the push runs inline, in the forcing task), the
 * committing list (a push completes in the task that runs it: what a
 * waiter looks for there is whether its sequence is still current),
 * background pushes at the space threshold, the empty-CIL flag,
 * shutdown.
 */
#include "model/cost.h"
#include "model/fs/xfs_log.h"

/**
 * km_xlog_cil_commit - a transaction commits into the CIL.
 * Kernel: fs/xfs/xfs_log_cil.c xlog_cil_commit, v6.18 (from
 * xfs_trans_commit -> __xfs_trans_commit).
 * Context: task; takes xc_ctx_lock shared ("lock out background
 * commit"), released as xlog_cil_push_background does.
 * Return: the sequence committed into (the kernel's *commit_seq), or 0
 * without the log (untimed).
 * Divergences: one log item, the inode's (iop_committing is
 * km_xfs_inode_item_committing with the transaction's @dirty_flags);
 * no shadow buffers, no insertion or space accounting, no ticket
 * regrant, no background push (the model's items have no size).
 */
uint64_t km_xlog_cil_commit(struct km_inode *inode, unsigned int dirty_flags)
{
	return m_xlog_cil_commit_len(inode, dirty_flags, 0);
}

/*
 * m_xlog_cil_commit_len: km_xlog_cil_commit with the transaction's record
 * bytes, @len (since session 23): xlog_cil_insert_items adds the items'
 * formatted length to the context's space_used (a per-CPU counter the
 * push aggregates, xlog_cil_push_pcp_aggregate); the model adds @len to
 * ctx_bytes under xc_ctx_lock shared, in the same section as the
 * sequence the commit joins.  @len 0 adds nothing and no step; the push
 * reads ctx_bytes only when the CPU profile's log_convert_bytes is set
 * (without it no commit has bytes, and every profile without it
 * schedules as before).
 */
uint64_t m_xlog_cil_commit_len(struct km_inode *inode,
			       unsigned int dirty_flags, uint64_t len)
{
	struct m_xfs_log *log = m_world()->xfs_log;
	uint64_t sequence;

	if (!log)
		return 0;
	km_down_read(&log->xc_ctx_lock);
	/* xlog_cil_insert_items: the items' length only (len), not the
	 * items.  The items' committing hook with the current context's
	 * sequence. */
	sequence = sim_word_read(&log->cil_seq);
	if (len)
		sim_word_add(&log->ctx_bytes, len);
	km_xfs_inode_item_committing(inode, sequence, dirty_flags);
	/* xlog_cil_push_background releases xc_ctx_lock. */
	km_up_read(&log->xc_ctx_lock);
	return sequence;
}

/*
 * xlog_cil_push_work, run inline by the task that requested the push:
 * with xc_ctx_lock exclusive (no commit can be inside the context),
 * take the push sequence; a context already pushed past it is skipped,
 * else the context is switched to the next (xlog_cil_ctx_switch, under
 * xc_push_lock) and xc_ctx_lock dropped.  The checkpoint is then written
 * into the active iclog after every checkpoint before it
 * (xlog_cil_order_write: a wait on xc_commit_wait) and its commit lsn
 * set, waking the forces that wait for it (xlog_cil_set_ctx_write_state,
 * under xc_push_lock): the model raises cil_written_seq there.
 */
static void xlog_cil_push_work(struct m_xfs_log *log)
{
	uint64_t push_seq, sequence, len;

	km_down_write(&log->xc_ctx_lock);
	sim_spin_lock(&log->xc_push_lock);
	push_seq = sim_word_read(&log->push_seq);
	sequence = sim_word_read(&log->cil_seq);
	/* check for a previously pushed sequence */
	if (push_seq < sequence) {
		sim_spin_unlock(&log->xc_push_lock);
		km_up_write(&log->xc_ctx_lock);
		return;
	}
	/* xlog_cil_ctx_switch: the next context is current; the pushed
	 * context's space_used is its record's length. */
	sim_word_write(&log->cil_seq, sequence + 1);
	len = m_cost_log_convert_bytes() ?
	      sim_word_read(&log->ctx_bytes) : 0;
	if (len)
		sim_word_write(&log->ctx_bytes, 0);
	sim_spin_unlock(&log->xc_push_lock);
	km_up_write(&log->xc_ctx_lock);

	/* xlog_cil_order_write, then xlog_write: the checkpoints before
	 * this one first (xlog_wait drops xc_push_lock as it sleeps). */
	for (;;) {
		sim_spin_lock(&log->xc_push_lock);
		if (sim_word_read(&log->cil_written_seq) + 1 >= sequence)
			break;
		sim_spin_unlock(&log->xc_push_lock);
		sim_waitq_sleep(&log->xc_commit_wait);
	}
	/* xlog_write of the checkpoint (since session 23): a record larger
	 * than the active iclog's room fills it and the iclogs after it,
	 * each written as it fills; a checkpoint that spanned iclogs waits
	 * for the last of them before its commit iclog is released
	 * (xlog_wait_on_iclog(commit_iclog->ic_prev)).  With len 0 nothing
	 * spans and no step is added. */
	if (len) {
		sim_spin_unlock(&log->xc_push_lock);
		m_xlog_write(log, len);
		sim_spin_lock(&log->xc_push_lock);
	}
	/* xlog_cil_set_ctx_write_state: commit_lsn set, waiters woken. */
	sim_word_write(&log->cil_written_seq, sequence);
	sim_waitq_wake_all(&log->xc_commit_wait);
	sim_spin_unlock(&log->xc_push_lock);
}

/**
 * km_xlog_cil_force_seq - push the CIL up to a sequence.
 * Kernel: fs/xfs/xfs_log_cil.c xlog_cil_force_seq, xlog_cil_push_now,
 * v6.18.
 * Context: task, the timed device; takes xc_push_lock, and xc_ctx_lock
 * exclusive when it runs the push; may sleep on xc_commit_wait.
 * Return: the commit "lsn" to force (the model names an iclog by the
 * last sequence it holds: @seq), or 0 (NULLCOMMITLSN) when @seq is
 * already on stable storage.
 * Divergences: the push (xlog_cil_push_now queues a work item in the
 * kernel) runs inline, in the task whose request set xc_push_seq; a
 * context is one checkpoint and every checkpoint written goes into the
 * next iclog written (the model's iclogs have no size: no checkpoint
 * spans two); no committing list: a force waits (xc_commit_wait) while
 * its sequence has been requested but not yet written by the push that
 * runs it, as the kernel's waits for a context with no commit_lsn or
 * restarts while its sequence is still current.  The "already stable"
 * test reads done_seq (the kernel finds no committing context and
 * returns NULLCOMMITLSN).
 */
uint64_t km_xlog_cil_force_seq(uint64_t seq)
{
	struct m_xfs_log *log = m_world()->xfs_log;
	bool push;

	if (sim_word_read(&log->done_seq) >= seq)
		return 0;
	/* xlog_cil_push_now(log, seq, false) */
	sim_spin_lock(&log->xc_push_lock);
	push = seq > sim_word_read(&log->push_seq);
	if (push)
		sim_word_write(&log->push_seq, seq);
	sim_spin_unlock(&log->xc_push_lock);
	if (push)
		xlog_cil_push_work(log);	/* queue_work: inline */
	/* A push requested by another task that has not yet written the
	 * checkpoint: wait for it (xlog_wait on xc_commit_wait, which
	 * drops xc_push_lock as it sleeps). */
	for (;;) {
		sim_spin_lock(&log->xc_push_lock);
		if (sim_word_read(&log->cil_written_seq) >= seq)
			break;
		sim_spin_unlock(&log->xc_push_lock);
		sim_waitq_sleep(&log->xc_commit_wait);
	}
	sim_spin_unlock(&log->xc_push_lock);
	return seq;
}
