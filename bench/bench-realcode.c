// SPDX-License-Identifier: MIT
/*
 * bench/bench-realcode.c - real lib/xarray.c and kernel/locking/rwsem.c
 * schedules per second under DPOR and PCT (docs/realcode.md,
 * docs/performance.md).  The baseline, measured in the same run: the
 * engine's own engine/bench-3x10 (three tasks of ten points each) under
 * DPOR; each figure is printed with its ratio to it.  Never fails on
 * timing.  Also counts the PCT and random-walk schedules that find the
 * tag walk without xa_lock (the proof of concept's 30 of 2000).
 *
 * Usage: bench-realcode [SCHEDULES] (PCT and random: default 2000)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "realcode/programs.h"
#include "realcode/rt.h"
#include "sim/explore.h"
#include "sim/strategy.h"
#include "tools/programs/programs.h"

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

struct fig {
	uint64_t runs, steps, failing;
	double secs;
};

static uint64_t failing;

static void count_failures(void *ctx, const struct sim_outcome *o)
{
	(void)ctx;
	if (!o->pruned && o->kind != SIM_OK)
		failing++;
}

static struct fig run_once(const struct sim_program *p, const char *strategy,
			   uint64_t n, uint64_t seed, uint32_t depth)
{
	struct sim_strategy s;
	struct sim_explore_options xo = { 0 };
	struct sim_explore_result r;
	struct fig f;
	double t0;

	if (!strcmp(strategy, "dpor"))
		sim_strategy_dpor(&s);
	else if (!strcmp(strategy, "pct"))
		sim_strategy_pct(&s, seed, n, depth);
	else
		sim_strategy_random(&s, seed, n);
	xo.exec.steps_max = 20000;
	xo.on_execution = count_failures;
	failing = 0;
	t0 = now();
	sim_explore(p, &s, &xo, &r);
	f.secs = now() - t0;
	f.runs = r.executions + r.pruned;
	f.steps = r.steps;
	f.failing = failing;
	sim_explore_result_fini(&r);
	sim_strategy_fini(&s);
	return f;
}

/* A small exhaustive search is repeated until 0.5 s have passed, so that
 * its rate is not one search's start-up. */
static struct fig run(const struct sim_program *p, const char *strategy,
		      uint64_t n, uint64_t seed, uint32_t depth)
{
	struct fig f = { 0 };

	do {
		struct fig g = run_once(p, strategy, n, seed, depth);

		f.runs += g.runs;
		f.steps += g.steps;
		f.failing += g.failing;
		f.secs += g.secs;
	} while (!strcmp(strategy, "dpor") && f.secs < 0.5);
	return f;
}

static void print(const char *what, struct fig f, double base)
{
	double rate = f.secs > 0 ? (double)f.runs / f.secs : 0;

	printf("%-44s %8" PRIu64 " schedules %9.0f /s %6.0f steps/sched "
	       "%6.2fx baseline", what, f.runs, rate,
	       f.runs ? (double)f.steps / (double)f.runs : 0,
	       base > 0 ? rate / base : 0);
	if (f.failing)
		printf("  %" PRIu64 " failing", f.failing);
	printf("\n");
}

int main(int argc, char **argv)
{
	uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 2000;
	const struct rc_program *tw = rc_program_find("xa-tagwalk");
	const struct rc_program *nolock = rc_program_find("xa-tagwalk-nolock");
	const struct rc_program *split = rc_program_find("xa-split");
	const struct rc_program *shrink = rc_program_find("xa-shrink");
	const struct rc_program *rw = rc_program_find("rwsem-w_rr");
	struct fig b = run(&wpsim_bench_3x10, "dpor", 0, 0, 0);
	double base = b.secs > 0 ? (double)b.runs / b.secs : 0;
	char label[96];

	printf("bench-realcode: the real lib/xarray.c and rwsem.c "
	       "(docs/realcode.md)\n");
	print("baseline engine/bench-3x10, dpor", b, base);
	print("xa-tagwalk, dpor (exhaustive)", run(&tw->prog, "dpor", 0, 0, 0),
	      base);
	print("xa-split, dpor (exhaustive)", run(&split->prog, "dpor", 0, 0, 0),
	      base);
	print("xa-shrink, dpor (exhaustive)",
	      run(&shrink->prog, "dpor", 0, 0, 0), base);
	if (rw)
		print("rwsem-w_rr, dpor (exhaustive)",
		      run(&rw->prog, "dpor", 0, 0, 0), base);
	for (uint32_t d = 1; d <= 3; d++) {
		snprintf(label, sizeof(label), "xa-tagwalk, pct d=%u", d);
		print(label, run(&tw->prog, "pct", n, 1, d), base);
	}
	/* The proof of concept's bug, found by sampling (PROVE_RCU off, so
	 * that only a corrupted state is caught). */
	rc_prove_rcu = false;
	print("xa-tagwalk-nolock, random", run(&nolock->prog, "random", n, 1, 0),
	      base);
	for (uint32_t d = 1; d <= 3; d++) {
		snprintf(label, sizeof(label), "xa-tagwalk-nolock, pct d=%u", d);
		print(label, run(&nolock->prog, "pct", n, 1, d), base);
	}
	print("xa-tagwalk-nolock, dpor (exhaustive)",
	      run(&nolock->prog, "dpor", 0, 0, 0), base);
	return 0;
}
