// SPDX-License-Identifier: MIT
/*
 * tests/engine/test_clock.c - virtual time (sim/clock.c, sim/timed.c).
 *
 * The arithmetic, with a cost table of zeros so that only what a test
 * charges counts:
 *   - a task that spends 100 ns then 200 ns ends at 300 ns;
 *   - two 1000 ns tasks on one CPU end at 1000 and 2000 (they queue), on
 *     two CPUs both at 1000 (they overlap);
 *   - a sleeper woken by a waker at t resumes at t;
 *   - an event posted for T runs at T, between the steps that start
 *     before T and those that start after;
 *   - sim_sleep_until(t): the next step starts at t, the CPU is free;
 *   - four CPU-bound tasks on two CPUs take twice as long (saturation),
 *     and each task's CPU time is its own work;
 *   - a task keeps its CPU for a slice, then another waiting task runs.
 * The timed strategy: equal start times are broken by the seed (the same
 * seed gives the same schedule, other seeds other ones); a timed run's
 * schedule replays with the same event-log hash and timestamps; its
 * incremental view (task heaps, enabled set) agrees with the tasks after
 * every step while spin groups large and small turn on and off.
 * Exploration is unchanged: DFS and DPOR on every engine demo give the
 * same executions, failures and event logs under two clock
 * configurations.  Profiles: profiles/cpu/default.cpu is the compiled-in
 * table; bad profiles give file:line:col errors.  Scale: more than 64
 * tasks and a long run past SIM_STEPS_LIMIT steps with a sliding event
 * log and reused object ids.  Solo steps (a task that alone can run
 * next goes on without the pick) leave every run the same.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sim/arena.h"
#include "sim/clock.h"
#include "sim/explore.h"
#include "sim/shared.h"
#include "sim/strategy.h"
#include "tools/programs/programs.h"

#ifndef WPSIM_SOURCE_DIR
#define WPSIM_SOURCE_DIR "."
#endif

/* Only what a test charges costs anything; a 1 s slice. */
static void zero_costs(unsigned int cpus)
{
	struct sim_clock_config c = { .cpus = cpus };

	c.costs.sched_slice_ns = 1000000000;
	cr_assert_eq(sim_clock_configure(&c), 0);
}

static void default_costs(void)
{
	struct sim_clock_config c = { .cpus = 1,
				      .costs = sim_cpu_costs_default };

	sim_clock_configure(&c);
}

static void run_default(const struct sim_program *p, struct sim_outcome *o)
{
	struct sim_exec_options exec = { .keep_log = true };

	sim_replay(p, "-", &exec, o);
	cr_assert_eq(o->kind, SIM_OK, "%s", o->message);
}

static void run_timed(const struct sim_program *p, uint64_t seed,
		      struct sim_outcome *o)
{
	struct sim_exec_options exec = { .keep_log = true,
					 .steps_max = SIM_STEPS_LIMIT };
	struct sim_strategy s;

	sim_strategy_timed(&s, seed, 1);
	sim_exec_run(p, &s, &exec, o);
	sim_strategy_fini(&s);
	cr_assert_eq(o->kind, SIM_OK, "%s", o->message);
}

/* ---- 100 + 200 = 300 ---------------------------------------------------- */

static struct sim_word *g_word;

static void spend_task(void *arg)
{
	(void)arg;
	sim_cpu_spend(100);
	sim_word_read(g_word);	/* a point: the second step starts at 100 */
	cr_assert_eq(sim_now(), 100);
	sim_cpu_spend(200);
}

static void one_word_setup(void *config)
{
	sim_task_fn fn = (sim_task_fn)config;

	g_word = sim_arena_alloc(sizeof(*g_word));
	sim_word_init(g_word, 0, "w");
	sim_task_spawn("P0", fn, NULL);
}

Test(clock, spend_100_then_200_ends_at_300)
{
	struct sim_program p = { .name = "t/spend", .setup = one_word_setup,
				 .config = (void *)spend_task };
	struct sim_outcome o;

	zero_costs(1);
	run_default(&p, &o);
	cr_assert_eq(sim_task_now(0), 300);
	cr_assert_eq(sim_task_cpu_ns(0), 300);
	cr_assert_eq(sim_exec_end_ns(), 300);
	cr_assert_eq(sim_cpu_busy_ns(0), 300);
	default_costs();
}

/* ---- queueing on CPUs ---------------------------------------------------- */

static void work_1000(void *arg)
{
	(void)arg;
	sim_cpu_spend(1000);
}

static void two_setup(void *config)
{
	(void)config;
	sim_task_spawn("P0", work_1000, NULL);
	sim_task_spawn("P1", work_1000, NULL);
}

Test(clock, two_tasks_serialize_on_one_cpu_and_overlap_on_two)
{
	struct sim_program p = { .name = "t/two", .setup = two_setup };
	struct sim_outcome o;

	zero_costs(1);
	run_default(&p, &o);
	cr_assert_eq(sim_task_now(0), 1000);
	cr_assert_eq(sim_task_now(1), 2000);
	cr_assert_eq(sim_exec_end_ns(), 2000);
	zero_costs(2);
	run_default(&p, &o);
	cr_assert_eq(sim_task_now(0), 1000);
	cr_assert_eq(sim_task_now(1), 1000);
	cr_assert_eq(sim_exec_end_ns(), 1000);
	cr_assert_eq(sim_cpu_busy_ns(0), 1000);
	cr_assert_eq(sim_cpu_busy_ns(1), 1000);
	default_costs();
}

/* ---- wake at the waker's time ------------------------------------------- */

static struct sim_completion *g_done;
static uint64_t g_woke_at;

static void sleeper(void *arg)
{
	(void)arg;
	sim_completion_wait(g_done);
	g_woke_at = sim_now();
}

static void waker(void *arg)
{
	(void)arg;
	sim_cpu_spend(5000);
	sim_completion_complete(g_done);
}

static void wake_setup(void *config)
{
	(void)config;
	g_done = sim_arena_alloc(sizeof(*g_done));
	sim_completion_init(g_done, "done");
	sim_task_spawn("sleeper", sleeper, NULL);
	sim_task_spawn("waker", waker, NULL);
}

Test(clock, sleeper_woken_at_t_resumes_at_t)
{
	struct sim_program p = { .name = "t/wake", .setup = wake_setup };
	struct sim_outcome o;

	/* Two CPUs: the sleeper's CPU is idle, it resumes at once. */
	zero_costs(2);
	g_woke_at = 0;
	run_default(&p, &o);
	cr_assert_eq(g_woke_at, 5000);
	run_timed(&p, 1, &o);
	cr_assert_eq(g_woke_at, 5000);
	default_costs();
}

/* ---- events at their time ------------------------------------------------ */

static uint64_t g_event_at;
static uint64_t g_reads[4];

static void set_word(void *arg)
{
	(void)arg;
	g_event_at = sim_now();
	sim_word_write(g_word, 1);
}

static void reader(void *arg)
{
	(void)arg;
	for (int i = 0; i < 4; i++) {
		g_reads[i] = sim_word_read(g_word);
		sim_cpu_spend(3000);
	}
}

static void event_setup(void *config)
{
	(void)config;
	g_word = sim_arena_alloc(sizeof(*g_word));
	sim_word_init(g_word, 0, "w");
	sim_task_spawn("reader", reader, NULL);
	sim_event_post_at("timer", set_word, NULL, 7000);
}

Test(clock, event_posted_for_t_runs_at_t_under_timed)
{
	struct sim_program p = { .name = "t/event", .setup = event_setup };
	struct sim_outcome o;

	zero_costs(1);
	/* The reads start at 0, 3000, 6000 and 9000: the event at 7000 comes
	 * between the third and the fourth. */
	run_timed(&p, 1, &o);
	cr_assert_eq(g_event_at, 7000);
	cr_assert_eq(g_reads[2], 0);
	cr_assert_eq(g_reads[3], 1);
	/* Under the other strategies it is enabled at once (and still runs
	 * at its time): the default schedule runs it after the reader. */
	run_default(&p, &o);
	cr_assert_eq(g_event_at, 7000);
	cr_assert_eq(g_reads[3], 0);
	default_costs();
}

/* When nothing else can run the clock jumps to the event. */
static void lone_event_setup(void *config)
{
	(void)config;
	g_word = sim_arena_alloc(sizeof(*g_word));
	sim_word_init(g_word, 0, "w");
	sim_event_post_at("timer", set_word, NULL, 123456789);
}

Test(clock, clock_jumps_to_the_next_event)
{
	struct sim_program p = { .name = "t/lone", .setup = lone_event_setup };
	struct sim_outcome o;

	zero_costs(1);
	run_timed(&p, 1, &o);
	cr_assert_eq(g_event_at, 123456789);
	cr_assert_eq(sim_exec_end_ns(), 123456789);
	default_costs();
}

