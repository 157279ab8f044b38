/* Unit tests of the input stage: line cleaning, splitting, counting, and
 * opening files, pipes and compressed data. */
#include <fcntl.h>
#include <malloc.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "input.h"
#include "prefix.h"
#include "test.h"

static struct buf scratch;

/* Clean a C string (which may not hold NULs) and return the line. */
static struct line clean(const char *raw)
{
	struct line ln;
	input_clean_line(raw, strlen(raw), &ln, &scratch);
	return ln;
}

#define CHECK_CLEAN(raw, want) do { \
	struct line cc_ln_ = clean(raw); \
	CHECK_MEM(cc_ln_.text, cc_ln_.len, (want)); \
} while (0)

static void test_plain(void)
{
	const char *raw = "[2026-08-01 23:38:33] INFO plain line";
	struct line ln = clean(raw);
	CHECK(ln.text == raw);          /* no copy */
	CHECK_INT(ln.len, strlen(raw));
	CHECK_INT(ln.frames, 1);
	CHECK_INT(ln.flags, 0);
	CHECK_INT(ln.raw_len, strlen(raw));

	ln = clean("");
	CHECK_INT(ln.len, 0);
	CHECK_INT(ln.frames, 1);
	CHECK_INT(ln.flags, 0);
}

static void test_trailing_cr(void)
{
	const char *raw = "windows line\r";
	struct line ln = clean(raw);
	CHECK(ln.text == raw);
	CHECK_MEM(ln.text, ln.len, "windows line");
	CHECK_INT(ln.flags, 0);
	CHECK_INT(ln.frames, 1);
	CHECK_INT(ln.raw_len, strlen(raw));
	CHECK_CLEAN("many CRs\r\r\r", "many CRs");
	CHECK_CLEAN("\r", "");
	CHECK_CLEAN("\r\r", "");
}

static void test_cr_frames(void)
{
	struct line ln = clean("\rLoading:  10%\rLoading:  50%\rLoading: 100%");
	CHECK_MEM(ln.text, ln.len, "Loading: 100%");
	CHECK_INT(ln.frames, 3);
	CHECK(ln.flags & LINE_CLEANED);
	CHECK(!(ln.flags & LINE_CUT));

	/* Frames written as "text\r" rather than "\rtext". */
	ln = clean("a 1/3\ra 2/3\ra 3/3\r");
	CHECK_MEM(ln.text, ln.len, "a 3/3");
	CHECK_INT(ln.frames, 3);

	/* Blank frames only erase: the last frame with text wins. */
	ln = clean("\rstep 1\rstep 2\r        ");
	CHECK_MEM(ln.text, ln.len, "step 2");
	CHECK_INT(ln.frames, 2);
	ln = clean("\rstep 1\r\033[K\r\033[A  ");
	CHECK_MEM(ln.text, ln.len, "step 1");
	CHECK_INT(ln.frames, 1);
	ln = clean("\r   \r\t\r");
	CHECK_INT(ln.len, 0);
	CHECK_INT(ln.frames, 1);

	/* tqdm pads a frame with spaces over a longer earlier one. */
	CHECK_CLEAN("\rx: 1/58 [01:54<1:48:53, 114.62s/it]\rx: 2/58 [02:02<48:20, 51.79s/it]   ",
		    "x: 2/58 [02:02<48:20, 51.79s/it]");

	/* The kept frame points into the input: no copy. */
	const char *raw = "\rA\rB";
	ln = clean(raw);
	CHECK(ln.text == raw + 3);

	/* A real SGLang capture line. */
	ln = clean("\r  0%|          | 0/58 [00:00<?, ?it/s]"
		   "\rCapturing num tokens (num_tokens=8192 avail_mem=12.06 GB):   0%|          | 0/58 [00:00<?, ?it/s]"
		   "\rCapturing num tokens (num_tokens=8192 avail_mem=12.06 GB):   2%|\xe2\x96\x8f         | 1/58 [01:54<1:48:53, 114.62s/it]"
		   "\rCapturing num tokens (num_tokens=7680 avail_mem=7.02 GB):   2%|\xe2\x96\x8f         | 1/58 [01:54<1:48:53, 114.62s/it] ");
	CHECK_MEM(ln.text, ln.len, "Capturing num tokens (num_tokens=7680 avail_mem=7.02 GB):   2%|\xe2\x96\x8f         | 1/58 [01:54<1:48:53, 114.62s/it]");
	CHECK_INT(ln.frames, 4);
}

