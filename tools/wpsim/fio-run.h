/* SPDX-License-Identifier: MIT */
/*
 * tools/wpsim/fio-run.h - what the parts of `wpsim fio` share: the run's
 * state (one struct fio_run, its jobs' struct job_run) and the functions
 * one part calls in another.  The parts, in the order a run takes them:
 *
 *   fio.c          the command: wpsim's options, the machine, the one
 *                  execution, read_iolog; what is modelled (its opening)
 *   fio-plan.c     each job checked against what the model has, the
 *                  jobs' files, their sizes and layouts (fio's
 *                  setup_files), the layout task
 *   fio-job.c      the job-run loop: one task per job, offsets, loops,
 *                  stonewall waves, ramp, what each I/O records
 *                  (latencies, statistics logs, write_iolog)
 *   fio-engines.c  fio's engines: the sync rows, libaio, io_uring, null;
 *                  the syncs fio issues (fsync=, end_fsync, ...)
 *   fio-verify.c   verify=: the written blocks read back and checked
 *   fio-vstate.c   fio's verify state file; the files an earlier run
 *                  left (its blocks laid on the run's files)
 *   fio-nullv.c    ioengine=null with verify and verify_backlog,
 *                  time_based or iodepth_batch: fio's io_u life cycle
 *   fio-report.c   fio's output from the results, the logs, stderr's
 *                  reports
 *   fio-ss.c       steadystate: fio's helper thread's checks, the job's
 *                  end at steady state
 *   fio-prio.c     prio, prioclass, cmdprio_*: each I/O's ioprio, the
 *                  per-priority statistics
 *   fio-iolog.c    read_iolog on libaio and io_uring: the log's entries
 *                  as the job's I/O
 */
#ifndef WPSIM_TOOLS_WPSIM_FIO_RUN_H
#define WPSIM_TOOLS_WPSIM_FIO_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "model/cost.h"
#include "model/hw/nvme.h"
#include "model/io_uring/rw.h"
#include "model/linux/fs.h"
#include "model/linux/syscalls.h"
#include "model/linux/writeback.h"
#include "model/world.h"
#include "sim/engine.h"
#include "tools/fio/fio.h"
#include "tools/fio/logs.h"
#include "tools/fio/verify.h"
#include "tools/wpsim/timed-run.h"

#define EXIT_USAGE	2

/* Defaults of the machine wpsim fio models. */
#define FIO_RUN_CPUS_DEFAULT	TIMED_RUN_CPUS_DEFAULT
#define FIO_RUN_DEVICE_DEFAULT	TIMED_RUN_DEVICE_DEFAULT
#define FIO_RUN_SEED_DEFAULT	1
/* The machine's memory (--ram) and the kernel's vm.dirty_* defaults
 * (mm/page-writeback.c, v6.18: dirty_ratio 20, dirty_background_ratio
 * 10). */
#define FIO_RUN_RAM_DEFAULT	(16ull << 30)
#define FIO_RUN_DIRTY_RATIO	20
#define FIO_RUN_DIRTY_BG_RATIO	10
#define FIO_RUN_IODEPTH_MAX	256	/* io_uring slots per job */
/* bs: at most 16 MiB (an O_DIRECT bio above the queue's limits is split
 * by the block layer, model/block/blk-merge.c). */
#define FIO_RUN_BS_MAX		(16ull << 20)
/* fio's bw_avg_time and iops_avg_time: a sample every 500 ms. */
#define SAMPLE_NS		(500ull * 1000000ull)
/*
 * fio's own work per I/O on ioengine=null (get_io_u and fill_io_u, the
 * engine's queue, commit and getevents, io_completed's accounting and
 * clock reads: engines/null.c does nothing else), the whole cost of a
 * null job, charged to the job's task as user CPU time before each
 * I/O.  120 ns: fio 3.33's null engine on this machine, measured by the
 * session's lead on a quiet machine (0.12 us per I/O, 2026-12-05); at
 * load 13 the same figure was 220 ns of CPU per I/O (t/jobs/t0030.fio,
 * 3,235,971 reads in 2001 ms at usr_cpu 35.5 %; docs/fio.md).  The
 * other engines' fio work is not charged (their cost is the kernel's).
 */
#define FIO_NULL_IO_NS		120
/* Progress on stderr every this many I/Os (all jobs). */
#define PROGRESS_IOS		(1ull << 20)

/* A job's pacing state (fio-rate.c; fio 3.33's thread_data fields). */
struct fio_pace {
	uint64_t epoch_ns;			/* fio's td->epoch */
	uint64_t rate_bps[FIO_DDIR_COUNT];	/* __setup_rate */
	uint64_t next_io_us[FIO_DDIR_COUNT];	/* rate_next_io_time */
	uint64_t issue_bytes[FIO_DDIR_COUNT];	/* rate_io_issue_bytes */
	uint64_t last_usec[FIO_DDIR_COUNT];	/* poisson */
	uint64_t poisson_rng;
	uint64_t issues, completions;		/* io_issues, io_blocks */
	uint64_t done_bytes[FIO_DDIR_COUNT];	/* this_io_bytes */
	uint64_t done_blocks[FIO_DDIR_COUNT];	/* this_io_blocks */
	uint64_t check_bytes[FIO_DDIR_COUNT];	/* last_rate_check_* */
	uint64_t check_blocks[FIO_DDIR_COUNT];
	uint64_t check_ns[FIO_DDIR_COUNT];
	uint64_t tt_blocks, tt_last_ns;		/* last_thinktime* */
	uint64_t zone_rng, dist_rng, dist_off;	/* distributions */
	double zetan, zeta2;			/* zipf */
	uint64_t nranges;
	uint64_t seq_issues[FIO_DDIR_COUNT];	/* sequence: io_issues[] */
	int flow;				/* index in the flows, -1 */
	uint64_t flow_counter;			/* td->flow_counter */
};

