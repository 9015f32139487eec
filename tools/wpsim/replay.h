/* SPDX-License-Identifier: MIT */
/*
 * tools/wpsim/replay.h - `wpsim replay TRACE` (replay.c): real traces
 * (strace text, fio iologs) against the model, timed or explored.
 */
#ifndef WPSIM_TOOLS_WPSIM_REPLAY_H
#define WPSIM_TOOLS_WPSIM_REPLAY_H

/* `wpsim replay` with the arguments after the command. */
int wpsim_replay_main(int argc, char **argv);

#endif /* WPSIM_TOOLS_WPSIM_REPLAY_H */
