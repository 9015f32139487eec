// SPDX-License-Identifier: MIT
/*
 * tools/fio/output.c - fio 3.33's normal and JSON output printed from
 * struct fio_result: stat.c show_thread_status_normal(),
 * show_ddir_status(), display_lat(), show_clat_percentiles(),
 * show_latencies(), show_group_stats(), show_thread_status_json(),
 * add_ddir_status_json(), add_ddir_lat_json(); lib/num2str.c; json.c's
 * layout; init.c's job line and backend.c's "Starting" line.
 *
 * Divergences, all documented in docs/fio.md: no wall clock (dates are
 * the virtual epoch FIO_VIRTUAL_DATE, JSON timestamps 0, "eta" 0); the
 * version string names wpsim; no disk stats ("Disk stats (read/write)"
 * and JSON "disk_util" are left out: the model's device is not a
 * /sys/block disk); the sync count is printed where fio 3.33 prints 0
 * ("issued rwts" fourth total, JSON sync.total_ios); JSON strings are
 * escaped fully and empty ones kept (fio drops a pair whose string is
 * empty).  Left out: terse, per-priority lines, zone resets other than
 * 0, unified_rw_reporting, steady state, description.
 */
#include "tools/fio/internal.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Numbers                                                             */

void fio_num2str(char *buf, size_t len, uint64_t num, int maxlen,
		 bool pow2, const char *unit)
{
	static const char *const si[] = { "", "k", "M", "G", "T", "P", "E" };
	static const char *const iec[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi",
					   "Ei" };
	const char *const *prefix = pow2 ? iec : si;
	const unsigned int thousand = pow2 ? 1024 : 1000;
	unsigned int modulo = UINT32_MAX, post = 0;
	bool carry = false;
	char digits[32], frac[32];
	int room;

	/* Divide until it fits; only the last remainder is kept. */
	while (post < 7) {
		snprintf(digits, sizeof(digits), "%" PRIu64, num);
		if ((int)strlen(digits) <= maxlen)
			break;
		modulo = (unsigned int)(num % thousand);
		num /= thousand;
		carry = modulo >= thousand / 2;
		post++;
	}
	if (post >= 7)
		post = 0;
	snprintf(digits, sizeof(digits), "%" PRIu64, num);
	room = maxlen - (int)strlen(digits);
	if (modulo == UINT32_MAX || room <= 1) {
		if (modulo != UINT32_MAX && carry)
			num++;
		snprintf(buf, len, "%" PRIu64 "%s%s", num, prefix[post], unit);
		return;
	}
	snprintf(frac, sizeof(frac), "%.*f", room - 1,
		 (double)modulo / (double)thousand);
	if (frac[0] == '1')
		num++;
	snprintf(buf, len, "%" PRIu64 ".%s%s%s", num, frac + 2, prefix[post],
		 unit);
}

static bool is_pow2(uint32_t v)
{
	return v && !(v & (v - 1));
}

static bool stat_calc(const struct fio_stat *s, uint64_t *min, uint64_t *max,
		      double *mean, double *dev)
{
	if (!s->samples)
		return false;
	*min = s->min;
	*max = s->max;
	*mean = s->mean;
	*dev = fio_stat_stddev(s);
	return true;
}

/* ------------------------------------------------------------------ */
/* Normal output                                                       */

static const char *const ddir_names[] = { "read", "write", "trim" };

static void display_lat(FILE *out, const char *name, uint64_t min,
			uint64_t max, double mean, double dev)
{
	const char *base = "(nsec)";
	char minp[32], maxp[32];

	if (min > 2000000 && max > 99999999ull && dev > 1000000.0) {
		min /= 1000000;
		max /= 1000000;
		mean /= 1000000.0;
		dev /= 1000000.0;
		base = "(msec)";
	} else if (min > 2000 && max > 99999 && dev > 1000.0) {
		min /= 1000;
		max /= 1000;
		mean /= 1000.0;
		dev /= 1000.0;
		base = "(usec)";
	}
	fio_num2str(minp, sizeof(minp), min, 6, false, "");
	fio_num2str(maxp, sizeof(maxp), max, 6, false, "");
	fprintf(out, "    %s %s: min=%s, max=%s, avg=%5.02f, stdev=%5.02f\n",
		name, base, minp, maxp, mean, dev);
}

