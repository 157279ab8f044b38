/* report_impl.h — what the text and JSON reports of `ddx diff` share
 * (report_text.c defines it): a quoted line, the time between two lines,
 * the milestone of a template and the culprit's peers as words. */
#ifndef DDX_REPORT_IMPL_H
#define DDX_REPORT_IMPL_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "diagnose.h"

/* A line of a log as log_line() reads it; scratch is the caller's to
 * buf_free. */
struct quote {
	struct buf scratch;
	struct line ln;
	struct header h;
};

static inline void quote_line(struct quote *q, const struct log *lg, int64_t i)
{
	log_line(lg, (size_t)i, &q->ln, &q->h, &q->scratch);
}

/* Where bad diverged, its line (good: the good run's line there) as
 * quote_line reads it; where the two lines correspond by the progress
 * bar drawn in front of their text, the bar is the text quoted. */
static inline void quote_divergence(struct quote *q, const struct diagnosis *d, int good)
{
	quote_line(q, good ? d->good_log : d->bad_log, good ? d->good_line : d->bad_line);
	if (good ? d->good_by_bar : d->bad_by_bar) {
		q->ln.text = q->ln.bar;
		q->ln.len = q->ln.bar_len;
		q->h.msg_off = 0;
	}
}

/* Seconds from line from to line to of lg; NaN when either is none. */
static inline double offset(const struct log *lg, int64_t from, int64_t to)
{
	if (from < 0 || to < 0)
		return NAN;
	return log_span_s(lg, (size_t)from, (size_t)to);
}

/* d->ms by template id, to find a line's milestone in log time: a good
 * log of distinct lines learns a milestone per line, and the report looks
 * one up for every line it lists. */
struct ms_key {
	uint32_t id, m;
};

/* The index of d->ms, sorted by id; the caller frees it. */
struct ms_key *ms_index(const struct diagnosis *d);
/* The milestone of template id (ids are unique in d->ms), or NULL. */
const struct dx_milestone *milestone_of(const struct diagnosis *d, const struct ms_key *ix,
					uint32_t id);
/* The most entries of each list a report for people shows, the text
 * report and the page alike (the JSON report has them all): a good log
 * of distinct lines learns a milestone per line, a bad one as many novel
 * lines, and a report must stay readable, and quick to write, whatever
 * the logs. */
#define NEXT_MAX 12          /* the good run's next steps */
#define NOVEL_MAX 10         /* lines only bad printed (the text's) */
#define CHANGED_MAX 20       /* changed values */
#define CAUSES_MAX 2         /* known causes */
#define LIVE_MAX 12          /* live processes */

/* How a report lists each of d->next (next_shown). */
enum { NEXT_HIDDEN, NEXT_SHOWN, NEXT_FINAL };
/* Which of d->next a report lists, NEXT_MAX at most: show[k] (the
 * caller's, d->nnext of them) is NEXT_HIDDEN, NEXT_SHOWN, or NEXT_FINAL
 * for the good run's final milestone, always shown.  When rules name
 * milestones of a single good log, only those follow the step it took
 * next. */
void next_shown(const struct diagnosis *d, const struct ms_key *ix, uint8_t *show);
/* The report's first sentence, the verdict, as the text report writes
 * it off a terminal (no colour, quotes cut for 120 columns), without its
 * newline: the JSON report's "summary".  malloc'd; NULL when out of
 * memory. */
char *report_summary(const struct diagnosis *d);
/* What the culprit's peers did: "; TP0, TP1 then timed out waiting for it". */
void culprit_peers(FILE *f, const struct dx_culprit *c);

#endif
