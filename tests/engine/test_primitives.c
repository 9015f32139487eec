// SPDX-License-Identifier: MIT
/*
 * tests/engine/test_primitives.c - each engine primitive under the
 * scheduler, and each failure kind the engine detects.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "sim/arena.h"
#include "sim/explore.h"
#include "sim/strategy.h"
#include "sim/shared.h"
#include "tools/programs/programs.h"

static void explore_dfs(const struct sim_program *p,
			struct sim_explore_result *res, bool stop)
{
	struct sim_explore_options opt = { .stop_on_failure = stop };
	struct sim_strategy s;

	cr_assert_eq(sim_strategy_dfs(&s, -1), 0);
	sim_explore(p, &s, &opt, res);
	sim_strategy_fini(&s);
}

Test(primitives, every_primitive_in_every_order)
{
	struct sim_explore_result res;

	explore_dfs(&wpsim_primitives, &res, true);
	cr_assert_eq(res.failures, 0, "%s", res.first.outcome.message);
	cr_assert(res.complete);
	/* The event can fire before or after P0 sleeps: more than one. */
	cr_assert_gt(res.executions, 1);
	sim_explore_result_fini(&res);
}

Test(primitives, spinlock_excludes_and_never_spins_steps)
{
	struct sim_explore_result res;

	explore_dfs(&wpsim_spin_counter, &res, true);
	cr_assert_eq(res.failures, 0, "%s", res.first.outcome.message);
	cr_assert(res.complete);
	sim_explore_result_fini(&res);
}

/*
 * Mutex hand-off is FIFO.  P0 takes the mutex; P1 then P2 queue on it (in
 * that order, forced by the schedule); P0 unlocks: P1 must own it next,
 * then P2.  The order of acquisition is logged in a shared word.
 */
struct fifo_state {
	struct sim_mutex m;
	struct sim_word order;
};

static void fifo_task(void *arg)
{
	struct fifo_state *s = arg;
	uint64_t me = (uint64_t)sim_task_current();

	sim_mutex_lock(&s->m);
	sim_word_write(&s->order, sim_word_read(&s->order) * 10 + me + 1);
	sim_mutex_unlock(&s->m);
}

static struct fifo_state *fifo;

static void fifo_setup(void *config)
{
	(void)config;
	fifo = sim_arena_alloc(sizeof(*fifo));
	sim_mutex_init(&fifo->m, "m");
	sim_word_init(&fifo->order, 0, "order");
	sim_task_spawn("P0", fifo_task, fifo);
	sim_task_spawn("P1", fifo_task, fifo);
	sim_task_spawn("P2", fifo_task, fifo);
}

static void fifo_final(void *config)
{
	(void)config;
	SIM_ASSERT_EQ(sim_word_peek(&fifo->order), 123);
}

static const struct sim_program fifo_program = {
	.name = "test/mutex-fifo",
	.setup = fifo_setup,
	.final = fifo_final,
};

Test(primitives, mutex_hands_off_in_fifo_order)
{
	struct sim_exec_options exec = { 0 };
	struct sim_outcome o;

	/*
	 * 0.0: P0 starts, takes m.  1.1: P1 starts, contends, sleeps.
	 * 2.2: P2 starts, contends, sleeps.  Then default: P0 runs on.
	 */
	sim_replay(&fifo_program, "0.0.1.1.2.2", &exec, &o);
	cr_assert_eq(o.kind, SIM_OK, "%s", o.message);
}

/* Completion: the waiter passes only after complete(). */
struct done_state {
	struct sim_completion c;
	struct sim_word data;
};

static struct done_state *done_s;

static void done_waiter(void *arg)
{
	struct done_state *s = arg;

	sim_completion_wait(&s->c);
	SIM_ASSERT_EQ(sim_word_read(&s->data), 42);
}

static void done_completer(void *arg)
{
	struct done_state *s = arg;

	sim_word_write(&s->data, 42);
	sim_completion_complete(&s->c);
}

static void done_setup(void *config)
{
	(void)config;
	done_s = sim_arena_alloc(sizeof(*done_s));
	sim_completion_init(&done_s->c, "c");
	sim_word_init(&done_s->data, 0, "data");
	sim_task_spawn("W", done_waiter, done_s);
	sim_event_post("irq", done_completer, done_s);
}

