// SPDX-License-Identifier: MIT
/*
 * tests/model/block/test_bdev_race.c - a race on the block device's page
 * cache (model/block/fops.c; Kernel: block/fops.c blkdev_read_iter,
 * mm/filemap.c kiocb_write_and_wait, v6.18).
 *
 * buffered_write_vs_direct_read__sees_the_write:
 *   W: 1. buffered pwrite64 of 4 KiB at 64 KiB (id 21): the page is
 *         dirty in the device's page cache, not on the device;
 *      2. done = 1 (the write has returned).
 *   R: 1. reads done;
 *      2. if it was 1, an O_DIRECT pread64 of the same 4 KiB.
 *   F: the flusher's pass over the device's inode (WB_SYNC_NONE), at
 *      any point: the page may be under writeback when R reads, which
 *      R must then wait for (the wait half of kiocb_write_and_wait).
 * Must hold: a direct read that starts after the buffered write returned
 * reads 21 (O_DIRECT reads what a completed write wrote: blkdev_read_iter
 * first writes the range's dirty folios back and waits,
 * kiocb_write_and_wait).
 * The bug (test-only, "no_write_and_wait": the direct read without that
 * step): R's bio reads the device under the dirty page: the old 0.
 * The buggy reader must be found to miss the write; the real path holds
 * in every interleaving (exhaustive DPOR).
 *
 * direct_write_vs_buffered_read__no_stale_page (block/fops.c
 * blkdev_direct_write, mm/filemap.c kiocb_invalidate_pages and
 * kiocb_invalidate_post_direct_write, v6.18):
 *   D: an O_DIRECT pwrite64 of 4 KiB at 64 KiB (id 30): drop the cached
 *      pages of the range, the bio, drop them again;
 *   R: a buffered pread64 of the same 4 KiB (page 16 not cached: a
 *      folio added locked, its read bio).
 * Must hold: once both have returned no clean cached page holds data
 * the device does not (the harness's end check: a clean folio whose
 * sectors differ from the device's, "lost write"): a page R cached with
 * the device's old 0 while D's bio was in flight is dropped by D's
 * second invalidation (it waits for R's folio lock, so R's read has
 * ended).
 * The bug (test-only, "no_post_invalidate": the direct write without
 * kiocb_invalidate_post_direct_write): R's page with 0 stays cached over
 * the device's 30, and every later buffered read returns 0.
 */
#include <criterion/criterion.h>

#include "model/block/fops.h"
#include "model/linux/bio.h"
#include "model/linux/syscalls.h"
#include "model/linux/writeback.h"
#include "sim/arena.h"
#include "wpsim/harness.h"

struct bdev_race {
	struct km_file *buffered, *direct;
	struct sim_word done;
	uint32_t ids[8];
	bool no_write_and_wait;		/* the bug */
	bool no_post_invalidate;	/* the second race's bug */
};

static struct bdev_race *ctx(void)
{
	return wpsim_race_current()->ctx;
}

static void race_setup(struct wpsim_race *race)
{
	struct bdev_race *c = race->ctx;

	/* The device's inode, before any task runs: every execution
	 * registers the same objects in the same order. */
	c->buffered = m_bdev_open(0);
	c->direct = m_bdev_open(KM_O_DIRECT);
	sim_word_init(&c->done, 0, "done");
	memset(c->ids, 0, sizeof(c->ids));
}

static void writer(void *arg)
{
	struct bdev_race *c = ctx();

	(void)arg;
	wpsim_reg_set(0, m_syscall(M_SYS_PWRITE64, &(struct m_sys_args){
		.file = c->buffered, .pos = 65536, .len = 4096,
		.data_id = 21 }));
	sim_word_write(&c->done, 1);
}

static void reader(void *arg)
{
	struct bdev_race *c = ctx();

	(void)arg;
	if (!sim_word_read(&c->done))
		return;
	wpsim_reg_set(1, 1);	/* the read started after the write */
	if (c->no_write_and_wait) {
		/* blkdev_read_iter's direct branch without
		 * kiocb_write_and_wait. */
		struct km_kiocb iocb = { .ki_filp = c->direct,
					 .ki_pos = 65536,
					 .ki_flags = IOCB_DIRECT };

		wpsim_reg_set(0, km_blkdev_direct_IO(&iocb, true, 4096, 0,
						     c->ids));
	} else {
		wpsim_reg_set(0, m_syscall(M_SYS_PREAD64,
			&(struct m_sys_args){ .file = c->direct,
					      .pos = 65536, .len = 4096,
					      .out = c->ids }));
	}
	wpsim_reg_set(2, c->ids[0]);
}

