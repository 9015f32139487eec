/* SPDX-License-Identifier: MIT */
/*
 * include/wpsim/trace.h - the common record type of wpsim's trace
 * importers (tools/trace/): fio iologs v2 and v3 (iolog.c) and strace
 * text (strace.c) both become a struct trace, a list of file-I/O records
 * in the order each traced thread made them, with the recorded times and
 * results, and a table of what every input record became (used, or
 * skipped with its reason), by system call.  docs/traces.md describes
 * the formats, the counts and what is left out.
 *
 * An importer never exits and prints nothing: a malformed line comes
 * back as a struct trace_error ("file:line:col: error: expected X, found
 * Y"), and the caller exits TRACE_EXIT_USAGE, unless the options say
 * skip_bad, in which case the line is counted as skipped ("malformed
 * line") and parsing goes on.
 */
#ifndef WPSIM_TRACE_H
#define WPSIM_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TRACE_EXIT_USAGE	2

#define TRACE_PATH_MAX		1023	/* a file name */
#define TRACE_MESSAGE_MAX	512
#define TRACE_NAME_MAX		31	/* a syscall or iolog action */
#define TRACE_REASON_MAX	127
#define TRACE_LINE_MAX		65535	/* one input line */
#define TRACE_DUR_NONE		UINT64_MAX	/* no duration */

enum trace_format {
	TRACE_FORMAT_IOLOG2,
	TRACE_FORMAT_IOLOG3,
	TRACE_FORMAT_STRACE,
};

/* What a record does.  Each maps to one model call (docs/traces.md). */
enum trace_op {
	TRACE_OP_OPEN,		/* openat/open/creat; iolog open */
	TRACE_OP_CLOSE,		/* close; iolog close */
	TRACE_OP_DUP,		/* dup/dup2/dup3 */
	TRACE_OP_WRITE,		/* pwrite64, write, pwritev(2), writev */
	TRACE_OP_READ,		/* pread64/read/preadv...; iolog read */
	TRACE_OP_LSEEK,
	TRACE_OP_FSYNC,		/* fsync; iolog sync */
	TRACE_OP_FDATASYNC,	/* fdatasync; iolog datasync */
	TRACE_OP_SYNC_FILE_RANGE,
	TRACE_OP_FTRUNCATE,
	TRACE_OP_FALLOCATE,	/* flags: TRACE_FALLOC_* */
	TRACE_OP_MMAP,		/* a MAP_SHARED mapping of a file */
	TRACE_OP_MUNMAP,
	TRACE_OP_TRIM,		/* iolog trim */
	TRACE_OP_WAIT,		/* iolog v2 wait: until offset ms */
	TRACE_OP_UNLINK,	/* unlink/unlinkat of a file */
	TRACE_OP_RENAME,	/* rename*: file is the source; offset the
				 * file the target replaced, or -1 */
	TRACE_OP_SYNCFS,	/* syncfs(fd): file is the fd's */
	TRACE_OP_COUNT,
};

/* Open flags the replay cares about (trace_rec.flags of an open). */
#define TRACE_O_DIRECT		(1u << 0)
#define TRACE_O_APPEND		(1u << 1)
#define TRACE_O_TRUNC		(1u << 2)
#define TRACE_O_DSYNC		(1u << 3)
#define TRACE_O_SYNC		(1u << 4)	/* O_SYNC (and DSYNC) */
#define TRACE_O_CREAT		(1u << 5)
#define TRACE_O_EXCL		(1u << 6)	/* with O_CREAT: it was made */

/* pwritev2 flags: the values of include/uapi/linux/fs.h (v6.18). */
#define TRACE_RWF_HIPRI		0x01u
#define TRACE_RWF_DSYNC		0x02u
#define TRACE_RWF_SYNC		0x04u
#define TRACE_RWF_NOWAIT	0x08u
#define TRACE_RWF_APPEND	0x10u
#define TRACE_RWF_NOAPPEND	0x20u
#define TRACE_RWF_ATOMIC	0x40u
#define TRACE_RWF_DONTCACHE	0x80u
/* A read or write on an fd opened O_DIRECT (strace). */
#define TRACE_IO_ODIRECT	(1u << 30)

/* sync_file_range flags, include/uapi/linux/fs.h. */
#define TRACE_SFR_WAIT_BEFORE	1u
#define TRACE_SFR_WRITE		2u
#define TRACE_SFR_WAIT_AFTER	4u

