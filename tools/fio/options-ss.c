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
 * Also the priorities: prio and prioclass (fio 3.33 options.c, FIO_OPT_INT
 * 0..7 and 0..3), and libaio's and io_uring's cmdprio_percentage,
 * cmdprio_class and cmdprio (engines/libaio.c, io_uring.c: FIO_OPT_INT
 * with off1/off2, read,write; one value sets both) and cmdprio_bssplit
 * (a string, read when the job starts: tools/wpsim/fio-prio.c).
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

/* A plain integer in @def's range (fio's FIO_OPT_INT). */
static int prio_int(const struct fio_optdef *def, const char *text,
		    const struct fio_pos *pos, uint32_t *out,
		    struct fio_error *err)
{
	uint64_t val;
	uint32_t pct;
	size_t bad;
	char found[256];

	if (fio_parse_size(text, 1024, false, &val, &pct, &bad) ||
	    val < def->min || val > def->max) {
		fio_found(found, sizeof(found), text);
		fio_error_set(err, pos, "expected an integer in %llu..%llu "
			      "for %s, found %s", (unsigned long long)def->min,
			      (unsigned long long)def->max, def->name, found);
		return -1;
	}
	*out = (uint32_t)val;
	return 0;
}

int fio_parse_ioprio(struct fio_job *job, const struct fio_optdef *def,
		     const struct fio_optval *v, struct fio_error *err)
{
	uint32_t val;

	if (prio_int(def, v->text ? v->text : "", &v->pos, &val, err))
		return -1;
	if (!strcmp(def->name, "prio"))
		job->ioprio = val;
	else
		job->ioprio_class = val;
	job->ioprio_given = true;
	return 0;
}

/* fio 3.33 os-linux.h ioprio_value: no class is BE. */
static int32_t ss_ioprio_value(uint32_t cls, uint32_t level)
{
	if (!cls)
		cls = FIO_IOPRIO_CLASS_BE;
	return (int32_t)(cls << FIO_IOPRIO_CLASS_SHIFT | level);
}

/*
 * cmdprio_bssplit as fio 3.33 reads it (str_split_parse: "R,W[,T]", one
 * value for every direction; split_parse_prio_ddir: entries split by
 * ':', parse_cmdprio_bssplit_entry's sscanf "%m[^/]/%u/%u/%u", so a
 * fifth field is ignored; zero percentages dropped; sorted by bs, ours
 * stable; fio_cmdprio_fill_bsprio: a bs's total above 100 an error).
 */
static int parse_bssplit(struct fio_job *job, const char *text,
			 const struct fio_pos *pos, struct fio_error *err)
{
	const char *parts[3] = { text, NULL, NULL };
	size_t lens[3];
	int n = 1;

	for (const char *c = text; *c && n < 3; c++)
		if (*c == ',')
			parts[n++] = c + 1;
	for (int i = 0; i < n; i++) {
		const char *e = strchr(parts[i], ',');

		lens[i] = e ? (size_t)(e - parts[i]) : strlen(parts[i]);
	}
	for (int d = 0; d < 2; d++) {
		int k = d < n ? d : n - 1;
		const char *p = parts[k], *end = p + lens[k];
		struct fio_cmdprio_split *out = job->cmdprio_split[d];
		uint32_t *nr = &job->cmdprio_split_nr[d];

		*nr = 0;
		while (p < end) {
			const char *q = memchr(p, ':', (size_t)(end - p));
			size_t len = q ? (size_t)(q - p) : (size_t)(end - p);
			struct fio_pos at = fio_pos_add(pos, (size_t)(p - text));
			char tok[128], bs[64], found[256];
			unsigned int perc = 0, cls = 0, level = 0;
			uint64_t bytes;
			uint32_t pctv;
			size_t bad;
			int m;

			if (!len)
				break;	/* fio: an empty entry ends the list */
			if (len >= sizeof(tok))
				len = sizeof(tok) - 1;
			memcpy(tok, p, len);
			tok[len] = '\0';
			m = sscanf(tok, "%63[^/]/%u/%u/%u", bs, &perc, &cls,
				   &level);
			if (m < 1 || m == 3 ||
			    fio_parse_size(bs, job->kb_base, false, &bytes,
					   &pctv, &bad)) {
				fio_found(found, sizeof(found), tok);
				fio_error_set(err, &at, "expected a "
					      "cmdprio_bssplit entry (bs/perc"
					      "[/class/level]), found %s",
					      found);
				return -1;
			}
			if (perc) {
				if (*nr == 64) {
					fio_error_set(err, &at, "expected at "
						      "most 64 cmdprio_bssplit "
						      "entries (fio's "
						      "BSSPLIT_MAX), found "
						      "more");
					return -1;
				}
				out[*nr] = (struct fio_cmdprio_split){
					.bs = bytes,
					.perc = perc < 100 ? perc : 100,
					.prio = m == 4 ? ss_ioprio_value(
						cls < 3 ? cls : 3,
						level < 7 ? level : 7) : -1 };
				for (uint32_t i = *nr; i && out[i - 1].bs >
				     out[i].bs; i--) {
					struct fio_cmdprio_split t = out[i];

					out[i] = out[i - 1];
					out[i - 1] = t;
				}
				(*nr)++;
			}
			p += len + (q ? 1 : 0);
		}
		for (uint32_t i = 0, tot = 0; i < *nr; i++) {
			if (i && out[i].bs != out[i - 1].bs)
				tot = 0;
			tot += out[i].perc;
			if (tot > 100) {
				fio_error_set(err, pos, "expected a total "
					      "percentage of at most 100 per "
					      "bs in cmdprio_bssplit, found %u "
					      "for bs %llu", tot,
					      (unsigned long long)out[i].bs);
				return -1;
			}
		}
	}
	return 0;
}