static void show_percentiles(FILE *out, const struct fio_result *r,
			     const struct fio_lat *l, const char *pre)
{
	uint64_t vals[FIO_PERCENTILES_MAX], minv = UINT64_MAX, maxv = 0;
	unsigned int divisor, scale, precision = 2;
	size_t n;
	int width, per_line;

	n = fio_lat_percentiles(l, r->percentiles, r->percentile_count, vals);
	if (!n)
		return;
	for (size_t j = 0; j < n; j++) {
		if (vals[j] < minv)
			minv = vals[j];
		if (vals[j] > maxv)
			maxv = vals[j];
	}
	if (minv > 2000000 && maxv > 99999999ull) {
		scale = 2;
		divisor = 1000000;
		fprintf(out, "    %s percentiles (msec):\n     |", pre);
	} else if (minv > 2000 && maxv > 99999) {
		scale = 1;
		divisor = 1000;
		fprintf(out, "    %s percentiles (usec):\n     |", pre);
	} else {
		scale = 0;
		divisor = 1;
		fprintf(out, "    %s percentiles (nsec):\n     |", pre);
	}
	width = (int)(log10((double)(maxv / divisor)) + 1);
	if (width < 5)
		width = 5;
	per_line = (80 - 7) / ((int)precision + 10 + width);
	for (size_t j = 0; j < n; j++) {
		bool last = j == n - 1;
		uint64_t v = vals[j];

		if (j != 0 && j % (size_t)per_line == 0)
			fputs("     |", out);
		for (unsigned int i = 0; i < scale; i++)
			v = (v + 999) / 1000;
		fprintf(out, " %*.*fth=[%*" PRIu64 "]%c", precision + 3,
			precision, r->percentiles[j], width, v,
			last ? '\n' : ',');
		if (last)
			break;
		if (j % (size_t)per_line == (size_t)per_line - 1)
			fputc('\n', out);
	}
}

static double agg_percent(const struct fio_group_result *g, int ddir,
			  int mean)
{
	double p = 100.0;

	if (g && g->agg[ddir] > 1024) {
		p = mean * 100.0 / ((double)g->agg[ddir] / 1024.0);
		if (p > 100.0)
			p = 100.0;
	}
	return p;
}

/* fio 3.33 stat.c get_nr_prios_with_samples. */
static int prios_with_samples(const struct fio_result *r, int ddir)
{
	int n = 0;

	if (!r->prio || ddir > FIO_DDIR_WRITE)
		return 0;
	for (uint32_t i = 0; i < r->prio->nr[ddir]; i++)
		n += r->prio->e[ddir][i].clat.stat.samples != 0;
	return n;
}

static void show_ddir(FILE *out, const struct fio_result *r,
		      const struct fio_group_result *g, int ddir)
{
	const struct fio_ddir_result *d = &r->ddir[ddir];
	bool i2p = is_pow2(g->kb_base);
	uint64_t runt = d->runtime_ms, bw, iops, min, max;
	char io_p[32], bw_p[32], bw_alt[32], iops_p[32];
	double mean, dev;

	if (!runt)
		return;
	bw = 1000 * d->io_bytes / runt;
	fio_num2str(io_p, sizeof(io_p), d->io_bytes, 4, i2p, "B");
	fio_num2str(bw_p, sizeof(bw_p), bw, 4, i2p, "B/s");
	fio_num2str(bw_alt, sizeof(bw_alt), bw, 4, !i2p, "B/s");
	iops = 1000 * d->total_ios / runt;
	fio_num2str(iops_p, sizeof(iops_p), iops, 4, false, "");
	fprintf(out, "  %s: IOPS=%s, BW=%s (%s)(%s/%" PRIu64 "msec)%s\n",
		ddir_names[ddir], iops_p, bw_p, bw_alt, io_p, runt,
		ddir == FIO_DDIR_WRITE ? "; 0 zone resets" : "");
	if (stat_calc(&d->slat.stat, &min, &max, &mean, &dev))
		display_lat(out, "slat", min, max, mean, dev);
	if (stat_calc(&d->clat.stat, &min, &max, &mean, &dev))
		display_lat(out, "clat", min, max, mean, dev);
	if (stat_calc(&d->lat.stat, &min, &max, &mean, &dev))
		display_lat(out, " lat", min, max, mean, dev);
	/* fio 3.33 show_ddir_status: per priority when two or more have
	 * samples ("clat prio C/L") */
	if (prios_with_samples(r, ddir) >= 2)
		for (uint32_t i = 0; i < r->prio->nr[ddir]; i++) {
			const struct fio_clat_prio *e = &r->prio->e[ddir][i];
			char name[64];

			if (!stat_calc(&e->clat.stat, &min, &max, &mean, &dev))
				continue;
			snprintf(name, sizeof(name), "clat prio %u/%u",
				 e->ioprio >> FIO_IOPRIO_CLASS_SHIFT,
				 e->ioprio & 7);
			display_lat(out, name, min, max, mean, dev);
		}
	if (d->clat.stat.samples)
		show_percentiles(out, r, &d->clat, "clat");
	if (d->clat.stat.samples && prios_with_samples(r, ddir) >= 2)
		for (uint32_t i = 0; i < r->prio->nr[ddir]; i++) {
			const struct fio_clat_prio *e = &r->prio->e[ddir][i];
			char name[96];

			if (!e->clat.stat.samples)
				continue;
			snprintf(name, sizeof(name), "clat prio %u/%u (%.2f%% of "
				 "IOs)", e->ioprio >> FIO_IOPRIO_CLASS_SHIFT,
				 e->ioprio & 7, 100. *
				 (double)e->clat.stat.samples /
				 (double)d->clat.stat.samples);
			show_percentiles(out, r, &e->clat, name);
		}
	if (stat_calc(&d->bw, &min, &max, &mean, &dev)) {
		double kb = (double)g->kb_base;
		const char *unit = i2p ? "KiB" : "kB";
		double per = agg_percent(g, ddir, (int)mean);

		if (mean > kb * kb) {
			min = (uint64_t)((double)min / kb);
			max = (uint64_t)((double)max / kb);
			mean /= kb;
			dev /= kb;
			unit = "MiB";
		}
		fprintf(out, "   bw (%5s/s): min=%5" PRIu64 ", max=%5" PRIu64
			", per=%3.2f%%, avg=%5.02f, stdev=%5.02f, samples=%"
			PRIu64 "\n", unit, min, max, per, mean, dev,
			d->bw.samples);
	}
	if (stat_calc(&d->iops, &min, &max, &mean, &dev))
		fprintf(out, "   iops        : min=%5" PRIu64 ", max=%5" PRIu64
			", avg=%5.02f, stdev=%5.02f, samples=%" PRIu64 "\n",
			min, max, mean, dev, d->iops.samples);
}

