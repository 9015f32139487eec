// SPDX-License-Identifier: MIT
/*
 * realcode/tests/rwsem-differential.c - the model's rw_semaphore
 * (model/kernel/rwsem.c, rwsem=exact) against the real
 * kernel/locking/rwsem.c (TAP).
 *
 * The same programs (tasks of down_read/up_read "R", down_write/up_write
 * "W", down_write/downgrade_write/up_read "D", down_read_trylock "r",
 * down_write_trylock "w") run on both sides under exhaustive DPOR; each
 * task logs when it holds the lock and lets it go, each log event a
 * step of its own on one shared word; the outcome is the log (who holds
 * the lock in which order, readers overlapping) and the trylock results.
 * The sets of outcomes must be equal.  Model knobs: spin_on_owner off
 * (the real file is built without CONFIG_RWSEM_SPIN_ON_OWNER) and
 * wait_timeout_expired off (jiffies frozen), or both sides with every
 * wait timed out (--timeout: jiffies jumps, the knob on).
 *
 * Usage: rwsem-differential [--quick] [--timeout] [RANDOM_PROGRAMS [SEED
 * [TASKS]]]; --quick leaves out the hand-written three-task programs
 * (their real side runs 7,000-150,000 executions each).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/kernel/rwsem.h"
#include "realcode/programs.h"
#include "outcomes.h"
#include "realcode/rt.h"
#include "realcode/rwsem-prog.h"
#include "sim/arena.h"
#include "sim/explore.h"
#include "sim/shared.h"
#include "sim/strategy.h"

static const char *const *PROG;
static bool timeout;
static struct rcr_log ML;
static struct km_rw_semaphore *MS;
static struct sim_word *mlog;

static void model_point(void)
{
	(void)sim_word_add(mlog, 1);
}

static void model_check(void *arg)
{
	(void)arg;
	SIM_CHECK(ML.writers <= 1 && !(ML.writers && ML.readers),
		  "rw_semaphore: %u writers and %u readers hold it",
		  ML.writers, ML.readers);
}

static void model_task(void *arg)
{
	int t = (int)(intptr_t)arg;

	for (int k = 0; PROG[t][k]; k++) {
		switch (PROG[t][k]) {
		case 'R':
			km_down_read(MS);
			rcr_log_acquire(&ML, t, 'r');
			rcr_log_release(&ML, t, 'r');
			km_up_read(MS);
			break;
		case 'W':
			km_down_write(MS);
			rcr_log_acquire(&ML, t, 'w');
			rcr_log_release(&ML, t, 'w');
			km_up_write(MS);
			break;
		case 'D':
			km_down_write(MS);
			rcr_log_acquire(&ML, t, 'w');
			rcr_log_release(&ML, t, 'w');
			rcr_log_acquire(&ML, t, 'r');
			km_downgrade_write(MS);
			rcr_log_release(&ML, t, 'r');
			km_up_read(MS);
			break;
		case 'r':
			if (rcr_log_try(&ML, t, k, km_down_read_trylock(MS),
					'r')) {
				rcr_log_release(&ML, t, 'r');
				km_up_read(MS);
			}
			break;
		case 'w':
			if (rcr_log_try(&ML, t, k, km_down_write_trylock(MS),
					'w')) {
				rcr_log_release(&ML, t, 'w');
				km_up_write(MS);
			}
			break;
		}
	}
}

static void model_setup(void *c)
{
	(void)c;
	MS = sim_arena_alloc(sizeof(*MS));
	km_init_rwsem(MS, "sem");
	MS->knobs.spin_on_owner = false;
	MS->knobs.wait_timeout_expired = timeout;
	mlog = sim_arena_alloc(sizeof(*mlog));
	sim_word_init(mlog, 0, "log");
	rcr_log_reset(&ML, PROG, model_point);
	sim_check_register("rwsem-holders", model_check, NULL, NULL);
	for (int t = 0; PROG[t]; t++)
		sim_task_spawn("t", model_task, (void *)(intptr_t)t);
}


static void model_final(void *c)
{
	(void)c;
	rcr_log_outcome(&ML, rc_outcome_text, sizeof(rc_outcome_text));
}

static void real_setup(void *c)
{
	(void)c;
	rc_jiffies_jump = timeout;
	rcr_real_setup(PROG);
}

static void real_final(void *c)
{
	(void)c;
	rcr_real_final();
	snprintf(rc_outcome_text, sizeof(rc_outcome_text), "%s", rc_outcome);
}


static unsigned int tapn;

/* The outcome sets of the program being checked (large: static). */
static struct rc_diff D;

static bool check(const char *const *prog)
{
	static const struct sim_program real = {
		"rwsem-real", NULL, real_setup, real_final, NULL };
	static const struct sim_program model = {
		"rwsem-model", NULL, model_setup, model_final, NULL };
	uint64_t er, em;
	bool ok;
	char d[64] = "";

	PROG = prog;
	rc_diff_run(&D, &real, &model);
	ok = D.ok;
	er = D.real_execs;
	em = D.model_execs;
	for (int t = 0; prog[t]; t++)
		snprintf(d + strlen(d), sizeof(d) - strlen(d), "%s%s",
			 t ? " | " : "", prog[t]);
	printf("%s %u - %s%s: %u outcomes, real %" PRIu64 " executions, "
	       "model %" PRIu64 "%s\n", ok ? "ok" : "not ok", ++tapn, d,
	       timeout ? " (timed out)" : "", D.real.n, er, em,
	       ok ? ", the same outcomes" : "");
	rc_diff_finish(&D);
	return ok;
}

static const char *const fixed[][4] = {
	{ "WR", "RW", NULL },
	{ "D", "rw", NULL },
	{ "W", "R", "R", NULL },
	{ "R", "W", "r", NULL },
	{ "W", "W", "R", NULL },
	{ "D", "R", "W", NULL },
	{ "R", "w", "W", NULL },
};

int main(int argc, char **argv)
{
	int a = 1;
	unsigned long nrandom, tasks;
	uint64_t rng;
	size_t nfixed = sizeof(fixed) / sizeof(fixed[0]);
	bool all = true;
	static const char ops[] = "RWDrw";
	static char buf[64][4][4];
	const char *progs[64][5];

	bool quick = false;

	if (a < argc && !strcmp(argv[a], "--quick"))
		quick = true, a++;
	if (a < argc && !strcmp(argv[a], "--timeout"))
		timeout = true, a++;
	if (quick)
		nfixed = 2;
	nrandom = a < argc ? strtoul(argv[a], NULL, 10) : 10;
	rng = a + 1 < argc ? strtoull(argv[a + 1], NULL, 10) : 1;
	tasks = a + 2 < argc ? strtoul(argv[a + 2], NULL, 10) : 2;
	if (nrandom > 64 || tasks < 2 || tasks > 3)
		return 2;
	printf("1..%zu\n", nfixed + nrandom);
	for (size_t i = 0; i < nfixed; i++)
		all &= check(fixed[i]);
	for (unsigned long i = 0; i < nrandom; i++) {
		for (unsigned long t = 0; t < tasks; t++) {
			unsigned int n = 1 + (tasks == 2 ?
				(unsigned int)(sim_rng_next(&rng) % 2) : 0);

			for (unsigned int k = 0; k < n; k++)
				buf[i][t][k] = ops[sim_rng_next(&rng) % 5];
			buf[i][t][n] = '\0';
			progs[i][t] = buf[i][t];
		}
		progs[i][tasks] = NULL;
		all &= check(progs[i]);
	}
	return all ? 0 : 1;
}
