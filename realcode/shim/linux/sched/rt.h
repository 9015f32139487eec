/* SPDX-License-Identifier: MIT */
/* realcode shim: in linux/sched.h (wpsim's own text). */
#include "linux/sched.h"
