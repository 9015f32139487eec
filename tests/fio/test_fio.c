// SPDX-License-Identifier: MIT
/*
 * tests/fio/test_fio.c - the fio front end (tools/fio/): fio's value
 * syntax (sizes under both kb_base, times, booleans, flags), every
 * modelled option, every error with its exact position and text, job
 * files ([global] inheritance, numjobs, include, ${VAR}, comments), the
 * seed command lines and workloads, the showcmd round trip, the latency
 * histogram's percentiles against exact ones on known distributions,
 * the running statistics and their merge, and fio's num2str.
 *
 * The size cases marked "fio 3.33" were checked against fio 3.33
 * itself (io_bytes of a run): its code, not its HOWTO, reads "1mi" as
 * 1 MiB and "4KiB" as 4000 bytes under the default kb_base=1024.
 */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/fio/fio.h"
#include "tools/fio/internal.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define ARGS_MAX	64

#ifndef FIO_TEST_SOURCE_DIR
#define FIO_TEST_SOURCE_DIR "."
#endif

/* Split @line on spaces into argv (argv[0] = "fio"); parse it. */
static int parse_line(const char *line, struct fio_config *cfg,
		      struct fio_error *err)
{
	static char buf[8192];
	char *argv[ARGS_MAX], *save = NULL, *tok;
	int argc = 0;

	snprintf(buf, sizeof(buf), "%s", line);
	argv[argc++] = "fio";
	for (tok = strtok_r(buf, " ", &save); tok && argc < ARGS_MAX;
	     tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	memset(err, 0, sizeof(*err));
	fio_config_init(cfg);
	return fio_parse_argv(argc, argv, cfg, err);
}

/* Parse a command line that must be good; one job expected first. */
static struct fio_config good(const char *line)
{
	struct fio_config cfg;
	struct fio_error err;

	if (parse_line(line, &cfg, &err))
		cr_assert_fail("'%s': %s", line, err.text);
	cr_assert_gt(cfg.job_count, 0);
	return cfg;
}

static void bad(const char *line, const char *text)
{
	struct fio_config cfg;
	struct fio_error err;

	cr_assert_eq(parse_line(line, &cfg, &err), -1, "'%s' parsed", line);
	cr_assert_str_eq(err.text, text, "'%s'", line);
	fio_config_free(&cfg);
}

static int parse_text(const char *file, const char *text,
		      struct fio_config *cfg, struct fio_error *err)
{
	memset(err, 0, sizeof(*err));
	fio_config_init(cfg);
	if (fio_parse_jobfile(file, text, strlen(text), cfg, err))
		return -1;
	return fio_config_finish(cfg, err);
}

static struct fio_config good_text(const char *text)
{
	struct fio_config cfg;
	struct fio_error err;

