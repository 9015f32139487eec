// SPDX-License-Identifier: MIT
/*
 * tests/engine/test_wake_preempt_none.c - wake-up preemption under
 * wake_preempt_mode 1 (SIM_WAKE_PREEMPT_NONE): the holder gives its CPU
 * up only at a point it marked with sim_preempt_point() (the model's
 * return to user space and cond_resched() sites) or when it sleeps
 * (sim/engine.c wake_preemptors; docs/timed-mode.md "Wake-up preemption",
 * "preempt=none").
 *
 * The program: two CPUs (one in the solo test), two busy tasks A and B,
 * each five "syscalls" of four steps of 1 000 ns (every step ends at a
 * multiple of 1 000 ns: their scheduling points), spawned at 0 by a task
 * W that then sleeps; an event at 4 500 ns wakes W, which spends 100 ns
 * and exits.  Each syscall ends with sim_preempt_point() (its return to
 * user space), so the points at 4 000, 8 000, ... are marked.  Costs are
 * zero but what the tasks spend; the slice is 1 s, so no slice ends.
 *
 *   1. A and B run [0, 1 000) [1 000, 2 000) ... one on each CPU; W
 *      blocks at 0.
 *   2. 4 500: the event wakes W; both CPUs are busy until 5 000, a point
 *      inside the holders' second syscall (not marked).
 *   3. Mode 0 (full): the holder of the CPU W would take yields at 5 000.
 *      Mode 1 (none): it goes on to 6 000, 7 000 (unmarked) and yields at
 *      8 000, its return to user space: W starts at 8 000.
 *   4. Variants: a mark in the middle of each syscall too (a cond_resched
 *      after its second step: the points at 4k + 2 000 are marked): W at
 *      6 000; the holders nap (sim_sleep_until, 500 ns) at that point
 *      instead: W at 6 000 as well (a sleeping holder leaves its CPU).
 *
 * What must hold: W's first step after its wake at 5 000 (mode 0), 8 000
 * (mode 1), 6 000 (mode 1 with the mid-syscall mark or the nap); with
 * the rule off (wake_preempt_ns 0) the mode and the marks change no
 * step: the schedule is the rule-off one, W at 20 000; a mark is used
 * once: one CPU, A alone marked at 4 000, runs its next steps as solo
 * steps (nothing else ready), and W woken at 4 500 waits for A's next
 * mark at 8 000 whether solo steps are on or off (a mark a solo step
 * did not clear would let W in at 5 000); a mode-1 run with three
 * preemptions replays with its times and event-log hash.  What a bug
 * looks like: W at 5 000 under mode 1 (the owner demoted mid-syscall),
 * W at 20 000 (the mark never honoured).  Kernel: kernel/sched/core.c
 * (__resched_curr sets TIF_NEED_RESCHED; under preempt=none
 * preempt_schedule and irqentry_exit_cond_resched are NOPs and
 * cond_resched is __cond_resched) and kernel/entry/common.c
 * exit_to_user_mode_loop (schedule() on NEED_RESCHED), v6.18.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "sim/arena.h"
#include "sim/clock.h"
#include "sim/engine.h"
#include "sim/explore.h"
#include "sim/shared.h"
#include "sim/strategy.h"

#include "timed-replay.h"

struct world {
	struct sim_waitq wq;
	struct sim_word words[3];
};

static struct world *g_w;
static int g_wakes = 1;		/* events, 4 000 ns apart (replay test) */
static uint64_t g_w_at[8];	/* W's first step after each wake */
static int g_w_runs;
static int g_a, g_b;
static bool g_one;		/* only A (the one-CPU solo test) */
static bool g_mid_mark;		/* a cond_resched mark mid-syscall too */
static bool g_mid_nap;		/* a nap mid-syscall instead */
static bool g_tick;		/* an event at 3 000 (the solo test) */

static void busy(void *arg)
{
	long me = (long)arg;

	for (int s = 0; s < 5; s++)
		for (int i = 0; i < 4; i++) {
			sim_word_add_nr(&g_w->words[me], 1);	/* a point */
			sim_cpu_spend(1000);
			if (i == 1 && g_mid_mark)
				sim_preempt_point();	/* cond_resched */
			if (i == 1 && g_mid_nap && s == 1)
				sim_sleep_until(sim_now() + 500);
			if (i == 3)
				sim_preempt_point();	/* return to user */
		}
}

