// SPDX-License-Identifier: MIT
/*
 * examples/race_write_vs_flusher.c - a race test of one's own on an
 * installed libwpsim: a buffered write into a dirty page against one
 * flusher pass, explored with DPOR.
 *
 *   writer: pwrite(f, 512, 1024)        flusher: writeback(f, SYNC_NONE)
 *                                       1. lock the folio,
 *                                          clear_dirty_for_io,
 *                                          start_writeback, unlock
 *   2. copy the write into the folio
 *      under writeback, dirty it again
 *                                       3. the bio completes
 * Must hold: no clean folio holds data the disk lacks (the harness's
 * end-of-execution check), counters equal the folio state.
 * With break=no_redirty_under_writeback (write_end leaves a folio under
 * writeback clean) the same race loses the write: the harness finds it.
 */
#include <criterion/criterion.h>
#include <string.h>
#include <wpsim/harness.h>

static void writer(void *arg)
{
	(void)arg;
	wpsim_reg_set(0, m_pwritev2(wpsim_file("f"), 512, 1024, 0, 7, 0));
}

static void setup_race(struct wpsim_race *r, const char *name)
{
	wpsim_race_init(r, name);
	r->world.files[0].size = PAGE_SIZE;	/* one page, */
	r->world.files[0].dirty_first = 0;	/* dirty from an earlier */
	r->world.files[0].dirty_last = 0;	/* write */
	wpsim_race_task(r, "writer", writer, NULL);
	wpsim_race_task(r, "flusher", wpsim_task_writeback, NULL);
}

static bool wrote_all(struct wpsim_race *r)
{
	(void)r;
	return wpsim_reg(0, 0) == 1024;
}

Test(race, write_vs_flusher__no_lost_data)
{
	struct wpsim_race r;

	setup_race(&r, "write-vs-flusher");
	r.property = wrote_all;
	r.property_text = "the write returns 1024";
	r.expect = WPSIM_ALWAYS;
	WPSIM_ASSERT_RACE(&r);
}

Test(race, broken_model__loses_the_write)
{
	struct wpsim_race r;

	setup_race(&r, "write-vs-flusher-broken");
	cr_assert_eq(wpsim_race_variant(&r,
			"break=no_redirty_under_writeback"), 0);
	r.expect = WPSIM_SOMETIMES;	/* property NULL: an execution fails */
	r.failure_contains = "lost write";
	WPSIM_ASSERT_RACE(&r);
}

Test(race, library_is_the_version_pkg_config_found)
{
	cr_assert_str_eq(wpsim_version(), WPSIM_PC_VERSION);
}
