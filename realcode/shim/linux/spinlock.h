/* SPDX-License-Identifier: MIT */
/*
 * realcode shim: spinlocks as engine spinlocks (wpsim's own text).  A
 * task that would spin is disabled until the lock is free; the _irq,
 * _bh and _irqsave variants are the plain ones (no interrupts in the
 * engine: an event never interrupts a step).
 */
#ifndef RC_SPINLOCK_H
#define RC_SPINLOCK_H
#include "rc-kernel.h"
#include "linux/lockdep.h"
typedef struct spinlock {
	struct rc_spinlock rc;
} spinlock_t;
typedef spinlock_t raw_spinlock_t;
#define __SPIN_LOCK_UNLOCKED(name) { .rc = { 0, 0, 0 } }
#define __RAW_SPIN_LOCK_UNLOCKED(name) __SPIN_LOCK_UNLOCKED(name)
#define DEFINE_SPINLOCK(x) spinlock_t x = __SPIN_LOCK_UNLOCKED(x)
#define DEFINE_RAW_SPINLOCK(x) DEFINE_SPINLOCK(x)
#define spin_lock_init(l) rc_spin_init(&(l)->rc, #l)
#define raw_spin_lock_init spin_lock_init
#define spin_lock(l) rc_spin_lock(&(l)->rc)
#define spin_unlock(l) rc_spin_unlock(&(l)->rc)
#define spin_trylock(l) rc_spin_trylock(&(l)->rc)
#define spin_lock_nested(l, s) spin_lock(l)
#define spin_lock_bh(l) spin_lock(l)
#define spin_unlock_bh(l) spin_unlock(l)
#define spin_lock_bh_nested(l, s) spin_lock(l)
#define spin_lock_irq(l) spin_lock(l)
#define spin_unlock_irq(l) spin_unlock(l)
#define spin_lock_irq_nested(l, s) spin_lock(l)
#define spin_lock_irqsave(l, f) do { (f) = 0; spin_lock(l); } while (0)
#define spin_lock_irqsave_nested(l, f, s) spin_lock_irqsave(l, f)
#define spin_unlock_irqrestore(l, f) do { (void)(f); spin_unlock(l); } while (0)
#define spin_is_locked(l) rc_spin_is_locked(&(l)->rc)
#define assert_spin_locked(l) BUG_ON(!spin_is_locked(l))
#define raw_spin_lock spin_lock
#define raw_spin_unlock spin_unlock
#define raw_spin_trylock spin_trylock
#define raw_spin_lock_irq spin_lock_irq
#define raw_spin_unlock_irq spin_unlock_irq
#define raw_spin_lock_irqsave spin_lock_irqsave
#define raw_spin_unlock_irqrestore spin_unlock_irqrestore
#define raw_spin_is_locked spin_is_locked
#endif
