// SPDX-License-Identifier: MIT
/*
 * tests/engine/test_dpor.c - source-DPOR and optimal DPOR against plain DFS.
 *
 * Soundness: on every program of a corpus (the engine demos plus
 * randomly generated programs of shared reads, writes, adds, bit
 * operations, mutexes, spinlocks and asynchronous events; 60 in the quick
 * tier, a fifth of that under the sanitizer tier's WPSIM_TEST_SCALE=5,
 * WPSIM_DPOR_PROGRAMS=1000 in the deep one), DPOR must reach
 * exactly the set of final states and failure kinds that unbounded DFS
 * reaches.  Reduction: independent tasks give one execution; the 3-task
 * programs need at least 10x fewer executions than DFS.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/arena.h"
#include "sim/explore.h"
#include "sim/shared.h"
#include "tools/programs/programs.h"
#include "tests/scale.h"

/*
 * The number of random programs a test draws: a sample, so the
 * sanitizer tier (WPSIM_TEST_SCALE=5, 10-45x slower at -O0) draws
 * fewer, at least 2 (the plain tier at least 5); each program is still
 * explored exhaustively by both searches.
 */
static int sample(int n)
{
	int k = n / (int)test_scale();
	int least = test_scale() > 1 ? 2 : 5;

	return k < least ? least : k;
}

/* ---- a set of final-state signatures ------------------------------------ */

#define SIGS_MAX 4096

struct sigset {
	uint64_t sig[SIGS_MAX];
	unsigned int count;
};

static void sigset_add(struct sigset *set, uint64_t sig)
{
	for (unsigned int i = 0; i < set->count; i++)
		if (set->sig[i] == sig)
			return;
	cr_assert_lt(set->count, SIGS_MAX);
	set->sig[set->count++] = sig;
}

static bool sigset_includes(const struct sigset *big,
			    const struct sigset *small)
{
	for (unsigned int i = 0; i < small->count; i++) {
		bool found = false;

		for (unsigned int k = 0; k < big->count && !found; k++)
			found = big->sig[k] == small->sig[i];
		if (!found)
			return false;
	}
	return true;
}

static bool sigset_equal(const struct sigset *a, const struct sigset *b)
{
	return a->count == b->count && sigset_includes(a, b);
}

/* ---- random programs ---------------------------------------------------- */

enum op_kind {
	OP_READ, OP_WRITE, OP_ADD, OP_TAS, OP_LOCK_M, OP_LOCK_S, OP_EVENT,
	OP_RW_READ,	/* rwlock read section: read a word */
	OP_RW_WRITE,	/* rwlock write section: read-modify-write */
	OP_RW_TRY,	/* read trylock; the result is observed */
	OP_RANGE_W,	/* write elements [word, word + lock] of an array */
	OP_RANGE_R,	/* read them */
	OP_KINDS,	/* the kinds of random_program() */
	/* The kinds random_program_ext() adds (waits, events, failures). */
	OP_ADD_NR = OP_KINDS,	/* sim_word_add_nr(+(t + 1)): commutes */
	OP_SUB_NR,	/* sim_word_add_nr(-(t + 1)) */
	OP_SUB,		/* x0 -= t + 1 (rmw): x0 < 0 fails the check */
	OP_ASSERT,	/* read a word; the task fails if it reads 2 */
	OP_READ_ALSO,	/* read x[w], and x[1 - w] within the same step */
	OP_READ_FLAGS,	/* read the whole flags word */
	OP_BIT_LOCK,	/* folio_lock style: bit 0 of flags, wait on wq */
	OP_WB_START,	/* set bit 1 of flags; an event clears it, wakes wq */
	OP_WB_WAIT,	/* folio_wait_writeback style: sleep while bit 1 */
	/* The kinds random_program_spin() adds (lock-aware reduction). */
	OP_SPIN_RMW,	/* spin section: read-modify-write a word */
	OP_SPIN_WRITE,	/* spin section: write a word */
	OP_SPIN_NEST,	/* s[l] then s[1 - l] nested: rmw (deadlocks) */
	OP_SPIN_TRY,	/* spin trylock: write a word; the result seen */
	OP_SPIN_TWO,	/* spin section of two accesses: x[w], x[1 - w] */
	/* The kinds random_program_sleep() adds (mutex, rwlock sections). */
	OP_MUTEX_WRITE,	/* mutex section: write a word */
	OP_MUTEX_TRY,	/* mutex trylock: write a word; the result seen */
	OP_MUTEX_NEST,	/* m[l] then m[1 - l] nested: add (deadlocks) */
	OP_MUTEX_TWO,	/* mutex section of two accesses: x[w], x[1 - w] */
	OP_MUTEX_SPIN,	/* mutex section holding s[l] around an rmw */
	OP_RW_WSET,	/* rwlock write section: write a word */
	OP_RW_WTRY,	/* rwlock write trylock: write a word; result seen */
	OP_RW_DOWN,	/* write x[w], downgrade, read x[1 - w] */
	/* The kinds random_program_bitlock() adds (bit locks, nesting). */
	OP_BL_RMW,	/* bit lock b[l] section: read-modify-write a word */
	OP_BL_READ,	/* bit lock b[l] section: read a word */
	OP_BL_SPIN,	/* b[l] { s[l] { rmw } }: a flat section nested */
	OP_BL_NEST,	/* b[l] then b[1 - l] nested: add (deadlocks) */
	OP_BL_MUTEX,	/* b[l] { m0 { add } } */
	OP_MUTEX_BL,	/* m0 { b[l] { add } } (deadlocks with OP_BL_MUTEX) */
	OP_BL_TRY,	/* trylock of b[l] (a plain test-and-set): write */
	/* The kind random_program_read() adds (read sections, issue 34). */
	OP_RW_RSET,	/* rwlock read section: write a word */
	OP_KINDS_ALL
};

#define WORDS 2
#define ELEMENTS 3	/* the array the range operations touch */
#define OPS_MAX 4
#define TASKS_MAX 3

struct gen_op {
	enum op_kind kind;
	int word;
	int lock;	/* 0 or 1 */
};

struct gen_program {
	int tasks;
	int ops[TASKS_MAX];
	struct gen_op op[TASKS_MAX][OPS_MAX];
};

struct gen_state {
	const struct gen_program *prog;
	struct sim_word word[WORDS];
	struct sim_word seen[TASKS_MAX];	/* what each task read */
	struct sim_mutex mutex[2];
	struct sim_spinlock spin[2];
	struct sim_rwlock rw;
	struct sim_word array;		/* stands for element[] */
	uint64_t element[ELEMENTS];
	struct sim_word flags;		/* bit 0: lock, bit 1: writeback,
					 * bits 2, 3: bit locks b0, b1 */
	struct sim_waitq wq;		/* the sleepers on either bit */
};

static struct gen_state *gen;
static uint64_t last_sig;

struct gen_arg {
	int task;
};

static void gen_event(void *arg)
{
	(void)arg;
	sim_word_add(&gen->word[1], 10);
}

/*
 * Writeback completion, as km_folio_end_writeback does it: clear the bit
 * in one step, wake the sleepers in a later one (a step that may find
 * nobody to wake).
 */
static void gen_wb_end(void *arg)
{
	(void)arg;
	sim_word_add_nr(&gen->word[1], 100);	/* the bytes written */
	if (sim_bit_test_and_clear(&gen->flags, 1))
		sim_waitq_wake_up(&gen->wq);
}

