// SPDX-License-Identifier: MIT
/*
 * realcode/rt.c - the runtime under real kernel files: the per-execution
 * kernel heap, engine objects for its words, the __tsan_* hooks that
 * turn the real code's plain accesses into scheduling points, marked
 * accesses and atomics, bitops, spinlocks, RCU with a sound grace
 * period, BUG/WARN.
 *
 * Models: the meaning of the kernel's primitives (include/linux/
 * {compiler.h,atomic.h,bitops.h,spinlock.h,rcupdate.h,slab.h}, v6.12) as
 * engine steps: one shared access = one point = one event, on an engine
 * object per 8-byte word of the heap (registered at the word's first
 * access, named after the field when the cache has a namer).  The hooks
 * are the ones GCC's -fsanitize=thread calls (KCSAN's approach in the
 * kernel); this file is not instrumented.
 *
 * Leaves out: memory orders weaker than sequential consistency (every
 * access is one step, steps are totally ordered: barriers are no-ops);
 * interrupts and preemption (a task runs until its next point); slab
 * reuse (freed memory is poisoned and never handed out again within an
 * execution, so a use after free is caught, KASAN-like); plain accesses
 * outside the heap (stacks, globals) are local: no point.
 */
#include "realcode/rt.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sim/arena.h"
#include "sim/engine.h"
#include "sim/lockdep.h"
#include "sim/shared.h"

_Static_assert(sizeof(struct rc_spinlock) == sizeof(struct sim_spinlock),
	       "rc_spinlock mirrors sim_spinlock");

#define HEAP_WORDS	(RC_HEAP_BYTES / 8)
#define ALLOCS_MAX	1024
#define EXT_MAX		256	/* explicit accesses outside the heap */
#define CBS_MAX		256

enum { W_NONE = 0, W_LIVE, W_FREED };

struct alloc_rec {
	uint32_t off, size;
	struct rc_cache *cache;
	const char *what;
	unsigned int ordinal;
};

struct rcu_cb {
	void *head;
	void (*fn)(void *head);
	uint64_t waiting;	/* tasks inside a read-side section */
	int deferred;		/* task + 1 whose section must end first */
};

static struct {
	unsigned char *heap;	/* RC_HEAP_BYTES, from the arena */
	uint32_t *ids;		/* per word */
	uint8_t *state;		/* per word */
	uint32_t top;
	struct alloc_rec *allocs;
	uint32_t nallocs;
	unsigned int kmalloc_count;
	struct { uintptr_t addr; uint32_t id; } *ext;
	uint32_t next;
	uint32_t rcu_id;
	uint16_t rcu_depth[SIM_TASKS_MAX];
	uint16_t spin_depth[SIM_TASKS_MAX];	/* spinlocks held */
	struct rcu_cb *cbs;
	uint32_t ncbs;
	bool in_prim;		/* inside a primitive's step */
} R;

static struct task_struct *tasks[SIM_TASKS_MAX];
static struct rc_cache task_cache;
static unsigned long jiffies_now;

bool rc_prove_rcu = true;
bool rc_rcu_gp_from_call;
unsigned int rc_warnings;
static bool rc_verbose;

void rc_begin(void)
{
	memset(&R, 0, sizeof(R));
	R.heap = sim_arena_alloc(RC_HEAP_BYTES);
	R.ids = sim_arena_alloc(HEAP_WORDS * sizeof(*R.ids));
	R.state = sim_arena_alloc(HEAP_WORDS);
	R.allocs = sim_arena_alloc(ALLOCS_MAX * sizeof(*R.allocs));
	R.ext = sim_arena_alloc(EXT_MAX * sizeof(*R.ext));
	R.cbs = sim_arena_alloc(CBS_MAX * sizeof(*R.cbs));
	R.rcu_id = sim_object_register_name("rcu");
	memset(tasks, 0, sizeof(tasks));
	task_cache.allocs = 0;
	jiffies_now = 0;
	rc_warnings = 0;
}

/* ---- heap ---------------------------------------------------------------- */

static inline bool in_heap(const volatile void *p)
{
	return (uintptr_t)p - (uintptr_t)R.heap < RC_HEAP_BYTES;
}

bool rc_is_shared(const void *p)
{
	return R.heap && in_heap(p);
}

