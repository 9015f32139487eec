// SPDX-License-Identifier: MIT
/*
 * tools/harness/harness.c - the public race-test harness
 * (include/wpsim/harness.h): a race as an engine program, explored with
 * DPOR, its Never / Sometimes / Always verdict, the witness report with
 * its replay line, the WPSIM_RACE / WPSIM_SCHEDULE replay mode, and KTAP.
 *
 * Models: nothing of the kernel; it builds the world through
 * m_world_setup() and runs the model's own checks.  Leaves out: search
 * strategies other than DPOR (the wpsim command has them), and any
 * notion of time.
 */
#include "wpsim/harness.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model-hash.h"
#include "model/observe.h"
#include "sim/shared.h"
#include "model/variant.h"

#define REPORT_TAIL_STEPS	25	/* event-log steps in a report */

static const char *const expect_names[] = {
	[WPSIM_NEVER] = "Never",
	[WPSIM_SOMETIMES] = "Sometimes",
	[WPSIM_ALWAYS] = "Always",
};

/* ---- the race as a program --------------------------------------------- */

static struct wpsim_race *race_now;
static int64_t regs[WPSIM_RACE_TASKS_MAX][WPSIM_RACE_REGS_MAX];
static bool holds_now;		/* the property, set by race_final */

void wpsim_race_init(struct wpsim_race *race, const char *name)
{
	memset(race, 0, sizeof(*race));
	race->name = name;
	m_world_config_default(&race->world);
	race->expect = WPSIM_NEVER;
	race->preemptions = -1;
}

int wpsim_race_task(struct wpsim_race *race, const char *name,
		    sim_task_fn fn, void *arg)
{
	if (race->nr_tasks >= WPSIM_RACE_TASKS_MAX)
		return -E2BIG;
	race->tasks[race->nr_tasks++] = (struct wpsim_task){
		.name = name, .fn = fn, .arg = arg,
	};
	return 0;
}

int wpsim_race_variant(struct wpsim_race *race, const char *key_value)
{
	char why[640];

	if (m_variant_set(&race->world, key_value, why, sizeof(why))) {
		fprintf(stderr, "wpsim_race_variant: %s\n", why);
		return -EINVAL;
	}
	return 0;
}

struct km_file *wpsim_file(const char *name)
{
	return m_world_file(name);
}

struct wpsim_race *wpsim_race_current(void)
{
	return race_now;
}

void wpsim_reg_set(unsigned int k, int64_t value)
{
	int task = sim_task_current();

	SIM_ASSERT_MSG(task >= 0 && task < WPSIM_RACE_TASKS_MAX &&
		       k < WPSIM_RACE_REGS_MAX,
		       "wpsim_reg_set(%u) from task %d: registers are for "
		       "the race's own tasks, %d of %d each", k, task,
		       WPSIM_RACE_REGS_MAX, WPSIM_RACE_TASKS_MAX);
	regs[task][k] = value;
}

int64_t wpsim_reg(unsigned int task, unsigned int k)
{
	if (task >= WPSIM_RACE_TASKS_MAX || k >= WPSIM_RACE_REGS_MAX)
		return 0;
	return regs[task][k];
}

void wpsim_task_writeback(void *arg)
{
	(void)arg;
	wpsim_reg_set(0, m_writeback_inode(m_world()->inodes[0],
					   WB_SYNC_NONE));
}

void wpsim_task_writeback_sync(void *arg)
{
	(void)arg;
	wpsim_reg_set(0, m_writeback_inode(m_world()->inodes[0],
					   WB_SYNC_ALL));
}

/* No dirty data lost: the model's invariant (m_world_lost_sectors). */
static void check_no_lost_data(void)
{
	struct m_lost_sector first;

	if (m_world_lost_sectors(NULL, &first))
		sim_fail(SIM_FAIL_PROPERTY, "lost write: folio %u sector %zu "
			 "holds %u, disk %u, folio clean", first.folio,
			 first.sector, first.cached, first.disk);
}

