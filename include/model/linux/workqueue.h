/* SPDX-License-Identifier: MIT */
/*
 * Work queued on a per-CPU workqueue (include/linux/workqueue.h,
 * kernel/workqueue.c, v6.18): model/kernel/workqueue.c.
 */
#ifndef WPSIM_MODEL_LINUX_WORKQUEUE_H
#define WPSIM_MODEL_LINUX_WORKQUEUE_H

#include "sim/engine.h"

/*
 * queue_work() on a per-CPU workqueue from the running context: a
 * worker task named @name runs @fn(@arg), on the caller's CPU when the
 * timed device names its interrupt's CPU (the world's wq_percpu_bound),
 * else on whichever CPU the engine gives a new task.  Returns the
 * task's id.
 */
int m_queue_work_percpu(const char *name, sim_task_fn fn, void *arg);

#endif
