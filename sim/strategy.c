// SPDX-License-Identifier: MIT
/*
 * sim/strategy.c - replay, random and PCT scheduling strategies.
 *
 * Models: nothing of the kernel.
 *
 * replay: follows a schedule string; past its end it takes the default
 *   choice (keep running the current task, else the lowest enabled id),
 *   which is why printed schedules can be trimmed after their last
 *   non-default choice.
 * random: a uniform choice among enabled tasks at every step, from a
 *   splitmix64 generator.  Execution i runs with its own seed, printed on
 *   failure, so "--seed S --executions 1" replays it.
 * PCT: Burckhardt, Kothari, Musuvathi, Nagarakatte, "A Randomized
 *   Scheduler with Probabilistic Guarantees of Finding Bugs", ASPLOS 2010.
 *   Random distinct priorities >= d; d-1 change points drawn from the
 *   estimated step count; at change point j the running task drops to
 *   priority j.  Finds a bug of depth d with probability >= 1/(n k^(d-1)).
 *
 * Leaves out: PCT's extension to asynchronous events (events get a random
 * priority when posted, like tasks).
 */
#include "sim/strategy.h"

#include <stdlib.h>
#include <string.h>

uint64_t sim_rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int nth_enabled(uint64_t enabled, unsigned int n)
{
	for (;;) {
		int bit = __builtin_ctzll(enabled);

		if (n-- == 0)
			return bit;
		enabled &= enabled - 1;
	}
}

/* ---- replay ------------------------------------------------------------- */

static int replay_choose(struct sim_strategy *s, const struct sim_choice *c)
{
	if (c->step < s->replay_count)
		return s->replay[c->step];
	return sim_choice_default(c);
}

static bool replay_next(struct sim_strategy *s, const struct sim_outcome *o)
{
	(void)o;
	s->executions++;
	s->complete = true;
	return false;
}

static const struct sim_strategy_ops replay_ops = {
	.name = "replay",
	.choose = replay_choose,
	.next = replay_next,
};

void sim_strategy_replay(struct sim_strategy *s, const uint16_t *choices,
			 uint32_t count)
{
	memset(s, 0, sizeof(*s));
	s->ops = &replay_ops;
	s->kind = SIM_STRATEGY_REPLAY;
	s->replay = choices;
	s->replay_count = count;
	s->executions_max = 1;
}

/* ---- random ------------------------------------------------------------- */

static void seeded_begin(struct sim_strategy *s)
{
	s->rng = s->exec_seed;
}

static int random_choose(struct sim_strategy *s, const struct sim_choice *c)
{
	unsigned int n = (unsigned int)__builtin_popcountll(c->enabled);

	return nth_enabled(c->enabled, (unsigned int)(sim_rng_next(&s->rng) % n));
}

static bool seeded_next(struct sim_strategy *s, const struct sim_outcome *o)
{
	(void)o;
	s->executions++;
	if (s->executions >= s->executions_max)
		return false;
	/* Each execution's seed follows from the previous one only. */
	s->exec_seed = sim_rng_next(&s->exec_seed);
	return true;
}

static const struct sim_strategy_ops random_ops = {
	.name = "random",
	.begin = seeded_begin,
	.choose = random_choose,
	.next = seeded_next,
};

void sim_strategy_random(struct sim_strategy *s, uint64_t seed,
			 uint64_t executions)
{
	memset(s, 0, sizeof(*s));
	s->ops = &random_ops;
	s->kind = SIM_STRATEGY_RANDOM;
	s->seed = seed;
	s->exec_seed = seed;
	s->executions_max = executions ? executions : 1;
}

/* ---- PCT ---------------------------------------------------------------- */

static void pct_begin(struct sim_strategy *s)
{
	uint32_t k = s->pct_steps_estimate ? s->pct_steps_estimate : 64;

	s->rng = s->exec_seed;
	for (int i = 0; i < SIM_TASKS_MAX; i++)
		s->pct_priority[i] = -1;	/* drawn when first seen */
	for (uint32_t j = 0; j + 1 < s->pct_depth; j++)
		s->pct_change_steps[j] = 1 + (uint32_t)(sim_rng_next(&s->rng) % k);
}

static int pct_choose(struct sim_strategy *s, const struct sim_choice *c)
{
	int best = -1;

	for (uint32_t i = 0; i < c->task_count; i++)
		if (s->pct_priority[i] < 0)
			s->pct_priority[i] = (int32_t)s->pct_depth +
				(int32_t)(sim_rng_next(&s->rng) % 1000000);
	for (uint32_t j = 0; j + 1 < s->pct_depth; j++)
		if (c->step == s->pct_change_steps[j] && c->current >= 0)
			s->pct_priority[c->current] = (int32_t)j + 1;
	for (uint32_t i = 0; i < c->task_count; i++) {
		if (!(c->enabled & (1ULL << i)))
			continue;
		if (best < 0 || s->pct_priority[i] > s->pct_priority[best])
			best = (int)i;
	}
	return best;
}

static bool pct_next(struct sim_strategy *s, const struct sim_outcome *o)
{
	if (o->steps > s->pct_steps_estimate)
		s->pct_steps_estimate = o->steps;
	return seeded_next(s, o);
}

static const struct sim_strategy_ops pct_ops = {
	.name = "pct",
	.begin = pct_begin,
	.choose = pct_choose,
	.next = pct_next,
};

void sim_strategy_pct(struct sim_strategy *s, uint64_t seed,
		      uint64_t executions, uint32_t depth)
{
	memset(s, 0, sizeof(*s));
	s->ops = &pct_ops;
	s->kind = SIM_STRATEGY_PCT;
	s->seed = seed;
	s->exec_seed = seed;
	s->executions_max = executions ? executions : 1;
	if (depth < 1)
		depth = 1;
	if (depth > SIM_PCT_DEPTH_MAX)
		depth = SIM_PCT_DEPTH_MAX;
	s->pct_depth = depth;
}

void sim_strategy_fini(struct sim_strategy *s)
{
	free(s->nodes);
	s->nodes = NULL;
	sim_dpor_free(s->dpor);
	s->dpor = NULL;
}
