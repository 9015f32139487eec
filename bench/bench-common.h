/* SPDX-License-Identifier: MIT */
/* Shared helpers of the benchmarks: a monotonic clock and machine facts. */
#ifndef WPSIM_BENCH_COMMON_H
#define WPSIM_BENCH_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

static inline uint64_t bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static inline void bench_print_machine(void)
{
	struct utsname u;
	char model[256] = "unknown";
	FILE *f = fopen("/proc/cpuinfo", "r");

	if (f) {
		char line[512];

		while (fgets(line, sizeof(line), f)) {
			if (strncmp(line, "model name", 10) == 0) {
				char *colon = strchr(line, ':');

				if (colon) {
					snprintf(model, sizeof(model), "%s",
						 colon + 2);
					model[strcspn(model, "\n")] = '\0';
				}
				break;
			}
		}
		fclose(f);
	}
	uname(&u);
	printf("machine: %s, %s %s, cpu: %s\n", u.machine, u.sysname,
	       u.release, model);
}

#endif
