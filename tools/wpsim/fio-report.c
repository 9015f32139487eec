// SPDX-License-Identifier: MIT
/*
 * tools/wpsim/fio-report.c - `wpsim fio`, after the run: each job's fio
 * result (runtimes, CPU, IO depths), group_reporting's merge, fio's
 * normal and JSON output (tools/fio/output.c), the write_iolog files and
 * statistics logs, and stderr's reports (a verify failure as fio prints
 * it, dirty throttling, --group-spans, the speed factor, a schedule).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/linux/writeback.h"
#include "sim/engine.h"
#include "sim/strategy.h"
#include "tools/wpsim/fio-run.h"
#include "wpsim/trace.h"

static void fill_result(struct job_run *jr)
{
	struct fio_result *r = jr->result;
	uint64_t run_ns = jr->end_ns - jr->stats_start_ns;
	uint64_t usr_ns;
	uint64_t ios = r->ddir[FIO_DDIR_READ].total_ios +
		       r->ddir[FIO_DDIR_WRITE].total_ios +
		       r->ddir[FIO_DDIR_TRIM].total_ios;

	r->error = jr->error;
	fio_run_error_result(jr);	/* fio-err.c: continue_on_error */
	/* fio 3.33 io_u.c: a sync engine's I/O completes in
	 * io_u_sync_complete (line 2152), a queued one's in
	 * io_u_queued_complete (line 2190); with verify_async the
	 * verifier thread's td_verror names itself (verify.c
	 * verify_async_thread, line 1441; measured). */
	if (jr->error == FIO_VERIFY_ERRNO && jr->verify_msg[0])
		snprintf(r->error_where, sizeof(r->error_where),
			 "file:%s, error=%s", jr->job->verify_async ?
			 "verify.c:1441, func=async_verify" :
			 fio_run_async(jr->job) ?
			 "io_u.c:2190, func=io_u_queued_complete" :
			 "io_u.c:2152, func=io_u_sync_complete",
			 strerror(FIO_VERIFY_ERRNO));
	r->total_run_time_ms = run_ns / 1000000;
	for (int d = 0; d < FIO_DDIR_COUNT; d++)
		if (r->ddir[d].total_ios)
			r->ddir[d].runtime_ms = run_ns / 1000000 ?
						run_ns / 1000000 : 1;
	if (!r->total_run_time_ms && ios)
		r->total_run_time_ms = 1;
	/* Every cost the model charges is kernel work, sys, but fio's own
	 * work (ioengine=null's FIO_NULL_IO_NS, the CPU profile's
	 * fio_io_ns on the other engines), usr. */
	usr_ns = jr->usr_ns - jr->usr_start_ns;
	r->usr_time_ms = usr_ns / 1000000;
	/* The task's CPU time counts its ended steps: a null job's one
	 * step may not be in it yet. */
	r->sys_time_ms = jr->cpu_ns > usr_ns ?
			 (jr->cpu_ns - usr_ns) / 1000000 : 0;
	r->elapsed_s = (jr->end_ns + 999999999ull) / 1000000000ull;
	r->latency_depth = jr->lat.qd;	/* fio's td->latency_qd */
	/* IO depths: sync engines keep one I/O in flight; io_uring up to
	 * iodepth (the model does not track the distribution: all in the
	 * bucket of iodepth). */
	/* fio-nullv.c set them as fio counted them. */
	if (!jr->nullv_done) {
		uint32_t depth = jr->job->ioengine == FIO_ENGINE_IO_URING ||
				 jr->job->ioengine == FIO_ENGINE_LIBAIO ||
				 fio_run_posix_queue(jr->job) ?
				 jr->job->iodepth : 1;
		unsigned int b = 0;

		while (b + 1 < FIO_IODEPTH_BUCKETS && (1u << (b + 1)) <= depth)
			b++;
		r->io_u_map[b] = ios;
		r->io_u_submit[1] = r->total_submit;
		r->io_u_complete[1] = r->total_complete;
		/* ioengine=null at iodepth 1 is fio's FIO_SYNCIO: no commit
		 * and no reap, so no io_u_mark_submit or _complete (fio 3.33
		 * prints 0 % in every bucket; measured). */
		if (jr->job->ioengine == FIO_ENGINE_NULL &&
		    jr->job->iodepth <= 1) {
			r->io_u_submit[1] = 0;
			r->io_u_complete[1] = 0;
		}
		/* ioengine=null's batches (fio-engines.c): one submission
		 * and one reap per batch, at the batch's depth. */
		if (fio_run_null_batch(jr->job) > 1) {
			r->io_u_map[b] = 0;
			r->total_submit = jr->nb_commits;
			r->total_complete = jr->nb_commits;
			for (unsigned int k = 0; k < FIO_IODEPTH_BUCKETS; k++) {
				r->io_u_map[k] = jr->nb_map[k];
				r->io_u_submit[k] = jr->nb_submit[k];
				r->io_u_complete[k] = jr->nb_submit[k];
			}
		}
	}
}

