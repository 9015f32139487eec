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
 * per I/O), io_uring (buffered writes and reads, iodepth slots) and libaio
 * (buffered writes: io_submit runs the write, a write-through one
 * completes later; O_DIRECT writes on ext4: io_submit returns with the
 * bios in flight, a kworker completes them; iodepth slots, reaped when
 * full), uncached
 * (RWF_DONTCACHE), writethrough (seed 000's RWF_WRITETHROUGH),
 * file_append (the file laid out to size, each job from its end), nowait,
 * runtime, time_based, ramp_time, startdelay, randseed, group_reporting,
 * overwrite and fallocate (how the file is laid out), write_iolog
 * (fio's v3 lines, virtual µs) and read_iolog (replay.c: the job's I/O
 * is the iolog's, with replay_no_stall and replay_time_scale; on libaio
 * and io_uring through the job runner, fio-iolog.c).  fio's
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
 * Issue 29, third part: bsrange and bssplit (fio's get_next_buflen,
 * fio-job.c), verify_backlog (check_get_verify, fio-verify.c),
 * verify_interval and verify_dump where fio would not act on them,
 * description, io_submit_mode=offload with ioengine=null,
 * serialize_overlap where nothing overlaps in flight.
 *
 * Issue 29, fourth part: the verify family (fio-verify.c):
 * verify_pattern and buffer_pattern in fio's pattern syntax, a job that
 * only reads with verify= checking what the run's jobs wrote, verify on
 * rw/randrw jobs' writes, experimental_verify where its replay is the
 * logged order, the options that set only the written bytes (said).
 *
 * Issue 29, ninth session (fio-vstate.c, fio-verify.c): verify_state_save
 * writes fio's state file name (wpsim's text: fio's fields and the
 * written blocks), verify_state_load and --files-from lay its blocks on
 * the files; verify intervals (bsrange/bssplit reads), verify_dump's
 * files, verify_backlog with loops.
 *
 * Issue 29, twelfth session (fio-nullv.c): ioengine=null with verify on
 * a job that writes and verify_backlog, time_based or iodepth_batch runs
 * fio 3.33's io_u life cycle (do_io, do_verify, the logged pieces,
 * null's queue, commit and getevents): t/jobs/t0009-f8b0bd10.fio.
 *
 * Issue 29, fifth part: random_generator=lfsr (each block once per
 * pass), the trims on ioengine=null (trim, randtrim, trimwrite,
 * randtrimwrite: fio's set_rw_ddir), verify with libaio and io_uring
 * (checked when reaped), each file of a job with its own offsets and
 * random map (fio's per-file last_pos and axmap), wait_for.
 *
 * Issue 29, sixth part: ioengine=posixaio with iodepth > 1 (glibc's one
 * helper thread per file, fio-engines.c), latency_target with
 * latency_window, latency_percentile and latency_run (fio's queue-depth
 * ramp, fio-rate.c).
 *
 * Issue 29, item 4 (h29-bdev): filename=/dev/NAME runs on the model's
 * raw block device (model/block/fops.c, O_DIRECT to blk-mq; its size
 * without size= is --dev-size or the device profile's), /dev/null and
 * /dev/zero on the memory devices (model/drivers/char/mem.c), and the
 * trims of the sync engines and libaio are ioctl(BLKDISCARD) through the
 * syscall table: a discard on the device, fio's err=25 (ENOTTY) on a
 * regular file.
 *
 * Leaves out (each an error that names it, exit 2):
 * libaio reads in a model without km_aio_read, ioengine=mmap,
 * buffered I/O on a /dev/ block device (no bdev page cache), two /dev/
 * block devices or one with the filesystem's files in a run, io_uring
 * O_DIRECT, hipri, zonemode=strided with random I/O,
 * rw=randX:N, read_iolog with more than one job, trims on io_uring and
 * posixaio queues, random_generator=tausworthe64, files beyond
 * M_FILE_PAGES_LIMIT pages, a job of more than FIO_FILES_MAX files.
 * The run's files have no bound but memory: the world's file table
 * (m_world_config.file_table) holds them all (issue 28).  The model's pages
 * per file (m_file_pages_max) are raised to fit the largest file and
 * the folios of all of them; --mem SIZE limits the page cache
 * (model/mm/vmscan.c).  fio's tausworthe generator is not reproduced:
 * offsets come from splitmix64 seeded by randseed and the job's number
 * in the run (fio_run_stream_start).
 *
 * The parts (tools/wpsim/fio-run.h lists them): this file is the
 * command; fio-plan.c checks the jobs and plans their files, fio-job.c
 * runs each job, fio-engines.c is fio's engines and syncs, fio-verify.c
 * verify=, fio-report.c the output.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/linux/readahead.h"
#include "model/linux/writeback.h"
#include "model/world.h"
#include "sim/clock.h"
#include "sim/engine.h"
#include "sim/strategy.h"
#include "tools/fio/fio.h"
#include "tools/profiles.h"
#include "tools/wpsim/fio-run.h"
#include "tools/wpsim/replay.h"
#include "tools/wpsim/scenario.h"
#include "tools/wpsim/signals.h"
#include "tools/wpsim/timed-run.h"

struct fio_run fio_run_state;

/* ---- errors --------------------------------------------------------- */

static int run_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "wpsim fio: error: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return EXIT_USAGE;
}

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
	R->world.dirty_thresh_pages = dtc.thresh;
	R->world.dirty_bg_thresh_pages = dtc.bg_thresh;
	return 0;
}

static void fio_usage(FILE *out)
{
	fprintf(out,
"usage: wpsim fio [FIO OPTIONS] [--name=JOB OPTIONS]... [JOBFILE]...\n"
"                 [--device NAME] [--cpu-profile NAME] [--cpus N]\n"
"                 [--fs xfs|ext4] [--fs-size SIZE] [--dev-size SIZE]\n"
"                 [--mem SIZE] [--ram SIZE]\n"
"                 [--dirty_ratio N | --dirty_bytes SIZE]\n"
"                 [--dirty_background_ratio N |\n"
"                  --dirty_background_bytes SIZE]\n"
"                 [--variant KEY=VALUE]... [--seed N]\n"
"                 [--replayable | --schedule S] [--steps N]\n"
"                 [--group-spans] [--speed]\n"
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
"                  then the device's 4 KiB page reads of the run and\n"
"                  XFS writeback's delalloc allocations\n"
"  --speed         print on stderr the simulation speed factor (virtual\n"
"                  seconds per host CPU second) and I/Os per host CPU\n"
"                  second; printed anyway when stderr is a terminal\n"
"  --fs-size SIZE  the filesystem's size (XFS or ext4): its free blocks at the\n"
"                  start, less the blocks the files are laid out with;\n"
"                  writes and fallocate past them get ENOSPC, as\n"
"                  v6.18 returns it (default: no count; fill_device\n"
"                  needs it)\n"
"  --dev-size SIZE the block device's size (a multiple of 512): what a\n"
"                  job on filename=/dev/... (the model's raw block device)\n"
"                  takes as its size without size= (fio's BLKGETSIZE64);\n"
"                  default: the device profile's capacity_bytes\n"
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
"  --steps N       the run's step bound: past it the run fails as\n"
"                  \"stuck\" (exit 1); default and most 10^11 steps\n"
"                  (65536 with --replayable or --schedule)\n"
"  --files-from STATE[,STATE...]\n"
"                  the run's files start with the blocks these verify\n"
"                  state files (local-NAME-N-verify.state, written by\n"
"                  an earlier run's verify_state_save) record: what\n"
"                  its write jobs left on the files of the same name\n"
"\n"
"Modelled job options: rw (rw=read:-N backwards), rwmixread, bs,\n"
"bsrange, bssplit, ba (blockalign), size, filesize, loops, name,\n"
"description, io_size, io_submit_mode (offload: null),\n"
"serialize_overlap, gtod_reduce, number_ios, numjobs, iodepth\n"
"(io_uring, libaio, posixaio), latency_target, latency_window,\n"
"latency_percentile, latency_run (libaio, posixaio, sync engines),\n"
"ioengine=psync|sync|pvsync|pvsync2|vsync|posixaio|null|\n"
"io_uring|libaio (libaio reads: when the model has them), verify,\n"
"verify_backlog, verify_backlog_batch, verify_interval, verify_dump,\n"
"verify_async, verify_pattern, experimental_verify, verify_state_save,\n"
"verify on\n"
"jobs that read, buffer_pattern, buffer_compress_percentage, dedupe_*,\n"
"refill_buffers (the last five: the bytes written, no effect),\n"
"direct (--fs=ext4), sync, fsync, fdatasync, sync_file_range,\n"
"end_fsync, overwrite, fallocate, filename, filename_format, directory,\n"
"nrfiles, offset, offset_increment, zonemode=strided, zonesize,\n"
"zonerange, zoneskip, rw=write:N, stonewall, file_append, uncached,\n"
"writethrough, runtime, time_based, ramp_time, startdelay, nowait,\n"
"atomic (fio 3.38+: RWF_ATOMIC writes), verify_write_sequence,\n"
"randseed, randrepeat, norandommap, invalidate, create_on_open,\n"
"sprandom, spr_op, spr_num_regions, spr_cs (fio 3.41's SPRandom),\n"
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

	for (uint32_t v = 0; v < R->cfg->variant_count; v++)
		kv[v] = R->cfg->variants[v];
	/* break= (a model bug on purpose) is for a check that must catch
	 * it: here fio's verify, so only a run with a verifying job. */
	for (uint32_t i = 0; i < R->cfg->job_count; i++)
		verifies |= R->cfg->jobs[i].verify[0] && R->cfg->jobs[i].do_verify;
	return timed_run_apply_variants(&R->world, kv, R->cfg->variant_count,
					"wpsim fio", verifies);
}

/*
 * Take wpsim's options out of @argv into @ra (and R->seed); the rest go
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
		} else if (!strncmp(a, "--files-from=", 13)) {
			ra->files_from = a + 13;
		} else if (!strcmp(a, "--files-from") && i + 1 < argc) {
			ra->files_from = argv[++i];
		} else if (!strncmp(a, "--cpu-profile=", 14)) {
			ra->cpu_profile = a + 14;
		} else if (!strcmp(a, "--cpu-profile") && i + 1 < argc) {
			ra->cpu_profile = argv[++i];
		} else if (!strncmp(a, "--steps=", 8) ||
			   (!strcmp(a, "--steps") && i + 1 < argc)) {
			const char *v = a[7] == '=' ? a + 8 : argv[++i];
			char *end;

			errno = 0;
			ra->steps = strtoull(v, &end, 10);
			if (!*v || *end || *v == '-' || errno || !ra->steps ||
			    ra->steps > SIM_STEPS_LONG_LIMIT)
				return run_error("--steps: expected a step "
						 "bound from 1 to 100000000000"
						 ", found '%s'", v);
		} else if (!strncmp(a, "--seed=", 7) ||
			   (!strcmp(a, "--seed") && i + 1 < argc)) {
			const char *v = a[6] == '=' ? a + 7 : argv[++i];
			char *end;

			R->seed = strtoull(v, &end, 0);
			if (!*v || *end)
				return run_error("--seed: expected an integer, "
						 "found '%s'", v);
		} else {
			args[(*nargs)++] = argv[i];
		}
		if (ra->help)
			return 0;
	}
	/* A replayable run keeps its schedule: SIM_STEPS_LIMIT choices. */
	if ((ra->replayable || ra->schedule) && ra->steps > SIM_STEPS_LIMIT)
		return run_error("%s", "--steps: a --replayable or --schedule "
				 "run keeps at most 65536 steps");
	return 0;
}

/* The machine: memory, CPUs, file system, device, variants, costs. */
static int machine_options(struct fio_config *cfg, const char *cpu_profile)
{
	int rc;

	if (cfg->mem_bytes && cfg->mem_bytes < 64 * PAGE_SIZE)
		return run_error("%s", "--mem: expected a page-cache limit of "
				 "at least 256k");
	R->cpus = cfg->cpus ? cfg->cpus : FIO_RUN_CPUS_DEFAULT;
	if (R->cpus > SIM_CPUS_MAX)
		return run_error("--cpus: the engine simulates at most 256 "
				 "CPUs, found %s", "more");
	R->ext4 = cfg->fs == FIO_FS_EXT4;
	rc = timed_run_device(cfg->device[0] ? cfg->device : NULL,
			      &R->profile);
	/* The raw block device's size: --dev-size, else the drive's. */
	R->dev_bytes = cfg->dev_bytes ? cfg->dev_bytes :
		       R->profile.capacity_bytes;
	if (!rc)
		rc = apply_variants();
	if (rc)
		return rc;
	/* The page cache's limit: clean folios are reclaimed past it. */
	R->world.mem_pages = (unsigned long)(cfg->mem_bytes >> PAGE_SHIFT);
	/* read_ahead_kb: the kernel's default, 128 KiB (buffered reads
	 * read ahead, model/mm/readahead.c). */
	R->world.ra_pages = KM_VM_READAHEAD_PAGES;
	rc = dirty_limits(cfg);
	if (!rc)
		rc = timed_run_cpu_profile(cpu_profile, &R->costs);
	return rc;
}

/*
 * wait_for=NAME (fio 3.33 init.c wait_for_ok, backend.c
 * waitee_running): the job starts once every job of that name (its
 * clones too) has exited.  fio refuses a job waiting for itself, an
 * unknown name and a name two job sections share; a waitee behind a
 * later stonewall would never start before it (fio waits forever), an
 * error here.  Return: 0 or 2 (the error printed).
 */
static int check_wait_for(const struct fio_config *cfg)
{
	for (unsigned int i = 0; i < R->njobs; i++) {
		const struct fio_job *j = &cfg->jobs[i];
		unsigned int sections = 0;
		bool later = false;

		if (!j->wait_for[0])
			continue;
		if (!strcmp(j->wait_for, j->name))
			return fio_run_job_error(j, "a job cannot wait for "
						 "itself (fio 3.33's check)");
		for (unsigned int k = 0; k < R->njobs; k++) {
			if (strcmp(cfg->jobs[k].name, j->wait_for))
				continue;
			sections += !cfg->jobs[k].jobnum;
			later |= R->jobs[k].wave > R->jobs[i].wave;
		}
		if (!sections)
			return fio_run_job_error(j, "wait_for names no job (fio "
						 "3.33: waitee job unknown)");
		if (sections > 1)
			return fio_run_job_error(j, "wait_for names two job "
						 "sections (fio 3.33: multiple "
						 "waitees found)");
		if (later)
			return fio_run_job_error(j, "wait_for names a job "
						 "behind a later stonewall: it "
						 "would never start before this "
						 "one");
	}
	return 0;
}

/* The jobs (checked, in stonewall waves) and their files. */
static int plan_jobs(struct fio_config *cfg)
{
	int rc;

	R->njobs = cfg->job_count;
	R->jobs = calloc(R->njobs, sizeof(*R->jobs));
	for (unsigned int i = 0; i < R->njobs; i++) {
		R->jobs[i].job = &cfg->jobs[i];
		R->jobs[i].index = i;
		R->jobs[i].result = fio_result_alloc(&cfg->jobs[i]);
		rc = fio_run_check_job(&cfg->jobs[i]);
		if (rc)
			return rc;
		/* stonewall: this job and those after it wait for every
		 * job before it (fio's wait_for_previous). */
		if (i && cfg->jobs[i].stonewall && !cfg->jobs[i].jobnum)
			R->waves++;
		R->jobs[i].wave = R->waves;
	}
	R->waves++;
	rc = check_wait_for(cfg);
	if (rc)
		return rc;
	if (R->njobs + 1 > 1000)
		return run_error("%s", "more than 999 jobs: the engine runs "
				 "1024 tasks, io-wq workers and kworkers "
				 "included");
	/* Each O_DIRECT I/O in flight on libaio or io_uring is a device
	 * event of its own (an engine task until it completes): the jobs
	 * of one stonewall wave, at their iodepth, beside their own tasks
	 * and a few of the model's (flusher, kworkers: 8 kept for them),
	 * must fit the engine's SIM_IDS_LIMIT (the device's tags bound
	 * the rest: 8 hardware queues x 1023 fit). */
	for (unsigned int w = 0; w < R->waves; w++) {
		unsigned int inflight = 0, tasks = 0;

		for (unsigned int i = 0; i < R->njobs; i++) {
			const struct fio_job *j = R->jobs[i].job;

			if (R->jobs[i].wave != w)
				continue;
			tasks++;
			if (j->direct && (j->ioengine == FIO_ENGINE_LIBAIO ||
					  j->ioengine == FIO_ENGINE_IO_URING))
				inflight += j->iodepth;
		}
		if (inflight + tasks + 8 > SIM_IDS_LIMIT) {
			fprintf(stderr, "wpsim fio: error: jobs that run at "
				"once keep %u O_DIRECT I/Os in flight "
				"(iodepth summed over them and their "
				"clones): with their %u tasks, more than the "
				"%d tasks and events the engine runs "
				"(SIM_IDS_LIMIT, include/sim/engine.h)\n",
				inflight, tasks, SIM_IDS_LIMIT);
			return EXIT_USAGE;
		}
	}
	return fio_run_plan_files();
}

/*
 * A failure's message, said for wpsim fio: the world's object bound
 * (model/world.c) tells a scenario to lower --max-pages, which wpsim fio
 * takes from its files' sizes, not from an option.
 */
static void bound_message(const char *message)
{
	static const char pages[] = " (lower --max-pages)";
	static const char option[] = "--max-pages ";
	const char *at = strstr(message, pages), *opt;

	if (!at) {
		fprintf(stderr, "%s\n", message);
		return;
	}
	/* "N file(s) of --max-pages P pages": of P pages. */
	opt = strstr(message, option);
	if (opt && opt < at) {
		fprintf(stderr, "%.*s", (int)(opt - message), message);
		message = opt + sizeof(option) - 1;
	}
	fprintf(stderr, "%.*s (wpsim fio sizes the pages from the jobs' files: "
		"a smaller size= or filesize= lowers them)%s\n",
		(int)(at - message), message, at + sizeof(pages) - 1);
}

/*
 * The step bound reached (the engine's "stuck"): which bound it was and
 * what moves it.  The engine's own words name `--steps` of check and
 * run; wpsim fio has its own --steps, whose limits depend on the run's
 * kind, so the line is said here.
 */
static void stuck_message(const struct run_args *ra, uint64_t bound)
{
	bool replay = ra->schedule || ra->replayable;
	uint64_t most = replay ? SIM_STEPS_LIMIT : SIM_STEPS_LONG_LIMIT;

	fprintf(stderr, "wpsim fio: the model failed (stuck): step bound "
		"reached: %" PRIu64 " steps and tasks still running; ",
		bound);
	if (bound < most)
		fprintf(stderr, "the bound is --steps %" PRIu64 ": raise it "
			"(at most %" PRIu64 "%s) or look for a livelock\n",
			bound, most, replay ? " with --replayable or "
			"--schedule; a run without them is a long run" : "");
	else if (replay)
		fprintf(stderr, "that is the most a %s run keeps: run "
			"without it (a long run, up to %" PRIu64 " steps) or "
			"look for a livelock\n", ra->schedule ? "--schedule" :
			"--replayable", (uint64_t)SIM_STEPS_LONG_LIMIT);
	else
		fprintf(stderr, "that is a long run's bound and the most "
			"--steps allows: shorten the job (runtime=, size=, "
			"io_size=, loops=, number_ios=) or look for a "
			"livelock\n");
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
		.cpus = R->cpus, .costs = R->costs.clock });
	m_cost_configure(&R->costs.model);
	R->progress = isatty(2);
	if (ra->schedule) {
		const char *perr2 = NULL;
		uint32_t count = 0;

		*choices = calloc(SIM_STEPS_LIMIT, sizeof(**choices));
		if (sim_schedule_parse(ra->schedule, *choices, SIM_STEPS_LIMIT,
				       &count, &perr2))
			return run_error("--schedule: %s", perr2 ? perr2 :
					 "bad");
		sim_strategy_replay(&strategy, *choices, count);
		exec.steps_max = ra->steps ? ra->steps : SIM_STEPS_LIMIT;
	} else {
		sim_strategy_timed(&strategy, R->seed, 1);
		if (ra->replayable) {
			exec.steps_max = ra->steps ? ra->steps :
					 SIM_STEPS_LIMIT;
		} else {
			exec.long_run = true;
			/* Its hash is printed only with --replayable
			 * or --schedule (fio_run_report). */
			exec.no_hash = true;
			/* Nor its event log: a long run makes no trace
			 * and prints no events. */
			exec.no_log = true;
			exec.steps_max = ra->steps ? ra->steps :
					 SIM_STEPS_LONG_LIMIT;
		}
	}
	R->world.long_run = exec.long_run;
	sim_exec_run(&fio_run_program, &strategy, &exec, outcome);
	sim_strategy_fini(&strategy);
	if (outcome->kind == SIM_OK)
		return 0;
	if (outcome->kind == SIM_FAIL_STUCK) {
		stuck_message(ra, exec.steps_max);
		return 1;
	}
	fprintf(stderr, "wpsim fio: the model failed (%s): ",
		sim_failure_kind_name(outcome->kind));
	bound_message(outcome->message);
	if (outcome->kind == SIM_FAIL_BOUND && !exec.long_run)
		fprintf(stderr, "wpsim fio: --replayable runs are bound to "
			"65536 steps and 4096 objects; run without it "
			"(reproduce by --seed)\n");
	return 1;
}

