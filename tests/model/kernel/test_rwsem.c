// SPDX-License-Identifier: MIT
/*
 * tests/model/kernel/test_rwsem.c - the rw_semaphore model
 * (model/kernel/rwsem.c, Kernel: kernel/locking/rwsem.c, v6.18).
 *
 * Each test forces its interleaving with a replayed schedule or explores
 * schedules: every schedule of 2-3 tasks (DFS without a preemption bound,
 * or source-DPOR where plain DFS is too large), or, for the four-task and
 * the larger three-task scenarios, every schedule with at most 2 or 3
 * preemptions (each test says which).  Scenarios that need a shape
 * ("R2 arrives once W is queued") hold tasks back with gates that an
 * observer opens.  Schedules are
 * dotted task ids, "0*3" = task 0 for three steps; a step runs a task
 * from one scheduling point to the next, so a task's first step only
 * starts it.  After the schedule, the default runs the current task on,
 * else the lowest-numbered enabled one.  docs/model/rwsem.md lists the
 * scheduling points of each km_ function.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "model/kernel/rwsem.h"
#include "model/world.h"
#include "sim/arena.h"
#include "sim/clock.h"
#include "sim/explore.h"
#include "sim/shared.h"

/* ---- Harness ------------------------------------------------------------ */

struct rw_config {
	bool spin_on_owner;
	bool wait_timeout_expired;
	bool clock;		/* knobs.clock: --variant rwsem=clock */
	uint64_t hold_ns;	/* scenarios that say so: the holder sleeps */
	unsigned int breaks;	/* M_BREAK_*: a world (no files) with them */
};

/*
 * A gate holds a task back until the scenario's observer (a check run
 * after every step) opens it: "R2 arrives once W is queued".  Gates are
 * harness state, not model state; a closed gate disables the task
 * without costing steps (sim_task_spin_until_zero).
 */
struct gate {
	uint64_t closed;
	uint32_t id;
};

#define GATES_MAX 4

struct rw_test {
	struct km_rw_semaphore sem;
	struct sim_word counter;	/* touched non-atomically under sem */
	struct sim_word order;		/* acquisition log: order*10 + id+1 */
	struct sim_completion ready;	/* "the first holder is in" */
	struct sim_completion done;	/* "the probe is done" */
	struct gate gate[GATES_MAX];
};

static struct rw_test *t;

static void rw_setup(void *config, const char *const names[],
		     const sim_task_fn fns[], int tasks)
{
	const struct rw_config *c = config;

	if (c && c->breaks) {
		struct m_world_config world;

		m_world_config_default(&world);
		world.nr_files = 0;
		world.breaks = c->breaks;
		m_world_setup(&world);
	}
	t = sim_arena_alloc(sizeof(*t));
	km_init_rwsem(&t->sem, "i_rwsem");
	if (c) {
		t->sem.knobs.spin_on_owner = c->spin_on_owner;
		t->sem.knobs.wait_timeout_expired = c->wait_timeout_expired;
		t->sem.knobs.clock = c->clock;
	}
	m_rwsem_register(&t->sem);
	sim_word_init(&t->counter, 0, "counter");
	sim_word_init(&t->order, 0, "order");
	sim_completion_init(&t->ready, "ready");
	sim_completion_init(&t->done, "done");
	for (int i = 0; i < GATES_MAX; i++) {
		t->gate[i].closed = 1;
		t->gate[i].id = sim_object_register("gate%d", i);
	}
	for (int i = 0; i < tasks; i++)
		sim_task_spawn(names[i], fns[i], t);
}

static void gate_wait(int i)
{
	sim_task_spin_until_zero(&t->gate[i].closed, t->gate[i].id);
}

static void gate_open(int i)
{
	t->gate[i].closed = 0;
}

static int me(void)
{
	return sim_task_current();
}

/* Append the running task to the acquisition log (exclusive holders). */
static void log_acquired(void)
{
	uint64_t v = sim_word_read(&t->order);

	sim_word_write(&t->order, v * 10 + (uint64_t)me() + 1);
}

static void increment(void)
{
	uint64_t v = sim_word_read(&t->counter);

	sim_word_write(&t->counter, v + 1);
}

static unsigned int readers_holding(void)
{
	unsigned int n = 0;

	for (uint32_t i = 0; i < sim_exec_task_count(); i++)
		n += m_rwsem_read_held(&t->sem, (int)i);
	return n;
}

/* DFS; @bound < 0: every schedule, else at most @bound preemptions. */
static void explore_bounded(const struct sim_program *p,
			    struct sim_explore_result *res, bool stop,
			    int64_t bound)
{
	struct sim_explore_options opt = { .stop_on_failure = stop };
	struct sim_strategy s;

	cr_assert_eq(sim_strategy_dfs(&s, bound), 0);
	sim_explore(p, &s, &opt, res);
	sim_strategy_fini(&s);
}

static void explore(const struct sim_program *p,
		    struct sim_explore_result *res, bool stop)
{
	explore_bounded(p, res, stop, -1);
}

/*
 * Source-DPOR: every schedule up to reordering of independent steps.
 * Only for programs without gates (a gate is harness state the
 * dependency analysis cannot see).
 */
static void explore_dpor(const struct sim_program *p,
			 struct sim_explore_result *res)
{
	struct sim_explore_options opt = { .stop_on_failure = true };
	struct sim_strategy s;

	cr_assert_eq(sim_strategy_dpor(&s), 0);
	sim_explore(p, &s, &opt, res);
	sim_strategy_fini(&s);
}

/* Replay @schedule; on an unexpected outcome print the event log. */
static void replay(const struct sim_program *p, const char *schedule,
		   enum sim_failure_kind want, struct sim_outcome *o)
{
	struct sim_exec_options exec = { .keep_log = true };

	sim_replay(p, schedule, &exec, o);
	if (o->kind != want) {
		fprintf(stderr, "%s: %s (%s)\n", p->name,
			sim_failure_kind_name(o->kind), o->message);
		sim_exec_print_log(stderr, 0);
		sim_exec_dump(stderr);
	}
}

/* ---- Readers share ------------------------------------------------------ */

static unsigned int readers_max;
static bool anybody_slept;

static void share_check(void *arg)
{
	(void)arg;
	if (readers_holding() > readers_max)
		readers_max = readers_holding();
	for (uint32_t i = 0; i < sim_exec_task_count(); i++)
		if (sim_task_blocked((int)i))
			anybody_slept = true;
}

static void reader_task(void *arg)
{
	(void)arg;
	km_down_read(&t->sem);
	sim_word_read(&t->counter);
	km_up_read(&t->sem);
}

static void share_setup(void *config)
{
	static const char *const names[] = { "R0", "R1" };
	static const sim_task_fn fns[] = { reader_task, reader_task };

	rw_setup(config, names, fns, 2);
	sim_check_register("share", share_check, NULL, NULL);
}

static const struct sim_program share_program = {
	.name = "test/rwsem-readers-share",
	.setup = share_setup,
};

