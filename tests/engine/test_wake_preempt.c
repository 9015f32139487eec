// SPDX-License-Identifier: MIT
/*
 * tests/engine/test_wake_preempt.c - the timed strategy's wake-up
 * preemption (sim/timed.c, sim/engine.c wake_preemptors; the CPU
 * profile's wake_preempt_ns; docs/timed-mode.md "Wake-up preemption").
 *
 * The program: two CPUs, two busy tasks A and B of 20 steps of 1 000 ns
 * each (every step ends at a multiple of 1 000 ns: their scheduling
 * points), spawned at 0 by a task W that then sleeps; an event at
 * 4 500 ns wakes W (or, the spawn variant, spawns a new W), which then
 * spends 100 ns and exits.  Costs are zero but what the tasks spend; the slice is 2 s, so
 * no slice ends in the run.
 *
 *   1. A runs [0, 1000) [1000, 2000) ... on one CPU, B the same on the
 *      other; W blocks at 0.
 *   2. 4 500: the event wakes W; both CPUs are busy until 5 000.
 *   3. 5 000: A's and B's next points.  Rule off (wake_preempt_ns 0):
 *      both keep their CPUs for their slice, W waits for the first CPU
 *      free, at 20 000.  Rule on (1 ns): the holder of the CPU W would
 *      take yields at this point: W starts at 5 000, the holder goes on
 *      at 5 100 on the CPU W left, the other at 5 000 as before.
 *
 * What must hold: W's first step after its wake starts at 5 000 with
 * the rule on and at 20 000 with it off; with wake_preempt_ns 10 000 at
 * 10 000 (the first point at which the holder has held its CPU that
 * long); with a third, idle CPU at 4 500 on it, rule on or off, A and B
 * untouched; a task that was waiting before the holder's slice began
 * (spawned by setup, on one CPU) never preempts: the schedule is the
 * rule-off one.  A timed run with the rule on replays (wpsim run
 * --schedule) with the same event-log hash and step times.  What a bug
 * looks like: W at 20 000 with the rule on (the rule never fires), or
 * at 5 000 when the holder has held its CPU less than wake_preempt_ns,
 * or A/B delayed when an idle CPU was there.  Kernel: kernel/sched/
 * fair.c check_preempt_wakeup_fair, v6.18 (a woken task with positive
 * lag makes the running one ineligible and preempts it).
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "sim/arena.h"
#include "sim/clock.h"
#include "sim/explore.h"
#include "sim/shared.h"
#include "sim/strategy.h"

#include "timed-replay.h"

struct world {
	struct sim_waitq wq;
	struct sim_word words[3];
};

static struct world *g_w;
static bool g_spawn;		/* the event spawns W instead of waking it */
static int g_wakes = 1;		/* events, 3 000 ns apart (replay test) */
static uint64_t g_w_at[8];	/* W's first step after each wake */
static int g_w_runs;
static int g_w_cpu;
static int g_a, g_b;		/* A's and B's task ids */
static uint64_t g_wake_at = 4500;	/* the first wake-up */
static bool g_exiter;		/* W also spawns D: one step, gone at 3 000 */
static int g_busy_cpu[2];	/* A's and B's CPU at their first step */
static bool g_moved;		/* A or B changed CPU */
static int g_w_sleep_cpu;	/* W's CPU when it went to sleep */
static bool g_nap;		/* W naps (sim_sleep_until) after its run */
static uint64_t g_nap_at;	/* W's first step after the nap */

static void busy(void *arg)
{
	long me = (long)arg;

	for (int i = 0; i < 20; i++) {
		sim_word_add_nr(&g_w->words[me], 1);	/* a point */
		if (i == 0)
			g_busy_cpu[me] = sim_cpu_current();
		else if (sim_cpu_current() != g_busy_cpu[me])
			g_moved = true;
		sim_cpu_spend(1000);
	}
}

static void exiter(void *arg)
{
	(void)arg;
	sim_cpu_spend(3000);
}

