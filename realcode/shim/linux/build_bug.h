/* SPDX-License-Identifier: MIT */
/* realcode shim: linux/build_bug.h is in rc-kernel.h (wpsim's own text). */
#include "rc-kernel.h"
