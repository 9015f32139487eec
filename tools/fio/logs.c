// SPDX-License-Identifier: MIT
/*
 * tools/fio/logs.c - fio's statistics logs: write_bw_log, write_lat_log,
 * write_iops_log with log_avg_msec, log_window_value (log_max_value),
 * per_job_logs, log_offset and log_issue_time, in fio 3.33's formats
 * (read from its init.c add_job and gen_log_name, stat.c add_log_sample
 * and __add_stat_to_log, iolog.c flush_samples and flush_log; checked
 * against fio 3.33's own files) and fio 3.42's two later columns
 * (log_window_value=both's value1, log_issue_time's issue time: read
 * from fio 3.42's iolog.c flush_samples and setup_log, stat.c
 * __add_stat_to_log, add_clat_sample, add_slat_sample; the patterns
 * fio's t/run-fio-tests.py checks for t0033 and t0034).
 *
 * Leaves out: write_hist_log, log_compression/log_store_compressed
 * (each refused by the parser, never accepted), log_unix_epoch
 * (times are virtual ms since the job's epoch).  The command priority
 * column is the I/O's ioprio (the caller's cur_prio: prio/prioclass,
 * cmdprio; tools/wpsim/fio-prio.c) as fio 3.33 prints it: with
 * log_prio=1 its value ("0x2000", checked against fio 3.33), else 1
 * when it is of the RT class; a window's entry 0.
 */
#include "tools/fio/logs.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* stat.c: how early a bw/iops window may close (not on Windows). */
#define LOG_MSEC_SLACK	1

static const char *const log_types[FIO_LOGF_COUNT] = {
	[FIO_LOGF_BW] = "bw",
	[FIO_LOGF_LAT] = "lat",
	[FIO_LOGF_SLAT] = "slat",
	[FIO_LOGF_CLAT] = "clat",
	[FIO_LOGF_IOPS] = "iops",
};

/* Which write_X_log option makes each file. */
static const enum fio_log_kind log_kind_of[FIO_LOGF_COUNT] = {
	[FIO_LOGF_BW] = FIO_LOG_BW,
	[FIO_LOGF_LAT] = FIO_LOG_LAT,
	[FIO_LOGF_SLAT] = FIO_LOG_LAT,
	[FIO_LOGF_CLAT] = FIO_LOG_LAT,
	[FIO_LOGF_IOPS] = FIO_LOG_IOPS,
};

void fio_log_setup(struct fio_log *logs, const struct fio_job *job,
		   unsigned int thread_number)
{
	for (unsigned int i = 0; i < FIO_LOGF_COUNT; i++) {
		struct fio_log *l = &logs[i];
		enum fio_log_kind k = log_kind_of[i];
		const char *pre = job->log_file[k][0] ? job->log_file[k] :
				  job->name;

		free(l->s);
		memset(l, 0, sizeof(*l));
		if (!(job->logs & (1u << k)))
			continue;
		l->on = true;
		l->inline_log = k == FIO_LOG_LAT;
		l->log_offset = job->log_offset;
		l->window_value = job->log_window_value;
		l->log_issue_time = job->log_issue_time;
		l->avg_msec = job->log_avg_msec;
		l->log_prio = job->log_prio;
		for (unsigned int d = 0; d < FIO_DDIR_COUNT; d++)
			fio_stat_init(&l->window[d]);
		if (job->per_job_logs)
			snprintf(l->path, sizeof(l->path), "%s_%s.%u.log", pre,
				 log_types[i], thread_number);
		else
			snprintf(l->path, sizeof(l->path), "%s_%s.log", pre,
				 log_types[i]);
	}
}

void fio_log_release(struct fio_log *logs)
{
	for (unsigned int i = 0; i < FIO_LOGF_COUNT; i++) {
		free(logs[i].s);
		logs[i].s = NULL;
		logs[i].n = logs[i].cap = 0;
	}
}

