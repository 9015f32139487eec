// SPDX-License-Identifier: MIT
/*
 * tools/fio/stat.c - fio's result bookkeeping, after fio 3.33's stat.c
 * and io_u.c: the running mean/variance of every latency and rate
 * (add_stat_sample(), Welford's method), the log-linear latency
 * histogram and its percentiles (plat_val_to_idx(), plat_idx_to_val(),
 * calc_clat_percentiles()), the clat buckets of the "lat (usec)" line
 * (io_u_mark_latency()), bandwidth and IOPS samples (__add_samples()),
 * summing for group_reporting (sum_thread_stats()) and the per-group
 * figures (__show_run_stats()).
 *
 * Leaves out: per-priority statistics (cmdprio), zone resets (always
 * 0), cache hits, the block-info histogram (trim), steady state, and
 * unified_rw_reporting.
 */
#include "tools/fio/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const double fio_default_percentiles[FIO_DEFAULT_PERCENTILES] = {
	1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0,
	95.0, 99.0, 99.5, 99.9, 99.95, 99.99,
};

void fio_stat_init(struct fio_stat *s)
{
	memset(s, 0, sizeof(*s));
	s->min = UINT64_MAX;
}

void fio_stat_add(struct fio_stat *s, uint64_t value)
{
	double v = (double)value, delta;

	if (value > s->max)
		s->max = value;
	if (value < s->min)
		s->min = value;
	delta = v - s->mean;
	if (delta != 0.0) {
		s->mean += delta / ((double)s->samples + 1.0);
		s->m2 += delta * (v - s->mean);
	}
	s->samples++;
}

double fio_stat_stddev(const struct fio_stat *s)
{
	if (s->samples < 2)
		return 0.0;
	return sqrt(s->m2 / ((double)s->samples - 1.0));
}

void fio_lat_init(struct fio_lat *l)
{
	memset(l, 0, sizeof(*l));
	fio_stat_init(&l->stat);
}

/*
 * The bucket of @ns: values up to 2^(BITS+1) - 1 are their own bucket;
 * above, the bits below the top BITS+1 are dropped and the group (the
 * position of the top bit) picks which run of 2^BITS buckets.
 */
unsigned int fio_plat_val_to_idx(uint64_t ns)
{
	unsigned int msb, error_bits, base, offset, idx;

	msb = ns ? 63u - (unsigned int)__builtin_clzll(ns) : 0;
	if (msb <= FIO_PLAT_BITS)
		return (unsigned int)ns;
	error_bits = msb - FIO_PLAT_BITS;
	base = (error_bits + 1) << FIO_PLAT_BITS;
	offset = (unsigned int)((FIO_PLAT_VAL - 1) & (ns >> error_bits));
	idx = base + offset;
	return idx < FIO_PLAT_NR - 1 ? idx : FIO_PLAT_NR - 1;
}

/* The value a bucket reports: its midpoint, truncated, as fio's. */
uint64_t fio_plat_idx_to_val(unsigned int idx)
{
	unsigned int error_bits;
	uint64_t base, k;

	if (idx >= FIO_PLAT_NR)
		idx = FIO_PLAT_NR - 1;
	if (idx < (FIO_PLAT_VAL << 1))
		return idx;
	error_bits = (idx >> FIO_PLAT_BITS) - 1;
	base = (uint64_t)1 << (error_bits + FIO_PLAT_BITS);
	k = idx % FIO_PLAT_VAL;
	return base + (uint64_t)(((double)k + 0.5) *
				 (double)((uint64_t)1 << error_bits));
}

void fio_lat_add(struct fio_lat *l, uint64_t ns)
{
	fio_stat_add(&l->stat, ns);
	l->plat[fio_plat_val_to_idx(ns)]++;
}

size_t fio_lat_percentiles(const struct fio_lat *l, const double *plist,
			   size_t n, uint64_t *out)
{
	uint64_t sum = 0, nr = l->stat.samples;
	size_t j = 0;

	if (!nr || !n)
		return 0;
	for (unsigned int i = 0; i < FIO_PLAT_NR && j < n; i++) {
		sum += l->plat[i];
		while (j < n && (long double)sum >=
		       (long double)plist[j] / 100.0L * (long double)nr)
			out[j++] = fio_plat_idx_to_val(i);
	}
	/* Rounding can leave 100.0 short by a hair: the last bucket. */
	while (j < n)
		out[j++] = fio_plat_idx_to_val(FIO_PLAT_NR - 1);
	return n;
}