/*
 * Two readers, every interleaving:
 *   R0: 1. down_read  2. read counter  3. up_read
 *   R1: 1. down_read  2. read counter  3. up_read
 * Must hold: no reader ever sleeps (readers never wait for readers), and
 * some interleaving has both inside at once.  Bug: a reader fast path
 * that excludes other readers, or one that sends a reader to sleep
 * behind another reader.
 */
Test(rwsem, readers_share)
{
	struct sim_explore_result res;

	readers_max = 0;
	anybody_slept = false;
	explore(&share_program, &res, true);
	cr_assert_eq(res.failures, 0, "%s", res.first.outcome.message);
	cr_assert(res.complete);
	cr_assert_eq(readers_max, 2);
	cr_assert(!anybody_slept);
	sim_explore_result_fini(&res);
}

/* ---- Writers exclude ---------------------------------------------------- */

static void writer_task(void *arg)
{
	(void)arg;
	km_down_write(&t->sem);
	increment();
	km_up_write(&t->sem);
}

/* A reader that must never see the counter change under it. */
static void stable_reader_task(void *arg)
{
	uint64_t a, b;

	(void)arg;
	km_down_read(&t->sem);
	a = sim_word_read(&t->counter);
	b = sim_word_read(&t->counter);
	SIM_ASSERT_EQ(a, b);
	km_up_read(&t->sem);
}

static int writers_expected;

static void counter_final(void *config)
{
	(void)config;
	if (sim_word_peek(&t->counter) != (uint64_t)writers_expected)
		sim_fail(SIM_FAIL_PROPERTY, "lost update: counter %llu after "
			 "%d increments",
			 (unsigned long long)sim_word_peek(&t->counter),
			 writers_expected);
	SIM_ASSERT_EQ(sim_word_peek(&t->sem.count), 0);
}

static void two_writers_setup(void *config)
{
	static const char *const names[] = { "W0", "W1" };
	static const sim_task_fn fns[] = { writer_task, writer_task };

	writers_expected = 2;
	rw_setup(config, names, fns, 2);
}

static const struct sim_program two_writers_program = {
	.name = "test/rwsem-two-writers",
	.setup = two_writers_setup,
	.final = counter_final,
};

/*
 * Two writers, every interleaving, with and without the optimistic
 * spin attempt:
 *   W0: 1. down_write  2. v = counter  3. counter = v + 1  4. up_write
 *   W1: 1. down_write  2. v = counter  3. counter = v + 1  4. up_write
 * W1's down_write meets W0's lock at any of W0's steps: it makes the one
 * optimistic-spin attempt (when the knob allows it), else queues and
 * sleeps until W0's up_write wakes it.
 * Must hold: counter == 2 at the end, count back to 0, every check
 * (invariant 4: WRITER_LOCKED iff one writer holds it).
 * Bug (break=rwsem_write_trylock_split, run: the fast path's cmpxchg
 * split into a read and a write, and the checks must fail): both read
 * v == 0 (lost update), or a writer asleep forever (deadlock).
 * Kernel: kernel/locking/rwsem.c down_write, rwsem_down_write_slowpath,
 * rwsem_optimistic_spin, up_write, v6.18.
 */
Test(race, down_write_vs_down_write__no_lost_update)
{
	static struct rw_config configs[] = {
		{ .spin_on_owner = true },
		{ .spin_on_owner = false },
	};

	for (unsigned int i = 0; i < 2; i++) {
		struct sim_program p = two_writers_program;
		struct sim_explore_result res;

		p.config = &configs[i];
		explore(&p, &res, true);
		cr_assert_eq(res.failures, 0, "spin %d: %s: %s",
			     configs[i].spin_on_owner,
			     res.first.outcome.message,
			     res.first.schedule ? res.first.schedule : "");
		cr_assert(res.complete);
		cr_assert_gt(res.executions, 10);
		sim_explore_result_fini(&res);
	}

	/* The write fast path not atomic: the checks must catch it. */
	static struct rw_config broken = {
		.spin_on_owner = false,
		.breaks = M_BREAK_RWSEM_WRITE_TRYLOCK_SPLIT,
	};
	struct sim_program p = two_writers_program;
	struct sim_explore_result res;

	p.config = &broken;
	explore(&p, &res, true);
	cr_assert_gt(res.failures, 0, "the split write trylock was not "
		     "caught");
	sim_explore_result_fini(&res);
}

static void writers_reader_setup(void *config)
{
	static const char *const names[] = { "W0", "R1", "W2" };
	static const sim_task_fn fns[] = { writer_task, stable_reader_task,
					   writer_task };

	writers_expected = 2;
	rw_setup(config, names, fns, 3);
}

static const struct sim_program writers_reader_program = {
	.name = "test/rwsem-writers-and-reader",
	.setup = writers_reader_setup,
	.final = counter_final,
};

/*
 * Three tasks, every schedule (source-DPOR: plain DFS would need more
 * than 10^7 executions), with the optimistic spin attempt, without it,
 * and with every waiter's timeout expired (HANDOFF):
 *   W0: 1. down_write  2. v = counter  3. counter = v + 1  4. up_write
 *   R1: 1. down_read   2. a = counter  3. b = counter  4. a == b  5. up_read
 *   W2: 1. down_write  2. v = counter  3. counter = v + 1  4. up_write
 * Must hold: no lost update, the reader never sees a change inside its
 * section, no deadlock, every invariant after every step (with HANDOFF,
 * invariant 5 is exercised).
 * Bug (break=rwsem_read_ignores_writer, run: the read fast path's mask
 * without WRITER_LOCKED, and the checks must fail): a reader granted
 * while a writer holds the lock, or a wake-up lost between
 * set_current_state() and schedule() (an engine matter: no model
 * switch; found when schedule() ignores the task state).
 * Kernel: kernel/locking/rwsem.c down_read, rwsem_down_read_slowpath,
 * down_write, rwsem_down_write_slowpath, rwsem_mark_wake, v6.18.
 */
Test(race, down_write_vs_down_read_vs_down_write__excluded)
{
	static struct rw_config configs[] = {
		{ .spin_on_owner = true },
		{ .spin_on_owner = false },
		{ .spin_on_owner = true, .wait_timeout_expired = true },
	};

	for (unsigned int i = 0; i < 3; i++) {
		struct sim_program p = writers_reader_program;
		struct sim_explore_result res;

		p.config = &configs[i];
		explore_dpor(&p, &res);
		cr_assert_eq(res.failures, 0, "config %u: %s: %s", i,
			     res.first.outcome.message,
			     res.first.schedule ? res.first.schedule : "");
		cr_assert(res.complete);
		cr_assert_gt(res.executions, 1000);
		sim_explore_result_fini(&res);
	}

	/* A reader beside a writer: the checks must catch it. */
	static struct rw_config broken = {
		.spin_on_owner = true,
		.breaks = M_BREAK_RWSEM_READ_IGNORES_WRITER,
	};
	struct sim_program p = writers_reader_program;
	struct sim_explore_result res;

	p.config = &broken;
	explore_dpor(&p, &res);
	cr_assert_gt(res.failures, 0, "a reader beside a writer was not "
		     "caught");
	sim_explore_result_fini(&res);
}

