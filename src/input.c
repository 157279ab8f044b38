/* input.c — reading a log (file, pipe, gzip, zstd) and splitting it into
 * clean lines.  See input.h. */
#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

static const char *shown(const char *path)
{
	return strcmp(path, "-") == 0 ? "(stdin)" : path;
}

/* Read all of fd into a malloc'd buffer, refusing more than max bytes. */
static int read_all(int fd, const char *path, size_t max, char **out, size_t *outlen)
{
	size_t cap = 1 << 16, len = 0;
	char *p = xmalloc(cap);
	for (;;) {
		if (len == cap) {
			if (cap >= max) {
				free(p);
				return error("cannot read '%s': input larger than %zu MiB",
					     shown(path), max >> 20);
			}
			cap = cap * 2 > max ? max : cap * 2;
			p = xrealloc(p, cap);
		}
		ssize_t r = read(fd, p + len, cap - len);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			free(p);
			return error("cannot read '%s': %s", shown(path), strerror(e));
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	*out = p;
	*outlen = len;
	return 0;
}

/* The most a compressed input of csize bytes may expand to. */
static size_t expand_limit(size_t csize, size_t max)
{
	size_t lim = csize > SIZE_MAX / INPUT_MAX_RATIO ? SIZE_MAX : csize * INPUT_MAX_RATIO;
	if (lim < INPUT_RATIO_FLOOR)
		lim = INPUT_RATIO_FLOOR;
	return lim < max ? lim : max;
}

static int too_big(const char *path, size_t lim)
{
	return error("cannot read '%s': decompresses to more than %zu MiB "
		     "(limit: %dx the compressed size, at most %zu MiB)",
		     shown(path), lim >> 20, INPUT_MAX_RATIO, (size_t)(INPUT_MAX_SIZE >> 20));
}

static int gunzip(const char *path, const char *src, size_t n, size_t max,
		  char **out, size_t *outlen)
{
	size_t lim = expand_limit(n, max);
	z_stream z;
	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return error("cannot read '%s': zlib initialisation failed", shown(path));
	size_t cap = n * 4 + 4096, len = 0;
	char *p = xmalloc(cap);
	z.next_in = (Bytef *)src;
	int ret = Z_OK;
	size_t left = n;
	for (;;) {
		if (len == cap) {
			if (cap >= lim) {
				inflateEnd(&z);
				free(p);
				return too_big(path, lim);
			}
			cap = cap * 2 > lim ? lim : cap * 2;
			p = xrealloc(p, cap);
		}
		/* avail_in is 32-bit: feed huge inputs in slices. */
		if (z.avail_in == 0 && left) {
			z.avail_in = left > UINT32_MAX ? UINT32_MAX : (uInt)left;
			left -= z.avail_in;
		}
		size_t room = cap - len;
		z.next_out = (Bytef *)p + len;
		z.avail_out = room > UINT32_MAX ? UINT32_MAX : (uInt)room;
		uInt before = z.avail_out;
		ret = inflate(&z, Z_NO_FLUSH);
		len += before - z.avail_out;
		if (ret == Z_STREAM_END) {
			/* Concatenated gzip members (as `cat a.gz b.gz`) are one file. */
			if (z.avail_in == 0 && left == 0)
				break;
			if (inflateReset(&z) != Z_OK)
				break;
			continue;
		}
		if (ret == Z_BUF_ERROR && z.avail_in == 0 && left == 0) {
			inflateEnd(&z);
			free(p);
			return error("cannot read '%s': truncated gzip data", shown(path));
		}
		if (ret != Z_OK && ret != Z_BUF_ERROR) {
			const char *msg = z.msg ? z.msg : "corrupt data";
			error("cannot read '%s': invalid gzip data (%s)", shown(path), msg);
			inflateEnd(&z);
			free(p);
			return -1;
		}
	}
	inflateEnd(&z);
	*out = p;
	*outlen = len;
	return 0;
}

static int unzstd(const char *path, const char *src, size_t n, size_t max,
		  char **out, size_t *outlen)
{
	size_t lim = expand_limit(n, max);
	ZSTD_DStream *zs = ZSTD_createDStream();
	if (!zs)
		return error("cannot read '%s': zstd initialisation failed", shown(path));
	ZSTD_initDStream(zs);
	size_t cap = n * 4 + 4096, len = 0;
	char *p = xmalloc(cap);
	ZSTD_inBuffer ib = { src, n, 0 };
	size_t last = 0;
	for (;;) {
		if (len == cap) {
			if (cap >= lim) {
				ZSTD_freeDStream(zs);
				free(p);
				return too_big(path, lim);
			}
			cap = cap * 2 > lim ? lim : cap * 2;
			p = xrealloc(p, cap);
		}
		ZSTD_outBuffer ob = { p + len, cap - len, 0 };
		last = ZSTD_decompressStream(zs, &ob, &ib);
		len += ob.pos;
		if (ZSTD_isError(last)) {
			error("cannot read '%s': invalid zstd data (%s)", shown(path),
			      ZSTD_getErrorName(last));
			ZSTD_freeDStream(zs);
			free(p);
			return -1;
		}
		if (ib.pos == ib.size && ob.pos < ob.size)
			break;  /* all input consumed and the decoder is not stalled on output */
	}
	ZSTD_freeDStream(zs);
	if (last != 0) {
		free(p);
		return error("cannot read '%s': truncated zstd data", shown(path));
	}
	*out = p;
	*outlen = len;
	return 0;
}

/* Binary data is not a log: an ELF file, /dev/urandom or /dev/zero would
 * otherwise produce millions of nonsense lines.  Judged on the first 64 KiB:
 * a few NUL bytes or bad UTF-8 sequences are normal in logs of crashed
 * programs, a high share is not. */
static const char *binary_reason(const char *p, size_t n)
{
	if (n >= 4 && memcmp(p, "\177ELF", 4) == 0)
		return "binary file (ELF executable), not a log";
	if (n > 65536)
		n = 65536;
	size_t nul = 0, bad = 0;
	const unsigned char *u = (const unsigned char *)p;
	for (size_t i = 0; i < n;) {
		if (u[i] == 0)
			nul++;
		if (u[i] < 0x80) {
			if (u[i] < 0x20 && u[i] != '\n' && u[i] != '\r' && u[i] != '\t' && u[i] != 0x1b)
				bad++;
			i++;
			continue;
		}
		size_t l = utf8_seq_len(u + i, n - i);
		if (l == 0) {
			/* A sequence cut by the 64 KiB window is not evidence. */
			if (n - i >= 4)
				bad++;
			i++;
		} else {
			i += l;
		}
	}
	if (n >= 64 && (nul * 10 > n || bad * 4 > n))
		return "binary file (mostly non-text bytes), not a log";
	return NULL;
}

static int finish(struct input *in, const char *path, size_t max)
{
	const unsigned char *m = (const unsigned char *)in->data;
	char *out = NULL;
	size_t outlen = 0;
	int r = 0;
	const char *kind = NULL;
	if (in->size >= 2 && m[0] == 0x1f && m[1] == 0x8b) {
		kind = "gzip";
		r = gunzip(path, in->data, in->size, max, &out, &outlen);
	} else if (in->size >= 4 && m[0] == 0x28 && m[1] == 0xb5 && m[2] == 0x2f && m[3] == 0xfd) {
		kind = "zstd";
		r = unzstd(path, in->data, in->size, max, &out, &outlen);
	}
	if (kind) {
		if (in->mapped)
			munmap((void *)in->data, in->size);
		else
			free((void *)in->data);
		in->data = NULL;
		in->size = 0;
		if (r < 0)
			return -1;
		in->data = out;
		in->size = outlen;
		in->mapped = 0;
		in->kind = kind;
	}
	const char *why = binary_reason(in->data, in->size);
	if (why)
		return error("cannot read '%s': %s", shown(path), why);
	return 0;
}

int input_open(struct input *in, const char *path, size_t max)
{
	memset(in, 0, sizeof(*in));
	if (!max)
		max = INPUT_MAX_SIZE;
	int fd = strcmp(path, "-") == 0 ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return error("cannot open '%s': %s", path, strerror(errno));
	struct stat st;
	if (fstat(fd, &st) < 0) {
		int e = errno;
		if (fd != STDIN_FILENO)
			close(fd);
		return error("cannot open '%s': %s", shown(path), strerror(e));
	}
	if (S_ISDIR(st.st_mode)) {
		if (fd != STDIN_FILENO)
			close(fd);
		return error("cannot read '%s': Is a directory", shown(path));
	}
	in->path = xstrdup(path);
	in->mtime = S_ISREG(st.st_mode) ? st.st_mtime : time(NULL);
	in->kind = S_ISREG(st.st_mode) ? "file" : "pipe";
	int r = 0;
	if (S_ISREG(st.st_mode) && st.st_size > 0) {
		void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m != MAP_FAILED) {
			madvise(m, (size_t)st.st_size, MADV_SEQUENTIAL);
			in->data = m;
			in->size = (size_t)st.st_size;
			in->mapped = 1;
		}
	}
	if (!in->mapped) {
		char *p = NULL;
		size_t n = 0;
		r = read_all(fd, path, max, &p, &n);
		if (r == 0) {
			in->data = p;
			in->size = n;
		}
	}
	if (fd != STDIN_FILENO)
		close(fd);
	if (r == 0)
		r = finish(in, path, max);
	if (r < 0) {
		input_close(in);
		return -1;
	}
	return 0;
}

