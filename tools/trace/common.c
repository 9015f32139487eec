// SPDX-License-Identifier: MIT
/*
 * tools/trace/common.c - what both trace importers share: the record
 * list, the file and thread tables, the count table (records used and
 * skipped by syscall, with reasons) and its summary, errors, and
 * trace_load(), which picks the importer from the first line.
 *
 * It models no kernel behaviour; it leaves out compressed traces and
 * reading from stdin (a trace is a file, read whole).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tools/trace/internal.h"

void trace_init(struct trace *t)
{
	memset(t, 0, sizeof(*t));
	t->count_dur_ns = TRACE_DUR_NONE;
}


void trace_free(struct trace *t)
{
	free(t->recs);
	free(t->files);
	free(t->file_slots);
	free(t->threads);
	free(t->counts);
	memset(t, 0, sizeof(*t));
}

static void *grow(void *p, uint32_t n, uint32_t *cap, size_t size)
{
	if (n < *cap)
		return p;
	*cap = *cap ? *cap * 2 : 64;
	p = realloc(p, (size_t)*cap * size);
	if (!p) {
		fprintf(stderr, "wpsim: out of memory reading a trace\n");
		abort();
	}
	return p;
}

void trace_sink_flush(struct trace *t)
{
	if (!t->sink || !t->sink_pending)
		return;
	t->sink_pending = false;
	t->sink_handed++;
	t->sink(t->sink_arg, t, &t->sink_rec);
}

struct trace_rec *trace_rec_new(struct trace *t, const char *name)
{
	struct trace_rec *r;

	if (t->sink) {
		/* Streaming: the record before is complete; this one is
		 * handed on after its line (trace_sink_flush). */
		trace_sink_flush(t);
		r = &t->sink_rec;
		t->sink_pending = true;
		t->nrec++;
	} else {
		t->recs = grow(t->recs, t->nrec, &t->rec_cap,
			       sizeof(*t->recs));
		r = &t->recs[t->nrec++];
	}
	memset(r, 0, sizeof(*r));
	r->file = -1;
	r->dur_ns = TRACE_DUR_NONE;
	/* snprintf's truncation, without its cost per record. */
	memcpy(r->name, name, strnlen(name, sizeof(r->name) - 1));
	return r;
}

/*
 * The files by path: an open-addressing hash (linear probing) of file
 * index + 1, where a renamed file's old slot becomes GONE (probing goes
 * past it).  A lookup returns the lowest index whose path matches, as
 * the linear search it replaces did (a path names one file: an unlink
 * or a rename renames the file it replaces first, strace.c).
 */
#define TRACE_FILE_SLOT_GONE	UINT32_MAX

static uint32_t path_hash(const char *path)
{
	uint64_t h = 1469598103934665603ull;	/* FNV-1a */

	for (; *path; path++)
		h = (h ^ (unsigned char)*path) * 1099511628211ull;
	return (uint32_t)(h ^ (h >> 32));
}

static void file_slot_put(struct trace *t, uint32_t f)
{
	uint32_t s = path_hash(t->files[f].path) & (t->file_slots_cap - 1);

	while (t->file_slots[s] && t->file_slots[s] != TRACE_FILE_SLOT_GONE)
		s = (s + 1) & (t->file_slots_cap - 1);
	if (!t->file_slots[s])
		t->file_slots_used++;
	t->file_slots[s] = f + 1;
}

/* Room for one more slot: the table at most half full (GONE slots
 * count), else rebuilt (twice as large when the files need it) with
 * files[0..nfiles).  Return: true when rebuilt. */
static bool file_slots_room(struct trace *t)
{
	uint32_t cap = t->file_slots_cap ? t->file_slots_cap : 64;

	if (t->file_slots_cap && 2 * (t->file_slots_used + 1) <=
	    t->file_slots_cap)
		return false;
	while (2 * (t->nfiles + 1) > cap)
		cap *= 2;
	free(t->file_slots);
	t->file_slots = calloc(cap, sizeof(*t->file_slots));
	if (!t->file_slots)
		abort();
	t->file_slots_cap = cap;
	t->file_slots_used = 0;
	for (uint32_t f = 0; f < t->nfiles; f++)
		file_slot_put(t, f);
	return true;
}

