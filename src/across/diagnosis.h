/* diagnosis.h — what a diagnosis finds, as plain data: the verdict, the
 * divergence point, milestones, novel lines, changed values, slow steps,
 * ranks.  diagnose.c fills it with the help of classify.c, streams.c and
 * changes.c, and the report reads it; this header holds only the types,
 * so that the stages which fill parts of it need not include diagnose.h.
 * Line numbers are 0-based; the report adds one. */
#ifndef DDX_DIAGNOSIS_H
#define DDX_DIAGNOSIS_H

#include <stddef.h>
#include <stdint.h>

#include "classify.h"
#include "log.h"

#define DX_NONE (-1)

struct cause;
struct failure_seen;
struct frdump;

enum dx_verdict {
	DX_SAME,       /* reached the good run's end, nothing new */
	DX_DIFFERENT,  /* reached the end, but with new warnings/errors or changes */
	DX_STOPPED,    /* a prefix of the good run: it stopped (or is still silent) */
	DX_CRASHED,    /* an error the good runs never had, and no progress after */
	DX_DIVERGED,   /* went on along a path the good runs never took */
	DX_FAILED,     /* reached the end, but a step failed on the way: an
			* error no good run printed, after which it went on */
	DX_INTERRUPTED,  /* ended from outside: a signal (^C, SIGTERM) or a
			  * cancel, before it reached the good run's end */
	DX_RUNNING,    /* a prefix of the good run, silent for less than the
			* good runs spent in the step it is in: not stopped yet */
};

enum dx_severity { DX_INFO = CLASSIFY_INFO, DX_WARNING = CLASSIFY_WARNING, DX_ERROR = CLASSIFY_ERROR };

/* A line of bad absent from every good log; a traceback is one finding,
 * and so are its copies (the same exception raised on several ranks). */
struct dx_novel {
	int64_t line;         /* first line */
	int64_t summary;      /* the line that says what happened */
	uint32_t nlines;      /* lines of the traceback, or of the template */
	uint32_t count;       /* copies of the traceback, or lines of the template */
	uint16_t *streams;    /* the tagged streams (ranks) that printed it,
			       * by name; owned */
	uint16_t nstreams;
	uint8_t severity;
	uint8_t traceback;
};

/* A milestone of the good run (rule-named or learned), in good order. */
struct dx_milestone {
	uint32_t id;          /* canonical template id */
	const char *name;     /* rule name, or NULL for a learned one */
	int final;
	int64_t good_line;    /* first occurrence in the chosen good log */
	int64_t bad_line;     /* first occurrence in bad that follows, or DX_NONE */
	double good_off_s, bad_off_s;  /* since the first timestamp; NAN if unknown */
};

struct dx_change {
	char *label;          /* what the line is ("server_args") */
	char *key, *good, *bad;
	int64_t good_line, bad_line;
};

struct dx_slow {
	int64_t from_good, to_good;   /* the step's lines in the chosen good log */
	int64_t from_bad, to_bad;
	double good_s, bad_s;         /* good_s: the slowest good run */
	const char *stream;           /* bad's stream that was slowest ("TP3";
				       * "" for untagged lines) */
	const char *rank;             /* the straggler: the rank that took it
				       * far longer than its peers, or NULL */
	double peers_s;               /* its peers' median; NAN; good_s is NAN
				       * where the good runs took no such step */
};

/* A notice a stalled run repeats at its end, at a steady pace, that no
 * good run printed: what it waits for. */
struct dx_waiting {
	int64_t first, last;  /* its first and last line after bad's last step;
			       * DX_NONE when the run does not wait so */
	uint64_t count;       /* lines */
	double span_s;        /* from the first to the last; NAN */
};

/* What a rank did in the failure (culprit.c); 0 for a stream that is no
 * rank of the job. */
enum dx_role {
	DX_ROLE_CULPRIT = 1,   /* the failure started on it */
	DX_ROLE_WAITING,       /* failed waiting for a peer, or sits waiting */
	DX_ROLE_FAILED_OWN,    /* failed with an error of its own, not first */
	DX_ROLE_TORN_DOWN,     /* ended from outside, with no error of its own */
	DX_ROLE_FINISHED,      /* went on to the end with the run */
};

struct dx_rank {
	const char *name;     /* normalised tag: "TP3" */
	int64_t last_line;    /* its last line */
	int64_t last_follow;  /* its last line that follows the good run */
	int64_t last_milestone;  /* its last line that reached a milestone */
	uint32_t errors;      /* its novel error lines */
	int64_t first_error;
	int role;             /* enum dx_role */
};

