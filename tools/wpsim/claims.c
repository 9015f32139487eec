// SPDX-License-Identifier: MIT
/*
 * tools/wpsim/claims.c - a claim turned into a verdict: a scenario's
 * `claim (a -> b, ...)` is a partial order on the schedule, by kernel
 * function call or return and by labelled statement
 * (docs/scenario-language.md, "Claims").  `wpsim check` answers it as
 * it answers the condition, over the executions that honour the claim:
 * a witness whose replay honours the claim and satisfies the condition,
 * a proof that none does (the search covered its space), or "not
 * decided" with what bounded the search.
 *
 * How.  DPOR explores one execution per Mazurkiewicz trace (with the
 * lock-aware reduction off: its classes are coarser than traces), and
 * the claim's points are mostly events of independent steps, whose order
 * the one explored linearisation fixes arbitrarily.  So each explored
 * execution E is not asked "does E honour the claim" but "does some
 * linearisation of E's trace": the steps of E with happens-before (each
 * task's program order, a spawn before the spawned task's first step,
 * and every pair of dependent steps in E's order, the dependency being
 * the engine's: one object, not both reads, not both commuting adds,
 * bits of a word and disjoint ranges apart; a failing last step depends
 * on every step that touched something) plus one edge per claim edge,
 * from the step of its first point to the step of its second, must be
 * acyclic.  A topological order of it (keeping the previous task when it
 * can) is the witness's schedule, replayed then and there: the replay's
 * own points must come in the claim's order and its own final state
 * satisfy the condition, or the candidate is not a witness ("did not
 * replay").  Each linearisation has E's final state, so the condition is
 * evaluated on E.
 *
 * What a proof rests on: DPOR's coverage of traces (docs/architecture.md;
 * its documented limit, checks between commuting steps, applies), and a
 * dependency relation no larger than the engine's (a larger one would
 * hide linearisations; a smaller one only yields candidates that the
 * replay rejects).  The points of a task in a trace are at the same
 * steps of that task in every linearisation: a task's steps depend only
 * on the values it reads, which the trace fixes.
 *
 * Left out: two points in one step of one task are taken as ordered as
 * written (the records order them; labels have none); claims on
 * device-completion pseudo-tasks (only P0..P15 are named).
 */
#include "tools/wpsim/claims.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/explore.h"
#include "sim/strategy.h"
#include "tools/wpsim/fgraph.h"
#include "tools/wpsim/ftrace.h"

#define CANDIDATES_MAX	8	/* linearisations kept to replay */

struct claims_run {
	struct wpsim_exec x;
	const struct litmus_claim *claim;
	const struct litmus_expect *expect;
	uint64_t index;			/* executions seen */
	uint64_t missing;		/* a point never happens */
	uint64_t cyclic;		/* no linearisation honours it */
	uint64_t positive, negative;	/* honouring, condition yes/no */
	uint64_t unmentioned;		/* honouring, outcome not asked */
	uint64_t eval_errors;
	char unmentioned_text[640];
	char *candidates[CANDIDATES_MAX];
	uint64_t candidate_exec[CANDIDATES_MAX];
	size_t candidates_count;
	char *negative_schedule;	/* first honouring negative */
	bool decided;			/* stop: more cannot change it */
	bool exhaustive;		/* --exhaustive: do not stop */
};

static void (*scenario_setup_fn)(void *config);

static void claims_setup(void *config)
{
	wpsim_ftrace_reset();
	scenario_setup_fn(config);
}

/* ---- points ---------------------------------------------------------------- */

static const struct litmus_stmt *label_stmt(const struct wpsim_scenario *sc,
					    const char *label, int *thread,
					    size_t *index)
{
	const struct litmus_scenario *scn = sc->scn;

	for (size_t t = 0; t < scn->threads_count; t++)
		for (size_t i = 0; i < scn->threads[t].stmts_count; i++)
			if (scn->threads[t].stmts[i].label &&
			    strcmp(scn->threads[t].stmts[i].label, label) == 0) {
				*thread = (int)t;
				*index = i;
				return &scn->threads[t].stmts[i];
			}
	return NULL;
}

