/* SPDX-License-Identifier: MIT */
/*
 * io_uring buffered writes (io_uring/rw.c), v6.18 shape of seed 004:
 * the inline IOCB_NOWAIT attempt, -EAGAIN, the punt to an io-wq worker,
 * short writes finished by the worker, one completion with the total.
 */
#ifndef WPSIM_MODEL_IO_URING_RW_H
#define WPSIM_MODEL_IO_URING_RW_H

#include "model/fs/xfs.h"

#define IO_URING_F_NONBLOCK	(1u << 0)
#define REQ_F_NOWAIT		(1u << 0)	/* the user asked RWF_NOWAIT */

struct m_io_uring_req {
	struct km_file *file;
	loff_t pos;
	size_t len;
	unsigned int rwf;
	uint32_t data_id;
	unsigned int flags;		/* REQ_F_* */
	/* The user buffer faults after this many bytes (0 = never). */
	size_t fault_after;
	size_t bytes_done;		/* io->bytes_done: kept across punts */
	long result;			/* the CQE's res */
	struct sim_completion cqe;
	/* The fast path's cost model (for the wave-2 latency model). */
	unsigned int inline_attempts;
	unsigned int worker_attempts;
	unsigned int handoffs;		/* task hand-offs the request made */
	unsigned int cqes;		/* CQEs posted (1 once complete) */
	size_t inline_bytes;		/* written by the inline attempt */
	bool punted;
	/* --variant uring=v1: held on the task's pending list until its
	 * dirty-throttling deadline (seed 004 v1 13/14). */
	bool delayed;
	struct m_io_uring_req *pending_next;
	/* IORING_OP_READ: the request reads into @out (a write id per
	 * sector, len / 512 of them) instead of writing @data_id. */
	bool read;
	uint32_t *out;
};

/* Submit from the running task (io_uring_enter): issue inline with
 * IO_URING_F_NONBLOCK; on -EAGAIN queue to an io-wq worker task. */
void m_io_uring_submit(struct m_io_uring_req *req);
/* Wait for the request's CQE (io_cqring_wait); returns res. */
long m_io_uring_wait(struct m_io_uring_req *req);
/* Submit and wait. */
long m_io_uring_write(struct m_io_uring_req *req);
void m_io_uring_req_init(struct m_io_uring_req *req, struct km_file *file,
			 loff_t pos, size_t len, unsigned int rwf,
			 uint32_t data_id);

int km_io_write(struct m_io_uring_req *req, unsigned int issue_flags);
int km_io_read(struct m_io_uring_req *req, unsigned int issue_flags);
/* An IORING_OP_READ request of @len bytes at @pos into @out. */
void m_io_uring_read_init(struct m_io_uring_req *req, struct km_file *file,
			  loff_t pos, size_t len, unsigned int rwf,
			  uint32_t *out);

#endif