static void flusher(void *arg)
{
	(void)arg;
	wpsim_reg_set(0, m_writeback_inode(ctx()->buffered->f_inode,
					   WB_SYNC_NONE));
}

/* The violation: a read that began after the write returned, and did
 * not read the write's data. */
static bool missed_the_write(struct wpsim_race *race)
{
	(void)race;
	return wpsim_reg(1, 1) == 1 &&
	       (wpsim_reg(1, 0) != 4096 || wpsim_reg(1, 2) != 21);
}

static void race_init(struct wpsim_race *r, struct bdev_race *c,
		      bool bug)
{
	memset(c, 0, sizeof(*c));
	c->no_write_and_wait = bug;
	wpsim_race_init(r, bug ? "bdev-direct-read-no-write-and-wait" :
				 "bdev-direct-read-after-buffered-write");
	r->world.long_run = false;
	r->setup = race_setup;
	r->ctx = c;
	wpsim_race_task(r, "W", writer, NULL);
	wpsim_race_task(r, "R", reader, NULL);
	wpsim_race_task(r, "F", flusher, NULL);
	r->property = missed_the_write;
	r->property_text = "a direct read after the buffered write returned "
			   "missed it";
	r->preemptions = -1;
}

/*
 * The buffered write and the direct read (the file's header has the
 * whole picture):
 *   W: 1. buffered pwrite64 at 64 KiB (id 21); 2. done = 1.
 *   R: 1. reads done; 2. if 1, an O_DIRECT pread64 of the same 4 KiB.
 *   F: the flusher's pass over the device's inode, at any point.
 * Must hold: a direct read after the write returned reads 21.
 * Bug (test-only "no_write_and_wait": the read without
 * kiocb_write_and_wait): run here, it must be found (Sometimes).
 * Kernel: block/fops.c blkdev_read_iter, mm/filemap.c
 * kiocb_write_and_wait, v6.18.
 */
Test(race, buffered_write_vs_direct_read__buggy_misses_the_write)
{
	static struct bdev_race c;
	struct wpsim_race r;

	race_init(&r, &c, true);
	r.expect = WPSIM_SOMETIMES;
	WPSIM_ASSERT_RACE(&r);
}

/*
 * The buffered write and the direct read (the file's header has the
 * whole picture):
 *   W: 1. buffered pwrite64 at 64 KiB (id 21); 2. done = 1.
 *   R: 1. reads done; 2. if 1, an O_DIRECT pread64 of the same 4 KiB.
 *   F: the flusher's pass over the device's inode, at any point.
 * Must hold: a direct read after the write returned reads 21.
 * Bug (test-only "no_write_and_wait": the read without
 * kiocb_write_and_wait): none run here (the
 * test above runs it); the real path, exhaustively: Never.
 * Kernel: block/fops.c blkdev_read_iter, mm/filemap.c
 * kiocb_write_and_wait, v6.18.
 */
Test(race, buffered_write_vs_direct_read__sees_the_write)
{
	static struct bdev_race c;
	struct wpsim_race r;
	struct wpsim_race_result res;

	race_init(&r, &c, false);
	r.expect = WPSIM_NEVER;
	cr_assert_eq(wpsim_race_run(&r, stderr, &res), WPSIM_PASS,
		     "%s", res.message);
	cr_assert(res.complete, "the search did not cover its space");
	cr_assert_gt(res.executions, 1);
}

/* ---- direct_write_vs_buffered_read__no_stale_page ----------------------- */

static void direct_writer(void *arg)
{
	struct bdev_race *c = ctx();

	(void)arg;
	if (c->no_post_invalidate) {
		/* blkdev_direct_write without
		 * kiocb_invalidate_post_direct_write. */
		struct km_kiocb iocb = { .ki_filp = c->direct,
					 .ki_pos = 65536,
					 .ki_flags = IOCB_DIRECT };
		long ret = km_kiocb_invalidate_pages(&iocb, 4096);

		if (!ret)
			ret = km_blkdev_direct_IO(&iocb, false, 4096, 30,
						  NULL);
		wpsim_reg_set(0, ret);
		return;
	}
	wpsim_reg_set(0, m_syscall(M_SYS_PWRITE64, &(struct m_sys_args){
		.file = c->direct, .pos = 65536, .len = 4096,
		.data_id = 30 }));
}

