/* diagnose_passes.h — the diagnose stage's passes and the state they
 * share; not part of the stage's interface (diagnose.h is).
 *
 * diagnose() (diagnose.c) runs the passes below in order over one struct
 * dx_state and the struct diagnosis they fill, as git's diffcore_std runs
 * its passes over one queue.  Each pass's comment is its contract: what
 * it reads (of the state, of the diagnosis) and what it fills.  Each
 * rule a pass applies is a named function in the pass's file, whose
 * comment states the property it keeps.
 *
 * This header includes only what lies below the stage: the result types
 * (diagnosis.h), logs, rules and templates; never diagnose.h. */
#ifndef DDX_DIAGNOSE_PASSES_H
#define DDX_DIAGNOSE_PASSES_H

#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "diagnosis.h"
#include "log.h"
#include "rules.h"
#include "template.h"

/* Which lines of bad follow one good log (the follow pass). */
struct following {
	uint32_t *b2g;          /* bad line -> good line */
	uint8_t *follow;        /* bad line follows the good run */
	uint8_t *steady;        /* ... and got there from its stream's last
				 * step without a leap */
	uint8_t *by_bar;        /* ... by the progress bar drawn in front of
				 * its text (st->bar), not by the text */
	size_t score;           /* following lines */
	int64_t last;           /* last following line */
};

/* What the passes share.  Template ids here are canonical: clusters of
 * the template table, with reworded ones merged and steps told apart by
 * a value split (diagnose_skeleton.c, diagnose_steps.c); per-template arrays have nc entries. */
struct dx_state {
	/* The skeleton pass: */
	struct log *logs;
	size_t nlogs, ngood, bad;   /* logs[0..ngood) good, logs[bad] bad */
	size_t nc;              /* canonical id space */
	const char **ctext;     /* per template: its text */
	uint8_t *clevel;        /* ... the level its header gave (LV_*) */
	uint32_t **id;          /* per log, per line: its template */
	uint32_t **bar;         /* per log, per line: the template of a bar
				 * drawn in front of its text (log.bar),
				 * ALIGN_NONE for none; NULL for a log with
				 * no such line */
	uint16_t **stream;      /* per log, per line: its stream (0: untagged) */
	size_t nstreams;
	char **snames;          /* per stream: its name */
	uint8_t *has;           /* [log * nstreams + s]: stream has lines */
	uint32_t *cnt;          /* [log * nc + c]: lines */
	int64_t *first;         /* [log * nc + c]: first line, or -1 */
	uint8_t *sev;           /* per template: severity (DX_INFO, ...) */
	uint8_t *tb;            /* ... traceback role (CLASSIFY_TB_*) */
	uint8_t *hb;            /* ... a heartbeat: says nothing of progress */
	uint8_t *ms;            /* ... a milestone (learned, or a rule's) */
	uint8_t *bars;          /* a progress bar drawn anew (several bars) */
	uint8_t *aside;         /* printed only under a warning or an error,
				 * as part of it (learn_asides) */
	uint8_t *is_bar;        /* a progress bar's frame (mask_is_progress_bar) */
	uint8_t *counter;       /* recurs at a steady pace, counting ("step 41") */
	uint8_t *new_error;     /* an error no good log printed */
	uint8_t *retry;         /* announces a retry */
	uint8_t *stop;          /* says the run shuts down (rules_stops) */
	uint8_t *weight;        /* what aligning a template is worth */
	uint8_t *step;          /* milestones a match must not jump over */
	int steps_named;        /* the rules name them (and counts split off) */
	int32_t *rule;          /* the rule that names it, or -1 */
	uint32_t *parent;       /* the template it is a step of (split_steps),
				 * else itself */
	size_t from;            /* first line of bad's last attempt */
	size_t attempts;        /* runs of bad's program in its log */
	size_t attempt;         /* the one from line from, counted from 1 */
	char **counted;         /* texts of the ids split_steps made */
	size_t ncounted;
	const struct ruleset *rs;
	/* The follow pass: */
	struct following *ws;   /* per good log */
	const struct following *w;  /* d->good's: the one reported against */
	/* The timing passes: */
	char **ms_line;         /* per milestone of d->ms: the good run's
				 * line that names it, read when first asked
				 * for (dx_milestone_name), or NULL */
	/* The verdict passes: */
	int done;               /* bad reached the good run's end */
	/* diagnose()'s options, while it runs. */
	const struct dx_options *opt;
};

/* Whether text t is empty but for blanks. */
static inline int is_blank(const char *t)
{
	return t[strspn(t, " \t")] == '\0';
}

