// SPDX-License-Identifier: MIT
/*
 * tests/model/block/test_bio_timed.c - model/block/bio.c on the timed
 * device: bios through blk-mq and the NVMe model, completions at their
 * virtual time (Kernel: block/blk-core.c submit_bio, block/blk-mq.c
 * blk_mq_submit_bio and blk_mq_get_tag, block/blk-flush.c, v6.18).
 *
 * Each test builds a world (m_world_setup), attaches a device whose
 * profile it writes out (so the expected times follow from the figures:
 * no jitter, no tail), runs one execution under the timed strategy and
 * checks when bios complete, how many device commands a PREFLUSH|FUA
 * bio becomes, that a submitter without a tag sleeps until a completion
 * frees one, that the data reaches the sectors, and that without a
 * device nothing changes (blkdev_issue_flush submits nothing).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "model/fs/iomap.h"
#include "model/fs/xfs.h"
#include "model/cost.h"
#include "model/fs/xfs_log.h"
#include "model/hw/nvme.h"
#include "model/linux/bio.h"
#include "model/world.h"
#include "sim/arena.h"
#include "sim/clock.h"
#include "sim/engine.h"
#include "sim/strategy.h"

#include "../timed-profile.h"

/* The timed tests' device (../timed-profile.h) with @depth tags and
 * FUA as asked. */
static void profile(struct hw_nvme_profile *p, uint32_t depth, bool fua)
{
	timed_test_profile(p);
	p->fua = fua;
	p->queue_depth = depth;
}

static struct hw_nvme_profile P;
static bool timed;
static uint64_t t_submit[4], t_done[4];
static int status[4];
static unsigned int opf;
static struct m_blkdev_timed_stats stats;
static uint64_t dev_bios;

static void writer(void *arg)
{
	long i = (long)arg;
	struct km_bio *bio = km_bio_alloc(REQ_OP_WRITE, opf,
					  (sector_t)i * SECTORS_PER_PAGE);

	bio->dio_len = PAGE_SIZE;
	bio->data_id = 100 + (uint32_t)i;
	t_submit[i] = sim_now();
	status[i] = km_submit_bio_wait(bio);
	t_done[i] = sim_now();
	m_blkdev_timed_stats(&stats);
}

static void flusher(void *arg)
{
	(void)arg;
	status[0] = km_blkdev_issue_flush();
	m_blkdev_timed_stats(&stats);
	dev_bios = sim_word_peek(&m_world()->dev.bios_submitted);
}

static long ntasks;
static sim_task_fn task_fn;
static const char *file_layout;	/* files[0]'s blocks, or the default */

static void setup(void *unused)
{
	struct m_world_config c;

	(void)unused;
	m_world_config_default(&c);
	if (file_layout) {
		c.files[0].layout = file_layout;
		c.files[0].size = (loff_t)strlen(file_layout) * PAGE_SIZE;
	}
	m_world_setup(&c);
	if (timed)
		cr_assert_eq(m_blkdev_attach_timed(&m_world()->dev, &P, 1, 7),
			     0);
	for (long i = 0; i < ntasks; i++)
		sim_task_spawn("t", task_fn, (void *)i);
}

static uint32_t run_cpus = 1;

static void run(long n, sim_task_fn fn)
{
	static const struct sim_program prog = { .name = "bio-timed",
						 .setup = setup };
	struct sim_exec_options exec = { 0 };
	struct sim_strategy s;
	struct sim_outcome o;

	ntasks = n;
	task_fn = fn;
	memset(&stats, 0, sizeof(stats));
	sim_clock_configure(&(struct sim_clock_config){
		.cpus = run_cpus, .costs = sim_cpu_costs_default });
	sim_strategy_timed(&s, 1, 1);
	sim_exec_run(&prog, &s, &exec, &o);
	sim_strategy_fini(&s);
	cr_assert_eq(o.kind, SIM_OK, "%s", o.message);
}

/* One 4 KiB write: it completes when the cache took it (t0 + the link),
 * at least cmd_ns after the submission, and its data is on the sectors. */
