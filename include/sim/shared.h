/* SPDX-License-Identifier: MIT */
/*
 * sim_word and friends: the only way model code touches shared state.
 *
 * Every function here that is called on a task's context is a scheduling
 * point: it yields to the scheduler first, then performs its access when
 * the task is chosen, and records one event (task, object, access, value).
 * Called on the scheduler's context (program setup, checks, dumps) they
 * act at once and record nothing.  Think READ_ONCE/WRITE_ONCE, the atomic
 * bitops, atomic_long_add_return, spin_lock: same meaning, plus a point.
 */
#ifndef WPSIM_SIM_SHARED_H
#define WPSIM_SIM_SHARED_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/engine.h"

/*
 * A shared machine word with an identity.  @tag is the model's own mark
 * for its checks (what kind of word this is, so that a check reading
 * sim_exec_writes() needs no lookup by address); the engine never reads
 * it, sim_word_init() sets it to 0, and it is no part of the word's
 * value or of any event.
 *
 * 12 bytes, 4-aligned (issue 28: a cached page's model state is mostly
 * words): @id is an object's base id, which has 24 bits
 * (SIM_OBJECT_BASE), and @tag takes the other 8.  Tasks are coroutines
 * on one host thread, so @value needs no natural alignment for
 * atomicity; x86-64 and AArch64 load it unaligned.
 */
struct __attribute__((packed, aligned(4))) sim_word {
	uint64_t value;
	uint32_t id : 24;
	uint32_t tag : 8;
};

void sim_word_init(struct sim_word *word, uint64_t value, const char *fmt,
		   ...) __attribute__((format(printf, 3, 4)));

/*
 * A word that is one more instance of object @id (registered once with
 * sim_object_register): a long timed run keeps many words of one kind as
 * one object, so that each costs no object of the engine's (no name, no
 * rule, no table entry).  Every access is still a point, recorded as an
 * access to @id.  Not for exploration: two words of one object are
 * dependent for DPOR.
 */
void sim_word_init_as(struct sim_word *word, uint64_t value, uint32_t id);
/*
 * sim_word_init(word, value, "%s", name) for a @name with no '%' that
 * stays valid (a string literal): a long run keeps the pointer
 * (sim_object_register_static), for words made per I/O.
 */
void sim_word_init_static(struct sim_word *word, uint64_t value,
			  const char *name);

uint64_t sim_word_read(struct sim_word *word);		/* READ_ONCE */
void sim_word_write(struct sim_word *word, uint64_t value);	/* WRITE_ONCE */
/*
 * Plain C accesses (x, x = v): the same step and event as read/write,
 * but the data-race detector (sim/lockdep.h) counts them as plain: two
 * unordered conflicting accesses of which one is plain are a data race.
 * Use them where the kernel uses a plain access (under the lock that
 * protects the word); use read/write where it has READ_ONCE, WRITE_ONCE
 * or data_race().
 */
uint64_t sim_word_load(struct sim_word *word);
void sim_word_store(struct sim_word *word, uint64_t value);
/* Atomic add; returns the new value (atomic_long_add_return). */
int64_t sim_word_add(struct sim_word *word, int64_t delta);
/*
 * Atomic add with no result (atomic_long_add, mod_node_page_state): two
 * such adds on one word commute, which DPOR uses to treat them as
 * independent.  Use it for counters whose updates nobody reads back.
 */
void sim_word_add_nr(struct sim_word *word, int64_t delta);
uint64_t sim_word_xchg(struct sim_word *word, uint64_t value);
/* Atomic compare-and-exchange; returns the old value. */
uint64_t sim_word_cmpxchg(struct sim_word *word, uint64_t old, uint64_t value);

/*
 * One access to elements [first, last] of an array that @word stands for
 * (device sectors): a scheduling point recorded as a range, so DPOR sees
 * accesses to disjoint ranges as independent.  @access is
 * SIM_ACCESS_READ or SIM_ACCESS_WRITE; the word's value counts writes.
 */
void sim_word_touch_range(struct sim_word *word, enum sim_access access,
			  uint32_t first, uint32_t last);

/*
 * Accesses that belong to the step another primitive just opened (no
 * scheduling point of their own): a transfer that touches several
 * objects at once, e.g. a bio's DMA reading its folios and writing the
 * device's sectors in one step.  Call only right after a primitive that
 * made the point, before any other primitive.
 */
uint64_t sim_word_read_also(struct sim_word *word);
void sim_word_add_also(struct sim_word *word, int64_t delta);

/*
 * Words of a table whose memory comes and goes (a sparse array whose
 * blocks are made on a store and freed when empty): the word at @index
 * is what @where(@base, @index, @make) returns at the moment of the
 * access.  Without @make it may return a stand-in for an absent block
 * (value 0, the same id as the block's words would have; storing 0 to
 * it changes nothing); with @make it makes the block.  The point is
 * made first and the word found after it, so that the access sees the
 * table as it is when the access happens (a pointer found before the
 * point could name a block freed, or miss one made, meanwhile).
 */
typedef struct sim_word *(*sim_word_where)(void *base, unsigned long index,
					   bool make);
