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
 * so the output is the same for every N.
 */
#include "tools/wpsim/scenario.h"
#include "tools/wpsim/search.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifdef WPSIM_MPI
#include <mpi.h>
#endif

#define STATE_BYTES		1024
#define STATES_KEPT_MAX		4096
#define REPORT_TAIL_STEPS	16
#define STOP_CHILDREN_MAX	256	/* --jobs at most (main.c JOBS_MAX) */
#define REASON_BYTES		192

/*
 * A signal ends the search after the execution in progress.  The parent
 * of --jobs passes a signal sent to it alone (kill, SI_USER) on to its
 * running children; one from the terminal reaches the whole process
 * group already.  In the parent a second signal kills (the handler is
 * reset); a child keeps its handler, so a signal that reaches it twice
 * still ends in a report.
 */
static volatile sig_atomic_t stop_signal;
static volatile pid_t stop_children[STOP_CHILDREN_MAX];
static bool stop_in_child;

static void stop_handler(int sig, siginfo_t *info, void *uctx)
{
	(void)uctx;
	if (stop_signal)
		return;
	stop_signal = sig;
	if (stop_in_child)
		return;
	signal(sig, SIG_DFL);
	if (info && info->si_code == SI_USER)
		for (size_t i = 0; i < STOP_CHILDREN_MAX; i++)
			if (stop_children[i] > 0)
				kill(stop_children[i], sig);
}

void wpsim_stop_install(void)
{
	struct sigaction sa = { 0 };

	sa.sa_sigaction = stop_handler;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int wpsim_stop_signal(void)
{
	return stop_signal;
}

int wpsim_exit_worse(int a, int b)
{
	static const int rank[] = {
		[EXIT_CLEAN] = 0, [EXIT_INCOMPLETE] = 1, [EXIT_FOUND] = 2,
		[EXIT_USAGE] = 3,
	};

	return rank[b] > rank[a] ? b : a;
}

struct state_count {
	char *state;
	uint64_t count;
	bool holds;
};

struct witness {
	struct sim_witness w;
	char state[STATE_BYTES];
	bool holds;
};

/* What one exploration collects, execution by execution. */
struct collect {
	struct wpsim_exec x;
	const struct sim_strategy *strategy;
	uint64_t positive, negative;
	struct state_count *states;
	size_t states_count;
	uint64_t states_other;
	struct witness witness;		/* the interesting execution */
	struct witness unexpected;	/* first unmentioned outcome */
	uint64_t unexpected_count;
	uint64_t by_atom[3];
	uint64_t eval_failed;
	char eval_message[LITMUS_MESSAGE_MAX + 128];
	uint64_t index;
	uint64_t failing;	/* executions that ended in a failure */
	/* The pair expects Sometimes: stop once both kinds were seen. */
	bool stop_when_decided;
};

/* One scenario under one variant. */
struct pair {
	struct wpsim_scenario *sc;
	struct wpsim_variant variant;
	const struct litmus_expect *expect;
	/* Its place: in the run, its scenario's among the scenarios, its
	 * own among that scenario's pairs (KTAP nests them). */
	size_t index, scenario_index, sub_index, subs;
};

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

static void witness_free(struct witness *wt)
{
	free(wt->w.choices);
	free(wt->w.enabled);
	free(wt->w.schedule);
	memset(wt, 0, sizeof(*wt));
}

static void state_add(struct collect *c, const char *state, bool holds)
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
	state_add(c, state, holds);
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
static bool decided(const struct collect *c)
{
	return c->stop_when_decided && c->positive && c->negative;
}

/* The explore loop's stop: Sometimes decided, or a signal. */
static bool stop_search(void *ctx)
{
	return decided(ctx) || stop_signal;
}

/*
 * The variant of a pair as reports name it: the keys the scenario's
 * expect lines name, and any other key not at its default (value 0).
 */
static void pair_variant_text(char *buf, size_t size, const struct pair *p)
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
static void collect_reset(struct collect *c)
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
	witness_free(&c->witness);
	witness_free(&c->unexpected);
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

static int state_cmp(const void *a, const void *b)
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

static const char *quantifier_wants(enum litmus_quantifier q)
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

/* --jobs split the pair's search (run_split): into how many items. */
struct split_info {
	uint32_t items, levels;
	uint64_t top_pruned;
	size_t units;		/* items, with the ones given away */
};

struct verdict {
	struct sim_explore_result res;
	enum litmus_observation obs;
	bool ok;
	bool replayed, replay_same;
	char replay_state[STATE_BYTES];
	uint64_t replay_hash;
	int64_t bound;			/* preemption bound of the run, -1 */
	/* --estimate, --compare-dfs, --shrink, --iterative */
	struct wpsim_estimate estimate;
	struct wpsim_compare dfs;
	struct sim_witness shrunk;
	bool shrink_tried;
	int64_t iterative_bound;	/* the bound it stopped at, -1 */
	/*
	 * The search did not cover its space: why ("capped by --executions
	 * 2000"); empty when it did.  decided: the counts settle the
	 * expectation anyway (a witness of what a Never forbids, one
	 * execution of each kind for a Sometimes) or another failure does.
	 */
	char incomplete[REASON_BYTES];
	bool decided;
	struct split_info split;	/* items 0: not split */
};

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
	if (stop_signal && !v->res.complete)
		snprintf(buf, size, "stopped by %s after %" PRIu64
			 " executions", stop_signal == SIGINT ? "SIGINT" :
			 "SIGTERM", v->res.executions);
	else if (!exhaustive)
		snprintf(buf, size, "sampled: %s, %" PRIu64 " executions, "
			 "seed %" PRIu64, s->ops->name, v->res.executions,
			 opts->seed);
	else if (!v->res.complete && decided(c))
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

/* "ok", "NOT OK" or "not decided: incomplete (why)". */
static void verdict_text(char *buf, size_t size, const struct verdict *v,
			 const struct wpsim_opts *opts)
{
	if (v->decided)
		snprintf(buf, size, "%s", v->ok ? "ok" : "NOT OK");
	else
		snprintf(buf, size, "not decided: incomplete (%s)%s",
			 v->incomplete, opts->accept_incomplete ?
			 "; accepted (--accept-incomplete)" : "");
}

static void print_variant_json(FILE *out, const struct wpsim_variant *v)
{
	fputc('{', out);
	for (size_t k = 0; k < wpsim_variant_keys_count; k++)
		fprintf(out, "%s\"%s\":\"%s\"", k ? "," : "",
			wpsim_variant_keys[k].key,
			wpsim_variant_keys[k].values[v->value[k]]);
	fputc('}', out);
}

void wpsim_json_string(FILE *out, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(out, "\\%c", ch);
		else if (ch == '\n')
			fputs("\\n", out);
		else if (ch == '\t')
			fputs("\\t", out);
		else if (ch < 0x20)
			fprintf(out, "\\u%04x", ch);
		else
			fputc(ch, out);
	}
}

static void json_field(FILE *out, const char *key, const char *value)
{
	fprintf(out, ",\"%s\":", key);
	if (!value) {
		fputs("null", out);
		return;
	}
	fputc('"', out);
	wpsim_json_string(out, value);
	fputc('"', out);
}