Test(bio_timed, write_completes_at_device_time)
{
	profile(&P, 8, true);
	timed = true;
	opf = 0;
	run(1, writer);
	cr_assert_eq(status[0], 0);
	cr_assert_geq(t_done[0] - t_submit[0], P.cmd_ns + 1000);
	cr_assert_lt(t_done[0] - t_submit[0], P.cmd_ns + 10000);
	cr_assert_eq(stats.device_cmds, 1);
	cr_assert_eq(m_dev_data(&m_world()->dev, 0), 100);
	cr_assert_eq(m_dev_data(&m_world()->dev, SECTORS_PER_PAGE - 1), 100);
}

/* PREFLUSH|FUA without native FUA: FLUSH, the write, FLUSH, one after
 * the other; with native FUA: FLUSH, then the write with FUA. */
Test(bio_timed, preflush_fua_is_issued_step_by_step)
{
	profile(&P, 8, false);
	timed = true;
	opf = REQ_PREFLUSH | REQ_FUA;
	run(1, writer);
	cr_assert_eq(stats.device_cmds, 3);
	cr_assert_eq(stats.flushes, 2);
	cr_assert_geq(t_done[0] - t_submit[0], 3 * P.cmd_ns);
	profile(&P, 8, true);
	run(1, writer);
	cr_assert_eq(stats.device_cmds, 2);
	cr_assert_eq(stats.flushes, 1);
	cr_assert_eq(stats.fua_writes, 1);
	cr_assert_eq(status[0], 0);
}

/* One tag, two writers: the second sleeps on the tag wait queue until
 * the first completes, then goes; both complete, one after the other. */
Test(bio_timed, no_tag_free__submitter_waits_for_a_completion)
{
	profile(&P, 1, true);
	timed = true;
	opf = 0;
	run(2, writer);
	cr_assert_eq(status[0], 0);
	cr_assert_eq(status[1], 0);
	cr_assert_eq(stats.tag_waits, 1);
	cr_assert_geq(t_done[1] > t_done[0] ? t_done[1] - t_done[0] :
		      t_done[0] - t_done[1], P.cmd_ns);
	cr_assert_eq(m_dev_data(&m_world()->dev, SECTORS_PER_PAGE), 101);
}

/* blkdev_issue_flush: one FLUSH on the timed device; untimed, nothing
 * is submitted (no bio, no event: explorations keep their steps). */
Test(bio_timed, issue_flush__timed_flushes_untimed_submits_nothing)
{
	profile(&P, 8, true);
	timed = true;
	run(1, flusher);
	cr_assert_eq(status[0], 0);
	cr_assert_eq(stats.flushes, 1);
	cr_assert_eq(dev_bios, 1);
	timed = false;
	run(1, flusher);
	cr_assert_eq(status[0], 0);
	cr_assert_eq(stats.device_cmds, 0);
	cr_assert_eq(dev_bios, 0);
}

/*
 * The report's count of submitted bios (blktrace's Q events, what wpsim
 * replay --blkparse compares): a 4 KiB write, an 8 KiB FUA write, a
 * 4 KiB read and an empty flush.  Each kind in its counter once, the
 * writes by size (4k, 8k) and bytes; the read brings back the first
 * write's data.
 */
static uint32_t read_out[SECTORS_PER_PAGE];

static void kinds(void *arg)
{
	struct km_bio *bio;

	(void)arg;
	bio = km_bio_alloc(REQ_OP_WRITE, 0, 0);
	bio->dio_len = PAGE_SIZE;
	bio->data_id = 100;
	status[0] = km_submit_bio_wait(bio);
	bio = km_bio_alloc(REQ_OP_WRITE, REQ_FUA, SECTORS_PER_PAGE);
	bio->dio_len = 2 * PAGE_SIZE;
	bio->data_id = 101;
	status[1] = km_submit_bio_wait(bio);
	bio = km_bio_alloc(REQ_OP_READ, 0, 0);
	bio->dio_len = PAGE_SIZE;
	bio->dio_out = read_out;
	status[2] = km_submit_bio_wait(bio);
	status[3] = km_blkdev_issue_flush();
	m_blkdev_timed_stats(&stats);
}