static void gen_task(void *arg)
{
	int t = ((struct gen_arg *)arg)->task;
	const struct gen_program *p = gen->prog;
	uint64_t acc = 0;

	for (int i = 0; i < p->ops[t]; i++) {
		const struct gen_op *o = &p->op[t][i];

		switch (o->kind) {
		case OP_READ:
			acc = acc * 31 + sim_word_read(&gen->word[o->word]);
			break;
		case OP_WRITE:
			sim_word_write(&gen->word[o->word], (uint64_t)t + 1 + acc);
			break;
		case OP_ADD:
			sim_word_add(&gen->word[o->word], t + 1);
			break;
		case OP_TAS:
			acc = acc * 31 + sim_bit_test_and_set(&gen->word[o->word],
							      (unsigned)t);
			break;
		case OP_LOCK_M:
			/* A critical section of one read-modify-write. */
			sim_mutex_lock(&gen->mutex[o->lock]);
			sim_word_write(&gen->word[o->word],
				       sim_word_read(&gen->word[o->word]) * 2 +
				       (uint64_t)t);
			sim_mutex_unlock(&gen->mutex[o->lock]);
			break;
		case OP_LOCK_S:
			sim_spin_lock(&gen->spin[o->lock]);
			acc = acc * 31 + sim_word_read(&gen->word[o->word]);
			sim_spin_unlock(&gen->spin[o->lock]);
			break;
		case OP_EVENT:
			sim_event_post("ev", gen_event, NULL);
			break;
		case OP_RW_READ:
			sim_rwlock_read_lock(&gen->rw);
			acc = acc * 31 + sim_word_read(&gen->word[o->word]);
			sim_rwlock_read_unlock(&gen->rw);
			break;
		case OP_RW_WRITE:
			sim_rwlock_write_lock(&gen->rw);
			sim_word_write(&gen->word[o->word],
				       sim_word_read(&gen->word[o->word]) * 3 +
				       (uint64_t)t);
			sim_rwlock_write_unlock(&gen->rw);
			break;
		case OP_RW_TRY:
			if (sim_rwlock_read_trylock(&gen->rw)) {
				acc = acc * 31 + 7;
				sim_rwlock_read_unlock(&gen->rw);
			}
			break;
		case OP_RANGE_W:
			sim_word_touch_range(&gen->array, SIM_ACCESS_WRITE,
					     (uint32_t)o->word,
					     (uint32_t)(o->word + o->lock));
			for (int e = o->word; e <= o->word + o->lock; e++)
				gen->element[e] = (uint64_t)t + 1;
			break;
		case OP_RANGE_R:
			sim_word_touch_range(&gen->array, SIM_ACCESS_READ,
					     (uint32_t)o->word,
					     (uint32_t)(o->word + o->lock));
			for (int e = o->word; e <= o->word + o->lock; e++)
				acc = acc * 31 + gen->element[e];
			break;
		case OP_ADD_NR:
			sim_word_add_nr(&gen->word[o->word], t + 1);
			break;
		case OP_SUB_NR:
			sim_word_add_nr(&gen->word[o->word], -(t + 1));
			break;
		case OP_SUB:
			acc = acc * 31 + (uint64_t)sim_word_add(&gen->word[0],
								-(t + 1));
			break;
		case OP_ASSERT: {
			uint64_t v = sim_word_read(&gen->word[o->word]);

			SIM_ASSERT_MSG(v != 2, "P%d read 2 from x%d", t, o->word);
			acc = acc * 31 + v;
			break;
		}
		case OP_READ_ALSO:
			acc = acc * 31 + sim_word_read(&gen->word[o->word]);
			acc = acc * 31 + sim_word_read_also(
						 &gen->word[1 - o->word]);
			break;
		case OP_READ_FLAGS:
			acc = acc * 31 + sim_word_read(&gen->flags);
			break;
		case OP_BIT_LOCK:
			while (sim_bit_test_and_set(&gen->flags, 0))
				sim_bit_wait(&gen->flags, 0, &gen->wq);
			acc = acc * 31 + sim_word_read(&gen->word[o->word]);
			sim_bit_clear_and_wake(&gen->flags, 0, &gen->wq);
			break;
		case OP_WB_START:
			if (!sim_bit_test_and_set(&gen->flags, 1))
				sim_event_post("wb-end", gen_wb_end, NULL);
			break;
		case OP_WB_WAIT:
			while (sim_bit_test(&gen->flags, 1))
				sim_bit_wait(&gen->flags, 1, &gen->wq);
			acc = acc * 31 + 5;
			break;
		case OP_SPIN_RMW:
			sim_spin_lock(&gen->spin[o->lock]);
			sim_word_write(&gen->word[o->word],
				       sim_word_read(&gen->word[o->word]) * 2 +
				       (uint64_t)t + 1);
			sim_spin_unlock(&gen->spin[o->lock]);
			break;
		case OP_SPIN_WRITE:
			sim_spin_lock(&gen->spin[o->lock]);
			sim_word_write(&gen->word[o->word], (uint64_t)t + 1);
			sim_spin_unlock(&gen->spin[o->lock]);
			break;
		case OP_SPIN_NEST:
			sim_spin_lock(&gen->spin[o->lock]);
			sim_spin_lock(&gen->spin[1 - o->lock]);
			sim_word_add(&gen->word[o->word], t + 1);
			sim_spin_unlock(&gen->spin[1 - o->lock]);
			sim_spin_unlock(&gen->spin[o->lock]);
			break;
		case OP_SPIN_TRY:
			if (sim_spin_trylock(&gen->spin[o->lock])) {
				sim_word_write(&gen->word[o->word],
					       (uint64_t)t + 7);
				sim_spin_unlock(&gen->spin[o->lock]);
				acc = acc * 31 + 1;
			} else {
				acc = acc * 31 + 2;
			}
			break;
		case OP_SPIN_TWO:
			sim_spin_lock(&gen->spin[o->lock]);
			acc = acc * 31 + sim_word_read(&gen->word[o->word]);
			sim_word_add(&gen->word[1 - o->word], t + 1);
			sim_spin_unlock(&gen->spin[o->lock]);
			break;
		case OP_MUTEX_WRITE:
			sim_mutex_lock(&gen->mutex[o->lock]);
			sim_word_write(&gen->word[o->word], (uint64_t)t + 1);
			sim_mutex_unlock(&gen->mutex[o->lock]);
			break;
		case OP_MUTEX_TRY:
			if (sim_mutex_trylock(&gen->mutex[o->lock])) {
				sim_word_write(&gen->word[o->word],
					       (uint64_t)t + 7);
				sim_mutex_unlock(&gen->mutex[o->lock]);
				acc = acc * 31 + 1;
			} else {
				acc = acc * 31 + 2;
			}
			break;
		case OP_BL_RMW:
			while (!sim_bitlock_take(&gen->flags, 2u + o->lock))
				sim_bit_wait(&gen->flags, 2u + o->lock,
					     &gen->wq);
			sim_word_write(&gen->word[o->word],
				       sim_word_read(&gen->word[o->word]) * 2 +
				       (uint64_t)t + 1);
			sim_bitlock_release(&gen->flags, 2u + o->lock,
					    &gen->wq);
			break;
		case OP_BL_READ:
			while (!sim_bitlock_take(&gen->flags, 2u + o->lock))
				sim_bit_wait(&gen->flags, 2u + o->lock,
					     &gen->wq);
			acc = acc * 31 + sim_word_read(&gen->word[o->word]);
			sim_bitlock_release(&gen->flags, 2u + o->lock,
					    &gen->wq);
			break;
		case OP_BL_SPIN:
			while (!sim_bitlock_take(&gen->flags, 2u + o->lock))
				sim_bit_wait(&gen->flags, 2u + o->lock,
					     &gen->wq);
			sim_spin_lock(&gen->spin[o->lock]);
			sim_word_add(&gen->word[o->word], t + 1);
			sim_spin_unlock(&gen->spin[o->lock]);
			sim_bitlock_release(&gen->flags, 2u + o->lock,
					    &gen->wq);
			break;
		case OP_BL_NEST:
			while (!sim_bitlock_take(&gen->flags, 2u + o->lock))
				sim_bit_wait(&gen->flags, 2u + o->lock,
					     &gen->wq);
			while (!sim_bitlock_take(&gen->flags, 3u - o->lock))
				sim_bit_wait(&gen->flags, 3u - o->lock,
					     &gen->wq);
			sim_word_add(&gen->word[o->word], t + 1);
			sim_bitlock_release(&gen->flags, 3u - o->lock,
					    &gen->wq);
			sim_bitlock_release(&gen->flags, 2u + o->lock,
					    &gen->wq);
			break;
		case OP_BL_MUTEX:
			while (!sim_bitlock_take(&gen->flags, 2u + o->lock))
				sim_bit_wait(&gen->flags, 2u + o->lock,
					     &gen->wq);
			sim_mutex_lock(&gen->mutex[0]);
			sim_word_add(&gen->word[o->word], t + 1);
			sim_mutex_unlock(&gen->mutex[0]);
			sim_bitlock_release(&gen->flags, 2u + o->lock,
					    &gen->wq);
			break;
		case OP_MUTEX_BL:
			sim_mutex_lock(&gen->mutex[0]);
			while (!sim_bitlock_take(&gen->flags, 2u + o->lock))
				sim_bit_wait(&gen->flags, 2u + o->lock,
					     &gen->wq);
			sim_word_add(&gen->word[o->word], t + 1);
			sim_bitlock_release(&gen->flags, 2u + o->lock,
					    &gen->wq);
			sim_mutex_unlock(&gen->mutex[0]);
			break;
		case OP_BL_TRY:
			if (!sim_bit_test_and_set(&gen->flags, 2u + o->lock)) {
				sim_word_write(&gen->word[o->word],
					       (uint64_t)t + 7);
				sim_bitlock_release(&gen->flags, 2u + o->lock,
						    &gen->wq);
				acc = acc * 31 + 1;
			} else {
				acc = acc * 31 + 2;
			}
			break;
		case OP_MUTEX_NEST:
			sim_mutex_lock(&gen->mutex[o->lock]);
			sim_mutex_lock(&gen->mutex[1 - o->lock]);
			sim_word_add(&gen->word[o->word], t + 1);
			sim_mutex_unlock(&gen->mutex[1 - o->lock]);
			sim_mutex_unlock(&gen->mutex[o->lock]);
			break;
		case OP_MUTEX_TWO:
			sim_mutex_lock(&gen->mutex[o->lock]);
			acc = acc * 31 + sim_word_read(&gen->word[o->word]);
			sim_word_add(&gen->word[1 - o->word], t + 1);
			sim_mutex_unlock(&gen->mutex[o->lock]);
			break;
		case OP_MUTEX_SPIN:
			sim_mutex_lock(&gen->mutex[o->lock]);
			sim_spin_lock(&gen->spin[o->lock]);
			sim_word_write(&gen->word[o->word],
				       sim_word_read(&gen->word[o->word]) * 2 +
				       (uint64_t)t + 1);
			sim_spin_unlock(&gen->spin[o->lock]);
			sim_mutex_unlock(&gen->mutex[o->lock]);
			break;
		case OP_RW_WSET:
			sim_rwlock_write_lock(&gen->rw);
			sim_word_write(&gen->word[o->word], (uint64_t)t + 1);
			sim_rwlock_write_unlock(&gen->rw);
			break;
		case OP_RW_WTRY:
			if (sim_rwlock_write_trylock(&gen->rw)) {
				sim_word_write(&gen->word[o->word],
					       (uint64_t)t + 5);
				sim_rwlock_write_unlock(&gen->rw);
				acc = acc * 31 + 1;
			} else {
				acc = acc * 31 + 2;
			}
			break;
		case OP_RW_RSET:
			sim_rwlock_read_lock(&gen->rw);
			sim_word_write(&gen->word[o->word], (uint64_t)t + 7);
			sim_rwlock_read_unlock(&gen->rw);
			break;
		case OP_RW_DOWN:
			sim_rwlock_write_lock(&gen->rw);
			sim_word_write(&gen->word[o->word], (uint64_t)t + 3);
			sim_rwlock_downgrade(&gen->rw);
			acc = acc * 31 + sim_word_read(&gen->word[1 - o->word]);
			sim_rwlock_read_unlock(&gen->rw);
			break;
		default:
			break;
		}
	}
	sim_word_write(&gen->seen[t], acc);
}

/* A check after every step: x0, read as signed, is not negative. */
static void gen_check(void *arg)
{
	const struct gen_state *g = arg;

	SIM_CHECK((int64_t)sim_word_peek(&g->word[0]) >= 0,
		  "x0 negative (%lld)",
		  (long long)(int64_t)sim_word_peek(&g->word[0]));
}

static void gen_setup(void *config)
{
	static const char *const names[] = { "P0", "P1", "P2" };
	struct gen_arg *args;

	gen = sim_arena_alloc(sizeof(*gen));
	memset(gen, 0, sizeof(*gen));
	gen->prog = config;
	args = sim_arena_alloc(TASKS_MAX * sizeof(*args));
	for (int w = 0; w < WORDS; w++)
		sim_word_init(&gen->word[w], 0, "x%d", w);
	for (int l = 0; l < 2; l++) {
		sim_mutex_init(&gen->mutex[l], "m%d", l);
		sim_spin_init(&gen->spin[l], "s%d", l);
	}
	sim_rwlock_init(&gen->rw, "rw");
	sim_word_init(&gen->array, 0, "array");
	sim_word_init(&gen->flags, 0, "flags");
	sim_waitq_init(&gen->wq, "flags.wait");
	sim_check_register("x0", gen_check, NULL, gen);
	for (int t = 0; t < gen->prog->tasks; t++) {
		sim_word_init(&gen->seen[t], 0, "seen%d", t);
		args[t].task = t;
		sim_task_spawn(names[t], gen_task, &args[t]);
	}
}