static uint64_t rw_ios(const struct fio_result *r)
{
	return r->ddir[0].total_ios + r->ddir[1].total_ios +
	       r->ddir[2].total_ios;
}

static void calc_lat(const struct fio_result *r, const uint64_t *src,
		     int nr, double *dst)
{
	uint64_t total = rw_ios(r);

	for (int i = 0; i < nr; i++) {
		dst[i] = 0.0;
		if (!total)
			continue;
		dst[i] = (double)src[i] / (double)total * 100.0;
		if (dst[i] < 0.01 && src[i])
			dst[i] = 0.01;
	}
}

static void calc_dist(const uint64_t *map, uint64_t total, double *dst)
{
	for (int i = 0; i < FIO_IODEPTH_BUCKETS; i++) {
		dst[i] = 0.0;
		if (!total)
			continue;
		dst[i] = (double)map[i] / (double)total * 100.0;
		if (dst[i] < 0.1 && map[i])
			dst[i] = 0.1;
	}
}

static const char *const lat_ranges[] = {
	"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000",
	"2000", ">=2000",
};

static void show_lat(FILE *out, const double *v, int nr, const char *unit)
{
	bool new_line = true, shown = false;
	int line = 0;

	for (int i = 0; i < nr; i++) {
		if (v[i] <= 0.0)
			continue;
		shown = true;
		if (new_line) {
			if (line)
				fputc('\n', out);
			fprintf(out, "  lat (%s)   : ", unit);
			new_line = false;
			line = 0;
		}
		if (line)
			fputs(", ", out);
		fprintf(out, "%s=%3.2f%%", lat_ranges[i], v[i]);
		line++;
		if (line == 5)
			new_line = true;
	}
	if (shown)
		fputc('\n', out);
}

/* fio's steadystate_data_mean: the window's mean (integer). */
static uint64_t ss_mean(const struct fio_ss_result *ss, const uint64_t *v)
{
	uint64_t sum = 0;

	if (!ss->dur_s || !v || !ss->intervals)
		return 0;
	for (uint32_t i = 0; i < ss->intervals; i++)
		sum += v[i];
	return sum / ss->intervals;
}

static const char *ss_kind(uint32_t state)
{
	return state & FIO_SS_IOPS ? "iops" :
	       state & FIO_SS_LAT ? "lat" : "bw";
}

/*
 * fio 3.33 stat.c show_ss_normal (with later fio's lat= part): the
 * means in fio's num2str, the bandwidth given in KiB to a num2str of
 * base kb_base, so its other unit shows the same number.  A single
 * mean has no deviation, so fio's unit choice keeps nsec.
 */
static void show_ss_normal(FILE *out, const struct fio_result *r)
{
	const struct fio_ss_result *ss = &r->ss;
	bool i2p = is_pow2(r->kb_base);
	uint64_t kb = r->kb_base, bw, iops;
	char p1[32], p1alt[32], p2[32], p3[48] = "";

	if (!ss->dur_s)
		return;
	bw = ss_mean(ss, ss->bw) / kb;
	iops = ss_mean(ss, ss->iops);
	fio_num2str(p1, sizeof(p1), bw * kb, 4, i2p, "B/s");
	fio_num2str(p1alt, sizeof(p1alt), bw * (i2p ? 1000 : 1024), 4, !i2p,
		    "B/s");
	fio_num2str(p2, sizeof(p2), iops, 4, false, "");
	if (ss->state & FIO_SS_LAT) {
		char n[32];

		fio_num2str(n, sizeof(n), ss_mean(ss, ss->lat), 4, false, "");
		snprintf(p3, sizeof(p3), ", lat=%snsec", n);
	}
	fprintf(out, "  steadystate  : attained=%s, bw=%s (%s), iops=%s%s, "
		"%s%s=%.3f%s\n", ss->state & FIO_SS_ATTAINED ? "yes" : "no",
		p1, p1alt, p2, p3, ss_kind(ss->state),
		ss->state & FIO_SS_SLOPE ? " slope" : " mean dev",
		ss->criterion, ss->state & FIO_SS_PCT ? "%" : "");
}

