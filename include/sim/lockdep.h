/* SPDX-License-Identifier: MIT */
/*
 * sim_lockdep: locking rules stated by the model and checked on every
 * step (sim/lockdep.c); the data-race detector is sim/race.h.
 *
 * A rule says which lock protects a shared word: sim_word_guard(&w, lock)
 * ("writes of w need lock held exclusive"), or with flags and a second
 * lock ("lock A or lock B", "held shared is enough", "reads need it
 * too").  Every recorded access to a guarded word by a task checks the
 * rule at once, in every execution and under every strategy, so a missing
 * lock/unlock pair fails the first execution that runs the access, not
 * only an interleaving that happens to corrupt something.
 * sim_assert_held(lock) is the kernel's lockdep_assert_held().
 *
 * A failure is SIM_FAIL_LOCKING; its report (sim_report_failure) prints
 * the stack of km_ calls of the access and of the guard's declaration,
 * and the holder of the lock if another task holds it.
 */
#ifndef WPSIM_SIM_LOCKDEP_H
#define WPSIM_SIM_LOCKDEP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/shared.h"

enum sim_lock_kind {
	SIM_LOCK_NONE = 0,
	SIM_LOCK_ENGINE,	/* sim_spinlock, sim_mutex, sim_rwlock: the
				 * holder is tracked per task */
	SIM_LOCK_BIT,		/* a bit lock (PG_locked): held = bit set,
				 * by anyone (folio_test_locked) */
	SIM_LOCK_FN,		/* a model lock that says who holds it */
};

/* Does @task hold @lock (@exclusive: for writing)? */
typedef bool (*sim_lock_held_fn)(const void *lock, int task, bool exclusive);

/* A reference to a lock, as rules and assertions name it. */
struct sim_lock_ref {
	enum sim_lock_kind kind;
	uint32_t id;		/* the lock's object id (FN: for its name) */
	const struct sim_word *word;	/* BIT: the word, bit @bit */
	unsigned int bit;
	sim_lock_held_fn held;	/* FN */
	const void *arg;	/* FN */
};

static inline struct sim_lock_ref sim_lock_spin(const struct sim_spinlock *l)
{
	return (struct sim_lock_ref){ .kind = SIM_LOCK_ENGINE,
				      .id = l->word.id };
}

static inline struct sim_lock_ref sim_lock_mutex(const struct sim_mutex *m)
{
	return (struct sim_lock_ref){ .kind = SIM_LOCK_ENGINE,
				      .id = m->owner.id };
}

static inline struct sim_lock_ref sim_lock_rwlock(const struct sim_rwlock *rw)
{
	return (struct sim_lock_ref){ .kind = SIM_LOCK_ENGINE,
				      .id = rw->word.id };
}

static inline struct sim_lock_ref sim_lock_bit(const struct sim_word *word,
					       unsigned int bit)
{
	return (struct sim_lock_ref){ .kind = SIM_LOCK_BIT,
				      .id = SIM_OBJECT_BIT(word->id, bit),
				      .word = word, .bit = bit };
}

static inline struct sim_lock_ref sim_lock_fn(sim_lock_held_fn held,
					      const void *arg, uint32_t id)
{
	return (struct sim_lock_ref){ .kind = SIM_LOCK_FN, .id = id,
				      .held = held, .arg = arg };
}

/* Any engine lock, or an already built reference. */
#define SIM_LOCK(l) _Generic((l),					\
	struct sim_spinlock *: sim_lock_spin,				\
	const struct sim_spinlock *: sim_lock_spin,			\
	struct sim_mutex *: sim_lock_mutex,				\
	const struct sim_mutex *: sim_lock_mutex,			\
	struct sim_rwlock *: sim_lock_rwlock,				\
	const struct sim_rwlock *: sim_lock_rwlock)(l)

/* What a rule covers. */
#define SIM_GUARD_WRITES	0u	/* stores, RMWs and adds need the
					 * lock; reads are free (the kernel's
					 * lockless READ_ONCE readers) */
#define SIM_GUARD_ALL		1u	/* reads need it too */
#define SIM_GUARD_SHARED	2u	/* a shared hold is enough, also
					 * for writes (default: exclusive
					 * for writes, any hold for reads) */

/*
 * State a rule for @word: accesses as @flags say need @a (or, if @b is
 * given, @a or @b).  @bits != 0 limits the rule to those bits of the
 * word (bit operations on other bits are free; whole-word writes are
 * checked).  Call after sim_word_init; the rule lasts the execution.
 */
void sim_word_guard_ref(struct sim_word *word, unsigned int flags,
			uint64_t bits, struct sim_lock_ref a,
			struct sim_lock_ref b);

/*
 * The same rule for @count words, @stride bytes apart from @first (the
 * elements of an array): as many sim_word_guard_ref() calls, one
 * argument check and allocation for all.
 */
