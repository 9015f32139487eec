// SPDX-License-Identifier: MIT
/*
 * sim/engine.c - one execution: tasks, steps, the event log, failures.
 *
 * Models: nothing of the kernel.  This is the controlled scheduler under
 * every model: tasks run one at a time on their own stacks, and each
 * engine primitive that touches shared state first yields here (a
 * scheduling point), so the strategy decides every interleaving.
 *
 * A step is: the strategy picks an enabled task; the task resumes, does
 * the access it announced, and runs to its next point.  After each step
 * the registered checks run.  The execution ends when every task and
 * event has returned (then the program's final property runs), or on a
 * failure: an assertion, a check, a deadlock (tasks left, none enabled),
 * the step bound (reported as "stuck", a liveness failure) or an engine
 * bound.
 *
 * Every step also advances virtual time (sim/clock.h): the step starts
 * at max(the task's ready time, when a CPU is free) and costs its
 * access's figure plus what the model charges during it; the clock is
 * only accounting except under the timed strategy, which reads it to
 * choose.  Nothing here lets the clock change which tasks are enabled.
 *
 * Leaves out: true parallelism (tasks never overlap), preemption inside a
 * step (a step is atomic by construction), memory-model reorderings (the
 * model is sequentially consistent; kernel code under locks needs no more).
 */
#include "sim/engine.h"

#include <inttypes.h>
#include <errno.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "sim/arena.h"
#include "sim/clock-internal.h"
#include "sim/ctx.h"
#include "sim/lockdep.h"
#include "sim/snapshot-internal.h"
#include "sim/strategy.h"
#include "sim/write-log.h"

enum task_state {
	TASK_UNUSED = 0,
	TASK_RUNNABLE,
	TASK_BLOCKED,	/* asleep on a wait queue, until sim_task_wake() */
	TASK_SPIN,	/* enabled when *spin_word == 0 */
	TASK_DONE,
};

struct sim_task {
	struct sim_ctx ctx;
	struct sim_stack stack;	/* kept across executions */
	enum task_state state;
	bool is_event;
	sim_task_fn fn;
	void *arg;
	const void *spin_word;	/* a uint64_t, maybe unaligned (packed words) */
	uint32_t wait_object;	/* what it sleeps or spins on */
	int locks_held;		/* engine spinlocks and mutexes */
	/* Virtual time (sim/clock.h). */
	uint64_t ready_ns;	/* its next step starts no earlier */
	uint64_t now_ns;	/* during a step: start + cost so far */
	uint64_t start_ns;	/* start of its current or last step */
	uint64_t cpu_ns;	/* CPU time used */
	uint64_t next_cost_ns;	/* cost of the access it announced */
	uint32_t next_object;	/* and its object (0: none; order rule) */
	uint8_t next_access;	/* and the access (enum sim_access) */
	int32_t cpu;		/* CPU of its last step; -1 none yet */
	bool spin_enabled;	/* TASK_SPIN and the word is zero */
	bool bound;		/* an event or task bound to its CPU
				 * (sim_event_post_at_cpu,
				 * sim_task_spawn_on_cpu) */
	uint8_t timeout;	/* sim_task_block_timeout: TIMEOUT_* */
	bool woken;		/* a task woken or spawned that has run no
				 * step since (wake_preemptors) */
	bool preempt_point;	/* sim_preempt_point() in its step: its
				 * next point is one (wake_preemptors) */
	/* Kept by sync_task() under the timed strategy (E.incr). */
	bool live;		/* runnable, spinning or asleep */
	int32_t heap_pos;	/* in E.heap[is_event]; -1 not enabled */
	int32_t spin_group;	/* in E.groups; -1 not spinning */
	int32_t spin_next, spin_prev;	/* its group's members */
	char name[32];
};

struct check {
	const char *name;
	sim_check_fn check;
	sim_dump_fn dump;
	void *arg;
};

static struct {
	struct sim_ctx sched_ctx;
	struct sim_task tasks[SIM_IDS_LIMIT];
	uint32_t task_count;
	uint32_t tasks_limit;	/* SIM_TASKS_MAX or, timed/replay,
				 * SIM_IDS_LIMIT */
	uint32_t tasks_used;	/* most tasks any execution had */
	int current;		/* running task, -1 on the scheduler */
	uint64_t step;
	uint64_t steps_max;
	bool in_exec;
	bool in_setup;		/* program->setup() runs, names reusable */
	bool long_run;
	enum sim_strategy_kind strategy_kind;

	/*
	 * The event log.  A long run keeps it as a ring of events_max (a
	 * power of 2) entries: logical event i is at (events_head + i) mod
	 * events_max, and a full log drops its oldest events by moving the
	 * head, not the events.  sim_exec_events() puts them in order.
	 */
	struct sim_event *events;
	uint32_t event_count;
	uint32_t events_max;
	uint32_t events_head;
	uint64_t events_dropped;	/* long run: slid out of the log */
	/* (The steps of the latest EXIT event and of the log's last event,
	 * NO_EVENT_STEP when it is empty, and the exit's task are in
	 * sim_exec_exits, include/sim/engine.h: the checks read them.) */
	uint16_t *choices;
	uint64_t *enabled_sets;
	uint16_t *defaults;		/* > SIM_TASKS_MAX tasks: per step */
	uint64_t *step_start;		/* per step, virtual ns */
	uint64_t *step_end;
	uint16_t *step_cpu;
	uint8_t enabled_all[SIM_IDS_LIMIT];
	bool need_all;			/* keep enabled_all: the timed
					 * strategy, or more than 64 tasks */
	uint32_t enabled_count;
	/*
	 * The timed strategy's incremental view (E.incr): instead of a scan
	 * of every task per step, each change of a task's state or ready
	 * time updates the enabled set, the live count, the list of
	 * spinners (polled per step) and two binary min-heaps of the
	 * enabled tasks and events by (ready_ns, id).
	 */
	bool incr;
	uint64_t enabled_mask;		/* ids below 64 */
	uint32_t live_count;
	/* Spinners by the word they spin on: a poll reads each word once. */
	struct spin_group {
		const void *word;	/* read by word_is_zero() */
		int32_t first;		/* member task, -1 none */
		uint32_t members;
		bool zero;		/* *word == 0 at the last poll */
		bool joined;		/* a member joined since */
	} groups[SIM_IDS_LIMIT];
	uint32_t group_count;
	/*
	 * While a poll turns a large group on or off (31 jobs spin on one
	 * inode lock): heap[0] is a plain array, entries appended or left
	 * behind (their task's heap_pos no longer names them), ordered
	 * again once that group is done (heap_rebuild).
	 */
	bool bulk;
	bool bulk_dirty;
	/* Each entry keeps its task's ready time, so that a sift reads
	 * the heap's array and no task. */
	struct task_heap {
		struct heap_entry {
			uint64_t ready_ns;
			uint32_t id;
		} e[SIM_IDS_LIMIT];
		uint32_t n;
	} heap[2];			/* [0] tasks, [1] events */
	uint32_t pick_stamp;
	/* Dense, for the pick's pass over the CPUs' owners: in heap[0] (an
	 * enabled task, not an event), and the pass stamp. */
	uint8_t in_task_heap[SIM_IDS_LIMIT];
	uint32_t pick_mark[SIM_IDS_LIMIT];
	/* With at most 64 CPUs: the CPUs each id owns, and the CPUs whose
	 * owner is in heap[0], so that the pick visits only those. */
	uint64_t owned_cpus[SIM_IDS_LIMIT];
	uint64_t heaped_owner_cpus;
	uint64_t last_start_ns;		/* start of the last step */
	uint64_t last_access_ns;	/* when its access happened */
	/*
	 * The order rule (order_floor): per object, the latest start of a
	 * step that read it, added to it, wrote it.  ORDER_APPLY in every
	 * execution but a timed one; ORDER_CHECK in a timed one when a test
	 * asks (sim_exec_order_check), else ORDER_OFF.
	 */
	enum { ORDER_OFF, ORDER_APPLY, ORDER_CHECK } order;
	bool order_check_timed;		/* sim_exec_order_check */
	uint64_t order_moves;		/* this execution's: steps and events
					 * the rule started later */
	struct order_stamp {
		uint64_t ns[3];		/* [ORDER_READ], [ORDER_ADD],
					 * [ORDER_WRITE] of the word */
		uint64_t bit_any[2];	/* a read, a write of any bit */
		uint64_t epoch;		/* order_stamp_epoch: else all 0 */
	} *order_stamps;		/* per object id, reserved whole */
	uint64_t order_stamp_epoch;	/* this execution's (never wraps) */
	uint64_t order_bound;		/* the latest start of a step */
	uint64_t order_step_bound;	/* ... before the current one */
	uint64_t order_floor;		/* order_late's answer */
	uint32_t order_step_object;	/* the step's announced access: */
	uint8_t order_step_class;	/* its object, class and bit stamps */
	struct order_bit *order_step_bit;
	uint32_t order_epoch;		/* of the bit table's entries */
	uint32_t order_bits_used;
	bool order_bits_whole;		/* a bit counts as its word */

	const char **object_names;
	/* Per id: NAME_TEXT when object_names[id] is the name, else the
	 * one unsigned argument of the format object_names[id] (a long
	 * run's names are formatted when printed, not stored). */
	uint32_t *object_args;
	uint32_t object_count;
	uint32_t objects_limit;
	uint32_t objects_cap;		/* entries of the tables above */
	uint32_t *objects_free;		/* long run: retired ids */
	uint32_t objects_free_count;
	uint32_t objects_free_cap;
	uint16_t tasks_free[SIM_IDS_LIMIT];	/* long run: ids of tasks
						 * and events that returned */
	uint32_t tasks_free_count;

	struct check checks[SIM_CHECKS_MAX];
	uint32_t check_count;
	/* The checks that have a check function, in order (most of the
	 * registered ones only dump). */
	sim_check_fn active_fn[SIM_CHECKS_MAX];
	void *active_arg[SIM_CHECKS_MAX];
	/* Each one's watch (sim_check_register_watch): its flag, a false
	 * constant for none. */
	const bool *active_quiet[SIM_CHECKS_MAX];
	uint32_t active_count;
	/* The checks without a watch: while there is one, every check
	 * runs after every step. */
	uint32_t unwatched;
	/* Each one's promise to read only tagged words
	 * (sim_check_watch_tagged). */
	bool active_tagged[SIM_CHECKS_MAX];
	/* Per tag, the checks (bit i: active_fn[i]) that read its words
	 * (sim_check_watch_tag); tag 0 (an _init's word), every check.
	 * Like active_fn, set by each registration and not cleared per
	 * execution: a setup's registrations leave them the same, so the
	 * snapshot after setup (restored, not run again) finds them as a
	 * real setup leaves them. */
	uint32_t tag_checks[256];
	uint64_t checks_passed;	/* steps the watches passed over */
	/* run_checks_tagged's rounds that took the promises (not every
	 * check), and per check the rounds it was passed over in
	 * (sim_exec_checks_tagged_stats: tests). */
	uint64_t tagged_rounds;
	uint64_t tagged_passed[SIM_CHECKS_MAX];
	/* Every flag read true since the checks last ran (run_checks):
	 * while so, they need not be read again (a flag is set only by
	 * its check, in a round, which clears this). */
	bool checks_quiet;

	struct sim_outcome *outcome;
	struct sim_strategy *strategy;
	int last_ran;		/* the task of the last step, -1 none */
	int chosen;		/* the next step's task (before_step) */
	/* The timed fast path (step_inline): the task on whose context
	 * the checks and the choice run, -1 none; what it did before it
	 * gave the scheduler back control. */
	int inline_task;
	enum {
		HANDOFF_NONE,	/* a plain yield: the step just ended */
		HANDOFF_CHOSEN,	/* ended, checked, E.chosen runs next */
		HANDOFF_END,	/* ended, checked, no live task */
		HANDOFF_STOP,	/* ended: a failure or a pruned run */
	} handoff;
	bool failed;
	jmp_buf abort_jmp;
	uint64_t hash;
	bool hash_on;		/* !sim_exec_options.no_hash */
	bool log_on;		/* !sim_exec_options.no_log */
	bool record_full;	/* order, log or hash on (sim_record) */
	bool solo;		/* solo steps (solo_next); tests turn off */
	bool pick_one;		/* timed_pick_one; off with solo */
	uint64_t solo_grouped;	/* this execution's solo steps beside
				 * spin groups (spin_groups_quiet) */
	uint64_t one_picks;	/* this execution's timed_pick_one picks */
	uint64_t solo_steps;	/* this execution's */
	uint64_t solo_fast;	/* of which solo_fast's (session 19) */
	uint64_t solo_full;	/* of those, sim_point_full's (session 22) */
	uint64_t solo_events;	/* solo_lean_event's (session 24) */
	uint64_t solo_proved;	/* sim_point_prove's (session 25) */
	/*
	 * The solo test's answer kept (solo_next, session 17): task
	 * solo_id, at the top of its heap, was proved alone while its
	 * ready time stays below solo_until (the other entries' least
	 * ready time), as long as no heap entry but its own top entry's
	 * ready time changed: heap_gen counts every other change.
	 */
	uint64_t solo_until;
	uint64_t heap_gen;
	uint64_t solo_gen;
	int solo_id;		/* -1: none kept */
} E = { .solo = true, .pick_one = true, .solo_id = -1 };

/*
 * The bits of a word commute with each other (SIM_OBJECT_BIT; DPOR's
 * same_object): a bit access's own stamps are kept per (word, bit) in a
 * table of ORDER_BITS entries, open addressing by the full object id,
 * emptied per execution by its epoch; the word's entry keeps the latest
 * bit read and bit write of any bit, which whole-word accesses conflict
 * with.  A long run (whose ids are reused) and a table past 3/4 full
 * treat a bit as its whole word (bit_any): later, never earlier.
 */
#define ORDER_BITS	16384

static struct order_bit {
	uint32_t object;	/* word id | (bit + 1) << 24 */
	uint32_t epoch;		/* E.order_epoch: in use */
	uint64_t ns[2];		/* [ORDER_READ], [1]: a write */
} *order_bits;

static const char *const failure_names[SIM_FAIL_KIND_COUNT] = {
	[SIM_OK] = "ok",
	[SIM_FAIL_ASSERT] = "assertion",
	[SIM_FAIL_INVARIANT] = "invariant",
	[SIM_FAIL_DEADLOCK] = "deadlock",
	[SIM_FAIL_STUCK] = "stuck",
	[SIM_FAIL_PROPERTY] = "property",
	[SIM_FAIL_BOUND] = "bound",
	[SIM_FAIL_DIVERGED] = "diverged",
	[SIM_FAIL_NONDETERMINISM] = "nondeterminism",
	[SIM_FAIL_LOCKING] = "locking",
	[SIM_FAIL_RACE] = "data-race",
};

const char *sim_failure_kind_name(enum sim_failure_kind kind)
{
	if ((unsigned int)kind < SIM_FAIL_KIND_COUNT)
		return failure_names[kind];
	return "?";
}

static const char *const access_names[SIM_ACCESS_COUNT] = {
	[SIM_ACCESS_NONE] = "run",
	[SIM_ACCESS_READ] = "read",
	[SIM_ACCESS_WRITE] = "write",
	[SIM_ACCESS_RMW] = "rmw",
	[SIM_ACCESS_ADD] = "add",
	[SIM_ACCESS_ACQUIRE] = "acquire",
	[SIM_ACCESS_ACQUIRE_FAIL] = "contended",
	[SIM_ACCESS_RELEASE] = "release",
	[SIM_ACCESS_BLOCK] = "sleep",
	[SIM_ACCESS_WAKE] = "wake",
	[SIM_ACCESS_SPAWN] = "spawn",
	[SIM_ACCESS_EXIT] = "exit",
	[SIM_ACCESS_ACQUIRE_SHARED] = "acquire-shared",
	[SIM_ACCESS_RELEASE_SHARED] = "release-shared",
};

const char *sim_access_name(unsigned int access)
{
	return access < SIM_ACCESS_COUNT ? access_names[access] : "?";
}

static void engine_init_once(void)
{
	if (E.events)
		return;
	E.events_max = 2 * SIM_EVENTS_WINDOW;
	E.events = calloc(E.events_max, sizeof(*E.events));
	E.choices = calloc(SIM_STEPS_LIMIT, sizeof(*E.choices));
	E.enabled_sets = calloc(SIM_STEPS_LIMIT, sizeof(*E.enabled_sets));
	E.defaults = calloc(SIM_STEPS_LIMIT, sizeof(*E.defaults));
	E.step_start = calloc(SIM_STEPS_LIMIT, sizeof(*E.step_start));
	E.step_end = calloc(SIM_STEPS_LIMIT, sizeof(*E.step_end));
	E.step_cpu = calloc(SIM_STEPS_LIMIT, sizeof(*E.step_cpu));
	/* Address space for every id a long run may have: committed as
	 * ids are used, never copied as they grow. */
	E.objects_cap = SIM_OBJECTS_LONG_MAX + 1;
	E.object_names = sim_reserve_zeroed(E.objects_cap *
					    sizeof(*E.object_names));
	E.object_args = sim_reserve_zeroed(E.objects_cap *
					   sizeof(*E.object_args));
	/* Pages are committed only where the order rule runs: never in a
	 * timed run unless a test checks it (sim_exec_order_check). */
	E.order_stamps = sim_reserve_zeroed(E.objects_cap *
					    sizeof(*E.order_stamps));
	order_bits = sim_reserve_zeroed(ORDER_BITS * sizeof(*order_bits));
	if (!E.events || !E.choices || !E.enabled_sets || !E.defaults ||
	    !E.step_start || !E.step_end || !E.step_cpu || !E.object_names ||
	    !E.object_args || !E.order_stamps || !order_bits ||
	    sim_lockdep_objects_reserve(E.objects_cap)) {
		fprintf(stderr, "wpsim: engine: out of memory\n");
		exit(2);
	}
	E.current = -1;
}

/* ---- Failures ----------------------------------------------------------- */

static void set_failure(enum sim_failure_kind kind, const char *fmt,
			va_list ap)
{
	if (E.failed)
		return;
	E.failed = true;
	E.outcome->kind = kind;
	E.outcome->failed_task = E.current;
	E.outcome->steps = E.step;
	vsnprintf(E.outcome->message, sizeof(E.outcome->message), fmt, ap);
}

