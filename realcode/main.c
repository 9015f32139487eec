// SPDX-License-Identifier: MIT
/*
 * realcode/main.c - wpsim-realcode: run real kernel code under the
 * engine's strategies.
 *
 *   wpsim-realcode list
 *   wpsim-realcode check PROGRAM [--strategy dpor|dfs|pct|random]
 *        [--seed N] [--executions N] [--depth D] [--steps N]
 *        [--no-prove-rcu] [--races] [--outcomes]
 *   wpsim-realcode run PROGRAM --schedule S [--explain] [--no-prove-rcu]
 *
 * Exit: 0 no failure and the search complete, 1 a failure found, 2 bad
 * usage, 3 no failure but the search incomplete (not decided).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "realcode/programs.h"
#include "realcode/rt.h"
#include "sim/explore.h"
#include "sim/lockdep.h"
#include "sim/strategy.h"

static int usage(const char *msg)
{
	fprintf(stderr, "wpsim-realcode: %s\n"
		"usage: wpsim-realcode list\n"
		"       wpsim-realcode check PROGRAM [--strategy dpor|dfs|pct|"
		"random] [--seed N]\n"
		"            [--executions N] [--depth D] [--steps N] "
		"[--no-prove-rcu] [--rcu-gp-from-call]\n"
		"            [--races] [--outcomes]\n"
		"       wpsim-realcode run PROGRAM --schedule S [--explain] "
		"[--no-prove-rcu]\n", msg);
	return 2;
}

static bool number(const char *s, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 10);
	return s[0] && !*end && !errno;
}

/* Outcome sets: distinct final states with counts. */
#define OUTCOMES_MAX 4096
static struct { char *text; uint64_t n; } outcomes[OUTCOMES_MAX];
static uint32_t noutcomes;
static bool outcomes_overflow;

static void on_execution(void *ctx, const struct sim_outcome *o)
{
	(void)ctx;
	if (o->pruned || o->kind != SIM_OK)
		return;
	for (uint32_t i = 0; i < noutcomes; i++)
		if (!strcmp(outcomes[i].text, rc_outcome)) {
			outcomes[i].n++;
			return;
		}
	if (noutcomes == OUTCOMES_MAX) {
		outcomes_overflow = true;
		return;
	}
	outcomes[noutcomes].text = strdup(rc_outcome);
	outcomes[noutcomes++].n = 1;
}

