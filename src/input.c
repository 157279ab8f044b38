/* input.c — reading a log (file, pipe, gzip, zstd) and splitting it into
 * clean lines.  See input.h. */
#include "input.h"

#include "prefix_record.h"

#include <ctype.h>
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Longest text before a line's first CR that can be a process label. */
#define LABEL_MAX 96
/* How much of the start of an input decides whether it is text. */
#define SNIFF_SIZE 65536
/* Smaller regular files are read, larger ones mapped: a read costs no
 * more for them, and a mapping each would hit the kernel's limit on
 * mappings (vm.max_map_count, 65530) with some 65,000 small logs. */
#define MAP_MIN ((off_t)1 << 20)

static const char *shown(const char *path)
{
	return strcmp(path, "-") == 0 ? "(stdin)" : path;
}

/* The compressed formats ddx reads, by their magic bytes: "gzip", "zstd",
 * or NULL. */
static const char *compression(const char *p, size_t n)
{
	if (n >= 2 && memcmp(p, "\x1f\x8b", 2) == 0)
		return "gzip";
	if (n >= 4 && memcmp(p, "\x28\xb5\x2f\xfd", 4) == 0)
		return "zstd";
	return NULL;
}

/* Binary data is not a log: an ELF file, /dev/urandom or /dev/zero would
 * otherwise produce millions of nonsense lines.  Judged on the first
 * SNIFF_SIZE bytes: a few NUL bytes or bad UTF-8 sequences are normal in
 * logs of crashed programs, a high share is not.  Returns why p is not a
 * log, or NULL. */
