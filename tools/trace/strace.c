// SPDX-License-Identifier: MIT
/*
 * tools/trace/strace.c - strace text output (strace 6.x: `strace -f -tt
 * -T -y -o FILE`, also -ttt, ns timestamps, with or without the per-PID
 * prefix) imported as file-I/O records.
 *
 * A line is [PID | "[pid N]"] TIMESTAMP then a call "NAME(ARGS) = RET
 * [(TEXT)] [<DURATION>]", an entry "NAME(ARGS <unfinished ...>" stitched
 * to the later "<... NAME resumed>REST" of the same pid, a process exit
 * "+++ ... +++", a signal "--- SIG... ---", or a strace message (on
 * stderr "strace: Process N attached" can cut a line in two: joined).  The
 * calls read are openat, open, creat, close, dup, dup2, dup3, pwrite64,
 * write, pwritev, pwritev2 (RWF_ names or numbers), writev, pread64,
 * read, preadv, preadv2, readv, lseek, fsync, fdatasync,
 * sync_file_range, ftruncate, fallocate (PUNCH_HOLE, KEEP_SIZE,
 * ZERO_RANGE), and mmap/munmap of MAP_SHARED file mappings; every other
 * line is counted as skipped with its reason.  An fd's file comes from
 * -y (`3</path>`), else from the openat/dup that returned it; a
 * position-less write or read uses the position the trace gave the fd
 * (open, O_APPEND, lseek's recorded result, the recorded byte counts).
 * Recorded results are kept (`-1 EAGAIN` as -EAGAIN).
 *
 * Not visible to strace, so not in the records: io_uring SQEs (offsets,
 * lengths and flags of io_uring I/O: io_uring_enter is counted as
 * skipped, with that reason), stores through a shared mapping, the data
 * written.  Left out: -r relative timestamps and -t without fractions
 * (an error says which options to use), -X raw/verbose flag printing,
 * fd tables per process (strace does not say which pids share one: fd
 * numbers are tracked across the whole trace, -y paths are exact).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tools/trace/internal.h"

#define ARGS_MAX	8
#define PENDING_MAX	1024
#define FDS_MAX		4096
#define MAPS_MAX	256

struct tok {
	const char *s;
	size_t n;
	uint32_t col;
};

struct pending {
	bool used;
	uint64_t pid;
	char name[32];
	uint64_t ts_ns;
	uint32_t line;
	uint32_t col;		/* of NAME in the entry line */
	char *text;		/* "NAME(ARGS" without "<unfinished ...>" */
};

struct fdent {
	bool open;
	bool opened;		/* by an open in the trace: file is set */
	int32_t file;		/* -1: not a file that may be modelled */
	bool regular;
	uint32_t oflags;
	int64_t pos;
	char path[TRACE_PATH_MAX + 1];
};

struct mapent {
	bool used;
	uint64_t addr;
	uint64_t len;
	int32_t file;
};

struct st {
	const char *name;
	const struct trace_options *opt;
	struct trace *t;
	struct trace_error *err;
	uint32_t line;
	uint32_t base_col;	/* column of the text being parsed, -1 */
	bool have_t0;
	uint64_t t0_ns, last_ns, day_ns;
	struct pending *pend;	/* [npend], grown on demand */
	int npend;
	struct fdent **fds;	/* [nfds], grown on demand */
	int nfds;
	struct mapent maps[MAPS_MAX];
	char cwd[TRACE_PATH_MAX + 1];
	/* A line cut by "strace: Process N attached" (trace_strace_feed):
	 * its text, length and where the message starts. */
	char *held;
	size_t held_n, held_cut;
};

/* ---- errors --------------------------------------------------------- */

static int bad(struct st *s, uint32_t col, const char *what, const char *p,
	       size_t n)
{
	char f[128];

	if (s->opt && s->opt->skip_bad) {
		s->t->bad_lines++;
		trace_count_add(s->t, "(malformed)",
				"malformed line (--skip-bad)", 1);
		return 1;	/* skipped */
	}
	trace_found(f, sizeof(f), p, n);
	return trace_error_at(s->err, s->name, s->line, col,
			      "expected %s, found %s", what, f);
}

/* A bad argument already reported by bad(): stop, or skip the line. */
#define FAIL(s) ((s)->opt && (s)->opt->skip_bad ? 1 : -1)

/* ---- lexing --------------------------------------------------------- */

static size_t skip_string(const char *p, size_t i, size_t n)
{
	i++;			/* the opening quote */
	while (i < n && p[i] != '"') {
		if (p[i] == '\\' && i + 1 < n)
			i++;
		i++;
	}
	return i < n ? i + 1 : n + 1;	/* n + 1: unterminated */
}

/*
 * Split "ARGS)" from @p into top-level arguments; *close is set to the
 * index of the closing parenthesis.  '<' opens a -y path after a digit
 * or AT_FDCWD's 'D', closed by '>' before ',', ')' or a blank.
 * Return: the argument count, or -1 (unbalanced; *close is where).
 */
static int split_args(const char *p, size_t n, struct tok *args, int max,
		      size_t *close)
{
	int depth = 0, na = 0;
	size_t start = 0, i = 0;

	while (i < n) {
		char c = p[i];

		if (c == '"') {
			i = skip_string(p, i, n);
			if (i > n) {
				*close = n;
				return -1;
			}
			continue;
		}
		if (c == '<' && i > 0 && (isdigit((unsigned char)p[i - 1]) ||
					  p[i - 1] == 'D')) {
			size_t j = i + 1;

			while (j < n && !(p[j] == '>' && (j + 1 == n ||
				strchr(",)]} (", p[j + 1]))))
				j++;
			if (j == n) {
				*close = n;
				return -1;
			}
			i = j + 1;
			continue;
		}
		if (c == '(' || c == '[' || c == '{') {
			depth++;
		} else if (c == ']' || c == '}') {
			depth--;
		} else if (c == ')') {
			if (depth == 0) {
				if (na < max && (i > start || na > 0)) {
					args[na].s = p + start;
					args[na].n = i - start;
					na++;
				}
				*close = i;
				return na;
			}
			depth--;
		} else if (c == ',' && depth == 0) {
			if (na < max) {
				args[na].s = p + start;
				args[na].n = i - start;
			}
			na++;
			start = i + 1;
		}
		if (depth < 0) {
			*close = i;
			return -1;
		}
		i++;
	}
	*close = n;
	return -1;
}

static void trim(struct tok *t)
{
	while (t->n && isspace((unsigned char)t->s[0])) {
		t->s++;
		t->n--;
	}
	while (t->n && isspace((unsigned char)t->s[t->n - 1]))
		t->n--;
}

static bool tok_is(const struct tok *t, const char *w)
{
	return t->n == strlen(w) && !memcmp(t->s, w, t->n);
}

