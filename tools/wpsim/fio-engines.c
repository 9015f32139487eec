// SPDX-License-Identifier: MIT
/*
 * tools/wpsim/fio-engines.c - `wpsim fio`, fio 3.33's engines over the
 * model's syscalls: the synchronous ones through a table of syscall rows
 * (psync, sync, pvsync, pvsync2, vsync, posixaio: engines/sync.c,
 * posixaio.c), libaio (io_submit with iodepth slots, io_getevents when
 * the queue is full: engines/libaio.c), io_uring (the model's
 * m_io_uring_submit, iodepth slots), null (engines/null.c: completes as
 * queued, trims included; the other engines' trims are ioctl(BLKDISCARD),
 * fio_run_issue_trim); and the syncs fio issues (fsync=, fdatasync=,
 * sync_file_range=, end_fsync: do_io_u_sync, get_rw_ddir).
 *
 * posixaio with iodepth > 1: glibc's helper thread, one per file, runs
 * the queued requests in order (job_posix_issue).
 *
 * Leaves out: what tools/wpsim/fio.c's opening lists (vsync with
 * iodepth > 1, mmap; trims on io_uring and posixaio queues; posixaio with
 * iodepth > 1 on several files, with syncs or verify).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/cost.h"
#include "model/io_uring/rw.h"
#include "model/linux/syscalls.h"
#include "sim/clock.h"
#include "sim/engine.h"
#include "tools/wpsim/fio-run.h"

static unsigned int rwf_of(const struct fio_job *j)
{
	unsigned int rwf = 0;

	if (j->nowait)
		rwf |= RWF_NOWAIT;
	if (j->uncached)
		rwf |= RWF_DONTCACHE;
	if (j->writethrough)
		rwf |= RWF_WRITETHROUGH;
	return rwf;
}

/* A write's RWF_ flags: atomic=1 adds RWF_ATOMIC (fio 3.38+ engines/
 * sync.c pvsync2, libaio.c, io_uring.c: writes only; fio clears
 * atomic on a job that does not write). */
static unsigned int rwf_write_of(const struct fio_job *j)
{
	return rwf_of(j) | (j->atomic ? RWF_ATOMIC : 0);
}

/*
 * A sync I/O of fio's (do_io_u_sync, fio 3.33): fsync(2), fdatasync(2),
 * or sync_file_range(2) of the range written since the last one.  The
 * write_iolog line carries the stale offset of the I/O before it, as
 * fio's reused io_u does.  @count: a sync of fsync=/fdatasync=/
 * sync_file_range= (end_fsync is not counted by fio 3.33).
 */
int fio_run_job_sync(struct job_run *jr, struct km_file *file,
		    enum fio_sync_kind kind, bool count)
{
	static const char *const action[] = {
		[FIO_SYNC_KIND_FSYNC] = "sync",
		[FIO_SYNC_KIND_FDATASYNC] = "datasync",
		[FIO_SYNC_KIND_SYNC_FILE_RANGE] = "sync_file_range",
	};
	uint64_t t0 = sim_now();
	int ret;

	fio_run_iolog_note(jr, file, action[kind], true, jr->last_offset, 0);
	if (jr->job->ioengine == FIO_ENGINE_NULL)
		ret = 0;	/* null.c completes a sync as queued */
	else switch (kind) {
	case FIO_SYNC_KIND_FSYNC:
		ret = (int)fio_run_file_syscall(M_SYS_FSYNC,
				     &(struct m_sys_args){ .file = file });
		break;
	case FIO_SYNC_KIND_FDATASYNC:
		ret = (int)fio_run_file_syscall(M_SYS_FDATASYNC,
				     &(struct m_sys_args){ .file = file });
		break;
	default:
		ret = (int)fio_run_file_syscall(M_SYS_SYNC_FILE_RANGE,
				     &(struct m_sys_args){
					.file = file,
					.pos = (loff_t)jr->sfr_first,
					.len = (size_t)(jr->sfr_last -
							jr->sfr_first),
					.flags = jr->job->sfr_flags });
		jr->sfr_first = UINT64_MAX;
		jr->sfr_last = 0;
		break;
	}
	if (jr->ramped && count)
		fio_result_add_sync_kind(jr->result, kind, sim_now() - t0);
	jr->last_was_write = false;
	return ret < 0 ? ret : 0;
}

/*
 * fio's get_rw_ddir() (io_u.c, fio 3.33), before each I/O: when the last
 * I/O issued was a write and the writes issued so far are a multiple of
 * fsync=, else fdatasync=, else sync_file_range='s N, the next I/O is
 * that sync.  So a job that ends on such a write issues none after it.
 * Return: the kind + 1, or 0.
 */
int fio_run_sync_due(const struct job_run *jr)
{
	const struct fio_job *j = jr->job;
	uint64_t w = jr->writes_issued;

	if (!jr->last_was_write || !w)
		return 0;
	if (j->fsync_blocks && w % j->fsync_blocks == 0)
		return FIO_SYNC_KIND_FSYNC + 1;
	if (j->fdatasync_blocks && w % j->fdatasync_blocks == 0)
		return FIO_SYNC_KIND_FDATASYNC + 1;
	if (j->sfr_flags && w % j->sfr_nr == 0)
		return FIO_SYNC_KIND_SYNC_FILE_RANGE + 1;
	return 0;
}

