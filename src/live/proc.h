/* proc.h — the one reader of Linux /proc in ddx, after htop: every
 * process's parent and open files (who holds a given file open, who only
 * reads it, which sockets each has), the socket tables, and one
 * process's details (stat, cmdline, wchan, syscall and what its first
 * argument is, threads).  It reads files only: nothing here stops,
 * signals or ptrace-attaches a process.  live.c puts the readings
 * together into a report.
 *
 * A process that vanishes while being read is skipped or marked gone,
 * never an error; an unreadable field is noted in the process's
 * "unreadable" list. */
#ifndef DDX_PROC_H
#define DDX_PROC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "util.h"

/* A listening socket. */
struct proc_sock {
	uint64_t inode;
	char proto[8];       /* "tcp", "tcp6", "unix" */
	char addr[112];      /* "127.0.0.1", "::", or the unix socket's path */
	unsigned port;       /* 0 for unix */
};

#define PROC_MAX_LOG_FDS 16

/* One thread of a process: what it is called, its state, the CPU it
 * used and the time it was runnable (live.c fills the deltas over the
 * sample). */
struct proc_thread {
	int tid;
	char comm[64];
	char state;
	double cpu_s;
	double cpu_s_delta;    /* NAN when not sampled (the thread is new) */
	double runnable_s;     /* on a CPU or waiting for one (schedstat); NAN unknown */
	double runnable_s_delta;  /* NAN when not sampled or unknown */
};

/* One process as ddx reports it.  proc_read_details() fills what /proc
 * says; live.c fills depth, holds_log, log_fds, cpu_s_delta,
 * gpu_mem_mib and stack. */
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
	struct proc_thread *thr;  /* the threads, by tid; at most PROC_MAX_THREADS */
	size_t nthr;
	int kernel_thread;     /* a kernel thread (PF_KTHREAD): no syscall, no program */
	unsigned long long starttime;  /* clock ticks after boot: with pid, who it is */
	long long io_bytes;    /* rchar + wchar of /proc/PID/io; -1 unreadable */
	long long io_delta;    /* over the sample; -1 unknown */
	char rank[16];         /* its rank, "" when none known */
	const char *rank_from; /* where rank came from: "environment" (RANK,
				* ...), "log" (its pid on a rank's line),
				* "start order" (live.c); NULL with no rank */
	int uses_gpu;          /* holds a GPU device open (/dev/nvidia*, ...) */
	int unreaped;          /* a zombie through the whole sample: its parent
				* does not reap it (live.c) */
	int gpu_util_pct;      /* SM utilisation NVML gives per process; -1 */
	long rss_kb;
	double start_epoch;    /* start, seconds since the Epoch; 0 unknown */
	double age_s;          /* seconds since start; -1 unknown */
	struct proc_sock *listening;
	size_t nlistening;
	long gpu_mem_mib;      /* -1 when unknown (no NVML, not on a GPU) */
	char *stack;           /* py-spy's output, or NULL */
	char **unreadable;     /* "wchan: permission denied", ... */
	size_t nunreadable;
	int gone;              /* exited while being inspected, or its pid
				* now names another process */
};

#define PROC_MAX_THREADS 4096

/* A reading of /proc: every process, and who holds the file looked for
 * (set have_log, log_dev and log_ino, or deleted_link, before
 * proc_scan_all()).  Filled by proc_open(), proc_scan_all() and
 * proc_load_sockets(); read by live.c; freed by proc_close(). */
struct proc_sock_ent {
	struct proc_sock s;
	int listen;
};

/* A (pid, socket) pair seen in the fd scan; after proc_load_sockets(),
 * only the listening sockets are left. */
struct proc_owner {
	int pid;
	uint64_t inode;
};

