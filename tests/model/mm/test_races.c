// SPDX-License-Identifier: MIT
/*
 * tests/model/mm/test_races.c - the model-core races, explored
 * exhaustively with DPOR; each also runs a deliberately broken model
 * (a test-only M_BREAK_* switch) that the same checks must catch.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "wpsim/harness.h"
#include "model/linux/syscalls.h"

static struct km_file *F(void)
{
	return m_world()->files[0];
}

/* Buffered write vs flusher and truncate vs writeback run on the public
 * harness now: tests/harness/test_harness.c. */
static void flush_none(void *arg)
{
	(void)arg;
	m_writeback_inode(m_world()->inodes[0], WB_SYNC_NONE);
}

/* ---- Write fault vs folio_clear_dirty_for_io ---------------------------- */

static void store_twice(void *arg)
{
	(void)arg;
	SIM_ASSERT_EQ(m_mmap_store(F(), 0, 512, 9), 0);
	SIM_ASSERT_EQ(m_mmap_store(F(), 512, 512, 10), 0);
}

static void fault_vs_clear(struct wpsim_race *t, const char *name,
			   unsigned int breaks)
{
	wpsim_race_init(t, name);
	t->world.files[0].size = PAGE_SIZE;
	t->world.files[0].mapped_first = 0;
	t->world.files[0].mapped_last = 0;
	t->world.breaks = breaks;
	wpsim_race_task(t, "P0", store_twice, NULL);
	wpsim_race_task(t, "P1", flush_none, NULL);
}

/*
 * Write fault vs folio_clear_dirty_for_io.
 *
 *   P0 (store through the mapping)     P1 (writeback, SYNC_NONE)
 *   1. fault: page_mkwrite locks the
 *      folio, dirties it, PTE becomes
 *      writable + dirty, unlock
 *                                      2. lock, folio_clear_dirty_for_io:
 *                                         folio_mkclean write-protects
 *                                         the PTE, clears PG_dirty
 *   3. the store after the DMA faults
 *      again (the PTE is read-only) and
 *      dirties the folio again
 * Must hold: the dirty bit is never lost: a writable PTE only on a dirty
 * folio, and a cached sector newer than the disk only in a dirty folio.
 * Bug (M_BREAK_CLEAR_DIRTY_NO_MKCLEAN, break=clear_dirty_no_mkclean): the
 * PTE stays writable on a clean folio; the next store sets only the PTE's
 * dirty bit ("mapped writable but clean").
 * Kernel: mm/page-writeback.c folio_clear_dirty_for_io, mm/rmap.c
 * folio_mkclean, v6.18.
 */
Test(race, write_fault_vs_clear_dirty_for_io__dirty_bit_never_lost)
{
	static struct wpsim_race t;

	fault_vs_clear(&t, "fault-vs-clear-dirty-for-io", 0);
	WPSIM_ASSERT_RACE(&t);
	fault_vs_clear(&t, "fault-vs-clear-dirty-for-io (broken)",
		       M_BREAK_CLEAR_DIRTY_NO_MKCLEAN);
	t.expect = WPSIM_SOMETIMES;
	t.failure_contains = "mapped writable but clean";
	WPSIM_ASSERT_RACE(&t);
}

/* ---- Unmap-dirtying vs writeback ---------------------------------------- */

static void unmap(void *arg)
{
	(void)arg;
	m_munmap(F());
}

/* The store happened before the race: PTE writable + dirty, PG_dirty. */
static void dirty_mapped_setup(struct wpsim_race *r)
{
	struct km_folio *folio;

	(void)r;
	folio = m_folio_lookup(&m_world()->inodes[0]->i_data, 0);
	folio->pte.value = M_PTE_PRESENT | M_PTE_WRITE | M_PTE_DIRTY;
	m_folio_fill(folio, 0, 1, 11);
	km_folio_mark_dirty(folio);
}