/* An event does not wait for its CPU and delays the task running there. */
static void busy_task(void *arg)
{
	(void)arg;
	sim_cpu_spend(10000);
	sim_word_read(g_word);
	sim_cpu_spend(10);
}

static void irq_setup(void *config)
{
	(void)config;
	g_word = sim_arena_alloc(sizeof(*g_word));
	sim_word_init(g_word, 0, "w");
	sim_task_spawn("busy", busy_task, NULL);
	sim_event_post_at("timer", set_word, NULL, 4000);
}

Test(clock, event_interrupts_its_cpu)
{
	struct sim_program p = { .name = "t/irq", .setup = irq_setup };
	struct sim_clock_config c = { .cpus = 1 };
	struct sim_outcome o;

	c.costs.irq_ns = 500;
	c.costs.sched_slice_ns = 1000000000;
	sim_clock_configure(&c);
	run_timed(&p, 1, &o);
	/* The event starts at 4000 although the CPU is busy until 10000,
	 * and costs 500: the task's next step starts at 10500. */
	cr_assert_eq(g_event_at, 4500);
	cr_assert_eq(sim_task_now(0), 10510);
	cr_assert_eq(sim_task_cpu_ns(1), 500);
	cr_assert_eq(sim_cpu_busy_ns(0), 10510);
	default_costs();
}

/*
 * Bound work (2026-12-07, session 21): an event posted to CPU n
 * interrupts CPU n whoever posted it; the task it interrupts stays on
 * its CPU, delayed, where an unbound event's victim takes a free CPU;
 * a task spawned on a CPU starts at its ready time there, delays that
 * CPU's task and charges it no irq entry.
 */
static int g_bound_mode;	/* 0 unbound, 1 to CPU 0, 2 to CPU 1, 3 +task */
static int g_kw_cpu;
static uint64_t g_kw_at;

static void kw_task(void *arg)
{
	(void)arg;
	g_kw_cpu = sim_cpu_current();
	g_kw_at = sim_now();
	sim_cpu_spend(300);
}

static void bound_event(void *arg)
{
	(void)arg;
	g_event_at = sim_now();
	if (g_bound_mode == 3)
		sim_task_spawn_on_cpu("kw", kw_task, NULL,
				      (unsigned int)sim_cpu_current());
}

static void bound_setup(void *config)
{
	(void)config;
	g_word = sim_arena_alloc(sizeof(*g_word));
	sim_word_init(g_word, 0, "w");
	sim_task_spawn("busy", busy_task, NULL);
	if (g_bound_mode == 0)
		sim_event_post_at("irq", bound_event, NULL, 4000);
	else
		sim_event_post_at_cpu("irq", bound_event, NULL, 4000,
				      g_bound_mode == 2 ? 1 : 0);
}

static void run_bound(int mode)
{
	struct sim_program p = { .name = "t/bound", .setup = bound_setup };
	struct sim_clock_config c = { .cpus = 2 };
	struct sim_outcome o;

	g_bound_mode = mode;
	g_kw_cpu = -1;
	c.costs.irq_ns = 500;
	c.costs.task_start_ns = 50;
	c.costs.sched_slice_ns = 1000000000;
	sim_clock_configure(&c);
	run_timed(&p, 1, &o);
}

Test(clock, a_bound_event_keeps_its_victim_on_its_cpu)
{
	/* busy's first step: task_start_ns 50 + 10000.  Unbound (the rule
	 * before): the event interrupts CPU 0 (setup's posts take CPU 0),
	 * busy's next step takes the free CPU 1 at 10050. */
	run_bound(0);
	cr_assert_eq(g_event_at, 4500);
	cr_assert_eq(sim_task_now(0), 10060);
	cr_assert_eq(sim_cpu_busy_ns(0), 10550);
	cr_assert_eq(sim_cpu_busy_ns(1), 10);
	/* Bound to CPU 0: busy is delayed by the 500 ns and stays. */
	run_bound(1);
	cr_assert_eq(g_event_at, 4500);
	cr_assert_eq(sim_task_now(0), 10560);
	cr_assert_eq(sim_cpu_busy_ns(0), 10560);
	cr_assert_eq(sim_cpu_busy_ns(1), 0);
	/* Bound to CPU 1: busy on CPU 0 is not touched. */
	run_bound(2);
	cr_assert_eq(g_event_at, 4500);
	cr_assert_eq(sim_task_now(0), 10060);
	cr_assert_eq(sim_cpu_busy_ns(0), 10060);
	cr_assert_eq(sim_cpu_busy_ns(1), 500);
	default_costs();
}

Test(clock, a_task_spawned_on_a_cpu_runs_there_at_once)
{
	/* The event on CPU 0 spawns kw on its own CPU: kw starts at the
	 * event's now on CPU 0 (busy until 10050), costs task_start_ns 50
	 * + 300 (no irq_ns), and busy's next step waits for both there. */
	run_bound(3);
	cr_assert_eq(g_event_at, 4500);
	cr_assert_eq(g_kw_cpu, 0);
	cr_assert_eq(g_kw_at, 4550);
	cr_assert_eq(sim_task_cpu_ns(2), 350);
	cr_assert_eq(sim_task_now(0), 10910);
	cr_assert_eq(sim_cpu_busy_ns(0), 10910);
	cr_assert_eq(sim_cpu_busy_ns(1), 0);
	default_costs();
}

/* ---- sleeping until a time ----------------------------------------------- */

static uint64_t g_after_sleep;

static void napper(void *arg)
{
	(void)arg;
	sim_sleep_until(50000);
	g_after_sleep = sim_now();
}

static void worker_20000(void *arg)
{
	(void)arg;
	sim_cpu_spend(20000);
}

static void sleep_setup(void *config)
{
	(void)config;
	sim_task_spawn("napper", napper, NULL);
	sim_task_spawn("worker", worker_20000, NULL);
}

Test(clock, sleep_until_frees_the_cpu_and_resumes_at_t)
{
	struct sim_program p = { .name = "t/sleep", .setup = sleep_setup };
	struct sim_outcome o;

	zero_costs(1);
	run_timed(&p, 3, &o);
	cr_assert_eq(g_after_sleep, 50000);
	/* The worker used the one CPU meanwhile. */
	cr_assert_eq(sim_task_now(1), 20000);
	cr_assert_eq(sim_exec_end_ns(), 50000);
	cr_assert_eq(sim_task_cpu_ns(0), 0);
	default_costs();
}

/* ---- saturation and slices ----------------------------------------------- */

struct steps_arg {
	int steps;
	uint64_t ns;
};

static struct sim_word g_words[8];

static void stepper(void *arg)
{
	const struct steps_arg *a = arg;

	for (int i = 0; i < a->steps; i++) {
		sim_word_add_nr(&g_words[sim_task_current() % 8], 1);
		sim_cpu_spend(a->ns);
	}
}

static struct steps_arg g_steps = { 10, 1000 };
static int g_tasks = 4;

static void steppers_setup(void *config)
{
	(void)config;
	for (int i = 0; i < 8; i++)
		sim_word_init(&g_words[i], 0, "w%d", i);
	for (int i = 0; i < g_tasks; i++)
		sim_task_spawn("T", stepper, &g_steps);
}

Test(clock, four_busy_tasks_on_two_cpus_take_twice_as_long)
{
	struct sim_program p = { .name = "t/sat", .setup = steppers_setup };
	struct sim_outcome o;

	g_tasks = 4;
	g_steps = (struct steps_arg){ 10, 1000 };
	zero_costs(2);
	run_timed(&p, 7, &o);
	cr_assert_eq(sim_exec_end_ns(), 20000);
	for (int t = 0; t < 4; t++)
		cr_assert_eq(sim_task_cpu_ns(t), 10000);
	cr_assert_eq(sim_cpu_busy_ns(0) + sim_cpu_busy_ns(1), 40000);
	zero_costs(4);
	run_timed(&p, 7, &o);
	cr_assert_eq(sim_exec_end_ns(), 10000);
	default_costs();
}