/* Whether log l's line j continues the line above it: it is indented
 * further than that line, which is not blank.  An indented line after a
 * blank one starts something of its own (YOLOv5's "      Epoch
 * GPU_mem" header of each round, a column-aligned table), and so does
 * one indented as the line above is: a test runner that indents all it
 * prints ("  ✓ adds", "  3 passing"), a log pasted indented, continue
 * nothing. */
static inline int line_continues(const struct dx_state *st, size_t l, size_t j)
{
	if (j == 0)
		return 0;
	const char *t = st->ctext[st->id[l][j]], *above = st->ctext[st->id[l][j - 1]];
	return !is_blank(above) && strspn(t, " \t") > strspn(above, " \t");
}

/* Whether template text t is drawn, not written: nothing but ASCII
 * punctuation and spaces ("", "========", "-- --"), a rule between a
 * script's sections.  A placeholder, a digit, a letter or any byte past
 * ASCII (a word of another script) says something. */
static inline int is_drawn(const char *t)
{
	for (; *t; t++)
		if (!(*t == ' ' || *t == '\t' || (ispunct((unsigned char)*t) && *t != '<')))
			return 0;
	return 1;
}

/* The skeleton pass (diagnose_skeleton.c): index logs[0..nlogs) (the
 * last one bad) into st: canonical ids, streams, per-template facts,
 * learned milestones, heartbeats, counted steps and bad's attempts.
 * Fills d's ngood, bad_log, attempts, attempt, attempt_line, stream_names and
 * nstreams.  skeleton_free frees st and what it holds. */
/* The count of template c's progress-bar frame on log l's line i (its
 * own text, or the bar in front of it) as position and total; 0 when the
 * line has no such frame or it shows no count. */
int dx_bar_count(const struct dx_state *st, size_t l, size_t i, uint32_t c, uint64_t *pos, uint64_t *total);

void pass_skeleton(struct dx_state *st, struct log *logs, size_t nlogs, struct tmpl_table *tt,
		   const struct ruleset *rs, struct diagnosis *d);
void skeleton_free(struct dx_state *st);
/* The skeleton's steps told apart by a value (diagnose_steps.c): each
 * count of a counting template ("shard 3/8") and each value of a
 * template whose value names its step ("region nether") becomes an id of
 * its own past st->nc, in st->id; st->nc, ctext, clevel and rule grow to
 * match, st->parent says which template each id is a step of, and
 * st->counted holds the new ids' texts.  Before count_lines. */
void split_steps(struct dx_state *st);
/* Whether no good log printed template c. */
int is_novel_template(const struct dx_state *st, uint32_t c);
/* Log l's first line that is no heartbeat: its program's start banner,
 * which recurs once per run in a log of several; -1 for none. */
int64_t start_banner(const struct dx_state *st, size_t l);

/* The follow pass (diagnose_follow.c): which lines of bad follow each
 * good log, into st->ws (one per good log), and the good log that bad
 * follows furthest (most following lines; the first on a tie), which the
 * diagnosis is reported against: st->w, d->good, d->good_log.  Reads the
 * skeleton.  followings_free frees st->ws. */
void pass_follow(struct dx_state *st, struct diagnosis *d);
void followings_free(struct dx_state *st);

/* The findings passes (diagnose_findings.c), after the follow pass:
 * pass_novel: what bad's last attempt printed that no good run did, into
 *   d->novel (a traceback is one finding; errors first, then warnings,
 *   then the rest), d->nnovel, novel_lines, novel_templates.  Reads the
 *   skeleton.
 * pass_changes: what changed against the good run: values of
 *   corresponding lines, environment settings (changes.c), into
 *   d->changed, d->nchanged.  Reads st->w.
 * pass_ranks: where each rank got and the one the failure started on,
 *   into d->ranks, nranks, ranks_same, ranks_alike, culprit (streams.c,
 *   culprit.c).  Reads st->w, d->novel. */
void pass_novel(struct dx_state *st, struct diagnosis *d);
void pass_changes(struct dx_state *st, struct diagnosis *d);
void pass_ranks(struct dx_state *st, struct diagnosis *d);
/* The last pass (diagnose_findings.c): d->novel's copies folded, once
 * every pass that reads a rank's own findings has run: a traceback that
 * several ranks printed alike is one finding, with their count and
 * streams, at the crash's copy when the crash is one of them (d->crash
 * follows it); a template's finding gets the streams of its lines. */
void pass_fold(struct dx_state *st, struct diagnosis *d);