static void print_json(FILE *out, const struct pair *p, struct collect *c,
		       const struct verdict *v, const char *strategy,
		       bool accept)
{
	const struct wpsim_scenario *sc = p->sc;
	char cmd[1024];

	fprintf(out, "{\"name\":\"");
	wpsim_json_string(out, sc->scn->name);
	fputc('"', out);
	json_field(out, "file", sc->path);
	fprintf(out, ",\"variant\":");
	print_variant_json(out, &p->variant);
	json_field(out, "strategy", strategy);
	fprintf(out, ",\"complete\":%s,\"executions\":%" PRIu64
		",\"redundant\":%" PRIu64 ",\"steps\":%" PRIu64,
		v->res.complete ? "true" : "false", v->res.executions,
		v->res.pruned, v->res.steps);
	fprintf(out, ",\"bound\":%" PRId64 ",\"bound_hit\":%s", v->bound,
		v->res.bound_hit ? "true" : "false");
	if (v->split.items)
		fprintf(out, ",\"split\":{\"items\":%u,\"levels\":%u,"
			"\"units\":%zu}", v->split.items, v->split.levels,
			v->split.units);
	fprintf(out, ",\"decided_early\":%s",
		!v->res.complete && decided(c) ? "true" : "false");
	if (v->estimate.probes)
		fprintf(out, ",\"estimate\":{\"%s\":%.6g,\"probes\":"
			"%u,\"relative_error\":%.4f}", v->estimate.dpor ?
			"executions" : "schedules", v->estimate.mean,
			v->estimate.probes, v->estimate.relative_error);
	if (v->dfs.seconds > 0 || v->dfs.executions)
		fprintf(out, ",\"dfs\":{\"executions\":%" PRIu64 ",\"complete\":"
			"%s}", v->dfs.executions,
			v->dfs.complete ? "true" : "false");
	json_field(out, "condition", sc->condition_text);
	json_field(out, "observation", litmus_observation_name(v->obs));
	fprintf(out, ",\"positive\":%" PRIu64 ",\"negative\":%" PRIu64,
		c->positive, c->negative);
	json_field(out, "expected", p->expect ?
		   litmus_observation_name(p->expect->observation) : NULL);
	fprintf(out, ",\"ok\":%s,\"decided\":%s", v->ok ? "true" : "false",
		v->decided ? "true" : "false");
	json_field(out, "incomplete_reason", v->incomplete[0] ?
		   v->incomplete : NULL);
	if (!v->decided)
		fprintf(out, ",\"accepted\":%s", accept ? "true" : "false");
	fprintf(out, ",\"outcomes\":{\"deadlock\":%" PRIu64 ",\"stuck\":%"
		PRIu64 ",\"violation\":%" PRIu64 "}",
		c->by_atom[LITMUS_OUTCOME_DEADLOCK],
		c->by_atom[LITMUS_OUTCOME_STUCK],
		c->by_atom[LITMUS_OUTCOME_VIOLATION]);
	fprintf(out, ",\"states\":[");
	for (size_t i = 0; i < c->states_count; i++) {
		fprintf(out, "%s{\"state\":\"", i ? "," : "");
		wpsim_json_string(out, c->states[i].state);
		fprintf(out, "\",\"count\":%" PRIu64 ",\"holds\":%s}",
			c->states[i].count,
			c->states[i].holds ? "true" : "false");
	}
	fprintf(out, "]");
	fprintf(out, ",\"witness\":");
	if (c->witness.w.found) {
		wpsim_replay_command(cmd, sizeof(cmd), &c->x,
				     c->witness.w.schedule);
		fprintf(out, "{\"schedule\":\"%s\"", c->witness.w.schedule);
		json_field(out, "replay", cmd);
		json_field(out, "state", c->witness.state);
		fprintf(out, ",\"holds\":%s,\"hash\":\"%016" PRIx64 "\","
			"\"replayed\":%s", c->witness.holds ? "true" : "false",
			c->witness.w.outcome.log_hash,
			v->replay_same ? "true" : "false");
		if (v->shrunk.found)
			fprintf(out, ",\"shrunk\":{\"schedule\":\"%s\","
				"\"steps\":%u,\"preemptions\":%u}",
				v->shrunk.schedule, v->shrunk.steps,
				sim_schedule_preemptions(v->shrunk.choices,
							 v->shrunk.enabled,
							 v->shrunk.steps));
		fputc('}', out);
	} else {
		fputs("null", out);
	}
	fprintf(out, ",\"unexpected\":");
	if (c->unexpected.w.found) {
		const struct sim_witness *w = &c->unexpected.w;

		wpsim_replay_command(cmd, sizeof(cmd), &c->x, w->schedule);
		fprintf(out, "{\"count\":%" PRIu64 ",\"kind\":\"%s\"",
			c->unexpected_count,
			sim_failure_kind_name(w->outcome.kind));
		json_field(out, "message", w->outcome.message);
		fprintf(out, ",\"schedule\":\"%s\"", w->schedule);
		json_field(out, "replay", cmd);
		fputc('}', out);
	} else {
		fputs("null", out);
	}
	json_field(out, "error", c->eval_failed ? c->eval_message : NULL);
	fputs("}\n", out);
}

/* The human report of one pair (also the diagnostics of the KTAP form). */
static void print_text(FILE *out, const struct pair *p, struct collect *c,
		       struct verdict *v, const struct sim_strategy *s,
		       const struct wpsim_opts *opts)
{
	const struct wpsim_scenario *sc = p->sc;
	char variant[256], cmd[1024], word[REASON_BYTES + 64];

	pair_variant_text(variant, sizeof(variant), p);
	fprintf(out, "Test %s (%s) variant %s\n", sc->scn->name, sc->path,
		variant);
	fprintf(out, "Exploration %s: %" PRIu64 " executions", s->ops->name,
		v->res.executions);
	if (s->kind == SIM_STRATEGY_DPOR)
		fprintf(out, " (+%" PRIu64 " redundant)", v->res.pruned);
	if (s->kind == SIM_STRATEGY_DFS || s->kind == SIM_STRATEGY_DPOR) {
		if (v->res.complete && !v->res.bound_hit)
			fprintf(out, ", exhaustive");
		else if (v->res.complete)
			fprintf(out, ", complete up to %" PRId64
				" preemptions", v->bound);
		else if (decided(c))
			fprintf(out, ", stopped: Sometimes is decided "
				"(--exhaustive explores the rest)");
		else
			fprintf(out, ", incomplete (%s)", v->incomplete);
	} else {
		fprintf(out, ", seed %" PRIu64 ", sampled", opts->seed);
	}
	fputc('\n', out);
	if (v->split.items)
		fprintf(out, "Split: %u items from %u levels of sleep-set DFS "
			"(+%" PRIu64 " redundant there), %zu with those given "
			"away while running and those run for the races they "
			"forwarded; merged in item order\n",
			v->split.items, v->split.levels, v->split.top_pruned,
			v->split.units);
	if (v->iterative_bound >= 0 && v->bound < 0)
		fprintf(out, "Iterative: bounds 0..%" PRId64 " found no "
			"witness; then unbounded\n", v->iterative_bound - 1);
	else if (v->iterative_bound >= 0)
		fprintf(out, "Iterative: stopped at bound %" PRId64 " (%s)\n",
			v->iterative_bound, c->witness.w.found ||
			c->unexpected_count ?
			"the simplest witness: no fewer preemptions show it" :
			"the bound cut nothing: exhaustive");
	if (v->estimate.probes) {
		wpsim_estimate_print(out, &v->estimate);
		fputc('\n', out);
	}
	if (opts->compare_dfs && !v->res.complete)
		fprintf(out, "Compare: dfs %" PRIu64 " executions%s in %.2f s; "
			"dpor did not complete: no ratio\n", v->dfs.executions,
			v->dfs.complete ? "" : " (capped, not complete)",
			v->dfs.seconds);
	else if (opts->compare_dfs)
		fprintf(out, "Compare: dfs %" PRIu64 " executions%s in %.2f s; "
			"dpor %" PRIu64 ": %s%.1fx fewer\n", v->dfs.executions,
			v->dfs.complete ? "" : " (capped, not complete)",
			v->dfs.seconds, v->res.executions,
			v->dfs.complete ? "" : "at least ",
			v->res.executions ? (double)v->dfs.executions /
			(double)v->res.executions : 0.0);
	if (c->states_count)	/* none yet: states may be NULL */
		qsort(c->states, c->states_count, sizeof(*c->states),
		      state_cmp);
	fprintf(out, "States %zu\n", c->states_count);
	for (size_t i = 0; i < c->states_count; i++)
		fprintf(out, "  %8" PRIu64 " %c %s\n", c->states[i].count,
			c->states[i].holds ? '*' : ' ', c->states[i].state);
	if (c->states_other)
		fprintf(out, "  %8" PRIu64 "   (more states than %d)\n",
			c->states_other, STATES_KEPT_MAX);
	fprintf(out, "Condition %s%s\n", sc->condition_text ?
		sc->condition_text : "none: observing violations",
		sc->condition_text ? "  (* marks the states where it "
		"holds)" : "");
	fprintf(out, "Observation %s %s %" PRIu64 " %" PRIu64 "%s\n",
		sc->scn->name, litmus_observation_name(v->obs), c->positive,
		c->negative,
		v->incomplete[0] && v->obs != LITMUS_OBS_SOMETIMES ?
		"  (of the executions explored: incomplete)" : "");
	verdict_text(word, sizeof(word), v, opts);
	if (p->expect)
		fprintf(out, "Expected %s: %s\n",
			litmus_observation_name(p->expect->observation), word);
	else
		fprintf(out, "Expected (no expect line; %s wants %s): %s\n",
			sc->condition_text ? "the quantifier" : "a scenario "
			"without a condition", quantifier_wants(
				sc->scn->condition.quantifier), word);
	if (c->eval_failed)
		fprintf(out, "Error: %" PRIu64 " executions could not be "
			"evaluated: %s\n", c->eval_failed, c->eval_message);
	if (c->witness.w.found) {
		const struct sim_witness *w = &c->witness.w;

		wpsim_replay_command(cmd, sizeof(cmd), &c->x, w->schedule);
		fprintf(out, "Witness (%s): execution %" PRIu64 ", %u steps, "
			"event-log hash %016" PRIx64 "\n",
			c->witness.holds ? "the condition holds" :
			"a counterexample", w->execution, w->steps,
			w->outcome.log_hash);
		fprintf(out, "  state:    %s\n", c->witness.state);
		if (w->outcome.kind != SIM_OK)
			fprintf(out, "  outcome:  %s: %s\n",
				sim_failure_kind_name(w->outcome.kind),
				w->outcome.message);
		fprintf(out, "  schedule: %s\n", w->schedule);
		fprintf(out, "  replay:   %s\n", cmd);
		if (v->replay_same)
			fprintf(out, "  replayed: same final state and "
				"event-log hash %016" PRIx64 "\n",
				v->replay_hash);
		else
			fprintf(out, "  replayed: MISMATCH (engine or model "
				"bug): hash %016" PRIx64 ", state %s\n",
				v->replay_hash, v->replay_state);
		if (v->shrink_tried) {
			wpsim_replay_command(cmd, sizeof(cmd), &c->x,
					     v->shrunk.found ?
					     v->shrunk.schedule : NULL);
			wpsim_print_shrunk(out, "  ", w, &v->shrunk,
					   v->shrunk.found ? cmd : NULL);
		}
	}
	if (v->res.determinism_checked)
		fprintf(out, "Determinism: %s\n", v->res.determinism_ok ?
			"replay reproduced the event-log hash" :
			"MISMATCH (engine bug)");
	if (c->unexpected.w.found) {
		fprintf(out, "Unexpected: %" PRIu64 " executions ended in an "
			"outcome the condition does not mention (deadlock "
			"%" PRIu64 ", stuck %" PRIu64 ", violation %" PRIu64
			"); the first:\n", c->unexpected_count,
			c->by_atom[LITMUS_OUTCOME_DEADLOCK],
			c->by_atom[LITMUS_OUTCOME_STUCK],
			c->by_atom[LITMUS_OUTCOME_VIOLATION]);
		wpsim_replay_command(cmd, sizeof(cmd), &c->x, NULL);
		sim_report_failure(out, &c->x.program, s, &c->unexpected.w,
				   cmd, REPORT_TAIL_STEPS);
	}
}

