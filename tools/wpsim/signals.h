/* SPDX-License-Identifier: MIT */
/*
 * tools/wpsim/signals.h - how the long-running commands (`wpsim check`,
 * `wpsim fio`, `wpsim replay`) stop on SIGINT and SIGTERM and still print
 * what they found (internal to tools/wpsim).
 *
 * The first SIGINT or SIGTERM asks for a stop: the command finishes the
 * execution, I/O or traced call in progress, then prints its report of
 * what ran and exits 3 (not decided, incomplete).  More signals within
 * WPSIM_STOP_REPEAT_NS of the first are the same request: GNU timeout(1)
 * signals wpsim and then wpsim's process group, and a terminal's ^C
 * reaches every process of the group, so one stop often arrives twice or
 * more at once.  A signal after that window ends wpsim at once (the
 * default action), the way out of a report that takes too long.
 */
#ifndef WPSIM_TOOLS_WPSIM_SIGNALS_H
#define WPSIM_TOOLS_WPSIM_SIGNALS_H

#include <stdbool.h>
#include <sys/types.h>

#define WPSIM_STOP_REPEAT_NS	1000000000LL
#define WPSIM_STOP_CHILDREN_MAX	256	/* --jobs at most (main.c JOBS_MAX) */

/* Install the handler for SIGINT and SIGTERM (idempotent). */
void wpsim_stop_install(void);

/* The stop signal received (SIGINT or SIGTERM), 0 if none. */
int wpsim_stop_signal(void);

/* "SIGINT" or "SIGTERM" for the signal received, "" if none. */
const char *wpsim_stop_signal_name(void);

/*
 * A `wpsim check --jobs` child: it keeps the handler, so any number of
 * signals ends its search in a report; it passes nothing on.
 */
extern bool wpsim_stop_in_child;

/*
 * The children a signal sent to the parent alone (kill(1), SI_USER) is
 * passed on to; one from the terminal or timeout(1)'s to the group
 * reaches them already.
 */
void wpsim_stop_child_add(pid_t pid);
void wpsim_stop_child_remove(pid_t pid);

#endif /* WPSIM_TOOLS_WPSIM_SIGNALS_H */