/* ------------------------------------------------------------------ */
/* Results                                                             */

struct fio_result *fio_result_alloc(const struct fio_job *job)
{
	struct fio_result *r = calloc(1, sizeof(*r));

	if (!r)
		abort();
	for (int d = 0; d < FIO_DDIR_COUNT; d++) {
		fio_lat_init(&r->ddir[d].slat);
		fio_lat_init(&r->ddir[d].clat);
		fio_lat_init(&r->ddir[d].lat);
		fio_stat_init(&r->ddir[d].bw);
		fio_stat_init(&r->ddir[d].iops);
	}
	fio_lat_init(&r->sync);
	r->members = 1;
	r->kb_base = 1024;
	r->latency_depth = 1;
	r->latency_percentile = 100.0;
	r->percentile_count = FIO_DEFAULT_PERCENTILES;
	memcpy(r->percentiles, fio_default_percentiles,
	       sizeof(fio_default_percentiles));
	if (job) {
		snprintf(r->name, sizeof(r->name), "%s", job->name);
		snprintf(r->description, sizeof(r->description), "%.255s",
			 job->description);
		r->groupid = job->groupid;
		r->gtod_reduce = job->gtod_reduce;
		r->section = job->section;
		r->kb_base = job->kb_base;
		r->latency_depth = job->iodepth;
		/* fio 3.33 stat.c __show_run_stats: the job's options. */
		r->latency_target = job->latency_target_ns;
		r->latency_window = job->latency_window_ns / 1000;
		r->latency_percentile = job->latency_percentile;
		r->record_slat = job->ioengine == FIO_ENGINE_LIBAIO ||
				 job->ioengine == FIO_ENGINE_IO_URING;
	}
	return r;
}

/* io_u.c io_u_mark_lat_{nsec,usec,msec}(): label X means "below X". */
static unsigned int lat_bucket(uint64_t v)
{
	static const uint64_t edges[] = { 2, 4, 10, 20, 50, 100, 250, 500,
					  750, 1000, 2000 };
	unsigned int i = 0;

	while (i < sizeof(edges) / sizeof(edges[0]) && v >= edges[i])
		i++;
	return i;
}

void fio_result_add_failed_io(struct fio_result *r, enum fio_ddir ddir)
{
	r->ddir[ddir].total_ios++;
}

void fio_result_add_io(struct fio_result *r, enum fio_ddir ddir,
		       uint64_t bytes, uint64_t start_ns, uint64_t issue_ns,
		       uint64_t complete_ns)
{
	struct fio_ddir_result *d = &r->ddir[ddir];
	uint64_t clat = complete_ns >= issue_ns ? complete_ns - issue_ns : 0;
	uint64_t lat = complete_ns >= start_ns ? complete_ns - start_ns : 0;
	unsigned int b;

	d->io_bytes += bytes;
	d->total_ios++;
	/* gtod_reduce=1 (fio 3.33 options.c str_gtod_reduce_cb: disable_lat,
	 * disable_clat, disable_slat; io_u.c account_io_completion): no
	 * lat, clat or slat sample, no latency bucket. */
	if (r->gtod_reduce)
		return;
	if (r->record_slat)
		fio_lat_add(&d->slat,
			    issue_ns >= start_ns ? issue_ns - start_ns : 0);
	fio_lat_add(&d->clat, clat);
	fio_lat_add(&d->lat, lat);
	if (clat < 1000) {
		r->lat_n[lat_bucket(clat)]++;
	} else if (clat < 1000000) {
		b = lat_bucket(clat / 1000);
		r->lat_u[b < FIO_LAT_U_BUCKETS ? b : FIO_LAT_U_BUCKETS - 1]++;
	} else {
		b = lat_bucket(clat / 1000000);
		r->lat_m[b]++;
	}
}

void fio_result_add_sync(struct fio_result *r, uint64_t lat_ns)
{
	fio_result_add_sync_kind(r, FIO_SYNC_KIND_FSYNC, lat_ns);
}

