/* proc.c — the one reader of /proc in ddx (after htop's
 * LinuxProcessTable.c): every file is opened relative to a directory fd
 * for the root, so tests can point the root at a fixture tree; a process
 * that vanishes between readdir() and open() is skipped, never an error;
 * /proc/PID/stat is parsed from the last ')'.
 *
 * Fixture trees follow /proc's layout (PID/stat, status-free: ddx reads
 * stat, cmdline, wchan, syscall, fd/, fdinfo/, task/TID/stat; and
 * uptime, stat (btime), net/tcp, net/tcp6, net/unix, sys/kernel/arch)
 * with two conventions for what a fixture cannot be:
 *   - a DANGLING SYMLINK in place of a file or directory stands for one
 *     the kernel refused (EACCES).  Root is never refused by file
 *     permissions, and the files read this way are never symlinks in a
 *     real /proc, so this cannot fire on a live system;
 *   - an fd link that cannot be stat'ed is read by its text, so a
 *     dangling fd/N -> "socket:[1234]" is the socket with inode 1234
 *     (in a real /proc the stat succeeds unless the fd just closed).
 * A PID directory without a stat file is a process that vanished. */
#include "proc.h"

#include <ctype.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "input.h"
#include "json.h"
#include "logmeta.h"
#include "prefix.h"
#include "util.h"

/* ---- small helpers ---- */

static char *fmt_str(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *fmt_str(const char *fmt, ...)
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

static void push_str(char ***arr, size_t *n, char *s)
{
	*arr = xrealloc(*arr, (*n + 1) * sizeof(**arr));
	(*arr)[(*n)++] = s;
}

/* errno of a failed openat(dirfd, name), with the fixture convention: a
 * dangling symlink means "refused". */
static int open_errno(int dirfd, const char *name)
{
	int e = errno;
	struct stat st;
	if (e == ENOENT && fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISLNK(st.st_mode))
		return EACCES;
	return e;
}

static const char *errno_text(int e)
{
	switch (e) {
	case EACCES:
	case EPERM:
		return "permission denied";
	case ENOENT:
	case ESRCH:
		return "process gone";
	default:
		return strerror(e);
	}
}

/* Open dirfd/name as a directory; -errno on failure. */
static int open_dir_at(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -open_errno(dirfd, name) : fd;
}

/* Read dirfd/name into b (capped by b->max).  Returns 0 or -errno. */
static int slurp_at(int dirfd, const char *name, struct buf *b)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -open_errno(dirfd, name);
	buf_reset(b);
	char chunk[4096];
	ssize_t n;
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		if (buf_append(b, chunk, (size_t)n) < 0)
			break;
	int e = n < 0 ? errno : 0;
	close(fd);
	if (e)
		return -e;
	buf_append(b, "", 0);   /* b->p is a string even for an empty file */
	return 0;
}

/* Read a small file into buf (NUL-terminated, cut to cap - 1 bytes).
 * Returns its length or -errno. */
static ssize_t read_small(int dirfd, const char *name, char *buf, size_t cap)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -open_errno(dirfd, name);
	size_t len = 0;
	ssize_t n = 0;
	while (len < cap - 1 && (n = read(fd, buf + len, cap - 1 - len)) > 0)
		len += (size_t)n;
	int e = len == 0 && n < 0 ? errno : 0;
	close(fd);
	buf[len] = '\0';
	return e ? -e : (ssize_t)len;
}

/* A non-negative decimal number that is the whole of s, or -1. */
static int parse_num(const char *s)
{
	char *end;
	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	long v = strtol(s, &end, 10);
	return *end || errno || v > INT_MAX ? -1 : (int)v;
}

static int parse_pid(const char *s)
{
	int v = parse_num(s);
	return v == 0 ? -1 : v;
}

