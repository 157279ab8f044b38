/* source.c — reading logs that live elsewhere through their own tools.
 * See source.h.
 *
 * The tools run with stdin from /dev/null and their standard error in a
 * file of their own (OpenSSH's shared connection keeps it open after the
 * command ends, so reading it as a pipe would wait for the connection to
 * close).  What a remote host sends back is data: its shell runs ddx's
 * fixed script with the path as its argument, quoted, and nothing it
 * sends is run here. */
#include "source.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

extern char **environ;

enum kind { SRC_LOCAL, SRC_SSH, SRC_JOURNAL, SRC_DOCKER, SRC_K8S };

struct source {
	enum kind kind;
	char *dest;          /* ssh: [user@]host as ssh takes it */
	char *port;          /* ssh://'s port, or NULL */
	char *name;          /* ssh: the path; the unit, container or pod */
	char *ns, *container;
	int previous;        /* k8s: the container's last run */
};

static char *dupn(const char *p, size_t n)
{
	char *d = xmalloc(n + 1);
	memcpy(d, p, n);
	d[n] = '\0';
	return d;
}

static void source_free(struct source *s)
{
	free(s->dest);
	free(s->port);
	free(s->name);
	free(s->ns);
	free(s->container);
	memset(s, 0, sizeof(*s));
}

/* A name handed to a tool as an argument: not empty, no option (a
 * leading '-'), no control character. */
static int plain_arg(const char *s, size_t n)
{
	if (n == 0 || s[0] == '-')
		return 0;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return 0;
	return 1;
}

/* "[user@]host[:port]" up to end into s (port only when with_port);
 * returns 0 when it is no host. */
static int parse_host(const char *p, const char *end, int with_port, struct source *s)
{
	const char *at = memchr(p, '@', (size_t)(end - p));
	const char *host = at ? at + 1 : p, *hend = end, *port = NULL;
	if (host < end && *host == '[') {
		const char *rb = memchr(host, ']', (size_t)(end - host));
		if (!rb)
			return 0;
		if (rb + 1 < end) {
			if (!with_port || rb[1] != ':')
				return 0;
			port = rb + 2;
		}
		hend = rb + 1;
	} else if (with_port) {
		const char *colon = memchr(host, ':', (size_t)(end - host));
		if (colon)
			hend = colon, port = colon + 1;
	}
	if (!plain_arg(p, (size_t)(hend - p)) || hend == host)
		return 0;
	for (const char *c = p; c < hend; c++)
		if (*c == ' ' || *c == '\t' || *c == '/')
			return 0;
	if (port && (port == end || strspn(port, "0123456789") != (size_t)(end - port)))
		return 0;
	s->dest = dupn(p, (size_t)(hend - p));
	s->port = port ? dupn(port, (size_t)(end - port)) : NULL;
	return 1;
}

/* k8s:[NAMESPACE/]POD[/CONTAINER][:previous] */
static int parse_k8s(const char *p, struct source *s)
{
	size_t n = strlen(p);
	if (n > 9 && strcmp(p + n - 9, ":previous") == 0)
		s->previous = 1, n -= 9;
	const char *parts[3];
	size_t len[3], k = 0;
	for (const char *c = p, *end = p + n; c <= end && k < 3;) {
		const char *slash = memchr(c, '/', (size_t)(end - c));
		const char *e = slash ? slash : end;
		parts[k] = c, len[k++] = (size_t)(e - c);
		if (!slash)
			break;
		c = slash + 1;
		if (k == 3)
			return 0;
	}
	for (size_t i = 0; i < k; i++)
		if (!plain_arg(parts[i], len[i]) || memchr(parts[i], ':', len[i]))
			return 0;
	size_t pod = k == 1 ? 0 : 1;
	s->name = dupn(parts[pod], len[pod]);
	if (k > 1)
		s->ns = dupn(parts[0], len[0]);
	if (k > 2)
		s->container = dupn(parts[2], len[2]);
	return 1;
}

