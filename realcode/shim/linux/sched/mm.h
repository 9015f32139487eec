/* SPDX-License-Identifier: MIT */
/* realcode shim: linux/sched/mm.h: might_alloc is in rc-kernel.h. */
#include "rc-kernel.h"
