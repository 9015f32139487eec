// SPDX-License-Identifier: MIT
/*
 * model/kernel/rwsem.c - models kernel/locking/rwsem.c: struct
 * rw_semaphore, the lock under inode_lock*(), the XFS IOLOCK and
 * mapping->invalidate_lock.
 *
 * Kernel: kernel/locking/rwsem.c, v6.18 (non-PREEMPT_RT build), written
 * from the notes in reference/kernel-fs.md section 4, which were read
 * against the v6.3..v6.12 text of the same file; the paths modelled here
 * did not change up to v6.18 as far as those notes go.
 *
 * Modelled: the count word (RWSEM_WRITER_LOCKED, RWSEM_FLAG_WAITERS,
 * RWSEM_FLAG_HANDOFF, the reader bias), the owner word, the FIFO wait
 * list under wait_lock, the read and write fast paths and trylocks,
 * reader optimistic lock stealing, rwsem_mark_wake() with its batch
 * grant of every queued reader in the waker's context, writers woken one
 * at a time to re-compete in rwsem_try_write_lock(), up_read, up_write,
 * downgrade_write, and HANDOFF: under --variant rwsem=clock (knob clock)
 * when the waiter's RWSEM_WAIT_TIMEOUT has passed on the virtual clock,
 * else only when the knob wait_timeout_expired says so.  Sleeping follows set_current_state()/schedule(): a task
 * marks itself sleeping, checks its condition, and blocks in the same
 * step; wake_up_q() makes it running, so no wake-up is lost.
 *
 * Summary mode (m_rwsem_use_summary; the world's default,
 * --variant rwsem=summary): every km_ entry point below first hands the
 * call to the engine's reader-writer lock (sim_rwlock) and skips the
 * algorithm, keeping the same held-locks bookkeeping.  It is not the
 * kernel's algorithm but admits every acquisition history it admits
 * (tests/model/kernel/test_rwsem_summary.c; docs/model/rwsem.md).
 *
 * Optimistic spinning: under the clock rule the kernel's loop
 * (rwsem_optimistic_spin, rwsem_spin_on_owner while the owner runs on a
 * CPU, the HANDOFF writer's spin), bounded as rwsem_optimistic_spin()
 * says; without it one unqueued steal attempt per write slow path (knob
 * spin_on_owner), and the handoff writer sleeps instead of spinning.
 * Left out: the osq, the reader-owned spin time limit,
 * RWSEM_NONSPINNABLE; killable and interruptible
 * variants and their dequeue paths (rwsem_del_waiter,
 * rwsem_del_wake_waiter); RT tasks; the RWSEM_FLAG_READFAIL overflow path
 * (SIM_TASKS_MAX readers cannot overflow it); lockdep, lock events,
 * tracepoints; up_read_non_owner, down_read_nested and friends;
 * PREEMPT_RT's rwbase_rt.  Each omission is marked "KM:" where it
 * happens.  docs/model/rwsem.md has the whole picture.
 */
#include "model/kernel/rwsem.h"

#include <string.h>

#include "model/linux/writeback.h"	/* KM_HZ, KM_NS_PER_JIFFY */
#include "model/world.h"	/* m_broken(), the rwsem variant */
#include "sim/arena.h"
#include "sim/clock.h"
#include "sim/engine.h"
#include "sim/shared.h"

/* kernel: MAX_READERS_WAKEUP, readers granted by one rwsem_mark_wake(). */
#define MAX_READERS_WAKEUP	0x100

#define RWSEM_FLAG_WAITERS_BIT	1

enum rwsem_wake_type {
	RWSEM_WAKE_ANY,		/* wake whatever is at the head of the list */
	RWSEM_WAKE_READERS,	/* wake readers only */
	RWSEM_WAKE_READ_OWNED,	/* the waker holds the read lock */
};

/* p->__state values the model uses. */
enum {
	TASK_RUNNING = 0,
	TASK_UNINTERRUPTIBLE = 2,
};

/* A wake_q: tasks to wake once wait_lock is dropped. */
struct wake_q_head {
	int tasks[SIM_TASKS_MAX];
	unsigned int count;
};

#define DEFINE_WAKE_Q(name) struct wake_q_head name = { .count = 0 }

/* ---- Helpers ------------------------------------------------------------ */

static int current_task(const struct km_rw_semaphore *sem)
{
	int me = sim_task_current();

	SIM_ASSERT_MSG(me >= 0, "rwsem %s: km_ call outside a task",
		       sem->name);
	return me;
}

static void retry_bound(const struct km_rw_semaphore *sem,
			unsigned int *retries, const char *where)
{
	if (++*retries > KM_RWSEM_RETRIES_MAX)
		sim_fail(SIM_FAIL_STUCK, "rwsem %s: %s retried more than %d "
			 "times", sem->name, where, KM_RWSEM_RETRIES_MAX);
}

static uint64_t owner_value(int task, uint64_t flags)
{
	return ((uint64_t)(task + 1) << RWSEM_OWNER_SHIFT) | flags;
}

static int owner_task(uint64_t owner)
{
	return (int)(owner >> RWSEM_OWNER_SHIFT) - 1;
}

/* The read locks @task holds (its counter, made on first use). */
static uint8_t *reader_count(struct km_rw_semaphore *sem, int task)
{
	if (task < SIM_TASKS_LIMIT)
		return &sem->debug.readers[task];
	SIM_ASSERT_MSG(task < SIM_IDS_LIMIT, "rwsem %s: task id %d",
		       sem->name, task);
	if (!sem->debug.readers_high)
		sem->debug.readers_high = sim_arena_alloc(SIM_IDS_LIMIT -
							  SIM_TASKS_LIMIT);
	return &sem->debug.readers_high[task - SIM_TASKS_LIMIT];
}

static unsigned int readers_of(const struct km_rw_semaphore *sem, int task)
{
	if (task < 0)
		return 0;
	if (task < SIM_TASKS_LIMIT)
		return sem->debug.readers[task];
	if (task >= SIM_IDS_LIMIT || !sem->debug.readers_high)
		return 0;
	return sem->debug.readers_high[task - SIM_TASKS_LIMIT];
}

/* Lockdep's view: who holds what.  Called inside the taking step. */
static void held_read(struct km_rw_semaphore *sem, int task)
{
	sem->debug.changes++;
	(*reader_count(sem, task))++;
	sem->debug.readers_total++;
}

static void held_write(struct km_rw_semaphore *sem, int task)
{
	struct m_rwsem_debug *d = &sem->debug;
	uint32_t i, k;

	d->changes++;
	d->writer = task;
	/* The grant statistics: a pending request of @task is granted. */
	for (i = 0; i < d->nr_pending; i++)
		if (d->pending[i].task == task)
			break;
	if (i == d->nr_pending)
		return;		/* a trylock, or past KM_RWSEM_PENDING_MAX */
	if (d->pending[i].contended) {
		d->grants.contended++;
		for (k = 0; k < d->nr_pending; k++)
			if (d->pending[k].seq < d->pending[i].seq) {
				d->grants.passed++;
				break;
			}
	}
	d->pending[i] = d->pending[--d->nr_pending];
}

/*
 * A write request arrives (km_down_write, before anything is touched):
 * stamp it; contended if the lock is held or another request is
 * pending.  Reads the held-locks record only: no scheduling point.
 */
static void note_write_request(struct km_rw_semaphore *sem, int task)
{
	struct m_rwsem_debug *d = &sem->debug;

	if (d->nr_pending == KM_RWSEM_PENDING_MAX)
		return;
	d->pending[d->nr_pending].task = task;
	d->pending[d->nr_pending].seq = ++d->seq;
	d->pending[d->nr_pending].contended = d->writer >= 0 ||
					      d->readers_total > 0 ||
					      d->nr_pending > 0;
	d->nr_pending++;
}

