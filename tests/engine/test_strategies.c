// SPDX-License-Identifier: MIT
/*
 * tests/engine/test_strategies.c - replay, random, PCT and DFS on the
 * lost-update race and its locked fix.
 *
 * The race (engine/racy-counter), as numbered steps:
 *   P0: 1. v = counter (0)          P1:
 *                                     2. v = counter (0)
 *   P0: 3. counter = v + 1 (1)
 *                                     4. counter = v + 1 (1)
 * Must hold: counter == 2 at the end.  Buggy result: counter == 1.
 * The fix (engine/locked-counter) does both steps under one mutex.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "sim/explore.h"
#include "tools/programs/programs.h"

static void explore(const struct sim_program *p, struct sim_strategy *s,
		    bool stop, struct sim_explore_result *res)
{
	struct sim_explore_options opt = { .stop_on_failure = stop,
					   .verify_determinism = true };

	sim_explore(p, s, &opt, res);
	cr_assert(res->determinism_ok, "replay changed the event log");
}

/*
 * Random schedules (seed 1, at most 1000 executions) find the lost
 * update:
 *
 *   P0                          P1
 *   1. v = counter (0)
 *                               2. v = counter (0)
 *   3. counter = v + 1 (1)
 *                               4. counter = v + 1 (1)
 * Must hold: counter == 2 at the end; the search stops at the first
 * execution that breaks it (a property failure), and every execution
 * replays to the same event log.
 * Bug (engine/racy-counter: a load and a store, no lock): the schedule
 * above ends with counter == 1, "lost update: counter == 1 after 2
 * increments".
 * Kernel: none (engine test: an unlocked read-modify-write of a shared
 * counter, the lost update).
 */
Test(race, increment_vs_increment__random_finds_lost_update)
{
	struct sim_explore_result res;
	struct sim_strategy s;

	sim_strategy_random(&s, 1, 1000);
	explore(&wpsim_racy_counter, &s, true, &res);
	cr_assert_eq(res.failures, 1);
	cr_assert_eq(res.first.outcome.kind, SIM_FAIL_PROPERTY);
	cr_assert(strstr(res.first.outcome.message, "counter == 1"));
	sim_explore_result_fini(&res);
}

/*
 * The per-execution seed that a random search (seed 99) prints for its
 * failing execution finds the lost update again in one execution:
 *
 *   P0                          P1
 *   1. v = counter (0)
 *                               2. v = counter (0)
 *   3. counter = v + 1 (1)
 *                               4. counter = v + 1 (1)
 * Must hold: counter == 2 at the end; the failure found with seed 99 is
 * found again by a one-execution search from its exec_seed, with the
 * same event-log hash.
 * Bug (engine/racy-counter: a load and a store, no lock): the schedule
 * above ends with counter == 1, "lost update: counter == 1 after 2
 * increments".
 * Kernel: none (engine test: an unlocked read-modify-write of a shared
 * counter, the lost update).
 */
Test(race, increment_vs_increment__random_seed_replays_alone)
{
	struct sim_explore_result res, again;
	struct sim_strategy s;
	uint64_t seed;

	sim_strategy_random(&s, 99, 1000);
	explore(&wpsim_racy_counter, &s, true, &res);
	cr_assert_eq(res.failures, 1);
	seed = res.first.exec_seed;
	/* The printed per-execution seed finds it in one execution. */
	sim_strategy_random(&s, seed, 1);
	explore(&wpsim_racy_counter, &s, true, &again);
	cr_assert_eq(again.failures, 1);
	cr_assert_eq(again.first.outcome.log_hash, res.first.outcome.log_hash);
	sim_explore_result_fini(&res);
	sim_explore_result_fini(&again);
}

