/* input_clean.c — splitting a log's bytes into lines and cleaning each:
 * CRs, progress-bar frames, ANSI escapes, JSON-lines records.  NUL bytes
 * and invalid UTF-8 are kept, for output to escape.  See input.h. */
#include "input.h"

#include "prefix.h"
#include "prefix_record.h"

#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Longest text before a line's first CR that can be a process label. */
#define LABEL_MAX 96

/* Length of the escape sequence at p[0] == ESC, parsed as a terminal does
 * (ECMA-48): CSI is ESC [, parameter and intermediate bytes, a final byte;
 * OSC, DCS, SOS, PM and APC are strings ended by BEL or ST (ESC \); any
 * other escape is ESC, intermediate bytes, a final byte.  A string that is
 * not terminated ends at the next ESC or at the end of the line; a
 * malformed sequence ends before the first byte that cannot belong to it,
 * so it never swallows text beyond what a terminal would. */
static size_t escape_len(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 1;
	if (n < 2)
		return n;
	if (p[1] == '[') {
		for (i = 2; i < n && p[i] >= 0x20 && p[i] <= 0x3f; i++)
			;
		return i < n && p[i] >= 0x40 && p[i] <= 0x7e ? i + 1 : i;
	}
	if (p[1] == ']' || p[1] == 'P' || p[1] == 'X' || p[1] == '^' || p[1] == '_') {
		for (i = 2; i < n; i++) {
			if (p[i] == '\a')
				return i + 1;
			if (p[i] == 0x1b)
				return i + 1 < n && p[i + 1] == '\\' ? i + 2 : i;
		}
		return n;
	}
	while (i < n && p[i] >= 0x20 && p[i] <= 0x2f)
		i++;
	return i < n && p[i] >= 0x30 && p[i] <= 0x7e ? i + 1 : i;
}

/* Whether s holds nothing a terminal would show: spaces, tabs and escape
 * sequences only. */
static int is_blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		if (s[i] == 0x1b)
			i += escape_len(s + i, n - i);
		else if (s[i] == ' ' || s[i] == '\t')
			i++;
		else
			return 0;
	}
	return 1;
}

/* tqdm and its kin redraw a progress bar by writing "\r" and the next
 * frame on the same line, so a terminal shows only the last frame.  Narrow
 * [*b, *e) to the last frame that is not blank (blank ones only erase),
 * without the spaces that pad it over a longer earlier frame, and count
 * the frames that are not blank. */
static void last_frame(const char *raw, size_t *b, size_t *e, uint32_t *frames)
{
	size_t start = *b, end = *e, kb = start, ke = start;
	uint32_t count = 0;
	for (;;) {
		const char *cr = memchr(raw + start, '\r', end - start);
		size_t stop = cr ? (size_t)(cr - raw) : end;
		if (!is_blank(raw + start, stop - start)) {
			kb = start;
			ke = stop;
			count++;
		}
		if (!cr)
			break;
		start = stop + 1;
	}
	while (ke > kb && (raw[ke - 1] == ' ' || raw[ke - 1] == '\t'))
		ke--;
	*b = kb;
	*e = ke;
	*frames = count ? count : 1;
}

/* Append s without its escape sequences to out. */
static void strip_escapes(const char *s, size_t n, struct buf *out)
{
	for (size_t i = 0; i < n;) {
		const char *esc = memchr(s + i, 0x1b, n - i);
		size_t stop = esc ? (size_t)(esc - s) : n;
		buf_append(out, s + i, stop - i);
		i = esc ? stop + escape_len(s + stop, n - stop) : n;
	}
}

/* Whether the text before a line's first CR is a label that a wrapper put
 * in front of each line of a child process, such as vLLM's "(EngineCore
 * pid=6890) " or torchrun's "[rank3]:", rather than a progress frame: the
 * terminal overwrote it, but it names who wrote the line.  s is free of
 * escapes. */
static int is_label(const char *s, size_t n)
{
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n < 3 || n > LABEL_MAX || memchr(s, '%', n))
		return 0;
	return (s[0] == '(' && s[n - 1] == ')') ||
	       (s[0] == '[' && (s[n - 1] == ']' || (s[n - 1] == ':' && s[n - 2] == ']')));
}

/* Whether the ']' at s[e] closes the bracket that ends every tqdm frame:
 * elapsed<remaining, then a rate in units/s or s/unit, as in "[00:00<?,
 * ?it/s]", "[00:29<06:47, 29.12s/it]" or "[00:25<00:00, 1.23s/profile]".
 * The walk back is short and stops at the previous ']', so a line costs
 * O(length). */
static int rate_bracket_end(const char *s, size_t e)
{
	int slash = 0;
	for (size_t j = e; j-- > 0 && e - j <= 64;) {
		switch (s[j]) {
		case '/':
			slash = 1;
			break;
		case ',':
			if (!slash)
				return 0;
			for (; j > 0 && e - j <= 64 && s[j] != '[' && s[j] != ']'; j--)
				if (s[j] == '<')
					return 1;
			return 0;
		case '[':
		case ']':
			return 0;
		}
	}
	return 0;
}

