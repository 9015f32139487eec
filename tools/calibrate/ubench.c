// SPDX-License-Identifier: MIT
/*
 * tools/calibrate/ubench.c - the CPU microbenchmarks of `make calibrate`
 * (tools/calibrate/calibrate.py), made for a shared machine: each figure
 * is the fastest of BATCHES batches (the mean per operation within a
 * batch of about 50 us), so a batch in which the task was preempted or
 * its CPU was taken by another guest's work does not count.  Prints one
 * line per figure, "name ns-per-op":
 *
 *   syscall     getppid(2) through syscall(2): entry and exit
 *   copy_hot    memcpy of 4 KiB between two cached buffers
 *   copy_dram   memcpy of 4 KiB into a 256 MiB buffer, page after page
 *   zero_dram   memset of 4 KiB through the 256 MiB buffer
 *
 * Models nothing; never fails on a figure.  Leaves out what user space
 * cannot time alone (folio allocation, interrupts: calibrate.py measures
 * those through fio).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define PAGE		4096
#define BIG_BYTES	(256u << 20)
#define BATCHES		400

static volatile uint64_t sink;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

enum op { OP_SYSCALL, OP_COPY_HOT, OP_COPY_DRAM, OP_ZERO_DRAM };

static double best(enum op op, int per_batch, char *big)
{
	static char src[PAGE] __attribute__((aligned(64)));
	static char dst[PAGE] __attribute__((aligned(64)));
	uint64_t pages = BIG_BYTES / PAGE, at = 0;
	double min = 1e18;

	memset(src, 1, sizeof(src));
	for (int b = 0; b < BATCHES; b++) {
		uint64_t t0 = now_ns(), dt;

		for (int i = 0; i < per_batch; i++) {
			char *to = big + (at++ % pages) * PAGE;

			switch (op) {
			case OP_SYSCALL:
				sink += (uint64_t)syscall(SYS_getppid);
				break;
			case OP_COPY_HOT:
				memcpy(dst, src, PAGE);
				__asm__ volatile("" : : "r"(dst) : "memory");
				break;
			case OP_COPY_DRAM:
				memcpy(to, src, PAGE);
				__asm__ volatile("" : : "r"(to) : "memory");
				break;
			case OP_ZERO_DRAM:
				memset(to, 0, PAGE);
				__asm__ volatile("" : : "r"(to) : "memory");
				break;
			}
		}
		dt = now_ns() - t0;
		if ((double)dt / per_batch < min)
			min = (double)dt / per_batch;
	}
	return min;
}

int main(void)
{
	char *big = malloc(BIG_BYTES);

	if (!big)
		return 1;
	memset(big, 1, BIG_BYTES);	/* fault every page in (0 may become calloc) */
	printf("syscall %.1f\n", best(OP_SYSCALL, 100, big));
	printf("copy_hot %.1f\n", best(OP_COPY_HOT, 500, big));
	printf("copy_dram %.1f\n", best(OP_COPY_DRAM, 50, big));
	printf("zero_dram %.1f\n", best(OP_ZERO_DRAM, 50, big));
	free(big);
	return 0;
}