/* A decimal (optionally negative) or 0x hex integer, the whole token. */
static bool tok_int(const struct tok *t, int64_t *out)
{
	size_t i = 0;
	bool neg = false;
	uint64_t v = 0;

	if (i < t->n && t->s[i] == '-') {
		neg = true;
		i++;
	}
	if (i == t->n)
		return false;
	if (t->n - i > 2 && t->s[i] == '0' && (t->s[i + 1] == 'x')) {
		i += 2;
		for (; i < t->n; i++) {
			int d = isdigit((unsigned char)t->s[i]) ?
				t->s[i] - '0' :
				(t->s[i] >= 'a' && t->s[i] <= 'f') ?
				t->s[i] - 'a' + 10 : -1;

			if (d < 0 || v >> 60)
				return false;
			v = v * 16 + (uint64_t)d;
		}
	} else {
		for (; i < t->n; i++) {
			if (!isdigit((unsigned char)t->s[i]) ||
			    v > (UINT64_MAX - 9) / 10)
				return false;
			v = v * 10 + (uint64_t)(t->s[i] - '0');
		}
	}
	if (v > INT64_MAX)
		return false;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return true;
}

/* "N" or "N<path>" (-y); path empty when not decorated. */
static bool tok_fd(const struct tok *t, int64_t *fd, char *path, size_t len)
{
	struct tok num = *t;
	const char *lt = memchr(t->s, '<', t->n);

	path[0] = '\0';
	/* An unlinked file: "N</path>(deleted)". */
	if (num.n > 9 && !memcmp(num.s + num.n - 9, "(deleted)", 9))
		num.n -= 9;
	if (lt) {
		size_t pl;

		if (num.s[num.n - 1] != '>')
			return false;
		pl = num.n - (size_t)(lt - t->s) - 2;
		num.n = (size_t)(lt - t->s);
		if (pl >= len)
			pl = len - 1;
		memcpy(path, lt + 1, pl);
		path[pl] = '\0';
	}
	if (tok_is(&num, "AT_FDCWD")) {
		*fd = -100;
		return true;
	}
	return tok_int(&num, fd);
}

struct flagname {
	const char *name;
	uint32_t value;
};

/* NAME|NAME|0xN; a name not in @tab is an error. */
static bool tok_flags(const struct tok *tin, const struct flagname *tab,
		      uint32_t *out, struct tok *badpart)
{
	struct tok cut = *tin, *t = &cut;
	const char *cm = memmem(tin->s, tin->n, "/*", 2);
	size_t i = 0;
	uint32_t v = 0;

	/* strace 6.1 prints a flag it has no name for as "0x80 / * RWF_???
	 * * /" (a comment): the number is the value. */
	if (cm) {
		cut.n = (size_t)(cm - tin->s);
		while (cut.n && cut.s[cut.n - 1] == ' ')
			cut.n--;
	}

	while (i <= t->n) {
		size_t j = i;
		struct tok part;
		int64_t num;
		bool found = false;

		while (j < t->n && t->s[j] != '|')
			j++;
		part.s = t->s + i;
		part.n = j - i;
		part.col = 0;
		if (tok_int(&part, &num) && num >= 0 && num <= UINT32_MAX) {
			v |= (uint32_t)num;
			found = true;
		}
		for (size_t k = 0; !found && tab[k].name; k++) {
			if (tok_is(&part, tab[k].name)) {
				v |= tab[k].value;
				found = true;
			}
		}
		if (!found) {
			*badpart = part;
			return false;
		}
		i = j + 1;
	}
	*out = v;
	return true;
}

static const struct flagname rwf_names[] = {
	{ "RWF_HIPRI", TRACE_RWF_HIPRI }, { "RWF_DSYNC", TRACE_RWF_DSYNC },
	{ "RWF_SYNC", TRACE_RWF_SYNC }, { "RWF_NOWAIT", TRACE_RWF_NOWAIT },
	{ "RWF_APPEND", TRACE_RWF_APPEND },
	{ "RWF_NOAPPEND", TRACE_RWF_NOAPPEND },
	{ "RWF_ATOMIC", TRACE_RWF_ATOMIC },
	{ "RWF_DONTCACHE", TRACE_RWF_DONTCACHE },
	{ "RWF_UNCACHED", TRACE_RWF_DONTCACHE },
	{ NULL, 0 },
};

static const struct flagname sfr_names[] = {
	{ "SYNC_FILE_RANGE_WAIT_BEFORE", TRACE_SFR_WAIT_BEFORE },
	{ "SYNC_FILE_RANGE_WRITE", TRACE_SFR_WRITE },
	{ "SYNC_FILE_RANGE_WAIT_AFTER", TRACE_SFR_WAIT_AFTER },
	{ NULL, 0 },
};

static const struct flagname falloc_names[] = {
	{ "FALLOC_FL_KEEP_SIZE", TRACE_FALLOC_KEEP_SIZE },
	{ "FALLOC_FL_PUNCH_HOLE", TRACE_FALLOC_PUNCH_HOLE },
	{ "FALLOC_FL_ZERO_RANGE", TRACE_FALLOC_ZERO_RANGE },
	{ "FALLOC_FL_NO_HIDE_STALE", 0x04 },
	{ "FALLOC_FL_COLLAPSE_RANGE", 0x08 },
	{ "FALLOC_FL_INSERT_RANGE", 0x20 },
	{ "FALLOC_FL_UNSHARE_RANGE", 0x40 },
	{ NULL, 0 },
};

/* Open flags: only the ones the replay uses matter; others ignored. */
static uint32_t open_flags(const struct tok *t)
{
	static const struct flagname names[] = {
		{ "O_DIRECT", TRACE_O_DIRECT }, { "O_APPEND", TRACE_O_APPEND },
		{ "O_TRUNC", TRACE_O_TRUNC }, { "O_DSYNC", TRACE_O_DSYNC },
		{ "O_SYNC", TRACE_O_SYNC }, { "O_CREAT", TRACE_O_CREAT },
		{ "O_EXCL", TRACE_O_EXCL },
		{ NULL, 0 },
	};
	uint32_t v = 0;
	size_t i = 0;

	while (i < t->n) {
		size_t j = i;
		struct tok part;

		while (j < t->n && t->s[j] != '|')
			j++;
		part.s = t->s + i;
		part.n = j - i;
		for (size_t k = 0; names[k].name; k++)
			if (tok_is(&part, names[k].name))
				v |= names[k].value;
		i = j + 1;
	}
	return v;
}

/* Sum of iov_len=N in an iovec array. */
static uint64_t iov_sum(const struct tok *t)
{
	uint64_t sum = 0;

	for (size_t i = 0; i + 8 < t->n; i++) {
		if (memcmp(t->s + i, "iov_len=", 8))
			continue;
		i += 8;
		{
			uint64_t v = 0;

			while (i < t->n && isdigit((unsigned char)t->s[i]))
				v = v * 10 + (uint64_t)(t->s[i++] - '0');
			sum += v;
		}
	}
	return sum;
}

/* ---- the fd table and files ------------------------------------------ */

static bool regular_path(const char *p)
{
	static const char *const not_files[] = {
		"/dev/", "/proc/", "/sys/", "socket:", "pipe:", "anon_inode:",
		"/memfd:", "net:", NULL,
	};

	if (!p[0])
		return false;
	for (int i = 0; not_files[i]; i++)
		if (!strncmp(p, not_files[i], strlen(not_files[i])))
			return false;
	return true;
}