int32_t trace_file_find(struct trace *t, const char *path, bool add)
{
	int32_t found = -1;

	for (uint32_t s = t->file_slots_cap ?
	     path_hash(path) & (t->file_slots_cap - 1) : 0;
	     t->file_slots_cap && t->file_slots[s];
	     s = (s + 1) & (t->file_slots_cap - 1)) {
		uint32_t f = t->file_slots[s] - 1;

		if (t->file_slots[s] == TRACE_FILE_SLOT_GONE ||
		    strcmp(t->files[f].path, path))
			continue;
		if (found < 0 || f < (uint32_t)found)
			found = (int32_t)f;
	}
	if (found >= 0 || !add)
		return found;
	/* The array doubles when the count reaches a power of two. */
	if (t->nfiles == 0 || (t->nfiles & (t->nfiles - 1)) == 0) {
		t->files = realloc(t->files, (size_t)(t->nfiles ?
				   t->nfiles * 2 : 1) * sizeof(*t->files));
		if (!t->files)
			abort();
	}
	memset(&t->files[t->nfiles], 0, sizeof(t->files[0]));
	snprintf(t->files[t->nfiles].path, sizeof(t->files[0].path), "%s",
		 path);
	file_slots_room(t);
	file_slot_put(t, t->nfiles);
	return (int32_t)t->nfiles++;
}

void trace_file_rename(struct trace *t, int32_t f, const char *path)
{
	uint32_t s = path_hash(t->files[f].path) & (t->file_slots_cap - 1);

	/* Its slot, under its old path, becomes GONE. */
	while (t->file_slots[s] != (uint32_t)f + 1)
		s = (s + 1) & (t->file_slots_cap - 1);
	t->file_slots[s] = TRACE_FILE_SLOT_GONE;
	snprintf(t->files[f].path, sizeof(t->files[f].path), "%s", path);
	if (!file_slots_room(t))	/* a rebuild put it in */
		file_slot_put(t, (uint32_t)f);
}

uint32_t trace_thread_find(struct trace *t, uint64_t pid)
{
	for (uint32_t i = 0; i < t->nthreads; i++)
		if (t->threads[i].pid == pid)
			return i;
	if (t->nthreads == 0 || (t->nthreads & (t->nthreads - 1)) == 0) {
		t->threads = realloc(t->threads, (size_t)(t->nthreads ?
				     t->nthreads * 2 : 1) *
				     sizeof(*t->threads));
		if (!t->threads)
			abort();
	}
	t->threads[t->nthreads].pid = pid;
	return t->nthreads++;
}

static struct trace_count *count_row(struct trace *t, const char *name,
				     const char *reason)
{
	for (uint32_t i = 0; i < t->ncounts; i++)
		if (!strcmp(t->counts[i].name, name) &&
		    !strcmp(t->counts[i].reason, reason))
			return &t->counts[i];
	if (t->ncounts == 0 || (t->ncounts & (t->ncounts - 1)) == 0) {
		t->counts = realloc(t->counts, (size_t)(t->ncounts ?
				    t->ncounts * 2 : 1) * sizeof(*t->counts));
		if (!t->counts)
			abort();
	}
	memset(&t->counts[t->ncounts], 0, sizeof(t->counts[0]));
	snprintf(t->counts[t->ncounts].name, sizeof(t->counts[0].name), "%s",
		 name);
	snprintf(t->counts[t->ncounts].reason, sizeof(t->counts[0].reason),
		 "%s", reason);
	return &t->counts[t->ncounts++];
}

void trace_count_add(struct trace *t, const char *name, const char *reason,
		     uint64_t n)
{
	struct trace_count *row = count_row(t, name, reason);

	row->n += n;
	if (t->count_dur_ns != TRACE_DUR_NONE)
		row->dur_ns += t->count_dur_ns;
}

void trace_count_move(struct trace *t, const char *name, const char *reason,
		      uint64_t n, uint64_t dur_ns)
{
	struct trace_count *used, *to;

	if (!n)
		return;
	(void)count_row(t, name, reason);	/* made before: it may move
						 * the table */
	used = count_row(t, name, "");
	used->n -= n;
	used->dur_ns -= dur_ns;
	to = count_row(t, name, reason);
	to->n += n;
	to->dur_ns += dur_ns;
}

