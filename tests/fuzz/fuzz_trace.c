// SPDX-License-Identifier: MIT
/*
 * tests/fuzz/fuzz_trace.c - libFuzzer targets for the importers of wpsim
 * replay: the iolog importer (tools/trace/iolog.c, target trace-iolog)
 * and, built with FUZZ_TRACE_STRACE, the strace importer
 * (tools/trace/strace.c, target trace-strace).  For any input bytes: the
 * import succeeds, or fails with exactly one "fuzz:LINE:COL: error:
 * expected ..." message whose line is inside the input; with skip_bad
 * it always succeeds; every record the import keeps has a thread and a
 * file (or none) inside the tables, and the counts add up: used +
 * skipped = the rows of the summary, used = the records not dropped
 * (and the iolog's add lines, which need no record).
 *
 * Leaves out: running the records on the model (tests/replay does, on
 * the recorded traces).  Built by tests/fuzz/meson.build with
 * -Dfuzz=true; run by make fuzz.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wpsim/trace.h"

#ifdef FUZZ_TRACE_STRACE
#define trace_parse	trace_parse_strace
/* skip_bad: every malformed line is counted, none is an error. */
#define SKIP_BAD_OK(rc, err)	((rc) == 0)
#else
#define trace_parse	trace_parse_iolog
/* skip_bad: only a missing iolog version line is still an error. */
#define SKIP_BAD_OK(rc, err)	((rc) == 0 || (err).line == 1)
#endif

#include "fuzz-check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_trace(const struct trace *t)
{
	uint64_t kept = 0;

	for (uint32_t i = 0; i < t->nrec; i++) {
		const struct trace_rec *r = &t->recs[i];

		check(r->thread < t->nthreads);
		check(r->file >= -1 && r->file < (int32_t)t->nfiles);
		check(r->op < TRACE_OP_COUNT);
		kept += !r->dropped;
	}
	check(kept + t->used_without_record == trace_count_used(t));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct trace t;
	struct trace_error err = { 0 };
	struct trace_options opt = { .skip_bad = false };
	uint32_t lines = 1;
	int rc;

	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';
	trace_init(&t);
	rc = trace_parse("fuzz", (const char *)data, size, &opt, &t, &err);
	if (rc) {
		check(err.set);
		check(!strncmp(err.text, "fuzz:", 5));
		check(strstr(err.text, ": error: expected "));
		check(err.line >= 1 && err.line <= lines);
	} else {
		check_trace(&t);
	}
	trace_free(&t);
	trace_init(&t);
	opt.skip_bad = true;
	memset(&err, 0, sizeof(err));
	rc = trace_parse("fuzz", (const char *)data, size, &opt, &t, &err);
	check(SKIP_BAD_OK(rc, err));
	if (!rc)
		check_trace(&t);
	trace_free(&t);
	return 0;
}
