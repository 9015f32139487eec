// SPDX-License-Identifier: MIT
/*
 * tools/fio/options-ss.c - the value of fio's steadystate option (alias
 * ss), after fio 3.33's options.c str_steadystate_cb and its posval
 * list (iops, iops_slope, bw, bw_slope), with the lat and lat_slope
 * criteria of later fio (the corpus's options.c, is_valid_steadystate).
 * steadystate_duration, steadystate_ramp_time and
 * steadystate_check_interval are plain times (options.c's table); what
 * they do in a run is tools/wpsim/fio-ss.c's.
 *
 * Leaves out: an absolute latency threshold (lat:N without %, later
 * fio's check_str_time): an error naming it.
 */
#include "tools/fio/internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	uint32_t state;
} ss_criteria[] = {
	{ "iops", FIO_SS_IOPS },
	{ "iops_slope", FIO_SS_IOPS | FIO_SS_SLOPE },
	{ "bw", FIO_SS_BW },
	{ "bw_slope", FIO_SS_BW | FIO_SS_SLOPE },
	{ "lat", FIO_SS_LAT },
	{ "lat_slope", FIO_SS_LAT | FIO_SS_SLOPE },
};

/* A decimal number, the whole of @text (fio's str_to_float). */
static bool ss_float(const char *text, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(text, &end);
	return end != text && !*end && !errno;
}

int fio_parse_steadystate(struct fio_job *job, const struct fio_optdef *def,
			  const struct fio_optval *v, struct fio_error *err)
{
	const char *text = v->text ? v->text : "";
	const char *colon = strchr(text, ':');
	size_t nlen = colon ? (size_t)(colon - text) : strlen(text);
	char num[128], found[256];
	uint32_t state = 0;
	size_t len;
	double val;

	for (size_t i = 0; i < sizeof(ss_criteria) / sizeof(ss_criteria[0]);
	     i++)
		if (strlen(ss_criteria[i].name) == nlen &&
		    !strncmp(ss_criteria[i].name, text, nlen))
			state = ss_criteria[i].state;
	if (!state) {
		fio_found(found, sizeof(found), text);
		fio_error_set(err, &v->pos, "expected a criterion for %s "
			      "(iops, iops_slope, bw, bw_slope, lat, "
			      "lat_slope, then :threshold), found %s",
			      def->name, found);
		return -1;
	}
	if (!colon || !colon[1]) {
		struct fio_pos at = fio_pos_add(&v->pos, nlen);

		/* fio: "steadystate threshold must be specified in
		 * addition to criterion" */
		fio_error_set(err, &at, "expected a threshold after the "
			      "criterion of %s (%.*s:N or %.*s:N%%), found %s",
			      def->name, (int)nlen, text, (int)nlen, text,
			      colon ? "an empty threshold" : "none");
		return -1;
	}
	len = strlen(colon + 1);
	if (len >= sizeof(num))
		len = sizeof(num) - 1;
	memcpy(num, colon + 1, len);
	num[len] = '\0';
	{
		struct fio_pos at = fio_pos_add(&v->pos, nlen + 1);
		char *pct = strchr(num, '%');

		if (pct) {
			*pct = '\0';
			/* fio's strip_blank_end */
			while (pct > num && (pct[-1] == ' ' || pct[-1] == '\t'))
				*--pct = '\0';
			if (!ss_float(num, &val) || !(val >= 0.0)) {
				fio_found(found, sizeof(found), colon + 1);
				fio_error_set(err, &at, "expected a percentage "
					      "for the threshold of %s (a "
					      "decimal number, then %%), found "
					      "%s", def->name, found);
				return -1;
			}
			state |= FIO_SS_PCT;
		} else if (state & FIO_SS_IOPS) {
			if (!ss_float(num, &val) || !(val >= 0.0)) {
				fio_found(found, sizeof(found), colon + 1);
				fio_error_set(err, &at, "expected an IOPS "
					      "threshold for %s (a decimal "
					      "number, or N%%), found %s",
					      def->name, found);
				return -1;
			}
		} else if (state & FIO_SS_LAT) {
			fio_found(found, sizeof(found), colon + 1);
			fio_error_set(err, &at, "expected a percentage for "
				      "the latency threshold of %s (an "
				      "absolute latency threshold is not "
				      "modelled), found %s", def->name, found);
			return -1;
		} else {
			uint64_t bytes;
			uint32_t pctv;
			size_t bad;

			/* fio's str_to_decimal with kb_base: a size */
			if (fio_parse_size(num, job->kb_base, false, &bytes,
					   &pctv, &bad)) {
				struct fio_pos p = fio_pos_add(&at, bad);

				fio_found(found, sizeof(found), num + bad);
				fio_error_set(err, &p, "expected a bandwidth "
					      "threshold for %s (bytes/s: "
					      "digits, then k/m/g; or N%%), "
					      "found %s", def->name, found);
				return -1;
			}
			val = (double)bytes;
		}
	}
	job->ss_state = state;
	job->ss_limit = val;
	return 0;
}

bool fio_ss_jobs_equal(const struct fio_job *a, const struct fio_job *b)
{
	return a->ss_state == b->ss_state && a->ss_limit == b->ss_limit &&
	       a->ss_dur_ns == b->ss_dur_ns && a->ss_ramp_ns == b->ss_ramp_ns &&
	       a->ss_check_ns == b->ss_check_ns;
}
