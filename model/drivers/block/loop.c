// SPDX-License-Identifier: MIT
/*
 * model/drivers/block/loop.c - the loop device's worker, timed.
 *
 * Models drivers/block/loop.c, v6.18: loop_queue_rq queues the request's
 * command on the worker's list (loop_queue_work) and queues the worker's
 * work item on the device's workqueue ("loop%d", WQ_UNBOUND); the
 * worker (loop_rootcg_workfn -> loop_process_work) takes the commands
 * one at a time and runs each (loop_handle_cmd -> do_req_filebacked ->
 * lo_rw_aio: the request's bvecs as an iov_iter, the backing file's
 * ->write_iter / ->read_iter with IOCB_DIRECT, which submits into the
 * filesystem below and its disk); the backing file's completion calls
 * lo_rw_aio_complete, which completes the loop request
 * (blk_mq_complete_request -> lo_complete_rq -> blk_mq_end_request).
 *
 * What the model keeps: one worker, serial (a work item never runs
 * twice at once, and loop_process_work drains the list it was queued
 * for), the list in arrival order, and the worker's CPU per command
 * (loop_worker_ns), per data segment beyond the first (loop_seg_ns) and
 * per run (loop_run_ns, since session 22) spent on a simulated CPU
 * before the command reaches the device below, whose delays (the device
 * profile: cmd_ns, fw_write_ns, cache_ack_ns, ...) start only then.
 * The worker's charge is the submission only: lo_rw_aio returns
 * -EIOCBQUEUED once the backing file's direct I/O is submitted, and the
 * completion (lo_rw_aio_complete) runs later on the completion's CPU: a
 * read's from the backing bio's end_io (iomap's INLINE_COMP), a write's
 * from the backing filesystem's s_dio_done_wq worker (iomap_dio_done
 * queues an async write's completion; s_dio_done_wq is WQ_PERCPU, so on
 * the interrupt's CPU).  Its CPU (loop_complete_ns) is charged by the
 * device's completion event there (model/block/bio.c timed_post: the
 * profile's irq_cpu), never by the worker and not serial with the
 * worker's next submission.  What the backing file's submission does
 * inside
 * (ext4's direct I/O, the virtio disk's request) is that CPU and the
 * device profile's delays, not modelled step by step.
 *
 * Leaves out: the per-cgroup workers (every command goes to the root
 * cgroup's list, rootcg_cmd_list: the grid's and the calibration's fio
 * run in one cgroup) and their idle timer; a short read's requeue
 * (lo_complete_rq: the device below never returns one); READ_ONLY,
 * discard and write-zeroes (lo_fallocate); buffered backing files
 * (use_aio false: the model's loop device is LO_FLAGS_DIRECT_IO, as
 * tools/calibrate/loopfs.sh's); PF_MEMALLOC_NOIO.  cond_resched() after
 * each command is a mark (sim_preempt_point: where a pending wake-up
 * preemption takes the worker's CPU under the CPU profile's
 * wake_preempt_mode 1, preempt=none), no step of its own.
 * Only the timed queue (model/block/bio.c) uses it, and only for a
 * device profile with loop_worker_ns (absent = 0: no worker).
 */
#include <string.h>

#include "model/drivers/loop.h"
#include "sim/clock.h"
#include "sim/engine.h"

void m_loop_init(struct m_loop_device *lo, uint64_t worker_ns,
		 uint64_t seg_ns, uint64_t complete_ns, uint64_t run_ns)
{
	memset(lo, 0, sizeof(*lo));
	lo->run_ns = run_ns;
	lo->worker_ns = worker_ns;
	lo->seg_ns = seg_ns;
	lo->complete_ns = complete_ns;
	lo->tail = &lo->head;
	sim_spin_init(&lo->lo_work_lock, "loop.lo_work_lock");
}

