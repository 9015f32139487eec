// SPDX-License-Identifier: MIT
/*
 * tools/wpsim/check.c - `wpsim check FILE.litmus...`: explore every
 * scenario under every variant its expect lines name, and report herd7's
 * way: the final states with counts, the Observation line, the expected
 * word, and for a witness or a failure the schedule and the command that
 * replays it.
 *
 * Counting (docs/scenario-language.md "Observations"): over complete
 * executions (DPOR's sleep-set-blocked ones are not executions), positive
 * counts those where the condition's expression holds (with no quantified
 * clause: those that ended in a violation), negative the others.  Never,
 * Sometimes, Always follow from the two counts.  An execution that ends in
 * an outcome the condition does not mention (a deadlock, a stuck run, a
 * violation) fails the check whatever the observation: its "final state"
 * is not one.  The witness (the first execution where the expression
 * holds; for forall, the first where it does not) is replayed before it
 * is printed, and must give the same state and event-log hash.
 *
 * --jobs N runs scenario x variant pairs in up to N child processes; each
 * writes its report to a temporary file that the parent prints in order,
 * so the output is the same for every N.  One pair's search split over
 * processes is split.c; the report writers are report.c.
 */
#include "tools/wpsim/check.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int wpsim_exit_worse(int a, int b)
{
	static const int rank[] = {
		[EXIT_CLEAN] = 0, [EXIT_INCOMPLETE] = 1, [EXIT_FOUND] = 2,
		[EXIT_USAGE] = 3,
	};

	return rank[b] > rank[a] ? b : a;
}

static void witness_take(struct witness *wt, const struct sim_outcome *o,
			 const struct sim_strategy *s, uint64_t execution,
			 const char *state, bool holds)
{
	const uint16_t *choices;
	uint32_t steps = sim_exec_schedule(&choices);
	struct sim_witness *w = &wt->w;

	w->found = true;
	w->outcome = *o;
	w->steps = steps;
	w->choices = malloc((steps + 1) * sizeof(*w->choices));
	w->enabled = malloc((steps + 1) * sizeof(*w->enabled));
	if (!w->choices || !w->enabled)
		abort();
	memcpy(w->choices, choices, steps * sizeof(*w->choices));
	memcpy(w->enabled, sim_exec_enabled_sets(),
	       steps * sizeof(*w->enabled));
	w->schedule = sim_exec_schedule_string();
	w->exec_seed = s->exec_seed;
	w->execution = execution;
	snprintf(wt->state, sizeof(wt->state), "%s", state);
	wt->holds = holds;
}

void check_witness_free(struct witness *wt)
{
	free(wt->w.choices);
	free(wt->w.enabled);
	free(wt->w.schedule);
	memset(wt, 0, sizeof(*wt));
}

void check_state_add(struct collect *c, const char *state, bool holds)
{
	for (size_t i = 0; i < c->states_count; i++) {
		if (strcmp(c->states[i].state, state) == 0) {
			c->states[i].count++;
			return;
		}
	}
	if (c->states_count == STATES_KEPT_MAX) {
		c->states_other++;
		return;
	}
	c->states = realloc(c->states, (c->states_count + 1) *
			    sizeof(*c->states));
	if (!c->states)
		abort();
	c->states[c->states_count].state = strdup(state);
	c->states[c->states_count].count = 1;
	c->states[c->states_count].holds = holds;
	c->states_count++;
}

