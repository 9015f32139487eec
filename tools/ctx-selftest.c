// SPDX-License-Identifier: MIT
/*
 * tools/ctx-selftest.c - a stand-alone check of the context switch for
 * machines we cross-compile to (aarch64 under qemu-user, see
 * docs/HACKING.md).  Ping-pongs between two contexts, checks that
 * callee-saved integer and floating-point state survives, and times the
 * round trip.
 */
#include <stdio.h>
#include <time.h>

#include "sim/ctx.h"

static struct sim_ctx main_ctx, co_ctx;
static volatile long hits;

static void co_entry(void)
{
	volatile double f = 0.5;

	for (;;) {
		hits++;
		f = f * 1.0;
		if (f != 0.5)
			hits = -1000000;
		sim_ctx_switch(&co_ctx, &main_ctx);
	}
}

int main(void)
{
	struct sim_stack stack;
	struct timespec a, b;
	register long kept = 0x1234;
	double keep_fp = 3.25;
	long n = 1000000;

	if (sim_stack_map(&stack, 64 * 1024))
		return 2;
	sim_ctx_make(&co_ctx, &stack, co_entry);
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long i = 0; i < n; i++)
		sim_ctx_switch(&main_ctx, &co_ctx);
	clock_gettime(CLOCK_MONOTONIC, &b);
	if (hits != n || kept != 0x1234 || keep_fp != 3.25) {
		printf("ctx-selftest %s: FAIL (hits %ld)\n", sim_ctx_kind(),
		       (long)hits);
		return 1;
	}
	printf("ctx-selftest %s: ok, %.1f ns per round trip\n", sim_ctx_kind(),
	       ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / n);
	return 0;
}
