/* SPDX-License-Identifier: MIT */
/*
 * tools/wpsim/check.h - what the three parts of `wpsim check` share
 * (internal to tools/wpsim): check.c explores a scenario x variant pair
 * and decides its verdict, report.c writes the reports (text, JSON,
 * TAP/KTAP, the summary line), split.c spreads one pair's search over
 * worker processes or MPI ranks (--jobs; docs/architecture.md,
 * "Splitting one exploration") with its wire format.
 */
#ifndef WPSIM_TOOLS_WPSIM_CHECK_H
#define WPSIM_TOOLS_WPSIM_CHECK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "tools/wpsim/scenario.h"
#include "tools/wpsim/search.h"
#include "tools/wpsim/signals.h"

#define STATE_BYTES		16384
#define STATES_KEPT_MAX		4096
#define REPORT_TAIL_STEPS	16
#define STOP_CHILDREN_MAX	WPSIM_STOP_CHILDREN_MAX
#define REASON_BYTES		192
struct state_count {
	char *state;
	uint64_t count;
	bool holds;
};

struct witness {
	struct sim_witness w;
	char state[STATE_BYTES];
	bool holds;
};

/* What one exploration collects, execution by execution. */
struct collect {
	struct wpsim_exec x;
	const struct sim_strategy *strategy;
	uint64_t positive, negative;
	struct state_count *states;
	size_t states_count;
	uint64_t states_other;
	struct witness witness;		/* the interesting execution */
	struct witness unexpected;	/* first unmentioned outcome */
	uint64_t unexpected_count;
	uint64_t by_atom[3];
	uint64_t eval_failed;
	char eval_message[LITMUS_MESSAGE_MAX + 128];
	uint64_t index;
	uint64_t failing;	/* executions that ended in a failure */
	/* The pair expects Sometimes: stop once both kinds were seen. */
	bool stop_when_decided;
};

/* One scenario under one variant. */
struct pair {
	struct wpsim_scenario *sc;
	struct wpsim_variant variant;
	const struct litmus_expect *expect;
	/* Its place: in the run, its scenario's among the scenarios, its
	 * own among that scenario's pairs (KTAP nests them). */
	size_t index, scenario_index, sub_index, subs;
};

/* --jobs split the pair's search (run_split): into how many items. */
struct split_info {
	uint32_t items, levels;
	uint64_t top_pruned;
	size_t units;		/* items, with the ones given away */
};

struct verdict {
	struct sim_explore_result res;
	enum litmus_observation obs;
	bool ok;
	bool replayed, replay_same;
	char replay_state[STATE_BYTES];
	uint64_t replay_hash;
	int64_t bound;			/* preemption bound of the run, -1 */
	/* --estimate, --compare-dfs, --shrink, --iterative */
	struct wpsim_estimate estimate;
	struct wpsim_compare dfs;
	struct sim_witness shrunk;
	bool shrink_tried;
	int64_t iterative_bound;	/* the bound it stopped at, -1 */
	/*
	 * The search did not cover its space: why ("capped by --executions
	 * 2000"); empty when it did.  decided: the counts settle the
	 * expectation anyway (a witness of what a Never forbids, one
	 * execution of each kind for a Sometimes) or another failure does.
	 */
	char incomplete[REASON_BYTES];
	bool decided;
	struct split_info split;	/* items 0: not split */
};

/* Also the exit status of a --jobs child. */
enum pair_status {
	PAIR_OK = 0, PAIR_NOT_OK = 1, PAIR_ERROR = 2, PAIR_UNDECIDED = 3,
};


/* ---- check.c: collecting executions, the verdict ---------------------- */

void check_witness_free(struct witness *wt);
void check_state_add(struct collect *c, const char *state, bool holds);
/* Forget what an exploration collected (--iterative: the next bound). */
void check_collect_reset(struct collect *c);
/* An expected Sometimes is decided by what @c collected. */
bool check_decided(const struct collect *c);
/* The explore loop's stop: Sometimes decided, or a signal. */
bool check_stop_search(void *ctx);
void check_pair_variant_text(char *buf, size_t size, const struct pair *p);
int check_state_cmp(const void *a, const void *b);
const char *check_quantifier_wants(enum litmus_quantifier q);

/* ---- report.c: the report writers ------------------------------------- */

void report_json(FILE *out, const struct pair *p, struct collect *c,
		 const struct verdict *v, const char *strategy, bool accept);
void report_text(FILE *out, const struct pair *p, struct collect *c,
		 struct verdict *v, const struct sim_strategy *s,
		 const struct wpsim_opts *opts);
/* Pair @p's report in the format asked (text, json, tap, ktap). */
void report_pair(FILE *out, const struct pair *p, struct collect *c,
		 struct verdict *v, const struct sim_strategy *s,
		 const struct wpsim_opts *opts);
/* Every line of @text with "# " in front (KTAP diagnostics). */
void report_commented(FILE *out, const char *text);
void report_emit_pair(FILE *out, const struct pair *p, FILE *report,
		      const unsigned int *status,
		      const struct wpsim_opts *opts);
void report_summary_line(size_t passed, size_t failed, size_t undecided,
			 size_t n, const struct wpsim_opts *opts);

/* ---- split.c: one pair's search over workers (--jobs, MPI) ------------ */

/* Under mpirun with more than one rank: this rank, and how many. */
extern int split_mpi_rank, split_mpi_size;
/*
 * Run pair @c's search split over opts->jobs workers (or the MPI
 * ranks); the merged result in @r and @c.  Returns 0, or -1 when a
 * worker died.
 */
int split_run(const struct sim_explore_options *eo, struct collect *c,
	      const struct wpsim_opts *opts, struct sim_explore_result *r,
	      struct split_info *info);
/* Started by mpirun with more than one rank: MPI on (-Dmpi=enabled). */
void split_mpi_start(struct wpsim_opts *o);
/* The end of the run on every rank: MPI off. */
void split_mpi_end(void);

#endif /* WPSIM_TOOLS_WPSIM_CHECK_H */
