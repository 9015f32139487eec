// SPDX-License-Identifier: MIT
/*
 * sim/race.c - the data-race detector: vector clocks over one execution.
 *
 * Models: KCSAN's notion of a data race (Documentation/dev-tools/kcsan.rst
 * and tools/memory-model, v6.18): two accesses to one location by
 * different tasks, at least one a write and at least one plain (not
 * READ_ONCE/WRITE_ONCE, not atomic, not data_race()), that are not
 * ordered.  KCSAN samples and needs the two accesses to overlap in time;
 * here the rule is exact: every pair of conflicting accesses of an
 * execution is compared through happens-before, so one execution that
 * runs both accesses reports the race, whatever their order.
 *
 * Happens-before is program order plus: a task's spawn (or an event's
 * post) before its first step; a wake-up before the woken task goes on;
 * a lock's release before its next take (shared releases before the next
 * exclusive take); and, because the engine is sequentially consistent
 * and the model uses marked accesses for its flags, a marked access
 * (READ_ONCE, WRITE_ONCE, atomic, bit operation) orders like a fully
 * ordered one: a marked write releases its object, a marked read or RMW
 * acquires what the object's earlier marked writes released.  LKMM would
 * order only acquire/release and fenced accesses, so this finds a subset
 * of its races: never one LKMM does not have.
 *
 * Leaves out: executions of more than 64 tasks (not checked, said in the
 * report), range accesses (device sectors: DMA, not CPU accesses), and
 * the value-change filter of KCSAN (every unordered pair is reported).
 * Clocks are kept here, not taken from sim/dpor.c, so the detector runs
 * under every strategy.
 */
#include "sim/race.h"
#include "sim/lockdep.h"

#include <stdlib.h>
#include <string.h>

#define RC_TASKS	64
#define RC_SYNC_SLOTS	8192	/* open-addressed table of sync clocks */
#define RC_STACK_STEPS	4096	/* capture mode: stacks of the first steps */

typedef uint32_t vclock[RC_TASKS];

/* The latest access of one task to one object, by kind. */
struct last {
	uint32_t clk;	/* 0 = none */
	uint32_t step;
};

struct shadow {
	uint32_t gen;
	struct last read_any[RC_TASKS], read_plain[RC_TASKS];
	struct last write_any[RC_TASKS], write_plain[RC_TASKS];
};

struct sync {
	uint32_t gen;
	uint32_t object;
	vclock rel;		/* releases (exclusive) */
	vclock rel_shared;	/* shared releases since */
};

static bool race_on;

static struct {
	uint32_t gen;
	bool capture;
	bool overflow;		/* a task id >= RC_TASKS: not checked */
	uint32_t ntasks;
	vclock clock[RC_TASKS];
	struct shadow shadow[SIM_OBJECTS_MAX];
	struct sync sync[RC_SYNC_SLOTS];
	struct sim_call_stack *stacks;	/* capture mode, per step */
	/* The race found (capture mode), for the report. */
	bool found;
	uint32_t step[2];
	struct sim_call_stack now;
} R;

void sim_race_enable(bool on)
{
	race_on = on;
}

bool sim_race_enabled(void)
{
	return race_on;
}

void sim_race_begin(bool capture)
{
	R.gen++;
	if (R.gen == 0) {	/* wrapped: clear the tags once */
		memset(R.shadow, 0, sizeof(R.shadow));
		memset(R.sync, 0, sizeof(R.sync));
		R.gen = 1;
	}
	R.capture = capture && race_on;
	R.overflow = false;
	R.ntasks = 0;
	R.found = false;
	if (R.capture && !R.stacks)
		R.stacks = calloc(RC_STACK_STEPS, sizeof(*R.stacks));
}

/* The snapshot after setup (sim_lockdep_setup_save): the clocks of
 * setup's tasks. */
static struct {
	uint32_t ntasks;
	bool overflow;
	vclock *clock;
} setup_copy;