/* ---- FIFO: a new reader does not jump a queued writer ------------------- */

enum { FIFO_R1, FIFO_W, FIFO_R2 };

static void fifo_r1_hold(void *arg)
{
	(void)arg;
	km_down_read(&t->sem);
	sim_word_read(&t->counter);
	km_up_read(&t->sem);
}

static void fifo_w(void *arg)
{
	(void)arg;
	km_down_write(&t->sem);
	log_acquired();
	km_up_write(&t->sem);
}

static void fifo_r2(void *arg)
{
	(void)arg;
	km_down_read(&t->sem);
	log_acquired();
	km_up_read(&t->sem);
}

static void fifo_final(void *config)
{
	(void)config;
	/* W (id 1) logs 2, R2 (id 2) logs 3: W first. */
	if (sim_word_peek(&t->order) != 23)
		sim_fail(SIM_FAIL_PROPERTY, "acquisition order %llu, want 23 "
			 "(W before R2)",
			 (unsigned long long)sim_word_peek(&t->order));
}

static void fifo_replay_setup(void *config)
{
	static const char *const names[] = { "R1", "W", "R2" };
	static const sim_task_fn fns[] = { fifo_r1_hold, fifo_w, fifo_r2 };

	rw_setup(config, names, fns, 3);
}

static struct rw_config no_spin = { .spin_on_owner = false };

static const struct sim_program fifo_replay_program = {
	.name = "test/rwsem-fifo-replay",
	.setup = fifo_replay_setup,
	.final = fifo_final,
	.config = &no_spin,
};

/*
 * The FIFO schedule, forced step by step ("0*3.1*6.2*6"):
 *   R1: 1. start  2. count += BIAS (fast path, lock read-held)
 *       3. owner = R1|READER_OWNED; stops before reading counter.
 *   W:  1. start  2. cmpxchg 0 -> WRITER_LOCKED fails (no spin attempt)
 *       3. wait_lock, list_add  4. count |= WAITERS  5. read count (held)
 *       6. wait_lock released, schedule(): W sleeps, queued.
 *   R2: 1. start  2. count += BIAS: WAITERS set, the fast path fails
 *       3. owner is READER_OWNED and readers > 1: no stealing
 *       4. wait_lock, queue behind W  5. count -= BIAS
 *       6. wait_lock released; then by default R2 reads waiter.task and
 *       sleeps.
 *   R1 runs on: up_read finds WAITERS with no lock bits -> rwsem_wake()
 *   wakes W (front, a writer); W takes the lock, logs, up_write wakes R2.
 * Must hold: W acquires before R2 (order 23).
 * Bug (the test-only FIFO switch, run by
 * race/broken_fifo_fast_path__caught): a read fast path that ignores
 * WAITERS lets R2 in at its step 2, ahead of W (order 32).
 * Kernel: kernel/locking/rwsem.c rwsem_read_trylock
 * (RWSEM_READ_FAILED_MASK), rwsem_down_read_slowpath, rwsem_wake, v6.18.
 */
Test(race, down_read_vs_queued_down_write__reader_waits_replay)
{
	struct sim_outcome o;

	replay(&fifo_replay_program, "0*3.1*6.2*6", SIM_OK, &o);
	cr_assert_eq(o.kind, SIM_OK, "%s", o.message);
}

static void fifo_gated_r1(void *arg)
{
	(void)arg;
	km_down_read(&t->sem);
	sim_completion_complete_all(&t->ready);
	gate_wait(0);
	km_up_read(&t->sem);
}

static void fifo_gated_w(void *arg)
{
	(void)arg;
	sim_completion_wait(&t->ready);
	km_down_write(&t->sem);
	km_up_write(&t->sem);
}

static void fifo_gated_r2(void *arg)
{
	(void)arg;
	gate_wait(1);
	km_down_read(&t->sem);
	km_up_read(&t->sem);
}

/* Who of W and R2 held the lock first (the observer notes it). */
static int fifo_first;

/* W is on the list and WAITERS says so (set after list_add). */
static bool writer_queued(int task)
{
	return m_rwsem_waiter_position(&t->sem, task) >= 0 &&
	       (sim_word_peek(&t->sem.count) & RWSEM_FLAG_WAITERS);
}

/*
 * Observer: gate 1 (R2 may start) opens once W is queued; gate 0 (R1 may
 * release) once R2 is queued or holds the lock.  While R1 still holds
 * its read lock and W is queued, R2 must not hold one.
 */
static void fifo_observer(void *arg)
{
	(void)arg;
	if (fifo_first < 0 && m_rwsem_write_held(&t->sem, FIFO_W))
		fifo_first = FIFO_W;
	if (fifo_first < 0 && m_rwsem_read_held(&t->sem, FIFO_R2))
		fifo_first = FIFO_R2;
	if (writer_queued(FIFO_W))
		gate_open(1);
	if (m_rwsem_waiter_position(&t->sem, FIFO_R2) >= 0 ||
	    m_rwsem_read_held(&t->sem, FIFO_R2))
		gate_open(0);
	SIM_CHECK(!(m_rwsem_read_held(&t->sem, FIFO_R1) &&
		    writer_queued(FIFO_W) &&
		    m_rwsem_read_held(&t->sem, FIFO_R2)),
		  "R2 jumped the queued writer W while R1 held the lock");
}

static void fifo_gated_setup(void *config)
{
	static const char *const names[] = { "R1", "W", "R2" };
	static const sim_task_fn fns[] = { fifo_gated_r1, fifo_gated_w,
					   fifo_gated_r2 };

	fifo_first = -1;
	rw_setup(config, names, fns, 3);
	sim_check_register("fifo", fifo_observer, NULL, NULL);
}

static void fifo_gated_final(void *config)
{
	(void)config;
	if (fifo_first != FIFO_W)
		sim_fail(SIM_FAIL_PROPERTY, "%s held the lock first, not W",
			 fifo_first < 0 ? "nobody" :
			 sim_exec_task_name((uint32_t)fifo_first));
}

static const struct sim_program fifo_gated_program = {
	.name = "test/rwsem-fifo-gated",
	.setup = fifo_gated_setup,
	.final = fifo_gated_final,
};

/*
 * The FIFO scenario, every interleaving of it:
 *   1. R1 takes the read lock (and completes "ready").
 *   2. W (after "ready") calls down_write and queues.
 *   3. R2 calls down_read once W is queued: on the list and WAITERS set
 *      (gate 1; between W's list_add and its "count |= WAITERS" a new
 *      reader still takes the fast path, in the kernel too).
 *   4. R1 releases once R2 is queued or holds the lock (gate 0).
 * Must hold: R2 never holds the lock while R1 holds it and W is queued
 * (kernel: the fast path fails on WAITERS and the slow path does not
 * steal from a reader-owned lock, section 4.2 steps 1-2); W acquires
 * before R2.  R2 may still steal in the kernel if it arrives after R1's
 * release; the scenario excludes that.
 * Bug (the test-only FIFO switch, run by
 * race/broken_fifo_fast_path__caught): a read fast path that ignores
 * WAITERS lets R2 in while R1 holds the lock and W is queued ("R2 jumped
 * the queued writer W").
 * Kernel: kernel/locking/rwsem.c rwsem_read_trylock
 * (RWSEM_READ_FAILED_MASK), rwsem_down_read_slowpath, v6.18.
 */
