// SPDX-License-Identifier: MIT
/*
 * tests/model/fs/test_xfs_ioend.c - where an XFS buffered ioend
 * completes: in the bio's end_io in the interrupt (no kworker, no
 * ILOCK), or in the ioend workqueue's kworker.
 *
 * Kernel (v6.18): fs/xfs/xfs_aops.c xfs_writeback_submit sets
 * bi_end_io = xfs_end_bio only when xfs_ioend_needs_wq_completion: the
 * ioend is an append (io_offset + io_size > i_disk_size), unwritten or
 * shared, or DONTCACHE (iomap_add_to_ioend found the folio dropbehind).
 * xfs_end_bio queues the ioend to the m_unwritten_workqueue kworker,
 * whose xfs_end_ioend converts unwritten extents
 * (xfs_iomap_write_unwritten) and logs the size (xfs_setfilesize), both
 * under the ILOCK.  Any other ioend keeps iomap's ioend_writeback_end_bio
 * and ends writeback in the interrupt (fs/iomap/ioend.c); there
 * folio_end_dropbehind (mm/filemap.c) skips the drop: in_task() is false.
 *
 * Before the model followed this (main at a36c549), every XFS ioend
 * went to a "kworker/xfs-conv" task on the timed device and took the
 * ILOCK exclusive in its completion, overwrite or not: the overwrite
 * tests below failed there (one kworker, i_data_sem taken by it).
 *
 * One writer: pwrite (or pwritev2 RWF_DONTCACHE) of a page, then fsync.
 * Timed, the tasks an execution spawned tell whether a kworker ran and
 * the event log which context took i_data_sem (the model's ILOCK);
 * untimed, the completion event ("bio-write") does the kworker's work
 * itself, so the log says whether it took the ILOCK.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "model/fs/xfs.h"
#include "model/linux/bio.h"
#include "model/linux/pagemap.h"
#include "model/linux/preempt.h"
#include "model/linux/syscalls.h"
#include "model/world.h"
#include "wpsim/harness.h"
#include "sim/strategy.h"
#include "../timed-profile.h"

static struct hw_nvme_profile P;

/* One case: the file, the write, and what the run saw. */
static struct ioend_case {
	const char *layout;	/* blocks of 4 KiB, from 0 */
	loff_t size;
	loff_t pos;		/* the write: one page at pos */
	bool dontcache;
	bool timed;
	/* Seen by the writer after its fsync. */
	unsigned int kworkers;	/* tasks named kworker/xfs-conv */
	unsigned int ilock_by_completion; /* i_data_sem taken off the writer */
	unsigned int ilock_by_writer;
	long written;
	int synced;
	loff_t disk_size;
	char block;		/* the written block's state after */
	unsigned long nrpages;
} C;

static void scan_execution(void)
{
	const struct sim_event *ev;
	uint32_t n = sim_exec_events(&ev);

	cr_assert_eq(sim_exec_events_dropped(), 0);
	for (uint32_t i = 0; i < n; i++) {
		const char *task = sim_exec_task_name(ev[i].task);

		if (ev[i].access == SIM_ACCESS_SPAWN && ev[i].value <
		    sim_exec_task_count() &&
		    !strcmp(sim_exec_task_name((uint32_t)ev[i].value),
			    "kworker/xfs-conv"))
			C.kworkers++;
		if ((ev[i].access == SIM_ACCESS_ACQUIRE ||
		     ev[i].access == SIM_ACCESS_ACQUIRE_SHARED) &&
		    ev[i].object &&
		    !strcmp(sim_exec_object_name(ev[i].object),
			    "i_data_sem")) {
			if (!strcmp(task, "t"))
				C.ilock_by_writer++;
			else
				C.ilock_by_completion++;
		}
	}
}