static void fail_here(enum sim_failure_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void fail_here(enum sim_failure_kind kind, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_failure(kind, fmt, ap);
	va_end(ap);
}

void sim_fail(enum sim_failure_kind kind, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (E.in_exec)
		set_failure(kind, fmt, ap);
	else
		vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (!E.in_exec) {
		fputc('\n', stderr);
		abort();
	}
	if (E.current >= 0 || E.inline_task >= 0) {
		/* On a task's stack (its own failure, or a check of the
		 * timed fast path): leave it for good; the arena is reset. */
		struct sim_task *t = &E.tasks[E.current >= 0 ? E.current :
					       E.inline_task];

		if (E.current < 0)
			E.handoff = HANDOFF_STOP;
		E.inline_task = -1;
		sim_ctx_switch(&t->ctx, &E.sched_ctx);
		abort();
	}
	longjmp(E.abort_jmp, 1);
}

/* ---- Events and objects ------------------------------------------------- */

/*
 * The event-log hash: FNV-1a's step over two 64-bit words per event
 * (who, what, which object; the value) with a final mix of each word, so
 * that every bit of the event reaches the hash in two multiplies.
 */
static inline uint64_t mix64(uint64_t x)
{
	x ^= x >> 32;
	x *= 0xd6e8feb86659fd93ULL;
	x ^= x >> 32;
	return x;
}

static inline void hash_event(uint64_t who, uint64_t value)
{
	E.hash = (E.hash ^ mix64(who)) * 0x100000001b3ULL;
	E.hash = (E.hash ^ mix64(value)) * 0x100000001b3ULL;
}

#define NAME_TEXT	UINT32_MAX

/* The last event's step (sim_exec_exits) of an empty log: no step (steps
 * stay below SIM_STEPS_LONG_LIMIT) and not an exit step's UINT64_MAX. */
#define NO_EVENT_STEP	(UINT64_MAX - 1)
_Static_assert(SIM_STEPS_LONG_LIMIT < NO_EVENT_STEP,
	       "no step is NO_EVENT_STEP");

/*
 * Room for object @id in the tables that follow the objects (names,
 * lockdep's rules): they are reserved whole at the start
 * (sim_reserve_zeroed: memory follows the ids used), so this only
 * checks the id space (24 bits): past it, a bound.
 */
static void objects_reserve(uint32_t id)
{
	uint32_t cap = E.objects_cap;
	const char **names;
	uint32_t *args;

	if (id < cap)
		return;
	if (id > SIM_OBJECTS_LONG_MAX)
		sim_fail(SIM_FAIL_BOUND, "more than %u shared objects alive "
			 "(object ids are 24 bits)", SIM_OBJECTS_LONG_MAX);
	while (cap <= id)
		cap = cap > SIM_OBJECTS_LONG_MAX / 2 ?
		      SIM_OBJECTS_LONG_MAX + 1 : 2 * cap;
	names = realloc(E.object_names, cap * sizeof(*names));
	if (names)
		E.object_names = names;
	args = names ? realloc(E.object_args, cap * sizeof(*args)) : NULL;
	if (args)
		E.object_args = args;
	if (!names || !args || sim_lockdep_objects_reserve(cap)) {
		fprintf(stderr, "wpsim: engine: out of memory\n");
		exit(2);
	}
	E.objects_cap = cap;
}

/* Format a lazily named object's name into one of a few buffers. */
static const char *object_name_text(uint32_t id)
{
	static char bufs[4][96];
	static unsigned int next;
	char *buf;

	if (E.object_args[id] == NAME_TEXT)
		return E.object_names[id];
	buf = bufs[next++ % 4];
	snprintf(buf, sizeof(bufs[0]), E.object_names[id], E.object_args[id]);
	return buf;
}

_Static_assert((2 * SIM_EVENTS_WINDOW & (2 * SIM_EVENTS_WINDOW - 1)) == 0,
	       "the event ring's size is a power of 2");
_Static_assert((SIM_EVENTS_LONG_WINDOW & (SIM_EVENTS_LONG_WINDOW - 1)) == 0 &&
	       SIM_EVENTS_LONG_WINDOW <= SIM_EVENTS_WINDOW,
	       "a long run's ring is a power of 2 within the log");

/* Logical event @i of the log. */
static inline struct sim_event *event_at(uint32_t i)
{
	return &E.events[(E.events_head + i) & (E.events_max - 1)];
}

/* A long run's log is full: keep its latest SIM_EVENTS_LONG_WINDOW
 * events (half its ring). */
static void slide_events(void)
{
	uint32_t drop = E.event_count - SIM_EVENTS_LONG_WINDOW;

	E.events_head = (E.events_head + drop) & (E.events_max - 1);
	E.event_count = SIM_EVENTS_LONG_WINDOW;
	E.events_dropped += drop;
}

/* The ring in order again, from index 0 (for readers of the array). */
static void events_unwrap(void)
{
	uint32_t head = E.events_head, tail = E.events_max - head;
	struct sim_event *copy;

	if (!head)
		return;
	copy = malloc((size_t)head * sizeof(*copy));
	if (!copy) {
		fprintf(stderr, "wpsim: engine: out of memory\n");
		exit(2);
	}
	memcpy(copy, E.events, (size_t)head * sizeof(*copy));
	memmove(E.events, E.events + head, (size_t)tail * sizeof(*copy));
	memcpy(E.events + tail, copy, (size_t)head * sizeof(*copy));
	free(copy);
	E.events_head = 0;
}

/*
 * The order rule.  A replayed schedule (or an exploration's) runs steps
 * in the order it gives, whatever their virtual times; the timed
 * strategy runs them in the order of their starts.  So that the times
 * of any execution tell what happened in it, a step starts no earlier
 * than every step before it in the schedule that made a conflicting
 * access to the object it announced (its task's ready time is raised
 * to that floor before its CPU is picked), and an access recorded
 * without a point of its own (an "_also" access, a wake, the sleep at a
 * step's end) is recorded no earlier than the floor: its task's now
 * moves up.  Two accesses conflict as DPOR's steps do (sim/dpor.c,
 * touch_of, same_object): the same object, and not both reads (a read,
 * a failed take), not both adds (an add, a shared take or release), not
 * two different bits of a word; a resume (SIM_ACCESS_NONE) is neither:
 * its time is its wake-up's.  Ranges of an array count as the whole
 * array.  Per object the engine keeps the latest start of a step that
 * read, added, wrote it, read or wrote one of its bits (struct
 * order_stamp, 48 bytes with the epoch of the execution that stamped it
 * last: an older one reads as none, so no entry is cleared as its object
 * registers), per (word, bit) in order_bits.  No floor is
 * above the latest start of the steps before (E.order_bound), so a step
 * that starts at or after it looks nothing up (order_late): on one CPU,
 * every task's step; the stamps are kept by every event.  (Computing
 * them only when a step first needs a floor, from the events so far, was
 * tried in session 16 and dropped: on one CPU an event's step starts at
 * its ready time, before the bound, in nearly every execution with a
 * device completion, late in it, and the catch-up then cost more than
 * the stamps it saved: docs/performance.md, issue 28, session 16.)
 *
 * The timed strategy runs the step that starts first, and start times
 * never go down from one step to the next (sim/timed.c), so every
 * floor is at most the start of the step it constrains: the rule is a
 * no-op there and is not run (no stamps, no time); a test turns it into
 * a check (sim_exec_order_check: a floor above a timed step's start
 * fails the execution).  Applying a floor that is at most the start to
 * a task's ready time changes neither the start nor the CPU
 * sim_clock_pick gives, so a replay of a timed schedule gives its times
 * (docs/timed-mode.md, "Order").
 */
enum { ORDER_READ, ORDER_ADD, ORDER_WRITE, ORDER_NONE };

static const uint8_t order_class[SIM_ACCESS_COUNT] = {
	[SIM_ACCESS_NONE] = ORDER_NONE,
	[SIM_ACCESS_READ] = ORDER_READ,
	[SIM_ACCESS_WRITE] = ORDER_WRITE,
	[SIM_ACCESS_RMW] = ORDER_WRITE,
	[SIM_ACCESS_ADD] = ORDER_ADD,
	[SIM_ACCESS_ACQUIRE] = ORDER_WRITE,
	[SIM_ACCESS_ACQUIRE_FAIL] = ORDER_READ,
	[SIM_ACCESS_RELEASE] = ORDER_WRITE,
	[SIM_ACCESS_BLOCK] = ORDER_WRITE,
	[SIM_ACCESS_WAKE] = ORDER_WRITE,
	[SIM_ACCESS_SPAWN] = ORDER_WRITE,
	[SIM_ACCESS_EXIT] = ORDER_WRITE,
	[SIM_ACCESS_ACQUIRE_SHARED] = ORDER_ADD,
	[SIM_ACCESS_RELEASE_SHARED] = ORDER_ADD,
};

/* The stamps of bit access @object, NULL when bits are not told apart. */
static inline struct order_bit *order_bit(uint32_t object)
{
	uint32_t mask = ORDER_BITS - 1;
	uint32_t i = (object * 0x9e3779b1u) >> 18;
	struct order_bit *b;

	if (E.order_bits_whole)
		return NULL;
	for (;; i = (i + 1) & mask) {
		b = &order_bits[i];
		if (b->epoch != E.order_epoch)
			break;
		if (b->object == object)
			return b;
	}
	if (++E.order_bits_used > ORDER_BITS / 4 * 3) {
		E.order_bits_whole = true;
		return NULL;
	}
	*b = (struct order_bit){ .object = object, .epoch = E.order_epoch };
	return b;
}

/*
 * The latest start of a step before this one whose access to @object
 * conflicts with an access of @class (not ORDER_NONE); with @bit (a bit
 * access: its stamps, or NULL for its whole word).
 */
static inline uint64_t order_floor(uint32_t object, unsigned int class,
				   const struct order_bit *bit)
{
	static const struct order_stamp none;
	const struct order_stamp *s =
		&E.order_stamps[SIM_OBJECT_BASE(object)];
	bool is_bit = SIM_OBJECT_BIT_OF(object) &&
		      !(object & SIM_OBJECT_RANGE_FLAG);
	uint64_t floor;

	if (s->epoch != E.order_stamp_epoch)
		s = &none;	/* not stamped in this execution */
	floor = s->ns[ORDER_WRITE];
	if (is_bit && class == ORDER_ADD)
		class = ORDER_WRITE;	/* no add of a bit: a write */
	if (class != ORDER_READ && s->ns[ORDER_READ] > floor)
		floor = s->ns[ORDER_READ];
	if (class != ORDER_ADD && s->ns[ORDER_ADD] > floor)
		floor = s->ns[ORDER_ADD];
	if (!is_bit || !bit) {
		/* A whole-word access (or a bit as one): every bit. */
		if (s->bit_any[1] > floor)
			floor = s->bit_any[1];
		if (class != ORDER_READ && s->bit_any[0] > floor)
			floor = s->bit_any[0];
		return floor;
	}
	if (bit->ns[1] > floor)
		floor = bit->ns[1];
	if (class != ORDER_READ && bit->ns[0] > floor)
		floor = bit->ns[0];
	return floor;
}

/* The floor of the access task @t announced at its scheduling point,
 * 0 when none (a first step, a resume, a sleep's end). */
static inline uint64_t order_floor_next(const struct sim_task *t)
{
	uint32_t object = t->next_object;
	unsigned int class = order_class[t->next_access];
	struct order_bit *bit = NULL;

	if (!SIM_OBJECT_BASE(object) || class == ORDER_NONE)
		return 0;
	if (SIM_OBJECT_BIT_OF(object) && !(object & SIM_OBJECT_RANGE_FLAG))
		bit = order_bit(object);
	/* The step's own event on it need not look again (order_record):
	 * no other task runs before it is recorded. */
	E.order_step_object = object;
	E.order_step_class = (uint8_t)class;
	E.order_step_bit = bit;
	return order_floor(object, class, bit);
}

/* The stamps of an event of a step that started at @start on @object
 * (not ORDER_NONE, a base id) with @class; @bit its bit's entry. */
static inline void order_stamp(uint32_t object, unsigned int class,
			       struct order_bit *bit, bool is_bit,
			       uint64_t start)
{
	struct order_stamp *s = &E.order_stamps[SIM_OBJECT_BASE(object)];

	if (s->epoch != E.order_stamp_epoch)	/* its first in this one */
		*s = (struct order_stamp){ .epoch = E.order_stamp_epoch };
	if (!is_bit) {
		if (start > s->ns[class])
			s->ns[class] = start;
		return;
	}
	class = class == ORDER_READ ? 0 : 1;
	if (start > s->bit_any[class])
		s->bit_any[class] = start;
	if (bit && start > bit->ns[class])
		bit->ns[class] = start;
}

/*
 * A timed step started before a conflicting step that ran before it
 * (sim_exec_order_check): the strategy broke its order.  The execution
 * fails when this step ends (fail_here: step_begin runs on the
 * scheduler's stack).
 */
static __attribute__((noinline)) void order_broken(
	const struct sim_task *t, uint32_t object, uint64_t floor,
	uint64_t start)
{
	fail_here(SIM_FAIL_ASSERT, "order check: %s's step %" PRIu64 " on "
		  "%s starts at %" PRIu64 " ns, before a conflicting step "
		  "that ran before it (started at %" PRIu64 " ns)", t->name,
		  E.step - 1, sim_exec_object_name(object), start, floor);
}

/*
 * Task @t's step would start at @start: true when the order rule moves
 * it later (E.order_floor then says to when; under the check a move is
 * a failure instead).  No floor is above the latest start of the steps
 * before (E.order_bound), so a step that starts at or after it looks up
 * nothing: on one CPU every task's step.
 */
static inline bool order_late(const struct sim_task *t, uint64_t start)
{
	uint64_t floor;

	E.order_step_object = 0;
	E.order_step_bound = E.order_bound;
	if (start >= E.order_bound) {
		E.order_bound = start;
		return false;
	}
	floor = order_floor_next(t);
	if (floor <= start)
		return false;
	if (E.order == ORDER_CHECK) {
		order_broken(t, t->next_object, floor, start);
		return false;
	}
	/* Applied, the start is at most the bound. */
	E.order_floor = floor;
	return true;
}

/* A long run's reused id: nothing accessed it yet.  (A new id of any
 * execution has no stamp of this one: its entry's epoch is older.) */
static inline void order_object_new(uint32_t id)
{
	if (E.long_run && E.order)
		E.order_stamps[id].epoch = 0;
}

/* Before an execution: the rule's mode; no bit stamps yet. */
static void order_begin(enum sim_strategy_kind kind)
{
	E.order = kind != SIM_STRATEGY_TIMED ? ORDER_APPLY :
		  E.order_check_timed ? ORDER_CHECK : ORDER_OFF;
	E.order_moves = 0;
	E.order_step_object = 0;
	E.order_bound = 0;
	E.order_step_bound = 0;
	if (E.order == ORDER_OFF)
		return;
	E.order_stamp_epoch++;	/* every object's stamps are 0 */
	E.order_bits_used = 0;
	E.order_bits_whole = E.long_run;
	if (++E.order_epoch == 0) {	/* wrapped: every entry is stale */
		memset(order_bits, 0, ORDER_BITS * sizeof(*order_bits));
		E.order_epoch = 1;
	}
}

/* sim_record's part: the event of task @t waits for its floor, then
 * counts in the object's stamps. */
static void order_record(struct sim_task *t, uint32_t object,
			 enum sim_access access)
{
	unsigned int class = order_class[access];
	struct order_bit *bit = NULL;
	bool is_bit;
	uint64_t floor;

	if (class == ORDER_NONE || !SIM_OBJECT_BASE(object))
		return;
	is_bit = SIM_OBJECT_BIT_OF(object) &&
		 !(object & SIM_OBJECT_RANGE_FLAG);
	if (object == E.order_step_object && class == E.order_step_class) {
		/* The access the step announced: its floor was kept (or
		 * checked) when the step began. */
		bit = E.order_step_bit;
		goto stamp;
	}
	if (is_bit)
		bit = order_bit(object);
	if (t->start_ns >= E.order_step_bound)
		goto stamp;	/* no floor above it (order_late) */
	floor = order_floor(object, class, bit);
	if (E.order == ORDER_CHECK) {
		if (floor > t->start_ns)
			order_broken(t, object, floor, t->start_ns);
	} else if (floor > t->now_ns) {
		/* An access the step did not announce (an "_also" access, a
		 * wake, a sleep): the task waits for it on its CPU. */
		t->now_ns = floor;
		E.order_moves++;
	}
stamp:
	order_stamp(object, class, bit, is_bit, t->start_ns);
}

void sim_exec_order_check(bool on)
{
	E.order_check_timed = on;
}

uint64_t sim_exec_order_moves(void)
{
	return E.order_moves;
}

static void sim_record_full(uint32_t object, enum sim_access access,
			    uint64_t value);

/*
 * An event of the current task's step.  A long run with no order rule,
 * no log and no hash (wpsim fio and replay: nobody reads the events)
 * keeps of it what is read: the step of the log's last event and its
 * exit (sim_exec_exit_in_last_step), the count of events let go, and
 * lockdep's and the data-race detector's check (session 19: this path
 * calls nothing before lockdep's, so it saves no registers).
 */
void sim_record(uint32_t object, enum sim_access access, uint64_t value)
{
	uint64_t step;
	int task = E.current;

	if (task < 0)
		return;
	if (E.record_full) {
		sim_record_full(object, access, value);
		return;
	}
	step = E.step - 1;
	sim_exec_exits.last_event_step = step;
	E.events_dropped++;	/* nobody reads the log */
	if (access == SIM_ACCESS_EXIT) {
		sim_exec_exits.exit_step = step;
		sim_exec_exits.exit_task = (uint16_t)task;
	}
	sim_lockdep_record((uint16_t)task, (uint32_t)step, object, access,
			   value);
}

static __attribute__((noinline))
void sim_record_full(uint32_t object, enum sim_access access, uint64_t value)
{
	struct sim_event *ev;
	struct sim_task *t;
	uint16_t task;
	uint64_t step;

	task = (uint16_t)E.current;
	t = &E.tasks[task];
	if (__builtin_expect(E.order != ORDER_OFF, 0)) {
		unsigned int class = order_class[access];

		if (!(object >> SIM_OBJECT_BIT_SHIFT) &&
		    class != ORDER_NONE && SIM_OBJECT_BASE(object) &&
		    (t->start_ns >= E.order_step_bound ||
		     (object == E.order_step_object &&
		      class == E.order_step_class))) {
			/* The word access the step announced (order_record). */
			order_stamp(object, class, NULL, false, t->start_ns);
		} else {
			order_record(t, object, access);
		}
	}
	step = E.step - 1;
	sim_exec_exits.last_event_step = step;
	if (__builtin_expect(E.log_on, 1)) {
		if (E.event_count == E.events_max) {
			if (!E.long_run)
				sim_fail(SIM_FAIL_BOUND, "more than %u events "
					 "in one execution", E.events_max);
			slide_events();
		}
		ev = event_at(E.event_count++);
		/* An event keeps its step modulo 2^32 (a long run passes
		 * it). */
		ev->step = (uint32_t)step;
		ev->task = task;
		ev->access = (uint8_t)access;
		ev->mark = 0;
		ev->object = object;
		ev->cpu = (uint16_t)t->cpu;	/* >= 0: it runs a step */
		ev->pad2 = 0;
		ev->value = value;
		ev->t_ns = t->now_ns;
	} else {
		E.events_dropped++;	/* nobody reads the log */
	}
	/* The time is left out of the hash: it identifies the interleaving,
	 * the same under every CPU count and cost table. */
	if (E.hash_on)
		hash_event((uint64_t)task << 40 | (uint64_t)access << 32 |
			   object, value);
	if (access == SIM_ACCESS_EXIT) {
		sim_exec_exits.exit_step = step;
		sim_exec_exits.exit_task = task;
	}
	/* Locking rules and the data-race detector (sim/lockdep.h). */
	sim_lockdep_record_full(task, (uint32_t)step, object, access, value);
}

/*
 * The names the first whole setup of a search registered (objects
 * 1..count), in one block of memory kept until the next search fills it.
 */
static struct {
	bool on;		/* in a search (sim_exec_setup_names) */
	bool filled;
	uint32_t count;
	const char **names;	/* [1..count] */
	char *text;
} setup_names;

void sim_exec_setup_names(bool on)
{
	setup_names.on = on;
	/* A new search fills them again; at its end they stay for
	 * sim_exec_setup_names_again. */
	if (on)
		setup_names.filled = false;
}

void sim_exec_setup_names_again(void)
{
	setup_names.on = true;
}

static void setup_names_fill(void)
{
	size_t bytes = 0;
	char *p;

	for (uint32_t id = 1; id <= E.object_count; id++)
		bytes += strlen(object_name_text(id)) + 1;
	free(setup_names.names);
	free(setup_names.text);
	setup_names.names = malloc((E.object_count + 1) *
				   sizeof(*setup_names.names));
	setup_names.text = malloc(bytes ? bytes : 1);
	if (!setup_names.names || !setup_names.text) {
		free(setup_names.names);
		free(setup_names.text);
		setup_names.names = NULL;
		setup_names.text = NULL;
		setup_names.on = false;	/* names formatted every time */
		return;
	}
	p = setup_names.text;
	for (uint32_t id = 1; id <= E.object_count; id++) {
		const char *name = object_name_text(id);
		size_t len = strlen(name) + 1;

		memcpy(p, name, len);
		setup_names.names[id] = p;
		p += len;
	}
	setup_names.count = E.object_count;
	setup_names.filled = true;
}

uint32_t sim_object_register_known(void)
{
	uint32_t id;

	if (!E.in_setup || !setup_names.filled ||
	    E.object_count >= setup_names.count)
		return 0;
	id = ++E.object_count;
	objects_reserve(id);
	order_object_new(id);
	E.object_names[id] = setup_names.names[id];
	E.object_args[id] = NAME_TEXT;
	sim_lockdep_object_registered(id);
	return id;
}

uint32_t sim_object_register(const char *fmt, ...)
{
	char name[96];
	va_list ap;
	uint32_t id;

	if (!E.in_exec)
		return 0;
	id = sim_object_register_known();
	if (id)
		return id;
	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	return sim_object_register_name(name);
}

/* A new id (or, in a long run, a retired one) for a name to be set. */
static uint32_t object_new_id(void)
{
	uint32_t id;

	if (E.objects_free_count) {
		/* Long run: the most recently retired id first. */
		id = E.objects_free[--E.objects_free_count];
		sim_lockdep_object_reused(id);
		order_object_new(id);
		return id;
	}
	if (E.long_run)
		objects_reserve(E.object_count + 1);
	else if (E.object_count + 1 >= E.objects_limit)
		sim_fail(SIM_FAIL_BOUND, "more than %u shared objects",
			 E.objects_limit - 1);
	id = ++E.object_count;
	sim_lockdep_object_registered(id);
	order_object_new(id);
	return id;
}

uint32_t sim_object_register_name(const char *name)
{
	uint32_t id;

	if (!E.in_exec)
		return 0;
	id = sim_object_register_known();
	if (id)
		return id;
	id = object_new_id();
	E.object_names[id] = sim_arena_strdup(name);
	E.object_args[id] = NAME_TEXT;
	return id;
}

/*
 * snprintf(@buf, @size, @fmt, @arg) for a @fmt whose one conversion is
 * "%u" (the names sim_object_register_u is given), written out: an
 * exploration makes such names per execution (a folio's words), and
 * glibc's vfprintf is more code than the rest of an object's
 * registration (issue 28 M9b, session 21: 0.38 M of the 5.6 M I1 misses
 * of 2 000 executions of writethrough/noserial-overlap).  Any other
 * format goes to snprintf.
 */
static void format_u(char *buf, size_t size, const char *fmt, unsigned int arg)
{
	const char *pc = strchr(fmt, '%');
	char digits[10], *d = digits + sizeof(digits);
	size_t n, len;

	if (!pc || pc[1] != 'u' || strchr(pc + 2, '%')) {
		snprintf(buf, size, fmt, arg);
		return;
	}
	do
		*--d = (char)('0' + arg % 10);
	while (arg /= 10);
	n = (size_t)(pc - fmt);
	if (n > size - 1)
		n = size - 1;
	memcpy(buf, fmt, n);
	len = (size_t)(digits + sizeof(digits) - d);
	if (n + len > size - 1)
		len = size - 1 - n;
	memcpy(buf + n, d, len);
	n += len;
	len = strlen(pc + 2);
	if (n + len > size - 1)
		len = size - 1 - n;
	memcpy(buf + n, pc + 2, len);
	buf[n + len] = '\0';
}

uint32_t sim_object_register_u(const char *fmt, unsigned int arg)
{
	char name[96];
	uint32_t id;

	if (!E.in_exec)
		return 0;
	id = sim_object_register_known();
	if (id)
		return id;
	if (!E.long_run || arg == NAME_TEXT) {
		format_u(name, sizeof(name), fmt, arg);
		return sim_object_register_name(name);
	}
	id = object_new_id();
	E.object_names[id] = fmt;
	E.object_args[id] = arg;
	return id;
}

/*
 * A long run keeps @name as sim_object_register_u keeps its format:
 * object_name_text formats it with no conversion (the name itself), and
 * sim_object_retire frees nothing (the argument is not NAME_TEXT).  Per
 * O_DIRECT I/O five names were copied into the arena and freed again
 * (issue 28, session 16).
 */
uint32_t sim_object_register_static(const char *name)
{
	uint32_t id;

	if (!E.in_exec)
		return 0;
	if (!E.long_run)
		return sim_object_register_name(name);
	id = sim_object_register_known();
	if (id)
		return id;
	id = object_new_id();
	E.object_names[id] = name;
	E.object_args[id] = 0;
	return id;
}

void sim_object_retire(uint32_t id)
{
	const char *name;

	if (!E.in_exec || !E.long_run)
		return;
	id = SIM_OBJECT_BASE(id);
	if (id == 0 || id > E.object_count || !E.object_names[id])
		sim_fail(SIM_FAIL_ASSERT, "retiring object %u, which is not "
			 "alive", id);
	name = E.object_names[id];
	if (E.object_args[id] == NAME_TEXT)
		sim_arena_free((void *)name, strlen(name) + 1);
	E.object_names[id] = NULL;
	if (E.objects_free_count == E.objects_free_cap) {
		uint32_t cap = E.objects_free_cap ? 2 * E.objects_free_cap :
			       4096;
		uint32_t *free_ids = realloc(E.objects_free,
					     cap * sizeof(*free_ids));

		if (!free_ids) {
			fprintf(stderr, "wpsim: engine: out of memory\n");
			exit(2);
		}
		E.objects_free = free_ids;
		E.objects_free_cap = cap;
	}
	E.objects_free[E.objects_free_count++] = id;
}

const char *sim_exec_object_name(uint32_t object)
{
	static char with_bit[128];

	if (SIM_OBJECT_BASE(object) == 0 ||
	    SIM_OBJECT_BASE(object) > E.object_count || !E.object_names)
		return "-";
	if (!E.object_names[SIM_OBJECT_BASE(object)])
		return "(retired)";
	if (object & SIM_OBJECT_RANGE_FLAG) {
		snprintf(with_bit, sizeof(with_bit), "%s[range]",
			 object_name_text(SIM_OBJECT_BASE(object)));
		return with_bit;
	}
	if (SIM_OBJECT_BIT_OF(object)) {
		snprintf(with_bit, sizeof(with_bit), "%s:bit%u",
			 object_name_text(SIM_OBJECT_BASE(object)),
			 SIM_OBJECT_BIT_OF(object) - 1);
		return with_bit;
	}
	return object_name_text(object);
}

/* ---- Tasks -------------------------------------------------------------- */

int sim_task_current(void)
{
	return E.current;
}

bool sim_in_task(void)
{
	return E.current >= 0;
}

static void task_entry(void)
{
	struct sim_task *t = &E.tasks[E.current];

	sim_record(0, SIM_ACCESS_NONE, 0);
	t->fn(t->arg);
	if (t->locks_held)
		sim_fail(SIM_FAIL_ASSERT, "%s returns holding %d engine "
			 "lock(s) (spinlock or mutex): a lock leak", t->name,
			 t->locks_held);
	sim_record(0, SIM_ACCESS_EXIT, 0);
	t->state = TASK_DONE;
	sim_ctx_switch(&t->ctx, &E.sched_ctx);
	abort();	/* a finished task is never resumed */
}

/* ---- The timed strategy's incremental view ---------------------------- */

static inline bool heap_less(const struct heap_entry *a,
			     const struct heap_entry *b)
{
	return a->ready_ns < b->ready_ns ||
	       (a->ready_ns == b->ready_ns && a->id < b->id);
}

static inline void heap_set(struct task_heap *h, uint32_t pos,
			    struct heap_entry x)
{
	h->e[pos] = x;
	E.tasks[x.id].heap_pos = (int32_t)pos;
	E.heap_gen++;
}

/* The entry at @pos takes its task's ready time and moves to its place. */
/* Spinners on one word from which a poll rebuilds the heap. */
#define SPIN_BULK_MIN	4

/* Put @x at @pos or below it, moving smaller children up. */
static inline void heap_sift_down(struct task_heap *h, uint32_t pos,
				  struct heap_entry x)
{
	for (;;) {
		uint32_t kid = 2 * pos + 1;

		if (kid >= h->n)
			break;
		if (kid + 1 < h->n && heap_less(&h->e[kid + 1], &h->e[kid]))
			kid++;
		if (!heap_less(&h->e[kid], &x))
			break;
		heap_set(h, pos, h->e[kid]);
		pos = kid;
	}
	heap_set(h, pos, x);
}

static void heap_fix(struct task_heap *h, uint32_t pos)
{
	struct heap_entry x = h->e[pos];

	x.ready_ns = E.tasks[x.id].ready_ns;
	while (pos > 0 && heap_less(&x, &h->e[(pos - 1) / 2])) {
		heap_set(h, pos, h->e[(pos - 1) / 2]);
		pos = (pos - 1) / 2;
	}
	heap_sift_down(h, pos, x);
}

/*
 * After a bulk poll: drop the entries left behind, then order the rest
 * into a heap from the bottom up.  Which valid heap results does not
 * matter: the pick reads only the smallest ready time and the set of
 * entries ready by a time, and sorts the ties by id before it draws.
 */
static void heap_rebuild(struct task_heap *h)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < h->n; i++) {
		struct heap_entry x = h->e[i];

		if (E.tasks[x.id].heap_pos == (int32_t)i)
			heap_set(h, n++, x);
	}
	h->n = n;
	E.heap_gen++;
	for (uint32_t i = n / 2; i-- > 0;)
		heap_sift_down(h, i, h->e[i]);
}