/* A write was issued: what the syncs after it need. */
void fio_run_note_write(struct job_run *jr, uint64_t pos, uint64_t bs)
{
	jr->writes_issued++;
	jr->last_was_write = true;
	if (pos < jr->sfr_first)
		jr->sfr_first = pos;
	if (pos + bs > jr->sfr_last)
		jr->sfr_last = pos + bs;
}

/*
 * The synchronous engines (fio's engines/sync.c, posixaio.c; fio 3.33)
 * and the syscall each issues per I/O, one row each: the model's
 * syscall table (model/fs/syscalls.c) takes it to the file's f_op.
 * @seeks: an lseek(2) first when the offset is not where the last I/O
 * of the file ended (fio_syncio_prep: always before the first).
 * @rwf: the job's RWF_* flags are passed.  Divergences: read(2)/
 * write(2) go through the pread64/pwrite64 rows, readv/writev/preadv/
 * pwritev through preadv2/pwritev2 with flags 0 (the kernel's
 * ksys_read/ksys_pread64 and do_readv/do_preadv reach the same
 * vfs_read/vfs_iter_read with the position given); posixaio's glibc
 * helper thread is the job's own task (iodepth 1 only).
 */
static const struct {
	enum fio_engine engine;
	enum m_sys read, write;
	bool seeks, rwf;
} sync_engines[] = {
	{ FIO_ENGINE_PSYNC, M_SYS_PREAD64, M_SYS_PWRITE64, false, false },
	{ FIO_ENGINE_SYNC, M_SYS_PREAD64, M_SYS_PWRITE64, true, false },
	{ FIO_ENGINE_PVSYNC, M_SYS_PREADV2, M_SYS_PWRITEV2, false, false },
	{ FIO_ENGINE_PVSYNC2, M_SYS_PREADV2, M_SYS_PWRITEV2, false, true },
	{ FIO_ENGINE_VSYNC, M_SYS_PREADV2, M_SYS_PWRITEV2, true, false },
	{ FIO_ENGINE_POSIXAIO, M_SYS_PREAD64, M_SYS_PWRITE64, false, false },
};

long fio_run_file_syscall(enum m_sys nr, const struct m_sys_args *args)
{
	struct km_inode *inode = args->file->f_inode;
	long ret;

	/* A device's file has no inode of the model's (the block device,
	 * the memory devices). */
	if (!inode)
		return m_syscall(nr, args);
	m_world_inode_use(inode);
	ret = m_syscall(nr, args);
	m_world_inode_done(inode);
	return ret;
}

void fio_run_files_idle(void)
{
	bool *async = calloc(R->nr_files ? R->nr_files : 1, sizeof(*async));

	if (!async)
		return;	/* every inode stays checked */
	for (unsigned int i = 0; i < R->njobs; i++) {
		const struct job_run *jr = &R->jobs[i];

		if (fio_run_sync_engine_row(jr->job->ioengine) >= 0 ||
		    jr->job->ioengine == FIO_ENGINE_NULL)
			continue;
		for (unsigned int f = 0; f < jr->nfiles; f++)
			async[jr->world_file[f]] = true;
	}
	for (unsigned int f = 0; f < R->nr_files; f++) {
		if (async[f])
			continue;
		m_world_inode_use(m_world()->inodes[f]);
		m_world_inode_done(m_world()->inodes[f]);
	}
	free(async);
}

int fio_run_sync_engine_row(enum fio_engine engine)
{
	for (unsigned int i = 0; i < sizeof(sync_engines) /
	     sizeof(sync_engines[0]); i++)
		if (sync_engines[i].engine == engine)
			return (int)i;
	return -1;
}

/* One synchronous call, through the engine's row of sync_engines. */
long fio_run_sync_io(struct job_run *jr, struct km_file *file, bool read,
		    uint64_t pos, uint64_t bs, uint32_t data_id)
{
	const struct fio_job *j = jr->job;
	int row = fio_run_sync_engine_row(j->ioengine);
	struct m_sys_args a = { .file = file, .pos = (loff_t)pos, .len = bs,
				.data_id = data_id, .out = jr->read_buf };
	unsigned int f;

	SIM_ASSERT_MSG(row >= 0, "fio: engine %s has no sync row",
		       fio_engine_name(j->ioengine));
	f = fio_run_file_index(jr, file);
	if (sync_engines[row].seeks && jr->engine_pos[f] != pos)
		fio_run_file_syscall(M_SYS_LSEEK, &a);
	jr->engine_pos[f] = pos + bs;
	if (sync_engines[row].rwf)
		a.flags = read ? rwf_of(j) : rwf_write_of(j);
	return fio_run_file_syscall(read ? sync_engines[row].read :
			 sync_engines[row].write, &a);
}

