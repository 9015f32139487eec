/* SPDX-License-Identifier: MIT */
/*
 * realcode/rwsem-prog.h - the lock log shared by the real rw_semaphore's
 * programs and the model's (the differential): who holds the lock in
 * which order, and the trylock results.  Bookkeeping, not shared memory:
 * no scheduling points.
 */
#ifndef REALCODE_RWSEM_PROG_H
#define REALCODE_RWSEM_PROG_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define RCR_TASKS 4
#define RCR_OPS 4

struct rcr_log {
	const char *const *prog;	/* per task: ops "RWDrw" */
	char events[128];		/* "0w+0w-1r+..." */
	size_t n;
	int tries[RCR_TASKS][RCR_OPS];	/* trylock results, -1 none */
	unsigned int readers, writers;
	/* A shared access that makes each log event a step of its own,
	 * dependent on every other (an RMW of one word): DPOR then runs
	 * every order of the events, as the outcome records it. */
	void (*point)(void);
};

static inline void rcr_log_reset(struct rcr_log *l, const char *const *prog,
				 void (*point)(void))
{
	memset(l, 0, sizeof(*l));
	memset(l->tries, -1, sizeof(l->tries));
	l->prog = prog;
	l->point = point;
}

static inline void rcr_log_event(struct rcr_log *l, int t, char mode, char e)
{
	l->point();
	if (l->n + 4 < sizeof(l->events)) {
		l->events[l->n++] = (char)('0' + t);
		l->events[l->n++] = mode;
		l->events[l->n++] = e;
		l->events[l->n] = '\0';
	}
}

static inline void rcr_log_acquire(struct rcr_log *l, int t, char mode)
{
	rcr_log_event(l, t, mode, '+');
	if (mode == 'w')
		l->writers++;
	else
		l->readers++;
}

static inline void rcr_log_release(struct rcr_log *l, int t, char mode)
{
	rcr_log_event(l, t, mode, '-');
	if (mode == 'w')
		l->writers--;
	else
		l->readers--;
}

static inline bool rcr_log_try(struct rcr_log *l, int t, int k, int ok,
			       char mode)
{
	l->tries[t][k] = ok;
	if (ok)
		rcr_log_acquire(l, t, mode);
	return ok;
}

static inline void rcr_log_outcome(const struct rcr_log *l, char *buf,
				   size_t size)
{
	size_t n = (size_t)snprintf(buf, size, "%s tries", l->events);

	for (int t = 0; t < RCR_TASKS && l->prog[t]; t++)
		for (int k = 0; k < RCR_OPS; k++)
			if (l->tries[t][k] >= 0 && n < size)
				n += (size_t)snprintf(buf + n, size - n,
						      " %d.%d=%d", t, k,
						      l->tries[t][k]);
}

/* realcode/rwsem/programs.c: the real side of a program. */
void rcr_real_setup(const char *const *prog);
void rcr_real_final(void);

#endif /* REALCODE_RWSEM_PROG_H */
