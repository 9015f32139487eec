/* SPDX-License-Identifier: MIT */
/* realcode shim: lockdep as the engine's lock tracking (wpsim's own). */
#ifndef RC_LOCKDEP_H
#define RC_LOCKDEP_H
#include "rc-kernel.h"
struct lock_class_key { int unused; };
struct lockdep_map { int unused; };
struct spinlock;
/* Spinlocks: whether the running task holds it; other lock types: true
 * (lockdep proper is not modelled). */
#define lockdep_is_held(l) _Generic((l),				\
	struct spinlock *: rc_spin_held_by_me((const struct rc_spinlock *)(const void *)(l)), \
	const struct spinlock *: rc_spin_held_by_me((const struct rc_spinlock *)(const void *)(l)), \
	default: 1)
#define lockdep_assert_held(l)						\
	do { if (!lockdep_is_held(l))					\
		rc_bug(__FILE__, __LINE__, "lockdep_assert_held(" #l ")"); } while (0)
#define lockdep_assert_held_write lockdep_assert_held
#define lockdep_assert_irqs_enabled() do { } while (0)
#define lockdep_assert_irqs_disabled() do { } while (0)
#define lockdep_assert_preemption_disabled() do { } while (0)
#define lockdep_init_map(...) do { } while (0)
#define lockdep_set_class(...) do { } while (0)
#define lock_acquire(...) do { } while (0)
#define lock_release(...) do { } while (0)
#define lock_downgrade(...) do { } while (0)
#define rwsem_acquire(...) do { } while (0)
#define rwsem_acquire_read(...) do { } while (0)
#define rwsem_release(...) do { } while (0)
#define lock_acquired(...) do { } while (0)
#define lock_contended(...) do { } while (0)
#define lock_is_held_type(...) 1
#define LOCK_CONTENDED(_lock, try, lock) lock(_lock)
#define LOCK_CONTENDED_RETURN(_lock, try, lock) lock(_lock)
#define SINGLE_DEPTH_NESTING 1
#endif
