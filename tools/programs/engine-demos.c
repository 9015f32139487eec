// SPDX-License-Identifier: MIT
/*
 * tools/programs/engine-demos.c - the engine's demonstration programs.
 *
 * Models: nothing of the kernel.  These are the classic first races of a
 * controlled scheduler, written with the engine primitives the model uses:
 *
 *   engine/racy-counter   two tasks do counter = counter + 1 as a load and
 *                         a store (no lock): the lost update.
 *   engine/locked-counter the same under a mutex: never loses an update.
 *   engine/spin-counter   the same under a spinlock.
 *   engine/lock-inversion P0 takes A then B, P1 takes B then A: deadlock.
 *   engine/livelock       a task that polls a flag nobody sets: the step
 *                         bound reports it as "stuck".
 *   engine/bench-3x10     three tasks, ten points each, for bench-exec.
 *   engine/independent-3  three tasks on their own words.
 *   engine/primitives     every primitive once, with its expected results.
 */
#include "tools/programs/programs.h"

#include <string.h>

#include "sim/arena.h"
#include "sim/shared.h"

/* ---- counters ----------------------------------------------------------- */

struct counter_state {
	struct sim_word counter;
	struct sim_mutex mutex;
	struct sim_spinlock spin;
	int tasks;
};

static struct counter_state *counter;

static void counter_dump(void *arg, FILE *out)
{
	struct counter_state *s = arg;

	fprintf(out, "counter = %llu (tasks %d)\n",
		(unsigned long long)sim_word_peek(&s->counter), s->tasks);
}

static void counter_check(void *arg)
{
	struct counter_state *s = arg;

	/* Invariant 1: the counter never exceeds the number of increments. */
	SIM_CHECK(sim_word_peek(&s->counter) <= (uint64_t)s->tasks,
		  "counter %llu > %d increments",
		  (unsigned long long)sim_word_peek(&s->counter), s->tasks);
}

static void counter_setup(int tasks, sim_task_fn fn)
{
	static const char *const names[] = { "P0", "P1", "P2", "P3" };

	counter = sim_arena_alloc(sizeof(*counter));
	counter->tasks = tasks;
	sim_word_init(&counter->counter, 0, "counter");
	sim_mutex_init(&counter->mutex, "counter_mutex");
	sim_spin_init(&counter->spin, "counter_lock");
	sim_check_register("counter", counter_check, counter_dump, counter);
	for (int i = 0; i < tasks; i++)
		sim_task_spawn(names[i], fn, counter);
}

/* counter++ in C: a plain load and a plain store (sim/lockdep.h). */
static void increment(struct counter_state *s)
{
	uint64_t v = sim_word_load(&s->counter);

	sim_word_store(&s->counter, v + 1);
}

static void racy_task(void *arg)
{
	increment(arg);
}

static void locked_task(void *arg)
{
	struct counter_state *s = arg;

	sim_mutex_lock(&s->mutex);
	increment(s);
	sim_mutex_unlock(&s->mutex);
}

static void spin_task(void *arg)
{
	struct counter_state *s = arg;

	sim_spin_lock(&s->spin);
	increment(s);
	sim_spin_unlock(&s->spin);
}

static void counter_final(void *config)
{
	(void)config;
	if (sim_word_peek(&counter->counter) != (uint64_t)counter->tasks)
		sim_fail(SIM_FAIL_PROPERTY,
			 "lost update: counter == %llu after %d increments",
			 (unsigned long long)sim_word_peek(&counter->counter),
			 counter->tasks);
}

static void racy_setup(void *config)
{
	(void)config;
	counter_setup(2, racy_task);
}

static void locked_setup(void *config)
{
	(void)config;
	counter_setup(2, locked_task);
}

static void spin_setup(void *config)
{
	(void)config;
	counter_setup(3, spin_task);
}

const struct sim_program wpsim_racy_counter = {
	.name = "engine/racy-counter",
	.description = "two tasks increment a counter with a load and a store",
	.setup = racy_setup,
	.final = counter_final,
};

