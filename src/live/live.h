/* live.h — forensics of the live processes behind a log: who holds the
 * log open (and their descendants, such as the workers a launcher
 * forked), what each is blocked in, whether its CPU time moves over a
 * sample and which of its threads burn it, whether its I/O moves, what
 * it listens on, whether the port the log names is listening, what the
 * peers of a job (its ranks) each do, and from these a verdict: hung,
 * busy, spinning, idle, exited or unknown.  With good runs to compare
 * with, silence beyond theirs decides (see LIVE_REF_FACTOR).  `ddx proc`
 * prints the report (report_proc.h); `ddx diff` and `ddx watch` can
 * embed it.
 *
 * It reads /proc through proc.h, GPU memory and utilisation through
 * nvml.h and stacks through pyspy.h; nothing here stops, signals or
 * ptrace-attaches the inspected processes, except py-spy's native
 * stacks when asked for (native_stacks). */
#ifndef DDX_LIVE_H
#define DDX_LIVE_H

#include <stddef.h>
#include <sys/types.h>

#include "nvml.h"
#include "proc.h"

/* With good runs to compare with, silence decides: a log quiet for longer
 * than LIVE_REF_FACTOR times the good runs' longest gap at the point it
 * reached, plus LIVE_REF_MIN_S, and than the good runs spent in the step
 * it is in, is hung whatever the CPU does (`ddx watch`'s defaults); quiet
 * for less, it is not hung, whatever the processes wait in.  Without
 * them, a log quiet for LIVE_QUIET_S is the least a hang takes (blocked,
 * no CPU progress) and a log quiet for that long while CPU burns and no
 * port listens is "busy or spinning": no health is claimed. */
#define LIVE_REF_FACTOR 5.0
#define LIVE_REF_MIN_S 60.0
#define LIVE_QUIET_S 60.0

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
	int native_stacks;    /* with --native: C frames too, pausing each
			       * process for the moment py-spy reads it */
	int stack_timeout_ms; /* per process; 0 = 5000 */
	int gpu;              /* ask NVML for GPU memory per process */
	/* The log is this file (device and inode) whatever its name names
	 * now: a file rotated away that its writer may still write.  The
	 * log's name is then only its label.  ident_ino 0: by name. */
	dev_t ident_dev;
	ino_t ident_ino;
	/* > 0: the silence as the caller measured it (since the log's last
	 * progress: `ddx watch` does not count heartbeats), instead of the
	 * time since the log's mtime. */
	double silent_s;
	int have_ref;         /* good runs are known: ref_gap_s and ref_limit_s */
	double ref_gap_s;     /* the good runs' longest gap where the log is */
	double ref_limit_s;   /* silence beyond this is a hang (live_set_ref) */
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
	int have_ref;          /* as in live_opts */
	double ref_gap_s, ref_limit_s;
	size_t denied;         /* processes whose fds could not be checked */
	int odd_pid;           /* the peer that does other than the rest; 0 */
	/* The worker of the job the others wait for, when the job is stuck
	 * or a worker died (see job_culprit in live.c); 0 when none can be
	 * told.  culprit_why says how it stood out. */
	int culprit_pid;
	const char *culprit_why;
	size_t dead_workers;   /* workers of the job that died (zombies) */
	struct nvml_gpu *gpus; /* every GPU, when NVML answered */
	size_t ngpus;
	const char *liveness;  /* "hung", "busy", "spinning", "idle",
				* "dead-rank" (a worker died while its peers
				* live: the job cannot go on), "exited",
				* "unknown" */
	char *verdict;         /* one sentence, ends with ": " and the
				* liveness in words ("busy or spinning" for
				* spinning) */
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
/* Whether thread t burned at least a quarter of a CPU over the sample. */
int live_thread_hot(const struct proc_thread *t, double sample_s);
/* What p does, for a sentence: "spins (1 thread at 100% CPU)", "works
 * (80% CPU, I/O moving)", "sleeps", "waits on a pipe", "blocked in
 * futex", ... into out. */
void live_activity(const struct proc_info *p, double sample_s, char *out, size_t cap);

/* The silence beyond which a log is hung, from the good runs' longest
 * gap at its point (gap_s, not NAN) and their time in its step (step_s;
 * NAN when unknown): factor * gap + min_s, or step_s when longer -- a
 * run is hung only once its silence is beyond what they took there. */
double live_ref_limit(double gap_s, double step_s, double factor, double min_s);
/* Whether processes that are blocked (alive, no CPU progress) behind a
 * log silent for silent_s are hung: only once it has been quiet for
 * long, beyond the good runs' limit (have_ref: limit_s, live_ref_limit)
 * or else LIVE_QUIET_S.  A process that logged a few seconds ago and
 * sleeps waits (for a request, a peer, a download), as processes mostly
 * do, and is no hang.  A silence nobody measured (NAN: a pid with no
 * log) leaves the processes to speak: hung. */
int live_blocked_hung(double silent_s, int have_ref, double limit_s);
/* Set the reference of o from gap_s and step_s (gap_s NAN: none, o keeps
 * no reference): hung beyond live_ref_limit of silence. */
void live_set_ref(struct live_opts *o, double gap_s, double step_s, double factor, double min_s);


/* Parse an interval as parse_duration does ("1s", "500ms", "2", "0").
 * Returns milliseconds, or -1 when malformed or above an hour. */
int live_parse_interval(const char *s);

#endif
