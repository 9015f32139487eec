/* SPDX-License-Identifier: MIT */
/*
 * wpsim/harness.h - race tests on the wpsim model, in the style of KUnit.
 *
 * A race is a world (files, their block layouts, the page-cache state,
 * the model's variants), a few tasks that call km_ paths, and a property
 * of the state each execution leaves.  wpsim_race_run() explores every
 * interleaving with DPOR (optionally within a preemption bound or an
 * execution cap) and decides whether the property holds Never,
 * Sometimes or Always.  When the expectation does not hold it prints the
 * witness: the execution's outcome, its schedule, the command that
 * replays it, the last steps of its event log and every module's dump.
 *
 *	static void writer(void *arg)
 *	{
 *		(void)arg;
 *		wpsim_reg_set(0, m_pwritev2(wpsim_file("f"), 0, 512, 0, 7, 0));
 *	}
 *
 *	Test(race, write_vs_flusher__no_lost_data)
 *	{
 *		struct wpsim_race r;
 *
 *		wpsim_race_init(&r, "write-vs-flusher");
 *		r.world.files[0].dirty_first = 0;   (page 0 starts dirty)
 *		r.world.files[0].dirty_last = 0;
 *		wpsim_race_task(&r, "writer", writer, NULL);
 *		wpsim_race_task(&r, "flusher", wpsim_task_writeback, NULL);
 *		r.expect = WPSIM_NEVER;             (no execution fails)
 *		WPSIM_ASSERT_RACE(&r);
 *	}
 *
 * Include convention: the installed include root is
 * $includedir/wpsim (pkg-config --cflags wpsim), laid out as the source
 * tree's include/: <wpsim/harness.h>, and the model headers it and a
 * race's tasks use (<model/world.h>, <model/variant.h>,
 * <model/fs/xfs.h>, <model/fs/ext4.h>, <model/io_uring/rw.h>,
 * <model/linux/pagemap.h>, <sim/engine.h>, ...).  The same lines compile
 * inside the wpsim tree and against an installed libwpsim.  This header
 * is the stable API; the others follow the model (docs/HACKING.md,
 * "Public headers").
 *
 * Replay: a failure prints
 *	replay: WPSIM_RACE='NAME' WPSIM_SCHEDULE='S' PROGRAM [--filter T]
 * Run it: the race named NAME then runs that one schedule with its whole
 * event log printed instead of exploring, and its verdict is that of the
 * one execution.
 */
#ifndef WPSIM_HARNESS_H
#define WPSIM_HARNESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "model/fs/xfs.h"
#include "model/linux/pagemap.h"
#include "model/world.h"
#include "sim/explore.h"

#define WPSIM_RACE_TASKS_MAX	8	/* tasks per race */
#define WPSIM_RACE_REGS_MAX	8	/* registers per task */
#define WPSIM_SCHEDULE_BYTES	1024	/* a kept schedule, formatted */

/* How often the property holds over the executions explored. */
enum wpsim_expect {
	WPSIM_NEVER,		/* in no execution */
	WPSIM_SOMETIMES,	/* in one at least, and not in one at least */
	WPSIM_ALWAYS,		/* in every execution */
};

enum wpsim_verdict {
	WPSIM_PASS,		/* the expectation holds (decided) */
	WPSIM_FAIL,		/* it does not, or an unexpected failure */
	WPSIM_UNDECIDED,	/* the search stopped before deciding */
};

struct wpsim_task {
	const char *name;
	sim_task_fn fn;
	void *arg;
};

struct wpsim_race;
typedef bool (*wpsim_property_fn)(struct wpsim_race *race);

struct wpsim_race {
	const char *name;
	/* The world: files (size, blkbits, folio order, layout, cached /
	 * dirty / mapped / dropbehind pages, open flags), the device's
	 * error injection, the variants.  wpsim_race_init() fills the
	 * model's default: one 16 KiB file "f" of written blocks. */
	struct m_world_config world;
	struct wpsim_task tasks[WPSIM_RACE_TASKS_MAX];
	unsigned int nr_tasks;
	/* Called in every execution after the world is built and before
	 * the tasks are spawned (state the config cannot say). */
	void (*setup)(struct wpsim_race *race);
	/*
	 * The property, evaluated on the state each execution leaves
	 * (read with sim_word_peek, wpsim_reg).  An execution that fails
	 * (assertion, invariant, deadlock, step bound) is then unexpected
	 * and fails the race with its report.  NULL: the property is "the
	 * execution failed", so WPSIM_NEVER says no interleaving breaks an
	 * invariant and WPSIM_SOMETIMES that the bug is found.
	 */
	wpsim_property_fn property;
	const char *property_text;	/* how reports name it */
	enum wpsim_expect expect;
	/* property NULL: every failure's message must contain this. */
	const char *failure_contains;
	/* The search: DPOR; a preemption bound (< 0: none), an execution
	 * cap (0: none), the step bound (0: the engine's default). */
	int preemptions;
	uint64_t executions_max;
	uint32_t steps_max;
	/* WPSIM_SOMETIMES stops once decided unless this is set. */
	bool exhaustive;
	/* End-of-execution world checks, on by default: the counters equal
	 * the folio state, and no clean folio holds data the disk lacks.
	 * A race with write errors loses data by design: skip the latter. */
	bool skip_quiescent_check;
	bool skip_lost_data_check;
	/* An extra end-of-execution check, run after the world checks and
	 * before the property; it may fail the execution (SIM_ASSERT,
	 * sim_fail).  NULL: none. */
	void (*final)(struct wpsim_race *race);
	void *ctx;			/* the test's own data */
};

