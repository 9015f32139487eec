/* SPDX-License-Identifier: MIT */
/*
 * sim_engine: executions of a program under a controlled scheduler.
 *
 * A program is a setup function that builds the initial state and spawns
 * tasks, plus an optional final property.  One execution runs the tasks
 * cooperatively, one at a time, on their own stacks.  A task runs until
 * its next scheduling point: the entry of an engine primitive that touches
 * shared state.  There the task records what it is about to do, switches
 * back to the scheduler, and the strategy chooses which enabled task runs
 * next.  The chosen task then performs its access and runs on to its next
 * point.  One step = one access, so the event log has one event per step.
 *
 * Everything an execution allocates comes from the per-execution arena
 * (sim/arena.h), so abandoning an execution midway (a failure) costs
 * nothing: the stacks are reused, the arena is reset.
 */
#ifndef WPSIM_SIM_ENGINE_H
#define WPSIM_SIM_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Bounds, with units.  Every one is checked; reaching it is reported. */
#define SIM_TASKS_MAX		64	/* tasks + event pseudo-tasks / execution
					 * under dfs, dpor, random, pct (their
					 * enabled sets are 64-bit masks) */
#define SIM_TASKS_LIMIT		1024	/* ids the model's per-task tables
					 * hold at once; past it, a second
					 * table made on first use */
#define SIM_IDS_LIMIT		16384	/* ids of tasks and events under
					 * timed and replay: every I/O in
					 * flight is an event (8 hardware
					 * queues x 1023 tags fit) */
#define SIM_SETUP_ID		SIM_TASKS_LIMIT	/* never a task's or an
					 * event's id: owner words
					 * (sim/shared.c) name setup by it;
					 * timed runs have SIM_IDS_LIMIT - 1
					 * tasks and events at most */
#define SIM_STEPS_MAX_DEFAULT	4096	/* steps / execution before "stuck" */
#define SIM_STEPS_LIMIT		65536	/* hard cap on --steps; steps whose
					 * schedule and timestamps are kept */
#define SIM_STEPS_LONG_LIMIT	100000000000ULL /* steps of a long timed
					 * run (64-bit: fio's 900 s files
					 * take over 2^32; events keep
					 * their step modulo 2^32) */
#define SIM_OBJECTS_MAX		4096	/* named shared objects / execution */
#define SIM_OBJECTS_LONG_MAX	16777215 /* live objects of a long timed
					 * run: the id space (ids are 24
					 * bits: SIM_OBJECT_BASE); the
					 * tables grow with the live ones */
#define SIM_EVENTS_WINDOW	(2 * SIM_STEPS_LIMIT) /* half the event
					 * log's bound in one execution */
#define SIM_EVENTS_LONG_WINDOW	8192	/* events a long run keeps at
					 * least (the latest): a ring of
					 * twice that, 512 KiB, that stays
					 * in the host's cache */
#define SIM_CHECKS_MAX		32	/* registered checks / execution */
#define SIM_STACK_BYTES		(256 * 1024)
#define SIM_MESSAGE_BYTES	512

/* What an event did to its object. */
enum sim_access {
	SIM_ACCESS_NONE = 0,	/* task start, resume after a wake-up */
	SIM_ACCESS_READ,	/* load of a shared word */
	SIM_ACCESS_WRITE,	/* store */
	SIM_ACCESS_RMW,		/* atomic read-modify-write: bitop, add, xchg */
	SIM_ACCESS_ADD,		/* atomic add whose result nobody reads:
				 * two adds commute (DPOR: independent) */
	SIM_ACCESS_ACQUIRE,	/* lock taken */
	SIM_ACCESS_ACQUIRE_FAIL,/* trylock failed, or lock found held: sleep */
	SIM_ACCESS_RELEASE,	/* lock released */
	SIM_ACCESS_BLOCK,	/* task went to sleep on a wait queue */
	SIM_ACCESS_WAKE,	/* task woke waiters of a wait queue */
	SIM_ACCESS_SPAWN,	/* task created a task or posted an event */
	SIM_ACCESS_EXIT,	/* task returned */
	SIM_ACCESS_ACQUIRE_SHARED, /* reader-writer lock taken shared:
				 * commutes with other shared takes and
				 * releases (sim_rwlock) */
	SIM_ACCESS_RELEASE_SHARED, /* shared hold released */
	SIM_ACCESS_COUNT
};

