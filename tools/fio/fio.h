/* SPDX-License-Identifier: MIT */
/*
 * tools/fio/fio.h - wpsim's fio front end: fio 3.x command lines and job
 * files parsed into job descriptions, and fio's output (normal text, JSON,
 * JSON+) printed from a results structure.  docs/fio.md describes the
 * options modelled, the value syntax, the errors and the output.
 *
 * The parser knows fio's syntax and value rules (read from fio 3.33's
 * parse.c, options.c and init.c and checked against fio 3.33 itself);
 * what a job does to the model is the runner's business.  Nothing here
 * exits or prints unless asked to: a bad input comes back as one
 * struct fio_error ("file:line:col: error: expected X, found Y"), and the
 * caller exits with FIO_EXIT_USAGE.  The parser uses malloc (it runs
 * before any execution); a config is released with fio_config_free().
 */
#ifndef WPSIM_TOOLS_FIO_H
#define WPSIM_TOOLS_FIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit code for bad usage or input, as every wpsim front end uses. */
#define FIO_EXIT_USAGE		2

/* Limits.  Each one, when exceeded, is an error naming it. */
#define FIO_NAME_LEN_MAX	255	/* job (section) names */
#define FIO_PATH_LEN_MAX	1023	/* filename, directory, iologs */
#define FIO_VALUE_LEN_MAX	1023	/* a value, after ${VAR} */
#define FIO_LINE_LEN_MAX	4095	/* one job-file line */
/* filename=a:b:c, nrfiles: a job's files, as many as verify's key
 * holds (FIO_VERIFY_FILE_BITS, tools/fio/verify.h); the run's files
 * have no bound but the model's memory (docs/fio.md). */
#define FIO_FILES_MAX		65536
#define FIO_SECTIONS_MAX	256	/* [sections] and --name sections */
#define FIO_JOBS_MAX		1024	/* jobs, numjobs expanded */
#define FIO_NUMJOBS_MAX		1024	/* numjobs= of one section */
#define FIO_SECTION_OPTS_MAX	256	/* options in one section */
#define FIO_INCLUDE_DEPTH_MAX	8	/* nested include */
#define FIO_VARIANTS_MAX	16	/* --variant k=v */
#define FIO_MESSAGE_MAX		4096	/* one error message (all options) */

/* ------------------------------------------------------------------ */
/* Errors                                                              */

/*
 * Where a value came from.  For a job file: the file, 1-based line and
 * byte column.  For the command line: file "<command line>", line = the
 * argument's index (argv[1] is 1), col = the byte column inside it.
 */
struct fio_pos {
	const char *file;	/* owned by the config's string table */
	uint32_t line;
	uint32_t col;
};

struct fio_error {
	bool set;
	char file[FIO_PATH_LEN_MAX + 1];
	uint32_t line;
	uint32_t col;
	char message[FIO_MESSAGE_MAX];	/* "expected X, found Y" */
	/* "file:line:col: error: message" */
	char text[FIO_MESSAGE_MAX + FIO_PATH_LEN_MAX + 64];
};

/* ------------------------------------------------------------------ */
/* Job descriptions                                                    */

enum fio_rw {
	FIO_RW_READ,		/* read */
	FIO_RW_WRITE,		/* write */
	FIO_RW_RW,		/* rw, readwrite: sequential mixed */
	FIO_RW_RANDREAD,	/* randread */
	FIO_RW_RANDWRITE,	/* randwrite */
	FIO_RW_RANDRW,		/* randrw: random mixed */
	/* Trims (fio's DDIR_TRIM): wpsim fio runs them on ioengine=null
	 * only (fio 3.33 discards with ioctl(BLKDISCARD) on a block
	 * device, a target the runner does not have yet). */
	FIO_RW_TRIM,		/* trim */
	FIO_RW_RANDTRIM,	/* randtrim */
	FIO_RW_TRIMWRITE,	/* trimwrite: trim a block, then write it */
	FIO_RW_RANDTRIMWRITE,	/* randtrimwrite */
};

/* fio's td_random(): the random patterns. */
static inline bool fio_rw_random(enum fio_rw rw)
{
	return rw == FIO_RW_RANDREAD || rw == FIO_RW_RANDWRITE ||
	       rw == FIO_RW_RANDRW || rw == FIO_RW_RANDTRIM ||
	       rw == FIO_RW_RANDTRIMWRITE;
}

enum fio_engine {
	FIO_ENGINE_PSYNC,	/* pread/pwrite (fio's default on Linux) */
	FIO_ENGINE_SYNC,	/* read/write + lseek */
	FIO_ENGINE_PVSYNC2,	/* preadv2/pwritev2 with RWF_* flags */
	FIO_ENGINE_LIBAIO,	/* io_submit/io_getevents */
	FIO_ENGINE_IO_URING,	/* io_uring */
	FIO_ENGINE_NULL,	/* no I/O: fio's own cost */
	FIO_ENGINE_VSYNC,	/* readv/writev + lseek */
	FIO_ENGINE_PVSYNC,	/* preadv/pwritev */
	FIO_ENGINE_POSIXAIO,	/* aio_read/aio_write (glibc) */
	FIO_ENGINE_MMAP,	/* mmap + memcpy, msync */
};

enum fio_sync_mode {
	FIO_SYNC_NONE,		/* sync=none or 0 */
	FIO_SYNC_SYNC,		/* sync=sync or 1: O_SYNC */
	FIO_SYNC_DSYNC,		/* sync=dsync: O_DSYNC */
};

/* sync_file_range= flags, the values of include/uapi/linux/fs.h. */
#define FIO_SFR_WAIT_BEFORE	1u
#define FIO_SFR_WRITE		2u
#define FIO_SFR_WAIT_AFTER	4u

