// SPDX-License-Identifier: MIT
/*
 * tools/wpsim/fio.c - `wpsim fio`: run fio jobs against the model in
 * virtual time.
 *
 * The fio front end (tools/fio/) parses the command line and job files;
 * this runner turns the jobs into one execution of the model under the
 * timed strategy: a world with the jobs' files (m_world_setup), the
 * timed device of --device (m_blkdev_attach_timed: blk-mq and the NVMe
 * model), one task per job (numjobs expanded) that issues its I/O with
 * fio's semantics and timestamps each I/O with sim_now(), a flusher task
 * when a job writes buffered, and fio's output from the results
 * (fio_print_normal / fio_print_json).  docs/fio.md, section "wpsim fio",
 * lists what each option does here; docs/timed-mode.md the device side.
 *
 * What it models of fio 3.33: rw patterns (seq, rand with fio's random
 * map, mixed with rwmixread), bs, size, io_size (looping over the file
 * when larger), number_ios, offset, offset_increment, zonemode=strided
 * with zonesize, zonerange and zoneskip, rw=write:N, stonewall (a job
 * and those after it start when every job before it has ended), and
 * sequential offsets exactly as fio computes them (tools/fio/offsets.c),
 * nrfiles (round
 * robin), fsync, fdatasync, sync_file_range, end_fsync, sync=dsync|sync
 * (O_DSYNC / O_SYNC), direct, ioengine psync, sync, pvsync2 (one call
 * per I/O), io_uring (buffered writes, iodepth slots) and libaio
 * (buffered writes: io_submit runs the write, a write-through one
 * completes later; O_DIRECT writes on ext4: io_submit returns with the
 * bios in flight, a kworker completes them; iodepth slots, reaped when
 * full), uncached
 * (RWF_DONTCACHE), writethrough (seed 000's RWF_WRITETHROUGH),
 * file_append (the file laid out to size, each job from its end), nowait,
 * runtime, time_based, ramp_time, startdelay, randseed, group_reporting,
 * overwrite and fallocate (how the file is laid out), write_iolog
 * (fio's v3 lines, virtual µs) and read_iolog (replay.c: the job's I/O
 * is the iolog's, with replay_no_stall and replay_time_scale).  fio's
 * slat, clat
 * and lat definitions (stat.c): for sync engines clat only.
 *
 * Issue 29 added: name= in job files, filesize (and a size from an
 * earlier job's file), loops (fio's clear_io_state between loops),
 * rw=read:-N (backwards), offset=0%, randrepeat=0 (mixed with --seed),
 * invalidate=0 and create_on_open=1 where the model has their meaning,
 * the engines null, pvsync, vsync and posixaio through a table of
 * syscall rows (sync_engines), syncs issued and counted as fio 3.33 does
 * (get_rw_ddir: before the next I/O), libaio reads when the model has
 * km_aio_read (WPSIM_MODEL_AIO_READ), and verify (tools/fio/verify.c:
 * the last write id of each block, read back and compared).
 *
 * Issue 29, second part: direct=1 on XFS and O_DIRECT reads (the
 * model's xfs_file_dio_write and iomap_dio_rw), bs up to 16 MiB (with
 * direct=1 the block layer splits the bio at the queue's limits:
 * model/block/blk-merge.c), fio's statistics logs
 * (tools/fio/logs.c) with the bw/iops samples on their own clocks, and
 * rw=trim named as not modelled (fio 3.33's ioctl(BLKDISCARD)).
 *
 * Leaves out (each an error that names it, exit 2): io_uring reads,
 * libaio reads in a model without km_aio_read, ioengine=mmap,
 * filename=/dev/..., io_uring O_DIRECT, hipri, zonemode=strided with random I/O,
 * rw=randX:N, read_iolog with more than one job, files beyond
 * M_FILE_PAGES_LIMIT pages or M_FILES_MAX files.  The model's pages
 * per file (m_file_pages_max) are raised to fit the largest file and
 * the folios of all of them; --mem SIZE limits the page cache
 * (model/mm/vmscan.c).  fio's tausworthe generator is not reproduced:
 * offsets come from splitmix64 seeded by randseed and the job number.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/fs/ext4.h"
#include "model/fs/xfs.h"
#include "model/hw/nvme.h"
#include "model/io_uring/rw.h"
#include "model/linux/fs.h"
#include "model/linux/syscalls.h"
#include "model/linux/writeback.h"
#include "model/world.h"
#include "sim/arena.h"
#include "sim/clock.h"
#include "sim/engine.h"
#include "sim/strategy.h"
#include "tools/fio/fio.h"
#include "tools/fio/logs.h"
#include "tools/fio/verify.h"
#include "tools/profiles.h"
#include "tools/wpsim/replay.h"
#include "wpsim/trace.h"
#include "tools/wpsim/scenario.h"
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
/* Writeback: vm.dirty_writeback_centisecs and dirty_expire_centisecs. */
/* fio's bw_avg_time and iops_avg_time: a sample every 500 ms. */
#define SAMPLE_NS		(500ull * 1000000ull)
/* Progress on stderr every this many I/Os (all jobs). */
#define PROGRESS_IOS		(1ull << 20)

struct job_run {
	const struct fio_job *job;
	struct fio_result *result;
	unsigned int index;		/* in the run, for data ids */
	unsigned int nfiles;
	unsigned int world_file[FIO_FILES_MAX];
	struct km_file *files[FIO_FILES_MAX];
	uint64_t rng, rng_start;		/* rng_start: a loop's seed */
	uint64_t region_start, region_bytes, budget_bytes, blocks;
	uint8_t *randmap;		/* [blocks]: used in this pass */
	uint64_t randmap_used;
	struct fio_seq_offsets seq;	/* sequential offsets, fio's */
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
	char verify_msg[FIO_MESSAGE_MAX];
	unsigned int cur_file;		/* ioengine=null: the file's index */
	/* fio's engine_pos (LAST_POS): where the last I/O of each file
	 * ended; UINT64_MAX before the first. */
	uint64_t engine_pos[FIO_FILES_MAX];
	uint64_t ios, bytes_done;
	uint64_t stats_start_ns, end_ns, cpu_start_ns, cpu_ns;
	/* fio's bw_avg_time and iops_avg_time clocks (0: the stats are
	 * per I/O, a per-unit write_bw_log/write_iops_log) */
	uint64_t bw_avg_ns, iops_avg_ns;
	uint64_t next_bw_ns, last_bw_ns, next_iops_ns, last_iops_ns;
	struct fio_log logs[FIO_LOGF_COUNT];	/* write_X_log */
	bool ramped;
	int error;
	uint64_t first_start_ns, last_done_ns;	/* counted I/O, the span */
};

struct fio_run {
	struct fio_config *cfg;
	struct km_bdi_writeback wb_stats;	/* at the last job's end */
	uint64_t reclaimed_pages;		/* the same (--mem) */
	uint64_t uring_delayed;		/* uring=v1: writes held */
	struct hw_nvme_profile profile;
	struct m_world_config world;
	/* The world's files (world.file_table): up to M_FILES_LONG_MAX. */
	struct m_file_config files[M_FILES_LONG_MAX];
	char *layout[M_FILES_LONG_MAX];	/* malloc'd: a state per block */
	char *file_names[M_FILES_LONG_MAX];	/* malloc'd */
	unsigned int nr_files;
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
	uint64_t file_end[M_FILES_LONG_MAX];	/* farthest byte written */
	/* Files laid out by a syscall before the jobs start (its row of
	 * layout_syscalls, -1: none) to layout_size bytes. */
	int layout_row[M_FILES_LONG_MAX];
	loff_t layout_size[M_FILES_LONG_MAX];
};

static struct fio_run R;

/* ---- errors --------------------------------------------------------- */

static int run_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "wpsim fio: error: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return EXIT_USAGE;
}

static int job_error(const struct fio_job *j, const char *what)
{
	fprintf(stderr, "wpsim fio: error: job '%s': %s\n", j->name, what);
	return EXIT_USAGE;
}

/* ---- randomness ----------------------------------------------------- */

static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* ---- checking the jobs against what the model has --------------------- */

static bool is_write(enum fio_rw rw)
{
	return rw == FIO_RW_WRITE || rw == FIO_RW_RANDWRITE;
}

static bool is_read(enum fio_rw rw)
{
	return rw == FIO_RW_READ || rw == FIO_RW_RANDREAD;
}

static bool is_random(enum fio_rw rw)
{
	return rw == FIO_RW_RANDREAD || rw == FIO_RW_RANDWRITE ||
	       rw == FIO_RW_RANDRW;
}

static int find_or_add_file(const char *name, uint64_t end,
			    unsigned int *index)
{
	for (unsigned int f = 0; f < R.nr_files; f++) {
		if (strcmp(R.file_names[f], name) == 0) {
			if ((loff_t)end > R.files[f].size)
				R.files[f].size = (loff_t)end;
			*index = f;
			return 0;
		}
	}
	/* The world takes up to M_FILES_LONG_MAX files, but each inode
	 * registers a check of its own (its i_rwsem, SIM_CHECKS_MAX in
	 * all) and its page-cache tables are sized to the largest file:
	 * until those follow the files, fio keeps to M_FILES_MAX. */
	if (R.nr_files == M_FILES_MAX) {
		fprintf(stderr, "wpsim fio: error: more than %d files (the "
			"model's M_FILES_MAX, include/model/linux/types.h); "
			"jobs can share one with --filename\n", M_FILES_MAX);
		return -1;
	}
	free(R.file_names[R.nr_files]);
	R.file_names[R.nr_files] = strdup(name);
	if (!R.file_names[R.nr_files]) {
		fprintf(stderr, "wpsim fio: error: out of memory\n");
		return -1;
	}
	R.files[R.nr_files].size = (loff_t)end;
	*index = R.nr_files++;
	return 0;
}

/*
 * fio's size when the job gives none (filesetup.c setup_files): the
 * files' sizes added up, a file another job of the run made (in job
 * order) counting with its size.  Return: true, with *@bytes, when every
 * file of @j is known.
 */
static bool size_from_files(const struct fio_job *j, uint64_t *bytes)
{
	uint64_t total = 0;

	for (uint32_t f = 0; f < fio_job_file_count(j); f++) {
		char name[FIO_PATH_LEN_MAX + 1];
		bool found = false;

		if (fio_job_file_name(j, f, name, sizeof(name)))
			return false;
		for (unsigned int k = 0; k < R.nr_files && !found; k++)
			if (!strcmp(R.file_names[k], name)) {
				total += (uint64_t)R.files[k].size;
				found = true;
			}
		if (!found)
			return false;
	}
	if (bytes)
		*bytes = total;
	return total > 0;
}

/* The job's size: size=, else filesize x files, else its files'. */
static uint64_t job_size(const struct fio_job *j)
{
	uint64_t bytes = 0;

	if (j->size.set)
		return j->size.bytes;
	if (j->filesize)
		return j->filesize * fio_job_file_count(j);
	size_from_files(j, &bytes);
	return bytes;
}

static int sync_engine_row(enum fio_engine engine);

/* The largest bs of the job's directions: a read's buffer. */
static uint64_t job_bs_max(const struct fio_job *j)
{
	uint64_t bs = 0;

	for (unsigned int d = 0; d < FIO_DDIR_COUNT; d++)
		if (j->bs[d] > bs)
			bs = j->bs[d];
	return bs;
}

