/* follow.h — following a growing log by its path, as `tail -F` does.
 *
 * Everything read is kept in one buffer, across truncation (copytruncate:
 * the file got shorter, so it is read again from its start), rotation or
 * replacement (the path names another inode: the old file is read to its
 * end, the new one from its start) and removal (the open file is still
 * followed).  So what a run printed before any of these stays in the
 * buffer.  A line cut short by one of them stays a line of its own.
 * A FIFO is followed too, as a stream: what its writers write is read
 * at each poll, and no poll waits for a writer or for data. */
#ifndef DDX_FOLLOW_H
#define DDX_FOLLOW_H

#include <sys/types.h>

#include "util.h"

struct follow {
	const char *path;
	int fd;                /* the file being read; -1 before it exists */
	dev_t dev;
	ino_t ino;
	off_t pos;             /* bytes of that file read */
	int stream;            /* it is a FIFO: read, never waited for */
	struct buf text;       /* everything read, across rotations */
	int gone;              /* the name is gone (reported once) */
	int waiting;           /* the file does not exist yet (reported once) */
};

/* What a poll noticed, each reported once, for the caller to say. */
enum {
	FOLLOW_WAITING = 1,    /* the path does not exist (yet) */
	FOLLOW_TRUNCATED = 2,  /* read again from the start */
	FOLLOW_ROTATED = 4,    /* a new file under the path, read from its start */
	FOLLOW_GONE = 8,       /* the path is gone: the open file is followed */
};

/* Start following path (not read until the first poll); text holds at
 * most max bytes. */
void follow_init(struct follow *f, const char *path, size_t max);
/* One poll: notice truncation, rotation and removal, and append what is
 * new to f->text.  *events gets what was noticed (FOLLOW_*), in the
 * order above.  Returns 0, or -1 after printing an error. */
int follow_poll(struct follow *f, unsigned *events);
/* The modification time of the file being read, in seconds; -1 when none
 * is open. */
double follow_mtime(const struct follow *f);
void follow_free(struct follow *f);

#endif