Test(clock, a_task_keeps_its_cpu_for_a_slice)
{
	struct sim_program p = { .name = "t/slice", .setup = steppers_setup };
	struct sim_clock_config c = { .cpus = 1 };
	const uint16_t *choices;
	struct sim_outcome o;
	uint32_t steps, run = 0, longest = 0;

	/* 100 us steps, a 700 us slice on one CPU: runs of 7 or 8 steps. */
	g_tasks = 2;
	g_steps = (struct steps_arg){ 30, 100000 };
	c.costs.sched_slice_ns = 700000;
	sim_clock_configure(&c);
	cr_assert_eq(sim_clock_slice_ns(), 700000);
	run_timed(&p, 11, &o);
	steps = sim_exec_schedule(&choices);
	for (uint32_t i = 1; i < steps; i++) {
		run = choices[i] == choices[i - 1] ? run + 1 : 0;
		if (run + 1 > longest)
			longest = run + 1;
		cr_assert_leq(run + 1, 9, "step %u: a run of %u", i, run + 1);
	}
	cr_assert_geq(longest, 7);
	cr_assert_eq(sim_exec_end_ns(), 60 * 100000);
	/* The slice grows with the CPUs as the kernel's: 1 + ilog2(n). */
	c.cpus = 8;
	sim_clock_configure(&c);
	cr_assert_eq(sim_clock_slice_ns(), 4 * 700000);
	default_costs();
}

/* ---- ties and replay ----------------------------------------------------- */

static void schedule_of(const struct sim_program *p, uint64_t seed, char *buf,
			size_t size)
{
	struct sim_outcome o;

	run_timed(p, seed, &o);
	sim_exec_schedule_format(buf, size);
}

Test(timed, ties_are_broken_by_the_seed_deterministically)
{
	struct sim_program p = { .name = "t/ties", .setup = steppers_setup };
	char a[4096], b[4096];
	int different = 0;

	/* Four tasks, four CPUs, equal steps: every step is a tie. */
	g_tasks = 4;
	g_steps = (struct steps_arg){ 5, 1000 };
	zero_costs(4);
	schedule_of(&p, 42, a, sizeof(a));
	schedule_of(&p, 42, b, sizeof(b));
	cr_assert_str_eq(a, b);
	for (uint64_t seed = 1; seed <= 8; seed++) {
		schedule_of(&p, seed, b, sizeof(b));
		different += strcmp(a, b) != 0;
	}
	cr_assert_geq(different, 1, "every seed gave %s", a);
	default_costs();
}

/* A program with a bit of everything timed: CPUs, sleeps, wake-ups,
 * spinlocks, events at times. */
struct mixed {
	struct sim_spinlock lock;
	struct sim_mutex mutex;
	struct sim_completion done;
	struct sim_word counter;
};

static struct mixed *g_mixed;

static void mixed_event(void *arg)
{
	(void)arg;
	sim_spin_lock(&g_mixed->lock);
	sim_word_add_nr(&g_mixed->counter, 10);
	sim_spin_unlock(&g_mixed->lock);
	sim_completion_complete(&g_mixed->done);
}

static void mixed_task(void *arg)
{
	long me = (long)arg;

	for (int i = 0; i < 3; i++) {
		sim_cpu_spend(205);	/* a syscall: default.cpu syscall_ns */
		sim_mutex_lock(&g_mixed->mutex);
		sim_cpu_copy(4096);
		sim_word_add_nr(&g_mixed->counter, 1);
		sim_mutex_unlock(&g_mixed->mutex);
		sim_event_post_at("io", mixed_event, NULL,
				  sim_now() + 20000 + 1000 * (uint64_t)me);
		sim_completion_wait(&g_mixed->done);
		sim_sleep_ns(3000);
	}
}

static void mixed_setup(void *config)
{
	(void)config;
	g_mixed = sim_arena_alloc(sizeof(*g_mixed));
	sim_spin_init(&g_mixed->lock, "lock");
	sim_mutex_init(&g_mixed->mutex, "mutex");
	sim_completion_init(&g_mixed->done, "done");
	sim_word_init(&g_mixed->counter, 0, "counter");
	for (long i = 0; i < 3; i++)
		sim_task_spawn("P", mixed_task, (void *)i);
}

Test(timed, replay_of_a_timed_schedule_gives_the_same_hash_and_times)
{
	struct sim_program p = { .name = "t/mixed", .setup = mixed_setup };
	struct sim_exec_options exec = { .keep_log = true,
					 .steps_max = SIM_STEPS_LIMIT };
	const struct sim_event *events;
	struct sim_event *first;
	struct sim_outcome o, again;
	static uint64_t starts[SIM_STEPS_LIMIT], ends[SIM_STEPS_LIMIT];
	char *schedule;
	uint32_t n, m;

	default_costs();
	{
		struct sim_clock_config c = { .cpus = 2,
					      .costs = sim_cpu_costs_default };

		sim_clock_configure(&c);
	}
	run_timed(&p, 5, &o);
	cr_assert_gt(sim_exec_end_ns(), 60000);
	n = sim_exec_events(&events);
	first = malloc(n * sizeof(*first));
	memcpy(first, events, n * sizeof(*first));
	memcpy(starts, sim_exec_step_start_ns(), o.steps * sizeof(*starts));
	memcpy(ends, sim_exec_step_end_ns(), o.steps * sizeof(*ends));
	/* Timed: no step starts before the one chosen before it. */
	for (uint32_t i = 1; i < o.steps; i++)
		cr_assert_geq(starts[i], starts[i - 1], "step %u", i);
	schedule = sim_exec_schedule_string();
	sim_replay(&p, schedule, &exec, &again);
	cr_assert_eq(again.kind, SIM_OK, "%s", again.message);
	cr_assert_eq(again.log_hash, o.log_hash);
	m = sim_exec_events(&events);
	cr_assert_eq(m, n);
	for (uint32_t i = 0; i < n; i++) {
		cr_assert_eq(events[i].t_ns, first[i].t_ns, "event %u", i);
		cr_assert_eq(events[i].cpu, first[i].cpu, "event %u", i);
	}
	cr_assert(memcmp(first, events, n * sizeof(*first)) == 0);
	cr_assert(memcmp(starts, sim_exec_step_start_ns(),
			 o.steps * sizeof(*starts)) == 0);
	cr_assert(memcmp(ends, sim_exec_step_end_ns(),
			 o.steps * sizeof(*ends)) == 0);
	free(first);
	free(schedule);
	default_costs();
}

/* ---- exploration does not see the clock ---------------------------------- */

static uint64_t hash_sum;

static void add_hash(void *ctx, const struct sim_outcome *o)
{
	(void)ctx;
	hash_sum = hash_sum * 31 + o->log_hash;
}

/* Executions, failures and the event-log hashes of a DFS or DPOR search. */
static void explore_signature(const struct sim_program *p, bool dpor,
			      uint64_t sig[3])
{
	struct sim_explore_options opt = { .on_execution = add_hash,
					   .executions_max = 200000 };
	struct sim_explore_result res;
	struct sim_strategy s;

	if (dpor)
		sim_strategy_dpor(&s);
	else
		sim_strategy_dfs(&s, -1);
	hash_sum = 0;
	sim_explore(p, &s, &opt, &res);
	sig[0] = res.executions;
	sig[1] = res.failures;
	sig[2] = hash_sum;
	sim_explore_result_fini(&res);
	sim_strategy_fini(&s);
}

Test(clock, dfs_and_dpor_counts_do_not_depend_on_the_clock)
{
	struct sim_clock_config odd = { .cpus = 7,
					.costs = sim_cpu_costs_default };

	odd.costs.read_ns = 12345;
	odd.costs.switch_ns = 7;
	odd.costs.sched_slice_ns = 1;
	for (int i = 0; wpsim_programs[i]; i++) {
		const struct sim_program *p = wpsim_programs[i];

		for (int dpor = 0; dpor < 2; dpor++) {
			uint64_t a[3], b[3];

			default_costs();
			explore_signature(p, dpor, a);
			sim_clock_configure(&odd);
			explore_signature(p, dpor, b);
			cr_assert_gt(a[0], 0, "%s", p->name);
			cr_assert_eq(a[0], b[0], "%s %s: executions", p->name,
				     dpor ? "dpor" : "dfs");
			cr_assert_eq(a[1], b[1], "%s: failures", p->name);
			cr_assert_eq(a[2], b[2], "%s: event logs", p->name);
		}
	}
	default_costs();
}

/* ---- scale --------------------------------------------------------------- */

Test(scale, timed_runs_more_than_64_tasks)
{
	struct sim_program p = { .name = "t/many", .setup = steppers_setup };
	struct sim_exec_options exec = { .steps_max = SIM_STEPS_LIMIT };
	struct sim_outcome o, again;
	char *schedule;

	g_tasks = 200;
	g_steps = (struct steps_arg){ 3, 1000 };
	zero_costs(16);
	run_timed(&p, 9, &o);
	cr_assert_eq(sim_exec_task_count(), 200);
	/* 200 tasks x 3000 ns of work on 16 CPUs: ceil(200 / 16) rounds. */
	cr_assert_eq(sim_exec_end_ns(), 13 * 3000);
	cr_assert_eq(sim_task_cpu_ns(150), 3000);
	schedule = sim_exec_schedule_string();
	sim_replay(&p, schedule, &exec, &again);
	cr_assert_eq(again.kind, SIM_OK, "%s", again.message);
	cr_assert_eq(again.log_hash, o.log_hash);
	cr_assert_eq(sim_exec_end_ns(), 13 * 3000);
	free(schedule);
	g_tasks = 4;
	default_costs();
}

