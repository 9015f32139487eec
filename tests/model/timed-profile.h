/* SPDX-License-Identifier: MIT */
/*
 * tests/model/timed-profile.h - the timed tests' device, whose times are
 * easy to add up (tests/model/block/test_bio_timed.c's): 10 us per
 * command, a 4 GB/s link, a 1 MiB volatile cache with FUA, one queue of
 * 8 tags; and one timed run of a program on it.
 */
#ifndef WPSIM_TESTS_TIMED_PROFILE_H
#define WPSIM_TESTS_TIMED_PROFILE_H

#include <stdio.h>
#include <string.h>

#include "model/hw/nvme.h"
#include "sim/clock.h"
#include "sim/engine.h"
#include "sim/strategy.h"

static inline void timed_test_profile(struct hw_nvme_profile *p)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "test");
	p->capacity_bytes = 1ull << 30;
	p->cmd_ns = 10000;
	p->link_write_bytes_per_sec = 4096000000ull;
	p->link_read_bytes_per_sec = 4096000000ull;
	p->units = 4;
	p->page_bytes = 4096;
	p->read_ns = 50000;
	p->program_ns = 100000;
	p->cache_bytes = 1 << 20;
	p->flush_ns = 200000;
	p->fua = true;
	p->nr_hw_queues = 1;
	p->queue_depth = 8;
}

/* One execution of @prog on one CPU with the timed strategy; its
 * outcome in @o. */
static inline void timed_test_run(const struct sim_program *prog,
				  struct sim_outcome *o)
{
	struct sim_exec_options exec = { 0 };
	struct sim_strategy s;

	sim_clock_configure(&(struct sim_clock_config){
		.cpus = 1, .costs = sim_cpu_costs_default });
	sim_strategy_timed(&s, 1, 1);
	sim_exec_run(prog, &s, &exec, o);
	sim_strategy_fini(&s);
}
#endif
