/* SPDX-License-Identifier: MIT */
/*
 * realcode/rwsem.h - the real kernel/locking/rwsem.c as tasks call it,
 * without kernel types (realcode/rwsem/rwsem-ops.c).
 */
#ifndef REALCODE_RWSEM_H
#define REALCODE_RWSEM_H

#include <stdbool.h>

struct rw_semaphore;

/* In setup, after rc_begin(): an initialised rw_semaphore on the heap. */
struct rw_semaphore *rcr_new(void);
void rcr_down_read(struct rw_semaphore *sem);
int rcr_down_read_trylock(struct rw_semaphore *sem);
void rcr_up_read(struct rw_semaphore *sem);
void rcr_down_write(struct rw_semaphore *sem);
int rcr_down_write_trylock(struct rw_semaphore *sem);
void rcr_up_write(struct rw_semaphore *sem);
void rcr_downgrade_write(struct rw_semaphore *sem);
/* Peeked (no point): count and whether the wait list is empty. */
long rcr_count(struct rw_semaphore *sem);
bool rcr_waiters(struct rw_semaphore *sem);

#endif /* REALCODE_RWSEM_H */
