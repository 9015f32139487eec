// SPDX-License-Identifier: MIT
/*
 * tests/model/mm/test_dontcache.c - RWF_DONTCACHE (seed 003): the
 * sashiko double count driven step by step as the cover letter's KUnit
 * test does, the WB_DONTCACHE_DIRTY drift that 2/7 fixes, and the drop
 * after writeback.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "wpsim/harness.h"

static struct km_file *F(void)
{
	return m_world()->files[0];
}
#include "tests/scale.h"
#include "model/linux/syscalls.h"

static struct wpsim_race T;

#define WBSTAT(x) ((int64_t)sim_word_peek(&m_world()->wb.stat[x]))

/* ---------------------------------------------------------------------
 * The sashiko interleaving (seed 003, v12 cover letter), forced:
 *   P0 (dirtier without the folio lock: the zap path)
 *   1. folio_mark_dirty -> filemap_dirty_folio: test-and-set PG_dirty
 *   P1 (DONTCACHE writer, folio locked)
 *   2. folio_mark_dropbehind: xa_lock; set PG_dropbehind; PG_dirty is set
 *      and the DIRTY mark is there (stale: left by an earlier writeback
 *      skip), so it counts the folio: WB_DONTCACHE_DIRTY = 1
 *   P0
 *   3. __folio_mark_dirty: xa_lock; folio_account_dirtied finds
 *      PG_dropbehind and counts it again: WB_DONTCACHE_DIRTY = 2
 * Must hold: WB_DONTCACHE_DIRTY == pages dirty and dropbehind (1 or 0).
 * v11: counted twice, mapped or not.  v12: a mapped folio is left
 * unmarked and the count is right; on an unmapped folio the forced
 * steps still count twice (the cover letter: the folio lock keeps an
 * unmapped folio unmapped, so no real dirtier reaches step 1 there).
 */
static struct km_folio *folio0;

static void dirtier(void *arg)
{
	(void)arg;
	km_folio_mark_dirty(folio0);
}

static void marker(void *arg)
{
	(void)arg;
	km_folio_lock(folio0);
	km_folio_mark_dropbehind(folio0);
	km_folio_unlock(folio0);
}

static void sashiko_setup(struct wpsim_race *r)
{
	(void)r;
	folio0 = m_folio_lookup(&m_world()->inodes[0]->i_data, 0);
	/* The stale DIRTY mark: clean folio, mark left behind. */
	m_xa_slot(folio0->owner, 0)->marks.value |= 1u << PAGECACHE_TAG_DIRTY;
}

/*
 * The forced steps; *@twice says whether invariant 11 stopped the run
 * at the second count (the double count, seen as it happens).
 */
static int64_t forced_count(enum m_dontcache_variant v, bool mapped,
			    bool *marked, bool *twice)
{
	struct sim_outcome o;
	const struct sim_event *ev;
	uint32_t n, dirty_step = 0;
	char schedule[32];

	wpsim_race_init(&T, "sashiko-forced");
	T.setup = sashiko_setup;
	/* Forced steps, no end-of-execution checks. */
	T.skip_quiescent_check = true;
	T.skip_lost_data_check = true;
	T.world.files[0].size = 4096;
	T.world.files[0].cached_first = 0;
	T.world.files[0].cached_last = 0;
	if (mapped) {
		T.world.files[0].mapped_first = 0;
		T.world.files[0].mapped_last = 0;
	}
	T.world.dontcache = v;
	wpsim_race_task(&T, "P0", dirtier, NULL);
	wpsim_race_task(&T, "P1", marker, NULL);
	/*
	 * Find the step in which P0 test-and-sets PG_dirty (run P0 alone
	 * first), then force: P0 up to and including it (it stops at
	 * xa_lock), P1 to its end, then P0.
	 */
	wpsim_race_replay(&T, "-", &o);
	cr_assert_eq(o.kind, SIM_OK, "%s", o.message);
	n = sim_exec_events(&ev);
	for (uint32_t i = 0; i < n; i++)
		if (ev[i].task == 0 && ev[i].access == SIM_ACCESS_RMW &&
		    ev[i].object == SIM_OBJECT_BIT(folio0->flags.id,
						   PG_dirty)) {
			dirty_step = ev[i].step;
			break;
		}
	cr_assert_gt(dirty_step, 0);
	snprintf(schedule, sizeof(schedule), "0*%u.1", dirty_step + 1);
	wpsim_race_replay(&T, schedule, &o);
	*twice = o.kind == SIM_FAIL_INVARIANT &&
		 strstr(o.message, "invariant 11:") != NULL;
	cr_assert(o.kind == SIM_OK || *twice, "%s", o.message);
	*marked = m_folio_flag_peek(folio0, PG_dropbehind);
	return WBSTAT(WB_DONTCACHE_DIRTY);
}