/* The step of @pt in the last execution, or -1 if it did not happen. */
static int64_t point_step(const struct wpsim_exec *x,
			  const struct wpsim_fgraph *g,
			  const struct litmus_claim_point *pt)
{
	int thread = pt->thread;
	size_t index = 0;
	int64_t step = -1;
	int task;

	if (label_stmt(x->sc, pt->name, &thread, &index)) {
		const struct wpsim_thread *th = &x->sc->threads[thread];
		unsigned int seen = 0;

		for (size_t k = 0; k < th->runs; k++) {
			const struct wpsim_span *sp = &x->spans[thread][k];

			if (th->run_stmt[k] != index || ++seen != pt->occurrence)
				continue;
			if (pt->ret ? sp->done : sp->started)
				step = pt->ret ? sp->end_step : sp->start_step;
			break;
		}
	} else {
		step = wpsim_fgraph_point(g, wpsim_thread_task(thread),
					  pt->name, pt->ret, pt->occurrence);
	}
	task = wpsim_thread_task(thread);
	if (step >= 0 && pt->after)
		step = wpsim_fgraph_task_step_after(g, task, step, pt->after);
	return step;
}

/* Errors a claim can have that the parser cannot see. */
static int claim_validate(const struct wpsim_scenario *sc)
{
	const struct litmus_claim *c = sc->scn->claim;
	int bad = 0;

	for (size_t i = 0; i < 2 * c->edges_count; i++) {
		const struct litmus_claim_point *pt = i % 2 ?
			&c->edges[i / 2].to : &c->edges[i / 2].from;
		int thread = -1;
		size_t index;
		char km[80];

		if (label_stmt(sc, pt->name, &thread, &index)) {
			if (pt->thread >= 0 && pt->thread != thread) {
				fprintf(stderr, "%s:%u:%u: error: expected "
					"P%d (label '%s' is P%d's), found "
					"'P%d'\n", sc->path, pt->pos.line,
					pt->pos.col, thread, pt->name, thread,
					pt->thread);
				bad = 1;
			}
			continue;
		}
		if (pt->thread < 0) {
			fprintf(stderr, "%s:%u:%u: error: expected a label or "
				"Pn:%s(FUNCTION), found '%s' (no statement "
				"has that label)\n", sc->path, pt->pos.line,
				pt->pos.col, pt->ret ? "ret" : "call",
				pt->name);
			bad = 1;
			continue;
		}
		if ((size_t)pt->thread >= sc->threads_count) {
			fprintf(stderr, "%s:%u:%u: error: expected a thread "
				"P0..P%zu, found 'P%d'\n", sc->path,
				pt->pos.line, pt->pos.col,
				sc->threads_count - 1, pt->thread);
			bad = 1;
			continue;
		}
		if (!wpsim_ftrace_names_available()) {
			fprintf(stderr, "%s:%u:%u: error: expected a kernel "
				"function this binary can name (it has no "
				"function records: wpsim-ftrace is missing), "
				"found '%s'\n", sc->path, pt->pos.line,
				pt->pos.col, pt->name);
			bad = 1;
			continue;
		}
		snprintf(km, sizeof(km), "%s%s",
			 strncmp(pt->name, "km_", 3) ? "km_" : "", pt->name);
		if (!wpsim_ftrace_has_function(km)) {
			fprintf(stderr, "%s:%u:%u: error: expected a kernel "
				"function of the model, found '%s' (no %s)\n",
				sc->path, pt->pos.line, pt->pos.col, pt->name,
				km);
			bad = 1;
		}
	}
	return bad ? EXIT_USAGE : EXIT_CLEAN;
}

/* ---- the trace of an execution ---------------------------------------------- */

static int touch_of(uint8_t access)
{
	switch (access) {
	case SIM_ACCESS_READ:
	case SIM_ACCESS_NONE:
	case SIM_ACCESS_ACQUIRE_FAIL:
		return 0;	/* read */
	case SIM_ACCESS_ADD:
	case SIM_ACCESS_ACQUIRE_SHARED:
	case SIM_ACCESS_RELEASE_SHARED:
		return 1;	/* commuting add */
	default:
		return 2;	/* write */
	}
}

static bool events_conflict(const struct sim_event *a,
			    const struct sim_event *b)
{
	uint32_t p = a->object, q = b->object;
	int ta = touch_of(a->access), tb = touch_of(b->access);

	if (!p || !q || SIM_OBJECT_BASE(p) != SIM_OBJECT_BASE(q))
		return false;
	if (ta != 2 && ta == tb)
		return false;
	if ((p & SIM_OBJECT_RANGE_FLAG) && (q & SIM_OBJECT_RANGE_FLAG))
		return (uint32_t)(a->value >> 32) <= (uint32_t)b->value &&
		       (uint32_t)(b->value >> 32) <= (uint32_t)a->value;
	return !(p >> SIM_OBJECT_BIT_SHIFT) || !(q >> SIM_OBJECT_BIT_SHIFT) ||
	       p == q || ((p | q) & SIM_OBJECT_RANGE_FLAG);
}