void wpsim_world_end_checks(bool quiescent, bool lost_data)
{
	char why[256];

	if (quiescent && !m_world_quiescent_check(why, sizeof(why)))
		sim_fail(SIM_FAIL_INVARIANT, "%s", why);
	if (lost_data)
		check_no_lost_data();
}

static void race_setup(void *config)
{
	struct wpsim_race *r = config;

	race_now = r;
	memset(regs, 0, sizeof(regs));
	holds_now = false;
	m_world_setup(&r->world);
	if (r->setup)
		r->setup(r);
	for (unsigned int i = 0; i < r->nr_tasks; i++)
		sim_task_spawn(r->tasks[i].name, r->tasks[i].fn,
			       r->tasks[i].arg);
}

static void race_final(void *config)
{
	struct wpsim_race *r = config;

	wpsim_world_end_checks(!r->skip_quiescent_check,
			       !r->skip_lost_data_check);
	if (r->final)
		r->final(r);
	if (r->property)
		holds_now = r->property(r);
}

void wpsim_race_program(struct wpsim_race *r, struct sim_program *p)
{
	*p = (struct sim_program){
		.name = r->name,
		.setup = race_setup,
		.final = race_final,
		.config = r,
	};
}

int wpsim_race_explore(struct wpsim_race *race,
		       struct sim_explore_result *res)
{
	struct sim_program p;
	struct sim_strategy s;
	struct sim_explore_options opt = {
		.exec = { .steps_max = race->steps_max },
		.stop_on_failure = true,
		.executions_max = race->executions_max,
	};

	memset(res, 0, sizeof(*res));
	sim_schedule_set_origin(WPSIM_MODEL_HASH);
	if (sim_strategy_dpor_bounded(&s, race->preemptions) != 0)
		return -1;
	wpsim_race_program(race, &p);
	sim_explore(&p, &s, &opt, res);
	sim_strategy_fini(&s);
	return 0;
}

void wpsim_race_replay(struct wpsim_race *race, const char *schedule,
		       struct sim_outcome *o)
{
	struct sim_program p;
	struct sim_exec_options exec = { .steps_max = race->steps_max };

	wpsim_race_program(race, &p);
	sim_replay(&p, schedule, &exec, o);
}

/* ---- exploring ----------------------------------------------------------- */

struct run {
	struct wpsim_race *race;
	uint64_t positive, negative;
	char *first_positive, *first_negative;	/* schedules, malloc'ed */
	char *unexpected;			/* schedule of one */
	bool stopped;				/* decided before the end */
	struct sim_outcome unexpected_outcome;
};

static bool positive_of(struct run *run, const struct sim_outcome *o)
{
	return run->race->property ? holds_now : o->kind != SIM_OK;
}

static bool unexpected_of(struct run *run, const struct sim_outcome *o)
{
	const struct wpsim_race *r = run->race;

	if (o->kind == SIM_OK)
		return false;
	if (r->property)
		return true;
	return r->failure_contains &&
	       !strstr(o->message, r->failure_contains);
}

static void on_execution(void *ctx, const struct sim_outcome *o)
{
	struct run *run = ctx;

	if (unexpected_of(run, o)) {
		if (!run->unexpected) {
			run->unexpected = sim_exec_schedule_string();
			run->unexpected_outcome = *o;
		}
		return;
	}
	if (positive_of(run, o)) {
		if (!run->positive++)
			run->first_positive = sim_exec_schedule_string();
	} else if (!run->negative++) {
		run->first_negative = sim_exec_schedule_string();
	}
}

static bool decided(struct run *run)
{
	if (run->unexpected)
		return true;
	switch (run->race->expect) {
	case WPSIM_NEVER:
		return run->positive > 0;
	case WPSIM_ALWAYS:
		return run->negative > 0;
	case WPSIM_SOMETIMES:
		return run->positive && run->negative &&
		       !run->race->exhaustive;
	}
	return false;
}

static bool should_stop(void *ctx)
{
	struct run *run = ctx;

	run->stopped = decided(run);
	return run->stopped;
}

