/* SPDX-License-Identifier: MIT */
/*
 * model/kernel/rwsem: the kernel's struct rw_semaphore (i_rwsem, the XFS
 * IOLOCK, mapping->invalidate_lock) as a deterministic model.
 *
 * Kernel: kernel/locking/rwsem.c, include/linux/rwsem.h, v6.18.
 * docs/model/rwsem.md says what is modelled, what is left out, the
 * invariants m_rwsem_check() asserts and the tests that pin them.
 *
 * Every km_ function must be called on a task (never from program setup):
 * each access to count, owner, wait_lock and a waiter's task word is an
 * engine scheduling point, and a waiter sleeps with sim_task_block().
 */
#ifndef WPSIM_MODEL_KERNEL_RWSEM_H
#define WPSIM_MODEL_KERNEL_RWSEM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/engine.h"
#include "sim/shared.h"

/* Bounds, with units. */
#define KM_RWSEM_NAME_BYTES	32		/* name, with its NUL */
#define KM_RWSEM_WAITERS_MAX	SIM_TASKS_MAX	/* waiters on the list */
#define KM_RWSEM_RETRIES_MAX	256	/* cmpxchg retries, sleeps / call */
/*
 * The clock rule's optimistic spin (knobs.clock): a spinner reads the
 * owner word once every KM_RWSEM_SPIN_POLL_NS of CPU time it burns (a
 * model constant: how late, at most, it sees a release; not a kernel
 * figure: the kernel's loop is cpu_relax(), tens of ns), and stops after
 * KM_RWSEM_SPIN_POLLS_MAX polls of one spin (a bound on steps; at 250
 * ns a poll, 20 ms of spinning, past any slice).
 */
#define KM_RWSEM_SPIN_POLL_NS	250		/* ns of CPU per poll */
#define KM_RWSEM_SPIN_POLLS_MAX	80000		/* polls / spin */
#define KM_RWSEM_SPIN_NULL_POLLS	4	/* polls / spin with no writer
						 * owner (rwsem_optimistic_spin) */
/* Write requests the grant statistics follow at once (debug.pending). */
#define KM_RWSEM_PENDING_MAX	SIM_TASKS_MAX
/* kernel: RWSEM_WAIT_TIMEOUT = DIV_ROUND_UP(HZ, 250) jiffies (HZ 250). */
#define KM_RWSEM_WAIT_TIMEOUT	1

/* The count word (kernel names; the model's words are 64 bits). */
#define RWSEM_WRITER_LOCKED	(1ULL << 0)
#define RWSEM_FLAG_WAITERS	(1ULL << 1)
#define RWSEM_FLAG_HANDOFF	(1ULL << 2)
#define RWSEM_FLAG_READFAIL	(1ULL << 63)
#define RWSEM_READER_SHIFT	8
#define RWSEM_READER_BIAS	(1ULL << RWSEM_READER_SHIFT)
#define RWSEM_READER_MASK	(~(RWSEM_READER_BIAS - 1))
#define RWSEM_WRITER_MASK	RWSEM_WRITER_LOCKED
#define RWSEM_LOCK_MASK		(RWSEM_WRITER_MASK | RWSEM_READER_MASK)
#define RWSEM_READ_FAILED_MASK	(RWSEM_WRITER_MASK | RWSEM_FLAG_WAITERS | \
				 RWSEM_FLAG_HANDOFF | RWSEM_FLAG_READFAIL)
#define RWSEM_UNLOCKED_VALUE	0ULL

/*
 * The owner word.  The kernel stores a task_struct pointer with flags in
 * its low bits; the model stores (task id + 1) << RWSEM_OWNER_SHIFT with
 * the same flags, so a dump can name the task.
 */
