// SPDX-License-Identifier: MIT
/*
 * tests/harness/test_harness.c - the public race-test harness
 * (include/wpsim/harness.h): two model races ported from
 * tests/model/mm/test_races.c, and the harness's own behaviour: each
 * expectation decided both ways, the witness report and its replay line,
 * the WPSIM_SCHEDULE replay, a capped search that is not decided, a
 * preemption bound, variants by name, and KTAP.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wpsim/harness.h"
#include "model/linux/syscalls.h"

/* ---- Buffered write vs flusher ------------------------------------------ */

static void write_once(void *arg)
{
	(void)arg;
	wpsim_reg_set(0, m_pwritev2(wpsim_file("f"), 512, 1024, 0, 7, 0));
}

static void write_vs_flusher(struct wpsim_race *r, const char *name)
{
	wpsim_race_init(r, name);
	r->world.files[0].size = PAGE_SIZE;
	r->world.files[0].dirty_first = 0;
	r->world.files[0].dirty_last = 0;
	wpsim_race_task(r, "writer", write_once, NULL);
	wpsim_race_task(r, "flusher", wpsim_task_writeback, NULL);
}

/*
 * Buffered write vs flusher (ported from tests/model/mm/test_races.c).
 * Folio 0 starts dirty (an earlier write).
 *
 *   P0 (pwrite 1 KiB at 512)                    P1 (writeback, SYNC_NONE)
 *                                               1. lock folio 0,
 *                                                  clear_dirty_for_io,
 *                                                  start_writeback, unlock
 *   2. lock folio 0, copy the write while
 *      PG_writeback is set; dirty it again
 *                                               3. bio completes: DMA
 *                                                  copies the folio
 * Must hold: afterwards every cached sector that differs from the disk is
 * in a dirty folio; counters equal the folio state.
 * Bug (break=no_redirty_under_writeback: write_end does not dirty a
 * folio under writeback): the DMA copies the folio before step 2's copy,
 * the folio stays clean with newer data: a lost write.
 * Kernel: fs/iomap/buffered-io.c __iomap_write_end, mm/page-writeback.c,
 * v6.18.
 */
Test(race, buffered_write_vs_flusher__no_lost_dirty_data)
{
	struct wpsim_race r;

	write_vs_flusher(&r, "write-vs-flusher");
	r.expect = WPSIM_NEVER;
	WPSIM_ASSERT_RACE(&r);

	write_vs_flusher(&r, "write-vs-flusher (broken)");
	cr_assert_eq(wpsim_race_variant(&r, "break=no_redirty_under_writeback"),
		     0);
	r.expect = WPSIM_SOMETIMES;
	r.failure_contains = "lost write";
	WPSIM_ASSERT_RACE(&r);
}

/* ---- Truncate vs writeback ---------------------------------------------- */

static void truncate_zero(void *arg)
{
	(void)arg;
	km_xfs_setattr_size(wpsim_file("f"), 0);
}

static void truncate_vs_writeback(struct wpsim_race *r, const char *name)
{
	wpsim_race_init(r, name);
	r->world.files[0].size = PAGE_SIZE;
	r->world.files[0].dirty_first = 0;
	r->world.files[0].dirty_last = 0;
	wpsim_race_task(r, "flusher", wpsim_task_writeback, NULL);
	wpsim_race_task(r, "truncate", truncate_zero, NULL);
}

/*
 * Truncate vs writeback (ported from tests/model/mm/test_races.c).
 *
 *   P0 (writeback, SYNC_NONE)          P1 (truncate to 0)
 *   1. start_writeback on folio 0,
 *      unlock, submit the bio
 *                                      2. pass 1: trylock folio 0, sees
 *                                         PG_writeback, leaves it
 *                                      3. pass 2: lock, wait for writeback
 *   4. bio completes: end_writeback
 *                                      5. remove the folio
 * Must hold: a folio is never removed from the page cache while under
 * writeback; counters consistent at the end.
 * Bug (break=truncate_no_wait): truncate removes the folio at step 2.
 * Kernel: mm/truncate.c truncate_inode_pages_range, v6.18.
 */