static struct alloc_rec *find_alloc(uint32_t off)
{
	uint32_t lo = 0, hi = R.nallocs;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (R.allocs[mid].off + R.allocs[mid].size <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < R.nallocs && R.allocs[lo].off <= off)
		return &R.allocs[lo];
	return NULL;
}

void *rc_alloc(struct rc_cache *cache, size_t size, const char *what)
{
	struct alloc_rec *a;
	uint32_t off;
	void *p;

	if (cache)
		size = cache->size;
	size = (size + 15) & ~(size_t)15;
	if (R.top + size > RC_HEAP_BYTES || R.nallocs == ALLOCS_MAX)
		sim_fail(SIM_FAIL_BOUND, "realcode: kernel heap full (%u "
			 "bytes, %u objects)", RC_HEAP_BYTES, R.nallocs);
	off = R.top;
	R.top += (uint32_t)size;
	a = &R.allocs[R.nallocs++];
	a->off = off;
	a->size = (uint32_t)size;
	a->cache = cache;
	a->what = cache ? cache->name : what;
	a->ordinal = cache ? cache->allocs++ : R.kmalloc_count++;
	memset(R.state + off / 8, W_LIVE, size / 8);
	p = R.heap + off;
	memset(p, 0, size);
	if (cache && cache->ctor)
		cache->ctor(p);
	return p;
}

bool rc_live(const void *p)
{
	return rc_is_shared(p) &&
	       R.state[((uintptr_t)p - (uintptr_t)R.heap) / 8] == W_LIVE;
}

static uint32_t register_word(uint32_t w)
{
	struct alloc_rec *a = find_alloc(w * 8);
	char field[48], name[96];

	if (!a) {
		snprintf(name, sizeof(name), "heap+%u", w * 8);
	} else {
		size_t o = w * 8 - a->off;

		if (a->cache && a->cache->namer)
			a->cache->namer(field, sizeof(field), o);
		else
			snprintf(field, sizeof(field), "+%zu", o);
		snprintf(name, sizeof(name), "%s%u.%s", a->what, a->ordinal,
			 field);
	}
	R.ids[w] = sim_object_register_name(name);
	return R.ids[w];
}

static uint32_t ext_object(const volatile void *p)
{
	uintptr_t a = (uintptr_t)p & ~(uintptr_t)7;
	uint32_t h = (uint32_t)((a >> 3) * 2654435761u) % EXT_MAX;
	char name[32];

	for (uint32_t i = 0; i < EXT_MAX; i++, h = (h + 1) % EXT_MAX) {
		if (R.ext[h].addr == a)
			return R.ext[h].id;
		if (!R.ext[h].addr) {
			snprintf(name, sizeof(name), "mem%u", R.next++);
			R.ext[h].addr = a;
			R.ext[h].id = sim_object_register_name(name);
			return R.ext[h].id;
		}
	}
	sim_fail(SIM_FAIL_BOUND, "realcode: more than %u shared words "
		 "outside the kernel heap", EXT_MAX);
}

/* The object of the word at @p; fails on freed or unallocated memory. */
static uint32_t object_of(const volatile void *p, bool check)
{
	uint32_t w;

	if (!in_heap(p))
		return ext_object(p);
	w = (uint32_t)(((uintptr_t)p - (uintptr_t)R.heap) / 8);
	if (check && R.state[w] != W_LIVE) {
		struct alloc_rec *a = find_alloc(w * 8);

		sim_fail(SIM_FAIL_ASSERT, "realcode: %s at heap+%u (%s%u)",
			 R.state[w] == W_FREED ? "use after free" :
			 "access to unallocated memory", w * 8,
			 a ? a->what : "?", a ? a->ordinal : 0);
	}
	return R.ids[w] ? R.ids[w] : register_word(w);
}

uint32_t rc_object_of(const void *p)
{
	return R.heap ? object_of(p, false) : 0;
}

void rc_free(void *p)
{
	uint32_t off, w0, w1;
	struct alloc_rec *a;

	if (!p)
		return;
	if (!in_heap(p))
		sim_fail(SIM_FAIL_ASSERT, "realcode: free of %p, not a heap "
			 "object", p);
	off = (uint32_t)((uintptr_t)p - (uintptr_t)R.heap);
	a = find_alloc(off);
	if (!a || a->off != off || R.state[off / 8] != W_LIVE)
		sim_fail(SIM_FAIL_ASSERT, "realcode: bad or double free at "
			 "heap+%u", off);
	w0 = off / 8;
	w1 = w0 + a->size / 8;
	/* A free outside another primitive's step is a point of its own,
	 * a write of the object's first word. */
	if (sim_in_task() && !R.in_prim)
		sim_point(object_of(p, true), SIM_ACCESS_WRITE);
	for (uint32_t w = w0; w < w1; w++) {
		if (R.ids[w] && sim_in_task())
			sim_record(R.ids[w], SIM_ACCESS_WRITE, 0x6b6b6b6b6b6b6b6bULL);
		R.state[w] = W_FREED;
	}
	memset(p, 0x6b, a->size);
}

