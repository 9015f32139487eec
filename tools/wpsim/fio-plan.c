// SPDX-License-Identifier: MIT
/*
 * tools/wpsim/fio-plan.c - `wpsim fio`, before the run: each job checked
 * against what the model has (an option the model lacks the path for is
 * an error naming it), the jobs' files by name (fio's filename,
 * filename_format, nrfiles), their regions, sizes (size=, filesize=, or
 * an earlier job's file: fio's setup_files) and layouts (fallocate=,
 * overwrite=, create_on_open=), the model's pages per file, and the task
 * that runs a layout that is a syscall (fallocate=truncate).
 *
 * Leaves out: what tools/wpsim/fio.c's opening lists as errors.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/wpsim/fio-run.h"

int fio_run_job_error(const struct fio_job *j, const char *what)
{
	fprintf(stderr, "wpsim fio: error: job '%s': %s\n", j->name, what);
	return EXIT_USAGE;
}

/*
 * What a file name opens (fio 3.33 filesetup.c get_file_type: a stat of
 * the name, S_ISBLK or S_ISCHR): /dev/null and /dev/zero are the memory
 * devices (model/drivers/char/mem.c), every other /dev/ name the
 * model's one block device (model/block/fops.c; fio-plan.c refuses a
 * second name for it, a tmpfs path under /dev/shm/ and the character
 * devices the model does not have, dev_name_check).
 */
enum fio_run_dev fio_run_dev_of(const char *name)
{
	if (strncmp(name, "/dev/", 5))
		return FIO_DEV_NONE;
	if (!strcmp(name, "/dev/null"))
		return FIO_DEV_NULL;
	if (!strcmp(name, "/dev/zero"))
		return FIO_DEV_ZERO;
	return FIO_DEV_BLOCK;
}

/*
 * A /dev/ name the model does not open as its block device or a memory
 * device: a tmpfs file (/dev/shm/), the character devices of
 * drivers/char/mem.c and drivers/tty/ it does not have, the fd links.
 * Return: 0 or 2 (the error printed).
 */
static int dev_name_check(const struct fio_job *j, const char *name)
{
	static const char *const chr[] = {
		"/dev/full", "/dev/random", "/dev/urandom", "/dev/mem",
		"/dev/kmem", "/dev/port", "/dev/kmsg", "/dev/stdin",
		"/dev/stdout", "/dev/stderr", "/dev/fd/", "/dev/tty",
		"/dev/pts/", "/dev/console", "/dev/ng", "/dev/bsg/",
		"/dev/sg", "/dev/dax", "/dev/mtd", "/dev/char/",
	};
	char what[FIO_PATH_LEN_MAX + 200];

	if (!strncmp(name, "/dev/shm/", 9)) {
		snprintf(what, sizeof(what), "filename=%s is a tmpfs file: "
			 "the model has no tmpfs (give a regular file's name, "
			 "which runs on the model's XFS or ext4)", name);
		return fio_run_job_error(j, what);
	}
	for (size_t i = 0; i < sizeof(chr) / sizeof(chr[0]); i++)
		if (!strncmp(name, chr[i], strlen(chr[i]))) {
			snprintf(what, sizeof(what), "filename=%s is a "
				 "character device the model does not have "
				 "(it has /dev/null and /dev/zero, and every "
				 "other /dev/ name is its block device)", name);
			return fio_run_job_error(j, what);
		}
	return 0;
}

/*
 * The run's files by name: an open-addressing hash of file index + 1
 * (0: empty), at most half full, so that a run of many files (nrfiles,
 * numjobs each with its own) finds each name in constant time.
 */
static unsigned int *name_slots;
static size_t name_slots_cap;

static size_t name_hash(const char *name)
{
	uint64_t h = 1469598103934665603ull;	/* FNV-1a */

	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 1099511628211ull;
	return (size_t)(h ^ (h >> 32));
}

/* Index of the run's file @name, or -1. */
static long file_lookup(const char *name)
{
	size_t s;

	if (!name_slots_cap)
		return -1;
	for (s = name_hash(name) & (name_slots_cap - 1); name_slots[s];
	     s = (s + 1) & (name_slots_cap - 1))
		if (!strcmp(R->file[name_slots[s] - 1].name, name))
			return (long)name_slots[s] - 1;
	return -1;
}

static void name_insert(unsigned int f)
{
	size_t s = name_hash(R->file[f].name) & (name_slots_cap - 1);

	while (name_slots[s])
		s = (s + 1) & (name_slots_cap - 1);
	name_slots[s] = f + 1;
}

/* Room for file R->nr_files: the tables double.  Return: 0 or -1. */
static int files_grow(void)
{
	unsigned int cap = R->files_cap ? 2 * R->files_cap : 16;
	struct m_file_config *fc;
	struct fio_run_file *rf;

	if (R->nr_files < R->files_cap)
		return 0;
	if (cap <= R->files_cap)
		return -1;
	fc = realloc(R->file_config, cap * sizeof(*fc));
	if (fc)
		R->file_config = fc;
	rf = realloc(R->file, cap * sizeof(*rf));
	if (rf)
		R->file = rf;
	if (!fc || !rf)
		return -1;
	memset(fc + R->files_cap, 0, (cap - R->files_cap) * sizeof(*fc));
	memset(rf + R->files_cap, 0, (cap - R->files_cap) * sizeof(*rf));
	R->files_cap = cap;
	free(name_slots);
	name_slots_cap = 2 * (size_t)cap;
	name_slots = calloc(name_slots_cap, sizeof(*name_slots));
	if (!name_slots)
		return -1;
	for (unsigned int f = 0; f < R->nr_files; f++)
		name_insert(f);
	return 0;
}

static int find_or_add_file(const char *name, uint64_t end,
			    unsigned int *index)
{
	long found = file_lookup(name);
	unsigned int f = R->nr_files;

	if (found >= 0) {
		f = (unsigned int)found;
		if ((loff_t)end > R->file_config[f].size)
			R->file_config[f].size = (loff_t)end;
		*index = f;
		return 0;
	}
	if (files_grow() || !(R->file[f].name = strdup(name))) {
		fprintf(stderr, "wpsim fio: error: file '%s': out of memory "
			"for the run's %u files\n", name, R->nr_files + 1);
		return -1;
	}
	R->file_config[f].size = (loff_t)end;
	R->file[f].layout_row = -1;
	R->nr_files++;
	name_insert(f);
	*index = f;
	return 0;
}

void fio_run_files_free(void)
{
	for (unsigned int i = 0; R->jobs && i < R->njobs; i++) {
		free(R->jobs[i].world_file);
		free(R->jobs[i].files);
		free(R->jobs[i].engine_pos);
		free(R->jobs[i].files_done);
		fio_spr_free(R->jobs[i].spr);
		R->jobs[i].spr = NULL;
	}
	for (unsigned int f = 0; f < R->nr_files; f++)
		free(R->file[f].name);
	free(R->file);
	free(R->file_config);
	free(name_slots);
	name_slots = NULL;
	name_slots_cap = 0;
	R->file = NULL;
	R->file_config = NULL;
	R->nr_files = R->files_cap = 0;
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
		long k;

		if (fio_job_file_name(j, f, name, sizeof(name)))
			return false;
		/* A block device's size is its own (fio's BLKGETSIZE64,
		 * filesetup.c bdev_size); a character device has none
		 * (fio 3.33 then says "you need to specify size=",
		 * measured on /dev/null and /dev/zero). */
		if (fio_run_dev_of(name) == FIO_DEV_BLOCK) {
			total += R->dev_bytes;
			continue;
		}
		if (fio_run_dev_of(name) != FIO_DEV_NONE)
			return false;
		k = file_lookup(name);
		if (k < 0)
			return false;
		total += (uint64_t)R->file_config[k].size;
	}
	if (bytes)
		*bytes = total;
	return total > 0;
}

/* Every file of @j is the block device. */
static bool job_on_bdev(const struct fio_job *j)
{
	for (uint32_t f = 0; f < fio_job_file_count(j); f++) {
		char name[FIO_PATH_LEN_MAX + 1];

		if (fio_job_file_name(j, f, name, sizeof(name)) ||
		    fio_run_dev_of(name) != FIO_DEV_BLOCK)
			return false;
	}
	return true;
}

/* Some file of @j is a device (block or character). */
static bool job_on_dev(const struct fio_job *j)
{
	for (uint32_t f = 0; f < fio_job_file_count(j); f++) {
		char name[FIO_PATH_LEN_MAX + 1];

		if (!fio_job_file_name(j, f, name, sizeof(name)) &&
		    fio_run_dev_of(name) != FIO_DEV_NONE)
			return true;
	}
	return false;
}

