// SPDX-License-Identifier: MIT
/*
 * sim/shared.c - shared words, bit operations, spinlocks, wait queues,
 * mutexes, completions and bit waits.
 *
 * Models: the meaning of READ_ONCE/WRITE_ONCE, the atomic bitops and
 * atomic_long ops, spin_lock, struct mutex, struct completion and
 * wait_on_bit/wake_up_bit, each as one scheduling point that records one
 * event.  Kernel: include/linux/{compiler.h,bitops.h,spinlock.h,mutex.h,
 * completion.h,wait_bit.h}, v6.18, for the meaning only.
 *
 * Leaves out: memory ordering weaker than sequential consistency, mutex
 * optimistic spinning and lock stealing (the model hands a released mutex
 * to its first waiter), the hashed bit-wait table (each waitable word
 * brings its own queue), interrupts (a spinlock never needs _irqsave).
 */
#include "sim/shared.h"

#include <stdarg.h>
#include <string.h>

#include "sim/arena.h"
#include "sim/lockdep.h"
#include "sim/write-log.h"
#include <stdio.h>

/*
 * vsnprintf(@buf, @size, @fmt, @ap), written out here for the formats
 * object names use (text, %s, %u, %d), else by vsnprintf itself: names
 * are made per object, and in long runs objects are made per I/O.  One
 * pass: text runs between conversions are copied whole; at the first
 * other conversion, vsnprintf formats the whole from a copy of @ap.
 */
static void format_name(char *buf, size_t size, const char *fmt, va_list ap)
{
	size_t n = 0;
	const char *p = fmt;
	va_list again;

	va_copy(again, ap);
	for (;;) {
		const char *q = strchr(p, '%');
		size_t len = q ? (size_t)(q - p) : strlen(p);
		char digits[12];
		const char *s;

		if (n + len >= size)
			len = size - 1 - n;
		memcpy(buf + n, p, len);
		n += len;
		if (!q)
			break;
		if (q[1] == 's') {
			s = va_arg(ap, const char *);
			len = strlen(s);
		} else if (q[1] == 'u' || q[1] == 'd') {
			int v = va_arg(ap, int);
			unsigned int u = q[1] == 'd' && v < 0 ?
					 0u - (unsigned)v : (unsigned int)v;
			char *d = digits + sizeof(digits);

			do
				*--d = (char)('0' + u % 10);
			while (u /= 10);
			if (q[1] == 'd' && v < 0)
				*--d = '-';
			s = d;
			len = (size_t)(digits + sizeof(digits) - d);
		} else {
			vsnprintf(buf, size, fmt, again);
			va_end(again);
			return;
		}
		if (n + len >= size)
			len = size - 1 - n;
		memcpy(buf + n, s, len);
		n += len;
		p = q + 2;
	}
	buf[n] = '\0';
	va_end(again);
}

/* Is @fmt text with one %u and no other conversion? */
static bool one_u_format(const char *fmt)
{
	const char *p = strchr(fmt, '%');

	return p && p[1] == 'u' && !strchr(p + 2, '%');
}

static uint32_t register_va(const char *fmt, va_list ap)
{
	char name[96];
	uint32_t id = sim_object_register_known();

	if (id)
		return id;
	/* A long run keeps such a name unformatted (a folio's words). */
	if (one_u_format(fmt))
		return sim_object_register_u(fmt, va_arg(ap, unsigned int));
	format_name(name, sizeof(name), fmt, ap);
	return sim_object_register_name(name);
}

/* ---- Words -------------------------------------------------------------- */

void sim_word_init(struct sim_word *word, uint64_t value, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	word->id = register_va(fmt, ap);
	va_end(ap);
	word->value = value;
	word->tag = 0;
	sim_note_init(word);
}

void sim_word_init_as(struct sim_word *word, uint64_t value, uint32_t id)
{
	word->id = id;
	word->value = value;
	word->tag = 0;
	sim_note_init(word);
}

void sim_word_init_static(struct sim_word *word, uint64_t value,
			  const char *name)
{
	sim_word_init_as(word, value, sim_object_register_static(name));
}

uint64_t sim_word_read(struct sim_word *word)
{
	sim_point(word->id, SIM_ACCESS_READ);
	sim_record(word->id, SIM_ACCESS_READ, word->value);
	return word->value;
}

void sim_word_write(struct sim_word *word, uint64_t value)
{
	sim_point(word->id, SIM_ACCESS_WRITE);
	word->value = value;
	sim_note_write(word);
	sim_record(word->id, SIM_ACCESS_WRITE, value);
}

