// SPDX-License-Identifier: MIT
/*
 * tools/fio/options-pace.c - the values of fio's pacing, flow and
 * distribution options and of the options wpsim accepts with no effect,
 * after fio 3.33 (options.c: rate, rate_min, rate_iops, rate_iops_min,
 * rate_process, rate_cycle, rate_ignore_thinktime, thinktime*, flow_id,
 * flow, flow_sleep, flow_watermark, random_distribution with
 * str_random_distribution_cb, parse_zoned_distribution and
 * zone_split_ddir; numa_cpu_nodes, numa_mem_policy; the tiobench
 * profile's "threads").  Their table rows are in options.c; what they do
 * in a run is tools/wpsim/fio-rate.c's.
 *
 * Leaves out: fio's random_distribution=sequence (not in fio 3.33),
 * per-direction distributions (fio reads one for all directions too;
 * zoned's R,W,T lists are an error here), and the values of the noted
 * options beyond their syntax.
 */
#include "tools/fio/internal.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int pace_need_value(const struct fio_optdef *def,
			   const struct fio_optval *v, struct fio_error *err)
{
	if (v->text && *v->text)
		return 0;
	fio_error_set(err, &v->pos, "expected a value for %s (%s=...), "
		      "found %s", def->name, def->name,
		      v->text ? "an empty value" : "none");
	return -1;
}

/* One integer with size suffixes (fio's check_str_bytes). */
static int pace_u64(const struct fio_job *job, const struct fio_optdef *def,
		    const char *text, const struct fio_pos *pos,
		    uint64_t *out, struct fio_error *err)
{
	uint32_t pct;
	size_t bad;
	uint64_t max = def->max ? def->max : UINT64_MAX;
	char found[256];

	if (fio_parse_size(text, job->kb_base, false, out, &pct, &bad)) {
		struct fio_pos p = fio_pos_add(pos, bad);

		fio_found(found, sizeof(found), text + bad);
		fio_error_set(err, &p, "expected an integer for %s (digits "
			      "or 0x hex, then k/m/g/t/p with optional b or "
			      "ib), found %s", def->name, found);
		return -1;
	}
	if (*out < def->min || *out > max) {
		fio_error_set(err, pos, "expected %s in %llu..%llu, found %llu",
			      def->name, (unsigned long long)def->min,
			      (unsigned long long)max,
			      (unsigned long long)*out);
		return -1;
	}
	return 0;
}

/* The field of a per-direction option: rate, rate_min, rate_iops... */
static uint64_t *pace_triple(struct fio_job *job, const struct fio_optdef *def)
{
	if (!strcmp(def->name, "rate"))
		return job->rate;
	if (!strcmp(def->name, "rate_min"))
		return job->rate_min;
	if (!strcmp(def->name, "rate_iops"))
		return job->rate_iops;
	return job->rate_iops_min;
}

/*
 * rate=R[,W[,T]] as fio's parse.c reads a value with off1..off3: the
 * last given fills the directions after it; an empty first is skipped
 * (rate=,500k limits writes only).
 */
int fio_parse_rate_triple(struct fio_job *job, const struct fio_optdef *def,
			  const struct fio_optval *v, struct fio_error *err)
{
	uint64_t *field = pace_triple(job, def);
	const char *p;
	size_t off = 0;
	int i = 0;

	if (pace_need_value(def, v, err))
		return -1;
	p = v->text;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		struct fio_pos pos = fio_pos_add(&v->pos, off);
		char part[128];
		uint64_t u;

		if (i == FIO_DDIR_COUNT) {
			fio_error_set(err, &pos, "expected at most 3 values "
				      "(read,write,trim) for %s, found a "
				      "fourth", def->name);
			return -1;
		}
		if (n >= sizeof(part))
			n = sizeof(part) - 1;
		memcpy(part, p, n);
		part[n] = '\0';
		if (n || !comma) {
			if (pace_u64(job, def, part, &pos, &u, err))
				return -1;
			for (int d = i; d < FIO_DDIR_COUNT; d++)
				field[d] = u;
		}
		i++;
		if (!comma)
			break;
		off += n + 1;
		p = comma + 1;
		if (!*p)
			break;
	}
	return 0;
}

/* @v as a time whose plain number is in µs, in *@ns; -1 and the error
 * (where the text stops being a time) otherwise. */
static int pace_time_us(const struct fio_optdef *def,
			const struct fio_optval *v, uint64_t *ns,
			struct fio_error *err)
{
	size_t bad;
	char found[256];