/* How the culprit rank stood out from its peers (culprit.c). */
enum dx_culprit_how {
	DX_CULPRIT_ERROR = 1,  /* raised an error of its own before any peer failed */
	DX_CULPRIT_BEHIND,     /* stopped at a step every peer went past */
	DX_CULPRIT_OWN_STEP,   /* stopped at a line no peer and no good run printed */
	DX_CULPRIT_SILENT,     /* the one rank that did not fail when its peers did */
	DX_CULPRIT_LAUNCHER,   /* of the ranks that did not fail, the one the
				* launcher's first error names */
	DX_CULPRIT_MISSED,     /* never printed a step every peer printed */
	DX_CULPRIT_LIVE,       /* the log cannot tell; its live processes do:
				* the worker that died, or the odd one out
				* (live.c's job_culprit) */
	DX_CULPRIT_COLLECTIVE, /* the one rank that never joined, or called
				* another, collective its peers wait in
				* (collectives.c) */
};

/* What the peers that failed waiting for it said first (bits). */
enum { DX_WAIT_TIMEOUT = 1, DX_WAIT_PEER_LOSS = 2 };

/* The rank whose peers then failed waiting for it; rank NULL when there
 * is none (all ranks stopped together, or no peer failed waiting). */
struct dx_culprit {
	const char *rank;     /* its name ("TP2"), one of d->ranks or unheard */
	int64_t line;         /* its error (ERROR, LAUNCHER: the launcher's
			       * line), else its last line before it fails */
	int how;              /* enum dx_culprit_how */
	int symptoms;         /* DX_WAIT_* of the peers' first errors */
	const char **peers;   /* the ranks that failed waiting, in order */
	size_t npeers;
	size_t anon_peers;    /* errors of peers failing waiting that no
			       * rank's tag holds (untagged tracebacks) */
	const char *unknown;  /* rank NULL in a job of ranks that failed or
			       * stopped: why none stands out (a static
			       * phrase); else NULL */
	char *unheard;        /* owned, set for a rank that printed nothing
			       * in the log (so none of d->ranks): its name,
			       * made like its peers'; rank points to it */
};

/* The kind of hang the ranks' collectives show (collectives.c). */
enum dx_hang_kind {
	DX_HANG_NONE,
	DX_HANG_NEVER_ENTERED,  /* a rank never called the collective its peers wait in */
	DX_HANG_STUCK_INSIDE,   /* a rank waits in a collective its peers completed */
	DX_HANG_ALL_STUCK,      /* every rank waits in the same collective */
	DX_HANG_MISMATCH,       /* ranks called different collectives at one sequence number */
	DX_HANG_NOT_COLLECTIVE, /* no rank is inside a collective: the hang is outside them */
	DX_HANG_SLOW,           /* in a collective, within the good runs' time at that step */
	DX_HANG_NOT_STARTED,    /* every rank waits in one collective, which a
				 * rank's GPU never started and its peers' did */
};

#define DX_OP_MAX 32

/* One rank's collectives in one process group: torch's sequence numbers
 * (-1 unknown) and ops ("all_reduce"; "" unknown). */
struct dx_coll_rank {
	int rank;
	const char *stream;   /* its name among d->ranks, or NULL */
	int64_t pg;
	int64_t enqueued, completed;
	int64_t pending;      /* the first it called and had not completed */
	char enq_op[DX_OP_MAX], done_op[DX_OP_MAX], pending_op[DX_OP_MAX];
	int64_t enq_numel, done_numel, pending_numel;  /* their elements in,
			       * -1 unknown */
	double waited_s;      /* how long it had waited in pending; NAN */
	int started;          /* pending's GPU work began: 1, not yet: 0,
			       * unknown: -1 (frdump's pending_started) */
	const char *dump;     /* the dump it is read from, or NULL: the log */
	int64_t line;         /* bad's last line that said it, or DX_NONE */
	uint8_t odd;          /* the rank the hang kind singles out */
};

struct dx_collectives {
	struct dx_coll_rank *r;   /* by rank */
	size_t n;
	int shape;            /* enum dx_hang_kind the numbers show */
	int kind;             /* shape; SLOW while the run is within the good
			       * runs' time; NONE for a run that finished */
	int64_t seq, pg;      /* the collective in question, or -1 */
	char op[DX_OP_MAX];
	double waited_s;      /* the longest a peer waited in it; NAN */
	char *sentence;       /* what it says, as a person would; or NULL */
};

/* A doubt about what the report was given, said before its findings: a
 * good run that is no good (goodcheck.c), logs given in the wrong order,
 * a stored baseline that fits the bad log weakly. */
struct dx_warning {
	const char *kind;     /* "empty", "crashed", "not_up", "short",
			       * "swapped", "weak_fit" (ddx-json(5) documents them) */
	const char *path;     /* the log it is about, or NULL */
	int64_t line;         /* the line it points at, or DX_NONE */
	char *text;           /* the sentence; may quote log text */
};