/* Reap io_uring slot @s: its CQE, its latencies. */
static int uring_reap(struct job_run *jr, unsigned int s, uint64_t bs)
{
	struct m_io_uring_req *req = &jr->reqs[s];
	long ret = m_io_uring_wait(req);

	if (req->delayed)
		R->uring_delayed++;
	sim_object_retire(req->cqe.done.id);
	sim_object_retire(req->cqe.waiters.id);
	jr->req_busy[s] = false;
	jr->req_inflight--;
	bs = jr->req_bs[s];	/* the slot's own (randrw: bs per direction) */
	if (ret < 0)	/* fio-err.c: continue_on_error, fill_device */
		return fio_run_io_error(jr, jr->req_read[s],
					jr->files[jr->req_file[s]],
					jr->req_pos[s], bs, (int)-ret);
	if (ret != (long)bs)
		return -KM_EIO;
	fio_prio_reaped(jr, s);
	fio_run_record_io(jr, jr->req_read[s] ? FIO_DDIR_READ : FIO_DDIR_WRITE,
			  bs, jr->req_pos[s], jr->req_start_ns[s],
			  jr->req_issue_ns[s], sim_now());
	return jr->req_read[s] ? fio_run_reap_verify(jr, s) : 0;
}

/* io_getevents(2)'s entry; the caller then reaps (aio_reap). */
static void io_getevents_enter(void)
{
	m_syscall(M_SYS_IO_GETEVENTS, &(struct m_sys_args){ 0 });
}

/*
 * Reap libaio slot @s (io_getevents; the caller issues the syscall): a
 * buffered write completed inside io_submit, a write-through one when
 * its bios have (seed 000 6/11, ki_complete).
 */
static int aio_reap(struct job_run *jr, unsigned int s, uint64_t bs)
{
	struct m_aio_req *req = &jr->aio[s];
	long ret;

	/* A queued request's event leaves the ring with it. */
	if (req->queued) {
		if (jr->ring_credit)
			jr->ring_credit--;
		else
			sim_completion_wait(&jr->ring);
	}
	ret = m_aio_wait(req);

	sim_object_retire(req->done.done.id);
	sim_object_retire(req->done.waiters.id);
	jr->req_busy[s] = false;
	jr->req_inflight--;
	(void)bs;
	bs = jr->req_bs[s];
	if (ret < 0)	/* fio-err.c: continue_on_error, fill_device */
		return fio_run_io_error(jr, jr->req_read[s],
					jr->files[jr->req_file[s]],
					jr->req_pos[s], bs, (int)-ret);
	/* A read at or past the file's end (create_on_open: fio 3.33's
	 * io_completed counts a block of no bytes; a short one is
	 * requeued there, not modelled: EIO). */
	if (ret == 0 && jr->req_read[s] && jr->job->create_on_open)
		bs = 0;
	else if (ret != (long)bs)
		return -KM_EIO;
	fio_prio_reaped(jr, s);
	fio_run_record_io(jr, jr->req_read[s] ? FIO_DDIR_READ : FIO_DDIR_WRITE, bs,
		  jr->req_pos[s],
		  jr->req_start_ns[s], jr->req_issue_ns[s], sim_now());
	return jr->req_read[s] ? fio_run_reap_verify(jr, s) : 0;
}

static bool aio_done(struct job_run *jr, unsigned int s)
{
	return !jr->aio[s].queued || sim_word_read(&jr->aio[s].done.done);
}

/*
 * io_getevents(min_nr = 1) with every slot in flight (the caller charges
 * the syscall): sleep until any event is in the ring, then reap every
 * completed slot, oldest first.  Returns the first error.
 */
static int aio_getevents(struct job_run *jr, uint64_t bs)
{
	unsigned int iodepth = jr->job->iodepth;
	bool any = false;
	int err = 0;

	for (unsigned int k = 0; k < iodepth && !any; k++)
		any = jr->req_busy[k] && aio_done(jr, k);
	if (!any) {
		sim_completion_wait(&jr->ring);
		jr->ring_credit++;
		m_syscall_exit();	/* io_getevents returns to user */
	}
	for (unsigned int k = 0; k < iodepth && !err; k++) {
		unsigned int o = (jr->req_head + k) % iodepth;

		if (jr->req_busy[o] && aio_done(jr, o))
			err = aio_reap(jr, o, bs);
	}
	return err;
}

/*
 * read_iolog on libaio (fio-iolog.c): fio's default reap, min 1 and max
 * 1 (iodepth_batch_complete_min and _max, fio 3.33 backend.c
 * wait_for_completions, engines/libaio.c): wait for any event, then
 * reap one, the oldest done.  (The runner's other libaio jobs reap
 * every completed request: the divergence docs/fio.md names.)
 */
static int aio_getevents_one(struct job_run *jr, uint64_t bs)
{
	unsigned int iodepth = jr->job->iodepth;

	for (;;) {
		for (unsigned int k = 0; k < iodepth; k++) {
			unsigned int o = (jr->req_head + k) % iodepth;

			if (jr->req_busy[o] && aio_done(jr, o))
				return aio_reap(jr, o, bs);
		}
		sim_completion_wait(&jr->ring);
		jr->ring_credit++;
		m_syscall_exit();	/* io_getevents returns to user */
	}
}

