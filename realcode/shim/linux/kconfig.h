/* SPDX-License-Identifier: MIT */
/* realcode shim: linux/kconfig.h is in rc-kernel.h (wpsim's own text). */
#include "rc-kernel.h"