Test(race, down_read_vs_queued_down_write__reader_waits)
{
	struct sim_explore_result res;

	explore(&fifo_gated_program, &res, true);
	cr_assert_eq(res.failures, 0, "%s: %s", res.first.outcome.message,
		     res.first.schedule ? res.first.schedule : "");
	cr_assert(res.complete);
	cr_assert_gt(res.executions, 1000);
	sim_explore_result_fini(&res);
}

/*
 * The deliberately broken variant: break=rwsem_read_ignores_waiters
 * (M_BREAK_RWSEM_READ_IGNORES_WAITERS) makes the read fast path ignore
 * WAITERS.  Both FIFO tests must fail under it: the replay with the wrong
 * order (R2 before W: 32), the exploration with the observer's check.
 * Proves the tests can see the bug.  The switch is read from the world,
 * so these runs set one up (no files) with it on; the knobs are the
 * programs' own (no spinning for the replay, the defaults otherwise).
 *
 *   R1: 1. down_read: the lock is read-held
 *   W:  2. down_write: the fast path fails; W queues, sets WAITERS,
 *          sleeps
 *   R2: 3. down_read: the fast path adds its bias; WAITERS is set, but
 *          the broken mask ignores it: R2 holds the lock ahead of W,
 *          logs, up_read
 *   R1: 4. up_read wakes W; W logs: order 32 (R2 before W)
 * Must hold (under the switch, the checks must fail): the replay
 * "0*3.1*6.2*6" ends in a property failure "order 32", the exploration
 * of the gated scenario in the invariant "R2 jumped".
 * Bug: the test-only FIFO switch named above.
 * Kernel: kernel/locking/rwsem.c rwsem_read_trylock, v6.18, whose
 * RWSEM_READ_FAILED_MASK holds RWSEM_FLAG_WAITERS.
 */
Test(race, broken_fifo_fast_path__caught)
{
	static struct rw_config broken_no_spin = {
		.spin_on_owner = false,
		.breaks = M_BREAK_RWSEM_READ_IGNORES_WAITERS,
	};
	static struct rw_config broken = {
		.spin_on_owner = true,
		.breaks = M_BREAK_RWSEM_READ_IGNORES_WAITERS,
	};
	struct sim_program replay_broken = fifo_replay_program;
	struct sim_program gated_broken = fifo_gated_program;
	struct sim_explore_result res;
	struct sim_outcome o;

	replay_broken.config = &broken_no_spin;
	gated_broken.config = &broken;
	replay(&replay_broken, "0*3.1*6.2*6", SIM_FAIL_PROPERTY, &o);
	cr_expect_eq(o.kind, SIM_FAIL_PROPERTY, "%s",
		     sim_failure_kind_name(o.kind));
	cr_expect(strstr(o.message, "order 32"), "%s", o.message);

	explore(&gated_broken, &res, true);
	cr_expect_gt(res.failures, 0);
	cr_expect_eq(res.first.outcome.kind, SIM_FAIL_INVARIANT);
	cr_expect(strstr(res.first.outcome.message, "R2 jumped"), "%s",
		  res.first.outcome.message);
	sim_explore_result_fini(&res);
}

/* ---- Batch wake-up of queued readers ------------------------------------ */

enum { BATCH_W0, BATCH_R1, BATCH_W2, BATCH_R2 };

static bool batch_downgrade;	/* W0 downgrades instead of up_write */
static bool batch_seen;		/* R1 and R2 held together, W2 queued */

static void batch_w0(void *arg)
{
	(void)arg;
	km_down_write(&t->sem);
	sim_completion_complete_all(&t->ready);
	gate_wait(0);
	if (batch_downgrade) {
		km_downgrade_write(&t->sem);
		km_up_read(&t->sem);
	} else {
		km_up_write(&t->sem);
	}
}

static void batch_r1(void *arg)
{
	(void)arg;
	sim_completion_wait(&t->ready);
	km_down_read(&t->sem);
	km_up_read(&t->sem);
}

static void batch_w2(void *arg)
{
	(void)arg;
	gate_wait(1);
	km_down_write(&t->sem);
	km_up_write(&t->sem);
}

static void batch_r2(void *arg)
{
	(void)arg;
	gate_wait(2);
	km_down_read(&t->sem);
	km_up_read(&t->sem);
}

static bool queued(int task)
{
	return m_rwsem_waiter_position(&t->sem, task) >= 0 &&
	       (sim_word_peek(&t->sem.count) & RWSEM_FLAG_WAITERS);
}

/*
 * Observer: R1 queues first (after W0 holds), then W2 (gate 1), then R2
 * (gate 2); W0 releases or downgrades once R2 is queued (gate 0).
 */
static void batch_observer(void *arg)
{
	bool readers_in;

	(void)arg;
	if (queued(BATCH_R1))
		gate_open(1);
	if (queued(BATCH_W2))
		gate_open(2);
	if (queued(BATCH_R2))
		gate_open(0);
	readers_in = m_rwsem_read_held(&t->sem, BATCH_R1) &&
		     m_rwsem_read_held(&t->sem, BATCH_R2);
	if (readers_in && m_rwsem_waiter_position(&t->sem, BATCH_W2) >= 0 &&
	    (!batch_downgrade || m_rwsem_read_held(&t->sem, BATCH_W0)))
		batch_seen = true;
	if (batch_downgrade)
		SIM_CHECK(!(readers_holding() > 0 &&
			    !sim_task_blocked(BATCH_W2) &&
			    m_rwsem_waiter_position(&t->sem, BATCH_W2) >= 0 &&
			    t->gate[0].closed == 0),
			  "the queued writer W2 was woken while readers hold "
			  "the lock");
}

static void batch_setup(void *config)
{
	static const char *const names[] = { "W0", "R1", "W2", "R2" };
	static const sim_task_fn fns[] = { batch_w0, batch_r1, batch_w2,
					   batch_r2 };

	batch_seen = false;
	rw_setup(config, names, fns, 4);
	sim_check_register("batch", batch_observer, NULL, NULL);
}

static void batch_final(void *config)
{
	(void)config;
	if (!batch_seen)
		sim_fail(SIM_FAIL_PROPERTY, "R1 and R2 never held the lock "
			 "together while W2 was queued");
}

static const struct sim_program batch_program = {
	.name = "test/rwsem-batch-wake",
	.setup = batch_setup,
	.final = batch_final,
};