enum fio_zonemode {
	FIO_ZONEMODE_NONE,
	FIO_ZONEMODE_STRIDED,
};

/* bssplit=: at most this many sizes per direction (fio's BSSPLIT_MAX). */
#define FIO_BSSPLIT_MAX	64

/* One bssplit= entry: a block size and its percentage. */
struct fio_bssplit {
	uint64_t bs;
	uint32_t perc;
};

/* io_submit_mode=: fio's own submission (inline) or worker threads. */
enum fio_submit_mode {
	FIO_SUBMIT_INLINE,
	FIO_SUBMIT_OFFLOAD,
};

enum fio_fallocate {
	FIO_FALLOCATE_NONE,
	FIO_FALLOCATE_NATIVE,
	FIO_FALLOCATE_POSIX,
	FIO_FALLOCATE_KEEP,
	FIO_FALLOCATE_TRUNCATE,
};

enum fio_random_generator {
	FIO_RANDGEN_TAUSWORTHE,
	FIO_RANDGEN_LFSR,
	FIO_RANDGEN_TAUSWORTHE64,
};

enum fio_ddir {
	FIO_DDIR_READ,
	FIO_DDIR_WRITE,
	FIO_DDIR_TRIM,
	FIO_DDIR_COUNT,		/* fio's DDIR_RWDIR_CNT */
};

/* A byte quantity that fio also accepts as a percentage (size=50%). */
struct fio_size {
	bool set;		/* given (or inherited from [global]) */
	uint64_t bytes;		/* when percent == 0 */
	uint32_t percent;	/* 1..100 when given as N% */
};

/*
 * One job: a section after numjobs expansion.  Fields hold fio's
 * defaults unless an option set them.  Times are ns (fio parses them in
 * us: the value is us * 1000).
 */
/* fio 3.33's error types (td_error.h enum error_type_bit) and
 * continue_on_error's values. */
#define FIO_ERR_TYPES		3	/* read, write, verify */
#define FIO_ERR_READ		(1u << 0)
#define FIO_ERR_WRITE		(1u << 1)
#define FIO_ERR_VERIFY		(1u << 2)
#define FIO_ERR_ANY		0xffffu
#define FIO_IGNORE_ERRORS_MAX	16	/* per type (fio's: unbounded) */

struct fio_job {
	char name[FIO_NAME_LEN_MAX + 1];
	uint32_t section;	/* index into fio_config.sections */
	uint32_t jobnum;	/* clone index 0..numjobs-1: $jobnum */
	uint32_t groupid;	/* reporting group (stonewall starts one) */
	/* Wait for the jobs before: stonewall, or job files 2.. */
	bool stonewall;
	bool new_group;		/* new_group: a new reporting group */

	enum fio_rw rw;
	uint32_t rw_seq_nr;	/* rw=randX:N: a new offset every N I/Os */
	int64_t rw_seq_add;	/* rw=X:N (sequential): skip N bytes;
				 * negative: backwards (rw=read:-8k) */
	uint32_t rwmixread;	/* % of mixed I/O that reads (50) */
	uint64_t bs[FIO_DDIR_COUNT];	/* 4096 each; bs=R,W[,T] */
	/*
	 * bsrange= and bssplit= (fio's min_bs, max_bs, bssplit): 0 unset;
	 * when set, bs[] is the minimum (fio's fixup_options) and each
	 * I/O draws its size (fio's get_next_buflen).
	 */
	uint64_t bs_min[FIO_DDIR_COUNT], bs_max[FIO_DDIR_COUNT];
	/* ba (blockalign): random offsets are multiples of it; 0 = bs
	 * (fio's fixup_options sets min_bs where unset or not random) */
	uint64_t ba[FIO_DDIR_COUNT];
	bool ba_norandommap;	/* fixup_options turned the map off */
	uint32_t bssplit_nr[FIO_DDIR_COUNT];
	struct fio_bssplit bssplit[FIO_DDIR_COUNT][FIO_BSSPLIT_MAX];
	struct fio_size size;
	uint64_t filesize;	/* filesize=: each file's size; 0 unset */
	uint32_t loops;		/* loops=: the workload N times (1) */
	char verify[16];	/* verify=: a kind, "" = none */
	bool do_verify;		/* 1 */
	bool verify_fatal;
	bool verify_write_sequence;	/* fio 3.38+; default 1 */
	uint32_t verify_backlog;	/* verify after every N writes (0) */
	uint32_t verify_batch;		/* ...this many reads (0: N) */
	bool verify_dump;		/* dump a failed block's buffers */
	uint32_t verify_async;		/* verifier threads (0: inline) */
	uint64_t verify_interval;	/* a header every N bytes (0: bs) */
	/*
	 * The verify family and the buffers' contents (docs/fio.md, "The
	 * written bytes"): the model keeps a write id per sector, not
	 * bytes, so a pattern is a property of a job's writes.
	 */
	bool verify_given;		/* verify= was given (even 0) */
	char verify_pattern[FIO_VALUE_LEN_MAX + 1];	/* as given; "" */
	bool verify_pattern_offset;	/* it has %o */
	char buffer_pattern[FIO_VALUE_LEN_MAX + 1];	/* as given; "" */
	bool experimental_verify;	/* verify by replaying offsets */
	bool verify_state_save;		/* 1: fio's state file */
	bool verify_state_load;
	uint32_t buffer_compress_percentage;	/* 0 */
	uint32_t dedupe_percentage;		/* 0 */
	int dedupe_mode;			/* 0 repeat, 1 working_set */
	bool dedupe_global;
	uint32_t dedupe_working_set_percentage;	/* 5 */
	bool refill_buffers;
	char description[FIO_PATH_LEN_MAX + 1];	/* "" none */
	enum fio_submit_mode io_submit_mode;	/* inline */
	bool serialize_overlap;		/* no overlapping I/O in flight */
	bool gtod_reduce;		/* no latency samples (fio's
					 * disable_lat/clat/slat/bw) */
	struct fio_size io_size;	/* io_size, io_limit */
	uint64_t number_ios;	/* 0 = no limit */
	uint32_t numjobs;
	uint32_t iodepth;
	/* fio 3.33's batches (options.c, init.c fixup_options; the effect:
	 * tools/wpsim/fio-engines.c fio_run_null_batch): submit
	 * (iodepth_batch, alias iodepth_batch_submit; 1, 0 = iodepth),
	 * reap (iodepth_batch_complete_min, alias iodepth_batch_complete;
	 * 1; _max 0 = the min) and the low water mark (0 = iodepth). */
	uint32_t iodepth_batch;
	uint32_t iodepth_batch_complete_min;
	uint32_t iodepth_batch_complete_max;
	uint32_t iodepth_low;
	enum fio_engine ioengine;
	bool direct;		/* direct=1 or buffered=0 */
	enum fio_sync_mode sync;
	uint32_t fsync_blocks;	/* fsync=N: fsync(2) every N writes */
	uint32_t fdatasync_blocks;
	uint32_t sfr_flags;	/* FIO_SFR_*; 0 = no sync_file_range */
	uint32_t sfr_nr;	/* ...every N writes (:N, default 1) */
	bool end_fsync;
	bool file_append;
	bool overwrite;

