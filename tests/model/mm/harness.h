/* SPDX-License-Identifier: MIT */
/*
 * tests/model/mm/harness.h - run model programs in tests: a world config,
 * up to four task bodies, the end-of-execution checks, and exploration
 * with DPOR.
 */
#ifndef WPSIM_TESTS_MODEL_HARNESS_H
#define WPSIM_TESTS_MODEL_HARNESS_H

#include <criterion/criterion.h>
#include <string.h>

#include "model/fs/xfs.h"
#include "model/linux/pagemap.h"
#include "model/world.h"
#include "sim/explore.h"

struct mtest {
	struct m_world_config config;
	sim_task_fn task[4];
	int tasks;
	void (*final)(void);	/* extra property, may sim_fail */
	/* Failed writes lose data by design (the folio is cleaned, the error
	 * goes to errseq): skip the lost-write check. */
	bool io_errors;
};

static struct mtest *mtest_current;

/*
 * No dirty data lost: a cached sector inside EOF whose content differs
 * from the disk belongs to a dirty folio (PG_dirty) or a dirty PTE.
 */
static inline void mtest_no_lost_data(void)
{
	struct m_world *w = m_world();

	for (uint32_t id = 1; id <= w->nr_folios; id++) {
		struct km_folio *folio = w->folios[id];
		struct km_inode *inode = folio->owner->host;
		loff_t isize = (loff_t)sim_word_peek(&inode->i_size);

		if (!sim_word_peek(&folio->mapping) ||
		    !m_folio_flag_peek(folio, PG_uptodate) ||
		    m_folio_flag_peek(folio, PG_dirty) ||
		    (sim_word_peek(&folio->pte) & M_PTE_DIRTY))
			continue;
		for (size_t s = 0; s < km_folio_size(folio) >> SECTOR_SHIFT;
		     s++) {
			loff_t pos = km_folio_pos(folio) +
				     (loff_t)(s << SECTOR_SHIFT);
			/* What a read would find: only written blocks
			 * hold data, the rest reads as zeroes. */
			uint32_t disk = m_extent_peek(inode, (unsigned long)
					(pos >> inode->i_blkbits)) == 'W' ?
				w->dev.data[m_inode_sector(inode, pos)] : 0;

			if (pos >= isize)
				break;
			if (folio->data[s] != disk)
				sim_fail(SIM_FAIL_PROPERTY, "lost write: folio "
					 "%u sector %zu holds %u, disk %u, "
					 "folio clean", folio->id, s,
					 folio->data[s], disk);
		}
	}
}

static inline void mtest_setup(void *config)
{
	static const char *const names[] = { "P0", "P1", "P2", "P3" };
	struct mtest *t = config;

	mtest_current = t;
	m_world_setup(&t->config);
	for (int i = 0; i < t->tasks; i++)
		sim_task_spawn(names[i], t->task[i], NULL);
}

static inline void mtest_final(void *config)
{
	struct mtest *t = config;
	char why[256];

	if (!m_world_quiescent_check(why, sizeof(why)))
		sim_fail(SIM_FAIL_INVARIANT, "%s", why);
	if (!t->io_errors)
		mtest_no_lost_data();
	if (t->final)
		t->final();
}

/* Explore @t exhaustively with DPOR; returns the result (caller fini). */
static inline void mtest_explore(struct mtest *t, const char *name,
				 struct sim_explore_result *res)
{
	struct sim_program p = {
		.name = name,
		.setup = mtest_setup,
		.final = mtest_final,
		.config = t,
	};
	struct sim_explore_options opt = { .stop_on_failure = true,
					   .verify_determinism = true };
	struct sim_strategy s;

	cr_assert_eq(sim_strategy_dpor(&s), 0);
	sim_explore(&p, &s, &opt, res);
	if (res->failures)
		sim_report_failure(stderr, &p, &s, &res->first, name, 25);
	cr_assert(res->determinism_ok, "%s: replay changed the event log",
		  name);
	sim_strategy_fini(&s);
}

/*
 * Explore @t with DPOR and program setup @setup (NULL: mtest_setup), at
 * most @cap executions (0: exhaustive), stopping at the first failure.
 */
static inline void mtest_explore_with(struct mtest *t, const char *name,
				      void (*setup)(void *), uint64_t cap,
				      struct sim_explore_result *res)
{
	struct sim_program p = {
		.name = name,
		.setup = setup ? setup : mtest_setup,
		.final = mtest_final,
		.config = t,
	};
	struct sim_explore_options opt = { .stop_on_failure = true,
					   .executions_max = cap };
	struct sim_strategy s;

	cr_assert_eq(sim_strategy_dpor(&s), 0);
	sim_explore(&p, &s, &opt, res);
	sim_strategy_fini(&s);
}

/*
 * Run @t once with the default schedule (each task runs until it waits;
 * device completions run when every task waits or has ended) and fail
 * the test unless the execution, its final checks included, passed.
 */
static inline void mtest_run_once(struct mtest *t, const char *name)
{
	struct sim_program p = {
		.name = name,
		.setup = mtest_setup,
		.final = mtest_final,
		.config = t,
	};
	struct sim_exec_options exec = { 0 };
	struct sim_outcome o;

	sim_replay(&p, "-", &exec, &o);
	cr_assert_eq(o.kind, SIM_OK, "%s: %s: %s", name,
		     sim_failure_kind_name(o.kind), o.message);
}

/* Expect no failure, exhaustively. */
#define MTEST_CLEAN(t, name)						\
	do {								\
		struct sim_explore_result r_;				\
		mtest_explore((t), (name), &r_);			\
		cr_assert_eq(r_.failures, 0, "%s: %s", (name),		\
			     r_.first.outcome.message);			\
		cr_assert(r_.complete, "%s: incomplete", (name));	\
		cr_log_info("%s: %llu executions, complete", (name),	\
			    (unsigned long long)r_.executions);		\
		sim_explore_result_fini(&r_);				\
	} while (0)

/* Expect a failure whose message contains @what. */
#define MTEST_FINDS(t, name, what)					\
	do {								\
		struct sim_explore_result r_;				\
		mtest_explore((t), (name), &r_);			\
		cr_assert_eq(r_.failures, 1, "%s: the broken model "	\
			     "was not caught", (name));			\
		cr_assert(strstr(r_.first.outcome.message, (what)),	\
			  "%s: %s", (name), r_.first.outcome.message);	\
		cr_log_info("%s: found after %llu executions: %s",	\
			    (name),					\
			    (unsigned long long)r_.executions + 1,	\
			    r_.first.outcome.message);			\
		sim_explore_result_fini(&r_);				\
	} while (0)

static inline void mtest_init(struct mtest *t)
{
	memset(t, 0, sizeof(*t));
	m_world_config_default(&t->config);
}

static inline struct km_file *F(void)
{
	return m_world()->files[0];
}

#endif