#define RWSEM_READER_OWNED	(1ULL << 0)
#define RWSEM_NONSPINNABLE	(1ULL << 1)	/* defined, never set */
#define RWSEM_OWNER_FLAGS_MASK	(RWSEM_READER_OWNED | RWSEM_NONSPINNABLE)
#define RWSEM_OWNER_SHIFT	2

enum rwsem_waiter_type {
	RWSEM_WAITING_FOR_WRITE,
	RWSEM_WAITING_FOR_READ,
};

/*
 * struct rwsem_waiter: lives on the waiting task's stack, as in the
 * kernel.  @task is the word the waker clears to grant a reader the lock
 * (kernel: waiter->task = NULL); @task_id is who waits, which the kernel
 * reads through the same pointer before clearing it.
 */
struct rwsem_waiter {
	struct sim_word task;		/* task id + 1; 0 once granted */
	int task_id;
	enum rwsem_waiter_type type;
	unsigned long timeout;		/* jiffies (knobs.clock only) */
	bool handoff_set;
};

/*
 * Model knobs, set by a program after km_init_rwsem().
 * @spin_on_owner: CONFIG_RWSEM_SPIN_ON_OWNER; a writer entering the slow
 *	path makes one unqueued attempt to take a free lock (it may
 *	overtake sleeping waiters).  Default true.
 * @wait_timeout_expired: every waiter's RWSEM_WAIT_TIMEOUT has passed
 *	(time_after(jiffies, waiter->timeout) is true), so HANDOFF can be
 *	set.  Default false: HANDOFF is set only by the clock rule.
 * @clock: the kernel's time-based rules (--variant rwsem=clock): a
 *	waiter's timeout is its queueing time's jiffy + RWSEM_WAIT_TIMEOUT
 *	on the virtual clock (sim_now(), jiffies of KM_HZ), and a writer
 *	entering the slow path spins while the lock's owner is a writer on
 *	a CPU (rwsem_optimistic_spin, rwsem_spin_on_owner), as does a
 *	waiter that set HANDOFF.  Default: the world's variant
 *	(rwsem=clock), else false.
 */
struct m_rwsem_knobs {
	bool spin_on_owner;
	bool wait_timeout_expired;
	bool clock;
};

/*
 * The grant statistics (model glue, not kernel state; every mode): each
 * km_down_write() is a request, stamped in arrival order; its grant is
 * "contended" if at its arrival the lock was held or another write
 * request was pending, and "past an earlier waiter" if a request stamped
 * before it is still pending when it is granted.  What the kernel trace
 * of docs/validation.md session 18 (h18-dc) Step 3 counts.
 */
struct m_rwsem_grants {
	uint64_t contended;		/* contended write grants */
	uint64_t passed;		/* of them, past an earlier waiter */
	uint64_t handoffs;		/* HANDOFF set (clock/exact) */
	uint64_t spins;			/* optimistic spins (clock) */
	uint64_t spin_takes;		/* of them, took the lock */
	uint64_t spin_polls;		/* owner polls in all spins */
};

/*
 * Bookkeeping that is not kernel state: who holds the lock (lockdep's
 * held-locks view) and misuse seen by km_up_read()/km_up_write()
 * (CONFIG_DEBUG_RWSEMS).  Updated inside the step of the access that
 * takes or drops the lock, read only by m_rwsem_check() and the dump.
 */
struct m_rwsem_debug {
	int writer;				/* task id, -1 if none */
	uint8_t readers[SIM_TASKS_LIMIT];	/* read locks held per task */
	/* The same for task ids SIM_TASKS_LIMIT..SIM_IDS_LIMIT-1 (a timed
	 * run whose I/Os in flight took the lower ids): arena, on the
	 * first read lock such a task takes. */
	uint8_t *readers_high;
	uint32_t readers_total;			/* their sum */
	int misuse_task;			/* -1 if none */
	const char *misuse;
	/* Model glue for the world's check (model/world.c
	 * rwsem_files_check): every change of the fields above, and of the
	 * summary lock, counts here (in the step that makes it); checked
	 * is the count the last check saw. */
	uint32_t changes;
	uint32_t checked;
	/* The grant statistics' pending requests: task, stamp, contended. */
	struct {
		int task;
		uint32_t seq;
		bool contended;
	} pending[KM_RWSEM_PENDING_MAX];
	uint32_t nr_pending;
	uint32_t seq;
	struct m_rwsem_grants grants;
};

