// SPDX-License-Identifier: MIT
/*
 * tests/model/mm/test_filemap.c - km___filemap_get_folio against the
 * v6.18 text (issue 17 item 6, docs/model/fidelity.md): where the
 * dropbehind clear sits against the FGP_STABLE wait, the lock state of a
 * new folio under FGP_FOR_MMAP, and the model's page bound.
 */
#include <criterion/criterion.h>
#include <limits.h>
#include <string.h>

#include "wpsim/harness.h"
#include "model/fs/iomap.h"
#include "model/linux/syscalls.h"
#include "model/observe.h"

static struct km_file *F(void)
{
	return m_world()->files[0];
}

static struct wpsim_race T;
static struct km_folio_or_err got;
static unsigned int lookup_flags;
static pgoff_t lookup_index;

static void lookup_task(void *arg)
{
	(void)arg;
	got = km___filemap_get_folio(&F()->f_inode->i_data, lookup_index,
				     lookup_flags);
	if (got.err)
		return;
	if (m_folio_flag_peek(got.folio, PG_locked))
		km_folio_unlock(got.folio);
	km_folio_put(got.folio);
}

/*
 * A lookup without FGP_DONTCACHE clears PG_dropbehind after the
 * FGP_STABLE wait, not before it.
 *   P0 (fsync): lock the dirty dropbehind folio, start writeback, unlock;
 *      the bio completes: folio_end_writeback -> folio_end_dropbehind
 *   P1: __filemap_get_folio(FGP_LOCK | FGP_STABLE): lock, wait for
 *      writeback (AS_STABLE_WRITES), then clear PG_dropbehind
 * Must hold (checked after every step): PG_dropbehind is never cleared
 * while PG_writeback is set.  P1 holds the folio lock from before its
 * wait to after the clear, so no writeback can start in between.  The
 * model before the fix cleared it before the wait, under writeback.
 * Kernel: mm/filemap.c __filemap_get_folio, v6.18.
 */
static bool dropbehind_before;

static void no_clear_under_writeback(void *arg)
{
	struct km_folio *folio = m_folio_lookup(&F()->f_inode->i_data, 0);
	bool now;

	(void)arg;
	if (!folio)
		return;
	now = m_folio_flag_peek(folio, PG_dropbehind);
	SIM_CHECK(!(dropbehind_before && !now &&
		    m_folio_flag_peek(folio, PG_writeback)),
		  "PG_dropbehind cleared under writeback");
	dropbehind_before = now;
}

static void stable_setup(struct wpsim_race *r)
{
	(void)r;
	dropbehind_before = true;
	sim_check_register("no-clear-under-writeback",
			   no_clear_under_writeback, NULL, NULL);
}

static void fsync_task(void *arg)
{
	(void)arg;
	km_filemap_fdatawrite_range(&F()->f_inode->i_data, 0, -1);
}

Test(filemap, stable_lookup_clears_dropbehind_after_the_wait)
{
	struct sim_explore_result r;

	wpsim_race_init(&T, "filemap");
	T.world.files[0].size = 4096;
	T.world.files[0].cached_first = 0;
	T.world.files[0].cached_last = 0;
	T.world.files[0].dirty_first = 0;
	T.world.files[0].dirty_last = 0;
	T.world.files[0].dropbehind_first = 0;
	T.world.files[0].dropbehind_last = 0;
	T.world.files[0].stable_writes = true;
	wpsim_race_task(&T, "P0", fsync_task, NULL);
	wpsim_race_task(&T, "P1", lookup_task, NULL);
	lookup_index = 0;
	lookup_flags = FGP_LOCK | FGP_STABLE;
	T.name = "stable-lookup";
	T.setup = stable_setup;
	cr_assert_eq(wpsim_race_explore(&T, &r), 0);
	cr_assert_eq(r.failures, 0, "%s", r.first.outcome.message);
	cr_assert(r.complete);
	sim_explore_result_fini(&r);
}

/*
 * The lock state of a new folio: FGP_FOR_MMAP returns it unlocked even
 * with FGP_LOCK (filemap_fault passes FGP_CREAT | FGP_FOR_MMAP and locks
 * it later); FGP_CREAT without FGP_LOCK or FGP_FOR_MMAP is a caller bug
 * the kernel WARNs about and returns the folio locked.  The model before
 * the fix unlocked a new folio exactly when FGP_LOCK was absent.
 * Kernel: mm/filemap.c __filemap_get_folio, v6.18.
 */
static bool new_locked;

static void new_folio_task(void *arg)
{
	(void)arg;
	got = km___filemap_get_folio(&F()->f_inode->i_data, 0, lookup_flags);
	SIM_ASSERT(!got.err && got.created);
	new_locked = m_folio_flag_peek(got.folio, PG_locked);
	if (new_locked)
		km_folio_unlock(got.folio);
	km_folio_put(got.folio);
}

static bool created_locked(unsigned int flags)
{
	wpsim_race_init(&T, "filemap");
	T.world.files[0].size = 4096;
	T.skip_lost_data_check = true;	/* the new folio is not uptodate */
	wpsim_race_task(&T, "P0", new_folio_task, NULL);
	lookup_flags = flags;
	T.name = "new-folio";
	WPSIM_ASSERT_RUN_ONCE(&T);
	return new_locked;
}

Test(filemap, new_folio_lock_state_follows_fgp_for_mmap)
{
	cr_expect(created_locked(FGP_LOCK | FGP_CREAT));
	cr_expect(!created_locked(FGP_CREAT | FGP_FOR_MMAP));
	cr_expect(!created_locked(FGP_LOCK | FGP_CREAT | FGP_FOR_MMAP));
	cr_expect(created_locked(FGP_CREAT));
}

/*
 * An index beyond the model's pages per file is a bound failure (the
 * kernel has no such limit, so no return value would be true); the model
 * before the fix returned -EFBIG.
 */
Test(filemap, index_beyond_the_model_bound__bound_failure)
{
	struct sim_outcome o;

	wpsim_race_init(&T, "beyond-bound");
	/* The run ends at the bound: no end-of-execution checks. */
	T.skip_quiescent_check = true;
	T.skip_lost_data_check = true;
	T.world.files[0].size = 4096;
	wpsim_race_task(&T, "P0", lookup_task, NULL);
	lookup_index = m_file_pages_max;
	lookup_flags = FGP_LOCK | FGP_CREAT;
	wpsim_race_replay(&T, "-", &o);
	cr_assert_eq(o.kind, SIM_FAIL_BOUND, "%s: %s",
		     sim_failure_kind_name(o.kind), o.message);
}

/*
 * writeback_iter takes the folios of a pass from a batch that one
 * filemap_get_folios_tag fills: a folio tagged DIRTY after that lookup
 * is not visited by a WB_SYNC_NONE pass, even when it is dirtied before
 * the pass writes a lower-index folio.  Two cached pages, page 0 dirty:
 *   P0 (flusher, WB_SYNC_NONE over the file): lookup [0, end]: {folio 0};
 *      lock folio 0, clear_dirty_for_io, start writeback, submit
 *   P1: write page 1 (dirty, DIRTY mark)
 * The kernel outcome looked for: P1 dirtied page 1 before P0 set
 * PG_writeback on folio 0, and the pass still did not write page 1 (it
 * is dirty at the end).  The model before the fix looked the next
 * tagged index up only when its walk got there, so a page dirtied before
 * folio 0's writeback was always found: that outcome was impossible.
 * Kernel: mm/page-writeback.c writeback_iter, writeback_get_folio;
 * mm/filemap.c filemap_get_folios_tag, v6.18.
 */
static bool dirty1_before_wb0, wb0_seen;
static uint64_t skipped_after_lookup;

static void order_check(void *arg)
{
	struct km_address_space *m = &F()->f_inode->i_data;
	struct km_folio *f0 = m_folio_lookup(m, 0), *f1 = m_folio_lookup(m, 1);

	(void)arg;
	if (wb0_seen || !f0 || !m_folio_flag_peek(f0, PG_writeback))
		return;
	wb0_seen = true;
	dirty1_before_wb0 = f1 && m_folio_flag_peek(f1, PG_dirty);
}

static void batch_setup(struct wpsim_race *r)
{
	(void)r;
	wb0_seen = dirty1_before_wb0 = false;
	sim_check_register("order", order_check, NULL, NULL);
}

static void flusher_task(void *arg)
{
	struct km_writeback_control wbc = {
		.sync_mode = WB_SYNC_NONE,
		.nr_to_write = 1L << 30,
		.range_start = 0,
		.range_end = -1,
	};

	(void)arg;
	km_filemap_fdatawrite_wbc(&F()->f_inode->i_data, &wbc);
}

static void writer1_task(void *arg)
{
	(void)arg;
	m_pwritev2(F(), 4096, 4096, 0, 5, 0);
}

static void batch_on_execution(void *ctx, const struct sim_outcome *o)
{
	struct km_folio *f1 = m_folio_lookup(&F()->f_inode->i_data, 1);

	(void)ctx;
	cr_expect_eq(o->kind, SIM_OK, "%s", o->message);
	if (dirty1_before_wb0 && f1 && m_folio_flag_peek(f1, PG_dirty))
		skipped_after_lookup++;
}