uint64_t sim_word_load(struct sim_word *word)
{
	sim_point(word->id, SIM_ACCESS_READ);
	if (sim_in_task())
		sim_race_plain_next();
	sim_record(word->id, SIM_ACCESS_READ, word->value);
	return word->value;
}

void sim_word_store(struct sim_word *word, uint64_t value)
{
	sim_point(word->id, SIM_ACCESS_WRITE);
	word->value = value;
	sim_note_write(word);
	if (sim_in_task())
		sim_race_plain_next();
	sim_record(word->id, SIM_ACCESS_WRITE, value);
}

int64_t sim_word_add(struct sim_word *word, int64_t delta)
{
	sim_point(word->id, SIM_ACCESS_RMW);
	word->value = (uint64_t)((int64_t)word->value + delta);
	sim_note_write(word);
	sim_record(word->id, SIM_ACCESS_RMW, word->value);
	return (int64_t)word->value;
}

void sim_word_add_nr(struct sim_word *word, int64_t delta)
{
	sim_point(word->id, SIM_ACCESS_ADD);
	word->value = (uint64_t)((int64_t)word->value + delta);
	sim_note_write(word);
	sim_record(word->id, SIM_ACCESS_ADD, (uint64_t)delta);
}

void sim_word_touch_range(struct sim_word *word, enum sim_access access,
			  uint32_t first, uint32_t last)
{
	sim_point(word->id, access);
	if (access != SIM_ACCESS_READ)
		word->value++;
	sim_note_write(word);
	sim_record(SIM_OBJECT_RANGE(word->id), access,
		   SIM_RANGE_VALUE(first, last));
}

uint64_t sim_word_read_also(struct sim_word *word)
{
	sim_record(word->id, SIM_ACCESS_READ, word->value);
	return word->value;
}

void sim_word_add_also(struct sim_word *word, int64_t delta)
{
	word->value = (uint64_t)((int64_t)word->value + delta);
	sim_note_write(word);
	sim_record(word->id, SIM_ACCESS_RMW, word->value);
}

uint64_t sim_word_xchg(struct sim_word *word, uint64_t value)
{
	uint64_t old;

	sim_point(word->id, SIM_ACCESS_RMW);
	old = word->value;
	word->value = value;
	sim_note_write(word);
	sim_record(word->id, SIM_ACCESS_RMW, value);
	return old;
}

uint64_t sim_word_cmpxchg(struct sim_word *word, uint64_t old, uint64_t value)
{
	uint64_t seen;

	sim_point(word->id, SIM_ACCESS_RMW);
	seen = word->value;
	if (seen == old)
		word->value = value;
	sim_note_write(word);
	sim_record(word->id, SIM_ACCESS_RMW, word->value);
	return seen;
}

uint64_t sim_word_read_at(sim_word_where where, void *base,
			  unsigned long index)
{
	struct sim_word *word = where(base, index, false);

	sim_point(word->id, SIM_ACCESS_READ);
	word = where(base, index, false);
	sim_record(word->id, SIM_ACCESS_READ, word->value);
	return word->value;
}

void sim_word_write_at(sim_word_where where, void *base, unsigned long index,
		       uint64_t value)
{
	struct sim_word *word = where(base, index, false);

	sim_point(word->id, SIM_ACCESS_WRITE);
	word = where(base, index, value != 0);
	word->value = value;
	sim_note_write(word);
	sim_record(word->id, SIM_ACCESS_WRITE, value);
}

uint64_t sim_word_read_at_id(sim_word_where where, void *base,
			     unsigned long index, uint32_t id)
{
	struct sim_word *word;

	sim_point(id, SIM_ACCESS_READ);
	word = where(base, index, false);
	sim_record(word->id, SIM_ACCESS_READ, word->value);
	return word->value;
}

void sim_word_write_at_id(sim_word_where where, void *base,
			  unsigned long index, uint64_t value, uint32_t id)
{
	struct sim_word *word;

	sim_point(id, SIM_ACCESS_WRITE);
	word = where(base, index, value != 0);
	word->value = value;
	sim_note_write(word);
	sim_record(word->id, SIM_ACCESS_WRITE, value);
}

uint64_t sim_word_read_also_at(sim_word_where where, void *base,
			       unsigned long index)
{
	return sim_word_read_also(where(base, index, false));
}

