// SPDX-License-Identifier: MIT
/*
 * bench/bench-exec.c - complete executions per second of a synthetic
 * three-task program of about thirty scheduling points
 * (engine/bench-3x10), under DFS and under random, for each arena
 * backend built in.  The baseline in the same run is the cost of one
 * execution with a single task doing the same thirty points, so the
 * ratio shows what scheduling choices add.
 */
#include <inttypes.h>
#include <stdio.h>

#include "bench-common.h"
#include "sim/arena.h"
#include "sim/explore.h"
#include "tools/programs/programs.h"

#define RANDOM_EXECUTIONS	200000
#define DFS_EXECUTIONS		200000

static double measure(const struct sim_program *p, struct sim_strategy *s,
		      uint64_t max, uint64_t *executions, double *steps)
{
	struct sim_explore_options opt = { .executions_max = max };
	struct sim_explore_result res;
	uint64_t t0 = bench_now_ns();
	double secs;

	sim_explore(p, s, &opt, &res);
	secs = (double)(bench_now_ns() - t0) / 1e9;
	*executions = res.executions;
	*steps = 0;
	{
		const uint16_t *c;

		*steps = sim_exec_schedule(&c);
	}
	sim_explore_result_fini(&res);
	return (double)res.executions / secs;
}

int main(void)
{
	enum sim_arena_backend backends[] = { SIM_ARENA_BUMP,
					      SIM_ARENA_JEMALLOC };

	bench_print_machine();
	for (unsigned int b = 0; b < 2; b++) {
		struct sim_strategy s;
		uint64_t n;
		double rate, steps;

		if (!sim_arena_select(backends[b]))
			continue;
		printf("bench-exec: %s, arena %s\n", wpsim_bench_3x10.name,
		       sim_arena_backend_name(backends[b]));
		sim_strategy_dfs(&s, -1);
		rate = measure(&wpsim_bench_3x10, &s, DFS_EXECUTIONS, &n,
			       &steps);
		printf("  dfs     %9" PRIu64 " executions%s, %5.0f steps "
		       "each, %10.0f executions/s, %6.2f Msteps/s\n", n,
		       s.complete ? " (all)" : "", steps, rate,
		       rate * steps / 1e6);
		sim_strategy_fini(&s);
		sim_strategy_random(&s, 1, RANDOM_EXECUTIONS);
		rate = measure(&wpsim_bench_3x10, &s, 0, &n, &steps);
		printf("  random  %9" PRIu64 " executions, %5.0f steps each, "
		       "%10.0f executions/s, %6.2f Msteps/s\n", n, steps, rate,
		       rate * steps / 1e6);
	}
	sim_arena_select(SIM_ARENA_BUMP);
	return 0;
}
