// SPDX-License-Identifier: MIT
/*
 * bench/bench-switch.c - round trip of the engine's context switch
 * against swapcontext(3), both measured in this run.
 *
 * A round trip is main -> coroutine -> main.  The best of five runs of
 * ROUND_TRIPS each is reported for both, then the ratio.
 */
#include <stdio.h>
#include <stdlib.h>
#include <ucontext.h>

#include "bench-common.h"
#include "sim/ctx.h"

#define ROUND_TRIPS	2000000
#define RUNS		5

static struct sim_ctx main_ctx, co_ctx;
static ucontext_t main_uc, co_uc;
static volatile uint64_t counter;

static void co_entry(void)
{
	for (;;) {
		counter++;
		sim_ctx_switch(&co_ctx, &main_ctx);
	}
}

static void uc_entry(void)
{
	for (;;) {
		counter++;
		swapcontext(&co_uc, &main_uc);
	}
}

static double run_ours(void)
{
	uint64_t t0 = bench_now_ns();

	for (int i = 0; i < ROUND_TRIPS; i++)
		sim_ctx_switch(&main_ctx, &co_ctx);
	return (double)(bench_now_ns() - t0) / ROUND_TRIPS;
}

static double run_ucontext(void)
{
	uint64_t t0 = bench_now_ns();

	for (int i = 0; i < ROUND_TRIPS; i++)
		swapcontext(&main_uc, &co_uc);
	return (double)(bench_now_ns() - t0) / ROUND_TRIPS;
}

int main(void)
{
	struct sim_stack s1, s2;
	volatile double ours = 1e30, theirs = 1e30;

	if (sim_stack_map(&s1, 64 * 1024) || sim_stack_map(&s2, 64 * 1024)) {
		fprintf(stderr, "bench-switch: cannot map stacks\n");
		return 2;
	}
	sim_ctx_make(&co_ctx, &s1, co_entry);
	getcontext(&co_uc);
	co_uc.uc_stack.ss_sp = s2.base;
	co_uc.uc_stack.ss_size = s2.size_bytes;
	co_uc.uc_link = NULL;
	makecontext(&co_uc, uc_entry, 0);

	for (int r = 0; r < RUNS; r++) {
		double a = run_ours(), b = run_ucontext();

		if (a < ours)
			ours = a;
		if (b < theirs)
			theirs = b;
	}
	bench_print_machine();
	printf("bench-switch: %d round trips, best of %d runs\n",
	       ROUND_TRIPS, RUNS);
	printf("  wpsim %-12s %8.1f ns per round trip\n", sim_ctx_kind(),
	       ours);
	printf("  swapcontext        %8.1f ns per round trip\n", theirs);
	printf("  ratio              %8.1fx faster\n", theirs / ours);
	return 0;
}