Test(race, truncate_vs_writeback__waits_for_writeback)
{
	struct wpsim_race r;

	truncate_vs_writeback(&r, "truncate-vs-writeback");
	WPSIM_ASSERT_RACE(&r);

	truncate_vs_writeback(&r, "truncate-vs-writeback (broken)");
	cr_assert_eq(wpsim_race_variant(&r, "break=truncate_no_wait"), 0);
	r.expect = WPSIM_SOMETIMES;
	r.failure_contains = "under writeback";
	WPSIM_ASSERT_RACE(&r);
}

/* ---------------------------------------------------------------------
 * Two buffered writers of sector 0 of a cached page (ids 7 and 8).
 *
 *   P0: pwrite(f, 0, 512) id 7        P1: pwrite(f, 0, 512) id 8
 *   Both take i_rwsem exclusive, so one write lands after the other.
 * Must hold: the sector holds 7 or 8, both are possible, each write
 * returns 512.
 */
static void write_id(void *arg)
{
	uint32_t id = (uint32_t)(uintptr_t)arg;

	wpsim_reg_set(0, m_pwritev2(wpsim_file("f"), 0, 512, 0, id, 0));
}

static uint32_t sector0(void)
{
	struct km_folio *folio =
		m_folio_lookup(&m_world()->inodes[0]->i_data, 0);

	return folio ? m_folio_sector(folio, 0) : 0;
}

static bool p1_last(struct wpsim_race *r)
{
	(void)r;
	return sector0() == 8;
}

static bool one_of_both(struct wpsim_race *r)
{
	(void)r;
	return (sector0() == 7 || sector0() == 8) &&
	       wpsim_reg(0, 0) == 512 && wpsim_reg(1, 0) == 512;
}

static bool neither(struct wpsim_race *r)
{
	(void)r;
	return sector0() != 7 && sector0() != 8;
}

static void two_writers(struct wpsim_race *r, const char *name)
{
	wpsim_race_init(r, name);
	r->world.files[0].size = PAGE_SIZE;
	r->world.files[0].cached_first = 0;
	r->world.files[0].cached_last = 0;
	wpsim_race_task(r, "P0", write_id, (void *)(uintptr_t)7);
	wpsim_race_task(r, "P1", write_id, (void *)(uintptr_t)8);
}

Test(harness, properties_decide_never_sometimes_always)
{
	struct wpsim_race r;
	struct wpsim_race_result res;

	two_writers(&r, "two-writers-last");
	r.property = p1_last;
	r.property_text = "sector 0 holds P1's write";
	r.expect = WPSIM_SOMETIMES;
	WPSIM_ASSERT_RACE(&r);

	two_writers(&r, "two-writers-one-of-both");
	r.property = one_of_both;
	r.expect = WPSIM_ALWAYS;
	WPSIM_ASSERT_RACE(&r);

	two_writers(&r, "two-writers-neither");
	r.property = neither;
	r.expect = WPSIM_NEVER;
	cr_assert_eq(wpsim_race_run(&r, NULL, &res), WPSIM_PASS, "%s",
		     res.message);
	cr_assert(res.complete);
	cr_assert_eq(res.positive, 0);
	cr_assert_eq(res.negative, res.executions);
	cr_assert_gt(res.executions, 1);
}

/* A report written to memory, for the tests of what it says. */
static enum wpsim_verdict run_to_text(struct wpsim_race *r,
				      struct wpsim_race_result *res,
				      char **text)
{
	size_t size;
	FILE *mem = open_memstream(text, &size);
	enum wpsim_verdict v;

	cr_assert(mem);
	v = wpsim_race_run(r, mem, res);
	fclose(mem);
	return v;
}

