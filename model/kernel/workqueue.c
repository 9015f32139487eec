// SPDX-License-Identifier: MIT
/*
 * model/kernel/workqueue.c - where a per-CPU workqueue's work runs
 * (kernel/workqueue.c, v6.18).
 *
 * The model's workqueue work is a task per queued item (the callers keep
 * the work item's pending and executing state: model/fs/xfs/xfs_aops.c
 * for XFS's per-inode ioend work).  This file chooses its CPU: a
 * workqueue without WQ_UNBOUND runs its work on the CPU that queued it.
 * XFS's m_unwritten_workqueue ("xfs-conv/%s", fs/xfs/xfs_super.c
 * xfs_init_mount_workqueues: WQ_FREEZABLE | WQ_MEM_RECLAIM | WQ_PERCPU)
 * is one, and xfs_end_bio queues on it from the bio's completion, so
 * the conversion runs on the interrupt's CPU.  The superblock's
 * s_dio_done_wq (fs/super.c sb_init_dio_done_wq: WQ_MEM_RECLAIM |
 * WQ_PERCPU) is another: an asynchronous direct write's completion work
 * (fs/iomap/direct-io.c iomap_dio_bio_end_io, model/fs/iomap/
 * direct-io.c) runs on the CPU of the bio's completion (since session
 * 22, after h22-depth's finding; before, any CPU).
 *
 * Leaves out: worker pools, concurrency management (a pool runs one
 * work item at a time per CPU unless it sleeps; the model's workers of
 * one CPU overlap in virtual time, as its interrupts do: sim/clock.h
 * sim_task_spawn_on_cpu), rescuers, unbound workqueues' CPU choice
 * (wq_select_unbound_cpu), delayed work.
 */
#include "model/linux/workqueue.h"
#include "model/world.h"
#include "sim/clock.h"

/**
 * m_queue_work_percpu - queue work on a per-CPU workqueue: its worker
 * runs on the CPU the caller runs on.
 * Kernel: kernel/workqueue.c queue_work_on → __queue_work (called by
 * include/linux/workqueue.h queue_work with WORK_CPU_UNBOUND), v6.18:
 * with req_cpu WORK_CPU_UNBOUND and no WQ_UNBOUND
 * the pool is the current CPU's (cpu = raw_smp_processor_id()), whose
 * workers are bound to it.
 * Context: any (the model's callers: a bio's completion, the interrupt).
 * Return: the worker task's id.
 * Divergences: a task per queued item (no pool, no worker reuse); bound
 * (sim_task_spawn_on_cpu) only when the timed device names its
 * interrupt's CPU (profile key irq_cpu; the block device sets the
 * world's wq_percpu_bound when it attaches, so that this file calls
 * nothing above it): without it, as before
 * 2026-12-07 (session 21), the worker takes whichever CPU the engine
 * gives a new task, so that every profile without the key runs as it
 * did.  A bound worker starts at its ready time and delays the task
 * its CPU runs (the kernel's woken worker preempts it: the engine has
 * no wake-up preemption, and a worker that waited for that task's
 * slice would wait up to sched_slice_ns x 2).
 */
int m_queue_work_percpu(const char *name, sim_task_fn fn, void *arg)
{
	struct m_world *w = m_world();
	int cpu = sim_cpu_current();

	if (w && w->wq_percpu_bound && cpu >= 0)
		return sim_task_spawn_on_cpu(name, fn, arg, (unsigned int)cpu);
	return sim_task_spawn(name, fn, arg);
}