/*
 * Static names (sim_word_init_static, sim_completion_init_static): the
 * same ids and names as sim_word_init(w, v, "%s", name), in a long run
 * kept as the literal's pointer, so that a name made and retired per
 * I/O costs the arena nothing; a retired id is reused with its new name.
 */
static bool g_static_ok, g_static_long;
static size_t g_static_bytes[2];

static void static_names_task(void *arg)
{
	struct sim_word *w = sim_arena_alloc(sizeof(*w));
	struct sim_completion *c = sim_arena_alloc(sizeof(*c));
	struct sim_word plain;
	uint32_t first;

	(void)arg;
	g_static_bytes[0] = sim_arena_bytes_in_use();
	for (int i = 0; i < 3; i++) {
		sim_word_init_static(w, 1, "dio.ref");
		sim_completion_init_static(c, "dio.done", "dio.done.wait");
		if (!i)
			first = w->id;
		/* A long run reuses the retired ids (the last retired
		 * first), others make new ones. */
		g_static_ok &= (w->id <= first + 2) == (g_static_long || !i) &&
			w->value == 1 &&
			!strcmp(sim_exec_object_name(w->id), "dio.ref") &&
			!strcmp(sim_exec_object_name(c->done.id),
				"dio.done") &&
			!strcmp(sim_exec_object_name(c->waiters.id),
				"dio.done.wait");
		sim_word_write(w, 2);
		sim_object_retire(w->id);
		sim_object_retire(c->done.id);
		sim_object_retire(c->waiters.id);
	}
	g_static_bytes[1] = sim_arena_bytes_in_use();
	/* A retired static id takes a formatted name when reused. */
	sim_word_init(&plain, 0, "obj[%d]", 7);
	g_static_ok &= !strcmp(sim_exec_object_name(plain.id), "obj[7]");
}

static void static_names_setup(void *config)
{
	(void)config;
	sim_task_spawn("static", static_names_task, NULL);
}

Test(scale, static_names_are_kept_not_copied)
{
	struct sim_program p = { .name = "t/static-names",
				 .setup = static_names_setup };
	struct sim_exec_options exec = { .long_run = true,
					 .steps_max = SIM_STEPS_LONG_LIMIT };
	struct sim_strategy s;
	struct sim_outcome o;

	default_costs();
	for (int long_run = 0; long_run < 2; long_run++) {
		exec.long_run = long_run;
		g_static_long = long_run;
		g_static_ok = true;
		sim_strategy_timed(&s, 1, 1);
		sim_exec_run(&p, &s, &exec, &o);
		sim_strategy_fini(&s);
		cr_assert_eq(o.kind, SIM_OK, "%s", o.message);
		cr_assert(g_static_ok, "names or ids differ (long run %d)",
			  long_run);
		/* A long run copies no static name into the arena. */
		if (long_run)
			cr_assert_eq(g_static_bytes[1], g_static_bytes[0],
				     "%zu -> %zu bytes", g_static_bytes[0],
				     g_static_bytes[1]);
	}
}

/* Objects and events that come and go: a long run reuses their ids. */
static struct sim_completion g_io[2];

static void churn_io_done(void *arg)
{
	sim_completion_complete(arg);
}

static void churn_task(void *arg)
{
	long me = (long)arg;

	for (int i = 0; i < 100000; i++) {
		struct sim_word *w = sim_arena_alloc(sizeof(*w));

		sim_word_init(w, 0, "obj[%d]", i);
		sim_word_write(w, (uint64_t)i);
		sim_word_add_nr(&g_words[0], 1);
		sim_object_retire(w->id);
		sim_arena_free(w, sizeof(*w));
		if (i % 50 == 49) {	/* 2000 events per task */
			sim_event_post_at("io", churn_io_done, &g_io[me],
					  sim_now() + 1000);
			sim_completion_wait(&g_io[me]);
		}
	}
}

static void churn_setup(void *config)
{
	(void)config;
	for (int i = 0; i < 8; i++)
		sim_word_init(&g_words[i], 0, "w%d", i);
	sim_completion_init(&g_io[0], "io0");
	sim_completion_init(&g_io[1], "io1");
	sim_task_spawn("churn", churn_task, (void *)0L);
	sim_task_spawn("churn", churn_task, (void *)1L);
}

Test(scale, long_timed_run_slides_its_log_and_reuses_objects)
{
	struct sim_program p = { .name = "t/churn", .setup = churn_setup };
	struct sim_exec_options exec = { .long_run = true,
					 .steps_max = SIM_STEPS_LONG_LIMIT };
	const struct sim_event *events;
	struct sim_strategy s;
	struct sim_outcome o, again;
	size_t arena_after_first;
	uint32_t n;

	default_costs();
	sim_strategy_timed(&s, 1, 1);
	sim_exec_run(&p, &s, &exec, &o);
	cr_assert_eq(o.kind, SIM_OK, "%s", o.message);
	cr_assert_gt(o.steps, 4 * SIM_STEPS_LIMIT);
	cr_assert(!sim_exec_schedule_complete());
	n = sim_exec_events(&events);
	cr_assert_geq(n, SIM_EVENTS_LONG_WINDOW);
	cr_assert_gt(sim_exec_events_dropped(), 0);
	cr_assert_eq(events[n - 1].access, SIM_ACCESS_EXIT);
	cr_assert_eq(events[n - 1].step, o.steps - 1);
	cr_assert_eq(g_words[0].value, 200000);
	/* 4000 events ran in the slots of the ones before them. */
	cr_assert_leq(sim_exec_task_count(), 8, "%u task slots",
		      sim_exec_task_count());
	/* 2 x 10^5 objects lived, a handful at a time: the arena stays small
	 * (each retired word and name is reused). */
	arena_after_first = sim_arena_bytes_in_use();
	cr_assert_lt(arena_after_first, 64 * 1024, "%zu bytes",
		     arena_after_first);
	/* Deterministic: the same seed gives the same hash. */
	sim_exec_run(&p, &s, &exec, &again);
	cr_assert_eq(again.log_hash, o.log_hash);
	sim_strategy_fini(&s);
	/* Outside the timed strategy a long run is refused. */
	sim_strategy_dfs(&s, -1);
	sim_exec_run(&p, &s, &exec, &o);
	cr_assert_eq(o.kind, SIM_FAIL_BOUND);
	cr_assert(strstr(o.message, "timed"), "%s", o.message);
	sim_strategy_fini(&s);
}

/* ---- copies against the last-level cache ---------------------------------- */

static uint64_t copy_ns[3];

static void copy_task(void *arg)
{
	uint64_t llc = sim_clock_config()->costs.llc_bytes, t;

	(void)arg;
	t = sim_now();
	sim_cpu_copy_to_cache(4096, llc);	/* fits: hot */
	copy_ns[0] = sim_now() - t;
	t = sim_now();
	sim_cpu_copy_to_cache(4096, 2 * llc);	/* half cached */
	copy_ns[1] = sim_now() - t;
	t = sim_now();
	sim_cpu_copy_to_cache(4096, 1000 * llc);	/* nearly all DRAM */
	copy_ns[2] = sim_now() - t;
}

/*
 * A long run whose log nobody reads (sim_exec_options.no_log, wpsim fio
 * and replay): no event is stored, every one is counted as dropped, and
 * nothing else changes: the same outcome, steps, end time, event-log
 * hash (every event is still made: it is hashed, checked by lockdep),
 * schedule and step times as the run that keeps its log.
 */