void sim_bit_set_at(sim_word_where where, void *base, unsigned long index,
		    unsigned int nr)
{
	struct sim_word *word = where(base, index, false);

	sim_point(SIM_OBJECT_BIT(word->id, nr), SIM_ACCESS_RMW);
	word = where(base, index, true);
	word->value |= 1ULL << nr;
	sim_note_write(word);
	sim_record(SIM_OBJECT_BIT(word->id, nr), SIM_ACCESS_RMW,
		   word->value);
}

void sim_bit_clear_at(sim_word_where where, void *base, unsigned long index,
		      unsigned int nr)
{
	struct sim_word *word = where(base, index, false);

	sim_point(SIM_OBJECT_BIT(word->id, nr), SIM_ACCESS_RMW);
	word = where(base, index, false);
	word->value &= ~(1ULL << nr);
	sim_note_write(word);
	sim_record(SIM_OBJECT_BIT(word->id, nr), SIM_ACCESS_RMW,
		   word->value);
}

bool sim_bit_test(struct sim_word *word, unsigned int nr)
{
	uint32_t obj = SIM_OBJECT_BIT(word->id, nr);

	sim_point(obj, SIM_ACCESS_READ);
	sim_record(obj, SIM_ACCESS_READ, word->value);
	return (word->value >> nr) & 1;
}

void sim_bit_set(struct sim_word *word, unsigned int nr)
{
	sim_point(SIM_OBJECT_BIT(word->id, nr), SIM_ACCESS_RMW);
	word->value |= 1ULL << nr;
	sim_note_write(word);
	sim_record(SIM_OBJECT_BIT(word->id, nr), SIM_ACCESS_RMW,
		   word->value);
}

void sim_bit_clear(struct sim_word *word, unsigned int nr)
{
	sim_point(SIM_OBJECT_BIT(word->id, nr), SIM_ACCESS_RMW);
	word->value &= ~(1ULL << nr);
	sim_note_write(word);
	sim_record(SIM_OBJECT_BIT(word->id, nr), SIM_ACCESS_RMW,
		   word->value);
}

bool sim_bit_test_and_set(struct sim_word *word, unsigned int nr)
{
	bool old;

	sim_point(SIM_OBJECT_BIT(word->id, nr), SIM_ACCESS_RMW);
	old = (word->value >> nr) & 1;
	word->value |= 1ULL << nr;
	sim_note_write(word);
	sim_record(SIM_OBJECT_BIT(word->id, nr), SIM_ACCESS_RMW,
		   word->value);
	return old;
}

bool sim_bit_test_and_clear(struct sim_word *word, unsigned int nr)
{
	bool old;

	sim_point(SIM_OBJECT_BIT(word->id, nr), SIM_ACCESS_RMW);
	old = (word->value >> nr) & 1;
	word->value &= ~(1ULL << nr);
	sim_note_write(word);
	sim_record(SIM_OBJECT_BIT(word->id, nr), SIM_ACCESS_RMW,
		   word->value);
	return old;
}

/* ---- Spinlocks ---------------------------------------------------------- */

void sim_spin_init(struct sim_spinlock *lock, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lock->word.id = register_va(fmt, ap);
	va_end(ap);
	lock->word.value = 0;
	lock->word.tag = 0;	/* as sim_word_init's */
	sim_note_init(&lock->word);
}

void sim_spin_lock(struct sim_spinlock *lock)
{
	int me = sim_task_current();

	if (me < 0) {
		lock->word.value = 1;	/* setup: no owner task */
		sim_note_write(&lock->word);
		return;
	}
	if (lock->word.value == (uint64_t)me + 1)
		sim_fail(SIM_FAIL_DEADLOCK, "%s: spin_lock on a lock it holds",
			 sim_exec_object_name(lock->word.id));
	/* The point: disabled until the lock is free, then take it. */
	sim_task_spin_until_zero(&lock->word.value, lock->word.id);
	lock->word.value = (uint64_t)me + 1;
	sim_note_write(&lock->word);
	sim_record(lock->word.id, SIM_ACCESS_ACQUIRE, lock->word.value);
	sim_task_note_lock(1);
	sim_lockdep_acquired(lock->word.id, false);
}