static bool touches(const struct sim_event *ev, const struct wpsim_fg_step *s)
{
	for (uint32_t i = 0; i < s->ev_count; i++)
		if (ev[s->ev_first + i].object)
			return true;
	return false;
}

static bool steps_dependent(const struct sim_event *ev,
			    const struct wpsim_fg_step *a,
			    const struct wpsim_fg_step *b)
{
	for (uint32_t i = 0; i < a->ev_count; i++)
		for (uint32_t j = 0; j < b->ev_count; j++)
			if (events_conflict(&ev[a->ev_first + i],
					    &ev[b->ev_first + j]))
				return true;
	return false;
}

struct graph {
	uint32_t n;
	uint32_t *indeg;
	uint32_t **succ;
	uint32_t *succ_count, *succ_size;
};

static void edge(struct graph *gr, uint32_t a, uint32_t b)
{
	if (gr->succ_count[a] == gr->succ_size[a]) {
		gr->succ_size[a] = gr->succ_size[a] ? 2 * gr->succ_size[a] : 8;
		gr->succ[a] = realloc(gr->succ[a],
				      gr->succ_size[a] * sizeof(uint32_t));
		if (!gr->succ[a])
			abort();
	}
	gr->succ[a][gr->succ_count[a]++] = b;
	gr->indeg[b]++;
}

static void graph_free(struct graph *gr)
{
	for (uint32_t i = 0; i < gr->n; i++)
		free(gr->succ[i]);
	free(gr->succ);
	free(gr->succ_count);
	free(gr->succ_size);
	free(gr->indeg);
}

/*
 * The happens-before graph of the last execution's @g: each step after
 * its task's previous step (or the step that spawned the task), after
 * every earlier step of another task it depends on (when the execution
 * @failed, its last step after every step that touched what it
 * touches), and @from[i] before @to[i].  Returns the lowest id of a
 * spawned task (UINT32_MAX when none).
 */
static uint32_t graph_build(struct graph *gr, const struct wpsim_fgraph *g,
			    const struct sim_event *ev, bool failed,
			    const int64_t *from, const int64_t *to,
			    size_t edges)
{
	uint32_t n = g->steps_count, tasks = sim_exec_task_count();
	uint32_t next_id = UINT32_MAX;
	int64_t *last_of = calloc(tasks + 1, sizeof(*last_of));
	uint32_t *spawned_at = calloc(tasks + 1, sizeof(*spawned_at));

	gr->n = n;
	gr->indeg = calloc(n + 1, sizeof(uint32_t));
	gr->succ = calloc(n + 1, sizeof(uint32_t *));
	gr->succ_count = calloc(n + 1, sizeof(uint32_t));
	gr->succ_size = calloc(n + 1, sizeof(uint32_t));
	if (!last_of || !spawned_at || !gr->indeg || !gr->succ || !gr->succ_count ||
	    !gr->succ_size)
		abort();
	for (uint32_t t = 0; t <= tasks; t++) {
		last_of[t] = -1;
		spawned_at[t] = UINT32_MAX;
	}
	for (uint32_t s = 0; s < n; s++) {
		const struct wpsim_fg_step *a = &g->steps[s];

		for (uint32_t i = 0; i < a->ev_count; i++) {
			const struct sim_event *e = &ev[a->ev_first + i];

			if (e->access == SIM_ACCESS_SPAWN && e->value < tasks) {
				spawned_at[e->value] = s;
				if (e->value < next_id)
					next_id = (uint32_t)e->value;
			}
		}
	}
	for (uint32_t s = 0; s < n; s++) {
		const struct wpsim_fg_step *a = &g->steps[s];
		bool all = failed && s + 1 == n;

		if (a->task < tasks && last_of[a->task] >= 0)
			edge(gr, (uint32_t)last_of[a->task], s);
		else if (a->task < tasks && spawned_at[a->task] < s)
			edge(gr, spawned_at[a->task], s);
		if (a->task < tasks)
			last_of[a->task] = s;
		for (uint32_t r = 0; r < s; r++) {
			const struct wpsim_fg_step *b = &g->steps[r];

			if (b->task == a->task)
				continue;
			if (all ? touches(ev, b) : steps_dependent(ev, b, a))
				edge(gr, r, s);
		}
	}
	for (size_t i = 0; i < edges; i++)
		if (from[i] != to[i])
			edge(gr, (uint32_t)from[i], (uint32_t)to[i]);
	free(last_of);
	free(spawned_at);
	return next_id;
}

