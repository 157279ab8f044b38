/* fuzz_input.c — decompression, binary detection and line cleaning (CR
 * frames, escapes, pasted progress frames, labels) on any bytes.  A
 * decompression bomb may expand to 256 MiB (INPUT_RATIO_FLOOR) here: slow
 * runs, not failures. */
#include "fuzz.h"
#include "input.h"

static void scan(const char *data, size_t size)
{
	struct buf scratch = { .max = INPUT_LINE_MAX + 256 };
	struct line ln;
	size_t pos = 0, lines = 0;
	unsigned sum = 0;
	while (input_next_line(data, size, &pos, &ln, &scratch)) {
		lines++;
		FUZZ_CHECK(ln.offset + ln.raw_len <= size);
		FUZZ_CHECK(pos > ln.offset && pos <= size);
		FUZZ_CHECK(ln.len <= INPUT_LINE_MAX && ln.frames >= 1);
		FUZZ_CHECK(fuzz_within(ln.text, ln.len, data + ln.offset, ln.raw_len) ||
			   (scratch.p && fuzz_within(ln.text, ln.len, scratch.p, scratch.len)));
		/* Clean text holds no line break, no CR and no escape. */
		FUZZ_CHECK(!memchr(ln.text, '\n', ln.len));
		FUZZ_CHECK(!memchr(ln.text, '\r', ln.len));
		FUZZ_CHECK(!memchr(ln.text, 0x1b, ln.len));
		for (size_t i = 0; i < ln.len; i++)
			sum += (unsigned char)ln.text[i];
	}
	FUZZ_CHECK(lines == input_count_lines(data, size));
	for (int n = 0; n <= 4; n++) {
		size_t starts[6];
		int k = input_split(data, size, n, starts);
		FUZZ_CHECK(k >= 0 && k <= (n > 1 ? n : 1));
		FUZZ_CHECK(starts[0] == 0 && starts[k] == size);
		for (int i = 1; i < k; i++)
			FUZZ_CHECK(starts[i] > starts[i - 1] && starts[i] < size &&
				   data[starts[i] - 1] == '\n');
	}
	buf_free(&scratch);
	(void)sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in;
	char *copy = xmalloc(size);
	if (size)
		memcpy(copy, data, size);
	/* Lines are cleaned whatever the verdict: a refused input is still
	 * bytes that input_next_line must survive. */
	if (input_from_memory(&in, "fuzz.log", copy, size, 0) == 0) {
		scan(in.data, in.size);
		input_close(&in);
	} else {
		scan((const char *)data, size);
	}
	return 0;
}