Test(bio_timed, report_counts_each_kind_of_bio)
{
	profile(&P, 8, true);
	timed = true;
	memset(read_out, 0, sizeof(read_out));
	run(1, kinds);
	for (int i = 0; i < 4; i++)
		cr_assert_eq(status[i], 0, "bio %d", i);
	cr_expect_eq(stats.bios, 4);
	cr_expect_eq(stats.write_bios, 2);
	cr_expect_eq(stats.write_bytes, 3 * PAGE_SIZE);
	cr_expect_eq(stats.write_sizes[1], 1);		/* 4k */
	cr_expect_eq(stats.write_sizes[2], 1);		/* 8k */
	cr_expect_eq(stats.read_bios, 1);
	cr_expect_eq(stats.fua_bios, 1);
	cr_expect_eq(stats.preflush_bios, 1);
	cr_expect_eq(stats.empty_flush_bios, 1);
	cr_expect_eq(stats.discard_bios, 0);
	cr_expect_eq(read_out[0], 100);
	cr_expect_eq(read_out[SECTORS_PER_PAGE - 1], 100);
}

/* The XFS log (km_xfs_log_force_seq): an fsync's change joins the CIL's
 * current sequence and is forced.  Four tasks force at once: the first
 * writes an iclog, the three that arrive while it is being written wait
 * for it once and then share one more iclog write: 2 log writes for 4
 * forces, each force back after the iclog holding its change.  Alone, a
 * force is one write. */
static void log_forcer(void *arg)
{
	long i = (long)arg;
	struct km_inode *inode = m_world()->inodes[0];

	t_submit[i] = sim_now();
	status[i] = m_xfs_log_force(inode);
	t_done[i] = sim_now();
	m_blkdev_timed_stats(&stats);
}

Test(bio_timed, log_forces_are_ordered_and_batched)
{
	profile(&P, 8, true);
	timed = true;
	run(1, log_forcer);
	cr_assert_eq(status[0], 0);
	cr_assert_eq(stats.log_writes, 1);

	run(4, log_forcer);
	for (int i = 0; i < 4; i++)
		cr_assert_eq(status[i], 0);
	cr_assert_eq(stats.log_writes, 2, "%llu log writes",
		     (unsigned long long)stats.log_writes);
	/* The batch's write starts after the first one ended. */
	for (int i = 1; i < 4; i++)
		cr_assert_gt(t_done[i], t_done[0]);
}

/*
 * xfs_file_fsync's device work after an overwrite (Kernel:
 * fs/xfs/xfs_file.c xfs_file_fsync, xfs_fsync_flush_log;
 * fs/xfs/xfs_inode_item.c xfs_inode_item_committing; fs/xfs/xfs_iops.c
 * xfs_vn_update_time, v6.18).  A timestamp update logs the inode with
 * XFS_ILOG_TIMESTAMP only: fsync forces the log (one iclog write, and
 * since that force wrote the iclog, no separate flush); fdatasync does
 * not (it flushes the cache: one empty PREFLUSH); a second fsync with
 * nothing new logged finds the inode unpinned and only flushes.
 */
static int sync_mode;	/* 0 fsync, 1 fdatasync, 2 fsync twice */

static void stamp_and_sync(void *arg)
{
	struct km_file *file = m_world()->files[0];

	(void)arg;
	cr_assert(m_xfs_mtime_stale(file->f_inode));
	km_xfs_vn_update_time(file->f_inode, 0);
	cr_assert(!m_xfs_mtime_stale(file->f_inode));
	status[0] = km_xfs_file_fsync(file, 0, -1, sync_mode == 1);
	if (sync_mode == 2)
		status[1] = km_xfs_file_fsync(file, 0, -1, 0);
	m_blkdev_timed_stats(&stats);
}

/* One timed run of @fn with sync_mode @mode: status[@st] is 0, and the
 * device saw @log_writes iclog writes and @flushes empty flushes. */
static void sync_case(sim_task_fn fn, int mode, int st,
		      unsigned long log_writes, unsigned long flushes)
{
	sync_mode = mode;
	run(1, fn);
	cr_assert_eq(status[st], 0);
	cr_assert_eq(stats.log_writes, log_writes);
	cr_assert_eq(stats.empty_flush_bios, flushes);
}

Test(bio_timed, fsync_forces_a_logged_timestamp_fdatasync_flushes)
{
	profile(&P, 8, true);
	timed = true;
	sync_case(stamp_and_sync, 0, 0, 1, 0);
	sync_case(stamp_and_sync, 1, 0, 0, 1);
	sync_case(stamp_and_sync, 2, 1, 1, 1);
}

