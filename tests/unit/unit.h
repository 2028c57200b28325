/* SPDX-License-Identifier: GPL-2.0 */
/* A minimal unit-test harness speaking tests/run.sh's PASS/FAIL lines. */
#ifndef MMTOP_TESTS_UNIT_H
#define MMTOP_TESTS_UNIT_H

#include <stdio.h>

static int unit_failures;

#define CHECK(cond, ...)						\
	do {								\
		if (cond) {						\
			printf("PASS ");				\
		} else {						\
			printf("FAIL %s:%d (%s) ", __FILE__, __LINE__, #cond); \
			unit_failures++;				\
		}							\
		printf(__VA_ARGS__);					\
		printf("\n");						\
	} while (0)

#define UNIT_EXIT() return unit_failures ? 1 : 0

#endif