/*
 * A slot fio never reaps (read_iolog: td->done is set when the log is
 * spent, and fio 3.33's td_io_getevents returns no event once it is):
 * the request completes in the model (io_destroy at fio's exit waits
 * for it) and nothing is recorded.
 */
static void aio_forget(struct job_run *jr, unsigned int s)
{
	struct m_aio_req *req = &jr->aio[s];

	if (req->queued) {
		if (jr->ring_credit)
			jr->ring_credit--;
		else
			sim_completion_wait(&jr->ring);
	}
	(void)m_aio_wait(req);
	sim_object_retire(req->done.done.id);
	sim_object_retire(req->done.waiters.id);
	jr->req_busy[s] = false;
	jr->req_inflight--;
	fio_prio_reaped(jr, s);
	fio_run_record_unreaped(jr, jr->req_read[s] ? FIO_DDIR_READ :
				FIO_DDIR_WRITE, jr->req_bs[s], jr->req_pos[s],
				jr->req_start_ns[s], jr->req_issue_ns[s]);
}

/* io_uring: the same, for a slot of the ring. */
static void uring_forget(struct job_run *jr, unsigned int s)
{
	struct m_io_uring_req *req = &jr->reqs[s];

	(void)m_io_uring_wait(req);
	if (req->delayed)
		R->uring_delayed++;
	sim_object_retire(req->cqe.done.id);
	sim_object_retire(req->cqe.waiters.id);
	jr->req_busy[s] = false;
	jr->req_inflight--;
	fio_prio_reaped(jr, s);
	fio_run_record_unreaped(jr, jr->req_read[s] ? FIO_DDIR_READ :
				FIO_DDIR_WRITE, jr->req_bs[s], jr->req_pos[s],
				jr->req_start_ns[s], jr->req_issue_ns[s]);
}

/* io_uring: submit one read or write in the next slot, reaping it first
 * if busy; then reap what has completed, oldest first.  Return: the
 * first error. */
static int job_uring_issue(struct job_run *jr, struct km_file *file,
			   bool read, uint64_t pos, uint64_t bs,
			   uint32_t data_id)
{
	const struct fio_job *j = jr->job;
	unsigned int s = jr->req_head;
	int err = 0;

	if (jr->req_busy[s]) {
		err = uring_reap(jr, s, bs);
		if (err)
			return err;
	}
	jr->req_start_ns[s] = sim_now();
	jr->req_pos[s] = pos;
	jr->req_bs[s] = bs;
	jr->req_read[s] = read;
	jr->req_verify[s] = jr->issue_verify;
	jr->req_file[s] = jr->cur_file;
	fio_prio_issue(jr, s, read, bs);	/* fio-prio.c: cmdprio */
	fio_run_iolog_note(jr, file, read ? "read" : "write", true, pos, bs);
	if (read)	/* IORING_OP_READ (model/io_uring/rw.c km_io_read) */
		m_io_uring_read_init(&jr->reqs[s], file, (loff_t)pos, bs,
				     rwf_of(j), jr->req_buf +
				     (size_t)s * jr->req_buf_sectors);
	else
		m_io_uring_req_init(&jr->reqs[s], file, (loff_t)pos, bs,
				    rwf_write_of(j), data_id);
	m_io_uring_submit(&jr->reqs[s]);
	jr->req_issue_ns[s] = sim_now();
	jr->req_busy[s] = true;
	jr->req_inflight++;
	jr->req_head = (s + 1) % j->iodepth;
	for (unsigned int k = 0; k < j->iodepth && !err; k++) {
		unsigned int o = (jr->req_head + k) % j->iodepth;

		if (jr->req_busy[o] && jr->reqs[o].cqes)
			err = uring_reap(jr, o, bs);
	}
	return err;
}

/* libaio: the next free slot from the head; iodepth if none. */
static unsigned int aio_free_slot(const struct job_run *jr)
{
	unsigned int iodepth = jr->job->iodepth;
	unsigned int s = jr->req_head;

	for (unsigned int k = 1; k < iodepth && jr->req_busy[s]; k++)
		s = (jr->req_head + k) % iodepth;
	return s;
}

/*
 * libaio: io_submit of one write in a free slot (every slot in flight:
 * io_getevents first, waiting for any event, min_nr 1); fio reaps when
 * the queue is full, whatever has completed, oldest first.  Return: the
 * first error.
 */