/*
 * Kahn's algorithm on @gr: the previous task's next step when it is
 * ready, else the earliest ready step (@switch_tasks, for the tests:
 * another task than the last whenever one is ready).  Fills @order and
 * returns how many steps it placed: fewer than gr->n on a cycle.
 */
static uint32_t graph_order(struct graph *gr, const struct wpsim_fgraph *g,
			    bool switch_tasks, uint32_t *order)
{
	uint32_t n = gr->n, count = 0;
	bool *done = calloc(n + 1, 1);
	int prev = -1;

	if (!done)
		abort();
	while (count < n) {
		int64_t pick = -1;

		for (uint32_t s = 0; s < n; s++) {
			if (done[s] || gr->indeg[s])
				continue;
			if (pick < 0)
				pick = s;
			if (switch_tasks ? (int)g->steps[pick].task == prev &&
					   (int)g->steps[s].task != prev :
			    (int)g->steps[s].task == prev) {
				pick = s;
				if (!switch_tasks)
					break;
			}
		}
		if (pick < 0)
			break;		/* a cycle */
		done[pick] = true;
		order[count++] = (uint32_t)pick;
		prev = g->steps[pick].task;
		for (uint32_t k = 0; k < gr->succ_count[pick]; k++)
			gr->indeg[gr->succ[pick][k]]--;
	}
	free(done);
	return count;
}

/*
 * The schedule string of the steps of @g in @order, spawned tasks
 * renumbered from @next_id in the order the linearisation spawns them
 * (the engine numbers them so).
 */
static char *schedule_text(const struct wpsim_fgraph *g,
			   const struct sim_event *ev, const uint32_t *order,
			   uint32_t next_id)
{
	uint32_t n = g->steps_count, tasks = sim_exec_task_count();
	uint32_t *newid = calloc(tasks + 1, sizeof(*newid));
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!newid || !m)
		abort();
	for (uint32_t t = 0; t <= tasks; t++)
		newid[t] = t;
	for (uint32_t k = 0; k < n; k++) {
		const struct wpsim_fg_step *a = &g->steps[order[k]];

		for (uint32_t i = 0; i < a->ev_count; i++) {
			const struct sim_event *e = &ev[a->ev_first + i];

			if (e->access == SIM_ACCESS_SPAWN && e->value < tasks)
				newid[e->value] = next_id++;
		}
	}
	for (uint32_t k = 0; k < n;) {
		uint32_t task = g->steps[order[k]].task, run = 1;

		while (k + run < n && g->steps[order[k + run]].task == task)
			run++;
		fprintf(m, "%s%u", k ? "." : "", newid[task]);
		if (run > 1)
			fprintf(m, "*%u", run);
		k += run;
	}
	fclose(m);
	free(newid);
	return text;
}

/*
 * A schedule string of a linearisation of the last execution's trace
 * that honours @steps_from[i] -> @steps_to[i], or NULL when none does.
 * Task ids are renumbered in the order the linearisation spawns them.
 */
char *wpsim_claims_linearise(const struct wpsim_fgraph *g, bool failed,
			     const int64_t *from, const int64_t *to,
			     size_t edges, bool switch_tasks)
{
	const struct sim_event *ev;
	struct graph gr = { 0 };
	uint32_t *order = calloc(g->steps_count + 1, sizeof(*order));
	uint32_t next_id;
	char *text = NULL;

	if (!order)
		abort();
	sim_exec_events(&ev);
	next_id = graph_build(&gr, g, ev, failed, from, to, edges);
	if (graph_order(&gr, g, switch_tasks, order) == g->steps_count)
		text = schedule_text(g, ev, order, next_id);
	graph_free(&gr);
	free(order);
	return text;
}

/* ---- the search -------------------------------------------------------------- */

static bool observation_decided(const struct claims_run *c)
{
	if (c->unmentioned || c->eval_errors)
		return true;
	if (!c->expect)
		return false;
	switch (c->expect->observation) {
	case LITMUS_OBS_NEVER:
		return c->positive > 0;
	case LITMUS_OBS_ALWAYS:
		return c->negative > 0;
	default:
		return c->positive > 0 && c->negative > 0;
	}
}

