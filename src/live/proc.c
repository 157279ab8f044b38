/* proc.c — the one reader of /proc in ddx (after htop's
 * LinuxProcessTable.c): every file is opened relative to a directory fd
 * for the root, so tests can point the root at a fixture tree; a process
 * that vanishes between readdir() and open() is skipped, never an error;
 * /proc/PID/stat is parsed from the last ')'.
 *
 * Fixture trees follow /proc's layout (PID/stat, status-free: ddx reads
 * stat, cmdline, wchan, syscall, io, environ (for RANK only), fd/,
 * fdinfo/, task/TID/stat; and
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
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "util.h"

/* include/linux/sched.h: the task is a kernel thread. */
#define PF_KTHREAD 0x00200000u

/* ---- small helpers ---- */

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
	int k = sscanf(rest, " %c %d %*d %*d %*d %*d %u %*u %*u %*u %*u %llu %llu"
			     " %*d %*d %*d %*d %d %*d %llu %*u %ld",
		       &st->state, &st->ppid, &st->flags, &st->utime, &st->stime, &st->threads,
		       &st->starttime, &st->rss_pages);
	return k == 8 ? 0 : -1;
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

/* The seconds a thread spent on a CPU plus waiting for one, from its
 * schedstat ("RUN_NS WAIT_NS SLICES"); NAN when the kernel keeps none
 * (no CONFIG_SCHED_INFO) or a fixture tree has no such file. */
static double runnable_of(int tfd, const char *tid)
{
	char name[300], buf[128];
	snprintf(name, sizeof(name), "%s/schedstat", tid);
	unsigned long long run, wait;
	ssize_t n = read_small(tfd, name, buf, sizeof(buf));
	if (n < 0 || sscanf(buf, "%llu %llu", &run, &wait) != 2)
		return NAN;
	return (double)(run + wait) / 1e9;
}

static int cmp_sock(const void *a, const void *b)
{
	uint64_t x = ((const struct proc_sock_ent *)a)->s.inode, y = ((const struct proc_sock_ent *)b)->s.inode;
	return x < y ? -1 : x > y;
}

const struct proc_sock_ent *proc_find_sock(const struct proc_scan *c, uint64_t inode)
{
	struct proc_sock_ent key = { .s.inode = inode };
	if (!c->nsocks)
		return NULL;
	return bsearch(&key, c->socks, c->nsocks, sizeof(key), cmp_sock);
}

/* Keep of the sockets the scan saw those that listen. */
static void keep_listeners(struct proc_scan *c)
{
	size_t k = 0;
	for (size_t i = 0; i < c->nowners; i++) {
		const struct proc_sock_ent *se = proc_find_sock(c, c->owners[i].inode);
		if (se && se->listen)
			c->owners[k++] = c->owners[i];
	}
	c->nowners = k;
}