/* A known cause (causes.h) the failure matches, and the line of bad that
 * says so (causes_find.h). */
struct dx_cause_hit {
	const struct cause *cause;
	int64_t line;
};

struct diagnosis {
	int verdict;
	size_t ngood;
	size_t good;          /* index of the good log reported against */
	const struct log *bad_log, *good_log;
	size_t attempts;      /* runs of the program in bad (a restart loop
			       * writes each into the log); 1 for one */
	int64_t attempt_line; /* first line of bad's last attempt, the one
			       * diagnosed: the others follow nothing and
			       * add no findings */
	size_t attempt;       /* which attempt that is, from 1: attempts, or
			       * the one before when the last printed no more
			       * than its start banner */
	int64_t bad_line;     /* last line of bad that follows the good run;
			       * FAILED: the last before it left the good
			       * run's path (see end_line) */
	int64_t good_line;    /* the good line it corresponds to */
	int bad_by_bar, good_by_bar;  /* bad_line, good_line correspond by
				       * the progress bar drawn in front of
				       * their text (log.bar): quote that */
	int64_t end_line;     /* last line of bad that follows the good run,
			       * wherever it left it on the way */
	double good_fraction;
	int64_t crash;        /* index into novel of the crash; FAILED: of the
			       * failed step's error; INTERRUPTED: of the
			       * notice that ended the run; or DX_NONE */
	int64_t *next;        /* good lines: the step the good run took after
			       * good_line (no milestone, maybe), then its
			       * milestones bad never reached, in order */
	size_t nnext;
	struct dx_milestone *ms;
	size_t nms;
	int64_t up;           /* the milestone of ms where the good run is up
			       * (timeline_up), or DX_NONE */
	struct dx_novel *novel;   /* errors first, then warnings, then others */
	size_t nnovel, novel_lines, novel_templates;
	double good_known;    /* the share of bad's templates the closest good
			       * run printed too (pass_novel) */
	size_t bad_templates; /* ... of so many (blank and drawn lines not
			       * counted) */
	struct dx_change *changed;
	size_t nchanged;
	struct dx_slow *slow;
	size_t nslow;
	struct dx_rank *ranks;    /* tagged streams of bad, by name */
	size_t nranks;
	int ranks_same;       /* every rank stopped at the same point */
	int ranks_alike;      /* the streams are ranks (TP0, TP1, ...), not
			       * different processes (APIServer, EngineCore) */
	struct dx_culprit culprit;
	struct dx_collectives coll;
	int64_t first_ts_bad, last_ts_bad, last_progress_ts;
	int64_t last_progress;  /* bad's last line that is not a heartbeat */
	double silent_s;      /* since the last line that was not a heartbeat; NAN */
	double good_gap_s;    /* the good runs' longest gap at this point; NAN */
	struct dx_waiting waiting;
	double good_step_s;   /* the longest a good run spent in the step bad
			       * is in (milestone before to milestone after
			       * the point it reached); NAN */
	double hung_s;        /* how long a run whose end (d->crash: a
			       * timeout, a lost peer, a kill) came after it
			       * hung in its step had been stuck (pass_hung);
			       * NAN */
	int hang_gave_up;     /* the run's own timeout ended that hang */
	char **stream_names;  /* owned */
	size_t nstreams;
	struct dx_state *st;  /* the analysis behind it, for dx_template_text */
	const struct dx_warning *warnings;  /* set by the caller, who owns them */
	size_t nwarnings;
	const struct failure_seen *seen;  /* set by the caller, who owns it: the
					   * failure memory on this failure
					   * (signature.h), or NULL */
	const struct dx_cause_hit *causes;  /* set by the caller, who owns
					     * them: the known causes the
					     * failure matches, likeliest first */
	size_t ncauses;
};

struct dx_options {
	int64_t now_ms;       /* --now, in the logs' clock; TS_NONE = wall clock */
	int now_relative;     /* --now +N: now_ms is N s after bad's last line */
	const struct frdump *dumps;  /* bad's Flight Recorder dumps, by rank */
	size_t ndumps;
};

/* Whether the closest good run is a weak reference: it printed under
 * DX_WEAK_FIT of bad's templates, of at least DX_WEAK_MIN.  A run of the
 * same program shares its banner, its configuration and its start with
 * bad, however bad ends (on the dev logs the closest good run of a real
 * pair shares over 20% of them); one of another program or version
 * shares next to nothing, and what is "new in bad" against it is then
 * most of bad, no reduction.  A bad run too short to say (a usage error
 * and its exit) is not judged. */
#define DX_WEAK_FIT 0.10
#define DX_WEAK_MIN 20
static inline int dx_weak_reference(const struct diagnosis *d)
{
	return d->bad_templates >= DX_WEAK_MIN && d->good_known < DX_WEAK_FIT;
}

#endif