static struct fdent *fd_get(struct st *s, int64_t fd)
{
	if (fd < 0 || fd >= FDS_MAX)
		return NULL;
	/* Entries are allocated when an fd is first seen: most traces use
	 * a few fds, and an entry holds a path. */
	if (fd >= s->nfds) {
		int n = (int)fd + 16;

		s->fds = realloc(s->fds, (size_t)n * sizeof(*s->fds));
		if (!s->fds)
			abort();
		memset(s->fds + s->nfds, 0, (size_t)(n - s->nfds) *
		       sizeof(*s->fds));
		s->nfds = n;
	}
	if (!s->fds[fd]) {
		s->fds[fd] = calloc(1, sizeof(*s->fds[fd]));
		if (!s->fds[fd])
			abort();
	}
	return s->fds[fd];
}

/* The file of @fd: the -y path if given, else the table's. */
static int32_t fd_file(struct st *s, int64_t fd, const char *ypath,
		       const char **why)
{
	struct fdent *e = fd_get(s, fd);
	const char *path = ypath[0] ? ypath : (e && e->open ? e->path : "");

	/* The file an open in the trace named stays the fd's file when the
	 * path is unlinked or renamed (the inode follows the fd). */
	if (e && e->open && e->file >= 0 && e->opened)
		return e->file;
	if (!path[0]) {
		*why = "fd of unknown file (opened before the trace, or no "
		       "-y)";
		return -1;
	}
	if (!regular_path(path)) {
		*why = "not a regular file (device, pipe, socket, anon "
		       "inode, /proc)";
		return -1;
	}
	return trace_file_find(s->t, path, true);
}

static void resolve(struct st *s, const char *dirpath, const char *arg,
		    char *out, size_t len)
{
	if (arg[0] == '/' || !dirpath[0])
		snprintf(out, len, "%s", arg);
	else if (strlen(dirpath) + strlen(arg) + 2 <= len) {
		size_t d = strlen(dirpath);

		memcpy(out, dirpath, d);
		out[d] = '/';
		memcpy(out + d + 1, arg, strlen(arg) + 1);
	} else
		snprintf(out, len, "%s", arg);
	(void)s;
}

/* The quoted path argument, unescaped only for plain text. */
static void tok_path(const struct tok *t, char *out, size_t len)
{
	size_t o = 0;

	for (size_t i = 1; i + 1 < t->n && t->s[i] != '"' && o + 1 < len;
	     i++)
		out[o++] = t->s[i];
	out[o] = '\0';
}

/* ---- a complete call -------------------------------------------------- */

struct call {
	uint64_t pid;
	uint64_t ts_ns;
	uint64_t dur_ns;
	uint32_t line;
	const char *name;
	size_t name_len;
	struct tok args[ARGS_MAX];
	int nargs;
	bool has_ret;
	int64_t ret;
	char ret_path[TRACE_PATH_MAX + 1];
};

static const char *const skip_other = "not a file-I/O call wpsim replays";

/*
 * Why a call of the data path that the model does not run is skipped,
 * by name; every other call is skip_other.
 */
static const char *skip_reason(const char *name)
{
	if (!strcmp(name, "sync"))
		return "sync is not modelled (fs/sync.c ksys_sync: every "
		       "file system; syncfs is)";
	if (!strcmp(name, "msync"))
		return "msync is not modelled (mm/msync.c); strace shows "
		       "no stores into a mapping";
	if (!strcmp(name, "mremap") || !strcmp(name, "madvise"))
		return "not modelled (the model's shared mapping is the "
		       "whole file)";
	if (!strcmp(name, "copy_file_range") || !strcmp(name, "sendfile") ||
	    !strcmp(name, "splice"))
		return "in-kernel copies are not modelled";
	return skip_other;
}

static struct trace_rec *rec(struct st *s, const struct call *c,
			     const char *name, enum trace_op op, int32_t file)
{
	struct trace_rec *r = trace_rec_new(s->t, name);

	r->op = op;
	r->thread = trace_thread_find(s->t, c->pid);
	r->file = file;
	r->has_ret = c->has_ret;
	r->ret = c->ret;
	r->ts_ns = c->ts_ns;
	r->dur_ns = c->dur_ns;
	r->line = c->line;
	if (file >= 0)
		s->t->files[file].seen = true;
	trace_count_add(s->t, name, "", 1);
	return r;
}

static int argc_bad(struct st *s, const struct call *c, const char *name,
		    int want)
{
	char what[96];

	snprintf(what, sizeof(what), "%d arguments for %s", want, name);
	return bad(s, c->args[0].col ? c->args[0].col : 1, what,
		   c->nargs ? c->args[0].s : "", c->nargs ? c->args[0].n : 0);
}

static int arg_int(struct st *s, const struct call *c, int i, const char *what,
		   int64_t *v)
{
	if (!tok_int(&c->args[i], v))
		return bad(s, c->args[i].col, what, c->args[i].s,
			   c->args[i].n);
	return 0;
}

static int do_open(struct st *s, const struct call *c, const char *name)
{
	char path[TRACE_PATH_MAX + 1], dir[TRACE_PATH_MAX + 1] = "";
	struct tok flags = { "", 0, 0 };
	int pi = 0, rc;
	int64_t dfd;
	struct fdent *e;
	struct trace_rec *r;
	const char *why = NULL;
	int32_t file;

	if (!strcmp(name, "openat")) {
		if (c->nargs < 3)
			return argc_bad(s, c, name, 3);
		if (!tok_fd(&c->args[0], &dfd, dir, sizeof(dir)))
			return bad(s, c->args[0].col, "a directory fd",
				   c->args[0].s, c->args[0].n);
		pi = 1;
	} else if (c->nargs < 2) {
		return argc_bad(s, c, name, 2);
	}
	if (c->args[pi].n < 2 || c->args[pi].s[0] != '"')
		return bad(s, c->args[pi].col, "a quoted path",
			   c->args[pi].s, c->args[pi].n);
	if (strcmp(name, "creat"))
		flags = c->args[pi + 1];
	tok_path(&c->args[pi], path, sizeof(path));
	if (!c->has_ret || c->ret < 0) {
		char full[TRACE_PATH_MAX + 1];
		int32_t f;

		resolve(s, (pi && dfd != -100) ? dir : s->cwd, path, full,
			sizeof(full));
		if (pi && dfd == -100 && dir[0])
			resolve(s, dir, path, full, sizeof(full));
		f = regular_path(full) ? trace_file_find(s->t, full, true) : -1;
		if (f >= 0 && !s->t->files[f].seen) {
			s->t->files[f].seen = true;
			s->t->files[f].absent = c->has_ret && c->ret == -ENOENT;
		}
		trace_count_add(s->t, name, "failed open (recorded error)", 1);
		return 0;
	}
	e = fd_get(s, c->ret);
	if (!e) {
		trace_count_add(s->t, name, "fd beyond 4095", 1);
		return 0;
	}
	memset(e, 0, sizeof(*e));
	e->open = true;
	if (c->ret_path[0])
		snprintf(e->path, sizeof(e->path), "%s", c->ret_path);
	else
		resolve(s, dfd == -100 || !pi ? s->cwd : dir, path, e->path,
			sizeof(e->path));
	if (dir[0] && dfd == -100)
		snprintf(s->cwd, sizeof(s->cwd), "%s", dir);
	e->oflags = strcmp(name, "creat") ? open_flags(&flags) :
		    TRACE_O_CREAT | TRACE_O_TRUNC;
	e->pos = 0;
	file = fd_file(s, c->ret, e->path, &why);
	e->file = file;
	e->opened = true;
	if (file < 0) {
		trace_count_add(s->t, name, why, 1);
		return 0;
	}
	r = rec(s, c, name, TRACE_OP_OPEN, file);
	r->flags = e->oflags;
	r->offset = c->ret;
	rc = 0;
	if (e->oflags & TRACE_O_TRUNC) {
		s->t->files[file].written = true;
	}
	return rc;
}