static int job_aio_issue(struct job_run *jr, struct km_file *file,
			 bool read, uint64_t pos, uint64_t bs,
			 uint32_t data_id)
{
	const struct fio_job *j = jr->job;
	unsigned int s = aio_free_slot(jr);
	bool reaped = false;
	int err = 0;

	/* queue_full: every slot, or latency_target's depth, in flight. */
	if (jr->req_busy[s] || jr->req_inflight >= fio_run_depth(jr)) {
		io_getevents_enter();
		err = aio_getevents(jr, bs);
		if (err)
			return err;
		s = aio_free_slot(jr);
	}
	SIM_ASSERT_MSG(!jr->req_busy[s], "libaio: no free slot after "
		       "io_getevents");
	jr->req_start_ns[s] = sim_now();
	jr->req_bs[s] = bs;
	jr->req_pos[s] = pos;
	jr->req_read[s] = read;
	jr->req_verify[s] = jr->issue_verify;
	jr->req_file[s] = jr->cur_file;
	fio_prio_issue(jr, s, read, bs);	/* fio-prio.c: cmdprio */
	fio_run_iolog_note(jr, file, read ? "read" : "write", true, pos, bs);
	/* The model's io_submit takes IOCB_CMD_PREAD when the iocb has a
	 * destination (.out), IOCB_CMD_PWRITE else. */
	m_syscall(M_SYS_IO_SUBMIT, &(struct m_sys_args){
		.file = file, .pos = (loff_t)pos, .len = bs,
		.flags = read ? rwf_of(j) : rwf_write_of(j),
		.data_id = read ? 0 : data_id,
		.out = read ? jr->req_buf + (size_t)s * jr->req_buf_sectors :
			      NULL,
		.aio = &jr->aio[s] });
	/* io_submit refused the iocb (aio_prep_rw: RWF_ATOMIC on a file
	 * without atomic writes): fio's libaio commit returns the error,
	 * td_io_commit's td_verror(td, -ret, "io commit") (fio 3.33
	 * ioengines.c:496) ends the job; the I/O counts as issued, no
	 * "io_u error" line. */
	if (jr->aio[s].submit_error) {
		int err = (int)-jr->aio[s].res;

		fio_result_add_failed_io(jr->result, read ? FIO_DDIR_READ :
					 FIO_DDIR_WRITE);
		snprintf(jr->io_error_where, sizeof(jr->io_error_where),
			 "file:ioengines.c:496, func=io commit, error=%s",
			 strerror(err));
		if (!jr->io_error)
			jr->io_error = err;
		return err;
	}
	jr->req_issue_ns[s] = sim_now();
	jr->req_busy[s] = true;
	jr->req_inflight++;
	jr->req_head = (s + 1) % j->iodepth;
	if (jr->req_inflight < fio_run_depth(jr))
		return 0;
	if (fio_run_reap_one(jr)) {
		io_getevents_enter();
		return aio_getevents_one(jr, bs);
	}
	for (unsigned int k = 0; k < j->iodepth && !err; k++) {
		unsigned int o = (jr->req_head + k) % j->iodepth;

		if (!jr->req_busy[o] || !aio_done(jr, o))
			continue;
		if (!reaped)
			io_getevents_enter();
		reaped = true;
		err = aio_reap(jr, o, bs);
	}
	return err;
}

/*
 * ioengine=posixaio with iodepth > 1 (fio 3.33 engines/posixaio.c):
 * fio's queue calls aio_read/aio_write and returns FIO_Q_QUEUED; its
 * getevents polls aio_error and sleeps in aio_suspend until at least
 * min (1 with a full queue, fio's iodepth_batch_complete_min) are done.
 * glibc (rt/aio_misc.c __aio_enqueue_request) runs the requests of one
 * file descriptor in one helper thread, one at a time, in the order
 * queued (the job's one file: fio-plan.c), each a pread64/pwrite64.
 * Modelled so: a queue of iodepth slots; when fio would wait (a full
 * queue, fio's quiesce, the job's end) the helper's oldest request runs
 * through the engine's row (fio_run_sync_io), in the job's own task,
 * which sleeps in aio_suspend meanwhile.  clat runs from the queueing
 * to that completion, so it holds the time the request waited behind
 * the others.  Divergences: the helper thread is the job's task (fio's
 * thread would be asleep in aio_suspend, so no CPU time of the job's
 * goes elsewhere); glibc's enqueue (a mutex, a list, a clone(2) for the
 * first helper) and aio_suspend's futex are charged nothing, so slat is
 * 0; the helper starts a request only when fio waits, where glibc's
 * starts it at once (the same order and the same device work, the job
 * having nothing else to do until it waits).
 */
static int posix_run_oldest(struct job_run *jr)
{
	unsigned int iodepth = jr->job->iodepth;
	unsigned int s = (jr->req_head + iodepth - jr->req_inflight) %
			 iodepth;
	bool read = jr->req_read[s];
	uint64_t bs = jr->req_bs[s];
	long ret;

	SIM_ASSERT_MSG(jr->req_busy[s], "posixaio: the oldest slot is free");
	ret = fio_run_sync_io(jr, jr->files[jr->req_file[s]], read,
			      jr->req_pos[s], bs, jr->req_data[s]);
	jr->req_busy[s] = false;
	jr->req_inflight--;
	if (ret != (long)bs)
		return ret < 0 ? (int)-ret : KM_EIO;
	fio_run_record_io(jr, read ? FIO_DDIR_READ : FIO_DDIR_WRITE, bs,
			  jr->req_pos[s], jr->req_start_ns[s],
			  jr->req_issue_ns[s], sim_now());
	return 0;
}

/* posixaio, iodepth > 1: queue one request; a full queue waits for the
 * oldest (fio's wait_for_completions, min 1).  Return: 0 or an errno. */