static void explore_unmap(struct wpsim_race *t, const char *name,
			  unsigned int breaks, struct sim_explore_result *res)
{
	wpsim_race_init(t, name);
	t->world.files[0].size = PAGE_SIZE;
	t->world.files[0].mapped_first = 0;
	t->world.files[0].mapped_last = 0;
	t->world.breaks = breaks;
	t->setup = dirty_mapped_setup;
	wpsim_race_task(t, "P0", unmap, NULL);
	wpsim_race_task(t, "P1", flush_none, NULL);
	cr_assert_eq(wpsim_race_explore(t, res), 0);
}

/*
 * Unmap-dirtying vs writeback.  The store happened before the race: the
 * PTE is writable + dirty, PG_dirty set.
 *
 *   P0 (munmap: zap, PTE lock only)    P1 (writeback, SYNC_NONE)
 *                                      1. lock folio, clear_dirty_for_io:
 *                                         mkclean cleans the dirty PTE and
 *                                         moves its dirt to PG_dirty,
 *                                         then clears PG_dirty
 *   2. zap: the PTE is clean now:
 *      nothing to transfer
 *                                      3. start_writeback: PG_dirty clear,
 *                                         so the DIRTY mark goes
 * Or zap first: the dirty PTE dirties the folio (already dirty), then
 * writeback writes it.
 * Must hold: no data lost, DIRTY mark <=> PG_dirty.
 * Bug (M_BREAK_CLEAR_DIRTY_NO_MKCLEAN | M_BREAK_TAG_BEFORE_DIRTY_TEST):
 * mkclean is skipped, the zap redirties the folio between
 * clear_dirty_for_io and start_writeback (no folio lock!), and
 * start_writeback drops the DIRTY mark although PG_dirty is set: the
 * folio is dirty but invisible to tag-driven writeback ("without the
 * DIRTY mark").  With the correct folio_mkclean the window is closed:
 * the test also shows the second break alone is unreachable.
 * Kernel: mm/memory.c zap_present_folio_ptes, mm/page-writeback.c
 * folio_clear_dirty_for_io, __folio_start_writeback, v6.18.
 */
Test(race, unmap_dirtying_vs_writeback__dirty_mark_kept)
{
	static struct wpsim_race t;
	struct sim_explore_result res;

	explore_unmap(&t, "unmap-vs-writeback", 0, &res);
	cr_assert_eq(res.failures, 0, "%s", res.first.outcome.message);
	cr_assert(res.complete);
	sim_explore_result_fini(&res);

	/* The tag bug alone cannot happen: mkclean closes the window. */
	explore_unmap(&t, "unmap-vs-writeback (tag bug only)",
		      M_BREAK_TAG_BEFORE_DIRTY_TEST, &res);
	cr_assert_eq(res.failures, 0, "%s", res.first.outcome.message);
	sim_explore_result_fini(&res);

	explore_unmap(&t, "unmap-vs-writeback (broken)",
		      M_BREAK_TAG_BEFORE_DIRTY_TEST |
		      M_BREAK_CLEAR_DIRTY_NO_MKCLEAN, &res);
	cr_assert_eq(res.failures, 1, "the broken model was not caught");
	cr_assert(strstr(res.first.outcome.message, "without the DIRTY mark"),
		  "%s", res.first.outcome.message);
	sim_explore_result_fini(&res);
}

/* ---- fsync and -EIO, once per file description -------------------------- */

static struct km_file *fd1;
static int fd1_eio;

static void fsync_writer(void *arg)
{
	(void)arg;
	SIM_ASSERT_EQ(m_pwritev2(F(), 0, 4096, 0, 5, 0), 4096);
	SIM_ASSERT_EQ(km_xfs_file_fsync(F(), 0, INT64_MAX, 0), -KM_EIO);
}

static void fsync_other(void *arg)
{
	int err;

	(void)arg;
	for (int i = 0; i < 2; i++) {
		err = km_file_check_and_advance_wb_err(fd1);
		SIM_ASSERT(err == 0 || err == -KM_EIO);
		fd1_eio += err == -KM_EIO;
	}
}

