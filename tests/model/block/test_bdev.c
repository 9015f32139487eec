// SPDX-License-Identifier: MIT
/*
 * tests/model/block/test_bdev.c - the raw block device's file
 * (model/block/fops.c; Kernel: block/fops.c blkdev_write_iter,
 * blkdev_read_iter, blkdev_direct_IO, blkdev_fsync, block/ioctl.c
 * blk_ioctl_discard, v6.18), through the syscall layer as a front end
 * calls it.
 *
 * One task on the timed device: an O_DIRECT pwrite64 of 2 MiB goes to
 * the device as the bios __blkdev_direct_IO builds (1 MiB each: 256
 * pages), reads back through pread64 with the same ids; a write not on
 * the logical block is -EINVAL, one at the device's end -ENOSPC, a read
 * past it 0; an O_DSYNC write is a FUA write (dio_bio_write_op) and
 * its generic_write_sync's flush; fsync is one flush; BLKDISCARD of a
 * range reads back as zeroes.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "model/block/fops.h"
#include "model/hw/nvme.h"
#include "model/linux/bio.h"
#include "model/linux/syscalls.h"
#include "model/linux/pagemap.h"
#include "model/world.h"
#include "sim/arena.h"
#include "sim/clock.h"
#include "sim/engine.h"
#include "sim/strategy.h"

static struct hw_nvme_profile P;
static long r_write, r_read, r_unaligned, r_end, r_past, r_dsync;
static int r_fsync, r_discard;
static uint32_t ids[4096 + 8];
static struct m_blkdev_timed_stats st_write, st_dsync, st_fsync, st_all;

static void task(void *arg)
{
	struct km_file *f = m_bdev_open(KM_O_DIRECT);
	struct km_file *fd = m_bdev_open(KM_O_DIRECT | KM_O_DSYNC);
	loff_t end = (loff_t)m_world()->dev.nr_sectors << SECTOR_SHIFT;

	(void)arg;
	r_write = m_syscall(M_SYS_PWRITE64, &(struct m_sys_args){
		.file = f, .pos = 4096, .len = 2u << 20, .data_id = 5 });
	m_blkdev_timed_stats(&st_write);
	r_read = m_syscall(M_SYS_PREAD64, &(struct m_sys_args){
		.file = f, .pos = 4096, .len = 2u << 20, .out = ids });
	r_unaligned = m_syscall(M_SYS_PWRITE64, &(struct m_sys_args){
		.file = f, .pos = 100, .len = 512, .data_id = 6 });
	r_end = m_syscall(M_SYS_PWRITE64, &(struct m_sys_args){
		.file = f, .pos = end, .len = 4096, .data_id = 6 });
	r_past = m_syscall(M_SYS_PREAD64, &(struct m_sys_args){
		.file = f, .pos = end, .len = 4096, .out = ids + 4096 });
	r_dsync = m_syscall(M_SYS_PWRITE64, &(struct m_sys_args){
		.file = fd, .pos = 0, .len = 4096, .data_id = 7 });
	m_blkdev_timed_stats(&st_dsync);
	r_fsync = (int)m_syscall(M_SYS_FSYNC, &(struct m_sys_args){
		.file = f });
	m_blkdev_timed_stats(&st_fsync);
	r_discard = km_blk_ioctl_discard(f, 8192, 8192);
	m_blkdev_timed_stats(&st_all);
}

static void setup(void *unused)
{
	struct m_world_config c;

	(void)unused;
	m_world_config_default(&c);
	c.long_run = true;
	m_world_setup(&c);
	cr_assert_eq(m_blkdev_attach_timed(&m_world()->dev, &P, 1, 7), 0);
	sim_task_spawn("t", task, NULL);
}

Test(bdev, direct_io_fsync_discard)
{
	static const struct sim_program prog = { .name = "bdev",
						 .setup = setup };
	struct sim_exec_options exec = { 0 };
	struct sim_strategy s;
	struct sim_outcome o;

	m_file_pages_max = 2048;	/* 8 MiB a file */
	memset(&P, 0, sizeof(P));
	snprintf(P.name, sizeof(P.name), "test");
	P.capacity_bytes = 1ull << 30;
	P.cmd_ns = 10000;
	P.link_write_bytes_per_sec = 4096000000ull;
	P.link_read_bytes_per_sec = 4096000000ull;
	P.units = 4;
	P.page_bytes = 4096;
	P.read_ns = 50000;
	P.program_ns = 100000;
	P.cache_bytes = 1 << 20;
	P.flush_ns = 200000;
	P.fua = true;
	P.nr_hw_queues = 1;
	P.queue_depth = 8;
	sim_clock_configure(&(struct sim_clock_config){
		.cpus = 1, .costs = sim_cpu_costs_default });
	sim_strategy_timed(&s, 1, 1);
	sim_exec_run(&prog, &s, &exec, &o);
	sim_strategy_fini(&s);
	cr_assert_eq(o.kind, SIM_OK, "%s", o.message);

	cr_assert_eq(r_write, 2 << 20);
	/* __blkdev_direct_IO: 512 pages, two bios of BIO_MAX_VECS. */
	cr_assert_eq(st_write.write_bios, 2);
	cr_assert_eq(st_write.write_bytes, 2u << 20);
	cr_assert_eq(r_read, 2 << 20);
	cr_assert_eq(ids[0], 5);
	cr_assert_eq(ids[4095], 5);
	cr_assert_eq(r_unaligned, -KM_EINVAL);
	cr_assert_eq(r_end, -KM_ENOSPC);
	cr_assert_eq(r_past, 0);
	cr_assert_eq(r_dsync, 4096);
	/* O_DSYNC: the write with FUA, then blkdev_fsync's flush. */
	cr_assert_eq(st_dsync.fua_bios, 1);
	cr_assert_eq(st_dsync.flushes, 1);
	cr_assert_eq(r_fsync, 0);
	cr_assert_eq(st_fsync.flushes, 2);
	cr_assert_eq(r_discard, 0);
	cr_assert_eq(st_all.discard_bios, 1);
	cr_assert_eq(m_dev_data(&m_world()->dev, 15), 5);
	cr_assert_eq(m_dev_data(&m_world()->dev, 16), 0);
	cr_assert_eq(m_dev_data(&m_world()->dev, 31), 0);
	cr_assert_eq(m_dev_data(&m_world()->dev, 32), 5);
	cr_assert_eq(m_dev_data(&m_world()->dev, 0), 7);
}

/* ---- __blkdev_direct_IO: asynchronous, and a failing bio --------------- */

