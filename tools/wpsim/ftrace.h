/* SPDX-License-Identifier: MIT */
/*
 * tools/wpsim/ftrace.h - the model's function graph per execution
 * (ftrace.c): calls and returns of km_ functions, each placed between
 * two steps of its task.
 */
#ifndef WPSIM_TOOLS_WPSIM_FTRACE_H
#define WPSIM_TOOLS_WPSIM_FTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One call or return of a km_ function by a task. */
struct wpsim_fn_record {
	uint32_t events;	/* events in the log when it happened: it
				 * follows the task's step that recorded the
				 * last of them, precedes its next step */
	uint16_t task;
	bool ret;		/* a return, else a call */
	const char *name;	/* "km_folio_clear_dirty_for_io" */
};

/* Record while true (set it around the executions to trace). */
extern bool wpsim_ftrace_on;
/* Empty the log (before each execution). */
void wpsim_ftrace_reset(void);
/* The log of the execution since the last reset, in order. */
size_t wpsim_ftrace_records(const struct wpsim_fn_record **out);
/* The km_ name of a function address, NULL if it is not one. */
const char *wpsim_ftrace_name(const void *fn);
/* Whether the model has the function "km_..." (its symbol is there). */
bool wpsim_ftrace_has_function(const char *km_name);
/* Whether km_ functions can be named (a symbol table is there). */
bool wpsim_ftrace_names_available(void);

/*
 * The plain wpsim runs a model without the hooks (they cost a search
 * 25-30%); wpsim-ftrace is the same command on the instrumented model.
 * A command that needs the function graph calls wpsim_ftrace_exec():
 * in wpsim it executes wpsim-ftrace (next to the running binary, else in
 * @wpsim_ftrace_libexec) with the same arguments and does not return;
 * it returns in wpsim-ftrace, or when that is not there (then function
 * names are not available and wpsim_ftrace_names_available() is false).
 */
extern bool wpsim_ftrace_instrumented;	/* set by wpsim-ftrace's main */
extern char **wpsim_ftrace_argv;
extern const char *wpsim_ftrace_libexec;
void wpsim_ftrace_exec(void);

#endif /* WPSIM_TOOLS_WPSIM_FTRACE_H */
