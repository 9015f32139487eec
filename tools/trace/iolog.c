// SPDX-License-Identifier: MIT
/*
 * tools/trace/iolog.c - fio's iolog ("trace file") versions 2 and 3 as
 * fio 3.x reads them (iolog.c read_iolog(), init_iolog_read(),
 * delay_since_ttime(); fio-3.42-135 read, fio 3.33 checked here).
 *
 * The first line is "fio version 2 iolog" or "fio version 3 iolog"
 * (fio compares the prefix).  Then one entry per line, fields separated
 * by blanks: v2 "FILE ACTION" (add, open, close) or "FILE ACTION OFFSET
 * LENGTH" (wait, read, write, sync, datasync, trim); v3 the same after a
 * timestamp in µs since the run began.  v3 "wait" lines are counted as
 * skipped, as fio ignores them; fio's v3 delay of an entry is the
 * timestamp minus the previous line's (0 for the first, when time goes
 * back, or after a timestamp 0 - fio tests the previous value for
 * zero), kept in trace_rec.delay_ns for the runner to scale; a v2 wait
 * keeps its OFFSET in ms (fio sleeps until that long after it started).
 *
 * Divergence: the sync_file_range and syncfs lines fio's writer emits
 * and its reader rejects ("bad iolog file action") are read: the first
 * as a sync_file_range(SYNC_FILE_RANGE_WRITE) (the flags are not in the
 * line), the second counted as skipped (not modelled).
 * Where fio logs a message and skips a line (an unknown action, an
 * unparsable line) wpsim
 * reports file:line:col and stops, unless skip_bad; where fio reads
 * nonsense (a name of 257+ bytes split by %256s, trailing fields,
 * lengths of 2^32 and more, an I/O on a file never added) wpsim also
 * reports an error.  Left out: blktrace binaries, read_iolog_chunked,
 * replay_redirect/scale/align/skip, several iologs for numjobs clones.
 *
 * The writer beside the reader: fio's v3 lines as `wpsim fio
 * --write_iolog` logs them (log_file(), log_io_u()), kept per job during
 * the run and written after it.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/trace/internal.h"

#define IOLOG_LINE_MAX	4095	/* fio's fgets(str, 4096) */
#define IOLOG_NAME_MAX	256	/* %256s */

struct field {
	const char *s;
	size_t n;
	uint32_t col;
};

static int split(const char *line, size_t len, struct field *f, int max)
{
	int n = 0;
	size_t i = 0;

	while (i < len) {
		while (i < len && isspace((unsigned char)line[i]))
			i++;
		if (i == len)
			break;
		if (n == max)
			return max + 1;
		f[n].s = line + i;
		f[n].col = (uint32_t)i + 1;
		while (i < len && !isspace((unsigned char)line[i]))
			i++;
		f[n].n = (size_t)(line + i - f[n].s);
		n++;
	}
	return n;
}

static bool is(const struct field *f, const char *word)
{
	return f->n == strlen(word) && !memcmp(f->s, word, f->n);
}

static bool number(const struct field *f, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (!f->n)
		return false;
	for (size_t i = 0; i < f->n; i++) {
		unsigned d;

		if (!isdigit((unsigned char)f->s[i]))
			return false;
		d = (unsigned)(f->s[i] - '0');
		/* v * 10 + d <= max, without a division per digit (a
		 * 64-bit divide is tens of host cycles; the 4 GiB iolog
		 * has some 20 digits a line, read twice). */
		if (__builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, d, &v) || v > max)
			return false;
	}
	*out = v;
	return true;
}

struct iolog_state {
	const char *name;
	const struct trace_options *opt;
	struct trace *t;
	struct trace_error *err;
	uint32_t line;
	int version;
	uint64_t last_ttime;
	bool have_ttime;
};

