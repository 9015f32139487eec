// SPDX-License-Identifier: MIT
/*
 * sim/timed.c - the timed strategy: virtual time decides who runs next.
 *
 * Models: nothing of the kernel; a discrete-event simulation on top of
 * the controlled scheduler.  At every step it runs the enabled task or
 * event whose step would start first (sim_task_start_ns: max(its ready
 * time, when a CPU is free); an event at its posted time).  Start times
 * never go down from one step to the next: ready times and busy-until
 * times only grow, and a task woken or spawned is ready no earlier than
 * its waker's now.  Among equal start times: rank 0 first (an event, or
 * a task that keeps the CPU it holds within its slice), then rank 1 (any
 * other task), then rank 2 (a task whose slice is used up), and within a
 * rank one drawn from a splitmix64 generator seeded per execution (a
 * reservoir over the ties in id order: the i-th, i >= 1, takes the pick
 * when a draw modulo i + 1 is 0; no draw for a single candidate).  The
 * engine keeps the enabled tasks and events in heaps by ready time
 * (sim_exec_timed_pick), so a choice costs O(log n + CPUs + ties), not
 * a scan of every task.  So a
 * timed run is one ordinary schedule: `wpsim run --schedule` replays it
 * step for step, with the same timestamps (the clock is kept under every
 * strategy) and the same event-log hash.
 *
 * Wake-up preemption (2026-12-07, session 24; off while the CPU
 * profile's wake_preempt_ns is 0, as before): a task woken or spawned
 * after the slice of a CPU's owner began, that has run no step since,
 * and that would start on that CPU (no idle CPU beside) when the owner
 * reaches its next scheduling point, takes rank 0 there and the owner
 * rank 2, once the owner has held the CPU wake_preempt_ns of its slice.
 * Only ranks among equal start times change, so start times still never
 * go down and the run is still one ordinary schedule; the rule needs a
 * second task ready by the owner's start, so a solo step (the owner alone
 * ready by then) is never one it changes.  docs/timed-mode.md
 * "Wake-up preemption" has the kernel's rule (kernel/sched/fair.c
 * check_preempt_wakeup_fair, v6.18) and what this one leaves out.
 * With the profile's wake_preempt_mode 1 (session 25: preempt=none) the
 * owner yields so only at a point it marked (sim_preempt_point: the
 * model's return to user space and cond_resched() sites), or by
 * sleeping; the woken task waits for that point: fewer demotions than
 * mode 0, so the invariants above hold as they are.
 *
 * Leaves out: the kernel's fair scheduler (vruntime, lag, weights, load
 * balancing); a task keeps its CPU for a slice, then yields it to a
 * waiting task at its next step, and a step is never cut: a preempted
 * task yields at its next scheduling point.
 */
#include "sim/clock.h"
#include "sim/strategy.h"

#include <string.h>

static void timed_begin(struct sim_strategy *s)
{
	s->rng = s->exec_seed;
}

static int timed_choose(struct sim_strategy *s, const struct sim_choice *c)
{
	(void)c;
	return sim_exec_timed_pick(&s->rng);
}

static bool timed_next(struct sim_strategy *s, const struct sim_outcome *o)
{
	(void)o;
	s->executions++;
	if (s->executions >= s->executions_max)
		return false;	/* a sample of schedules, never complete */
	s->exec_seed = sim_rng_next(&s->exec_seed);
	return true;
}

static const struct sim_strategy_ops timed_ops = {
	.name = "timed",
	.begin = timed_begin,
	.choose = timed_choose,
	.next = timed_next,
};

void sim_strategy_timed(struct sim_strategy *s, uint64_t seed,
			uint64_t executions)
{
	memset(s, 0, sizeof(*s));
	s->ops = &timed_ops;
	s->kind = SIM_STRATEGY_TIMED;
	s->seed = seed;
	s->exec_seed = seed;
	s->executions_max = executions ? executions : 1;
}