/*
 * The job's size: size=, else filesize x files, else its files'.  A
 * size= above what filesize= makes the files hold is cut to that (fio
 * 3.33 filesetup.c setup_files: each file's io_size is filesize, and
 * "o->size > total_size" sets size to their total).
 */
static uint64_t job_size(const struct fio_job *j)
{
	uint64_t bytes = 0;

	if (j->size.set) {
		uint64_t held = j->filesize * fio_job_file_count(j);

		if (j->filesize && j->size.bytes > held)
			return held;
		return j->size.bytes;
	}
	/* fill_device without size (fio 3.33 init.c: size = -1ULL, the
	 * job writes until ENOSPC): the filesystem's size rounded up to
	 * bs, and one block more, so that the writes reach ENOSPC
	 * (fio-err.c ends the job there). */
	if (j->fill_device && R->cfg->fs_bytes) {
		uint64_t bs = j->bs[FIO_DDIR_WRITE];

		return (R->cfg->fs_bytes + bs - 1) / bs * bs + bs;
	}
	if (j->filesize)
		return j->filesize * fio_job_file_count(j);
	size_from_files(j, &bytes);
	return bytes;
}

/* bsrange or bssplit gave a direction sizes to draw from. */
static bool bs_range(const struct fio_job *j)
{
	for (unsigned int d = 0; d < FIO_DDIR_COUNT; d++)
		if (j->bs_min[d] && j->bs_min[d] != j->bs_max[d])
			return true;
	return false;
}

/*
 * random_generator: wpsim draws offsets from splitmix64 whichever is
 * named (docs/fio.md), so tausworthe64 would only rename the default.
 * lfsr is modelled by what it guarantees (fio 3.33 filesetup.c
 * init_random_map, io_u.c __get_next_rand_offset): each block once per
 * pass, norandommap or not (fio-run.h fio_run_lfsr); with sizes that
 * vary fio's LFSR may reach a block twice (HOWTO), which is not
 * modelled.  Return: 0 or 2 (the error printed).
 */
static int random_generator_check(const struct fio_job *j)
{
	if (j->random_generator == FIO_RANDGEN_TAUSWORTHE)
		return 0;
	if (j->random_generator == FIO_RANDGEN_LFSR && !bs_range(j))
		return 0;
	return fio_run_job_error(j, j->random_generator ==
				 FIO_RANDGEN_LFSR ?
				 "random_generator=lfsr with bsrange or "
				 "bssplit: fio's LFSR may then reach a block "
				 "twice; not modelled" :
				 "random_generator: wpsim draws offsets from "
				 "splitmix64 (docs/fio.md); tausworthe (the "
				 "default) and lfsr may be named");
}

/*
 * Trims (rw=trim, randtrim, trimwrite, randtrimwrite): fio 3.33 issues
 * them through the engine's trim hook, which for the sync engines,
 * libaio and io_uring is ioctl(BLKDISCARD) on a block device
 * (engines/sync.c do_io_u_trim, os/os-linux.h os_trim; a regular file
 * refuses it with ENOTTY, fio's err=25, measured); ioengine=null
 * completes a trim as it is queued (engines/null.c), which the runner
 * models (fio-job.c trim_next).  Return: 0 or 2 (the error printed).
 */
static int trim_check(const struct fio_job *j)
{
	bool paced = j->thinktime_ns || j->flow_id || j->flow;

	if (!is_trim(j->rw))
		return 0;
	/* The sync engines and libaio trim with ioctl(BLKDISCARD) in the
	 * job's thread (fio 3.33 engines/sync.c, libaio.c: do_io_u_trim
	 * -> os_trim, FIO_Q_COMPLETED); io_uring's and posixaio's queues
	 * are not modelled with them. */
	if (j->ioengine != FIO_ENGINE_NULL && j->ioengine != FIO_ENGINE_LIBAIO &&
	    (fio_run_sync_engine_row(j->ioengine) < 0 ||
	     fio_run_posix_queue(j)))
		return fio_run_job_error(j, "rw=trim, randtrim, trimwrite and "
				 "randtrimwrite run on ioengine=null, the sync "
				 "engines and libaio (fio's ioctl(BLKDISCARD)); "
				 "io_uring's and posixaio's queues with trims "
				 "are not modelled");
	if (j->ioengine != FIO_ENGINE_NULL && j->verify[0])
		return fio_run_job_error(j, "verify with trims is not modelled "
				 "(fio's trim_verify_zero, trim_percentage)");
	for (int d = 0; d < FIO_DDIR_COUNT; d++)
		paced |= j->rate[d] || j->rate_iops[d] || j->rate_min[d] ||
			 j->rate_iops_min[d];
	if (paced)
		return fio_run_job_error(j, "rate, thinktime and flow with "
				 "trims are not modelled");
	if (is_trimwrite(j->rw) && fio_job_file_count(j) > 1)
		return fio_run_job_error(j, "trimwrite and randtrimwrite with "
				 "several files are not modelled (fio keeps "
				 "last_start per file)");
	/* randtrimwrite's random map: fio's axmap has blocks of the
	 * smaller bs while the trims are drawn in trim-bs blocks. */
	if (j->rw == FIO_RW_RANDTRIMWRITE && fio_run_once_per_pass(j) &&
	    j->bs[FIO_DDIR_TRIM] > j->bs[FIO_DDIR_WRITE])
		return fio_run_job_error(j, "randtrimwrite with a trim bs "
				 "above the write bs and the random map is "
				 "not modelled (give norandommap)");
	return 0;
}

/*
 * The iodepth_batch family (fio 3.33 backend.c wait_for_completions,
 * io_u_queued_complete; ioengines.c td_io_queue, td_io_commit).  On the
 * sync engines fio runs one I/O at a time (FIO_SYNCIO): no effect.  On
 * ioengine=null (iodepth > 1) only the submission batch changes what fio
 * does (null.c's getevents returns every committed I/O, so the reap's
 * min, max and low water mark change nothing): modelled
 * (fio-engines.c), where no io_u_quiesce commits a partial batch midway.
 * libaio, io_uring and posixaio submit one I/O per call and reap with
 * min 1 here: a batch is an error naming it.
 */
/*
 * verify on ioengine=null for a job that writes (t/jobs/t0009's
 * combination): what fio 3.33 does there, measured on this machine
 * (2026-12-06), and not modelled yet.
 */
static const char null_verify_why[] =
	"verify with ioengine=null and experimental_verify is not modelled "
	"(fio 3.33's do_verify replays the write phase's offsets and turns "
	"them into reads; fio-nullv.c runs fio's logged pieces)";

static int check_iodepth_batch(const struct fio_job *j)
{
	uint32_t low = !j->iodepth_low || j->iodepth_low > j->iodepth ?
		       j->iodepth : j->iodepth_low;
	bool batch = j->iodepth_batch != 1 && j->iodepth > 1;
	bool reap = j->iodepth_batch_complete_min > 1 ||
		    j->iodepth_batch_complete_max >
		    (j->iodepth_batch_complete_min ?
		     j->iodepth_batch_complete_min : 1) ||
		    low < j->iodepth;

	if (j->iodepth <= 1 || !(batch || reap))
		return 0;
	if (j->ioengine == FIO_ENGINE_LIBAIO ||
	    j->ioengine == FIO_ENGINE_IO_URING ||
	    j->ioengine == FIO_ENGINE_POSIXAIO)
	{
		char what[256];

		snprintf(what, sizeof(what), "iodepth_batch, "
			 "iodepth_batch_complete_min/max and iodepth_low are "
			 "modelled on ioengine=null; with ioengine=%s not (the "
			 "model submits one I/O per call and reaps with min 1)",
			 fio_engine_name(j->ioengine));
		return fio_run_job_error(j, what);
	}
	if (j->ioengine != FIO_ENGINE_NULL || fio_run_null_batch(j) <= 1)
		return 0;
	if (fio_nullv_job(j))
		return 0;	/* fio-nullv.c's checks */
	if (j->fsync_blocks || j->fdatasync_blocks || j->sfr_flags ||
	    j->end_fsync || j->verify[0] || j->thinktime_ns ||
	    j->rate[0] || j->rate[1] || j->rate[2] || j->rate_iops[0] ||
	    j->rate_iops[1] || j->rate_iops[2] || j->rate_min[0] ||
	    j->rate_min[1] || j->rate_min[2] || j->rate_iops_min[0] ||
	    j->rate_iops_min[1] || j->rate_iops_min[2] || j->flow ||
	    j->latency_target_ns || j->ramp_time_ns || j->loops > 1 ||
	    j->logs || j->read_iolog[0] ||
	    j->io_submit_mode != FIO_SUBMIT_INLINE)
		return fio_run_job_error(j, "iodepth_batch on ioengine=null "
				 "is modelled without syncs, verify, "
				 "thinktime, rate, flow, latency_target, "
				 "ramp_time, loops, statistics logs, "
				 "read_iolog and io_submit_mode=offload (fio's "
				 "io_u_quiesce commits a partial batch there)");
	return 0;
}