/**
 * km_loop_handle_cmd - the worker runs one command.
 * Kernel: drivers/block/loop.c loop_handle_cmd -> do_req_filebacked ->
 * lo_rw_aio, v6.18.
 * Context: the worker (a kworker of the loop device's workqueue).
 * Return: none (void in the kernel too; the model keeps no cmd->ret).
 * Divergences: the work is one charge, loop_worker_ns plus loop_seg_ns
 * per data segment beyond the first (the bvec count lo_rw_aio walks and
 * the backing file's direct I/O maps), then the device below takes the
 * command (cmd->issue); a flush (lo_req_flush: vfs_fsync of the backing
 * file, synchronous in the worker) is charged loop_worker_ns like the
 * others, and the device profile's flush_serial holds what comes behind
 * it; no blkcg/memcg association; no LO_FLAGS_READ_ONLY check (the
 * kernel's first step: -EIO for a write; the model's device is never
 * read-only); the kernel completes a flush (not aio) itself after
 * do_req_filebacked returns, the model's flush completes from the
 * device's completion event (km_lo_rw_aio_complete).
 */
static void km_loop_handle_cmd(struct m_loop_device *lo,
			       struct m_loop_cmd *cmd)
{
	uint64_t ns = lo->worker_ns;

	if (cmd->segs > 1)
		ns += (uint64_t)(cmd->segs - 1) * lo->seg_ns;
	sim_cpu_spend(ns);
	lo->stats.cmds++;
	lo->stats.segs += cmd->segs;
	lo->stats.busy_ns += ns;
	cmd->issue(cmd->arg);
}

/**
 * km_loop_process_work - the worker drains its list, one command at a
 * time, the lock dropped around each.
 * Kernel: drivers/block/loop.c loop_rootcg_workfn -> loop_process_work,
 * v6.18.
 * Context: task (the kworker "kworker/loop"); takes lo_work_lock.
 * Return: none.
 * Divergences: the work item's PENDING bit is work_active, cleared when
 * the worker finds the list empty under the lock (the kernel clears
 * PENDING before the function runs and a queue_work meanwhile runs it
 * once more, after this run: the same one serial worker); no idle list,
 * no timer (the root cgroup's worker has none); since session 22 a run
 * first charges loop_run_ns (0 = nothing), what a run costs beyond its
 * commands (process_one_work's entry and the first command's cold
 * path, measured as the worker's CPU per request at QD1, one run a
 * request, against QD32, several a run: docs/model/loop.md), one
 * charge where the kernel has no one step for it.
 */
static void km_loop_process_work(void *arg)
{
	struct m_loop_device *lo = arg;

	if (lo->run_ns) {
		sim_cpu_spend(lo->run_ns);
		lo->stats.busy_ns += lo->run_ns;
	}
	sim_spin_lock(&lo->lo_work_lock);
	while (lo->head) {
		struct m_loop_cmd *cmd = lo->head;

		lo->head = cmd->next;
		if (!lo->head)
			lo->tail = &lo->head;
		lo->queued--;
		sim_spin_unlock(&lo->lo_work_lock);
		km_loop_handle_cmd(lo, cmd);
		sim_preempt_point();	/* cond_resched() */
		sim_spin_lock(&lo->lo_work_lock);
	}
	lo->work_active = false;
	sim_spin_unlock(&lo->lo_work_lock);
}

/**
 * km_loop_queue_work - the command joins the worker's list, and the
 * worker's work item is queued.
 * Kernel: drivers/block/loop.c loop_queue_work (queue_on_root_worker:
 * list_add_tail to rootcg_cmd_list, queue_work), v6.18.
 * Context: the caller of queue_rq (the submitter, or the completion that
 * issues a flush sequence's next request); takes lo_work_lock.
 * Return: none.
 * Divergences: queue_work on the unbound workqueue is a task spawned when
 * no worker is active (its CPU is whichever the engine finds free: the
 * unbound pool's placement is not modelled), none when one is; the
 * kernel calls queue_work under lo_work_lock, the model spawns the task
 * after dropping it (work_active, set under the lock, already says a
 * worker will look at the list).
 */
static void km_loop_queue_work(struct m_loop_device *lo,
			       struct m_loop_cmd *cmd)
{
	bool start;

