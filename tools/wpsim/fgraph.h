/* SPDX-License-Identifier: MIT */
/*
 * tools/wpsim/fgraph.h - one execution as steps with their kernel
 * function nesting (fgraph.c), from the engine's event log and schedule
 * and the function records of ftrace.c: what run --html, --emit-kunit,
 * `wpsim where` and claims read.
 */
#ifndef WPSIM_TOOLS_WPSIM_FGRAPH_H
#define WPSIM_TOOLS_WPSIM_FGRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tools/wpsim/ftrace.h"

#define WPSIM_FG_DEPTH_MAX	32

struct wpsim_fg_step {
	uint16_t task;
	uint32_t ev_first, ev_count;	/* its events in the log */
	uint32_t rec_first, rec_count;	/* calls/returns after its access */
	/* The km_ functions the task was in at the step's access,
	 * outermost first ("" when none); malloc'ed. */
	char *nesting;
	const char *innermost;		/* NULL when none */
	uint8_t depth;
};

struct wpsim_fgraph {
	struct wpsim_fg_step *steps;
	uint32_t steps_count;
	const struct wpsim_fn_record *recs;
	size_t recs_count;
	uint32_t *rec_step;		/* the step each record is in */
};

/* The last execution (its log, schedule and the ftrace records). */
void wpsim_fgraph_build(struct wpsim_fgraph *g, uint32_t steps);
void wpsim_fgraph_free(struct wpsim_fgraph *g);

/* "km_x" and "x" name the same function. */
bool wpsim_fn_name_match(const char *km_name, const char *name);

/*
 * The step of @task's @occurrence-th (1-based) call or return of
 * function @name, or -1 when it has none.
 */
int64_t wpsim_fgraph_point(const struct wpsim_fgraph *g, int task,
			   const char *name, bool ret, unsigned occurrence);
/* The @n-th step of @task after step @step, or -1. */
int64_t wpsim_fgraph_task_step_after(const struct wpsim_fgraph *g, int task,
				     int64_t step, unsigned n);
/* Task id of thread "Pn", or -1. */
int wpsim_thread_task(int thread);

#endif /* WPSIM_TOOLS_WPSIM_FGRAPH_H */