static const char *property_name(const struct wpsim_race *r)
{
	if (r->property)
		return r->property_text ? r->property_text : "the property";
	return r->failure_contains ? "an execution fails (message contains "
				     "the expected text)" :
				     "an execution fails";
}

/* The replay line: the environment, the program, the Criterion filter. */
static void print_replay(FILE *out, const struct wpsim_race *r,
			 const char *schedule, const char *suite,
			 const char *test)
{
	fprintf(out, "  replay:      WPSIM_RACE='%s' WPSIM_SCHEDULE='%s' %s",
		r->name, schedule, program_invocation_name);
	if (suite && test)
		fprintf(out, " --filter '%s/%s'", suite, test);
	fputc('\n', out);
}

/* Replay @schedule with the log kept; print outcome, log tail, dumps. */
static void print_witness(FILE *out, struct wpsim_race *r,
			  const char *what, const char *schedule,
			  const char *suite, const char *test)
{
	struct sim_program p;
	struct sim_exec_options exec = { .steps_max = r->steps_max,
					 .keep_log = true };
	struct sim_outcome o;

	wpsim_race_program(r, &p);
	sim_replay(&p, schedule, &exec, &o);
	fprintf(out, "  witness:     %s\n", what);
	fprintf(out, "  outcome:     %s%s%s\n", sim_failure_kind_name(o.kind),
		o.kind != SIM_OK ? ": " : "",
		o.kind != SIM_OK ? o.message : "");
	if (r->property && o.kind == SIM_OK)
		fprintf(out, "  property:    %s %s\n", property_name(r),
			holds_now ? "holds" : "does not hold");
	fprintf(out, "  steps:       %llu, preemptions %u\n",
		(unsigned long long)o.steps,
		o.preemptions);
	fprintf(out, "  schedule:    %s\n", schedule);
	print_replay(out, r, schedule, suite, test);
	fprintf(out, "  last steps (step task access object = value):\n");
	sim_exec_print_log(out, o.steps > REPORT_TAIL_STEPS ?
			   o.steps - REPORT_TAIL_STEPS : 0);
	sim_exec_dump(out);
}

static void keep_schedule(struct wpsim_race_result *res, const char *s)
{
	snprintf(res->witness, sizeof(res->witness), "%s", s ? s : "");
}

static void search_words(char *buf, size_t size, const struct wpsim_race *r,
			 const struct run *run,
			 const struct sim_explore_result *er)
{
	int len = snprintf(buf, size, "%llu executions (%llu redundant), ",
			   (unsigned long long)er->executions,
			   (unsigned long long)er->pruned);

	if (len < 0 || (size_t)len >= size)
		return;
	if (!er->complete && run->stopped)
		snprintf(buf + len, size - (size_t)len, "stopped once "
			 "decided");
	else if (!er->complete)
		snprintf(buf + len, size - (size_t)len, "search stopped before "
			 "covering its space");
	else if (r->preemptions >= 0 && er->bound_hit)
		snprintf(buf + len, size - (size_t)len, "every interleaving "
			 "within %d preemptions (the bound cut others)",
			 r->preemptions);
	else
		snprintf(buf + len, size - (size_t)len, "exhaustive");
}

static enum wpsim_verdict replay_mode(struct wpsim_race *r, FILE *out,
				      const char *schedule,
				      struct wpsim_race_result *res)
{
	struct sim_program p;
	struct sim_exec_options exec = { .steps_max = r->steps_max,
					 .keep_log = true };
	struct sim_outcome o;
	struct run run = { .race = r };
	bool pos;