static void on_execution(void *ctx, const struct sim_outcome *o)
{
	struct collect *c = ctx;
	const struct wpsim_scenario *sc = c->x.sc;
	char state[STATE_BYTES];
	int atom = wpsim_outcome_atom(o->kind);
	int holds = wpsim_exec_evaluate(&c->x, o->kind, state, sizeof(state));
	bool interesting;

	if (holds < 0) {
		if (!c->eval_failed++)
			snprintf(c->eval_message, sizeof(c->eval_message),
				 "%s", c->x.eval_errors.count ?
				 c->x.eval_errors.list[0].text :
				 "evaluation failed");
		holds = 0;
	}
	if (holds)
		c->positive++;
	else
		c->negative++;
	if (o->kind != SIM_OK)
		c->failing++;
	check_state_add(c, state, holds);
	if (atom >= 0)
		c->by_atom[atom]++;
	if (atom == -2 || (atom >= 0 && !sc->mentions[atom])) {
		if (!c->unexpected_count++)
			witness_take(&c->unexpected, o, c->strategy, c->index,
				     state, holds);
	}
	interesting = sc->scn->condition.quantifier == LITMUS_QUANT_FORALL ?
		      !holds : holds;
	if (interesting && !c->witness.w.found)
		witness_take(&c->witness, o, c->strategy, c->index, state,
			     holds);
	c->index++;
}

/*
 * An expected "Sometimes" is decided by one execution where the condition
 * holds and one where it does not; more executions cannot change it.
 * (They could still find an unmentioned outcome: --exhaustive.)
 */
bool check_decided(const struct collect *c)
{
	return c->stop_when_decided && c->positive && c->negative;
}

/* The explore loop's stop: Sometimes check_decided, or a signal. */
bool check_stop_search(void *ctx)
{
	return check_decided(ctx) || wpsim_stop_signal();
}

/*
 * The variant of a pair as reports name it: the keys the scenario's
 * expect lines name, and any other key not at its default (value 0).
 */
void check_pair_variant_text(char *buf, size_t size, const struct pair *p)
{
	const struct litmus_scenario *scn = p->sc->scn;
	size_t len = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < wpsim_variant_keys_count && len < size; k++) {
		bool named = p->variant.value[k] != 0;

		for (size_t e = 0; e < scn->expects_count && !named; e++)
			for (size_t a = 0; a < scn->expects[e].assigns_count;
			     a++)
				if (strcmp(scn->expects[e].assigns[a].key,
					   wpsim_variant_keys[k].key) == 0)
					named = true;
		if (!named)
			continue;
		len += (size_t)snprintf(buf + len, size - len, "%s%s=%s",
					len ? " " : "",
					wpsim_variant_keys[k].key,
					wpsim_variant_keys[k].values[
						p->variant.value[k]]);
	}
	if (!buf[0])
		snprintf(buf, size, "(defaults)");
}

/* Forget what an exploration collected (--iterative: the next bound). */
void check_collect_reset(struct collect *c)
{
	for (size_t i = 0; i < c->states_count; i++)
		free(c->states[i].state);
	free(c->states);
	c->states = NULL;
	c->states_count = 0;
	c->states_other = 0;
	c->positive = c->negative = 0;
	memset(c->by_atom, 0, sizeof(c->by_atom));
	c->eval_failed = 0;
	c->unexpected_count = 0;
	c->index = 0;
	check_witness_free(&c->witness);
	check_witness_free(&c->unexpected);
}

/*
 * --shrink: an execution shows "the same" as the witness when it ends
 * the same way and is as interesting (the condition holds for exists,
 * fails for forall).
 */
static bool shrink_match(void *ctx, const struct sim_outcome *o)
{
	struct collect *c = ctx;
	char state[STATE_BYTES];
	int holds = wpsim_exec_evaluate(&c->x, o->kind, state, sizeof(state));
	bool interesting;

	if (holds < 0 || o->kind != c->witness.w.outcome.kind)
		return false;
	interesting = c->x.sc->scn->condition.quantifier ==
		      LITMUS_QUANT_FORALL ? !holds : holds;
	return interesting;
}

int check_state_cmp(const void *a, const void *b)
{
	return strcmp(((const struct state_count *)a)->state,
		      ((const struct state_count *)b)->state);
}