/*
 * Direct I/O of the raw device larger than BIO_MAX_VECS pages goes
 * through __blkdev_direct_IO: a bio per 256 pages (1 MiB), a reference
 * each, the last end_io completing the I/O.
 *   aio: io_submit of a 2 MiB O_DIRECT write: -EIOCBQUEUED (the last
 *        bio's end_io calls ki_complete once), io_getevents gives 2 MiB.
 *        Seed 60731's mutant of fops.c:203 (0 for -EIOCBQUEUED): the
 *        submitter completed the request with 0 and the end_io again.
 *   fail: a 2 MiB write (sync, then io_submit) over a failing sector of
 *        its first bio: -EIO, kept from the first failing bio whatever
 *        ends after it (blkdev_bio_end_io: `if (bio->status &&
 *        !dio->status)`).  Seed 60731's mutant of fops.c:125 (negated):
 *        the later good bio's status 0 overwrote the error.
 * The only quick tests of the path (test_bdev's 2 MiB pwrite64) were
 * synchronous and without errors.
 * Kernel: block/fops.c __blkdev_direct_IO, blkdev_bio_end_io, v6.18.
 */
static bool dio_fail;
static long r_submit, r_wait, r_sync_fail;
static struct m_aio_req dio_req;

static void dio_task(void *arg)
{
	struct km_file *f = m_bdev_open(KM_O_DIRECT);

	(void)arg;
	if (dio_fail)
		r_sync_fail = m_syscall(M_SYS_PWRITE64, &(struct m_sys_args){
			.file = f, .pos = 0, .len = 2u << 20, .data_id = 5 });
	r_submit = m_aio_pwritev2(&dio_req, f, 0, 2u << 20, 0, 6, 0);
	r_wait = m_aio_wait(&dio_req);
}

static void dio_setup(void *unused)
{
	struct m_world_config c;

	(void)unused;
	m_world_config_default(&c);
	c.long_run = true;
	c.fail_range = dio_fail;
	c.fail_sector_first = c.fail_sector_last = 100;
	m_world_setup(&c);
	sim_task_spawn("t", dio_task, NULL);
}

static void dio_run(bool fail)
{
	static const struct sim_program prog = { .name = "bdev-dio",
						 .setup = dio_setup };
	struct sim_exec_options exec = { 0 };
	struct sim_strategy s;
	struct sim_outcome o;

	m_file_pages_max = 2048;	/* 8 MiB a file */
	dio_fail = fail;
	memset(&dio_req, 0, sizeof(dio_req));
	r_submit = r_wait = r_sync_fail = 0;
	sim_strategy_random(&s, 3, 1);
	sim_exec_run(&prog, &s, &exec, &o);
	sim_strategy_fini(&s);
	cr_assert_eq(o.kind, SIM_OK, "%s", o.message);
}

Test(bdev, aio_direct_write_of_two_bios_completes_once)
{
	dio_run(false);
	cr_assert_eq(r_submit, -KM_EIOCBQUEUED, "io_submit: %ld", r_submit);
	cr_assert_eq(r_wait, 2 << 20, "io_getevents: %ld", r_wait);
	cr_assert_eq(m_dev_data(&m_world()->dev, 0), 6);
	cr_assert_eq(m_dev_data(&m_world()->dev, 4095), 6);
}

Test(bdev, direct_write_over_a_failing_sector_is_eio)
{
	dio_run(true);
	cr_assert_eq(r_sync_fail, -KM_EIO, "pwrite64: %ld", r_sync_fail);
	cr_assert_eq(r_submit, -KM_EIOCBQUEUED, "io_submit: %ld", r_submit);
	cr_assert_eq(r_wait, -KM_EIO, "io_getevents: %ld", r_wait);
}

/* ---- buffered I/O through the device's page cache ---------------------- */

static void timed_profile(void)
{
	memset(&P, 0, sizeof(P));
	snprintf(P.name, sizeof(P.name), "test");
	P.capacity_bytes = 1ull << 30;
	P.cmd_ns = 10000;
	P.link_write_bytes_per_sec = 4096000000ull;
	P.link_read_bytes_per_sec = 4096000000ull;
	P.units = 4;
	P.page_bytes = 4096;
	P.read_ns = 50000;
	P.program_ns = 100000;
	P.cache_bytes = 1 << 20;
	P.flush_ns = 200000;
	P.fua = true;
	P.nr_hw_queues = 1;
	P.queue_depth = 8;
}

/* The world's counters equal the page cache's state, every bio ended
 * (model/world.c invariants 4-14), once everything has returned. */
static void assert_quiescent(void)
{
	char why[256];

	cr_assert(m_world_quiescent_check(why, sizeof(why)), "%s", why);
}

static uint64_t node_stat(enum km_node_stat_item item)
{
	return sim_word_peek(&m_world()->node.stat[item]);
}

/* Is page @index of the device's page cache cached (a peek)? */
static bool bdev_cached(pgoff_t index)
{
	return sim_word_peek(&m_xa_slot(&m_world()->bdev_inode->i_data,
					index)->entry) != 0;
}

/*
 * The device's page cache (model/block/fops.c; Kernel: block/fops.c
 * blkdev_write_iter -> blkdev_buffered_write, blkdev_read_iter ->
 * filemap_read, blkdev_fsync, def_blk_aops, v6.18).  One task on the
 * timed device; the world's file "f" is written on sectors 0-31 (id
 * 1000), which the device's page cache sees as its bytes 0-16 KiB:
 *   1. buffered pwrite64 of 8 KiB at 4096 (id 9): 8192, two dirty
 *      pages, no bio: the device's sectors 8-23 still hold 1000;
 *   2. buffered pread64 of it: 9 in every sector (the page cache);
 *   3. buffered pwrite64 of 512 bytes at 512 (id 10): page 0 was not
 *      cached, so its block is read from the device first
 *      (__iomap_write_begin): one read bio; a buffered read of page 0
 *      gives 1000, 10, then 1000 six times;
 *   4. fsync: file_write_and_wait_range writes the three dirty pages
 *      back (one bio each, at their own sectors), then one flush; no
 *      dirty page is left and the device holds 10 and 9s.
 * Fails before (session 11): a buffered write or read of the device
 * failed the execution as a model bound (m_vfs_not_modelled).
 */
static long b_write, b_read, b_partial, b_read0;
static int b_fsync;
static uint64_t b_dirty_after_write, b_dirty_after_fsync;
static uint32_t b_ids[16], b_ids0[8], b_dev_before;
static struct m_blkdev_timed_stats b_st0, b_st1, b_st2, b_st3;