	wpsim_race_program(r, &p);
	sim_replay(&p, schedule, &exec, &o);
	res->executions = 1;
	keep_schedule(res, schedule);
	if (out) {
		fprintf(out, "race %s: replaying WPSIM_SCHEDULE=%s\n", r->name,
			schedule);
		sim_exec_print_log(out, 0);
		fprintf(out, "  outcome:     %s%s%s\n",
			sim_failure_kind_name(o.kind),
			o.kind != SIM_OK ? ": " : "",
			o.kind != SIM_OK ? o.message : "");
		if (o.kind != SIM_OK)
			sim_exec_dump(out);
	}
	if (o.kind == SIM_FAIL_DIVERGED || unexpected_of(&run, &o)) {
		snprintf(res->message, sizeof(res->message), "%s: %.400s",
			 sim_failure_kind_name(o.kind), o.message);
		res->failures = o.kind != SIM_OK;
		return res->verdict = WPSIM_FAIL;
	}
	pos = positive_of(&run, &o);
	res->failures = o.kind != SIM_OK;
	res->positive = pos;
	res->negative = !pos;
	if ((r->expect == WPSIM_NEVER && pos) ||
	    (r->expect == WPSIM_ALWAYS && !pos)) {
		snprintf(res->message, sizeof(res->message), "expected %s: "
			 "this execution contradicts it (%s %s)",
			 expect_names[r->expect], property_name(r),
			 pos ? "holds" : "does not hold");
		res->verdict = WPSIM_FAIL;
	} else {
		snprintf(res->message, sizeof(res->message), "one execution "
			 "does not decide %s (%s %s)", expect_names[r->expect],
			 property_name(r), pos ? "holds" : "does not hold");
		res->verdict = WPSIM_UNDECIDED;
	}
	if (out)
		fprintf(out, "  verdict:     %s\n", res->message);
	return res->verdict;
}

static enum wpsim_verdict race_run(struct wpsim_race *r, FILE *out,
				   struct wpsim_race_result *res,
				   const char *suite, const char *test)
{
	struct sim_program p;
	struct sim_strategy s;
	struct sim_explore_result er;
	struct run run = { .race = r };
	struct sim_explore_options opt = {
		.exec = { .steps_max = r->steps_max },
		.verify_determinism = true,
		.executions_max = r->executions_max,
		.on_execution = on_execution,
		.stop = should_stop,
		.ctx = &run,
	};
	const char *replay_race = getenv("WPSIM_RACE");
	const char *replay_schedule = getenv("WPSIM_SCHEDULE");
	const char *what = NULL, *witness = NULL;
	char search[160];

	memset(res, 0, sizeof(*res));
	sim_schedule_set_origin(WPSIM_MODEL_HASH);
	if (replay_schedule && *replay_schedule &&
	    (!replay_race || strcmp(replay_race, r->name) == 0))
		return replay_mode(r, out, replay_schedule, res);

	wpsim_race_program(r, &p);
	if (sim_strategy_dpor_bounded(&s, r->preemptions) != 0) {
		snprintf(res->message, sizeof(res->message),
			 "cannot start DPOR");
		return res->verdict = WPSIM_FAIL;
	}
	sim_explore(&p, &s, &opt, &er);
	res->executions = er.executions;
	res->redundant = er.pruned;
	res->failures = er.failures;
	res->positive = run.positive;
	res->negative = run.negative;
	res->complete = er.complete;
	res->bound_hit = er.bound_hit;
	search_words(search, sizeof(search), r, &run, &er);

	if (run.unexpected) {
		res->verdict = WPSIM_FAIL;
		snprintf(res->message, sizeof(res->message), "unexpected %s: "
			 "%.400s", sim_failure_kind_name(
				 run.unexpected_outcome.kind),
			 run.unexpected_outcome.message);
		what = r->property ? "an execution that failed (the property "
			"is about final states, so a failure is unexpected)" :
			"a failure without the expected message";
		witness = run.unexpected;
	} else if (er.determinism_checked && !er.determinism_ok) {
		res->verdict = WPSIM_FAIL;
		snprintf(res->message, sizeof(res->message), "nondeterminism: "
			 "a replayed schedule gave another event log (an "
			 "engine or model bug)");
	} else if (r->expect == WPSIM_NEVER && run.positive) {
		res->verdict = WPSIM_FAIL;
		what = "the first execution where it holds";
		witness = run.first_positive;
	} else if (r->expect == WPSIM_ALWAYS && run.negative) {
		res->verdict = WPSIM_FAIL;
		what = "the first execution where it does not hold";
		witness = run.first_negative;
	} else if (r->expect == WPSIM_SOMETIMES) {
		if (run.positive && run.negative)
			res->verdict = WPSIM_PASS;
		else if (er.complete)
			res->verdict = WPSIM_FAIL;
		else
			res->verdict = WPSIM_UNDECIDED;
		if (run.positive)
			witness = run.first_positive;
	} else {
		res->verdict = er.complete ? WPSIM_PASS : WPSIM_UNDECIDED;
	}
	if (!res->message[0])
		snprintf(res->message, sizeof(res->message), "%s%s: %s: "
			 "held in %llu, not in %llu; %s",
			 res->verdict == WPSIM_PASS ? "" :
			 res->verdict == WPSIM_FAIL ? "expected " :
			 "not decided, expected ",
			 expect_names[r->expect], property_name(r),
			 (unsigned long long)run.positive,
			 (unsigned long long)run.negative, search);
	keep_schedule(res, witness);
	if (out) {
		fprintf(out, "race %s: %s: %s\n", r->name,
			res->verdict == WPSIM_PASS ? "PASS" :
			res->verdict == WPSIM_FAIL ? "FAIL" : "NOT DECIDED",
			res->message);
		if (res->verdict != WPSIM_PASS) {
			fprintf(out, "  search:      dpor, %s\n", search);
			if (r->preemptions >= 0)
				fprintf(out, "  bound:       %d preemptions\n",
					r->preemptions);
		}
		if (res->verdict == WPSIM_FAIL && witness)
			print_witness(out, r, what ? what :
				      "an execution where it holds", witness,
				      suite, test);
	}
	free(run.first_positive);
	free(run.first_negative);
	free(run.unexpected);
	sim_explore_result_fini(&er);
	sim_strategy_fini(&s);
	return res->verdict;
}

