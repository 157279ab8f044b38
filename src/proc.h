/* proc.h — forensics of the live processes behind a log, read from Linux
 * /proc: who holds the log open, what each of them is blocked in, whether
 * its CPU time moves, what it listens on, and whether the port the log
 * names is listening.  The one reader of /proc in ddx; `ddx proc` prints
 * its report, and `ddx diff` / `ddx watch` can embed it.
 *
 * Nothing here stops, signals or ptrace-attaches the inspected processes:
 * it reads /proc files only (and, when asked, runs `py-spy dump
 * --nonblocking`, which reads memory without pausing the target). */
#ifndef DDX_PROC_H
#define DDX_PROC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

struct proc_opts {
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

/* A listening socket. */
struct proc_sock {
	uint64_t inode;
	char proto[8];       /* "tcp", "tcp6", "unix" */
	char addr[112];      /* "127.0.0.1", "::", or the unix socket's path */
	unsigned port;       /* 0 for unix */
};

#define PROC_MAX_LOG_FDS 16

struct proc_info {
	int pid, ppid;
	int depth;             /* 0 for a root of the tree, +1 per generation */
	int holds_log;         /* has the log open (else: a descendant of one) */
	int log_fds[PROC_MAX_LOG_FDS];
	int nlog_fds;
	char comm[64];
	char *cmdline;         /* argv joined by spaces; "[comm]" when empty */
	char state;            /* R S D Z T t I X, or '?' when unread */
	char *wchan;           /* NULL when unreadable; "" when none */
	char *syscall;         /* "futex", "running", "syscall 437"; NULL unreadable */
	char *syscall_arg;     /* what its first argument is, or NULL */
	double cpu_s;          /* utime + stime at the end of the sample */
	double cpu_s_delta;    /* over the sample; NAN when not sampled */
	int threads;
	char thread_states[64]; /* "11 S, 1 R"; "" when unread */
	long rss_kb;
	double start_epoch;    /* start, seconds since the Epoch; 0 unknown */
	double age_s;          /* seconds since start; -1 unknown */
	struct proc_sock *listening;
	size_t nlistening;
	long gpu_mem_mib;      /* -1 when unknown (no NVML, not on a GPU) */
	char *stack;           /* py-spy's output, or NULL */
	char **unreadable;     /* "wchan: permission denied", ... */
	size_t nunreadable;
	int gone;              /* exited while being inspected */
};

struct proc_report {
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
 * frees with proc_report_free().  Sleeps opts->sample_ms to sample CPU
 * time.  Returns -1 after printing an error only when there is nothing
 * to inspect at all (the log cannot be stat'ed and is held by nobody,
 * the /proc root cannot be opened); unreadable fields and vanished
 * processes are reported, not errors. */
int proc_inspect(const char *log_path, const struct proc_opts *opts,
		 struct proc_report *out);
void proc_report_free(struct proc_report *r);

/* Write the report as JSON (`ddx proc --json` schema 1, one object, no
 * trailing newline) or as text for a terminal. */
void proc_report_json(FILE *f, const struct proc_report *r);
void proc_report_text(FILE *f, const struct proc_report *r);
/* Just the "processes" array of the JSON report, for `ddx diff`. */
void proc_processes_json(FILE *f, const struct proc_report *r);

/* Exposed for the unit tests. */

/* The fields of /proc/PID/stat that ddx uses. */
struct proc_stat {
	char comm[64];
	char state;
	int ppid;
	int threads;
	unsigned long long utime, stime, starttime;  /* clock ticks */
	long rss_pages;
};
/* Parse a /proc/PID/stat line; the command name is taken between the
 * first '(' and the LAST ')', since it may hold spaces and parentheses.
 * Returns 0, or -1 when the line is malformed. */
int proc_parse_stat(const char *buf, size_t n, struct proc_stat *st);

/* Parse /proc/PID/syscall: sets *nr to the syscall number, -1 when the
 * task is blocked outside a syscall, -2 when it is running; args[0..5]
 * to its arguments.  Returns 0, or -1 when malformed. */
int proc_parse_syscall(const char *buf, long *nr, unsigned long args[6]);

/* The name of syscall nr on arch ("x86_64", "aarch64"), or NULL for one
 * ddx does not know. */
const char *proc_syscall_name(const char *arch, long nr);

/* Parse one line of /proc/net/tcp (v6 = 0) or tcp6 (v6 = 1).  Fills s
 * and sets *listen when the socket is in state LISTEN (0A).  Returns 0,
 * or -1 for the header or a malformed line. */
int proc_parse_tcp_line(const char *line, int v6, struct proc_sock *s, int *listen);
/* Same for /proc/net/unix; *listen when the socket accepts connections. */
int proc_parse_unix_line(const char *line, struct proc_sock *s, int *listen);


/* Parse an interval as parse_duration does ("1s", "500ms", "2", "0").  Returns
 * milliseconds, or -1 when malformed or above an hour. */
int proc_parse_interval(const char *s);

#endif