static void on_execution(void *ctx, const struct sim_outcome *o)
{
	struct claims_run *c = ctx;
	const struct litmus_claim *claim = c->claim;
	int64_t from[LITMUS_CLAIM_EDGES_MAX], to[LITMUS_CLAIM_EDGES_MAX];
	struct wpsim_fgraph g;
	char state[1024], *lin;
	int holds, atom;
	bool missing = false;

	c->index++;
	wpsim_fgraph_build(&g, o->steps);
	for (size_t i = 0; i < claim->edges_count && !missing; i++) {
		from[i] = point_step(&c->x, &g, &claim->edges[i].from);
		to[i] = point_step(&c->x, &g, &claim->edges[i].to);
		missing = from[i] < 0 || to[i] < 0;
	}
	if (missing) {
		c->missing++;
		wpsim_fgraph_free(&g);
		return;
	}
	lin = wpsim_claims_linearise(&g, o->kind != SIM_OK, from, to,
				     claim->edges_count, false);
	wpsim_fgraph_free(&g);
	if (!lin) {
		c->cyclic++;
		return;
	}
	holds = wpsim_exec_evaluate(&c->x, o->kind, state, sizeof(state));
	atom = wpsim_outcome_atom(o->kind);
	if (holds < 0) {
		c->eval_errors++;
		holds = 0;
	}
	if (atom == -2 || (atom >= 0 && !c->x.sc->mentions[atom])) {
		if (!c->unmentioned++)
			snprintf(c->unmentioned_text,
				 sizeof(c->unmentioned_text), "%s: %s",
				 sim_failure_kind_name(o->kind), o->message);
	}
	if (c->x.sc->scn->condition.quantifier == LITMUS_QUANT_FORALL ?
	    !holds : holds) {
		if (c->candidates_count < CANDIDATES_MAX) {
			c->candidate_exec[c->candidates_count] = c->index - 1;
			c->candidates[c->candidates_count++] = lin;
			lin = NULL;
		}
	}
	if (holds)
		c->positive++;
	else
		c->negative++;
	if (!holds && !c->negative_schedule) {
		c->negative_schedule = lin;
		lin = NULL;
	}
	free(lin);
	c->decided = observation_decided(c) && !c->exhaustive;
}

static bool stop(void *ctx)
{
	struct claims_run *c = ctx;

	return c->decided || wpsim_stop_signal() != 0;
}

/* Replay @schedule: do its own points come in the claim's order, and
 * does its own final state satisfy the condition?  Sets *why. */
static bool replay_verifies(struct claims_run *c, const char *schedule,
			    struct sim_program *prog, uint32_t steps_max,
			    char **trimmed, struct sim_outcome *o,
			    const char **why)
{
	struct sim_exec_options exec = { .keep_log = true,
					  .steps_max = steps_max };
	struct wpsim_fgraph g;
	char state[1024];
	int holds;
	bool ok = true;

	wpsim_ftrace_on = true;
	sim_replay(prog, schedule, &exec, o);
	wpsim_ftrace_on = false;
	*trimmed = sim_exec_schedule_string();
	if (o->kind == SIM_FAIL_DIVERGED) {
		*why = "the schedule diverged";
		return false;
	}
	wpsim_fgraph_build(&g, o->steps);
	for (size_t i = 0; i < c->claim->edges_count && ok; i++) {
		int64_t a = point_step(&c->x, &g, &c->claim->edges[i].from);
		int64_t b = point_step(&c->x, &g, &c->claim->edges[i].to);

		if (a < 0 || b < 0 || a > b) {
			*why = "its points do not come in the claim's order";
			ok = false;
		}
	}
	wpsim_fgraph_free(&g);
	if (!ok)
		return false;
	holds = wpsim_exec_evaluate(&c->x, o->kind, state, sizeof(state));
	if (c->x.sc->scn->condition.quantifier == LITMUS_QUANT_FORALL ?
	    holds != 0 : holds != 1) {
		*why = "its final state does not satisfy the condition";
		return false;
	}
	return true;
}

static void print_point(FILE *out, const struct litmus_claim_point *pt)
{
	if (pt->thread >= 0)
		fprintf(out, "P%d:", pt->thread);
	fprintf(out, "%s(%s", pt->ret ? "ret" : "call", pt->name);
	if (pt->occurrence != 1)
		fprintf(out, ", %u", pt->occurrence);
	fputc(')', out);
	if (pt->after)
		fprintf(out, "+%u", pt->after);
}

