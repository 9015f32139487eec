// SPDX-License-Identifier: MIT
/*
 * bench/bench-sashiko.c - the abstract sashiko race (issue 16) as an
 * engine program: NF folios, for each a PTE zapper and a dropbehind
 * marker, every folio's accounting under one shared xa_lock.  DPOR's
 * executions, redundant executions and seconds for NF = 3..8 under the
 * v11 and the v12 rule of folio_mark_dropbehind, without (the baseline,
 * in the same run) and with the lock-aware reduction.  Never fails on timing;
 * a run that reaches its time budget (WPSIM_BENCH_SECONDS, default 20)
 * says "stopped", not a count.  WPSIM_BENCH_NF_MIN and _MAX narrow the
 * series.
 *
 * Models, abstractly (docs/algorithms/dontcache.md, "The race sashiko
 * found"; scenarios/dontcache/sashiko-double-count.litmus has the model's
 * version): folio f starts in the state of step 4 of that scenario:
 * mapped, PG_dirty clear, its xarray DIRTY mark kept by writeback, and a
 * dirty PTE.  Zapper Z_f, under the folio's PTE lock: takes the PTE's
 * dirt (xchg), sets PG_dirty and, if it was clear, accounts the folio
 * under xa_lock (WB_DONTCACHE_DIRTY += 1 if the folio is dropbehind, and
 * the DIRTY mark); then removes the rmap (mapped = 0).  Marker M_f
 * (folio_mark_dropbehind), under xa_lock: v12 leaves a mapped folio
 * alone; otherwise it sets PG_dropbehind and, for a folio dirty and
 * marked (so counted as dirty already), moves it into the counter.  The
 * final property: the counter equals the dirty dropbehind folios.  v11
 * counts a folio twice when M runs between Z's PG_dirty and Z's
 * accounting; v12 never does.
 *
 * Leaves out: everything else of the write path (the page cache, the
 * flusher, the end of writeback).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench-common.h"
#include "sim/arena.h"
#include "sim/explore.h"
#include "sim/shared.h"

#define NF_MAX		8
#define PG_DIRTY	0
#define PG_DROPBEHIND	1
#define MARK_DIRTY	0

struct sashiko_config {
	int folios;
	bool v12;
};

struct sashiko {
	struct sim_spinlock xa_lock;
	struct sim_word counter;		/* WB_DONTCACHE_DIRTY */
	struct sim_spinlock ptl[NF_MAX];
	struct sim_word pte[NF_MAX];		/* 1: dirty PTE */
	struct sim_word flags[NF_MAX];		/* PG_dirty, PG_dropbehind */
	struct sim_word marks[NF_MAX];		/* xarray DIRTY mark */
	struct sim_word mapped[NF_MAX];
	const struct sashiko_config *cfg;
};

static struct sashiko *S;

static void zapper(void *arg)
{
	int f = (int)(intptr_t)arg;

	sim_spin_lock(&S->ptl[f]);
	if (sim_word_xchg(&S->pte[f], 0) &&
	    !sim_bit_test_and_set(&S->flags[f], PG_DIRTY)) {
		sim_spin_lock(&S->xa_lock);
		if (sim_bit_test(&S->flags[f], PG_DROPBEHIND))
			sim_word_add_nr(&S->counter, 1);
		sim_bit_set(&S->marks[f], MARK_DIRTY);
		sim_spin_unlock(&S->xa_lock);
	}
	sim_word_write(&S->mapped[f], 0);
	sim_spin_unlock(&S->ptl[f]);
}

static void marker(void *arg)
{
	int f = (int)(intptr_t)arg;

	sim_spin_lock(&S->xa_lock);
	if (!S->cfg->v12 || !sim_word_read(&S->mapped[f])) {
		sim_bit_set(&S->flags[f], PG_DROPBEHIND);
		if (sim_bit_test(&S->flags[f], PG_DIRTY) &&
		    sim_bit_test(&S->marks[f], MARK_DIRTY))
			sim_word_add_nr(&S->counter, 1);
	}
	sim_spin_unlock(&S->xa_lock);
}