static void show_result_normal(FILE *out, const struct fio_result *r,
			       const struct fio_group_result *g)
{
	double n[FIO_LAT_N_BUCKETS], u[FIO_LAT_U_BUCKETS];
	double m[FIO_LAT_M_BUCKETS], dist[FIO_IODEPTH_BUCKETS];
	double usr = 0.0, sys = 0.0, mean, dev;
	uint64_t min, max, bytes = r->ddir[0].io_bytes + r->ddir[1].io_bytes +
			 r->ddir[2].io_bytes;

	if (!bytes && !rw_ios(r))
		return;
	/* fio: "err=84 (file:..., func=..., error=...): pid" when the
	 * error's place is known. */
	if (r->error_where[0] || (r->error && r->error_where_set))
		fprintf(out, "%s: (groupid=%u, jobs=%u): err=%2d (%s): "
			"pid=%u: %s\n", r->name, r->groupid, r->members,
			r->error, r->error_where, r->pid, FIO_VIRTUAL_DATE);
	else
		fprintf(out, "%s: (groupid=%u, jobs=%u): err=%2d: pid=%u: "
			"%s\n", r->name, r->groupid, r->members, r->error,
			r->pid, FIO_VIRTUAL_DATE);
	/* fio 3.33 stat.c show_thread_status_normal. */
	if (r->description[0])
		fprintf(out, "  Description  : [%s]\n", r->description);
	for (int d = 0; d < FIO_DDIR_COUNT; d++)
		if (r->ddir[d].io_bytes)
			show_ddir(out, r, g, d);
	calc_lat(r, r->lat_n, FIO_LAT_N_BUCKETS, n);
	calc_lat(r, r->lat_u, FIO_LAT_U_BUCKETS, u);
	calc_lat(r, r->lat_m, FIO_LAT_M_BUCKETS, m);
	show_lat(out, n, FIO_LAT_N_BUCKETS, "nsec");
	show_lat(out, u, FIO_LAT_U_BUCKETS, "usec");
	show_lat(out, m, FIO_LAT_M_BUCKETS, "msec");
	if (stat_calc(&r->sync.stat, &min, &max, &mean, &dev)) {
		fputs("  fsync/fdatasync/sync_file_range:\n", out);
		display_lat(out, "sync", min, max, mean, dev);
		show_percentiles(out, r, &r->sync, "sync");
	}
	if (r->total_run_time_ms) {
		usr = (double)r->usr_time_ms * 100 /
		      (double)r->total_run_time_ms;
		sys = (double)r->sys_time_ms * 100 /
		      (double)r->total_run_time_ms;
	}
	fprintf(out, "  cpu          : usr=%3.2f%%, sys=%3.2f%%, ctx=%" PRIu64
		", majf=%" PRIu64 ", minf=%" PRIu64 "\n", usr, sys, r->ctx,
		r->majf, r->minf);
	calc_dist(r->io_u_map, rw_ios(r), dist);
	fprintf(out, "  IO depths    : 1=%3.1f%%, 2=%3.1f%%, 4=%3.1f%%, "
		"8=%3.1f%%, 16=%3.1f%%, 32=%3.1f%%, >=64=%3.1f%%\n", dist[0],
		dist[1], dist[2], dist[3], dist[4], dist[5], dist[6]);
	calc_dist(r->io_u_submit, r->total_submit, dist);
	fprintf(out, "     submit    : 0=%3.1f%%, 4=%3.1f%%, 8=%3.1f%%, "
		"16=%3.1f%%, 32=%3.1f%%, 64=%3.1f%%, >=64=%3.1f%%\n",
		dist[0], dist[1], dist[2], dist[3], dist[4], dist[5], dist[6]);
	calc_dist(r->io_u_complete, r->total_complete, dist);
	fprintf(out, "     complete  : 0=%3.1f%%, 4=%3.1f%%, 8=%3.1f%%, "
		"16=%3.1f%%, 32=%3.1f%%, 64=%3.1f%%, >=64=%3.1f%%\n",
		dist[0], dist[1], dist[2], dist[3], dist[4], dist[5], dist[6]);
	fprintf(out, "     issued rwts: total=%" PRIu64 ",%" PRIu64 ",%" PRIu64
		",%" PRIu64 " short=%" PRIu64 ",%" PRIu64 ",%" PRIu64
		",0 dropped=%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",0\n",
		r->ddir[0].total_ios, r->ddir[1].total_ios,
		r->ddir[2].total_ios, r->sync_ios, r->ddir[0].short_ios,
		r->ddir[1].short_ios, r->ddir[2].short_ios,
		r->ddir[0].drop_ios, r->ddir[1].drop_ios, r->ddir[2].drop_ios);
	if (r->continue_on_error)
		fprintf(out, "     errors    : total=%" PRIu64 ", first_error="
			"%d/<%s>\n", r->total_err_count, r->first_error,
			strerror(r->first_error));
	if (r->latency_depth)
		fprintf(out, "     latency   : target=%" PRIu64 ", window=%"
			PRIu64 ", percentile=%.2f%%, depth=%u\n",
			r->latency_target, r->latency_window,
			r->latency_percentile, r->latency_depth);
	show_ss_normal(out, r);
}

