// SPDX-License-Identifier: MIT
/*
 * tests/model/fs/test_ext4_dio.c - the ext4 DIO lock decision (seed 002)
 * in its variants, ext4_dio_needs_zeroing against an independent oracle,
 * the real kernel's RWF_NOWAIT answers, and the partial-block zeroing
 * race.
 */
#include <stdlib.h>

#include <criterion/criterion.h>
#include <string.h>

#include "wpsim/harness.h"

static struct km_file *F(void)
{
	return m_world()->files[0];
}
#include "model/fs/ext4.h"
#include "model/fs/xfs.h"	/* struct m_aio_req, m_aio_wait */
#include "model/linux/syscalls.h"

static struct wpsim_race T;
static enum m_ext4_dio_variant variant;

/* ---- one write, its decision -------------------------------------------- */

static loff_t one_pos, one_len;
static unsigned int one_rwf;
static long one_ret;
static struct m_ext4_dio_decision one_d;

static void one_write(void *arg)
{
	(void)arg;
	one_ret = m_ext4_pwritev2_direct(F(), one_pos, (size_t)one_len,
					 one_rwf, 7, &one_d);
}

/* The one-file world every race here starts from: LAYOUT's blocks, SIZE
 * bytes, no security hooks (after a warm-up write), and no lost-data
 * check (a direct write leaves no page cache to compare). */
static void race_on(const char *layout, loff_t size)
{
	wpsim_race_init(&T, "ext4_dio");
	T.world.files[0].size = size;
	T.world.files[0].layout = layout;
	T.world.files[0].nosec = true;
	T.skip_lost_data_check = true;
}

static void decide(const char *layout, loff_t pos, loff_t len,
		   unsigned int rwf, enum m_ext4_dio_variant v)
{
	char name[64];

	race_on(layout, (loff_t)strlen(layout) * 4096);
	wpsim_race_task(&T, "P0", one_write, NULL);
	one_pos = pos;
	one_len = len;
	one_rwf = rwf;
	variant = v;
	T.world.ext4_dio = v;
	snprintf(name, sizeof(name), "%s %s %lld+%lld",
		 m_ext4_dio_variant_name(v), layout, (long long)pos,
		 (long long)len);
	T.name = name;
	WPSIM_ASSERT_RUN_ONCE(&T);
}

/*
 * Seed 002, test 1: aligned 8 KiB writes spanning written + unwritten.
 * base: ext4_overwrite_io sees only the first extent -> exclusive.
 * patch1, patch2: aligned non-extending -> shared.
 */
Test(ext4_dio, seed_case_aligned_written_plus_unwritten)
{
	decide("WUWW", 0, 8192, 0, M_EXT4_DIO_BASE);
	cr_assert(!one_d.shared);
	cr_assert_eq(one_ret, 8192);
	decide("WUWW", 0, 8192, 0, M_EXT4_DIO_PATCH1);
	cr_assert(one_d.shared);
	decide("WUWW", 0, 8192, 0, M_EXT4_DIO_PATCH2);
	cr_assert(one_d.shared);
	cr_assert_eq(one_ret, 8192);
}

/*
 * Seed 002, test 2: 14336 bytes at +512 into [W][U][U][W].
 * base, patch1: exclusive with inode_dio_wait; patch2: the partial head
 * and tail blocks are written -> no zeroing -> shared.
 */
Test(ext4_dio, seed_case_unaligned_partials_on_written)
{
	decide("WUUW", 512, 14336, 0, M_EXT4_DIO_BASE);
	cr_assert(!one_d.shared && one_d.dio_wait && one_d.force_wait);
	decide("WUUW", 512, 14336, 0, M_EXT4_DIO_PATCH1);
	cr_assert(!one_d.shared && one_d.dio_wait);
	decide("WUUW", 512, 14336, 0, M_EXT4_DIO_PATCH2);
	cr_assert(one_d.shared && !one_d.dio_wait && !one_d.needs_zeroing);
	cr_assert_eq(one_d.zero_bios, 0);
	cr_assert_eq(one_ret, 14336);
}

/*
 * A write of 0 bytes: ext4_dio_write_checks' generic_write_checks gives
 * 0, so it unlocks and returns 0, and ext4_dio_write_iter returns that
 * 0 before iomap_dio_rw (`if (ret <= 0) return ret;`): nothing issued,
 * the size as it was, i_rwsem free again (the world's lock check at the
 * task's exit).  Seed 60731's #65 (the checks went on with 0) and seed
 * 62417's #15 (the write went on after them) each took a lock step
 * wrong.
 * Kernel: fs/ext4/file.c ext4_dio_write_checks, ext4_dio_write_iter,
 * v6.18.
 */
Test(ext4_dio, zero_length_write_returns_0_and_unlocks)
{
	for (int v = M_EXT4_DIO_BASE; v <= M_EXT4_DIO_PATCH2; v++) {
		decide("WW", 4096, 0, 0, (enum m_ext4_dio_variant)v);
		cr_assert_eq(one_ret, 0, "%ld", one_ret);
		cr_assert(!one_d.issued);
		cr_assert_eq(km_i_size_read(F()->f_inode), 8192);
	}
}

/*
 * RWF_NOWAIT answers under base against the real kernel: the table of
 * traces/real-kernel/ext4-dio-nowait-6.18.txt (Linux 6.18.44, ext4,
 * tools/ext4-dio-nowait-probe).  1 = the write went through, 0 = -EAGAIN.
 */
