// SPDX-License-Identifier: MIT
/*
 * tests/fuzz/fuzz_schedule.c - libFuzzer target for the schedule string
 * parser (sim_schedule_parse, the --schedule argument and every replay
 * line).  For any input bytes: the parse never crashes; it fails with
 * the error position inside the text, or succeeds with at most
 * SIM_STEPS_LIMIT choices, each a task id below SIM_IDS_LIMIT.  A parsed
 * schedule of task ids below 64 formats (every task enabled at every step) to a string that
 * parses to the same choices up to its default-choice tail, and
 * formatting that again gives the same string.
 *
 * Leaves out: replaying the schedule (the engine tests do), what the
 * error message says (tests/cli).  Built by tests/fuzz/meson.build with
 * -Dfuzz=true; run by make fuzz.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/engine.h"

#define TEXT_BYTES_MAX	8192

#include "fuzz-check.h"

static uint16_t choices[SIM_STEPS_LIMIT], again[SIM_STEPS_LIMIT];
static uint64_t enabled[SIM_STEPS_LIMIT];

/* The choice the replay strategy makes past the end of a schedule. */
static uint16_t default_after(const uint16_t *c, uint32_t i)
{
	return i ? c[i - 1] : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char text[TEXT_BYTES_MAX + 1];
	uint32_t count, count2;
	const char *err;
	char *formatted, *formatted2;
	size_t len;

	if (size > TEXT_BYTES_MAX)
		return -1;
	memcpy(text, data, size);
	text[size] = '\0';
	if (sim_schedule_parse(text, choices, SIM_STEPS_LIMIT, &count,
			       &err) != 0) {
		check(err >= text && err <= text + strlen(text));
		return 0;
	}
	check(count <= SIM_STEPS_LIMIT);
	for (uint32_t i = 0; i < count; i++) {
		check(choices[i] < SIM_IDS_LIMIT);
		enabled[i] = ~0ULL;
	}
	/*
	 * The round trip below needs every chosen task in the 64-bit
	 * enabled sets that formatting trims by; ids 64 and up (timed runs
	 * of more tasks, which keep their whole schedule) are only parsed.
	 */
	for (uint32_t i = 0; i < count; i++)
		if (choices[i] >= 64)
			return 0;
	len = sim_schedule_format(NULL, 0, choices, enabled, count);
	formatted = malloc(len + 1);
	check(formatted);
	check(sim_schedule_format(formatted, len + 1, choices, enabled,
				  count) == len);
	check(strlen(formatted) == len);
	check(sim_schedule_parse(formatted, again, SIM_STEPS_LIMIT, &count2,
				 &err) == 0);
	check(count2 <= count);
	for (uint32_t i = 0; i < count; i++)
		check(choices[i] == (i < count2 ? again[i] :
				     default_after(choices, i)));
	len = sim_schedule_format(NULL, 0, again, enabled, count2);
	formatted2 = malloc(len + 1);
	check(formatted2);
	sim_schedule_format(formatted2, len + 1, again, enabled, count2);
	check(strcmp(formatted, formatted2) == 0);
	free(formatted);
	free(formatted2);
	return 0;
}