static void test_pasted_frames(void)
{
	struct line ln = clean("  0%|          | 0/58 [00:00<?, ?it/s]Capturing batches (bs=4 avail_mem=2.60 GB):   0%|");
	CHECK_MEM(ln.text, ln.len, "Capturing batches (bs=4 avail_mem=2.60 GB):   0%|");
	CHECK_INT(ln.frames, 2);
	CHECK(ln.flags & LINE_CLEANED);
	/* The bar drawn before the glued text is progress: it is kept. */
	CHECK_MEM(ln.bar, ln.bar_len, "  0%|          | 0/58 [00:00<?, ?it/s]");

	/* A frame with a log line glued on: the log line is what counts. */
	ln = clean("\rMulti-thread loading shards:   7% Completed | 1/15 [00:29<06:47, 29.12s/it]"
		   "[2026-08-01 23:38:33] Parameter x not found");
	CHECK_MEM(ln.text, ln.len, "[2026-08-01 23:38:33] Parameter x not found");
	CHECK_INT(ln.frames, 2);
	ln = clean("  0%|    | 0/13 [00:00<?, ?it/s][2025-03-08 12:29:21 TP1] Capture cuda graph begin.");
	CHECK_MEM(ln.text, ln.len, "[2025-03-08 12:29:21 TP1] Capture cuda graph begin.");

	/* Several frames, and units other than it. */
	ln = clean("a: 0%| | 0/21 [00:00<?, ?profile/s]a: 5%| | 1/21 [00:01<00:25, 1.23s/profile]"
		   "a: 10%| | 2/21 [00:02<00:20, 1.11profile/s]2026-08-01 21:21:53,817 - INFO - done");
	CHECK_MEM(ln.text, ln.len, "2026-08-01 21:21:53,817 - INFO - done");
	CHECK_INT(ln.frames, 4);
	CHECK_MEM(ln.bar, ln.bar_len, "a: 10%| | 2/21 [00:02<00:20, 1.11profile/s]");

	/* The last frame, followed by blanks only, is kept whole. */
	ln = clean("b: 1/2 | [00:01<00:01, 1.0it/s]b: 2/2 | [00:02<00:00, 1.0it/s]   ");
	CHECK_MEM(ln.text, ln.len, "b: 2/2 | [00:02<00:00, 1.0it/s]   ");
	CHECK_INT(ln.frames, 2);
	ln = clean("c: 100%|#| 8/8 [00:02<00:00,  3.04it/s]");
	CHECK_MEM(ln.text, ln.len, "c: 100%|#| 8/8 [00:02<00:00,  3.04it/s]");
	CHECK_INT(ln.frames, 1);
	CHECK_INT(ln.flags, 0);
	CHECK(ln.bar == NULL && ln.bar_len == 0);

	/* Brackets that are not rate brackets are left alone. */
	const char *raw = "x | [00:01<00:02, done] [a/s] [1/it]tail [<, s]more";
	ln = clean(raw);
	CHECK(ln.text == raw);
	CHECK_INT(ln.len, strlen(raw));
	/* A pasted frame only counts where the line has a '|'. */
	CHECK_CLEAN("t [00:00<?, ?it/s]rest", "t [00:00<?, ?it/s]rest");
}

static void test_labels(void)
{
	struct line ln = clean("(EngineCore pid=6890) \rLoading:  50% Completed | 1/2 [00:01<00:01, 1.0it/s]"
			       "\rLoading: 100% Completed | 2/2 [00:02<00:00, 1.0it/s]");
	CHECK_MEM(ln.text, ln.len, "(EngineCore pid=6890) Loading: 100% Completed | 2/2 [00:02<00:00, 1.0it/s]");
	CHECK_INT(ln.frames, 2);

	/* Coloured label, escapes in the frame, and a log line glued on. */
	ln = clean("\033[1;36m(EngineCore_DP0 pid=7)\033[0;0m \r\033[32mTune:   0%|  | 0/21 [00:00<?, ?profile/s]\033[0m"
		   "2026-08-01 21:21:53,817 - INFO - skipped");
	CHECK_MEM(ln.text, ln.len, "(EngineCore_DP0 pid=7) 2026-08-01 21:21:53,817 - INFO - skipped");
	CHECK_INT(ln.frames, 2);

	CHECK_CLEAN("[rank3]:\rstep 1\rstep 2", "[rank3]:step 2");
	CHECK_CLEAN("[default0]: \rstep 1", "[default0]: step 1");
	/* Text before the CR that is not a label is an overwritten frame. */
	CHECK_CLEAN("Loading model\rdone", "done");
	CHECK_CLEAN("(50%) \rdone", "done");
	CHECK_CLEAN("(a)\r   ", "(a)");
	CHECK_CLEAN("(a)  b\rc", "c");
}

static void test_escapes(void)
{
	struct line ln = clean("\033[1;36m(VllmWorker rank=0 pid=1)\033[0;0m INFO 02-23 00:36:54 x");
	CHECK_MEM(ln.text, ln.len, "(VllmWorker rank=0 pid=1) INFO 02-23 00:36:54 x");
	CHECK(ln.flags & LINE_CLEANED);
	CHECK_INT(ln.frames, 1);
	CHECK_CLEAN("\033]0;title\007Hello", "Hello");
	CHECK_CLEAN("a\033]52;c;aGVsbG8=\033\\b", "ab");
	CHECK_CLEAN("\033]8;;http://x/\033\\link\033]8;;\033\\", "link");
	CHECK_CLEAN("\033P1$r0m\033\\dcs", "dcs");
	CHECK_CLEAN("abc\033[", "abc");
	CHECK_CLEAN("abc\033[12;3", "abc");
	CHECK_CLEAN("abc\033]0;unterminated title", "abc");
	CHECK_CLEAN("abc\033", "abc");
	CHECK_CLEAN("\033(Bcharset", "charset");
	CHECK_CLEAN("\0337saved\0338", "saved");
	CHECK_CLEAN("\033]0;t\033[31mred", "red");    /* ESC ends an OSC */
	CHECK_CLEAN("\033[3\xc3\xa9x", "\xc3\xa9x");    /* a malformed CSI ends early */
	CHECK_CLEAN("\033[?25l\033[2K\033[1Gtext\033[0m", "text");
	ln = clean("\033[0m");
	CHECK_INT(ln.len, 0);
	CHECK(ln.text != NULL);
}

