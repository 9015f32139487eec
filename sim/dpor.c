// SPDX-License-Identifier: MIT
/*
 * sim/dpor.c - source-DPOR with sleep sets, and optimal DPOR's wakeup trees.
 *
 * Models: nothing of the kernel.  Follows Abdulla, Aronis, Jonsson and
 * Sagonas, "Optimal Dynamic Partial Order Reduction", POPL 2014, Algorithm
 * 1 (source sets + sleep sets), run statelessly like sim/dfs.c: one node
 * per step, each execution replays a prefix of choices.
 *
 * After each execution the race analysis walks the trace.  A step is a
 * transition; its footprint is the set of (object, read|add|write) pairs of
 * the events it recorded.  Two steps are dependent when they touch one
 * object and do not both only read it or both only add to it (adds whose
 * result nobody reads commute: sim_word_add_nr).  Happens-before is program order plus the order
 * of dependent steps, kept as vector clocks; a spawned task starts after
 * its spawn.  For each race (i, j) — dependent steps of different tasks,
 * i not ordered before j through any other step — the initials of
 * notdep(i).j are computed and, unless one of them is already in the
 * backtrack set of the node before i, one is added.
 *
 * Sleep sets: when a node's next choice q is explored after siblings, each
 * sibling p whose step is independent of q's step sleeps in the child, and
 * stays asleep down the branch while the steps taken are independent of
 * its own.  A node where every enabled task sleeps ends the execution as
 * redundant (SIM_CHOICE_PRUNE).
 *
 * Blocking: lock acquisition, sleeping and waking are writes to the lock
 * or wait-queue object (a wake-up that finds the queue empty reads it),
 * so a release and the acquire it enables are dependent.  Where a race's
 * initials are not enabled before i (a task blocked there), every enabled
 * task is added: conservative, still sound.
 *
 * Failures end executions: a failing assertion or check (or the step
 * bound) stops the execution after its last step f, so the other tasks'
 * next steps never run and the analysis, which sees only steps that ran,
 * would find no race between them and f, although f disabled them all
 * (and whether f fails depends on what the checks read).  So f's footprint
 * is "all" (it races with every step before it that is not ordered before
 * it, and sleeps in none of its siblings), and every other task enabled
 * before f goes into f's backtrack set (truncated_races).  Without this,
 * DPOR printed "Never ... exhaustive" for a state DFS reaches
 * (tests/dpor/missed-double-count.litmus).
 *
 * Checks see states between steps: two steps that commute per their
 * footprints give the same state after both, not the same state between
 * them.  So a check over several objects, or over a counter that
 * commuting adds move both ways, can hold in the explored order and fail
 * in the other (docs/architecture.md, "What DPOR does not cover").
 *
 * Preemption bound (sim_strategy_dpor_bounded): alternatives that would
 * exceed the bound are cut (bound_hit), each race also adds its task at
 * the start of the block the race's first step is in (add_block_start,
 * after Coons et al.), and sleep sets are off.  Within the bound every
 * state DFS with the same bound reaches is reached (tests/engine/
 * test_dpor.c checks it against DFS on the random corpus).
 *
 * Lock-aware reduction (unbounded only; lock_sections()): the take and
 * the release of a flat section (an exclusive section taken by a take
 * that waits for the lock: spin_lock, mutex_lock, an rwlock's write
 * lock, a bit lock's take (sim_bitlock_take, marked events); no lock
 * taken, waited for or slept on inside but the takes of flat sections
 * nested in it, and those only where the trace's lock order has no
 * cycle through its lock; released by the
 * task in the trace, leaving the lock free) commute with another flat
 * section's in the race analysis, so two such sections on one lock are
 * run in one order unless their accesses race; a race that needs a take
 * of a lock held at its first step is reversed at that section's take
 * (or, held by a third task, by letting it finish first).  Sleep sets
 * keep the plain dependency (a take is a write of the lock): sound, but
 * some more executions end redundant.  Soundness:
 * docs/architecture.md, "Lock-aware reduction".
 *
 * Optimal DPOR (sim_dpor_set_optimal, --wakeup-trees; unbounded, not an
 * item of a split search; wut_*): each
 * node keeps a wakeup tree of the step sequences its races ask for
 * (Abdulla et al., JACM 2017, Algorithm 2), so a reversed race runs the
 * steps that lead to it rather than one initial and then the default
 * choice; no execution ends with every task asleep unless steps block or
 * fail.  Lock-aware cases beyond a sequence stay source entries (one
 * task); docs/architecture.md, "Optimal DPOR: wakeup trees".
 *
 * rwlock read sections are flat (a blocking read take that found the
 * lock free, the shared release, nothing nested) only when the trace
 * has no trylock and no downgrade of their lock (read_sections_ok): a
 * reader that waits for a writer is seen by a later read trylock, which
 * a reader holding the lock is not (tests/engine/test_dpor.c,
 * waiter_registration_is_seen_by_a_trylock), and nothing else reads the
 * waiter count; not with wakeup trees.
 *
 * Leaves out: read sections of a lock with a trylock or a downgrade in
 * the trace, read sections with nested ones; trylock sections, a mutex
 * hand-off and a downgrade (not flat); a bit taken by a plain
 * test-and-set (a trylock: not flat).
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "sim/shared.h"
#include "sim/dpor.h"
#include "sim/strategy.h"

#define FOOTPRINT_OBJECTS 6	/* more: the step conflicts with all */

/* How a step touches an object: reads commute, adds commute. */
/*
 * How a step touches an object: reads commute, adds commute, and the take
 * and release of a spinlock around a flat critical section (lock-aware
 * reduction, lock_sections()) commute with each other's, in the race
 * analysis only.
 */
enum touch { TOUCH_READ = 1, TOUCH_ADD = 2, TOUCH_WRITE = 3, TOUCH_LOCK = 4 };

struct footprint {
	uint32_t object[FOOTPRINT_OBJECTS];
	/* SIM_OBJECT_RANGE entries: the elements touched, [first, last]. */
	uint32_t first[FOOTPRINT_OBJECTS], last[FOOTPRINT_OBJECTS];
	uint8_t touch[FOOTPRINT_OBJECTS];	/* enum touch */
	uint8_t count;
	bool all;		/* too many objects: dependent on everything */
};

struct dpor_node {
	uint64_t enabled;
	uint64_t done;
	uint64_t backtrack;
	uint64_t sleep;
	uint32_t preemptions;	/* in the schedule before this node */
	uint16_t chosen;
	int16_t current;
	bool spin;		/* the chosen task waited in spin_lock */
	bool blocking;		/* it was at a blocking take (mutex, rwlock) */
	/*
	 * Optimal DPOR: the wakeup tree of this node is the children of
	 * wakeup node wroot; wcur is the child being explored (the first),
	 * and the next node's wroot.
	 */
	int32_t wroot, wcur;
	/* Footprint of each task's step at this node (done or asleep). */
	struct footprint fp[SIM_TASKS_MAX];
};

struct sim_dpor {
	int64_t bound;		/* preemption bound, -1 = none */
	struct dpor_node *nodes;
	uint32_t nodes_max;
	uint32_t prefix;
	uint32_t depth;
	/* Race analysis scratch, sized to the deepest execution. */
	struct footprint *step_fp;
	uint16_t (*clock)[SIM_TASKS_MAX];
	uint16_t *local_index;
	uint32_t *acquired;	/* per step: lock object acquired, or 0 */
	/* Per step: lock object taken (either mode), or 0. */
	uint32_t *took;
	/*
	 * Lock-aware reduction: per step, the spinlock whose flat section
	 * it takes or releases (0: none); the same from the execution
	 * before (to see where the analysis must start again); the lock
	 * object a step releases.
	 */
	bool lock_aware;
	/* Exclusive sections of locks with a take only: no bit lock's, no
	 * read sections (sim_dpor_default_lock_sections). */
	bool plain_sections;
	uint32_t *relaxed, *relaxed_next;
	uint32_t *released;
	uint32_t *released_shared;	/* per step: read section released */
	uint64_t relaxed_pairs;	/* take pairs left unreversed */
	uint32_t *deps;		/* per step scratch: dependent earlier steps */
	/*
	 * The race analysis's index of earlier steps by object (deps_of()):
	 * per footprint entry (step * FOOTPRINT_OBJECTS + entry) the one
	 * before it on the same object, per object the latest, per step
	 * whose footprint is "all" the one before; each + 1, 0 = none.
	 */
	uint32_t *fp_prev;
	uint32_t *all_prev;
	uint32_t fp_last[SIM_OBJECTS_MAX];
	uint32_t all_last;
	bool index_off;		/* an object id past SIM_OBJECTS_MAX */
	int32_t last_acquire[SIM_OBJECTS_MAX];	/* per object: step + 1 */
	/* Shared takes of a lock since its last exclusive take: the latest
	 * per object, and per step the one before it (step + 1, 0 = none). */
	int32_t last_shared[SIM_OBJECTS_MAX];
	uint32_t *prev_shared;
	uint32_t ntasks;	/* tasks of the execution being analysed */
	/*
	 * The analysis of steps [0, valid_steps) of the last execution
	 * (footprints, clocks, local indices, acquisitions) with
	 * valid_ntasks tasks.  The next execution replays a prefix of it,
	 * so only the steps after the replayed part are analysed again.
	 */
	uint32_t valid_steps;
	uint32_t valid_ntasks;
	uint32_t scratch_max;
	uint64_t races;
	uint64_t pruned;
	/*
	 * One item of a split search (sim_strategy_dpor_item): nodes below
	 * root are a fixed prefix, node root starts with root_sleep (the
	 * sleeping tasks' footprints in root_fp), no backtrack entry goes
	 * above it and the search ends when backtracking would.
	 */
	uint32_t root;
	uint64_t root_sleep;
	struct footprint *root_fp;
	bool root_pending;	/* root_sleep not yet put at node root */
	/*
	 * Optimal DPOR (wakeup trees, unbounded classic search only): every
	 * node's wakeup tree lives in one pool; wut_root is node 0's wroot.
	 */
	bool optimal;
	struct wut *wut;
	uint32_t wut_len, wut_max;
	int32_t wut_free, wut_root;
	uint32_t *wut_stack;	/* scratch of wut_free_subtree */
	uint32_t wut_stack_max;
	uint32_t *seq, *full;	/* scratch: the sequences of a race */
	uint8_t *gone;		/* scratch: steps of seq matched */
	int32_t spawned_at[SIM_TASKS_MAX];	/* step, or -1: by setup */
	/*
	 * lock_sections()'s steps that have a lock's event (the others
	 * change nothing there): per entry the step and its events [start,
	 * end) in the log, ascending.  The entries of the steps the next
	 * execution replays are kept (the same events at the same places
	 * of the log), so an analysis scans only the new steps' events
	 * (sec_steps()).  @sec_bits: section_access()'s @bits they were
	 * built with.  @taints: the step has an event that makes its lock's
	 * read sections not flat (sec_taints()), so lock_sections()'s first
	 * pass looks only at those entries.
	 */
	struct sec_step {
		uint32_t step, start, end, taints;
	} *sec;
	uint32_t nsec, sec_max;
	bool sec_bits;
	/* The same scan's spawns, in the log's order: step and task id. */
	struct spawn_step {
		uint32_t step, id;
	} *spw;
	uint32_t nspw, spw_max;
	/*
	 * wut_insert_race: the id a task spawned after the race's node
	 * (xlate_from) gets down the tree path being matched (-1: not
	 * spawned there yet).
	 */
	int16_t idmap[SIM_TASKS_MAX];
	uint32_t xlate_from;
	bool xlate;
	uint64_t wut_fallbacks;	/* a sequence could not be followed */
	/*
	 * Depths above root whose node the split's coordinator owns
	 * (sorted): a race reversed there is forwarded (item_request),
	 * in req, instead of dropped.
	 */
	uint32_t *fwd;
	uint32_t nfwd, fwd_cap;
	struct dpor_request *req;
	uint32_t nreq, req_cap;
};

/*
 * A node of a wakeup tree: the next step of @task, with the footprint it
 * had when observed (unknown for the racing step of an inserted
 * sequence, whose footprint may change once it runs before the step it
 * raced with, and for entries added without a sequence).
 */
struct wut {
	int32_t child, sibling;	/* -1: none */
	uint16_t task;
	bool known;		/* fp is the step's footprint */
	uint32_t take;		/* the lock of the flat section it takes */
	uint8_t spawns;		/* tasks the step spawns */
	struct footprint fp;
};

/* A race of an item to reverse above its root (item_request). */
struct dpor_request {
	uint32_t depth;
	uint32_t all;		/* add all of set, not one of it */
	uint64_t set;		/* the initials (or the tasks to add) */
};

static bool item_forwards(const struct sim_dpor *d, uint32_t i);
static void item_request(struct sim_dpor *d, uint32_t i, uint64_t set,
			 bool all);

static enum touch touch_of(uint8_t access)
{
	switch (access) {
	case SIM_ACCESS_READ:
	case SIM_ACCESS_NONE:
	case SIM_ACCESS_ACQUIRE_FAIL:
		return TOUCH_READ;
	case SIM_ACCESS_ADD:
	case SIM_ACCESS_ACQUIRE_SHARED:
	case SIM_ACCESS_RELEASE_SHARED:
		return TOUCH_ADD;
	default:
		return TOUCH_WRITE;
	}
}

static void footprint_add(struct footprint *fp, const struct sim_event *ev)
{
	uint32_t object = ev->object;
	enum touch touch = touch_of(ev->access);
	bool range = object & SIM_OBJECT_RANGE_FLAG;
	uint32_t first = range ? (uint32_t)(ev->value >> 32) : 0;
	uint32_t last = range ? (uint32_t)ev->value : 0;

	if (object == 0 || fp->all)
		return;
	for (unsigned int k = 0; k < fp->count; k++) {
		if (fp->object[k] == object) {
			/* A read and an add of one word in a step: a write. */
			if (fp->touch[k] != touch)
				fp->touch[k] = TOUCH_WRITE;
			/* Two ranges of one object: their hull (sound). */
			if (range && first < fp->first[k])
				fp->first[k] = first;
			if (range && last > fp->last[k])
				fp->last[k] = last;
			return;
		}
	}
	if (fp->count == FOOTPRINT_OBJECTS) {
		fp->all = true;
		return;
	}
	fp->object[fp->count] = object;
	fp->first[fp->count] = first;
	fp->last[fp->count] = last;
	fp->touch[fp->count] = (uint8_t)touch;
	fp->count++;
}

/*
 * Entries x of @a and y of @b name one piece of memory: the same word and
 * either a whole-word access or the same bit; two ranges of one array
 * overlap.  A range against a whole-word or bit access conflicts.
 */
static bool same_object(const struct footprint *a, unsigned int x,
			const struct footprint *b, unsigned int y)
{
	uint32_t p = a->object[x], q = b->object[y];

	if (SIM_OBJECT_BASE(p) != SIM_OBJECT_BASE(q))
		return false;
	if ((p & SIM_OBJECT_RANGE_FLAG) && (q & SIM_OBJECT_RANGE_FLAG))
		return a->first[x] <= b->last[y] && b->first[y] <= a->last[x];
	return !(p >> SIM_OBJECT_BIT_SHIFT) || !(q >> SIM_OBJECT_BIT_SHIFT) ||
	       p == q ||
	       ((p | q) & SIM_OBJECT_RANGE_FLAG);
}

static bool dependent(const struct footprint *a, const struct footprint *b)
{
	if ((a->all && (b->count || b->all)) || (b->all && a->count))
		return true;
	for (unsigned int x = 0; x < a->count; x++)
		for (unsigned int y = 0; y < b->count; y++)
			if ((a->touch[x] == TOUCH_WRITE ||
			     a->touch[x] != b->touch[y]) &&
			    same_object(a, x, b, y))
				return true;
	return false;
}

/*
 * Footprint of @step from the engine's event log (events are in order):
 * its events are at the end when called during a run.  analyse() copies
 * it (the events' order within a step does not matter to dependent(),
 * the index or the flat sections' marks).
 */
static void step_footprint(uint32_t step, struct footprint *fp)
{
	const struct sim_event *events;
	uint32_t n = sim_exec_events(&events);

	fp->count = 0;		/* entries past count are never read */
	fp->all = false;
	for (uint32_t k = n; k-- > 0;) {
		if (events[k].step < step)
			break;
		if (events[k].step == step)
			footprint_add(fp, &events[k]);
	}
}

static void grow(struct sim_dpor *d, uint32_t need)
{
	if (need <= d->nodes_max)
		return;
	uint32_t n = d->nodes_max ? d->nodes_max : 256;

	while (n < need)
		n *= 2;
	d->nodes = realloc(d->nodes, n * sizeof(*d->nodes));
	if (!d->nodes) {
		fprintf(stderr, "wpsim: dpor: out of memory\n");
		exit(2);
	}
	d->nodes_max = n;
}

/* Is step @i ordered before the step whose vector clock is @clock? */
static bool hb(const struct sim_dpor *d, const uint16_t *clock, uint32_t i,
	       const uint16_t *choices)
{
	return clock[choices[i]] >= d->local_index[i];
}

