// SPDX-License-Identifier: MIT
/*
 * tests/model/mm/test_vmscan.c - reclaim at a page-cache limit
 * (model/mm/vmscan.c, wpsim fio --mem): clean, unlocked, unmapped folios
 * not under writeback are reclaimed oldest first when an allocation
 * would pass the limit; dirty ones stay; a lookup racing reclaim gets
 * the folio or a new one, never a freed one.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "wpsim/harness.h"
#include "model/linux/syscalls.h"

static struct km_file *F(void)
{
	return m_world()->files[0];
}

static struct wpsim_race T;
static int pages_written;

/* Write pages 0..pages_written-1 one by one, each made clean by fsync. */
static void write_fsync_task(void *arg)
{
	(void)arg;
	for (int p = 0; p < pages_written; p++) {
		SIM_ASSERT_EQ(m_pwritev2(F(), (loff_t)p * 4096, 4096, 0,
					 10 + p, 0), 4096);
		SIM_ASSERT_EQ(km_xfs_file_fsync(F(), 0, INT64_MAX, 0), 0);
	}
}

/* Write pages 0..pages_written-1, no writeback: every folio dirty. */
static void write_task(void *arg)
{
	(void)arg;
	for (int p = 0; p < pages_written; p++)
		SIM_ASSERT_EQ(m_pwritev2(F(), (loff_t)p * 4096, 4096, 0,
					 10 + p, 0), 4096);
}

/* Read page 0 (its folio may be reclaimed under the lookup). */
static void read_task(void *arg)
{
	static uint32_t out[SECTORS_PER_PAGE];

	(void)arg;
	SIM_ASSERT_EQ(m_pread(F(), 0, 4096, out), 4096);
	/* Whatever folio it found: page 0's data, P0's or the disk's. */
	SIM_ASSERT(out[0] == 10 || out[0] == 0);
}

static void config(int pages, unsigned long mem_pages)
{
	wpsim_race_init(&T, "vmscan");
	T.world.files[0].size = 16 * 4096;
	T.world.mem_pages = mem_pages;
	pages_written = pages;
}

/* The LRU holds exactly the folios in the page cache, linked both ways. */
static void lru_consistent(void)
{
	struct m_world *w = m_world();
	uint32_t n = 0, prev = 0;

	for (uint32_t id = w->lru_head; id; id = w->folios[id]->lru_next) {
		struct km_folio *folio = w->folios[id];

		SIM_ASSERT(folio->on_lru && folio->lru_prev == prev &&
			   sim_word_peek(&folio->mapping));
		prev = id;
		n++;
	}
	SIM_ASSERT_EQ(prev, w->lru_tail);
	SIM_ASSERT_EQ((int64_t)n, (int64_t)sim_word_peek(
				       &w->node.stat[NR_FILE_PAGES]));
}

static void reclaimed_final(struct wpsim_race *r)
{
	struct m_world *w = m_world();

	(void)r;
	lru_consistent();
	SIM_ASSERT(sim_word_peek(&w->node.stat[NR_FILE_PAGES]) <= 4);
	SIM_ASSERT_EQ(w->reclaimed_pages, (uint64_t)(pages_written - 4));
}

/*
 * Twelve pages written and cleaned one by one under a limit of 4: each
 * allocation past the limit reclaims the oldest clean folio, so the page
 * cache never holds more than 4 and 8 are reclaimed; their data are on
 * the disk (the harness's lost-write check reads every cached sector,
 * and the freed folios' ids are reused: at most 5 folio structs).
 */
Test(vmscan, clean_folios_are_reclaimed_at_the_limit)
{
	config(12, 4);
	wpsim_race_task(&T, "P0", write_fsync_task, NULL);
	T.final = reclaimed_final;
	T.name = "reclaim-clean";
	WPSIM_ASSERT_RUN_ONCE(&T);
}

static void dirty_final(struct wpsim_race *r)
{
	struct m_world *w = m_world();

	(void)r;
	lru_consistent();
	SIM_ASSERT_EQ(w->reclaimed_pages, 0);
	SIM_ASSERT_EQ(sim_word_peek(&w->node.stat[NR_FILE_PAGES]), 8);
	SIM_ASSERT_EQ(sim_word_peek(&w->node.stat[NR_FILE_DIRTY]), 8);
}

