// SPDX-License-Identifier: MIT
/*
 * tools/wpsim/replay.c - `wpsim replay TRACE`: a real trace (strace text
 * or a fio iolog, imported by tools/trace/) run against the model.
 *
 * Timed mode (the default): one model task per traced thread issues
 * that thread's calls in order, each after the recorded think time (the
 * gap between the end of its previous call and this call's entry; fio
 * iologs: fio's own delay rule, replay_no_stall and replay_time_scale),
 * on the model's XFS buffered path over the timed device of --device,
 * with a flusher task as in `wpsim fio`; then fio-style totals and the
 * validation table: per syscall the recorded and the model's median
 * duration and the median and p90 of model/recorded, and with --calls
 * every call's recorded duration beside the model's.  --compare runs the
 * trace once per variant and prints the totals side by side.  The same
 * runner gives `wpsim fio --read_iolog` (wpsim_fio_replay_iolog()).
 *
 * Explore mode (--explore): the calls of a window (--from/--to, or
 * --window K: the K calls before and after each sync point, and the
 * sync) become a scenario (tools/litmus language): one thread per traced
 * thread, plus the flusher as a thread, over the first --pages N pages
 * the window touches (renumbered from page 0; calls cut to them, as
 * DPOR's cost grows fast with pages), with the state the trace left them
 * in (written before and not synced: dirty), and the condition: no
 * violation of the model's invariants, no lost data (f.lost_sectors),
 * every call returns what the kernel returned in the trace.  It is
 * checked with DPOR (`wpsim check`'s machinery) under --variant;
 * --emit-scenario writes it for a user to edit and keep.
 *
 * Files have no bound: each trace file is a model inode, those the
 * trace creates added to the world at their first call.  What the model
 * has not, each record is skipped and counted with the reason
 * (`--summary` lists them): offsets beyond the model's largest file
 * (M_FILE_PAGES_LIMIT, 1 TiB), O_DIRECT I/O (the model's direct path is
 * ext4's), RWF_HIPRI, RWF_APPEND, RWF_ATOMIC (not replayed:
 * docs/model/atomic-write.md), FALLOC_FL_ZERO_RANGE and
 * other fallocate modes, writes longer than 64 KiB, iolog trims (fio's
 * trim is BLKDISCARD, which a regular file refuses; `wpsim fio
 * --read_iolog` with ioengine=null runs every line, no file, no model
 * call: fio's null engine, its own work per I/O only).  A window of
 * --explore holds at most M_FILES_MAX files (a scenario's).  The traced file system (ext4 on
 * this machine) is replayed on the model's XFS: docs/traces.md.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "model/fs/xfs.h"
#include "model/linux/mm.h"
#include "model/hw/nvme.h"
#include "model/linux/fs.h"
#include "model/linux/syscalls.h"
#include "model/linux/writeback.h"
#include "model/observe.h"
#include "model/world.h"
#include "sim/arena.h"
#include "sim/clock.h"
#include "sim/engine.h"
#include "sim/strategy.h"
#include "tools/fio/fio.h"
#include "tools/profiles.h"
#include "tools/wpsim/fio-run.h"
#include "tools/wpsim/replay.h"
#include "tools/wpsim/scenario.h"
#include "tools/wpsim/timed-run.h"
#include "wpsim/trace.h"

/*
 * Replay's own bounds are the model's: files of at most
 * M_FILE_PAGES_LIMIT pages (replay_file_pages_limit), write lengths the
 * model's bios hold, SIM_TASKS_LIMIT tasks.  Files have no bound: one
 * model inode per trace file, added to the world when the trace creates
 * it (plan_slots).  Every record within them is replayed.
 */
#define REPLAY_WINDOW_PAGES	64	/* --pages: DPOR's own bound */

#define EXIT_USAGE		2
#define REPLAY_CPUS_DEFAULT	TIMED_RUN_CPUS_DEFAULT
#define REPLAY_VARIANTS_MAX	8
#define REPLAY_WRITE_MAX	(16 * PAGE_SIZE)
#define REPLAY_READ_MAX		(256 * PAGE_SIZE)
/* Traced threads: the engine's tasks less the flusher, kworkers and
 * io-wq workers (as wpsim fio's jobs). */
#define REPLAY_THREADS_MAX	999
/* The machine (--ram) and the kernel's vm.dirty_* defaults, as wpsim
 * fio's (mm/page-writeback.c, v6.18: dirty_ratio 20, background 10). */
#define REPLAY_RAM_DEFAULT	(16ull << 30)
#define REPLAY_DIRTY_RATIO	20
#define REPLAY_DIRTY_BG_RATIO	10
/* Progress on stderr every this many records, at most every 2 s. */
#define REPLAY_PROGRESS_RECS	65536u

/* A record read by the run's stream, waiting for its thread. */
struct qrec {
	struct trace_rec r;
	uint32_t idx;		/* its number in the trace (trace.nrec) */
};

struct rthread {
	uint32_t *recs;		/* indexes into trace.recs, in order */
	uint32_t n, cap;	/* streaming: n, the records it runs */
	uint32_t first_idx;	/* streaming: its first record's number */
	uint64_t first_ts;	/* and entry time */
	/* Streaming: the thread's records read and not yet done, a ring. */
	struct qrec *q;
	uint32_t qhead, qlen, qcap;
	uint32_t index;
	struct fio_result *result;
	uint64_t start_ns, end_ns;
	uint64_t usr_ns;	/* ioengine=null: fio's own work */
};

/*
 * The validation table's figures of one syscall, gathered as its calls
 * complete: the call count, the results that differ, and the recorded
 * and model durations of the timed calls (two words a timed call: its
 * exact percentiles; nothing else is kept per call).
 */
struct vagg {
	char name[16];
	uint32_t first;		/* the lowest record number: row order */
	uint64_t n, timed, cap;
	uint64_t *rec, *mod;
	uint64_t ret_differ;
};

/* Pass 1 of a streamed replay, per trace file: what plan() finds in the
 * records (plan_sink). */
struct dcount {
	char name[16];
	const char *why;	/* plan_reason(), or NULL: used */
	uint64_t n, dur_ns;
};

/* A thread's records of one file (or of none) that plan() keeps. */
struct pthr {
	uint32_t thread;
	uint32_t first_idx;	/* the first one's number */
	uint64_t first_ts;	/* and its entry time */
	uint64_t n;
};

struct pfile {
	uint32_t first_used;	/* the first used record, or UINT32_MAX */
	bool first_seen;	/* any record named it */
	bool first_empties;	/* open_empties() of its first record */
	bool used_empties;	/* ... of its first used record */
	struct dcount *dc;
	uint32_t ndc;
	struct pthr *th;	/* by thread, in the order they came */
	uint32_t nth, last;
};

/*
 * @r (number @idx) kept by plan(), counted for its thread in @th[*@n]
 * (@last: where the file's previous one was).  Each thread then knows
 * how many records it runs and when the first starts, and neither
 * reads the trace past its own (a thread that ended, or has not begun,
 * would otherwise queue every other thread's records).
 */
static void pthr_add(struct pthr **th, uint32_t *n, uint32_t *last,
		     const struct trace_rec *r, uint32_t idx)
{
	struct pthr *e = NULL;

	if (*last < *n && (*th)[*last].thread == r->thread) {
		e = &(*th)[*last];
	} else {
		for (uint32_t k = 0; k < *n; k++)
			if ((*th)[k].thread == r->thread) {
				e = &(*th)[k];
				*last = k;
				break;
			}
	}
	if (!e) {
		*th = realloc(*th, (*n + 1) * sizeof(**th));
		if (!*th)
			abort();
		e = &(*th)[*n];
		*last = (*n)++;
		e->thread = r->thread;
		e->first_idx = idx;
		e->first_ts = r->ts_ns;
		e->n = 0;
	}
	e->n++;
}

struct replay {
	struct trace *t;
	/*
	 * Streaming (the default; --keep-trace, --calls and --explore hold
	 * the trace whole, as before): pass 1 imported the trace with its
	 * records handed to plan_sink and forgotten; each run reads it
	 * again (pass 2, run_sink), each record queued for its thread and
	 * freed once done.
	 */
	bool stream;
	const char *path;
	struct trace_options topt;
	struct pfile *pf;
	uint32_t npf;
	uint64_t nofile_used;
	struct pthr *nofile_th;	/* the used records of no file, by thread */
	uint32_t nofile_nth, nofile_last;
	struct trace t2;
	struct trace_stream *ts;
	bool stream_eof, stream_failed;
	struct trace_error stream_err;
	uint64_t held_max;	/* the most records queued at once */
	uint64_t held_now;
	/* The validation table's figures. */
	struct vagg *aggs;
	uint32_t naggs;
	uint64_t writes_done;
	/* Plan */
	int32_t *slot;		/* [nrec]: record -> model file, or -1 */
	int32_t *file_slot;	/* [nfiles]: trace file -> its model file */
	/* By model file (slot), [nslots]: */
	int32_t *slot_file;	/* its trace file */
	bool *slot_truncated;	/* it starts empty */
	bool *slot_created;	/* the trace creates it: added at its first
				 * call (m_world_file_add) */
	struct m_file_config *slot_config;
	int32_t *slot_world;	/* in the run: its world file, -1 not yet */
	/* The files there when the trace began: the world's at setup. */
	struct m_file_config *setup_files;
	unsigned int nslots;
	struct rthread *threads;
	uint32_t nthreads;
	/* Options */
	struct hw_nvme_profile profile;
	struct m_cost_profile costs;
	struct m_world_config world;
	unsigned int cpus;
	uint64_t seed;
	uint64_t ram_bytes, mem_bytes;
	bool ext4;
	bool iolog_mode;
	/* wpsim fio --read_iolog with ioengine=null (fio's engines/null.c):
	 * no file, no syscall; each I/O is fio's own work only
	 * (FIO_NULL_IO_NS, fio-run.h) and completes as it is queued. */
	bool null_engine;
	bool no_stall;
	uint32_t time_scale;
	uint32_t sfr_flags;	/* iolog sync_file_range entries */
	/* --explore: the timed run stops before the used record of this
	 * number (1-based, as --calls numbers them; 0: none) and the window
	 * takes its start state from the model (struct window). */
	uint32_t stop_before;
	uint64_t nused;		/* streaming: the used records */
	const char *lat_path;	/* --lat-log */
	uint64_t lat_lines, lat_ios, lat_matched;
	bool trace_state;	/* --trace-state: derive it from the calls */
	uint32_t *ordinal;	/* [nrec]: the used record's number */
	struct window *snap;	/* filled at the stop */
	/* Progress and stop (SIGINT, SIGTERM) */
	bool progress;
	uint64_t recs_done, recs_total, progress_next;
	double host_start;
	/* Results, per record (the trace held whole: --calls) */
	uint64_t *model_ns;
	int64_t *model_ret;
	bool *done;
	struct sim_word *alive;
	struct m_blkdev_timed_stats dev;
	uint64_t end_ns;
	uint64_t total_ns;	/* the execution's end: writeback after it */
};

struct window;
static void window_snapshot(struct window *w);
static struct replay P;