static int setup_strategy(const struct wpsim_opts *opts, const char *name,
			  struct sim_strategy *s)
{
	if (strcmp(name, "random") == 0) {
		sim_strategy_random(s, opts->seed, opts->executions ?
				    opts->executions : 1000);
	} else if (strcmp(name, "pct") == 0) {
		sim_strategy_pct(s, opts->seed, opts->executions ?
				 opts->executions : 1000,
				 opts->depth ? opts->depth : 2);
	} else if (strcmp(name, "timed") == 0) {
		sim_strategy_timed(s, opts->seed, opts->executions ?
				   opts->executions : 1);
	} else if (strcmp(name, "dpor") == 0) {
		if (sim_strategy_dpor_bounded(s, opts->preemptions) != 0)
			return -ENOMEM;
	} else if (sim_strategy_dfs(s, opts->preemptions) != 0) {
		return -ENOMEM;
	}
	return 0;
}

static enum litmus_observation observe(uint64_t positive, uint64_t negative)
{
	if (!positive)
		return LITMUS_OBS_NEVER;
	if (!negative)
		return LITMUS_OBS_ALWAYS;
	return LITMUS_OBS_SOMETIMES;
}

/* Without an expect line: herd7's validation of the quantifier. */
static bool quantifier_holds(enum litmus_quantifier q, uint64_t positive,
			     uint64_t negative)
{
	switch (q) {
	case LITMUS_QUANT_EXISTS:
		return positive > 0;
	case LITMUS_QUANT_FORALL:
		return negative == 0;
	default:		/* ~exists; no condition: no violation */
		return positive == 0;
	}
}

const char *check_quantifier_wants(enum litmus_quantifier q)
{
	switch (q) {
	case LITMUS_QUANT_EXISTS:
		return "Sometimes|Always";
	case LITMUS_QUANT_FORALL:
		return "Always";
	default:
		return "Never";
	}
}

/* Why @v's search did not cover its space, into v->incomplete. */
static void incomplete_reason(struct verdict *v, const struct collect *c,
			      const struct sim_strategy *s,
			      const struct wpsim_opts *opts)
{
	char *buf = v->incomplete;
	size_t size = sizeof(v->incomplete);
	bool exhaustive = s->kind == SIM_STRATEGY_DFS ||
			  s->kind == SIM_STRATEGY_DPOR;

	buf[0] = '\0';
	if (exhaustive && v->res.complete && !v->res.bound_hit)
		return;
	if (wpsim_stop_signal() && !v->res.complete)
		snprintf(buf, size, "stopped by %s after %" PRIu64
			 " executions", wpsim_stop_signal_name(),
			 v->res.executions);
	else if (!exhaustive)
		snprintf(buf, size, "sampled: %s, %" PRIu64 " executions, "
			 "seed %" PRIu64, s->ops->name, v->res.executions,
			 opts->seed);
	else if (!v->res.complete && check_decided(c))
		snprintf(buf, size, "stopped once Sometimes was decided");
	else if (!v->res.complete && opts->executions &&
		 v->res.executions >= opts->executions)
		snprintf(buf, size, "capped by --executions %" PRIu64,
			 opts->executions);
	else if (!v->res.complete)
		snprintf(buf, size, "the search stopped after %" PRIu64
			 " executions", v->res.executions);
	else if (opts->preemptions >= 0)
		snprintf(buf, size, "bounded by --preemptions %" PRId64,
			 v->bound);
	else if (v->iterative_bound >= 0)
		snprintf(buf, size, "bounded by --iterative at %" PRId64
			 " preemptions", v->bound);
	else
		snprintf(buf, size, "bounded by the scenario's bound "
			 "preemptions=%" PRId64, v->bound);
}

/*
 * Whether the executions explored settle the question although the
 * search was incomplete: the counts only grow, so a positive execution
 * settles exists, ~exists and Never, a negative one forall and Always,
 * one of each Sometimes.
 */