bool sim_race_setup_save(void)
{
	vclock *c;

	setup_copy.ntasks = R.ntasks;
	setup_copy.overflow = R.overflow;
	if (!R.ntasks)
		return true;
	c = realloc(setup_copy.clock, R.ntasks * sizeof(vclock));
	if (!c)
		return false;
	setup_copy.clock = c;
	memcpy(c, R.clock, R.ntasks * sizeof(vclock));
	return true;
}

void sim_race_setup_restore(void)
{
	R.ntasks = setup_copy.ntasks;
	R.overflow = setup_copy.overflow;
	if (R.ntasks)
		memcpy(R.clock, setup_copy.clock, R.ntasks * sizeof(vclock));
}

void sim_race_setup_reset(void)
{
	R.ntasks = 0;
	R.overflow = false;
}

void sim_race_task_spawned(int parent, int child)
{
	if (!race_on)
		return;
	if (child < 0 || child >= RC_TASKS) {
		R.overflow = true;
		return;
	}
	if ((uint32_t)child >= R.ntasks)
		R.ntasks = (uint32_t)child + 1;
	if (parent >= 0 && parent < RC_TASKS) {
		memcpy(R.clock[child], R.clock[parent], sizeof(vclock));
		R.clock[parent][parent]++;
	} else {
		memset(R.clock[child], 0, sizeof(vclock));
	}
	R.clock[child][child] = 1;
}

static void rc_join(uint32_t *into, const uint32_t *from)
{
	for (uint32_t i = 0; i < R.ntasks; i++)
		if (from[i] > into[i])
			into[i] = from[i];
}

static struct sync *rc_sync(uint32_t object)
{
	uint32_t h = (object * 2654435761u) % RC_SYNC_SLOTS;

	for (uint32_t n = 0; n < RC_SYNC_SLOTS; n++) {
		struct sync *s = &R.sync[(h + n) % RC_SYNC_SLOTS];

		if (s->gen != R.gen) {
			s->gen = R.gen;
			s->object = object;
			memset(s->rel, 0, sizeof(s->rel));
			memset(s->rel_shared, 0, sizeof(s->rel_shared));
			return s;
		}
		if (s->object == object)
			return s;
	}
	sim_fail(SIM_FAIL_BOUND, "data-race detector: more than %d lock and "
		 "flag objects", RC_SYNC_SLOTS);
}

static void rc_release(int t, uint32_t object, bool shared)
{
	struct sync *s = rc_sync(object);

	rc_join(shared ? s->rel_shared : s->rel, R.clock[t]);
	R.clock[t][t]++;
}

static void rc_acquire(int t, uint32_t object, bool exclusive)
{
	struct sync *s = rc_sync(object);

	rc_join(R.clock[t], s->rel);
	if (exclusive)
		rc_join(R.clock[t], s->rel_shared);
}

static void rc_fail(int t, uint32_t step, uint32_t object, bool write,
		    bool plain, int u, const struct last *was, bool was_write,
		    bool was_plain)
{
	if (R.capture) {
		R.found = true;
		R.step[0] = was->step;
		R.step[1] = step;
		sim_stack_capture(&R.now);
	}
	sim_fail(SIM_FAIL_RACE, "data race on %s: step %u %s %s (%s) and "
		 "step %u %s %s (%s), not ordered by happens-before",
		 sim_exec_object_name(object), was->step,
		 sim_exec_task_name((uint32_t)u), was_write ? "write" : "read",
		 was_plain ? "plain" : "marked", step,
		 sim_exec_task_name((uint32_t)t), write ? "write" : "read",
		 plain ? "plain" : "marked");
}

/* Is @a of task @u ordered before the running task @t's clock? */
static inline bool rc_before(const struct last *a, int u, int t)
{
	return a->clk == 0 || a->clk <= R.clock[t][u];
}