static int usage_err(const char *fmt, const char *arg)
{
	fprintf(stderr, "wpsim replay: error: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return EXIT_USAGE;
}

/*
 * The largest file the model holds, in pages: M_FILE_PAGES_LIMIT
 * (include/model/linux/types.h).  The page cache and block map are
 * sized to the trace's largest file within it (plan_pages).
 */
static uint64_t replay_file_pages_limit(void)
{
	return M_FILE_PAGES_LIMIT;
}

/* ---- plan: which records the model can run ------------------------------ */

static bool needs_file(const struct trace_rec *r)
{
	return r->op != TRACE_OP_WAIT;
}

/* An open that leaves the file empty: O_TRUNC, or O_CREAT|O_EXCL that
 * succeeded (the path named nothing: the open made the file). */
static bool open_empties(const struct trace_rec *r)
{
	return r->op == TRACE_OP_OPEN &&
	       ((r->flags & TRACE_O_TRUNC) ||
		(r->flags & (TRACE_O_CREAT | TRACE_O_EXCL)) ==
		(TRACE_O_CREAT | TRACE_O_EXCL));
}

/* A file the trace makes: its first record an open that leaves it
 * empty, or known absent when the trace began (or its path unlinked
 * before). */
static bool file_created(const struct trace *t, int32_t f,
			 const struct trace_rec *first)
{
	return t->files[f].absent || open_empties(first);
}

/*
 * The model's files (slots) for the trace's: one per trace file with a
 * used record, in the order of their first used record.  A file there
 * when the trace began is in the world from its setup; a file the trace
 * creates (file_created) is added to it at its first call, the kernel's
 * new inode at O_CREAT (m_world_file_add).  An unlinked file's inode is
 * evicted when its last open file is closed and stays, empty, in the
 * world's table (model/world.c): files have no bound but memory.
 */
static void plan_slots(struct replay *p)
{
	struct trace *t = p->t;
	size_t nf = t->nfiles + 1;

	p->slot = malloc((t->nrec + 1) * sizeof(*p->slot));
	p->file_slot = malloc(nf * sizeof(*p->file_slot));
	p->slot_file = malloc(nf * sizeof(*p->slot_file));
	p->slot_truncated = calloc(nf, sizeof(*p->slot_truncated));
	p->slot_created = calloc(nf, sizeof(*p->slot_created));
	p->slot_config = calloc(nf, sizeof(*p->slot_config));
	p->slot_world = malloc(nf * sizeof(*p->slot_world));
	p->setup_files = calloc(nf, sizeof(*p->setup_files));
	if (!p->slot || !p->file_slot || !p->slot_file ||
	    !p->slot_truncated || !p->slot_created || !p->slot_config ||
	    !p->slot_world || !p->setup_files)
		abort();
	for (unsigned int i = 0; i < t->nfiles; i++)
		p->file_slot[i] = -1;
	p->nslots = 0;
	for (uint32_t i = 0; i < t->nrec; i++) {
		struct trace_rec *r = &t->recs[i];
		int32_t f = r->file;

		p->slot[i] = -1;
		/* ioengine=null opens no file (the model's world has none). */
		if (r->dropped || !needs_file(r) || f < 0 || p->null_engine)
			continue;
		if (p->file_slot[f] < 0) {
			p->file_slot[f] = (int32_t)p->nslots;
			p->slot_file[p->nslots] = f;
			p->slot_created[p->nslots] = file_created(t, f, r);
			p->nslots++;
		}
		p->slot[i] = p->file_slot[f];
	}
}

/* Why the model cannot run @r (NULL: it can). */
static const char *plan_reason(struct replay *p, const struct trace_rec *r)
{
	static char why_lim[128];
	uint64_t lim = replay_file_pages_limit() * PAGE_SIZE;

	if (!why_lim[0])
		snprintf(why_lim, sizeof(why_lim), "beyond the model's largest "
			 "file (M_FILE_PAGES_LIMIT, %" PRIu64 " MiB)",
			 lim >> 20);
	/* ioengine=null runs every record: none reaches the model. */
	if (p->null_engine)
		return NULL;
	if ((r->flags & TRACE_IO_ODIRECT) &&
	    (r->op == TRACE_OP_WRITE || r->op == TRACE_OP_READ))
		return "O_DIRECT I/O (the model's direct path is ext4's; the "
		       "replay runs XFS buffered)";
	switch (r->op) {
	case TRACE_OP_TRIM:
		return "fio's trim is the BLKDISCARD ioctl (os/os-linux.h "
		       "os_trim), which a regular file refuses; not modelled";
	case TRACE_OP_WRITE:
	case TRACE_OP_READ:
		if (r->offset < 0 || (uint64_t)r->offset + r->len > lim)
			return why_lim;
		if (r->op == TRACE_OP_WRITE && r->len > REPLAY_WRITE_MAX)
			return "a write longer than 64 KiB (the model's bios "
			       "hold at most M_BIO_VECS_MAX pages)";
		if (r->op == TRACE_OP_READ && r->len > REPLAY_READ_MAX)
			return "a read longer than 1 MiB (replay's read "
			       "buffer)";
		if (r->flags & (TRACE_RWF_HIPRI | TRACE_RWF_APPEND |
				TRACE_RWF_ATOMIC | TRACE_RWF_NOAPPEND))
			return "RWF_HIPRI, RWF_APPEND, RWF_NOAPPEND (not "
			       "modelled) or RWF_ATOMIC (not replayed: the "
			       "model has it in scenarios and wpsim fio)";
		if (r->flags & ~(TRACE_RWF_DSYNC | TRACE_RWF_SYNC |
				 TRACE_RWF_NOWAIT | TRACE_RWF_DONTCACHE |
				 TRACE_IO_ODIRECT))
			return "an RWF_ flag the model does not know";
		return NULL;
	case TRACE_OP_FTRUNCATE:
		if (r->offset < 0 || (uint64_t)r->offset > lim)
			return why_lim;
		return NULL;
	case TRACE_OP_FALLOCATE:
		if (r->flags & ~(TRACE_FALLOC_KEEP_SIZE |
				 TRACE_FALLOC_PUNCH_HOLE) ||
		    ((r->flags & TRACE_FALLOC_PUNCH_HOLE) &&
		     !(r->flags & TRACE_FALLOC_KEEP_SIZE)))
			return "a fallocate mode the model does not have "
			       "(ZERO_RANGE, COLLAPSE, INSERT, UNSHARE)";
		if (r->offset < 0 || (uint64_t)r->offset + r->len > lim)
			return why_lim;
		return NULL;
	default:
		return NULL;
	}
}

/* Drop each record the model cannot run, with the reason. */
static void plan_records(struct replay *p)
{
	struct trace *t = p->t;

	for (uint32_t i = 0; i < t->nrec; i++) {
		struct trace_rec *r = &t->recs[i];
		const char *why;

		if (r->dropped)
			continue;
		why = plan_reason(p, r);
		if (why)
			trace_drop(t, i, why);
	}
}

/* Each traced thread's records, in order. */
static void plan_threads(struct replay *p)
{
	struct trace *t = p->t;

	p->nthreads = t->nthreads;
	p->threads = calloc(t->nthreads ? t->nthreads : 1,
			    sizeof(*p->threads));
	for (uint32_t i = 0; i < t->nrec; i++) {
		struct trace_rec *r = &t->recs[i];
		struct rthread *th = &p->threads[r->thread];

		if (r->dropped)
			continue;
		if (th->n == th->cap) {
			th->cap = th->cap ? th->cap * 2 : 64;
			th->recs = realloc(th->recs, th->cap *
					   sizeof(uint32_t));
			if (!th->recs)
				abort();
		}
		th->recs[th->n++] = i;
	}
	for (uint32_t i = 0; i < p->nthreads; i++)
		p->threads[i].index = i;
}

static void plan(struct replay *p)
{
	plan_records(p);
	plan_slots(p);
	plan_threads(p);
}

/*
 * Pages per file: the largest file's (within the model's limit), which
 * sizes each file's tables and its room on the device; the folio bound
 * is 2 per page of all the files (m_folios_limit), so that the model
 * holds every page of every file when nothing is reclaimed.  (Before
 * files were unbounded, the folio bound was 2 per page of the largest
 * file, so the largest was raised to half of all pages: thousands of
 * small files then made every file's tables, and every truncate's walk,
 * as long as the whole trace's.)
 */
static void plan_pages(struct replay *p)
{
	uint64_t total = 0, largest = M_FILE_PAGES_DEFAULT;
	uint64_t lim = replay_file_pages_limit();

	for (unsigned int i = 0; i < p->t->nfiles; i++) {
		uint64_t pg;

		if (p->file_slot[i] < 0)
			continue;
		pg = (p->t->files[i].max_end + PAGE_SIZE - 1) >> PAGE_SHIFT;
		if (pg > lim)
			pg = lim;
		total += pg;
		if (pg > largest)
			largest = pg;
	}
	if (largest > lim)
		largest = lim;
	m_file_pages_max = (unsigned long)largest;
	if (total < largest)
		total = largest;
	m_folios_limit = (unsigned long)(2 * total);
}

/*
 * The files as the trace found them: a file whose first record opens it
 * with O_TRUNC, or that an open failing with ENOENT named first, starts
 * empty; else it existed with the size it reaches (written blocks, not
 * cached).
 */
static void plan_world(struct replay *p)
{
	struct trace *t = p->t;
	unsigned int nsetup = 0;
	uint32_t *first = NULL;

	/* Each file's first record: the trace's, or pass 1's (pf). */
	if (!p->stream) {
		first = malloc((t->nfiles + 1) * sizeof(*first));
		if (!first)
			abort();
		for (unsigned int f = 0; f < t->nfiles; f++)
			first[f] = UINT32_MAX;
		for (uint32_t i = t->nrec; i-- > 0;)
			if (t->recs[i].file >= 0 &&
			    (uint32_t)t->recs[i].file < t->nfiles)
				first[t->recs[i].file] = i;
	}
	plan_pages(p);
	for (unsigned int s = 0; s < p->nslots; s++) {
		struct m_file_config *fc = &p->slot_config[s];
		int32_t tf = p->slot_file[s];
		bool empty = false;
		uint64_t size = t->files[tf].max_end;

		if (p->stream) {
			empty = (uint32_t)tf < p->npf &&
				p->pf[tf].first_seen && p->pf[tf].first_empties;
		} else if (first[tf] != UINT32_MAX) {
			const struct trace_rec *r = &t->recs[first[tf]];

			empty = open_empties(r);
		}
		if (size > (uint64_t)m_file_pages_max * PAGE_SIZE)
			size = (uint64_t)m_file_pages_max * PAGE_SIZE;
		if (t->files[tf].absent)
			empty = true;
		if (empty)
			size = 0;
		/* Written below its size: no layout string (a byte per
		 * block; issue 28). */
		fc->size = (loff_t)size;
		fc->layout = NULL;
		fc->blkbits = 12;
		fc->cached_first = 0;
		fc->cached_last = -1;
		fc->dirty_first = 0;
		fc->dirty_last = -1;
		fc->mapped_first = 0;
		fc->mapped_last = -1;
		fc->dropbehind_first = 0;
		fc->dropbehind_last = -1;
		fc->nosec = true;
		fc->fs = p->ext4 ? M_FS_EXT4 : M_FS_XFS;
		/* As wpsim fio (fio-plan.c): XFS allows large folios and
		 * its writeback appends contiguous folios to a bio. */
		fc->large_folios = !p->ext4;
		p->slot_truncated[s] = empty;
		if (!p->slot_created[s])
			p->setup_files[nsetup++] = *fc;
	}
	p->world.nr_files = nsetup;
	p->world.file_table = p->setup_files;
	p->world.files_reserve = p->nslots - nsetup;
	free(first);
	p->world.long_run = true;
	p->world.mem_pages = (unsigned long)(p->mem_bytes >> PAGE_SHIFT);
}

/* ---- the run ---------------------------------------------------------- */

/*
 * The trace's calls, one row each: the model's syscall
 * (include/model/linux/syscalls.h).  open, close, dup, lseek and mmap
 * return what the trace recorded (an fd, a position, an address) unless
 * the model fails them; every other row returns the model's result.  docs/HACKING.md "Add a
 * syscall".
 */
static const struct {
	bool syscall;
	enum m_sys nr;
} rec_syscalls[TRACE_OP_COUNT] = {
	[TRACE_OP_OPEN] = { true, M_SYS_OPEN },
	[TRACE_OP_CLOSE] = { true, M_SYS_CLOSE },
	[TRACE_OP_DUP] = { true, M_SYS_DUP },
	[TRACE_OP_LSEEK] = { true, M_SYS_LSEEK },
	[TRACE_OP_MMAP] = { true, M_SYS_MMAP },
	[TRACE_OP_WRITE] = { true, M_SYS_PWRITEV2 },
	[TRACE_OP_READ] = { true, M_SYS_PREADV2 },
	[TRACE_OP_FSYNC] = { true, M_SYS_FSYNC },
	[TRACE_OP_FDATASYNC] = { true, M_SYS_FDATASYNC },
	[TRACE_OP_SYNC_FILE_RANGE] = { true, M_SYS_SYNC_FILE_RANGE },
	[TRACE_OP_FTRUNCATE] = { true, M_SYS_FTRUNCATE },
	[TRACE_OP_FALLOCATE] = { true, M_SYS_FALLOCATE },
	[TRACE_OP_MUNMAP] = { true, M_SYS_MUNMAP },
	[TRACE_OP_UNLINK] = { true, M_SYS_UNLINK },
	[TRACE_OP_RENAME] = { true, M_SYS_RENAME },
	[TRACE_OP_SYNCFS] = { true, M_SYS_SYNCFS },
};

/* A record's flags as the model's: RWF_*, FALLOC_FL_*, O_TRUNC. */
static unsigned int rec_flags(const struct replay *p,
			      const struct trace_rec *r)
{
	unsigned int f = 0;

	switch (r->op) {
	case TRACE_OP_WRITE:
	case TRACE_OP_READ:
		f |= r->flags & TRACE_RWF_DSYNC ? RWF_DSYNC : 0;
		f |= r->flags & TRACE_RWF_SYNC ? RWF_SYNC : 0;
		f |= r->flags & TRACE_RWF_NOWAIT ? RWF_NOWAIT : 0;
		f |= r->flags & TRACE_RWF_DONTCACHE ? RWF_DONTCACHE : 0;
		return f;
	case TRACE_OP_FALLOCATE:
		f |= r->flags & TRACE_FALLOC_PUNCH_HOLE ?
		     KM_FALLOC_FL_PUNCH_HOLE : 0;
		f |= r->flags & TRACE_FALLOC_KEEP_SIZE ?
		     KM_FALLOC_FL_KEEP_SIZE : 0;
		return f;
	case TRACE_OP_SYNC_FILE_RANGE:
		return p->iolog_mode ? p->sfr_flags : r->flags;
	case TRACE_OP_OPEN:
		f |= r->flags & TRACE_O_TRUNC ? KM_O_TRUNC : 0;
		f |= r->flags & TRACE_O_CREAT ? KM_O_CREAT : 0;
		return f;
	default:
		return 0;
	}
}

/*
 * Model file @s's open file in the world: a file the trace creates is
 * added at its first call (the kernel's new inode at O_CREAT: no
 * scheduling point, as a folio's making).
 */
static struct km_file *slot_file_of(struct replay *p, int32_t s)
{
	if (p->slot_world[s] < 0)
		p->slot_world[s] = (int32_t)m_world_file_add(
						&p->slot_config[s]);
	return m_world()->files[p->slot_world[s]];
}

/* Record @r's model file (slot), or -1 (plan_slots' rule). */
static int32_t rec_slot(const struct replay *p, const struct trace_rec *r,
			uint32_t i)
{
	if (!p->stream)
		return p->slot[i];
	if (p->null_engine || !needs_file(r) || r->file < 0 ||
	    (uint32_t)r->file >= p->t->nfiles)
		return -1;
	return p->file_slot[r->file];
}

static long do_rec(struct replay *p, const struct trace_rec *r, uint32_t i,
		   uint32_t data_id, uint32_t *buf)
{
	int32_t slot = rec_slot(p, r, i);
	struct m_sys_args a = {
		.file = slot >= 0 ? slot_file_of(p, slot) : NULL,
		.pos = r->offset, .len = (size_t)r->len,
		.flags = rec_flags(p, r), .data_id = data_id, .out = buf,
	};
	long ret;

	/* The target, if the world has it (a file the trace creates later
	 * does not exist yet). */
	if (r->op == TRACE_OP_RENAME && r->offset >= 0 &&
	    p->file_slot[r->offset] >= 0 &&
	    p->slot_world[p->file_slot[r->offset]] >= 0) {
		a.target = m_world()->files[p->slot_world[
					p->file_slot[r->offset]]];
	}

	if (r->op == TRACE_OP_WAIT) {
		if ((uint64_t)r->offset * 1000000ull > sim_now())
			sim_sleep_until((uint64_t)r->offset * 1000000ull);
		return 0;
	}
	/* ioengine=null: every I/O (a trim too) completes, whole, as it is
	 * queued; a sync, an open, a close do nothing. */
	if (p->null_engine)
		return r->op == TRACE_OP_READ || r->op == TRACE_OP_WRITE ||
		       r->op == TRACE_OP_TRIM ? (long)r->len : 0;
	if ((unsigned int)r->op >= TRACE_OP_COUNT ||
	    !rec_syscalls[r->op].syscall)
		return -KM_EINVAL;	/* trim: dropped by plan() */
	/* The inodes the call uses: their i_rwsem is checked while it runs
	 * (the world leaves out idle inodes no call uses). */
	if (a.file)
		m_world_inode_use(a.file->f_inode);
	if (a.target)
		m_world_inode_use(a.target->f_inode);
	ret = m_syscall(rec_syscalls[r->op].nr, &a);
	if (a.target)
		m_world_inode_done(a.target->f_inode);
	if (a.file)
		m_world_inode_done(a.file->f_inode);
	if (ret >= 0 && (r->op == TRACE_OP_OPEN || r->op == TRACE_OP_CLOSE ||
			 r->op == TRACE_OP_DUP || r->op == TRACE_OP_LSEEK ||
			 r->op == TRACE_OP_MMAP))
		return r->has_ret ? r->ret : 0;
	return ret;
}

static double host_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Records done, virtual time and the ETA on stderr (a terminal, or
 * --progress), every REPLAY_PROGRESS_RECS records. */
static void progress(struct replay *p)
{
	double host, eta;

	if (++p->recs_done < p->progress_next)
		return;
	p->progress_next += REPLAY_PROGRESS_RECS;
	if (!p->progress)
		return;
	host = host_seconds() - p->host_start;
	eta = host * (double)(p->recs_total - p->recs_done) /
	      (double)p->recs_done;
	fprintf(stderr, "wpsim replay: %" PRIu64 " of %" PRIu64 " records, "
		"virtual %.3f s, host %.0f s, ETA %.0f s\n", p->recs_done,
		p->recs_total, (double)sim_now() / 1e9, host, eta);
}

/* ---- --lat-log: fio's latency log joined to an iolog's I/O ----------- */

/*
 * fio's --write_lat_log with --log_offset=1 (fio 3.33 HOWTO, "Log File
 * Formats"): a line per completed I/O, "TIME, VALUE, DDIR, BS, OFFSET,
 * PRIO" (TIME in ms, VALUE the latency in ns, DDIR 0 read, 1 write, 2
 * trim; fio before 3.2x has no PRIO).  Joined to the iolog's I/O records
 * (read, write, trim) in order: each record takes the first of the next
 * LATLOG_AHEAD log lines with its direction, offset and length (fio
 * logs an I/O when it completes: in issue order at iodepth 1), and that
 * latency becomes its recorded duration.  Read once to count what
 * matched (pass 1, or the trace held whole) and again, with the trace,
 * in each run.
 */
#define LATLOG_AHEAD	64

struct latent {
	uint64_t ns, offset, bs;
	unsigned int ddir;
};

struct latlog {
	const char *path;
	FILE *f;
	char *line;
	size_t line_cap;
	uint32_t lineno;
	bool eof;
	struct latent ahead[LATLOG_AHEAD];
	unsigned int nahead;
	uint64_t ios, matched, lines;
	bool failed;
	char err[TRACE_MESSAGE_MAX + TRACE_PATH_MAX + 64];
};

static struct latlog LL;

static int latlog_open(struct latlog *l, const char *path)
{
	memset(l, 0, sizeof(*l));
	l->path = path;
	l->f = fopen(path, "r");
	if (!l->f) {
		fprintf(stderr, "%s:1:1: error: expected a readable latency "
			"log, found %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

static void latlog_close(struct latlog *l)
{
	if (l->f)
		fclose(l->f);
	free(l->line);
	l->f = NULL;
	l->line = NULL;
}

/* A field of a log line: digits, then blanks and a comma (or the end). */
static bool lat_field(struct latlog *l, const char *line, size_t *pos,
		      uint64_t *v, const char *what, bool last)
{
	size_t i = *pos, start;
	uint64_t x = 0;
	char found[64];

	while (line[i] == ' ' || line[i] == '\t')
		i++;
	start = i;
	while (isdigit((unsigned char)line[i])) {
		if (x > (UINT64_MAX - 9) / 10)
			break;
		x = x * 10 + (uint64_t)(line[i++] - '0');
	}
	if (i == start || isdigit((unsigned char)line[i])) {
		size_t n = strcspn(line + start, ",\n");

		snprintf(found, sizeof(found), n ? "'%.*s'" : "end of line",
			 (int)(n > 24 ? 24 : n), line + start);
		snprintf(l->err, sizeof(l->err), "%s:%u:%zu: error: expected "
			 "%s (digits), found %s", l->path, l->lineno,
			 start + 1, what, found);
		return false;
	}
	while (line[i] == ' ' || line[i] == '\t')
		i++;
	if (line[i] == ',') {
		i++;
	} else if (!last && line[i] != '\n' && line[i] != '\0' &&
		   line[i] != '\r') {
		snprintf(l->err, sizeof(l->err), "%s:%u:%zu: error: expected "
			 "',' after %s, found '%c'", l->path, l->lineno, i + 1,
			 what, line[i]);
		return false;
	}
	*pos = i;
	*v = x;
	return true;
}

/* The next log line into @e: 1, 0 at the end, -1 malformed (l->err). */
static int latlog_read(struct latlog *l, struct latent *e)
{
	static const char *const what[6] = {
		"TIME (ms)", "VALUE (the latency, ns)", "DDIR (0, 1 or 2)",
		"BS (bytes)", "OFFSET (bytes; fio --log_offset=1)",
		"PRIO",
	};
	uint64_t v[6] = { 0 };
	unsigned int n = 0;
	size_t pos = 0;
	ssize_t len;

	for (;;) {
		len = getline(&l->line, &l->line_cap, l->f);
		if (len < 0) {
			l->eof = true;
			return 0;
		}
		l->lineno++;
		if (len > 1 || (len == 1 && l->line[0] != '\n'))
			break;
	}
	while (n < 6) {
		while (l->line[pos] == ' ' || l->line[pos] == '\t')
			pos++;
		if (n >= 5 && (l->line[pos] == '\n' || l->line[pos] == '\r' ||
			       !l->line[pos]))
			break;
		if (!lat_field(l, l->line, &pos, &v[n], what[n], n == 5))
			return -1;
		n++;
	}
	while (l->line[pos] == ' ' || l->line[pos] == '\t' ||
	       l->line[pos] == '\r')
		pos++;
	if (l->line[pos] != '\n' && l->line[pos]) {
		snprintf(l->err, sizeof(l->err), "%s:%u:%zu: error: expected "
			 "the end of the line after %u fields, found '%.24s'",
			 l->path, l->lineno, pos + 1, n, l->line + pos);
		return -1;
	}
	if (v[2] > 2) {
		snprintf(l->err, sizeof(l->err), "%s:%u:1: error: expected "
			 "DDIR 0, 1 or 2 (read, write, trim), found %" PRIu64,
			 l->path, l->lineno, v[2]);
		return -1;
	}
	e->ns = v[1];
	e->ddir = (unsigned int)v[2];
	e->bs = v[3];
	e->offset = v[4];
	l->lines++;
	return 1;
}

/*
 * The log's latency of I/O record @r (read, write or trim), or
 * TRACE_DUR_NONE when none of the next LATLOG_AHEAD lines is its.
 * Return -1 on a malformed line (l->err, l->failed).
 */
static int latlog_join(struct latlog *l, const struct trace_rec *r,
		       uint64_t *ns)
{
	unsigned int ddir = r->op == TRACE_OP_READ ? 0 :
			    r->op == TRACE_OP_WRITE ? 1 : 2;

	*ns = TRACE_DUR_NONE;
	if (r->op != TRACE_OP_READ && r->op != TRACE_OP_WRITE &&
	    r->op != TRACE_OP_TRIM)
		return 0;
	l->ios++;
	while (l->nahead < LATLOG_AHEAD && !l->eof && !l->failed) {
		int rc = latlog_read(l, &l->ahead[l->nahead]);

		if (rc < 0) {
			l->failed = true;
			return -1;
		}
		if (rc > 0)
			l->nahead++;
	}
	for (unsigned int k = 0; k < l->nahead; k++) {
		const struct latent *e = &l->ahead[k];

		if (e->ddir != ddir || e->offset != (uint64_t)r->offset ||
		    e->bs != r->len)
			continue;
		*ns = e->ns;
		memmove(&l->ahead[k], &l->ahead[k + 1],
			(l->nahead - k - 1) * sizeof(*e));
		l->nahead--;
		l->matched++;
		return 0;
	}
	return 0;
}

/* The lines left after the last record: read and counted. */
static int latlog_finish(struct latlog *l)
{
	struct latent e;
	int rc;

	while (!l->eof && (rc = latlog_read(l, &e)) != 0) {
		if (rc < 0) {
			l->failed = true;
			return -1;
		}
	}
	return 0;
}

/* The log read to its end: its counts kept (P.lat_*), closed.  0, or -2
 * after a malformed line (printed). */
static int latlog_done(struct replay *p)
{
	if (!p->lat_path)
		return 0;
	latlog_finish(&LL);
	p->lat_lines = LL.lines;
	p->lat_ios = LL.ios;
	p->lat_matched = LL.matched;
	latlog_close(&LL);
	if (LL.failed) {
		fprintf(stderr, "%s\n", LL.err);
		return -2;
	}
	return 0;
}

/* The trace held whole: each I/O record's latency from the log. */
static int latlog_whole(struct replay *p)
{
	if (!p->lat_path)
		return 0;
	if (latlog_open(&LL, p->lat_path))
		return -2;
	for (uint32_t i = 0; i < p->t->nrec && !LL.failed; i++) {
		uint64_t ns;

		if (!latlog_join(&LL, &p->t->recs[i], &ns) &&
		    ns != TRACE_DUR_NONE)
			p->t->recs[i].dur_ns = ns;
	}
	return latlog_done(p);
}

/* What the log matched, after the summary. */
static void latlog_print(FILE *out, const struct replay *p)
{
	if (!p->lat_path)
		return;
	fprintf(out, "latency log %s: %" PRIu64 " lines; %" PRIu64 " of %"
		PRIu64 " I/O records matched (direction, offset and length, "
		"in order); %" PRIu64 " I/O records without a line, %" PRIu64
		" lines without a record\n", p->lat_path, p->lat_lines,
		p->lat_matched, p->lat_ios, p->lat_ios - p->lat_matched,
		p->lat_lines - p->lat_matched);
}

/* ---- the records of a run: the trace's, or read as the run goes ------ */

/* Whether the replay drops @r: strace's records of files the trace never
 * writes (trace_parse_strace's rule, over pass 1's files), then plan's. */
static bool stream_dropped(struct replay *p, const struct trace_rec *r)
{
	if (p->t->format == TRACE_FORMAT_STRACE && r->file >= 0 &&
	    ((uint32_t)r->file >= p->t->nfiles ||
	     !p->t->files[r->file].written))
		return true;
	return plan_reason(p, r) != NULL;
}

/* Pass 2's sink: a used record queued for its thread. */
static void run_sink(void *arg, struct trace *t2, struct trace_rec *r)
{
	struct replay *p = arg;
	struct rthread *th;
	struct qrec *q;

	if (p->lat_path) {
		uint64_t ns;

		if (latlog_join(&LL, r, &ns) < 0 && !p->stream_failed) {
			p->stream_failed = true;
			snprintf(p->stream_err.text,
				 sizeof(p->stream_err.text), "%s", LL.err);
		}
		if (ns != TRACE_DUR_NONE)
			r->dur_ns = ns;
	}
	if (stream_dropped(p, r))
		return;
	if (r->thread >= p->nthreads) {
		/* The file changed since pass 1. */
		p->stream_failed = true;
		snprintf(p->stream_err.text, sizeof(p->stream_err.text),
			 "%s:%u:1: error: expected the trace of the first "
			 "reading, found a thread it did not have (the file "
			 "changed while it was replayed)", p->path, r->line);
		return;
	}
	th = &p->threads[r->thread];
	if (th->qlen == th->qcap) {
		uint32_t cap = th->qcap ? th->qcap * 2 : 16;
		struct qrec *nq = malloc(cap * sizeof(*nq));

		if (!nq)
			abort();
		for (uint32_t k = 0; k < th->qlen; k++)
			nq[k] = th->q[(th->qhead + k) % th->qcap];
		free(th->q);
		th->q = nq;
		th->qcap = cap;
		th->qhead = 0;
	}
	q = &th->q[(th->qhead + th->qlen) % th->qcap];
	q->r = *r;
	q->idx = (uint32_t)(t2->nrec - 1);
	th->qlen++;
	if (++p->held_now > p->held_max)
		p->held_max = p->held_now;
}

/*
 * Thread @th's @k-th record (*@i its number), or NULL: none left.
 * Streaming, it is copied to @copy: the queue moves when another thread
 * reads on while this one's call runs.
 */
static const struct trace_rec *rec_next(struct replay *p, struct rthread *th,
					uint32_t k, uint32_t *i,
					struct trace_rec *copy)
{
	if (!p->stream) {
		if (k >= th->n)
			return NULL;
		*i = th->recs[k];
		return &p->t->recs[*i];
	}
	if (k >= th->n)
		return NULL;	/* its records are done: read no further */
	while (!th->qlen && !p->stream_eof && !p->stream_failed) {
		int rc = trace_stream_step(p->ts);

		if (rc < 0)
			p->stream_failed = true;
		if (rc <= 0)
			p->stream_eof = true;
	}
	if (!th->qlen || p->stream_failed)
		return NULL;
	*i = th->q[th->qhead].idx;
	*copy = th->q[th->qhead].r;
	return copy;
}

/* Thread @th's record from rec_next is done with: freed (streaming). */
static void rec_done(struct replay *p, struct rthread *th)
{
	if (!p->stream)
		return;
	th->qhead = (th->qhead + 1) % th->qcap;
	th->qlen--;
	p->held_now--;
}

/*
 * In the array *@arr of *@n entries of @size bytes, each starting with
 * a call's name (char[16], as struct trace_rec's): the first named
 * @name for which @match(entry, @key) holds (no @match: any); if none,
 * one appended, zeroed, with the name (*@added set).  The find-or-append
 * of the validation table's rows (struct vagg) and of pass 1's counts
 * (struct dcount).
 */
_Static_assert(offsetof(struct vagg, name) == 0 &&
	       sizeof(((struct vagg *)0)->name) == 16, "named_entry");
_Static_assert(offsetof(struct dcount, name) == 0 &&
	       sizeof(((struct dcount *)0)->name) == 16, "named_entry");
_Static_assert(sizeof(((struct trace_rec *)0)->name) == 16, "named_entry");

static void *named_entry(void **arr, uint32_t *n, size_t size,
			 const char name[16],
			 bool (*match)(const void *entry, const void *key),
			 const void *key, bool *added)
{
	char *e;

	for (uint32_t k = 0; k < *n; k++) {
		e = (char *)*arr + (size_t)k * size;
		if (!memcmp(e, name, 16) && (!match || match(e, key))) {
			*added = false;
			return e;
		}
	}
	*arr = realloc(*arr, (*n + 1) * size);
	if (!*arr)
		abort();
	e = (char *)*arr + (size_t)(*n)++ * size;
	memset(e, 0, size);
	memcpy(e, name, 16);
	*added = true;
	return e;
}

/* named_entry's test for pass 1's counts: the same reason. */
static bool dcount_why(const void *entry, const void *why)
{
	return ((const struct dcount *)entry)->why == why;
}

/* Record @r (number @i) ran: the validation table's figures. */
static void rec_complete(struct replay *p, const struct trace_rec *r,
			 uint32_t i, uint64_t ns, long ret)
{
	bool added;
	struct vagg *v = named_entry((void **)&p->aggs, &p->naggs,
				     sizeof(*p->aggs), r->name, NULL, NULL,
				     &added);

	if (added)
		v->first = i;
	if (i < v->first)
		v->first = i;
	v->n++;
	if (r->op == TRACE_OP_WRITE)
		p->writes_done++;
	if (r->has_ret && r->ret != ret && r->op != TRACE_OP_OPEN &&
	    r->op != TRACE_OP_MMAP && r->op != TRACE_OP_DUP)
		v->ret_differ++;
	if (r->dur_ns == TRACE_DUR_NONE || !r->dur_ns)
		return;
	if (v->timed == v->cap) {
		v->cap = v->cap ? v->cap * 2 : 64;
		v->rec = realloc(v->rec, v->cap * sizeof(*v->rec));
		v->mod = realloc(v->mod, v->cap * sizeof(*v->mod));
		if (!v->rec || !v->mod)
			abort();
	}
	v->rec[v->timed] = r->dur_ns;
	v->mod[v->timed] = ns;
	v->timed++;
}

static void aggs_free(struct replay *p)
{
	for (uint32_t k = 0; k < p->naggs; k++) {
		free(p->aggs[k].rec);
		free(p->aggs[k].mod);
	}
	free(p->aggs);
	p->aggs = NULL;
	p->naggs = 0;
	p->writes_done = 0;
}

static void thread_task(void *arg)
{
	struct rthread *th = arg;
	struct replay *p = &P;
	uint32_t *buf = sim_arena_alloc((REPLAY_READ_MAX / SECTOR_SIZE + 1) *
					sizeof(uint32_t));
	uint64_t prev_end = 0, last_issue = 0;
	uint32_t seq = 0;

	th->start_ns = sim_now();
	/* Streaming, a strace thread's first think time (its first call's
	 * entry) before it reads: it then reads the trace when the run
	 * gets there, not at the start. */
	if (p->stream && !p->iolog_mode && th->n && th->first_ts)
		sim_sleep_ns(th->first_ts);
	for (uint32_t k = 0;; k++) {
		uint32_t i = 0;
		struct trace_rec copy;
		const struct trace_rec *r = rec_next(p, th, k, &i, &copy);
		uint32_t data_id = ((th->index + 1) << 20) |
				   (++seq & 0xfffffu);
		uint64_t t0;
		long ret;

		if (!r)
			break;
		if (p->iolog_mode) {
			/* fio's iolog_delay(): the delay minus the time
			 * since the last issue. */
			uint64_t d = p->no_stall ? 0 : r->delay_ns * 100 /
				     p->time_scale;
			uint64_t since = sim_now() - last_issue;

			if (k > 0 && d > since)
				sim_sleep_ns(d - since);
			last_issue = sim_now();
		} else {
			/* Think time: the gap between the end of the
			 * thread's previous call and this entry. */
			uint64_t at = r->ts_ns;

			if (k == 0 || r->ts_ns > prev_end) {
				uint64_t think = k == 0 ? at : r->ts_ns -
						 prev_end;

				/* (Streaming: slept before reading.) */
				if (think && !(k == 0 && p->stream))
					sim_sleep_ns(think);
			}
			prev_end = r->ts_ns + (r->dur_ns == TRACE_DUR_NONE ?
					       0 : r->dur_ns);
		}
		/* ioengine=null: fio's own work before the I/O starts,
		 * as the runner charges it (fio-engines.c). */
		if (p->null_engine && (r->op == TRACE_OP_READ ||
				       r->op == TRACE_OP_WRITE ||
				       r->op == TRACE_OP_TRIM)) {
			sim_cpu_spend(FIO_NULL_IO_NS);
			th->usr_ns += FIO_NULL_IO_NS;
		}
		t0 = sim_now();
		if (wpsim_stop_signal() || (p->stop_before &&
					   p->ordinal[i] >= p->stop_before))
			break;
		ret = do_rec(p, r, i, data_id, buf);
		if (p->model_ns) {
			p->model_ns[i] = sim_now() - t0;
			p->model_ret[i] = ret;
			p->done[i] = true;
		}
		rec_complete(p, r, i, sim_now() - t0, ret);
		progress(p);
		if (r->op == TRACE_OP_WRITE && ret > 0)
			fio_result_add_io(th->result, FIO_DDIR_WRITE,
					  (uint64_t)ret, t0, t0, sim_now());
		else if ((r->op == TRACE_OP_READ) && ret >= 0)
			fio_result_add_io(th->result, FIO_DDIR_READ,
					  (uint64_t)ret, t0, t0, sim_now());
		else if (r->op == TRACE_OP_TRIM && ret > 0)	/* null */
			fio_result_add_io(th->result, FIO_DDIR_TRIM,
					  (uint64_t)ret, t0, t0, sim_now());
		else if (r->op == TRACE_OP_FSYNC ||
			 r->op == TRACE_OP_FDATASYNC ||
			 r->op == TRACE_OP_SYNC_FILE_RANGE)
			/* Counted where fio 3.33 counts each kind. */
			fio_result_add_sync_kind(th->result,
				r->op == TRACE_OP_FSYNC ?
				FIO_SYNC_KIND_FSYNC :
				r->op == TRACE_OP_FDATASYNC ?
				FIO_SYNC_KIND_FDATASYNC :
				FIO_SYNC_KIND_SYNC_FILE_RANGE,
				sim_now() - t0);
		rec_done(p, th);
	}
	th->end_ns = sim_now();
	if (sim_word_add(P.alive, -1) == 0) {
		m_blkdev_timed_stats(&P.dev);
		P.end_ns = sim_now();
		if (P.snap)
			window_snapshot(P.snap);
	}
}

static void run_setup(void *unused)
{
	unsigned int nsetup = 0;

	(void)unused;
	timed_run_setup(&P.world, &P.profile, P.cpus, P.seed);
	/* The files there when the trace began are the world's first, in
	 * slot order (plan_world); the others come at their first call. */
	for (unsigned int s = 0; s < P.nslots; s++)
		P.slot_world[s] = P.slot_created[s] ? -1 : (int32_t)nsetup++;
	/* No call uses them yet: their i_rwsem, idle, is checked from
	 * their first call on (m_world_inode_use). */
	for (unsigned int f = 0; f < nsetup; f++) {
		m_world_inode_use(m_world()->inodes[f]);
		m_world_inode_done(m_world()->inodes[f]);
	}
	P.alive = sim_arena_alloc(sizeof(*P.alive));
	sim_word_init(P.alive, P.nthreads, "replay.alive");
	for (uint32_t i = 0; i < P.nthreads; i++) {
		free(P.threads[i].result);
		P.threads[i].result = fio_result_alloc(NULL);
		P.threads[i].result->pid = i + 1;
	}
	for (uint32_t i = 0; i < P.nthreads; i++)
		sim_task_spawn("replay", thread_task, &P.threads[i]);
	timed_run_spawn_flusher(P.alive);
}

static const struct sim_program replay_program = {
	.name = "replay",
	.description = "wpsim replay: a trace against the model",
	.setup = run_setup,
};

/*
 * The dirty limits, as wpsim fio's: domain_dirty_limits of the machine's
 * dirtyable memory, --ram (default 16g) or --mem if smaller, with the
 * kernel's default vm.dirty_ratio 20 and dirty_background_ratio 10.
 */
static int dirty_limits(void)
{
	struct km_dirty_throttle_control dtc = { 0 };
	struct km_dirty_sysctl vm = {
		.dirty_ratio = REPLAY_DIRTY_RATIO,
		.dirty_background_ratio = REPLAY_DIRTY_BG_RATIO,
	};
	uint64_t mem = P.ram_bytes ? P.ram_bytes : REPLAY_RAM_DEFAULT;

	if (P.mem_bytes && P.mem_bytes < mem)
		mem = P.mem_bytes;
	dtc.avail = (unsigned long)(mem >> PAGE_SHIFT) + 1;
	km_domain_dirty_limits(&dtc, &vm);
	P.world.dirty_thresh_pages = dtc.thresh;
	P.world.dirty_bg_thresh_pages = dtc.bg_thresh;
	return 0;
}

/* --variant KEY=VALUE...: the world's variants (timed-run.c). */
static int apply_variant_list(char vars[][128], unsigned int n,
			      bool breaks_ok)
{
	const char *kv[REPLAY_VARIANTS_MAX];

	for (unsigned int v = 0; v < n && v < REPLAY_VARIANTS_MAX; v++)
		kv[v] = vars[v];
	if (timed_run_apply_variants(&P.world, kv, n, "wpsim replay",
				     breaks_ok))
		return EXIT_USAGE;
	return dirty_limits();
}

/* ---- streaming: pass 1 (the plan) and pass 2 (the run) --------------- */

static struct pfile *pfile_of(struct replay *p, int32_t f)
{
	if ((uint32_t)f >= p->npf) {
		uint32_t n = p->npf ? p->npf : 64;

		while (n <= (uint32_t)f)
			n *= 2;
		p->pf = realloc(p->pf, n * sizeof(*p->pf));
		if (!p->pf)
			abort();
		memset(p->pf + p->npf, 0, (n - p->npf) * sizeof(*p->pf));
		for (uint32_t k = p->npf; k < n; k++)
			p->pf[k].first_used = UINT32_MAX;
		p->npf = n;
	}
	return &p->pf[f];
}

/*
 * Pass 1's sink: what plan() needs of each record, kept per file
 * (struct pfile) and not per record.  Strace's records of a file the
 * trace never writes are dropped once the whole trace is read
 * (stream_plan), as trace_parse_strace drops them after its last line;
 * so a file's counts wait in its dcount table until then.
 */
static void plan_sink(void *arg, struct trace *t, struct trace_rec *r)
{
	struct replay *p = arg;
	uint32_t idx = (uint32_t)(t->nrec - 1);
	const char *why = plan_reason(p, r);
	struct pfile *pf;
	struct dcount *dc;
	bool added;

	if (p->lat_path) {
		uint64_t ns;

		/* Counted here (a malformed line: LL.failed); the durations
		 * go to the records of the run (run_sink), not to the
		 * counts' recorded time. */
		(void)latlog_join(&LL, r, &ns);
	}
	if (r->file < 0) {
		if (why) {
			trace_drop_rec(t, r, why);
		} else {
			p->nofile_used++;
			pthr_add(&p->nofile_th, &p->nofile_nth,
				 &p->nofile_last, r, idx);
		}
		return;
	}
	pf = pfile_of(p, r->file);
	if (!pf->first_seen) {
		pf->first_seen = true;
		pf->first_empties = open_empties(r);
	}
	if (!why && needs_file(r) && pf->first_used == UINT32_MAX) {
		pf->first_used = idx;
		pf->used_empties = open_empties(r);
	}
	if (!why)
		pthr_add(&pf->th, &pf->nth, &pf->last, r, idx);
	dc = named_entry((void **)&pf->dc, &pf->ndc, sizeof(*pf->dc),
			 r->name, dcount_why, why, &added);
	if (added)
		dc->why = why;
	dc->n++;
	if (r->dur_ns != TRACE_DUR_NONE)
		dc->dur_ns += r->dur_ns;
}

static int cmp_first_used(const void *a, const void *b)
{
	uint32_t x = P.pf[*(const int32_t *)a].first_used;
	uint32_t y = P.pf[*(const int32_t *)b].first_used;

	return x < y ? -1 : x > y;
}

/* After pass 1: the drops by file, the model's files (plan_slots' order:
 * of their first used record) and the threads. */
static void stream_plan(struct replay *p)
{
	struct trace *t = p->t;
	size_t nf = t->nfiles + 1;
	int32_t *order = malloc(nf * sizeof(*order));
	unsigned int n = 0;

	p->file_slot = malloc(nf * sizeof(*p->file_slot));
	p->slot_file = malloc(nf * sizeof(*p->slot_file));
	p->slot_truncated = calloc(nf, sizeof(*p->slot_truncated));
	p->slot_created = calloc(nf, sizeof(*p->slot_created));
	p->slot_config = calloc(nf, sizeof(*p->slot_config));
	p->slot_world = malloc(nf * sizeof(*p->slot_world));
	p->setup_files = calloc(nf, sizeof(*p->setup_files));
	if (!order || !p->file_slot || !p->slot_file || !p->slot_truncated ||
	    !p->slot_created || !p->slot_config || !p->slot_world ||
	    !p->setup_files)
		abort();
	if (t->nfiles)
		(void)pfile_of(p, (int32_t)t->nfiles - 1);
	p->nused = p->nofile_used;
	for (uint32_t f = 0; f < t->nfiles; f++) {
		struct pfile *pf = &p->pf[f];
		bool input = t->format == TRACE_FORMAT_STRACE &&
			     !t->files[f].written;

		p->file_slot[f] = -1;
		for (uint32_t k = 0; k < pf->ndc; k++) {
			struct dcount *dc = &pf->dc[k];

			if (input)
				trace_count_move(t, dc->name, "a file the "
					"trace never writes (an input: "
					"library, configuration, directory)",
					dc->n, dc->dur_ns);
			else if (dc->why)
				trace_count_move(t, dc->name, dc->why, dc->n,
						 dc->dur_ns);
			else
				p->nused += dc->n;
		}
		free(pf->dc);
		pf->dc = NULL;
		pf->ndc = 0;
		if (!input && pf->first_used != UINT32_MAX && !p->null_engine)
			order[n++] = (int32_t)f;
	}
	qsort(order, n, sizeof(*order), cmp_first_used);
	p->nslots = n;
	for (unsigned int s = 0; s < n; s++) {
		int32_t f = order[s];

		p->file_slot[f] = (int32_t)s;
		p->slot_file[s] = f;
		p->slot_created[s] = t->files[f].absent ||
				     p->pf[f].used_empties;
	}
	free(order);
	p->nthreads = t->nthreads;
	p->threads = calloc(t->nthreads ? t->nthreads : 1,
			    sizeof(*p->threads));
	if (!p->threads)
		abort();
	for (uint32_t i = 0; i < p->nthreads; i++) {
		p->threads[i].index = i;
		p->threads[i].first_idx = UINT32_MAX;
	}
	/* Each thread's records: those of files not dropped whole, and of
	 * no file. */
	for (uint32_t f = 0; f <= t->nfiles; f++) {
		struct pthr *th = f < t->nfiles ? p->pf[f].th : p->nofile_th;
		uint32_t nth = f < t->nfiles ? p->pf[f].nth : p->nofile_nth;
		bool input = f < t->nfiles &&
			     t->format == TRACE_FORMAT_STRACE &&
			     !t->files[f].written;

		for (uint32_t k = 0; !input && k < nth; k++) {
			struct rthread *rt;

			if (th[k].thread >= p->nthreads)
				continue;
			rt = &p->threads[th[k].thread];
			rt->n += (uint32_t)th[k].n;
			if (th[k].first_idx < rt->first_idx) {
				rt->first_idx = th[k].first_idx;
				rt->first_ts = th[k].first_ts;
			}
		}
		free(th);
		if (f < t->nfiles) {
			p->pf[f].th = NULL;
			p->pf[f].nth = 0;
		}
	}
	p->nofile_th = NULL;
	p->nofile_nth = 0;
}

/* Pass 1: the trace read through plan_sink.  0, or -1 with *err set. */
static int stream_load(struct replay *p, struct trace *t,
		       struct trace_error *err)
{
	t->sink = plan_sink;
	t->sink_arg = p;
	if (p->lat_path && latlog_open(&LL, p->lat_path))
		return -2;
	if (trace_load(p->path, &p->topt, t, err)) {
		latlog_close(&LL);
		return -1;
	}
	t->sink = NULL;
	stream_plan(p);
	return latlog_done(p);
}

/* Pass 2 opened for a run: its records go to the threads' queues. */
static int stream_start(struct replay *p)
{
	trace_init(&p->t2);
	p->t2.sink = run_sink;
	p->t2.sink_arg = p;
	memset(&p->stream_err, 0, sizeof(p->stream_err));
	p->stream_eof = p->stream_failed = false;
	if (p->lat_path && latlog_open(&LL, p->lat_path))
		return -1;
	p->held_now = p->held_max = 0;
	for (uint32_t i = 0; i < p->nthreads; i++)
		p->threads[i].qhead = p->threads[i].qlen = 0;
	p->ts = trace_stream_open(p->path, &p->topt, &p->t2, &p->stream_err);
	if (!p->ts) {
		fprintf(stderr, "%s\n", p->stream_err.text);
		trace_free(&p->t2);
		return -1;
	}
	return 0;
}

/* Pass 2 closed: 0, or 2 after an error reading it again. */
static int stream_stop(struct replay *p)
{
	int rc = 0;

	trace_stream_close(p->ts);
	p->ts = NULL;
	if (p->lat_path)
		latlog_close(&LL);
	if (p->stream_failed) {
		fprintf(stderr, "%s\n", p->stream_err.text);
		rc = EXIT_USAGE;
	}
	for (uint32_t i = 0; i < p->nthreads; i++) {
		free(p->threads[i].q);
		p->threads[i].q = NULL;
		p->threads[i].qcap = p->threads[i].qlen = 0;
	}
	trace_free(&p->t2);
	return rc;
}

/* One timed run of the plan with the world P.world already set. */
static int run_once(void)
{
	struct sim_exec_options exec = { 0 };
	struct sim_strategy strategy;
	struct sim_outcome outcome;
	uint32_t n = P.t->nrec ? P.t->nrec : 1;
	int rc = 0;

	plan_world(&P);
	if (P.nthreads > REPLAY_THREADS_MAX) {
		fprintf(stderr, "wpsim replay: error: the trace has %u threads; "
			"the engine runs at most %d tasks (SIM_TASKS_LIMIT, "
			"include/sim/engine.h), %d of them for traced threads "
			"(the flusher, kworkers and io-wq workers take the "
			"rest)\n", P.nthreads, SIM_TASKS_LIMIT,
			REPLAY_THREADS_MAX);
		return 2;
	}
	free(P.model_ns);
	free(P.model_ret);
	free(P.done);
	P.model_ns = NULL;
	P.model_ret = NULL;
	P.done = NULL;
	aggs_free(&P);
	if (!P.stream) {
		/* The trace held whole: each call's result (--calls). */
		P.model_ns = calloc(n, sizeof(*P.model_ns));
		P.model_ret = calloc(n, sizeof(*P.model_ret));
		P.done = calloc(n, sizeof(*P.done));
	} else if (stream_start(&P)) {
		return EXIT_USAGE;
	}
	sim_clock_configure(&(struct sim_clock_config){
		.cpus = P.cpus, .costs = P.costs.clock });
	m_cost_configure(&P.costs.model);
	sim_strategy_timed(&strategy, P.seed, 1);
	exec.long_run = true;
	exec.no_hash = true;	/* replay prints no event-log hash */
	exec.no_log = true;	/* nor any of its events */
	exec.steps_max = SIM_STEPS_LONG_LIMIT;
	P.recs_done = 0;
	P.recs_total = 0;
	for (uint32_t i = 0; i < P.nthreads; i++)
		P.recs_total += P.threads[i].n;
	P.progress_next = REPLAY_PROGRESS_RECS;
	P.host_start = host_seconds();
	sim_exec_run(&replay_program, &strategy, &exec, &outcome);
	sim_strategy_fini(&strategy);
	m_folios_limit = 0;	/* an --explore window's check: the default */
	P.total_ns = outcome.end_ns;
	if (P.stream)
		rc = stream_stop(&P);
	if (wpsim_stop_signal())
		fprintf(stderr, "wpsim replay: stopped by %s after %" PRIu64
			" of %" PRIu64 " records: the report covers those\n",
			wpsim_stop_signal_name(),
			P.recs_done, P.recs_total);
	if (outcome.kind != SIM_OK) {
		fprintf(stderr, "wpsim replay: the model failed (%s): %s\n",
			sim_failure_kind_name(outcome.kind), outcome.message);
		return 1;
	}
	return rc;
}

/* ---- output ----------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of sorted @v[0..n). */
static double pct_d(const double *v, size_t n, double q)
{
	size_t k = (size_t)ceil(q * (double)n);

	return v[k ? k - 1 : 0];
}

static uint64_t pct_u(const uint64_t *v, size_t n, double q)
{
	size_t k = (size_t)ceil(q * (double)n);

	return v[k ? k - 1 : 0];
}

static void fmt_ns(char *buf, size_t len, double ns)
{
	if (ns >= 1e6)
		snprintf(buf, len, "%.2fms", ns / 1e6);
	else if (ns >= 1e3)
		snprintf(buf, len, "%.1fus", ns / 1e3);
	else
		snprintf(buf, len, "%.0fns", ns);
}

struct vrow {
	char name[16];
	size_t n, timed;
	uint64_t *rec, *mod;
	double *ratio;
	uint64_t ret_differ;
};

static int cmp_agg_first(const void *a, const void *b)
{
	const struct vagg *x = *(const struct vagg *const *)a;
	const struct vagg *y = *(const struct vagg *const *)b;

	return x->first < y->first ? -1 : x->first > y->first;
}

/*
 * The table's rows, in the order of each syscall's first call in the
 * trace, from the figures gathered as the calls completed (rec_complete;
 * the percentiles do not depend on the order they came in).
 */
static size_t validation_rows(struct vrow *rows, size_t max)
{
	struct vagg **by = malloc((P.naggs + 1) * sizeof(*by));
	size_t nr = 0;

	if (!by)
		abort();
	for (uint32_t k = 0; k < P.naggs; k++)
		by[k] = &P.aggs[k];
	qsort(by, P.naggs, sizeof(*by), cmp_agg_first);
	for (uint32_t k = 0; k < P.naggs && nr < max; k++) {
		const struct vagg *a = by[k];
		struct vrow *v = &rows[nr++];
		size_t n = a->timed ? a->timed : 1;

		memset(v, 0, sizeof(*v));
		memcpy(v->name, a->name, sizeof(v->name));
		v->n = a->n;
		v->timed = a->timed;
		v->ret_differ = a->ret_differ;
		/* The row takes the figures (a run's table is made once):
		 * the ratios first, then each list sorted in place. */
		v->ratio = malloc(n * sizeof(double));
		if (!v->ratio)
			abort();
		for (size_t i = 0; i < a->timed; i++)
			v->ratio[i] = (double)a->mod[i] / (double)a->rec[i];
		v->rec = a->rec ? a->rec : calloc(1, sizeof(uint64_t));
		v->mod = a->mod ? a->mod : calloc(1, sizeof(uint64_t));
		by[k]->rec = by[k]->mod = NULL;
		by[k]->timed = by[k]->cap = 0;
		qsort(v->rec, v->timed, sizeof(uint64_t), cmp_u64);
		qsort(v->mod, v->timed, sizeof(uint64_t), cmp_u64);
		qsort(v->ratio, v->timed, sizeof(double), cmp_double);
	}
	free(by);
	return nr;
}

static void free_rows(struct vrow *rows, size_t nr)
{
	for (size_t k = 0; k < nr; k++) {
		free(rows[k].rec);
		free(rows[k].mod);
		free(rows[k].ratio);
	}
}

static int cmp_count_dur(const void *a, const void *b)
{
	const struct trace_count *x = *(const struct trace_count *const *)a;
	const struct trace_count *y = *(const struct trace_count *const *)b;

	return x->dur_ns < y->dur_ns ? 1 : x->dur_ns > y->dur_ns ? -1 :
	       strcmp(x->name, y->name);
}

/*
 * What share of the recorded time (the -T durations of every call the
 * trace holds) the replayed calls cover, and the calls not replayed that
 * take the most of it, by syscall and reason.
 */
static void print_time_share(FILE *out)
{
	const struct trace *t = P.t;
	const struct trace_count **rows;
	uint64_t total = 0, used = 0;
	size_t n = 0;

	for (uint32_t i = 0; i < t->ncounts; i++) {
		total += t->counts[i].dur_ns;
		if (!t->counts[i].reason[0])
			used += t->counts[i].dur_ns;
	}
	if (!total)
		return;
	fprintf(out, "recorded time in calls: %.3f s; the replayed calls "
		"took %.1f%% of it, the calls not replayed %.1f%%",
		(double)total / 1e9, 100.0 * (double)used / (double)total,
		100.0 * (double)(total - used) / (double)total);
	rows = malloc(t->ncounts * sizeof(*rows));
	for (uint32_t i = 0; i < t->ncounts; i++)
		if (t->counts[i].reason[0] && t->counts[i].dur_ns)
			rows[n++] = &t->counts[i];
	qsort(rows, n, sizeof(*rows), cmp_count_dur);
	fprintf(out, "%s\n", n ? ", the most:" : "");
	for (size_t k = 0; k < n && k < 8; k++)
		fprintf(out, "  %-16s %8" PRIu64 " calls %6.1f%%  %s\n",
			rows[k]->name, rows[k]->n, 100.0 *
			(double)rows[k]->dur_ns / (double)total,
			rows[k]->reason);
	free(rows);
}

static void print_validation(FILE *out)
{
	struct vrow rows[32];
	size_t nr = validation_rows(rows, 32);

	fprintf(out, "validation (recorded -T durations vs the model's; "
		"ratio = model/recorded):\n");
	fprintf(out, "  %-16s %6s %6s %10s %10s %9s %9s %8s\n", "syscall",
		"calls", "timed", "rec p50", "model p50", "ratio p50",
		"ratio p90", "results");
	for (size_t k = 0; k < nr; k++) {
		struct vrow *v = &rows[k];
		char a[24] = "-", b[24] = "-", c[24] = "-", d[24] = "-";
		char e[40];

		if (v->timed) {
			fmt_ns(a, sizeof(a), (double)pct_u(v->rec, v->timed,
							   0.5));
			fmt_ns(b, sizeof(b), (double)pct_u(v->mod, v->timed,
							   0.5));
			snprintf(c, sizeof(c), "%.2f", pct_d(v->ratio,
							     v->timed, 0.5));
			snprintf(d, sizeof(d), "%.2f", pct_d(v->ratio,
							     v->timed, 0.9));
		}
		if (v->ret_differ)
			snprintf(e, sizeof(e), "%" PRIu64 " differ",
				 v->ret_differ);
		else
			snprintf(e, sizeof(e), "same");
		fprintf(out, "  %-16s %6zu %6zu %10s %10s %9s %9s %8s\n",
			v->name, v->n, v->timed, a, b, c, d, e);
	}
	free_rows(rows, nr);
	print_time_share(out);
}

static const char *ret_text(const struct trace_rec *r)
{
	static char buf[32];

	if (!r->has_ret)
		return "?";
	snprintf(buf, sizeof(buf), "%" PRId64, r->ret);
	return buf;
}

static void print_calls(FILE *out)
{
	fprintf(out, "calls (record, thread, line, syscall, offset, length, "
		"recorded result and duration, the model's):\n");
	for (uint32_t i = 0, k = 0; i < P.t->nrec; i++) {
		const struct trace_rec *r = &P.t->recs[i];
		char a[24] = "-", b[24];

		if (r->dropped || !P.done[i])
			continue;
		k++;
		if (r->dur_ns != TRACE_DUR_NONE)
			fmt_ns(a, sizeof(a), (double)r->dur_ns);
		fmt_ns(b, sizeof(b), (double)P.model_ns[i]);
		fprintf(out, "  %5u T%-3u %6u %-16s %8" PRId64 " %6" PRIu64
			"  rec %9s = %-8s model %9s = %" PRId64 "\n", k,
			r->thread + 1, r->line, r->name, r->offset, r->len, a,
			ret_text(r), b, P.model_ret[i]);
	}
}

static void print_totals(FILE *out, const char *label)
{
	uint64_t wios = 0, wbytes = 0, rios = 0, rbytes = 0, sios = 0;
	double wlat = 0, rlat = 0, slat = 0;
	double run_ms = (double)P.end_ns / 1e6;

	for (uint32_t i = 0; i < P.nthreads; i++) {
		const struct fio_result *r = P.threads[i].result;
		const struct fio_ddir_result *w = &r->ddir[FIO_DDIR_WRITE];
		const struct fio_ddir_result *rd = &r->ddir[FIO_DDIR_READ];

		wios += w->total_ios;
		wbytes += w->io_bytes;
		wlat += w->clat.stat.mean * (double)w->clat.stat.samples;
		rios += rd->total_ios;
		rbytes += rd->io_bytes;
		rlat += rd->clat.stat.mean * (double)rd->clat.stat.samples;
		sios += r->sync.stat.samples;
		slat += r->sync.stat.mean * (double)r->sync.stat.samples;
	}
	fprintf(out, "%s: %u threads, %u model inodes (%lu pages each), "
		"virtual run %.3f ms\n", label, P.nthreads, P.nslots,
		m_file_pages_max, run_ms);
	if (wios)
		fprintf(out, "  write: IOPS=%.0f, BW=%.0fKiB/s (%.1fKiB in "
			"%.3fms), clat avg=%.2fus\n", run_ms > 0 ?
			(double)wios * 1000.0 / run_ms : 0, run_ms > 0 ?
			(double)wbytes / 1024.0 * 1000.0 / run_ms : 0,
			(double)wbytes / 1024.0, run_ms,
			wlat / (double)wios / 1e3);
	if (rios)
		fprintf(out, "  read: IOPS=%.0f, BW=%.0fKiB/s (%.1fKiB in "
			"%.3fms), clat avg=%.2fus\n", run_ms > 0 ?
			(double)rios * 1000.0 / run_ms : 0, run_ms > 0 ?
			(double)rbytes / 1024.0 * 1000.0 / run_ms : 0,
			(double)rbytes / 1024.0, run_ms,
			rlat / (double)rios / 1e3);
	if (sios)
		fprintf(out, "  fsync/fdatasync/sync_file_range: %" PRIu64
			" calls, avg=%.2fus\n", sios, slat / (double)sios /
			1e3);
	fprintf(out, "  device: %" PRIu64 " bios, %" PRIu64 " flushes, %"
		PRIu64 " FUA writes, %" PRIu64 " log writes\n", P.dev.bios,
		P.dev.flushes, P.dev.fua_writes, P.dev.log_writes);
}

/* --compare: per syscall, the model's p50 and p50 ratio per variant. */
struct crow {
	char name[16];
	uint64_t rec50;
	bool have[REPLAY_VARIANTS_MAX];
	uint64_t mod50[REPLAY_VARIANTS_MAX];
	double r50[REPLAY_VARIANTS_MAX];
};

static struct crow crows[32];
static size_t ncrows;
static char clabels[REPLAY_VARIANTS_MAX][160];
static double cruns[REPLAY_VARIANTS_MAX];

static void compare_collect(unsigned int v, const char *label)
{
	struct vrow rows[32];
	size_t nr = validation_rows(rows, 32);

	if (v == 0)
		ncrows = 0;
	snprintf(clabels[v], sizeof(clabels[v]), "%s", label);
	cruns[v] = (double)P.end_ns / 1e6;
	for (size_t k = 0; k < nr; k++) {
		struct crow *c = NULL;

		if (!rows[k].timed)
			continue;
		for (size_t i = 0; i < ncrows; i++)
			if (!strcmp(crows[i].name, rows[k].name))
				c = &crows[i];
		if (!c) {
			if (ncrows == 32)
				continue;
			c = &crows[ncrows++];
			memset(c, 0, sizeof(*c));
			memcpy(c->name, rows[k].name, sizeof(c->name));
			c->name[sizeof(c->name) - 1] = '\0';
			c->rec50 = pct_u(rows[k].rec, rows[k].timed, 0.5);
		}
		c->have[v] = true;
		c->mod50[v] = pct_u(rows[k].mod, rows[k].timed, 0.5);
		c->r50[v] = pct_d(rows[k].ratio, rows[k].timed, 0.5);
	}
	free_rows(rows, nr);
}

static void compare_print(FILE *out, unsigned int n)
{
	fprintf(out, "side by side (model p50, and in parentheses the p50 of "
		"model/recorded):\n  %-16s %10s", "syscall", "recorded");
	for (unsigned int v = 0; v < n; v++)
		fprintf(out, " %22s", clabels[v]);
	fprintf(out, "\n");
	for (size_t i = 0; i < ncrows; i++) {
		char a[24];

		fmt_ns(a, sizeof(a), (double)crows[i].rec50);
		fprintf(out, "  %-16s %10s", crows[i].name, a);
		for (unsigned int v = 0; v < n; v++) {
			char b[24], c[40];

			if (!crows[i].have[v]) {
				fprintf(out, " %22s", "-");
				continue;
			}
			fmt_ns(b, sizeof(b), (double)crows[i].mod50[v]);
			snprintf(c, sizeof(c), "%s (%.2f)", b, crows[i].r50[v]);
			fprintf(out, " %22s", c);
		}
		fprintf(out, "\n");
	}
	fprintf(out, "  %-16s %10s", "virtual run", "");
	for (unsigned int v = 0; v < n; v++) {
		char c[40];

		snprintf(c, sizeof(c), "%.3f ms", cruns[v]);
		fprintf(out, " %22s", c);
	}
	fprintf(out, "\n");
}

/* ---- explore ---------------------------------------------------------- */

struct pagemap {
	int64_t page[REPLAY_WINDOW_PAGES];	/* window page -> trace page */
	unsigned int n;
	unsigned int limit;		/* --pages */
};

static int map_find(const struct pagemap *m, int64_t page)
{
	for (unsigned int i = 0; i < m->n; i++)
		if (m->page[i] == page)
			return (int)i;
	return -1;
}

static int map_page(struct pagemap *m, int64_t page)
{
	int i = map_find(m, page);

	if (i >= 0)
		return i;
	if (m->n == m->limit)
		return -1;
	m->page[m->n] = page;
	return (int)m->n++;
}

static bool is_sync(const struct trace_rec *r)
{
	return r->op == TRACE_OP_FSYNC || r->op == TRACE_OP_FDATASYNC ||
	       r->op == TRACE_OP_SYNC_FILE_RANGE;
}

static bool window_op(const struct trace_rec *r)
{
	return r->op == TRACE_OP_WRITE || r->op == TRACE_OP_READ ||
	       is_sync(r) || r->op == TRACE_OP_FTRUNCATE ||
	       r->op == TRACE_OP_FALLOCATE || r->op == TRACE_OP_MUNMAP;
}

static void flags_text(char *buf, size_t len, uint32_t f,
		       const char *const *names, const uint32_t *vals,
		       size_t n)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		if (!(f & vals[i]))
			continue;
		o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? "|" : "",
				      names[i]);
	}
	if (!o)
		snprintf(buf, len, "0");
}

/* A window of used records as a scenario: what emit_scenario builds. */
struct window {
	uint32_t from, to;
	unsigned int pages_max;
	/* By model file (slot), [P.nslots]: */
	struct pagemap *maps;
	bool *used_slot;
	/* Its file's name in the scenario (window_fnames), -1 unused:
	 * by slot when the window uses slots below M_FILES_MAX only (as
	 * before files were unbounded), else in the order of use. */
	int *fname;
	unsigned int nfnames;
	bool too_many_files;	/* more than M_FILES_MAX used */
	/* By window page: written before the window, and not yet synced. */
	bool (*written_before)[REPLAY_WINDOW_PAGES];
	bool (*dirty_before)[REPLAY_WINDOW_PAGES];
	uint64_t *size_before;
	uint32_t *idx;		/* [1..nused]: used record -> trace record */
	uint32_t nused;
	char cond[8192];	/* the condition's result clauses */
	size_t co;
	bool clipped;		/* a call was cut to the pages kept */
	bool unchecked;		/* calls past r31 (LITMUS_REGS_MAX) */
	/* The start state from the timed run (window_snapshot): per kept
	 * page its block's state (H U W D) and whether it is cached. */
	bool timed;
	char (*layout_before)[REPLAY_WINDOW_PAGES];
	bool (*cached_before)[REPLAY_WINDOW_PAGES];
};

/* The per-slot tables of @w; false when out of memory. */
static bool window_alloc(struct window *w, unsigned int nslots)
{
	size_t n = nslots ? nslots : 1;

	w->maps = calloc(n, sizeof(*w->maps));
	w->used_slot = calloc(n, sizeof(*w->used_slot));
	w->fname = calloc(n, sizeof(*w->fname));
	w->written_before = calloc(n, sizeof(*w->written_before));
	w->dirty_before = calloc(n, sizeof(*w->dirty_before));
	w->size_before = calloc(n, sizeof(*w->size_before));
	w->layout_before = calloc(n, sizeof(*w->layout_before));
	w->cached_before = calloc(n, sizeof(*w->cached_before));
	return w->maps && w->used_slot && w->fname && w->written_before &&
	       w->dirty_before && w->size_before && w->layout_before &&
	       w->cached_before;
}

static void window_free(struct window *w)
{
	free(w->maps);
	free(w->used_slot);
	free(w->fname);
	free(w->written_before);
	free(w->dirty_before);
	free(w->size_before);
	free(w->layout_before);
	free(w->cached_before);
	free(w->idx);
	free(w);
}

static const char *const window_fnames[M_FILES_MAX] = {
	"f", "g", "h", "k", "f4", "f5", "f6", "f7", "f8", "f9", "f10", "f11",
	"f12", "f13", "f14", "f15",
};

static int window_slot(const struct trace_rec *r)
{
	return P.slot[r - P.t->recs];
}

/* Slot @s's file name in the scenario. */
static const char *wfname(const struct window *w, int s)
{
	return window_fnames[w->fname[s]];
}

/* The scenario's names of the slots the window uses (window_pages). */
static void window_names(struct window *w)
{
	bool by_slot = true;

	for (unsigned int s = 0; s < P.nslots; s++)
		if (w->used_slot[s] && s >= M_FILES_MAX)
			by_slot = false;
	w->nfnames = 0;
	for (unsigned int s = 0; s < P.nslots; s++) {
		w->fname[s] = -1;
		if (!w->used_slot[s])
			continue;
		if (w->nfnames == M_FILES_MAX) {
			w->too_many_files = true;
			continue;
		}
		w->fname[s] = by_slot ? (int)s : (int)w->nfnames;
		w->nfnames++;
	}
}

/* The state before the window of the pages it keeps: written before and
 * not synced since are dirty; i_size as the trace grew it. */
static void window_state_before(struct window *w)
{
	for (uint32_t k = 1; k < w->from; k++) {
		const struct trace_rec *r = &P.t->recs[w->idx[k]];
		int s = window_slot(r);

		if (s < 0)
			continue;
		if (r->op == TRACE_OP_WRITE && r->len) {
			for (uint64_t pg = (uint64_t)r->offset >> PAGE_SHIFT;
			     pg <= ((uint64_t)r->offset + r->len - 1) >>
			     PAGE_SHIFT; pg++) {
				int m = map_find(&w->maps[s], (int64_t)pg);

				if (m < 0)
					continue;
				w->written_before[s][m] = true;
				w->dirty_before[s][m] = !(r->flags &
					(TRACE_RWF_DSYNC | TRACE_RWF_SYNC));
			}
			if ((uint64_t)r->offset + r->len > w->size_before[s])
				w->size_before[s] = (uint64_t)r->offset +
						    r->len;
		} else if (r->op == TRACE_OP_FSYNC ||
			   r->op == TRACE_OP_FDATASYNC) {
			memset(w->dirty_before[s], 0,
			       sizeof(w->dirty_before[s]));
		} else if (r->op == TRACE_OP_SYNC_FILE_RANGE &&
			   (r->flags & TRACE_SFR_WRITE)) {
			memset(w->dirty_before[s], 0,
			       sizeof(w->dirty_before[s]));
		} else if (r->op == TRACE_OP_FTRUNCATE) {
			w->size_before[s] = (uint64_t)r->offset;
		} else if (r->op == TRACE_OP_UNLINK) {
			/* Nothing of an unlinked file stays. */
			w->size_before[s] = 0;
			memset(w->written_before[s], 0,
			       sizeof(w->written_before[s]));
			memset(w->dirty_before[s], 0,
			       sizeof(w->dirty_before[s]));
		}
	}
}

/*
 * The model's state where the timed run stopped, before the window's
 * first call (the last traced thread to stop reads it; no other task
 * runs then but the flusher, which ends with them): i_size, and for each
 * kept page its block's state, whether it is cached and whether it is
 * dirty.  A page under writeback counts as dirty: its data is not yet
 * on the device, and the scenario language has no writeback state.
 */
static void window_snapshot(struct window *w)
{
	struct m_world *world = m_world();

	for (unsigned int s = 0; s < P.nslots; s++) {
		struct km_inode *inode;

		if (!w->used_slot[s])
			continue;
		if (P.slot_world[s] < 0) {
			/* Not created yet: no size, no page. */
			w->size_before[s] = 0;
			for (unsigned int m = 0; m < w->maps[s].n; m++) {
				w->layout_before[s][m] = M_EXT_HOLE;
				w->cached_before[s][m] = false;
				w->written_before[s][m] = false;
				w->dirty_before[s][m] = false;
			}
			continue;
		}
		inode = world->inodes[P.slot_world[s]];
		w->size_before[s] = sim_word_peek(&inode->i_size);
		for (unsigned int m = 0; m < w->maps[s].n; m++) {
			int64_t pg = w->maps[s].page[m];
			struct km_folio *folio = m_world_folio_at(inode, pg);

			w->layout_before[s][m] = pg < (int64_t)m_file_pages_max
				? m_extent_peek(inode, (unsigned long)pg) :
				M_EXT_HOLE;
			w->cached_before[s][m] = folio != NULL;
			w->written_before[s][m] = folio != NULL;
			w->dirty_before[s][m] = folio &&
				(m_folio_flag_peek(folio, PG_dirty) ||
				 m_folio_flag_peek(folio, PG_writeback));
		}
	}
	w->timed = true;
}

/* The pages the window touches, renumbered in the order it does. */
static void window_pages(struct window *w)
{
	for (uint32_t k = w->from; k <= w->to; k++) {
		const struct trace_rec *r = &P.t->recs[w->idx[k]];
		int s = window_slot(r);

		if (s < 0 || !window_op(r))
			continue;
		w->used_slot[s] = true;
		if (r->op != TRACE_OP_WRITE && r->op != TRACE_OP_READ &&
		    r->op != TRACE_OP_FALLOCATE)
			continue;
		for (uint64_t pg = (uint64_t)r->offset >> PAGE_SHIFT;
		     r->len && pg <= ((uint64_t)r->offset + r->len - 1) >>
		     PAGE_SHIFT; pg++) {
			if (map_page(&w->maps[s], (int64_t)pg) < 0)
				w->clipped = true;
		}
	}
}

static void emit_header(FILE *out, const struct window *w,
			const char *trace_name, bool flusher)
{
	fprintf(out, "wpsim replay-%s-%u-%u\n", trace_name, w->from, w->to);
	fprintf(out, "\"Calls %u..%u of %s (wpsim replay --explore)%s\"\n\n",
		w->from, w->to, trace_name, flusher ? ", with the flusher" :
		"");
	fprintf(out, "(*\n * Emitted by wpsim replay from %s, calls %u..%u "
		"(the numbering of\n * wpsim replay --calls); the start state %s.",
		trace_name, w->from, w->to, w->timed ? "is the model's where "
		"a timed replay of the\n * calls before it stopped (a page "
		"under writeback is dirty)" : "is what the trace's\n * calls "
		"before it imply (--trace-state)");
	fprintf(out, "\n * Pages are renumbered from 0 in the order the "
		"window touches them;\n * open, close, lseek, dup, mmap, "
		"unlink and rename are not ops of the\n * scenario language "
		"and are left out.  At most %u pages of a file are\n * kept "
		"(--pages)%s.\n", w->pages_max, w->clipped ? "; calls are cut "
		"to them, their expected results too" : "");
	for (unsigned int s = 0; s < P.nslots; s++) {
		if (!w->used_slot[s])
			continue;
		fprintf(out, " * %s = %s, pages:", wfname(w, s),
			P.t->files[P.slot_file[s]].path);
		for (unsigned int i = 0; i < w->maps[s].n; i++)
			fprintf(out, " %" PRId64 "->%u", w->maps[s].page[i], i);
		fprintf(out, "\n");
	}
	fprintf(out, " *)\n\n");
}

/* One file item: its layout, cached and dirty pages, size. */
static void emit_file(FILE *out, const struct window *w, unsigned int s)
{
	char lay[REPLAY_WINDOW_PAGES + 1];
	unsigned int n = w->maps[s].n ? w->maps[s].n : 1;
	long dfirst = -1, dlast = -2, cfirst = -1, clast = -2;
	uint64_t size = 0;

	for (unsigned int i = 0; i < n; i++) {
		int64_t pg = w->maps[s].n ? w->maps[s].page[i] : 0;
		bool existed = (uint64_t)pg << PAGE_SHIFT < w->size_before[s];

		lay[i] = existed ? 'W' : 'H';
		if (w->timed && w->maps[s].n) {
			lay[i] = w->layout_before[s][i];
			if (!existed && lay[i] == M_EXT_WRITTEN)
				lay[i] = M_EXT_HOLE;	/* past EOF */
		}
		if (existed)
			size = ((uint64_t)i + 1) << PAGE_SHIFT;
		if (existed && w->maps[s].n && w->written_before[s][i]) {
			if (w->dirty_before[s][i]) {
				if (dfirst < 0)
					dfirst = (long)i;
				dlast = (long)i;
			}
			if (cfirst < 0)
				cfirst = (long)i;
			clast = (long)i;
		}
	}
	lay[n] = '\0';
	fprintf(out, "  file %s: size=%" PRIu64 ", bsize=4096, "
		"folio=4096, layout=%s", wfname(w, s), size, lay);
	/* Contiguous ranges only: a gap ends them. */
	if (cfirst >= 0)
		fprintf(out, ", cached=%ld-%ld", cfirst, clast);
	if (dfirst >= 0)
		fprintf(out, ", dirty=%ld-%ld", dfirst, dlast);
	fprintf(out, ", open=O_RDWR;\n");
}

/*
 * A call's range within the pages kept: *@off in the renumbered pages,
 * *@len and *@ret cut at the first page not kept.  False if its first
 * page is not kept (or it is empty).
 */
static bool window_range(const struct window *w, int s,
			 const struct trace_rec *r, int64_t *off,
			 uint64_t *len, int64_t *ret)
{
	int pg = map_find(&w->maps[s], r->offset >> PAGE_SHIFT);
	uint64_t keep;
	int j = 1;

	if (pg < 0 || !r->len)
		return false;
	*off = ((int64_t)pg << PAGE_SHIFT) + (r->offset & (PAGE_SIZE - 1));
	keep = PAGE_SIZE - (uint64_t)(r->offset & (PAGE_SIZE - 1));
	while (keep < r->len && map_find(&w->maps[s], (r->offset >>
						   PAGE_SHIFT) + j) == pg + j) {
		keep += PAGE_SIZE;
		j++;
	}
	if (keep < *len) {
		if (r->has_ret && *ret == (int64_t)*len)
			*ret = (int64_t)keep;
		*len = keep;
	}
	return true;
}

/* The statement of one call (without the register and newline). */
static void emit_op(FILE *out, const struct trace_rec *r, const char *f,
		    int64_t off, uint64_t len)
{
	static const char *const rwf_nm[] = { "RWF_DSYNC", "RWF_SYNC",
					      "RWF_NOWAIT", "RWF_DONTCACHE" };
	static const uint32_t rwf_vl[] = { TRACE_RWF_DSYNC, TRACE_RWF_SYNC,
					   TRACE_RWF_NOWAIT,
					   TRACE_RWF_DONTCACHE };
	static const char *const sfr_nm[] = { "SYNC_FILE_RANGE_WAIT_BEFORE",
					      "SYNC_FILE_RANGE_WRITE",
					      "SYNC_FILE_RANGE_WAIT_AFTER" };
	static const uint32_t sfr_vl[] = { 1, 2, 4 };
	char fl[128];

	switch (r->op) {
	case TRACE_OP_WRITE:
		flags_text(fl, sizeof(fl), r->flags, rwf_nm, rwf_vl, 4);
		if (!strcmp(fl, "0"))
			fprintf(out, "pwrite(%s, %" PRId64 ", %" PRIu64 ");",
				f, off, len);
		else
			fprintf(out, "pwritev2(%s, %" PRId64 ", %" PRIu64
				", %s);", f, off, len, fl);
		break;
	case TRACE_OP_READ:
		fprintf(out, "pread(%s, %" PRId64 ", %" PRIu64 ");", f, off,
			len);
		break;
	case TRACE_OP_FSYNC:
		fprintf(out, "fsync(%s);", f);
		break;
	case TRACE_OP_FDATASYNC:
		fprintf(out, "fdatasync(%s);", f);
		break;
	case TRACE_OP_SYNC_FILE_RANGE:
		flags_text(fl, sizeof(fl), r->flags, sfr_nm, sfr_vl, 3);
		/* The window's pages: the whole file. */
		fprintf(out, "sync_file_range(%s, 0, 0, %s);", f, fl);
		break;
	case TRACE_OP_FTRUNCATE:
		fprintf(out, "truncate(%s, %" PRId64 ");", f, r->offset);
		break;
	case TRACE_OP_FALLOCATE:
		if (r->flags & TRACE_FALLOC_PUNCH_HOLE)
			fprintf(out, "punch_hole(%s, %" PRId64 ", %" PRIu64
				");", f, off, len);
		else
			fprintf(out, "fallocate(%s, %" PRId64 ", %" PRIu64
				"%s);", f, off, len, r->flags &
				TRACE_FALLOC_KEEP_SIZE ?
				", FALLOC_FL_KEEP_SIZE" : "");
		break;
	case TRACE_OP_MUNMAP:
		fprintf(out, "munmap(%s);", f);
		break;
	default:
		break;
	}
}

/* Traced thread @th's calls of the window as thread P@pn; false if none. */
static bool emit_thread(FILE *out, struct window *w, uint32_t th,
			uint32_t pn)
{
	const struct trace *t = P.t;
	bool any = false;
	uint32_t nreg = 0;

	for (uint32_t k = w->from; k <= w->to; k++) {
		const struct trace_rec *r = &t->recs[w->idx[k]];
		int s = window_slot(r);
		int64_t off = 0, ret;
		uint64_t len;
		uint32_t reg;

		if (r->thread != th || s < 0 || !window_op(r))
			continue;
		if (!any) {
			fprintf(out, "P%u {  // traced thread %u (pid %" PRIu64
				")\n", pn, th + 1, t->threads[th].pid);
			any = true;
		}
		len = r->len;
		ret = r->ret;
		if ((r->op == TRACE_OP_WRITE || r->op == TRACE_OP_READ ||
		     r->op == TRACE_OP_FALLOCATE) &&
		    !window_range(w, s, r, &off, &len, &ret)) {
			fprintf(out, "  // trace line %u, %s: outside the "
				"pages kept (--pages %u)\n", r->line, r->name,
				w->pages_max);
			continue;
		}
		fprintf(out, "  // trace line %u: %s\n", r->line, r->name);
		if (nreg == LITMUS_REGS_MAX) {
			/* r0..r31 are taken: the call runs, its result is
			 * not compared. */
			fprintf(out, "  // result not compared: a thread has "
				"%d registers (r0..r%d)\n  ", LITMUS_REGS_MAX,
				LITMUS_REGS_MAX - 1);
			emit_op(out, r, wfname(w, s), off, len);
			fprintf(out, "\n");
			w->unchecked = true;
			continue;
		}
		reg = nreg++;
		fprintf(out, "  r%u = ", reg);
		emit_op(out, r, wfname(w, s), off, len);
		fprintf(out, "\n");
		if (r->has_ret && r->op != TRACE_OP_MUNMAP &&
		    w->co + 64 < sizeof(w->cond))
			w->co += (size_t)snprintf(w->cond + w->co,
				sizeof(w->cond) - w->co,
				"\n         \\/ %u:r%u != %s%" PRId64, pn, reg,
				ret < 0 ? "-" : "", ret < 0 ? -ret : ret);
	}
	if (any)
		fprintf(out, "}\n\n");
	return any;
}

/*
 * Write the scenario of used records [from, to] (indexes counted from 1
 * over used records, as --calls prints them).  Return 0, or -1.
 */
static int emit_scenario(FILE *out, const char *trace_name, uint32_t from,
			 uint32_t to, bool flusher, unsigned int pages_max,
			 bool timed_start)
{
	struct trace *t = P.t;
	struct window *w = calloc(1, sizeof(*w));
	uint32_t pn = 0;
	int rc;

	if (!w || !window_alloc(w, P.nslots))
		abort();
	w->from = from;
	w->to = to;
	w->pages_max = pages_max;
	w->idx = calloc(t->nrec + 1, sizeof(uint32_t));
	for (unsigned int s = 0; s < P.nslots; s++)
		w->maps[s].limit = pages_max;
	for (unsigned int s = 0; s < P.nslots; s++)
		w->size_before[s] = P.slot_truncated[s] ? 0 :
				    (uint64_t)P.slot_config[s].size;
	for (uint32_t i = 0; i < t->nrec; i++)
		if (!t->recs[i].dropped)
			w->idx[++w->nused] = i;
	if (!from || from > to || to > w->nused) {
		fprintf(stderr, "wpsim replay: error: the window %u..%u is "
			"not inside the %u calls the model runs\n", from, to,
			w->nused);
		window_free(w);
		return -1;
	}
	window_pages(w);
	window_names(w);
	if (w->too_many_files) {
		fprintf(stderr, "wpsim replay: error: the window %u..%u uses "
			"more than %d files; a scenario holds at most %d "
			"(M_FILES_MAX, include/model/linux/types.h): choose a "
			"smaller window\n", from, to, M_FILES_MAX,
			M_FILES_MAX);
		window_free(w);
		return -1;
	}
	if (timed_start) {
		/* The timed run up to the window: its state is the start. */
		P.stop_before = from;
		P.snap = w;
		P.ordinal = calloc(t->nrec + 1, sizeof(*P.ordinal));
		for (uint32_t k = 1; k <= w->nused; k++)
			P.ordinal[w->idx[k]] = k;
		rc = run_once();
		P.stop_before = 0;
		P.snap = NULL;
		free(P.ordinal);
		P.ordinal = NULL;
		if (rc) {
			window_free(w);
			return -1;
		}
	} else {
		window_state_before(w);
	}
	emit_header(out, w, trace_name, flusher);
	fprintf(out, "{\n");
	for (unsigned int s = 0; s < P.nslots; s++)
		if (w->used_slot[s])
			emit_file(out, w, s);
	fprintf(out, "  bound steps=60000;\n}\n\n");
	for (uint32_t th = 0; th < t->nthreads; th++)
		pn += emit_thread(out, w, th, pn);
	if (flusher) {
		fprintf(out, "P%u {  // the flusher, one pass per file\n", pn);
		for (unsigned int s = 0; s < P.nslots; s++)
			if (w->used_slot[s])
				fprintf(out, "  writeback(%s, WB_SYNC_NONE);\n",
					wfname(w, s));
		fprintf(out, "}\n\n");
	}
	fprintf(out, "(* No violation, no lost data, the results the kernel "
		"gave. *)\n~exists (violation");
	for (unsigned int s = 0; s < P.nslots; s++)
		if (w->used_slot[s])
			fprintf(out, " \\/ %s.lost_sectors > 0",
				wfname(w, s));
	fprintf(out, "%s)\n", w->cond);
	window_free(w);
	return 0;
}

/* ---- the command ------------------------------------------------------ */

static void replay_usage(FILE *out)
{
	fprintf(out,
"usage: wpsim replay TRACE [--summary] [--skip-bad]\n"
"                   [--device NAME] [--cpu-profile NAME] [--cpus N]\n"
"                   [--fs xfs|ext4] [--ram SIZE] [--mem SIZE]\n"
"                   [--seed N] [--progress] [--blkparse FILE]\n"
"                   [--lat-log FILE] [--keep-trace] [--read-buffer SIZE]\n"
"                   [--variant KEY=VALUE]... [--calls]\n"
"                   [--compare KEY=V1,V2...]\n"
"                   [--explore (--from A --to B | --window K)]\n"
"                   [--emit-scenario OUT.litmus] [--pages N]\n"
"                   [--no-flusher] [--trace-state]\n"
"\n"
"TRACE is strace text (strace -f -tt -T -y -o FILE, or -ttt) or a fio\n"
"iolog (v2, v3).  Timed mode (default): one model task per traced thread\n"
"issues its calls with the recorded think time; prints fio-style totals\n"
"and the validation table (recorded durations vs the model's).\n"
"--device, --cpu-profile, --cpus, --fs, --ram (the machine's memory:\n"
"the dirty limits, default 16g) and --mem (a page-cache limit: clean\n"
"pages are reclaimed past it) as in wpsim fio.  Progress goes to stderr\n"
"on a terminal or with --progress; SIGINT or SIGTERM stops the replay\n"
"and prints the report of what ran.  --blkparse FILE (blkparse's default\n"
"text of the recorded run) prints its device stream beside the model's.\n"
"--lat-log FILE (an iolog's: fio --write_lat_log with --log_offset=1)\n"
"gives its I/O records fio's latencies, so the validation table has timed\n"
"rows.  The trace is read as the replay goes (twice: once to plan, once\n"
"to run; --read-buffer, default 1m), unless --keep-trace, --calls or\n"
"--explore, which hold it whole.\n"
"--summary only imports and prints the counts by syscall.  --calls also\n"
"lists every call.  --compare runs once per value of one variant key.\n"
"--explore checks a window of calls (--from/--to, numbered as --calls\n"
"prints them, or --window K: the K calls before each sync point and the\n"
"sync and the K after) as a scenario with DPOR, over at most --pages N\n"
"pages of a file (default 1; calls are cut to them), with a flusher\n"
"thread unless --no-flusher; --emit-scenario writes it.  The window\n"
"starts from the model's state where a timed replay up to --from left\n"
"it, or with --trace-state from the state the trace's calls imply.\n"
"docs/traces.md.\n");
}

static bool is_value_option(const char *a)
{
	static const char *const opts[] = {
		"--device", "--emit-scenario", "--compare", "--variant",
		"--cpu-profile", "--fs", "--ram", "--mem", "--blkparse",
		"--cpus", "--seed", "--from", "--to", "--window", "--pages",
		"--read-buffer", "--lat-log", NULL,
	};

	for (int i = 0; opts[i]; i++)
		if (!strcmp(a, opts[i]))
			return true;
	return false;
}

/* A size: N with k, m, g or t (powers of 1024), as wpsim fio's. */
static int parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	int shift = 0;

	if (end == s)
		return -1;
	switch (tolower((unsigned char)*end)) {
	case 'k':
		shift = 10;
		break;
	case 'm':
		shift = 20;
		break;
	case 'g':
		shift = 30;
		break;
	case 't':
		shift = 40;
		break;
	case '\0':
		break;
	default:
		return -1;
	}
	if (shift && end[1] && strcasecmp(end + 1, "b") &&
	    strcasecmp(end + 1, "ib"))
		return -1;
	if (v > (UINT64_MAX >> shift))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

static int parse_u32(const char *s, uint32_t *out)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (!*s || *end || v > UINT32_MAX)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

static int explore_window(const char *trace_name, uint32_t from, uint32_t to,
			  const char *emit, bool flusher, unsigned int pages,
			  char vars[][128], unsigned int nvars,
			  unsigned int wnum)
{
	char path[1100];
	FILE *f;
	struct wpsim_scenario *sc;
	struct wpsim_opts opts;
	int rc;

	if (emit) {
		if (wnum > 1) {
			const char *dot = strrchr(emit, '.');
			int stem = dot ? (int)(dot - emit) : (int)strlen(emit);

			snprintf(path, sizeof(path), "%.*s-%u%s", stem, emit,
				 wnum, dot ? dot : "");
		} else {
			snprintf(path, sizeof(path), "%s", emit);
		}
	} else {
		snprintf(path, sizeof(path), "%s/wpsim-replay-%d-%u.litmus",
			 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
			 (int)getpid(), wnum);
	}
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		return EXIT_USAGE;
	}
	rc = emit_scenario(f, trace_name, from, to, flusher, pages,
			   !P.trace_state);
	fclose(f);
	if (rc) {
		if (!emit)
			unlink(path);
		return EXIT_USAGE;
	}
	if (emit)
		printf("wpsim replay: window %u..%u written to %s\n", from, to,
		       path);
	sc = wpsim_scenario_load(path, stderr);
	if (!sc) {
		if (!emit)
			unlink(path);
		return EXIT_USAGE;
	}
	memset(&opts, 0, sizeof(opts));
	opts.preemptions = -1;
	opts.strategy = "dpor";
	opts.format = "text";
	opts.jobs = 1;
	for (unsigned int v = 0; v < nvars; v++) {
		struct m_variant_choice c;
		char why[640];

		/* Checked by apply_variant_list already. */
		if (m_variant_parse(vars[v], &c, why, sizeof(why)))
			return usage_err("--variant: %s", why);
		opts.variant_key[opts.variants_count] = (int)c.key;
		opts.variant_value[opts.variants_count++] = c.value;
	}
	rc = wpsim_check_scenarios(&sc, 1, &opts);
	wpsim_scenario_free(sc);
	if (!emit) {
		unlink(path);
		if (rc)
			printf("wpsim replay: %s was temporary and is removed; "
			       "--emit-scenario OUT.litmus keeps the scenario "
			       "for the replay command above\n", path);
	}
	return rc;
}