/*
 * The job's devices (fio-job.c opens them: model/block/fops.c,
 * model/drivers/char/mem.c).  On the block device: O_DIRECT only until
 * the bdev's page cache is modelled, and the engines whose O_DIRECT path
 * the model has (sync rows, libaio; io_uring's O_DIRECT is not
 * modelled); a memory device refuses O_DIRECT at open (fio 3.33: "fio:
 * destination does not support O_DIRECT", err=22, measured on
 * /dev/zero); a read of /dev/null returns 0 bytes.  Return: 0 or 2.
 */
static int dev_check(const struct fio_job *j)
{
	for (uint32_t f = 0; f < fio_job_file_count(j); f++) {
		char name[FIO_PATH_LEN_MAX + 1], what[FIO_PATH_LEN_MAX + 400];
		enum fio_run_dev dev;

		if (fio_job_file_name(j, f, name, sizeof(name)))
			return fio_run_job_error(j, "file name too long");
		dev = fio_run_dev_of(name);
		if (dev == FIO_DEV_NONE || j->ioengine == FIO_ENGINE_NULL)
			continue;	/* null opens no file */
		if (dev_name_check(j, name))
			return EXIT_USAGE;
		if (dev == FIO_DEV_BLOCK &&
		    (j->ioengine == FIO_ENGINE_IO_URING ||
		     j->ioengine == FIO_ENGINE_MMAP)) {
			snprintf(what, sizeof(what), "filename=%s is the "
				 "model's raw block device: ioengine=%s on it "
				 "is not modelled (its O_DIRECT path there: "
				 "the sync engines and libaio are)", name,
				 fio_engine_name(j->ioengine));
			return fio_run_job_error(j, what);
		}
		if (dev == FIO_DEV_BLOCK && (j->fill_device ||
					     j->fallocate == FIO_FALLOCATE_TRUNCATE ||
					     j->file_append || j->sfr_flags)) {
			snprintf(what, sizeof(what), "filename=%s is the "
				 "model's raw block device: fill_device, "
				 "fallocate=truncate, file_append and "
				 "sync_file_range on it are not modelled",
				 name);
			return fio_run_job_error(j, what);
		}
		if (dev != FIO_DEV_BLOCK && j->direct) {
			snprintf(what, sizeof(what), "filename=%s: open(2) "
				 "with O_DIRECT is EINVAL on a memory device "
				 "(fs/open.c do_dentry_open: no "
				 "FMODE_CAN_ODIRECT; fio 3.33: \"destination "
				 "does not support O_DIRECT\", err=22)", name);
			return fio_run_job_error(j, what);
		}
		if (dev == FIO_DEV_NULL && !is_write(j->rw) && !is_trim(j->rw)) {
			snprintf(what, sizeof(what), "filename=%s: a read of "
				 "/dev/null returns 0 bytes (read_iter_null), "
				 "and fio's short-read retry is not modelled",
				 name);
			return fio_run_job_error(j, what);
		}
		if (dev != FIO_DEV_BLOCK && (j->ioengine == FIO_ENGINE_MMAP ||
					     j->ioengine == FIO_ENGINE_IO_URING ||
					     j->ioengine == FIO_ENGINE_LIBAIO ||
					     fio_run_posix_queue(j) ||
					     j->verify[0] || j->fsync_blocks ||
					     j->fdatasync_blocks ||
					     j->sfr_flags || j->end_fsync ||
					     j->sync != FIO_SYNC_NONE)) {
			snprintf(what, sizeof(what), "filename=%s: a memory "
				 "device is modelled with the sync engines, "
				 "without verify and syncs", name);
			return fio_run_job_error(j, what);
		}
	}
	return 0;
}