enum sim_failure_kind {
	SIM_OK = 0,
	SIM_FAIL_ASSERT,	/* assertion in model or program code */
	SIM_FAIL_INVARIANT,	/* a registered check failed after a step */
	SIM_FAIL_DEADLOCK,	/* tasks remain, none enabled */
	SIM_FAIL_STUCK,		/* step bound reached (liveness) */
	SIM_FAIL_PROPERTY,	/* the program's final property failed */
	SIM_FAIL_BOUND,		/* an engine bound (tasks, objects) exceeded */
	SIM_FAIL_DIVERGED,	/* replayed schedule names a disabled task */
	SIM_FAIL_NONDETERMINISM,/* same schedule, different event log */
	SIM_FAIL_LOCKING,	/* a locking rule broken (sim/lockdep.h) */
	SIM_FAIL_RACE,		/* a data race (sim/lockdep.h, --races) */
	SIM_FAIL_KIND_COUNT
};

const char *sim_failure_kind_name(enum sim_failure_kind kind);
/* "read", "write", "rmw", ... for an enum sim_access value. */
const char *sim_access_name(unsigned int access);

/* One recorded step. */
struct sim_event {
	uint32_t step;
	uint16_t task;
	uint8_t access;		/* enum sim_access */
	uint8_t mark;		/* SIM_MARK_*: what else the event is
				 * (sim_record_mark), 0 = nothing */
	uint32_t object;	/* object id, 0 = none */
	uint16_t cpu;		/* simulated CPU of the step (sim/clock.h) */
	uint16_t pad2;
	uint64_t value;		/* value read, written or returned */
	uint64_t t_ns;		/* the task's virtual time when recorded;
				 * not part of the event-log hash */
};

struct sim_task;
struct sim_exec;

typedef void (*sim_task_fn)(void *arg);

/*
 * A program: what an execution runs.  @setup runs on the scheduler's
 * context before the first step; it builds state with sim_arena_alloc()
 * and the init functions, registers checks and spawns tasks.  @final runs
 * after all tasks have ended; it may fail with SIM_ASSERT*.  @dump prints
 * program-level state for a failure report.
 */
struct sim_program {
	const char *name;
	const char *description;
	void (*setup)(void *config);
	void (*final)(void *config);
	void *config;
};

/*
 * The snapshot after setup (include/sim/snapshot.h), for a search's
 * executions of @program under strategy @kind (dfs and dpor only):
 * begin arms it (the first execution takes it), end drops it.
 */
struct sim_strategy;
void sim_exec_setup_snapshot_begin(const struct sim_program *program,
				   const struct sim_strategy *strategy);
void sim_exec_setup_snapshot_end(void);

/* Options for one execution; a strategy fills @choose. */
struct sim_choice {
	uint64_t enabled;	/* bitmask of enabled task ids (ids < 64) */
	int current;		/* task of the previous step, -1 at the start */
	uint32_t step;
	uint32_t task_count;
	/* One byte per task id < task_count: 1 when enabled.  The only
	 * complete enabled set past SIM_TASKS_MAX tasks (timed, replay). */
	const uint8_t *enabled_all;
};

struct sim_strategy;

/* A strategy's answer meaning "this execution is redundant: stop it". */
#define SIM_CHOICE_PRUNE (-2)

/* The result of one execution. */
struct sim_outcome {
	enum sim_failure_kind kind;
	char message[SIM_MESSAGE_BYTES];
	uint64_t steps;
	int failed_task;	/* -1 when not a task's failure */
	uint32_t preemptions;
	uint64_t log_hash;	/* FNV-1a over the event log; 0 with
				 * sim_exec_options.no_hash */
	uint64_t end_ns;	/* virtual time of the last step's end */
	bool pruned;		/* stopped as redundant (DPOR sleep set) */
};

/* ---- Running executions ---------------------------------------------- */

