// SPDX-License-Identifier: MIT
/*
 * bench/bench-device.c - device commands per host second (model/hw/nvme.c).
 *
 * For every profile in profiles/devices: a closed loop of 4 KiB random
 * writes at QD 32 (each resubmitted at its completion, as in
 * tests/model/hw/test_nvme.c) and one of 4 KiB random reads, COMMANDS
 * each; the best of RUNS.  The baseline is the same loop around a
 * constant-latency stand-in, measured in the same run, so the ratio is
 * the device model's own cost.  Never fails on timing.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench-common.h"
#include "model/hw/nvme.h"
#include "tools/profiles.h"

#ifndef WPSIM_SOURCE_DIR
#define WPSIM_SOURCE_DIR "."
#endif

#define COMMANDS	2000000
#define RUNS		3
#define QD		32

static const char *const names[] = {
	"consumer-vwc", "enterprise-plp", "seed002-disk", "virtio-vm",
};

struct heap {
	uint64_t v[QD];
	unsigned int nr;
};

static void push(struct heap *h, uint64_t x)
{
	unsigned int i = h->nr++;

	while (i && h->v[(i - 1) / 2] > x) {
		h->v[i] = h->v[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->v[i] = x;
}

static uint64_t pop(struct heap *h)
{
	uint64_t top = h->v[0], x = h->v[--h->nr];
	unsigned int i = 0;

	for (;;) {
		unsigned int c = 2 * i + 1;

		if (c >= h->nr)
			break;
		if (c + 1 < h->nr && h->v[c + 1] < h->v[c])
			c++;
		if (x <= h->v[c])
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	if (h->nr)
		h->v[i] = x;
	return top;
}

static uint64_t rng(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Host ns per command; @dev NULL = the constant-latency stand-in. */
static double run(struct hw_nvme *dev, enum hw_nvme_op op, uint64_t blocks,
		  uint64_t *virtual_ns)
{
	struct heap h = { .nr = 0 };
	uint64_t seed = 1, t0, t = 0;

	t0 = bench_now_ns();
	for (int i = 0; i < QD + COMMANDS; i++) {
		struct hw_nvme_cmd c = { .op = op, .bytes = 4096,
					 .lba = rng(&seed) % blocks * 8 };
		uint64_t done;

		if (i >= QD)
			t = pop(&h);
		if (!dev)
			done = t + 10000 + (c.lba & 1023);
		else if (hw_nvme_submit(dev, &c, t, &done))
			abort();
		push(&h, done);
	}
	*virtual_ns = t;
	return (double)(bench_now_ns() - t0) / (QD + COMMANDS);
}

int main(void)
{
	uint64_t vt;
	double base = 1e30;

	bench_print_machine();
	printf("device: %d commands per run at QD %d, best of %d\n", COMMANDS,
	       QD, RUNS);
	for (int r = 0; r < RUNS; r++) {
		double ns = run(NULL, HW_NVME_WRITE, 1 << 20, &vt);

		base = ns < base ? ns : base;
	}
	printf("%-16s %-6s %8.1f ns/command %12.0f commands/s (baseline: "
	       "the loop around a constant latency)\n", "baseline", "-", base,
	       1e9 / base);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct hw_nvme_profile p;
		char err[1024];

		if (wpsim_device_profile_find(WPSIM_SOURCE_DIR "/profiles/devices",
					 names[i], &p, err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			return 1;
		}
		for (int w = 0; w < 2; w++) {
			enum hw_nvme_op op = w ? HW_NVME_READ : HW_NVME_WRITE;
			double best = 1e30;

			for (int r = 0; r < RUNS; r++) {
				struct hw_nvme dev;
				void *mem = malloc(hw_nvme_mem_size(&p));
				double ns;

				if (!mem || hw_nvme_init(&dev, &p, 1, mem))
					return 1;
				ns = run(&dev, op, p.capacity_bytes / 4096,
					 &vt);
				best = ns < best ? ns : best;
				free(mem);
			}
			printf("%-16s %-6s %8.1f ns/command %12.0f commands/s "
			       "(%.1fx the baseline; %.3f s simulated)\n",
			       p.name, w ? "read" : "write", best, 1e9 / best,
			       best / base, (double)vt / 1e9);
		}
	}
	return 0;
}
