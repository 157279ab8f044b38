/* outfile.c — writing a file ddx is told to write, never over what it
 * must not replace (see outfile.h).
 *
 * The temporary files live in a fixed table that a signal handler reads:
 * a slot is filled before it is published and cleared before its string
 * is freed, so the handler only ever unlinks a whole path. */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

/* ---- files this run reads ---- */

/* A file no output may replace: by device and inode while it exists, so
 * also under another name or a link, and by its name, so also before it
 * exists (a store's -wal, made by a learn while ddx writes its page).
 * A folder (a run of several files) also protects every name inside it:
 * whatever is written there is read as one of its logs next time. */
static struct protected {
	dev_t dev;
	ino_t ino;
	int exists, folder;
	char *name;          /* file_name(path), or NULL */
	char *path;          /* as named, for messages */
	const char *role;
} *prot;
static size_t nprot, protcap;

/* The name path has in its folder, through that folder's links but not
 * its own ("/abs/dir/base").  malloc'd, or NULL when its folder is not
 * there. */
static char *name_in_folder(const char *path)
{
	char *dir = xstrdup(path);
	char *slash = strrchr(dir, '/');
	const char *base = slash ? path + (slash - dir) + 1 : path;
	if (slash)
		slash[slash == dir] = '\0';   /* "/x": the folder is "/" */
	char *in = realpath(slash ? dir : ".", NULL);
	char *name = in ? xasprintf("%s%s%s", in, strcmp(in, "/") ? "/" : "", base) : NULL;
	free(in);
	free(dir);
	return name;
}

/* The name of the file at path, as the system finds it: through every
 * link when it exists, else name_in_folder.  malloc'd, or NULL. */
static char *file_name(const char *path)
{
	char *real = realpath(path, NULL);
	return real || errno != ENOENT ? real : name_in_folder(path);
}

void outfile_protect(const char *path, const char *role)
{
	struct stat st;
	int is_stdin = strcmp(path, "-") == 0;
	int ok = is_stdin ? fstat(STDIN_FILENO, &st) : stat(path, &st);
	GROW(prot, protcap, nprot + 1);
	prot[nprot++] = (struct protected){ .dev = st.st_dev, .ino = st.st_ino, .exists = ok == 0,
					    .folder = ok == 0 && S_ISDIR(st.st_mode),
					    .name = is_stdin ? NULL : file_name(path),
					    .path = xstrdup(path), .role = role };
}

/* Whether the name (file_name) lies inside the folder named folder. */
static int inside(const char *name, const char *folder)
{
	size_t n = strlen(folder);
	return name && strncmp(name, folder, n) == 0 && (n == 1 || name[n] == '/');
}

/* What keeps an output from the file named target (st, or NULL when
 * there is none yet): the file itself, or the folder it would be in
 * (under its own name, or the name a link there points to); NULL when
 * nothing does. */
static const struct protected *protector(const char *target, const struct stat *st)
{
	char *name = file_name(target), *here = name_in_folder(target);
	const struct protected *by = NULL;
	for (size_t i = 0; i < nprot && !by; i++) {
		const struct protected *p = &prot[i];
		if ((st && p->exists && p->dev == st->st_dev && p->ino == st->st_ino) ||
		    (name && p->name && strcmp(p->name, name) == 0) ||
		    (p->folder && p->name && (inside(name, p->name) || inside(here, p->name))))
			by = p;
	}
	free(name);
	free(here);
	return by;
}

/* ---- temporary files, removed on interruption ---- */

/* Two outputs at most at a time, each a file and one beside it. */
#define TEMPS 8
static char *_Atomic temps[TEMPS];

static void remove_temps(void)
{
	for (int i = 0; i < TEMPS; i++) {
		char *p = atomic_load(&temps[i]);
		if (p)
			unlink(p);
	}
}

/* Remove the temporary files, then die of the signal as if never caught,
 * so that the shell sees how ddx ended. */
static void on_signal(int sig)
{
	remove_temps();
	raise(sig);   /* SA_RESETHAND | SA_NODEFER: the default action, now */
}

/* A broken pipe on standard output (`ddx phases --html p.html LOG |
 * head`) ends ddx as it would have, but not before the file it is
 * writing is done: while a temporary file is pending, SIGPIPE is only
 * noted (the write fails with EPIPE, and the rest of that output is
 * lost as it would be), and the page is still written whole; ddx dies
 * of it once the file is in place (outfile_commit).  With none pending
 * it dies at once. */