static double now_real(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double mtime_of(const struct stat *st)
{
	return (double)st->st_mtim.tv_sec + st->st_mtim.tv_nsec / 1e9;
}

/* ---- parsers (exposed for the unit tests) ---- */

int proc_parse_stat(const char *buf, size_t n, struct proc_stat *st)
{
	const char *open = memchr(buf, '(', n);
	const char *close = memrchr(buf, ')', n);
	if (!open || !close || close < open)
		return -1;
	memset(st, 0, sizeof(*st));
	size_t clen = (size_t)(close - open - 1);
	if (clen >= sizeof(st->comm))
		clen = sizeof(st->comm) - 1;
	memcpy(st->comm, open + 1, clen);
	char rest[1024];
	size_t rlen = n - (size_t)(close + 1 - buf);
	if (rlen >= sizeof(rest))
		rlen = sizeof(rest) - 1;
	memcpy(rest, close + 1, rlen);
	rest[rlen] = '\0';
	/* Fields 3..24 of proc(5): state ppid pgrp session tty tpgid flags
	 * minflt cminflt majflt cmajflt utime stime cutime cstime priority
	 * nice num_threads itrealvalue starttime vsize rss. */
	int k = sscanf(rest, " %c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu"
			     " %*d %*d %*d %*d %d %*d %llu %*u %ld",
		       &st->state, &st->ppid, &st->utime, &st->stime, &st->threads,
		       &st->starttime, &st->rss_pages);
	return k == 7 ? 0 : -1;
}

int proc_parse_syscall(const char *buf, long *nr, unsigned long args[6])
{
	memset(args, 0, 6 * sizeof(*args));
	while (*buf == ' ')
		buf++;
	if (strncmp(buf, "running", 7) == 0) {
		*nr = -2;
		return 0;
	}
	char *end;
	errno = 0;
	long v = strtol(buf, &end, 10);
	if (end == buf || errno)
		return -1;
	*nr = v < 0 ? -1 : v;
	if (v < 0)
		return 0;
	const char *p = end;
	for (int i = 0; i < 6; i++) {
		args[i] = strtoul(p, &end, 16);
		if (end == p)
			return -1;
		p = end;
	}
	return 0;
}

/* Syscalls a stuck process is commonly found in, with their numbers on
 * x86_64 and aarch64 (-1: the architecture has no such call). fd: the
 * first argument is a file descriptor. */
static const struct {
	short x86, arm;
	unsigned char fd;
	const char *name;
} syscalls[] = {
	{ 0, 63, 1, "read" },           { 1, 64, 1, "write" },
	{ 7, -1, 0, "poll" },           { 16, 29, 1, "ioctl" },
	{ 17, 67, 1, "pread64" },       { 19, 65, 1, "readv" },
	{ 20, 66, 1, "writev" },        { 23, -1, 0, "select" },
	{ 24, 124, 0, "sched_yield" },  { 34, -1, 0, "pause" },
	{ 35, 101, 0, "nanosleep" },    { 42, 203, 1, "connect" },
	{ 43, 202, 1, "accept" },       { 44, 206, 1, "sendto" },
	{ 45, 207, 1, "recvfrom" },     { 46, 211, 1, "sendmsg" },
	{ 47, 212, 1, "recvmsg" },      { 59, 221, 0, "execve" },
	{ 61, 260, 0, "wait4" },        { 65, 193, 0, "semop" },
	{ 70, 188, 0, "msgrcv" },       { 73, 32, 1, "flock" },
	{ 74, 82, 1, "fsync" },         { 75, 83, 1, "fdatasync" },
	{ 128, 137, 0, "rt_sigtimedwait" }, { 130, 133, 0, "rt_sigsuspend" },
	{ 202, 98, 0, "futex" },        { 208, 4, 0, "io_getevents" },
	{ 220, 192, 0, "semtimedop" },  { 230, 115, 0, "clock_nanosleep" },
	{ 232, -1, 1, "epoll_wait" },   { 247, 95, 0, "waitid" },
	{ 257, 56, 0, "openat" },       { 270, 72, 0, "pselect6" },
	{ 271, 73, 0, "ppoll" },        { 281, 22, 1, "epoll_pwait" },
	{ 288, 242, 1, "accept4" },     { 299, 243, 1, "recvmmsg" },
	{ 307, 269, 1, "sendmmsg" },    { 426, 426, 1, "io_uring_enter" },
	{ 441, 441, 1, "epoll_pwait2" }, { 449, 449, 0, "futex_waitv" },
};

static int syscall_index(const char *arch, long nr)
{
	int arm = strcmp(arch, "aarch64") == 0;
	if (!arm && strcmp(arch, "x86_64") != 0)
		return -1;
	for (size_t i = 0; i < sizeof(syscalls) / sizeof(syscalls[0]); i++)
		if ((arm ? syscalls[i].arm : syscalls[i].x86) == nr)
			return (int)i;
	return -1;
}

const char *proc_syscall_name(const char *arch, long nr)
{
	int i = syscall_index(arch, nr);
	return i < 0 ? NULL : syscalls[i].name;
}

/* An address as /proc/net/tcp* prints it: 32-bit words in host order. */
static int parse_hex_addr(const char *hex, size_t len, int v6, char *out, size_t cap)
{
	unsigned char raw[16];
	size_t words = v6 ? 4 : 1;
	if (len != words * 8)
		return -1;
	for (size_t w = 0; w < words; w++) {
		char tmp[9];
		memcpy(tmp, hex + w * 8, 8);
		tmp[8] = '\0';
		char *end;
		uint32_t v = (uint32_t)strtoul(tmp, &end, 16);
		if (*end)
			return -1;
		memcpy(raw + w * 4, &v, 4);
	}
	return inet_ntop(v6 ? AF_INET6 : AF_INET, raw, out, (socklen_t)cap) ? 0 : -1;
}

int proc_parse_tcp_line(const char *line, int v6, struct proc_sock *s, int *listen)
{
	char local[40];
	unsigned port, st;
	unsigned long long inode;
	if (sscanf(line, " %*u: %39[0-9A-Fa-f]:%x %*s %x %*s %*s %*s %*u %*u %llu",
		   local, &port, &st, &inode) != 4)
		return -1;
	memset(s, 0, sizeof(*s));
	if (parse_hex_addr(local, strlen(local), v6, s->addr, sizeof(s->addr)) < 0)
		return -1;
	strcpy(s->proto, v6 ? "tcp6" : "tcp");
	s->port = port;
	s->inode = inode;
	*listen = st == 0x0A;
	return 0;
}

int proc_parse_unix_line(const char *line, struct proc_sock *s, int *listen)
{
	unsigned flags, type, st;
	unsigned long long inode;
	int pos = 0;
	if (sscanf(line, "%*s %*x %*x %x %x %x %llu%n", &flags, &type, &st, &inode, &pos) != 4)
		return -1;
	memset(s, 0, sizeof(*s));
	strcpy(s->proto, "unix");
	const char *p = line + pos;
	while (*p == ' ')
		p++;
	size_t n = strcspn(p, "\n");
	if (n >= sizeof(s->addr))
		n = sizeof(s->addr) - 1;
	memcpy(s->addr, p, n);
	s->inode = inode;
	*listen = (flags & 0x10000) != 0;   /* __SO_ACCEPTCON */
	return 0;
}

int proc_parse_interval(const char *s)
{
	double v = parse_duration(s);
	return v < 0 || v > 3600 ? -1 : (int)(v * 1000 + 0.5);
}

/* ---- the inspection ---- */

/* Read and parse dirfd/name, a stat file.  -1 when it is gone (the
 * process or thread exited) or malformed. */
static int read_stat(int dirfd, const char *name, struct proc_stat *st)
{
	char buf[2048];
	ssize_t n = read_small(dirfd, name, buf, sizeof(buf));
	return n < 0 ? -1 : proc_parse_stat(buf, (size_t)n, st);
}

static double cpu_of(const struct proc_stat *st, long hz)
{
	return (double)(st->utime + st->stime) / (double)hz;
}

struct sock_ent {
	struct proc_sock s;
	int listen;
};

/* A (pid, listening socket) pair seen in the fd scan. */
struct owner {
	int pid;
	uint64_t inode;
};

struct ctx {
	const struct proc_opts *o;
	int rootfd;
	char arch[72];
	long hz, page_kb;
	struct sock_ent *socks;   /* sorted by inode */
	size_t nsocks;
	/* the log */
	int have_log;             /* log_dev/log_ino are valid */
	dev_t log_dev;
	ino_t log_ino;
	char *deleted_link;       /* "ABSPATH (deleted)" when the name is gone */
	/* all processes, and who holds what */
	struct pid_pair {
		int pid, ppid;
	} *all;                   /* sorted by pid after the scan */
	size_t nall, all_cap;
	struct holder {
		int pid;
		int fds[PROC_MAX_LOG_FDS];
		int nfds;
	} *holders;
	size_t nholders, holders_cap;
	struct owner *owners;
	size_t nowners, owners_cap;
	size_t denied;            /* processes whose fds we may not read */
	struct buf readers;       /* "pid 12 (tail), ..." that only read the log */
	size_t nreaders;
};

static int cmp_sock(const void *a, const void *b)
{
	uint64_t x = ((const struct sock_ent *)a)->s.inode, y = ((const struct sock_ent *)b)->s.inode;
	return x < y ? -1 : x > y;
}

static const struct sock_ent *find_sock(const struct ctx *c, uint64_t inode)
{
	struct sock_ent key = { .s.inode = inode };
	if (!c->nsocks)
		return NULL;
	return bsearch(&key, c->socks, c->nsocks, sizeof(key), cmp_sock);
}

/* Keep of the sockets the scan saw those that listen. */
static void keep_listeners(struct ctx *c)
{
	size_t k = 0;
	for (size_t i = 0; i < c->nowners; i++) {
		const struct sock_ent *se = find_sock(c, c->owners[i].inode);
		if (se && se->listen)
			c->owners[k++] = c->owners[i];
	}
	c->nowners = k;
}

static void load_net(struct ctx *c, struct proc_report *r)
{
	static const char *files[] = { "net/tcp", "net/tcp6", "net/unix" };
	struct buf b = { .max = (size_t)256 << 20 };
	size_t cap = 0;
	for (int k = 0; k < 3; k++) {
		int e = slurp_at(c->rootfd, files[k], &b);
		if (e < 0) {
			if (k != 1)   /* no tcp6 is normal without IPv6 */
				push_str(&r->notes, &r->nnotes,
					 fmt_str("%s: %s", files[k], strerror(-e)));
			continue;
		}
		for (char *line = b.p; line && *line;) {
			char *nl = strchr(line, '\n');
			if (nl)
				*nl = '\0';
			struct sock_ent se;
			int ok = k == 2 ? proc_parse_unix_line(line, &se.s, &se.listen)
					: proc_parse_tcp_line(line, k == 1, &se.s, &se.listen);
			if (ok == 0) {
				GROW(c->socks, cap, c->nsocks + 1);
				c->socks[c->nsocks++] = se;
			}
			line = nl ? nl + 1 : NULL;
		}
	}
	buf_free(&b);
	if (c->nsocks)
		qsort(c->socks, c->nsocks, sizeof(*c->socks), cmp_sock);
}

/* The inode of a socket named by an fd link's text "socket:[N]". */
static uint64_t socket_inode(const char *link)
{
	unsigned long long v;
	return sscanf(link, "socket:[%llu]", &v) == 1 ? v : 0;
}

static void add_holder(struct ctx *c, int pid, int fd)
{
	if (!c->nholders || c->holders[c->nholders - 1].pid != pid) {
		GROW(c->holders, c->holders_cap, c->nholders + 1);
		c->holders[c->nholders].pid = pid;
		c->holders[c->nholders++].nfds = 0;
	}
	struct holder *h = &c->holders[c->nholders - 1];
	if (h->nfds < PROC_MAX_LOG_FDS)
		h->fds[h->nfds++] = fd;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return x < y ? -1 : x > y;
}

/* Whether fd (of the process at pfd) was opened read-only, from its
 * fdinfo "flags:" line (octal).  Unreadable counts as not read-only. */
static int read_only_fd(int pfd, const char *fd)
{
	char name[300], info[1024];
	snprintf(name, sizeof(name), "fdinfo/%s", fd);
	if (read_small(pfd, name, info, sizeof(info)) < 0)
		return 0;
	const char *p = strstr(info, "flags:");
	return p && (strtoul(p + 6, NULL, 8) & O_ACCMODE) == O_RDONLY;
}

/* Look at every fd of one process: does it write the log, which
 * listening sockets does it have.  A process that only reads the log
 * (tail -f, less, ddx watch) is not behind it. */
static void scan_fds(struct ctx *c, int pfd, int pid, const char *comm)
{
	int dfd = open_dir_at(pfd, "fd");
	if (dfd < 0) {
		if (dfd == -EACCES || dfd == -EPERM)
			c->denied++;
		return;
	}
	DIR *d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return;
	}
	int fds[256], nfds = 0, reads = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		int fd = parse_num(e->d_name);
		if (fd < 0)
			continue;
		struct stat st;
		char link[PATH_MAX + 16];
		ssize_t ln = -1;
		int is_log = 0;
		uint64_t sock = 0;
		if (fstatat(dfd, e->d_name, &st, 0) == 0) {
			is_log = c->have_log && st.st_dev == c->log_dev && st.st_ino == c->log_ino;
			if (S_ISSOCK(st.st_mode))
				sock = st.st_ino;
		} else if ((ln = readlinkat(dfd, e->d_name, link, sizeof(link) - 1)) > 0) {
			link[ln] = '\0';
			sock = socket_inode(link);
		}
		if (!is_log && c->deleted_link) {
			if (ln < 0)
				ln = readlinkat(dfd, e->d_name, link, sizeof(link) - 1);
			if (ln > 0) {
				link[ln] = '\0';
				is_log = strcmp(link, c->deleted_link) == 0;
			}
		}
		if (is_log && read_only_fd(pfd, e->d_name)) {
			reads = 1;
		} else if (is_log && nfds < (int)(sizeof(fds) / sizeof(fds[0]))) {
			fds[nfds++] = fd;
		}
		/* Every socket for now: which listen is known once the socket
		 * tables are read (keep_listeners). */
		if (sock) {
			GROW(c->owners, c->owners_cap, c->nowners + 1);
			c->owners[c->nowners++] = (struct owner){ pid, sock };
		}
	}
	closedir(d);
	if (reads && !nfds)
		buf_printf(&c->readers, "%spid %d (%s)", c->nreaders++ ? ", " : "", pid, comm);
	/* fd 1 before fd 2, whatever order readdir gave. */
	qsort(fds, (size_t)nfds, sizeof(int), cmp_int);
	for (int i = 0; i < nfds; i++)
		add_holder(c, pid, fds[i]);
}