/* latency_target's state (fio-rate.c; fio 3.33 thread_data's latency_*
 * fields, io_u.c lat_target_*). */
struct fio_lat_target {
	unsigned int qd, qd_high, qd_low;	/* latency_qd{,_high,_low} */
	unsigned int stable;			/* latency_stable_count */
	uint64_t ts_ns;				/* latency_ts */
	uint64_t ios;				/* latency_ios */
	uint64_t failed;			/* latency_failed */
	uint64_t blocks;			/* ddir_rw_sum(io_blocks) */
	bool end_run;				/* latency_end_run */
	bool done;				/* td->done: the job ends */
	unsigned int ramp_down;	/* completions over the target at
				 * latency_percentile 100: a ramp down
				 * each, before the next I/O */
	uint64_t over_ns, over_off, over_len;	/* the last of them */
	bool over_read;
};

/*
 * What a file name opens (fio 3.33 filesetup.c get_file_type: stat's
 * S_ISBLK, S_ISCHR, else a regular file): a /dev/ name is the model's
 * raw block device (model/block/fops.c), /dev/null and /dev/zero the
 * memory devices (model/drivers/char/mem.c).  fio-plan.c fio_run_dev_of.
 */
enum fio_run_dev {
	FIO_DEV_NONE,		/* a regular file of the model's filesystem */
	FIO_DEV_BLOCK,		/* the block device: FIO_TYPE_BLOCK */
	FIO_DEV_NULL,		/* /dev/null: FIO_TYPE_CHAR */
	FIO_DEV_ZERO,		/* /dev/zero: FIO_TYPE_CHAR */
};

/* One file of the run (fio's struct fio_file, as far as wpsim uses it). */
struct fio_run_file {
	char *name;		/* malloc'd */
	/* A device: the world's file of that index is an empty
	 * placeholder the run never opens; the jobs open the device. */
	enum fio_run_dev dev;
	uint64_t end;		/* the farthest byte a job writes */
	/* Laid out by a syscall before the jobs start (its row of
	 * layout_syscalls, -1: none) to layout_size bytes. */
	int layout_row;
	loff_t layout_size;
};