static void writer(void *arg)
{
	struct km_file *file = m_world()->files[0];
	struct km_inode *inode = file->f_inode;

	(void)arg;
	C.written = m_syscall(C.dontcache ? M_SYS_PWRITEV2 : M_SYS_PWRITE64,
			      &(struct m_sys_args){
				      .file = file, .pos = C.pos,
				      .len = PAGE_SIZE, .data_id = 7,
				      .flags = C.dontcache ? RWF_DONTCACHE : 0,
			      });
	C.synced = (int)m_syscall(M_SYS_FSYNC,
				  &(struct m_sys_args){ .file = file });
	C.disk_size = (loff_t)sim_word_peek(&inode->i_disksize);
	C.block = m_extent_peek(inode, (unsigned long)(C.pos >> 12));
	C.nrpages = (unsigned long)sim_word_peek(&inode->i_data.nrpages);
	/* The writer's own context: a task. */
	cr_assert(km_in_task());
	scan_execution();
}

static void setup(void *unused)
{
	struct m_world_config c;

	(void)unused;
	m_world_config_default(&c);
	c.files[0].size = C.size;
	c.files[0].layout = C.layout;
	m_world_setup(&c);
	if (C.timed)
		cr_assert_eq(m_blkdev_attach_timed(&m_world()->dev, &P, 1, 7),
			     0);
	sim_task_spawn("t", writer, NULL);
}

/* One execution: timed (the timed strategy), or untimed (the first
 * schedule of a random search: one writer, its bios' completions). */
static void run(const char *layout, loff_t size, loff_t pos, bool dontcache,
		bool timed)
{
	static const struct sim_program prog = { .name = "xfs-ioend",
						 .setup = setup };
	struct sim_outcome o;

	memset(&C, 0, sizeof(C));
	C.layout = layout;
	C.size = size;
	C.pos = pos;
	C.dontcache = dontcache;
	C.timed = timed;
	if (timed) {
		timed_test_profile(&P);
		timed_test_run(&prog, &o);
	} else {
		struct sim_exec_options exec = { 0 };
		struct sim_strategy s;

		sim_strategy_random(&s, 1, 1);
		sim_exec_run(&prog, &s, &exec, &o);
		sim_strategy_fini(&s);
	}
	cr_assert_eq(o.kind, SIM_OK, "%s", o.message);
	cr_assert_eq(C.written, (long)PAGE_SIZE);
	cr_assert_eq(C.synced, 0);
}

/* An overwrite of a written block inside i_disk_size: the interrupt. */
Test(xfs_ioend, overwrite_completes_in_the_interrupt_without_ilock)
{
	run("WW", 2 * PAGE_SIZE, 0, false, true);
	cr_assert_eq(C.kworkers, 0, "%u kworkers", C.kworkers);
	cr_assert_eq(C.ilock_by_completion, 0,
		     "the completion took the ILOCK %u times",
		     C.ilock_by_completion);
	cr_assert_eq(C.block, M_EXT_WRITTEN);
	cr_assert_eq(C.disk_size, 2 * PAGE_SIZE);
}

/* The same untimed: the completion event takes no ILOCK. */
Test(xfs_ioend, overwrite_untimed_completion_takes_no_ilock)
{
	run("WW", 2 * PAGE_SIZE, 0, false, false);
	cr_assert_eq(C.kworkers, 0);
	cr_assert_eq(C.ilock_by_completion, 0,
		     "the completion took the ILOCK %u times",
		     C.ilock_by_completion);
}

/* Preallocated unwritten blocks: the kworker converts under the ILOCK. */
Test(xfs_ioend, unwritten_completes_in_the_kworker_under_ilock)
{
	run("UU", 2 * PAGE_SIZE, 0, false, true);
	cr_assert_eq(C.kworkers, 1, "%u kworkers", C.kworkers);
	cr_assert_geq(C.ilock_by_completion, 1);
	cr_assert_eq(C.block, M_EXT_WRITTEN);
}

/* Untimed: the completion event does the kworker's conversion. */
Test(xfs_ioend, unwritten_untimed_completion_takes_the_ilock)
{
	run("UU", 2 * PAGE_SIZE, 0, false, false);
	cr_assert_geq(C.ilock_by_completion, 1);
	cr_assert_eq(C.block, M_EXT_WRITTEN);
}