static void buffered_task(void *arg)
{
	struct km_file *f = m_bdev_open(0);

	(void)arg;
	m_blkdev_timed_stats(&b_st0);
	b_write = m_syscall(M_SYS_PWRITE64, &(struct m_sys_args){
		.file = f, .pos = 4096, .len = 8192, .data_id = 9 });
	b_dirty_after_write = node_stat(NR_FILE_DIRTY);
	b_dev_before = m_dev_data(&m_world()->dev, 8);
	m_blkdev_timed_stats(&b_st1);
	b_read = m_syscall(M_SYS_PREAD64, &(struct m_sys_args){
		.file = f, .pos = 4096, .len = 8192, .out = b_ids });
	b_partial = m_syscall(M_SYS_PWRITE64, &(struct m_sys_args){
		.file = f, .pos = 512, .len = 512, .data_id = 10 });
	m_blkdev_timed_stats(&b_st2);
	b_read0 = m_syscall(M_SYS_PREAD64, &(struct m_sys_args){
		.file = f, .pos = 0, .len = 4096, .out = b_ids0 });
	b_fsync = (int)m_syscall(M_SYS_FSYNC, &(struct m_sys_args){
		.file = f });
	m_blkdev_timed_stats(&b_st3);
	b_dirty_after_fsync = node_stat(NR_FILE_DIRTY);
}

static void buffered_setup(void *unused)
{
	struct m_world_config c;

	(void)unused;
	m_world_config_default(&c);
	c.long_run = true;
	m_world_setup(&c);
	cr_assert_eq(m_blkdev_attach_timed(&m_world()->dev, &P, 1, 7), 0);
	sim_task_spawn("t", buffered_task, NULL);
}

Test(bdev, buffered_write_read_fsync_through_the_page_cache)
{
	static const struct sim_program prog = { .name = "bdev-buffered",
						 .setup = buffered_setup };
	struct sim_exec_options exec = { 0 };
	struct sim_strategy s;
	struct sim_outcome o;

	m_file_pages_max = 2048;	/* 8 MiB a file */
	timed_profile();
	sim_clock_configure(&(struct sim_clock_config){
		.cpus = 1, .costs = sim_cpu_costs_default });
	sim_strategy_timed(&s, 1, 1);
	sim_exec_run(&prog, &s, &exec, &o);
	sim_strategy_fini(&s);
	cr_assert_eq(o.kind, SIM_OK, "%s", o.message);

	cr_assert_eq(b_write, 8192);
	cr_assert_eq(b_dirty_after_write, 2);
	cr_assert_eq(b_st1.write_bios, b_st0.write_bios, "a buffered write "
		     "sent %llu bios", (unsigned long long)
		     (b_st1.write_bios - b_st0.write_bios));
	cr_assert_eq(b_dev_before, 1000);
	cr_assert_eq(b_read, 8192);
	for (int i = 0; i < 16; i++)
		cr_assert_eq(b_ids[i], 9, "sector %d: %u", i, b_ids[i]);
	cr_assert_eq(b_partial, 512);
	cr_assert_eq(b_st2.read_bios - b_st1.read_bios, 1);
	cr_assert_eq(b_read0, 4096);
	cr_assert_eq(b_ids0[0], 1000);
	cr_assert_eq(b_ids0[1], 10);
	for (int i = 2; i < 8; i++)
		cr_assert_eq(b_ids0[i], 1000, "sector %d: %u", i, b_ids0[i]);
	cr_assert_eq(b_fsync, 0);
	cr_assert_eq(b_st3.write_bios - b_st2.write_bios, 3);
	cr_assert_eq(b_st3.flushes - b_st2.flushes, 1);
	cr_assert_eq(b_dirty_after_fsync, 0);
	cr_assert_eq(m_dev_data(&m_world()->dev, 0), 1000);
	cr_assert_eq(m_dev_data(&m_world()->dev, 1), 10);
	cr_assert_eq(m_dev_data(&m_world()->dev, 2), 1000);
	for (sector_t sct = 8; sct < 24; sct++)
		cr_assert_eq(m_dev_data(&m_world()->dev, sct), 9,
			     "sector %llu", (unsigned long long)sct);
	cr_assert_eq(m_dev_data(&m_world()->dev, 24), 1000);
	assert_quiescent();
}

/* The device tests below: one task, @task, in a long-run world of the
 * default configuration (8 MiB a file), run to its end (a random
 * strategy with one task: one execution). */
static void (*one_task_fn)(void *);
static bool one_task_fail16;	/* the device fails sector 16 */

static void one_task_setup(void *unused)
{
	struct m_world_config c;

	(void)unused;
	m_world_config_default(&c);
	c.long_run = true;
	if (one_task_fail16) {
		c.fail_range = true;
		c.fail_sector_first = c.fail_sector_last = 16;
	}
	m_world_setup(&c);
	sim_task_spawn("t", one_task_fn, NULL);
}

static void run_one_task(const char *name, void (*task)(void *))
{
	const struct sim_program prog = { .name = name,
					  .setup = one_task_setup };
	struct sim_exec_options exec = { 0 };
	struct sim_strategy s;
	struct sim_outcome o;

	one_task_fn = task;
	m_file_pages_max = 2048;	/* 8 MiB a file */
	sim_strategy_random(&s, 3, 1);
	sim_exec_run(&prog, &s, &exec, &o);
	sim_strategy_fini(&s);
	cr_assert_eq(o.kind, SIM_OK, "%s", o.message);
}

/* run_one_task on a device whose sector 16 fails every command. */
static void fail16_run(const char *name, void (*task)(void *))
{
	one_task_fail16 = true;
	run_one_task(name, task);
	one_task_fail16 = false;
}

/*
 * O_DIRECT and the device's page cache (block/fops.c v6.18:
 * blkdev_read_iter's kiocb_write_and_wait, blkdev_direct_write's
 * kiocb_invalidate_pages and kiocb_invalidate_post_direct_write).  One
 * task, untimed:
 *   1. buffered pwrite64 of 4 KiB at 64 KiB (id 11): a dirty page;
 *   2. O_DIRECT pread64 of it: 11, because the dirty page was written
 *      back first (without it the device's 0 would be read); the page
 *      stays cached, clean;
 *   3. buffered pread64 of 4 KiB at 128 KiB: the page is cached (0);
 *   4. O_DIRECT pwrite64 of those 4 KiB (id 12): the cached page is
 *      dropped, so
 *   5. a buffered pread64 reads the device again: 12, not a stale 0;
 *   6. buffered pwrite64 at 192 KiB (id 13), then O_DIRECT pwrite64 of
 *      the same 4 KiB (id 14): the dirty page is written back and
 *      dropped before the direct write, which lands after it: 14 on
 *      the device and no page cached there.
 */
static long d_bwrite, d_dread, d_bread, d_dwrite, d_bread2, d_bwrite3,
	    d_dwrite3;
static uint32_t d_ids[8], d_ids2[8], d_ids3[8];
static bool d_cached_after_dread, d_dirty_after_dread, d_cached_3,
	    d_cached_after_dwrite, d_cached_after_dwrite3;

