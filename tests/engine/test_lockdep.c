// SPDX-License-Identifier: MIT
/*
 * tests/engine/test_lockdep.c - locking rules (sim_word_guard,
 * sim_assert_held), the lock-order graph (sim_lockdep_order_enable) and
 * the data-race detector (--races): each rule kind
 * is caught in the first execution that breaks it and is silent when it
 * holds; the detector reports the engine demo's racy counter in one
 * execution and never the locked ones.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "sim/arena.h"
#include "sim/explore.h"
#include "sim/lockdep.h"
#include "sim/strategy.h"
#include "tools/programs/programs.h"

static void explore_dfs(const struct sim_program *p,
			struct sim_explore_result *res)
{
	struct sim_explore_options opt = { .stop_on_failure = true };
	struct sim_strategy s;

	cr_assert_eq(sim_strategy_dfs(&s, -1), 0);
	sim_explore(p, &s, &opt, res);
	sim_strategy_fini(&s);
}

/* ---- Locking rules ------------------------------------------------------ */

/* How the tasks of the rule programs behave (setup reads it). */
enum mode {
	WRITE_LOCKED,		/* spinlock held: fine */
	WRITE_UNLOCKED,		/* no lock: caught */
	READ_UNLOCKED,		/* a free read under a writes rule: fine */
	READ_UNLOCKED_ALL,	/* a read under an ALL rule: caught */
	WRITE_B,		/* rule "A or B", holds B: fine */
	WRITE_SHARED,		/* rwlock held shared, rule exclusive: caught */
	WRITE_SHARED_OK,	/* the same, rule SIM_GUARD_SHARED: fine */
	WRITE_BIT_LOCKED,	/* bit lock set: fine */
	WRITE_BIT_UNLOCKED,	/* bit lock clear: caught */
	ASSERT_HELD,		/* sim_assert_held with the mutex: fine */
	ASSERT_NOT_HELD,	/* without it: caught */
	OTHER_BIT,		/* a bit the rule does not cover: fine */
	COVERED_BIT,		/* a bit it covers: caught */
	ARRAY_LOCKED,		/* an array's rule (A), A held: fine */
	ARRAY_UNLOCKED,		/* no lock: caught */
	ARRAY_OTHER_RULE,	/* the next array's rule is B, A held:
				 * caught (guards are shared only alike) */
};

struct rules {
	enum mode mode;
	struct sim_spinlock a, b;
	struct sim_rwlock rw;
	struct sim_mutex m;
	struct sim_word lockword;	/* bit 0 is a bit lock */
	struct sim_word w;
	struct sim_word arr[4], arr2[4];
};

static struct rules *R;
static enum mode rules_mode;

static void rules_task(void *arg)
{
	struct rules *r = arg;

	switch (r->mode) {
	case WRITE_LOCKED:
		sim_spin_lock(&r->a);
		sim_word_write(&r->w, 1);
		sim_spin_unlock(&r->a);
		break;
	case WRITE_UNLOCKED:
		sim_word_write(&r->w, 1);
		sim_word_read(&r->w);	/* not a tail call: on the stack */
		break;
	case READ_UNLOCKED:
	case READ_UNLOCKED_ALL:
		sim_word_read(&r->w);
		break;
	case WRITE_B:
		sim_spin_lock(&r->b);
		sim_word_add(&r->w, 1);
		sim_spin_unlock(&r->b);
		break;
	case WRITE_SHARED:
	case WRITE_SHARED_OK:
		sim_rwlock_read_lock(&r->rw);
		sim_word_write(&r->w, 1);
		sim_rwlock_read_unlock(&r->rw);
		break;
	case WRITE_BIT_LOCKED:
		sim_bit_test_and_set(&r->lockword, 0);
		sim_word_write(&r->w, 1);
		sim_bit_clear(&r->lockword, 0);
		break;
	case WRITE_BIT_UNLOCKED:
		sim_word_write(&r->w, 1);
		break;
	case ASSERT_HELD:
		sim_mutex_lock(&r->m);
		sim_assert_held(&r->m);
		sim_mutex_unlock(&r->m);
		break;
	case ASSERT_NOT_HELD:
		sim_assert_held(&r->m);
		break;
	case OTHER_BIT:
		sim_bit_set(&r->w, 3);
		break;
	case COVERED_BIT:
		sim_bit_set(&r->w, 5);
		break;
	case ARRAY_LOCKED:
		sim_spin_lock(&r->a);
		sim_word_write(&r->arr[3], 1);
		sim_spin_unlock(&r->a);
		break;
	case ARRAY_UNLOCKED:
		sim_word_write(&r->arr[2], 1);
		sim_word_read(&r->w);	/* not a tail call: on the stack */
		break;
	case ARRAY_OTHER_RULE:
		sim_spin_lock(&r->a);
		sim_word_write(&r->arr2[3], 1);
		sim_spin_unlock(&r->a);
		break;
	}
}