/*
 * The allocation transactions pin the inode for fdatasync too (Kernel:
 * fs/xfs/xfs_bmap.c xfs_bmapi_convert_delalloc and fs/xfs/xfs_iomap.c
 * xfs_iomap_write_unwritten log XFS_ILOG_CORE; fs/xfs/xfs_inode_item.c
 * xfs_inode_item_committing sets ili_datasync_seq, v6.18): writeback's
 * delalloc conversion inside EOF, then fdatasync, writes the log.  And
 * an fdatasync whose sequence is already stable leaves a later timestamp
 * commit pinned (xfs_inode_item_unpin clears the fields only at the last
 * unpin): the fsync after it writes the log again.
 */
static void allocate_then_sync(void *arg)
{
	struct km_file *file = m_world()->files[0];
	struct km_inode *inode = file->f_inode;

	(void)arg;
	m_xfs_reserve_delalloc(inode, 0, PAGE_SIZE);
	m_xfs_writeback_allocate(inode, 0, PAGE_SIZE);
	status[0] = km_xfs_file_fsync(file, 0, -1, 1);
	if (sync_mode == 3) {
		/* The next jiffy: a write logs its timestamps. */
		sim_sleep_ns(2 * KM_NS_PER_JIFFY);
		cr_assert(m_xfs_mtime_stale(inode));
		km_xfs_vn_update_time(inode, 0);
		status[1] = km_xfs_file_fsync(file, 0, -1, 1);
		status[2] = km_xfs_file_fsync(file, 0, -1, 0);
	}
	m_blkdev_timed_stats(&stats);
}

Test(bio_timed, allocation_pins_for_fdatasync_and_fsync_keeps_a_later_commit)
{
	profile(&P, 8, true);
	timed = true;
	file_layout = "H";
	sync_case(allocate_then_sync, 0, 0, 1, 0);
	/* fdatasync: the log; fdatasync: a flush; fsync: the log again. */
	sync_case(allocate_then_sync, 3, 2, 2, 1);
	cr_assert_eq(status[1], 0);
	file_layout = NULL;
}

/*
 * The flush state machine (Kernel: block/blk-flush.c blk_insert_flush,
 * blk_flush_complete_seq, blk_kick_flush, flush_end_io, v6.18).
 *
 * Four empty flushes at once (blkdev_issue_flush from four fsyncs):
 *   1. task 0's request goes on the pending list; no flush is in flight,
 *      so the flush request is issued (pending_idx toggles);
 *   2. tasks 1-3 queue on the other pending list: C1, one flush in
 *      flight, holds them;
 *   3. the flush completes: task 0's request is done, and the kick issues
 *      one flush for tasks 1-3 together.
 * Must hold: 2 device flushes for 4 empty PREFLUSH bios, tasks 1-3 back
 * after task 0.  The bug this pins (the model before it): every request
 * issued its own FLUSH, 4 in parallel on the device.
 */
static void flusher_i(void *arg)
{
	long i = (long)arg;

	t_submit[i] = sim_now();
	status[i] = km_blkdev_issue_flush();
	t_done[i] = sim_now();
	m_blkdev_timed_stats(&stats);
}

Test(bio_timed, concurrent_flushes__one_in_flight_the_rest_share_the_next)
{
	profile(&P, 8, true);
	timed = true;
	run(4, flusher_i);
	for (int i = 0; i < 4; i++)
		cr_assert_eq(status[i], 0);
	cr_assert_eq(stats.empty_flush_bios, 4);
	cr_assert_eq(stats.flushes, 2, "%llu device flushes",
		     (unsigned long long)stats.flushes);
	for (int i = 1; i < 4; i++)
		cr_assert_gt(t_done[i], t_done[0]);
}

/*
 * C2: a pending flush waits while a flush-sequenced request executes its
 * DATA, so that request's POSTFLUSH shares it.  No native FUA:
 *   1. task 0: a PREFLUSH|FUA write (PREFLUSH, DATA, POSTFLUSH): pending,
 *      flush F1 issued;
 *   2. task 1: an empty flush: pending on the other list (C1);
 *   3. F1 completes: task 0 goes to DATA (flush_data_in_flight 1); the
 *      kick finds task 1 pending but DATA in flight: deferred (C2);
 *   4. task 0's DATA completes: its POSTFLUSH joins task 1 on the
 *      pending list; one flush F2 serves both.
 * Must hold: 2 device flushes (without C2: 3, F2 for task 1 alone while
 * the data is in flight and F3 for task 0's POSTFLUSH; the model before
 * the state machine: 3 as well), both bios complete with status 0.
 */