static bool bdev_dirty(pgoff_t index)
{
	struct km_folio *folio = m_folio_by_id((uint32_t)sim_word_peek(
		&m_xa_slot(&m_world()->bdev_inode->i_data, index)->entry));

	return folio && (sim_word_peek(&folio->flags) & (1ull << PG_dirty));
}

static void direct_task(void *arg)
{
	struct km_file *f = m_bdev_open(0);
	struct km_file *d = m_bdev_open(KM_O_DIRECT);

	(void)arg;
	d_bwrite = m_syscall(M_SYS_PWRITE64, &(struct m_sys_args){
		.file = f, .pos = 65536, .len = 4096, .data_id = 11 });
	d_dread = m_syscall(M_SYS_PREAD64, &(struct m_sys_args){
		.file = d, .pos = 65536, .len = 4096, .out = d_ids });
	d_cached_after_dread = bdev_cached(16);
	d_dirty_after_dread = bdev_dirty(16);
	d_bread = m_syscall(M_SYS_PREAD64, &(struct m_sys_args){
		.file = f, .pos = 131072, .len = 4096, .out = d_ids2 });
	d_cached_3 = bdev_cached(32);
	d_dwrite = m_syscall(M_SYS_PWRITE64, &(struct m_sys_args){
		.file = d, .pos = 131072, .len = 4096, .data_id = 12 });
	d_cached_after_dwrite = bdev_cached(32);
	d_bread2 = m_syscall(M_SYS_PREAD64, &(struct m_sys_args){
		.file = f, .pos = 131072, .len = 4096, .out = d_ids2 });
	d_bwrite3 = m_syscall(M_SYS_PWRITE64, &(struct m_sys_args){
		.file = f, .pos = 196608, .len = 4096, .data_id = 13 });
	d_dwrite3 = m_syscall(M_SYS_PWRITE64, &(struct m_sys_args){
		.file = d, .pos = 196608, .len = 4096, .data_id = 14 });
	d_cached_after_dwrite3 = bdev_cached(48);
	m_syscall(M_SYS_PREAD64, &(struct m_sys_args){
		.file = d, .pos = 196608, .len = 4096, .out = d_ids3 });
}

Test(bdev, direct_io_writes_back_and_drops_the_cached_pages)
{
	run_one_task("bdev-direct-cache", direct_task);

	cr_assert_eq(d_bwrite, 4096);
	cr_assert_eq(d_dread, 4096);
	for (int i = 0; i < 8; i++)
		cr_assert_eq(d_ids[i], 11, "sector %d: %u", i, d_ids[i]);
	cr_assert(d_cached_after_dread);
	cr_assert(!d_dirty_after_dread);
	cr_assert_eq(d_bread, 4096);
	cr_assert(d_cached_3);
	cr_assert_eq(d_dwrite, 4096);
	cr_assert(!d_cached_after_dwrite, "the direct write left the "
		  "cached page of its range");
	cr_assert_eq(d_bread2, 4096);
	for (int i = 0; i < 8; i++)
		cr_assert_eq(d_ids2[i], 12, "sector %d: %u", i, d_ids2[i]);
	cr_assert_eq(d_bwrite3, 4096);
	cr_assert_eq(d_dwrite3, 4096);
	cr_assert(!d_cached_after_dwrite3);
	for (int i = 0; i < 8; i++)
		cr_assert_eq(d_ids3[i], 14, "sector %d: %u", i, d_ids3[i]);
	cr_assert_eq(m_dev_data(&m_world()->dev, 384), 14);
	assert_quiescent();
}

/*
 * Writeback of the device's page cache by the flusher: a world with a
 * dirty limit of 4 pages (bg_thresh 2); one task writes 8 pages
 * buffered at 256 KiB (id 15).  Its balance_dirty_pages kicks the
 * background flusher (km_wb_start_background_writeback: a "flush-bg"
 * task), which writes the bdev inode back as any file's
 * (wb_writeback_one -> do_writepages -> blkdev_writepages): at the end
 * each of the 8 pages is dirty in the cache or holds 15 on the device,
 * the counters agree (NR_WRITTEN counts the pages written back), and
 * no more than bg_thresh pages are left dirty.  Random schedules, 8
 * seeds.
 */
static long f_write;

static void flusher_task(void *arg)
{
	struct km_file *f = m_bdev_open(0);

	(void)arg;
	f_write = m_syscall(M_SYS_PWRITE64, &(struct m_sys_args){
		.file = f, .pos = 262144, .len = 8 * 4096, .data_id = 15 });
}

static void flusher_setup(void *unused)
{
	struct m_world_config c;

	(void)unused;
	m_world_config_default(&c);
	c.dirty_limit_pages = 4;
	m_world_setup(&c);
	sim_task_spawn("t", flusher_task, NULL);
}

Test(bdev, flusher_writes_the_device_page_cache_back)
{
	static const struct sim_program prog = { .name = "bdev-flusher",
						 .setup = flusher_setup };

	for (uint64_t seed = 7000; seed < 7008; seed++) {
		struct sim_exec_options exec = { 0 };
		struct sim_strategy s;
		struct sim_outcome o;
		uint64_t on_device = 0, dirty = 0;

		m_file_pages_max = 128;
		sim_strategy_random(&s, seed, 1);
		sim_exec_run(&prog, &s, &exec, &o);
		sim_strategy_fini(&s);
		cr_assert_eq(o.kind, SIM_OK, "seed %llu: %s",
			     (unsigned long long)seed, o.message);
		cr_assert_eq(f_write, 8 * 4096);
		for (pgoff_t i = 64; i < 72; i++) {
			bool d = bdev_dirty(i);

			dirty += d;
			if (!d) {
				cr_assert_eq(m_dev_data(&m_world()->dev,
							i * 8), 15,
					     "seed %llu: page %lu clean, not "
					     "on the device",
					     (unsigned long long)seed,
					     (unsigned long)i);
				on_device++;
			}
		}
		cr_assert_geq(on_device, 8 - 2, "seed %llu: %llu pages "
			      "written back", (unsigned long long)seed,
			      (unsigned long long)on_device);
		cr_assert_eq(node_stat(NR_WRITTEN), on_device);
		cr_assert_eq(node_stat(NR_FILE_DIRTY), dirty);
		cr_assert_gt(m_world()->wb.nr_bg_starts, 0);
		assert_quiescent();
	}
}

/*
 * What block/bdev.c does to the device's page cache (model/block/bdev.c;
 * Kernel: block/bdev.c truncate_bdev_range, sync_blockdev,
 * invalidate_bdev, v6.18).  One task, untimed:
 *   1. buffered pwrite64 of 8 KiB at 1 MiB (id 20): pages 256 and 257
 *      dirty;
 *   2. truncate_bdev_range of page 256 (under the i_rwsem and the
 *      invalidate_lock, as BLKDISCARD takes them): the page is dropped
 *      dirty, its data never reaches the device; page 257 stays dirty;
 *   3. sync_blockdev: page 257 is written back (20 on its sectors);
 *   4. invalidate_bdev: the clean page 257 is dropped; nothing cached.
 */