static int do_call_counted(struct st *s, struct call *c);

/* The path argument @i (after an optional dir fd at @i - 1 when @at). */
static int namei_path(struct st *s, const struct call *c, int i, bool at,
		      char *out, size_t len)
{
	char dir[TRACE_PATH_MAX + 1] = "", path[TRACE_PATH_MAX + 1];
	int64_t dfd = -100;

	if (at && !tok_fd(&c->args[i - 1], &dfd, dir, sizeof(dir)))
		return bad(s, c->args[i - 1].col, "a directory fd",
			   c->args[i - 1].s, c->args[i - 1].n);
	if (c->args[i].n < 2 || c->args[i].s[0] != '"')
		return bad(s, c->args[i].col, "a quoted path", c->args[i].s,
			   c->args[i].n);
	tok_path(&c->args[i], path, sizeof(path));
	resolve(s, at && dfd != -100 ? dir : s->cwd, path, out, len);
	return 0;
}

/*
 * A path that no longer names file @f (unlinked, or replaced by a
 * rename): the file keeps its records under "PATH (WHY, line N)", so a
 * later create of PATH is another file, as it is another inode.
 */
static void file_unname(struct st *s, int32_t f, const char *why,
			uint32_t line)
{
	char old[TRACE_PATH_MAX + 1], now[TRACE_PATH_MAX + 1];

	snprintf(old, sizeof(old), "%s", s->t->files[f].path);
	snprintf(now, sizeof(now), "%.900s (%s, line %u)", old, why, line);
	trace_file_rename(s->t, f, now);
	/* The path names nothing now: a later create is a new file.  (The
	 * table may move: the index first.) */
	f = trace_file_find(s->t, old, true);
	s->t->files[f].absent = true;
}

/* unlink, unlinkat, rename, renameat, renameat2: of files the trace
 * opened; the record names the file (the inode), not the path. */
static int do_namei(struct st *s, const struct call *c, const char *name)
{
	char from[TRACE_PATH_MAX + 1], to[TRACE_PATH_MAX + 1];
	bool at = !strcmp(name, "unlinkat") || !strcmp(name, "renameat") ||
		  !strcmp(name, "renameat2");
	bool unlink = !strncmp(name, "unlink", 6);
	int want = unlink ? (at ? 3 : 1) : (at ? (name[8] == '2' ? 5 : 4) :
					     2);
	int32_t f, g;
	struct trace_rec *r;

	if (c->nargs != want)
		return argc_bad(s, c, name, want);
	if (namei_path(s, c, at ? 1 : 0, at, from, sizeof(from)))
		return FAIL(s);
	if (!unlink && namei_path(s, c, at ? 3 : 1, at, to, sizeof(to)))
		return FAIL(s);
	if (unlink && at && !tok_is(&c->args[2], "0")) {
		trace_count_add(s->t, name, "AT_REMOVEDIR: a directory", 1);
		return 0;
	}
	if (want == 5 && !tok_is(&c->args[4], "0") &&
	    !tok_is(&c->args[4], "RENAME_NOREPLACE")) {
		trace_count_add(s->t, name, "RENAME_EXCHANGE or "
				"RENAME_WHITEOUT (not modelled)", 1);
		return 0;
	}
	if (!c->has_ret || c->ret < 0) {
		/* An unlink's ENOENT says the path named nothing, as a
		 * failed open's does (fio unlinks its file before it
		 * creates it): a file first seen here did not exist. */
		if (unlink && c->has_ret && c->ret == -ENOENT &&
		    regular_path(from) &&
		    (f = trace_file_find(s->t, from, true)) >= 0 &&
		    !s->t->files[f].seen) {
			s->t->files[f].seen = true;
			s->t->files[f].absent = true;
		}
		trace_count_add(s->t, name, "failed (recorded error)", 1);
		return 0;
	}
	f = regular_path(from) ? trace_file_find(s->t, from, false) : -1;
	if (f < 0) {
		trace_count_add(s->t, name, "a file the trace never opened", 1);
		if (!unlink && regular_path(to) &&
		    (g = trace_file_find(s->t, to, false)) >= 0)
			file_unname(s, g, "replaced by a rename", c->line);
		return 0;
	}
	r = rec(s, c, name, unlink ? TRACE_OP_UNLINK : TRACE_OP_RENAME, f);
	r->offset = -1;
	if (unlink) {
		file_unname(s, f, "unlinked", c->line);
		return 0;
	}
	g = regular_path(to) ? trace_file_find(s->t, to, false) : -1;
	if (g == f)
		return 0;
	if (g >= 0) {
		r->offset = g;
		file_unname(s, g, "replaced by a rename", c->line);
	}
	trace_file_rename(s->t, f, to);
	return 0;
}

/* One call, its recorded duration counted with its row. */
static int do_call(struct st *s, struct call *c)
{
	int rc;

	s->t->count_dur_ns = c->dur_ns;
	rc = do_call_counted(s, c);
	s->t->count_dur_ns = TRACE_DUR_NONE;
	return rc;
}