static void basename_of(const char *path, char *out, size_t len)
{
	const char *b = strrchr(path, '/');
	size_t o = 0;

	b = b ? b + 1 : path;
	for (; *b && o + 1 < len; b++)
		out[o++] = (isalnum((unsigned char)*b) || *b == '-' ||
			    *b == '_') ? *b : '-';
	out[o] = '\0';
}

/* `wpsim replay`'s options. */
struct replay_args {
	const char *path, *device, *emit, *compare, *cpu_profile, *blkparse;
	uint64_t read_buffer;
	char vars[REPLAY_VARIANTS_MAX][128];
	unsigned int nvars;
	uint32_t from, to, window, pages;
	bool summary, calls, explore, flusher, skip_bad, help, keep;
};

/* A numeric option's value into its field (P.cpus, P.seed, @ra). */
static int replay_number(struct replay_args *ra, const char *a,
			 const char *v)
{
	uint32_t n;

	if (parse_u32(v, &n))
		return usage_err("expected a number after %s", a);
	if (!strcmp(a, "--cpus"))
		P.cpus = n;
	else if (!strcmp(a, "--seed"))
		P.seed = n;
	else if (!strcmp(a, "--from"))
		ra->from = n;
	else if (!strcmp(a, "--to"))
		ra->to = n;
	else if (!strcmp(a, "--pages"))
		ra->pages = n;
	else
		ra->window = n;
	return 0;
}

