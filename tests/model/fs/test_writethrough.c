// SPDX-License-Identifier: MIT
/*
 * tests/model/fs/test_writethrough.c - buffered write-through
 * (RWF_WRITETHROUGH, seed 000 RFC v3): the error semantics as a table,
 * the repeating-folio deadlock, stable pages against a writer and a
 * write fault, RWF_NOSERIAL writers.  docs/algorithms/writethrough.md
 * explains what each one pins down.
 */
#include <limits.h>

#include <criterion/criterion.h>
#include <string.h>

#include "wpsim/harness.h"

static struct km_file *F(void)
{
	return m_world()->files[0];
}
#include "model/fs/iomap.h"
#include "model/linux/syscalls.h"

#define WT_ID		7u	/* the writethrough write's data id */
#define OLD_WRITTEN	1000u	/* file 0's content on disk at setup */

/* ---------------------------------------------------------------------
 * Error semantics (cover letter, change 1), one execution per row with
 * the default schedule: a 16 KiB writethrough write at 0 of a 16 KiB
 * file of 4 KiB folios, 4 KiB blocks (one bio per folio in the model).
 *
 * Dimensions: where the copy stops (fault_after; 0 = never), which bio
 * the device fails (0 = none), sync or AIO, RWF_DSYNC, and the layout
 * (all written: DSYNC is served by FUA; two unwritten blocks: allocated
 * at iomap_begin, converted at completion, DSYNC syncs after the I/O).
 *
 * The rule (the oracle below): only what was copied AND submitted counts.
 *  - copied = the bytes before the fault; one bio per copied folio;
 *  - a failing bio among them: the write returns -EIO; every copied
 *    sector is in the page cache (uptodate, clean: inconsistent with the
 *    disk), the failed bio's sectors keep their old disk content, the
 *    others have the new; wb_err = -EIO, so the next fsync returns -EIO
 *    once and the one after it 0 (errseq, per file description);
 *  - else the write returns the bytes copied (a short write when the copy
 *    stopped: case (a)), disk = cache for them, both fsyncs return 0.
 * Named cases: (a) 4 KiB copied, no error -> 4096; (b) all 16 KiB
 * copied, the second bio (after the first 4 KiB) fails -> -EIO.
 * A bug would look like: a short write that reports the error or a
 * count past the failure, a failed folio left dirty or dropped, an
 * fsync that misses the error or reports it twice.
 * Kernel: seed 000 RFC v3 cover letter items 1, 3, 4; 4/11, 6/11, 7/11.
 * ------------------------------------------------------------------- */
struct wt_case {
	const char *name;
	size_t fault_after;	/* 0: the copy never stops short */
	uint32_t fail_bio;	/* 0: no device error */
	bool aio, dsync, nowait;
	const char *layout;
	size_t len;		/* 0: 16 KiB */
};

static const struct wt_case *wt_row;
static struct {
	long submit, ret, fsync1, fsync2;
} wt_out;

static void wt_table_task(void *arg)
{
	const struct wt_case *c = wt_row;
	unsigned int rwf = RWF_WRITETHROUGH | (c->dsync ? RWF_DSYNC : 0) |
			   (c->nowait ? RWF_NOWAIT : 0);
	size_t len = c->len ? c->len : 4 * PAGE_SIZE;

	(void)arg;
	if (c->aio) {
		struct m_aio_req *req = sim_arena_alloc(sizeof(*req));

		wt_out.submit = m_aio_pwritev2(req, F(), 0, len, rwf, WT_ID,
					       c->fault_after);
		wt_out.ret = m_aio_wait(req);
	} else {
		wt_out.submit = 0;
		wt_out.ret = m_pwritev2(F(), 0, len, rwf, WT_ID,
					c->fault_after);
	}
	wt_out.fsync1 = km_xfs_file_fsync(F(), 0, LLONG_MAX, 0);
	wt_out.fsync2 = km_xfs_file_fsync(F(), 0, LLONG_MAX, 0);
}

#define ROW_EQ(what, got, want)						\
	do {								\
		long long g_ = (long long)(got), w_ = (long long)(want); \
		if (g_ != w_)						\
			sim_fail(SIM_FAIL_PROPERTY, "%s: %s is %lld, "	\
				 "expected %lld", wt_row->name, (what),	\
				 g_, w_);				\
	} while (0)