	if (fio_parse_time(v->text, 1, ns, &bad)) {
		struct fio_pos p = fio_pos_add(&v->pos, bad);

		fio_found(found, sizeof(found), v->text + bad);
		fio_error_set(err, &p, "expected a time for %s (digits, then "
			      "d, h, m, s, ms, msec, us or usec; us if none), "
			      "found %s", def->name, found);
		return -1;
	}
	return 0;
}

/* A time whose plain number is in µs (fio's is_time without
 * is_seconds): thinktime, thinktime_spin. */
int fio_parse_time_us(struct fio_job *job, const struct fio_optdef *def,
		      const struct fio_optval *v, struct fio_error *err)
{
	uint64_t ns;

	if (pace_need_value(def, v, err))
		return -1;
	if (pace_time_us(def, v, &ns, err))
		return -1;
	if (!strcmp(def->name, "thinktime"))
		job->thinktime_ns = ns;
	else
		job->thinktime_spin_ns = ns;
	return 0;
}

/* thinktime_blocks: an int ≥ 1, and fio_option_is_set() for it. */
int fio_parse_thinktime_blocks(struct fio_job *job,
			       const struct fio_optdef *def,
			       const struct fio_optval *v,
			       struct fio_error *err)
{
	uint64_t u;

	if (pace_need_value(def, v, err) ||
	    pace_u64(job, def, v->text, &v->pos, &u, err))
		return -1;
	job->thinktime_blocks = (uint32_t)u;
	job->thinktime_blocks_set = true;
	return 0;
}

/* flow_sleep: an integer of µs (fio's FIO_OPT_INT, not a time). */
int fio_parse_flow_sleep(struct fio_job *job, const struct fio_optdef *def,
			 const struct fio_optval *v, struct fio_error *err)
{
	uint64_t u;

	if (pace_need_value(def, v, err) ||
	    pace_u64(job, def, v->text, &v->pos, &u, err))
		return -1;
	job->flow_sleep_ns = u * 1000;
	return 0;
}

/* A decimal number (fio's str_to_float). */
static int pace_double(const char *text, double *out, size_t *used)
{
	char *end;

	errno = 0;
	if (!isdigit((unsigned char)text[0]) && text[0] != '.')
		return -1;
	*out = strtod(text, &end);
	if (errno || end == text || !isfinite(*out))
		return -1;
	*used = (size_t)(end - text);
	return 0;
}

/* zoned: "A/S:A/S..." or zoned_abs: "A/SIZE:...", one list for every
 * direction (fio's zone_split_ddir; R,W lists are an error here). */