static int check_job(const struct fio_job *j)
{
	/* ioengine=null (fio's engines/null.c): no file is opened and no
	 * syscall issued, each I/O completes as it is queued; what is left
	 * is fio's own work, which the model charges nothing. */
	if (j->ioengine == FIO_ENGINE_NULL) {
		/* Options that change the offsets are checked for null
		 * too: its write_iolog and log_offset logs show them. */
		if (j->random_generator != FIO_RANDGEN_TAUSWORTHE)
			return job_error(j, "random_generator: wpsim draws "
					 "offsets from splitmix64 (docs/fio.md); "
					 "only the default may be named");
		if (j->rw_seq_nr > 1 || (j->rw_seq_add && is_random(j->rw)))
			return job_error(j, "rw=rand...:N is not modelled");
		if (j->time_based)
			return job_error(j, "ioengine=null with time_based: "
					 "fio's own work costs no virtual time "
					 "in the model, so runtime never "
					 "passes");
		return 0;
	}
	if (j->verify[0] && j->do_verify) {
		if (!is_write(j->rw))
			return job_error(j, "verify on a job that reads: the "
					 "model checks what a write job wrote "
					 "(verify on rw=write or randwrite)");
		if (sync_engine_row(j->ioengine) < 0)
			return job_error(j, "verify reads back through a sync "
					 "engine's row (psync, sync, pvsync, "
					 "pvsync2, vsync, posixaio); with "
					 "libaio or io_uring it is not modelled");
		if (j->bs[FIO_DDIR_WRITE] % 512 ||
		    j->bs[FIO_DDIR_WRITE] > FIO_RUN_BS_MAX)
			return job_error(j, "verify needs bs a multiple of "
					 "512");
	}
	if (j->ioengine == FIO_ENGINE_MMAP)
		return job_error(j, "ioengine=mmap is not modelled by wpsim "
				 "fio (its memcpy into a mapping would be the "
				 "model's page faults)");
	if ((j->ioengine == FIO_ENGINE_POSIXAIO ||
	     j->ioengine == FIO_ENGINE_VSYNC) && j->iodepth > 1)
		return job_error(j, j->ioengine == FIO_ENGINE_VSYNC ?
				 "ioengine=vsync with iodepth > 1 merges "
				 "I/Os into one writev: not modelled" :
				 "ioengine=posixaio with iodepth > 1: glibc's "
				 "helper threads are not modelled");
	for (uint32_t f = 0; f < fio_job_file_count(j); f++) {
		char name[FIO_PATH_LEN_MAX + 1];

		if (fio_job_file_name(j, f, name, sizeof(name)))
			return job_error(j, "file name too long");
		/* fio opens a /dev/ path as the block device; the model has
		 * no raw block device target, and a regular file in its
		 * place would run another path silently. */
		if (!strncmp(name, "/dev/", 5)) {
			char what[FIO_PATH_LEN_MAX + 160];

			snprintf(what, sizeof(what), "filename=%s is a block "
				 "device: the model has no raw block device "
				 "target (give a regular file's name)", name);
			return job_error(j, what);
		}
	}
	/* invalidate=0: fio leaves the pages it laid out cached; the
	 * model's files start with nothing cached. */
	if (!j->invalidate && (j->overwrite || !is_write(j->rw)))
		return job_error(j, "invalidate=0 with a file fio lays out "
				 "first (a read job, or overwrite=1): its "
				 "pages would stay cached, and the model's "
				 "files start with none cached");
	if (j->create_on_open && !is_write(j->rw))
		return job_error(j, "create_on_open=1 is modelled for write "
				 "jobs (the file starts empty); a read job "
				 "needs the file laid out first");
	if (j->create_on_open && (j->overwrite || j->file_append))
		return job_error(j, "create_on_open=1 with overwrite or "
				 "file_append: fio lays nothing out first");

#ifndef WPSIM_MODEL_AIO_READ
	/* The model's io_submit has no IOCB_CMD_PREAD yet (it comes with
	 * km_aio_read, model/fs/aio.c; meson.build detects it). */
	if (j->ioengine == FIO_ENGINE_LIBAIO && !is_write(j->rw))
		return job_error(j, "ioengine=libaio reads: the model's "
				 "io_submit has no IOCB_CMD_PREAD "
				 "(km_aio_read) in this build");
#endif
	if (j->ioengine == FIO_ENGINE_LIBAIO &&
	    j->iodepth > FIO_RUN_IODEPTH_MAX)
		return job_error(j, "iodepth above 256 is not modelled for "
				 "libaio");
	if (j->writethrough && (j->direct || !is_write(j->rw)))
		return job_error(j, "writethrough is modelled for buffered "
				 "writes only");
	if (j->hipri)
		return job_error(j, "hipri (polled completions) is not "
				 "modelled");
	if (j->uncached && j->ioengine != FIO_ENGINE_PVSYNC2 &&
	    j->ioengine != FIO_ENGINE_IO_URING)
		return job_error(j, "uncached (RWF_DONTCACHE) needs pvsync2 or "
				 "io_uring (the engines that pass RWF flags)");
	if (j->uncached && (j->direct || !is_write(j->rw)))
		return job_error(j, "uncached is modelled for buffered writes "
				 "only");
	if (j->file_append && (!is_write(j->rw) || is_random(j->rw) ||
			       fio_job_file_count(j) > 1))
		return job_error(j, "file_append is modelled for sequential "
				 "writes to one file");
	if (j->zonemode != FIO_ZONEMODE_NONE && (is_random(j->rw) ||
						  j->rw == FIO_RW_RW))
		return job_error(j, "zonemode=strided with random or mixed "
				 "I/O is not modelled (sequential only)");
	if (j->zonemode != FIO_ZONEMODE_NONE && fio_job_file_count(j) > 1)
		return job_error(j, "zonemode=strided with several files "
				 "(fio turns zones off then; give one file)");
	if (j->rw_seq_nr > 1 || (j->rw_seq_add && is_random(j->rw)))
		return job_error(j, "rw=rand...:N is not modelled");
	if (j->random_generator != FIO_RANDGEN_TAUSWORTHE)
		return job_error(j, "random_generator: wpsim draws offsets "
				 "from splitmix64 (docs/fio.md); only the "
				 "default may be named");

	if (j->size.percent || j->io_size.percent || j->offset.percent ||
	    j->offset_increment.percent)
		return job_error(j, "a size given as N% needs an existing "
				 "file; give bytes");
	if (j->direct && (j->bs[FIO_DDIR_WRITE] % 512 ||
			  j->bs[FIO_DDIR_READ] % 512))
		return job_error(j, "bs for direct=1 must be a multiple of "
				 "512 (the sector)");
	if (j->bs[FIO_DDIR_WRITE] > FIO_RUN_BS_MAX ||
	    j->bs[FIO_DDIR_READ] > FIO_RUN_BS_MAX)
		return job_error(j, "bs above 16 MiB is not modelled");
	if (!j->direct && !(j->rw == FIO_RW_WRITE &&
			    j->bs[FIO_DDIR_WRITE] <= 12 * PAGE_SIZE) &&
	    (j->bs[FIO_DDIR_READ] % PAGE_SIZE ||
	     j->bs[FIO_DDIR_WRITE] % PAGE_SIZE))
		return job_error(j, "bs must be a multiple of 4 KiB for "
				 "buffered I/O, or up to 48 KiB for "
				 "sequential writes");
	if (j->direct && is_random(j->rw) && (j->bs[FIO_DDIR_WRITE] &
					      (j->bs[FIO_DDIR_WRITE] - 1)))
		return job_error(j, "random direct=1 I/O needs a power-of-two "
				 "bs in the model");
	if (j->direct) {
		/* O_DIRECT reads and writes on XFS and ext4: the model's
		 * xfs_file_dio_write/ext4_dio_write_iter and
		 * iomap_dio_rw reads. */
		if (j->ioengine == FIO_ENGINE_IO_URING)
			return job_error(j, "ioengine=io_uring with direct=1 "
					 "is not modelled (the model's "
					 "io_uring path is XFS buffered)");
		if (R.ext4 && (j->sync != FIO_SYNC_NONE || j->fsync_blocks ||
		    j->fdatasync_blocks || j->sfr_flags || j->end_fsync))
			return job_error(j, "fsync, fdatasync, sync= and "
					 "sync_file_range on ext4 are not "
					 "modelled (no journal)");
		if (R.ext4 && j->fallocate == FIO_FALLOCATE_TRUNCATE)
			return job_error(j, "fallocate=truncate on ext4 is not "
					 "supported by wpsim fio (the "
					 "model's ext4_setattr is reached "
					 "from scenarios only)");
	} else {
		if (R.ext4)
			return job_error(j, "buffered I/O on ext4 is not "
					 "modelled (the model's buffered path "
					 "is XFS/iomap): use direct=1 or "
					 "--fs=xfs");
		R.buffered = true;
	}
	if (j->ioengine == FIO_ENGINE_IO_URING && !is_write(j->rw))
		return job_error(j, "ioengine=io_uring reads are not modelled "
				 "(the model's io_uring path writes)");
	if (j->ioengine == FIO_ENGINE_IO_URING &&
	    j->iodepth > FIO_RUN_IODEPTH_MAX)
		return job_error(j, "iodepth above 256 is not modelled for "
				 "io_uring");
	if (j->nowait && j->ioengine != FIO_ENGINE_PVSYNC2 &&
	    j->ioengine != FIO_ENGINE_IO_URING)
		return job_error(j, "nowait needs pvsync2 or io_uring");
	return 0;
}

/*
 * fio's file layouts that are syscalls (filesetup.c fallocate_file, fio
 * 3.33), one row each: fallocate=truncate extends the file with
 * ftruncate(2) to its size (holes).  They run in fio's own task before
 * the first job starts (fio lays files out before its job threads run).
 * The other modes are the world's initial layout: unwritten extents for
 * native, posix and keep (their fallocate is not issued), holes for
 * none.  docs/HACKING.md "Add a syscall".
 */
static const struct {
	enum fio_fallocate mode;
	enum m_sys nr;
} layout_syscalls[] = {
	{ FIO_FALLOCATE_TRUNCATE, M_SYS_FTRUNCATE },
};

static int layout_row_of(enum fio_fallocate mode)
{
	for (unsigned int i = 0; i < sizeof(layout_syscalls) /
	     sizeof(layout_syscalls[0]); i++)
		if (layout_syscalls[i].mode == mode)
			return (int)i;
	return -1;
}

/* Each job's region, budget and files (the world's, by name). */
static int plan_job_files(void)
{
	for (unsigned int i = 0; i < R.njobs; i++) {
		struct job_run *jr = &R.jobs[i];
		const struct fio_job *j = jr->job;
		uint64_t bs = j->bs[is_read(j->rw) ? FIO_DDIR_READ :
				    FIO_DDIR_WRITE];
		uint64_t start = j->offset.bytes + (uint64_t)j->jobnum *
						   j->offset_increment.bytes;
		uint32_t n = fio_job_file_count(j);
		uint64_t size = job_size(j);
		uint64_t per_file = size / n;

		/* Checked here: a file an earlier job made gives a size. */
		if (!j->size.set && !j->filesize && !size)
			return job_error(j, "size is required (fio takes it "
					 "from an existing file: none of the "
					 "job's files is an earlier job's, and "
					 "filesize is not given)");
		if (size < bs)
			return job_error(j, "size is smaller than bs");

		if (n > FIO_FILES_MAX)
			n = FIO_FILES_MAX;
		jr->nfiles = n;
		/* fio's start offset is not aligned (offset=N% aside,
		 * which is refused); random blocks are. */
		jr->region_start = is_random(j->rw) ?
				   start & ~(uint64_t)(bs - 1) : start;
		/* file_append: fio lays the file out to size and starts each
		 * job at its end (get_start_offset: real_file_size). */
		if (j->file_append)
			jr->region_start = per_file;
		jr->region_bytes = is_random(j->rw) ? per_file / bs * bs :
						      per_file;
		if (!jr->region_bytes)
			return job_error(j, "size per file is smaller than bs");
		jr->blocks = jr->region_bytes / bs;
		jr->budget_bytes = j->io_size.set ? j->io_size.bytes : size;
		jr->verify = j->verify[0] && j->do_verify;
		if (jr->verify) {
			uint64_t most = (uint64_t)n * (jr->region_bytes / bs +
						       2);
			uint64_t writes = jr->budget_bytes / bs + 1;

			if (!j->time_based && !j->io_size.set) {
				writes = (size / bs + 1) * j->loops;
				if (writes < most)
					most = writes;
			}
			if (fio_verify_map_init(&jr->vmap, most))
				return job_error(j, "verify: out of memory");
		}
		for (uint32_t f = 0; f < n; f++) {
			char name[FIO_PATH_LEN_MAX + 1];
			uint64_t end = jr->region_start + jr->region_bytes;

			if (end % 512)
				end += 512 - end % 512;

			if (fio_job_file_name(j, f, name, sizeof(name)))
				return job_error(j, "file name too long");
			if (j->ioengine == FIO_ENGINE_NULL)
				continue;	/* fio opens no file */
			if (end > (uint64_t)M_FILE_PAGES_LIMIT * PAGE_SIZE) {
				fprintf(stderr, "wpsim fio: error: job '%s': "
					"file '%s' would be %" PRIu64 " bytes; "
					"the model holds at most %lu pages per "
					"file (M_FILE_PAGES_LIMIT, %lu MiB, "
					"include/model/linux/types.h); io_size "
					"larger than size loops over the "
					"file\n", j->name, name, end,
					M_FILE_PAGES_LIMIT,
					(unsigned long)(M_FILE_PAGES_LIMIT *
							PAGE_SIZE >> 20));
				return EXIT_USAGE;
			}
			/* filesize=: fio makes each file that large. */
			if (j->filesize > end && !j->file_append)
				end = j->filesize;
			if (find_or_add_file(name, j->file_append ?
					     jr->region_start : end,
					     &jr->world_file[f]))
				return EXIT_USAGE;
			if (end > R.file_end[jr->world_file[f]])
				R.file_end[jr->world_file[f]] = end;
		}
	}
	return 0;
}

