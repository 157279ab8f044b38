/* input.c — reading a log (file, pipe, gzip, zstd) within the limits on
 * memory, and listing a folder's files.  Its lines are input_clean.c's.
 * See input.h. */
#include "input.h"

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

#include "source.h"

/* How much of the start of an input decides whether it is text. */
#define SNIFF_SIZE 65536
/* Smaller regular files are read, larger ones mapped: a read costs no
 * more for them, and a mapping each would hit the kernel's limit on
 * mappings (vm.max_map_count, 65530) with some 65,000 small logs. */
#define MAP_MIN ((off_t)1 << 20)
/* Decompressed bytes made per call into zlib or zstd, at most: small
 * enough that the progress line moves, large enough to cost nothing. */
#define OUT_CHUNK ((size_t)4 << 20)

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

/* Read all of fd into a malloc'd buffer, refusing more than max bytes;
 * size is how much there is to read, for the progress line (0: unknown).
 * Binary data is refused as soon as SNIFF_SIZE bytes are in, so that
 * /dev/zero or /dev/urandom fail at once rather than after max bytes. */
static int read_all(int fd, const char *path, size_t max, size_t size, char **out,
		    size_t *outlen)
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
		progress_update(len, size);
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
		size_t room = cap - len < OUT_CHUNK ? cap - len : OUT_CHUNK;
		z.next_out = (Bytef *)p + len;
		z.avail_out = room > UINT32_MAX ? UINT32_MAX : (uInt)room;
		uInt before = z.avail_out;
		ret = inflate(&z, Z_NO_FLUSH);
		len += before - z.avail_out;
		progress_update(n - left - z.avail_in, n);
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
		ZSTD_outBuffer ob = { p + len, cap - len < OUT_CHUNK ? cap - len : OUT_CHUNK, 0 };
		last = ZSTD_decompressStream(zs, &ob, &ib);
		len += ob.pos;
		progress_update(ib.pos, n);
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
		progress_start("decompressing", shown(path));
		int r = strcmp(kind, "gzip") == 0 ?
			gunzip(path, in->data, in->size, lim, &out, &outlen) :
			unzstd(path, in->data, in->size, lim, &out, &outlen);
		progress_end();
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

/* A log that lives elsewhere (source.h), read whole through its tool,
 * then taken as text ddx gathered itself. */
static int open_remote(struct input *in, const char *path, size_t max)
{
	char *p = NULL;
	size_t n = 0;
	time_t mtime, btime;
	if (source_fetch(path, max, &p, &n, &mtime, &btime) < 0 ||
	    input_from_memory(in, path, p, n, mtime) < 0)
		return -1;
	in->btime = btime;
	return 0;
}

static int open_input(struct input *in, const char *path, size_t max, int regular)
{
	memset(in, 0, sizeof(*in));
	if (!max)
		max = INPUT_MAX_SIZE;
	if (source_is_remote(path))
		return open_remote(in, path, max);
	struct stat st;
	int fd = open_typed(path, regular, &st);
	if (fd < 0)
		return -1;
	in->path = xstrdup(path);
	in->mtime = S_ISREG(st.st_mode) ? st.st_mtime : time(NULL);
	struct statx sx;
	if (S_ISREG(st.st_mode) && statx(fd, "", AT_EMPTY_PATH, STATX_BTIME, &sx) == 0 &&
	    (sx.stx_mask & STATX_BTIME))
		in->btime = (time_t)sx.stx_btime.tv_sec;
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
		progress_start("reading", shown(path));
		r = read_all(fd, path, max, S_ISREG(st.st_mode) ? (size_t)st.st_size : 0, &p, &n);
		progress_end();
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

int input_is_folder(const char *path)
{
	struct stat st;
	if (strcmp(path, "-") != 0 && stat(path, &st) == 0)
		return S_ISDIR(st.st_mode);
	return source_is_remote(path) && source_is_folder(path);
}

static int cmp_paths(const void *a, const void *b)
{
	return natcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether the file at path is a regular file that begins as a page ddx
 * writes (INPUT_DDX_PAGE_HEAD): a report saved among a run's logs.  One
 * that cannot be read to tell is not: reading it as a log says why. */
static int is_ddx_page(const char *path)
{
	static const char head[] = INPUT_DDX_PAGE_HEAD;
	char got[sizeof(head) - 1];
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	struct stat st;
	ssize_t n = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? pread(fd, got, sizeof(got), 0) : -1;
	close(fd);
	return n == (ssize_t)sizeof(got) && memcmp(got, head, sizeof(got)) == 0;
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
		} else if (rc == 0 && is_ddx_page(mine[i])) {
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
	if (source_is_remote(dir))
		return source_list_folder(dir, paths, n);
	if (list_folder(dir, 0, paths, n, &cap) == 0)
		return 0;
	for (size_t i = 0; i < *n; i++)
		free((*paths)[i]);
	free(*paths);
	*paths = NULL;
	*n = 0;
	return -1;
}