static int job_posix_issue(struct job_run *jr, struct km_file *file,
			   bool read, uint64_t pos, uint64_t bs,
			   uint32_t data_id)
{
	unsigned int s = jr->req_head;

	(void)file;	/* the slot keeps its file's index (cur_file) */
	SIM_ASSERT_MSG(!jr->req_busy[s], "posixaio: the next slot is busy");
	jr->req_start_ns[s] = sim_now();
	jr->req_pos[s] = pos;
	jr->req_bs[s] = bs;
	jr->req_read[s] = read;
	jr->req_file[s] = jr->cur_file;
	jr->req_data[s] = data_id;
	fio_run_iolog_note(jr, file, read ? "read" : "write", true, pos, bs);
	jr->req_issue_ns[s] = sim_now();
	jr->req_busy[s] = true;
	jr->req_inflight++;
	jr->req_head = (s + 1) % jr->job->iodepth;
	if (jr->req_inflight < fio_run_depth(jr))
		return 0;
	return posix_run_oldest(jr);
}

/* posixaio, iodepth > 1: every queued request run (fio's
 * cleanup_pending_aio, io_u_quiesce).  Return: 0 or the first errno. */
static int posix_run_all(struct job_run *jr)
{
	int err = 0;

	while (jr->req_inflight && !err)
		err = posix_run_oldest(jr);
	return err;
}

/* A synchronous call, its latency, and the syncs after a write. */
static int job_sync_io(struct job_run *jr, struct km_file *file, bool read,
		       uint64_t pos, uint64_t bs, uint32_t data_id)
{
	uint64_t t0 = sim_now();
	long ret;

	fio_run_iolog_note(jr, file, read ? "read" : "write", true, pos, bs);
	ret = fio_run_sync_io(jr, file, read, pos, bs, data_id);
	if (ret < 0)	/* fio-err.c: continue_on_error, fill_device */
		return fio_run_io_error(jr, read, file, pos, bs, (int)-ret);
	if (ret != (long)bs)
		return KM_EIO;
	fio_run_record_io(jr, read ? FIO_DDIR_READ : FIO_DDIR_WRITE, bs, pos, t0, t0,
		  sim_now());
	return 0;
}

/*
 * fio's own work for one I/O of ioengine=null (FIO_NULL_IO_NS), charged
 * before it starts, as user time: the I/O's slat, clat and lat stay 0
 * (fio's clock reads around its own work give it some ns there; the
 * divergence is in docs/fio.md).
 */
void fio_run_null_work(struct job_run *jr)
{
	sim_cpu_spend(FIO_NULL_IO_NS);
	jr->usr_ns += FIO_NULL_IO_NS;
}

/* fio 3.33 io_u.c __io_u_mark_map: the bucket of a count of I/Os per
 * submission or reap (0, 1-4, 5-8, 9-16, 17-32, 33-64, more). */
static unsigned int null_count_bucket(uint32_t nr)
{
	return nr == 0 ? 0 : nr <= 4 ? 1 : nr <= 8 ? 2 : nr <= 16 ? 3 :
	       nr <= 32 ? 4 : nr <= 64 ? 5 : 6;
}

/* fio 3.33 io_u.c io_u_mark_depth: the bucket of the depth (1, 2-3,
 * 4-7, 8-15, 16-31, 32-63, more). */
static unsigned int null_depth_bucket(uint32_t depth)
{
	return depth <= 1 ? 0 : depth <= 3 ? 1 : depth <= 7 ? 2 :
	       depth <= 15 ? 3 : depth <= 31 ? 4 : depth <= 63 ? 5 : 6;
}

/*
 * ioengine=null with iodepth_batch > 1: fio 3.33's td_io_commit of the
 * I/Os queued (ioengines.c: io_u_mark_depth at cur_depth, which is the
 * batch: null's getevents reaped every earlier one), null_commit
 * (engines/null.c: io_u_mark_submit, the events = the batch), then the
 * next null_queue's FIO_Q_BUSY sends do_io to wait_for_completions,
 * whose getevents returns the whole batch (io_u_mark_complete): one
 * submission and one reap of N I/Os per batch, at depth N.  The rest at
 * the job's end (@at_end) is committed by cleanup_pending_aio's
 * io_u_queued_complete, which calls null_commit itself, not
 * td_io_commit: a submission and a reap, and no io_u_mark_depth (fio
 * 3.33's iodepth_level then sums to less than 100%, as here).
 */
static void null_batch_commit(struct job_run *jr, bool at_end)
{
	uint32_t n = jr->nb_queued;

	/* do_io's queue_full reaps a commit that fills the queue; the
	 * job's end reaps the rest (io_u_queued_complete). */
	jr->null_events = !at_end && n && n < jr->job->iodepth;
	if (!n)
		return;
	if (!at_end)
		jr->nb_map[null_depth_bucket(n)] += n;
	jr->nb_submit[null_count_bucket(n)]++;
	jr->nb_commits++;
	jr->nb_queued = 0;
}

