// SPDX-License-Identifier: MIT
/* realcode/rwsem-none.c - no rwsem programs (this build has no rwsem.c). */
#include "realcode/programs.h"

const struct rc_program *const rc_rwsem_programs[] = { NULL };