/* The state of the words: an execution's final state, or where it failed. */
static uint64_t gen_state_sig(void)
{
	uint64_t sig = 1469598103934665603ULL;

	for (int w = 0; w < WORDS; w++)
		sig = (sig ^ sim_word_peek(&gen->word[w])) * 1099511628211ULL;
	for (int t = 0; t < gen->prog->tasks; t++)
		sig = (sig ^ sim_word_peek(&gen->seen[t])) * 1099511628211ULL;
	for (int e = 0; e < ELEMENTS; e++)
		sig = (sig ^ gen->element[e]) * 1099511628211ULL;
	return (sig ^ sim_word_peek(&gen->flags)) * 1099511628211ULL;
}

static void gen_final(void *config)
{
	(void)config;
	last_sig = gen_state_sig();
}

/* Scheduling points an operation takes (a section: lock, body, unlock). */
static int op_points(enum op_kind kind)
{
	switch (kind) {
	case OP_LOCK_M:
	case OP_RW_WRITE:
		return 4;
	case OP_LOCK_S:
	case OP_RW_READ:
	case OP_BIT_LOCK:
		return 3;
	case OP_WB_WAIT:
		return 2;
	case OP_RW_TRY:
		return 2;
	case OP_SPIN_RMW:
	case OP_SPIN_TWO:
		return 4;
	case OP_SPIN_WRITE:
	case OP_SPIN_TRY:
		return 3;
	case OP_SPIN_NEST:
		return 5;
	case OP_MUTEX_WRITE:
	case OP_MUTEX_TRY:
	case OP_RW_RSET:
	case OP_RW_WSET:
	case OP_RW_WTRY:
		return 3;
	case OP_MUTEX_TWO:
		return 4;
	case OP_MUTEX_NEST:
	case OP_MUTEX_SPIN:
	case OP_RW_DOWN:
		return 5;
	case OP_BL_RMW:
		return 4;
	case OP_BL_READ:
	case OP_BL_TRY:
		return 3;
	case OP_BL_SPIN:
		return 6;
	case OP_BL_NEST:
	case OP_BL_MUTEX:
	case OP_MUTEX_BL:
		return 5;
	default:
		return 1;
	}
}

/*
 * The end of drawing one operation: over the points left (keeping one
 * for each of the @after operations still to come) it becomes a read;
 * then its word and lock.  Returns the budget left.
 */
static int op_finish(struct gen_op *o, int budget, int after, uint64_t *rng)
{
	if (op_points(o->kind) > budget - after)
		o->kind = OP_READ;
	budget -= op_points(o->kind);
	o->word = (int)(sim_rng_next(rng) % WORDS);
	o->lock = (int)(sim_rng_next(rng) % 2);
	return budget;
}

static void random_program(struct gen_program *p, uint64_t *rng)
{
	/* Three tasks: operations of one point. */
	static const enum op_kind small[] = {
		OP_READ, OP_WRITE, OP_ADD, OP_TAS, OP_RANGE_W, OP_RANGE_R,
	};

	memset(p, 0, sizeof(*p));
	/*
	 * Keep DFS small: 3 tasks get two one-point operations each; 2 tasks get
	 * up to three operations and at most seven points, critical
	 * sections included (an operation over budget becomes a read).
	 */
	p->tasks = 2 + (int)(sim_rng_next(rng) % 2);
	for (int t = 0; t < p->tasks; t++) {
		int budget = 7;

		p->ops[t] = p->tasks == 3 ? 2 : 1 + (int)(sim_rng_next(rng) % 3);
		for (int i = 0; i < p->ops[t]; i++) {
			struct gen_op *o = &p->op[t][i];

			if (p->tasks == 3)
				o->kind = small[sim_rng_next(rng) %
						(sizeof(small) / sizeof(small[0]))];
			else
				o->kind = (enum op_kind)(sim_rng_next(rng) %
							 OP_KINDS);
			budget = op_finish(o, budget, p->ops[t] - 1 - i, rng);
		}
	}
}

/*
 * The second corpus: the kinds of the first plus commuting adds and
 * subtractions of x1, subtractions of x0 (the check fails when x0 goes
 * negative), an assertion that
 * fails on a value read, a second word read in the same step, bit locks
 * and writeback waits on one wait queue (sim_bit_wait), a writeback whose
 * completion event clears the bit and wakes the queue in a later step,
 * and whole-word reads of the flags word.  Two tasks get up to three
 * operations and four points (plus the event's steps); three tasks two
 * one-point operations each.
 */
static void random_program_ext(struct gen_program *p, uint64_t *rng)
{
	static const enum op_kind small[] = {
		OP_READ, OP_WRITE, OP_ADD_NR, OP_SUB_NR, OP_SUB, OP_ASSERT,
		OP_READ_ALSO, OP_READ_FLAGS, OP_TAS,
	};
	static const enum op_kind kinds[] = {
		OP_READ, OP_WRITE, OP_ADD, OP_TAS, OP_LOCK_M, OP_LOCK_S,
		OP_EVENT, OP_RW_READ, OP_RW_WRITE, OP_RANGE_W,
		OP_ADD_NR, OP_SUB_NR, OP_SUB, OP_ASSERT, OP_READ_ALSO,
		OP_READ_FLAGS, OP_BIT_LOCK, OP_BIT_LOCK, OP_WB_START, OP_WB_START,
		OP_WB_WAIT, OP_WB_WAIT,
	};
	bool writeback = false;

	memset(p, 0, sizeof(*p));
	p->tasks = 2 + (int)(sim_rng_next(rng) % 2);
	for (int t = 0; t < p->tasks; t++) {
		/* Keep DFS small: 2 tasks get four points each, and one
		 * writeback (its completion event) costs three of them. */
		int budget = 4;

		p->ops[t] = p->tasks == 3 ? 2 : 1 + (int)(sim_rng_next(rng) % 3);
		for (int i = 0; i < p->ops[t]; i++) {
			struct gen_op *o = &p->op[t][i];
			int points;

			if (p->tasks == 3)
				o->kind = small[sim_rng_next(rng) %
						(sizeof(small) / sizeof(small[0]))];
			else
				o->kind = kinds[sim_rng_next(rng) %
						(sizeof(kinds) / sizeof(kinds[0]))];
			if (o->kind == OP_WB_START && writeback)
				o->kind = OP_READ;
			points = o->kind == OP_WB_START ? 3 :
				 op_points(o->kind);
			if (points > budget - (p->ops[t] - 1 - i)) {
				o->kind = OP_READ;
				points = 1;
			}
			writeback |= o->kind == OP_WB_START;
			budget -= points;
			o->word = (int)(sim_rng_next(rng) % WORDS);
			/* The check reads x0: commuting adds go to x1
			 * (docs/architecture.md, "What DPOR does not
			 * cover"). */
			if (o->kind == OP_ADD_NR || o->kind == OP_SUB_NR)
				o->word = 1;
			if (o->kind == OP_SUB)
				o->word = 0;
			o->lock = (int)(sim_rng_next(rng) % 2);
		}
	}
}

/*
 * The third corpus: spinlock sections (the lock-aware reduction's
 * subject) on two locks, flat ones of one or two accesses, nested ones
 * in either order (they can deadlock), trylock sections, against plain
 * accesses, mutex and rwlock sections and events.  Two tasks get up to
 * three operations and eight points; of three tasks each runs a section
 * of three points, the first also one plain access.
 */
static void random_program_spin(struct gen_program *p, uint64_t *rng)
{
	static const enum op_kind sections[] = {
		OP_SPIN_WRITE, OP_SPIN_TRY, OP_LOCK_S, OP_SPIN_WRITE,
	};
	static const enum op_kind kinds[] = {
		OP_READ, OP_WRITE, OP_ADD, OP_LOCK_M, OP_LOCK_S, OP_EVENT,
		OP_RW_READ, OP_RW_WRITE, OP_SPIN_RMW, OP_SPIN_RMW,
		OP_SPIN_WRITE, OP_SPIN_WRITE, OP_SPIN_NEST, OP_SPIN_NEST,
		OP_SPIN_TRY, OP_SPIN_TRY, OP_SPIN_TWO, OP_SPIN_TWO,
		OP_ASSERT,
	};
	static const enum op_kind plain[] = {
		OP_READ, OP_WRITE, OP_ADD, OP_TAS,
	};

	memset(p, 0, sizeof(*p));
	p->tasks = 2 + (int)(sim_rng_next(rng) % 2);
	for (int t = 0; t < p->tasks; t++) {
		int budget = 8;

		p->ops[t] = p->tasks == 3 ? (t == 0 ? 2 : 1) :
			    1 + (int)(sim_rng_next(rng) % 3);
		for (int i = 0; i < p->ops[t]; i++) {
			struct gen_op *o = &p->op[t][i];

			if (p->tasks == 3)
				o->kind = i == 0 ?
					  sections[sim_rng_next(rng) %
						   (sizeof(sections) /
						    sizeof(sections[0]))] :
					  plain[sim_rng_next(rng) %
						(sizeof(plain) /
						 sizeof(plain[0]))];
			else
				o->kind = kinds[sim_rng_next(rng) %
						(sizeof(kinds) / sizeof(kinds[0]))];
			budget = op_finish(o, budget, p->ops[t] - 1 - i, rng);
		}
	}
}

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

/*
 * The shape the sleeping-lock, read-section and bit-lock corpora share:
 * two or three tasks; two tasks get up to three operations drawn from
 * kinds[] and six points; of three tasks each runs one operation, P0 and
 * P1 one of sections[], P2 a section or one of plain[] (a coin).  The
 * draws' order is the corpora's since they were written, so a seed gives
 * the program it always gave.
 */
static void shaped_program(struct gen_program *p, uint64_t *rng,
			   const enum op_kind *sections, size_t nsections,
			   const enum op_kind *kinds, size_t nkinds,
			   const enum op_kind *plain, size_t nplain)
{
	memset(p, 0, sizeof(*p));
	p->tasks = 2 + (int)(sim_rng_next(rng) % 2);
	for (int t = 0; t < p->tasks; t++) {
		int budget = 6;

		p->ops[t] = p->tasks == 3 ? 1 :
			    1 + (int)(sim_rng_next(rng) % 3);
		for (int i = 0; i < p->ops[t]; i++) {
			struct gen_op *o = &p->op[t][i];

			if (p->tasks == 3)
				o->kind = t < 2 || sim_rng_next(rng) % 2 ?
					  sections[sim_rng_next(rng) %
						   nsections] :
					  plain[sim_rng_next(rng) % nplain];
			else
				o->kind = kinds[sim_rng_next(rng) % nkinds];
			budget = op_finish(o, budget, p->ops[t] - 1 - i, rng);
		}
	}
}