Test(dontcache, sashiko_forced_interleaving__v11_counts_twice_v12_mapped_right)
{
	bool marked, twice;

	/* v11, unmapped: counted twice (invariant 11 stops it there). */
	cr_assert_eq(forced_count(M_DC_V11, false, &marked, &twice), 2);
	cr_assert(marked);
	cr_assert(twice);
	/* v11, mapped: counted twice too. */
	cr_assert_eq(forced_count(M_DC_V11, true, &marked, &twice), 2);
	cr_assert(twice);
	/* v12, mapped: left unmarked, nothing counted: right. */
	cr_assert_eq(forced_count(M_DC_V12, true, &marked, &twice), 0);
	cr_assert(!marked);
	cr_assert(!twice);
	/* v12, unmapped, forced: the artificial steps still count twice. */
	cr_assert_eq(forced_count(M_DC_V12, false, &marked, &twice), 2);
	cr_assert(twice);
}

/* ---------------------------------------------------------------------
 * The drift of 7.3 that seed 003 2/7 fixes.  Folio 0 starts dirty and
 * dropbehind, counted once.
 *   P0 (buffered read: a lookup without FGP_DONTCACHE adopts the folio)
 *   1. test-and-clear PG_dropbehind (set)
 *                                    P1 (writeback)
 *                                    2. folio_clear_dirty_for_io: clear
 *                                       PG_dirty; PG_dropbehind is clear
 *                                       now: not taken off the counter
 *   3. PG_dirty is clear now: not taken off either
 * Afterwards the folio is clean and WB_DONTCACHE_DIRTY is still 1.
 * v11/v12 take a folio off only if it was counted, and always then.
 */
static void reader(void *arg)
{
	uint32_t out[8];

	(void)arg;
	m_pread(F(), 0, 512, out);
}

static void flush(void *arg)
{
	(void)arg;
	m_writeback_inode(m_world()->inodes[0], WB_SYNC_NONE);
}

static void drift(enum m_dontcache_variant v, struct sim_explore_result *res)
{
	wpsim_race_init(&T, "dontcache");
	T.world.files[0].size = 4096;
	T.world.files[0].dirty_first = 0;
	T.world.files[0].dirty_last = 0;
	T.world.files[0].dropbehind_first = 0;
	T.world.files[0].dropbehind_last = 0;
	T.world.dontcache = v;
	wpsim_race_task(&T, "P0", reader, NULL);
	wpsim_race_task(&T, "P1", flush, NULL);
	T.name = "dontcache-drift";
	cr_assert_eq(wpsim_race_explore(&T, res), 0);
}

/*
 * Issue 30 items 7 and 8: the interleaving above cannot happen.  v6.18's
 * filemap_read never adopts (its lookups do not clear PG_dropbehind), and
 * every lookup that adopts holds the folio lock, which writeback's
 * folio_clear_dirty_for_io needs too.  The "drift" this test found under
 * 7.3 was the model's own one-thread leak (the adopt re-tested the flag
 * it had just cleared; tests/fidelity/item07-v7_3-one-thread.litmus).
 * Now no variant fails.
 */