uint64_t sim_word_read_at(sim_word_where where, void *base,
			  unsigned long index);
void sim_word_write_at(sim_word_where where, void *base, unsigned long index,
		       uint64_t value);
uint64_t sim_word_read_also_at(sim_word_where where, void *base,
			       unsigned long index);
/*
 * sim_word_read_at() and sim_word_write_at() for a table whose every
 * word has the id @id (one object for the whole table: a long run's
 * block map), so that the point needs no look-up: @where is asked once,
 * after the point, where the two above ask it before the point for the
 * id and again after it (session 25).  The same point and event.
 */
uint64_t sim_word_read_at_id(sim_word_where where, void *base,
			     unsigned long index, uint32_t id);
void sim_word_write_at_id(sim_word_where where, void *base,
			  unsigned long index, uint64_t value, uint32_t id);
void sim_bit_set_at(sim_word_where where, void *base, unsigned long index,
		    unsigned int nr);
void sim_bit_clear_at(sim_word_where where, void *base, unsigned long index,
		      unsigned int nr);

/* Atomic bit operations on a word (set_bit, test_and_set_bit, ...). */
bool sim_bit_test(struct sim_word *word, unsigned int nr);
void sim_bit_set(struct sim_word *word, unsigned int nr);
void sim_bit_clear(struct sim_word *word, unsigned int nr);
bool sim_bit_test_and_set(struct sim_word *word, unsigned int nr);
bool sim_bit_test_and_clear(struct sim_word *word, unsigned int nr);

/* Read without a scheduling point: only for checks, dumps and setup. */
static inline uint64_t sim_word_peek(const struct sim_word *word)
{
	return word->value;
}

/*
 * Spinlock: acquiring is a point; a task that would spin is disabled
 * until the lock is free, so spinning never burns steps.  value = owner
 * task id + 1, 0 when free.
 */
struct sim_spinlock {
	struct sim_word word;
};