/* A hole: delalloc, allocated unwritten at writeback, converted. */
Test(xfs_ioend, hole_completes_in_the_kworker_under_ilock)
{
	run("HH", 2 * PAGE_SIZE, 0, false, true);
	cr_assert_eq(C.kworkers, 1, "%u kworkers", C.kworkers);
	cr_assert_geq(C.ilock_by_completion, 1);
	cr_assert_eq(C.block, M_EXT_WRITTEN);
}

/*
 * An append onto a written block past EOF (not unwritten): the ioend
 * ends past i_disk_size, so the kworker logs the size (xfs_setfilesize,
 * ILOCK exclusive).
 */
Test(xfs_ioend, append_completes_in_the_kworker_and_sets_the_size)
{
	run("WW", PAGE_SIZE, PAGE_SIZE, false, true);
	cr_assert_eq(C.kworkers, 1, "%u kworkers", C.kworkers);
	cr_assert_geq(C.ilock_by_completion, 1);
	cr_assert_eq(C.disk_size, 2 * PAGE_SIZE);
	cr_assert_eq(C.block, M_EXT_WRITTEN);
}

/*
 * A DONTCACHE overwrite: the ioend is DONTCACHE, so it goes to the
 * kworker (the page cache invalidation needs a task), which takes no
 * ILOCK (nothing to convert, no size to log) and drops the folio.
 */
Test(xfs_ioend, dontcache_overwrite_completes_in_the_kworker_without_ilock)
{
	run("WW", 2 * PAGE_SIZE, 0, true, true);
	cr_assert_eq(C.kworkers, 1, "%u kworkers", C.kworkers);
	cr_assert_eq(C.ilock_by_completion, 0,
		     "the completion took the ILOCK %u times",
		     C.ilock_by_completion);
	cr_assert_eq(C.nrpages, 0, "%lu pages cached", C.nrpages);
}

/* ---- the completion's context and the dropbehind drop ----------------- */

/*
 * The writer of the race below: start writeback of page 0 (dirty at
 * setup), then mark it dropbehind while its ioend is in flight (built
 * without IOMAP_IOEND_DONTCACHE: the folio was not dropbehind), then
 * wait for the writeback.  The mark is the test's own step, standing for
 * a mark no kernel path of v6.18 makes on a folio under writeback
 * without dirtying it (seed 003's folio_mark_dropbehind is followed by
 * the write's copy); it isolates the context rule.
 */
static void mark_during_writeback(void *arg)
{
	struct km_file *file = wpsim_file("f");
	struct km_folio *folio = m_folio_lookup(km_inode_mapping(
							file->f_inode), 0);

	(void)arg;
	m_syscall(M_SYS_SYNC_FILE_RANGE, &(struct m_sys_args){
		.file = file, .pos = 0, .len = PAGE_SIZE,
		.flags = KM_SYNC_FILE_RANGE_WRITE });
	sim_bit_set(&folio->flags, PG_dropbehind);
	km_folio_wait_writeback(folio);
}

/* The folio was dropped: page 0 left the page cache. */
static bool page_dropped(struct wpsim_race *r)
{
	(void)r;
	return m_folio_lookup(km_inode_mapping(wpsim_file("f")->f_inode),
			      0) == NULL;
}

static bool run_mark_race(const char *layout, enum wpsim_expect expect)
{
	struct wpsim_race r;

	wpsim_race_init(&r, "ioend-context-dropbehind");
	r.world.files[0].size = PAGE_SIZE;
	r.world.files[0].layout = layout;
	r.world.files[0].cached_first = 0;
	r.world.files[0].cached_last = 0;
	r.world.files[0].dirty_first = 0;
	r.world.files[0].dirty_last = 0;
	wpsim_race_task(&r, "writer", mark_during_writeback, NULL);
	r.property = page_dropped;
	r.property_text = "page 0 dropped by the writeback's completion";
	r.expect = expect;
	return wpsim_race_check_named(&r, "race",
		"ioend_completion_vs_mark_dropbehind__dropped_in_task_only");
}

