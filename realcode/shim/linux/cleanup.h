/* SPDX-License-Identifier: MIT */
/* realcode shim: scope guards (linux/cleanup.h) are not used by the
 * tier's files: the declarations expand to nothing (wpsim's own). */
#ifndef RC_CLEANUP_H
#define RC_CLEANUP_H
#define DEFINE_GUARD(...)
#define DEFINE_GUARD_COND(...)
#define DEFINE_LOCK_GUARD_0(...)
#define DEFINE_LOCK_GUARD_1(...)
#define DEFINE_FREE(...)
#endif
