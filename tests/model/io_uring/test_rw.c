// SPDX-License-Identifier: MIT
/*
 * tests/model/io_uring/test_rw.c - io_uring buffered writes (seed 004):
 * each -EAGAIN source, the punt, the short inline write finished by the
 * worker, and the hand-off counts; and buffered reads, short or -EAGAIN
 * inline and finished by the worker.
 *
 * Every test pins the fast path's cost (the data wave 2's latency model
 * prices): inline attempts, worker attempts, task hand-offs (0 when the
 * request completes inline; 2 when punted: submitter -> io-wq worker ->
 * the waiting submitter), bytes written inline, and exactly one CQE.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "wpsim/harness.h"

static struct km_file *F(void)
{
	return m_world()->files[0];
}
#include "model/io_uring/rw.h"
#include "model/linux/syscalls.h"

static struct wpsim_race T;
static struct m_io_uring_req req;
static long res;

static void run(void)
{
	T.name = "io-uring";
	WPSIM_ASSERT_RUN_ONCE(&T);
}

/* The request's cost: attempts, hand-offs, inline bytes, one CQE. */
static void assert_cost(unsigned int inline_attempts,
			unsigned int worker_attempts, unsigned int handoffs,
			size_t inline_bytes)
{
	cr_assert_eq(req.inline_attempts, inline_attempts);
	cr_assert_eq(req.worker_attempts, worker_attempts);
	cr_assert_eq(req.handoffs, handoffs);
	cr_assert_eq(req.punted, handoffs != 0);
	cr_assert_eq(req.inline_bytes, inline_bytes);
	cr_assert_eq(req.cqes, 1);
}

static void config(long pages, long cached_last)
{
	wpsim_race_init(&T, "io-uring");
	T.world.files[0].size = pages * 4096;
	T.world.files[0].cached_first = 0;
	T.world.files[0].cached_last = cached_last;
}

static loff_t range[2];

static void write_task(void *arg)
{
	(void)arg;
	m_io_uring_req_init(&req, F(), range[0], (size_t)range[1], 0, 9);
	res = m_io_uring_write(&req);
}

/* Everything cached and nothing contended: completes inline, no punt. */
Test(io_uring, nothing_blocks__completed_inline)
{
	config(1, 0);
	range[0] = 0;
	range[1] = 4096;
	wpsim_race_task(&T, "P0", write_task, NULL);
	T.world.files[0].nosec = true;
	run();
	cr_assert_eq(res, 4096);
	assert_cost(1, 0, 0, 4096);
}

/* A partial write to a block that is not cached must be read: punt. */
Test(io_uring, partial_block_needs_a_read__punted)
{
	config(1, -1);
	range[0] = 512;
	range[1] = 512;
	wpsim_race_task(&T, "P0", write_task, NULL);
	run();
	cr_assert_eq(res, 512);
	assert_cost(1, 1, 2, 0);
}

/*
 * The first page cached, the second not: the inline attempt writes the
 * first page (short write), the worker reads the second block and writes
 * the rest; one CQE carries the total; the data is intact.
 */
static void check_short(struct wpsim_race *r)
{
	struct km_folio *f0 = m_folio_lookup(&F()->f_inode->i_data, 0);
	struct km_folio *f1 = m_folio_lookup(&F()->f_inode->i_data, 1);

	(void)r;

	SIM_ASSERT(f0 && f1);
	for (int s = 0; s < 8; s++)
		SIM_ASSERT_EQ(m_folio_sector(f0, s), 9);
	SIM_ASSERT_EQ(m_folio_sector(f1, 0), 9);
	SIM_ASSERT_EQ(m_folio_sector(f1, 1), 1000);
}

Test(io_uring, first_part_cached__short_inline_then_worker)
{
	config(2, 0);
	range[0] = 0;
	range[1] = 4096 + 512;
	wpsim_race_task(&T, "P0", write_task, NULL);
	T.final = check_short;
	run();
	cr_assert_eq(res, 4096 + 512);
	cr_assert_eq(req.bytes_done, 4096);
	assert_cost(1, 1, 2, 4096);
}