int fio_parse_cmdprio(struct fio_job *job, const struct fio_optdef *def,
		      const struct fio_optval *v, struct fio_error *err)
{
	const char *text = v->text ? v->text : "";
	const char *comma = strchr(text, ',');
	uint32_t *field;
	char part[64];

	if (!strcmp(def->name, "cmdprio_bssplit")) {
		if (strlen(text) >= sizeof(job->cmdprio_bssplit)) {
			fio_error_set(err, &v->pos, "expected at most %zu "
				      "bytes for cmdprio_bssplit, found %zu",
				      sizeof(job->cmdprio_bssplit) - 1,
				      strlen(text));
			return -1;
		}
		memcpy(job->cmdprio_bssplit, text, strlen(text) + 1);
		return parse_bssplit(job, text, &v->pos, err);
	}
	field = !strcmp(def->name, "cmdprio_percentage") ? job->cmdprio_pct :
		!strcmp(def->name, "cmdprio_class") ? job->cmdprio_class :
		job->cmdprio_level;
	/* R,W; one value sets both (fio's off1/off2) */
	for (int d = 0; d < 2; d++) {
		const char *s = d ? (comma ? comma + 1 : text) : text;
		size_t n = d || !comma ? strlen(s) : (size_t)(comma - text);
		struct fio_pos at = fio_pos_add(&v->pos, (size_t)(s - text));

		if (d && comma && strchr(s, ',')) {
			fio_error_set(err, &at, "expected read,write for %s, "
				      "found a third value", def->name);
			return -1;
		}
		if (!n && comma)
			continue;	/* ",W" or "R,": the other kept */
		if (n >= sizeof(part))
			n = sizeof(part) - 1;
		memcpy(part, s, n);
		part[n] = '\0';
		if (prio_int(def, part, &at, &field[d], err))
			return -1;
	}
	return 0;
}

bool fio_ss_jobs_equal(const struct fio_job *a, const struct fio_job *b)
{
	return a->ss_state == b->ss_state && a->ss_limit == b->ss_limit &&
	       a->ss_dur_ns == b->ss_dur_ns && a->ss_ramp_ns == b->ss_ramp_ns &&
	       a->ss_check_ns == b->ss_check_ns &&
	       a->ioprio_given == b->ioprio_given && a->ioprio == b->ioprio &&
	       a->ioprio_class == b->ioprio_class &&
	       !memcmp(a->cmdprio_pct, b->cmdprio_pct,
		       sizeof(a->cmdprio_pct)) &&
	       !memcmp(a->cmdprio_class, b->cmdprio_class,
		       sizeof(a->cmdprio_class)) &&
	       !memcmp(a->cmdprio_level, b->cmdprio_level,
		       sizeof(a->cmdprio_level)) &&
	       !strcmp(a->cmdprio_bssplit, b->cmdprio_bssplit) &&
	       !memcmp(a->cmdprio_split_nr, b->cmdprio_split_nr,
		       sizeof(a->cmdprio_split_nr)) &&
	       !memcmp(a->cmdprio_split, b->cmdprio_split,
		       sizeof(a->cmdprio_split));
}