int fio_run_check_job(const struct fio_job *j)
{
	int rc = fio_run_check_pace(j);	/* fio-rate.c */

	if (rc)
		return rc;
	if (fio_ss_check_job(j))		/* fio-ss.c */
		return EXIT_USAGE;
	if (fio_prio_check_job(j))		/* fio-prio.c */
		return EXIT_USAGE;
	if (check_iodepth_batch(j))
		return EXIT_USAGE;
	if (trim_check(j))
		return EXIT_USAGE;
	/* gtod_reduce: fio keeps no latency sample (stat.c); its logs and
	 * its syncs' latencies are not modelled with it. */
	if (j->gtod_reduce && (j->logs || j->fsync_blocks ||
			       j->fdatasync_blocks || j->sfr_flags ||
			       j->end_fsync || j->sync != FIO_SYNC_NONE))
		return fio_run_job_error(j, "gtod_reduce with statistics logs "
				 "or syncs is not modelled");
	/* fio 3.42 init.c add_job: the issue time is the latency logs'
	 * column and needs the offset's. */
	if (j->log_issue_time &&
	    (!(j->logs & (1u << FIO_LOG_LAT)) || !j->log_offset))
		return fio_run_job_error(j, "log_issue_time option requires "
				 "write_lat_log and log_offset options (as "
				 "fio says)");
	/* The sequence's read index counts the workload's reads only
	 * (fio-rate.c fio_pace_sequence_block). */
	if (j->rand_dist == FIO_RAND_DIST_SEQUENCE && j->verify_backlog)
		return fio_run_job_error(j, "random_distribution=sequence with "
				 "verify_backlog is not modelled (fio's verify "
				 "reads move the sequence's read index)");
	/* A strided sequence runs past the file's end for good (the issue
	 * count never goes back); a time_based fio job then spins in
	 * do_io with no I/O until its runtime ends. */
	if (j->rand_dist == FIO_RAND_DIST_SEQUENCE && j->rand_seq_stride &&
	    j->time_based)
		return fio_run_job_error(j, "random_sequence_stride=1 with "
				 "time_based is not modelled (past the file's "
				 "end fio spins without I/O until the runtime "
				 "ends)");
	/* The verify family and the bytes-only options (fio-verify.c). */
	if (fio_run_check_verify(j))
		return EXIT_USAGE;
	/* ioengine=null (fio's engines/null.c): no file is opened and no
	 * syscall issued, each I/O completes as it is queued; what is left
	 * is fio's own work, FIO_NULL_IO_NS of user time per I/O. */
	if (j->ioengine == FIO_ENGINE_NULL) {
		/* Options that change the offsets are checked for null
		 * too: its write_iolog and log_offset logs show them. */
		if (random_generator_check(j))
			return EXIT_USAGE;
		if (j->rw_seq_nr > 1 || (j->rw_seq_add && is_random(j->rw)))
			return fio_run_job_error(j, "rw=rand...:N is not modelled");
		/* verify on null (fio's FIO_FAKEIO: each logged block read
		 * back and passed): with verify_backlog, time_based or
		 * batches fio's io_u life cycle (fio-nullv.c); without,
		 * experimental_verify is null_verify_why's. */
		if (fio_nullv_job(j))
			return fio_nullv_check(j);
		if (j->verify[0] && j->do_verify && !is_read(j->rw) &&
		    j->experimental_verify)
			return fio_run_job_error(j, null_verify_why);
		return 0;
	}
	/* A job that reads and writes (rw, randrw): fio verifies its
	 * writes (the verify list) and not the reads of its workload
	 * (td_rw in do_io), as the model's write jobs. */
	if (j->verify[0] && j->do_verify && !is_read(j->rw)) {
		if (j->bs[FIO_DDIR_WRITE] % 512 ||
		    j->bs[FIO_DDIR_WRITE] > FIO_RUN_BS_MAX)
			return fio_run_job_error(j, "verify needs bs a multiple of "
					 "512");
		/* fio's fixup_options: an interval above bs or not a
		 * factor of it is bs; below, each interval has its own
		 * header. */
		if (j->verify_interval &&
		    j->verify_interval < j->bs[FIO_DDIR_WRITE] &&
		    j->bs[FIO_DDIR_WRITE] % j->verify_interval == 0)
			return fio_run_job_error(j, "verify_interval below bs "
					 "with a verify read phase: the model "
					 "checks each block whole (it holds "
					 "write ids, not fio's headers)");
		if (j->verify_backlog && (j->time_based ||
		    fio_run_no_axmap(j) || j->number_ios ||
		    (j->io_size.set && j->io_size.bytes > job_size(j)) ||
		    (!is_random(j->rw) && (j->rw_seq_add < 0 ||
					   fio_job_file_count(j) > 1))))
			return fio_run_job_error(j, "verify_backlog is modelled "
					 "where each block is written once a "
					 "loop, oldest first (not with "
					 "time_based, norandommap, number_ios, "
					 "io_size above size, backwards or "
					 "several files' sequential writes)");
	}
	/* io_submit_mode=offload (fio 3.33 backend.c: workqueue_enqueue):
	 * fio's submit threads call the engine.  With ioengine=null the
	 * I/O costs nothing where it is issued, so the run is the inline
	 * one; with a model engine the threads would issue its syscalls. */
	if (j->io_submit_mode == FIO_SUBMIT_OFFLOAD &&
	    j->ioengine != FIO_ENGINE_NULL && !fio_pace_offload_ok(j))
		return fio_run_job_error(j, "io_submit_mode=offload is "
				 "modelled for ioengine=null, and for libaio "
				 "and io_uring with rate or rate_iops (fio's "
				 "submit threads are not modelled)");
	/* serialize_overlap (io_u.c io_u_submit): waits only while another
	 * I/O of the job is in flight; sync engines, null and iodepth=1
	 * never have one. */
	if (j->serialize_overlap && j->iodepth > 1 &&
	    (j->ioengine == FIO_ENGINE_LIBAIO ||
	     j->ioengine == FIO_ENGINE_IO_URING))
		return fio_run_job_error(j, "serialize_overlap with iodepth "
				 "above 1 on libaio or io_uring is not "
				 "modelled");
	if (j->ioengine == FIO_ENGINE_MMAP)
		return fio_run_job_error(j, "ioengine=mmap is not modelled by wpsim "
				 "fio (its memcpy into a mapping would be the "
				 "model's page faults)");
	if (j->ioengine == FIO_ENGINE_VSYNC && j->iodepth > 1)
		return fio_run_job_error(j, "ioengine=vsync with iodepth > 1 "
				 "merges I/Os into one writev: not modelled");
	/* posixaio with iodepth > 1 (fio-engines.c job_posix_issue):
	 * glibc's one helper thread per file descriptor, running its
	 * requests in order.  Several files would run in several helper
	 * threads at once; fio queues a sync as aio_fsync (glibc runs it
	 * after the requests before it); verify checks a read when it is
	 * reaped: not modelled. */
	if (fio_run_posix_queue(j) &&
	    (fio_job_file_count(j) > 1 || j->fsync_blocks ||
	     j->fdatasync_blocks || j->sfr_flags || j->verify[0] ||
	     j->loops > 1 || j->iodepth > FIO_RUN_IODEPTH_MAX))
		return fio_run_job_error(j, "ioengine=posixaio with iodepth > 1 "
				 "is modelled for one file, without fsync=, "
				 "fdatasync=, sync_file_range=, verify or loops, "
				 "iodepth up to 256 (glibc's helper threads "
				 "for several files, aio_fsync and the reaped "
				 "reads' checks are not modelled)");
	if (dev_check(j))
		return EXIT_USAGE;
	/* invalidate=0: fio leaves the pages it laid out cached; the
	 * model's files start with nothing cached. */
	if (!j->invalidate && (j->overwrite || !is_write(j->rw)) &&
	    !job_on_dev(j))
		return fio_run_job_error(j, "invalidate=0 with a file fio lays out "
				 "first (a read job, or overwrite=1): its "
				 "pages would stay cached, and the model's "
				 "files start with none cached");
	/* create_on_open=1 on a job that reads and writes (rw, randrw):
	 * fio 3.33 lays nothing out (setup_files: real_file_size is the
	 * job's size, no extend), the file is created empty at open, and
	 * a libaio read at or past its end returns 0 bytes, which fio
	 * counts as a block of no bytes (io_completed; measured: a direct
	 * randrw libaio job on 8 MiB, 2048 reads issued, 8172 KiB read).
	 * A job that only reads would read nothing but that. */
	if (j->create_on_open && is_read(j->rw))
		return fio_run_job_error(j, "create_on_open=1 is modelled for jobs "
				 "that write (the file starts empty); a job "
				 "that only reads needs the file laid out "
				 "first");
	if (j->create_on_open && !is_write(j->rw) &&
	    j->ioengine != FIO_ENGINE_LIBAIO)
		return fio_run_job_error(j, "create_on_open=1 on a job that reads "
				 "and writes is modelled with ioengine=libaio "
				 "(a read past the new file's end returns 0 "
				 "bytes: fio counts a block of no bytes with "
				 "libaio, and fails a sync engine's with "
				 "\"full resid\" EIO, not modelled)");
	if (j->create_on_open && (j->overwrite || j->file_append))
		return fio_run_job_error(j, "create_on_open=1 with overwrite or "
				 "file_append: fio lays nothing out first");

#ifndef WPSIM_MODEL_AIO_READ
	/* The model's io_submit has no IOCB_CMD_PREAD yet (it comes with
	 * km_aio_read, model/fs/aio.c; meson.build detects it). */
	if (j->ioengine == FIO_ENGINE_LIBAIO &&
	    (!is_write(j->rw) || (j->verify[0] && j->do_verify)))
		return fio_run_job_error(j, "ioengine=libaio reads: the model's "
				 "io_submit has no IOCB_CMD_PREAD "
				 "(km_aio_read) in this build");
#endif
	if (j->ioengine == FIO_ENGINE_LIBAIO &&
	    j->iodepth > FIO_RUN_IODEPTH_MAX)
		return fio_run_job_error(j, "iodepth above 256 is not modelled for "
				 "libaio");
	if (j->writethrough && (j->direct || !is_write(j->rw)))
		return fio_run_job_error(j, "writethrough is modelled for buffered "
				 "writes only");
	if (j->hipri)
		return fio_run_job_error(j, "hipri (polled completions) is not "
				 "modelled");
	if (j->uncached && j->ioengine != FIO_ENGINE_PVSYNC2 &&
	    j->ioengine != FIO_ENGINE_IO_URING)
		return fio_run_job_error(j, "uncached (RWF_DONTCACHE) needs pvsync2 or "
				 "io_uring (the engines that pass RWF flags)");
	if (j->uncached && (j->direct || !is_write(j->rw)))
		return fio_run_job_error(j, "uncached is modelled for buffered writes "
				 "only");
	if (j->file_append && (!is_write(j->rw) || is_random(j->rw) ||
			       fio_job_file_count(j) > 1))
		return fio_run_job_error(j, "file_append is modelled for sequential "
				 "writes to one file");
	if (j->zonemode != FIO_ZONEMODE_NONE && (is_random(j->rw) ||
						  j->rw == FIO_RW_RW))
		return fio_run_job_error(j, "zonemode=strided with random or mixed "
				 "I/O is not modelled (sequential only)");
	if (j->zonemode != FIO_ZONEMODE_NONE && fio_job_file_count(j) > 1)
		return fio_run_job_error(j, "zonemode=strided with several files "
				 "(fio turns zones off then; give one file)");
	if (j->rw_seq_nr > 1 || (j->rw_seq_add && is_random(j->rw)))
		return fio_run_job_error(j, "rw=rand...:N is not modelled");
	if (random_generator_check(j))
		return EXIT_USAGE;

	if (j->size.percent || j->io_size.percent || j->offset.percent ||
	    j->offset_increment.percent)
		return fio_run_job_error(j, "a size given as N% needs an existing "
				 "file; give bytes");
	if (j->direct && (j->bs[FIO_DDIR_WRITE] % 512 ||
			  j->bs[FIO_DDIR_READ] % 512 ||
			  j->bs_max[FIO_DDIR_WRITE] % 512 ||
			  j->bs_max[FIO_DDIR_READ] % 512))
		return fio_run_job_error(j, "bs for direct=1 must be a multiple of "
				 "512 (the sector)");
	if (j->bs[FIO_DDIR_WRITE] > FIO_RUN_BS_MAX ||
	    j->bs[FIO_DDIR_READ] > FIO_RUN_BS_MAX ||
	    j->bs_max[FIO_DDIR_WRITE] > FIO_RUN_BS_MAX ||
	    j->bs_max[FIO_DDIR_READ] > FIO_RUN_BS_MAX)
		return fio_run_job_error(j, "bs above 16 MiB is not modelled");
	/* bsrange/bssplit: each I/O's size drawn (fio-job.c next_buflen);
	 * io_uring's slots and verify's blocks have one size here. */
	if (bs_range(j) && j->ioengine == FIO_ENGINE_IO_URING)
		return fio_run_job_error(j, "bsrange or bssplit with "
				 "ioengine=io_uring is not modelled");
	/* bsrange/bssplit with verify: each write read back at its own
	 * size and checked whole (fio's headers every verify_interval of
	 * min_bs are one write's; fio-verify.c). */
	if (!j->direct && !(j->rw == FIO_RW_WRITE &&
			    j->bs[FIO_DDIR_WRITE] <= 12 * PAGE_SIZE &&
			    j->bs_max[FIO_DDIR_WRITE] <= 12 * PAGE_SIZE) &&
	    (j->bs[FIO_DDIR_READ] % PAGE_SIZE ||
	     j->bs[FIO_DDIR_WRITE] % PAGE_SIZE ||
	     j->bs_max[FIO_DDIR_READ] % PAGE_SIZE ||
	     j->bs_max[FIO_DDIR_WRITE] % PAGE_SIZE))
		return fio_run_job_error(j, "bs must be a multiple of 4 KiB for "
				 "buffered I/O, or up to 48 KiB for "
				 "sequential writes");
	if (j->direct && is_random(j->rw) && (j->bs[FIO_DDIR_WRITE] &
					      (j->bs[FIO_DDIR_WRITE] - 1)))
		return fio_run_job_error(j, "random direct=1 I/O needs a power-of-two "
				 "bs in the model");
	if (job_on_bdev(j)) {
		/* The block device: block/fops.c, O_DIRECT through
		 * blkdev_direct_IO, buffered through its page cache
		 * (dev_check refused io_uring). */
	} else if (j->direct) {
		/* O_DIRECT reads and writes on XFS and ext4: the model's
		 * xfs_file_dio_write/ext4_dio_write_iter and
		 * iomap_dio_rw reads. */
		if (j->ioengine == FIO_ENGINE_IO_URING)
			return fio_run_job_error(j, "ioengine=io_uring with direct=1 "
					 "is not modelled (the model's "
					 "io_uring path is XFS buffered)");
		if (R->ext4 && (j->sync != FIO_SYNC_NONE || j->fsync_blocks ||
		    j->fdatasync_blocks || j->sfr_flags || j->end_fsync))
			return fio_run_job_error(j, "fsync, fdatasync, sync= and "
					 "sync_file_range on ext4 are not "
					 "modelled (no journal)");
		if (R->ext4 && j->fallocate == FIO_FALLOCATE_TRUNCATE)
			return fio_run_job_error(j, "fallocate=truncate on ext4 is not "
					 "supported by wpsim fio (the "
					 "model's ext4_setattr is reached "
					 "from scenarios only)");
	} else {
		if (R->ext4)
			return fio_run_job_error(j, "buffered I/O on ext4 is not "
					 "modelled (the model's buffered path "
					 "is XFS/iomap): use direct=1 or "
					 "--fs=xfs");
		R->buffered = true;
	}
	if (j->ioengine == FIO_ENGINE_IO_URING &&
	    j->iodepth > FIO_RUN_IODEPTH_MAX)
		return fio_run_job_error(j, "iodepth above 256 is not modelled for "
				 "io_uring");
	if (j->nowait && j->ioengine != FIO_ENGINE_PVSYNC2 &&
	    j->ioengine != FIO_ENGINE_IO_URING)
		return fio_run_job_error(j, "nowait needs pvsync2 or io_uring");
	/* atomic=1 (fio 3.38+ init.c fixup_options): only the engines
	 * with FIO_ATOMICWRITES (pvsync2, libaio, io_uring); fio says
	 * "fio: engine does not support atomic writes" and exits 1. */
	if (j->atomic && j->ioengine != FIO_ENGINE_PVSYNC2 &&
	    j->ioengine != FIO_ENGINE_LIBAIO &&
	    j->ioengine != FIO_ENGINE_IO_URING)
		return fio_run_job_error(j, "engine does not support atomic "
				 "writes (fio 3.38+: atomic=1 needs "
				 "pvsync2, libaio or io_uring)");
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

/*
 * fill_device and the jobs after it (fio-err.c, docs/model/enospc.md).
 * The fill job writes until ENOSPC: it needs the filesystem's size
 * (--fs-size; XFS's m_fdblocks or ext4's s_freeclusters_counter), and
 * it writes.
 * A later job whose size comes from the fill job's files takes it when
 * it starts (fio-job.c), as fio does with create_serialize=0 (its
 * setup_files runs in the job's thread, after the fill job); with
 * create_serialize=1 fio sets every job's files up before any runs,
 * when the fill job's file does not hold its data yet: not modelled.
 */
static bool fills_file(unsigned int upto, const char *name)
{
	for (unsigned int i = 0; i < upto; i++) {
		const struct fio_job *w = R->jobs[i].job;

		if (!w->fill_device)
			continue;
		for (uint32_t f = 0; f < fio_job_file_count(w); f++) {
			char wname[FIO_PATH_LEN_MAX + 1];

			if (!fio_job_file_name(w, f, wname, sizeof(wname)) &&
			    !strcmp(wname, name))
				return true;
		}
	}
	return false;
}

/* The size a size_at_start job is planned with: the fill jobs'. */
static uint64_t fill_source_size(const struct fio_job *j)
{
	uint64_t bytes = 0;

	size_from_files(j, &bytes);
	return bytes;
}

static int fill_check(struct job_run *jr)
{
	const struct fio_job *j = jr->job;
	unsigned int i = (unsigned int)(jr - R->jobs);
	bool all = !j->size.set && !j->filesize;

	if (j->fill_device) {
		if (!R->cfg->fs_bytes)
			return fio_run_job_error(j, "fill_device needs the "
					 "filesystem's size: --fs-size=SIZE "
					 "(the model's filesystem has no size "
					 "of its own; docs/model/enospc.md)");
		if (!is_write(j->rw))
			return fio_run_job_error(j, "fill_device on a job that "
					 "does not write is not modelled");
		if (j->time_based || j->loops > 1 || j->numjobs > 1)
			return fio_run_job_error(j, "fill_device with "
					 "time_based, loops or numjobs is not "
					 "modelled (the job is planned at the "
					 "filesystem's size, once)");
	}
	/* Every file of @j a fill job's: its size when it starts. */
	for (uint32_t f = 0; all && f < fio_job_file_count(j); f++) {
		char name[FIO_PATH_LEN_MAX + 1];

		all = !fio_job_file_name(j, f, name, sizeof(name)) &&
		      fills_file(i, name);
	}
	if (!all || j->fill_device)
		return 0;
	if (j->create_serialize)
		return fio_run_job_error(j, "its size comes from a fill_device "
				 "job's file, which create_serialize=1 sets "
				 "up before that job has written it: not "
				 "modelled (create_serialize=0 is: the size "
				 "when the job starts)");
	if (!is_read(j->rw) || is_random(j->rw))
		return fio_run_job_error(j, "a job sized by a fill_device "
				 "job's file is modelled for sequential "
				 "reads only");
	jr->size_at_start = true;
	return 0;
}

/*
 * A read_iolog job on libaio or io_uring (fio-iolog.c): its files are
 * the log's (fio's read_iolog adds them, free_release_files drops the
 * job's), each as large as the log reaches, its bytes the log's.
 */
static int plan_iolog_job(struct job_run *jr)
{
	const struct fio_job *j = jr->job;
	unsigned int n = fio_iolog_nfiles();
	uint64_t largest = 0;

	if (!n || n > FIO_FILES_MAX)
		return fio_run_job_error(j, "read_iolog: the log adds no file, "
					 "or more than FIO_FILES_MAX");
	jr->nfiles = n;
	jr->world_file = calloc(n, sizeof(*jr->world_file));
	jr->files = calloc(n, sizeof(*jr->files));
	jr->engine_pos = calloc(n, sizeof(*jr->engine_pos));
	jr->files_done = calloc((n + 63) / 64, sizeof(*jr->files_done));
	if (!jr->world_file || !jr->files || !jr->engine_pos ||
	    !jr->files_done)
		return fio_run_job_error(j, "out of memory for its files");
	for (unsigned int f = 0; f < n; f++) {
		uint64_t end = fio_iolog_file_end(f);

		if (end % 512)
			end += 512 - end % 512;
		if (end > (uint64_t)M_FILE_PAGES_LIMIT * PAGE_SIZE)
			return fio_run_job_error(j, "read_iolog: an entry "
					 "beyond the model's largest file "
					 "(M_FILE_PAGES_LIMIT)");
		if (find_or_add_file(fio_iolog_file_name(f), end,
				     &jr->world_file[f]))
			return EXIT_USAGE;
		if (end > R->file[jr->world_file[f]].end)
			R->file[jr->world_file[f]].end = end;
		if (end > largest)
			largest = end;
	}
	jr->region_start = 0;
	jr->region_bytes = largest ? largest : 512;
	jr->rand_unit = jr->region_bytes;
	jr->blocks = 1;
	jr->map_bits = 1;
	jr->rand_file_bytes = jr->region_bytes;
	jr->budget_bytes = fio_iolog_bytes();
	return 0;
}

/*
 * SPRandom (fio 3.41 filesetup.c setup_files → sprandom_init, init.c
 * fixup_options): one file, the job's writes from fio-spr.c, and its
 * io_size the physical size (fio sets td->o.io_size).  Modelled for
 * rw=randwrite of one fixed bs with blockalign = bs, one loop, without
 * verify, time_based, number_ios, io_size, zones or a
 * random_distribution; anything else an error naming it.
 */
static int plan_sprandom(struct job_run *jr, unsigned int index)
{
	const struct fio_job *j = jr->job;
	const char *why;

	if (fio_job_file_count(j) != 1)
		return fio_run_job_error(j, "fio: SPRandom supports only one "
					 "file");
	if (j->rw != FIO_RW_RANDWRITE || j->bs_min[FIO_DDIR_WRITE] ||
	    j->bssplit_nr[FIO_DDIR_WRITE] ||
	    j->ba[FIO_DDIR_WRITE] != j->bs[FIO_DDIR_WRITE] || j->loops > 1 ||
	    j->verify[0] || j->time_based || j->number_ios ||
	    j->io_size.set || j->zonemode != FIO_ZONEMODE_NONE ||
	    j->rand_dist != FIO_RAND_DIST_RANDOM || j->read_iolog[0] ||
	    j->ioengine == FIO_ENGINE_NULL || j->ioengine == FIO_ENGINE_IO_URING ||
	    fio_run_posix_queue(j))
		return fio_run_job_error(j, "sprandom is modelled for "
				 "rw=randwrite of one bs with blockalign = "
				 "bs, one loop, on a file, with a sync "
				 "engine or libaio (io_uring and posixaio at "
				 "iodepth > 1 reap every completed request in "
				 "the model, fio one at a time with a full "
				 "queue, which decides the I/Os never reaped "
				 "after SPRandom's end), without verify, "
				 "time_based, number_ios, io_size, zones or "
				 "random_distribution");
	/* fio's fixup_options says what it set (log_info, on stdout in
	 * fio; on stderr here, the output's format being fio 3.33's). */
	if (j->spr_set_lfsr)
		fprintf(stderr, "fio: sprandom sets random_generator=lfsr\n");
	if (j->spr_set_nomap)
		fprintf(stderr, "fio: sprandom sets norandommap=1\n");
	/* randrepeat=0 without randseed= (fio's setup_random_seeds):
	 * fio takes its seeds from the system's random source; here the
	 * seed is mixed with the run's --seed, reproducible (the same
	 * rule as the model's other draws, fio-job.c). */
	jr->spr = fio_spr_new(j, j->randrepeat || j->spr_randseed_given ?
			      j->randseed :
			      j->randseed ^ (R->seed * 0x9e3779b97f4a7c15ull +
					     0x5deece66dull),
			      index + 1, jr->rand_file_bytes, jr->map_bits,
			      &why);
	if (!jr->spr)
		return fio_run_job_error(j, why);
	jr->budget_bytes = fio_spr_physical_size(j, jr->rand_file_bytes);
	return 0;
}

/* Each job's region, budget and files (the world's, by name). */
/*
 * verify_backlog: fio 3.33 frees each io_piece as get_next_verify hands
 * it to a verify read (io_u.c, verify.c), so its history holds the
 * backlog and the reads in flight.  A job's map forgets a block once its
 * read is checked (fio_verify_map_drop) where nothing else asks the map
 * for it: no job of the run reads other jobs' blocks back (read_verify:
 * fio-verify.c's writer_of looks its writer's map up), one file (the
 * state file's comps are the last iodepth of order[]), no
 * experimental_verify (its pass sums the loop's lengths).
 */
static int plan_verify_drop(void)
{
	for (unsigned int i = 0; i < R->njobs; i++)
		if (R->jobs[i].read_verify)
			return 0;
	for (unsigned int i = 0; i < R->njobs; i++) {
		struct job_run *jr = &R->jobs[i];
		const struct fio_job *j = jr->job;

		if (!jr->verify || !j->verify_backlog || !jr->vmap.keys ||
		    jr->nfiles != 1 || j->experimental_verify)
			continue;
		if (fio_verify_map_drop(&jr->vmap))
			return fio_run_job_error(j, "verify: out of memory");
	}
	return 0;
}

static int plan_job_files(void)
{
	for (unsigned int i = 0; i < R->njobs; i++) {
		struct job_run *jr = &R->jobs[i];
		const struct fio_job *j = jr->job;

		if (fio_iolog_runner(j)) {
			if (plan_iolog_job(jr))
				return EXIT_USAGE;
			continue;
		}
		/* A job that trims draws its blocks in trim-bs units. */
		uint64_t bs = j->bs[is_read(j->rw) ? FIO_DDIR_READ :
				    is_trim(j->rw) ? FIO_DDIR_TRIM :
				    FIO_DDIR_WRITE];
		uint64_t start = j->offset.bytes + (uint64_t)j->jobnum *
						   j->offset_increment.bytes;
		uint32_t n = fio_job_file_count(j);
		uint64_t size = job_size(j);
		uint64_t per_file = size / n;

		if (fill_check(jr))
			return EXIT_USAGE;
		/* A job sized by a fill_device job's files when it starts
		 * (create_serialize=0): planned at that job's size. */
		if (jr->size_at_start)
			size = fill_source_size(j);
		/* Checked here: a file an earlier job made gives a size. */
		if (!j->size.set && !j->filesize && !size)
			/* fio 3.33 stops here too (filesetup.c
			 * total_file_size: "NAME: you need to specify
			 * size=", err=22, exit 2, measured with
			 * examples/butterfly.fio). */
			return fio_run_job_error(j, "you need to specify size= "
					 "(fio 3.33's words: it refuses the job "
					 "too; it takes a size from an existing "
					 "file, and none of the job's files is an "
					 "earlier job's, and filesize is not "
					 "given)");
		/* The block device without size= (fio 3.33 filesetup.c
		 * setup_files: io_size = real_file_size - file_offset, the
		 * device's BLKGETSIZE64 less the job's offset). */
		if (job_on_bdev(j) && !j->size.set && !j->filesize) {
			if (start >= R->dev_bytes)
				return fio_run_job_error(j, "offset is at or "
						 "beyond the block device's end "
						 "(fio: offset extends end; "
						 "--dev-size)");
			size = (R->dev_bytes - start) * n;
			per_file = size / n;
		}
		if (size < bs)
			return fio_run_job_error(j, "size is smaller than bs");

		/* The parser holds nrfiles and filename's count to
		 * FIO_FILES_MAX (verify's key, tools/fio/verify.h). */
		if (n > FIO_FILES_MAX)
			return fio_run_job_error(j, "more files than "
						 "FIO_FILES_MAX");
		jr->nfiles = n;
		jr->world_file = calloc(n, sizeof(*jr->world_file));
		jr->files = calloc(n, sizeof(*jr->files));
		jr->engine_pos = calloc(n, sizeof(*jr->engine_pos));
		jr->files_done = calloc((n + 63) / 64,
					sizeof(*jr->files_done));
		if (!jr->world_file || !jr->files || !jr->engine_pos ||
		    !jr->files_done)
			return fio_run_job_error(j, "out of memory for its "
						 "files");
		/* fio's start offset is not aligned (offset=N% aside,
		 * which is refused); random blocks are. */
		/* Random offsets are multiples of ba (blockalign: fio's
		 * get_next_block, b * ba), bs unless given. */
		jr->rand_unit = is_random(j->rw) ?
				j->ba[is_read(j->rw) ? FIO_DDIR_READ :
				      is_trim(j->rw) ? FIO_DDIR_TRIM :
				      FIO_DDIR_WRITE] : bs;
		jr->region_start = is_random(j->rw) ?
				   start - start % jr->rand_unit : start;
		/* file_append: fio lays the file out to size and starts each
		 * job at its end (get_start_offset: real_file_size). */
		if (j->file_append)
			jr->region_start = per_file;
		jr->region_bytes = is_random(j->rw) ?
				   per_file / jr->rand_unit * jr->rand_unit :
				   per_file;
		if (!jr->region_bytes)
			return fio_run_job_error(j, "size per file is smaller than bs");
		jr->blocks = jr->region_bytes / bs;
		/* fio's last_block: a min_bs above ba leaves its excess
		 * out of the last blocks. */
		if (is_random(j->rw))
			jr->blocks = (per_file - (bs > jr->rand_unit ?
						  bs - jr->rand_unit : 0)) /
				     jr->rand_unit;
		if (!jr->blocks)
			return fio_run_job_error(j, "size per file is smaller "
					 "than bs");
		/* fio's random map: per_file / rw_min_bs blocks (init.c
		 * fixup_options: the least min_bs of read, write, trim). */
		jr->rand_file_bytes = per_file;
		jr->map_bits = jr->blocks;
		if (is_random(j->rw)) {
			uint64_t rw_min_bs = j->bs[FIO_DDIR_READ];

			for (unsigned int d = 1; d < FIO_DDIR_COUNT; d++)
				if (j->bs[d] < rw_min_bs)
					rw_min_bs = j->bs[d];
			jr->map_bits = per_file / rw_min_bs;
			if (!jr->map_bits)
				return fio_run_job_error(j, "size per file is "
							 "smaller than bs");
		}
		jr->budget_bytes = j->io_size.set ? j->io_size.bytes : size;
		if (j->sprandom && plan_sprandom(jr, i))
			return EXIT_USAGE;
		jr->verify = j->verify[0] && j->do_verify && !is_read(j->rw);
		jr->read_verify = j->verify[0] && is_read(j->rw);
		jr->keeps_writes = fio_run_keeps_writes(j);
		if (fio_run_verify_plan(jr))
			return EXIT_USAGE;
		/* fio-nullv.c keeps its own log of the pieces. */
		if ((jr->verify || jr->keeps_writes) && !fio_nullv_job(j)) {
			uint64_t most = (uint64_t)n * (jr->region_bytes / bs +
						       2);
			uint64_t writes = jr->budget_bytes / bs + 1;
			/* A verifying job's map holds one loop's writes:
			 * each loop's verify pass empties it
			 * (fio-verify.c fio_run_job_verify_pass); a job
			 * whose writes only a reader checks keeps all. */
			uint64_t loops = jr->verify ? 1 : j->loops;

			if (!j->time_based && !j->io_size.set) {
				writes = (size / bs + 1) * loops;
				if (writes < most)
					most = writes;
			} else if (!j->time_based && job_on_bdev(j)) {
				/* The device's region may be far larger
				 * than io_size's writes (cross-stripe-
				 * verify.fio: 3.72 TB, 120 GiB each). */
				writes *= loops;
				if (writes < most)
					most = writes;
			}
			if (fio_verify_map_init(&jr->vmap, most))
				return fio_run_job_error(j, "verify: out of memory");
		}
		for (uint32_t f = 0; f < n; f++) {
			char name[FIO_PATH_LEN_MAX + 1];
			uint64_t end = jr->region_start + jr->region_bytes;

			if (end % 512)
				end += 512 - end % 512;

			if (fio_job_file_name(j, f, name, sizeof(name)))
				return fio_run_job_error(j, "file name too long");
			if (j->ioengine == FIO_ENGINE_NULL)
				continue;	/* fio opens no file */
			/* A device: an empty placeholder in the world's
			 * table; the job opens the device (fio-job.c). */
			if (fio_run_dev_of(name) != FIO_DEV_NONE) {
				if (fio_run_dev_of(name) == FIO_DEV_BLOCK &&
				    end > R->dev_bytes) {
					char what[320];

					snprintf(what, sizeof(what), "its I/O "
						 "reaches byte %" PRIu64 " of "
						 "the block device, which has "
						 "%" PRIu64 " (--dev-size, or "
						 "the device profile's "
						 "capacity_bytes); a write "
						 "there is ENOSPC", end,
						 R->dev_bytes);
					return fio_run_job_error(j, what);
				}
				if (find_or_add_file(name, 0,
						     &jr->world_file[f]))
					return EXIT_USAGE;
				R->file[jr->world_file[f]].dev =
					fio_run_dev_of(name);
				continue;
			}
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
			if (end > R->file[jr->world_file[f]].end)
				R->file[jr->world_file[f]].end = end;
		}
	}
	return plan_verify_drop();
}

/*
 * Pages per file: the largest file's, and half of all pages, so that
 * the folio bound (2 per page) holds every page of every file (no folio
 * is reclaimed).  A run of more than M_FILES_MAX files (which main
 * refused) sizes each file's room to the largest file and sets the
 * folio bound to 2 per page of all files apart (m_folios_limit), as
 * wpsim replay does: half of all pages for every file made memory and
 * setup grow with the square of the files (16384 files of 16 KiB: 560
 * MB).  A run of up to 16 files keeps the sizing it always had, so its
 * device layout and outputs are the same bytes.
 */
static int plan_pages(void)
{
	uint64_t pages = 0, largest = M_FILE_PAGES_DEFAULT, largest_file;

	for (unsigned int f = 0; f < R->nr_files; f++) {
		/* file_append jobs write past the laid-out size. */
		uint64_t bytes = (uint64_t)R->file_config[f].size >
				 R->file[f].end ?
				 (uint64_t)R->file_config[f].size :
				 R->file[f].end;
		uint64_t p = (bytes + PAGE_SIZE - 1) >> PAGE_SHIFT;

		pages += p;
		if (p > largest)
			largest = p;
	}
	/* A verify pass with invalidate=1 drops the clean cache
	 * (POSIX_FADV_DONTNEED) and reads it again, and the next loop
	 * writes it again: new folios each time, since the model frees a
	 * folio's id only in reclaim (model/mm/filemap.c m_folio_free);
	 * the folio bound (twice m_file_pages_max) counts them. */
	for (unsigned int i = 0; i < R->njobs; i++) {
		const struct job_run *jr = &R->jobs[i];

		/* A buffered job on the block device caches its region in
		 * the device's page cache (the bdev inode's mapping,
		 * model/block/fops.c), a file the world adds at the open:
		 * the page bound covers the region's last page.  O_DIRECT
		 * on it caches nothing. */
		if (job_on_bdev(jr->job) && !jr->job->direct) {
			uint64_t p = (jr->region_start + jr->region_bytes +
				      PAGE_SIZE - 1) >> PAGE_SHIFT;

			pages += p;
			if (p > largest)
				largest = p;
		}
		if (jr->verify && jr->job->invalidate &&
		    !(job_on_bdev(jr->job) && jr->job->direct))
			pages += 2 * (uint64_t)jr->job->loops * jr->nfiles *
				 ((jr->region_bytes + PAGE_SIZE - 1) >>
				  PAGE_SHIFT);
	}
	largest_file = largest;
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
	m_folios_limit = 0;
	if (R->nr_files > M_FILES_MAX) {
		m_file_pages_max = (unsigned long)largest_file;
		m_folios_limit = (unsigned long)(2 * pages);
	}
	return 0;
}

/*
 * fio 3.33's extend_file (filesetup.c) for a write job without overwrite
 * (or file_append): the file is unlinked and created again, then only
 * fallocate_file runs (nothing for fallocate=none) and no ftruncate (that
 * is for a new layout: a read job or overwrite=1).  So the file starts
 * empty, as with create_on_open=1; its writes past EOF zero from the old
 * EOF (xfs_file_write_zero_eof).  Until session 16 (h16-dc) the model
 * started such a file as holes below its full size.
 */
static bool layout_leaves_empty(const struct fio_job *j)
{
	return j->fallocate == FIO_FALLOCATE_NONE && is_write(j->rw) &&
	       !j->overwrite && !j->file_append;
}

/*
 * Each file's layout state from the jobs that use it, in job order then
 * the job's file order (one pass over the jobs' files, not one per file:
 * a run of many files).  fio creates a missing file with fallocate
 * (unwritten extents) unless fallocate=none or truncate (holes), and
 * writes it out first with overwrite=1 or for a read job (written); a
 * layout that is a syscall of layout_syscalls runs as one.
 * create_on_open=1 (fio's filesetup.c): fio lays nothing out, the job's
 * open(2) creates the file empty; fallocate=none on a write job without
 * overwrite leaves it empty too (layout_leaves_empty); @coo_all[f] is
 * true when every job of file @f does one or the other.
 */
static void layout_states(char *state, int *row, bool *coo_all)
{
	bool *coo_any = calloc(R->nr_files ? R->nr_files : 1,
			       sizeof(*coo_any));

	for (unsigned int f = 0; f < R->nr_files; f++) {
		state[f] = M_EXT_UNWRITTEN;
		row[f] = -1;
		coo_all[f] = true;
	}
	for (unsigned int i = 0; i < R->njobs; i++) {
		const struct fio_job *j = R->jobs[i].job;

		for (unsigned int k = 0; k < R->jobs[i].nfiles; k++) {
			unsigned int f = R->jobs[i].world_file[k];

			/* fill_device (fio's extend_file: no truncate,
			 * no fallocate, nothing written: an empty file),
			 * and a job that finds its file at its start
			 * (lays nothing out): as create_on_open. */
			if (j->fill_device || R->jobs[i].size_at_start) {
				if (state[f] != M_EXT_WRITTEN)
					state[f] = M_EXT_HOLE;
				if (coo_any)
					coo_any[f] = true;
				continue;
			}
			/* read_iolog: the log replays on files an
			 * earlier job wrote (fio-iolog.c). */
			if (fio_iolog_runner(j) ||
			    ((j->overwrite || !is_write(j->rw)) &&
			     !j->create_on_open))
				state[f] = M_EXT_WRITTEN;
			else if (j->create_on_open)
				state[f] = state[f] == M_EXT_WRITTEN ?
					   state[f] : M_EXT_HOLE;
			else if (state[f] != M_EXT_WRITTEN &&
				 (j->fallocate == FIO_FALLOCATE_NONE ||
				  j->fallocate == FIO_FALLOCATE_TRUNCATE))
				state[f] = M_EXT_HOLE;
			if (row[f] < 0)
				row[f] = layout_row_of(j->fallocate);
			if (!j->create_on_open && !layout_leaves_empty(j))
				coo_all[f] = false;
			if (coo_any)
				coo_any[f] = true;
		}
	}
	for (unsigned int f = 0; coo_any && f < R->nr_files; f++)
		coo_all[f] = coo_all[f] && coo_any[f];
	free(coo_any);
}

/* Each file's layout (fio's fallocate=, overwrite=) in the world. */
static int plan_layout(void)
{
	size_t n = R->nr_files ? R->nr_files : 1;
	char *states = malloc(n);
	int *rows = malloc(n * sizeof(*rows));
	bool *coo_all = malloc(n * sizeof(*coo_all));

	if (!states || !rows || !coo_all) {
		free(states);
		free(rows);
		free(coo_all);
		fprintf(stderr, "wpsim fio: error: out of memory for the "
			"layout of %u files\n", R->nr_files);
		return EXIT_USAGE;
	}
	layout_states(states, rows, coo_all);
	for (unsigned int f = 0; f < R->nr_files; f++) {
		char state = states[f];
		int row = rows[f];

		R->file[f].layout_row = state == M_EXT_HOLE ? row : -1;
		/* Every block wholly below the size in one state: no
		 * string of a byte per block (issue 28: memory not the
		 * file's size). */
		R->file_config[f].layout = NULL;
		R->file_config[f].layout_fill = state;
		R->file_config[f].blkbits = 12;
		R->file_config[f].cached_first = 0;
		R->file_config[f].cached_last = -1;
		R->file_config[f].dirty_first = 0;
		R->file_config[f].dirty_last = -1;
		R->file_config[f].mapped_first = 0;
		R->file_config[f].mapped_last = -1;
		R->file_config[f].dropbehind_first = 0;
		R->file_config[f].dropbehind_last = -1;
		R->file_config[f].nosec = true;
		R->file_config[f].fs = R->ext4 ? M_FS_EXT4 : M_FS_XFS;
		/* XFS's mapping allows large folios (issue 32;
		 * docs/model/filemap.md). */
		R->file_config[f].large_folios = !R->ext4;
		/* Laid out by its syscall: empty until then. */
		R->file[f].layout_size = R->file_config[f].size;
		if (R->file[f].layout_row >= 0 || (state == M_EXT_HOLE &&
					     coo_all[f]))
			R->file_config[f].size = 0;
	}
	free(states);
	free(rows);
	free(coo_all);
	return 0;
}

/*
 * --fs-size: the world's free-space count (model/fs/xfs/xfs_mount.c,
 * model/fs/ext4/balloc.c),
 * the filesystem's 4 KiB blocks less those the files are laid out with
 * (written or unwritten below their size; fio's layout is done before
 * the jobs, so it takes its blocks first, file by file).  A file whose
 * fallocate layout does not fit starts as holes (fio ignores the failed
 * fallocate); one whose layout is written data that does not fit is
 * fio's "ENOSPC on laying out file".  No metadata is taken:
 * docs/model/enospc.md.  Return: 0 or 2.
 */
static int plan_free_space(void)
{
	uint64_t blocks, used = 0;

	if (!R->cfg->fs_bytes)
		return 0;
	blocks = R->cfg->fs_bytes >> PAGE_SHIFT;
	for (unsigned int f = 0; f < R->nr_files; f++) {
		char fill = R->file_config[f].layout_fill;
		uint64_t need = ((uint64_t)R->file_config[f].size +
				 PAGE_SIZE - 1) >> PAGE_SHIFT;

		if (fill == M_EXT_HOLE || used + need <= blocks) {
			used += fill == M_EXT_HOLE ? 0 : need;
			continue;
		}
		/* fio's fallocate (unwritten extents) failed with ENOSPC:
		 * fio 3.33 goes on (filesetup.c native_fallocate only
		 * dprints a failure), the file as holes (the model's
		 * fallocate allocates all or nothing:
		 * docs/model/enospc.md). */
		if (fill == M_EXT_UNWRITTEN) {
			R->file_config[f].layout_fill = M_EXT_HOLE;
			continue;
		}
		/* Data written at layout (a read job's, overwrite=1). */
		fprintf(stderr, "wpsim fio: error: file '%s' is laid out "
			"with %" PRIu64 " blocks of 4 KiB written; --fs-size "
			"has %" PRIu64 " free (fio stops: \"ENOSPC on laying "
			"out file, stopping\")\n", R->file[f].name, need,
			blocks - used);
		return EXIT_USAGE;
	}
	R->world.fs_free_counted = true;
	R->world.fs_free_blocks = blocks - used;
	return 0;
}

/*
 * The run's devices: the model has one block device, and the
 * filesystem's files live on it; a run's jobs either use the block
 * device raw or the filesystem's files (a machine would have two
 * devices; the model's files would share the raw device's sectors).
 * The world's device gets the block device's size (--dev-size: the
 * drive that large, its profile's capacity_bytes too).  Return: 0 or 2.
 */
static int plan_devices(void)
{
	const char *bdev = NULL, *file = NULL;

	for (unsigned int f = 0; f < R->nr_files; f++) {
		if (R->file[f].dev == FIO_DEV_BLOCK) {
			if (bdev && strcmp(bdev, R->file[f].name)) {
				fprintf(stderr, "wpsim fio: error: filename=%s "
					"and filename=%s: the model has one "
					"block device (give the jobs one "
					"/dev/ name)\n", bdev,
					R->file[f].name);
				return EXIT_USAGE;
			}
			bdev = R->file[f].name;
		} else if (R->file[f].dev == FIO_DEV_NONE) {
			file = R->file[f].name;
		}
	}
	if (bdev && file) {
		fprintf(stderr, "wpsim fio: error: filename=%s (the raw block "
			"device) and the file '%s' in one run: the model's "
			"filesystem lives on its one device, whose sectors "
			"the raw device's I/O would overwrite\n", bdev, file);
		return EXIT_USAGE;
	}
	R->bdev = bdev != NULL;
	if (R->bdev) {
		R->world.dev_sectors = (sector_t)(R->dev_bytes >> SECTOR_SHIFT);
		R->profile.capacity_bytes = R->dev_bytes;
	}
	return 0;
}

/* The files of every job, their sizes and layouts; the bounds. */
int fio_run_plan_files(void)
{
	int rc = plan_job_files();

	if (!rc)
		rc = plan_devices();

	if (!rc)
		rc = plan_pages();
	if (!rc)
		rc = plan_layout();
	if (!rc)
		rc = plan_free_space();
	R->world.nr_files = R->nr_files;
	R->world.file_table = R->file_config;
	return rc;
}

bool fio_run_layout_needed(void)
{
	for (unsigned int f = 0; f < R->nr_files; f++)
		if (R->file[f].layout_row >= 0)
			return true;
	return false;
}

/* fio's setup_files: each layout syscall, then the first wave. */
void fio_run_layout_task(void *arg)
{
	(void)arg;
	for (unsigned int f = 0; f < R->nr_files; f++) {
		loff_t size = R->file[f].layout_size;
		long ret;

		if (R->file[f].layout_row < 0)
			continue;
		ret = fio_run_file_syscall(
			layout_syscalls[R->file[f].layout_row].nr,
			&(struct m_sys_args){ .file = m_world()->files[f],
					      .pos = size,
					      .len = (size_t)size });
		if (ret < 0)
			sim_fail(SIM_FAIL_ASSERT, "fio's layout of '%s': %s "
				 "returned %ld", R->file[f].name,
				 m_syscall_name(layout_syscalls[
					 R->file[f].layout_row].nr), ret);
	}
	fio_run_spawn_wave(0);
}