/* Every line of @text with "# " in front (KTAP diagnostics). */
static void print_commented(FILE *out, const char *text)
{
	const char *line = text;

	while (*line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);

		fprintf(out, "# %.*s\n", (int)len, line);
		line += len + (nl ? 1 : 0);
	}
}

/* Also the exit status of a --jobs child. */
enum pair_status {
	PAIR_OK = 0, PAIR_NOT_OK = 1, PAIR_ERROR = 2, PAIR_UNDECIDED = 3,
};

/* The children a signal to the parent is passed on to. */
static void stop_child_add(pid_t pid)
{
	for (size_t i = 0; i < STOP_CHILDREN_MAX; i++) {
		if (stop_children[i] == 0) {
			stop_children[i] = pid;
			return;
		}
	}
}

static void stop_child_remove(pid_t pid)
{
	for (size_t i = 0; i < STOP_CHILDREN_MAX; i++)
		if (stop_children[i] == pid)
			stop_children[i] = 0;
}

/*
 * ---- one pair split over worker processes (--jobs) ----------------------
 *
 * An unbounded dpor pair with --jobs is split into items (sim_dpor_split:
 * the top of the tree by sleep-set DFS; docs/architecture.md, "Splitting
 * one exploration").  The parent forks the workers after the split, so
 * each has the items; it hands out item numbers one at a time over a
 * pipe (a worker that is done asks for the next by sending its result),
 * and merges the results in item order: counters summed, final states
 * in order, the witness the first of the lowest-numbered item that has
 * one (its execution number counts the executions of the items before).
 * The number of items does not depend on --jobs, nor does any item's
 * search, so the report is the same for every N.  A Sometimes decided
 * by the items merged so far cancels the later items.
 */
#define SPLIT_ITEMS_MIN		64	/* leaves of the top, at least */
#define SPLIT_LEVELS_MAX	1000
#define SPLIT_QUIT		UINT32_MAX
#define SPLIT_DONATE_EVERY	256	/* runs of an item between donations */

/* A growing byte buffer: a worker's result of one item. */
struct buf {
	char *data;
	size_t len, cap, pos;
};

static void buf_put(struct buf *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 256;
		b->data = realloc(b->data, b->cap);
		if (!b->data)
			abort();
	}
	if (n)		/* an empty buffer's data may be NULL */
		memcpy(b->data + b->len, p, n);
	b->len += n;
}

static void buf_u64(struct buf *b, uint64_t v)
{
	buf_put(b, &v, sizeof(v));
}

static void buf_str(struct buf *b, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	buf_u64(b, n);
	buf_put(b, s ? s : "", n);
}

/* The parent reads what a worker of the same binary wrote: no slack. */
static void buf_get(struct buf *b, void *p, size_t n)
{
	if (b->pos + n > b->len) {
		fprintf(stderr, "wpsim: --jobs: a worker's result is short\n");
		exit(EXIT_USAGE);
	}
	if (n)
		memcpy(p, b->data + b->pos, n);
	b->pos += n;
}

static uint64_t get_u64(struct buf *b)
{
	uint64_t v;

	buf_get(b, &v, sizeof(v));
	return v;
}

static char *get_str(struct buf *b)
{
	size_t n = (size_t)get_u64(b);
	char *s = malloc(n + 1);

	if (!s)
		abort();
	buf_get(b, s, n);
	s[n] = '\0';
	return s;
}

static void witness_put(struct buf *b, const struct witness *wt)
{
	const struct sim_witness *w = &wt->w;

	buf_u64(b, w->found);
	if (!w->found)
		return;
	buf_put(b, &w->outcome, sizeof(w->outcome));
	buf_u64(b, w->steps);
	buf_put(b, w->choices, w->steps * sizeof(*w->choices));
	buf_put(b, w->enabled, w->steps * sizeof(*w->enabled));
	buf_str(b, w->schedule);
	buf_u64(b, w->exec_seed);
	buf_u64(b, w->execution);
	buf_str(b, wt->state);
	buf_u64(b, wt->holds);
}

static void witness_get(struct buf *b, struct witness *wt)
{
	struct sim_witness *w = &wt->w;
	char *state;

	memset(wt, 0, sizeof(*wt));
	if (!get_u64(b))
		return;
	w->found = true;
	buf_get(b, &w->outcome, sizeof(w->outcome));
	w->steps = (uint32_t)get_u64(b);
	w->choices = malloc((w->steps + 1) * sizeof(*w->choices));
	w->enabled = malloc((w->steps + 1) * sizeof(*w->enabled));
	if (!w->choices || !w->enabled)
		abort();
	buf_get(b, w->choices, w->steps * sizeof(*w->choices));
	buf_get(b, w->enabled, w->steps * sizeof(*w->enabled));
	w->schedule = get_str(b);
	w->exec_seed = get_u64(b);
	w->execution = get_u64(b);
	state = get_str(b);
	snprintf(wt->state, sizeof(wt->state), "%s", state);
	free(state);
	wt->holds = get_u64(b);
}