/*
 * Wakeup trees (optimal DPOR: Abdulla, Aronis, Jonsson and Sagonas,
 * "Source Sets: A Foundation for Optimal Dynamic Partial Order
 * Reduction", JACM 64(4), 2017, Algorithm 2).  A node's wakeup tree holds
 * the sequences of steps the race analysis asked to run from it, as an
 * ordered tree of task ids; the search always explores a node's first
 * child and follows its subtree down the next execution, so a reversed
 * race runs the steps that lead to it, in the order that reaches it,
 * rather than one initial followed by whatever the default choice does
 * (which can end in a node where every task sleeps: source-DPOR's
 * redundant executions).  One pool; freed nodes are chained by sibling.
 */
static void wut_grow(struct sim_dpor *d)
{
	uint32_t n = d->wut_max ? d->wut_max * 2 : 1024;

	d->wut = realloc(d->wut, n * sizeof(*d->wut));
	if (!d->wut) {
		fprintf(stderr, "wpsim: dpor: out of memory\n");
		exit(2);
	}
	d->wut_max = n;
}

static int32_t wut_new(struct sim_dpor *d, uint16_t task,
		       const struct footprint *fp)
{
	int32_t x = d->wut_free;

	if (x >= 0) {
		d->wut_free = d->wut[x].sibling;
	} else {
		if (d->wut_len == d->wut_max)
			wut_grow(d);
		x = (int32_t)d->wut_len++;
	}
	d->wut[x].child = -1;
	d->wut[x].sibling = -1;
	d->wut[x].task = task;
	d->wut[x].known = fp != NULL;
	d->wut[x].take = 0;
	d->wut[x].spawns = 0;
	if (fp)
		d->wut[x].fp = *fp;
	return x;
}

/* Free @x and everything below it (not its siblings). */
static void wut_free_subtree(struct sim_dpor *d, int32_t x)
{
	uint32_t top = 0;

	if (x < 0)
		return;
	if (d->wut_stack_max < d->wut_len) {
		d->wut_stack_max = d->wut_len;
		d->wut_stack = realloc(d->wut_stack, d->wut_stack_max *
				       sizeof(*d->wut_stack));
		if (!d->wut_stack) {
			fprintf(stderr, "wpsim: dpor: out of memory\n");
			exit(2);
		}
	}
	d->wut_stack[top++] = (uint32_t)x;
	while (top) {
		int32_t y = (int32_t)d->wut_stack[--top];

		for (int32_t c = d->wut[y].child; c >= 0; c = d->wut[c].sibling)
			d->wut_stack[top++] = (uint32_t)c;
		d->wut[y].sibling = d->wut_free;
		d->wut_free = y;
	}
}

/* Take @r's first child (and its subtree) out of the tree. */
static void wut_remove_first(struct sim_dpor *d, int32_t r)
{
	int32_t c = d->wut[r].child;

	if (c < 0)
		return;
	d->wut[r].child = d->wut[c].sibling;
	wut_free_subtree(d, c);
}

/* Append a child for @task to @r, as its last. */
static int32_t wut_append(struct sim_dpor *d, int32_t r, uint16_t task,
			  const struct footprint *fp)
{
	int32_t x = wut_new(d, task, fp), *link = &d->wut[r].child;

	while (*link >= 0)
		link = &d->wut[*link].sibling;
	*link = x;
	return x;
}

/*
 * Source-DPOR's entry in a wakeup tree: @task alone, as a leaf of node
 * @i's tree, unless it is explored there or already asked for.
 */
static void wut_add_task(struct sim_dpor *d, uint32_t i, unsigned int task)
{
	struct dpor_node *n = &d->nodes[i];

	if ((n->done | n->sleep) & (1ULL << task))
		return;
	for (int32_t c = d->wut[n->wroot].child; c >= 0;
	     c = d->wut[c].sibling)
		if (d->wut[c].task == task)
			return;
	wut_append(d, n->wroot, (uint16_t)task, NULL);
	n->backtrack |= 1ULL << task;
}

/* Every enabled task not explored at node @i and not asleep there. */
static void wut_expand(struct sim_dpor *d, uint32_t i)
{
	const struct dpor_node *n = &d->nodes[i];

	for (uint64_t m = n->enabled & ~n->done & ~n->sleep; m; m &= m - 1)
		wut_add_task(d, i, (unsigned int)__builtin_ctzll(m));
	d->wut_fallbacks++;
}

/*
 * Did step @k spin on a held lock?  Spinning records nothing until the
 * lock is taken, so in another order the task's step there may be the
 * take itself: its footprint is not known to be the one observed.
 */
static bool spun(const struct sim_dpor *d, uint32_t k)
{
	return d->nodes[k].spin && !d->step_fp[k].count && !d->step_fp[k].all;
}

/* The lock of the flat section step @k takes (lock_sections()), or 0. */
static uint32_t flat_take(const struct sim_dpor *d, uint32_t k)
{
	return d->relaxed[k] && d->acquired[k] == d->relaxed[k] ?
	       d->relaxed[k] : 0;
}

/* Does the footprint of step @k touch object @lock? */
static bool touches(const struct sim_dpor *d, uint32_t k, uint32_t lock)
{
	const struct footprint *fp = &d->step_fp[k];

	if (fp->all)
		return true;
	for (unsigned int x = 0; x < fp->count; x++)
		if (fp->object[x] == lock)
			return true;
	return false;
}

/*
 * The task of step @k as the tree path being matched names it: a task
 * spawned after the race's node gets its id from the order of spawns on
 * that path (ids are handed out in spawn order), not the execution's.
 */
static int task_of(const struct sim_dpor *d, uint32_t k,
		   const uint16_t *choices)
{
	unsigned int t = choices[k];

	if (!d->xlate || d->spawned_at[t] < (int32_t)d->xlate_from)
		return (int)t;
	return d->idmap[t];
}

/* Step @k's spawns take the next ids of the path (wut_insert_race). */
static void path_spawns(struct sim_dpor *d, uint32_t k, int *next)
{
	for (uint32_t c = 0; c < d->ntasks; c++)
		if (d->spawned_at[c] == (int32_t)k)
			d->idmap[c] = (int16_t)(*next)++;
}

/* How many tasks step @k spawned. */
static uint8_t step_spawns(const struct sim_dpor *d, uint32_t k)
{
	uint8_t n = 0;

	for (uint32_t c = 0; c < d->ntasks; c++)
		n += d->spawned_at[c] == (int32_t)k;
	return n;
}

/*
 * Is @task a weak initial of the sequence @seq (steps of the execution
 * just analysed; @gone marks the ones already matched): its first step
 * in the sequence has no step of the sequence ordered before it, or it
 * has none there and its next step, of footprint @fp (NULL: unknown),
 * is independent of every step of the sequence.  With the lock-aware
 * reduction two flat sections on one lock commute as wholes, not step by
 * step: a flat take (@take: its lock, or 0) cannot go before a sequence
 * that touches the lock (the section there may hold it), nor a take in
 * the sequence before another task's take of the lock earlier in it
 * (as source-DPOR's walk of initials has it).
 */
static bool weak_initial(const struct sim_dpor *d, unsigned int task,
			 const struct footprint *fp, uint32_t take,
			 const uint32_t *seq, uint32_t len,
			 const uint8_t *gone, const uint16_t *choices)
{
	for (uint32_t x = 0; x < len; x++) {
		uint32_t lock;

		if ((gone && gone[x]) || task_of(d, seq[x], choices) != (int)task)
			continue;
		lock = flat_take(d, seq[x]);
		for (uint32_t y = 0; y < x; y++) {
			if (gone && gone[y])
				continue;
			if (hb(d, d->clock[seq[x]], seq[y], choices))
				return false;
			if (lock && flat_take(d, seq[y]) == lock)
				return false;
		}
		return true;
	}
	if (!fp || fp->all)
		return false;
	for (uint32_t x = 0; x < len; x++) {
		if (gone && gone[x])
			continue;
		if (dependent(fp, &d->step_fp[seq[x]]))
			return false;
		if (take && touches(d, seq[x], take))
			return false;
	}
	return true;
}

/*
 * Optimal DPOR's handling of a race at node @i: @full is notdep(i).j
 * (the steps after i not ordered after it, then j), @seq the sequence to
 * run (the same, or with the lock-aware reduction the steps of it j
 * depends on: a weak prefix of @full, since the steps left out are not
 * ordered before any step kept).  If a task asleep or explored at i is
 * a weak initial of @full, the reversed race is covered there (JACM'17,
 * Algorithm 2, line 11).  Otherwise @seq is inserted into i's wakeup
 * tree: down the children that are weak initials of what is left of it,
 * and unless that ends at a leaf (covered), the rest hangs as a new
 * branch, last among its siblings.  A task spawned after node i is named
 * by the id it gets down the tree path (task_of): ids go in spawn order,
 * and the path may spawn in another order than the execution did.
 */
static void wut_insert_race(struct sim_dpor *d, uint32_t i, uint32_t j,
			    uint32_t nseq, uint32_t nfull,
			    const uint16_t *choices)
{
	struct dpor_node *n = &d->nodes[i];
	uint64_t before = (n->sleep | n->done) & ~(1ULL << n->chosen);
	uint8_t *gone = d->gone;
	int32_t r = n->wroot;
	bool top = true, matched;
	uint32_t left;
	int base, next;

	for (uint64_t m = before; m; m &= m - 1) {
		unsigned int t = (unsigned int)__builtin_ctzll(m);

		const struct footprint *fp = &n->fp[t];

		/* A step that recorded nothing may have been a spin. */
		if (!fp->count && !fp->all)
			fp = NULL;
		if (weak_initial(d, t, fp, 0, d->full, nfull, NULL, choices))
			return;
	}
	base = 0;
	for (uint32_t c = 0; c < d->ntasks; c++)
		base += d->spawned_at[c] < (int32_t)i;
	next = base;
	for (uint32_t c = 0; c < SIM_TASKS_MAX; c++)
		d->idmap[c] = -1;
	d->xlate = true;
	d->xlate_from = i;
	memset(gone, 0, nseq);
	left = nseq;
	for (;;) {
		int32_t match = -1;

		for (int32_t c = d->wut[r].child; c >= 0;
		     c = d->wut[c].sibling) {
			if (top && c == n->wcur)
				continue;
			if (weak_initial(d, d->wut[c].task,
					 d->wut[c].known ? &d->wut[c].fp : NULL,
					 d->wut[c].take, d->seq, nseq, gone,
					 choices)) {
				match = c;
				break;
			}
		}
		if (match < 0)
			break;
		if (d->wut[match].child < 0)
			goto covered;
		matched = false;
		for (uint32_t x = 0; x < nseq; x++)
			if (!gone[x] && task_of(d, d->seq[x], choices) ==
			    d->wut[match].task) {
				gone[x] = 1;
				left--;
				path_spawns(d, d->seq[x], &next);
				matched = true;
				break;
			}
		if (!matched)
			next += d->wut[match].spawns;
		if (!left)
			goto covered;
		r = match;
		top = false;
	}
	for (uint32_t x = 0; x < nseq; x++) {
		uint32_t k = d->seq[x];
		int t;

		if (gone[x])
			continue;
		t = task_of(d, k, choices);
		if (t < 0 || t >= SIM_TASKS_MAX)
			break;
		if (top)
			n->backtrack |= 1ULL << t;
		top = false;
		r = wut_append(d, r, (uint16_t)t, k == j || spun(d, k) ? NULL :
			       &d->step_fp[k]);
		d->wut[r].take = flat_take(d, k);
		d->wut[r].spawns = step_spawns(d, k);
		path_spawns(d, k, &next);
	}
	d->races++;
covered:
	d->xlate = false;
}

static bool is_preemption(const struct dpor_node *n, int chosen)
{
	return n->current >= 0 && chosen != n->current &&
	       (n->enabled & (1ULL << n->current));
}

/*
 * The default choice among @candidates (enabled, not asleep), or the end
 * of a redundant execution when there is none.
 */
static int default_pick(struct sim_dpor *d, const struct sim_choice *c,
			uint64_t candidates)
{
	int pick;

	if (!candidates) {
		d->pruned++;
		d->depth = c->step;
		return SIM_CHOICE_PRUNE;
	}
	pick = sim_choice_default(c);
	if (!(candidates & (1ULL << pick)))
		pick = __builtin_ctzll(candidates);
	return pick;
}

/* Node @n runs @pick: the first task explored there. */
static int take_choice(struct sim_dpor *d, const struct sim_choice *c,
		       struct dpor_node *n, int pick)
{
	n->chosen = (uint16_t)pick;
	n->spin = sim_task_spinning(pick);
	n->blocking = sim_task_takes_blocking(pick);
	n->done = 1ULL << pick;
	d->depth = c->step + 1;
	return pick;
}

/*
 * Optimal DPOR at a node past the replayed prefix: its wakeup tree is
 * the subtree of the previous node's choice (the tree's root for node 0).
 * Its first child is the next step of the sequence being followed; with
 * none, the default choice among the tasks not asleep starts one.  A
 * child whose task cannot run here (it waits for a lock the sequence did
 * not release: the lock-aware reduction's coarser order) is dropped and
 * every task not asleep is asked for instead: sound, as at a DFS node.
 */
static int wut_choose(struct sim_dpor *d, const struct sim_choice *c,
		      struct dpor_node *n, uint64_t candidates)
{
	int32_t r = c->step == 0 ? d->wut_root : d->nodes[c->step - 1].wcur;
	int32_t x;
	int pick;

	n->wroot = r;
	n->done = 0;
	n->backtrack = 0;
	for (;;) {
		x = d->wut[r].child;
		if (x < 0 || (c->enabled & (1ULL << d->wut[x].task)))
			break;
		wut_remove_first(d, r);
		wut_expand(d, c->step);
	}
	if (x < 0) {
		pick = default_pick(d, c, candidates);
		if (pick == SIM_CHOICE_PRUNE)
			return pick;
		x = wut_append(d, r, (uint16_t)pick, NULL);
	} else {
		pick = d->wut[x].task;
	}
	for (int32_t y = d->wut[r].child; y >= 0; y = d->wut[y].sibling)
		n->backtrack |= 1ULL << d->wut[y].task;
	n->wcur = x;
	return take_choice(d, c, n, pick);
}

static int dpor_choose(struct sim_strategy *s, const struct sim_choice *c)
{
	struct sim_dpor *d = s->dpor;
	struct dpor_node *n;
	uint64_t candidates;
	int pick;

	grow(d, c->step + 1);
	/* Record the footprint of the step just taken at its node. */
	if (c->step > 0) {
		struct dpor_node *p = &d->nodes[c->step - 1];

		step_footprint(c->step - 1, &p->fp[p->chosen]);
		if (d->optimal) {
			d->wut[p->wcur].fp = p->fp[p->chosen];
			d->wut[p->wcur].known = true;
		}
	}
	n = &d->nodes[c->step];
	/* No task is at a point yet: forget the last execution's marks. */
	if (c->step == 0)
		sim_blocking_takes_reset();
	if (c->step < d->prefix) {
		n->spin = sim_task_spinning(n->chosen);
		n->blocking = sim_task_takes_blocking(n->chosen);
		/* An item's fixed prefix: its nodes are never backtracked. */
		if (c->step < d->root) {
			n->enabled = c->enabled;
			n->current = (int16_t)c->current;
			n->sleep = 0;
			n->preemptions = 0;
		}
		return n->chosen;
	}

	n->enabled = c->enabled;
	n->current = (int16_t)c->current;
	n->sleep = 0;
	n->preemptions = 0;
	if (c->step > 0) {
		const struct dpor_node *p = &d->nodes[c->step - 1];

		n->preemptions = p->preemptions + is_preemption(p, p->chosen);
	}
	/* An item's root: the sleep set the split's top left there. */
	if (d->root_pending && c->step == d->root) {
		uint64_t asleep = d->root_sleep;

		d->root_pending = false;
		n->sleep = asleep;
		while (asleep) {
			int t = __builtin_ctzll(asleep);

			asleep &= asleep - 1;
			n->fp[t] = d->root_fp[t];
		}
	} else if (c->step > 0 && d->bound < 0) {
		/* Bounded: no sleep sets (with a bound they hide states). */
		struct dpor_node *p = &d->nodes[c->step - 1];
		const struct footprint *taken = &p->fp[p->chosen];
		uint64_t asleep = (p->sleep | p->done) & ~(1ULL << p->chosen);

		while (asleep) {
			int t = __builtin_ctzll(asleep);

			asleep &= asleep - 1;
			if (!dependent(&p->fp[t], taken)) {
				n->sleep |= 1ULL << t;
				n->fp[t] = p->fp[t];
			}
		}
	}
	candidates = c->enabled & ~n->sleep;
	if (d->optimal)
		return wut_choose(d, c, n, candidates);
	pick = default_pick(d, c, candidates);
	if (pick == SIM_CHOICE_PRUNE)
		return pick;
	n->backtrack = 1ULL << pick;
	return take_choice(d, c, n, pick);
}