Test(scale, a_long_run_without_its_log_runs_the_same)
{
	struct sim_program p = { .name = "t/churn", .setup = churn_setup };
	struct sim_exec_options exec = { .long_run = true,
					 .steps_max = SIM_STEPS_LONG_LIMIT };
	const struct sim_event *events;
	const uint16_t *choices;
	struct sim_strategy s;
	struct sim_outcome kept, none;
	uint64_t *starts, *ends, made;
	uint16_t *sched;
	uint32_t n, len;

	default_costs();
	sim_strategy_timed(&s, 1, 1);
	sim_exec_run(&p, &s, &exec, &kept);
	cr_assert_eq(kept.kind, SIM_OK, "%s", kept.message);
	made = sim_exec_events(&events) + sim_exec_events_dropped();
	len = sim_exec_schedule(&choices);
	cr_assert_eq(len, SIM_STEPS_LIMIT);
	sched = malloc(len * sizeof(*sched));
	starts = malloc(len * sizeof(*starts));
	ends = malloc(len * sizeof(*ends));
	memcpy(sched, choices, len * sizeof(*sched));
	memcpy(starts, sim_exec_step_start_ns(), len * sizeof(*starts));
	memcpy(ends, sim_exec_step_end_ns(), len * sizeof(*ends));

	exec.no_log = true;
	sim_exec_run(&p, &s, &exec, &none);
	sim_strategy_fini(&s);
	cr_assert_eq(none.kind, SIM_OK, "%s", none.message);
	n = sim_exec_events(&events);
	cr_assert_eq(n, 0, "%u events stored", n);
	cr_assert_eq(sim_exec_events_dropped(), made);
	cr_assert_eq(none.steps, kept.steps);
	cr_assert_eq(none.end_ns, kept.end_ns);
	cr_assert_eq(none.log_hash, kept.log_hash);
	cr_assert_eq(g_words[0].value, 200000);
	cr_assert_eq(sim_exec_schedule(&choices), len);
	cr_assert_arr_eq(choices, sched, len * sizeof(*sched));
	cr_assert_arr_eq(sim_exec_step_start_ns(), starts,
			 len * sizeof(*starts));
	cr_assert_arr_eq(sim_exec_step_end_ns(), ends, len * sizeof(*ends));
	free(sched);
	free(starts);
	free(ends);
}

Test(clock, copies_past_the_llc_cost_the_dram_rate)
{
	struct sim_program p = { .name = "t/llc", .setup = one_word_setup,
				 .config = (void *)copy_task };
	const struct sim_cpu_costs *c = &sim_cpu_costs_default;
	struct sim_outcome o;

	default_costs();
	run_default(&p, &o);
	cr_assert_eq(copy_ns[0], c->copy_hot_ns_per_4k);
	cr_assert_eq(copy_ns[1], (c->copy_hot_ns_per_4k +
				  c->copy_dram_ns_per_4k + 1) / 2);
	cr_assert_geq(copy_ns[2], c->copy_dram_ns_per_4k - 1);
	cr_assert_leq(copy_ns[2], c->copy_dram_ns_per_4k);
}

/*
 * The timed strategy's incremental view stays true to the tasks after
 * every step while spin groups of every size turn on and off together:
 * six tasks take lock A then B (a large group on A; taking A and then
 * spinning on B is one step), two more take B alone, and events come
 * and go.  A check compares the view with the tasks after each step.
 */
static struct sim_spinlock g_lock[2];
static const char *g_view_fault;

static void view_check(void *arg)
{
	(void)arg;
	if (!g_view_fault)
		g_view_fault = sim_exec_timed_view_fault();
}

static void view_event(void *arg)
{
	sim_word_add_nr(arg, 1);
}

static void view_task(void *arg)
{
	long both = (long)arg;

	for (int i = 0; i < 200; i++) {
		if (both)
			sim_spin_lock(&g_lock[0]);
		sim_spin_lock(&g_lock[1]);
		sim_cpu_spend(50 + (uint64_t)(i % 7) * 10);
		sim_word_add_nr(&g_words[0], 1);
		sim_spin_unlock(&g_lock[1]);
		if (both) {
			sim_cpu_spend(30);
			sim_spin_unlock(&g_lock[0]);
		}
		if (i % 16 == 0)
			sim_event_post_at("ev", view_event, &g_words[1],
					  sim_now() + 200);
	}
}

static void view_setup(void *config)
{
	(void)config;
	sim_word_init(&g_words[0], 0, "count");
	sim_word_init(&g_words[1], 0, "events");
	sim_spin_init(&g_lock[0], "A");
	sim_spin_init(&g_lock[1], "B");
	sim_check_register("timed view", view_check, NULL, NULL);
	for (long i = 0; i < 8; i++)
		sim_task_spawn("P", view_task, (void *)(long)(i < 6));
}

Test(timed, the_incremental_view_agrees_with_the_tasks_after_every_step)
{
	struct sim_program p = { .name = "t/view", .setup = view_setup };
	struct sim_exec_options exec = { .long_run = true,
					 .steps_max = SIM_STEPS_LONG_LIMIT };
	struct sim_strategy s;
	struct sim_outcome o;

	for (unsigned int cpus = 1; cpus <= 8; cpus *= 2) {
		struct sim_clock_config c = { .cpus = cpus,
					      .costs = sim_cpu_costs_default };

		sim_clock_configure(&c);
		g_view_fault = NULL;
		sim_strategy_timed(&s, cpus, 1);
		sim_exec_run(&p, &s, &exec, &o);
		sim_strategy_fini(&s);
		cr_assert_eq(o.kind, SIM_OK, "%s", o.message);
		cr_assert_eq(g_words[0].value, 8 * 200);
		cr_assert_null(g_view_fault, "%u CPUs: %s", cpus,
			       g_view_fault);
	}
	default_costs();
}

/*
 * Solo steps (sim/engine.c, solo_next): a task that alone can run next
 * goes on without the enabled set, the heaps' sift and the pick.  Every
 * run here is made twice, with solo steps and without, and must be the
 * same: outcome, steps, preemptions, end time, event-log hash, schedule
 * (a long run: its first SIM_STEPS_LIMIT steps), every event with its
 * time and CPU, and every step's start and end.  The programs: the
 * mixed one (CPUs, sleeps, wake-ups, spinlocks, events at times), the
 * spin groups of the incremental view's test, the shape of an
 * O_DIRECT write at queue depth 1 (one task: words, an uncontended
 * spinlock, an event posted for later that completes what it waits
 * for), and a lock held across many steps while three tasks spin on it
 * (session 14: solo steps beside a quiet spin group, and the
 * one-candidate pick, which the same switch turns off), on 1 to 8 CPUs
 * and several seeds.  The fast runs must take some solo steps (the
 * O_DIRECT shape most of its steps), some beside a spin group and some
 * one-candidate picks, else the test would compare the full path with
 * itself.
 */
struct solo_sig {
	struct sim_outcome o;
	char *schedule;
	struct sim_event *events;
	uint32_t nevents;
	uint64_t *starts, *ends;
	uint64_t solo_steps, solo_grouped, solo_fast, solo_full,
		 solo_events, solo_proved, one_picks;
};

static void solo_run(const struct sim_program *p, uint64_t seed,
		     bool long_run, bool solo, struct solo_sig *sig)
{
	struct sim_exec_options exec = { .keep_log = true,
					 .long_run = long_run,
					 .steps_max = long_run ?
					 SIM_STEPS_LONG_LIMIT :
					 SIM_STEPS_LIMIT };
	const struct sim_event *events;
	struct sim_strategy s;
	uint32_t steps;

	sim_exec_timed_solo(solo);
	sim_strategy_timed(&s, seed, 1);
	sim_exec_run(p, &s, &exec, &sig->o);
	sim_strategy_fini(&s);
	sim_exec_timed_solo(true);
	sig->solo_steps = sim_exec_timed_solo_steps();
	sig->solo_grouped = sim_exec_timed_solo_grouped_steps();
	sig->solo_fast = sim_exec_timed_solo_fast_steps();
	sig->solo_full = sim_exec_timed_solo_full_steps();
	sig->solo_events = sim_exec_timed_solo_event_steps();
	sig->solo_proved = sim_exec_timed_solo_proved_steps();
	sig->one_picks = sim_exec_timed_one_picks();
	cr_assert_eq(sig->o.kind, SIM_OK, "%s", sig->o.message);
	sig->schedule = sim_exec_schedule_string();
	sig->nevents = sim_exec_events(&events);
	sig->events = malloc(sig->nevents * sizeof(*events) + 1);
	memcpy(sig->events, events, sig->nevents * sizeof(*events));
	steps = sig->o.steps < SIM_STEPS_LIMIT ? (uint32_t)sig->o.steps :
		SIM_STEPS_LIMIT;
	sig->starts = malloc(steps * sizeof(uint64_t) + 1);
	sig->ends = malloc(steps * sizeof(uint64_t) + 1);
	memcpy(sig->starts, sim_exec_step_start_ns(), steps * sizeof(uint64_t));
	memcpy(sig->ends, sim_exec_step_end_ns(), steps * sizeof(uint64_t));
}

static void solo_sig_fini(struct solo_sig *sig)
{
	free(sig->schedule);
	free(sig->events);
	free(sig->starts);
	free(sig->ends);
}

/* What the fast run's fast paths did (solo_compare). */
struct solo_counts {
	uint64_t solo, grouped, fast, full, events, proved, one_picks;
};

/* Solo and full runs of @p; returns the solo run's solo steps, and its
 * steps in *steps; the fast paths' counts added to *counts (NULL: not
 * wanted). */
static uint64_t solo_compare_counts(const struct sim_program *p,
				    uint64_t seed, bool long_run,
				    const char *what, uint64_t *steps,
				    struct solo_counts *counts)
{
	struct solo_sig a, b;
	uint32_t n;
	uint64_t solo;