static int parse_zones(struct fio_job *job, const struct fio_optdef *def,
		       const char *text, const struct fio_pos *pos,
		       bool absolute, struct fio_error *err)
{
	struct fio_zone_split z[FIO_ZONESPLIT_MAX];
	uint32_t nr = 0, perc = 0, sperc = 0, perc_missing = 0;
	uint32_t sperc_missing = 0;
	const char *p = text;
	char found[256];

	if (strchr(text, ',')) {
		struct fio_pos q = fio_pos_add(pos, (size_t)(strchr(text, ',') -
							   text));

		fio_error_set(err, &q, "expected one zone list for every "
			      "direction in %s, found ',' (per-direction "
			      "lists are not modelled)", def->name);
		return -1;
	}
	while (*p) {
		const char *end = strchr(p, ':');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		char part[128], *slash;
		struct fio_pos q = fio_pos_add(pos, (size_t)(p - text));
		uint64_t a, s = 0;
		uint32_t pct;
		size_t bad;

		if (nr == FIO_ZONESPLIT_MAX) {
			fio_error_set(err, &q, "expected at most %d zones "
				      "(FIO_ZONESPLIT_MAX), found more",
				      FIO_ZONESPLIT_MAX);
			return -1;
		}
		if (n >= sizeof(part))
			n = sizeof(part) - 1;
		memcpy(part, p, n);
		part[n] = '\0';
		slash = strchr(part, '/');
		if (slash)
			*slash = '\0';
		z[nr] = (struct fio_zone_split){ UINT32_MAX, UINT32_MAX, 0 };
		if (part[0]) {
			if (fio_parse_size(part, 1024, false, &a, &pct, &bad) ||
			    a > 100) {
				fio_found(found, sizeof(found), part);
				fio_error_set(err, &q, "expected an access "
					      "percentage 0..100 in %s, found "
					      "%s", def->name, found);
				return -1;
			}
			z[nr].access_perc = (uint32_t)a;
		}
		if (slash && slash[1]) {
			struct fio_pos r = fio_pos_add(&q, (size_t)(slash + 1 -
								    part));

			if (fio_parse_size(slash + 1, job->kb_base, false, &s,
					   &pct, &bad) ||
			    (!absolute && s > 100)) {
				fio_found(found, sizeof(found), slash + 1);
				fio_error_set(err, &r, "expected %s in %s, "
					      "found %s", absolute ?
					      "a zone size" :
					      "a size percentage 0..100",
					      def->name, found);
				return -1;
			}
			if (absolute)
				z[nr].size = s;
			else
				z[nr].size_perc = (uint32_t)s;
		} else if (absolute) {
			fio_error_set(err, &q, "expected A/SIZE in %s, found "
				      "'%s' without a size", def->name, part);
			return -1;
		}
		if (z[nr].access_perc == UINT32_MAX)
			perc_missing++;
		else
			perc += z[nr].access_perc;
		if (!absolute) {
			if (z[nr].size_perc == UINT32_MAX)
				sperc_missing++;
			else
				sperc += z[nr].size_perc;
		}
		nr++;
		if (!end)
			break;
		p = end + 1;
	}
	if (!nr || perc > 100 || sperc > 100 || (perc < 100 && !perc_missing)) {
		fio_found(found, sizeof(found), text);
		fio_error_set(err, pos, "expected zones whose access "
			      "percentages add up to 100 in %s, found %s",
			      def->name, found);
		return -1;
	}
	/* fio divides what is missing between the zones without one. */
	if (perc_missing) {
		if (perc_missing == 1 && nr == 1)
			perc = 100;
		for (uint32_t i = 0; i < nr; i++)
			if (z[i].access_perc == UINT32_MAX)
				z[i].access_perc = (100 - perc) / perc_missing;
	}
	if (sperc_missing) {
		if (sperc_missing == 1 && nr == 1)
			sperc = 100;
		for (uint32_t i = 0; i < nr; i++)
			if (z[i].size_perc == UINT32_MAX)
				z[i].size_perc = (100 - sperc) / sperc_missing;
	}
	for (int d = 0; d < FIO_DDIR_COUNT; d++) {
		job->zone_split_nr[d] = nr;
		memcpy(job->zone_split[d], z, nr * sizeof(z[0]));
	}
	return 0;
}

/*
 * sequence:i,j,...: 1..FIO_SEQ_MAX block indices, each digits only
 * after blanks are stripped (fio 3.42 options.c
 * parse_sequence_distribution; its atoi keeps an int, so an index is
 * at most INT_MAX here).
 */
static int parse_sequence(struct fio_job *job, const char *text,
			  const struct fio_pos *pos, struct fio_error *err)
{
	const char *p = text;
	uint32_t nr = 0;

	if (!*p) {
		fio_error_set(err, pos, "expected block indices after "
			      "sequence: in random_distribution (fio: "
			      "\"missing pattern in sequence distribution\"), "
			      "found end of value");
		return -1;
	}
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		size_t a = 0, b = n;
		struct fio_pos q = fio_pos_add(pos, (size_t)(p - text));
		uint64_t v = 0;

		if (nr == FIO_SEQ_MAX) {
			fio_error_set(err, &q, "expected at most %d elements "
				      "in random_distribution=sequence (fio's "
				      "FIO_SEQ_MAX), found more", FIO_SEQ_MAX);
			return -1;
		}
		while (a < b && isspace((unsigned char)p[a]))
			a++;
		while (b > a && isspace((unsigned char)p[b - 1]))
			b--;
		for (size_t i = a; i < b; i++) {
			if (!isdigit((unsigned char)p[i]) ||
			    (v = v * 10 + (uint64_t)(p[i] - '0')) > INT32_MAX)
				b = a;	/* refused below */
		}
		if (a == b) {
			fio_error_set(err, &q, "expected a block index (digits, "
				      "at most %d) in random_distribution="
				      "sequence, found '%.*s'", INT32_MAX,
				      (int)n, p);
			return -1;
		}
		job->rand_seq[nr++] = (uint32_t)v;
		if (!comma)
			break;
		p = comma + 1;
	}
	job->rand_seq_nr = nr;
	return 0;
}

/*
 * random_distribution=random | zipf[:θ[:center]] | pareto[:h[:center]] |
 * normal[:σ%[:center]] | zoned:A/S:... | zoned_abs:A/SIZE:... |
 * sequence:i,j,... (str_random_distribution_cb's ranges: θ ≠ 1,
 * 0 < h < 1, 0 ≤ σ < 100, 0 ≤ center ≤ 1; defaults θ 1.1, h 0.2, σ 0;
 * sequence is fio 3.42's).
 */