Test(ext4_dio, nowait_answers_match_the_real_kernel_base)
{
	static const struct {
		const char *layout;
		loff_t pos, len;
		bool written;
	} real[] = {
		{ "WUWW", 0, 8192, false },
		{ "WUUW", 512, 14336, false },
		{ "WWWW", 0, 8192, true },
		{ "WWWW", 512, 1024, true },
		{ "WWWW", 512, 8192, true },
		{ "WUWW", 512, 1024, true },
		{ "UWWW", 512, 1024, false },
		{ "WHWW", 4096, 4096, false },
		{ "WHWW", 4608, 1024, false },
		{ "WWHW", 512, 8192, false },
		{ "WWWW", 16384, 4096, false },
		{ "WWWW", 15872, 1024, false },
		{ "WUUW", 0, 16384, false },
	};

	for (unsigned int i = 0; i < sizeof(real) / sizeof(real[0]); i++) {
		decide(real[i].layout, real[i].pos, real[i].len, RWF_NOWAIT,
		       M_EXT4_DIO_BASE);
		cr_expect_eq(one_ret == real[i].len, real[i].written,
			     "%s %lld+%lld: model %ld, kernel %s",
			     real[i].layout, (long long)real[i].pos,
			     (long long)real[i].len, one_ret,
			     real[i].written ? "wrote" : "-EAGAIN");
		if (!real[i].written)
			cr_expect_eq(one_ret, -KM_EAGAIN);
	}
}

/*
 * The generic IOCB_NOWAIT failure of the DIO path: a page cached in the
 * range would have to be written back and invalidated
 * (kiocb_invalidate_pages) -> -EAGAIN under every variant, even for an
 * aligned overwrite that shares the lock.  Without NOWAIT the page is
 * dropped and the write goes to disk.
 * Kernel: mm/filemap.c kiocb_invalidate_pages, fs/iomap/direct-io.c.
 */
static void cached_final(struct wpsim_race *r)
{
	struct m_world *w = m_world();

	(void)r;

	if (one_ret > 0) {
		SIM_ASSERT(!m_folio_lookup(&F()->f_inode->i_data, 0));
		SIM_ASSERT_EQ(m_dev_data(&w->dev, m_inode_sector(F()->f_inode, 0)),
			      7);
	}
}

Test(ext4_dio, nowait_with_cached_pages__eagain)
{
	for (int v = M_EXT4_DIO_BASE; v <= M_EXT4_DIO_UNSAFE; v++) {
		for (int nowait = 1; nowait >= 0; nowait--) {
			wpsim_race_init(&T, "ext4_dio");
			T.world.files[0].size = 4 * 4096;
			T.world.files[0].layout = "WWWW";
			T.world.files[0].nosec = true;
			T.world.files[0].cached_first = 0;
			T.world.files[0].cached_last = 0;
			T.skip_lost_data_check = true;
			wpsim_race_task(&T, "P0", one_write, NULL);
			T.final = cached_final;
			one_pos = 0;
			one_len = 4096;
			one_rwf = nowait ? RWF_NOWAIT : 0;
			variant = (enum m_ext4_dio_variant)v;
			T.world.ext4_dio = variant;
			T.name = "ext4-dio-cached";
	WPSIM_ASSERT_RUN_ONCE(&T);
			if (nowait) {
				cr_expect_eq(one_ret, -KM_EAGAIN, "%s: %ld",
					     m_ext4_dio_variant_name(variant),
					     one_ret);
				cr_expect(one_d.issued && one_d.shared);
			} else {
				cr_expect_eq(one_ret, 4096);
			}
		}
	}
}

/*
 * ext4 calls file_modified(file), which passes flags 0 to
 * file_modified_flags: under IOCB_NOWAIT a needed timestamp update does
 * not fail, it is done (and may block on the journal).  So an aligned
 * RWF_NOWAIT overwrite with stale times writes and updates them.  (XFS
 * calls kiocb_modified, which does return -EAGAIN: test_rw.c.)  The model
 * before the fix returned -EAGAIN here.
 * Kernel: fs/ext4/file.c ext4_dio_write_checks, fs/inode.c file_modified,
 * v6.18.
 */
static void times_setup(struct wpsim_race *r)
{
	(void)r;
	F()->f_inode->time_needs_update.value = 1;	/* initial value */
}

static void times_final(struct wpsim_race *r)
{
	(void)r;
	SIM_ASSERT_EQ(one_ret, 4096);
	SIM_ASSERT_EQ(sim_word_peek(&F()->f_inode->time_needs_update), 0);
}

Test(ext4_dio, nowait_stale_times__updated_not_eagain)
{
	for (int v = M_EXT4_DIO_BASE; v <= M_EXT4_DIO_UNSAFE; v++) {
		struct sim_explore_result r;

		race_on("WWWW", 4 * 4096);
		wpsim_race_task(&T, "P0", one_write, NULL);
		T.final = times_final;
		one_pos = 0;
		one_len = 4096;
		one_rwf = RWF_NOWAIT;
		variant = (enum m_ext4_dio_variant)v;
		T.world.ext4_dio = variant;
		T.name = "ext4-dio-times";
		T.setup = times_setup;
		cr_assert_eq(wpsim_race_explore(&T, &r), 0);
		cr_expect_eq(r.failures, 0, "%s: %s",
			     m_ext4_dio_variant_name(variant),
			     r.first.outcome.message);
		cr_expect(r.complete);
		sim_explore_result_fini(&r);
	}
}