static void show_group(FILE *out, const struct fio_group_result *g)
{
	static const char *const names[] = { "   READ", "  WRITE", "   TRIM" };
	bool i2p = is_pow2(g->kb_base);

	fprintf(out, "\nRun status group %u (all jobs):\n", g->groupid);
	for (int d = 0; d < FIO_DDIR_COUNT; d++) {
		char io[32], ioalt[32], agg[32], aggalt[32];
		char min[32], minalt[32], max[32], maxalt[32];

		if (!g->max_run[d])
			continue;
		fio_num2str(io, sizeof(io), g->iobytes[d], 4, i2p, "B");
		fio_num2str(ioalt, sizeof(ioalt), g->iobytes[d], 4, !i2p, "B");
		fio_num2str(agg, sizeof(agg), g->agg[d], 4, i2p, "B/s");
		fio_num2str(aggalt, sizeof(aggalt), g->agg[d], 4, !i2p, "B/s");
		fio_num2str(min, sizeof(min), g->min_bw[d], 4, i2p, "B/s");
		fio_num2str(minalt, sizeof(minalt), g->min_bw[d], 4, !i2p,
			    "B/s");
		fio_num2str(max, sizeof(max), g->max_bw[d], 4, i2p, "B/s");
		fio_num2str(maxalt, sizeof(maxalt), g->max_bw[d], 4, !i2p,
			    "B/s");
		fprintf(out, "%s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), "
			"run=%" PRIu64 "-%" PRIu64 "msec\n", names[d], agg,
			aggalt, min, max, minalt, maxalt, io, ioalt,
			g->min_run[d], g->max_run[d]);
	}
}

static uint32_t max_groupid(const struct fio_result *const *results,
			    size_t n)
{
	uint32_t m = 0;

	for (size_t i = 0; i < n; i++)
		if (results[i]->groupid > m)
			m = results[i]->groupid;
	return m;
}

void fio_print_normal(FILE *out, const struct fio_config *cfg,
		      const struct fio_result *const *results, size_t n)
{
	uint32_t groups = n ? max_groupid(results, n) + 1 : 0;
	struct fio_group_result g;

	(void)cfg;
	fputc('\n', out);
	for (size_t i = 0; i < n; i++) {
		fio_group_compute(results, n, results[i]->groupid, &g);
		show_result_normal(out, results[i], &g);
	}
	for (uint32_t gid = 0; gid < groups; gid++) {
		fio_group_compute(results, n, gid, &g);
		show_group(out, &g);
	}
}

void fio_print_header(FILE *out, const struct fio_config *cfg)
{
	uint32_t threads = 0, processes = 0;

	for (uint32_t i = 0; i < cfg->job_count; i++) {
		const struct fio_job *j = &cfg->jobs[i];
		bool i2p = is_pow2(j->kb_base);
		char b[FIO_DDIR_COUNT][32];

		if (j->thread)
			threads++;
		else
			processes++;
		if (j->jobnum == 1)
			fputs("...\n", out);
		if (j->jobnum)
			continue;
		for (int d = 0; d < FIO_DDIR_COUNT; d++)
			fio_num2str(b[d], sizeof(b[d]), j->bs[d], 4, i2p, "B");
		fprintf(out, "%s: (g=%u): rw=%s, bs=(R) %s-%s, (W) %s-%s, "
			"(T) %s-%s, ioengine=%s, iodepth=%u\n", j->name,
			j->groupid, fio_rw_name(j->rw), b[0], b[0], b[1], b[1],
			b[2], b[2], fio_engine_name(j->ioengine), j->iodepth);
	}
	fprintf(out, "%s\n", FIO_VERSION_STRING);
	fputs("Starting ", out);
	if (threads)
		fprintf(out, "%u thread%s", threads, threads > 1 ? "s" : "");
	if (processes) {
		if (threads)
			fputs(" and ", out);
		fprintf(out, "%u process%s", processes,
			processes > 1 ? "es" : "");
	}
	fputc('\n', out);
}

/* ------------------------------------------------------------------ */
/* JSON, laid out as fio's json.c                                      */

#define JSON_DEPTH_MAX	16

struct jw {
	FILE *out;
	int depth;
	bool first[JSON_DEPTH_MAX];
};

static void jw_string(struct jw *w, const char *s)
{
	fputc('"', w->out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(w->out, "\\%c", c);
		else if (c < 0x20)
			fprintf(w->out, "\\u%04x", c);
		else
			fputc(c, w->out);
	}
	fputc('"', w->out);
}

static void jw_indent(struct jw *w)
{
	for (int i = 0; i < w->depth; i++)
		fputs("  ", w->out);
}