/*
 * PCT (seed 5, at most 1000 executions, depth 2: one priority change
 * point) finds the lost update:
 *
 *   P0                          P1
 *   1. v = counter (0)
 *                               2. v = counter (0)
 *   3. counter = v + 1 (1)
 *                               4. counter = v + 1 (1)
 * Must hold: counter == 2 at the end; the search stops at the first
 * execution that breaks it (a property failure).
 * Bug (engine/racy-counter: a load and a store, no lock): the schedule
 * above ends with counter == 1, "lost update: counter == 1 after 2
 * increments".
 * Kernel: none (engine test: an unlocked read-modify-write of a shared
 * counter, the lost update).
 */
Test(race, increment_vs_increment__pct_finds_lost_update)
{
	struct sim_explore_result res;
	struct sim_strategy s;

	/* Depth 2: one priority change point is enough for this bug. */
	sim_strategy_pct(&s, 5, 1000, 2);
	explore(&wpsim_racy_counter, &s, true, &res);
	cr_assert_eq(res.failures, 1);
	cr_assert_eq(res.first.outcome.kind, SIM_FAIL_PROPERTY);
	sim_explore_result_fini(&res);
}

/*
 * DFS without a preemption bound explores every schedule of the lost
 * update, 2 tasks x 3 steps: C(6,3) = 20, and reports the shortest
 * failing one:
 *
 *   P0                          P1
 *   1. v = counter (0)
 *                               2. v = counter (0)
 *   3. counter = v + 1 (1)
 *                               4. counter = v + 1 (1)
 * Must hold: counter == 2 at the end; the search is complete, some but
 * not all of the 20 schedules break it, and the shortest witness is no
 * longer than the first.
 * Bug (engine/racy-counter: a load and a store, no lock): the schedule
 * above ends with counter == 1, "lost update: counter == 1 after 2
 * increments".
 * Kernel: none (engine test: an unlocked read-modify-write of a shared
 * counter, the lost update).
 */
Test(race, increment_vs_increment__dfs_reports_shortest)
{
	struct sim_explore_result res;
	struct sim_strategy s;

	sim_strategy_dfs(&s, -1);
	explore(&wpsim_racy_counter, &s, false, &res);
	cr_assert(res.complete);
	/* 2 tasks x 3 steps: C(6,3) = 20 schedules. */
	cr_assert_eq(res.executions, 20);
	cr_assert_gt(res.failures, 0);
	cr_assert_lt(res.failures, res.executions);
	cr_assert_eq(res.shortest.outcome.kind, SIM_FAIL_PROPERTY);
	cr_assert_leq(res.shortest.steps, res.first.steps);
	sim_explore_result_fini(&res);
	sim_strategy_fini(&s);
}

/*
 * The fix (engine/locked-counter: both steps under one sim_mutex),
 * explored exhaustively by DFS:
 *
 *   P0                          P1
 *   1. lock; v = counter (0)
 *                               2. lock: waits for P0
 *   3. counter = v + 1 (1);
 *      unlock
 *                               4. v = counter (1); counter = v + 1
 *                                  (2); unlock
 * Must hold: counter == 2 at the end of every schedule; the search is
 * complete without hitting a bound.
 * Bug (none in this program: engine/racy-counter, the same without the
 * mutex, is run by the four tests above).
 * Kernel: none (engine test: an unlocked read-modify-write of a shared
 * counter, the lost update).
 */
Test(race, increment_vs_increment__locked_cleared_exhaustively)
{
	struct sim_explore_result res;
	struct sim_strategy s;

	sim_strategy_dfs(&s, -1);
	explore(&wpsim_locked_counter, &s, false, &res);
	cr_assert(res.complete);
	cr_assert(!res.bound_hit);
	cr_assert_eq(res.failures, 0, "%s", res.first.outcome.message);
	cr_assert_gt(res.executions, 2);
	sim_explore_result_fini(&res);
	sim_strategy_fini(&s);
}

Test(dfs, preemption_bound_zero_misses_then_one_finds)
{
	struct sim_explore_result res;
	struct sim_strategy s;

	sim_strategy_dfs(&s, 0);
	explore(&wpsim_racy_counter, &s, true, &res);
	cr_assert_eq(res.failures, 0);
	cr_assert(res.complete && res.bound_hit);
	sim_explore_result_fini(&res);
	sim_strategy_fini(&s);

	sim_strategy_dfs(&s, 1);
	explore(&wpsim_racy_counter, &s, true, &res);
	cr_assert_eq(res.failures, 1);
	cr_assert_eq(sim_schedule_preemptions(res.first.choices,
		     res.first.enabled, res.first.steps), 1);
	sim_explore_result_fini(&res);
	sim_strategy_fini(&s);
}