static int cmp_pair(const void *a, const void *b)
{
	return cmp_int(&((const struct pid_pair *)a)->pid, &((const struct pid_pair *)b)->pid);
}

static int scan_all(struct ctx *c)
{
	int dup_fd = dup(c->rootfd);
	DIR *d = dup_fd < 0 ? NULL : fdopendir(dup_fd);
	if (!d) {
		if (dup_fd >= 0)
			close(dup_fd);
		return error("cannot read '%s': %s", c->o->root, strerror(errno));
	}
	struct dirent *e;
	while ((e = readdir(d))) {
		int pid = parse_pid(e->d_name);
		if (pid < 0)
			continue;
		int pfd = open_dir_at(c->rootfd, e->d_name);
		if (pfd < 0)
			continue;   /* vanished */
		struct proc_stat st;
		if (read_stat(pfd, "stat", &st) < 0) {
			close(pfd);
			continue;   /* vanished */
		}
		GROW(c->all, c->all_cap, c->nall + 1);
		c->all[c->nall].pid = pid;
		c->all[c->nall++].ppid = st.ppid;
		scan_fds(c, pfd, pid, st.comm);
		close(pfd);
	}
	closedir(d);
	if (c->nall)
		qsort(c->all, c->nall, sizeof(*c->all), cmp_pair);
	return 0;
}

/* The parent of pid as the scan saw it, or -1. */
static int ppid_of(const struct ctx *c, int pid)
{
	struct pid_pair key = { pid, 0 };
	const struct pid_pair *p = c->nall ? bsearch(&key, c->all, c->nall, sizeof(key), cmp_pair) : NULL;
	return p ? p->ppid : -1;
}

/* "tcp 127.0.0.1:8000", "tcp6 [::]:8000", "unix /run/x.sock" or "unix
 * socket"; the caller frees it. */
static char *sock_name(const struct proc_sock *s)
{
	if (strcmp(s->proto, "unix") == 0)
		return s->addr[0] ? fmt_str("unix %s", s->addr) : xstrdup("unix socket");
	int v6 = strcmp(s->proto, "tcp6") == 0;
	return fmt_str("%s %s%s%s:%u", s->proto, v6 ? "[" : "", s->addr, v6 ? "]" : "", s->port);
}

/* What kind of thing fd is in process directory pfd. */
static char *describe_fd(const struct ctx *c, int pfd, long fd, int depth);

static char *describe_epoll(const struct ctx *c, int pfd, long fd, int depth)
{
	char name[64], info[16384];
	snprintf(name, sizeof(name), "fdinfo/%ld", fd);
	if (depth > 0 || read_small(pfd, name, info, sizeof(info)) < 0)
		return xstrdup("epoll");
	struct buf b = { 0 };
	int n = 0;
	for (char *p = strstr(info, "tfd:"); p; p = strstr(p + 4, "tfd:")) {
		long t = strtol(p + 4, NULL, 10);
		if (n < 3) {
			char *what = describe_fd(c, pfd, t, depth + 1);
			buf_printf(&b, "%sfd %ld (%s)", n ? ", " : "", t, what);
			free(what);
		}
		n++;
	}
	char *s;
	if (n == 0)
		s = xstrdup("epoll watching nothing");
	else if (n > 3)
		s = fmt_str("epoll watching %s and %d more", b.p, n - 3);
	else
		s = fmt_str("epoll watching %s", b.p);
	buf_free(&b);
	return s;
}

static char *describe_fd(const struct ctx *c, int pfd, long fd, int depth)
{
	char name[64], link[PATH_MAX];
	snprintf(name, sizeof(name), "fd/%ld", fd);
	ssize_t n = readlinkat(pfd, name, link, sizeof(link) - 1);
	if (n < 0)
		return fmt_str("fd %ld", fd);
	link[n] = '\0';
	uint64_t ino = socket_inode(link);
	if (ino) {
		const struct sock_ent *se = find_sock(c, ino);
		if (!se)
			return xstrdup("socket");
		char *name = sock_name(&se->s);
		char *s = fmt_str("%s%s", name, se->listen ? " (listening)" : "");
		free(name);
		return s;
	}
	if (strncmp(link, "pipe:", 5) == 0)
		return xstrdup("pipe");
	if (strcmp(link, "anon_inode:[eventpoll]") == 0)
		return describe_epoll(c, pfd, fd, depth);
	if (strncmp(link, "anon_inode:[", 12) == 0 && link[n - 1] == ']')
		return fmt_str("%.*s", (int)(n - 13), link + 12);
	if (strncmp(link, "anon_inode:", 11) == 0)
		return xstrdup(link + 11);
	return xstrdup(link);
}

static char *decode_arg(const struct ctx *c, int pfd, int idx, const unsigned long a[6])
{
	const char *name = syscalls[idx].name;
	if (syscalls[idx].fd) {
		char *what = describe_fd(c, pfd, (long)a[0], 0);
		char *s = fmt_str("fd %ld: %s", (long)a[0], what);
		free(what);
		return s;
	}
	if (strcmp(name, "futex") == 0) {
		unsigned op = (unsigned)a[1] & 0x7f;   /* without PRIVATE and CLOCK_REALTIME */
		const char *opn = op == 0 ? " FUTEX_WAIT" : op == 9 ? " FUTEX_WAIT_BITSET" :
				  op == 6 ? " FUTEX_LOCK_PI" : "";
		return fmt_str("0x%lx%s", a[0], opn);
	}
	if (strcmp(name, "poll") == 0 || strcmp(name, "ppoll") == 0)
		return fmt_str("%lu fds", a[1]);
	if (strcmp(name, "select") == 0 || strcmp(name, "pselect6") == 0)
		return fmt_str("nfds %lu", a[0]);
	if (strcmp(name, "wait4") == 0)
		return (long)a[0] == -1 ? xstrdup("any child") : fmt_str("pid %ld", (long)a[0]);
	return NULL;
}

