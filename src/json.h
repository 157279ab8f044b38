/* json.h — the one JSON writer.  Every --json report writes its values
 * through these, so a value of one kind looks the same in every command:
 *
 *   strings  valid UTF-8 (invalid bytes become U+FFFD), control characters
 *            as \u escapes: safe to print on a terminal
 *   missing  null, never "" or 0
 *   times    "2026-02-23T00:36:54.000Z": ISO 8601 with milliseconds; a
 *            log's own times as it wrote them (its zone is not applied)
 *   numbers  fixed decimals; NaN and infinities are null
 *   lines    1-based, as editors and grep -n count; none is null
 *
 * The writers emit values only; the caller writes keys and punctuation. */
#ifndef DDX_JSON_H
#define DDX_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* s as a JSON string; NULL is null. */
void json_str(FILE *f, const char *s);
/* s[0..n) as a JSON string; an empty or NULL s is null (a missing field). */
void json_str_or_null(FILE *f, const char *s, size_t n);
/* An array of n strings (NULL entries are null). */
void json_strs(FILE *f, char *const *v, size_t n);
/* x with the given number of decimals; NaN or infinite is null. */
void json_num(FILE *f, double x, int decimals);
/* A 0-based line index as its 1-based number; a negative index is null. */
void json_line(FILE *f, int64_t i);
/* ms since the epoch as an ISO 8601 time; TS_NONE is null. */
void json_time(FILE *f, int64_t ms);

#endif