void proc_load_sockets(struct proc_scan *c, char ***notes, size_t *nnotes)
{
	static const char *files[] = { "net/tcp", "net/tcp6", "net/unix" };
	struct buf b = { .max = (size_t)256 << 20 };
	size_t cap = 0;
	for (int k = 0; k < 3; k++) {
		int e = slurp_at(c->rootfd, files[k], &b);
		if (e < 0) {
			if (k != 1)   /* no tcp6 is normal without IPv6 */
				strv_push(notes, nnotes,
					  xasprintf("%s: %s", files[k], strerror(-e)));
			continue;
		}
		for (char *line = b.p; line && *line;) {
			char *nl = strchr(line, '\n');
			if (nl)
				*nl = '\0';
			struct proc_sock_ent se;
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
	keep_listeners(c);
}

/* The inode of a socket named by an fd link's text "socket:[N]". */
static uint64_t socket_inode(const char *link)
{
	unsigned long long v;
	return sscanf(link, "socket:[%llu]", &v) == 1 ? v : 0;
}

static void add_holder(struct proc_scan *c, int pid, int fd)
{
	if (!c->nholders || c->holders[c->nholders - 1].pid != pid) {
		GROW(c->holders, c->holders_cap, c->nholders + 1);
		c->holders[c->nholders].pid = pid;
		c->holders[c->nholders++].nfds = 0;
	}
	struct proc_holder *h = &c->holders[c->nholders - 1];
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
/* A GPU device, by the name its fd link gives: NVIDIA's (/dev/nvidia0,
 * nvidiactl, nvidia-uvm), AMD's compute device, an accelerator's. */
static int gpu_device(const char *link)
{
	return strncmp(link, "/dev/nvidia", 11) == 0 || strcmp(link, "/dev/kfd") == 0 ||
	       strncmp(link, "/dev/accel/", 11) == 0;
}

/* Record pid's holds of the log and its sockets; returns whether it
 * holds a GPU device open. */
static int scan_fds(struct proc_scan *c, int pfd, int pid, const char *comm)
{
	int dfd = open_dir_at(pfd, "fd");
	if (dfd < 0) {
		if (dfd == -EACCES || dfd == -EPERM)
			c->denied++;
		return 0;
	}
	DIR *d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return 0;
	}
	int fds[256], nfds = 0, reads = 0, gpu = 0;
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
			/* Only a character device can be a GPU: its name is
			 * read for no other fd. */
			if (S_ISCHR(st.st_mode) && !gpu &&
			    (ln = readlinkat(dfd, e->d_name, link, sizeof(link) - 1)) > 0) {
				link[ln] = '\0';
				gpu = gpu_device(link);
			}
		} else if ((ln = readlinkat(dfd, e->d_name, link, sizeof(link) - 1)) > 0) {
			link[ln] = '\0';
			sock = socket_inode(link);
			gpu |= gpu_device(link);
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
			c->owners[c->nowners++] = (struct proc_owner){ pid, sock };
		}
	}
	closedir(d);
	if (reads && !nfds)
		buf_printf(&c->readers, "%spid %d (%s)", c->nreaders++ ? ", " : "", pid, comm);
	/* fd 1 before fd 2, whatever order readdir gave. */
	qsort(fds, (size_t)nfds, sizeof(int), cmp_int);
	for (int i = 0; i < nfds; i++)
		add_holder(c, pid, fds[i]);
	return gpu;
}

static int cmp_pair(const void *a, const void *b)
{
	return cmp_int(&((const struct proc_pid_pair *)a)->pid, &((const struct proc_pid_pair *)b)->pid);
}

int proc_scan_all(struct proc_scan *c)
{
	int dup_fd = dup(c->rootfd);
	DIR *d = dup_fd < 0 ? NULL : fdopendir(dup_fd);
	if (!d) {
		if (dup_fd >= 0)
			close(dup_fd);
		return error("cannot read '%s': %s", c->root, strerror(errno));
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
		c->all[c->nall].starttime = st.starttime;
		c->all[c->nall].ppid = st.ppid;
		c->all[c->nall++].gpu = scan_fds(c, pfd, pid, st.comm);
		close(pfd);
	}
	closedir(d);
	if (c->nall)
		qsort(c->all, c->nall, sizeof(*c->all), cmp_pair);
	return 0;
}

static const struct proc_pid_pair *scanned(const struct proc_scan *c, int pid)
{
	struct proc_pid_pair key = { .pid = pid };
	return c->nall ? bsearch(&key, c->all, c->nall, sizeof(key), cmp_pair) : NULL;
}

/* The parent of pid as the scan saw it, or -1. */
int proc_ppid(const struct proc_scan *c, int pid)
{
	const struct proc_pid_pair *p = scanned(c, pid);
	return p ? p->ppid : -1;
}

int proc_uses_gpu(const struct proc_scan *c, int pid)
{
	const struct proc_pid_pair *p = scanned(c, pid);
	return p && p->gpu;
}

unsigned long long proc_scan_starttime(const struct proc_scan *c, int pid)
{
	const struct proc_pid_pair *p = scanned(c, pid);
	return p ? p->starttime : 0;
}

/* "tcp 127.0.0.1:8000", "tcp6 [::]:8000", "unix /run/x.sock" or "unix
 * socket"; the caller frees it. */
char *proc_sock_name(const struct proc_sock *s)
{
	if (strcmp(s->proto, "unix") == 0)
		return s->addr[0] ? xasprintf("unix %s", s->addr) : xstrdup("unix socket");
	int v6 = strcmp(s->proto, "tcp6") == 0;
	return xasprintf("%s %s%s%s:%u", s->proto, v6 ? "[" : "", s->addr, v6 ? "]" : "", s->port);
}

/* What kind of thing fd is in process directory pfd. */
static char *describe_fd(const struct proc_scan *c, int pfd, long fd, int depth);