static const struct sim_program done_program = {
	.name = "test/completion",
	.setup = done_setup,
};

Test(primitives, completion_orders_waiter_after_event)
{
	struct sim_explore_result res;

	explore_dfs(&done_program, &res, true);
	cr_assert_eq(res.failures, 0, "%s", res.first.outcome.message);
	/* The event before the wait, or the wait (sleep) first. */
	cr_assert_geq(res.executions, 2);
	sim_explore_result_fini(&res);
}

/* An asynchronous event is ordered against tasks like a task. */
static struct sim_word *flag;
static struct sim_word *seen;

static void flag_event(void *arg)
{
	(void)arg;
	sim_word_write(flag, 1);
}

static void flag_reader(void *arg)
{
	(void)arg;
	sim_word_write(seen, sim_word_read(flag) + 1);
}

static void flag_setup(void *config)
{
	(void)config;
	flag = sim_arena_alloc(sizeof(*flag));
	seen = sim_arena_alloc(sizeof(*seen));
	sim_word_init(flag, 0, "flag");
	sim_word_init(seen, 0, "seen");
	sim_task_spawn("P0", flag_reader, NULL);
	sim_event_post("irq", flag_event, NULL);
}

static unsigned int seen_mask;

static void flag_final(void *config)
{
	(void)config;
	seen_mask |= 1u << sim_word_peek(seen);
}

static const struct sim_program flag_program = {
	.name = "test/event-order",
	.setup = flag_setup,
	.final = flag_final,
};

Test(primitives, event_fires_before_or_after_a_read)
{
	struct sim_explore_result res;

	seen_mask = 0;
	explore_dfs(&flag_program, &res, false);
	cr_assert_eq(res.failures, 0);
	/* seen == 1: read before the event; seen == 2: after. */
	cr_assert_eq(seen_mask, (1u << 1) | (1u << 2), "mask %x", seen_mask);
	sim_explore_result_fini(&res);
}

Test(failures, lock_inversion_is_a_deadlock)
{
	struct sim_explore_result res;

	explore_dfs(&wpsim_lock_inversion, &res, true);
	cr_assert_eq(res.first.outcome.kind, SIM_FAIL_DEADLOCK);
	cr_assert(strstr(res.first.outcome.message, "P0 sleeps on lock_B"),
		  "%s", res.first.outcome.message);
	cr_assert(strstr(res.first.outcome.message, "P1 sleeps on lock_A"),
		  "%s", res.first.outcome.message);
	sim_explore_result_fini(&res);
}

Test(failures, endless_poll_is_stuck)
{
	struct sim_explore_options opt = { .exec.steps_max = 100,
					   .stop_on_failure = true };
	struct sim_explore_result res;
	struct sim_strategy s;

	sim_strategy_dfs(&s, -1);
	sim_explore(&wpsim_livelock, &s, &opt, &res);
	cr_assert_eq(res.first.outcome.kind, SIM_FAIL_STUCK);
	cr_assert_eq(res.first.outcome.steps, 100);
	sim_explore_result_fini(&res);
	sim_strategy_fini(&s);
}

static void assert_task(void *arg)
{
	struct sim_word *w = arg;

	SIM_ASSERT_EQ(sim_word_read(w) + 1, 3);
}

static void assert_setup(void *config)
{
	struct sim_word *w = sim_arena_alloc(sizeof(*w));

	(void)config;
	sim_word_init(w, 1, "w");
	sim_task_spawn("P0", assert_task, w);
}

static const struct sim_program assert_program = {
	.name = "test/assert",
	.setup = assert_setup,
};

Test(failures, assertion_names_both_values_and_the_task)
{
	struct sim_outcome o;
	struct sim_exec_options exec = { 0 };

	sim_replay(&assert_program, "-", &exec, &o);
	cr_assert_eq(o.kind, SIM_FAIL_ASSERT);
	cr_assert_eq(o.failed_task, 0);
	cr_assert(strstr(o.message, "(2 vs 3)"), "%s", o.message);
}

static struct sim_word *inv_word;