static bool settled(const struct pair *p, const struct collect *c)
{
	enum litmus_quantifier q = p->sc->scn->condition.quantifier;

	if (p->expect) {
		switch (p->expect->observation) {
		case LITMUS_OBS_NEVER:
			return c->positive > 0;
		case LITMUS_OBS_ALWAYS:
			return c->negative > 0;
		default:
			return c->positive > 0 && c->negative > 0;
		}
	}
	if (q == LITMUS_QUANT_FORALL)
		return c->negative > 0;
	return c->positive > 0;		/* exists, ~exists, violation */
}

/* Replay the witness; it must give the same state and event-log hash. */
static void replay_witness(struct collect *c, struct verdict *v,
			   uint32_t steps_max)
{
	struct sim_exec_options exec = { .steps_max = steps_max };
	struct sim_outcome o;
	int holds;

	sim_replay(&c->x.program, c->witness.w.schedule, &exec, &o);
	holds = wpsim_exec_evaluate(&c->x, o.kind, v->replay_state,
				    sizeof(v->replay_state));
	v->replayed = true;
	v->replay_hash = o.log_hash;
	v->replay_same = o.log_hash == c->witness.w.outcome.log_hash &&
			 o.kind == c->witness.w.outcome.kind &&
			 holds == (int)c->witness.holds &&
			 strcmp(v->replay_state, c->witness.state) == 0;
}

/*
 * Whether --jobs splits @p: unbounded dpor (no --preemptions, no bound of
 * the scenario's), without --iterative or an --executions cap.  Other
 * searches run as without --jobs (several pairs of them at once).
 */
static bool pair_splits(const struct pair *p, const struct wpsim_opts *opts)
{
	const char *strategy = opts->strategy ? opts->strategy : "dpor";

	return opts->split && strcmp(strategy, "dpor") == 0 &&
	       opts->preemptions < 0 && p->sc->preemptions < 0 &&
	       !opts->iterative && !opts->executions;
}

/*
 * The pair's strategy (@s: dpor by default, bounded by --preemptions or
 * the scenario's) and explore options (@eo, labelled @label), and what
 * the verdict needs to know before the search (@v).
 */
static void pair_setup(const struct pair *p, const struct wpsim_opts *opts,
		       struct collect *c, struct sim_strategy *s,
		       struct sim_explore_options *eo, struct verdict *v,
		       char *label, size_t label_size)
{
	const struct wpsim_scenario *sc = p->sc;
	const char *strategy = opts->strategy ? opts->strategy : "dpor";
	char label_variant[256];
	uint32_t steps_max;

	wpsim_exec_init(&c->x, sc, &p->variant);
	c->x.steps_option = opts->steps_max;
	v->bound = opts->preemptions >= 0 ? opts->preemptions :
		   sc->preemptions;
	v->iterative_bound = -1;
	if (setup_strategy(opts, strategy, s) != 0) {
		fprintf(stderr, "wpsim: out of memory\n");
		exit(EXIT_USAGE);
	}
	c->strategy = s;
	steps_max = opts->steps_max ? opts->steps_max : sc->steps_max;
	if (opts->preemptions < 0 && sc->preemptions >= 0 &&
	    (s->kind == SIM_STRATEGY_DFS || s->kind == SIM_STRATEGY_DPOR)) {
		bool dpor = s->kind == SIM_STRATEGY_DPOR;

		sim_strategy_fini(s);
		if (dpor)
			sim_strategy_dpor_bounded(s, sc->preemptions);
		else
			sim_strategy_dfs(s, sc->preemptions);
	}
	eo->exec.steps_max = steps_max;
	eo->stop_on_failure = false;
	eo->verify_determinism = opts->verify;
	if (opts->executions && (s->kind == SIM_STRATEGY_DFS ||
				 s->kind == SIM_STRATEGY_DPOR))
		eo->executions_max = opts->executions;
	eo->on_execution = on_execution;
	eo->ctx = c;
	c->stop_when_decided = !opts->exhaustive && !opts->compare_dfs &&
			       p->expect &&
			       p->expect->observation == LITMUS_OBS_SOMETIMES &&
			       (s->kind == SIM_STRATEGY_DFS ||
				s->kind == SIM_STRATEGY_DPOR);
	eo->stop = check_stop_search;
	/*
	 * The engine prints it on a terminal, never inside a job; with
	 * --progress whatever stderr is, in jobs too, each line naming its
	 * pair.
	 */
	eo->progress = opts->quiet || (opts->jobs > 1 &&
				      !opts->progress_seconds) ? NULL : stderr;
	eo->progress_seconds = opts->progress_seconds;
	check_pair_variant_text(label_variant, sizeof(label_variant), p);
	snprintf(label, label_size, "%s %s", sc->scn->name, label_variant);
	eo->progress_label = label;
	if (opts->estimate_probes && split_mpi_rank == 0) {
		wpsim_estimate(NULL, "", &c->x.program, &eo->exec,
			       opts->estimate_probes,
			       s->kind == SIM_STRATEGY_DPOR,
			       s->preemption_bound, &v->estimate);
		eo->estimated_total = v->estimate.mean;
	}
}