/* ---- accesses ------------------------------------------------------------- */

static inline uint64_t raw_load(const volatile void *p, unsigned int size)
{
	switch (size) {
	case 1: return *(const volatile uint8_t *)p;
	case 2: return *(const volatile uint16_t *)p;
	case 4: return *(const volatile uint32_t *)p;
	default: return *(const volatile uint64_t *)p;
	}
}

static inline void raw_store(volatile void *p, uint64_t v, unsigned int size)
{
	switch (size) {
	case 1: *(volatile uint8_t *)p = (uint8_t)v; break;
	case 2: *(volatile uint16_t *)p = (uint16_t)v; break;
	case 4: *(volatile uint32_t *)p = (uint32_t)v; break;
	default: *(volatile uint64_t *)p = v; break;
	}
}

/* The point and the event of one access to the word at @p. */
static inline uint32_t point(const volatile void *p, enum sim_access access)
{
	uint32_t id;

	if (!sim_in_task())
		return 0;
	id = object_of(p, false);
	sim_point(id, access);
	if (in_heap(p))
		(void)object_of(p, true);	/* freed while we waited? */
	return id;
}

void rc_note_fn(void);	/* realcode/symbols.c */

static inline void record(uint32_t id, enum sim_access access, uint64_t v,
			  bool plain)
{
	if (!id)
		return;
	if (plain)
		sim_race_plain_next();
	/* A pointer into the heap is recorded as its offset (RC_HEAP_TAG):
	 * the same in every process, whatever the arena's address. */
	if (v - (uintptr_t)R.heap < RC_HEAP_BYTES)
		v = RC_HEAP_TAG | (v - (uintptr_t)R.heap);
	sim_record(id, access, v);
	if (__builtin_expect(sim_lockdep_capturing(), 0))
		rc_note_fn();
}

uint64_t rc_load(const volatile void *p, unsigned int size, bool plain)
{
	uint32_t id = point(p, SIM_ACCESS_READ);
	uint64_t v = raw_load(p, size);

	record(id, SIM_ACCESS_READ, v, plain);
	return v;
}

void rc_store(volatile void *p, uint64_t v, unsigned int size, bool plain)
{
	uint32_t id = point(p, SIM_ACCESS_WRITE);

	raw_store(p, v, size);
	record(id, SIM_ACCESS_WRITE, v, plain);
}

#define RMW(name, expr)							\
uint64_t rc_##name(volatile void *p, uint64_t v, unsigned int size)	\
{									\
	uint32_t id = point(p, SIM_ACCESS_RMW);				\
	uint64_t old = raw_load(p, size);				\
	raw_store(p, (expr), size);					\
	record(id, SIM_ACCESS_RMW, raw_load(p, size), false);		\
	return old;							\
}
RMW(xchg, v)
RMW(fetch_add, old + v)
RMW(fetch_or, old | v)
RMW(fetch_and, old & v)
RMW(fetch_xor, old ^ v)

uint64_t rc_cmpxchg(volatile void *p, uint64_t o, uint64_t v,
		    unsigned int size)
{
	uint32_t id = point(p, SIM_ACCESS_RMW);
	uint64_t old = raw_load(p, size);
	uint64_t mask = size == 8 ? ~0ULL : (1ULL << (size * 8)) - 1;

	if (old == (o & mask))
		raw_store(p, v, size);
	record(id, SIM_ACCESS_RMW, raw_load(p, size), false);
	return old;
}

void rc_add_nr(volatile void *p, uint64_t v, unsigned int size)
{
	uint32_t id = point(p, SIM_ACCESS_ADD);

	raw_store(p, raw_load(p, size) + v, size);
	record(id, SIM_ACCESS_ADD, raw_load(p, size), false);
}

/* ---- the instrumentation's hooks (plain accesses) ------------------------ */