/*
 * Pages per file: the largest file's, and half of all pages, so that
 * the folio bound (2 per page) holds every page of every file (no folio
 * is reclaimed).
 */
static int plan_pages(void)
{
	uint64_t pages = 0, largest = M_FILE_PAGES_DEFAULT;

	for (unsigned int f = 0; f < R.nr_files; f++) {
		/* file_append jobs write past the laid-out size. */
		uint64_t bytes = (uint64_t)R.files[f].size >
				 R.file_end[f] ?
				 (uint64_t)R.files[f].size :
				 R.file_end[f];
		uint64_t p = (bytes + PAGE_SIZE - 1) >> PAGE_SHIFT;

		pages += p;
		if (p > largest)
			largest = p;
	}
	if ((pages + 1) / 2 > largest)
		largest = (pages + 1) / 2;
	if (largest > M_FILE_PAGES_LIMIT) {
		fprintf(stderr, "wpsim fio: error: the files hold "
			"%" PRIu64 " pages; the model holds at most "
			"%lu folios (2 x M_FILE_PAGES_LIMIT, "
			"include/model/linux/types.h) and reclaims "
			"none\n", pages, 2 * M_FILE_PAGES_LIMIT);
		return EXIT_USAGE;
	}
	m_file_pages_max = (unsigned long)largest;
	return 0;
}

/*
 * create_on_open=1 (fio's filesetup.c): fio lays nothing out, the job's
 * open(2) creates the file empty.  True when every job of file @f says
 * so.
 */
static bool create_on_open_all(unsigned int f)
{
	bool any = false;

	for (unsigned int i = 0; i < R.njobs; i++)
		for (unsigned int k = 0; k < R.jobs[i].nfiles; k++) {
			if (R.jobs[i].world_file[k] != f)
				continue;
			if (!R.jobs[i].job->create_on_open)
				return false;
			any = true;
		}
	return any;
}

/* Each file's layout (fio's fallocate=, overwrite=) in the world. */
static int plan_layout(void)
{
	/* Layout: fio creates a missing file with fallocate (unwritten
	 * extents) unless fallocate=none or truncate (holes), and writes it
	 * out first with overwrite=1 or for a read job (written); a layout
	 * that is a syscall of layout_syscalls runs as one. */
	for (unsigned int f = 0; f < R.nr_files; f++) {
		char state = M_EXT_UNWRITTEN;
		size_t blocks = (size_t)(R.files[f].size >> PAGE_SHIFT);
		int row = -1;

		for (unsigned int i = 0; i < R.njobs; i++) {
			const struct fio_job *j = R.jobs[i].job;

			for (unsigned int k = 0; k < R.jobs[i].nfiles; k++) {
				if (R.jobs[i].world_file[k] != f)
					continue;
				if (j->overwrite || !is_write(j->rw))
					state = M_EXT_WRITTEN;
				else if (j->create_on_open)
					state = state == M_EXT_WRITTEN ?
						state : M_EXT_HOLE;
				else if (state != M_EXT_WRITTEN &&
					 (j->fallocate == FIO_FALLOCATE_NONE ||
					  j->fallocate ==
					  FIO_FALLOCATE_TRUNCATE))
					state = M_EXT_HOLE;
				if (row < 0)
					row = layout_row_of(j->fallocate);
			}
		}
		R.layout_row[f] = state == M_EXT_HOLE ? row : -1;
		free(R.layout[f]);
		R.layout[f] = malloc(blocks + 1);
		if (!R.layout[f]) {
			fprintf(stderr, "wpsim fio: error: out of memory\n");
			return EXIT_USAGE;
		}
		memset(R.layout[f], state, blocks);
		R.layout[f][blocks] = '\0';
		R.files[f].layout = R.layout[f];
		R.files[f].blkbits = 12;
		R.files[f].cached_first = 0;
		R.files[f].cached_last = -1;
		R.files[f].dirty_first = 0;
		R.files[f].dirty_last = -1;
		R.files[f].mapped_first = 0;
		R.files[f].mapped_last = -1;
		R.files[f].dropbehind_first = 0;
		R.files[f].dropbehind_last = -1;
		R.files[f].nosec = true;
		R.files[f].fs = R.ext4 ? M_FS_EXT4 : M_FS_XFS;
		/* Laid out by its syscall: empty until then. */
		R.layout_size[f] = R.files[f].size;
		if (R.layout_row[f] >= 0 || (state == M_EXT_HOLE &&
					     create_on_open_all(f)))
			R.files[f].size = 0;
	}
	return 0;
}

/* The files of every job, their sizes and layouts; the bounds. */
static int plan_files(void)
{
	int rc = plan_job_files();

	if (!rc)
		rc = plan_pages();
	if (!rc)
		rc = plan_layout();
	R.world.nr_files = R.nr_files;
	R.world.file_table = R.files;
	return rc;
}

/* ---- one job ---------------------------------------------------------- */

/* The next offset; false when a sequential job is at its end. */
static bool next_offset(struct job_run *jr, uint64_t bs, uint64_t *pos)
{
	uint64_t block;

	if (!is_random(jr->job->rw))
		return fio_seq_offsets_next(&jr->seq, bs, pos) == 0;
	block = splitmix64(&jr->rng) % jr->blocks;
	if (!jr->job->norandommap) {
		/* fio's random map: each block once per pass; a block
		 * already used gives the next free one after it. */
		if (jr->randmap_used == jr->blocks) {
			memset(jr->randmap, 0, jr->blocks);
			jr->randmap_used = 0;
		}
		while (jr->randmap[block])
			block = (block + 1) % jr->blocks;
		jr->randmap[block] = 1;
		jr->randmap_used++;
	}
	*pos = jr->region_start + block * bs;
	return true;
}

/* Virtual ms since the job's epoch (fio's mtime_since_now(&td->epoch)). */
static uint64_t job_elapsed_ms(const struct job_run *jr, uint64_t now)
{
	return (now - jr->stats_start_ns) / 1000000;
}

/*
 * fio's calc_log_samples() for one job, up to @now: a bw and an iops
 * sample on their own clocks (__add_samples), into the write_bw_log and
 * write_iops_log windows when they are averaged (bs logged when the job
 * has one bs for the direction, offset 0).
 */
static void job_samples(struct job_run *jr, uint64_t now)
{
	struct fio_result *r = jr->result;
	uint64_t rate[FIO_DDIR_COUNT];
	unsigned int mask;

	while (jr->bw_avg_ns && now >= jr->next_bw_ns) {
		mask = fio_result_sample_bw(r, (jr->next_bw_ns -
						jr->last_bw_ns) / 1000000, rate);
		for (unsigned int d = 0; d < FIO_DDIR_COUNT; d++)
			if (mask & (1u << d))
				fio_log_add(&jr->logs[FIO_LOGF_BW],
					    job_elapsed_ms(jr, jr->next_bw_ns),
					    rate[d], (enum fio_ddir)d,
					    jr->job->bs[d], 0);
		jr->last_bw_ns = jr->next_bw_ns;
		jr->next_bw_ns += jr->bw_avg_ns;
	}
	while (jr->iops_avg_ns && now >= jr->next_iops_ns) {
		mask = fio_result_sample_iops(r, (jr->next_iops_ns -
						  jr->last_iops_ns) / 1000000,
					      rate);
		for (unsigned int d = 0; d < FIO_DDIR_COUNT; d++)
			if (mask & (1u << d))
				fio_log_add(&jr->logs[FIO_LOGF_IOPS],
					    job_elapsed_ms(jr,
							   jr->next_iops_ns),
					    rate[d], (enum fio_ddir)d,
					    jr->job->bs[d], 0);
		jr->last_iops_ns = jr->next_iops_ns;
		jr->next_iops_ns += jr->iops_avg_ns;
	}
}

/*
 * The statistics logs of one completed I/O (fio's account_io_completion:
 * add_lat_sample, add_clat_sample, add_slat_sample at issue for async
 * engines, and per I/O the bw sample bytes x 10^6 / clat_ns and the iops
 * sample 1 when those logs are not averaged).
 */
static void log_io(struct job_run *jr, enum fio_ddir d, uint64_t bytes,
		   uint64_t offset, uint64_t start, uint64_t issue,
		   uint64_t done)
{
	struct fio_result *r = jr->result;
	uint64_t ms = job_elapsed_ms(jr, done);

	if (r->record_slat)
		fio_log_add(&jr->logs[FIO_LOGF_SLAT],
			    job_elapsed_ms(jr, issue), issue - start, d,
			    bytes, offset);
	fio_log_add(&jr->logs[FIO_LOGF_LAT], ms, done - start, d, bytes,
		    offset);
	fio_log_add(&jr->logs[FIO_LOGF_CLAT], ms, done - issue, d, bytes,
		    offset);
	if (jr->logs[FIO_LOGF_BW].on && !jr->bw_avg_ns) {
		uint64_t rate = done > issue ? bytes * 1000000ull /
					       (done - issue) : 0;

		fio_stat_add(&r->ddir[d].bw, rate);
		r->ddir[d].sampled_bytes = r->ddir[d].io_bytes;
		fio_log_add(&jr->logs[FIO_LOGF_BW], ms, rate, d, bytes,
			    offset);
	}
	if (jr->logs[FIO_LOGF_IOPS].on && !jr->iops_avg_ns) {
		fio_stat_add(&r->ddir[d].iops, 1);
		r->ddir[d].sampled_ios = r->ddir[d].total_ios;
		fio_log_add(&jr->logs[FIO_LOGF_IOPS], ms, 1, d, bytes, offset);
	}
}

static void record_io(struct job_run *jr, enum fio_ddir d, uint64_t bytes,
		      uint64_t offset, uint64_t start, uint64_t issue,
		      uint64_t done)
{
	struct fio_result *r = jr->result;

	if (!jr->ramped)
		return;
	if (!r->total_submit || start < jr->first_start_ns)
		jr->first_start_ns = start;
	if (done > jr->last_done_ns)
		jr->last_done_ns = done;
	fio_result_add_io(r, d, bytes, start, issue, done);
	r->total_submit++;
	r->total_complete++;
	log_io(jr, d, bytes, offset, start, issue, done);
	job_samples(jr, done);
}

