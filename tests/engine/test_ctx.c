// SPDX-License-Identifier: MIT
/*
 * tests/engine/test_ctx.c - the context switch and stacks.
 */
#include <criterion/criterion.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>

#include "sim/ctx.h"

static struct sim_ctx main_ctx, co_ctx;
static int trace[8];
static int trace_len;

static void co_entry(void)
{
	/* Callee-saved state must survive the switches on both sides. */
	volatile double x = 1.5;

	for (int i = 0; i < 3; i++) {
		trace[trace_len++] = 10 + i;
		sim_ctx_switch(&co_ctx, &main_ctx);
		x *= 2.0;
	}
	trace[trace_len++] = (int)x;	/* 1.5 * 8 = 12 */
	sim_ctx_switch(&co_ctx, &main_ctx);
	for (;;)
		sim_ctx_switch(&co_ctx, &main_ctx);
}

Test(ctx, switches_alternate_and_keep_registers)
{
	struct sim_stack stack;
	long kept = 12345;

	cr_assert_eq(sim_stack_map(&stack, 32 * 1024), 0);
	sim_ctx_make(&co_ctx, &stack, co_entry);
	for (int i = 0; i < 4; i++) {
		trace[trace_len++] = i;
		sim_ctx_switch(&main_ctx, &co_ctx);
	}
	int want[] = { 0, 10, 1, 11, 2, 12, 3, 12 };

	cr_assert_eq(trace_len, 8);
	for (int i = 0; i < 8; i++)
		cr_assert_eq(trace[i], want[i], "trace[%d] = %d, want %d", i,
			     trace[i], want[i]);
	cr_assert_eq(kept, 12345);
	sim_stack_unmap(&stack);
}

static struct sim_stack guard_stack;

static void overflow_entry(void)
{
	/* Write just below the usable stack: into the guard page. */
	volatile char *below = (char *)guard_stack.base - 1;

	*below = 1;
	sim_ctx_switch(&co_ctx, &main_ctx);
}

Test(ctx, guard_page_catches_overflow, .signal = SIGSEGV)
{
	cr_assert_eq(sim_stack_map(&guard_stack, 16 * 1024), 0);
	sim_ctx_make(&co_ctx, &guard_stack, overflow_entry);
	sim_ctx_switch(&main_ctx, &co_ctx);
}

Test(ctx, kind_is_named)
{
	const char *kind = sim_ctx_kind();

	cr_assert(strcmp(kind, "x86_64-asm") == 0 ||
		  strcmp(kind, "aarch64-asm") == 0 ||
		  strcmp(kind, "ucontext") == 0, "kind %s", kind);
}
