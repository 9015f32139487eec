// SPDX-License-Identifier: MIT
/*
 * sim/search.c - counterexample shrinking, iterative preemption
 * deepening, and Knuth's state-space estimate.
 *
 * Models nothing of the kernel.
 *
 * Shrinking follows the idea of preemption-bounded search (Musuvathi and
 * Qadeer, PLDI'07): most bugs need few preemptions, so searching bounds
 * 0, 1, 2, ... finds the witness with the fewest preemptions first; within
 * that bound the shortest matching execution is kept.
 *
 * The estimate is Knuth's (Math. Comp. 1975) as GenMC uses it: a random
 * walk down the schedule tree, multiplying the branching factors, is an
 * unbiased estimate of the number of leaves.
 *
 * Bounded runs (shrinking, iterative deepening) use DPOR with a
 * preemption bound (sim/dpor.c).
 *
 * The estimate of DPOR's own tree, from a sample of its executions, is
 * sim_dpor_estimate in sim/dpor.c.
 */
#include "sim/search.h"
#include "sim/dpor.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

bool sim_outcome_matches(const struct sim_outcome *o,
			 const struct sim_outcome *want)
{
	const char *a = o->message, *b = want->message;

	if (o->kind != want->kind)
		return false;
	for (;;) {
		while (isdigit((unsigned char)*a))
			a++;
		while (isdigit((unsigned char)*b))
			b++;
		if (*a != *b)
			return false;
		if (!*a)
			return true;
		a++;
		b++;
	}
}

void sim_witness_fini(struct sim_witness *w)
{
	free(w->choices);
	free(w->enabled);
	free(w->schedule);
	memset(w, 0, sizeof(*w));
}

static void *xmemdup(const void *p, size_t bytes)
{
	void *q = malloc(bytes ? bytes : 1);

	if (!q) {
		fprintf(stderr, "wpsim: out of memory\n");
		exit(2);
	}
	memcpy(q, p, bytes);
	return q;
}

static void take(struct sim_witness *w, const struct sim_outcome *o,
		 uint64_t execution)
{
	const uint16_t *choices;
	uint32_t steps = sim_exec_schedule(&choices);

	sim_witness_fini(w);
	w->found = true;
	w->outcome = *o;
	w->steps = steps;
	w->choices = xmemdup(choices, steps * sizeof(*choices));
	w->enabled = xmemdup(sim_exec_enabled_sets(),
			     steps * sizeof(*w->enabled));
	w->schedule = sim_exec_schedule_string();
	w->execution = execution;
}

static bool same_violation(void *ctx, const struct sim_outcome *o)
{
	const struct sim_witness *witness = ctx;

	return o->kind != SIM_OK && sim_outcome_matches(o, &witness->outcome);
}

bool sim_shrink(const struct sim_program *program,
		const struct sim_witness *witness,
		const struct sim_exec_options *exec,
		uint64_t executions_per_bound, struct sim_witness *shrunk)
{
	return sim_shrink_where(program, witness, exec, executions_per_bound,
				same_violation, (void *)witness, shrunk);
}

bool sim_shrink_where(const struct sim_program *program,
		      const struct sim_witness *witness,
		      const struct sim_exec_options *exec,
		      uint64_t executions_per_bound,
		      bool (*match)(void *ctx, const struct sim_outcome *o),
		      void *ctx, struct sim_witness *shrunk)
{
	uint32_t have = sim_schedule_preemptions(witness->choices,
						 witness->enabled,
						 witness->steps);

	memset(shrunk, 0, sizeof(*shrunk));
	for (uint32_t bound = 0; bound <= have; bound++) {
		struct sim_strategy s;
		struct sim_outcome o;
		uint64_t n = 0;
		bool more = true;

		if (sim_strategy_dpor_bounded(&s, bound) != 0)
			return false;
		while (more && n < executions_per_bound) {
			sim_exec_run(program, &s, exec, &o);
			n++;
			if (match(ctx, &o) &&
			    (!shrunk->found || o.steps < shrunk->steps))
				take(shrunk, &o, n - 1);
			more = s.ops->next(&s, &o);
		}
		sim_strategy_fini(&s);
		if (shrunk->found)
			break;
	}
	if (!shrunk->found)
		return false;
	if (sim_schedule_preemptions(shrunk->choices, shrunk->enabled,
				     shrunk->steps) < have ||
	    shrunk->steps < witness->steps)
		return true;
	sim_witness_fini(shrunk);
	return false;
}

void sim_explore_iterative(const struct sim_program *program,
			   const struct sim_explore_options *options,
			   uint32_t max_bound, struct sim_explore_result *result,
			   uint32_t *bound_used)
{
	for (uint32_t bound = 0;; bound++) {
		struct sim_strategy s;

		sim_strategy_dpor_bounded(&s, bound);
		sim_explore(program, &s, options, result);
		sim_strategy_fini(&s);
		*bound_used = bound;
		if (result->failures || !result->bound_hit ||
		    bound == max_bound)
			return;
		sim_explore_result_fini(result);
	}
}

/* The estimator's strategy: random choices, product of branchings. */
struct estimate {
	struct sim_strategy base;
	double product;
};

static int estimate_choose(struct sim_strategy *s, const struct sim_choice *c)
{
	struct estimate *e = (struct estimate *)s;
	unsigned int n = (unsigned int)__builtin_popcountll(c->enabled);
	unsigned int pick = (unsigned int)(sim_rng_next(&s->rng) % n);
	uint64_t enabled = c->enabled;

	e->product *= n;
	while (pick--)
		enabled &= enabled - 1;
	return __builtin_ctzll(enabled);
}

static bool estimate_next(struct sim_strategy *s, const struct sim_outcome *o)
{
	(void)s;
	(void)o;
	return false;
}

static const struct sim_strategy_ops estimate_ops = {
	.name = "estimate",
	.choose = estimate_choose,
	.next = estimate_next,
};

void sim_estimate(const struct sim_program *program,
		  const struct sim_exec_options *exec, uint32_t probes,
		  uint64_t seed, double *mean, double *relative_error)
{
	double sum = 0, sum_sq = 0;
	uint64_t rng = seed;
	struct estimate e;
	struct sim_outcome o;

	if (probes == 0)
		probes = 1;
	for (uint32_t i = 0; i < probes; i++) {
		memset(&e, 0, sizeof(e));
		e.base.ops = &estimate_ops;
		e.base.rng = sim_rng_next(&rng);
		e.product = 1;
		sim_exec_run(program, &e.base, exec, &o);
		sum += e.product;
		sum_sq += e.product * e.product;
	}
	*mean = sum / probes;
	if (probes > 1 && *mean > 0) {
		double var = (sum_sq - sum * sum / probes) / (probes - 1);

		*relative_error = sqrt(var > 0 ? var : 0) / sqrt(probes) /
				  *mean;
	} else {
		*relative_error = 0;
	}
}