void trace_drop(struct trace *t, uint32_t i, const char *reason)
{
	trace_drop_rec(t, &t->recs[i], reason);
}

void trace_drop_rec(struct trace *t, struct trace_rec *r, const char *reason)
{
	if (r->dropped)
		return;
	r->dropped = true;
	count_row(t, r->name, "")->n--;
	count_row(t, r->name, reason)->n++;
	if (r->dur_ns != TRACE_DUR_NONE) {
		count_row(t, r->name, "")->dur_ns -= r->dur_ns;
		count_row(t, r->name, reason)->dur_ns += r->dur_ns;
	}
}

uint64_t trace_count_used(const struct trace *t)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < t->ncounts; i++)
		if (!t->counts[i].reason[0])
			n += t->counts[i].n;
	return n;
}

uint64_t trace_count_skipped(const struct trace *t)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < t->ncounts; i++)
		if (t->counts[i].reason[0])
			n += t->counts[i].n;
	return n;
}

static int cmp_count(const void *a, const void *b)
{
	const struct trace_count *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	if (!x->reason[0] != !y->reason[0])
		return x->reason[0] ? 1 : -1;
	return strcmp(x->reason, y->reason);
}

void trace_print_summary(FILE *out, const struct trace *t)
{
	struct trace_count *rows = malloc((t->ncounts + 1) * sizeof(*rows));
	uint64_t used = trace_count_used(t), skipped = trace_count_skipped(t);
	uint32_t written = 0, files = 0;

	for (uint32_t i = 0; i < t->nfiles; i++) {
		written += t->files[i].written;
		/* Not the path an unlink freed, if nothing used it again. */
		files += t->files[i].seen || !t->files[i].absent;
	}

	memcpy(rows, t->counts, t->ncounts * sizeof(*rows));
	qsort(rows, t->ncounts, sizeof(*rows), cmp_count);
	fprintf(out, "trace %s (%s): %" PRIu64 " lines, %" PRIu64
		" records: %" PRIu64 " used, %" PRIu64 " skipped; %u "
		"threads, %u files (%u written)\n", t->source,
		trace_format_name(t->format), t->lines, used + skipped, used,
		skipped, t->nthreads, files, written);
	fprintf(out, "  %-18s %8s %8s %8s  %s\n", "syscall", "read", "used",
		"skipped", "reason");
	for (uint32_t i = 0; i < t->ncounts;) {
		uint32_t j = i;
		uint64_t u = 0, s = 0;
		bool first = true;

		while (j < t->ncounts && !strcmp(rows[j].name, rows[i].name)) {
			if (rows[j].reason[0])
				s += rows[j].n;
			else
				u += rows[j].n;
			j++;
		}
		for (uint32_t k = i; k < j; k++) {
			if (!rows[k].reason[0] && s)
				continue;
			if (!rows[k].reason[0] || first) {
				fprintf(out, "  %-18s %8" PRIu64 " %8" PRIu64
					" %8" PRIu64 "  %s\n", rows[k].name,
					u + s, u, rows[k].reason[0] ?
					rows[k].n : 0, rows[k].reason);
			} else {
				fprintf(out, "  %-18s %8s %8s %8" PRIu64
					"  %s\n", "", "", "", rows[k].n,
					rows[k].reason);
			}
			first = false;
		}
		i = j;
	}
	free(rows);
}

const char *trace_op_name(enum trace_op op)
{
	static const char *const names[TRACE_OP_COUNT] = {
		"open", "close", "dup", "write", "read", "lseek", "fsync",
		"fdatasync", "sync_file_range", "ftruncate", "fallocate",
		"mmap", "munmap", "trim", "wait", "unlink", "rename",
		"syncfs",
	};

	return op < TRACE_OP_COUNT ? names[op] : "?";
}

const char *trace_format_name(enum trace_format f)
{
	switch (f) {
	case TRACE_FORMAT_IOLOG2:
		return "fio iolog v2";
	case TRACE_FORMAT_IOLOG3:
		return "fio iolog v3";
	case TRACE_FORMAT_STRACE:
		return "strace";
	}
	return "?";
}

