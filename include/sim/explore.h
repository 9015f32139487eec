/* SPDX-License-Identifier: MIT */
/*
 * sim_explore: many executions of one program under one strategy, and
 * the failure report with its replay line.
 */
#ifndef WPSIM_SIM_EXPLORE_H
#define WPSIM_SIM_EXPLORE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/engine.h"
#include "sim/strategy.h"

struct sim_explore_options {
	struct sim_exec_options exec;
	bool stop_on_failure;	/* stop at the first failing execution */
	/*
	 * Rerun the witness (or, without one, the last execution) from its
	 * schedule and compare event-log hashes; a mismatch is an engine
	 * bug, reported as SIM_FAIL_NONDETERMINISM.
	 */
	bool verify_determinism;
	uint64_t executions_max;	/* 0: until the strategy stops */
	/*
	 * A progress line (executions, redundant ones, failing ones,
	 * executions/s and, for DPOR, the share of its tree done and an
	 * ETA) on @progress: with @progress_seconds > 0 every that many
	 * seconds, one line each, whatever @progress is; with 0 twice a
	 * second, rewritten in place, only if it is a terminal.  NULL:
	 * quiet.  @progress_label (may be NULL) starts the line.
	 * @estimated_total (executions plus redundant ones; 0: unknown)
	 * gives the ETA of strategies other than DPOR.
	 */
	FILE *progress;
	double progress_seconds;
	const char *progress_label;
	double estimated_total;
	/* Called after every execution, e.g. to collect final states. */
	void (*on_execution)(void *ctx, const struct sim_outcome *o);
	/* Asked after every execution: true ends the search (incomplete). */
	bool (*stop)(void *ctx);
	void *ctx;
	/*
	 * The last search ran this program with this configuration too (the
	 * split's units, one after another in a worker): the names its setup
	 * registered are kept (sim_exec_setup_names_again), not formatted
	 * again in this search's first execution.
	 */
	bool same_program;
};

struct sim_witness {
	bool found;
	struct sim_outcome outcome;
	uint16_t *choices;
	uint64_t *enabled;
	uint32_t steps;
	char *schedule;		/* trimmed, dotted */
	uint64_t exec_seed;	/* random/PCT: seed of that execution */
	uint64_t execution;	/* 0-based index in the search */
};

struct sim_explore_result {
	uint64_t executions;	/* complete executions */
	uint64_t pruned;	/* stopped as redundant (DPOR sleep sets) */
	uint64_t steps;		/* steps run, redundant executions' too */
	uint64_t failures;
	uint64_t by_kind[SIM_FAIL_KIND_COUNT];
	bool complete;		/* the strategy covered its whole space */
	bool bound_hit;		/* DFS: the preemption bound cut something */
	struct sim_witness first;	/* first failing execution */
	struct sim_witness shortest;	/* fewest steps among failures */
	bool determinism_checked;
	bool determinism_ok;
};

void sim_explore(const struct sim_program *program,
		 struct sim_strategy *strategy,
		 const struct sim_explore_options *options,
		 struct sim_explore_result *result);
void sim_explore_result_fini(struct sim_explore_result *result);

/* Schedule of the last execution, trimmed and formatted (malloc'ed). */
char *sim_exec_schedule_string(void);

/*
 * Rerun @witness from its schedule with the event log kept and print the
 * failure report: kind, message, program, strategy and seed, step,
 * schedule, the command that replays it (@replay_command followed by
 * " --schedule S"), the last @tail_steps steps, then every module dump.
 * Returns false when the rerun did not reproduce the failure (that is
 * itself reported, as nondeterminism).
 */
bool sim_report_failure(FILE *out, const struct sim_program *program,
			const struct sim_strategy *strategy,
			const struct sim_witness *witness,
			const char *replay_command, uint32_t tail_steps);

/*
 * How a report prints one event of its "last steps": NULL (the default)
 * is the engine's sim_exec_print_log form, numbers and "bit3"; a front
 * end that knows what the bits mean (wpsim: "folio1.flags:PG_dirty")
 * installs its own, so a report names them as --explain does.
 */
typedef void (*sim_event_printer)(FILE *out, const struct sim_event *ev);
void sim_report_set_event_printer(sim_event_printer print);

/*
 * Replay one schedule and print its event log (the "explain" view).
 * Returns the outcome of the replayed execution.
 */
void sim_replay(const struct sim_program *program, const char *schedule,
		const struct sim_exec_options *options,
		struct sim_outcome *outcome);

#endif /* WPSIM_SIM_EXPLORE_H */
