// SPDX-License-Identifier: MIT
/*
 * tests/review/test_claims.c - the happens-before order a claim is
 * checked against (tools/wpsim/claims.c) is the engine's: a claim's
 * proof ("no execution honours it") considers every linearisation of
 * each trace DPOR explores, and is sound only if those linearisations
 * are executions of the same Mazurkiewicz trace.  So: explore model
 * scenarios with DPOR (lock-aware reduction off, as claims do), take
 * for each execution the linearisation of its trace that switches tasks
 * whenever it can (the farthest from the order run), replay it, and
 * compare sim_exec_trace_hash (the engine's ordered pairs of dependent
 * steps).  A dependency the claims' relation lacked would reorder two
 * dependent steps: another trace, or a divergence.  Executions that end
 * in a failure are compared by outcome only, and a replay that a
 * counter check stops (invariant 1: commuting adds and subtractions
 * reordered take a counter below zero) is counted apart: checks between
 * commuting steps see states the order run did not (docs/architecture.md,
 * "What DPOR does not cover"); a claim's witness is replayed for that
 * reason.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "sim/explore.h"
#include "sim/strategy.h"
#include "tools/wpsim/claims.h"
#include "tools/wpsim/fgraph.h"

#define RUNS_MAX	400

struct run {
	char *schedule;
	uint64_t trace;
	enum sim_failure_kind kind;
};

struct collect {
	struct run runs[RUNS_MAX];
	size_t count;
};

static void on_execution(void *ctx, const struct sim_outcome *o)
{
	struct collect *c = ctx;
	struct wpsim_fgraph g;

	if (c->count == RUNS_MAX)
		return;
	wpsim_fgraph_build(&g, o->steps);
	c->runs[c->count] = (struct run){
		.schedule = wpsim_claims_linearise(&g, o->kind != SIM_OK,
						   NULL, NULL, 0, true),
		.trace = sim_exec_trace_hash(),
		.kind = o->kind,
	};
	c->count++;
	wpsim_fgraph_free(&g);
}

static void check_scenario(const char *file, const char *key,
			   const char *value)
{
	struct wpsim_scenario *sc = wpsim_scenario_load(file, stderr);
	struct wpsim_variant v;
	struct wpsim_exec *x = calloc(1, sizeof(*x));
	struct collect *c = calloc(1, sizeof(*c));
	struct sim_explore_options eo = { 0 };
	struct sim_explore_result res;
	struct sim_strategy s;
	size_t same = 0, failing = 0, failing_same = 0, commuting = 0;

	cr_assert_not_null(sc, "%s", file);
	cr_assert(x && c);
	v = sc->defaults;
	if (key) {
		int k = wpsim_variant_key_find(key);

		cr_assert_geq(k, 0);
		v.value[k] = (size_t)wpsim_variant_value_find((size_t)k,
							      value);
	}
	wpsim_exec_init(x, sc, &v);
	cr_assert_eq(sim_strategy_dpor(&s), 0);
	sim_dpor_set_lock_aware(&s, false);
	eo.exec.steps_max = sc->steps_max;
	eo.on_execution = on_execution;
	eo.ctx = c;
	eo.executions_max = RUNS_MAX;
	sim_explore(&x->program, &s, &eo, &res);
	cr_assert_gt(c->count, 0);
	for (size_t i = 0; i < c->count; i++) {
		struct sim_exec_options exec = { .keep_log = true,
						  .steps_max = sc->steps_max };
		struct sim_outcome o;

		cr_assert_not_null(c->runs[i].schedule, "%s: execution %zu: "
				   "no linearisation of its own trace", file,
				   i);
		sim_replay(&x->program, c->runs[i].schedule, &exec, &o);
		cr_assert_neq(o.kind, SIM_FAIL_DIVERGED, "%s: execution %zu: "
			      "%s diverged: %s", file, i, c->runs[i].schedule,
			      o.message);
		if (c->runs[i].kind == SIM_OK && o.kind == SIM_FAIL_INVARIANT &&
		    strstr(o.message, "invariant 1:")) {
			/* A counter the reordered adds took below zero: a
			 * check between commuting steps, not a dependency. */
			commuting++;
		} else if (c->runs[i].kind == SIM_OK) {
			cr_assert_eq(sim_exec_trace_hash(), c->runs[i].trace,
				     "%s: execution %zu: %s is another trace",
				     file, i, c->runs[i].schedule);
			cr_assert_eq(o.kind, SIM_OK);
			same++;
		} else {
			failing++;
			failing_same += o.kind == c->runs[i].kind;
		}
		free(c->runs[i].schedule);
	}
	cr_log_info("%s: %zu executions replayed as the same trace; %zu "
		    "stopped by a counter check between commuting adds; %zu "
		    "failing, %zu of them with the same outcome", file, same,
		    commuting, failing, failing_same);
	cr_assert_gt(same, c->count / 2);
	sim_explore_result_fini(&res);
	sim_strategy_fini(&s);
	wpsim_exec_fini(x);
	wpsim_scenario_free(sc);
	free(x);
	free(c);
}

Test(claims, linearisations_replay_to_the_same_trace, .timeout = 300)
{
	check_scenario(WPSIM_SOURCE_DIR
		       "/scenarios/dontcache/sashiko-double-count.litmus",
		       "dontcache", "v12");
	/* Failing executions: the dirtier opens several failures. */
	check_scenario(WPSIM_SOURCE_DIR
		       "/scenarios/dontcache/sashiko-double-count.litmus",
		       "break", "clear_dirty_no_mkclean");
	check_scenario(WPSIM_SOURCE_DIR
		       "/scenarios/dontcache/adjacent-records.litmus",
		       NULL, NULL);
	check_scenario(WPSIM_SOURCE_DIR
		       "/scenarios/mm/fsync-vs-appender-livelock.litmus",
		       NULL, NULL);
	check_scenario(WPSIM_SOURCE_DIR
		       "/scenarios/ext4/unaligned-zeroing-race.litmus",
		       NULL, NULL);
	check_scenario(WPSIM_SOURCE_DIR
		       "/scenarios/io_uring/nowait-vs-writeback.litmus",
		       NULL, NULL);
}