struct job_run {
	const struct fio_job *job;
	struct fio_pace pace;			/* fio-rate.c */
	struct fio_lat_target lat;		/* fio-rate.c */
	struct fio_result *result;
	unsigned int index;		/* in the run, for data ids */
	/* The job's files (fio's nrfiles or filename=a:b:c; up to
	 * FIO_FILES_MAX): each one's index in the run's files and its open
	 * file; malloc'd at plan time (fio-plan.c), files[] filled at the
	 * run's setup. */
	unsigned int nfiles;
	unsigned int *world_file;	/* [nfiles] */
	struct km_file **files;		/* [nfiles] */
	uint64_t rng, rng_start;		/* rng_start: a loop's seed */
	uint64_t bs_rng;		/* bsrange/bssplit sizes */
	/*
	 * Trims: trimwrite's trims draw their sizes from a
	 * stream seeded as the writes' (fio 3.33 init.c
	 * td_fill_rand_seeds_internal), and a sequential trimwrite keeps
	 * the trims' offsets apart (fio's last_pos[DDIR_TRIM]); fio's
	 * last_start[] of the writes and trims (UINT64_MAX: -1ULL), and
	 * the last trim's length (randtrimwrite's write takes it).
	 */
	uint64_t bs_rng_trim;
	struct fio_seq_offsets seq_trim;
	uint64_t tw_start[FIO_DDIR_COUNT];
	uint64_t tw_trim_len;
	uint64_t tw_write_bytes;	/* fio's io_issue_bytes[DDIR_WRITE] */
	uint64_t region_start, region_bytes, budget_bytes, blocks;
	uint64_t rand_unit;		/* random offsets: b * ba (or bs) */
	/*
	 * fio's random map and draws by direction (fio 3.33 filesetup.c
	 * init_random_map, io_u.c last_block, mark_random_map): the map
	 * (and the LFSR) holds rand_file_bytes / rw_min_bs blocks, the
	 * smallest bs of the three directions (map_bits); a direction's
	 * block is drawn below its own last_block and is at b * ba[ddir].
	 * A job whose directions share bs and ba has map_bits == blocks.
	 */
	uint64_t rand_file_bytes;	/* min(real_file_size, io_size) */
	uint64_t map_bits;
	uint64_t *randmap;		/* bit per block: used in this pass */
	uint64_t randmap_used;
	struct fio_seq_offsets seq;	/* sequential offsets, fio's */
	/*
	 * Several files: fio keeps each file's offsets (last_pos) and
	 * random map (axmap) apart, and a file whose offsets are spent is
	 * done while the others go on (get_next_file skips it).  seq,
	 * randmap and randmap_used are the state of file seq_file; the
	 * others wait in seq_files[], randmap_all and randmap_used_f[].
	 */
	struct fio_seq_offsets *seq_files;
	uint64_t *randmap_all;		/* nfiles maps of randmap_bytes() */
	uint64_t *randmap_used_f;
	/* write_iolog: file f closed in fio's sense (clear_io_state
	 * closed it; fio's next I/O on it opens it again). */
	bool *iolog_closed;
	unsigned int seq_file;
	uint64_t *files_done;		/* bit f: file f is done */
	unsigned int nfiles_done;
	unsigned int wave;		/* stonewall: runs after wave - 1 */
	uint32_t *read_buf;
	struct m_io_uring_req *reqs;	/* [iodepth] */
	struct m_aio_req *aio;		/* [iodepth], libaio */
	struct sim_completion ring;	/* libaio: the kioctx's events */
	unsigned int ring_credit;	/* events taken, not yet reaped */
	uint64_t *req_start_ns, *req_issue_ns;
	uint64_t *req_bs;		/* libaio: each slot's size */
	uint64_t *req_pos;		/* each slot's offset (the logs) */
	bool *req_read;			/* libaio: each slot's direction */
	uint32_t *req_data;		/* posixaio: each slot's write id */
	/* libaio, io_uring: a slot's read is a verify list's (checked
	 * against the job's writes when reaped: fio-verify.c), and its
	 * file's index; issue_verify marks the next slot so. */
	bool *req_verify;
	unsigned int *req_file;
	bool issue_verify;
	uint32_t *req_buf;		/* libaio reads: a buffer per slot */
	size_t req_buf_sectors;		/* ...of this many write ids */
	bool *req_busy;
	unsigned int req_head, req_inflight;
	uint64_t writes_issued;		/* fio's io_issues[DDIR_WRITE] */
	bool last_was_write;		/* fio's last_ddir_issued */
	uint64_t last_offset;		/* the last I/O's (the iolog's syncs) */
	uint64_t sfr_first, sfr_last;	/* written since the last sfr */
	uint64_t file_rr;		/* round robin over the files */
	/* verify=: the last write id of each block (key: offset << 6 |
	 * file), and fio's message of the first failure. */
	bool verify;
	struct fio_verify_map vmap;
	struct fio_spr *spr;		/* SPRandom's state (fio-spr.c) */
	bool spr_done;			/* SPRandom ended it: td->done */
	char verify_msg[FIO_MESSAGE_MAX];
	uint64_t verify_head;		/* vmap.order[] read back before it */
	/* experimental_verify: the bytes its verify passes read, all
	 * loops (fio's td->bytes_verified, never reset in fio 3.33). */
	uint64_t exp_verified;
	uint32_t verify_batch_left;	/* fio's verify_batch */
	/*
	 * The verify family (fio-verify.c): a job that only reads with
	 * verify= checks each read against what the run's jobs wrote
	 * (keeps_writes: the job's vmap holds its writes though it does
	 * not verify them itself); the patterns parsed.
	 */
	bool read_verify;
	bool keeps_writes;
	bool has_vpat, has_dpat;
	struct fio_pattern vpat;	/* verify_pattern */
	struct fio_pattern dpat;	/* the bytes its writes hold */
	bool last_done_read;		/* fio's last_ddir == DDIR_READ */
	unsigned int cur_file;		/* ioengine=null: the file's index */
	/* fio's engine_pos (LAST_POS): where the last I/O of each file
	 * ended; UINT64_MAX before the first. */
	uint64_t *engine_pos;		/* [nfiles] */
	uint64_t ios, bytes_done;
	/* The bytes the job's earlier loops issued: fio 3.33's
	 * io_issue_bytes is not reset between loops (libfio.c
	 * clear_io_state(td, 0)), and do_io stops a loop when it reaches
	 * io_size x loops (backend.c io_bytes_exceeded). */
	uint64_t loops_bytes;
	uint64_t stats_start_ns, end_ns, cpu_start_ns, cpu_ns;
	/* fio's own work charged (FIO_NULL_IO_NS): user time, all of it
	 * and at the statistics' start. */
	uint64_t usr_ns, usr_start_ns;
	/* fio's bw_avg_time and iops_avg_time clocks (0: the stats are
	 * per I/O, a per-unit write_bw_log/write_iops_log) */
	uint64_t bw_avg_ns, iops_avg_ns;
	uint64_t next_bw_ns, last_bw_ns, next_iops_ns, last_iops_ns;
	struct fio_log logs[FIO_LOGF_COUNT];	/* write_X_log */
	bool ramped;
	int error;
	/* fio-err.c: fio's total_err_count and first_error, the first
	 * I/O error (td_verror's), and fill_device's end at ENOSPC. */
	uint64_t total_err_count;
	int first_error;
	int io_error;
	char io_error_where[96];	/* td->verror's place */
	bool filled;
	/* Sized when it starts, from a fill_device job's files
	 * (create_serialize=0; fio-plan.c fill_check). */
	bool size_at_start;
	uint64_t start_file_size;
	/* Completed (all) when the job ends: wait_for's waiters. */
	struct sim_completion *done;
	uint64_t first_start_ns, last_done_ns;	/* counted I/O, the span */
	/* The ioprio of the I/O being issued or recorded, and its index
	 * in the direction's clat_prio (fio-prio.c). */
	uint32_t io_ioprio, io_prio_idx;
	/* ioengine=null with iodepth_batch > 1 (fio_run_null_batch): the
	 * I/Os queued and not yet committed, and fio's io_u_map,
	 * io_u_submit and io_u_complete over the commits. */
	uint32_t nb_queued;
	/*
	 * fio's nd->events (engines/null.c): a commit's events not reaped
	 * yet.  With iodepth > 1 a commit that leaves the queue below
	 * iodepth is not reaped until the next queue finds them (FIO_Q_BUSY:
	 * the io_u requeued and queued again, and fio's td_io_queue logs it
	 * to write_iolog each time, fio 3.33 ioengines.c log_io_u).
	 */
	bool null_events;
	uint64_t nb_commits;
	uint64_t nb_map[FIO_IODEPTH_BUCKETS];
	uint64_t nb_submit[FIO_IODEPTH_BUCKETS];
	/* fio-nullv.c ran the job: its result's depths are set. */
	bool nullv_done;
};