/* A flag option into @ra; false if @a is none. */
static bool replay_flag(struct replay_args *ra, const char *a)
{
	if (!strcmp(a, "--help") || !strcmp(a, "-h"))
		ra->help = true;
	else if (!strcmp(a, "--summary"))
		ra->summary = true;
	else if (!strcmp(a, "--skip-bad"))
		ra->skip_bad = true;
	else if (!strcmp(a, "--calls"))
		ra->calls = true;
	else if (!strcmp(a, "--explore"))
		ra->explore = true;
	else if (!strcmp(a, "--no-flusher"))
		ra->flusher = false;
	else if (!strcmp(a, "--progress"))
		P.progress = true;
	else if (!strcmp(a, "--trace-state"))
		P.trace_state = true;
	else if (!strcmp(a, "--keep-trace"))
		ra->keep = true;
	else
		return false;
	return true;
}

/* The command line into @ra; 0, or 2 with the error printed. */
static int parse_replay_args(int argc, char **argv, struct replay_args *ra)
{
	for (int i = 0; i < argc && !ra->help; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		int rc;

		if (replay_flag(ra, a))
			continue;
		if (a[0] == '-' && !is_value_option(a))
			return usage_err("'%s' is not an option of wpsim "
					 "replay (wpsim replay --help)", a);
		if (a[0] == '-' && !v)
			return usage_err("%s needs a value", a);
		if (a[0] != '-') {
			if (ra->path)
				return usage_err("one TRACE only, found a "
						 "second: '%s'", a);
			ra->path = a;
			continue;
		}
		i++;
		if (!strcmp(a, "--device")) {
			ra->device = v;
		} else if (!strcmp(a, "--cpu-profile")) {
			ra->cpu_profile = v;
		} else if (!strcmp(a, "--blkparse")) {
			ra->blkparse = v;
		} else if (!strcmp(a, "--fs")) {
			if (strcmp(v, "xfs") && strcmp(v, "ext4"))
				return usage_err("--fs: expected xfs or ext4, "
						 "found '%s'", v);
			P.ext4 = !strcmp(v, "ext4");
		} else if (!strcmp(a, "--ram") || !strcmp(a, "--mem")) {
			uint64_t b;

			if (parse_size(v, &b) || b < 64 * PAGE_SIZE)
				return usage_err("expected a size of at least "
						 "256k (N, Nk, Nm, Ng, Nt), "
						 "found '%s'", v);
			if (a[2] == 'r')
				P.ram_bytes = b;
			else
				P.mem_bytes = b;
		} else if (!strcmp(a, "--lat-log")) {
			P.lat_path = v;
		} else if (!strcmp(a, "--read-buffer")) {
			if (parse_size(v, &ra->read_buffer) ||
			    ra->read_buffer < 64 ||
			    ra->read_buffer > (1u << 30))
				return usage_err("--read-buffer: expected a "
						 "size of 64 to 1g (N, Nk, "
						 "Nm), found '%s'", v);
		} else if (!strcmp(a, "--emit-scenario")) {
			ra->emit = v;
			ra->explore = true;
		} else if (!strcmp(a, "--compare")) {
			ra->compare = v;
		} else if (!strcmp(a, "--variant")) {
			if (ra->nvars == REPLAY_VARIANTS_MAX)
				return usage_err("%s", "at most 8 --variant");
			snprintf(ra->vars[ra->nvars++], sizeof(ra->vars[0]),
				 "%s", v);
		} else {
			rc = replay_number(ra, a, v);
			if (rc)
				return rc;
		}
	}
	if (ra->help)
		return 0;
	if (!ra->path)
		return usage_err("%s", "expected a TRACE file");
	if (!P.cpus || P.cpus > SIM_CPUS_MAX)
		return usage_err("%s", "--cpus: 1..256");
	if (ra->from || ra->to || ra->window)
		ra->explore = true;
	if (!ra->pages || ra->pages > REPLAY_WINDOW_PAGES)
		return usage_err("%s", "--pages: 1..64");
	if (ra->explore && !ra->window && !(ra->from && ra->to))
		return usage_err("%s", "--explore needs --from A --to B or "
				 "--window K");
	return 0;
}

