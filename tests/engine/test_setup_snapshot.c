// SPDX-License-Identifier: MIT
/*
 * tests/engine/test_setup_snapshot.c - the snapshot after setup
 * (include/sim/snapshot.h, issue 28 session 18) changes no result.
 *
 * A search runs its program's setup once and restores the state it left
 * before every later execution.  For scenarios whose setups differ (an
 * ext4 file with writethrough's state, two dontcache writers, XFS,
 * io_uring requests, O_DIRECT on ext4, several files), DPOR's first
 * executions are run three ways: setup every time, from the snapshot,
 * and from the snapshot verified against a real setup (the arena, every
 * registered static and the program's whole static data compared byte
 * for byte).  Per execution the outcome, steps, event-log hash, virtual
 * end time, the condition's value and the final state must be the same
 * in all three, and the verification must find nothing.
 *
 * What a wrong snapshot looks like: a static that setup resets and an
 * execution changes, left out of the snapshot, keeps the previous
 * execution's value.  The litmus registers (scenario.regs) are one; left
 * out, the verification fails the execution and names it.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "sim/arena.h"
#include "sim/explore.h"
#include "sim/lockdep.h"
#include "sim/shared.h"
#include "sim/snapshot.h"
#include "sim/strategy.h"
#include "tools/wpsim/scenario.h"

#define EXECUTIONS	200

struct record {
	enum sim_failure_kind kind;
	uint64_t steps;
	uint64_t log_hash;
	uint64_t end_ns;
	int holds;
	char state[256];
	char message[SIM_MESSAGE_BYTES];
};

struct collect {
	struct wpsim_exec *x;
	uint64_t runs;		/* executions, redundant ones too */
	size_t n;
	struct record r[EXECUTIONS];
};

static void on_execution(void *ctx, const struct sim_outcome *o)
{
	struct collect *c = ctx;
	struct record *r;

	if (c->n == EXECUTIONS)
		return;
	r = &c->r[c->n++];
	r->kind = o->kind;
	r->steps = o->steps;
	r->log_hash = o->log_hash;
	r->end_ns = o->end_ns;
	snprintf(r->message, sizeof(r->message), "%s", o->message);
	r->holds = wpsim_exec_evaluate(c->x, o->kind, r->state,
				       sizeof(r->state));
}

/* DPOR's first EXECUTIONS executions of @file's default variant. */
static struct collect *search(const char *file)
{
	struct wpsim_scenario *sc = wpsim_scenario_load(file, stderr);
	struct wpsim_exec *x = calloc(1, sizeof(*x));
	struct collect *c = calloc(1, sizeof(*c));
	struct sim_explore_options eo = { 0 };
	struct sim_explore_result res;
	struct sim_strategy s;

	cr_assert_not_null(sc, "%s", file);
	cr_assert(x && c);
	wpsim_exec_init(x, sc, &sc->defaults);
	c->x = x;
	cr_assert_eq(sim_strategy_dpor(&s), 0);
	eo.exec.steps_max = sc->steps_max;
	eo.on_execution = on_execution;
	eo.ctx = c;
	eo.executions_max = EXECUTIONS;
	sim_explore(&x->program, &s, &eo, &res);
	c->runs = res.executions + res.pruned;
	sim_explore_result_fini(&res);
	sim_strategy_fini(&s);
	wpsim_exec_fini(x);
	free(x);
	return c;
}

static const char *const files[] = {
	WPSIM_SOURCE_DIR "/scenarios/writethrough/noserial-overlap.litmus",
	WPSIM_SOURCE_DIR "/scenarios/dontcache/adjacent-records-two-writers.litmus",
	WPSIM_SOURCE_DIR "/scenarios/xfs/dio-unaligned-zeroing.litmus",
	WPSIM_SOURCE_DIR "/scenarios/io_uring/nowait-vs-writer.litmus",
	WPSIM_SOURCE_DIR "/scenarios/ext4/truncate-vs-extending-dio-write.litmus",
	WPSIM_SOURCE_DIR "/scenarios/mm/sync-all-vs-truncate.litmus",
	WPSIM_SOURCE_DIR "/scenarios/xfs/enospc-dio-last-block.litmus",
	WPSIM_SOURCE_DIR "/scenarios/xfs/nowait-write-stale-times.litmus",
};