/* Before a pair or an array element. */
static void jw_next(struct jw *w, const char *key)
{
	if (!w->first[w->depth])
		fputs(",\n", w->out);
	w->first[w->depth] = false;
	jw_indent(w);
	if (key) {
		jw_string(w, key);
		fputs(" : ", w->out);
	}
}

static void jw_open(struct jw *w, const char *key, char c, bool top)
{
	if (!top)
		jw_next(w, key);
	fprintf(w->out, "%c\n", c);
	w->depth++;
	w->first[w->depth] = true;
}

static void jw_close(struct jw *w, char c)
{
	fputc('\n', w->out);
	w->depth--;
	jw_indent(w);
	fputc(c, w->out);
}

static void jw_int(struct jw *w, const char *key, uint64_t v)
{
	jw_next(w, key);
	fprintf(w->out, "%" PRIu64, v);
}

static void jw_float(struct jw *w, const char *key, double v)
{
	jw_next(w, key);
	fprintf(w->out, "%f", v);
}

static void jw_str(struct jw *w, const char *key, const char *v)
{
	jw_next(w, key);
	jw_string(w, v ? v : "");
}

static void json_lat(struct jw *w, const char *key, const struct fio_result *r,
		     const struct fio_lat *l, bool percentiles, bool plus)
{
	uint64_t min = 0, max = 0, vals[FIO_PERCENTILES_MAX];
	double mean = 0.0, dev = 0.0;
	char name[64];

	if (!stat_calc(&l->stat, &min, &max, &mean, &dev)) {
		min = max = 0;
		mean = dev = 0.0;
	}
	jw_open(w, key, '{', false);
	jw_int(w, "min", min);
	jw_int(w, "max", max);
	jw_float(w, "mean", mean);
	jw_float(w, "stddev", dev);
	jw_int(w, "N", l->stat.samples);
	if (percentiles && l->stat.samples) {
		size_t n = fio_lat_percentiles(l, r->percentiles,
					       r->percentile_count, vals);

		jw_open(w, "percentile", '{', false);
		for (size_t i = 0; i < n; i++) {
			snprintf(name, sizeof(name), "%f", r->percentiles[i]);
			jw_int(w, name, vals[i]);
		}
		jw_close(w, '}');
		if (plus) {
			jw_open(w, "bins", '{', false);
			for (unsigned int i = 0; i < FIO_PLAT_NR; i++) {
				if (!l->plat[i])
					continue;
				snprintf(name, sizeof(name), "%" PRIu64,
					 fio_plat_idx_to_val(i));
				jw_int(w, name, l->plat[i]);
			}
			jw_close(w, '}');
		}
	}
	jw_close(w, '}');
}

static void json_ddir(struct jw *w, const struct fio_result *r,
		      const struct fio_group_result *g, int ddir, bool plus)
{
	const struct fio_ddir_result *d = &r->ddir[ddir];
	uint64_t bw_bytes = 0, min, max;
	double iops = 0.0, mean, dev, per;

	if (d->runtime_ms) {
		bw_bytes = 1000 * d->io_bytes / d->runtime_ms;
		iops = 1000.0 * (double)d->total_ios / (double)d->runtime_ms;
	}
	jw_open(w, ddir_names[ddir], '{', false);
	jw_int(w, "io_bytes", d->io_bytes);
	jw_int(w, "io_kbytes", d->io_bytes >> 10);
	jw_int(w, "bw_bytes", bw_bytes);
	jw_int(w, "bw", bw_bytes / 1024);
	jw_float(w, "iops", iops);
	jw_int(w, "runtime", d->runtime_ms);
	jw_int(w, "total_ios", d->total_ios);
	jw_int(w, "short_ios", d->short_ios);
	jw_int(w, "drop_ios", d->drop_ios);
	json_lat(w, "slat_ns", r, &d->slat, false, plus);
	json_lat(w, "clat_ns", r, &d->clat, true, plus);
	json_lat(w, "lat_ns", r, &d->lat, false, plus);
	/* fio 3.33 add_ddir_status_json: "prios" when two or more
	 * priorities have samples */
	if (prios_with_samples(r, ddir) >= 2) {
		const struct fio_prio_stats *st = r->prio;

		jw_open(w, "prios", '[', false);
		for (uint32_t i = 0; i < st->nr[ddir]; i++) {
			const struct fio_clat_prio *e = &st->e[ddir][i];

			if (!e->clat.stat.samples)
				continue;
			jw_open(w, NULL, '{', false);
			jw_int(w, "prioclass",
			       e->ioprio >> FIO_IOPRIO_CLASS_SHIFT);
			jw_int(w, "prio", e->ioprio & 7);
			json_lat(w, "clat_ns", r, &e->clat, true, plus);
			jw_close(w, '}');
		}
		jw_close(w, ']');
	}
	if (stat_calc(&d->bw, &min, &max, &mean, &dev)) {
		per = agg_percent(g, ddir, (int)mean);
	} else {
		min = max = 0;
		per = mean = dev = 0.0;
	}
	jw_int(w, "bw_min", min);
	jw_int(w, "bw_max", max);
	jw_float(w, "bw_agg", per);
	jw_float(w, "bw_mean", mean);
	jw_float(w, "bw_dev", dev);
	jw_int(w, "bw_samples", d->bw.samples);
	if (!stat_calc(&d->iops, &min, &max, &mean, &dev)) {
		min = max = 0;
		mean = dev = 0.0;
	}
	jw_int(w, "iops_min", min);
	jw_int(w, "iops_max", max);
	jw_float(w, "iops_mean", mean);
	jw_float(w, "iops_stddev", dev);
	jw_int(w, "iops_samples", d->iops.samples);
	jw_close(w, '}');
}