/*
 * --explore: the window --from..--to, or with --window K every sync
 * point's (the K calls before and after it, and the sync).  Return the
 * worst exit code.
 */
static int replay_explore(struct replay_args *ra)
{
	const struct trace *t = P.t;
	char name[128];
	int worst = 0, rc;
	unsigned int wnum = 0;
	uint32_t nused = 0;

	basename_of(ra->path, name, sizeof(name));
	plan_world(&P);
	if (!ra->window)
		return explore_window(name, ra->from, ra->to, ra->emit,
				      ra->flusher, ra->pages, ra->vars,
				      ra->nvars, 1);
	for (uint32_t i = 0; i < t->nrec; i++)
		nused += !t->recs[i].dropped;
	for (uint32_t i = 0, k = 0; i < t->nrec; i++) {
		const struct trace_rec *r = &t->recs[i];

		if (r->dropped)
			continue;
		k++;
		if (!is_sync(r))
			continue;
		rc = explore_window(name, k > ra->window ? k - ra->window : 1,
				    k + ra->window < nused ? k + ra->window :
				    nused, ra->emit, ra->flusher, ra->pages,
				    ra->vars, ra->nvars, ++wnum);
		if (rc > worst)
			worst = rc;
	}
	if (!wnum)
		fprintf(stderr, "wpsim replay: no sync point in the trace for "
			"--window\n");
	return wnum ? worst : 1;
}