static void rules_setup(void *config)
{
	struct sim_lock_ref none = { 0 };

	(void)config;
	R = sim_arena_alloc(sizeof(*R));
	R->mode = rules_mode;
	sim_spin_init(&R->a, "A");
	sim_spin_init(&R->b, "B");
	sim_rwlock_init(&R->rw, "rw");
	sim_mutex_init(&R->m, "m");
	sim_word_init(&R->lockword, 0, "lockword");
	sim_word_init(&R->w, 0, "w");
	for (int i = 0; i < 4; i++) {
		sim_word_init(&R->arr[i], 0, "arr[%d]", i);
		sim_word_init(&R->arr2[i], 0, "arr2[%d]", i);
	}
	switch (rules_mode) {
	case ARRAY_LOCKED:
	case ARRAY_UNLOCKED:
	case ARRAY_OTHER_RULE:
		sim_word_guard(&R->w, &R->a);
		sim_words_guard_ref(&R->arr[0], sizeof(R->arr[0]), 4,
				    SIM_GUARD_WRITES, 0, sim_lock_spin(&R->a),
				    none);
		sim_words_guard_ref(&R->arr2[0], sizeof(R->arr2[0]), 4,
				    SIM_GUARD_WRITES, 0, sim_lock_spin(&R->b),
				    none);
		break;
	case READ_UNLOCKED_ALL:
		sim_word_guard_ref(&R->w, SIM_GUARD_ALL, 0,
				   sim_lock_spin(&R->a), none);
		break;
	case WRITE_B:
		sim_word_guard2(&R->w, &R->a, &R->b);
		break;
	case WRITE_SHARED:
		sim_word_guard(&R->w, &R->rw);
		break;
	case WRITE_SHARED_OK:
		sim_word_guard_ref(&R->w, SIM_GUARD_SHARED, 0,
				   sim_lock_rwlock(&R->rw), none);
		break;
	case WRITE_BIT_LOCKED:
	case WRITE_BIT_UNLOCKED:
		sim_word_guard_ref(&R->w, SIM_GUARD_WRITES, 0,
				   sim_lock_bit(&R->lockword, 0), none);
		break;
	case OTHER_BIT:
	case COVERED_BIT:
		sim_word_guard_ref(&R->w, SIM_GUARD_WRITES, 1u << 5,
				   sim_lock_spin(&R->a), none);
		break;
	default:
		sim_word_guard(&R->w, &R->a);
		break;
	}
	sim_task_spawn("P0", rules_task, R);
	/* A bit lock has no owner: one task, which sets and clears it. */
	if (rules_mode != WRITE_BIT_LOCKED)
		sim_task_spawn("P1", rules_task, R);
}

static const struct sim_program rules_program = {
	.name = "test/rules",
	.setup = rules_setup,
};

static void expect(enum mode mode, bool caught)
{
	struct sim_explore_result res;

	rules_mode = mode;
	explore_dfs(&rules_program, &res);
	if (!caught) {
		cr_assert_eq(res.failures, 0, "mode %d: %s", mode,
			     res.first.outcome.message);
		cr_assert(res.complete);
	} else {
		cr_assert_eq(res.failures, 1, "mode %d", mode);
		cr_assert_eq(res.first.outcome.kind, SIM_FAIL_LOCKING,
			     "mode %d: %s", mode, res.first.outcome.message);
		/* The first execution, whatever the interleaving. */
		cr_assert_eq(res.executions, 1, "mode %d", mode);
		cr_assert(strstr(res.first.outcome.message, "lockdep:"));
	}
	sim_explore_result_fini(&res);
}

Test(lockdep, an_array_rule_covers_every_element)
{
	expect(ARRAY_LOCKED, false);
	expect(ARRAY_UNLOCKED, true);
	expect(ARRAY_OTHER_RULE, true);
}

Test(lockdep, a_write_under_its_lock_passes)
{
	expect(WRITE_LOCKED, false);
}

Test(lockdep, a_write_without_its_lock_fails_the_first_execution)
{
	expect(WRITE_UNLOCKED, true);
}

Test(lockdep, reads_are_free_unless_the_rule_covers_them)
{
	expect(READ_UNLOCKED, false);
	expect(READ_UNLOCKED_ALL, true);
}