/*
 * A release by a task that does not hold the lock: the kernel's
 * DEBUG_RWSEMS_WARN_ON.  Recorded for the dump, and a failure of the
 * execution at once (kind invariant, the message of m_rwsem_check()'s
 * invariant 1), for every rw_semaphore: i_data_sem and invalidate_lock
 * are not registered checks, and a misuse there was recorded but never
 * reported (issue 30, a deleted i_data_sem read-lock pair of
 * xfs_direct_write_iomap_begin).
 */
static void note_misuse(struct km_rw_semaphore *sem, int task,
			const char *what)
{
	sem->debug.changes++;
	if (sem->debug.misuse_task < 0) {
		sem->debug.misuse_task = task;
		sem->debug.misuse = what;
	}
	sim_fail(SIM_FAIL_INVARIANT, "rwsem %s: %s: %s", sem->name,
		 sim_exec_task_name((uint32_t)task), what);
}

/* ---- The wait list (always under wait_lock) ----------------------------- */

static void assert_wait_lock_held(const struct km_rw_semaphore *sem)
{
	SIM_ASSERT_MSG(sim_spin_held_by_me(&sem->wait_lock),
		       "rwsem %s: wait list touched without wait_lock",
		       sem->name);
}

static bool list_empty(const struct km_rw_semaphore *sem)
{
	assert_wait_lock_held(sem);
	return sem->wait_count == 0;
}

static bool list_is_singular(const struct km_rw_semaphore *sem)
{
	assert_wait_lock_held(sem);
	return sem->wait_count == 1;
}

static struct rwsem_waiter *rwsem_first_waiter(struct km_rw_semaphore *sem)
{
	assert_wait_lock_held(sem);
	SIM_ASSERT(sem->wait_count > 0);
	return sem->wait_list[0];
}

static void rwsem_add_waiter(struct km_rw_semaphore *sem,
			     struct rwsem_waiter *waiter)
{
	assert_wait_lock_held(sem);
	if (sem->wait_count == KM_RWSEM_WAITERS_MAX)
		sim_fail(SIM_FAIL_BOUND, "rwsem %s: more than %d waiters",
			 sem->name, KM_RWSEM_WAITERS_MAX);
	sem->wait_list[sem->wait_count++] = waiter;
}

static void list_del(struct km_rw_semaphore *sem, struct rwsem_waiter *waiter)
{
	uint32_t i, j;

	assert_wait_lock_held(sem);
	for (i = 0; i < sem->wait_count; i++)
		if (sem->wait_list[i] == waiter)
			break;
	SIM_ASSERT_MSG(i < sem->wait_count,
		       "rwsem %s: waiter of %s not on the list", sem->name,
		       sim_exec_task_name((uint32_t)waiter->task_id));
	for (j = i; j + 1 < sem->wait_count; j++)
		sem->wait_list[j] = sem->wait_list[j + 1];
	sem->wait_count--;
}

/* ---- Sleeping and waking ------------------------------------------------ */

/*
 * The task states are shared (wakers write them) but are not engine
 * words: touching them is not a scheduling point of its own.  Each access
 * is recorded as an event on the sleep object inside the current step, so
 * that DPOR sees a waker and a sleeper as dependent.
 */
static void set_current_state(struct km_rw_semaphore *sem, int me,
			      unsigned int state)
{
	sem->task_state[me] = (uint8_t)state;
	sim_record(sem->sleep_object, SIM_ACCESS_WRITE, state);
}

/*
 * schedule(): sleep unless a waker made us TASK_RUNNING since
 * set_current_state().  Runs inside the step of the caller's last access
 * (the condition check or the wait_lock release), so checking and
 * sleeping are one step, as under the kernel's rq lock.
 */
static void schedule(struct km_rw_semaphore *sem, int me)
{
	if (sem->task_state[me] != TASK_RUNNING)
		sim_task_block(sem->sleep_object);
	else
		sim_record(sem->sleep_object, SIM_ACCESS_READ, TASK_RUNNING);
}

static void wake_q_add(struct wake_q_head *head, int task)
{
	for (unsigned int i = 0; i < head->count; i++)
		if (head->tasks[i] == task)
			return;
	head->tasks[head->count++] = task;
}

static bool wake_q_empty(const struct wake_q_head *head)
{
	return head->count == 0;
}

/*
 * wake_up_q(): make each task TASK_RUNNING and, if it is asleep, wake
 * it.  A task that is not inside this rwsem's slow path any more is
 * TASK_RUNNING already and is left alone.
 * KM: the kernel would also wake such a task out of an unrelated sleep
 * (a spurious wake-up every sleeper tolerates); the model drops it.
 */
static void wake_up_q(struct km_rw_semaphore *sem, struct wake_q_head *head)
{
	for (unsigned int i = 0; i < head->count; i++) {
		int task = head->tasks[i];

		if (sem->task_state[task] == TASK_RUNNING)
			continue;
		sem->task_state[task] = TASK_RUNNING;
		sim_record(sem->sleep_object, SIM_ACCESS_WRITE, (uint64_t)task);
		if (sim_task_blocked(task))
			sim_task_wake(task);
	}
	head->count = 0;
}

/* ---- Owner -------------------------------------------------------------- */

static void rwsem_set_owner(struct km_rw_semaphore *sem)
{
	sim_word_write(&sem->owner, owner_value(sim_task_current(), 0));
}

static void rwsem_clear_owner(struct km_rw_semaphore *sem)
{
	sim_word_write(&sem->owner, 0);
}

/*
 * KM: the kernel keeps RWSEM_NONSPINNABLE from the old owner value (one
 * more read); the model never sets that flag, so it just writes.
 */
static void __rwsem_set_reader_owned(struct km_rw_semaphore *sem, int task)
{
	sim_word_write(&sem->owner, owner_value(task, RWSEM_READER_OWNED));
}

static void rwsem_set_reader_owned(struct km_rw_semaphore *sem)
{
	__rwsem_set_reader_owned(sem, sim_task_current());
}

/*
 * jiffies from the virtual clock, as model/mm/page-writeback.c's: 1 +
 * whole jiffies of KM_HZ since the execution began.
 */
static unsigned long rwsem_jiffies(void)
{
	return 1 + (unsigned long)(sim_now() / KM_NS_PER_JIFFY);
}

/* time_after(a, b) (include/linux/jiffies.h). */
static bool time_after(unsigned long a, unsigned long b)
{
	return (long)(b - a) < 0;
}

/* waiter.timeout = jiffies + RWSEM_WAIT_TIMEOUT, at queueing. */
static unsigned long rwsem_waiter_timeout(void)
{
	return rwsem_jiffies() + KM_RWSEM_WAIT_TIMEOUT;
}

/*
 * time_after(jiffies, waiter->timeout): under the clock rule from the
 * virtual clock; the knob wait_timeout_expired makes it true for every
 * waiter (both modes).  Without either it is false: HANDOFF is never
 * set (rwsem=exact).
 */
static bool rwsem_waiter_timed_out(const struct km_rw_semaphore *sem,
				   const struct rwsem_waiter *waiter)
{
	if (sem->knobs.wait_timeout_expired)
		return true;
	return sem->knobs.clock && time_after(rwsem_jiffies(),
					      waiter->timeout);
}

/* ---- Init --------------------------------------------------------------- */

/**
 * km_init_rwsem() - initialise a rw_semaphore.
 * @sem: the semaphore, in arena memory.
 * @name: its name in events, dumps and failure messages.
 *
 * Kernel: init_rwsem() -> __init_rwsem(), kernel/locking/rwsem.c, v6.18.
 * Context: program setup or a task; no scheduling point.
 * Return: nothing.
 * Divergences: registers the named objects <name> (what waiters sleep
 * on), <name>.count, <name>.owner, <name>.wait_lock and
 * <name>.waiter.task; sets the model knobs to spin_on_owner = true,
 * wait_timeout_expired = false, and clock = true under the world's
 * --variant rwsem=clock.  No lockdep class, no osq.
 */