/*
 * up_write wakes every queued reader at once, also the one queued behind
 * a writer (kernel: rwsem_mark_wake() walks the whole list, 4.4):
 *   1. W0 takes the write lock.
 *   2. R1 queues (first), 3. W2 queues behind it, 4. R2 queues last.
 *   5. W0: up_write -> rwsem_wake -> rwsem_mark_wake(WAKE_ANY): front is
 *      a reader: pre-grant one bias, then grant R1 and R2 together,
 *      skipping W2, in W0's context (their waiter.task cleared).
 * Explored: every schedule of the scenario with at most 2 preemptions
 * (four tasks; the gates force the queue order without preempting).
 * Must hold: at some step R1 and R2 both hold the lock while W2 is still
 * queued.  Bug: waking only the readers up to the first writer (R2 would
 * wait for W2), or waking W2 (only one side may go).
 */
Test(rwsem, up_write_wakes_every_queued_reader)
{
	struct sim_explore_result res;

	batch_downgrade = false;
	explore_bounded(&batch_program, &res, true, 2);
	cr_assert_eq(res.failures, 0, "%s: %s", res.first.outcome.message,
		     res.first.schedule ? res.first.schedule : "");
	cr_assert(res.complete);
	sim_explore_result_fini(&res);
}

/*
 * downgrade_write admits the queued readers, not the queued writer
 * (kernel: __downgrade_write -> rwsem_downgrade_wake ->
 * rwsem_mark_wake(WAKE_READ_OWNED), 4.6):
 *   1. W0 takes the write lock.  2-4. R1, W2, R2 queue in that order.
 *   5. W0: downgrade_write: WRITER_LOCKED -> one reader bias in one
 *      atomic add; WAITERS set -> grant R1 and R2, do not wake W2.
 *   6. W0, R1, R2 up_read in any order; the last one wakes W2.
 * Explored: every schedule with at most 2 preemptions, as above.
 * Must hold: W0, R1 and R2 hold read locks together while W2 is queued;
 * W2 stays asleep while any reader holds the lock.  Bug: downgrade that
 * wakes nobody (R1, R2 wait for W0's up_read) or that wakes W2.
 */
Test(rwsem, downgrade_write_admits_queued_readers_not_writers)
{
	struct sim_explore_result res;

	batch_downgrade = true;
	explore_bounded(&batch_program, &res, true, 2);
	cr_assert_eq(res.failures, 0, "%s: %s", res.first.outcome.message,
		     res.first.schedule ? res.first.schedule : "");
	cr_assert(res.complete);
	sim_explore_result_fini(&res);
}

/* ---- Trylocks ----------------------------------------------------------- */

enum { TRY_R1, TRY_W, TRY_T };

static void try_r1(void *arg)
{
	(void)arg;
	km_down_read(&t->sem);
	sim_completion_complete_all(&t->ready);
	sim_completion_wait(&t->done);
	km_up_read(&t->sem);
}

static void try_w(void *arg)
{
	(void)arg;
	sim_completion_wait(&t->ready);
	km_down_write(&t->sem);
	km_up_write(&t->sem);
}

static void try_t(void *arg)
{
	(void)arg;
	gate_wait(0);
	SIM_ASSERT_EQ(km_down_read_trylock(&t->sem), 0);
	SIM_ASSERT_EQ(km_down_write_trylock(&t->sem), 0);
	sim_completion_complete_all(&t->done);
}

static void try_observer(void *arg)
{
	(void)arg;
	if (queued(TRY_W))
		gate_open(0);
}

static void try_setup(void *config)
{
	static const char *const names[] = { "R1", "W", "T" };
	static const sim_task_fn fns[] = { try_r1, try_w, try_t };

	rw_setup(config, names, fns, 3);
	sim_check_register("try", try_observer, NULL, NULL);
}

static const struct sim_program try_program = {
	.name = "test/rwsem-trylock-queued",
	.setup = try_setup,
};

/*
 * Trylocks fail whenever a waiter is queued (4.2, 4.3):
 *   1. R1 takes the read lock.  2. W queues (WAITERS set).
 *   3. T: down_read_trylock: WAITERS is in READ_FAILED_MASK -> 0, even
 *      though only a reader holds the lock; down_write_trylock: count is
 *      not 0 -> 0.  4. R1 releases after T is done; W gets the lock.
 * Must hold: both trylocks return 0 in every interleaving.  Bug: a read
 * trylock that only looks at WRITER_LOCKED (NOWAIT readers would jump
 * the queued writer).
 */
Test(rwsem, trylock_fails_with_a_waiter_queued)
{
	struct sim_explore_result res;

	explore(&try_program, &res, true);
	cr_assert_eq(res.failures, 0, "%s: %s", res.first.outcome.message,
		     res.first.schedule ? res.first.schedule : "");
	cr_assert(res.complete);
	sim_explore_result_fini(&res);
}

static void try_idle_t(void *arg)
{
	(void)arg;
	sim_completion_wait(&t->ready);
	SIM_ASSERT_EQ(km_down_read_trylock(&t->sem), 1);
	km_up_read(&t->sem);
	SIM_ASSERT_EQ(km_down_write_trylock(&t->sem), 0);
	sim_completion_complete_all(&t->done);
}

static void try_idle_setup(void *config)
{
	static const char *const names[] = { "R1", "T" };
	static const sim_task_fn fns[] = { try_r1, try_idle_t };

	rw_setup(config, names, fns, 2);
}

static void try_idle_final(void *config)
{
	(void)config;
	SIM_ASSERT_EQ(sim_word_peek(&t->sem.count), 0);
}

static const struct sim_program try_idle_program = {
	.name = "test/rwsem-trylock-read-held",
	.setup = try_idle_setup,
	.final = try_idle_final,
};

/*
 * The control: with no waiter queued the read trylock shares.
 *   1. R1 takes the read lock.  2. T: down_read_trylock -> 1; up_read.
 *   3. T: down_write_trylock -> 0 (R1 still holds).  4. R1 releases.
 * Must hold in every interleaving.
 */
Test(rwsem, trylock_shares_a_read_held_lock_without_waiters)
{
	struct sim_explore_result res;

	explore(&try_idle_program, &res, true);
	cr_assert_eq(res.failures, 0, "%s: %s", res.first.outcome.message,
		     res.first.schedule ? res.first.schedule : "");
	cr_assert(res.complete);
	sim_explore_result_fini(&res);
}

/* ---- Misuse and leaks, reported by m_rwsem_check() ---------------------- */

static bool misuse_write;

static void misuse_p0(void *arg)
{
	(void)arg;
	if (misuse_write)
		km_down_write(&t->sem);
	else
		km_down_read(&t->sem);
	sim_completion_complete_all(&t->ready);
	sim_completion_wait(&t->done);
	if (misuse_write)
		km_up_write(&t->sem);
	else
		km_up_read(&t->sem);
}

static void misuse_p1(void *arg)
{
	(void)arg;
	sim_completion_wait(&t->ready);
	if (misuse_write)
		km_up_write(&t->sem);
	else
		km_up_read(&t->sem);
	sim_completion_complete_all(&t->done);
}

static void misuse_setup(void *config)
{
	static const char *const names[] = { "P0", "P1" };
	static const sim_task_fn fns[] = { misuse_p0, misuse_p1 };

	rw_setup(config, names, fns, 2);
}

static const struct sim_program misuse_program = {
	.name = "test/rwsem-release-by-non-owner",
	.setup = misuse_setup,
};

