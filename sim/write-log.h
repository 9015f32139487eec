/* SPDX-License-Identifier: MIT */
/*
 * sim/write-log.h - the words written since the checks last ran, kept by
 * sim/shared.c's stores and read by checks through sim_exec_writes()
 * (include/sim/engine.h).  Not an API.
 */
#ifndef WPSIM_SIM_WRITE_LOG_H
#define WPSIM_SIM_WRITE_LOG_H

#include "sim/engine.h"
#include "sim/shared.h"

/* struct sim_write_log and sim_write_log: include/sim/engine.h. */

/* A word's _init: logged whatever its tag. */
static inline void sim_note_init(const struct sim_word *word)
{
	uint32_t n = sim_write_log.n;

	if (n < SIM_WRITES_LOG) {
		sim_write_log.word[n] = word;
		sim_write_log.n = n + 1;
	} else {
		sim_write_log.n = SIM_WRITES_LOG + 1;
	}
}

/* A store: not logged when no check reads an untagged word
 * (sim_check_watch_tagged) and this one has no tag. */
static inline void sim_note_write(const struct sim_word *word)
{
	uint32_t n = sim_write_log.n;

	if (sim_write_log.tagged_only && !word->tag)
		return;

	if (n < SIM_WRITES_LOG) {
		sim_write_log.word[n] = word;
		sim_write_log.n = n + 1;
	} else {
		sim_write_log.n = SIM_WRITES_LOG + 1;
	}
}

#endif /* WPSIM_SIM_WRITE_LOG_H */