static char *describe_epoll(const struct proc_scan *c, int pfd, long fd, int depth)
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
		s = xasprintf("epoll watching %s and %d more", b.p, n - 3);
	else
		s = xasprintf("epoll watching %s", b.p);
	buf_free(&b);
	return s;
}

static char *describe_fd(const struct proc_scan *c, int pfd, long fd, int depth)
{
	char name[64], link[PATH_MAX];
	snprintf(name, sizeof(name), "fd/%ld", fd);
	ssize_t n = readlinkat(pfd, name, link, sizeof(link) - 1);
	if (n < 0)
		return xasprintf("fd %ld", fd);
	link[n] = '\0';
	uint64_t ino = socket_inode(link);
	if (ino) {
		const struct proc_sock_ent *se = proc_find_sock(c, ino);
		if (!se)
			return xstrdup("socket");
		char *name = proc_sock_name(&se->s);
		char *s = xasprintf("%s%s", name, se->listen ? " (listening)" : "");
		free(name);
		return s;
	}
	if (strncmp(link, "pipe:", 5) == 0)
		return xstrdup("pipe");
	if (strcmp(link, "anon_inode:[eventpoll]") == 0)
		return describe_epoll(c, pfd, fd, depth);
	if (strncmp(link, "anon_inode:[", 12) == 0 && link[n - 1] == ']')
		return xasprintf("%.*s", (int)(n - 13), link + 12);
	if (strncmp(link, "anon_inode:", 11) == 0)
		return xstrdup(link + 11);
	return xstrdup(link);
}

static char *decode_arg(const struct proc_scan *c, int pfd, int idx, const unsigned long a[6])
{
	const char *name = syscalls[idx].name;
	if (syscalls[idx].fd) {
		char *what = describe_fd(c, pfd, (long)a[0], 0);
		char *s = xasprintf("fd %ld: %s", (long)a[0], what);
		free(what);
		return s;
	}
	if (strcmp(name, "futex") == 0) {
		unsigned op = (unsigned)a[1] & 0x7f;   /* without PRIVATE and CLOCK_REALTIME */
		const char *opn = op == 0 ? " FUTEX_WAIT" : op == 9 ? " FUTEX_WAIT_BITSET" :
				  op == 6 ? " FUTEX_LOCK_PI" : "";
		return xasprintf("0x%lx%s", a[0], opn);
	}
	if (strcmp(name, "poll") == 0 || strcmp(name, "ppoll") == 0)
		return xasprintf("%lu fds", a[1]);
	if (strcmp(name, "select") == 0 || strcmp(name, "pselect6") == 0)
		return xasprintf("nfds %lu", a[0]);
	if (strcmp(name, "wait4") == 0)
		/* pid_t is an int: -1 comes as 0xffffffff in a 64-bit word. */
		return (int)a[0] == -1 ? xstrdup("any child") : xasprintf("pid %d", (int)a[0]);
	return NULL;
}

static void add_unreadable(struct proc_info *p, const char *what, int e)
{
	strv_push(&p->unreadable, &p->nunreadable, xasprintf("%s: %s", what, errno_text(e)));
}

static const char state_order[] = "RSDZTtIXKWP";

static int cmp_thread(const void *a, const void *b)
{
	return cmp_int(&((const struct proc_thread *)a)->tid, &((const struct proc_thread *)b)->tid);
}

/* Every thread of the process at pfd (its task/TID/stat: name, state,
 * CPU time), by tid, into *out; -errno when task/ is unreadable. */
static int read_thread_list(const struct proc_scan *c, int pfd, struct proc_thread **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	int tfd = open_dir_at(pfd, "task");
	if (tfd < 0)
		return tfd;
	DIR *d = fdopendir(tfd);
	if (!d) {
		close(tfd);
		return -ENOMEM;
	}
	size_t cap = 0;
	struct dirent *e;
	while ((e = readdir(d)) && *n < PROC_MAX_THREADS) {
		int tid = parse_pid(e->d_name);
		if (tid < 0)
			continue;
		char name[300];
		struct proc_stat st;
		snprintf(name, sizeof(name), "%s/stat", e->d_name);
		if (read_stat(tfd, name, &st) < 0)
			continue;   /* the thread exited */
		GROW(*out, cap, *n + 1);
		struct proc_thread *t = &(*out)[(*n)++];
		t->tid = tid;
		snprintf(t->comm, sizeof(t->comm), "%s", st.comm);
		t->state = st.state;
		t->cpu_s = cpu_of(&st, c->hz);
		t->cpu_s_delta = NAN;
		t->runnable_s = runnable_of(tfd, e->d_name);
		t->runnable_s_delta = NAN;
	}
	closedir(d);
	if (*n)
		qsort(*out, *n, sizeof(**out), cmp_thread);
	return 0;
}