/* The oracle: what the cover letter's rule says about this row. */
static void wt_table_final(struct wpsim_race *r)
{
	const struct wt_case *c = wt_row;
	struct m_world *w = m_world();
	struct km_inode *inode = w->inodes[0];
	struct km_address_space *m = &inode->i_data;
	size_t len = c->len ? c->len : 4 * PAGE_SIZE;

	(void)r;
	/* NOWAIT: folio 1's partial block needs a read: -EAGAIN there. */
	size_t copied = c->nowait ? PAGE_SIZE :
			c->fault_after ? c->fault_after : len;
	uint32_t nbios = (uint32_t)(copied / PAGE_SIZE);
	bool failed = c->fail_bio && c->fail_bio <= nbios;
	long want = failed ? -KM_EIO : (long)copied;

	ROW_EQ("write result", wt_out.ret, want);
	if (c->aio)
		ROW_EQ("io_submit result", wt_out.submit, nbios ?
		       -KM_EIOCBQUEUED : want);
	ROW_EQ("first fsync", wt_out.fsync1, failed ? -KM_EIO : 0);
	ROW_EQ("second fsync", wt_out.fsync2, 0);
	ROW_EQ("wb_err errno", km_errseq_check(&m->wb_err, 0),
	       failed ? -KM_EIO : 0);
	for (pgoff_t p = 0; p < 4; p++) {
		uint64_t id = sim_word_peek(&m_xa_slot(m, p)->entry);
		struct km_folio *folio = id ? w->folios[id] : NULL;
		bool in_write = p < nbios;
		bool bio_failed = in_write && c->fail_bio == p + 1;
		char state = c->layout[p];
		uint32_t old = state == 'W' ? OLD_WRITTEN : 0;
		sector_t s0 = m_inode_sector(inode, (loff_t)(p * PAGE_SIZE));

		if (!in_write) {
			/* NOWAIT created folio 1 before it gave up. */
			if (!(c->nowait && p == 1))
				ROW_EQ("folio outside the copy cached",
				       !!folio, 0);
			ROW_EQ("disk outside the copy", m_dev_data(&w->dev, s0), old);
			continue;
		}
		ROW_EQ("folio cached", !!folio, 1);
		ROW_EQ("folio uptodate", m_folio_flag_peek(folio,
							   PG_uptodate), 1);
		ROW_EQ("folio dirty (v3: never)", m_folio_flag_peek(folio,
								     PG_dirty),
		       0);
		ROW_EQ("folio writeback", m_folio_flag_peek(folio,
							    PG_writeback), 0);
		for (size_t s = 0; s < SECTORS_PER_PAGE; s++) {
			ROW_EQ("cache sector", m_folio_sector(folio, s), WT_ID);
			ROW_EQ("disk sector", m_dev_data(&w->dev, s0 + s),
			       bio_failed ? old : WT_ID);
		}
		ROW_EQ("extent state", m_extent_peek(inode, (unsigned long)p),
		       bio_failed ? state : 'W');
	}
	ROW_EQ("nr_stable_writes", sim_word_peek(&m->nr_stable_writes), 0);
	ROW_EQ("AS_STABLE_WRITES left set",
	       (sim_word_peek(&m->flags) >> AS_STABLE_WRITES) & 1, 0);
}

static void wt_table_run(const struct wt_case *c)
{
	static struct wpsim_race t;

	wpsim_race_init(&t, "writethrough");
	t.world.files[0].size = 4 * PAGE_SIZE;
	t.world.files[0].layout = c->layout;
	t.world.files[0].nosec = true;
	t.world.fail_nth_bio = c->fail_bio;
	t.world.writethrough = M_WT_V3;
	wpsim_race_task(&t, "P0", wt_table_task, NULL);
	t.final = wt_table_final;
	/* A failed bio leaves clean folios the disk does not match. */
	t.skip_lost_data_check = true;
	wt_row = c;
	t.name = c->name;
	WPSIM_ASSERT_RUN_ONCE(&t);
}

Test(writethrough, case_a__short_copy_4k_returns_4096)
{
	static const struct wt_case c = { "(a) 4 KiB copied", 4096, 0, false,
					  false, false, "WWWW", 0 };

	wt_table_run(&c);
}

