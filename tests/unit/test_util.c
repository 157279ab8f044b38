/* Unit tests of the escaping writers: no string from a file reaches a
 * terminal or a JSON reader able to drive the one or mislead the other. */
#include <math.h>
#include <stdlib.h>

#include "test.h"
#include "util.h"

/* What put_text or put_json_string writes for s, malloc'd. */
static char *written(void (*put)(FILE *, const char *, size_t), const char *s)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	put(f, s, strlen(s));
	fclose(f);
	return out;
}

static void check_text(const char *s, const char *want)
{
	char *got = written(put_text, s);
	CHECK_STR(got, want);
	free(got);
}

static void check_json(const char *s, const char *want)
{
	char *got = written(put_json_string, s);
	CHECK_STR(got, want);
	free(got);
}

int main(void)
{
	check_text("plain\ttab", "plain\ttab");
	check_text("\x1b]52;c;aGk=\x07", "\\e]52;c;aGk=\\x07");
	check_text("caf\xc3\xa9 \xe2\x80\xaf", "caf\xc3\xa9 \xe2\x80\xaf");
	check_text("bad \xff byte", "bad \\xff byte");
	/* C1 CSI, and the bidirectional overrides and isolates. */
	check_text("\xc2\x9b" "2J", "\\xc2\\x9b2J");
	check_text("ok \xe2\x80\xae" "kaerb", "ok \\xe2\\x80\\xaekaerb");
	check_text("\xe2\x80\xaa\xe2\x80\xac\xe2\x81\xa6\xe2\x81\xa9",
		   "\\xe2\\x80\\xaa\\xe2\\x80\\xac\\xe2\\x81\\xa6\\xe2\\x81\\xa9");
	check_json("a\"b\\\n\x1b", "\"a\\\"b\\\\\\n\\u001b\"");
	check_json("\xc2\x9b \xe2\x80\xae \xe2\x81\xa7 \xe2\x80\xa9", "\"\\u009b \\u202e \\u2067 \xe2\x80\xa9\"");
	check_json("\xff", "\"\\ufffd\"");

	char d[48];
	fmt_seconds(d, sizeof(d), 0.25);
	CHECK_STR(d, "250 ms");
	fmt_seconds(d, sizeof(d), 3725);
	CHECK_STR(d, "1h02m");
	/* A gap between lines without timestamps is NAN. */
	fmt_seconds(d, sizeof(d), NAN);
	CHECK_STR(d, "unknown");

	/* The progress line says how far, of what, and how fast; with no
	 * total (a pipe) it says no percent, and it never claims more than
	 * all of it or divides by no time. */
	char p[128];
	progress_line(p, sizeof(p), "reading", 1100000000, 2600000000u, 2000);
	CHECK_STR(p, "reading 42%, 1.1 GB of 2.6 GB, 550 MB/s");
	progress_line(p, sizeof(p), "reading", 5000000, 0, 1000);
	CHECK_STR(p, "reading 5.0 MB, 5.0 MB/s");
	progress_line(p, sizeof(p), "decompressing", 300, 200, 0);
	CHECK_STR(p, "decompressing 100%, 300 B of 200 B");
	return test_report();
}
