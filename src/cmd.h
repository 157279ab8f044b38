/* cmd.h — the commands, one cmd_*.c each, and what they share. */
#ifndef DDX_CMD_H
#define DDX_CMD_H

#include <stddef.h>
#include <stdint.h>

#include "diagnose.h"
#include "live.h"

struct cmd {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *usage;   /* one line: arguments after "ddx NAME" */
	const char *help;    /* the rest of `ddx help NAME` */
};

int cmd_diff(int argc, char **argv);
int cmd_phases(int argc, char **argv);
int cmd_templates(int argc, char **argv);
int cmd_parse(int argc, char **argv);
int cmd_proc(int argc, char **argv);
int cmd_watch(int argc, char **argv);
int cmd_learn(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_baselines(int argc, char **argv);

/* What `ddx diff` takes besides its logs; `ddx check` takes the same. */
struct diff_args {
	int json, jobs, no_proc;
	struct live_opts po;     /* --sample */
	struct dx_options o;     /* --now */
	char **rules;            /* --rules files, a malloc'd array */
	const char *html;        /* --html FILE, or NULL */
	size_t nrules;
};
/* The getopt_long entries of diff's options, for diff and check. */
#define DIFF_OPTIONS \
	{ "json", no_argument, NULL, 'J' }, \
	{ "now", required_argument, NULL, 'N' }, \
	{ "rules", required_argument, NULL, 'r' }, \
	{ "sample", required_argument, NULL, 's' }, \
	{ "no-proc", no_argument, NULL, 'P' }, \
	{ "html", required_argument, NULL, 'H' }
/* A report compares at most this many logs: 63 good ones and a bad one. */
#define DIFF_MAX_LOGS 64
void diff_args_init(struct diff_args *a);
/* Take option c of DIFF_OPTIONS: 1 done, 0 not one of them, -1 bad value
 * (reported). */
int diff_option(int c, char *arg, struct diff_args *a);
/* Load paths (good runs, then bad) and print the report, each log named by
 * labels[i] when labels is not NULL; live_path (not "-") is the file whose
 * live processes to inspect.  Returns the exit status. */
int diff_run(char **paths, char **labels, size_t nlogs, const char *live_path,
	     const struct diff_args *a);

/* The latest runs of the stored baseline NAME (at most DIFF_MAX_LOGS - 1),
 * for commands that take good logs: paths of in-memory files
 * ("/proc/self/fd/N", open until baseline_files_free) and labels
 * ("NAME:FILE").  store_opt as --store (NULL: DDX_STORE or the default).
 * Returns 0, or -1 after printing an error. */
struct baseline_files {
	char **paths, **labels;
	size_t n;
};
int baseline_files(const char *store_opt, const char *name, struct baseline_files *bf);
void baseline_files_free(struct baseline_files *bf);

/* Parse "-j N" / "--jobs=N" style counts; dies on nonsense. */
int parse_jobs(const char *s);
/* Number of threads to use by default: the online CPUs, at most 8. */
int default_jobs(void);
/* Print `ddx help NAME` to stdout. */
void print_command_help(const struct cmd *c);
const struct cmd *find_command(const char *name);
/* n bytes as "1.2 MB" into buf (16 bytes). */
void human_size(uint64_t n, char *buf);

#endif