static void heap_remove(struct task_heap *h, uint16_t id)
{
	uint32_t pos = (uint32_t)E.tasks[id].heap_pos;
	struct heap_entry last = h->e[--h->n];

	E.tasks[id].heap_pos = -1;
	E.heap_gen++;
	if (last.id == id)
		return;
	heap_set(h, pos, last);
	heap_fix(h, pos);
}

static void group_join(struct sim_task *t, int id)
{
	uint32_t g;

	for (g = 0; g < E.group_count; g++)
		if (E.groups[g].word == t->spin_word)
			break;
	if (g == E.group_count) {
		E.group_count++;
		E.groups[g] = (struct spin_group){ .word = t->spin_word,
						   .first = -1 };
	}
	t->spin_group = (int32_t)g;
	t->spin_prev = -1;
	t->spin_next = E.groups[g].first;
	if (t->spin_next >= 0)
		E.tasks[t->spin_next].spin_prev = id;
	E.groups[g].first = id;
	E.groups[g].members++;
	E.groups[g].joined = true;
}

static void group_leave(struct sim_task *t)
{
	struct spin_group *grp = &E.groups[t->spin_group];
	uint32_t last = E.group_count - 1;

	if (t->spin_prev >= 0)
		E.tasks[t->spin_prev].spin_next = t->spin_next;
	else
		grp->first = t->spin_next;
	if (t->spin_next >= 0)
		E.tasks[t->spin_next].spin_prev = t->spin_prev;
	grp->members--;
	if (grp->first < 0) {
		/* Empty: the last group takes its place. */
		uint32_t g = (uint32_t)t->spin_group;

		if (g != last) {
			E.groups[g] = E.groups[last];
			for (int m = E.groups[g].first; m >= 0;
			     m = E.tasks[m].spin_next)
				E.tasks[m].spin_group = (int32_t)g;
		}
		E.group_count--;
	}
	t->spin_group = -1;
}

static void sync_task_change(int id);

/*
 * Bring task @id's place in the incremental view up to date with its
 * state, its ready time and (spinning) its last poll.  Idempotent.
 */
static inline void sync_task(int id)
{
	struct sim_task *t = &E.tasks[id];

	if (!E.incr)
		return;
	if (t->state == TASK_RUNNABLE && t->heap_pos >= 0 &&
	    t->spin_group < 0) {
		/* Runnable and in its heap before as after (the step's
		 * common end): only its ready time moved.  Alone in its
		 * heap, it is the heap (heap_fix would move nothing). */
		struct task_heap *h = &E.heap[t->is_event];

		if (h->n == 1) {
			h->e[0].ready_ns = t->ready_ns;
			E.heap_gen++;
		} else
			heap_fix(h, (uint32_t)t->heap_pos);
		return;
	}
	sync_task_change(id);
}

/* sync_task() when the task's state or place changed. */
static __attribute__((noinline)) void sync_task_change(int id)
{
	struct sim_task *t = &E.tasks[id];
	struct task_heap *h = &E.heap[t->is_event];
	bool live = t->state == TASK_RUNNABLE || t->state == TASK_SPIN ||
		    t->state == TASK_BLOCKED;
	bool on = t->state == TASK_RUNNABLE ||
		  (t->state == TASK_SPIN && t->spin_enabled);
	if (live != t->live) {
		t->live = live;
		E.live_count += live ? 1 : (uint32_t)-1;
	}
	if ((t->state == TASK_SPIN) != (t->spin_group >= 0)) {
		if (t->state == TASK_SPIN)
			group_join(t, id);
		else
			group_leave(t);
	}
	if (on != (E.enabled_all[id] != 0)) {
		E.enabled_all[id] = on;
		E.enabled_count += on ? 1 : (uint32_t)-1;
		if (id < 64)
			E.enabled_mask ^= 1ULL << id;
	}
	if (E.in_task_heap[id] != (on && !t->is_event)) {
		E.in_task_heap[id] = on && !t->is_event;
		if (E.in_task_heap[id])
			E.heaped_owner_cpus |= E.owned_cpus[id];
		else
			E.heaped_owner_cpus &= ~E.owned_cpus[id];
	}
	if (!on) {
		if (t->heap_pos >= 0)
			heap_remove(h, (uint16_t)id);
		return;
	}
	if (t->heap_pos < 0) {
		t->heap_pos = (int32_t)h->n;
		h->e[h->n++].id = (uint32_t)id;
		E.heap_gen++;
	}
	heap_fix(h, (uint32_t)t->heap_pos);
}

/*
 * sync_task() for a spinner whose poll turned it on or off: it stays a
 * live member of its group, so only its enabled bit, its heap entry and
 * the owner mask change.
 */
static void spin_toggle(int id)
{
	struct sim_task *t = &E.tasks[id];
	struct task_heap *h = &E.heap[t->is_event];
	bool on = t->spin_enabled;

	E.enabled_all[id] = on;
	E.enabled_count += on ? 1 : (uint32_t)-1;
	if (id < 64)
		E.enabled_mask ^= 1ULL << id;
	if (!t->is_event) {
		E.in_task_heap[id] = on;
		if (on)
			E.heaped_owner_cpus |= E.owned_cpus[id];
		else
			E.heaped_owner_cpus &= ~E.owned_cpus[id];
		if (E.bulk) {
			E.bulk_dirty = true;
			if (!on) {
				t->heap_pos = -1;
				return;
			}
			t->heap_pos = (int32_t)h->n;
			h->e[h->n].id = (uint32_t)id;
			h->e[h->n++].ready_ns = t->ready_ns;
			E.heap_gen++;
			return;
		}
	}
	if (!on) {
		heap_remove(h, (uint16_t)id);
		return;
	}
	t->heap_pos = (int32_t)h->n;
	h->e[h->n++].id = (uint32_t)id;
	E.heap_gen++;
	heap_fix(h, (uint32_t)t->heap_pos);
}

static void incr_reset(void)
{
	E.incr = E.strategy_kind == SIM_STRATEGY_TIMED;
	E.enabled_mask = 0;
	E.enabled_count = 0;
	E.live_count = 0;
	E.group_count = 0;
	E.heap[0].n = 0;
	E.heap[1].n = 0;
	E.heap_gen++;
	E.solo_id = -1;
	/* Every CPU is free and has no owner (sim_clock_reset). */
	E.heaped_owner_cpus = 0;
	for (uint32_t i = 0; i < E.tasks_used; i++) {
		E.owned_cpus[i] = 0;
		E.in_task_heap[i] = 0;
	}
	/* Each id's own fields are reset when spawn() first gives it out. */
}

/* CPU @cpu's owner becomes @id (step_begin). */
static inline void owner_change(unsigned int cpu, int old, int id)
{
	uint64_t bit = cpu < 64 ? 1ULL << cpu : 0;

	if (old >= 0)
		E.owned_cpus[old] &= ~bit;
	E.owned_cpus[id] |= bit;
	if (E.in_task_heap[id])
		E.heaped_owner_cpus |= bit;
	else
		E.heaped_owner_cpus &= ~bit;
}

static inline uint64_t task_start_ns(int task, unsigned int *rank);

/* Append to @out the ids of heap @h's entries ready no later than @t. */
static uint32_t heap_collect(const struct task_heap *h, uint32_t pos,
			     uint64_t t, uint16_t *out, uint32_t k)
{
	while (pos < h->n && h->e[pos].ready_ns <= t) {
		out[k++] = (uint16_t)h->e[pos].id;
		k = heap_collect(h, 2 * pos + 1, t, out, k);
		pos = 2 * pos + 2;
	}
	return k;
}