int fio_parse_rand_dist(struct fio_job *job, const struct fio_optdef *def,
			const struct fio_optval *v, struct fio_error *err)
{
	static const char *const names[] = {
		"random", "zipf", "pareto", "normal", "zoned", "zoned_abs",
		"sequence",
	};
	const char *colon;
	size_t n, used;
	double val, center = -1;
	char found[256];
	int which = -1;

	if (pace_need_value(def, v, err))
		return -1;
	colon = strchr(v->text, ':');
	n = colon ? (size_t)(colon - v->text) : strlen(v->text);
	for (int i = 0; i < 7; i++)
		if (strlen(names[i]) == n && !strncmp(names[i], v->text, n))
			which = i;
	if (which < 0) {
		fio_found(found, sizeof(found), v->text);
		fio_error_set(err, &v->pos, "expected random_distribution "
			      "value (random, zipf, pareto, normal, zoned, "
			      "zoned_abs, sequence), found %s", found);
		return -1;
	}
	job->rand_dist = (uint32_t)which;
	job->rand_dist_center = -1;
	job->rand_seq_nr = 0;
	if (which == FIO_RAND_DIST_SEQUENCE) {
		struct fio_pos q = fio_pos_add(&v->pos, n + 1);

		return parse_sequence(job, colon ? colon + 1 : "", &q, err);
	}
	if (which == FIO_RAND_DIST_ZONED || which == FIO_RAND_DIST_ZONED_ABS) {
		struct fio_pos q = fio_pos_add(&v->pos, n + 1);

		if (!colon || !colon[1]) {
			fio_error_set(err, &q, "expected zones after %s: in "
				      "random_distribution, found end of "
				      "value", names[which]);
			return -1;
		}
		return parse_zones(job, def, colon + 1, &q,
				   which == FIO_RAND_DIST_ZONED_ABS, err);
	}
	val = which == FIO_RAND_DIST_ZIPF ? 1.1 :
	      which == FIO_RAND_DIST_PARETO ? 0.2 : 0.0;
	if (which != FIO_RAND_DIST_RANDOM && colon) {
		const char *p = colon + 1;
		struct fio_pos q = fio_pos_add(&v->pos, (size_t)(p - v->text));

		if (pace_double(p, &val, &used) ||
		    (p[used] && (p[used] != ':' ||
				 pace_double(p + used + 1, &center, &n) ||
				 p[used + 1 + n]))) {
			fio_found(found, sizeof(found), p);
			fio_error_set(err, &q, "expected a number[:center] "
				      "after %s: in random_distribution, found "
				      "%s", names[which], found);
			return -1;
		}
		if ((which == FIO_RAND_DIST_ZIPF && val == 1.0) ||
		    (which == FIO_RAND_DIST_PARETO &&
		     (val <= 0.0 || val >= 1.0)) ||
		    (which == FIO_RAND_DIST_NORMAL &&
		     (val < 0.0 || val >= 100.0)) ||
		    (center != -1 && (center < 0.0 || center > 1.0))) {
			fio_found(found, sizeof(found), p);
			fio_error_set(err, &q, "expected %s in "
				      "random_distribution (center 0..1), "
				      "found %s",
				      which == FIO_RAND_DIST_ZIPF ?
				      "zipf's theta other than 1" :
				      which == FIO_RAND_DIST_PARETO ?
				      "pareto's h in (0, 1)" :
				      "normal's deviation in [0, 100)", found);
			return -1;
		}
	} else if (colon) {
		fio_error_set(err, &v->pos, "expected random_distribution="
			      "random without a value, found '%s'", v->text);
		return -1;
	}
	job->rand_dist_val = val;
	job->rand_dist_center = center;
	return 0;
}

/* ---- options with no effect in the model --------------------------- */