void fio_result_add_sync_kind(struct fio_result *r, enum fio_sync_kind kind,
			      uint64_t lat_ns)
{
	fio_lat_add(&r->sync, lat_ns);
	/* fio 3.33 counts an I/O in total_io_u[ddir], an array of
	 * DDIR_RWDIR_SYNC_CNT (4) entries followed by short_io_u[]: its
	 * DDIR_SYNC (3) is the fourth total, DDIR_DATASYNC (4) and
	 * DDIR_SYNC_FILE_RANGE (5) land in short_io_u[0] and [1]. */
	switch (kind) {
	case FIO_SYNC_KIND_FSYNC:
		r->sync_ios++;
		break;
	case FIO_SYNC_KIND_FDATASYNC:
		r->ddir[FIO_DDIR_READ].short_ios++;
		break;
	case FIO_SYNC_KIND_SYNC_FILE_RANGE:
		r->ddir[FIO_DDIR_WRITE].short_ios++;
		break;
	}
}

void fio_result_sample(struct fio_result *r, uint64_t spent_ms)
{
	uint64_t rate[FIO_DDIR_COUNT];

	fio_result_sample_bw(r, spent_ms, rate);
	fio_result_sample_iops(r, spent_ms, rate);
}

unsigned int fio_result_sample_bw(struct fio_result *r, uint64_t spent_ms,
				  uint64_t *rate)
{
	unsigned int mask = 0;

	for (int i = 0; i < FIO_DDIR_COUNT; i++) {
		struct fio_ddir_result *d = &r->ddir[i];
		uint64_t dbytes = d->io_bytes - d->sampled_bytes;

		if (dbytes) {
			rate[i] = spent_ms ? dbytes * 1000 / spent_ms / 1024 : 0;
			fio_stat_add(&d->bw, rate[i]);
			mask |= 1u << i;
		}
		d->sampled_bytes = d->io_bytes;
	}
	return mask;
}

unsigned int fio_result_sample_iops(struct fio_result *r, uint64_t spent_ms,
				    uint64_t *rate)
{
	unsigned int mask = 0;

	for (int i = 0; i < FIO_DDIR_COUNT; i++) {
		struct fio_ddir_result *d = &r->ddir[i];
		uint64_t dios = d->total_ios - d->sampled_ios;

		if (dios) {
			rate[i] = spent_ms ? dios * 1000 / spent_ms : 0;
			fio_stat_add(&d->iops, rate[i]);
			mask |= 1u << i;
		}
		d->sampled_ios = d->total_ios;
	}
	return mask;
}

/* stat.c __sum_stat(): Chan et al.'s parallel variance. */
static void stat_merge(struct fio_stat *dst, const struct fio_stat *src)
{
	double delta, n1, n2;

	if (!src->samples)
		return;
	if (!dst->samples) {
		*dst = *src;
		return;
	}
	n1 = (double)dst->samples;
	n2 = (double)src->samples;
	delta = src->mean - dst->mean;
	dst->m2 = src->m2 + dst->m2 + delta * delta * n1 * n2 / (n1 + n2);
	dst->mean = (src->mean * n2 + dst->mean * n1) / (n1 + n2);
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->samples += src->samples;
}

/* stat.c sum_stat(pure_sum): bw and iops of a group add up. */
static void stat_sum(struct fio_stat *dst, const struct fio_stat *src)
{
	if (!src->samples)
		return;
	if (!dst->samples) {
		*dst = *src;
		return;
	}
	dst->min += src->min;
	dst->max += src->max;
	dst->samples += src->samples;
	dst->mean += src->mean;
	dst->m2 += src->m2;
}

static void lat_merge(struct fio_lat *dst, const struct fio_lat *src)
{
	stat_merge(&dst->stat, &src->stat);
	for (unsigned int i = 0; i < FIO_PLAT_NR; i++)
		dst->plat[i] += src->plat[i];
}