struct sim_exec_options {
	uint64_t steps_max;	/* 0 = SIM_STEPS_MAX_DEFAULT */
	bool keep_log;		/* keep events for explain/replay output */
	/*
	 * A long timed run (the timed strategy only): steps_max up to
	 * SIM_STEPS_LONG_LIMIT; the schedule, step times and enabled sets
	 * are kept for the first SIM_STEPS_LIMIT steps; the event log keeps
	 * at least the latest SIM_EVENTS_LONG_WINDOW events (its hash covers
	 * all); retired objects' ids are reused, and so are the ids of
	 * tasks and events that returned (read a task's counters before it
	 * returns).  docs/timed-mode.md.
	 */
	bool long_run;
	/*
	 * Nobody reads this run's event-log hash (wpsim fio and replay
	 * print it only with --replayable or --schedule): it is not
	 * computed, and the outcome's log_hash is 0.  Nothing else
	 * changes: the events, the schedule, every check.
	 */
	bool no_hash;
	/*
	 * Nobody reads this run's event log (a long run of wpsim fio or
	 * replay: no --trace, ftrace or HTML output is made of it, and a
	 * failure prints its message only): the events are not stored, so
	 * sim_exec_events() finds none and sim_exec_events_dropped() counts
	 * them all.  Every event is still made and checked (lockdep, the
	 * data-race detector, the last exit's step the checks ask for).
	 */
	bool no_log;
};

/*
 * Run one execution of @program, asking @strategy at every step.
 * Returns the outcome; the event log and schedule stay readable through
 * sim_exec_*() until the next execution starts.
 */
void sim_exec_run(const struct sim_program *program,
		  struct sim_strategy *strategy,
		  const struct sim_exec_options *options,
		  struct sim_outcome *outcome);

/* The schedule of the last execution: one task id per step (a long run:
 * its first SIM_STEPS_LIMIT steps). */
uint32_t sim_exec_schedule(const uint16_t **choices);
/* False when the last execution ran past the steps its schedule keeps. */
bool sim_exec_schedule_complete(void);
/* The trimmed schedule of the last execution, as sim_schedule_format()
 * prints it (also past SIM_TASKS_MAX tasks). */
size_t sim_exec_schedule_format(char *buf, size_t size);
/* The enabled set at each step of the last execution. */
const uint64_t *sim_exec_enabled_sets(void);
/* The event log of the last execution (a long run: its latest events,
 * in order; sim_exec_events_dropped() older ones were let go). */
uint32_t sim_exec_events(const struct sim_event **events);
uint64_t sim_exec_events_dropped(void);
/* Not API: what sim_exec_exit_in_last_step() reads (sim_record keeps
 * it), here so that the checks, which ask after every step, read it
 * inline. */
struct sim_exec_exits {
	uint64_t exit_step;		/* step of the latest EXIT event */
	uint64_t last_event_step;	/* step of the log's last event */
	uint16_t exit_task;		/* and its task */
};

extern struct sim_exec_exits sim_exec_exits;

/* The task whose EXIT event is in the step of the log's last event, or
 * -1 (what a scan back over that step's events finds, in O(1)). */
static inline int sim_exec_exit_in_last_step(void)
{
	if (sim_exec_exits.last_event_step != sim_exec_exits.exit_step)
		return -1;
	return sim_exec_exits.exit_task;
}
/* For tests: NULL when the timed strategy's incremental view (its task
 * heaps and enabled set) agrees with the tasks, else what does not. */
const char *sim_exec_timed_view_fault(void);
/* For tests: the timed strategy's solo steps (a task that alone can run
 * next goes on without the enabled set, the heaps' sift and the pick)
 * and its one-candidate pick (no pass over the CPUs' owners when one
 * task or event alone starts first; docs/architecture.md "Timed fast
 * paths") on, the default, or off: the same run either way. */
void sim_exec_timed_solo(bool on);
/* The last execution's solo steps; of them, those taken while tasks
 * spun on words that did not change (spin groups), and those taken by
 * sim_point's inline fast path (solo_fast, session 19); its
 * one-candidate picks. */
uint64_t sim_exec_timed_solo_steps(void);
uint64_t sim_exec_timed_solo_grouped_steps(void);
uint64_t sim_exec_timed_solo_fast_steps(void);
/* Of those, the ones sim_point_full took (a spin group, more than 64
 * tasks or the first-free CPU of several: not solo_lean's). */
