// SPDX-License-Identifier: MIT
/*
 * model/kernel/softirq.c - hardirq context: irq_enter / irq_exit
 * (kernel/softirq.c, v6.18) and in_task() (include/linux/preempt.h).
 *
 * The kernel keeps the context in preempt_count (HARDIRQ_OFFSET per
 * nesting level); in_task() is true when no hardirq, softirq or NMI
 * count is set.  The model keeps one hardirq depth per engine id (a task
 * or an event: sim_task_current()), so that an interrupt handler that
 * yields at a scheduling point does not change what another task's
 * in_task() says.  Who enters: the block device's completion
 * (model/block/bio.c: a bio's bi_end_io run from the device's
 * completion event, as blk_mq_complete_request runs it from nvme_irq).
 *
 * Leaves out: softirq and NMI counts (the model's completions are the
 * hardirq's), preemption counts, irq_exit's softirq processing.
 */
#include <stdint.h>
#include <string.h>

#include "model/linux/preempt.h"
#include "model/world.h"
#include "sim/arena.h"
#include "sim/engine.h"

/*
 * The hardirq depth of engine id @id's context, made on first use:
 * SIM_TASKS_MAX entries (an exploration's every id), doubled while @id
 * is past them (a timed run's events), up to SIM_IDS_LIMIT.  It was
 * SIM_IDS_LIMIT bytes zeroed in every execution that completes a bio
 * (issue 28, session 18: 16 KiB per DPOR execution).
 */
static uint8_t *hardirq_depth(int id)
{
	struct m_world *w = m_world();

	if (!w || id < 0 || id >= SIM_IDS_LIMIT)
		return NULL;
	if ((uint32_t)id >= w->hardirq_depth_ids) {
		uint32_t ids = w->hardirq_depth_ids ? w->hardirq_depth_ids :
			       SIM_TASKS_MAX;
		uint8_t *depth;

		while (ids <= (uint32_t)id)
			ids *= 2;
		if (ids > SIM_IDS_LIMIT)
			ids = SIM_IDS_LIMIT;
		depth = sim_arena_alloc(ids);
		if (w->hardirq_depth) {
			memcpy(depth, w->hardirq_depth, w->hardirq_depth_ids);
			sim_arena_free(w->hardirq_depth,
				       w->hardirq_depth_ids);
		}
		w->hardirq_depth = depth;
		w->hardirq_depth_ids = ids;
	}
	return &w->hardirq_depth[id];
}

/**
 * km_irq_enter - enter hardirq context.
 * Kernel: kernel/softirq.c irq_enter (preempt_count_add(HARDIRQ_OFFSET)
 * in __irq_enter_raw), v6.18.
 * Context: an interrupt handler (the model: a completion event).
 */
void km_irq_enter(void)
{
	uint8_t *depth = hardirq_depth(sim_task_current());

	if (depth)
		(*depth)++;
}

/**
 * km_irq_exit - leave hardirq context.
 * Kernel: kernel/softirq.c irq_exit, v6.18 (the count only).
 * Divergences: no softirq processing on the way out.
 */
void km_irq_exit(void)
{
	uint8_t *depth = hardirq_depth(sim_task_current());

	if (depth) {
		SIM_ASSERT_MSG(*depth > 0, "irq_exit without irq_enter");
		(*depth)--;
	}
}

/**
 * km_in_task - is the caller in task context?
 * Kernel: include/linux/preempt.h in_task, v6.18: !(in_nmi() |
 * in_hardirq() | in_serving_softirq()).
 * Return: false inside km_irq_enter/km_irq_exit of the running task or
 * event; true elsewhere (setup, tasks, events that entered no hardirq).
 */
bool km_in_task(void)
{
	struct m_world *w = m_world();
	int id = sim_task_current();

	if (!w || id < 0 || (uint32_t)id >= w->hardirq_depth_ids)
		return true;	/* never entered */
	return w->hardirq_depth[id] == 0;
}
