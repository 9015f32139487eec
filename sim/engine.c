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
 * Leaves out: true parallelism (tasks never overlap), preemption inside a
 * step (a step is atomic by construction), memory-model reorderings (the
 * model is sequentially consistent; kernel code under locks needs no more).
 */
#include "sim/engine.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "sim/arena.h"
#include "sim/ctx.h"
#include "sim/strategy.h"

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
	const uint64_t *spin_word;
	uint32_t wait_object;	/* what it sleeps or spins on */
	int locks_held;		/* engine spinlocks and mutexes */
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
	struct sim_task tasks[SIM_TASKS_MAX];
	uint32_t task_count;
	int current;		/* running task, -1 on the scheduler */
	uint32_t step;
	uint32_t steps_max;
	bool in_exec;

	struct sim_event *events;
	uint32_t event_count;
	uint32_t events_max;
	uint16_t *choices;
	uint64_t *enabled_sets;

	const char **object_names;
	uint32_t object_count;

	struct check checks[SIM_CHECKS_MAX];
	uint32_t check_count;

	struct sim_outcome *outcome;
	bool failed;
	jmp_buf abort_jmp;
	uint64_t hash;
} E;

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
	E.events_max = 4 * SIM_STEPS_LIMIT;
	E.events = calloc(E.events_max, sizeof(*E.events));
	E.choices = calloc(SIM_STEPS_LIMIT, sizeof(*E.choices));
	E.enabled_sets = calloc(SIM_STEPS_LIMIT, sizeof(*E.enabled_sets));
	if (!E.events || !E.choices || !E.enabled_sets) {
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
	if (E.current >= 0) {
		struct sim_task *t = &E.tasks[E.current];

		/* Leave the task's stack for good; the arena is reset. */
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

/* Object names of the current (or last) execution, in the arena. */
static const char *object_names_store[SIM_OBJECTS_MAX];

void sim_record(uint32_t object, enum sim_access access, uint64_t value)
{
	struct sim_event *ev;
	uint16_t task;

	if (E.current < 0)
		return;
	if (E.event_count == E.events_max)
		sim_fail(SIM_FAIL_BOUND, "more than %u events in one execution",
			 E.events_max);
	task = (uint16_t)E.current;
	ev = &E.events[E.event_count++];
	ev->step = E.step - 1;
	ev->task = task;
	ev->access = (uint8_t)access;
	ev->pad = 0;
	ev->object = object;
	ev->value = value;
	hash_event((uint64_t)task << 40 | (uint64_t)access << 32 | object,
		   value);
}

uint32_t sim_object_register(const char *fmt, ...)
{
	char name[96];
	va_list ap;

	if (!E.in_exec)
		return 0;
	if (E.object_count + 1 >= SIM_OBJECTS_MAX)
		sim_fail(SIM_FAIL_BOUND, "more than %d shared objects",
			 SIM_OBJECTS_MAX);
	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	E.object_count++;
	E.object_names[E.object_count] = sim_arena_strdup(name);
	return E.object_count;
}

const char *sim_exec_object_name(uint32_t object)
{
	static char with_bit[128];

	if (SIM_OBJECT_BASE(object) == 0 ||
	    SIM_OBJECT_BASE(object) > E.object_count || !E.object_names)
		return "-";
	if (object & SIM_OBJECT_RANGE_FLAG) {
		snprintf(with_bit, sizeof(with_bit), "%s[range]",
			 E.object_names[SIM_OBJECT_BASE(object)]);
		return with_bit;
	}
	if (object >> 16) {
		snprintf(with_bit, sizeof(with_bit), "%s:bit%u",
			 E.object_names[SIM_OBJECT_BASE(object)],
			 (object >> 16) - 1);
		return with_bit;
	}
	return E.object_names[object];
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

static int spawn(const char *name, sim_task_fn fn, void *arg, bool is_event)
{
	struct sim_task *t;
	int id;

	if (!E.in_exec)
		sim_fail(SIM_FAIL_BOUND, "sim_task_spawn outside an execution");
	if (E.task_count == SIM_TASKS_MAX)
		sim_fail(SIM_FAIL_BOUND, "more than %d tasks and events in one "
			 "execution (spawning %s)", SIM_TASKS_MAX, name);
	id = (int)E.task_count++;
	t = &E.tasks[id];
	if (!t->stack.map) {
		int err = sim_stack_map(&t->stack, SIM_STACK_BYTES);

		if (err) {
			fprintf(stderr, "wpsim: engine: cannot map a stack: %s\n",
				strerror(-err));
			exit(2);
		}
	}
	t->state = TASK_RUNNABLE;
	t->is_event = is_event;
	t->fn = fn;
	t->arg = arg;
	t->spin_word = NULL;
	t->wait_object = 0;
	t->locks_held = 0;
	snprintf(t->name, sizeof(t->name), "%s", name);
	sim_ctx_make(&t->ctx, &t->stack, task_entry);
	sim_record(0, SIM_ACCESS_SPAWN, (uint64_t)id);
	return id;
}

int sim_task_spawn(const char *name, sim_task_fn fn, void *arg)
{
	return spawn(name, fn, arg, false);
}

int sim_event_post(const char *name, sim_task_fn fn, void *arg)
{
	return spawn(name, fn, arg, true);
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

/* Give control back to the scheduler; returns when chosen again. */
static inline void yield_to_scheduler(void)
{
	struct sim_task *t = &E.tasks[E.current];

	sim_ctx_switch(&t->ctx, &E.sched_ctx);
}

void sim_point(uint32_t object, enum sim_access access)
{
	(void)object;
	(void)access;
	if (E.current < 0)
		return;
	yield_to_scheduler();
}

void sim_task_block(uint32_t object)
{
	struct sim_task *t;

	if (E.current < 0)
		sim_fail(SIM_FAIL_ASSERT, "sleeping outside a task (on %s)",
			 sim_exec_object_name(object));
	t = &E.tasks[E.current];
	sim_record(object, SIM_ACCESS_BLOCK, 0);
	t->state = TASK_BLOCKED;
	t->wait_object = object;
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

void sim_task_spin_until_zero(const uint64_t *word, uint32_t object)
{
	struct sim_task *t;

	if (E.current < 0)
		return;
	t = &E.tasks[E.current];
	t->state = TASK_SPIN;
	t->spin_word = word;
	t->wait_object = object;
	yield_to_scheduler();
	t->state = TASK_RUNNABLE;
	t->spin_word = NULL;
	t->wait_object = 0;
}

/* ---- Checks ------------------------------------------------------------- */

void sim_check_register(const char *name, sim_check_fn check,
			sim_dump_fn dump, void *arg)
{
	if (E.check_count == SIM_CHECKS_MAX)
		sim_fail(SIM_FAIL_BOUND, "more than %d checks", SIM_CHECKS_MAX);
	E.checks[E.check_count++] = (struct check){ name, check, dump, arg };
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

static void run_checks(void)
{
	for (uint32_t i = 0; i < E.check_count; i++)
		if (E.checks[i].check)
			E.checks[i].check(E.checks[i].arg);
}

/* ---- The execution loop ------------------------------------------------- */

static uint64_t enabled_set(bool *live)
{
	uint64_t enabled = 0;

	*live = false;
	for (uint32_t i = 0; i < E.task_count; i++) {
		struct sim_task *t = &E.tasks[i];

		switch (t->state) {
		case TASK_RUNNABLE:
			enabled |= 1ULL << i;
			*live = true;
			break;
		case TASK_SPIN:
			if (*t->spin_word == 0)
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
	return enabled;
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

/* The steps of one execution, after setup; failures longjmp out. */
static void run_steps(const struct sim_program *program,
		      struct sim_strategy *strategy, uint32_t steps_max)
{
	struct sim_outcome *outcome = E.outcome;
	int last = -1;

	for (;;) {
		struct sim_choice choice;
		uint64_t enabled;
		bool live;
		int next;

		run_checks();
		enabled = enabled_set(&live);
		if (!live)
			break;
		if (!enabled) {
			report_deadlock();
			return;
		}
		if (E.step >= steps_max) {
			fail_here(SIM_FAIL_STUCK,
				  "step bound reached: %u steps and tasks "
				  "still running (raise --steps or look for "
				  "a livelock)", steps_max);
			return;
		}
		choice.enabled = enabled;
		choice.current = last;
		choice.step = E.step;
		choice.task_count = E.task_count;
		next = strategy->ops->choose(strategy, &choice);
		if (next == SIM_CHOICE_PRUNE) {
			/* Every enabled task sleeps: a redundant execution. */
			outcome->pruned = true;
			return;
		}
		if (next < 0 || next >= SIM_TASKS_MAX ||
		    !(enabled & (1ULL << next))) {
			fail_here(SIM_FAIL_DIVERGED,
				  "schedule diverged at step %u: task %d is "
				  "not enabled (enabled set 0x%llx)", E.step,
				  next, (unsigned long long)enabled);
			return;
		}
		E.choices[E.step] = (uint16_t)next;
		E.enabled_sets[E.step] = enabled;
		if (last >= 0 && next != last && (enabled & (1ULL << last)))
			outcome->preemptions++;
		E.step++;
		E.current = next;
		sim_ctx_switch(&E.sched_ctx, &E.tasks[next].ctx);
		E.current = -1;
		last = next;
		if (E.failed)
			return;
	}
	if (program->final)
		program->final(program->config);
}

void sim_exec_run(const struct sim_program *program,
		  struct sim_strategy *strategy,
		  const struct sim_exec_options *options,
		  struct sim_outcome *outcome)
{
	uint32_t steps_max = SIM_STEPS_MAX_DEFAULT;

	engine_init_once();
	if (options && options->steps_max)
		steps_max = options->steps_max < SIM_STEPS_LIMIT ?
			    options->steps_max : SIM_STEPS_LIMIT;

	sim_arena_reset();
	memset(outcome, 0, sizeof(*outcome));
	outcome->failed_task = -1;
	E.outcome = outcome;
	E.failed = false;
	E.task_count = 0;
	E.current = -1;
	E.step = 0;
	E.event_count = 0;
	E.check_count = 0;
	E.object_count = 0;
	/* Entries 1..object_count are set as objects register: no clearing. */
	E.object_names = object_names_store;
	E.hash = 0xcbf29ce484222325ULL;
	E.in_exec = true;
	for (uint32_t i = 0; i < SIM_TASKS_MAX; i++)
		E.tasks[i].state = TASK_UNUSED;

	if (strategy->ops->begin)
		strategy->ops->begin(strategy);

	E.steps_max = steps_max;
	if (setjmp(E.abort_jmp) == 0) {
		program->setup(program->config);
		run_steps(program, strategy, E.steps_max);
	}
	E.current = -1;
	E.in_exec = false;
	outcome->steps = E.step;
	outcome->log_hash = E.hash;
}

uint32_t sim_exec_schedule(const uint16_t **choices)
{
	*choices = E.choices;
	return E.step;
}

const uint64_t *sim_exec_enabled_sets(void)
{
	return E.enabled_sets;
}

uint32_t sim_exec_events(const struct sim_event **events)
{
	*events = E.events;
	return E.event_count;
}

void sim_exec_print_log(FILE *out, uint32_t from_step)
{
	for (uint32_t i = 0; i < E.event_count; i++) {
		const struct sim_event *ev = &E.events[i];
		bool has_value = ev->access != SIM_ACCESS_NONE &&
				 ev->access != SIM_ACCESS_EXIT &&
				 ev->access != SIM_ACCESS_BLOCK;

		if (ev->step < from_step)
			continue;
		fprintf(out, "  %5u  %-10s %-9s %s", ev->step,
			E.tasks[ev->task].name, access_names[ev->access],
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

/* ---- Schedules ---------------------------------------------------------- */

static int default_choice(uint64_t enabled, int current)
{
	if (current >= 0 && (enabled & (1ULL << current)))
		return current;
	return enabled ? __builtin_ctzll(enabled) : -1;
}

int sim_choice_default(const struct sim_choice *c)
{
	return default_choice(c->enabled, c->current);
}

size_t sim_schedule_format(char *buf, size_t size, const uint16_t *choices,
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

int sim_schedule_parse(const char *text, uint16_t *choices, uint32_t max,
		       uint32_t *count, const char **err)
{
	const char *p = text;

	*count = 0;
	*err = NULL;
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
		if (task >= SIM_TASKS_MAX || run > max - *count) {
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
		if (choices[i] != choices[i - 1] &&
		    (enabled[i] & (1ULL << choices[i - 1])))
			count++;
	return count;
}
