/* SPDX-License-Identifier: MIT */
/*
 * Search helpers on top of sim_explore: counterexample shrinking,
 * iterative preemption deepening, and a state-space estimate.
 */
#ifndef WPSIM_SIM_SEARCH_H
#define WPSIM_SIM_SEARCH_H

#include "sim/explore.h"

/*
 * Does @o show "the same violation" as @want?  Same failure kind and the
 * same message once digits are ignored (values in messages may differ).
 */
bool sim_outcome_matches(const struct sim_outcome *o,
			 const struct sim_outcome *want);

/*
 * Shrink a witness: search schedules with 0, 1, 2, ... preemptions (DPOR
 * with a preemption bound, at most @executions_per_bound executions per
 * bound) for one that shows the same violation; at the smallest bound
 * with a match, keep the match with the fewest steps.  Returns true and
 * fills @shrunk (fini with sim_witness_fini) when it found one with fewer
 * preemptions or fewer steps than @witness.
 */
bool sim_shrink(const struct sim_program *program,
		const struct sim_witness *witness,
		const struct sim_exec_options *exec,
		uint64_t executions_per_bound, struct sim_witness *shrunk);
/*
 * The same with another notion of "the same": @match(ctx, outcome) is
 * called after each execution, with the execution's state still in
 * place (e.g. a scenario evaluating its condition).
 */
bool sim_shrink_where(const struct sim_program *program,
		      const struct sim_witness *witness,
		      const struct sim_exec_options *exec,
		      uint64_t executions_per_bound,
		      bool (*match)(void *ctx, const struct sim_outcome *o),
		      void *ctx, struct sim_witness *shrunk);
void sim_witness_fini(struct sim_witness *witness);

/*
 * Iterative deepening: DPOR with preemption bound 0, 1, ... @max_bound,
 * stopping at the first bound that finds a failure (the simplest witness
 * first) or that completes without cutting anything (exhaustive).
 * @result describes the last bound run; *bound_used says which.
 */
void sim_explore_iterative(const struct sim_program *program,
			   const struct sim_explore_options *options,
			   uint32_t max_bound, struct sim_explore_result *result,
			   uint32_t *bound_used);

/*
 * Knuth's estimator of the size of the DFS tree (the number of complete
 * schedules unbounded DFS would run): @probes random walks, each
 * contributing the product of the enabled-set sizes along its path.
 * *mean is the estimate; *relative_error its standard error / mean.
 */
void sim_estimate(const struct sim_program *program,
		  const struct sim_exec_options *exec, uint32_t probes,
		  uint64_t seed, double *mean, double *relative_error);

#endif /* WPSIM_SIM_SEARCH_H */
