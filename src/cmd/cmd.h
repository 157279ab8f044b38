/* cmd.h — the commands: each cmd_NAME.c defines one, with its options,
 * usage and help, as a struct cmd that main.c lists.  Commands share
 * stages, never each other; what they share of the command layer itself
 * (options, messages, help) is cmd_util.c's.  Only the command layer
 * (main.c, cmd_*.c) includes this. */
#ifndef DDX_CMD_H
#define DDX_CMD_H

#include <getopt.h>

#include "out.h"
#include "outfile.h"
#include "util.h"

struct cmd {
	const char *name;
	/* argv[0] is "ddx"; out is stdout as main.c found it.  Returns the
	 * exit status. */
	int (*run)(int argc, char **argv, const struct out *out);
	const char *usage;   /* one line: arguments after "ddx NAME" */
	const char *help;    /* the rest of `ddx help NAME` */
	const char *status;  /* its exit status but 2 (an error): "0 when ..." */
};

extern const struct cmd cmd_diff_entry, cmd_phases_entry, cmd_templates_entry,
	cmd_parse_entry, cmd_proc_entry, cmd_watch_entry, cmd_learn_entry,
	cmd_check_entry, cmd_baselines_entry, cmd_failures_entry;

/* Print `ddx help NAME` to stdout. */
void print_command_help(const struct cmd *c);
/* A usage error: "ddx: MESSAGE", then "see 'ddx help NAME'" (c NULL:
 * "see 'ddx --help'") on stderr.  Returns EXIT_TROUBLE. */
int usage_error(const struct cmd *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* getopt_long for command c, which says what is wrong itself: an unknown
 * option (with the long option it most likely meant), a missing or
 * unwanted value, each as a usage_error; then it returns '?'. */
int cmd_getopt(int argc, char **argv, const char *shortopts, const struct option *opts,
	       const struct cmd *c);
/* 0, or -1 after a usage_error when more than one of the n paths is
 * "-": the second would read nothing. */
int stdin_once(const struct cmd *c, char *const *paths, size_t n);
/* The one of the n names that typed most likely misspells or
 * abbreviates, or NULL when none is close. */
const char *did_you_mean(const char *typed, const char *const *names, size_t n);
/* An export of the store at store to file (baselines export, failures
 * export): out opened on a temporary file beside file, which may replace
 * only a store (never the open one) and is no FIFO or device, since
 * SQLite needs a file of its own.  -1 after an error. */
int export_open(struct outfile *out, const char *store, const char *file);
/* The end of it, r the export's result (1 written): file replaced when
 * 1, the temporary file removed in any case.  Returns r, or -1 when file
 * could not be replaced. */
int export_close(struct outfile *out, int r);
/* Parse "-j N" / "--jobs=N" style counts; dies on nonsense. */
int parse_jobs(const char *s);
/* Number of threads to use by default: the online CPUs, at most 8. */
int default_jobs(void);

#endif