uint64_t sim_exec_timed_solo_full_steps(void);
/* The solo steps of events taken in sim_point's inline path
 * (solo_lean_event, session 24; not counted in the fast ones). */
uint64_t sim_exec_timed_solo_event_steps(void);
/* The solo steps of tasks and events proved at their point when the
 * kept answer was stale (sim_point_prove, session 25; not counted in
 * the fast or event ones). */
uint64_t sim_exec_timed_solo_proved_steps(void);
uint64_t sim_exec_timed_one_picks(void);
/*
 * The order rule (docs/timed-mode.md, "Order"): in every execution but a
 * timed one a step starts no earlier than the start of every earlier
 * step of the schedule whose access to an object it accesses conflicts
 * with its own (not two reads, not two adds), and an event is recorded
 * no earlier.  The timed strategy already runs steps in that order, so
 * there the rule is not run.  For tests: on, every following timed
 * execution keeps the rule's stamps and fails (an assertion) at a step
 * that starts before such a step, without changing anything else;
 * `WPSIM_ORDER_CHECK=1` in wpsim's environment turns it on.
 */
void sim_exec_order_check(bool on);
/* The last execution's steps started later, and events recorded later,
 * by the order rule (0 in a timed execution). */
uint64_t sim_exec_order_moves(void);
uint32_t sim_exec_task_count(void);
const char *sim_exec_task_name(uint32_t task);
const char *sim_exec_object_name(uint32_t object);

/*
 * Format a schedule as dotted task ids, trimmed after the last step whose
 * choice differs from the default (continue the current task if it is
 * enabled, else the lowest enabled one): replaying the trimmed string
 * gives the same execution.  Returns the length written (snprintf style).
 */
size_t sim_schedule_format(char *buf, size_t size, const uint16_t *choices,
			   const uint64_t *enabled, uint32_t steps);
/*
 * The origin of schedules: a short name of the model they come from (the
 * front end sets the model's source hash).  When set, formatted
 * schedules start with "ORIGIN:", and a replay of a schedule from another
 * origin that diverges says that the model changed, not that replay
 * failed.  Parsing accepts an optional "HEX:" prefix and keeps it.
 */
#define SIM_SCHEDULE_ORIGIN_MAX	16	/* hex digits */
void sim_schedule_set_origin(const char *origin);
const char *sim_schedule_origin(void);
/* The origin the last sim_schedule_parse() read ("" if none). */
const char *sim_schedule_parsed_origin(void);
/*
 * Parse "0.0.1.2" (also "0*3.1" for runs, "ORIGIN:0.1" with an origin);
 * 0, -EINVAL (syntax) or -ERANGE (a task id >= SIM_IDS_LIMIT, more than
 * @max steps), *err set.
 */
int sim_schedule_parse(const char *text, uint16_t *choices, uint32_t max,
		       uint32_t *count, const char **err);
/* Count preemptions: steps that leave an enabled current task. */
uint32_t sim_schedule_preemptions(const uint16_t *choices,
				  const uint64_t *enabled, uint32_t steps);

/* Print the event log of the last execution, one line per step. */
void sim_exec_print_log(FILE *out, uint32_t from_step);
/* The same with each event's virtual time (us, to the ns) and CPU. */
void sim_exec_print_log_times(FILE *out, uint32_t from_step);

/* ---- Inside an execution ---------------------------------------------- */

/* Spawn a task; callable from setup or from a task.  Returns its id. */
int sim_task_spawn(const char *name, sim_task_fn fn, void *arg);
/*
 * Post an asynchronous event (device completion, timer): a pseudo-task
 * that is enabled at once and that the strategy may run at any step, so
 * its order against everything else is explored like a thread's.
 */
int sim_event_post(const char *name, sim_task_fn fn, void *arg);

/* Id of the running task, or -1 on the scheduler's context. */
int sim_task_current(void);
bool sim_in_task(void);

/*
 * Engine internal (installed because this header is, not for race
 * tests): event object ids.  The low 24 bits name a registered object; bit
 * operations (bits 0-63 of a word) add (bit + 1) << 24, so DPOR sees that
 * operations on different bits of one word commute while a whole-word
 * access conflicts with every bit.  SIM_OBJECT_BIT_OF is that bit + 1, 0
 * for a whole-word access (test SIM_OBJECT_RANGE_FLAG first: a range is
 * neither).
 */