static void read_threads(const struct proc_scan *c, struct proc_info *p, int pfd)
{
	int e = read_thread_list(c, pfd, &p->thr, &p->nthr);
	if (e < 0) {
		add_unreadable(p, "task", -e);
		return;
	}
	int counts[sizeof(state_order)] = { 0 }, other = 0;
	for (size_t i = 0; i < p->nthr; i++) {
		const char *k = strchr(state_order, p->thr[i].state);
		if (k && p->thr[i].state)
			counts[k - state_order]++;
		else
			other++;
	}
	size_t len = 0;
	for (size_t i = 0; i < sizeof(state_order) - 1; i++)
		if (counts[i] && len < sizeof(p->thread_states) - 16)
			len += (size_t)snprintf(p->thread_states + len, sizeof(p->thread_states) - len,
						"%s%d %c", len ? ", " : "", counts[i], state_order[i]);
	if (other && len < sizeof(p->thread_states) - 16)
		snprintf(p->thread_states + len, sizeof(p->thread_states) - len,
			 "%s%d ?", len ? ", " : "", other);
}

/* rchar + wchar of the process at pfd: every byte it read or wrote
 * through any file, pipe or socket; -1 when unreadable (another user's
 * process). */
static long long read_io(int pfd)
{
	char buf[1024];
	if (read_small(pfd, "io", buf, sizeof(buf)) < 0)
		return -1;
	const char *r = strstr(buf, "rchar:"), *w = strstr(buf, "wchar:");
	if (!r || !w)
		return -1;
	return (long long)(strtoull(r + 6, NULL, 10) + strtoull(w + 6, NULL, 10));
}

int proc_read_sample(const struct proc_scan *c, int pid, struct proc_sample *s)
{
	char name[32];
	struct proc_stat st;
	memset(s, 0, sizeof(*s));
	snprintf(name, sizeof(name), "%d", pid);
	int pfd = open_dir_at(c->rootfd, name);
	if (pfd < 0)
		return -1;
	if (read_stat(pfd, "stat", &st) < 0) {
		close(pfd);
		return -1;
	}
	s->state = st.state;
	s->cpu_s = cpu_of(&st, c->hz);
	s->starttime = st.starttime;
	s->io_bytes = read_io(pfd);
	read_thread_list(c, pfd, &s->thr, &s->nthr);
	close(pfd);
	return 0;
}

/* The RANK a launcher (torchrun, mpirun's OMPI_COMM_WORLD_RANK, SLURM)
 * gave the process in its environment, into rank; only that variable
 * is kept, nothing else of the environment.  "" when none or
 * unreadable. */
static void read_rank(int pfd, char *rank, size_t cap)
{
	static const char *const vars[] = { "RANK=", "OMPI_COMM_WORLD_RANK=", "PMI_RANK=", "SLURM_PROCID=" };
	struct buf b = { .max = 1 << 20 };
	rank[0] = '\0';
	if (slurp_at(pfd, "environ", &b) == 0) {
		for (size_t v = 0; v < sizeof(vars) / sizeof(vars[0]) && !rank[0]; v++) {
			size_t vl = strlen(vars[v]);
			for (size_t i = 0; i < b.len; i += strlen(b.p + i) + 1)
				if (strncmp(b.p + i, vars[v], vl) == 0) {
					const char *val = b.p + i + vl;
					size_t n = strspn(val, "0123456789");
					if (n && !val[n] && n < cap)
						memcpy(rank, val, n + 1);
					break;
				}
		}
	}
	buf_free(&b);
}