Test(dontcache, drift_of_7_3__not_through_a_reader)
{
	struct sim_explore_result res;

	drift(M_DC_7_3, &res);
	cr_assert_eq(res.failures, 0, "%s", res.first.outcome.message);
	cr_assert(res.complete);
	sim_explore_result_fini(&res);
	for (int v = M_DC_V11; v <= M_DC_V12; v++) {
		drift((enum m_dontcache_variant)v, &res);
		cr_assert_eq(res.failures, 0, "%s", res.first.outcome.message);
		cr_assert(res.complete);
		cr_log_info("v%d: %llu executions, complete", v == M_DC_V11 ?
			    11 : 12, (unsigned long long)res.executions);
		sim_explore_result_fini(&res);
	}
}

/* ---------------------------------------------------------------------
 * A DONTCACHE write leaves nothing cached: the kick writes it back and
 * the completion drops the clean folio (6.18 and later).
 */
static void dontcache_write(void *arg)
{
	(void)arg;
	SIM_ASSERT_EQ(m_pwritev2(F(), 0, 4096, RWF_DONTCACHE, 4, 0), 4096);
}

/* After the kicked writeback has completed (events run last). */
static void dontcache_final(struct wpsim_race *r)
{
	(void)r;
	SIM_ASSERT_EQ(sim_word_peek(&F()->f_inode->i_data.nrpages), 0);
	SIM_ASSERT_EQ(m_dev_data(&m_world()->dev, 0), 4);
}

Test(dontcache, write_is_written_back_and_dropped)
{
	static const char *const names[] = { "dontcache-write 6.18",
		"dontcache-write 7.3", "dontcache-write v11",
		"dontcache-write v12" };

	for (int v = M_DC_6_18; v <= M_DC_V12; v++) {
		wpsim_race_init(&T, "dontcache");
		T.world.files[0].size = 4096;
		T.world.dontcache = (enum m_dontcache_variant)v;
		wpsim_race_task(&T, "P0", dontcache_write, NULL);
		T.final = dontcache_final;
		T.name = names[v];
	WPSIM_ASSERT_RUN_ONCE(&T);
	}
}

/* ---------------------------------------------------------------------
 * Seed 003 5/7: two RWF_DONTCACHE writers of adjacent records sharing a
 * folio.  Page 0 of f is a hole inside EOF, 4 KiB blocks.
 *   P0: pwritev2(f, 0, 2048, RWF_DONTCACHE)      record A
 *   P1: pwritev2(f, 2048, 2048, RWF_DONTCACHE)   record B
 *   (each: write, kick = writeback of its range, bio completion as an
 *   engine event)
 * Buggy interleaving (v6.18, v7.3):
 *   1. P0 writes A into a new dropbehind folio, kicks writeback.
 *   2. A's completion: folio_end_dropbehind -> folio_unmap_invalidate:
 *      the folio is gone, the block is written on disk.
 *   3. P1's write_begin creates a new folio; __iomap_write_begin reads
 *      the block back: dev.reads = 1.
 * v11/v12 (5/7, from the cover letter only): A's write covers the folio
 * partially and keeps it (not dropbehind); B completes it and marks it
 * (folio_mark_dropbehind), B's writeback drops it.  Never a read.
 * Must hold in every variant: no data lost (harness check), counters
 * right (quiescent check).
 * Both forms are explored exhaustively for the fixed variants: the
 * two-thread one in 3,112 executions since folio_get and folio_put
 * commute (it was 1.58 M before, and capped here), as
 * scenarios/dontcache/adjacent-records-two-writers.litmus; the
 * one-thread form below (the same race: the first write's completion
 * against the second write's lookup) as
 * scenarios/dontcache/adjacent-records.litmus.
 */
