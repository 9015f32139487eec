// SPDX-License-Identifier: MIT
/*
 * tools/trace/blkparse.c - blkparse's default text output (blktrace
 * 1.3, `blkparse -i TRACE`, or `blktrace -d DEV -o - | blkparse -i -`)
 * read as the device side of a recorded run: the bios the file system
 * queued (action Q), their sizes, the preflushes (RWBS with a leading
 * F: an empty one is a flush without data) and FUA writes (an F after
 * the W), over the time they span.  `wpsim replay TRACE --blkparse
 * FILE` prints them beside the model's device stream (docs/traces.md).
 *
 * The default format (blkparse.c, fmt "%D %2c %8s %5T.%9t %5p %2a %3d"
 * and the action's tail): "MAJ,MIN CPU SEQ SECONDS.NANOS PID ACTION
 * RWBS [SECTOR + SECTORS] ...".  Lines after the first summary block
 * ("CPU0 (8,0):", "Total (8,0):") are blkparse's totals and are not
 * read; blank lines are skipped.
 *
 * The same importer reads the text of tracefs's blk tracer with its
 * blk_classic option (kernel/trace/blktrace.c blk_log_action_classic,
 * v6.18: `echo 1 > /sys/block/DEV/trace/enable; echo blk >
 * current_tracer; echo blk_classic > trace_options`, then trace_pipe):
 * blkparse's line without the sequence number, "MAJ,MIN CPU
 * SECONDS.NANOS PID ACTION RWBS [SECTOR + SECTORS] [PROCESS]", the
 * time since boot.  The first event line decides which of the two a
 * file is; every other event line must be the same.  trace_pipe's
 * "CPU:N [LOST K EVENTS]" lines are counted (K events the recorded
 * stream lacks), tracefs's '#' header lines skipped.
 * tools/calibrate/record-blk.sh records a strace and this text at once.
 *
 * It models no kernel behaviour.  Leaves out: the other actions (G, I,
 * D, C, M, F, P, U, A, X, m: counted, not compared), per-process
 * attribution, custom -f formats, blktrace's binary files (run blkparse
 * first), the blk tracer's default (non-classic) text (an error that
 * names blk_classic), several devices (all lines are summed).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tools/trace/internal.h"

struct bp {
	const char *name;
	uint32_t line;
	struct trace_blk_stats *st;
	struct trace_error *err;
	const struct trace_options *opt;
};

static int bp_bad(struct bp *b, const char *p0, const char *at,
		  const char *what)
{
	char found[96];
	size_t n = 0;

	while (at[n] && at[n] != ' ' && at[n] != '\n' && n < 24)
		n++;
	if (b->opt && b->opt->skip_bad) {
		b->st->bad_lines++;
		return 0;
	}
	trace_found(found, sizeof(found), at, n);
	return trace_error_at(b->err, b->name, b->line,
			      (uint32_t)(at - p0) + 1, "expected %s, found %s",
			      what, found);
}

static const char *skip_blank(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static bool take_u64(const char **pp, uint64_t *v)
{
	const char *p = *pp;
	char *end;

	if (!isdigit((unsigned char)*p))
		return false;
	errno = 0;
	*v = strtoull(p, &end, 10);
	if (errno)
		return false;
	*pp = end;
	return true;
}

/* The size bucket of a bio of @bytes: <4k, 4k, 8k, ... 512k, >=1M. */
unsigned int trace_blk_size_bucket(uint64_t bytes)
{
	unsigned int k = 0;

	if (bytes < 4096)
		return 0;
	while (k + 1 < TRACE_BLK_SIZES - 1 && (4096ull << k) < bytes)
		k++;
	return k + 1;
}

const char *trace_blk_size_name(unsigned int bucket)
{
	static const char *const names[TRACE_BLK_SIZES] = {
		"<4k", "4k", "8k", "16k", "32k", "64k", "128k", "256k",
		"512k", ">512k",
	};

	return bucket < TRACE_BLK_SIZES ? names[bucket] : "?";
}

const char *trace_blk_format_name(enum trace_blk_format f)
{
	switch (f) {
	case TRACE_BLK_BLKPARSE:
		return "blkparse's default text";
	case TRACE_BLK_CLASSIC:
		return "tracefs blk tracer, blk_classic";
	default:
		return "no event line";
	}
}