void km_init_rwsem(struct km_rw_semaphore *sem, const char *name)
{
	memset(sem, 0, sizeof(*sem));
	snprintf(sem->name, sizeof(sem->name), "%s", name);
	sem->sleep_object = sim_object_register("%s", sem->name);
	sim_word_init(&sem->count, RWSEM_UNLOCKED_VALUE, "%s.count",
		      sem->name);
	sim_word_init(&sem->owner, 0, "%s.owner", sem->name);
	sim_spin_init(&sem->wait_lock, "%s.wait_lock", sem->name);
	sem->waiter_task_object = sim_object_register("%s.waiter.task",
						      sem->name);
	sem->wait_count = 0;
	sem->knobs.spin_on_owner = true;
	sem->knobs.wait_timeout_expired = false;
	sem->knobs.clock = m_world() && m_world()->rwsem == M_RWSEM_CLOCK;
	sem->debug.writer = -1;
	sem->debug.misuse_task = -1;
	sem->debug.changes = 1;		/* not checked yet */
	sem->debug.checked = 0;
}

void m_rwsem_use_summary(struct km_rw_semaphore *sem)
{
	sem->use_summary = true;
	sim_rwlock_init(&sem->summary, "%s", sem->name);
	sem->debug.changes++;
}

/*
 * Summary mode: each km_ entry point is one engine rwlock operation
 * (sim/shared.c sim_rwlock), with the same held-locks bookkeeping as the
 * algorithm.
 */
static void summary_read_lock(struct km_rw_semaphore *sem)
{
	sim_rwlock_read_lock(&sem->summary);
	held_read(sem, sim_task_current());
}

static int summary_read_trylock(struct km_rw_semaphore *sem)
{
	if (!sim_rwlock_read_trylock(&sem->summary))
		return 0;
	held_read(sem, sim_task_current());
	return 1;
}

static void summary_up_read(struct km_rw_semaphore *sem, int me)
{
	if (!readers_of(sem, me)) {
		note_misuse(sem, me, "up_read without holding a read lock");
		return;
	}
	sim_rwlock_read_unlock(&sem->summary);
	sem->debug.changes++;
	(*reader_count(sem, me))--;
	sem->debug.readers_total--;
}

static void summary_write_lock(struct km_rw_semaphore *sem)
{
	sim_rwlock_write_lock(&sem->summary);
	held_write(sem, sim_task_current());
}

static int summary_write_trylock(struct km_rw_semaphore *sem)
{
	if (!sim_rwlock_write_trylock(&sem->summary))
		return 0;
	held_write(sem, sim_task_current());
	return 1;
}

/* ---- Waking waiters ----------------------------------------------------- */

/*
 * rwsem_mark_wake() - choose whom to wake; wait_lock held.
 *
 * Front waiter a writer: RWSEM_WAKE_ANY queues it for a wake-up (it must
 * win rwsem_try_write_lock() itself); other wake types wake nobody.
 * Front waiter a reader: grant one reader bias first (unless the waker
 * holds a read lock) and back out if a writer stole the lock, asking for
 * HANDOFF if the front reader timed out; else move every queued reader
 * (skipping writers) off the list, add their biases, clear WAITERS if the
 * list emptied and HANDOFF if readers were granted, then clear each
 * reader's waiter.task: each now holds a read lock.
 */
static void rwsem_mark_wake(struct km_rw_semaphore *sem,
			    enum rwsem_wake_type wake_type,
			    struct wake_q_head *wake_q)
{
	struct rwsem_waiter *wlist[KM_RWSEM_WAITERS_MAX];
	struct rwsem_waiter *waiter;
	int64_t adjustment = 0;
	uint64_t oldcount;
	uint32_t woken = 0, kept = 0, i;

	assert_wait_lock_held(sem);
	waiter = rwsem_first_waiter(sem);

	if (waiter->type == RWSEM_WAITING_FOR_WRITE) {
		if (wake_type == RWSEM_WAKE_ANY)
			wake_q_add(wake_q, waiter->task_id);
		return;
	}

	/* KM: "too many readers already" (count < 0) cannot happen here. */

	if (wake_type != RWSEM_WAKE_READ_OWNED) {
		adjustment = (int64_t)RWSEM_READER_BIAS;
		oldcount = (uint64_t)sim_word_add(&sem->count, adjustment) -
			   (uint64_t)adjustment;
		if (oldcount & RWSEM_WRITER_MASK) {
			/* A writer stole the lock: back out. */
			if (rwsem_waiter_timed_out(sem, waiter)) {
				if (!(oldcount & RWSEM_FLAG_HANDOFF)) {
					adjustment -=
						(int64_t)RWSEM_FLAG_HANDOFF;
					sem->debug.grants.handoffs++;
				}
				waiter->handoff_set = true;
			}
			sim_word_add(&sem->count, -adjustment);
			return;
		}
		__rwsem_set_reader_owned(sem, waiter->task_id);
	}

	/* First pass: every queued reader, writers stay (in order). */
	for (i = 0; i < sem->wait_count; i++) {
		waiter = sem->wait_list[i];
		if (waiter->type == RWSEM_WAITING_FOR_WRITE ||
		    woken >= MAX_READERS_WAKEUP) {
			sem->wait_list[kept++] = waiter;
			continue;
		}
		wlist[woken++] = waiter;
	}
	sem->wait_count = kept;

	adjustment = (int64_t)(woken * RWSEM_READER_BIAS) - adjustment;
	oldcount = sim_word_read(&sem->count);
	if (list_empty(sem)) {
		adjustment -= (int64_t)RWSEM_FLAG_WAITERS;
		if (oldcount & RWSEM_FLAG_HANDOFF)
			adjustment -= (int64_t)RWSEM_FLAG_HANDOFF;
	} else if (woken) {
		if (oldcount & RWSEM_FLAG_HANDOFF)
			adjustment -= (int64_t)RWSEM_FLAG_HANDOFF;
	}
	if (adjustment)
		sim_word_add(&sem->count, adjustment);
	/* The biases are in count now: each woken reader holds the lock. */
	for (i = 0; i < woken; i++)
		held_read(sem, wlist[i]->task_id);

	/* Second pass: read the task, then clear waiter->task (release). */
	for (i = 0; i < woken; i++) {
		int tsk = wlist[i]->task_id;

		sim_word_write(&wlist[i]->task, 0);
		wake_q_add(wake_q, tsk);
	}
}

/*
 * rwsem_cond_wake_waiter() - after queueing: if the holder released
 * between our failed attempt and the queueing, wake whom it would have.
 */
static void rwsem_cond_wake_waiter(struct km_rw_semaphore *sem,
				   uint64_t count, struct wake_q_head *wake_q)
{
	enum rwsem_wake_type wake_type;

	if (count & RWSEM_WRITER_MASK)
		return;
	if (count & RWSEM_READER_MASK) {
		wake_type = RWSEM_WAKE_READERS;
	} else {
		wake_type = RWSEM_WAKE_ANY;
		/* KM: clear_nonspinnable() omitted: the flag is never set. */
	}
	rwsem_mark_wake(sem, wake_type, wake_q);
}

/* rwsem_wake() - the lock was released with waiters queued. */
static struct km_rw_semaphore *rwsem_wake(struct km_rw_semaphore *sem)
{
	DEFINE_WAKE_Q(wake_q);

	sim_spin_lock(&sem->wait_lock);
	if (!list_empty(sem))
		rwsem_mark_wake(sem, RWSEM_WAKE_ANY, &wake_q);
	sim_spin_unlock(&sem->wait_lock);
	wake_up_q(sem, &wake_q);
	return sem;
}