	/*
	 * filename=a:b as given: fio's ':' separates files, '\:' is a
	 * literal colon; fio_job_file_name() splits it.
	 */
	char filename[FIO_PATH_LEN_MAX + 1];
	uint32_t filename_count;	/* entries in filename; 0 = none */
	char filename_format[FIO_PATH_LEN_MAX + 1];
	char directory[FIO_PATH_LEN_MAX + 1];
	uint32_t nrfiles;

	struct fio_size offset;
	struct fio_size offset_increment;
	enum fio_zonemode zonemode;
	uint64_t zonesize;
	uint64_t zoneskip;
	uint64_t zonerange;

	uint64_t runtime_ns;	/* 0 = until size is done */
	bool time_based;
	uint64_t ramp_time_ns;
	uint64_t startdelay_ns;

	uint32_t uncached;	/* RWF_DONTCACHE (pvsync2, io_uring) */
	bool writethrough;	/* RWF_WRITETHROUGH: seed 000's own fio */
	bool hipri;		/* RWF_HIPRI / IORING_SETUP_IOPOLL */
	bool nowait;		/* RWF_NOWAIT */
	bool atomic;		/* RWF_ATOMIC on writes (fio 3.38+) */

	bool group_reporting;
	uint64_t randseed;	/* 0x89 */
	bool randrepeat;
	bool norandommap;
	enum fio_random_generator random_generator;
	/* SPRandom (fio 3.41's sprandom.c; tools/wpsim/fio-spr.c) */
	bool sprandom;
	uint32_t spr_num_regions;	/* 100 */
	double spr_op;			/* over-provisioning, 0.15 */
	uint64_t spr_cs;		/* cache size, bytes (0) */
	bool spr_set_lfsr, spr_set_nomap;	/* fixup_options set them */
	bool spr_randseed_given;	/* randseed= given (its seeds) */
	bool thread;
	enum fio_fallocate fallocate;
	bool create_on_open;
	bool invalidate;

	/* Parsed only; trace replay (issue 15) gives them meaning. */
	char write_iolog[FIO_PATH_LEN_MAX + 1];
	/* wait_for=NAME: start when every job of that name has ended
	 * (fio 3.33 backend.c waitee_running); "" none. */
	char wait_for[FIO_PATH_LEN_MAX + 1];
	char read_iolog[FIO_PATH_LEN_MAX + 1];
	bool replay_no_stall;
	uint32_t replay_time_scale;	/* % (100) */

	uint32_t kb_base;	/* 1024 (default) or 1000 */

	/*
	 * Statistics logs (tools/fio/logs.c, fio 3.33's stat.c/iolog.c):
	 * write_X_log[=name] sets the bit of FIO_LOG_X; the name ("" =
	 * the job's name) is in log_file[X].
	 */
	uint32_t logs;			/* bits: 1u << enum fio_log_kind */
	char log_file[3][FIO_PATH_LEN_MAX + 1];	/* bw, lat, iops */
	uint64_t log_avg_msec;		/* 0: every I/O */
	uint32_t log_window_value;	/* enum fio_log_window (avg) */
	bool per_job_logs;		/* 1: name_X.N.log */
	bool log_offset;		/* each entry's offset */
	bool log_issue_time;		/* each entry's issue time (ns) */