Test(filemap, sync_none_pass_skips_a_folio_tagged_after_its_lookup)
{
	struct sim_program p;
	struct sim_explore_options opt = { .on_execution =
					   batch_on_execution };
	struct sim_explore_result r;
	struct sim_strategy s;

	wpsim_race_init(&T, "writeback-batch");
	T.world.files[0].size = 2 * 4096;
	T.world.files[0].cached_first = 0;
	T.world.files[0].cached_last = 1;
	T.world.files[0].dirty_first = 0;
	T.world.files[0].dirty_last = 0;
	T.world.files[0].nosec = true;
	T.setup = batch_setup;
	wpsim_race_task(&T, "P0", flusher_task, NULL);
	wpsim_race_task(&T, "P1", writer1_task, NULL);
	skipped_after_lookup = 0;
	wpsim_race_program(&T, &p);
	cr_assert_eq(sim_strategy_dpor(&s), 0);
	/*
	 * The outcome is an order a check sees between two steps that
	 * commute (PG_dirty of folio 1 set before PG_writeback of folio 0,
	 * in xa_lock sections on different folios): the lock-aware
	 * reduction runs one order of such sections, so it is off here
	 * (docs/architecture.md, "What DPOR does not cover").
	 */
	sim_dpor_set_lock_aware(&s, false);
	sim_explore(&p, &s, &opt, &r);
	sim_strategy_fini(&s);
	cr_assert(r.complete);
	cr_expect_gt(skipped_after_lookup, 0);
	cr_log_info("writeback-batch: %llu executions, %llu skip a folio "
		    "tagged after the lookup", (unsigned long long)r.executions,
		    (unsigned long long)skipped_after_lookup);
	sim_explore_result_fini(&r);
}

/*
 * The index of marks of a long run (model/mm/filemap.c: a bitmap per tag
 * and a summary bit per 64-slot word, so that a tag walk finds the next
 * marked slot without reading every slot) answers as the slots do.  A
 * 1 200-page mapping (19 bitmap words: an exploration holds 4 096 shared
 * objects, three per page), DIRTY marks set and cleared
 * at pseudo-random indices clustered in runs; after each change the next
 * marked index from a pseudo-random start is compared with a scan of the
 * slots, and km_mapping_tagged with whether any slot is marked.  Not a
 * kernel function: the model's own bookkeeping for long runs, which a
 * wrong summary bit would make skip dirty folios in writeback.
 */
#define MARKS_PAGES	1200UL

static void marks_index_task(void *arg)
{
	struct km_address_space *m = &F()->f_inode->i_data;
	uint64_t rng = 0x9e3779b97f4a7c15ULL;
	pgoff_t base = 0;

	(void)arg;
	m_xa_marks_index(m);
	for (int op = 0; op < 600; op++) {
		pgoff_t i, from, want;
		bool set, any = false;

		rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
		if (op % 40 == 0)
			base = (pgoff_t)(rng >> 33) % MARKS_PAGES;
		i = (base + (pgoff_t)(rng >> 50) % 150) % MARKS_PAGES;
		set = ((rng >> 20) & 3) != 0;
		sim_spin_lock(&m->xa_lock);
		if (set)
			m_xa_set_mark(m, i, PAGECACHE_TAG_DIRTY);
		else
			m_xa_clear_mark(m, i, PAGECACHE_TAG_DIRTY);
		sim_spin_unlock(&m->xa_lock);
		from = (pgoff_t)(rng >> 37) % MARKS_PAGES;
		want = MARKS_PAGES;
		for (pgoff_t j = 0; j < MARKS_PAGES; j++) {
			bool marked = sim_word_peek(&m_xa_slot(m, j)->marks) &
				      (1u << PAGECACHE_TAG_DIRTY);

			any |= marked;
			if (marked && j >= from && want == MARKS_PAGES)
				want = j;
		}
		SIM_ASSERT_EQ(m_xa_next_marked(m, from, MARKS_PAGES - 1,
					       MARKS_PAGES,
					       PAGECACHE_TAG_DIRTY), want);
		SIM_ASSERT_EQ(km_mapping_tagged(m, PAGECACHE_TAG_DIRTY), any);
		/* From past the file (a walk's end + 1 that wrapped): none. */
		SIM_ASSERT_EQ(m_xa_marks_index_next(m, (pgoff_t)-1,
						    PAGECACHE_TAG_DIRTY),
			      MARKS_PAGES);
	}
}

Test(filemap, long_run_index_of_marks_agrees_with_the_slots)
{
	unsigned long saved = m_file_pages_max;
	struct sim_outcome o;

	m_file_pages_max = MARKS_PAGES;
	wpsim_race_init(&T, "marks-index");
	/* Marks without folios: no end-of-execution checks. */
	T.skip_quiescent_check = true;
	T.skip_lost_data_check = true;
	T.world.files[0].size = MARKS_PAGES * 4096;
	wpsim_race_task(&T, "P0", marks_index_task, NULL);
	wpsim_race_replay(&T, "-", &o);
	m_file_pages_max = saved;
	cr_assert_eq(o.kind, SIM_OK, "%s: %s", sim_failure_kind_name(o.kind),
		     o.message);
}

/*
 * Run @task once on a long run's world (a file of @pages pages, the
 * model's file bound set to it, @steps_max steps or the default when 0)
 * and assert it ended well.  For the tests of the long run's own data
 * structures (tables of words, marks, the block map): no folios or I/O,
 * so no end-of-execution checks.
 */
static void long_run_once(const char *name, unsigned long pages,
			  uint32_t steps_max, void (*task)(void *))
{
	unsigned long saved = m_file_pages_max;
	struct sim_outcome o;

	m_file_pages_max = pages;
	wpsim_race_init(&T, name);
	if (steps_max)
		T.steps_max = steps_max;
	T.world.long_run = true;
	T.skip_quiescent_check = true;
	T.skip_lost_data_check = true;
	T.world.files[0].size = pages * 4096;
	wpsim_race_task(&T, "P0", task, NULL);
	wpsim_race_replay(&T, "-", &o);
	m_file_pages_max = saved;
	cr_assert_eq(o.kind, SIM_OK, "%s: %s", sim_failure_kind_name(o.kind),
		     o.message);
}

/*
 * A long run's index of marks (model/lib/xarray.c, struct m_xa_markset:
 * 32-bit words in sorted chunks of at most M_XA_MCHUNK_MAX words and a
 * directory of their first words) over a 16 GiB file: DIRTY marks set at
 * scattered indices (a word each: the first chunk grows, then chunks
 * split in halves), then in a forward run (words filled, a chunk split
 * at its end), then cleared in a
 * pseudo-random order (chunks merged and freed).  After each change
 * the next marked index from a pseudo-random start and from just past
 * a marked one is what a sorted shadow array holds, and
 * km_mapping_tagged says whether any is.  Not a kernel function: the
 * model's bookkeeping for long runs (issue 28, session 18: memory per
 * mark that does not depend on how scattered the marks are), which a
 * lost index would make skip a dirty folio in writeback.
 */
#define CHUNK_PAGES	(1UL << 22)
#define CHUNK_MARKS	1400

static uint32_t chunk_shadow[CHUNK_MARKS];
static unsigned int chunk_shadow_n;

