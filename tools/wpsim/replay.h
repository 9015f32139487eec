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

#endif /* WPSIM_TOOLS_WPSIM_REPLAY_H */
