/* SPDX-License-Identifier: MIT */
/*
 * sim_clock: virtual time - simulated CPUs, what each step costs, timers.
 *
 * Every execution keeps a clock in nanoseconds, under every strategy, so
 * that a schedule found by `--strategy timed` replays with its timestamps
 * and --explain and Perfetto show virtual time.  The clock never changes
 * which tasks are enabled: under dfs, dpor, random and pct it is only
 * accounting; only the timed strategy (sim_strategy_timed) reads it to
 * choose, always running the task or event with the smallest start time.
 *
 * The time of a step: each task has a ready time (when it can next run),
 * each simulated CPU a busy-until time.  A task's step starts at
 * max(ready, when a CPU is free), costs the figure of the access it makes
 * (struct sim_cpu_costs, one per enum sim_access) plus what the model
 * charges while the step runs (sim_cpu_spend, sim_cpu_copy, ...), and
 * ends when the task reaches its next scheduling point.  An asynchronous
 * event (sim_event_post_at) starts at its posted time, never waits for a
 * CPU, and adds its cost to the CPU it interrupts.  A sleeper wakes at
 * max(its own ready time, the waker's now).  docs/timed-mode.md has the
 * rules, the figures and their sources.
 */
#ifndef WPSIM_SIM_CLOCK_H
#define WPSIM_SIM_CLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/engine.h"

#define SIM_CPUS_MAX		256	/* simulated CPUs (--cpus) */
#define SIM_CPUS_DEFAULT	1

/* The CPU profile's wake_preempt_mode (sim/timed.c, "Wake-up preemption"). */
#define SIM_WAKE_PREEMPT_FULL	0	/* at the owner's next point */
#define SIM_WAKE_PREEMPT_NONE	1	/* at a point it marked: sim_preempt_point */

/*
 * What the machine's work costs, in ns: steps by their access, the
 * scheduler's own work, memory copies.  The defaults
 * (sim_cpu_costs_default) are profiles/cpu/default.cpu, each figure with
 * its source.  The engine knows no kernel operation: what the model's
 * named work costs (a syscall, a bio submission, ...) is the model's
 * table (include/model/cost.h), charged through sim_cpu_spend; the
 * profile file and its parser are the model's too (m_cost_profile_parse).
 */
struct sim_cpu_costs {
	/* A step, by the access it makes (enum sim_access). */
	uint64_t read_ns;		/* READ_ONCE, test_bit */
	uint64_t write_ns;		/* WRITE_ONCE */
	uint64_t rmw_ns;		/* atomic RMW: bitop, xchg, cmpxchg */
	uint64_t add_ns;		/* atomic add, result unread */
	uint64_t acquire_ns;		/* lock taken, uncontended */
	uint64_t contended_ns;		/* trylock failed, lock found held */
	uint64_t release_ns;		/* lock released */
	uint64_t acquire_shared_ns;	/* down_read */
	uint64_t release_shared_ns;	/* up_read */
	uint64_t task_start_ns;		/* a task's first step */
	uint64_t resume_ns;		/* first step after a wake-up */
	/* Charged inside a step, to the task that does it. */
	uint64_t block_ns;		/* going to sleep (schedule() out) */
	uint64_t wake_ns;		/* per task woken (try_to_wake_up) */
	uint64_t spawn_ns;		/* per task spawned or event posted */
	uint64_t switch_ns;		/* a CPU changes task */
	uint64_t irq_ns;		/* an event's first step: irq entry
					 * and exit */
	uint64_t sched_slice_ns;	/* base slice; scaled by
					 * 1 + ilog2(min(cpus, 8)) */
	uint64_t wake_preempt_ns;	/* 0: no wake-up preemption; else a
					 * woken task takes a busy CPU at its
					 * owner's next point once the owner
					 * held it this long (sim/timed.c) */
	uint64_t wake_preempt_mode;	/* where that owner yields: 0
					 * (SIM_WAKE_PREEMPT_FULL) at its next
					 * point, 1 (SIM_WAKE_PREEMPT_NONE)
					 * only at a point it marked with
					 * sim_preempt_point() (sim/timed.c) */
	/* Memory work the model charges where it happens. */
	uint64_t copy_hot_ns_per_4k;	/* copy_from_user, source cached */
	uint64_t copy_dram_ns_per_4k;	/* the same, DRAM-bound */
	uint64_t zero_ns_per_4k;	/* clearing a page */
	uint64_t wake_idle_ns;		/* a task woken on an idle CPU: the
					 * CPU's exit from idle (IPI, halt) */
	/* Not a time: the last-level cache, in bytes (0 = no limit). */
	uint64_t llc_bytes;
};