static void sort_ids(uint16_t *ids, uint32_t k)
{
	for (uint32_t i = 1; i < k; i++) {
		uint16_t v = ids[i];
		uint32_t j = i;

		for (; j > 0 && ids[j - 1] > v; j--)
			ids[j] = ids[j - 1];
		ids[j] = v;
	}
}

/* A uniform choice by reservoir over the ties in id order: k - 1 draws. */
static int draw(uint16_t *ids, uint32_t k, uint64_t *rng)
{
	uint32_t pick = 0;

	if (k == 1)
		return ids[0];
	sort_ids(ids, k);
	for (uint32_t i = 1; i < k; i++)
		if (sim_rng_next(rng) % (i + 1) == 0)
			pick = i;
	return ids[pick];
}

/*
 * The timed strategy's choice (sim/timed.c has the rule): the enabled
 * task or event with the smallest start time, then the smallest rank,
 * then a seeded reservoir draw over the ties in id order.
 *
 * A task's start is max(its ready time, F), F the time the CPU free
 * first is free (sim_clock_pick: its own CPU is chosen only when it is
 * free by the task's ready time, which is then >= F); an event's is its
 * ready time.  So the smallest start is max(the tasks' smallest ready
 * time, F) or the events' smallest, both heap tops; the tasks that start
 * then are those ready by then.  Every event is rank 0; a task has rank
 * 0 or 2 only when the CPU it gets has it as its owner, so only the
 * (at most --cpus) owners of CPUs need sim_task_start_ns for their rank.
 */
static int timed_pick_many(uint64_t *rng);

/* The smallest ready time in heap @h after its top: its top's children
 * (UINT64_MAX: none). */
static inline uint64_t heap_next_ready(const struct task_heap *h)
{
	uint64_t r = UINT64_MAX;

	if (h->n > 1)
		r = h->e[1].ready_ns;
	if (h->n > 2 && h->e[2].ready_ns < r)
		r = h->e[2].ready_ns;
	return r;
}

/*
 * The one candidate, or -1 when there may be more (2026-12-06, session
 * 14).  A task's start is max(its ready time, F) (sim_clock_pick: its
 * own CPU when free by its ready time, which is then >= F; else the
 * first CPU free by max(ready, F)), an event's its ready time.  When
 * the task heap's top starts strictly before the event heap's top and
 * every other task is ready later than that start, no other task or
 * event starts then: that top is the only candidate at the smallest
 * start, and timed_pick_many returns it whatever its rank (rank 0 or
 * 2: the owners' pass finds it alone; rank 1: the heap's collection
 * finds it alone) with no draw.  The same for an event at the top of
 * its heap ready strictly before every task's start and every other
 * event.  Ties in ready times go to timed_pick_many.
 */
static inline int timed_pick_one(void)
{
	const struct task_heap *tasks = &E.heap[0], *events = &E.heap[1];
	uint64_t task_start = UINT64_MAX, event_start = UINT64_MAX;

	if (tasks->n) {
		uint64_t free_ns =
			sim_clock.cpu[sim_clock.min_cpu].busy_until_ns;

		task_start = tasks->e[0].ready_ns > free_ns ?
			     tasks->e[0].ready_ns : free_ns;
	}
	if (events->n)
		event_start = events->e[0].ready_ns;
	if (task_start < event_start)
		return heap_next_ready(tasks) > task_start ?
		       (int)tasks->e[0].id : -1;
	if (event_start < task_start)
		return heap_next_ready(events) > event_start ?
		       (int)events->e[0].id : -1;
	return -1;
}

static inline int timed_pick(uint64_t *rng)
{
	int one;

	if (!E.incr)
		return -1;
	/* One task or event enabled: it is the choice whatever the times
	 * (every path of timed_pick_many returns it, and a single
	 * candidate takes no draw), so no look at the CPUs. */
	if (E.heap[0].n + E.heap[1].n == 1)
		return (int)(E.heap[0].n ? E.heap[0].e[0].id :
			     E.heap[1].e[0].id);
	if (E.pick_one) {
		one = timed_pick_one();
		if (one >= 0) {
			E.one_picks++;
			return one;
		}
	}
	return timed_pick_many(rng);
}

int sim_exec_timed_pick(uint64_t *rng)
{
	return timed_pick(rng);
}

/*
 * Wake-up preemption (sim/timed.c has the rule; only while the CPU
 * profile's wake_preempt_ns is not 0): CPU @c's owner @o would keep it
 * at @best (rank 0).  It yields instead (rank 2, as if its slice were
 * used up) to the tasks woken or spawned (woken: no step since) after its
 * slice on @c began and ready by @best that would start then on @c
 * (sim_clock_pick) with no idle CPU beside (free by @best, and its owner
 * not ready to go on there), once it has held @c for wake_preempt_ns;
 * those rank 0.  The tasks ready by @best are @ready[0..@n) (collected
 * once per pick by the caller); the preemptors are appended to @out
 * after its @k entries, and the new count returned.  A task is appended
 * for one owner at most: sim_clock_pick names one CPU, and the pick's
 * pass visits each CPU's owner once.  A pick with no such task is the
 * pick without the rule.  Under wake_preempt_mode 1 (preempt=none) only
 * an owner at a point it marked (sim_preempt_point since its step
 * began) yields.
 */
static uint32_t wake_preemptors(int o, unsigned int c, uint64_t best,
				const uint16_t *ready, uint32_t n,
				uint16_t *out, uint32_t k)
{
	const struct sim_clock_cpu *cpu = &sim_clock.cpu[c];

	if (best - cpu->slice_start_ns < sim_clock.costs.wake_preempt_ns)
		return k;
	/* preempt=none: only where the owner marked its point. */
	if (sim_clock.costs.wake_preempt_mode == SIM_WAKE_PREEMPT_NONE &&
	    !E.tasks[o].preempt_point)
		return k;
	for (unsigned int i = 0; i < sim_clock.cpus; i++) {
		const struct sim_clock_cpu *other = &sim_clock.cpu[i];
		int owner = other->owner;

		if (i == c || other->busy_until_ns > best)
			continue;
		if (owner < 0 || !E.in_task_heap[owner] ||
		    E.tasks[owner].ready_ns > best ||
		    E.tasks[owner].cpu != (int32_t)i)
			return k;	/* idle: a woken task goes there */
	}
	for (uint32_t i = 0; i < n; i++) {
		const struct sim_task *w = &E.tasks[ready[i]];
		uint64_t start;

		if (!w->woken || ready[i] == o ||
		    w->ready_ns <= cpu->slice_start_ns ||
		    sim_clock_pick(w->cpu, w->ready_ns, &start) != c)
			continue;
		out[k++] = ready[i];
	}
	return k;
}

/* sim_exec_timed_pick() among two or more enabled tasks and events.
 * The pass stamp only needs to be new per pass (a one-candidate pick
 * takes none). */
static __attribute__((noinline)) int timed_pick_many(uint64_t *rng)
{
	static uint16_t cand[SIM_IDS_LIMIT], slow[SIM_CPUS_MAX];
	static uint16_t ready[SIM_IDS_LIMIT];
	uint64_t free_ns = sim_clock.cpu[sim_clock.min_cpu].busy_until_ns;
	uint64_t best = UINT64_MAX, cpus;
	uint32_t k = 0, nslow = 0, stamp = ++E.pick_stamp;
	uint32_t nready = UINT32_MAX;	/* wake_preemptors': not collected */

	if (E.heap[0].n) {
		best = E.heap[0].e[0].ready_ns;
		if (best < free_ns)
			best = free_ns;
	}
	if (E.heap[1].n && E.heap[1].e[0].ready_ns < best)
		best = E.heap[1].e[0].ready_ns;
	if (best == UINT64_MAX)
		return -1;
	if (E.heap[1].n && E.heap[1].e[0].ready_ns <= best)
		k = heap_collect(&E.heap[1], 0, best, cand, 0);
	/* Up to 64 CPUs: only those whose owner is in heap[0]. */
	cpus = sim_clock.cpus <= 64 ? E.heaped_owner_cpus : 0;
	for (unsigned int c = 0; c < sim_clock.cpus; c++) {
		int o;
		unsigned int rank;

		if (sim_clock.cpus <= 64) {
			/* The next one in ascending order (c++ then
			 * never passes it). */
			if (!cpus)
				break;
			c = (unsigned int)__builtin_ctzll(cpus);
			cpus &= cpus - 1;
		}
		o = sim_clock.cpu[c].owner;
		/* Its owner gets it by then or has rank 1 here. */
		if (o < 0 || sim_clock.cpu[c].busy_until_ns > best)
			continue;
		if (!E.in_task_heap[o] || E.pick_mark[o] == stamp)
			continue;
		E.pick_mark[o] = stamp;
		/* Seen: its other CPUs need no visit (a task may own
		 * several, those it left that no one took since). */
		if (sim_clock.cpus <= 64)
			cpus &= ~E.owned_cpus[o];
		/* A start is never before the ready time. */
		if (E.tasks[o].ready_ns > best)
			continue;
		if (task_start_ns(o, &rank) != best || rank == 1)
			continue;
		if (rank == 0 &&
		    __builtin_expect(sim_clock.costs.wake_preempt_ns != 0, 0)) {
			uint32_t was = k;

			if (nready == UINT32_MAX)
				nready = heap_collect(&E.heap[0], 0, best,
						      ready, 0);
			k = wake_preemptors(o, c, best, ready, nready, cand,
					    k);
			if (k != was)
				rank = 2;	/* it yields to them */
		}
		if (rank == 0)
			cand[k++] = (uint16_t)o;
		else
			slow[nslow++] = (uint16_t)o;
	}
	if (k)
		return draw(cand, k, rng);
	/* Rank 1: every task ready by then, less the rank-2 owners. */
	for (uint32_t i = 0; i < nslow; i++)
		E.pick_mark[slow[i]] = stamp + 1;
	k = heap_collect(&E.heap[0], 0, best, cand, 0);
	{
		uint32_t j = 0;

		for (uint32_t i = 0; i < k; i++)
			if (E.pick_mark[cand[i]] != stamp + 1)
				cand[j++] = cand[i];
		k = j;
	}
	E.pick_stamp++;	/* stamp + 1 is used up */
	if (k)
		return draw(cand, k, rng);
	return draw(slow, nslow, rng);
}

/*
 * The timed strategy's incremental view against the tasks (for tests):
 * each heap ordered, its entries' positions and ready times their tasks',
 * and every enabled task in its heap exactly once.  NULL when it holds,
 * else what does not.
 */
const char *sim_exec_timed_view_fault(void)
{
	uint32_t in_heap[2] = { 0, 0 }, enabled = 0;

	if (!E.incr)
		return NULL;
	for (int k = 0; k < 2; k++) {
		const struct task_heap *h = &E.heap[k];

		for (uint32_t i = 0; i < h->n; i++) {
			const struct sim_task *t = &E.tasks[h->e[i].id];

			if (t->heap_pos != (int32_t)i || t->is_event != k)
				return "a heap entry's task has another place";
			if (h->e[i].ready_ns != t->ready_ns)
				return "a heap entry's ready time is stale";
			if (i && heap_less(&h->e[i], &h->e[(i - 1) / 2]))
				return "a heap is out of order";
		}
	}
	for (uint32_t id = 0; id < E.task_count; id++) {
		const struct sim_task *t = &E.tasks[id];
		bool on = t->state == TASK_RUNNABLE ||
			  (t->state == TASK_SPIN && t->spin_enabled);

		if (on != (E.enabled_all[id] != 0))
			return "an enabled bit is wrong";
		if (on != (t->heap_pos >= 0))
			return "an enabled task is not in its heap, or a "
			       "disabled one is";
		if (E.in_task_heap[id] != (on && !t->is_event))
			return "in_task_heap is wrong";
		enabled += on;
		if (on)
			in_heap[t->is_event]++;
	}
	if (in_heap[0] != E.heap[0].n || in_heap[1] != E.heap[1].n)
		return "a heap holds more entries than enabled tasks";
	if (enabled != E.enabled_count)
		return "the enabled count is wrong";
	return NULL;
}

/* The running task's clock, or NULL on the scheduler's context. */
static inline struct sim_task *clock_task(void)
{
	return E.current >= 0 ? &E.tasks[E.current] : NULL;
}

static int spawn(const char *name, sim_task_fn fn, void *arg, bool is_event,
		 uint64_t at_ns)
{
	struct sim_task *t, *me = clock_task();
	int id;

	if (!E.in_exec)
		sim_fail(SIM_FAIL_BOUND, "sim_task_spawn outside an execution");
	if (E.tasks_free_count) {
		/* Long run: the id of the task that returned last. */
		id = E.tasks_free[--E.tasks_free_count];
		t = &E.tasks[id];
		goto fill;
	}
	if (E.task_count == SIM_SETUP_ID && E.tasks_limit > SIM_SETUP_ID) {
		/* Never given out: owner words name setup by it. */
		t = &E.tasks[SIM_SETUP_ID];
		t->state = TASK_UNUSED;
		t->live = false;
		t->heap_pos = -1;
		t->spin_group = -1;
		E.enabled_all[SIM_SETUP_ID] = 0;
		E.task_count++;
	}
	if (E.task_count == E.tasks_limit) {
		if (E.tasks_limit == SIM_TASKS_MAX)
			sim_fail(SIM_FAIL_BOUND, "more than %d tasks and "
				 "events in one execution (spawning %s); dfs, "
				 "dpor, random and pct hold enabled sets in "
				 "64-bit masks, the timed strategy and replays "
				 "run up to %d", SIM_TASKS_MAX, name,
				 SIM_IDS_LIMIT - 1);
		sim_fail(SIM_FAIL_BOUND, "more than %d tasks and events in one "
			 "execution (spawning %s)", SIM_IDS_LIMIT - 1, name);
	}
	id = (int)E.task_count++;
	if (E.task_count > E.tasks_used)
		E.tasks_used = E.task_count;
	if (E.task_count > 64)
		E.need_all = true;
	t = &E.tasks[id];
	t->live = false;
	t->heap_pos = -1;
	t->spin_group = -1;
	E.enabled_all[id] = 0;
	if (!t->stack.map) {
		int err = sim_stack_map(&t->stack, SIM_STACK_BYTES);

		if (err) {
			fprintf(stderr, "wpsim: engine: cannot map a stack: %s\n",
				strerror(-err));
			exit(2);
		}
	}
fill:
	t->state = TASK_RUNNABLE;
	t->is_event = is_event;
	t->fn = fn;
	t->arg = arg;
	t->spin_word = NULL;
	t->wait_object = 0;
	t->locks_held = 0;
	if (me)
		me->now_ns += sim_clock.costs.spawn_ns;
	t->ready_ns = me && me->now_ns > at_ns ? me->now_ns : at_ns;
	t->now_ns = t->ready_ns;
	t->start_ns = t->ready_ns;
	t->cpu_ns = 0;
	t->next_cost_ns = is_event ? sim_clock.costs.irq_ns :
			  sim_clock.costs.task_start_ns;
	t->next_object = 0;
	t->next_access = SIM_ACCESS_NONE;
	/* An event interrupts the CPU its poster ran on; a task has none
	 * until its first step. */
	t->cpu = is_event ? (me && me->cpu >= 0 ? me->cpu : 0) : -1;
	t->spin_enabled = false;
	t->bound = false;
	t->timeout = 0;
	t->woken = !is_event;
	t->preempt_point = false;
	{
		/* What snprintf "%s" keeps, without formatting (events are
		 * spawned per I/O in long runs). */
		size_t len = strnlen(name, sizeof(t->name) - 1);

		memcpy(t->name, name, len);
		t->name[len] = '\0';
	}
	sim_ctx_make(&t->ctx, &t->stack, task_entry);
	sync_task(id);
	sim_lockdep_task_spawned(E.current, id);
	sim_record(0, SIM_ACCESS_SPAWN, (uint64_t)id);
	return id;
}

int sim_task_spawn(const char *name, sim_task_fn fn, void *arg)
{
	return spawn(name, fn, arg, false, 0);
}

int sim_event_post(const char *name, sim_task_fn fn, void *arg)
{
	return spawn(name, fn, arg, true, 0);
}

int sim_event_post_at(const char *name, sim_task_fn fn, void *arg,
		      uint64_t t_ns)
{
	return spawn(name, fn, arg, true, t_ns);
}

int sim_timer_post_ns(const char *name, sim_task_fn fn, void *arg,
		      uint64_t delay_ns)
{
	return spawn(name, fn, arg, true, sim_now() + delay_ns);
}

/* CPU @cpu of the configured ones (wrapped: a profile's CPU on a run
 * with fewer CPUs). */
static int32_t cpu_of(unsigned int cpu)
{
	unsigned int n = sim_clock.cpus ? sim_clock.cpus : 1;

	return (int32_t)(cpu % n);
}

int sim_event_post_at_cpu(const char *name, sim_task_fn fn, void *arg,
			  uint64_t t_ns, unsigned int cpu)
{
	int id = spawn(name, fn, arg, true, t_ns);

	E.tasks[id].cpu = cpu_of(cpu);
	E.tasks[id].bound = true;
	return id;
}

int sim_task_spawn_on_cpu(const char *name, sim_task_fn fn, void *arg,
			  unsigned int cpu)
{
	int id = spawn(name, fn, arg, true, 0);
	struct sim_task *t = &E.tasks[id];

	/* Placed as an event on @cpu (it starts at its ready time and
	 * delays that CPU's task), costed as a task: no irq entry. */
	t->cpu = cpu_of(cpu);
	t->bound = true;
	t->next_cost_ns = sim_clock.costs.task_start_ns;
	return id;
}

int sim_cpu_current(void)
{
	if (E.current < 0)
		return -1;
	return E.tasks[E.current].cpu;
}

const char *sim_exec_task_name(uint32_t task)
{
	if (task >= E.task_count)
		return "?";
	return E.tasks[task].name;
}

uint32_t sim_exec_task_count(void)
{
	return E.task_count;
}

static bool step_inline(int id);

/*
 * Give control back to the scheduler; returns when chosen again.  Under
 * the timed strategy the step's end and the next choice run here first
 * (step_inline): when the choice is this task again, no switch.
 */
static inline void yield_to_scheduler(void)
{
	int id = E.current;
	struct sim_task *t = &E.tasks[id];

	if (E.incr && step_inline(id))
		return;
	sim_ctx_switch(&t->ctx, &E.sched_ctx);
}

static inline bool solo_fast(struct sim_task *t, int id);
static void solo_lean(struct sim_task *t, int id);