int trace_error_at(struct trace_error *err, const char *name, uint32_t line,
		   uint32_t col, const char *fmt, ...)
{
	char msg[TRACE_MESSAGE_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	err->set = true;
	err->line = line;
	err->col = col;
	snprintf(err->text, sizeof(err->text), "%s:%u:%u: error: %s", name,
		 line, col, msg);
	return -1;
}

void trace_found(char *buf, size_t len, const char *s, size_t n)
{
	size_t o = 0;

	if (!n) {
		snprintf(buf, len, "end of line");
		return;
	}
	if (n > 24)
		n = 24;
	buf[o++] = '\'';
	for (size_t i = 0; i < n && o + 6 < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c >= 0x7f || c == '\'')
			o += (size_t)snprintf(buf + o, len - o, "\\x%02x", c);
		else
			buf[o++] = (char)c;
	}
	buf[o++] = '\'';
	buf[o] = '\0';
}

int trace_parse(const char *name, const char *text, size_t len,
		const struct trace_options *opt, struct trace *t,
		struct trace_error *err)
{
	static const char v2[] = "fio version 2 iolog";
	static const char v3[] = "fio version 3 iolog";

	snprintf(t->source, sizeof(t->source), "%s", name);
	/* fio compares the first line's prefix (init_iolog_read). */
	if ((len >= sizeof(v2) - 1 && !memcmp(text, v2, sizeof(v2) - 1)) ||
	    (len >= sizeof(v3) - 1 && !memcmp(text, v3, sizeof(v3) - 1)))
		return trace_parse_iolog(name, text, len, opt, t, err);
	if (len >= 4 && !memcmp(text, "fio ", 4) && memchr(text, '\n', len) &&
	    strstr(text, "iolog"))
		return trace_error_at(err, name, 1, 1, "expected 'fio version "
				      "2 iolog' or 'fio version 3 iolog' "
				      "(fio: iolog version 1 is no longer "
				      "supported), found another first line");
	return trace_parse_strace(name, text, len, opt, t, err);
}

