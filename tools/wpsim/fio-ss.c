// SPDX-License-Identifier: MIT
/*
 * tools/wpsim/fio-ss.c - fio's steady-state detection (steadystate=,
 * steadystate_duration, steadystate_ramp_time,
 * steadystate_check_interval) on the model's virtual clock, read from
 * fio 3.33's steadystate.c, helper_thread.c (the "steadystate" timer),
 * backend.c (the epoch, ss.prev_time) and stat.c (what is printed), with
 * later fio's lat criterion and check interval (the corpus's
 * steadystate.c, init.c's checks of them).
 *
 * fio's helper thread runs steadystate_check() every check interval
 * (1000 ms in 3.33) from its own start, before the jobs'; here a
 * "fio-helper" task of the run does, from the run's start, while any job
 * is alive.  Each check takes, per running job, its completed I/Os,
 * bytes and clat sum since the last check (fio's io_blocks, io_bytes,
 * clat_stat), scales them to the interval, adds them up per reporting
 * group with group_reporting (the group's last job keeps the window,
 * fio's steadystate_setup), keeps a rolling window of dur / interval
 * figures, and judges it by the criterion: the largest deviation from
 * the window's mean (iops, bw, lat) or the least-squares slope
 * (iops_slope, bw_slope, lat_slope), absolute or in % of the mean.
 * Below the limit, the job (the group) is marked attained and ends
 * before its next I/O (fio_mark_td_terminate; job_more in fio-job.c).
 *
 * The figures are the model's own: the I/Os completed in virtual time.
 * The check reads the jobs' counters (fio's own memory, not the
 * model's) when the helper wakes, a scheduling point.
 *
 * Divergences, named: fio 3.33 scales an interval's counts as 1000 ×
 * delta / rate_time, later fio as rate_time × delta / (interval² /
 * 1000) (the same when rate_time is the interval, which it is here for
 * every check but a job's first); with the 1 s interval (fio 3.33's
 * only one) the model uses 3.33's formula, with another interval the
 * later one.  A job that starts at the very tick of a check (rate_time
 * 0, where fio 3.33 divides by zero) counts 0 for it.  Leaves out:
 * steadystate with ramp_time (fio's reset_all_stats restarts the
 * helper's timers and the job's counters at the ramp's end): an error.
 */
#include "tools/wpsim/fio-run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/clock.h"
#include "sim/engine.h"

/* One job's steadystate_data (fio's td->ss). */
struct fio_ss {
	uint32_t state;
	double limit;
	uint64_t dur_s;			/* seconds */
	uint64_t ramp_us;
	uint32_t head, tail;
	uint64_t *bw, *iops, *lat;	/* [intervals] when FIO_SS_DATA */
	double slope, deviation, criterion;
	uint64_t sum_y, sum_x, sum_x_sq, sum_xy, oldest_y;
	uint64_t epoch_ns, prev_ns;	/* td->epoch, ss.prev_time */
	uint64_t prev_iops, prev_bytes, prev_lat_samples;
	double prev_lat_sum;
	bool running, exited;		/* fio's runstate */
};

static struct fio_ss *ss_jobs;		/* [njobs], or NULL: none */
static unsigned int ss_njobs;
static uint64_t ss_check_ms;		/* fio's ss_check_interval */
static uint32_t ss_intervals_of(const struct fio_ss *ss)
{
	return (uint32_t)(ss->dur_s / (ss_check_ms / 1000));
}
/* fio_mark_td_terminate: one word a job, read before each I/O. */
static struct sim_word *ss_term;

int fio_ss_check_job(const struct fio_job *j)
{
	uint64_t dur_us = j->ss_dur_ns / 1000, check_us = j->ss_check_ns / 1000;

	if (!j->ss_dur_ns)
		return 0;
	/* later fio's init.c fixup_options */
	if (check_us / 1000 < 1000)
		return fio_run_job_error(j, "ss_check_interval must be at "
					 "least 1s (fio's check)");
	if (dur_us % check_us || dur_us <= check_us) {
		char msg[160];

		snprintf(msg, sizeof(msg), "ss_duration %lluus must be "
			 "multiple of ss_check_interval %lluus (fio's check)",
			 (unsigned long long)dur_us,
			 (unsigned long long)check_us);
		return fio_run_job_error(j, msg);
	}
	if (j->ramp_time_ns)
		return fio_run_job_error(j, "steadystate with ramp_time is "
					 "not modelled (fio restarts its "
					 "helper's timers at the ramp's end)");
	for (uint32_t i = 0; i < R->cfg->job_count; i++) {
		const struct fio_job *o = &R->cfg->jobs[i];

		if (o->ss_dur_ns && o->ss_check_ns != j->ss_check_ns)
			return fio_run_job_error(j, "conflicting "
						 "ss_check_interval, must be "
						 "globally equal (fio's "
						 "check)");
		/* td_steadystate_init: within a reporting group */
		if (o->groupid == j->groupid &&
		    (o->ss_dur_ns / 1000000000ull !=
		     j->ss_dur_ns / 1000000000ull ||
		     o->ss_limit != j->ss_limit ||
		     o->ss_ramp_ns / 1000 != j->ss_ramp_ns / 1000 ||
		     (o->ss_dur_ns ? o->ss_state : 0) != j->ss_state))
			return fio_run_job_error(j, "job rejected: "
						 "steadystate options must be "
						 "consistent within reporting "
						 "groups (fio's EINVAL)");
	}
	return 0;
}