/* sim_point_timed's path past solo_fast: step_inline, else a switch. */
static __attribute__((noinline)) void sim_point_slow(struct sim_task *t,
						     int id)
{
	if (step_inline(id))
		return;
	sim_ctx_switch(&t->ctx, &E.sched_ctx);
}

/* sim_point_timed's whole path: solo_fast, else sim_point_slow. */
static __attribute__((noinline)) void sim_point_full(struct sim_task *t,
						     int id)
{
	if (solo_fast(t, id)) {
		E.solo_full++;
		return;
	}
	sim_point_slow(t, id);
}

/* sim_point under the timed strategy: solo_lean (which goes on to
 * sim_point_full when it does not apply).  Out of line, so that the
 * exploring strategies' sim_point saves no register for it; solo_lean
 * calls nothing but in tail position, so this saves none either
 * (session 22). */
static __attribute__((noinline)) void sim_point_timed(struct sim_task *t,
						      int id)
{
	solo_lean(t, id);
}

void sim_point(uint32_t object, enum sim_access access)
{
	struct sim_task *t;
	int id = E.current;

	if (id < 0)
		return;
	t = &E.tasks[id];
	t->next_cost_ns = sim_clock.access_ns[access];
	t->next_object = object;
	t->next_access = (uint8_t)access;
	if (E.incr) {
		sim_point_timed(t, id);
		return;
	}
	sim_ctx_switch(&t->ctx, &E.sched_ctx);
}

/* ---- Virtual time ------------------------------------------------------- */

uint64_t sim_now(void)
{
	return E.current >= 0 ? E.tasks[E.current].now_ns : E.last_start_ns;
}

void sim_cpu_spend(uint64_t ns)
{
	if (E.current >= 0)
		E.tasks[E.current].now_ns += ns;
}

void sim_preempt_point(void)
{
	if (E.current >= 0 && !E.tasks[E.current].is_event)
		E.tasks[E.current].preempt_point = true;
}

void sim_sleep_until(uint64_t t_ns)
{
	struct sim_task *t = clock_task();

	if (!t)
		return;
	/* The step ends here; the next one starts no earlier than t_ns. */
	if (t_ns > t->ready_ns)
		t->ready_ns = t_ns;
	sim_point(0, SIM_ACCESS_NONE);
	sim_record(0, SIM_ACCESS_NONE, t_ns);
}

void sim_sleep_ns(uint64_t ns)
{
	sim_sleep_until(sim_now() + ns);
}

uint64_t sim_task_cpu_ns(int task)
{
	if (task < 0 || (uint32_t)task >= E.task_count)
		return 0;
	return E.tasks[task].cpu_ns;
}

uint64_t sim_task_now(int task)
{
	if (task < 0 || (uint32_t)task >= E.task_count)
		return 0;
	return E.tasks[task].now_ns;
}

static inline uint64_t task_start_ns(int task, unsigned int *rank)
{
	struct sim_task *t = &E.tasks[task];
	const struct sim_clock_cpu *c;
	uint64_t start;
	unsigned int cpu;

	if (t->is_event) {
		*rank = 0;
		return t->ready_ns;
	}
	cpu = sim_clock_pick(t->cpu, t->ready_ns, &start);
	c = &sim_clock.cpu[cpu];
	if (c->owner != task)
		*rank = 1;
	else if (start - c->slice_start_ns < sim_clock.slice_ns)
		*rank = 0;
	else
		*rank = 2;
	return start;
}

uint64_t sim_task_start_ns(int task, unsigned int *rank)
{
	return task_start_ns(task, rank);
}

/* The chosen task's step begins: its CPU, its start, its access's cost. */
static inline __attribute__((always_inline))
void step_begin(struct sim_task *t, int id)
{
	uint64_t start, cost = t->next_cost_ns, ready = t->ready_ns;
	uint64_t step = E.step - 1;	/* counted already */
	unsigned int cpu = 0;

	if (t->is_event)
		start = ready;
	else
		cpu = sim_clock_pick(t->cpu, ready, &start);
	if (__builtin_expect(E.order != ORDER_OFF, 0) &&
	    order_late(t, start)) {
		/* The order rule moves it: its task is ready no earlier
		 * than the floor, the CPU is picked for that time. */
		ready = E.order_floor;
		if (t->is_event)
			start = ready;
		else
			cpu = sim_clock_pick(t->cpu, ready, &start);
		if (start > E.order_bound)
			E.order_bound = start;
		E.order_moves++;
	}
	if (!t->is_event) {
		struct sim_clock_cpu *c = &sim_clock.cpu[cpu];

		if (c->owner != id) {
			if (c->owner >= 0)
				cost += sim_clock.costs.switch_ns;
			owner_change(cpu, c->owner, id);
			c->owner = id;
			c->slice_start_ns = start;
		} else if (start - c->slice_start_ns >= sim_clock.slice_ns) {
			c->slice_start_ns = start;	/* a new slice */
		}
		t->cpu = (int32_t)cpu;
	}
	t->woken = false;
	t->preempt_point = false;
	t->start_ns = start;
	t->now_ns = start + cost;
	E.last_start_ns = start;
	E.last_access_ns = t->now_ns;
	if (step < SIM_STEPS_LIMIT) {
		E.step_start[step] = start;
		E.step_cpu[step] = (uint16_t)t->cpu;
	}
}

/*
 * A bound event's or task's step @t interrupted CPU @c, busy until
 * @prev_ns before it: when the task that owns @c was running then (its
 * last step ended after @t's began, it is runnable, and it is ready by
 * @prev_ns: not asleep in sim_sleep_until past it), it is delayed by
 * the interrupt and stays on @c: ready no earlier than @c's busy-until,
 * which now holds the interrupt's time.  A real scheduler's
 * interrupted task, or the one a bound worker task preempts, stays on
 * its runqueue; without this the engine's placement (sim_clock_pick) moves
 * it at its next step to any CPU free then.  Events posted without a
 * CPU keep their rule (they delay the CPU's next task, which may then
 * take another CPU), so every run without bound work is unchanged.
 */
static __attribute__((noinline)) void bound_steal(const struct sim_task *t,
						  const struct sim_clock_cpu *c,
						  uint64_t prev_ns)
{
	int o = c->owner;
	struct sim_task *ot;

	if (o < 0)
		return;
	ot = &E.tasks[o];
	if (ot->is_event || ot->state != TASK_RUNNABLE ||
	    ot->cpu != t->cpu || ot->now_ns <= t->start_ns ||
	    ot->ready_ns > prev_ns || ot->ready_ns >= c->busy_until_ns)
		return;
	ot->ready_ns = c->busy_until_ns;
	sync_task(o);
}

/* The step ended (next point, sleep, exit or failure): book the CPU. */
static inline void step_end(struct sim_task *t)
{
	struct sim_clock_cpu *c = &sim_clock.cpu[t->cpu];
	uint64_t took = t->now_ns - t->start_ns;

	t->cpu_ns += took;
	c->busy_ns += took;
	if (t->is_event) {	/* it interrupted whatever ran there */
		uint64_t prev = c->busy_until_ns;

		c->busy_until_ns = (prev > t->start_ns ? prev : t->start_ns) +
				   took;
		if (t->bound)
			bound_steal(t, c, prev);
	} else
		c->busy_until_ns = t->now_ns;
	/* Busy-until times only grow: only the first-free CPU's move can
	 * change which CPU is free first. */
	if (sim_clock.cpus > 1 && (unsigned int)t->cpu == sim_clock.min_cpu)
		sim_clock_update_min();
	if (t->now_ns > t->ready_ns)
		t->ready_ns = t->now_ns;
	if (t->now_ns > sim_clock.end_ns)
		sim_clock.end_ns = t->now_ns;
	if (E.step - 1 < SIM_STEPS_LIMIT)
		E.step_end[E.step - 1] = t->now_ns;
}

const uint64_t *sim_exec_step_start_ns(void)
{
	return E.step_start;
}

const uint64_t *sim_exec_step_end_ns(void)
{
	return E.step_end;
}

const uint16_t *sim_exec_step_cpu(void)
{
	return E.step_cpu;
}

void sim_task_block(uint32_t object)
{
	struct sim_task *t;

	if (E.current < 0)
		sim_fail(SIM_FAIL_ASSERT, "sleeping outside a task (on %s)",
			 sim_exec_object_name(object));
	t = &E.tasks[E.current];
	t->now_ns += sim_clock.costs.block_ns;
	sim_record(object, SIM_ACCESS_BLOCK, 0);
	t->state = TASK_BLOCKED;
	t->wait_object = object;
	t->next_cost_ns = sim_clock.costs.resume_ns;
	/* The resume's time is its waker's (sim_task_wake): no floor. */
	t->next_object = 0;
	t->next_access = SIM_ACCESS_NONE;
	yield_to_scheduler();
	sim_record(object, SIM_ACCESS_NONE, 0);
}

void sim_task_wake(int task)
{
	struct sim_task *t;

	if (task < 0 || (uint32_t)task >= E.task_count)
		sim_fail(SIM_FAIL_ASSERT, "waking unknown task %d", task);
	t = &E.tasks[task];
	if (t->state != TASK_BLOCKED)
		sim_fail(SIM_FAIL_ASSERT, "waking task %s that is not asleep",
			 t->name);
	/* Recorded on what the sleeper waits for: DPOR sees the edge. */
	sim_record(t->wait_object, SIM_ACCESS_WAKE, (uint64_t)task);
	t->state = TASK_RUNNABLE;
	t->wait_object = 0;
	t->woken = !t->is_event;
	/* It wakes at the waker's time (the waker pays for the wake-up). */
	sim_cpu_spend(sim_clock.costs.wake_ns);
	if (sim_now() > t->ready_ns)
		t->ready_ns = sim_now();
	sync_task(task);
}

void sim_task_note_lock(int delta)
{
	if (E.current >= 0)
		E.tasks[E.current].locks_held += delta;
}

bool sim_task_blocked(int task)
{
	return task >= 0 && (uint32_t)task < E.task_count &&
	       E.tasks[task].state == TASK_BLOCKED;
}

bool sim_task_on_cpu(int task)
{
	const struct sim_task *t;
	int me = sim_task_current();

	if (task < 0 || (uint32_t)task >= E.task_count || task == me)
		return false;
	t = &E.tasks[task];
	if (t->is_event || t->state != TASK_RUNNABLE || t->cpu < 0)
		return false;
	if (me >= 0 && t->ready_ns > E.tasks[me].now_ns)
		return false;
	return sim_clock.cpu[t->cpu].owner == task;
}

bool sim_task_spinning(int task)
{
	return task >= 0 && (uint32_t)task < E.task_count &&
	       E.tasks[task].state == TASK_SPIN;
}

void sim_task_spin_until_zero(const void *word, uint32_t object)
{
	struct sim_task *t;

	if (E.current < 0)
		return;
	t = &E.tasks[E.current];
	if (t->spin_group >= 0)
		group_leave(t);	/* spun before in this step: join anew */
	t->state = TASK_SPIN;
	t->spin_word = word;
	t->wait_object = object;
	t->spin_enabled = false;
	t->next_cost_ns = sim_clock.costs.acquire_ns;
	t->next_object = object;
	t->next_access = SIM_ACCESS_ACQUIRE;
	yield_to_scheduler();
	t->state = TASK_RUNNABLE;
	t->spin_word = NULL;
	t->wait_object = 0;
}

/* ---- Checks ------------------------------------------------------------- */

static const bool check_never_quiet;	/* false */

/*
 * The write log keeps only stores to tagged words while this is a long
 * run and every check has a watch and reads only tagged words
 * (sim_check_watch_tagged).  Exploration and short runs log every store:
 * their snapshots and strategies see the log as before.
 */
static bool checks_tagged_on = true;	/* sim_exec_checks_tagged */

static void write_log_mode(void)
{
	bool all = checks_tagged_on && E.long_run && !E.unwatched;

	for (uint32_t i = 0; all && i < E.active_count; i++)
		all = E.active_tagged[i];
	sim_write_log.tagged_only = all;
}

void sim_exec_checks_tagged(bool on)
{
	checks_tagged_on = on;
}

void sim_check_register(const char *name, sim_check_fn check,
			sim_dump_fn dump, void *arg)
{
	if (E.check_count == SIM_CHECKS_MAX)
		sim_fail(SIM_FAIL_BOUND, "more than %d checks", SIM_CHECKS_MAX);
	E.checks[E.check_count++] = (struct check){ name, check, dump, arg };
	if (check) {
		E.active_fn[E.active_count] = check;
		uint32_t bit = 1u << E.active_count;

		E.active_quiet[E.active_count] = &check_never_quiet;
		E.active_tagged[E.active_count] = false;
		for (uint32_t t = 1; t < 256; t++)
			E.tag_checks[t] &= ~bit;
		E.tag_checks[0] |= bit;
		E.active_arg[E.active_count++] = arg;
		E.unwatched++;
		E.checks_quiet = false;
		write_log_mode();
	}
}

void sim_check_register_watch(const char *name, sim_check_fn check,
			      sim_dump_fn dump, void *arg, const bool *quiet)
{
	sim_check_register(name, check, dump, arg);
	if (check && quiet)
		sim_check_watch_set(check, arg, quiet);
}

void sim_check_watch_set(sim_check_fn check, void *arg, const bool *quiet)
{
	for (uint32_t i = 0; i < E.active_count; i++) {
		if (E.active_fn[i] != check || E.active_arg[i] != arg)
			continue;
		E.unwatched -= E.active_quiet[i] == &check_never_quiet;
		E.active_quiet[i] = quiet ? quiet : &check_never_quiet;
		E.unwatched += E.active_quiet[i] == &check_never_quiet;
	}
	E.checks_quiet = false;
	write_log_mode();
	sim_check_touch();	/* the new flag is read after the next step */
}

void sim_check_watch_tagged(sim_check_fn check, void *arg)
{
	for (uint32_t i = 0; i < E.active_count; i++) {
		if (E.active_fn[i] == check && E.active_arg[i] == arg)
			E.active_tagged[i] = true;
	}
	write_log_mode();
	sim_check_touch();	/* the checks run after the next step */
}

void sim_check_watch_tag(sim_check_fn check, void *arg, uint8_t tag)
{
	if (!tag)
		sim_fail(SIM_FAIL_BOUND, "sim_check_watch_tag: tag 0 is no "
			 "tag");
	sim_check_watch_tagged(check, arg);
	for (uint32_t i = 0; i < E.active_count; i++)
		if (E.active_fn[i] == check && E.active_arg[i] == arg)
			E.tag_checks[tag] |= 1u << i;
}

uint64_t sim_exec_checks_passed(void)
{
	return E.checks_passed;
}

uint32_t sim_exec_checks_tagged_stats(uint64_t *rounds, const char **names,
				      uint64_t *passed, uint32_t max)
{
	uint32_t n = 0;

	*rounds = E.tagged_rounds;
	for (uint32_t i = 0; i < E.active_count && n < max; i++, n++) {
		names[n] = "?";
		for (uint32_t c = 0; c < E.check_count; c++)
			if (E.checks[c].check == E.active_fn[i] &&
			    E.checks[c].arg == E.active_arg[i]) {
				names[n] = E.checks[c].name;
				break;
			}
		passed[n] = E.tagged_passed[i];
	}
	return n;
}

void sim_exec_dump(FILE *out)
{
	for (uint32_t i = 0; i < E.check_count; i++) {
		if (!E.checks[i].dump)
			continue;
		fprintf(out, "-- %s --\n", E.checks[i].name);
		E.checks[i].dump(E.checks[i].arg, out);
	}
}

struct sim_write_log sim_write_log;

/* sim_exec_writes: inline in include/sim/engine.h. */

bool sim_check_touched;

/*
 * The checks, then a fresh write log for the next step's stores.  After
 * a step with no store, no exit and no touch, when every check has a
 * watch whose flag reads true, none is called (sim_check_register_watch):
 * each would do nothing.  The flags are read here, not after the checks
 * last ran: only a check sets its flag, and only after a step in which
 * every check ran (which clears the touch), and whoever clears one
 * touches; so since that step no flag changed.
 */
/* True, and counted, when the watches pass every check over. */
static inline __attribute__((always_inline)) bool checks_pass(void)
{
	uint32_t n = E.active_count;

	if (!sim_write_log.n && !sim_check_touched &&
	    sim_exec_exit_in_last_step() < 0) {
		uint32_t i = 0;

		if (E.checks_quiet) {
			/* Read true since the last round (session 19). */
			E.checks_passed++;
			return true;
		}
		if (!E.unwatched) {
			while (i < n && *E.active_quiet[i])
				i++;
			if (i == n) {
				E.checks_quiet = true;
				E.checks_passed++;
				return true;	/* the log is empty already */
			}
		}
	}
	return false;
}

/* A round: every check, in order. */
static void run_checks_all(void)
{
	uint32_t n = E.active_count;	/* a check registers none */

	for (uint32_t i = 0; i < n; i++)
		E.active_fn[i](E.active_arg[i]);
	E.checks_quiet = false;
	sim_check_touched = false;
	sim_write_log.n = 0;
}

/*
 * A round in a long run whose checks read only tagged words
 * (sim_check_watch_tag), after a step with no exit and no touch: the
 * checks whose flag reads false, and those that read a tag of a word
 * the step stored, in order; every other one would do nothing (its
 * flag true, none of its words stored).  Otherwise every check.
 */
static __attribute__((noinline)) void run_checks_tagged(void)
{
	uint32_t n = E.active_count, want = 0, k = sim_write_log.n;

	if (sim_check_touched || sim_exec_exit_in_last_step() >= 0 ||
	    k > SIM_WRITES_LOG) {
		run_checks_all();
		return;
	}
	while (k--)	/* an _init's word (tag 0): every check */
		want |= E.tag_checks[sim_write_log.word[k]->tag];
	E.tagged_rounds++;
	for (uint32_t i = 0; i < n; i++)
		if (((want >> i) & 1) || !*E.active_quiet[i])
			E.active_fn[i](E.active_arg[i]);
		else
			E.tagged_passed[i]++;
	E.checks_quiet = false;
	sim_write_log.n = 0;
}

static inline void run_checks(void)
{
	if (checks_pass())
		return;
	if (sim_write_log.tagged_only)
		run_checks_tagged();
	else
		run_checks_all();
}

/* ---- The execution loop ------------------------------------------------- */

/*
 * The enabled set, as a mask of the ids below 64 and in E.enabled_all for
 * every id; E.enabled_count counts it.  A spinning task that becomes
 * enabled is ready no earlier than the access that freed its word.
 */
/*
 * A spun-on word is a struct sim_word's value, and sim_word is packed
 * (12 bytes): the value may be unaligned, so it is read by memcpy.
 */
static inline bool word_is_zero(const void *word)
{
	uint64_t v;

	memcpy(&v, word, sizeof(v));
	return v == 0;
}

