// SPDX-License-Identifier: MIT
/*
 * tools/wpsim/fio-iolog.c - `wpsim fio` with read_iolog on ioengine=libaio
 * and io_uring: the job's I/O is the iolog's, issued through the job
 * runner's engines (fio-engines.c) as fio 3.33 replays a log: iolog.c
 * read_iolog() queues every entry (its files become the job's: the
 * job's own filename is dropped, free_release_files; the job's size is
 * the sum of the entries' lengths), read_iolog_get() hands them out in
 * order as get_io_u's next io_u, each after iolog_delay() (the entry's
 * delay, scaled by replay_time_scale, 0 with replay_no_stall, less the
 * time since the last issue), and do_io queues it through the engine
 * like any other I/O (td_io_queue): the job's depth, its latencies and
 * its statistics logs are the runner's.  The sync engines and null keep
 * the replay of tools/wpsim/replay.c (wpsim_fio_replay_iolog).
 *
 * Leaves out (each an error naming it, or a counted skip): trims (fio
 * issues BLKDISCARD, which a regular file refuses), sync_file_range and
 * syncfs lines (fio 3.33's reader skips them: "bad iolog file action"),
 * the job options that change the replay (loops, verify, runtime,
 * time_based, number_ios, io_size, ramp_time, startdelay, fsync=,
 * fdatasync=, sync_file_range=, write_iolog; rate, thinktime and flow:
 * fio-rate.c).  The log's open and close lines make no model call: the
 * job's files are opened at the run's setup and stay open, as the
 * runner's loops keep them (fio closes and opens them again: close(2)
 * on XFS may start a flush only for a file truncated down, which a
 * replay does not do).  The files are taken to exist, written, with the
 * size the log reaches (fio's setup_files lays out nothing for
 * read_iolog: a log replays on files an earlier job made), as wpsim
 * replay takes them.  fio's time_offset (its oversleep, carried to the
 * next delay) is 0: the model's sleeps are exact.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/clock.h"
#include "sim/engine.h"
#include "tools/wpsim/fio-run.h"
#include "tools/wpsim/signals.h"
#include "wpsim/trace.h"

/* The one log of the run (read_iolog runs one job: fio.c). */
static struct {
	bool loaded;
	struct trace t;
	bool reads;		/* fio's td_ddir from the log's entries */
	uint64_t bytes;		/* fio's td->o.size += bytes */
	uint64_t len_max;	/* the largest entry (fio's max_bs) */
} L;

bool fio_iolog_runner(const struct fio_job *j)
{
	return j->read_iolog[0] && fio_run_async(j);
}

/* The job options fio's replay would change: refused. */
static int iolog_options_check(const struct fio_job *j)
{
	if (j->loops > 1 || j->verify[0] || j->runtime_ns || j->time_based ||
	    j->number_ios || j->io_size.set || j->ramp_time_ns ||
	    j->startdelay_ns || j->fsync_blocks || j->fdatasync_blocks ||
	    j->sfr_flags || j->write_iolog[0])
		return fio_run_job_error(j, "with read_iolog on libaio or "
				 "io_uring the options loops, verify, "
				 "runtime, time_based, number_ios, io_size, "
				 "ramp_time, startdelay, fsync, fdatasync, "
				 "sync_file_range and write_iolog are not "
				 "modelled (the log's entries are the job's "
				 "I/O, in order, once)");
	return 0;
}

int fio_iolog_load(const struct fio_job *j)
{
	struct trace_error err = { 0 };
	struct trace_options topt = { 0 };
	int rc = iolog_options_check(j);

	if (rc)
		return rc;
	fio_iolog_free();
	trace_init(&L.t);
	L.loaded = true;
	if (trace_load(j->read_iolog, &topt, &L.t, &err)) {
		fprintf(stderr, "%s\n", err.text);
		return EXIT_USAGE;
	}
	if (L.t.format == TRACE_FORMAT_STRACE) {
		fprintf(stderr, "%s:1:1: error: expected 'fio version 2 iolog' "
			"or 'fio version 3 iolog' (read_iolog; strace text is "
			"for wpsim replay), found another first line\n",
			j->read_iolog);
		return EXIT_USAGE;
	}
	for (uint32_t i = 0; i < L.t.nrec; i++) {
		struct trace_rec *r = &L.t.recs[i];

		if (r->dropped)
			continue;
		switch (r->op) {
		case TRACE_OP_READ:
		case TRACE_OP_WRITE:
			if (r->len > FIO_RUN_BS_MAX || !r->len) {
				fprintf(stderr, "%s:%" PRIu32 ":1: error: "
					"expected an I/O of 1 byte to 16 MiB "
					"(the runner's largest bs), found "
					"%" PRIu64 " bytes\n", j->read_iolog,
					r->line, r->len);
				return EXIT_USAGE;
			}
			if (r->op == TRACE_OP_READ)
				L.reads = true;
			L.bytes += r->len;
			if (r->len > L.len_max)
				L.len_max = r->len;
			break;
		case TRACE_OP_WAIT:
			/* fio drops v2 waits with replay_no_stall. */
			if (j->replay_no_stall)
				trace_drop(&L.t, i, "replay_no_stall: fio "
					   "drops wait entries");
			break;
		case TRACE_OP_OPEN:
		case TRACE_OP_CLOSE:
		case TRACE_OP_FSYNC:
		case TRACE_OP_FDATASYNC:
			break;
		case TRACE_OP_SYNC_FILE_RANGE:
			trace_drop(&L.t, i, "fio 3.33's reader skips it (\"bad "
				   "iolog file action\")");
			break;
		case TRACE_OP_TRIM:
			fprintf(stderr, "%s:%" PRIu32 ":1: error: a trim "
				"entry on ioengine=%s is not modelled (fio "
				"issues BLKDISCARD, which a regular file "
				"refuses)\n", j->read_iolog, r->line,
				fio_engine_name(j->ioengine));
			return EXIT_USAGE;
		default:
			fprintf(stderr, "%s:%" PRIu32 ":1: error: entry '%s' "
				"is not modelled with read_iolog on "
				"ioengine=%s\n", j->read_iolog, r->line,
				r->name, fio_engine_name(j->ioengine));
			return EXIT_USAGE;
		}
	}
	/* The counts go to stderr: stdout is fio's output (maybe JSON). */
	fprintf(stderr, "wpsim fio: job '%s': read_iolog ", j->name);
	trace_print_summary(stderr, &L.t);
	if (!L.bytes) {
		/* fio's read_iolog: no read, write or wait entry. */
		fprintf(stderr, "wpsim fio: job '%s': no read or write entry "
			"in %s\n", j->name, j->read_iolog);
		return EXIT_USAGE;
	}
	return 0;
}