/* read_iolog=FILE on the sync engines and null: the job's I/O is the
 * iolog's (replay.c). */
static int run_read_iolog(struct fio_config *cfg, const struct run_args *ra,
			  const struct fio_job *j)
{
	if (cfg->job_count > 1 || ra->schedule || ra->replayable || R->ext4)
		return fio_run_job_error(j, "read_iolog with more than one job, "
				 "--replayable, --schedule or --fs=ext4 is "
				 "not modelled (one iolog, one job, XFS "
				 "buffered)");
	return wpsim_fio_replay_iolog(cfg, j, cfg->device[0] ? cfg->device :
				      FIO_RUN_DEVICE_DEFAULT, R->cpus, R->seed);
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

	memset(R, 0, sizeof(*R));
	R->seed = FIO_RUN_SEED_DEFAULT;
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
	R->cfg = &cfg;
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
		if (!cfg.jobs[i].read_iolog[0])
			continue;
		/* libaio, io_uring: the job runner issues the log's
		 * entries (fio-iolog.c); else replay.c. */
		if (!fio_iolog_runner(&cfg.jobs[i])) {
			rc = run_read_iolog(&cfg, &ra, &cfg.jobs[i]);
			goto out;
		}
		if (cfg.job_count > 1) {
			rc = fio_run_job_error(&cfg.jobs[i], "read_iolog with "
					       "more than one job is not "
					       "modelled (one iolog, one "
					       "job)");
			goto out;
		}
		rc = fio_iolog_load(&cfg.jobs[i]);
		if (rc)
			goto out;
	}
	rc = plan_jobs(&cfg);
	if (!rc)
		rc = fio_vstate_plan(ra.files_from);
	if (!rc)
		rc = execute_run(&ra, &choices, &outcome);
	/* Each job's verify state at its end (fio's thread_main). */
	if (!rc)
		fio_vstate_save();
	if (!rc)
		rc = fio_run_report(&ra, &outcome);
	if (!rc && wpsim_stop_signal()) {
		fprintf(stderr, "wpsim fio: stopped by %s: the report covers "
			"the I/O issued before it\n", wpsim_stop_signal_name());
		rc = EXIT_INCOMPLETE;
	}
out:
	fio_iolog_free();
	fio_vstate_free();
	fio_run_files_free();
	fio_ss_free();
	fio_prio_free();
	for (unsigned int i = 0; R->jobs && i < R->njobs; i++)
		free(R->jobs[i].result);
	free(R->jobs);
	free(choices);
	fio_config_free(&cfg);
	return rc;
}
