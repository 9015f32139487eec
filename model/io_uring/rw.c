// SPDX-License-Identifier: MIT
/*
 * model/io_uring/rw.c - io_uring buffered writes: the inline NOWAIT
 * attempt and the io-wq punt.
 *
 * Models io_uring/rw.c io_write of v6.18 (kernel-fs.md §6.1-§6.3) as
 * merged in v6.0 from seed 004 (Stefan Roesch, "Support sync buffered
 * writes for io-uring"): the first issue runs inline on the submitting
 * task with IO_URING_F_NONBLOCK, which sets IOCB_NOWAIT (XFS supports
 * buffered NOWAIT writes, FOP_BUFFER_WASYNC); every step of the write
 * path that would block returns -EAGAIN (i_rwsem trylock, timestamps,
 * folio lock, a partial block that needs a read, dirty throttling with
 * BDP_ASYNC).  -EAGAIN with no progress punts the request to an io-wq
 * worker; a short write keeps its bytes (io->bytes_done) and punts the
 * remainder; the worker issues without NOWAIT and loops on -EAGAIN.  One
 * CQE carries bytes_done + the last result.  A user RWF_NOWAIT
 * (REQ_F_NOWAIT) is never punted: -EAGAIN is the CQE.
 *
 * Where v1 (2022) differed, per the review thread in the seed: v1 added
 * an AOP flag and task_struct throttle deadlines with a pending list;
 * the merged form uses balance_dirty_pages_ratelimited_flags(BDP_ASYNC)
 * and plain io-wq punting (kernel-fs.md §6.4).  The model follows the
 * merged form.
 *
 * --variant uring=punt (m_world()->uring): the pre-series behaviour, every
 * buffered write punted to io-wq without an inline attempt (v5.19's
 * io_write for a file without FMODE_BUF_WASYNC).  Costs (timed mode):
 * io_uring_enter at submission, and at the wait only when the CQE is not
 * posted yet.
 *
 * Leaves out: the SQ ring and its memory (a request is submitted by a
 * call), poll arming (regular files are not pollable), sb_start_write
 * freeze protection, fixed files and buffers, linked requests, IOPOLL,
 * the async completion path for DIO (ki_complete) and REQ_F_REISSUE.
 */
#include "model/io_uring/rw.h"

#include <string.h>

#include "model/world.h"
#include "sim/clock.h"

void m_io_uring_req_init(struct m_io_uring_req *req, struct km_file *file,
			 loff_t pos, size_t len, unsigned int rwf,
			 uint32_t data_id)
{
	memset(req, 0, sizeof(*req));
	req->file = file;
	req->pos = pos;
	req->len = len;
	req->rwf = rwf;
	req->data_id = data_id;
	if (rwf & RWF_NOWAIT)
		req->flags |= REQ_F_NOWAIT;
	sim_completion_init(&req->cqe, "cqe");
}

/* io_req_set_res + the CQE post: bytes_done wins over a later error. */
static void io_complete(struct m_io_uring_req *req, long ret)
{
	if (ret < 0 && req->bytes_done > 0)
		req->result = (long)req->bytes_done;	/* io_fixup_rw_res */
	else
		req->result = (long)req->bytes_done + (ret > 0 ? ret : 0) +
			      (ret < 0 ? ret : 0);
	req->cqes++;
	sim_completion_complete(&req->cqe);
}

/**
 * km_io_write - issue (or re-issue) a write request.
 * Kernel: io_uring/rw.c io_write, v6.18.
 * Context: the submitting task (IO_URING_F_NONBLOCK) or an io-wq worker.
 * Return: 0 when the request completed (CQE posted), -EAGAIN to punt it
 * (again) to io-wq.
 */
int km_io_write(struct m_io_uring_req *req, unsigned int issue_flags)
{
	bool force_nonblock = issue_flags & IO_URING_F_NONBLOCK;
	struct km_kiocb iocb = {
		.ki_filp = req->file,
		.ki_pos = req->pos + (loff_t)req->bytes_done,
		.ki_flags = IOCB_WRITE,
	};
	struct km_iov_iter from = {
		.count = req->len - req->bytes_done,
		.data_id = req->data_id,
	};
	long ret;

	if (req->rwf & (RWF_DSYNC | RWF_SYNC))
		iocb.ki_flags |= IOCB_DSYNC;
	if (req->rwf & RWF_DONTCACHE)
		iocb.ki_flags |= IOCB_DONTCACHE;
	/* io_rw_init_file: NOWAIT inline, or by the user's request. */
	if (force_nonblock || (req->flags & REQ_F_NOWAIT))
		iocb.ki_flags |= IOCB_NOWAIT;
	if (force_nonblock)
		req->inline_attempts++;
	else
		req->worker_attempts++;

	/* --variant uring=punt: before seed 004, a buffered write to a file
	 * without FMODE_BUF_WASYNC was punted without an attempt. */
	if (force_nonblock && m_world()->uring == M_URING_PUNT)
		ret = -KM_EAGAIN;
	else
		ret = km_xfs_file_write_iter(&iocb, &from);
	if (ret == -KM_EOPNOTSUPP && (iocb.ki_flags & IOCB_NOWAIT))
		ret = -KM_EAGAIN;
	if (ret == -KM_EAGAIN && (req->flags & REQ_F_NOWAIT)) {
		io_complete(req, ret);	/* the user said: never block */
		return 0;
	}
	if (ret == -KM_EAGAIN)
		return -KM_EAGAIN;	/* no progress: punt (or retry) */
	if (ret > 0 && from.count > 0 && !(req->flags & REQ_F_NOWAIT)) {
		/* Short write: keep the bytes, punt the remainder. */
		req->bytes_done += (size_t)ret;
		return -KM_EAGAIN;
	}
	io_complete(req, ret);
	return 0;
}

/* The io-wq worker: blocking issues until the request completes. */
static void io_wq_worker(void *arg)
{
	struct m_io_uring_req *req = arg;

	req->handoffs++;	/* submitter -> worker */
	while (km_io_write(req, 0) == -KM_EAGAIN)
		;
	req->handoffs++;	/* worker -> the waiting submitter */
}

void m_io_uring_submit(struct m_io_uring_req *req)
{
	sim_cpu_syscall();	/* io_uring_enter(2) */
	if (km_io_write(req, IO_URING_F_NONBLOCK) == -KM_EAGAIN) {
		req->inline_bytes = req->bytes_done;
		req->punted = true;
		sim_task_spawn("io-wq", io_wq_worker, req);
	} else if (req->result > 0) {
		req->inline_bytes = (size_t)req->result;
	}
}

long m_io_uring_wait(struct m_io_uring_req *req)
{
	/* A CQE already posted is reaped from the ring without a syscall;
	 * else io_uring_enter(IORING_ENTER_GETEVENTS) waits for it. */
	if (!req->cqes)
		sim_cpu_syscall();
	sim_completion_wait(&req->cqe);
	return req->result;
}

long m_io_uring_write(struct m_io_uring_req *req)
{
	m_io_uring_submit(req);
	return m_io_uring_wait(req);
}
