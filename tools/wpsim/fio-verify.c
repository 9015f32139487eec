// SPDX-License-Identifier: MIT
/*
 * tools/wpsim/fio-verify.c - `wpsim fio`, verify=: after a write job's
 * writes, each block it wrote is read back through the job's sync engine
 * and compared with the job's last write of it (tools/fio/verify.c keeps
 * the write ids and prints fio's messages), as fio 3.33's do_verify
 * (backend.c) does.
 *
 * verify_backlog: the reads interleaved with the writes as fio's
 * check_get_verify issues them.
 *
 * Leaves out: what tools/wpsim/fio.c's opening lists (verify with libaio
 * or io_uring, on a read job); verify_backlog where a block is written
 * twice (fio's rbtree replacing an entry); verify_interval below bs and
 * verify_dump with a verify read (the model holds write ids, not the
 * bytes fio checks per interval and dumps).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/linux/fadvise.h"
#include "model/linux/syscalls.h"
#include "sim/clock.h"
#include "tools/wpsim/fio-run.h"

/*
 * Read back one block the job wrote (@key: offset << 6 | file) through
 * its sync engine's row, counted as a read; a block that is not the
 * job's last write of it ends the job with EILSEQ, as fio's
 * verify_io_u does.
 */
static void verify_block(struct job_run *jr, uint64_t key)
{
	const struct fio_job *j = jr->job;
	uint64_t bs = j->bs[FIO_DDIR_WRITE], off = key >> 6;
	unsigned int f = (unsigned int)(key & 63);
	uint64_t t0 = sim_now();
	uint32_t expected = 0;
	char name[FIO_PATH_LEN_MAX + 1];
	long ret;

	jr->cur_file = f;
	fio_run_iolog_note(jr, jr->files[f], "read", true, off, bs);
	ret = fio_run_sync_io(jr, jr->files[f], true, off, bs, 0);
	if (ret != (long)bs) {
		jr->error = ret < 0 ? (int)-ret : KM_EIO;
		return;
	}
	fio_run_record_io(jr, FIO_DDIR_READ, bs, off, t0, t0, sim_now());
	if (!strcmp(j->verify, "null"))
		return;
	fio_verify_expected(&jr->vmap, key, &expected);
	snprintf(name, sizeof(name), "%s", R->file_names[jr->world_file[f]]);
	if (fio_verify_check(j->verify, name, off, bs, expected, jr->read_buf,
			     jr->verify_msg, sizeof(jr->verify_msg)))
		jr->error = FIO_VERIFY_ERRNO;
}

/*
 * verify_backlog=N (fio 3.33's check_get_verify, io_u.c, before the
 * sync check of get_rw_ddir): when blocks written are waiting (fio's
 * io_hist_len) and a batch is under way, or their number is a multiple
 * of N and the last I/O completed was not a read, the next I/O is the
 * read of the oldest (get_next_verify), verify_backlog_batch of them
 * (default N).  The job's writes each reach a block once (fio-plan.c
 * checks it), so fio's list and rbtree both give the oldest first.
 * Return: true when a read was issued (it took the I/O's turn).
 */
bool fio_run_verify_backlog(struct job_run *jr)
{
	const struct fio_job *j = jr->job;
	uint64_t pending = jr->vmap.count - jr->verify_head;

	if (!jr->verify || !j->verify_backlog || !pending)
		return false;
	if (!jr->verify_batch_left) {
		if (pending % j->verify_backlog || jr->last_done_read)
			return false;
		jr->verify_batch_left = j->verify_batch ? j->verify_batch :
					j->verify_backlog;
	}
	jr->verify_batch_left--;
	verify_block(jr, jr->vmap.order[jr->verify_head++]);
	jr->last_done_read = true;
	return true;
}

/*
 * fio's do_verify() (backend.c, fio 3.33) after the writes: the files
 * closed and opened again (invalidate=1: their clean pages dropped,
 * posix_fadvise DONTNEED), each block written and not yet read back
 * (verify_backlog) read with the job's engine, in the order written
 * (fio's list) or by offset (its rbtree, norandommap), counted as reads;
 * the first block that is not the job's last write of it ends the job
 * with EILSEQ, as fio does.
 */
void fio_run_job_verify(struct job_run *jr)
{
	const struct fio_job *j = jr->job;
	struct fio_verify_map *m = &jr->vmap;

	if (!jr->verify || jr->error || jr->verify_head == m->count)
		return;
	if (j->norandommap)
		fio_verify_sort(m);
	for (unsigned int f = 0; f < jr->nfiles; f++) {
		fio_run_iolog_note(jr, jr->files[f], "open", false, 0, 0);
		/* td_io_open_file: invalidate=1 drops the clean cache
		 * (posix_fadvise DONTNEED, model/mm/fadvise.c). */
		if (j->invalidate && j->ioengine != FIO_ENGINE_NULL)
			m_syscall(M_SYS_FADVISE64, &(struct m_sys_args){
				.file = jr->files[f],
				.pos = (loff_t)jr->region_start,
				.len = (size_t)jr->region_bytes,
				.flags = KM_POSIX_FADV_DONTNEED });
		fio_run_fadvise_hint(jr, f, true);
	}
	for (uint64_t i = jr->verify_head; i < m->count && !jr->error; i++)
		verify_block(jr, m->order[i]);
	for (unsigned int f = 0; f < jr->nfiles; f++)
		fio_run_iolog_note(jr, jr->files[f], "close", false, 0, 0);
}