/* ---- the differential test of ext4_dio_needs_zeroing --------------------- */

#define LAYOUT_BLOCKS_MAX 6

static char diff_layout[LAYOUT_BLOCKS_MAX + 1];
static unsigned long diff_checked;

/*
 * The oracle, written from the rule alone: zeroing is needed when a
 * partially covered head or tail block is not a written mapped block, or
 * the write goes past i_size.
 */
static bool oracle(const char *layout, loff_t pos, loff_t len)
{
	loff_t isize = (loff_t)strlen(layout) * 4096;
	loff_t head = pos / 4096, tail = (pos + len - 1) / 4096;
	bool head_partial = pos % 4096 != 0;
	bool tail_partial = (pos + len) % 4096 != 0;

	if (pos + len > isize)
		return true;
	if (head_partial && layout[head] != 'W')
		return true;
	if (tail_partial && layout[tail] != 'W')
		return true;
	return false;
}

static void diff_task(void *arg)
{
	struct km_inode *inode = F()->f_inode;
	loff_t isize = (loff_t)strlen(diff_layout) * 4096;

	(void)arg;
	for (loff_t pos = 0; pos < isize + 4096; pos += 512)
		for (loff_t len = 512; pos + len <= isize + 4096; len += 512) {
			bool got = km_ext4_dio_needs_zeroing(inode, pos, len);

			SIM_ASSERT_MSG(got == oracle(diff_layout, pos, len),
				       "layout %s, %lld+%lld: model %d, "
				       "oracle %d", diff_layout,
				       (long long)pos, (long long)len, got,
				       !got);
			diff_checked++;
		}
}

Test(ext4_dio, needs_zeroing_equals_the_oracle_for_every_layout)
{
	static const char states[] = "HUW";
	unsigned long layouts = 0;

	diff_checked = 0;
	for (int n = 1; n <= LAYOUT_BLOCKS_MAX; n++) {
		int total = 1;

		for (int i = 0; i < n; i++)
			total *= 3;
		for (int code = 0; code < total; code++) {
			struct sim_outcome o;
			int c = code;

			for (int i = 0; i < n; i++, c /= 3)
				diff_layout[i] = states[c % 3];
			diff_layout[n] = '\0';
			wpsim_race_init(&T, "ext4-dio-needs-zeroing");
			T.world.files[0].size = (loff_t)n * 4096;
			T.world.files[0].layout = diff_layout;
			T.steps_max = SIM_STEPS_LIMIT;
			/* The oracle is the check: no world end checks. */
			T.skip_quiescent_check = true;
			T.skip_lost_data_check = true;
			wpsim_race_task(&T, "P0", diff_task, NULL);
			wpsim_race_replay(&T, "-", &o);
			cr_assert_eq(o.kind, SIM_OK, "%s", o.message);
			layouts++;
		}
	}
	cr_assert_eq(layouts, 3 + 9 + 27 + 81 + 243 + 729);
	cr_log_info("%lu layouts, %lu ranges checked", layouts, diff_checked);
}

/* ---- the zeroing race --------------------------------------------------- */

static void zero_writer(void *arg)
{
	uintptr_t who = (uintptr_t)arg;
	long ret = m_ext4_pwritev2_direct(F(), 4096 + 512 * (loff_t)who, 512,
					  0, (uint32_t)who + 1, NULL);

	SIM_ASSERT_EQ(ret, 512);
}

static void zero_writer0(void *arg)
{
	(void)arg;
	zero_writer((void *)0);
}

static void zero_writer1(void *arg)
{
	(void)arg;
	zero_writer((void *)1);
}

static void zero_final(struct wpsim_race *r)
{
	struct m_world *w = m_world();
	sector_t s = m_inode_sector(F()->f_inode, 4096);

	(void)r;
	if (m_dev_data(&w->dev, s) != 1 || m_dev_data(&w->dev, s + 1) != 2)
		sim_fail(SIM_FAIL_PROPERTY, "zeroing destroyed written data: "
			 "sector 8 holds %u (want 1), sector 9 holds %u "
			 "(want 2)", m_dev_data(&w->dev, s), m_dev_data(&w->dev, s + 1));
	SIM_ASSERT_EQ(m_extent_peek(F()->f_inode, 1), 'W');
}

/*
 * Explored exhaustively: with the rwsem summary (the engine's rwlock,
 * shared holds commute) and device sectors as range objects, base and
 * patch2 take 1974 executions each and the [W][U][U][W] run 26 364
 * (docs/algorithms/ext4-dio.md).  WPSIM_EXT4_EXHAUSTIVE=N caps at N
 * executions (a safety net for the deep tier, whose cap is far above the
 * space); unset or "all": no cap.
 */
static uint64_t race_cap(void)
{
	const char *env = getenv("WPSIM_EXT4_EXHAUSTIVE");

	if (!env || strcmp(env, "all") == 0)
		return 0;
	return strtoull(env, NULL, 10);
}

/*
 * Two DIO writers over @layout (one block per letter), explored with DPOR,
 * capped at @cap executions (0 = no cap).
 */
