/* log.h — one log run through the per-line stages (input, prefix, mask,
 * template), kept as a struct of arrays: a few bytes per line beyond the
 * input itself.
 *
 * Several logs intern into one template table so that their ids compare
 * (diff needs good and bad to share ids); the table is clustered once all
 * of them are loaded. */
#ifndef DDX_LOG_H
#define DDX_LOG_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "input.h"
#include "prefix.h"
#include "template.h"

enum {
	LOG_IDS_ONLY = 0,   /* keep only the template id of each line */
	LOG_FULL = 1,       /* also offsets, timestamps, levels and tags */
	LOG_ONE_RUN = 2,    /* a folder of several whole runs is read as one
			       (--one-run), not refused (see log_open_run) */
};

struct log {
	struct input in;
	int index;          /* which of the loaded logs (tmpl.first_file) */
	size_t nlines;
	uint32_t *tid;      /* interned template id per line */
	/* LOG_FULL only: */
	uint32_t *bar;      /* per line, the template id of a progress bar
			       drawn in front of its text (struct line.bar),
			       TMPL_NONE for none; NULL when no line has one */
	uint64_t *offset;   /* raw line start in in.data */
	int64_t *ts;        /* ms, TS_NONE when the line has no timestamp */
	int64_t *when;      /* ms, for timing: ts or, for a line without one,
			       that of the last line before it that had one
			       (TS_NONE before the first) */
	uint8_t *level;
	uint16_t *tag;      /* index into tags; 0 = no tag */
	char **tags;        /* tags[1..ntags-1], as written ("TP3") */
	size_t ntags;
	int format;         /* header format detected for the file */
	struct prefix_order order; /* formats to try on its lines */
};

/* Open a run: a file (see input_open), or a folder whose files (see
 * input_list_folder) are one run's streams, merged into one content in
 * memory: interleaved by their lines' times where lines have them (a
 * line without one goes with the line before it; ties go to the file
 * first in natural order), concatenated in natural order where they have
 * none (files without any time follow the others).  Each file is read
 * with its own header format; files are read by up to `threads` threads.
 * in->origin then tells each line's file and line.  Any file that cannot
 * be read fails the run: an error naming it, -1.  So does a folder whose
 * files are several whole runs, one after another (a job run again, each
 * run into its own file), unless flags hold LOG_ONE_RUN. */
int log_open_run(struct input *in, const char *path, int threads, unsigned flags);
/* Whether run (opened from folder dir by log_open_run) holds the file
 * st describes (by device and inode, whatever name it is given by). */
int log_run_holds(const struct input *run, const char *dir, const struct stat *st);
/* For a run read from a folder, the file line i (0-based) came from, and
 * its line number there (1-based) in *line; NULL for a run of one file.
 * In a folder of several files whose lines carry no tag, each line is
 * tagged with its file's name less its extensions (rank-3.log: rank-3). */
const char *log_origin(const struct log *lg, size_t i, size_t *line);

/* Read path (a file or a folder, see log_open_run) and run every line through the stages with `threads` threads
 * (the results do not depend on it), interning into tt.  Returns 0, or -1
 * after printing an error naming the file. */
int log_load(struct log *lg, const char *path, int index, unsigned flags,
	     int threads, struct tmpl_table *tt);
/* The same for an input already open: lg takes *in over. */
void log_load_input(struct log *lg, struct input *in, int index, unsigned flags,
		    int threads, struct tmpl_table *tt);
void log_free(struct log *lg);

/* Seconds from line `from` to line `to` by lg->when, or NAN when a time
 * is missing or no line in (from, to] has a timestamp of its own: two
 * lines that carry the same one are apart by an unknown time, not 0. */
double log_span_s(const struct log *lg, size_t from, size_t to);

/* Re-read line i (0-based): its clean text, header and masked form, for
 * the few lines a report quotes.  scratch holds the text. */
void log_line(const struct log *lg, size_t i, struct line *ln,
	      struct header *h, struct buf *scratch);
/* Line i's message: its clean text after the header, malloc'd, for the
 * caller to free. */
char *log_message(const struct log *lg, size_t i);

#endif