struct fio_run {
	struct fio_config *cfg;
	struct km_bdi_writeback wb_stats;	/* at the last job's end */
	uint64_t reclaimed_pages;		/* the same (--mem) */
	uint64_t uring_delayed;		/* uring=v1: writes held */
	struct hw_nvme_profile profile;
	struct m_world_config world;
	/*
	 * The run's files, in the order the jobs name them: their world
	 * configs (the world's file_table: any number of files, issue 28)
	 * and fio's side of each.  Both grow (doubling) at plan time.
	 */
	struct m_file_config *file_config;	/* [nr_files] */
	struct fio_run_file *file;		/* [nr_files] */
	unsigned int nr_files, files_cap;
	unsigned int cpus;
	uint64_t seed;
	bool ext4;
	bool buffered;		/* some job writes through the page cache */
	struct job_run *jobs;
	unsigned int njobs;
	struct sim_word *jobs_alive;
	struct sim_word *wave_alive;	/* jobs of the running wave */
	unsigned int waves;
	struct m_cost_profile costs;	/* the engine's and the model's */
	uint64_t ios_total, progress_next;
	bool progress;
	struct m_blkdev_timed_stats dev_stats;
	uint64_t dev_reads;		/* 4 KiB pages read, all jobs */
	/* XFS writeback's delalloc allocations, all jobs (the kernel's
	 * xfs_map_blocks_alloc events) */
	uint64_t wb_allocs;
	/* XFS's unwritten conversions at completion, all files: calls of
	 * xfs_iomap_write_unwritten (the kernel's xfs_unwritten_convert
	 * events), runs converted, runs that split an extent. */
	uint64_t unwritten_converts, unwritten_runs, unwritten_splits;
	/* Each simulated CPU's busy time when the last job ended (the
	 * engine's sim_cpu_busy_ns; the first FIO_CPU_BUSY_MAX CPUs). */
#define FIO_CPU_BUSY_MAX 8
	uint64_t cpu_busy_ns[FIO_CPU_BUSY_MAX];
	uint64_t jobs_end_ns;
	/* The files' i_rwsem write grants (model/kernel/rwsem.h struct
	 * m_rwsem_grants), summed: contended, past an earlier waiter. */
	uint64_t rwsem_contended, rwsem_passed;
	uint64_t rwsem_handoffs, rwsem_spins, rwsem_spin_takes;
	uint64_t rwsem_spin_polls;
	/* The raw block device's bytes (--dev-size, else the profile's
	 * capacity_bytes): a /dev/ job's size without size=. */
	uint64_t dev_bytes;
	bool bdev;		/* a job names the block device */
};

/* fio-plan.c: what @name opens. */
enum fio_run_dev fio_run_dev_of(const char *name);

/* The run's state; R in every part. */
extern struct fio_run fio_run_state;
static struct fio_run *const R = &fio_run_state;

/* wpsim's own options of `wpsim fio`, beside fio's. */
struct run_args {
	const char *schedule, *cpu_profile;
	bool replayable, group_spans, speed, help;
	const char *files_from;	/* --files-from=STATE,... (fio-vstate.c) */
	uint64_t steps;		/* --steps N: the run's step bound (0: the
				 * default of its kind) */
};

/*
 * The start of job @thread's splitmix64 stream (@thread: fio's
 * thread_number - 1, the job's index in the run, clones included) from
 * @base (randseed and a constant of the stream).  fio 3.33 seeds each
 * job's generators from randseed and its thread_number (init.c
 * setup_random_seeds), so two jobs draw independent sequences.  A
 * splitmix64 state only advances by its constant, so starts that differ
 * by a small multiple of it give the same sequence shifted: the old
 * start, base ^ (constant x (jobnum + 1)), gave 12 of 16 clones of a
 * 16-job run another clone's offsets four or eight draws apart
 * (randseed 0x89: jobnums 0/12, 1/5, 2/4/14, 3/13/15, 6/10, 7/11;
 * docs/seed-tables.md, session 16), and every job section's first clone
 * the same.  Here the start is moved by the splitmix64 finalizer of
 * @thread, a pseudo-random 64-bit distance (0 for the first job, whose
 * stream is unchanged).
 */