static volatile sig_atomic_t pipe_broke;

static int temps_pending(void)
{
	for (int i = 0; i < TEMPS; i++)
		if (atomic_load(&temps[i]))
			return 1;
	return 0;
}

static void die_of_sigpipe(void)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigemptyset(&dfl.sa_mask);
	sigaction(SIGPIPE, &dfl, NULL);
	raise(SIGPIPE);
}

static void on_sigpipe(int sig)
{
	(void)sig;
	if (temps_pending())
		pipe_broke = 1;
	else
		die_of_sigpipe();
}

/* The signals that end ddx from outside. */
static const int caught[] = { SIGINT, SIGTERM, SIGHUP };
#define NCAUGHT (sizeof(caught) / sizeof(caught[0]))

/* Catch them, unless they are ignored (nohup, a background job): ddx
 * must not start to die of them then. */
static void catch_signals(void)
{
	static int done;
	if (done)
		return;
	done = 1;
	for (size_t i = 0; i < NCAUGHT; i++) {
		struct sigaction old, sa = { .sa_handler = on_signal,
					     .sa_flags = SA_RESETHAND | SA_NODEFER };
		sigemptyset(&sa.sa_mask);
		if (sigaction(caught[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			sigaction(caught[i], &sa, NULL);
	}
	struct sigaction old, sa = { .sa_handler = on_sigpipe, .sa_flags = SA_NODEFER };
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGPIPE, NULL, &old) == 0 && old.sa_handler == SIG_DFL)
		sigaction(SIGPIPE, &sa, NULL);
	/* die() and exit() in the middle of a write leave nothing either. */
	atexit(remove_temps);
}

/* Publish p (malloc'd) for removal; it stays owned by the caller. */
static void add_temp(char *p)
{
	catch_signals();
	for (int i = 0; i < TEMPS; i++) {
		char *none = NULL;
		if (atomic_compare_exchange_strong(&temps[i], &none, p))
			return;
	}
	BUG("too many temporary files at once");
}

static void drop_temp(const char *p)
{
	for (int i = 0; p && i < TEMPS; i++)
		if (atomic_load(&temps[i]) == p)
			atomic_store(&temps[i], NULL);
}

/* ---- deciding, writing, finishing ---- */

static void release(struct outfile *o)
{
	if (o->f && o->f != stdout)
		fclose(o->f);
	drop_temp(o->tmp);
	free(o->tmp);
	for (size_t i = 0; i < sizeof(o->also) / sizeof(o->also[0]); i++) {
		drop_temp(o->also[i]);
		free(o->also[i]);
	}
	free(o->target);
	free(o->path);
	memset(o, 0, sizeof(*o));
}

/* Say why o cannot be written, as "--html FILE: why", and release it. */
static int __attribute__((format(printf, 2, 3))) refuse(struct outfile *o, const char *fmt, ...)
{
	char why[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	error("%s %s: %s", o->what, o->path, why);
	release(o);
	return -1;
}

/* Whether the regular file at path starts with magic: 1 or 0, or -1
 * (errno set) when it cannot be read to tell. */
static int holds(const char *path, const char *magic)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	char head[64];
	size_t want = strlen(magic) < sizeof(head) ? strlen(magic) : sizeof(head);
	ssize_t n = read(fd, head, want);
	int e = errno;
	close(fd);
	errno = e;
	if (n < 0)
		return -1;
	return n == (ssize_t)want && strncasecmp(head, magic, want) == 0;
}

/* Write in place into the FIFO or character device st, which path named:
 * opening never waits (a FIFO nobody reads is refused), and the file
 * opened must be the one judged. */
static int open_in_place(struct outfile *o, const struct stat *st)
{
	int fd = open(o->path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0 && errno == ENXIO)
		return refuse(o, "a FIFO that no process reads");
	if (fd < 0)
		return refuse(o, "%s", strerror(errno));
	struct stat now;
	if (fstat(fd, &now) < 0 || now.st_dev != st->st_dev || now.st_ino != st->st_ino) {
		close(fd);
		return refuse(o, "changed while ddx opened it");
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	o->f = fdopen(fd, "w");
	if (!o->f) {
		close(fd);
		return refuse(o, "%s", strerror(errno));
	}
	return 0;
}

int outfile_open(struct outfile *o, const char *what, const char *path,
		 const struct outfile_kind *kind)
{
	memset(o, 0, sizeof(*o));
	o->what = what;
	o->path = xstrdup(path);
	if (strcmp(path, "-") == 0) {
		if (!kind->stream)
			return refuse(o, "%s is written only to a file, not to standard output",
				      kind->name);
		o->f = stdout;
		return 0;
	}
	struct stat st, link;
	mode_t mode;
	int exists = stat(path, &st) == 0;
	if (!exists && errno != ENOENT)
		return refuse(o, "%s", strerror(errno));
	if (!exists && lstat(path, &link) == 0)
		return refuse(o, "a symbolic link to nothing");
	const struct protected *by = protector(path, exists ? &st : NULL);
	if (by && by->folder && !(exists && st.st_dev == by->dev && st.st_ino == by->ino))
		return refuse(o, "is in '%s', a folder that is %s: it would be read as one of its logs",
			      by->path, by->role);
	if (by)
		return refuse(o, "is %s", by->role);
	if (!exists) {
		mode_t mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
		o->target = xstrdup(path);
	} else {
		if (!S_ISREG(st.st_mode)) {
			if (kind->stream && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)))
				return open_in_place(o, &st);
			return refuse(o, "is %s, not a regular file", file_type(st.st_mode));
		}
		/* ddx writes a file whole, never empty: an empty file is
		 * another program's (a log just emptied by copytruncate, a
		 * store's -wal after a checkpoint, a file made to be filled),
		 * and only what ddx made -- a file that holds what it writes
		 * -- is replaced. */
		if (st.st_size == 0)
			return refuse(o, "is an empty file that ddx did not write: not replaced");
		int h = holds(path, kind->magic);
		if (h < 0)
			return refuse(o, "cannot read it to tell whether it is %s: %s", kind->name,
				      strerror(errno));
		if (!h)
			return refuse(o, "exists and is not %s: not replaced", kind->name);
		/* Through a link, the file it names is replaced, not the link. */
		o->target = realpath(path, NULL);
		if (!o->target)
			return refuse(o, "%s", strerror(errno));
		mode = st.st_mode & 07777;
	}
	o->tmp = xasprintf("%s.tmp-XXXXXX", o->target);
	/* Interrupted between making the file and noting it, ddx would
	 * leave it: the signals wait until it is noted. */
	sigset_t block, old;
	catch_signals();
	sigemptyset(&block);
	for (size_t i = 0; i < NCAUGHT; i++)
		sigaddset(&block, caught[i]);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	int fd = mkstemp(o->tmp);
	if (fd >= 0)
		add_temp(o->tmp);
	int e = errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (fd < 0) {
		free(o->tmp);
		o->tmp = NULL;
		return refuse(o, "%s", strerror(e));
	}
	fchmod(fd, mode);
	if (!kind->stream) {
		close(fd);
		return 0;
	}
	o->f = fdopen(fd, "w");
	if (!o->f) {
		close(fd);
		unlink(o->tmp);
		return refuse(o, "%s", strerror(errno));
	}
	return 0;
}