/*
 * --iterative: bounds 0, 1, ... until one shows a witness or cuts
 * nothing, then (without a bound asked for) unbounded DPOR.
 */
static void run_iterative(struct collect *c, struct sim_strategy *s,
			  const struct sim_explore_options *eo,
			  struct verdict *v)
{
	/* A bound asked for (--preemptions or the scenario's) is
	 * the last one tried; without one, unbounded comes last. */
	int64_t asked = v->bound;
	int64_t max = asked >= 0 ? asked : WPSIM_ITERATIVE_MAX;

	/*
	 * Bounds 0..max look for the simplest witness; if none has
	 * one and the bound still cut something, the last run is
	 * unbounded DPOR, so the answer stays exhaustive (bounded
	 * DPOR runs without sleep sets and grows faster with the
	 * bound than unbounded DPOR does).
	 */
	for (int64_t k = 0;; k++) {
		bool last = k > max && asked < 0;

		sim_strategy_fini(s);
		sim_strategy_dpor_bounded(s, last ? -1 : k);
		check_collect_reset(c);
		sim_explore(&c->x.program, s, eo, &v->res);
		v->iterative_bound = k;
		v->bound = last ? -1 : k;
		if (last || c->witness.w.found ||
		    c->unexpected_count || !v->res.bound_hit ||
		    (asked >= 0 && k == asked))
			break;
		sim_explore_result_fini(&v->res);
	}
}