static uint64_t t_dirty_after_truncate, t_pages_after_invalidate;
static bool t_cached_256, t_cached_257;
static int t_sync;

static void truncate_task(void *arg)
{
	struct km_file *f = m_bdev_open(0);
	struct km_inode *bd = f->f_inode;

	(void)arg;
	m_syscall(M_SYS_PWRITE64, &(struct m_sys_args){
		.file = f, .pos = 1 << 20, .len = 8192, .data_id = 20 });
	km_inode_lock(bd);
	km_down_write(&bd->i_data.invalidate_lock);
	km_truncate_bdev_range(bd, 1 << 20, (1 << 20) + 4095);
	km_up_write(&bd->i_data.invalidate_lock);
	km_inode_unlock(bd);
	t_cached_256 = bdev_cached(256);
	t_cached_257 = bdev_cached(257);
	t_dirty_after_truncate = node_stat(NR_FILE_DIRTY);
	t_sync = km_sync_blockdev(bd);
	km_invalidate_bdev(bd);
	t_pages_after_invalidate = sim_word_peek(&bd->i_data.nrpages);
}

Test(bdev, truncate_range_sync_and_invalidate_the_device_cache)
{
	run_one_task("bdev-truncate", truncate_task);

	cr_assert(!t_cached_256, "truncate_bdev_range left the page");
	cr_assert(t_cached_257);
	cr_assert_eq(t_dirty_after_truncate, 1);
	cr_assert_eq(t_sync, 0);
	cr_assert_eq(m_dev_data(&m_world()->dev, 2048), 0,
		     "the truncated dirty page reached the device");
	for (sector_t sct = 2056; sct < 2064; sct++)
		cr_assert_eq(m_dev_data(&m_world()->dev, sct), 20);
	cr_assert_eq(t_pages_after_invalidate, 0);
	assert_quiescent();
}

/*
 * A buffered read of the device with readahead (read_ahead_kb 128: the
 * world's ra_pages 32, as wpsim fio sets it; Kernel: block/fops.c
 * blkdev_read_iter -> filemap_read -> page_cache_sync_ra /
 * page_cache_async_ra -> blkdev_readahead, v6.18).  One task on the
 * timed device reads 1 MiB at 0 through the page cache: the world's file
 * "f" on sectors 0-31 reads 1000, the rest 0; the 256 pages come in
 * readahead batches, whose bios hold up to M_BIO_VECS_MAX (16) pages
 * each, so at least 16 bios and far fewer than a bio a page; every page
 * read stays cached, clean, and the async readahead at the window's
 * marked page has read at most one more window (of the request's size)
 * past them.
 */
static long ra_read;
static uint32_t ra_ids[2048];
static struct m_blkdev_timed_stats ra_st0, ra_st1;

static void ra_task(void *arg)
{
	struct km_file *f = m_bdev_open(0);

	(void)arg;
	m_blkdev_timed_stats(&ra_st0);
	ra_read = m_syscall(M_SYS_PREAD64, &(struct m_sys_args){
		.file = f, .pos = 0, .len = 1 << 20, .out = ra_ids });
	m_blkdev_timed_stats(&ra_st1);
}

static void ra_setup(void *unused)
{
	struct m_world_config c;

	(void)unused;
	m_world_config_default(&c);
	c.long_run = true;
	c.ra_pages = 32;
	m_world_setup(&c);
	cr_assert_eq(m_blkdev_attach_timed(&m_world()->dev, &P, 1, 7), 0);
	sim_task_spawn("t", ra_task, NULL);
}

Test(bdev, buffered_read_with_readahead)
{
	static const struct sim_program prog = { .name = "bdev-readahead",
						 .setup = ra_setup };
	struct sim_exec_options exec = { .steps_max = SIM_STEPS_LIMIT };
	struct sim_strategy s;
	struct sim_outcome o;
	uint64_t bios, cached;

	m_file_pages_max = 2048;	/* 8 MiB a file */
	timed_profile();
	sim_clock_configure(&(struct sim_clock_config){
		.cpus = 1, .costs = sim_cpu_costs_default });
	sim_strategy_timed(&s, 1, 1);
	sim_exec_run(&prog, &s, &exec, &o);
	sim_strategy_fini(&s);
	cr_assert_eq(o.kind, SIM_OK, "%s", o.message);

	cr_assert_eq(ra_read, 1 << 20);
	for (int i = 0; i < 2048; i++)
		cr_assert_eq(ra_ids[i], i < 32 ? 1000 : 0, "sector %d: %u", i,
			     ra_ids[i]);
	bios = ra_st1.read_bios - ra_st0.read_bios;
	cr_assert(bios >= 16 && bios <= 64, "%llu read bios for 256 pages",
		  (unsigned long long)bios);
	/* Every page read is cached, and the async readahead at the
	 * window's mark may have read one more window past them: a window
	 * grows to the request's 256 pages (page_cache_sync_ra: the
	 * request is over ra_pages and under the device's io_pages, 320). */
	cached = sim_word_peek(&m_world()->bdev_inode->i_data.nrpages);
	cr_assert(cached >= 256 && cached <= 2 * 256, "%llu pages cached",
		  (unsigned long long)cached);
	for (pgoff_t i = 0; i < 256; i++)
		cr_assert(bdev_cached(i), "page %lu", (unsigned long)i);
	cr_assert_eq(node_stat(NR_FILE_DIRTY), 0);
	assert_quiescent();
}

/*
 * The last close of the device writes its page cache back and drops it
 * (block/fops.c blkdev_release -> block/bdev.c bdev_release ->
 * blkdev_put_whole -> blkdev_flush_mapping, v6.18).  One task, untimed:
 *   1. two opens (bd_openers 2); a buffered pwrite64 of 8 KiB at 2 MiB
 *      (id 40) through the first: two dirty pages;
 *   2. close of the first: another opener is left, nothing happens;
 *   3. close of the second, the last: sync_blockdev writes both pages
 *      to the device and kill_bdev drops every page.
 * Fails before: the device had no ->release; a close left the dirty
 * pages for the flusher.
 */
static uint64_t c_dirty_after_first, c_dev_after_first;
static uint64_t c_pages_after_last, c_dirty_after_last;

