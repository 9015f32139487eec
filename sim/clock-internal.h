/* SPDX-License-Identifier: MIT */
/*
 * sim/clock-internal.h - the simulated CPUs, shared by sim/engine.c
 * (which keeps each task's clock) and sim/clock.c (which keeps the CPUs
 * and the cost table).  Not an API: include/sim/clock.h is.
 */
#ifndef WPSIM_SIM_CLOCK_INTERNAL_H
#define WPSIM_SIM_CLOCK_INTERNAL_H

#include "sim/clock.h"

struct sim_clock_cpu {
	uint64_t busy_until_ns;	/* free from then on */
	uint64_t busy_ns;	/* total work done */
	uint64_t slice_start_ns; /* when @owner took it */
	int32_t owner;		/* task that ran on it last, -1 none */
};

struct sim_clock_state {
	unsigned int cpus;
	uint64_t slice_ns;
	/* The cost of a step, by the access it announced. */
	uint64_t access_ns[SIM_ACCESS_COUNT];
	struct sim_cpu_costs costs;
	struct sim_clock_cpu cpu[SIM_CPUS_MAX];
	unsigned int min_cpu;	/* the CPU free first (lowest id on ties) */
	uint64_t end_ns;	/* latest step end */
};

extern struct sim_clock_state sim_clock;

/* Before each execution: every CPU idle at time 0. */
void sim_clock_reset(void);

/* After a CPU's busy time moved: find the CPU free first again. */
static inline void sim_clock_update_min(void)
{
	uint64_t free_ns = sim_clock.cpu[0].busy_until_ns;
	unsigned int m = 0;

	for (unsigned int i = 1; i < sim_clock.cpus; i++) {
		uint64_t b = sim_clock.cpu[i].busy_until_ns;

		m = b < free_ns ? i : m;
		free_ns = b < free_ns ? b : free_ns;
	}
	sim_clock.min_cpu = m;
}

/*
 * The CPU a task ready at @ready_ns that last ran on @last (-1: none)
 * gets, and when it starts there: its own CPU if that is free by then;
 * else, among the CPUs free at the earliest possible start, its own, a
 * CPU no task has used yet, or the one free first (lowest id).
 */
static inline unsigned int sim_clock_pick(int last, uint64_t ready_ns,
					  uint64_t *start_ns)
{
	unsigned int m = sim_clock.min_cpu;
	uint64_t free_ns = sim_clock.cpu[m].busy_until_ns;

	if (last >= 0 && sim_clock.cpu[last].busy_until_ns <= ready_ns) {
		*start_ns = ready_ns;
		return (unsigned int)last;
	}
	*start_ns = ready_ns > free_ns ? ready_ns : free_ns;
	if (last >= 0 && sim_clock.cpu[last].busy_until_ns <= *start_ns)
		return (unsigned int)last;
	if (sim_clock.cpu[m].owner >= 0)
		for (unsigned int i = 0; i < sim_clock.cpus; i++)
			if (sim_clock.cpu[i].owner < 0 &&
			    sim_clock.cpu[i].busy_until_ns <= *start_ns)
				return i;
	return m;
}

#endif /* WPSIM_SIM_CLOCK_INTERNAL_H */
