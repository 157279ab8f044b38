/* prefix.h — recognising a line's header: timestamp, level and the
 * process/rank tag, and where the message starts.
 *
 * The header format is detected once per file from its first lines
 * (prefix_detect); each line is then parsed with that format first and the
 * others as a fallback, because real logs mix formats (an SGLang log holds
 * uvicorn lines and bare traceback lines).
 *
 * Process prefixes that wrap another header are taken off first and give
 * the tag: vLLM's "(VllmWorker rank=2 pid=4711) " and torchrun's
 * "[rank3]:".  Tags are normalised so that the same process compares equal
 * across runs: vLLM's pid= and everything after it (Ray's ip=) is dropped,
 * so "(VllmWorker rank=2 pid=4711)" gives "VllmWorker rank=2" and
 * "(EngineCore_DP0 pid=812)" gives "EngineCore_DP0".  An SGLang header's
 * "[2025-03-08 12:29:29 DP0 TP3 EP3]" gives "DP0 TP3 EP3".  The outermost
 * tag wins.  A bracketed rank among the fields between a timestamp and
 * the level ("... 05:02:17,559 [rank3] INFO ...") is one too.
 * Components, thread names and pids of other formats are not tags: they
 * differ from line to line. */
#ifndef DDX_PREFIX_H
#define DDX_PREFIX_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "prefix_types.h"

const char *level_name(int level);       /* "info", ... ; "" for LV_NONE */

/* Pick the header format of a file from n sample lines: the format that
 * is the best fit (the first in the table that parses it) of most lines,
 * the earlier in the table on a tie; -1 when none parses any. */
/* The order in which to try formats on a file's lines. */
#define PREFIX_MAX_FORMATS 64
#define PREFIX_CLASSES 5     /* kinds of first byte: digit, upper, [, {, other */
struct prefix_order {
	uint8_t n;
	uint8_t f[PREFIX_MAX_FORMATS];
	/* f without the formats a line starting with a byte of class k
	 * cannot be in: a line is tried only against those. */
	uint8_t nk[PREFIX_CLASSES];
	uint8_t fk[PREFIX_CLASSES][PREFIX_MAX_FORMATS];
	/* Blanks in front of every line of the file (a log pasted as an
	 * indented block, or indented by the program that relayed it):
	 * where its lines start.  A line's own indentation beyond it stays
	 * in the message, so its frames and fields read as indented still. */
	uint8_t indent;
};
/* When order is not NULL it receives every format: those that parsed
 * sample lines first, most votes first, then the rest in table order.
 * Trying them in that order finds a line's format in one or two tries in
 * files that mix formats (vLLM startup lines, then millions of uvicorn
 * request lines). */
int prefix_detect(const char *const *lines, const size_t *lens, size_t n,
		  struct prefix_order *order);
/* Parse one line trying the formats of o in order (see prefix_parse). */
void prefix_parse_in(const struct prefix_order *o, const char *line, size_t len,
		     struct header *h);

/* Parse one line.  fmt is prefix_detect's answer (or -1 for none).  Always
 * fills h; a line with no recognised header has TS_NONE, LV_NONE and
 * msg_off 0, or just past a process prefix it had.  Never reads past len:
 * the line need not be NUL-terminated and may hold any bytes. */
void prefix_parse(int fmt, const char *line, size_t len, struct header *h);

/* The length of what a capture put before the line as its program wrote
 * it: compose's or kubectl's prefix, a capture's time (docker's,
 * kubectl's, the CRI format's with its stream and tag), 0 for none. */
size_t prefix_capture_len(const char *line, size_t len);

/* The offset to add to a ts_no_year timestamp (parsed as 1970) to move it
 * to the same month and day of `year`.  Exact for common years; for a leap
 * year it is exact from March 1 on, while January and February come out
 * one day late (one constant cannot follow both calendars), and a
 * year-less Feb 29 (read as 1970-03-01) comes out as March 1.  The year
 * comes from other lines of the file that had one, else from the file's
 * modification time (see log.c). */
int64_t prefix_year_offset_ms(int year);
/* The UTC calendar year of t. */
int year_of_time(time_t t);

/* Write ms as ISO-8601 UTC with milliseconds ("2025-03-08T12:29:29.000Z")
 * into buf, which holds at least PREFIX_TS_SIZE bytes. */
#define PREFIX_TS_SIZE 64
void prefix_format_ts(int64_t ms, char *buf);

/* The name of format fmt ("sglang", "vllm", ...); "none" when out of
 * range. */
const char *prefix_format_name(int fmt);

#endif