/* The timing passes (diagnose_timing.c), after the follow pass:
 * pass_milestones: the good run's milestones in its order, with the
 *   first line of bad that follows each, into d->ms, d->nms, and d->up
 *   (timeline_up); st->ms_line, empty.  Reads st->w.
 * pass_slow: the steps between milestones that bad took much longer
 *   over than the slowest good run, per stream, into d->slow, d->nslow.
 *   Reads d->ms, st->w.
 * pass_waiting: the notice a stalled run repeats at a steady pace at its
 *   end, into d->waiting; that notice becomes a heartbeat (st->hb) for
 *   the passes after.  Or its last notice, when that says it waits,
 *   with a count of 1 (no heartbeat).  Reads st->w.
 * pass_silence: bad's first and last times, its last line that is no
 *   heartbeat, and how long it has been silent since (st->opt's now),
 *   into d->first_ts_bad, last_ts_bad, last_progress, last_progress_ts,
 *   silent_s.
 * pass_good_time: the good runs' longest gap and step where bad stands
 *   (each good run from the line bad last followed), into d->good_gap_s,
 *   good_step_s.  Reads st->ws.
 * pass_rank_behind: d->good_step_s raised to the good runs' time in the
 *   step of a rank that holds the run (rank_behind).  Reads d->ranks,
 *   st->ws. */
void pass_milestones(struct dx_state *st, struct diagnosis *d);
void pass_slow(struct dx_state *st, struct diagnosis *d);
void pass_waiting(struct dx_state *st, struct diagnosis *d);
void pass_silence(struct dx_state *st, struct diagnosis *d);
void pass_good_time(struct dx_state *st, struct diagnosis *d);
void pass_rank_behind(struct dx_state *st, struct diagnosis *d);
/* Whether template c shows how far something got (a progress display,
 * a heartbeat, a steady count), which is never where a run ends. */
int shows_progress(const struct dx_state *st, uint32_t c);
/* The good run's end: the milestone of d->ms where it is up, or where a
 * good run that never came up got furthest; NULL when there are none. */
const struct dx_milestone *good_end(const struct dx_state *st, const struct diagnosis *d);
/* The good run's end as sentences name it ("went on to"): where it is up,
 * else where it got furthest before its teardown began, never a line of
 * its shutdown ("closing ...", "Stopped"); good_end when all of its
 * milestones are its teardown. */
const struct dx_milestone *named_end(const struct dx_state *st, const struct diagnosis *d);

/* The verdict passes (diagnose_verdict.c), after the findings and the
 * timing passes (their heartbeats are st->hb as pass_waiting left it):
 * pass_crash: which new error is the crash, refined to what caused it,
 *   into d->crash (an index into d->novel, or DX_NONE).  Reads d->novel,
 *   st->w.
 * pass_reach: whether bad reached the good run's end (st->done), and
 *   where it got (no further than its crash): d->bad_line, good_line,
 *   good_fraction.  Reads d->ms, d->crash, st->w.
 * pass_verdict: d->verdict; for FAILED and INTERRUPTED, d->crash too (the
 *   failed step's error, the notice that ended the run).  Reads st->done,
 *   d->crash, d->bad_line, d->novel, d->changed, d->slow.
 * pass_next: what the good run did after d->good_line: the step it took
 *   next, then its milestones bad never reached, into d->next, nnext.
 * pass_hung, after the timing and collectives passes: a crash that only
 *   ended a hang (a lost peer or a kill after a silence beyond the good
 *   runs' time in the step) makes d->verdict STOPPED, d->crash the line
 *   that ended it, d->hung_s how long it hung.
 * pass_running, after the timing passes: d->verdict STOPPED or RUNNING,
 *   as bad's silence is beyond the good runs' step time or short of it
 *   (still_in_step), for a run no line ended; dx_set_silence runs it
 *   again.  Reads d->silent_s,
 *   d->good_step_s. */
void pass_crash(struct dx_state *st, struct diagnosis *d);
void pass_reach(struct dx_state *st, struct diagnosis *d);
void pass_verdict(struct dx_state *st, struct diagnosis *d);
void pass_next(struct dx_state *st, struct diagnosis *d);
void pass_hung(struct dx_state *st, struct diagnosis *d);
void pass_running(struct diagnosis *d);

/* The collectives pass (collectives.c), after pass_ranks: each rank's
 * last enqueued, completed and pending collective from bad's watchdog
 * lines and st->opt's dumps, the shape of the hang, and the culprit
 * that shape singles out where d->culprit has none: into d->coll,
 * d->culprit.  collectives_kind, after pass_running and again whenever
 * it runs: d->coll.kind and sentence from the shape and the verdict. */
void pass_collectives(struct dx_state *st, struct diagnosis *d);
void collectives_kind(struct diagnosis *d);

#endif
