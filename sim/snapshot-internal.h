/* SPDX-License-Identifier: MIT */
/*
 * sim/snapshot-internal.h - the engine's side of sim/snapshot.c: the
 * regions setup registered, saved, restored and compared.
 */
#ifndef WPSIM_SIM_SNAPSHOT_INTERNAL_H
#define WPSIM_SIM_SNAPSHOT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "sim/snapshot.h"

/* A new search: no regions. */
void sim_snapshot_regions_clear(void);
/* Setup runs to be kept: sim_setup_static() records. */
void sim_snapshot_regions_taking(bool on);
/* Copy every registered region (but the one left out); false: no memory. */
bool sim_snapshot_regions_save(void);
void sim_snapshot_regions_restore(void);
/* Verification: keep what every region holds after a restore; then,
 * after a real setup, 0 when each holds the same, else the bytes that
 * differ (@why names the first region). */
bool sim_snapshot_regions_seen(void);
size_t sim_snapshot_regions_diff(char *why, size_t size);
/* Verification: a copy of the program's static data (.data and .bss),
 * and the bytes that differ from it now (@why: the first offset). */
bool sim_snapshot_data_take(void);
size_t sim_snapshot_data_diff(char *why, size_t size);
bool sim_snapshot_verifying(void);
void sim_snapshot_counted_restore(void);
/* sim_setup_snapshot_leave_out(@name) is in force (a table outside the
 * registered regions that its owner restores: "lockdep.guards"). */
bool sim_snapshot_left_out(const char *name);
/*
 * A table by object id outside the registered regions (lockdep's rules)
 * had entry @id written: the restore need copy back only its entries
 * from the lowest id written since the last call of
 * sim_snapshot_ids_written_from(), which returns that id (UINT32_MAX:
 * none; 0 before the first call) and starts again.  Kept in this file's
 * state, which the verification's comparison of the static data leaves
 * out (a real setup writes entries that a restore does not).
 */
void sim_snapshot_id_written(uint32_t id);
uint32_t sim_snapshot_ids_written_from(void);

#endif /* WPSIM_SIM_SNAPSHOT_INTERNAL_H */