static void close_task(void *arg)
{
	struct km_file *a = m_bdev_open(0);
	struct km_file *b = m_bdev_open(0);

	(void)arg;
	m_syscall(M_SYS_PWRITE64, &(struct m_sys_args){
		.file = a, .pos = 2 << 20, .len = 8192, .data_id = 40 });
	m_syscall(M_SYS_CLOSE, &(struct m_sys_args){ .file = a });
	c_dirty_after_first = node_stat(NR_FILE_DIRTY);
	c_dev_after_first = m_dev_data(&m_world()->dev, 4096);
	m_syscall(M_SYS_CLOSE, &(struct m_sys_args){ .file = b });
	c_dirty_after_last = node_stat(NR_FILE_DIRTY);
	c_pages_after_last = sim_word_peek(
		&m_world()->bdev_inode->i_data.nrpages);
}

Test(bdev, last_close_writes_back_and_drops_the_cache)
{
	run_one_task("bdev-close", close_task);

	cr_assert_eq(c_dirty_after_first, 2);
	cr_assert_eq(c_dev_after_first, 0);
	cr_assert_eq(c_dirty_after_last, 0);
	cr_assert_eq(c_pages_after_last, 0);
	for (sector_t sct = 4096; sct < 4112; sct++)
		cr_assert_eq(m_dev_data(&m_world()->dev, sct), 40,
			     "sector %llu", (unsigned long long)sct);
	cr_assert_eq(m_world()->bdev_openers, 0);
	assert_quiescent();
}

/*
 * BLKDISCARD drops the range's cached pages before its bios (block/ioctl.c
 * blk_ioctl_discard -> truncate_bdev_range under the i_rwsem and the
 * invalidate_lock, v6.18).  One task, untimed:
 *   1. buffered pwrite64 of 8 KiB at 3 MiB (id 50), fsync: on the
 *      device, pages 768-769 cached clean;
 *   2. buffered pwrite64 of 4 KiB at 3 MiB + 8 KiB (id 51): page 770
 *      dirty;
 *   3. BLKDISCARD of the 12 KiB: the three pages dropped (the dirty one
 *      too), then the discard;
 *   4. a buffered pread64 of the 12 KiB reads the device: zeroes (the
 *      model's discard reads back zeroes); an fsync writes nothing.
 * Fails before: the discard left the pages, so step 4 read 50 and 51
 * from the cache and the fsync wrote 51 over the discarded range.
 */
static int k_discard;
static uint32_t k_ids[24];
static uint64_t k_pages_after_discard;

static void discard_task(void *arg)
{
	struct km_file *f = m_bdev_open(0);

	(void)arg;
	m_syscall(M_SYS_PWRITE64, &(struct m_sys_args){
		.file = f, .pos = 3 << 20, .len = 8192, .data_id = 50 });
	m_syscall(M_SYS_FSYNC, &(struct m_sys_args){ .file = f });
	m_syscall(M_SYS_PWRITE64, &(struct m_sys_args){
		.file = f, .pos = (3 << 20) + 8192, .len = 4096,
		.data_id = 51 });
	k_discard = km_blk_ioctl_discard(f, 3 << 20, 12288);
	k_pages_after_discard = sim_word_peek(&f->f_inode->i_data.nrpages);
	m_syscall(M_SYS_PREAD64, &(struct m_sys_args){
		.file = f, .pos = 3 << 20, .len = 12288, .out = k_ids });
	m_syscall(M_SYS_FSYNC, &(struct m_sys_args){ .file = f });
}

Test(bdev, discard_drops_the_cached_range)
{
	run_one_task("bdev-discard", discard_task);

	cr_assert_eq(k_discard, 0);
	cr_assert_eq(k_pages_after_discard, 0);
	for (int i = 0; i < 24; i++)
		cr_assert_eq(k_ids[i], 0, "sector %d: %u", i, k_ids[i]);
	for (sector_t sct = 6144; sct < 6168; sct++)
		cr_assert_eq(m_dev_data(&m_world()->dev, sct), 0,
			     "sector %llu", (unsigned long long)sct);
	assert_quiescent();
}

/* ---- ioctl(2) through the syscall table -------------------------------- */

/*
 * fio's trims are ioctl(fd, BLKDISCARD, {start, len}) (fio 3.33
 * os/os-linux.h os_trim); its size of a block device is
 * ioctl(BLKGETSIZE64); its cache drop BLKFLSBUF.  Through the model's
 * ioctl row (model/fs/syscalls.c -> fs/ioctl.c vfs_ioctl):
 *   bdev: BLKDISCARD of [8 KiB, 16 KiB) after a write of ids 9: the
 *         range reads back as zeroes (the NVMe model's Deallocate), the
 *         sectors around it keep 9; BLKGETSIZE64 is the device's bytes;
 *         BLKFLSBUF 0; a command the model lacks -ENOTTY; a discard not
 *         on the logical block -EINVAL.
 *   file: BLKDISCARD on an XFS file is -ENOTTY (xfs_file_ioctl's
 *         default case; fio 3.33's err=25 on XFS, measured).
 * Kernel: fs/ioctl.c vfs_ioctl, block/ioctl.c blkdev_ioctl,
 * blk_ioctl_discard, v6.18.
 */
static long r_io_discard, r_io_size, r_io_flsbuf, r_io_bad, r_io_unaligned;
static long r_io_file;
static uint64_t io_size;
static uint32_t io_ids[64];

static void ioctl_task(void *arg)
{
	struct km_file *f = m_bdev_open(KM_O_DIRECT);

	(void)arg;
	m_syscall(M_SYS_PWRITE64, &(struct m_sys_args){
		.file = f, .pos = 0, .len = 32768, .data_id = 9 });
	r_io_discard = m_syscall(M_SYS_IOCTL, &(struct m_sys_args){
		.file = f, .flags = KM_BLKDISCARD, .pos = 8192, .len = 8192 });
	m_syscall(M_SYS_PREAD64, &(struct m_sys_args){
		.file = f, .pos = 0, .len = 32768, .out = io_ids });
	r_io_size = m_syscall(M_SYS_IOCTL, &(struct m_sys_args){
		.file = f, .flags = KM_BLKGETSIZE64, .arg = &io_size });
	r_io_flsbuf = m_syscall(M_SYS_IOCTL, &(struct m_sys_args){
		.file = f, .flags = KM_BLKFLSBUF });
	r_io_bad = m_syscall(M_SYS_IOCTL, &(struct m_sys_args){
		.file = f, .flags = 0x5401 /* TCGETS */ });
	r_io_unaligned = m_syscall(M_SYS_IOCTL, &(struct m_sys_args){
		.file = f, .flags = KM_BLKDISCARD, .pos = 100, .len = 512 });
	r_io_file = m_syscall(M_SYS_IOCTL, &(struct m_sys_args){
		.file = m_world()->files[0], .flags = KM_BLKDISCARD,
		.pos = 0, .len = 4096 });
}