static inline bool spin_enabled(struct sim_task *t)
{
	if (!word_is_zero(t->spin_word)) {
		t->spin_enabled = false;
		return false;
	}
	if (!t->spin_enabled) {
		t->spin_enabled = true;
		if (E.last_access_ns > t->ready_ns)
			t->ready_ns = E.last_access_ns;
	}
	return true;
}

static uint64_t enabled_set_scan(bool *live);

static inline uint64_t enabled_set(bool *live)
{
	/* The timed strategy's view with no spinner: nothing to poll. */
	if (E.incr && !E.group_count) {
		*live = E.live_count != 0;
		return E.enabled_mask;
	}
	return enabled_set_scan(live);
}

static __attribute__((noinline)) uint64_t enabled_set_scan(bool *live)
{
	uint64_t enabled = 0;
	uint32_t count = 0;

	*live = false;
	if (E.incr) {
		/* Only spinners can change between steps. */
		for (uint32_t g = 0; g < E.group_count; g++) {
			struct spin_group *grp = &E.groups[g];
			bool zero = word_is_zero(grp->word);

			if (zero == grp->zero && !grp->joined)
				continue;
			grp->zero = zero;
			grp->joined = false;
			/* Many members: one rebuild of the heap, not an
			 * insertion or removal each. */
			E.bulk = grp->members >= SPIN_BULK_MIN;
			for (int id = grp->first; id >= 0;
			     id = E.tasks[id].spin_next) {
				struct sim_task *t = &E.tasks[id];
				bool was = t->spin_enabled;

				if (spin_enabled(t) != was)
					spin_toggle(id);
			}
			E.bulk = false;
			/* Ordered before any other change reaches the
			 * heap (a removal moves its last entry). */
			if (E.bulk_dirty) {
				E.bulk_dirty = false;
				heap_rebuild(&E.heap[0]);
			}
		}
		*live = E.live_count != 0;
		return E.enabled_mask;
	}
	if (!E.need_all) {
		/* At most 64 tasks and a strategy that reads the mask. */
		for (uint32_t i = 0; i < E.task_count; i++) {
			struct sim_task *t = &E.tasks[i];

			switch (t->state) {
			case TASK_RUNNABLE:
				enabled |= 1ULL << i;
				*live = true;
				break;
			case TASK_SPIN:
				if (spin_enabled(t))
					enabled |= 1ULL << i;
				*live = true;
				break;
			case TASK_BLOCKED:
				*live = true;
				break;
			default:
				break;
			}
		}
		E.enabled_count = enabled != 0;
		return enabled;
	}
	for (uint32_t i = 0; i < E.task_count; i++) {
		struct sim_task *t = &E.tasks[i];
		uint8_t on = 0;

		switch (t->state) {
		case TASK_RUNNABLE:
			on = 1;
			*live = true;
			break;
		case TASK_SPIN:
			on = spin_enabled(t);
			*live = true;
			break;
		case TASK_BLOCKED:
			*live = true;
			break;
		default:
			break;
		}
		E.enabled_all[i] = on;
		count += on;
		if (on && i < 64)
			enabled |= 1ULL << i;
	}
	E.enabled_count = count;
	return enabled;
}

/* Is @task in the enabled set just computed? */
static inline bool is_enabled(uint64_t mask, int task)
{
	if (E.need_all)
		return E.enabled_all[task];
	return task < 64 && (mask >> task) & 1;
}

/* The default choice over every id: current if enabled, else the lowest. */
static int default_choice_all(int current)
{
	if (current >= 0 && E.enabled_all[current])
		return current;
	for (uint32_t i = 0; i < E.task_count; i++)
		if (E.enabled_all[i])
			return (int)i;
	return -1;
}

static void report_deadlock(void)
{
	char text[SIM_MESSAGE_BYTES];
	size_t len = 0;

	len += (size_t)snprintf(text + len, sizeof(text) - len,
				"no task can run:");
	for (uint32_t i = 0; i < E.task_count && len < sizeof(text); i++) {
		struct sim_task *t = &E.tasks[i];
		const char *how;

		if (t->state == TASK_BLOCKED)
			how = "sleeps on";
		else if (t->state == TASK_SPIN)
			how = "spins on";
		else
			continue;
		len += (size_t)snprintf(text + len, sizeof(text) - len,
					" %s %s %s;", t->name, how,
					sim_exec_object_name(t->wait_object));
	}
	fail_here(SIM_FAIL_DEADLOCK, "%s", text);
}

static uint32_t timeouts_fire(void);

/*
 * The step loop is two halves, run on the scheduler's context or, under
 * the timed strategy, on the context of the task that just ended its
 * step (the timed fast path, yield_to_scheduler): the same functions in
 * the same order, so the run is the same; what the fast path saves is
 * the two context switches of a step whose chosen task is the one that
 * ran last.
 */
enum step_next {
	STEP_CHOSEN,	/* E.step counted, E.chosen to run */
	STEP_END,	/* no live task: the program's final property */
	STEP_STOP,	/* a failure or a pruned execution */
};

/* The step of task @id ended (its next point, a sleep, exit or failure).
 * Always inlined: with the 64-bit step count gcc stopped inlining it in
 * run_steps (+3 % of an exploration's instructions). */
static inline __attribute__((always_inline)) void after_step_rest(int id)
{
	sync_task(id);
	if (E.long_run && E.tasks[id].state == TASK_DONE)
		E.tasks_free[E.tasks_free_count++] = (uint16_t)id;
	E.current = -1;
	E.last_ran = id;
}

static inline __attribute__((always_inline)) void after_step(int id)
{
	step_end(&E.tasks[id]);
	after_step_rest(id);
}

static __attribute__((noinline)) void fail_stuck(void)
{
	fail_here(SIM_FAIL_STUCK, "step bound reached: %" PRIu64 " steps and "
		  "tasks still running (raise --steps or look for a livelock)",
		  E.steps_max);
}

/* The schedule's record of step E.step's choice (its first
 * SIM_STEPS_LIMIT steps). */
static inline void choice_record(int next, uint64_t enabled, int last)
{
	if (E.step < SIM_STEPS_LIMIT) {
		E.choices[E.step] = (uint16_t)next;
		E.enabled_sets[E.step] = enabled;
		if (E.task_count > 64)
			E.defaults[E.step] = (uint16_t)default_choice_all(last);
	}
}

/* The checks, then the strategy's choice of the next step's task. */
static inline __attribute__((always_inline))
enum step_next before_step(void)
{
	struct sim_outcome *outcome = E.outcome;
	int last = E.last_ran;

	for (;;) {
		struct sim_choice choice;
		uint64_t enabled;
		bool live;
		int next;

		run_checks();
		enabled = enabled_set(&live);
		if (!live)
			return STEP_END;
		if (!E.enabled_count && timeouts_fire())
			continue;
		if (!E.enabled_count) {
			report_deadlock();
			return STEP_STOP;
		}
		if (E.step >= E.steps_max) {
			fail_stuck();
			return STEP_STOP;
		}
		if (E.incr) {
			/* The timed strategy's choose (sim/timed.c), which
			 * reads nothing of the choice but its generator. */
			next = timed_pick(&E.strategy->rng);
		} else {
			choice.enabled = enabled;
			choice.current = last;
			choice.step = (uint32_t)E.step;
			choice.task_count = E.task_count;
			choice.enabled_all = E.need_all ? E.enabled_all : NULL;
			next = E.strategy->ops->choose(E.strategy, &choice);
		}
		if (next == SIM_CHOICE_PRUNE) {
			/* Every enabled task sleeps: a redundant execution. */
			outcome->pruned = true;
			return STEP_STOP;
		}
		if (next < 0 || (uint32_t)next >= E.task_count ||
		    !is_enabled(enabled, next)) {
			if (E.task_count > 64)
				fail_here(SIM_FAIL_DIVERGED,
					  "schedule diverged at step %" PRIu64
					  ": task %d is not enabled", E.step,
					  next);
			else
				fail_here(SIM_FAIL_DIVERGED,
					  "schedule diverged at step %" PRIu64
					  ": task %d is not enabled (enabled "
					  "set 0x%llx)", E.step, next,
					  (unsigned long long)enabled);
			return STEP_STOP;
		}
		choice_record(next, enabled, last);
		if (last >= 0 && next != last && is_enabled(enabled, last))
			outcome->preemptions++;
		E.step++;
		E.chosen = next;
		return STEP_CHOSEN;
	}
}

/*
 * The solo step (timed fast path, 2026-12-06, session 13): after task
 * @t's step ended (step_end), can the timed pick return anything but
 * @t?  It cannot when the poll of the spinners after the checks would
 * change nothing (no task spins, or, session 14, every spin group's word
 * reads as at the last poll and no task joined one: spin_groups_quiet)
 * and @t is enabled, at the top of its heap, and every other enabled
 * task and event is ready strictly later than @t:
 *
 * - @t starts at its ready time: an event does; a task's own CPU was
 *   freed at its now (step_end), which its ready time is not before, so
 *   sim_clock_pick gives it that CPU then;
 * - every other candidate starts no earlier than its ready time, so
 *   later than @t: @t alone has the smallest start, and whatever its
 *   rank (0, or 2 with its slice used up: rank 1 then finds no task
 *   ready by that time but @t), timed_pick_many returns it with no
 *   draw (a single candidate takes none), as timed_pick does when @t
 *   is alone;
 * - the checks between cannot change it: they wake, spawn and store
 *   nothing (a failure leaves through sim_fail);
 * - wake-up preemption (wake_preemptors) cannot either: it ranks a task
 *   ready by @t's start, and there is none but @t.
 *
 * @t may also be at a spin (sim_task_spin_until_zero) on a word that is
 * zero, when no other task spins: sync_task would take it out of its heap and the poll after the
 * checks put it back, ready no earlier than E.last_access_ns (its own
 * access: no later than its now, so its ready time does not move), the
 * same entries in another valid order, which the pick does not read.
 *
 * Then its heap entry takes the new ready time in place (its children,
 * ready later, keep their places: heap_fix would move nothing), and the
 * enabled set, the pick and the heaps are not looked at again.  The
 * checks, the step bound, the schedule's records and the next step's
 * begin are before_step's and step_begin's: the same run, byte for byte.
 */
/*
 * Would the poll after the checks (enabled_set_scan) change nothing?
 * Each group's word reads as it did at the last poll and no task joined
 * it since: the poll passes every group (it reads words, which the
 * checks do not store), so the enabled set, the heaps and every ready
 * time stay as they are.
 */
static __attribute__((noinline)) bool spin_groups_quiet(void)
{
	for (uint32_t g = 0; g < E.group_count; g++) {
		const struct spin_group *grp = &E.groups[g];

		if (grp->joined || word_is_zero(grp->word) != grp->zero)
			return false;
	}
	return true;
}

static inline bool solo_next(struct sim_task *t, int id)
{
	struct task_heap *h = &E.heap[t->is_event];
	const struct task_heap *o = &E.heap[!t->is_event];
	uint64_t ready, until;

	/*
	 * The answer kept (session 17): @t was proved alone at the top of
	 * its heap by the test below, and since then no heap entry changed
	 * but its own top entry's ready time (heap_gen), so the entries it
	 * compared are the same; @t is still runnable (a task that blocks
	 * or spins changes state before its point) and no task spins, or
	 * (session 19) every spin group is quiet, the test's first
	 * question, so the test below would read the same and answer the
	 * same while @t's ready time stays below the others' least.
	 */
	if (E.solo_id == id && E.solo_gen == E.heap_gen &&
	    t->state == TASK_RUNNABLE && t->ready_ns < E.solo_until) {
		if (!E.group_count) {
			h->e[0].ready_ns = t->ready_ns;
			return true;
		}
		/* Beside spinners (session 19): what the test below
		 * reads first, then the same entries. */
		if (spin_groups_quiet()) {
			h->e[0].ready_ns = t->ready_ns;
			E.solo_grouped++;
			return true;
		}
		return false;
	}
	if (!E.solo || t->heap_pos != 0 || t->spin_group >= 0)
		return false;
	if (t->state != TASK_RUNNABLE) {
		if (t->state != TASK_SPIN || E.group_count ||
		    !word_is_zero(t->spin_word))
			return false;
	} else if (E.group_count && !spin_groups_quiet()) {
		return false;
	}
	ready = t->ready_ns;
	if (t->state == TASK_SPIN && E.last_access_ns > ready)
		ready = E.last_access_ns;
	if ((h->n > 1 && h->e[1].ready_ns <= ready) ||
	    (h->n > 2 && h->e[2].ready_ns <= ready) ||
	    (o->n && o->e[0].ready_ns <= ready))
		return false;
	if (t->state == TASK_SPIN) {
		/* What the poll does (spin_enabled), before the checks
		 * rather than after: they read neither. */
		t->spin_enabled = true;
		t->ready_ns = ready;
	}
	h->e[0].ready_ns = ready;
	if (E.group_count)
		E.solo_grouped++;
	if (t->state == TASK_RUNNABLE) {
		/* Kept for the next points: the least ready time of the
		 * entries compared above. */
		until = UINT64_MAX;
		if (h->n > 1)
			until = h->e[1].ready_ns;
		if (h->n > 2 && h->e[2].ready_ns < until)
			until = h->e[2].ready_ns;
		if (o->n && o->e[0].ready_ns < until)
			until = o->e[0].ready_ns;
		E.solo_until = until;
		E.solo_gen = E.heap_gen;
		E.solo_id = id;
	}
	return true;
}

void sim_exec_timed_solo(bool on)
{
	E.solo = on;
	E.solo_id = -1;
	E.pick_one = on;
}

uint64_t sim_exec_timed_solo_grouped_steps(void)
{
	return E.solo_grouped;
}

uint64_t sim_exec_timed_one_picks(void)
{
	return E.one_picks;
}

uint64_t sim_exec_timed_solo_steps(void)
{
	return E.solo_steps;
}

uint64_t sim_exec_timed_solo_fast_steps(void)
{
	return E.solo_fast;
}

uint64_t sim_exec_timed_solo_full_steps(void)
{
	return E.solo_full;
}

uint64_t sim_exec_timed_solo_event_steps(void)
{
	return E.solo_events;
}

uint64_t sim_exec_timed_solo_proved_steps(void)
{
	return E.solo_proved;
}

/*
 * step_begin for a solo step (solo_next): @t's next step begins where its
 * last one ended.  A task: sim_clock_pick gives it its own CPU at its
 * ready time (step_end left that CPU busy until its now, which its ready
 * time is not before), and the CPU's owner is @t already (only @t's step
 * began since its step_begin made it so; an event's step changes no
 * owner), so only the slice's test is left.  An event starts at its ready
 * time.  The same stores as step_begin.
 */
static inline __attribute__((always_inline))
void step_begin_solo(struct sim_task *t)
{
	uint64_t start = t->ready_ns;
	uint64_t step = E.step - 1;	/* counted already */

	if (!t->is_event) {
		struct sim_clock_cpu *c = &sim_clock.cpu[t->cpu];

		if (start - c->slice_start_ns >= sim_clock.slice_ns)
			c->slice_start_ns = start;	/* a new slice */
	}
	if (__builtin_expect(E.order != ORDER_OFF, 0))
		(void)order_late(t, start);	/* the check: never late */
	t->preempt_point = false;
	t->start_ns = start;
	t->now_ns = start + t->next_cost_ns;
	E.last_start_ns = start;
	E.last_access_ns = t->now_ns;
	if (step < SIM_STEPS_LIMIT) {
		E.step_start[step] = start;
		E.step_cpu[step] = (uint16_t)t->cpu;
	}
}

/* The rest of step_inline for a solo step (solo_next): @t goes on. */
static inline __attribute__((always_inline))
bool step_solo(struct sim_task *t, int id)
{
	E.current = -1;
	E.last_ran = id;
	if (E.failed) {
		E.handoff = HANDOFF_STOP;
		return false;
	}
	E.inline_task = id;	/* a check's sim_fail leaves from here */
	run_checks();
	E.inline_task = -1;
	if (E.step >= E.steps_max) {
		fail_stuck();
		E.handoff = HANDOFF_STOP;
		return false;
	}
	choice_record(id, E.enabled_mask, id);
	E.solo_steps++;
	E.step++;
	E.chosen = id;
	E.current = id;
	step_begin_solo(t);
	return true;
}

/*
 * A solo step's fast path (issue 28, session 19), inlined in sim_point:
 * step_inline's work for the common solo step in one straight line, with
 * no call.  It applies when step_inline would take solo_next's kept
 * answer and step_solo would pass every check over and go on: task @t
 * (not an event) is the one kept alone (solo_id, no heap change since,
 * runnable, no spinner, its ready time after this step's end below the
 * kept bound), the checks read quiet since their last round with no
 * store, touch or exit since (run_checks' test, E.checks_quiet), no
 * order rule, no failure, and the step bound not reached.  Then the same
 * stores in the same order: step_end's books (the task's and the CPU's
 * times, the first-free CPU, the ready and end times, the step's end),
 * the heap entry's ready time (solo_next), the checks passed over, the
 * schedule's records (choice_record), the counts and step_begin_solo's
 * stores.  Otherwise false, having changed nothing: step_inline runs.
 * The exploring strategies never come here (E.incr: the timed one's).
 */
/*
 * A solo step's end (step_end's books for it, then solo_next's kept
 * answer): the task's and the CPU's times, the first-free CPU when
 * @update_min (solo_fast; the lean paths come here only when @t's CPU is
 * not the first-free one of several), the ready and end times, the
 * step's end, the top entry of @t's heap and the last task run.  A task
 * leaves its CPU busy until its now; an @event interrupted whatever ran
 * there: its CPU is busy @took more from its busy-until or the event's
 * start, whichever is later (step_end).  One helper for solo_fast,
 * solo_lean and solo_lean_event (session 24's D2).
 */
static inline __attribute__((always_inline))
void solo_step_end(struct sim_task *t, int id, uint64_t now, uint64_t ready,
		   uint64_t step, bool event, bool update_min)
{
	struct sim_clock_cpu *c = &sim_clock.cpu[t->cpu];
	uint64_t took = now - t->start_ns, prev = c->busy_until_ns;

	t->cpu_ns += took;
	c->busy_ns += took;
	if (event)
		c->busy_until_ns = (prev > t->start_ns ? prev : t->start_ns) +
				   took;
	else
		c->busy_until_ns = now;
	if (update_min && sim_clock.cpus > 1 &&
	    (unsigned int)t->cpu == sim_clock.min_cpu)
		sim_clock_update_min();
	t->ready_ns = ready;
	if (now > sim_clock.end_ns)
		sim_clock.end_ns = now;
	if (step <= SIM_STEPS_LIMIT)
		E.step_end[step - 1] = now;
	/* solo_next's kept answer */
	E.heap[event].e[0].ready_ns = ready;
	E.last_ran = id;
}

