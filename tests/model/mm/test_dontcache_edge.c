// SPDX-License-Identifier: MIT
/*
 * tests/model/mm/test_dontcache_edge.c - the DONTCACHE edge completion
 * (seed 003 v12 6/7, km_filemap_dontcache_edge_complete) marks a
 * complete folio dropbehind itself, so a folio a plain write adopted
 * (cleared the mark of) after the completing DONTCACHE write is still
 * dropped.
 *
 * Issue 30, test strength: seed 65519's #53 deleted the edge
 * completion's folio_mark_dropbehind (model/mm/filemap.c) and survived:
 * in the two tests that ran the function the completing write had
 * marked the folio already.  Here the mark is gone when the edge
 * completion runs: one task, v11 and v12, page 0 a hole inside EOF,
 * 4 KiB blocks:
 *   1. pwrite(f, 0, 2048) without flags: a new folio, dirty.
 *   2. The parts of two DONTCACHE writes, [0, 2048) and [2048, 4096)
 *      (m_dontcache_write_partial, folio locked, as write_begin/
 *      write_end hold it): the first keeps the folio, the second
 *      completes it and marks it dropbehind.  (Probes, not syscalls:
 *      a DONTCACHE syscall's own kick would write back and drop the
 *      folio before step 3 in some executions.)
 *   3. pwrite(f, 2048, 2048) without flags: the lookup adopts the folio
 *      (PG_dropbehind cleared) and dirties it: the state a plain writer
 *      leaves when it runs between the completing write and its sync.
 *   4. fsync(f): written back; not dropbehind, so the completion keeps
 *      it (clean).
 *   5. The edge completion of step 2's write (m_dontcache_sync_edges'
 *      call after the sync): the folio is complete, so it is marked and
 *      filemap_end_dropbehind drops it (clean, not under writeback).
 * Must hold: nothing of the file cached at the end, the data on disk
 * (the harness's lost-data check), in every execution.  With the mark
 * deleted, step 5 leaves the clean folio cached (nrpages 1).
 */
#include <criterion/criterion.h>

#include "wpsim/harness.h"
#include "model/linux/pagemap.h"
#include "model/linux/syscalls.h"

static struct wpsim_race T;

static void edge_after_adopt(void *arg)
{
	struct km_file *f = wpsim_file("f");
	struct km_address_space *mapping = &f->f_inode->i_data;
	struct km_folio *folio;

	(void)arg;
	SIM_ASSERT_EQ(m_pwritev2(f, 0, 2048, 0, 7, 0), 2048);
	folio = m_folio_lookup_get(mapping, 0);
	SIM_ASSERT(folio != NULL);
	km_folio_lock(folio);
	m_dontcache_write_partial(folio, 0, 2048);
	SIM_ASSERT(!sim_bit_test(&folio->flags, PG_dropbehind));
	m_dontcache_write_partial(folio, 2048, 2048);
	SIM_ASSERT(sim_bit_test(&folio->flags, PG_dropbehind));
	km_folio_unlock(folio);
	km_folio_put(folio);
	SIM_ASSERT_EQ(m_pwritev2(f, 2048, 2048, 0, 8, 0), 2048);
	SIM_ASSERT_EQ(m_syscall(M_SYS_FSYNC, &(struct m_sys_args){
		.file = f }), 0);
	SIM_ASSERT_EQ(sim_word_peek(&mapping->nrpages), 1);
	km_filemap_dontcache_edge_complete(mapping, 2048);
}

static void nothing_cached(struct wpsim_race *r)
{
	(void)r;
	SIM_ASSERT_EQ(sim_word_peek(&wpsim_file("f")->f_inode->i_data.nrpages),
		      0);
}

Test(dontcache_edge, adopted_complete_folio_is_dropped_by_the_edge_completion)
{
	for (int v = M_DC_V11; v <= M_DC_V12; v++) {
		wpsim_race_init(&T, "dontcache-edge");
		T.world.files[0].size = 4096;
		T.world.files[0].layout = "H";
		T.world.files[0].nosec = true;
		T.world.dontcache = (enum m_dontcache_variant)v;
		wpsim_race_task(&T, "P0", edge_after_adopt, NULL);
		T.final = nothing_cached;
		T.name = v == M_DC_V11 ? "dontcache-edge v11" :
					  "dontcache-edge v12";
		WPSIM_ASSERT_RACE(&T);
	}
}
