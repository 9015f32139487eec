// SPDX-License-Identifier: MIT
/*
 * sim/dfs.c - depth-first search over all schedules, with an optional
 * preemption bound.
 *
 * Models: nothing of the kernel.  Stateless search (Godefroid, VeriSoft,
 * POPL'97): every execution starts from the initial state and replays a
 * prefix of choices from the node stack, then runs on with default
 * choices, recording one node per step.  Afterwards the deepest node with
 * an untried alternative in its backtrack set is advanced.
 *
 * Preemption bounding (Musuvathi and Qadeer, PLDI'07): a preemption is a
 * step that leaves a task that could have continued.  With bound K only
 * schedules with at most K preemptions are run; the default choice never
 * preempts, so K = 0 runs each task to its next blocking point.
 *
 * Here the backtrack set of a new node is its whole enabled set, which
 * makes the search exhaustive.  DPOR fills it from races instead.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/strategy.h"

static bool is_preemption(const struct sim_dfs_node *n, int chosen)
{
	return n->current >= 0 && chosen != n->current &&
	       (n->enabled & (1ULL << n->current));
}

static int dfs_choose(struct sim_strategy *s, const struct sim_choice *c)
{
	struct sim_dfs_node *n = &s->nodes[c->step];

	if (c->step < s->prefix)
		return n->chosen;
	n->enabled = c->enabled;
	n->current = (int16_t)c->current;
	n->chosen = (uint16_t)sim_choice_default(c);
	n->done = 1ULL << n->chosen;
	n->backtrack = c->enabled;
	if (c->step == 0) {
		n->preemptions = 0;
	} else {
		const struct sim_dfs_node *p = &s->nodes[c->step - 1];

		n->preemptions = p->preemptions + is_preemption(p, p->chosen);
	}
	s->depth = c->step + 1;
	return n->chosen;
}

static bool dfs_next(struct sim_strategy *s, const struct sim_outcome *o)
{
	s->executions++;
	s->depth = o->steps;
	for (uint32_t i = s->depth; i-- > 0;) {
		struct sim_dfs_node *n = &s->nodes[i];
		uint64_t todo = n->backtrack & n->enabled & ~n->done;

		while (todo) {
			int cand = __builtin_ctzll(todo);

			todo &= todo - 1;
			n->done |= 1ULL << cand;
			if (s->preemption_bound >= 0 &&
			    n->preemptions + is_preemption(n, cand) >
			    (uint64_t)s->preemption_bound) {
				s->bound_hit = true;
				continue;
			}
			n->chosen = (uint16_t)cand;
			s->prefix = i + 1;
			return true;
		}
	}
	s->complete = true;
	return false;
}

static const struct sim_strategy_ops dfs_ops = {
	.name = "dfs",
	.choose = dfs_choose,
	.next = dfs_next,
};

int sim_strategy_dfs(struct sim_strategy *s, int64_t preemption_bound)
{
	memset(s, 0, sizeof(*s));
	s->ops = &dfs_ops;
	s->kind = SIM_STRATEGY_DFS;
	s->preemption_bound = preemption_bound;
	s->nodes = calloc(SIM_STEPS_LIMIT, sizeof(*s->nodes));
	return s->nodes ? 0 : -1;
}