static void test_nul_and_bad_utf8(void)
{
	const char raw[] = "a\0b\0\0c";
	struct line ln;
	input_clean_line(raw, sizeof(raw) - 1, &ln, &scratch);
	CHECK(ln.text == raw);
	CHECK_INT(ln.len, 6);
	CHECK_INT(ln.flags, 0);

	const char esc[] = "\033[1mx\0y\033[0m";
	input_clean_line(esc, sizeof(esc) - 1, &ln, &scratch);
	CHECK_INT(ln.len, 3);
	CHECK(memcmp(ln.text, "x\0y", 3) == 0);

	CHECK_CLEAN("\xff\xfe bad \xc3\x28 utf8 \xe2\x82", "\xff\xfe bad \xc3\x28 utf8 \xe2\x82");
	CHECK_CLEAN("\r\xff\r\xfe\x80", "\xfe\x80");
}

/* Records are read as their fields and their message: a JSON or logfmt
 * line is rewritten so that its message is the message value alone, as
 * text (unquoted, unescaped), with the fields that say what failed
 * (err=...) after it; the other fields go before it as header, kept,
 * not glued into the message.  Whatever a capture put before the record
 * is kept in front of it. */
static void test_records(void)
{
	static const struct {
		const char *raw, *text, *ts, *msg;
		int level;
	} cases[] = {
		/* logfmt: a quoted message, fields after it */
		{ "time=2024-05-01T10:00:00Z level=info msg=\"a b\" k=v",
		  "time=2024-05-01T10:00:00Z level=info k=v msg=a b",
		  "2024-05-01T10:00:00.000Z", "a b", LV_INFO },
		/* Ollama's slog: escapes undone, the error's detail kept with it */
		{ "time=2025-01-02T10:00:00.123Z level=ERROR source=server.go:123 msg=\"llama "
		  "\\\"runner\\\" terminated\" err=\"exit status 1\" port=1",
		  "time=2025-01-02T10:00:00.123Z level=ERROR source=server.go:123 port=1 msg=llama "
		  "\"runner\" terminated err=\"exit status 1\"",
		  "2025-01-02T10:00:00.123Z", "llama \"runner\" terminated err=\"exit status 1\"", LV_ERROR },
		/* a bare message before other fields */
		{ "level=warn msg=slow dur=3s", "level=warn dur=3s msg=slow", NULL, "slow", LV_WARN },
		/* already last and bare: as written */
		{ "level=warn dur=3s msg=slow down", "level=warn dur=3s msg=slow down", NULL,
		  "slow down", LV_WARN },
		/* an error field before the message goes after it */
		{ "level=error error=EOF msg=read", "level=error msg=read error=EOF", NULL,
		  "read error=EOF", LV_ERROR },
		/* an empty message */
		{ "level=info msg=\"\" k=1", "level=info k=1 msg=", NULL, "", LV_INFO },
		/* a message that starts with a quote reads as written */
		{ "level=info msg=\"\\\"q\\\" said\" k=1", "level=info msg=\"\\\"q\\\" said\" k=1", NULL,
		  "\\\"q\\\" said\" k=1", LV_INFO },
		/* the message pair was the only field of a role among the first
		 * three: moved last, the record would not read as one */
		{ "msg=\"x y\" a=1 b=2 c=3 level=info", "msg=\"x y\" a=1 b=2 c=3 level=info", NULL,
		  "x y\" a=1 b=2 c=3 level=info", LV_INFO },
		/* JSON lines: the message by name, other members kept as fields */
		{ "{\"@timestamp\":\"2024-05-01T10:00:00.123Z\", \"log.level\":\"error\","
		  "\"message\":\"boom x\",\"service\":\"api\"}",
		  "{\"@timestamp\":\"2024-05-01T10:00:00.123Z\",\"log.level\":\"error\","
		  "\"service\":\"api\"} boom x", "2024-05-01T10:00:00.123Z", "boom x", LV_ERROR },
		{ "{\"ts\":1714557600.5,\"lvl\":\"warn\",\"msg\":\"slow\",\"dur\":3}",
		  "{\"ts\":1714557600.5,\"lvl\":\"warn\",\"dur\":3} slow",
		  "2024-05-01T10:00:00.500Z", "slow", LV_WARN },
		{ "{\"ts\":\"2024-05-01T10:00:02Z\",\"severity\":\"INFO\",\"MESSAGE\":\"hi\",\"k\":1}",
		  "{\"ts\":\"2024-05-01T10:00:02Z\",\"severity\":\"INFO\",\"k\":1} hi",
		  "2024-05-01T10:00:02.000Z", "hi", LV_INFO },
		/* logrus sorts its keys: the error before the message */
		{ "{\"error\":\"EOF\",\"level\":\"error\",\"msg\":\"read\",\"time\":\"2024-05-01T10:00:03Z\"}",
		  "{\"level\":\"error\",\"time\":\"2024-05-01T10:00:03Z\"} read \"error\":\"EOF\"",
		  "2024-05-01T10:00:03.000Z", "read \"error\":\"EOF\"", LV_ERROR },
		{ "{\"timestamp\":\"2024-05-01T10:00:03Z\",\"level\":\"debug\",\"log\":\"x\\n\"}",
		  "{\"timestamp\":\"2024-05-01T10:00:03Z\",\"level\":\"debug\"} x",
		  "2024-05-01T10:00:03.000Z", "x", LV_DEBUG },
		/* behind the CRI prefix: the capture's stream and tag are header */
		{ "2024-05-01T10:00:00.123456789Z stdout F {\"level\":\"info\",\"msg\":\"up\",\"port\":80}",
		  "2024-05-01T10:00:00.123456789Z stdout F {\"level\":\"info\",\"port\":80} up",
		  "2024-05-01T10:00:00.123Z", "up", LV_INFO },
		{ "2024-05-01T10:00:00.5Z stderr F level=error msg=\"dial tcp: refused\" addr=x:1",
		  "2024-05-01T10:00:00.5Z stderr F level=error addr=x:1 msg=dial tcp: refused",
		  "2024-05-01T10:00:00.500Z", "dial tcp: refused", LV_ERROR },
		/* behind a journal header, which input does not parse */
		{ "May 17 19:43:06 h containerd[1]: time=\"2021-05-17T19:43:06Z\" level=info "
		  "msg=\"Stop CRI service\" k=v",
		  "May 17 19:43:06 h containerd[1]: time=\"2021-05-17T19:43:06Z\" level=info k=v "
		  "msg=Stop CRI service", "1970-05-17T19:43:06.000Z", "Stop CRI service", LV_INFO },
		/* not records */
		{ "Loading x=1 y=2", "Loading x=1 y=2", NULL, "Loading x=1 y=2", LV_NONE },
		{ "a=b c=\"d e\" no time or level", "a=b c=\"d e\" no time or level", NULL,
		  "a=b c=\"d e\" no time or level", LV_NONE },
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct line ln = clean(cases[k].raw);
		struct header h;
		char ts[PREFIX_TS_SIZE] = "";
		prefix_parse(-1, ln.text, ln.len, &h);
		if (h.ts_ms != TS_NONE)
			prefix_format_ts(h.ts_ms, ts);
		int ok = ln.len == strlen(cases[k].text) && memcmp(ln.text, cases[k].text, ln.len) == 0 &&
			 strcmp(ts, cases[k].ts ? cases[k].ts : "") == 0 && h.level == cases[k].level &&
			 ln.len - h.msg_off == strlen(cases[k].msg) &&
			 memcmp(ln.text + h.msg_off, cases[k].msg, ln.len - h.msg_off) == 0;
		CHECK(ok);
		if (!ok)
			fprintf(stderr, "  case %zu: text \"%.*s\" ts %s level %d msg \"%.*s\"\n", k,
				(int)ln.len, ln.text, ts, h.level, (int)(ln.len - h.msg_off),
				ln.text + h.msg_off);
	}
}