static inline uint64_t fio_run_stream_start(uint64_t base, uint32_t thread)
{
	uint64_t z = thread;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return base ^ 0x9e3779b97f4a7c15ull ^ (z ^ (z >> 31));
}

static inline bool is_write(enum fio_rw rw)
{
	return rw == FIO_RW_WRITE || rw == FIO_RW_RANDWRITE;
}

static inline bool is_read(enum fio_rw rw)
{
	return rw == FIO_RW_READ || rw == FIO_RW_RANDREAD;
}

static inline bool is_random(enum fio_rw rw)
{
	return rw == FIO_RW_RANDREAD || rw == FIO_RW_RANDWRITE ||
	       rw == FIO_RW_RANDRW || rw == FIO_RW_RANDTRIM ||
	       rw == FIO_RW_RANDTRIMWRITE;
}

/* fio's td_trim(): the job trims (trim, randtrim, trimwrite,
 * randtrimwrite; ioengine=null, the sync engines and libaio, fio-plan.c). */
static inline bool is_trim(enum fio_rw rw)
{
	return rw >= FIO_RW_TRIM;
}

/* fio's td_trimwrite(): each block trimmed, then written. */
static inline bool is_trimwrite(enum fio_rw rw)
{
	return rw == FIO_RW_TRIMWRITE || rw == FIO_RW_RANDTRIMWRITE;
}

/*
 * random_generator=lfsr (fio 3.33 filesetup.c init_random_map, io_u.c
 * __get_next_rand_offset): fio's LFSR gives each block of the file once
 * per pass and ends the pass when it is spent; no random map (axmap) is
 * kept, norandommap or not.  A random_distribution other than random
 * replaces it (init_rand_distribution returns first).
 */
static inline bool fio_run_lfsr(const struct fio_job *j)
{
	return j->random_generator == FIO_RANDGEN_LFSR &&
	       j->rand_dist == FIO_RAND_DIST_RANDOM;
}

/* Each block once per pass: fio's random map, or its LFSR. */
static inline bool fio_run_once_per_pass(const struct fio_job *j)
{
	return !j->norandommap || fio_run_lfsr(j);
}

/* A random job without fio's random map (norandommap, lfsr). */
static inline bool fio_run_no_axmap(const struct fio_job *j)
{
	return j->norandommap || fio_run_lfsr(j);
}

/* fio's file_randommap() (an axmap: random jobs only): verify's list
 * is in the order written; else its rbtree, by file, then offset
 * (iolog.c log_io_piece, fio 3.33). */
static inline bool fio_run_verify_by_offset(const struct fio_job *j)
{
	return !is_random(j->rw) || fio_run_no_axmap(j);
}

/* fio-nullv.c: ioengine=null with verify and verify_backlog,
 * time_based or iodepth_batch, run as fio's io_u life cycle. */
bool fio_nullv_job(const struct fio_job *j);
/* What fio_nullv_run models (the error printed).  Return: 0 or 2. */
int fio_nullv_check(const struct fio_job *j);
/* The job's whole run, after its files' "add" and "open". */
void fio_nullv_run(struct job_run *jr, uint64_t end_ns);

/* fio-job.c: the job's next offset in direction @d (fio's
 * get_next_offset; *bs may change with bsrange); false at the file's
 * end.  fio's clear_io_state for the offsets: from the start, the random
 * map empty, the sequence from its seed when randrepeat=1. */
bool fio_run_next_offset(struct job_run *jr, enum fio_ddir d, uint64_t *bs,
			 uint64_t *pos);
void fio_run_offsets_reset(struct job_run *jr);

/* fio-plan.c */

/* "wpsim fio: error: job 'NAME': @what" on stderr.  Return: 2. */
int fio_run_job_error(const struct fio_job *j, const char *what);
/* @j against what the model has (the error printed).  Return: 0 or 2. */
int fio_run_check_job(const struct fio_job *j);
/* The files of every job, their sizes and layouts.  Return: 0 or 2. */
int fio_run_plan_files(void);
/* The run's files and each job's file arrays freed (at the end). */
void fio_run_files_free(void);
/* Some file is laid out by a syscall (fio-plan.c layout_syscalls). */
bool fio_run_layout_needed(void);
/* The task that lays the files out, then starts the first wave. */
void fio_run_layout_task(void *arg);

/* fio-job.c */

/* The program of the one execution: the world, the jobs' tasks. */
extern const struct sim_program fio_run_program;
/* Start the jobs of stonewall wave @wave. */
void fio_run_spawn_wave(unsigned int wave);
/* One counted I/O of direction @d: its latencies, logs and samples. */
void fio_run_record_io(struct job_run *jr, enum fio_ddir d, uint64_t bytes,
		       uint64_t offset, uint64_t start, uint64_t issue,
		       uint64_t done);
/* An I/O fio issued and never reaped (read_iolog's end): its count and
 * slat only. */
void fio_run_record_unreaped(struct job_run *jr, enum fio_ddir d,
			     uint64_t bytes, uint64_t offset, uint64_t start,
			     uint64_t issue);
