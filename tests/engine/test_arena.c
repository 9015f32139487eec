// SPDX-License-Identifier: MIT
/*
 * tests/engine/test_arena.c - the per-execution allocator: memory is
 * zeroed, aligned, and an execution's memory is gone when the next one
 * starts, so a long search holds a bounded amount.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>

#include "sim/arena.h"
#include "sim/explore.h"
#include "tools/programs/programs.h"

Test(arena, zeroed_and_aligned)
{
	for (int i = 1; i < 200; i++) {
		unsigned char *p = sim_arena_alloc((size_t)i * 37);

		cr_assert_eq((uintptr_t)p % 16, 0);
		for (int j = 0; j < i * 37; j++)
			cr_assert_eq(p[j], 0);
		p[0] = 0xff;
	}
	sim_arena_reset();
	cr_assert_eq(sim_arena_bytes_in_use(), 0);
}

Test(arena, reset_reuses_memory)
{
	void *first = sim_arena_alloc(64);

	sim_arena_reset();
	cr_assert_eq(sim_arena_alloc(64), first,
		     "the bump region must restart at its base");
}

/*
 * A block past SIM_ARENA_RECYCLE_MAX (up to 16 KiB) freed is handed out
 * again, zeroed, to the next block of its size (issue 28, session 21: a
 * writeback bio's 6 KiB bvec table per bio grew a long run's memory by
 * its bios), and a block of a smaller size in the same 1 KiB class gets
 * it too; so a million such blocks that come and go hold one.
 */
Test(arena, big_blocks_recycled)
{
	size_t sizes[] = { 4112, 6144, 8000, 16384 };

	for (unsigned int k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		size_t reserved;
		unsigned char *p = sim_arena_alloc(sizes[k]), *q;

		for (size_t j = 0; j < sizes[k]; j++)
			p[j] = 0xa5;
		sim_arena_free(p, sizes[k]);
		q = sim_arena_alloc(sizes[k]);
		cr_assert_eq(q, p, "a %zu-byte block freed is not reused",
			     sizes[k]);
		for (size_t j = 0; j < sizes[k]; j++)
			cr_assert_eq(q[j], 0, "byte %zu of a reused block", j);
		sim_arena_free(q, sizes[k]);
		/* The same 1 KiB class, 15 bytes less. */
		q = sim_arena_alloc(sizes[k] - 15);
		cr_assert_eq(q, p);
		sim_arena_free(q, sizes[k] - 15);
		reserved = sim_arena_bytes_reserved();
		for (int i = 0; i < 100000; i++)
			sim_arena_free(sim_arena_alloc(sizes[k]), sizes[k]);
		cr_assert_eq(sim_arena_bytes_reserved(), reserved);
		cr_assert_eq(sim_arena_bytes_in_use(), 0);
	}
	sim_arena_reset();
}

static void bounded_over_executions(enum sim_arena_backend backend)
{
	struct sim_explore_options opt = { .executions_max = 20000 };
	struct sim_explore_result res;
	struct sim_strategy s;
	size_t reserved_after_first;

	cr_assert(sim_arena_select(backend));
	sim_strategy_random(&s, 7, 1);
	sim_explore(&wpsim_bench_3x10, &s, &opt, &res);
	sim_explore_result_fini(&res);
	reserved_after_first = sim_arena_bytes_reserved();
	sim_strategy_random(&s, 7, 20000);
	sim_explore(&wpsim_bench_3x10, &s, &opt, &res);
	cr_assert_eq(res.executions, 20000);
	cr_assert_eq(res.failures, 0);
	cr_assert_leq(sim_arena_bytes_reserved(), reserved_after_first + 65536,
		      "%s arena grew from %zu to %zu bytes over 20000 "
		      "executions", sim_arena_backend_name(backend),
		      reserved_after_first, sim_arena_bytes_reserved());
	sim_explore_result_fini(&res);
	sim_arena_select(SIM_ARENA_BUMP);
}

Test(arena, bump_bounded_over_executions)
{
	bounded_over_executions(SIM_ARENA_BUMP);
}

Test(arena, jemalloc_bounded_over_executions)
{
	if (!sim_arena_select(SIM_ARENA_JEMALLOC))
		cr_skip_test("built without jemalloc");
	bounded_over_executions(SIM_ARENA_JEMALLOC);
}

/*
 * Deep tier only (WPSIM_ARENA_EXECUTIONS=1000000): a million executions
 * hold no more memory than the first.
 */
Test(arena, million_executions_hold_flat_memory)
{
	const char *env = getenv("WPSIM_ARENA_EXECUTIONS");
	uint64_t n = env ? strtoull(env, NULL, 10) : 0;
	struct sim_explore_options opt = { 0 };
	struct sim_explore_result res;
	struct sim_strategy s;
	size_t before;

	if (!n)
		cr_skip_test("deep tier: set WPSIM_ARENA_EXECUTIONS");
	sim_strategy_random(&s, 11, 1);
	sim_explore(&wpsim_bench_3x10, &s, &opt, &res);
	sim_explore_result_fini(&res);
	before = sim_arena_bytes_reserved();
	sim_strategy_random(&s, 11, n);
	sim_explore(&wpsim_bench_3x10, &s, &opt, &res);
	cr_assert_eq(res.executions, n);
	cr_assert_eq(sim_arena_bytes_reserved(), before);
	sim_explore_result_fini(&res);
}