/*
 * The fourth corpus: mutex and rwlock sections (the lock-aware
 * reduction's sleeping locks) on two mutexes and one rwlock, flat ones
 * of one or two accesses, nested mutexes in either order (they can
 * deadlock), a spinlock section inside a mutex section, trylocks of
 * either, rwlock write sections beside read sections, read trylocks and
 * a downgrade, against plain accesses, spinlock sections and an
 * assertion.  Two tasks get up to three operations and six points (a
 * task that sleeps on a mutex takes more steps); of three tasks each
 * runs one operation: P0 and P1 a section of three points, P2 a section
 * or a plain access.
 */
static void random_program_sleep(struct gen_program *p, uint64_t *rng)
{
	static const enum op_kind sections[] = {
		OP_MUTEX_WRITE, OP_MUTEX_TRY, OP_RW_WSET, OP_RW_WTRY,
		OP_RW_READ, OP_MUTEX_WRITE, OP_RW_WSET, OP_SPIN_WRITE,
	};
	static const enum op_kind kinds[] = {
		OP_READ, OP_WRITE, OP_ADD, OP_LOCK_M, OP_LOCK_M, OP_RW_READ,
		OP_RW_WRITE, OP_RW_TRY, OP_SPIN_WRITE, OP_ASSERT,
		OP_MUTEX_WRITE, OP_MUTEX_WRITE, OP_MUTEX_TRY, OP_MUTEX_TRY,
		OP_MUTEX_NEST, OP_MUTEX_NEST, OP_MUTEX_TWO, OP_MUTEX_TWO,
		OP_MUTEX_SPIN, OP_RW_WSET, OP_RW_WSET, OP_RW_WTRY,
		OP_RW_DOWN,
	};
	static const enum op_kind plain[] = {
		OP_READ, OP_WRITE, OP_ADD, OP_TAS,
	};

	shaped_program(p, rng, sections, ARRAY_LEN(sections), kinds,
		       ARRAY_LEN(kinds), plain, ARRAY_LEN(plain));
}

/*
 * The sixth corpus: rwlock read sections (reading a word, or writing
 * one: a read section's body may write what the lock does not guard)
 * beside write sections of the same rwlock, plain accesses, an
 * assertion, a mutex and a spinlock section, and now and then a read
 * trylock or a downgrade (which keep the lock's read sections from being
 * flat: lock_sections(), read_sections_ok()).  Shaped as the sleeping-
 * lock corpus: two tasks get up to three operations and six points; of
 * three tasks each runs one operation: P0 and P1 an rwlock section, P2
 * a section or a plain access.
 */
static void random_program_read(struct gen_program *p, uint64_t *rng)
{
	static const enum op_kind sections[] = {
		OP_RW_READ, OP_RW_RSET, OP_RW_WSET, OP_RW_WRITE, OP_RW_RSET,
		OP_RW_READ, OP_RW_WSET,
	};
	static const enum op_kind kinds[] = {
		OP_READ, OP_WRITE, OP_ADD, OP_ASSERT, OP_RW_READ, OP_RW_READ,
		OP_RW_RSET, OP_RW_RSET, OP_RW_RSET, OP_RW_WSET, OP_RW_WSET,
		OP_RW_WRITE, OP_MUTEX_WRITE, OP_SPIN_WRITE, OP_RW_TRY,
		OP_RW_DOWN,
	};
	static const enum op_kind plain[] = {
		OP_READ, OP_WRITE, OP_ADD, OP_RW_TRY,
	};

	shaped_program(p, rng, sections, ARRAY_LEN(sections), kinds,
		       ARRAY_LEN(kinds), plain, ARRAY_LEN(plain));
}

/*
 * The fifth corpus: bit locks (sim_bitlock_take, sim_bitlock_release:
 * the folio lock's primitives) on two bits of the flags word, sections
 * of one or two accesses, a spinlock section nested in one (a flat
 * section with a nested one), bit locks nested in either order and
 * against a mutex in either order (they can deadlock), a trylock of the
 * bit (a plain test-and-set, released as a bit lock), beside plain
 * accesses, whole-word reads of the flags, writeback waits on the same
 * queue, spinlock and mutex sections and an assertion.  Two tasks get up
 * to three operations and six points (a task that waits for a bit takes
 * more steps); of three tasks each runs one operation: P0 and P1 a bit
 * lock section of at most four points, P2 a section or a plain access.
 */
static void random_program_bitlock(struct gen_program *p, uint64_t *rng)
{
	static const enum op_kind sections[] = {
		OP_BL_RMW, OP_BL_READ, OP_BL_TRY, OP_BL_READ, OP_BL_RMW,
		OP_SPIN_WRITE, OP_MUTEX_WRITE,
	};
	static const enum op_kind kinds[] = {
		OP_READ, OP_WRITE, OP_ADD, OP_READ_FLAGS, OP_ASSERT,
		OP_LOCK_S, OP_MUTEX_WRITE, OP_SPIN_NEST, OP_WB_WAIT,
		OP_BL_RMW, OP_BL_RMW, OP_BL_READ, OP_BL_READ, OP_BL_SPIN,
		OP_BL_SPIN, OP_BL_NEST, OP_BL_NEST, OP_BL_MUTEX, OP_MUTEX_BL,
		OP_BL_TRY, OP_BL_TRY,
	};
	static const enum op_kind plain[] = {
		OP_READ, OP_WRITE, OP_ADD, OP_READ_FLAGS,
	};

	shaped_program(p, rng, sections, ARRAY_LEN(sections), kinds,
		       ARRAY_LEN(kinds), plain, ARRAY_LEN(plain));
}

static void print_program(const struct gen_program *p)
{
	static const char *const names[] = { "read", "write", "add", "tas",
					      "mutex-rmw", "spin-read",
					      "event", "rw-read", "rw-write",
					      "rw-tryread", "range-write",
					      "range-read", "add-nr", "sub-nr",
					      "sub", "assert", "read-also",
					      "read-flags", "bit-lock",
					      "wb-start", "wb-wait", "spin-rmw",
					      "spin-write", "spin-nest",
					      "spin-try", "spin-two",
					      "mutex-write", "mutex-try",
					      "mutex-nest", "mutex-two",
					      "mutex-spin", "rw-wset", "rw-wtry",
					      "rw-down", "bl-rmw", "bl-read",
					      "bl-spin", "bl-nest", "bl-mutex",
					      "mutex-bl", "bl-try" };

	for (int t = 0; t < p->tasks; t++) {
		fprintf(stderr, "P%d:", t);
		for (int i = 0; i < p->ops[t]; i++)
			fprintf(stderr, " %s(x%d,l%d)", names[p->op[t][i].kind],
				p->op[t][i].word, p->op[t][i].lock);
		fprintf(stderr, "\n");
	}
}

/* ---- collecting outcomes ------------------------------------------------ */

/* Set by tests that want DPOR without the lock-aware reduction. */
static bool lock_aware_off;
/* Set by tests that want optimal DPOR (wakeup trees). */
static bool optimal_on;
/* The redundant (sleep-set-blocked) executions of the last explore(),
 * and the wakeup trees widened to every task (sim_dpor_wut_fallbacks). */
static uint64_t last_pruned, last_fallbacks;

static struct sigset *collect_into;
static struct sigset *collect_traces_into;	/* NULL: not collected */
/* The traces of the executions that ended without a failure, and those. */
static struct sigset *collect_ok_traces_into;
static uint64_t ok_executions;

static void collect(void *ctx, const struct sim_outcome *o)
{
	(void)ctx;
	/* A failure counts with the state it left (the arena is still up). */
	if (o->kind == SIM_OK)
		sigset_add(collect_into, last_sig);
	else
		sigset_add(collect_into, (0xdead0000ULL + (uint64_t)o->kind) ^
			   gen_state_sig());
	if (collect_traces_into)
		sigset_add(collect_traces_into, sim_exec_trace_hash());
	if (collect_ok_traces_into && o->kind == SIM_OK) {
		sigset_add(collect_ok_traces_into, sim_exec_trace_hash());
		ok_executions++;
	}
}

/*
 * Explore with DFS or DPOR within preemption bound @bound (-1: none);
 * *complete says whether the strategy covered its space.
 */
static uint64_t explore_within(const struct sim_program *p, bool dpor,
			       int64_t bound, struct sigset *set,
			       bool *complete)
{
	struct sim_explore_options opt = { .on_execution = collect };
	struct sim_explore_result res;
	struct sim_strategy s;
	uint64_t n;

	memset(set, 0, sizeof(*set));
	collect_into = set;
	if (dpor) {
		cr_assert_eq(sim_strategy_dpor_bounded(&s, bound), 0);
		if (lock_aware_off)
			sim_dpor_set_lock_aware(&s, false);
		if (optimal_on)
			sim_dpor_set_optimal(&s, true);
	} else
		cr_assert_eq(sim_strategy_dfs(&s, bound), 0);
	last_sig = 0;
	sim_explore(p, &s, &opt, &res);
	n = res.executions;
	last_pruned = res.pruned;
	last_fallbacks = dpor ? sim_dpor_wut_fallbacks(&s) : 0;
	*complete = res.complete;
	sim_explore_result_fini(&res);
	sim_strategy_fini(&s);
	return n;
}

static uint64_t explore_bounded(const struct sim_program *p, bool dpor,
				int64_t bound, struct sigset *set)
{
	bool complete;
	uint64_t n = explore_within(p, dpor, bound, set, &complete);

	cr_assert(complete);
	return n;
}

static uint64_t explore(const struct sim_program *p, bool dpor,
			struct sigset *set, bool *complete)
{
	return explore_within(p, dpor, -1, set, complete);
}

Test(dpor, agrees_with_dfs_on_random_programs)
{
	static struct sigset by_dfs, by_dpor;
	static struct gen_program prog;
	struct sim_program p = {
		.name = "test/generated",
		.setup = gen_setup,
		.final = gen_final,
		.config = &prog,
	};
	uint64_t rng = 12345, dfs_total = 0, dpor_total = 0;
	const char *env = getenv("WPSIM_DPOR_PROGRAMS");
	int programs = env ? atoi(env) : sample(60);	/* the deep tier: 1000 */

	for (int i = 0; i < programs; i++) {
		bool c1, c2;
		uint64_t a, b;

		random_program(&prog, &rng);
		a = explore(&p, false, &by_dfs, &c1);
		b = explore(&p, true, &by_dpor, &c2);
		cr_assert(c1 && c2);
		if (!sigset_equal(&by_dfs, &by_dpor))
			print_program(&prog);
		cr_assert(sigset_equal(&by_dfs, &by_dpor),
			  "program %d: dfs reached %u outcomes in %llu "
			  "executions, dpor %u in %llu", i, by_dfs.count,
			  (unsigned long long)a, by_dpor.count,
			  (unsigned long long)b);
		cr_assert_leq(b, a, "program %d", i);
		dfs_total += a;
		dpor_total += b;
	}
	cr_log_info("random corpus: dfs %llu executions, dpor %llu",
		    (unsigned long long)dfs_total,
		    (unsigned long long)dpor_total);
}