static unsigned int chunk_shadow_lower(uint32_t x)
{
	unsigned int lo = 0, hi = chunk_shadow_n;

	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		if (chunk_shadow[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void chunk_check(struct km_address_space *m, uint64_t rng)
{
	pgoff_t from = (pgoff_t)(rng >> 30) % CHUNK_PAGES;
	unsigned int at = chunk_shadow_lower((uint32_t)from);
	pgoff_t want = at < chunk_shadow_n ? chunk_shadow[at] : CHUNK_PAGES;

	SIM_ASSERT_EQ(m_xa_marks_index_next(m, from, PAGECACHE_TAG_DIRTY),
		      want);
	if (chunk_shadow_n) {
		unsigned int k = (unsigned int)(rng >> 11) % chunk_shadow_n;

		want = k + 1 < chunk_shadow_n ? chunk_shadow[k + 1] :
						CHUNK_PAGES;
		SIM_ASSERT_EQ(m_xa_marks_index_next(m, chunk_shadow[k],
						    PAGECACHE_TAG_DIRTY),
			      chunk_shadow[k]);
		SIM_ASSERT_EQ(m_xa_marks_index_next(m, chunk_shadow[k] + 1,
						    PAGECACHE_TAG_DIRTY),
			      want);
	}
	SIM_ASSERT_EQ(km_mapping_tagged(m, PAGECACHE_TAG_DIRTY),
		      chunk_shadow_n != 0);
}

static void chunk_mark(struct km_address_space *m, uint32_t x, bool set)
{
	unsigned int at = chunk_shadow_lower(x);
	bool there = at < chunk_shadow_n && chunk_shadow[at] == x;

	sim_spin_lock(&m->xa_lock);
	if (set)
		m_xa_set_mark(m, x, PAGECACHE_TAG_DIRTY);
	else
		m_xa_clear_mark(m, x, PAGECACHE_TAG_DIRTY);
	sim_spin_unlock(&m->xa_lock);
	if (set && !there) {
		memmove(&chunk_shadow[at + 1], &chunk_shadow[at],
			(chunk_shadow_n - at) * sizeof(*chunk_shadow));
		chunk_shadow[at] = x;
		chunk_shadow_n++;
	} else if (!set && there) {
		memmove(&chunk_shadow[at], &chunk_shadow[at + 1],
			(chunk_shadow_n - at - 1) * sizeof(*chunk_shadow));
		chunk_shadow_n--;
	}
}

static void marks_chunks_task(void *arg)
{
	struct km_address_space *m = &F()->f_inode->i_data;
	uint64_t rng = 0x853c49e6748fea9bULL;
	unsigned int most = 0;

	(void)arg;
	SIM_ASSERT(m->marks_indexed);
	chunk_shadow_n = 0;
	for (int op = 0; op < 3 * CHUNK_MARKS; op++) {
		uint32_t x;
		bool set;

		rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
		if (op < 900) {		/* scattered; a set again now and then */
			x = (uint32_t)((rng >> 33) % CHUNK_PAGES);
			set = true;
		} else if (op < CHUNK_MARKS) {	/* a forward run */
			x = (uint32_t)(CHUNK_PAGES / 2 + (unsigned long)op);
			set = true;
		} else if (chunk_shadow_n) {	/* cleared in any order */
			x = chunk_shadow[(rng >> 33) % chunk_shadow_n];
			set = ((rng >> 20) & 15) == 0;
		} else {
			x = (uint32_t)((rng >> 33) % CHUNK_PAGES);
			set = false;	/* clear of a clear index */
		}
		chunk_mark(m, x, set);
		chunk_check(m, rng);
		if (chunk_shadow_n > most)
			most = chunk_shadow_n;
	}
	/* Past M_XA_MCHUNK_MAX words many times over, and all cleared. */
	SIM_ASSERT(most > 6 * M_XA_MCHUNK_MAX);
	SIM_ASSERT_EQ(chunk_shadow_n, 0);
	SIM_ASSERT_EQ(m_xa_marks_index_next(m, 0, PAGECACHE_TAG_DIRTY),
		      CHUNK_PAGES);
}

Test(filemap, long_run_marks_index_chunks_split_and_merge)
{
	long_run_once("marks-chunks", CHUNK_PAGES, 1U << 17,
		      marks_chunks_task);
}

/*
 * A long run's slots (model/lib/xarray.c): a word per index with an
 * entry or a mark, made by the first store to the index and removed when
 * its entry and marks are all clear, every access through the mapping's
 * stand-in slot, loaded from the word and stored back by the write.
 * Marks set and cleared at pseudo-random indices of a 64-page mapping
 * (three tags, so a word stays while any is set); after each change
 * every slot reads what a shadow array holds, the table holds one word
 * per used index, and a block is present exactly when one of its slots
 * is used.  Not a kernel function: the model's memory for random writes
 * over a large file (issue 28), where a word not stored back would lose
 * a mark.
 */
#define LONE_PAGES	64UL

static void lone_slots_task(void *arg)
{
	struct km_address_space *m = &F()->f_inode->i_data;
	uint64_t rng = 0x2545f4914f6cdd1dULL;
	uint8_t shadow[LONE_PAGES] = { 0 };
	unsigned long most = 0;

	(void)arg;
	/* Three points an op: 800 fit the step bound (4096). */
	for (int op = 0; op < 800; op++) {
		unsigned long used = 0;
		pgoff_t i;
		int tag;
		bool set;

		rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
		i = (pgoff_t)(rng >> 40) % LONE_PAGES;
		tag = (int)((rng >> 20) % 3);
		/* A set one time in eight: a tag is set on an eighth of
		 * the slots, a slot used (any tag) on a third, so words
		 * keep coming and going. */
		set = ((rng >> 30) & 7) == 0;
		sim_spin_lock(&m->xa_lock);
		if (set)
			m_xa_set_mark(m, i, tag);
		else
			m_xa_clear_mark(m, i, tag);
		sim_spin_unlock(&m->xa_lock);
		if (set)
			shadow[i] |= (uint8_t)(1u << tag);
		else
			shadow[i] &= (uint8_t)~(1u << tag);
		for (pgoff_t j = 0; j < LONE_PAGES; j++) {
			SIM_ASSERT_EQ(sim_word_peek(&m_xa_slot(m, j)->marks),
				      shadow[j]);
			used += shadow[j] != 0;
		}
		for (unsigned long b = 0; b < LONE_PAGES / M_XA_BLOCK; b++) {
			bool any = false;

			for (unsigned long k = 0; k < M_XA_BLOCK; k++)
				any |= shadow[b * M_XA_BLOCK + k] != 0;
			SIM_ASSERT_EQ(m_xa_block_present(m, b), any);
		}
		SIM_ASSERT_EQ(m_xa_words_count(m), used);
		if (used > most)
			most = used;
	}
	/* Words came and went, many at once. */
	SIM_ASSERT(most > 10);
}

Test(filemap, long_run_words_follow_the_used_slots)
{
	long_run_once("xa-words", LONE_PAGES, 0, lone_slots_task);
}

/*
 * A long run's table of words (model/lib/xarray.c) stops a removal's
 * back-shift, and a lookup, probe_max past the hole or the home: no key
 * sits further than that from its home.  Indices 0..TABLE_RUN-1 sit at
 * their own numbers (one run, as a large file's pages do), and indices
 * far out hash into that run and sit displaced after it; a mark set on
 * each, then cleared in a pseudo-random order.  After each clear every
 * index with a mark is found and every other is not, and the table
 * counts them: a key the shortened back-shift left behind a hole, or
 * further than probe_max from its home, would be lost.  Not a kernel
 * function: the model's hash table (issue 29, fio-seq-write's
 * fadvise(DONTNEED) over a 10 GiB file removed pages in O(run)).
 * Since session 17 the home is a hash of the whole index (xw_home), so
 * the far indices are chosen to share one home cell in the table's
 * final size (512 cells for 300 words): a run of 100 displaced words.
 */
#define TABLE_RUN	200UL
#define TABLE_FAR	100UL
#define TABLE_KEYS	(TABLE_RUN + TABLE_FAR)
#define TABLE_PAGES	(1UL << 20)

static unsigned long table_far[TABLE_FAR];

/* model/lib/xarray.c xw_home, for a table of 2^@bits cells. */
static unsigned long table_home(unsigned long index, unsigned int bits)
{
	return (unsigned long)(((uint64_t)index * 0x9e3779b97f4a7c15ULL) >>
			       (64 - bits));
}

static unsigned long table_block(unsigned long k)
{
	if (!table_far[0])
		for (unsigned long i = 1000, n = 0; n < TABLE_FAR; i++)
			if (table_home(i, 9) == table_home(0, 9))
				table_far[n++] = i;
	return k < TABLE_RUN ? k : table_far[k - TABLE_RUN];
}

static void block_table_task(void *arg)
{
	struct km_address_space *m = &F()->f_inode->i_data;
	bool used[TABLE_KEYS];
	unsigned long order[TABLE_KEYS], left = TABLE_KEYS;
	uint64_t rng = 0x9e3779b97f4a7c15ULL;

	(void)arg;
	for (unsigned long k = 0; k < TABLE_KEYS; k++) {
		sim_spin_lock(&m->xa_lock);
		m_xa_set_mark(m, table_block(k), PAGECACHE_TAG_DIRTY);
		sim_spin_unlock(&m->xa_lock);
		used[k] = true;
		order[k] = k;
	}
	SIM_ASSERT_EQ(m_xa_words_count(m), TABLE_KEYS);
	/* The far indices share a home: most sit displaced. */
	SIM_ASSERT_EQ(m->i_words.mask, 511);
	SIM_ASSERT(m->i_words.probe_max >= 8);
	for (unsigned long k = TABLE_KEYS - 1; k > 0; k--) {
		unsigned long j, t;

		rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
		j = (unsigned long)(rng >> 33) % (k + 1);
		t = order[k];
		order[k] = order[j];
		order[j] = t;
	}
	for (unsigned long n = 0; n < TABLE_KEYS; n++) {
		unsigned long k = order[n];

		sim_spin_lock(&m->xa_lock);
		m_xa_clear_mark(m, table_block(k), PAGECACHE_TAG_DIRTY);
		sim_spin_unlock(&m->xa_lock);
		used[k] = false;
		left--;
		for (unsigned long q = 0; q < TABLE_KEYS; q++)
			SIM_ASSERT_EQ(sim_word_peek(&m_xa_slot(m,
					table_block(q))->marks) != 0, used[q]);
		SIM_ASSERT_EQ(m_xa_words_count(m), left);
	}
}

Test(filemap, long_run_word_table_removal_keeps_every_index)
{
	long_run_once("word-table", TABLE_PAGES, 0, block_table_task);
}

/*
 * A sequential writer whose oldest pages are reclaimed while it moves
 * on: a window of WINDOW_KEYS marked indices slides over WINDOW_SPAN
 * indices (mark the next, clear the oldest, but every seventh stays:
 * the pages reclaim did not take), about twice the table's size.  Every look-up walks at most probe_max cells, so probe_max must
 * stay that of a hashed table (tens), not the window's length: with a
 * home that kept each run of table-size indices in order (m_xa_home,
 * before session 17), the window's two runs overlapped into one
 * cluster and each step walked it (a writer at --mem 256m wrote 571 MiB
 * in 40 host seconds, then hardly moved; h17-rss).  This test's
 * probe_max was 928 with that home (4 with xw_home).  Not a kernel function.
 */
#define WINDOW_KEYS	1500UL
#define WINDOW_SPAN	8000UL

static void window_table_task(void *arg)
{
	struct km_address_space *m = &F()->f_inode->i_data;

	(void)arg;
	for (unsigned long i = 0; i < WINDOW_SPAN; i++) {
		sim_spin_lock(&m->xa_lock);
		m_xa_set_mark(m, i, PAGECACHE_TAG_DIRTY);
		if (i >= WINDOW_KEYS && (i - WINDOW_KEYS) % 7)
			m_xa_clear_mark(m, i - WINDOW_KEYS,
					PAGECACHE_TAG_DIRTY);
		sim_spin_unlock(&m->xa_lock);
	}
	SIM_ASSERT_EQ(m_xa_words_count(m), WINDOW_KEYS +
		      (WINDOW_SPAN - WINDOW_KEYS + 6) / 7);
	SIM_ASSERT_MSG(m->i_words.probe_max < 64, "probe_max %lu",
		       m->i_words.probe_max);
	for (unsigned long i = 0; i < WINDOW_SPAN; i++)
		SIM_ASSERT_EQ(sim_word_peek(&m_xa_slot(m, i)->marks) != 0,
			      i >= WINDOW_SPAN - WINDOW_KEYS || i % 7 == 0);
}

Test(filemap, long_run_word_table_sliding_window_stays_hashed)
{
	long_run_once("word-table-window", TABLE_PAGES, 1U << 17,
		      window_table_task);
}

/*
 * A long run's block map (model/fs/xfs/xfs_iomap.c) keeps a group of
 * M_EXT_GROUP blocks first sparse (a word per block written), then,
 * past EXTENT_SPARSE_MAX words, compact (a byte per block, read and
 * written through the map's stand-in word, which m_extent_write stores
 * back), and frees a group whose blocks all hold one state.  A 1024-
 * block file (two groups) under i_data_sem: 1200 writes of a state
 * (hole, unwritten, written, delalloc) at pseudo-random blocks, each
 * fourth op a read of another block; after every op every block peeks
 * what a shadow array holds and the read returns it.  Then group 0 is
 * compact (more than 32 of its blocks were written); writing all its
 * blocks written frees it (its fill is then written).  Not a kernel
 * function: the model's memory for random writes over a large file
 * (issue 28), where a byte not stored back would lose an allocation.
 */
#define MAP_BLOCKS	1024UL

static void compact_map_task(void *arg)
{
	static const char states[4] = { M_EXT_HOLE, M_EXT_UNWRITTEN,
					M_EXT_WRITTEN, M_EXT_DELALLOC };
	struct km_inode *inode = F()->f_inode;
	uint64_t rng = 0x6a09e667f3bcc909ULL;
	char shadow[MAP_BLOCKS];

	(void)arg;
	SIM_ASSERT_EQ(inode->nr_blocks, MAP_BLOCKS);
	for (unsigned long b = 0; b < MAP_BLOCKS; b++)
		shadow[b] = m_extent_peek(inode, b);
	km_down_write(&inode->i_data_sem);
	for (int op = 0; op < 1200; op++) {
		unsigned long b;

		rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
		b = (unsigned long)(rng >> 40) % MAP_BLOCKS;
		shadow[b] = states[(rng >> 20) & 3];
		m_extent_write(inode, b, shadow[b]);
		if (op % 4 == 3) {
			unsigned long r = (unsigned long)(rng >> 50) %
					  MAP_BLOCKS;

			SIM_ASSERT_EQ(m_extent_read(inode, r), shadow[r]);
		}
		for (unsigned long k = 0; k < MAP_BLOCKS; k++)
			SIM_ASSERT_EQ(m_extent_peek(inode, k), shadow[k]);
	}
	/* Compact (bit 1 of the table's pointer), not sparse (bit 0). */
	SIM_ASSERT_EQ((uintptr_t)m_extent_group(inode, 0) & 3, 2);
	for (unsigned long b = 0; b < M_EXT_GROUP; b++)
		m_extent_write(inode, b, M_EXT_WRITTEN);
	km_up_write(&inode->i_data_sem);
	SIM_ASSERT(m_extent_group(inode, 0) == NULL);
	SIM_ASSERT_EQ(m_extent_group_fill(inode, 0), M_EXT_WRITTEN);
	for (unsigned long b = 0; b < MAP_BLOCKS; b++)
		SIM_ASSERT_EQ(m_extent_peek(inode, b),
			      b < M_EXT_GROUP ? M_EXT_WRITTEN : shadow[b]);
}

Test(extent_map, long_run_compact_group_reads_what_was_written)
{
	long_run_once("compact-map", MAP_BLOCKS, 0, compact_map_task);
}

/*
 * A long run's leaves of its block map (model/fs/xfs/xfs_iomap.c, struct
 * m_extent_leaf): a leaf of 512 groups is sparse (the groups that
 * changed, in place order) while at most M_EXT_LEAF_SPARSE_MAX of them
 * changed, then dense; a sparse leaf whose groups are all back in their
 * layout's state is freed.  A 2 GiB file (two leaves): blocks of 400
 * groups of leaf 0 and of 20 of leaf 1 written in a pseudo-random order
 * (one block or forty of a group, so groups are sparse, compact, and
 * one state again), each written block read back and peeked against a
 * shadow list, and blocks nobody wrote still in the layout's state.
 * Then leaf 0 is dense and leaf 1 sparse; writing leaf 1's blocks back
 * to the layout's state frees it.  Not a kernel function: the model's
 * memory for writes scattered over a large file (issue 28, session 18:
 * a dense leaf, 4.6 KiB, was made for one block written in its GiB).
 */
#define LEAF_BLOCKS	(1UL << 19)
#define LEAF_WRITES	900

static void extent_leaves_task(void *arg)
{
	struct km_inode *inode = F()->f_inode;
	uint64_t rng = 0xbb67ae8584caa73bULL;
	static unsigned long written[LEAF_WRITES];
	static char state[LEAF_WRITES];
	char layout, other;
	unsigned int n = 0;

	(void)arg;
	SIM_ASSERT_EQ(inode->nr_blocks, LEAF_BLOCKS);
	layout = m_extent_peek(inode, 12345);
	other = layout == M_EXT_WRITTEN ? M_EXT_UNWRITTEN : M_EXT_WRITTEN;
	SIM_ASSERT(inode->extent_dir[0] == NULL);
	km_down_write(&inode->i_data_sem);
	for (int op = 0; op < LEAF_WRITES; op++) {
		unsigned long g, b;

		rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
		g = op % 16 == 15 ? M_EXT_LEAF + (rng >> 40) % 20 :
				    (rng >> 40) % 400;
		b = (g << M_EXT_GROUP_SHIFT) +
		    ((g % 3) ? (rng >> 20) % 40 : 7);
		m_extent_write(inode, b, other);
		written[n] = b;
		state[n++] = other;
		for (unsigned int i = 0; i < n; i += 1 + n / 64)
			SIM_ASSERT_EQ(m_extent_peek(inode, written[i]),
				      state[i]);
		SIM_ASSERT_EQ(m_extent_read(inode, b), other);
		b = (rng >> 8) % LEAF_BLOCKS;
		g = b >> M_EXT_GROUP_SHIFT;
		if ((g >= 400 && g < M_EXT_LEAF) || g >= M_EXT_LEAF + 20)
			SIM_ASSERT_EQ(m_extent_peek(inode, b), layout);
	}
	SIM_ASSERT_EQ(inode->extent_dir[0]->cap, M_EXT_LEAF);
	SIM_ASSERT(inode->extent_dir[1] != NULL);
	SIM_ASSERT(inode->extent_dir[1]->cap <= M_EXT_LEAF_SPARSE_MAX);
	SIM_ASSERT(inode->extent_dir[1]->n > 0);
	for (unsigned int i = 0; i < n; i++)
		if (written[i] >> M_EXT_GROUP_SHIFT >= M_EXT_LEAF)
			m_extent_write(inode, written[i], layout);
	km_up_write(&inode->i_data_sem);
	SIM_ASSERT(inode->extent_dir[1] == NULL);
	for (unsigned int i = 0; i < n; i++)
		SIM_ASSERT_EQ(m_extent_peek(inode, written[i]),
			      written[i] >> M_EXT_GROUP_SHIFT >= M_EXT_LEAF ?
			      layout : other);
}

Test(extent_map, long_run_leaves_sparse_then_dense_then_freed)
{
	long_run_once("extent-leaves", LEAF_BLOCKS, 1U << 17,
		      extent_leaves_task);
}

/*
 * __filemap_fdatawait_range waits for the folios of one batch lookup
 * (review F2.3).  Pages 0 and 1 are dirty; P0 is the flusher (one
 * WB_SYNC_NONE pass: writeback of folio 0, then of folio 1); P1 waits on
 * writeback over both pages.  In v6.18 the wait takes a batch of the
 * folios tagged WRITEBACK (filemap_get_folios_tag, which leaves the index
 * past the range when the batch is not full), waits for each, and looks
 * no further: a folio whose writeback starts after that lookup is not
 * waited for.  So P1 can return while folio 1 is under writeback that
 * started while P1 was waiting for folio 0.
 * Property: when P1's wait returns, folio 1 is tagged WRITEBACK (the
 * mark is what the lookups read: PG_writeback alone is set a step
 * before it).  Expect Sometimes.  The model before the fix looked for the next WRITEBACK mark
 * after each wait (the mark set meanwhile included) and returned only
 * when none was left in the range: Never.
 * Kernel: mm/filemap.c __filemap_fdatawait_range, filemap_get_folios_tag,
 * v6.18.
 */
static void fdatawait_task(void *arg)
{
	struct km_folio *f1;

	(void)arg;
	km___filemap_fdatawait_range(&F()->f_inode->i_data, 0,
				     2 * 4096 - 1);
	f1 = m_folio_lookup(&F()->f_inode->i_data, 1);
	wpsim_reg_set(0, m_folio_field(f1, M_FOLIO_FIELD_MARK,
				       PAGECACHE_TAG_WRITEBACK));
}

static bool returned_under_writeback(struct wpsim_race *race)
{
	(void)race;
	return wpsim_reg(1, 0) == 1;
}

Test(filemap, fdatawait_waits_for_one_batch_lookup)
{
	wpsim_race_init(&T, "fdatawait-batch");
	T.world.files[0].size = 2 * 4096;
	T.world.files[0].cached_first = 0;
	T.world.files[0].cached_last = 1;
	T.world.files[0].dirty_first = 0;
	T.world.files[0].dirty_last = 1;
	wpsim_race_task(&T, "P0", flusher_task, NULL);
	wpsim_race_task(&T, "P1", fdatawait_task, NULL);
	T.property = returned_under_writeback;
	T.property_text = "the wait returns with folio 1 tagged WRITEBACK";
	T.expect = WPSIM_SOMETIMES;
	WPSIM_ASSERT_RACE(&T);
}

/*
 * Large folios (issue 32; docs/model/filemap.md, "Large folios"): on a
 * mapping that allows them, a buffered write asks __filemap_get_folio for
 * a folio of its size (iomap_get_folio -> fgf_set_order), which makes it
 * smaller to fit the index's alignment and, after -EEXIST from a partly
 * cached range, one order at a time down to the minimum.  One task, one
 * execution: the orders at the end are the v6.18 choices.
 * Kernel: mm/filemap.c __filemap_get_folio; fs/iomap/buffered-io.c
 * iomap_write_iter, iomap_get_folio; include/linux/pagemap.h
 * fgf_set_order, v6.18.
 */
static loff_t large_pos[4];
static size_t large_len[4];
static unsigned int large_writes;
static bool large_sync;
static int large_order[64];	/* per index: the order of the folio
				 * starting there, -1 none, -2 inside one */
static uint64_t large_bios;

static void large_writer(void *arg)
{
	struct km_address_space *m = &F()->f_inode->i_data;

	(void)arg;
	for (unsigned int w = 0; w < large_writes; w++)
		SIM_ASSERT(m_pwritev2(F(), large_pos[w], large_len[w], 0,
				      10 + w, 0) == (long)large_len[w]);
	if (large_sync) {
		uint64_t before = sim_word_peek(&m_world()->dev.bios_submitted);

		SIM_ASSERT(km_filemap_write_and_wait_range(m, 0, INT64_MAX) == 0);
		large_bios = sim_word_peek(&m_world()->dev.bios_submitted) -
			     before;
	}
	for (pgoff_t i = 0; i < 64; i++) {
		struct km_folio *f = m_folio_by_id((uint32_t)sim_word_peek(
					&m_xa_slot(m, i)->entry));

		large_order[i] = !f ? -1 : f->index == i ? (int)f->order : -2;
	}
}

/* The queue's max_sectors_kb (0: the default, 4096 KiB). */
static unsigned int large_max_sectors_kb;

static void large_limits(struct wpsim_race *race)
{
	(void)race;
	SIM_ASSERT(m_blkdev_set_limits(&m_world()->dev, large_max_sectors_kb,
				       0, 0, 0) == 0);
}

static void large_run(bool allow, long cached_page)
{
	wpsim_race_init(&T, "large-folios");
	T.world.files[0].size = 0;
	T.world.files[0].large_folios = allow;
	if (large_max_sectors_kb)
		T.setup = large_limits;
	if (cached_page >= 0) {
		T.world.files[0].size = (cached_page + 1) * 4096;
		T.world.files[0].cached_first = cached_page;
		T.world.files[0].cached_last = cached_page;
	}
	wpsim_race_task(&T, "P0", large_writer, NULL);
	T.name = "large-folios";
	/* A sync write of 512 pages: writeback allocates the whole
	 * delalloc run, the ioends convert it (class G): more than the
	 * default 4096 steps. */
	T.steps_max = 65536;
	WPSIM_ASSERT_RUN_ONCE(&T);
}

Test(filemap, large_folio_order_follows_the_write_size_and_alignment)
{
	/* 64 KiB at 0: one order-4 folio. */
	large_writes = 1;
	large_sync = false;
	large_pos[0] = 0;
	large_len[0] = 64 << 10;
	large_run(true, -1);
	cr_expect_eq(large_order[0], 4);
	cr_expect_eq(large_order[15], -2);
	cr_expect_eq(large_order[16], -1);
	/* 64 KiB at 4 KiB: each round's folio as large as its index's
	 * alignment and the bytes left allow: 1:0, 2:1, 4:2, 8:3, 16:0. */
	large_pos[0] = 4096;
	large_run(true, -1);
	cr_expect_eq(large_order[1], 0);
	cr_expect_eq(large_order[2], 1);
	cr_expect_eq(large_order[4], 2);
	cr_expect_eq(large_order[8], 3);
	cr_expect_eq(large_order[16], 0);
	/* 256 KiB at 0: two folios of the model's largest order (32 blocks:
	 * order 5), where the kernel's maximum (MAX_PAGECACHE_ORDER) is 9. */
	large_pos[0] = 0;
	large_len[0] = 256 << 10;
	large_run(true, -1);
	cr_expect_eq(large_order[0], 5);
	cr_expect_eq(large_order[32], 5);
	/* Without large folios (every scenario): sixteen order-0 folios. */
	large_len[0] = 64 << 10;
	large_run(false, -1);
	for (int i = 0; i < 16; i++)
		cr_expect_eq(large_order[i], 0, "index %d", i);
}

Test(filemap, large_folio_falls_back_around_a_cached_page)
{
	/* Page 2 cached (order 0): 64 KiB at 0 tries orders 4, 3 and 2
	 * (-EEXIST: page 2 is inside) and makes an order-1 folio; page 3
	 * is index-aligned to order 0 only; then 4:2 and 8:3. */
	large_writes = 1;
	large_sync = false;
	large_pos[0] = 0;
	large_len[0] = 64 << 10;
	large_run(true, 2);
	cr_expect_eq(large_order[0], 1);
	cr_expect_eq(large_order[2], 0);
	cr_expect_eq(large_order[3], 0);
	cr_expect_eq(large_order[4], 2);
	cr_expect_eq(large_order[8], 3);
}

/*
 * ioend merging (docs/model/iomap-buffered-io.md, "ioend"): writeback
 * appends a folio that follows the open ioend in the file and on the
 * device to its bio, and opens another for one that does not.  Three
 * 32 KiB folios at 0..96 KiB and one at 192 KiB: two bios, where a
 * mapping without large folios writes one bio per folio (the same
 * writes into order-0 folios: 32 folios, 32 bios).  The data reaches the
 * disk either way (the end-of-execution lost-data check).
 * Kernel: fs/iomap/ioend.c iomap_add_to_ioend, iomap_can_add_to_ioend;
 * fs/iomap/buffered-io.c iomap_writepages, v6.18.
 */
Test(filemap, writeback_merges_contiguous_folios_into_one_bio)
{
	large_writes = 4;
	large_sync = true;
	large_pos[0] = 0;
	large_pos[1] = 32 << 10;
	large_pos[2] = 64 << 10;
	large_pos[3] = 192 << 10;
	large_len[0] = large_len[1] = large_len[2] = 32 << 10;
	large_len[3] = 32 << 10;
	large_run(true, -1);
	cr_expect_eq(large_order[0], 3);
	cr_expect_eq(large_order[8], 3);
	cr_expect_eq(large_order[16], 3);
	cr_expect_eq(large_order[48], 3);
	cr_expect_eq(large_bios, 2, "bios %llu", (unsigned long long)large_bios);
	large_run(false, -1);
	cr_expect_eq(large_bios, 32, "bios %llu", (unsigned long long)large_bios);
}

/*
 * A writeback bio as large as the model's bio allows: sixteen 128 KiB
 * folios (a 2 MiB write at 0 makes order-5 folios: 32 blocks, the
 * model's largest at 4 KiB blocks) merge into one bio of 16 folio ranges
 * (M_BIO_VECS_MAX), 4096 sectors, below the default max_sectors (8192,
 * BLK_DEF_MAX_SECTORS_CAP of v6.18), so it goes to the device unsplit:
 * 512 pages in one bio.  The device's check (pages written <= bios x the
 * pages one bio can carry: a piece of max_sectors, plus one for a start
 * inside a page) holds; seed 61205's mutant that took the smaller of
 * that and 16 bvecs x 16 pages (256) as the bound survived, since a
 * scenario's file (64 pages) makes no bio over 256 pages.  The file is
 * raised to 512 pages here.  (Until session 12 the cap was 1280 KiB and
 * this was a 1280 KiB write, one bio of max_sectors.)
 * Kernel: fs/iomap/ioend.c iomap_can_add_to_ioend (BIO_MAX_VECS: the
 * model's 16), block/blk-merge.c bio_split_rw_at, block/blk-settings.c
 * blk_validate_limits, v6.18.
 */
Test(filemap, writeback_bio_of_sixteen_large_folios_goes_unsplit)
{
	unsigned long saved = m_file_pages_max;

	m_file_pages_max = 512;
	large_writes = 1;
	large_sync = true;
	large_pos[0] = 0;
	large_len[0] = 2048 << 10;
	large_run(true, -1);
	m_file_pages_max = saved;
	cr_expect_eq(large_order[0], 5);
	cr_expect_eq(large_order[32], 5);
	cr_expect_eq(large_bios, 1, "bios %llu", (unsigned long long)large_bios);
	cr_expect_eq(m_world()->dev.bios_split, 0);
}

/*
 * A writeback bio split at a folio boundary (block/blk-merge.c): three
 * contiguous 32 KiB folios (order 3) merge into one bio of three bvecs,
 * 192 sectors; with max_sectors_kb = 32 the block layer splits off 64
 * sectors at a time, each cut at the end of a bvec.  bio_split hands the
 * whole first bvec to the split and advances the parent past it (the
 * next cut, the second).  Must hold: three device writes, every folio's
 * data on the disk (the end-of-execution lost-data check), writeback
 * ended on all three.  Seed 60731's mutant that stepped the bvec index
 * by two after a bvec used up survived: no quick test but the fidelity
 * corpus split a bio at a bvec boundary (the others cut inside one
 * large bvec, or a direct I/O buffer).
 * Kernel: block/bio.c bio_split, bio_advance; block/blk-merge.c
 * bio_split_rw_at; fs/iomap/ioend.c iomap_can_add_to_ioend, v6.18.
 */
Test(filemap, writeback_bio_split_at_a_folio_boundary)
{
	large_writes = 3;
	large_sync = true;
	large_pos[0] = 0;
	large_pos[1] = 32 << 10;
	large_pos[2] = 64 << 10;
	large_len[0] = large_len[1] = large_len[2] = 32 << 10;
	large_max_sectors_kb = 32;
	large_run(true, -1);
	large_max_sectors_kb = 0;
	cr_expect_eq(large_order[0], 3);
	cr_expect_eq(large_order[8], 3);
	cr_expect_eq(large_order[16], 3);
	/* One bio submitted, split twice: three at the device. */
	cr_expect_eq(large_bios, 3, "bios %llu", (unsigned long long)large_bios);
	cr_expect_eq(m_world()->dev.bios_split, 2);
	for (pgoff_t i = 0; i < 24; i += 8)
		cr_expect_eq(m_dev_data(&m_world()->dev,
					m_inode_sector(F()->f_inode,
						       (loff_t)i << PAGE_SHIFT)),
			     10 + i / 8, "page %lu", (unsigned long)i);
}

/*
 * filemap_release_folio asks the filesystem (->release_folio: XFS's is
 * iomap_release_folio) to free a folio's private data before the folio
 * leaves the page cache (mapping_evict_folio, folio_unmap_invalidate,
 * shrink_folio_list):
 *   a clean folio with an iomap_folio_state: ifs_free, answer true;
 *   a dirty one: the state may hold partial dirt, answer false, keep it;
 *   a folio without private data: true at once (folio_needs_release).
 * A folio of four 1 KiB blocks, its state attached by ifs_alloc (as a
 * partial write's __iomap_write_begin does), under the folio lock.
 * Seed 61205's mutant that skipped ->release_folio (answering true,
 * the state left attached) and seed 5051's that left ifs_attached set in
 * iomap_release_folio survived: every quick test that released a folio
 * dropped it from the cache anyway, where nothing looks at its state.
 * Kernel: mm/filemap.c filemap_release_folio, fs/iomap/buffered-io.c
 * iomap_release_folio, v6.18.
 */
static bool release_ans[3], ifs_after[3];

static void release_task(void *arg)
{
	struct km_inode *inode = F()->f_inode;
	struct km_folio *folio = m_folio_lookup(&inode->i_data, 0);

	(void)arg;
	km_folio_get(folio);
	km_folio_lock(folio);
	km_ifs_alloc(inode, folio);
	release_ans[0] = km_filemap_release_folio(folio);
	ifs_after[0] = sim_word_peek(&folio->ifs_attached);
	km_ifs_alloc(inode, folio);
	km_folio_mark_dirty(folio);
	release_ans[1] = km_filemap_release_folio(folio);
	ifs_after[1] = sim_word_peek(&folio->ifs_attached);
	km_folio_unlock(folio);
	km_folio_put(folio);
	/* Write it back: clean, the state still attached; then no state. */
	km_filemap_fdatawrite_range(&inode->i_data, 0, -1);
	km___filemap_fdatawait_range(&inode->i_data, 0, -1);
	km_folio_lock(folio);
	(void)km_filemap_release_folio(folio);
	release_ans[2] = km_filemap_release_folio(folio);
	ifs_after[2] = sim_word_peek(&folio->ifs_attached);
	km_folio_unlock(folio);
}

Test(filemap, release_folio_frees_the_block_state_of_a_clean_folio)
{
	wpsim_race_init(&T, "release-folio");
	T.world.files[0].size = 4096;
	T.world.files[0].blkbits = 10;
	T.world.files[0].layout = "WWWW";
	T.world.files[0].cached_first = 0;
	T.world.files[0].cached_last = 0;
	wpsim_race_task(&T, "P0", release_task, NULL);
	T.name = "release-folio";
	WPSIM_ASSERT_RUN_ONCE(&T);
	cr_expect(release_ans[0], "a clean folio with its state: kept");
	cr_expect(!ifs_after[0], "a clean folio released: state attached");
	cr_expect(!release_ans[1], "a dirty folio released");
	cr_expect(ifs_after[1], "a dirty folio's state freed");
	cr_expect(release_ans[2], "a folio without private data: kept");
	cr_expect(!ifs_after[2]);
}

/*
 * invalidate_inode_pages2_range over a dirty folio answers -EBUSY and
 * keeps it: filemap_release_folio refuses a folio with per-block state
 * that is dirty (iomap_release_folio), and without the state
 * folio_unmap_invalidate's PG_dirty test under xa_lock would.  A direct write whose flush raced with a
 * dirtier falls back to a buffered write on that -EBUSY
 * (kiocb_invalidate_pages -> -ENOTBLK).  A clean folio goes: 0.
 * Seed 62417's #37 (truncate.c:349, the refused release answering 0):
 * the folio stayed, dirty, and the range was reported invalidated.
 * Kernel: mm/truncate.c invalidate_inode_pages2_range,
 * folio_unmap_invalidate, v6.18.
 */
static int inval_ret[3];
static bool inval_kept[3];

static void invalidate_task(void *arg)
{
	struct km_inode *inode = F()->f_inode;
	struct km_address_space *m = &inode->i_data;

	(void)arg;
	/* A partial write: dirty, with its state (1 KiB blocks). */
	SIM_ASSERT_EQ(m_pwritev2(F(), 0, 1024, 0, 5, 0), 1024);
	SIM_ASSERT(sim_word_peek(&m_folio_lookup(m, 0)->ifs_attached));
	inval_ret[0] = km_invalidate_inode_pages2_range(m, 0, 0);
	inval_kept[0] = m_folio_lookup(m, 0) != NULL;
	/* Page 1, dirty at setup (its every block dirty). */
	inval_ret[1] = km_invalidate_inode_pages2_range(m, 1, 1);
	inval_kept[1] = m_folio_lookup(m, 1) != NULL;
	/* Written back, page 0 goes. */
	km_filemap_fdatawrite_range(m, 0, -1);
	km___filemap_fdatawait_range(m, 0, -1);
	inval_ret[2] = km_invalidate_inode_pages2_range(m, 0, 0);
	inval_kept[2] = m_folio_lookup(m, 0) != NULL;
}

Test(filemap, invalidate_pages2_refuses_a_dirty_folio)
{
	wpsim_race_init(&T, "invalidate2-dirty");
	T.world.files[0].size = 8192;
	T.world.files[0].blkbits = 10;
	T.world.files[0].layout = "WWWWWWWW";
	T.world.files[0].cached_first = 0;
	T.world.files[0].cached_last = 1;
	T.world.files[0].dirty_first = 1;
	T.world.files[0].dirty_last = 1;
	wpsim_race_task(&T, "P0", invalidate_task, NULL);
	T.name = "invalidate2-dirty";
	WPSIM_ASSERT_RUN_ONCE(&T);
	cr_expect_eq(inval_ret[0], -KM_EBUSY, "dirty, with state: %d",
		     inval_ret[0]);
	cr_expect(inval_kept[0]);
	cr_expect_eq(inval_ret[1], -KM_EBUSY, "dirty at setup: %d",
		     inval_ret[1]);
	cr_expect(inval_kept[1]);
	cr_expect_eq(inval_ret[2], 0, "clean: %d", inval_ret[2]);
	cr_expect(!inval_kept[2]);
}

/*
 * A direct write over a cached clean page, in a world that frees folios
 * (a long run's: the last folio_put frees the folio).  One task:
 *   1. O_DIRECT pwrite of page 0 (XFS): kiocb_invalidate_pages ->
 *      invalidate_inode_pages2_range: folio 0 got and locked, unmapped
 *      and removed from the cache (the cache's reference dropped);
 *   2. folio_unlock, then folio_put: the last reference, freed.
 * Must hold: the write returns 4096, page 0 is no longer cached, and
 * the disk holds the write.  Bug (seed 60731's mutant of truncate.c:275,
 * the put before the unlock): the put frees the folio, which is still
 * locked, and the unlock is a use after free (the model's folio_unlock
 * asserts a reference).  Exploration's worlds never free a folio.
 * Kernel: mm/truncate.c invalidate_inode_pages2_range, mm/filemap.c
 * kiocb_invalidate_pages, v6.18.
 */
static void direct_write_over_cached(void *arg)
{
	struct km_file *d = m_file_open(F()->f_inode, KM_O_DIRECT);

	(void)arg;
	SIM_ASSERT_EQ(m_pwritev2(d, 0, 4096, 0, 7, 0), 4096);
	SIM_ASSERT(!m_folio_lookup(&F()->f_inode->i_data, 0));
	SIM_ASSERT_EQ(m_dev_data(&m_world()->dev,
				 m_inode_sector(F()->f_inode, 0)), 7);
}

Test(filemap, direct_write_drops_a_cached_page_unlock_before_put)
{
	wpsim_race_init(&T, "direct-write-over-cached");
	T.world.long_run = true;
	T.world.files[0].size = 4096;
	T.world.files[0].layout = "W";
	T.world.files[0].cached_first = 0;
	T.world.files[0].cached_last = 0;
	wpsim_race_task(&T, "P0", direct_write_over_cached, NULL);
	WPSIM_ASSERT_RUN_ONCE(&T);
}

/*
 * A large clean folio that a truncate or a punch covers in part leaves
 * the page cache whole, under its folio lock.
 *   P0: a 16 KiB write at 0 makes one order-2 folio; writeback cleans
 *       it; then
 *   (truncate) ftruncate to 4096: the folio straddles the new EOF: the
 *       partial folio at the range's start;
 *   (punch) fallocate PUNCH_HOLE [0, 8192): the partial folio at the
 *       range's end.
 *   truncate_inode_pages_range locks it, truncate_inode_partial_folio
 *   zeroes the range in it, and the split (not modelled: taken as
 *   failed) leaves a clean folio to be removed whole.
 * Must hold: the folio is removed (not cached at page 0) with its lock
 * held: page_cache_delete's VM_BUG_ON_FOLIO(!folio_test_locked(folio)),
 * which the model asserts in km___filemap_remove_folio.
 * Bug (seed 60731's mutants of truncate.c:128 and :143, lock-pair: the
 * start's or the end's folio_lock/folio_unlock deleted): the folio is
 * zeroed and removed unlocked; the assertion fails.  No quick test had
 * a large clean folio at either end of a truncated range.
 * Kernel: mm/truncate.c truncate_inode_pages_range,
 * truncate_inode_partial_folio; mm/filemap.c page_cache_delete, v6.18.
 */
static bool partial_punch;

static void partial_large_task(void *arg)
{
	struct km_address_space *m = &F()->f_inode->i_data;

	(void)arg;
	SIM_ASSERT_EQ(m_pwritev2(F(), 0, 16384, 0, 7, 0), 16384);
	SIM_ASSERT_EQ(km_filemap_write_and_wait_range(m, 0, INT64_MAX), 0);
	SIM_ASSERT_EQ(m_folio_lookup(m, 0)->order, 2);
	if (partial_punch)
		SIM_ASSERT_EQ(m_syscall(M_SYS_FALLOCATE, &(struct m_sys_args){
			.file = F(), .pos = 0, .len = 8192,
			.flags = KM_FALLOC_FL_PUNCH_HOLE |
				 KM_FALLOC_FL_KEEP_SIZE }), 0);
	else
		SIM_ASSERT_EQ(m_syscall(M_SYS_FTRUNCATE, &(struct m_sys_args){
			.file = F(), .pos = 4096 }), 0);
	SIM_ASSERT_MSG(!m_folio_lookup(m, 0),
		       "the clean large folio leaves the cache whole");
}

static void partial_large_run(bool punch)
{
	partial_punch = punch;
	wpsim_race_init(&T, punch ? "punch-partial-large-folio" :
				    "truncate-partial-large-folio");
	T.world.files[0].size = 0;
	T.world.files[0].large_folios = true;
	wpsim_race_task(&T, "P0", partial_large_task, NULL);
	T.steps_max = 65536;
	WPSIM_ASSERT_RUN_ONCE(&T);
}

Test(filemap, truncate_removes_a_partial_large_folio_locked)
{
	partial_large_run(false);
	partial_large_run(true);
}

/*
 * A data-integrity pass waits for the writeback of a redirtied folio
 * before it starts its own.
 *   P0: pwrite page 0 (dirty); a WB_SYNC_NONE pass starts its writeback
 *       (the bio in flight until the task waits); pwrite page 0 again
 *       (dirty under writeback); filemap_write_and_wait_range
 *       (WB_SYNC_ALL): folio_prepare_writeback finds it dirty and under
 *       writeback, waits, then writes it again.
 * Must hold: writeback is not started on a folio under writeback
 * (folio_prepare_writeback's BUG_ON(folio_test_writeback), and
 * __folio_start_writeback's VM_BUG_ON_FOLIO after it); the second
 * write's data reaches the disk (the end-of-execution lost-data check).
 * Bug: folio_prepare_writeback without its folio_wait_writeback (no
 * quick model test had a WB_SYNC_ALL pass meet a folio under
 * writeback: checked by hand, the model suites all passed with the wait
 * deleted).
 * Kernel: mm/page-writeback.c folio_prepare_writeback, v6.18.
 */
static void redirty_under_writeback_task(void *arg)
{
	struct km_address_space *m = &F()->f_inode->i_data;
	struct km_folio *folio;

	(void)arg;
	SIM_ASSERT_EQ(m_pwritev2(F(), 0, 4096, 0, 7, 0), 4096);
	SIM_ASSERT_EQ(km___filemap_fdatawrite_range(m, 0, INT64_MAX,
						    WB_SYNC_NONE), 0);
	folio = m_folio_lookup(m, 0);
	SIM_ASSERT_MSG(folio && m_folio_flag_peek(folio, PG_writeback),
		       "the first writeback is still in flight");
	SIM_ASSERT_EQ(m_pwritev2(F(), 0, 4096, 0, 8, 0), 4096);
	SIM_ASSERT(m_folio_flag_peek(folio, PG_dirty));
	SIM_ASSERT_EQ(km_filemap_write_and_wait_range(m, 0, INT64_MAX), 0);
	SIM_ASSERT(!m_folio_flag_peek(folio, PG_dirty));
}

Test(filemap, sync_all_pass_waits_for_writeback_of_a_redirtied_folio)
{
	wpsim_race_init(&T, "redirty-under-writeback");
	T.world.files[0].size = 4096;
	wpsim_race_task(&T, "P0", redirty_under_writeback_task, NULL);
	WPSIM_ASSERT_RUN_ONCE(&T);
}

/*
 * filemap_range_needs_writeback (include/linux/pagemap.h, with
 * mm/filemap.c filemap_range_has_writeback, v6.18) takes an inclusive
 * byte range: [pos, pos] is one byte, and the page holding it counts;
 * only end < start is empty.  One dirty page (index 1) of a 16 KiB
 * file, then the same after fsync wrote it back.  Seed 62417's #68
 * (`end_byte <= start_byte`) answered "nothing to write" for the one
 * byte; xfs_zero_range asks so for a one-byte partial block (a punch
 * of one byte), and kiocb_write_and_wait for a one-byte O_DIRECT read.
 */
static bool rnw[8];

static void range_needs_writeback_task(void *arg)
{
	struct km_address_space *m = &F()->f_inode->i_data;

	(void)arg;
	SIM_ASSERT_EQ(m_pwritev2(F(), 4096, 4096, 0, 7, 0), 4096);
	rnw[0] = km_filemap_range_needs_writeback(m, 4196, 4196);
	rnw[1] = km_filemap_range_needs_writeback(m, 8191, 8191);
	rnw[2] = km_filemap_range_needs_writeback(m, 4095, 4096);
	rnw[3] = km_filemap_range_needs_writeback(m, 100, 100);
	rnw[4] = km_filemap_range_needs_writeback(m, 8192, 8192);
	rnw[5] = km_filemap_range_needs_writeback(m, 4197, 4196);
	SIM_ASSERT_EQ(km_vfs_fsync_range(F(), 0, LLONG_MAX, 0), 0);
	rnw[6] = km_filemap_range_needs_writeback(m, 4196, 4196);
	rnw[7] = km_filemap_range_needs_writeback(m, 0, 16383);
}

Test(filemap, range_needs_writeback_of_one_byte)
{
	wpsim_race_init(&T, "range-needs-writeback");
	T.world.files[0].size = 16384;
	T.world.files[0].layout = "WWWW";
	wpsim_race_task(&T, "P0", range_needs_writeback_task, NULL);
	memset(rnw, 0, sizeof(rnw));
	WPSIM_ASSERT_RUN_ONCE(&T);
	cr_assert(rnw[0], "one byte of the dirty page");
	cr_assert(rnw[1], "its last byte");
	cr_assert(rnw[2], "a range ending on its first byte");
	cr_assert(!rnw[3], "one byte of an uncached page");
	cr_assert(!rnw[4], "one byte past the dirty page");
	cr_assert(!rnw[5], "an empty range (end < start)");
	cr_assert(!rnw[6], "the page written back");
	cr_assert(!rnw[7], "the file written back");
}

/*
 * filemap_write_and_wait_range tests mapping_needs_writeback first
 * (mm/filemap.c, v6.18: one load of mapping->nrpages), so a mapping
 * with no page cached is neither written back nor waited for: only its
 * AS_ENOSPC and AS_EIO bits are tested after (filemap_check_errors).
 * Run 1: 16 KiB written on the device, nothing cached: the call's
 * accesses are the read of nrpages (0) and the two bit tests, nothing
 * of the page cache.  Run 2: page 1 cached and dirty: nrpages is read
 * first (1), then the page is written back (one bio) and waited for.
 * The model before the fix looked for the DIRTY mark (fdatawrite) and
 * the WRITEBACK mark (fdatawait) whatever nrpages: four accesses in run
 * 1, the first of them not nrpages (it failed here).  The path of every O_DIRECT write
 * (kiocb_invalidate_pages) on a file with nothing cached.
 */
static struct sim_event wwr_ev[8];	/* the call's first events */
static uint32_t wwr_n;
static uint64_t wwr_bios;

static void write_and_wait_task(void *arg)
{
	struct km_address_space *m = &F()->f_inode->i_data;
	uint64_t bios = sim_word_peek(&m_world()->dev.bios_submitted);
	const struct sim_event *ev;
	uint32_t n0 = sim_exec_events(&ev);

	/* arg set: fsync's file_write_and_wait_range (the next test). */
	SIM_ASSERT_EQ(arg ? km_file_write_and_wait_range(F(), 0, INT64_MAX) :
		      km_filemap_write_and_wait_range(m, 0, INT64_MAX), 0);
	wwr_n = sim_exec_events(&ev) - n0;
	memcpy(wwr_ev, ev + n0, (wwr_n < 8 ? wwr_n : 8) * sizeof(*ev));
	wwr_bios = sim_word_peek(&m_world()->dev.bios_submitted) - bios;
}

static void write_and_wait_run(long page, bool file)
{
	wpsim_race_init(&T, file ? "file-write-and-wait-needs-writeback" :
			"write-and-wait-needs-writeback");
	T.world.files[0].size = 16384;
	T.world.files[0].layout = "WWWW";
	T.world.files[0].cached_first = page;
	T.world.files[0].cached_last = page;
	T.world.files[0].dirty_first = page;
	T.world.files[0].dirty_last = page;
	wpsim_race_task(&T, "P0", write_and_wait_task, file ? &T : NULL);
	WPSIM_ASSERT_RUN_ONCE(&T);
}

Test(filemap, write_and_wait_range_tests_nrpages_first)
{
	struct km_address_space *m;

	write_and_wait_run(-1, false);
	m = &F()->f_inode->i_data;
	cr_assert_eq(wwr_n, 3, "accesses of the call: %u", wwr_n);
	cr_assert_eq(wwr_ev[0].object, m->nrpages.id, "nrpages first");
	cr_assert_eq(wwr_ev[0].access, SIM_ACCESS_READ);
	cr_assert_eq(wwr_ev[0].value, 0);
	cr_assert_eq(wwr_ev[1].object, SIM_OBJECT_BIT(m->flags.id, AS_ENOSPC));
	cr_assert_eq(wwr_ev[2].object, SIM_OBJECT_BIT(m->flags.id, AS_EIO));
	cr_assert_eq(wwr_bios, 0);

	write_and_wait_run(1, false);
	m = &F()->f_inode->i_data;
	cr_assert_gt(wwr_n, 3);
	cr_assert_eq(wwr_ev[0].object, m->nrpages.id, "nrpages first");
	cr_assert_eq(wwr_ev[0].value, 1);
	cr_assert_eq(wwr_bios, 1, "the dirty page written back");
	cr_assert(!m_folio_flag_peek(m_folio_lookup(m, 1), PG_dirty));
	cr_assert(!m_folio_flag_peek(m_folio_lookup(m, 1), PG_writeback));
}

/*
 * file_write_and_wait_range (fsync's core: xfs_file_fsync, blkdev_fsync)
 * tests mapping_needs_writeback first too (mm/filemap.c, v6.18), then
 * checks and advances the file's errseq whatever nrpages was.  Run 1:
 * nothing cached: the first access is the read of nrpages (0), no bio,
 * and no look for the DIRTY or WRITEBACK marks (mapping_tagged's read
 * of the slot extent; the model before
 * session 17 looked for both whatever nrpages: review F2.4).  Run 2:
 * page 1 cached and dirty: nrpages read first (1), one bio, the page
 * clean and not under writeback after.
 */
Test(filemap, file_write_and_wait_range_tests_nrpages_first)
{
	struct km_address_space *m;

	write_and_wait_run(-1, true);
	m = &F()->f_inode->i_data;
	cr_assert_gt(wwr_n, 0);
	cr_assert_eq(wwr_ev[0].object, m->nrpages.id, "nrpages first");
	cr_assert_eq(wwr_ev[0].access, SIM_ACCESS_READ);
	cr_assert_eq(wwr_ev[0].value, 0);
	for (uint32_t i = 0; i < wwr_n && i < 8; i++)
		cr_assert_neq(wwr_ev[i].object, m->xa_extent.id,
			      "access %u looks for a mark (mapping_tagged)", i);
	cr_assert_eq(wwr_bios, 0);

	write_and_wait_run(1, true);
	m = &F()->f_inode->i_data;
	cr_assert_eq(wwr_ev[0].object, m->nrpages.id, "nrpages first");
	cr_assert_eq(wwr_ev[0].value, 1);
	cr_assert_eq(wwr_bios, 1, "the dirty page written back");
	cr_assert(!m_folio_flag_peek(m_folio_lookup(m, 1), PG_dirty));
	cr_assert(!m_folio_flag_peek(m_folio_lookup(m, 1), PG_writeback));
}

/*
 * A RWF_NOWAIT buffered read that misses and finds nothing after its
 * readahead: filemap_get_pages answers -EAGAIN (v6.18: "if
 * (iocb->ki_flags & (IOCB_NOWAIT | IOCB_WAITQ)) return -EAGAIN" before
 * filemap_create_folio; the model's test sits in filemap_create_folio).
 * The readahead finds nothing to add when the file was truncated after
 * the read's i_size test.  An ext4 file (its buffered read takes no
 * i_rwsem, so the truncate can come in between), 16 KiB written,
 * nothing cached.  Seed 64153's #31 (that -EAGAIN turned into 0)
 * returned no folio and no error: the read used a NULL folio.
 */
static uint32_t nowait_ids[8];

static void nowait_reader(void *arg)
{
	(void)arg;
	wpsim_reg_set(0, m_syscall(M_SYS_PREADV2, &(struct m_sys_args){
		.file = F(), .pos = 4096, .len = 4096, .flags = RWF_NOWAIT,
		.out = nowait_ids }));
}

static void truncater(void *arg)
{
	(void)arg;
	wpsim_reg_set(0, m_syscall(M_SYS_FTRUNCATE, &(struct m_sys_args){
		.file = F(), .pos = 0 }));
}

static bool nowait_read_answer_wrong(struct wpsim_race *race)
{
	int64_t r = wpsim_reg(0, 0);

	(void)race;
	return (r != -KM_EAGAIN && r != 0 && r != 4096) ||
	       wpsim_reg(1, 0) != 0;
}

/*
 * A RWF_NOWAIT read and a truncate to 0 of an ext4 file:
 *   P0: 1. preadv2(RWF_NOWAIT) of 4 KiB at 4096: i_size tested (16 KiB),
 *          a miss, page_cache_sync_ra, a second lookup;
 *   P1: 2. ftruncate(0): i_size 0, the page cache truncated.
 *   When 2 falls between P0's i_size test and its readahead, the
 *   readahead adds nothing (past EOF) and the second lookup misses.
 * Must hold: the read returns -EAGAIN (its readahead's I/O in flight,
 * or nothing found after it), 0 (the truncate first, or the page read
 * and then i_size 0) or 4096 (the readahead's read done before the
 * truncate); the truncate returns 0.
 * Bug: none run (seed 64153's #31, 0 for that -EAGAIN, used a NULL
 * folio).
 * Kernel: mm/filemap.c filemap_read, filemap_get_pages, v6.18.
 */
Test(race, nowait_read_vs_truncate__eagain_after_an_empty_readahead)
{
	struct wpsim_race_result res;

	wpsim_race_init(&T, "nowait-read-vs-truncate");
	T.world.files[0].size = 16384;
	T.world.files[0].layout = "WWWW";
	T.world.files[0].fs = M_FS_EXT4;
	wpsim_race_task(&T, "P0", nowait_reader, NULL);
	wpsim_race_task(&T, "P1", truncater, NULL);
	T.property = nowait_read_answer_wrong;
	T.property_text = "the NOWAIT read's or the truncate's answer is "
			  "neither of the kernel's";
	T.preemptions = -1;
	T.expect = WPSIM_NEVER;
	cr_assert_eq(wpsim_race_run(&T, stderr, &res), WPSIM_PASS,
		     "%s", res.message);
	cr_assert(res.complete, "the search did not cover its space");
	cr_assert_gt(res.executions, 1);
}

/*
 * The rule of f_wb_err (model/lockdep.c: it advances under f_lock,
 * mm/filemap.c file_check_and_advance_wb_err, v6.18) fails an execution
 * that advances it without the lock: a writeback error recorded on the
 * mapping, then errseq_check_and_advance of the file's sample with
 * f_lock not held.  Seed 64153's #102 (the rule deleted) let it pass;
 * without the rule, a deleted f_lock pair in
 * km_file_check_and_advance_wb_err would pass too.
 */
static void advance_without_f_lock(void *arg)
{
	struct km_address_space *m = km_inode_mapping(F()->f_inode);

	(void)arg;
	km_mapping_set_error(m, -KM_EIO);
	km_errseq_check_and_advance(&m->wb_err, &F()->f_wb_err);
}

Test(filemap, f_wb_err_advanced_without_f_lock_fails)
{
	struct sim_outcome o;

	wpsim_race_init(&T, "f-wb-err-without-f-lock");
	wpsim_race_task(&T, "P0", advance_without_f_lock, NULL);
	wpsim_race_replay(&T, "-", &o);
	cr_assert_neq(o.kind, SIM_OK, "advanced without f_lock: no failure");
	cr_assert(strstr(o.message, "f_wb_err") &&
		  strstr(o.message, "f_lock"), "%s", o.message);
}