	if (parse_text("job.fio", text, &cfg, &err))
		cr_assert_fail("%s", err.text);
	return cfg;
}

static void bad_text(const char *text, const char *want)
{
	struct fio_config cfg;
	struct fio_error err;

	cr_assert_eq(parse_text("job.fio", text, &cfg, &err), -1);
	cr_assert_str_eq(err.text, want);
	fio_config_free(&cfg);
}

/* ------------------------------------------------------------------ */
/* Value syntax                                                        */

Test(fio_values, sizes_follow_fio_3_33)
{
	static const struct {
		const char *text;
		uint32_t kb_base;
		uint64_t bytes;
	} cases[] = {
		{ "4096", 1024, 4096 }, { "4k", 1024, 4096 },
		{ "4K", 1024, 4096 }, { "4kb", 1024, 4096 },
		{ "4kB", 1024, 4096 },		/* fio 3.33 */
		{ "4KB", 1024, 4096 }, { "4b", 1024, 4 }, { "4B", 1024, 4 },
		{ "4KiB", 1024, 4000 },		/* fio 3.33 */
		{ "1mib", 1024, 1000000 },	/* fio 3.33 */
		{ "1mi", 1024, 1048576 },	/* fio 3.33, not its HOWTO */
		{ "1000ki", 1024, 1024000 },	/* fio 3.33 */
		{ "1m", 1024, 1048576 }, { "2G", 1024, 2147483648ull },
		{ "5g", 1024, 5368709120ull },
		{ "1t", 1024, 1099511627776ull },
		{ "1p", 1024, 1125899906842624ull },
		{ "1tib", 1024, 1000000000000ull },
		{ "0x10", 1024, 16 }, { "0XfF", 1024, 255 },
		{ "4k", 1000, 4000 }, { "4KiB", 1000, 4096 },
		{ "1mib", 1000, 1048576 }, { "1g", 1000, 1000000000 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		uint64_t bytes;
		uint32_t pct;
		size_t bad_at;

		cr_assert_eq(fio_parse_size(cases[i].text, cases[i].kb_base,
					    false, &bytes, &pct, &bad_at), 0,
			     "%s", cases[i].text);
		cr_assert_eq(bytes, cases[i].bytes, "%s: %llu", cases[i].text,
			     (unsigned long long)bytes);
	}
}

Test(fio_values, bad_sizes_stop_where_they_stop_making_sense)
{
	static const struct {
		const char *text;
		bool percent_ok;
		size_t bad_at;
	} cases[] = {
		{ "4x", false, 1 }, { "1.5g", false, 1 }, { "0x10k", false, 4 },
		{ "", false, 0 }, { "-1", false, 0 }, { "k", false, 0 },
		{ "4kfoo", false, 1 }, { "0x", false, 2 },
		{ "99999999999999999999", false, 0 }, { "16385p", false, 0 },
		{ "50%", false, 2 }, { "0%", true, 0 }, { "101%", true, 0 },
		{ "10z", false, 2 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		uint64_t bytes;
		uint32_t pct;
		size_t bad_at = 99;

		cr_assert_eq(fio_parse_size(cases[i].text, 1024,
					    cases[i].percent_ok, &bytes, &pct,
					    &bad_at), -1, "%s", cases[i].text);
		cr_assert_eq(bad_at, cases[i].bad_at, "%s: %zu", cases[i].text,
			     bad_at);
	}
}

Test(fio_values, percentages_where_fio_takes_them)
{
	uint64_t bytes;
	uint32_t pct;
	size_t bad_at;

	cr_assert_eq(fio_parse_size("50%", 1024, true, &bytes, &pct, &bad_at),
		     0);
	cr_assert_eq(pct, 50);
	cr_assert_eq(fio_parse_size("100%", 1024, true, &bytes, &pct,
				    &bad_at), 0);
	cr_assert_eq(pct, 100);
}

Test(fio_values, times_default_to_seconds)
{
	static const struct {
		const char *text;
		uint64_t ns;
	} cases[] = {
		{ "10", 10000000000ull }, { "10s", 10000000000ull },
		{ "10S", 10000000000ull }, { "500ms", 500000000 },
		{ "500msec", 500000000 }, { "250us", 250000 },
		{ "250usec", 250000 }, { "2m", 120000000000ull },
		{ "1h", 3600000000000ull }, { "1d", 86400000000000ull },
		{ "0", 0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		uint64_t ns;
		size_t bad_at;

		cr_assert_eq(fio_parse_time(cases[i].text, 1000000, &ns,
					    &bad_at), 0, "%s", cases[i].text);
		cr_assert_eq(ns, cases[i].ns, "%s", cases[i].text);
	}
}

Test(fio_values, bad_times)
{
	/* fio 3.33 reads "10sec" as 10 us; wpsim refuses it. */
	static const char *const cases[] = { "10sec", "1.5", "10x", "", "s",
					     "10 s" };

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		uint64_t ns;
		size_t bad_at;

		cr_assert_eq(fio_parse_time(cases[i], 1000000, &ns, &bad_at),
			     -1, "%s", cases[i]);
	}
}

/* ------------------------------------------------------------------ */
/* Options                                                             */

Test(fio_options, defaults_are_fio_s)
{
	struct fio_config cfg = good("--name=d");
	const struct fio_job *j = &cfg.jobs[0];

	cr_assert_str_eq(j->name, "d");
	cr_assert_eq(j->rw, FIO_RW_READ);
	cr_assert_eq(j->bs[0], 4096);
	cr_assert_eq(j->bs[1], 4096);
	cr_assert_eq(j->numjobs, 1);
	cr_assert_eq(j->iodepth, 1);
	cr_assert_eq(j->ioengine, FIO_ENGINE_PSYNC);
	cr_assert_eq(j->rwmixread, 50);
	cr_assert_eq(j->randseed, 0x89);
	cr_assert(j->randrepeat);
	cr_assert(j->invalidate);
	cr_assert_eq(j->replay_time_scale, 100);
	cr_assert_eq(j->kb_base, 1024);
	cr_assert_not(j->size.set);
	cr_assert_str_eq(j->filename_format, "$jobname.$jobnum.$filenum");
	cr_assert_not(cfg.implicit_job);
	cr_assert_eq(cfg.output_format, FIO_OUTPUT_NORMAL);
	fio_config_free(&cfg);
}

Test(fio_options, each_modelled_option_sets_its_field)
{
	struct fio_config cfg = good(
		"--name=all --rw=randrw:8 --rwmixwrite=30 --bs=4k,16k "
		"--size=2G --io_limit=50% --number_ios=1000 --numjobs=2 "
		"--iodepth=32 --ioengine=io_uring --buffered=0 --sync=dsync "
		"--fsync=4 --fdatasync=8 "
		"--sync_file_range=wait_before,write:16 "
		"--end_fsync=1 --file_append=1 --overwrite=1 "
		"--filename=a\\:1:/abs/b --directory=/d --offset=4k "
		"--offset_increment=1m --zonesize=64k --zoneskip=1m "
		"--runtime=1m --time_based --ramp_time=500ms "
		"--startdelay=2 --uncached=1 --hipri --nowait=1 "
		"--group_reporting --randseed=0x1234 --randrepeat=0 "
		"--norandommap --random_generator=lfsr --thread "
		"--fallocate=none --create_on_open=1 --invalidate=0 "
		"--write_iolog=w.log --read_iolog=r.log --replay_no_stall=1 "
		"--replay_time_scale=50 --new_group");
	const struct fio_job *j = &cfg.jobs[0];
	char name[64];

	cr_assert_eq(cfg.job_count, 2);
	cr_assert_eq(j->rw, FIO_RW_RANDRW);
	cr_assert_eq(j->rw_seq_nr, 8);
	cr_assert_eq(j->rwmixread, 70);
	cr_assert_eq(j->bs[0], 4096);
	cr_assert_eq(j->bs[1], 16384);
	cr_assert_eq(j->bs[2], 16384);
	cr_assert_eq(j->size.bytes, 2147483648ull);
	cr_assert_eq(j->io_size.percent, 50);
	cr_assert_eq(j->number_ios, 1000);
	cr_assert_eq(j->numjobs, 2);
	cr_assert_eq(j->iodepth, 32);
	cr_assert_eq(j->ioengine, FIO_ENGINE_IO_URING);
	cr_assert(j->direct);
	cr_assert_eq(j->sync, FIO_SYNC_DSYNC);
	cr_assert_eq(j->fsync_blocks, 4);
	cr_assert_eq(j->fdatasync_blocks, 8);
	cr_assert_eq(j->sfr_flags, FIO_SFR_WAIT_BEFORE | FIO_SFR_WRITE);
	cr_assert_eq(j->sfr_nr, 16);
	cr_assert(j->end_fsync && j->file_append && j->overwrite);
	cr_assert_eq(j->filename_count, 2);
	cr_assert_eq(j->nrfiles, 2);
	cr_assert_eq(fio_job_file_name(j, 0, name, sizeof(name)), 0);
	cr_assert_str_eq(name, "/d/a:1");
	cr_assert_eq(fio_job_file_name(j, 1, name, sizeof(name)), 0);
	cr_assert_str_eq(name, "/abs/b");
	cr_assert_eq(j->offset.bytes, 4096);
	cr_assert_eq(j->offset_increment.bytes, 1048576);
	/* zonesize without zonemode: strided, zonerange = zonesize. */
	cr_assert_eq(j->zonemode, FIO_ZONEMODE_STRIDED);
	cr_assert_eq(j->zonesize, 65536);
	cr_assert_eq(j->zoneskip, 1048576);
	cr_assert_eq(j->zonerange, 65536);
	cr_assert_eq(j->runtime_ns, 60000000000ull);
	cr_assert(j->time_based);
	cr_assert_eq(j->ramp_time_ns, 500000000);
	cr_assert_eq(j->startdelay_ns, 2000000000ull);
	cr_assert_eq(j->uncached, 1);
	cr_assert(j->hipri && j->nowait && j->group_reporting);
	cr_assert_eq(j->randseed, 0x1234);
	cr_assert_not(j->randrepeat);
	cr_assert(j->norandommap);
	cr_assert_eq(j->random_generator, FIO_RANDGEN_LFSR);
	cr_assert(j->thread);
	cr_assert_eq(j->fallocate, FIO_FALLOCATE_NONE);
	cr_assert(j->create_on_open);
	cr_assert_not(j->invalidate);
	cr_assert_str_eq(j->write_iolog, "w.log");
	cr_assert_str_eq(j->read_iolog, "r.log");
	cr_assert(j->replay_no_stall);
	cr_assert_eq(j->replay_time_scale, 50);
	cr_assert(j->new_group);
	fio_config_free(&cfg);
}

Test(fio_options, aliases_engines_and_sync_values)
{
	static const struct {
		const char *line;
		int engine;
		int sync;
	} cases[] = {
		{ "--name=a --ioengine=psync --sync=none", FIO_ENGINE_PSYNC,
		  FIO_SYNC_NONE },
		{ "--name=a --ioengine=sync --sync=0", FIO_ENGINE_SYNC,
		  FIO_SYNC_NONE },
		{ "--name=a --ioengine=pvsync2 --sync=1", FIO_ENGINE_PVSYNC2,
		  FIO_SYNC_SYNC },
		{ "--name=a --ioengine=libaio --sync=sync", FIO_ENGINE_LIBAIO,
		  FIO_SYNC_SYNC },
		{ "--name=a --ioengine io_uring --sync dsync",
		  FIO_ENGINE_IO_URING, FIO_SYNC_DSYNC },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct fio_config cfg = good(cases[i].line);

		cr_assert_eq(cfg.jobs[0].ioengine, cases[i].engine);
		cr_assert_eq(cfg.jobs[0].sync, cases[i].sync);
		fio_config_free(&cfg);
	}
	{
		struct fio_config cfg = good("--name=a --readwrite=rw:4k "
					     "--blocksize=8k --timeout=5 "
					     "--io_size=1m --fileoffset=10% "
					     "--nr_files=3 --kb_base=1000 "
					     "--size=1k --direct=1");
		const struct fio_job *j = &cfg.jobs[0];
		char name[64];

		cr_assert_eq(j->rw, FIO_RW_RW);
		cr_assert_eq(j->rw_seq_add, 4096);
		cr_assert_eq(j->bs[1], 8192);
		cr_assert_eq(j->runtime_ns, 5000000000ull);
		cr_assert_eq(j->io_size.bytes, 1048576);
		cr_assert_eq(j->offset.percent, 10);
		cr_assert_eq(j->nrfiles, 3);
		/* kb_base=1000 applies to the values after it. */
		cr_assert_eq(j->size.bytes, 1000);
		cr_assert_eq(fio_job_file_count(j), 3);
		cr_assert_eq(fio_job_file_name(j, 2, name, sizeof(name)), 0);
		cr_assert_str_eq(name, "a.0.2");
		fio_config_free(&cfg);
	}
}

Test(fio_options, bs_lists_as_fio_reads_them)
{
	struct fio_config cfg = good("--name=a --bs=,8k "
				     "--name=b --bs=1k,2k,3k");

	/* An empty first value keeps read's; later ones default on. */
	cr_assert_eq(cfg.jobs[0].bs[0], 4096);
	cr_assert_eq(cfg.jobs[0].bs[1], 8192);
	cr_assert_eq(cfg.jobs[0].bs[2], 8192);
	cr_assert_eq(cfg.jobs[1].bs[0], 1024);
	cr_assert_eq(cfg.jobs[1].bs[1], 2048);
	cr_assert_eq(cfg.jobs[1].bs[2], 3072);
	fio_config_free(&cfg);
}

Test(fio_options, wpsim_and_fio_command_line_options)
{
	struct fio_config cfg = good(
		"--variant writethrough=v3 --variant=dontcache=v12 "
		"--device plp-enterprise --cpus 8 --fs xfs --mem 2g "
		"--output-format=json+,normal --output=out.json --parse-only "
		"--name=j");

	cr_assert_eq(cfg.variant_count, 2);
	cr_assert_str_eq(cfg.variants[0], "writethrough=v3");
	cr_assert_str_eq(cfg.variants[1], "dontcache=v12");
	cr_assert_str_eq(cfg.device, "plp-enterprise");
	cr_assert_eq(cfg.cpus, 8);
	cr_assert_eq(cfg.fs, FIO_FS_XFS);
	cr_assert_eq(cfg.mem_bytes, 2147483648ull);
	cr_assert_eq(cfg.output_format, FIO_OUTPUT_NORMAL | FIO_OUTPUT_JSON |
		     FIO_OUTPUT_JSON_PLUS);
	cr_assert_str_eq(cfg.output, "out.json");
	cr_assert(cfg.parse_only);
	cr_assert_not(cfg.showcmd);
	fio_config_free(&cfg);
}

Test(fio_options, flags_take_no_value_and_bools_need_one)
{
	struct fio_config cfg = good("--name=a --time_based=0 --thread=1 "
				     "--group_reporting");

	cr_assert_not(cfg.jobs[0].time_based);
	cr_assert(cfg.jobs[0].thread);
	cr_assert(cfg.jobs[0].group_reporting);
	fio_config_free(&cfg);
	/* fio takes the next argument as a bool's value, and fails. */
	bad("--name=a --direct --size=1m",
	    "<command line>:3:1: error: expected 0 or 1 for direct, found "
	    "'--size=1m'");
}

Test(fio_options, errors_name_the_place_and_what_was_expected)
{
	bad("--name=x --bs=4q",
	    "<command line>:2:7: error: expected an integer for bs (digits or "
	    "0x hex, then k/m/g/t/p with optional b or ib), found 'q'");
	bad("--name=x --bs=4k-16k",
	    "<command line>:2:8: error: expected a block size or a read,write "
	    "pair for bs (a range is bsrange's), "
	    "found '4k-16k'");
	bad("--name=x --size=101%",
	    "<command line>:2:8: error: expected a size or a percentage "
	    "1%..100% for size (digits or 0x hex, then k/m/g/t/p with "
	    "optional b or ib), found '101%'");
	bad("--name=x --runtime=10sec",
	    "<command line>:2:13: error: expected a time for runtime (digits, "
	    "then d, h, m, s, ms, msec, us or usec; seconds if none), found "
	    "'sec'");
	bad("--name=x --rw=trimread",
	    "<command line>:2:6: error: expected rw value (read, write, rw, "
	    "readwrite, randread, randwrite, randrw, trim, randtrim, "
	    "trimwrite, randtrimwrite), found 'trimread'");
	bad("--name=x --rw=randwrite:x",
	    "<command line>:2:16: error: expected an integer for rw=...:N "
	    "(digits or 0x hex, then k/m/g/t/p with optional b or ib), found "
	    "'x'");
	bad("--name=x --ioengine=rdma",
	    "<command line>:2:12: error: expected ioengine value (psync, sync, "
	    "pvsync2, libaio, io_uring, null, vsync, pvsync, posixaio, mmap), "
	    "found 'rdma'");
	bad("--name=x --sync_file_range=wait_before,frob:4",
	    "<command line>:2:31: error: expected sync_file_range flags "
	    "(wait_before, write, wait_after, comma-separated, then optional "
	    ":N), found 'frob'");
	bad("--name=x --filename=a::b",
	    "<command line>:2:14: error: expected a file name on each side of "
	    "':' in filename, found an empty one");
	bad("--name=x --directory=a:b",
	    "<command line>:2:14: error: expected one directory (several, "
	    "':'-separated, are not modelled), found ':'");
	bad("--name=x --zonemode=strided",
	    "<command line>:2:1: error: expected zonesize with "
	    "zonemode=strided (fio: --zonesize must be specified), found none");
	bad("--name=x --zonemode=none --zonesize=4k",
	    "<command line>:2:1: error: expected zonemode=strided with "
	    "zonesize (fio: --zonemode=none and --zonesize are not "
	    "compatible), found zonemode=none");
	bad("--name=x --hipri",
	    "<command line>:2:1: error: expected ioengine=pvsync2, io_uring "
	    "for hipri (an option of those engines only), found "
	    "ioengine=psync");
	bad("--name=x --ioengine=libaio --uncached=1",
	    "<command line>:3:1: error: expected ioengine=pvsync2, io_uring "
	    "for uncached (an option of those engines only), found "
	    "ioengine=libaio");
	bad("--name=x --nowait=1",
	    "<command line>:2:1: error: expected ioengine=pvsync2, libaio, "
	    "io_uring for nowait (an option of those engines only), found "
	    "ioengine=psync");
	bad("--name=x --writethrough=1",
	    "<command line>:2:1: error: expected ioengine=pvsync2, libaio, "
	    "io_uring for writethrough (an option of those engines only), "
	    "found ioengine=psync");
	bad("--name=x --numjobs=0",
	    "<command line>:2:11: error: expected numjobs in 1..1024, found 0");
	bad("--name=x --iodepth=0",
	    "<command line>:2:11: error: expected iodepth in 1..65536, "
	    "found 0");
	bad("--name=x --rwmixread=101",
	    "<command line>:2:13: error: expected rwmixread in 0..100, found "
	    "101");
	bad("--name=x --time_based=yes",
	    "<command line>:2:14: error: expected an integer for time_based "
	    "(digits or 0x hex, then k/m/g/t/p with optional b or ib), found "
	    "'yes'");
	bad("--name=x --iodepth",
	    "<command line>:2:1: error: expected a value after --iodepth, "
	    "found end of command line");
	bad("--name=x --showcmd=1",
	    "<command line>:2:11: error: expected --showcmd without a value, "
	    "found '1'");
	bad("--name= --bs=4k",
	    "<command line>:1:8: error: expected a job name of 1..255 bytes "
	    "(FIO_NAME_LEN_MAX), found 0 bytes");
	bad("--name=global --bs=4k",
	    "<command line>:1:1: error: expected a job (--name=NAME, job "
	    "options or a job file), found none");
	bad("--name=x --output-format=terse",
	    "<command line>:2:17: error: expected output format normal, json "
	    "or json+ (comma-separated; terse is not modelled), found 'terse'");
	bad("--name=x --variant foo",
	    "<command line>:3:1: error: expected --variant KEY=VALUE, found "
	    "'foo'");
	bad("--name=x --fs btrfs",
	    "<command line>:3:1: error: expected --fs xfs or ext4, found "
	    "'btrfs'");
	bad("--name=x --cpus 0",
	    "<command line>:3:1: error: expected --cpus 1..1024, found '0'");
	bad("--name=x --mem 1q",
	    "<command line>:3:2: error: expected --mem SIZE (digits, then "
	    "k/m/g/t), found '1q'");
	bad("--name=x --bs=4k,8k,16k,32k",
	    "<command line>:2:16: error: expected at most 3 block sizes "
	    "(read,write,trim) for bs, found a fourth");
	bad("--name=x /nonexistent/job.fio",
	    "<command line>:2:1: error: expected a readable job file, found "
	    "'/nonexistent/job.fio' (No such file or directory)");
}

Test(fio_options, an_unmodelled_option_is_an_error_listing_the_modelled)
{
	struct fio_config cfg;
	struct fio_error err;

	cr_assert_eq(parse_line("--name=x --gtod_cpu=1", &cfg, &err), -1);
	cr_assert_eq(err.line, 2);
	cr_assert_eq(err.col, 1);
	cr_assert(strstr(err.message, "found '--gtod_cpu'"), "%s",
		  err.message);
	/* Every modelled option is named in the message. */
	for (size_t i = 0; i < fio_optdef_count; i++)
		cr_assert(strstr(err.message, fio_optdefs[i].name), "%s",
			  fio_optdefs[i].name);
	cr_assert(strstr(err.message, "--variant"));
	fio_config_free(&cfg);
}

/* ------------------------------------------------------------------ */
/* Job files                                                           */

Test(fio_jobfile, global_applies_to_the_jobs_below_it)
{
	struct fio_config cfg = good_text(
		"; comment\n"
		"# another\n"
		"[global]\n"
		"bs=8k\n"
		"ioengine = libaio   ; inline comment, cut as fio cuts it\n"
		"[a]\n"
		"rw=write\n"
		"[global]\n"
		"iodepth=16\n"
		"[b]\n"
		"rw=randwrite\n"
		"bs=16k\n");

	cr_assert_eq(cfg.job_count, 2);
	cr_assert_str_eq(cfg.jobs[0].name, "a");
	cr_assert_eq(cfg.jobs[0].bs[1], 8192);
	cr_assert_eq(cfg.jobs[0].ioengine, FIO_ENGINE_LIBAIO);
	cr_assert_eq(cfg.jobs[0].iodepth, 1);
	cr_assert_eq(cfg.jobs[1].bs[1], 16384);
	cr_assert_eq(cfg.jobs[1].iodepth, 16);
	cr_assert_eq(cfg.jobs[1].ioengine, FIO_ENGINE_LIBAIO);
	cr_assert_eq(cfg.section_count, 4);
	cr_assert(cfg.sections[0].global);
	cr_assert_eq(cfg.sections[0].given_count, 2);
	cr_assert_str_eq(cfg.sections[0].given[1].value, "libaio");
	fio_config_free(&cfg);
}

Test(fio_jobfile, numjobs_expands_into_clones)
{
	struct fio_config cfg = good_text(
		"[w]\nrw=write\nnumjobs=3\nfilename_format=f.$jobnum\n"
		"[x]\nrw=read\n");
	char name[32];

	cr_assert_eq(cfg.job_count, 4);
	for (uint32_t i = 0; i < 3; i++) {
		cr_assert_str_eq(cfg.jobs[i].name, "w");
		cr_assert_eq(cfg.jobs[i].jobnum, i);
		cr_assert_eq(cfg.jobs[i].section, 0);
		cr_assert_eq(fio_job_file_name(&cfg.jobs[i], 0, name,
					       sizeof(name)), 0);
		snprintf(name + 16, 16, "f.%u", i);
		cr_assert_str_eq(name, name + 16);
	}
	cr_assert_str_eq(cfg.jobs[3].name, "x");
	cr_assert_eq(cfg.jobs[3].jobnum, 0);
	cr_assert_eq(fio_job_file_name(&cfg.jobs[3], 0, name, sizeof(name)),
		     0);
	cr_assert_str_eq(name, "x.0.0");
	fio_config_free(&cfg);
}

Test(fio_jobfile, env_vars_and_pagesize_expand)
{
	struct fio_config cfg;

	setenv("WPSIM_FIO_TEST_BS", "64k", 1);
	unsetenv("WPSIM_FIO_TEST_UNSET");
	cfg = good_text("[a]\nbs=${WPSIM_FIO_TEST_BS}\n"
			"filename=f${WPSIM_FIO_TEST_UNSET}x\n"
			"size=$pagesize\n");
	cr_assert_eq(cfg.jobs[0].bs[0], 65536);
	cr_assert_str_eq(cfg.jobs[0].filename, "fx");
	cr_assert_eq(cfg.jobs[0].size.bytes, 4096);
	cr_assert_str_eq(cfg.sections[0].given[0].value, "64k");
	fio_config_free(&cfg);
	bad_text("[a]\nnumjobs=$ncpus\n",
		 "job.fio:2:9: error: expected a value that does not depend on "
		 "the host, found '$ncpus' (give the number; --cpus and --mem "
		 "set the model's)");
}

Test(fio_jobfile, errors_point_into_the_file)
{
	bad_text("bs=4k\n[a]\n",
		 "job.fio:1:1: error: expected a [section] before options, "
		 "found 'bs=4k'");
	bad_text("[a]\n  bs = 4q\n",
		 "job.fio:2:9: error: expected an integer for bs (digits or 0x "
		 "hex, then k/m/g/t/p with optional b or ib), found 'q'");
	bad_text("[a]\ndirect\n",
		 "job.fio:2:1: error: expected direct=0 or direct=1 (fio "
		 "requires the value of a bool option), found direct alone");
	bad_text("[a\n",
		 "job.fio:1:3: error: expected '[NAME]' alone on the line, "
		 "found '[a'");
	bad_text("[a] x\n",
		 "job.fio:1:3: error: expected '[NAME]' alone on the line, "
		 "found '[a] x'");
	bad_text("[a]\nfrob=1\n",
		 "job.fio:2:1: error: expected an option wpsim models (rw, "
		 "rwmixread, rwmixwrite, bs, ba, bsrange, bssplit, size, io_size, "
		 "filesize, loops, "
		 "verify, do_verify, verify_fatal, verify_write_sequence, "
		 "verify_backlog, "
		 "verify_backlog_batch, verify_dump, verify_async, "
		 "verify_interval, "
		 "verify_pattern, buffer_pattern, experimental_verify, "
		 "verify_state_save, verify_state_load, "
		 "buffer_compress_percentage, dedupe_percentage, dedupe_mode, "
		 "dedupe_global, dedupe_working_set_percentage, "
		 "refill_buffers, "
		 "description, io_submit_mode, serialize_overlap, "
		 "gtod_reduce, name, "
		 "number_ios, "
		 "numjobs, iodepth, iodepth_batch, iodepth_batch_complete_min, "
		 "iodepth_batch_complete_max, iodepth_low, "
		 "ioengine, direct, buffered, sync, fsync, "
		 "fdatasync, sync_file_range, end_fsync, file_append, "
		 "overwrite, filename, filename_format, directory, nrfiles, "
		 "offset, offset_increment, zonemode, zonesize, zoneskip, "
		 "zonerange, runtime, time_based, ramp_time, startdelay, "
		 "uncached, writethrough, hipri, nowait, atomic, "
		 "group_reporting, "
		 "randseed, randrepeat, norandommap, random_generator, sprandom, "
		 "spr_op, spr_num_regions, spr_cs, thread, "
		 "fallocate, create_on_open, invalidate, write_iolog, "
		 "read_iolog, replay_no_stall, replay_time_scale, wait_for, "
		 "stonewall, new_group, kb_base, write_bw_log, write_lat_log, "
		 "write_iops_log, log_avg_msec, log_window_value, per_job_logs, "
		 "log_offset, log_issue_time, "
		 /* Pacing (options-pace.c). */
		 "rate, rate_min, rate_iops, rate_iops_min, rate_process, "
		 "rate_cycle, rate_ignore_thinktime, thinktime, "
		 "thinktime_spin, thinktime_blocks, thinktime_blocks_type, "
		 "thinktime_iotime, flow_id, flow, flow_sleep, flow_watermark, "
		 "random_distribution, random_sequence_stride, log_prio, "
		 "cpus_allowed, cpus_allowed_policy, cpumask, "
		 "verify_async_cpus, numa_cpu_nodes, "
		 "numa_mem_policy, threads, exitall, exit_what, "
		 "exitall_on_error, continue_on_error, ignore_error, error_dump, "
		 "fill_device, create_serialize, latency_target, latency_window, "
		 "latency_percentile, latency_run, steadystate, "
		 "steadystate_duration, steadystate_ramp_time, "
		 "steadystate_check_interval, prio, prioclass, "
		 "cmdprio_percentage, cmdprio_class, cmdprio, "
		 "cmdprio_bssplit"
		 "), found 'frob' (wpsim never ignores an "
		 "option)");
	bad_text("[a]\noutput-format=json\n",
		 "job.fio:2:1: error: expected a job option, found "
		 "command-line option 'output-format' (give it as "
		 "--output-format on the command line)");
	bad_text("[a]\nrw=write\n\nsize=1x\n",
		 "job.fio:4:7: error: expected a size or a percentage 1%..100% "
		 "for size (digits or 0x hex, then k/m/g/t/p with optional "
		 "b or ib), found 'x'");
	bad_text("[global]\nbs=4k\n",
		 "<command line>:1:1: error: expected a job (--name=NAME, job "
		 "options or a job file), found none");
	bad_text("[a]\ninclude\t\n",
		 "job.fio:2:1: error: expected an option wpsim models (rw, "
		 "rwmixread, rwmixwrite, bs, ba, bsrange, bssplit, size, io_size, "
		 "filesize, loops, "
		 "verify, do_verify, verify_fatal, verify_write_sequence, "
		 "verify_backlog, "
		 "verify_backlog_batch, verify_dump, verify_async, "
		 "verify_interval, "
		 "verify_pattern, buffer_pattern, experimental_verify, "
		 "verify_state_save, verify_state_load, "
		 "buffer_compress_percentage, dedupe_percentage, dedupe_mode, "
		 "dedupe_global, dedupe_working_set_percentage, "
		 "refill_buffers, "
		 "description, io_submit_mode, serialize_overlap, "
		 "gtod_reduce, name, "
		 "number_ios, "
		 "numjobs, iodepth, iodepth_batch, iodepth_batch_complete_min, "
		 "iodepth_batch_complete_max, iodepth_low, "
		 "ioengine, direct, buffered, sync, fsync, "
		 "fdatasync, sync_file_range, end_fsync, file_append, "
		 "overwrite, filename, filename_format, directory, nrfiles, "
		 "offset, offset_increment, zonemode, zonesize, zoneskip, "
		 "zonerange, runtime, time_based, ramp_time, startdelay, "
		 "uncached, writethrough, hipri, nowait, atomic, "
		 "group_reporting, "
		 "randseed, randrepeat, norandommap, random_generator, sprandom, "
		 "spr_op, spr_num_regions, spr_cs, thread, "
		 "fallocate, create_on_open, invalidate, write_iolog, "
		 "read_iolog, replay_no_stall, replay_time_scale, wait_for, "
		 "stonewall, new_group, kb_base, write_bw_log, write_lat_log, "
		 "write_iops_log, log_avg_msec, log_window_value, per_job_logs, "
		 "log_offset, log_issue_time, "
		 /* Pacing (options-pace.c). */
		 "rate, rate_min, rate_iops, rate_iops_min, rate_process, "
		 "rate_cycle, rate_ignore_thinktime, thinktime, "
		 "thinktime_spin, thinktime_blocks, thinktime_blocks_type, "
		 "thinktime_iotime, flow_id, flow, flow_sleep, flow_watermark, "
		 "random_distribution, random_sequence_stride, log_prio, "
		 "cpus_allowed, cpus_allowed_policy, cpumask, "
		 "verify_async_cpus, numa_cpu_nodes, "
		 "numa_mem_policy, threads, exitall, exit_what, "
		 "exitall_on_error, continue_on_error, ignore_error, error_dump, "
		 "fill_device, create_serialize, latency_target, latency_window, "
		 "latency_percentile, latency_run, steadystate, "
		 "steadystate_duration, steadystate_ramp_time, "
		 "steadystate_check_interval, prio, prioclass, "
		 "cmdprio_percentage, cmdprio_class, cmdprio, "
		 "cmdprio_bssplit"
		 "), found 'include' (wpsim never ignores an "
		 "option)");
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	fclose(f);
}

Test(fio_jobfile, include_reads_options_into_the_section)
{
	char dir[] = "/tmp/wpsim-fio-include-XXXXXX", main_path[128];
	char inc_path[128], sec_path[128], *argv[3];
	struct fio_config cfg;
	struct fio_error err = { 0 };

	cr_assert_not_null(mkdtemp(dir));
	snprintf(main_path, sizeof(main_path), "%s/main.fio", dir);
	snprintf(inc_path, sizeof(inc_path), "%s/common.inc", dir);
	snprintf(sec_path, sizeof(sec_path), "%s/bad.inc", dir);
	write_file(inc_path, "bs=32k\nioengine=pvsync2\n");
	write_file(sec_path, "[nested]\n");
	/* Relative to the including file, as fio resolves it. */
	write_file(main_path, "[a]\ninclude common.inc\nrw=write\n");
	argv[0] = "fio";
	argv[1] = main_path;
	argv[2] = NULL;
	fio_config_init(&cfg);
	cr_assert_eq(fio_parse_argv(2, argv, &cfg, &err), 0, "%s", err.text);
	cr_assert_eq(cfg.jobs[0].bs[0], 32768);
	cr_assert_eq(cfg.jobs[0].ioengine, FIO_ENGINE_PVSYNC2);
	cr_assert_eq(cfg.jobs[0].rw, FIO_RW_WRITE);
	fio_config_free(&cfg);

	write_file(main_path, "[a]\ninclude bad.inc\n");
	fio_config_init(&cfg);
	memset(&err, 0, sizeof(err));
	cr_assert_eq(fio_parse_argv(2, argv, &cfg, &err), -1);
	cr_assert_eq(err.line, 1);
	cr_assert(strstr(err.text, "bad.inc:1:1: error: expected options in "
			 "an include file, found a section"), "%s", err.text);
	fio_config_free(&cfg);

	unlink(main_path);
	unlink(inc_path);
	unlink(sec_path);
	rmdir(dir);
}

Test(fio_jobfile, command_line_globals_apply_and_files_stonewall)
{
	char dir[] = "/tmp/wpsim-fio-files-XXXXXX", a[128], b[128];
	char *argv[6];
	struct fio_config cfg;
	struct fio_error err = { 0 };

	cr_assert_not_null(mkdtemp(dir));
	snprintf(a, sizeof(a), "%s/a.fio", dir);
	snprintf(b, sizeof(b), "%s/b.fio", dir);
	write_file(a, "[a1]\nrw=write\n[a2]\nrw=write\n");
	write_file(b, "[b1]\nrw=read\n");
	argv[0] = "fio";
	argv[1] = "--bs=8k";
	argv[2] = a;
	argv[3] = "--name=cmd";
	argv[4] = b;
	fio_config_init(&cfg);
	cr_assert_eq(fio_parse_argv(5, argv, &cfg, &err), 0, "%s", err.text);
	cr_assert_eq(cfg.job_count, 4);
	/* fio: command-line jobs first, then the job files in order. */
	cr_assert_str_eq(cfg.jobs[0].name, "cmd");
	cr_assert_str_eq(cfg.jobs[1].name, "a1");
	cr_assert_str_eq(cfg.jobs[3].name, "b1");
	for (int i = 0; i < 4; i++)
		cr_assert_eq(cfg.jobs[i].bs[0], 8192);
	cr_assert_eq(cfg.jobs[1].groupid, 1);
	cr_assert(cfg.jobs[1].stonewall);
	cr_assert_eq(cfg.jobs[2].groupid, 1);
	cr_assert(cfg.jobs[3].stonewall);
	cr_assert_eq(cfg.jobs[3].groupid, 2);
	fio_config_free(&cfg);
	unlink(a);
	unlink(b);
	rmdir(dir);
}

/* ------------------------------------------------------------------ */
/* The seeds                                                           */

Test(fio_seeds, seed_000_command_lines)
{
	/* The cover letter's four lines, with 0/1 as each run has it. */
	static const char *const lines[] = {
		"--ioengine=libaio --writethrough=%d --bs=4k --rw=write "
		"--iodepth=32 --sync=dsync --file_append=1",
		"--ioengine=libaio --bs=4k --size=2G --sync=dsync "
		"--writethrough=%d --overwrite=1 --rw=randwrite --iodepth=32",
		"--ioengine=libaio --bs=4k --size=2G "
		"--filename_format=.test_file.$jobnum --sync=dsync "
		"--writethrough=%d --overwrite=1 --rw=randwrite --iodepth=32",
		"--ioengine=libaio --bs=16k --size=5G --writethrough=%d "
		"--overwrite=1 --sync_file_range=wait_before,write:16 "
		"--rw=randwrite --iodepth=32",
	};

	for (size_t i = 0; i < ARRAY_SIZE(lines); i++) {
		for (int wt = 0; wt <= 1; wt++) {
			char line[512], numjobs[600], name[64];
			struct fio_config cfg;
			const struct fio_job *j;

			snprintf(line, sizeof(line), lines[i], wt);
			snprintf(numjobs, sizeof(numjobs), "%s --numjobs=16",
				 line);
			cfg = good(numjobs);
			cr_assert(cfg.implicit_job);
			cr_assert_eq(cfg.job_count, 16);
			j = &cfg.jobs[15];
			cr_assert_str_eq(j->name, "fio");
			cr_assert_eq(j->ioengine, FIO_ENGINE_LIBAIO);
			cr_assert_eq(j->iodepth, 32);
			cr_assert_eq(j->writethrough, wt);
			cr_assert_eq(j->bs[1], i == 3 ? 16384 : 4096);
			cr_assert_eq(j->rw, i ? FIO_RW_RANDWRITE :
				     FIO_RW_WRITE);
			cr_assert_eq(j->sync, i == 3 ? FIO_SYNC_NONE :
				     FIO_SYNC_DSYNC);
			cr_assert_eq(j->file_append, i == 0);
			cr_assert_eq(j->overwrite, i != 0);
			if (i == 1 || i == 2)
				cr_assert_eq(j->size.bytes, 2ull << 30);
			if (i == 2) {
				cr_assert_eq(fio_job_file_name(j, 0, name,
							       sizeof(name)),
					     0);
				cr_assert_str_eq(name, ".test_file.15");
			}
			if (i == 3) {
				cr_assert_eq(j->size.bytes, 5ull << 30);
				cr_assert_eq(j->sfr_flags, FIO_SFR_WAIT_BEFORE |
					     FIO_SFR_WRITE);
				cr_assert_eq(j->sfr_nr, 16);
			}
			fio_config_free(&cfg);
		}
	}
	/* The letter's typo joins two options: fio rejects it too. */
	bad("--ioengine=libaio --sync=dsync--file_append=1",
	    "<command line>:2:8: error: expected sync value (none, 0, sync, "
	    "1, dsync), found 'dsync--file_append=1'");
}

static struct fio_config good_file(const char *rel)
{
	char path[512], *argv[2];
	struct fio_config cfg;
	struct fio_error err = { 0 };

	snprintf(path, sizeof(path), "%s/tests/fio/jobs/%s",
		 FIO_TEST_SOURCE_DIR, rel);
	argv[0] = "fio";
	argv[1] = path;
	fio_config_init(&cfg);
	if (fio_parse_argv(2, argv, &cfg, &err))
		cr_assert_fail("%s", err.text);
	return cfg;
}

Test(fio_seeds, seed_002_003_004_workloads)
{
	struct fio_config cfg = good_file("seed002-test1.fio");
	const struct fio_job *j = &cfg.jobs[31];

	cr_assert_eq(cfg.job_count, 32);
	cr_assert(j->direct && j->group_reporting && j->thread);
	cr_assert_eq(j->bs[1], 8192);
	cr_assert_eq(j->offset_increment.bytes, 1ull << 30);
	cr_assert_eq(j->jobnum, 31);
	fio_config_free(&cfg);

	cfg = good_file("seed002-test2.fio");
	j = &cfg.jobs[0];
	cr_assert_eq(j->bs[1], 14336);
	cr_assert_eq(j->offset.bytes, 512);
	cr_assert_eq(j->rw_seq_add, 2048);
	cr_assert_eq(j->bs[1] + j->rw_seq_add, 16384);
	fio_config_free(&cfg);

	cfg = good_file("seed003.fio");
	j = &cfg.jobs[5];
	cr_assert_eq(cfg.job_count, 32);
	cr_assert_eq(j->ioengine, FIO_ENGINE_PVSYNC2);
	cr_assert_eq(j->uncached, 1);
	cr_assert_eq(j->zonemode, FIO_ZONEMODE_STRIDED);
	cr_assert_eq(j->zonesize, 47008);
	cr_assert_eq(j->zoneskip, 31 * 47008);
	cr_assert_eq(j->offset_increment.bytes, 47008);
	cr_assert_eq(j->io_size.bytes, 1000 * 47008);
	fio_config_free(&cfg);

	cfg = good_file("seed004.fio");
	cr_assert_eq(cfg.job_count, 2);
	cr_assert_eq(cfg.jobs[0].ioengine, FIO_ENGINE_IO_URING);
	cr_assert_eq(cfg.jobs[0].runtime_ns, 600ull * 1000000000);
	cr_assert(cfg.jobs[0].time_based);
	cr_assert_eq(cfg.jobs[1].rw, FIO_RW_RANDWRITE);
	cr_assert_eq(cfg.jobs[1].groupid, 1);
	fio_config_free(&cfg);
}

/* ------------------------------------------------------------------ */
/* showcmd                                                             */

static void round_trip(struct fio_config *cfg, const char *what)
{
	char *line = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&line, &len);
	struct fio_config back;
	struct fio_error err;

	fio_showcmd(mem, cfg);
	fclose(mem);
	cr_assert(!strncmp(line, "fio ", 4), "%s", line);
	line[strcspn(line, "\n")] = '\0';
	if (parse_line(line + 4, &back, &err))
		cr_assert_fail("%s: '%s': %s", what, line, err.text);
	cr_assert_eq(back.job_count, cfg->job_count, "%s: %s", what, line);
	for (uint32_t i = 0; i < cfg->job_count; i++)
		cr_assert(fio_jobs_equal(&cfg->jobs[i], &back.jobs[i]),
			  "%s: job %u differs after '%s'", what, i, line);
	fio_config_free(&back);
	free(line);
}

Test(fio_showcmd, prints_fio_s_form)
{
	struct fio_config cfg = good_text(
		"[global]\nbs=8k\nioengine=libaio\n[a]\nrw=write\nsize=1m\n"
		"numjobs=2\n[b]\nrw=randwrite:8\nsize=1m\n");
	char *line = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&line, &len);

	fio_showcmd(mem, &cfg);
	fclose(mem);
	/* Byte for byte what fio 3.33 --showcmd prints for this file. */
	cr_assert_str_eq(line, "fio --bs=8k --ioengine=libaio --name=a "
			 "--rw=write --size=1m --numjobs=2 --name=b "
			 "--rw=randwrite:8 --size=1m \n");
	free(line);
	fio_config_free(&cfg);
}

Test(fio_showcmd, round_trips_job_files_and_command_lines)
{
	static const char *const files[] = {
		"golden-e.fio", "seed002-test1.fio", "seed002-test2.fio",
		"seed003.fio", "seed004.fio",
	};
	struct fio_config cfg;

	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		cfg = good_file(files[i]);
		round_trip(&cfg, files[i]);
		fio_config_free(&cfg);
	}
	/* A [global] after a job: wpsim prints --name=global there. */
	cfg = good_text("[a]\nrw=write\n[global]\nbs=8k\n[b]\nrw=read\n");
	round_trip(&cfg, "global after a job");
	fio_config_free(&cfg);
	cfg = good("--ioengine=libaio --bs=16k --size=5G --writethrough=1 "
		   "--overwrite=1 --sync_file_range=wait_before,write:16 "
		   "--rw=randwrite --iodepth=32 --numjobs=4");
	round_trip(&cfg, "seed 000 table 4");
	fio_config_free(&cfg);
	cfg = good("--bs=4k --name=x --rw=randrw:4 --time_based --runtime=3 "
		   "--name=global --iodepth=4 --name=y --size=10% "
		   "--group_reporting");
	round_trip(&cfg, "command line with sections");
	fio_config_free(&cfg);
}