/* Progress frames can also be glued to each other, or to the next log
 * line, without a CR between them (a bar redrawn while another process
 * wrote to the same file, or a log whose CRs were stripped).  Returns
 * where the text after the last frame that is followed by anything but
 * blanks starts, or 0 if there is none, adds the frames dropped before it
 * to *frames, and puts the last of them into [*bar, *bar_end): the bar as
 * the terminal last drew it before that text. */
static size_t pasted_frames_end(const char *s, size_t n, uint32_t *frames, size_t *bar, size_t *bar_end)
{
	size_t cut = 0;
	for (const char *p = s; (p = memchr(p, ']', (size_t)(s + n - p))); p++) {
		size_t k = (size_t)(p - s);
		if (!rate_bracket_end(s, k))
			continue;
		size_t end = k + 1;
		for (k++; k < n && (s[k] == ' ' || s[k] == '\t'); k++)
			;
		if (k < n) {
			*bar = cut;
			*bar_end = end;
			cut = k;
			(*frames)++;
		}
	}
	return cut;
}

static int is_special(unsigned char c)
{
	return c == '\r' || c == 0x1b || c == '|';
}

/* The length of the line at s (up to its '\n', or n), and in *special
 * whether it holds a CR, an ESC or a '|', the bytes that may need
 * cleaning.  One pass instead of a memchr for each: most lines have none
 * of them, and the calls cost more than the bytes on lines of a hundred
 * bytes. */
static size_t scan_line(const char *s, size_t n, int *special)
{
	size_t i = 0;
	int sp = 0;
#ifdef __SSE2__
	const __m128i nl = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r'),
		      esc = _mm_set1_epi8(0x1b), bar = _mm_set1_epi8('|');
	for (; i + 16 <= n; i += 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)(s + i));
		unsigned end = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, nl));
		__m128i spec = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, cr),
							 _mm_cmpeq_epi8(x, esc)),
					    _mm_cmpeq_epi8(x, bar));
		unsigned m = (unsigned)_mm_movemask_epi8(spec);
		if (end) {
			*special = sp || (m & ((end & -end) - 1));   /* before the '\n' */
			return i + (size_t)__builtin_ctz(end);
		}
		sp |= m != 0;
	}
#endif
	for (; i < n && s[i] != '\n'; i++)
		sp |= is_special((unsigned char)s[i]);
	*special = sp;
	return i;
}

static void clean_text(const char *raw, size_t raw_len, int special,
		       struct line *ln, struct buf *scratch);

/* A record's message is a string of it: in JSON lines with escaped
 * quotes, \uXXXX for every non-ASCII character, "\r" between a bar's
 * frames, a "\n" at its end; in logfmt quoted, other fields after it.
 * The line is read as the record with its message as text, last (see
 * record_unwrap), what a capture put before the record (a CRI or docker
 * time) kept in front, the message cleaned as any line is.  Returns 0
 * for a line that is no such record.  Costs two allocations, for the few
 * logs written as records. */
static int unwrap_record(const char *raw, size_t raw_len, struct line *ln, struct buf *scratch)
{
	size_t e = raw_len;
	while (e > 0 && (raw[e - 1] == ' ' || raw[e - 1] == '\r'))
		e--;
	if (e < 2 || raw_len > INPUT_LINE_MAX)
		return 0;
	size_t b = raw[0] == '{' ? 0 : prefix_capture_len(raw, e);
	if (b >= e)
		return 0;
	/* The cheap tests: a JSON record is the rest of the line; a logfmt
	 * one starts with a key in lower case, or holds a quoted value and
	 * starts at a word before it (behind a syslog or journal header,
	 * which the input stage does not parse). */
	const char *quoted = NULL;
	int key = raw[b] >= 'a' && raw[b] <= 'z';
	if (raw[b] == '{' ? raw[e - 1] != '}' :
	    !(quoted = memmem(raw + b, e - b, "=\"", 2)) && !key)
		return 0;
	struct buf rec = { 0 }, out = { 0 };   /* rec is allocated only for a record */
	size_t msg = 0, w = b;
	for (; w < e && (w == b || (quoted && raw + w < quoted)); w++)
		if ((w == b || raw[w - 1] == ' ') && (msg = record_unwrap(raw + w, e - w, &rec)))
			break;
	if (!msg) {
		buf_free(&rec);   /* a record that did not read as one again */
		return 0;
	}
	struct line sub;
	int special;
	scan_line(rec.p + msg, rec.len - msg, &special);
	clean_text(rec.p + msg, rec.len - msg, special, &sub, scratch);   /* once: no record in it */
	buf_append(&out, raw, w);
	buf_append(&out, rec.p, msg);
	buf_append(&out, sub.text, sub.len);
	buf_reset(scratch);
	buf_append(scratch, out.p, out.len);
	buf_free(&rec);
	buf_free(&out);
	ln->text = scratch->p;
	ln->len = (uint32_t)scratch->len;
	ln->frames = sub.frames;
	ln->flags = sub.flags | LINE_CLEANED;
	ln->raw_len = raw_len;
	ln->bar = NULL;
	ln->bar_len = 0;
	return 1;
}