static void test_long_lines(void)
{
	size_t n = INPUT_LINE_MAX + 10;
	char *raw = xmalloc(n);
	memset(raw, 'x', n);
	struct line ln;
	input_clean_line(raw, n, &ln, &scratch);
	CHECK_INT(ln.len, INPUT_LINE_MAX);
	CHECK(ln.flags & LINE_CUT);
	CHECK_INT(ln.raw_len, n);
	CHECK(ln.text == raw);

	input_clean_line(raw, INPUT_LINE_MAX, &ln, &scratch);
	CHECK_INT(ln.len, INPUT_LINE_MAX);
	CHECK_INT(ln.flags, 0);

	/* A cut line that ends in CRs or an escape is still cut. */
	raw[INPUT_LINE_MAX - 1] = '\033';
	raw[INPUT_LINE_MAX] = '[';
	input_clean_line(raw, n, &ln, &scratch);
	CHECK_INT(ln.len, INPUT_LINE_MAX - 1);
	CHECK(ln.flags & LINE_CUT);
	free(raw);

	/* Progress frames past the cap: the last frame is kept, not cut. */
	size_t cap = 3u << 20, len = 0;
	raw = xmalloc(cap);
	int i = 0;
	while (len < cap - 64)
		len += (size_t)snprintf(raw + len, cap - len, "\rstep %d", ++i);
	input_clean_line(raw, len, &ln, &scratch);
	char want[32];
	snprintf(want, sizeof(want), "step %d", i);
	CHECK_MEM(ln.text, ln.len, want);
	CHECK_INT(ln.frames, i);
	CHECK(!(ln.flags & LINE_CUT));

	/* A last frame longer than the cap is cut. */
	memset(raw + 7, 'y', cap - 7);
	memcpy(raw, "\rfirst\r", 7);
	input_clean_line(raw, cap, &ln, &scratch);
	CHECK_INT(ln.len, INPUT_LINE_MAX);
	CHECK(ln.flags & LINE_CUT);
	CHECK(ln.text == raw + 7);

	/* Many ']' and escapes: must stay linear (runs in milliseconds). */
	for (size_t k = 0; k < cap; k++)
		raw[k] = "]|[/s,<\033"[k % 8];
	input_clean_line(raw, INPUT_LINE_MAX, &ln, &scratch);
	CHECK(ln.len <= INPUT_LINE_MAX);
	free(raw);
}

