/* SPDX-License-Identifier: MIT */
/* realcode shim: linux/linkage.h is in rc-kernel.h (wpsim's own text). */
#include "rc-kernel.h"
#ifndef asmlinkage
#define asmlinkage
#endif