	solo_run(p, seed, long_run, true, &a);
	solo_run(p, seed, long_run, false, &b);
	cr_assert_eq(b.solo_steps, 0, "%s", what);
	cr_assert_eq(b.one_picks, 0, "%s", what);
	cr_assert_eq(b.solo_fast, 0, "%s", what);
	cr_assert_eq(b.solo_events, 0, "%s", what);
	cr_assert_eq(b.solo_proved, 0, "%s", what);
	cr_assert_leq(a.solo_fast + a.solo_events + a.solo_proved,
		      a.solo_steps, "%s", what);
	if (counts) {
		counts->solo += a.solo_steps;
		counts->grouped += a.solo_grouped;
		counts->fast += a.solo_fast;
		counts->full += a.solo_full;
		counts->events += a.solo_events;
		counts->proved += a.solo_proved;
		counts->one_picks += a.one_picks;
	}
	cr_assert_eq(a.o.steps, b.o.steps, "%s: steps", what);
	cr_assert_eq(a.o.preemptions, b.o.preemptions, "%s", what);
	cr_assert_eq(a.o.end_ns, b.o.end_ns, "%s: end", what);
	cr_assert_eq(a.o.log_hash, b.o.log_hash, "%s: hash", what);
	cr_assert_str_eq(a.schedule, b.schedule, "%s: schedule", what);
	cr_assert_eq(a.nevents, b.nevents, "%s: events", what);
	cr_assert(memcmp(a.events, b.events,
			 a.nevents * sizeof(*a.events)) == 0,
		  "%s: the event log (times, CPUs)", what);
	n = a.o.steps < SIM_STEPS_LIMIT ? (uint32_t)a.o.steps :
	    SIM_STEPS_LIMIT;
	cr_assert(memcmp(a.starts, b.starts, n * sizeof(uint64_t)) == 0,
		  "%s: step starts", what);
	cr_assert(memcmp(a.ends, b.ends, n * sizeof(uint64_t)) == 0,
		  "%s: step ends", what);
	solo = a.solo_steps;
	*steps = a.o.steps;
	solo_sig_fini(&a);
	solo_sig_fini(&b);
	return solo;
}

static uint64_t solo_compare(const struct sim_program *p, uint64_t seed,
			     bool long_run, const char *what, uint64_t *steps)
{
	return solo_compare_counts(p, seed, long_run, what, steps, NULL);
}

/*
 * A lock held across many steps while others spin on it (the shape of
 * four fio jobs on one file's exclusive lock, 2026-12-06, session 14):
 * the holder's steps are solo beside a spin group whose word does not
 * change, and events due at several times make the pick choose among
 * several candidates, often one first alone (timed_pick_one).
 */
static struct sim_spinlock h_lock;

static void holder_event(void *arg)
{
	sim_word_add_nr(arg, 1);
}

static void holder_task(void *arg)
{
	long me = (long)arg;

	for (int i = 0; i < 60; i++) {
		sim_spin_lock(&h_lock);
		for (int k = 0; k < 12; k++) {
			sim_cpu_spend(40 + (uint64_t)((i + k + me) % 5) * 15);
			sim_word_read(&g_words[0]);
			sim_word_add_nr(&g_words[0], 1);
		}
		sim_spin_unlock(&h_lock);
		if (i % 4 == (int)me % 4)
			sim_event_post_at("ev", holder_event, &g_words[1],
					  sim_now() + 300 +
					  (uint64_t)(me * 7 + i) % 900);
		sim_cpu_spend(100 + (uint64_t)me * 10);
		sim_word_read(&g_words[1]);
	}
}

static void holder_setup(void *config)
{
	(void)config;
	sim_word_init(&g_words[0], 0, "count");
	sim_word_init(&g_words[1], 0, "events");
	sim_spin_init(&h_lock, "I");
	sim_check_register("timed view", view_check, NULL, NULL);
	for (long i = 0; i < 4; i++)
		sim_task_spawn("J", holder_task, (void *)i);
}

/* One task writes at queue depth 1: the shape of an O_DIRECT write. */
struct qd1 {
	struct sim_spinlock lock;
	struct sim_completion done;
	struct sim_word word[4];
};

static struct qd1 *g_qd1;

static void qd1_complete(void *arg)
{
	(void)arg;
	sim_word_add_nr(&g_qd1->word[2], 1);
	sim_completion_complete(&g_qd1->done);
}

static void qd1_task(void *arg)
{
	(void)arg;
	for (int i = 0; i < 400; i++) {
		sim_cpu_spend(205);
		sim_word_read(&g_qd1->word[0]);
		sim_spin_lock(&g_qd1->lock);
		sim_word_write(&g_qd1->word[1], (uint64_t)i);
		sim_spin_unlock(&g_qd1->lock);
		sim_event_post_at("dev", qd1_complete, NULL,
				  sim_now() + 10000 + (uint64_t)(i % 5) * 300);
		/* Steps while the device's event waits in its heap. */
		sim_word_add_nr(&g_qd1->word[3], 1);
		sim_word_read(&g_qd1->word[0]);
		sim_completion_wait(&g_qd1->done);
		sim_spin_lock(&g_qd1->lock);
		sim_word_read(&g_qd1->word[2]);
		sim_spin_unlock(&g_qd1->lock);
	}
}

static void qd1_setup(void *config)
{
	(void)config;
	g_qd1 = sim_arena_alloc(sizeof(*g_qd1));
	sim_spin_init(&g_qd1->lock, "lock");
	sim_completion_init(&g_qd1->done, "done");
	for (int i = 0; i < 4; i++)
		sim_word_init(&g_qd1->word[i], 0, "w%d", i);
	sim_task_spawn("job", qd1_task, NULL);
}

Test(timed, solo_steps_change_nothing)
{
	struct sim_program mixed = { .name = "t/mixed", .setup = mixed_setup };
	struct sim_program view = { .name = "t/view", .setup = view_setup };
	struct sim_program qd1 = { .name = "t/qd1", .setup = qd1_setup };
	struct sim_program holder = { .name = "t/holder",
				      .setup = holder_setup };
	struct solo_counts counts = { 0 };
	uint64_t solo_total = 0, steps;

	for (unsigned int cpus = 1; cpus <= 8; cpus *= 2) {
		struct sim_clock_config c = { .cpus = cpus,
					      .costs = sim_cpu_costs_default };
		char what[64];

		sim_clock_configure(&c);
		for (uint64_t seed = 1; seed <= 3; seed++) {
			snprintf(what, sizeof(what), "mixed, %u CPUs, seed %"
				 PRIu64, cpus, seed);
			solo_total += solo_compare(&mixed, seed, false, what,
						   &steps);
			snprintf(what, sizeof(what), "view, %u CPUs, seed %"
				 PRIu64, cpus, seed);
			g_view_fault = NULL;
			solo_total += solo_compare(&view, seed, true, what,
						   &steps);
			cr_assert_null(g_view_fault, "%s: %s", what,
				       g_view_fault);
			snprintf(what, sizeof(what), "qd1, %u CPUs, seed %"
				 PRIu64, cpus, seed);
			/* Most of a lone writer's steps are solo. */
			cr_assert_gt(2 * solo_compare_counts(&qd1, seed, false,
							     what, &steps,
							     &counts),
				     steps, "%s", what);
			snprintf(what, sizeof(what), "holder, %u CPUs, seed %"
				 PRIu64, cpus, seed);
			g_view_fault = NULL;
			solo_compare_counts(&holder, seed, true, what, &steps,
					    &counts);
			cr_assert_null(g_view_fault, "%s: %s", what,
				       g_view_fault);
			cr_assert_eq(g_words[0].value, 4 * 60 * 12, "%s",
				     what);
		}
	}
	cr_assert_gt(solo_total, 0);
	/* Both session 14 paths ran, so both were compared. */
	cr_assert_gt(counts.grouped, 0, "no solo step beside a spin group");
	cr_assert_gt(counts.one_picks, 0, "no one-candidate pick");
	/* And sim_point's inline solo path (session 19). */
	cr_assert_gt(counts.fast, 0, "no solo step by solo_fast");
	/* Both of its ways (session 22): solo_lean's, and solo_fast's by
	 * sim_point_full (beside a spin group, or on the first-free CPU). */
	cr_assert_gt(counts.full, 0, "no solo step by sim_point_full");
	cr_assert_gt(counts.fast, counts.full, "no solo step by solo_lean");
	/* And an event's (session 24): the qd1 shape's completion event
	 * takes steps alone. */
	cr_assert_gt(counts.events, 0, "no solo step by solo_lean_event");
	/* And the steps proved at the point when the kept answer was
	 * stale (session 25): the first point after the event is posted. */
	cr_assert_gt(counts.proved, 0, "no solo step by sim_point_prove");
	default_costs();
}

