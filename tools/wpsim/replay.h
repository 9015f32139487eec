/* SPDX-License-Identifier: MIT */
/*
 * tools/wpsim/replay.h - `wpsim replay TRACE` (replay.c): real traces
 * (strace text, fio iologs) against the model, timed or explored.
 */
#ifndef WPSIM_TOOLS_WPSIM_REPLAY_H
#define WPSIM_TOOLS_WPSIM_REPLAY_H

/* `wpsim replay` with the arguments after the command. */
int wpsim_replay_main(int argc, char **argv);

#include <stdbool.h>
#include <stdint.h>

struct fio_config;
struct fio_job;

/*
 * `wpsim fio` with read_iolog=FILE: the job's I/O is the iolog's, with
 * fio's delays (replay_no_stall, replay_time_scale); the import counts go
 * to stderr, fio's output to stdout.  Return: the exit code.
 */
int wpsim_fio_replay_iolog(struct fio_config *cfg, const struct fio_job *job,
			   const char *device, unsigned int cpus,
			   uint64_t seed);

/*
 * write_iolog=FILE: fio's v3 lines, per job, kept during the run (time
 * @now_ns, virtual; the first note of a job is its time 0) and written
 * after it.
 */
void wpsim_iolog_reset(unsigned int jobs);
void wpsim_iolog_note(unsigned int job, uint64_t now_ns, const char *file,
		      const char *action, bool io, uint64_t offset,
		      uint64_t len);
int wpsim_iolog_write(unsigned int job, const char *path);

#endif /* WPSIM_TOOLS_WPSIM_REPLAY_H */
