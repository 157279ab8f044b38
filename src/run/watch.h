/* watch.h — following a growing log against good runs, and calling a
 * hang when it has been quiet for longer than the good runs ever were at
 * that point: the engine of `ddx watch`, whose command (cmd_watch.c)
 * parses the options and says what the engine tells it.
 *
 * Trusting.  The good logs are checked once, before the watch starts, as
 * `ddx diff` checks them (goodcheck_select): the same runs are left out,
 * the same warnings said.  They must be regular files: a FIFO would block
 * the watch before its --timeout could hold.
 *
 * Following.  follow.c reads the log by path, incrementally, into one
 * buffer that holds everything read so far, across truncation, rotation
 * and removal, so the run's earlier milestones stay reached.  A folder
 * (a file per rank or node) is one run, as for `ddx diff`: each poll
 * lists it and looks at its files' sizes and times, files that appear
 * included; an analysis reads them all again (log_open_run), merged.
 *
 * Analysing.  When the buffer grew, the whole pipeline runs again over the
 * good logs and the buffer, exactly as `ddx diff` does (log_load,
 * diagnose): simple, and for a startup log of a few thousand lines a few
 * milliseconds.  For a log that grows without end, an analysis waits at
 * least nine times as long as the previous one took after it, so the
 * analyses take at most a tenth of the time, however long the log gets.
 *
 * Deciding.  Progress is a new line that is not a heartbeat (diagnose
 * tells them apart); the wall clock since the last progress is the
 * silence.  A hang is a silence longer than --factor times the good runs'
 * longest gap after the point the run reached (see watch_allowed_gap),
 * plus --min-silence, and longer than the good runs spent in the step it
 * is in.  A crash (a new error after which the run made no
 * progress) ends the watch once it has been quiet for --min-silence.
 * Reaching the good run's final milestone ends it with success. */
#ifndef DDX_WATCH_H
#define DDX_WATCH_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "diagnose.h"
#include "follow.h"
#include "input.h"
#include "live.h"
#include "rules.h"
#include "template.h"

/* How a watch decides, as its command was told. */
struct watch_opts {
	double factor;         /* a hang: quiet for factor times the good
				* runs' longest gap there ... */
	double min_silence;    /* ... plus this many seconds; a crash: quiet
				* for this long */
	double timeout;        /* s; 0: none */
	int interval_ms;       /* between two looks at the log */
	int jobs;              /* threads to load a log with */
	unsigned run_flags;    /* log_open_run's: LOG_ONE_RUN (--one-run) */
	struct live_opts po;   /* how the processes are looked at, at the end */
	const struct ruleset *rs;
};

/* What a watch tells its caller as it goes, for the caller to say. */
enum {
	WATCH_WAITING,         /* the path names no file yet */
	WATCH_TRUNCATED,       /* the file was truncated: read from its start */
	WATCH_ROTATED,         /* a new file has the path: read from its start */
	WATCH_GONE,            /* the file was removed or renamed: still read */
	WATCH_NEW_FILE,        /* file appeared in the folder watched */
	WATCH_STARTED,         /* the good runs are checked (their warnings in
				* ws) and the log analysed once */
	WATCH_ANALYSED,        /* an analysis was made: milestones may have
				* been reached */
	WATCH_QUIET,           /* nothing to analyse now, quiet for silence */
};

struct watch_event {
	int what;              /* WATCH_* above */
	const char *file;      /* WATCH_NEW_FILE's */
	double silence;        /* WATCH_QUIET's, s */
};

/* How a watch ended (watch_run). */
enum { WATCH_UP, WATCH_CRASHED, WATCH_HUNG, WATCH_TIMED_OUT };

/* A watch.  The caller reads the fields from ws on, between events and
 * after the end; the rest is the engine's. */