static int do_call_counted(struct st *s, struct call *c)
{
	char name[32], ypath[TRACE_PATH_MAX + 1];
	int64_t fd = -1, a, b;
	const char *why = NULL;
	struct fdent *e;
	struct trace_rec *r;
	struct tok badpart;
	uint32_t flags;
	int32_t file;
	enum trace_op op;
	bool pos_less = false, vec = false, is_read = false;

	snprintf(name, sizeof(name), "%.*s", (int)c->name_len, c->name);
	s->t->records_read++;
	for (int i = 0; i < c->nargs && i < ARGS_MAX; i++)
		trim(&c->args[i]);
	if (!strncmp(name, "io_uring_", 9)) {
		trace_count_add(s->t, name, "io_uring: the SQEs (offsets, "
				"lengths, flags) are invisible to strace; "
				"record a fio iolog instead", 1);
		return 0;
	}
	if (!strcmp(name, "openat") || !strcmp(name, "open") ||
	    !strcmp(name, "creat"))
		return do_open(s, c, name);
	if (!strcmp(name, "mmap")) {
		int64_t len, prot_unused;
		struct tok *fl, *pr;

		if (c->nargs != 6)
			return argc_bad(s, c, name, 6);
		(void)prot_unused;
		pr = &c->args[2];
		fl = &c->args[3];
		if (!tok_fd(&c->args[4], &fd, ypath, sizeof(ypath)))
			return bad(s, c->args[4].col, "an fd", c->args[4].s,
				   c->args[4].n);
		if (fd < 0) {
			trace_count_add(s->t, name, "anonymous mapping", 1);
			return 0;
		}
		if (!memmem(fl->s, fl->n, "MAP_SHARED", 10)) {
			trace_count_add(s->t, name, "private mapping (stores "
					"never reach the file)", 1);
			return 0;
		}
		file = fd_file(s, fd, ypath, &why);
		if (file < 0) {
			trace_count_add(s->t, name, why, 1);
			return 0;
		}
		if (arg_int(s, c, 1, "a length", &len))
			return FAIL(s);
		if (!c->has_ret || c->ret == -1 || c->ret < -4095) {
			trace_count_add(s->t, name, "failed mmap", 1);
			return 0;
		}
		r = rec(s, c, name, TRACE_OP_MMAP, file);
		r->len = (uint64_t)len;
		if (memmem(pr->s, pr->n, "PROT_WRITE", 10))
			s->t->files[file].written = true;
		for (int i = 0; i < MAPS_MAX; i++) {
			if (!s->maps[i].used) {
				s->maps[i].used = true;
				s->maps[i].addr = (uint64_t)c->ret;
				s->maps[i].len = (uint64_t)len;
				s->maps[i].file = file;
				break;
			}
		}
		return 0;
	}
	if (!strcmp(name, "munmap")) {
		int64_t addr;

		if (c->nargs != 2)
			return argc_bad(s, c, name, 2);
		if (arg_int(s, c, 0, "an address", &addr))
			return FAIL(s);
		for (int i = 0; i < MAPS_MAX; i++) {
			if (s->maps[i].used && s->maps[i].addr ==
			    (uint64_t)addr) {
				s->maps[i].used = false;
				r = rec(s, c, name, TRACE_OP_MUNMAP,
					s->maps[i].file);
				r->len = s->maps[i].len;
				return 0;
			}
		}
		trace_count_add(s->t, name, "not a shared file mapping the "
				"trace made", 1);
		return 0;
	}
	if (!strcmp(name, "unlink") || !strcmp(name, "unlinkat") ||
	    !strcmp(name, "rename") || !strcmp(name, "renameat") ||
	    !strcmp(name, "renameat2"))
		return do_namei(s, c, name);
	/* Every other call we read takes an fd first. */
	if (!strcmp(name, "close") || !strcmp(name, "dup") ||
	    !strcmp(name, "dup2") || !strcmp(name, "dup3") ||
	    !strcmp(name, "pwrite64") || !strcmp(name, "write") ||
	    !strcmp(name, "pwritev") || !strcmp(name, "pwritev2") ||
	    !strcmp(name, "writev") || !strcmp(name, "pread64") ||
	    !strcmp(name, "read") || !strcmp(name, "preadv") ||
	    !strcmp(name, "preadv2") || !strcmp(name, "readv") ||
	    !strcmp(name, "lseek") || !strcmp(name, "fsync") ||
	    !strcmp(name, "fdatasync") || !strcmp(name, "sync_file_range") ||
	    !strcmp(name, "ftruncate") || !strcmp(name, "fallocate") ||
	    !strcmp(name, "syncfs")) {
		if (c->nargs < 1)
			return argc_bad(s, c, name, 1);
		if (!tok_fd(&c->args[0], &fd, ypath, sizeof(ypath)))
			return bad(s, c->args[0].col, "an fd", c->args[0].s,
				   c->args[0].n);
	} else {
		trace_count_add(s->t, name, skip_reason(name), 1);
		return 0;
	}
	e = fd_get(s, fd);
	if (!strcmp(name, "close")) {
		file = fd_file(s, fd, ypath, &why);
		if (e)
			e->open = false;
		if (file < 0) {
			trace_count_add(s->t, name, why, 1);
			return 0;
		}
		rec(s, c, name, TRACE_OP_CLOSE, file);
		return 0;
	}
	if (!strncmp(name, "dup", 3)) {
		struct fdent *n = c->has_ret && c->ret >= 0 ?
				  fd_get(s, c->ret) : NULL;

		file = fd_file(s, fd, ypath, &why);
		if (n && e) {
			*n = *e;
			if (ypath[0])
				snprintf(n->path, sizeof(n->path), "%s", ypath);
			n->open = true;
		}
		if (file < 0) {
			trace_count_add(s->t, name, why, 1);
			return 0;
		}
		rec(s, c, name, TRACE_OP_DUP, file);
		return 0;
	}
	file = fd_file(s, fd, ypath, &why);
	if (file < 0) {
		trace_count_add(s->t, name, why, 1);
		return 0;
	}
	if (e && !e->open) {
		/* An fd strace saw only through -y: start a table entry. */
		memset(e, 0, sizeof(*e));
		e->open = true;
		snprintf(e->path, sizeof(e->path), "%s",
			 s->t->files[file].path);
	}
	if (!strcmp(name, "fsync") || !strcmp(name, "fdatasync")) {
		rec(s, c, name, name[1] == 's' ? TRACE_OP_FSYNC :
		    TRACE_OP_FDATASYNC, file);
		return 0;
	}
	/* syncfs(fd): the file system of the fd's file (the model's one
	 * XFS); an fd of a directory or a device is fd_file's skip. */
	if (!strcmp(name, "syncfs")) {
		rec(s, c, name, TRACE_OP_SYNCFS, file);
		return 0;
	}
	if (!strcmp(name, "lseek")) {
		if (c->nargs != 3)
			return argc_bad(s, c, name, 3);
		r = rec(s, c, name, TRACE_OP_LSEEK, file);
		if (c->has_ret && c->ret >= 0 && e)
			e->pos = c->ret;
		r->offset = c->has_ret ? c->ret : -1;
		return 0;
	}
	if (!strcmp(name, "sync_file_range")) {
		if (c->nargs != 4)
			return argc_bad(s, c, name, 4);
		if (arg_int(s, c, 1, "an offset", &a) ||
		    arg_int(s, c, 2, "a length", &b))
			return FAIL(s);
		if (!tok_flags(&c->args[3], sfr_names, &flags, &badpart))
			return bad(s, c->args[3].col, "SYNC_FILE_RANGE_ flags "
				   "or a number", badpart.s, badpart.n);
		r = rec(s, c, name, TRACE_OP_SYNC_FILE_RANGE, file);
		r->offset = a;
		r->len = (uint64_t)b;
		r->flags = flags;
		return 0;
	}
	if (!strcmp(name, "ftruncate")) {
		if (c->nargs != 2)
			return argc_bad(s, c, name, 2);
		if (arg_int(s, c, 1, "a length", &a))
			return FAIL(s);
		r = rec(s, c, name, TRACE_OP_FTRUNCATE, file);
		r->offset = a;
		s->t->files[file].written = true;
		if ((uint64_t)a > s->t->files[file].max_end)
			s->t->files[file].max_end = (uint64_t)a;
		return 0;
	}
	if (!strcmp(name, "fallocate")) {
		if (c->nargs != 4)
			return argc_bad(s, c, name, 4);
		if (!tok_flags(&c->args[1], falloc_names, &flags, &badpart))
			return bad(s, c->args[1].col, "FALLOC_FL_ flags or a "
				   "number", badpart.s, badpart.n);
		if (arg_int(s, c, 2, "an offset", &a) ||
		    arg_int(s, c, 3, "a length", &b))
			return FAIL(s);
		r = rec(s, c, name, TRACE_OP_FALLOCATE, file);
		r->offset = a;
		r->len = (uint64_t)b;
		r->flags = flags;
		s->t->files[file].written = true;
		if ((uint64_t)(a + b) > s->t->files[file].max_end &&
		    !(flags & TRACE_FALLOC_KEEP_SIZE))
			s->t->files[file].max_end = (uint64_t)(a + b);
		return 0;
	}
	/* Reads and writes. */
	is_read = strstr(name, "read") != NULL;
	op = is_read ? TRACE_OP_READ : TRACE_OP_WRITE;
	vec = strchr(name, 'v') != NULL && strcmp(name, "pread64") &&
	      strcmp(name, "pwrite64");
	pos_less = !strcmp(name, "write") || !strcmp(name, "read") ||
		   !strcmp(name, "writev") || !strcmp(name, "readv");
	{
		int want = pos_less ? 3 : (!strcmp(name, "pwritev2") ||
					   !strcmp(name, "preadv2")) ? 5 : 4;
		uint64_t len;
		int64_t off = -1;

		if (c->nargs != want)
			return argc_bad(s, c, name, want);
		if (vec) {
			len = iov_sum(&c->args[1]);
		} else {
			if (arg_int(s, c, 2, "a byte count", &a))
				return FAIL(s);
			len = (uint64_t)a;
		}
		if (!pos_less && arg_int(s, c, 3, "an offset", &off))
			return FAIL(s);
		flags = 0;
		if (want == 5 && !tok_flags(&c->args[4], rwf_names, &flags,
					    &badpart))
			return bad(s, c->args[4].col, "RWF_ flags or a number",
				   badpart.s, badpart.n);
		if (e && (e->oflags & TRACE_O_DIRECT))
			flags |= TRACE_IO_ODIRECT;
		if (e && !is_read && (e->oflags & TRACE_O_SYNC))
			flags |= TRACE_RWF_SYNC;
		else if (e && !is_read && (e->oflags & TRACE_O_DSYNC))
			flags |= TRACE_RWF_DSYNC;
		if (vec && c->has_ret && c->ret >= 0 && (uint64_t)c->ret > len)
			len = (uint64_t)c->ret;
		if (off == -1 || pos_less) {
			/* Position-less: the fd's position (pwritev2 -1 as
			 * well); O_APPEND writes go to the end. */
			off = e ? e->pos : 0;
			if (!is_read && e && (e->oflags & TRACE_O_APPEND))
				off = (int64_t)s->t->files[file].max_end;
			if (e && c->has_ret && c->ret > 0)
				e->pos = off + c->ret;
		}
		r = rec(s, c, name, op, file);
		r->offset = off;
		r->len = len;
		r->flags = flags;
		if (!is_read)
			s->t->files[file].written = true;
		if (off >= 0 && (uint64_t)off + len >
		    s->t->files[file].max_end && (!is_read || (c->has_ret &&
		    c->ret > 0)))
			s->t->files[file].max_end = (uint64_t)off + len;
	}
	return 0;
}

