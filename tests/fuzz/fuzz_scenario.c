// SPDX-License-Identifier: MIT
/*
 * tests/fuzz/fuzz_scenario.c - libFuzzer target for the whole scenario
 * loader of wpsim (wpsim_scenario_load_text: the litmus front end, then
 * the model's schema and every check tools/wpsim/scenario.c makes: files,
 * flags, sizes, ranges, ops per file system, paths, registers).  For any
 * input bytes: loading never crashes or leaks; it fails with one or more
 * "fuzz:LINE:COL: error: ..." lines, or succeeds, and then the scenario
 * runs one execution under its default variant and the default schedule
 * (no preemption, at most FUZZ_STEPS_MAX steps) and its condition
 * evaluates, without a crash: a model assertion is an outcome of the
 * execution, not a crash.
 *
 * Leaves out: exploring (the scenario suite), what an error says
 * (tests/cli).  Built by tests/fuzz/meson.build with -Dfuzz=true; run by
 * make fuzz.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

#include "tools/wpsim/scenario.h"

#define STATE_BYTES	1024
/* The execution's step bound: the fuzz target looks for crashes in
 * loading and in the first steps, not for livelocks. */
#define FUZZ_STEPS_MAX	1024

#include "fuzz-check.h"

/* Every line of @text is an error line of "fuzz" or an overflow note
 * (the loader's "(more errors not shown)", the parser's "(more errors
 * not shown; at most N are kept)"). */
/*
 * The loader's diagnostics: each line "fuzz:L:C: error: ..." or
 * "fuzz:L:C: warning: ..." (a warning does not reject the scenario), or
 * the cap's note.  A rejected scenario (@rejected) has at least one
 * error; an accepted one none.
 */
static void check_diagnostics(const char *text, size_t len, bool rejected)
{
	const char *line = text;
	bool error = false;

	if (rejected)
		check(len > 0);
	while (len && *line) {
		const char *nl = strchr(line, '\n');
		const char *e, *w;

		check(nl);
		check(strncmp(line, "fuzz:", 5) == 0 ||
		      strncmp(line, "(more errors not shown", 22) == 0);
		if (strncmp(line, "fuzz:", 5) == 0) {
			e = strstr(line, ": error: ");
			w = strstr(line, ": warning: ");
			check((e && e < nl) || (w && w < nl));
			error |= e && e < nl;
		}
		line = nl + 1;
	}
	check(error == rejected);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sim_exec_options exec = { .steps_max = FUZZ_STEPS_MAX };
	struct wpsim_scenario *sc;
	struct wpsim_exec x;
	struct sim_outcome o;
	char *errors = NULL, state[STATE_BYTES];
	size_t errors_len = 0;
	FILE *err = open_memstream(&errors, &errors_len);

	check(err);
	sc = wpsim_scenario_load_text("fuzz", (const char *)data, size, err);
	fclose(err);
	if (!sc) {
		check_diagnostics(errors, errors_len, true);
		free(errors);
		return 0;
	}
	check_diagnostics(errors, errors_len, false);
	free(errors);
	wpsim_exec_init(&x, sc, &sc->defaults);
	sim_replay(&x.program, "-", &exec, &o);
	check(o.kind != SIM_FAIL_DIVERGED);
	wpsim_exec_evaluate(&x, o.kind, state, sizeof(state));
	wpsim_exec_fini(&x);
	wpsim_scenario_free(sc);
	return 0;
}