void sim_words_guard_ref(struct sim_word *first, size_t stride,
			 unsigned long count, unsigned int flags,
			 uint64_t bits, struct sim_lock_ref a,
			 struct sim_lock_ref b);

/* Drop @word's rule (the word stops being shared: freed, detached). */
void sim_word_unguard(struct sim_word *word);

#define sim_word_guard(w, l)						\
	sim_word_guard_ref((w), SIM_GUARD_WRITES, 0, SIM_LOCK(l),	\
			   (struct sim_lock_ref){ 0 })
#define sim_word_guard2(w, a, b)					\
	sim_word_guard_ref((w), SIM_GUARD_WRITES, 0, SIM_LOCK(a),	\
			   SIM_LOCK(b))

/* lockdep_assert_held(): @lock held (any mode) by the running task. */
void sim_assert_held_ref(struct sim_lock_ref lock, bool exclusive,
			 const char *where);
#define SIM_STR2_(x) #x
#define SIM_STR_(x) SIM_STR2_(x)
#define sim_assert_held(l)						\
	sim_assert_held_ref(SIM_LOCK(l), false,				\
			    __FILE__ ":" SIM_STR_(__LINE__))
#define sim_assert_held_write(l)					\
	sim_assert_held_ref(SIM_LOCK(l), true,				\
			    __FILE__ ":" SIM_STR_(__LINE__))

/*
 * The lock-order graph (lockdep's dependencies): a program that calls
 * sim_lockdep_order_enable() in an execution (in its setup) has every
 * order of two engine lock classes it takes recorded, kept over the
 * executions of a check (sim_explore resets it when it starts; a
 * replay in the same process, as a report's or a witness's, keeps it),
 * and an order that closes a cycle fails the execution
 * (SIM_FAIL_LOCKING, "possible circular locking dependency"), naming
 * where the other order was first taken.  A class is the lock's name
 * after its last '.'.  Replaying the failing schedule in a fresh
 * process does not see the orders of earlier executions: run the check.
 */
void sim_lockdep_order_enable(void);
void sim_lockdep_order_reset(void);

/* Does the running task hold @lock?  (false on the scheduler) */
bool sim_lock_held_by_me(struct sim_lock_ref lock, bool exclusive);

/* ---- Engine hooks (sim/engine.c, sim/shared.c, sim/explore.c) -------- */

/* A new execution; @capture: keep stacks for a report (a replay). */
void sim_lockdep_begin(bool capture);
/* Room for the rules of objects 0..@cap-1 (the engine's tables grow
 * with a long run's objects); 0, or -1 out of memory. */
int sim_lockdep_objects_reserve(uint32_t cap);
/*
 * The snapshot after setup (sim/engine.c): save what setup left (the
 * rules of objects 1..@objects, the recent rules, the order graph's
 * switch, the race detector's clocks); restore it for an execution of
 * @tasks setup tasks; reset what setup sets (verification runs setup
 * again); drop the copy.
 */
bool sim_lockdep_setup_save(uint32_t objects);
void sim_lockdep_setup_restore(uint32_t tasks);
/* Verification, after a restore: the rules of setup's objects that
 * differ from the saved ones (the restore copies only those written
 * since; the table is not in the static data the engine compares). */
size_t sim_lockdep_setup_diff(void);
void sim_lockdep_setup_reset(void);
void sim_lockdep_setup_drop(void);
void sim_lockdep_object_registered(uint32_t id);
/* A long run gives a retired id out again: as registered, and the
 * guard its last object had gives its memory back. */
void sim_lockdep_object_reused(uint32_t id);
void sim_lockdep_task_spawned(int parent, int child);
/* An event is recorded by @task at @step. */
void sim_lockdep_record(int task, uint32_t step, uint32_t object,
			unsigned int access, uint64_t value);
/* The same, for sim_record's whole path (inlined there). */
void sim_lockdep_record_full(int task, uint32_t step, uint32_t object,
			     unsigned int access, uint64_t value);
/* Lock tracking of engine locks: taken (shared or not) or released;
 * a trylock's take adds no lock order. */
void sim_lockdep_acquired(uint32_t id, bool shared);
void sim_lockdep_acquired_try(uint32_t id, bool shared);
void sim_lockdep_released(uint32_t id);
/* Print the stacks of the last failure if the execution kept them. */
void sim_lockdep_report(FILE *out);

/* Stacks of km_ calls (sim/lockdep.c), for sim/race.c. */
#define SIM_STACK_DEPTH	24
struct sim_call_stack {
	uint32_t depth;
	void *pc[SIM_STACK_DEPTH];
};
void sim_stack_capture(struct sim_call_stack *stack);
void sim_stack_print(FILE *out, const struct sim_call_stack *stack,
		     const char *indent);
bool sim_lockdep_capturing(void);

/* The data-race detector, which lockdep's hooks feed (sim/race.h). */
#include "sim/race.h"

#endif /* WPSIM_SIM_LOCKDEP_H */
