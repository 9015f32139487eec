// SPDX-License-Identifier: MIT
/*
 * tests/fuzz/fuzz_ext4_nowait_table.c - libFuzzer target for the row
 * parser of `wpsim ext4-nowait --check TABLE` (LAYOUT OFFSET LENGTH
 * RESULT per line, # comments).  For any input bytes, split into lines
 * as fgets would (at most 511 bytes each): every line parses to a row, a
 * blank or comment line, or exactly one "fuzz:LINE:COL: error: expected
 * ..." message whose line number is the line's, and nothing crashes.
 *
 * Leaves out: running the model on a row (tests/cli checks the answers
 * against the real kernel's table).  Built by tests/fuzz/meson.build
 * with -Dfuzz=true; run by make fuzz.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/wpsim/scenario.h"

#define LINE_BYTES_MAX	511	/* TABLE_LINE_MAX - 1 in ext4nowait.c */

#include "fuzz-check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char line[LINE_BYTES_MAX + 1], *message = NULL, prefix[32];
	unsigned int lineno = 0;
	size_t at = 0, message_len = 0;

	while (at < size) {
		size_t n = 0;
		FILE *err;
		int rc;

		while (at < size && n < LINE_BYTES_MAX) {
			line[n++] = (char)data[at++];
			if (line[n - 1] == '\n')
				break;
		}
		line[n] = '\0';	/* a NUL inside ends the row early */
		lineno++;
		err = open_memstream(&message, &message_len);
		check(err);
		rc = wpsim_ext4_nowait_parse_row(line, "fuzz", lineno, err);
		fclose(err);
		check(rc == 0 || rc == 1 || rc == EXIT_USAGE);
		snprintf(prefix, sizeof(prefix), "fuzz:%u:", lineno);
		if (rc == EXIT_USAGE) {
			check(strncmp(message, prefix, strlen(prefix)) == 0);
			check(strstr(message, ": error: expected "));
			check(strchr(message, '\n') ==
			      message + message_len - 1);
		} else {
			check(message_len == 0);
		}
		free(message);
		message = NULL;
	}
	return 0;
}