static inline void plain(const volatile void *p, unsigned int size,
			 bool write, bool marked)
{
	uint32_t id;
	uint64_t v;

	if (!in_heap(p) || !sim_in_task())
		return;
	id = point(p, write ? SIM_ACCESS_WRITE : SIM_ACCESS_READ);
	v = size <= 8 && ((uintptr_t)p & 7) + size <= 8 ?
	    raw_load(p, size) : raw_load(p, 8);
	record(id, write ? SIM_ACCESS_WRITE : SIM_ACCESS_READ, v, !marked);
	/* An access across a word boundary touches the next word too. */
	if (((uintptr_t)p & 7) + size > 8) {
		const volatile char *q = (const volatile char *)p + 8;

		record(object_of((const void *)((uintptr_t)q & ~(uintptr_t)7),
				 true),
		       write ? SIM_ACCESS_WRITE : SIM_ACCESS_READ, 0, !marked);
	}
}

void __tsan_init(void);
void __tsan_init(void) { }
void __tsan_func_entry(void *pc);
void __tsan_func_entry(void *pc) { (void)pc; }
void __tsan_func_exit(void);
void __tsan_func_exit(void) { }

#define HOOKS(n)							\
void __tsan_read##n(void *p);						\
void __tsan_read##n(void *p) { plain(p, n, false, false); }		\
void __tsan_write##n(void *p);						\
void __tsan_write##n(void *p) { plain(p, n, true, false); }		\
void __tsan_unaligned_read##n(void *p);					\
void __tsan_unaligned_read##n(void *p) { plain(p, n, false, false); }	\
void __tsan_unaligned_write##n(void *p);				\
void __tsan_unaligned_write##n(void *p) { plain(p, n, true, false); }	\
void __tsan_volatile_read##n(void *p);					\
void __tsan_volatile_read##n(void *p) { plain(p, n, false, true); }	\
void __tsan_volatile_write##n(void *p);					\
void __tsan_volatile_write##n(void *p) { plain(p, n, true, true); }
HOOKS(1)
HOOKS(2)
HOOKS(4)
HOOKS(8)
HOOKS(16)

void __tsan_read_range(void *p, unsigned long size);
void __tsan_read_range(void *p, unsigned long size)
{
	for (unsigned long i = 0; i < size; i += 8)
		plain((char *)p + i, size - i < 8 ? (unsigned)(size - i) : 8,
		      false, false);
}
void __tsan_write_range(void *p, unsigned long size);
void __tsan_write_range(void *p, unsigned long size)
{
	for (unsigned long i = 0; i < size; i += 8)
		plain((char *)p + i, size - i < 8 ? (unsigned)(size - i) : 8,
		      true, false);
}

/* ---- bitops ----------------------------------------------------------------- */

static inline volatile unsigned long *bit_word(unsigned long nr,
					       const volatile unsigned long *a)
{
	return (volatile unsigned long *)a + nr / 64;
}

static uint32_t bit_point(const volatile unsigned long *w, unsigned long nr,
			  enum sim_access access)
{
	uint32_t id = point(w, access);

	return id ? SIM_OBJECT_BIT(id, nr % 64) : 0;
}

bool rc_test_bit(unsigned long nr, const volatile unsigned long *addr)
{
	volatile unsigned long *w = bit_word(nr, addr);
	uint32_t id = bit_point(w, nr, SIM_ACCESS_READ);
	bool v = (*w >> (nr % 64)) & 1;

	record(id, SIM_ACCESS_READ, v, false);
	return v;
}

static bool atomic_bit(unsigned long nr, volatile unsigned long *addr,
		       int op)	/* 1 set, 0 clear */
{
	volatile unsigned long *w = bit_word(nr, addr);
	uint32_t id = bit_point(w, nr, SIM_ACCESS_RMW);
	unsigned long m = 1UL << (nr % 64);
	bool old = (*w & m) != 0;

	if (op)
		*w |= m;
	else
		*w &= ~m;
	record(id, SIM_ACCESS_RMW, op, false);
	return old;
}

void rc_set_bit(unsigned long nr, volatile unsigned long *addr)
{
	(void)atomic_bit(nr, addr, 1);
}
void rc_clear_bit(unsigned long nr, volatile unsigned long *addr)
{
	(void)atomic_bit(nr, addr, 0);
}
bool rc_test_and_set_bit(unsigned long nr, volatile unsigned long *addr)
{
	return atomic_bit(nr, addr, 1);
}
bool rc_test_and_clear_bit(unsigned long nr, volatile unsigned long *addr)
{
	return atomic_bit(nr, addr, 0);
}