Test(lockdep, lock_a_or_lock_b)
{
	expect(WRITE_B, false);
}

Test(lockdep, shared_hold_is_not_enough_for_a_write_unless_said)
{
	expect(WRITE_SHARED, true);
	expect(WRITE_SHARED_OK, false);
}

Test(lockdep, bit_locks)
{
	expect(WRITE_BIT_LOCKED, false);
	expect(WRITE_BIT_UNLOCKED, true);
}

Test(lockdep, assert_held)
{
	expect(ASSERT_HELD, false);
	expect(ASSERT_NOT_HELD, true);
}

Test(lockdep, a_rule_on_some_bits)
{
	expect(OTHER_BIT, false);
	expect(COVERED_BIT, true);
}

Test(lockdep, the_report_names_both_stacks)
{
	struct sim_explore_result res;
	struct sim_strategy s;
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);

	rules_mode = WRITE_UNLOCKED;
	explore_dfs(&rules_program, &res);
	cr_assert(res.first.found);
	cr_assert_eq(sim_strategy_dfs(&s, -1), 0);
	cr_assert(sim_report_failure(out, &rules_program, &s, &res.first,
				     "test", 8));
	fclose(out);
	cr_assert(strstr(text, "lockdep: the access"), "%s", text);
	cr_assert(strstr(text, "rules_task"), "%s", text);
	cr_assert(strstr(text, "lockdep: the rule was stated at"), "%s", text);
	cr_assert(strstr(text, "rules_setup"), "%s", text);
	free(text);
	sim_strategy_fini(&s);
	sim_explore_result_fini(&res);
}

/* ---- The lock-order graph ------------------------------------------------ */

/* How the order program's tasks take their locks (setup reads it). */
enum order_mode {
	ORDER_ABBA,		/* P0 takes a.lock then b.lock, P1 b then a */
	ORDER_ACROSS,		/* one task, A->B or B->A by a read of x */
	ORDER_SAME_WAY,		/* both A->B: fine */
	ORDER_TRYLOCK,		/* P1 holds b, trylocks a: no order */
};

struct order {
	enum order_mode mode;
	bool enabled;
	struct sim_spinlock a, b;
	struct sim_word x;
};

static struct order *O_;
static enum order_mode order_mode;
static bool order_enabled;

static void take_two(struct sim_spinlock *first, struct sim_spinlock *second)
{
	sim_spin_lock(first);
	sim_spin_lock(second);
	sim_spin_unlock(second);
	sim_spin_unlock(first);
}

static void order_p0(void *arg)
{
	struct order *o = arg;

	if (o->mode != ORDER_ACROSS) {
		take_two(&o->a, &o->b);
		return;
	}
	/* Which order this execution takes: P1's write first, or not. */
	if (sim_word_read(&o->x))
		take_two(&o->b, &o->a);
	else
		take_two(&o->a, &o->b);
}

static void order_p1(void *arg)
{
	struct order *o = arg;

	switch (o->mode) {
	case ORDER_ABBA:
		take_two(&o->b, &o->a);
		break;
	case ORDER_ACROSS:
		sim_word_write(&o->x, 1);
		break;
	case ORDER_SAME_WAY:
		take_two(&o->a, &o->b);
		break;
	case ORDER_TRYLOCK:
		sim_spin_lock(&o->b);
		if (sim_spin_trylock(&o->a))
			sim_spin_unlock(&o->a);
		sim_spin_unlock(&o->b);
		break;
	}
}

static void order_setup(void *config)
{
	(void)config;
	O_ = sim_arena_alloc(sizeof(*O_));
	O_->mode = order_mode;
	/* Instances "f.a" and "g.b": classes "a" and "b". */
	sim_spin_init(&O_->a, "f.a");
	sim_spin_init(&O_->b, "g.b");
	sim_word_init(&O_->x, 0, "x");
	if (order_enabled)
		sim_lockdep_order_enable();
	sim_task_spawn("P0", order_p0, O_);
	sim_task_spawn("P1", order_p1, O_);
}

static const struct sim_program order_program = {
	.name = "test/lock-order",
	.setup = order_setup,
};

static void order_explore(enum order_mode mode, bool enabled,
			  struct sim_explore_result *res)
{
	order_mode = mode;
	order_enabled = enabled;
	explore_dfs(&order_program, res);
}

/*
 * P0 takes f.a then g.b; P1 g.b then f.a.  The first execution (P0 to
 * its end, then P1) deadlocks in no interleaving it runs, yet P1's take
 * of f.a while holding g.b closes the cycle a -> b -> a: lockdep's
 * report comes in that first execution.  Without the graph (a program
 * that does not ask) only a deadlocking interleaving fails.
 */