/* Which source arg names, into s; SRC_LOCAL (s empty) for a local path. */
static enum kind parse(const char *arg, struct source *s)
{
	memset(s, 0, sizeof(*s));
	struct stat st;
	if (strcmp(arg, "-") == 0 || lstat(arg, &st) == 0)
		return SRC_LOCAL;
	static const struct { const char *prefix; enum kind kind; } tools[] = {
		{ "journal:", SRC_JOURNAL }, { "docker:", SRC_DOCKER }, { "k8s:", SRC_K8S },
	};
	for (size_t k = 0; k < sizeof(tools) / sizeof(*tools); k++) {
		size_t n = strlen(tools[k].prefix);
		if (strncmp(arg, tools[k].prefix, n) != 0)
			continue;
		const char *rest = arg + n;
		if (tools[k].kind == SRC_K8S ? !parse_k8s(rest, s) : !plain_arg(rest, strlen(rest))) {
			source_free(s);
			return SRC_LOCAL;
		}
		if (!s->name)
			s->name = xstrdup(rest);
		return s->kind = tools[k].kind;
	}
	const char *path;
	if (strncmp(arg, "ssh://", 6) == 0) {
		const char *auth = arg + 6;
		path = strchr(auth, '/');
		if (!path || !path[1] || !parse_host(auth, path, 1, s)) {
			source_free(s);
			return SRC_LOCAL;
		}
	} else {
		/* scp's rule: a colon before any slash, and no URL. */
		const char *colon = arg[0] == '[' || strstr(arg, "@[") ? strstr(arg, "]:") : strchr(arg, ':');
		if (colon && *colon == ']')
			colon++;
		if (!colon || strstr(arg, "://") || memchr(arg, '/', (size_t)(colon - arg)) || !colon[1] ||
		    !parse_host(arg, colon, 0, s)) {
			source_free(s);
			return SRC_LOCAL;
		}
		path = colon + 1;
	}
	s->name = xstrdup(path);
	return s->kind = SRC_SSH;
}

int source_is_remote(const char *path)
{
	struct source s;
	enum kind k = parse(path, &s);
	source_free(&s);
	return k != SRC_LOCAL;
}

/* ---- running a tool ---- */

/* The last line of what a tool wrote to its standard error, made safe to
 * print (control characters become '?'), or NULL when it wrote none. */