/* Non-atomic: a plain load step, then a plain store step. */
static bool plain_bit(unsigned long nr, volatile unsigned long *addr, int op)
{
	volatile unsigned long *w = bit_word(nr, addr);
	unsigned long m = 1UL << (nr % 64);
	unsigned long v = (unsigned long)rc_load(w, 8, true);

	rc_store(w, op ? v | m : v & ~m, 8, true);
	return (v & m) != 0;
}

void rc___set_bit(unsigned long nr, volatile unsigned long *addr)
{
	(void)plain_bit(nr, addr, 1);
}
void rc___clear_bit(unsigned long nr, volatile unsigned long *addr)
{
	(void)plain_bit(nr, addr, 0);
}
bool rc___test_and_set_bit(unsigned long nr, volatile unsigned long *addr)
{
	return plain_bit(nr, addr, 1);
}
bool rc___test_and_clear_bit(unsigned long nr, volatile unsigned long *addr)
{
	return plain_bit(nr, addr, 0);
}

unsigned long rc_find_next_bit(const unsigned long *addr, unsigned long size,
			       unsigned long offset)
{
	while (offset < size) {
		unsigned long w = (unsigned long)rc_load(addr + offset / 64,
							 8, true);

		w &= ~0UL << (offset % 64);
		if (w) {
			unsigned long r = offset / 64 * 64 +
					  (unsigned long)__builtin_ctzl(w);

			return r < size ? r : size;
		}
		offset = (offset / 64 + 1) * 64;
	}
	return size;
}

static inline unsigned long last_mask(unsigned int nbits)
{
	return nbits % 64 ? (1UL << (nbits % 64)) - 1 : ~0UL;
}

bool rc_bitmap_empty(const unsigned long *addr, unsigned int nbits)
{
	for (unsigned int i = 0; i < (nbits + 63) / 64; i++) {
		unsigned long w = (unsigned long)rc_load(addr + i, 8, true);

		if (i == (nbits - 1) / 64)
			w &= last_mask(nbits);
		if (w)
			return false;
	}
	return true;
}

void rc_bitmap_fill(unsigned long *addr, unsigned int nbits)
{
	for (unsigned int i = 0; i < (nbits + 63) / 64; i++)
		rc_store(addr + i, i == (nbits - 1) / 64 ? last_mask(nbits) :
			 ~0UL, 8, true);
}

void rc_bitmap_zero(unsigned long *addr, unsigned int nbits)
{
	for (unsigned int i = 0; i < (nbits + 63) / 64; i++)
		rc_store(addr + i, 0, 8, true);
}

void rc_bitmap_clear(unsigned long *addr, unsigned int start,
		     unsigned int nbits)
{
	for (unsigned int b = start; b < start + nbits; b = (b / 64 + 1) * 64) {
		unsigned int end = start + nbits < (b / 64 + 1) * 64 ?
				   start + nbits : (b / 64 + 1) * 64;
		unsigned long m = (end % 64 ? (1UL << (end % 64)) : 0) -
				  (1UL << (b % 64));
		unsigned long w;

		if (end - b == 64)
			m = ~0UL;
		w = (unsigned long)rc_load(addr + b / 64, 8, true);
		rc_store(addr + b / 64, w & ~m, 8, true);
	}
}

/* ---- spinlocks ---------------------------------------------------------- */

static void reader_enter(int t);
static void reader_exit(int t);

/*
 * A task holding a spinlock runs with preemption off, and since Linux
 * 4.20 a preemption-off region is an RCU read-side critical section
 * (the flavours were merged): a grace period waits for it.  lib/xarray.c
 * relies on it (xas_delete_node frees a node with call_rcu and goes on
 * reading it under xa_lock).  So spinlock holds count as readers.
 */
static void spin_taken(void)
{
	int t = sim_task_current();

	if (t >= 0 && t < SIM_TASKS_MAX && R.spin_depth[t]++ == 0 &&
	    !R.rcu_depth[t])
		reader_enter(t);
}

static void spin_dropped(void)
{
	int t = sim_task_current();

	if (t >= 0 && t < SIM_TASKS_MAX && --R.spin_depth[t] == 0 &&
	    !R.rcu_depth[t])
		reader_exit(t);
}