Test(lock_order, abba_is_reported_in_the_first_execution)
{
	struct sim_explore_result res;

	order_explore(ORDER_ABBA, true, &res);
	cr_assert_eq(res.failures, 1);
	cr_assert_eq(res.first.outcome.kind, SIM_FAIL_LOCKING, "%s",
		     res.first.outcome.message);
	cr_assert_eq(res.executions, 1);
	cr_assert(strstr(res.first.outcome.message, "possible circular "
			 "locking dependency: P1 takes f.a while holding g.b "
			 "(b -> a), and the order a -> b was taken before (P0 "
			 "took g.b while holding f.a, in execution 1"),
		  "%s", res.first.outcome.message);
	sim_explore_result_fini(&res);

	order_explore(ORDER_ABBA, false, &res);
	cr_assert_eq(res.failures, 1);
	cr_assert_eq(res.first.outcome.kind, SIM_FAIL_DEADLOCK, "%s",
		     res.first.outcome.message);
	cr_assert_gt(res.executions, 1);
	sim_explore_result_fini(&res);
}

/*
 * One task takes the two locks, in an order a read decides: execution 1
 * (P0 first, x 0) takes a -> b, a later one (P1's write first) b -> a.
 * No execution holds both orders, nor can deadlock (one task locks);
 * the graph kept over the check's executions reports the second.
 */
Test(lock_order, orders_are_kept_over_the_executions_of_a_check)
{
	struct sim_explore_result res;

	order_explore(ORDER_ACROSS, true, &res);
	cr_assert_eq(res.failures, 1);
	cr_assert_eq(res.first.outcome.kind, SIM_FAIL_LOCKING, "%s",
		     res.first.outcome.message);
	cr_assert_gt(res.executions, 1);
	cr_assert(strstr(res.first.outcome.message, "P0 takes f.a while "
			 "holding g.b"), "%s", res.first.outcome.message);
	cr_assert(strstr(res.first.outcome.message, "in execution 1 of this "
			 "check"), "%s", res.first.outcome.message);
	sim_explore_result_fini(&res);
}

Test(lock_order, one_order_and_trylocks_pass)
{
	struct sim_explore_result res;

	order_explore(ORDER_SAME_WAY, true, &res);
	cr_assert_eq(res.failures, 0, "%s", res.first.outcome.message);
	cr_assert(res.complete);
	sim_explore_result_fini(&res);

	/* P0: a -> b; P1 holds b and trylocks a (cannot wait: no order). */
	order_explore(ORDER_TRYLOCK, true, &res);
	cr_assert_eq(res.failures, 0, "%s", res.first.outcome.message);
	cr_assert(res.complete);
	sim_explore_result_fini(&res);
}

/* ---- The data-race detector --------------------------------------------- */

static void races(const struct sim_program *p, struct sim_explore_result *res)
{
	sim_race_enable(true);
	explore_dfs(p, res);
	sim_race_enable(false);
}

Test(data_races, the_racy_counter_is_reported_in_one_execution)
{
	struct sim_explore_result res;

	races(&wpsim_racy_counter, &res);
	cr_assert_eq(res.executions, 1);
	cr_assert_eq(res.first.outcome.kind, SIM_FAIL_RACE, "%s",
		     res.first.outcome.message);
	cr_assert(strstr(res.first.outcome.message,
			 "data race on counter: step 2 P0 write (plain) and "
			 "step 4 P1 read (plain)"), "%s",
		  res.first.outcome.message);
	sim_explore_result_fini(&res);
}

Test(data_races, the_locked_counters_are_not)
{
	struct sim_explore_result res;

	races(&wpsim_locked_counter, &res);
	cr_assert_eq(res.failures, 0, "%s", res.first.outcome.message);
	cr_assert(res.complete);
	sim_explore_result_fini(&res);
	races(&wpsim_spin_counter, &res);
	cr_assert_eq(res.failures, 0, "%s", res.first.outcome.message);
	cr_assert(res.complete);
	sim_explore_result_fini(&res);
}

Test(data_races, off_by_default)
{
	struct sim_explore_result res;

	explore_dfs(&wpsim_racy_counter, &res);
	cr_assert_eq(res.first.outcome.kind, SIM_FAIL_PROPERTY, "%s",
		     res.first.outcome.message);
	sim_explore_result_fini(&res);
}

