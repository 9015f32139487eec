// SPDX-License-Identifier: MIT
/*
 * sim/lockdep.c - locking rules checked on every recorded access, lock
 * assertions, and stacks of km_ calls for their reports.
 *
 * Models: the kernel's lockdep_assert_held() family and the locking
 * rules its comments and "Context:" lines state (include/linux/lockdep.h,
 * v6.18, for the meaning), checked exactly: every access of a guarded
 * word by a task is checked when it is recorded, in every execution.
 * The engine's spinlocks, mutexes and rwlocks are tracked per task (who
 * holds what, shared or not); bit locks (PG_locked) count as held when
 * the bit is set, as folio_test_locked() does; model locks (the model's
 * rw_semaphore) answer through a callback.
 *
 * The lock-order graph (sim_lockdep_order_*, for programs that ask for
 * it: the model's world does): every engine lock a task takes while it
 * holds others adds the orders "held -> taken" between their classes,
 * kept over every execution of a check as the kernel's lockdep keeps its
 * dependencies over a whole boot (kernel/locking/lockdep.c
 * check_prevs_add, check_noncircular, v6.18); an order that closes a
 * cycle fails the execution at once ("possible circular locking
 * dependency"), whether or not any execution deadlocks.  A class is a
 * lock's name after its last '.' (every "f.xa_lock" and "g.xa_lock" is
 * one class "xa_lock", as lockdep keys a class by its init site).  A
 * trylock adds no order to the lock it takes (it cannot wait), as in
 * lockdep; a lock taken under it does.
 *
 * Leaves out: lock classes of rules and assertions (a rule names one
 * lock instance), irq-safety states (the model has no interrupts inside
 * a step), orders through bit locks (PG_locked) and model locks (the
 * rw_semaphore of rwsem=algorithm: summary mode's engine rwlock is in
 * the graph), read-recursive locks and nesting subclasses (an order
 * within one class is not recorded).  Stacks are taken with glibc's
 * backtrace() and named from the executable's own symbol table, only
 * while a report replays a failure.
 */
#include "sim/lockdep.h"
#include "sim/race.h"
#include "sim/snapshot-internal.h"

#include <dlfcn.h>
#include <elf.h>
#include <execinfo.h>
#include <stdlib.h>
#include <string.h>

#include "sim/arena.h"
#include "sim/engine.h"

#define HELD_MAX	16
#define STACK_TASKS	64	/* tasks whose acquisitions keep stacks */
#define RECENT_GUARDS	4	/* rules a new rule is compared with */

struct guard {
	unsigned int flags;
	uint64_t bits;
	struct sim_lock_ref lock[2];
	unsigned int nlocks;
	unsigned int refs;		/* objects whose rule it is */
	struct sim_call_stack *decl;	/* capture mode: where it was set */
};

struct held {
	uint32_t id;
	bool shared;
	uint32_t step;
};

static struct held held_store[SIM_IDS_LIMIT][HELD_MAX];
static uint8_t nheld_store[SIM_IDS_LIMIT];

static struct {
	bool capture;
	/* Per object id, its rule: as many entries as the engine's
	 * tables of objects (sim_lockdep_objects_reserve). */
	struct guard **guards;
	uint32_t guards_cap;
	/* The last guard made: the next rule, if the same, shares it (the
	 * words of an array get one rule each, all alike). */
	struct guard *last;
	/*
	 * A few rules made or shared lately, searched before a new one is
	 * made: a folio's words follow rules that alternate (the mapping's
	 * lock, the PTE lock, the folio's own lock), so that the mapping's
	 * rules are shared by all its folios, not made per folio.
	 */
	struct guard *recent[RECENT_GUARDS];
	unsigned int recent_next;
	/* Per task and event id (events take spinlocks): held_store and
	 * nheld_store, zeroed (.bss: L's own initializer would put their
	 * megabytes in .data). */
	struct held (*held)[HELD_MAX];
	uint8_t *nheld;
	struct sim_call_stack held_stack[STACK_TASKS][HELD_MAX];
	bool plain_next;
	/* sim_race_enabled() when the execution began: the detector is
	 * switched between executions (sim_race_enable), and without it
	 * sim_race_record returns at once, so it is not called per event. */
	bool races;
	/* The last failure's stacks (capture mode). */
	bool failed;
	struct sim_call_stack fail_stack;
	const struct guard *fail_guard;
	int holder;		/* -1 none */
	int holder_slot;
} L = { .held = held_store, .nheld = nheld_store, .holder = -1 };

/* The lock-order graph (below). */
#define ORDER_CLASSES		64	/* lock classes a check may have */
#define ORDER_NAME_BYTES	40	/* a lock's or a class's name, kept */

