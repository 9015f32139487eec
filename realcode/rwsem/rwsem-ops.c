// SPDX-License-Identifier: MIT
/*
 * realcode/rwsem/rwsem-ops.c - tasks' calls into the real
 * kernel/locking/rwsem.c (realcode/rwsem.h), and names for the words of
 * a struct rw_semaphore.  Models: the callers of down_read, up_read,
 * down_write, ... (Linux v6.12).  Leaves out: lockdep classes.
 */
#include <stdio.h>

#include <linux/rwsem.h>

#include "realcode/rwsem.h"

static void sem_namer(char *buf, size_t size, size_t o)
{
	if (o < offsetof(struct rw_semaphore, owner))
		snprintf(buf, size, "count");
	else if (o < offsetof(struct rw_semaphore, wait_lock))
		snprintf(buf, size, "owner");
	else if (o < offsetof(struct rw_semaphore, wait_list))
		snprintf(buf, size, "wait_lock");
	else
		snprintf(buf, size, "wait_list.%s",
			 o < offsetof(struct rw_semaphore, wait_list) + 8 ?
			 "next" : "prev");
}

static struct rc_cache sem_cache = {
	.name = "sem", .size = sizeof(struct rw_semaphore),
	.namer = sem_namer,
};

struct rw_semaphore *rcr_new(void)
{
	struct rw_semaphore *sem;

	sem_cache.allocs = 0;
	sem = rc_alloc(&sem_cache, 0, NULL);
	init_rwsem(sem);
	return sem;
}

void rcr_down_read(struct rw_semaphore *sem) { down_read(sem); }
int rcr_down_read_trylock(struct rw_semaphore *sem)
{
	return down_read_trylock(sem);
}
void rcr_up_read(struct rw_semaphore *sem) { up_read(sem); }
void rcr_down_write(struct rw_semaphore *sem) { down_write(sem); }
int rcr_down_write_trylock(struct rw_semaphore *sem)
{
	return down_write_trylock(sem);
}
void rcr_up_write(struct rw_semaphore *sem) { up_write(sem); }
void rcr_downgrade_write(struct rw_semaphore *sem) { downgrade_write(sem); }

long rcr_count(struct rw_semaphore *sem)
{
	return sem->count.counter;
}

bool rcr_waiters(struct rw_semaphore *sem)
{
	return sem->wait_list.next != &sem->wait_list;
}