Test(writethrough, case_b__eio_after_first_4k_returns_error)
{
	static const struct wt_case c = { "(b) EIO after 4 KiB", 0, 2, false,
					  false, false, "WWWW", 0 };

	wt_table_run(&c);
}

Test(writethrough, nowait_bailout__short_write)
{
	/* 4 KiB + 512 bytes: the partial block of folio 1 needs a read,
	 * which NOWAIT refuses after folio 0 was queued. */
	static const struct wt_case c = { "NOWAIT bail-out", 0, 0, false,
					  false, true, "WWWW", 4096 + 512 };

	wt_table_run(&c);
}

Test(writethrough, error_table)
{
	static const size_t faults[] = { 4096, 8192, 0 };
	static const uint32_t fails[] = { 0, 1, 2, 4 };
	static const char *const layouts[] = { "WWWW", "WWUU" };
	static struct wt_case rows[3 * 4 * 2 * 2 * 2];
	static char names[3 * 4 * 2 * 2 * 2][80];
	unsigned int n = 0;

	for (unsigned int f = 0; f < 3; f++)
		for (unsigned int e = 0; e < 4; e++)
			for (unsigned int a = 0; a < 2; a++)
				for (unsigned int d = 0; d < 2; d++)
					for (unsigned int l = 0; l < 2; l++) {
		struct wt_case *c = &rows[n];

		snprintf(names[n], sizeof(names[n]), "copied %zu, bio %u "
			 "fails, %s%s, %s", faults[f] ? faults[f] : 16384,
			 fails[e], a ? "aio" : "sync", d ? "+dsync" : "",
			 layouts[l]);
		*c = (struct wt_case){ names[n], faults[f], fails[e], a, d,
				       false, layouts[l], 0 };
		wt_table_run(c);
		n++;
	}
	cr_log_info("error table: %u rows", n);
}

/* ---- The repeating-folio deadlock (11/11) ------------------------------- */

static void repeat_task(void *arg)
{
	(void)arg;
	SIM_ASSERT_EQ(m_pwritev2(F(), 0, 2 * PAGE_SIZE, RWF_WRITETHROUGH,
				 WT_ID, 6144), 6144);
}

static void repeat_final(struct wpsim_race *r)
{
	struct m_world *w = m_world();
	sector_t s0 = m_inode_sector(w->inodes[0], 0);

	(void)r;
	for (sector_t s = 0; s < 16; s++)
		SIM_ASSERT_EQ(m_dev_data(&w->dev, s0 + s), s < 12 ? WT_ID :
			      OLD_WRITTEN);
}

static void repeat_setup(struct wpsim_race *t, enum m_writethrough_variant v)
{
	wpsim_race_init(t, "writethrough");
	t->world.files[0].size = 2 * PAGE_SIZE;
	t->world.files[0].folio_order = 1;
	t->world.files[0].layout = "WW";
	t->world.writethrough = v;
	wpsim_race_task(t, "P0", repeat_task, NULL);
	t->final = repeat_final;
}

/*
 * The repeating-folio deadlock (11/11).  One 8 KiB folio, 4 KiB blocks,
 * both written on disk, nothing cached; the user buffer faults after
 * 6 KiB.  One task races with its own unsubmitted bio.
 *
 *   P0: pwritev2(0, 8K, RWF_WRITETHROUGH), copy stops at 6 KiB
 *   1. the 8 KiB copy is short into a folio that is not uptodate:
 *      write_end rejects it; chunk halves to 4 KiB; retry 4 KiB
 *   2. write_begin reads block 1; copy 4 KiB; the folio goes under
 *      writeback and into the write's bio, not yet submitted
 *   3. next round, pos 4 KiB: the same folio.  write_begin's FGP_STABLE
 *      waits for writeback of a bio only P0 can submit.
 * v3: P0 submits the bio first (11/11), the wait ends when it completes,
 * 2 KiB more are copied, the next round faults.
 * Must hold (v3): the write returns 6144; sectors 0-11 hold its data,
 * sectors 12-15 the old disk content.
 * Bug (writethrough=v3-nofix, M_WT_V3_NOFIX, and writethrough=v2,
 * M_WT_V2): P0 sleeps on folio1 forever at step 3: the engine reports a
 * deadlock in the one schedule there is.
 * Kernel: seed 000, RFC v3 11/11 (the repeating-folio fix; the deadlock
 * is also in RFC v2), kernel-fs.md §5.
 */