static void fsync_final(struct wpsim_race *r)
{
	(void)r;
	fd1_eio += km_file_check_and_advance_wb_err(fd1) == -KM_EIO;
	SIM_ASSERT_EQ(fd1_eio, 1);
	SIM_ASSERT_EQ(km_file_check_and_advance_wb_err(F()), 0);
}

static void fsync_setup(struct wpsim_race *r)
{
	(void)r;
	fd1 = m_file_open(m_world()->inodes[0], 0);
	fd1_eio = 0;
}

static void fsync_config(struct wpsim_race *t, const char *name,
			 unsigned int breaks)
{
	wpsim_race_init(t, name);
	t->skip_lost_data_check = true;
	t->world.files[0].size = PAGE_SIZE;
	t->world.fail_range = true;
	t->world.fail_sector_first = 0;
	t->world.fail_sector_last = SECTORS_PER_PAGE - 1;
	t->world.breaks = breaks;
	t->setup = fsync_setup;
}

/*
 * fsync reports an injected -EIO once per file description.  The device
 * fails every write to the file's first page; fd1 is a second open of
 * the file, made at setup.
 *
 *   P0 (fd0)                           P1 (fd1)
 *   1. pwrite 4 KiB at 0
 *   2. fsync: the bio fails, the error
 *      goes into the mapping's errseq;
 *      fsync returns -EIO
 *                                      3. check_and_advance fd1: -EIO
 *                                      4. check_and_advance fd1: 0
 * P1's two checks may come at any point (a check before step 2 returns
 * 0); the final check reads fd1 once more, and fd0 again.
 * Must hold: fd0's fsync returns -EIO; fd1 sees the error exactly once
 * (in P1 or in the final check), and fd0 a second time not at all.
 * Bug (break=errseq_no_advance, run: check_and_advance leaves the
 * description's sample, so fd1 reports the error twice and fd0 again;
 * M_BREAK_ERRSEQ_NO_SEEN is run by
 * errseq/second_error_after_seen_is_reported_again below): one file
 * description sees the error twice, or never.
 * Kernel: lib/errseq.c, mm/filemap.c file_check_and_advance_wb_err,
 * v6.18.
 */
Test(race, fsync_vs_fsync__eio_once_per_file_description)
{
	static struct wpsim_race t;
	struct sim_explore_result res;

	fsync_config(&t, "fsync-eio-once", 0);
	wpsim_race_task(&t, "P0", fsync_writer, NULL);
	wpsim_race_task(&t, "P1", fsync_other, NULL);
	t.final = fsync_final;
	cr_assert_eq(wpsim_race_explore(&t, &res), 0);
	cr_assert_eq(res.failures, 0, "%s", res.first.outcome.message);
	cr_assert(res.complete);
	cr_log_info("fsync-eio-once: %llu executions, complete",
		    (unsigned long long)res.executions);
	sim_explore_result_fini(&res);

	/* The sample not advanced: the checks must catch it. */
	fsync_config(&t, "fsync-eio-once (errseq_no_advance)",
		     M_BREAK_ERRSEQ_NO_ADVANCE);
	wpsim_race_task(&t, "P0", fsync_writer, NULL);
	wpsim_race_task(&t, "P1", fsync_other, NULL);
	t.final = fsync_final;
	cr_assert_eq(wpsim_race_explore(&t, &res), 0);
	cr_assert_eq(res.failures, 1, "the broken model was not caught");
	sim_explore_result_fini(&res);
}

/* ---- A NOWAIT read vs a read that brings the page in -------------------- */

static void read_plain(void *arg)
{
	static uint32_t out[SECTORS_PER_PAGE];
	bool fails = wpsim_race_current()->world.fail_range;

	(void)arg;
	SIM_ASSERT_EQ(m_pread(F(), 0, 4096, out), fails ? -KM_EIO : 4096);
	if (!fails)
		SIM_ASSERT_EQ(out[0], 1000);
}

static void read_nowait(void *arg)
{
	static uint32_t out[SECTORS_PER_PAGE];
	long r;

	(void)arg;
	memset(out, 0xff, sizeof(out));
	r = m_preadv2(F(), 0, 4096, RWF_NOWAIT, out);
	wpsim_reg_set(0, r);
	if (r == -KM_EAGAIN)
		return;
	SIM_ASSERT_EQ(r, 4096);
	for (unsigned int s = 0; s < SECTORS_PER_PAGE; s++)
		SIM_ASSERT_EQ(out[s], 1000);
}

