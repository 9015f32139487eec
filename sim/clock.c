// SPDX-License-Identifier: MIT
/*
 * sim/clock.c - virtual time: the simulated CPUs and what the machine's
 * work costs.
 *
 * Models: nothing of the kernel's code.  It holds what a step costs on a
 * CPU (the machine's part of profiles/cpu/default.cpu, every figure with
 * its source; the model's named costs and the profile parser are
 * model/cost.c's), how many
 * CPUs there are and when each is free; sim/engine.c keeps each task's
 * clock and asks here which CPU a step runs on.  The rules are in
 * include/sim/clock.h and docs/timed-mode.md.
 *
 * Leaves out: caches and their misses (a figure is an average), CPU
 * frequency, SMT, NUMA distance, migration costs, and the kernel's fair
 * scheduler beyond a slice during which a running task keeps its CPU
 * and, when wake_preempt_ns is set, a woken task's preemption at the
 * running task's next point (no vruntime, no lag, no weights: sim/timed.c).
 */
#include "sim/clock-internal.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

const struct sim_cpu_costs sim_cpu_costs_default = SIM_CPU_COSTS_DEFAULT_INIT;

static struct sim_clock_config config;
static bool config_set;

struct sim_clock_state sim_clock;

static void derive(void)
{
	const struct sim_cpu_costs *c = &config.costs;
	unsigned int cpus = config.cpus < 8 ? config.cpus : 8;
	unsigned int log = 0;

	while ((2u << log) <= cpus)
		log++;
	sim_clock.cpus = config.cpus;
	sim_clock.costs = *c;
	/* Kernel: kernel/sched/fair.c, get_update_sysctl_factor(), LOG. */
	sim_clock.slice_ns = c->sched_slice_ns * (1 + log);
	memset(sim_clock.access_ns, 0, sizeof(sim_clock.access_ns));
	sim_clock.access_ns[SIM_ACCESS_NONE] = c->resume_ns;
	sim_clock.access_ns[SIM_ACCESS_READ] = c->read_ns;
	sim_clock.access_ns[SIM_ACCESS_WRITE] = c->write_ns;
	sim_clock.access_ns[SIM_ACCESS_RMW] = c->rmw_ns;
	sim_clock.access_ns[SIM_ACCESS_ADD] = c->add_ns;
	sim_clock.access_ns[SIM_ACCESS_ACQUIRE] = c->acquire_ns;
	sim_clock.access_ns[SIM_ACCESS_ACQUIRE_FAIL] = c->contended_ns;
	sim_clock.access_ns[SIM_ACCESS_RELEASE] = c->release_ns;
	sim_clock.access_ns[SIM_ACCESS_BLOCK] = c->block_ns;
	sim_clock.access_ns[SIM_ACCESS_WAKE] = c->wake_ns;
	sim_clock.access_ns[SIM_ACCESS_SPAWN] = c->spawn_ns;
	sim_clock.access_ns[SIM_ACCESS_ACQUIRE_SHARED] = c->acquire_shared_ns;
	sim_clock.access_ns[SIM_ACCESS_RELEASE_SHARED] = c->release_shared_ns;
}

static void ensure_config(void)
{
	if (config_set)
		return;
	config.cpus = SIM_CPUS_DEFAULT;
	config.costs = sim_cpu_costs_default;
	config_set = true;
	derive();
}

int sim_clock_configure(const struct sim_clock_config *c)
{
	unsigned int cpus = c->cpus ? c->cpus : SIM_CPUS_DEFAULT;

	if (cpus > SIM_CPUS_MAX)
		return -EINVAL;
	config.cpus = cpus;
	config.costs = c->costs;
	config_set = true;
	derive();
	return 0;
}

const struct sim_clock_config *sim_clock_config(void)
{
	ensure_config();
	return &config;
}

uint64_t sim_clock_slice_ns(void)
{
	ensure_config();
	return sim_clock.slice_ns;
}

void sim_clock_reset(void)
{
	ensure_config();
	for (unsigned int i = 0; i < sim_clock.cpus; i++)
		sim_clock.cpu[i] = (struct sim_clock_cpu){ .owner = -1 };
	sim_clock.min_cpu = 0;
	sim_clock.end_ns = 0;
}

uint64_t sim_cpu_busy_ns(unsigned int cpu)
{
	return cpu < sim_clock.cpus ? sim_clock.cpu[cpu].busy_ns : 0;
}

uint64_t sim_exec_end_ns(void)
{
	return sim_clock.end_ns;
}

/* ---- Named work ---------------------------------------------------------- */

static uint64_t per_4k(uint64_t bytes, uint64_t ns_per_4k)
{
	/* Rounded to the nearest ns; exact for whole pages. */
	return (bytes * ns_per_4k + 2048) / 4096;
}

void sim_cpu_copy(uint64_t bytes)
{
	sim_cpu_spend(per_4k(bytes, sim_clock.costs.copy_hot_ns_per_4k));
}

void sim_cpu_copy_dram(uint64_t bytes)
{
	sim_cpu_spend(per_4k(bytes, sim_clock.costs.copy_dram_ns_per_4k));
}

void sim_cpu_copy_to_cache(uint64_t bytes, uint64_t cache_bytes)
{
	const struct sim_cpu_costs *c = &sim_clock.costs;
	unsigned __int128 hot, cold;

	if (!c->llc_bytes || cache_bytes <= c->llc_bytes) {
		sim_cpu_copy(bytes);
		return;
	}
	hot = (unsigned __int128)per_4k(bytes, c->copy_hot_ns_per_4k) *
	      c->llc_bytes;
	cold = (unsigned __int128)per_4k(bytes, c->copy_dram_ns_per_4k) *
	       (cache_bytes - c->llc_bytes);
	sim_cpu_spend((uint64_t)((hot + cold + cache_bytes / 2) /
				 cache_bytes));
}

void sim_cpu_zero(uint64_t bytes)
{
	sim_cpu_spend(per_4k(bytes, sim_clock.costs.zero_ns_per_4k));
}

void sim_cpu_wake_idle(void)
{
	sim_cpu_spend(sim_clock.costs.wake_idle_ns);
}
