/* SPDX-License-Identifier: MIT */
/*
 * tools/wpsim/claims.h - scenarios with a claim (claims.c) and
 * `wpsim where FUNCTION` (where.c).
 */
#ifndef WPSIM_TOOLS_WPSIM_CLAIMS_H
#define WPSIM_TOOLS_WPSIM_CLAIMS_H

#include <stddef.h>

#include "tools/wpsim/scenario.h"

/*
 * Check every scenario of @scs[0..*n) that has a claim, print its
 * reports, and take it out of the array (*n shrinks; the others keep
 * their order).  Returns the worst exit code (EXIT_CLEAN when none had a
 * claim).
 */
int wpsim_claims_check(struct wpsim_scenario **scs, size_t *n,
		       const struct wpsim_opts *opts);

/* The variants `check` runs @sc under (--variant, else one per expect
 * line); @pairs holds LITMUS_EXPECTS_MAX + 1.  Returns how many. */
size_t wpsim_claims_variants(const struct wpsim_scenario *sc,
			     const struct wpsim_opts *opts,
			     struct wpsim_variant *pairs);

/* wpsim where FUNCTION [FILE.litmus|DIR]... (argv after "where"). */
int wpsim_where_main(int argc, char **argv);

#endif /* WPSIM_TOOLS_WPSIM_CLAIMS_H */
