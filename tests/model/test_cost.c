// SPDX-License-Identifier: MIT
/*
 * tests/model/test_cost.c - the model's cost table and CPU profiles
 * (model/cost.c, tools/profiles.c): profiles/cpu/default.cpu is the
 * compiled-in table, a bad profile says file:line:col and changes
 * nothing, a partial one keeps the other figures, a written one reads
 * back, and a named charge costs the figure of the table in force.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/cost.h"
#include "sim/engine.h"
#include "sim/explore.h"
#include "sim/strategy.h"
#include "tools/profiles.h"

#ifndef WPSIM_SOURCE_DIR
#define WPSIM_SOURCE_DIR "."
#endif

Test(profile, default_file_is_the_compiled_in_table)
{
	struct m_cost_profile c;
	char path[512];

	memset(&c, 0xff, sizeof(c));
	snprintf(path, sizeof(path), "%s/profiles/cpu/default.cpu",
		 WPSIM_SOURCE_DIR);
	cr_assert_eq(wpsim_cpu_profile_load(path, &c, stderr), 0);
	cr_assert(memcmp(&c.clock, &m_cost_default.clock,
			 sizeof(c.clock)) == 0,
		  "profiles/cpu/default.cpu differs from m_cost_default.clock");
	cr_assert(memcmp(&c.model, &m_cost_default.model,
			 sizeof(c.model)) == 0,
		  "profiles/cpu/default.cpu differs from m_cost_default.model");
	/* The engine's own defaults are the machine part of the same file. */
	cr_assert(memcmp(&c.clock, &sim_cpu_costs_default,
			 sizeof(c.clock)) == 0,
		  "profiles/cpu/default.cpu differs from sim_cpu_costs_default");
}

static void expect_error(const char *text, const char *want)
{
	struct m_cost_profile c = m_cost_default;
	char *msg = NULL;
	size_t len = 0;
	FILE *err = open_memstream(&msg, &len);

	cr_assert_eq(m_cost_profile_parse("x.cpu", text, &c, err), -EINVAL);
	fclose(err);
	cr_assert(strstr(msg, want), "got: %s, want: %s", msg, want);
	cr_assert(memcmp(&c, &m_cost_default, sizeof(c)) == 0,
		  "a bad profile changed the table");
	free(msg);
}

Test(profile, bad_files_say_file_line_col)
{
	expect_error("read_ns = 1\nsyscal_ns = 200\n",
		     "x.cpu:2:1: error: expected a cost name (see "
		     "profiles/cpu/default.cpu), found 'syscal_ns'");
	expect_error("# c\n  syscall_ns 200\n",
		     "x.cpu:2:14: error: expected '=', found '200'");
	expect_error("syscall_ns = fast\n",
		     "x.cpu:1:14: error: expected a whole number of ns, "
		     "found 'fast'");
	expect_error("syscall_ns = 200 ns\n",
		     "x.cpu:1:18: error: expected end of line or a '#' "
		     "comment, found 'ns'");
	expect_error("syscall_ns = 1\nsyscall_ns = 2\n",
		     "x.cpu:2:1: error: expected each cost once, found "
		     "'syscall_ns' again");
	expect_error("syscall_ns =\n",
		     "x.cpu:1:13: error: expected a whole number of ns, "
		     "found end of line");
	expect_error("irq_ns = 99999999999999\n",
		     "x.cpu:1:10: error: expected at most 1000000000000 ns, "
		     "found '99999999999999'");
	/* A mode, not a time (session 25). */
	expect_error("wake_preempt_mode = 2\n",
		     "x.cpu:1:21: error: expected 0 (full: at the next point) "
		     "or 1 (none: at a marked point), found '2'");
}

Test(profile, wake_preempt_mode_reads_0_and_1)
{
	struct m_cost_profile c = m_cost_default;

	cr_assert_eq(c.clock.wake_preempt_mode, SIM_WAKE_PREEMPT_FULL);
	cr_assert_eq(m_cost_profile_parse("x.cpu", "wake_preempt_mode = 1\n",
					  &c, stderr), 0);
	cr_assert_eq(c.clock.wake_preempt_mode, SIM_WAKE_PREEMPT_NONE);
}

Test(profile, a_partial_profile_keeps_the_other_figures)
{
	struct m_cost_profile c = m_cost_default;

	cr_assert_eq(m_cost_profile_parse("x.cpu", "syscall_ns = 450  # AMD\n"
					  "rmw_ns = 19\n# nothing else\n", &c,
					  stderr), 0);
	cr_assert_eq(c.model.syscall_ns, 450);
	cr_assert_eq(c.clock.rmw_ns, 19);
	cr_assert_eq(c.clock.read_ns, m_cost_default.clock.read_ns);
	cr_assert_eq(c.model.bio_submit_ns,
		     m_cost_default.model.bio_submit_ns);
}

Test(profile, a_written_profile_reads_back)
{
	struct m_cost_profile c = m_cost_default, back;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	c.clock.switch_ns = 7;
	c.model.delalloc_reserve_ns = 11;
	m_cost_profile_write(out, &c);
	fclose(out);
	memset(&back, 0, sizeof(back));
	cr_assert_eq(m_cost_profile_parse("w.cpu", text, &back, stderr), 0);
	cr_assert(memcmp(&back, &c, sizeof(c)) == 0);
	free(text);
}

/* ---- charges ------------------------------------------------------------- */

static uint64_t g_spent;

static void charger(void *arg)
{
	uint64_t t0 = sim_now();

	(void)arg;
	m_cost_syscall();
	m_cost_bio_submit();
	g_spent = sim_now() - t0;
}

static void charger_setup(void *arg)
{
	(void)arg;
	sim_task_spawn("c", charger, NULL);
}

/*
 * A task charges a syscall and a bio submission: its clock moves by the
 * two figures of the table m_cost_configure set, and back to the
 * defaults once they are configured again.
 */
Test(charge, a_named_charge_costs_the_figure_in_force)
{
	struct sim_program p = { .name = "t/charge", .setup = charger_setup };
	struct sim_explore_options opt = { .executions_max = 1 };
	struct sim_explore_result res;
	struct m_cost_table t = m_cost_default.model;
	struct sim_strategy s;

	t.syscall_ns = 1000;
	t.bio_submit_ns = 20;
	m_cost_configure(&t);
	sim_strategy_dfs(&s, -1);
	sim_explore(&p, &s, &opt, &res);
	cr_assert_eq(res.failures, 0);
	cr_assert_eq(g_spent, 1020);
	sim_explore_result_fini(&res);
	m_cost_configure(&m_cost_default.model);
	sim_explore(&p, &s, &opt, &res);
	cr_assert_eq(g_spent, m_cost_default.model.syscall_ns +
			      m_cost_default.model.bio_submit_ns);
	sim_explore_result_fini(&res);
	sim_strategy_fini(&s);
}
