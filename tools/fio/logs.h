/* SPDX-License-Identifier: MIT */
/*
 * tools/fio/logs.h - fio's statistics logs (write_bw_log, write_lat_log,
 * write_iops_log) in fio 3.33's file format: one "time, value, ddir,
 * bs[, offset], prio" line per entry (iolog.c flush_samples), with fio
 * 3.42's value1 column (log_window_value=both) and issue-time column
 * (log_issue_time) when asked: "time, value[, value1], ddir, bs[,
 * offset], prio[, issue]"; entries
 * per I/O or averaged over log_avg_msec windows (stat.c add_log_sample,
 * __add_stat_to_log), file names as init.c gen_log_name makes them.
 * The runner feeds samples in virtual milliseconds since the job's
 * epoch; docs/fio.md "Statistics logs".
 */
#ifndef WPSIM_TOOLS_FIO_LOGS_H
#define WPSIM_TOOLS_FIO_LOGS_H

#include "tools/fio/fio.h"

/* One file's log: fio's struct io_log, what wpsim uses of it. */
struct fio_log_sample {
	uint64_t time_ms;
	uint64_t value;
	uint64_t value1;	/* log_window_value=both: the max; else 0 */
	uint64_t issue_ns;	/* log_issue_time: clat and slat's; else 0 */
	uint64_t bs;
	uint64_t offset;
	uint32_t prio;		/* the I/O's ioprio (a window's: 0) */
	uint8_t ddir;
};

struct fio_log {
	bool on;
	bool inline_log;	/* a latency log: fio's inline_log() */
	bool log_offset;
	uint32_t window_value;	/* enum fio_log_window */
	bool log_issue_time;	/* the issue-time column */
	bool log_prio;		/* log_prio=1: the prio column as 0x%04x */
	uint32_t cur_prio;	/* the caller's: the next I/O entry's ioprio */
	uint64_t avg_msec;	/* 0: an entry per I/O */
	struct fio_stat window[FIO_DDIR_COUNT];	/* fio's avg_window */
	uint64_t avg_last[FIO_DDIR_COUNT];
	struct fio_log_sample *s;	/* malloc'd */
	size_t n, cap;
	char path[FIO_PATH_LEN_MAX + 64];
};

/* The log files of a job: fio's td->{bw,lat,slat,clat,iops}_log. */
enum fio_log_file {
	FIO_LOGF_BW,
	FIO_LOGF_LAT,
	FIO_LOGF_SLAT,
	FIO_LOGF_CLAT,
	FIO_LOGF_IOPS,
	FIO_LOGF_COUNT,
};

/*
 * fio_log_setup() - the logs @job asks for, named as fio 3.33's add_job
 * names them for thread number @thread_number (1-based, the job's place
 * in the run): "<name>_<type>.<N>.log", or "<name>_<type>.log" with
 * per_job_logs=0.  @logs[FIO_LOGF_COUNT] are reset.
 */
void fio_log_setup(struct fio_log *logs, const struct fio_job *job,
		   unsigned int thread_number);

/* fio_log_release() - free the samples of @logs[FIO_LOGF_COUNT]. */
void fio_log_release(struct fio_log *logs);

/*
 * fio_log_add() - fio's add_log_sample(): an entry now (per-I/O log),
 * or a sample into the window, logged as the window's mean (rounded),
 * max or both when @elapsed_ms has passed avg_msec since the last entry.
 * @issue_ns is the I/O's issue time since the job's epoch for the clat
 * and slat logs (fio 3.42 stat.c add_clat_sample, add_slat_sample), 0
 * for the others; a window's entry has bs, offset and issue time 0.
 */
void fio_log_add(struct fio_log *l, uint64_t elapsed_ms, uint64_t value,
		 enum fio_ddir ddir, uint64_t bs, uint64_t offset,
		 uint64_t issue_ns);

/* fio_log_finalize() - fio's finalize_logs(): what the windows hold. */
void fio_log_finalize(struct fio_log *l, uint64_t elapsed_ms);

/*
 * fio_log_write() - the entries into l->path (appended when @append:
 * fio opens a shared per_job_logs=0 log so).  Return: 0, or -errno.
 */
int fio_log_write(const struct fio_log *l, bool append);

#endif /* WPSIM_TOOLS_FIO_LOGS_H */