	sim_spin_lock(&lo->lo_work_lock);
	cmd->next = NULL;
	*lo->tail = cmd;
	lo->tail = &cmd->next;
	if (++lo->queued > lo->stats.queued_max)
		lo->stats.queued_max = lo->queued;
	start = !lo->work_active;
	lo->work_active = true;
	sim_spin_unlock(&lo->lo_work_lock);
	if (start) {
		lo->stats.works++;
		sim_task_spawn("kworker/loop", km_loop_process_work, lo);
	}
}

/**
 * km_loop_queue_rq - the loop device's queue_rq: the request is started
 * and handed to the worker.
 * Kernel: drivers/block/loop.c loop_queue_rq, v6.18.
 * Context: as km_loop_queue_work.
 * Return: none (the kernel's BLK_STS_OK: Divergences).
 * Divergences: blk_mq_start_request is the caller's (model/block/bio.c:
 * rq_qos_issue before the request is issued); no Lo_bound check (the
 * model's loop device is always bound), no cgroup css; use_aio is always
 * true for data (LO_FLAGS_DIRECT_IO); returns nothing where the kernel
 * returns BLK_STS_OK (its one other value, BLK_STS_IOERR, is for a
 * device not Lo_bound).
 */
void km_loop_queue_rq(struct m_loop_device *lo, struct m_loop_cmd *cmd)
{
	km_loop_queue_work(lo, cmd);
}

/**
 * km_lo_rw_aio_complete - the backing file's I/O has completed: the loop
 * request completes.
 * Kernel: drivers/block/loop.c lo_rw_aio_complete ->
 * lo_rw_aio_do_completion -> blk_mq_complete_request (lo_complete_rq ->
 * blk_mq_end_request), v6.18.
 * Context: the device below's completion (its interrupt's CPU).
 * Return: none.
 * Divergences: one charge, loop_complete_ns, in the device's completion
 * event, before the caller's own completion work (bio_complete_ns) and
 * the request's end; no cmd->ref (the submission's reference is dropped
 * before the completion can run: the model's worker hands on the command
 * last), no bvec array to free, no kiocb_end_write; the completion's
 * softirq hop to the submitting CPU (blk_mq_complete_request_remote) is
 * not modelled; a flush's completion is charged here too (model/block/
 * bio.c timed_flush_done), where the kernel completes a flush in the
 * worker (loop_handle_cmd, after vfs_fsync), not through this function.
 * Since session 22 the charge is per burst, not per request: a
 * completion that arrives before the last charged one's time has run
 * out shares it (charges nothing).  The kernel's completions come from
 * the backing disk's interrupt, whose handler takes every request ready
 * while it runs (drivers/block/virtio_blk.c virtblk_done: the
 * virtqueue_get_buf loop, then virtqueue_enable_cb), so what QD1 pays
 * once a request is paid once a burst at depth: on this machine loop -
 * root less the worker is ~6 us a request at QD1 and ~0 at QD32
 * (docs/model/loop.md).  The one figure stands for the interrupt's
 * share and the request's; the per-request part is not separated.  A
 * write's lo_rw_aio_complete runs in the backing filesystem's
 * s_dio_done_wq worker (iomap_dio_done, fs/iomap/direct-io.c), a read's
 * in the backing bio's end_io; the model charges both in the completion
 * event.  A completion that shares a charge returns at once, so its
 * request ends before the one that paid (virtblk_done handles it after
 * the requests ahead of it); the window (complete_until) is the
 * device's, not a CPU's: without irq_cpu, completions on two CPUs can
 * share one charge.
 */
void km_lo_rw_aio_complete(struct m_loop_device *lo)
{
	lo->stats.completions++;
	if (sim_now() < lo->complete_until) {
		lo->stats.completions_shared++;
		return;
	}
	lo->stats.complete_ns += lo->complete_ns;
	sim_cpu_spend(lo->complete_ns);
	lo->complete_until = sim_now();
}