/*
 * A null I/O about to be queued: when a commit's events are pending
 * (jr->null_events), null_queue returns FIO_Q_BUSY, do_io requeues the
 * io_u and reaps, and queues it again: fio's td_io_queue has logged it
 * to write_iolog at the first try too (measured with fio 3.33: null,
 * iodepth=16, 16 writes give 31 iolog lines; with iodepth_batch=4, each
 * batch's first I/O but the first batch's twice; with iodepth_batch =
 * iodepth, none).
 */
static void null_busy(struct job_run *jr, struct km_file *file,
		      const char *what, uint64_t pos, uint64_t bs)
{
	if (!jr->null_events)
		return;
	fio_run_iolog_note(jr, file, what, true, pos, bs);
	jr->null_events = false;
}

/* A null I/O queued: td_io_queue commits at iodepth_batch queued
 * (iodepth_batch 1 with iodepth > 1: each I/O). */
static void null_batch_queued(struct job_run *jr)
{
	uint32_t batch = fio_run_null_batch(jr->job);

	if (jr->job->iodepth > 1 && batch <= 1) {
		jr->null_events = true;
		return;
	}
	if (batch <= 1)
		return;
	if (++jr->nb_queued >= batch)
		null_batch_commit(jr, false);
}

/*
 * One I/O through the job's engine: ioengine=null completes it as it is
 * queued (fio's engines/null.c), io_uring and libaio take a slot, the
 * others are one call of their sync_engines row.  Return: 0, or the
 * errno that ends the job.
 */
int fio_run_issue(struct job_run *jr, struct km_file *file, bool read,
		  uint64_t pos, uint64_t bs, uint32_t data_id)
{
	const struct fio_job *j = jr->job;
	uint64_t fio_ns = m_cost_config()->fio_io_ns;

	/* fio's own work for this I/O (the CPU profile's fio_io_ns, 0
	 * unless a calibrated profile measured it), user time before the
	 * I/O's issue: outside its slat, clat and lat, as in fio. */
	if (fio_ns && j->ioengine != FIO_ENGINE_NULL) {
		sim_cpu_spend(fio_ns);
		jr->usr_ns += fio_ns;
	}
	if (j->ioengine == FIO_ENGINE_NULL) {
		fio_run_null_work(jr);
		null_busy(jr, file, read ? "read" : "write", pos, bs);
		fio_run_iolog_note(jr, file, read ? "read" : "write", true, pos, bs);
		fio_run_record_io(jr, read ? FIO_DDIR_READ : FIO_DDIR_WRITE, bs, pos,
			  sim_now(), sim_now(), sim_now());
		null_batch_queued(jr);
		return 0;
	}
	if (j->ioengine == FIO_ENGINE_IO_URING)
		return job_uring_issue(jr, file, read, pos, bs, data_id);
	if (j->ioengine == FIO_ENGINE_LIBAIO)
		return job_aio_issue(jr, file, read, pos, bs, data_id);
	if (fio_run_posix_queue(j))
		return job_posix_issue(jr, file, read, pos, bs, data_id);
	return job_sync_io(jr, file, read, pos, bs, data_id);
}

/*
 * One trim (fio's DDIR_TRIM).  ioengine=null completes it as it is
 * queued (engines/null.c), as it does a read or a write.  The sync
 * engines and libaio (fio 3.33 engines/sync.c fio_psyncv2_queue and
 * the others, engines/libaio.c fio_libaio_queue) call do_io_u_trim in
 * the job's thread: os_trim's ioctl(fd, BLKDISCARD, {offset, len})
 * (os/os-linux.h), through the model's ioctl row (model/fs/ioctl.c ->
 * the file's ->unlocked_ioctl: the block device's blk_ioctl_discard;
 * a regular file and a memory device have none: -ENOTTY), and
 * FIO_Q_COMPLETED; libaio's queue has nothing queued then (each I/O
 * is committed as it is queued, iodepth_batch=1), so the trim runs
 * beside the writes in flight.  Its latency is the ioctl's (clat, as
 * a sync engine's I/O).  fio counts it in the trim direction (its
 * iolog's "trim" line, the logs' direction 2).  Return: 0, or the
 * errno that ends the job (fio-err.c fio_run_trim_error).
 */
int fio_run_issue_trim(struct job_run *jr, struct km_file *file,
		       uint64_t pos, uint64_t bs)
{
	uint64_t t0;
	long ret;

	if (jr->job->ioengine == FIO_ENGINE_NULL) {
		fio_run_null_work(jr);
		null_busy(jr, file, "trim", pos, bs);
		fio_run_iolog_note(jr, file, "trim", true, pos, bs);
		fio_run_record_io(jr, FIO_DDIR_TRIM, bs, pos, sim_now(),
				  sim_now(), sim_now());
		null_batch_queued(jr);
		return 0;
	}
	fio_run_iolog_note(jr, file, "trim", true, pos, bs);
	t0 = sim_now();
	ret = fio_run_file_syscall(M_SYS_IOCTL, &(struct m_sys_args){
		.file = file, .flags = KM_BLKDISCARD, .pos = (loff_t)pos,
		.len = (size_t)bs });
	if (ret < 0)
		return fio_run_trim_error(jr, (int)-ret);
	fio_run_record_io(jr, FIO_DDIR_TRIM, bs, pos, t0, t0, sim_now());
	return 0;
}