/* latency_target's final run: the job's statistics start again. */
void fio_run_stats_reset(struct job_run *jr);
/* The index in @jr's files of @file: the current file when it is, else
 * the first that is (the last index if none is; NULL: the current). */
unsigned int fio_run_file_index(const struct job_run *jr,
				const struct km_file *file);
/*
 * fio-err.c: an I/O of @jr failed with @err (a positive errno): counted
 * as issued, printed as fio prints it, and judged as fio 3.33 does
 * (continue_on_error, ignore_error, fill_device).  Return: 0 (a
 * non-fatal error: the job goes on), FIO_RUN_FILLED (fill_device's
 * ENOSPC: the job ends without an error), or @err (it ends the job).
 */
#define FIO_RUN_FILLED	100000
int fio_run_io_error(struct job_run *jr, bool read, struct km_file *file,
		     uint64_t pos, uint64_t bs, int err);
/* The job's error counts into its result (fio's ts fields). */
void fio_run_error_result(struct job_run *jr);
/* write_iolog: one line of the job's log. */
void fio_run_iolog_note(struct job_run *jr, struct km_file *file,
			const char *action, bool io, uint64_t off,
			uint64_t len);

/* fio-engines.c */

/*
 * A call on @args->file's inode, bracketed for the world's i_rwsem
 * check (m_world_inode_use/done, model/world.c): an inode no call is
 * using, its i_rwsem idle, leaves the per-step check until the next
 * call, so that a run of many files checks the files in use, not all
 * (issue 28).  No scheduling point is added.  Return: m_syscall's.
 */
long fio_run_file_syscall(enum m_sys nr, const struct m_sys_args *args);
/* fio-err.c: a trim's error (td_io_queue's td_verror). */
int fio_run_trim_error(struct job_run *jr, int err);
/* After the files are opened: the inodes only sync engines' jobs use
 * leave the i_rwsem check until their first call (io_uring and libaio
 * jobs' inodes stay: their kernel work goes on after the call). */
void fio_run_files_idle(void);

/* The row of sync_engines for @engine, or -1. */
int fio_run_sync_engine_row(enum fio_engine engine);
/* One synchronous call through the engine's row.  Return: the call's. */
long fio_run_sync_io(struct job_run *jr, struct km_file *file, bool read,
		     uint64_t pos, uint64_t bs, uint32_t data_id);
/* One I/O through the job's engine.  Return: 0 or an errno. */
/* fio's own work for one ioengine=null I/O: FIO_NULL_IO_NS, user. */
void fio_run_null_work(struct job_run *jr);
int fio_run_issue(struct job_run *jr, struct km_file *file, bool read,
		  uint64_t pos, uint64_t bs, uint32_t data_id);
/* One trim (null: as queued; else ioctl(BLKDISCARD)).  Return: 0 or the
 * errno that ends the job. */
int fio_run_issue_trim(struct job_run *jr, struct km_file *file,
		       uint64_t pos, uint64_t bs);
/* A sync of @kind (counted when @count).  Return: 0 or -errno. */
int fio_run_job_sync(struct job_run *jr, struct km_file *file,
		     enum fio_sync_kind kind, bool count);
/* The sync fio issues before the next I/O: its kind + 1, or 0. */
int fio_run_sync_due(const struct job_run *jr);
/* A write was issued at @pos, @bs bytes. */
void fio_run_note_write(struct job_run *jr, uint64_t pos, uint64_t bs);
/* The job's end: reap what is in flight, end_fsync, close. */
void fio_run_job_drain(struct job_run *jr);
/* fadvise_hint at a file's open, when the job reads through the cache. */
void fio_run_fadvise_hint(struct job_run *jr, unsigned int f, bool reads);

/* fio-verify.c */

/* verify=: read back and check what the job wrote. */
void fio_run_job_verify(struct job_run *jr);
/* ...one pass: @last at the job's end, else after a loop. */
void fio_run_job_verify_pass(struct job_run *jr, bool last);
/* verify_backlog: a read of a written block, when one is due. */
bool fio_run_verify_backlog(struct job_run *jr);
/* The verify family's checks of @j (the error printed).  Return: 0, 2. */
int fio_run_check_verify(const struct fio_job *j);
/* Whether @jr keeps its writes' ids (verify, or a later read checks). */
bool fio_run_keeps_writes(const struct fio_job *j);
/* At plan time: the job's patterns.  Return: 0 or 2. */
int fio_run_verify_plan(struct job_run *jr);
/* fio 3.33's verify interval of @j (init.c fixup_options). */
uint64_t fio_run_verify_interval(const struct fio_job *j);
/* A read of a job that only reads, with verify=: check it. */
void fio_run_read_verify(struct job_run *jr, uint64_t pos, uint64_t bs);
/* libaio, io_uring: slot @s's read was reaped; check it (a verify
 * list's, or a job that only reads with verify=).  Return: 0 or
 * -FIO_VERIFY_ERRNO. */
int fio_run_reap_verify(struct job_run *jr, unsigned int s);
/* The engine queues (libaio, io_uring): reads are checked when
 * reaped, not when issued. */
