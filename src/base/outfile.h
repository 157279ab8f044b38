/* outfile.h — the one way ddx writes a file it is told to write (`--html
 * FILE`, `baselines export NAME FILE`).
 *
 * What it never does:
 * - replace a file this run reads (a log, a --rules file, the open store
 *   and the files SQLite keeps beside it), compared by device and inode,
 *   so also under another name or a link, and by name, so also one that
 *   is made only while ddx writes (a store's -wal);
 * - write inside a folder this run reads as a run of logs, in its
 *   subfolders neither: the file would be one of its logs next time;
 * - replace an existing regular file that does not already hold what it
 *   writes (an HTML page, a ddx store): a log named where FILE was meant
 *   survives, and so does an empty file, which ddx never writes;
 * - replace what is not a regular file: a FIFO or a character device
 *   (/dev/null, a terminal) is written in place by a writer that streams,
 *   and refused by one that needs a file (SQLite).
 * A regular file is written whole or not at all: into a temporary file
 * beside it, renamed over it once complete.  Temporary files (and the
 * files beside them a writer names, such as an SQLite journal) are removed
 * when ddx is interrupted (SIGINT, SIGTERM, SIGHUP) or exits before it is
 * done with them.  A broken pipe on standard output (`... --html p.html
 * LOG | head`) waits until the file is written whole and in place, then
 * ends ddx as SIGPIPE does.
 *
 * Every refusal is an error naming the option and the file, as
 * "--html run-0221.log: is one of the inputs". */
#ifndef DDX_OUTFILE_H
#define DDX_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

/* What a writer writes. */
struct outfile_kind {
	const char *magic;   /* what an existing file it may replace starts with
				(compared ignoring case; an empty file never
				may: ddx writes none, so another program made it) */
	const char *name;    /* that, in words: "an HTML page" */
	int stream;          /* writes through a FILE *: "-" is standard output,
				and a FIFO or character device is written in place;
				else the writer opens outfile.tmp itself by name,
				and "-" is refused (no file named "-" is made) */
};

struct outfile {
	const char *what;    /* how the user named it: "--html", "export" */
	char *path;          /* the file named, as named */
	char *target;        /* what gets replaced: path through its links */
	char *tmp;           /* the temporary file, or NULL when in place */
	char *also[2];       /* files beside tmp to remove with it */
	FILE *f;             /* a stream writer's: on tmp, in place, or stdout */
};

/* Note that this run reads path ("-": standard input), "one of the
 * inputs" or "the open store" (role, a string that lives on): no output
 * may replace it, nor be written under its name while it does not exist
 * (yet). */
void outfile_protect(const char *path, const char *role);

/* Check that path may be written as kind says, and make what to write
 * into: o->f for a stream writer, o->tmp (an empty file) for the others.
 * Returns 0, or -1 after an error that names what and path. */
int outfile_open(struct outfile *o, const char *what, const char *path,
		 const struct outfile_kind *kind);
/* The writer will also make o->tmp + suffix ("-journal"): remove it with
 * the temporary file. */
void outfile_also_remove(struct outfile *o, const char *suffix);
/* Finish: close o->f and put the temporary file in place.  Returns 0, or
 * -1 after an error; either way o is released, nothing left behind. */
int outfile_commit(struct outfile *o);
/* Give up: remove the temporary file and release o.  Harmless on an o
 * that was never opened (all zero), or already committed. */
void outfile_abort(struct outfile *o);

#endif