/* The same under the exact rwsem model (model/kernel/rwsem.c). */
Test(harness, two_writers_under_the_exact_rwsem)
{
	struct wpsim_race r;

	two_writers(&r, "two-writers-rwsem-exact");
	cr_assert_eq(wpsim_race_variant(&r, "rwsem=exact"), 0);
	cr_assert_eq(r.world.rwsem, M_RWSEM_EXACT);
	r.property = one_of_both;
	r.expect = WPSIM_ALWAYS;
	WPSIM_ASSERT_RACE(&r);
	r.property = p1_last;
	r.expect = WPSIM_SOMETIMES;
	WPSIM_ASSERT_RACE(&r);
}

Test(harness, a_wrong_expectation_prints_witness_and_replay)
{
	struct wpsim_race r;
	struct wpsim_race_result res;
	char *text, *expect;

	two_writers(&r, "two-writers-wrong");
	r.property = p1_last;
	r.expect = WPSIM_NEVER;
	cr_assert_eq(run_to_text(&r, &res, &text), WPSIM_FAIL);
	cr_assert_eq(res.positive, 1, "stops at the first witness");
	cr_assert(res.witness[0]);
	cr_assert(strstr(text, "race two-writers-wrong: FAIL: expected Never: the "
			 "property: held in 1, not in 0; 1 executions (0 "
			 "redundant), stopped once decided"),
		  "%s", text);
	cr_assert(strstr(text, "witness:     the first execution where it "
			 "holds"), "%s", text);
	cr_assert(asprintf(&expect, "replay:      WPSIM_RACE='two-writers-"
			   "wrong' WPSIM_SCHEDULE='%s' ", res.witness) > 0);
	cr_assert(strstr(text, expect), "%s", text);
	cr_assert(strstr(text, "last steps (step task access object = "
			 "value):"), "%s", text);
	/* The schedule names the model it is from (wpsim --version). */
	cr_assert(strncmp(res.witness, wpsim_model_hash(),
			  strlen(wpsim_model_hash())) == 0, "%s", res.witness);
	free(expect);
	free(text);
}

Test(harness, the_replay_line_replays_the_witness)
{
	struct wpsim_race r;
	struct wpsim_race_result res, again;
	char *text;

	two_writers(&r, "two-writers-replay");
	r.property = p1_last;
	r.expect = WPSIM_NEVER;
	cr_assert_eq(wpsim_race_run(&r, NULL, &res), WPSIM_FAIL);

	setenv("WPSIM_RACE", "two-writers-replay", 1);
	setenv("WPSIM_SCHEDULE", res.witness, 1);
	cr_assert_eq(run_to_text(&r, &again, &text), WPSIM_FAIL);
	cr_assert_eq(again.executions, 1);
	cr_assert_eq(again.positive, 1);
	cr_assert(strstr(text, "replaying WPSIM_SCHEDULE="), "%s", text);
	cr_assert(strstr(text, "---- ") || strstr(text, " P1 "), "%s", text);
	free(text);

	/* Another race's name: explored as usual. */
	setenv("WPSIM_RACE", "another-race", 1);
	cr_assert_eq(wpsim_race_run(&r, NULL, &again), WPSIM_FAIL);
	cr_assert_gt(again.executions, 0);
	unsetenv("WPSIM_RACE");
	unsetenv("WPSIM_SCHEDULE");
}

Test(harness, a_capped_search_is_not_decided)
{
	struct wpsim_race r;
	struct wpsim_race_result res;
	char *text;

	two_writers(&r, "two-writers-capped");
	r.property = neither;
	r.expect = WPSIM_NEVER;
	r.executions_max = 1;
	cr_assert_eq(run_to_text(&r, &res, &text), WPSIM_UNDECIDED);
	cr_assert(!res.complete);
	cr_assert(strstr(text, "NOT DECIDED"), "%s", text);
	cr_assert(strstr(text, "search stopped before covering its space"),
		  "%s", text);
	free(text);
}