/* The helper thread's timer: steadystate_check each interval. */
static void ss_helper(void *unused)
{
	(void)unused;
	for (;;) {
		sim_sleep_ns(ss_check_ms * 1000000ull);
		if (!sim_word_read(R->jobs_alive))
			return;
		fio_ss_check();
	}
}

static void ss_alloc(struct fio_ss *ss)
{
	uint32_t n = ss_intervals_of(ss);

	ss->bw = calloc(n, sizeof(uint64_t));
	ss->iops = calloc(n, sizeof(uint64_t));
	ss->lat = calloc(n, sizeof(uint64_t));
	if (!ss->bw || !ss->iops || !ss->lat) {
		perror("wpsim fio: steadystate");
		exit(1);
	}
	ss->state |= FIO_SS_DATA;
}

void fio_ss_free(void)
{
	for (unsigned int i = 0; ss_jobs && i < ss_njobs; i++) {
		free(ss_jobs[i].bw);
		free(ss_jobs[i].iops);
		free(ss_jobs[i].lat);
	}
	free(ss_jobs);
	ss_jobs = NULL;
	ss_njobs = 0;
}

void fio_ss_setup(void)
{
	bool any = false;
	int prev_groupid = -1;
	struct fio_ss *prev = NULL;

	fio_ss_free();
	ss_term = NULL;
	for (unsigned int i = 0; i < R->njobs; i++)
		any |= R->jobs[i].job->ss_dur_ns != 0;
	if (!any)
		return;
	ss_njobs = R->njobs;
	ss_jobs = calloc(ss_njobs, sizeof(*ss_jobs));
	ss_term = sim_arena_alloc(ss_njobs * sizeof(*ss_term));
	if (!ss_jobs) {
		perror("wpsim fio: steadystate");
		exit(1);
	}
	/* td_steadystate_init */
	for (unsigned int i = 0; i < R->njobs; i++) {
		const struct fio_job *j = R->jobs[i].job;
		struct fio_ss *ss = &ss_jobs[i];
		uint32_t n;

		sim_word_init(&ss_term[i], 0, "fio.ss_terminate");
		if (!j->ss_dur_ns)
			continue;
		ss_check_ms = j->ss_check_ns / 1000000;
		ss->dur_s = j->ss_dur_ns / 1000000000ull;
		ss->limit = j->ss_limit;
		ss->ramp_us = j->ss_ramp_ns / 1000;
		ss->state = j->ss_state;
		if (!ss->ramp_us)
			ss->state |= FIO_SS_RAMP_OVER;
		n = ss_intervals_of(ss);
		ss->sum_x = (uint64_t)n * (n - 1) / 2;
		ss->sum_x_sq = (uint64_t)(n - 1) * n * (2 * n - 1) / 6;
	}
	/* steadystate_setup: with group_reporting the group's last job
	 * keeps the data */
	for (unsigned int i = 0; i < R->njobs; i++) {
		const struct fio_job *j = R->jobs[i].job;

		if (!ss_jobs[i].dur_s)
			continue;
		if (!j->group_reporting) {
			ss_alloc(&ss_jobs[i]);
			continue;
		}
		if (prev_groupid != (int)j->groupid) {
			if (prev)
				ss_alloc(prev);
			prev_groupid = (int)j->groupid;
		}
		prev = &ss_jobs[i];
	}
	if (prev && R->jobs[prev - ss_jobs].job->group_reporting)
		ss_alloc(prev);
	sim_task_spawn("fio-helper", ss_helper, NULL);
}