/*
 * The engine's default costs as an initializer, so the model's whole
 * default profile (model/cost.c, m_cost_default) embeds them in its
 * static initializer instead of writing them again.  Equal to
 * profiles/cpu/default.cpu; tests/engine/test_clock.c checks.
 */
#define SIM_CPU_COSTS_DEFAULT_INIT {  \
	.read_ns = 1,                 \
	.write_ns = 1,                \
	.rmw_ns = 15,                 \
	.add_ns = 15,                 \
	.acquire_ns = 10,             \
	.contended_ns = 24,           \
	.release_ns = 5,              \
	.acquire_shared_ns = 15,      \
	.release_shared_ns = 15,      \
	.task_start_ns = 0,           \
	.resume_ns = 100,             \
	.block_ns = 400,              \
	.wake_ns = 400,               \
	.spawn_ns = 400,              \
	.switch_ns = 400,             \
	.irq_ns = 500,                \
	.sched_slice_ns = 700000,     \
	.wake_preempt_ns = 0,         \
	.wake_preempt_mode = 0,       \
	.copy_hot_ns_per_4k = 72,     \
	.copy_dram_ns_per_4k = 836,   \
	.zero_ns_per_4k = 600,        \
	.wake_idle_ns = 6500,         \
	.llc_bytes = 32ull << 20,     \
}
/* The compiled-in defaults: equal to profiles/cpu/default.cpu (a test
 * checks that they are). */
extern const struct sim_cpu_costs sim_cpu_costs_default;

/*
 * The clock configuration every following execution uses.  Process-wide
 * (like the arena backend), so replays, failure reports and determinism
 * checks run with the same CPUs and costs as the search that found them.
 */
struct sim_clock_config {
	unsigned int cpus;		/* 1..SIM_CPUS_MAX; 0: default */
	struct sim_cpu_costs costs;
};

/* Set the configuration; 0, or -EINVAL when cpus is out of range. */
int sim_clock_configure(const struct sim_clock_config *config);
/* The configuration in force. */
const struct sim_clock_config *sim_clock_config(void);
/* The scheduler slice in force: sched_slice_ns * (1 + ilog2(min(cpus, 8))). */
uint64_t sim_clock_slice_ns(void);

/* ---- Inside an execution ---------------------------------------------- */

/*
 * The running task's virtual time: the start of its step plus what the
 * step has cost so far.  On the scheduler's context (setup, checks): the
 * start time of the last step (0 in setup).
 */
uint64_t sim_now(void);

/* Charge the running task @ns of CPU time now (no scheduling point). */
void sim_cpu_spend(uint64_t ns);
/* copy_from_user of @bytes, source cached: copy_hot_ns_per_4k per 4 KiB. */
void sim_cpu_copy(uint64_t bytes);
/* The same, DRAM-bound: copy_dram_ns_per_4k per 4 KiB. */
void sim_cpu_copy_dram(uint64_t bytes);
/*
 * A copy of @bytes into a folio of a page cache holding @cache_bytes:
 * with @cache_bytes above llc_bytes a folio is in the last-level cache
 * with probability llc_bytes / @cache_bytes (uniform reuse), so the copy
 * costs that share at the hot rate and the rest at the DRAM rate; at or
 * below it, sim_cpu_copy.
 */
void sim_cpu_copy_to_cache(uint64_t bytes, uint64_t cache_bytes);
/* Clearing @bytes: zero_ns_per_4k per 4 KiB. */
void sim_cpu_zero(uint64_t bytes);
/* A task woken onto an idle CPU starts this much later: wake_idle_ns. */
void sim_cpu_wake_idle(void);

/*
 * The running task's next scheduling point is one where a pending
 * wake-up preemption may take its CPU under wake_preempt_mode 1
 * (SIM_WAKE_PREEMPT_NONE: a kernel whose tasks give the CPU up at a
 * return to user space, a cond_resched() or a sleep, not in between).
 * Not a scheduling point and no cost; the mark holds until the task's
 * next step begins.  Under mode 0, or with wake_preempt_ns 0, it changes
 * nothing.  Nothing on an event's or the scheduler's context.
 */
void sim_preempt_point(void);

/*
 * Sleep until virtual time @t_ns (think time, balance_dirty_pages'
 * pause).  A scheduling point: the task's CPU is free from now, and its
 * next step starts at max(@t_ns, when a CPU is free).  Under the
 * exploration strategies the task stays enabled (a sleep is one more
 * step, in any order), so adding a sleep never hides an interleaving.
 */