static void print_claim(FILE *out, const struct wpsim_scenario *sc,
			const struct litmus_claim *claim,
			const struct wpsim_variant *variant)
{
	char vtext[256];

	wpsim_variant_format(vtext, sizeof(vtext), variant, NULL, " ");
	fprintf(out, "Test %s (%s) variant %s\n", sc->scn->name, sc->path,
		vtext);
	fprintf(out, "Claim%s%s%s (%zu edges):\n", claim->text ? " \"" : "",
		claim->text ? claim->text : "", claim->text ? "\"" : "",
		claim->edges_count);
	for (size_t i = 0; i < claim->edges_count; i++) {
		fputs("  ", out);
		print_point(out, &claim->edges[i].from);
		fputs(" -> ", out);
		print_point(out, &claim->edges[i].to);
		fputc('\n', out);
	}
}

/*
 * The verdict lines of a search whose observation is @obs: against the
 * expect line if there is one, else the condition's quantifier.  @why
 * says what bounded an incomplete search.  Returns the exit status.
 */
static int print_verdict(FILE *out, const struct wpsim_scenario *sc,
			 const struct claims_run *c, const char *obs,
			 bool complete, const char *why, bool have_witness,
			 const char *why_not, const struct wpsim_opts *opts)
{
	bool ok;

	if (c->unmentioned) {
		fprintf(out, "NOT OK: %" PRIu64 " executions honouring the "
			"claim end in an outcome the condition does not "
			"mention, the first: %s\n", c->unmentioned,
			c->unmentioned_text);
		ok = false;
	} else if (c->eval_errors) {
		fprintf(out, "NOT OK: the condition could not be evaluated "
			"(%" PRIu64 " executions)\n", c->eval_errors);
		ok = false;
	} else if (c->expect) {
		const char *want = litmus_observation_name(
			c->expect->observation);
		bool match = strcmp(want, obs) == 0;

		ok = match;
		if (!complete && !c->decided) {
			fprintf(out, "Expected %s: not decided: incomplete "
				"(%s)%s\n", want, why, opts->accept_incomplete ?
				"; accepted (--accept-incomplete)" : "");
			return opts->accept_incomplete ? EXIT_CLEAN :
			       EXIT_INCOMPLETE;
		}
		fprintf(out, "Expected %s: %s\n", want, match ? "ok" :
			"NOT OK");
	} else {
		ok = sc->scn->condition.quantifier == LITMUS_QUANT_NOT_EXISTS ?
		     !c->positive : sc->scn->condition.quantifier ==
		     LITMUS_QUANT_FORALL ? !c->negative : c->positive > 0;
		fprintf(out, "Verdict: %s\n", ok ? "ok" : "NOT OK");
	}
	if (c->positive && !have_witness && c->candidates_count) {
		fprintf(out, "NOT OK: not decided: no candidate linearisation "
			"replayed to a witness (%s)\n", why_not);
		ok = false;
	}
	if (!c->positive && complete)
		fprintf(out, "Proved: no execution of the model honours the "
			"claim with the condition true (every trace explored)"
			"\n");
	return ok ? EXIT_CLEAN : EXIT_FOUND;
}

static void print_witness(FILE *out, const struct wpsim_scenario *sc,
			  struct claims_run *c, const char *witness,
			  const struct sim_outcome *wo,
			  const struct wpsim_opts *opts)
{
	char cmd[1024];

	wpsim_replay_command(cmd, sizeof(cmd), &c->x, witness);
	fprintf(out, "Witness: a linearisation of execution %" PRIu64
		"'s trace, in the claim's order\n  schedule: %s\n"
		"  replay:   %s\n  replayed: the claim's points in its "
		"order, the condition %s, %s%s%s\n",
		c->candidate_exec[0], witness, cmd,
		sc->scn->condition.quantifier == LITMUS_QUANT_FORALL ?
		"fails" : "holds",
		wo->kind == SIM_OK ? "ok" : sim_failure_kind_name(wo->kind),
		wo->kind == SIM_OK ? "" : ": ",
		wo->kind == SIM_OK ? "" : wo->message);
	if (opts->witness_out)
		snprintf(opts->witness_out, opts->witness_out_size, "%s",
			 witness);
}