Test(race, writethrough_short_copy_vs_own_bio__repeating_folio)
{
	static struct wpsim_race t;

	repeat_setup(&t, M_WT_V3);
	t.name = "repeating-folio (v3)";
	WPSIM_ASSERT_RACE(&t);
	repeat_setup(&t, M_WT_V3_NOFIX);
	t.name = "repeating-folio (v3-nofix)";
	/* One schedule only, and it deadlocks. */
	t.expect = WPSIM_ALWAYS;
	t.failure_contains = "P0 sleeps on folio1";
	WPSIM_ASSERT_RACE(&t);
	repeat_setup(&t, M_WT_V2);
	t.name = "repeating-folio (v2)";
	/* One schedule only, and it deadlocks. */
	t.expect = WPSIM_ALWAYS;
	t.failure_contains = "P0 sleeps on folio1";
	WPSIM_ASSERT_RACE(&t);
}

/* ---- Stable pages ------------------------------------------------------- */

static void stable_wt_task(void *arg)
{
	(void)arg;
	SIM_ASSERT_EQ(m_pwritev2(F(), 0, PAGE_SIZE, RWF_WRITETHROUGH, WT_ID,
				 0), (long)PAGE_SIZE);
}

static void stable_writer_task(void *arg)
{
	(void)arg;
	SIM_ASSERT_EQ(m_pwritev2(F(), 0, 1024, 0, 8, 0), 1024);
}

static void stable_store_task(void *arg)
{
	(void)arg;
	SIM_ASSERT_EQ(m_mmap_store(F(), 0, 512, 9), 0);
}

static void stable_setup(struct wpsim_race *t, sim_task_fn other, bool mapped,
			 bool broken)
{
	wpsim_race_init(t, "writethrough");
	t->world.files[0].size = PAGE_SIZE;
	t->world.files[0].cached_first = 0;
	t->world.files[0].cached_last = 0;
	if (mapped) {
		t->world.files[0].mapped_first = 0;
		t->world.files[0].mapped_last = 0;
	}
	t->world.files[0].nosec = true;
	t->world.writethrough = M_WT_V3;
	if (broken)
		t->world.breaks |= M_BREAK_WRITETHROUGH_STABLE_END_EARLY;
	wpsim_race_task(t, "P0", stable_wt_task, NULL);
	wpsim_race_task(t, "P1", other, NULL);
}

/*
 * Stable pages against a buffered writer.  Page 0 cached (1000 on
 * disk), S_NOSEC, writethrough=v3.
 *
 *   P0: writethrough 4 KiB at 0         P1: buffered write 1 KiB at 0
 *   1. stable-writes count 1 (flag set)
 *   2. copy, PG_writeback, queue the bio
 *   3. submit; drop i_rwsem (shared)
 *                                       4. i_rwsem exclusive; write_begin:
 *                                          FGP_STABLE sees the flag and
 *                                          waits for PG_writeback
 *   5. completion: DMA reads the folio, the bit clears, the count drops
 *                                       6. copy 1 KiB, dirty the folio
 * Must hold: the folio's sectors never change between 2 and 5
 * (writethrough invariant 1), at every step.
 * Bug (break=writethrough_stable_end_early: the count drops at
 * submission): step 4 does not wait, P1 copies into the folio under I/O
 * ("stable pages").
 * Kernel: seed 000 RFC v3 1/11 (the stable-writes counter), on v6.18's
 * mm/filemap.c __filemap_get_folio (FGP_STABLE, folio_wait_stable).
 */
Test(race, writethrough_vs_buffered_write__folio_stable_under_io)
{
	static struct wpsim_race t;

	stable_setup(&t, stable_writer_task, false, false);
	t.name = "writethrough-vs-write";
	WPSIM_ASSERT_RACE(&t);
	stable_setup(&t, stable_writer_task, false, true);
	t.name = "writethrough-vs-write (broken)";
	t.expect = WPSIM_SOMETIMES;
	t.failure_contains = "stable pages";
	WPSIM_ASSERT_RACE(&t);
}