static void buffered_reader(void *arg)
{
	struct bdev_race *c = ctx();

	(void)arg;
	wpsim_reg_set(0, m_syscall(M_SYS_PREAD64, &(struct m_sys_args){
		.file = c->buffered, .pos = 65536, .len = 4096,
		.out = c->ids }));
}

static void stale_race_init(struct wpsim_race *r, struct bdev_race *c,
			    bool bug)
{
	memset(c, 0, sizeof(*c));
	c->no_post_invalidate = bug;
	wpsim_race_init(r, bug ? "bdev-direct-write-no-post-invalidate" :
				 "bdev-direct-write-vs-buffered-read");
	r->setup = race_setup;
	r->ctx = c;
	wpsim_race_task(r, "D", direct_writer, NULL);
	wpsim_race_task(r, "R", buffered_reader, NULL);
	/* property NULL: the execution fails (the end check's stale
	 * page). */
	r->failure_contains = "lost write";
	r->preemptions = -1;
}

/*
 * The direct write and the buffered read (the file's header has the
 * whole picture):
 *   D: 1. drop the range's cached pages; 2. the bio (id 30); 3. drop
 *      them again.
 *   R: 1. a buffered pread64 of the same 4 KiB (a folio added, read).
 * Must hold: no clean cached page holds data the device does not (the
 * end check's "lost write").
 * Bug (test-only "no_post_invalidate": no
 * kiocb_invalidate_post_direct_write): run here, it must be found (Sometimes).
 * Kernel: block/fops.c blkdev_direct_write, mm/filemap.c
 * kiocb_invalidate_pages, kiocb_invalidate_post_direct_write, v6.18.
 */
Test(race, direct_write_vs_buffered_read__buggy_leaves_a_stale_page)
{
	static struct bdev_race c;
	struct wpsim_race r;

	stale_race_init(&r, &c, true);
	r.expect = WPSIM_SOMETIMES;
	WPSIM_ASSERT_RACE(&r);
}

/*
 * The direct write and the buffered read (the file's header has the
 * whole picture):
 *   D: 1. drop the range's cached pages; 2. the bio (id 30); 3. drop
 *      them again.
 *   R: 1. a buffered pread64 of the same 4 KiB (a folio added, read).
 * Must hold: no clean cached page holds data the device does not (the
 * end check's "lost write").
 * Bug (test-only "no_post_invalidate": no
 * kiocb_invalidate_post_direct_write): none run here (the
 * test above runs it); the real path, exhaustively: Never.
 * Kernel: block/fops.c blkdev_direct_write, mm/filemap.c
 * kiocb_invalidate_pages, kiocb_invalidate_post_direct_write, v6.18.
 */
Test(race, direct_write_vs_buffered_read__no_stale_page)
{
	static struct bdev_race c;
	struct wpsim_race r;
	struct wpsim_race_result res;

	stale_race_init(&r, &c, false);
	r.expect = WPSIM_NEVER;
	cr_assert_eq(wpsim_race_run(&r, stderr, &res), WPSIM_PASS,
		     "%s", res.message);
	cr_assert(res.complete, "the search did not cover its space");
	cr_assert_gt(res.executions, 1);
}

/* ---- __blkdev_direct_IO: each bio's reference before its submission ----- */

static void two_bio_writer(void *arg)
{
	struct bdev_race *c = ctx();
	long ret;

	(void)arg;
	ret = m_syscall(M_SYS_PWRITE64, &(struct m_sys_args){
		.file = c->direct, .pos = 0, .len = 2u << 20,
		.data_id = 40 });
	wpsim_reg_set(0, ret);
	/* Returned: both bios have ended, the last sector is written. */
	wpsim_reg_set(1, m_dev_data(&m_world()->dev, 4095));
	wpsim_reg_set(2, m_dev_data(&m_world()->dev, 0));
}

static bool two_bios_done(struct wpsim_race *race)
{
	(void)race;
	return wpsim_reg(0, 0) == (2 << 20) && wpsim_reg(0, 1) == 40 &&
	       wpsim_reg(0, 2) == 40;
}