static struct sim_spinlock *sl(struct rc_spinlock *l)
{
	struct sim_spinlock *s = (struct sim_spinlock *)(void *)l;

	if (!s->word.id)
		sim_spin_init(s, "spinlock%u", R.next++);
	return s;
}

void rc_spin_init(struct rc_spinlock *l, const char *name)
{
	const char *p = strrchr(name, '>');

	sim_spin_init((struct sim_spinlock *)(void *)l, "%s",
		      p ? p + 1 : name);
}

void rc_spin_lock(struct rc_spinlock *l)
{
	sim_spin_lock(sl(l));
	spin_taken();
	if (sim_lockdep_capturing())
		rc_note_fn();
}

bool rc_spin_trylock(struct rc_spinlock *l)
{
	bool ok = sim_spin_trylock(sl(l));

	if (ok)
		spin_taken();
	if (sim_lockdep_capturing())
		rc_note_fn();
	return ok;
}

void rc_spin_unlock(struct rc_spinlock *l)
{
	sim_spin_unlock(sl(l));
	if (sim_lockdep_capturing())
		rc_note_fn();
	spin_dropped();
}

bool rc_spin_held_by_me(const struct rc_spinlock *l)
{
	return sim_spin_held_by_me((const struct sim_spinlock *)(const void *)l);
}

bool rc_spin_is_locked(const struct rc_spinlock *l)
{
	return sim_spin_held((const struct sim_spinlock *)(const void *)l);
}

void rc_cpu_relax(void)
{
}

/* ---- RCU ------------------------------------------------------------------ */

static uint64_t readers(void)
{
	uint64_t m = 0;

	for (int t = 0; t < SIM_TASKS_MAX; t++)
		if (R.rcu_depth[t] || R.spin_depth[t])
			m |= 1ULL << t;
	return m;
}

static void run_cb(uint32_t i)
{
	struct rcu_cb cb = R.cbs[i];
	bool was = R.in_prim;

	R.cbs[i] = R.cbs[--R.ncbs];
	R.in_prim = true;
	cb.fn(cb.head);
	R.in_prim = was;
}

/* The task starts or stops holding up grace periods: an event on the
 * rcu object in the current step (adds commute: readers are
 * independent of each other; call_rcu's read of the readers is not). */
static void reader_enter(int t)
{
	(void)t;
	sim_record(R.rcu_id, SIM_ACCESS_ADD, 1);
}

static void reader_exit(int t)
{
	uint64_t now = readers();

	sim_record(R.rcu_id, SIM_ACCESS_ADD, (uint64_t)-1);
	/* The grace periods of callbacks this task queued inside its
	 * section start now; those this reader held up may end here. */
	for (uint32_t i = 0; i < R.ncbs; i++)
		if (R.cbs[i].deferred == t + 1) {
			R.cbs[i].deferred = 0;
			R.cbs[i].waiting = now | 1ULL << t;
		}
	for (uint32_t i = 0; i < R.ncbs;) {
		R.cbs[i].waiting &= ~(1ULL << t);
		if (!R.cbs[i].waiting && !R.cbs[i].deferred)
			run_cb(i);
		else
			i++;
	}
}

void rc_rcu_read_lock(void)
{
	int t = sim_task_current();

	if (t < 0)
		return;
	if (t >= SIM_TASKS_MAX)
		sim_fail(SIM_FAIL_BOUND, "realcode: RCU reader task id %d", t);
	if (R.rcu_depth[t]++ == 0 && !R.spin_depth[t]) {
		sim_point(R.rcu_id, SIM_ACCESS_ADD);
		reader_enter(t);
		if (sim_lockdep_capturing())
			rc_note_fn();
	}
}

void rc_rcu_read_unlock(void)
{
	int t = sim_task_current();

	if (t < 0)
		return;
	if (t >= SIM_TASKS_MAX || !R.rcu_depth[t])
		sim_fail(SIM_FAIL_ASSERT, "realcode: rcu_read_unlock without "
			 "rcu_read_lock");
	if (--R.rcu_depth[t] || R.spin_depth[t])
		return;
	sim_point(R.rcu_id, SIM_ACCESS_ADD);
	reader_exit(t);
	if (sim_lockdep_capturing())
		rc_note_fn();
}

bool rc_rcu_read_lock_held(void)
{
	int t = sim_task_current();

	return t < 0 || (t < SIM_TASKS_MAX && R.rcu_depth[t]);
}