static void progress(void)
{
	if (++R.ios_total < R.progress_next)
		return;
	R.progress_next += PROGRESS_IOS;
	if (R.progress)
		fprintf(stderr, "wpsim fio: %" PRIu64 " I/Os, virtual %.3f s\n",
			R.ios_total, (double)sim_now() / 1e9);
}

static unsigned int rwf_of(const struct fio_job *j)
{
	unsigned int rwf = 0;

	if (j->nowait)
		rwf |= RWF_NOWAIT;
	if (j->uncached)
		rwf |= RWF_DONTCACHE;
	if (j->writethrough)
		rwf |= RWF_WRITETHROUGH;
	return rwf;
}

/* write_iolog: one line of the job's log (tools/trace/iolog.c keeps
 * them). */
static void iolog_note(struct job_run *jr, struct km_file *file,
		       const char *action, bool io, uint64_t off, uint64_t len)
{
	unsigned int f = 0;

	if (!jr->job->write_iolog[0])
		return;
	if (jr->job->ioengine == FIO_ENGINE_NULL) {
		/* No world file: fio still logs its name. */
		char name[FIO_PATH_LEN_MAX + 1];

		if (fio_job_file_name(jr->job, jr->cur_file, name,
				      sizeof(name)))
			name[0] = '\0';
		trace_iolog_writer_note(jr->index, sim_now(), name, action,
					io, off, len);
		return;
	}
	while (f + 1 < jr->nfiles && jr->files[f] != file)
		f++;
	trace_iolog_writer_note(jr->index, sim_now(),
			 R.file_names[jr->world_file[f]], action, io, off,
			 len);
}

/*
 * A sync I/O of fio's (do_io_u_sync, fio 3.33): fsync(2), fdatasync(2),
 * or sync_file_range(2) of the range written since the last one.  The
 * write_iolog line carries the stale offset of the I/O before it, as
 * fio's reused io_u does.  @count: a sync of fsync=/fdatasync=/
 * sync_file_range= (end_fsync is not counted by fio 3.33).
 */
static int job_sync(struct job_run *jr, struct km_file *file,
		    enum fio_sync_kind kind, bool count)
{
	static const char *const action[] = {
		[FIO_SYNC_KIND_FSYNC] = "sync",
		[FIO_SYNC_KIND_FDATASYNC] = "datasync",
		[FIO_SYNC_KIND_SYNC_FILE_RANGE] = "sync_file_range",
	};
	uint64_t t0 = sim_now();
	int ret;

	iolog_note(jr, file, action[kind], true, jr->last_offset, 0);
	if (jr->job->ioengine == FIO_ENGINE_NULL)
		ret = 0;	/* null.c completes a sync as queued */
	else switch (kind) {
	case FIO_SYNC_KIND_FSYNC:
		ret = (int)m_syscall(M_SYS_FSYNC,
				     &(struct m_sys_args){ .file = file });
		break;
	case FIO_SYNC_KIND_FDATASYNC:
		ret = (int)m_syscall(M_SYS_FDATASYNC,
				     &(struct m_sys_args){ .file = file });
		break;
	default:
		ret = (int)m_syscall(M_SYS_SYNC_FILE_RANGE,
				     &(struct m_sys_args){
					.file = file,
					.pos = (loff_t)jr->sfr_first,
					.len = (size_t)(jr->sfr_last -
							jr->sfr_first),
					.flags = jr->job->sfr_flags });
		jr->sfr_first = UINT64_MAX;
		jr->sfr_last = 0;
		break;
	}
	if (jr->ramped && count)
		fio_result_add_sync_kind(jr->result, kind, sim_now() - t0);
	jr->last_was_write = false;
	return ret < 0 ? ret : 0;
}

/*
 * fio's get_rw_ddir() (io_u.c, fio 3.33), before each I/O: when the last
 * I/O issued was a write and the writes issued so far are a multiple of
 * fsync=, else fdatasync=, else sync_file_range='s N, the next I/O is
 * that sync.  So a job that ends on such a write issues none after it.
 * Return: the kind + 1, or 0.
 */
static int sync_due(const struct job_run *jr)
{
	const struct fio_job *j = jr->job;
	uint64_t w = jr->writes_issued;

	if (!jr->last_was_write || !w)
		return 0;
	if (j->fsync_blocks && w % j->fsync_blocks == 0)
		return FIO_SYNC_KIND_FSYNC + 1;
	if (j->fdatasync_blocks && w % j->fdatasync_blocks == 0)
		return FIO_SYNC_KIND_FDATASYNC + 1;
	if (j->sfr_flags && w % j->sfr_nr == 0)
		return FIO_SYNC_KIND_SYNC_FILE_RANGE + 1;
	return 0;
}

/* A write was issued: what the syncs after it need. */
static void note_write(struct job_run *jr, uint64_t pos, uint64_t bs)
{
	jr->writes_issued++;
	jr->last_was_write = true;
	if (pos < jr->sfr_first)
		jr->sfr_first = pos;
	if (pos + bs > jr->sfr_last)
		jr->sfr_last = pos + bs;
}

/*
 * The synchronous engines (fio's engines/sync.c, posixaio.c; fio 3.33)
 * and the syscall each issues per I/O, one row each: the model's
 * syscall table (model/fs/syscalls.c) takes it to the file's f_op.
 * @seeks: an lseek(2) first when the offset is not where the last I/O
 * of the file ended (fio_syncio_prep: always before the first).
 * @rwf: the job's RWF_* flags are passed.  Divergences: read(2)/
 * write(2) go through the pread64/pwrite64 rows, readv/writev/preadv/
 * pwritev through preadv2/pwritev2 with flags 0 (the kernel's
 * ksys_read/ksys_pread64 and do_readv/do_preadv reach the same
 * vfs_read/vfs_iter_read with the position given); posixaio's glibc
 * helper thread is the job's own task (iodepth 1 only).
 */
static const struct {
	enum fio_engine engine;
	enum m_sys read, write;
	bool seeks, rwf;
} sync_engines[] = {
	{ FIO_ENGINE_PSYNC, M_SYS_PREAD64, M_SYS_PWRITE64, false, false },
	{ FIO_ENGINE_SYNC, M_SYS_PREAD64, M_SYS_PWRITE64, true, false },
	{ FIO_ENGINE_PVSYNC, M_SYS_PREADV2, M_SYS_PWRITEV2, false, false },
	{ FIO_ENGINE_PVSYNC2, M_SYS_PREADV2, M_SYS_PWRITEV2, false, true },
	{ FIO_ENGINE_VSYNC, M_SYS_PREADV2, M_SYS_PWRITEV2, true, false },
	{ FIO_ENGINE_POSIXAIO, M_SYS_PREAD64, M_SYS_PWRITE64, false, false },
};

static int sync_engine_row(enum fio_engine engine)
{
	for (unsigned int i = 0; i < sizeof(sync_engines) /
	     sizeof(sync_engines[0]); i++)
		if (sync_engines[i].engine == engine)
			return (int)i;
	return -1;
}

/* One synchronous call, through the engine's row of sync_engines. */
static long sync_io(struct job_run *jr, struct km_file *file, bool read,
		    uint64_t pos, uint64_t bs, uint32_t data_id)
{
	const struct fio_job *j = jr->job;
	int row = sync_engine_row(j->ioengine);
	struct m_sys_args a = { .file = file, .pos = (loff_t)pos, .len = bs,
				.data_id = data_id, .out = jr->read_buf };
	unsigned int f = 0;

	SIM_ASSERT_MSG(row >= 0, "fio: engine %s has no sync row",
		       fio_engine_name(j->ioengine));
	while (f + 1 < jr->nfiles && jr->files[f] != file)
		f++;
	if (sync_engines[row].seeks && jr->engine_pos[f] != pos)
		m_syscall(M_SYS_LSEEK, &a);
	jr->engine_pos[f] = pos + bs;
	if (sync_engines[row].rwf)
		a.flags = rwf_of(j);
	return m_syscall(read ? sync_engines[row].read :
			 sync_engines[row].write, &a);
}

/* Reap io_uring slot @s: its CQE, its latencies. */
static int uring_reap(struct job_run *jr, unsigned int s, uint64_t bs)
{
	struct m_io_uring_req *req = &jr->reqs[s];
	long ret = m_io_uring_wait(req);

	if (req->delayed)
		R.uring_delayed++;
	sim_object_retire(req->cqe.done.id);
	sim_object_retire(req->cqe.waiters.id);
	jr->req_busy[s] = false;
	jr->req_inflight--;
	if (ret != (long)bs)
		return ret < 0 ? (int)ret : -KM_EIO;
	record_io(jr, FIO_DDIR_WRITE, bs, jr->req_pos[s], jr->req_start_ns[s],
		  jr->req_issue_ns[s], sim_now());
	return 0;
}

/* io_getevents(2)'s entry; the caller then reaps (aio_reap). */
static void io_getevents_enter(void)
{
	m_syscall(M_SYS_IO_GETEVENTS, &(struct m_sys_args){ 0 });
}

/*
 * Reap libaio slot @s (io_getevents; the caller issues the syscall): a
 * buffered write completed inside io_submit, a write-through one when
 * its bios have (seed 000 6/11, ki_complete).
 */
static int aio_reap(struct job_run *jr, unsigned int s, uint64_t bs)
{
	struct m_aio_req *req = &jr->aio[s];
	long ret;

	/* A queued request's event leaves the ring with it. */
	if (req->queued) {
		if (jr->ring_credit)
			jr->ring_credit--;
		else
			sim_completion_wait(&jr->ring);
	}
	ret = m_aio_wait(req);

	sim_object_retire(req->done.done.id);
	sim_object_retire(req->done.waiters.id);
	jr->req_busy[s] = false;
	jr->req_inflight--;
	(void)bs;
	bs = jr->req_bs[s];
	if (ret != (long)bs)
		return ret < 0 ? (int)ret : -KM_EIO;
	record_io(jr, jr->req_read[s] ? FIO_DDIR_READ : FIO_DDIR_WRITE, bs,
		  jr->req_pos[s],
		  jr->req_start_ns[s], jr->req_issue_ns[s], sim_now());
	return 0;
}

static bool aio_done(struct job_run *jr, unsigned int s)
{
	return !jr->aio[s].queued || sim_word_read(&jr->aio[s].done.done);
}

/*
 * io_getevents(min_nr = 1) with every slot in flight (the caller charges
 * the syscall): sleep until any event is in the ring, then reap every
 * completed slot, oldest first.  Returns the first error.
 */
static int aio_getevents(struct job_run *jr, uint64_t bs)
{
	unsigned int iodepth = jr->job->iodepth;
	bool any = false;
	int err = 0;

	for (unsigned int k = 0; k < iodepth && !any; k++)
		any = jr->req_busy[k] && aio_done(jr, k);
	if (!any) {
		sim_completion_wait(&jr->ring);
		jr->ring_credit++;
	}
	for (unsigned int k = 0; k < iodepth && !err; k++) {
		unsigned int o = (jr->req_head + k) % iodepth;

		if (jr->req_busy[o] && aio_done(jr, o))
			err = aio_reap(jr, o, bs);
	}
	return err;
}

static bool job_more(struct job_run *jr, uint64_t start_ns,
		     uint64_t end_ns)
{
	const struct fio_job *j = jr->job;

	if (jr->error || wpsim_stop_signal())	/* signals.h: a stop */
		return false;
	if (j->number_ios && jr->ios >= j->number_ios)
		return false;
	if (end_ns && sim_now() >= end_ns)
		return false;
	if (!j->time_based && jr->bytes_done >= jr->budget_bytes)
		return false;
	(void)start_ns;
	return true;
}