static bool nowait_got_eagain(struct wpsim_race *t)
{
	(void)t;
	return wpsim_reg(1, 0) == -KM_EAGAIN;
}

/*
 * A NOWAIT read vs a read that brings the page in.
 *
 *   P0 (pread)                          P1 (preadv2 RWF_NOWAIT)
 *   1. no folio: create it locked,
 *      read_folio submits the bio
 *                                       2. the folio is there but not
 *                                          uptodate: trylock fails
 *                                          (P0 holds it for the read):
 *                                          -EAGAIN
 *   3. the bio completes: uptodate,
 *      unlock
 * Or P1 first (no folio: -EAGAIN), or after P0 (uptodate: read).
 * Must hold: P1 returns -EAGAIN or the disk's data (1000 in each
 * sector), never a folio that is not uptodate; both answers happen.
 * With the read's bio failing (-EIO) the folio stays cached, unlocked
 * and not uptodate: P1's trylock succeeds and the re-check under the
 * lock answers -EAGAIN (filemap_update_page: no read under NOWAIT), in
 * every interleaving.
 * Bug (break=nowait_read_no_recheck, run on the failed read: the
 * trylocked folio is not re-checked and P1 copies a folio that is not
 * uptodate): a NOWAIT read that copies a folio that is not uptodate (P1
 * sees other than 1000), or that starts a read itself.
 * Kernel: mm/filemap.c filemap_get_pages, filemap_update_page, v6.18.
 */
Test(race, nowait_read_vs_read__eagain_or_uptodate_data)
{
	static struct wpsim_race t;

	wpsim_race_init(&t, "nowait-read-vs-read");
	t.world.files[0].size = PAGE_SIZE;
	wpsim_race_task(&t, "P0", read_plain, NULL);
	wpsim_race_task(&t, "P1", read_nowait, NULL);
	t.property = nowait_got_eagain;
	t.property_text = "P1's NOWAIT read returned -EAGAIN";
	t.expect = WPSIM_SOMETIMES;
	t.exhaustive = true;
	WPSIM_ASSERT_RACE(&t);

	wpsim_race_init(&t, "nowait-read-vs-failed-read");
	t.world.files[0].size = PAGE_SIZE;
	t.world.fail_range = true;
	t.world.fail_sector_first = 0;
	t.world.fail_sector_last = SECTORS_PER_PAGE - 1;
	t.skip_lost_data_check = true;
	wpsim_race_task(&t, "P0", read_plain, NULL);
	wpsim_race_task(&t, "P1", read_nowait, NULL);
	t.property = nowait_got_eagain;
	t.property_text = "P1's NOWAIT read returned -EAGAIN";
	t.expect = WPSIM_ALWAYS;
	WPSIM_ASSERT_RACE(&t);

	/* No re-check under the lock: P1 copies the failed folio. */
	wpsim_race_init(&t, "nowait-read-vs-failed-read (no recheck)");
	t.world.files[0].size = PAGE_SIZE;
	t.world.fail_range = true;
	t.world.fail_sector_first = 0;
	t.world.fail_sector_last = SECTORS_PER_PAGE - 1;
	t.skip_lost_data_check = true;
	wpsim_race_variant(&t, "break=nowait_read_no_recheck");
	wpsim_race_task(&t, "P0", read_plain, NULL);
	wpsim_race_task(&t, "P1", read_nowait, NULL);
	t.expect = WPSIM_SOMETIMES;
	WPSIM_ASSERT_RACE(&t);
}

/*
 * A second error after the first was seen is reported again:
 *   P0: pwrite; fsync -> -EIO; fsync -> 0; pwrite; fsync -> -EIO
 * Bug (M_BREAK_ERRSEQ_NO_SEEN: errseq never records that an error was
 * seen): the second -EIO does not change the errseq value, and the last
 * fsync returns 0 — the application believes its data is safe.
 */
