/* prefix_types.h — what a line's header is read into: its level and the
 * struct header.  Apart from prefix.h so that prefix_scan.h and
 * prefix_record.h, which prefix.c is made of, need not include the
 * interface they are beneath. */
#ifndef DDX_PREFIX_TYPES_H
#define DDX_PREFIX_TYPES_H

#include <stdint.h>

#define TS_NONE INT64_MIN
/* header.format of a line no format matched. */
#define PREFIX_NONE 0xffff

enum level {
	LV_NONE = 0, LV_TRACE, LV_DEBUG, LV_INFO, LV_NOTICE,
	LV_WARN, LV_ERROR, LV_FATAL,
};

struct header {
	int64_t ts_ms;       /* ms since the epoch (UTC as written), or TS_NONE */
	uint8_t level;       /* enum level */
	uint8_t ts_no_year;  /* timestamp lacked a year: 1970 was assumed */
	uint16_t format;     /* which format matched (index into the table),
				or PREFIX_NONE */
	uint32_t msg_off;    /* message starts here within the line */
	uint32_t tag_off;    /* rank/process tag, e.g. "TP3", "VllmWorker rank=2" */
	uint32_t tag_len;    /* 0 when the line has none */
};

#endif