static void explore_two_writers(const char *name, const char *layout,
				sim_task_fn w0, sim_task_fn w1,
				void (*final)(struct wpsim_race *),
				uint64_t cap,
				struct sim_explore_result *res)
{
	race_on(layout, (loff_t)strlen(layout) * 4096);
	wpsim_race_task(&T, "P0", w0, NULL);
	wpsim_race_task(&T, "P1", w1, NULL);
	T.final = final;
	T.name = name;
	T.executions_max = cap;
	T.world.ext4_dio = variant;
	cr_assert_eq(wpsim_race_explore(&T, res), 0);
}

/*
 * Two writers under variant @v on @layout: the race found (every failure
 * destroyed data; @bug_failures of them when not 0) or, @expect_bug
 * false, none in the whole space.
 */
static void two_writer_race(const char *what, enum m_ext4_dio_variant v,
			    const char *layout, sim_task_fn w0,
			    sim_task_fn w1, void (*final)(struct wpsim_race *),
			    bool expect_bug, uint64_t bug_failures)
{
	bool exhaustive = race_cap() == 0;
	struct sim_explore_result res;

	variant = v;
	explore_two_writers(m_ext4_dio_variant_name(v), layout, w0, w1, final,
			    expect_bug ? 0 : race_cap(), &res);
	if (expect_bug) {
		cr_assert(bug_failures ? res.failures == bug_failures :
			  res.failures > 0, "%s: the race was not found",
			  m_ext4_dio_variant_name(v));
		cr_assert(strstr(res.first.outcome.message, "zeroing destroyed"),
			  "%s", res.first.outcome.message);
	} else {
		cr_assert_eq(res.failures, 0, "%s: %s",
			     m_ext4_dio_variant_name(v),
			     res.first.outcome.message);
		cr_assert(res.complete || !exhaustive,
			  "%s: not exhaustive", m_ext4_dio_variant_name(v));
	}
	cr_log_info("%s%s: %llu executions%s", what,
		    m_ext4_dio_variant_name(v),
		    (unsigned long long)res.executions,
		    expect_bug ? ", the race found" :
		    res.complete ? ", complete" : " (capped), no failure");
	sim_explore_result_fini(&res);
}

static void zeroing_race(enum m_ext4_dio_variant v, bool expect_bug)
{
	two_writer_race("", v, "WUW", zero_writer0, zero_writer1, zero_final,
			expect_bug, 1);
}

/*
 * Two unaligned DIO writers share the unwritten block 1 of [W][U][W]:
 *   P0 writes [4096, 4608) (id 1)     P1 writes [4608, 5120) (id 2)
 * unsafe-shared, both under the shared lock:
 *   1. P0 maps block 1: unwritten -> need zeroout; submits data [4096,
 *      4608) and tail zero [4608, 8192)
 *   2. P1 maps block 1: still unwritten (P0 has not completed) -> submits
 *      head zero [4096, 4608), data [4608, 5120), tail zero [5120, 8192)
 *   3. the device completes P1's data, then P0's tail zero: P1's bytes
 *      are zero; or P0's data, then P1's head zero: P0's bytes are zero.
 * base and patch2 take the exclusive lock and inode_dio_wait: the second
 * writer sees the block written and zeroes nothing.
 * Must hold: afterwards sector 8 holds 1 and sector 9 holds 2, and block
 * 1 is written; base and patch2 explored exhaustively (unless
 * WPSIM_EXT4_EXHAUSTIVE caps the search, see race_cap()).
 * Bug (ext4_dio=unsafe-shared, M_EXT4_DIO_UNSAFE: the shared lock for
 * every non-extending write): the search finds step 3 ("zeroing
 * destroyed written data").
 * Kernel: fs/ext4/file.c ext4_dio_write_checks, fs/iomap/direct-io.c
 * iomap_dio_bio_iter, v6.18, with seed 002's patches 1/2 and 2/2;
 * kernel-fs.md §2.3.
 */
Test(race, unaligned_dio_vs_unaligned_dio__zeroing_under_shared_lock)
{
	zeroing_race(M_EXT4_DIO_UNSAFE, true);
	zeroing_race(M_EXT4_DIO_BASE, false);
	zeroing_race(M_EXT4_DIO_PATCH2, false);
}

static bool shared_seen[2];

static void mid_writer0(void *arg)
{
	struct m_ext4_dio_decision d;

	(void)arg;
	SIM_ASSERT_EQ(m_ext4_pwritev2_direct(F(), 512, 7680, 0, 1,
					     &d), 7680);
	shared_seen[0] = d.shared;
}

static void mid_writer1(void *arg)
{
	struct m_ext4_dio_decision d;

	(void)arg;
	SIM_ASSERT_EQ(m_ext4_pwritev2_direct(F(), 8192, 7680, 0, 2,
					     &d), 7680);
	shared_seen[1] = d.shared;
}

static void mid_final(struct wpsim_race *r)
{
	struct m_world *w = m_world();
	sector_t s = m_inode_sector(F()->f_inode, 0);

	(void)r;
	SIM_ASSERT_EQ(m_dev_data(&w->dev, s), 1000);		/* untouched head */
	for (int k = 1; k < 16; k++)
		SIM_ASSERT_EQ(m_dev_data(&w->dev, s + k), 1);
	for (int k = 16; k < 31; k++)
		SIM_ASSERT_EQ(m_dev_data(&w->dev, s + k), 2);
	SIM_ASSERT_EQ(m_dev_data(&w->dev, s + 31), 1000);	/* untouched tail */
	SIM_ASSERT(shared_seen[0] && shared_seen[1]);
}

