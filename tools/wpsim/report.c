// SPDX-License-Identifier: MIT
/*
 * tools/wpsim/report.c - the reports of `wpsim check`: herd7's text
 * form (the final states with counts, the Observation line, the
 * expected word, the witness with its replay command), the JSON line
 * per pair, the TAP/KTAP wrapping of a pair's report, and the summary
 * line.  What a report says is decided in check.c; this file only
 * writes it.
 */
#include "tools/wpsim/check.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

void report_json(FILE *out, const struct pair *p, struct collect *c,
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
		!v->res.complete && check_decided(c) ? "true" : "false");
	if (v->estimate.probes) {
		const struct sim_dpor_estimate *d = &v->estimate.d;

		fprintf(out, ",\"estimate\":{\"%s\":%.6g,\"probes\":"
			"%u,\"relative_error\":%.4f", v->estimate.dpor ?
			"executions" : "schedules", v->estimate.mean,
			v->estimate.probes, v->estimate.relative_error);
		if (v->estimate.dpor && !v->estimate.complete)
			fprintf(out, ",\"at_least\":%" PRIu64,
				v->estimate.executions);
		if (v->estimate.dpor && !v->estimate.complete &&
		    isfinite(d->backtrack_mean))
			fprintf(out, ",\"weighted_backtrack\":%.6g",
				d->backtrack_mean);
		if (d->items_run)
			fprintf(out, ",\"subtrees\":%u,\"subtrees_run\":%u,"
				"\"subtrees_cut\":%u,\"subtrees_cut_share\":"
				"%.3f,\"subtrees_locks_expanded\":%s",
				d->items, d->items_run, d->items_cut,
				d->items_cut_share,
				d->items_expanded ? "true" : "false");
		fputc('}', out);
	}
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

/* The witness: its state and outcome, schedule, replay, shrunk form. */
static void text_witness(FILE *out, const struct collect *c,
			 const struct verdict *v)
{
	const struct sim_witness *w = &c->witness.w;
	char cmd[1024];

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

/* The human report of one pair (also the diagnostics of the KTAP form). */
void report_text(FILE *out, const struct pair *p, struct collect *c,
		       struct verdict *v, const struct sim_strategy *s,
		       const struct wpsim_opts *opts)
{
	const struct wpsim_scenario *sc = p->sc;
	char variant[256], cmd[1024], word[REASON_BYTES + 64];

	check_pair_variant_text(variant, sizeof(variant), p);
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
		else if (check_decided(c))
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
		      check_state_cmp);
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
			"without a condition", check_quantifier_wants(
				sc->scn->condition.quantifier), word);
	if (c->eval_failed)
		fprintf(out, "Error: %" PRIu64 " executions could not be "
			"evaluated: %s\n", c->eval_failed, c->eval_message);
	if (c->witness.w.found)
		text_witness(out, c, v);
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

/* Pair @p's report in the format asked (text, json, tap, ktap). */
void report_pair(FILE *out, const struct pair *p, struct collect *c,
		 struct verdict *v, const struct sim_strategy *s,
		 const struct wpsim_opts *opts)
{
	const struct wpsim_scenario *sc = p->sc;
	const char *format = opts->format ? opts->format : "text";
	bool ktap = strcmp(format, "ktap") == 0;

	if (strcmp(format, "json") == 0) {
		report_json(out, p, c, v, s->ops->name,
			   opts->accept_incomplete);
	} else if (ktap || strcmp(format, "tap") == 0) {
		char *text = NULL, variant[256], name[512];
		size_t len = 0, number;
		FILE *m = open_memstream(&text, &len);

		if (!m)
			abort();
		report_text(m, p, c, v, s, opts);
		fclose(m);
		report_commented(out, text);
		free(text);
		check_pair_variant_text(variant, sizeof(variant), p);
		if (ktap)	/* a subtest of its scenario's test */
			snprintf(name, sizeof(name), "%s", variant);
		else
			snprintf(name, sizeof(name), "%s %s", sc->scn->name,
				 variant);
		number = ktap ? p->sub_index + 1 : p->index + 1;
		if (!v->decided && opts->accept_incomplete)
			fprintf(out, "ok %zu %s # SKIP not decided: "
				"incomplete (%s)\n", number, name,
				v->incomplete);
		else if (!v->decided)
			fprintf(out, "not ok %zu %s # not decided: "
				"incomplete (%s)\n", number, name,
				v->incomplete);
		else
			fprintf(out, "%s %zu %s\n", v->ok ? "ok" : "not ok",
				number, name);
	} else {
		report_text(out, p, c, v, s, opts);
		fputc('\n', out);
	}
}

/* Every line of @text with "# " in front (KTAP diagnostics). */
void report_commented(FILE *out, const char *text)
{
	const char *line = text;

	while (*line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);

		fprintf(out, "# %.*s\n", (int)len, line);
		line += len + (nl ? 1 : 0);
	}
}

/*
 * Print pair @p's report, written to @report, in the run's format.  KTAP
 * nests: each scenario is a test whose subtests are its pairs, so the
 * first pair of a scenario opens it (version line, "# Subtest:", plan),
 * its report is indented four spaces, and the last one closes it with
 * the scenario's result line.  A job that crashed gets its result line
 * here.
 */
void report_emit_pair(FILE *out, const struct pair *p, FILE *report,
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

/* "N of M scenario x variant checks ok", and what the others were. */
void report_summary_line(size_t passed, size_t failed, size_t undecided,
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