static void fsync_twice(void *arg)
{
	(void)arg;
	SIM_ASSERT_EQ(m_pwritev2(F(), 0, 4096, 0, 5, 0), 4096);
	SIM_ASSERT_EQ(km_xfs_file_fsync(F(), 0, INT64_MAX, 0), -KM_EIO);
	SIM_ASSERT_EQ(km_xfs_file_fsync(F(), 0, INT64_MAX, 0), 0);
	SIM_ASSERT_EQ(m_pwritev2(F(), 0, 4096, 0, 6, 0), 4096);
	SIM_ASSERT_EQ(km_xfs_file_fsync(F(), 0, INT64_MAX, 0), -KM_EIO);
}

Test(errseq, second_error_after_seen_is_reported_again)
{
	static struct wpsim_race t;
	struct sim_explore_result res;

	for (int broken = 0; broken < 2; broken++) {
		fsync_config(&t, "fsync-second-error",
			     broken ? M_BREAK_ERRSEQ_NO_SEEN : 0);
		wpsim_race_task(&t, "P0", fsync_twice, NULL);
		cr_assert_eq(wpsim_race_explore(&t, &res), 0);
		if (broken) {
			cr_assert_eq(res.failures, 1, "broken errseq not caught");
			cr_assert(strstr(res.first.outcome.message, "(0 vs -5)"),
				  "%s", res.first.outcome.message);
		} else {
			cr_assert_eq(res.failures, 0, "%s",
				     res.first.outcome.message);
			cr_assert(res.complete);
		}
		sim_explore_result_fini(&res);
	}
}

/* ---- XFS zeroing vs a store and its writeback, stable writes ----------- */

static void grow_to_16k(void *arg)
{
	(void)arg;
	SIM_ASSERT_EQ(m_syscall(M_SYS_FTRUNCATE, &(struct m_sys_args){
		.file = F(), .pos = 16384 }), 0);
}

static void store_page1_then_flush(void *arg)
{
	(void)arg;
	SIM_ASSERT_EQ(m_mmap_store(F(), 4096, 512, 7), 0);
	m_writeback_inode(m_world()->inodes[0], WB_SYNC_NONE);
}

/*
 * XFS truncate up vs a store into the EOF page and its writeback, on a
 * mapping with AS_STABLE_WRITES.  The file is 6 KiB, both blocks
 * written, nothing cached.
 *
 *   P0 (ftruncate 16 KiB)           P1 (store at 4096, writeback)
 *   1. xfs_zero_range from 6144:
 *      page 1 is not cached
 *                                   2. the fault reads page 1 and
 *                                      dirties it; the store
 *                                   3. writeback of page 1 starts,
 *                                      the folio is unlocked
 *   4. iomap_write_begin's lookup
 *      finds P1's folio: FGP_STABLE
 *      waits for the writeback,
 *      then zeroes 6144..8191
 * Must hold: no folio changes under writeback on a stable-writes mapping
 * (the model's check_stable_pages), whichever way the lookup found it.
 * The model has no MMAPLOCK (docs/model/fidelity.md): v6.18's
 * xfs_setattr_size holds XFS_MMAPLOCK_EXCL, which keeps the fault of
 * step 2 out until the zeroing is done, so there a folio that zeroing
 * creates is always new.  The model's zero_range_folios waits for
 * stable pages on a folio it did not find at first (seed 60731's #41:
 * without the wait, step 4 zeroes the folio under writeback).
 * The search is bounded at 2 preemptions (1.8 s of CPU; the window
 * needs 2); the unbounded search passes too (68 s of CPU, 2026-12-06).
 * Bug: none run (no break= switch removes the wait); seed 60731's #41
 * mutant (the wait deleted), applied by hand on 2026-12-06, fails it
 * with "stable pages ... changed under writeback".
 * Kernel: fs/iomap/buffered-io.c iomap_write_begin (FGP_WRITEBEGIN has
 * FGP_STABLE), mm/page-writeback.c folio_wait_stable, v6.18.
 */