/* A bad line: an error, or counted when skip_bad. */
static int bad(struct iolog_state *s, uint32_t col, const char *fmt,
	       const char *what, const struct field *found)
{
	char f[128];

	if (s->opt && s->opt->skip_bad) {
		s->t->bad_lines++;
		trace_count_add(s->t, "(malformed)", "malformed line "
				"(--skip-bad)", 1);
		return 0;
	}
	trace_found(f, sizeof(f), found ? found->s : "", found ?
		    found->n : 0);
	return trace_error_at(s->err, s->name, s->line, col, fmt, what, f);
}

static int iolog_line(struct iolog_state *s, const char *line, size_t len)
{
	struct field f[6], *fn, *act;
	int n = split(line, len, f, 6), base = s->version == 3 ? 1 : 0;
	uint64_t ttime = 0, offset = 0, bytes = 0;
	struct trace_rec *r;
	enum trace_op op;
	char fname[IOLOG_NAME_MAX + 1], aname[IOLOG_NAME_MAX + 1];
	int32_t file;

	if (n == 0)
		return bad(s, 1, "expected %s, found %s", s->version == 3 ?
			   "TIMESTAMP FILE ACTION [OFFSET LENGTH]" :
			   "FILE ACTION [OFFSET LENGTH]", NULL);
	if (n > base + 4)
		return bad(s, f[base + 4].col, "expected %s, found %s",
			   "the end of the line after LENGTH",
			   &f[base + 4]);
	if (n != base + 2 && n != base + 4)
		return bad(s, n > base ? f[n - 1].col + (uint32_t)f[n - 1].n :
			   1, "expected %s, found %s", n < base + 2 ?
			   "FILE ACTION" : "LENGTH after OFFSET", NULL);
	if (base && !number(&f[0], UINT64_MAX, &ttime))
		return bad(s, f[0].col, "expected %s, found %s",
			   "a timestamp in microseconds (digits)", &f[0]);
	fn = &f[base];
	act = &f[base + 1];
	if (fn->n > IOLOG_NAME_MAX)
		return bad(s, fn->col, "expected %s, found %s",
			   "a file name of at most 256 bytes (fio's %256s)",
			   fn);
	if (act->n > IOLOG_NAME_MAX)
		return bad(s, act->col, "expected %s, found %s",
			   "an action", act);
	memcpy(fname, fn->s, fn->n);
	fname[fn->n] = '\0';
	memcpy(aname, act->s, act->n);
	aname[act->n] = '\0';
	if (n == base + 4) {
		if (!number(&f[base + 2], UINT64_MAX, &offset))
			return bad(s, f[base + 2].col, "expected %s, found %s",
				   "an offset (digits)", &f[base + 2]);
		if (!number(&f[base + 3], UINT32_MAX, &bytes))
			return bad(s, f[base + 3].col, "expected %s, found %s",
				   "a length below 2^32 (digits; fio reads "
				   "%u)", &f[base + 3]);
	}
	/* fio's v3 delay: delay_since_ttime() before anything else. */
	if (base) {
		uint64_t delay = 0;

		if (s->last_ttime && ttime >= s->last_ttime)
			delay = ttime - s->last_ttime;
		s->last_ttime = ttime;
		if (is(act, "wait")) {
			trace_count_add(s->t, "wait", "wait is not allowed "
					"with version 3 (fio ignores it)", 1);
			return 0;
		}
		ttime = delay;	/* reused below as the delay, in us */
	}
	if (n == base + 2) {
		if (is(act, "add")) {
			file = trace_file_find(s->t, fname, true);
			trace_count_add(s->t, "add", "", 1);
			s->t->used_without_record++;
			(void)file;
			return 0;
		} else if (is(act, "open")) {
			op = TRACE_OP_OPEN;
		} else if (is(act, "close")) {
			op = TRACE_OP_CLOSE;
		} else {
			return bad(s, act->col, "expected %s, found %s",
				   "a file action fio reads (add, open, "
				   "close) or OFFSET LENGTH after it", act);
		}
	} else if (is(act, "wait")) {
		op = TRACE_OP_WAIT;
	} else if (is(act, "read")) {
		op = TRACE_OP_READ;
	} else if (is(act, "write")) {
		op = TRACE_OP_WRITE;
	} else if (is(act, "sync")) {
		op = TRACE_OP_FSYNC;
	} else if (is(act, "datasync")) {
		op = TRACE_OP_FDATASYNC;
	} else if (is(act, "trim")) {
		op = TRACE_OP_TRIM;
	} else if (is(act, "sync_file_range")) {
		/* fio's writer emits it, its reader rejects it: wpsim reads
		 * it as SYNC_FILE_RANGE_WRITE (no flags in the line). */
		op = TRACE_OP_SYNC_FILE_RANGE;
	} else if (is(act, "syncfs")) {
		trace_count_add(s->t, "syncfs", "syncfs is not modelled (a "
				"whole file system)", 1);
		return 0;
	} else {
		return bad(s, act->col, "expected %s, found %s", "an I/O "
			   "action (wait, read, write, sync, datasync, trim, "
			   "and sync_file_range, syncfs, which fio's writer "
			   "emits and its reader rejects)", act);
	}
	file = trace_file_find(s->t, fname, false);
	if (file < 0 && op != TRACE_OP_WAIT)
		return bad(s, fn->col, "expected %s, found %s", "a file named "
			   "by an 'add' line before", fn);
	r = trace_rec_new(s->t, aname);
	r->op = op;
	r->thread = 0;
	r->file = op == TRACE_OP_WAIT ? -1 : file;
	r->line = s->line;
	if (op == TRACE_OP_WAIT) {
		r->offset = (int64_t)(offset > INT64_MAX ? INT64_MAX : offset);
	} else {
		r->offset = (int64_t)(offset > INT64_MAX ? INT64_MAX : offset);
		r->len = bytes;
	}
	if (base) {
		r->delay_ns = ttime * 1000;
		r->ts_ns = s->last_ttime * 1000;
	}
	if (file >= 0 && (op == TRACE_OP_WRITE || op == TRACE_OP_TRIM))
		s->t->files[file].written = true;
	if (file >= 0 && (op == TRACE_OP_WRITE || op == TRACE_OP_READ ||
			  op == TRACE_OP_TRIM) &&
	    offset + bytes > s->t->files[file].max_end)
		s->t->files[file].max_end = offset + bytes;
	trace_count_add(s->t, aname, "", 1);
	return 0;
}

