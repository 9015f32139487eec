/* SPDX-License-Identifier: MIT */
/*
 * sim_dpor: source-DPOR with sleep sets (sim/dpor.c) beyond its two
 * strategy constructors (sim_strategy_dpor, sim_strategy_dpor_bounded
 * in sim/strategy.h): its counters, the lock-aware reduction and the
 * optimal (wakeup-tree) switch, the trace hash the tests compare, the
 * estimator, and the split of one search into items
 * (docs/architecture.md, "Splitting one exploration").
 */
#ifndef WPSIM_SIM_DPOR_H
#define WPSIM_SIM_DPOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sim_strategy;
struct sim_program;
struct sim_exec_options;
struct sim_dpor;

uint64_t sim_dpor_pruned(const struct sim_strategy *s);
/*
 * The Mazurkiewicz trace of the execution that just ran, as a hash: the
 * ordered pairs of dependent steps of different tasks (DPOR's dependency
 * relation), each step named by its task and its index in that task.
 * Equivalent executions hash the same.  For tests: DPOR must reach every
 * trace DFS reaches.
 */
uint64_t sim_exec_trace_hash(void);
uint64_t sim_dpor_races(const struct sim_strategy *s);
/*
 * The lock-aware reduction (on by default without a bound): flat
 * spinlock sections whose accesses do not race are run in one order.
 * Off: every pair of takes of a lock is raced, and DPOR runs one
 * execution per Mazurkiewicz trace of sim_exec_trace_hash (the
 * trace-level tests).  sim_dpor_relaxed_pairs counts the take pairs left
 * unreversed.
 */
void sim_dpor_set_lock_aware(struct sim_strategy *s, bool on);
/*
 * Optimal DPOR (wakeup trees; for unbounded DPOR that is not an item of
 * a split search; off by default: on the model's lock-heavy scenarios
 * source-DPOR with the lock-aware reduction runs fewer executions,
 * docs/performance.md).  Call before the first execution.
 * sim_dpor_wut_fallbacks counts the places where a wakeup tree was
 * widened to every task (a sequence that could not run, a race with no
 * initial enabled, more lock takes than tracked).
 */
void sim_dpor_set_optimal(struct sim_strategy *s, bool on);
/* Whether later sim_strategy_dpor* calls start optimal (default: no). */
void sim_dpor_default_optimal(bool on);
/*
 * Which sections the lock-aware reduction of later unbounded
 * sim_strategy_dpor* calls orders as units (default: all it can): ALL;
 * PLAIN, exclusive sections of locks with a take (spinlock, mutex,
 * rwlock write lock), not a bit lock's (the folio lock) nor read
 * sections, as before those were added; NONE, the reduction off.  For
 * measuring the reduction (bench/search-growth.py): every setting
 * reaches the same states (docs/architecture.md, "Lock-aware
 * reduction").
 */
enum sim_dpor_lock_sections {
	SIM_DPOR_SECTIONS_ALL,
	SIM_DPOR_SECTIONS_PLAIN,
	SIM_DPOR_SECTIONS_NONE,
};
void sim_dpor_default_lock_sections(enum sim_dpor_lock_sections which);
uint64_t sim_dpor_wut_fallbacks(const struct sim_strategy *s);
uint64_t sim_dpor_relaxed_pairs(const struct sim_strategy *s);

/*
 * The fraction of DPOR's tree (executions plus redundant ones) the search
 * has finished, by the weighted backtrack estimator on its backtrack sets
 * (sim/dpor.c); 1 when the search is over.  Between executions.
 */
double sim_dpor_fraction_done(const struct sim_strategy *s);
/*
 * Run DPOR within @bound (< 0: none) for @executions executions
 * (redundant ones included) and estimate its whole count: exact if it
 * completed; else, unbounded and without wakeup trees, Knuth's estimate
 * over the top of the tree from a sample of the subtrees below it
 * (about @executions executions more; sim/dpor.c, sim_dpor_estimate);
 * else the weighted backtrack estimate of the fraction done.
 */
struct sim_dpor_estimate {
	double mean;		/* executions plus redundant, the whole */
	double fraction;	/* of the tree done after the sample */
	uint64_t executions;	/* the sample, redundant ones included:
				 * the whole is at least that when it did
				 * not complete */
	bool complete;		/* the sample was the whole search */
	double backtrack_mean;	/* the weighted backtrack estimate */
	/* The sample of subtrees (items_run 0: none was drawn). */
	double items_mean;	/* the estimate from it */
	double items_cut_share;	/* of its sum, from items cut */
	uint32_t items, items_run, items_cut;	/* subtrees, drawn, cut */
	bool items_expanded;	/* lock nodes expanded in the top */
	uint64_t item_executions;	/* the top's runs and the items' */
};
void sim_dpor_estimate(const struct sim_program *program,
		       const struct sim_exec_options *exec, int64_t bound,
		       uint64_t executions, struct sim_dpor_estimate *e);
