/* SPDX-License-Identifier: MIT */
/* realcode shim: lock tracepoints do nothing (wpsim's own text). */
#ifndef RC_TRACE_LOCK_H
#define RC_TRACE_LOCK_H
#define LCB_F_SPIN	(1U << 0)
#define LCB_F_READ	(1U << 1)
#define LCB_F_WRITE	(1U << 2)
#define LCB_F_RT	(1U << 3)
#define LCB_F_PERCPU	(1U << 4)
#define LCB_F_MUTEX	(1U << 5)
#define trace_contention_begin(lock, flags) do { } while (0)
#define trace_contention_end(lock, ret) do { } while (0)
#endif
