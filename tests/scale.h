/* SPDX-License-Identifier: MIT */
/*
 * tests/scale.h - the test scale: WPSIM_TEST_SCALE in the environment
 * (meson's -Dtest_scale; make sanitize sets 5), default 1.  A test whose
 * exploration is sized by a cap divides the cap by it, so the sanitizer
 * tier (ASan and UBSan run ~10x slower) keeps within its time limits.
 * An exhaustive exploration is never scaled: it is what it is.
 */
#ifndef WPSIM_TESTS_SCALE_H
#define WPSIM_TESTS_SCALE_H

#include <stdlib.h>

static inline unsigned int test_scale(void)
{
	const char *env = getenv("WPSIM_TEST_SCALE");
	long n = env ? strtol(env, NULL, 10) : 1;

	return n >= 1 && n <= 1000 ? (unsigned int)n : 1;
}

#endif /* WPSIM_TESTS_SCALE_H */