static void inv_check(void *arg)
{
	(void)arg;
	SIM_CHECK(sim_word_peek(inv_word) < 2, "w reached %llu",
		  (unsigned long long)sim_word_peek(inv_word));
}

static void inv_task(void *arg)
{
	(void)arg;
	sim_word_add(inv_word, 1);
	sim_word_add(inv_word, 1);
	sim_word_add(inv_word, -2);
}

static void inv_setup(void *config)
{
	(void)config;
	inv_word = sim_arena_alloc(sizeof(*inv_word));
	sim_word_init(inv_word, 0, "w");
	sim_check_register("w", inv_check, NULL, NULL);
	sim_task_spawn("P0", inv_task, NULL);
}

static const struct sim_program inv_program = {
	.name = "test/invariant",
	.setup = inv_setup,
};

Test(failures, check_runs_after_every_step)
{
	struct sim_outcome o;
	struct sim_exec_options exec = { 0 };

	/* The bad state exists for one step only; the check still sees it. */
	sim_replay(&inv_program, "-", &exec, &o);
	cr_assert_eq(o.kind, SIM_FAIL_INVARIANT, "%d %s", o.kind, o.message);
	cr_assert(strstr(o.message, "w reached 2"), "%s", o.message);
}

/*
 * A check with a watch (sim_check_register_watch): it reads a word,
 * which only a store changes, and a plain field, whose writer clears the
 * watch's flag and touches (sim_check_touch) in the step that changes
 * it.  The task's steps: 1 its start, up to its first access; 2 a read;
 * 3 a store (+1); 4 a read, then the plain field set to 1 (the flag
 * cleared, a touch); 5 a read; 6 a store (+1: the word reaches 2, the
 * violation).
 */
static struct sim_word *watch_word;
static int watch_plain;
static bool watch_quiet;
static bool watch_bad_plain;	/* the plain field's limit: 0 */
static bool watch_on;		/* registered with its watch */
static unsigned int watch_calls;

static void watch_check(void *arg)
{
	(void)arg;
	watch_calls++;
	SIM_CHECK(sim_word_peek(watch_word) < 2, "w reached %llu",
		  (unsigned long long)sim_word_peek(watch_word));
	SIM_CHECK(!watch_bad_plain || watch_plain == 0, "plain is %d",
		  watch_plain);
	watch_quiet = true;	/* it read everything there is */
}

static void watch_task(void *arg)
{
	(void)arg;
	(void)sim_word_read(watch_word);
	sim_word_add(watch_word, 1);
	(void)sim_word_read(watch_word);
	watch_plain = 1;
	watch_quiet = false;	/* in the step that changes it */
	sim_check_touch();
	(void)sim_word_read(watch_word);
	sim_word_add(watch_word, 1);
}

static void watch_setup(void *config)
{
	(void)config;
	watch_word = sim_arena_alloc(sizeof(*watch_word));
	sim_word_init(watch_word, 0, "w");
	watch_plain = 0;
	watch_quiet = false;
	watch_calls = 0;
	sim_check_register_watch("w", watch_check, NULL, NULL,
				 watch_on ? &watch_quiet : NULL);
	sim_task_spawn("P0", watch_task, NULL);
}

static const struct sim_program watch_program = {
	.name = "test/watch",
	.setup = watch_setup,
};

static void watch_run(struct sim_outcome *o, bool timed)
{
	struct sim_exec_options exec = { 0 };
	struct sim_strategy s;

	if (timed) {
		sim_strategy_timed(&s, 1, 1);
		sim_exec_run(&watch_program, &s, &exec, o);
		sim_strategy_fini(&s);
	} else {
		sim_replay(&watch_program, "-", &exec, o);
	}
}

/* Skipped after the steps that cannot change its answer, run after
 * every other, and a violation caught at the step it happens: the same
 * outcome as the check without its watch, which runs after every step. */