/* "= RET [(TEXT)] [<DUR>]" from @p (after the closing parenthesis). */
static int parse_ret(struct st *s, struct call *c, const char *p, size_t n,
		     uint32_t col)
{
	size_t i = 0;

	while (i < n && p[i] == ' ')
		i++;
	if (i >= n || p[i] != '=')
		return bad(s, col + (uint32_t)i, "' = ' and the result",
			   p + i, n - i);
	i++;
	while (i < n && p[i] == ' ')
		i++;
	c->has_ret = false;
	c->ret_path[0] = '\0';
	if (i < n && p[i] == '?') {
		i++;
	} else {
		struct tok t = { p + i, 0, col + (uint32_t)i };
		size_t j = i;

		while (j < n && p[j] != ' ' && p[j] != '<')
			j++;
		t.n = j - i;
		if (!tok_int(&t, &c->ret))
			return bad(s, col + (uint32_t)i, "a result (a number, "
				   "-1 ERRNO, or ?)", p + i, j - i);
		c->has_ret = true;
		i = j;
		if (i < n && p[i] == '<') {
			const char *gt = memchr(p + i, '>', n - i);
			size_t pl;

			while (gt && gt + 1 < p + n && gt[1] != ' ')
				gt = memchr(gt + 1, '>', (size_t)(p + n -
								  gt - 1));
			if (!gt)
				return bad(s, col + (uint32_t)i, "'>' closing "
					   "the result's path", p + i, n - i);
			pl = (size_t)(gt - p - i - 1);
			if (pl >= sizeof(c->ret_path))
				pl = sizeof(c->ret_path) - 1;
			memcpy(c->ret_path, p + i + 1, pl);
			c->ret_path[pl] = '\0';
			i = (size_t)(gt - p) + 1;
		}
		if (c->ret == -1 && i + 1 < n && p[i] == ' ' &&
		    isupper((unsigned char)p[i + 1])) {
			size_t k = i + 1, e = k;
			char en[32];

			while (e < n && (isupper((unsigned char)p[e]) ||
					 isdigit((unsigned char)p[e])))
				e++;
			snprintf(en, sizeof(en), "%.*s", (int)(e - k), p + k);
			for (int v = 1; v < 200; v++) {
				const char *nm = strerrorname_np(v);

				if (nm && !strcmp(nm, en)) {
					c->ret = -v;
					break;
				}
			}
			if (c->ret == -1 && strcmp(en, "EPERM"))
				return bad(s, col + (uint32_t)k, "an errno "
					   "name", p + k, e - k);
			i = e;
		}
	}
	/* The rest: optional "(text)", "ERESTART..." etc., then "<dur>". */
	c->dur_ns = TRACE_DUR_NONE;
	while (n > i && p[n - 1] == ' ')
		n--;
	if (n > i && p[n - 1] == '>') {
		const char *lt = NULL;

		for (size_t k = n - 1; k > i; k--) {
			if (p[k - 1] == '<') {
				lt = p + k - 1;
				break;
			}
		}
		if (lt) {
			uint64_t sec = 0, frac = 0, scale = 1000000000ull;
			const char *q = lt + 1;

			if (!strncmp(q, "unavailable", 11))
				return 0;
			while (isdigit((unsigned char)*q))
				sec = sec * 10 + (uint64_t)(*q++ - '0');
			if (*q == '.') {
				q++;
				while (isdigit((unsigned char)*q)) {
					if (scale > 1) {
						scale /= 10;
						frac += (uint64_t)(*q - '0') *
							scale;
					}
					q++;
				}
			}
			if (*q != '>')
				return bad(s, col + (uint32_t)(lt - p),
					   "a duration <S.FRACTION> (strace "
					   "-T)", lt, (size_t)(p + n - lt));
			c->dur_ns = sec * 1000000000ull + frac;
		}
	}
	return 0;
}