/* One scenario x variant.  Returns 0 ok, 1 not ok, 3 not decided. */
static int check_pair(FILE *out, struct wpsim_scenario *sc,
		      const struct wpsim_variant *variant,
		      const struct wpsim_opts *opts)
{
	struct claims_run *c = calloc(1, sizeof(*c));
	struct sim_explore_options eo = { 0 };
	struct sim_explore_result res;
	struct sim_strategy s;
	struct sim_program prog;
	const char *obs, *why_not = NULL;
	char why[160] = "";
	char *witness = NULL;
	struct sim_outcome wo = { 0 };
	bool complete;
	int64_t bound = opts->preemptions >= 0 ? opts->preemptions :
			sc->preemptions;
	int rc;

	if (!c)
		abort();
	wpsim_exec_init(&c->x, sc, variant);
	c->x.trace = true;
	c->claim = sc->scn->claim;
	c->expect = wpsim_expect_for(sc, variant);
	c->exhaustive = opts->exhaustive;
	prog = c->x.program;
	scenario_setup_fn = prog.setup;
	prog.setup = claims_setup;
	if (sim_strategy_dpor_bounded(&s, bound) != 0)
		abort();
	sim_dpor_set_lock_aware(&s, false);
	eo.exec.steps_max = opts->steps_max ? opts->steps_max :
			    sc->steps_max;
	eo.on_execution = on_execution;
	eo.stop = stop;
	eo.ctx = c;
	if (opts->executions)
		eo.executions_max = opts->executions;
	wpsim_ftrace_on = true;
	sim_explore(&prog, &s, &eo, &res);
	wpsim_ftrace_on = false;
	complete = res.complete && !res.bound_hit;
	if (wpsim_stop_signal())
		snprintf(why, sizeof(why), "stopped by signal after %" PRIu64
			 " executions", res.executions);
	else if (!res.complete && opts->executions)
		snprintf(why, sizeof(why), "capped by --executions %" PRIu64,
			 opts->executions);
	else if (res.bound_hit)
		snprintf(why, sizeof(why), "bounded by %" PRId64
			 " preemptions", bound);

	print_claim(out, sc, c->claim, variant);
	fprintf(out, "Exploration dpor, lock-aware reduction off (one "
		"execution per Mazurkiewicz trace): %" PRIu64 " executions "
		"(+%" PRIu64 " redundant), %s\n", res.executions, res.pruned,
		complete ? "exhaustive" : c->decided ?
		"stopped once the observation was decided" : why);
	fprintf(out, "Traces: %" PRIu64 " can be ordered as the claim says, "
		"%" PRIu64 " cannot (a cycle with happens-before), %" PRIu64
		" lack one of its points\n", c->positive + c->negative,
		c->cyclic, c->missing);
	if (sc->condition_text)
		fprintf(out, "Condition %s\n", sc->condition_text);
	obs = !c->positive ? "Never" : !c->negative ? "Always" : "Sometimes";
	fprintf(out, "Observation %s %s %" PRIu64 " %" PRIu64 " (over the "
		"traces that honour the claim)%s\n", sc->scn->name, obs,
		c->positive, c->negative, complete || c->decided ? "" :
		" (of the executions explored: incomplete)");
	/* The witness: replay candidates until one honours the claim. */
	for (size_t i = 0; i < c->candidates_count && !witness; i++) {
		char *trimmed = NULL;

		if (replay_verifies(c, c->candidates[i], &prog, eo.exec.steps_max,
				    &trimmed, &wo, &why_not))
			witness = trimmed;
		else
			free(trimmed);
	}
	rc = print_verdict(out, sc, c, obs, complete, why, witness != NULL,
			   why_not, opts);
	if (witness)
		print_witness(out, sc, c, witness, &wo, opts);
	fputc('\n', out);
	free(witness);
	for (size_t i = 0; i < c->candidates_count; i++)
		free(c->candidates[i]);
	free(c->negative_schedule);
	sim_explore_result_fini(&res);
	sim_strategy_fini(&s);
	wpsim_exec_fini(&c->x);
	free(c);
	return rc;
}

size_t wpsim_claims_variants(const struct wpsim_scenario *sc,
			     const struct wpsim_opts *opts,
			     struct wpsim_variant *pairs)
{
	size_t np = 0;