static void w_body(void)
{
	if (g_w_runs < 8)
		g_w_at[g_w_runs] = sim_now();
	g_w_runs++;
	g_w_cpu = sim_cpu_current();
	sim_cpu_spend(100);
}

/* W: spawns A and B at 0, then is W (the wake
 * variant) or exits (the spawn variant), so that W sleeps before the
 * first wake-up whatever the draws at 0. */
static void sleeper(void *arg)
{
	(void)arg;
	g_a = sim_task_spawn("A", busy, (void *)0L);
	g_b = sim_task_spawn("B", busy, (void *)1L);
	if (g_exiter)
		sim_task_spawn("D", exiter, NULL);
	if (g_spawn)
		return;
	for (int i = 0; i < g_wakes; i++) {
		g_w_sleep_cpu = sim_cpu_current();
		sim_waitq_sleep(&g_w->wq);
		sim_word_add_nr(&g_w->words[2], 1);	/* its first step */
		w_body();
		if (g_nap) {
			sim_sleep_until(sim_now() + 500);
			sim_word_add_nr(&g_w->words[2], 1);
			g_nap_at = sim_now();
		}
	}
}

static void spawned(void *arg)
{
	(void)arg;
	sim_word_add_nr(&g_w->words[2], 1);
	w_body();
}

static void waker(void *arg)
{
	(void)arg;
	if (g_spawn)
		sim_task_spawn("W", spawned, NULL);
	else
		sim_waitq_wake_one(&g_w->wq);
}

static void setup(void *config)
{
	(void)config;
	g_w = sim_arena_alloc(sizeof(*g_w));
	sim_waitq_init(&g_w->wq, "wq");
	for (int i = 0; i < 3; i++)
		sim_word_init(&g_w->words[i], 0, "w%d", i);
	sim_task_spawn("W", sleeper, NULL);
	for (int i = 0; i < g_wakes; i++)
		sim_event_post_at("wake", waker, NULL,
				  g_wake_at + 3000 * (uint64_t)i);
}

static const struct sim_program program = { .name = "t/wake-preempt",
					    .setup = setup };

static void configure(unsigned int cpus, uint64_t wake_preempt_ns)
{
	struct sim_clock_config c = { .cpus = cpus };

	c.costs.sched_slice_ns = 1000000000;
	c.costs.wake_preempt_ns = wake_preempt_ns;
	cr_assert_eq(sim_clock_configure(&c), 0);
}

static void restore(void)
{
	struct sim_clock_config c = { .cpus = 1,
				      .costs = sim_cpu_costs_default };

	sim_clock_configure(&c);
	g_spawn = false;
	g_wakes = 1;
	g_wake_at = 4500;
	g_exiter = false;
	g_nap = false;
}

static void run_timed(uint64_t seed, struct sim_outcome *o)
{
	struct sim_exec_options exec = { .keep_log = true,
					 .steps_max = SIM_STEPS_LIMIT };
	struct sim_strategy s;

	g_w_runs = 0;
	g_w_cpu = -1;
	g_moved = false;
	memset(g_w_at, 0, sizeof(g_w_at));
	sim_strategy_timed(&s, seed, 1);
	sim_exec_run(&program, &s, &exec, o);
	sim_strategy_fini(&s);
	cr_assert_eq(o->kind, SIM_OK, "%s", o->message);
}

/* A's and B's ends: the later is 20 000 + what W took from its CPU. */
static uint64_t later_busy_end(void)
{
	uint64_t a = sim_task_now(g_a), b = sim_task_now(g_b);

	return a > b ? a : b;
}

Test(wake_preempt, off_the_woken_task_waits_for_a_free_cpu)
{
	struct sim_outcome o;

	for (uint64_t seed = 1; seed <= 4; seed++) {
		configure(2, 0);
		run_timed(seed, &o);
		cr_assert_eq(g_w_runs, 1);
		cr_assert_eq(g_w_at[0], 20000, "seed %lu", (unsigned long)seed);
		cr_assert_eq(sim_task_now(g_a), 20000);
		cr_assert_eq(sim_task_now(g_b), 20000);
	}
	restore();
}