static void job_ramp_check(struct job_run *jr, uint64_t ramp_end)
{
	if (jr->ramped || sim_now() < ramp_end)
		return;
	jr->ramped = true;
	jr->stats_start_ns = sim_now();
	jr->cpu_start_ns = sim_task_cpu_ns(sim_task_current());
	jr->last_bw_ns = jr->last_iops_ns = jr->stats_start_ns;
	jr->next_bw_ns = jr->stats_start_ns + jr->bw_avg_ns;
	jr->next_iops_ns = jr->stats_start_ns + jr->iops_avg_ns;
}

static void job_task(void *arg);

/* Start the jobs of @wave: fio's stonewall, the jobs before have ended. */
static void spawn_wave(unsigned int wave)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < R.njobs; i++)
		n += R.jobs[i].wave == wave;
	sim_word_write(R.wave_alive, n);
	for (unsigned int i = 0; i < R.njobs; i++)
		if (R.jobs[i].wave == wave)
			sim_task_spawn("fio", job_task, &R.jobs[i]);
}

/* io_uring: submit one write in the next slot, reaping it first if busy;
 * then reap what has completed, oldest first.  Return: the first error. */
static int job_uring_issue(struct job_run *jr, struct km_file *file,
			   uint64_t pos, uint64_t bs, uint32_t data_id)
{
	const struct fio_job *j = jr->job;
	unsigned int s = jr->req_head;
	int err = 0;

	if (jr->req_busy[s]) {
		err = uring_reap(jr, s, bs);
		if (err)
			return err;
	}
	jr->req_start_ns[s] = sim_now();
	jr->req_pos[s] = pos;
	iolog_note(jr, file, "write", true, pos, bs);
	m_io_uring_req_init(&jr->reqs[s], file, (loff_t)pos, bs, rwf_of(j),
			    data_id);
	m_io_uring_submit(&jr->reqs[s]);
	jr->req_issue_ns[s] = sim_now();
	jr->req_busy[s] = true;
	jr->req_inflight++;
	jr->req_head = (s + 1) % j->iodepth;
	for (unsigned int k = 0; k < j->iodepth && !err; k++) {
		unsigned int o = (jr->req_head + k) % j->iodepth;

		if (jr->req_busy[o] && jr->reqs[o].cqes)
			err = uring_reap(jr, o, bs);
	}
	return err;
}

/* libaio: the next free slot from the head; iodepth if none. */
static unsigned int aio_free_slot(const struct job_run *jr)
{
	unsigned int iodepth = jr->job->iodepth;
	unsigned int s = jr->req_head;

	for (unsigned int k = 1; k < iodepth && jr->req_busy[s]; k++)
		s = (jr->req_head + k) % iodepth;
	return s;
}

/*
 * libaio: io_submit of one write in a free slot (every slot in flight:
 * io_getevents first, waiting for any event, min_nr 1); fio reaps when
 * the queue is full, whatever has completed, oldest first.  Return: the
 * first error.
 */
static int job_aio_issue(struct job_run *jr, struct km_file *file,
			 bool read, uint64_t pos, uint64_t bs,
			 uint32_t data_id)
{
	const struct fio_job *j = jr->job;
	unsigned int s = aio_free_slot(jr);
	bool reaped = false;
	int err = 0;

	if (jr->req_busy[s]) {
		io_getevents_enter();
		err = aio_getevents(jr, bs);
		if (err)
			return err;
		s = aio_free_slot(jr);
	}
	SIM_ASSERT_MSG(!jr->req_busy[s], "libaio: no free slot after "
		       "io_getevents");
	jr->req_start_ns[s] = sim_now();
	jr->req_bs[s] = bs;
	jr->req_pos[s] = pos;
	jr->req_read[s] = read;
	iolog_note(jr, file, read ? "read" : "write", true, pos, bs);
	/* The model's io_submit takes IOCB_CMD_PREAD when the iocb has a
	 * destination (.out), IOCB_CMD_PWRITE else. */
	m_syscall(M_SYS_IO_SUBMIT, &(struct m_sys_args){
		.file = file, .pos = (loff_t)pos, .len = bs,
		.flags = rwf_of(j), .data_id = read ? 0 : data_id,
		.out = read ? jr->req_buf + (size_t)s * jr->req_buf_sectors :
			      NULL,
		.aio = &jr->aio[s] });
	jr->req_issue_ns[s] = sim_now();
	jr->req_busy[s] = true;
	jr->req_inflight++;
	jr->req_head = (s + 1) % j->iodepth;
	if (jr->req_inflight < j->iodepth)
		return 0;
	for (unsigned int k = 0; k < j->iodepth && !err; k++) {
		unsigned int o = (jr->req_head + k) % j->iodepth;

		if (!jr->req_busy[o] || !aio_done(jr, o))
			continue;
		if (!reaped)
			io_getevents_enter();
		reaped = true;
		err = aio_reap(jr, o, bs);
	}
	return err;
}

/* A synchronous call, its latency, and the syncs after a write. */
static int job_sync_io(struct job_run *jr, struct km_file *file, bool read,
		       uint64_t pos, uint64_t bs, uint32_t data_id)
{
	uint64_t t0 = sim_now();
	long ret;

	iolog_note(jr, file, read ? "read" : "write", true, pos, bs);
	ret = sync_io(jr, file, read, pos, bs, data_id);
	if (ret != (long)bs)
		return ret < 0 ? (int)-ret : KM_EIO;
	record_io(jr, read ? FIO_DDIR_READ : FIO_DDIR_WRITE, bs, pos, t0, t0,
		  sim_now());
	return 0;
}

/* The job's end: reap what is in flight, end_fsync, close. */
static void job_drain(struct job_run *jr)
{
	const struct fio_job *j = jr->job;

	for (unsigned int s = 0; j->ioengine == FIO_ENGINE_LIBAIO &&
	     s < j->iodepth; s++) {
		unsigned int o = (jr->req_head + s) % j->iodepth;
		int err;

		if (!jr->req_busy[o])
			continue;
		io_getevents_enter();
		err = aio_reap(jr, o, j->bs[FIO_DDIR_WRITE]);
		if (err && !jr->error)
			jr->error = err < 0 ? -err : err;
	}
	for (unsigned int s = 0; j->ioengine == FIO_ENGINE_IO_URING &&
	     s < j->iodepth; s++) {
		unsigned int o = (jr->req_head + s) % j->iodepth;
		int err;

		if (!jr->req_busy[o])
			continue;
		err = uring_reap(jr, o, j->bs[FIO_DDIR_WRITE]);
		if (err && !jr->error)
			jr->error = err < 0 ? -err : err;
	}
	if (j->end_fsync && !jr->error)
		for (unsigned int f = 0; f < jr->nfiles; f++)
			job_sync(jr, jr->files[f], FIO_SYNC_KIND_FSYNC, false);
	for (unsigned int f = 0; f < jr->nfiles; f++)
		iolog_note(jr, jr->files[f], "close", false, 0, 0);
	if (jr->error < 0)
		jr->error = -jr->error;
}

/* The job's results once it has ended; the next wave, the last job's. */
static void job_finish(struct job_run *jr)
{
	jr->end_ns = sim_now();
	if (!jr->ramped) {
		jr->stats_start_ns = jr->end_ns;
		jr->cpu_start_ns = sim_task_cpu_ns(sim_task_current());
	}
	jr->cpu_ns = sim_task_cpu_ns(sim_task_current()) - jr->cpu_start_ns;
	/* fio's finalize_logs() at the job's exit. */
	for (unsigned int l = 0; l < FIO_LOGF_COUNT; l++)
		fio_log_finalize(&jr->logs[l], job_elapsed_ms(jr, jr->end_ns));
	if (sim_word_add(R.wave_alive, -1) == 0 && jr->wave + 1 < R.waves)
		spawn_wave(jr->wave + 1);
	if (sim_word_add(R.jobs_alive, -1) == 0) {
		R.wb_stats = m_world()->wb;
		R.reclaimed_pages = m_world()->reclaimed_pages;
		m_blkdev_timed_stats(&R.dev_stats);
		R.dev_reads = sim_word_peek(&m_world()->dev.reads);
	}
}

static void job_loop_reset(struct job_run *jr);

/* One pass of the job's workload (one of loops=N). */
static void job_one_loop(struct job_run *jr, uint64_t start_ns,
			 uint64_t ramp_end, uint64_t end_ns,
			 uint32_t *data_seqp)
{
	const struct fio_job *j = jr->job;
	uint32_t data_seq = *data_seqp;

	while (job_more(jr, start_ns, end_ns)) {
		int due = sync_due(jr);
		bool read;
		uint64_t bs;
		struct km_file *file = jr->files[jr->file_rr % jr->nfiles];

		jr->cur_file = (unsigned int)(jr->file_rr % jr->nfiles);
		uint64_t pos;
		uint32_t data_id;

		/* A sync takes the next file in the round robin, as fio's
		 * get_io_u does. */
		jr->file_rr++;
		if (due) {
			jr->error = job_sync(jr, file, due - 1, true);
			if (jr->error)
				break;
			continue;
		}
		read = is_read(j->rw) ||
		       ((j->rw == FIO_RW_RW || j->rw == FIO_RW_RANDRW) &&
			splitmix64(&jr->rng) % 100 < j->rwmixread);
		bs = j->bs[read ? FIO_DDIR_READ : FIO_DDIR_WRITE];
		data_id = ((uint32_t)(jr->index + 1) << 20) |
			  (++data_seq & 0xfffffu);
		if (!data_id)
			data_id = 1;
		if (!next_offset(jr, bs, &pos))
			break;
		job_ramp_check(jr, ramp_end);
		jr->last_offset = pos;
		if (read)
			jr->last_was_write = false;
		else
			note_write(jr, pos, bs);
		if (!read && jr->verify &&
		    fio_verify_note(&jr->vmap, pos << 6 | jr->cur_file,
				    data_id)) {
			snprintf(jr->verify_msg, sizeof(jr->verify_msg),
				 "wpsim fio: verify: more blocks than planned "
				 "(%" PRIu64 ")", jr->vmap.max);
			jr->error = KM_EIO;
			break;
		}
		jr->ios++;
		jr->bytes_done += bs;
		progress();
		if (j->ioengine == FIO_ENGINE_NULL) {
			iolog_note(jr, file, read ? "read" : "write", true,
				   pos, bs);
			record_io(jr, read ? FIO_DDIR_READ : FIO_DDIR_WRITE,
				  bs, pos, sim_now(), sim_now(), sim_now());
		} else if (j->ioengine == FIO_ENGINE_IO_URING)
			jr->error = job_uring_issue(jr, file, pos, bs, data_id);
		else if (j->ioengine == FIO_ENGINE_LIBAIO)
			jr->error = job_aio_issue(jr, file, read, pos, bs,
						  data_id);
		else
			jr->error = job_sync_io(jr, file, read, pos, bs,
						data_id);
		if (jr->error)
			break;
	}
	*data_seqp = data_seq;
}

/*
 * fio's do_verify() (backend.c, fio 3.33) after the writes: the files
 * closed and opened again, each block written read back with the job's
 * engine, in the order written (fio's list) or by offset (its rbtree,
 * norandommap), counted as reads; the first block that is not the
 * job's last write of it ends the job with EILSEQ, as fio does.
 */
