/* SPDX-License-Identifier: MIT */
/*
 * sim_strategy: who runs next, and when the search is over.
 *
 * A strategy is asked at every step of an execution (choose) and once
 * after it (next: is there another execution to run?).  replay follows a
 * schedule string; random and PCT draw from a seeded generator; DFS walks
 * every schedule, optionally under a preemption bound.  DFS keeps one node
 * per step with the enabled, done and backtrack sets, so that DPOR plugs in
 * by filling the backtrack sets from races instead of from all of enabled.
 */
#ifndef WPSIM_SIM_STRATEGY_H
#define WPSIM_SIM_STRATEGY_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/engine.h"

enum sim_strategy_kind {
	SIM_STRATEGY_REPLAY,
	SIM_STRATEGY_RANDOM,
	SIM_STRATEGY_PCT,
	SIM_STRATEGY_DFS,
	SIM_STRATEGY_DPOR,
	SIM_STRATEGY_TIMED,	/* sim/timed.c: smallest virtual start first */
};

struct sim_strategy_ops {
	const char *name;
	/* Called before each execution. */
	void (*begin)(struct sim_strategy *s);
	/* Return the id of the task to run; must be in c->enabled. */
	int (*choose)(struct sim_strategy *s, const struct sim_choice *c);
	/* Called after each execution; false when the search is over. */
	bool (*next)(struct sim_strategy *s, const struct sim_outcome *o);
};

#define SIM_PCT_DEPTH_MAX 8

struct sim_dpor;

struct sim_dfs_node {
	uint64_t enabled;
	uint64_t done;		/* alternatives already taken here */
	uint64_t backtrack;	/* alternatives that must be taken here */
	uint16_t chosen;
	int16_t current;	/* task of the previous step, -1 at step 0 */
	uint32_t preemptions;	/* preemptions before this step */
};

struct sim_strategy {
	const struct sim_strategy_ops *ops;
	enum sim_strategy_kind kind;

	/* replay */
	const uint16_t *replay;
	uint32_t replay_count;

	/* random and PCT */
	uint64_t seed;		/* base seed given by the user */
	uint64_t exec_seed;	/* seed of the current execution */
	uint64_t rng;
	uint64_t executions_max;
	uint64_t executions;

	/* PCT */
	uint32_t pct_depth;	/* bug depth d: d-1 priority change points */
	uint32_t pct_steps_estimate;
	uint32_t pct_change_steps[SIM_PCT_DEPTH_MAX];
	int32_t pct_priority[SIM_TASKS_MAX];
	int32_t pct_low_next;

	/* DFS */
	int64_t preemption_bound;	/* -1 = unbounded */
	struct sim_dfs_node *nodes;	/* one per step, SIM_STEPS_LIMIT */
	uint32_t prefix;		/* steps to replay from nodes[] */
	uint32_t depth;			/* nodes valid after an execution */
	bool complete;			/* the search covered everything */
	bool bound_hit;			/* an alternative was cut by the bound */

	/* DPOR (sim/dpor.c) */
	struct sim_dpor *dpor;
};

void sim_strategy_replay(struct sim_strategy *s, const uint16_t *choices,
			 uint32_t count);
void sim_strategy_random(struct sim_strategy *s, uint64_t seed,
			 uint64_t executions);
void sim_strategy_pct(struct sim_strategy *s, uint64_t seed,
		      uint64_t executions, uint32_t depth);
/*
 * Timed: at every step the enabled task or event with the smallest
 * virtual start time (sim/clock.h); among equal start times an event or
 * a task that keeps the CPU it holds within its slice first, then one
 * drawn from a generator seeded with @seed.  Execution i runs with its
 * own seed, as under random; one execution is one ordinary schedule.
 */
void sim_strategy_timed(struct sim_strategy *s, uint64_t seed,
			uint64_t executions);
/* @preemption_bound < 0: unbounded (exhaustive). */
int sim_strategy_dfs(struct sim_strategy *s, int64_t preemption_bound);
/* Source-DPOR with sleep sets: one execution per Mazurkiewicz trace, plus
 * a few sleep-set-blocked ones (counted by sim_dpor_pruned). */
int sim_strategy_dpor(struct sim_strategy *s);
/* DPOR within a preemption bound (@bound < 0: none, = sim_strategy_dpor). */
int sim_strategy_dpor_bounded(struct sim_strategy *s, int64_t bound);
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
uint64_t sim_dpor_wut_fallbacks(const struct sim_strategy *s);
uint64_t sim_dpor_relaxed_pairs(const struct sim_strategy *s);

/*
 * The fraction of DPOR's tree (executions plus redundant ones) the search
 * has finished, by the weighted backtrack estimator on its backtrack sets
 * (sim/dpor.c); 1 when the search is over.  Between executions.
 */
double sim_dpor_fraction_done(const struct sim_strategy *s);
/*
 * Run DPOR within @bound (< 0: none) for at most @executions executions
 * (redundant ones included) and estimate its whole count from the
 * fraction done: exact if it completed.
 */
struct sim_dpor_estimate {
	double mean;		/* executions plus redundant, the whole */
	double fraction;	/* of the tree done after the sample */
	uint64_t executions;	/* the sample, redundant ones included */
	bool complete;		/* the sample was the whole search */
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
void sim_strategy_fini(struct sim_strategy *s);

/* The default choice: current if enabled, else the lowest enabled id. */
int sim_choice_default(const struct sim_choice *c);

/* splitmix64, the engine's only random source. */
uint64_t sim_rng_next(uint64_t *state);

#endif /* WPSIM_SIM_STRATEGY_H */