/*
 * patch2 shares the lock when the partial blocks are written and the
 * middle is not: [W][U][U][W], P0 writes [512, 8192), P1 [8192, 15872).
 *
 *   P0 (id 1)                          P1 (id 2)
 *   1. partial head in written block
 *      0, block 1 whole: nothing to
 *      zero: i_rwsem shared
 *                                      2. block 2 whole, partial tail in
 *                                         written block 3: nothing to
 *                                         zero: i_rwsem shared
 *   3. data bio; end_io converts
 *      block 1
 *                                      4. data bio; end_io converts
 *                                         block 2
 * P0's and P1's steps interleave in every order (both hold the lock
 * shared).
 * Must hold: both writers ran under the shared lock; sectors 1-15 hold
 * 1, sectors 16-30 hold 2, sectors 0 and 31 keep the disk's 1000.
 * Bug (ext4_dio=base, run: the mainline decision takes i_rwsem
 * exclusive for these unaligned writes, and the shared-lock check must
 * fail; unsafe-shared, the zeroing bug, is run by the zeroing race
 * above): a write that zeroes outside its range, or patch2 taking the
 * exclusive lock for this layout.
 * Kernel: fs/ext4/file.c ext4_dio_write_checks, v6.18, with seed 002's
 * patch 2/2 (ext4_dio_needs_zeroing).
 */
Test(race, patch2_shares_when_partials_are_written__data_intact)
{
	struct sim_explore_result res;

	variant = M_EXT4_DIO_PATCH2;
	explore_two_writers("patch2-mid-unwritten", "WUUW", mid_writer0,
			    mid_writer1, mid_final, race_cap(), &res);
	cr_assert_eq(res.failures, 0, "%s", res.first.outcome.message);
	cr_assert(res.complete || race_cap() != 0);
	cr_log_info("patch2-mid-unwritten: %llu executions%s",
		    (unsigned long long)res.executions,
		    res.complete ? ", complete" : " (capped)");
	sim_explore_result_fini(&res);

	/* The exclusive decision (mainline's) must be caught. */
	variant = M_EXT4_DIO_BASE;
	explore_two_writers("patch2-mid-unwritten (base)", "WUUW",
			    mid_writer0, mid_writer1, mid_final, race_cap(),
			    &res);
	cr_assert_eq(res.failures, 1, "the exclusive decision was not "
		     "caught");
	cr_assert(strstr(res.first.outcome.message, "shared_seen"), "%s",
		  res.first.outcome.message);
	sim_explore_result_fini(&res);
	variant = M_EXT4_DIO_PATCH2;
}

/* ---- AIO: io_submit returns with the bios in flight --------------------- */

/*
 * One libaio O_DIRECT write of block 1 ([W][U][W][W], aligned, not
 * extending: patch2 takes the shared lock): io_submit returns
 * -EIOCBQUEUED with i_rwsem dropped; the completion work converts the
 * unwritten block and ki_complete gives io_getevents the byte count.
 * Kernel: fs/iomap/direct-io.c __iomap_dio_rw (-EIOCBQUEUED),
 * iomap_dio_done (queue_work on s_dio_done_wq), fs/aio.c, v6.18.
 */
static long aio_submit_ret, aio_wait_ret;

static void aio_block1_writer(void *arg)
{
	struct m_aio_req *req = sim_arena_alloc(sizeof(*req));

	(void)arg;
	aio_submit_ret = m_aio_ext4_pwritev2_direct(req, F(), 4096, 4096, 0,
						    1);
	aio_wait_ret = m_aio_wait(req);
}

Test(ext4_dio, aio_write_is_queued_and_completes_in_a_kworker)
{
	race_on("WUWW", 4 * 4096);
	variant = M_EXT4_DIO_PATCH2;
	T.world.ext4_dio = variant;
	wpsim_race_task(&T, "P0", aio_block1_writer, NULL);
	T.name = "aio-queued";
	WPSIM_ASSERT_RUN_ONCE(&T);
	cr_assert_eq(aio_submit_ret, -KM_EIOCBQUEUED);
	cr_assert_eq(aio_wait_ret, 4096);
}

static void aio_sync_writer1(void *arg)
{
	(void)arg;
	SIM_ASSERT_EQ(m_ext4_pwritev2_direct(F(), 4096 + 512, 512, 0, 2,
					     NULL), 512);
}

static void aio_race_final(struct wpsim_race *r)
{
	struct m_world *w = m_world();
	sector_t s = m_inode_sector(F()->f_inode, 4096);

	(void)r;
	SIM_ASSERT_EQ(aio_wait_ret, 4096);
	for (int k = 0; k < 8; k++)
		if (m_dev_data(&w->dev, s + k) != 1 &&
		    !(k == 1 && m_dev_data(&w->dev, s + k) == 2))
			sim_fail(SIM_FAIL_PROPERTY, "zeroing destroyed the "
				 "AIO write's data: sector %d holds %u (want "
				 "%s)", 8 + k, m_dev_data(&w->dev, s + k),
				 k == 1 ? "1 or 2" : "1");
	SIM_ASSERT_EQ(m_extent_peek(F()->f_inode, 1), 'W');
}

static void aio_race(enum m_ext4_dio_variant v, bool expect_bug)
{
	two_writer_race("aio ", v, "WUWW", aio_block1_writer,
			aio_sync_writer1, aio_race_final, expect_bug, 0);
}

