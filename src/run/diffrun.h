/* diffrun.h — the job `ddx diff`, `ddx check` and `ddx watch` share:
 * load good logs and a bad one, diagnose, print the report (text or
 * JSON, and HTML to a file), with what the processes behind the bad log
 * are doing, against good logs or a stored baseline.  Also the options
 * that steer it, which those commands take alike. */
#ifndef DDX_DIFFRUN_H
#define DDX_DIFFRUN_H

#include <stddef.h>

#include "diagnose.h"
#include "frdump.h"
#include "input.h"
#include "live.h"
#include "out.h"
#include "outfile.h"
#include "store.h"

/* What a report takes besides its logs. */
struct diff_args {
	int json, quiet, jobs, no_proc;   /* quiet: -q, the exit status only */
	unsigned run_flags;      /* log_open_run's: LOG_ONE_RUN (--one-run) */
	int github;              /* --format github: annotation and job summary */
	struct live_opts po;     /* --sample */
	struct dx_options o;     /* --now */
	char **rules;            /* --rules files, a malloc'd array */
	const char *html;        /* --html FILE ("-": stdout), or NULL */
	const char *dumps;       /* --dumps DIR: the bad run's Flight Recorder
				  * dumps, or NULL to look beside it */
	struct outfile html_out; /* where the page goes, once diff_open_html */
	int stored_goods;        /* the good runs are a baseline's: their
				  * order says nothing */
	size_t nrules;
	char **causes;           /* --causes files, a malloc'd array */
	size_t ncauses;
	struct store *memory;    /* the store whose failure memory a failing
				  * run is looked up in and recorded to, or NULL */
	const char *baseline;    /* the baseline compared with, by name */
	const struct out *out;   /* where the text report goes: stdout */
};
/* The getopt_long entries of the report's options (<getopt.h>). */
#define DIFF_OPTIONS \
	{ "json", no_argument, NULL, 'J' }, \
	{ "format", required_argument, NULL, 'F' }, \
	{ "quiet", no_argument, NULL, 'q' }, \
	{ "now", required_argument, NULL, 'N' }, \
	{ "rules", required_argument, NULL, 'r' }, \
	{ "sample", required_argument, NULL, 's' }, \
	{ "no-proc", no_argument, NULL, 'P' }, \
	{ "one-run", no_argument, NULL, 'O' }, \
	{ "proc-root", required_argument, NULL, 'R' }, \
	{ "html", required_argument, NULL, 'H' }, \
	{ "dumps", required_argument, NULL, 'D' }, \
	{ "causes", required_argument, NULL, 'C' }
/* A report compares at most this many logs: 63 good ones and a bad one. */
#define DIFF_MAX_LOGS 64

/* The defaults, reading logs with jobs threads, the text report going
 * to out. */
void diff_args_init(struct diff_args *a, int jobs, const struct out *out);
/* Take option c of DIFF_OPTIONS with its argument: 1 done, 0 not one of
 * them, -1 bad value (reported). */
int diff_option(int c, char *arg, struct diff_args *a);
void diff_args_free(struct diff_args *a);

/* With --html, check FILE and make it ready to write, before any log is
 * read: it must not replace logs[0..n), a --rules or --causes file or, when stored,
 * the store of store_opt (see outfile.h); "-" makes the page the only
 * thing on stdout.  Returns 0, or -1 after an error. */
int diff_open_html(struct diff_args *a, char *const *logs, size_t n, int stored,
		   const char *store_opt);

/* Load ins[0..n) (good runs, then the bad one; n at most DIFF_MAX_LOGS),
 * each named in reports by its input's path, check the good runs
 * (goodcheck.h: those found wanting are named in warnings and left out
 * while others remain), diagnose, and print the report to stdout, and
 * the page to a->html_out when open (with --html - the page alone).  The
 * report's warnings are pre[0..npre) (the caller's doubts), then those
 * of the check; good runs in doubt make no clean match.  Takes the
 * inputs over: they are closed on return.  live_path, unless NULL or
 * "-", is the file whose live processes to inspect.  Returns the exit
 * status. */
/* The bad run's Flight Recorder dumps into *dumps (frdump_free frees
 * them): those in folder dir (--dumps); else, when bad is a folder,
 * those in it; else those in NAME.dumps/ beside a log NAME.log.  None is
 * no error; a dump there that cannot be read is.  0, or -1 after an
 * error naming the file. */
int diff_load_dumps(const char *dir, const char *bad, struct frdump **dumps, size_t *n);

int diff_run(struct input *ins, size_t n, const char *live_path, struct diff_args *a,
	     const struct dx_warning *pre, size_t npre);

/* Open the good logs at paths[0..n) into goods[0..n) for a command that
 * compares a run with them as it goes (`ddx watch`, `ddx proc --ref`):
 * a good run is a complete file, so a FIFO or a device is refused before
 * anything waits on it (reading one would block without end, whatever
 * --timeout says); a folder is one run of its files (log_open_run, with
 * up to jobs threads and its flags).  Returns 0, or -1 after an error naming the file,
 * with none left open. */
int diff_open_goods(char *const *paths, size_t n, struct input *goods, int jobs, unsigned flags);

/* The good runs' longest gap at the point the log at path reached and
 * their time in its step, as diff_run's diagnosis finds them, into *gap
 * and *step (NAN when the logs do not tell): for `ddx proc --ref`, which
 * reports no diff.  The good runs are
 * checked as diff_run checks them: those found wanting do not set the gap
 * while others remain, and are named in warnings on stderr.  Takes
 * goods[0..n) over: closed on return.  path must be a regular file (a FIFO is
 * refused, never opened).  Returns 0, or -1 after printing an error. */
int diff_reference_gap(struct input *goods, size_t n, const char *path, const struct diff_args *a,
		       double *gap, double *step);

/* Compare the log at badpath with a stored baseline, as diff_run does
 * with the baseline's latest runs as the good ones: the baseline called
 * name, or, when name is NULL, the one that fits the log best.  First
 * says which baseline and why (on stderr with --json or --html -, so
 * that stdout holds only JSON or the page).  store_opt as --store (NULL: DDX_STORE or the
 * default).  A run that fails is looked up in the store's failure
 * memory (the report says when it was seen before) and recorded there
 * with its name, the host ($DDX_HOST, else the machine's name), the time
 * and the baseline; a store that cannot be written costs a note on
 * stderr, nothing else.  Returns the exit status. */
int diff_baseline(const char *store_opt, const char *name, const char *badpath,
		  struct diff_args *a);

#endif