static const struct {
	const char *name, *why;
} noted[FIO_NOTED_COUNT] = {
	[FIO_NOTED_NUMA_CPU_NODES] = { "numa_cpu_nodes",
		"the model has no NUMA nodes: every simulated CPU is one "
		"node's" },
	[FIO_NOTED_NUMA_MEM_POLICY] = { "numa_mem_policy",
		"the model has no NUMA nodes: fio's buffers are not placed" },
	[FIO_NOTED_THREADS] = { "threads",
		"it is fio's tiobench profile option (profiles/tiobench.c); "
		"without profile=tiobench fio 3.33 does nothing with it "
		"either" },
	[FIO_NOTED_FLOW_WATERMARK] = { "flow_watermark",
		"fio 3.33 prints \"Option flow_watermark is deprecated\" and "
		"ignores it too" },
	/* The CPU options: fio pins its job threads (and verify_async's
	 * threads) with sched_setaffinity; no field of its output says
	 * where they ran. */
	[FIO_NOTED_CPUS_ALLOWED] = { "cpus_allowed",
		"the model's tasks run on any simulated CPU (the engine has "
		"no affinity); its CPUs are checked against --cpus as fio "
		"checks the machine's" },
	[FIO_NOTED_CPUS_ALLOWED_POLICY] = { "cpus_allowed_policy",
		"the model's tasks run on any simulated CPU (the engine has "
		"no affinity)" },
	[FIO_NOTED_CPUMASK] = { "cpumask",
		"the model's tasks run on any simulated CPU (the engine has "
		"no affinity); its CPUs are checked against --cpus as fio "
		"checks the machine's" },
	[FIO_NOTED_VERIFY_ASYNC_CPUS] = { "verify_async_cpus",
		"the model's tasks run on any simulated CPU (the engine has "
		"no affinity); its CPUs are checked against --cpus as fio "
		"checks the machine's" },
};

const char *fio_noted_name(enum fio_noted n)
{
	return (unsigned int)n < FIO_NOTED_COUNT ? noted[n].name : "?";
}

const char *fio_noted_why(enum fio_noted n)
{
	return (unsigned int)n < FIO_NOTED_COUNT ? noted[n].why : "?";
}

/* A NUMA node list as fio's numa_cpu_nodes takes it: N, N-M, a,b. */
static bool node_list_ok(const char *s)
{
	if (!*s)
		return false;
	while (*s) {
		if (!isdigit((unsigned char)*s))
			return false;
		while (isdigit((unsigned char)*s))
			s++;
		if (*s == '-') {
			s++;
			if (!isdigit((unsigned char)*s))
				return false;
			while (isdigit((unsigned char)*s))
				s++;
		}
		if (*s == ',' && s[1])
			s++;
		else if (*s)
			return false;
	}
	return true;
}

/*
 * numa_cpu_nodes=LIST, numa_mem_policy=default|prefer:N|bind:LIST|
 * interleave:LIST|local (fio's str_numa_mpol_cb), threads=N, and
 * flow_watermark=N: checked for their syntax and noted (no effect).
 */
int fio_parse_noted(struct fio_job *job, const struct fio_optdef *def,
		    const struct fio_optval *v, struct fio_error *err)
{
	enum fio_noted n = FIO_NOTED_COUNT;
	bool ok = true;
	const char *expect = "";
	char found[256];

	for (int i = 0; i < FIO_NOTED_COUNT; i++)
		if (!strcmp(noted[i].name, def->name))
			n = (enum fio_noted)i;
	if (pace_need_value(def, v, err))
		return -1;
	switch (n) {
	case FIO_NOTED_NUMA_CPU_NODES:
		ok = node_list_ok(v->text) || !strcmp(v->text, "all");
		expect = "a node list (N, N-M, a,b or all)";
		break;
	case FIO_NOTED_CPUS_ALLOWED:
	case FIO_NOTED_VERIFY_ASYNC_CPUS:
		/* fio's set_cpus_allowed: N, N-M, a,b (each CPU checked
		 * by the runner, fio_run_check_pace). */
		ok = node_list_ok(v->text) &&
		     strlen(v->text) <= FIO_NAME_LEN_MAX;
		expect = "a CPU list (N, N-M, a,b)";
		if (ok)
			snprintf(n == FIO_NOTED_CPUS_ALLOWED ?
				 job->cpus_allowed : job->verify_async_cpus,
				 sizeof(job->cpus_allowed), "%s", v->text);
		break;
	case FIO_NOTED_CPUS_ALLOWED_POLICY:
		ok = !strcmp(v->text, "shared") || !strcmp(v->text, "split");
		expect = "shared or split";
		break;
	case FIO_NOTED_CPUMASK: {
		uint64_t u;
		uint32_t pct;
		size_t bad;

		/* fio's str_cpumask_cb: the bits of an int. */
		ok = !fio_parse_size(v->text, job->kb_base, false, &u, &pct,
				     &bad) && u <= UINT32_MAX;
		expect = "a CPU mask (an integer of 32 bits)";
		if (ok)
			job->cpumask = u;
		break;
	}
	case FIO_NOTED_NUMA_MEM_POLICY: {
		const char *c = strchr(v->text, ':');
		size_t k = c ? (size_t)(c - v->text) : strlen(v->text);

		expect = "default, local, prefer:N, bind:LIST or "
			 "interleave:LIST";
		if ((k == 7 && !strncmp(v->text, "default", 7)) ||
		    (k == 5 && !strncmp(v->text, "local", 5)))
			ok = !c;
		else if ((k == 6 && !strncmp(v->text, "prefer", 6)) ||
			 (k == 4 && !strncmp(v->text, "bind", 4)) ||
			 (k == 10 && !strncmp(v->text, "interleave", 10)))
			ok = c && node_list_ok(c + 1);
		else
			ok = false;
		break;
	}
	default: {
		uint64_t u;
		uint32_t pct;
		size_t bad;

		ok = !fio_parse_size(v->text, job->kb_base, false, &u, &pct,
				     &bad);
		expect = "an integer";
		break;
	}
	}
	if (!ok) {
		fio_found(found, sizeof(found), v->text);
		fio_error_set(err, &v->pos, "expected %s for %s, found %s",
			      expect, def->name, found);
		return -1;
	}
	if (n < FIO_NOTED_COUNT)
		job->noted |= 1u << n;
	return 0;
}