void sim_spin_init(struct sim_spinlock *lock, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sim_spin_lock(struct sim_spinlock *lock);
bool sim_spin_trylock(struct sim_spinlock *lock);
void sim_spin_unlock(struct sim_spinlock *lock);
bool sim_spin_held(const struct sim_spinlock *lock);	/* by anyone */
bool sim_spin_held_by_me(const struct sim_spinlock *lock);

/*
 * Wait queue: a FIFO of sleeping tasks.  The machinery under mutexes,
 * completions, bit waits and the model's rw_semaphore.
 */
#define SIM_WAITQ_INLINE	2	/* sleepers kept in the queue itself */
struct __attribute__((packed, aligned(2))) sim_waitq {
	uint32_t id;
	uint16_t count;
	uint16_t head;
	/* Past SIM_WAITQ_INLINE sleepers the ring moves to the arena:
	 * @more, of @more_cap entries (doubling, up to SIM_IDS_LIMIT),
	 * so that a queue nobody sleeps on (a folio's) costs 22 bytes
	 * (packed: @more is loaded unaligned, issue 28's bytes per page). */
	uint16_t more_cap;
	uint16_t tasks[SIM_WAITQ_INLINE];
	uint16_t *more;
};

void sim_waitq_init(struct sim_waitq *wq, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A queue that is one more instance of object @id (sim_word_init_as). */
void sim_waitq_init_as(struct sim_waitq *wq, uint32_t id);
/*
 * Put the running task at the tail of @wq and sleep until woken.  Not a
 * scheduling point of its own: call it inside the step that found the
 * reason to sleep (the check and the enqueue are one atomic step, as
 * prepare_to_wait + condition check are under the kernel's wait lock).
 */
void sim_waitq_sleep(struct sim_waitq *wq);
/*
 * sim_waitq_sleep() that ends also when no task can run (a timed sleep
 * whose time is not modelled: sim_task_block_timeout); the sleeper then
 * leaves the queue.  Returns true if it timed out.
 */
bool sim_waitq_sleep_timeout(struct sim_waitq *wq);
/* Wake the first sleeper; returns its id or -1.  Not a point. */
int sim_waitq_wake_one(struct sim_waitq *wq);
/* Wake every sleeper; returns how many.  Not a point. */
int sim_waitq_wake_all(struct sim_waitq *wq);
/*
 * waitqueue_active() inside the step another primitive opened (no point
 * of its own, as sim_word_read_also): the number of sleepers, recorded
 * as a read of the queue, so DPOR orders it with a sleep on it.
 */
unsigned int sim_waitq_active_also(struct sim_waitq *wq);
/* Task id of the i-th sleeper (0 = head), -1 past the end. */
int sim_waitq_peek(const struct sim_waitq *wq, unsigned int i);

/*
 * Sleeping mutex with FIFO hand-off: unlock gives the lock to the first
 * waiter.  (The kernel's mutex also lets a spinning owner-to-be steal it;
 * the model does not, see docs/architecture.md.)
 */
struct sim_mutex {
	struct sim_word owner;	/* task id + 1, 0 when free */
	struct sim_waitq waiters;
};

void sim_mutex_init(struct sim_mutex *mutex, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sim_mutex_lock(struct sim_mutex *mutex);
bool sim_mutex_trylock(struct sim_mutex *mutex);
void sim_mutex_unlock(struct sim_mutex *mutex);
bool sim_mutex_held_by_me(const struct sim_mutex *mutex);

/*
 * Engine internal (for sim/dpor.c, not for race tests).
 * Lock-aware DPOR (sim/dpor.c): whether @task, at its point, is about to
 * take a lock with a take that waits for it (mutex_lock, rwlock read or
 * write lock; not a trylock, whose failure is another path).  Cleared
 * for every task by sim_blocking_takes_reset (the strategy calls it as
 * an execution begins: a task can end an execution at such a point).
 */
bool sim_task_takes_blocking(int task);
void sim_blocking_takes_reset(void);

/*
 * Reader-writer lock whose shared holds commute.  A shared take or
 * release is recorded as ACQUIRE_SHARED / RELEASE_SHARED, which DPOR
 * treats like adds: two readers' takes and releases are independent;
 * everything exclusive (a writer's take or release, a task finding the
 * lock unavailable and starting to wait) is a write of the lock.
 *
 * Policy: a reader enters whenever no writer holds the lock; a writer
 * enters when nobody holds it; among waiters, whoever the scheduler runs
 * first.  Trylocks fail while a writer holds it or any task waits (the
 * kernel's rwsem fails them on RWSEM_FLAG_WAITERS).  This is the
 * over-approximation model/kernel/rwsem.c's summary mode relies on
 * (docs/model/rwsem.md).
 */
struct sim_rwlock {
	struct sim_word word;	/* value: readers << 1 | 1 if write-held */
	uint64_t writer;	/* writer task id + 1, 0 when none */
	uint32_t waiters;	/* tasks waiting to take it */
};

void sim_rwlock_init(struct sim_rwlock *rw, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sim_rwlock_read_lock(struct sim_rwlock *rw);
bool sim_rwlock_read_trylock(struct sim_rwlock *rw);
void sim_rwlock_read_unlock(struct sim_rwlock *rw);
void sim_rwlock_write_lock(struct sim_rwlock *rw);
bool sim_rwlock_write_trylock(struct sim_rwlock *rw);
void sim_rwlock_write_unlock(struct sim_rwlock *rw);
/* Write hold -> read hold, letting other readers in. */
void sim_rwlock_downgrade(struct sim_rwlock *rw);
static inline unsigned int sim_rwlock_readers(const struct sim_rwlock *rw)
{
	return (unsigned int)(rw->word.value >> 1);
}

/* Completion (struct completion): done counts complete() calls. */
struct sim_completion {
	struct sim_word done;
	struct sim_waitq waiters;
};

void sim_completion_init(struct sim_completion *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * sim_completion_init(c, "%s", name) with @wait_name its "NAME.wait",
 * both string literals with no '%' (sim_object_register_static): a
 * long run copies no name (completions made per I/O).
 */
void sim_completion_init_static(struct sim_completion *c, const char *name,
				const char *wait_name);
void sim_completion_wait(struct sim_completion *c);
void sim_completion_complete(struct sim_completion *c);
void sim_completion_complete_all(struct sim_completion *c);

/*
 * Bit waits (wait_on_bit, folio_wait_bit): sleep until bit @nr of @word
 * is clear.  @wq is the queue the waker wakes; the model gives each
 * waitable word its own queue instead of the kernel's hashed table.
 */
void sim_bit_wait(struct sim_word *word, unsigned int nr,
		  struct sim_waitq *wq);
/* Clear bit @nr and wake the waiters on @wq (clear_and_wake_up_bit). */
void sim_bit_clear_and_wake(struct sim_word *word, unsigned int nr,
			    struct sim_waitq *wq);
/* Wake waiters of @wq (wake_up_bit) as a point of its own. */
void sim_waitq_wake_up(struct sim_waitq *wq);

/*
 * Bit locks: bit @nr of @word used as a sleeping exclusive lock (a
 * lock bit in a flags word whose waiters sleep on a queue).  Each
 * is the same point and event as the bit operation it names, so the
 * schedules, logs and every check are those of the plain bit operations;
 * the event is also marked (sim_record_mark) so that DPOR's lock-aware
 * reduction can treat a section between a take and a release like a
 * mutex's (sim/dpor.c, lock_sections).
 *
 * sim_bitlock_take: one attempt of a take that waits (a sleeping bit
 * lock's test_and_set_bit_lock): test-and-set of the bit at a blocking take's
 * point (sim_task_takes_blocking); true if the bit was clear (taken),
 * false if it was set (the caller waits, sim_bit_wait, and tries again).
 * Not for trylocks: a trylock is sim_bit_test_and_set.
 * sim_bitlock_release: sim_bit_clear_and_wake, marked as the release.
 */
bool sim_bitlock_take(struct sim_word *word, unsigned int nr);
void sim_bitlock_release(struct sim_word *word, unsigned int nr,
			 struct sim_waitq *wq);

#endif /* WPSIM_SIM_SHARED_H */