/* Explore one pair and print its report in the format asked. */
static enum pair_status run_pair(const struct pair *p,
				 const struct wpsim_opts *opts, FILE *out)
{
	const struct wpsim_scenario *sc = p->sc;
	struct sim_explore_options eo = { 0 };
	struct collect *c = calloc(1, sizeof(*c));
	struct verdict v = { 0 };
	struct sim_strategy s;
	char label[512], label_variant[256];
	uint32_t steps_max = opts->steps_max ? opts->steps_max :
			     p->sc->steps_max;
	bool failed_otherwise = false;
	enum pair_status status;

	if (!c)
		abort();
	pair_setup(p, opts, c, &s, &eo, &v, label, sizeof(label));
	check_pair_variant_text(label_variant, sizeof(label_variant), p);
	if (opts->iterative && s.kind == SIM_STRATEGY_DPOR) {
		run_iterative(c, &s, &eo, &v);
	} else if (pair_splits(p, opts) && s.kind == SIM_STRATEGY_DPOR &&
		   s.preemption_bound < 0) {
		if (split_run(&eo, c, opts, &v.res, &v.split) != 0) {
			fprintf(stderr, "wpsim: a worker of %s %s died\n",
				sc->path, label_variant);
			sim_explore_result_fini(&v.res);
			sim_strategy_fini(&s);
			check_collect_reset(c);
			wpsim_exec_fini(&c->x);
			free(c);
			return PAIR_ERROR;
		}
	} else {
		sim_explore(&c->x.program, &s, &eo, &v.res);
	}
	if (opts->shrink && c->witness.w.found) {
		v.shrink_tried = true;
		sim_shrink_where(&c->x.program, &c->witness.w, &eo.exec,
				 WPSIM_SHRINK_PER_BOUND, shrink_match, c,
				 &v.shrunk);
	}
	if (opts->witness_out && opts->witness_out_size) {
		const char *w = v.shrunk.found ? v.shrunk.schedule :
				c->witness.w.found ? c->witness.w.schedule : "";

		snprintf(opts->witness_out, opts->witness_out_size, "%s", w);
	}
	if (opts->compare_dfs && split_mpi_rank == 0)
		wpsim_compare_dfs(NULL, "", &c->x.program, &eo.exec, v.bound,
				  opts->executions ? opts->executions :
				  WPSIM_COMPARE_DFS_CAP, v.res.executions,
				  v.res.complete, &v.dfs);

	v.obs = observe(c->positive, c->negative);
	v.ok = p->expect ? v.obs == p->expect->observation :
	       quantifier_holds(sc->scn->condition.quantifier, c->positive,
				c->negative);
	if (c->witness.w.found) {
		replay_witness(c, &v, steps_max);
		failed_otherwise = !v.replay_same;
	}
	if (c->unexpected_count || c->eval_failed ||
	    (v.res.determinism_checked && !v.res.determinism_ok))
		failed_otherwise = true;
	incomplete_reason(&v, c, &s, opts);
	v.decided = !v.incomplete[0] || failed_otherwise || settled(p, c);
	if (failed_otherwise || !v.decided)
		v.ok = false;

	report_pair(out, p, c, &v, &s, opts);

	sim_explore_result_fini(&v.res);
	sim_strategy_fini(&s);
	sim_witness_fini(&v.shrunk);
	for (size_t i = 0; i < c->states_count; i++)
		free(c->states[i].state);
	free(c->states);
	check_witness_free(&c->witness);
	check_witness_free(&c->unexpected);
	wpsim_exec_fini(&c->x);
	free(c);
	status = !v.decided ? PAIR_UNDECIDED : v.ok ? PAIR_OK : PAIR_NOT_OK;
	return status;
}

void wpsim_variant_resolve(const struct wpsim_scenario *sc,
			   const struct wpsim_opts *opts,
			   struct wpsim_variant *v)
{
	*v = sc->defaults;
	for (size_t i = 0; i < opts->variants_count; i++)
		v->value[opts->variant_key[i]] = opts->variant_value[i];
}

const struct litmus_expect *wpsim_expect_for(const struct wpsim_scenario *sc,
					     const struct wpsim_variant *v)
{
	const char *keys[WPSIM_VARIANT_KEYS_MAX];
	const char *values[WPSIM_VARIANT_KEYS_MAX];

	for (size_t k = 0; k < wpsim_variant_keys_count; k++) {
		keys[k] = wpsim_variant_keys[k].key;
		values[k] = wpsim_variant_keys[k].values[v->value[k]];
	}
	return litmus_expect_find(sc->scn, keys, values,
				  wpsim_variant_keys_count);
}