/* fallocate modes, include/uapi/linux/falloc.h. */
#define TRACE_FALLOC_KEEP_SIZE	0x01u
#define TRACE_FALLOC_PUNCH_HOLE	0x02u
#define TRACE_FALLOC_ZERO_RANGE	0x10u

struct trace_rec {
	enum trace_op op;
	uint32_t thread;	/* index into trace.threads */
	int32_t file;		/* index into trace.files; -1: none */
	int64_t offset;		/* bytes; WAIT: ms; LSEEK: new pos */
	uint64_t len;		/* bytes asked (or the mapping's length) */
	uint32_t flags;		/* TRACE_O_, _RWF_, _SFR_, _FALLOC_ */
	bool has_ret;		/* a result was recorded (strace) */
	int64_t ret;		/* >= 0, or -errno */
	uint64_t ts_ns;		/* entry, ns after the first record */
	uint64_t dur_ns;	/* recorded duration, or TRACE_DUR_NONE */
	uint64_t delay_ns;	/* iolog v3: fio's delay before the entry */
	uint32_t line;		/* where it was read (the entry line) */
	bool dropped;		/* trace_drop(): counted as skipped */
	char name[16];		/* the syscall or iolog action */
};

struct trace_file {
	char path[TRACE_PATH_MAX + 1];
	bool written;		/* written, truncated or allocated */
	/* Known not to exist when the trace began: the first thing the
	 * trace says of it is an open failing with ENOENT. */
	bool absent;
	bool seen;		/* a record or a failed open named it */
	uint64_t max_end;	/* the largest offset + length touched */
};

struct trace_thread {
	uint64_t pid;		/* strace pid, or the iolog job number */
};

/* One row of the summary: a syscall (or iolog action) and a reason. */
struct trace_count {
	char name[TRACE_NAME_MAX + 1];
	char reason[TRACE_REASON_MAX + 1];	/* "" for used records */
	uint64_t n;
	uint64_t dur_ns;	/* their recorded durations (strace -T) */
};

struct trace_error {
	bool set;
	uint32_t line;
	uint32_t col;
	char text[TRACE_MESSAGE_MAX + TRACE_PATH_MAX + 64];
};

struct trace_options {
	bool skip_bad;		/* a malformed line: counted, skipped */
	/* Bytes read at once from a trace file (trace_stream_open); 0:
	 * TRACE_READ_BUFFER.  A longer line grows the buffer. */
	size_t read_buffer;
};

#define TRACE_READ_BUFFER	(1u << 20)

struct trace;
/* A record handed on as it is read (struct trace's sink): valid during
 * the call only. */
typedef void (*trace_sink_fn)(void *arg, struct trace *t,
			      struct trace_rec *r);

struct trace {
	enum trace_format format;
	char source[TRACE_PATH_MAX + 1];
	uint32_t nrec;
	uint32_t rec_cap;
	struct trace_rec *recs;
	uint32_t nfiles;
	struct trace_file *files;
	/*
	 * The files by path (tools/trace/common.c trace_file_find): an
	 * open-addressing hash of file index + 1 (0: empty,
	 * TRACE_FILE_SLOT_GONE: a path renamed away), at most half full.
	 */
	uint32_t *file_slots;
	uint32_t file_slots_cap, file_slots_used;
	uint32_t nthreads;
	struct trace_thread *threads;
	uint32_t ncounts;
	struct trace_count *counts;
	uint64_t lines;		/* input lines read */
	uint64_t records_read;	/* calls (stitched) or iolog lines */
	uint64_t bad_lines;	/* malformed, counted with skip_bad */
	/* Used entries that need no record of their own (iolog "add"). */
	uint64_t used_without_record;
	/* The recorded duration of the call being counted (the importer
	 * sets it before trace_count_add), or TRACE_DUR_NONE. */
	uint64_t count_dur_ns;
	/*
	 * Streaming (issue 28): with a sink, records are not kept in
	 * recs; each is handed to sink(sink_arg, t, r) once its line is
	 * read, numbered t->nrec - 1, and forgotten.  The counts, files
	 * and threads are kept as without.  The importers then leave to
	 * the sink's owner what needs the whole trace (strace's records
	 * on files the trace never writes: not dropped).
	 */
	trace_sink_fn sink;
	void *sink_arg;
	struct trace_rec sink_rec;
	bool sink_pending;
	uint64_t sink_handed;
};

void trace_init(struct trace *t);
void trace_free(struct trace *t);

/*
 * trace_load() - read @path (or text given with trace_parse()), find the
 * format from the first line ("fio version 2 iolog", "fio version 3
 * iolog", else strace) and import it.
 * Return: 0, or -1 with *err set.
 */