bool sim_spin_trylock(struct sim_spinlock *lock)
{
	int me = sim_task_current();

	sim_point(lock->word.id, SIM_ACCESS_ACQUIRE);
	if (lock->word.value != 0) {
		sim_record(lock->word.id, SIM_ACCESS_ACQUIRE_FAIL,
			   lock->word.value);
		return false;
	}
	lock->word.value = (uint64_t)(me < 0 ? 0 : me) + 1;
	sim_note_write(&lock->word);
	sim_record(lock->word.id, SIM_ACCESS_ACQUIRE, lock->word.value);
	sim_task_note_lock(1);
	sim_lockdep_acquired_try(lock->word.id, false);
	return true;
}

void sim_spin_unlock(struct sim_spinlock *lock)
{
	int me = sim_task_current();

	if (me >= 0 && lock->word.value != (uint64_t)me + 1)
		sim_fail(SIM_FAIL_ASSERT, "%s: spin_unlock by a task that does "
			 "not hold it", sim_exec_object_name(lock->word.id));
	sim_point(lock->word.id, SIM_ACCESS_RELEASE);
	lock->word.value = 0;
	sim_note_write(&lock->word);
	sim_record(lock->word.id, SIM_ACCESS_RELEASE, 0);
	sim_task_note_lock(-1);
	sim_lockdep_released(lock->word.id);
}

bool sim_spin_held(const struct sim_spinlock *lock)
{
	return lock->word.value != 0;
}

bool sim_spin_held_by_me(const struct sim_spinlock *lock)
{
	int me = sim_task_current();

	return me >= 0 && lock->word.value == (uint64_t)me + 1;
}

/* ---- Wait queues -------------------------------------------------------- */

void sim_waitq_init(struct sim_waitq *wq, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	wq->id = register_va(fmt, ap);
	va_end(ap);
	wq->count = 0;
	wq->head = 0;
	wq->more = NULL;
	wq->more_cap = 0;
}

void sim_waitq_init_as(struct sim_waitq *wq, uint32_t id)
{
	wq->id = id;
	wq->count = 0;
	wq->head = 0;
	wq->more = NULL;
	wq->more_cap = 0;
}

/* The ring and its size: inline, or in the arena once it outgrew it. */
static inline uint16_t *wq_ring(const struct sim_waitq *wq, unsigned int *cap)
{
	if (wq->more) {
		*cap = wq->more_cap;
		return wq->more;
	}
	*cap = SIM_WAITQ_INLINE;
	return (uint16_t *)wq->tasks;
}

#define WQ_SLOT(wq, i) ({						\
	unsigned int cap_;						\
	uint16_t *ring_ = wq_ring((wq), &cap_);				\
	&ring_[((wq)->head + (i)) % cap_];				\
})

/* More sleepers than the ring holds: a ring twice as large. */
static void wq_grow(struct sim_waitq *wq)
{
	unsigned int cap, next;
	uint16_t *old = wq_ring(wq, &cap), *ring;

	next = 2 * cap;
	if (next > SIM_IDS_LIMIT)
		sim_fail(SIM_FAIL_BOUND, "%s: wait queue full",
			 sim_exec_object_name(wq->id));
	ring = sim_arena_alloc(next * sizeof(*ring));
	for (unsigned int i = 0; i < wq->count; i++)
		ring[i] = old[(wq->head + i) % cap];
	if (wq->more)
		sim_arena_free(wq->more, cap * sizeof(*ring));
	wq->more = ring;
	wq->more_cap = (uint16_t)next;
	wq->head = 0;
}

/* Put the running task @me at the tail of @wq (not a point). */
static void wq_enqueue(struct sim_waitq *wq, int me)
{
	unsigned int cap;

	if (me < 0)
		sim_fail(SIM_FAIL_ASSERT, "%s: sleeping outside a task",
			 sim_exec_object_name(wq->id));
	wq_ring(wq, &cap);
	if (wq->count == cap)
		wq_grow(wq);
	*WQ_SLOT(wq, wq->count) = (uint16_t)me;
	wq->count++;
}

void sim_waitq_sleep(struct sim_waitq *wq)
{
	wq_enqueue(wq, sim_task_current());
	sim_task_block(wq->id);
}

int sim_waitq_wake_one(struct sim_waitq *wq)
{
	unsigned int cap;
	int task;

	if (wq->count == 0)
		return -1;
	task = *WQ_SLOT(wq, 0);
	wq_ring(wq, &cap);
	wq->head = (uint16_t)((wq->head + 1) % cap);
	wq->count--;
	sim_task_wake(task);
	return task;
}