/*
 * What dirty throttling did, on stderr, if the run went past the
 * background threshold (a run under it prints nothing more than before).
 */
static void print_dirty_report(void)
{
	const struct km_bdi_writeback *wb = &R->wb_stats;
	unsigned long freerun = km_dirty_freerun_ceiling(wb->thresh,
							 wb->bg_thresh);

	if (!wb->thresh || (!wb->nr_bg_starts && !wb->rounds))
		return;
	fprintf(stderr, "wpsim fio: dirty throttling: thresh %lu pages, "
		"bg_thresh %lu, freerun %lu, setpoint %lu; dirty + writeback "
		"at most %" PRIu64 ", mean %" PRIu64 " over %" PRIu64
		" throttled looks; %" PRIu64 " pauses, %" PRIu64 " ms; %"
		PRIu64 " -EAGAIN; background writeback kicked %" PRIu64
		" times, %" PRIu64 " chunks", wb->thresh, wb->bg_thresh,
		freerun, (freerun + wb->thresh) / 2, wb->dirty_max,
		wb->rounds ? wb->rounds_dirty_sum / wb->rounds : 0,
		wb->rounds, wb->nr_pauses, wb->pause_ns / 1000000,
		wb->nr_eagain, wb->nr_bg_starts, wb->bg_passes);
	if (R->world.uring == M_URING_V1)
		fprintf(stderr, "; %" PRIu64 " asynchronous pauses (uring=v1) "
			"holding %" PRIu64 " io_uring writes", wb->nr_deferred,
			R->uring_delayed);
	if (R->reclaimed_pages)
		fprintf(stderr, "; %" PRIu64 " clean pages reclaimed (--mem)",
			R->reclaimed_pages);
	fputc('\n', stderr);
}

/*
 * --group-spans: per reporting group, its I/Os and bytes and the virtual
 * time from the first counted I/O's start to the last one's completion,
 * in ns, on stderr; then the device's page reads and the files' i_rwsem
 * write grants (contended, and of them past an earlier waiter).  fio's own figures are computed over integer ms; a
 * short model run needs the span to the ns.
 */