static void expect_invariant(const struct sim_program *p, const char *text)
{
	struct sim_explore_result res;

	explore(p, &res, true);
	cr_assert_gt(res.failures, 0, "%s: no failure", p->name);
	cr_assert_eq(res.first.outcome.kind, SIM_FAIL_INVARIANT, "%s: %s",
		     sim_failure_kind_name(res.first.outcome.kind),
		     res.first.outcome.message);
	cr_assert(strstr(res.first.outcome.message, text), "%s",
		  res.first.outcome.message);
	sim_explore_result_fini(&res);
}

/*
 * A read lock released by a task that does not hold one:
 *   1. P0: down_read.  2. P1: up_read (holds nothing).
 * Must be reported by invariant 1 right after P1's count add, naming P1.
 */
Test(rwsem, up_read_by_non_owner_is_reported)
{
	misuse_write = false;
	expect_invariant(&misuse_program,
			 "P1: up_read without holding a read lock");
}

/*
 * The write lock released by another task:
 *   1. P0: down_write.  2. P1: up_write.
 * Must be reported by invariant 1 at P1's owner clear, naming P1.
 */
Test(rwsem, up_write_by_non_owner_is_reported)
{
	misuse_write = true;
	expect_invariant(&misuse_program,
			 "P1: up_write by a task not holding it");
}

static void leak_task(void *arg)
{
	(void)arg;
	if (misuse_write)
		km_down_write(&t->sem);
	else
		km_down_read(&t->sem);
}

static void leak_setup(void *config)
{
	static const char *const names[] = { "P0" };
	static const sim_task_fn fns[] = { leak_task };

	rw_setup(config, names, fns, 1);
}

static const struct sim_program leak_program = {
	.name = "test/rwsem-leak",
	.setup = leak_setup,
};

/*
 * A task returns holding the lock:  1. P0: down_read (or down_write).
 * 2. P0 exits.  Must be reported by invariant 2 in the exit step.
 */
Test(rwsem, task_exiting_with_the_lock_is_a_leak)
{
	misuse_write = false;
	expect_invariant(&leak_program, "P0 exited holding 1 read lock(s)");
	misuse_write = true;
	expect_invariant(&leak_program, "P0 exited holding the write lock");
}

/* ---- Reader lock stealing and HANDOFF ----------------------------------- */

enum { STEAL_W0, STEAL_W1, STEAL_R };

static bool steal_seen;
static int steal_first;	/* who of W1 and R held the lock first */

static void steal_w0(void *arg)
{
	(void)arg;
	km_down_write(&t->sem);
	sim_completion_complete_all(&t->ready);
	gate_wait(0);
	km_up_write(&t->sem);
}

static void steal_w1(void *arg)
{
	(void)arg;
	sim_completion_wait(&t->ready);
	km_down_write(&t->sem);
	km_up_write(&t->sem);
}

static void steal_r(void *arg)
{
	(void)arg;
	gate_wait(0);
	km_down_read(&t->sem);
	km_up_read(&t->sem);
}

/*
 * Gate 0 (W0 may release, R may start) opens once W1 is queued, or,
 * with expired timeouts, once W1 has set HANDOFF.
 */
static void steal_observer(void *arg)
{
	bool handoff = sim_word_peek(&t->sem.count) & RWSEM_FLAG_HANDOFF;

	(void)arg;
	if (queued(STEAL_W1) &&
	    (!t->sem.knobs.wait_timeout_expired || handoff))
		gate_open(0);
	if (steal_first < 0 && m_rwsem_write_held(&t->sem, STEAL_W1))
		steal_first = STEAL_W1;
	if (steal_first < 0 && m_rwsem_read_held(&t->sem, STEAL_R))
		steal_first = STEAL_R;
	if (m_rwsem_read_held(&t->sem, STEAL_R) && queued(STEAL_W1))
		steal_seen = true;
}

static void steal_setup(void *config)
{
	static const char *const names[] = { "W0", "W1", "R" };
	static const sim_task_fn fns[] = { steal_w0, steal_w1, steal_r };

	steal_first = -1;
	rw_setup(config, names, fns, 3);
	sim_check_register("steal", steal_observer, NULL, NULL);
}

static void steal_final(void *config)
{
	const struct rw_config *c = config;

	if (c->wait_timeout_expired && steal_first != STEAL_W1)
		sim_fail(SIM_FAIL_PROPERTY, "R took the lock before the "
			 "handoff writer W1");
}

static const struct sim_program steal_program = {
	.name = "test/rwsem-reader-steal",
	.setup = steal_setup,
	.final = steal_final,
};

/*
 * Reader optimistic lock stealing (4.2 step 2), which the model keeps:
 *   1. W0 holds the write lock.  2. W1 queues (WAITERS).
 *   3. W0: up_write -> rwsem_wake wakes W1, which has not run yet.
 *   4. R: down_read: the fast path fails on WAITERS; the slow path sees
 *      no writer, no HANDOFF and an owner that is not reader-owned ->
 *      keeps its bias: R holds the lock while W1 is still queued.
 *   5. W1 runs, finds the lock read-held, sleeps; R's up_read wakes it.
 * Explored: every schedule with at most 3 preemptions (unbounded is
 * more than 6 million executions).
 * Must hold: some interleaving shows 4 (the kernel allows it); none
 * fails a check or deadlocks.
 * Bug (break=rwsem_steal_ignores_writer, run: the steal's test without
 * WRITER_LOCKED, and the checks must fail): a slow path that steals
 * from a writer still holding the lock, or one that never steals (4
 * never seen: a missed feature, not a broken protection, so no switch).
 * Kernel: kernel/locking/rwsem.c rwsem_down_read_slowpath (reader
 * optimistic lock stealing), rwsem_wake, v6.18.
 */
Test(race, up_write_vs_down_read__reader_steals_from_woken_writer)
{
	static struct rw_config config = { .spin_on_owner = true };
	struct sim_program p = steal_program;
	struct sim_explore_result res;

	steal_seen = false;
	p.config = &config;
	explore_bounded(&p, &res, true, 3);
	cr_assert_eq(res.failures, 0, "%s: %s", res.first.outcome.message,
		     res.first.schedule ? res.first.schedule : "");
	cr_assert(res.complete);
	cr_assert(steal_seen);
	sim_explore_result_fini(&res);

	/* Stealing from a holding writer: the checks must catch it. */
	static struct rw_config broken = {
		.spin_on_owner = true,
		.breaks = M_BREAK_RWSEM_STEAL_IGNORES_WRITER,
	};

	p.config = &broken;
	explore_bounded(&p, &res, true, 3);
	cr_assert_gt(res.failures, 0, "a steal from a holding writer was "
		     "not caught");
	sim_explore_result_fini(&res);
}

