// SPDX-License-Identifier: MIT
/*
 * tests/model/fs/test_iomap_bio_size.c - the size of buffered
 * writeback's bios and of the requests they become.
 *
 * Kernel (v6.18): fs/iomap/ioend.c iomap_alloc_ioend takes its bio with
 * BIO_MAX_VECS (256) bvecs; iomap_add_to_ioend adds each folio range of
 * a contiguous run to it (bio_add_folio) and opens another ioend when it
 * is full.  blk_mq_submit_bio splits it at the queue limits
 * (__bio_split_to_limits: max_sectors, max_segments, max_segment_size),
 * each piece a request.  A loop device's limits (drivers/block/loop.c
 * loop_add, blk_validate_limits' defaults): 1280 KiB, 128 segments of
 * up to 64 KiB, no virtual boundary.  Traced on this machine's 6.18.44
 * (docs/model/bio.md "Bio size"): XFS's writeback bios to the loop
 * device of 2048 sectors (256 pages) and more; its requests mostly 1024
 * sectors (128 segments of a page) and some of 2560 (max_sectors).
 *
 * One writer on a written XFS file with large folios (wpsim fio's
 * mapping), timed: @nr writes of @len bytes from 0, then fsync; the
 * device's stats say what it received.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "model/linux/bio.h"
#include "model/linux/fs.h"
#include "model/linux/syscalls.h"
#include "model/world.h"
#include "wpsim/harness.h"
#include "sim/strategy.h"
#include "../timed-profile.h"

static struct hw_nvme_profile P;
static unsigned int nr;
static size_t len;
static long written;
static int synced;
static struct m_blkdev_timed_stats st;

static void writer(void *arg)
{
	struct km_file *file = m_world()->files[0];

	(void)arg;
	for (unsigned int i = 0; i < nr; i++)
		written += m_syscall(M_SYS_PWRITE64, &(struct m_sys_args){
			.file = file, .pos = (loff_t)i * (loff_t)len,
			.len = len, .data_id = 7 });
	memset(&st, 0, sizeof(st));
	synced = (int)m_syscall(M_SYS_FSYNC,
				&(struct m_sys_args){ .file = file });
	m_blkdev_timed_stats(&st);
}

static void setup(void *unused)
{
	struct m_world_config c;

	(void)unused;
	m_world_config_default(&c);
	c.files[0].size = 4 << 20;
	/* layout NULL, no fill: every block written */
	c.files[0].large_folios = true;
	c.long_run = true;
	m_world_setup(&c);
	cr_assert_eq(m_blkdev_attach_timed(&m_world()->dev, &P, 1, 7), 0);
	sim_task_spawn("t", writer, NULL);
}

/* @loop: the loop device's queue limits in the profile; else the NVMe
 * driver's (4 MiB, 256 segments, a 4 KiB virtual boundary). */
static void run(unsigned int n, size_t l, bool loop)
{
	static const struct sim_program prog = { .name = "bio-size",
						 .setup = setup };
	struct sim_outcome o;

	timed_test_profile(&P);
	P.cache_bytes = 64 << 20;
	if (loop) {
		P.max_hw_sectors_kb = 1280;
		P.max_sectors_kb = 1280;
		P.max_segments = 128;
		P.max_segment_size = 65536;
		P.no_virt_boundary = true;
	}
	nr = n;
	len = l;
	written = 0;
	{
		struct sim_exec_options exec = { .steps_max = 200000,
						   .long_run = true };
		unsigned long pages_max = m_file_pages_max;
		struct sim_strategy s;

		sim_clock_configure(&(struct sim_clock_config){
			.cpus = 1, .costs = sim_cpu_costs_default });
		sim_strategy_timed(&s, 1, 1);
		m_file_pages_max = 2048;	/* 8 MiB a file */
		sim_exec_run(&prog, &s, &exec, &o);
		m_file_pages_max = pages_max;
		sim_strategy_fini(&s);
	}
	cr_assert_eq(o.kind, SIM_OK, "%s", o.message);
	cr_assert_eq(written, (long)(n * l), "written %ld", written);
	cr_assert_eq(synced, 0);
	/* The data, and the log's writes (fsync: the timestamps). */
	cr_assert_eq(st.write_bytes, n * l + st.log_writes * 4096,
		     "%llu bytes written, %llu log writes",
		     (unsigned long long)st.write_bytes,
		     (unsigned long long)st.log_writes);
}

/* 256 pages dirty: one bio of 256 bvecs, one 1 MiB request (within the
 * NVMe limits: 256 segments, 4 MiB). */
Test(iomap_bio_size, one_bio_of_bio_max_vecs)
{
	run(256, 4096, false);
	cr_assert_eq(st.write_bios - st.log_writes, 1, "%llu bios",
		     (unsigned long long)st.write_bios);
	cr_assert_eq(st.write_sizes[9], 1);	/* > 512 KiB */
	cr_assert_eq(st.write_sizes[1], st.log_writes);	/* 4 KiB */
}

/* 257 pages: the 257th does not fit (bio_add_folio fails at
 * bi_max_vecs), a second ioend takes it. */
Test(iomap_bio_size, the_257th_folio_opens_another_bio)
{
	run(257, 4096, false);
	cr_assert_eq(st.write_bios - st.log_writes, 2);
	cr_assert_eq(st.write_sizes[9], 1);
	cr_assert_eq(st.write_sizes[1], 1 + st.log_writes);	/* 4 KiB */
}

/* On the loop device's limits the 1 MiB bio of pages is split at 128
 * segments: two requests of 512 KiB, as the kernel's 1024-sector
 * requests. */
Test(iomap_bio_size, loop_limits_split_at_max_segments)
{
	run(256, 4096, true);
	cr_assert_eq(st.write_bios - st.log_writes, 2);
	cr_assert_eq(st.write_sizes[8], 2);	/* 512 KiB */
	cr_assert_eq(st.write_sizes[9], 0);
}

/* Large folios (writes of 1 MiB: folios of 32 pages): 64 KiB segments,
 * so max_sectors binds: 1280 KiB requests, the rest after them. */
Test(iomap_bio_size, loop_limits_split_large_folios_at_max_sectors)
{
	run(4, 1 << 20, true);
	/* 4 MiB = 3 x 1280 KiB + 256 KiB */
	cr_assert_eq(st.write_bios - st.log_writes, 4, "%llu bios",
		     (unsigned long long)st.write_bios);
	cr_assert_eq(st.write_sizes[9], 3);
	cr_assert_eq(st.write_sizes[7], 1);	/* 256 KiB */
}