/*
 *   writer                             completion (device event)
 *   1. sync_file_range(WRITE): page 0's
 *      ioend built (not DONTCACHE),
 *      bio submitted
 *   2. PG_dropbehind set               (may run before or after 2)
 *   3. folio_wait_writeback            ioend_writeback_end_bio or the
 *                                      kworker: folio_end_writeback ->
 *                                      folio_end_dropbehind
 * Written block inside i_disk_size (an overwrite): the ioend ends in
 * the interrupt, where folio_end_dropbehind skips the drop whenever 2
 * ran first, and nothing drops it when 2 ran after: Never dropped.
 * Unwritten block: the kworker ends it in task context and drops the
 * folio when 2 ran first: Sometimes dropped.
 * Must hold: page 0 is dropped only by a completion in task context:
 * Never for the overwrite, Sometimes for the unwritten block.
 * Bug (none run): main at a36c549 ran every completion as task context
 * and dropped the overwrite's folio (Sometimes); this test failed there.
 * Kernel: mm/filemap.c folio_end_dropbehind (in_task() && folio_trylock),
 * fs/xfs/xfs_aops.c xfs_ioend_needs_wq_completion, v6.18.
 */
Test(race, ioend_completion_vs_mark_dropbehind__dropped_in_task_only)
{
	cr_assert(run_mark_race("W", WPSIM_NEVER));
	cr_assert(run_mark_race("U", WPSIM_SOMETIMES));
}

/* in_task(): false between irq_enter and irq_exit, per context. */
static void irq_nesting(void *arg)
{
	(void)arg;
	cr_assert(km_in_task());
	km_irq_enter();
	cr_assert(!km_in_task());
	km_irq_enter();
	km_irq_exit();
	cr_assert(!km_in_task());
	km_irq_exit();
	cr_assert(km_in_task());
}

Test(xfs_ioend, in_task_follows_irq_enter_and_exit)
{
	struct wpsim_race r;

	wpsim_race_init(&r, "in-task");
	wpsim_race_task(&r, "t", irq_nesting, NULL);
	r.expect = WPSIM_NEVER;
	cr_assert(wpsim_race_check(&r));
}

/* ---- the inode's one work item (xfs_end_bio, xfs_end_io) ------------- */

/* An ioend of [off, off + size) at @sector, for the list functions. */
static struct m_ioend mk_ioend(loff_t off, size_t size, sector_t sector,
			       unsigned int flags)
{
	return (struct m_ioend){ .io_offset = off, .io_size = size,
				 .io_sector = sector, .io_flags = flags };
}

/*
 * iomap_sort_ioends (list_sort by io_offset, stable) and
 * iomap_ioend_try_merge (fs/iomap/ioend.c, v6.18): the list of four
 * ioends queued out of order comes back by offset; the first takes the
 * one that continues it in the file and on the device with the same
 * NOMERGE flags, and stops at the first that does not.
 */
Test(xfs_ioend, sort_then_merge_follows_offset_sector_and_flags)
{
	struct m_ioend a = mk_ioend(8192, 4096, 16, 0);
	struct m_ioend b = mk_ioend(0, 4096, 0, 0);
	struct m_ioend c = mk_ioend(4096, 4096, 8, 0);
	struct m_ioend d = mk_ioend(12288, 4096, 24,
				    IOMAP_IOEND_DONTCACHE);
	struct m_ioend *list = &a;

	a.io_list = &d;
	d.io_list = &b;
	b.io_list = &c;
	km_iomap_sort_ioends(&list);
	cr_assert_eq(list, &b);
	cr_assert_eq(b.io_list, &c);
	cr_assert_eq(c.io_list, &a);
	cr_assert_eq(a.io_list, &d);
	cr_assert_null(d.io_list);

	/* b takes c and a (contiguous, same flags), not d (DONTCACHE). */
	list = b.io_list;
	b.io_list = NULL;
	km_iomap_ioend_try_merge(&b, &list);
	cr_assert_eq(b.io_size, 3 * 4096);
	cr_assert_eq(b.io_merged, &c);
	cr_assert_eq(c.io_merged, &a);
	cr_assert_null(a.io_merged);
	cr_assert_eq(list, &d);

	/* Not on the device after the first: no merge. */
	{
		struct m_ioend e = mk_ioend(0, 4096, 0, 0);
		struct m_ioend f = mk_ioend(4096, 4096, 800, 0);
		struct m_ioend *more = &f;

		km_iomap_ioend_try_merge(&e, &more);
		cr_assert_eq(e.io_size, 4096);
		cr_assert_null(e.io_merged);
		cr_assert_eq(more, &f);
	}
}

