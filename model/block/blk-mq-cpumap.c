// SPDX-License-Identifier: MIT
/*
 * model/block/blk-mq-cpumap.c - the default map of CPUs to hardware
 * queues.
 *
 * Models blk_mq_map_queues of block/blk-mq-cpumap.c, v6.18, with the
 * part of lib/group_cpus.c (group_cpus_evenly) it calls, for one NUMA
 * node without SMT siblings.  Pure code: no engine calls.
 *
 * Leaves out: NUMA nodes and SMT siblings in the grouping, the
 * driver-provided maps (blk_mq_map_hw_queues), offline CPUs, mask
 * allocation failure.
 */
#include "model/block/blk-mq.h"

/*
 * group_cpus_evenly (lib/group_cpus.c, v6.18) for one node without SMT
 * siblings: min(CPUs, groups) groups of consecutive CPUs, the first
 * (CPUs mod groups) of them one CPU larger.  @first[g] is group g's first
 * CPU, @count[g] its size.  Return: the number of groups (nr_masks).
 */
static uint32_t group_cpus_evenly(uint32_t nr_groups, uint32_t nr_cpus,
				  uint32_t *first, uint32_t *count)
{
	uint32_t groups = nr_groups < nr_cpus ? nr_groups : nr_cpus;
	uint32_t extra = nr_cpus - groups * (nr_cpus / groups);
	uint32_t cpu = 0;

	for (uint32_t g = 0; g < groups; g++) {
		count[g] = nr_cpus / groups;
		if (extra) {
			count[g]++;
			extra--;
		}
		first[g] = cpu;
		cpu += count[g];
	}
	return groups;
}

/**
 * km_blk_mq_map_queues - spread the CPUs over @nr_queues hardware queues.
 * Kernel: block/blk-mq-cpumap.c blk_mq_map_queues, lib/group_cpus.c
 * group_cpus_evenly, v6.18.
 * Context: queue setup; touches no shared state, never yields.
 * Return: nothing; @mq_map[cpu] is the queue of each of @nr_cpus CPUs.
 * Divergences: one NUMA node, no SMT siblings, every possible CPU
 * present; the default map only; no mask allocation failure.
 */
void km_blk_mq_map_queues(uint16_t *mq_map, uint32_t nr_cpus,
			  uint32_t nr_queues)
{
	uint32_t first[M_BLK_MQ_CPUS_MAX], count[M_BLK_MQ_CPUS_MAX];
	uint32_t nr_masks;

	nr_masks = group_cpus_evenly(nr_queues, nr_cpus, first, count);
	for (uint32_t queue = 0; queue < nr_queues; queue++) {
		uint32_t m = queue % nr_masks;

		for (uint32_t cpu = first[m]; cpu < first[m] + count[m]; cpu++)
			mq_map[cpu] = (uint16_t)queue;
	}
}
