// SPDX-License-Identifier: MIT
/*
 * tools/fio/fuzz-fio.c - the libFuzzer entry point of the fio front
 * end: the input bytes are a job file.  It is parsed; a config that
 * parses is printed with --showcmd and its jobs' file names are built,
 * so the printer and the name expansion run on every accepted input.
 * An input with a NUL byte or a line over FIO_LINE_LEN_MAX must come
 * back as an error, never a crash.
 *
 * Leaves out: include (a fuzz input names no real files; an include
 * line is an error reading it) and the command line.
 * Built by tools/fio/fuzz.sh (clang, -fsanitize=fuzzer) and, in the
 * deep tier, by tests/fio/meson.build.
 */
#include "tools/fio/fio.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fio_config cfg;
	struct fio_error err = { 0 };
	char *text = NULL, name[FIO_PATH_LEN_MAX + 1];
	size_t len = 0;
	FILE *out;

	fio_config_init(&cfg);
	if (!fio_parse_jobfile("fuzz.fio", (const char *)data, size, &cfg,
			       &err) &&
	    !fio_config_finish(&cfg, &err)) {
		out = open_memstream(&text, &len);
		if (out) {
			fio_showcmd(out, &cfg);
			fclose(out);
		}
		free(text);
		for (uint32_t i = 0; i < cfg.job_count; i++)
			for (uint32_t f = 0;
			     f < fio_job_file_count(&cfg.jobs[i]); f++)
				fio_job_file_name(&cfg.jobs[i], f, name,
						  sizeof(name));
	} else if (!err.set) {
		abort();	/* a failure must say why */
	}
	fio_config_free(&cfg);
	return 0;
}