static void fua_writer_or_flusher(void *arg)
{
	long i = (long)arg;

	if (i == 0) {
		writer(arg);
		return;
	}
	flusher_i(arg);
}

Test(bio_timed, pending_flush_waits_for_sequenced_data__postflush_shares_it)
{
	profile(&P, 8, false);
	timed = true;
	opf = REQ_PREFLUSH | REQ_FUA;
	run(2, fua_writer_or_flusher);
	cr_assert_eq(status[0], 0);
	cr_assert_eq(status[1], 0);
	cr_assert_eq(stats.flushes, 2, "%llu device flushes",
		     (unsigned long long)stats.flushes);
	cr_assert_eq(stats.device_cmds, 3);
	cr_assert_eq(m_dev_data(&m_world()->dev, 0), 100);
	opf = 0;
}

/*
 * A writethrough or direct write's allocation is a transaction
 * (Kernel: fs/xfs/xfs_iomap.c xfs_iomap_write_direct, v6.18: the
 * allocation under the ILOCK, xfs_trans_commit into the CIL): it costs
 * the allocation's CPU (writeback_alloc_ns, the figure writeback's
 * xfs_bmapi_convert_delalloc pays) and pins the inode, so fdatasync
 * writes the log.  Before session 19 the model charged neither
 * (docs/seed-tables.md): no CPU, and fdatasync found nothing to force.
 */
static uint64_t t_alloc;

static void direct_allocate_then_sync(void *arg)
{
	struct km_file *file = m_world()->files[0];
	struct km_inode *inode = file->f_inode;
	struct km_iomap iomap;
	uint64_t t0 = sim_now();

	(void)arg;
	status[0] = m_xfs_writethrough_iomap_begin(inode, 0, PAGE_SIZE,
						   IOMAP_WRITE, &iomap);
	t_alloc = sim_now() - t0;
	cr_assert_eq(iomap.type, IOMAP_UNWRITTEN);
	cr_assert(iomap.flags & IOMAP_F_NEW);
	status[1] = km_xfs_file_fsync(file, 0, -1, 1);
	m_blkdev_timed_stats(&stats);
}

Test(bio_timed, direct_allocation_costs_its_cpu_and_pins_for_fdatasync)
{
	profile(&P, 8, true);
	timed = true;
	file_layout = "H";
	run(1, direct_allocate_then_sync);
	cr_assert_eq(status[0], 0);
	cr_assert_eq(status[1], 0);
	cr_assert_geq(t_alloc, m_cost_default.model.writeback_alloc_ns,
		      "the allocation took %llu ns",
		      (unsigned long long)t_alloc);
	cr_assert_eq(stats.log_writes, 1);
	file_layout = NULL;
}

/* ---- the loop device's worker (model/drivers/block/loop.c) ---- */

static long loop_pages = 1;

static void loop_writer(void *arg)
{
	long i = (long)arg;
	struct km_bio *bio = km_bio_alloc(REQ_OP_WRITE, opf,
					  (sector_t)i * 16 * SECTORS_PER_PAGE);

	bio->dio_len = (size_t)loop_pages * PAGE_SIZE;
	bio->data_id = 100 + (uint32_t)i;
	t_submit[i] = sim_now();
	status[i] = km_submit_bio_wait(bio);
	t_done[i] = sim_now();
	m_blkdev_timed_stats(&stats);
}

/* A write on a loop device: the worker charges loop_worker_ns before the
 * device's own delays start and the completion loop_complete_ns, so the
 * write takes that much longer than without the worker; one worker run,
 * one command; without the keys, no worker (the stats stay 0). */
Test(bio_timed, loop_worker__charges_before_the_device_and_at_completion)
{
	uint64_t plain;

	profile(&P, 8, true);
	timed = true;
	opf = 0;
	loop_pages = 1;
	run(1, loop_writer);
	plain = t_done[0] - t_submit[0];
	cr_assert_eq(stats.loop_cmds, 0);
	cr_assert_eq(stats.loop_works, 0);
	P.loop_worker_ns = 20000;
	P.loop_complete_ns = 3000;
	run(1, loop_writer);
	cr_assert_eq(status[0], 0);
	cr_assert_eq(stats.loop_cmds, 1);
	cr_assert_eq(stats.loop_works, 1);
	cr_assert_eq(stats.loop_busy_ns, 20000);
	cr_assert_geq(t_done[0] - t_submit[0], plain + 20000 + 3000);
	cr_assert_lt(t_done[0] - t_submit[0], plain + 20000 + 3000 + 2000);
	cr_assert_eq(m_dev_data(&m_world()->dev, 0), 100);
}