static void counter_collect(void *ctx, const struct sim_outcome *o)
{
	(void)ctx;
	sigset_add(collect_into, ((uint64_t)o->kind << 32) ^
		   (uint64_t)strlen(o->message) ^
		   (o->kind ? (uint64_t)o->message[strlen(o->message) - 1] : 0));
}

Test(dpor, agrees_with_dfs_on_engine_demos)
{
	static const struct sim_program *const demos[] = {
		&wpsim_racy_counter, &wpsim_locked_counter,
		&wpsim_spin_counter, &wpsim_lock_inversion,
		&wpsim_independent_3, &wpsim_primitives,
	};
	static struct sigset a, b;

	for (unsigned int i = 0; i < sizeof(demos) / sizeof(demos[0]); i++) {
		struct sim_explore_options opt = { .on_execution =
							   counter_collect };
		struct sim_explore_result r1, r2;
		struct sim_strategy s1, s2;

		memset(&a, 0, sizeof(a));
		memset(&b, 0, sizeof(b));
		collect_into = &a;
		sim_strategy_dfs(&s1, -1);
		sim_explore(demos[i], &s1, &opt, &r1);
		collect_into = &b;
		sim_strategy_dpor(&s2);
		sim_explore(demos[i], &s2, &opt, &r2);
		cr_assert(r1.complete && r2.complete, "%s", demos[i]->name);
		cr_assert(sigset_equal(&a, &b), "%s: dfs %u outcomes, dpor %u",
			  demos[i]->name, a.count, b.count);
		cr_assert_eq(r1.failures > 0, r2.failures > 0, "%s",
			     demos[i]->name);
		sim_explore_result_fini(&r1);
		sim_explore_result_fini(&r2);
		sim_strategy_fini(&s1);
		sim_strategy_fini(&s2);
	}
}

Test(dpor, independent_tasks_take_one_execution)
{
	struct sim_explore_options opt = { 0 };
	struct sim_explore_result res;
	struct sim_strategy s;

	sim_strategy_dpor(&s);
	sim_explore(&wpsim_independent_3, &s, &opt, &res);
	cr_assert_eq(res.executions, 1);
	cr_assert_eq(res.pruned, 0);
	cr_assert(res.complete);
	sim_explore_result_fini(&res);
	sim_strategy_fini(&s);
}

Test(dpor, three_tasks_ten_times_fewer_than_dfs)
{
	struct sim_explore_options opt = { 0 };
	struct sim_explore_result r1, r2;
	struct sim_strategy s1, s2;

	sim_strategy_dfs(&s1, -1);
	sim_explore(&wpsim_spin_counter, &s1, &opt, &r1);
	sim_strategy_dpor(&s2);
	sim_explore(&wpsim_spin_counter, &s2, &opt, &r2);
	/* Three critical sections: 3! = 6 lock orders. */
	cr_assert_eq(r2.executions, 6);
	cr_assert_geq(r1.executions, 10 * r2.executions, "dfs %llu dpor %llu",
		      (unsigned long long)r1.executions,
		      (unsigned long long)r2.executions);
	sim_explore_result_fini(&r1);
	sim_explore_result_fini(&r2);
	sim_strategy_fini(&s1);
	sim_strategy_fini(&s2);
}

Test(dpor, finds_the_lost_update)
{
	struct sim_explore_options opt = { .stop_on_failure = true };
	struct sim_explore_result res;
	struct sim_strategy s;

	sim_strategy_dpor(&s);
	sim_explore(&wpsim_racy_counter, &s, &opt, &res);
	cr_assert_eq(res.failures, 1);
	cr_assert_eq(res.first.outcome.kind, SIM_FAIL_PROPERTY);
	sim_explore_result_fini(&res);
	sim_strategy_fini(&s);
}

/*
 * DPOR with a preemption bound K reaches every outcome DFS with the same
 * bound reaches (it may reach more: a trace it runs can stand for one
 * needing more preemptions), and nothing DFS without a bound does not.
 */
Test(dpor, bounded_covers_what_bounded_dfs_reaches)
{
	static struct sigset by_dfs, by_dpor, all;
	static struct gen_program prog;
	struct sim_program p = {
		.name = "test/generated",
		.setup = gen_setup,
		.final = gen_final,
		.config = &prog,
	};
	uint64_t rng = 777, dfs_total[3] = { 0 }, dpor_total[3] = { 0 };
	const char *env = getenv("WPSIM_DPOR_PROGRAMS");
	int programs = env ? atoi(env) : sample(25);	/* 300 checked 2026-11-29 */

	for (int i = 0; i < programs; i++) {
		random_program(&prog, &rng);
		explore_bounded(&p, false, -1, &all);
		for (int k = 0; k <= 2; k++) {
			dfs_total[k] += explore_bounded(&p, false, k, &by_dfs);
			dpor_total[k] += explore_bounded(&p, true, k,
							 &by_dpor);
			if (!sigset_includes(&by_dpor, &by_dfs) ||
			    !sigset_includes(&all, &by_dpor))
				print_program(&prog);
			cr_assert(sigset_includes(&by_dpor, &by_dfs),
				  "program %d, bound %d: dpor misses an outcome "
				  "dfs reaches (%u vs %u)", i, k,
				  by_dpor.count, by_dfs.count);
			cr_assert(sigset_includes(&all, &by_dpor),
				  "program %d, bound %d: dpor reached an "
				  "unreachable outcome", i, k);
		}
	}
	for (int k = 0; k <= 2; k++)
		cr_log_info("bound %d: dfs %llu executions, dpor %llu", k,
			    (unsigned long long)dfs_total[k],
			    (unsigned long long)dpor_total[k]);
}

/*
 * Regression: a reader whose first attempt comes while a writer holds
 * the lock registers as a waiter, which the writer's later trylock sees
 * (it fails).  DPOR must try that attempt before the writer's release
 * even though the reader's eventual take comes after it.
 */
Test(dpor, waiter_registration_is_seen_by_a_trylock)
{
	static struct sigset by_dfs, by_dpor;
	static struct gen_program prog = {
		.tasks = 2,
		.ops = { 2, 1 },
		.op = {
			{ { OP_RW_WRITE, 0, 0 }, { OP_RW_TRY, 1, 0 } },
			{ { OP_RW_READ, 0, 0 } },
		},
	};
	struct sim_program p = {
		.name = "test/waiter-vs-trylock",
		.setup = gen_setup,
		.final = gen_final,
		.config = &prog,
	};
	bool c1, c2;

	explore(&p, false, &by_dfs, &c1);
	explore(&p, true, &by_dpor, &c2);
	cr_assert(c1 && c2);
	cr_assert(sigset_equal(&by_dfs, &by_dpor), "dfs %u outcomes, dpor %u",
		  by_dfs.count, by_dpor.count);
	cr_assert_geq(by_dfs.count, 2);
}

/*
 * Explore @prog with DFS and with DPOR, collecting final states and
 * Mazurkiewicz traces (sim_exec_trace_hash), and assert that DPOR reaches
 * the same states and the same traces, with one complete execution per
 * trace (sleep sets) among the executions that end without a failure
 * (one that fails may be run more than once: the failing step ends the
 * execution, so it is dependent on every step, even on one that touches
 * nothing, such as a task's start, but the trace leaves those out).
 * Adds the execution counts to @dfs_total and @dpor_total.
 */
static void same_traces_as_dfs(struct gen_program *prog, const char *name,
			       uint64_t *dfs_total, uint64_t *dpor_total)
{
	static struct sigset by_dfs, by_dpor, by_lock_aware, traces_dfs,
			     traces_dpor, ok;
	struct sim_program p = {
		.name = name,
		.setup = gen_setup,
		.final = gen_final,
		.config = prog,
	};
	bool c1, c2;
	uint64_t a, b, la;

	memset(&traces_dfs, 0, sizeof(traces_dfs));
	memset(&traces_dpor, 0, sizeof(traces_dpor));
	collect_traces_into = &traces_dfs;
	a = explore(&p, false, &by_dfs, &c1);
	collect_traces_into = &traces_dpor;
	memset(&ok, 0, sizeof(ok));
	collect_ok_traces_into = &ok;
	ok_executions = 0;
	/* Traces are of the plain dependency: lock-aware off. */
	lock_aware_off = true;
	b = explore(&p, true, &by_dpor, &c2);
	lock_aware_off = false;
	collect_traces_into = NULL;
	collect_ok_traces_into = NULL;
	cr_assert(c1 && c2);
	/* Lock-aware: the same final states and failures. */
	la = explore(&p, true, &by_lock_aware, &c2);
	cr_assert(c2);
	if (!sigset_equal(&by_dfs, &by_lock_aware))
		print_program(prog);
	cr_assert(sigset_equal(&by_dfs, &by_lock_aware), "%s: outcomes: dfs "
		  "%u, lock-aware dpor %u", name, by_dfs.count,
		  by_lock_aware.count);
	if (la > b)
		cr_log_info("%s: lock-aware %llu executions, plain %llu", name,
			    (unsigned long long)la, (unsigned long long)b);
	if (!sigset_equal(&by_dfs, &by_dpor) ||
	    !sigset_equal(&traces_dfs, &traces_dpor))
		print_program(prog);
	cr_assert(sigset_equal(&by_dfs, &by_dpor), "%s: outcomes: dfs %u, "
		  "dpor %u", name, by_dfs.count, by_dpor.count);
	cr_assert(sigset_equal(&traces_dfs, &traces_dpor), "%s: traces: dfs "
		  "%u in %llu executions, dpor %u in %llu", name,
		  traces_dfs.count, (unsigned long long)a, traces_dpor.count,
		  (unsigned long long)b);
	cr_assert_eq(ok.count, ok_executions, "%s: dpor ran %llu executions "
		     "of %u traces", name, (unsigned long long)ok_executions,
		     ok.count);
	cr_assert_leq(b, a, "%s", name);
	*dfs_total += a;
	*dpor_total += b;
}

/*
 * Stronger than final states: on every random program, the set of
 * Mazurkiewicz traces DPOR's executions belong to equals the set DFS's
 * executions belong to, i.e. DPOR runs at least one execution of every
 * trace, and (sleep sets) complete executions of distinct traces only.
 */