/* ------------------------------------------------------------------ */
/* Histogram and statistics                                            */

Test(fio_hist, buckets_are_exact_below_128_and_within_1_64_above)
{
	unsigned int last = 0;

	for (uint64_t v = 0; v < 128; v++) {
		cr_assert_eq(fio_plat_val_to_idx(v), v);
		cr_assert_eq(fio_plat_idx_to_val((unsigned int)v), v);
	}
	for (uint64_t v = 128; v < (1ull << 34); v += v / 37 + 1) {
		unsigned int idx = fio_plat_val_to_idx(v);
		uint64_t back = fio_plat_idx_to_val(idx);
		uint64_t diff = back > v ? back - v : v - back;

		cr_assert_geq(idx, last, "not monotonic at %llu",
			      (unsigned long long)v);
		last = idx;
		cr_assert_lt(idx, FIO_PLAT_NR);
		cr_assert_leq(diff, v / 64, "%llu -> %llu",
			      (unsigned long long)v, (unsigned long long)back);
	}
	/* fio's values: a bucket reports its midpoint (golden case a). */
	cr_assert_eq(fio_plat_idx_to_val(fio_plat_val_to_idx(26690)), 26752);
	cr_assert_eq(fio_plat_idx_to_val(fio_plat_val_to_idx(1993)), 1992);
	cr_assert_eq(fio_plat_val_to_idx(UINT64_MAX), FIO_PLAT_NR - 1);
}