/* fio's __add_log_sample(). */
static void log_entry(struct fio_log *l, uint64_t t, uint64_t value,
		      uint64_t value1, enum fio_ddir ddir, uint64_t bs,
		      uint64_t offset, uint64_t issue_ns, uint32_t prio)
{
	if (!l->n)
		l->avg_last[ddir] = t;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 1024;
		struct fio_log_sample *s = realloc(l->s, cap * sizeof(*s));

		if (!s) {
			/* fio: iolog->disabled, the log stops growing. */
			return;
		}
		l->s = s;
		l->cap = cap;
	}
	l->s[l->n++] = (struct fio_log_sample){
		.time_ms = t, .value = value, .value1 = value1, .bs = bs,
		.offset = l->log_offset ? offset : 0,
		.issue_ns = l->log_issue_time ? issue_ns : 0,
		.prio = prio, .ddir = (uint8_t)ddir };
}

/* fio's __add_stat_to_log(): the window's mean (+0.5, truncated), max,
 * or both (mean, then max as value1), then the window restarts. */
static void log_window(struct fio_log *l, enum fio_ddir ddir,
		       uint64_t elapsed)
{
	struct fio_stat *w = &l->window[ddir];
	uint64_t mean = (uint64_t)(w->mean + 0.50);

	if (w->samples) {
		if (l->window_value == FIO_LOG_WINDOW_MAX)
			log_entry(l, elapsed, w->max, 0, ddir, 0, 0, 0, 0);
		else if (l->window_value == FIO_LOG_WINDOW_BOTH)
			log_entry(l, elapsed, mean, w->max, ddir, 0, 0, 0, 0);
		else
			log_entry(l, elapsed, mean, 0, ddir, 0, 0, 0, 0);
	}
	fio_stat_init(w);
}

void fio_log_add(struct fio_log *l, uint64_t elapsed_ms, uint64_t value,
		 enum fio_ddir ddir, uint64_t bs, uint64_t offset,
		 uint64_t issue_ns)
{
	uint64_t this_window;

	if (!l->on || ddir >= FIO_DDIR_COUNT)
		return;
	if (!l->avg_msec) {
		log_entry(l, elapsed_ms, value, 0, ddir, bs, offset,
			  issue_ns, l->cur_prio);
		return;
	}
	fio_stat_add(&l->window[ddir], value);
	if (elapsed_ms < l->avg_last[ddir])
		return;
	this_window = elapsed_ms - l->avg_last[ddir];
	if (this_window < l->avg_msec &&
	    (l->inline_log || l->avg_msec - this_window > LOG_MSEC_SLACK))
		return;
	log_window(l, ddir, elapsed_ms);
	l->avg_last[ddir] = elapsed_ms - elapsed_ms % l->avg_msec;
}

void fio_log_finalize(struct fio_log *l, uint64_t elapsed_ms)
{
	if (!l->on)
		return;
	for (unsigned int d = 0; d < FIO_DDIR_COUNT; d++)
		log_window(l, (enum fio_ddir)d, elapsed_ms);
}

int fio_log_write(const struct fio_log *l, bool append)
{
	FILE *f;

	if (!l->on)
		return 0;
	f = fopen(l->path, append ? "a" : "w");
	if (!f)
		return -errno;
	for (size_t i = 0; i < l->n; i++) {
		const struct fio_log_sample *s = &l->s[i];

		/* flush_samples: time, value[, value1], ddir, bs[, offset],
		 * prio[, issue time]. */
		fprintf(f, "%" PRIu64 ", %" PRId64, s->time_ms,
			(int64_t)s->value);
		if (l->window_value == FIO_LOG_WINDOW_BOTH)
			fprintf(f, ", %" PRId64, (int64_t)s->value1);
		fprintf(f, ", %u, %" PRIu64, s->ddir, s->bs);
		if (l->log_offset)
			fprintf(f, ", %" PRIu64, s->offset);
		/* fio 3.33 flush_samples: the ioprio, or whether it is
		 * of the RT class (ioprio_value_is_class_rt) */
		if (l->log_prio)
			fprintf(f, ", 0x%04x", s->prio);
		else
			fprintf(f, ", %u", (s->prio >> FIO_IOPRIO_CLASS_SHIFT) ==
				FIO_IOPRIO_CLASS_RT);
		if (l->log_issue_time)
			fprintf(f, ", %" PRIu64, s->issue_ns);
		fputc('\n', f);
	}
	if (fclose(f))
		return -errno;
	return 0;
}