/* Orderings the detector must see: post, wake, marked flag, rwlock. */
enum race_mode {
	MARKED_ONLY,	/* READ_ONCE/WRITE_ONCE both sides: no race */
	POST,		/* plain store, then post an event that loads */
	FLAG,		/* plain store, WRITE_ONCE flag; reader waits for it */
	COMPLETION,	/* plain store, complete(); waiter loads */
	RWLOCK_READERS,	/* two readers load under a shared hold */
	RWLOCK_WRITER,	/* a writer stores, a reader loads, both locked */
	ONE_PLAIN,	/* plain store vs READ_ONCE, unordered: a race */
	RACE_RMW,	/* plain store vs atomic add, unordered: a race */
};

struct race_state {
	enum race_mode mode;
	struct sim_word x, flag;
	struct sim_completion done;
	struct sim_rwlock rw;
};

static enum race_mode race_mode;

static void event_load(void *arg)
{
	struct race_state *s = arg;

	sim_word_load(&s->x);
}

static void race_p0(void *arg)
{
	struct race_state *s = arg;

	switch (s->mode) {
	case MARKED_ONLY:
		sim_word_write(&s->x, sim_word_read(&s->x) + 1);
		break;
	case POST:
		sim_word_store(&s->x, 1);
		sim_event_post("ev", event_load, s);
		break;
	case FLAG:
		sim_word_store(&s->x, 1);
		sim_word_write(&s->flag, 1);
		break;
	case COMPLETION:
		sim_word_store(&s->x, 1);
		sim_completion_complete(&s->done);
		break;
	case RWLOCK_READERS:
		sim_rwlock_read_lock(&s->rw);
		sim_word_load(&s->x);
		sim_rwlock_read_unlock(&s->rw);
		break;
	case RWLOCK_WRITER:
		sim_rwlock_write_lock(&s->rw);
		sim_word_store(&s->x, 1);
		sim_rwlock_write_unlock(&s->rw);
		break;
	case ONE_PLAIN:
	case RACE_RMW:
		sim_word_store(&s->x, 1);
		break;
	}
}

static void race_p1(void *arg)
{
	struct race_state *s = arg;

	switch (s->mode) {
	case MARKED_ONLY:
		sim_word_write(&s->x, sim_word_read(&s->x) + 1);
		break;
	case POST:
		break;
	case FLAG:
		if (sim_word_read(&s->flag))
			sim_word_load(&s->x);
		break;
	case COMPLETION:
		sim_completion_wait(&s->done);
		sim_word_load(&s->x);
		break;
	case RWLOCK_READERS:
	case RWLOCK_WRITER:
		sim_rwlock_read_lock(&s->rw);
		sim_word_load(&s->x);
		sim_rwlock_read_unlock(&s->rw);
		break;
	case ONE_PLAIN:
		sim_word_read(&s->x);
		break;
	case RACE_RMW:
		sim_word_add(&s->x, 1);
		break;
	}
}

static void race_setup(void *config)
{
	struct race_state *s = sim_arena_alloc(sizeof(*s));

	(void)config;
	s->mode = race_mode;
	sim_word_init(&s->x, 0, "x");
	sim_word_init(&s->flag, 0, "flag");
	sim_completion_init(&s->done, "done");
	sim_rwlock_init(&s->rw, "rw");
	sim_task_spawn("P0", race_p0, s);
	sim_task_spawn("P1", race_p1, s);
}

static const struct sim_program race_program = {
	.name = "test/races",
	.setup = race_setup,
};

static void expect_race(enum race_mode mode, bool race)
{
	struct sim_explore_result res;

	race_mode = mode;
	races(&race_program, &res);
	if (race) {
		cr_assert_eq(res.first.outcome.kind, SIM_FAIL_RACE,
			     "mode %d: %s", mode, res.first.outcome.message);
		cr_assert_eq(res.executions, 1, "mode %d", mode);
	} else {
		cr_assert_eq(res.failures, 0, "mode %d: %s", mode,
			     res.first.outcome.message);
		cr_assert(res.complete);
	}
	sim_explore_result_fini(&res);
}

Test(data_races, marked_accesses_never_race)
{
	expect_race(MARKED_ONLY, false);
}

Test(data_races, happens_before_orders)
{
	expect_race(POST, false);
	expect_race(FLAG, false);
	expect_race(COMPLETION, false);
	expect_race(RWLOCK_READERS, false);
	expect_race(RWLOCK_WRITER, false);
}

Test(data_races, one_plain_access_is_enough)
{
	expect_race(ONE_PLAIN, true);
	expect_race(RACE_RMW, true);
}