/* The job's end: reap what is in flight, end_fsync, close. */
void fio_run_job_drain(struct job_run *jr)
{
	const struct fio_job *j = jr->job;

	for (unsigned int s = 0; j->ioengine == FIO_ENGINE_LIBAIO &&
	     s < j->iodepth; s++) {
		unsigned int o = (jr->req_head + s) % j->iodepth;
		int err;

		if (!jr->req_busy[o])
			continue;
		/* read_iolog, SPRandom: fio reaps nothing after the
		 * log's end (td->done). */
		if (fio_run_td_done(jr)) {
			aio_forget(jr, o);
			continue;
		}
		io_getevents_enter();
		err = aio_reap(jr, o, j->bs[FIO_DDIR_WRITE]);
		if (err && !jr->error)
			jr->error = err < 0 ? -err : err;
	}
	for (unsigned int s = 0; j->ioengine == FIO_ENGINE_IO_URING &&
	     s < j->iodepth; s++) {
		unsigned int o = (jr->req_head + s) % j->iodepth;
		int err;

		if (!jr->req_busy[o])
			continue;
		if (fio_iolog_runner(j)) {
			uring_forget(jr, o);
			continue;
		}
		err = uring_reap(jr, o, j->bs[FIO_DDIR_WRITE]);
		if (err && !jr->error)
			jr->error = err < 0 ? -err : err;
	}
	if (fio_run_posix_queue(j)) {
		int err = posix_run_all(jr);

		if (err && !jr->error)
			jr->error = err;
	}
	/* fio's cleanup_pending_aio: io_u_quiesce commits the rest. */
	null_batch_commit(jr, true);
	jr->null_events = false;
	/* do_io's end: fill_device's ENOSPC is no error (fio-err.c). */
	if (jr->error == FIO_RUN_FILLED)
		jr->error = 0;
	if (j->end_fsync && !jr->error)
		for (unsigned int f = 0; f < jr->nfiles; f++)
			fio_run_job_sync(jr, jr->files[f], FIO_SYNC_KIND_FSYNC, false);
	for (unsigned int f = 0; f < jr->nfiles; f++)
		fio_run_iolog_note(jr, jr->files[f], "close", false, 0, 0);
	if (jr->error < 0)
		jr->error = -jr->error;
}

/*
 * fio's io_u_quiesce (io_u.c), for the pacing of fio-rate.c: reap every
 * I/O in flight (libaio, io_uring) before a rate or think-time sleep.
 * Return: 0 or the first error (a positive errno).
 */
int fio_run_quiesce(struct job_run *jr)
{
	const struct fio_job *j = jr->job;
	int err = 0;

	for (unsigned int s = 0; j->ioengine == FIO_ENGINE_LIBAIO &&
	     s < j->iodepth && !err; s++) {
		unsigned int o = (jr->req_head + s) % j->iodepth;

		if (!jr->req_busy[o])
			continue;
		io_getevents_enter();
		err = aio_reap(jr, o, j->bs[FIO_DDIR_WRITE]);
	}
	for (unsigned int s = 0; j->ioengine == FIO_ENGINE_IO_URING &&
	     s < j->iodepth && !err; s++) {
		unsigned int o = (jr->req_head + s) % j->iodepth;

		if (!jr->req_busy[o])
			continue;
		err = uring_reap(jr, o, j->bs[FIO_DDIR_WRITE]);
	}
	if (!err && fio_run_posix_queue(j))
		err = posix_run_all(jr);
	/* null: io_u_quiesce commits and reaps its events. */
	if (j->ioengine == FIO_ENGINE_NULL)
		jr->null_events = false;
	return err < 0 ? -err : err;
}

/*
 * io_getevents (io_uring: the CQ) with min_nr 0, for the pacing of
 * fio-rate.c: reap the I/Os that have completed, oldest first, without
 * waiting (fio's submit worker after each submission, rate-submit.c
 * io_workqueue_fn, iodepth > 1).  Return: 0 or a positive errno.
 */
int fio_run_reap_done(struct job_run *jr)
{
	const struct fio_job *j = jr->job;
	bool entered = false;
	int err = 0;

	for (unsigned int s = 0; j->ioengine == FIO_ENGINE_LIBAIO &&
	     s < j->iodepth && !err; s++) {
		unsigned int o = (jr->req_head + s) % j->iodepth;

		if (!jr->req_busy[o] || !aio_done(jr, o))
			continue;
		if (!entered)
			io_getevents_enter();
		entered = true;
		err = aio_reap(jr, o, j->bs[FIO_DDIR_WRITE]);
	}
	for (unsigned int s = 0; j->ioengine == FIO_ENGINE_IO_URING &&
	     s < j->iodepth && !err; s++) {
		unsigned int o = (jr->req_head + s) % j->iodepth;

		if (jr->req_busy[o] && jr->reqs[o].cqes)
			err = uring_reap(jr, o, j->bs[FIO_DDIR_WRITE]);
	}
	return err < 0 ? -err : err;
}