char *trace_slurp(FILE *f, size_t *lenp)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;

	for (;;) {
		size_t n;

		if (len + 65536 > cap) {
			cap = cap ? cap * 2 : 1u << 20;
			buf = realloc(buf, cap);
			if (!buf)
				abort();
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	fclose(f);
	*lenp = len;
	return buf;
}

/*
 * A trace read line by line (trace_stream_open): the file through a
 * buffer of opt->read_buffer bytes (default TRACE_READ_BUFFER), grown to
 * hold its longest line, or a text in memory.
 */
struct trace_stream {
	FILE *f;
	char *buf;
	bool own_buf;
	size_t cap, start, end;
	bool eof, done;
	enum trace_format format;
	struct iolog_state *io;
	struct st *st;
	struct trace *t;
	struct trace_error *err;
	char name[TRACE_PATH_MAX + 1];
};

/* The next line of @ts (its newline left out) in *@p, *@n; false at the
 * end.  The line stays valid until the next call. */
static bool stream_line(struct trace_stream *ts, const char **p, size_t *n)
{
	for (;;) {
		char *b = ts->buf + ts->start;
		char *nl = memchr(b, '\n', ts->end - ts->start);
		size_t got;

		if (nl) {
			*p = b;
			*n = (size_t)(nl - b);
			ts->start += *n + 1;
			return true;
		}
		if (ts->eof) {
			if (ts->start == ts->end)
				return false;
			*p = b;
			*n = ts->end - ts->start;
			ts->start = ts->end;
			return true;
		}
		memmove(ts->buf, b, ts->end - ts->start);
		ts->end -= ts->start;
		ts->start = 0;
		if (ts->end == ts->cap) {
			ts->cap *= 2;
			ts->buf = realloc(ts->buf, ts->cap);
			if (!ts->buf)
				abort();
		}
		got = fread(ts->buf + ts->end, 1, ts->cap - ts->end, ts->f);
		ts->end += got;
		if (!got)
			ts->eof = true;
	}
}

/* The format from the text's start, as trace_parse() picks it. */
static int stream_format(struct trace_stream *ts,
			 const struct trace_options *opt)
{
	static const char v2[] = "fio version 2 iolog";
	static const char v3[] = "fio version 3 iolog";
	const char *text = ts->buf + ts->start;
	size_t len = ts->end - ts->start;

	snprintf(ts->t->source, sizeof(ts->t->source), "%s", ts->name);
	if ((len >= sizeof(v2) - 1 && !memcmp(text, v2, sizeof(v2) - 1)) ||
	    (len >= sizeof(v3) - 1 && !memcmp(text, v3, sizeof(v3) - 1))) {
		ts->io = trace_iolog_begin(ts->name, text, len, opt, ts->t,
					   ts->err);
		return ts->io ? 0 : -1;
	}
	if (len >= 4 && !memcmp(text, "fio ", 4) && memchr(text, '\n', len) &&
	    memmem(text, strnlen(text, len), "iolog", 5))
		return trace_error_at(ts->err, ts->name, 1, 1, "expected 'fio "
				      "version 2 iolog' or 'fio version 3 "
				      "iolog' (fio: iolog version 1 is no "
				      "longer supported), found another "
				      "first line");
	ts->st = trace_strace_begin(ts->name, opt, ts->t, ts->err);
	return 0;
}

struct trace_stream *trace_stream_open(const char *path,
				       const struct trace_options *opt,
				       struct trace *t,
				       struct trace_error *err)
{
	struct trace_stream *ts = calloc(1, sizeof(*ts));
	size_t cap = opt && opt->read_buffer ? opt->read_buffer :
		     TRACE_READ_BUFFER;

	if (!ts)
		abort();
	snprintf(ts->name, sizeof(ts->name), "%s", path);
	ts->t = t;
	ts->err = err;
	ts->f = fopen(path, "rb");
	if (!ts->f) {
		err->set = true;
		snprintf(err->text, sizeof(err->text), "%s:1:1: error: "
			 "expected a readable trace file, found %s", path,
			 strerror(errno));
		free(ts);
		return NULL;
	}
	ts->cap = cap < 64 ? 64 : cap;
	ts->buf = malloc(ts->cap);
	ts->own_buf = true;
	if (!ts->buf)
		abort();
	/* The first buffer: the format is picked from it. */
	while (!ts->eof && ts->end < ts->cap) {
		size_t got = fread(ts->buf + ts->end, 1, ts->cap - ts->end,
				   ts->f);

		ts->end += got;
		if (!got)
			ts->eof = true;
	}
	if (stream_format(ts, opt)) {
		trace_stream_close(ts);
		return NULL;
	}
	return ts;
}

int trace_stream_step(struct trace_stream *ts)
{
	struct trace *t = ts->t;
	uint64_t handed = t->sink_handed;
	const char *line;
	size_t n;
	int rc = 0;

	if (ts->done)
		return 0;
	while (stream_line(ts, &line, &n)) {
		rc = ts->io ? trace_iolog_feed(ts->io, line, n) :
			      trace_strace_feed(ts->st, line, n);
		trace_sink_flush(t);
		if (rc)
			break;
		if (t->sink && t->sink_handed != handed)
			return 1;
	}
	ts->done = true;
	if (ts->io) {
		trace_iolog_end(ts->io);
		ts->io = NULL;
	} else if (ts->st) {
		rc = trace_strace_end(ts->st, rc);
		ts->st = NULL;
	}
	trace_sink_flush(t);
	return rc ? -1 : 0;
}

void trace_stream_close(struct trace_stream *ts)
{
	if (!ts)
		return;
	if (ts->io)
		trace_iolog_end(ts->io);
	if (ts->st)
		trace_strace_end(ts->st, -1);
	if (ts->f)
		fclose(ts->f);
	if (ts->own_buf)
		free(ts->buf);
	free(ts);
}

int trace_load(const char *path, const struct trace_options *opt,
	       struct trace *t, struct trace_error *err)
{
	struct trace_stream *ts = trace_stream_open(path, opt, t, err);
	int rc;

	if (!ts)
		return -1;
	while ((rc = trace_stream_step(ts)) > 0)
		;
	trace_stream_close(ts);
	return rc;
}