static void sleeper(void *arg)
{
	(void)arg;
	g_a = sim_task_spawn("A", busy, (void *)0L);
	g_b = g_one ? -1 : sim_task_spawn("B", busy, (void *)1L);
	for (int i = 0; i < g_wakes; i++) {
		sim_waitq_sleep(&g_w->wq);
		sim_word_add_nr(&g_w->words[2], 1);	/* its first step */
		if (g_w_runs < 8)
			g_w_at[g_w_runs] = sim_now();
		g_w_runs++;
		sim_cpu_spend(100);
	}
}

static void waker(void *arg)
{
	(void)arg;
	sim_waitq_wake_one(&g_w->wq);
}

static void nothing(void *arg)
{
	(void)arg;
}

static void setup(void *config)
{
	(void)config;
	g_w = sim_arena_alloc(sizeof(*g_w));
	sim_waitq_init(&g_w->wq, "wq");
	for (int i = 0; i < 3; i++)
		sim_word_init(&g_w->words[i], 0, "w%d", i);
	sim_task_spawn("W", sleeper, NULL);
	/* The solo test: an event at A's point at 3 000, so that A's next
	 * step is picked and the one from 4 000 is the first solo step
	 * after it (solo_next's own test: step_solo, step_begin_solo;
	 * without it, the kept answer's: solo_fast or solo_lean, solo_go). */
	if (g_tick)
		sim_event_post_at("tick", nothing, NULL, 3000);
	for (int i = 0; i < g_wakes; i++)
		sim_event_post_at("wake", waker, NULL,
				  4500 + 4000 * (uint64_t)i);
}

static const struct sim_program program = { .name = "t/wake-preempt-none",
					    .setup = setup };

static void configure(unsigned int cpus, uint64_t wake_preempt_ns,
		      uint64_t mode)
{
	struct sim_clock_config c = { .cpus = cpus };

	c.costs.sched_slice_ns = 1000000000;
	c.costs.wake_preempt_ns = wake_preempt_ns;
	c.costs.wake_preempt_mode = mode;
	cr_assert_eq(sim_clock_configure(&c), 0);
}

static void restore(void)
{
	struct sim_clock_config c = { .cpus = 1,
				      .costs = sim_cpu_costs_default };

	sim_clock_configure(&c);
	sim_exec_timed_solo(true);
	g_wakes = 1;
	g_one = false;
	g_mid_mark = false;
	g_mid_nap = false;
	g_tick = false;
}

static void run_timed(uint64_t seed, struct sim_outcome *o)
{
	struct sim_exec_options exec = { .keep_log = true,
					 .steps_max = SIM_STEPS_LIMIT };
	struct sim_strategy s;

	g_w_runs = 0;
	memset(g_w_at, 0, sizeof(g_w_at));
	sim_strategy_timed(&s, seed, 1);
	sim_exec_run(&program, &s, &exec, o);
	sim_strategy_fini(&s);
	cr_assert_eq(o->kind, SIM_OK, "%s", o->message);
}

Test(wake_preempt_none, full_at_the_next_point_none_at_the_return_to_user)
{
	struct sim_outcome o;

	for (uint64_t seed = 1; seed <= 4; seed++) {
		configure(2, 1, SIM_WAKE_PREEMPT_FULL);
		run_timed(seed, &o);
		cr_assert_eq(g_w_at[0], 5000, "seed %lu", (unsigned long)seed);
		configure(2, 1, SIM_WAKE_PREEMPT_NONE);
		run_timed(seed, &o);
		cr_assert_eq(g_w_runs, 1);
		/* Not at 5 000, 6 000, 7 000: inside the second syscall. */
		cr_assert_eq(g_w_at[0], 8000, "seed %lu", (unsigned long)seed);
		/* The holder lost W's 100 ns, the other nothing. */
		cr_assert_eq(sim_task_now(g_a) + sim_task_now(g_b), 40100);
		cr_assert_geq(o.preemptions, 1);
	}
	restore();
}