int sim_waitq_wake_all(struct sim_waitq *wq)
{
	int woken = 0;

	while (sim_waitq_wake_one(wq) >= 0)
		woken++;
	/*
	 * Finding the queue empty is a read of it: a task that goes to
	 * sleep on it later (a write) is not woken, one that slept before
	 * is, so DPOR must order the two.
	 */
	if (!woken)
		sim_record(wq->id, SIM_ACCESS_READ, 0);
	return woken;
}

unsigned int sim_waitq_active_also(struct sim_waitq *wq)
{
	sim_record(wq->id, SIM_ACCESS_READ, wq->count);
	return wq->count;
}

int sim_waitq_peek(const struct sim_waitq *wq, unsigned int i)
{
	if (i >= wq->count)
		return -1;
	return *WQ_SLOT(wq, i);
}

void sim_waitq_wake_up(struct sim_waitq *wq)
{
	sim_point(wq->id, SIM_ACCESS_WAKE);
	sim_waitq_wake_all(wq);
}

/* ---- Blocking takes ----------------------------------------------------- */

/* Per task: at the point of a blocking take (sim_task_takes_blocking). */
static bool blocking_take[SIM_TASKS_MAX];

bool sim_task_takes_blocking(int task)
{
	return task >= 0 && task < SIM_TASKS_MAX && blocking_take[task];
}

void sim_blocking_takes_reset(void)
{
	memset(blocking_take, 0, sizeof(blocking_take));
}

/* sim_point for a take that waits while the lock is unavailable. */
static void point_blocking_take(uint32_t object, enum sim_access access)
{
	int me = sim_task_current();
	bool mark = me >= 0 && me < SIM_TASKS_MAX;

	if (mark)
		blocking_take[me] = true;
	sim_point(object, access);
	if (mark)
		blocking_take[me] = false;
}

/* ---- Mutexes ------------------------------------------------------------ */

void sim_mutex_init(struct sim_mutex *mutex, const char *fmt, ...)
{
	char name[96];
	va_list ap;

	va_start(ap, fmt);
	format_name(name, sizeof(name), fmt, ap);
	va_end(ap);
	sim_word_init(&mutex->owner, 0, "%s", name);
	sim_waitq_init(&mutex->waiters, "%s.wait", name);
}

void sim_mutex_lock(struct sim_mutex *mutex)
{
	int me = sim_task_current();

	if (me < 0) {
		/* Held by setup. */
		mutex->owner.value = SIM_SETUP_ID + 1;
		sim_note_write(&mutex->owner);
		return;
	}
	if (mutex->owner.value == (uint64_t)me + 1)
		sim_fail(SIM_FAIL_DEADLOCK, "%s: mutex_lock on a mutex it holds",
			 sim_exec_object_name(mutex->owner.id));
	point_blocking_take(mutex->owner.id, SIM_ACCESS_ACQUIRE);
	if (mutex->owner.value == 0) {
		mutex->owner.value = (uint64_t)me + 1;
		sim_note_write(&mutex->owner);
		sim_record(mutex->owner.id, SIM_ACCESS_ACQUIRE,
			   mutex->owner.value);
		sim_task_note_lock(1);
		sim_lockdep_acquired(mutex->owner.id, false);
		return;
	}
	sim_record(mutex->owner.id, SIM_ACCESS_ACQUIRE_FAIL,
		   mutex->owner.value);
	sim_waitq_sleep(&mutex->waiters);
	/* Hand-off: the unlocker made us the owner before waking us. */
	if (mutex->owner.value != (uint64_t)me + 1)
		sim_fail(SIM_FAIL_ASSERT, "%s: woken without the hand-off",
			 sim_exec_object_name(mutex->owner.id));
	sim_task_note_lock(1);
	sim_lockdep_acquired(mutex->owner.id, false);
}

bool sim_mutex_trylock(struct sim_mutex *mutex)
{
	int me = sim_task_current();

	sim_point(mutex->owner.id, SIM_ACCESS_ACQUIRE);
	if (mutex->owner.value != 0) {
		sim_record(mutex->owner.id, SIM_ACCESS_ACQUIRE_FAIL,
			   mutex->owner.value);
		return false;
	}
	mutex->owner.value = (uint64_t)(me < 0 ? SIM_SETUP_ID : me) + 1;
	sim_note_write(&mutex->owner);
	sim_record(mutex->owner.id, SIM_ACCESS_ACQUIRE, mutex->owner.value);
	sim_task_note_lock(1);
	sim_lockdep_acquired_try(mutex->owner.id, false);
	return true;
}