/* "NAME(ARGS) = RET..." */
static int parse_call(struct st *s, struct call *c, const char *p, size_t n,
		      uint32_t col)
{
	size_t i = 0, close;
	int na;

	while (i < n && (isalnum((unsigned char)p[i]) || p[i] == '_'))
		i++;
	if (!i || i >= n || p[i] != '(')
		return bad(s, col + (uint32_t)i, "a system call NAME(ARGS)",
			   p + i, n - i);
	c->name = p;
	c->name_len = i;
	na = split_args(p + i + 1, n - i - 1, c->args, ARGS_MAX, &close);
	if (na < 0)
		return bad(s, col + (uint32_t)(i + 1 + close), "balanced "
			   "arguments closed by ')'", p + i + 1 + close,
			   n - i - 1 - close);
	c->nargs = na;
	for (int k = 0; k < na && k < ARGS_MAX; k++)
		c->args[k].col = col + (uint32_t)(c->args[k].s - p);
	if (na > ARGS_MAX)
		c->nargs = ARGS_MAX + 1;
	return parse_ret(s, c, p + i + 2 + close, n - i - 2 - close,
			 col + (uint32_t)(i + 2 + close));
}

/* Timestamp: HH:MM:SS.frac (-tt), or EPOCH.frac (-ttt); ns. */
static int parse_ts(struct st *s, const char *p, size_t n, size_t *used,
		    uint64_t *ns)
{
	size_t i = 0;
	uint64_t v = 0, frac = 0, scale = 1000000000ull;

	while (i < n && isdigit((unsigned char)p[i]) && i < 12)
		v = v * 10 + (uint64_t)(p[i++] - '0');
	if (i == 2 && i < n && p[i] == ':') {
		uint64_t h = v, m = 0, sec = 0;

		if (n < 8 || !isdigit((unsigned char)p[3]) ||
		    !isdigit((unsigned char)p[4]) || p[5] != ':' ||
		    !isdigit((unsigned char)p[6]) ||
		    !isdigit((unsigned char)p[7]))
			return -1;
		m = (uint64_t)((p[3] - '0') * 10 + (p[4] - '0'));
		sec = (uint64_t)((p[6] - '0') * 10 + (p[7] - '0'));
		v = (h * 3600 + m * 60 + sec);
		i = 8;
	} else if (!i) {
		return -1;
	}
	if (i >= n || p[i] != '.')
		return -1;	/* -t without fractions, -r: not read */
	i++;
	{
		size_t f0 = i;

		while (i < n && isdigit((unsigned char)p[i])) {
			if (scale > 1) {
				scale /= 10;
				frac += (uint64_t)(p[i] - '0') * scale;
			}
			i++;
		}
		if (i == f0)
			return -1;
	}
	if (i >= n || p[i] != ' ')
		return -1;
	*used = i + 1;
	*ns = v * 1000000000ull + frac;
	(void)s;
	return 0;
}

static uint64_t rel_ts(struct st *s, uint64_t ns, bool wall)
{
	ns += s->day_ns;
	/* -tt is wall-clock time of day: a jump back over 12 hours is
	 * midnight. */
	if (wall && s->have_t0 && ns + 43200000000000ull < s->last_ns) {
		s->day_ns += 86400000000000ull;
		ns += 86400000000000ull;
	}
	if (!s->have_t0) {
		s->have_t0 = true;
		s->t0_ns = ns;
	}
	if (ns > s->last_ns)
		s->last_ns = ns;
	return ns >= s->t0_ns ? ns - s->t0_ns : 0;
}

static int strace_line(struct st *s, const char *p, size_t n)
{
	size_t i = 0, used;
	uint64_t pid = 0, ts;
	struct call c;
	bool wall;

	memset(&c, 0, sizeof(c));
	if (n >= 5 && !memcmp(p, "[pid", 4)) {
		i = 4;
		while (i < n && p[i] == ' ')
			i++;
		while (i < n && isdigit((unsigned char)p[i]))
			pid = pid * 10 + (uint64_t)(p[i++] - '0');
		if (i >= n || p[i] != ']' || i + 1 >= n || p[i + 1] != ' ')
			return bad(s, (uint32_t)i + 1, "'[pid N] '", p + i,
				   n - i);
		i += 2;
	} else {
		size_t j = 0;

		while (j < n && isdigit((unsigned char)p[j]))
			j++;
		if (j && j < n && p[j] == ' ') {
			for (size_t k = 0; k < j; k++)
				pid = pid * 10 + (uint64_t)(p[k] - '0');
			i = j;
			while (i < n && p[i] == ' ')
				i++;
		}
	}
	if (n - i >= 8 && !memcmp(p + i, "strace: ", 8)) {
		trace_count_add(s->t, "(strace)", "strace's own "
				"message", 1);
		return 0;
	}
	wall = n - i > 2 && p[i + 2] == ':';
	if (parse_ts(s, p + i, n - i, &used, &ts))
		return bad(s, (uint32_t)i + 1, "a timestamp HH:MM:SS.UUUUUU "
			   "(strace -tt) or SECONDS.UUUUUU (-ttt)", p + i,
			   n - i);
	i += used;
	ts = rel_ts(s, ts, wall);
	c.pid = pid;
	c.ts_ns = ts;
	c.line = s->line;
	if (n - i >= 3 && !memcmp(p + i, "+++", 3)) {
		trace_count_add(s->t, "(exit)", "process exit line, not a "
				"system call", 1);
		return 0;
	}
	if (n - i >= 3 && !memcmp(p + i, "---", 3)) {
		trace_count_add(s->t, "(signal)", "signal delivery line, not "
				"a system call", 1);
		return 0;
	}
	if (n - i >= 5 && !memcmp(p + i, "<... ", 5)) {
		/* "<... NAME resumed>REST": stitch. */
		size_t k = i + 5, e;
		char name[32];
		struct pending *pe = NULL;
		char *full;
		size_t fl;
		int rc;

		e = k;
		while (e < n && (isalnum((unsigned char)p[e]) || p[e] == '_'))
			e++;
		if (e - k >= sizeof(name) || n - e < 9 ||
		    memcmp(p + e, " resumed>", 9))
			return bad(s, (uint32_t)e + 1, "'<... NAME resumed>'",
				   p + e, n - e);
		snprintf(name, sizeof(name), "%.*s", (int)(e - k), p + k);
		for (int q = 0; q < s->npend; q++) {
			if (s->pend[q].used && s->pend[q].pid == pid &&
			    !strcmp(s->pend[q].name, name)) {
				pe = &s->pend[q];
				break;
			}
		}
		if (!pe) {
			trace_count_add(s->t, name, "resumed without its "
					"entry (trace started mid-call)", 1);
			return 0;
		}
		e += 9;
		fl = strlen(pe->text) + (n - e);
		full = malloc(fl + 1);
		memcpy(full, pe->text, strlen(pe->text));
		memcpy(full + strlen(pe->text), p + e, n - e);
		full[fl] = '\0';
		c.ts_ns = pe->ts_ns;
		c.line = pe->line;
		pe->used = false;
		free(pe->text);
		pe->text = NULL;
		/* Errors point into the resumed line: columns past the
		 * entry's text are mapped back to it. */
		rc = parse_call(s, &c, full, fl, pe->col);
		if (!rc)
			rc = do_call(s, &c);
		free(full);
		return rc < 0 ? -1 : 0;
	}
	if (n - i >= 16 && !memcmp(p + n - 16, "<unfinished ...>", 16)) {
		struct pending *pe = NULL;
		size_t k = i;

		while (k < n && (isalnum((unsigned char)p[k]) || p[k] == '_'))
			k++;
		if (k == i || k >= n || p[k] != '(' || k - i >= 32)
			return bad(s, (uint32_t)i + 1, "a system call "
				   "NAME(ARGS", p + i, n - i);
		for (int q = 0; q < s->npend; q++) {
			if (!s->pend[q].used) {
				pe = &s->pend[q];
				break;
			}
		}
		if (!pe && s->npend < PENDING_MAX) {
			s->pend = realloc(s->pend, (size_t)(s->npend + 1) *
					  sizeof(*s->pend));
			if (!s->pend)
				abort();
			pe = &s->pend[s->npend++];
		}
		if (!pe)
			return bad(s, (uint32_t)i + 1, "at most 1024 "
				   "unfinished calls at once", p + i, n - i);
		pe->used = true;
		pe->pid = pid;
		snprintf(pe->name, sizeof(pe->name), "%.*s", (int)(k - i),
			 p + i);
		pe->ts_ns = ts;
		pe->line = s->line;
		pe->col = (uint32_t)i + 1;
		pe->text = malloc(n - 16 - i + 1);
		memcpy(pe->text, p + i, n - 16 - i);
		pe->text[n - 16 - i] = '\0';
		return 0;
	}
	{
		int rc = parse_call(s, &c, p + i, n - i, (uint32_t)i + 1);

		if (rc)
			return rc < 0 ? -1 : 0;
		return do_call(s, &c) < 0 ? -1 : 0;
	}
}