/*
 * The same with every waiter's RWSEM_WAIT_TIMEOUT expired (the knob):
 *   1. W0 holds the write lock.
 *   2. W1 queues; rwsem_try_write_lock finds the lock busy and W1 timed
 *      out -> sets HANDOFF (W1 is first: handoff_set).
 *   3. W0 releases; R arrives: HANDOFF is in READ_FAILED_MASK and stops
 *      reader stealing, so R queues behind W1.
 * Explored: every schedule with at most 3 preemptions.
 * Must hold: W1 holds the lock before R in every interleaving, and R
 * never holds it while W1 is queued.
 * Bug (break=rwsem_steal_ignores_handoff, run: the steal's test without
 * HANDOFF, and R must be caught taking the lock first): stealing that
 * ignores HANDOFF.
 * Kernel: kernel/locking/rwsem.c rwsem_try_write_lock (handoff_set),
 * rwsem_down_read_slowpath, v6.18.
 */
Test(race, up_write_vs_down_read__handoff_stops_the_steal)
{
	static struct rw_config config = { .spin_on_owner = true,
					   .wait_timeout_expired = true };
	struct sim_program p = steal_program;
	struct sim_explore_result res;

	steal_seen = false;
	p.config = &config;
	explore_bounded(&p, &res, true, 3);
	cr_assert_eq(res.failures, 0, "%s: %s", res.first.outcome.message,
		     res.first.schedule ? res.first.schedule : "");
	cr_assert(res.complete);
	cr_assert(!steal_seen);
	sim_explore_result_fini(&res);

	/* Stealing past HANDOFF: the checks must catch it. */
	static struct rw_config broken = {
		.spin_on_owner = true, .wait_timeout_expired = true,
		.breaks = M_BREAK_RWSEM_STEAL_IGNORES_HANDOFF,
	};

	p.config = &broken;
	explore_bounded(&p, &res, true, 3);
	cr_assert_gt(res.failures, 0, "a steal past HANDOFF was not caught");
	sim_explore_result_fini(&res);
}

/* ---- HANDOFF cleared when readers are woken with waiters left ---------- */

enum { HO_W0, HO_R1, HO_W2, HO_R3 };

static bool ho_r3_stole;

static void ho_w0(void *arg)
{
	(void)arg;
	km_down_write(&t->sem);
	sim_completion_complete_all(&t->ready);
	gate_wait(0);
	km_up_write(&t->sem);
}

static void ho_r1(void *arg)
{
	(void)arg;
	sim_completion_wait(&t->ready);
	km_down_read(&t->sem);
	gate_wait(1);
	km_up_read(&t->sem);
}

static void ho_w2(void *arg)
{
	(void)arg;
	gate_wait(3);
	km_down_write(&t->sem);
	km_up_write(&t->sem);
}

static void ho_r3(void *arg)
{
	(void)arg;
	gate_wait(2);
	km_down_read(&t->sem);
	km_up_read(&t->sem);
}

/*
 * Gate 3 (W2 starts) once R1 is queued; gate 0 (W0 releases) once W2
 * is queued and HANDOFF is set; gate 1 (R1 releases) once R1 holds the
 * read lock; gate 2 (R3 starts) once R1 has released it with W2 still
 * queued.
 */
static bool ho_r1_held;	/* this execution: R1 has held the lock */

static void ho_observer(void *arg)
{
	bool handoff = sim_word_peek(&t->sem.count) & RWSEM_FLAG_HANDOFF;
	bool r1 = m_rwsem_read_held(&t->sem, HO_R1) > 0;

	(void)arg;
	if (queued(HO_R1))
		gate_open(3);
	if (queued(HO_W2) && handoff)
		gate_open(0);
	if (r1) {
		ho_r1_held = true;
		gate_open(1);
	}
	if (ho_r1_held && !r1 && queued(HO_W2))
		gate_open(2);
	if (m_rwsem_read_held(&t->sem, HO_R3) && queued(HO_W2))
		ho_r3_stole = true;
}

static void ho_setup(void *config)
{
	static const char *const names[] = { "W0", "R1", "W2", "R3" };
	static const sim_task_fn fns[] = { ho_w0, ho_r1, ho_w2, ho_r3 };

	ho_r1_held = false;
	rw_setup(config, names, fns, 4);
	sim_check_register("handoff", ho_observer, NULL, NULL);
}

static const struct sim_program ho_program = {
	.name = "test/rwsem-handoff-cleared-on-reader-wake",
	.setup = ho_setup,
};

/*
 * Every waiter's timeout expired (the knob):
 *   1. W0 holds the write lock; R1 queues (front).
 *   2. W2 queues behind R1; rwsem_try_write_lock finds the lock busy and
 *      W2 timed out: HANDOFF set, for the first waiter R1 (handoff_set).
 *   3. W0: up_write -> rwsem_mark_wake: R1 is granted and woken; W2 is
 *      still queued, so "else if (woken)" clears HANDOFF.
 *   4. R1: up_read -> rwsem_wake wakes W2, which has not run yet.
 *   5. R3: down_read: the fast path fails on WAITERS; the slow path sees
 *      no writer, no HANDOFF and no other reader: it steals, and holds
 *      the lock while W2 is still queued (as
 *      up_write_vs_down_read__reader_steals_from_woken_writer).
 * Explored: every schedule with at most 3 preemptions.
 * Must hold: no check fails, and step 5 happens (R3 holds the lock while
 * W2 is queued) in some interleaving.
 * Bug: none run (seed 64153's #47, "else if (!woken)": HANDOFF left set
 * after step 3, so R3 never steals and queues behind W2).
 * Kernel: kernel/locking/rwsem.c rwsem_mark_wake,
 * rwsem_try_write_lock, rwsem_down_read_slowpath, v6.18.
 */
Test(race, up_write_wakes_reader__handoff_cleared_for_the_next_steal)
{
	static struct rw_config config = { .spin_on_owner = true,
					   .wait_timeout_expired = true };
	struct sim_program p = ho_program;
	struct sim_explore_result res;

	ho_r3_stole = false;
	p.config = &config;
	explore_bounded(&p, &res, true, 3);
	cr_assert_eq(res.failures, 0, "%s: %s", res.first.outcome.message,
		     res.first.schedule ? res.first.schedule : "");
	cr_assert(res.complete);
	cr_assert(ho_r3_stole, "R3 never held the lock while W2 was queued "
		  "(%llu executions)", (unsigned long long)res.executions);
	sim_explore_result_fini(&res);
}

/* ---- The clock rule: RWSEM_WAIT_TIMEOUT on the virtual clock ----------- */

enum { CK_W0, CK_W1, CK_N };

static const struct rw_config *ck_config;
static bool ck_n_twice_first;	/* N took the lock twice before W1 */
static bool ck_n_passed;	/* N took the lock while W1 was queued */
static bool ck_handoff_seen;
static bool ck_handoff_passed;	/* N held the lock past W1's HANDOFF */
static bool ck_handoff_on;	/* W1 has set HANDOFF this execution */
static bool ck_n_held;		/* N held the write lock at the last step */

static void ck_w0(void *arg)
{
	(void)arg;
	km_down_write(&t->sem);
	sim_completion_complete_all(&t->ready);
	gate_wait(0);
	if (ck_config->hold_ns)
		sim_sleep_ns(ck_config->hold_ns);
	km_up_write(&t->sem);
}