Test(wake_preempt, on_the_woken_task_runs_at_the_holders_next_point)
{
	struct sim_outcome o;

	for (int spawn = 0; spawn <= 1; spawn++)
		for (uint64_t seed = 1; seed <= 4; seed++) {
			g_spawn = spawn;
			configure(2, 1);
			run_timed(seed, &o);
			cr_assert_eq(g_w_runs, 1);
			/* 4 500 is inside a step: the next point is 5 000. */
			cr_assert_eq(g_w_at[0], 5000, "spawn %d seed %lu",
				     spawn, (unsigned long)seed);
			/* The holder lost W's 100 ns, the other nothing. */
			cr_assert_eq(later_busy_end(), 20100);
			cr_assert_eq(sim_task_now(g_a) + sim_task_now(g_b),
				     40100);
			cr_assert_geq(o.preemptions, 1);
		}
	restore();
}

Test(wake_preempt, not_before_the_holder_held_its_cpu_wake_preempt_ns)
{
	struct sim_outcome o;

	/* Held since 0: at 5 000 for 5 000 ns, at 10 000 for 10 000. */
	configure(2, 10000);
	run_timed(3, &o);
	cr_assert_eq(g_w_at[0], 10000);
	cr_assert_eq(later_busy_end(), 20100);
	/* Past the slice's worth: never (the slice ends first). */
	configure(2, 3000000000ULL);
	run_timed(3, &o);
	cr_assert_eq(g_w_at[0], 20000);
	restore();
}

Test(wake_preempt, not_when_an_idle_cpu_is_there)
{
	struct sim_outcome o;

	for (uint64_t preempt = 0; preempt <= 1; preempt++) {
		configure(3, preempt);
		run_timed(5, &o);
		cr_assert_eq(g_w_at[0], 4500);
		cr_assert_eq(sim_task_now(g_a), 20000);
		cr_assert_eq(sim_task_now(g_b), 20000);
	}
	restore();
}

/*
 * The same at a point: three CPUs, D (spawned by W after A and B) runs
 * [0, 3 000) and exits, so its CPU is idle from 3 000; W is woken at
 * 5 000, A's and B's point.  Where W went to sleep on the CPU that A or
 * B then took (the draws at 0 decide; some seeds do), W would start
 * there at 5 000 (sim_clock_pick: its own CPU, free by then): with the
 * idle CPU beside, W takes the idle CPU instead and A and B never move.
 */
Test(wake_preempt, not_at_a_point_when_an_idle_cpu_is_there)
{
	struct sim_outcome o;
	int on_busy = 0;

	g_wake_at = 5000;
	g_exiter = true;
	/* W preempts only where the wake-up's event runs at 5 000 before
	 * the holder's step there (a draw among equal starts). */
	for (uint64_t seed = 1; seed <= 40; seed++) {
		configure(3, 1);
		run_timed(seed, &o);
		cr_assert_eq(g_w_at[0], 5000, "seed %lu", (unsigned long)seed);
		cr_assert_not(g_moved, "seed %lu: A or B moved",
			      (unsigned long)seed);
		cr_assert_eq(sim_task_now(g_a), 20000);
		cr_assert_eq(sim_task_now(g_b), 20000);
		on_busy += g_w_sleep_cpu == g_busy_cpu[0] ||
			   g_w_sleep_cpu == g_busy_cpu[1];
	}
	cr_assert_geq(on_busy, 1, "no seed put A or B on W's CPU");
	restore();
}

/*
 * A task that ran since its wake-up is not woken any more: one CPU, W
 * preempts the holder at 5 000, runs to 5 100 and naps to 5 600 (a
 * sleep_until is no wake-up: docs/timed-mode.md "Wake-up preemption"),
 * and the CPU goes to A or B at 5 100, a new slice.  W, ready at 5 600,
 * waits for that slice's end (here: its task's end), not for its next
 * point at 6 100.
 */