static void record_a(void *arg)
{
	(void)arg;
	SIM_ASSERT_EQ(m_pwritev2(F(), 0, 2048, RWF_DONTCACHE, 7, 0), 2048);
}

static void record_b(void *arg)
{
	(void)arg;
	SIM_ASSERT_EQ(m_pwritev2(F(), 2048, 2048, RWF_DONTCACHE, 8, 0), 2048);
}

static void records_a_b(void *arg)
{
	record_a(arg);
	record_b(arg);
}

/* The property the explorations look for: a read of the shared page. */
static void no_device_read(struct wpsim_race *r)
{
	uint64_t reads = sim_word_peek(&m_world()->dev.reads);

	(void)r;
	if (reads)
		sim_fail(SIM_FAIL_PROPERTY, "shared page read back: %llu "
			 "device reads", (unsigned long long)reads);
	/* Both records on disk, or still in a dirty cached folio. */
}

static void adjacent(enum m_dontcache_variant v, bool one_thread,
		     uint64_t cap, struct sim_explore_result *res)
{
	wpsim_race_init(&T, "dontcache");
	T.world.files[0].size = 4096;
	T.world.files[0].layout = "H";
	T.world.files[0].nosec = true;
	T.world.dontcache = v;
	if (one_thread) {
		wpsim_race_task(&T, "P0", records_a_b, NULL);
	} else {
		wpsim_race_task(&T, "P0", record_a, NULL);
		wpsim_race_task(&T, "P1", record_b, NULL);
	}
	T.final = no_device_read;
	T.name = "dontcache-adjacent";
	T.executions_max = cap;
	cr_assert_eq(wpsim_race_explore(&T, res), 0);
}

/*
 * @res found a read-back of the shared page (the "read back" property
 * failure) when @want_read, and no failure at all otherwise.
 */
static void assert_read_back(const struct sim_explore_result *res, int v,
			     bool want_read)
{
	if (!want_read) {
		cr_assert_eq(res->failures, 0, "variant %d: %s", v,
			     res->first.outcome.message);
		return;
	}
	cr_assert_eq(res->failures, 1, "variant %d: no read back found", v);
	cr_assert(strstr(res->first.outcome.message, "read back"), "%s",
		  res->first.outcome.message);
}

Test(dontcache, adjacent_records__read_back_in_6_18_never_with_5_of_7,
     .timeout = 120)
{
	struct sim_explore_result res;

	for (int v = M_DC_6_18; v <= M_DC_V12; v++) {
		bool fixed = v >= M_DC_V11;

		/* Two writers: 6.18/7.3 read back; v11/v12 never, over
		 * the whole space. */
		adjacent((enum m_dontcache_variant)v, false, 0, &res);
		assert_read_back(&res, v, !fixed);
		if (fixed)
			cr_assert(res.complete);
		cr_log_info("two writers, variant %d: %s after %llu "
			    "executions", v, res.failures ? "read found" :
			    "no read", (unsigned long long)res.executions);
		sim_explore_result_fini(&res);
		/* One writer, two records: exhaustive for the fixed ones. */
		adjacent((enum m_dontcache_variant)v, true, 0, &res);
		if (fixed) {
			cr_assert_eq(res.failures, 0, "v%d: %s", v,
				     res.first.outcome.message);
			cr_assert(res.complete);
		} else {
			cr_assert_eq(res.failures, 1);
		}
		cr_log_info("one writer, variant %d: %s, %llu executions%s",
			    v, res.failures ? "read found" : "no read",
			    (unsigned long long)res.executions,
			    res.complete ? ", complete" : "");
		sim_explore_result_fini(&res);
	}
}