/*
 * trace_pipe's note of events the ring buffer dropped (kernel/trace/
 * trace.c print_trace_line: "CPU:%d [LOST %lu EVENTS]"): counted, so
 * that the comparison says the recorded stream is short.
 */
static int bp_lost(struct bp *b, const char *p0, const char *p)
{
	uint64_t cpu, k;
	const char *q;

	p += 4;
	q = p;
	if (!take_u64(&p, &cpu) || strncmp(p, " [LOST ", 7))
		return bp_bad(b, p0, q, "CPU:N [LOST K EVENTS]");
	p += 7;
	q = p;
	if (!take_u64(&p, &k) || strncmp(p, " EVENTS]", 8))
		return bp_bad(b, p0, q, "K EVENTS] after [LOST");
	(void)cpu;
	b->st->lost += k;
	b->st->lost_lines++;
	return 0;
}

/* One line; 1 at the summary that ends the events. */
static int bp_line(struct bp *b, const char *p0)
{
	const char *p = skip_blank(p0), *q;
	uint64_t maj, min, cpu, seq = 0, sec, nsec, pid, sector, nsect, x;
	enum trace_blk_format fmt;
	char action[3], rwbs[8];
	size_t n;
	bool preflush = false, fua = false;
	char dir = 0;

	if (!*p || *p == '\n')
		return 0;
	if (*p == '#') {		/* tracefs's trace file: its header */
		b->st->comment_lines++;
		return 0;
	}
	if (!strncmp(p, "CPU:", 4))
		return bp_lost(b, p0, p);
	if ((!strncmp(p, "CPU", 3) && isdigit((unsigned char)p[3])) ||
	    !strncmp(p, "Total", 5))
		return 1;
	q = p;
	if (!take_u64(&p, &maj) || *p != ',') {
		/* The blk tracer without blk_classic: "TASK-PID [CPU]
		 * FLAGS TIME: MAJ,MIN ACTION ...". */
		if (strstr(q, "] ") && strstr(q, ": "))
			return bp_bad(b, p0, q, "a device MAJOR,MINOR (the "
				      "blk tracer's default text is not "
				      "read: set its blk_classic option)");
		return bp_bad(b, p0, q, "a device MAJOR,MINOR");
	}
	p++;
	if (!take_u64(&p, &min))
		return bp_bad(b, p0, p, "a minor device number");
	p = skip_blank(p);
	if (!take_u64(&p, &cpu))
		return bp_bad(b, p0, p, "a CPU number");
	p = skip_blank(p);
	/*
	 * blkparse's SEQ, or (tracefs's blk_classic, kernel/trace/
	 * blktrace.c blk_log_action_classic: "%3d,%-3d %2d %5d.%09lu %5u
	 * %2s %3s ") already the time: the first event line decides, the
	 * others must agree.
	 */
	q = p;
	if (!take_u64(&p, &x))
		return bp_bad(b, p0, q, b->st->format == TRACE_BLK_CLASSIC ?
			      "a time SECONDS.NANOSECONDS" :
			      "a sequence number");
	fmt = *p == '.' ? TRACE_BLK_CLASSIC : TRACE_BLK_BLKPARSE;
	if (b->st->format != TRACE_BLK_UNKNOWN && fmt != b->st->format)
		return bp_bad(b, p0, q, b->st->format == TRACE_BLK_BLKPARSE ?
			      "a sequence number (blkparse's default text, "
			      "as the first event line)" :
			      "a time SECONDS.NANOSECONDS (the tracefs "
			      "blk_classic text of the first event line)");
	if (fmt == TRACE_BLK_BLKPARSE) {
		seq = x;
		p = skip_blank(p);
		q = p;
		if (!take_u64(&p, &sec) || *p != '.')
			return bp_bad(b, p0, q, "a time SECONDS.NANOSECONDS");
	} else {
		sec = x;
	}
	p++;
	q = p;
	if (!take_u64(&p, &nsec) || p - q != 9)
		return bp_bad(b, p0, q, "nine digits of nanoseconds");
	p = skip_blank(p);
	if (!take_u64(&p, &pid))
		return bp_bad(b, p0, p, "a pid");
	b->st->format = fmt;
	p = skip_blank(p);
	for (n = 0; n < 2 && isalpha((unsigned char)p[n]); n++)
		action[n] = p[n];
	action[n] = '\0';
	if (!n || (p[n] != ' ' && p[n] != '\t'))
		return bp_bad(b, p0, p, "an action (Q, G, I, D, C, ...)");
	p = skip_blank(p + n);
	for (n = 0; n < sizeof(rwbs) - 1 && isalpha((unsigned char)p[n]);
	     n++)
		rwbs[n] = p[n];
	rwbs[n] = '\0';
	if (!n)
		return bp_bad(b, p0, p, "an RWBS field (W, WS, FWFS, R, N, "
			      "...)");
	p = skip_blank(p + n);
	b->st->events++;
	(void)maj;
	(void)min;
	(void)cpu;
	(void)seq;
	(void)pid;
	if (strcmp(action, "Q"))
		return 0;
	/* RWBS: [F]{R,W,D,E,N}[F][A][S][M] (blktrace's fill_rwbs). */
	n = 0;
	if (rwbs[n] == 'F')
		preflush = true, n++;
	if (rwbs[n] && strchr("RWDEN", rwbs[n]))
		dir = rwbs[n++];
	if (rwbs[n] == 'F')
		fua = true;
	if (!dir)
		return bp_bad(b, p0, p - strlen(rwbs) - 1, "an RWBS field "
			      "with R, W, D, E or N");
	sector = nsect = 0;
	if (isdigit((unsigned char)*p)) {
		q = p;
		if (!take_u64(&p, &sector))
			return bp_bad(b, p0, q, "a sector");
		p = skip_blank(p);
		if (*p != '+')
			return bp_bad(b, p0, p, "'+' and a sector count");
		p = skip_blank(p + 1);
		if (!take_u64(&p, &nsect))
			return bp_bad(b, p0, p, "a sector count");
	}
	{
		uint64_t t = sec * 1000000000ull + nsec;

		if (!b->st->queued || t < b->st->first_ns)
			b->st->first_ns = t;
		if (t > b->st->last_ns)
			b->st->last_ns = t;
	}
	b->st->queued++;
	if (preflush) {
		b->st->preflush++;
		if (!nsect)
			b->st->empty_flush++;
	}
	if (fua)
		b->st->fua++;
	if (dir == 'W' && nsect) {
		b->st->writes++;
		b->st->write_bytes += nsect * 512;
		b->st->write_sizes[trace_blk_size_bucket(nsect * 512)]++;
	} else if (dir == 'R' && nsect) {
		b->st->reads++;
		b->st->read_bytes += nsect * 512;
	} else if (dir == 'D' || dir == 'E') {
		b->st->discards++;
	}
	return 0;
}

