/* SPDX-License-Identifier: MIT */
/*
 * Built-in programs: small engine programs the command line, the tests and
 * the benchmarks share.  Scenario files (scenarios/) come on top of these.
 */
#ifndef WPSIM_TOOLS_PROGRAMS_H
#define WPSIM_TOOLS_PROGRAMS_H

#include "sim/engine.h"

/* NULL-terminated table of every built-in program. */
extern const struct sim_program *const wpsim_programs[];

const struct sim_program *wpsim_program_find(const char *name);

/* The engine demos, by name, for tests. */
extern const struct sim_program wpsim_racy_counter;
extern const struct sim_program wpsim_locked_counter;
extern const struct sim_program wpsim_spin_counter;
extern const struct sim_program wpsim_lock_inversion;
extern const struct sim_program wpsim_livelock;
extern const struct sim_program wpsim_bench_3x10;
extern const struct sim_program wpsim_independent_3;
extern const struct sim_program wpsim_primitives;

#endif /* WPSIM_TOOLS_PROGRAMS_H */