Test(failures, a_watched_check_runs_where_its_answer_can_change)
{
	for (int timed = 0; timed < 2; timed++) {
		for (int plain = 0; plain < 2; plain++) {
			struct sim_outcome o, every;
			unsigned int calls;

			watch_bad_plain = plain;
			watch_on = false;
			watch_run(&every, timed);
			calls = watch_calls;
			cr_assert_eq(sim_exec_checks_passed(), 0);
			watch_on = true;
			watch_run(&o, timed);
			cr_assert_eq(o.kind, SIM_FAIL_INVARIANT, "%d %s",
				     o.kind, o.message);
			cr_assert_str_eq(o.message, every.message);
			cr_assert_eq(o.steps, every.steps);
			/* The word's violation at step 6 (a store); the
			 * plain field's at step 4 (a read, its flag
			 * cleared by its writer). */
			cr_assert(strstr(o.message, plain ? "plain is 1" :
					 "w reached 2"), "%s", o.message);
			cr_assert_eq(o.steps, plain ? 4 : 6, "%llu",
				     (unsigned long long)o.steps);
			/* Passed over after steps 1 and 2, and 5 when it
			 * is reached (no store, its flag set): nowhere
			 * else. */
			cr_assert_eq(sim_exec_checks_passed(),
				     plain ? 2 : 3, "%llu", (unsigned long long)
				     sim_exec_checks_passed());
			cr_assert_eq(watch_calls + sim_exec_checks_passed(),
				     calls);
		}
	}
}

/*
 * A watch per word (sim_check_watch_tag, issue 28, session 20): the
 * check reads one tagged word; an untagged word is stored beside it.
 * The task's steps: 1 its start; 2 a read of the tagged word; 3 and 4
 * stores to the untagged word; 5 a store to the tagged word (1); 6 a
 * store to the untagged word; 7 a store to the tagged word (2: the
 * violation).  In a long run with the promise, the steps that stored
 * only the untagged word are passed over too; in a short run, or
 * without the promise, every store makes a round.  The outcome is the
 * same in all four.
 */
static struct sim_word *tw_tagged, *tw_plain;
static bool tw_quiet, tw_promise;
static unsigned int tw_calls;

static void tw_check(void *arg)
{
	(void)arg;
	tw_calls++;
	SIM_CHECK(sim_word_peek(tw_tagged) < 2, "t reached %llu",
		  (unsigned long long)sim_word_peek(tw_tagged));
	tw_quiet = true;
}

static void tw_task(void *arg)
{
	(void)arg;
	(void)sim_word_read(tw_tagged);
	sim_word_add(tw_plain, 1);
	sim_word_add(tw_plain, 1);
	sim_word_add(tw_tagged, 1);
	sim_word_add(tw_plain, 1);
	sim_word_add(tw_tagged, 1);
}

static void tw_setup(void *config)
{
	(void)config;
	tw_tagged = sim_arena_alloc(sizeof(*tw_tagged));
	tw_plain = sim_arena_alloc(sizeof(*tw_plain));
	sim_word_init(tw_tagged, 0, "t");
	tw_tagged->tag = 1;
	sim_word_init(tw_plain, 0, "u");
	tw_quiet = false;
	tw_calls = 0;
	sim_check_register_watch("t", tw_check, NULL, NULL, &tw_quiet);
	if (tw_promise)
		sim_check_watch_tag(tw_check, NULL, 1);
	sim_task_spawn("P0", tw_task, NULL);
}

static const struct sim_program tw_program = {
	.name = "test/watch-tagged",
	.setup = tw_setup,
};

Test(failures, a_check_on_tagged_words_passes_untagged_stores)
{
	struct sim_outcome first;
	uint64_t rounds = 0;

	for (int run = 0; run < 4; run++) {
		struct sim_exec_options exec = { .long_run = run & 1 };
		struct sim_strategy s;
		struct sim_outcome o;
		/* Passed over: steps 1 and 2 (no store); with the promise
		 * in a long run also 3, 4 and 6 (the untagged word's). */
		uint64_t passed = run == 3 ? 5 : 2;

		tw_promise = run & 2;
		sim_strategy_timed(&s, 1, 1);
		sim_exec_run(&tw_program, &s, &exec, &o);
		sim_strategy_fini(&s);
		cr_assert_eq(o.kind, SIM_FAIL_INVARIANT, "%d %s", o.kind,
			     o.message);
		cr_assert(strstr(o.message, "t reached 2"), "%s", o.message);
		cr_assert_eq(o.steps, 7, "%llu", (unsigned long long)o.steps);
		cr_assert_eq(sim_exec_checks_passed(), passed, "run %d: %llu",
			     run, (unsigned long long)sim_exec_checks_passed());
		/* Every round called or passed over, the same in all. */
		if (!run) {
			first = o;
			rounds = tw_calls + sim_exec_checks_passed();
		} else {
			cr_assert_str_eq(o.message, first.message);
		}
		cr_assert_eq(tw_calls + sim_exec_checks_passed(), rounds,
			     "run %d: %u calls", run, tw_calls);
	}
}