/*
 * Stable pages against a write fault: as above, but page 0 is also
 * mapped shared and P1 stores through the mapping.
 *
 *   P0: writethrough 4 KiB at 0         P1: store 512 bytes at 0
 *   1. stable-writes count 1 (flag set)
 *   2. copy; folio_mkclean write-
 *      protects the PTE; PG_writeback;
 *      queue the bio
 *   3. submit; drop i_rwsem (shared)
 *                                       4. the store faults (the PTE is
 *                                          read-only): page_mkwrite locks
 *                                          and dirties the folio, waits
 *                                          in folio_wait_stable
 *   5. completion: DMA reads the folio, the bit clears, the count drops
 *                                       6. the wait ends; the store lands
 * Must hold: the folio's sectors never change between 2 and 5
 * (writethrough invariant 1), at every step.
 * Bug (break=writethrough_stable_end_early: the count drops at
 * submission): page_mkwrite does not wait at step 4, the store changes
 * the folio under I/O ("stable pages").
 * Kernel: seed 000 RFC v3 1/11 (the counter), 2/11 (PTEs cleaned), on
 * v6.18's fs/iomap/buffered-io.c iomap_page_mkwrite (folio_wait_stable).
 */
Test(race, writethrough_vs_write_fault__folio_stable_under_io)
{
	static struct wpsim_race t;

	stable_setup(&t, stable_store_task, true, false);
	t.name = "writethrough-vs-fault";
	WPSIM_ASSERT_RACE(&t);
	stable_setup(&t, stable_store_task, true, true);
	t.name = "writethrough-vs-fault (broken)";
	t.expect = WPSIM_SOMETIMES;
	t.failure_contains = "stable pages";
	WPSIM_ASSERT_RACE(&t);
}

/* ---- RWF_NOSERIAL: two writethrough writers of the same range ----------- */

static void overlap_task(void *arg)
{
	(void)arg;
	SIM_ASSERT_EQ(m_pwritev2(F(), 0, 2 * PAGE_SIZE, RWF_WRITETHROUGH,
				 sim_task_current() == 0 ? 7 : 8, 0),
		      (long)(2 * PAGE_SIZE));
}

static void overlap_final(struct wpsim_race *r)
{
	struct m_world *w = m_world();
	sector_t s0 = m_inode_sector(w->inodes[0], 0);

	(void)r;
	if (m_dev_data(&w->dev, s0) != m_dev_data(&w->dev, s0 + SECTORS_PER_PAGE))
		sim_fail(SIM_FAIL_PROPERTY, "mixed writers: page 0 has %u, "
			 "page 1 has %u", m_dev_data(&w->dev, s0),
			 m_dev_data(&w->dev, s0 + SECTORS_PER_PAGE));
}

static void overlap_setup(struct wpsim_race *t, enum m_writethrough_variant v)
{
	wpsim_race_init(t, "writethrough");
	t->world.files[0].size = 2 * PAGE_SIZE;
	t->world.files[0].cached_first = 0;
	t->world.files[0].cached_last = 1;
	t->world.files[0].nosec = true;
	t->world.writethrough = v;
	wpsim_race_task(t, "P0", overlap_task, NULL);
	wpsim_race_task(t, "P1", overlap_task, NULL);
	t->final = overlap_final;
}

/*
 * RWF_NOSERIAL: two writethrough writers of the same 8 KiB (two cached
 * written pages, S_NOSEC), data 7 and 8.
 *
 *   P0 (7)                               P1 (8)
 *   1. i_rwsem shared; folio 0: copy,
 *      PG_writeback, bio submitted
 *                                        2. i_rwsem shared; folio 0:
 *                                           waits for P0's I/O, copies 8
 *                                        3. folio 1: copies 8, submits
 *   4. folio 1: waits for P1's I/O,
 *      copies 7
 * Result: page 0 holds 8, page 1 holds 7: neither write came first.
 * Must hold: v2 (exclusive i_rwsem across the write): pages 0 and 1 hold
 * the same writer's data in every interleaving, explored exhaustively.
 * v3: the mix happens, and the search finds it ("mixed writers").
 * Bug (writethrough=v3, M_WT_V3): the mix is v3's announced semantic
 * change, the behaviour the check must see; random schedules with a
 * fixed seed find it (exhaustive v3 takes minutes, see the scenario
 * file).
 * Kernel: seed 000 RFC v3 change 2, 9/11.
 */