struct wpsim_race_result {
	enum wpsim_verdict verdict;
	uint64_t executions;		/* complete executions explored */
	uint64_t redundant;		/* stopped by sleep sets (DPOR) */
	uint64_t positive;		/* the property held */
	uint64_t negative;
	uint64_t failures;		/* executions that failed */
	bool complete;			/* the search covered its space */
	bool bound_hit;			/* the preemption bound cut some */
	char witness[WPSIM_SCHEDULE_BYTES];	/* schedule, "" if none */
	char message[SIM_MESSAGE_BYTES];	/* why, one line */
};

/* The model's defaults, no tasks, property NULL, expect WPSIM_NEVER. */
void wpsim_race_init(struct wpsim_race *race, const char *name);
/* Add a task; 0, or -E2BIG past WPSIM_RACE_TASKS_MAX. */
int wpsim_race_task(struct wpsim_race *race, const char *name,
		    sim_task_fn fn, void *arg);
/*
 * Set a variant as `wpsim --variant` does ("dontcache=v11",
 * "break=truncate_no_wait", the aliases "dontcache=6.18" ...; a break=
 * value adds to the others).  0, or -EINVAL with the known keys or
 * values printed on stderr.
 */
int wpsim_race_variant(struct wpsim_race *race, const char *key_value);

/* Explore; print the report on @out (NULL: nothing); fill @result. */
enum wpsim_verdict wpsim_race_run(struct wpsim_race *race, FILE *out,
				  struct wpsim_race_result *result);
/* Run with the report on stderr; true when the verdict is PASS. */
bool wpsim_race_check(struct wpsim_race *race);
/* The same, naming the test in the replay line (--filter SUITE/TEST). */
bool wpsim_race_check_named(struct wpsim_race *race, const char *suite,
			    const char *test);

/*
 * KTAP: run @races in order and print a KTAP version 1 document on @out
 * (the plan, one result line per race, each report as "# " lines).
 * Returns the number of races that did not pass.
 */
int wpsim_ktap_run(FILE *out, const char *suite,
		   struct wpsim_race *const *races, size_t nr_races);

/*
 * The race as an engine program: its setup builds the world, calls
 * race->setup and spawns the tasks; its final runs the world checks,
 * race->final and the property.  For tests that drive the engine
 * themselves: a forced schedule through sim_replay(), a read of the event
 * log, sim_explore() with options of their own.  @race must outlive @p.
 */
void wpsim_race_program(struct wpsim_race *race, struct sim_program *p);
/*
 * The engine's own exploration of @race, for tests that read its result
 * themselves (counts, the first failure, its schedule): DPOR within
 * race->preemptions, at most race->executions_max executions (0: no cap),
 * race->steps_max, stopping at the first failure; no verdict, no report.
 * 0, or -1 when DPOR cannot start (@res is then empty).  The caller
 * calls sim_explore_result_fini(@res).
 */
int wpsim_race_explore(struct wpsim_race *race,
		       struct sim_explore_result *res);
/* One execution of @race under @schedule ("-": each task runs until it
 * waits, device completions when all wait), its outcome in @o. */
void wpsim_race_replay(struct wpsim_race *race, const char *schedule,
		       struct sim_outcome *o);

/* ---- inside an execution ---------------------------------------------- */

/* The file named @name in the current execution's world, or NULL. */
struct km_file *wpsim_file(const char *name);
/* Register @k of the running task, read by the property (reset to 0
 * at the start of every execution).  Task-local: no scheduling point. */
void wpsim_reg_set(unsigned int k, int64_t value);
int64_t wpsim_reg(unsigned int task, unsigned int k);
/* The race being explored (in tasks, setup and the property). */
struct wpsim_race *wpsim_race_current(void);

/*
 * The end-of-execution world checks a race runs (call them from an own
 * sim_program's final): the counters equal the folio state
 * (m_world_quiescent_check), and no clean folio holds data the disk
 * lacks.  Fail the execution with sim_fail().
 */
void wpsim_world_end_checks(bool quiescent, bool lost_data);

/* Ready-made tasks on the first file: one flusher pass (SYNC_NONE or
 * SYNC_ALL, the return value in register 0). */
void wpsim_task_writeback(void *arg);
void wpsim_task_writeback_sync(void *arg);

/* ---- versions ---------------------------------------------------------- */

/* "0.2.0", and the model's hash that `wpsim --version` prints. */
const char *wpsim_version(void);
const char *wpsim_model_hash(void);

/* ---- Criterion --------------------------------------------------------- */

/*
 * Inside a Criterion Test(): explore @race and fail the test unless the
 * verdict is PASS (the report is on stderr).  Include
 * <criterion/criterion.h> first.
 */
#define WPSIM_ASSERT_RACE(race)						\
	cr_assert(wpsim_race_check_named((race),			\
					 criterion_current_test->category, \
					 criterion_current_test->name),	\
		  "race %s: expectation not met (report above)",	\
		  (race)->name)

/*
 * Inside a Criterion Test(): run @race once with the default schedule
 * (each task runs until it waits; device completions when every task
 * waits) and fail the test unless that execution, its end-of-execution
 * checks included, passed.
 */
#define WPSIM_ASSERT_RUN_ONCE(race)					\
	do {								\
		struct sim_outcome o_;					\
									\
		wpsim_race_replay((race), "-", &o_);			\
		cr_assert_eq(o_.kind, SIM_OK, "race %s: %s: %s",	\
			     (race)->name,				\
			     sim_failure_kind_name(o_.kind),		\
			     o_.message);				\
	} while (0)

#endif /* WPSIM_HARNESS_H */