/*
 * A short write in the worker completes the request; it is not issued
 * again.  Nothing cached, a write of [512, 8192) whose user buffer faults
 * after 1024 bytes:
 *   1. inline (NOWAIT): block 0 is partial and not cached, a read would
 *      block -> -EAGAIN with no progress -> punt;
 *   2. worker (blocking): reads block 0, copies 1024 bytes, the next copy
 *      faults -> the write returns 1024, a short write -> io_write keeps
 *      bytes_done = 1024 and returns -EAGAIN;
 *   3. io_wq_submit_work does not retry -EAGAIN for a file that is not
 *      pollable without IOPOLL: io_req_task_queue_fail -> io_rw_fail, the
 *      CQE is bytes_done = 1024.
 * The model before the fix looped in the worker: a second blocking issue
 * (worker_attempts 2) got -EFAULT, the same CQE.
 * Kernel: io_uring/io_uring.c io_wq_submit_work, io_uring/rw.c io_write,
 * io_rw_fail, v6.18.
 */
static void fault_task(void *arg)
{
	(void)arg;
	m_io_uring_req_init(&req, F(), 512, 8192 - 512, 0, 9);
	req.fault_after = 1024;
	res = m_io_uring_write(&req);
}

Test(io_uring, worker_short_write__completed_not_reissued)
{
	config(2, -1);
	wpsim_race_task(&T, "P0", fault_task, NULL);
	run();
	cr_assert_eq(res, 1024);
	cr_assert_eq(req.bytes_done, 1024);
	assert_cost(1, 1, 2, 0);
}

/*
 * The inode lock is held by another writer: the inline trylock fails,
 * the worker waits for the lock and completes.
 *   P0: inode_lock; signal; wait for P1's submission; unlock
 *   P1: wait for the signal; submit (inline -EAGAIN, punt); tell P0; wait
 */
static struct sim_completion *locked, *submitted;

static void holder(void *arg)
{
	(void)arg;
	km_inode_lock(F()->f_inode);
	sim_completion_complete(locked);
	sim_completion_wait(submitted);
	km_inode_unlock(F()->f_inode);
}

static void submitter(void *arg)
{
	(void)arg;
	sim_completion_wait(locked);
	m_io_uring_req_init(&req, F(), 0, 4096, 0, 9);
	m_io_uring_submit(&req);
	sim_completion_complete(submitted);
	res = m_io_uring_wait(&req);
}

static void lock_final(struct wpsim_race *r)
{
	(void)r;
	/* In every interleaving: punted at the lock, completed whole by
	 * one blocking worker attempt: two hand-offs, one CQE. */
	SIM_ASSERT(req.punted);
	SIM_ASSERT_EQ(res, 4096);
	SIM_ASSERT_EQ(req.inline_attempts, 1);
	SIM_ASSERT_EQ(req.worker_attempts, 1);
	SIM_ASSERT_EQ(req.handoffs, 2);
	SIM_ASSERT_EQ(req.inline_bytes, 0);
	SIM_ASSERT_EQ(req.cqes, 1);
}

static void lock_setup(struct wpsim_race *r)
{
	(void)r;
	locked = sim_arena_alloc(sizeof(*locked));
	submitted = sim_arena_alloc(sizeof(*submitted));
	sim_completion_init(locked, "locked");
	sim_completion_init(submitted, "submitted");
}

/*
 * @holder takes a lock the submitter's inline attempt meets; every
 * interleaving must punt and complete in the worker (lock_final).
 */
static void explore_lock_held(sim_task_fn holder_fn, const char *name)
{
	struct sim_explore_result r;

	config(1, 0);
	T.world.files[0].nosec = true;
	wpsim_race_task(&T, "P0", holder_fn, NULL);
	wpsim_race_task(&T, "P1", submitter, NULL);
	T.final = lock_final;
	T.name = name;
	T.setup = lock_setup;
	cr_assert_eq(wpsim_race_explore(&T, &r), 0);
	cr_assert_eq(r.failures, 0, "%s", r.first.outcome.message);
	cr_assert(r.complete);
	cr_log_info("%s: %llu executions", name,
		    (unsigned long long)r.executions);
	sim_explore_result_fini(&r);
}

Test(io_uring, inode_lock_held__punted_and_completed_by_the_worker)
{
	/* Every interleaving: the inline attempt always meets the lock. */
	explore_lock_held(holder, "io-uring-lock");
}