static void noop_task(void *arg)
{
	(void)arg;
}

static void many_setup(void *config)
{
	int n = *(int *)config;

	for (int i = 0; i < n; i++)
		sim_task_spawn("T", noop_task, NULL);
}

static int many_count;
static const struct sim_program many_program = {
	.name = "test/many-tasks",
	.setup = many_setup,
	.config = &many_count,
};

/* dfs, dpor, random and pct keep enabled sets in 64-bit masks. */
Test(failures, task_bound_is_reported)
{
	struct sim_outcome o;
	struct sim_exec_options exec = { 0 };
	struct sim_strategy s;

	many_count = SIM_TASKS_MAX + 1;
	sim_strategy_dfs(&s, -1);
	sim_exec_run(&many_program, &s, &exec, &o);
	sim_strategy_fini(&s);
	cr_assert_eq(o.kind, SIM_FAIL_BOUND);
	cr_assert(strstr(o.message, "more than 64 tasks"), "%s", o.message);
}

/* A replay (and the timed strategy) runs up to SIM_IDS_LIMIT - 1 tasks
 * and events: the id SIM_SETUP_ID (owner words name setup by it) is
 * never given out. */
Test(failures, replay_runs_past_64_tasks_to_its_own_bound)
{
	struct sim_outcome o;
	struct sim_exec_options exec = { .steps_max = SIM_STEPS_LIMIT };

	many_count = SIM_TASKS_MAX + 36;
	sim_replay(&many_program, "-", &exec, &o);
	cr_assert_eq(o.kind, SIM_OK, "%s", o.message);
	cr_assert_eq(o.steps, SIM_TASKS_MAX + 36);
	cr_assert_eq(sim_exec_task_count(), SIM_TASKS_MAX + 36);
	/* Past SIM_TASKS_LIMIT (the bound before issue 29's jesd219.fio):
	 * one more id, the one setup's owner words use, left out. */
	many_count = SIM_TASKS_LIMIT + 1;
	sim_replay(&many_program, "-", &exec, &o);
	cr_assert_eq(o.kind, SIM_OK, "%s", o.message);
	cr_assert_eq(o.steps, SIM_TASKS_LIMIT + 1);
	cr_assert_eq(sim_exec_task_count(), SIM_TASKS_LIMIT + 2);
	/* Setup spawns SIM_IDS_LIMIT - 1 of them, then one too many. */
	many_count = SIM_IDS_LIMIT;
	sim_replay(&many_program, "-", &exec, &o);
	cr_assert_eq(o.kind, SIM_FAIL_BOUND);
	cr_assert(strstr(o.message, "more than 16383 tasks and events"), "%s",
		  o.message);
}

static void leaky_task(void *arg)
{
	sim_spin_lock(arg);
}

static void leak_setup(void *config)
{
	struct sim_spinlock *l = sim_arena_alloc(sizeof(*l));

	(void)config;
	sim_spin_init(l, "l");
	sim_task_spawn("P0", leaky_task, l);
}

static const struct sim_program leak_program = {
	.name = "test/lock-leak",
	.setup = leak_setup,
};

Test(failures, task_returning_with_a_lock_is_a_leak)
{
	struct sim_outcome o;
	struct sim_exec_options exec = { 0 };

	sim_replay(&leak_program, "-", &exec, &o);
	cr_assert_eq(o.kind, SIM_FAIL_ASSERT);
	cr_assert(strstr(o.message, "P0 returns holding 1 engine lock"), "%s",
		  o.message);
}