/* Random lines over the bytes that matter: whatever the input, the clean
 * text holds no CR and no ESC and is no longer than the raw line. */
static void test_random_lines(void)
{
	static const char alphabet[] = "\r\033[]|/s,<> ()%:;\\\a7Pa\xff\xc3";
	char raw[96];
	uint64_t x = 0x9e3779b97f4a7c15ull;
	int ok = 1;
	for (int t = 0; t < 200000 && ok; t++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		size_t n = x % sizeof(raw);
		for (size_t i = 0; i < n; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			raw[i] = alphabet[x % (sizeof(alphabet) - 1)];
		}
		struct line ln;
		input_clean_line(raw, n, &ln, &scratch);
		ok = ln.len <= n && (ln.len == 0 || (!memchr(ln.text, '\r', ln.len) &&
						     !memchr(ln.text, 0x1b, ln.len))) &&
		     ln.frames >= 1 && ln.raw_len == n;
		if (!ok)
			fprintf(stderr, "random line %d (%zu bytes)\n", t, n);
	}
	CHECK(ok);
}

/* Collect every line of data as "text|" into out. */
static size_t all_lines(const char *data, size_t size, struct buf *out)
{
	size_t pos = 0, n = 0, last = 0;
	struct line ln;
	buf_reset(out);
	while (input_next_line(data, size, &pos, &ln, &scratch)) {
		CHECK(ln.offset == last);
		buf_append(out, ln.text, ln.len);
		buf_putc(out, '|');
		last = pos;
		n++;
	}
	CHECK_INT(pos, size);
	return n;
}

static void test_next_line(void)
{
	struct buf out = { 0 };
	CHECK_INT(all_lines("", 0, &out), 0);
	CHECK_INT(all_lines(NULL, 0, &out), 0);
	const char *d = "one\ntwo\r\nthree\r\r\n\nlast without newline";
	CHECK_INT(all_lines(d, strlen(d), &out), 5);
	CHECK_STR(out.p, "one|two|three||last without newline|");
	d = "\n\n";
	CHECK_INT(all_lines(d, 2, &out), 2);
	CHECK_STR(out.p, "||");
	d = "a\rb\nc\033[0m\n";
	CHECK_INT(all_lines(d, strlen(d), &out), 2);
	CHECK_STR(out.p, "b|c|");

	size_t pos = 4;
	struct line ln;
	d = "one\ntwo";
	CHECK(input_next_line(d, 7, &pos, &ln, &scratch));
	CHECK_MEM(ln.text, ln.len, "two");
	CHECK_INT(ln.offset, 4);
	CHECK_INT(ln.raw_len, 3);
	CHECK_INT(pos, 7);
	CHECK(!input_next_line(d, 7, &pos, &ln, &scratch));
	buf_free(&out);
}

static void test_count_lines(void)
{
	CHECK_INT(input_count_lines("", 0), 0);
	CHECK_INT(input_count_lines("a", 1), 1);
	CHECK_INT(input_count_lines("a\n", 2), 1);
	CHECK_INT(input_count_lines("a\nb", 3), 2);
	CHECK_INT(input_count_lines("\n\n", 2), 2);
	CHECK_INT(input_count_lines("a\r\nb\r\n", 6), 2);
}

/* Check input_split's promises on data for n pieces. */
static void check_split(const char *data, size_t size, int n)
{
	size_t starts[66];
	int np = input_split(data, size, n, starts);
	int want_max = n < 1 ? 1 : n;
	int ok = np >= 0 && np <= want_max && (size == 0) == (np == 0) && starts[0] == 0;
	for (int k = 1; k <= np && ok; k++) {
		ok = starts[k] > starts[k - 1];
		if (k < np)
			ok = ok && data[starts[k] - 1] == '\n';
	}
	for (int k = np; k <= want_max && ok; k++)
		ok = k == 0 ? starts[0] == 0 : starts[k] == size;
	/* The pieces hold the same lines as the whole. */
	size_t lines = 0;
	for (int k = 0; k < np; k++)
		lines += input_count_lines(data + starts[k], starts[k + 1] - starts[k]);
	ok = ok && lines == input_count_lines(data, size);
	if (!ok)
		fprintf(stderr, "split of %zu bytes into %d pieces\n", size, n);
	CHECK(ok);
}