/* The reader's state between lines (tools/trace/common.c's stream). */
struct iolog_state *trace_iolog_begin(const char *name, const char *text,
				      size_t len,
				      const struct trace_options *opt,
				      struct trace *t, struct trace_error *err)
{
	struct iolog_state *s;
	int version;

	snprintf(t->source, sizeof(t->source), "%s", name);
	if (len >= 19 && !memcmp(text, "fio version 2 iolog", 19)) {
		version = 2;
	} else if (len >= 19 && !memcmp(text, "fio version 3 iolog", 19)) {
		version = 3;
	} else {
		trace_error_at(err, name, 1, 1, "expected 'fio version "
			       "2 iolog' or 'fio version 3 iolog', "
			       "found another first line");
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		abort();
	s->name = name;
	s->opt = opt;
	s->t = t;
	s->err = err;
	s->version = version;
	t->format = version == 3 ? TRACE_FORMAT_IOLOG3 : TRACE_FORMAT_IOLOG2;
	trace_thread_find(t, 0);
	return s;
}

/* One line (without its newline): 0, or -1 with the error set. */
int trace_iolog_feed(struct iolog_state *s, const char *line, size_t n)
{
	struct trace *t = s->t;
	const struct trace_options *opt = s->opt;

	s->line++;
	t->lines++;
	if (s->line == 1)
		return 0;	/* the version line */
	if (n && line[n - 1] == '\r')
		n--;
	if (n > IOLOG_LINE_MAX) {
		if (opt && opt->skip_bad) {
			t->bad_lines++;
			trace_count_add(t, "(malformed)",
					"malformed line (--skip-bad)", 1);
			return 0;
		}
		return trace_error_at(s->err, s->name, s->line, 4096,
				      "expected a line of at most "
				      "4095 bytes (fio reads 4096 "
				      "with fgets), found %zu", n);
	}
	if (memchr(line, '\0', n)) {
		if (opt && opt->skip_bad) {
			t->bad_lines++;
			trace_count_add(t, "(malformed)",
					"malformed line (--skip-bad)", 1);
			return 0;
		}
		return trace_error_at(s->err, s->name, s->line, (uint32_t)
				      ((const char *)memchr(line, '\0',
				      n) - line) + 1, "expected text, "
				      "found a NUL byte");
	}
	t->records_read++;
	return iolog_line(s, line, n) ? -1 : 0;
}

void trace_iolog_end(struct iolog_state *s)
{
	free(s);
}

int trace_parse_iolog(const char *name, const char *text, size_t len,
		      const struct trace_options *opt, struct trace *t,
		      struct trace_error *err)
{
	struct iolog_state *s = trace_iolog_begin(name, text, len, opt, t,
						  err);
	size_t pos = 0;
	int rc = 0;

