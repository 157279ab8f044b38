/* follow.c — following a growing log by its path (see follow.h).  Each
 * poll stats the path and the open file: a shorter file was truncated, a
 * path naming another inode was rotated or replaced, a missing path was
 * removed or renamed.  A FIFO is read as it comes, without waiting. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "follow.h"

void follow_init(struct follow *f, const char *path, size_t max)
{
	memset(f, 0, sizeof(*f));
	f->path = path;
	f->fd = -1;
	f->text.max = max;
}

/* Read what the open file has past pos; from a FIFO, what its writers
 * wrote since (never waiting: none, or no writer, is nothing new). */
static int drain(struct follow *f)
{
	char chunk[1 << 16];
	for (;;) {
		ssize_t n = f->stream ? read(f->fd, chunk, sizeof(chunk)) :
			    pread(f->fd, chunk, sizeof(chunk), f->pos);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && f->stream && errno == EAGAIN)
			return 0;
		if (n < 0)
			return error("cannot read '%s': %s", f->path, strerror(errno));
		if (n == 0)
			return 0;
		if (buf_append(&f->text, chunk, (size_t)n) < 0)
			return error("cannot read '%s': larger than %zu bytes", f->path, f->text.max);
		f->pos += n;
	}
}

/* Before text from another file or from the start again: a line cut
 * short stays a line of its own. */
static void end_line(struct follow *f)
{
	if (f->text.len && f->text.p[f->text.len - 1] != '\n')
		buf_putc(&f->text, '\n');
}

static int reopen(struct follow *f)
{
	struct stat st = { 0 };
	/* Non-blocking: a FIFO's open would wait for its writer, past any
	 * timeout, and its reads for data. */
	int fd = open(f->path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return 0;   /* gone again: the next poll sees to it */
		return error("cannot open '%s': %s", f->path, strerror(errno));
	}
	if (fstat(fd, &st) < 0 || !(S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode))) {
		close(fd);
		return error("cannot follow '%s': %s, not a regular file or a FIFO", f->path,
			     file_type(st.st_mode));
	}
	if (f->fd >= 0)
		close(f->fd);
	f->fd = fd;
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	f->pos = 0;
	f->stream = S_ISFIFO(st.st_mode);
	return 1;
}

int follow_poll(struct follow *f, unsigned *events)
{
	struct stat byname, byfd;
	*events = 0;
	int named = stat(f->path, &byname) == 0;
	if (!named && errno != ENOENT)
		return error("cannot stat '%s': %s", f->path, strerror(errno));
	if (f->fd < 0) {
		if (!named) {
			if (!f->waiting)
				*events |= FOLLOW_WAITING;
			f->waiting = 1;
			return 0;
		}
		if (reopen(f) < 0)
			return -1;
		if (f->fd < 0)
			return 0;
	}
	if (fstat(f->fd, &byfd) < 0)
		return error("cannot stat '%s': %s", f->path, strerror(errno));
	if (!f->stream && byfd.st_size < f->pos) {
		*events |= FOLLOW_TRUNCATED;
		end_line(f);
		f->pos = 0;
	}
	if (drain(f) < 0)
		return -1;
	if (named && (byname.st_dev != f->dev || byname.st_ino != f->ino)) {
		*events |= FOLLOW_ROTATED;
		end_line(f);
		if (reopen(f) < 0 || drain(f) < 0)
			return -1;
		f->gone = 0;
	} else if (!named && !f->gone) {
		*events |= FOLLOW_GONE;
		f->gone = 1;
	} else if (named) {
		f->gone = 0;
	}
	return 0;
}

double follow_mtime(const struct follow *f)
{
	struct stat st;
	if (f->fd < 0 || fstat(f->fd, &st) < 0)
		return -1;
	return (double)st.st_mtim.tv_sec + st.st_mtim.tv_nsec / 1e9;
}

void follow_free(struct follow *f)
{
	if (f->fd >= 0)
		close(f->fd);
	buf_free(&f->text);
	memset(f, 0, sizeof(*f));
	f->fd = -1;
}