void fio_ss_job_start(struct job_run *jr)
{
	struct fio_ss *ss;

	if (!ss_jobs)
		return;
	ss = &ss_jobs[jr->index];
	ss->epoch_ns = ss->prev_ns = sim_now();	/* backend.c thread_main */
	ss->running = true;
}

void fio_ss_job_exit(struct job_run *jr)
{
	if (ss_jobs)
		ss_jobs[jr->index].exited = true;
}

bool fio_ss_terminated(struct job_run *jr)
{
	return ss_jobs && sim_word_read(&ss_term[jr->index]);
}

bool fio_ss_enabled(void)
{
	return ss_jobs != NULL;
}

/* The criterion's figure of the window's entry @i. */
static uint64_t ss_y(const struct fio_ss *ss, uint32_t i)
{
	if (ss->state & FIO_SS_IOPS)
		return ss->iops[i];
	if (ss->state & FIO_SS_BW)
		return ss->bw[i];
	return ss->lat[i];
}

/* fio's steadystate_slope. */
static bool ss_slope(struct fio_ss *ss, uint64_t iops, uint64_t bw,
		     double lat)
{
	uint32_t n = ss_intervals_of(ss);
	uint64_t new_val;
	double result;

	ss->bw[ss->tail] = bw;
	ss->iops[ss->tail] = iops;
	ss->lat[ss->tail] = (uint64_t)lat;
	new_val = ss_y(ss, ss->tail);
	if ((ss->state & FIO_SS_BUFFER_FULL) ||
	    ss->tail - ss->head == n - 1) {
		if (!(ss->state & FIO_SS_BUFFER_FULL)) {
			ss->sum_y = 0;
			for (uint32_t i = 0; i < n; i++) {
				ss->sum_y += ss_y(ss, i);
				ss->sum_xy += i * ss_y(ss, (ss->head + i) % n);
			}
			ss->state |= FIO_SS_BUFFER_FULL;
		} else {
			ss->sum_y -= ss->oldest_y;
			ss->sum_y += new_val;
			ss->sum_xy = ss->sum_xy - ss->sum_y + n * new_val;
		}
		ss->oldest_y = ss_y(ss, ss->head);
		ss->slope = ((double)ss->sum_xy - (double)ss->sum_x *
			     (double)ss->sum_y / n) /
			    ((double)ss->sum_x_sq - (double)ss->sum_x *
			     (double)ss->sum_x / n);
		if (ss->state & FIO_SS_PCT)
			ss->criterion = 100.0 * ss->slope /
					(double)(ss->sum_y / n);
		else
			ss->criterion = ss->slope;
		result = ss->criterion * (ss->criterion < 0.0 ? -1.0 : 1.0);
		if (result < ss->limit)
			return true;
	}
	ss->tail = (ss->tail + 1) % n;
	if (ss->tail <= ss->head)
		ss->head = (ss->head + 1) % n;
	return false;
}

/* fio's steadystate_deviation. */
static bool ss_deviation(struct fio_ss *ss, uint64_t iops, uint64_t bw,
			 double lat)
{
	uint32_t n = ss_intervals_of(ss);
	double mean, diff;

	ss->bw[ss->tail] = bw;
	ss->iops[ss->tail] = iops;
	ss->lat[ss->tail] = (uint64_t)lat;
	if ((ss->state & FIO_SS_BUFFER_FULL) ||
	    ss->tail - ss->head == n - 1) {
		if (!(ss->state & FIO_SS_BUFFER_FULL)) {
			ss->sum_y = 0;
			for (uint32_t i = 0; i < n; i++)
				ss->sum_y += ss_y(ss, i);
			ss->state |= FIO_SS_BUFFER_FULL;
		} else {
			ss->sum_y -= ss->oldest_y;
			ss->sum_y += ss_y(ss, ss->tail);
		}
		ss->oldest_y = ss_y(ss, ss->head);
		mean = (double)ss->sum_y / n;
		ss->deviation = 0.0;
		for (uint32_t i = 0; i < n; i++) {
			diff = (double)ss_y(ss, i) - mean;
			diff = diff < 0.0 ? -diff : diff;
			if (diff > ss->deviation)
				ss->deviation = diff;
		}
		if (ss->state & FIO_SS_PCT)
			ss->criterion = 100.0 * ss->deviation / mean;
		else
			ss->criterion = ss->deviation;
		if (ss->criterion < ss->limit)
			return true;
	}
	ss->tail = (ss->tail + 1) % n;
	if (ss->tail == ss->head)
		ss->head = (ss->head + 1) % n;
	return false;
}

