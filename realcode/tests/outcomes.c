// SPDX-License-Identifier: MIT
/*
 * realcode/tests/outcomes.c - the differential harnesses' common half
 * (outcomes.h): the outcome sets of a real-code program and its model
 * twin under exhaustive DPOR, and their comparison.
 */
#include "outcomes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/strategy.h"

char rc_outcome_text[768];
static struct rc_outcomes *cur;

static void on_exec(void *ctx, const struct sim_outcome *o)
{
	(void)ctx;
	if (o->pruned)
		return;
	if (o->kind != SIM_OK)
		snprintf(rc_outcome_text, sizeof(rc_outcome_text),
			 "FAILURE %s: %s", sim_failure_kind_name(o->kind),
			 o->message);
	for (unsigned int i = 0; i < cur->n; i++)
		if (!strcmp(cur->o[i], rc_outcome_text))
			return;
	if (cur->n == RC_OUTCOMES_MAX) {
		cur->overflow = true;
		return;
	}
	cur->o[cur->n++] = strdup(rc_outcome_text);
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool explore(const struct sim_program *prog, struct rc_outcomes *set,
		    uint64_t *execs)
{
	struct sim_strategy s;
	struct sim_explore_options xo = { 0 };
	struct sim_explore_result r;
	bool complete;

	cur = set;
	set->n = 0;
	set->overflow = false;
	sim_strategy_dpor(&s);
	xo.exec.steps_max = 20000;
	xo.on_execution = on_exec;
	sim_explore(prog, &s, &xo, &r);
	*execs = r.executions;
	complete = r.complete;
	sim_explore_result_fini(&r);
	sim_strategy_fini(&s);
	qsort(set->o, set->n, sizeof(set->o[0]), cmp);
	return complete && !set->overflow;
}

void rc_diff_run(struct rc_diff *d, const struct sim_program *real,
		 const struct sim_program *model)
{
	bool cr = explore(real, &d->real, &d->real_execs);
	bool cm = explore(model, &d->model, &d->model_execs);

	d->ok = cr && cm && d->real.n == d->model.n;
	for (unsigned int i = 0; d->ok && i < d->real.n; i++)
		d->ok = !strcmp(d->real.o[i], d->model.o[i]);
}

void rc_diff_finish(struct rc_diff *d)
{
	if (!d->ok) {
		for (unsigned int i = 0; i < d->real.n; i++)
			printf("#  real:  %s\n", d->real.o[i]);
		for (unsigned int i = 0; i < d->model.n; i++)
			printf("#  model: %s\n", d->model.o[i]);
	}
	for (unsigned int i = 0; i < d->real.n; i++)
		free(d->real.o[i]);
	for (unsigned int i = 0; i < d->model.n; i++)
		free(d->model.o[i]);
	d->real.n = d->model.n = 0;
}