static void test_split(void)
{
	static const char *texts[] = {
		"", "a", "\n", "\n\n\n", "a\n", "ab\ncd\n", "no newline at all, just one long line",
		"x\ny\nz", "long first line here\n2\n3\n4\n5\n6\n7\n8\n",
		"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\n18\n19\n20\n",
	};
	for (size_t t = 0; t < sizeof(texts) / sizeof(texts[0]); t++)
		for (int n = 0; n <= 65; n++)
			if (n <= 64)
				check_split(texts[t], strlen(texts[t]), n);

	/* Pseudo-random text with lines of every length. */
	size_t size = 200000;
	char *d = xmalloc(size);
	uint64_t x = 88172645463325252ull;
	for (size_t i = 0; i < size; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		d[i] = x % 23 == 0 ? '\n' : 'a' + (char)(x % 26);
	}
	for (int n = 1; n <= 64; n++)
		check_split(d, size, n);
	size_t starts[9];
	CHECK_INT(input_split(d, size, 8, starts), 8);

	/* One newline only, near the end. */
	memset(d, 'q', size);
	d[size - 10] = '\n';
	for (int n = 1; n <= 64; n++)
		check_split(d, size, n);
	CHECK_INT(input_split(d, size, 8, starts), 2);
	free(d);
}

/* ---- input_open ---- */

static char dir[] = "/tmp/ddx-test-input-XXXXXX";
static char errfile[512];
static int saved_stderr = -1;

/* Send stderr to a file, to check error messages. */
static void capture(void)
{
	fflush(stderr);
	saved_stderr = dup(2);
	int fd = open(errfile, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	dup2(fd, 2);
	close(fd);
}

/* Restore stderr and return what was written (static storage). */
static const char *captured(void)
{
	static char text[1024];
	fflush(stderr);
	dup2(saved_stderr, 2);
	close(saved_stderr);
	FILE *f = fopen(errfile, "r");
	size_t n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;
	text[n] = '\0';
	if (f)
		fclose(f);
	return text;
}

static const char *path_of(const char *name)
{
	static char p[4][512];
	static int k;
	k = (k + 1) % 4;
	snprintf(p[k], sizeof(p[k]), "%s/%s", dir, name);
	return p[k];
}

static const char *write_file(const char *name, const void *data, size_t n)
{
	const char *p = path_of(name);
	FILE *f = fopen(p, "wb");
	if (!f || fwrite(data, 1, n, f) != n || fclose(f) != 0) {
		perror(p);
		exit(2);
	}
	return p;
}

static void gzip_into(struct buf *out, const char *s, size_t n)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
	size_t cap = deflateBound(&z, n) + 32;
	char *p = xmalloc(cap);
	z.next_in = (Bytef *)s;
	z.avail_in = (uInt)n;
	z.next_out = (Bytef *)p;
	z.avail_out = (uInt)cap;
	CHECK(deflate(&z, Z_FINISH) == Z_STREAM_END);
	buf_append(out, p, z.total_out);
	deflateEnd(&z);
	free(p);
}

static void zstd_into(struct buf *out, const char *s, size_t n)
{
	size_t cap = ZSTD_compressBound(n);
	char *p = xmalloc(cap);
	size_t len = ZSTD_compress(p, cap, s, n, 3);
	CHECK(!ZSTD_isError(len));
	buf_append(out, p, len);
	free(p);
}

#define CHECK_DATA(in, s) CHECK_MEM((in).data, (in).size, (s))

