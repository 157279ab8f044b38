/* prefix.h — recognising a line's header: timestamp, level and the
 * process/rank tag, and where the message starts.
 *
 * The header format is detected once per file from its first lines
 * (prefix_detect); each line is then parsed with that format first and the
 * others as a fallback, because real logs mix formats (an SGLang log holds
 * uvicorn lines and bare traceback lines). */
#ifndef DDX_PREFIX_H
#define DDX_PREFIX_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define TS_NONE INT64_MIN

enum level {
	LV_NONE = 0, LV_TRACE, LV_DEBUG, LV_INFO, LV_NOTICE,
	LV_WARN, LV_ERROR, LV_FATAL,
};
const char *level_name(int level);       /* "info", ... ; "" for LV_NONE */

struct header {
	int64_t ts_ms;       /* ms since the epoch (UTC as written), or TS_NONE */
	uint8_t level;       /* enum level */
	uint8_t ts_no_year;  /* timestamp lacked a year: 1970 was assumed */
	uint16_t format;     /* which format matched (index into the table) */
	uint32_t msg_off;    /* message starts here within the line */
	uint32_t tag_off;    /* rank/process tag, e.g. "TP3", "VllmWorker rank=2" */
	uint32_t tag_len;    /* 0 when the line has none */
};

/* Pick the header format that parses most of the n sample lines. */
int prefix_detect(const char *const *lines, const size_t *lens, size_t n);

/* Parse one line.  fmt is prefix_detect's answer (or -1 for none).  Always
 * fills h; a line with no recognised header has msg_off 0, TS_NONE and
 * LV_NONE.  Never reads past len. */
void prefix_parse(int fmt, const char *line, size_t len, struct header *h);

/* The year to give year-less timestamps: from other lines of the file that
 * had one, else from the file's modification time.  Adds the offset from
 * 1970 to ts_ms of a header with ts_no_year. */
int64_t prefix_year_offset_ms(int year);
int year_of_time(time_t t);

const char *prefix_format_name(int fmt);

#endif
