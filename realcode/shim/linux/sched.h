/* SPDX-License-Identifier: MIT */
/*
 * realcode shim: tasks, sleeping and waking (wpsim's own text).  Each
 * engine task has a struct task_struct on the kernel heap whose __state
 * is shared: set_current_state() is a marked store (a point), schedule()
 * reads it in one step and, if it is not TASK_RUNNING, sleeps in that
 * step until wake_up_process() (a point: the store of TASK_RUNNING and
 * the wake in one step) - so a wake-up between set_current_state() and
 * schedule() is never lost, as in the kernel.  No signals, no RT tasks,
 * no preemption; jiffies is frozen (realcode/rt.c: rc_jiffies).
 */
#ifndef RC_SCHED_H
#define RC_SCHED_H
#include "rc-kernel.h"
#include "linux/list.h"
#include "linux/spinlock.h"

#define TASK_RUNNING		0x0000
#define TASK_INTERRUPTIBLE	0x0001
#define TASK_UNINTERRUPTIBLE	0x0002
#define TASK_WAKEKILL		0x0100
#define TASK_KILLABLE		(TASK_WAKEKILL | TASK_UNINTERRUPTIBLE)
#define TASK_NORMAL		(TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE)

#define current ((struct task_struct *)rc_current())
#define set_current_state(s) smp_store_mb(current->__state, (s))
#define __set_current_state(s) WRITE_ONCE(current->__state, (s))
#define schedule() rc_schedule()
#define schedule_preempt_disabled() rc_schedule()
#define io_schedule() rc_schedule()
#define wake_up_process(t) rc_wake_up_process(t)
#define need_resched() 0
#define cond_resched() 0
#define signal_pending_state(state, p) 0
#define signal_pending(p) 0
#define fatal_signal_pending(p) 0
#define rt_or_dl_task(p) 0
#define rt_task(p) 0
#define get_task_struct(t) (t)
#define put_task_struct(t) do { (void)(t); } while (0)
#define _RET_IP_ ((unsigned long)__builtin_return_address(0))
#define _THIS_IP_ ({ __label__ __here; __here: (unsigned long)&&__here; })

/* jiffies: frozen, or jumping past every timeout (rc_jiffies_jump). */
#define HZ 250
#define jiffies rc_jiffies()
#define time_after(a, b) ((long)((b) - (a)) < 0)
#define time_before(a, b) time_after(b, a)

/* wake_q: tasks to wake after a lock is dropped (a local list). */
struct wake_q_head {
	struct task_struct *tasks[64];
	unsigned int n;
};
#define DEFINE_WAKE_Q(name) struct wake_q_head name = { .n = 0 }
static inline void wake_q_init(struct wake_q_head *h) { h->n = 0; }
static inline bool wake_q_empty(struct wake_q_head *h) { return !h->n; }
static inline void wake_q_add(struct wake_q_head *h, struct task_struct *t)
{
	for (unsigned int i = 0; i < h->n; i++)
		if (h->tasks[i] == t)
			return;
	if (h->n == 64)
		BUG();
	h->tasks[h->n++] = t;
}
#define wake_q_add_safe(h, t) wake_q_add(h, t)
static inline void wake_up_q(struct wake_q_head *h)
{
	for (unsigned int i = 0; i < h->n; i++)
		wake_up_process(h->tasks[i]);
	h->n = 0;
}
#endif
