/* SPDX-License-Identifier: MIT */
/*
 * The loop device's worker (model/drivers/block/loop.c;
 * drivers/block/loop.c, v6.18), timed only: a request the loop device's
 * queue_rq takes is queued on the worker's list, and the worker (a
 * kworker of the device's unbound workqueue) takes the requests in turn,
 * spends its CPU on each (the submission into the backing file) and only
 * then hands it to the device below (the device profile's delays).  The
 * device profile says whether the device is a loop device
 * (loop_worker_ns, loop_seg_ns, loop_run_ns, loop_complete_ns:
 * include/model/hw/nvme.h); the worker charges the submission only, the
 * completion is charged where it runs (the device's completion event).
 */
#ifndef WPSIM_MODEL_DRIVERS_LOOP_H
#define WPSIM_MODEL_DRIVERS_LOOP_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/shared.h"

/* A request's command, as the loop driver's pdu (struct loop_cmd): what
 * the worker hands on when it has submitted the request. */
struct m_loop_cmd {
	struct m_loop_cmd *next;	/* list_entry on the worker's list */
	uint32_t segs;			/* the request's data segments, 0 = none */
	void (*issue)(void *arg);	/* the device below takes it */
	void *arg;
};

struct m_loop_stats {
	uint64_t cmds;			/* requests the worker handled */
	uint64_t segs;			/* their data segments */
	uint64_t works;			/* worker runs (queue_work that started one) */
	uint64_t completions;		/* lo_rw_aio_complete */
	uint64_t complete_ns;		/* CPU the completions charged (not the
					 * worker's: since session 22) */
	uint64_t completions_shared;	/* completions inside a charged one's
					 * time: no charge of their own */
	uint32_t queued_max;		/* the longest list a request joined */
	uint64_t busy_ns;		/* CPU the worker charged */
};

struct m_loop_device {
	uint64_t worker_ns;		/* loop_worker_ns */
	uint64_t seg_ns;		/* loop_seg_ns */
	uint64_t complete_ns;		/* loop_complete_ns */
	uint64_t run_ns;		/* loop_run_ns (since session 22) */
	struct sim_spinlock lo_work_lock;
	struct m_loop_cmd *head, **tail;	/* rootcg_cmd_list */
	uint32_t queued;
	bool work_active;		/* a worker task will look at the list */
	uint64_t complete_until;	/* the last charged completion's end */
	struct m_loop_stats stats;
};

/* Set up @lo with the profile's figures; call inside the execution (its
 * lock is an engine object). */
void m_loop_init(struct m_loop_device *lo, uint64_t worker_ns,
		 uint64_t seg_ns, uint64_t complete_ns, uint64_t run_ns);
/* queue_rq: @cmd (the caller's, alive until its issue runs) goes to the
 * worker, which calls cmd->issue(cmd->arg) after charging its CPU. */
void km_loop_queue_rq(struct m_loop_device *lo, struct m_loop_cmd *cmd);
/* The backing file's I/O completed (the device below's completion). */
void km_lo_rw_aio_complete(struct m_loop_device *lo);

#endif
