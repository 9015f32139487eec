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
void sim_strategy_fini(struct sim_strategy *s);

/* The default choice: current if enabled, else the lowest enabled id. */
int sim_choice_default(const struct sim_choice *c);

/* splitmix64, the engine's only random source. */
uint64_t sim_rng_next(uint64_t *state);

/*
 * DPOR's own interface (counters, the lock-aware and optimal switches,
 * the estimator, the split search) is sim/dpor.h; included here so that
 * a user of sim_strategy_dpor() sees it, as before the two were apart.
 */
#include "sim/dpor.h"

#endif /* WPSIM_SIM_STRATEGY_H */