void rc_call_rcu(void *head, void (*fn)(void *head))
{
	int t = sim_task_current();

	if (sim_in_task()) {
		sim_point(R.rcu_id, SIM_ACCESS_RMW);
		sim_record(R.rcu_id, SIM_ACCESS_RMW, readers());
	}
	if (R.ncbs == CBS_MAX)
		sim_fail(SIM_FAIL_BOUND, "realcode: more than %u RCU "
			 "callbacks pending", CBS_MAX);
	R.cbs[R.ncbs].head = head;
	R.cbs[R.ncbs].fn = fn;
	R.cbs[R.ncbs].waiting = readers();
	R.cbs[R.ncbs].deferred = 0;
	/* Queued inside the caller's own read-side (or spinlock) section:
	 * the grace period starts when that section ends (see rt.h). */
	if (!rc_rcu_gp_from_call && t >= 0 && t < SIM_TASKS_MAX &&
	    (R.rcu_depth[t] || R.spin_depth[t])) {
		R.cbs[R.ncbs].deferred = t + 1;
		R.cbs[R.ncbs].waiting = 0;
	}
	if (!R.cbs[R.ncbs++].waiting && !R.cbs[R.ncbs - 1].deferred)
		run_cb(R.ncbs - 1);
}

void rc_synchronize_rcu(void)
{
	sim_fail(SIM_FAIL_ASSERT, "realcode: synchronize_rcu is not shimmed");
}

void rc_rcu_check(bool ok, bool need_reader, const char *what)
{
	if (ok || !rc_prove_rcu || !sim_in_task())
		return;
	if (need_reader && rc_rcu_read_lock_held())
		return;
	sim_fail(SIM_FAIL_LOCKING, "suspicious RCU usage (PROVE_RCU): %s "
		 "without the lock%s", what, need_reader ?
		 " or rcu_read_lock" : "");
}

/* ---- tasks --------------------------------------------------------------- */

static void task_namer(char *buf, size_t size, size_t o)
{
	snprintf(buf, size, o < 4 ? "__state" : "+%zu", o);
}

static struct rc_cache task_cache = {
	.name = "task", .size = sizeof(struct task_struct),
	.namer = task_namer,
};
static struct task_struct setup_task;
bool rc_jiffies_jump;

void *rc_current(void)
{
	int t = sim_task_current();

	if (t < 0)
		return &setup_task;
	if (t >= SIM_TASKS_MAX)
		sim_fail(SIM_FAIL_BOUND, "realcode: task id %d", t);
	if (!tasks[t]) {
		tasks[t] = rc_alloc(&task_cache, 0, NULL);
		tasks[t]->rc_task = t;
	}
	return tasks[t];
}

void rc_schedule(void)
{
	struct task_struct *me = rc_current();
	uint32_t id = point(&me->__state, SIM_ACCESS_READ);

	record(id, SIM_ACCESS_READ, me->__state, false);
	if (me->__state != 0 && id)
		sim_task_block(id);
}

int rc_wake_up_process(struct task_struct *t)
{
	uint32_t id = point(&t->__state, SIM_ACCESS_WRITE);
	int was = t->__state != 0;

	t->__state = 0;
	record(id, SIM_ACCESS_WRITE, 0, false);
	if (sim_task_blocked(t->rc_task))
		sim_task_wake(t->rc_task);
	return was;
}

unsigned long rc_jiffies(void)
{
	if (rc_jiffies_jump)
		jiffies_now += 1UL << 20;
	return jiffies_now;
}

/* ---- bugs, printk ------------------------------------------------------------ */

void rc_bug(const char *file, int line, const char *what)
{
	const char *f = strrchr(file, '/');

	sim_fail(SIM_FAIL_ASSERT, "kernel BUG at %s:%d: %s", f ? f + 1 : file,
		 line, what);
}

void rc_warn(const char *file, int line, const char *what)
{
	const char *f = strrchr(file, '/');

	rc_warnings++;
	sim_fail(SIM_FAIL_ASSERT, "WARNING at %s:%d: %s (realcode treats a "
		 "WARN as a failure, as panic_on_warn)", f ? f + 1 : file,
		 line, what);
}

int rc_printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!rc_verbose)
		return 0;
	va_start(ap, fmt);
	n = vfprintf(stderr, fmt, ap);
	va_end(ap);
	return n;
}
