/* live.h — forensics of the live processes behind a log: who holds the
 * log open (and their descendants, such as the workers a launcher
 * forked), what each is blocked in, whether its CPU time moves over a
 * sample, what it listens on, whether the port the log names is
 * listening, and from these a verdict: hung, busy, idle or exited.
 * `ddx proc` prints the report (report_proc.h); `ddx diff` and `ddx
 * watch` can embed it.
 *
 * It reads /proc through proc.h, GPU memory through nvml.h and stacks
 * through pyspy.h; nothing here stops, signals or ptrace-attaches the
 * inspected processes. */
#ifndef DDX_LIVE_H
#define DDX_LIVE_H

#include <stddef.h>

#include "proc.h"

struct live_opts {
	/* The /proc to read; NULL means "/proc".  For tests: a fixture tree
	 * laid out like /proc (see the convention in proc.c). */
	const char *root;
	/* Inspect these processes (and their descendants) instead of the
	 * holders of a log; the log is then the regular file that the first
	 * of them to have one has as stdout (or stderr). */
	const int *pids;
	size_t npids;
	int sample_ms;        /* CPU sampling interval; 0 = no sample */
	int stacks;           /* run `py-spy dump` on each live process */
	int stack_timeout_ms; /* per process; 0 = 5000 */
	int gpu;              /* ask NVML for GPU memory per process */
	int quick;            /* when nobody holds the log, skip the socket
				 * tables and the search for its port, and
				 * when nobody can be writing it (see
				 * nobody_writes), /proc altogether: no notes
				 * about readers then */
};

struct live_report {
	char *log_path;        /* as given, or the file the processes write */
	int log_deleted;       /* the log's name no longer exists */
	double silent_s;       /* now - log mtime; NAN without a log */
	int log_grew;          /* the log grew during the sample */
	struct proc_info *procs;  /* parents before children, by pid */
	size_t nprocs;
	double sample_s;
	unsigned port;         /* the port the log names; 0 none */
	size_t port_line;      /* 1-based line it came from */
	char *port_text;       /* that line (cut to 200 bytes) */
	int port_listening;    /* any process here listens on it (tcp/tcp6) */
	int port_in_tree;      /* one of procs does */
	int port_pid;          /* who listens, when found; 0 unknown */
	const char *liveness;  /* "hung", "busy", "idle", "exited", "unknown" */
	char *verdict;         /* one sentence, ends with ": LIVENESS" */
	char **notes;          /* things said once: no NVML, no py-spy, ... */
	size_t nnotes;
};

/* Inspect the processes behind log_path (or behind opts->pids, when
 * given; log_path may then be NULL) and fill *out, which the caller
 * frees with live_report_free().  Sleeps opts->sample_ms to sample CPU
 * time.  Returns -1 after printing an error only when there is nothing
 * to inspect at all (the log cannot be stat'ed and is held by nobody,
 * the /proc root cannot be opened); unreadable fields and vanished
 * processes are reported, not errors. */
int live_inspect(const char *log_path, const struct live_opts *opts,
		 struct live_report *out);
void live_report_free(struct live_report *r);

/* Whether p made progress over the sample: at least 5% of one CPU. */
int live_cpu_moving(const struct proc_info *p, double sample_s);


/* Parse an interval as parse_duration does ("1s", "500ms", "2", "0").
 * Returns milliseconds, or -1 when malformed or above an hour. */
int live_parse_interval(const char *s);

#endif
