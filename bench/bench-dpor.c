// SPDX-License-Identifier: MIT
/*
 * bench/bench-dpor.c - DFS against DPOR on programs of 2 to 5 tasks:
 * executions and time to cover each program's whole space (DFS stops at
 * a cap and says so), and DPOR's complete executions per second per core.
 * The baseline in the same run is DFS on the same program.  Never fails
 * on timing.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench-common.h"
#include "sim/arena.h"
#include "sim/explore.h"
#include "sim/shared.h"
#include "tools/programs/programs.h"

#define DFS_CAP 2000000

/* N tasks, each: lock, two adds on a shared counter, unlock, own rmw. */
struct nstate {
	struct sim_spinlock lock;
	struct sim_word shared, own[5];
	int tasks;
};

static struct nstate *ns;

static void n_task(void *arg)
{
	struct sim_word *own = arg;

	sim_spin_lock(&ns->lock);
	sim_word_add(&ns->shared, 1);
	sim_spin_unlock(&ns->lock);
	sim_word_write(own, sim_word_read(own) + 1);
	sim_word_add_nr(&ns->shared, 1);
}

static void n_setup(void *config)
{
	static const char *const names[] = { "P0", "P1", "P2", "P3", "P4" };

	ns = sim_arena_alloc(sizeof(*ns));
	ns->tasks = *(int *)config;
	sim_spin_init(&ns->lock, "lock");
	sim_word_init(&ns->shared, 0, "shared");
	for (int i = 0; i < ns->tasks; i++) {
		sim_word_init(&ns->own[i], 0, "own%d", i);
		sim_task_spawn(names[i], n_task, &ns->own[i]);
	}
}

static int tasks_2 = 2, tasks_3 = 3, tasks_4 = 4, tasks_5 = 5;

/*
 * conflict-3x10: three tasks of ten atomic adds to one word whose result
 * is read (atomic_add_return): every order is its own trace, so DPOR's
 * space is as large as DFS's and the run measures DPOR's cost per
 * execution (~33 steps) rather than its reduction.  Capped.
 */
static struct sim_word *conflict_word;

static void conflict_task(void *arg)
{
	(void)arg;
	for (int i = 0; i < 10; i++)
		sim_word_add(conflict_word, 1);
}

static void conflict_setup(void *config)
{
	(void)config;
	conflict_word = sim_arena_alloc(sizeof(*conflict_word));
	sim_word_init(conflict_word, 0, "x");
	sim_task_spawn("P0", conflict_task, NULL);
	sim_task_spawn("P1", conflict_task, NULL);
	sim_task_spawn("P2", conflict_task, NULL);
}

static void measure(const struct sim_program *p, bool dpor)
{
	struct sim_explore_options opt = { .executions_max = DFS_CAP };
	const char *env = getenv("WPSIM_BENCH_CAP");

	if (env)
		opt.executions_max = strtoull(env, NULL, 10);
	struct sim_explore_result res;
	struct sim_strategy s;
	uint64_t t0, steps_total;
	double secs;

	if (dpor)
		sim_strategy_dpor(&s);
	else
		sim_strategy_dfs(&s, -1);
	t0 = bench_now_ns();
	sim_explore(p, &s, &opt, &res);
	secs = (double)(bench_now_ns() - t0) / 1e9;
	{
		const uint16_t *c;

		steps_total = sim_exec_schedule(&c);
	}
	printf("  %-4s %10" PRIu64 "%s executions (+%" PRIu64 " redundant), "
	       "%7.3f s, %9.0f executions/s, ~%" PRIu64 " steps each\n",
	       dpor ? "dpor" : "dfs", res.executions,
	       res.complete ? " " : "+", res.pruned, secs,
	       (double)res.executions / secs, steps_total);
	sim_explore_result_fini(&res);
	sim_strategy_fini(&s);
}

int main(void)
{
	const struct sim_program progs[] = {
		{ .name = "lock-add-2", .setup = n_setup, .config = &tasks_2 },
		{ .name = "lock-add-3", .setup = n_setup, .config = &tasks_3 },
		{ .name = "lock-add-4", .setup = n_setup, .config = &tasks_4 },
		{ .name = "lock-add-5", .setup = n_setup, .config = &tasks_5 },
		wpsim_racy_counter, wpsim_spin_counter, wpsim_bench_3x10,
		wpsim_independent_3,
		{ .name = "conflict-3x10", .setup = conflict_setup },
	};

	bench_print_machine();
	printf("bench-dpor: DFS capped at %d executions ('+' = stopped)\n",
	       DFS_CAP);
	for (unsigned int i = 0; i < sizeof(progs) / sizeof(progs[0]); i++) {
		printf("%s:\n", progs[i].name);
		measure(&progs[i], false);
		measure(&progs[i], true);
	}
	return 0;
}
