// SPDX-License-Identifier: MIT
/*
 * tests/model/verify-world-check.c - linked into a second build of some
 * model tests: model/world.c's incremental invariants 1-3 are compared
 * with a full scan of every counter and slot after every step, and any
 * disagreement fails the execution ("world check: ..."), so each of
 * those tests also shows that the incremental check misses nothing on
 * its races (and reports the slot a full scan reports first).
 */
#include "model/world.h"

__attribute__((constructor)) static void verify_world_check(void)
{
	m_world_check_verify = true;
}