/* --compare KEY=V1,V2...: one timed run per value, side by side. */
static int replay_compare(struct replay_args *ra)
{
	char key[64], list[512], *save = NULL, *val;
	unsigned int ncmp = 0;
	const char *eq = strchr(ra->compare, '=');
	int rc;

	if (!eq || eq - ra->compare >= (long)sizeof(key))
		return usage_err("--compare: expected KEY=V1,V2,..., found "
				 "'%s'", ra->compare);
	snprintf(key, sizeof(key), "%.*s", (int)(eq - ra->compare),
		 ra->compare);
	snprintf(list, sizeof(list), "%s", eq + 1);
	printf("compare %s:\n", key);
	for (val = strtok_r(list, ",", &save); val;
	     val = strtok_r(NULL, ",", &save)) {
		char label[160];

		if (ra->nvars == REPLAY_VARIANTS_MAX)
			return usage_err("%s", "too many --variant");
		snprintf(ra->vars[ra->nvars], sizeof(ra->vars[0]), "%s=%s",
			 key, val);
		rc = apply_variant_list(ra->vars, ra->nvars + 1, true);
		if (rc)
			return rc;
		rc = run_once();
		if (rc)
			return rc;
		snprintf(label, sizeof(label), "%s=%s", key, val);
		print_totals(stdout, label);
		if (ncmp < REPLAY_VARIANTS_MAX)
			compare_collect(ncmp++, label);
	}
	compare_print(stdout, ncmp);
	return 0;
}