/*
 * A synchronous O_DIRECT write of 2 MiB to the raw device: 512 pages,
 * so __blkdev_direct_IO builds two bios of BIO_MAX_VECS pages.
 *   W: 1. bio 1: the dio's reference taken for it (dio->ref 2), then
 *         submitted; 2. bio 2, the last: submitted on the reference
 *         the dio started with; 3. wait for the completion.
 *   each bio's end (an event of the untimed device, any time after
 *   its submission): drops a reference; the last completes the dio.
 * Must hold: in every order of the two ends against W's steps, the
 * write returns 2 MiB only once both bios have ended: the first and
 * the last sector hold its data when it returns.
 * Bug (a hand-made mutant, the reference taken after bio 1's
 * submission, as block/fops.c's `atomic_inc(&dio->ref)` moved below
 * `submit_bio`): bio 1 ends before the reference is taken, the count
 * reaches 0 and completes the dio while bio 2 is not yet written.
 * Kernel: block/fops.c __blkdev_direct_IO, blkdev_bio_end_io, v6.18.
 */
Test(race, two_bio_direct_write_returns_after_both_bios)
{
	static struct bdev_race c;
	struct wpsim_race r;
	struct wpsim_race_result res;

	memset(&c, 0, sizeof(c));
	wpsim_race_init(&r, "bdev-two-bio-direct-write");
	r.world.dev_sectors = 8192;	/* 4 MiB: room for the 2 MiB */
	r.world.long_run = false;
	r.setup = race_setup;
	r.ctx = &c;
	wpsim_race_task(&r, "W", two_bio_writer, NULL);
	r.property = two_bios_done;
	r.property_text = "the write returned after both bios ended";
	r.expect = WPSIM_ALWAYS;
	r.preemptions = -1;
	cr_assert_eq(wpsim_race_run(&r, stderr, &res), WPSIM_PASS,
		     "%s", res.message);
	cr_assert(res.complete, "the search did not cover its space");
	cr_assert_gt(res.executions, 1);
}

/* ---- BLKDISCARD vs a buffered read of the range -------------------------- */

static void discarder(void *arg)
{
	(void)arg;
	wpsim_reg_set(0, m_syscall(M_SYS_IOCTL, &(struct m_sys_args){
		.file = ctx()->direct, .flags = KM_BLKDISCARD, .pos = 0,
		.len = 16384 }));
}

static void range_reader(void *arg)
{
	struct bdev_race *c = ctx();

	(void)arg;
	wpsim_reg_set(0, m_syscall(M_SYS_PREAD64, &(struct m_sys_args){
		.file = c->buffered, .pos = 0, .len = 4096, .out = c->ids }));
}

/*
 * BLKDISCARD of the device's first 16 KiB vs a buffered pread64 of its
 * first page (the device's sectors 0-31 hold the world's data, 1000).
 *   D: 1. inode_lock and filemap_invalidate_lock (exclusive);
 *      2. truncate_bdev_range: the range's cached pages dropped;
 *      3. the discard bios: the sectors read back as zeroes;
 *      4. unlock.
 *   R: 1. filemap_read: no page cached, so a new folio is added and
 *         read from the device, under the invalidate lock shared
 *         (filemap_create_folio, page_cache_ra_unbounded).
 * R's read is either before D's step 1 (its page is then dropped at
 * step 2) or after D's step 4 (it reads zeroes).
 * Must hold: no clean cached page holds data the device does not (the
 * end check's "lost write").
 * Bug (a hand-made mutant: blk_ioctl_discard without inode_lock): R
 * adds and reads the page between steps 2 and 3, so a clean page of
 * 1000 stays cached over discarded sectors ("lost write: folio 1
 * sector 0 holds 1000, disk 0").  Without the invalidate lock alone it
 * passes: R holds i_rwsem shared (blkdev_read_iter), which step 1
 * excludes; the invalidate lock also keeps out readers that take no
 * i_rwsem (faults, readahead of a mapped device), which the model's
 * device has none of.
 * Kernel: block/ioctl.c blk_ioctl_discard, block/fops.c
 * blkdev_read_iter, mm/filemap.c filemap_create_folio, v6.18.
 */
