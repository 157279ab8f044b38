/* fuzz_prefix.c — header detection and parsing, every format on every
 * line. */
#include "fuzz.h"
#include "prefix.h"

#define SAMPLE 200
#define YEAR_MS (366LL * 86400 * 1000)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_lines fl;
	fuzz_lines_split(&fl, data, size, SAMPLE);
	int nfmt = 0;
	while (strcmp(prefix_format_name(nfmt), "none") != 0)
		nfmt++;
	struct prefix_order order;
	int fmt = prefix_detect((const char *const *)fl.p, fl.len, fl.n, &order);
	FUZZ_CHECK(fmt >= -1 && fmt < nfmt);
	/* The order holds every format once, the detected one first. */
	FUZZ_CHECK(order.n == nfmt && (fmt < 0 || order.f[0] == fmt));
	for (size_t i = 0; i < fl.n; i++) {
		struct header h;
		prefix_parse_in(&order, fl.p[i], fl.len[i], &h);
		FUZZ_CHECK(h.msg_off <= fl.len[i]);
		for (int f = -1; f < nfmt; f++) {
			struct header h;
			size_t len = fl.len[i];
			prefix_parse(f, fl.p[i], len, &h);
			FUZZ_CHECK(h.msg_off <= len);
			FUZZ_CHECK(h.tag_off <= len && h.tag_len <= len - h.tag_off);
			FUZZ_CHECK(h.level <= LV_FATAL);
			FUZZ_CHECK(h.format == PREFIX_NONE || h.format < nfmt);
			if (h.ts_ms == TS_NONE)
				continue;
			/* A year-less time was read as 1970. */
			FUZZ_CHECK(!h.ts_no_year || (h.ts_ms >= 0 && h.ts_ms < YEAR_MS));
			char ts[PREFIX_TS_SIZE];
			prefix_format_ts(h.ts_ms, ts);
			FUZZ_CHECK(memchr(ts, '\0', sizeof(ts)));
		}
	}
	fuzz_lines_free(&fl);
	return 0;
}
