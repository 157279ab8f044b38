/* goodcheck.c — is a good run good?  See goodcheck.h.
 *
 * By itself a log can say little: that it is empty; by the rules of its
 * engine, that it failed or is a server that never came up
 * (timeline_state, the test `ddx phases` makes: a job has no "up", and
 * the generic words match any long-running program); and that it ends
 * in an error after which nothing ran.  Against the other good runs it
 * says the rest: the diagnosis of it as a bad run against them, which
 * follows every run, rank and milestone. */
#include "goodcheck.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "classify.h"
#include "diagnose.h"
#include "timeline.h"

/* A log ends in a crash when fewer than this many lines of progress (not
 * blank, no heartbeat, no error, no part of a traceback) follow its last
 * error: a launcher's summary after a worker died is a few lines, a run
 * that survived an error goes on. */
#define ALONE_TAIL 10
/* A good run is judged against at most this many others: with many runs
 * (a baseline keeps up to 63) a few say what the rest would. */
#define PEERS 8
/* Log text quoted in a warning is cut to this many bytes. */
#define QUOTE_MAX 80

void goodcheck_free(struct dx_warning *ws, size_t n)
{
	for (size_t k = 0; k < n; k++)
		free(ws[k].text);
	free(ws);
}

static void vwarn(struct dx_warning **ws, size_t *nws, const char *kind, const char *path,
		  int64_t line, const char *fmt, va_list ap)
{
	va_list aq;
	va_copy(aq, ap);
	int n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	char *text = xmalloc(n > 0 ? (size_t)n + 1 : 1);
	*text = '\0';
	if (n > 0)
		vsnprintf(text, (size_t)n + 1, fmt, ap);
	*ws = xrealloc(*ws, (*nws + 1) * sizeof(**ws));
	(*ws)[(*nws)++] = (struct dx_warning){ .kind = kind, .path = path, .line = line, .text = text };
}

void goodcheck_warn(struct dx_warning **ws, size_t *nws, const char *kind, const char *path,
		    int64_t line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vwarn(ws, nws, kind, path, line, fmt, ap);
	va_end(ap);
}

/* The message of line i of lg (its header left out), cut to QUOTE_MAX
 * bytes at a character boundary, into b. */
static void quote(struct buf *b, const struct log *lg, int64_t i)
{
	struct buf scratch = { 0 };
	struct line ln;
	struct header h;
	log_line(lg, (size_t)i, &ln, &h, &scratch);
	const char *t = ln.text + h.msg_off;
	size_t n = ln.len - h.msg_off;
	if (n > QUOTE_MAX) {
		n = QUOTE_MAX;
		while (n > 0 && ((unsigned char)t[n] & 0xc0) == 0x80)
			n--;
	}
	buf_append(b, t, n);
	if (n < ln.len - h.msg_off)
		buf_printf(b, "…");
	buf_free(&scratch);
}

/* Why a good run is doubted, before the report says whether it is left out. */
struct doubt {
	const char *kind;
	int64_t line;
	struct buf why;
};

/* By the rules of its engine: failed, or a server that never came up, as
 * `ddx phases` says it (timeline_state).  match: rules_match of tt. */
static int judge_by_rules(const struct log *lg, const struct ruleset *rs, const int32_t *match,
			  struct doubt *dt)
{
	struct timeline tl;
	timeline_build(&tl, lg, rs, match);
	enum timeline_state state = timeline_state(&tl);
	int found = state == TIMELINE_FAILED || state == TIMELINE_NOT_UP;
	if (state == TIMELINE_FAILED) {
		const struct timeline_row *w = &tl.rows[tl.failed];
		dt->kind = "not_up";
		dt->line = (int64_t)w->first;
		buf_printf(&dt->why, "failed: \"%s\" at line %zu", rs->r[w->rule].name, w->first + 1);
	} else if (state == TIMELINE_NOT_UP) {
		const struct timeline_row *w = &tl.rows[tl.nrows - 1];
		dt->kind = "not_up";
		dt->line = (int64_t)w->first;
		buf_printf(&dt->why, "never came up: its last milestone is \"%s\", line %zu",
			   rs->r[w->rule].name, w->first + 1);
	}
	timeline_free(&tl);
	return found;
}

