// SPDX-License-Identifier: MIT
/*
 * realcode/rwsem/programs.c - programs of tasks taking the real
 * rw_semaphore (kernel/locking/rwsem.c, v6.12), for wpsim-realcode.
 * Each task logs (outside shared memory) when it holds the lock and
 * when it lets it go; a check after every step: a writer holds it alone.
 * The outcome is the log and the trylock results.  Leaves out: what
 * the lock protects (the log's word stands for it), killable and
 * interruptible takes, more than four tasks.
 */
#include <stdio.h>
#include <string.h>

#include "realcode/programs.h"
#include "realcode/rt.h"
#include "realcode/rwsem.h"
#include "realcode/rwsem-prog.h"
#include "sim/shared.h"

static struct rw_semaphore *S;
static struct rcr_log L;
static unsigned long *logword;	/* the log's shared word (rcr_log) */

static void log_point(void)
{
	(void)rc_fetch_add(logword, 1, 8);
}

static void log_check(void *arg)
{
	(void)arg;
	SIM_CHECK(L.writers <= 1 && !(L.writers && L.readers),
		  "rw_semaphore: %u writers and %u readers hold it",
		  L.writers, L.readers);
}

static void real_op(int t, int k, char op)
{
	switch (op) {
	case 'R':
		rcr_down_read(S);
		rcr_log_acquire(&L, t, 'r');
		rcr_log_release(&L, t, 'r');
		rcr_up_read(S);
		break;
	case 'W':
		rcr_down_write(S);
		rcr_log_acquire(&L, t, 'w');
		rcr_log_release(&L, t, 'w');
		rcr_up_write(S);
		break;
	case 'D':	/* down_write, downgrade_write, up_read */
		rcr_down_write(S);
		rcr_log_acquire(&L, t, 'w');
		rcr_log_release(&L, t, 'w');
		rcr_log_acquire(&L, t, 'r');
		rcr_downgrade_write(S);
		rcr_log_release(&L, t, 'r');
		rcr_up_read(S);
		break;
	case 'r':
		if (rcr_log_try(&L, t, k, rcr_down_read_trylock(S), 'r')) {
				rcr_log_release(&L, t, 'r');
			rcr_up_read(S);
		}
		break;
	case 'w':
		if (rcr_log_try(&L, t, k, rcr_down_write_trylock(S), 'w')) {
				rcr_log_release(&L, t, 'w');
			rcr_up_write(S);
		}
		break;
	}
}

static void real_task(void *arg)
{
	int t = (int)(intptr_t)arg;

	for (int k = 0; L.prog[t][k]; k++)
		real_op(t, k, L.prog[t][k]);
}

void rcr_real_setup(const char *const *prog)
{
	rc_begin();
	S = rcr_new();
	logword = rc_alloc(NULL, sizeof(*logword), "log");
	rcr_log_reset(&L, prog, log_point);
	sim_check_register("rwsem-holders", log_check, NULL, NULL);
	static const char *const names[] = { "t0", "t1", "t2", "t3" };

	for (int t = 0; prog[t] && t < 4; t++)
		sim_task_spawn(names[t], real_task, (void *)(intptr_t)t);
}

void rcr_real_final(void)
{
	SIM_ASSERT_MSG(!rcr_count(S) && !rcr_waiters(S),
		       "rw_semaphore not free at the end: count %ld",
		       rcr_count(S));
	rcr_log_outcome(&L, rc_outcome, sizeof(rc_outcome));
}

/* Built-in programs: the differential's hand-written ones. */
#define PROG(n, d, ...)							\
static const char *const n##_tasks[] = { __VA_ARGS__, NULL };		\
static void n##_setup(void *c) { (void)c; rcr_real_setup(n##_tasks); }	\
static const struct rc_program n = {					\
	{ "rwsem-" #n, d, n##_setup,					\
	  (void (*)(void *))(void *)rcr_real_final, NULL }, "pass" };

static void final_wrap(void *c) { (void)c; rcr_real_final(); }
#undef PROG
#define PROG(n, d, ...)							\
static const char *const n##_tasks[] = { __VA_ARGS__, NULL };		\
static void n##_setup(void *c) { (void)c; rcr_real_setup(n##_tasks); }	\
static const struct rc_program n = {					\
	{ "rwsem-" #n, d, n##_setup, final_wrap, NULL }, "pass" };

PROG(w_rr, "a writer, then two readers (real kernel/locking/rwsem.c)",
     "W", "R", "R")
PROG(r_w_tr, "a reader, a writer, a read trylock", "R", "W", "r")
PROG(w_w_r, "two writers and a reader", "W", "W", "R")
PROG(dg_r_w, "downgrade_write against a reader and a writer", "D", "R",
     "W")

const struct rc_program *const rc_rwsem_programs[] = {
	&w_rr, &r_w_tr, &w_w_r, &dg_r_w, NULL,
};