static inline bool rc_same(const struct last *a, const struct last *b)
{
	return a->clk == b->clk && a->step == b->step;
}

static void rc_access(int t, uint32_t step, uint32_t object, bool write,
		      bool plain)
{
	uint32_t id = SIM_OBJECT_BASE(object);
	struct shadow *sh;

	if (id >= SIM_OBJECTS_MAX)
		return;
	sh = &R.shadow[id];
	if (sh->gen != R.gen) {
		memset(sh, 0, sizeof(*sh));
		sh->gen = R.gen;
	}
	for (uint32_t u = 0; u < R.ntasks; u++) {
		const struct last *w, *r;

		if ((int)u == t)
			continue;
		/* A plain access races with any access, a marked one only
		 * with plain ones: the latest of each kind is enough. */
		w = plain ? &sh->write_any[u] : &sh->write_plain[u];
		if (!rc_before(w, (int)u, t))
			rc_fail(t, step, id, write, plain, (int)u, w, true,
				rc_same(w, &sh->write_plain[u]));
		if (!write)
			continue;
		r = plain ? &sh->read_any[u] : &sh->read_plain[u];
		if (!rc_before(r, (int)u, t))
			rc_fail(t, step, id, write, plain, (int)u, r, false,
				rc_same(r, &sh->read_plain[u]));
	}
	if (write) {
		sh->write_any[t] = (struct last){ R.clock[t][t], step };
		if (plain)
			sh->write_plain[t] = sh->write_any[t];
	} else {
		sh->read_any[t] = (struct last){ R.clock[t][t], step };
		if (plain)
			sh->read_plain[t] = sh->read_any[t];
	}
}

void sim_race_record(int t, uint32_t step, uint32_t object,
		     unsigned int access, uint64_t value, bool plain)
{
	if (!race_on || R.overflow)
		return;
	if (t < 0 || t >= RC_TASKS) {
		R.overflow = true;
		return;
	}
	if (R.capture && step < RC_STACK_STEPS && object &&
	    access <= SIM_ACCESS_ADD)
		sim_stack_capture(&R.stacks[step]);
	switch (access) {
	case SIM_ACCESS_READ:
	case SIM_ACCESS_WRITE:
	case SIM_ACCESS_RMW:
	case SIM_ACCESS_ADD:
		if (!object || (object & SIM_OBJECT_RANGE_FLAG))
			return;
		/* Marked accesses order like fully ordered ones; an add
		 * whose result nobody reads orders nothing. */
		if (!plain && (access == SIM_ACCESS_READ ||
			       access == SIM_ACCESS_RMW))
			rc_acquire(t, object, false);
		rc_access(t, step, object, access != SIM_ACCESS_READ, plain);
		if (!plain && (access == SIM_ACCESS_WRITE ||
			       access == SIM_ACCESS_RMW))
			rc_release(t, object, false);
		return;
	case SIM_ACCESS_ACQUIRE:
		rc_acquire(t, object, true);
		return;
	case SIM_ACCESS_ACQUIRE_SHARED:
		rc_acquire(t, object, false);
		return;
	case SIM_ACCESS_RELEASE:
		rc_release(t, object, false);
		return;
	case SIM_ACCESS_RELEASE_SHARED:
		rc_release(t, object, true);
		return;
	case SIM_ACCESS_WAKE:
		if (value < RC_TASKS) {
			rc_join(R.clock[value], R.clock[t]);
			R.clock[t][t]++;
		}
		return;
	default:
		return;
	}
}

void sim_race_report(FILE *out)
{
	if (!R.found)
		return;
	fprintf(out, "  data race: step %u (innermost first):\n", R.step[0]);
	if (R.step[0] < RC_STACK_STEPS && R.stacks)
		sim_stack_print(out, &R.stacks[R.step[0]], "    ");
	fprintf(out, "  data race: step %u (innermost first):\n", R.step[1]);
	sim_stack_print(out, &R.now, "    ");
}