const struct sim_program wpsim_locked_counter = {
	.name = "engine/locked-counter",
	.description = "two tasks increment a counter under a mutex",
	.setup = locked_setup,
	.final = counter_final,
};

const struct sim_program wpsim_spin_counter = {
	.name = "engine/spin-counter",
	.description = "three tasks increment a counter under a spinlock",
	.setup = spin_setup,
	.final = counter_final,
};

/* ---- lock inversion ----------------------------------------------------- */

struct inversion_state {
	struct sim_mutex a, b;
};

static void inversion_p0(void *arg)
{
	struct inversion_state *s = arg;

	sim_mutex_lock(&s->a);
	sim_mutex_lock(&s->b);
	sim_mutex_unlock(&s->b);
	sim_mutex_unlock(&s->a);
}

static void inversion_p1(void *arg)
{
	struct inversion_state *s = arg;

	sim_mutex_lock(&s->b);
	sim_mutex_lock(&s->a);
	sim_mutex_unlock(&s->a);
	sim_mutex_unlock(&s->b);
}

static void inversion_setup(void *config)
{
	struct inversion_state *s = sim_arena_alloc(sizeof(*s));

	(void)config;
	sim_mutex_init(&s->a, "lock_A");
	sim_mutex_init(&s->b, "lock_B");
	sim_task_spawn("P0", inversion_p0, s);
	sim_task_spawn("P1", inversion_p1, s);
}

const struct sim_program wpsim_lock_inversion = {
	.name = "engine/lock-inversion",
	.description = "P0 takes A then B, P1 takes B then A",
	.setup = inversion_setup,
};

/* ---- livelock ----------------------------------------------------------- */

static void poll_task(void *arg)
{
	struct sim_word *flag = arg;

	while (!sim_word_read(flag))
		;
}

static void livelock_setup(void *config)
{
	struct sim_word *flag = sim_arena_alloc(sizeof(*flag));

	(void)config;
	sim_word_init(flag, 0, "flag");
	sim_task_spawn("P0", poll_task, flag);
}

const struct sim_program wpsim_livelock = {
	.name = "engine/livelock",
	.description = "a task polls a flag that nobody sets",
	.setup = livelock_setup,
};

/* ---- bench: three tasks, ten points each -------------------------------- */

struct bench_state {
	struct sim_word shared[2];
	struct sim_word own[3];
	struct sim_mutex lock;
};

struct bench_arg {
	struct bench_state *state;
	struct sim_word *own;
};

static void bench_task(void *arg)
{
	struct bench_arg *a = arg;
	struct bench_state *s = a->state;
	uint64_t v;

	/*
	 * Ten points: own read and write, a shared read, lock, two shared
	 * adds, unlock, own write, a shared add, own read.
	 */
	sim_word_write(a->own, sim_word_read(a->own) + 1);
	v = sim_word_read(&s->shared[0]);
	sim_mutex_lock(&s->lock);
	sim_word_add(&s->shared[1], 1);
	sim_word_add(&s->shared[1], 1);
	sim_mutex_unlock(&s->lock);
	sim_word_write(a->own, v);
	sim_word_add(&s->shared[0], 1);
	sim_word_read(a->own);
}

static void bench_setup(void *config)
{
	struct bench_state *s = sim_arena_alloc(sizeof(*s));
	struct bench_arg *args = sim_arena_alloc(3 * sizeof(*args));
	static const char *const names[] = { "P0", "P1", "P2" };

	(void)config;
	sim_word_init(&s->shared[0], 0, "shared0");
	sim_word_init(&s->shared[1], 0, "shared1");
	sim_mutex_init(&s->lock, "lock");
	for (int i = 0; i < 3; i++) {
		sim_word_init(&s->own[i], 0, "own%d", i);
		args[i].state = s;
		args[i].own = &s->own[i];
		sim_task_spawn(names[i], bench_task, &args[i]);
	}
}

