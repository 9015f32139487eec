/* SPDX-License-Identifier: MIT */
/*
 * sim_race: the data-race detector (sim/race.c), KCSAN's rule on every
 * recorded access.  sim/lockdep.c feeds it (the hooks below); the
 * engine marks plain accesses (sim_race_plain_next, in sim/lockdep.c).
 */
#ifndef WPSIM_SIM_RACE_H
#define WPSIM_SIM_RACE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/*
 * On: every execution checks KCSAN's rule: two accesses to one object by
 * different tasks, at least one a write, at least one plain, not ordered
 * by happens-before, are a data race (SIM_FAIL_RACE).  Plain accesses are
 * sim_word_load/sim_word_store; everything else (sim_word_read/write are
 * READ_ONCE/WRITE_ONCE, which also stand for data_race(); atomics, bit
 * operations) is marked.  Off by default; `--races` turns it on.  Executions of more than 64 tasks are
 * not checked (their clocks would not fit).
 */
void sim_race_enable(bool on);
bool sim_race_enabled(void);

/* The next recorded access is plain (sim_word_load/store). */
void sim_race_plain_next(void);

/* sim/race.c, called by sim/lockdep.c. */
void sim_race_begin(bool capture);
/* sim_lockdep_setup_save and its kin: the clocks of setup's tasks. */
bool sim_race_setup_save(void);
void sim_race_setup_restore(void);
void sim_race_setup_reset(void);
void sim_race_record(int task, uint32_t step, uint32_t object,
		     unsigned int access, uint64_t value, bool plain);
void sim_race_task_spawned(int parent, int child);
void sim_race_report(FILE *out);

#endif /* WPSIM_SIM_RACE_H */
