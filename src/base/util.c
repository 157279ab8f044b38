/* util.c — errors, memory, buffers, arenas, hashing and safe output. */
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Messages name paths and quote rule files, which may hold any bytes (a
 * file named by an attacker, a newline in a path): the whole message goes
 * through put_text, so it can neither drive the terminal nor fake a line
 * of output.  Formatted on the stack, since die() may report that memory
 * ran out. */
static void vreport(const char *fmt, va_list ap)
{
	char msg[8192];
	int n = vsnprintf(msg, sizeof(msg), fmt, ap);
	fflush(stdout);
	fputs("ddx: ", stderr);
	if (n > 0)
		put_text(stderr, msg, (size_t)n < sizeof(msg) ? (size_t)n : sizeof(msg) - 1);
	fputc('\n', stderr);
}

int error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(fmt, ap);
	va_end(ap);
	return -1;
}

void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(fmt, ap);
	va_end(ap);
	exit(EXIT_TROUBLE);
}

static void *check_alloc(void *p, size_t n)
{
	if (!p && n)
		die("out of memory (allocating %zu bytes)", n);
	return p;
}

void *xmalloc(size_t n) { return check_alloc(malloc(n ? n : 1), n); }
void *xcalloc(size_t n, size_t size) { return check_alloc(calloc(n ? n : 1, size ? size : 1), n * size); }
void *xrealloc(void *p, size_t n) { return check_alloc(realloc(p, n ? n : 1), n); }

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xmalloc(n), s, n);
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *s = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

void strv_push(char ***v, size_t *n, char *s)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = s;
}

void strv_free(char **v, size_t n)
{
	for (size_t k = 0; v && k < n; k++)
		free(v[k]);
	free(v);
}

void grow_array(void **p, size_t *cap, size_t need, size_t sz)
{
	if (need <= *cap)
		return;
	size_t ncap = *cap ? *cap : 16;
	while (ncap < need)
		ncap *= 2;
	if (ncap > SIZE_MAX / sz)
		die("out of memory (array of %zu elements)", ncap);
	*p = xrealloc(*p, ncap * sz);
	*cap = ncap;
}

int buf_reserve(struct buf *b, size_t n)
{
	if (b->max && (n > b->max || b->len > b->max - n))
		return -1;
	size_t need = b->len + n + 1;
	if (need > b->cap) {
		size_t ncap = b->cap ? b->cap : 64;
		while (ncap < need)
			ncap *= 2;
		b->p = xrealloc(b->p, ncap);
		b->cap = ncap;
	}
	return 0;
}

int buf_append(struct buf *b, const void *s, size_t n)
{
	if (buf_reserve(b, n) < 0)
		return -1;
	if (n)
		memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
	return 0;
}

int buf_putc(struct buf *b, char c)
{
	return buf_append(b, &c, 1);
}

int buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || buf_reserve(b, (size_t)n) < 0)
		return -1;
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
	return 0;
}

void buf_reset(struct buf *b)
{
	b->len = 0;
	if (b->p)
		b->p[0] = '\0';
}