Test(race, xfs_zero_range_vs_store_and_writeback__stable_pages_kept)
{
	static struct wpsim_race t;
	struct sim_explore_result res;

	wpsim_race_init(&t, "zero-range-vs-store-writeback-stable");
	t.world.files[0].size = 6144;
	t.world.files[0].layout = "WW";
	t.world.files[0].stable_writes = true;
	wpsim_race_task(&t, "P0", grow_to_16k, NULL);
	wpsim_race_task(&t, "P1", store_page1_then_flush, NULL);
	t.preemptions = 2;
	cr_assert_eq(wpsim_race_explore(&t, &res), 0);
	cr_assert_eq(res.failures, 0, "%s", res.first.outcome.message);
	cr_assert(res.complete);
	sim_explore_result_fini(&res);
}

/* ---- truncate's second pass, where folios are freed --------------------- */

static void truncate_to_0(void *arg)
{
	(void)arg;
	SIM_ASSERT_EQ(m_syscall(M_SYS_FTRUNCATE, &(struct m_sys_args){
		.file = F(), .pos = 0 }), 0);
}

/*
 * Truncate to 0 vs the writeback of the dirty page 0, in a world that
 * frees folios (a long run's: the last folio_put frees the folio).
 *
 *   P0 (writeback, SYNC_NONE)          P1 (ftruncate 0)
 *   1. folio 1 locked, writeback
 *      started, unlocked; the bio
 *      in flight
 *                                      2. pass 1 (find_lock_entries)
 *                                         skips the folio under
 *                                         writeback
 *                                      3. pass 2: folio_get,
 *                                         folio_lock, wait for the
 *                                         writeback
 *   4. end_io: writeback ends
 *                                      5. out of the cache (the cache's
 *                                         reference dropped);
 *                                         folio_unlock, then folio_put
 *                                         (0: freed)
 * Must hold: no interleaving fails an assertion; the folio is unlocked
 * while its remover still holds a reference.
 * Bug (seed 62417's #16, truncate.c:200 swapped: the put before the
 * unlock): at 5 the put frees the folio while P1 holds its lock, and the
 * unlock is a use after free (the model's folio_unlock asserts a
 * reference).  Only a world that frees folios sees it.
 * Kernel: mm/truncate.c truncate_inode_pages_range (the second pass:
 * folio_unlock, then folio_put of the batch), v6.18.
 */
Test(race, truncate_vs_writeback_long_run__unlock_before_put)
{
	static struct wpsim_race t;

	wpsim_race_init(&t, "truncate-vs-writeback-long-run");
	t.world.long_run = true;
	t.world.files[0].size = PAGE_SIZE;
	t.world.files[0].layout = "W";
	t.world.files[0].cached_first = 0;
	t.world.files[0].cached_last = 0;
	t.world.files[0].dirty_first = 0;
	t.world.files[0].dirty_last = 0;
	wpsim_race_task(&t, "P0", flush_none, NULL);
	wpsim_race_task(&t, "P1", truncate_to_0, NULL);
	t.expect = WPSIM_NEVER;
	WPSIM_ASSERT_RACE(&t);
}

/* ---- A short buffered write's delalloc release vs a store -------------- */

static bool st_release_seen;	/* this execution: P0 took the
				 * invalidate_lock (its delalloc release) */
static bool st_store_first;	/* ... and P1's store had returned then */
static uint64_t st_store_first_runs;

static void short_write(void *arg)
{
	(void)arg;
	/* 8 KiB over two holes, the copy stopping after 4096 bytes. */
	wpsim_reg_set(0, m_pwritev2(F(), 0, 8192, 0, 5, 4096));
}

static void store_page1(void *arg)
{
	(void)arg;
	wpsim_reg_set(0, m_mmap_store(F(), 4096, 512, 6));
	wpsim_reg_set(1, 1);
}

/* After every step: was P1's store done when P0 first took the
 * invalidate_lock for its release? */