static void json_opts(struct jw *w, const char *key,
		      const struct fio_section *const *secs, size_t n)
{
	size_t count = 0;

	/* An option given bare (norandommap, write_bw_log) is not in
	 * fio 3.33's list: it records options with a value. */
	for (size_t i = 0; i < n; i++) {
		for (uint32_t j = 0; j < secs[i]->given_count; j++)
			count += secs[i]->given[j].value != NULL;
		count += secs[i]->from_cmdline && !secs[i]->leading &&
			 !secs[i]->implicit;
	}
	if (!count)
		return;
	jw_open(w, key, '{', false);
	for (size_t i = 0; i < n; i++) {
		const struct fio_section *s = secs[i];

		/* fio records a command line's --name as an option. */
		if (s->from_cmdline && !s->leading && !s->implicit)
			jw_str(w, "name", s->name);
		for (uint32_t j = 0; j < s->given_count; j++)
			if (s->given[j].value)
				jw_str(w, s->given[j].name,
				       s->given[j].value);
	}
	jw_close(w, '}');
}

static void json_dist(struct jw *w, const char *key, const uint64_t *map,
		      uint64_t total, bool submit)
{
	double dist[FIO_IODEPTH_BUCKETS];
	char name[16];

	calc_dist(map, total, dist);
	jw_open(w, key, '{', false);
	for (int i = 0; i < FIO_IODEPTH_BUCKETS; i++) {
		if (i == 6)
			snprintf(name, sizeof(name), ">=%d", 1 << i);
		else if (!submit)
			snprintf(name, sizeof(name), "%d", 1 << i);
		else if (i == 0)
			snprintf(name, sizeof(name), "0");
		else
			snprintf(name, sizeof(name), "%d", 1 << (i + 1));
		jw_float(w, name, dist[i]);
	}
	jw_close(w, '}');
}

/*
 * fio 3.33 stat.c show_thread_status_json's "steadystate" object (the
 * lat_mean and lat_ns keys of later fio with a lat criterion): the
 * window oldest first; fio's head is the oldest unless the window is
 * full and not attained, then the one after it.
 */
static void json_ss(struct jw *w, const struct fio_result *r)
{
	const struct fio_ss_result *ss = &r->ss;
	uint32_t n = ss->intervals, j;
	char buf[64];

	if (!ss->dur_s)
		return;
	jw_open(w, "steadystate", '{', false);
	snprintf(buf, sizeof(buf), "%s%s:%f%s", ss_kind(ss->state),
		 ss->state & FIO_SS_SLOPE ? "_slope" : "",
		 (double)(float)ss->limit, ss->state & FIO_SS_PCT ? "%" : "");
	jw_str(w, "ss", buf);
	jw_int(w, "duration", ss->dur_s);
	jw_int(w, "attained", (ss->state & FIO_SS_ATTAINED) != 0);
	snprintf(buf, sizeof(buf), "%f%s", (double)(float)ss->criterion,
		 ss->state & FIO_SS_PCT ? "%" : "");
	jw_str(w, "criterion", buf);
	jw_float(w, "max_deviation", ss->deviation);
	jw_float(w, "slope", ss->slope);
	jw_open(w, "data", '{', false);
	if ((ss->state & FIO_SS_ATTAINED) ||
	    !(ss->state & FIO_SS_BUFFER_FULL))
		j = ss->head;
	else
		j = ss->head == 0 ? n - 1 : ss->head - 1;
	jw_int(w, "bw_mean", ss_mean(ss, ss->bw));
	jw_int(w, "iops_mean", ss_mean(ss, ss->iops));
	if (ss->state & FIO_SS_LAT) {
		jw_int(w, "lat_mean", ss_mean(ss, ss->lat));
		jw_open(w, "lat_ns", '[', false);
		for (uint32_t l = 0; l < n; l++)
			jw_int(w, NULL, ss->lat ? ss->lat[(j + l) % n] : 0);
		jw_close(w, ']');
	}
	jw_open(w, "iops", '[', false);
	for (uint32_t l = 0; l < n; l++)
		jw_int(w, NULL, ss->iops ? ss->iops[(j + l) % n] : 0);
	jw_close(w, ']');
	jw_open(w, "bw", '[', false);
	for (uint32_t l = 0; l < n; l++)
		jw_int(w, NULL, ss->bw ? ss->bw[(j + l) % n] : 0);
	jw_close(w, ']');
	jw_close(w, '}');
	jw_close(w, '}');
}