static char *last_line(const char *p, size_t n)
{
	while (n && (p[n - 1] == '\n' || p[n - 1] == '\r' || p[n - 1] == ' '))
		n--;
	if (!n)
		return NULL;
	const char *nl = memrchr(p, '\n', n);
	const char *b = nl ? nl + 1 : p;
	char *out = dupn(b, (size_t)(p + n - b));
	for (char *c = out; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	return out;
}

/* Where ddx keeps what it makes for a while: $TMPDIR, unless too long
 * for a socket's path inside it. */
static const char *tmp_dir(void)
{
	const char *t = getenv("TMPDIR");
	return t && *t == '/' && strlen(t) < 48 ? t : "/tmp";
}

/* Run argv (argv[0] from PATH): its standard output into *out (at most
 * max bytes; merged with its standard error when merge), the last line
 * of its standard error into *why (NULL for none).  Returns its exit
 * status, 128 + N when signal N ended it, -1 when it could not run or
 * wrote more than max (*why says which). */
static int run_tool(char *const argv[], size_t max, int merge, char **out, size_t *n, char **why)
{
	*out = NULL, *n = 0, *why = NULL;
	int pfd[2], efd = -1;
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		*why = xasprintf("cannot make a pipe: %s", strerror(errno));
		return -1;
	}
	char *etmp = xasprintf("%s/ddx-err-XXXXXX", tmp_dir());
	if (!merge && (efd = mkostemp(etmp, O_CLOEXEC)) >= 0)
		unlink(etmp);
	free(etmp);
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], 1);
	if (merge)
		posix_spawn_file_actions_adddup2(&fa, pfd[1], 2);
	else if (efd >= 0)
		posix_spawn_file_actions_adddup2(&fa, efd, 2);
	pid_t pid;
	int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[1]);
	if (rc != 0) {
		close(pfd[0]);
		if (efd >= 0)
			close(efd);
		*why = rc == ENOENT ? xasprintf("%s: not found on PATH", argv[0])
			: xasprintf("cannot run %s: %s", argv[0], strerror(rc));
		return -1;
	}
	struct buf b = { 0 };
	int too_big = 0;
	char chunk[65536];
	for (;;) {
		ssize_t r = read(pfd[0], chunk, sizeof(chunk));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (b.len + (size_t)r > max) {
			too_big = 1;
			kill(pid, SIGTERM);
			break;
		}
		buf_append(&b, chunk, (size_t)r);
	}
	close(pfd[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (efd >= 0) {
		char e[4096];
		ssize_t r = pread(efd, e, sizeof(e), 0);
		struct stat st;
		/* The end of a long complaint says what went wrong. */
		if (fstat(efd, &st) == 0 && st.st_size > (off_t)sizeof(e))
			r = pread(efd, e, sizeof(e), st.st_size - (off_t)sizeof(e));
		if (r > 0)
			*why = last_line(e, (size_t)r);
		close(efd);
	}
	if (too_big) {
		free(b.p);
		free(*why);
		*why = xasprintf("larger than %zu MiB, the most ddx holds in memory", max >> 20);
		return -1;
	}
	if (merge && (!WIFEXITED(status) || WEXITSTATUS(status) != 0) && b.len)
		*why = last_line(b.p, b.len);
	*out = b.p ? b.p : xstrdup("");
	*n = b.len;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* argv for tool (default program prog, or the command in environment
 * variable var, run by sh with the arguments after it), then args (NULL
 * ended); free with free_argv. */
static char **tool_argv(const char *prog, const char *var, const char *const *args)
{
	size_t na = 0;
	while (args[na])
		na++;
	char **v = xcalloc(na + 5, sizeof(*v));
	size_t k = 0;
	const char *cmd = getenv(var);
	if (cmd && *cmd) {
		v[k++] = xstrdup("/bin/sh");
		v[k++] = xstrdup("-c");
		v[k++] = xasprintf("%s \"$@\"", cmd);
		v[k++] = xstrdup(prog);
	} else {
		v[k++] = xstrdup(prog);
	}
	for (size_t i = 0; i < na; i++)
		v[k++] = xstrdup(args[i]);
	return v;
}

static void free_argv(char **v)
{
	for (size_t i = 0; v[i]; i++)
		free(v[i]);
	free(v);
}

/* ---- OpenSSH ---- */

/* One connection per host: the first command to a host starts a shared
 * connection (ControlMaster) whose socket lives in a private folder; the
 * others go through it.  It is closed when ddx exits, or after 30 s idle
 * when ddx could not close it (killed). */
static struct {
	pthread_mutex_t lock;
	char dir[64];
	char **dests;          /* hosts with a connection to close */
	size_t n, cap;
	struct unreached { char *dest, *why; } *failed;  /* and why */
	size_t nfailed, capfailed;
} ssh = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void ssh_close_all(void)
{
	for (size_t i = 0; i < ssh.n; i++) {
		char *path = xasprintf("ControlPath=%s/%%C", ssh.dir);
		const char *args[] = { "-o", path, "-O", "exit", "--", ssh.dests[i], NULL };
		char **v = tool_argv("ssh", "DDX_SSH_COMMAND", args);
		char *out, *why;
		size_t n;
		run_tool(v, 1 << 16, 0, &out, &n, &why);
		free(out);
		free(why);
		free_argv(v);
		free(path);
		free(ssh.dests[i]);
	}
	free(ssh.dests);
	for (size_t i = 0; i < ssh.nfailed; i++) {
		free(ssh.failed[i].dest);
		free(ssh.failed[i].why);
	}
	free(ssh.failed);
	/* A connection told to close removes its socket as it goes, maybe
	 * after this: the folder goes now, with what is left in it. */
	DIR *d = ssh.dir[0] ? opendir(ssh.dir) : NULL;
	struct dirent *e;
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			unlinkat(dirfd(d), e->d_name, 0);
	if (d)
		closedir(d);
	if (ssh.dir[0])
		rmdir(ssh.dir);
}

/* The control socket's folder, made on first use ("" when it cannot be:
 * then every command opens its own connection).  Under ssh.lock. */
static const char *control_dir(void)
{
	if (!ssh.dir[0]) {
		snprintf(ssh.dir, sizeof(ssh.dir), "%s/ddx-ssh-XXXXXX", tmp_dir());
		if (!mkdtemp(ssh.dir))
			ssh.dir[0] = '\0';
		atexit(ssh_close_all);
	}
	return ssh.dir;
}

/* Why dest could not be reached before, or NULL.  Under ssh.lock. */
static const char *failed_before(const char *dest)
{
	for (size_t i = 0; i < ssh.nfailed; i++)
		if (strcmp(ssh.failed[i].dest, dest) == 0)
			return ssh.failed[i].why;
	return NULL;
}

/* Quote s for a POSIX shell: 'it'\''s'. */
static char *sh_quote(const char *s)
{
	struct buf b = { 0 };
	buf_append(&b, "'", 1);
	for (; *s; s++)
		if (*s == '\'')
			buf_append(&b, "'\\''", 4);
		else
			buf_append(&b, s, 1);
	buf_append(&b, "'", 1);
	return b.p;
}

/* The exit status the scripts give a path they cannot read; their
 * standard error says why. */
#define NO_READ 66

/* Print the clock, the file's mtime ("-" when stat cannot tell), then
 * the file. */
static const char FETCH[] =
	"p=$1; "
	"if [ ! -e \"$p\" ]; then echo 'No such file or directory' >&2; exit 66; fi; "
	"if [ ! -r \"$p\" ]; then echo 'Permission denied' >&2; exit 66; fi; "
	"if [ -d \"$p\" ]; then echo 'Is a directory' >&2; exit 66; fi; "
	"m=$(stat -c %Y -- \"$p\" 2>/dev/null || stat -f %m -- \"$p\" 2>/dev/null || echo -); "
	"printf 'ddx %s %s\\n' \"$(date +%s)\" \"$m\"; exec cat -- \"$p\"";
static const char IS_FOLDER[] = "test -d \"$1\"";
static const char LIST[] =
	"cd -- \"$1\" 2>/dev/null || { echo 'No such folder' >&2; exit 66; }; "
	"find -L . -type f ! -path '*/.*' -print";

/* Run script on s's host with s's path as $1: its output as run_tool
 * gives it.  A host that could not be reached once is not tried again. */
static int ssh_run(const struct source *s, const char *script, size_t max, char **out, size_t *n,
		   char **why)
{
	pthread_mutex_lock(&ssh.lock);
	const char *failed = failed_before(s->dest);
	if (failed) {
		*out = NULL, *n = 0, *why = xstrdup(failed);
		pthread_mutex_unlock(&ssh.lock);
		return 255;
	}
	const char *dir = control_dir();
	int first = 1;
	for (size_t i = 0; i < ssh.n; i++)
		first &= strcmp(ssh.dests[i], s->dest) != 0;
	if (first && dir[0]) {
		GROW(ssh.dests, ssh.cap, ssh.n + 1);
		ssh.dests[ssh.n++] = xstrdup(s->dest);
	}
	char *path = dir[0] ? xasprintf("ControlPath=%s/%%C", dir) : xstrdup("ControlMaster=no");
	char *q = sh_quote(script), *qp = sh_quote(s->name);
	char *remote = xasprintf("sh -c %s ddx %s", q, qp);
	const char *args[24] = { "-o", "BatchMode=yes", "-o", "ConnectTimeout=15",
				 "-o", "ServerAliveInterval=15", "-o", "ServerAliveCountMax=4",
				 "-o", "ControlMaster=auto", "-o", "ControlPersist=30", "-o", path, "-C" };
	size_t na = 15;
	if (s->port)
		args[na++] = "-p", args[na++] = s->port;
	args[na++] = "--", args[na++] = s->dest, args[na++] = remote;
	char **v = tool_argv("ssh", "DDX_SSH_COMMAND", args);
	/* The first command to a host makes the shared connection: the
	 * others wait for it, then share it. */
	if (!first)
		pthread_mutex_unlock(&ssh.lock);
	int rc = run_tool(v, max, 0, out, n, why);
	if (!first)
		pthread_mutex_lock(&ssh.lock);
	if (rc == 255 || rc < 0) {
		GROW(ssh.failed, ssh.capfailed, ssh.nfailed + 1);
		ssh.failed[ssh.nfailed++] = (struct unreached){ xstrdup(s->dest),
								xstrdup(*why ? *why : "ssh failed") };
	}
	pthread_mutex_unlock(&ssh.lock);
	free_argv(v);
	free(remote);
	free(q);
	free(qp);
	free(path);
	return rc;
}

/* ---- the sources ---- */

/* The reply of a failed command as an error naming path: the tool's
 * own words when it said any. */
static int failed(const char *path, const char *tool, int rc, const char *why)
{
	if (why)
		return error("cannot read '%s': %s", path, why);
	if (rc < 0)
		return error("cannot read '%s': %s failed", path, tool);
	return error("cannot read '%s': %s exited with status %d", path, tool, rc);
}

/* A host's file: FETCH's first line gives the host's clock and the
 * file's mtime, so that the mtime is read on this host's clock whatever
 * the other's is set to. */
static int fetch_ssh(const char *path, const struct source *s, size_t max, char **data,
		     size_t *size, time_t *mtime, time_t *btime)
{
	char *out, *why;
	size_t n;
	/* The first line's few bytes more than the file. */
	int rc = ssh_run(s, FETCH, max + 64, &out, &n, &why);
	if (rc != 0) {
		free(out);
		int r = failed(path, "ssh", rc, why);
		free(why);
		return r;
	}
	free(why);
	char *nl = memchr(out, '\n', n);
	long long now_r = 0, m_r = 0;
	char mt[32] = "";
	if (!nl || sscanf(out, "ddx %lld %31s", &now_r, mt) != 2) {
		free(out);
		return error("cannot read '%s': the host's reply is not what ddx asked for", path);
	}
	time_t now = time(NULL);
	if (strcmp(mt, "-") != 0 && sscanf(mt, "%lld", &m_r) == 1 && m_r <= now_r) {
		*mtime = now - (time_t)(now_r - m_r);
		*btime = 0;
	} else {
		*mtime = *btime = now;   /* no mtime: as if written at once, now */
	}
	size_t head = (size_t)(nl + 1 - out);
	memmove(out, nl + 1, n - head);
	*size = n - head;
	*data = out;
	return 0;
}

/* The output of journalctl, docker or kubectl: written at once as it is
 * read, so its times are its lines' own. */
static int fetch_tool(const char *path, const struct source *s, size_t max, char **data,
		      size_t *size, time_t *mtime, time_t *btime)
{
	const char *args[12];
	size_t na = 0;
	const char *prog, *var;
	int merge = 0;
	if (s->kind == SRC_JOURNAL) {
		prog = "journalctl", var = "DDX_JOURNALCTL";
		args[na++] = "-q", args[na++] = "--no-pager", args[na++] = "-o";
		args[na++] = "short-iso-precise", args[na++] = "-u", args[na++] = s->name;
	} else if (s->kind == SRC_DOCKER) {
		/* docker logs writes what the container wrote to each stream
		 * to the same stream: both are the log. */
		prog = "docker", var = "DDX_DOCKER", merge = 1;
		args[na++] = "logs", args[na++] = "--timestamps", args[na++] = "--", args[na++] = s->name;
	} else {
		prog = "kubectl", var = "DDX_KUBECTL";
		args[na++] = "logs", args[na++] = "--timestamps";
		if (s->ns)
			args[na++] = "-n", args[na++] = s->ns;
		if (s->container)
			args[na++] = "-c", args[na++] = s->container;
		if (s->previous)
			args[na++] = "--previous";
		args[na++] = s->name;
	}
	args[na] = NULL;
	char **v = tool_argv(prog, var, args);
	char *out, *why;
	size_t n;
	int rc = run_tool(v, max, merge, &out, &n, &why);
	free_argv(v);
	if (rc != 0) {
		free(out);
		int r = failed(path, prog, rc, why);
		free(why);
		return r;
	}
	free(why);
	if (n == 0) {
		free(out);
		return error("cannot read '%s': %s printed no lines", path, prog);
	}
	*data = out;
	*size = n;
	*mtime = *btime = time(NULL);
	return 0;
}

int source_fetch(const char *path, size_t max, char **data, size_t *size, time_t *mtime,
		 time_t *btime)
{
	struct source s;
	enum kind k = parse(path, &s);
	int rc = k == SRC_SSH ? fetch_ssh(path, &s, max, data, size, mtime, btime)
		 : k != SRC_LOCAL ? fetch_tool(path, &s, max, data, size, mtime, btime)
		 : error("cannot read '%s': not a remote source", path);
	source_free(&s);
	return rc;
}

int source_is_folder(const char *path)
{
	struct source s;
	int folder = 0;
	if (parse(path, &s) == SRC_SSH) {
		char *out, *why;
		size_t n;
		folder = ssh_run(&s, IS_FOLDER, 1 << 16, &out, &n, &why) == 0;
		free(out);
		free(why);
	}
	source_free(&s);
	return folder;
}

/* Paths compared a component at a time in natural order: a folder's
 * files stay together, as a local folder's listing keeps them. */
static int cmp_components(const void *pa, const void *pb)
{
	const char *a = *(char *const *)pa, *b = *(char *const *)pb;
	for (;;) {
		size_t na = strcspn(a, "/"), nb = strcspn(b, "/");
		char *x = dupn(a, na), *y = dupn(b, nb);
		int c = natcmp(x, y);
		free(x);
		free(y);
		if (c || (!a[na] && !b[nb]))
			return c ? c : 0;
		if (!a[na] || !b[nb])
			return a[na] ? 1 : -1;   /* a file before a folder's */
		a += na + 1, b += nb + 1;
	}
}

int source_list_folder(const char *dir, char ***paths, size_t *n)
{
	struct source s;
	*paths = NULL, *n = 0;
	if (parse(dir, &s) != SRC_SSH) {
		source_free(&s);
		return error("cannot read folder '%s': not a host's folder", dir);
	}
	char *out, *why;
	size_t len;
	int rc = ssh_run(&s, LIST, (size_t)64 << 20, &out, &len, &why);
	source_free(&s);
	if (rc != 0) {
		free(out);
		int r = error("cannot read folder '%s': %s", dir, why ? why : "ssh failed");
		free(why);
		return r;
	}
	free(why);
	char **names = NULL;
	size_t nn = 0, cap = 0;
	for (char *line = out, *end = out + len; line < end;) {
		char *nl = memchr(line, '\n', (size_t)(end - line));
		size_t l = nl ? (size_t)(nl - line) : (size_t)(end - line);
		if (l > 2 && line[0] == '.' && line[1] == '/') {
			GROW(names, cap, nn + 1);
			names[nn++] = dupn(line + 2, l - 2);
		}
		line += l + 1;
	}
	free(out);
	if (nn)
		qsort(names, nn, sizeof(*names), cmp_components);
	size_t dl = strlen(dir);
	for (size_t i = 0; i < nn; i++) {
		char *full = xasprintf("%s%s%s", dir, dl && dir[dl - 1] == '/' ? "" : "/", names[i]);
		free(names[i]);
		names[i] = full;
	}
	*paths = names;
	*n = nn;
	return 0;
}