/*
 * A completion counts its complete() calls: two completes let exactly
 * two waits through; a third wait sleeps for good (a deadlock).
 */
static struct sim_completion *counted;
static int counted_waits;

static void completer(void *arg)
{
	(void)arg;
	sim_completion_complete(counted);
	sim_completion_complete(counted);
}

static void waiter_n(void *arg)
{
	(void)arg;
	for (int i = 0; i < counted_waits; i++)
		sim_completion_wait(counted);
}

static void counted_setup(void *config)
{
	(void)config;
	counted = sim_arena_alloc(sizeof(*counted));
	sim_completion_init(counted, "done");
	sim_task_spawn("P0", completer, NULL);
	sim_task_spawn("P1", waiter_n, NULL);
}

Test(primitives, completion_counts_each_complete_once)
{
	const struct sim_program p = { .name = "test/completion-count",
				       .setup = counted_setup };
	struct sim_explore_result res;

	counted_waits = 2;
	explore_dfs(&p, &res, true);
	cr_assert_eq(res.failures, 0, "%s", res.first.outcome.message);
	cr_assert(res.complete);
	sim_explore_result_fini(&res);
	counted_waits = 3;
	explore_dfs(&p, &res, false);
	cr_assert_eq(res.failures, res.executions);
	cr_assert_eq(res.by_kind[SIM_FAIL_DEADLOCK], res.executions);
	sim_explore_result_fini(&res);
}

/*
 * Object names are formatted by the engine's own writer for text, %s, %u
 * and %d (sim/shared.c): each must read as snprintf writes it, the
 * truncation at 95 characters included, and other formats go through
 * vsnprintf.
 */
#define NAMES 11
static struct sim_word name_words[NAMES];
static struct sim_completion name_done;
static bool name_ok[NAMES];
static char name_got[NAMES][128], name_want[NAMES][128];
#define TEN_CHARS "abcdefghi-"
#define NINETY_CHARS TEN_CHARS TEN_CHARS TEN_CHARS TEN_CHARS TEN_CHARS \
		     TEN_CHARS TEN_CHARS TEN_CHARS TEN_CHARS

static void name_one(int i, const char *want)
{
	size_t len = strlen(want) < 95 ? strlen(want) : 95;

	memcpy(name_want[i], want, len);
	name_want[i][len] = '\0';
	snprintf(name_got[i], sizeof(name_got[i]), "%s",
		 sim_exec_object_name(name_words[i].id));
	name_ok[i] = strcmp(name_got[i], name_want[i]) == 0;
}

static void names_setup(void *config)
{
	static const char long_text[] =
		"a-name-that-is-longer-than-ninety-five-characters-"
		"so-that-the-formatter-must-cut-it-where-vsnprintf-does";
	char want[2 * sizeof(long_text)];

	(void)config;
	sim_word_init(&name_words[0], 0, "plain");
	name_one(0, "plain");
	sim_word_init(&name_words[1], 0, "folio%u.flags", 4294967295u);
	name_one(1, "folio4294967295.flags");
	sim_word_init(&name_words[2], 0, "own%d", -2147483647 - 1);
	name_one(2, "own-2147483648");
	sim_word_init(&name_words[3], 0, "%s.i_size%d", "inode", 0);
	name_one(3, "inode.i_size0");
	sim_word_init(&name_words[4], 0, "%s%s", long_text, long_text);
	memcpy(want, long_text, sizeof(long_text) - 1);
	memcpy(want + sizeof(long_text) - 1, long_text, sizeof(long_text));
	name_one(4, want);
	sim_word_init(&name_words[5], 0, "x%02u%%", 7u);
	name_one(5, "x07%");
	sim_word_init(&name_words[6], 0, "%s", "");
	name_one(6, "");
	sim_completion_init(&name_done, "dio%u.done", 12u);
	name_words[7] = name_done.done;
	name_one(7, "dio12.done");
	/* One %u (sim/engine.c's format_u): cut in the text before it, in
	 * its digits and in the text after it, as snprintf cuts. */
	sim_word_init(&name_words[8], 0, NINETY_CHARS TEN_CHARS "%u", 5u);
	name_one(8, NINETY_CHARS TEN_CHARS "5");
	sim_word_init(&name_words[9], 0, NINETY_CHARS "%u.tail", 1234567u);
	name_one(9, NINETY_CHARS "1234567.tail");
	sim_word_init(&name_words[10], 0, "%u", 0u);
	name_one(10, "0");
}