enum wpsim_verdict wpsim_race_run(struct wpsim_race *race, FILE *out,
				  struct wpsim_race_result *result)
{
	return race_run(race, out, result, NULL, NULL);
}

bool wpsim_race_check_named(struct wpsim_race *race, const char *suite,
			    const char *test)
{
	struct wpsim_race_result res;

	return race_run(race, stderr, &res, suite, test) == WPSIM_PASS;
}

bool wpsim_race_check(struct wpsim_race *race)
{
	return wpsim_race_check_named(race, NULL, NULL);
}

/* ---- KTAP -------------------------------------------------------------- */

/* Print @text with every line as a KTAP diagnostic ("# ..."). */
static void diagnostic_lines(FILE *out, const char *text)
{
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) : strlen(text);

		fprintf(out, "# %.*s\n", (int)len, text);
		text += len + (nl ? 1 : 0);
	}
}

int wpsim_ktap_run(FILE *out, const char *suite,
		   struct wpsim_race *const *races, size_t nr_races)
{
	int pass = 0, fail = 0;

	fprintf(out, "KTAP version 1\n");
	fprintf(out, "# Subtest: %s\n", suite);
	fprintf(out, "1..%zu\n", nr_races);
	for (size_t i = 0; i < nr_races; i++) {
		struct wpsim_race_result res;
		char *text = NULL;
		size_t size = 0;
		FILE *mem = open_memstream(&text, &size);
		enum wpsim_verdict v = race_run(races[i], mem ? mem : stderr,
						&res, NULL, NULL);

		if (mem) {
			fclose(mem);
			diagnostic_lines(out, text);
			free(text);
		}
		if (v == WPSIM_PASS)
			pass++;
		else
			fail++;
		fprintf(out, "%s %zu %s\n", v == WPSIM_PASS ? "ok" : "not ok",
			i + 1, races[i]->name);
		fflush(out);
	}
	fprintf(out, "# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:0 "
		"error:0\n", pass, fail);
	return fail;
}

/* ---- versions ------------------------------------------------------------ */

const char *wpsim_version(void)
{
	return WPSIM_VERSION;
}

const char *wpsim_model_hash(void)
{
	return WPSIM_MODEL_HASH;
}