static void test_open_files(void)
{
	struct input in;
	const char *text = "line one\nline two\n";
	const char *p = write_file("plain.log", text, strlen(text));
	CHECK_INT(input_open(&in, p, 0), 0);
	CHECK_DATA(in, text);
	CHECK_STR(in.kind, "file");
	CHECK_INT(in.mapped, 0);  /* small files are read */
	CHECK_STR(in.path, p);
	CHECK(in.mtime > 0);
	/* Born when written, where the file system keeps a birth time
	 * (diagnose takes a file written at once for a copy). */
	CHECK(in.btime == 0 || llabs((long long)(in.mtime - in.btime)) <= 1);
	/* Held in a buffer of its size, not of the size it was read in:
	 * `ddx templates` may hold a hundred thousand small files. */
	CHECK(malloc_usable_size((void *)in.data) < 1024);
	input_close(&in);
	CHECK(in.data == NULL && in.path == NULL);
	input_close(&in);  /* closing twice is harmless */

	/* From 1 MiB on, files are mapped. */
	size_t bigsize = (size_t)1 << 20;
	char *big = xmalloc(bigsize);
	memset(big, 'x', bigsize);
	big[bigsize - 1] = '\n';
	p = write_file("big.log", big, bigsize);
	CHECK_INT(input_open(&in, p, 0), 0);
	CHECK(in.size == bigsize && memcmp(in.data, big, bigsize) == 0);
	CHECK_INT(in.mapped, 1);
	input_close(&in);
	free(big);

	p = write_file("empty.log", "", 0);
	CHECK_INT(input_open(&in, p, 0), 0);
	CHECK_INT(in.size, 0);
	CHECK_INT(input_count_lines(in.data, in.size), 0);
	input_close(&in);

	/* Compressed data is recognised by its magic, whatever the name. */
	struct buf z = { 0 };
	gzip_into(&z, text, strlen(text));
	p = write_file("gzipped.log", z.p, z.len);
	CHECK_INT(input_open(&in, p, 0), 0);
	CHECK_DATA(in, text);
	CHECK_STR(in.kind, "gzip");
	CHECK_INT(in.mapped, 0);
	CHECK(malloc_usable_size((void *)in.data) < 1024);
	input_close(&in);

	/* `cat a.gz b.gz` is one file. */
	gzip_into(&z, "third\n", 6);
	p = write_file("two-members.gz", z.p, z.len);
	CHECK_INT(input_open(&in, p, 0), 0);
	CHECK_DATA(in, "line one\nline two\nthird\n");
	input_close(&in);

	/* Truncated: every proper prefix of a member that still has the magic
	 * bytes fails, naming the file. */
	buf_reset(&z);
	gzip_into(&z, text, strlen(text));
	for (size_t cut = 2; cut < z.len; cut++) {
		p = write_file("cut.gz", z.p, cut);
		capture();
		int r = input_open(&in, p, 0);
		const char *msg = captured();
		if (r != -1 || in.data || in.path || !strstr(msg, "cut.gz': ")) {
			fprintf(stderr, "gzip cut at %zu of %zu: %d %s\n", cut, z.len, r, msg);
			CHECK(0);
		}
	}
	p = write_file("truncated.gz", z.p, z.len / 3);
	capture();
	CHECK_INT(input_open(&in, p, 0), -1);
	char want[1024];
	snprintf(want, sizeof(want), "ddx: cannot read '%s': truncated gzip data\n", p);
	CHECK_STR(captured(), want);

	p = write_file("garbage.gz", "\x1f\x8bthis is not deflate data at all", 33);
	capture();
	CHECK_INT(input_open(&in, p, 0), -1);
	snprintf(want, sizeof(want), "ddx: cannot read '%s': invalid gzip data", p);
	CHECK(strncmp(captured(), want, strlen(want)) == 0);

	buf_append(&z, "trailing junk", 13);
	p = write_file("junk-after.gz", z.p, z.len);
	capture();
	CHECK_INT(input_open(&in, p, 0), -1);
	CHECK(strstr(captured(), "junk-after.gz': invalid gzip data (trailing garbage") != NULL);
	z.len -= 12;
	p = write_file("one-byte-after.gz", z.p, z.len);
	capture();
	CHECK_INT(input_open(&in, p, 0), -1);
	CHECK(strstr(captured(), "one-byte-after.gz': invalid gzip data (trailing garbage") != NULL);

	buf_reset(&z);
	zstd_into(&z, text, strlen(text));
	zstd_into(&z, "third\n", 6);
	p = write_file("zstd.txt", z.p, z.len);
	CHECK_INT(input_open(&in, p, 0), 0);
	CHECK_DATA(in, "line one\nline two\nthird\n");
	CHECK_STR(in.kind, "zstd");
	input_close(&in);
	buf_reset(&z);
	zstd_into(&z, text, strlen(text));
	for (size_t cut = 4; cut < z.len; cut++) {
		p = write_file("cut.zst", z.p, cut);
		capture();
		int r = input_open(&in, p, 0);
		const char *msg = captured();
		if (r != -1 || in.data || !strstr(msg, "cut.zst': ")) {
			fprintf(stderr, "zstd cut at %zu of %zu: %d %s\n", cut, z.len, r, msg);
			CHECK(0);
		}
	}
	p = write_file("truncated.zst", z.p, z.len - 3);
	capture();
	CHECK_INT(input_open(&in, p, 0), -1);
	snprintf(want, sizeof(want), "ddx: cannot read '%s': truncated zstd data\n", p);
	CHECK_STR(captured(), want);

	/* Compressed empty input is an empty log. */
	buf_reset(&z);
	gzip_into(&z, "", 0);
	p = write_file("empty.gz", z.p, z.len);
	CHECK_INT(input_open(&in, p, 0), 0);
	CHECK_INT(in.size, 0);
	input_close(&in);
	buf_free(&z);
}