static void job_verify(struct job_run *jr)
{
	const struct fio_job *j = jr->job;
	struct fio_verify_map *m = &jr->vmap;
	uint64_t bs = j->bs[FIO_DDIR_WRITE];

	if (!jr->verify || jr->error || !m->count)
		return;
	if (j->norandommap)
		fio_verify_sort(m);
	for (unsigned int f = 0; f < jr->nfiles; f++)
		iolog_note(jr, jr->files[f], "open", false, 0, 0);
	for (uint64_t i = 0; i < m->count && !jr->error; i++) {
		uint64_t key = m->order[i], off = key >> 6;
		unsigned int f = (unsigned int)(key & 63);
		uint64_t t0 = sim_now();
		uint32_t expected = 0;
		char name[FIO_PATH_LEN_MAX + 1];
		long ret;

		jr->cur_file = f;
		iolog_note(jr, jr->files[f], "read", true, off, bs);
		ret = sync_io(jr, jr->files[f], true, off, bs, 0);
		if (ret != (long)bs) {
			jr->error = ret < 0 ? (int)-ret : KM_EIO;
			break;
		}
		record_io(jr, FIO_DDIR_READ, bs, off, t0, t0, sim_now());
		if (!strcmp(j->verify, "null"))
			continue;
		fio_verify_expected(m, key, &expected);
		snprintf(name, sizeof(name), "%s",
			 R.file_names[jr->world_file[f]]);
		if (fio_verify_check(j->verify, name, off, bs, expected,
				     jr->read_buf, jr->verify_msg,
				     sizeof(jr->verify_msg)))
			jr->error = FIO_VERIFY_ERRNO;
	}
	for (unsigned int f = 0; f < jr->nfiles; f++)
		iolog_note(jr, jr->files[f], "close", false, 0, 0);
}

static void job_task(void *arg)
{
	struct job_run *jr = arg;
	const struct fio_job *j = jr->job;
	uint64_t start_ns, ramp_end, end_ns = 0;
	uint32_t data_seq = 0;

	if (j->startdelay_ns)
		sim_sleep_ns(j->startdelay_ns);
	start_ns = sim_now();
	for (unsigned int f = 0; f < jr->nfiles; f++) {
		iolog_note(jr, jr->files[f], "add", false, 0, 0);
		iolog_note(jr, jr->files[f], "open", false, 0, 0);
	}
	ramp_end = start_ns + j->ramp_time_ns;
	if (j->runtime_ns)
		end_ns = ramp_end + j->runtime_ns;
	job_ramp_check(jr, ramp_end);
	for (uint32_t loop = 0; loop < (j->time_based ? 1 : j->loops) &&
	     !jr->error; loop++) {
		if (loop) {
			job_loop_reset(jr);
			if (!job_more(jr, start_ns, end_ns))
				break;
		}
		job_one_loop(jr, start_ns, ramp_end, end_ns, &data_seq);
	}
	job_drain(jr);
	job_verify(jr);
	job_finish(jr);
}

static bool layout_needed(void)
{
	for (unsigned int f = 0; f < R.nr_files; f++)
		if (R.layout_row[f] >= 0)
			return true;
	return false;
}

/* fio's setup_files: each layout syscall, then the first wave. */
static void layout_task(void *arg)
{
	(void)arg;
	for (unsigned int f = 0; f < R.nr_files; f++) {
		long ret;

		if (R.layout_row[f] < 0)
			continue;
		ret = m_syscall(layout_syscalls[R.layout_row[f]].nr,
				&(struct m_sys_args){
					.file = m_world()->files[f],
					.pos = R.layout_size[f],
					.len = (size_t)R.layout_size[f] });
		if (ret < 0)
			sim_fail(SIM_FAIL_ASSERT, "fio's layout of '%s': %s "
				 "returned %ld", R.file_names[f],
				 m_syscall_name(layout_syscalls[
					 R.layout_row[f]].nr), ret);
	}
	spawn_wave(0);
}

/* Where the job's offsets start: at its start, and each loop. */
static void job_offsets_init(struct job_run *jr)
{
	const struct fio_job *j = jr->job;
	uint64_t fsize = (uint64_t)R.layout_size[jr->world_file[0]];

	/* ioengine=null has no world file: its size is the job's. */
	if (j->file_append || j->ioengine == FIO_ENGINE_NULL)
		fsize = jr->region_start + jr->region_bytes;
	fio_seq_offsets_init(&jr->seq, j, jr->region_bytes, fsize);
	if (j->file_append)
		jr->seq.start = jr->seq.file_offset = jr->seq.last_pos =
			jr->region_start;
}

/*
 * loops=N, the next loop (fio's clear_io_state): the files closed and
 * opened again, offsets from the start, the random map empty, the
 * random sequence from its seed again when randrepeat=1; the writes
 * issued (for fsync=N) keep counting.
 */
static void job_loop_reset(struct job_run *jr)
{
	for (unsigned int f = 0; f < jr->nfiles; f++)
		iolog_note(jr, jr->files[f], "close", false, 0, 0);
	for (unsigned int f = 0; f < jr->nfiles; f++)
		iolog_note(jr, jr->files[f], "open", false, 0, 0);
	job_offsets_init(jr);
	memset(jr->randmap, 0, jr->blocks);
	jr->randmap_used = 0;
	if (jr->job->randrepeat)
		jr->rng = jr->rng_start;
	jr->bytes_done = 0;
	jr->file_rr = 0;
	for (unsigned int f = 0; f < FIO_FILES_MAX; f++)
		jr->engine_pos[f] = UINT64_MAX;
}

static void run_setup(void *unused)
{
	(void)unused;
	timed_run_setup(&R.world, &R.profile, R.cpus, R.seed);
	R.jobs_alive = sim_arena_alloc(sizeof(*R.jobs_alive));
	sim_word_init(R.jobs_alive, R.njobs, "fio.jobs_alive");
	R.ios_total = 0;
	R.progress_next = PROGRESS_IOS;
	trace_iolog_writer_reset(R.njobs);
	for (unsigned int i = 0; i < R.njobs; i++) {
		struct job_run *jr = &R.jobs[i];
		const struct fio_job *j = jr->job;
		struct fio_result *r = jr->result;
		unsigned int flags = 0;

		free(r);
		jr->result = r = fio_result_alloc(j);
		r->pid = i + 1;
		/* randrepeat=0: fio seeds from the clock; here a fresh
		 * sequence from the run's --seed, still reproducible. */
		jr->rng = j->randseed ^ (0x9e3779b97f4a7c15ull *
					 (uint64_t)(j->jobnum + 1));
		if (!j->randrepeat) {
			uint64_t mix = R.seed ^ 0x5deece66dull;

			jr->rng ^= splitmix64(&mix);
		}
		jr->rng_start = jr->rng;
		job_offsets_init(jr);
		jr->randmap = sim_arena_alloc(jr->blocks);
		jr->randmap_used = 0;
		jr->read_buf = sim_arena_alloc(
			(size_t)(job_bs_max(j) + 511) / 512 * sizeof(uint32_t));
		if (j->ioengine == FIO_ENGINE_IO_URING ||
		    j->ioengine == FIO_ENGINE_LIBAIO) {
			if (j->ioengine == FIO_ENGINE_IO_URING)
				jr->reqs = sim_arena_alloc(j->iodepth *
							   sizeof(*jr->reqs));
			else
				jr->aio = sim_arena_alloc(j->iodepth *
							  sizeof(*jr->aio));
			if (jr->aio) {
				sim_completion_init(&jr->ring, "aio.ring");
				for (unsigned int k = 0; k < j->iodepth; k++)
					jr->aio[k].ring = &jr->ring;
			}
			jr->req_start_ns = sim_arena_alloc(j->iodepth *
							   sizeof(uint64_t));
			jr->req_issue_ns = sim_arena_alloc(j->iodepth *
							   sizeof(uint64_t));
			jr->req_busy = sim_arena_alloc(j->iodepth);
			jr->req_bs = sim_arena_alloc(j->iodepth *
						     sizeof(uint64_t));
			jr->req_pos = sim_arena_alloc(j->iodepth *
						      sizeof(uint64_t));
			jr->req_read = sim_arena_alloc(j->iodepth);
			jr->req_buf_sectors = 0;
			jr->req_buf = NULL;
			if (j->ioengine == FIO_ENGINE_LIBAIO &&
			    !is_write(j->rw)) {
				jr->req_buf_sectors = (size_t)(j->bs[
					FIO_DDIR_READ] + 511) / 512;
				jr->req_buf = sim_arena_alloc(j->iodepth *
					jr->req_buf_sectors *
					sizeof(uint32_t));
			}
		}
		jr->req_head = 0;
		jr->req_inflight = 0;
		jr->writes_issued = 0;
		jr->last_was_write = false;
		jr->last_offset = 0;
		jr->sfr_first = UINT64_MAX;
		jr->sfr_last = 0;
		jr->file_rr = 0;
		for (unsigned int f = 0; f < FIO_FILES_MAX; f++)
			jr->engine_pos[f] = UINT64_MAX;
		fio_verify_map_reset(&jr->vmap);
		jr->verify_msg[0] = '\0';
		jr->ios = 0;
		jr->bytes_done = 0;
		jr->ramped = false;
		jr->error = 0;
		/* fio's add_job: a write_bw_log/write_iops_log sets the
		 * sampling clock to log_avg_msec (0: per I/O). */
		fio_log_setup(jr->logs, j, i + 1);
		jr->bw_avg_ns = jr->logs[FIO_LOGF_BW].on ?
				j->log_avg_msec * 1000000ull : SAMPLE_NS;
		jr->iops_avg_ns = jr->logs[FIO_LOGF_IOPS].on ?
				  j->log_avg_msec * 1000000ull : SAMPLE_NS;
		if (j->direct)
			flags |= KM_O_DIRECT;
		if (j->sync == FIO_SYNC_DSYNC)
			flags |= KM_O_DSYNC;
		if (j->sync == FIO_SYNC_SYNC)
			flags |= KM_O_SYNC;
		for (unsigned int f = 0; f < jr->nfiles; f++)
			jr->files[f] = j->ioengine == FIO_ENGINE_NULL ? NULL :
				m_file_open(m_world()->inodes[
					jr->world_file[f]], flags);
	}
	memset(&R.dev_stats, 0, sizeof(R.dev_stats));
	R.wave_alive = sim_arena_alloc(sizeof(*R.wave_alive));
	sim_word_init(R.wave_alive, 0, "fio.wave_alive");
	if (layout_needed())
		sim_task_spawn("fio", layout_task, NULL);
	else
		spawn_wave(0);
	if (R.buffered)
		timed_run_spawn_flusher(R.jobs_alive);
}

static const struct sim_program run_program = {
	.name = "fio",
	.description = "wpsim fio: fio jobs against the model",
	.setup = run_setup,
};

/* ---- results ---------------------------------------------------------- */

static void fill_result(struct job_run *jr)
{
	struct fio_result *r = jr->result;
	uint64_t run_ns = jr->end_ns - jr->stats_start_ns;
	uint64_t ios = r->ddir[FIO_DDIR_READ].total_ios +
		       r->ddir[FIO_DDIR_WRITE].total_ios;

	r->error = jr->error;
	if (jr->error == FIO_VERIFY_ERRNO && jr->verify_msg[0])
		snprintf(r->error_where, sizeof(r->error_where),
			 "file:io_u.c:2152, func=io_u_sync_complete, "
			 "error=%s", strerror(FIO_VERIFY_ERRNO));
	r->total_run_time_ms = run_ns / 1000000;
	for (int d = 0; d < FIO_DDIR_COUNT; d++)
		if (r->ddir[d].total_ios)
			r->ddir[d].runtime_ms = run_ns / 1000000 ?
						run_ns / 1000000 : 1;
	if (!r->total_run_time_ms && ios)
		r->total_run_time_ms = 1;
	/* Every cost the model charges is kernel work: sys. */
	r->usr_time_ms = 0;
	r->sys_time_ms = jr->cpu_ns / 1000000;
	r->elapsed_s = (jr->end_ns + 999999999ull) / 1000000000ull;
	r->latency_depth = jr->job->iodepth;
	/* IO depths: sync engines keep one I/O in flight; io_uring up to
	 * iodepth (the model does not track the distribution: all in the
	 * bucket of iodepth). */
	{
		uint32_t depth = jr->job->ioengine == FIO_ENGINE_IO_URING ||
				 jr->job->ioengine == FIO_ENGINE_LIBAIO ?
				 jr->job->iodepth : 1;
		unsigned int b = 0;

		while (b + 1 < FIO_IODEPTH_BUCKETS && (1u << (b + 1)) <= depth)
			b++;
		r->io_u_map[b] = ios;
		r->io_u_submit[1] = r->total_submit;
		r->io_u_complete[1] = r->total_complete;
	}
}