Test(wake_preempt, a_task_that_ran_since_its_wake_up_does_not_preempt)
{
	struct sim_outcome o;

	g_nap = true;
	for (uint64_t seed = 1; seed <= 4; seed++) {
		configure(1, 1);
		run_timed(seed, &o);
		cr_assert_eq(g_w_at[0], 5000, "seed %lu", (unsigned long)seed);
		cr_assert_geq(g_nap_at, 15100, "seed %lu: %lu",
			      (unsigned long)seed, (unsigned long)g_nap_at);
	}
	restore();
}

/* ---- a task waiting before the holder's slice began --------------------- */

static void stepper(void *arg)
{
	long me = (long)arg;

	for (int i = 0; i < 30; i++) {
		sim_word_add_nr(&g_w->words[me], 1);
		sim_cpu_spend(100000);
	}
}

static void two_setup(void *config)
{
	(void)config;
	g_w = sim_arena_alloc(sizeof(*g_w));
	sim_word_init(&g_w->words[0], 0, "w0");
	sim_word_init(&g_w->words[1], 0, "w1");
	sim_task_spawn("P0", stepper, (void *)0L);
	sim_task_spawn("P1", stepper, (void *)1L);
}

Test(wake_preempt, a_task_queued_before_the_slice_does_not_preempt)
{
	struct sim_program p = { .name = "t/two", .setup = two_setup };
	struct sim_exec_options exec = { .keep_log = true };
	struct sim_clock_config c = { .cpus = 1 };
	struct sim_strategy s;
	struct sim_outcome o;
	char *off, *on;

	/* One CPU, a 700 us slice, 100 us steps: both spawned at 0; the
	 * one that waits was never woken during the other's slice. */
	c.costs.sched_slice_ns = 700000;
	sim_clock_configure(&c);
	sim_strategy_timed(&s, 11, 1);
	sim_exec_run(&p, &s, &exec, &o);
	sim_strategy_fini(&s);
	cr_assert_eq(o.kind, SIM_OK, "%s", o.message);
	off = sim_exec_schedule_string();
	c.costs.wake_preempt_ns = 1;
	sim_clock_configure(&c);
	sim_strategy_timed(&s, 11, 1);
	sim_exec_run(&p, &s, &exec, &o);
	sim_strategy_fini(&s);
	cr_assert_eq(o.kind, SIM_OK, "%s", o.message);
	on = sim_exec_schedule_string();
	cr_assert_str_eq(on, off);
	/* Runs of 7 or 8 steps, not alternating steps. */
	cr_assert_leq(o.preemptions, 10);
	free(off);
	free(on);
	restore();
}

/* ---- replay -------------------------------------------------------------- */

Test(wake_preempt, a_timed_run_with_the_rule_replays_with_its_times)
{
	struct sim_exec_options exec = { .keep_log = true,
					 .steps_max = SIM_STEPS_LIMIT };
	struct sim_outcome o;

	/* Five wake-ups 3 000 ns apart: each time W preempts a holder at
	 * its next point, within a step of 1 000 ns (each preemption moves
	 * the holder's later points by W's 100 ns). */
	g_wakes = 5;
	configure(2, 1);
	run_timed(9, &o);
	cr_assert_eq(g_w_runs, 5);
	for (int i = 0; i < 5; i++) {
		uint64_t woke = 4500 + 3000 * (uint64_t)i;

		cr_assert_gt(g_w_at[i], woke, "wake %d", i);
		cr_assert_leq(g_w_at[i], woke + 1000, "wake %d", i);
	}
	cr_assert_eq(sim_task_now(g_a) + sim_task_now(g_b), 40000 + 5 * 100);
	assert_timed_replay(&program, &exec, &o);
	restore();
}