static uint64_t rng(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Percentiles of @n values against exact order statistics. */
static void check_distribution(const char *what, uint64_t *v, size_t n)
{
	struct fio_lat *l = calloc(1, sizeof(*l));
	uint64_t got[FIO_DEFAULT_PERCENTILES];

	fio_lat_init(l);
	for (size_t i = 0; i < n; i++)
		fio_lat_add(l, v[i]);
	qsort(v, n, sizeof(*v), cmp_u64);
	cr_assert_eq(fio_lat_percentiles(l, fio_default_percentiles,
					 FIO_DEFAULT_PERCENTILES, got),
		     FIO_DEFAULT_PERCENTILES);
	for (size_t k = 0; k < FIO_DEFAULT_PERCENTILES; k++) {
		/* fio's rule: the first value whose rank >= p/100 * n. */
		double p = fio_default_percentiles[k];
		size_t rank = (size_t)ceil(p / 100.0 * (double)n);
		uint64_t exact = v[rank ? rank - 1 : 0];
		uint64_t diff = got[k] > exact ? got[k] - exact :
				exact - got[k];

		cr_assert_leq(diff, exact / 64 + 1,
			      "%s p%g: %llu vs exact %llu", what, p,
			      (unsigned long long)got[k],
			      (unsigned long long)exact);
	}
	cr_assert_eq(l->stat.min, v[0]);
	cr_assert_eq(l->stat.max, v[n - 1]);
	free(l);
}

Test(fio_hist, percentiles_match_exact_ones_within_a_bucket)
{
	enum { N = 100000 };
	uint64_t *v = malloc(N * sizeof(*v)), s = 88172645463325252ull;

	for (size_t i = 0; i < N; i++)
		v[i] = 1 + rng(&s) % 1000000;
	check_distribution("uniform 1ns..1ms", v, N);
	for (size_t i = 0; i < N; i++)
		v[i] = (uint64_t)(-20000.0 *
				  log((double)(rng(&s) % 1000000 + 1) /
				      1000001.0));
	check_distribution("exponential mean 20us", v, N);
	for (size_t i = 0; i < N; i++)
		v[i] = i % 10 ? 60 + rng(&s) % 20 : 9000 + rng(&s) % 2000;
	check_distribution("bimodal 60ns/9us (seed 004's two clats)", v, N);
	for (size_t i = 0; i < N; i++)
		v[i] = 4096;
	check_distribution("constant", v, N);
	free(v);
}

Test(fio_stat, welford_and_merge_agree_with_two_passes)
{
	struct fio_stat a, b, all;
	uint64_t s = 12345, v[2000];
	double mean = 0.0, m2 = 0.0;

	fio_stat_init(&a);
	fio_stat_init(&b);
	fio_stat_init(&all);
	for (size_t i = 0; i < 2000; i++) {
		v[i] = rng(&s) % 100000;
		fio_stat_add(i < 700 ? &a : &b, v[i]);
		fio_stat_add(&all, v[i]);
		mean += (double)v[i];
	}
	mean /= 2000.0;
	for (size_t i = 0; i < 2000; i++)
		m2 += ((double)v[i] - mean) * ((double)v[i] - mean);
	cr_assert_float_eq(all.mean, mean, 1e-6);
	cr_assert_float_eq(fio_stat_stddev(&all), sqrt(m2 / 1999.0), 1e-6);

	{
		struct fio_result *r1 = fio_result_alloc(NULL);
		struct fio_result *r2 = fio_result_alloc(NULL);

		r1->ddir[1].clat.stat = a;
		r2->ddir[1].clat.stat = b;
		r1->ddir[1].runtime_ms = 10;
		r2->ddir[1].runtime_ms = 30;
		fio_result_merge(r1, r2);
		cr_assert_eq(r1->ddir[1].clat.stat.samples, 2000);
		cr_assert_float_eq(r1->ddir[1].clat.stat.mean, mean, 1e-6);
		cr_assert_float_eq(fio_stat_stddev(&r1->ddir[1].clat.stat),
				   sqrt(m2 / 1999.0), 1e-6);
		cr_assert_eq(r1->ddir[1].runtime_ms, 30);
		cr_assert_eq(r1->members, 2);
		free(r1);
		free(r2);
	}
}

Test(fio_stat, add_io_records_slat_clat_lat_and_buckets)
{
	struct fio_job job;
	struct fio_result *r;

	fio_job_defaults(&job);
	job.ioengine = FIO_ENGINE_LIBAIO;
	job.iodepth = 8;
	r = fio_result_alloc(&job);
	cr_assert(r->record_slat);
	cr_assert_eq(r->latency_depth, 8);
	fio_result_add_io(r, FIO_DDIR_WRITE, 4096, 1000, 3000, 3500);
	fio_result_add_io(r, FIO_DDIR_WRITE, 4096, 5000, 5500, 2005500);
	cr_assert_eq(r->ddir[1].io_bytes, 8192);
	cr_assert_eq(r->ddir[1].total_ios, 2);
	cr_assert_eq(r->ddir[1].slat.stat.min, 500);
	cr_assert_eq(r->ddir[1].slat.stat.max, 2000);
	cr_assert_eq(r->ddir[1].clat.stat.min, 500);
	cr_assert_eq(r->ddir[1].lat.stat.max, 2000500);
	/* 500 ns is in "750" (below 750 ns); 2 ms in "4" (below 4 ms). */
	cr_assert_eq(r->lat_n[8], 1);
	cr_assert_eq(r->lat_m[1], 1);
	fio_result_sample(r, 500);
	cr_assert_eq(r->ddir[1].bw.samples, 1);
	cr_assert_eq(r->ddir[1].bw.min, 8192 * 1000 / 500 / 1024);
	cr_assert_eq(r->ddir[1].iops.min, 4);
	fio_result_sample(r, 500);
	cr_assert_eq(r->ddir[1].bw.samples, 1, "no I/O, no sample");
	free(r);
}

Test(fio_output, num2str_as_fio)
{
	static const struct {
		uint64_t num;
		int maxlen;
		bool pow2;
		const char *unit, *want;
	} cases[] = {
		{ 87381333, 4, true, "B/s", "83.3MiB/s" },
		{ 87381333, 4, false, "B/s", "87.4MB/s" },
		{ 21333, 4, false, "", "21.3k" },
		{ 1777, 4, false, "", "1777" },
		{ 262144, 4, true, "B", "256KiB" },
		{ 262144, 4, false, "B", "262kB" },
		{ 16384, 4, true, "B", "16.0KiB" },
		{ 4096, 4, true, "B", "4096B" },
		{ 10815000, 6, false, "", "10815k" },
		{ 0, 4, true, "B", "0B" },
	};
	char buf[64];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		fio_num2str(buf, sizeof(buf), cases[i].num, cases[i].maxlen,
			    cases[i].pow2, cases[i].unit);
		cr_assert_str_eq(buf, cases[i].want, "%llu",
				 (unsigned long long)cases[i].num);
	}
}