/* rwsem_downgrade_wake() - the writer became a reader; wake readers. */
static struct km_rw_semaphore *
rwsem_downgrade_wake(struct km_rw_semaphore *sem)
{
	DEFINE_WAKE_Q(wake_q);

	sim_spin_lock(&sem->wait_lock);
	if (!list_empty(sem))
		rwsem_mark_wake(sem, RWSEM_WAKE_READ_OWNED, &wake_q);
	sim_spin_unlock(&sem->wait_lock);
	wake_up_q(sem, &wake_q);
	return sem;
}

/* ---- Readers ------------------------------------------------------------ */

/*
 * rwsem_read_trylock() - the read fast path: add a bias, keep it if no
 * writer, waiter or handoff bit was set.  On failure the bias stays in
 * count for the slow path to use or remove.
 */
static bool rwsem_read_trylock(struct km_rw_semaphore *sem, uint64_t *cntp)
{
	uint64_t mask = RWSEM_READ_FAILED_MASK;

	if (m_broken(M_BREAK_RWSEM_READ_IGNORES_WAITERS))
		mask &= ~RWSEM_FLAG_WAITERS;	/* the deliberate bug */
	if (m_broken(M_BREAK_RWSEM_READ_IGNORES_WRITER))
		mask &= ~RWSEM_WRITER_LOCKED;	/* the deliberate bug */
	*cntp = (uint64_t)sim_word_add(&sem->count,
				       (int64_t)RWSEM_READER_BIAS);
	/* KM: WARN_ON_ONCE(*cntp < 0) + rwsem_set_nonspinnable() omitted. */
	if (!(*cntp & mask)) {
		held_read(sem, sim_task_current());
		rwsem_set_reader_owned(sem);
		return true;
	}
	return false;
}

/*
 * The bits that stop a reader's optimistic steal: WRITER_LOCKED and
 * HANDOFF, less the one a test-only break= switch takes out (the
 * deliberate bugs of race/up_write_vs_down_read__*).
 */
static uint64_t steal_mask(struct km_rw_semaphore *sem)
{
	uint64_t mask = RWSEM_WRITER_LOCKED | RWSEM_FLAG_HANDOFF;

	(void)sem;
	if (m_broken(M_BREAK_RWSEM_STEAL_IGNORES_WRITER))
		mask &= ~RWSEM_WRITER_LOCKED;
	if (m_broken(M_BREAK_RWSEM_STEAL_IGNORES_HANDOFF))
		mask &= ~RWSEM_FLAG_HANDOFF;
	return mask;
}

/*
 * rwsem_down_read_slowpath() - @count is what the fast path's add
 * returned (our bias included, still in sem->count).
 */
static struct km_rw_semaphore *
rwsem_down_read_slowpath(struct km_rw_semaphore *sem, uint64_t count,
			 unsigned int state)
{
	int64_t adjustment = -(int64_t)RWSEM_READER_BIAS;
	uint64_t rcnt = count >> RWSEM_READER_SHIFT;
	struct rwsem_waiter waiter;
	DEFINE_WAKE_Q(wake_q);
	int me = current_task(sem);
	unsigned int sleeps = 0;

	/*
	 * Do not steal from readers that very likely own the lock: a
	 * stream of readers would starve a sleeping writer.
	 */
	if ((sim_word_read(&sem->owner) & RWSEM_READER_OWNED) && rcnt > 1 &&
	    !(count & RWSEM_WRITER_LOCKED))
		goto queue;

	/* Reader optimistic lock stealing: keep the bias. */
	if (!(count & steal_mask(sem))) {
		held_read(sem, me);
		rwsem_set_reader_owned(sem);
		/* The first reader in wakes the readers queued at the front. */
		if (rcnt == 1 && (count & RWSEM_FLAG_WAITERS)) {
			sim_spin_lock(&sem->wait_lock);
			if (!list_empty(sem))
				rwsem_mark_wake(sem, RWSEM_WAKE_READ_OWNED,
						&wake_q);
			sim_spin_unlock(&sem->wait_lock);
			wake_up_q(sem, &wake_q);
		}
		return sem;
	}

queue:
	waiter.task.id = sem->waiter_task_object;
	waiter.task.value = (uint64_t)me + 1;
	waiter.task_id = me;
	waiter.type = RWSEM_WAITING_FOR_READ;
	waiter.timeout = rwsem_waiter_timeout();
	waiter.handoff_set = false;

	sim_spin_lock(&sem->wait_lock);
	if (list_empty(sem)) {
		/*
		 * Nobody queued and no writer: our bias, still in count,
		 * is a read lock after all.
		 */
		if (!(sim_word_read(&sem->count) & RWSEM_WRITER_MASK)) {
			held_read(sem, me);
			sim_spin_unlock(&sem->wait_lock);
			rwsem_set_reader_owned(sem);
			return sem;
		}
		adjustment += (int64_t)RWSEM_FLAG_WAITERS;
	}
	rwsem_add_waiter(sem, &waiter);

	/* Waiting now, no longer actively locking: drop our bias. */
	count = (uint64_t)sim_word_add(&sem->count, adjustment);

	rwsem_cond_wake_waiter(sem, count, &wake_q);
	sim_spin_unlock(&sem->wait_lock);

	if (!wake_q_empty(&wake_q))
		wake_up_q(sem, &wake_q);

	/* Wait to be given the lock. */
	for (;;) {
		set_current_state(sem, me, state);
		if (!sim_word_read(&waiter.task))
			break;	/* granted by rwsem_mark_wake() */
		/* KM: signal_pending_state(): TASK_UNINTERRUPTIBLE only. */
		retry_bound(sem, &sleeps, "down_read sleep");
		schedule(sem, me);
	}
	set_current_state(sem, me, TASK_RUNNING);
	return sem;
}

/**
 * km_down_read() - take the lock for reading, sleeping if need be.
 * @sem: the semaphore.
 *
 * Kernel: down_read() -> __down_read() -> rwsem_read_trylock(), else
 * rwsem_down_read_slowpath(sem, count, TASK_UNINTERRUPTIBLE);
 * kernel/locking/rwsem.c, v6.18.
 * Context: task; may sleep, on <name>.  Scheduling points: the fast-path
 * add to count and the owner store; in the slow path the owner read,
 * wait_lock, count, and each check of waiter.task.
 * Return: nothing; the caller holds a read lock.
 * Divergences: no might_sleep()/lockdep; RWSEM_FLAG_READFAIL overflow is
 * not modelled; the fast path ignores WAITERS under the test-only switch
 * break=rwsem_read_ignores_waiters (M_BREAK_RWSEM_READ_IGNORES_WAITERS).
 */
void km_down_read(struct km_rw_semaphore *sem)
{
	uint64_t count;

	current_task(sem);
	if (sem->use_summary) {
		summary_read_lock(sem);
		return;
	}
	if (!rwsem_read_trylock(sem, &count))
		rwsem_down_read_slowpath(sem, count, TASK_UNINTERRUPTIBLE);
}

/**
 * km_down_read_trylock() - take the lock for reading if that needs no
 * waiting.
 * @sem: the semaphore.
 *
 * Kernel: down_read_trylock() -> __down_read_trylock(),
 * kernel/locking/rwsem.c, v6.18.
 * Context: task; never sleeps.  Scheduling points: the count read, each
 * cmpxchg, the owner store.
 * Return: 1 if the read lock was taken, 0 if a writer holds it or any
 * waiter is queued (even when only readers hold it) or HANDOFF is set.
 * Divergences: none beyond lockdep; the cmpxchg loop is bounded by
 * KM_RWSEM_RETRIES_MAX (reported as stuck).
 */