static void test_open_errors(void)
{
	struct input in;
	char want[1024];
	capture();
	CHECK_INT(input_open(&in, dir, 0), -1);
	snprintf(want, sizeof(want), "ddx: cannot read '%s': Is a directory\n", dir);
	CHECK_STR(captured(), want);
	CHECK(in.path == NULL);

	const char *p = path_of("nope.log");
	capture();
	CHECK_INT(input_open(&in, p, 0), -1);
	snprintf(want, sizeof(want), "ddx: cannot open '%s': No such file or directory\n", p);
	CHECK_STR(captured(), want);

	/* Binary data. */
	char bin[4096];
	memset(bin, 0, sizeof(bin));
	memcpy(bin, "\177ELF\2\1\1", 7);
	p = write_file("true", bin, sizeof(bin));
	capture();
	CHECK_INT(input_open(&in, p, 0), -1);
	snprintf(want, sizeof(want), "ddx: cannot read '%s': binary file (ELF executable), not a log\n", p);
	CHECK_STR(captured(), want);

	bin[0] = 'x';
	p = write_file("zeros", bin, sizeof(bin));
	capture();
	CHECK_INT(input_open(&in, p, 0), -1);
	CHECK(strstr(captured(), "binary file (mostly non-text bytes)") != NULL);

	uint64_t x = 1;
	for (size_t i = 0; i < sizeof(bin); i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		bin[i] = (char)(x >> 24);
	}
	bin[0] = 'x';
	p = write_file("random", bin, sizeof(bin));
	capture();
	CHECK_INT(input_open(&in, p, 0), -1);
	CHECK(strstr(captured(), "binary file") != NULL);

	p = write_file("x.xz", "\xfd" "7zXZ\0\0\4", 8);
	capture();
	CHECK_INT(input_open(&in, p, 0), -1);
	CHECK(strstr(captured(), "xz data") != NULL);

	/* A few NULs and bad bytes in a log are fine. */
	for (size_t i = 0; i < sizeof(bin); i++)
		bin[i] = i % 64 == 63 ? '\n' : 'a' + (char)(i % 26);
	memset(bin + 100, 0, 40);
	memcpy(bin + 300, "\xff\xfe\xc3", 3);
	p = write_file("some-nuls.log", bin, sizeof(bin));
	CHECK_INT(input_open(&in, p, 0), 0);
	CHECK_INT(in.size, sizeof(bin));
	input_close(&in);

	/* Decompressing past max_size is refused, and so is reading past it. */
	struct buf big = { 0 }, z = { 0 };
	for (int i = 0; big.len < (3u << 20); i++)
		buf_printf(&big, "line %d of a compressible log\n", i);
	gzip_into(&z, big.p, big.len);
	p = write_file("big.gz", z.p, z.len);
	capture();
	CHECK_INT(input_open(&in, p, 1u << 20), -1);
	CHECK(strstr(captured(), "decompresses to more than 1 MiB, the most ddx holds in memory\n") != NULL);
	CHECK_INT(input_open(&in, p, 4u << 20), 0);
	CHECK_INT(in.size, big.len);
	input_close(&in);
	buf_reset(&z);
	zstd_into(&z, big.p, big.len);
	p = write_file("big.zst", z.p, z.len);
	capture();
	CHECK_INT(input_open(&in, p, 1u << 20), -1);
	CHECK(strstr(captured(), "decompresses to more than 1 MiB, the most ddx holds in memory\n") != NULL);
	buf_free(&big);
	buf_free(&z);
}

/* Make fd 0 read the given bytes through a pipe (at most a pipe's
 * buffer) or, with file set, from that file. */
static int stdin_from(const char *data, size_t n, const char *file)
{
	int saved = dup(0), fd;
	if (file) {
		fd = open(file, O_RDONLY);
	} else {
		int pfd[2];
		if (pipe(pfd) < 0 || write(pfd[1], data, n) != (ssize_t)n)
			exit(2);
		close(pfd[1]);
		fd = pfd[0];
	}
	dup2(fd, 0);
	close(fd);
	return saved;
}

static void stdin_restore(int saved)
{
	dup2(saved, 0);
	close(saved);
}

static void test_open_stdin(void)
{
	struct input in;
	const char *text = "from\na pipe\n";
	int saved = stdin_from(text, strlen(text), NULL);
	CHECK_INT(input_open(&in, "-", 0), 0);
	CHECK_DATA(in, text);
	CHECK_STR(in.kind, "pipe");
	CHECK_STR(in.path, "-");
	input_close(&in);
	stdin_restore(saved);

	struct buf z = { 0 };
	gzip_into(&z, text, strlen(text));
	saved = stdin_from(z.p, z.len, NULL);
	CHECK_INT(input_open(&in, "-", 0), 0);
	CHECK_DATA(in, text);
	CHECK_STR(in.kind, "gzip");
	input_close(&in);
	stdin_restore(saved);

	saved = stdin_from(z.p, z.len / 2, NULL);
	capture();
	CHECK_INT(input_open(&in, "-", 0), -1);
	CHECK_STR(captured(), "ddx: cannot read '(stdin)': truncated gzip data\n");
	stdin_restore(saved);
	buf_free(&z);

	/* Larger than max_size through a pipe. */
	char many[8192];
	memset(many, 'a', sizeof(many));
	saved = stdin_from(many, sizeof(many), NULL);
	capture();
	CHECK_INT(input_open(&in, "-", 4096), -1);
	CHECK(strstr(captured(), "cannot read '(stdin)': larger than 0 MiB") != NULL);
	stdin_restore(saved);

	/* A redirected regular file is read as a file. */
	const char *p = write_file("stdin.log", text, strlen(text));
	saved = stdin_from(NULL, 0, p);
	CHECK_INT(input_open(&in, "-", 0), 0);
	CHECK_DATA(in, text);
	CHECK_STR(in.kind, "file");
	input_close(&in);
	stdin_restore(saved);

	/* An empty pipe is an empty log. */
	saved = stdin_from("", 0, NULL);
	CHECK_INT(input_open(&in, "-", 0), 0);
	CHECK_INT(in.size, 0);
	input_close(&in);
	stdin_restore(saved);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 2;
	}
	snprintf(errfile, sizeof(errfile), "%s/stderr", dir);
	test_plain();
	test_trailing_cr();
	test_cr_frames();
	test_pasted_frames();
	test_labels();
	test_escapes();
	test_nul_and_bad_utf8();
	test_records();
	test_long_lines();
	test_random_lines();
	test_next_line();
	test_count_lines();
	test_split();
	test_open_files();
	test_open_errors();
	test_open_stdin();
	buf_free(&scratch);
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", dir);
	return test_report();
}