struct watch {
	const char *path;
	struct watch_opts o;
	void (*say)(void *ctx, const struct watch_event *ev);
	void *ctx;
	char **good_paths;     /* good logs to open once the watch starts */
	struct input *goods;   /* the good logs, opened: the first ngood, those
				* kept after the check, loaded at each analysis */
	size_t nopen;          /* goods open */
	struct follow f;       /* a file's */
	char **files;          /* a folder's files at the last poll */
	size_t nfiles;
	int polled;            /* a folder was listed once */
	uint64_t stamp;        /* what was read: a folder's files' names,
				* sizes and times, hashed; a file's length */
	double folder_mtime;   /* a folder's newest file's, seconds */
	double start;          /* wall clock, seconds */
	double last_read;      /* when the buffer last grew */
	int64_t progress_line; /* the last non-heartbeat line, as of the last
				* analysis */
	uint64_t analysed;     /* stamp at the last analysis */
	int64_t next_ms;       /* monotonic: no analysis before this */
	struct tmpl_table tt;
	dev_t rot_dev;         /* the file last rotated away from the path */
	ino_t rot_ino;         /* 0: none */

	struct dx_warning *ws; /* what the check of the good runs found */
	size_t nws;
	int all_doubted;       /* every good run was found wanting (goodcheck.h),
				* and kept: no goal to reach */
	int folder;            /* path is a folder: its files are the run */
	double last_progress;  /* wall clock when the last non-heartbeat line
				* came */
	int have;              /* the fields below hold an analysis */
	size_t ngood;          /* goods kept */
	struct log *logs;      /* goods, then the watched log */
	struct diagnosis d;
};

/* Set w up to watch the log or folder at path (which w borrows, as it
 * does o->rs) against n good runs: the logs at good_paths[0..n), opened
 * when the watch starts (borrowed), or, when good_paths is NULL, the
 * inputs goods[0..n) (a stored baseline's, malloc'd: w takes them). */
void watch_init(struct watch *w, const char *path, const struct watch_opts *o,
		char **good_paths, struct input *goods, size_t n);
/* Watch until the run reaches the good runs' final milestone, hangs,
 * crashes or times out, telling say (with ctx) what happens as it does.
 * Returns how it ended (WATCH_UP, ...), with the silence then in
 * *silence, or -1 after an error. */
int watch_run(struct watch *w, void (*say)(void *ctx, const struct watch_event *ev),
	      void *ctx, double *silence);
void watch_free(struct watch *w);

/* Where the run is among the milestones that count (watch_counts). */
struct watch_where {
	size_t n, k;                     /* k of n reached (the furthest) */
	const struct dx_milestone *at;   /* the furthest reached, or NULL */
	const struct dx_milestone *next; /* the next one after it, or NULL */
};
void watch_where(const struct diagnosis *d, struct watch_where *wh);
/* Whether milestone m counts: those rules name when there are any (the
 * learned ones are then mostly incidental lines), else all. */
int watch_counts(const struct diagnosis *d, const struct dx_milestone *m);

/* The quiet the good run allows where the run is, in s; NAN when the
 * logs have no timestamps. */
double watch_allowed_gap(const struct watch *w);
/* The silence after which the run counts as hung, at the point it is:
 * --factor times watch_allowed_gap plus --min-silence, or the good
 * runs' time in the step when that is longer. */
double watch_limit_s(const struct watch *w);

/* Who holds the watched log, at the end: the processes, against the same
 * reference the watch used (a folder's: those of the first of its files
 * still held, else of the first). */
struct watch_holders {
	struct live_report report;   /* when found */
	int found;                   /* they could be looked at */
	int exited;                  /* nobody holds the log any more */
	int rotated_away;            /* its writer writes on into the file
				      * rotated away from the path, which the
				      * watch no longer reads: report is its */
	double rot_silent_s;         /* that file's silence, or NAN */
};
void watch_holders(const struct watch *w, struct watch_holders *h);
void watch_holders_free(struct watch_holders *h);

#endif