/* ---- order: a replay's times follow its schedule ------------------------- */

/*
 * The order rule (sim/engine.c, order_floor; docs/timed-mode.md,
 * "Order").  A replayed schedule runs steps in the order it gives; a
 * step that the schedule runs after a conflicting access must not start
 * before it in virtual time.  The bug (session 14, scratch scenario
 * XFS truncate vs pwrite on 2 CPUs, schedule 0): the task the schedule
 * held back kept its own earlier ready time, and took the lock "before"
 * the release it waited for.  Here:
 *
 *   P0: 1. lock L (at 0)           P1: 1. 100 ns of work
 *       2. 500 ns of work              2. lock L
 *       3. unlock L (at 500)           3. 10 ns, unlock L
 *
 * Schedule "-" (the default: P0 to its end, then P1) on 2 and 4 CPUs,
 * zero costs.  Must hold: P1's take of L is no earlier than P0's release
 * (500), and the rule says it moved something.  The bug looked like:
 * P1's take at 100, on its own CPU, while P0 held L until 500.
 */
static struct sim_spinlock o_lock;
static struct sim_word o_words[2];
static uint64_t o_took_at[4], o_read_at[4], o_wrote_at[4];

static void order_holder(void *arg)
{
	(void)arg;
	sim_spin_lock(&o_lock);
	sim_cpu_spend(500);
	sim_spin_unlock(&o_lock);
}

static void order_taker(void *arg)
{
	long me = (long)arg;

	sim_cpu_spend(100);
	sim_spin_lock(&o_lock);
	o_took_at[me] = sim_now();
	sim_cpu_spend(10);
	sim_spin_unlock(&o_lock);
}

static void order_lock_setup(void *config)
{
	(void)config;
	sim_spin_init(&o_lock, "L");
	sim_task_spawn("P0", order_holder, NULL);
	sim_task_spawn("P1", order_taker, (void *)1L);
}

/* The time of the first event of @task with @access on @name (or of
 * its last when @last), UINT64_MAX when none. */
static uint64_t event_time(uint16_t task, enum sim_access access,
			   const char *name, bool last)
{
	const struct sim_event *events;
	uint32_t n = sim_exec_events(&events);
	uint64_t t = UINT64_MAX;

	for (uint32_t i = 0; i < n; i++) {
		if (events[i].task != task || events[i].access != access ||
		    strcmp(sim_exec_object_name(events[i].object), name))
			continue;
		t = events[i].t_ns;
		if (!last)
			break;
	}
	return t;
}

Test(order, a_lock_taken_after_its_release_is_taken_after_it_in_time)
{
	struct sim_program p = { .name = "t/order-lock",
				 .setup = order_lock_setup };
	struct sim_outcome o;

	for (unsigned int cpus = 2; cpus <= 4; cpus *= 2) {
		uint64_t released, took;

		zero_costs(cpus);
		run_default(&p, &o);
		released = event_time(0, SIM_ACCESS_RELEASE, "L", true);
		took = event_time(1, SIM_ACCESS_ACQUIRE, "L", false);
		cr_assert_eq(released, 500, "%u CPUs", cpus);
		cr_assert_geq(took, released, "%u CPUs: P1 takes L at %" PRIu64
			      " ns, before P0's release at %" PRIu64 " ns",
			      cpus, took, released);
		cr_assert_eq(o_took_at[1], 500, "%u CPUs", cpus);
		cr_assert_gt(sim_exec_order_moves(), 0, "%u CPUs", cpus);
		/* Its first step (its 100 ns of work, no access) still ran
		 * from 0, on the other CPU. */
		{
			const uint16_t *choices;
			uint32_t steps = sim_exec_schedule(&choices), i = 0;

			while (i < steps && choices[i] != 1)
				i++;
			cr_assert_lt(i, steps);
			cr_assert_eq(sim_exec_step_start_ns()[i], 0);
			cr_assert_neq(sim_exec_step_cpu()[i],
				      sim_exec_step_cpu()[0]);
		}
		/* With the default costs: the take's time is no earlier
		 * than the release's either. */
		{
			struct sim_clock_config c = {
				.cpus = cpus, .costs = sim_cpu_costs_default };

			sim_clock_configure(&c);
			run_default(&p, &o);
			cr_assert_geq(event_time(1, SIM_ACCESS_ACQUIRE, "L",
						 false),
				      event_time(0, SIM_ACCESS_RELEASE, "L",
						 true), "%u CPUs", cpus);
		}
	}
	default_costs();
}

/*
 * What conflicts: reads commute with reads, adds with adds, bits of a
 * word with other bits, shared takes and releases of a rwlock with each
 * other; anything else on the same object waits, a write after reads
 * too (the reads must not see it), a whole-word access after a bit's.
 * P0 runs first (the default schedule), each access 1000 ns apart; P1's
 * first access is at 100 ns of its own time.  Zero costs, 2 CPUs.
 *
 *   P0: read X at 0, 1000, 2000        P1 (kind 0): read X   -> at 100
 *                                      P1 (kind 1): write X  -> at 2000
 *   P0: add Y at 0, 1000, 2000         P1 (kind 2): add Y    -> at 100
 *                                      P1 (kind 3): read Y   -> at 2000
 *   P0: set bit 0 of X at 0, 1000,     P1 (kind 4): test bit 1 -> at 100
 *       2000                           P1 (kind 5): test bit 0 -> at 2000
 *                                      P1 (kind 6): read X   -> at 2000
 */
static int o_kind;

static void order_p0(void *arg)
{
	(void)arg;
	for (int i = 0; i < 3; i++) {
		if (o_kind < 2)
			sim_word_read(&o_words[0]);
		else if (o_kind < 4)
			sim_word_add_nr(&o_words[1], 1);
		else
			sim_bit_set(&o_words[0], 0);
		sim_cpu_spend(1000);
	}
}

static void order_p1(void *arg)
{
	(void)arg;
	sim_cpu_spend(100);
	switch (o_kind) {
	case 0:
		sim_word_read(&o_words[0]);
		o_read_at[0] = sim_now();
		break;
	case 1:
		sim_word_write(&o_words[0], 1);
		o_wrote_at[0] = sim_now();
		break;
	case 2:
		sim_word_add_nr(&o_words[1], 1);
		o_wrote_at[1] = sim_now();
		break;
	case 3:
		sim_word_read(&o_words[1]);
		o_read_at[1] = sim_now();
		break;
	case 4:
	case 5:
		sim_bit_test(&o_words[0], o_kind == 4 ? 1 : 0);
		o_read_at[2] = sim_now();
		break;
	default:
		sim_word_read(&o_words[0]);
		o_read_at[2] = sim_now();
		break;
	}
}

static void order_words_setup(void *config)
{
	(void)config;
	sim_word_init(&o_words[0], 0, "X");
	sim_word_init(&o_words[1], 0, "Y");
	sim_task_spawn("P0", order_p0, NULL);
	sim_task_spawn("P1", order_p1, NULL);
}

Test(order, reads_commute_with_reads_adds_with_adds_bits_with_bits)
{
	struct sim_program p = { .name = "t/order-words",
				 .setup = order_words_setup };
	struct sim_outcome o;

	zero_costs(2);
	o_kind = 0;
	run_default(&p, &o);
	cr_assert_eq(o_read_at[0], 100, "a read waits for nobody's reads");
	cr_assert_eq(sim_exec_order_moves(), 0);
	o_kind = 1;
	run_default(&p, &o);
	cr_assert_eq(o_wrote_at[0], 2000, "a write waits for the reads "
		     "before it");
	o_kind = 2;
	run_default(&p, &o);
	cr_assert_eq(o_wrote_at[1], 100, "an add waits for nobody's adds");
	cr_assert_eq(sim_exec_order_moves(), 0);
	o_kind = 3;
	run_default(&p, &o);
	cr_assert_eq(o_read_at[1], 2000, "a read waits for the adds");
	o_kind = 4;
	run_default(&p, &o);
	cr_assert_eq(o_read_at[2], 100, "a bit waits for nobody's other bits");
	cr_assert_eq(sim_exec_order_moves(), 0);
	o_kind = 5;
	run_default(&p, &o);
	cr_assert_eq(o_read_at[2], 2000, "a bit waits for its own bit");
	o_kind = 6;
	run_default(&p, &o);
	cr_assert_eq(o_read_at[2], 2000, "the word waits for its bits");
	default_costs();
}

/*
 * An event likewise: the timer of t/event (posted for 7000 ns) runs at
 * its time, but the default schedule runs its write of w after the
 * reader's four reads (at 0, 3000, 6000 and 9000 ns), which read 0: the
 * write is at 9000, not at 7000 before the last read.
 */