/* Where an order was first taken: the two locks and the task. */
struct order_seen {
	uint64_t execution;	/* of the check, from 1 */
	char held[ORDER_NAME_BYTES];
	char taken[ORDER_NAME_BYTES];
	char task[ORDER_NAME_BYTES];
};

static struct {
	bool enabled;		/* this execution's program asked for it */
	uint64_t executions;	/* begun since the last reset */
	unsigned int nclasses;
	char class_name[ORDER_CLASSES][ORDER_NAME_BYTES];
	/* Bit b of after[a]: class a was held when class b was taken. */
	uint64_t after[ORDER_CLASSES];
	struct order_seen seen[ORDER_CLASSES][ORDER_CLASSES];
} O;

/* Lock ids' classes lately looked up (an id's name is fixed while it
 * is registered: the entry is dropped when the id is registered again
 * or reused, and at each execution's start). */
#define ORDER_CACHE	256
static struct {
	uint32_t id;
	int8_t class;		/* -1: none */
} order_cache[ORDER_CACHE];

static void order_cache_drop(uint32_t id)
{
	if (order_cache[id % ORDER_CACHE].id == id)
		order_cache[id % ORDER_CACHE].class = -1;
}

static void order_cache_clear(void)
{
	for (unsigned int i = 0; i < ORDER_CACHE; i++)
		order_cache[i].class = -1;
}


/* ---- Stacks ------------------------------------------------------------- */

bool sim_lockdep_capturing(void)
{
	return L.capture;
}

void sim_stack_capture(struct sim_call_stack *stack)
{
	int n = backtrace(stack->pc, SIM_STACK_DEPTH);

	stack->depth = n > 0 ? (uint32_t)n : 0;
}

/* The executable's function symbols, read once from its ELF file. */
struct sym {
	uintptr_t start;
	uintptr_t size;
	const char *name;
};

static struct {
	bool loaded;
	struct sym *syms;
	size_t count;
	char *strtab;
	uintptr_t base;
} S;

static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static void load_symbols(void)
{
	FILE *f;
	Elf64_Ehdr eh;
	Elf64_Shdr *sh = NULL;
	Dl_info info;

	S.loaded = true;
	if (!dladdr((void *)load_symbols, &info))
		return;
	S.base = (uintptr_t)info.dli_fbase;
	f = fopen("/proc/self/exe", "rb");
	if (!f)
		return;
	if (fread(&eh, sizeof(eh), 1, f) != 1 ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64)
		goto out;
	if (eh.e_type == ET_EXEC)
		S.base = 0;
	sh = calloc(eh.e_shnum, sizeof(*sh));
	if (!sh || fseek(f, (long)eh.e_shoff, SEEK_SET) != 0 ||
	    fread(sh, sizeof(*sh), eh.e_shnum, f) != eh.e_shnum)
		goto out;
	for (unsigned int i = 0; i < eh.e_shnum; i++) {
		Elf64_Shdr *strs;
		Elf64_Sym *syms;
		size_t n;

		if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh.e_shnum)
			continue;
		strs = &sh[sh[i].sh_link];
		n = sh[i].sh_size / sizeof(Elf64_Sym);
		syms = malloc(sh[i].sh_size);
		S.strtab = malloc(strs->sh_size);
		S.syms = calloc(n, sizeof(*S.syms));
		if (!syms || !S.strtab || !S.syms ||
		    fseek(f, (long)sh[i].sh_offset, SEEK_SET) != 0 ||
		    fread(syms, sizeof(*syms), n, f) != n ||
		    fseek(f, (long)strs->sh_offset, SEEK_SET) != 0 ||
		    fread(S.strtab, 1, strs->sh_size, f) != strs->sh_size) {
			free(syms);
			S.count = 0;
			goto out;
		}
		for (size_t k = 0; k < n; k++) {
			if (ELF64_ST_TYPE(syms[k].st_info) != STT_FUNC ||
			    !syms[k].st_value ||
			    syms[k].st_name >= strs->sh_size)
				continue;
			S.syms[S.count++] = (struct sym){
				.start = (uintptr_t)syms[k].st_value,
				.size = (uintptr_t)syms[k].st_size,
				.name = S.strtab + syms[k].st_name,
			};
		}
		free(syms);
		qsort(S.syms, S.count, sizeof(*S.syms), sym_cmp);
		break;
	}
out:
	free(sh);
	fclose(f);
}