void sim_mutex_unlock(struct sim_mutex *mutex)
{
	int me = sim_task_current();
	int next;

	if (me >= 0 && mutex->owner.value != (uint64_t)me + 1)
		sim_fail(SIM_FAIL_ASSERT, "%s: mutex_unlock by a task that does "
			 "not hold it", sim_exec_object_name(mutex->owner.id));
	sim_point(mutex->owner.id, SIM_ACCESS_RELEASE);
	next = sim_waitq_peek(&mutex->waiters, 0);
	mutex->owner.value = next >= 0 ? (uint64_t)next + 1 : 0;
	sim_note_write(&mutex->owner);
	sim_record(mutex->owner.id, SIM_ACCESS_RELEASE, mutex->owner.value);
	sim_task_note_lock(-1);
	sim_lockdep_released(mutex->owner.id);
	if (next >= 0)
		sim_waitq_wake_one(&mutex->waiters);
}

bool sim_mutex_held_by_me(const struct sim_mutex *mutex)
{
	int me = sim_task_current();

	return me >= 0 && mutex->owner.value == (uint64_t)me + 1;
}

/* ---- Reader-writer lock ------------------------------------------------ */

#define RWLOCK_WRITE_HELD	1ULL
#define RWLOCK_READER		2ULL

void sim_rwlock_init(struct sim_rwlock *rw, const char *fmt, ...)
{
	char name[96];
	va_list ap;

	va_start(ap, fmt);
	format_name(name, sizeof(name), fmt, ap);
	va_end(ap);
	sim_word_init(&rw->word, 0, "%s", name);
	rw->writer = 0;
	rw->waiters = 0;
}

/*
 * The lock was unavailable: the task becomes a waiter (a write of the
 * lock: trylocks see it), spins until @until is zero, then stops waiting
 * in the step that takes the lock.
 */
static void rwlock_wait(struct sim_rwlock *rw, const void *until)
{
	rw->waiters++;
	sim_record(rw->word.id, SIM_ACCESS_ACQUIRE_FAIL, rw->word.value);
	sim_record(rw->word.id, SIM_ACCESS_WRITE, rw->waiters);
	sim_task_spin_until_zero(until, rw->word.id);
	rw->waiters--;
	sim_record(rw->word.id, SIM_ACCESS_WRITE, rw->waiters);
}

void sim_rwlock_read_lock(struct sim_rwlock *rw)
{
	if (sim_task_current() < 0) {
		rw->word.value += RWLOCK_READER;
		sim_note_write(&rw->word);
		return;
	}
	point_blocking_take(rw->word.id, SIM_ACCESS_ACQUIRE_SHARED);
	if (rw->writer)
		rwlock_wait(rw, &rw->writer);
	rw->word.value += RWLOCK_READER;
	sim_note_write(&rw->word);
	sim_record(rw->word.id, SIM_ACCESS_ACQUIRE_SHARED, rw->word.value);
	sim_task_note_lock(1);
	sim_lockdep_acquired(rw->word.id, true);
}

bool sim_rwlock_read_trylock(struct sim_rwlock *rw)
{
	sim_point(rw->word.id, SIM_ACCESS_ACQUIRE_SHARED);
	if (rw->writer || rw->waiters) {
		sim_record(rw->word.id, SIM_ACCESS_ACQUIRE_FAIL,
			   rw->word.value);
		return false;
	}
	rw->word.value += RWLOCK_READER;
	sim_note_write(&rw->word);
	sim_record(rw->word.id, SIM_ACCESS_ACQUIRE_SHARED, rw->word.value);
	sim_task_note_lock(1);
	sim_lockdep_acquired_try(rw->word.id, true);
	return true;
}

void sim_rwlock_read_unlock(struct sim_rwlock *rw)
{
	if (rw->word.value < RWLOCK_READER)
		sim_fail(SIM_FAIL_ASSERT, "%s: read unlock with no reader",
			 sim_exec_object_name(rw->word.id));
	sim_point(rw->word.id, SIM_ACCESS_RELEASE_SHARED);
	rw->word.value -= RWLOCK_READER;
	sim_note_write(&rw->word);
	sim_record(rw->word.id, SIM_ACCESS_RELEASE_SHARED, rw->word.value);
	sim_task_note_lock(-1);
	sim_lockdep_released(rw->word.id);
}