int km_down_read_trylock(struct km_rw_semaphore *sem)
{
	uint64_t tmp, seen;
	unsigned int retries = 0;

	current_task(sem);
	if (sem->use_summary)
		return summary_read_trylock(sem);
	tmp = sim_word_read(&sem->count);
	while (!(tmp & RWSEM_READ_FAILED_MASK)) {
		seen = sim_word_cmpxchg(&sem->count, tmp,
					tmp + RWSEM_READER_BIAS);
		if (seen == tmp) {
			held_read(sem, sim_task_current());
			rwsem_set_reader_owned(sem);
			return 1;
		}
		tmp = seen;
		retry_bound(sem, &retries, "down_read_trylock cmpxchg");
	}
	return 0;
}

/**
 * km_up_read() - release a read lock.
 * @sem: the semaphore.
 *
 * Kernel: up_read() -> __up_read(), kernel/locking/rwsem.c, v6.18.
 * Context: task holding a read lock; does not sleep, but spins on
 * wait_lock in rwsem_wake().  Scheduling points: the count add; if it
 * was the last lock with waiters queued, wait_lock and rwsem_mark_wake().
 * Return: nothing.
 * Divergences: rwsem_clear_reader_owned() (CONFIG_DEBUG_RWSEMS) and
 * clear_nonspinnable() omitted; a release by a task holding no read lock
 * fails the execution at once (note_misuse(), DEBUG_RWSEMS_WARN_ON).
 */
void km_up_read(struct km_rw_semaphore *sem)
{
	int me = current_task(sem);
	uint64_t tmp;

	if (sem->use_summary) {
		summary_up_read(sem, me);
		return;
	}
	tmp = (uint64_t)sim_word_add(&sem->count, -(int64_t)RWSEM_READER_BIAS);
	if (readers_of(sem, me)) {
		sem->debug.changes++;
		(*reader_count(sem, me))--;
		sem->debug.readers_total--;
	} else
		note_misuse(sem, me, "up_read without holding a read lock");
	if ((tmp & (RWSEM_LOCK_MASK | RWSEM_FLAG_WAITERS)) ==
	    RWSEM_FLAG_WAITERS)
		rwsem_wake(sem);
}

/* ---- Writers ------------------------------------------------------------ */

/* rwsem_write_trylock() - the write fast path: 0 -> WRITER_LOCKED. */
static bool rwsem_write_trylock(struct km_rw_semaphore *sem)
{
	uint64_t tmp = RWSEM_UNLOCKED_VALUE;

	/* break=rwsem_write_trylock_split: the test and the set are two
	 * accesses, not one cmpxchg (the deliberate bug). */
	if (m_broken(M_BREAK_RWSEM_WRITE_TRYLOCK_SPLIT)) {
		if (sim_word_read(&sem->count) != tmp)
			return false;
		sim_word_write(&sem->count, RWSEM_WRITER_LOCKED);
		held_write(sem, sim_task_current());
		rwsem_set_owner(sem);
		return true;
	}
	if (sim_word_cmpxchg(&sem->count, tmp, RWSEM_WRITER_LOCKED) == tmp) {
		held_write(sem, sim_task_current());
		rwsem_set_owner(sem);
		return true;
	}
	return false;
}

/*
 * rwsem_try_write_lock() - a queued writer's attempt; wait_lock held.
 * Takes a free lock unless a first waiter other than @waiter owns a
 * pending handoff; on a busy lock, sets HANDOFF if @waiter timed out.
 * On success @waiter is off the list.
 */
static bool rwsem_try_write_lock(struct km_rw_semaphore *sem,
				 struct rwsem_waiter *waiter)
{
	struct rwsem_waiter *first = rwsem_first_waiter(sem);
	uint64_t count, new, seen;
	unsigned int retries = 0;

	assert_wait_lock_held(sem);
	count = sim_word_read(&sem->count);
	for (;;) {
		bool has_handoff = count & RWSEM_FLAG_HANDOFF;

		/* Honour a handoff only if the first waiter set it. */
		if (has_handoff && first->handoff_set && waiter != first)
			return false;

		new = count;
		if (count & RWSEM_LOCK_MASK) {
			/* KM: rt_or_dl_task(waiter->task) is always false. */
			if (has_handoff ||
			    !rwsem_waiter_timed_out(sem, waiter))
				return false;
			new |= RWSEM_FLAG_HANDOFF;
		} else {
			new |= RWSEM_WRITER_LOCKED;
			new &= ~RWSEM_FLAG_HANDOFF;
			if (list_is_singular(sem))
				new &= ~RWSEM_FLAG_WAITERS;
		}
		seen = sim_word_cmpxchg(&sem->count, count, new);
		if (seen == count)
			break;
		count = seen;
		retry_bound(sem, &retries, "rwsem_try_write_lock cmpxchg");
	}

	if (new & RWSEM_FLAG_HANDOFF) {
		first->handoff_set = true;
		sem->debug.grants.handoffs++;
		return false;
	}
	held_write(sem, waiter->task_id);
	list_del(sem, waiter);
	rwsem_set_owner(sem);
	return true;
}

/* Optimistic spinning: one unqueued attempt on a free lock. */
static bool rwsem_try_write_lock_unqueued(struct km_rw_semaphore *sem)
{
	uint64_t count = sim_word_read(&sem->count);
	unsigned int retries = 0;

	while (!(count & (RWSEM_LOCK_MASK | RWSEM_FLAG_HANDOFF))) {
		uint64_t seen = sim_word_cmpxchg(&sem->count, count,
						 count | RWSEM_WRITER_LOCKED);

		if (seen == count) {
			held_write(sem, sim_task_current());
			rwsem_set_owner(sem);
			return true;
		}
		count = seen;
		retry_bound(sem, &retries, "rwsem_try_write_lock_unqueued");
	}
	return false;
}

/* What rwsem_spin_on_owner() saw (kernel: enum owner_state). */
enum owner_state {
	OWNER_NULL = 1 << 0,
	OWNER_WRITER = 1 << 1,
	OWNER_READER = 1 << 2,
	OWNER_NONSPINNABLE = 1 << 3,
};

static enum owner_state rwsem_owner_state(uint64_t owner)
{
	if (owner & RWSEM_NONSPINNABLE)
		return OWNER_NONSPINNABLE;
	if (owner & RWSEM_READER_OWNED)
		return OWNER_READER;
	return owner ? OWNER_WRITER : OWNER_NULL;
}

/* owner_on_cpu(): the owner task runs on a simulated CPU now. */
static bool owner_on_cpu(uint64_t owner)
{
	return sim_task_on_cpu(owner_task(owner));
}

/*
 * need_resched(), for a spinner that began at @spin_start: it has spun
 * a whole slice (sim_clock_slice_ns()), or KM_RWSEM_SPIN_POLLS_MAX polls.
 * KM: the kernel's flag is set by the tick once the slice is used and
 * another task is runnable, or by a wake-up that preempts; the model
 * ends the spin at the slice whether or not another task waits.
 */
static bool need_resched(uint64_t spin_start, unsigned int polls)
{
	return sim_now() - spin_start >= sim_clock_slice_ns() ||
	       polls >= KM_RWSEM_SPIN_POLLS_MAX;
}

/*
 * cpu_relax() between two reads of the owner: the spinner burns
 * KM_RWSEM_SPIN_POLL_NS of its CPU (the step runs on until the next
 * read, a scheduling point).
 */
static void cpu_relax(struct km_rw_semaphore *sem, unsigned int *polls)
{
	(*polls)++;
	sem->debug.grants.spin_polls++;
	sim_cpu_spend(KM_RWSEM_SPIN_POLL_NS);
}

