// SPDX-License-Identifier: MIT
/*
 * tools/wpsim/fio-verify.c - `wpsim fio`, verify=: after a write job's
 * writes, each block it wrote is read back through the job's sync engine
 * and compared with the job's last write of it (tools/fio/verify.c keeps
 * the write ids and prints fio's messages), as fio 3.33's do_verify
 * (backend.c) does.
 *
 * Leaves out: what tools/wpsim/fio.c's opening lists (verify with libaio
 * or io_uring, on a read job).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/clock.h"
#include "tools/wpsim/fio-run.h"

/*
 * fio's do_verify() (backend.c, fio 3.33) after the writes: the files
 * closed and opened again, each block written read back with the job's
 * engine, in the order written (fio's list) or by offset (its rbtree,
 * norandommap), counted as reads; the first block that is not the
 * job's last write of it ends the job with EILSEQ, as fio does.
 */
void fio_run_job_verify(struct job_run *jr)
{
	const struct fio_job *j = jr->job;
	struct fio_verify_map *m = &jr->vmap;
	uint64_t bs = j->bs[FIO_DDIR_WRITE];

	if (!jr->verify || jr->error || !m->count)
		return;
	if (j->norandommap)
		fio_verify_sort(m);
	for (unsigned int f = 0; f < jr->nfiles; f++)
		fio_run_iolog_note(jr, jr->files[f], "open", false, 0, 0);
	for (uint64_t i = 0; i < m->count && !jr->error; i++) {
		uint64_t key = m->order[i], off = key >> 6;
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
			break;
		}
		fio_run_record_io(jr, FIO_DDIR_READ, bs, off, t0, t0, sim_now());
		if (!strcmp(j->verify, "null"))
			continue;
		fio_verify_expected(m, key, &expected);
		snprintf(name, sizeof(name), "%s",
			 R->file_names[jr->world_file[f]]);
		if (fio_verify_check(j->verify, name, off, bs, expected,
				     jr->read_buf, jr->verify_msg,
				     sizeof(jr->verify_msg)))
			jr->error = FIO_VERIFY_ERRNO;
	}
	for (unsigned int f = 0; f < jr->nfiles; f++)
		fio_run_iolog_note(jr, jr->files[f], "close", false, 0, 0);
}