#define SIM_OBJECT_BIT_SHIFT	24
#define SIM_OBJECT_BASE(object)	((object) & 0xffffffu)
#define SIM_OBJECT_BIT(word_id, nr) \
	((word_id) | (((uint32_t)(nr) + 1) << SIM_OBJECT_BIT_SHIFT))
#define SIM_OBJECT_BIT_OF(object) \
	(((uint32_t)(object) >> SIM_OBJECT_BIT_SHIFT) & 0x7fu)
/*
 * A range of an array object (device sectors): the event's value holds
 * first << 32 | last, and DPOR sees accesses to disjoint ranges of one
 * object as independent (sim_word_touch_range).
 */
#define SIM_OBJECT_RANGE_FLAG	(1u << 31)
#define SIM_OBJECT_RANGE(word_id) ((word_id) | SIM_OBJECT_RANGE_FLAG)
#define SIM_RANGE_VALUE(first, last) \
	(((uint64_t)(uint32_t)(first) << 32) | (uint32_t)(last))

/*
 * Register a named shared object and return its id (1-based).  Ids are
 * given in registration order, so they are the same in every execution
 * that registers the same objects in the same order.
 */
uint32_t sim_object_register(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
/* The same with a name that needs no formatting. */
uint32_t sim_object_register_name(const char *name);
/*
 * The same for a format with one %u conversion and nothing else to
 * format: @fmt must stay valid (a string literal).  A long run keeps
 * @fmt and @arg and formats the name only when it is printed (a
 * folio's dozen words cost no strings); otherwise as
 * sim_object_register(fmt, arg).
 */
uint32_t sim_object_register_u(const char *fmt, unsigned int arg);
/*
 * The same for a name with no '%' that stays valid (a string literal):
 * a long run keeps the pointer, with no copy to make and free (the
 * model's per-I/O words: a dio's, a bio's); otherwise as
 * sim_object_register_name(name).
 */
uint32_t sim_object_register_static(const char *name);
/*
 * During a program's setup in a search (sim_exec_setup_names()): the id
 * of the next object, registered under the name it had in the search's
 * first execution, or 0 when that name is not known (then register it
 * with a name).  Setup runs before the first choice, so every execution
 * of one search registers the same objects in the same order under the
 * same names: the names need formatting only once.
 */
uint32_t sim_object_register_known(void);
/*
 * Between sim_exec_setup_names(true) and (false) (sim_explore), the
 * executions run one program with one configuration: the names its
 * setup registers are kept from the first whole setup and reused.
 */
void sim_exec_setup_names(bool on);
/*
 * As sim_exec_setup_names(true) for a search of the same program and
 * configuration as the last one: the names it kept stay (the split's
 * units, one search each, in one worker).
 */
void sim_exec_setup_names_again(void);
/*
 * The object @id is gone (a folio freed).  In a long run its id and name
 * are reused by a later registration, so memory follows the live
 * objects; otherwise nothing happens (ids stay unique for DPOR).
 */
void sim_object_retire(uint32_t id);

/*
 * Scheduling point: the running task is about to perform @access on
 * @object.  Yields to the scheduler; returns when the task is chosen.
 * The engine primitives call this; model code calls them, not this.
 * On the scheduler's context (setup) it returns at once.
 */
void sim_point(uint32_t object, enum sim_access access);
/* Record the event of the current step (after sim_point returned). */
void sim_record(uint32_t object, enum sim_access access, uint64_t value);
/*
 * What the event the current step recorded last is besides its access,
 * for DPOR's lock-aware reduction only (the log, its hash, lockdep, the
 * data-race detector and the costs see the access alone): a bit lock's
 * take, failed take or release (sim_bitlock_take, sim_bitlock_release
 * in sim/shared.h).  Nothing when the step recorded no event.
 */
#define SIM_MARK_LOCK_TAKE	1
#define SIM_MARK_LOCK_RELEASE	2
#define SIM_MARK_LOCK_FAIL	3	/* a take that found it held */
void sim_record_mark(uint8_t mark);

/*
 * Block the running task until sim_task_wake() makes it runnable.  The
 * caller has already put it on some wait list.  Returns when it has been
 * woken and chosen to run; that step records SIM_ACCESS_NONE on @object.
 */
void sim_task_block(uint32_t object);
/*
 * sim_task_block() with a timeout whose time is not modelled: it fires
 * when no task can run (where sim_task_block() would be a deadlock), so
 * under the exploration strategies the sleep ends by a wake or once
 * everything else has stopped, never earlier.  Returns true if the
 * timeout ended it.  The caller takes itself off its wait list then.
 */
bool sim_task_block_timeout(uint32_t object);
/*
 * Count engine locks (spinlocks, mutexes) the running task holds; a task
 * that returns while holding one fails the execution ("lock leak").
 */
void sim_task_note_lock(int delta);

/* Make a blocked task runnable (from a task or the scheduler). */
void sim_task_wake(int task);
bool sim_task_blocked(int task);
/* Whether @task waits in sim_spin_lock (or a rwlock wait) for a word to be
 * zero: its next step, if chosen, takes the lock (sim/dpor.c). */
bool sim_task_spinning(int task);

/*
 * Spin: mark the running task disabled until the word at @word is zero.
 * The engine re-checks the word at each step.  This is how a spinlock
 * waits without burning steps.
 */
void sim_task_spin_until_zero(const void *word, uint32_t object);

/* ---- Failures -------------------------------------------------------- */

/* Fail the execution now.  Never returns. */
void sim_fail(enum sim_failure_kind kind, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 2, 3)));