static void replay_free(void)
{
	for (uint32_t i = 0; i < P.nthreads; i++) {
		free(P.threads[i].recs);
		free(P.threads[i].result);
	}
	free(P.threads);
	free(P.slot);
	free(P.file_slot);
	free(P.slot_file);
	free(P.slot_truncated);
	free(P.slot_created);
	free(P.slot_config);
	free(P.slot_world);
	free(P.setup_files);
	free(P.model_ns);
	free(P.model_ret);
	free(P.done);
	for (uint32_t f = 0; f < P.npf; f++) {
		free(P.pf[f].dc);
		free(P.pf[f].th);
	}
	free(P.nofile_th);
	P.nofile_th = NULL;
	free(P.pf);
	P.pf = NULL;
	P.npf = 0;
	aggs_free(&P);
}

static void blk_row(FILE *out, const char *what, double rec, double mod,
		    const char *fmt)
{
	char a[32], b[32];

	snprintf(a, sizeof(a), fmt, rec);
	snprintf(b, sizeof(b), fmt, mod);
	fprintf(out, "  %-26s %14s %14s\n", what, a, b);
}

/*
 * --blkparse: the recorded device stream (Q events) beside the model's
 * (the bios submitted to the timed queue), per second of each one's own
 * span of bio submissions.
 */