/* loop_seg_ns per data segment beyond the first (a direct write of four
 * user pages: four segments), and every command of a PREFLUSH write
 * without FUA goes through the worker: FLUSH, the data, FLUSH. */
Test(bio_timed, loop_worker__segments_and_every_command_of_a_flush_sequence)
{
	profile(&P, 8, false);
	P.loop_worker_ns = 20000;
	P.loop_seg_ns = 1000;
	timed = true;
	opf = 0;
	loop_pages = 4;
	run(1, loop_writer);
	cr_assert_eq(stats.loop_busy_ns, 20000 + 3 * 1000);
	opf = REQ_PREFLUSH | REQ_FUA;
	loop_pages = 1;
	run(1, loop_writer);
	cr_assert_eq(stats.device_cmds, 3);
	cr_assert_eq(stats.loop_cmds, 3);
	cr_assert_eq(stats.loop_busy_ns, 3 * 20000);
	cr_assert_eq(status[0], 0);
}

/* Four one-page writers at once on four CPUs through the loop worker
 * (the profile P set by the caller): each succeeds, four commands; the
 * first submission and the last completion in FIRST and LAST. */
static void run_four_loop_writers(uint64_t *first, uint64_t *last)
{
	*first = UINT64_MAX;
	*last = 0;
	timed = true;
	opf = 0;
	loop_pages = 1;
	run_cpus = 4;
	run(4, loop_writer);
	run_cpus = 1;
	for (int i = 0; i < 4; i++) {
		cr_assert_eq(status[i], 0);
		*first = t_submit[i] < *first ? t_submit[i] : *first;
		*last = t_done[i] > *last ? t_done[i] : *last;
	}
	cr_assert_eq(stats.loop_cmds, 4);
}

/* Four writers at once on four CPUs: one serial worker takes their
 * commands in turn (a run drains the list the others joined), so the
 * last write ends at least four worker charges after the first
 * submission (four workers at once would take one). */
Test(bio_timed, loop_worker__one_serial_worker)
{
	uint64_t first, last;

	profile(&P, 8, true);
	P.loop_worker_ns = 20000;
	run_four_loop_writers(&first, &last);
	cr_assert_geq(last - first, 4 * 20000);
}

/* Since session 22 (h22-loop): the worker charges only the submission
 * (lo_rw_aio returns -EIOCBQUEUED once the backing file's I/O is
 * submitted); loop_complete_ns is charged by the device's completion
 * event, not by the worker, so four commands cost the worker four
 * submissions however large the completion is, and the last write ends
 * before four serial (submission + completion) times. */
Test(bio_timed, loop_worker__completion_is_not_the_workers)
{
	uint64_t first, last;

	profile(&P, 8, true);
	P.loop_worker_ns = 2000;
	P.loop_complete_ns = 30000;
	run_four_loop_writers(&first, &last);
	cr_assert_eq(stats.loop_busy_ns, 4 * 2000);
	cr_assert_eq(stats.loop_completions, 4);
	/* Completions arriving inside a charged one's time share it
	 * (virtblk_done's loop, since session 22): the four come from one
	 * burst of the device, so fewer than four are charged. */
	cr_assert_gt(stats.loop_completions_shared, 0);
	cr_assert_eq(stats.loop_complete_ns,
		     (4 - stats.loop_completions_shared) * 30000);
	cr_assert_lt(last - first, 4 * (2000 + 30000),
		     "the four writes took %llu ns",
		     (unsigned long long)(last - first));
}

/* loop_run_ns (since session 22): a run of the worker costs its figure
 * once, whatever number of commands it drains: four writes at once are
 * taken by fewer runs than commands, and the worker's CPU is the runs'
 * and the commands' figures, not one run per command. */
Test(bio_timed, loop_worker__a_run_costs_once)
{
	uint64_t first, last;

	profile(&P, 8, true);
	P.loop_worker_ns = 2000;
	P.loop_run_ns = 10000;
	run_four_loop_writers(&first, &last);
	cr_assert_lt(stats.loop_works, 4);
	cr_assert_eq(stats.loop_busy_ns,
		     stats.loop_works * 10000 + 4 * 2000);
}
