// SPDX-License-Identifier: MIT
/*
 * tools/wpsim/search.c - `wpsim check`'s search options (--estimate,
 * --compare-dfs, --shrink) printed the same way for built-in programs
 * and scenarios.  The algorithms are in sim/search.c and sim/dpor.c; this
 * file only runs them and prints.  Models nothing of the kernel.
 */
#include "tools/wpsim/search.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void wpsim_estimate(FILE *out, const char *prefix,
		    const struct sim_program *p,
		    const struct sim_exec_options *exec, uint32_t probes,
		    bool dpor, int64_t bound, struct wpsim_estimate *e)
{
	memset(e, 0, sizeof(*e));
	if (dpor) {
		struct sim_dpor_estimate d;

		sim_dpor_estimate(p, exec, bound, probes, &d);
		e->mean = d.mean;
		e->fraction = d.fraction;
		e->complete = d.complete;
		e->executions = d.executions;
		e->dpor = true;
		e->d = d;
	} else {
		sim_estimate(p, exec, probes, 1, &e->mean,
			     &e->relative_error);
	}
	e->probes = probes;
	if (out) {
		fputs(prefix, out);
		wpsim_estimate_print(out, e);
		fputc('\n', out);
	}
}

void wpsim_estimate_print(FILE *out, const struct wpsim_estimate *e)
{
	const struct sim_dpor_estimate *d = &e->d;

	if (e->dpor && e->complete)
		fprintf(out, "Estimate: %" PRIu64 " DPOR executions, redundant "
			"ones included (exact: the sample of %u covered the "
			"tree)", e->executions, e->probes);
	else if (e->dpor && d->items_run)
		fprintf(out, "Estimate: ~%.3g DPOR executions, redundant "
			"ones included, at least %" PRIu64 " (the sample of "
			"that many did not end); Knuth's estimate over the top "
			"of the tree from %u of its %u subtrees (%u cut, each "
			"counted by the share of it done%s), %" PRIu64
			" executions more; no interval", e->mean, e->executions,
			d->items_run, d->items, d->items_cut,
			d->items_expanded ? "; the top runs every order of "
			"lock sections" : "", d->item_executions);
	else if (e->dpor)
		fprintf(out, "Estimate: ~%.3g DPOR executions, redundant "
			"ones included (weighted backtrack estimator on "
			"DPOR's tree after a sample of %" PRIu64 ": %.3g%% of "
			"it by weight)", e->mean, e->executions,
			100.0 * e->fraction);
	else
		fprintf(out, "Estimate: ~%.3g schedules in the unreduced "
			"tree (Knuth, %u probes, standard error %.0f%%)",
			e->mean, e->probes, 100.0 * e->relative_error);
}

void wpsim_compare_dfs(FILE *out, const char *prefix,
		       const struct sim_program *p,
		       const struct sim_exec_options *exec, int64_t bound,
		       uint64_t cap, uint64_t dpor_executions,
		       bool dpor_complete, struct wpsim_compare *c)
{
	struct sim_explore_options opt = { .exec = *exec,
					   .executions_max = cap };
	struct sim_explore_result res;
	struct sim_strategy s;
	double t0 = now_seconds();

	if (sim_strategy_dfs(&s, bound) != 0) {
		fprintf(stderr, "wpsim: out of memory\n");
		exit(2);
	}
	sim_explore(p, &s, &opt, &res);
	c->executions = res.executions;
	c->complete = res.complete;
	c->seconds = now_seconds() - t0;
	sim_explore_result_fini(&res);
	sim_strategy_fini(&s);
	if (!out)
		return;
	if (!dpor_complete) {
		fprintf(out, "%sCompare: dfs %" PRIu64 " executions%s in "
			"%.2f s; dpor did not complete: no ratio\n", prefix,
			c->executions, c->complete ? "" :
			" (capped, not complete)", c->seconds);
		return;
	}
	fprintf(out, "%sCompare: dfs %" PRIu64 " executions%s in %.2f s; "
		"dpor %" PRIu64 ": %s%.1fx fewer\n", prefix, c->executions,
		c->complete ? "" : " (capped, not complete)", c->seconds,
		dpor_executions, c->complete ? "" : "at least ",
		dpor_executions ? (double)c->executions /
				  (double)dpor_executions : 0.0);
}

void wpsim_print_shrunk(FILE *out, const char *prefix,
			const struct sim_witness *from,
			const struct sim_witness *to, const char *replay)
{
	if (!to->found) {
		fprintf(out, "%sShrunk: no schedule with fewer preemptions "
			"or steps shows it (%u preemptions, %u steps)\n",
			prefix, sim_schedule_preemptions(from->choices,
							 from->enabled,
							 from->steps),
			from->steps);
		return;
	}
	fprintf(out, "%sShrunk: %u preemptions, %u steps (from %u, %u)\n",
		prefix, sim_schedule_preemptions(to->choices, to->enabled,
						 to->steps), to->steps,
		sim_schedule_preemptions(from->choices, from->enabled,
					 from->steps), from->steps);
	fprintf(out, "%s  schedule: %s\n", prefix, to->schedule);
	if (replay)
		fprintf(out, "%s  replay:   %s\n", prefix, replay);
}