static int cmp_outcome(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
	const char *strategy = "dpor", *schedule = NULL;
	uint64_t seed = 1, executions = 0, depth = 3, steps = 20000;
	bool explain = false, races = false, show_outcomes = false;
	const struct rc_program *p;
	struct sim_exec_options eo = { 0 };
	struct sim_strategy s;
	struct sim_explore_options xo = { 0 };
	struct sim_explore_result res;
	char replay[256];
	struct timespec t0, t1;
	double secs;
	int i;

	if (argc < 2)
		return usage("a command is needed");
	if (!strcmp(argv[1], "list")) {
		const struct rc_program *const *tables[] = { rc_xa_programs,
							     rc_rwsem_programs };

		for (size_t t = 0; t < 2; t++)
			for (const struct rc_program *const *q = tables[t]; *q;
			     q++)
				printf("%-22s %s (expect: %s)\n", (*q)->prog.name,
				       (*q)->prog.description, (*q)->expect);
		return 0;
	}
	if (strcmp(argv[1], "check") && strcmp(argv[1], "run"))
		return usage("unknown command");
	if (argc < 3)
		return usage("a program name is needed (wpsim-realcode list)");
	p = rc_program_find(argv[2]);
	if (!p)
		return usage("no such program (wpsim-realcode list)");
	for (i = 3; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--no-prove-rcu")) {
			rc_prove_rcu = false;
		} else if (!strcmp(a, "--rcu-gp-from-call")) {
			rc_rcu_gp_from_call = true;
		} else if (!strcmp(a, "--races")) {
			races = true;
		} else if (!strcmp(a, "--explain")) {
			explain = true;
		} else if (!strcmp(a, "--outcomes")) {
			show_outcomes = true;
		} else if (!v) {
			return usage("an option needs a value");
		} else if (!strcmp(a, "--strategy")) {
			strategy = v, i++;
		} else if (!strcmp(a, "--schedule")) {
			schedule = v, i++;
		} else if (!strcmp(a, "--seed")) {
			if (!number(v, &seed))
				return usage("--seed: expected a number");
			i++;
		} else if (!strcmp(a, "--executions")) {
			if (!number(v, &executions))
				return usage("--executions: expected a number");
			i++;
		} else if (!strcmp(a, "--depth")) {
			if (!number(v, &depth) || !depth ||
			    depth > SIM_PCT_DEPTH_MAX)
				return usage("--depth: expected 1..8");
			i++;
		} else if (!strcmp(a, "--steps")) {
			if (!number(v, &steps) || !steps ||
			    steps > SIM_STEPS_LIMIT)
				return usage("--steps: expected 1..65536");
			i++;
		} else {
			return usage("unknown option");
		}
	}
	sim_race_enable(races);
	rc_symbols_install();
	eo.steps_max = (uint32_t)steps;
	snprintf(replay, sizeof(replay), "%s run %s%s%s%s",
		 strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0],
		 p->prog.name, rc_prove_rcu ? "" : " --no-prove-rcu",
		 rc_rcu_gp_from_call ? " --rcu-gp-from-call" : "",
		 races ? " --races" : "");

	if (!strcmp(argv[1], "run")) {
		struct sim_outcome o;

		if (!schedule)
			return usage("run needs --schedule S");
		eo.keep_log = true;
		if (explain) {
			sim_replay(&p->prog, schedule, &eo, &o);
			if (o.kind != SIM_FAIL_DIVERGED || o.steps)
				rc_print_log(stdout);
		} else {
			uint16_t *ch = calloc(SIM_STEPS_LIMIT, sizeof(*ch));
			uint32_t n;
			const char *err;

			if (!ch || sim_schedule_parse(schedule, ch,
						      SIM_STEPS_LIMIT, &n,
						      &err) < 0) {
				fprintf(stderr, "wpsim-realcode: --schedule: %s\n",
					ch ? err : "out of memory");
				free(ch);
				return 2;
			}
			sim_strategy_replay(&s, ch, n);
			sim_exec_run(&p->prog, &s, &eo, &o);
			free(ch);
		}
		if (o.kind == SIM_OK) {
			printf("%s: ok, %" PRIu64 " steps\nfinal: %s\n", p->prog.name,
			       o.steps, rc_outcome);
			return 0;
		}
		printf("%s: %s after %" PRIu64 " steps: %s\n", p->prog.name,
		       sim_failure_kind_name(o.kind), o.steps, o.message);
		return 1;
	}

	if (!strcmp(strategy, "dpor"))
		sim_strategy_dpor(&s);
	else if (!strcmp(strategy, "dfs"))
		sim_strategy_dfs(&s, -1);
	else if (!strcmp(strategy, "pct"))
		sim_strategy_pct(&s, seed, executions ? executions : 1000,
				 (uint32_t)depth);
	else if (!strcmp(strategy, "random"))
		sim_strategy_random(&s, seed, executions ? executions : 1000);
	else
		return usage("--strategy: expected dpor, dfs, pct or random");
	xo.exec = eo;
	xo.stop_on_failure = true;
	xo.verify_determinism = true;
	xo.executions_max = executions;
	xo.on_execution = on_execution;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	sim_explore(&p->prog, &s, &xo, &res);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) +
	       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("%s: %s, %" PRIu64 " executions (%" PRIu64 " redundant), "
	       "%" PRIu64 " steps, %.0f executions/s, %s\n", p->prog.name,
	       strategy, res.executions, res.pruned, res.steps,
	       secs > 0 ? (double)(res.executions + res.pruned) / secs : 0.0,
	       res.first.found ? "FAILED" :
	       res.complete ? "no failure, exhaustive" :
	       "no failure, not decided (incomplete)");
	if (!res.determinism_ok && res.determinism_checked)
		printf("ENGINE BUG: nondeterministic replay\n");
	if (show_outcomes && !res.first.found) {
		char **t = malloc(noutcomes * sizeof(*t) + 1);

		for (uint32_t k = 0; k < noutcomes; k++)
			t[k] = outcomes[k].text;
		qsort(t, noutcomes, sizeof(*t), cmp_outcome);
		printf("%u distinct final states%s:\n", noutcomes,
		       outcomes_overflow ? " (more not kept)" : "");
		for (uint32_t k = 0; k < noutcomes; k++)
			printf("  %s\n", t[k]);
		free(t);
	}
	if (res.first.found) {
		printf("first failure at execution %" PRIu64 "\n",
		       res.first.execution + 1);
		sim_report_failure(stdout, &p->prog, &s, &res.first, replay, 12);
	}
	{
		int rc = res.first.found ? 1 : res.complete ? 0 : 3;

		sim_explore_result_fini(&res);
		sim_strategy_fini(&s);
		return rc;
	}
}