static void json_result(struct jw *w, const struct fio_config *cfg,
			const struct fio_result *r,
			const struct fio_group_result *g, bool plus)
{
	double n[FIO_LAT_N_BUCKETS], u[FIO_LAT_U_BUCKETS];
	double m[FIO_LAT_M_BUCKETS], usr = 0.0, sys = 0.0;

	jw_open(w, NULL, '{', false);
	jw_str(w, "jobname", r->name);
	jw_int(w, "groupid", r->groupid);
	jw_int(w, "error", (uint64_t)(int64_t)r->error);
	jw_int(w, "eta", 0);
	jw_int(w, "elapsed", r->elapsed_s);
	if (cfg && r->section < cfg->section_count) {
		const struct fio_section *s = &cfg->sections[r->section];

		json_opts(w, "job options", &s, 1);
	}
	for (int d = 0; d < FIO_DDIR_COUNT; d++)
		json_ddir(w, r, g, d, plus);
	jw_open(w, "sync", '{', false);
	jw_int(w, "total_ios", r->sync_ios);
	json_lat(w, "lat_ns", r, &r->sync, true, plus);
	jw_close(w, '}');
	if (r->total_run_time_ms) {
		usr = (double)r->usr_time_ms * 100 /
		      (double)r->total_run_time_ms;
		sys = (double)r->sys_time_ms * 100 /
		      (double)r->total_run_time_ms;
	}
	jw_int(w, "job_runtime", r->total_run_time_ms);
	jw_float(w, "usr_cpu", usr);
	jw_float(w, "sys_cpu", sys);
	jw_int(w, "ctx", r->ctx);
	jw_int(w, "majf", r->majf);
	jw_int(w, "minf", r->minf);
	json_dist(w, "iodepth_level", r->io_u_map, rw_ios(r), false);
	json_dist(w, "iodepth_submit", r->io_u_submit, r->total_submit, true);
	json_dist(w, "iodepth_complete", r->io_u_complete, r->total_complete,
		  true);
	calc_lat(r, r->lat_n, FIO_LAT_N_BUCKETS, n);
	calc_lat(r, r->lat_u, FIO_LAT_U_BUCKETS, u);
	calc_lat(r, r->lat_m, FIO_LAT_M_BUCKETS, m);
	jw_open(w, "latency_ns", '{', false);
	for (int i = 0; i < FIO_LAT_N_BUCKETS; i++)
		jw_float(w, lat_ranges[i], n[i]);
	jw_close(w, '}');
	jw_open(w, "latency_us", '{', false);
	for (int i = 0; i < FIO_LAT_U_BUCKETS; i++)
		jw_float(w, lat_ranges[i], u[i]);
	jw_close(w, '}');
	jw_open(w, "latency_ms", '{', false);
	for (int i = 0; i < FIO_LAT_M_BUCKETS; i++)
		jw_float(w, lat_ranges[i], m[i]);
	jw_close(w, '}');
	/* fio 3.33: "Additional output if continue_on_error set". */
	if (r->continue_on_error) {
		jw_int(w, "total_err", r->total_err_count);
		jw_int(w, "first_error", (uint64_t)r->first_error);
	}
	if (r->latency_depth) {
		jw_int(w, "latency_depth", r->latency_depth);
		jw_int(w, "latency_target", r->latency_target);
		jw_float(w, "latency_percentile", r->latency_percentile);
		jw_int(w, "latency_window", r->latency_window);
	}
	/* fio 3.33 stat.c show_thread_status_json: after the latency
	 * target. */
	if (r->description[0])
		jw_str(w, "desc", r->description);
	json_ss(w, r);
	jw_close(w, '}');
}

void fio_print_json(FILE *out, const struct fio_config *cfg,
		    const struct fio_result *const *results, size_t n,
		    bool plus)
{
	const struct fio_section *globals[FIO_SECTIONS_MAX];
	struct jw w = { .out = out };
	struct fio_group_result g;
	size_t nglobal = 0;

	jw_open(&w, NULL, '{', true);
	jw_str(&w, "fio version", FIO_VERSION_STRING);
	jw_int(&w, "timestamp", 0);
	jw_int(&w, "timestamp_ms", 0);
	jw_str(&w, "time", FIO_VIRTUAL_DATE);
	for (uint32_t i = 0; cfg && i < cfg->section_count; i++)
		if (cfg->sections[i].global)
			globals[nglobal++] = &cfg->sections[i];
	json_opts(&w, "global options", globals, nglobal);
	jw_open(&w, "jobs", '[', false);
	for (size_t i = 0; i < n; i++) {
		fio_group_compute(results, n, results[i]->groupid, &g);
		json_result(&w, cfg, results[i], &g, plus);
	}
	jw_close(&w, ']');
	jw_close(&w, '}');
	fputc('\n', out);
}