static void release_observer(void *arg)
{
	(void)arg;
	if (!st_release_seen &&
	    m_rwsem_write_held(&F()->f_inode->i_data.invalidate_lock, 0)) {
		st_release_seen = true;
		st_store_first = wpsim_reg(1, 1) == 1;
	}
}

static void short_write_setup(struct wpsim_race *r)
{
	(void)r;
	st_release_seen = st_store_first = false;
	sim_check_register("release", release_observer, NULL, NULL);
}

/* The violation: the store was done before the release began, and page
 * 1 is left dirty over a hole (its data with no block reserved for it);
 * or a call's answer is not the kernel's. */
static bool dirty_over_a_hole(struct wpsim_race *r)
{
	struct km_inode *inode = F()->f_inode;
	struct km_folio *folio = m_folio_lookup(&inode->i_data, 1);

	(void)r;
	if (wpsim_reg(0, 0) != 4096 || wpsim_reg(1, 0) != 0)
		return true;
	if (!st_store_first)
		return false;
	st_store_first_runs++;
	return folio && m_folio_flag_peek(folio, PG_dirty) &&
	       m_extent_peek(inode, 1) == M_EXT_HOLE;
}

/*
 * A buffered write cut short on XFS and a store into the part it did
 * not write, the store done before the write's delalloc release:
 *   P0 (pwrite 8 KiB at 0 over two     P1 (store 512 bytes at 4096
 *       holes; the copy stops after         through the mapping)
 *       4096 bytes)
 *   1. xfs_buffered_write_iomap_begin
 *      reserves blocks 0-1 delalloc
 *      (IOMAP_F_NEW); page 0 written
 *                                      2. the fault: page 1 read
 *                                         (zeroes), page_mkwrite (block
 *                                         1 already delalloc: nothing
 *                                         to reserve), dirtied, stored
 *   3. the copy into page 1 faults:
 *      4096 written; ->iomap_end:
 *      iomap_write_delalloc_release of
 *      [4096, 8192): SEEK_DATA finds
 *      page 1, the scan keeps its dirty
 *      block, nothing is punched
 * (A store that starts after step 3 began waits for the release on
 * the MMAPLOCK, the invalidate_lock, in its page_mkwrite: the next
 * test judges every execution; this one judges those whose store
 * returned before step 3, the case the scan exists for.)
 * Must hold: the write returns 4096 and the store 0; when the store was
 * done before the release, page 1 is not left dirty over a hole; some
 * execution has the store first.
 * Bug: none run (seed 64153's #96, iomap_write_delalloc_release leaving
 * its loop at the first data found: [4096, 8192) punched whole under
 * page 1's dirty data).
 * Kernel: fs/xfs/xfs_iomap.c xfs_buffered_write_iomap_end,
 * fs/iomap/buffered-io.c iomap_write_delalloc_release,
 * iomap_write_delalloc_scan, v6.18.
 */
Test(race, short_write_vs_store__delalloc_kept_under_dirty_data)
{
	struct wpsim_race t;
	struct wpsim_race_result res;

	wpsim_race_init(&t, "short-write-vs-store");
	t.world.files[0].size = 8192;
	t.world.files[0].layout = "HH";
	t.setup = short_write_setup;
	wpsim_race_task(&t, "P0", short_write, NULL);
	wpsim_race_task(&t, "P1", store_page1, NULL);
	t.property = dirty_over_a_hole;
	t.property_text = "page 1 dirty over a hole after a store before "
			  "the release, or a call's answer";
	t.preemptions = -1;
	t.expect = WPSIM_NEVER;
	st_store_first_runs = 0;
	cr_assert_eq(wpsim_race_run(&t, stderr, &res), WPSIM_PASS, "%s",
		     res.message);
	cr_assert(res.complete, "the search did not cover its space");
	cr_assert_gt(st_store_first_runs, 0, "no execution had the store "
		     "before the release");
}

/* The violation in any execution: page 1 left dirty over a hole, or a
 * call's answer not the kernel's. */
