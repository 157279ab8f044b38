/* util.h — the small things every stage needs: errors, memory, bounded
 * buffers, arenas, and output that is safe for untrusted log text. */
#ifndef DDX_UTIL_H
#define DDX_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit codes, as diff(1): 0 same/healthy, 1 diverged/hang, 2 error. */
enum { EXIT_SAME = 0, EXIT_DIVERGED = 1, EXIT_TROUBLE = 2 };

/* Print "ddx: MESSAGE" to stderr.  error() returns -1 so library code can
 * write `return error(...)`; die() exits 2 and is for the command layer. */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A broken invariant: a bug in ddx, never bad input. */
#define BUG(msg) die("BUG: %s:%d: %s", __FILE__, __LINE__, (msg))

/* Allocation that never returns NULL: out of memory ends the program. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* A malloc'd string formatted as printf would. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Append s (malloc'd, now owned by the array) to the array *v of *n. */
void strv_push(char ***v, size_t *n, char *s);
/* Free the n strings of v and v itself; v may be NULL. */
void strv_free(char **v, size_t n);
/* Grow *p (holding *cap elements of size sz) to hold at least need. */
void grow_array(void **p, size_t *cap, size_t need, size_t sz);
#define GROW(arr, cap, need) grow_array((void **)&(arr), &(cap), (need), sizeof(*(arr)))

/* A growable byte buffer with a ceiling (curl's dynbuf): appends past max
 * are refused (return -1) rather than growing without end. max 0 = no cap.
 * The contents are always NUL-terminated once anything was appended. */
struct buf {
	char *p;
	size_t len, cap, max;
};
int buf_append(struct buf *b, const void *s, size_t n);
/* Make room for n more bytes plus the terminating NUL. */
int buf_reserve(struct buf *b, size_t n);
int buf_putc(struct buf *b, char c);
int buf_printf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_reset(struct buf *b);
void buf_free(struct buf *b);

/* An arena: many small allocations, freed at once (one per log). */
struct arena_block;
struct arena {
	struct arena_block *head;
};
void *arena_alloc(struct arena *a, size_t n);
char *arena_strndup(struct arena *a, const char *s, size_t n);
void arena_free(struct arena *a);

/* 64-bit hash of a byte string (wyhash-style multiply-mix, fast on short
 * keys).  Not cryptographic: logs are untrusted, so tables that use it
 * must stay correct under collisions, only slower. */
uint64_t hash_bytes(const void *p, size_t n);

/* Write untrusted text to a terminal-bound stream: control characters and
 * escape sequences are shown as visible escapes (\e, \x07, ...), invalid
 * UTF-8 bytes, C1 controls and the bidirectional overrides and isolates
 * (U+202A..U+202E, U+2066..U+2069) as \xNN bytes, so a log line can
 * never move the cursor, set the title, write the clipboard or reorder
 * what is printed after it.  The one escaping writer: every string from
 * a file, a store or the command line goes through it (or
 * put_json_string, or report.c's HTML writer, which calls it). */
void put_text(FILE *f, const char *s, size_t n);
/* put_text, then blanks up to width bytes: a column of untrusted names. */
void put_text_padded(FILE *f, const char *s, size_t width);
/* Write s as a JSON string literal with quotes; invalid UTF-8 becomes
 * U+FFFD, so the output is valid JSON for any input bytes, and control
 * characters (C0, DEL and C1) and the bidirectional overrides put_text
 * escapes are \u escapes, so it is safe on a terminal too. */
void put_json_string(FILE *f, const char *s, size_t n);
/* Length of the valid UTF-8 sequence at s (1..4), or 0 if invalid. */
size_t utf8_seq_len(const unsigned char *s, size_t n);

/* Progress on stderr: shown only when stderr is a terminal and the job has
 * run for more than a second ($DDX_PROGRESS_DELAY), as "WHAT: VERB 42%, 1.1 GB of 2.6 GB,
 * 380 MB/s" (no percent and no total when the total is not known, as for
 * a pipe).  done and total are bytes; WHAT is written as text, so a
 * hostile file name cannot drive the terminal. */
void progress_start(const char *verb, const char *what);
void progress_update(uint64_t done, uint64_t total);
/* The part after "WHAT: ", for done of total bytes (0: unknown) in ms. */
void progress_line(char *out, size_t cap, const char *verb, uint64_t done,
		   uint64_t total, int64_t ms);
void progress_end(void);

/* A duration written "90", "90s", "500ms", "1.5m" or "2h": seconds, or -1
 * when s is none of these. */
double parse_duration(const char *s);

/* s seconds as "200 ms", "4.2 s", "42 s", "14m12s", "3h05m" or "2d04h" into out:
 * every duration ddx prints, in every command; NAN as "unknown". */
void fmt_seconds(char *out, size_t cap, double s);
/* n bytes as "512 B", "1.2 MB" or "34 GB" (powers of 1000) into out. */
void fmt_size(char *out, size_t cap, uint64_t n);

/* Natural order, as strcmp but runs of digits compare as numbers: "TP2"
 * before "TP10". */
int natcmp(const char *a, const char *b);

/* The type of a file of this st_mode, in words: "a FIFO", "a character
 * device", "a directory", ... */
const char *file_type(unsigned mode);

/* Whether s contains any of the NULL-terminated words. */
int contains_any(const char *s, const char *const *words);

/* The wall clock in seconds since the epoch, to compare with a file's
 * modification time. */
double wall_clock_s(void);
/* Monotonic clock in milliseconds, to measure how long something took. */
int64_t now_ms(void);

#endif