/* Free the race analysis's per-step arrays. */
static void scratch_free(struct sim_dpor *d)
{
	free(d->step_fp);
	free(d->clock);
	free(d->local_index);
	free(d->acquired);
	free(d->took);
	free(d->relaxed);
	free(d->relaxed_next);
	free(d->released);
	free(d->released_shared);
	free(d->prev_shared);
	free(d->deps);
	free(d->seq);
	free(d->full);
	free(d->gone);
	free(d->fp_prev);
	free(d->all_prev);
}

static void scratch(struct sim_dpor *d, uint32_t steps)
{
	if (steps <= d->scratch_max)
		return;
	d->valid_steps = 0;
	scratch_free(d);
	d->scratch_max = steps + 256;
	d->prev_shared = calloc(d->scratch_max, sizeof(*d->prev_shared));
	d->took = calloc(d->scratch_max, sizeof(*d->took));
	d->relaxed = calloc(d->scratch_max, sizeof(*d->relaxed));
	d->relaxed_next = calloc(d->scratch_max, sizeof(*d->relaxed_next));
	d->released = calloc(d->scratch_max, sizeof(*d->released));
	d->released_shared = calloc(d->scratch_max,
				    sizeof(*d->released_shared));
	d->acquired = calloc(d->scratch_max, sizeof(*d->acquired));
	d->deps = calloc(d->scratch_max, sizeof(*d->deps));
	d->step_fp = calloc(d->scratch_max, sizeof(*d->step_fp));
	d->clock = calloc(d->scratch_max, sizeof(*d->clock));
	d->local_index = calloc(d->scratch_max, sizeof(*d->local_index));
	d->seq = calloc(d->scratch_max, sizeof(*d->seq));
	d->full = calloc(d->scratch_max, sizeof(*d->full));
	d->gone = calloc(d->scratch_max, sizeof(*d->gone));
	d->fp_prev = calloc((size_t)d->scratch_max * FOOTPRINT_OBJECTS,
			    sizeof(*d->fp_prev));
	d->all_prev = calloc(d->scratch_max, sizeof(*d->all_prev));
	if (!d->step_fp || !d->clock || !d->local_index || !d->acquired ||
	    !d->deps || !d->took || !d->prev_shared || !d->relaxed ||
	    !d->relaxed_next || !d->released || !d->released_shared ||
	    !d->seq || !d->full ||
	    !d->gone || !d->fp_prev || !d->all_prev) {
		fprintf(stderr, "wpsim: dpor: out of memory\n");
		exit(2);
	}
}

/*
 * Bounded search (Coons, Musuvathi, McKinley, "Bounded partial-order
 * reduction", OOPSLA 2013): reversing a race at i may need a preemption
 * the bound forbids, while scheduling the racing task @p where i's task
 * began its run of steps costs none.  So with a bound, @p is also added
 * at that block start (every enabled task if @p is not enabled there):
 * conservative, as the paper's rule is.
 */
static void add_block_start(struct sim_dpor *d, uint32_t i, unsigned int p,
			    const uint16_t *choices)
{
	uint32_t k = i;
	struct dpor_node *n;

	while (k > 0 && choices[k - 1] == choices[i])
		k--;
	n = &d->nodes[k];
	if ((n->backtrack | n->done) & (1ULL << p))
		return;
	if (n->enabled & (1ULL << p))
		n->backtrack |= 1ULL << p;
	else
		n->backtrack |= n->enabled;
}

/*
 * The step that took spinlock @lock and still holds it before step @i
 * (the lock's holder at node i), or -1 if it is free there.
 */
static int32_t lock_holder(const struct sim_dpor *d, uint32_t i,
			   uint32_t lock)
{
	for (uint32_t m = i; m-- > 0;) {
		if (d->released[m] == lock)
			return -1;
		if (d->acquired[m] == lock)
			return (int32_t)m;
	}
	return -1;
}

static void add_backtrack_at(struct sim_dpor *d, uint32_t i, uint32_t j,
			     const uint16_t *choices, unsigned int lifts);

/* A race between steps i < j: add an initial of notdep(i).j at node i. */
static void add_backtrack(struct sim_dpor *d, uint32_t i, uint32_t j,
			  const uint16_t *choices)
{
	add_backtrack_at(d, i, j, choices, 0);
}

/*
 * Step @k takes the lock of a flat section (exclusive, a bit lock's, or
 * a flat read section's), or not.
 */
static bool relaxed_take(const struct sim_dpor *d, uint32_t k)
{
	return d->relaxed[k] && (d->acquired[k] == d->relaxed[k] ||
				 d->took[k] == d->relaxed[k]);
}

/*
 * The tasks that hold rwlock @lock for reading at node @i in a flat
 * read section (their read takes not released before i; none past an
 * exclusive take or release of it, which no read section spans), but
 * @skip; the latest such take by @own's task in *@own_h (-1: none).
 */
static uint64_t reader_holders(const struct sim_dpor *d, uint32_t i,
			       uint32_t lock, const uint16_t *choices,
			       unsigned int skip, unsigned int own,
			       int32_t *own_h)
{
	uint16_t pend[SIM_TASKS_MAX] = { 0 };
	uint64_t mask = 0;

	*own_h = -1;
	for (uint32_t m = i; m-- > 0;) {
		unsigned int t = choices[m];

		if (d->released[m] == lock || d->acquired[m] == lock)
			break;
		if (t >= SIM_TASKS_MAX)
			continue;
		if (d->released_shared[m] == lock)
			pend[t]++;
		if (d->took[m] != lock || d->acquired[m])
			continue;
		if (pend[t]) {
			pend[t]--;
			continue;
		}
		/* A read section that is not flat: its release conflicts
		 * with the take, which the walk orders after it. */
		if (t == skip || d->relaxed[m] != lock)
			continue;
		if (t == own && *own_h < 0)
			*own_h = (int32_t)m;
		else if (t != own)
			mask |= 1ULL << t;
	}
	return mask;
}

/*
 * Lock-aware: step @k of the walk of notdep(i).j takes a spinlock L of a
 * flat section, and at node i another task holds L since step h (taken
 * in a flat section too: otherwise its release would order k after i).
 * The reversed order cannot run k at node i.  Returns h, or -1.
 */
static int32_t blocked_take(const struct sim_dpor *d, uint32_t i, uint32_t k,
			    const uint16_t *choices)
{
	int32_t h;

	if (!relaxed_take(d, k))
		return -1;
	h = lock_holder(d, i, d->relaxed[k]);
	return h >= 0 && choices[h] != choices[k] ? h : -1;
}

#define WALK_TAKES_MAX 32	/* flat-section takes a walk tracks */

static void add_backtrack_at(struct sim_dpor *d, uint32_t i, uint32_t j,
			     const uint16_t *choices, unsigned int lifts)
{
	struct dpor_node *n = &d->nodes[i];
	uint64_t initials = 0;
	uint32_t first_of[SIM_TASKS_MAX];
	uint32_t walk_takes[WALK_TAKES_MAX];
	uint16_t walk_takers[WALK_TAKES_MAX];
	bool walk_shared[WALK_TAKES_MAX];
	unsigned int nwalk_takes = 0;
	uint64_t holders = 0;
	int32_t lift = -1;
	bool overflow = false;	/* more takes than tracked: be coarse */
	uint32_t nseq = 0, nfull = 0;

	/* Above an item's root: the split's top explores every choice, or
	 * the coordinator owns the node (item_request). */
	if (i < d->root && !item_forwards(d, i))
		return;

	/*
	 * Walk notdep(i): steps k in (i, j) not after i, then j.  A step is
	 * an initial when no earlier step of the walk is ordered before it.
	 * Tracking "some walked step of task t" is enough: clocks are
	 * monotone along a task, so hb from any walked step of t implies hb
	 * from its first walked step.
	 */
	for (uint32_t t = 0; t < d->ntasks; t++)
		first_of[t] = UINT32_MAX;
	for (uint32_t k = i + 1; k <= j; k++) {
		bool initial = true;

		if (k < j && hb(d, d->clock[k], i, choices))
			continue;
		d->full[nfull++] = k;
		/*
		 * Lock-aware: the steps of notdep(i) j depends on; another
		 * may hold a lock j's task needs and never release it in
		 * the walk (its release comes after i).
		 */
		if (d->lock_aware && k < j && !hb(d, d->clock[j], k, choices))
			continue;
		d->seq[nseq++] = k;
		for (uint32_t t = 0; t < d->ntasks && initial; t++)
			if (first_of[t] != UINT32_MAX &&
			    hb(d, d->clock[k], first_of[t], choices))
				initial = false;
		/*
		 * Lock-aware: a take of L after another task's take of L in
		 * the walk waits for that section's release, which comes
		 * first in any order of the walk that can run.
		 */
		if (d->lock_aware && relaxed_take(d, k)) {
			/* Two read takes do not wait for each other. */
			bool shared = !d->acquired[k];

			for (unsigned int x = 0; x < nwalk_takes; x++)
				if (walk_takes[x] == d->relaxed[k] &&
				    walk_takers[x] != choices[k] &&
				    !(shared && walk_shared[x]))
					initial = false;
			if (nwalk_takes < WALK_TAKES_MAX) {
				walk_takes[nwalk_takes] = d->relaxed[k];
				walk_shared[nwalk_takes] = shared;
				walk_takers[nwalk_takes++] = choices[k];
			} else {
				overflow = true;
			}
		}
		if (first_of[choices[k]] == UINT32_MAX)
			first_of[choices[k]] = k;
		if (initial)
			initials |= 1ULL << choices[k];
		if (d->lock_aware) {
			int32_t h = blocked_take(d, i, k, choices);

			if (h >= 0 && choices[h] == choices[i] && h > lift)
				lift = h;
			else if (h >= 0 && choices[h] != choices[i])
				holders |= 1ULL << choices[h];
			/* An exclusive take waits for the readers too. */
			if (relaxed_take(d, k) && d->acquired[k]) {
				holders |= reader_holders(d, i, d->relaxed[k],
							  choices, choices[k],
							  choices[i], &h);
				if (h >= 0 && h > lift)
					lift = h;
			}
		}
	}
	/*
	 * A take the walk needs waits for a section i's task holds: it can
	 * only come before that section's take.  One another task holds:
	 * that task finishing its section first is the order to try.
	 */
	if (lift >= 0 && lifts < 64) {
		add_backtrack_at(d, (uint32_t)lift, j, choices, lifts + 1);
		return;
	}
	if (holders)
		initials = holders;
	if (i < d->root) {
		item_request(d, i, overflow ? n->enabled : initials, overflow);
		return;
	}
	if (d->optimal) {
		/*
		 * The lock-aware cases that need a task other than the
		 * sequence's first are source-DPOR's entries (one task,
		 * the rest found by later races), as is a sequence that
		 * cannot start at i.
		 */
		uint64_t ready = initials & n->enabled;

		if (!holders && !overflow && ready &&
		    !(ready & (1ULL << choices[d->seq[0]]))) {
			/*
			 * The sequence starts with a task that cannot run
			 * at i (it waits there); another initial can: its
			 * first step has nothing of the sequence before it,
			 * so it may go first.
			 */
			uint32_t x = 1, k;

			while (!(ready & (1ULL << choices[d->seq[x]])))
				x++;
			k = d->seq[x];
			memmove(d->seq + 1, d->seq, x * sizeof(*d->seq));
			d->seq[0] = k;
		}
		if (overflow || !ready) {
			/* source-DPOR's rule: an initial already asked for */
			if (!overflow && (initials & (n->backtrack | n->done)))
				return;
			wut_expand(d, i);
			d->races++;
		} else if (holders) {
			uint64_t pick = initials & n->enabled & ~n->sleep;

			if (initials & (n->backtrack | n->done))
				return;
			if (!pick)
				pick = initials & n->enabled;
			if (pick)
				wut_add_task(d, i, (unsigned int)
					     __builtin_ctzll(pick));
			else
				wut_expand(d, i);
			d->races++;
		} else {
			wut_insert_race(d, i, j, nseq, nfull, choices);
		}
		return;
	}
	if (overflow)
		n->backtrack |= n->enabled;
	if (d->bound >= 0) {
		/*
		 * One initial is enough without a bound; with one, the
		 * initial taken may spend the last preemption where another
		 * would not, so every enabled initial is added.
		 */
		add_block_start(d, i, choices[j], choices);
		if (initials & n->enabled & ~(n->backtrack | n->done)) {
			n->backtrack |= initials & n->enabled;
			d->races++;
			return;
		}
	}
	if (initials & (n->backtrack | n->done))
		return;
	if (initials & n->enabled) {
		uint64_t pick = initials & n->enabled & ~n->sleep;

		if (!pick)
			pick = initials & n->enabled;
		n->backtrack |= 1ULL << __builtin_ctzll(pick);
	} else {
		n->backtrack |= n->enabled;
	}
	d->races++;
}

/*
 * Lock rule.  A task spinning for a lock records nothing until it gets
 * it, so its take is ordered after the holder's release and the race to
 * reverse is between the takes themselves: a take of L races with the
 * previous exclusive take of L by another task, and an exclusive take
 * also with every shared take since then (shared takes commute).  The
 * release/take pairs stay races too: dropping them lost Mazurkiewicz
 * traces with three tasks on one rwlock (tests/engine/test_dpor.c,
 * rwlock_sections_of_three_tasks_agree_with_dfs).  With @race false only
 * the records are updated (steps whose races were handled in an earlier
 * execution).
 */
static void lock_takes(struct sim_dpor *d, uint32_t j,
		       const uint16_t *choices, bool race)
{
	uint32_t lock = d->took[j];
	unsigned int p = choices[j];
	int32_t i;

	if (!lock)
		return;
	i = d->last_acquire[lock] - 1;
	if (race && i >= 0 && choices[i] != p) {
		/* Two flat sections: their order is reversed only if
		 * their accesses race (lock_sections()). */
		if (d->relaxed[i] == lock && d->relaxed[j] == lock)
			d->relaxed_pairs++;
		else
			add_backtrack(d, (uint32_t)i, j, choices);
	}
	if (!d->acquired[j]) {
		d->prev_shared[j] = (uint32_t)d->last_shared[lock];
		d->last_shared[lock] = (int32_t)j + 1;
		return;
	}
	for (i = d->last_shared[lock] - 1; i >= 0;
	     i = (int32_t)d->prev_shared[i] - 1) {
		if (!race || choices[i] == p)
			continue;
		/* A flat read section and a flat write section: as two
		 * flat sections (lock_sections()). */
		if (d->relaxed[i] == lock && d->relaxed[j] == lock)
			d->relaxed_pairs++;
		else
			add_backtrack(d, (uint32_t)i, j, choices);
	}
	d->last_shared[lock] = 0;
	d->last_acquire[lock] = (int32_t)j + 1;
}

/* Does this event take a lock, wait for one, or go to sleep? */
static bool lock_op(uint8_t access)
{
	return access == SIM_ACCESS_ACQUIRE ||
	       access == SIM_ACCESS_ACQUIRE_FAIL ||
	       access == SIM_ACCESS_ACQUIRE_SHARED ||
	       access == SIM_ACCESS_BLOCK;
}

/*
 * The lock access event @ev stands for: a bit lock's marked take,
 * failed take or release (sim_bitlock_take, sim_bitlock_release; the
 * event itself is the bit's read-modify-write) as an exclusive take, a
 * failed one or a release that leaves the lock free; any other event as
 * itself.
 */
static uint8_t lock_access(const struct sim_event *ev)
{
	if (ev->mark == SIM_MARK_LOCK_TAKE)
		return SIM_ACCESS_ACQUIRE;
	if (ev->mark == SIM_MARK_LOCK_RELEASE)
		return SIM_ACCESS_RELEASE;
	if (ev->mark == SIM_MARK_LOCK_FAIL)
		return SIM_ACCESS_ACQUIRE_FAIL;
	return ev->access;
}

/* lock_access() for lock_sections(): a bit lock's marked events only
 * when @bits (else the bit's own read-modify-write). */
static uint8_t section_access(const struct sim_event *ev, bool bits)
{
	return bits ? lock_access(ev) : ev->access;
}

#define SECTIONS_OPEN_MAX 4	/* nested spinlock sections per task */
#define SECTION_INNER_MAX 6	/* locks of flat sections nested in one */
#define HELD_MAX 8		/* locks a task holds, for lock_order */
#define ORDER_EDGES_MAX 128	/* distinct lock-order pairs of a trace */
#define NESTED_MAX 64		/* sections with nested ones, per trace */
#define TAINTED_MAX 16		/* locks with a trylock or a downgrade */
/* The accesses lock_sections() acts on (section_access() of an event):
 * a step with none of them is passed over. */
#define SECTION_ACCESSES ((1u << SIM_ACCESS_ACQUIRE) |			\
			  (1u << SIM_ACCESS_ACQUIRE_FAIL) |		\
			  (1u << SIM_ACCESS_RELEASE) |			\
			  (1u << SIM_ACCESS_BLOCK) |			\
			  (1u << SIM_ACCESS_ACQUIRE_SHARED) |		\
			  (1u << SIM_ACCESS_RELEASE_SHARED))

