// SPDX-License-Identifier: MIT
/*
 * tools/wpsim/fio-err.c - what `wpsim fio` does with an I/O's error, as
 * fio 3.33 does it: continue_on_error and ignore_error (td_error.c
 * td_non_fatal_error, backend.c break_on_this_error, io_u.c
 * io_completed), error_dump (io_u.c __io_u_log_error), fill_device
 * (backend.c do_io: a job that writes until ENOSPC ends without an
 * error), and the counts fio prints (update_error_count: total_err,
 * first_error).
 *
 * An I/O that fails is counted where fio counts it: in "issued rwts"
 * (td_io_queue's total_io_u, at the queueing) and not in the bytes or
 * the latencies (the completion path accounts only I/O without an
 * error).  The error's line on stderr ("fio: io_u error on file ...")
 * is printed when the error happens, as fio prints it.
 *
 * Leaves out: EDQUOT (no quota in the model), the verify type's errors
 * (EILSEQ: verify failures keep their own path, fio-verify.c; a
 * continue_on_error=verify is refused there), errors of reads in a
 * verify phase (they end the job as before).
 */
#include <stdio.h>
#include <string.h>

#include "tools/wpsim/fio-run.h"

/* fio 3.33 td_error.c __NON_FATAL_ERR: the lists' default. */
static const int non_fatal_default[] = { KM_EIO, 84 /* EILSEQ */ };

/* td_error_type: EILSEQ is a verify error, else the direction's. */
static unsigned int error_type(bool read, int err)
{
	if (err == FIO_VERIFY_ERRNO)
		return 2;
	return read ? 0 : 1;
}

/* td_non_fatal_error. */
static bool non_fatal(const struct fio_job *j, unsigned int type, int err)
{
	if (!(j->continue_on_error & (1u << type)))
		return false;
	if (!j->ignore_error_nr[type]) {
		for (size_t i = 0; i < sizeof(non_fatal_default) /
		     sizeof(non_fatal_default[0]); i++)
			if (non_fatal_default[i] == err)
				return true;
		return false;
	}
	for (uint32_t i = 0; i < j->ignore_error_nr[type]; i++)
		if (j->ignore_error[type][i] == err)
			return true;
	return false;
}

/* update_error_count */
static void error_count(struct job_run *jr, int err)
{
	if (++jr->total_err_count == 1)
		jr->first_error = err;
}

int fio_run_io_error(struct job_run *jr, bool read, struct km_file *file,
		     uint64_t pos, uint64_t bs, int err)
{
	const struct fio_job *j = jr->job;
	unsigned int type = error_type(read, err);
	bool nf = non_fatal(j, type, err);
	unsigned int f = fio_run_file_index(jr, file);

	/* The failed I/O was queued: fio's total_io_u. */
	fio_result_add_failed_io(jr->result, read ? FIO_DDIR_READ :
				 FIO_DDIR_WRITE);
	/* __io_u_log_error: not for a non-fatal error without
	 * error_dump; else the line and td_verror's place (io_u.c:1876).
	 * The sync engines' fio_io_end then calls td_verror itself
	 * (engines/sync.c:126, "xfer"), which counts when the first did
	 * not run; libaio and io_uring have no such call.  Each error
	 * after a cleared one sets the place again: the last one stays
	 * (td_clear_error keeps td->verror). */
	if (!nf || j->error_dump) {
		fprintf(stderr, "fio: io_u error on file %s: %s: %s "
			"offset=%llu, buflen=%llu\n",
			R->file[jr->world_file[f]].name, strerror(err),
			read ? "read" : "write", (unsigned long long)pos,
			(unsigned long long)bs);
		snprintf(jr->io_error_where, sizeof(jr->io_error_where),
			 "file:io_u.c:1876, func=io_u error, error=%s",
			 strerror(err));
	} else if (fio_run_sync_engine_row(j->ioengine) >= 0 &&
		   !fio_run_posix_queue(j)) {
		snprintf(jr->io_error_where, sizeof(jr->io_error_where),
			 "file:engines/sync.c:126, func=xfer, error=%s",
			 strerror(err));
	}
	if (!jr->io_error)
		jr->io_error = err;
	/* break_on_this_error */
	if (!(j->continue_on_error & (1u << type)))
		goto stop;
	if (nf) {
		error_count(jr, err);
		return 0;		/* td_clear_error: go on */
	}
	if (j->fill_device && err == KM_ENOSPC)
		goto stop;
	error_count(jr, err);
stop:
	/* do_io's end: fill_device's ENOSPC ends the job, no error. */
	if (j->fill_device && err == KM_ENOSPC) {
		jr->filled = true;
		return FIO_RUN_FILLED;
	}
	return err;
}

/*
 * A trim's error (fio 3.33): do_io_u_trim sets io_u->error, the engine
 * returns FIO_Q_COMPLETED, td_io_queue's td_verror(td, io_u->error,
 * "td_io_queue") sets the job's error (ioengines.c:399 in 3.33), and
 * do_io's FIO_Q_COMPLETED case clears the io_u without io_completed (no
 * "io_u error" line, no bytes or latency) before break_on_this_error,
 * whose error type for a trim is the write's (td_error_type).  Measured:
 * rw=randtrim on an XFS file, "err=25/file:ioengines.c:399,
 * func=td_io_queue, error=Inappropriate ioctl for device", issued rwts
 * total=0,0,1,0.  Return: 0 to go on (a non-fatal error), or @err.
 */
int fio_run_trim_error(struct job_run *jr, int err)
{
	const struct fio_job *j = jr->job;
	bool nf = non_fatal(j, 1, err);

	fio_result_add_failed_io(jr->result, FIO_DDIR_TRIM);
	snprintf(jr->io_error_where, sizeof(jr->io_error_where),
		 "file:ioengines.c:399, func=td_io_queue, error=%s",
		 strerror(err));
	if (!jr->io_error)
		jr->io_error = err;
	if (!(j->continue_on_error & (1u << 1)))
		return err;
	error_count(jr, err);
	return nf ? 0 : err;
}

void fio_run_error_result(struct job_run *jr)
{
	struct fio_result *r = jr->result;

	r->continue_on_error = jr->job->continue_on_error;
	r->total_err_count = jr->total_err_count;
	r->first_error = jr->first_error;
	/* __show_run_stats: a job with continue_on_error that ended
	 * without an error reports its first (non-fatal) one; td_verror's
	 * place stays (td_clear_error keeps td->verror). */
	if (!r->error && jr->job->continue_on_error && jr->first_error)
		r->error = jr->first_error;
	if (r->error && r->error == jr->io_error && !r->error_where[0]) {
		snprintf(r->error_where, sizeof(r->error_where), "%s",
			 jr->io_error_where);
		r->error_where_set = true;	/* "err=28 ():" if empty */
	}
}
