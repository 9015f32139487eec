// SPDX-License-Identifier: MIT
/*
 * bench/calibrate-cpu.c - measure, on this machine, the CPU figures the
 * timed mode's cost table stands for (profiles/cpu/default.cpu):
 *
 *   syscall      a null syscall (getpid through syscall(2)), entry + exit
 *   rmw          an uncontended atomic fetch-add
 *   copy hot     memcpy of 4 KiB between two cached buffers
 *   copy dram    memcpy of 4 KiB through 256 MiB (past every cache)
 *   zero hot     memset of a cached 4 KiB page
 *   zero dram    memset of 4 KiB through 256 MiB
 *   handoff      one futex hand-off between two threads pinned to one
 *                CPU: the waker's FUTEX_WAKE, its FUTEX_WAIT (block),
 *                the context switch and the other's return (resume)
 *
 * Models: nothing; it prints figures and never fails on them.  What it
 * leaves out: kernel-internal costs (folio allocation, xa_lock, irq
 * entry) that user space cannot time alone (docs/timed-mode.md gives
 * their sources).
 */

#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bench-common.h"

#define PAGE		4096
#define BIG_BYTES	(256u << 20)
#define ROUNDS		200000
#define HANDOFFS	100000

static volatile uint64_t sink;

static double per_op(uint64_t t0, uint64_t n)
{
	return (double)(bench_now_ns() - t0) / (double)n;
}

static double measure_syscall(void)
{
	uint64_t t0 = bench_now_ns();

	for (int i = 0; i < ROUNDS; i++)
		sink += (uint64_t)syscall(SYS_getpid);
	return per_op(t0, ROUNDS);
}

static double measure_rmw(void)
{
	static uint64_t word;
	uint64_t t0 = bench_now_ns();

	for (int i = 0; i < ROUNDS * 10; i++)
		__atomic_fetch_add(&word, 1, __ATOMIC_SEQ_CST);
	sink += word;
	return per_op(t0, ROUNDS * 10);
}

static double measure_copy(char *big, bool dram, bool zero)
{
	static char src[PAGE] __attribute__((aligned(64)));
	static char dst[PAGE] __attribute__((aligned(64)));
	uint64_t pages = BIG_BYTES / PAGE, t0;

	memset(src, 1, sizeof(src));
	t0 = bench_now_ns();
	for (uint64_t i = 0; i < ROUNDS; i++) {
		char *to = dram ? big + (i % pages) * PAGE : dst;

		if (zero)
			memset(to, 0, PAGE);
		else
			memcpy(to, src, PAGE);
		__asm__ volatile("" : : "r"(to) : "memory");
	}
	return per_op(t0, ROUNDS);
}

static int futex_word;

static void futex_call(int op, int val)
{
	syscall(SYS_futex, &futex_word, op, val, NULL, NULL, 0);
}

static void pin_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* The two threads alternate: each waits for its turn, then passes it. */
static void *pingpong(void *arg)
{
	int me = (int)(intptr_t)arg;

	pin_cpu0();
	for (int i = 0; i < HANDOFFS; i++) {
		while (__atomic_load_n(&futex_word, __ATOMIC_ACQUIRE) != me)
			futex_call(FUTEX_WAIT_PRIVATE, 1 - me);
		__atomic_store_n(&futex_word, 1 - me, __ATOMIC_RELEASE);
		futex_call(FUTEX_WAKE_PRIVATE, 1);
	}
	return NULL;
}

static double measure_handoff(void)
{
	pthread_t a, b;
	uint64_t t0 = bench_now_ns();

	pthread_create(&a, NULL, pingpong, (void *)(intptr_t)0);
	pthread_create(&b, NULL, pingpong, (void *)(intptr_t)1);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return per_op(t0, 2 * HANDOFFS);
}

int main(void)
{
	char *big = malloc(BIG_BYTES);

	if (!big)
		return 1;
	memset(big, 0, BIG_BYTES);
	bench_print_machine();
	printf("calibrate-cpu: ns per operation (take the median of a few "
	       "runs; the machine is shared)\n");
	printf("  syscall (getpid)     %8.1f\n", measure_syscall());
	printf("  atomic fetch-add     %8.1f\n", measure_rmw());
	printf("  memcpy 4 KiB hot     %8.1f\n", measure_copy(big, false,
							     false));
	printf("  memcpy 4 KiB dram    %8.1f\n", measure_copy(big, true,
							     false));
	printf("  memset 4 KiB hot     %8.1f\n", measure_copy(big, false,
							     true));
	printf("  memset 4 KiB dram    %8.1f\n", measure_copy(big, true,
							     true));
	printf("  futex hand-off, 1 CPU%8.1f\n", measure_handoff());
	free(big);
	return 0;
}