static inline bool fio_run_async(const struct fio_job *j)
{
	return j->ioengine == FIO_ENGINE_LIBAIO ||
	       j->ioengine == FIO_ENGINE_IO_URING;
}

/* ioengine=null's submission batch (fio 3.33 init.c fixup_options:
 * iodepth_batch 0 or above iodepth is iodepth); 1 = no batches (null.c
 * runs iodepth=1 as FIO_SYNCIO). */
static inline uint32_t fio_run_null_batch(const struct fio_job *j)
{
	if (j->ioengine != FIO_ENGINE_NULL || j->iodepth <= 1)
		return 1;
	if (!j->iodepth_batch || j->iodepth_batch > j->iodepth)
		return j->iodepth;
	return j->iodepth_batch;
}

/* ioengine=posixaio with iodepth > 1: the requests wait in a queue of
 * iodepth slots for glibc's helper thread (fio-engines.c). */
static inline bool fio_run_posix_queue(const struct fio_job *j)
{
	return j->ioengine == FIO_ENGINE_POSIXAIO && j->iodepth > 1;
}

/* fio-vstate.c */

/* After the files are planned: each verify_state_load job's state file
 * and those of --files-from (a list, comma-separated), loaded.  Return:
 * 0 or 2 (the error printed). */
int fio_vstate_plan(const char *files_from);
/* At the run's setup: the loaded blocks laid on the run's files. */
void fio_vstate_lay(void);
/* Loaded writer @k (fio-verify.c writer_of: ids of writer R->njobs + 1
 * + k), or NULL. */
const struct job_run *fio_vstate_writer(unsigned int k);
/* fio's verify_state_should_stop for a verify read of @jr at @pos. */
bool fio_vstate_should_stop(struct job_run *jr, uint64_t pos);
/* After the run: each verify_state_save job's state file. */
void fio_vstate_save(void);
void fio_vstate_free(void);

/* fio-engines.c: fio's io_u_quiesce.  Return: 0 or a positive errno. */
int fio_run_quiesce(struct job_run *jr);
/* fio-engines.c: reap what has completed, without waiting. */
int fio_run_reap_done(struct job_run *jr);

/* fio-rate.c: pacing, flows and distributions on the virtual clock */

/* @j's pacing options against fio's fixup_options and what the model
 * runs (the error printed), and the notes of its options with no
 * effect (stderr).  Return: 0 or 2. */
int fio_run_check_pace(const struct fio_job *j);
/* io_submit_mode=offload as fio-rate.c models it: libaio or io_uring
 * with a rate (each I/O issued at its rated time, no quiesce). */
bool fio_pace_offload_ok(const struct fio_job *j);
/* Run setup: a job's state (the flows are reset with the first). */
void fio_pace_setup(struct job_run *jr, bool first);
/* The job's start at @epoch_ns (after startdelay): its flow. */
void fio_pace_start(struct job_run *jr, uint64_t epoch_ns);
/* The job's end: exitall's terminations, it leaves its flow. */
void fio_pace_exit(struct job_run *jr);
/* Another job's end terminated @jr (exitall). */
bool fio_pace_terminated(struct job_run *jr);
/* fio's flow_threshold_exceeded: true when held back (after its
 * sleep, or a wait until the flow moves); the caller tries again. */
bool fio_pace_flow_held(struct job_run *jr);
/* fio's rate_ddir: sleep until the direction's next I/O time, or
 * switch direction; false when the runtime ends first. */
bool fio_pace_ddir(struct job_run *jr, bool *read, uint64_t end_ns);
/* An I/O was issued (rate_io_issue_bytes, rate_next_io_time). */
void fio_pace_issued(struct job_run *jr, bool read, uint64_t bytes);
/* An I/O completed (io_blocks, this_io_bytes). */
void fio_pace_completed(struct job_run *jr, enum fio_ddir d,
			uint64_t bytes);
/* After an I/O: thinktime, then the rate_min check.  Return: 0 or an
 * errno that ends the job (EIO: rate_min not met). */
int fio_pace_after_io(struct job_run *jr, bool read, uint64_t end_ns);
/* A random job's next block of @blocks by random_distribution; false:
 * uniform (the caller draws it). */
bool fio_pace_rand_block(struct job_run *jr, enum fio_ddir d,
			 uint64_t blocks, uint64_t *block);
/* random_distribution=sequence: the next block of the direction's
 * sequence; false when it is past the job's region (the file is done;
 * jr->error set when the pattern's own index is past it). */
bool fio_pace_sequence_block(struct job_run *jr, enum fio_ddir d,
			     uint64_t *block);

/* latency_target (fio 3.33 io_u.c lat_target_*; fio-rate.c) */

/* fio's lat_target_init, at each do_io (each loop's start). */
void fio_lat_target_init(struct job_run *jr);
/* A read or write completed after @lat_ns (start to completion):
 * counted for the window, over the target counted as failed (at
 * latency_percentile 100: a ramp down before the next I/O). */
void fio_lat_target_done(struct job_run *jr, enum fio_ddir d,
			 uint64_t lat_ns, uint64_t offset, uint64_t bytes);
/* In the job's loop after each I/O (not in ramp time): a pending ramp
 * down, then fio's lat_target_check.  Return: 0 or an errno that ends
 * the job (ETIMEDOUT: over the target at depth 1). */