void input_close(struct input *in)
{
	if (in->data) {
		if (in->mapped)
			munmap((void *)in->data, in->size);
		else
			free((void *)in->data);
	}
	free(in->path);
	memset(in, 0, sizeof(*in));
}

/* Length of the ANSI escape sequence at p[0] == ESC (CSI, OSC, or a
 * two-byte escape); an unterminated one runs to the end of the line. */
static size_t escape_len(const char *p, size_t n)
{
	if (n < 2)
		return n;
	if (p[1] == '[') {
		size_t i = 2;
		while (i < n && !((unsigned char)p[i] >= 0x40 && (unsigned char)p[i] <= 0x7e))
			i++;
		return i < n ? i + 1 : n;
	}
	if (p[1] == ']' || p[1] == 'P' || p[1] == '_' || p[1] == '^') {
		/* OSC/DCS/APC/PM end at BEL or ST (ESC \). */
		for (size_t i = 2; i < n; i++) {
			if (p[i] == '\a')
				return i + 1;
			if (p[i] == 0x1b && i + 1 < n && p[i + 1] == '\\')
				return i + 2;
		}
		return n;
	}
	return 2;
}

/* tqdm frames pasted into one line without their CR: a frame ends with a
 * rate bracket such as "[00:01<00:10, 3.1it/s]" or "[00:29<06:47,
 * 29.12s/it]".  Returns the position just past the last such bracket that
 * is followed by more text, or 0. */
