/* SPDX-License-Identifier: MIT */
/* realcode shim: linux/err.h is in rc-kernel.h (wpsim's own text). */
#include "rc-kernel.h"