	if (opts->variants_count || !sc->scn->expects_count) {
		wpsim_variant_resolve(sc, opts, &pairs[np++]);
		return np;
	}
	for (size_t e = 0; e < sc->scn->expects_count; e++) {
		const struct litmus_expect *x = &sc->scn->expects[e];
		struct wpsim_variant v = sc->defaults;
		bool dup = false;

		for (size_t a = 0; a < x->assigns_count; a++) {
			int k = wpsim_variant_key_find(x->assigns[a].key);
			int val = k < 0 ? -1 : wpsim_variant_value_find(
				(size_t)k, x->assigns[a].value);

			if (val >= 0)
				v.value[k] = (size_t)val;
		}
		for (size_t j = 0; j < np && !dup; j++)
			dup = !memcmp(&pairs[j], &v, sizeof(v));
		if (!dup)
			pairs[np++] = v;
	}
	return np;
}

int wpsim_claims_validate(struct wpsim_scenario *const *scs, size_t n,
			  const struct wpsim_opts *opts)
{
	const char *format = opts->format ? opts->format : "text";
	bool any = false;

	for (size_t i = 0; i < n; i++)
		any = any || scs[i]->scn->claim;
	if (!any)
		return EXIT_CLEAN;
	if (opts->strategy && strcmp(opts->strategy, "dpor") != 0) {
		fprintf(stderr, "wpsim: --strategy %s: a scenario with a claim "
			"is checked by dpor (each trace's linearisations), "
			"found one\n", opts->strategy);
		return EXIT_USAGE;
	}
	if (strcmp(format, "text") && strcmp(format, "tap")) {
		fprintf(stderr, "wpsim: --format %s: a scenario with a claim "
			"reports as text or tap\n", format);
		return EXIT_USAGE;
	}
	/* Every claim is checked before anything runs. */
	for (size_t i = 0; i < n; i++)
		if (scs[i]->scn->claim && claim_validate(scs[i]) != EXIT_CLEAN)
			return EXIT_USAGE;
	return EXIT_CLEAN;
}

int wpsim_claims_check(struct wpsim_scenario **scs, size_t *n,
		       const struct wpsim_opts *opts)
{
	/* EXIT_USAGE: nothing ran, and the caller must not check these
	 * scenarios without their claims either. */
	const char *format = opts->format ? opts->format : "text";
	bool tap = strcmp(format, "tap") == 0;
	struct wpsim_variant pairs[LITMUS_EXPECTS_MAX + 1];
	int worst = EXIT_CLEAN;
	size_t kept = 0, tap_index = 0, tap_total = 0, checked = 0, ok = 0;

	for (size_t i = 0; i < *n; i++)
		if (scs[i]->scn->claim)
			tap_total += opts->variants_count ? 1 :
				     scs[i]->scn->expects_count ?
				     scs[i]->scn->expects_count : 1;
	if (!tap_total)
		return EXIT_CLEAN;
	if (wpsim_claims_validate(scs, *n, opts) != EXIT_CLEAN)
		return EXIT_USAGE;
	if (tap)
		printf("TAP version 14\n1..%zu\n", tap_total);
	for (size_t i = 0; i < *n; i++) {
		struct wpsim_scenario *sc = scs[i];
		size_t np = 0;

		if (!sc->scn->claim) {
			scs[kept++] = sc;
			continue;
		}
		np = wpsim_claims_variants(sc, opts, pairs);
		for (size_t p = 0; p < np; p++) {
			char *buf = NULL, vtext[256];
			size_t len = 0;
			FILE *m = tap ? open_memstream(&buf, &len) : stdout;
			int rc;

			if (!m)
				abort();
			rc = check_pair(m, sc, &pairs[p], opts);
			worst = wpsim_exit_worse(worst, rc);
			checked++;
			ok += rc == EXIT_CLEAN;
			if (!tap) {
				fflush(stdout);
				continue;
			}
			fclose(m);
			for (char *l = strtok(buf, "\n"); l;
			     l = strtok(NULL, "\n"))
				printf("# %s\n", l);
			free(buf);
			wpsim_variant_format(vtext, sizeof(vtext), &pairs[p],
					     NULL, " ");
			printf("%sok %zu %s %s%s\n", rc == EXIT_CLEAN ? "" :
			       "not ", ++tap_index, sc->scn->name, vtext,
			       rc == EXIT_INCOMPLETE ? " # not decided" : "");
		}
	}
	if (!tap)
		printf("%zu of %zu scenario x variant claim checks ok\n", ok,
		       checked);
	*n = kept;
	return worst;
}