	/*
	 * Pacing and distributions (tools/fio/options-pace.c parses them,
	 * tools/wpsim/fio-rate.c runs them on the virtual clock; fio 3.33
	 * backend.c usec_for_io/handle_thinktime, io_u.c rate_ddir,
	 * flow.c, lib/zipf.c, lib/gauss.c).  0 = unset unless said.
	 */
	uint64_t rate[FIO_DDIR_COUNT];		/* rate=: bytes/s */
	uint64_t rate_min[FIO_DDIR_COUNT];	/* rate_min (ratemin) */
	uint64_t rate_iops[FIO_DDIR_COUNT];
	uint64_t rate_iops_min[FIO_DDIR_COUNT];
	uint32_t rate_process;		/* enum fio_rate_process (linear) */
	uint64_t rate_cycle_ms;		/* rate_cycle: 1000 */
	bool rate_ignore_thinktime;
	uint64_t thinktime_ns;		/* thinktime (us unit) */
	uint64_t thinktime_spin_ns;
	uint64_t thinktime_iotime_ns;	/* thinktime_iotime (s unit) */
	uint32_t thinktime_blocks;	/* 1 */
	bool thinktime_blocks_set;	/* fio_option_is_set() */
	uint32_t thinktime_blocks_type;	/* enum fio_thinktime_type */
	uint32_t flow_id;
	uint32_t flow;			/* weight, 0 = not in a flow */
	uint64_t flow_sleep_ns;		/* flow_sleep (us) */
	uint32_t rand_dist;		/* enum fio_rand_dist (random) */
	double rand_dist_val;		/* theta, h or the deviation % */
	double rand_dist_center;	/* -1: unset */
	uint32_t zone_split_nr[FIO_DDIR_COUNT];
	struct fio_zone_split {
		uint32_t access_perc;
		uint32_t size_perc;	/* zoned */
		uint64_t size;		/* zoned_abs: bytes */
	} zone_split[FIO_DDIR_COUNT][16];
	/* random_distribution=sequence:i,j,... (fio 3.42 options.c
	 * parse_sequence_distribution, io_u.c
	 * __get_next_rand_offset_sequence): block indices in order. */
	uint32_t rand_seq_nr;
	uint32_t rand_seq[64];		/* fio's FIO_SEQ_MAX */
	bool rand_seq_stride;		/* random_sequence_stride: 0 */
	bool log_prio;			/* the prio column: ioprio value */
	bool exitall;			/* exitall, or exitall=N, N != 0 */
	bool exitall_on_error;
	uint32_t exit_what;		/* enum fio_exit_what (group) */
	/*
	 * Errors (fio 3.33 td_error.c, options.c; options-err.c):
	 * continue_on_error's bits (FIO_ERR_READ, _WRITE, _VERIFY; all:
	 * 0xffff), ignore_error's lists per error type (read, write,
	 * verify; none given: fio's EIO, EILSEQ), error_dump (1),
	 * fill_device (write until ENOSPC), create_serialize (1).
	 */
	uint32_t continue_on_error;
	uint32_t ignore_error_nr[FIO_ERR_TYPES];
	int ignore_error[FIO_ERR_TYPES][FIO_IGNORE_ERRORS_MAX];
	bool error_dump;
	bool fill_device;
	bool create_serialize;
	/* latency_target (fio 3.33 io_u.c lat_target_*): the queue depth
	 * is ramped to the largest that keeps latency_percentile % of the
	 * I/Os' latencies within the target over each window. */
	uint64_t latency_target_ns;	/* latency_target (us unit); 0 */
	uint64_t latency_window_ns;	/* latency_window (us unit); 0 */
	double latency_percentile;	/* 100 */
	bool latency_run;		/* keep adjusting; 0 */
	/* Options accepted with no effect in the model (a printed note,
	 * docs/fio.md): bits of enum fio_noted. */
	uint32_t noted;
	/* The CPU options as given (noted; fio checks each CPU they name
	 * against the machine's, which the runner does against the
	 * modelled machine's --cpus): cpus_allowed, verify_async_cpus
	 * ("" = not given), cpumask (its bits). */
	char cpus_allowed[FIO_NAME_LEN_MAX + 1];
	char verify_async_cpus[FIO_NAME_LEN_MAX + 1];
	uint64_t cpumask;
	/*
	 * steadystate (ss), steadystate_duration (ss_dur),
	 * steadystate_ramp_time (ss_ramp): fio 3.33's options.c; lat,
	 * lat_slope and steadystate_check_interval (ss_interval) are later
	 * fio's (the corpus's steadystate.c).  ss_state holds the
	 * criterion's FIO_SS_* bits, ss_limit its threshold; the job's
	 * steady state is watched only when ss_dur_ns is not 0.
	 */
	uint32_t ss_state;		/* iops_slope, % (FIO_SS_*) */
	double ss_limit;		/* 0.01 */
	uint64_t ss_dur_ns;		/* 0: off */
	uint64_t ss_ramp_ns;		/* 0 */
	uint64_t ss_check_ns;		/* 1 s */
	/*
	 * prio, prioclass (fio 3.33 options.c; backend.c's ioprio_set at
	 * the job's start: the job's default ioprio) and libaio's and
	 * io_uring's cmdprio_percentage, cmdprio_class, cmdprio (R,W) and
	 * cmdprio_bssplit (engines/cmdprio.c: a per-I/O ioprio).
	 */
	bool ioprio_given;		/* prio or prioclass given */
	uint32_t ioprio, ioprio_class;	/* 0, 0 */
	uint32_t cmdprio_pct[2], cmdprio_class[2], cmdprio_level[2];
	char cmdprio_bssplit[256];	/* as given, "" none */
	/* ...parsed (split_parse_prio_ddir): per direction, zero
	 * percentages dropped, sorted by bs; prio -1: cmdprio's */
	struct fio_cmdprio_split {
		uint64_t bs;
		uint32_t perc;
		int32_t prio;
	} cmdprio_split[2][64];
	uint32_t cmdprio_split_nr[2];
};

/* steadystate's criterion bits (fio's steadystate.h FIO_SS_*: the same
 * values, also in struct fio_ss_result.state). */
enum {
	FIO_SS_IOPS		= 1u << 0,
	FIO_SS_BW		= 1u << 1,
	FIO_SS_SLOPE		= 1u << 2,
	FIO_SS_ATTAINED		= 1u << 3,
	FIO_SS_RAMP_OVER	= 1u << 4,
	FIO_SS_DATA		= 1u << 5,
	FIO_SS_PCT		= 1u << 6,
	FIO_SS_BUFFER_FULL	= 1u << 7,
	FIO_SS_LAT		= 1u << 8,
};