/* One item's result: the first three fields are what progress needs. */
static void item_put(struct buf *b, const struct collect *c,
		     const struct sim_explore_result *r)
{
	buf_u64(b, r->executions);
	buf_u64(b, r->pruned);
	buf_u64(b, r->failures);
	buf_u64(b, r->steps);
	buf_put(b, r->by_kind, sizeof(r->by_kind));
	buf_u64(b, r->complete);
	buf_u64(b, r->determinism_checked);
	buf_u64(b, r->determinism_ok);
	buf_u64(b, c->positive);
	buf_u64(b, c->negative);
	buf_u64(b, c->states_count);
	for (size_t i = 0; i < c->states_count; i++) {
		buf_str(b, c->states[i].state);
		buf_u64(b, c->states[i].count);
		buf_u64(b, c->states[i].holds);
	}
	buf_u64(b, c->states_other);
	buf_u64(b, c->unexpected_count);
	buf_put(b, c->by_atom, sizeof(c->by_atom));
	buf_u64(b, c->eval_failed);
	buf_str(b, c->eval_message);
	buf_u64(b, c->index);
	witness_put(b, &c->witness);
	witness_put(b, &c->unexpected);
}

/* @count more executions ended in @state (state_add, @count at once). */
static void state_add_count(struct collect *c, const char *state, bool holds,
			    uint64_t count)
{
	for (size_t i = 0; i < c->states_count; i++) {
		if (strcmp(c->states[i].state, state) == 0) {
			c->states[i].count += count;
			return;
		}
	}
	if (c->states_count == STATES_KEPT_MAX) {
		c->states_other += count;
		return;
	}
	state_add(c, state, holds);
	c->states[c->states_count - 1].count = count;
}

/* Merge the next item's result (in item order) into @c and @r. */
static void item_merge(struct buf *b, struct collect *c,
		       struct sim_explore_result *r)
{
	uint64_t by_kind[SIM_FAIL_KIND_COUNT], by_atom[3], n, eval, index;
	struct witness w;
	char *text;

	r->executions += get_u64(b);
	r->pruned += get_u64(b);
	r->failures += get_u64(b);
	r->steps += get_u64(b);
	buf_get(b, by_kind, sizeof(by_kind));
	for (size_t k = 0; k < SIM_FAIL_KIND_COUNT; k++)
		r->by_kind[k] += by_kind[k];
	if (!get_u64(b))
		r->complete = false;
	if (get_u64(b)) {
		r->determinism_checked = true;
		if (!get_u64(b))
			r->determinism_ok = false;
	} else {
		get_u64(b);
	}
	c->positive += get_u64(b);
	c->negative += get_u64(b);
	n = get_u64(b);
	for (uint64_t i = 0; i < n; i++) {
		char *state = get_str(b);
		uint64_t count = get_u64(b);
		bool holds = get_u64(b);

		state_add_count(c, state, holds, count);
		free(state);
	}
	c->states_other += get_u64(b);
	c->unexpected_count += get_u64(b);
	buf_get(b, by_atom, sizeof(by_atom));
	for (size_t k = 0; k < 3; k++)
		c->by_atom[k] += by_atom[k];
	eval = get_u64(b);
	text = get_str(b);
	if (eval && !c->eval_failed)
		snprintf(c->eval_message, sizeof(c->eval_message), "%s", text);
	c->eval_failed += eval;
	free(text);
	index = get_u64(b);
	witness_get(b, &w);
	w.w.execution += c->index;
	if (w.w.found && !c->witness.w.found)
		c->witness = w;
	else
		witness_free(&w);
	witness_get(b, &w);
	w.w.execution += c->index;
	if (w.w.found && !c->unexpected.w.found)
		c->unexpected = w;
	else
		witness_free(&w);
	c->index += index;
}

/*
 * A message from a worker: 'P' (progress), 'D' (items it gave away) or
 * 'R' (its result).
 */
struct split_msg {
	char type;
	uint32_t unit;
	uint64_t len;
	uint64_t executions, pruned, failing;	/* 'P' */
};

/*
 * Under mpirun with more than one rank (-Dmpi=enabled), the workers are
 * ranks 1..N-1 and rank 0 hands out the items: the same messages, in
 * the same pieces, go over MPI instead of pipes, and a "file descriptor"
 * below is a rank.
 */
static int mpi_rank, mpi_size = 1;