/*
 * The AIO write above in flight while a second writer writes 512 bytes
 * at +512 into the same block, synchronously.  The block is unwritten
 * until the AIO's completion converts it, so the second write needs
 * zeroing.
 *
 *   P0 (io_submit block 1, id 1)       P1 (pwrite 512 at 4608, id 2)
 *   1. i_rwsem (patch2: shared),
 *      inode_dio_begin, the bio in
 *      flight: -EIOCBQUEUED, unlock
 *                                      2. block 1 unwritten: zeroing
 *                                         needed: i_rwsem exclusive,
 *                                         inode_dio_wait sleeps
 *   3. (kworker) the bio completed:
 *      end_io converts block 1,
 *      inode_dio_end
 *                                      4. woken; block 1 is written:
 *                                         data bio only, no zeroing
 * base and patch2 take the exclusive lock and inode_dio_wait at 2.  The
 * unsafe-shared variant does not wait: its zeroing bios can overwrite
 * the AIO's data.
 * Must hold: sector 9 holds 1 or 2 (the order of the two writes), every
 * other sector of the block 1 (never the zeroing's 0); the AIO returns
 * 4096; block 1 is written.
 * Bug (ext4_dio=unsafe-shared, M_EXT4_DIO_UNSAFE): found by the search
 * ("zeroing destroyed the AIO write's data").
 * Kernel: fs/ext4/file.c ext4_dio_write_checks, fs/iomap/direct-io.c
 * __iomap_dio_rw, iomap_dio_bio_iter, fs/inode.c inode_dio_wait, v6.18,
 * with seed 002's patches; kernel-fs.md §2.3.
 */
Test(race, aio_dio_in_flight_vs_unaligned_dio__inode_dio_wait)
{
	aio_race(M_EXT4_DIO_UNSAFE, true);
	aio_race(M_EXT4_DIO_BASE, false);
	aio_race(M_EXT4_DIO_PATCH2, false);
}

/*
 * The partial blocks' zeroing bios (fs/iomap/direct-io.c
 * iomap_dio_bio_iter, v6.18: a mapping that needs zeroing, unwritten
 * here, gets a bio zeroing the head of its first block before the data
 * and one zeroing the rest of its last block after): 3072 bytes at +512
 * into one unwritten block: two zeroing bios (the decision record's
 * zero_bios, which scenarios read as Pn.zero_bios); the same write at a
 * block boundary, 4096 bytes: none.  Seed 65519's #88 (direct-io.c:251,
 * the count stepped by 2) survived: only zero_bios 0 was checked.
 */
Test(ext4_dio, unaligned_write_into_unwritten_counts_two_zeroing_bios)
{
	decide("UUUU", 512, 3072, 0, M_EXT4_DIO_BASE);
	cr_assert_eq(one_ret, 3072);
	cr_assert_eq(one_d.zero_bios, 2, "zeroing bios: %u",
		     (unsigned int)one_d.zero_bios);
	decide("UUUU", 4096, 4096, 0, M_EXT4_DIO_BASE);
	cr_assert_eq(one_ret, 4096);
	cr_assert_eq(one_d.zero_bios, 0);
}

/* ---- the unwritten extent split at submission (F5.1) -------------------- */

/*
 * What one task did to i_data_sem and to a block's state word, in the
 * event log of the execution so far, split at the task's first posted
 * event (SIM_ACCESS_SPAWN: its first bio submitted; a synchronous direct
 * write posts nothing before its bios).
 */
struct split_seen {
	unsigned int excl_before_bio;	/* i_data_sem taken for write */
	unsigned int excl_after_bio;
	unsigned int split_before_bio;	/* the block's state stored 'U' */
	unsigned int convert_after_bio;	/* ... stored 'W' */
	bool bio;
};

static void scan_task(const char *task, unsigned long block,
		      struct split_seen *s)
{
	const struct sim_event *ev;
	uint32_t n = sim_exec_events(&ev);
	char word[32];

	memset(s, 0, sizeof(*s));
	snprintf(word, sizeof(word), ".extent[%lu]", block);
	cr_assert_eq(sim_exec_events_dropped(), 0);
	for (uint32_t i = 0; i < n; i++) {
		const char *obj;

		if (strcmp(sim_exec_task_name(ev[i].task), task))
			continue;
		if (ev[i].access == SIM_ACCESS_SPAWN)
			s->bio = true;
		if (!ev[i].object)
			continue;
		obj = sim_exec_object_name(ev[i].object);
		if (ev[i].access == SIM_ACCESS_ACQUIRE &&
		    !strcmp(obj, "i_data_sem")) {
			if (s->bio)
				s->excl_after_bio++;
			else
				s->excl_before_bio++;
		}
		if (ev[i].access == SIM_ACCESS_WRITE && strstr(obj, word)) {
			if (!s->bio && ev[i].value == M_EXT_UNWRITTEN)
				s->split_before_bio++;
			if (s->bio && ev[i].value == M_EXT_WRITTEN)
				s->convert_after_bio++;
		}
	}
}

static struct split_seen split_one;

static void split_writer(void *arg)
{
	(void)arg;
	one_ret = m_ext4_pwritev2_direct(F(), one_pos, (size_t)one_len, 0, 7,
					 &one_d);
	scan_task("P0", (unsigned long)(one_pos >> 12), &split_one);
}

