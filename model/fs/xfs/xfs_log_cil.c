// SPDX-License-Identifier: MIT
/*
 * model/fs/xfs/xfs_log_cil.c - the XFS CIL's push, as a log force needs
 * it.
 *
 * Models xlog_cil_force_seq of fs/xfs/xfs_log_cil.c, v6.18: a force of a
 * sequence pushes the committed item list up to it (xlog_cil_push_now),
 * which the model reduces to closing the current context and opening the
 * next (the sequences of struct m_xfs_log, include/model/fs/xfs_log.h).
 *
 * Leaves out: the CIL itself (log items, per-CPU lists, the checkpoint
 * formatting and its ticket), the push work item (run inline), the
 * committing list, background pushes at the space threshold.
 */
#include "model/fs/xfs_log.h"

/**
 * km_xlog_cil_force_seq - push the CIL up to a sequence.
 * Kernel: fs/xfs/xfs_log_cil.c xlog_cil_force_seq, v6.18.
 * Context: task, the timed device.
 * Return: the commit "lsn" to force (the model names an iclog by the
 * last sequence it holds: @seq), or 0 (NULLCOMMITLSN) when @seq is
 * already on stable storage.
 * Divergences: the push (xlog_cil_push_now, a work item in the kernel)
 * runs inline and only moves the sequences: a context is one checkpoint
 * and every pushed checkpoint goes into the next iclog written (the
 * model's iclogs have no size: no checkpoint spans two); no committing
 * list walk (pushes complete at once, so none is found still pushing).
 */
uint64_t km_xlog_cil_force_seq(uint64_t seq)
{
	struct m_xfs_log *log = m_world()->xfs_log;

	if (sim_word_read(&log->done_seq) >= seq)
		return 0;
	/* xlog_cil_push_now: close the current context, open the next. */
	if (sim_word_read(&log->push_seq) < seq) {
		sim_word_write(&log->push_seq, seq);
		sim_word_write(&log->cil_seq, seq + 1);
	}
	return seq;
}