/* By itself: whether lg ends in an error that nothing ran after (see
 * ALONE_TAIL): no milestone of its rules after it (a server that logs an
 * error and then comes up survived it), and no kill from outside before it
 * to explain it (Ctrl-C, SIGTERM: how a server's log often ends; a
 * launcher that stops the other workers after one died kills after the
 * error).  The error is a line that is an error or an exception, not a
 * traceback's opening or frames, which come before what was raised.
 * match: rules_match of tt. */
static int judge_alone(const struct log *lg, const struct tmpl_table *tt, const struct ruleset *rs,
		       const int32_t *match, struct doubt *dt)
{
	size_t from = lg->nlines, progress = 0;
	while (from > 0 && progress < ALONE_TAIL) {
		const struct tmpl *t = &tt->t[lg->tid[--from]];
		const char *s = t->text + strspn(t->text, " \t");
		progress += *s && !classify_is_heartbeat(rs, s) && classify_traceback_role(s) == CLASSIFY_TB_NO &&
			    classify_severity(rs, s, t->level) != CLASSIFY_ERROR;
	}
	int64_t err = DX_NONE;
	for (size_t i = from; i < lg->nlines; i++) {
		uint32_t id = lg->tid[i];
		const char *s = tt->t[id].text + strspn(tt->t[id].text, " \t");
		int tb = classify_traceback_role(s);
		if (err == DX_NONE && classify_is_killed(rs, s))
			return 0;
		if (match[id] >= 0 && !rs->r[match[id]].fail)
			err = DX_NONE;   /* survived: a step after it */
		else if (err == DX_NONE && (tb == CLASSIFY_TB_EXC ||
					    (tb == CLASSIFY_TB_NO && classify_severity(rs, s, tt->t[id].level) == CLASSIFY_ERROR)))
			err = (int64_t)i;
	}
	if (err == DX_NONE)
		return 0;
	dt->kind = "crashed";
	dt->line = err;
	buf_printf(&dt->why, "ends in an error at line %lld (\"", (long long)err + 1);
	quote(&dt->why, lg, err);
	buf_printf(&dt->why, "\") that nothing ran after");
	return 1;
}

/* Against others[0..n): the diagnosis of good as a bad run, crashed or
 * stopped (or still running: a good run is one that ended) before the
 * milestone where the others are up or done (by the
 * rules of their engine: the last line of a run that never came up is
 * no goal, and a healthy run stops short of a crashed one's).  Not one
 * that went another way: healthy runs of one program in other versions
 * or settings do (`bench/score-healthy` holds them to no more). */
static int judge_against(const struct log *good, const struct log *const *others, size_t n,
			 struct tmpl_table *tt, const struct ruleset *rs, struct doubt *dt)
{
	struct log *set = xmalloc((n + 1) * sizeof(*set));
	for (size_t k = 0; k < n; k++)
		set[k] = *others[k];
	set[n] = *good;
	struct dx_options o = { .now_ms = TS_NONE };
	struct diagnosis d;
	diagnose(set, n + 1, tt, rs, &o, &d);
	int found = 1;
	if (d.verdict == DX_CRASHED) {
		const struct dx_novel *c = &d.novel[d.crash];
		dt->kind = "crashed";
		dt->line = c->summary;
		buf_printf(&dt->why, "crashed at line %lld (\"", (long long)c->line + 1);
		quote(&dt->why, good, c->summary);
		buf_printf(&dt->why, "\")");
	} else if ((d.verdict == DX_STOPPED || d.verdict == DX_RUNNING) && d.up != DX_NONE) {
		const struct dx_milestone *fin = dx_final_milestone(&d);
		dt->kind = "short";
		dt->line = d.bad_line;
		buf_printf(&dt->why, "stopped before the other good runs' final milestone");
		if (fin)
			buf_printf(&dt->why, " \"%s\"", dx_milestone_name(&d, fin));
		if (d.bad_line >= 0)
			buf_printf(&dt->why, " (after line %lld)", (long long)d.bad_line + 1);
	} else {
		found = 0;
	}
	diagnosis_free(&d);
	free(set);
	return found;
}