Test(race, writethrough_noserial_vs_noserial__writers_mix)
{
	static struct wpsim_race t;
	struct sim_explore_result r;

	overlap_setup(&t, M_WT_V2);
	t.name = "noserial-overlap (v2)";
	WPSIM_ASSERT_RACE(&t);
	overlap_setup(&t, M_WT_V3);
	{
		struct sim_program p;
		struct sim_explore_options opt = { .stop_on_failure = true };
		struct sim_strategy s;

		t.name = "noserial-overlap (v3)";
		wpsim_race_program(&t, &p);
		/* Random schedules, fixed seed: exhaustive v3 is ~10^6. */
		sim_strategy_random(&s, 8, 20000);
		sim_explore(&p, &s, &opt, &r);
		sim_strategy_fini(&s);
	}
	cr_assert_eq(r.failures, 1, "v3: no mix of the writers found");
	cr_assert(strstr(r.first.outcome.message, "mixed writers"), "%s",
		  r.first.outcome.message);
	cr_log_info("noserial-overlap (v3): mix found after %llu random "
		    "executions", (unsigned long long)r.executions + 1);
	sim_explore_result_fini(&r);
}

/* ---- Flags that do not mix ---------------------------------------------- */

static enum m_writethrough_variant flags_variant;

static void flags_task(void *arg)
{
	(void)arg;
	SIM_ASSERT_EQ(m_pwritev2(F(), 0, PAGE_SIZE, RWF_WRITETHROUGH |
				 RWF_DONTCACHE, WT_ID, 0), -KM_EINVAL);
	SIM_ASSERT_EQ(m_pwritev2(F(), 0, PAGE_SIZE, RWF_NOSERIAL, WT_ID, 0),
		      flags_variant == M_WT_V2 ? -KM_EOPNOTSUPP :
						 -KM_EINVAL);
	SIM_ASSERT_EQ(m_pwritev2(F(), 0, PAGE_SIZE, RWF_WRITETHROUGH |
				 RWF_NOSERIAL, WT_ID, 0),
		      flags_variant == M_WT_V2 ? -KM_EOPNOTSUPP :
						 -KM_EINVAL);
}

static void flags_final(struct wpsim_race *r)
{
	struct m_world *w = m_world();
	sector_t s0 = m_inode_sector(w->inodes[0], 0);

	(void)r;
	SIM_ASSERT_EQ(sim_word_peek(&w->inodes[0]->i_data.nrpages), 0);
	for (sector_t s = 0; s < 8; s++)
		SIM_ASSERT_EQ(m_dev_data(&w->dev, s0 + s), OLD_WRITTEN);
}

/*
 * Flags that do not mix (kiocb_set_rw_flags with seed 000's flags), in
 * v3 and in v2, one task:
 *
 *   P0
 *   1. pwritev2(RWF_WRITETHROUGH | RWF_DONTCACHE): -EINVAL (v1, kept
 *      since)
 *   2. pwritev2(RWF_NOSERIAL): -EINVAL in v3 (applied by writethrough
 *      itself), -EOPNOTSUPP in v2 (outside RWF_SUPPORTED)
 *   3. pwritev2(RWF_WRITETHROUGH | RWF_NOSERIAL): as 2
 * Must hold: each refused write returns before the page cache is
 * touched: no folio is created, the disk keeps its data.
 * Bug (break=writethrough_dontcache_mix, run in v3: the refusal of
 * RWF_WRITETHROUGH | RWF_DONTCACHE taken out, and step 1's check must
 * fail): a flag accepted, or refused only after a folio was created.
 * Kernel: include/linux/fs.h kiocb_set_rw_flags, v6.18, with seed 000's
 * flags (RFC v3; v2 for -EOPNOTSUPP).
 */