/*
 * At the dirty limit: BDP_ASYNC makes the inline attempt -EAGAIN and the
 * request is punted.  A task looks at the limits only once it has
 * dirtied its nr_dirtied_pause pages (balance_dirty_pages_ratelimited_
 * flags, v6.18; with a limit of 1 page, 1): the submitter first dirties
 * page 0 itself, then its io_uring write of page 1 meets the limit.  The
 * io-wq worker is another task that has dirtied nothing, so it writes
 * without looking (the kernel's worker does the same).
 */
static void dirty_then_uring(void *arg)
{
	(void)arg;
	SIM_ASSERT_EQ(m_pwritev2(F(), 0, 4096, 0, 8, 0), 4096);
	m_io_uring_req_init(&req, F(), 4096, 4096, 0, 9);
	res = m_io_uring_write(&req);
}

Test(io_uring, dirty_limit__punted_with_bdp_async)
{
	config(2, 1);
	T.world.dirty_limit_pages = 1;
	T.world.files[0].nosec = true;
	wpsim_race_task(&T, "P0", dirty_then_uring, NULL);
	run();
	cr_assert_eq(res, 4096);
	assert_cost(1, 1, 2, 0);
	cr_assert_eq(m_world()->wb.nr_eagain, 1);
}

/*
 * --variant uring=v1 (seed 004 v1 12-13/14): at the limit the inline
 * attempt is not failed; balance_dirty_pages records the pause's end in
 * the task (bdp_pause) and the write completes inline.  The task's next
 * buffered write meets write_delay(): it goes on the task's pending
 * list, and the timer at the deadline hands it to io-wq, whose worker
 * writes it.  No -EAGAIN anywhere.
 */
static struct m_io_uring_req req2;
static long res2;

static void dirty_then_two_urings(void *arg)
{
	(void)arg;
	SIM_ASSERT_EQ(m_pwritev2(F(), 0, 4096, 0, 8, 0), 4096);
	m_io_uring_req_init(&req, F(), 4096, 4096, 0, 9);
	res = m_io_uring_write(&req);
	m_io_uring_req_init(&req2, F(), 8192, 4096, 0, 10);
	res2 = m_io_uring_write(&req2);
}

Test(io_uring, v1_dirty_limit__deadline_then_delayed_to_io_wq)
{
	config(3, 2);
	T.world.dirty_limit_pages = 1;
	T.world.uring = M_URING_V1;
	T.world.files[0].nosec = true;
	wpsim_race_task(&T, "P0", dirty_then_two_urings, NULL);
	run();
	cr_assert_eq(res, 4096);
	cr_assert(!req.punted && !req.delayed, "the first completes inline");
	cr_assert_eq(res2, 4096);
	cr_assert(req2.delayed && req2.punted,
		  "the second waits for the deadline, then io-wq");
	cr_assert_eq(req2.inline_attempts, 0);
	cr_assert_eq(req2.worker_attempts, 1);
	cr_assert_eq(m_world()->wb.nr_deferred, 1);
	cr_assert_eq(m_world()->wb.nr_eagain, 0);
}

/* A user RWF_NOWAIT is never punted: -EAGAIN is the CQE. */
static void user_nowait(void *arg)
{
	(void)arg;
	m_io_uring_req_init(&req, F(), 512, 512, RWF_NOWAIT, 9);
	res = m_io_uring_write(&req);
}

Test(io_uring, user_nowait__eagain_is_the_result)
{
	config(1, -1);
	wpsim_race_task(&T, "P0", user_nowait, NULL);
	run();
	cr_assert_eq(res, -KM_EAGAIN);
	assert_cost(1, 0, 0, 0);
}

/*
 * The folio is locked by another task (FGP_NOWAIT in __filemap_get_folio
 * would wait): the inline attempt returns -EAGAIN, the worker sleeps on
 * the folio lock and writes.
 *   P0: folio_lock(page 0); signal; wait for P1's submission; unlock
 *   P1: wait for the signal; submit (inline -EAGAIN, punt); tell P0; wait
 * Kernel: mm/filemap.c __filemap_get_folio (FGP_NOWAIT), io_uring/rw.c.
 */
static void folio_holder(void *arg)
{
	struct km_folio *folio = m_folio_lookup(&F()->f_inode->i_data, 0);

	(void)arg;
	km_folio_lock(folio);
	sim_completion_complete(locked);
	sim_completion_wait(submitted);
	km_folio_unlock(folio);
}

Test(io_uring, folio_locked__punted_and_completed_by_the_worker)
{
	explore_lock_held(folio_holder, "io-uring-folio-lock");
}