#define FIO_ZONESPLIT_MAX	16	/* zoned: zones per direction */

enum fio_exit_what {
	FIO_EXIT_GROUP,		/* TERMINATE_GROUP: the job's group */
	FIO_EXIT_STONEWALL,	/* the jobs running */
	FIO_EXIT_ALL,		/* every job */
};

enum fio_rate_process {
	FIO_RATE_LINEAR,
	FIO_RATE_POISSON,
};

enum fio_thinktime_type {
	FIO_THINKTIME_COMPLETE,		/* fio's default */
	FIO_THINKTIME_ISSUE,
};

enum fio_rand_dist {
	FIO_RAND_DIST_RANDOM,
	FIO_RAND_DIST_ZIPF,
	FIO_RAND_DIST_PARETO,
	FIO_RAND_DIST_NORMAL,		/* fio's gauss */
	FIO_RAND_DIST_ZONED,
	FIO_RAND_DIST_ZONED_ABS,
	FIO_RAND_DIST_SEQUENCE,		/* fio 3.42: sequence:i,j,... */
};
#define FIO_SEQ_MAX	64		/* fio's: sequence elements */

/* Options accepted with no effect in the model: fio_job.noted bits. */
enum fio_noted {
	FIO_NOTED_NUMA_CPU_NODES,
	FIO_NOTED_NUMA_MEM_POLICY,
	FIO_NOTED_THREADS,
	FIO_NOTED_FLOW_WATERMARK,
	FIO_NOTED_CPUS_ALLOWED,
	FIO_NOTED_CPUS_ALLOWED_POLICY,
	FIO_NOTED_CPUMASK,
	FIO_NOTED_VERIFY_ASYNC_CPUS,
	FIO_NOTED_COUNT,
};

/* The option's name and why it has no effect (its printed note). */
const char *fio_noted_name(enum fio_noted n);
const char *fio_noted_why(enum fio_noted n);

/* The write_X_log options, the index into fio_job.log_file. */
enum fio_log_kind {
	FIO_LOG_BW,
	FIO_LOG_LAT,
	FIO_LOG_IOPS,
	FIO_LOG_KINDS,
};

/*
 * log_window_value= (alias log_max_value; fio 3.42's options.c, where
 * 3.33 had a bool log_max_value: its 0 and 1 are avg and max): what a
 * log_avg_msec window logs.
 */
enum fio_log_window {
	FIO_LOG_WINDOW_AVG,	/* the window's mean */
	FIO_LOG_WINDOW_MAX,	/* its maximum */
	FIO_LOG_WINDOW_BOTH,	/* both: a value1 column after value */
};

/* An option as given, for "job options", "global options" and showcmd. */
struct fio_given {
	const char *name;	/* canonical name (an alias is recorded so) */
	char *value;		/* as given, after ${VAR}; NULL when bare */
	struct fio_pos pos;
};

struct fio_section {
	char name[FIO_NAME_LEN_MAX + 1];
	bool global;		/* [global] or --name=global or leading */
	bool from_cmdline;	/* --name section (fio records "name") */
	bool implicit;		/* options with no --name at all */
	bool leading;		/* command-line options before --name */
	uint32_t given_count;
	struct fio_given given[FIO_SECTION_OPTS_MAX];
};

/* Output formats, fio's --output-format bits. */
#define FIO_OUTPUT_NORMAL	1u
#define FIO_OUTPUT_JSON		2u
#define FIO_OUTPUT_JSON_PLUS	4u

enum fio_fs {
	FIO_FS_DEFAULT,		/* not given: the runner's choice */
	FIO_FS_XFS,
	FIO_FS_EXT4,
};

struct fio_config {
	/* Jobs in fio's order, numjobs clones expanded. */
	uint32_t job_count;
	struct fio_job *jobs;

	/* Sections as written (global ones too), for showcmd and JSON. */
	uint32_t section_count;
	struct fio_section *sections;

	/*
	 * No --name and no job file: fio 3.33 says "No job(s) defined";
	 * wpsim runs the options as one job named "fio" (the seed 000
	 * command lines are written so) and sets this for the caller to
	 * say so.
	 */
	bool implicit_job;

	/* fio's command-line options. */
	uint32_t output_format;	/* FIO_OUTPUT_* (NORMAL) */
	char output[FIO_PATH_LEN_MAX + 1];	/* --output; "" = stdout */
	bool showcmd;
	bool parse_only;

	/* wpsim's own. */
	uint32_t variant_count;
	char variants[FIO_VARIANTS_MAX][FIO_VALUE_LEN_MAX + 1];
	char device[FIO_NAME_LEN_MAX + 1];	/* "" = runner's default */
	uint32_t cpus;		/* 0 = not given */
	enum fio_fs fs;
	uint64_t mem_bytes;	/* 0 = not given */
	/* --fs-size: the filesystem's size, a free-space count of its
	 * blocks (ENOSPC past it); 0 = not given: no count. */
	uint64_t fs_bytes;
	/* --dev-size: the block device's size, a /dev/ job's size without
	 * size= (fio's BLKGETSIZE64); 0 = not given: the device profile's
	 * capacity_bytes. */
	uint64_t dev_bytes;
	/* The machine's memory (--ram) and its vm.dirty_* sysctls
	 * (--dirty_ratio ...); 0 = not given. */
	uint64_t ram_bytes;
	uint32_t dirty_ratio, dirty_background_ratio;
	uint64_t dirty_bytes, dirty_background_bytes;

	/* Strings the error positions point to (file names). */
	uint32_t string_count;
	char **strings;

	/* The parser's state between calls; private. */
	struct fio_parse_state *state;
};

