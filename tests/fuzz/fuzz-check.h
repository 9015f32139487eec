/* SPDX-License-Identifier: MIT */
/*
 * tests/fuzz/fuzz-check.h - the one assertion every libFuzzer target
 * uses: check(cond) prints the file, line and the failed condition and
 * aborts, which libFuzzer reports as a crash with the input that caused
 * it.  (assert() is compiled out by -DNDEBUG in release fuzz builds.)
 */
#ifndef WPSIM_TESTS_FUZZ_CHECK_H
#define WPSIM_TESTS_FUZZ_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define check(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: check failed: %s\n",	\
				__FILE__, __LINE__, #cond);		\
			abort();					\
		}							\
	} while (0)

#endif /* WPSIM_TESTS_FUZZ_CHECK_H */