Test(dpor, covers_every_trace_dfs_reaches)
{
	static struct gen_program prog;
	uint64_t rng = 4242, dfs_total = 0, dpor_total = 0;
	const char *env = getenv("WPSIM_DPOR_PROGRAMS");
	int programs = env ? atoi(env) : sample(30);

	for (int i = 0; i < programs; i++) {
		random_program(&prog, &rng);
		same_traces_as_dfs(&prog, "test/generated", &dfs_total,
				   &dpor_total);
	}
	cr_log_info("traces: dfs %llu executions, dpor %llu",
		    (unsigned long long)dfs_total,
		    (unsigned long long)dpor_total);
}

/* The same with optimal DPOR: one complete execution per trace too. */
Test(dpor, optimal_covers_every_trace_dfs_reaches)
{
	static struct gen_program prog;
	uint64_t rng = 4242, dfs_total = 0, dpor_total = 0;
	const char *env = getenv("WPSIM_DPOR_PROGRAMS");
	int programs = env ? atoi(env) : sample(30);

	optimal_on = true;
	for (int i = 0; i < programs; i++) {
		random_program(&prog, &rng);
		same_traces_as_dfs(&prog, "test/generated", &dfs_total,
				   &dpor_total);
	}
	optimal_on = false;
	cr_log_info("traces (optimal): dfs %llu executions, dpor %llu",
		    (unsigned long long)dfs_total,
		    (unsigned long long)dpor_total);
}

/*
 * Reader-writer windows with three tasks (the random corpus gives three
 * tasks one-point operations only): every combination of one read
 * section, write section or read trylock per task.
 */
Test(dpor, rwlock_sections_of_three_tasks_agree_with_dfs)
{
	static const enum op_kind kinds[] = { OP_RW_READ, OP_RW_WRITE,
					      OP_RW_TRY };
	static struct gen_program prog;
	uint64_t dfs_total = 0, dpor_total = 0;

	/*
	 * The sanitizer tier (test_scale() > 1) takes two of the ten
	 * combinations: RWT (every kind against the other two) and TTT
	 * (trylocks alone); the plain tier takes all ten.
	 */
	bool two = test_scale() > 1;
	int combo = 0;

	for (int a = 0; a < 3; a++)
		for (int b = a; b < 3; b++)
			for (int c = b; c < 3; c++) {
				if (two && combo++ % 5 != 4)
					continue;
				memset(&prog, 0, sizeof(prog));
				prog.tasks = 3;
				prog.ops[0] = prog.ops[1] = prog.ops[2] = 1;
				prog.op[0][0] = (struct gen_op){ kinds[a], 0, 0 };
				prog.op[1][0] = (struct gen_op){ kinds[b], 0, 0 };
				prog.op[2][0] = (struct gen_op){ kinds[c], 1, 0 };
				same_traces_as_dfs(&prog, "test/rwlock-3",
						   &dfs_total, &dpor_total);
			}
	cr_log_info("rwlock, 3 tasks: dfs %llu executions, dpor %llu",
		    (unsigned long long)dfs_total,
		    (unsigned long long)dpor_total);
}

/*
 * The second corpus (random_program_ext: waits and wake-ups on one wait
 * queue, events that clear a bit and wake in a later step, commuting
 * adds and subtractions under a check, assertions): the same final
 * states (a failure counts with the state it left), the same
 * Mazurkiewicz traces and one execution per trace, as DFS.  Before the
 * fix for truncated executions (sim/dpor.c, truncated()), a failing step
 * hid the races of every other task's next step: program 12 of this
 * corpus is the first to show it (final states: DFS 2, DPOR 1).
 */
Test(dpor, waits_events_and_failures_agree_with_dfs)
{
	static struct gen_program prog;
	uint64_t rng = 9001, dfs_total = 0, dpor_total = 0;
	const char *env = getenv("WPSIM_DPOR_PROGRAMS");
	int programs = env ? atoi(env) : sample(40);

	for (int i = 0; i < programs; i++) {
		char name[48];

		random_program_ext(&prog, &rng);
		snprintf(name, sizeof(name), "test/generated-ext %d", i);
		same_traces_as_dfs(&prog, name, &dfs_total, &dpor_total);
	}
	cr_log_info("waits, events, failures: dfs %llu executions, dpor %llu",
		    (unsigned long long)dfs_total,
		    (unsigned long long)dpor_total);
}

/*
 * Regression: a wake-up that finds the wait queue empty.  The writeback
 * completion event clears bit 1 in one step and wakes the queue in a
 * later one; a task in a bit-lock section may go to sleep on the same
 * queue (for bit 0) before that wake-up, and be woken by it, or after,
 * and not be.  The empty wake-up used to record nothing, so DPOR took
 * the two orders for one and lost the first's traces.
 *   P0: bit-lock (test_and_set bit 0, or sleep on wq)
 *   P1: set bit 1 and post the completion; bit-lock
 *   completion: test_and_clear bit 1; wake wq
 */
Test(dpor, empty_wake_up_is_ordered_with_a_sleep)
{
	static struct gen_program prog = {
		.tasks = 2,
		.ops = { 1, 2 },
		.op = {
			{ { OP_BIT_LOCK, 0, 0 } },
			{ { OP_WB_START, 0, 0 }, { OP_BIT_LOCK, 1, 0 } },
		},
	};
	uint64_t dfs_total = 0, dpor_total = 0;

	same_traces_as_dfs(&prog, "test/empty-wake-up", &dfs_total,
			   &dpor_total);
	cr_assert_gt(dfs_total, dpor_total);
}

/*
 * The lock-aware reduction (sim/dpor.c, lock_sections()): on random
 * programs of spinlock sections (flat, two-access, nested in either
 * order, trylock) with plain accesses, mutexes, rwlocks and events, DPOR
 * reaches exactly the final states and failures (deadlocks of nested
 * sections included) DFS reaches.  It may run a few more executions than
 * DPOR without it on a program (logged): its races move to other nodes.
 * 30 programs in the quick tier (400 checked by hand), 2 x
 * WPSIM_DPOR_PROGRAMS in the deep one (engine-dpor-spin-deep: 1000).
 */
/*
 * One lock corpus: @programs random programs from @gen, each explored by
 * DFS, by DPOR with the lock-aware reduction and by DPOR without it; the
 * three must reach the same final states and failures.
 */
static void lock_corpus_agrees_with_dfs(const char *name,
					void (*gen)(struct gen_program *,
						    uint64_t *),
					uint64_t rng, int programs,
					const char *label)
{
	static struct sigset by_dfs, by_dpor, by_plain;
	static struct gen_program prog;
	struct sim_program p = {
		.name = name,
		.setup = gen_setup,
		.final = gen_final,
		.config = &prog,
	};
	uint64_t dfs_total = 0, dpor_total = 0, plain_total = 0;

	for (int i = 0; i < programs; i++) {
		bool c1, c2, c3;
		uint64_t a, b, c;

		gen(&prog, &rng);
		a = explore(&p, false, &by_dfs, &c1);
		b = explore(&p, true, &by_dpor, &c2);
		lock_aware_off = true;
		c = explore(&p, true, &by_plain, &c3);
		lock_aware_off = false;
		cr_assert(c1 && c2 && c3);
		if (!sigset_equal(&by_dfs, &by_dpor))
			print_program(&prog);
		cr_assert(sigset_equal(&by_dfs, &by_dpor),
			  "program %d: dfs reached %u outcomes in %llu "
			  "executions, lock-aware dpor %u in %llu", i,
			  by_dfs.count, (unsigned long long)a, by_dpor.count,
			  (unsigned long long)b);
		cr_assert(sigset_equal(&by_dfs, &by_plain), "program %d", i);
		if (b > c)
			cr_log_info("program %d: lock-aware %llu executions, "
				    "plain %llu", i, (unsigned long long)b,
				    (unsigned long long)c);
		dfs_total += a;
		dpor_total += b;
		plain_total += c;
	}
	cr_log_info("%s corpus: dfs %llu executions, dpor %llu, lock-aware "
		    "%llu", label, (unsigned long long)dfs_total,
		    (unsigned long long)plain_total,
		    (unsigned long long)dpor_total);
}

Test(dpor, spinlock_sections_agree_with_dfs)
{
	const char *env = getenv("WPSIM_DPOR_PROGRAMS");

	lock_corpus_agrees_with_dfs("test/generated-spin", random_program_spin,
				    777, env ? 2 * atoi(env) : sample(30),
				    "spin");
}

/*
 * Regressions of the lock-aware reduction, found by the spin corpus while
 * it was built (each lost final states against DFS):
 *  1. P0: s0 { x1 = 1 }  P1: s0 { x1 = 2x1 + 2 }  P2: s1 { x1 = 2x1 + 3 }
 *     A race of P1 and P2 on x1 was moved to the take of s0 because the
 *     walk held P0's take of s0, which the race does not depend on: only
 *     the steps the second step depends on count.
 *  2. P0: s1 { x1 = 1 }  P1: s1 { r = x1 }  P2: s1 { r = x1 }
 *     Reversing P0's write and P2's read through P0's take took P0 as an
 *     initial of a walk where P2's section must come first (the walk's
 *     takes of one lock keep their order).
 *  3. engine/spin-counter (3 tasks, s { x = x + 1 }): 2 executions,
 *     not 6: P1's first step (its start) was enabled at the race, its
 *     take was not; the race is moved to the take of the section held
 *     whenever the walk needs a take of a lock held there.
 */
Test(dpor, lock_aware_regressions)
{
	static const struct gen_program progs[] = {
		{ .tasks = 3, .ops = { 1, 1, 1 },
		  .op = { { { OP_SPIN_WRITE, 1, 0 } },
			  { { OP_SPIN_RMW, 1, 0 } },
			  { { OP_SPIN_RMW, 1, 1 } } } },
		{ .tasks = 3, .ops = { 1, 1, 1 },
		  .op = { { { OP_SPIN_WRITE, 1, 1 } },
			  { { OP_LOCK_S, 1, 1 } },
			  { { OP_LOCK_S, 1, 1 } } } },
		/*
		 * A writer that waits is seen by a read trylock after the
		 * section it waited for (P1 takes s1 at P0's release, or
		 * later: the trylock fails either way), and a writer and
		 * two readers of one rwlock.
		 */
		{ .tasks = 2, .ops = { 3, 1 },
		  .op = { { { OP_RW_WSET, 1, 0 }, { OP_RW_TRY, 0, 0 },
			    { OP_WRITE, 1, 0 } },
			  { { OP_RW_WSET, 1, 0 } } } },
		{ .tasks = 3, .ops = { 1, 1, 1 },
		  .op = { { { OP_RW_WSET, 1, 0 } },
			  { { OP_RW_READ, 1, 0 } },
			  { { OP_RW_READ, 1, 0 } } } },
	};
	static struct sigset by_dfs, by_dpor;
	struct sim_explore_options opt = { 0 };
	struct sim_explore_result res;
	struct sim_strategy s;

	for (size_t i = 0; i < sizeof(progs) / sizeof(progs[0]); i++) {
		struct sim_program p = {
			.name = "test/lock-aware", .setup = gen_setup,
			.final = gen_final, .config = (void *)&progs[i],
		};
		bool c1, c2;

		explore(&p, false, &by_dfs, &c1);
		explore(&p, true, &by_dpor, &c2);
		cr_assert(c1 && c2);
		cr_assert(sigset_equal(&by_dfs, &by_dpor), "program %zu: dfs "
			  "%u outcomes, dpor %u", i + 1, by_dfs.count,
			  by_dpor.count);
	}
	/* Three sections of a read-modify-write: 3! orders, no more. */
	sim_strategy_dpor(&s);
	sim_explore(&wpsim_spin_counter, &s, &opt, &res);
	cr_assert_eq(res.executions, 6);
	sim_explore_result_fini(&res);
	sim_strategy_fini(&s);
}

