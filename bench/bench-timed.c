// SPDX-License-Identifier: MIT
/*
 * bench/bench-timed.c - long timed runs: host speed and memory.
 *
 * A synthetic write loop stands for a buffered write path, so that the
 * engine's cost under the timed strategy is measured without the model:
 * each of N jobs repeats "syscall entry; lock the inode (mutex); read and
 * write two words of it; allocate a folio object (registered, later
 * retired); copy 4 KiB; account two counters; unlock"; every 32nd write
 * it posts a device completion event 20 us ahead and waits for it (a
 * completion), as a writeback wait would.  One write is ~10 steps.
 *
 * Printed per run: steps, simulated writes, virtual time, host seconds,
 * steps and writes per host second, and the process's peak RSS after the
 * run; the runs grow (1x then 4x the writes) so a flat peak RSS shows
 * memory follows the live objects, not the run length.  Never fails on
 * timing (make bench).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "bench-common.h"
#include "sim/arena.h"
#include "sim/clock.h"
#include "sim/explore.h"
#include "sim/shared.h"
#include "sim/strategy.h"

#define WRITES_PER_WAIT	32
#define DEVICE_NS	20000

struct job_state {
	struct sim_mutex i_rwsem;
	struct sim_word i_size, nrpages;
	struct sim_word nr_dirty, wb_dirtied;
	struct sim_completion done[1024];
};

struct bench_config {
	unsigned int jobs;
	unsigned int writes_per_job;
};

static struct job_state *S;
static struct bench_config config;

static void device_done(void *arg)
{
	sim_completion_complete(arg);
}

static void job(void *arg)
{
	long me = (long)arg;

	for (unsigned int i = 0; i < config.writes_per_job; i++) {
		struct sim_word *folio = sim_arena_alloc(sizeof(*folio));

		sim_cpu_spend(205);	/* a syscall: default.cpu syscall_ns */
		sim_mutex_lock(&S->i_rwsem);
		sim_word_read(&S->i_size);
		sim_word_init(folio, 0, "folio[%ld.%u]", me, i);
		sim_word_write(folio, 1);
		sim_cpu_copy(4096);
		sim_word_add_nr(&S->nr_dirty, 1);
		sim_word_add_nr(&S->wb_dirtied, 1);
		sim_word_write(&S->i_size, (uint64_t)i * 4096);
		sim_mutex_unlock(&S->i_rwsem);
		sim_object_retire(folio->id);
		sim_arena_free(folio, sizeof(*folio));
		if (i % WRITES_PER_WAIT == WRITES_PER_WAIT - 1) {
			struct sim_completion *c = &S->done[me];

			sim_event_post_at("nvme-cq", device_done, c,
					  sim_now() + DEVICE_NS);
			sim_completion_wait(c);
		}
	}
}

static void setup(void *unused)
{
	(void)unused;
	S = sim_arena_alloc(sizeof(*S));
	sim_mutex_init(&S->i_rwsem, "i_rwsem");
	sim_word_init(&S->i_size, 0, "i_size");
	sim_word_init(&S->nrpages, 0, "nrpages");
	sim_word_init(&S->nr_dirty, 0, "NR_FILE_DIRTY");
	sim_word_init(&S->wb_dirtied, 0, "WB_DIRTIED");
	for (unsigned int j = 0; j < config.jobs; j++)
		sim_completion_init(&S->done[j], "done[%u]", j);
	for (long j = 0; j < (long)config.jobs; j++)
		sim_task_spawn("job", job, (void *)j);
}

static const struct sim_program program = {
	.name = "bench/timed-writes",
	.setup = setup,
};

static long peak_rss_kib(void)
{
	struct rusage u;

	getrusage(RUSAGE_SELF, &u);
	return u.ru_maxrss;
}

static void run(unsigned int jobs, unsigned int cpus, uint64_t writes)
{
	struct sim_exec_options exec = { .long_run = true,
					 .steps_max = SIM_STEPS_LONG_LIMIT };
	struct sim_clock_config c = { .cpus = cpus,
				      .costs = sim_cpu_costs_default };
	struct sim_strategy s;
	struct sim_outcome o;
	uint64_t t0;
	double secs;

	config.jobs = jobs;
	config.writes_per_job = (unsigned int)(writes / jobs);
	sim_clock_configure(&c);
	sim_strategy_timed(&s, 1, 1);
	t0 = bench_now_ns();
	sim_exec_run(&program, &s, &exec, &o);
	secs = (double)(bench_now_ns() - t0) / 1e9;
	sim_strategy_fini(&s);
	if (o.kind != SIM_OK) {
		printf("  FAILED: %s\n", o.message);
		return;
	}
	printf("  %3u jobs %3u CPUs %8" PRIu64 " writes %10" PRIu64 " steps  "
	       "virtual %8.3f ms  host %6.2f s  %5.2f Msteps/s  "
	       "%7.0f writes/s  peak RSS %ld MiB\n", jobs, cpus,
	       (uint64_t)jobs * config.writes_per_job, o.steps,
	       (double)sim_exec_end_ns() / 1e6, secs,
	       (double)o.steps / secs / 1e6,
	       (double)jobs * config.writes_per_job / secs,
	       peak_rss_kib() / 1024);
}

int main(int argc, char **argv)
{
	uint64_t writes = argc > 1 ? strtoull(argv[1], NULL, 0) : 1000000;

	bench_print_machine();
	printf("bench-timed: %s, the timed strategy, long runs\n",
	       program.name);
	run(32, 8, writes);
	run(32, 8, 4 * writes);
	run(128, 32, writes);
	return 0;
}
