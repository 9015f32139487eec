/* SPDX-License-Identifier: MIT */
/*
 * realcode/rt.h - the runtime under real kernel files (realcode/rt.c).
 *
 * Real kernel C (lib/xarray.c, kernel/locking/rwsem.c) is compiled
 * unchanged against the shim headers of realcode/shim/, which turn the
 * kernel's synchronisation and shared-memory primitives into calls of
 * the functions below, and with GCC's thread-sanitizer instrumentation
 * (-fsanitize=thread, no libtsan: rt.c provides the __tsan_* hooks, as
 * the kernel's KCSAN does), so that every plain load and store of the
 * real code is seen too.  Each access to shared memory is one engine
 * scheduling point recording one event on an engine object that stands
 * for the 8-byte word accessed: DPOR, the race detector and --explain
 * see the real code's accesses.
 *
 * Shared memory is the per-execution "kernel heap": one block of the
 * engine's per-execution arena, from which kmem_cache_alloc/kmalloc
 * carve objects.  Plain accesses outside it (a task's stack, globals)
 * are local and make no point; the explicit primitives (atomics, locks,
 * READ_ONCE, smp_load_acquire) make points wherever their word is, so a
 * waiter record on a sleeping task's stack (rwsem) is shared through
 * them.  Memory model: sequential consistency (every access is one step
 * and steps are totally ordered); smp_* barriers are no-ops.
 */
#ifndef REALCODE_RT_H
#define REALCODE_RT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes of the per-execution kernel heap. */
#define RC_HEAP_BYTES	(96 * 1024)
/* An event's value that pointed into the heap: this tag | the offset
 * (printed "heap+0x..."), so that logs do not depend on addresses. */
#define RC_HEAP_TAG	(1ULL << 62)

/* ---- per execution ------------------------------------------------------ */

/* Call first in a program's setup: a fresh heap, RCU and lock state. */
void rc_begin(void);
/* Whether PROVE_RCU-style checks are on (rcu_dereference_check and
 * rcu_dereference_protected conditions).  Default on. */
extern bool rc_prove_rcu;

/* ---- the kernel heap ---------------------------------------------------- */

struct rc_cache;
/* Names the field at @offset of an object of the cache (for --explain). */
typedef void (*rc_namer_fn)(char *buf, size_t size, size_t offset);
void *rc_alloc(struct rc_cache *cache, size_t size, const char *what);
void rc_free(void *p);
bool rc_is_shared(const void *p);
/* The engine object that stands for the word at @p (registered at its
 * first access), for checks that want to name it. */
uint32_t rc_object_of(const void *p);
/* Is the object at @p live (allocated, not freed)? */
bool rc_live(const void *p);

struct rc_cache {
	const char *name;
	size_t size;
	rc_namer_fn namer;
	void (*ctor)(void *);
	unsigned int allocs;	/* per execution */
};

/* ---- accesses (one point each) ----------------------------------------- */

/* Marked (READ_ONCE/WRITE_ONCE/rcu_*) and plain accesses of @size bytes. */
uint64_t rc_load(const volatile void *p, unsigned int size, bool plain);
void rc_store(volatile void *p, uint64_t v, unsigned int size, bool plain);
/* Atomic RMWs on a long/int: return the old value. */
uint64_t rc_xchg(volatile void *p, uint64_t v, unsigned int size);
uint64_t rc_cmpxchg(volatile void *p, uint64_t old, uint64_t v,
		    unsigned int size);
uint64_t rc_fetch_add(volatile void *p, uint64_t v, unsigned int size);
uint64_t rc_fetch_or(volatile void *p, uint64_t v, unsigned int size);
uint64_t rc_fetch_and(volatile void *p, uint64_t v, unsigned int size);
uint64_t rc_fetch_xor(volatile void *p, uint64_t v, unsigned int size);
/* Atomic add whose result is not used (commutes with other adds). */
void rc_add_nr(volatile void *p, uint64_t v, unsigned int size);