int trace_load(const char *path, const struct trace_options *opt,
	       struct trace *t, struct trace_error *err);
int trace_parse(const char *name, const char *text, size_t len,
		const struct trace_options *opt, struct trace *t,
		struct trace_error *err);
int trace_parse_iolog(const char *name, const char *text, size_t len,
		      const struct trace_options *opt, struct trace *t,
		      struct trace_error *err);
int trace_parse_strace(const char *name, const char *text, size_t len,
		       const struct trace_options *opt, struct trace *t,
		       struct trace_error *err);

/*
 * A trace read as it goes (the replay's two passes, issue 28):
 * trace_stream_open() reads the first buffer and picks the format (or
 * fails with *err set: NULL); trace_stream_step() reads lines until a
 * record has gone to t->sink (1), or to the end (0; without a sink it
 * reads to the end), or a malformed line (-1, *err set).
 */
struct trace_stream;
struct trace_stream *trace_stream_open(const char *path,
				       const struct trace_options *opt,
				       struct trace *t,
				       struct trace_error *err);
int trace_stream_step(struct trace_stream *ts);
void trace_stream_close(struct trace_stream *ts);

/* trace_count_add() - @n more of @name: used (@reason "") or skipped. */
void trace_count_add(struct trace *t, const char *name, const char *reason,
		     uint64_t n);
/* Mark record @i not used: moved to the skipped counts with @reason. */
void trace_drop(struct trace *t, uint32_t i, const char *reason);
void trace_drop_rec(struct trace *t, struct trace_rec *r, const char *reason);
/* @n used records of @name, their durations @dur_ns, now skipped. */
void trace_count_move(struct trace *t, const char *name, const char *reason,
		      uint64_t n, uint64_t dur_ns);

/* The summary: records read, used and skipped by syscall with reasons. */
void trace_print_summary(FILE *out, const struct trace *t);
uint64_t trace_count_used(const struct trace *t);
uint64_t trace_count_skipped(const struct trace *t);

const char *trace_op_name(enum trace_op op);
const char *trace_format_name(enum trace_format f);

/*
 * blkparse's default text (tools/trace/blkparse.c): the device side of
 * a recorded run, counted over its Q (queued bio) events.
 */
#define TRACE_BLK_SIZES		10	/* <4k, 4k .. 512k, >512k */
enum trace_blk_format {
	TRACE_BLK_UNKNOWN,
	TRACE_BLK_BLKPARSE,	/* blkparse's default: MAJ,MIN CPU SEQ TIME */
	TRACE_BLK_CLASSIC,	/* tracefs blk tracer, blk_classic: no SEQ */
};
struct trace_blk_stats {
	enum trace_blk_format format;	/* of the first event line */
	uint64_t lines, events, bad_lines;
	uint64_t comment_lines;		/* '#' headers (tracefs's trace) */
	uint64_t lost;			/* "CPU:N [LOST K EVENTS]": K */
	uint64_t lost_lines;
	uint64_t queued;		/* Q events: bios */
	uint64_t writes, write_bytes, reads, read_bytes, discards;
	uint64_t preflush, empty_flush, fua;
	uint64_t first_ns, last_ns;	/* the Q events' span */
	uint64_t write_sizes[TRACE_BLK_SIZES];
};
int trace_parse_blkparse(const char *name, const char *text, size_t len,
			 const struct trace_options *opt,
			 struct trace_blk_stats *st, struct trace_error *err);
int trace_load_blkparse(const char *path, const struct trace_options *opt,
			struct trace_blk_stats *st, struct trace_error *err);
unsigned int trace_blk_size_bucket(uint64_t bytes);
const char *trace_blk_format_name(enum trace_blk_format f);
const char *trace_blk_size_name(unsigned int bucket);

/*
 * The iolog writer (tools/trace/iolog.c) of `wpsim fio write_iolog=FILE`:
 * fio's v3 lines, per job, kept during the run (time @now_ns, virtual;
 * the first note of a job is its time 0) and written after it (appended,
 * as fio opens the log; -1 on an I/O error, reported on stderr).
 */
void trace_iolog_writer_reset(unsigned int jobs);
void trace_iolog_writer_note(unsigned int job, uint64_t now_ns,
			     const char *file, const char *action, bool io,
			     uint64_t offset, uint64_t len);
int trace_iolog_writer_write(unsigned int job, const char *path);

#endif /* WPSIM_TRACE_H */
