// SPDX-License-Identifier: MIT
/*
 * tools/wpsim/signals.c - the stop on SIGINT and SIGTERM that `wpsim
 * check`, `wpsim fio` and `wpsim replay` share (tools/wpsim/signals.h).
 *
 * Models nothing of the kernel.  The handler only records the signal
 * (and, in the `--jobs` parent, passes a signal sent to it alone on to
 * the children); each command polls wpsim_stop_signal() between
 * executions, I/Os or traced calls and prints its report of what ran.
 * Left out: SIGHUP and SIGQUIT keep their default actions.
 */
#include "tools/wpsim/signals.h"

#include <signal.h>
#include <stddef.h>
#include <time.h>

static volatile sig_atomic_t stop_signal;
static struct timespec stop_first;
static volatile pid_t stop_children[WPSIM_STOP_CHILDREN_MAX];
bool wpsim_stop_in_child;

static long long ns_since(const struct timespec *t0)
{
	struct timespec now;

	/* clock_gettime is async-signal-safe. */
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t0->tv_sec) * 1000000000LL +
	       (now.tv_nsec - t0->tv_nsec);
}

static void stop_handler(int sig, siginfo_t *info, void *uctx)
{
	(void)uctx;
	if (stop_signal) {
		/* The same request (timeout(1): wpsim, then its group). */
		if (wpsim_stop_in_child ||
		    ns_since(&stop_first) < WPSIM_STOP_REPEAT_NS)
			return;
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &stop_first);
	stop_signal = sig;
	if (wpsim_stop_in_child)
		return;
	if (info && info->si_code == SI_USER)
		for (size_t i = 0; i < WPSIM_STOP_CHILDREN_MAX; i++)
			if (stop_children[i] > 0)
				kill(stop_children[i], sig);
}

void wpsim_stop_install(void)
{
	struct sigaction sa = { 0 };

	sa.sa_sigaction = stop_handler;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	/* One handler at a time: SIGINT and SIGTERM block each other, so
	 * the first's time is set before a second one is looked at. */
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGINT);
	sigaddset(&sa.sa_mask, SIGTERM);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int wpsim_stop_signal(void)
{
	return stop_signal;
}

const char *wpsim_stop_signal_name(void)
{
	switch (stop_signal) {
	case SIGINT:
		return "SIGINT";
	case SIGTERM:
		return "SIGTERM";
	default:
		return "";
	}
}

void wpsim_stop_child_add(pid_t pid)
{
	for (size_t i = 0; i < WPSIM_STOP_CHILDREN_MAX; i++) {
		if (stop_children[i] == 0) {
			stop_children[i] = pid;
			return;
		}
	}
}

void wpsim_stop_child_remove(pid_t pid)
{
	for (size_t i = 0; i < WPSIM_STOP_CHILDREN_MAX; i++)
		if (stop_children[i] == pid)
			stop_children[i] = 0;
}