static size_t last_pasted_frame_end(const char *s, size_t n, uint32_t *frames)
{
	size_t cut = 0;
	for (size_t i = 0; i + 1 < n; i++) {
		if (s[i] != ']')
			continue;
		/* Walk back to the '[' of this bracket, at most 48 bytes. */
		size_t j = i;
		while (j > 0 && i - j < 48 && s[j] != '[')
			j--;
		if (s[j] != '[' || !memchr(s + j, '<', i - j))
			continue;
		int rate = (i - j >= 4 && memcmp(s + i - 2, "/s", 2) == 0) ||
			   (i - j >= 5 && memcmp(s + i - 3, "/it", 3) == 0);
		if (rate) {
			cut = i + 1;
			(*frames)++;
		}
	}
	return cut;
}

static int is_blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t')
			return 0;
	return 1;
}

void input_clean_line(const char *raw, size_t raw_len, struct line *ln, struct buf *scratch)
{
	ln->flags = 0;
	ln->frames = 1;
	ln->raw_len = raw_len;
	size_t n = raw_len;
	if (n > INPUT_LINE_MAX) {
		n = INPUT_LINE_MAX;
		ln->flags |= LINE_CUT;
	}
	while (n > 0 && raw[n - 1] == '\r')
		n--;
	int esc = memchr(raw, 0x1b, n) != NULL;
	int cr = memchr(raw, '\r', n) != NULL;
	const char *s = raw;
	if (esc || cr) {
		/* Copy without escapes; each bare CR starts a new frame, and the
		 * line keeps the last frame that is not blank. */
		buf_reset(scratch);
		size_t frame = 0, keep = 0, keep_len = 0;
		for (size_t i = 0; i < n;) {
			if (raw[i] == 0x1b) {
				i += escape_len(raw + i, n - i);
				continue;
			}
			if (raw[i] == '\r') {
				if (!is_blank(scratch->p + frame, scratch->len - frame))
					keep = frame, keep_len = scratch->len - frame;
				ln->frames++;
				frame = scratch->len;
				i++;
				continue;
			}
			const char *stop = raw + n;
			const char *e = memchr(raw + i, 0x1b, n - i);
			const char *c = memchr(raw + i, '\r', n - i);
			if (e && e < stop)
				stop = e;
			if (c && c < stop)
				stop = c;
			buf_append(scratch, raw + i, (size_t)(stop - (raw + i)));
			i = (size_t)(stop - raw);
		}
		if (scratch->p == NULL)
			buf_append(scratch, "", 0);
		if (!is_blank(scratch->p + frame, scratch->len - frame))
			keep = frame, keep_len = scratch->len - frame;
		s = scratch->p + keep;
		n = keep_len;
		ln->flags |= LINE_CLEANED;
	}
	if (n > 2 && memchr(s, '|', n)) {
		size_t cut = last_pasted_frame_end(s, n, &ln->frames);
		while (cut < n && s[cut] == ' ')
			cut++;
		if (cut && cut < n) {
			s += cut;
			n -= cut;
		}
	}
	ln->text = s;
	ln->len = (uint32_t)n;
}

int input_next_line(const char *data, size_t size, size_t *pos, struct line *ln, struct buf *scratch)
{
	size_t p = *pos;
	if (p >= size)
		return 0;
	const char *nl = memchr(data + p, '\n', size - p);
	size_t end = nl ? (size_t)(nl - data) : size;
	input_clean_line(data + p, end - p, ln, scratch);
	ln->offset = p;
	*pos = nl ? end + 1 : size;
	return 1;
}

int input_split(const char *data, size_t size, int n, size_t *starts)
{
	int k = 0;
	size_t prev = 0;
	starts[0] = 0;
	for (int i = 1; i < n; i++) {
		size_t at = size / (size_t)n * (size_t)i;
		if (at < prev)
			at = prev;
		const char *nl = at < size ? memchr(data + at, '\n', size - at) : NULL;
		at = nl ? (size_t)(nl - data) + 1 : size;
		if (at > prev && at < size) {
			starts[++k] = at;
			prev = at;
		}
	}
	int pieces = size ? k + 1 : 0;
	for (int i = k + 1; i <= n; i++)
		starts[i] = size;
	return pieces;
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