int fio_lat_target_check(struct job_run *jr);
/* The depth fio fills before it waits (queue_full: cur_depth >=
 * latency_qd; iodepth without latency_target). */
static inline unsigned int fio_run_depth(const struct job_run *jr)
{
	return jr->job->latency_target_ns ? jr->lat.qd : jr->job->iodepth;
}

/* fio-ss.c: steadystate (fio's steadystate.c, its helper thread) */

/* @j's steadystate options against fio's checks (printed).  Return: 0
 * or 2. */
int fio_ss_check_job(const struct fio_job *j);
/* Run setup: the jobs' states, the helper task when some job has it. */
void fio_ss_setup(void);
/* A job starts (its epoch), ends (fio's TD_EXITED). */
void fio_ss_job_start(struct job_run *jr);
void fio_ss_job_exit(struct job_run *jr);
/* The job's steady state was attained: it ends before its next I/O. */
bool fio_ss_terminated(struct job_run *jr);
/* Some job has steadystate. */
bool fio_ss_enabled(void);
/* fio's steadystate_check (the helper's timer). */
void fio_ss_check(void);
/* The job's result's ss fields (at the report). */
void fio_ss_result(struct job_run *jr);
/* The windows freed (after the report). */
void fio_ss_free(void);

/* fio-prio.c: prio, prioclass, cmdprio_* (fio's engines/cmdprio.c) */

/* @j's cmdprio options against fio's checks (printed).  Return: 0, 2. */
int fio_prio_check_job(const struct fio_job *j);
/* Run setup (after the results): each job's priorities, stores. */
void fio_prio_setup(void);
/* A job's new result (latency_target's reset): its store, emptied. */
void fio_prio_attach(struct job_run *jr);
/* libaio, io_uring: the ioprio of the I/O issued in slot @s. */
void fio_prio_issue(struct job_run *jr, unsigned int s, bool read,
		    uint64_t bs);
/* Slot @s was reaped: its I/O's ioprio is the one recorded. */
void fio_prio_reaped(struct job_run *jr, unsigned int s);
/* A counted completion: its clat in its priority's statistics. */
void fio_prio_record(struct job_run *jr, enum fio_ddir d, uint64_t clat_ns);
/* group_reporting: the group's result @g (a copy of @first's) gets a
 * store of its own when a member has one. */
void fio_prio_group(struct fio_result *g, const struct job_run *first);
/* The stores freed (after the report). */
void fio_prio_free(void);

/* fio-iolog.c: read_iolog on libaio and io_uring (the sync engines and
 * null replay through replay.c) */

/* @j's I/O is its read_iolog's, run by the job runner. */
bool fio_iolog_runner(const struct fio_job *j);

/*
 * A libaio job that fio ends with td->done (read_iolog's end, SPRandom's
 * end): fio reaps one event when its queue is full
 * (iodepth_batch_complete_max 1), and after td->done its
 * td_io_getevents returns none (ioengines.c), so the I/Os in flight
 * then are issued and never reaped.  The runner's other libaio jobs
 * reap every completed request (docs/fio.md).
 */
static inline bool fio_run_reap_one(const struct job_run *jr)
{
	return fio_iolog_runner(jr->job) || jr->spr;
}

static inline bool fio_run_td_done(const struct job_run *jr)
{
	return fio_iolog_runner(jr->job) || jr->spr_done;
}
/* The log of @j loaded and checked (the error printed).  Return: 0, 2. */
int fio_iolog_load(const struct fio_job *j);
void fio_iolog_free(void);
/* The log has reads; its largest entry; its bytes (fio's size). */
bool fio_iolog_reads(void);
uint64_t fio_iolog_len_max(void);
uint64_t fio_iolog_bytes(void);
/* The log's files (its "add" lines, in order): the job's files. */
unsigned int fio_iolog_nfiles(void);
const char *fio_iolog_file_name(unsigned int f);
uint64_t fio_iolog_file_end(unsigned int f);
/* The job's I/O: every entry of the log, in order. */
void fio_iolog_run(struct job_run *jr, uint32_t *data_seqp);

/* fio-report.c */

/* fio's output, the iologs and logs, stderr's reports.  Return: 0 or
 * 1 (a job failed or a log could not be written). */
int fio_run_report(const struct run_args *ra,
		   const struct sim_outcome *outcome);

/* fio-spr.c: SPRandom (fio 3.41's sprandom.c) */
struct fio_spr;
/* The job's physical size (its io_size) for @logical bytes. */
uint64_t fio_spr_physical_size(const struct fio_job *j, uint64_t logical);
/* fio's seed @randseed (randseed=), job number @thread (fio's
 * thread_number, from 1), @logical bytes, @blocks in the LFSR.
 * Return: the state, or NULL (*@why). */
struct fio_spr *fio_spr_new(const struct fio_job *j, uint64_t randseed,
			    uint32_t thread, uint64_t logical,
			    uint64_t blocks, const char **why);
void fio_spr_free(struct fio_spr *s);
/* The next write's block.  Return: 0, 1 (SPRandom is done: fio's
 * td->done), -1 (its buffer would overflow: fio asserts). */
int fio_spr_next(struct fio_spr *s, uint64_t *block);

#endif