Test(bdev, ioctl_discard_size_and_enotty_through_the_syscall_door)
{
	run_one_task("bdev-ioctl", ioctl_task);
	cr_assert_eq(r_io_discard, 0);
	cr_assert_eq(io_ids[15], 9);
	cr_assert_eq(io_ids[16], 0);
	cr_assert_eq(io_ids[31], 0);
	cr_assert_eq(io_ids[32], 9);
	cr_assert_eq(r_io_size, 0);
	cr_assert_eq(io_size, (uint64_t)m_world()->dev.nr_sectors << 9);
	cr_assert_gt(io_size, 0);
	cr_assert_eq(r_io_flsbuf, 0);
	cr_assert_eq(r_io_bad, -KM_ENOTTY);
	cr_assert_eq(r_io_unaligned, -KM_EINVAL);
	cr_assert_eq(r_io_file, -KM_ENOTTY);
}

/*
 * BLKFLSBUF writes the device's page cache back, then drops it
 * (block/ioctl.c blkdev_flushbuf, v6.18: sync_blockdev, then
 * invalidate_bdev, which drops clean pages only).  One task, untimed:
 *   1. buffered pwrite64 of 8 KiB at 2 MiB (id 61): pages 512-513
 *      dirty, nothing on the device;
 *   2. ioctl(BLKFLSBUF): 0; the two pages written back (61 on their
 *      sectors), then dropped: nothing cached, nothing dirty.
 * Seed 64153's #9 (the invalidate before the sync) dropped nothing (both
 * pages dirty when it looked), then wrote them back: two clean pages
 * left cached.
 */
static long f_flsbuf;
static uint64_t f_pages_after, f_dirty_after;

static void flsbuf_task(void *arg)
{
	struct km_file *f = m_bdev_open(0);

	(void)arg;
	m_syscall(M_SYS_PWRITE64, &(struct m_sys_args){
		.file = f, .pos = 2 << 20, .len = 8192, .data_id = 61 });
	f_flsbuf = m_syscall(M_SYS_IOCTL, &(struct m_sys_args){
		.file = f, .flags = KM_BLKFLSBUF });
	f_pages_after = sim_word_peek(&f->f_inode->i_data.nrpages);
	f_dirty_after = node_stat(NR_FILE_DIRTY);
}

Test(bdev, flsbuf_writes_back_then_drops_the_cache)
{
	run_one_task("bdev-flsbuf", flsbuf_task);
	cr_assert_eq(f_flsbuf, 0);
	for (sector_t sct = 4096; sct < 4112; sct++)
		cr_assert_eq(m_dev_data(&m_world()->dev, sct), 61,
			     "sector %llu", (unsigned long long)sct);
	cr_assert_eq(f_dirty_after, 0, "dirty pages after BLKFLSBUF: %llu",
		     (unsigned long long)f_dirty_after);
	cr_assert_eq(f_pages_after, 0, "pages cached after BLKFLSBUF: %llu "
		     "(invalidate_bdev comes after sync_blockdev)",
		     (unsigned long long)f_pages_after);
	assert_quiescent();
}

/* ---- the edges of the device's file ------------------------------------- */

/*
 * One task, untimed, the device's sectors 0-31 written (id 1000) and
 * sector 16 failing for writes and reads (block/fops.c v6.18):
 *   1. a 0-byte pwrite64: 0 (blkdev_write_iter, nothing counted);
 *   2. an O_DIRECT write of 8 KiB at the device's last 4 KiB:
 *      iov_iter_truncate to what is left, 4096 (the last sector holds
 *      the data); a direct read of 4 KiB at the last 2 KiB: 2048
 *      (blkdev_read_iter's truncation); at the end: 0;
 *   3. RWF_NOWAIT without O_DIRECT: -EOPNOTSUPP, before anything;
 *   4. RWF_NOWAIT O_DIRECT of 2 MiB at 1 MiB (more than BIO_MAX_VECS
 *      pages): __blkdev_direct_IO refuses with -EAGAIN before its
 *      first bio, so the device is untouched (its sectors still 0);
 *   5. io_submit of 4 KiB O_DIRECT at 0 (one bio:
 *      __blkdev_direct_IO_async): -EIOCBQUEUED, then 4096, data on
 *      the device; the same over the failing sector 16 (8192): its
 *      end_io gives the bio's -EIO;
 *   6. a synchronous O_DIRECT write of 4 KiB over sector 16
 *      (__blkdev_direct_IO_simple): the bio's status, -EIO; a direct
 *      read of 4 KiB at 4096 (sector 8, not failing): 4096 of 1000;
 *   7. a buffered write of 4 KiB at 64 KiB (cached, dirty, the device
 *      not written), then BLKFLSBUF (blkdev_flushbuf: sync_blockdev,
 *      invalidate_bdev): the device holds it, the page is gone;
 *   8. BLKDISCARD on a device without discard: -EOPNOTSUPP
 *      (blk_ioctl_discard's bdev_max_discard_sectors test);
 *   9. 512 bytes of id 12 written direct at 512, then a buffered read
 *      of page 0: the folio is read from the device sector by sector
 *      (6, 12, then 6 six times).
 * The paths no other quick test reached: the write's and the read's
 * truncation at the end, the NOWAIT refusals, the one-bio async path
 * and the simple and async paths' error statuses.
 */
static long e_r[17];
static uint32_t e_ids[16], e_dev_before_flsbuf, e_dev_after_flsbuf;
static uint32_t e_page0[8];
static struct m_aio_req e_req;