/*
 * fio_parse_argv() - parse a fio command line (argv[0] is the program
 * and is skipped).  Job files named on it are read and parsed after the
 * command-line jobs, as fio does; options before the first --name are
 * global and also apply to the jobs of the job files.
 * Return: 0, or -1 with *err set (exit FIO_EXIT_USAGE).
 */
int fio_parse_argv(int argc, char **argv, struct fio_config *cfg,
		   struct fio_error *err);

/*
 * fio_parse_jobfile() - parse one job file's text, named @file in
 * errors and used to resolve relative include paths.
 * Return: 0, or -1 with *err set.
 */
int fio_parse_jobfile(const char *file, const char *text, size_t len,
		      struct fio_config *cfg, struct fio_error *err);

/* fio_config_init() - an empty config with fio's defaults. */
void fio_config_init(struct fio_config *cfg);
void fio_config_free(struct fio_config *cfg);

/*
 * fio_config_finish() - after the last fio_parse_jobfile() of a config
 * not built by fio_parse_argv(): expand and check the last section.
 * fio_parse_argv() calls it itself.
 */
int fio_config_finish(struct fio_config *cfg, struct fio_error *err);

/*
 * fio_job_file_name() - the name of file @filenum of @job, as fio makes
 * it: filename= entries (directory= prefixed to relative ones), else
 * filename_format with $jobname, $jobnum, $filenum expanded.
 * Return: 0, or -1 when it does not fit @len.
 */
int fio_job_file_name(const struct fio_job *job, uint32_t filenum,
		      char *buf, size_t len);
uint32_t fio_job_file_count(const struct fio_job *job);

/*
 * fio_showcmd() - print the config as one fio command line ("fio
 * --opt=value ... --name=job ...\n"), the form fio --showcmd prints for
 * a job file.  Parsing it back gives the same jobs.
 */
void fio_showcmd(FILE *out, const struct fio_config *cfg);

/* fio_jobs_equal() - the fields a runner reads are equal. */
bool fio_jobs_equal(const struct fio_job *a, const struct fio_job *b);

/* fio_modelled_options() - the job options modelled, comma-separated. */
const char *fio_modelled_options(void);

/* Names for printing. */
/* fio 3.33's errno names (str2error's: EPERM..ERANGE), else NULL. */
const char *fio_errno_name(int err);
const char *fio_rw_name(enum fio_rw rw);
const char *fio_engine_name(enum fio_engine engine);

/* ------------------------------------------------------------------ */
/* Results                                                             */

/*
 * fio's latency histogram (stat.h, fio 3.33): values below 2^(BITS+1)
 * get one bucket each; above, each power of two is split into 2^BITS
 * buckets, so a bucket's width is at most 1/2^BITS of its values
 * (FIO_PLAT_BITS 6: under 1.6 %).  29 groups reach 2^34 ns (17 s);
 * larger values land in the last bucket.
 */
#define FIO_PLAT_BITS		6
#define FIO_PLAT_VAL		(1u << FIO_PLAT_BITS)
#define FIO_PLAT_GROUP_NR	29
#define FIO_PLAT_NR		(FIO_PLAT_GROUP_NR * FIO_PLAT_VAL)

#define FIO_PERCENTILES_MAX	20	/* fio's FIO_IO_U_LIST_MAX_LEN */
#define FIO_DEFAULT_PERCENTILES	17
extern const double fio_default_percentiles[FIO_DEFAULT_PERCENTILES];

/* Running min/max/mean/variance: fio's struct io_stat (Welford). */
struct fio_stat {
	uint64_t samples;
	uint64_t min;
	uint64_t max;
	double mean;
	double m2;		/* sum of squared deviations: fio's S */
};

/* A latency collection: the summary and the histogram, in ns. */
struct fio_lat {
	struct fio_stat stat;
	uint64_t plat[FIO_PLAT_NR];
};

struct fio_ddir_result {
	uint64_t io_bytes;
	uint64_t total_ios;
	uint64_t short_ios;
	uint64_t drop_ios;
	uint64_t runtime_ms;	/* this direction's run time, ms as fio */
	struct fio_lat slat;	/* start to issue (async engines only) */
	struct fio_lat clat;	/* issue to completion */
	struct fio_lat lat;	/* start to completion */
	struct fio_stat bw;	/* samples, KiB/s */
	struct fio_stat iops;	/* samples, I/Os per s */
	uint64_t sampled_bytes;	/* bytes and ios at the last sample */
	uint64_t sampled_ios;
};

#define FIO_IODEPTH_BUCKETS	7	/* 1 2 4 8 16 32 >=64 */
#define FIO_LAT_N_BUCKETS	10	/* <2 <4 <10 ... <1000 */
#define FIO_LAT_U_BUCKETS	10
#define FIO_LAT_M_BUCKETS	12	/* ... <1000 <2000 >=2000 */

/* ioprio values (fio 3.33 os/os-linux.h): class << 13 | level. */
#define FIO_IOPRIO_CLASS_SHIFT	13
#define FIO_IOPRIO_CLASS_RT	1
#define FIO_IOPRIO_CLASS_BE	2
/* Per-priority clat statistics (fio 3.33's clat_prio_stat): index 0 is
 * the job's default ioprio; at most every class/level pair and it. */
#define FIO_CLAT_PRIO_MAX	33
struct fio_clat_prio {
	uint32_t ioprio;
	struct fio_lat clat;
};
struct fio_prio_stats {
	uint32_t nr[2];		/* read, write */
	struct fio_clat_prio e[2][FIO_CLAT_PRIO_MAX];
};
/* fio_result_merge's part: @src's samples into @dst by ioprio value
 * (fio 3.33 stat.c add_clat_prio_stats), new values appended. */
void fio_prio_stats_merge(struct fio_prio_stats *dst,
			  const struct fio_prio_stats *src);