/*
 * What dirty throttling did, on stderr, if the run went past the
 * background threshold (a run under it prints nothing more than before).
 */
static void print_dirty_report(void)
{
	const struct km_bdi_writeback *wb = &R.wb_stats;
	unsigned long freerun = km_dirty_freerun_ceiling(wb->thresh,
							 wb->bg_thresh);

	if (!wb->thresh || (!wb->nr_bg_starts && !wb->rounds))
		return;
	fprintf(stderr, "wpsim fio: dirty throttling: thresh %lu pages, "
		"bg_thresh %lu, freerun %lu, setpoint %lu; dirty + writeback "
		"at most %" PRIu64 ", mean %" PRIu64 " over %" PRIu64
		" throttled looks; %" PRIu64 " pauses, %" PRIu64 " ms; %"
		PRIu64 " -EAGAIN; background writeback kicked %" PRIu64
		" times, %" PRIu64 " chunks", wb->thresh, wb->bg_thresh,
		freerun, (freerun + wb->thresh) / 2, wb->dirty_max,
		wb->rounds ? wb->rounds_dirty_sum / wb->rounds : 0,
		wb->rounds, wb->nr_pauses, wb->pause_ns / 1000000,
		wb->nr_eagain, wb->nr_bg_starts, wb->bg_passes);
	if (R.world.uring == M_URING_V1)
		fprintf(stderr, "; %" PRIu64 " asynchronous pauses (uring=v1) "
			"holding %" PRIu64 " io_uring writes", wb->nr_deferred,
			R.uring_delayed);
	if (R.reclaimed_pages)
		fprintf(stderr, "; %" PRIu64 " clean pages reclaimed (--mem)",
			R.reclaimed_pages);
	fputc('\n', stderr);
}

/*
 * --group-spans: per reporting group, its I/Os and bytes and the virtual
 * time from the first counted I/O's start to the last one's completion,
 * in ns, on stderr.  fio's own figures are computed over integer ms; a
 * short model run needs the span to the ns.
 */
static void print_group_spans(void)
{
	for (unsigned int i = 0; i < R.njobs;) {
		uint32_t g = R.jobs[i].result->groupid;
		uint64_t first = UINT64_MAX, last = 0, ios = 0, bytes = 0;
		unsigned int k;

		for (k = i; k < R.njobs && R.jobs[k].result->groupid == g;
		     k++) {
			const struct fio_result *r = R.jobs[k].result;

			for (int d = 0; d < FIO_DDIR_COUNT; d++) {
				ios += r->ddir[d].total_ios;
				bytes += r->ddir[d].io_bytes;
			}
			if (!r->total_submit)
				continue;
			if (R.jobs[k].first_start_ns < first)
				first = R.jobs[k].first_start_ns;
			if (R.jobs[k].last_done_ns > last)
				last = R.jobs[k].last_done_ns;
		}
		fprintf(stderr, "wpsim fio: group %u (%s): %" PRIu64 " I/Os, %"
			PRIu64 " bytes, span %" PRIu64 " ns\n", g,
			R.jobs[i].job->name, ios, bytes,
			first == UINT64_MAX ? 0 : last - first);
		i = k;
	}
	fprintf(stderr, "wpsim fio: device page reads %" PRIu64 "\n",
		R.dev_reads);
}

static void print_results(void)
{
	struct fio_result **res = calloc(R.njobs, sizeof(*res));
	size_t n = 0;
	FILE *out = stdout;

	if (R.cfg->output[0]) {
		out = fopen(R.cfg->output, "w");
		if (!out) {
			perror(R.cfg->output);
			out = stdout;
		}
	}
	for (unsigned int i = 0; i < R.njobs; i++) {
		struct job_run *jr = &R.jobs[i];

		fill_result(jr);
		/* A verify failure, on stderr as fio prints it. */
		if (jr->verify_msg[0]) {
			fprintf(stderr, "%s\n", jr->verify_msg);
			if (jr->error == FIO_VERIFY_ERRNO)
				fprintf(stderr, "fio: pid=%u, err=%d/%s\n",
					jr->result->pid, jr->error,
					jr->result->error_where);
		}
		if (jr->job->group_reporting && n &&
		    res[n - 1]->groupid == jr->result->groupid &&
		    R.jobs[i - 1].job->group_reporting) {
			fio_result_merge(res[n - 1], jr->result);
			continue;
		}
		if (jr->job->group_reporting) {
			/* The group's result starts as a copy. */
			struct fio_result *g = fio_result_alloc(jr->job);

			*g = *jr->result;
			res[n++] = g;
		} else {
			res[n++] = jr->result;
		}
	}
	if (R.cfg->output_format & FIO_OUTPUT_NORMAL)
		fio_print_header(out, R.cfg);
	if (R.cfg->output_format & (FIO_OUTPUT_JSON | FIO_OUTPUT_JSON_PLUS))
		fio_print_json(out, R.cfg, (const struct fio_result **)res, n,
			       R.cfg->output_format & FIO_OUTPUT_JSON_PLUS);
	if (R.cfg->output_format & FIO_OUTPUT_NORMAL)
		fio_print_normal(out, R.cfg, (const struct fio_result **)res,
				 n);
	for (size_t k = 0; k < n; k++) {
		bool owned = false;

		for (unsigned int i = 0; i < R.njobs; i++)
			owned |= res[k] == R.jobs[i].result;
		if (!owned)
			free(res[k]);
	}
	free(res);
	if (out != stdout)
		fclose(out);
}

/* ---- the command ------------------------------------------------------ */

/*
 * The dirty limits: domain_dirty_limits of the machine's dirtyable
 * memory, which is --ram (default 16g), or --mem if smaller (the page
 * cache can hold no more), with vm.dirty_ratio / dirty_background_ratio
 * (default 20 / 10) or dirty_bytes / dirty_background_bytes.  As with
 * the sysctls, a ratio and its bytes exclude each other.
 */
static int dirty_limits(const struct fio_config *cfg)
{
	struct km_dirty_throttle_control dtc = { 0 };
	struct km_dirty_sysctl vm = {
		.dirty_ratio = cfg->dirty_ratio ? cfg->dirty_ratio :
			       FIO_RUN_DIRTY_RATIO,
		.dirty_background_ratio = cfg->dirty_background_ratio ?
			cfg->dirty_background_ratio : FIO_RUN_DIRTY_BG_RATIO,
		.dirty_bytes = (unsigned long)cfg->dirty_bytes,
		.dirty_background_bytes =
			(unsigned long)cfg->dirty_background_bytes,
	};
	uint64_t mem = cfg->ram_bytes ? cfg->ram_bytes : FIO_RUN_RAM_DEFAULT;

	if (cfg->dirty_ratio && cfg->dirty_bytes)
		return run_error("%s", "--dirty_ratio and --dirty_bytes: "
				 "expected one of them (vm.dirty_bytes "
				 "replaces vm.dirty_ratio)");
	if (cfg->dirty_background_ratio && cfg->dirty_background_bytes)
		return run_error("%s", "--dirty_background_ratio and "
				 "--dirty_background_bytes: expected one of "
				 "them (the bytes replace the ratio)");
	if (cfg->mem_bytes && cfg->mem_bytes < mem)
		mem = cfg->mem_bytes;
	/* global_dirtyable_memory: + 1, never 0. */
	dtc.avail = (unsigned long)(mem >> PAGE_SHIFT) + 1;
	km_domain_dirty_limits(&dtc, &vm);
	if (!dtc.thresh)
		return run_error("%s", "--ram / --dirty_ratio: expected a "
				 "dirty threshold of at least one page");
	R.world.dirty_thresh_pages = dtc.thresh;
	R.world.dirty_bg_thresh_pages = dtc.bg_thresh;
	return 0;
}

static void fio_usage(FILE *out)
{
	fprintf(out,
"usage: wpsim fio [FIO OPTIONS] [--name=JOB OPTIONS]... [JOBFILE]...\n"
"                 [--device NAME] [--cpu-profile NAME] [--cpus N]\n"
"                 [--fs xfs|ext4] [--mem SIZE] [--ram SIZE]\n"
"                 [--dirty_ratio N | --dirty_bytes SIZE]\n"
"                 [--dirty_background_ratio N |\n"
"                  --dirty_background_bytes SIZE]\n"
"                 [--variant KEY=VALUE]... [--seed N]\n"
"                 [--replayable | --schedule S] [--group-spans] [--speed]\n"
"\n"
"Runs fio jobs against the model in virtual time: one task per job\n"
"(numjobs expanded) on the model's XFS (buffered) or ext4 (direct=1,\n"
"--fs=ext4), over the timed block layer and device of --device\n"
"(profiles/devices/NAME.dev; default " FIO_RUN_DEVICE_DEFAULT "), on\n"
"--cpus simulated CPUs (default %d).  Output is fio 3.33's normal text\n"
"or --output-format=json|json+; the same command prints the same bytes.\n"
"\n"
"  --cpu-profile NAME  what CPU work costs: profiles/cpu/NAME.cpu, or a\n"
"                  path (default: the compiled-in default.cpu)\n"
"  --group-spans   per reporting group, print on stderr its I/Os, bytes\n"
"                  and virtual span (first start to last completion, ns);\n"
"                  then the device's 4 KiB page reads of the run\n"
"  --speed         print on stderr the simulation speed factor (virtual\n"
"                  seconds per host CPU second) and I/Os per host CPU\n"
"                  second; printed anyway when stderr is a terminal\n"
"  --mem SIZE      the page cache's limit (at least 256k): past it an\n"
"                  allocation reclaims clean, unlocked, unmapped folios\n"
"                  not under writeback, oldest first (no limit: none)\n"
"  --ram SIZE      the machine's memory (default 16g): with --mem, the\n"
"                  smaller is the dirtyable memory of the dirty limits\n"
"  --dirty_ratio N, --dirty_background_ratio N\n"
"                  vm.dirty_ratio / dirty_background_ratio, percent of\n"
"                  the dirtyable memory (default 20 / 10; 1..100)\n"
"  --dirty_bytes SIZE, --dirty_background_bytes SIZE\n"
"                  vm.dirty_bytes / dirty_background_bytes, replacing\n"
"                  the ratio (past the limits writers are throttled in\n"
"                  balance_dirty_pages; a summary goes to stderr)\n"
"  --seed N        the timed strategy's tie-break and the device's\n"
"                  jitter seed (default %d)\n"
"  --replayable    a plain timed execution (at most 65536 steps and\n"
"                  4096 objects): prints its schedule and event-log\n"
"                  hash on stderr\n"
"  --schedule S    replay such a schedule (same options), print the\n"
"                  hash; the output is the same as the run's\n"
"\n"
"Modelled job options: rw (rw=read:-N backwards), rwmixread, bs, size,\n"
"filesize, loops, name, io_size, number_ios, numjobs, iodepth (io_uring,\n"
"libaio), ioengine=psync|sync|pvsync|pvsync2|vsync|posixaio|null|\n"
"io_uring|libaio (libaio reads: when the model has them), verify,\n"
"direct (--fs=ext4), sync, fsync, fdatasync, sync_file_range,\n"
"end_fsync, overwrite, fallocate, filename, filename_format, directory,\n"
"nrfiles, offset, offset_increment, zonemode=strided, zonesize,\n"
"zonerange, zoneskip, rw=write:N, stonewall, file_append, uncached,\n"
"writethrough, runtime, time_based, ramp_time, startdelay, nowait,\n"
"randseed, randrepeat, norandommap, invalidate, create_on_open,\n"
"group_reporting, write_iolog, read_iolog (one\n"
"job; replay_no_stall, replay_time_scale).  Any other option, and\n"
"these where the model lacks the path, is an error (exit 2).\n"
"docs/fio.md, section \"wpsim fio\".\n",
		FIO_RUN_CPUS_DEFAULT, FIO_RUN_SEED_DEFAULT);
}