static const char *sym_name(void *pc)
{
	uintptr_t a;
	size_t lo = 0, hi;

	if (!S.loaded)
		load_symbols();
	a = (uintptr_t)pc - S.base - 1;	/* a return address: the call */
	hi = S.count;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (S.syms[mid].start <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	if (a >= S.syms[lo - 1].start + S.syms[lo - 1].size)
		return NULL;	/* past its end, or a symbol of no size */
	return S.syms[lo - 1].name;
}

/*
 * Innermost first: the km_ functions (and m_ helpers) on the stack, then
 * the task function it started from.
 */
void sim_stack_print(FILE *out, const struct sim_call_stack *stack,
		     const char *indent)
{
	unsigned int shown = 0;

	for (uint32_t i = 0; i < stack->depth; i++) {
		const char *name = sym_name(stack->pc[i]);

		if (!name || strncmp(name, "sim_", 4) == 0 ||
		    strncmp(name, "ld_", 3) == 0 ||
		    strncmp(name, "rc_", 3) == 0 ||
		    strcmp(name, "task_entry") == 0 ||
		    strncmp(name, "__", 2) == 0)
			continue;
		fprintf(out, "%s%s\n", indent, name);
		shown++;
	}
	if (!shown)
		fprintf(out, "%s(no named frames)\n", indent);
}

/* ---- Rules -------------------------------------------------------------- */

void sim_lockdep_begin(bool capture)
{
	L.capture = capture;
	L.failed = false;
	L.fail_guard = NULL;
	L.holder = -1;
	L.plain_next = false;
	L.last = NULL;		/* the arena was reset */
	memset(L.recent, 0, sizeof(L.recent));
	L.recent_next = 0;	/* a cleared ring: the same FIFO from any
				 * start; from 0, so that setup leaves the
				 * same state every time (the snapshot) */
	L.races = sim_race_enabled();
	O.enabled = false;	/* until the program asks (its setup) */
	O.executions++;
	order_cache_clear();
	sim_race_begin(capture);
}

/*
 * The snapshot after setup (sim/engine.c): what setup left here, the
 * rules of its objects 1..@objects, the recent rules, whether the
 * program asked for the lock-order graph; and the race detector's
 * clocks of its tasks.  The rules themselves are in the arena, which
 * the engine restores.
 */
static struct {
	struct guard **guards;	/* [0..objects] */
	uint32_t objects;
	struct guard *last;
	struct guard *recent[RECENT_GUARDS];
	unsigned int recent_next;
	bool order_enabled;
} setup_copy;

bool sim_lockdep_setup_save(uint32_t objects)
{
	uint32_t n = objects < L.guards_cap ? objects + 1 : L.guards_cap;
	struct guard **g = realloc(setup_copy.guards,
				   (n ? n : 1) * sizeof(*g));

	if (!g)
		return false;
	setup_copy.guards = g;
	setup_copy.objects = n;
	if (n)
		memcpy(g, L.guards, n * sizeof(*g));
	sim_snapshot_ids_written_from();
	setup_copy.last = L.last;
	memcpy(setup_copy.recent, L.recent, sizeof(L.recent));
	setup_copy.recent_next = L.recent_next;
	setup_copy.order_enabled = O.enabled;
	return sim_race_setup_save();
}

void sim_lockdep_setup_restore(uint32_t tasks)
{
	/* Only the entries from the lowest one written since: an
	 * execution's own objects are past setup's, so mostly none. */
	uint32_t low = sim_snapshot_ids_written_from();

	if (low < setup_copy.objects &&
	    !sim_snapshot_left_out("lockdep.guards"))
		memcpy(L.guards + low, setup_copy.guards + low,
		       (setup_copy.objects - low) * sizeof(*L.guards));
	L.last = setup_copy.last;
	memcpy(L.recent, setup_copy.recent, sizeof(L.recent));
	L.recent_next = setup_copy.recent_next;
	O.enabled = setup_copy.order_enabled;
	for (uint32_t t = 0; t < tasks && t < SIM_IDS_LIMIT; t++)
		L.nheld[t] = 0;		/* sim_lockdep_task_spawned */
	sim_race_setup_restore();
}

size_t sim_lockdep_setup_diff(void)
{
	size_t differ = 0;

	for (uint32_t i = 0; i < setup_copy.objects; i++)
		differ += L.guards[i] != setup_copy.guards[i];
	return differ;
}

void sim_lockdep_setup_reset(void)
{
	L.last = NULL;
	memset(L.recent, 0, sizeof(L.recent));
	L.recent_next = 0;
	O.enabled = false;
	order_cache_clear();
	sim_race_setup_reset();
}

void sim_lockdep_setup_drop(void)
{
	free(setup_copy.guards);
	setup_copy.guards = NULL;
	setup_copy.objects = 0;
}

int sim_lockdep_objects_reserve(uint32_t cap)
{
	struct guard **guards;

	if (cap <= L.guards_cap)
		return 0;
	if (!L.guards && cap <= SIM_OBJECTS_LONG_MAX + 1) {
		/* Every id at once, committed as used (never copied). */
		guards = sim_reserve_zeroed((SIM_OBJECTS_LONG_MAX + 1) *
					    sizeof(*guards));
		if (!guards)
			return -1;
		L.guards = guards;
		L.guards_cap = SIM_OBJECTS_LONG_MAX + 1;
		return 0;
	}
	guards = realloc(L.guards, cap * sizeof(*guards));
	if (!guards)
		return -1;
	memset(guards + L.guards_cap, 0,
	       (cap - L.guards_cap) * sizeof(*guards));
	L.guards = guards;
	L.guards_cap = cap;
	return 0;
}

/* Set the rule of object @id (below L.guards_cap), noting the id for
 * the snapshot's restore (sim_snapshot_id_written: the lowest id
 * written since, kept in the snapshot's own state, which the
 * verification does not compare). */
static inline void guard_set(uint32_t id, struct guard *g)
{
	sim_snapshot_id_written(id);
	L.guards[id] = g;
}

void sim_lockdep_object_registered(uint32_t id)
{
	order_cache_drop(id);
	if (id < L.guards_cap)
		guard_set(id, NULL);
}

void sim_lockdep_object_reused(uint32_t id)
{
	struct guard *g;

	order_cache_drop(id);
	if (id >= L.guards_cap)
		return;
	/* Set in this execution: the id's first registration in it
	 * cleared the entry. */
	g = L.guards[id];
	guard_set(id, NULL);
	if (!g || --g->refs)
		return;		/* none, or the rule of other words too */
	if (g == L.last)
		L.last = NULL;
	for (unsigned int i = 0; i < RECENT_GUARDS; i++)
		if (L.recent[i] == g)
			L.recent[i] = NULL;
	if (g == L.fail_guard)
		return;
	if (g->decl)
		sim_arena_free(g->decl, sizeof(*g->decl));
	sim_arena_free(g, sizeof(*g));
}

void sim_lockdep_task_spawned(int parent, int child)
{
	if (child >= 0 && child < SIM_IDS_LIMIT)
		L.nheld[child] = 0;
	sim_race_task_spawned(parent, child);
}

static bool same_ref(const struct sim_lock_ref *x,
		     const struct sim_lock_ref *y)
{
	return x->kind == y->kind && x->id == y->id && x->word == y->word &&
	       x->bit == y->bit && x->held == y->held && x->arg == y->arg;
}

/* Is @g the rule these arguments of sim_word_guard_ref() make? */
static bool same_rule(const struct guard *g, unsigned int flags,
		      uint64_t bits, const struct sim_lock_ref *a,
		      const struct sim_lock_ref *b)
{
	unsigned int nlocks = b->kind == SIM_LOCK_NONE ? 1 : 2;

	return g->flags == flags && g->bits == bits && g->nlocks == nlocks &&
	       same_ref(&g->lock[0], a) &&
	       (nlocks == 1 || same_ref(&g->lock[1], b));
}

void sim_word_guard_ref(struct sim_word *word, unsigned int flags,
			uint64_t bits, struct sim_lock_ref a,
			struct sim_lock_ref b)
{
	struct guard *g;
	uint32_t id = SIM_OBJECT_BASE(word->id);

	if (!id || id >= L.guards_cap)
		return;	/* outside an execution: nothing to check */
	g = L.last;
	if (g && !L.capture && same_rule(g, flags, bits, &a, &b)) {
		g->refs++;
		guard_set(id, g);
		return;
	}
	for (unsigned int i = 0; i < RECENT_GUARDS && !L.capture; i++) {
		g = L.recent[i];
		if (g && same_rule(g, flags, bits, &a, &b)) {
			g->refs++;
			guard_set(id, g);
			L.last = g;
			return;
		}
	}
	g = sim_arena_alloc(sizeof(*g));
	g->refs = 1;
	g->flags = flags;
	g->bits = bits;
	g->lock[0] = a;
	g->lock[1] = b;
	g->nlocks = b.kind == SIM_LOCK_NONE ? 1 : 2;
	g->decl = NULL;
	if (L.capture) {
		g->decl = sim_arena_alloc(sizeof(*g->decl));
		sim_stack_capture(g->decl);
	}
	guard_set(id, g);
	L.last = g;
	L.recent[L.recent_next++ % RECENT_GUARDS] = g;
}

void sim_words_guard_ref(struct sim_word *first, size_t stride,
			 unsigned long count, unsigned int flags,
			 uint64_t bits, struct sim_lock_ref a,
			 struct sim_lock_ref b)
{
	struct guard *g;

	if (L.capture || count < 2) {
		/* Each guard keeps the stack that declared it. */
		for (unsigned long i = 0; i < count; i++)
			sim_word_guard_ref((struct sim_word *)((char *)first +
							       i * stride),
					   flags, bits, a, b);
		return;
	}
	/* The first makes (or shares) the guard, the others share it. */
	sim_word_guard_ref(first, flags, bits, a, b);
	g = L.last;
	if (!g || SIM_OBJECT_BASE(first->id) == 0 ||
	    SIM_OBJECT_BASE(first->id) >= L.guards_cap ||
	    L.guards[SIM_OBJECT_BASE(first->id)] != g) {
		for (unsigned long i = 1; i < count; i++)
			sim_word_guard_ref((struct sim_word *)((char *)first +
							       i * stride),
					   flags, bits, a, b);
		return;
	}
	for (unsigned long i = 1; i < count; i++) {
		const struct sim_word *w = (const struct sim_word *)
					   ((const char *)first + i * stride);
		uint32_t id = SIM_OBJECT_BASE(w->id);

		if (!id || id >= L.guards_cap)
			continue;
		g->refs++;
		guard_set(id, g);
	}
}

void sim_word_unguard(struct sim_word *word)
{
	uint32_t id = SIM_OBJECT_BASE(word->id);

	if (id && id < L.guards_cap) {
		/* Unused at no references, it stays until the arena is
		 * reset, as it did before guards were shared. */
		if (L.guards[id])
			L.guards[id]->refs--;
		guard_set(id, NULL);
	}
}

static int held_slot(int task, uint32_t id)
{
	if (task < 0 || task >= SIM_IDS_LIMIT)
		return -1;
	for (int i = L.nheld[task] - 1; i >= 0; i--)
		if (L.held[task][i].id == id)
			return i;
	return -1;
}

static bool ref_held(const struct sim_lock_ref *r, int task, bool exclusive)
{
	int slot;

	switch (r->kind) {
	case SIM_LOCK_ENGINE:
		slot = held_slot(task, r->id);
		return slot >= 0 && !(exclusive && L.held[task][slot].shared);
	case SIM_LOCK_BIT:
		return (r->word->value >> r->bit) & 1;
	case SIM_LOCK_FN:
		return r->held(r->arg, task, exclusive);
	default:
		return true;
	}
}

bool sim_lock_held_by_me(struct sim_lock_ref lock, bool exclusive)
{
	int me = sim_task_current();

	return me >= 0 && ref_held(&lock, me, exclusive);
}

/* ---- The lock-order graph ----------------------------------------------- */


void sim_lockdep_order_reset(void)
{
	memset(&O, 0, sizeof(O));
	order_cache_clear();
}

void sim_lockdep_order_enable(void)
{
	O.enabled = true;
}

/* snprintf(@to, ORDER_NAME_BYTES, "%s", @from or "?"), written out: a
 * lock's class is found per execution (order_class), and vfprintf's code
 * evicts the model's from the instruction cache (issue 28 M9b). */
static void copy_name(char *to, const char *from)
{
	size_t len;

	if (!from)
		from = "?";
	len = strnlen(from, ORDER_NAME_BYTES - 1);
	memcpy(to, from, len);
	to[len] = '\0';
}

/* The class of lock @id: its name after the last '.'; -1 if full. */
static int order_class_find(uint32_t id);

/* order_class past its cache: found, then kept. */
static __attribute__((noinline)) int order_class_miss(uint32_t id)
{
	int c = order_class_find(id);

	order_cache[id % ORDER_CACHE].id = id;
	order_cache[id % ORDER_CACHE].class = (int8_t)c;
	return c;
}

static inline int order_class(uint32_t id)
{
	if (order_cache[id % ORDER_CACHE].class >= 0 &&
	    order_cache[id % ORDER_CACHE].id == id)
		return order_cache[id % ORDER_CACHE].class;
	return order_class_miss(id);
}

static int order_class_find(uint32_t id)
{
	const char *name = sim_exec_object_name(id);
	const char *dot = name ? strrchr(name, '.') : NULL;
	const char *key = dot ? dot + 1 : (name ? name : "?");
	char k[ORDER_NAME_BYTES];

	copy_name(k, key);
	for (unsigned int c = 0; c < O.nclasses; c++)
		if (!strcmp(O.class_name[c], k))
			return (int)c;
	if (O.nclasses == ORDER_CLASSES)
		return -1;
	memcpy(O.class_name[O.nclasses], k, sizeof(k));
	return (int)O.nclasses++;
}

/* A path of orders from class @from to class @to: its classes in
 * @path (from first), their count; 0 if none. */
static unsigned int order_path(unsigned int from, unsigned int to,
			       unsigned int path[ORDER_CLASSES])
{
	int parent[ORDER_CLASSES];
	uint64_t seen = 1ull << from, frontier = 1ull << from;
	unsigned int n = 0;

	for (unsigned int c = 0; c < ORDER_CLASSES; c++)
		parent[c] = -1;
	while (frontier && !(seen & (1ull << to))) {
		uint64_t next = 0;

		for (unsigned int a = 0; a < O.nclasses; a++) {
			uint64_t new;

			if (!(frontier & (1ull << a)))
				continue;
			new = O.after[a] & ~seen & ~next;
			for (unsigned int b = 0; b < O.nclasses; b++)
				if (new & (1ull << b))
					parent[b] = (int)a;
			next |= new;
		}
		seen |= next;
		frontier = next;
	}
	if (!(seen & (1ull << to)))
		return 0;
	for (int c = (int)to; c >= 0; c = c == (int)from ? -1 : parent[c])
		n++;
	for (int c = (int)to, i = (int)n - 1; i >= 0; c = parent[c], i--)
		path[i] = (unsigned int)c;
	return n;
}

/* Task @me, holding lock @held_id of class @a, takes lock @id of class
 * @b, an order the graph does not have (lockdep_acquired): record it,
 * or fail if the graph already has the other way. */
static __attribute__((noinline)) void order_add(int me, uint32_t held_id,
						uint32_t id, int a, int b)
{
	unsigned int path[ORDER_CLASSES], n;
	const struct order_seen *first;
	char chain[256];
	size_t len = 0;

	n = order_path((unsigned int)b, (unsigned int)a, path);
	if (!n) {
		struct order_seen *e = &O.seen[a][b];

		O.after[a] |= 1ull << b;
		e->execution = O.executions;
		copy_name(e->held, sim_exec_object_name(held_id));
		copy_name(e->taken, sim_exec_object_name(id));
		copy_name(e->task, sim_exec_task_name((uint32_t)me));
		return;
	}
	chain[0] = '\0';
	for (unsigned int i = 0; i < n && len < sizeof(chain); i++)
		len += (size_t)snprintf(chain + len, sizeof(chain) - len,
					"%s%s", i ? " -> " : "",
					O.class_name[path[i]]);
	first = &O.seen[path[0]][path[1]];
	L.failed = true;
	L.fail_guard = NULL;
	L.holder = -1;
	if (L.capture)
		sim_stack_capture(&L.fail_stack);
	sim_fail(SIM_FAIL_LOCKING, "lockdep: possible circular locking "
		 "dependency: %s takes %s while holding %s (%s -> %s), and "
		 "the order %s was taken before (%s took %s while holding "
		 "%s, in execution %llu of this check)",
		 sim_exec_task_name((uint32_t)me), sim_exec_object_name(id),
		 sim_exec_object_name(held_id), O.class_name[a],
		 O.class_name[b], chain, first->task, first->taken,
		 first->held, (unsigned long long)first->execution);
}

/* The step of the last recorded event (0 before any): the engine keeps
 * it (sim_exec_exits), so sim_lockdep_record need not. */
static inline uint32_t last_event_step(void)
{
	uint64_t step = sim_exec_exits.last_event_step;

	return step == UINT64_MAX - 1 ? 0 : (uint32_t)step;
}

/* order_class's cache hit, or -2 (a miss, or a class of -1: "full"). */
static inline int order_class_hit(uint32_t id)
{
	if (order_cache[id % ORDER_CACHE].class >= 0 &&
	    order_cache[id % ORDER_CACHE].id == id)
		return order_cache[id % ORDER_CACHE].class;
	return -2;
}

static __attribute__((noinline)) void lockdep_acquired_slow(uint32_t id,
							    bool shared,
							    bool try);

/*
 * The acquisition of lock @id by the current task (session 25): where
 * the lock-order graph has every pair of a held lock's class and @id's
 * (a path taken before: an O_DIRECT write's seven acquisitions an I/O),
 * found by the class cache's hits alone, only the held lock is pushed,
 * with no call, so no register is saved; otherwise (a miss, a new
 * order, a full stack, the capture mode) lockdep_acquired_slow, which
 * looks the classes up in the order it always did (new classes are
 * numbered as before) and records or refuses the new orders.
 */
static inline void lockdep_acquired(uint32_t id, bool shared, bool try)
{
	int me = sim_task_current();
	unsigned int n;

	if (me < 0 || me >= SIM_IDS_LIMIT)
		return;
	n = L.nheld[me];
	if (n == HELD_MAX || L.capture)
		goto slow;
	if (O.enabled && !try && n) {
		int b = order_class_hit(id);

		if (b == -2)
			goto slow;
		for (unsigned int i = 0; i < n; i++) {
			int a = order_class_hit(L.held[me][i].id);

			if (a == -2)
				goto slow;
			if (a != b && !(O.after[a] & (1ull << b)))
				goto slow;
		}
	}
	L.held[me][n] = (struct held){ .id = id, .shared = shared,
				       .step = last_event_step() };
	L.nheld[me] = (uint8_t)(n + 1);
	return;
slow:
	lockdep_acquired_slow(id, shared, try);
}

static __attribute__((noinline)) void lockdep_acquired_slow(uint32_t id,
							    bool shared,
							    bool try)
{
	int me = sim_task_current();
	unsigned int n;

	n = L.nheld[me];
	if (O.enabled && !try) {
		/*
		 * Each held lock's class, then (once: the same answer each
		 * time, session 23) the taken lock's, in the order each pair
		 * looked them up before, so that new classes are numbered
		 * as before; order_add only for an order not yet recorded.
		 */
		int b = -2;

		for (unsigned int i = 0; i < n; i++) {
			uint32_t held_id = L.held[me][i].id;
			int a = order_class(held_id);

			if (b == -2)
				b = order_class(id);
			if (a < 0 || b < 0 || a == b ||
			    (O.after[a] & (1ull << b)))
				continue;
			order_add(me, held_id, id, a, b);
		}
	}
	if (n == HELD_MAX)
		sim_fail(SIM_FAIL_BOUND, "lockdep: %s holds more than %d locks",
			 sim_exec_task_name((uint32_t)me), HELD_MAX);
	L.held[me][n] = (struct held){ .id = id, .shared = shared,
				       .step = last_event_step() };
	if (L.capture && me < STACK_TASKS)
		sim_stack_capture(&L.held_stack[me][n]);
	L.nheld[me] = (uint8_t)(n + 1);
}

void sim_lockdep_acquired(uint32_t id, bool shared)
{
	lockdep_acquired(id, shared, false);
}

void sim_lockdep_acquired_try(uint32_t id, bool shared)
{
	lockdep_acquired(id, shared, true);
}

void sim_lockdep_released(uint32_t id)
{
	int me = sim_task_current();
	int slot = held_slot(me, id);

	if (slot < 0)
		return;	/* taken by setup, or handed over */
	for (unsigned int i = (unsigned int)slot; i + 1 < L.nheld[me]; i++) {
		L.held[me][i] = L.held[me][i + 1];
		if (L.capture && me < STACK_TASKS)
			L.held_stack[me][i] = L.held_stack[me][i + 1];
	}
	L.nheld[me]--;
}

/* Who else holds the lock of @r (an engine lock), for the report. */
static int find_holder(const struct sim_lock_ref *r, int *slot)
{
	if (r->kind != SIM_LOCK_ENGINE)
		return -1;
	for (uint32_t t = 0; t < sim_exec_task_count() &&
			     t < SIM_IDS_LIMIT; t++) {
		int s = held_slot((int)t, r->id);

		if (s >= 0) {
			*slot = s;
			return (int)t;
		}
	}
	return -1;
}

static const char *rule_text(const struct guard *g, char *buf, size_t size)
{
	size_t len;

	len = (size_t)snprintf(buf, size, "%s need %s",
			       g->flags & SIM_GUARD_ALL ? "accesses" :
			       "writes", sim_exec_object_name(g->lock[0].id));
	if (g->nlocks == 2 && len < size)
		snprintf(buf + len, size - len, " or %s",
			 sim_exec_object_name(g->lock[1].id));
	return buf;
}

static void ld_fail_unguarded(const struct guard *g, int task, uint32_t object,
			   bool write)
{
	char rule[160];
	int slot = -1;

	L.failed = true;
	L.fail_guard = g;
	L.holder = find_holder(&g->lock[0], &slot);
	L.holder_slot = slot;
	if (L.capture)
		sim_stack_capture(&L.fail_stack);
	sim_fail(SIM_FAIL_LOCKING, "lockdep: %s %s %s without %s held%s "
		 "(rule: %s)", sim_exec_task_name((uint32_t)task),
		 write ? "writes" : "reads", sim_exec_object_name(object),
		 sim_exec_object_name(g->lock[0].id),
		 !write || (g->flags & SIM_GUARD_SHARED) ? "" :
		 " exclusive", rule_text(g, rule, sizeof(rule)));
}

/* An access to an object with a rule @g (sim_lockdep_record). */
static inline void ld_check_guarded(int task, uint32_t object, unsigned int access,
		      const struct guard *g)
{
	bool write, exclusive;

	switch (access) {
	case SIM_ACCESS_READ:
		write = false;
		break;
	case SIM_ACCESS_WRITE:
	case SIM_ACCESS_RMW:
	case SIM_ACCESS_ADD:
		write = true;
		break;
	default:
		return;
	}
	if (g->bits && !(object & SIM_OBJECT_RANGE_FLAG) &&
	    SIM_OBJECT_BIT_OF(object) &&
	    !((g->bits >> (SIM_OBJECT_BIT_OF(object) - 1)) & 1))
		return;	/* a bit the rule does not cover */
	if (!write && !(g->flags & SIM_GUARD_ALL))
		return;
	exclusive = write && !(g->flags & SIM_GUARD_SHARED);
	for (unsigned int i = 0; i < g->nlocks; i++)
		if (ref_held(&g->lock[i], task, exclusive))
			return;
	ld_fail_unguarded(g, task, object, write);
}


void sim_race_plain_next(void)
{
	L.plain_next = true;
}

/* sim_lockdep_record for an access to an object with a rule (@g, or
 * NULL) or with the data-race detector on: out of line, so that the
 * common access (neither) saves no register. */
static __attribute__((noinline))
void ld_record_slow(int task, uint32_t step, uint32_t object,
		    unsigned int access, uint64_t value, bool plain,
		    const struct guard *g)
{
	if (g)
		ld_check_guarded(task, object, access, g);
	if (L.races)
		sim_race_record(task, step, object, access, value, plain);
}

void sim_lockdep_record(int task, uint32_t step, uint32_t object,
			unsigned int access, uint64_t value)
{
	bool plain = L.plain_next;
	const struct guard *g = NULL;
	uint32_t id = SIM_OBJECT_BASE(object);

	/* Per access: the rules of the object's guard, if any, and the
	 * data-race detector when on.  The step of a lock's take is read
	 * when it is taken (lockdep_acquired), not kept here (session 19). */
	if (plain)
		L.plain_next = false;
	if (object && id < L.guards_cap)
		g = L.guards[id];
	if (__builtin_expect(g != NULL || L.races, 0)) {
		/* A read under a rule for writes only, with the detector
		 * off: ld_check_guarded would return at its read test
		 * (session 25: 8 of an O_DIRECT I/O's 18 guarded accesses
		 * paid ld_record_slow's six saved registers for it). */
		if (!L.races && access == SIM_ACCESS_READ &&
		    !(g->flags & SIM_GUARD_ALL))
			return;
		ld_record_slow(task, step, object, access, value, plain, g);
	}
}

/* sim_lockdep_record's body in one, for sim_record's whole path (the
 * exploring strategies', the long runs' with a log): one caller, so the
 * link inlines it there, as before session 19. */
void sim_lockdep_record_full(int task, uint32_t step, uint32_t object,
			     unsigned int access, uint64_t value)
{
	bool plain = L.plain_next;
	uint32_t id = SIM_OBJECT_BASE(object);
	const struct guard *g;

	L.plain_next = false;
	if (object && id < L.guards_cap && (g = L.guards[id]))
		ld_check_guarded(task, object, access, g);
	if (L.races)
		sim_race_record(task, step, object, access, value, plain);
}

void sim_assert_held_ref(struct sim_lock_ref lock, bool exclusive,
			 const char *where)
{
	int me = sim_task_current();
	int slot = -1;

	if (me < 0 || ref_held(&lock, me, exclusive))
		return;
	L.failed = true;
	L.fail_guard = NULL;
	L.holder = find_holder(&lock, &slot);
	L.holder_slot = slot;
	if (L.capture)
		sim_stack_capture(&L.fail_stack);
	sim_fail(SIM_FAIL_LOCKING, "lockdep: %s: %s does not hold %s%s "
		 "(lockdep_assert_held%s)", where,
		 sim_exec_task_name((uint32_t)me),
		 sim_exec_object_name(lock.id), exclusive ? " exclusive" : "",
		 exclusive ? "_write" : "");
}

void sim_lockdep_report(FILE *out)
{
	if (!L.capture)
		return;
	sim_race_report(out);
	if (!L.failed)
		return;
	fprintf(out, "  lockdep: the access (innermost first):\n");
	sim_stack_print(out, &L.fail_stack, "    ");
	if (L.fail_guard && L.fail_guard->decl) {
		fprintf(out, "  lockdep: the rule was stated at:\n");
		sim_stack_print(out, L.fail_guard->decl, "    ");
	}
	if (L.holder >= 0) {
		fprintf(out, "  lockdep: the lock is held by %s, taken at "
			"step %u in:\n", sim_exec_task_name((uint32_t)L.holder),
			L.held[L.holder][L.holder_slot].step);
		if (L.holder < STACK_TASKS)
			sim_stack_print(out,
					&L.held_stack[L.holder][L.holder_slot],
					"    ");
	}
}
