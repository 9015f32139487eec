// SPDX-License-Identifier: MIT
/*
 * sim/explore.c - the search loop and failure reports.
 *
 * Models: nothing of the kernel.  Runs executions until the strategy says
 * the search is over, keeps the first and the shortest failing schedule,
 * and, on request, checks determinism by replaying a schedule and
 * comparing the FNV-1a hash of its event log with the original's.
 */
#include "sim/explore.h"
#include "sim/dpor.h"
#include "sim/lockdep.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * The progress line; wall-clock time never reaches other output.  DPOR's
 * ETA comes from the fraction of its tree done (sim_dpor_fraction_done),
 * another strategy's from @estimated_total when it is known.
 */
static void progress_line(FILE *out, const struct sim_explore_options *o,
			  const struct sim_explore_result *r,
			  const struct sim_strategy *s, double started,
			  bool tty)
{
	double elapsed = now_seconds() - started;
	double leaves = (double)(r->executions + r->pruned);
	double rate = elapsed > 0 ? leaves / elapsed : 0;
	double total = o->estimated_total;

	if (s->kind == SIM_STRATEGY_DPOR) {
		double f = sim_dpor_fraction_done(s);

		total = f > 0 ? leaves / f : 0;
	}
	fprintf(out, "%s%s%s%llu executions (+%llu redundant), %llu failing, "
		"%.0f/s, %.0f s", tty ? "\r  " : "",
		o->progress_label ? o->progress_label : "",
		o->progress_label ? ": " : "",
		(unsigned long long)r->executions,
		(unsigned long long)r->pruned,
		(unsigned long long)r->failures, rate, elapsed);
	if (total > leaves && rate > 0)
		fprintf(out, ", ETA %.0f s (of ~%.3g)",
			(total - leaves) / rate, total);
	fputs(tty ? "   " : "\n", out);
	fflush(out);
}

static void *xmalloc(size_t bytes)
{
	void *p = malloc(bytes ? bytes : 1);

	if (!p) {
		fprintf(stderr, "wpsim: out of memory\n");
		exit(2);
	}
	return p;
}

char *sim_exec_schedule_string(void)
{
	size_t len = sim_exec_schedule_format(NULL, 0);
	char *text = xmalloc(len + 1);

	sim_exec_schedule_format(text, len + 1);
	return text;
}

static void witness_free(struct sim_witness *w)
{
	free(w->choices);
	free(w->enabled);
	free(w->schedule);
	memset(w, 0, sizeof(*w));
}

static void witness_take(struct sim_witness *w, const struct sim_outcome *o,
			 const struct sim_strategy *s, uint64_t execution)
{
	const uint16_t *choices;
	uint32_t steps = sim_exec_schedule(&choices);

	witness_free(w);
	w->found = true;
	w->outcome = *o;
	w->steps = steps;
	w->choices = xmalloc(steps * sizeof(*w->choices));
	w->enabled = xmalloc(steps * sizeof(*w->enabled));
	memcpy(w->choices, choices, steps * sizeof(*w->choices));
	memcpy(w->enabled, sim_exec_enabled_sets(),
	       steps * sizeof(*w->enabled));
	w->schedule = sim_exec_schedule_string();
	w->exec_seed = s->exec_seed;
	w->execution = execution;
}

static bool rerun_matches(const struct sim_program *program,
			  const uint16_t *choices, uint32_t steps,
			  const struct sim_exec_options *exec,
			  const struct sim_outcome *want)
{
	struct sim_strategy replay;
	struct sim_outcome got;

	sim_strategy_replay(&replay, choices, steps);
	sim_exec_run(program, &replay, exec, &got);
	/* The virtual end time too: a replay reproduces the timestamps. */
	return got.log_hash == want->log_hash && got.kind == want->kind &&
	       got.steps == want->steps && got.end_ns == want->end_ns;
}

void sim_explore(const struct sim_program *program,
		 struct sim_strategy *strategy,
		 const struct sim_explore_options *options,
		 struct sim_explore_result *result)
{
	struct sim_outcome outcome, last_complete = { 0 };
	uint16_t *last_choices = NULL;
	uint32_t last_steps = 0;
	bool more = true;

	bool tty = options->progress && isatty(fileno(options->progress));
	bool timed = options->progress && options->progress_seconds > 0;
	double every = timed ? options->progress_seconds : 0.5;
	bool show = timed || tty;
	double started = show ? now_seconds() : 0, last_print = started;
	bool printed = false;