/*
 * Read sections of @lock may be flat: no trylock (a read or write one,
 * taken or failed) and no downgrade of it in the trace (the list
 * @tainted, lock_sections()).  docs/architecture.md, "Read sections".
 */
static bool read_sections_ok(const uint32_t *tainted, unsigned int n,
			     uint32_t lock)
{
	for (unsigned int x = 0; x < n; x++)
		if (tainted[x] == lock)
			return false;
	return true;
}

/*
 * The trace's lock order (lock_sections): the pairs (X, Y) where a task
 * took, tried or waited for Y while it held X.
 */
struct lock_order {
	uint32_t from[ORDER_EDGES_MAX], to[ORDER_EDGES_MAX];
	unsigned int n;
	bool overflow;
};

static void lock_order_add(struct lock_order *o, uint32_t from, uint32_t to)
{
	if (from == to)
		return;
	for (unsigned int e = 0; e < o->n; e++)
		if (o->from[e] == from && o->to[e] == to)
			return;
	if (o->n == ORDER_EDGES_MAX) {
		o->overflow = true;
		return;
	}
	o->from[o->n] = from;
	o->to[o->n++] = to;
}

/* Is @to reachable from @from in the trace's lock order? */
static bool lock_order_reaches(const struct lock_order *o, uint32_t from,
			       uint32_t to)
{
	uint32_t stack[ORDER_EDGES_MAX + 1];
	bool seen[ORDER_EDGES_MAX] = { false };
	unsigned int top = 0;

	stack[top++] = from;
	while (top) {
		uint32_t x = stack[--top];

		if (x == to)
			return true;
		for (unsigned int e = 0; e < o->n; e++)
			if (!seen[e] && o->from[e] == x) {
				seen[e] = true;
				stack[top++] = o->to[e];
			}
	}
	return false;
}

/* Does a step with events [@k, @end) have a lock's event
 * (SECTION_ACCESSES, as itself or as section_access() sees it)? */
static bool sec_step_active(const struct sim_event *events, uint32_t k,
			    uint32_t end, bool bits)
{
	for (uint32_t e = k; e < end; e++)
		if (((1u << section_access(&events[e], bits)) |
		     (1u << events[e].access)) & SECTION_ACCESSES)
			return true;
	return false;
}