static void same(const struct collect *a, const struct collect *b,
		 const char *file, const char *what)
{
	cr_assert_eq(a->n, b->n, "%s, %s: %zu executions, not %zu", file,
		     what, b->n, a->n);
	for (size_t i = 0; i < a->n; i++) {
		const struct record *p = &a->r[i], *q = &b->r[i];

		cr_assert(p->kind == q->kind && p->steps == q->steps &&
			  p->log_hash == q->log_hash &&
			  p->end_ns == q->end_ns && p->holds == q->holds &&
			  strcmp(p->state, q->state) == 0,
			  "%s, %s: execution %zu differs: %s %llu steps hash "
			  "%016llx end %llu holds %d state %s (%s), not %s "
			  "%llu steps hash %016llx end %llu holds %d state "
			  "%s", file, what, i, sim_failure_kind_name(q->kind),
			  (unsigned long long)q->steps,
			  (unsigned long long)q->log_hash,
			  (unsigned long long)q->end_ns, q->holds, q->state,
			  q->message, sim_failure_kind_name(p->kind),
			  (unsigned long long)p->steps,
			  (unsigned long long)p->log_hash,
			  (unsigned long long)p->end_ns, p->holds, p->state);
	}
}

Test(setup_snapshot, same_executions_as_setup_every_time, .timeout = 600)
{
	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		struct collect *off, *on, *verified;
		unsigned long restores;

		sim_setup_snapshot_enable(false);
		off = search(files[f]);
		sim_setup_snapshot_enable(true);
		restores = sim_setup_snapshot_restores();
		on = search(files[f]);
		cr_assert_geq(on->n, 2, "%s: too few executions", files[f]);
		cr_assert_eq(sim_setup_snapshot_restores() - restores,
			     on->runs - 1, "%s: every execution but the first "
			     "is restored", files[f]);
		sim_setup_snapshot_verify(true);
		verified = search(files[f]);
		sim_setup_snapshot_verify(false);
		same(off, on, files[f], "from the snapshot");
		same(off, verified, files[f], "verified");
		for (size_t i = 0; i < verified->n; i++)
			cr_assert_neq(verified->r[i].kind,
				      SIM_FAIL_NONDETERMINISM, "%s: %s",
				      files[f], verified->r[i].message);
		free(off);
		free(on);
		free(verified);
	}
}

Test(setup_snapshot, a_static_left_out_is_found, .timeout = 300)
{
	struct collect *c;
	size_t found = 0;

	if (!sim_setup_snapshot_data_verified())
		cr_skip_test("an AddressSanitizer build: the whole static data "
			     "is not compared");
	sim_setup_snapshot_enable(true);
	sim_setup_snapshot_verify(true);
	sim_setup_snapshot_leave_out("scenario.regs");
	c = search(files[0]);
	sim_setup_snapshot_leave_out(NULL);
	sim_setup_snapshot_verify(false);
	for (size_t i = 0; i < c->n; i++)
		if (c->r[i].kind == SIM_FAIL_NONDETERMINISM &&
		    strstr(c->r[i].message, "scenario.regs"))
			found++;
	cr_assert_gt(found, 0, "leaving the registers out of the snapshot "
		     "went unnoticed in %zu executions", c->n);
	free(c);
}

/*
 * A static that setup sets and a task changes, which nobody registered:
 * the verification's comparison of the whole static data finds it.  Two
 * tasks write one word, so DPOR runs two executions.
 */
static struct sim_word *shared_word;	/* registered */
static volatile int unregistered;	/* not: setup sets 0, a task 7 */

static void writer(void *arg)
{
	(void)arg;
	sim_word_write(shared_word, 1);
	unregistered = 7;
}

static void tiny_setup(void *config)
{
	(void)config;
	shared_word = sim_arena_alloc(sizeof(*shared_word));
	sim_setup_static(&shared_word, sizeof(shared_word), "shared_word");
	sim_word_init(shared_word, 0, "word");
	unregistered = 0;
	sim_task_spawn("A", writer, NULL);
	sim_task_spawn("B", writer, NULL);
}

static void tiny_final(void *config)
{
	(void)config;
}