static struct work_case {
	unsigned int kworkers;
	loff_t disk_size;
	bool list_empty;
	unsigned int work;
} W;

static void count_kworkers(void)
{
	const struct sim_event *ev;
	uint32_t n = sim_exec_events(&ev);

	for (uint32_t i = 0; i < n; i++)
		if (ev[i].access == SIM_ACCESS_SPAWN &&
		    ev[i].value < sim_exec_task_count() &&
		    !strcmp(sim_exec_task_name((uint32_t)ev[i].value),
			    "kworker/xfs-conv"))
			W.kworkers++;
}

/*
 * Two appends, each written back on its own (two ioends), whose bios
 * complete while the writer holds the ILOCK: the first completion queues
 * the work and a worker starts, takes the list and waits for the ILOCK
 * in the size update; the second finds the list empty and the work
 * executing, so it only queues its ioend and marks the work pending;
 * the same worker completes it after the first.  One kworker for two
 * ioends (before this, one kworker per ioend: 2).
 */
static void two_appends(void *arg)
{
	struct km_file *file = m_world()->files[0];
	struct km_inode *inode = file->f_inode;

	(void)arg;
	for (loff_t p = 1; p <= 2; p++) {
		cr_assert_eq(m_syscall(M_SYS_PWRITE64, &(struct m_sys_args){
			.file = file, .pos = p * PAGE_SIZE, .len = PAGE_SIZE,
			.data_id = 7 }), (long)PAGE_SIZE);
		m_syscall(M_SYS_SYNC_FILE_RANGE, &(struct m_sys_args){
			.file = file, .pos = p * PAGE_SIZE, .len = PAGE_SIZE,
			.flags = KM_SYNC_FILE_RANGE_WRITE });
	}
	km_down_write(&inode->i_data_sem);
	sim_cpu_spend(2000000);		/* both bios complete meanwhile */
	km_up_write(&inode->i_data_sem);
	cr_assert_eq(m_syscall(M_SYS_FSYNC,
			       &(struct m_sys_args){ .file = file }), 0);
	W.disk_size = (loff_t)sim_word_peek(&inode->i_disksize);
	W.list_empty = inode->i_ioend_list == NULL;
	W.work = inode->i_ioend_work;
	count_kworkers();
}

static void setup_two_appends(void *unused)
{
	struct m_world_config c;

	(void)unused;
	m_world_config_default(&c);
	c.files[0].size = PAGE_SIZE;
	c.files[0].layout = "W";
	c.files[0].large_folios = true;
	m_world_setup(&c);
	cr_assert_eq(m_blkdev_attach_timed(&m_world()->dev, &P, 1, 7), 0);
	sim_task_spawn("t", two_appends, NULL);
}

Test(xfs_ioend, ioends_of_one_inode_complete_in_one_work_item)
{
	static const struct sim_program prog = {
		.name = "xfs-ioend-work", .setup = setup_two_appends };
	struct sim_outcome o;

	memset(&W, 0, sizeof(W));
	timed_test_profile(&P);
	timed_test_run(&prog, &o);
	cr_assert_eq(o.kind, SIM_OK, "%s", o.message);
	cr_assert_eq(W.kworkers, 1, "%u kworkers", W.kworkers);
	cr_assert_eq(W.disk_size, 3 * PAGE_SIZE);
	cr_assert(W.list_empty);
	cr_assert_eq(W.work, 0);
}