	/* A check: lockdep's lock orders are kept over its executions. */
	sim_lockdep_order_reset();

	if (timed)
		tty = false;

	memset(result, 0, sizeof(*result));
	if (options->same_program)
		sim_exec_setup_names_again();
	else
		sim_exec_setup_names(true);
	if (options->verify_determinism)
		last_choices = xmalloc(SIM_STEPS_LIMIT * sizeof(*last_choices));
	sim_exec_setup_snapshot_begin(program, strategy);
	while (more) {
		sim_exec_run(program, strategy, &options->exec, &outcome);
		if (last_choices && !outcome.pruned) {
			const uint16_t *choices;

			/* Pruned executions stop early: replay only whole ones. */
			last_steps = sim_exec_schedule(&choices);
			memcpy(last_choices, choices,
			       last_steps * sizeof(*last_choices));
			last_complete = outcome;
		}
		result->steps += outcome.steps;
		if (outcome.pruned)
			result->pruned++;
		else
			result->executions++;
		if (options->on_execution && !outcome.pruned)
			options->on_execution(options->ctx, &outcome);
		if (outcome.kind != SIM_OK) {
			result->failures++;
			result->by_kind[outcome.kind]++;
			if (!result->first.found)
				witness_take(&result->first, &outcome, strategy,
					     result->executions - 1);
			if (!result->shortest.found ||
			    outcome.steps < result->shortest.steps)
				witness_take(&result->shortest, &outcome,
					     strategy, result->executions - 1);
		}
		more = strategy->ops->next(strategy, &outcome);
		if (show && ((result->executions + result->pruned) & 63) == 0 &&
		    now_seconds() - last_print >= every) {
			last_print = now_seconds();
			progress_line(options->progress, options, result,
				      strategy, started, tty);
			printed = true;
		}
		if (outcome.kind != SIM_OK && options->stop_on_failure)
			more = false;
		if (options->executions_max &&
		    result->executions >= options->executions_max)
			more = false;
		if (options->stop && options->stop(options->ctx))
			more = false;
	}
	sim_exec_setup_snapshot_end();
	sim_exec_setup_names(false);
	if (tty && printed)
		fputc('\n', options->progress);
	result->complete = strategy->complete;
	result->bound_hit = strategy->bound_hit;
	if (options->verify_determinism) {
		result->determinism_checked = true;
		if (result->first.found)
			result->determinism_ok = rerun_matches(program,
				result->first.choices, result->first.steps,
				&options->exec, &result->first.outcome);
		else
			result->determinism_ok = rerun_matches(program,
				last_choices, last_steps, &options->exec,
				&last_complete);
	}
	free(last_choices);
}

void sim_explore_result_fini(struct sim_explore_result *result)
{
	witness_free(&result->first);
	witness_free(&result->shortest);
}

static sim_event_printer report_print_event;

void sim_report_set_event_printer(sim_event_printer print)
{
	report_print_event = print;
}

/* The events of steps @from on, as the installed printer prints them. */
static void print_tail(FILE *out, uint32_t from)
{
	const struct sim_event *events;
	uint32_t n;

	if (!report_print_event) {
		sim_exec_print_log(out, from);
		return;
	}
	n = sim_exec_events(&events);
	for (uint32_t i = 0; i < n; i++)
		if (events[i].step >= from)
			report_print_event(out, &events[i]);
}