/* Dirty folios are never reclaimed: the page cache goes over the limit. */
Test(vmscan, dirty_folios_stay)
{
	config(8, 4);
	wpsim_race_task(&T, "P0", write_task, NULL);
	T.final = dirty_final;
	T.name = "reclaim-dirty";
	WPSIM_ASSERT_RUN_ONCE(&T);
}

/* Write and clean pages one by one (reclaim at the limit), then
 * truncate the file to 0 (every folio left removed). */
static void write_fsync_truncate_task(void *arg)
{
	write_fsync_task(arg);
	SIM_ASSERT_EQ(m_syscall(M_SYS_FTRUNCATE, &(struct m_sys_args){
		.file = F(), .pos = 0 }), 0);
}

static void truncated_final(struct wpsim_race *r)
{
	struct m_world *w = m_world();

	(void)r;
	lru_consistent();
	SIM_ASSERT_EQ(w->reclaimed_pages, 4);
	SIM_ASSERT_EQ(sim_word_peek(&w->node.stat[NR_FILE_PAGES]), 0);
}

/*
 * Reclaim and truncate take the inode's i_lock, then the page cache's
 * xa_lock (mm/vmscan.c __remove_mapping, mm/filemap.c
 * filemap_remove_folio, v6.18): eight pages written and cleaned under a
 * limit of 4 (four reclaimed), then a truncate to 0 removes the other
 * four.  The world's lock-order graph sees both paths in one execution;
 * seed 64153's #99 (__remove_mapping taking xa_lock first) closed the
 * cycle i_lock -> xa_lock -> i_lock ("possible circular locking
 * dependency"), which no single test had shown, since none reclaimed
 * and removed a folio otherwise.
 */
Test(vmscan, reclaim_and_truncate_lock_in_one_order)
{
	config(8, 4);
	wpsim_race_task(&T, "P0", write_fsync_truncate_task, NULL);
	T.final = truncated_final;
	T.name = "reclaim-then-truncate";
	WPSIM_ASSERT_RUN_ONCE(&T);
}

static uint64_t race_reclaimed, race_kept;

static void race_final(struct wpsim_race *r)
{
	(void)r;
	lru_consistent();
	if (m_world()->reclaimed_pages)
		race_reclaimed++;
	else
		race_kept++;
}

/*
 * P0 writes and cleans pages 0 and 1 under a limit of 1, so allocating
 * page 1 reclaims page 0's folio; P1 reads page 0 meanwhile.  No
 * interleaving fails: no assertion, no invariant, no lost
 * write, the LRU consistent (DPOR, the first 20 000 executions: a
 * lookup that finds the count frozen retries, and its retries make the
 * space large).  Some executions reclaim page 0, some keep it.  P1's
 * lookup either gets page 0's folio
 * before the refcount freeze (reclaim then keeps it), or finds it frozen
 * or gone and allocates a new one.
 */
Test(vmscan, a_lookup_racing_reclaim_gets_a_live_folio)
{
	config(2, 1);
	wpsim_race_task(&T, "P0", write_fsync_task, NULL);
	wpsim_race_task(&T, "P1", read_task, NULL);
	T.final = race_final;
	{
		struct sim_explore_result r;

		race_reclaimed = race_kept = 0;
		T.name = "reclaim-race";
		T.executions_max = 20000;
		cr_assert_eq(wpsim_race_explore(&T, &r), 0);
		cr_assert_eq(r.failures, 0, "reclaim-race: %s",
			     r.first.outcome.message);
		/* Both ways: page 0 reclaimed, and kept (P1 held it). */
		cr_assert(race_reclaimed > 0 && race_kept > 0,
			  "reclaim-race: %llu reclaimed, %llu kept",
			  (unsigned long long)race_reclaimed,
			  (unsigned long long)race_kept);
		cr_log_info("reclaim-race: %llu executions%s, %llu with "
			    "page 0 reclaimed, %llu kept",
			    (unsigned long long)r.executions,
			    r.complete ? ", complete" : " (capped)",
			    (unsigned long long)race_reclaimed,
			    (unsigned long long)race_kept);
		sim_explore_result_fini(&r);
	}
}
