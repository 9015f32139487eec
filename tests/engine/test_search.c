// SPDX-License-Identifier: MIT
/*
 * tests/engine/test_search.c - shrinking, iterative deepening and the
 * state-space estimate.
 */
#include <criterion/criterion.h>
#include <math.h>

#include "sim/search.h"
#include "tools/programs/programs.h"

Test(search, shrink_finds_the_one_preemption_lost_update)
{
	struct sim_explore_options opt = { .stop_on_failure = true };
	struct sim_exec_options exec = { 0 };
	struct sim_explore_result res;
	struct sim_witness shrunk;
	struct sim_strategy s;
	uint32_t before = 0;
	uint64_t seed;

	/* Find a random witness with more than one preemption. */
	for (seed = 1; seed < 200; seed++) {
		sim_strategy_random(&s, seed, 1000);
		sim_explore(&wpsim_racy_counter, &s, &opt, &res);
		before = sim_schedule_preemptions(res.first.choices,
						  res.first.enabled,
						  res.first.steps);
		if (before > 1)
			break;
		sim_explore_result_fini(&res);
	}
	cr_assert_gt(before, 1, "no witness with 2+ preemptions found");
	cr_assert(sim_shrink(&wpsim_racy_counter, &res.first, &exec, 10000,
			     &shrunk));
	cr_assert_eq(sim_schedule_preemptions(shrunk.choices, shrunk.enabled,
					      shrunk.steps), 1);
	cr_assert(sim_outcome_matches(&shrunk.outcome, &res.first.outcome));
	cr_log_info("shrunk %s (%u preemptions) to %s (1)", res.first.schedule,
		    before, shrunk.schedule);
	sim_witness_fini(&shrunk);
	sim_explore_result_fini(&res);
}

Test(search, outcome_match_ignores_numbers_only)
{
	struct sim_outcome a = { .kind = SIM_FAIL_PROPERTY }, b = a;

	snprintf(a.message, sizeof(a.message), "counter == 1 after 2");
	snprintf(b.message, sizeof(b.message), "counter == 13 after 2");
	cr_assert(sim_outcome_matches(&a, &b));
	snprintf(b.message, sizeof(b.message), "counter != 1 after 2");
	cr_assert(!sim_outcome_matches(&a, &b));
	b.kind = SIM_FAIL_ASSERT;
	cr_assert(!sim_outcome_matches(&a, &b));
}

Test(search, iterative_deepening_finds_the_simplest_first)
{
	struct sim_explore_options opt = { .stop_on_failure = true };
	struct sim_explore_result res;
	uint32_t bound;

	sim_explore_iterative(&wpsim_racy_counter, &opt, 5, &res, &bound);
	cr_assert_eq(bound, 1);
	cr_assert_eq(res.failures, 1);
	sim_explore_result_fini(&res);

	/* No bug: deepening stops once a bound cuts nothing. */
	sim_explore_iterative(&wpsim_locked_counter, &opt, 10, &res, &bound);
	cr_assert_eq(res.failures, 0);
	cr_assert(!res.bound_hit && res.complete, "bound %u", bound);
	sim_explore_result_fini(&res);
}

Test(search, knuth_estimate_of_a_known_tree)
{
	struct sim_exec_options exec = { 0 };
	double mean, err;

	/* independent-3 has exactly 9!/(3!3!3!) = 1680 schedules. */
	sim_estimate(&wpsim_independent_3, &exec, 4000, 7, &mean, &err);
	cr_assert_lt(fabs(mean - 1680) / 1680, 0.15, "estimate %.0f", mean);
	cr_assert_lt(err, 0.1, "relative error %.3f", err);
}