/* ---------------------------------------------------------------------
 * Seed 003 6/7 (from the cover letter only): a writer that syncs its own
 * write (RWF_DONTCACHE | RWF_DSYNC) completes its partially covered
 * folios itself after the sync.  One writer, records A = [0, 2048) and
 * B = [2048, 4096) of a hole inside EOF, each with RWF_DSYNC:
 *   1. A: write (partial: v11/v12 keep the folio), fsync of [0, 2048):
 *      writeback, wait.  v6.18: the completion drops the folio.
 *   2. B: write.  v6.18: the folio is gone, the block is read back.
 *      v11/v12: B completes the folio, marks it dropbehind; its fsync
 *      writes it back, the completion drops it; then
 *      filemap_dontcache_edge_complete finds it gone or drops it.
 * Must hold: v6.18 reads back in some executions (not all: the waiter
 * is woken by __folio_end_writeback before the completion's
 * folio_end_dropbehind, and if B's write_begin locks the folio first,
 * the drop's trylock fails); v11/v12 never, and nothing of the file
 * stays cached at the end.
 */
static void records_a_b_dsync(void *arg)
{
	(void)arg;
	SIM_ASSERT_EQ(m_pwritev2(F(), 0, 2048, RWF_DONTCACHE | RWF_DSYNC, 7,
				 0), 2048);
	SIM_ASSERT_EQ(m_pwritev2(F(), 2048, 2048, RWF_DONTCACHE | RWF_DSYNC,
				 8, 0), 2048);
}

static void dsync_no_read_nothing_cached(struct wpsim_race *r)
{
	(void)r;
	SIM_ASSERT_EQ(sim_word_peek(&m_world()->dev.reads), 0);
	SIM_ASSERT_EQ(sim_word_peek(&F()->f_inode->i_data.nrpages), 0);
}

Test(dontcache, dsync_writer_completes_shared_page__no_read_nothing_left)
{
	struct sim_explore_result res;

	for (int v = M_DC_6_18; v <= M_DC_V12; v++) {
		wpsim_race_init(&T, "dontcache");
		T.world.files[0].size = 4096;
		T.world.files[0].layout = "H";
		T.world.files[0].nosec = true;
		T.world.dontcache = (enum m_dontcache_variant)v;
		wpsim_race_task(&T, "P0", records_a_b_dsync, NULL);
		T.final = v >= M_DC_V11 ? dsync_no_read_nothing_cached :
			  no_device_read;
		/*
		 * The fixed variants' space is 485878 executions (complete,
		 * no read, nothing cached; ~30 s each): too slow for the
		 * quick suite, so they are explored up to a cap here.
		 */
		T.name = "dontcache-dsync";
		T.executions_max = v >= M_DC_V11 ? 20000 : 0;
		cr_assert_eq(wpsim_race_explore(&T, &res), 0);
		assert_read_back(&res, v, v < M_DC_V11);
		cr_log_info("dsync, variant %d: %s after %llu executions%s",
			    v, res.failures ? "read found" : "no read",
			    (unsigned long long)res.executions,
			    res.complete ? ", complete" : "");
		sim_explore_result_fini(&res);
	}
}

/* ---------------------------------------------------------------------
 * folio_unmap_invalidate against a dirtier that holds neither the folio
 * lock nor a PTE, so breaks folio_mark_dirty's rule that the caller must
 * exclude truncation (the model has no such caller; this one is written
 * for the test, to look into the window).
 *   P0 (the drop after writeback): folio_lock; filemap_end_dropbehind:
 *      clean, not under writeback -> folio_unmap_invalidate:
 *      i_lock; xa_lock; PG_dirty clear -> __filemap_remove_folio; unlock
 *   P1: folio_mark_dirty: test-and-set PG_dirty; xa_lock; if
 *      folio->mapping, account the folio dirty and set the DIRTY mark
 * Must hold: a folio whose dirtying was accounted (NR_DIRTIED = 1) is
 * still in the page cache.  In v6.18 the dirty test and the removal are
 * one section: P1's PG_dirty is set before it (-EBUSY, the folio stays),
 * or P1 takes xa_lock after the removal and finds folio->mapping NULL.
 * (P1's PG_dirty set inside the section is the kernel's own
 * WARN_ON_ONCE in filemap_unaccount_folio: the folio is accounted clean
 * without having been counted, NR_FILE_DIRTY -1; those executions end in
 * the counter invariant and are counted, not failed.)
 * The model before the fix tested PG_dirty, dropped both locks and took
 * them again to remove: P1's whole dirtying fitted in between, and the
 * dirty, accounted folio was removed (its dirt dropped).
 * Kernel: mm/truncate.c folio_unmap_invalidate, mm/filemap.c
 * filemap_unaccount_folio, mm/page-writeback.c __folio_mark_dirty, v6.18.
 */