static void rwlock_take_write(struct sim_rwlock *rw, int me)
{
	rw->writer = (uint64_t)(me < 0 ? SIM_SETUP_ID : me) + 1;
	rw->word.value = RWLOCK_WRITE_HELD;
	sim_note_write(&rw->word);
}

void sim_rwlock_write_lock(struct sim_rwlock *rw)
{
	int me = sim_task_current();

	if (me < 0) {
		rwlock_take_write(rw, me);
		return;
	}
	if (rw->writer == (uint64_t)me + 1)
		sim_fail(SIM_FAIL_DEADLOCK, "%s: write lock taken again by "
			 "its holder", sim_exec_object_name(rw->word.id));
	point_blocking_take(rw->word.id, SIM_ACCESS_ACQUIRE);
	if (rw->word.value)
		rwlock_wait(rw, &rw->word.value);
	rwlock_take_write(rw, me);
	sim_record(rw->word.id, SIM_ACCESS_ACQUIRE, rw->word.value);
	sim_task_note_lock(1);
	sim_lockdep_acquired(rw->word.id, false);
}

bool sim_rwlock_write_trylock(struct sim_rwlock *rw)
{
	sim_point(rw->word.id, SIM_ACCESS_ACQUIRE);
	if (rw->word.value || rw->waiters) {
		sim_record(rw->word.id, SIM_ACCESS_ACQUIRE_FAIL,
			   rw->word.value);
		return false;
	}
	rwlock_take_write(rw, sim_task_current());
	sim_record(rw->word.id, SIM_ACCESS_ACQUIRE, rw->word.value);
	sim_task_note_lock(1);
	sim_lockdep_acquired_try(rw->word.id, false);
	return true;
}

void sim_rwlock_write_unlock(struct sim_rwlock *rw)
{
	int me = sim_task_current();

	if (me >= 0 && rw->writer != (uint64_t)me + 1)
		sim_fail(SIM_FAIL_ASSERT, "%s: write unlock by a task that "
			 "does not hold it", sim_exec_object_name(rw->word.id));
	sim_point(rw->word.id, SIM_ACCESS_RELEASE);
	rw->writer = 0;
	rw->word.value = 0;
	sim_note_write(&rw->word);
	sim_record(rw->word.id, SIM_ACCESS_RELEASE, 0);
	sim_task_note_lock(-1);
	sim_lockdep_released(rw->word.id);
}

void sim_rwlock_downgrade(struct sim_rwlock *rw)
{
	int me = sim_task_current();

	if (me >= 0 && rw->writer != (uint64_t)me + 1)
		sim_fail(SIM_FAIL_ASSERT, "%s: downgrade by a task that does "
			 "not hold it", sim_exec_object_name(rw->word.id));
	sim_point(rw->word.id, SIM_ACCESS_RELEASE);
	rw->writer = 0;
	rw->word.value = RWLOCK_READER;
	sim_note_write(&rw->word);
	sim_record(rw->word.id, SIM_ACCESS_RELEASE, rw->word.value);
	sim_lockdep_released(rw->word.id);
	sim_lockdep_acquired_try(rw->word.id, true);
}

/* ---- Completions -------------------------------------------------------- */

#define COMPLETION_ALL (1ULL << 62)

void sim_completion_init(struct sim_completion *c, const char *fmt, ...)
{
	char name[96];
	va_list ap;

	va_start(ap, fmt);
	format_name(name, sizeof(name), fmt, ap);
	va_end(ap);
	/* The names "NAME" and "NAME.wait", each registered as
	 * sim_word_init(..., "%s", name) and sim_waitq_init(..., "%s.wait",
	 * name) would (the same ids and truncation), formatted once:
	 * completions are made per I/O in a long run. */
	sim_word_init_as(&c->done, 0, sim_object_register_name(name));
	{
		size_t len = strlen(name);
		size_t room = sizeof(name) - 1 - len;

		memcpy(name + len, ".wait", room < 5 ? room : 5);
		name[len + (room < 5 ? room : 5)] = '\0';
	}
	sim_waitq_init_as(&c->waiters, sim_object_register_name(name));
}

void sim_completion_init_static(struct sim_completion *c, const char *name,
				const char *wait_name)
{
	sim_word_init_as(&c->done, 0, sim_object_register_static(name));
	sim_waitq_init_as(&c->waiters, sim_object_register_static(wait_name));
}