static bool dirty_over_a_hole_any(struct wpsim_race *r)
{
	struct km_inode *inode = F()->f_inode;
	struct km_folio *folio = m_folio_lookup(&inode->i_data, 1);

	(void)r;
	if (wpsim_reg(0, 0) != 4096 || wpsim_reg(1, 0) != 0)
		return true;
	return folio && m_folio_flag_peek(folio, PG_dirty) &&
	       m_extent_peek(inode, 1) == M_EXT_HOLE;
}

static void short_write_vs_store_any(struct wpsim_race *t, const char *name)
{
	wpsim_race_init(t, name);
	t->world.files[0].size = 8192;
	t->world.files[0].layout = "HH";
	wpsim_race_task(t, "P0", short_write, NULL);
	wpsim_race_task(t, "P1", store_page1, NULL);
	t->property = dirty_over_a_hole_any;
	t->property_text = "page 1 dirty over a hole, or a call's answer";
	t->preemptions = -1;
}

/*
 * The same write and store, every execution judged: the store's fault
 * against the write's delalloc release, which holds the MMAPLOCK (the
 * mapping's invalidate_lock) exclusive.
 *   P0 (pwrite 8 KiB at 0 over two     P1 (store 512 bytes at 4096
 *       holes; the copy stops after         through the mapping)
 *       4096 bytes)
 *   1. blocks 0-1 reserved delalloc
 *      (IOMAP_F_NEW); page 0 written
 *   2. ->iomap_end: invalidate_lock
 *      exclusive; SEEK_DATA over
 *      [4096, 8192) finds no page 1
 *                                      3. the fault: filemap_fault
 *                                         creates and reads page 1 (or
 *                                         waits for the lock), then
 *                                         page_mkwrite's MMAPLOCK
 *                                         shared: waits for P0
 *   4. block 1 punched (a hole); the
 *      lock released
 *                                      5. page_mkwrite reserves block
 *                                         1 again (delalloc), dirties
 *                                         page 1, the store lands
 * Must hold: in no execution is page 1 left dirty over a hole; the write
 * returns 4096 and the store 0 (exhaustive, no preemption bound).
 * Bug (break=fault_no_mmaplock, the model before session 13: faults take
 * no invalidate_lock): step 3's page_mkwrite runs inside the release,
 * finds block 1 still delalloc (nothing to reserve) and dirties page 1
 * after the scan passed it; step 4 punches block 1 under the dirty
 * page: its data has no block.
 * Kernel: fs/xfs/xfs_file.c __xfs_write_fault (XFS_MMAPLOCK_SHARED
 * around iomap_page_mkwrite), fs/xfs/xfs_iomap.c
 * xfs_buffered_write_iomap_end (filemap_invalidate_lock), mm/filemap.c
 * filemap_fault (filemap_invalidate_lock_shared to create or read),
 * v6.18.
 */
Test(race, short_write_release_vs_fault__mmaplock_keeps_the_block)
{
	struct wpsim_race t;
	struct wpsim_race_result res;

	short_write_vs_store_any(&t, "short-write-release-vs-fault");
	t.expect = WPSIM_NEVER;
	cr_assert_eq(wpsim_race_run(&t, stderr, &res), WPSIM_PASS, "%s",
		     res.message);
	cr_assert(res.complete, "the search did not cover its space");
	cr_log_info("with the MMAPLOCK: %llu executions, %llu with the "
		    "violation", (unsigned long long)res.executions,
		    (unsigned long long)res.positive);

	short_write_vs_store_any(&t, "short-write-release-vs-fault (broken)");
	cr_assert_eq(wpsim_race_variant(&t, "break=fault_no_mmaplock"), 0);
	t.expect = WPSIM_SOMETIMES;
	t.exhaustive = true;	/* the whole count, for the record */
	cr_assert_eq(wpsim_race_run(&t, stderr, &res), WPSIM_PASS, "%s",
		     res.message);
	cr_assert(res.complete, "the search did not cover its space");
	cr_assert_gt(res.positive, 0, "the broken model never left page 1 "
		     "dirty over a hole");
	cr_log_info("break=fault_no_mmaplock: %llu executions, %llu with the "
		    "violation", (unsigned long long)res.executions,
		    (unsigned long long)res.positive);
}