void sim_sleep_until(uint64_t t_ns);
/* sim_sleep_until(sim_now() + @ns). */
void sim_sleep_ns(uint64_t ns);

/*
 * A timer or device completion at virtual time @t_ns: sim_event_post()
 * whose pseudo-task starts at max(@t_ns, the poster's now).  Under the
 * exploration strategies it is enabled at once, exactly as
 * sim_event_post(); under timed it runs at its time, and when nothing
 * else can run earlier the clock jumps to it.  It runs in interrupt
 * context on the CPU the poster last ran on: it never waits for that CPU
 * and delays the CPU's next task by its own cost (irq_ns plus its
 * steps).  Returns the event's task id.
 */
int sim_event_post_at(const char *name, sim_task_fn fn, void *arg,
		      uint64_t t_ns);
/* The same as a timer: sim_event_post_at(sim_now() + @delay_ns). */
int sim_timer_post_ns(const char *name, sim_task_fn fn, void *arg,
		      uint64_t delay_ns);
/*
 * Bound to a CPU (2026-12-07, session 21): sim_event_post_at() whose
 * event interrupts CPU @cpu (modulo --cpus) instead of the CPU the
 * poster last ran on: a device whose interrupt is routed to one CPU.
 */
int sim_event_post_at_cpu(const char *name, sim_task_fn fn, void *arg,
			  uint64_t t_ns, unsigned int cpu);
/*
 * A task bound to CPU @cpu (modulo --cpus): work queued on a per-CPU
 * queue.  It is placed as an event is: every step starts at its ready
 * time on @cpu and delays the task that CPU runs by its own cost (a
 * bound worker woken there preempts that task; otherwise the engine has
 * wake-up preemption only when the CPU profile's wake_preempt_ns turns
 * it on, at the task's next point), it never moves to another CPU; its
 * first step costs task_start_ns, not irq_ns.  It may block and wake as
 * any task; sim_task_on_cpu() says false for it, as for an event.
 * Under the exploring strategies it is an event pseudo-task: enabled at
 * once, its order against everything explored.  Returns its id.
 */
int sim_task_spawn_on_cpu(const char *name, sim_task_fn fn, void *arg,
			  unsigned int cpu);
/* The CPU of the running task's or event's step (-1: none: setup, the
 * scheduler, or a task that has not run yet). */
int sim_cpu_current(void);

/* ---- After (or during) an execution: accounting ------------------------ */

/* CPU time @task has used (its steps, with everything charged in them). */
uint64_t sim_task_cpu_ns(int task);
/* When @task's last step ended (for a finished task: when it returned). */
uint64_t sim_task_now(int task);
/*
 * Whether @task is on a CPU at the running task's now: a live task (not
 * an event), neither blocked nor spinning on a word, whose next step can
 * start by now (not in sim_sleep_until), on the CPU it last ran on, which
 * has run no other task since (so a task waiting for a CPU is not on
 * one).  The kernel's owner_on_cpu() for the model's lock spinners.
 * Under the exploration strategies the clock is accounting and so is
 * this answer (on one CPU the caller holds it: always false).
 */
bool sim_task_on_cpu(int task);
/* Busy time of simulated CPU @cpu (tasks and the events it served). */
uint64_t sim_cpu_busy_ns(unsigned int cpu);
/* The latest end time of any step so far (the run's makespan). */
uint64_t sim_exec_end_ns(void);

/*
 * For strategies: when @task (enabled) would start if chosen now, and
 * its rank among equal start times: 0 an event, or a task that keeps the
 * CPU it holds within its slice; 1 any other task; 2 a task whose slice
 * on its CPU is used up (the kernel would run another first).
 */
uint64_t sim_task_start_ns(int task, unsigned int *rank);

/*
 * The timed strategy's choice, from the engine's incremental view (a
 * heap of ready times, not a scan): the enabled task or event with the
 * smallest start time, among those the smallest rank, among those one
 * drawn from @rng (a reservoir over the ties in id order: the i-th of
 * them, i >= 1, replaces the pick when a draw modulo i + 1 is 0).  -1
 * outside a timed execution.
 */
int sim_exec_timed_pick(uint64_t *rng);

/* Per step of the last execution (the first SIM_STEPS_LIMIT steps):
 * start and end time and the CPU it ran on (events: the CPU they
 * interrupted). */
const uint64_t *sim_exec_step_start_ns(void);
const uint64_t *sim_exec_step_end_ns(void);
const uint16_t *sim_exec_step_cpu(void);

#endif /* WPSIM_SIM_CLOCK_H */