/* The rest of a solo step after the checks: the schedule's records, the
 * counts and step_begin_solo's stores, for step @step (an @event: no
 * slice, and at most 64 tasks, solo_lean_event's condition). */
static inline __attribute__((always_inline))
void solo_go(struct sim_task *t, int id, uint64_t step, uint64_t start,
	     bool event)
{
	struct sim_clock_cpu *c = &sim_clock.cpu[t->cpu];

	if (step < SIM_STEPS_LIMIT) {
		E.choices[step] = (uint16_t)id;
		E.enabled_sets[step] = E.enabled_mask;
		if (!event && __builtin_expect(E.task_count > 64, 0))
			E.defaults[step] = (uint16_t)default_choice_all(id);
		E.step_start[step] = start;
		E.step_cpu[step] = (uint16_t)t->cpu;
	}
	E.solo_steps++;
	E.step = step + 1;
	E.chosen = id;
	/* step_begin_solo */
	if (!event && start - c->slice_start_ns >= sim_clock.slice_ns)
		c->slice_start_ns = start;	/* a new slice */
	t->preempt_point = false;
	t->start_ns = start;
	t->now_ns = start + t->next_cost_ns;
	E.last_start_ns = start;
	E.last_access_ns = t->now_ns;
}

/* A solo step after a step the watches do not pass over: every check
 * runs first, on the scheduler's behalf (no current task), as in
 * step_solo. */
static inline __attribute__((always_inline))
bool solo_checked(struct sim_task *t, int id, uint64_t step, uint64_t start,
		  bool event)
{
	E.current = -1;
	E.inline_task = id;	/* a check's sim_fail leaves from here */
	if (sim_write_log.tagged_only)
		run_checks_tagged();
	else
		run_checks_all();
	E.inline_task = -1;
	E.current = id;
	solo_go(t, id, step, start, event);
	return true;
}

static inline __attribute__((always_inline))
bool solo_fast(struct sim_task *t, int id)
{
	uint64_t now = t->now_ns, ready = t->ready_ns, step = E.step;

	if (E.solo_id != id || E.solo_gen != E.heap_gen ||
	    t->state != TASK_RUNNABLE || t->is_event ||
	    E.order != ORDER_OFF || E.failed || step >= E.steps_max)
		return false;
	if (now > ready)
		ready = now;
	if (ready >= E.solo_until)
		return false;
	if (E.group_count) {
		if (!spin_groups_quiet())
			return false;
		E.solo_grouped++;
	}
	solo_step_end(t, id, now, ready, step, false, true);
	/* then step_solo's checks */
	if (!checks_pass()) {
		E.solo_fast++;
		return solo_checked(t, id, step, ready, false);
	}
	solo_go(t, id, step, ready, false);
	E.solo_fast++;
	return true;
}

/* solo_checked out of line, for solo_lean. */
static __attribute__((noinline))
void solo_checked_call(struct sim_task *t, int id, uint64_t step,
		       uint64_t start)
{
	(void)solo_checked(t, id, step, start, false);
}

/*
 * An event's solo step (session 24): what step_inline does for event @t
 * on solo_next's kept answer, in step_inline's order, when no call is
 * needed: step_end's books for an event (it interrupted whatever ran on
 * its CPU: that CPU is busy @took more from its busy-until or the
 * event's start, whichever is later), the event heap's top entry's ready
 * time (solo_next), step_solo's checks and records, and
 * step_begin_solo's stores for an event (it starts at its ready time on
 * no CPU of its own: no slice).  solo_lean comes here with solo_fast's
 * tests passed (the kept answer, no order rule, no failure, the step
 * bound not reached, @ready below the kept bound) and with no spin
 * group, no bound event (bound_steal), at most 64 tasks and the event's
 * CPU not the first-free one of several (sim_clock_update_min); the
 * checks' round, when the watches do not pass it over, out of line.
 */
/* solo_checked for an event, out of line. */
static __attribute__((noinline))
void solo_event_checked(struct sim_task *t, int id, uint64_t step,
			uint64_t start)
{
	(void)solo_checked(t, id, step, start, true);
}

static inline __attribute__((always_inline))
void solo_lean_event(struct sim_task *t, int id, uint64_t now,
		     uint64_t ready, uint64_t step)
{
	solo_step_end(t, id, now, ready, step, true, false);
	/* then step_solo's checks */
	E.solo_events++;
	if (__builtin_expect(!checks_pass(), 0)) {
		solo_event_checked(t, id, step, ready);
		return;
	}
	solo_go(t, id, step, ready, true);
}

/*
 * A solo step proved at the point (session 25): what step_inline does
 * when the kept answer is stale (the first point after a heap change,
 * or another task's or event's answer kept) and solo_next's full test
 * then proves @t alone, in step_inline's order: step_end's books
 * (solo_step_end), the full test's stores (the top entry's ready time,
 * the answer kept: the least ready time of the entries compared, the
 * heap's generation, @t), step_solo's checks, records and
 * step_begin_solo's stores (solo_go).  The full test reads only @t's
 * ready time after step_end (the later of its ready time and its now)
 * and the other entries, which step_end does not move (a bound event
 * may: bound_steal; not taken here), so it is asked first, before any
 * store.  It takes a task or an event that is runnable, at the top of
 * its heap, in no spin group, with solo steps on (E.solo), no spin group
 * at all (the full test's spin_groups_quiet), no order rule, no
 * failure, the step bound not reached and at most 64 tasks
 * (default_choice_all); as solo_lean, with no call but in tail position
 * (the checks' round out of line), unless @update_min: on the first-free
 * CPU of several, step_end's sim_clock_update_min, which reads only the
 * CPUs' busy-until times (solo_step_end calls it where step_end does),
 * in sim_point_prove_min.  Otherwise, having changed nothing,
 * sim_point_slow (step_inline, else a switch), as before.
 */
static __attribute__((noinline)) void sim_point_prove_min(struct sim_task *t,
							  int id, bool event);

static inline __attribute__((always_inline))
void solo_prove(struct sim_task *t, int id, bool event, bool update_min)
{
	struct task_heap *h = &E.heap[event];
	const struct task_heap *o = &E.heap[!event];
	uint64_t now = t->now_ns, ready = t->ready_ns, step = E.step;
	uint64_t until = UINT64_MAX;

	if (!E.solo || t->state != TASK_RUNNABLE || t->heap_pos != 0 ||
	    t->spin_group >= 0 || E.group_count || E.order != ORDER_OFF ||
	    E.failed || step >= E.steps_max || E.task_count > 64 ||
	    (event && t->bound))
		goto slow;
	if (!update_min && sim_clock.cpus > 1 &&
	    (unsigned int)t->cpu == sim_clock.min_cpu) {
		/* The first-free CPU's update is a call: the same path
		 * with it, out of line. */
		sim_point_prove_min(t, id, event);
		return;
	}
	if (now > ready)
		ready = now;
	/* solo_next's full test */
	if ((h->n > 1 && h->e[1].ready_ns <= ready) ||
	    (h->n > 2 && h->e[2].ready_ns <= ready) ||
	    (o->n && o->e[0].ready_ns <= ready))
		goto slow;
	if (h->n > 1)
		until = h->e[1].ready_ns;
	if (h->n > 2 && h->e[2].ready_ns < until)
		until = h->e[2].ready_ns;
	if (o->n && o->e[0].ready_ns < until)
		until = o->e[0].ready_ns;
	solo_step_end(t, id, now, ready, step, event, update_min);
	/* The answer kept for the next points (solo_next). */
	E.solo_until = until;
	E.solo_gen = E.heap_gen;
	E.solo_id = id;
	E.solo_proved++;
	if (__builtin_expect(!checks_pass(), 0)) {
		if (event)
			solo_event_checked(t, id, step, ready);
		else
			solo_checked_call(t, id, step, ready);
		return;
	}
	solo_go(t, id, step, ready, event);
	return;
slow:
	sim_point_slow(t, id);
}

/* solo_prove on the first-free CPU of several: with its update. */
static __attribute__((noinline)) void sim_point_prove_min(struct sim_task *t,
							  int id, bool event)
{
	if (event)
		solo_prove(t, id, true, true);
	else
		solo_prove(t, id, false, true);
}

/* sim_point_timed's path for a task whose kept answer is stale. */
static __attribute__((noinline)) void sim_point_prove(struct sim_task *t,
						      int id)
{
	solo_prove(t, id, false, false);
}

/*
 * sim_point_timed's path for an event: solo_lean_event where it applies
 * (solo_fast's tests but the event's, and the calls it would need: a spin
 * group, more than 64 tasks, a bound event, the first-free CPU of
 * several), else sim_point_slow (step_inline, else a switch), as before.
 */
static __attribute__((noinline)) void sim_point_event(struct sim_task *t,
						      int id)
{
	uint64_t now = t->now_ns, ready = t->ready_ns, step = E.step;

	if (E.solo_id != id || E.solo_gen != E.heap_gen) {
		solo_prove(t, id, true, false);	/* a stale answer (session 25) */
		return;
	}
	if (t->state != TASK_RUNNABLE || E.order != ORDER_OFF || E.failed ||
	    step >= E.steps_max || E.group_count || E.task_count > 64 ||
	    t->bound || (sim_clock.cpus > 1 &&
			 (unsigned int)t->cpu == sim_clock.min_cpu))
		goto slow;
	if (now > ready)
		ready = now;
	if (ready >= E.solo_until)
		goto slow;
	solo_lean_event(t, id, now, ready, step);
	return;
slow:
	sim_point_slow(t, id);
}

/*
 * solo_fast with no call but in tail position (session 22): a function
 * that calls nothing else saves no register, and solo_fast's caller
 * saved six and restored them on every solo step.  It takes only the
 * solo steps that need no call: no spin group (spin_groups_quiet), the
 * step's CPU not the first-free one of several (sim_clock_update_min),
 * at most 64 tasks (default_choice_all); then solo_fast's stores in
 * solo_fast's order, and after a step the watches do not pass over,
 * solo_checked out of line, as the tail.  Otherwise, having changed
 * nothing: where one of solo_fast's own tests fails, sim_point_slow
 * (step_inline, as solo_fast would have answered no); where only this
 * one's added ones do, sim_point_full (solo_fast, then step_inline): the
 * run is the same, byte for byte.
 */
static inline __attribute__((always_inline))
void solo_lean(struct sim_task *t, int id)
{
	uint64_t now = t->now_ns, ready = t->ready_ns, step = E.step;

	/* solo_fast's tests: where one fails, so does solo_fast. */
	if (E.solo_id != id || E.solo_gen != E.heap_gen ||
	    t->state != TASK_RUNNABLE || t->is_event ||
	    E.order != ORDER_OFF || E.failed || step >= E.steps_max)
		goto other;
	if (now > ready)
		ready = now;
	if (ready >= E.solo_until)
		goto slow;
	/* What solo_fast may take and this does not. */
	if (E.group_count || E.task_count > 64 ||
	    (sim_clock.cpus > 1 && (unsigned int)t->cpu == sim_clock.min_cpu))
		goto full;
	solo_step_end(t, id, now, ready, step, false, false);
	/* then step_solo's checks */
	E.solo_fast++;
	if (__builtin_expect(!checks_pass(), 0)) {
		solo_checked_call(t, id, step, ready);
		return;
	}
	solo_go(t, id, step, ready, false);
	return;
full:
	sim_point_full(t, id);
	return;
other:
	/* An event (session 24): its own path, out of line, so that a
	 * task's solo step saves no more registers than before. */
	if (t->is_event) {
		sim_point_event(t, id);
		return;
	}
	/* A stale answer, or one of the tests sim_point_prove asks
	 * again (session 25). */
	sim_point_prove(t, id);
	return;
slow:
	sim_point_slow(t, id);
}

/*
 * The timed fast path, on the context of task @id at its scheduling
 * point: end its step and choose the next as the scheduler would; true
 * when it is @id again (its step has begun: it goes on without a
 * switch).  Otherwise the scheduler is told what was done (E.handoff)
 * and takes over from there.
 */
static bool step_inline(int id)
{
	struct sim_task *t = &E.tasks[id];
	enum step_next next;

	step_end(t);
	if (solo_next(t, id))
		return step_solo(t, id);
	after_step_rest(id);
	if (E.failed) {
		E.handoff = HANDOFF_STOP;
		return false;
	}
	E.inline_task = id;	/* a check's sim_fail leaves from here */
	next = before_step();
	E.inline_task = -1;
	if (next == STEP_CHOSEN && E.chosen == id) {
		E.current = id;
		step_begin(&E.tasks[id], id);
		return true;
	}
	E.handoff = next == STEP_CHOSEN ? HANDOFF_CHOSEN :
		    next == STEP_END ? HANDOFF_END : HANDOFF_STOP;
	return false;
}

/*
 * ---- The snapshot after setup (include/sim/snapshot.h) -----------------
 *
 * A search's executions all begin with the same setup: the same objects
 * in the same order, the same arena allocations, tasks and checks.  The
 * first execution runs setup and keeps what it left; every later one
 * puts that back instead (issue 28, session 18).  Setup runs on the
 * scheduler (E.current < 0): it records no event, so the event log, the
 * hash, the order rule's stamps and DPOR's state have nothing of it.
 * Object names, args and checks of setup's ids are written only when
 * those ids register, which (no long run) an execution never does
 * again: their counts suffice.  Only under dfs and dpor, no long run,
 * the bump arena, and for a program that asked (sim_setup_snapshot_allow).
 */
static struct {
	const struct sim_program *program;	/* armed for, NULL: off */
	bool taken;
	uint32_t task_count;
	uint32_t object_count;
	uint32_t check_count;
	uint32_t active_count;
	uint32_t unwatched;		/* the checks' watches (h18-solo): */
	bool check_touched;		/* what setup's registrations left */
	bool need_all;
	uint64_t hash;
	uint64_t last_start_ns, last_access_ns;
	struct sim_task *tasks;		/* [task_count] */
	uint8_t *enabled_all;		/* [task_count] */
	/* The clock's CPUs and the write log: only what is used. */
	struct sim_clock_state clock;
	struct sim_write_log write_log;
} snap;

/* The part of the write log in use (all of it when it overflowed). */
static size_t write_log_bytes(const struct sim_write_log *log)
{
	uint32_t n = log->n < SIM_WRITES_LOG ? log->n : SIM_WRITES_LOG;

	return offsetof(struct sim_write_log, word) + n * sizeof(log->word[0]);
}

void sim_exec_setup_snapshot_begin(const struct sim_program *program,
				   const struct sim_strategy *strategy)
{
	enum sim_strategy_kind kind = strategy->kind;

	sim_exec_setup_snapshot_end();
	if (!sim_setup_snapshot_allowed(program->setup) ||
	    !sim_setup_snapshot_enabled() ||
	    (kind != SIM_STRATEGY_DPOR && kind != SIM_STRATEGY_DFS) ||
	    sim_arena_backend() != SIM_ARENA_BUMP)
		return;
	snap.program = program;
}

void sim_exec_setup_snapshot_end(void)
{
	snap.program = NULL;
	snap.taken = false;
	free(snap.tasks);
	free(snap.enabled_all);
	snap.tasks = NULL;
	snap.enabled_all = NULL;
	sim_arena_setup_drop();
	sim_lockdep_setup_drop();
	sim_snapshot_regions_clear();
}

/* Is this execution one the armed snapshot is for? */
static bool snapshot_for(const struct sim_program *program)
{
	return snap.program == program && !E.long_run && !E.incr &&
	       (E.strategy_kind == SIM_STRATEGY_DPOR ||
		E.strategy_kind == SIM_STRATEGY_DFS);
}

/* After the first setup: keep what it left (false: not kept). */
static bool snapshot_take(void)
{
	snap.task_count = E.task_count;
	snap.object_count = E.object_count;
	snap.check_count = E.check_count;
	snap.active_count = E.active_count;
	snap.unwatched = E.unwatched;
	snap.check_touched = sim_check_touched;
	snap.need_all = E.need_all;
	snap.hash = E.hash;
	snap.last_start_ns = E.last_start_ns;
	snap.last_access_ns = E.last_access_ns;
	memcpy(&snap.clock, &sim_clock, offsetof(struct sim_clock_state, cpu) +
	       sim_clock.cpus * sizeof(sim_clock.cpu[0]));
	snap.clock.min_cpu = sim_clock.min_cpu;
	snap.clock.end_ns = sim_clock.end_ns;
	snap.write_log.n = sim_write_log.n;
	memcpy(snap.write_log.word, sim_write_log.word,
	       write_log_bytes(&sim_write_log) -
	       offsetof(struct sim_write_log, word));
	snap.tasks = malloc((E.task_count ? E.task_count : 1) *
			    sizeof(*snap.tasks));
	snap.enabled_all = malloc(E.task_count ? E.task_count : 1);
	if (!snap.tasks || !snap.enabled_all)
		return false;
	memcpy(snap.tasks, E.tasks, E.task_count * sizeof(*snap.tasks));
	memcpy(snap.enabled_all, E.enabled_all, E.task_count);
	return sim_arena_setup_save() &&
	       sim_lockdep_setup_save(E.object_count) &&
	       sim_snapshot_regions_save();
}

/* Put back what the first setup left (instead of running it). */
static void snapshot_restore(void)
{
	sim_arena_setup_restore();
	E.task_count = snap.task_count;
	if (E.task_count > E.tasks_used)
		E.tasks_used = E.task_count;
	E.object_count = snap.object_count;
	E.check_count = snap.check_count;
	E.active_count = snap.active_count;
	E.unwatched = snap.unwatched;
	E.checks_quiet = false;
	sim_check_touched = snap.check_touched;
	E.need_all = snap.need_all;
	E.hash = snap.hash;
	E.last_start_ns = snap.last_start_ns;
	E.last_access_ns = snap.last_access_ns;
	memcpy(&sim_clock, &snap.clock, offsetof(struct sim_clock_state, cpu) +
	       snap.clock.cpus * sizeof(sim_clock.cpu[0]));
	sim_clock.min_cpu = snap.clock.min_cpu;
	sim_clock.end_ns = snap.clock.end_ns;
	sim_write_log.n = snap.write_log.n;
	memcpy(sim_write_log.word, snap.write_log.word,
	       write_log_bytes(&snap.write_log) -
	       offsetof(struct sim_write_log, word));
	for (uint32_t i = 0; i < snap.task_count; i++) {
		struct sim_task *t = &E.tasks[i];
		struct sim_stack stack = t->stack;

		*t = snap.tasks[i];
		t->stack = stack;
		sim_ctx_make(&t->ctx, &t->stack, task_entry);
	}
	memcpy(E.enabled_all, snap.enabled_all, snap.task_count);
	sim_lockdep_setup_restore(snap.task_count);
	sim_snapshot_regions_restore();
	sim_snapshot_counted_restore();
}

/* What sim_exec_run set before setup, and setup sets (no long run, no
 * timed strategy): setup may run again. */