/* Bit operations on an array of longs. */
bool rc_test_bit(unsigned long nr, const volatile unsigned long *addr);
void rc_set_bit(unsigned long nr, volatile unsigned long *addr);
void rc_clear_bit(unsigned long nr, volatile unsigned long *addr);
bool rc_test_and_set_bit(unsigned long nr, volatile unsigned long *addr);
bool rc_test_and_clear_bit(unsigned long nr, volatile unsigned long *addr);
/* Non-atomic: a load step and a store step. */
void rc___set_bit(unsigned long nr, volatile unsigned long *addr);
void rc___clear_bit(unsigned long nr, volatile unsigned long *addr);
bool rc___test_and_set_bit(unsigned long nr, volatile unsigned long *addr);
bool rc___test_and_clear_bit(unsigned long nr, volatile unsigned long *addr);
/* Bitmaps: one plain access per word. */
unsigned long rc_find_next_bit(const unsigned long *addr, unsigned long size,
			       unsigned long offset);
bool rc_bitmap_empty(const unsigned long *addr, unsigned int nbits);
void rc_bitmap_fill(unsigned long *addr, unsigned int nbits);
void rc_bitmap_zero(unsigned long *addr, unsigned int nbits);
void rc_bitmap_clear(unsigned long *addr, unsigned int start,
		     unsigned int nbits);

/* ---- locks ------------------------------------------------------------- */

struct __attribute__((packed, aligned(4))) rc_spinlock {
	uint64_t word;		/* an engine struct sim_spinlock (12 bytes) */
	uint32_t id;
};
void rc_spin_init(struct rc_spinlock *l, const char *name);
void rc_spin_lock(struct rc_spinlock *l);
bool rc_spin_trylock(struct rc_spinlock *l);
void rc_spin_unlock(struct rc_spinlock *l);
bool rc_spin_held_by_me(const struct rc_spinlock *l);
bool rc_spin_is_locked(const struct rc_spinlock *l);

/* ---- RCU --------------------------------------------------------------- */

struct rc_rcu_head;
void rc_rcu_read_lock(void);
void rc_rcu_read_unlock(void);
bool rc_rcu_read_lock_held(void);
/*
 * call_rcu: @fn(@head) runs once every task that was inside a read-side
 * section (or held a spinlock: preemption off) when the grace period
 * started has left it, in the step where the last leaves, or at once if
 * none is inside.  The grace period starts at the call, or, when the
 * caller is itself inside such a section, when the caller leaves it:
 * lib/xarray.c queues a node with call_rcu under xa_lock before it
 * unpublishes it (xas_delete_node), relying on that.
 * rc_rcu_gp_from_call: start every grace period at the call (the
 * formal guarantee, "readers that began before call_rcu";
 * docs/realcode.md shows what it does to lib/xarray.c).
 */
extern bool rc_rcu_gp_from_call;
void rc_call_rcu(void *head, void (*fn)(void *head));
void rc_synchronize_rcu(void);
/* A PROVE_RCU check: @ok or inside a read-side section. */
void rc_rcu_check(bool ok, bool need_reader, const char *what);

/* ---- tasks -------------------------------------------------------------- */

/* The running task's "struct task_struct" (one per engine task, on the
 * kernel heap; a static one on the scheduler's context). */
struct task_struct {
	unsigned int __state;	/* shared: set_current_state, wake-ups */
	int rc_task;		/* engine task id */
};
void *rc_current(void);
/* schedule(): sleep unless current->__state is TASK_RUNNING. */
void rc_schedule(void);
/* wake_up_process(): __state = TASK_RUNNING, wake it if asleep. */
int rc_wake_up_process(struct task_struct *t);
/* jiffies: 0, or (rc_jiffies_jump) a value past every earlier
 * timeout at each read, so every wait has timed out. */
unsigned long rc_jiffies(void);
extern bool rc_jiffies_jump;
/* Failure: BUG(), WARN(). */
void rc_bug(const char *file, int line, const char *what)
	__attribute__((noreturn));
void rc_warn(const char *file, int line, const char *what);
/* Per-execution count of WARN()s (a test may require zero). */
extern unsigned int rc_warnings;

/* realcode/symbols.c: events tagged with the kernel function that made
 * them, in kept logs; the report printer and the --explain log. */
void rc_symbols_install(void);
struct _IO_FILE;
void rc_print_log(struct _IO_FILE *out);

#endif /* REALCODE_RT_H */
