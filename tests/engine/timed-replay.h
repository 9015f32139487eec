/*
 * tests/engine/timed-replay.h - one check the timed-strategy tests share:
 * the run just made (outcome @o of @program under @exec) never starts a
 * step before the one chosen before it, and its schedule replays with the
 * same steps, event-log hash and per-step start and end times (sim/timed.c's
 * invariants).  Used by test_wake_preempt.c and test_wake_preempt_none.c.
 */
#ifndef WPSIM_TESTS_ENGINE_TIMED_REPLAY_H
#define WPSIM_TESTS_ENGINE_TIMED_REPLAY_H

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/engine.h"
#include "sim/explore.h"

static inline void assert_timed_replay(const struct sim_program *program,
				       const struct sim_exec_options *exec,
				       const struct sim_outcome *o)
{
	static uint64_t starts[SIM_STEPS_LIMIT], ends[SIM_STEPS_LIMIT];
	struct sim_outcome again;
	char *schedule;

	memcpy(starts, sim_exec_step_start_ns(), o->steps * sizeof(*starts));
	memcpy(ends, sim_exec_step_end_ns(), o->steps * sizeof(*ends));
	for (uint32_t i = 1; i < o->steps; i++)
		cr_assert_geq(starts[i], starts[i - 1], "step %u", i);
	schedule = sim_exec_schedule_string();
	sim_replay(program, schedule, exec, &again);
	cr_assert_eq(again.kind, SIM_OK, "%s", again.message);
	cr_assert_eq(again.steps, o->steps);
	cr_assert_eq(again.log_hash, o->log_hash);
	cr_assert(memcmp(starts, sim_exec_step_start_ns(),
			 o->steps * sizeof(*starts)) == 0);
	cr_assert(memcmp(ends, sim_exec_step_end_ns(),
			 o->steps * sizeof(*ends)) == 0);
	free(schedule);
}

#endif