struct proc_scan {
	const char *root;
	int rootfd;
	char arch[72];
	long hz, page_kb;
	struct proc_sock_ent *socks;   /* sorted by inode */
	size_t nsocks;
	/* the file looked for (the log) */
	int have_log;             /* log_dev/log_ino are valid */
	dev_t log_dev;
	ino_t log_ino;
	char *deleted_link;       /* "ABSPATH (deleted)" when the name is gone */
	/* all processes, and who holds what */
	struct proc_pid_pair {
		int pid, ppid;
		unsigned long long starttime;  /* tells a reused pid */
		int gpu;                       /* holds a GPU device open */
	} *all;                   /* sorted by pid after the scan */
	size_t nall, all_cap;
	struct proc_holder {      /* writers of the log, by pid */
		int pid;
		int fds[PROC_MAX_LOG_FDS];
		int nfds;
	} *holders;
	size_t nholders, holders_cap;
	struct proc_owner *owners;
	size_t nowners, owners_cap;
	size_t denied;            /* processes whose fds we may not read */
	struct buf readers;       /* "pid 12 (tail), ..." that only read the log */
	size_t nreaders;
};

/* Open the /proc at root (a fixture tree for tests: see proc.c) and read
 * the architecture; -1 after printing an error when it cannot be
 * opened. */
int proc_open(struct proc_scan *c, const char *root);
void proc_close(struct proc_scan *c);
/* Read every process's parent and fds: fills all, holders, readers,
 * owners, denied.  -1 after printing an error when root is unreadable. */
int proc_scan_all(struct proc_scan *c);
/* Read the socket tables (net/tcp, tcp6, unix) and keep of the owners
 * those that listen; a table that cannot be read is a note. */
void proc_load_sockets(struct proc_scan *c, char ***notes, size_t *nnotes);
/* The socket with this inode in the tables, or NULL. */
const struct proc_sock_ent *proc_find_sock(const struct proc_scan *c, uint64_t inode);
/* The parent of pid as the scan saw it, or -1 when it did not see pid. */
int proc_ppid(const struct proc_scan *c, int pid);
/* Whether pid holds a GPU device open, as proc_scan_all() saw its fds. */
int proc_uses_gpu(const struct proc_scan *c, int pid);
/* What a CPU sample takes of a process at its start: its CPU time, start
 * time (a pid reused meanwhile starts later), I/O counters and each
 * thread's CPU time. */
struct proc_sample {
	char state;
	double cpu_s;
	unsigned long long starttime;
	long long io_bytes;          /* -1 unreadable */
	struct proc_thread *thr;     /* malloc'd; by tid */
	size_t nthr;
};
/* Read s for pid; -1 when it is gone.  Free s->thr. */
int proc_read_sample(const struct proc_scan *c, int pid, struct proc_sample *s);
/* The start time of pid as the scan saw it; 0 when it did not see pid. */
unsigned long long proc_scan_starttime(const struct proc_scan *c, int pid);
/* Fill p (pid set) from /proc/PID; uptime and btime (proc_uptime(),
 * proc_btime()) date its start.  Marks p gone when it is. */
void proc_read_details(const struct proc_scan *c, struct proc_info *p, double uptime,
		       double btime);
/* Seconds since boot (-1 unknown); boot time since the Epoch (0). */
double proc_uptime(const struct proc_scan *c);
double proc_btime(const struct proc_scan *c);
/* The regular file that pid's stdout (else stderr) is: sets the scan's
 * log identity, *path (malloc'd) and *deleted (its name is gone).
 * Returns 1 when there is one, else 0. */
int proc_output_file(struct proc_scan *c, int pid, char **path, int *deleted);
/* stat() of what pid's fd is; 0 or -1. */
int proc_fd_stat(const struct proc_scan *c, int pid, int fd, struct stat *st);
/* "tcp 127.0.0.1:8000", "tcp6 [::]:8000", "unix /run/x.sock" or "unix
 * socket"; malloc'd. */
char *proc_sock_name(const struct proc_sock *s);
/* Exposed for the unit tests. */

/* The fields of /proc/PID/stat that ddx uses. */
struct proc_stat {
	char comm[64];
	char state;
	int ppid;
	unsigned flags;      /* PF_*: PF_KTHREAD marks a kernel thread */
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


#endif