/*
 * rwsem_spin_on_owner() - spin while the same writer owns the lock and
 * runs on a CPU (knobs.clock).  Each read of the owner is a scheduling
 * point; between two, cpu_relax().
 */
static enum owner_state rwsem_spin_on_owner(struct km_rw_semaphore *sem,
					    uint64_t spin_start,
					    unsigned int *polls)
{
	uint64_t owner = sim_word_read(&sem->owner), new;
	enum owner_state state = rwsem_owner_state(owner);

	if (state != OWNER_WRITER)
		return state;
	for (;;) {
		new = sim_word_read(&sem->owner);
		if (new != owner) {
			state = rwsem_owner_state(new);
			break;
		}
		if (need_resched(spin_start, *polls) || !owner_on_cpu(owner)) {
			state = OWNER_NONSPINNABLE;
			break;
		}
		cpu_relax(sem, polls);
	}
	return state;
}

/*
 * rwsem_can_spin_on_owner(): the knob spin_on_owner
 * (CONFIG_RWSEM_SPIN_ON_OWNER); under the clock rule also the kernel's
 * test: not if the owner is a writer that is not on a CPU (one read of
 * the owner, a scheduling point).
 * KM: need_resched() at entry is false (a task entering the slow path
 * has just run); RWSEM_NONSPINNABLE is never set.
 */
static bool rwsem_can_spin_on_owner(struct km_rw_semaphore *sem)
{
	uint64_t owner;

	if (!sem->knobs.spin_on_owner)
		return false;
	if (!sem->knobs.clock)
		return true;
	owner = sim_word_read(&sem->owner);
	if ((owner & RWSEM_NONSPINNABLE) ||
	    (owner && !(owner & RWSEM_READER_OWNED) && !owner_on_cpu(owner)))
		return false;
	return true;
}

/*
 * rwsem_optimistic_spin() - a writer tries to take the lock without
 * queueing.  Without the clock rule: one rwsem_try_write_lock_unqueued()
 * (the scheduler decides whether the owner has released by then).  Under
 * it, the kernel's loop: spin on the owner while it is a writer on a CPU,
 * try whenever the owner changes, stop when the owner sleeps, at
 * need_resched() (a slice of spinning), or when readers own the lock.
 * KM: no osq (every spinner spins on the owner, where the kernel lets
 * one spin and queues the rest on the MCS lock behind it); reader-owned
 * spinning (rwsem_rspin_threshold, 10-25 us, then RWSEM_NONSPINNABLE) is
 * not modelled: a spinner that finds the lock reader-owned stops at
 * once; RT tasks are not modelled.  A held lock whose owner word is NULL
 * (up_write between rwsem_clear_owner and its count update, a fast path
 * between its cmpxchg and rwsem_set_owner, a free lock a HANDOFF waiter
 * is about to take) is a window of a few instructions in the kernel, in
 * which it spins until need_resched(); the model stops after
 * KM_RWSEM_SPIN_NULL_POLLS such polls and queues, so that an exploration
 * that starves the owner does not poll a whole slice.
 */
static bool rwsem_optimistic_spin(struct km_rw_semaphore *sem)
{
	uint64_t spin_start = sim_now();
	unsigned int polls = 0, null_polls = 0;
	bool taken = false;

	if (!sem->knobs.clock)
		return rwsem_try_write_lock_unqueued(sem);
	sem->debug.grants.spins++;
	for (;;) {
		enum owner_state owner_state;

		owner_state = rwsem_spin_on_owner(sem, spin_start, &polls);
		if (owner_state == OWNER_NONSPINNABLE)
			break;
		taken = rwsem_try_write_lock_unqueued(sem);
		if (taken)
			break;
		if (owner_state == OWNER_READER)
			break;	/* KM: see above */
		if (owner_state != OWNER_WRITER &&
		    (need_resched(spin_start, polls) ||
		     ++null_polls > KM_RWSEM_SPIN_NULL_POLLS))
			break;	/* KM: the NULL-owner bound, see above */
		cpu_relax(sem, &polls);
	}
	if (taken)
		sem->debug.grants.spin_takes++;
	return taken;
}

static struct km_rw_semaphore *
rwsem_down_write_slowpath(struct km_rw_semaphore *sem, unsigned int state)
{
	struct rwsem_waiter waiter;
	DEFINE_WAKE_Q(wake_q);
	int me = current_task(sem);
	unsigned int sleeps = 0, null_retries = 0;

	/* Optimistic spinning: steal the lock if possible. */
	if (rwsem_can_spin_on_owner(sem) && rwsem_optimistic_spin(sem))
		return sem;

	waiter.task.id = sem->waiter_task_object;
	waiter.task.value = (uint64_t)me + 1;
	waiter.task_id = me;
	waiter.type = RWSEM_WAITING_FOR_WRITE;
	waiter.timeout = rwsem_waiter_timeout();
	waiter.handoff_set = false;

	sim_spin_lock(&sem->wait_lock);
	rwsem_add_waiter(sem, &waiter);

	if (rwsem_first_waiter(sem) != &waiter) {
		rwsem_cond_wake_waiter(sem, sim_word_read(&sem->count),
				       &wake_q);
		if (!wake_q_empty(&wake_q)) {
			/* Keep wait_lock hold times short. */
			sim_spin_unlock(&sem->wait_lock);
			wake_up_q(sem, &wake_q);
			sim_spin_lock(&sem->wait_lock);
		}
	} else {
		sim_bit_set(&sem->count, RWSEM_FLAG_WAITERS_BIT);
	}

	/* Wait until we successfully acquire the lock. */
	set_current_state(sem, me, state);
	for (;;) {
		if (rwsem_try_write_lock(sem, &waiter))
			break;
		sim_spin_unlock(&sem->wait_lock);
		/* KM: signal_pending_state(): TASK_UNINTERRUPTIBLE only. */
		retry_bound(sem, &sleeps, "down_write sleep");
		/*
		 * The handoff owner spins on the owner and retries at once
		 * if it released (clock rule only; without it the model
		 * sleeps, and the releaser's rwsem_wake() wakes it as the
		 * first waiter).
		 */
		if (sem->knobs.clock && waiter.handoff_set) {
			unsigned int polls = 0;

			/* KM: at most KM_RWSEM_SPIN_NULL_POLLS retries
			 * without sleeping a call (the kernel's are bounded
			 * by need_resched() alone). */
			if (rwsem_spin_on_owner(sem, sim_now(), &polls) ==
			    OWNER_NULL &&
			    null_retries++ < KM_RWSEM_SPIN_NULL_POLLS)
				goto trylock_again;
		}
		schedule(sem, me);
		set_current_state(sem, me, state);
trylock_again:
		sim_spin_lock(&sem->wait_lock);
	}
	set_current_state(sem, me, TASK_RUNNING);
	sim_spin_unlock(&sem->wait_lock);
	return sem;
}

/**
 * km_down_write() - take the lock for writing, sleeping if need be.
 * @sem: the semaphore.
 *
 * Kernel: down_write() -> __down_write() -> rwsem_write_trylock(), else
 * rwsem_down_write_slowpath(sem, TASK_UNINTERRUPTIBLE);
 * kernel/locking/rwsem.c, v6.18.
 * Context: task; may sleep, on <name>.  Scheduling points: the fast-path
 * cmpxchg and the owner store; in the slow path the spin attempt,
 * wait_lock, count, and the retries under wait_lock after each wake-up.
 * Return: nothing; the caller holds the write lock.
 * Divergences: without the clock rule optimistic spinning is one
 * unqueued attempt (knob spin_on_owner), a writer owning a handoff
 * sleeps instead of spinning on the owner, and HANDOFF is set only when
 * the knob wait_timeout_expired is true; under it (knob clock) the
 * timeout is the virtual clock's jiffy and the spins are the kernel's,
 * bounded as rwsem_optimistic_spin() says (no osq, no reader-owned
 * spinning); the request is noted for the grant statistics (model glue,
 * no scheduling point); no RT tasks, no lockdep.
 */