static void split_case(const char *layout, loff_t pos,
		       enum m_ext4_dio_variant v)
{
	race_on(layout, (loff_t)strlen(layout) * 4096);
	wpsim_race_task(&T, "P0", split_writer, NULL);
	one_pos = pos;
	one_len = 4096;
	variant = v;
	T.world.ext4_dio = v;
	T.name = layout;
	WPSIM_ASSERT_RUN_ONCE(&T);
	cr_assert_eq(one_ret, 4096);
	cr_assert_eq(m_extent_peek(F()->f_inode, (unsigned long)(pos >> 12)),
		     M_EXT_WRITTEN);
}

/*
 * An aligned 4 KiB O_DIRECT write of block 1 inside i_size.  Into an
 * unwritten block (base, v6.18): ext4_iomap_begin's lookup finds it
 * unwritten, not mapped, so ext4_iomap_alloc starts a handle and calls
 * ext4_map_blocks with EXT4_GET_BLOCKS_IO_CREATE_EXT: the lookup under
 * i_data_sem shared, then ext4_ext_map_blocks ->
 * ext4_ext_handle_unwritten_extents (PRE_IO) ->
 * ext4_split_convert_extents under i_data_sem held for write, before the
 * bio; ext4_dio_write_end_io's ext4_convert_unwritten_extents takes it
 * for write again after the bio.  Over a written block the write maps
 * with ext4_iomap_overwrite_ops (shared lock, not unwritten): no write
 * hold at all.  Under patch2 (the seed's tree, 5d87c7fca2c1: the fast
 * path takes an unwritten range) no split: the write hold after the bio
 * only.
 * Must hold: base, unwritten: one write hold of i_data_sem and one store
 * of block 1's state (unwritten) before the first bio, one write hold
 * and the store "written" after; base, written: no write hold; patch2,
 * unwritten: none before the bio, one after.
 * Bug: the model before F5.1's fix (the lookup only, i_data_sem shared
 * at submission; checked by mutation: base's fast path taking an
 * unwritten range) fails the first case: "write holds before the bio:
 * 0".
 * Kernel: fs/ext4/inode.c ext4_iomap_begin, ext4_iomap_alloc,
 * ext4_map_blocks; fs/ext4/extents.c ext4_ext_map_blocks,
 * ext4_ext_handle_unwritten_extents, ext4_convert_unwritten_extents;
 * fs/ext4/file.c ext4_dio_write_iter, ext4_dio_write_end_io; v6.18.
 */
Test(ext4_dio, unwritten_write_splits_at_submission_under_i_data_sem_write)
{
	split_case("WUWW", 4096, M_EXT4_DIO_BASE);
	cr_assert(one_d.shared);
	cr_assert_eq(split_one.excl_before_bio, 1, "write holds before the "
		     "bio: %u", split_one.excl_before_bio);
	cr_assert_eq(split_one.split_before_bio, 1);
	cr_assert_eq(split_one.excl_after_bio, 1);
	cr_assert_eq(split_one.convert_after_bio, 1);

	split_case("WWWW", 4096, M_EXT4_DIO_BASE);
	cr_assert(one_d.shared);
	cr_assert_eq(split_one.excl_before_bio, 0);
	cr_assert_eq(split_one.excl_after_bio, 0);
	cr_assert_eq(split_one.split_before_bio, 0);

	split_case("WUWW", 4096, M_EXT4_DIO_PATCH2);
	cr_assert_eq(split_one.excl_before_bio, 0);
	cr_assert_eq(split_one.split_before_bio, 0);
	cr_assert_eq(split_one.excl_after_bio, 1);
	cr_assert_eq(split_one.convert_after_bio, 1);
}

/*
 * A write reaching past i_size into a hole: ext4_iomap_begin does not
 * look it up; ext4_iomap_alloc's first block is at or past i_size, so
 * EXT4_GET_BLOCKS_CREATE: the block is allocated written and new (the
 * data reach it before i_size does: extending writes are waited for
 * under the exclusive lock), and ext4_dio_write_end_io converts nothing.
 * Must hold: one write hold of i_data_sem before the bio (the
 * allocation), none after it but the size update's
 * (ext4_update_i_disksize), the block written, the size 8192.
 * Kernel: fs/ext4/inode.c ext4_iomap_alloc ("We use i_size instead of
 * i_disksize here"), v6.18.
 */
Test(ext4_dio, extending_write_allocates_written_past_i_size)
{
	race_on("WH", 4096);
	wpsim_race_task(&T, "P0", split_writer, NULL);
	one_pos = 4096;
	one_len = 4096;
	variant = M_EXT4_DIO_BASE;
	T.world.ext4_dio = variant;
	T.name = "extend";
	WPSIM_ASSERT_RUN_ONCE(&T);
	cr_assert_eq(one_ret, 4096);
	cr_assert(!one_d.shared && one_d.force_wait);
	cr_assert_eq(split_one.excl_before_bio, 1);
	cr_assert_eq(split_one.split_before_bio, 0);
	cr_assert_eq(split_one.convert_after_bio, 0);
	cr_assert_eq(m_extent_peek(F()->f_inode, 1), M_EXT_WRITTEN);
	cr_assert_eq(km_i_size_read(F()->f_inode), 8192);
}

static struct {
	uint64_t p0_first, p1_first, overlaps, executions;
} order;

static void block_writer(void *arg)
{
	uintptr_t k = (uintptr_t)arg;

	SIM_ASSERT_EQ(m_ext4_pwritev2_direct(F(), (loff_t)k * 4096, 4096, 0,
					     (uint32_t)k, NULL), 4096);
}

/* Each task's submission: from its start to its first posted event; a
 * split: a write hold of i_data_sem in it. */
