/* test_align.c — aligning id sequences and logs. */
#include <stdlib.h>

#include "align.h"
#include "test.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define X ALIGN_NONE

static void check_seq(const uint32_t *a, size_t n, const uint32_t *b, size_t m, const uint8_t *w,
		      const uint32_t *want)
{
	uint32_t ma[64];
	align_seq(a, n, b, m, w, ma);
	for (size_t i = 0; i < n; i++)
		CHECK_INT(ma[i], want[i]);
}

static void test_seq(void)
{
	/* Identical. */
	uint32_t a1[] = { 1, 2, 3 }, w1[] = { 0, 1, 2 };
	check_seq(a1, 3, a1, 3, NULL, w1);
	/* Bad is a prefix: all of it matches the start. */
	uint32_t b2[] = { 1, 2, 3, 4, 5 };
	check_seq(a1, 3, b2, 5, NULL, w1);
	/* A line of its own in bad, a line bad lacks. */
	uint32_t a3[] = { 1, 9, 2, 4 }, b3[] = { 1, 2, 3, 4 }, w3[] = { 0, X, 1, 3 };
	check_seq(a3, N(a3), b3, N(b3), NULL, w3);
	/* Repeated ids around a unique anchor (7). */
	uint32_t a4[] = { 5, 7, 5 }, b4[] = { 5, 5, 7, 5 }, w4[] = { 0, 2, 3 };
	check_seq(a4, N(a4), b4, N(b4), NULL, w4);
	/* Weights: a milestone (6, worth 8) outweighs three incidental
	 * lines (1 2 3) that b also printed before it. */
	uint32_t a5[] = { 6, 1, 2, 3 }, b5[] = { 1, 2, 3, 6, 1, 2, 3 };
	uint8_t wt[10] = { 1, 1, 1, 1, 1, 1, 8, 1, 1, 1 };
	uint32_t w5[] = { 3, 4, 5, 6 };
	check_seq(a5, N(a5), b5, N(b5), wt, w5);
	/* Nothing in common. */
	uint32_t a6[] = { 7, 8 }, b6[] = { 1, 2 }, w6[] = { X, X };
	check_seq(a6, 2, b6, 2, NULL, w6);
	check_seq(a6, 2, b6, 0, NULL, w6);
}

static void test_logs(void)
{
	/* Two ranks interleaved differently, a progress bar (stream 0) drawn
	 * 3 times in bad, where it stopped, and 5 in good: line for line. */
	uint32_t aid[] = { 10, 10, 20, 20, 30, 30, 30, 11, 11, 21, 21 };
	uint16_t ast[] = { 1, 2, 2, 1, 0, 0, 0, 2, 1, 1, 2 };
	uint32_t bid[] = { 10, 20, 10, 20, 30, 30, 30, 30, 30, 11, 21, 11, 21, 12, 12 };
	uint16_t bst[] = { 2, 2, 1, 1, 0, 0, 0, 0, 0, 1, 1, 2, 2, 1, 2 };
	struct align_log a = { aid, ast, N(aid), 3, NULL }, b = { bid, bst, N(bid), 3, NULL };
	uint32_t smap[] = { 0, 1, 2 }, a2b[N(aid)];
	align_logs(&a, &b, smap, NULL, a2b);
	uint32_t want[] = { 2, 0, 1, 3, 4, 5, 6, 11, 9, 10, 12 };
	for (size_t i = 0; i < N(aid); i++)
		CHECK_INT(a2b[i], want[i]);
	/* All of b for stream 1 of a. */
	uint32_t all[] = { X, ALIGN_ALL, X }, a2b2[N(aid)];
	align_logs(&a, &b, all, NULL, a2b2);
	CHECK_INT(a2b2[0], 0);     /* first 10 of b, whatever its stream */
	CHECK_INT(a2b2[1], X);     /* stream 2 left out */
}

/* Fine ids pair a template's printings by what they name: bad ran steps
 * a, b, c ("Step <*> has started." 1, "... finished" 2, each step's own
 * text a fine id); good ran a and c only, then d.  c pairs with c, not
 * with good's second printing, and a run of one template that names
 * different steps is no run. */
static void test_fine(void)
{
	uint32_t a[] = { 1, 2, 1, 2, 1, 2 }, fa[] = { 10, 20, 11, 21, 12, 22 };
	uint32_t b[] = { 1, 1, 2, 3, 1, 2 }, fb[] = { 10, 12, 22, 30, 13, 23 };
	uint32_t ma[N(a)], want[] = { 0, X, X, X, 1, 2 };
	align_seq_fine(a, fa, N(a), b, fb, N(b), NULL, ma);
	for (size_t i = 0; i < N(a); i++)
		CHECK_INT(ma[i], want[i]);
	uint16_t st[N(b)] = { 0 };
	struct align_log la = { a, st, N(a), 1, fa }, lb = { b, st, N(b), 1, fb };
	uint32_t smap[] = { 0 }, a2b[N(a)];
	align_logs(&la, &lb, smap, NULL, a2b);
	for (size_t i = 0; i < N(a); i++)
		CHECK_INT(a2b[i], want[i]);
}

int main(void)
{
	test_seq();
	test_logs();
	test_fine();
	return test_report();
}
