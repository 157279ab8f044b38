/* fuzz.h — what the libFuzzer targets share: a check that aborts (so the
 * fuzzer keeps the input) and splitting fuzzer data into lines, each in a
 * heap block of exactly its length so that AddressSanitizer catches a
 * read past the end of a line. */
#ifndef DDX_FUZZ_H
#define DDX_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define FUZZ_CHECK(cond) do { \
	if (!(cond)) { \
		fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
		abort(); \
	} \
} while (0)

struct fuzz_lines {
	char **p;
	size_t *len;
	size_t n;
};

/* Split data at '\n' into at most max lines (the rest is ignored).  Free
 * with fuzz_lines_free. */
static inline void fuzz_lines_split(struct fuzz_lines *fl, const uint8_t *data,
				    size_t size, size_t max)
{
	fl->p = xmalloc((max ? max : 1) * sizeof(*fl->p));
	fl->len = xmalloc((max ? max : 1) * sizeof(*fl->len));
	fl->n = 0;
	for (size_t pos = 0; pos < size && fl->n < max;) {
		const uint8_t *nl = memchr(data + pos, '\n', size - pos);
		size_t end = nl ? (size_t)(nl - data) : size;
		fl->len[fl->n] = end - pos;
		fl->p[fl->n] = xmalloc(end - pos);
		memcpy(fl->p[fl->n], data + pos, end - pos);
		fl->n++;
		pos = end + 1;
	}
}

static inline void fuzz_lines_free(struct fuzz_lines *fl)
{
	for (size_t i = 0; i < fl->n; i++)
		free(fl->p[i]);
	free(fl->p);
	free(fl->len);
}

/* Check that out is safe for a terminal: UTF-8 without controls other
 * than tab (in text) and newline, no C1 controls, and none of the
 * bidirectional overrides and isolates (U+202A..U+202E, U+2066..U+2069)
 * that reorder what follows them. */
static inline void fuzz_check_text(const unsigned char *p, size_t n, int json)
{
	for (size_t i = 0; i < n;) {
		if (p[i] < 0x80) {
			FUZZ_CHECK(p[i] >= 0x20 || p[i] == '\n' || (p[i] == '\t' && !json));
			FUZZ_CHECK(p[i] != 0x7f);
			i++;
			continue;
		}
		size_t l = utf8_seq_len(p + i, n - i);
		FUZZ_CHECK(l > 0);
		FUZZ_CHECK(!(p[i] == 0xc2 && p[i + 1] < 0xa0));
		FUZZ_CHECK(!(l == 3 && p[i] == 0xe2 && p[i + 1] == 0x80 && p[i + 2] >= 0xaa &&
			     p[i + 2] <= 0xae));
		FUZZ_CHECK(!(l == 3 && p[i] == 0xe2 && p[i + 1] == 0x81 && p[i + 2] >= 0xa6 &&
			     p[i + 2] <= 0xa9));
		i += l;
	}
}

/* Whether [p, p + n) lies within [base, base + size). */
static inline int fuzz_within(const char *p, size_t n, const char *base, size_t size)
{
	return p >= base && (size_t)(p - base) <= size && n <= size - (size_t)(p - base);
}

#endif
