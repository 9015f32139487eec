// SPDX-License-Identifier: MIT
/*
 * tests/fuzz/fuzz_profiles.c - libFuzzer targets for the two profile
 * parsers: device profiles (hw_nvme_profile_parse, profiles/devices/*.dev,
 * built as fuzz-device-profile) and CPU cost profiles
 * (m_cost_profile_parse, profiles/cpu/*.cpu, built as fuzz-cpu-profile
 * with -DFUZZ_CPU_PROFILE).  For any input bytes: no crash, and the parse
 * either succeeds or says why in a "file:line:col: error:" message; a
 * device profile that parses passes hw_nvme_profile_check.
 *
 * Leaves out: what the figures mean (tests/model/nvme, tests/engine).
 * Built by tests/fuzz/meson.build with -Dfuzz=true; run by make fuzz.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/cost.h"
#include "model/hw/nvme.h"
#include "sim/clock.h"

#define TEXT_BYTES_MAX	16384

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text;
	char err[512] = "";

	if (size > TEXT_BYTES_MAX)
		return 0;
	text = malloc(size + 1);
	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
#ifdef FUZZ_CPU_PROFILE
	{
		struct m_cost_profile costs = m_cost_default;
		static FILE *sink;

		if (!sink)
			sink = fopen("/dev/null", "w");
		if (!sink)
			abort();
		(void)m_cost_profile_parse("fuzz.cpu", text, &costs, sink);
	}
#else
	{
		struct hw_nvme_profile p;
		char why[512];

		if (hw_nvme_profile_parse(text, "fuzz.dev", &p, err,
					  sizeof(err)) == 0) {
			if (hw_nvme_profile_check(&p, why, sizeof(why)) != 0) {
				fprintf(stderr, "parsed but fails its check: "
					"%s\n", why);
				abort();
			}
		} else if (!strstr(err, "fuzz.dev:")) {
			fprintf(stderr, "an error without its position: %s\n",
				err);
			abort();
		}
	}
#endif
	free(text);
	return 0;
}
