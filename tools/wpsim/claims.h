/* SPDX-License-Identifier: MIT */
/*
 * tools/wpsim/claims.h - scenarios with a claim (claims.c) and
 * `wpsim where FUNCTION` (where.c).
 */
#ifndef WPSIM_TOOLS_WPSIM_CLAIMS_H
#define WPSIM_TOOLS_WPSIM_CLAIMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tools/wpsim/scenario.h"

/*
 * Check every scenario of @scs[0..*n) that has a claim, print its
 * reports, and take it out of the array (*n shrinks; the others keep
 * their order).  Returns the worst exit code (EXIT_CLEAN when none had a
 * claim).
 */
int wpsim_claims_check(struct wpsim_scenario **scs, size_t *n,
		       const struct wpsim_opts *opts);
/* The claims of @scs[0..n) and the options they run with, checked before
 * anything runs: EXIT_CLEAN, or EXIT_USAGE after errors on stderr. */
int wpsim_claims_validate(struct wpsim_scenario *const *scs, size_t n,
			  const struct wpsim_opts *opts);

/* The variants `check` runs @sc under (--variant, else one per expect
 * line); @pairs holds LITMUS_EXPECTS_MAX + 1.  Returns how many. */
size_t wpsim_claims_variants(const struct wpsim_scenario *sc,
			     const struct wpsim_opts *opts,
			     struct wpsim_variant *pairs);

/*
 * A schedule of a linearisation of the last execution's trace (@g, its
 * steps; @failed: it ended in a failure) with the extra edges
 * @from[i] -> @to[i] (steps), or NULL when the edges close a cycle.
 * Keeps the running task when it can, or with @switch_tasks (the tests)
 * leaves it whenever another step is ready.  malloc'ed.
 */
struct wpsim_fgraph;
char *wpsim_claims_linearise(const struct wpsim_fgraph *g, bool failed,
			     const int64_t *from, const int64_t *to,
			     size_t edges, bool switch_tasks);

/* wpsim where FUNCTION [FILE.litmus|DIR]... (argv after "where"). */
int wpsim_where_main(int argc, char **argv);

#endif /* WPSIM_TOOLS_WPSIM_CLAIMS_H */