int trace_parse_blkparse(const char *name, const char *text, size_t len,
			 const struct trace_options *opt,
			 struct trace_blk_stats *st,
			 struct trace_error *err)
{
	struct bp b = { .name = name, .st = st, .err = err, .opt = opt };
	size_t i = 0;
	char *line = malloc(TRACE_LINE_MAX + 1);

	memset(st, 0, sizeof(*st));
	if (!line)
		abort();
	while (i < len) {
		size_t e = i, n;
		int rc;

		while (e < len && text[e] != '\n')
			e++;
		n = e - i;
		b.line++;
		if (n > TRACE_LINE_MAX) {
			free(line);
			return trace_error_at(err, name, b.line, 1, "expected "
					      "a line of at most 65535 bytes, "
					      "found a longer one");
		}
		memcpy(line, text + i, n);
		line[n] = '\0';
		i = e + 1;
		rc = bp_line(&b, line);
		if (rc < 0) {
			free(line);
			return -1;
		}
		if (rc > 0)
			break;
	}
	free(line);
	st->lines = b.line;
	if (!st->events)
		return trace_error_at(err, name, 1, 1, "expected blkparse's "
				      "default text (MAJ,MIN CPU SEQ TIME PID "
				      "ACTION RWBS ...) or the tracefs blk "
				      "tracer's blk_classic text (MAJ,MIN CPU "
				      "TIME PID ACTION RWBS ...), found no "
				      "event line");
	return 0;
}

int trace_load_blkparse(const char *path, const struct trace_options *opt,
			struct trace_blk_stats *st, struct trace_error *err)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t len;
	int rc;

	if (!f)
		return trace_error_at(err, path, 1, 1, "expected a readable "
				      "blkparse file, found %s",
				      strerror(errno));
	buf = trace_slurp(f, &len);
	rc = trace_parse_blkparse(path, buf, len, opt, st, err);
	free(buf);
	return rc;
}
