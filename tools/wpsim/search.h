/* SPDX-License-Identifier: MIT */
/*
 * tools/wpsim/search.h - the search options `wpsim check` shares between
 * built-in programs and scenarios: --estimate, --compare-dfs, --shrink.
 */
#ifndef WPSIM_TOOLS_WPSIM_SEARCH_H
#define WPSIM_TOOLS_WPSIM_SEARCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/search.h"

/* DFS runs at most this many executions for --compare-dfs by default. */
#define WPSIM_COMPARE_DFS_CAP	1000000
/* --shrink: executions per preemption bound. */
#define WPSIM_SHRINK_PER_BOUND	200000
/* --iterative without --preemptions: the highest bound tried before
 * the unbounded run. */
#define WPSIM_ITERATIVE_MAX	2

struct wpsim_estimate {
	double mean;
	double relative_error;
	uint32_t probes;
};

struct wpsim_compare {
	uint64_t executions;
	bool complete;
	double seconds;
};

/* Knuth's estimate of @p's unreduced schedule tree, printed on @out. */
void wpsim_estimate(FILE *out, const char *prefix,
		    const struct sim_program *p,
		    const struct sim_exec_options *exec, uint32_t probes,
		    struct wpsim_estimate *e);

/*
 * Run DFS with preemption bound @bound (< 0: none), at most @cap
 * executions, and print its count against DPOR's @dpor_executions (no
 * ratio unless DPOR completed).
 */
void wpsim_compare_dfs(FILE *out, const char *prefix,
		       const struct sim_program *p,
		       const struct sim_exec_options *exec, int64_t bound,
		       uint64_t cap, uint64_t dpor_executions,
		       bool dpor_complete, struct wpsim_compare *c);

/* Print a shrunk witness against the original. */
void wpsim_print_shrunk(FILE *out, const char *prefix,
			const struct sim_witness *from,
			const struct sim_witness *to, const char *replay);

#endif