/* The first event of step @from or later in the log (ordered by step). */
static uint32_t first_event_of(const struct sim_event *events, uint32_t nev,
			       uint32_t from)
{
	uint32_t lo = 0, hi = nev;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (events[mid].step < from)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Room for one more entry of @*a (@*max entries of @size bytes, @n used). */
static void *grow_list(void *a, uint32_t n, uint32_t *max, size_t size)
{
	uint32_t m;

	if (n < *max)
		return a;
	m = *max ? 2 * *max : 256;
	a = realloc(a, (size_t)m * size);
	if (!a) {
		fprintf(stderr, "wpsim: dpor: out of memory\n");
		exit(2);
	}
	*max = m;
	return a;
}

/*
 * Does step @j, with events [@k, @end), have an event that keeps its
 * lock's read sections from being flat: a take, read take or failed take
 * that did not wait (a trylock: the task was neither spinning nor at a
 * blocking take), or a release that leaves a value (a downgrade)?  The
 * test lock_sections() makes per event (read_sections_ok()'s list); the
 * node's flags are those of the step's replay, the same for a kept entry.
 */
static uint32_t sec_taints(const struct sim_dpor *d,
			   const struct sim_event *events, uint32_t k,
			   uint32_t end, uint32_t j)
{
	for (uint32_t e = k; e < end; e++) {
		uint8_t a = events[e].access;

		if (!((1u << a) & SECTION_ACCESSES))
			continue;
		if (((a == SIM_ACCESS_ACQUIRE || a == SIM_ACCESS_ACQUIRE_SHARED ||
		      a == SIM_ACCESS_ACQUIRE_FAIL) &&
		     !(d->nodes[j].spin || d->nodes[j].blocking)) ||
		    (a == SIM_ACCESS_RELEASE && events[e].value &&
		     !events[e].mark))
			return 1;
	}
	return 0;
}

/* d->sec and d->spw for steps [0, @steps), their entries of steps before
 * @from kept (sec_steps()). */
static void sec_build(struct sim_dpor *d, uint32_t steps, uint32_t from,
		      const struct sim_event *events, uint32_t nev, bool bits)
{
	uint32_t n = d->nsec, ns = d->nspw, k;

	while (n > 0 && d->sec[n - 1].step >= from)
		n--;
	while (ns > 0 && d->spw[ns - 1].step >= from)
		ns--;
	k = first_event_of(events, nev, from);
	while (k < nev && events[k].step < steps) {
		uint32_t j = events[k].step, end = k;

		for (; end < nev && events[end].step == j; end++)
			if (events[end].access == SIM_ACCESS_SPAWN &&
			    events[end].value < SIM_TASKS_MAX) {
				d->spw = grow_list(d->spw, ns, &d->spw_max,
						   sizeof(*d->spw));
				d->spw[ns].step = j;
				d->spw[ns++].id = (uint32_t)events[end].value;
			}
		if (sec_step_active(events, k, end, bits)) {
			d->sec = grow_list(d->sec, n, &d->sec_max,
					   sizeof(*d->sec));
			d->sec[n].step = j;
			d->sec[n].start = k;
			d->sec[n].end = end;
			d->sec[n++].taints = sec_taints(d, events, k, end, j);
		}
		k = end;
	}
	d->nsec = n;
	d->nspw = ns;
}

/*
 * d->sec and d->spw for steps [0, @steps): the entries of steps before
 * @from (the last execution's, replayed: the same events at the same
 * places of the log) kept, the log scanned from step @from's first event.
 * With WPSIM_DPOR_VERIFY_SECTIONS=1 both are built again from step 0
 * each time and compared: a difference exits 2 (the kept part must be
 * what a whole scan gives; tests/engine/test-dpor-sections.sh).
 */
static void sec_steps(struct sim_dpor *d, uint32_t steps, uint32_t from,
		      const struct sim_event *events, uint32_t nev, bool bits)
{
	static int verify = -1;
	struct sec_step *kept;
	struct spawn_step *kspw;
	uint32_t nkept, nkspw;

	if (verify < 0) {
		const char *v = getenv("WPSIM_DPOR_VERIFY_SECTIONS");

		verify = v && *v == '1';
	}
	if (bits != d->sec_bits)
		from = 0;
	d->sec_bits = bits;
	sec_build(d, steps, from, events, nev, bits);
	if (!verify)
		return;
	nkept = d->nsec;
	nkspw = d->nspw;
	kept = malloc((nkept + 1) * sizeof(*kept));
	kspw = malloc((nkspw + 1) * sizeof(*kspw));
	if (!kept || !kspw) {
		fprintf(stderr, "wpsim: dpor: out of memory\n");
		exit(2);
	}
	memcpy(kept, d->sec, nkept * sizeof(*kept));
	memcpy(kspw, d->spw, nkspw * sizeof(*kspw));
	d->nsec = 0;
	d->nspw = 0;
	sec_build(d, steps, 0, events, nev, bits);
	if (d->nsec != nkept || d->nspw != nkspw ||
	    memcmp(kept, d->sec, nkept * sizeof(*kept)) ||
	    memcmp(kspw, d->spw, nkspw * sizeof(*kspw))) {
		fprintf(stderr, "wpsim: dpor: the kept lock steps or spawns "
			"differ from a whole scan (%u/%u against %u/%u, from "
			"step %u)\n", nkept, nkspw, d->nsec, d->nspw, from);
		exit(2);
	}
	free(kept);
	free(kspw);
}

/*
 * Lock-aware reduction: which exclusive sections are flat.  A flat
 * section is taken by a take that waits for the lock (the task waited in
 * spin_lock, or was at the point of mutex_lock, an rwlock's write lock
 * or a bit lock's take: sim_task_takes_blocking; not a trylock), in a
 * step whose only event on the lock is the take (a mutex or rwlock found
 * free: a task that found it held sleeps or waits, which records more),
 * and released by the same task in a step whose only event on it is a
 * release that leaves it free (not a mutex's hand-off to a waiter, not
 * a downgrade), with no lock taken, waited for, or slept on by that task
 * in between, except the takes of flat sections nested in it and
 * released before it (a *nested* flat section), and then only if none of
 * their locks comes before its own in the trace's lock order (no task
 * takes, tries or waits for the outer lock while holding one of them,
 * directly or through other locks): a deadlock on these locks needs such
 * a cycle.  The take may be nested in other locks.  Its take and release
 * get TOUCH_LOCK in the race analysis, so the take of L by one flat
 * section and the release or take by another are not ordered, and the
 * two take steps are not raced (lock_takes): two flat sections are run
 * in one order unless their accesses race, and then the race is
 * reversed at the take of the section held (blocked_take).  A section
 * not released in the trace is not flat.  docs/architecture.md argues
 * why this is sound.  Fills d->relaxed_next[0, steps).
 */
static void lock_sections(struct sim_dpor *d, uint32_t steps,
			  const uint16_t *choices,
			  const struct sim_event *events)
{
	struct section {
		uint32_t lock, take;
		bool spoiled, shared;
		uint8_t ninner;
		uint32_t inner[SECTION_INNER_MAX];
	} open[SIM_TASKS_MAX][SECTIONS_OPEN_MAX];
	uint8_t nopen[SIM_TASKS_MAX] = { 0 };
	uint32_t held[SIM_TASKS_MAX][HELD_MAX];
	uint8_t nheld[SIM_TASKS_MAX] = { 0 };
	struct {
		struct section s;
		uint32_t release;
		unsigned int task;
		bool failed;
	} nested[NESTED_MAX];
	unsigned int nnested = 0;
	struct lock_order order;
	/* Locks whose read sections may not be flat (read_sections_ok). */
	uint32_t tainted[TAINTED_MAX];
	unsigned int ntainted = 0;
	bool reads = !d->optimal && !d->plain_sections;
	bool bits = !d->plain_sections;

	memset(d->relaxed_next, 0, steps * sizeof(*d->relaxed_next));
	if (!d->lock_aware)
		return;
	/* d->sec: the steps with a lock's event (analyse(), sec_steps());
	 * the others change nothing below (no lock, no lock op, no release,
	 * no take). */
	order.n = 0;
	order.overflow = false;
	for (uint32_t x = 0; reads && x < d->nsec; x++)
	for (uint32_t e = d->sec[x].start;
	     reads && d->sec[x].taints && e < d->sec[x].end; e++) {
		uint8_t a = events[e].access;
		uint32_t j = events[e].step;

		if (!((1u << a) & SECTION_ACCESSES))
			continue;	/* not a lock's event (the test below) */
		if (((a == SIM_ACCESS_ACQUIRE || a == SIM_ACCESS_ACQUIRE_SHARED ||
		      a == SIM_ACCESS_ACQUIRE_FAIL) &&
		     !(d->nodes[j].spin || d->nodes[j].blocking)) ||
		    (a == SIM_ACCESS_RELEASE && events[e].value &&
		     !events[e].mark)) {
			bool seen = false;

			for (unsigned int x = 0; x < ntainted; x++)
				seen |= tainted[x] == events[e].object;
			if (seen)
				continue;
			if (ntainted == TAINTED_MAX) {
				reads = false;	/* ends both loops */
				break;
			}
			tainted[ntainted++] = events[e].object;
		}
	}
	for (uint32_t x = 0; x < d->nsec; x++) {
		uint32_t j = d->sec[x].step, k = d->sec[x].start;
		uint32_t end = d->sec[x].end, lock = 0, on_lock = 0;
		unsigned int t = choices[j], nops = 0;
		uint8_t access = SIM_ACCESS_NONE;
		uint64_t value = 0;
		bool opens;

		/* The step's lock event, if it has exactly one. */
		for (uint32_t e = k; e < end; e++)
			if (section_access(&events[e], bits) ==
			    SIM_ACCESS_ACQUIRE ||
			    section_access(&events[e], bits) ==
			    SIM_ACCESS_RELEASE ||
			    (reads && (events[e].access ==
				       SIM_ACCESS_ACQUIRE_SHARED ||
				       events[e].access ==
				       SIM_ACCESS_RELEASE_SHARED) &&
			     read_sections_ok(tainted, ntainted,
					      events[e].object))) {
				lock = events[e].object;
				access = section_access(&events[e], bits);
				/* A bit lock's release leaves it free; a
				 * read release need not (other readers). */
				value = events[e].mark ||
					access == SIM_ACCESS_RELEASE_SHARED ?
					0 : events[e].value;
			}
		if (t >= SIM_TASKS_MAX)
			continue;
		for (uint32_t e = k; e < end; e++) {
			uint8_t a = section_access(&events[e], bits);

			if (lock && events[e].object == lock)
				on_lock++;
			if (!lock_op(a))
				continue;
			nops++;
			/* The lock order: what it waits for or takes while
			 * it holds locks (a sleep's object is a queue). */
			if (a != SIM_ACCESS_BLOCK)
				for (unsigned int h = 0; h < nheld[t]; h++)
					lock_order_add(&order, held[t][h],
						       events[e].object);
			if ((a == SIM_ACCESS_ACQUIRE ||
			     a == SIM_ACCESS_ACQUIRE_SHARED) &&
			    nheld[t] < HELD_MAX)
				held[t][nheld[t]++] = events[e].object;
			else if (a == SIM_ACCESS_ACQUIRE ||
				 a == SIM_ACCESS_ACQUIRE_SHARED)
				order.overflow = true;
		}
		for (uint32_t e = k; e < end; e++) {
			uint8_t a = section_access(&events[e], bits);

			if (a != SIM_ACCESS_RELEASE &&
			    a != SIM_ACCESS_RELEASE_SHARED)
				continue;
			for (int h = nheld[t]; h-- > 0;)
				if (held[t][h] == events[e].object) {
					held[t][h] = held[t][--nheld[t]];
					break;
				}
		}
		/* A release that leaves the lock free (not a mutex's
		 * hand-off to a waiter, not a downgrade). */
		if ((access == SIM_ACCESS_RELEASE ||
		     access == SIM_ACCESS_RELEASE_SHARED) && on_lock == 1 &&
		    !value) {
			for (int o = nopen[t]; o-- > 0;) {
				struct section sec = open[t][o];

				if (sec.lock != lock ||
				    sec.shared !=
				    (access == SIM_ACCESS_RELEASE_SHARED))
					continue;
				/* A read section with nested ones: not
				 * flat (not argued). */
				if (sec.shared && sec.ninner)
					sec.spoiled = true;
				/* Sections still open inside it: not nested. */
				if (o != nopen[t] - 1)
					sec.spoiled = true;
				memmove(&open[t][o], &open[t][o + 1],
					(size_t)(nopen[t] - o - 1) *
					sizeof(open[t][0]));
				nopen[t]--;
				if (sec.spoiled) {
					/* What is inside it is inside the
					 * sections around it. */
					for (int p = 0; p < nopen[t]; p++)
						open[t][p].spoiled = true;
					break;
				}
				if (!sec.ninner) {
					d->relaxed_next[sec.take] = lock;
					d->relaxed_next[j] = lock;
				} else if (nnested < NESTED_MAX) {
					nested[nnested].s = sec;
					nested[nnested].task = t;
					nested[nnested].failed = false;
					nested[nnested++].release = j;
				} else {
					for (int p = 0; p < nopen[t]; p++)
						open[t][p].spoiled = true;
					break;
				}
				/* Its lock is nested in the ones around it. */
				for (int p = 0; p < nopen[t]; p++) {
					struct section *out = &open[t][p];

					if (out->ninner == SECTION_INNER_MAX)
						out->spoiled = true;
					else
						out->inner[out->ninner++] =
							lock;
				}
				break;
			}
			if (!nops)
				continue;
		}
		opens = (access == SIM_ACCESS_ACQUIRE ||
			 access == SIM_ACCESS_ACQUIRE_SHARED) && on_lock == 1 &&
			(d->nodes[j].spin || d->nodes[j].blocking) &&
			nopen[t] < SECTIONS_OPEN_MAX &&
			SIM_OBJECT_BASE(lock) < SIM_OBJECTS_MAX;
		/*
		 * A lock op inside a section: the section is not flat,
		 * unless it is only the take of a section that may be flat
		 * (nested: decided at its release).
		 */
		if (nops && !(opens && nops == 1))
			for (int o = 0; o < nopen[t]; o++)
				open[t][o].spoiled = true;
		if (opens) {
			struct section *sec = &open[t][nopen[t]++];

			sec->lock = lock;
			sec->take = j;
			sec->spoiled = false;
			sec->shared = access == SIM_ACCESS_ACQUIRE_SHARED;
			sec->ninner = 0;
		}
	}
	/*
	 * Sections with nested ones (in the order of their releases, so a
	 * section's nested ones come before it): flat if no cycle of the
	 * lock order goes through them and every section nested in them is
	 * flat.
	 */
	for (unsigned int x = 0; x < nnested; x++) {
		const struct section *sec = &nested[x].s;

		for (unsigned int y = 0;
		     y < sec->ninner && !nested[x].failed; y++)
			if (order.overflow ||
			    lock_order_reaches(&order, sec->inner[y],
					       sec->lock))
				nested[x].failed = true;
		if (nested[x].failed) {
			/* The sections around it are not flat either. */
			for (unsigned int y = x + 1; y < nnested; y++)
				if (nested[y].task == nested[x].task &&
				    nested[y].s.take < sec->take)
					nested[y].failed = true;
			continue;
		}
		d->relaxed_next[sec->take] = sec->lock;
		d->relaxed_next[nested[x].release] = sec->lock;
	}
}

/* Step @j joins the index of steps by object (deps_of()). */
static void index_step(struct sim_dpor *d, uint32_t j)
{
	const struct footprint *fp = &d->step_fp[j];

	for (unsigned int x = 0; x < fp->count; x++) {
		uint32_t b = SIM_OBJECT_BASE(fp->object[x]);
		uint32_t node = j * FOOTPRINT_OBJECTS + x;

		if (b >= SIM_OBJECTS_MAX) {
			d->index_off = true;
			continue;
		}
		d->fp_prev[node] = d->fp_last[b];
		d->fp_last[b] = node + 1;
	}
	if (fp->all) {
		d->all_prev[j] = d->all_last;
		d->all_last = j + 1;
	}
}

/* Empty the index again (only objects the steps name were set). */
static void index_clear(struct sim_dpor *d, uint32_t steps)
{
	for (uint32_t j = 0; j < steps; j++)
		for (unsigned int x = 0; x < d->step_fp[j].count; x++) {
			uint32_t b = SIM_OBJECT_BASE(d->step_fp[j].object[x]);

			if (b < SIM_OBJECTS_MAX)
				d->fp_last[b] = 0;
		}
	d->all_last = 0;
	d->index_off = false;
}

/*
 * The steps i < @j of another task than @p that are dependent with @j,
 * ascending, into d->deps; returns their count.  A step dependent with
 * j names one of j's objects or has an "all" footprint (j's is not), so
 * only the index's chains of those are visited: each is in descending
 * order, and they are merged (a step on two of the chains once).  The
 * same steps as a test of every i < j; the scan does that when j's
 * footprint is "all" or the index is off.
 */
static uint32_t deps_of(struct sim_dpor *d, uint32_t j, unsigned int p,
			const uint16_t *choices)
{
	const struct footprint *fj = &d->step_fp[j];
	uint32_t head[FOOTPRINT_OBJECTS + 1];	/* step + 1, 0 = done */
	uint32_t node[FOOTPRINT_OBJECTS];
	unsigned int heads = fj->count;
	uint32_t *deps = d->deps;
	uint32_t ndeps = 0;

	if (fj->all || d->index_off) {
		for (uint32_t i = 0; i < j; i++)
			if (choices[i] != p &&
			    dependent(&d->step_fp[i], fj))
				deps[ndeps++] = i;
		return ndeps;
	}
	if (!heads)
		return 0;
	for (unsigned int x = 0; x < heads; x++) {
		node[x] = d->fp_last[SIM_OBJECT_BASE(fj->object[x])];
		head[x] = node[x] ? (node[x] - 1) / FOOTPRINT_OBJECTS + 1 : 0;
	}
	head[heads] = d->all_last;
	for (;;) {
		uint32_t top = 0;

		for (unsigned int x = 0; x <= heads; x++)
			if (head[x] > top)
				top = head[x];
		if (!top)
			break;
		/* Past step top - 1 on every chain. */
		for (unsigned int x = 0; x < heads; x++)
			while (head[x] == top) {
				node[x] = d->fp_prev[node[x] - 1];
				head[x] = node[x] ? (node[x] - 1) /
					  FOOTPRINT_OBJECTS + 1 : 0;
			}
		if (head[heads] == top)
			head[heads] = d->all_prev[top - 1];
		if (choices[top - 1] != p &&
		    dependent(&d->step_fp[top - 1], fj))
			deps[ndeps++] = top - 1;
	}
	for (uint32_t a = 0, b = ndeps; a + 1 < b; a++, b--) {
		uint32_t t = deps[a];

		deps[a] = deps[b - 1];
		deps[b - 1] = t;
	}
	return ndeps;
}

/*
 * A bit lock's events (sim_bitlock_take, sim_bitlock_release) for
 * lock_holder(): a marked take holds the bit; an event on a bit that
 * leaves it clear (the marked release, or an unmarked clear such as a
 * trylock holder's) frees it.  Bit locks are not in the lock rule
 * (lock_takes): a take that finds the bit set records its failed
 * test-and-set, so the races between takes are ordinary ones.  Returns
 * whether @ev is on a bit (handled here).
 */
static bool bit_lock_event(struct sim_dpor *d, const struct sim_event *ev)
{
	uint32_t bit = SIM_OBJECT_BIT_OF(ev->object);

	if ((ev->object & SIM_OBJECT_RANGE_FLAG) || !bit)
		return false;
	if (SIM_OBJECT_BASE(ev->object) >= SIM_OBJECTS_MAX)
		return true;
	if (ev->mark == SIM_MARK_LOCK_TAKE)
		d->acquired[ev->step] = ev->object;
	else if (!d->released[ev->step] &&
		 (ev->mark == SIM_MARK_LOCK_RELEASE ||
		  ((ev->access == SIM_ACCESS_RMW ||
		    ev->access == SIM_ACCESS_WRITE) &&
		   !((ev->value >> (bit - 1)) & 1))))
		d->released[ev->step] = ev->object;
	return true;
}

static void analyse(struct sim_dpor *d, uint32_t steps,
		    const uint16_t *choices, bool truncated)
{
	const struct sim_event *events;
	uint32_t nev = sim_exec_events(&events);
	int32_t last_of[SIM_TASKS_MAX];
	uint16_t count_of[SIM_TASKS_MAX];
	int32_t spawned_at[SIM_TASKS_MAX];
	uint32_t *deps;
	size_t clock_bytes;
	uint32_t from = 0, from0, first_new;
	bool fp_events = false;

	scratch(d, steps);
	d->ntasks = sim_exec_task_count();
	clock_bytes = d->ntasks * sizeof(d->clock[0][0]);
	/*
	 * Steps before the last replayed one are the previous execution's:
	 * their analysis stands, and the races among them were handled.
	 */
	if (d->prefix > 0 && d->ntasks == d->valid_ntasks)
		from = d->prefix - 1 < d->valid_steps ? d->prefix - 1 :
		       d->valid_steps;
	if (from > steps)
		from = steps;
	/*
	 * Whether a section is flat depends on steps after its take: where
	 * the marking changed, the analysis starts again.
	 */
	/* The steps with a lock's event and the spawns: the log scanned
	 * from the first step not replayed. */
	from0 = from;
	sec_steps(d, steps, from0, events, nev, !d->plain_sections);
	lock_sections(d, steps, choices, events);
	for (uint32_t j = 0; j < from; j++)
		if (d->relaxed_next[j] != d->relaxed[j]) {
			from = j;
			break;
		}
	{
		uint32_t *swap = d->relaxed;

		d->relaxed = d->relaxed_next;
		d->relaxed_next = swap;
	}
	/*
	 * The new steps' footprints: each node's, which step_footprint made
	 * from the same events when the step ended (the same objects,
	 * touches and ranges, in the reverse order, or "all" alike: a step
	 * with more objects than a footprint holds is "all" either way); if
	 * a node ran another task than the schedule, from the events.
	 */
	for (uint32_t j = from; j < steps; j++)
		if (d->nodes[j].chosen != choices[j]) {
			fp_events = true;
			break;
		}
	for (uint32_t j = from; j < steps; j++) {
		if (!fp_events) {
			d->step_fp[j] = d->nodes[j].fp[choices[j]];
			continue;
		}
		d->step_fp[j].count = 0;
		d->step_fp[j].all = false;
	}
	memset(d->acquired + from, 0, (steps - from) * sizeof(*d->acquired));
	memset(d->took + from, 0, (steps - from) * sizeof(*d->took));
	memset(d->released + from, 0, (steps - from) * sizeof(*d->released));
	memset(d->released_shared + from, 0,
	       (steps - from) * sizeof(*d->released_shared));

	/* Which tasks exist at a node (wut_insert_race): spawns first
	 * (d->spw: sec_steps()). */
	for (int t = 0; t < SIM_TASKS_MAX; t++) {
		last_of[t] = -1;
		count_of[t] = 0;
		spawned_at[t] = -1;
	}
	for (uint32_t x = 0; x < d->nspw; x++)
		spawned_at[d->spw[x].id] = (int32_t)d->spw[x].step;
	memcpy(d->spawned_at, spawned_at, sizeof(spawned_at));
	/*
	 * The new steps' events: the log is in the order of steps, so they
	 * start at the first event of step @from (spawned_at already holds
	 * every spawn of the steps, the loop above).
	 */
	first_new = first_event_of(events, nev, from);
	for (uint32_t k = first_new; k < nev; k++) {
		if (events[k].step >= steps)
			continue;
		if (fp_events)
			footprint_add(&d->step_fp[events[k].step],
				      &events[k]);
		if (bit_lock_event(d, &events[k]))
			continue;
		if (events[k].object >= SIM_OBJECTS_MAX)
			continue;
		switch (events[k].access) {
		case SIM_ACCESS_ACQUIRE:
			d->acquired[events[k].step] = events[k].object;
			d->took[events[k].step] = events[k].object;
			break;
		case SIM_ACCESS_ACQUIRE_SHARED:
			d->took[events[k].step] = events[k].object;
			break;
		case SIM_ACCESS_RELEASE:
			d->released[events[k].step] = events[k].object;
			break;
		case SIM_ACCESS_RELEASE_SHARED:
			d->released_shared[events[k].step] = events[k].object;
			break;
		default:
			break;
		}
	}
	/* Flat sections: their take and release commute (TOUCH_LOCK). */
	for (uint32_t j = from; j < steps; j++) {
		struct footprint *fp = &d->step_fp[j];

		if (!d->relaxed[j])
			continue;
		for (unsigned int x = 0; x < fp->count; x++)
			if (fp->object[x] == d->relaxed[j])
				fp->touch[x] = TOUCH_LOCK;
	}
	/* A failing last step conflicts with everything (truncated()). */
	if (truncated && steps > 0)
		d->step_fp[steps - 1].all = true;
	/* The state the walk has after the reused steps. */
	for (uint32_t j = 0; j < from; j++) {
		last_of[choices[j]] = (int32_t)j;
		count_of[choices[j]] = d->local_index[j];
		lock_takes(d, j, choices, false);
	}
	d->valid_steps = steps;
	d->valid_ntasks = d->ntasks;
	deps = d->deps;
	for (uint32_t j = 0; j < from; j++)
		index_step(d, j);
	for (uint32_t j = from; j < steps; j++) {
		unsigned int p = choices[j];
		uint16_t *cj = d->clock[j];
		uint16_t base[SIM_TASKS_MAX];
		uint32_t ndeps;

		if (last_of[p] >= 0)
			memcpy(cj, d->clock[last_of[p]], clock_bytes);
		else if (spawned_at[p] >= 0)
			memcpy(cj, d->clock[spawned_at[p]], clock_bytes);
		else
			memset(cj, 0, clock_bytes);
		d->local_index[j] = ++count_of[p];

		ndeps = deps_of(d, j, p, choices);
		/* j's full clock first: the initials walk reads it. */
		memcpy(base, cj, clock_bytes);
		for (uint32_t a = 0; a < ndeps; a++)
			for (uint32_t t = 0; t < d->ntasks; t++)
				if (d->clock[deps[a]][t] > cj[t])
					cj[t] = d->clock[deps[a]][t];
		cj[p] = d->local_index[j];
		for (uint32_t a = 0; a < ndeps; a++) {
			uint32_t i = deps[a];
			bool direct = !hb(d, base, i, choices);

			for (uint32_t b = a + 1; b < ndeps && direct; b++)
				if (hb(d, d->clock[deps[b]], i, choices))
					direct = false;
			if (direct)
				add_backtrack(d, i, j, choices);
		}
		lock_takes(d, j, choices, true);
		last_of[p] = (int32_t)j;
		index_step(d, j);
	}
	index_clear(d, steps);
	/* Leave the per-lock records all zero (= none) for next time. */
	for (uint32_t j = 0; j < steps; j++)
		if (d->took[j]) {
			d->last_acquire[d->took[j]] = 0;
			d->last_shared[d->took[j]] = 0;
		}
}

/*
 * Did the execution stop with tasks still able to run?  A failure inside
 * a step or in a check after it (and the step bound) ends the execution
 * there: the other tasks' next steps never run, so the race analysis,
 * which sees only steps that ran, cannot find their races with the last
 * step, although that step disabled all of them (it ended the execution)
 * and its failure may depend on anything a check reads.  A deadlock or a
 * failed final property leaves no task to run.
 */
static bool truncated(const struct sim_outcome *o)
{
	switch (o->kind) {
	case SIM_FAIL_ASSERT:
	case SIM_FAIL_INVARIANT:
	case SIM_FAIL_STUCK:
	case SIM_FAIL_BOUND:
		return !o->pruned;
	default:
		return false;
	}
}

/*
 * The last step f of a truncated execution races with the next step of
 * every other task enabled before it (notdep(f) is that step alone): all
 * of them go into f's backtrack set, and f's footprint is "all", so it
 * sleeps in none of its siblings and races with every earlier step not
 * ordered before it.
 */
static void truncated_races(struct sim_dpor *d, uint32_t steps,
			    const uint16_t *choices)
{
	struct dpor_node *n = &d->nodes[steps - 1];
	uint64_t others = n->enabled & ~(1ULL << n->chosen);

	if (steps - 1 < d->root) {
		item_request(d, steps - 1, others, true);
		return;
	}
	n->fp[n->chosen].all = true;
	if (d->optimal) {
		d->wut[n->wcur].fp.all = true;
		if (!(others & ~(n->backtrack | n->done | n->sleep)))
			return;
		for (uint64_t m = others; m; m &= m - 1)
			wut_add_task(d, steps - 1,
				     (unsigned int)__builtin_ctzll(m));
		d->races++;
		return;
	}
	if (!(others & ~(n->backtrack | n->done)))
		return;
	if (d->bound >= 0)
		for (uint64_t m = others; m; m &= m - 1)
			add_block_start(d, steps - 1,
					(unsigned int)__builtin_ctzll(m),
					choices);
	n->backtrack |= others;
	d->races++;
}

/*
 * Optimal DPOR's backtracking: at the deepest node whose wakeup tree has
 * a child left after the one just explored, that child is next (with the
 * tasks explored there asleep where independent, as dpor_choose puts
 * them).  Children whose task is explored or asleep there are source
 * entries already covered; one whose task cannot run there is replaced
 * by every task that can (wut_expand).
 */
static bool wut_next(struct sim_strategy *s, uint32_t steps)
{
	struct sim_dpor *d = s->dpor;

	for (uint32_t i = steps; i-- > d->root;) {
		struct dpor_node *n = &d->nodes[i];
		int32_t r = n->wroot;

		wut_remove_first(d, r);
		for (int32_t x; (x = d->wut[r].child) >= 0;) {
			uint64_t bit = 1ULL << d->wut[x].task;

			if ((n->done | n->sleep) & bit) {
				wut_remove_first(d, r);
				continue;
			}
			if (!(n->enabled & bit)) {
				wut_remove_first(d, r);
				wut_expand(d, i);
				continue;
			}
			n->chosen = d->wut[x].task;
			n->done |= bit;
			n->wcur = x;
			d->prefix = i + 1;
			return true;
		}
	}
	s->complete = true;
	return false;
}

static bool dpor_next(struct sim_strategy *s, const struct sim_outcome *o)
{
	struct sim_dpor *d = s->dpor;
	const uint16_t *choices;
	uint32_t steps = sim_exec_schedule(&choices);
	bool cut = steps > 0 && truncated(o);

	s->executions++;
	/* The last step's footprint, for the sleep sets of its siblings. */
	if (steps > 0) {
		struct dpor_node *p = &d->nodes[steps - 1];

		step_footprint(steps - 1, &p->fp[p->chosen]);
		if (d->optimal) {
			d->wut[p->wcur].fp = p->fp[p->chosen];
			d->wut[p->wcur].known = true;
		}
	}
	analyse(d, steps, choices, cut);
	if (cut)
		truncated_races(d, steps, choices);
	if (d->optimal)
		return wut_next(s, steps);
	for (uint32_t i = steps; i-- > d->root;) {
		struct dpor_node *n = &d->nodes[i];
		uint64_t todo = n->backtrack & n->enabled & ~n->done & ~n->sleep;

		while (todo) {
			int q = __builtin_ctzll(todo);

			todo &= todo - 1;
			n->done |= 1ULL << q;
			if (d->bound >= 0 && n->preemptions +
			    is_preemption(n, q) > (uint64_t)d->bound) {
				s->bound_hit = true;
				continue;
			}
			n->chosen = (uint16_t)q;
			d->prefix = i + 1;
			return true;
		}
	}
	s->complete = true;
	return false;
}

static const struct sim_strategy_ops dpor_ops = {
	.name = "dpor",
	.choose = dpor_choose,
	.next = dpor_next,
};

static bool default_optimal;
static enum sim_dpor_lock_sections default_sections;

void sim_dpor_default_optimal(bool on)
{
	default_optimal = on;
}

void sim_dpor_default_lock_sections(enum sim_dpor_lock_sections which)
{
	default_sections = which;
}

int sim_strategy_dpor_bounded(struct sim_strategy *s, int64_t bound)
{
	memset(s, 0, sizeof(*s));
	s->ops = &dpor_ops;
	s->kind = SIM_STRATEGY_DPOR;
	s->preemption_bound = bound;
	s->dpor = calloc(1, sizeof(*s->dpor));
	if (!s->dpor)
		return -1;
	s->dpor->bound = bound;
	/* With a bound, sleep sets are off and races are added at block
	 * starts: the lock-aware reduction is for unbounded DPOR only. */
	s->dpor->lock_aware = bound < 0 &&
			      default_sections != SIM_DPOR_SECTIONS_NONE;
	s->dpor->plain_sections = default_sections == SIM_DPOR_SECTIONS_PLAIN;
	s->dpor->wut_free = -1;
	s->dpor->wut_root = -1;
	sim_dpor_set_optimal(s, bound < 0 && default_optimal);
	return 0;
}

int sim_strategy_dpor(struct sim_strategy *s)
{
	return sim_strategy_dpor_bounded(s, -1);
}

void sim_dpor_free(struct sim_dpor *d)
{
	if (!d)
		return;
	free(d->nodes);
	free(d->root_fp);
	free(d->wut);
	free(d->wut_stack);
	free(d->fwd);
	free(d->req);
	free(d->sec);
	free(d->spw);
	scratch_free(d);
	free(d);
}

/* A name for a task that does not depend on the order of spawns. */
static void trace_task_names(const struct sim_event *events, uint32_t nev,
			     const uint16_t *local, uint64_t *name)
{
	uint32_t spawns_in_step = 0, step = UINT32_MAX;

	/* Spawned by setup: in setup's (fixed) order. */
	for (uint32_t t = 0; t < SIM_TASKS_MAX; t++)
		name[t] = t;
	/*
	 * Spawned by a task (an event posted): named after the spawner and
	 * its step, since two tasks that post in either order get their
	 * ids in that order although the two steps commute.
	 */
	for (uint32_t k = 0; k < nev; k++) {
		const struct sim_event *ev = &events[k];
		uint64_t x;

		if (ev->access != SIM_ACCESS_SPAWN || ev->value >= SIM_TASKS_MAX)
			continue;
		spawns_in_step = ev->step == step ? spawns_in_step + 1 : 0;
		step = ev->step;
		x = (name[ev->task] << 24 ^ (uint64_t)local[ev->step] << 8 ^
		     spawns_in_step) * 0xff51afd7ed558ccdULL;
		name[ev->value] = (x ^ (x >> 33)) | 1ULL << 63;
	}
}

uint64_t sim_exec_trace_hash(void)
{
	const struct sim_event *events;
	uint32_t nev = sim_exec_events(&events);
	const uint16_t *choices;
	uint32_t steps = sim_exec_schedule(&choices);
	struct footprint *fp = calloc(steps + 1, sizeof(*fp));
	uint16_t *local = calloc(steps + 1, sizeof(*local));
	uint16_t count[SIM_TASKS_MAX] = { 0 };
	uint16_t last_touching[SIM_TASKS_MAX] = { 0 };
	uint64_t name[SIM_TASKS_MAX];
	uint64_t h = 0;

	if (!fp || !local) {
		fprintf(stderr, "wpsim: dpor: out of memory\n");
		exit(2);
	}
	for (uint32_t k = 0; k < nev; k++)
		if (events[k].step < steps)
			footprint_add(&fp[events[k].step], &events[k]);
	/*
	 * Which steps ran: per task, its last step that touched something
	 * (a failure can end an execution before the other tasks finish;
	 * steps that touch nothing commute with every step, the last step
	 * of such an execution included, so they do not count).
	 */
	for (uint32_t j = 0; j < steps; j++) {
		local[j] = ++count[choices[j]];
		if (fp[j].count || fp[j].all)
			last_touching[choices[j]] = local[j];
	}
	trace_task_names(events, nev, local, name);
	for (uint32_t t = 0; t < SIM_TASKS_MAX; t++) {
		uint64_t x = (name[t] * 0x9e3779b97f4a7c15ULL ^
			      last_touching[t]) * 0xc2b2ae3d27d4eb4fULL;

		if (last_touching[t])
			h ^= x ^ (x >> 31);
	}
	/* The order of dependent steps, named (task, n-th step of it). */
	for (uint32_t j = 0; j < steps; j++)
		for (uint32_t i = 0; i < j; i++) {
			uint64_t x;

			if (choices[i] == choices[j] ||
			    !dependent(&fp[i], &fp[j]))
				continue;
			x = ((name[choices[i]] * 0x9e3779b97f4a7c15ULL) ^
			     ((uint64_t)local[i] << 32)) * 0xbf58476d1ce4e5b9ULL;
			x ^= (name[choices[j]] * 0x94d049bb133111ebULL) ^
			     local[j];
			x *= 0x9e3779b97f4a7c15ULL;
			h += x ^ (x >> 29);
		}
	free(fp);
	free(local);
	return h;
}

uint64_t sim_dpor_pruned(const struct sim_strategy *s)
{
	return s->dpor ? s->dpor->pruned : 0;
}

uint64_t sim_dpor_races(const struct sim_strategy *s)
{
	return s->dpor ? s->dpor->races : 0;
}

void sim_dpor_set_optimal(struct sim_strategy *s, bool on)
{
	struct sim_dpor *d = s->dpor;

	if (!d)
		return;
	d->optimal = on && d->bound < 0 && d->root == 0 && !d->root_pending;
	if (d->optimal && d->wut_root < 0)
		d->wut_root = wut_new(d, 0, NULL);
}

uint64_t sim_dpor_wut_fallbacks(const struct sim_strategy *s)
{
	return s->dpor ? s->dpor->wut_fallbacks : 0;
}

void sim_dpor_set_lock_aware(struct sim_strategy *s, bool on)
{
	if (s->dpor)
		s->dpor->lock_aware = on && s->dpor->bound < 0;
}

uint64_t sim_dpor_relaxed_pairs(const struct sim_strategy *s)
{
	return s->dpor ? s->dpor->relaxed_pairs : 0;
}

/*
 * How much of DPOR's tree the search has covered, by weight: Kilby,
 * Slaney, Thiébaux and Walsh's weighted backtrack estimator ("Estimating
 * search tree size", AAAI 2006) on DPOR's own tree.  A random walk that
 * picks uniformly among a node's backtrack set reaches a child of node i
 * with probability w(i) / |B(i)|, w(i) the product of 1/|B| above i; the
 * children the search has finished are the done ones but the one on the
 * current path, so the fraction finished is the sum over the path of
 * w(i) (|done(i)| - 1) / |B(i)|.  Leaves so far / fraction estimates the
 * whole, exact once the search is over.  B(i) is the backtrack set as
 * the races found so far made it: DPOR discovers its tree as it goes.
 * Later siblings start with larger sleep sets and are smaller than the
 * first, so the estimate leans high early (docs/performance.md measures
 * it against the counts).  (Weighing the siblings not begun by the mean
 * of the finished ones, recursively, was tried: 100x too high on
 * fault-vs-clear-dirty-for-io, against 20x.)  Called between executions.
 */
double sim_dpor_fraction_done(const struct sim_strategy *s)
{
	const struct sim_dpor *d = s->dpor;
	double w = 1, done = 0;

	if (!d)
		return 0;
	if (s->complete)
		return 1;
	for (uint32_t i = d->root; i < d->prefix; i++) {
		const struct dpor_node *n = &d->nodes[i];
		uint64_t b = (n->backtrack | n->done) & n->enabled & ~n->sleep;
		int k = __builtin_popcountll(b | n->done);
		int finished = __builtin_popcountll(n->done) - 1;

		if (k < 1)
			k = 1;
		if (finished > 0)
			done += w * finished / k;
		w /= k;
	}
	return done;
}

/*
 * Splitting one exploration (docs/architecture.md, "Splitting one
 * exploration").  The top of the tree is explored by sleep-set DFS: at
 * each node every enabled task that does not sleep, in task order; a
 * sibling q explored after p puts p to sleep in q's child when their
 * steps are independent (dependent() on the plain footprints, as the
 * sleep sets below use), and a sleeping task stays asleep while the steps
 * taken are independent of its own.  A node with one task to run is not
 * a level: the run goes on through it.  Levels are expanded until there
 * are at least @items_min leaves or @levels_max levels; each leaf is an
 * item: a prefix with its sleep set, from which sim_strategy_dpor_item
 * runs DPOR, or an execution that ended inside the top (an item of one
 * execution).  A node where every enabled task sleeps is redundant.
 *
 * A node where one of the choices takes or releases a lock is not
 * expanded (it stays an item): the top runs every order of the critical
 * sections that start there, where the lock-aware reduction runs one
 * when their accesses do not race (dontcache/adjacent-records ran 2.5x
 * the executions with such nodes expanded).  Which nodes the top expands
 * does not matter to soundness: an expanded node has every choice run.
 *
 * Running items split such nodes instead (sim_dpor_donate): they give
 * away the choices DPOR asked for and hand the nodes with untried
 * choices to the coordinator (struct top_node), to which they forward
 * the races they find there (item_request); the coordinator adds them
 * in merge order and runs the new choices (sim_dpor_tops_apply).
 */
struct split_node {
	uint16_t *choices;
	uint32_t len;
	uint64_t enabled;	/* at node len (a branch node) */
	uint64_t sleep;		/* asleep at node len */
	bool finished;		/* the execution ended at len */
	bool redundant;		/* every enabled task slept */
	bool leaf;		/* not expanded: an item (see lock_step) */
	/* The lock the step at the parent's branch node takes or releases
	 * exclusively, or 0 (split_expand). */
	uint32_t lock_step;
	/* Footprint of the step at the parent's branch node. */
	struct footprint first;
	/* Sleeping tasks' footprints (and, while expanding, the done). */
	struct footprint fp[SIM_TASKS_MAX];
	/* Depths above it whose node the coordinator owns (sorted), and
	 * the deepest of those nodes (sim_dpor_tops_apply), or -1. */
	uint32_t *fwd;
	uint32_t nfwd;
	int32_t ctx;
};

/*
 * A node above the items that the coordinator owns (sim_dpor_donate
 * hands it over; sim_dpor_tops_apply adds the races items forward for
 * it and runs the new choices): source-DPOR's node, whose backtrack set
 * the races found below it fill, in the order the coordinator merges
 * them.
 */
struct top_node {
	uint16_t *choices;	/* the path to it */
	uint32_t depth;
	int32_t up;		/* the owned node above it, or -1 */
	uint64_t enabled, sleep, done, backtrack;
	uint64_t nofp;		/* done, footprint not known */
	bool touched;		/* backtrack grew since the last spawn */
	uint32_t ntasks;	/* entries of fp */
	struct footprint *fp;	/* of the done and sleeping tasks */
};

struct sim_dpor_tops {
	struct top_node *node;
	uint32_t count, cap;
};

/*
 * Set by estimate_items around its second sim_dpor_split only: lock
 * nodes are expanded too (every order of their sections, as sleep-set
 * DFS).
 */
static bool split_expand_locks;

struct sim_dpor_split {
	struct split_node *items;
	uint32_t count;
	uint32_t levels;
	uint64_t pruned;	/* redundant nodes in the top */
	uint64_t steps;		/* steps the top's runs took */
	uint64_t runs;
	/* A donation: the nodes it hands over to the coordinator. */
	struct top_node *nodes;
	uint32_t nnodes;
};

/* The strategy of one run of the top: follow, then go on while forced. */
struct split_run {
	struct sim_strategy s;	/* first: the engine passes &s */
	struct split_node *node;	/* choices to follow; filled in */
	uint32_t follow;	/* choices to follow */
	uint32_t branch;	/* the branch node the last choice is at */
	uint32_t cap;		/* capacity of node->choices */
	uint64_t sleep;		/* asleep at the node being decided */
};

static void split_push(struct split_run *r, uint16_t task)
{
	struct split_node *n = r->node;

	if (n->len == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 64;
		n->choices = realloc(n->choices, r->cap * sizeof(*n->choices));
		if (!n->choices) {
			fprintf(stderr, "wpsim: dpor: out of memory\n");
			exit(2);
		}
	}
	n->choices[n->len++] = task;
}

static int split_choose(struct sim_strategy *s, const struct sim_choice *c)
{
	struct split_run *r = (struct split_run *)s;
	struct split_node *n = r->node;
	uint64_t candidates;

	if (c->step == 0)
		sim_blocking_takes_reset();
	/* Past the branch node: the step just taken wakes its dependents. */
	if (c->step > r->branch) {
		struct footprint taken;
		uint64_t asleep = r->sleep;

		step_footprint(c->step - 1, &taken);
		if (c->step - 1 == r->branch)
			n->first = taken;
		while (asleep) {
			int t = __builtin_ctzll(asleep);

			asleep &= asleep - 1;
			if (dependent(&n->fp[t], &taken))
				r->sleep &= ~(1ULL << t);
		}
	}
	if (c->step < r->follow)
		return n->choices[c->step];
	candidates = c->enabled & ~r->sleep;
	n->enabled = c->enabled;
	n->sleep = r->sleep;
	if (!candidates) {
		n->redundant = true;
		return SIM_CHOICE_PRUNE;
	}
	if (candidates & (candidates - 1))
		return SIM_CHOICE_PRUNE;	/* a branch node: stop here */
	split_push(r, (uint16_t)__builtin_ctzll(candidates));
	r->follow = n->len;
	return n->choices[c->step];
}

static const struct sim_strategy_ops split_ops = {
	.name = "dpor",
	.choose = split_choose,
};

/*
 * Run @n's choices (the last taken at node @branch with @n->sleep asleep
 * there, footprints in @n->fp) and go on while one task is left to run;
 * fill in where it stopped.
 */
static void split_run(struct sim_dpor_split *sp,
		      const struct sim_program *program,
		      const struct sim_exec_options *exec,
		      struct split_node *n, uint32_t branch)
{
	struct split_run r;
	struct sim_outcome o;

	memset(&r, 0, sizeof(r));
	r.s.ops = &split_ops;
	r.s.kind = SIM_STRATEGY_DPOR;
	r.node = n;
	r.follow = n->len;
	r.cap = n->len;
	r.branch = branch;
	r.sleep = n->sleep;
	n->redundant = false;
	n->finished = false;
	sim_exec_run(program, &r.s, exec, &o);
	sp->runs++;
	sp->steps += o.steps;
	n->lock_step = 0;
	if (branch != UINT32_MAX) {
		const struct sim_event *events;
		uint32_t nev = sim_exec_events(&events);

		for (uint32_t k = 0; k < nev; k++)
			if (events[k].step == branch &&
			    (lock_access(&events[k]) == SIM_ACCESS_ACQUIRE ||
			     lock_access(&events[k]) == SIM_ACCESS_RELEASE))
				n->lock_step = events[k].object;
	}
	if (o.pruned)
		return;
	/* Ended inside the top: its choices are the whole schedule. */
	{
		const uint16_t *choices;
		uint32_t steps = sim_exec_schedule(&choices);

		n->len = 0;
		for (uint32_t k = 0; k < steps; k++)
			split_push(&r, choices[k]);
	}
	n->finished = true;
	if (branch != UINT32_MAX && o.steps == branch + 1) {
		step_footprint(branch, &n->first);
		if (truncated(&o))
			n->first.all = true;
	}
}

static void split_node_free(struct split_node *n)
{
	free(n->choices);
	n->choices = NULL;
	free(n->fwd);
	n->fwd = NULL;
}

static void *split_alloc(size_t n)
{
	void *p = calloc(n ? n : 1, 1);

	if (!p) {
		fprintf(stderr, "wpsim: dpor: out of memory\n");
		exit(2);
	}
	return p;
}

/* Give item @n the forwarded depths @fwd[0, @nfwd) and node @ctx. */
static void split_node_fwd(struct split_node *n, const uint32_t *fwd,
			   uint32_t nfwd, int32_t ctx)
{
	n->fwd = split_alloc(nfwd * sizeof(*fwd));
	if (nfwd)
		memcpy(n->fwd, fwd, nfwd * sizeof(*fwd));
	n->nfwd = nfwd;
	n->ctx = ctx;
}

static struct split_node *split_append(struct split_node *list,
				       uint32_t *count, uint32_t *cap)
{
	if (*count == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		list = realloc(list, *cap * sizeof(*list));
		if (!list) {
			fprintf(stderr, "wpsim: dpor: out of memory\n");
			exit(2);
		}
	}
	memset(&list[*count], 0, sizeof(list[*count]));
	list[*count].ctx = -1;
	return list;
}

/*
 * The children of a branch node after @choices[0, @len): for each task of
 * @candidates in task order its run, with @asleep (footprints in @fp)
 * and the children run before it asleep where independent; each child's
 * footprint goes into @fp.  Appended to @list; redundant ones counted.
 * *@locks: a child's step there (or @other_lock, another choice's)
 * takes or releases a lock.
 */
static struct split_node *split_expand(struct sim_dpor_split *sp,
				       const struct sim_program *program,
				       const struct sim_exec_options *exec,
				       const uint16_t *choices, uint32_t len,
				       uint64_t candidates, uint64_t asleep,
				       struct footprint *fp,
				       struct split_node *list,
				       uint32_t *count, uint32_t *cap,
				       uint32_t other_lock, bool *locks)
{
	*locks = other_lock != 0;
	while (candidates) {
		int t = __builtin_ctzll(candidates);
		struct split_node *ch;

		candidates &= candidates - 1;
		list = split_append(list, count, cap);
		ch = &list[*count];
		ch->choices = malloc((len + 1) * sizeof(*ch->choices));
		if (!ch->choices) {
			fprintf(stderr, "wpsim: dpor: out of memory\n");
			exit(2);
		}
		if (len)	/* the root's choices may be NULL */
			memcpy(ch->choices, choices,
			       len * sizeof(*ch->choices));
		ch->choices[len] = (uint16_t)t;
		ch->len = len + 1;
		ch->sleep = asleep;
		for (uint64_t m = asleep; m; m &= m - 1) {
			int p = __builtin_ctzll(m);

			ch->fp[p] = fp[p];
		}
		split_run(sp, program, exec, ch, len);
		fp[t] = ch->first;
		asleep |= 1ULL << t;
		if (ch->lock_step)
			*locks = true;
		if (ch->redundant) {
			sp->pruned++;
			split_node_free(ch);
			continue;
		}
		(*count)++;
	}
	return list;
}


struct sim_dpor_split *sim_dpor_split(const struct sim_program *program,
				      const struct sim_exec_options *exec,
				      uint32_t items_min, uint32_t levels_max)
{
	struct sim_dpor_split *sp = calloc(1, sizeof(*sp));
	struct split_node *level, *next;
	uint32_t count = 0, cap = 0;

	if (!sp) {
		fprintf(stderr, "wpsim: dpor: out of memory\n");
		exit(2);
	}
	level = split_append(NULL, &count, &cap);
	count = 1;
	split_run(sp, program, exec, &level[0], UINT32_MAX);
	if (level[0].redundant) {	/* cannot be: nothing sleeps yet */
		sp->pruned++;
		count = 0;
	}
	while (count < items_min && sp->levels < levels_max) {
		uint32_t ncount = 0, ncap = 0;
		bool grew = false;

		next = NULL;
		for (uint32_t i = 0; i < count; i++) {
			struct split_node *n = &level[i];
			uint64_t candidates = n->enabled & ~n->sleep;

			if (n->finished || n->leaf) {
				next = split_append(next, &ncount, &ncap);
				next[ncount++] = *n;
				continue;
			}
			{
				uint32_t first = ncount;
				uint64_t pruned = sp->pruned;
				bool locks;

				next = split_expand(sp, program, exec,
						    n->choices, n->len,
						    candidates, n->sleep, n->fp,
						    next, &ncount, &ncap, 0,
						    &locks);
				if (locks && !split_expand_locks) {
					/* Keep n whole: DPOR orders its lock
					 * sections better than the top. */
					for (uint32_t j = first; j < ncount;
					     j++)
						split_node_free(&next[j]);
					ncount = first;
					sp->pruned = pruned;
					n->leaf = true;
					next = split_append(next, &ncount,
							    &ncap);
					next[ncount++] = *n;
					continue;
				}
			}
			grew = true;
			split_node_free(n);
		}
		free(level);
		level = next;
		count = ncount;
		if (!grew)
			break;
		sp->levels++;
	}
	sp->items = level;
	sp->count = count;
	return sp;
}

uint32_t sim_dpor_split_items(const struct sim_dpor_split *sp)
{
	return sp->count;
}

void sim_dpor_split_stats(const struct sim_dpor_split *sp, uint32_t *levels,
			  uint64_t *pruned, uint64_t *steps)
{
	*levels = sp->levels;
	*pruned = sp->pruned;
	*steps = sp->steps;
}

static void top_node_free(struct top_node *t)
{
	free(t->choices);
	free(t->fp);
}

void sim_dpor_split_free(struct sim_dpor_split *sp)
{
	if (!sp)
		return;
	for (uint32_t i = 0; i < sp->count; i++)
		split_node_free(&sp->items[i]);
	for (uint32_t i = 0; i < sp->nnodes; i++)
		top_node_free(&sp->nodes[i]);
	free(sp->nodes);
	free(sp->items);
	free(sp);
}

/* Depth @i's node is the coordinator's (d->fwd, sorted)? */
static bool item_forwards(const struct sim_dpor *d, uint32_t i)
{
	uint32_t lo = 0, hi = d->nfwd;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (d->fwd[mid] == i)
			return true;
		if (d->fwd[mid] < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* The node at depth @i is the coordinator's from now on. */
static void fwd_add(struct sim_dpor *d, uint32_t i)
{
	uint32_t k;

	if (item_forwards(d, i))
		return;
	if (d->nfwd == d->fwd_cap) {
		d->fwd_cap = d->fwd_cap ? 2 * d->fwd_cap : 16;
		d->fwd = realloc(d->fwd, d->fwd_cap * sizeof(*d->fwd));
		if (!d->fwd) {
			fprintf(stderr, "wpsim: dpor: out of memory\n");
			exit(2);
		}
	}
	for (k = d->nfwd; k > 0 && d->fwd[k - 1] > i; k--)
		d->fwd[k] = d->fwd[k - 1];
	d->fwd[k] = i;
	d->nfwd++;
}

/*
 * The hook of the race analysis for a node above an item's root that
 * the coordinator owns: the race's initials @set (@all: every task of
 * it, as truncated_races and a walk that overflowed add) are kept, once
 * each, to be sent with the item's result; the coordinator decides, at
 * its node, what add_backtrack_at decides at a node of its own.  A
 * request that a task done here (done there too) already meets is not
 * kept.
 */
static void item_request(struct sim_dpor *d, uint32_t i, uint64_t set,
			 bool all)
{
	const struct dpor_node *n = &d->nodes[i];
	struct dpor_request *r;

	if (!item_forwards(d, i))
		return;
	if (all ? !(set & n->enabled & ~n->done) : (set & n->done) != 0)
		return;
	for (uint32_t k = d->nreq; k-- > 0;)
		if (d->req[k].depth == i && d->req[k].set == set &&
		    d->req[k].all == all)
			return;
	if (d->nreq == d->req_cap) {
		d->req_cap = d->req_cap ? 2 * d->req_cap : 64;
		d->req = realloc(d->req, d->req_cap * sizeof(*d->req));
		if (!d->req) {
			fprintf(stderr, "wpsim: dpor: out of memory\n");
			exit(2);
		}
	}
	r = &d->req[d->nreq++];
	r->depth = i;
	r->all = all;
	r->set = set;
}

/*
 * @d emptied for another item, its blocks kept: what
 * sim_strategy_dpor_bounded(s, -1) makes, with @d's node array, race
 * analysis scratch, sleep footprints, forwarded depths and requests
 * (their contents are written before they are read: the analysis starts
 * again from step 0, valid_steps 0).  The per-object records the
 * analysis leaves all zero after every execution are zeroed again with
 * the rest of the struct.
 */
static void dpor_recycle(struct sim_strategy *s, struct sim_dpor *d)
{
	struct sim_dpor keep = *d;

	memset(d, 0, sizeof(*d));
	d->nodes = keep.nodes;
	d->nodes_max = keep.nodes_max;
	d->step_fp = keep.step_fp;
	d->clock = keep.clock;
	d->local_index = keep.local_index;
	d->acquired = keep.acquired;
	d->took = keep.took;
	d->relaxed = keep.relaxed;
	d->relaxed_next = keep.relaxed_next;
	d->released = keep.released;
	d->released_shared = keep.released_shared;
	d->deps = keep.deps;
	d->fp_prev = keep.fp_prev;
	d->all_prev = keep.all_prev;
	d->prev_shared = keep.prev_shared;
	d->scratch_max = keep.scratch_max;
	d->wut = keep.wut;
	d->wut_max = keep.wut_max;
	d->wut_stack = keep.wut_stack;
	d->wut_stack_max = keep.wut_stack_max;
	d->seq = keep.seq;
	d->full = keep.full;
	d->gone = keep.gone;
	d->root_fp = keep.root_fp;
	d->fwd = keep.fwd;
	d->fwd_cap = keep.fwd_cap;
	d->req = keep.req;
	d->req_cap = keep.req_cap;
	d->sec = keep.sec;	/* nsec 0: built again from step 0 */
	d->sec_max = keep.sec_max;
	d->spw = keep.spw;
	d->spw_max = keep.spw_max;
	memset(s, 0, sizeof(*s));
	s->ops = &dpor_ops;
	s->kind = SIM_STRATEGY_DPOR;
	s->preemption_bound = -1;
	s->dpor = d;
	d->bound = -1;
	d->lock_aware = default_sections != SIM_DPOR_SECTIONS_NONE;
	d->plain_sections = default_sections == SIM_DPOR_SECTIONS_PLAIN;
	d->wut_free = -1;
	d->wut_root = -1;
	sim_dpor_set_optimal(s, default_optimal);
}

struct sim_dpor *sim_dpor_keep(struct sim_strategy *s)
{
	struct sim_dpor *d = s->dpor;

	s->dpor = NULL;
	return d;
}

int sim_strategy_dpor_item(struct sim_strategy *s,
			   const struct sim_dpor_split *sp, uint32_t item)
{
	return sim_strategy_dpor_item_reuse(s, sp, item, NULL);
}

int sim_strategy_dpor_item_reuse(struct sim_strategy *s,
				 const struct sim_dpor_split *sp,
				 uint32_t item, struct sim_dpor *spare)
{
	const struct split_node *n = &sp->items[item];
	struct sim_dpor *d;

	if (spare)
		dpor_recycle(s, spare);
	else if (sim_strategy_dpor_bounded(s, -1) != 0)
		return -1;
	d = s->dpor;
	/* Items run source-DPOR: the split hands out backtrack sets. */
	d->optimal = false;
	grow(d, n->len + 1);
	if (d->root_fp)
		memset(d->root_fp, 0, SIM_TASKS_MAX * sizeof(*d->root_fp));
	else
		d->root_fp = calloc(SIM_TASKS_MAX, sizeof(*d->root_fp));
	if (!d->root_fp)
		return -1;
	for (uint32_t i = 0; i < n->len; i++) {
		memset(&d->nodes[i], 0, offsetof(struct dpor_node, fp));
		d->nodes[i].chosen = n->choices[i];
		d->nodes[i].done = 1ULL << n->choices[i];
		d->nodes[i].backtrack = d->nodes[i].done;
	}
	d->prefix = n->len;
	d->root = n->len;
	d->root_pending = true;
	d->root_sleep = n->finished ? 0 : n->sleep;
	for (uint64_t m = d->root_sleep; m; m &= m - 1) {
		int t = __builtin_ctzll(m);

		d->root_fp[t] = n->fp[t];
	}
	for (uint32_t i = 0; i < n->nfwd; i++)
		fwd_add(d, n->fwd[i]);
	return 0;
}

/*
 * The second half of sim_dpor_estimate: a sample of the subtrees below
 * the top of the tree.  The top is explored as the split search's is
 * (sim_dpor_split: sleep-set DFS over its first levels, every enabled
 * task that does not sleep, a lock's node kept whole) until it has at
 * least @budget / 8 leaves (16 to 4096); each leaf is an item, and the
 * items together run the whole search (docs/architecture.md,
 * "Splitting one exploration").  Where lock nodes kept the top under a
 * quarter of that, it is explored again with lock nodes expanded (every
 * order of their sections: the items then hold more than DPOR runs, and
 * the estimate leans high).  Items are drawn uniformly without
 * replacement (splitmix64 from a fixed seed: the same draws every run)
 * and each runs DPOR to its end or to its share of what is left of
 * @budget (the rest over the next 16 items, at most); an item cut there
 * stands by its own weighted backtrack estimate.  With m items and k
 * drawn, the whole is estimated as the top's redundant nodes plus m
 * times the drawn items' mean: Knuth's estimate over the top, exact
 * when every item is drawn and finished.
 */
static void estimate_items(const struct sim_program *program,
			   const struct sim_exec_options *exec,
			   uint64_t budget, struct sim_dpor_estimate *e)
{
	uint32_t items_min = (uint32_t)(budget / 8 < 16 ? 16 :
					budget / 8 > 4096 ? 4096 :
					budget / 8);
	struct sim_dpor_split *sp;
	uint32_t m, k = 0;
	uint32_t *perm;
	uint64_t rng = 0x34e57, left, spent;
	double sum = 0, cut = 0;

	sp = sim_dpor_split(program, exec, items_min, 1000);
	if (sp->count < items_min / 4) {
		/* Lock nodes kept the top small: expand them too. */
		spent = sp->runs;
		sim_dpor_split_free(sp);
		split_expand_locks = true;
		sp = sim_dpor_split(program, exec, items_min, 1000);
		split_expand_locks = false;
		sp->runs += spent;
		e->items_expanded = true;
	}
	m = sp->count;
	spent = sp->runs;
	perm = malloc((m ? m : 1) * sizeof(*perm));
	if (!perm) {
		fprintf(stderr, "wpsim: dpor: out of memory\n");
		exit(2);
	}
	for (uint32_t i = 0; i < m; i++)
		perm[i] = i;
	for (uint32_t i = m; i > 1; i--) {
		uint32_t j = (uint32_t)(sim_rng_next(&rng) % i);
		uint32_t t = perm[i - 1];

		perm[i - 1] = perm[j];
		perm[j] = t;
	}
	/* The top may take more than the budget: the items get half. */
	left = budget > spent + budget / 2 ? budget - spent : budget / 2;
	while (k < m && left > 0) {
		struct sim_strategy s;
		struct sim_outcome o;
		uint32_t share = m - k < 16 ? m - k : 16;
		uint64_t x = 0, c = left / share > 1 ? left / share : 1;
		bool more = true;
		double xh;

		if (sim_strategy_dpor_item(&s, sp, perm[k]) != 0) {
			fprintf(stderr, "wpsim: dpor: out of memory\n");
			exit(2);
		}
		while (more && x < c) {
			sim_exec_run(program, &s, exec, &o);
			x++;
			more = s.ops->next(&s, &o);
		}
		if (more) {
			double f = sim_dpor_fraction_done(&s);

			xh = f > 0 ? (double)x / f : (double)x;
			e->items_cut++;
			cut += xh;
		} else {
			xh = (double)x;
		}
		sim_strategy_fini(&s);
		left -= x;
		spent += x;
		sum += xh;
		k++;
	}
	e->items = m;
	e->items_run = k;
	e->item_executions = spent;
	if (k > 0) {
		e->items_mean = (double)sp->pruned + (double)m * (sum / k);
		e->items_cut_share = sum > 0 ? cut / sum : 0;
	}
	free(perm);
	sim_dpor_split_free(sp);
}

/*
 * An estimate of the whole count of DPOR within @bound from about twice
 * @executions executions.  First DPOR itself, in its own order, for
 * @executions: the whole count if it ends; else at least that many (a
 * true lower bound: they are the search's first executions), and the
 * weighted backtrack estimate (sim_dpor_fraction_done), which leans low
 * where later siblings hold most of the tree (mm/fsync-eio-*: 30x low
 * after 1 000) and high where they hold little.  Then, unbounded and
 * without wakeup trees only, a sample of the subtrees below the top
 * (estimate_items), for about as many executions again: its estimate,
 * never below the lower bound, is the one given.  No interval: the
 * subtrees are heavy-tailed and most of the large ones are cut, so a
 * spread of the sample would not say how far off it is
 * (docs/performance.md measures it, bench/estimate-check.py).
 */
void sim_dpor_estimate(const struct sim_program *program,
		       const struct sim_exec_options *exec, int64_t bound,
		       uint64_t executions, struct sim_dpor_estimate *e)
{
	struct sim_strategy s;
	struct sim_outcome o;
	bool more = true, optimal;

	memset(e, 0, sizeof(*e));
	if (sim_strategy_dpor_bounded(&s, bound) != 0) {
		fprintf(stderr, "wpsim: dpor: out of memory\n");
		exit(2);
	}
	optimal = s.dpor->optimal;
	while (more && e->executions < executions) {
		sim_exec_run(program, &s, exec, &o);
		e->executions++;
		more = s.ops->next(&s, &o);
	}
	e->complete = !more;
	e->fraction = sim_dpor_fraction_done(&s);
	e->backtrack_mean = e->complete ? (double)e->executions :
			    e->fraction > 0 ?
			    (double)e->executions / e->fraction : INFINITY;
	e->mean = e->backtrack_mean;
	sim_strategy_fini(&s);
	if (e->complete || bound >= 0 || optimal || executions == 0)
		return;
	estimate_items(program, exec, executions, e);
	if (e->items_run == 0)
		return;
	e->mean = e->items_mean > (double)e->executions ? e->items_mean :
		  (double)e->executions;
}

/* Hand node @k of @d over: a copy of its state (the path, the sets and
 * the footprints of its done and sleeping tasks). */
static void top_node_take(struct top_node *t, const struct sim_dpor *d,
			  uint32_t k, bool last)
{
	const struct dpor_node *n = &d->nodes[k];
	uint64_t known;

	memset(t, 0, sizeof(*t));
	t->depth = k;
	t->up = -1;
	t->enabled = n->enabled;
	t->sleep = n->sleep;
	t->done = n->done;
	t->backtrack = n->backtrack;
	/* The choice just made at the deepest node has not run yet. */
	t->nofp = last ? 1ULL << n->chosen : 0;
	t->choices = split_alloc((k + 1) * sizeof(*t->choices));
	for (uint32_t j = 0; j < k; j++)
		t->choices[j] = d->nodes[j].chosen;
	known = (t->sleep | t->done) & ~t->nofp;
	t->ntasks = known ? 64 - (uint32_t)__builtin_clzll(known) : 0;
	t->fp = split_alloc(t->ntasks * sizeof(*t->fp));
	for (uint64_t m = known; m; m &= m - 1)
		t->fp[__builtin_ctzll(m)] = n->fp[__builtin_ctzll(m)];
}

/*
 * Give away part of a running item (docs/architecture.md, "Splitting one
 * exploration"): at the shallowest node k at or below the root where
 * DPOR's backtrack set holds tasks neither done nor asleep, those tasks
 * become items of their own (each run to its next branch node, with the
 * tasks done there and the ones given before it asleep where
 * independent), and the root moves to k + 1.  The nodes from the root to
 * k that still have untried choices (that no race asked for yet) are
 * handed over to the coordinator (sp->nodes): a race found later below
 * one of them, by this item or another, is forwarded there
 * (item_request) and the coordinator runs the choices it asks for
 * (sim_dpor_tops_apply), as DPOR would at its own node.  The choice just
 * made at the deepest node (the next execution's, not run yet) is left
 * out of the sleep sets of the tasks given away there: its footprint is
 * not known, and a smaller sleep set only explores more.  Returns NULL
 * when nothing is given (call between executions; unbounded DPOR only).
 */
struct sim_dpor_split *sim_dpor_donate(struct sim_strategy *s,
				       const struct sim_program *program,
				       const struct sim_exec_options *exec)
{
	struct sim_dpor *d = s->dpor;
	struct sim_dpor_split *sp;
	struct footprint *fp;
	uint32_t count = 0, cap = 0, last, nodes = 0;
	uint16_t *choices;
	bool locks;

	if (!d || s->complete || d->bound >= 0 || d->prefix <= d->root)
		return NULL;
	last = d->prefix - 1;
	for (uint32_t k = d->root; k <= last; k++) {
		struct dpor_node *n = &d->nodes[k];
		uint64_t give = n->backtrack & n->enabled & ~n->sleep &
				~n->done;
		uint64_t asleep = n->sleep | n->done;

		if (!give)
			continue;
		if (k == last)
			asleep &= ~(1ULL << n->chosen);
		sp = split_alloc(sizeof(*sp));
		fp = split_alloc(SIM_TASKS_MAX * sizeof(*fp));
		choices = split_alloc((k + 1) * sizeof(*choices));
		memcpy(fp, n->fp, SIM_TASKS_MAX * sizeof(*fp));
		for (uint32_t j = 0; j < k; j++)
			choices[j] = d->nodes[j].chosen;
		sp->items = split_expand(sp, program, exec, choices, k, give,
					 asleep, fp, NULL, &count, &cap, 0,
					 &locks);
		sp->count = count;
		free(choices);
		/* Done here now: the next execution's choice at k sleeps them
		 * where their steps (now known) allow. */
		memcpy(n->fp, fp, SIM_TASKS_MAX * sizeof(*fp));
		free(fp);
		n->done |= give;
		for (uint32_t j = d->root; j <= k; j++) {
			const struct dpor_node *m = &d->nodes[j];

			if (m->enabled & ~m->sleep & ~m->done)
				nodes++;
		}
		sp->nodes = split_alloc(nodes * sizeof(*sp->nodes));
		for (uint32_t j = d->root; j <= k; j++) {
			const struct dpor_node *m = &d->nodes[j];

			if (!(m->enabled & ~m->sleep & ~m->done))
				continue;
			top_node_take(&sp->nodes[sp->nnodes++], d, j,
				      j == last);
			fwd_add(d, j);
		}
		d->root = k + 1;
		for (uint32_t i = 0; i < sp->count; i++)
			split_node_fwd(&sp->items[i], d->fwd, d->nfwd, -1);
		return sp;
	}
	return NULL;
}

/*
 * An item as bytes (the same binary reads them): its length, whether it
 * ended in the top, its sleep set, its choices, the sleeping tasks'
 * footprints, the depths it forwards races for.  Returns the size;
 * writes when @size allows.
 */
size_t sim_dpor_split_pack(const struct sim_dpor_split *sp, uint32_t item,
			   void *buf, size_t size)
{
	const struct split_node *n = &sp->items[item];
	size_t need = sizeof(uint32_t) + 1 + sizeof(uint64_t) +
		      n->len * sizeof(*n->choices) +
		      (size_t)__builtin_popcountll(n->sleep) *
		      sizeof(struct footprint) +
		      sizeof(uint32_t) + n->nfwd * sizeof(uint32_t);
	char *p = buf;

	if (size < need)
		return need;
	memcpy(p, &n->len, sizeof(n->len));
	p += sizeof(n->len);
	*p++ = n->finished;
	memcpy(p, &n->sleep, sizeof(n->sleep));
	p += sizeof(n->sleep);
	if (n->len)
		memcpy(p, n->choices, n->len * sizeof(*n->choices));
	p += n->len * sizeof(*n->choices);
	for (uint64_t m = n->sleep; m; m &= m - 1) {
		memcpy(p, &n->fp[__builtin_ctzll(m)], sizeof(struct footprint));
		p += sizeof(struct footprint);
	}
	memcpy(p, &n->nfwd, sizeof(n->nfwd));
	p += sizeof(n->nfwd);
	if (n->nfwd)
		memcpy(p, n->fwd, n->nfwd * sizeof(*n->fwd));
	return need;
}

static void split_bad(void)
{
	fprintf(stderr, "wpsim: dpor: a split item is malformed\n");
	exit(2);
}

struct sim_dpor_split *sim_dpor_split_unpack(const void *buf, size_t size)
{
	struct sim_dpor_split *sp = split_alloc(sizeof(*sp));
	const char *p = buf;
	struct split_node *n;
	size_t need;

	if (size < sizeof(uint32_t) + 1 + sizeof(uint64_t))
		split_bad();
	sp->items = split_alloc(sizeof(*sp->items));
	sp->count = 1;
	n = &sp->items[0];
	n->ctx = -1;
	memcpy(&n->len, p, sizeof(n->len));
	p += sizeof(n->len);
	n->finished = *p++;
	memcpy(&n->sleep, p, sizeof(n->sleep));
	p += sizeof(n->sleep);
	need = sizeof(uint32_t) + 1 + sizeof(uint64_t) +
	       (size_t)n->len * sizeof(*n->choices) +
	       (size_t)__builtin_popcountll(n->sleep) *
	       sizeof(struct footprint) + sizeof(uint32_t);
	if (size < need)
		split_bad();
	n->choices = split_alloc((n->len + 1) * sizeof(*n->choices));
	if (n->len)
		memcpy(n->choices, p, n->len * sizeof(*n->choices));
	p += n->len * sizeof(*n->choices);
	for (uint64_t m = n->sleep; m; m &= m - 1) {
		memcpy(&n->fp[__builtin_ctzll(m)], p, sizeof(struct footprint));
		p += sizeof(struct footprint);
	}
	memcpy(&n->nfwd, p, sizeof(n->nfwd));
	p += sizeof(n->nfwd);
	if (size != need + (size_t)n->nfwd * sizeof(uint32_t))
		split_bad();
	n->fwd = split_alloc(n->nfwd * sizeof(*n->fwd));
	if (n->nfwd)
		memcpy(n->fwd, p, n->nfwd * sizeof(*n->fwd));
	return sp;
}

int32_t sim_dpor_split_item_ctx(const struct sim_dpor_split *sp,
				uint32_t item)
{
	return sp->items[item].ctx;
}

/* Bytes: a reader of what the same binary wrote (short: malformed). */
struct rd {
	const char *p;
	size_t left;
};

static void rd_get(struct rd *r, void *out, size_t n)
{
	if (n > r->left)
		split_bad();
	if (n)
		memcpy(out, r->p, n);
	r->p += n;
	r->left -= n;
}

static void wr_put(char **p, size_t *need, size_t size, const void *in,
		   size_t n)
{
	if (*need + n <= size && n)
		memcpy(*p + *need, in, n);
	*need += n;
}

/*
 * The nodes donation @sp hands over, as bytes: their count, then each
 * one's depth, sets, path and known footprints.  Returns the size;
 * writes when @size allows.
 */
size_t sim_dpor_split_pack_nodes(const struct sim_dpor_split *sp, void *buf,
				 size_t size)
{
	size_t need = 0;
	char *p = buf;

	wr_put(&p, &need, size, &sp->nnodes, sizeof(sp->nnodes));
	for (uint32_t i = 0; i < sp->nnodes; i++) {
		const struct top_node *t = &sp->nodes[i];
		uint64_t known = (t->sleep | t->done) & ~t->nofp;

		wr_put(&p, &need, size, &t->depth, sizeof(t->depth));
		wr_put(&p, &need, size, &t->enabled, sizeof(t->enabled));
		wr_put(&p, &need, size, &t->sleep, sizeof(t->sleep));
		wr_put(&p, &need, size, &t->done, sizeof(t->done));
		wr_put(&p, &need, size, &t->backtrack, sizeof(t->backtrack));
		wr_put(&p, &need, size, &t->nofp, sizeof(t->nofp));
		wr_put(&p, &need, size, t->choices,
		       t->depth * sizeof(*t->choices));
		for (uint64_t m = known; m; m &= m - 1)
			wr_put(&p, &need, size, &t->fp[__builtin_ctzll(m)],
			       sizeof(*t->fp));
	}
	return need;
}

struct sim_dpor_tops *sim_dpor_tops_new(void)
{
	return split_alloc(sizeof(struct sim_dpor_tops));
}

void sim_dpor_tops_free(struct sim_dpor_tops *t)
{
	if (!t)
		return;
	for (uint32_t i = 0; i < t->count; i++)
		top_node_free(&t->node[i]);
	free(t->node);
	free(t);
}

/*
 * A donation's nodes (sim_dpor_split_pack_nodes) from an item whose
 * deepest owned node was @ctx: they become the coordinator's, each below
 * the one before.  Returns the deepest owned node now (for the donor and
 * the items given away).
 */
int32_t sim_dpor_tops_add(struct sim_dpor_tops *t, int32_t ctx,
			  const void *buf, size_t len)
{
	struct rd r = { buf, len };
	uint32_t count;

	rd_get(&r, &count, sizeof(count));
	for (uint32_t i = 0; i < count; i++) {
		struct top_node *n;
		uint64_t known;

		if (t->count == t->cap) {
			t->cap = t->cap ? 2 * t->cap : 64;
			t->node = realloc(t->node, t->cap * sizeof(*t->node));
			if (!t->node) {
				fprintf(stderr, "wpsim: dpor: out of memory\n");
				exit(2);
			}
		}
		n = &t->node[t->count];
		memset(n, 0, sizeof(*n));
		rd_get(&r, &n->depth, sizeof(n->depth));
		rd_get(&r, &n->enabled, sizeof(n->enabled));
		rd_get(&r, &n->sleep, sizeof(n->sleep));
		rd_get(&r, &n->done, sizeof(n->done));
		rd_get(&r, &n->backtrack, sizeof(n->backtrack));
		rd_get(&r, &n->nofp, sizeof(n->nofp));
		if (n->depth > r.left / sizeof(*n->choices))
			split_bad();
		n->choices = split_alloc((n->depth + 1) * sizeof(*n->choices));
		rd_get(&r, n->choices, n->depth * sizeof(*n->choices));
		/* Room for every task split_expand may touch here. */
		known = n->enabled | n->sleep | n->done;
		n->ntasks = known ? 64 - (uint32_t)__builtin_clzll(known) : 0;
		n->fp = split_alloc(n->ntasks * sizeof(*n->fp));
		known = (n->sleep | n->done) & ~n->nofp;
		for (uint64_t m = known; m; m &= m - 1)
			rd_get(&r, &n->fp[__builtin_ctzll(m)], sizeof(*n->fp));
		n->up = ctx;
		ctx = (int32_t)t->count++;
	}
	if (r.left)
		split_bad();
	return ctx;
}

/* What add_backtrack_at does at a node of its own, at owned node @n. */
static void top_request(struct top_node *n, uint64_t set, bool all)
{
	uint64_t before = n->backtrack;

	if (all) {
		n->backtrack |= set & n->enabled;
	} else if (set & (n->backtrack | n->done)) {
		return;
	} else if (set & n->enabled) {
		uint64_t pick = set & n->enabled & ~n->sleep;

		if (!pick)
			pick = set & n->enabled;
		n->backtrack |= 1ULL << __builtin_ctzll(pick);
	} else {
		n->backtrack |= n->enabled;
	}
	if (n->backtrack != before)
		n->touched = true;
}

/*
 * The races an item (whose deepest owned node is @ctx) forwarded, as
 * sim_dpor_requests_pack wrote them: each goes into its node's backtrack
 * set in order, then every node that gained a choice neither done nor
 * asleep runs it as an item of its own (split_expand: run to its next
 * branch node, with the node's done tasks and the ones run before it
 * asleep where independent), the deepest node first.  Returns those
 * items (their owned node: sim_dpor_split_item_ctx; redundant ones and
 * steps in sim_dpor_split_stats), or NULL when nothing is new.  The
 * coordinator calls it in a fixed order (the merge order), so what runs
 * does not depend on the number of workers.
 */
struct sim_dpor_split *sim_dpor_tops_apply(struct sim_dpor_tops *t,
					   const struct sim_program *program,
					   const struct sim_exec_options *exec,
					   int32_t ctx, const void *buf,
					   size_t len)
{
	struct rd r = { buf, len };
	struct sim_dpor_split *sp = NULL;
	uint32_t count = 0, cap = 0, nreq;

	rd_get(&r, &nreq, sizeof(nreq));
	for (uint32_t i = 0; i < nreq; i++) {
		struct dpor_request q;
		int32_t x = ctx;

		rd_get(&r, &q, sizeof(q));
		while (x >= 0 && t->node[x].depth > q.depth)
			x = t->node[x].up;
		if (x < 0 || t->node[x].depth != q.depth)
			split_bad();
		top_request(&t->node[x], q.set, q.all);
	}
	if (r.left)
		split_bad();
	for (int32_t x = ctx; x >= 0; x = t->node[x].up) {
		struct top_node *n = &t->node[x];
		uint64_t todo = n->backtrack & n->enabled & ~n->done &
				~n->sleep;
		uint32_t first = count, nfwd = 0;
		uint32_t fwd[256];
		bool locks;

		if (!n->touched)
			continue;
		n->touched = false;
		if (!todo)
			continue;
		if (!sp)
			sp = split_alloc(sizeof(*sp));
		/* n->fp has an entry for every task of enabled, sleep and
		 * done (sim_dpor_tops_add). */
		sp->items = split_expand(sp, program, exec, n->choices,
					 n->depth, todo,
					 (n->sleep | n->done) & ~n->nofp,
					 n->fp, sp->items, &count, &cap, 0,
					 &locks);
		n->done |= todo;
		for (int32_t y = x; y >= 0; y = t->node[y].up)
			nfwd++;
		{
			uint32_t *f = nfwd <= 256 ? fwd :
				      split_alloc(nfwd * sizeof(*f));
			uint32_t k = nfwd;

			for (int32_t y = x; y >= 0; y = t->node[y].up)
				f[--k] = t->node[y].depth;
			for (uint32_t j = first; j < count; j++)
				split_node_fwd(&sp->items[j], f, nfwd, x);
			if (f != fwd)
				free(f);
		}
	}
	if (sp)
		sp->count = count;
	return sp;
}

/* The races item @s forwarded, as bytes; writes when @size allows. */
size_t sim_dpor_requests_pack(const struct sim_strategy *s, void *buf,
			      size_t size)
{
	const struct sim_dpor *d = s->dpor;
	uint32_t n = d ? d->nreq : 0;
	size_t need = 0;
	char *p = buf;

	wr_put(&p, &need, size, &n, sizeof(n));
	if (n)
		wr_put(&p, &need, size, d->req, n * sizeof(*d->req));
	return need;
}
