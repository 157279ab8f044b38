/* test.h — a tiny unit-test harness (after redis's testhelp.h).  Each
 * CHECK counts as one test; main() ends with `return test_report();`,
 * which prints "N passed, N failed" for tests/run to add up. */
#ifndef DDX_TEST_H
#define DDX_TEST_H

#include <stdio.h>
#include <string.h>

static int test_passed, test_failed;

#define CHECK(cond) do { \
	if (cond) test_passed++; \
	else { test_failed++; fprintf(stderr, "%s:%d: FAIL: %s\n", __FILE__, __LINE__, #cond); } \
} while (0)

/* Compare a (pointer, length) string with a C string. */
#define CHECK_MEM(p, n, s) do { \
	const char *cm_p_ = (p), *cm_s_ = (s); size_t cm_n_ = (n); \
	if (cm_n_ == strlen(cm_s_) && memcmp(cm_p_, cm_s_, cm_n_) == 0) test_passed++; \
	else { test_failed++; fprintf(stderr, "%s:%d: FAIL: got \"%.*s\", want \"%s\"\n", \
		__FILE__, __LINE__, (int)cm_n_, cm_p_, cm_s_); } \
} while (0)

#define CHECK_STR(a, b) CHECK_MEM((a), strlen(a), (b))

#define CHECK_INT(a, b) do { \
	long long ci_a_ = (long long)(a), ci_b_ = (long long)(b); \
	if (ci_a_ == ci_b_) test_passed++; \
	else { test_failed++; fprintf(stderr, "%s:%d: FAIL: %s is %lld, want %lld\n", \
		__FILE__, __LINE__, #a, ci_a_, ci_b_); } \
} while (0)

static inline int test_report(void)
{
	printf("%d passed, %d failed\n", test_passed, test_failed);
	return test_failed ? 1 : 0;
}

#endif