Test(race, writethrough_flags_that_do_not_mix)
{
	static const enum m_writethrough_variant v[] = { M_WT_V3, M_WT_V2 };
	static struct wpsim_race t;

	for (unsigned int i = 0; i < 2; i++) {
		wpsim_race_init(&t, "writethrough");
		t.name = v[i] == M_WT_V2 ? "flags (v2)" : "flags (v3)";
		t.world.files[0].size = PAGE_SIZE;
		t.world.files[0].layout = "W";
		t.world.writethrough = v[i];
		flags_variant = v[i];
		wpsim_race_task(&t, "P0", flags_task, NULL);
		t.final = flags_final;
		WPSIM_ASSERT_RACE(&t);
	}

	/* The refusal taken out: the checks must catch the write. */
	wpsim_race_init(&t, "writethrough");
	t.name = "flags (v3, writethrough_dontcache_mix)";
	t.world.files[0].size = PAGE_SIZE;
	t.world.files[0].layout = "W";
	t.world.writethrough = M_WT_V3;
	flags_variant = M_WT_V3;
	wpsim_race_variant(&t, "break=writethrough_dontcache_mix");
	wpsim_race_task(&t, "P0", flags_task, NULL);
	t.final = flags_final;
	t.expect = WPSIM_ALWAYS;	/* one task: every execution */
	t.failure_contains = "== -22";
	WPSIM_ASSERT_RACE(&t);
}

/* ---- An extending AIO write is waited for (v3, cover change 4) ---------- */

static struct {
	long inside_submit, inside_ret, ext_submit, ext_ret;
} ext_out;

static void ext_task(void *arg)
{
	struct m_aio_req *a = sim_arena_alloc(sizeof(*a));
	struct m_aio_req *b = sim_arena_alloc(sizeof(*b));

	(void)arg;
	ext_out.inside_submit = m_aio_pwritev2(a, F(), 0, PAGE_SIZE,
					       RWF_WRITETHROUGH, WT_ID, 0);
	ext_out.inside_ret = m_aio_wait(a);
	ext_out.ext_submit = m_aio_pwritev2(b, F(), 2 * PAGE_SIZE,
					    PAGE_SIZE,
					    RWF_WRITETHROUGH | RWF_DSYNC,
					    WT_ID, 0);
	ext_out.ext_ret = m_aio_wait(b);
}

/* i_size is 12 KiB and block 2 on disk holds one write's data whole:
 * that data. */
static uint32_t block2_whole(void)
{
	struct m_world *w = m_world();
	struct km_inode *inode = w->inodes[0];
	sector_t s2 = m_inode_sector(inode, 2 * PAGE_SIZE);
	uint32_t d = m_dev_data(&w->dev, s2);

	SIM_ASSERT_EQ(km_i_size_read(inode), 3 * PAGE_SIZE);
	for (sector_t s = 1; s < SECTORS_PER_PAGE; s++)
		SIM_ASSERT_EQ(m_dev_data(&w->dev, s2 + s), d);
	return d;
}

/* A v3 world of one S_NOSEC file of two written 4 KiB blocks. */
static void wt_v3_two_blocks(struct wpsim_race *t, const char *name)
{
	wpsim_race_init(t, "writethrough");
	t->world.files[0].size = 2 * PAGE_SIZE;
	t->world.files[0].layout = "WW";
	t->world.files[0].nosec = true;
	t->world.writethrough = M_WT_V3;
	t->name = name;
}

static void ext_final(struct wpsim_race *r)
{
	(void)r;
	/* -EIOCBQUEUED, or 4096 when its bio completed before io_submit
	 * dropped its reference (a schedule the search visits). */
	SIM_ASSERT(ext_out.inside_submit == -KM_EIOCBQUEUED ||
		   ext_out.inside_submit == (long)PAGE_SIZE);
	SIM_ASSERT_EQ(ext_out.inside_ret, (long)PAGE_SIZE);
	SIM_ASSERT_EQ(ext_out.ext_submit, (long)PAGE_SIZE);
	SIM_ASSERT_EQ(ext_out.ext_ret, (long)PAGE_SIZE);
	SIM_ASSERT_EQ(block2_whole(), WT_ID);
}

