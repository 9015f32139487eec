// SPDX-License-Identifier: MIT
/*
 * tools/wpsim/fgraph.c - the steps of the last execution with the kernel
 * functions each task was in: the engine's schedule (a task per step),
 * its event log (the events of each step) and ftrace.c's call and return
 * records, each placed in the step of its task that was running when it
 * happened (after that step's access, before the task's next one).
 *
 * A step's nesting is its task's km_ call stack at the step's access,
 * i.e. after every record of the task's earlier steps.  Left out: the
 * order of a call against the accesses inside the same step (the records
 * come after the step's access, which is where the step's scheduling
 * point is; within one step nothing else runs).
 */
#include "tools/wpsim/fgraph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/engine.h"

bool wpsim_fn_name_match(const char *km_name, const char *name)
{
	if (strcmp(km_name, name) == 0)
		return true;
	return strncmp(km_name, "km_", 3) == 0 &&
	       strcmp(km_name + 3, name) == 0;
}

int wpsim_thread_task(int thread)
{
	char name[8];

	snprintf(name, sizeof(name), "P%d", thread);
	for (uint32_t i = 0; i < sim_exec_task_count(); i++)
		if (strcmp(sim_exec_task_name(i), name) == 0)
			return (int)i;
	return -1;
}

struct stack {
	const char *fn[WPSIM_FG_DEPTH_MAX];
	unsigned int depth, lost;	/* lost: calls past the bound */
};

static char *nesting_text(const struct stack *s)
{
	size_t len = 1;
	char *text;

	for (unsigned int i = 0; i < s->depth; i++)
		len += strlen(s->fn[i]) + 3;
	text = malloc(len);
	if (!text)
		abort();
	text[0] = '\0';
	for (unsigned int i = 0; i < s->depth; i++) {
		if (i)
			strcat(text, " > ");
		strcat(text, s->fn[i]);
	}
	return text;
}

static void apply(struct stack *s, const struct wpsim_fn_record *r)
{
	if (!r->ret) {
		if (s->depth < WPSIM_FG_DEPTH_MAX)
			s->fn[s->depth++] = r->name;
		else
			s->lost++;
		return;
	}
	if (s->lost) {
		s->lost--;
		return;
	}
	/* A return pops its call (a longjmp'ed task leaves calls open). */
	for (unsigned int i = s->depth; i-- > 0;) {
		if (s->fn[i] == r->name) {
			s->depth = i;
			return;
		}
	}
}

void wpsim_fgraph_build(struct wpsim_fgraph *g, uint32_t steps)
{
	const struct sim_event *ev;
	const uint16_t *choices;
	uint32_t n = sim_exec_events(&ev);
	uint32_t sched = sim_exec_schedule(&choices);
	uint32_t tasks = sim_exec_task_count();
	struct stack *stacks = calloc(tasks + 1, sizeof(*stacks));
	size_t r = 0;
	uint32_t e = 0;

	memset(g, 0, sizeof(*g));
	if (!stacks)
		abort();
	if (steps > sched)
		steps = sched;
	g->recs_count = wpsim_ftrace_records(&g->recs);
	g->steps = calloc(steps + 1, sizeof(*g->steps));
	g->rec_step = calloc(g->recs_count + 1, sizeof(*g->rec_step));
	if (!g->steps || !g->rec_step)
		abort();
	g->steps_count = steps;
	for (uint32_t s = 0; s < steps; s++) {
		struct wpsim_fg_step *st = &g->steps[s];
		struct stack *k;

		st->task = choices[s];
		k = st->task < tasks ? &stacks[st->task] : &stacks[tasks];
		while (e < n && ev[e].step < s)
			e++;
		st->ev_first = e;
		while (e < n && ev[e].step == s)
			e++;
		st->ev_count = e - st->ev_first;
		st->nesting = nesting_text(k);
		st->depth = (uint8_t)k->depth;
		st->innermost = k->depth ? k->fn[k->depth - 1] : NULL;
		/* Records made while this step ran: the log then ended in
		 * one of its events. */
		st->rec_first = (uint32_t)r;
		while (r < g->recs_count && g->recs[r].events &&
		       g->recs[r].events <= e &&
		       ev[g->recs[r].events - 1].step == s) {
			g->rec_step[r] = s;
			apply(&stacks[g->recs[r].task < tasks ?
				      g->recs[r].task : tasks], &g->recs[r]);
			r++;
		}
		st->rec_count = (uint32_t)r - st->rec_first;
	}
	/* Records the walk could not place (none expected): past the end. */
	for (; r < g->recs_count; r++)
		g->rec_step[r] = UINT32_MAX;
	free(stacks);
}

void wpsim_fgraph_free(struct wpsim_fgraph *g)
{
	for (uint32_t s = 0; s < g->steps_count; s++)
		free(g->steps[s].nesting);
	free(g->steps);
	free(g->rec_step);
	memset(g, 0, sizeof(*g));
}

int64_t wpsim_fgraph_point(const struct wpsim_fgraph *g, int task,
			   const char *name, bool ret, unsigned occurrence)
{
	unsigned int seen = 0;

	for (size_t r = 0; r < g->recs_count; r++) {
		const struct wpsim_fn_record *x = &g->recs[r];

		if (x->task != task || x->ret != ret ||
		    g->rec_step[r] == UINT32_MAX ||
		    !wpsim_fn_name_match(x->name, name))
			continue;
		if (++seen == occurrence)
			return g->rec_step[r];
	}
	return -1;
}

int64_t wpsim_fgraph_task_step_after(const struct wpsim_fgraph *g, int task,
				     int64_t step, unsigned n)
{
	for (uint32_t s = (uint32_t)(step + 1); s < g->steps_count; s++)
		if (g->steps[s].task == task && --n == 0)
			return s;
	return -1;
}
