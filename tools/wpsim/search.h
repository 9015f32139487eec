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

#include "sim/dpor.h"
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
	bool dpor;		/* of DPOR's tree, else of the unreduced one */
	/* DPOR: the sample's executions (redundant ones included), the
	 * fraction of the tree it covered, whether it covered all. */
	uint64_t executions;
	double fraction;
	bool complete;
	struct sim_dpor_estimate d;	/* all of DPOR's (the interval) */
};

struct wpsim_compare {
	uint64_t executions;
	bool complete;
	double seconds;
};

/*
 * An estimate, printed on @out (NULL: not printed): with @dpor, of the
 * executions (plus redundant ones) DPOR within @bound runs, from a sample
 * of @probes of them (sim_dpor_estimate); else Knuth's of @p's unreduced
 * schedule tree from @probes random walks.
 */
void wpsim_estimate(FILE *out, const char *prefix,
		    const struct sim_program *p,
		    const struct sim_exec_options *exec, uint32_t probes,
		    bool dpor, int64_t bound, struct wpsim_estimate *e);

/* The estimate's line, without prefix and newline. */
void wpsim_estimate_print(FILE *out, const struct wpsim_estimate *e);

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