/* --variant KEY=VALUE...: the world's variants (timed-run.c). */
static int apply_variants(void)
{
	const char *kv[FIO_VARIANTS_MAX];

	bool verifies = false;

	for (uint32_t v = 0; v < R.cfg->variant_count; v++)
		kv[v] = R.cfg->variants[v];
	/* break= (a model bug on purpose) is for a check that must catch
	 * it: here fio's verify, so only a run with a verifying job. */
	for (uint32_t i = 0; i < R.cfg->job_count; i++)
		verifies |= R.cfg->jobs[i].verify[0] && R.cfg->jobs[i].do_verify;
	return timed_run_apply_variants(&R.world, kv, R.cfg->variant_count,
					"wpsim fio", verifies);
}

/* wpsim's own options of `wpsim fio`, beside fio's. */
struct run_args {
	const char *schedule, *cpu_profile;
	bool replayable, group_spans, speed, help;
};

/*
 * Take wpsim's options out of @argv into @ra (and R.seed); the rest go
 * to @args for fio's parser.  Return 0, or 2 with the error printed.
 */
static int parse_run_args(int argc, char **argv, struct run_args *ra,
			  char **args, int *nargs)
{
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			ra->help = true;
		} else if (!strcmp(a, "--replayable")) {
			ra->replayable = true;
		} else if (!strcmp(a, "--group-spans")) {
			ra->group_spans = true;
		} else if (!strcmp(a, "--speed")) {
			ra->speed = true;
		} else if (!strncmp(a, "--schedule=", 11)) {
			ra->schedule = a + 11;
		} else if (!strcmp(a, "--schedule") && i + 1 < argc) {
			ra->schedule = argv[++i];
		} else if (!strncmp(a, "--cpu-profile=", 14)) {
			ra->cpu_profile = a + 14;
		} else if (!strcmp(a, "--cpu-profile") && i + 1 < argc) {
			ra->cpu_profile = argv[++i];
		} else if (!strncmp(a, "--seed=", 7) ||
			   (!strcmp(a, "--seed") && i + 1 < argc)) {
			const char *v = a[6] == '=' ? a + 7 : argv[++i];
			char *end;

			R.seed = strtoull(v, &end, 0);
			if (!*v || *end)
				return run_error("--seed: expected an integer, "
						 "found '%s'", v);
		} else {
			args[(*nargs)++] = argv[i];
		}
		if (ra->help)
			return 0;
	}
	return 0;
}

/* The machine: memory, CPUs, file system, device, variants, costs. */
static int machine_options(struct fio_config *cfg, const char *cpu_profile)
{
	int rc;

	if (cfg->mem_bytes && cfg->mem_bytes < 64 * PAGE_SIZE)
		return run_error("%s", "--mem: expected a page-cache limit of "
				 "at least 256k");
	R.cpus = cfg->cpus ? cfg->cpus : FIO_RUN_CPUS_DEFAULT;
	if (R.cpus > SIM_CPUS_MAX)
		return run_error("--cpus: the engine simulates at most 256 "
				 "CPUs, found %s", "more");
	R.ext4 = cfg->fs == FIO_FS_EXT4;
	rc = timed_run_device(cfg->device[0] ? cfg->device : NULL,
			      &R.profile);
	if (!rc)
		rc = apply_variants();
	if (rc)
		return rc;
	/* The page cache's limit: clean folios are reclaimed past it. */
	R.world.mem_pages = (unsigned long)(cfg->mem_bytes >> PAGE_SHIFT);
	rc = dirty_limits(cfg);
	if (!rc)
		rc = timed_run_cpu_profile(cpu_profile, &R.costs);
	return rc;
}

/* The jobs (checked, in stonewall waves) and their files. */
static int plan_jobs(struct fio_config *cfg)
{
	int rc;

	R.njobs = cfg->job_count;
	R.jobs = calloc(R.njobs, sizeof(*R.jobs));
	for (unsigned int i = 0; i < R.njobs; i++) {
		R.jobs[i].job = &cfg->jobs[i];
		R.jobs[i].index = i;
		R.jobs[i].result = fio_result_alloc(&cfg->jobs[i]);
		rc = check_job(&cfg->jobs[i]);
		if (rc)
			return rc;
		/* stonewall: this job and those after it wait for every
		 * job before it (fio's wait_for_previous). */
		if (i && cfg->jobs[i].stonewall && !cfg->jobs[i].jobnum)
			R.waves++;
		R.jobs[i].wave = R.waves;
	}
	R.waves++;
	if (R.njobs + 1 > 1000)
		return run_error("%s", "more than 999 jobs: the engine runs "
				 "1024 tasks, io-wq workers and kworkers "
				 "included");
	return plan_files();
}

/*
 * The one execution: timed (a long run, or --replayable within the
 * replayable bounds) or the replay of --schedule.  Return 0, or 1 (the
 * model failed), 2 (a bad schedule) with the error printed.
 */
static int execute_run(const struct run_args *ra, uint16_t **choices,
		       struct sim_outcome *outcome)
{
	struct sim_exec_options exec = { 0 };
	struct sim_strategy strategy;

	sim_clock_configure(&(struct sim_clock_config){
		.cpus = R.cpus, .costs = R.costs.clock });
	m_cost_configure(&R.costs.model);
	R.progress = isatty(2);
	if (ra->schedule) {
		const char *perr2 = NULL;
		uint32_t count = 0;

		*choices = calloc(SIM_STEPS_LIMIT, sizeof(**choices));
		if (sim_schedule_parse(ra->schedule, *choices, SIM_STEPS_LIMIT,
				       &count, &perr2))
			return run_error("--schedule: %s", perr2 ? perr2 :
					 "bad");
		sim_strategy_replay(&strategy, *choices, count);
		exec.steps_max = SIM_STEPS_LIMIT;
	} else {
		sim_strategy_timed(&strategy, R.seed, 1);
		if (ra->replayable) {
			exec.steps_max = SIM_STEPS_LIMIT;
		} else {
			exec.long_run = true;
			exec.steps_max = SIM_STEPS_LONG_LIMIT;
		}
	}
	R.world.long_run = exec.long_run;
	sim_exec_run(&run_program, &strategy, &exec, outcome);
	sim_strategy_fini(&strategy);
	if (outcome->kind == SIM_OK)
		return 0;
	fprintf(stderr, "wpsim fio: the model failed (%s): %s\n",
		sim_failure_kind_name(outcome->kind), outcome->message);
	if (outcome->kind == SIM_FAIL_BOUND && !exec.long_run)
		fprintf(stderr, "wpsim fio: --replayable runs are bound to "
			"65536 steps and 4096 objects; run without it "
			"(reproduce by --seed)\n");
	return 1;
}

/* fio's output, the iologs, the reports on stderr; 1 if a job failed. */
static int report_run(const struct run_args *ra,
		      const struct sim_outcome *outcome)
{
	int rc = 0;

	print_results();
	for (unsigned int i = 0; i < R.njobs; i++)
		if (R.jobs[i].job->write_iolog[0] &&
		    trace_iolog_writer_write(i, R.jobs[i].job->write_iolog))
			rc = 1;
	/* The statistics logs, in job order (fio's finish_log: a shared
	 * per_job_logs=0 file is appended to). */
	for (unsigned int i = 0; i < R.njobs; i++)
		for (unsigned int l = 0; l < FIO_LOGF_COUNT; l++) {
			const struct fio_log *log = &R.jobs[i].logs[l];
			int err = fio_log_write(log,
						!R.jobs[i].job->per_job_logs);

			if (err) {
				fprintf(stderr, "wpsim fio: %s: %s\n",
					log->path, strerror(-err));
				rc = 1;
			}
		}
	if (ra->group_spans)
		print_group_spans();
	print_dirty_report();
	{
		uint64_t jobs_end = 0;

		for (unsigned int i = 0; i < R.njobs; i++)
			if (R.jobs[i].end_ns > jobs_end)
				jobs_end = R.jobs[i].end_ns;
		timed_run_print_speed("wpsim fio", jobs_end, outcome->end_ns,
				      R.ios_total, "I/Os", ra->speed);
	}
	if (ra->schedule || ra->replayable) {
		char *buf = malloc(1u << 20);

		sim_exec_schedule_format(buf, 1u << 20);
		if (ra->replayable)
			fprintf(stderr, "wpsim fio: schedule %s\n", buf);
		fprintf(stderr, "wpsim fio: %u steps, virtual end %" PRIu64
			" ns, event-log hash %016" PRIx64 "\n", outcome->steps,
			outcome->end_ns, outcome->log_hash);
		free(buf);
	}
	for (unsigned int i = 0; i < R.njobs; i++)
		if (R.jobs[i].error)
			rc = 1;
	return rc;
}

/* read_iolog=FILE: the job's I/O is the iolog's (replay.c). */
static int run_read_iolog(struct fio_config *cfg, const struct run_args *ra,
			  const struct fio_job *j)
{
	if (cfg->job_count > 1 || ra->schedule || ra->replayable || R.ext4)
		return job_error(j, "read_iolog with more than one job, "
				 "--replayable, --schedule or --fs=ext4 is "
				 "not modelled (one iolog, one job, XFS "
				 "buffered)");
	return wpsim_fio_replay_iolog(cfg, j, cfg->device[0] ? cfg->device :
				      FIO_RUN_DEVICE_DEFAULT, R.cpus, R.seed);
}

int wpsim_fio_main(int argc, char **argv)
{
	struct fio_config cfg;
	struct fio_error err = { 0 };
	struct run_args ra = { 0 };
	char **args = calloc((size_t)argc + 2, sizeof(*args));
	int nargs = 0, rc;
	struct sim_outcome outcome;
	uint16_t *choices = NULL;

	memset(&R, 0, sizeof(R));
	R.seed = FIO_RUN_SEED_DEFAULT;
	wpsim_stop_install();
	args[nargs++] = "fio";
	rc = parse_run_args(argc, argv, &ra, args, &nargs);
	if (rc || ra.help) {
		if (ra.help)
			fio_usage(stdout);
		free(args);
		return rc;
	}
	fio_config_init(&cfg);
	if (fio_parse_argv(nargs, args, &cfg, &err)) {
		fprintf(stderr, "%s\n", err.text);
		free(args);
		fio_config_free(&cfg);
		return EXIT_USAGE;
	}
	free(args);
	R.cfg = &cfg;
	if (cfg.showcmd) {
		fio_showcmd(stdout, &cfg);
		goto out;
	}
	if (cfg.parse_only)
		goto out;
	rc = cfg.job_count ? machine_options(&cfg, ra.cpu_profile) :
			     run_error("%s", "no jobs");
	if (rc)
		goto out;
	for (unsigned int i = 0; i < cfg.job_count; i++) {
		if (cfg.jobs[i].read_iolog[0]) {
			rc = run_read_iolog(&cfg, &ra, &cfg.jobs[i]);
			goto out;
		}
	}
	rc = plan_jobs(&cfg);
	if (!rc)
		rc = execute_run(&ra, &choices, &outcome);
	if (!rc)
		rc = report_run(&ra, &outcome);
	if (!rc && wpsim_stop_signal()) {
		fprintf(stderr, "wpsim fio: stopped by %s: the report covers "
			"the I/O issued before it\n", wpsim_stop_signal_name());
		rc = EXIT_INCOMPLETE;
	}
out:
	for (unsigned int i = 0; R.jobs && i < R.njobs; i++)
		free(R.jobs[i].result);
	free(R.jobs);
	free(choices);
	fio_config_free(&cfg);
	return rc;
}