Test(race, blkdiscard_vs_buffered_read__no_stale_page)
{
	static struct bdev_race c;
	struct wpsim_race r;
	struct wpsim_race_result res;

	memset(&c, 0, sizeof(c));
	wpsim_race_init(&r, "bdev-blkdiscard-vs-buffered-read");
	r.setup = race_setup;
	r.ctx = &c;
	wpsim_race_task(&r, "D", discarder, NULL);
	wpsim_race_task(&r, "R", range_reader, NULL);
	r.expect = WPSIM_NEVER;
	r.preemptions = -1;
	cr_assert_eq(wpsim_race_run(&r, stderr, &res), WPSIM_PASS,
		     "%s", res.message);
	cr_assert(res.complete, "the search did not cover its space");
	cr_assert_gt(res.executions, 1);
}

/* ---- buffered_write_vs_discard__all_or_nothing --------------------------- */

/*
 * What the device's pages 16 and 17 hold once both tasks have returned:
 * the cached folio's first sector if the page is cached, else the
 * device's (a peek of each, no step).
 */
static uint32_t page_now(pgoff_t p)
{
	struct m_world *w = m_world();
	struct km_address_space *m = &w->bdev_inode->i_data;
	uint64_t id = sim_word_peek(&m_xa_slot(m, p)->entry);

	if (id)
		return m_folio_sector(w->folios[id], 0);
	return m_dev_data(&w->dev, (sector_t)p << (PAGE_SHIFT - SECTOR_SHIFT));
}

static void discard_writer(void *arg)
{
	struct bdev_race *c = ctx();

	(void)arg;
	wpsim_reg_set(0, m_syscall(M_SYS_PWRITE64, &(struct m_sys_args){
		.file = c->buffered, .pos = 65536, .len = 8192,
		.data_id = 40 }));
}

static void range_discarder(void *arg)
{
	struct bdev_race *c = ctx();

	(void)arg;
	wpsim_reg_set(0, m_syscall(M_SYS_IOCTL, &(struct m_sys_args){
		.file = c->buffered, .flags = KM_BLKDISCARD, .pos = 65536,
		.len = 8192 }));
}

/* The violation: the two pages disagree (one the write's, one the
 * discard's zeroes), or a call failed. */
static bool torn(struct wpsim_race *race)
{
	(void)race;
	return wpsim_reg(0, 0) != 8192 || wpsim_reg(1, 0) != 0 ||
	       page_now(16) != page_now(17);
}

/*
 * A buffered write on the block device and a BLKDISCARD of its range:
 *   W: 1. buffered pwrite64 of 8 KiB at 64 KiB (id 40), pages 16-17,
 *         under the device inode's i_rwsem shared (blkdev_write_iter);
 *   D: 2. ioctl(BLKDISCARD) of the same 8 KiB: i_rwsem exclusive and
 *         the invalidate_lock, the range's cached pages dropped
 *         (truncate_bdev_range), the discard bios, waited for.
 * Must hold: the two pages end alike: both 40 (the discard first, the
 * write's pages left dirty in the cache) or both zeroes (the write
 * first, its pages dropped, then discarded); never one of each (the
 * i_rwsem keeps the write whole on one side of the discard).
 * Bug: none run (seed 64153's #41, the buffered write without the
 * i_rwsem, ended with page 16 zeroes and page 17 40: the write's first
 * page dropped by the discard's truncate, its second added after).
 * Kernel: block/fops.c blkdev_write_iter, block/ioctl.c
 * blk_ioctl_discard, v6.18.
 */
Test(race, buffered_write_vs_discard__all_or_nothing)
{
	static struct bdev_race c;
	struct wpsim_race r;
	struct wpsim_race_result res;

	memset(&c, 0, sizeof(c));
	wpsim_race_init(&r, "bdev-buffered-write-vs-discard");
	r.setup = race_setup;
	r.ctx = &c;
	wpsim_race_task(&r, "W", discard_writer, NULL);
	wpsim_race_task(&r, "D", range_discarder, NULL);
	r.property = torn;
	r.property_text = "the two pages disagree after a write and a "
			  "discard of both";
	r.preemptions = -1;
	r.expect = WPSIM_NEVER;
	cr_assert_eq(wpsim_race_run(&r, stderr, &res), WPSIM_PASS,
		     "%s", res.message);
	cr_assert(res.complete, "the search did not cover its space");
	cr_assert_gt(res.executions, 1);
}