static void add_unreadable(struct proc_info *p, const char *what, int e)
{
	push_str(&p->unreadable, &p->nunreadable, fmt_str("%s: %s", what, errno_text(e)));
}

static const char state_order[] = "RSDZTtIXKWP";

static void read_threads(struct proc_info *p, int pfd)
{
	int tfd = open_dir_at(pfd, "task");
	if (tfd < 0) {
		add_unreadable(p, "task", -tfd);
		return;
	}
	DIR *d = fdopendir(tfd);
	if (!d) {
		close(tfd);
		return;
	}
	int counts[sizeof(state_order)] = { 0 }, other = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (parse_pid(e->d_name) < 0)
			continue;
		char name[300];
		struct proc_stat st;
		snprintf(name, sizeof(name), "%s/stat", e->d_name);
		if (read_stat(tfd, name, &st) < 0)
			continue;   /* the thread exited */
		const char *k = strchr(state_order, st.state);
		if (k && st.state)
			counts[k - state_order]++;
		else
			other++;
	}
	closedir(d);
	size_t len = 0;
	for (size_t i = 0; i < sizeof(state_order) - 1; i++)
		if (counts[i] && len < sizeof(p->thread_states) - 16)
			len += (size_t)snprintf(p->thread_states + len, sizeof(p->thread_states) - len,
						"%s%d %c", len ? ", " : "", counts[i], state_order[i]);
	if (other && len < sizeof(p->thread_states) - 16)
		snprintf(p->thread_states + len, sizeof(p->thread_states) - len,
			 "%s%d ?", len ? ", " : "", other);
}

static int read_cpu(const struct ctx *c, int pid, double *cpu)
{
	char name[32];
	struct proc_stat st;
	snprintf(name, sizeof(name), "%d/stat", pid);
	if (read_stat(c->rootfd, name, &st) < 0)
		return -1;
	*cpu = cpu_of(&st, c->hz);
	return 0;
}

/* Fill p (pid, holds_log, log fds already set) from /proc/PID. */
static void read_details(const struct ctx *c, struct proc_info *p, double uptime, double btime)
{
	char name[32], sbuf[2048];
	if (ppid_of(c, p->pid) < 0) {   /* a pid given that the scan did not see */
		p->gone = 1;
		push_str(&p->unreadable, &p->nunreadable, xstrdup("no such process"));
		return;
	}
	snprintf(name, sizeof(name), "%d", p->pid);
	int pfd = open_dir_at(c->rootfd, name);
	struct proc_stat st;
	if (pfd < 0 || read_stat(pfd, "stat", &st) < 0) {
		p->gone = 1;
		push_str(&p->unreadable, &p->nunreadable, xstrdup("process exited during inspection"));
		if (pfd >= 0)
			close(pfd);
		return;
	}
	snprintf(p->comm, sizeof(p->comm), "%s", st.comm);
	p->state = st.state;
	p->ppid = st.ppid;
	p->threads = st.threads;
	p->cpu_s = cpu_of(&st, c->hz);
	p->rss_kb = st.rss_pages * c->page_kb;
	double start = (double)st.starttime / (double)c->hz;
	p->age_s = uptime >= 0 ? uptime - start : -1;
	p->start_epoch = btime > 0 ? btime + start : 0;

	struct buf b = { .max = 1 << 16 };
	int e = slurp_at(pfd, "cmdline", &b);
	if (e == 0 && b.len) {
		while (b.len && b.p[b.len - 1] == '\0')
			b.len--;
		for (size_t i = 0; i < b.len; i++)
			if (b.p[i] == '\0')
				b.p[i] = ' ';
		p->cmdline = fmt_str("%.*s", (int)b.len, b.p);
	} else {
		if (e < 0)
			add_unreadable(p, "cmdline", -e);
		p->cmdline = fmt_str("[%s]", p->comm);
	}
	buf_free(&b);

	char wbuf[256];
	ssize_t n = read_small(pfd, "wchan", wbuf, sizeof(wbuf));
	if (n < 0) {
		add_unreadable(p, "wchan", (int)-n);
	} else {
		wbuf[strcspn(wbuf, "\n")] = '\0';
		p->wchan = xstrdup(strcmp(wbuf, "0") == 0 ? "" : wbuf);
	}

	if (p->state != 'Z') {
		n = read_small(pfd, "syscall", sbuf, sizeof(sbuf));
		long nr;
		unsigned long a[6];
		if (n < 0) {
			add_unreadable(p, "syscall", (int)-n);
		} else if (proc_parse_syscall(sbuf, &nr, a) == 0) {
			int idx = nr >= 0 ? syscall_index(c->arch, nr) : -1;
			if (nr == -2)
				p->syscall = xstrdup("running");
			else if (nr == -1)
				p->syscall = xstrdup("none");
			else if (idx < 0)
				p->syscall = fmt_str("syscall %ld", nr);
			else {
				p->syscall = xstrdup(syscalls[idx].name);
				p->syscall_arg = decode_arg(c, pfd, idx, a);
			}
		}
		read_threads(p, pfd);
		int dfd = open_dir_at(pfd, "fd");
		if (dfd < 0)
			add_unreadable(p, "fd", -dfd);
		else
			close(dfd);
	}
	close(pfd);

	for (size_t i = 0; i < c->nowners; i++) {
		if (c->owners[i].pid != p->pid)
			continue;
		const struct sock_ent *se = find_sock(c, c->owners[i].inode);
		p->listening = xrealloc(p->listening, (p->nlistening + 1) * sizeof(*p->listening));
		p->listening[p->nlistening++] = se->s;
	}
}

/* ---- GPU memory through NVML, loaded at run time ---- */

struct nvml_proc {
	unsigned pid;
	unsigned long long used;
	unsigned gi, ci;
};

static void read_gpu(struct proc_report *r)
{
	void *h = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		push_str(&r->notes, &r->nnotes, xstrdup("no NVIDIA driver (libnvidia-ml not found)"));
		return;
	}
	int (*init)(void) = (int (*)(void))dlsym(h, "nvmlInit_v2");
	int (*shut)(void) = (int (*)(void))dlsym(h, "nvmlShutdown");
	int (*count)(unsigned *) = (int (*)(unsigned *))dlsym(h, "nvmlDeviceGetCount_v2");
	int (*handle)(unsigned, void **) = (int (*)(unsigned, void **))dlsym(h, "nvmlDeviceGetHandleByIndex_v2");
	int (*procs)(void *, unsigned *, struct nvml_proc *) =
		(int (*)(void *, unsigned *, struct nvml_proc *))dlsym(h, "nvmlDeviceGetComputeRunningProcesses_v3");
	if (!procs)
		procs = (int (*)(void *, unsigned *, struct nvml_proc *))dlsym(h, "nvmlDeviceGetComputeRunningProcesses_v2");
	unsigned ndev = 0;
	if (!init || !shut || !count || !handle || !procs) {
		push_str(&r->notes, &r->nnotes, xstrdup("libnvidia-ml is too old for per-process GPU memory"));
	} else if (init() != 0) {
		push_str(&r->notes, &r->nnotes, xstrdup("NVML did not initialise (driver not loaded?)"));
	} else {
		if (count(&ndev) == 0)
			for (unsigned d = 0; d < ndev; d++) {
				void *dev;
				struct nvml_proc info[256];
				unsigned n = 256;
				if (handle(d, &dev) != 0 || procs(dev, &n, info) != 0)
					continue;
				for (unsigned i = 0; i < n; i++)
					for (size_t k = 0; k < r->nprocs; k++)
						if (r->procs[k].pid == (int)info[i].pid && info[i].used != ~0ULL) {
							long mib = (long)(info[i].used >> 20);
							r->procs[k].gpu_mem_mib = (r->procs[k].gpu_mem_mib < 0 ? 0 : r->procs[k].gpu_mem_mib) + mib;
						}
			}
		shut();
	}
	dlclose(h);
}

/* ---- Python stacks through py-spy ---- */

static char *find_on_path(const char *prog)
{
	const char *path = getenv("PATH");
	if (!path)
		return NULL;
	while (*path) {
		size_t n = strcspn(path, ":");
		char *cand = fmt_str("%.*s/%s", (int)n, path, prog);
		if (n && access(cand, X_OK) == 0)
			return cand;
		free(cand);
		path += n + (path[n] == ':');
	}
	return NULL;
}

