/* SPDX-License-Identifier: MIT */
/*
 * tools/wpsim/html.h - `wpsim run ... --html OUT.html` (html.c) and
 * `--emit-kunit OUT.c` (kunit.c): one replayed execution as a page and
 * as the skeleton of a kernel KUnit test.
 */
#ifndef WPSIM_TOOLS_WPSIM_HTML_H
#define WPSIM_TOOLS_WPSIM_HTML_H

#include <stddef.h>
#include <stdint.h>

#include "sim/engine.h"
#include "tools/wpsim/scenario.h"

/* What the state summary (trace.c) says changed in one step. */
struct wpsim_state_note {
	uint32_t step;
	const char *text;	/* lines, each ending in '\n' */
	size_t len;
};

struct wpsim_replayed {
	const struct wpsim_exec *x;
	const struct sim_outcome *o;
	const char *schedule;		/* trimmed */
	const char *replay;		/* the command that replays it */
	const char *final_state;	/* as run prints it */
	const char *condition;		/* "holds", "does not hold", ... */
	const char *initial;		/* the initial state summary */
	const struct wpsim_state_note *notes;
	size_t notes_count;
};

/* 0, or -1 after a message on stderr. */
int wpsim_html_write(const char *path, const struct wpsim_replayed *r);
int wpsim_kunit_write(const char *path, const struct wpsim_replayed *r);

#endif /* WPSIM_TOOLS_WPSIM_HTML_H */