const struct sim_program wpsim_bench_3x10 = {
	.name = "engine/bench-3x10",
	.description = "three tasks of ten scheduling points each",
	.setup = bench_setup,
};

/* ---- independent tasks -------------------------------------------------- */

static void independent_task(void *arg)
{
	struct sim_word *own = arg;

	sim_word_write(own, sim_word_read(own) + 1);
}

static void independent_setup(void *config)
{
	struct sim_word *own = sim_arena_alloc(3 * sizeof(*own));
	static const char *const names[] = { "P0", "P1", "P2" };

	(void)config;
	for (int i = 0; i < 3; i++) {
		sim_word_init(&own[i], 0, "own%d", i);
		sim_task_spawn(names[i], independent_task, &own[i]);
	}
}

const struct sim_program wpsim_independent_3 = {
	.name = "engine/independent-3",
	.description = "three tasks each increment their own word",
	.setup = independent_setup,
};

/* ---- every primitive once ----------------------------------------------- */

struct prim_state {
	struct sim_word word, bits;
	struct sim_completion done;
	struct sim_waitq bit_wq;
	struct sim_spinlock spin;
};

static void prim_event(void *arg)
{
	struct prim_state *s = arg;

	/* A device completion: clears bit 0 and wakes its waiters. */
	sim_bit_clear_and_wake(&s->bits, 0, &s->bit_wq);
	sim_completion_complete(&s->done);
}

static void prim_p0(void *arg)
{
	struct prim_state *s = arg;

	SIM_ASSERT_EQ(sim_word_add(&s->word, 5), 5);
	SIM_ASSERT_EQ(sim_word_xchg(&s->word, 7), 5);
	SIM_ASSERT_EQ(sim_word_cmpxchg(&s->word, 7, 9), 7);
	SIM_ASSERT_EQ(sim_word_cmpxchg(&s->word, 7, 11), 9);
	SIM_ASSERT(!sim_bit_test_and_set(&s->bits, 3));
	SIM_ASSERT(sim_bit_test_and_set(&s->bits, 3));
	SIM_ASSERT(sim_bit_test_and_clear(&s->bits, 3));
	SIM_ASSERT(!sim_bit_test(&s->bits, 3));
	SIM_ASSERT(sim_spin_trylock(&s->spin));
	SIM_ASSERT(sim_spin_held_by_me(&s->spin));
	sim_spin_unlock(&s->spin);
	sim_bit_set(&s->bits, 0);
	sim_event_post("io0", prim_event, s);
	sim_bit_wait(&s->bits, 0, &s->bit_wq);
	sim_completion_wait(&s->done);
	SIM_ASSERT(!sim_bit_test(&s->bits, 0));
}

static void prim_setup(void *config)
{
	struct prim_state *s = sim_arena_alloc(sizeof(*s));

	(void)config;
	sim_word_init(&s->word, 0, "word");
	sim_word_init(&s->bits, 0, "bits");
	sim_completion_init(&s->done, "done");
	sim_waitq_init(&s->bit_wq, "bits.wait");
	sim_spin_init(&s->spin, "spin");
	sim_task_spawn("P0", prim_p0, s);
}

const struct sim_program wpsim_primitives = {
	.name = "engine/primitives",
	.description = "every engine primitive once, with an async event",
	.setup = prim_setup,
};

const struct sim_program *const wpsim_programs[] = {
	&wpsim_racy_counter,
	&wpsim_locked_counter,
	&wpsim_spin_counter,
	&wpsim_lock_inversion,
	&wpsim_livelock,
	&wpsim_bench_3x10,
	&wpsim_independent_3,
	&wpsim_primitives,
	NULL,
};

const struct sim_program *wpsim_program_find(const char *name)
{
	for (int i = 0; wpsim_programs[i]; i++)
		if (strcmp(wpsim_programs[i]->name, name) == 0)
			return wpsim_programs[i];
	return NULL;
}