static void print_blk_compare(FILE *out, const char *path,
			      const struct trace_blk_stats *b)
{
	const struct m_blkdev_timed_stats *m = &P.dev;
	double rs = (double)(b->last_ns - b->first_ns) / 1e9;
	double ms = (double)(m->last_submit_ns - m->first_submit_ns) / 1e9;

	fprintf(out, "device stream: recorded (%s, %" PRIu64 " Q events) "
		"beside the model's (bios submitted):\n", path, b->queued);
	fprintf(out, "  read as %s: %" PRIu64 " lines, %" PRIu64 " events, "
		"%" PRIu64 " skipped (--skip-bad)", trace_blk_format_name(
		b->format), b->lines, b->events, b->bad_lines);
	if (b->comment_lines)
		fprintf(out, ", %" PRIu64 " header lines", b->comment_lines);
	fprintf(out, "\n");
	if (b->lost)
		fprintf(out, "  the recording lost %" PRIu64 " events "
			"(trace_pipe's [LOST] lines: %" PRIu64 "): the "
			"recorded counts are short\n", b->lost,
			b->lost_lines);
	fprintf(out, "  %-26s %14s %14s\n", "", "recorded", "model");
	blk_row(out, "bios", (double)b->queued, (double)m->bios, "%.0f");
	blk_row(out, "span of submissions (s)", rs, ms, "%.3f");
	blk_row(out, "bios per second", rs > 0 ? (double)b->queued / rs : 0,
		ms > 0 ? (double)m->bios / ms : 0, "%.0f");
	blk_row(out, "data writes", (double)b->writes,
		(double)m->write_bios, "%.0f");
	blk_row(out, "write KiB", (double)b->write_bytes / 1024,
		(double)m->write_bytes / 1024, "%.0f");
	blk_row(out, "avg write KiB", b->writes ? (double)b->write_bytes /
		1024 / (double)b->writes : 0, m->write_bios ?
		(double)m->write_bytes / 1024 / (double)m->write_bios : 0,
		"%.1f");
	blk_row(out, "reads", (double)b->reads, (double)m->read_bios, "%.0f");
	blk_row(out, "preflush (REQ_PREFLUSH)", (double)b->preflush,
		(double)m->preflush_bios, "%.0f");
	blk_row(out, "  of them empty flushes", (double)b->empty_flush,
		(double)m->empty_flush_bios, "%.0f");
	blk_row(out, "FUA (REQ_FUA)", (double)b->fua, (double)m->fua_bios,
		"%.0f");
	for (unsigned int k = 0; k < TRACE_BLK_SIZES; k++) {
		char what[40];

		if (!b->write_sizes[k] && !m->write_sizes[k])
			continue;
		snprintf(what, sizeof(what), "writes of %s",
			 trace_blk_size_name(k));
		blk_row(out, what, (double)b->write_sizes[k],
			(double)m->write_sizes[k], "%.0f");
	}
	if (b->discards)
		fprintf(out, "  (%" PRIu64 " discards recorded: the model "
			"issues none)\n", b->discards);
}

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t replay_writes_done(void)
{
	return P.writes_done;
}

/* The trace planned, the machine set: explore, compare or one run. */
static int replay_run(struct replay_args *ra, struct trace *t)
{
	struct trace_blk_stats blk;
	double cpu0, cpu;
	int rc;

	trace_print_summary(stdout, t);
	latlog_print(stdout, &P);
	if (ra->summary)
		return 0;
	if (!P.nthreads || !trace_count_used(t)) {
		fprintf(stderr, "wpsim replay: no record the model can run\n");
		return 1;
	}
	rc = timed_run_device(ra->device, &P.profile);
	if (!rc)
		rc = timed_run_cpu_profile(ra->cpu_profile, &P.costs);
	if (!rc)
		rc = apply_variant_list(ra->vars, ra->nvars, true);
	if (rc)
		return rc;
	if (ra->explore)
		return replay_explore(ra);
	if (ra->compare)
		return replay_compare(ra);
	if (ra->blkparse) {
		struct trace_error err = { 0 };
		struct trace_options topt = { .skip_bad = ra->skip_bad };

		if (trace_load_blkparse(ra->blkparse, &topt, &blk, &err)) {
			fprintf(stderr, "%s\n", err.text);
			return EXIT_USAGE;
		}
	}
	cpu0 = cpu_seconds();
	rc = run_once();	/* 2: beyond the engine's tasks */
	if (rc)
		return rc;
	cpu = cpu_seconds() - cpu0;
	print_totals(stdout, "replay");
	print_validation(stdout);
	if (ra->blkparse)
		print_blk_compare(stdout, ra->blkparse, &blk);
	if (ra->calls)
		print_calls(stdout);
	/* Host figures vary from run to run: stderr, not the report.  The
	 * run's own rates (the import left out), then the simulation speed
	 * factor over the whole process, as `wpsim fio --speed` prints it. */
	fprintf(stderr, "wpsim replay: %" PRIu64 " records (%" PRIu64
		" writes) in %.2f s of host CPU: %.0f records, %.0f writes "
		"per CPU second\n", P.recs_done, replay_writes_done(), cpu,
		cpu > 0 ? (double)P.recs_done / cpu : 0, cpu > 0 ?
		(double)replay_writes_done() / cpu : 0);
	if (P.stream)
		fprintf(stderr, "wpsim replay: the trace read as it went, at "
			"most %" PRIu64 " records held at once\n", P.held_max);
	timed_run_print_speed("wpsim replay", P.end_ns, P.total_ns,
			      replay_writes_done(), "writes", true);
	return wpsim_stop_signal() ? EXIT_INCOMPLETE : 0;
}

int wpsim_replay_main(int argc, char **argv)
{
	struct replay_args ra = { .pages = 1, .flusher = true };
	struct trace t;
	struct trace_error err = { 0 };
	struct trace_options topt = { 0 };
	int rc;

	memset(&P, 0, sizeof(P));
	P.cpus = REPLAY_CPUS_DEFAULT;
	P.seed = 1;
	/* From the start: a signal during the import stops the run before
	 * its first call, and the report says so. */
	wpsim_stop_install();
	rc = parse_replay_args(argc, argv, &ra);
	if (rc || ra.help) {
		if (ra.help)
			replay_usage(stdout);
		return rc;
	}
	topt.skip_bad = ra.skip_bad;
	topt.read_buffer = (size_t)ra.read_buffer;
	/* --calls lists every call and --explore numbers them: those hold
	 * the trace whole; a timed replay reads it as it goes. */
	P.stream = !ra.keep && !ra.calls && !ra.explore;
	P.path = ra.path;
	P.topt = topt;
	P.t = &t;
	trace_init(&t);
	rc = P.stream ? stream_load(&P, &t, &err) :
	     trace_load(ra.path, &topt, &t, &err);
	if (!rc && P.lat_path && t.format == TRACE_FORMAT_STRACE) {
		fprintf(stderr, "wpsim replay: error: --lat-log joins fio's "
			"latency log to an fio iolog; %s is strace text (its "
			"-T durations are the recorded ones)\n", ra.path);
		rc = -2;
	}
	if (!rc && !P.stream) {
		plan(&P);
		rc = latlog_whole(&P);
	}
	if (rc) {
		if (rc == -1)
			fprintf(stderr, "%s\n", err.text);
		replay_free();
		trace_free(&t);
		return EXIT_USAGE;
	}
	P.iolog_mode = t.format != TRACE_FORMAT_STRACE;
	P.time_scale = 100;
	P.sfr_flags = TRACE_SFR_WRITE;
	rc = replay_run(&ra, &t);
	replay_free();
	trace_free(&t);
	return rc;
}

/* ---- wpsim fio --read_iolog and --write_iolog ------------------------ */

/* Job options that would change how fio replays the log: refused. */
static int iolog_job_check(const struct fio_job *job)
{
	if (job->direct || job->sync != FIO_SYNC_NONE || job->fsync_blocks ||
	    job->fdatasync_blocks || job->sfr_flags || job->end_fsync ||
	    job->nowait || job->uncached || job->writethrough || job->hipri ||
	    job->runtime_ns || job->time_based || job->ramp_time_ns ||
	    job->startdelay_ns || (job->ioengine != FIO_ENGINE_PSYNC &&
				   job->ioengine != FIO_ENGINE_SYNC &&
				   job->ioengine != FIO_ENGINE_PVSYNC2 &&
				   job->ioengine != FIO_ENGINE_NULL)) {
		fprintf(stderr, "wpsim fio: error: job '%s': with read_iolog "
			"the options direct, sync, fsync, fdatasync, "
			"sync_file_range, end_fsync, nowait, uncached, "
			"writethrough, hipri, runtime, time_based, ramp_time, "
			"startdelay and ioengine other than psync, sync, "
			"pvsync2, null (and libaio, io_uring: the job runner "
			"replays those) are not modelled (the replay issues "
			"the log's calls as they are)\n", job->name);
		return EXIT_USAGE;
	}
	/* The replay records no job statistics logs or iolog of its own:
	 * refused, never accepted without their files (t0031's
	 * write_lat_log). */
	if (job->logs || job->write_iolog[0]) {
		fprintf(stderr, "wpsim fio: error: job '%s': with read_iolog "
			"the statistics logs (write_bw_log, write_lat_log, "
			"write_iops_log) and write_iolog are not modelled (the "
			"replay writes no log)\n", job->name);
		return EXIT_USAGE;
	}
	return 0;
}

/* fio's result for the job of the one replayed thread, as wpsim fio
 * fills it. */
static struct fio_result *iolog_result(const struct fio_job *job)
{
	struct fio_result *res = P.threads[0].result;
	struct fio_result *j = fio_result_alloc(job);
	uint64_t run_ns;

	for (int d = 0; d < FIO_DDIR_COUNT; d++)
		j->ddir[d] = res->ddir[d];
	j->sync = res->sync;
	j->sync_ios = res->sync_ios;
	free(res);
	P.threads[0].result = res = j;
	run_ns = P.threads[0].end_ns - P.threads[0].start_ns;
	res->pid = 1;
	res->total_run_time_ms = run_ns / 1000000 ? run_ns / 1000000 : 1;
	for (int d = 0; d < FIO_DDIR_COUNT; d++)
		if (res->ddir[d].total_ios)
			res->ddir[d].runtime_ms = res->total_run_time_ms;
	res->total_submit = res->ddir[FIO_DDIR_READ].total_ios +
			    res->ddir[FIO_DDIR_WRITE].total_ios +
			    res->ddir[FIO_DDIR_TRIM].total_ios;
	res->total_complete = res->total_submit;
	res->io_u_map[0] = res->total_submit;
	res->io_u_submit[1] = res->total_submit;
	res->io_u_complete[1] = res->total_complete;
	res->sys_time_ms = 0;
	res->usr_time_ms = P.threads[0].usr_ns / 1000000;
	res->elapsed_s = (P.end_ns + 999999999ull) / 1000000000ull;
	return res;
}

/* fio's output of @res: --output, normal and/or JSON. */
static void iolog_print(struct fio_config *cfg, const struct fio_result *res)
{
	const struct fio_result *one[1] = { res };
	FILE *out = stdout;

	if (cfg->output[0]) {
		out = fopen(cfg->output, "w");
		if (!out) {
			perror(cfg->output);
			out = stdout;
		}
	}
	if (cfg->output_format & FIO_OUTPUT_NORMAL)
		fio_print_header(out, cfg);
	if (cfg->output_format & (FIO_OUTPUT_JSON | FIO_OUTPUT_JSON_PLUS))
		fio_print_json(out, cfg, one, 1, cfg->output_format &
			       FIO_OUTPUT_JSON_PLUS);
	if (cfg->output_format & FIO_OUTPUT_NORMAL)
		fio_print_normal(out, cfg, one, 1);
	if (out != stdout)
		fclose(out);
}

/* The iolog planned: the machine, the run, fio's output. */
static int iolog_run(struct fio_config *cfg, const struct fio_job *job,
		     const char *device)
{
	char vars[REPLAY_VARIANTS_MAX][128];
	unsigned int nvars = 0;
	int rc;

	/* The counts go to stderr: stdout is fio's output (maybe JSON). */
	fprintf(stderr, "wpsim fio: job '%s': read_iolog ", job->name);
	trace_print_summary(stderr, P.t);
	if (!trace_count_used(P.t)) {
		fprintf(stderr, "wpsim fio: job '%s': no entry of %s the model "
			"can run\n", job->name, job->read_iolog);
		return 1;
	}
	rc = timed_run_device(device, &P.profile);
	if (!rc)
		rc = timed_run_cpu_profile(NULL, &P.costs);
	if (rc)
		return rc;
	for (uint32_t v = 0; v < cfg->variant_count && v < REPLAY_VARIANTS_MAX;
	     v++)
		snprintf(vars[nvars++], sizeof(vars[0]), "%s",
			 cfg->variants[v]);
	rc = apply_variant_list(vars, nvars, false);
	if (rc)
		return rc;
	rc = run_once();
	if (rc)
		return rc;
	iolog_print(cfg, iolog_result(job));
	return 0;
}

int wpsim_fio_replay_iolog(struct fio_config *cfg, const struct fio_job *job,
			   const char *device, unsigned int cpus, uint64_t seed)
{
	struct trace t;
	struct trace_error err = { 0 };
	struct trace_options topt = { 0 };
	int rc = iolog_job_check(job);

	if (rc)
		return rc;
	memset(&P, 0, sizeof(P));
	P.cpus = cpus;
	P.seed = seed;
	trace_init(&t);
	if (trace_load(job->read_iolog, &topt, &t, &err)) {
		fprintf(stderr, "%s\n", err.text);
		trace_free(&t);
		return EXIT_USAGE;
	}
	if (t.format == TRACE_FORMAT_STRACE) {
		fprintf(stderr, "%s:1:1: error: expected 'fio version 2 iolog' "
			"or 'fio version 3 iolog' (read_iolog; strace text is "
			"for wpsim replay), found another first line\n",
			job->read_iolog);
		trace_free(&t);
		return EXIT_USAGE;
	}
	P.t = &t;
	P.iolog_mode = true;
	P.null_engine = job->ioengine == FIO_ENGINE_NULL;
	P.no_stall = job->replay_no_stall;
	P.time_scale = job->replay_time_scale ? job->replay_time_scale : 100;
	P.sfr_flags = TRACE_SFR_WRITE;
	/* fio drops v2 wait entries with replay_no_stall (read_iolog). */
	for (uint32_t i = 0; P.no_stall && i < t.nrec; i++)
		if (t.recs[i].op == TRACE_OP_WAIT)
			trace_drop(&t, i, "replay_no_stall: fio drops wait "
				   "entries");
	plan(&P);
	rc = iolog_run(cfg, job, device);
	replay_free();
	memset(&P, 0, sizeof(P));
	trace_free(&t);
	return rc;
}