/*
 * A job's steady state at its end (fio's thread_stat ss_* fields, from
 * its thread_data's steadystate_data): the criterion, the window of
 * per-interval figures (a ring of @intervals from @head; the arrays
 * belong to the runner and live until its results are printed).
 */
struct fio_ss_result {
	uint32_t state;		/* FIO_SS_* */
	uint64_t dur_s;		/* ss_dur in s; 0: no steadystate */
	uint32_t intervals;	/* dur / check interval */
	uint32_t head;
	const uint64_t *bw, *iops, *lat;	/* [intervals], or NULL */
	double limit, slope, deviation, criterion;
};

/*
 * What fio calls a thread_stat: one job's results, or a group's with
 * group_reporting (fio_result_merge()).
 */
struct fio_result {
	char name[FIO_NAME_LEN_MAX + 1];
	uint32_t groupid;
	uint32_t members;	/* jobs summed in ("jobs=N") */
	uint32_t pid;		/* the runner's task id (virtual) */
	int error;
	/* fio's "(file:..., func=..., error=...)" after err=, "" none */
	char error_where[160];
	/* the place is known though empty: "err=28 ():" (fio prints the
	 * parentheses for every error) */
	bool error_where_set;
	uint32_t section;	/* for "job options" */
	/* description= (fio's ts->description, FIO_JOBDESC_SIZE 256) */
	char description[256];
	bool record_slat;	/* async engine: slat samples kept */
	bool gtod_reduce;	/* gtod_reduce=1: counts, no latencies */

	struct fio_ddir_result ddir[FIO_DDIR_COUNT];
	struct fio_lat sync;	/* fsync/fdatasync/sync_file_range */
	uint64_t sync_ios;

	uint64_t total_run_time_ms;	/* "job_runtime" */
	uint64_t usr_time_ms;	/* CPU time charged to the job */
	uint64_t sys_time_ms;
	uint64_t ctx;		/* context switches */
	uint64_t majf;
	uint64_t minf;
	uint64_t elapsed_s;	/* JSON "elapsed" (virtual) */

	uint64_t io_u_map[FIO_IODEPTH_BUCKETS];
	uint64_t io_u_submit[FIO_IODEPTH_BUCKETS];
	uint64_t io_u_complete[FIO_IODEPTH_BUCKETS];
	uint64_t total_submit;
	uint64_t total_complete;
	uint64_t lat_n[FIO_LAT_N_BUCKETS];	/* clat buckets */
	uint64_t lat_u[FIO_LAT_U_BUCKETS];
	uint64_t lat_m[FIO_LAT_M_BUCKETS];
	uint32_t latency_depth;	/* the job's iodepth (latency_target:
				 * the depth it ended at) */
	uint64_t latency_target;	/* ns (fio prints it so) */
	uint64_t latency_window;	/* us (fio prints it so) */
	double latency_percentile;	/* 100 unless latency_percentile */

	uint32_t kb_base;
	uint32_t percentile_count;
	double percentiles[FIO_PERCENTILES_MAX];
	/* steadystate: what fio's ts->ss_* hold (dur_s 0 without it) */
	struct fio_ss_result ss;
	/* cmdprio's per-priority clat (fio's ts->clat_prio): NULL
	 * without; the runner's memory, live until printed */
	struct fio_prio_stats *prio;
	/* continue_on_error (fio's ts->continue_on_error, total_err_count,
	 * first_error): the "errors" line and the JSON total_err and
	 * first_error, printed when continue_on_error is set. */
	uint32_t continue_on_error;
	uint64_t total_err_count;
	int first_error;
};

/* One reporting group's "Run status" line: fio's group_run_stats. */
struct fio_group_result {
	uint32_t groupid;
	uint32_t kb_base;
	uint64_t iobytes[FIO_DDIR_COUNT];
	uint64_t agg[FIO_DDIR_COUNT];		/* B/s */
	uint64_t min_bw[FIO_DDIR_COUNT];	/* B/s */
	uint64_t max_bw[FIO_DDIR_COUNT];
	uint64_t min_run[FIO_DDIR_COUNT];	/* ms */
	uint64_t max_run[FIO_DDIR_COUNT];
};

void fio_stat_init(struct fio_stat *s);
void fio_stat_add(struct fio_stat *s, uint64_t value);
double fio_stat_stddev(const struct fio_stat *s);
void fio_lat_init(struct fio_lat *l);
void fio_lat_add(struct fio_lat *l, uint64_t ns);

unsigned int fio_plat_val_to_idx(uint64_t ns);
uint64_t fio_plat_idx_to_val(unsigned int idx);

/*
 * fio_lat_percentiles() - fio's calc_clat_percentiles(): for each of
 * @n percentiles (ascending), the value of the first bucket where the
 * running count reaches p/100 of the samples.
 * Return: @n, or 0 when there are no samples.
 */
size_t fio_lat_percentiles(const struct fio_lat *l, const double *plist,
			   size_t n, uint64_t *out);

/*
 * fio_result_alloc() - a zeroed result for @job (NULL: no job), with
 * fio's defaults (percentile list, kb_base).  Free with free().
 */
struct fio_result *fio_result_alloc(const struct fio_job *job);

/*
 * fio_result_add_io() - one completed I/O of @bytes: @start_ns when fio
 * began it, @issue_ns when it was submitted, @complete_ns when it
 * completed (virtual times).  Adds slat (if record_slat), clat, lat and
 * the clat bucket, as fio's io_completed() does.
 */
void fio_result_add_io(struct fio_result *r, enum fio_ddir ddir,
		       uint64_t bytes, uint64_t start_ns, uint64_t issue_ns,
		       uint64_t complete_ns);