void fio_result_merge(struct fio_result *dst, const struct fio_result *src)
{
	/* fio 3.33 stat.c __show_run_stats: each job's continue_on_error
	 * and first_error replace the group's, the counts add. */
	dst->continue_on_error = src->continue_on_error;
	dst->total_err_count += src->total_err_count;
	dst->first_error = src->first_error;
	for (int i = 0; i < FIO_DDIR_COUNT; i++) {
		struct fio_ddir_result *d = &dst->ddir[i];
		const struct fio_ddir_result *s = &src->ddir[i];

		lat_merge(&d->slat, &s->slat);
		lat_merge(&d->clat, &s->clat);
		lat_merge(&d->lat, &s->lat);
		stat_sum(&d->bw, &s->bw);
		stat_sum(&d->iops, &s->iops);
		d->io_bytes += s->io_bytes;
		d->total_ios += s->total_ios;
		d->short_ios += s->short_ios;
		d->drop_ios += s->drop_ios;
		if (s->runtime_ms > d->runtime_ms)
			d->runtime_ms = s->runtime_ms;
	}
	lat_merge(&dst->sync, &src->sync);
	dst->sync_ios += src->sync_ios;
	dst->usr_time_ms += src->usr_time_ms;
	dst->sys_time_ms += src->sys_time_ms;
	dst->ctx += src->ctx;
	dst->majf += src->majf;
	dst->minf += src->minf;
	for (int k = 0; k < FIO_IODEPTH_BUCKETS; k++) {
		dst->io_u_map[k] += src->io_u_map[k];
		dst->io_u_submit[k] += src->io_u_submit[k];
		dst->io_u_complete[k] += src->io_u_complete[k];
	}
	for (int k = 0; k < FIO_LAT_N_BUCKETS; k++)
		dst->lat_n[k] += src->lat_n[k];
	for (int k = 0; k < FIO_LAT_U_BUCKETS; k++)
		dst->lat_u[k] += src->lat_u[k];
	for (int k = 0; k < FIO_LAT_M_BUCKETS; k++)
		dst->lat_m[k] += src->lat_m[k];
	if (src->prio && dst->prio && src->prio != dst->prio)
		fio_prio_stats_merge(dst->prio, src->prio);
	/* fio's __show_run_stats copies each member's ss_* over the
	 * group's: the last with steadystate gives it. */
	if (src->ss.dur_s)
		dst->ss = src->ss;
	dst->total_run_time_ms += src->total_run_time_ms;
	dst->total_submit += src->total_submit;
	dst->total_complete += src->total_complete;
	if (src->elapsed_s > dst->elapsed_s)
		dst->elapsed_s = src->elapsed_s;
	if (!dst->error)
		dst->error = src->error;
	dst->members += src->members;
}

void fio_group_compute(const struct fio_result *const *results, size_t n,
		       uint32_t groupid, struct fio_group_result *g)
{
	memset(g, 0, sizeof(*g));
	g->groupid = groupid;
	g->kb_base = 1024;
	for (int d = 0; d < FIO_DDIR_COUNT; d++)
		g->min_bw[d] = g->min_run[d] = UINT64_MAX;
	for (size_t i = 0; i < n; i++) {
		const struct fio_result *r = results[i];

		if (r->groupid != groupid)
			continue;
		g->kb_base = r->kb_base;
		for (int d = 0; d < FIO_DDIR_COUNT; d++) {
			uint64_t run = r->ddir[d].runtime_ms, bw;

			if (!run)
				continue;
			if (run < g->min_run[d])
				g->min_run[d] = run;
			if (run > g->max_run[d])
				g->max_run[d] = run;
			bw = r->ddir[d].io_bytes * 1000 / run;
			if (bw < g->min_bw[d])
				g->min_bw[d] = bw;
			if (bw > g->max_bw[d])
				g->max_bw[d] = bw;
			g->iobytes[d] += r->ddir[d].io_bytes;
		}
	}
	for (int d = 0; d < FIO_DDIR_COUNT; d++)
		if (g->max_run[d])
			g->agg[d] = g->iobytes[d] * 1000 / g->max_run[d];
}

void fio_prio_stats_merge(struct fio_prio_stats *dst,
			  const struct fio_prio_stats *src)
{
	for (int d = 0; d < 2; d++)
		for (uint32_t i = 0; i < src->nr[d]; i++) {
			const struct fio_clat_prio *s = &src->e[d][i];
			uint32_t k = 0;

			while (k < dst->nr[d] && dst->e[d][k].ioprio !=
			       s->ioprio)
				k++;
			if (k == dst->nr[d]) {
				if (k == FIO_CLAT_PRIO_MAX)
					continue;
				dst->nr[d]++;
				dst->e[d][k].ioprio = s->ioprio;
				fio_lat_init(&dst->e[d][k].clat);
			}
			lat_merge(&dst->e[d][k].clat, &s->clat);
		}
}