bool sim_report_failure(FILE *out, const struct sim_program *program,
			const struct sim_strategy *strategy,
			const struct sim_witness *witness,
			const char *replay_command, uint32_t tail_steps)
{
	struct sim_strategy replay;
	struct sim_exec_options exec = { .keep_log = true };
	struct sim_outcome got;
	const struct sim_outcome *o = &witness->outcome;
	uint32_t from;
	bool same;

	/*
	 * The rerun must stop where the run did: a stuck execution reached
	 * its step bound at o->steps, and a larger bound would run it on
	 * (and report the replay as not reproducing it).  Any other failure
	 * happened within the bound, so any bound past it reproduces it.
	 */
	if (o->kind == SIM_FAIL_STUCK) {
		exec.steps_max = o->steps;
	} else {
		exec.steps_max = witness->steps + 1;
		if (exec.steps_max < SIM_STEPS_MAX_DEFAULT)
			exec.steps_max = SIM_STEPS_MAX_DEFAULT;
	}
	sim_strategy_replay(&replay, witness->choices, witness->steps);
	sim_exec_run(program, &replay, &exec, &got);
	same = got.log_hash == o->log_hash && got.kind == o->kind &&
	       got.end_ns == o->end_ns;

	fprintf(out, "FAIL %s: %s\n", sim_failure_kind_name(o->kind),
		o->message);
	fprintf(out, "  program:     %s\n", program->name);
	fprintf(out, "  strategy:    %s", strategy->ops->name);
	if (strategy->kind == SIM_STRATEGY_RANDOM ||
	    strategy->kind == SIM_STRATEGY_PCT ||
	    strategy->kind == SIM_STRATEGY_TIMED)
		fprintf(out, ", seed %llu (execution %llu; base seed %llu)",
			(unsigned long long)witness->exec_seed,
			(unsigned long long)witness->execution,
			(unsigned long long)strategy->seed);
	else if (strategy->kind == SIM_STRATEGY_DFS ||
		 strategy->kind == SIM_STRATEGY_DPOR)
		fprintf(out, " (execution %llu)",
			(unsigned long long)witness->execution);
	fputc('\n', out);
	fprintf(out, "  step:        %llu", (unsigned long long)o->steps);
	if (o->failed_task >= 0)
		fprintf(out, ", in task %s",
			sim_exec_task_name((uint32_t)o->failed_task));
	fputc('\n', out);
	fprintf(out, "  preemptions: %u\n", sim_schedule_preemptions(
			witness->choices, witness->enabled, witness->steps));
	fprintf(out, "  schedule:    %s\n", witness->schedule);
	fprintf(out, "  replay:      %s --schedule %s\n", replay_command,
		witness->schedule);
	if (same)
		fprintf(out, "  replayed:    same outcome and event-log hash "
			"%016llx\n", (unsigned long long)o->log_hash);
	if (!same) {
		fprintf(out, "  ENGINE BUG: the replay did not reproduce this "
			"failure (%s, event-log hash %016llx vs %016llx)\n",
			sim_failure_kind_name(got.kind),
			(unsigned long long)got.log_hash,
			(unsigned long long)o->log_hash);
	}
	from = got.steps > tail_steps ? got.steps - tail_steps : 0;
	fprintf(out, "  last steps (step task access object = value):\n");
	print_tail(out, from);
	sim_lockdep_report(out);
	sim_exec_dump(out);
	return same;
}

void sim_replay(const struct sim_program *program, const char *schedule,
		const struct sim_exec_options *options,
		struct sim_outcome *outcome)
{
	static uint16_t choices[SIM_STEPS_LIMIT];
	struct sim_strategy replay;
	const char *err;
	uint32_t count;
	int rc;

	rc = sim_schedule_parse(schedule, choices, SIM_STEPS_LIMIT, &count,
				&err);
	if (rc != 0) {
		memset(outcome, 0, sizeof(*outcome));
		outcome->kind = SIM_FAIL_DIVERGED;
		if (rc == -ERANGE)
			snprintf(outcome->message, sizeof(outcome->message),
				 "bad schedule at column %d: expected task "
				 "ids below %d and at most %d steps, found "
				 "more", (int)(err - schedule) + 1,
				 SIM_IDS_LIMIT, SIM_STEPS_LIMIT);
		else
			snprintf(outcome->message, sizeof(outcome->message),
				 "bad schedule at column %d: expected a task "
				 "id, '*count' or '.', found '%.8s'",
				 (int)(err - schedule) + 1,
				 *err ? err : "end");
		return;
	}
	sim_strategy_replay(&replay, choices, count);
	sim_exec_run(program, &replay, options, outcome);
	if (outcome->kind == SIM_FAIL_DIVERGED &&
	    sim_schedule_parsed_origin()[0] && sim_schedule_origin()[0] &&
	    strcmp(sim_schedule_parsed_origin(), sim_schedule_origin())) {
		char why[SIM_MESSAGE_BYTES];

		snprintf(why, sizeof(why), "%.300s; the schedule was recorded "
			 "by model %s and this is model %s: the model's steps "
			 "changed since, so record it again", outcome->message,
			 sim_schedule_parsed_origin(), sim_schedule_origin());
		memcpy(outcome->message, why, sizeof(why));
	}
}