static const char *binary_reason(const char *p, size_t n)
{
	static const struct { const char *magic; size_t len; const char *why; } known[] = {
		{ "\177ELF", 4, "binary file (ELF executable), not a log" },
		{ "\xfd" "7zXZ", 5, "xz data, which ddx does not read (try 'xz -dc FILE | ddx ... -')" },
	};
	for (size_t k = 0; k < sizeof(known) / sizeof(known[0]); k++)
		if (n >= known[k].len && memcmp(p, known[k].magic, known[k].len) == 0)
			return known[k].why;
	if (n > SNIFF_SIZE)
		n = SNIFF_SIZE;
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
			/* A sequence cut by the window is not evidence. */
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

/* p (cap bytes, len of them used) cut to len: a buffer is grown in steps
 * of at least SNIFF_SIZE, and a command may hold thousands of small
 * inputs at once (`ddx templates` over a directory of tiny files). */
static char *fit(char *p, size_t cap, size_t len)
{
	return cap > len + 1 ? xrealloc(p, len + 1) : p;
}

/* Read all of fd into a malloc'd buffer, refusing more than max bytes.
 * Binary data is refused as soon as SNIFF_SIZE bytes are in, so that
 * /dev/zero or /dev/urandom fail at once rather than after max bytes. */
static int read_all(int fd, const char *path, size_t max, char **out, size_t *outlen)
{
	/* One byte more than max tells "exactly max" from "too large". */
	size_t cap = max < SNIFF_SIZE ? max + 1 : SNIFF_SIZE, len = 0;
	char *p = xmalloc(cap);
	int sniffed = 0;
	for (;;) {
		if (len == cap) {
			if (len > max) {
				free(p);
				return error("cannot read '%s': larger than %zu MiB, the most ddx holds in memory",
					     shown(path), max >> 20);
			}
			cap = cap > max / 2 ? max + 1 : cap * 2;
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
		if (!sniffed && len >= SNIFF_SIZE) {
			sniffed = 1;
			const char *why = compression(p, len) ? NULL : binary_reason(p, len);
			if (why) {
				free(p);
				return error("cannot read '%s': %s", shown(path), why);
			}
		}
	}
	*out = fit(p, cap, len);
	*outlen = len;
	return 0;
}

/* Decompressed bytes that the open inputs hold together.  Each input's
 * own limits (max, the ratio) leave many inputs together unbounded: a
 * hundred small bombs, each under the ratio's floor, would fill memory. */
static _Atomic size_t decompressed_total;

static int is_decompressed(const struct input *in)
{
	return in->kind && (strcmp(in->kind, "gzip") == 0 || strcmp(in->kind, "zstd") == 0);
}

/* The most the open inputs may hold decompressed together, into *out:
 * $DDX_MAX_DECOMPRESSED (bytes, or with a K, M, G or T suffix: powers of
 * 1024), else INPUT_MAX_DECOMPRESSED.  -1 after an error for a value
 * that is none of these. */
static int decompressed_max(size_t *out)
{
	const char *v = getenv("DDX_MAX_DECOMPRESSED");
	if (!v || !*v) {
		*out = INPUT_MAX_DECOMPRESSED;
		return 0;
	}
	char *end;
	errno = 0;
	unsigned long long n = strtoull(v, &end, 10);
	static const char units[] = "KMGT";
	const char *u = *end ? strchr(units, *end & ~0x20) : NULL;
	int shift = u ? 10 * (int)(u - units + 1) : 0;
	if (!isdigit((unsigned char)*v) || errno || (*end && (!u || end[1])) ||
	    (shift && n > (SIZE_MAX >> shift)) || n > SIZE_MAX)
		return error("invalid DDX_MAX_DECOMPRESSED '%s' (expected a size such as 8G or 512M)", v);
	*out = (size_t)n << shift;
	return 0;
}

/* Why a decompression stopped where it did. */
enum { LIMIT_MEMORY, LIMIT_RATIO, LIMIT_TOTAL };

struct limit {
	size_t n;       /* the most this input may decompress to */
	int why;        /* which limit n is */
	size_t total;   /* decompressed_max() */
};

/* The most a compressed input of csize bytes may expand to: max, the
 * ratio past its floor, and what the other open inputs leave of total. */
static struct limit expand_limit(size_t csize, size_t max, size_t total)
{
	size_t r = csize > SIZE_MAX / INPUT_MAX_RATIO ? SIZE_MAX : csize * INPUT_MAX_RATIO;
	if (r < INPUT_RATIO_FLOOR)
		r = INPUT_RATIO_FLOOR;
	size_t held = atomic_load(&decompressed_total);
	size_t left = total > held ? total - held : 0;
	struct limit l = { max, LIMIT_MEMORY, total };
	if (r < l.n)
		l.n = r, l.why = LIMIT_RATIO;
	if (left < l.n)
		l.n = left, l.why = LIMIT_TOTAL;
	return l;
}

/* A first guess at the decompressed size: logs compress about 4-20x. */
static size_t initial_cap(size_t csize, size_t lim)
{
	size_t cap = csize < (SIZE_MAX - 65536) / 8 ? csize * 8 + 65536 : SIZE_MAX;
	return cap < lim ? cap : lim;
}

/* The error for output that reached lim. */
static int too_big(const char *path, struct limit lim)
{
	if (lim.why == LIMIT_MEMORY)
		return error("cannot read '%s': decompresses to more than %zu MiB, "
			     "the most ddx holds in memory", shown(path), lim.n >> 20);
	if (lim.why == LIMIT_TOTAL)
		return error("cannot read '%s': with the inputs before it, decompresses to more "
			     "than %zu MiB, the most ddx holds decompressed (DDX_MAX_DECOMPRESSED)",
			     shown(path), lim.total >> 20);
	return error("cannot read '%s': decompresses to more than %zu MiB, over %d times "
		     "its compressed size (a decompression bomb?)",
		     shown(path), lim.n >> 20, INPUT_MAX_RATIO);
}

static int gunzip(const char *path, const char *src, size_t n, struct limit lim,
		  char **out, size_t *outlen)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return error("cannot read '%s': zlib initialisation failed", shown(path));
	size_t cap = initial_cap(n, lim.n), len = 0;
	char *p = xmalloc(cap);
	z.next_in = (Bytef *)src;
	int ret = Z_OK;
	size_t left = n;
	for (;;) {
		if (len == cap) {
			if (cap >= lim.n) {
				inflateEnd(&z);
				free(p);
				return too_big(path, lim);
			}
			cap = cap * 2 > lim.n ? lim.n : cap * 2;
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
			if (z.avail_in >= 2 ? memcmp(z.next_in, "\x1f\x8b", 2) != 0 :
			    z.avail_in + left < 2) {
				inflateEnd(&z);
				free(p);
				return error("cannot read '%s': invalid gzip data (trailing "
					     "garbage after the compressed data)", shown(path));
			}
			inflateReset(&z);
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
	*out = fit(p, cap, len);
	*outlen = len;
	return 0;
}

static int unzstd(const char *path, const char *src, size_t n, struct limit lim,
		  char **out, size_t *outlen)
{
	ZSTD_DStream *zs = ZSTD_createDStream();
	if (!zs)
		return error("cannot read '%s': zstd initialisation failed", shown(path));
	ZSTD_initDStream(zs);
	size_t cap = initial_cap(n, lim.n), len = 0;
	char *p = xmalloc(cap);
	ZSTD_inBuffer ib = { src, n, 0 };
	size_t last = 0;
	for (;;) {
		if (len == cap) {
			if (cap >= lim.n) {
				ZSTD_freeDStream(zs);
				free(p);
				return too_big(path, lim);
			}
			cap = cap * 2 > lim.n ? lim.n : cap * 2;
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
	*out = fit(p, cap, len);
	*outlen = len;
	return 0;
}

/* Mapped inputs, for the SIGBUS handler.  A file that shrinks under its
 * mapping (logrotate's copytruncate, an editor rewriting it) raises
 * SIGBUS on the first read past its new end, wherever that read is: in
 * the scan, or in a report quoting a line.  What was read can no longer
 * be trusted, so ddx ends as it does when memory runs out, with exit 2
 * and a message naming the file, not with a crash.
 *
 * The handler may run on any thread at any time, so it only reads:
 * guards are never freed (a closed input's guard waits in free_guards
 * for the next mapping), the list only grows at its head, and the fields
 * it reads are atomic or set before the mapping is published.  The lock
 * orders the writers. */
struct input_guard {
	struct input_guard *next;
	struct input_guard *next_free;  /* under the lock */
	_Atomic(const char *) start;    /* NULL: free for the next mapping */
	_Atomic size_t len;
	char *msg;                      /* the error, escaped, with "\n" */
	size_t msglen;
};
static _Atomic(struct input_guard *) guards;
static struct input_guard *free_guards;
static pthread_mutex_t guards_lock = PTHREAD_MUTEX_INITIALIZER;
static int guards_armed;

static void on_sigbus(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	uintptr_t a = (uintptr_t)si->si_addr;
	for (struct input_guard *g = si->si_code == BUS_ADRERR ? atomic_load(&guards) : NULL;
	     g; g = g->next) {
		uintptr_t start = (uintptr_t)atomic_load(&g->start);
		if (start && a >= start && a - start < atomic_load(&g->len)) {
			ssize_t r = write(STDERR_FILENO, g->msg, g->msglen);
			(void)r;  /* nothing more can be done about a failure */
			_exit(EXIT_TROUBLE);
		}
	}
	/* Any other SIGBUS (a bug, or kill -BUS) ends ddx as it would have. */
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Watch in's mapping. */
static void guard(struct input *in)
{
	char *msg = NULL;
	size_t msglen = 0;
	FILE *f = open_memstream(&msg, &msglen);
	if (!f)
		die("out of memory");
	fputs("ddx: cannot read '", f);
	put_text(f, shown(in->path), strlen(shown(in->path)));
	fputs("': it shrank while being read (truncated or rewritten?)\n", f);
	fclose(f);
	pthread_mutex_lock(&guards_lock);
	if (!guards_armed) {
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = on_sigbus;
		sa.sa_flags = SA_SIGINFO;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGBUS, &sa, NULL);
		guards_armed = 1;
	}
	struct input_guard *g = free_guards;
	if (g) {
		free_guards = g->next_free;
	} else {
		g = xcalloc(1, sizeof(*g));
		g->next = atomic_load(&guards);
		atomic_store(&guards, g);
	}
	g->msg = msg;
	g->msglen = msglen;
	atomic_store(&g->len, in->size);
	atomic_store(&g->start, in->data);
	in->guard = g;
	pthread_mutex_unlock(&guards_lock);
}

/* Unmap or free in->data (unless borrowed). */
static void release(struct input *in)
{
	if (in->borrowed) {
		in->data = NULL;
		in->size = 0;
		in->borrowed = 0;
		return;
	}
	if (in->guard) {
		pthread_mutex_lock(&guards_lock);
		atomic_store(&in->guard->start, NULL);
		free(in->guard->msg);
		in->guard->msg = NULL;
		in->guard->next_free = free_guards;
		free_guards = in->guard;
		pthread_mutex_unlock(&guards_lock);
		in->guard = NULL;
	}
	if (in->data && in->mapped)
		munmap((void *)in->data, in->size);
	else
		free((void *)in->data);
	if (in->data && is_decompressed(in))
		atomic_fetch_sub(&decompressed_total, in->size);
	in->data = NULL;
	in->size = 0;
	in->mapped = 0;
}

/* Decompress what needs it, then refuse what is not text. */
static int finish(struct input *in, const char *path, size_t max)
{
	const char *kind = compression(in->data, in->size);
	if (kind) {
		size_t total = 0;
		if (decompressed_max(&total) < 0)
			return -1;
		struct limit lim = expand_limit(in->size, max, total);
		char *out = NULL;
		size_t outlen = 0;
		int r = strcmp(kind, "gzip") == 0 ?
			gunzip(path, in->data, in->size, lim, &out, &outlen) :
			unzstd(path, in->data, in->size, lim, &out, &outlen);
		if (r < 0)
			return -1;
		release(in);
		in->data = out;
		in->size = outlen;
		in->kind = kind;
		atomic_fetch_add(&decompressed_total, outlen);
	}
	const char *why = binary_reason(in->data, in->size);
	if (why)
		return error("cannot read '%s': %s", shown(path), why);
	return 0;
}

/* Open path without waiting, learn its type, then decide: a directory is
 * refused, and so is anything but a regular file when regular (standard
 * input, named "-", is a stream by choice); a FIFO is a stream, read once
 * a writer came, as cat would.  Opening blocks for a FIFO with no writer
 * or a serial line with no carrier, so the type comes first.  Returns the
 * descriptor (with st), or -1 after an error. */
static int open_typed(const char *path, int regular, struct stat *st)
{
	int std = strcmp(path, "-") == 0;
	int fd = std ? STDIN_FILENO : open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return error("cannot open '%s': %s", path, strerror(errno));
	const char *why = NULL, *not_reg = "";
	if (fstat(fd, st) < 0)
		why = strerror(errno);
	else if (S_ISDIR(st->st_mode))
		why = "Is a directory";
	else if (regular && !std && !S_ISREG(st->st_mode))
		why = file_type(st->st_mode), not_reg = ", not a regular file";
	if (why) {
		if (!std)
			close(fd);
		return error("cannot read '%s': %s%s", shown(path), why, not_reg);
	}
	if (std || S_ISREG(st->st_mode))
		return fd;
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	/* A FIFO opened before its writer reads as empty: wait for data
	 * or for a writer to come and go. */
	if (S_ISFIFO(st->st_mode))
		while (poll(&(struct pollfd){ .fd = fd, .events = POLLIN }, 1, -1) < 0 &&
		       errno == EINTR)
			;
	return fd;
}

static int open_input(struct input *in, const char *path, size_t max, int regular)
{
	memset(in, 0, sizeof(*in));
	if (!max)
		max = INPUT_MAX_SIZE;
	struct stat st;
	int fd = open_typed(path, regular, &st);
	if (fd < 0)
		return -1;
	in->path = xstrdup(path);
	in->mtime = S_ISREG(st.st_mode) ? st.st_mtime : time(NULL);
	in->kind = S_ISREG(st.st_mode) ? "file" : "pipe";
	int r = 0;
	if (S_ISREG(st.st_mode) && st.st_size >= MAP_MIN) {
		void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m != MAP_FAILED) {
			madvise(m, (size_t)st.st_size, MADV_SEQUENTIAL);
			in->data = m;
			in->size = (size_t)st.st_size;
			in->mapped = 1;
			guard(in);
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

int input_open(struct input *in, const char *path, size_t max)
{
	return open_input(in, path, max, 0);
}

int input_open_file(struct input *in, const char *path, size_t max)
{
	return open_input(in, path, max, 1);
}

int input_from_memory(struct input *in, const char *path, char *data, size_t size,
		      time_t mtime)
{
	memset(in, 0, sizeof(*in));
	in->path = xstrdup(path);
	in->data = data;
	in->size = size;
	in->mtime = mtime;
	in->kind = "file";
	if (finish(in, path, INPUT_MAX_SIZE) < 0) {
		input_close(in);
		return -1;
	}
	return 0;
}

void input_borrow(struct input *view, const struct input *in)
{
	*view = *in;
	view->path = xstrdup(in->path);
	view->guard = NULL;
	view->borrowed = 1;
}

void input_drop(const struct input *in, size_t end)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	end = end / page * page;
	if (in->mapped && end)
		madvise((void *)in->data, end, MADV_DONTNEED);
}

void input_origin_free(struct input_origin *o)
{
	if (!o)
		return;
	for (size_t i = 0; i < o->nfiles; i++)
		free(o->files[i]);
	free(o->files);
	free(o->file);
	free(o->line);
	free(o);
}

void input_close(struct input *in)
{
	if (!in->borrowed)
		input_origin_free(in->origin);
	release(in);
	free(in->path);
	memset(in, 0, sizeof(*in));
}

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
 * wrote to the same file).  Returns where the text after the last frame
 * that is followed by anything but blanks starts, or 0 if there is none,
 * and adds the frames dropped before it to *frames. */
static size_t pasted_frames_end(const char *s, size_t n, uint32_t *frames)
{
	size_t cut = 0;
	for (const char *p = s; (p = memchr(p, ']', (size_t)(s + n - p))); p++) {
		size_t k = (size_t)(p - s);
		if (!rate_bracket_end(s, k))
			continue;
		for (k++; k < n && (s[k] == ' ' || s[k] == '\t'); k++)
			;
		if (k < n) {
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

static void clean_line(const char *raw, size_t raw_len, int special,
		       struct line *ln, struct buf *scratch);

/* A JSON-lines record's message is a JSON string: escaped quotes,
 * \uXXXX for every non-ASCII character, "\r" between a bar's frames, a
 * "\n" at its end.  The line is read as the record with its message as
 * text (see record_unwrap), the message cleaned as any line is.  Returns
 * 0 for a line that is no such record.  Costs two allocations, for the
 * few logs written as records. */
static int unwrap_record(const char *raw, size_t raw_len, struct line *ln, struct buf *scratch)
{
	size_t e = raw_len;
	while (e > 0 && (raw[e - 1] == ' ' || raw[e - 1] == '\r'))
		e--;
	if (e < 2 || raw[e - 1] != '}' || raw_len > INPUT_LINE_MAX)
		return 0;
	struct buf rec = { 0 }, out = { 0 };
	size_t msg = record_unwrap(raw, e, &rec);
	if (!msg) {
		buf_free(&rec);
		return 0;
	}
	struct line sub;
	input_clean_line(rec.p + msg, rec.len - msg, &sub, scratch);
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
	return 1;
}

/* input_clean_line, told by scan_line whether raw holds special bytes. */
static void clean_line(const char *raw, size_t raw_len, int special,
		       struct line *ln, struct buf *scratch)
{
	if (raw_len > 1 && raw[0] == '{' && unwrap_record(raw, raw_len, ln, scratch))
		return;
	size_t b = 0, e = raw_len, label = 0;
	int in_scratch = 0;
	ln->flags = 0;
	ln->frames = 1;
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
		size_t cut = pasted_frames_end(s, n, &ln->frames);
		if (cut) {
			s += cut;
			n -= cut;
			ln->flags |= LINE_CLEANED;
		}
	}
	if (label) {
		if (in_scratch) {
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

int input_is_folder(const char *path)
{
	struct stat st;
	return strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int cmp_paths(const void *a, const void *b)
{
	return natcmp(*(char *const *)a, *(char *const *)b);
}

/* Append dir's files to *paths, recursing; depth bounds a loop of links. */
static int list_folder(const char *dir, int depth, char ***paths, size_t *n, size_t *cap)
{
	DIR *d = opendir(dir);
	if (!d)
		return error("cannot read folder '%s': %s", shown(dir), strerror(errno));
	char **mine = NULL;
	size_t nmine = 0, capmine = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			GROW(mine, capmine, nmine + 1);
			mine[nmine++] = xasprintf("%s%s%s", dir,
						  dir[strlen(dir) - 1] == '/' ? "" : "/", e->d_name);
		}
	closedir(d);
	/* Sorted per folder, so a folder's files stay together. */
	if (nmine)
		qsort(mine, nmine, sizeof(*mine), cmp_paths);
	int rc = 0;
	for (size_t i = 0; i < nmine; i++) {
		if (rc == 0 && input_is_folder(mine[i])) {
			if (depth >= 16)
				rc = error("cannot read folder '%s': nested too deep", shown(mine[i]));
			else
				rc = list_folder(mine[i], depth + 1, paths, n, cap);
			free(mine[i]);
		} else if (rc == 0) {
			GROW(*paths, *cap, *n + 1);
			(*paths)[(*n)++] = mine[i];
		} else {
			free(mine[i]);
		}
	}
	free(mine);
	return rc;
}

int input_list_folder(const char *dir, char ***paths, size_t *n)
{
	size_t cap = 0;
	*paths = NULL;
	*n = 0;
	if (list_folder(dir, 0, paths, n, &cap) == 0)
		return 0;
	for (size_t i = 0; i < *n; i++)
		free((*paths)[i]);
	free(*paths);
	*paths = NULL;
	*n = 0;
	return -1;
}