/*
 * An AIO writethrough write that extends i_size is waited for inside
 * io_submit, after the IOLOCK is dropped; one inside i_size is not.
 * One task, a file of two written 4 KiB blocks.
 *
 *   P0: io_submit(pwritev2(0, 4K, RWF_WRITETHROUGH))   inside i_size
 *   1. copy, bio submitted, io_submit returns -EIOCBQUEUED (or 4096
 *      when the bio completed before it returned); io_getevents: 4096
 *   P0: io_submit(pwritev2(8K, 4K, RWF_WRITETHROUGH|RWF_DSYNC))  extends
 *   2. IOLOCK exclusive (extending), i_size raised to 12 KiB in the
 *      write path, bio submitted, IOLOCK dropped
 *   3. the submitter waits for the bio (and the unwritten conversion),
 *      then generic_write_sync; io_submit returns 4096 itself
 * Must hold (v3), in every schedule: the first io_submit returns
 * -EIOCBQUEUED or 4096 and its event 4096; the second io_submit 4096 (a synchronous result, the
 * event carries it too); i_size 12 KiB; sectors of block 2 hold the
 * write's data.
 * Bug: none run (before session 17 the model's v3 returned -EIOCBQUEUED
 * for the extending write too, and its one-job row of seed 000 table 1
 * pipelined 32 appends: +831% against the seed's 133 = 133 MiB/s).
 * Kernel: seed 000, RFC v3 cover letter change 4 (inferred: the patch
 * bodies are not public); the kernel's shape, fs/ext4/file.c
 * ext4_dio_write_checks (IOMAP_DIO_FORCE_WAIT for an extending write)
 * and fs/iomap/direct-io.c __iomap_dio_rw, v6.18.
 */
Test(race, writethrough_aio_extending__waited_in_io_submit)
{
	static struct wpsim_race t;

	wt_v3_two_blocks(&t, "writethrough AIO extending");
	wpsim_race_task(&t, "P0", ext_task, NULL);
	t.final = ext_final;
	WPSIM_ASSERT_RACE(&t);
}

/* ---- Two appenders of one block: the second is demoted (v3) ------------ */

static long app_ret[2];

static void app_task(void *arg)
{
	int me = sim_task_current() == 0 ? 0 : 1;

	(void)arg;
	app_ret[me] = m_pwritev2(F(), 2 * PAGE_SIZE, PAGE_SIZE,
				 RWF_WRITETHROUGH | RWF_DSYNC, me ? 8 : 7, 0);
}

static void app_final(struct wpsim_race *r)
{
	uint32_t d;

	(void)r;
	SIM_ASSERT_EQ(app_ret[0], (long)PAGE_SIZE);
	SIM_ASSERT_EQ(app_ret[1], (long)PAGE_SIZE);
	d = block2_whole();
	SIM_ASSERT(d == 7 || d == 8);
}

/*
 * Seed 000 table 1's shape: two writethrough appenders of the same 4 KiB
 * at i_size (fio's file_append starts every job at the file's end), a
 * file of two written blocks, S_NOSEC, RWF_DSYNC, data 7 and 8.
 *
 *   P0 (7)                               P1 (8)
 *   1. IOLOCK shared, the checks: the
 *      write extends: drop, exclusive
 *                                        2. IOLOCK shared, extends too:
 *                                           drop, wait for exclusive
 *   3. i_size 12 KiB in the write path,
 *      bio submitted, IOLOCK dropped,
 *      waits for the I/O
 *                                        4. exclusive; the checks again:
 *                                           no longer extends: demoted
 *                                           to shared (wt_noserial_demote)
 *                                        5. folio 2: waits for P0's I/O
 *                                           (FGP_STABLE), copies 8, bio
 * Must hold (v3), in every interleaving: both writes return 4096; i_size
 * is 12 KiB; block 2 on disk is one writer's data, whole; the
 * writethrough checks (stable pages: nobody copies into a folio under
 * writethrough I/O) and the world's hold throughout.
 * Bug: none run (the demote is the session 18 change; what it changes is
 * who may take the IOLOCK meanwhile, which the end state does not show:
 * docs/seed-tables.md session 18 measures it).
 * Kernel: fs/xfs/xfs_file.c xfs_file_dio_write_aligned (the demote after
 * the write checks), v6.18; seed 000 RFC v3 9/11 and change 4 (inferred).
 */
Test(race, writethrough_two_appenders__second_demoted)
{
	static struct wpsim_race t;

	wt_v3_two_blocks(&t, "writethrough two appenders");
	wpsim_race_task(&t, "P0", app_task, NULL);
	wpsim_race_task(&t, "P1", app_task, NULL);
	t.final = app_final;
	WPSIM_ASSERT_RACE(&t);
}