void buf_free(struct buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

/* Arena blocks are chained; a request larger than the block size gets a
 * block of its own so huge lines do not waste a standard block. */
struct arena_block {
	struct arena_block *next;
	size_t used, size;
	max_align_t data[];
};

#define ARENA_BLOCK (64 * 1024)

void *arena_alloc(struct arena *a, size_t n)
{
	n = (n + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
	struct arena_block *b = a->head;
	if (!b || b->size - b->used < n) {
		size_t size = n > ARENA_BLOCK ? n : ARENA_BLOCK;
		/* Zeroed: PCRE2's JIT reads template texts a word at a time,
		 * past their NUL, and must find defined bytes there (the
		 * results do not depend on them; valgrind cannot know). */
		b = xcalloc(1, sizeof(*b) + size);
		b->size = size;
		b->used = 0;
		if (a->head && n > ARENA_BLOCK) {
			/* Keep the current block in front: it still has room. */
			b->next = a->head->next;
			a->head->next = b;
		} else {
			b->next = a->head;
			a->head = b;
		}
	}
	void *p = (char *)b->data + b->used;
	b->used += n;
	return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void arena_free(struct arena *a)
{
	struct arena_block *b = a->head;
	while (b) {
		struct arena_block *next = b->next;
		free(b);
		b = next;
	}
	a->head = NULL;
}

/* Multiply-and-fold mixing in the manner of wyhash: sixteen bytes per
 * 128-bit multiply, read with memcpy (the compiler makes them plain
 * loads). */
static inline uint64_t mix(uint64_t a, uint64_t b)
{
	__uint128_t r = (__uint128_t)a * b;
	return (uint64_t)r ^ (uint64_t)(r >> 64);
}

uint64_t hash_bytes(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t h = 0x9e3779b97f4a7c15ull ^ n, a, b;
	while (n > 16) {
		memcpy(&a, s, 8);
		memcpy(&b, s + 8, 8);
		h = mix(a ^ 0xa0761d6478bd642full, b ^ h);
		s += 16;
		n -= 16;
	}
	a = b = 0;
	if (n > 8) {
		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);   /* overlaps a: fine for a hash */
	} else {
		memcpy(&a, s, n);
	}
	return mix(mix(a ^ 0xa0761d6478bd642full, b ^ h), n ^ 0xe7037ed1a0b428dbull);
}

size_t utf8_seq_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	if (c < 0x80)
		return 1;
	size_t len;
	unsigned min;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2, min = 0x80;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, min = 0x800;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, min = 0x10000;
	else
		return 0;
	if (n < len)
		return 0;
	unsigned cp = c & (0x3f >> (len - 1));
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

/* Whether the valid UTF-8 sequence u[0..len) is a character that must
 * never reach a terminal or a page as itself, and which: a C1 control
 * (U+0080..U+009F), which acts like ESC on some terminals, or a
 * bidirectional embedding, override or isolate (U+202A..U+202E,
 * U+2066..U+2069), which reorders the text after it so that a forged
 * line reads as something else.  0 for any other character. */
static unsigned hidden_char(const unsigned char *u, size_t len)
{
	unsigned cp = 0;
	if (len == 2)
		cp = (u[0] & 0x1fu) << 6 | (u[1] & 0x3fu);
	else if (len == 3)
		cp = (u[0] & 0x0fu) << 12 | (u[1] & 0x3fu) << 6 | (u[2] & 0x3fu);
	if ((cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) ||
	    (cp >= 0x2066 && cp <= 0x2069))
		return cp;
	return 0;
}

void put_text(FILE *f, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;
	while (i < n) {
		size_t run = i;
		/* Plain printable ASCII goes out in one fwrite. */
		while (run < n && u[run] >= 0x20 && u[run] < 0x7f)
			run++;
		if (run > i)
			fwrite(s + i, 1, run - i, f);
		i = run;
		if (i >= n)
			break;
		unsigned c = u[i];
		if (c == '\t') {
			fputc('\t', f);
			i++;
		} else if (c < 0x20 || c == 0x7f) {
			if (c == 0x1b)
				fputs("\\e", f);
			else
				fprintf(f, "\\x%02x", c);
			i++;
		} else {
			size_t len = utf8_seq_len(u + i, n - i);
			if (len && hidden_char(u + i, len)) {
				/* Shown as its bytes, as an invalid byte is. */
				for (size_t k = 0; k < len; k++)
					fprintf(f, "\\x%02x", u[i + k]);
				i += len;
			} else if (len) {
				fwrite(s + i, 1, len, f);
				i += len;
			} else {
				fprintf(f, "\\x%02x", c);
				i++;
			}
		}
	}
}

void put_text_padded(FILE *f, const char *s, size_t width)
{
	size_t n = strlen(s);
	put_text(f, s, n);
	for (; n < width; n++)
		fputc(' ', f);
}

void put_json_string(FILE *f, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	fputc('"', f);
	size_t i = 0;
	while (i < n) {
		size_t run = i;
		while (run < n && u[run] >= 0x20 && u[run] < 0x7f && u[run] != '"' && u[run] != '\\')
			run++;
		if (run > i)
			fwrite(s + i, 1, run - i, f);
		i = run;
		if (i >= n)
			break;
		unsigned c = u[i];
		if (c == '"' || c == '\\') {
			fputc('\\', f);
			fputc((int)c, f);
			i++;
		} else if (c == '\n') {
			fputs("\\n", f), i++;
		} else if (c == '\t') {
			fputs("\\t", f), i++;
		} else if (c == '\r') {
			fputs("\\r", f), i++;
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(f, "\\u%04x", c);
			i++;
		} else {
			size_t len = utf8_seq_len(u + i, n - i);
			unsigned h = len ? hidden_char(u + i, len) : 0;
			if (h) {
				/* Escaped as put_text does: JSON is often read
				 * on a terminal. */
				fprintf(f, "\\u%04x", h);
				i += len;
			} else if (len) {
				fwrite(s + i, 1, len, f);
				i += len;
			} else {
				fputs("\\ufffd", f);
				i++;
			}
		}
	}
	fputc('"', f);
}

double parse_duration(const char *s)
{
	char *end;
	double x = strtod(s, &end);
	if (end == s || !(x >= 0) || isinf(x))
		return -1;
	if (strcmp(end, "ms") == 0)
		return x / 1000;
	if (*end == '\0' || strcmp(end, "s") == 0)
		return x;
	if (strcmp(end, "m") == 0)
		return x * 60;
	if (strcmp(end, "h") == 0)
		return x * 3600;
	return -1;
}

void fmt_seconds(char *out, size_t cap, double s)
{
	if (isnan(s)) {
		/* Converting NaN to an integer is undefined. */
		snprintf(out, cap, "unknown");
		return;
	}
	/* Timestamps in a log can be centuries apart: count in 64 bits. */
	long long n = s < 0 ? 0 : s > 1e15 ? (long long)1e15 : (long long)s;
	if (s > 0 && s < 1)
		snprintf(out, cap, "%lld ms", (long long)(s * 1000 + 0.5));
	else if (s < 60)
		snprintf(out, cap, "%.*f s", s < 10 ? 1 : 0, s);
	else if (s < 3600)
		snprintf(out, cap, "%lldm%02llds", n / 60, n % 60);
	else if (s < 86400)
		snprintf(out, cap, "%lldh%02lldm", n / 3600, n % 3600 / 60);
	else
		snprintf(out, cap, "%lldd%02lldh", n / 86400, n % 86400 / 3600);
}

double wall_clock_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* One progress line at a time: the job that starts first (a folder's
 * files are read on several threads) owns it until it ends, and the
 * others run unseen. */
static struct {
	const char *verb, *what;
	int64_t start, last, delay;
	int shown, tty;
} prog;
static atomic_int prog_busy;
static _Thread_local int prog_mine;

void progress_start(const char *verb, const char *what)
{
	if (atomic_exchange(&prog_busy, 1))
		return;
	prog_mine = 1;
	prog.verb = verb;
	prog.what = what;
	prog.start = now_ms();
	prog.last = 0;
	/* $DDX_PROGRESS_DELAY, as git's GIT_PROGRESS_DELAY: the seconds before
	 * the line shows; a value that is no duration keeps the default. */
	const char *d = getenv("DDX_PROGRESS_DELAY");
	double sec = d && *d ? parse_duration(d) : -1;
	prog.delay = sec >= 0 ? (int64_t)(sec * 1000) : 1000;
	prog.shown = 0;
	prog.tty = isatty(STDERR_FILENO);
}

void progress_line(char *out, size_t cap, const char *verb, uint64_t done,
		   uint64_t total, int64_t ms)
{
	char d[16], t[16], r[24] = "";
	fmt_size(d, sizeof(d), done);
	if (ms > 0) {  /* no rate from no time */
		memcpy(r, ", ", 3);
		fmt_size(r + 2, sizeof(r) - 4, (uint64_t)((double)done * 1000 / (double)ms));
		strcat(r, "/s");
	}
	if (!total) {
		snprintf(out, cap, "%s %s%s", verb, d, r);
		return;
	}
	fmt_size(t, sizeof(t), total);
	unsigned pct = done >= total ? 100 : (unsigned)(100 * (double)done / (double)total);
	snprintf(out, cap, "%s %u%%, %s of %s%s", verb, pct, d, t, r);
}

void progress_update(uint64_t done, uint64_t total)
{
	if (!prog_mine || !prog.tty)
		return;
	int64_t t = now_ms();
	if (t - prog.start < prog.delay || (prog.shown && t - prog.last < 100))
		return;
	prog.last = t;
	prog.shown = 1;
	char line[128];
	progress_line(line, sizeof(line), prog.verb, done, total, t - prog.start);
	fputs("\r\033[K", stderr);
	put_text(stderr, prog.what, strlen(prog.what));
	fprintf(stderr, ": %s", line);
	fflush(stderr);
}

void progress_end(void)
{
	if (!prog_mine)
		return;
	if (prog.shown)
		fputs("\r\033[K", stderr);
	prog.shown = 0;
	prog_mine = 0;
	atomic_store(&prog_busy, 0);
}

void fmt_size(char *out, size_t cap, uint64_t n)
{
	static const char *const units[] = { "B", "kB", "MB", "GB", "TB" };
	double v = (double)n;
	int u = 0;
	while (v >= 1000 && u < 4) {
		v /= 1000;
		u++;
	}
	if (u == 0)
		snprintf(out, cap, "%llu B", (unsigned long long)n);
	else
		snprintf(out, cap, "%.*f %s", v < 10 ? 1 : 0, v, units[u]);
}

int natcmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
			char *ea, *eb;
			unsigned long long x = strtoull(a, &ea, 10), y = strtoull(b, &eb, 10);
			if (x != y)
				return x < y ? -1 : 1;
			a = ea, b = eb;
		} else if (*a != *b) {
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		} else {
			a++, b++;
		}
	}
	return (unsigned char)*a - (unsigned char)*b;
}

const char *file_type(unsigned mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return "a regular file";
	case S_IFDIR: return "a directory";
	case S_IFIFO: return "a FIFO";
	case S_IFCHR: return "a character device";
	case S_IFBLK: return "a block device";
	case S_IFSOCK: return "a socket";
	case S_IFLNK: return "a symbolic link";
	default: return "a special file";
	}
}

int contains_any(const char *s, const char *const *words)
{
	for (; *words; words++)
		if (strstr(s, *words))
			return 1;
	return 0;
}