static void sashiko_setup(void *config)
{
	const struct sashiko_config *cfg = config;

	S = sim_arena_alloc(sizeof(*S));
	S->cfg = cfg;
	sim_spin_init(&S->xa_lock, "xa_lock");
	sim_word_init(&S->counter, 0, "WB_DONTCACHE_DIRTY");
	for (int f = 0; f < cfg->folios; f++) {
		sim_spin_init(&S->ptl[f], "ptl[%d]", f);
		sim_word_init(&S->pte[f], 1, "pte[%d]", f);
		sim_word_init(&S->flags[f], 0, "folio[%d].flags", f);
		sim_word_init(&S->marks[f], 1, "folio[%d].marks", f);
		sim_word_init(&S->mapped[f], 1, "folio[%d].mapped", f);
	}
	for (int f = 0; f < cfg->folios; f++) {
		sim_task_spawn("Z", zapper, (void *)(intptr_t)f);
		sim_task_spawn("M", marker, (void *)(intptr_t)f);
	}
}

static void sashiko_final(void *config)
{
	const struct sashiko_config *cfg = config;
	uint64_t want = 0;

	for (int f = 0; f < cfg->folios; f++) {
		uint64_t flags = sim_word_peek(&S->flags[f]);

		want += (flags >> PG_DIRTY & 1) && (flags >> PG_DROPBEHIND & 1);
	}
	if (sim_word_peek(&S->counter) != want)
		sim_fail(SIM_FAIL_PROPERTY, "WB_DONTCACHE_DIRTY %" PRIu64
			 ", %" PRIu64 " dirty dropbehind folios",
			 sim_word_peek(&S->counter), want);
}

static uint64_t deadline_ns;

static bool out_of_time(void *ctx)
{
	(void)ctx;
	return bench_now_ns() > deadline_ns;
}

/* One DPOR run, with or without the lock-aware reduction. */
static void measure(int nf, bool v12, bool aware, double budget)
{
	struct sashiko_config cfg = { nf, v12 };
	struct sim_program p = {
		.name = "sashiko", .setup = sashiko_setup,
		.final = sashiko_final, .config = &cfg,
	};
	struct sim_explore_options opt = { .stop = out_of_time };
	struct sim_explore_result res;
	struct sim_strategy s;
	uint64_t t0 = bench_now_ns();
	double secs;

	deadline_ns = t0 + (uint64_t)(budget * 1e9);
	sim_strategy_dpor(&s);
	sim_dpor_set_lock_aware(&s, aware);
	sim_explore(&p, &s, &opt, &res);
	secs = (double)(bench_now_ns() - t0) / 1e9;
	printf("  %s NF=%d %-10s %10" PRIu64 " executions (+%" PRIu64
	       " redundant), %" PRIu64 " failing, %8.3f s%s\n",
	       v12 ? "v12" : "v11", nf, aware ? "lock-aware" : "plain",
	       res.executions, res.pruned, res.failures, secs,
	       res.complete ? ", exhaustive" : ", stopped (time budget)");
	sim_explore_result_fini(&res);
	sim_strategy_fini(&s);
	fflush(stdout);
}

int main(void)
{
	const char *env = getenv("WPSIM_BENCH_SECONDS");
	double budget = env ? strtod(env, NULL) : 20;
	const char *max_env = getenv("WPSIM_BENCH_NF_MAX");
	int nf_max = max_env ? atoi(max_env) : NF_MAX;
	const char *min_env = getenv("WPSIM_BENCH_NF_MIN");
	int nf_min = min_env ? atoi(min_env) : 3;

	bench_print_machine();
	printf("bench-sashiko: DPOR without and with the lock-aware reduction, "
	       "each run stopped after %.0f s\n", budget);
	for (int rule = 0; rule < 2; rule++) {
		for (int nf = nf_min; nf <= nf_max && nf <= NF_MAX; nf++) {
			for (int aware = 0; aware < 2; aware++)
				measure(nf, rule == 1, aware == 1, budget);
		}
	}
	return 0;
}