/* Fill p (pid, holds_log, log fds already set) from /proc/PID. */
void proc_read_details(const struct proc_scan *c, struct proc_info *p, double uptime, double btime)
{
	char name[32], sbuf[2048];
	if (proc_ppid(c, p->pid) < 0) {   /* a pid given that the scan did not see */
		p->gone = 1;
		strv_push(&p->unreadable, &p->nunreadable, xstrdup("no such process"));
		return;
	}
	snprintf(name, sizeof(name), "%d", p->pid);
	int pfd = open_dir_at(c->rootfd, name);
	struct proc_stat st;
	if (pfd < 0 || read_stat(pfd, "stat", &st) < 0) {
		p->gone = 1;
		strv_push(&p->unreadable, &p->nunreadable, xstrdup("process exited during inspection"));
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
	p->starttime = st.starttime;
	/* The pid the scan saw may have exited and been given to another
	 * process since: then this is not the one that held the log. */
	unsigned long long seen = proc_scan_starttime(c, p->pid);
	if (seen && seen != st.starttime) {
		p->gone = 1;
		strv_push(&p->unreadable, &p->nunreadable,
			  xstrdup("exited during inspection; its pid now names another process"));
		close(pfd);
		return;
	}
	p->kernel_thread = (st.flags & PF_KTHREAD) != 0;
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
		p->cmdline = xasprintf("%.*s", (int)b.len, b.p);
	} else {
		if (e < 0)
			add_unreadable(p, "cmdline", -e);
		p->cmdline = xasprintf("[%s]", p->comm);
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

	p->io_bytes = p->kernel_thread ? -1 : read_io(pfd);
	if (!p->kernel_thread)
		read_rank(pfd, p->rank, sizeof(p->rank));
	p->rank_from = p->rank[0] ? "environment" : NULL;
	/* A kernel thread is in no syscall: its syscall file reads as
	 * syscall 0 with zero arguments, which is no "read". */
	if (p->kernel_thread) {
		read_threads(c, p, pfd);
	} else if (p->state != 'Z') {
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
				p->syscall = xasprintf("syscall %ld", nr);
			else {
				p->syscall = xstrdup(syscalls[idx].name);
				p->syscall_arg = decode_arg(c, pfd, idx, a);
			}
		}
		read_threads(c, p, pfd);
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
		const struct proc_sock_ent *se = proc_find_sock(c, c->owners[i].inode);
		p->listening = xrealloc(p->listening, (p->nlistening + 1) * sizeof(*p->listening));
		p->listening[p->nlistening++] = se->s;
	}
}

double proc_uptime(const struct proc_scan *c)
{
	char buf[128];
	return read_small(c->rootfd, "uptime", buf, sizeof(buf)) > 0 ? strtod(buf, NULL) : -1;
}

double proc_btime(const struct proc_scan *c)
{
	struct buf b = { .max = 1 << 20 };
	double bt = 0;
	if (slurp_at(c->rootfd, "stat", &b) == 0) {
		const char *p = strstr(b.p, "\nbtime ");
		if (p)
			bt = strtod(p + 7, NULL);
	}
	buf_free(&b);
	return bt;
}

int proc_output_file(struct proc_scan *c, int pid, char **path, int *deleted)
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
		*deleted = len > 10 && strcmp(link + len - 10, " (deleted)") == 0;
		if (*deleted)
			link[len - 10] = '\0';
		*path = xstrdup(link);
		return 1;
	}
	return 0;
}

int proc_fd_stat(const struct proc_scan *c, int pid, int fd, struct stat *st)
{
	char name[64];
	snprintf(name, sizeof(name), "%d/fd/%d", pid, fd);
	return fstatat(c->rootfd, name, st, 0);
}

int proc_open(struct proc_scan *c, const char *root)
{
	memset(c, 0, sizeof(*c));
	c->root = root;
	c->readers.max = 512;
	c->rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (c->rootfd < 0)
		return error("cannot open '%s': %s", root, strerror(errno));
	c->hz = sysconf(_SC_CLK_TCK);
	c->page_kb = sysconf(_SC_PAGESIZE) / 1024;
	if (read_small(c->rootfd, "sys/kernel/arch", c->arch, sizeof(c->arch)) > 0) {
		c->arch[strcspn(c->arch, "\n")] = '\0';
	} else {
		struct utsname u;
		snprintf(c->arch, sizeof(c->arch), "%s", uname(&u) == 0 ? u.machine : "?");
	}
	return 0;
}

void proc_close(struct proc_scan *c)
{
	close(c->rootfd);
	free(c->socks);
	free(c->all);
	free(c->holders);
	free(c->owners);
	free(c->deleted_link);
	buf_free(&c->readers);
}