static bool write_all(int fd, const void *p, size_t n)
{
	const char *c = p;

#ifdef WPSIM_MPI
	if (mpi_size > 1)
		return !n || MPI_Send(p, (int)n, MPI_BYTE, fd, 0,
				      MPI_COMM_WORLD) == MPI_SUCCESS;
#endif
	while (n) {
		ssize_t k = write(fd, c, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		c += k;
		n -= (size_t)k;
	}
	return true;
}

static bool read_all(int fd, void *p, size_t n)
{
	char *c = p;

#ifdef WPSIM_MPI
	if (mpi_size > 1)
		return !n || MPI_Recv(p, (int)n, MPI_BYTE, fd, 0,
				      MPI_COMM_WORLD, MPI_STATUS_IGNORE) ==
			     MPI_SUCCESS;
#endif
	while (n) {
		ssize_t k = read(fd, c, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		c += k;
		n -= (size_t)k;
	}
	return true;
}

/* What a worker needs while it runs an item. */
static struct {
	int fd;
	uint32_t unit;
	bool progress;
	double last;
	struct sim_strategy *s;
	const struct sim_program *program;
	const struct sim_exec_options *exec;
	uint64_t runs;
	uint64_t given_pruned, given_steps;	/* of the donations' runs */
} worker;

static double split_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void worker_send(const struct split_msg *m, const void *payload)
{
	if (!write_all(worker.fd, m, sizeof(*m)) ||
	    (m->len && !write_all(worker.fd, payload, m->len)))
		_exit(PAIR_ERROR);
}

/* Every SPLIT_DONATE_EVERY runs, the untried top of the item goes. */
static void worker_donate(void)
{
	struct sim_dpor_split *sp = sim_dpor_donate(worker.s, worker.program,
						     worker.exec);
	struct split_msg m = { .type = 'D', .unit = worker.unit };
	struct buf b = { 0 };
	uint32_t levels;
	uint64_t pruned, steps;

	if (!sp)
		return;
	sim_dpor_split_stats(sp, &levels, &pruned, &steps);
	worker.given_pruned += pruned;
	worker.given_steps += steps;
	buf_u64(&b, sim_dpor_split_items(sp));
	for (uint32_t i = 0; i < sim_dpor_split_items(sp); i++) {
		size_t need = sim_dpor_split_pack(sp, i, NULL, 0);

		buf_u64(&b, need);
		if (b.len + need > b.cap) {
			b.cap = (b.len + need) * 2;
			b.data = realloc(b.data, b.cap);
			if (!b.data)
				abort();
		}
		sim_dpor_split_pack(sp, i, b.data + b.len, need);
		b.len += need;
	}
	/* The nodes it hands over: the coordinator's from now on. */
	{
		size_t need = sim_dpor_split_pack_nodes(sp, NULL, 0);

		buf_u64(&b, need);
		if (b.len + need > b.cap) {
			b.cap = (b.len + need) * 2;
			b.data = realloc(b.data, b.cap);
			if (!b.data)
				abort();
		}
		sim_dpor_split_pack_nodes(sp, b.data + b.len, need);
		b.len += need;
	}
	sim_dpor_split_free(sp);
	m.len = b.len;
	worker_send(&m, b.data);
	free(b.data);
}

/* The worker's stop: a signal or Sometimes decided; donations, progress. */
static bool worker_stop(void *ctx)
{
	struct collect *c = ctx;

	if (stop_search(ctx))
		return true;
	if (++worker.runs % SPLIT_DONATE_EVERY == 0)
		worker_donate();
	if (worker.progress && (worker.runs & 63) == 0 &&
	    split_now() - worker.last >= 0.25) {
		struct split_msg m = { .type = 'P', .unit = worker.unit };

		worker.last = split_now();
		m.executions = c->index;
		m.pruned = sim_dpor_pruned(worker.s) + worker.given_pruned;
		m.failing = c->failing;
		worker_send(&m, NULL);
	}
	return false;
}

/* A worker: run the items the parent sends until it says quit. */
static void split_worker(struct collect *c,
			 const struct sim_explore_options *eo, int in,
			 int out)
{
	struct sim_explore_options o = *eo;
	struct { uint32_t unit; uint64_t len; } h;

	o.stop = worker_stop;
	o.ctx = c;
	o.progress = NULL;
	worker.fd = out;
	worker.program = &c->x.program;
	worker.exec = &eo->exec;
	while (read_all(in, &h, sizeof(h)) && h.unit != SPLIT_QUIT) {
		struct sim_explore_result res;
		struct split_msg m = { .type = 'R', .unit = h.unit };
		struct sim_dpor_split *sp;
		struct sim_strategy s;
		struct buf b = { 0 };
		char *item = malloc(h.len + 1);

		if (!item || !read_all(in, item, h.len))
			_exit(PAIR_ERROR);
		sp = sim_dpor_split_unpack(item, h.len);
		free(item);
		collect_reset(c);
		c->failing = 0;
		if (sim_strategy_dpor_item(&s, sp, 0) != 0)
			_exit(PAIR_ERROR);
		c->strategy = &s;
		worker.unit = h.unit;
		worker.s = &s;
		worker.last = split_now();
		worker.runs = 0;
		worker.given_pruned = worker.given_steps = 0;
		sim_explore(&c->x.program, &s, &o, &res);
		res.pruned += worker.given_pruned;
		res.steps += worker.given_steps;
		item_put(&b, c, &res);
		/* Last: the races it found for the coordinator's nodes. */
		{
			size_t need = sim_dpor_requests_pack(&s, NULL, 0);

			buf_u64(&b, need);
			if (b.len + need > b.cap) {
				b.cap = (b.len + need) * 2;
				b.data = realloc(b.data, b.cap);
				if (!b.data)
					abort();
			}
			sim_dpor_requests_pack(&s, b.data + b.len, need);
			b.len += need;
		}
		m.len = b.len;
		worker_send(&m, b.data);
		free(b.data);
		sim_explore_result_fini(&res);
		sim_strategy_fini(&s);
		sim_dpor_split_free(sp);
	}
	if (mpi_size > 1)
		return;		/* the rank goes on to the next pair */
	_exit(0);
}

/*
 * A unit of work: an item, packed, and what its run found.  Units form
 * a tree in merge order: an item's result, then the items it gave away,
 * the last given first (each donation is deeper than the one before it,
 * so its items come first in DFS order).
 */
struct unit {
	struct buf item, result;
	int64_t parent, first, next;
	int32_t ctx;		/* its deepest node the coordinator owns */
	bool got;
};

struct units {
	struct unit *u;
	size_t count, cap;
	int64_t *queue;		/* to hand out, first in first out */
	size_t qhead, qtail, qcap;
};

static int64_t unit_add(struct units *us, const void *item, size_t len,
			int64_t parent)
{
	struct unit *u;

	if (us->count == us->cap) {
		us->cap = us->cap ? 2 * us->cap : 256;
		us->u = realloc(us->u, us->cap * sizeof(*us->u));
		if (!us->u)
			abort();
	}
	u = &us->u[us->count];
	memset(u, 0, sizeof(*u));
	buf_put(&u->item, item, len);
	u->parent = parent;
	u->first = u->next = -1;
	u->ctx = -1;
	if (us->qtail == us->qcap) {
		us->qcap = us->qcap ? 2 * us->qcap : 256;
		us->queue = realloc(us->queue, us->qcap * sizeof(*us->queue));
		if (!us->queue)
			abort();
	}
	us->queue[us->qtail++] = (int64_t)us->count;
	return (int64_t)us->count++;
}

struct split_worker_state {
	pid_t pid;
	int to, from;
	int64_t unit;		/* running, or -1 */
	uint64_t executions, pruned, failing;	/* of that unit so far */
};

/*
 * The aggregate progress line of a split pair; @idle: the share of the
 * workers' time so far that they had no item to run.
 */
static void split_progress(FILE *out, const char *label, bool tty,
			   double started, uint64_t executions,
			   uint64_t pruned, uint64_t failing, size_t done,
			   size_t items, double idle)
{
	double elapsed = split_now() - started;

	fprintf(out, "%s%s: %" PRIu64 " executions (+%" PRIu64
		" redundant), %" PRIu64 " failing, %.0f/s, %.0f s, %zu of %zu "
		"items done, workers idle %.0f%%%s", tty ? "\r  " : "", label,
		executions, pruned, failing, elapsed > 0 ?
		(double)(executions + pruned) / elapsed : 0, elapsed, done,
		items, 100 * idle, tty ? "   " : "\n");
	fflush(out);
}

/* Hand unit @unit (or quit: -1) to worker @w. */
static void split_send(struct units *us, struct split_worker_state *w,
		       int64_t unit)
{
	struct { uint32_t unit; uint64_t len; } h = { SPLIT_QUIT, 0 };

	if (unit >= 0) {
		h.unit = (uint32_t)unit;
		h.len = us->u[unit].item.len;
	}
	if (!write_all(w->to, &h, sizeof(h)) ||
	    (unit >= 0 && !write_all(w->to, us->u[unit].item.data, h.len)))
		unit = -1;
	w->unit = unit;
	w->executions = w->pruned = w->failing = 0;
	if (unit < 0) {
		if (mpi_size == 1)
			close(w->to);
		w->to = -1;
	}
}

/* A worker that died (or sent nonsense) gets nothing more. */
static void split_dead(struct split_worker_state *w)
{
	w->unit = -1;
	if (w->to >= 0 && mpi_size == 1)
		close(w->to);
	w->to = -1;
}

/* The unit after @cur in merge order (preorder), or -1. */
static int64_t unit_next(const struct units *us, int64_t cur)
{
	if (us->u[cur].first >= 0)
		return us->u[cur].first;
	while (cur >= 0 && us->u[cur].next < 0)
		cur = us->u[cur].parent;
	return cur >= 0 ? us->u[cur].next : -1;
}

/*
 * A donation of unit @parent: its items go first among its children,
 * and the nodes it hands over are the coordinator's (@tops).
 */
static void units_donated(struct units *us, struct sim_dpor_tops *tops,
			  int64_t parent, struct buf *b)
{
	uint64_t k = get_u64(b);
	int64_t first = -1, last = -1;
	size_t len;
	int32_t ctx;

	for (uint64_t i = 0; i < k; i++) {
		size_t len = (size_t)get_u64(b);
		int64_t u;

		if (b->pos + len > b->len) {
			fprintf(stderr, "wpsim: --jobs: a worker's donation "
				"is short\n");
			exit(EXIT_USAGE);
		}
		u = unit_add(us, b->data + b->pos, len, parent);
		b->pos += len;
		if (last >= 0)
			us->u[last].next = u;
		else
			first = u;
		last = u;
	}
	len = (size_t)get_u64(b);
	if (b->pos + len > b->len) {
		fprintf(stderr, "wpsim: --jobs: a worker's donation is short\n");
		exit(EXIT_USAGE);
	}
	ctx = sim_dpor_tops_add(tops, us->u[parent].ctx, b->data + b->pos,
				len);
	b->pos += len;
	us->u[parent].ctx = ctx;
	for (int64_t u = first; u >= 0 && u != us->u[parent].first;
	     u = us->u[u].next)
		us->u[u].ctx = ctx;
	if (last >= 0) {
		us->u[last].next = us->u[parent].first;
		us->u[parent].first = first;
	}
}

/*
 * The races unit @cur forwarded (the end of its result @b), merged in
 * merge order: the items the coordinator runs for them go last among
 * @cur's children.  Their redundant nodes and steps count in @r.
 */
static void units_requested(struct units *us, struct sim_dpor_tops *tops,
			    const struct collect *c,
			    const struct sim_explore_options *eo,
			    int64_t cur, struct buf *b,
			    struct sim_explore_result *r)
{
	size_t len = (size_t)get_u64(b);
	struct sim_dpor_split *sp;
	int64_t last = -1;
	uint32_t levels;
	uint64_t pruned, steps;

	if (b->pos + len > b->len) {
		fprintf(stderr, "wpsim: --jobs: a worker's result is short\n");
		exit(EXIT_USAGE);
	}
	sp = sim_dpor_tops_apply(tops, &c->x.program, &eo->exec,
				 us->u[cur].ctx, b->data + b->pos, len);
	b->pos += len;
	if (!sp)
		return;
	sim_dpor_split_stats(sp, &levels, &pruned, &steps);
	r->pruned += pruned;
	r->steps += steps;
	for (int64_t u = us->u[cur].first; u >= 0; u = us->u[u].next)
		last = u;
	for (uint32_t i = 0; i < sim_dpor_split_items(sp); i++) {
		size_t need = sim_dpor_split_pack(sp, i, NULL, 0);
		char *bytes = malloc(need);
		int64_t u;

		if (!bytes)
			abort();
		sim_dpor_split_pack(sp, i, bytes, need);
		u = unit_add(us, bytes, need, cur);
		free(bytes);
		us->u[u].ctx = sim_dpor_split_item_ctx(sp, i);
		if (last >= 0)
			us->u[last].next = u;
		else
			us->u[cur].first = u;
		last = u;
	}
	sim_dpor_split_free(sp);
}

/*
 * Run pair @c's search split over opts->jobs workers; the merged result
 * in @r and @c.  Returns 0, or -1 when a worker died.
 */
static int run_split(const struct sim_explore_options *eo, struct collect *c,
		     const struct wpsim_opts *opts,
		     struct sim_explore_result *r, struct split_info *info)
{
	struct sim_dpor_split *sp;
	struct split_worker_state *ws;
	struct units us = { 0 };
	struct sim_dpor_tops *tops = sim_dpor_tops_new();
	bool stop = false, dead = false;
	uint32_t n, jobs;
	int64_t cur;
	size_t done = 0;
	uint64_t top_steps, fin_exec = 0, fin_pruned = 0, fin_failing = 0;
	sigset_t stops, old;
	bool tty = !opts->quiet && isatty(STDERR_FILENO);
	bool show = !opts->quiet && (opts->progress_seconds > 0 || tty);
	double every = opts->progress_seconds > 0 ? opts->progress_seconds :
		       0.5;
	double started = split_now(), last_print = started;
	double idle_at = started, idle_s = 0;	/* worker-seconds idle */
	uint32_t busy_before = 0;
	bool printed = false;

	if (opts->progress_seconds > 0)
		tty = false;
	sp = sim_dpor_split(&c->x.program, &eo->exec, SPLIT_ITEMS_MIN,
			    SPLIT_LEVELS_MAX);
	n = sim_dpor_split_items(sp);
	memset(r, 0, sizeof(*r));
	r->complete = true;
	r->determinism_ok = true;
	sim_dpor_split_stats(sp, &info->levels, &info->top_pruned, &top_steps);
	info->items = n;
	r->pruned = info->top_pruned;
	r->steps = top_steps;
	for (uint32_t i = 0; i < n; i++) {
		size_t need = sim_dpor_split_pack(sp, i, NULL, 0);
		char *bytes = malloc(need);

		if (!bytes)
			abort();
		sim_dpor_split_pack(sp, i, bytes, need);
		unit_add(&us, bytes, need, -1);
		if (i > 0)
			us.u[i - 1].next = i;
		free(bytes);
	}
	sim_dpor_split_free(sp);
	jobs = mpi_size > 1 ? (uint32_t)mpi_size - 1 : opts->jobs;
	ws = calloc(jobs + 1, sizeof(*ws));
	if (!ws)
		abort();
	if (mpi_size > 1 && mpi_rank > 0) {
		/* A worker rank: the items rank 0 sends, then the next pair. */
		worker.progress = show;
		split_worker(c, eo, 0, 0);
		sim_dpor_tops_free(tops);
		for (size_t i = 0; i < us.count; i++)
			free(us.u[i].item.data);
		free(us.u);
		free(us.queue);
		free(ws);
		return 0;
	}
	sigemptyset(&stops);
	sigaddset(&stops, SIGINT);
	sigaddset(&stops, SIGTERM);
	fflush(NULL);
	for (uint32_t k = 0; mpi_size > 1 && k < jobs; k++) {
		ws[k].to = ws[k].from = (int)k + 1;
		ws[k].unit = -1;
	}
	for (uint32_t k = 0; mpi_size == 1 && k < jobs && n; k++) {
		int to[2], from[2];

		if (pipe(to) != 0 || pipe(from) != 0) {
			fprintf(stderr, "wpsim: --jobs: pipe: %s\n",
				strerror(errno));
			exit(EXIT_USAGE);
		}
		/* A signal waits until the worker is on the list. */
		sigprocmask(SIG_BLOCK, &stops, &old);
		ws[k].pid = fork();
		if (ws[k].pid < 0) {
			fprintf(stderr, "wpsim: --jobs: fork: %s\n",
				strerror(errno));
			exit(EXIT_USAGE);
		}
		if (ws[k].pid == 0) {
			stop_in_child = true;
			for (uint32_t i = 0; i < k; i++) {
				if (ws[i].to >= 0)
					close(ws[i].to);
				close(ws[i].from);
			}
			close(to[1]);
			close(from[0]);
			sigprocmask(SIG_SETMASK, &old, NULL);
			worker.progress = show;
			split_worker(c, eo, to[0], from[1]);
		}
		stop_child_add(ws[k].pid);
		sigprocmask(SIG_SETMASK, &old, NULL);
		close(to[0]);
		close(from[1]);
		ws[k].to = to[1];
		ws[k].from = from[0];
		ws[k].unit = -1;
	}
	cur = n ? 0 : -1;
	busy_before = jobs;	/* the fork time counts as busy */
	idle_at = split_now();
	for (;;) {
		struct pollfd pfd[STOP_CHILDREN_MAX];
		uint32_t busy = 0, map[STOP_CHILDREN_MAX];
		int rc;

		for (uint32_t k = 0; k < jobs && n; k++) {
			if (ws[k].unit < 0 && ws[k].to >= 0 && !stop &&
			    !stop_signal && us.qhead < us.qtail)
				split_send(&us, &ws[k], us.queue[us.qhead++]);
			if (ws[k].unit < 0)
				continue;
			pfd[busy].fd = ws[k].from;
			pfd[busy].events = POLLIN;
			map[busy++] = k;
		}
		if (!busy)
			break;
		{
			double now = split_now();

			/* Since the last poll, busy_before had an item. */
			idle_s += (now - idle_at) * (jobs - busy_before);
			idle_at = now;
			busy_before = busy;
		}
#ifdef WPSIM_MPI
		if (mpi_size > 1) {
			/* The first worker with a message is "ready". */
			int flag = 0;
			MPI_Status st;

			for (int t = 0; t < 250 && !flag; t++) {
				MPI_Iprobe(MPI_ANY_SOURCE, 0, MPI_COMM_WORLD,
					   &flag, &st);
				if (!flag)
					usleep(1000);
			}
			for (uint32_t x = 0; x < busy; x++)
				pfd[x].revents = flag && pfd[x].fd ==
						 st.MPI_SOURCE ? POLLIN : 0;
			rc = flag;
		} else
#endif
		rc = poll(pfd, busy, 250);
		if (rc < 0 && errno != EINTR) {
			fprintf(stderr, "wpsim: --jobs: poll: %s\n",
				strerror(errno));
			exit(EXIT_USAGE);
		}
		for (uint32_t x = 0; rc > 0 && x < busy; x++) {
			struct split_worker_state *w = &ws[map[x]];
			struct split_msg m;
			struct buf b = { 0 };

			if (!(pfd[x].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (!read_all(w->from, &m, sizeof(m)) ||
			    m.unit >= us.count || m.len > SIZE_MAX / 2) {
				split_dead(w);
				dead = true;
				continue;
			}
			if (m.type == 'P') {
				w->executions = m.executions;
				w->pruned = m.pruned;
				w->failing = m.failing;
				continue;
			}
			b.data = malloc(m.len + 1);
			if (!b.data)
				abort();
			b.len = b.cap = m.len;
			if (!read_all(w->from, b.data, m.len)) {
				free(b.data);
				split_dead(w);
				dead = true;
				continue;
			}
			if (m.type == 'D') {
				units_donated(&us, tops, m.unit, &b);
				free(b.data);
				continue;
			}
			us.u[m.unit].result = b;
			us.u[m.unit].got = true;
			done++;
			{
				uint64_t head[3];

				memcpy(head, b.data, sizeof(head));
				fin_exec += head[0];
				fin_pruned += head[1];
				fin_failing += head[2];
			}
			w->unit = -1;
			w->executions = w->pruned = w->failing = 0;
			while (!stop && cur >= 0 && us.u[cur].got) {
				item_merge(&us.u[cur].result, c, r);
				units_requested(&us, tops, c, eo, cur,
						&us.u[cur].result, r);
				free(us.u[cur].result.data);
				us.u[cur].result.data = NULL;
				us.u[cur].got = false;
				cur = unit_next(&us, cur);
				if (decided(c))
					stop = true;
			}
		}
		/* Decided by the units merged: the later ones can go (a
		 * rank is not killed: its result comes and is dropped). */
		for (uint32_t k = 0; stop && mpi_size == 1 && k < jobs; k++) {
			if (ws[k].unit < 0)
				continue;
			kill(ws[k].pid, SIGKILL);
			ws[k].unit = -1;
		}
		/* Every unit handed out and none running: done. */
		if (show && split_now() - last_print >= every) {
			uint64_t e = fin_exec, p = fin_pruned, f = fin_failing;

			for (uint32_t k = 0; k < jobs; k++) {
				e += ws[k].executions;
				p += ws[k].pruned;
				f += ws[k].failing;
			}
			last_print = split_now();
			split_progress(stderr, eo->progress_label, tty,
				       started, e, p + info->top_pruned, f,
				       done, us.count, idle_s > 0 ?
				       idle_s / (jobs * (split_now() -
				       started)) : 0);
			printed = true;
		}
	}
	if (tty && printed)
		fputc('\n', stderr);
	for (uint32_t k = 0; mpi_size > 1 && k < jobs; k++)
		if (ws[k].to >= 0)
			split_send(&us, &ws[k], -1);
	for (uint32_t k = 0; mpi_size == 1 && k < jobs && n; k++) {
		int wstatus;

		if (ws[k].to >= 0)
			close(ws[k].to);
		close(ws[k].from);
		while (waitpid(ws[k].pid, &wstatus, 0) < 0 && errno == EINTR)
			;
		stop_child_remove(ws[k].pid);
		if (!stop && (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus)))
			dead = true;
	}
	/* Stopped by a signal: what the units that ran found, in order. */
	if (cur >= 0)
		r->complete = false;
	for (; cur >= 0 && !stop; cur = unit_next(&us, cur))
		if (us.u[cur].got)
			item_merge(&us.u[cur].result, c, r);
	for (size_t i = 0; i < us.count; i++) {
		free(us.u[i].item.data);
		free(us.u[i].result.data);
	}
	if (!r->determinism_checked)
		r->determinism_ok = false;
	info->units = us.count;
	sim_dpor_tops_free(tops);
	free(us.u);
	free(us.queue);
	free(ws);
	return dead ? -1 : 0;
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

/* Explore one pair and print its report in the format asked. */
static enum pair_status run_pair(const struct pair *p,
				 const struct wpsim_opts *opts, FILE *out)
{
	const struct wpsim_scenario *sc = p->sc;
	/* dpor by default, bounded by --preemptions or the scenario's. */
	const char *strategy = opts->strategy ? opts->strategy : "dpor";
	const char *format = opts->format ? opts->format : "text";
	bool ktap = strcmp(format, "ktap") == 0;
	struct sim_explore_options eo = { 0 };
	struct collect *c = calloc(1, sizeof(*c));
	struct verdict v = { 0 };
	struct sim_strategy s;
	char label[512], label_variant[256];
	uint32_t steps_max;
	bool failed_otherwise = false;
	enum pair_status status;

	if (!c)
		abort();
	wpsim_exec_init(&c->x, sc, &p->variant);
	c->x.steps_option = opts->steps_max;
	v.bound = opts->preemptions >= 0 ? opts->preemptions :
		  sc->preemptions;
	v.iterative_bound = -1;
	if (setup_strategy(opts, strategy, &s) != 0) {
		fprintf(stderr, "wpsim: out of memory\n");
		exit(EXIT_USAGE);
	}
	c->strategy = &s;
	steps_max = opts->steps_max ? opts->steps_max : sc->steps_max;
	if (opts->preemptions < 0 && sc->preemptions >= 0 &&
	    (s.kind == SIM_STRATEGY_DFS || s.kind == SIM_STRATEGY_DPOR)) {
		bool dpor = s.kind == SIM_STRATEGY_DPOR;

		sim_strategy_fini(&s);
		if (dpor)
			sim_strategy_dpor_bounded(&s, sc->preemptions);
		else
			sim_strategy_dfs(&s, sc->preemptions);
	}
	eo.exec.steps_max = steps_max;
	eo.stop_on_failure = false;
	eo.verify_determinism = opts->verify;
	if (opts->executions && (s.kind == SIM_STRATEGY_DFS ||
				 s.kind == SIM_STRATEGY_DPOR))
		eo.executions_max = opts->executions;
	eo.on_execution = on_execution;
	eo.ctx = c;
	c->stop_when_decided = !opts->exhaustive && !opts->compare_dfs &&
			       p->expect &&
			       p->expect->observation == LITMUS_OBS_SOMETIMES &&
			       (s.kind == SIM_STRATEGY_DFS ||
				s.kind == SIM_STRATEGY_DPOR);
	eo.stop = stop_search;
	/*
	 * The engine prints it on a terminal, never inside a job; with
	 * --progress whatever stderr is, in jobs too, each line naming its
	 * pair.
	 */
	eo.progress = opts->quiet || (opts->jobs > 1 &&
				      !opts->progress_seconds) ? NULL : stderr;
	eo.progress_seconds = opts->progress_seconds;
	pair_variant_text(label_variant, sizeof(label_variant), p);
	snprintf(label, sizeof(label), "%s %s", sc->scn->name, label_variant);
	eo.progress_label = label;
	if (opts->estimate_probes && mpi_rank == 0) {
		wpsim_estimate(NULL, "", &c->x.program, &eo.exec,
			       opts->estimate_probes,
			       s.kind == SIM_STRATEGY_DPOR,
			       s.preemption_bound, &v.estimate);
		eo.estimated_total = v.estimate.mean;
	}
	if (opts->iterative && s.kind == SIM_STRATEGY_DPOR) {
		/* A bound asked for (--preemptions or the scenario's) is
		 * the last one tried; without one, unbounded comes last. */
		int64_t asked = v.bound;
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

			sim_strategy_fini(&s);
			sim_strategy_dpor_bounded(&s, last ? -1 : k);
			collect_reset(c);
			sim_explore(&c->x.program, &s, &eo, &v.res);
			v.iterative_bound = k;
			v.bound = last ? -1 : k;
			if (last || c->witness.w.found ||
			    c->unexpected_count || !v.res.bound_hit ||
			    (asked >= 0 && k == asked))
				break;
			sim_explore_result_fini(&v.res);
		}
	} else if (pair_splits(p, opts) && s.kind == SIM_STRATEGY_DPOR &&
		   s.preemption_bound < 0) {
		if (run_split(&eo, c, opts, &v.res, &v.split) != 0) {
			fprintf(stderr, "wpsim: a worker of %s %s died\n",
				sc->path, label_variant);
			sim_explore_result_fini(&v.res);
			sim_strategy_fini(&s);
			collect_reset(c);
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
	if (opts->compare_dfs && mpi_rank == 0)
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

	if (strcmp(format, "json") == 0) {
		print_json(out, p, c, &v, s.ops->name,
			   opts->accept_incomplete);
	} else if (ktap || strcmp(format, "tap") == 0) {
		char *text = NULL, variant[256], name[512];
		size_t len = 0, number;
		FILE *m = open_memstream(&text, &len);

		if (!m)
			abort();
		print_text(m, p, c, &v, &s, opts);
		fclose(m);
		print_commented(out, text);
		free(text);
		pair_variant_text(variant, sizeof(variant), p);
		if (ktap)	/* a subtest of its scenario's test */
			snprintf(name, sizeof(name), "%s", variant);
		else
			snprintf(name, sizeof(name), "%s %s", sc->scn->name,
				 variant);
		number = ktap ? p->sub_index + 1 : p->index + 1;
		if (!v.decided && opts->accept_incomplete)
			fprintf(out, "ok %zu %s # SKIP not decided: "
				"incomplete (%s)\n", number, name,
				v.incomplete);
		else if (!v.decided)
			fprintf(out, "not ok %zu %s # not decided: "
				"incomplete (%s)\n", number, name,
				v.incomplete);
		else
			fprintf(out, "%s %zu %s\n", v.ok ? "ok" : "not ok",
				number, name);
	} else {
		print_text(out, p, c, &v, &s, opts);
		fputc('\n', out);
	}

	sim_explore_result_fini(&v.res);
	sim_strategy_fini(&s);
	sim_witness_fini(&v.shrunk);
	for (size_t i = 0; i < c->states_count; i++)
		free(c->states[i].state);
	free(c->states);
	witness_free(&c->witness);
	witness_free(&c->unexpected);
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

static const struct litmus_expect *expect_for(const struct wpsim_scenario *sc,
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
		(*pairs)[n].expect = expect_for(sc, &(*pairs)[n].variant);
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
		(*pairs)[n].expect = expect_for(sc, &v);
		n++;
	}
	return n;
}

/*
 * Print pair @p's report, written to @report, in the run's format.  KTAP
 * nests: each scenario is a test whose subtests are its pairs, so the
 * first pair of a scenario opens it (version line, "# Subtest:", plan),
 * its report is indented four spaces, and the last one closes it with
 * the scenario's result line.  A job that crashed gets its result line
 * here.
 */
static void emit_pair(FILE *out, const struct pair *p, FILE *report,
		      const unsigned int *status, const struct wpsim_opts *opts)
{
	const char *format = opts->format ? opts->format : "text";
	bool ktap = strcmp(format, "ktap") == 0;
	bool tap = ktap || strcmp(format, "tap") == 0;
	const char *indent = ktap ? "    " : "";
	const char *name = p->sc->scn->name;
	char line[8192];
	bool start = true;

	if (ktap && p->sub_index == 0)
		fprintf(out, "    KTAP version 1\n    # Subtest: %s\n"
			"    1..%zu\n", name, p->subs);
	rewind(report);
	while (fgets(line, sizeof(line), report)) {
		if (start && line[0] != '\n')
			fputs(indent, out);
		fputs(line, out);
		start = strchr(line, '\n') != NULL;
	}
	if (!start)
		fputc('\n', out);
	if (tap && status[p->index] == PAIR_ERROR)
		fprintf(out, "%snot ok %zu %s # the job crashed\n", indent,
			ktap ? p->sub_index + 1 : p->index + 1, name);
	if (ktap && p->sub_index + 1 == p->subs) {
		const struct pair *first = p - p->sub_index;
		bool failed = false, skipped = false;

		for (size_t i = first->index; i <= p->index; i++) {
			failed = failed || status[i] == PAIR_NOT_OK ||
				 status[i] == PAIR_ERROR ||
				 (status[i] == PAIR_UNDECIDED &&
				  !opts->accept_incomplete);
			skipped = skipped || status[i] == PAIR_UNDECIDED;
		}
		if (failed)
			fprintf(out, "not ok %zu %s\n", p->scenario_index + 1,
				name);
		else if (skipped)
			fprintf(out, "ok %zu %s # SKIP not decided: "
				"incomplete\n", p->scenario_index + 1, name);
		else
			fprintf(out, "ok %zu %s\n", p->scenario_index + 1,
				name);
	}
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

				stop_in_child = true;
				sigprocmask(SIG_SETMASK, &old, NULL);
				rc = run_pair(&pairs[next], opts,
					      files[next]);

				fflush(files[next]);
				_exit(rc);
			}
			pids[next++] = pid;
			stop_child_add(pid);
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
			stop_child_remove(pid);
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
		emit_pair(out, &pairs[i], files[i], status, opts);
		fclose(files[i]);
	}
	free(files);
	free(pids);
	return 0;
}

/* "N of M scenario x variant checks ok", and what the others were. */
static void summary_line(size_t passed, size_t failed, size_t undecided,
			 size_t n, const struct wpsim_opts *opts)
{
	printf("%zu of %zu scenario x variant checks ok", passed, n);
	if (failed)
		printf(", %zu not ok", failed);
	if (undecided)
		printf(", %zu not decided (the search was incomplete%s)",
		       undecided, opts->accept_incomplete ?
		       "; accepted by --accept-incomplete" : "");
	if (!failed && !undecided)
		printf(": every expectation holds");
	printf("\n");
}

static int check_scenarios(struct wpsim_scenario **scs, size_t count,
			   const struct wpsim_opts *opts);

#ifdef WPSIM_MPI
/*
 * Started by mpirun (or srun) with more than one rank: MPI on, every
 * pair that splits uses the ranks as its workers (and --jobs as given
 * does not matter), rank 0 alone prints.  A single rank: as without MPI.
 */
static void mpi_start(struct wpsim_opts *o)
{
	if (!getenv("OMPI_COMM_WORLD_SIZE") && !getenv("PMIX_RANK") &&
	    !getenv("PMI_RANK"))
		return;
	MPI_Init(NULL, NULL);
	MPI_Comm_rank(MPI_COMM_WORLD, &mpi_rank);
	MPI_Comm_size(MPI_COMM_WORLD, &mpi_size);
	if (mpi_size == 1) {
		MPI_Finalize();
		return;
	}
	o->split = true;
	o->jobs = (unsigned int)mpi_size - 1;
	if (mpi_rank > 0 && !freopen("/dev/null", "w", stdout))
		abort();
}
#endif

int wpsim_check_scenarios(struct wpsim_scenario **scs, size_t count,
			  const struct wpsim_opts *opts_in)
{
	struct wpsim_opts mopts = *opts_in;
	const struct wpsim_opts *opts = &mopts;
	int rc;

#ifdef WPSIM_MPI
	mpi_start(&mopts);
#endif
	rc = check_scenarios(scs, count, opts);
#ifdef WPSIM_MPI
	if (mpi_size > 1) {
		fflush(stdout);
		MPI_Finalize();
		if (mpi_rank > 0)
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
		if (mpi_rank > 0 && !pair_splits(&pairs[i], opts)) {
			i = j;	/* rank 0 runs it */
			continue;
		}
		if (opts->jobs > 1 && j - i > 1 && mpi_size == 1) {
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
			emit_pair(stdout, &pairs[i], report, status, opts);
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
		summary_line(passed, failed + errors, undecided, n, opts);
	free(pairs);
	free(status);
	/* A crashed job is not bad input: it fails the check. */
	if (failed + errors)
		return EXIT_FOUND;
	return undecided && !opts->accept_incomplete ? EXIT_INCOMPLETE :
	       EXIT_CLEAN;
}