void sim_completion_wait(struct sim_completion *c)
{
	sim_point(c->done.id, SIM_ACCESS_RMW);
	if (c->done.value) {
		if (c->done.value != COMPLETION_ALL)
			c->done.value--;
		sim_note_write(&c->done);
		sim_record(c->done.id, SIM_ACCESS_RMW, c->done.value);
		return;
	}
	sim_record(c->done.id, SIM_ACCESS_ACQUIRE_FAIL, 0);
	/* complete() hands its count to the first sleeper directly. */
	sim_waitq_sleep(&c->waiters);
}

void sim_completion_complete(struct sim_completion *c)
{
	sim_point(c->done.id, SIM_ACCESS_RMW);
	if (c->waiters.count && c->done.value == 0) {
		sim_record(c->done.id, SIM_ACCESS_RMW, 0);
		sim_waitq_wake_one(&c->waiters);
		return;
	}
	if (c->done.value != COMPLETION_ALL)
		c->done.value++;
	sim_note_write(&c->done);
	sim_record(c->done.id, SIM_ACCESS_RMW, c->done.value);
}

void sim_completion_complete_all(struct sim_completion *c)
{
	sim_point(c->done.id, SIM_ACCESS_RMW);
	c->done.value = COMPLETION_ALL;
	sim_note_write(&c->done);
	sim_record(c->done.id, SIM_ACCESS_RMW, c->done.value);
	sim_waitq_wake_all(&c->waiters);
}

/* ---- Bit waits ---------------------------------------------------------- */

void sim_bit_wait(struct sim_word *word, unsigned int nr, struct sim_waitq *wq)
{
	uint32_t obj = SIM_OBJECT_BIT(word->id, nr);

	for (;;) {
		sim_point(obj, SIM_ACCESS_READ);
		sim_record(obj, SIM_ACCESS_READ, word->value);
		if (!((word->value >> nr) & 1))
			return;
		if (!sim_in_task())
			sim_fail(SIM_FAIL_DEADLOCK, "%s: waiting for bit %u "
				 "outside a task", sim_exec_object_name(word->id),
				 nr);
		sim_waitq_sleep(wq);
	}
}

/* Clear bit @nr of @word: one point, recorded on the bit's object. */
static void bit_clear_step(struct sim_word *word, unsigned int nr)
{
	uint32_t obj = SIM_OBJECT_BIT(word->id, nr);

	sim_point(obj, SIM_ACCESS_RMW);
	word->value &= ~(1ULL << nr);
	sim_note_write(word);
	sim_record(obj, SIM_ACCESS_RMW, word->value);
}

void sim_bit_clear_and_wake(struct sim_word *word, unsigned int nr,
			    struct sim_waitq *wq)
{
	bit_clear_step(word, nr);
	sim_waitq_wake_all(wq);
}

/*
 * sim_waitq_sleep() with a timeout (sim_task_block_timeout): a sleeper
 * whose timeout fired leaves the queue.  Returns true if it timed out.
 */
bool sim_waitq_sleep_timeout(struct sim_waitq *wq)
{
	int me = sim_task_current();
	unsigned int i;

	wq_enqueue(wq, me);
	if (!sim_task_block_timeout(wq->id))
		return false;
	for (i = 0; i < wq->count && *WQ_SLOT(wq, i) != (uint16_t)me; i++)
		;
	SIM_ASSERT_MSG(i < wq->count, "%s: a timed-out sleeper not queued",
		       sim_exec_object_name(wq->id));
	for (; i + 1 < wq->count; i++)
		*WQ_SLOT(wq, i) = *WQ_SLOT(wq, i + 1);
	wq->count--;
	return true;
}

/* ---- Bit locks ---------------------------------------------------------- */

bool sim_bitlock_take(struct sim_word *word, unsigned int nr)
{
	uint32_t obj = SIM_OBJECT_BIT(word->id, nr);
	bool old;

	point_blocking_take(obj, SIM_ACCESS_RMW);
	old = (word->value >> nr) & 1;
	word->value |= 1ULL << nr;
	sim_note_write(word);
	sim_record(obj, SIM_ACCESS_RMW, word->value);
	sim_record_mark(old ? SIM_MARK_LOCK_FAIL : SIM_MARK_LOCK_TAKE);
	return !old;
}

void sim_bitlock_release(struct sim_word *word, unsigned int nr,
			 struct sim_waitq *wq)
{
	bit_clear_step(word, nr);
	sim_record_mark(SIM_MARK_LOCK_RELEASE);	/* the clear's event */
	sim_waitq_wake_all(wq);
}