/*
 * fio_seq_offsets against fio 3.33 itself: tests/fio/golden/offsets.txt
 * holds the offsets that fio --debug=io printed for the three job files
 * tests/fio/golden/offsets-CASE.fio (strided zones with offset_increment
 * and the wrap at the end of the file; rw=write:2048 with offset=512;
 * zonerange smaller than zonesize), the file already laid out.
 */
static void offsets_case(const char *name, FILE *golden)
{
	char path[512], *argv[2], line[256];
	struct fio_config cfg;
	struct fio_error err = { 0 };
	uint64_t file_size = 0;
	unsigned int checked = 0;

	snprintf(path, sizeof(path), "%s/tests/fio/golden/offsets-%s.fio",
		 FIO_TEST_SOURCE_DIR, name);
	argv[0] = "fio";
	argv[1] = path;
	fio_config_init(&cfg);
	if (fio_parse_argv(2, argv, &cfg, &err))
		cr_assert_fail("%s", err.text);
	/* The laid-out file: the end of the farthest job. */
	for (uint32_t i = 0; i < cfg.job_count; i++) {
		const struct fio_job *j = &cfg.jobs[i];
		uint64_t end = j->offset.bytes + (uint64_t)j->jobnum *
			       j->offset_increment.bytes + j->size.bytes;

		if (end > file_size)
			file_size = end;
	}
	for (uint32_t i = 0; i < cfg.job_count; i++) {
		const struct fio_job *j = &cfg.jobs[i];
		uint64_t budget = j->io_size.set ? j->io_size.bytes :
				  j->size.bytes, done = 0, off;
		struct fio_seq_offsets s;

		fio_seq_offsets_init(&s, j, j->size.bytes, file_size);
		rewind(golden);
		while (fgets(line, sizeof(line), golden)) {
			char c[32];
			unsigned int jn;
			unsigned long long o, len;

			if (line[0] == '#' || sscanf(line, "%31s %u %llu %llu",
						     c, &jn, &o, &len) != 4 ||
			    strcmp(c, name) || jn != j->jobnum)
				continue;
			cr_assert_lt(done, budget, "%s job %u: fio wrote more",
				     name, jn);
			cr_assert_eq(fio_seq_offsets_next(&s, j->bs[1], &off), 0,
				     "%s job %u: ended before %llu", name, jn, o);
			cr_assert_eq(off, o, "%s job %u: %" PRIu64 " != %llu",
				     name, jn, off, o);
			cr_assert_eq(len, j->bs[1]);
			done += len;
			checked++;
		}
		/* fio stopped there: by its byte budget or the end. */
		cr_assert(done >= budget ||
			  fio_seq_offsets_next(&s, j->bs[1], &off) == 1,
			  "%s job %u: fio stopped, wpsim would go on", name,
			  j->jobnum);
	}
	cr_assert_gt(checked, 0, "%s: no golden offsets", name);
	fio_config_free(&cfg);
}

Test(fio_offsets, sequential_and_strided_offsets_are_fio_3_33_s)
{
	char path[512];
	FILE *golden;

	snprintf(path, sizeof(path), "%s/tests/fio/golden/offsets.txt",
		 FIO_TEST_SOURCE_DIR);
	golden = fopen(path, "r");
	cr_assert(golden, "%s", path);
	offsets_case("strided", golden);
	offsets_case("seqadd", golden);
	offsets_case("zrange", golden);
	fclose(golden);
}