Test(setup_snapshot, an_unregistered_static_is_found)
{
	struct sim_program p = { "tiny", "two writers", tiny_setup,
				 tiny_final, NULL };
	struct sim_explore_options eo = { 0 };
	struct sim_explore_result res;
	struct sim_strategy s;

	if (!sim_setup_snapshot_data_verified())
		cr_skip_test("an AddressSanitizer build: the whole static data "
			     "is not compared");

	sim_setup_snapshot_allow(tiny_setup);
	sim_setup_snapshot_enable(true);
	sim_setup_snapshot_verify(true);
	cr_assert_eq(sim_strategy_dpor(&s), 0);
	sim_explore(&p, &s, &eo, &res);
	sim_setup_snapshot_verify(false);
	cr_assert_eq(res.executions, 2, "%llu executions, %llu failing, %s",
		     (unsigned long long)res.executions,
		     (unsigned long long)res.failures,
		     res.first.found ? res.first.outcome.message : "-");
	cr_assert_eq(res.by_kind[SIM_FAIL_NONDETERMINISM], 1,
		     "the second execution's verification fails");
	cr_assert(res.first.found && strstr(res.first.outcome.message,
					    "static data"),
		  "%s", res.first.outcome.message);
	sim_explore_result_fini(&res);
	sim_strategy_fini(&s);
}

/*
 * The rules of setup's objects (lockdep's table by object id, outside
 * the static data the verification compares): the restore copies back
 * only the entries from the lowest one written since (session 20), so
 * an execution that drops the rule of a word setup guarded must find it
 * restored in the next one.  The verification compares the whole table
 * after each restore; with the table left out of the restore it names
 * the rules that differ.
 */
static struct sim_word *guarded_word;
static struct sim_spinlock *guard_lock;

static void unguarder(void *arg)
{
	(void)arg;
	sim_word_write(shared_word, 1);
	sim_word_unguard(guarded_word);
}

static void guard_setup(void *config)
{
	(void)config;
	shared_word = sim_arena_alloc(sizeof(*shared_word));
	guarded_word = sim_arena_alloc(sizeof(*guarded_word));
	guard_lock = sim_arena_alloc(sizeof(*guard_lock));
	sim_setup_static(&shared_word, sizeof(shared_word), "shared_word");
	sim_setup_static(&guarded_word, sizeof(guarded_word), "guarded_word");
	sim_setup_static(&guard_lock, sizeof(guard_lock), "guard_lock");
	sim_word_init(shared_word, 0, "word");
	sim_spin_init(guard_lock, "guard_lock");
	sim_word_init(guarded_word, 0, "guarded");
	sim_word_guard(guarded_word, guard_lock);
	sim_task_spawn("A", unguarder, NULL);
	sim_task_spawn("B", unguarder, NULL);
}

static void guard_run(const char *leave_out, struct sim_explore_result *res)
{
	struct sim_program p = { "guards", "two unguarders", guard_setup,
				 tiny_final, NULL };
	struct sim_explore_options eo = { 0 };
	struct sim_strategy s;

	sim_setup_snapshot_allow(guard_setup);
	sim_setup_snapshot_enable(true);
	sim_setup_snapshot_verify(true);
	sim_setup_snapshot_leave_out(leave_out);
	cr_assert_eq(sim_strategy_dpor(&s), 0);
	sim_explore(&p, &s, &eo, res);
	sim_setup_snapshot_leave_out(NULL);
	sim_setup_snapshot_verify(false);
	sim_strategy_fini(&s);
}

Test(setup_snapshot, the_rules_of_setups_objects_are_restored)
{
	struct sim_explore_result res;
	unsigned long restores = sim_setup_snapshot_restores();

	guard_run(NULL, &res);
	cr_assert_eq(res.executions, 2, "%llu executions, %llu failing, %s",
		     (unsigned long long)res.executions,
		     (unsigned long long)res.failures,
		     res.first.found ? res.first.outcome.message : "-");
	cr_assert_eq(res.failures, 0, "%s", res.first.found ?
		     res.first.outcome.message : "-");
	cr_assert_gt(sim_setup_snapshot_restores(), restores,
		     "the second execution was restored");
	sim_explore_result_fini(&res);

	guard_run("lockdep.guards", &res);
	cr_assert_eq(res.by_kind[SIM_FAIL_NONDETERMINISM], 1,
		     "the table left as the first execution left it is found");
	cr_assert(res.first.found && strstr(res.first.outcome.message,
					    "rules of setup's objects"),
		  "%s", res.first.outcome.message);
	sim_explore_result_fini(&res);
}