	if (!s)
		return -1;
	while (pos < len && !rc) {
		const char *line = text + pos;
		const char *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos;

		pos += n + (nl ? 1 : 0);
		rc = trace_iolog_feed(s, line, n);
		trace_sink_flush(t);
	}
	trace_iolog_end(s);
	return rc;
}

/* ---- the writer (wpsim fio write_iolog) ------------------------------ */

/*
 * The iolog writer: fio's log_file()/log_io_u() lines ("fio version 3
 * iolog", then "USEC FILE ACTION [OFFSET LENGTH]"), buffered per job
 * during the run and written after it (the model's tasks do no I/O of
 * their own).
 */
struct iolog_buf {
	char *text;
	size_t len, cap;
	bool started;
	uint64_t start_ns;	/* fio's io_log_start_time: the first note */
};

static struct iolog_buf *iologs;
static unsigned int iologs_n;

void trace_iolog_writer_reset(unsigned int jobs)
{
	for (unsigned int i = 0; i < iologs_n; i++)
		free(iologs[i].text);
	free(iologs);
	iologs = calloc(jobs ? jobs : 1, sizeof(*iologs));
	iologs_n = jobs;
}

void trace_iolog_writer_note(unsigned int job, uint64_t now_ns, const char *file,
		      const char *action, bool io, uint64_t offset,
		      uint64_t len)
{
	struct iolog_buf *b;
	char line[1200];
	uint64_t usec;
	int n;

	if (job >= iologs_n)
		return;
	b = &iologs[job];
	if (!b->started) {
		b->started = true;
		b->start_ns = now_ns;
	}
	usec = (now_ns - b->start_ns) / 1000;
	if (io)
		n = snprintf(line, sizeof(line), "%" PRIu64 " %s %s %" PRIu64
			     " %" PRIu64 "\n", usec, file, action, offset,
			     len);
	else
		n = snprintf(line, sizeof(line), "%" PRIu64 " %s %s\n", usec,
			     file, action);
	if (n < 0)
		return;
	if (b->len + (size_t)n + 1 > b->cap) {
		b->cap = (b->cap + (size_t)n + 1) * 2;
		b->text = realloc(b->text, b->cap);
		if (!b->text)
			abort();
	}
	memcpy(b->text + b->len, line, (size_t)n);
	b->len += (size_t)n;
}

int trace_iolog_writer_write(unsigned int job, const char *path)
{
	FILE *f;

	if (job >= iologs_n)
		return 0;
	/* fio opens the log in append mode, one version line per job. */
	f = fopen(path, "a");
	if (!f) {
		perror(path);
		return -1;
	}
	fprintf(f, "fio version 3 iolog\n");
	if (iologs[job].len)
		fwrite(iologs[job].text, 1, iologs[job].len, f);
	return fclose(f) ? -1 : 0;
}