static void order_final(struct wpsim_race *r)
{
	const struct sim_event *ev;
	uint32_t n = sim_exec_events(&ev);
	bool bio[2] = { false, false };
	int holder = -1, first = -1;	/* a split's write hold, by task */
	struct m_world *w = m_world();

	(void)r;
	cr_assert_eq(sim_exec_events_dropped(), 0);
	order.executions++;
	for (uint32_t i = 0; i < n; i++) {
		const char *t = sim_exec_task_name(ev[i].task);
		int me = !strcmp(t, "P0") ? 0 : !strcmp(t, "P1") ? 1 : -1;

		if (me < 0)
			continue;
		if (ev[i].access == SIM_ACCESS_SPAWN)
			bio[me] = true;
		if (!ev[i].object ||
		    strcmp(sim_exec_object_name(ev[i].object), "i_data_sem"))
			continue;
		if ((ev[i].access == SIM_ACCESS_ACQUIRE ||
		     ev[i].access == SIM_ACCESS_ACQUIRE_SHARED) &&
		    holder == 1 - me)
			order.overlaps++;
		if (ev[i].access == SIM_ACCESS_ACQUIRE && !bio[me]) {
			holder = me;
			if (first < 0)
				first = me;
		} else if (ev[i].access == SIM_ACCESS_RELEASE &&
			   holder == me) {
			holder = -1;
		}
	}
	if (first == 0)
		order.p0_first++;
	else if (first == 1)
		order.p1_first++;
	for (int k = 1; k <= 2; k++) {
		sector_t s = m_inode_sector(F()->f_inode, (loff_t)k * 4096);

		for (int j = 0; j < 8; j++)
			SIM_ASSERT_EQ(m_dev_data(&w->dev, s + j), (uint32_t)k);
		SIM_ASSERT_EQ(m_extent_peek(F()->f_inode, (unsigned long)k),
			      'W');
	}
}

static void two_splits(enum m_ext4_dio_variant v,
		       struct sim_explore_result *res)
{
	memset(&order, 0, sizeof(order));
	variant = v;
	race_on("UUUU", 4 * 4096);
	wpsim_race_task(&T, "P0", block_writer, (void *)(uintptr_t)1);
	wpsim_race_task(&T, "P1", block_writer, (void *)(uintptr_t)2);
	T.final = order_final;
	T.name = m_ext4_dio_variant_name(v);
	T.executions_max = race_cap();
	T.world.ext4_dio = v;
	cr_assert_eq(wpsim_race_explore(&T, res), 0);
	cr_assert_eq(res->failures, 0, "%s", res->first.outcome.message);
	cr_assert(res->complete || race_cap() != 0);
	cr_log_info("two splits, %s: %llu executions, P0's split first %llu, "
		    "P1's %llu", m_ext4_dio_variant_name(v),
		    (unsigned long long)res->executions,
		    (unsigned long long)order.p0_first,
		    (unsigned long long)order.p1_first);
}

/*
 * Two aligned direct writers into one unwritten extent, [U][U][U][U]: P0
 * writes block 1, P1 block 2 (ids 1 and 2).  Each is a one-extent
 * overwrite of unwritten blocks, aligned and inside i_size, so base
 * (v6.18) keeps i_rwsem shared for both, and each splits the extent
 * around its block at submission with i_data_sem held for write:
 *
 *   P0                                   P1
 *   1. i_rwsem shared; ext4_iomap_alloc:
 *      i_data_sem for write, the split
 *                                        2. i_rwsem shared; ext4_iomap_
 *                                           alloc: i_data_sem held: waits
 *   3. up_write: P1 takes it, splits; both bios, both conversions
 *
 * The two splits are ordered by i_data_sem: the search explores both
 * orders (the two write holds do not commute), and no hold of i_data_sem
 * by the other writer, in any mode, opens inside a split.  Under patch2
 * (the seed's tree: no split at submission) the submissions hold
 * i_data_sem shared only (shared holds commute): no split to order.
 * (The summary rwsem makes a task that would find the lock held wait
 * without a step, so the wait itself is not an event; the order is.)
 * Must hold: base: both orders of the two splits explored, nothing
 * inside a split; patch2: no split before a bio; the data and both
 * blocks written in every execution, exhaustively.
 * Bug (mutations, checked by hand: base's fast path taking an unwritten
 * range, the model before F5.1's fix: no split is ordered, both counts 0;
 * the split's section taken with km_down_read: lockdep's rule for the
 * block map fails first).
 * Kernel: fs/ext4/file.c ext4_dio_write_checks, ext4_overwrite_io;
 * fs/ext4/inode.c ext4_iomap_alloc, ext4_map_blocks (down_write
 * i_data_sem around ext4_map_create_blocks), v6.18.
 */
Test(race, two_unwritten_dio_writers_serialise_their_splits_on_i_data_sem)
{
	struct sim_explore_result res;

	two_splits(M_EXT4_DIO_BASE, &res);
	cr_assert_eq(order.overlaps, 0);
	cr_assert_gt(order.p0_first, 0);
	cr_assert_gt(order.p1_first, 0);
	cr_assert_eq(order.p0_first + order.p1_first, order.executions);
	sim_explore_result_fini(&res);

	two_splits(M_EXT4_DIO_PATCH2, &res);
	cr_assert_eq(order.p0_first + order.p1_first, 0);
	sim_explore_result_fini(&res);
}