/*
 * latency_target, latency_window: fio 3.33's FIO_OPT_STR_VAL_TIME with
 * is_time, a plain number in µs (init.c multiplies latency_target by
 * 1000 into ns; latency_window stays µs, compared with
 * utime_since_now).  latency_percentile: a FLOAT_LIST of one value in
 * 0..100 (fio's minfp, maxfp), "100" by default.
 */
int fio_parse_latency(struct fio_job *job, const struct fio_optdef *def,
		      const struct fio_optval *v, struct fio_error *err)
{
	char found[256];
	uint64_t ns;

	if (pace_need_value(def, v, err))
		return -1;
	if (!strcmp(def->name, "latency_percentile")) {
		char *end;
		double p;

		errno = 0;
		p = strtod(v->text, &end);
		if (end == v->text || *end || errno || !(p >= 0.0) ||
		    p > 100.0) {
			struct fio_pos at = fio_pos_add(&v->pos,
				end == v->text || !*end ? 0 :
				(size_t)(end - v->text));

			fio_found(found, sizeof(found), v->text);
			fio_error_set(err, &at, "expected a percentage in "
				      "0..100 for latency_percentile (a "
				      "decimal number), found %s", found);
			return -1;
		}
		job->latency_percentile = p;
		return 0;
	}
	if (pace_time_us(def, v, &ns, err))
		return -1;
	if (!strcmp(def->name, "latency_target"))
		job->latency_target_ns = ns;
	else
		job->latency_window_ns = ns;
	return 0;
}

bool fio_pace_jobs_equal(const struct fio_job *a, const struct fio_job *b)
{
#define SAME(f) (a->f == b->f)
	for (int d = 0; d < FIO_DDIR_COUNT; d++)
		if (!SAME(rate[d]) || !SAME(rate_min[d]) ||
		    !SAME(rate_iops[d]) || !SAME(rate_iops_min[d]) ||
		    !SAME(zone_split_nr[d]) ||
		    memcmp(a->zone_split[d], b->zone_split[d],
			   sizeof(a->zone_split[d])))
			return false;
	return SAME(rate_process) && SAME(rate_cycle_ms) &&
	       SAME(rate_ignore_thinktime) && SAME(thinktime_ns) &&
	       SAME(thinktime_spin_ns) && SAME(thinktime_iotime_ns) &&
	       SAME(thinktime_blocks) && SAME(thinktime_blocks_set) &&
	       SAME(thinktime_blocks_type) && SAME(flow_id) && SAME(flow) &&
	       SAME(flow_sleep_ns) && SAME(rand_dist) &&
	       SAME(rand_dist_val) && SAME(rand_dist_center) &&
	       SAME(rand_seq_nr) && SAME(rand_seq_stride) &&
	       !memcmp(a->rand_seq, b->rand_seq, sizeof(a->rand_seq)) &&
	       SAME(log_prio) && SAME(exitall) && SAME(exitall_on_error) &&
	       SAME(exit_what) && SAME(noted) &&
	       SAME(latency_target_ns) && SAME(latency_window_ns) &&
	       SAME(latency_percentile) && SAME(latency_run);
#undef SAME
}