void fio_result_add_sync(struct fio_result *r, uint64_t lat_ns);
/* fio_result_add_failed_io() - an I/O that failed: counted in "issued
 * rwts" (fio's total_io_u at the queueing), no bytes, no latency. */
void fio_result_add_failed_io(struct fio_result *r, enum fio_ddir ddir);

/*
 * fio_result_add_sync_kind() - one sync I/O of fio's: its latency in
 * the sync block (all kinds), its count where fio 3.33 puts it: an
 * fsync in the fourth "issued rwts" total and sync.total_ios, an
 * fdatasync in read's short_ios, a sync_file_range in write's (fio
 * indexes total_io_u[] past its end; docs/fio.md "Output").
 * fio_result_add_sync() is the fsync kind.
 */
enum fio_sync_kind {
	FIO_SYNC_KIND_FSYNC,
	FIO_SYNC_KIND_FDATASYNC,
	FIO_SYNC_KIND_SYNC_FILE_RANGE,
};
void fio_result_add_sync_kind(struct fio_result *r, enum fio_sync_kind kind,
			      uint64_t lat_ns);

/*
 * fio_result_sample() - one bw/iops sample per direction with I/O since
 * the last one, over @spent_ms (fio's __add_samples(); the runner calls
 * it every bw_avg_time = 500 ms of virtual time).
 */
void fio_result_sample(struct fio_result *r, uint64_t spent_ms);

/*
 * fio_result_sample_bw(), fio_result_sample_iops() - the bw (KiB/s) or
 * the iops half of it (fio samples them on their own clocks,
 * bw_avg_time and iops_avg_time), each rate into @rate[ddir].
 * Return: a bit per direction sampled.
 */
unsigned int fio_result_sample_bw(struct fio_result *r, uint64_t spent_ms,
				  uint64_t *rate);
unsigned int fio_result_sample_iops(struct fio_result *r, uint64_t spent_ms,
				    uint64_t *rate);

/* fio_result_merge() - fio's sum_thread_stats(): @src into @dst. */
void fio_result_merge(struct fio_result *dst, const struct fio_result *src);

/*
 * fio_group_compute() - the "Run status group" figures of group
 * @groupid over @n results (fio's __show_run_stats()).
 */
void fio_group_compute(const struct fio_result *const *results, size_t n,
		       uint32_t groupid, struct fio_group_result *g);

/* ------------------------------------------------------------------ */
/* Output                                                              */

/*
 * Virtual time: the outputs carry no wall-clock time.  Dates print as
 * the epoch of the virtual clock ("Thu Jan  1 00:00:00 1970"), JSON
 * "timestamp" and "timestamp_ms" as 0.
 */
#define FIO_VIRTUAL_DATE	"Thu Jan  1 00:00:00 1970"
#define FIO_VERSION_STRING	"wpsim-fio (fio-3.33 output format)"

/*
 * fio_print_header() - what fio prints before the run in normal
 * output: one line per job section ("...", for clones), the version,
 * "Starting N processes".
 */
void fio_print_header(FILE *out, const struct fio_config *cfg);

/*
 * fio_print_normal() - fio 3.33's normal output for @n results (one per
 * job, or per group with group_reporting), then "Run status group"
 * lines.  Disk stats are omitted (docs/fio.md).
 */
void fio_print_normal(FILE *out, const struct fio_config *cfg,
		      const struct fio_result *const *results, size_t n);

/*
 * fio_print_json() - fio 3.33's JSON output; @plus adds the histogram
 * "bins" (json+).
 */
void fio_print_json(FILE *out, const struct fio_config *cfg,
		    const struct fio_result *const *results, size_t n,
		    bool plus);

/*
 * fio_num2str() - fio's num2str(): @num scaled to at most @maxlen
 * digits with a unit prefix (SI, or IEC if @pow2) and @unit ("B",
 * "B/s", "").  fio's rounding kept: docs/fio.md.
 */
void fio_num2str(char *buf, size_t len, uint64_t num, int maxlen,
		 bool pow2, const char *unit);

/*
 * The offsets of a sequential job (tools/fio/offsets.c), as fio 3.x
 * computes them: start = offset + jobnum x offset_increment, rw=write:N
 * holes, zonemode=strided (zonesize, zonerange, zoneskip), the wrap of
 * time_based and io_size > size, the end of the file.  @io_size is
 * fio's per-file f->io_size (size / nrfiles), @real_file_size the
 * file's size as the job sees it.  fio_seq_offsets_next() gives the next
 * offset for a block of @bs bytes, or returns 1 at the end.
 */
struct fio_seq_offsets {
	uint64_t start;			/* get_start_offset() */
	uint64_t file_offset;		/* fio's f->file_offset: the zone */
	uint64_t last_pos;		/* fio's f->last_pos */
	uint64_t io_size, real_file_size;
	uint64_t zone_bytes;		/* fio's td->zone_bytes */
	uint64_t zone_size, zone_range, zone_skip;	/* 0: no zones */
	int64_t seq_add;		/* rw=write:N; < 0 backwards */
	bool wrap_time_based, wrap_io_size;
	uint32_t time_wraps;		/* time_based wraps so far: fio 3.33's
					 * loop_cache_invalidate follows each */
};

void fio_seq_offsets_init(struct fio_seq_offsets *s, const struct fio_job *j,
			  uint64_t io_size, uint64_t real_file_size);
int fio_seq_offsets_next(struct fio_seq_offsets *s, uint64_t bs,
			 uint64_t *offset);
/* The I/O at @offset that fio_seq_offsets_next gave for @bs is @len
 * bytes (a size drawn after the offset: bsrange, bssplit). */
void fio_seq_offsets_resize(struct fio_seq_offsets *s, uint64_t offset,
			    uint64_t bs, uint64_t len);

#endif /* WPSIM_TOOLS_FIO_H */
