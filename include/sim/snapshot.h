/* SPDX-License-Identifier: MIT */
/*
 * sim_setup_snapshot: the state after a program's setup, kept once per
 * search and restored before each execution instead of running setup
 * again (issue 28, session 18: setup was 20% of a DPOR search's
 * instructions on writethrough/noserial-overlap).
 *
 * What a restore puts back: the arena's bytes that setup allocated, the
 * engine's tasks, objects and checks as setup left them, lockdep's and
 * the race detector's per-object and per-task state, and every region
 * outside the arena that setup wrote and registered here with
 * sim_setup_static() (the model's statics: current_world, the_checker,
 * writethrough's state; a program's own configuration).  A program opts
 * in (sim_setup_snapshot_allow): it promises that its setup
 * writes nothing else outside the arena, that it is deterministic, and
 * that it reads nothing an execution changes.
 *
 * Verification (sim_setup_snapshot_verify, tests): every restored
 * execution also runs setup from the same start and compares the two
 * states byte for byte (the arena, every registered region, and the
 * program's whole static data), and fails the execution naming what
 * differs.  Under AddressSanitizer the whole static data is not
 * compared (its globals' red zones may not be read:
 * sim_setup_snapshot_data_verified() says false); the arena and the
 * registered regions are.  docs/architecture.md "The snapshot after
 * setup".
 */
#ifndef WPSIM_SIM_SNAPSHOT_H
#define WPSIM_SIM_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Setup writes @bytes at @addr, outside the arena: keep them in the
 * snapshot.  Called by setup code each time it runs; a region already
 * registered (same address) is not added again.  A no-op unless a
 * snapshot is being taken.
 */
void sim_setup_static(void *addr, size_t bytes, const char *name);

/*
 * Programs whose setup is @setup may be run from the snapshot: every
 * write of @setup outside the arena is registered with
 * sim_setup_static().  (A caller that wraps a program's setup in its
 * own function leaves it out.)
 */
void sim_setup_snapshot_allow(void (*setup)(void *config));
bool sim_setup_snapshot_allowed(void (*setup)(void *config));

/* Searches (sim_explore) use the snapshot: default on. */
void sim_setup_snapshot_enable(bool on);
bool sim_setup_snapshot_enabled(void);
/* Verify every restore against a real setup (tests; slow). */
void sim_setup_snapshot_verify(bool on);
/* Leave the region registered as @name out of the snapshot (tests:
 * verification must then fail); "lockdep.guards": the restore leaves the
 * rules of setup's objects as the last execution left them.  NULL:
 * none. */
void sim_setup_snapshot_leave_out(const char *name);

/* Whether verification compares the program's whole static data (false
 * in an AddressSanitizer build). */
bool sim_setup_snapshot_data_verified(void);

/* Restores and verifications since the process started (tests). */
unsigned long sim_setup_snapshot_restores(void);

#endif /* WPSIM_SIM_SNAPSHOT_H */