static void edge_task(void *arg)
{
	struct km_file *f = m_bdev_open(KM_O_DIRECT);
	struct km_file *b = m_bdev_open(0);
	loff_t end = (loff_t)m_world()->dev.nr_sectors << SECTOR_SHIFT;

	(void)arg;
	e_r[0] = m_syscall(M_SYS_PWRITE64, &(struct m_sys_args){
		.file = f, .pos = 0, .len = 0, .data_id = 3 });
	e_r[1] = m_syscall(M_SYS_PWRITE64, &(struct m_sys_args){
		.file = f, .pos = end - 4096, .len = 8192, .data_id = 4 });
	e_r[2] = m_syscall(M_SYS_PREAD64, &(struct m_sys_args){
		.file = f, .pos = end - 2048, .len = 4096, .out = e_ids });
	e_r[3] = m_syscall(M_SYS_PREAD64, &(struct m_sys_args){
		.file = f, .pos = end, .len = 4096, .out = e_ids });
	e_r[4] = m_syscall(M_SYS_PWRITEV2, &(struct m_sys_args){
		.file = b, .pos = 0, .len = 4096, .flags = RWF_NOWAIT,
		.data_id = 5 });
	e_r[5] = m_syscall(M_SYS_PWRITEV2, &(struct m_sys_args){
		.file = f, .pos = 1u << 20, .len = 2u << 20,
		.flags = RWF_NOWAIT, .data_id = 5 });
	e_r[6] = m_aio_pwritev2(&e_req, f, 0, 4096, 0, 6, 0);
	e_r[7] = m_aio_wait(&e_req);
	memset(&e_req, 0, sizeof(e_req));
	e_r[8] = m_aio_pwritev2(&e_req, f, 8192, 4096, 0, 7, 0);
	e_r[9] = m_aio_wait(&e_req);
	e_r[10] = m_syscall(M_SYS_PWRITE64, &(struct m_sys_args){
		.file = f, .pos = 8192, .len = 4096, .data_id = 8 });
	e_r[11] = m_syscall(M_SYS_PREAD64, &(struct m_sys_args){
		.file = f, .pos = 4096, .len = 4096, .out = e_ids + 8 });
	e_r[12] = m_syscall(M_SYS_PWRITE64, &(struct m_sys_args){
		.file = b, .pos = 65536, .len = 4096, .data_id = 11 });
	e_dev_before_flsbuf = m_dev_data(&m_world()->dev, 128);
	e_r[13] = m_syscall(M_SYS_IOCTL, &(struct m_sys_args){
		.file = b, .flags = KM_BLKFLSBUF });
	e_dev_after_flsbuf = m_dev_data(&m_world()->dev, 128);
	/* A device that cannot discard (max_discard_sectors 0). */
	m_world()->dev.limits.max_discard_sectors = 0;
	e_r[14] = m_syscall(M_SYS_IOCTL, &(struct m_sys_args){
		.file = f, .flags = KM_BLKDISCARD, .pos = 0, .len = 4096 });
	/* Page 0 on the device: 6 (step 5) but sector 1, 12. */
	e_r[15] = m_syscall(M_SYS_PWRITE64, &(struct m_sys_args){
		.file = f, .pos = 512, .len = 512, .data_id = 12 });
	e_r[16] = m_syscall(M_SYS_PREAD64, &(struct m_sys_args){
		.file = b, .pos = 0, .len = 4096, .out = e_page0 });
}

Test(bdev, edges_truncation_nowait_and_one_bio_errors)
{
	sector_t last;

	memset(&e_req, 0, sizeof(e_req));
	memset(e_r, 0x7f, sizeof(e_r));
	memset(e_ids, 0, sizeof(e_ids));
	fail16_run("bdev-edges", edge_task);
	last = m_world()->dev.nr_sectors - 1;
	cr_assert_eq(e_r[0], 0);
	cr_assert_eq(e_r[1], 4096, "write at the end: %ld", e_r[1]);
	cr_assert_eq(m_dev_data(&m_world()->dev, last), 4);
	cr_assert_eq(m_dev_data(&m_world()->dev, last - 7), 4);
	cr_assert_eq(e_r[2], 2048, "read at the end: %ld", e_r[2]);
	cr_assert_eq(e_ids[0], 4);
	cr_assert_eq(e_ids[3], 4);
	cr_assert_eq(e_r[3], 0);
	cr_assert_eq(e_r[4], -KM_EOPNOTSUPP);
	cr_assert_eq(e_r[5], -KM_EAGAIN);
	/* Nothing of the refused write reached the device. */
	for (sector_t k = 2048; k < 2048 + 4096; k += 512)
		cr_assert_eq(m_dev_data(&m_world()->dev, k), 0, "%llu",
			     (unsigned long long)k);
	cr_assert_eq(e_r[6], -KM_EIOCBQUEUED);
	cr_assert_eq(e_r[7], 4096);
	cr_assert_eq(m_dev_data(&m_world()->dev, 0), 6);
	cr_assert_eq(m_dev_data(&m_world()->dev, 7), 6);
	cr_assert_eq(e_r[8], -KM_EIOCBQUEUED);
	cr_assert_eq(e_r[9], -KM_EIO);
	cr_assert_eq(e_r[10], -KM_EIO);
	cr_assert_eq(e_r[11], 4096);
	cr_assert_eq(e_ids[8], 1000);
	cr_assert_eq(e_ids[15], 1000);
	cr_assert_eq(e_r[12], 4096);
	cr_assert_eq(e_dev_before_flsbuf, 0, "a buffered write is cached");
	cr_assert_eq(e_r[13], 0);
	cr_assert_eq(e_dev_after_flsbuf, 11, "BLKFLSBUF wrote it back");
	cr_assert(!bdev_cached(16), "BLKFLSBUF dropped the page");
	cr_assert_eq(e_r[14], -KM_EOPNOTSUPP);
	cr_assert_eq(e_r[15], 512);
	cr_assert_eq(e_r[16], 4096);
	for (int k = 0; k < 8; k++)
		cr_assert_eq(e_page0[k], k == 1 ? 12u : 6u, "sector %d: %u", k,
			     e_page0[k]);
}

/*
 * BLKDISCARD's status (block/ioctl.c blk_ioctl_discard, v6.18: the
 * chained discard bios are waited for, and only -EOPNOTSUPP is taken as
 * success): on a device whose sector 16 fails, a discard of [0, 16 KiB)
 * (sectors 0-31) is -EIO; one of [64 KiB, 68 KiB) is 0 and the sectors
 * read back zero.  Seed 65519's #79 (ioctl.c:72, `err == -EOPNOTSUPP`
 * negated) answered 0 for the failed discard: no test discarded over a
 * failing range.
 */
static long dd_r[2];
static uint32_t dd_before, dd_after;

static void discard_status_task(void *arg)
{
	struct km_file *f = m_bdev_open(KM_O_DIRECT);

	(void)arg;
	dd_r[0] = m_syscall(M_SYS_IOCTL, &(struct m_sys_args){
		.file = f, .flags = KM_BLKDISCARD, .pos = 0, .len = 16384 });
	SIM_ASSERT_EQ(m_syscall(M_SYS_PWRITE64, &(struct m_sys_args){
		.file = f, .pos = 65536, .len = 4096, .data_id = 9 }), 4096);
	dd_before = m_dev_data(&m_world()->dev, 128);
	dd_r[1] = m_syscall(M_SYS_IOCTL, &(struct m_sys_args){
		.file = f, .flags = KM_BLKDISCARD, .pos = 65536, .len = 4096 });
	dd_after = m_dev_data(&m_world()->dev, 128);
}

Test(bdev, blkdiscard_over_a_failing_sector_is_eio)
{
	fail16_run("bdev-discard-eio", discard_status_task);
	cr_expect_eq(dd_r[0], -KM_EIO, "discard over sector 16: %ld",
		     dd_r[0]);
	cr_expect_eq(dd_r[1], 0, "discard elsewhere: %ld", dd_r[1]);
	cr_expect_eq(dd_before, 9);
	cr_expect_eq(dd_after, 0, "the discarded sector reads %u", dd_after);
}