/* input_clean_line but for records, told by scan_line whether raw holds
 * special bytes. */
static void clean_text(const char *raw, size_t raw_len, int special,
		       struct line *ln, struct buf *scratch)
{
	size_t b = 0, e = raw_len, label = 0;
	int in_scratch = 0;
	ln->flags = 0;
	ln->frames = 1;
	ln->bar = NULL;
	ln->bar_len = 0;
	ln->raw_len = raw_len;
	while (e > 0 && raw[e - 1] == '\r')
		e--;
	buf_reset(scratch);
	const char *cr = e && special ? memchr(raw, '\r', e) : NULL;
	if (cr) {
		size_t lead = (size_t)(cr - raw);
		last_frame(raw, &b, &e, &ln->frames);
		ln->flags |= LINE_CLEANED;
		/* A label goes first in scratch, the frame after it. */
		if (b > lead && lead > 0 && lead <= 2 * LABEL_MAX) {
			strip_escapes(raw, lead, scratch);
			if (is_label(scratch->p, scratch->len)) {
				label = scratch->len;
				ln->frames--;
			} else {
				buf_reset(scratch);
			}
		}
	}
	if (e - b > INPUT_LINE_MAX) {
		e = b + INPUT_LINE_MAX;
		ln->flags |= LINE_CUT;
	}
	const char *s = raw + b;
	size_t n = e - b;
	if (n && special && memchr(s, 0x1b, n)) {
		strip_escapes(s, n, scratch);
		s = scratch->p + label;
		n = scratch->len - label;
		in_scratch = 1;
		ln->flags |= LINE_CLEANED;
	}
	if (n && special && memchr(s, '|', n)) {
		size_t bar = 0, bar_end = 0, cut = pasted_frames_end(s, n, &ln->frames, &bar, &bar_end);
		if (cut) {
			ln->bar = s + bar;
			ln->bar_len = (uint32_t)(bar_end - bar);
			s += cut;
			n -= cut;
			ln->flags |= LINE_CLEANED;
		}
	}
	if (label) {
		if (in_scratch) {
			ln->bar = NULL;   /* the move below writes over it */
			ln->bar_len = 0;
			memmove(scratch->p + label, s, n);
			scratch->len = label + n;
			scratch->p[scratch->len] = '\0';
		} else {
			buf_append(scratch, s, n);
		}
		s = scratch->p;
		n = scratch->len;
	}
	ln->text = s;
	ln->len = (uint32_t)n;
}

/* input_clean_line, told by scan_line whether raw holds special bytes. */
static void clean_line(const char *raw, size_t raw_len, int special,
		       struct line *ln, struct buf *scratch)
{
	if (raw_len <= 1 || !unwrap_record(raw, raw_len, ln, scratch))
		clean_text(raw, raw_len, special, ln, scratch);
}

void input_clean_line(const char *raw, size_t raw_len, struct line *ln, struct buf *scratch)
{
	int special;
	scan_line(raw, raw_len, &special);
	clean_line(raw, raw_len, special, ln, scratch);
}

int input_next_line(const char *data, size_t size, size_t *pos, struct line *ln, struct buf *scratch)
{
	size_t p = *pos;
	if (p >= size)
		return 0;
	int special;
	size_t end = p + scan_line(data + p, size - p, &special);
	clean_line(data + p, end - p, special, ln, scratch);
	ln->offset = p;
	*pos = end < size ? end + 1 : size;
	return 1;
}

int input_split(const char *data, size_t size, int n, size_t *starts)
{
	int k = 0;
	size_t prev = 0;
	starts[0] = 0;
	for (int i = 1; i < n; i++) {
		size_t at = size / (size_t)n * (size_t)i;
		if (at <= prev)
			continue;
		/* The first line start at or after at. */
		const char *nl = memchr(data + at - 1, '\n', size - at + 1);
		at = nl ? (size_t)(nl - data) + 1 : size;
		if (at > prev && at < size)
			starts[++k] = prev = at;
	}
	for (int i = k + 1; i <= (n > 1 ? n : 1); i++)
		starts[i] = size;
	return size ? k + 1 : 0;
}

size_t input_count_lines(const char *data, size_t size)
{
	size_t n = 0;
	const char *p = data, *end = data + size;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		n++;
		if (!nl)
			break;
		p = nl + 1;
	}
	return n;
}