/* The variants to run: from --variant, else one per expect line. */
static size_t pairs_of(struct wpsim_scenario *sc,
		       const struct wpsim_opts *opts, struct pair **pairs,
		       size_t n)
{
	const struct litmus_scenario *scn = sc->scn;
	size_t first = n;

	if (opts->variants_count || !scn->expects_count) {
		*pairs = realloc(*pairs, (n + 1) * sizeof(**pairs));
		if (!*pairs)
			abort();
		(*pairs)[n].sc = sc;
		wpsim_variant_resolve(sc, opts, &(*pairs)[n].variant);
		(*pairs)[n].expect = wpsim_expect_for(sc, &(*pairs)[n].variant);
		return n + 1;
	}
	for (size_t i = 0; i < scn->expects_count; i++) {
		const struct litmus_expect *x = &scn->expects[i];
		struct wpsim_variant v = sc->defaults;
		bool dup = false;

		for (size_t a = 0; a < x->assigns_count; a++) {
			int k = wpsim_variant_key_find(x->assigns[a].key);
			int val = k < 0 ? -1 : wpsim_variant_value_find(
				(size_t)k, x->assigns[a].value);

			if (val >= 0)
				v.value[k] = (size_t)val;
		}
		for (size_t j = first; j < n && !dup; j++)
			dup = memcmp(&(*pairs)[j].variant, &v, sizeof(v)) == 0;
		if (dup)
			continue;
		*pairs = realloc(*pairs, (n + 1) * sizeof(**pairs));
		if (!*pairs)
			abort();
		(*pairs)[n].sc = sc;
		(*pairs)[n].variant = v;
		(*pairs)[n].expect = wpsim_expect_for(sc, &v);
		n++;
	}
	return n;
}

/* Run pairs [0, n) in up to @jobs children; print reports in order. */
static int run_parallel(const struct pair *pairs, size_t n,
			const struct wpsim_opts *opts, FILE *out,
			unsigned int *status)
{
	FILE **files = calloc(n, sizeof(*files));
	pid_t *pids = calloc(n, sizeof(*pids));
	size_t next = 0, done = 0, running = 0;
	sigset_t stops, old;

	if (!files || !pids)
		abort();
	sigemptyset(&stops);
	sigaddset(&stops, SIGINT);
	sigaddset(&stops, SIGTERM);
	fflush(NULL);
	while (done < n) {
		while (running < opts->jobs && next < n) {
			pid_t pid;

			files[next] = tmpfile();
			if (!files[next]) {
				fprintf(stderr, "wpsim: --jobs: cannot make "
					"a temporary file: %s\n",
					strerror(errno));
				return -1;
			}
			/* A signal waits until the child is on the list. */
			sigprocmask(SIG_BLOCK, &stops, &old);
			pid = fork();
			if (pid < 0) {
				fprintf(stderr, "wpsim: --jobs: fork: %s\n",
					strerror(errno));
				sigprocmask(SIG_SETMASK, &old, NULL);
				return -1;
			}
			if (pid == 0) {
				int rc;

				wpsim_stop_in_child = true;
				sigprocmask(SIG_SETMASK, &old, NULL);
				rc = run_pair(&pairs[next], opts,
					      files[next]);

				fflush(files[next]);
				_exit(rc);
			}
			pids[next++] = pid;
			wpsim_stop_child_add(pid);
			sigprocmask(SIG_SETMASK, &old, NULL);
			running++;
		}
		{
			int wstatus;
			pid_t pid = wait(&wstatus);

			if (pid < 0) {
				fprintf(stderr, "wpsim: --jobs: wait: %s\n",
					strerror(errno));
				return -1;
			}
			wpsim_stop_child_remove(pid);
			for (size_t i = 0; i < next; i++) {
				if (pids[i] != pid)
					continue;
				status[pairs[i].index] = WIFEXITED(wstatus) ?
					    (unsigned int)WEXITSTATUS(wstatus) :
					    PAIR_ERROR;
				if (!WIFEXITED(wstatus))
					fprintf(stderr, "wpsim: the job of "
						"%s was killed by signal %d\n",
						pairs[i].sc->path,
						WTERMSIG(wstatus));
			}
			running--;
			done++;
		}
	}
	for (size_t i = 0; i < n; i++) {
		report_emit_pair(out, &pairs[i], files[i], status, opts);
		fclose(files[i]);
	}
	free(files);
	free(pids);
	return 0;
}

static int check_scenarios(struct wpsim_scenario **scs, size_t count,
			   const struct wpsim_opts *opts);