static void print_group_spans(void)
{
	for (unsigned int i = 0; i < R->njobs;) {
		uint32_t g = R->jobs[i].result->groupid;
		uint64_t first = UINT64_MAX, last = 0, ios = 0, bytes = 0;
		unsigned int k;

		for (k = i; k < R->njobs && R->jobs[k].result->groupid == g;
		     k++) {
			const struct fio_result *r = R->jobs[k].result;

			for (int d = 0; d < FIO_DDIR_COUNT; d++) {
				ios += r->ddir[d].total_ios;
				bytes += r->ddir[d].io_bytes;
			}
			if (!r->total_submit)
				continue;
			if (R->jobs[k].first_start_ns < first)
				first = R->jobs[k].first_start_ns;
			if (R->jobs[k].last_done_ns > last)
				last = R->jobs[k].last_done_ns;
		}
		fprintf(stderr, "wpsim fio: group %u (%s): %" PRIu64 " I/Os, %"
			PRIu64 " bytes, span %" PRIu64 " ns\n", g,
			R->jobs[i].job->name, ios, bytes,
			first == UINT64_MAX ? 0 : last - first);
		i = k;
	}
	fprintf(stderr, "wpsim fio: device page reads %" PRIu64 "\n",
		R->dev_reads);
	fprintf(stderr, "wpsim fio: writeback allocations %" PRIu64 "\n",
		R->wb_allocs);
	/* Since session 25 (h25-rand): the unwritten conversions at I/O
	 * completion, and the writes with data the device's queue took, by
	 * size, as blk_mq_submit_bio sees them: after the split at the
	 * queue's limits (the kernel's block_bio_queue events plus its
	 * block_split events), the log's writes included. */
	if (R->unwritten_converts)
		fprintf(stderr, "wpsim fio: unwritten conversions %" PRIu64
			", runs %" PRIu64 ", splits %" PRIu64 "\n",
			R->unwritten_converts, R->unwritten_runs,
			R->unwritten_splits);
	if (R->dev_stats.write_bios) {
		static const char *const sz[10] = {
			"<4k", "4k", "8k", "16k", "32k", "64k", "128k",
			"256k", "512k", ">512k" };

		fprintf(stderr, "wpsim fio: write bios %" PRIu64
			", bytes %" PRIu64 ":", R->dev_stats.write_bios,
			R->dev_stats.write_bytes);
		for (unsigned int k = 0; k < 10; k++)
			if (R->dev_stats.write_sizes[k])
				fprintf(stderr, " %s %" PRIu64, sz[k],
					R->dev_stats.write_sizes[k]);
		fputc('\n', stderr);
	}
	/* Each CPU's busy time up to the last job's end (h25-rand): how
	 * much of the machine the writers and the writeback beside them
	 * took. */
	if (R->jobs_end_ns) {
		fprintf(stderr, "wpsim fio: CPU busy to the jobs' end at %"
			PRIu64 " ns:", R->jobs_end_ns);
		for (unsigned int c = 0; c < R->cpus && c < FIO_CPU_BUSY_MAX;
		     c++)
			fprintf(stderr, " cpu%u %" PRIu64, c,
				R->cpu_busy_ns[c]);
		fputc('\n', stderr);
	}
	/* A loop device's worker (model/drivers/block/loop.c), when the
	 * device profile has one: its commands, runs and CPU; since
	 * session 22, with loop_complete_ns, the completions' CPU (charged
	 * on the completion's CPU, not the worker's). */
	if (R->dev_stats.loop_cmds)
		fprintf(stderr, "wpsim fio: loop worker commands %" PRIu64
			", runs %" PRIu64 ", CPU %" PRIu64 " ns\n",
			R->dev_stats.loop_cmds, R->dev_stats.loop_works,
			R->dev_stats.loop_busy_ns);
	if (R->dev_stats.loop_complete_ns)
		fprintf(stderr, "wpsim fio: loop completions %" PRIu64
			" (%" PRIu64 " inside an earlier one's charge), CPU %"
			PRIu64 " ns\n",
			R->dev_stats.loop_completions,
			R->dev_stats.loop_completions_shared,
			R->dev_stats.loop_complete_ns);
	fprintf(stderr, "wpsim fio: i_rwsem write grants contended %" PRIu64
		", past an earlier waiter %" PRIu64 "; handoffs %" PRIu64
		", spins %" PRIu64 " (took %" PRIu64 ", polls %" PRIu64 ")\n",
		R->rwsem_contended, R->rwsem_passed, R->rwsem_handoffs,
		R->rwsem_spins, R->rwsem_spin_takes, R->rwsem_spin_polls);
}