Test(wake_preempt_none, at_a_cond_resched_point)
{
	struct sim_outcome o;

	g_mid_mark = true;
	for (uint64_t seed = 1; seed <= 4; seed++) {
		configure(2, 1, SIM_WAKE_PREEMPT_NONE);
		run_timed(seed, &o);
		cr_assert_eq(g_w_at[0], 6000, "seed %lu", (unsigned long)seed);
		cr_assert_eq(sim_task_now(g_a) + sim_task_now(g_b), 40100);
	}
	restore();
}

Test(wake_preempt_none, at_a_sleep)
{
	struct sim_outcome o;

	g_mid_nap = true;
	for (uint64_t seed = 1; seed <= 4; seed++) {
		configure(2, 1, SIM_WAKE_PREEMPT_NONE);
		run_timed(seed, &o);
		cr_assert_eq(g_w_at[0], 6000, "seed %lu", (unsigned long)seed);
	}
	restore();
}

Test(wake_preempt_none, the_rule_off_the_mode_and_marks_change_nothing)
{
	struct sim_outcome o;
	char *full, *none;

	for (int mid = 0; mid <= 1; mid++) {
		g_mid_mark = mid;
		configure(2, 0, SIM_WAKE_PREEMPT_FULL);
		run_timed(7, &o);
		cr_assert_eq(g_w_at[0], 20000);
		full = sim_exec_schedule_string();
		configure(2, 0, SIM_WAKE_PREEMPT_NONE);
		run_timed(7, &o);
		cr_assert_eq(g_w_at[0], 20000);
		none = sim_exec_schedule_string();
		cr_assert_str_eq(none, full);
		free(full);
		free(none);
	}
	restore();
}

/*
 * One CPU, A alone (W asleep, the wake-up event ready at 4 500): A's
 * step from its marked point at 4 000 is a solo step (nothing else ready
 * by 4 000): the kept answer's fast path (solo_go) or, with an event at
 * 3 000 that makes it the first solo step after a pick, solo_next's own
 * test (step_solo, step_begin_solo).  The mark was used by the step from
 * 4 000: at 5 000 A is mid-syscall again, and W waits for 8 000.
 */
Test(wake_preempt_none, a_mark_is_used_by_the_next_step_solo_or_not)
{
	struct sim_outcome o;

	g_one = true;
	for (int tick = 0; tick <= 1; tick++)
		for (int solo = 0; solo <= 1; solo++) {
			g_tick = tick;
			sim_exec_timed_solo(solo);
			configure(1, 1, SIM_WAKE_PREEMPT_NONE);
			run_timed(3, &o);
			cr_assert_eq(g_w_at[0], 8000, "tick %d solo %d", tick,
				     solo);
			cr_assert_eq(sim_task_now(g_a), 20100, "tick %d solo %d",
				     tick, solo);
			if (solo)
				cr_assert_gt(sim_exec_timed_solo_steps(), 0);
		}
	restore();
}

Test(wake_preempt_none, a_run_replays_with_its_times)
{
	struct sim_exec_options exec = { .keep_log = true,
					 .steps_max = SIM_STEPS_LIMIT };
	struct sim_outcome o;

	/* Wake-ups at 4 500, 8 500, 12 500 (a fourth, at 16 500, would find
	 * the holders' next return to user space at their exit: a free CPU,
	 * no preemption). */
	g_wakes = 3;
	configure(2, 1, SIM_WAKE_PREEMPT_NONE);
	run_timed(9, &o);
	cr_assert_eq(g_w_runs, 3);
	/* Each at the holder's next return to user space (every 4 000 ns,
	 * moved by the 100 ns W took from it before). */
	for (int i = 0; i < 3; i++) {
		uint64_t woke = 4500 + 4000 * (uint64_t)i;

		cr_assert_geq(g_w_at[i], woke + 3500, "wake %d: %lu", i,
			      (unsigned long)g_w_at[i]);
		cr_assert_leq(g_w_at[i], woke + 3500 + 100 * (uint64_t)i,
			      "wake %d: %lu", i, (unsigned long)g_w_at[i]);
	}
	cr_assert_eq(sim_task_now(g_a) + sim_task_now(g_b), 40000 + 3 * 100);
	assert_timed_replay(&program, &exec, &o);
	restore();
}