static void setup_reset(void)
{
	sim_arena_reset();
	E.task_count = 0;
	E.object_count = 0;
	E.check_count = 0;
	E.active_count = 0;
	E.unwatched = 0;
	E.checks_quiet = false;
	sim_check_touched = false;
	E.need_all = false;
	for (uint32_t i = 0; i < E.tasks_used; i++)
		E.tasks[i].state = TASK_UNUSED;
	sim_clock_reset();
	sim_write_log.n = 0;
	sim_lockdep_setup_reset();
}

/*
 * Verification: the state the restore left against the state a real
 * setup leaves from the same start (this execution's); the real setup's
 * state is the one the execution goes on with.
 */
static void snapshot_verify(const struct sim_program *program)
{
	char why[256] = "";
	size_t differ, first;

	if ((sim_setup_snapshot_data_verified() &&
	     !sim_snapshot_data_take()) || !sim_snapshot_regions_seen()) {
		fail_here(SIM_FAIL_NONDETERMINISM, "setup snapshot: cannot "
			  "verify (no memory, or no __data_start)");
		return;
	}
	differ = sim_lockdep_setup_diff();
	if (differ)
		fail_here(SIM_FAIL_NONDETERMINISM, "setup snapshot: %zu rules "
			  "of setup's objects differ from the saved ones after "
			  "the restore", differ);
	setup_reset();
	program->setup(program->config);
	if (E.failed)
		return;
	differ = sim_arena_setup_diff(&first);
	if (differ)
		fail_here(SIM_FAIL_NONDETERMINISM, "setup snapshot: %zu bytes "
			  "of the arena differ from a real setup, the first "
			  "at offset %zu", differ, first);
	differ = sim_snapshot_regions_diff(why, sizeof(why));
	if (differ)
		fail_here(SIM_FAIL_NONDETERMINISM, "setup snapshot: %zu bytes "
			  "differ from a real setup, first in %s", differ,
			  why);
	differ = sim_snapshot_data_diff(why, sizeof(why));
	if (differ)
		fail_here(SIM_FAIL_NONDETERMINISM, "setup snapshot: %zu bytes "
			  "differ from a real setup, first in %s", differ,
			  why);
}

/* Setup, or the snapshot of it. */
static void run_setup(const struct sim_program *program)
{
	bool take;

	if (snapshot_for(program) && snap.taken) {
		snapshot_restore();
		if (sim_snapshot_verifying())
			snapshot_verify(program);
		return;
	}
	take = snapshot_for(program);
	sim_snapshot_regions_taking(take);
	program->setup(program->config);
	if (take && !E.failed && E.in_setup && !setup_names.filled) {
		/* The first setup of the search copied its names into the
		 * arena; the snapshot is of a setup like the later ones,
		 * whose names are the search's (setup_names). */
		setup_names_fill();
		if (setup_names.filled) {
			setup_reset();
			program->setup(program->config);
		}
	}
	sim_snapshot_regions_taking(false);
	if (take && !E.failed) {
		snap.taken = snapshot_take();
		if (!snap.taken)	/* no memory: setup every time */
			snap.program = NULL;
	}
}

/* The steps of one execution, after setup; failures longjmp out. */
static void run_steps(const struct sim_program *program)
{
	enum step_next next = before_step();

	while (next == STEP_CHOSEN) {
		int id = E.chosen;

		E.current = id;
		step_begin(&E.tasks[id], id);
		E.handoff = HANDOFF_NONE;
		sim_ctx_switch(&E.sched_ctx, &E.tasks[id].ctx);
		switch (E.handoff) {
		case HANDOFF_NONE:
			after_step(id);
			if (E.failed)
				return;
			next = before_step();
			break;
		case HANDOFF_CHOSEN:
			next = STEP_CHOSEN;
			break;
		case HANDOFF_END:
			next = STEP_END;
			break;
		case HANDOFF_STOP:
			next = STEP_STOP;
			break;
		}
		if (E.failed)
			return;
	}
	if (next == STEP_END && program->final)
		program->final(program->config);
}

void sim_exec_run(const struct sim_program *program,
		  struct sim_strategy *strategy,
		  const struct sim_exec_options *options,
		  struct sim_outcome *outcome)
{
	uint64_t steps_max = SIM_STEPS_MAX_DEFAULT;
	bool long_run = options && options->long_run;
	uint64_t limit = long_run ? SIM_STEPS_LONG_LIMIT : SIM_STEPS_LIMIT;

	engine_init_once();
	if (options && options->steps_max)
		steps_max = options->steps_max < limit ?
			    options->steps_max : limit;

	sim_arena_reset();
	memset(outcome, 0, sizeof(*outcome));
	outcome->failed_task = -1;
	E.outcome = outcome;
	E.failed = false;
	E.task_count = 0;
	E.current = -1;
	E.step = 0;
	E.event_count = 0;
	E.events_head = 0;
	E.events_dropped = 0;
	/*
	 * A long run's ring is the log's first 2 * SIM_EVENTS_LONG_WINDOW
	 * entries (session 14: the whole 8 MiB log as a ring missed the
	 * host's cache on every event); an execution of any other kind is
	 * bound by the whole log.
	 */
	E.events_max = long_run ? 2 * SIM_EVENTS_LONG_WINDOW :
		       2 * SIM_EVENTS_WINDOW;
	sim_exec_exits.exit_step = UINT64_MAX;
	sim_exec_exits.last_event_step = NO_EVENT_STEP;
	E.check_count = 0;
	E.active_count = 0;
	E.unwatched = 0;
	E.checks_quiet = false;
	E.checks_passed = 0;
	if (E.tagged_rounds) {
		E.tagged_rounds = 0;
		memset(E.tagged_passed, 0, sizeof(E.tagged_passed));
	}
	sim_check_touched = false;
	E.object_count = 0;
	E.objects_free_count = 0;
	E.tasks_free_count = 0;
	/* Entries 1..object_count are set as objects register: no clearing. */
	E.hash = 0xcbf29ce484222325ULL;
	E.hash_on = !(options && options->no_hash);
	E.log_on = !(options && options->no_log);
	E.solo_steps = 0;
	E.solo_grouped = 0;
	E.solo_fast = 0;
	E.solo_full = 0;
	E.solo_events = 0;
	E.solo_proved = 0;
	E.one_picks = 0;
	E.in_exec = true;
	E.strategy_kind = strategy->kind;
	E.long_run = long_run;
	E.tasks_limit = strategy->kind == SIM_STRATEGY_TIMED ||
			strategy->kind == SIM_STRATEGY_REPLAY ?
			SIM_IDS_LIMIT : SIM_TASKS_MAX;
	E.objects_limit = long_run ? SIM_OBJECTS_LONG_MAX + 1 :
			  SIM_OBJECTS_MAX;
	E.last_start_ns = 0;
	E.last_access_ns = 0;
	E.need_all = strategy->kind == SIM_STRATEGY_TIMED;
	order_begin(strategy->kind);
	/* sim_record's whole path: an order rule, a log or a hash. */
	E.record_full = E.order != ORDER_OFF || E.log_on || E.hash_on;
	incr_reset();
	for (uint32_t i = 0; i < E.tasks_used; i++)
		E.tasks[i].state = TASK_UNUSED;
	sim_clock_reset();
	sim_write_log.n = 0;
	sim_write_log.tagged_only = false;	/* write_log_mode */
	sim_lockdep_begin(options && options->keep_log);

	if (strategy->ops->begin)
		strategy->ops->begin(strategy);

	E.steps_max = steps_max;
	E.strategy = strategy;
	E.last_ran = -1;
	E.inline_task = -1;
	E.handoff = HANDOFF_NONE;
	if (setjmp(E.abort_jmp) == 0) {
		if (E.long_run && strategy->kind != SIM_STRATEGY_TIMED)
			fail_here(SIM_FAIL_BOUND, "a long run needs the timed "
				  "strategy (its schedule is not kept past "
				  "%u steps)", SIM_STEPS_LIMIT);
		else {
			/* A long run retires names: never shared ones. */
			E.in_setup = setup_names.on && !E.long_run;
			run_setup(program);
			E.in_setup = false;
			if (setup_names.on && !setup_names.filled &&
			    !E.long_run && !E.failed)
				setup_names_fill();
		}
		if (!E.failed)
			run_steps(program);
	}
	E.current = -1;
	E.in_exec = false;
	E.in_setup = false;	/* also after a failure in setup */
	outcome->steps = E.step;
	outcome->log_hash = E.hash_on ? E.hash : 0;
	outcome->end_ns = sim_clock.end_ns;
}

uint32_t sim_exec_schedule(const uint16_t **choices)
{
	*choices = E.choices;
	return E.step < SIM_STEPS_LIMIT ? (uint32_t)E.step : SIM_STEPS_LIMIT;
}

bool sim_exec_schedule_complete(void)
{
	return E.step <= SIM_STEPS_LIMIT;
}

size_t sim_exec_schedule_format(char *buf, size_t size)
{
	uint32_t steps = E.step < SIM_STEPS_LIMIT ? (uint32_t)E.step :
			 SIM_STEPS_LIMIT;
	uint32_t keep = 0;
	size_t len = 0;

	if (E.task_count <= 64)
		return sim_schedule_format(buf, size, E.choices,
					   E.enabled_sets, steps);
	/* Past 64 tasks the masks are partial: use the recorded defaults. */
	for (uint32_t i = 0; i < steps; i++)
		if (E.choices[i] != E.defaults[i])
			keep = i + 1;
	if (size)
		buf[0] = '\0';
	for (uint32_t i = 0; i < keep; i++) {
		uint32_t run = 1;

		while (i + run < keep && E.choices[i + run] == E.choices[i])
			run++;
		if (run < 3)
			run = 1;
		len += (size_t)snprintf(buf + (len < size ? len : size),
					len < size ? size - len : 0,
					run >= 3 ? "%s%u*%u" : "%s%u",
					i ? "." : "", E.choices[i], run);
		i += run - 1;
	}
	if (keep == 0)
		len = (size_t)snprintf(buf, size, "-");
	return len;
}

const uint64_t *sim_exec_enabled_sets(void)
{
	return E.enabled_sets;
}

uint32_t sim_exec_events(const struct sim_event **events)
{
	events_unwrap();
	*events = E.events;
	return E.event_count;
}

/* sim_exec_exit_in_last_step: inline in include/sim/engine.h, from the
 * last event's step that sim_record keeps (no read of the ring: the
 * checks ask after every step). */
struct sim_exec_exits sim_exec_exits;

uint64_t sim_exec_events_dropped(void)
{
	return E.events_dropped;
}

static void print_log(FILE *out, uint32_t from_step, bool times)
{
	for (uint32_t i = 0; i < E.event_count; i++) {
		const struct sim_event *ev = event_at(i);
		bool has_value = ev->access != SIM_ACCESS_NONE &&
				 ev->access != SIM_ACCESS_EXIT &&
				 ev->access != SIM_ACCESS_BLOCK;

		if (ev->step < from_step)
			continue;
		fprintf(out, "  %5u  ", ev->step);
		if (times)
			fprintf(out, "%12.3f %4u  ", (double)ev->t_ns / 1000.0,
				ev->cpu);
		fprintf(out, "%-10s %-9s %s", E.tasks[ev->task].name,
			access_names[ev->access],
			sim_exec_object_name(ev->object));
		if (ev->access == SIM_ACCESS_SPAWN ||
		    ev->access == SIM_ACCESS_WAKE)
			fprintf(out, " -> %s", sim_exec_task_name(
					       (uint32_t)ev->value));
		else if (has_value)
			fprintf(out, " = %lld", (long long)ev->value);
		fputc('\n', out);
	}
}

void sim_exec_print_log(FILE *out, uint32_t from_step)
{
	print_log(out, from_step, false);
}

void sim_exec_print_log_times(FILE *out, uint32_t from_step)
{
	print_log(out, from_step, true);
}

/* ---- Schedules ---------------------------------------------------------- */

static int default_choice(uint64_t enabled, int current)
{
	if (current >= 0 && current < 64 && (enabled & (1ULL << current)))
		return current;
	return enabled ? __builtin_ctzll(enabled) : -1;
}

int sim_choice_default(const struct sim_choice *c)
{
	if (c->task_count > 64 && c->enabled_all) {
		if (c->current >= 0 && c->enabled_all[c->current])
			return c->current;
		for (uint32_t i = 0; i < c->task_count; i++)
			if (c->enabled_all[i])
				return (int)i;
		return -1;
	}
	return default_choice(c->enabled, c->current);
}

/* The model the schedules of this process come from ("" = unnamed). */
static char schedule_origin[SIM_SCHEDULE_ORIGIN_MAX + 1];
/* The origin the last parsed schedule named ("" = none). */
static char parsed_origin[SIM_SCHEDULE_ORIGIN_MAX + 1];

void sim_schedule_set_origin(const char *origin)
{
	snprintf(schedule_origin, sizeof(schedule_origin), "%s",
		 origin ? origin : "");
}

const char *sim_schedule_origin(void)
{
	return schedule_origin;
}

const char *sim_schedule_parsed_origin(void)
{
	return parsed_origin;
}

static size_t schedule_format_body(char *buf, size_t size,
				   const uint16_t *choices,
				   const uint64_t *enabled, uint32_t steps)
{
	uint32_t keep = 0;
	size_t len = 0;
	int current = -1;

	for (uint32_t i = 0; i < steps; i++) {
		if (choices[i] != default_choice(enabled[i], current))
			keep = i + 1;
		current = choices[i];
	}
	if (size)
		buf[0] = '\0';
	for (uint32_t i = 0; i < keep; i++) {
		/* Measuring (buf NULL, size 0): no arithmetic on NULL. */
		char *at = len < size ? buf + len : NULL;
		uint32_t run = 1;

		while (i + run < keep && choices[i + run] == choices[i])
			run++;
		if (run >= 3) {
			len += (size_t)snprintf(at, at ? size - len : 0,
						"%s%u*%u", i ? "." : "",
						choices[i], run);
			i += run - 1;
		} else {
			len += (size_t)snprintf(at, at ? size - len : 0,
						"%s%u", i ? "." : "",
						choices[i]);
		}
	}
	if (keep == 0)
		len = (size_t)snprintf(buf, size, "-");
	return len;
}

size_t sim_schedule_format(char *buf, size_t size, const uint16_t *choices,
			   const uint64_t *enabled, uint32_t steps)
{
	size_t pre = 0;

	if (schedule_origin[0])
		pre = (size_t)snprintf(buf, size, "%s:", schedule_origin);
	if (pre < size)
		return pre + schedule_format_body(buf + pre, size - pre,
						  choices, enabled, steps);
	return pre + schedule_format_body(NULL, 0, choices, enabled, steps);
}

int sim_schedule_parse(const char *text, uint16_t *choices, uint32_t max,
		       uint32_t *count, const char **err)
{
	const char *p = text;

	*count = 0;
	*err = NULL;
	parsed_origin[0] = '\0';
	/* An origin: up to SIM_SCHEDULE_ORIGIN_MAX hex digits, then ':'. */
	if (strchr(text, ':')) {
		size_t n = strspn(text, "0123456789abcdef");

		if (n == 0 || n > SIM_SCHEDULE_ORIGIN_MAX || text[n] != ':') {
			*err = text + (n > SIM_SCHEDULE_ORIGIN_MAX ? 0 : n);
			return -EINVAL;
		}
		memcpy(parsed_origin, text, n);
		parsed_origin[n] = '\0';
		text += n + 1;
		p = text;
	}
	if (strcmp(text, "-") == 0 || *text == '\0')
		return 0;
	for (;;) {
		char *end;
		unsigned long task, run = 1;

		if (*p < '0' || *p > '9') {
			*err = p;
			return -EINVAL;
		}
		task = strtoul(p, &end, 10);
		p = end;
		if (*p == '*') {
			p++;
			if (*p < '0' || *p > '9') {
				*err = p;
				return -EINVAL;
			}
			run = strtoul(p, &end, 10);
			p = end;
		}
		/* run > max - *count, not *count + run > max: strtoul
		 * saturates at ULONG_MAX, and the sum would wrap. */
		if (run == 0) {
			*err = p;
			return -EINVAL;
		}
		if (task >= SIM_IDS_LIMIT || run > max - *count) {
			*err = p;
			return -ERANGE;
		}
		for (unsigned long i = 0; i < run; i++)
			choices[(*count)++] = (uint16_t)task;
		if (*p == '\0')
			return 0;
		if (*p != '.') {
			*err = p;
			return -EINVAL;
		}
		p++;
	}
}

uint32_t sim_schedule_preemptions(const uint16_t *choices,
				  const uint64_t *enabled, uint32_t steps)
{
	uint32_t count = 0;

	for (uint32_t i = 1; i < steps; i++)
		if (choices[i] != choices[i - 1] && choices[i - 1] < 64 &&
		    (enabled[i] & (1ULL << choices[i - 1])))
			count++;
	return count;
}

/* ---- Timed sleeps ----------------------------------------------------- */

enum { TIMEOUT_NONE, TIMEOUT_ARMED, TIMEOUT_FIRED };

/*
 * A sleep with a timeout: sim_task_block(), but when no task can run the
 * timeout fires (timeouts_fire) instead of a deadlock being reported.
 * Returns true if the timeout ended it, false if sim_task_wake() did.
 */
bool sim_task_block_timeout(uint32_t object)
{
	struct sim_task *t;
	bool fired;

	if (E.current < 0)
		sim_fail(SIM_FAIL_ASSERT, "sleeping outside a task (on %s)",
			 sim_exec_object_name(object));
	t = &E.tasks[E.current];
	t->timeout = TIMEOUT_ARMED;
	sim_task_block(object);
	fired = t->timeout == TIMEOUT_FIRED;
	t->timeout = TIMEOUT_NONE;
	return fired;
}

/*
 * No task can run: the timeout of every timed sleeper fires (the
 * scheduler, not a task, wakes them; each then runs in any order the
 * strategy picks).  Returns how many.
 */
static uint32_t timeouts_fire(void)
{
	uint32_t fired = 0;

	for (uint32_t i = 0; i < E.task_count; i++) {
		struct sim_task *t = &E.tasks[i];

		if (t->state != TASK_BLOCKED || t->timeout != TIMEOUT_ARMED)
			continue;
		t->timeout = TIMEOUT_FIRED;
		t->state = TASK_RUNNABLE;
		t->wait_object = 0;
		sync_task((int)i);
		fired++;
	}
	return fired;
}

/* ---- Event marks (sim_record_mark) -------------------------------------- */

void sim_record_mark(uint8_t mark)
{
	struct sim_event *ev;

	if (E.current < 0 || E.event_count == 0)
		return;
	ev = event_at(E.event_count - 1);
	if (ev->task == (uint16_t)E.current &&
	    ev->step == (uint32_t)(E.step - 1))
		ev->mark = mark;
}