void km_down_write(struct km_rw_semaphore *sem)
{
	note_write_request(sem, current_task(sem));
	if (sem->use_summary) {
		summary_write_lock(sem);
		return;
	}
	if (!rwsem_write_trylock(sem))
		rwsem_down_write_slowpath(sem, TASK_UNINTERRUPTIBLE);
}

/**
 * km_down_write_trylock() - take the lock for writing if it is idle.
 * @sem: the semaphore.
 *
 * Kernel: down_write_trylock() -> __down_write_trylock() ->
 * rwsem_write_trylock(), kernel/locking/rwsem.c, v6.18.
 * Context: task; never sleeps.  Scheduling points: the cmpxchg, and the
 * owner store on success.
 * Return: 1 if taken, 0 if any bit of count is set: readers, a writer,
 * WAITERS (any queued waiter) or HANDOFF.
 * Divergences: none beyond lockdep.
 */
int km_down_write_trylock(struct km_rw_semaphore *sem)
{
	current_task(sem);
	if (sem->use_summary)
		return summary_write_trylock(sem);
	return rwsem_write_trylock(sem) ? 1 : 0;
}

/**
 * km_up_write() - release the write lock.
 * @sem: the semaphore.
 *
 * Kernel: up_write() -> __up_write(), kernel/locking/rwsem.c, v6.18.
 * Context: task holding the write lock; does not sleep, but spins on
 * wait_lock in rwsem_wake().  Scheduling points: the owner clear, the
 * count add, and with waiters queued wait_lock and rwsem_mark_wake().
 * Return: nothing.
 * Divergences: the DEBUG_RWSEMS_WARN_ON owner check uses the model's
 * held-locks record, reported at once by note_misuse().
 */
void km_up_write(struct km_rw_semaphore *sem)
{
	int me = current_task(sem);
	uint64_t tmp;

	if (sem->use_summary) {
		if (sem->debug.writer != me) {
			note_misuse(sem, me, "up_write by a task not holding "
				    "it");
			return;
		}
		sim_rwlock_write_unlock(&sem->summary);
		sem->debug.changes++;
		sem->debug.writer = -1;
		return;
	}
	rwsem_clear_owner(sem);
	if (sem->debug.writer != me)
		note_misuse(sem, me, "up_write by a task not holding it");
	tmp = (uint64_t)sim_word_add(&sem->count,
				     -(int64_t)RWSEM_WRITER_LOCKED) +
	      RWSEM_WRITER_LOCKED;
	if (sem->debug.writer == me) {
		sem->debug.changes++;
		sem->debug.writer = -1;
	}
	if (tmp & RWSEM_FLAG_WAITERS)
		rwsem_wake(sem);
}

/**
 * km_downgrade_write() - turn the write lock into a read lock.
 * @sem: the semaphore, write-locked by the caller.
 *
 * Kernel: downgrade_write() -> __downgrade_write(),
 * kernel/locking/rwsem.c, v6.18.
 * Context: task holding the write lock; does not sleep.  Scheduling
 * points: the count add (WRITER_LOCKED out, one reader bias in, one
 * atomic step), the owner store, and with waiters queued wait_lock and
 * rwsem_mark_wake(RWSEM_WAKE_READ_OWNED): queued readers are granted the
 * lock, queued writers are not woken.
 * Return: nothing; the caller holds a read lock.
 * Divergences: the owner check is the model's held-locks record,
 * reported at once by note_misuse().
 */
void km_downgrade_write(struct km_rw_semaphore *sem)
{
	int me = current_task(sem);
	int64_t delta = (int64_t)RWSEM_READER_BIAS -
			(int64_t)RWSEM_WRITER_LOCKED;
	uint64_t tmp;

	if (sem->use_summary) {
		if (sem->debug.writer != me) {
			note_misuse(sem, me, "downgrade_write by a task not "
				    "holding the write lock");
			return;
		}
		sim_rwlock_downgrade(&sem->summary);
		sem->debug.changes++;
		sem->debug.writer = -1;
		held_read(sem, me);
		return;
	}
	tmp = (uint64_t)(sim_word_add(&sem->count, delta) - delta);
	if (sem->debug.writer == me) {
		sem->debug.changes++;
		sem->debug.writer = -1;
		held_read(sem, me);
	} else {
		note_misuse(sem, me, "downgrade_write by a task not holding "
			    "the write lock");
	}
	rwsem_set_reader_owned(sem);
	if (tmp & RWSEM_FLAG_WAITERS)
		rwsem_downgrade_wake(sem);
}

/* ---- Checks, dump, queries ---------------------------------------------- */

/* The task whose EXIT event is in the last step, or -1. */
static int task_exited_last_step(void)
{
	return sim_exec_exit_in_last_step();
}

/*
 * m_rwsem_check() - invariants of one rw_semaphore, after every step.
 *
 *  1. No misuse was seen: no up_read by a task holding no read lock, no
 *     up_write or downgrade_write by a task not holding the write lock
 *     (the kernel's DEBUG_RWSEMS_WARN_ON).
 *  2. No task exits holding the lock (a lock leak).
 *  3. count has no reserved bit (3..7) and no READFAIL set, and its reader
 *     field is at least the number of read locks held: the rest are
 *     readers between their fast-path add and backing out.
 *  4. WRITER_LOCKED is set iff a task holds the write lock, and then no
 *     task holds a read lock (writers exclude readers and writers).
 *  5. HANDOFF implies WAITERS.
 *  6. While wait_lock is free: WAITERS is set iff the wait list is
 *     non-empty.
 *  7. Each waiter on the list belongs to a distinct task, is not yet
 *     granted (its task word is set) and holds no lock on this rwsem.
 *  8. An owner word naming a writer names a task holding the lock (for
 *     write, or for read right after downgrade_write).
 *  S. In summary mode, 3-8 are replaced by: the engine lock's readers
 *     and writer equal the held locks, and a writer excludes readers.
 *
 * Deliberately not checked: that count's reader field is 0 while a
 * writer holds the lock (fast-path readers add a bias before backing
 * out); the owner of a reader-owned lock (the kernel leaves the last
 * reader there, stale); fairness beyond the list order (tests do that);
 * liveness (the engine reports deadlocks and the step bound).
 */