/* One interval's count scaled to the check (see the opening). */
static uint64_t ss_scale(uint64_t delta, uint64_t rate_time)
{
	if (ss_check_ms == 1000)
		return rate_time ? 1000 * delta / rate_time : 0;
	return rate_time * delta / (ss_check_ms * ss_check_ms / 1000);
}

void fio_ss_check(void)
{
	int prev_groupid = -1, group_ramp_time_over = 0;
	uint64_t group_bw = 0, group_iops = 0, group_lat_samples = 0;
	double group_lat_sum = 0.0;
	uint64_t now = sim_now();

	for (unsigned int i = 0; i < R->njobs; i++) {
		struct job_run *jr = &R->jobs[i];
		const struct fio_job *j = jr->job;
		const struct fio_result *r = jr->result;
		struct fio_ss *ss = &ss_jobs[i];
		uint64_t td_iops = 0, td_bytes = 0, td_lat_samples = 0;
		uint64_t rate_time;
		double td_lat_sum = 0.0, group_lat;
		bool ret;

		if (!ss->dur_s || !ss->running || ss->exited || !ss->state ||
		    (ss->state & FIO_SS_ATTAINED))
			continue;
		if (!j->group_reporting || (int)j->groupid != prev_groupid) {
			group_bw = group_iops = group_lat_samples = 0;
			group_lat_sum = 0.0;
			group_ramp_time_over = 0;
		}
		prev_groupid = (int)j->groupid;
		/* data from one check interval after the ramp */
		if (ss->ramp_us && !(ss->state & FIO_SS_RAMP_OVER) &&
		    (now - ss->epoch_ns) / 1000 >=
		    ss->ramp_us + ss_check_ms * 1000)
			ss->state |= FIO_SS_RAMP_OVER;
		for (int d = 0; d < FIO_DDIR_COUNT; d++) {
			td_iops += r->ddir[d].total_ios;
			td_bytes += r->ddir[d].io_bytes;
			td_lat_sum += r->ddir[d].clat.stat.mean *
				      (double)r->ddir[d].clat.stat.samples;
			td_lat_samples += r->ddir[d].clat.stat.samples;
		}
		rate_time = (now - ss->prev_ns) / 1000000;
		ss->prev_ns = now;
		if (ss->state & FIO_SS_RAMP_OVER) {
			group_bw += ss_scale(td_bytes - ss->prev_bytes,
					     rate_time);
			group_iops += ss_scale(td_iops - ss->prev_iops,
					       rate_time);
			group_lat_sum += td_lat_sum - ss->prev_lat_sum;
			group_lat_samples += td_lat_samples -
					     ss->prev_lat_samples;
			group_ramp_time_over++;
		}
		ss->prev_iops = td_iops;
		ss->prev_bytes = td_bytes;
		ss->prev_lat_sum = td_lat_sum;
		ss->prev_lat_samples = td_lat_samples;
		if (j->group_reporting && !(ss->state & FIO_SS_DATA))
			continue;
		if (!group_ramp_time_over)
			continue;
		group_lat = group_lat_samples ?
			    group_lat_sum / (double)group_lat_samples : 0.0;
		if (ss->state & FIO_SS_SLOPE)
			ret = ss_slope(ss, group_iops, group_bw, group_lat);
		else
			ret = ss_deviation(ss, group_iops, group_bw,
					   group_lat);
		if (!ret)
			continue;
		if (j->group_reporting) {
			for (unsigned int k = 0; k < R->njobs; k++)
				if (R->jobs[k].job->groupid == j->groupid) {
					ss_jobs[k].state |= FIO_SS_ATTAINED;
					sim_word_write(&ss_term[k], 1);
				}
		} else {
			ss->state |= FIO_SS_ATTAINED;
			sim_word_write(&ss_term[i], 1);
		}
	}
}

void fio_ss_result(struct job_run *jr)
{
	const struct fio_ss *ss;
	struct fio_ss_result *out = &jr->result->ss;

	memset(out, 0, sizeof(*out));
	if (!ss_jobs || !jr->job->ss_dur_ns)
		return;
	ss = &ss_jobs[jr->index];
	out->state = ss->state;
	out->dur_s = ss->dur_s;
	out->intervals = ss_intervals_of(ss);
	out->head = ss->head;
	out->bw = ss->bw;
	out->iops = ss->iops;
	out->lat = ss->lat;
	out->limit = ss->limit;
	out->slope = ss->slope;
	out->deviation = ss->deviation;
	out->criterion = ss->criterion;
}