struct km_rw_semaphore {
	struct sim_word count;
	struct sim_word owner;
	struct sim_spinlock wait_lock;
	/* wait_list: FIFO, index 0 is the first waiter; under wait_lock. */
	struct rwsem_waiter *wait_list[KM_RWSEM_WAITERS_MAX];
	uint32_t wait_count;
	/*
	 * p->__state of each task, as far as this rwsem's slow paths go:
	 * set_current_state() before the sleep check, TASK_RUNNING again
	 * when a waker's wake_up_q() reaches it.  Not a kernel field; its
	 * accesses are recorded as events on sleep_object (for DPOR).
	 */
	uint8_t task_state[SIM_TASKS_MAX];
	uint32_t sleep_object;		/* "<name>": what waiters sleep on */
	uint32_t waiter_task_object;	/* "<name>.waiter.task" */
	char name[KM_RWSEM_NAME_BYTES];
	struct m_rwsem_knobs knobs;
	struct m_rwsem_debug debug;
	/*
	 * Summary mode (m_rwsem_use_summary): the km_ calls take @summary,
	 * the engine's reader-writer lock, instead of running the count /
	 * owner / wait-list algorithm; count, owner and the wait list stay
	 * untouched.  Not kernel state: a choice of how to explore.
	 */
	bool use_summary;
	struct sim_rwlock summary;
};

void km_init_rwsem(struct km_rw_semaphore *sem, const char *name);
/*
 * Run @sem in summary mode (call in program setup, right after
 * km_init_rwsem): mutual exclusion and shared holds as the kernel gives
 * them, without the algorithm's internal steps, so that DPOR sees two
 * readers commute.  It admits every acquisition order the algorithm
 * admits and more (readers may pass waiting writers; waiters are taken in
 * any order): "Never" under summary implies "Never" under exact.  A
 * witness found under summary replays under --variant rwsem=exact only
 * if it does not rely on the extra orders.  docs/model/rwsem.md.
 */
void m_rwsem_use_summary(struct km_rw_semaphore *sem);

void km_down_read(struct km_rw_semaphore *sem);
int km_down_read_trylock(struct km_rw_semaphore *sem);
void km_up_read(struct km_rw_semaphore *sem);
void km_down_write(struct km_rw_semaphore *sem);
int km_down_write_trylock(struct km_rw_semaphore *sem);
void km_up_write(struct km_rw_semaphore *sem);
void km_downgrade_write(struct km_rw_semaphore *sem);

/* Invariants (see the comment above its definition); fails the execution. */
void m_rwsem_check(const struct km_rw_semaphore *sem);
/* Deterministic dump: task names, never pointers. */
void m_rwsem_dump(const struct km_rw_semaphore *sem, FILE *out);
/* Register check and dump with the engine (call in program setup). */
void m_rwsem_register(struct km_rw_semaphore *sem);

/* Read locks @task holds / whether it holds the write lock (no point). */
unsigned int m_rwsem_read_held(const struct km_rw_semaphore *sem, int task);
bool m_rwsem_write_held(const struct km_rw_semaphore *sem, int task);
/* Position of @task on the wait list (0 = first), -1 if not queued. */
int m_rwsem_waiter_position(const struct km_rw_semaphore *sem, int task);
/* The grant statistics so far (struct m_rwsem_grants). */
const struct m_rwsem_grants *m_rwsem_grants(const struct km_rw_semaphore *sem);

#endif /* WPSIM_MODEL_KERNEL_RWSEM_H */