Test(harness, a_preemption_bound_says_so)
{
	struct wpsim_race r, u;
	struct wpsim_race_result bounded, full;

	write_vs_flusher(&r, "write-vs-flusher-bound-0");
	r.preemptions = 0;
	cr_assert_eq(wpsim_race_run(&r, NULL, &bounded), WPSIM_PASS, "%s",
		     bounded.message);
	write_vs_flusher(&u, "write-vs-flusher-unbounded");
	cr_assert_eq(wpsim_race_run(&u, NULL, &full), WPSIM_PASS, "%s",
		     full.message);
	/* Not fewer executions than the unbounded search: that one runs the
	 * lock-aware reduction (folio lock sections since issue 34), which
	 * a bounded search does not, and can be the smaller. */
	cr_assert(full.complete && !full.bound_hit);
	cr_assert(bounded.bound_hit);
	cr_assert(strstr(bounded.message, "within 0 preemptions"), "%s",
		  bounded.message);
}

Test(harness, an_unexpected_failure_fails_a_property_race)
{
	struct wpsim_race r;
	struct wpsim_race_result res;
	char *text;

	write_vs_flusher(&r, "write-vs-flusher-property");
	cr_assert_eq(wpsim_race_variant(&r, "break=no_redirty_under_writeback"),
		     0);
	r.property = one_of_both;
	r.expect = WPSIM_SOMETIMES;
	cr_assert_eq(run_to_text(&r, &res, &text), WPSIM_FAIL);
	cr_assert(strstr(text, "unexpected property: lost write"), "%s", text);
	cr_assert(strstr(text, "outcome:     property: lost write"), "%s",
		  text);
	free(text);
}

Test(harness, variants_by_name_as_the_command_takes_them)
{
	struct wpsim_race r;

	wpsim_race_init(&r, "variants");
	cr_assert_eq(wpsim_race_variant(&r, "dontcache=v11"), 0);
	cr_assert_eq(r.world.dontcache, M_DC_V11);
	cr_assert_eq(wpsim_race_variant(&r, "dontcache=6.18"), 0);
	cr_assert_eq(r.world.dontcache, M_DC_6_18);
	cr_assert_eq(wpsim_race_variant(&r, "ext4_dio=unsafe-shared"), 0);
	cr_assert_eq(r.world.ext4_dio, M_EXT4_DIO_UNSAFE);
	cr_assert_eq(wpsim_race_variant(&r, "break=truncate_no_wait"), 0);
	cr_assert_eq(wpsim_race_variant(&r, "break=errseq_no_seen"), 0);
	cr_assert_eq(r.world.breaks,
		     M_BREAK_TRUNCATE_NO_WAIT | M_BREAK_ERRSEQ_NO_SEEN);
	cr_assert_eq(wpsim_race_variant(&r, "dontcache=v13"), -EINVAL);
	cr_assert_eq(wpsim_race_variant(&r, "colour=blue"), -EINVAL);
	cr_assert_eq(wpsim_race_variant(&r, "dontcache"), -EINVAL);
}

Test(harness, ktap_has_a_plan_results_and_totals)
{
	struct wpsim_race good, bad;
	struct wpsim_race *races[] = { &good, &bad };
	char *text;
	size_t size;
	FILE *mem = open_memstream(&text, &size);

	two_writers(&good, "two-writers-always");
	good.property = one_of_both;
	good.expect = WPSIM_ALWAYS;
	two_writers(&bad, "two-writers-never");
	bad.property = p1_last;
	bad.expect = WPSIM_NEVER;
	cr_assert_eq(wpsim_ktap_run(mem, "harness", races, 2), 1);
	fclose(mem);
	cr_assert(strncmp(text, "KTAP version 1\n# Subtest: harness\n1..2\n",
			  38) == 0, "%s", text);
	cr_assert(strstr(text, "\nok 1 two-writers-always\n"), "%s", text);
	cr_assert(strstr(text, "\nnot ok 2 two-writers-never\n"), "%s", text);
	cr_assert(strstr(text, "\n#   replay:      WPSIM_RACE="), "%s", text);
	cr_assert(strstr(text, "# Totals: pass:1 fail:1 "), "%s", text);
	free(text);
}

Test(harness, versions)
{
	cr_assert_str_eq(wpsim_version(), WPSIM_EXPECT_VERSION);
	cr_assert_eq(strlen(wpsim_model_hash()), 12);
}