void outfile_also_remove(struct outfile *o, const char *suffix)
{
	for (size_t i = 0; i < sizeof(o->also) / sizeof(o->also[0]); i++)
		if (!o->also[i]) {
			o->also[i] = xasprintf("%s%s", o->tmp, suffix);
			add_temp(o->also[i]);
			return;
		}
	BUG("too many files beside a temporary file");
}

/* Remove the files beside the temporary file. */
static void unlink_also(struct outfile *o)
{
	for (size_t i = 0; i < sizeof(o->also) / sizeof(o->also[0]); i++)
		if (o->also[i])
			unlink(o->also[i]);
}

int outfile_commit(struct outfile *o)
{
	int e = 0;
	if (o->f == stdout)
		e = fflush(stdout) != 0 || ferror(stdout) ? (errno ? errno : EIO) : 0;
	else if (o->f)
		e = fclose(o->f) != 0 ? (errno ? errno : EIO) : 0;
	o->f = NULL;
	if (!e && o->tmp && rename(o->tmp, o->target) < 0)
		e = errno;
	if (e && o->tmp)
		unlink(o->tmp);
	unlink_also(o);
	if (e)
		return refuse(o, "%s", strerror(e));
	release(o);
	if (pipe_broke && !temps_pending())
		die_of_sigpipe();   /* the file is in place: end as the pipe said */
	return 0;
}

void outfile_abort(struct outfile *o)
{
	if (o->tmp)
		unlink(o->tmp);
	unlink_also(o);
	release(o);
}