/*
 * The timestamps need an update (kiocb_modified under IOCB_NOWAIT: it
 * could block on the log): -EAGAIN inline, the worker updates them and
 * writes.  Explored: the request and its bio completions in every order.
 * Kernel: fs/inode.c kiocb_modified, fs/xfs/xfs_file.c.
 */
static void times_final(struct wpsim_race *r)
{
	(void)r;
	SIM_ASSERT_EQ(res, 4096);
	SIM_ASSERT_EQ(req.inline_attempts, 1);
	SIM_ASSERT_EQ(req.worker_attempts, 1);
	SIM_ASSERT_EQ(req.handoffs, 2);
	SIM_ASSERT_EQ(req.inline_bytes, 0);
	SIM_ASSERT_EQ(req.cqes, 1);
	SIM_ASSERT_EQ(sim_word_peek(&F()->f_inode->time_needs_update), 0);
}

static void times_setup(struct wpsim_race *r)
{
	(void)r;
	/* Setup runs before any task: this is the word's initial value. */
	F()->f_inode->time_needs_update.value = 1;
}

Test(io_uring, timestamps_need_update__punted)
{
	struct sim_explore_result r;

	config(1, 0);
	range[0] = 0;
	range[1] = 4096;
	T.world.files[0].nosec = true;
	wpsim_race_task(&T, "P0", write_task, NULL);
	T.final = times_final;
	T.name = "io-uring-times";
	T.setup = times_setup;
	cr_assert_eq(wpsim_race_explore(&T, &r), 0);
	cr_assert_eq(r.failures, 0, "%s", r.first.outcome.message);
	cr_assert(r.complete);
	sim_explore_result_fini(&r);
}

/*
 * IORING_OP_READ, the first page cached, the second not: the inline
 * attempt (IOCB_NOWAIT) copies the first page and stops at the second
 * (filemap_read under NOWAIT does not read: a short read); io_read keeps
 * bytes_done = 4096 and returns -EAGAIN (io_read's retry of the rest),
 * so the request is punted; the worker reads the second page and
 * completes the request: one CQE of 8192, every sector the page cache's.
 * Seed 62417's #14 (that -EAGAIN turned into 0): the request was left
 * neither completed nor punted, and its waiter slept for ever.
 * Kernel: io_uring/rw.c io_read, __io_read, v6.18.
 */
static uint32_t read_out[16];

static void read_task(void *arg)
{
	(void)arg;
	memset(read_out, 0, sizeof(read_out));
	m_io_uring_read_init(&req, F(), 0, 8192, 0, read_out);
	m_io_uring_submit(&req);
	res = m_io_uring_wait(&req);
}

static void check_read(struct wpsim_race *r)
{
	(void)r;
	for (int p = 0; p < 2; p++) {
		struct km_folio *f = m_folio_lookup(&F()->f_inode->i_data,
						    (pgoff_t)p);

		SIM_ASSERT(f);
		for (int s = 0; s < 8; s++)
			SIM_ASSERT_EQ(read_out[p * 8 + s],
				      m_folio_sector(f, (size_t)s));
	}
}

Test(io_uring, read_first_page_cached__short_inline_then_worker)
{
	config(2, 0);
	T.world.files[0].layout = "WW";
	wpsim_race_task(&T, "P0", read_task, NULL);
	T.final = check_read;
	run();
	cr_assert_eq(res, 8192);
	cr_assert_eq(req.bytes_done, 4096);
	assert_cost(1, 1, 2, 4096);
}

/*
 * IORING_OP_READ, nothing cached: the inline attempt gets -EAGAIN (no
 * byte without a read it may not wait for) and the request is punted;
 * the worker reads both pages: one CQE of 8192.  (Seed 62417's #58
 * turned that -EAGAIN into 0: the same lost request.)
 * Kernel: io_uring/rw.c io_read, __io_read, v6.18.
 */
Test(io_uring, read_nothing_cached__eagain_inline_then_worker)
{
	config(2, -1);
	T.world.files[0].layout = "WW";
	wpsim_race_task(&T, "P0", read_task, NULL);
	T.final = check_read;
	run();
	cr_assert_eq(res, 8192);
	cr_assert_eq(req.bytes_done, 0);
	assert_cost(1, 1, 2, 0);
}