void fio_iolog_free(void)
{
	if (L.loaded)
		trace_free(&L.t);
	memset(&L, 0, sizeof(L));
}

bool fio_iolog_reads(void)
{
	return L.reads;
}

uint64_t fio_iolog_len_max(void)
{
	return L.len_max;
}

uint64_t fio_iolog_bytes(void)
{
	return L.bytes;
}

unsigned int fio_iolog_nfiles(void)
{
	return L.t.nfiles;
}

const char *fio_iolog_file_name(unsigned int f)
{
	return L.t.files[f].path;
}

uint64_t fio_iolog_file_end(unsigned int f)
{
	return L.t.files[f].max_end;
}

/*
 * fio's iolog_delay (fio 3.33 iolog.c), with td->time_offset 0: sleep
 * @delay_us less the µs since the last issue (none before the first:
 * fio's last_issue starts at zero, so the first delay is spent).
 */
static void iolog_delay(uint64_t delay_us, bool issued, uint64_t last_ns)
{
	uint64_t usec;

	if (!delay_us || !issued)
		return;
	usec = (sim_now() - last_ns) / 1000;
	if (delay_us < usec)
		return;
	sim_sleep_ns((delay_us - usec) * 1000);
}

/*
 * The job's I/O: each entry of the log in order (read_iolog_get): its
 * delay, then a file action (ipo_special: no model call, above), a v2
 * wait (until OFFSET ms after the job's start: fio's genesis is its own
 * start, a few ms before), a sync through fio_run_job_sync (libaio's
 * queue runs it at once: do_io_u_sync), or a read or write through the
 * job's engine.  fio's last_issue moves at each file action and after
 * each queued I/O (td_io_queue's issue_time for an async engine).
 */
void fio_iolog_run(struct job_run *jr, uint32_t *data_seqp)
{
	const struct fio_job *j = jr->job;
	uint64_t genesis = sim_now(), last_issue = 0;
	uint32_t scale = j->replay_time_scale ? j->replay_time_scale : 100;
	bool issued = false;

	for (uint32_t i = 0; i < L.t.nrec; i++) {
		const struct trace_rec *r = &L.t.recs[i];
		uint64_t delay_us = j->replay_no_stall ? 0 :
				    r->delay_ns / 1000 * 100 / scale;
		struct km_file *file;
		uint32_t data_id;
		bool read;

		if (r->dropped)
			continue;
		if (jr->error || wpsim_stop_signal())
			break;
		if (r->op == TRACE_OP_WAIT) {
			uint64_t elapsed_ms = (sim_now() - genesis) / 1000000;

			if ((uint64_t)r->offset > elapsed_ms)
				sim_sleep_ns(((uint64_t)r->offset -
					      elapsed_ms) * 1000000);
			continue;
		}
		iolog_delay(delay_us, issued, last_issue);
		jr->cur_file = (unsigned int)r->file;
		file = jr->files[jr->cur_file];
		if (r->op == TRACE_OP_OPEN || r->op == TRACE_OP_CLOSE) {
			last_issue = sim_now();
			issued = true;
			continue;
		}
		if (r->op == TRACE_OP_FSYNC || r->op == TRACE_OP_FDATASYNC) {
			jr->error = fio_run_job_sync(jr, file,
					r->op == TRACE_OP_FSYNC ?
					FIO_SYNC_KIND_FSYNC :
					FIO_SYNC_KIND_FDATASYNC, true);
			jr->error = jr->error < 0 ? -jr->error : jr->error;
			last_issue = sim_now();
			issued = true;
			continue;
		}
		read = r->op == TRACE_OP_READ;
		data_id = ((uint32_t)(jr->index + 1) << 20) |
			  (++*data_seqp & 0xfffffu);
		jr->last_offset = (uint64_t)r->offset;
		jr->last_was_write = !read;
		jr->ios++;
		jr->bytes_done += r->len;
		jr->error = fio_run_issue(jr, file, read, (uint64_t)r->offset,
					  r->len, data_id);
		jr->last_done_read = read;
		last_issue = sim_now();
		issued = true;
		if (jr->error < 0)
			jr->error = -jr->error;
	}
}
