/* SPDX-License-Identifier: MIT */
/*
 * realcode/programs.h - built-in programs that run real kernel code
 * (realcode/xarray/programs.c, realcode/rwsem/programs.c), for the
 * wpsim-realcode command, the tests and the benchmarks.
 */
#ifndef REALCODE_PROGRAMS_H
#define REALCODE_PROGRAMS_H

#include "sim/engine.h"

struct rc_program {
	struct sim_program prog;
	/* Tested outcome: "pass" (exhaustive search must be clean) or
	 * "fail" (a bug the search must find). */
	const char *expect;
};

/* NULL-terminated. */
extern const struct rc_program *const rc_xa_programs[];
extern const struct rc_program *const rc_rwsem_programs[];
const struct rc_program *rc_program_find(const char *name);

/* The final state of the last execution as text (programs fill it in
 * their final function), for outcome sets. */
extern char rc_outcome[512];

#endif /* REALCODE_PROGRAMS_H */