int wpsim_check_scenarios(struct wpsim_scenario **scs, size_t count,
			  const struct wpsim_opts *opts_in)
{
	struct wpsim_opts mopts = *opts_in;
	const struct wpsim_opts *opts = &mopts;
	int rc;

#ifdef WPSIM_MPI
	split_mpi_start(&mopts);
#endif
	rc = check_scenarios(scs, count, opts);
#ifdef WPSIM_MPI
	if (split_mpi_size > 1) {
		split_mpi_end();
		if (split_mpi_rank > 0)
			rc = EXIT_CLEAN;
	}
#endif
	return rc;
}

static int check_scenarios(struct wpsim_scenario **scs, size_t count,
			   const struct wpsim_opts *opts)
{
	const char *format = opts->format ? opts->format : "text";
	bool ktap = strcmp(format, "ktap") == 0;
	bool tap = ktap || strcmp(format, "tap") == 0;
	struct pair *pairs = NULL;
	unsigned int *status;
	size_t n = 0, passed = 0, failed = 0, errors = 0, undecided = 0;

	sim_report_set_event_printer(wpsim_print_event);
	for (size_t i = 0; i < count; i++) {
		size_t first = n;

		n = pairs_of(scs[i], opts, &pairs, n);
		for (size_t j = first; j < n; j++) {
			pairs[j].index = j;
			pairs[j].scenario_index = i;
			pairs[j].sub_index = j - first;
			pairs[j].subs = n - first;
		}
	}
	status = calloc(n + 1, sizeof(*status));
	if (!status)
		abort();
	if (ktap)	/* one test per scenario, a subtest per variant */
		printf("KTAP version 1\n1..%zu\n", count);
	else if (tap)	/* what meson's TAP parser reads: flat results */
		printf("TAP version 14\n1..%zu\n", n);
	/*
	 * Pairs in order.  With --jobs, a pair that splits (pair_splits)
	 * runs its items over the workers; a run of other pairs goes to up
	 * to N children at once (run_parallel), as without a split.
	 */
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;

		if (!pair_splits(&pairs[i], opts))
			while (j < n && !pair_splits(&pairs[j], opts))
				j++;
		if (split_mpi_rank > 0 && !pair_splits(&pairs[i], opts)) {
			i = j;	/* rank 0 runs it */
			continue;
		}
		if (opts->jobs > 1 && j - i > 1 && split_mpi_size == 1) {
			if (run_parallel(pairs + i, j - i, opts, stdout,
					 status) != 0) {
				free(pairs);
				free(status);
				return EXIT_USAGE;
			}
			i = j;
			continue;
		}
		for (; i < j; i++) {
			FILE *report = tmpfile();

			if (!report) {
				fprintf(stderr, "wpsim: cannot make a "
					"temporary file: %s\n",
					strerror(errno));
				free(pairs);
				free(status);
				return EXIT_USAGE;
			}
			status[i] = run_pair(&pairs[i], opts, report);
			report_emit_pair(stdout, &pairs[i], report, status, opts);
			fclose(report);
			fflush(stdout);
		}
	}
	for (size_t i = 0; i < n; i++) {
		if (status[i] == PAIR_OK)
			passed++;
		else if (status[i] == PAIR_NOT_OK)
			failed++;
		else if (status[i] == PAIR_UNDECIDED)
			undecided++;
		else
			errors++;
	}
	if (tap)
		printf("# Totals: pass:%zu fail:%zu xfail:0 xpass:0 skip:%zu "
		       "error:%zu\n", passed, failed +
		       (opts->accept_incomplete ? 0 : undecided),
		       opts->accept_incomplete ? undecided : 0, errors);
	else if (strcmp(format, "text") == 0)
		report_summary_line(passed, failed + errors, undecided, n, opts);
	free(pairs);
	free(status);
	/* A crashed job is not bad input: it fails the check. */
	if (failed + errors)
		return EXIT_FOUND;
	return undecided && !opts->accept_incomplete ? EXIT_INCOMPLETE :
	       EXIT_CLEAN;
}

