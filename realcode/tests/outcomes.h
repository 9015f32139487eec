/* SPDX-License-Identifier: MIT */
/*
 * realcode/tests/outcomes.h - the differential harnesses' common half:
 * explore a real-code program and its model twin under exhaustive DPOR,
 * collect each side's set of distinct outcomes, compare the sets.
 *
 * A harness's final function writes the execution's outcome into
 * rc_outcome_text; a failed execution's outcome is its failure.
 */
#ifndef WPSIM_REALCODE_TESTS_OUTCOMES_H
#define WPSIM_REALCODE_TESTS_OUTCOMES_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/explore.h"

#define RC_OUTCOMES_MAX 4096	/* distinct outcomes kept per side */

struct rc_outcomes {
	char *o[RC_OUTCOMES_MAX];	/* sorted once explored */
	unsigned int n;
	bool overflow;			/* more than RC_OUTCOMES_MAX */
};

struct rc_diff {
	struct rc_outcomes real, model;
	uint64_t real_execs, model_execs;
	bool ok;	/* both complete, the same sets */
};

extern char rc_outcome_text[768];

/* Explore both programs; fills @d (d->ok: the same outcomes). */
void rc_diff_run(struct rc_diff *d, const struct sim_program *real,
		 const struct sim_program *model);
/* After the TAP line: both sets as comments when they differ; frees. */
void rc_diff_finish(struct rc_diff *d);

#endif