static void dropper(void *arg)
{
	(void)arg;
	/* folio_end_writeback holds a reference across the drop. */
	km_folio_get(folio0);
	km_folio_lock(folio0);
	km_filemap_end_dropbehind(folio0);
	km_folio_unlock(folio0);
	km_folio_put(folio0);
}

/* The dirtier of this test drops its pin when done (invariant 12). */
static void pinned_dirtier(void *arg)
{
	(void)arg;
	km_folio_mark_dirty(folio0);
	km_folio_put(folio0);
}

static void unlocked_dirtier_setup(struct wpsim_race *r)
{
	(void)r;
	folio0 = m_folio_lookup(&m_world()->inodes[0]->i_data, 0);
	km_folio_get(folio0);	/* the dirtier's pin */
}

static void accounted_implies_cached(struct wpsim_race *r)
{
	int64_t dirtied = (int64_t)sim_word_peek(
		&m_world()->node.stat[NR_DIRTIED]);

	(void)r;
	if (dirtied && !sim_word_peek(&folio0->mapping))
		sim_fail(SIM_FAIL_PROPERTY, "folio dirtied (NR_DIRTIED %lld) "
			 "and removed from the page cache",
			 (long long)dirtied);
}

static uint64_t removed_dirty, kernel_warn;

static void classify(void *ctx, const struct sim_outcome *o)
{
	(void)ctx;
	if (o->kind == SIM_FAIL_PROPERTY)
		removed_dirty++;
	else if (o->kind == SIM_FAIL_INVARIANT &&
		 strstr(o->message, "NR_FILE_DIRTY is negative"))
		kernel_warn++;
	else
		cr_expect_eq(o->kind, SIM_OK, "%s", o->message);
}

Test(dontcache, unmap_invalidate_vs_unlocked_dirtier__dirty_folio_kept)
{
	struct sim_program p;
	struct sim_explore_options opt = { .on_execution = classify };
	struct sim_explore_result r;
	struct sim_strategy s;

	wpsim_race_init(&T, "dontcache");
	T.world.files[0].size = 4096;
	T.world.files[0].cached_first = 0;
	T.world.files[0].cached_last = 0;
	T.world.files[0].dropbehind_first = 0;
	T.world.files[0].dropbehind_last = 0;
	T.skip_lost_data_check = true;	/* the dirtier writes no data */
	wpsim_race_task(&T, "P0", dropper, NULL);
	wpsim_race_task(&T, "P1", pinned_dirtier, NULL);
	T.final = accounted_implies_cached;
	T.name = "unmap-invalidate-vs-dirtier";
	T.setup = unlocked_dirtier_setup;
	wpsim_race_program(&T, &p);
	removed_dirty = kernel_warn = 0;
	cr_assert_eq(sim_strategy_dpor(&s), 0);
	sim_explore(&p, &s, &opt, &r);
	sim_strategy_fini(&s);
	cr_assert(r.complete);
	cr_expect_eq(removed_dirty, 0, "%llu executions removed the "
		     "accounted dirty folio", (unsigned long long)removed_dirty);
	cr_expect_gt(kernel_warn, 0);
	cr_log_info("unmap-invalidate-vs-dirtier: %llu executions, %llu "
		    "with the kernel's WARN", (unsigned long long)r.executions,
		    (unsigned long long)kernel_warn);
	sim_explore_result_fini(&r);
}