/*
 * The lock-aware reduction on sleeping locks (sim/dpor.c,
 * lock_sections()): on random programs of mutex and rwlock sections
 * (flat, two-access, nested mutexes in either order, a spinlock inside a
 * mutex, trylocks, read sections, a downgrade) DPOR reaches exactly the
 * final states and failures (deadlocks included) DFS reaches, with the
 * reduction on and off.  30 programs in the quick tier, 2 x
 * WPSIM_DPOR_PROGRAMS in the deep one (engine-dpor-sleep-deep: 1000).
 */
Test(dpor, sleeping_lock_sections_agree_with_dfs)
{
	const char *env = getenv("WPSIM_DPOR_PROGRAMS");

	lock_corpus_agrees_with_dfs("test/generated-sleep",
				    random_program_sleep, 1601,
				    env ? 2 * atoi(env) : sample(30), "sleep");
}

/*
 * The lock-aware reduction on bit locks and nested flat sections
 * (sim/dpor.c, lock_sections(): a section whose nested sections are
 * flat and whose lock no nested lock comes before in the trace's lock
 * order): on the fifth corpus (random_program_bitlock) DPOR reaches
 * exactly the final states and failures (deadlocks of nested bit locks
 * and of a bit lock against a mutex included) DFS reaches, with the
 * reduction on and off.  6 programs in the quick tier (DFS runs about
 * 700 000 executions a program here), 2 under the sanitizer tier (its
 * DFS runs dominated the CI's time), 2 x WPSIM_DPOR_PROGRAMS by hand.
 */
Test(dpor, bit_lock_sections_agree_with_dfs)
{
	const char *env = getenv("WPSIM_DPOR_PROGRAMS");

	/* Registered on its own (engine-dpor-bitlock), with its timeout. */
	if (!getenv("WPSIM_DPOR_BITLOCK"))
		cr_skip_test("run by engine-dpor-bitlock");

	lock_corpus_agrees_with_dfs("test/generated-bitlock",
				    random_program_bitlock, 3407,
				    env ? 2 * atoi(env) :
				    test_scale() > 1 ? 2 : sample(6),
				    "bitlock");
}

/*
 * The lock-aware reduction on rwlock read sections (sim/dpor.c,
 * lock_sections(): a read section is flat when no trylock or downgrade
 * of its lock is in the trace): on the sixth corpus (random_program_read)
 * DPOR reaches exactly the final states and failures DFS reaches, with
 * the reduction on and off.  12 programs in the quick tier, 2 x
 * WPSIM_DPOR_PROGRAMS in the deep one (engine-dpor-read-deep).
 */
Test(dpor, read_sections_agree_with_dfs)
{
	const char *env = getenv("WPSIM_DPOR_PROGRAMS");

	lock_corpus_agrees_with_dfs("test/generated-read",
				    random_program_read, 4409,
				    env ? 2 * atoi(env) : sample(12), "read");
}

/*
 * A read section and a write section that commute: P0 a read section
 * writing x0, P1 a write section writing x1.  Without the reduction the
 * two sections run in both orders and with the reader waiting for the
 * writer; with it, no body conflicts, so one order suffices (fewer
 * executions), with the same final states as DFS.  Then the same with
 * P1 writing x0 (the bodies race: both orders).
 */
Test(dpor, read_sections_commute_with_write_sections)
{
	static const struct gen_program prog = {
		.tasks = 2, .ops = { 1, 1 },
		.op = { { { OP_RW_RSET, 0, 0 } },
			{ { OP_RW_WSET, 0, 0 } } },
	};
	static const struct gen_program prog2 = {
		.tasks = 2, .ops = { 1, 1 },
		.op = { { { OP_RW_RSET, 0, 0 } },
			{ { OP_RW_WSET, 1, 0 } } },
	};
	static struct sigset by_dfs, by_dpor, by_plain;
	const struct gen_program *progs[] = { &prog, &prog2 };

	for (size_t i = 0; i < 2; i++) {
		struct sim_program p = {
			.name = "test/read-sections", .setup = gen_setup,
			.final = gen_final, .config = (void *)progs[i],
		};
		uint64_t a, b, c;
		bool c1, c2, c3;

		a = explore(&p, false, &by_dfs, &c1);
		b = explore(&p, true, &by_dpor, &c2);
		lock_aware_off = true;
		c = explore(&p, true, &by_plain, &c3);
		lock_aware_off = false;
		cr_assert(c1 && c2 && c3);
		cr_assert(sigset_equal(&by_dfs, &by_dpor), "program %zu", i);
		cr_assert(sigset_equal(&by_dfs, &by_plain), "program %zu", i);
		cr_log_info("read sections %zu: dfs %llu, dpor %llu, "
			    "lock-aware %llu", i, (unsigned long long)a,
			    (unsigned long long)c, (unsigned long long)b);
		if (i == 0)
			cr_assert_geq(b, 2, "racing bodies: both orders");
		if (i == 1)
			cr_assert_lt(b, c, "a read section and a write "
				     "section that do not race: %llu "
				     "executions, not fewer than %llu",
				     (unsigned long long)b,
				     (unsigned long long)c);
	}
}

/* ---- splitting one search (sim_dpor_split) ------------------------------ */

/*
 * DPOR split into items of at least @items_min leaves: every item's
 * search run and its outcomes collected into @set.  Returns the
 * executions; *complete when every item covered its space.
 */
static uint64_t split_items_total;	/* items over every split run */
static uint64_t split_donations;	/* items given away while running */

static uint64_t split_spawned;	/* items the coordinator ran for races */

/* Items to run, packed (sim_dpor_split_pack), a stack, each with its
 * deepest node the coordinator owns (sim_dpor_tops_add). */
static struct {
	void *bytes[16384];
	size_t size[16384];
	int32_t ctx[16384];
	unsigned int count;
} split_queue;

static void split_queue_add(const struct sim_dpor_split *sp, int32_t ctx)
{
	for (uint32_t i = sim_dpor_split_items(sp); i-- > 0;) {
		size_t need = sim_dpor_split_pack(sp, i, NULL, 0);
		void *b = malloc(need);

		cr_assert(b);
		cr_assert_eq(sim_dpor_split_pack(sp, i, b, need), need);
		cr_assert_lt(split_queue.count, 16384);
		split_queue.bytes[split_queue.count] = b;
		split_queue.size[split_queue.count] = need;
		split_queue.ctx[split_queue.count++] =
			ctx == INT32_MIN ? sim_dpor_split_item_ctx(sp, i) :
			ctx;
		split_items_total++;
	}
}

static struct {
	struct sim_strategy *s;
	const struct sim_program *p;
	uint32_t every;		/* give items away every this many: 0 never */
	uint64_t runs;
	struct sim_dpor_tops *tops;
	int32_t ctx;		/* the item's deepest owned node */
} donor;

static bool donate_stop(void *ctx)
{
	struct sim_exec_options exec = { 0 };
	struct sim_dpor_split *sp;

	(void)ctx;
	if (!donor.every || ++donor.runs % donor.every)
		return false;
	sp = sim_dpor_donate(donor.s, donor.p, &exec);
	if (sp) {
		size_t need = sim_dpor_split_pack_nodes(sp, NULL, 0);
		void *b = malloc(need);

		cr_assert(b);
		cr_assert_eq(sim_dpor_split_pack_nodes(sp, b, need), need);
		donor.ctx = sim_dpor_tops_add(donor.tops, donor.ctx, b, need);
		free(b);
		split_queue_add(sp, donor.ctx);
		split_donations += sim_dpor_split_items(sp);
		sim_dpor_split_free(sp);
	}
	return false;
}

/*
 * DPOR split into items of at least @items_min leaves, each item giving
 * part of itself away every @every executions (0: never), as wpsim's
 * workers do: every item run and its outcomes collected into @set.
 * Returns the executions; *complete when every item covered its space.
 */
/* explore_split runs every item in one DPOR state (a worker's reuse). */
static bool split_reuse;

static uint64_t explore_split(const struct sim_program *p, uint32_t items_min,
			      uint32_t every, struct sigset *set,
			      bool *complete)
{
	struct sim_dpor *spare = NULL;
	struct sim_explore_options opt = {
		.on_execution = collect, .stop = donate_stop,
	};
	struct sim_exec_options exec = { 0 };
	struct sim_dpor_split *sp;
	uint64_t n = 0;

	memset(set, 0, sizeof(*set));
	collect_into = set;
	*complete = true;
	last_sig = 0;
	sp = sim_dpor_split(p, &exec, items_min, 64);
	split_queue_add(sp, -1);
	sim_dpor_split_free(sp);
	donor.tops = sim_dpor_tops_new();
	while (split_queue.count) {
		unsigned int q = --split_queue.count;
		struct sim_explore_result res;
		struct sim_strategy s;
		size_t need;
		void *b;

		sp = sim_dpor_split_unpack(split_queue.bytes[q],
					   split_queue.size[q]);
		free(split_queue.bytes[q]);
		cr_assert_eq(split_reuse ?
			     sim_strategy_dpor_item_reuse(&s, sp, 0, spare) :
			     sim_strategy_dpor_item(&s, sp, 0), 0);
		spare = NULL;
		donor.s = &s;
		donor.p = p;
		donor.every = every;
		donor.runs = 0;
		donor.ctx = split_queue.ctx[q];
		sim_explore(p, &s, &opt, &res);
		n += res.executions;
		*complete = *complete && res.complete;
		sim_explore_result_fini(&res);
		sim_dpor_split_free(sp);
		/* The races it found above its root: the coordinator's. */
		need = sim_dpor_requests_pack(&s, NULL, 0);
		b = malloc(need);
		cr_assert(b);
		cr_assert_eq(sim_dpor_requests_pack(&s, b, need), need);
		if (split_reuse)
			spare = sim_dpor_keep(&s);
		sim_strategy_fini(&s);
		sp = sim_dpor_tops_apply(donor.tops, p, &exec, donor.ctx, b,
					 need);
		free(b);
		if (sp) {
			split_queue_add(sp, INT32_MIN);
			split_spawned += sim_dpor_split_items(sp);
			sim_dpor_split_free(sp);
		}
	}
	sim_dpor_tops_free(donor.tops);
	sim_dpor_free(spare);
	return n;
}