#define SIM_ASSERT(cond)						\
	do {								\
		if (!(cond))						\
			sim_fail(SIM_FAIL_ASSERT, "%s:%d: %s",		\
				 __FILE__, __LINE__, #cond);		\
	} while (0)

#define SIM_ASSERT_MSG(cond, ...)					\
	do {								\
		if (!(cond))						\
			sim_fail(SIM_FAIL_ASSERT, __VA_ARGS__);		\
	} while (0)

/* Compare two integers; the message names both expressions and values. */
#define SIM_ASSERT_CMP(a, op, b)					\
	do {								\
		long long sim_a_ = (long long)(a);			\
		long long sim_b_ = (long long)(b);			\
		if (!(sim_a_ op sim_b_))				\
			sim_fail(SIM_FAIL_ASSERT,			\
				 "%s:%d: %s %s %s (%lld vs %lld)",	\
				 __FILE__, __LINE__, #a, #op, #b,	\
				 sim_a_, sim_b_);			\
	} while (0)
#define SIM_ASSERT_EQ(a, b) SIM_ASSERT_CMP(a, ==, b)

/*
 * Checks: invariants run by the scheduler after every step (cheap, no
 * yields), and dumps printed in failure reports.  Register them in setup.
 * A check fails with SIM_CHECK*(), which reports SIM_FAIL_INVARIANT.
 */
typedef void (*sim_check_fn)(void *arg);
typedef void (*sim_dump_fn)(void *arg, FILE *out);
void sim_check_register(const char *name, sim_check_fn check,
			sim_dump_fn dump, void *arg);
/*
 * A check with a watch (issue 28, session 18).  *@quiet is the check's
 * own word on itself: true when, called again, it would do nothing unless
 * something it reads changed.  After a step that logged no store
 * (sim_exec_writes() 0), has no exit (sim_exec_exit_in_last_step() < 0)
 * and no sim_check_touch() since the checks last ran, when every check
 * has a watch and every flag reads true, no check is called.  So a check
 * promises that what it reads changes only through the engine's stores,
 * in a step with an exit, or with a sim_check_touch() in that step (by
 * whoever changes it, e.g. clearing its flag), and it sets its flag only
 * when it runs.  After any other step every check runs, in order, as
 * sim_check_register's; a check without a watch (@quiet NULL) is never
 * quiet.
 */
void sim_check_register_watch(const char *name, sim_check_fn check,
			      sim_dump_fn dump, void *arg, const bool *quiet);
/* The watch of the registered check of @check and @arg, set again (a
 * device attached after the checks were registered); a touch. */
void sim_check_watch_set(sim_check_fn check, void *arg, const bool *quiet);
/*
 * A watch per word (issue 28, session 20): the registered check of
 * @check and @arg, which has a watch, reads no word without a tag (struct
 * sim_word's @tag, the model's mark for its checks, nonzero) besides what
 * its flag covers (what changes with a sim_check_touch()).  While every
 * registered check has a watch and is so, a long run's write log keeps
 * only the stores to tagged words (and every sim_word_init*), so a step
 * that stored only untagged words is one after which the watches pass
 * every check over: none of them reads what it changed.  A check marks
 * the words it reads (a tag) before its flag can read true.  Exploration
 * and short runs log every store, as before.
 */
void sim_check_watch_tagged(sim_check_fn check, void *arg);
/*
 * The same promise, and the check reads the words tagged @tag (nonzero):
 * in such a long run a round after a step with no exit and no touch
 * calls only the checks whose flag reads false and those that read a
 * tag of a word the step stored (a store to a word no check reads
 * already calls none).  A check that promised with no tag is called
 * only when its flag reads false, after a touch or after an exit.  A
 * step that made a word (any sim_word_init*, sim_spin_init: logged,
 * its tag cleared) calls every check.
 */
void sim_check_watch_tag(sim_check_fn check, void *arg, uint8_t tag);
/* A test's switch (WPSIM_CHECKS_TAGGED=0, tests/fio/test-checks-tagged.sh):
 * the promises above taken (the default) or not (every store logged,
 * every check in every round): the same run either way. */
void sim_exec_checks_tagged(bool on);
/* Something a watched check reads changed in this step outside the
 * engine's stores: the checks run after it. */
extern bool sim_check_touched;
static inline void sim_check_touch(void)
{
	sim_check_touched = true;
}
/* Steps after which the watches passed every check over, in this
 * execution (tests). */
uint64_t sim_exec_checks_passed(void);
/* In this execution (or the last), the rounds run_checks_tagged called
 * only some checks in (a long run whose checks took the promises of
 * sim_check_watch_tag), and for each active check, in order, its name
 * and the rounds among those it was passed over in.  Returns how many
 * checks (at most @max).  Tests: that a run took the promises. */
uint32_t sim_exec_checks_tagged_stats(uint64_t *rounds, const char **names,
				      uint64_t *passed, uint32_t max);
/* Run every registered dump (for reports). */
void sim_exec_dump(FILE *out);

/*
 * The words written since the checks last ran: every store to a struct
 * sim_word by sim/shared.h (words, bits, spinlocks, mutexes, rwlocks,
 * completions, and their _init), in order, repeats included; in a long
 * run whose checks read only tagged words (sim_check_watch_tagged), the
 * stores to tagged words and every _init.  A check
 * may re-examine only the state these words hold, if what it reads is
 * only such words (a plain field the model writes is not here).
 * Returns how many, with *words set; SIM_WRITES_ALL when more were
 * written than the log holds (SIM_WRITES_LOG): then anything may have
 * changed.  The log is emptied after the checks run.
 */
struct sim_word;
#define SIM_WRITES_LOG	256
#define SIM_WRITES_ALL	UINT32_MAX

/* Not API: the log itself (sim/write-log.h appends to it), defined here
 * so that the checks, which ask after every step, read it inline. */
struct sim_write_log {
	const struct sim_word *word[SIM_WRITES_LOG];
	uint32_t n;	/* SIM_WRITES_LOG + 1: it overflowed */
	/* Stores to untagged words are not logged (sim_check_watch_tagged:
	 * a long run whose every check reads only tagged words). */
	bool tagged_only;
};

extern struct sim_write_log sim_write_log;

static inline uint32_t sim_exec_writes(const struct sim_word *const **words)
{
	*words = sim_write_log.word;
	return sim_write_log.n > SIM_WRITES_LOG ? SIM_WRITES_ALL :
	       sim_write_log.n;
}

#define SIM_CHECK(cond, ...)						\
	do {								\
		if (!(cond))						\
			sim_fail(SIM_FAIL_INVARIANT, __VA_ARGS__);	\
	} while (0)

#endif /* WPSIM_SIM_ENGINE_H */