/* Run `py-spy dump --nonblocking --pid PID`, killing it (our own child)
 * after timeout_ms.  Sets *out to its output; returns its exit status,
 * or -1 when it could not run or timed out. */
static int run_pyspy(const char *exe, int pid, int timeout_ms, char **out)
{
	int pfd[2];
	*out = NULL;
	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -1;
	pid_t child = fork();
	if (child < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	if (child == 0) {
		char spid[16];
		snprintf(spid, sizeof(spid), "%d", pid);
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		int devnull = open("/dev/null", O_RDONLY);
		if (devnull >= 0)
			dup2(devnull, 0);
		execl(exe, "py-spy", "dump", "--nonblocking", "--pid", spid, (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	struct buf b = { .max = 1 << 16 };
	int64_t deadline = now_ms() + timeout_ms;
	int timed_out = 0;
	for (;;) {
		int64_t left = deadline - now_ms();
		if (left <= 0) {
			timed_out = 1;
			break;
		}
		struct pollfd pf = { pfd[0], POLLIN, 0 };
		int k = poll(&pf, 1, (int)left);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			timed_out = k == 0;
			break;
		}
		char chunk[4096];
		ssize_t n = read(pfd[0], chunk, sizeof(chunk));
		if (n <= 0)
			break;
		buf_append(&b, chunk, (size_t)n);
	}
	close(pfd[0]);
	if (timed_out)
		kill(child, SIGKILL);
	int status = 0;
	while (waitpid(child, &status, 0) < 0 && errno == EINTR)
		;
	*out = b.len ? fmt_str("%.*s", (int)b.len, b.p) : xstrdup("");
	buf_free(&b);
	if (timed_out)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void read_stacks(const struct proc_opts *o, struct proc_report *r)
{
	char *exe = find_on_path("py-spy");
	if (!exe) {
		push_str(&r->notes, &r->nnotes, xstrdup("stacks: py-spy not found on PATH"));
		return;
	}
	int timeout = o->stack_timeout_ms > 0 ? o->stack_timeout_ms : 5000;
	for (size_t i = 0; i < r->nprocs; i++) {
		struct proc_info *p = &r->procs[i];
		if (p->gone || p->state == 'Z')
			continue;
		char *out;
		int rc = run_pyspy(exe, p->pid, timeout, &out);
		if (rc == 0) {
			p->stack = out;
			continue;
		}
		size_t n = strcspn(out, "\n");
		if (rc < 0 && !*out)
			push_str(&p->unreadable, &p->nunreadable,
				 fmt_str("stack: py-spy gave no answer within %d ms", timeout));
		else
			push_str(&p->unreadable, &p->nunreadable,
				 fmt_str("stack: py-spy: %.*s", (int)(n > 160 ? 160 : n), out));
		free(out);
	}
	free(exe);
}

/* ---- putting it together ---- */

static int in_set(const int *set, size_t n, int pid)
{
	for (size_t i = 0; i < n; i++)
		if (set[i] == pid)
			return 1;
	return 0;
}

/* Emit the processes of set whose parent is ppid (or, at depth 0, whose
 * parent is not in the set), in pid order, each followed by its
 * descendants. */
static void order_tree(const struct ctx *c, const int *set, size_t n, int ppid, int depth,
		       int *out, size_t *nout, int *depths)
{
	for (size_t i = 0; i < n; i++) {
		int pp = ppid_of(c, set[i]);
		int root = !in_set(set, n, pp);
		if (depth == 0 ? !root : pp != ppid)
			continue;
		if (in_set(out, *nout, set[i]))
			continue;
		depths[*nout] = depth;
		out[(*nout)++] = set[i];
		order_tree(c, set, n, set[i], depth + 1, out, nout, depths);
	}
}

/* A sampling interval: "1 s", "1.5 s", "200 ms". */
static void fmt_interval(char *out, size_t cap, double s)
{
	long ms = lround(s * 1000);
	if (ms < 1000)
		snprintf(out, cap, "%ld ms", ms);
	else if (ms % 1000 == 0)
		snprintf(out, cap, "%ld s", ms / 1000);
	else
		snprintf(out, cap, "%.1f s", s);
}

static void fmt_duration(char *out, size_t cap, double s)
{
	long v = (long)(s + 0.5);
	if (v < 60)
		snprintf(out, cap, "%lds", v);
	else if (v < 3600)
		snprintf(out, cap, "%ldm%02lds", v / 60, v % 60);
	else if (v < 86400)
		snprintf(out, cap, "%ldh%02ldm", v / 3600, v % 3600 / 60);
	else
		snprintf(out, cap, "%ldd%02ldh", v / 86400, v % 86400 / 3600);
}

/* A process counts as making progress when it used at least 5% of one
 * CPU over the sample (and at least 20 ms): a Python process whose
 * threads are all blocked still gets the odd clock tick. */
static int cpu_moving(const struct proc_info *p, double sample_s)
{
	double min = 0.05 * sample_s;
	return !isnan(p->cpu_s_delta) && p->cpu_s_delta >= (min < 0.02 ? 0.02 : min);
}

/* "futex", or "futex 8, wait4 1": what the blocked processes wait in. */
static void blocked_summary(const struct proc_report *r, struct buf *b, size_t nblocked)
{
	const char *names[16];
	int counts[16], n = 0;
	for (size_t i = 0; i < r->nprocs; i++) {
		const struct proc_info *p = &r->procs[i];
		if (p->gone || p->state == 'Z' || cpu_moving(p, r->sample_s))
			continue;
		const char *w = p->syscall && strcmp(p->syscall, "none") != 0 ? p->syscall :
				p->wchan && *p->wchan ? p->wchan : "unreadable";
		int k;
		for (k = 0; k < n && strcmp(names[k], w) != 0; k++)
			;
		if (k == n) {
			if (n == 16)
				continue;
			names[n] = w;
			counts[n++] = 0;
		}
		counts[k]++;
	}
	if (n == 1) {
		buf_printf(b, "%sblocked in %s", nblocked == 1 ? "" : nblocked == 2 ? "both " : "all ", names[0]);
		return;
	}
	buf_printf(b, "blocked in ");
	for (int k = 0; k < n; k++)
		buf_printf(b, "%s%s %d", k ? ", " : "", names[k], counts[k]);
}

static void make_verdict(struct proc_report *r, int by_pid)
{
	struct buf b = { 0 };
	size_t alive = 0, zombies = 0, dstate = 0, moving = 0, sampled = 0;
	for (size_t i = 0; i < r->nprocs; i++) {
		const struct proc_info *p = &r->procs[i];
		if (p->gone)
			continue;
		if (p->state == 'Z') {
			zombies++;
			continue;
		}
		alive++;
		dstate += p->state == 'D';
		sampled += !isnan(p->cpu_s_delta);
		moving += cpu_moving(p, r->sample_s);
	}
	if (alive == 0) {
		r->liveness = "exited";
		buf_printf(&b, by_pid ? "no process alive" : "nobody holds the log");
		if (zombies)
			buf_printf(&b, " (%zu zombie%s left)", zombies, zombies == 1 ? "" : "s");
	} else {
		buf_printf(&b, "%zu process%s alive", alive, alive == 1 ? "" : "es");
		if (zombies)
			buf_printf(&b, ", %zu zombie%s", zombies, zombies == 1 ? "" : "s");
		if (dstate)
			buf_printf(&b, ", %zu in D state", dstate);
		if (r->log_grew) {
			r->liveness = "busy";
			buf_printf(&b, ", log growing");
		} else if (moving) {
			r->liveness = "busy";
			buf_printf(&b, ", CPU moving in %zu of %zu", moving, alive);
		} else if (sampled < alive) {
			r->liveness = "unknown";
			buf_printf(&b, ", CPU time not sampled");
		} else {
			buf_printf(&b, ", ");
			blocked_summary(r, &b, alive);
			char iv[32];
			fmt_interval(iv, sizeof(iv), r->sample_s);
			buf_printf(&b, ", no CPU progress in %s", iv);
			r->liveness = r->port && r->port_in_tree ? "idle" : "hung";
		}
	}
	if (!isnan(r->silent_s)) {
		char d[32];
		fmt_duration(d, sizeof(d), r->silent_s);
		buf_printf(&b, ", log silent for %s", d);
	}
	if (r->port) {
		buf_printf(&b, ", port %u ", r->port);
		if (!r->port_listening)
			buf_printf(&b, "not listening");
		else if (r->port_in_tree)
			buf_printf(&b, "listening");
		else if (r->port_pid)
			buf_printf(&b, "held by pid %d outside the tree", r->port_pid);
		else
			buf_printf(&b, "listening, not by these processes");
	}
	buf_printf(&b, ": %s", r->liveness);
	r->verdict = b.p;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* The log's stat, by name or through a holder's fd when its name is
 * gone or came from an fd link. */
static int stat_log(const struct ctx *c, const struct proc_report *r, struct stat *st)
{
	if (!r->log_deleted && !c->o->npids)
		return stat(r->log_path, st);
	if (!c->nholders)
		return -1;
	char name[64];
	snprintf(name, sizeof(name), "%d/fd/%d", c->holders[0].pid, c->holders[0].fds[0]);
	return fstatat(c->rootfd, name, st, 0);
}

/* Find the port the log names, and who listens on it. */
static int in_report(const struct proc_report *r, int pid)
{
	for (size_t i = 0; i < r->nprocs; i++)
		if (r->procs[i].pid == pid)
			return 1;
	return 0;
}

static void check_port(const struct ctx *c, struct proc_report *r)
{
	char *path = NULL;
	if (r->log_deleted || c->o->npids) {
		if (!c->nholders)
			return;
		path = fmt_str("%s/%d/fd/%d", c->o->root, c->holders[0].pid, c->holders[0].fds[0]);
	}
	struct input in;
	if (input_open(&in, path ? path : r->log_path, 0) < 0) {
		push_str(&r->notes, &r->nnotes, xstrdup("could not read the log for its port"));
		free(path);
		return;
	}
	free(path);
	struct logmeta_port lp;
	if (logmeta_port(in.data, in.size, &lp)) {
		r->port = lp.port;
		r->port_line = lp.line;
		r->port_text = fmt_str("%.*s", (int)(lp.text_len > 200 ? 200 : lp.text_len), lp.text);
		for (size_t i = 0; i < c->nsocks; i++) {
			const struct sock_ent *se = &c->socks[i];
			if (!se->listen || se->s.port != r->port || strcmp(se->s.proto, "unix") == 0)
				continue;
			r->port_listening = 1;
			for (size_t k = 0; k < c->nowners; k++)
				if (c->owners[k].inode == se->s.inode) {
					int mine = in_report(r, c->owners[k].pid);
					r->port_in_tree |= mine;
					if (!r->port_pid || mine)
						r->port_pid = c->owners[k].pid;
				}
		}
	}
	input_close(&in);
}

static double read_uptime(int rootfd)
{
	char buf[128];
	return read_small(rootfd, "uptime", buf, sizeof(buf)) > 0 ? strtod(buf, NULL) : -1;
}

static double read_btime(int rootfd)
{
	struct buf b = { .max = 1 << 20 };
	double bt = 0;
	if (slurp_at(rootfd, "stat", &b) == 0) {
		const char *p = strstr(b.p, "\nbtime ");
		if (p)
			bt = strtod(p + 7, NULL);
	}
	buf_free(&b);
	return bt;
}

/* In pid mode: the log is the regular file that pid's stdout (else
 * stderr) is.  Returns 1 when there is one. */
static int log_of_pid(struct ctx *c, struct proc_report *r, int pid)
{
	for (int fd = 1; fd <= 2; fd++) {
		char name[64], link[PATH_MAX];
		struct stat st;
		snprintf(name, sizeof(name), "%d/fd/%d", pid, fd);
		if (fstatat(c->rootfd, name, &st, 0) < 0 || !S_ISREG(st.st_mode))
			continue;
		ssize_t n = readlinkat(c->rootfd, name, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = '\0';
		c->have_log = 1;
		c->log_dev = st.st_dev;
		c->log_ino = st.st_ino;
		size_t len = (size_t)n;
		r->log_deleted = len > 10 && strcmp(link + len - 10, " (deleted)") == 0;
		if (r->log_deleted)
			link[len - 10] = '\0';
		r->log_path = xstrdup(link);
		return 1;
	}
	return 0;
}

static void ctx_free(struct ctx *c)
{
	close(c->rootfd);
	free(c->socks);
	free(c->all);
	free(c->holders);
	free(c->owners);
	free(c->deleted_link);
	buf_free(&c->readers);
}

/* Identify the log: by device and inode, or, when its name is gone, by
 * the "PATH (deleted)" text of the fd links; in pid mode, from the pids'
 * stdout. */
static int find_log(struct ctx *c, struct proc_report *r, const char *log_path)
{
	struct stat st;
	if (c->o->npids) {
		for (size_t i = 0; i < c->o->npids && !log_of_pid(c, r, c->o->pids[i]); i++)
			;
		return 0;
	}
	if (stat(log_path, &st) == 0) {
		c->have_log = 1;
		c->log_dev = st.st_dev;
		c->log_ino = st.st_ino;
		r->log_path = xstrdup(log_path);
		return 0;
	}
	if (errno != ENOENT)
		return error("cannot stat '%s': %s", log_path, strerror(errno));
	char *dir = xstrdup(log_path), *slash = strrchr(dir, '/');
	const char *base = slash ? slash + 1 : log_path;
	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	char real[PATH_MAX];
	if (realpath(slash ? dir : ".", real))
		c->deleted_link = fmt_str("%s%s%s (deleted)", real,
					  strcmp(real, "/") == 0 ? "" : "/", base);
	free(dir);
	r->log_path = xstrdup(log_path);
	r->log_deleted = 1;
	return 0;
}

/* Whether no process at all has the regular file path open for writing,
 * known without reading /proc: Linux grants a read lease only on a file
 * nobody has open for writing (any process, any user, any namespace).
 * The lease is dropped at once.  A writer opening the file meanwhile
 * breaks it, which signals SIGIO, fatal by default: ignored for that
 * moment (the writer waits only for the F_UNLCK).  0 when the lease is
 * refused for any reason (a writer, a file we do not own, a filesystem
 * without leases): then only the scan can tell. */
static int nobody_writes(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return 0;
	struct stat st;
	int ok = 0;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		struct sigaction ign = { .sa_handler = SIG_IGN }, old;
		sigemptyset(&ign.sa_mask);
		sigaction(SIGIO, &ign, &old);
		ok = fcntl(fd, F_SETLEASE, F_RDLCK) == 0;
		if (ok)
			fcntl(fd, F_SETLEASE, F_UNLCK);
		sigaction(SIGIO, &old, NULL);
	}
	close(fd);
	return ok;
}

/* Fill r->procs with the roots (holders, or the pids given) and every
 * descendant, such as the workers a launcher forked, parents before
 * children. */
static void build_tree(const struct ctx *c, struct proc_report *r)
{
	const struct proc_opts *o = c->o;
	int *set = xmalloc((c->nall + o->npids + 1) * sizeof(int));
	size_t nset = 0;
	for (size_t i = 0; i < o->npids; i++)
		if (!in_set(set, nset, o->pids[i]))
			set[nset++] = o->pids[i];
	for (size_t i = 0; !o->npids && i < c->nholders; i++)
		set[nset++] = c->holders[i].pid;
	for (size_t added = 1; added;) {
		added = 0;
		for (size_t k = 0; k < c->nall; k++)
			if (in_set(set, nset, c->all[k].ppid) && !in_set(set, nset, c->all[k].pid)) {
				set[nset++] = c->all[k].pid;
				added++;
			}
	}
	qsort(set, nset, sizeof(int), cmp_int);
	int *order = xmalloc((nset + 1) * sizeof(int)), *depths = xmalloc((nset + 1) * sizeof(int));
	size_t norder = 0;
	order_tree(c, set, nset, 0, 0, order, &norder, depths);
	for (size_t i = 0; i < nset; i++)   /* pids given that are not in /proc */
		if (!in_set(order, norder, set[i])) {
			depths[norder] = 0;
			order[norder++] = set[i];
		}
	r->procs = xcalloc(norder + 1, sizeof(*r->procs));
	r->nprocs = norder;
	for (size_t i = 0; i < norder; i++) {
		struct proc_info *p = &r->procs[i];
		p->pid = order[i];
		p->depth = depths[i];
		p->state = '?';
		p->cpu_s_delta = NAN;
		p->age_s = -1;
		p->gpu_mem_mib = -1;
		for (size_t k = 0; k < c->nholders; k++)
			if (c->holders[k].pid == p->pid) {
				p->holds_log = 1;
				p->nlog_fds = c->holders[k].nfds;
				memcpy(p->log_fds, c->holders[k].fds, sizeof(p->log_fds));
			}
	}
	free(set);
	free(order);
	free(depths);
}

/* Read every process twice, sample_ms apart, for its CPU time, and the
 * log's size and mtime the same way; the details come from the second
 * reading, so they say where the processes are after the sample. */
static void sample(const struct ctx *c, struct proc_report *r)
{
	struct stat st0, st1;
	int have0 = r->log_path && stat_log(c, r, &st0) == 0;
	double *cpu0 = xcalloc(r->nprocs + 1, sizeof(double));
	int *ok0 = xcalloc(r->nprocs + 1, sizeof(int));
	int64_t t0 = now_ms();
	for (size_t i = 0; i < r->nprocs; i++)
		ok0[i] = read_cpu(c, r->procs[i].pid, &cpu0[i]) == 0;
	if (c->o->sample_ms > 0 && r->nprocs) {
		int64_t left = t0 + c->o->sample_ms - now_ms();
		if (left > 0)
			sleep_ms((int)left);
	}
	/* Only the processes' details need them (/proc/stat is long on a
	 * machine with many CPUs). */
	double uptime = r->nprocs ? read_uptime(c->rootfd) : -1;
	double btime = r->nprocs ? read_btime(c->rootfd) : 0;
	for (size_t i = 0; i < r->nprocs; i++) {
		struct proc_info *p = &r->procs[i];
		read_details(c, p, uptime, btime);
		if (c->o->sample_ms > 0 && ok0[i] && !p->gone)
			p->cpu_s_delta = p->cpu_s - cpu0[i];
	}
	if (r->log_path && stat_log(c, r, &st1) == 0) {
		r->silent_s = now_real() - mtime_of(&st1);
		if (r->silent_s < 0)
			r->silent_s = 0;
		r->log_grew = c->o->sample_ms > 0 && have0 &&
			      (st1.st_size != st0.st_size || mtime_of(&st1) != mtime_of(&st0));
	}
	free(cpu0);
	free(ok0);
}

int proc_inspect(const char *log_path, const struct proc_opts *o, struct proc_report *r)
{
	struct proc_opts opts = *o;
	if (!opts.root)
		opts.root = "/proc";
	struct ctx c = { .o = &opts, .readers.max = 512 };
	memset(r, 0, sizeof(*r));
	r->silent_s = NAN;
	r->sample_s = opts.sample_ms / 1000.0;
	c.rootfd = open(opts.root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (c.rootfd < 0)
		return error("cannot open '%s': %s", opts.root, strerror(errno));
	c.hz = sysconf(_SC_CLK_TCK);
	c.page_kb = sysconf(_SC_PAGESIZE) / 1024;
	if (read_small(c.rootfd, "sys/kernel/arch", c.arch, sizeof(c.arch)) > 0) {
		c.arch[strcspn(c.arch, "\n")] = '\0';
	} else {
		struct utsname u;
		snprintf(c.arch, sizeof(c.arch), "%s", uname(&u) == 0 ? u.machine : "?");
	}

	/* The socket tables cost more than the rest of a scan (the kernel
	 * walks every connection): with opts.quick, only read them when some
	 * process holds the log. */
	int rc = find_log(&c, r, log_path);
	/* Scanning every process's fds costs milliseconds, ddx diff's whole
	 * budget on small logs; when nobody writes the log there are no
	 * holders to find, and a quick report says no more than that. */
	int skip = opts.quick && !o->root && !opts.npids && !r->log_deleted &&
		   rc == 0 && nobody_writes(log_path);
	if (rc == 0 && !skip)
		rc = scan_all(&c);
	if (rc == 0 && (c.nholders || !opts.quick)) {
		load_net(&c, r);
		keep_listeners(&c);
	}
	if (rc == 0 && r->log_deleted && !opts.npids && !c.nholders)
		rc = error("cannot open '%s': No such file or directory", log_path);
	if (rc < 0) {
		ctx_free(&c);
		proc_report_free(r);
		return -1;
	}
	if (c.nreaders)
		push_str(&r->notes, &r->nnotes,
			 fmt_str("not counted, as they only read the log: %s", c.readers.p));
	if (c.denied)
		push_str(&r->notes, &r->nnotes,
			 fmt_str("%zu process%s could not be checked for the log: permission denied",
				 c.denied, c.denied == 1 ? "" : "es"));
	build_tree(&c, r);
	sample(&c, r);
	/* The port the log names matters only for who is alive behind it. */
	if (r->log_path && (c.nholders || !opts.quick))
		check_port(&c, r);
	if (opts.gpu && r->nprocs)
		read_gpu(r);
	if (opts.stacks && r->nprocs)
		read_stacks(&opts, r);
	make_verdict(r, opts.npids > 0);
	ctx_free(&c);
	return 0;
}

void proc_report_free(struct proc_report *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nprocs; i++) {
		struct proc_info *p = &r->procs[i];
		free(p->cmdline);
		free(p->wchan);
		free(p->syscall);
		free(p->syscall_arg);
		free(p->listening);
		free(p->stack);
		for (size_t k = 0; k < p->nunreadable; k++)
			free(p->unreadable[k]);
		free(p->unreadable);
	}
	free(r->procs);
	for (size_t k = 0; k < r->nnotes; k++)
		free(r->notes[k]);
	free(r->notes);
	free(r->log_path);
	free(r->port_text);
	free(r->verdict);
	memset(r, 0, sizeof(*r));
}

/* ---- output ---- */

static void json_sock(FILE *f, const struct proc_sock *s)
{
	fprintf(f, "{\"proto\": \"%s\", ", s->proto);
	if (strcmp(s->proto, "unix") == 0) {
		fputs("\"path\": ", f);
		json_str(f, s->addr);
	} else {
		fputs("\"addr\": ", f);
		json_str(f, s->addr);
		fprintf(f, ", \"port\": %u", s->port);
	}
	fputc('}', f);
}

void proc_processes_json(FILE *f, const struct proc_report *r)
{
	fputc('[', f);
	for (size_t i = 0; i < r->nprocs; i++) {
		const struct proc_info *p = &r->procs[i];
		fprintf(f, "%s\n    {\"pid\": %d, \"ppid\": %d, \"depth\": %d, \"comm\": ",
			i ? "," : "", p->pid, p->ppid, p->depth);
		json_str(f, p->gone ? NULL : p->comm);
		fputs(", \"cmdline\": ", f);
		json_str(f, p->cmdline);
		fprintf(f, ", \"holds_log\": %s, \"log_fds\": [", p->holds_log ? "true" : "false");
		for (int k = 0; k < p->nlog_fds; k++)
			fprintf(f, "%s%d", k ? ", " : "", p->log_fds[k]);
		fputs("], \"state\": ", f);
		if (p->state == '?')
			fputs("null", f);
		else
			fprintf(f, "\"%c\"", p->state);
		fputs(", \"wchan\": ", f);
		json_str(f, p->wchan);
		fputs(", \"syscall\": ", f);
		json_str(f, p->syscall);
		fputs(", \"syscall_arg\": ", f);
		json_str(f, p->syscall_arg);
		fputs(", \"cpu_s\": ", f);
		json_num(f, p->gone ? NAN : p->cpu_s, 2);
		fputs(", \"cpu_s_delta\": ", f);
		json_num(f, p->cpu_s_delta, 2);
		fprintf(f, ", \"threads\": %d, \"thread_states\": ", p->threads);
		json_str(f, p->thread_states[0] ? p->thread_states : NULL);
		fprintf(f, ", \"rss_kb\": %ld, \"start_time\": ", p->rss_kb);
		json_time(f, p->start_epoch > 0 ? (int64_t)(p->start_epoch * 1000) : TS_NONE);
		fputs(", \"age_s\": ", f);
		json_num(f, p->age_s < 0 ? NAN : p->age_s, 0);
		fputs(", \"listening\": [", f);
		for (size_t k = 0; k < p->nlistening; k++) {
			if (k)
				fputs(", ", f);
			json_sock(f, &p->listening[k]);
		}
		fputs("], \"gpu_mem_mib\": ", f);
		if (p->gpu_mem_mib < 0)
			fputs("null", f);
		else
			fprintf(f, "%ld", p->gpu_mem_mib);
		fputs(", \"stack\": ", f);
		json_str(f, p->stack);
		fputs(", \"unreadable\": ", f);
		json_strs(f, p->unreadable, p->nunreadable);
		fputc('}', f);
	}
	fputs(r->nprocs ? "\n  ]" : "]", f);
}

void proc_report_json(FILE *f, const struct proc_report *r)
{
	fputs("{\n  \"schema\": 1,\n  \"log\": {\"path\": ", f);
	json_str(f, r->log_path);
	fputs(", \"silent_s\": ", f);
	json_num(f, r->silent_s, 1);
	fprintf(f, ", \"deleted\": %s, \"grew\": %s},\n  \"processes\": ",
		r->log_deleted ? "true" : "false", r->log_grew ? "true" : "false");
	proc_processes_json(f, r);
	fputs(",\n  \"port\": ", f);
	if (r->port) {
		fprintf(f, "{\"expected\": %u, \"from_line\": %zu, \"text\": ", r->port, r->port_line);
		json_str(f, r->port_text);
		fprintf(f, ", \"listening\": %s, \"in_tree\": %s, \"pid\": ",
			r->port_listening ? "true" : "false", r->port_in_tree ? "true" : "false");
		if (r->port_pid)
			fprintf(f, "%d}", r->port_pid);
		else
			fputs("null}", f);
	} else {
		fputs("null", f);
	}
	fprintf(f, ",\n  \"sample_s\": %.3f,\n  \"liveness\": \"%s\",\n  \"verdict\": ",
		r->sample_s, r->liveness);
	json_str(f, r->verdict);
	fputs(",\n  \"notes\": ", f);
	json_strs(f, r->notes, r->nnotes);
	fputs("\n}", f);
}

static void text(FILE *f, const char *s)
{
	put_text(f, s, strlen(s));
}

static void fmt_kb(char *out, size_t cap, long kb)
{
	if (kb < 1024)
		snprintf(out, cap, "%ld KiB", kb);
	else if (kb < 1024 * 1024)
		snprintf(out, cap, "%.1f MiB", kb / 1024.0);
	else
		snprintf(out, cap, "%.1f GiB", kb / (1024.0 * 1024.0));
}

static void text_process(FILE *f, const struct proc_report *r, const struct proc_info *p)
{
	int ind = 2 + 2 * p->depth;
	fprintf(f, "%*s%spid %d%s  ", ind, "", C_BOLD, p->pid, C_RESET);
	text(f, p->cmdline ? p->cmdline : "?");
	fputc('\n', f);
	ind += 4;
	if (p->gone) {
		for (size_t k = 0; k < p->nunreadable; k++) {
			fprintf(f, "%*s", ind, "");
			text(f, p->unreadable[k]);
			fputc('\n', f);
		}
		return;
	}
	if (p->holds_log) {
		fprintf(f, "%*slog        ", ind, "");
		for (int k = 0; k < p->nlog_fds; k++) {
			int fd = p->log_fds[k];
			fprintf(f, "%sfd %d%s", k ? ", " : "", fd,
				fd == 1 ? " (stdout)" : fd == 2 ? " (stderr)" : fd == 0 ? " (stdin)" : "");
		}
		fputc('\n', f);
	}
	char rss[32], age[32] = "?";
	fmt_kb(rss, sizeof(rss), p->rss_kb);
	if (p->age_s >= 0)
		fmt_duration(age, sizeof(age), p->age_s);
	fprintf(f, "%*sstate      %c%s, ppid %d, %d thread%s", ind, "", p->state,
		p->state == 'Z' ? " (zombie: exited, not reaped by its parent)" :
		p->state == 'D' ? " (uninterruptible sleep)" : p->state == 'T' ? " (stopped)" : "",
		p->ppid, p->threads, p->threads == 1 ? "" : "s");
	if (p->thread_states[0])
		fprintf(f, " (%s)", p->thread_states);
	fprintf(f, ", rss %s, age %s\n", rss, age);
	fprintf(f, "%*scpu        %.2f s", ind, "", p->cpu_s);
	if (!isnan(p->cpu_s_delta)) {
		char iv[32];
		fmt_interval(iv, sizeof(iv), r->sample_s);
		fprintf(f, ", +%.2f s in the last %s%s", p->cpu_s_delta, iv,
			cpu_moving(p, r->sample_s) ? "" : " (no progress)");
	}
	fputc('\n', f);
	if (p->syscall || (p->wchan && *p->wchan)) {
		fprintf(f, "%*sin         ", ind, "");
		if (p->syscall) {
			text(f, p->syscall);
			if (p->syscall_arg) {
				fputs(" (", f);
				text(f, p->syscall_arg);
				fputc(')', f);
			}
		}
		if (p->wchan && *p->wchan) {
			fprintf(f, "%swchan ", p->syscall ? ", " : "");
			text(f, p->wchan);
		}
		fputc('\n', f);
	}
	for (size_t k = 0; k < p->nlistening; k++) {
		char *name = sock_name(&p->listening[k]);
		fprintf(f, "%*slistens    ", ind, "");
		text(f, name);
		fputc('\n', f);
		free(name);
	}
	if (p->gpu_mem_mib >= 0)
		fprintf(f, "%*sgpu        %ld MiB\n", ind, "", p->gpu_mem_mib);
	for (size_t k = 0; k < p->nunreadable; k++) {
		fprintf(f, "%*sunreadable ", ind, "");
		text(f, p->unreadable[k]);
		fputc('\n', f);
	}
	if (p->stack) {
		fprintf(f, "%*sstack\n", ind, "");
		for (const char *s = p->stack; *s;) {
			size_t n = strcspn(s, "\n");
			fprintf(f, "%*s  ", ind, "");
			put_text(f, s, n);
			fputc('\n', f);
			s += n + (s[n] == '\n');
		}
	}
}

void proc_report_text(FILE *f, const struct proc_report *r)
{
	const char *col = strcmp(r->liveness, "hung") == 0 || strcmp(r->liveness, "exited") == 0 ? C_RED :
			  strcmp(r->liveness, "busy") == 0 || strcmp(r->liveness, "idle") == 0 ? C_GREEN : C_YELLOW;
	if (r->log_path) {
		text(f, r->log_path);
		fputs(r->log_deleted ? " (deleted): " : ": ", f);
	}
	fprintf(f, "%s", col);
	text(f, r->verdict);
	fprintf(f, "%s\n", C_RESET);
	if (r->nprocs)
		fputc('\n', f);
	for (size_t i = 0; i < r->nprocs; i++)
		text_process(f, r, &r->procs[i]);
	if (r->port || r->nnotes)
		fputc('\n', f);
	if (r->port) {
		fprintf(f, "  port      %u, from line %zu: ", r->port, r->port_line);
		text(f, r->port_text);
		fputc('\n', f);
		fprintf(f, "            ");
		if (!r->port_listening)
			fputs("nobody on this machine listens on it\n", f);
		else if (r->port_in_tree)
			fprintf(f, "listening (pid %d)\n", r->port_pid);
		else if (r->port_pid)
			fprintf(f, "listening, but by pid %d, which is not one of these processes\n", r->port_pid);
		else
			fputs("listening, by a process ddx may not inspect\n", f);
	}
	for (size_t k = 0; k < r->nnotes; k++) {
		fputs("  note      ", f);
		text(f, r->notes[k]);
		fputc('\n', f);
	}
}