/*
 * The split covers what DFS covers: on the random corpora with locks,
 * rwlocks, trylocks, waits, events and failures, the same final states
 * and failure kinds as DFS and as the classic DPOR, with the split
 * forced small (3 items: a level or two) and larger (16), every item
 * giving part of itself away after every execution or every third
 * (sim_dpor_donate, as wpsim's workers do), and the races the items
 * forward for the nodes given away run by the coordinator
 * (sim_dpor_tops_apply) as items of their own.
 */
Test(dpor, split_agrees_with_dfs)
{
	static struct sigset by_dfs, by_dpor, by_split;
	static struct gen_program prog;
	struct sim_program p = {
		.name = "test/generated-split",
		.setup = gen_setup,
		.final = gen_final,
		.config = &prog,
	};
	static void (*const gens[])(struct gen_program *, uint64_t *) = {
		random_program, random_program_ext, random_program_spin,
		random_program_sleep,
	};
	static const uint32_t sizes[] = { 3, 16 }, every[] = { 1, 3 };
	const char *env = getenv("WPSIM_DPOR_PROGRAMS");
	int programs = env ? atoi(env) : sample(10);
	uint64_t rng = 4242, items = 0;

	for (size_t g = 0; g < sizeof(gens) / sizeof(gens[0]); g++) {
		for (int i = 0; i < programs; i++) {
			bool c1, c2, c3;
			uint64_t a, b, c;

			gens[g](&prog, &rng);
			a = explore(&p, false, &by_dfs, &c1);
			b = explore(&p, true, &by_dpor, &c2);
			cr_assert(c1 && c2);
			cr_assert(sigset_equal(&by_dfs, &by_dpor));
			for (size_t k = 0; k < 2; k++) {
				c = explore_split(&p, sizes[k], every[k],
						  &by_split, &c3);
				cr_assert(c3);
				if (!sigset_equal(&by_dfs, &by_split))
					print_program(&prog);
				cr_assert(sigset_equal(&by_dfs, &by_split),
					  "corpus %zu program %d, split %u: "
					  "dfs %u outcomes in %llu executions, "
					  "dpor %llu, split %u in %llu", g, i,
					  sizes[k], by_dfs.count,
					  (unsigned long long)a,
					  (unsigned long long)b, by_split.count,
					  (unsigned long long)c);
				items += c;
			}
		}
	}
	/* The split did split (more items than runs of it), and items
	 * were given away while they ran. */
	cr_assert_gt(split_items_total, 4 * (uint64_t)programs * 2 * 2);
	cr_assert_gt(split_donations, 0);
	/* ... and races above an item's root were forwarded and run. */
	cr_assert_gt(split_spawned, 0);
	cr_log_info("split: %llu executions in %llu items (%llu given away, "
		    "%llu run for forwarded races) over the corpora",
		    (unsigned long long)items,
		    (unsigned long long)split_items_total,
		    (unsigned long long)split_donations,
		    (unsigned long long)split_spawned);
}

/*
 * A worker runs unit after unit in one DPOR state
 * (sim_strategy_dpor_item_reuse, sim_dpor_keep: issue 34), where each
 * unit built its own.  What must hold: the same search, item for item:
 * the same executions and the same outcomes as with a new state per
 * item, on the four random corpora (locks, rwlocks, trylocks, waits,
 * events, failures), items giving work away after every execution and
 * every third.  The bug it would show: a field of the state (a scratch
 * array the race analysis reads before it writes, a per-object record,
 * the sleep footprints at the root) carried from one item into the next.
 */
Test(dpor, split_reused_state_same_search)
{
	static struct sigset fresh, reused;
	static struct gen_program prog;
	struct sim_program p = {
		.name = "test/generated-split-reuse",
		.setup = gen_setup,
		.final = gen_final,
		.config = &prog,
	};
	static void (*const gens[])(struct gen_program *, uint64_t *) = {
		random_program, random_program_ext, random_program_spin,
		random_program_sleep,
	};
	static const uint32_t sizes[] = { 3, 16 }, every[] = { 1, 3 };
	const char *env = getenv("WPSIM_DPOR_PROGRAMS");
	int programs = env ? atoi(env) : sample(10);
	uint64_t rng = 4343;

	for (size_t g = 0; g < sizeof(gens) / sizeof(gens[0]); g++) {
		for (int i = 0; i < programs; i++) {
			gens[g](&prog, &rng);
			for (size_t k = 0; k < 2; k++) {
				bool c1, c2;
				uint64_t a, b;

				split_reuse = false;
				a = explore_split(&p, sizes[k], every[k],
						  &fresh, &c1);
				split_reuse = true;
				b = explore_split(&p, sizes[k], every[k],
						  &reused, &c2);
				split_reuse = false;
				cr_assert(c1 && c2);
				cr_assert_eq(a, b, "corpus %zu program %d, "
					     "split %u: %llu executions with "
					     "a new state per item, %llu "
					     "reused", g, i, sizes[k],
					     (unsigned long long)a,
					     (unsigned long long)b);
				cr_assert(sigset_equal(&fresh, &reused));
			}
		}
	}
}

/*
 * Optimal DPOR (wakeup trees, sim/dpor.c) against source-DPOR and DFS on
 * the four random corpora, with the lock-aware reduction on and off: the
 * same final states and failures as DFS, never more executions than
 * source-DPOR plus its redundant ones, and no redundant execution on
 * the programs where no step blocks or fails (the first corpus without
 * its locks and events: JACM'17, Theorem 7.7).
 */
static void optimal_corpus(const char *name,
			   void (*gen)(struct gen_program *, uint64_t *),
			   uint64_t seed, int programs, bool lock_free)
{
	static struct gen_program prog;
	static struct sigset by_dfs, by_src, by_opt;
	uint64_t rng = seed, tot[2][2] = { { 0 } };

	for (int i = 0; i < programs; i++) {
		struct sim_program p = {
			.name = "test/optimal", .setup = gen_setup,
			.final = gen_final, .config = &prog,
		};
		bool c;

		gen(&prog, &rng);
		if (lock_free)
			for (int t = 0; t < prog.tasks; t++)
				for (int k = 0; k < prog.ops[t]; k++)
					if (prog.op[t][k].kind > OP_TAS)
						prog.op[t][k].kind = OP_ADD;
		explore(&p, false, &by_dfs, &c);
		cr_assert(c);
		for (int la = 0; la < 2; la++) {
			uint64_t src, srcp, opt, optp;

			lock_aware_off = !la;
			src = explore(&p, true, &by_src, &c);
			srcp = last_pruned;
			cr_assert(c);
			optimal_on = true;
			opt = explore(&p, true, &by_opt, &c);
			optimal_on = false;
			optp = last_pruned;
			lock_aware_off = false;
			cr_assert(c);
			if (!sigset_equal(&by_dfs, &by_opt))
				print_program(&prog);
			cr_assert(sigset_equal(&by_dfs, &by_opt), "%s program "
				  "%d (lock-aware %d): dfs %u outcomes, optimal "
				  "%u", name, i, la, by_dfs.count, by_opt.count);
			cr_assert(sigset_equal(&by_dfs, &by_src));
			if (lock_free) {
				cr_assert_eq(optp, 0, "%s program %d: %llu "
					     "redundant", name, i,
					     (unsigned long long)optp);
				cr_assert_eq(last_fallbacks, 0, "%s program "
					     "%d: a wakeup tree widened", name,
					     i);
			}
			tot[la][0] += src + srcp;
			tot[la][1] += opt + optp;
			cr_log_info("%s %d la=%d: source %llu+%llu optimal "
				    "%llu+%llu", name, i, la,
				    (unsigned long long)src,
				    (unsigned long long)srcp,
				    (unsigned long long)opt,
				    (unsigned long long)optp);
		}
	}
	for (int la = 0; la < 2; la++)
		cr_log_info("%s corpus, lock-aware %d: source %llu runs, "
			    "optimal %llu", name, la,
			    (unsigned long long)tot[la][0],
			    (unsigned long long)tot[la][1]);
}

Test(dpor, optimal_agrees_with_dfs_and_source)
{
	const char *env = getenv("WPSIM_DPOR_PROGRAMS");
	int n = env ? atoi(env) : sample(12);

	optimal_corpus("lock-free", random_program, 77, n, true);
	optimal_corpus("first", random_program, 4242, n, false);
	optimal_corpus("ext", random_program_ext, 99, n, false);
	optimal_corpus("spin", random_program_spin, 31, n, false);
	optimal_corpus("sleep", random_program_sleep, 57, n, false);
}

/*
 * Regressions of optimal DPOR found by the corpora while it was built
 * (each lost final states against DFS):
 *  1. P0: s1 { x0 = x0 + 1 }; read x0   P1: post an event on x0;
 *     s0 { x1; x0 }
 */
Test(dpor, optimal_regressions)
{
	static const struct gen_program progs[] = {
		{ .tasks = 2, .ops = { 2, 2 },
		  .op = { { { OP_SPIN_RMW, 0, 1 }, { OP_READ, 0, 1 } },
			  { { OP_EVENT, 0, 0 }, { OP_SPIN_TWO, 1, 0 } } } },
	};
	static struct sigset by_dfs, by_dpor;

	for (size_t i = 0; i < sizeof(progs) / sizeof(progs[0]); i++) {
		struct sim_program p = {
			.name = "test/optimal", .setup = gen_setup,
			.final = gen_final, .config = (void *)&progs[i],
		};
		bool c1, c2;

		for (int la = 0; la < 2; la++) {
			explore(&p, false, &by_dfs, &c1);
			lock_aware_off = !la;
			optimal_on = true;
			explore(&p, true, &by_dpor, &c2);
			optimal_on = false;
			lock_aware_off = false;
			cr_assert(c1 && c2);
			cr_assert(sigset_equal(&by_dfs, &by_dpor), "program %zu "
				  "(lock-aware %d): dfs %u outcomes, dpor %u",
				  i + 1, la, by_dfs.count, by_dpor.count);
		}
	}
}