/* Records on files the trace never writes are inputs, not data. */
static void drop_inputs(struct trace *t)
{
	for (uint32_t i = 0; i < t->nrec; i++) {
		struct trace_rec *r = &t->recs[i];

		if (r->file >= 0 && !t->files[r->file].written)
			trace_drop(t, i, "a file the trace never writes (an "
				   "input: library, configuration, "
				   "directory)");
	}
}

struct st *trace_strace_begin(const char *name,
			      const struct trace_options *opt,
			      struct trace *t, struct trace_error *err)
{
	struct st *s = calloc(1, sizeof(*s));

	if (!s)
		abort();
	s->name = name;
	s->opt = opt;
	s->t = t;
	s->err = err;
	snprintf(t->source, sizeof(t->source), "%s", name);
	t->format = TRACE_FORMAT_STRACE;
	return s;
}

/*
 * One line (without its newline): 0, or -1 with the error set.  A line
 * strace's "Process N attached" cut (stderr, no -o) is held until the
 * next line, which completes it; at the end of the text it is read as
 * it is (trace_strace_end).
 */
int trace_strace_feed(struct st *s, const char *line, size_t n)
{
	struct trace *t = s->t;

	if (s->held) {
		/* The line after a cut one: joined to it, as it is. */
		size_t n1 = s->held_cut;
		char *j = malloc(n1 + n + 1);
		int r;

		if (!j)
			abort();
		t->lines++;
		memcpy(j, s->held, n1);
		memcpy(j + n1, line, n);
		j[n1 + n] = '\0';
		free(s->held);
		s->held = NULL;
		trace_count_add(t, "(strace)", "strace's own message", 1);
		r = strace_line(s, j, n1 + n);
		s->line++;
		free(j);
		return r < 0 ? -1 : 0;
	}
	s->line++;
	t->lines++;
	if (n && line[n - 1] == '\r')
		n--;
	if (!n)
		return 0;
	if (n > TRACE_LINE_MAX || memchr(line, '\0', n)) {
		if (bad(s, 1, "a line of text (at most 65535 bytes, "
			"no NUL)", line, n > 24 ? 24 : n) < 0)
			return -1;
		return 0;
	}
	{
		/* strace on stderr (no -o) can print "strace: Process
		 * N attached" in the middle of a line, which then goes
		 * on on the next: join the two (counted). */
		const char *m = n > 25 ? memmem(line, n,
			"strace: Process ", 16) : NULL;

		if (m && m > line && n >= 9 &&
		    !memcmp(line + n - 9, " attached", 9)) {
			s->held = malloc(n + 1);
			if (!s->held)
				abort();
			memcpy(s->held, line, n);
			s->held[n] = '\0';
			s->held_n = n;
			s->held_cut = (size_t)(m - line);
			return 0;
		}
	}
	return strace_line(s, line, n) < 0 ? -1 : 0;
}

/*
 * The end of the text (@rc: 0, or -1 after an error): a held line read
 * as it is, the calls never resumed counted, the records of files the
 * trace never writes dropped (not with a sink: its owner does that);
 * @s freed.  Return: 0, or -1.
 */
int trace_strace_end(struct st *s, int rc)
{
	struct trace *t = s->t;

	if (s->held) {
		if (!rc && strace_line(s, s->held, s->held_n) < 0)
			rc = -1;
		trace_sink_flush(t);
		free(s->held);
	}
	for (int q = 0; q < s->npend; q++) {
		if (!s->pend[q].used)
			continue;
		if (!rc) {
			t->records_read++;
			trace_count_add(t, s->pend[q].name, "unfinished, never "
					"resumed (the process ended in it)", 1);
		}
		free(s->pend[q].text);
	}
	if (!rc && !t->sink)
		drop_inputs(t);
	for (int i = 0; i < s->nfds; i++)
		free(s->fds[i]);
	free(s->fds);
	free(s->pend);
	free(s);
	return rc;
}

int trace_parse_strace(const char *name, const char *text, size_t len,
		       const struct trace_options *opt, struct trace *t,
		       struct trace_error *err)
{
	struct st *s = trace_strace_begin(name, opt, t, err);
	size_t pos = 0;
	int rc = 0;

	while (pos < len && !rc) {
		const char *line = text + pos;
		const char *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos;

		pos += n + (nl ? 1 : 0);
		rc = trace_strace_feed(s, line, n);
		trace_sink_flush(t);
	}
	return trace_strace_end(s, rc);
}