Test(primitives, object_names_read_as_snprintf_writes_them)
{
	const struct sim_program p = { .name = "test/object-names",
				       .setup = names_setup };
	struct sim_explore_result res;

	explore_dfs(&p, &res, true);
	cr_assert_eq(res.failures, 0, "%s", res.first.outcome.message);
	sim_explore_result_fini(&res);
	for (int i = 0; i < NAMES; i++)
		cr_expect(name_ok[i], "name %d: \"%s\", expected \"%s\"", i,
			  name_got[i], name_want[i]);
	cr_expect_eq(strlen(name_got[4]), 95);
	cr_expect_eq(strlen(name_got[8]), 95);
	cr_expect_eq(strlen(name_got[9]), 95);
}

/*
 * A sleep with a timeout (sim_task_block_timeout, sim_waitq_sleep_timeout):
 * P0 sleeps on a queue, P1 (when there is one) wakes it.  Nobody left to
 * wake P0 is its timeout, never a deadlock; a sleeper that timed out has
 * left the queue.
 */
static struct {
	struct sim_waitq wq;
	struct sim_word timed_out, woken;
} *tmo;
static bool tmo_with_waker, tmo_count;
static uint64_t tmo_timed_out_runs, tmo_woken_runs;

static void tmo_sleeper(void *arg)
{
	(void)arg;
	if (sim_waitq_sleep_timeout(&tmo->wq))
		sim_word_write(&tmo->timed_out, 1);
	else
		sim_word_write(&tmo->woken, 1);
}

static void tmo_waker(void *arg)
{
	(void)arg;
	sim_waitq_wake_all(&tmo->wq);
}

static void tmo_setup(void *config)
{
	(void)config;
	tmo = sim_arena_alloc(sizeof(*tmo));
	sim_waitq_init(&tmo->wq, "wq");
	sim_word_init(&tmo->timed_out, 0, "timed_out");
	sim_word_init(&tmo->woken, 0, "woken");
	sim_task_spawn("P0", tmo_sleeper, NULL);
	if (tmo_with_waker)
		sim_task_spawn("P1", tmo_waker, NULL);
}

static void tmo_final(void *config)
{
	(void)config;
	/* Exactly one way out, and the queue is empty. */
	SIM_ASSERT_EQ(sim_word_peek(&tmo->timed_out) +
		      sim_word_peek(&tmo->woken), 1);
	SIM_ASSERT_EQ(sim_waitq_peek(&tmo->wq, 0), -1);
	if (tmo_count) {
		tmo_timed_out_runs += sim_word_peek(&tmo->timed_out);
		tmo_woken_runs += sim_word_peek(&tmo->woken);
	}
}

Test(primitives, timed_sleep_ends_by_its_timeout_not_a_deadlock)
{
	const struct sim_program p = { .name = "test/timed-sleep",
				       .setup = tmo_setup,
				       .final = tmo_final };
	struct sim_explore_result res;
	uint64_t timed_out, woken;

	tmo_with_waker = false;
	explore_dfs(&p, &res, false);
	cr_assert_eq(res.failures, 0, "%s", res.first.outcome.message);
	cr_assert(res.complete);
	cr_assert_eq(res.executions, 1);
	sim_explore_result_fini(&res);

	/* With a waker: woken in some orders, timed out in the others
	 * (the wake came before the sleep). */
	tmo_with_waker = true;
	tmo_count = true;
	tmo_timed_out_runs = tmo_woken_runs = 0;
	explore_dfs(&p, &res, false);
	tmo_count = false;
	cr_assert_eq(res.failures, 0, "%s", res.first.outcome.message);
	cr_assert(res.complete);
	timed_out = tmo_timed_out_runs;
	woken = tmo_woken_runs;
	cr_assert_gt(timed_out, 0);
	cr_assert_gt(woken, 0);
	sim_explore_result_fini(&res);
}