static void ck_w1(void *arg)
{
	(void)arg;
	sim_completion_wait(&t->ready);
	km_down_write(&t->sem);
	log_acquired();
	km_up_write(&t->sem);
}

/* The newcomer: two write sections, after W1 has queued. */
static void ck_n(void *arg)
{
	(void)arg;
	gate_wait(0);
	for (int i = 0; i < 2; i++) {
		km_down_write(&t->sem);
		log_acquired();
		km_up_write(&t->sem);
	}
}

/* Gate 0 (W0 may release, N may start) opens once W1 is queued. */
static void ck_observer(void *arg)
{
	(void)arg;
	if (queued(CK_W1))
		gate_open(0);
	if (m_rwsem_write_held(&t->sem, CK_N) &&
	    m_rwsem_waiter_position(&t->sem, CK_W1) >= 0)
		ck_n_passed = true;
	if ((sim_word_peek(&t->sem.count) & RWSEM_FLAG_HANDOFF) &&
	    m_rwsem_waiter_position(&t->sem, CK_W1) == 0)
		ck_handoff_seen = ck_handoff_on = true;
	/* N takes the lock (it did not hold it a step ago) past W1's
	 * HANDOFF. */
	if (ck_handoff_on && !ck_n_held && m_rwsem_write_held(&t->sem, CK_N) &&
	    m_rwsem_waiter_position(&t->sem, CK_W1) >= 0)
		ck_handoff_passed = true;
	ck_n_held = m_rwsem_write_held(&t->sem, CK_N);
}

static void ck_setup(void *config)
{
	static const char *const names[] = { "W0", "W1", "N" };
	static const sim_task_fn fns[] = { ck_w0, ck_w1, ck_n };

	ck_config = config;
	ck_handoff_on = ck_n_held = false;
	rw_setup(config, names, fns, 3);
	sim_check_register("clock", ck_observer, NULL, NULL);
}

/* The acquisition log after W0: N's id is 3, W1's 2 (id + 1). */
static void ck_final(void *config)
{
	uint64_t order = sim_word_peek(&t->order);

	(void)config;
	/* Three sections logged, oldest in the highest digit: 332 = N, N,
	 * then W1. */
	if (order == 332)
		ck_n_twice_first = true;
}

static const struct sim_program ck_program = {
	.name = "test/rwsem-clock",
	.setup = ck_setup,
	.final = ck_final,
};

static void ck_explore(struct rw_config *config,
		       struct sim_explore_result *res)
{
	struct sim_program p = ck_program;

	ck_n_twice_first = ck_n_passed = ck_handoff_seen = false;
	ck_handoff_passed = false;
	p.config = config;
	explore_bounded(&p, res, true, 3);
	cr_assert_eq(res->failures, 0, "%s: %s", res->first.outcome.message,
		     res->first.schedule ? res->first.schedule : "");
	cr_assert(res->complete);
}

/*
 * A newcomer passes a woken writer (allowed; the clock rule before any
 * timeout):
 *   1. W0 holds the write lock.  2. W1 queues (WAITERS), sleeps.
 *   3. W0: up_write -> rwsem_wake wakes W1 without granting it.
 *   4. N: down_write: the fast path fails on WAITERS, the slow path's
 *      optimistic spin (owner NULL: the lock is free) takes the lock in
 *      rwsem_try_write_lock_unqueued, which ignores WAITERS.
 *   5. W1 runs, finds the lock held, not timed out (its timeout is one
 *      jiffy of virtual time after it queued; the run lasts microseconds):
 *      sleeps again.  N's second section may pass it again.
 * Explored: every schedule with at most 3 preemptions, one CPU.
 * Must hold: N holds the lock while W1 is queued in some interleaving,
 * and N's two sections both precede W1's in some; HANDOFF is never set;
 * no check fails.
 * Bug (caught by the first two): an up_write that hands the lock to the
 * first waiter, or an unqueued attempt that honours WAITERS: a strict
 * FIFO the kernel does not have (44% of the 4-thread writer's contended
 * grants passed an earlier waiter, docs/validation.md h18-dc); a timeout
 * that passes in microseconds sets HANDOFF (the third).
 * Kernel: kernel/locking/rwsem.c rwsem_mark_wake (a writer is woken, not
 * granted), rwsem_optimistic_spin, rwsem_try_write_lock_unqueued,
 * rwsem_try_write_lock, v6.18.
 */
Test(race, up_write_vs_down_write__newcomer_passes_woken_writer)
{
	static struct rw_config config = { .spin_on_owner = true,
					   .clock = true };
	struct sim_explore_result res;

	ck_explore(&config, &res);
	cr_assert(ck_n_passed, "N never passed W1 (%llu executions)",
		  (unsigned long long)res.executions);
	cr_assert(ck_n_twice_first);
	cr_assert(!ck_handoff_seen);
	sim_explore_result_fini(&res);
}

/*
 * Hand-off after the timeout (the clock rule):
 *   1. W0 holds the write lock.  2. W1 queues at virtual time ~0:
 *      waiter.timeout = jiffies + RWSEM_WAIT_TIMEOUT (1 jiffy, 4 ms).
 *   3. W0 sleeps 9 ms holding the lock (sim_sleep_ns), then up_write
 *      wakes W1: W1's clock is past its timeout.
 *   4. N may take the free lock before W1 runs (step 4 above, as often
 *      as W1 does not run); once W1 runs and finds it held, timed out,
 *      rwsem_try_write_lock sets HANDOFF (W1 first: handoff_set), and
 *      from then on neither N's spin (rwsem_try_write_lock_unqueued
 *      tests HANDOFF) nor its fast path takes the lock: W1 is next.
 * Explored: every schedule with at most 3 preemptions, one CPU.
 * Must hold: HANDOFF is set in some interleaving, and in none does N
 * hold the lock while W1 is queued after W1 set it; no check fails.
 * Bug (run: the same program with rwsem=exact, whose timeout never
 * passes, must show it): no hand-off, so HANDOFF is never set and N's
 * two sections both precede W1's in some interleaving.
 * Kernel: kernel/locking/rwsem.c rwsem_down_write_slowpath
 * (waiter.timeout), rwsem_try_write_lock (time_after, HANDOFF), v6.18.
 */
Test(race, up_write_vs_down_write__handoff_after_timeout)
{
	static struct rw_config config = { .spin_on_owner = true,
					   .clock = true,
					   .hold_ns = 9000000 };
	static struct rw_config exact = { .spin_on_owner = true,
					  .hold_ns = 9000000 };
	struct sim_explore_result res;

	ck_explore(&config, &res);
	cr_assert(!ck_handoff_passed, "N took the lock past W1's HANDOFF");
	cr_assert(ck_handoff_seen, "HANDOFF never set (%llu executions)",
		  (unsigned long long)res.executions);
	sim_explore_result_fini(&res);

	ck_explore(&exact, &res);
	cr_assert(ck_n_twice_first, "without the clock N never passed W1 "
		  "twice: the test does not show the hand-off's effect");
	cr_assert(!ck_handoff_seen);
	sim_explore_result_fini(&res);
}