void m_rwsem_check(const struct km_rw_semaphore *sem)
{
	uint64_t count = sim_word_peek(&sem->count);
	uint64_t owner = sim_word_peek(&sem->owner);
	uint64_t readers_held = sem->debug.readers_total;
	uint64_t on_list = 0;
	int exited;

	/* 1 */
	SIM_CHECK(sem->debug.misuse_task < 0, "rwsem %s: %s: %s", sem->name,
		  sem->debug.misuse_task < 0 ? "-" :
		  sim_exec_task_name((uint32_t)sem->debug.misuse_task),
		  sem->debug.misuse ? sem->debug.misuse : "-");

	/* 2 */
	exited = task_exited_last_step();
	if (exited >= 0) {
		SIM_CHECK(sem->debug.writer != exited,
			  "rwsem %s: %s exited holding the write lock",
			  sem->name, sim_exec_task_name((uint32_t)exited));
		SIM_CHECK(readers_of(sem, exited) == 0,
			  "rwsem %s: %s exited holding %u read lock(s)",
			  sem->name, sim_exec_task_name((uint32_t)exited),
			  readers_of(sem, exited));
	}

	/* S: summary mode: the engine lock agrees with the held locks. */
	if (sem->use_summary) {
		SIM_CHECK(sim_rwlock_readers(&sem->summary) == readers_held &&
			  (sem->summary.writer != 0) ==
			  (sem->debug.writer >= 0) &&
			  (sem->debug.writer < 0 || readers_held == 0),
			  "rwsem %s (summary): %u readers, writer %llu; held: "
			  "%llu read, write by %d", sem->name,
			  sim_rwlock_readers(&sem->summary),
			  (unsigned long long)sem->summary.writer,
			  (unsigned long long)readers_held, sem->debug.writer);
		return;
	}

	/* 3 */
	SIM_CHECK(!(count & (0xf8ULL | RWSEM_FLAG_READFAIL)),
		  "rwsem %s: count 0x%llx has reserved or READFAIL bits",
		  sem->name, (unsigned long long)count);
	SIM_CHECK((count >> RWSEM_READER_SHIFT) >= readers_held,
		  "rwsem %s: count has %llu reader biases, %llu read locks "
		  "held", sem->name,
		  (unsigned long long)(count >> RWSEM_READER_SHIFT),
		  (unsigned long long)readers_held);

	/* 4 */
	SIM_CHECK(!!(count & RWSEM_WRITER_LOCKED) == (sem->debug.writer >= 0),
		  "rwsem %s: WRITER_LOCKED is %d but the write lock is %s",
		  sem->name, (int)(count & RWSEM_WRITER_LOCKED),
		  sem->debug.writer >= 0 ? "held" : "free");
	SIM_CHECK(sem->debug.writer < 0 || readers_held == 0,
		  "rwsem %s: %s holds the write lock while %llu read lock(s) "
		  "are held", sem->name,
		  sem->debug.writer < 0 ? "-" :
		  sim_exec_task_name((uint32_t)sem->debug.writer),
		  (unsigned long long)readers_held);

	/* 5 */
	SIM_CHECK(!(count & RWSEM_FLAG_HANDOFF) ||
		  (count & RWSEM_FLAG_WAITERS),
		  "rwsem %s: HANDOFF without WAITERS (count 0x%llx)",
		  sem->name, (unsigned long long)count);

	/* 6 */
	if (!sim_spin_held(&sem->wait_lock))
		SIM_CHECK(!!(count & RWSEM_FLAG_WAITERS) ==
			  (sem->wait_count > 0),
			  "rwsem %s: WAITERS is %d with %u waiter(s) queued",
			  sem->name, !!(count & RWSEM_FLAG_WAITERS),
			  sem->wait_count);

	/* 7 */
	for (uint32_t i = 0; i < sem->wait_count; i++) {
		const struct rwsem_waiter *w = sem->wait_list[i];
		int t = w->task_id;

		SIM_CHECK(t >= 0 && t < SIM_TASKS_MAX &&
			  !(on_list & (1ULL << t)),
			  "rwsem %s: waiter %u is a bad or repeated task",
			  sem->name, i);
		on_list |= 1ULL << t;
		SIM_CHECK(w->task.value == (uint64_t)t + 1,
			  "rwsem %s: waiter %s on the list but granted",
			  sem->name, sim_exec_task_name((uint32_t)t));
		SIM_CHECK(sem->debug.writer != t && sem->debug.readers[t] == 0,
			  "rwsem %s: %s waits for a lock it holds (recursive "
			  "locking)", sem->name,
			  sim_exec_task_name((uint32_t)t));
	}

	/* 8 */
	if (owner && !(owner & RWSEM_READER_OWNED)) {
		int t = owner_task(owner);

		SIM_CHECK(t >= 0 && t < SIM_TASKS_MAX &&
			  (sem->debug.writer == t || sem->debug.readers[t]),
			  "rwsem %s: owner names writer %s, which does not "
			  "hold the lock", sem->name,
			  t >= 0 ? sim_exec_task_name((uint32_t)t) : "?");
	}
}

static const char *task_name(int task)
{
	return task < 0 ? "-" : sim_exec_task_name((uint32_t)task);
}

void m_rwsem_dump(const struct km_rw_semaphore *sem, FILE *out)
{
	uint64_t count = sim_word_peek(&sem->count);
	uint64_t owner = sim_word_peek(&sem->owner);
	uint64_t lock = sim_word_peek(&sem->wait_lock.word);
	uint32_t tasks = sim_exec_task_count();

	if (sem->use_summary) {
		fprintf(out, "rwsem %s (summary): readers %u, writer %s, "
			"waiters %u\n", sem->name,
			sim_rwlock_readers(&sem->summary),
			task_name(sem->debug.writer), sem->summary.waiters);
		return;
	}
	fprintf(out, "rwsem %s: count 0x%llx (readers %llu%s%s%s)\n",
		sem->name, (unsigned long long)count,
		(unsigned long long)((count & ~RWSEM_FLAG_READFAIL) >>
				     RWSEM_READER_SHIFT),
		count & RWSEM_WRITER_LOCKED ? " WRITER_LOCKED" : "",
		count & RWSEM_FLAG_WAITERS ? " WAITERS" : "",
		count & RWSEM_FLAG_HANDOFF ? " HANDOFF" : "");
	if (!owner)
		fprintf(out, "  owner: none\n");
	else
		fprintf(out, "  owner: %s%s\n", task_name(owner_task(owner)),
			owner & RWSEM_READER_OWNED ?
			" (reader-owned, last reader)" : " (writer)");
	fprintf(out, "  wait_lock: %s%s\n", lock ? "held by " : "free",
		lock ? task_name((int)lock - 1) : "");
	fprintf(out, "  wait_list (%u):", sem->wait_count);
	for (uint32_t i = 0; i < sem->wait_count; i++) {
		const struct rwsem_waiter *w = sem->wait_list[i];

		fprintf(out, " %s(%s%s)", task_name(w->task_id),
			w->type == RWSEM_WAITING_FOR_WRITE ? "write" : "read",
			w->handoff_set ? ", handoff_set" : "");
	}
	fprintf(out, "\n  held: write %s, read", task_name(sem->debug.writer));
	for (uint32_t t = 0; t < tasks && t < SIM_TASKS_MAX; t++)
		if (sem->debug.readers[t])
			fprintf(out, " %s(%u)", task_name((int)t),
				sem->debug.readers[t]);
	fprintf(out, "\n  sleeping:");
	for (uint32_t t = 0; t < tasks && t < SIM_TASKS_MAX; t++)
		if (sem->task_state[t] != TASK_RUNNING)
			fprintf(out, " %s%s", task_name((int)t),
				sim_task_blocked((int)t) ? "" : "(not yet)");
	fprintf(out, "\n");
	if (sem->debug.misuse_task >= 0)
		fprintf(out, "  misuse: %s: %s\n",
			task_name(sem->debug.misuse_task), sem->debug.misuse);
	fprintf(out, "  knobs: spin_on_owner %d, wait_timeout_expired %d\n",
		sem->knobs.spin_on_owner, sem->knobs.wait_timeout_expired);
}

static void check_adapter(void *arg)
{
	m_rwsem_check(arg);
}

static void dump_adapter(void *arg, FILE *out)
{
	m_rwsem_dump(arg, out);
}

void m_rwsem_register(struct km_rw_semaphore *sem)
{
	sim_check_register(sem->name, check_adapter, dump_adapter, sem);
}

unsigned int m_rwsem_read_held(const struct km_rw_semaphore *sem, int task)
{
	return readers_of(sem, task);
}

bool m_rwsem_write_held(const struct km_rw_semaphore *sem, int task)
{
	return task >= 0 && sem->debug.writer == task;
}

int m_rwsem_waiter_position(const struct km_rw_semaphore *sem, int task)
{
	for (uint32_t i = 0; i < sem->wait_count; i++)
		if (sem->wait_list[i]->task_id == task)
			return (int)i;
	return -1;
}

const struct m_rwsem_grants *m_rwsem_grants(const struct km_rw_semaphore *sem)
{
	return &sem->debug.grants;
}