Test(order, an_event_writes_no_earlier_than_the_reads_before_it)
{
	struct sim_program p = { .name = "t/event", .setup = event_setup };
	struct sim_outcome o;

	zero_costs(1);
	run_default(&p, &o);
	cr_assert_eq(g_event_at, 7000);
	cr_assert_eq(g_reads[3], 0);
	cr_assert_eq(event_time(0, SIM_ACCESS_READ, "w", true), 9000);
	cr_assert_eq(event_time(1, SIM_ACCESS_WRITE, "w", false), 9000);
	default_costs();
}

/*
 * A rwlock: two readers' shared holds overlap in time whatever the
 * schedule; a writer the schedule runs after a reader's release takes
 * the lock no earlier than that release.
 *
 *   R0: read_lock at 0, 1000 ns, read_unlock at 1000
 *   R1: 100 ns, read_lock (at 100: shared takes commute), read_unlock
 *   W:  200 ns, write_lock: no earlier than R0's release (1000)
 */
static struct sim_rwlock o_rw;

static void order_reader(void *arg)
{
	long me = (long)arg;

	sim_cpu_spend(me ? 100 : 0);
	sim_rwlock_read_lock(&o_rw);
	o_took_at[me] = sim_now();
	sim_cpu_spend(me ? 10 : 1000);
	sim_rwlock_read_unlock(&o_rw);
}

static void order_writer(void *arg)
{
	(void)arg;
	sim_cpu_spend(200);
	sim_rwlock_write_lock(&o_rw);
	o_took_at[2] = sim_now();
	sim_rwlock_write_unlock(&o_rw);
}

static void order_rw_setup(void *config)
{
	(void)config;
	sim_rwlock_init(&o_rw, "RW");
	sim_task_spawn("R0", order_reader, (void *)0L);
	sim_task_spawn("R1", order_reader, (void *)1L);
	sim_task_spawn("W", order_writer, NULL);
}

Test(order, shared_takes_overlap_and_a_writer_waits_for_the_release)
{
	struct sim_program p = { .name = "t/order-rw",
				 .setup = order_rw_setup };
	struct sim_outcome o;

	zero_costs(4);
	run_default(&p, &o);
	cr_assert_eq(o_took_at[0], 0);
	cr_assert_eq(o_took_at[1], 100, "shared takes commute");
	cr_assert_eq(o_took_at[2], 1000, "the writer after R0's release");
	default_costs();
}

/*
 * The timed strategy already runs steps in this order (start times never
 * go down), so under it the rule is a no-op: with the check on
 * (sim_exec_order_check) every timed run of the programs above and of
 * every engine demo, on 1 to 8 CPUs and several seeds, long runs with
 * reused object ids included, passes the check and is the same run as
 * without it: outcome, steps, end, hash, schedule, every event with its
 * time and CPU, every step's start and end.  A replay of a timed
 * schedule (the rule applied) gives the same times: test
 * timed/replay_of_a_timed_schedule_gives_the_same_hash_and_times.
 */
struct order_sig {
	struct sim_outcome o;
	char *schedule;
	struct sim_event *events;
	uint32_t nevents, steps;
	uint64_t *starts, *ends;
};

static void order_timed_run(const struct sim_program *p, uint64_t seed,
			    bool long_run, bool check, struct order_sig *sig)
{
	struct sim_exec_options exec = { .keep_log = true,
					 .long_run = long_run,
					 .steps_max = long_run ?
					 SIM_STEPS_LONG_LIMIT :
					 SIM_STEPS_LIMIT };
	const struct sim_event *events;
	struct sim_strategy s;

	sim_exec_order_check(check);
	sim_strategy_timed(&s, seed, 1);
	sim_exec_run(p, &s, &exec, &sig->o);
	sim_strategy_fini(&s);
	sim_exec_order_check(false);
	cr_assert_eq(sim_exec_order_moves(), 0);
	sig->schedule = sim_exec_schedule_string();
	sig->nevents = sim_exec_events(&events);
	sig->events = malloc(sig->nevents * sizeof(*events) + 1);
	memcpy(sig->events, events, sig->nevents * sizeof(*events));
	sig->steps = sig->o.steps < SIM_STEPS_LIMIT ? (uint32_t)sig->o.steps :
		     SIM_STEPS_LIMIT;
	sig->starts = malloc(sig->steps * sizeof(uint64_t) + 1);
	sig->ends = malloc(sig->steps * sizeof(uint64_t) + 1);
	memcpy(sig->starts, sim_exec_step_start_ns(),
	       sig->steps * sizeof(uint64_t));
	memcpy(sig->ends, sim_exec_step_end_ns(),
	       sig->steps * sizeof(uint64_t));
}

static void order_sig_fini(struct order_sig *sig)
{
	free(sig->schedule);
	free(sig->events);
	free(sig->starts);
	free(sig->ends);
}

static void order_timed_compare(const struct sim_program *p, uint64_t seed,
				bool long_run, const char *what)
{
	struct order_sig a, b;

	order_timed_run(p, seed, long_run, true, &a);
	order_timed_run(p, seed, long_run, false, &b);
	cr_assert(!strstr(a.o.message, "order check"), "%s: %s", what,
		  a.o.message);
	cr_assert_eq(a.o.kind, b.o.kind, "%s: %s", what, a.o.message);
	cr_assert_eq(a.o.steps, b.o.steps, "%s: steps", what);
	cr_assert_eq(a.o.end_ns, b.o.end_ns, "%s: end", what);
	cr_assert_eq(a.o.log_hash, b.o.log_hash, "%s: hash", what);
	cr_assert_str_eq(a.schedule, b.schedule, "%s: schedule", what);
	cr_assert_eq(a.nevents, b.nevents, "%s: events", what);
	cr_assert(memcmp(a.events, b.events,
			 a.nevents * sizeof(*a.events)) == 0,
		  "%s: the event log (times, CPUs)", what);
	cr_assert(memcmp(a.starts, b.starts, a.steps * sizeof(uint64_t)) == 0,
		  "%s: step starts", what);
	cr_assert(memcmp(a.ends, b.ends, a.steps * sizeof(uint64_t)) == 0,
		  "%s: step ends", what);
	order_sig_fini(&a);
	order_sig_fini(&b);
}

Test(order, timed_runs_already_keep_it)
{
	struct sim_program progs[] = {
		{ .name = "t/mixed", .setup = mixed_setup },
		{ .name = "t/qd1", .setup = qd1_setup },
		{ .name = "t/order-lock", .setup = order_lock_setup },
		{ .name = "t/order-words", .setup = order_words_setup },
		{ .name = "t/order-rw", .setup = order_rw_setup },
		{ .name = "t/steppers", .setup = steppers_setup },
		{ .name = "t/wake", .setup = wake_setup },
		{ .name = "t/event", .setup = event_setup },
	};
	struct sim_program longs[] = {
		{ .name = "t/view", .setup = view_setup },
		{ .name = "t/holder", .setup = holder_setup },
	};

	g_tasks = 4;
	g_steps = (struct steps_arg){ 10, 1000 };
	for (unsigned int cpus = 1; cpus <= 8; cpus *= 2) {
		struct sim_clock_config c = { .cpus = cpus,
					      .costs = sim_cpu_costs_default };
		char what[96];

		sim_clock_configure(&c);
		for (uint64_t seed = 1; seed <= 3; seed++) {
			for (size_t i = 0; i < sizeof(progs) / sizeof(*progs);
			     i++) {
				o_kind = (int)(seed + i) % 7;
				snprintf(what, sizeof(what), "%s, %u CPUs, "
					 "seed %" PRIu64, progs[i].name, cpus,
					 seed);
				order_timed_compare(&progs[i], seed, false,
						    what);
			}
			for (size_t i = 0; i < sizeof(longs) / sizeof(*longs);
			     i++) {
				snprintf(what, sizeof(what), "%s, %u CPUs, "
					 "seed %" PRIu64, longs[i].name, cpus,
					 seed);
				order_timed_compare(&longs[i], seed, true,
						    what);
			}
			for (int i = 0; wpsim_programs[i]; i++) {
				snprintf(what, sizeof(what), "%s, %u CPUs, "
					 "seed %" PRIu64,
					 wpsim_programs[i]->name, cpus, seed);
				order_timed_compare(wpsim_programs[i], seed,
						    false, what);
			}
		}
	}
	default_costs();
}

Test(order, a_long_timed_run_with_reused_ids_keeps_it)
{
	struct sim_program p = { .name = "t/churn", .setup = churn_setup };
	struct sim_clock_config c = { .cpus = 2,
				      .costs = sim_cpu_costs_default };

	sim_clock_configure(&c);
	order_timed_compare(&p, 1, true, "churn, 2 CPUs");
	default_costs();
}