size_t goodcheck_goods(const struct log *logs, size_t ngood, struct tmpl_table *tt,
		       const struct ruleset *rs, uint8_t *doubted, struct dx_warning **ws,
		       size_t *nws)
{
	int32_t *match = xmalloc((tt->n ? tt->n : 1) * sizeof(*match));
	rules_match(rs, tt, match);
	struct doubt *dts = xcalloc(ngood ? ngood : 1, sizeof(*dts));
	const struct log **others = xmalloc((ngood ? ngood : 1) * sizeof(*others));
	size_t ndoubted = 0;
	/* By itself first, then against the others that passed that: a
	 * crashed peer makes a healthy run look short of it. */
	for (size_t g = 0; g < ngood; g++) {
		struct doubt *dt = &dts[g];
		dt->line = DX_NONE;
		if (logs[g].nlines == 0) {
			dt->kind = "empty";
			buf_printf(&dt->why, "is empty");
		} else if (!judge_by_rules(&logs[g], rs, match, dt) &&
			   !judge_alone(&logs[g], tt, rs, match, dt)) {
			continue;
		}
		doubted[g] = 1;
		ndoubted++;
	}
	for (size_t g = 0; g < ngood; g++) {
		size_t n = 0;
		for (size_t k = 0; k < ngood && n < PEERS; k++)
			if (k != g && !doubted[k] && !dts[k].kind)
				others[n++] = &logs[k];
		if (doubted[g] || n == 0 || !judge_against(&logs[g], others, n, tt, rs, &dts[g]))
			continue;
		doubted[g] = 1;
		ndoubted++;
	}
	for (size_t g = 0; g < ngood; g++) {
		if (!doubted[g])
			continue;
		goodcheck_warn(ws, nws, dts[g].kind, logs[g].in.path, dts[g].line, "good run %s %s",
			       logs[g].in.path, dts[g].why.p);
	}
	for (size_t g = 0; g < ngood; g++)
		buf_free(&dts[g].why);
	free(dts);
	free(others);
	free(match);
	return ndoubted;
}

size_t goodcheck_select(const struct log *logs, size_t ngood, struct tmpl_table *tt,
			const struct ruleset *rs, uint8_t *doubted, size_t *keep, size_t *nkeep,
			struct dx_warning **ws, size_t *nws)
{
	size_t from = *nws;
	size_t ndoubted = goodcheck_goods(logs, ngood, tt, rs, doubted, ws, nws);
	int all = ndoubted == ngood;
	for (size_t k = from; k < *nws; k++) {
		char *t = xasprintf("%s; %s", (*ws)[k].text, all ? "kept, as no good run is better"
								 : "left out of the comparison");
		free((*ws)[k].text);
		(*ws)[k].text = t;
	}
	*nkeep = 0;
	for (size_t g = 0; g < ngood; g++)
		if (!doubted[g] || all)
			keep[(*nkeep)++] = g;
	return ndoubted;
}

int goodcheck_further(const struct log *bad, const struct log *good, struct tmpl_table *tt,
		      const struct ruleset *rs)
{
	struct doubt dt = { .line = DX_NONE };
	const struct log *ref[1] = { bad };
	int shorter = bad->nlines && good->nlines && judge_against(good, ref, 1, tt, rs, &dt);
	buf_free(&dt.why);
	return shorter;
}