static void print_results(void)
{
	struct fio_result **res = calloc(R->njobs, sizeof(*res));
	size_t n = 0;
	FILE *out = stdout;

	if (R->cfg->output[0]) {
		out = fopen(R->cfg->output, "w");
		if (!out) {
			perror(R->cfg->output);
			out = stdout;
		}
	}
	for (unsigned int i = 0; i < R->njobs; i++) {
		struct job_run *jr = &R->jobs[i];

		fill_result(jr);
		fio_ss_result(jr);	/* fio-ss.c */
		/* An I/O error that ended the job (fio-err.c), as fio
		 * prints it at the job's end. */
		if (jr->error && jr->error == jr->io_error)
			fprintf(stderr, "fio: pid=%u, err=%d/%s\n",
				jr->result->pid, jr->error,
				jr->result->error_where);
		/* A verify failure, on stderr as fio prints it. */
		if (jr->verify_msg[0]) {
			fprintf(stderr, "%s\n", jr->verify_msg);
			if (jr->error == FIO_VERIFY_ERRNO)
				fprintf(stderr, "fio: pid=%u, err=%d/%s\n",
					jr->result->pid, jr->error,
					jr->result->error_where);
		}
		if (jr->job->group_reporting && n &&
		    res[n - 1]->groupid == jr->result->groupid &&
		    R->jobs[i - 1].job->group_reporting) {
			fio_result_merge(res[n - 1], jr->result);
			continue;
		}
		if (jr->job->group_reporting) {
			/* The group's result starts as a copy. */
			struct fio_result *g = fio_result_alloc(jr->job);

			*g = *jr->result;
			fio_prio_group(g, jr);	/* fio-prio.c */
			res[n++] = g;
		} else {
			res[n++] = jr->result;
		}
	}
	if (R->cfg->output_format & FIO_OUTPUT_NORMAL)
		fio_print_header(out, R->cfg);
	if (R->cfg->output_format & (FIO_OUTPUT_JSON | FIO_OUTPUT_JSON_PLUS))
		fio_print_json(out, R->cfg, (const struct fio_result **)res, n,
			       R->cfg->output_format & FIO_OUTPUT_JSON_PLUS);
	if (R->cfg->output_format & FIO_OUTPUT_NORMAL)
		fio_print_normal(out, R->cfg, (const struct fio_result **)res,
				 n);
	for (size_t k = 0; k < n; k++) {
		bool owned = false;

		for (unsigned int i = 0; i < R->njobs; i++)
			owned |= res[k] == R->jobs[i].result;
		if (!owned)
			free(res[k]);
	}
	free(res);
	if (out != stdout)
		fclose(out);
}

/* fio's output, the iologs, the reports on stderr; 1 if a job failed. */
int fio_run_report(const struct run_args *ra,
		      const struct sim_outcome *outcome)
{
	int rc = 0;

	print_results();
	for (unsigned int i = 0; i < R->njobs; i++)
		if (R->jobs[i].job->write_iolog[0] &&
		    trace_iolog_writer_write(i, R->jobs[i].job->write_iolog))
			rc = 1;
	/* The statistics logs, in job order (fio's finish_log: a shared
	 * per_job_logs=0 file is appended to). */
	for (unsigned int i = 0; i < R->njobs; i++)
		for (unsigned int l = 0; l < FIO_LOGF_COUNT; l++) {
			const struct fio_log *log = &R->jobs[i].logs[l];
			int err = fio_log_write(log,
						!R->jobs[i].job->per_job_logs);

			if (err) {
				fprintf(stderr, "wpsim fio: %s: %s\n",
					log->path, strerror(-err));
				rc = 1;
			}
		}
	if (ra->group_spans)
		print_group_spans();
	print_dirty_report();
	{
		uint64_t jobs_end = 0;

		for (unsigned int i = 0; i < R->njobs; i++)
			if (R->jobs[i].end_ns > jobs_end)
				jobs_end = R->jobs[i].end_ns;
		timed_run_print_speed("wpsim fio", jobs_end, outcome->end_ns,
				      R->ios_total, "I/Os", ra->speed);
	}
	if (ra->schedule || ra->replayable) {
		char *buf = malloc(1u << 20);

		sim_exec_schedule_format(buf, 1u << 20);
		if (ra->replayable)
			fprintf(stderr, "wpsim fio: schedule %s\n", buf);
		fprintf(stderr, "wpsim fio: %" PRIu64 " steps, virtual "
			"end %" PRIu64
			" ns, event-log hash %016" PRIx64 "\n", outcome->steps,
			outcome->end_ns, outcome->log_hash);
		free(buf);
	}
	for (unsigned int i = 0; i < R->njobs; i++)
		if (R->jobs[i].error)
			rc = 1;
	return rc;
}