Test(dfs, counts_every_interleaving_of_independent_tasks)
{
	struct sim_explore_result res;
	struct sim_strategy s;

	sim_strategy_dfs(&s, -1);
	explore(&wpsim_independent_3, &s, false, &res);
	/* Three tasks of three steps: 9! / (3! 3! 3!) = 1680. */
	cr_assert_eq(res.executions, 1680);
	cr_assert(res.complete);
	sim_explore_result_fini(&res);
	sim_strategy_fini(&s);
}

Test(replay, witness_replays_to_the_same_event_log)
{
	struct sim_explore_result res;
	struct sim_exec_options exec = { .keep_log = true };
	struct sim_strategy s;
	struct sim_outcome o;
	const struct sim_event *events;
	struct sim_event first_log[64];
	uint32_t n, m;

	sim_strategy_random(&s, 3, 1000);
	explore(&wpsim_racy_counter, &s, true, &res);
	cr_assert_eq(res.failures, 1);
	sim_replay(&wpsim_racy_counter, res.first.schedule, &exec, &o);
	n = sim_exec_events(&events);
	cr_assert_leq(n, 64);
	memcpy(first_log, events, n * sizeof(*events));
	cr_assert_eq(o.kind, res.first.outcome.kind);
	cr_assert_eq(o.log_hash, res.first.outcome.log_hash);
	sim_replay(&wpsim_racy_counter, res.first.schedule, &exec, &o);
	m = sim_exec_events(&events);
	cr_assert_eq(m, n);
	cr_assert(memcmp(first_log, events, n * sizeof(*events)) == 0);
	sim_explore_result_fini(&res);
}

Test(replay, schedule_format_and_parse_round_trip)
{
	uint16_t choices[] = { 0, 0, 0, 0, 1, 1, 0, 2, 2, 2 };
	uint64_t enabled[10];
	uint16_t parsed[32];
	uint32_t count;
	const char *err;
	char text[64];

	for (int i = 0; i < 10; i++)
		enabled[i] = 7;
	sim_schedule_format(text, sizeof(text), choices, enabled, 10);
	/* Trailing default choices are trimmed: 2 continues itself. */
	cr_assert_str_eq(text, "0*4.1.1.0.2");
	cr_assert_eq(sim_schedule_parse(text, parsed, 32, &count, &err), 0);
	cr_assert_eq(count, 8);
	for (int i = 0; i < 8; i++)
		cr_assert_eq(parsed[i], choices[i]);
	cr_assert_neq(sim_schedule_parse("0.x", parsed, 32, &count, &err), 0);
	cr_assert_eq(err - "0.x", 0 + 2);
	/* Decimal runs, a leading zero included (strtoul): 1, 1, 0*3. */
	cr_assert_eq(sim_schedule_parse("1*02.0*3", parsed, 32, &count, &err),
		     0);
	cr_assert_eq(count, 5);
	cr_assert(parsed[0] == 1 && parsed[1] == 1 && parsed[2] == 0 &&
		  parsed[4] == 0);
	/* A run that is not a number is refused at the character after *. */
	cr_assert_neq(sim_schedule_parse("1*x", parsed, 32, &count, &err), 0);
	cr_assert_eq(err - "1*x", 2);
}

Test(replay, schedule_naming_a_disabled_task_diverges)
{
	struct sim_exec_options exec = { 0 };
	struct sim_outcome o;

	/* Task 5 does not exist. */
	sim_replay(&wpsim_racy_counter, "0.5", &exec, &o);
	cr_assert_eq(o.kind, SIM_FAIL_DIVERGED);
	cr_assert(strstr(o.message, "step 1"), "%s", o.message);
}