void sim_dpor_free(struct sim_dpor *d);

/*
 * Splitting one unbounded DPOR search into items (docs/architecture.md,
 * "Splitting one exploration"): sim_dpor_split explores the top of the
 * tree by sleep-set DFS, level by level (a level is a node with two or
 * more tasks to run), until there are at least @items_min leaves or
 * @levels_max levels.  Each leaf is an item, numbered in DFS order: a
 * prefix with the sleep set the top leaves at its end, or an execution
 * that ended inside the top.  sim_strategy_dpor_item sets @s up as DPOR
 * from item @item's prefix with its sleep set, no backtrack entry above
 * it but the races it forwards (sim_dpor_tops_add): the items together cover every trace the whole search covers.  The
 * split must outlive the strategies made from it.
 */
struct sim_dpor_split;
struct sim_dpor_split *sim_dpor_split(const struct sim_program *program,
				      const struct sim_exec_options *exec,
				      uint32_t items_min, uint32_t levels_max);
uint32_t sim_dpor_split_items(const struct sim_dpor_split *sp);
/* Levels expanded, nodes of the top where every task slept, steps run. */
void sim_dpor_split_stats(const struct sim_dpor_split *sp, uint32_t *levels,
			  uint64_t *pruned, uint64_t *steps);
void sim_dpor_split_free(struct sim_dpor_split *sp);
int sim_strategy_dpor_item(struct sim_strategy *s,
			   const struct sim_dpor_split *sp, uint32_t item);
/*
 * The same, in the blocks of @spare (a state sim_dpor_keep took from an
 * earlier item's strategy; NULL: new blocks): a worker that runs one item
 * after another builds DPOR's state once (its node array, the race
 * analysis's scratch), not once per item.  The search is the same.
 */
int sim_strategy_dpor_item_reuse(struct sim_strategy *s,
				 const struct sim_dpor_split *sp,
				 uint32_t item, struct sim_dpor *spare);
/* @s's DPOR state, taken from it (sim_strategy_fini then leaves it). */
struct sim_dpor *sim_dpor_keep(struct sim_strategy *s);
/*
 * Between executions of an item's search: give the shallowest untried
 * choices away as items of their own (the search goes on below them),
 * or NULL when there are none.  The items' redundant nodes and steps are
 * in sim_dpor_split_stats.
 */
struct sim_dpor_split *sim_dpor_donate(struct sim_strategy *s,
				       const struct sim_program *program,
				       const struct sim_exec_options *exec);
/* An item as bytes for another process of the same binary, and back. */
size_t sim_dpor_split_pack(const struct sim_dpor_split *sp, uint32_t item,
			   void *buf, size_t size);
struct sim_dpor_split *sim_dpor_split_unpack(const void *buf, size_t size);
/*
 * The coordinator's nodes (docs/architecture.md, "Splitting one
 * exploration"): a donation hands over the nodes above the donor's new
 * root that still have untried choices (sim_dpor_split_pack_nodes, as
 * bytes; sim_dpor_tops_add registers them below the donor's deepest
 * owned node @ctx, -1 for none, and returns the new deepest).  An item
 * forwards the races it finds for those nodes (sim_dpor_requests_pack,
 * after its search); sim_dpor_tops_apply adds them to the nodes in the
 * order it is called and returns the items for the new choices (or
 * NULL), each with its deepest owned node (sim_dpor_split_item_ctx).
 */
struct sim_dpor_tops;
size_t sim_dpor_split_pack_nodes(const struct sim_dpor_split *sp, void *buf,
				 size_t size);
struct sim_dpor_tops *sim_dpor_tops_new(void);
void sim_dpor_tops_free(struct sim_dpor_tops *t);
int32_t sim_dpor_tops_add(struct sim_dpor_tops *t, int32_t ctx,
			  const void *buf, size_t len);
size_t sim_dpor_requests_pack(const struct sim_strategy *s, void *buf,
			      size_t size);
struct sim_dpor_split *sim_dpor_tops_apply(struct sim_dpor_tops *t,
					   const struct sim_program *program,
					   const struct sim_exec_options *exec,
					   int32_t ctx, const void *buf,
					   size_t len);
int32_t sim_dpor_split_item_ctx(const struct sim_dpor_split *sp,
				uint32_t item);
#endif /* WPSIM_SIM_DPOR_H */
