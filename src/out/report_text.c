/* report_text.c — the text report of `ddx diff`, and what the JSON
 * report (report_json.c) quotes and looks up as it does (report_impl.h). */
#include "report.h"
#include "report_impl.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "causes.h"
#include "culprit.h"
#include "prefix.h"
#include "signature.h"
#include "terminal.h"

/* Every line of the text report fits in its struct out's width: the
 * terminal's (120 off a terminal).  Quoted log text (never cut in JSON)
 * is cut to what its line leaves it, so a line that quotes keeps what
 * follows the quote; a line still too wide is cut at its end. */
/* A quote is cut to no fewer columns than this before its line is. */
#define QUOTE_MIN 12

/* Untrusted text as put_text writes it, cut to width columns (see
 * put_fitted). */
static void put_short(FILE *f, const char *s, size_t n, size_t width)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (!m)
		return;
	put_text(m, s, n);
	if (fclose(m) == 0)
		put_fitted(f, text, len, width);
	free(text);
}

/* Columns of the widest line of s[0..n). */
static size_t widest(const char *s, size_t n)
{
	size_t w = 0;
	for (size_t i = 0; i < n;) {
		const char *nl = memchr(s + i, '\n', n - i);
		size_t k = nl ? (size_t)(nl - s) : n, c = text_cols(s + i, k - i);
		w = c > w ? c : w;
		i = k + 1;
	}
	return w;
}

/* The columns a line leaves its quote after used columns of its own. */
static size_t left(const struct out *o, size_t used)
{
	return o->width > used + QUOTE_MIN ? o->width - used : QUOTE_MIN;
}

/* What a line that quotes log text needs: the row it is about. */
struct row {
	const struct diagnosis *d;
	const struct ms_key *ix;
	size_t k;
};
typedef void render_fn(const struct out *o, const struct row *r, size_t quote);

/* Render a line (or sentence) to o with its quotes cut to the most
 * columns, at most quote, that keep its lines within o's width. */
static void put_fitting(const struct out *o, render_fn *render, const struct row *r, size_t quote)
{
	size_t lo = quote < QUOTE_MIN ? quote : QUOTE_MIN, hi = quote, q = quote;
	char *text = NULL;
	size_t len = 0;
	for (;;) {
		struct out m = *o;
		m.f = open_memstream(&text, &len);
		if (!m.f)
			return;
		render(&m, r, q);
		if (fclose(m.f) != 0) {
			free(text);
			return;
		}
		if (q == lo || widest(text, len) <= o->width) {
			lo = q;
			if (q == hi)
				break;
		} else {
			hi = q - 1;
		}
		if (lo >= hi && q == lo)
			break;
		q = lo >= hi ? lo : (lo + hi + 1) / 2;
		free(text);
		text = NULL;
	}
	fwrite(text, 1, len, o->f);
	free(text);
}

/* Where line i of a run read from a folder is: "FILE:LINE" after pre,
 * then post; nothing for a run of one file. */
static void put_origin(FILE *f, const struct log *lg, int64_t i, const char *pre,
		       const char *post)
{
	size_t line;
	const char *file = i >= 0 ? log_origin(lg, (size_t)i, &line) : NULL;
	if (!file)
		return;
	fputs(pre, f);
	put_text(f, file, strlen(file));
	fprintf(f, ":%zu%s", line, post);
}

/* Line i of lg where a reader opens it, right-aligned in width columns:
 * "FILE:LINE" in a run read from a folder (the merged run's numbers are
 * no place in any file), else its number.  Returns the columns used. */
static size_t put_where(FILE *f, const struct log *lg, int64_t i, int width)
{
	size_t line;
	const char *file = i >= 0 ? log_origin(lg, (size_t)i, &line) : NULL;
	if (!file)
		return (size_t)fprintf(f, "%*lld", width, (long long)i + 1);
	char num[24];
	int n = snprintf(num, sizeof(num), ":%zu", line);
	size_t used = strlen(file) + (size_t)n;
	for (size_t k = used; k < (size_t)width; k++)
		fputc(' ', f);
	put_text(f, file, strlen(file));
	fputs(num, f);
	return used > (size_t)width ? used : (size_t)width;
}

/* Line text[0..n)'s message from offset off as a sentence or a list
 * quotes it: from its first word, its indentation (a frame's, a
 * summary's " Test Files") being layout. */
static void put_message(FILE *f, const char *text, size_t n, size_t off, size_t width)
{
	while (off < n && (text[off] == ' ' || text[off] == '\t'))
		off++;
	put_short(f, text + off, n - off, width);
}

static void put_msg(FILE *f, const struct log *lg, int64_t i, size_t width)
{
	struct quote q = { 0 };
	quote_line(&q, lg, i);
	put_message(f, q.ln.text, q.ln.len, q.h.msg_off, width);
	buf_free(&q.scratch);
}

static void put_line(FILE *f, const struct log *lg, int64_t i, size_t width)
{
	struct quote q = { 0 };
	quote_line(&q, lg, i);
	put_short(f, q.ln.text, q.ln.len, width);
	buf_free(&q.scratch);
}

/* Where bad diverged (good: the good run's line there), its message or,
 * with whole, its whole line; see quote_divergence. */
static void put_divergence(FILE *f, const struct diagnosis *d, int good, int whole, size_t width)
{
	struct quote q = { 0 };
	quote_divergence(&q, d, good);
	if (whole)
		put_short(f, q.ln.text, q.ln.len, width);
	else
		put_message(f, q.ln.text, q.ln.len, q.h.msg_off, width);
	buf_free(&q.scratch);
}

static void put_path(FILE *f, const struct log *lg)
{
	put_text(f, lg->in.path, strlen(lg->in.path));
}

/* The good runs a sentence speaks of, in the number they are: one good
 * run is "the good run". */
static const char *the_good(const struct diagnosis *d)
{
	return d->ngood == 1 ? "the good run" : "the good runs";
}

static void put_duration(FILE *f, double s)
{
	char b[48];
	fmt_seconds(b, sizeof(b), s);
	fputs(b, f);
}

/* One line of "next in the good run": offset, line, message. */
static void put_next(const struct out *o, const struct diagnosis *d, int64_t j)
{
	FILE *f = o->f;
	double s = offset(d->good_log, d->good_line, j);
	char t[48] = "";
	if (!isnan(s)) {
		t[0] = '+';
		fmt_seconds(t + 1, sizeof(t) - 1, s);
	}
	fprintf(f, "    %-9s ", t);
	size_t used = put_where(f, d->good_log, j, 5);
	fputs("  ", f);
	put_msg(f, d->good_log, j, left(o, 16 + used));
	fputc('\n', f);
}

static int cmp_ms_key(const void *a, const void *b)
{
	uint32_t x = ((const struct ms_key *)a)->id, y = ((const struct ms_key *)b)->id;
	return (x > y) - (x < y);
}

struct ms_key *ms_index(const struct diagnosis *d)
{
	struct ms_key *ix = xmalloc((d->nms ? d->nms : 1) * sizeof(*ix));
	for (size_t m = 0; m < d->nms; m++)
		ix[m] = (struct ms_key){ d->ms[m].id, (uint32_t)m };
	qsort(ix, d->nms, sizeof(*ix), cmp_ms_key);
	return ix;
}

const struct dx_milestone *milestone_of(const struct diagnosis *d, const struct ms_key *ix,
					uint32_t id)
{
	size_t lo = 0, hi = d->nms;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ix[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < d->nms && ix[lo].id == id ? &d->ms[ix[lo].m] : NULL;
}

/* Is good line j a milestone named by a rule? */
static int next_named(const struct diagnosis *d, const struct ms_key *ix, int64_t j)
{
	const struct dx_milestone *m = milestone_of(d, ix, dx_good_id(d, j));
	return m && m->name != NULL;
}

void next_shown(const struct diagnosis *d, const struct ms_key *ix, uint8_t *show)
{
	/* Milestones learned from one good log are every line it printed
	 * once: when rules name some, show only those, after the step the
	 * good run took next (next[0]), which is always shown. */
	int named = 0;
	for (size_t k = 0; k < d->nnext; k++)
		named += next_named(d, ix, d->next[k]);
	/* The good run's final milestone is always shown, last. */
	const struct dx_milestone *fin = dx_final_milestone(d);
	size_t shown = 0;
	for (size_t k = 0; k < d->nnext; k++) {
		int is_final = fin && dx_good_id(d, d->next[k]) == fin->id;
		int hide = (k > 0 && d->ngood < 2 && named && !next_named(d, ix, d->next[k])) ||
			   (!is_final && shown >= NEXT_MAX - 1);
		show[k] = hide ? NEXT_HIDDEN : is_final ? NEXT_FINAL : NEXT_SHOWN;
		shown += !hide;
	}
}

/* Milestone m as bad reached it at bad's line i: its rule's name, else
 * bad's own line, since what the bad run did is quoted from the bad run
 * (and the good run's line, dx_milestone_name, when i is none). */
static void put_reached(FILE *f, const struct diagnosis *d, const struct dx_milestone *m, int64_t i,
			size_t q)
{
	if (dx_milestone_by_rule(d, m) || i < 0)
		put_short(f, dx_milestone_name(d, m), strlen(dx_milestone_name(d, m)), q);
	else
		put_msg(f, d->bad_log, i, q);
}

/* The verdict: quotes cut to q columns, the crash's to q + 20. */
static void verdict_sentence(const struct out *o, const struct row *r, size_t q)
{
	FILE *f = o->f;
	const struct diagnosis *d = r->d;
	const struct log *bad = d->bad_log, *good = d->good_log;
	static const char *const word[] = { "MATCHES", "FINISHED", "STOPPED", "CRASHED", "DIVERGED", "FAILED",
					    "INTERRUPTED", "RUNNING" };
	fprintf(f, "%s", SGR_BOLD(o));
	put_path(f, bad);
	/* Empty beside empty good runs: no evidence either way, so no
	 * verdict word (the verdict itself is no clean match). */
	if ((d->verdict == DX_SAME || d->verdict == DX_DIFFERENT) && bad->nlines == 0) {
		fprintf(f, "%s printed nothing, as %s did: the log cannot tell how it ended%s.\n",
			SGR_RESET(o), the_good(d), d->verdict == DX_DIFFERENT ? d->ngood == 1 ?
			" (and the good run is in doubt: see the warnings)" :
			" (and the good runs are in doubt: see the warnings)" : "");
		return;
	}
	const char *colour = d->verdict == DX_SAME ? SGR_GREEN(o) : d->verdict == DX_RUNNING ? SGR_YELLOW(o) : SGR_RED(o);
	fprintf(f, " %s%s%s", colour, word[d->verdict], SGR_RESET(o));
	const struct dx_milestone *fin = dx_final_milestone(d);
	if (d->verdict == DX_SAME || d->verdict == DX_DIFFERENT) {
		fprintf(f, d->verdict == DX_SAME ? " %s: it reached \"" : " like %s (\"", the_good(d));
		if (fin)
			put_reached(f, d, fin, fin->bad_line, q);
		fprintf(f, "\"");
		if (d->verdict == DX_DIFFERENT && !d->nnovel && !d->nchanged && !d->nslow)
			fprintf(f, ") but %s in doubt (see the warnings)",
				d->ngood == 1 ? "the good run is" : "the good runs are");
		else if (d->verdict == DX_DIFFERENT) {
			/* Only what there is: "differs: 1 new finding". */
			const size_t n[] = { d->nnovel, d->nchanged, d->nslow };
			static const char *const what[] = { "new finding", "changed value", "slow step" };
			const char *sep = ") but differs: ";
			for (size_t k = 0; k < 3; k++)
				if (n[k]) {
					fprintf(f, "%s%zu %s%s", sep, n[k], what[k], n[k] == 1 ? "" : "s");
					sep = ", ";
				}
		}
		fprintf(f, ".\n");
		return;
	}
	/* A failed step, a crash, an interruption: where, and what it said. */
	if (d->crash != DX_NONE && (d->verdict == DX_CRASHED || d->verdict == DX_FAILED ||
				    d->verdict == DX_INTERRUPTED)) {
		const struct dx_novel *c = &d->novel[d->crash];
		fprintf(f, " at line %lld", (long long)c->line + 1);
		put_origin(f, bad, c->line, " (", ")");
		fputs(": ", f);
		put_msg(f, bad, c->summary, q + 20);
		/* A failed step's run went on: where it got is said after. */
		if (d->bad_line >= 0 && d->verdict != DX_FAILED) {
			fprintf(f, " (after \"");
			put_divergence(f, d, 0, 0, q);
			fprintf(f, "\", line %lld)", (long long)d->bad_line + 1);
		}
	} else if (bad->nlines == 0) {
		fprintf(f, " before printing anything");
	} else if (d->bad_line < 0) {
		fprintf(f, " from its first line: nothing in it follows the good run");
	} else {
		fprintf(f, d->verdict == DX_RUNNING ? ", still in step \"" : " after \"");
		put_divergence(f, d, 0, 0, q);
		fprintf(f, "\" (line %lld of %zu", (long long)d->bad_line + 1, bad->nlines);
		put_origin(f, bad, d->bad_line, ", ", "");
		fputc(')', f);
		if (d->verdict == DX_STOPPED && d->crash != DX_NONE) {
			/* It hung there, and a line ended it (pass_hung). */
			const struct dx_novel *c = &d->novel[d->crash];
			fputs(" and hung there ", f);
			put_duration(f, d->hung_s);
			fprintf(f, " until line %lld", (long long)c->line + 1);
			put_origin(f, bad, c->line, " (", ")");
			fputs(": ", f);
			put_msg(f, bad, c->summary, q + 20);
		}
	}
	if (d->verdict == DX_RUNNING) {
		/* Not overdue yet: how far into the good runs' time it is. */
		fputs(": ", f);
		put_duration(f, d->silent_s);
		fputs(" of the ~", f);
		put_duration(f, d->good_step_s);
		fprintf(f, " %s took", the_good(d));
	}
	if (d->verdict != DX_CRASHED && d->waiting.first >= 0) {
		/* A stall, not another path: say what it waits for. */
		fprintf(f, ", waiting: \"");
		put_msg(f, bad, d->waiting.first, q + 20);
		if (d->waiting.count == 1)
			fprintf(f, "\" (line %lld)", (long long)d->waiting.first + 1);
		else
			fprintf(f, "\" %llu times", (unsigned long long)d->waiting.count);
		if (!isnan(d->waiting.span_s) && d->waiting.count > 1) {
			fprintf(f, " over ");
			put_duration(f, d->waiting.span_s);
		}
	}
	if (d->verdict == DX_FAILED && d->end_line >= 0) {
		/* It went on to the end: quote where, as bad printed it -- the
		 * good run's end, unless bad reached that before the failure.
		 * "went on to" names only a line after the failure; an end
		 * reached before it (a failure during shutdown) "had been
		 * reached". */
		int64_t at = d->crash != DX_NONE ? d->novel[d->crash].summary : -1;
		int64_t to = fin && fin->bad_line > at ? fin->bad_line : d->end_line;
		fprintf(f, to > at ? "; it went on to \"" : "; it had reached \"");
		put_msg(f, bad, to, q);
		fprintf(f, "\" (line %lld)", (long long)to + 1);
	} else if (fin && fin->good_line > d->good_line) {
		fprintf(f, "; %s went on to \"", the_good(d));
		put_short(f, dx_milestone_name(d, fin), strlen(dx_milestone_name(d, fin)), q);
		fprintf(f, "\"");
		double s = offset(good, d->good_line, fin->good_line);
		if (!isnan(s)) {
			fputc(' ', f);
			put_duration(f, s);
			fprintf(f, " later");
		}
	}
	fprintf(f, ".\n");
}

/* Index in d->ms of the milestone rank r last reached, or -1. */
static long rank_step(const struct diagnosis *d, const struct ms_key *ix, const struct dx_rank *r)
{
	if (r->last_milestone < 0)
		return -1;
	const struct dx_milestone *m = milestone_of(d, ix, dx_bad_id(d, r->last_milestone));
	return m ? (long)(m - d->ms) : -1;
}

/* "TP3 stopped first, at "weights loaded"": the ranks whose last
 * milestone comes earliest in the good run. */
static void ranks_behind(FILE *f, const struct diagnosis *d, const struct ms_key *ix, size_t q)
{
	long lo = LONG_MAX, hi = -2;
	size_t nlo = 0, nhi = 0, first = 0, last = 0;
	for (size_t k = 0; k < d->nranks; k++) {
		long m = rank_step(d, ix, &d->ranks[k]);
		if (m < lo)
			lo = m, nlo = 0, first = k;
		nlo += m == lo;
		if (m > hi)
			hi = m, nhi = 0, last = k;
		nhi += m == hi;
	}
	if (lo == hi) {
		fprintf(f, "All %zu ranks reached the same milestone, then stopped at different lines.", d->nranks);
		return;
	}
	if (nhi == 1 && nlo > 1) {
		fputs("Only ", f);
		put_text_padded(f, d->ranks[last].name, 0);
		fputs(" got as far as \"", f);
		put_reached(f, d, &d->ms[hi], d->ranks[last].last_milestone, q);
		fprintf(f, "\".");
		return;
	}
	if (nlo == 1)
		put_text_padded(f, d->ranks[first].name, 0), fputs(" stopped first, ", f);
	else
		fprintf(f, "%zu of %zu ranks stopped first, ", nlo, d->nranks);
	if (lo < 0) {
		fprintf(f, "before any milestone.");
	} else {
		fprintf(f, "at \"");
		put_reached(f, d, &d->ms[lo], d->ranks[first].last_milestone, q);
		fprintf(f, "\".");
	}
}

void culprit_peers(FILE *f, const struct dx_culprit *c)
{
	for (size_t k = 0; k < c->npeers; k++) {
		fputs(k ? ", " : "; ", f);
		put_text_padded(f, c->peers[k], 0);
	}
	/* Untagged waiting errors name no rank: at least one peer. */
	if (!c->npeers && c->anon_peers)
		fputs("; a peer", f);
	else if (!c->npeers)
		return;
	fputs(c->symptoms == DX_WAIT_TIMEOUT     ? " then timed out waiting for it"
	      : c->symptoms == DX_WAIT_PEER_LOSS ? " then lost the connection to it"
						 : " then failed waiting for it", f);
}

/* "TP2 stopped first, at "Preparing warmup batch" (line 143); TP0, TP1,
 * TP3 then timed out waiting for it."  For a folder run the place is its
 * file's: (rank2.log:31). */
static void culprit_sentence(FILE *f, const struct diagnosis *d, size_t q)
{
	const struct dx_culprit *c = &d->culprit;
	put_text_padded(f, c->rank, 0);
	/* A rank that printed nothing has no line of its own to quote. */
	if (c->unheard && c->line < 0) {
		fputs(" printed nothing here, the only rank that did not fail or wait", f);
		culprit_peers(f, c);
		fputc('.', f);
		return;
	}
	if (c->unheard)
		fputs(" printed nothing here and", f);
	fputs(c->how == DX_CULPRIT_ERROR      ? " failed first, at \""
	      : c->how == DX_CULPRIT_OWN_STEP ? " stopped at \""
	      : c->how == DX_CULPRIT_SILENT   ? " never failed; it last printed \""
	      : c->how == DX_CULPRIT_LAUNCHER ? " stopped first, as the launcher says: \""
	      : c->how == DX_CULPRIT_MISSED   ? " never printed a step every other rank printed; it last printed \""
	      : c->how == DX_CULPRIT_LIVE     ? " is where its peers wait, by their live processes; it last printed \""
					      : " stopped first, at \"", f);
	put_msg(f, d->bad_log, c->line, q);
	size_t line;
	const char *file = c->line >= 0 ? log_origin(d->bad_log, (size_t)c->line, &line) : NULL;
	fputs("\" (", f);
	if (file)
		put_text(f, file, strlen(file)), fprintf(f, ":%zu)", line);
	else
		fprintf(f, "line %lld)", (long long)c->line + 1);
	if (c->how == DX_CULPRIT_OWN_STEP)
		fputs(", a step no other rank took", f);
	if (c->how != DX_CULPRIT_LIVE)
		culprit_peers(f, c);
	fputc('.', f);
}

static void second_sentence(FILE *f, const struct row *r, size_t q)
{
	const struct diagnosis *d = r->d;
	int any = 0;
	if (d->verdict == DX_STOPPED && d->crash == DX_NONE && !isnan(d->silent_s)) {
		/* Heartbeats after the last step: the log is not silent, but
		 * nothing moves. */
		fprintf(f, d->last_progress_ts != d->last_ts_bad ? "No progress for " : "Silent for ");
		put_duration(f, d->silent_s);
		if (d->last_progress_ts != d->last_ts_bad)
			fprintf(f, ", only heartbeats since");
		if (!isnan(d->good_step_s)) {
			fprintf(f, d->ngood == 1 ? " (the good run spent " : " (good runs spent at most ");
			put_duration(f, d->good_step_s);
			fprintf(f, " in this step)");
		}
		fprintf(f, ".");
		any = 1;
	}
	/* Which attempt is diagnosed, as it is: the one before the last
	 * when the last printed no more than its start. */
	if (d->attempts > 1) {
		fprintf(f, "%sThe log holds %zu attempts of the run; ", any ? " " : "", d->attempts);
		if (d->attempt == d->attempts)
			fprintf(f, "this is the last, from line %lld.", (long long)d->attempt_line + 1);
		else
			fprintf(f, "this is attempt %zu, from line %lld (the last printed only its start).",
				d->attempt, (long long)d->attempt_line + 1);
		any = 1;
	}
	/* A run still in its step has stopped nowhere: no ranks sentence. */
	int ended = d->verdict != DX_SAME && d->verdict != DX_DIFFERENT && d->verdict != DX_RUNNING;
	/* A culprit the collectives name is said by their sentence. */
	if (d->culprit.rank && ended && d->culprit.how != DX_CULPRIT_COLLECTIVE) {
		fprintf(f, "%s", any ? " " : "");
		culprit_sentence(f, d, q);
		any = 1;
	} else if (d->culprit.rank && ended) {
		/* said below */
	} else if (d->ranks_alike && ended) {
		fprintf(f, "%s", any ? " " : "");
		size_t failed = 0, who = 0;
		for (size_t k = 0; k < d->nranks; k++)
			if (d->ranks[k].errors)
				failed++, who = k;
		if (d->ranks_same)
			fprintf(f, "All %zu ranks stopped at the same point.", d->nranks);
		else if (failed == 1)
			fputs("Only ", f), put_text_padded(f, d->ranks[who].name, 0), fputs(" raised an error.", f);
		else
			ranks_behind(f, d, r->ix, q);
		any = 1;
	}
	if (d->coll.kind && d->coll.sentence) {
		const char *t = d->coll.sentence;
		fprintf(f, "%s%c", any ? " " : "", t[0] >= 'a' && t[0] <= 'z' ? t[0] - 'a' + 'A' : t[0]);
		put_text(f, t + 1, strlen(t + 1));
		fputc('.', f);
		any = 1;
	}
	if (any)
		fputc('\n', f);
}

static void section(const struct out *o, const char *name)
{
	fprintf(o->f, "\n  %s%-12s%s ", SGR_BOLD(o), name, SGR_RESET(o));
}

/* The live section: proc's verdict, then one line per process; `ddx
 * proc` has the rest. */
static void live_section(const struct out *o, const struct live_report *r)
{
	FILE *f = o->f;
	section(o, "live");
	/* A sentence, whose last word is the verdict: wrapped, not cut,
	 * under the section's column. */
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (m) {
		put_text(m, r->verdict, strlen(r->verdict));
		if (fclose(m) == 0)
			put_wrapped(f, text, len, o->width, 15, 15);
		free(text);
	}
	fputc('\n', f);
	for (size_t i = 0; i < r->nprocs && i < LIVE_MAX; i++) {
		const struct proc_info *p = &r->procs[i];
		fprintf(f, "    %*s%-7d ", 2 * p->depth, "", p->pid);
		if (p->gone) {
			fprintf(f, "exited while inspected\n");
			continue;
		}
		const char *in = p->syscall && strcmp(p->syscall, "none") != 0 ? p->syscall :
				 p->wchan && *p->wchan ? p->wchan : "?";
		fprintf(f, "%c %-16.16s ", p->state, in);
		if (isnan(p->cpu_s_delta))
			fprintf(f, "cpu %7.2f s  ", p->cpu_s);
		else
			fprintf(f, "cpu +%.2f s   ", p->cpu_s_delta);
		const char *cmd = p->cmdline ? p->cmdline : p->comm;
		put_short(f, cmd, strlen(cmd), left(o, 47 + 2 * (size_t)p->depth));
		fputc('\n', f);
	}
	if (r->nprocs > LIVE_MAX)
		fprintf(f, "    ... %zu more\n", r->nprocs - LIVE_MAX);
	fprintf(f, "    (`ddx proc ");
	put_text(f, r->log_path, strlen(r->log_path));
	fprintf(f, "` for each process in full)\n");
}

/* "    LINE  SEVERITY MESSAGE (traceback from line N, 3 copies) at
 * FILE:LINE on rank0, rank2, rank3". */
static void novel_row(const struct out *o, const struct row *r, size_t q)
{
	FILE *f = o->f;
	const struct dx_novel *n = &r->d->novel[r->k];
	const struct log *bad = r->d->bad_log;
	fprintf(f, "    %5lld  %s%-7s%s ", (long long)n->summary + 1,
		n->severity == DX_ERROR ? SGR_RED(o) : n->severity == DX_WARNING ? SGR_YELLOW(o) : SGR_DIM(o),
		dx_severity_name(n->severity), SGR_RESET(o));
	put_msg(f, bad, n->summary, q);
	if (n->traceback && n->count > 1)
		fprintf(f, " (traceback from line %lld, %u copies)", (long long)n->line + 1, n->count);
	else if (n->traceback)
		fprintf(f, " (traceback from line %lld)", (long long)n->line + 1);
	else if (n->nlines > 1)
		fprintf(f, " (%u lines)", n->nlines);
	put_origin(f, bad, n->summary, " at ", "");
	/* Which ranks printed it, where several did (one rank's own line
	 * is in the ranks section, and a folder's file is its origin). */
	if (n->nstreams > 1) {
		struct buf b = { 0 };
		dx_streams_text(&b, r->d, n);
		fputs(" on ", f);
		put_text(f, b.p, b.len);
		buf_free(&b);
	}
	fputc('\n', f);
}

/* "    12 s (good at most 3.0 s) on TP1 from line A to B: MESSAGE"; with
 * one good run "(good 3.0 s)", and "(instant in the good run)" where its
 * clock saw no time pass. */
static void slow_row(const struct out *o, const struct row *r, size_t q)
{
	FILE *f = o->f;
	const struct dx_slow *s = &r->d->slow[r->k];
	fprintf(f, "    ");
	put_duration(f, s->bad_s);
	if (!isnan(s->good_s) && s->good_s <= 0) {
		fprintf(f, " (instant in %s", the_good(r->d));
	} else if (!isnan(s->good_s)) {
		fprintf(f, r->d->ngood == 1 ? " (good " : " (good at most ");
		put_duration(f, s->good_s);
	}
	/* A straggler: what its peers in this run took. */
	if (s->rank) {
		fprintf(f, isnan(s->good_s) ? " (its peers " : "; its peers ");
		put_duration(f, s->peers_s);
	}
	if (!isnan(s->good_s) || s->rank)
		fputc(')', f);
	if (s->stream && *s->stream) {
		fputs(" on ", f);
		put_text_padded(f, s->stream, 0);
	}
	fprintf(f, " from line %lld to %lld: ", (long long)s->from_bad + 1, (long long)s->to_bad + 1);
	put_msg(f, r->d->bad_log, s->to_bad, q);
	fputc('\n', f);
}

/* The ranks section when every rank stopped at the same point. */
static void ranks_same_row(const struct out *o, const struct row *r, size_t q)
{
	FILE *f = o->f;
	const struct diagnosis *d = r->d;
	int64_t lo = d->ranks[0].last_line, hi = lo;
	for (size_t k = 1; k < d->nranks; k++) {
		lo = d->ranks[k].last_line < lo ? d->ranks[k].last_line : lo;
		hi = d->ranks[k].last_line > hi ? d->ranks[k].last_line : hi;
	}
	section(o, "ranks");
	fprintf(f, "all %zu (", d->nranks);
	put_text_padded(f, d->ranks[0].name, 0);
	fputs("..", f);
	put_text_padded(f, d->ranks[d->nranks - 1].name, 0);
	fputs(") last printed \"", f);
	put_msg(f, d->bad_log, d->ranks[0].last_line, q);
	fprintf(f, "\" (lines %lld-%lld)", (long long)lo + 1, (long long)hi + 1);
	/* Ranks that stopped alike did alike: one role says it for all. */
	int role = d->ranks[0].role;
	for (size_t k = 1; k < d->nranks; k++)
		role = d->ranks[k].role == role ? role : 0;
	if (role)
		fprintf(f, ", all %s", culprit_role_name[role]);
	fputc('\n', f);
}

/* One rank of the ranks section: how far it got. */
static void rank_row(const struct out *o, const struct row *row, size_t q)
{
	FILE *f = o->f;
	const struct dx_rank *r = &row->d->ranks[row->k];
	fputs("    ", f);
	put_text_padded(f, r->name, 16);
	fprintf(f, " last line %5lld  ", (long long)r->last_line + 1);
	if (r->last_milestone >= 0) {
		fprintf(f, "milestone %5lld ", (long long)r->last_milestone + 1);
		put_msg(f, row->d->bad_log, r->last_milestone, q);
	} else {
		fprintf(f, "no milestone");
	}
	if (r->errors)
		fprintf(f, "  %s%u new errors from line %lld%s", SGR_RED(o), r->errors,
			(long long)r->first_error + 1, SGR_RESET(o));
	if (r->role)
		fprintf(f, "  %s", culprit_role_name[r->role]);
	fputc('\n', f);
}

static void coll_op(FILE *f, const char *what, int64_t seq, const char *op)
{
	if (seq < 0)
		return;
	fprintf(f, "  %s %lld", what, (long long)seq);
	if (*op)
		fprintf(f, " %s", op);
}

/* One rank of the collectives section: its last enqueued and completed
 * collective, where it waits, and what says so. */
static void coll_row(const struct out *o, const struct row *row, size_t q)
{
	(void)q;
	FILE *f = o->f;
	const struct dx_coll_rank *r = &row->d->coll.r[row->k];
	fprintf(f, "    rank %-4d", r->rank);
	coll_op(f, "enqueued", r->enqueued, r->enq_op);
	coll_op(f, "completed", r->completed, r->done_op);
	if (r->pending >= 0)
		coll_op(f, "waits in", r->pending, r->pending_op);
	if (r->pending >= 0 && r->started == 0 && row->d->coll.kind == DX_HANG_NOT_STARTED)
		fputs(" (not started)", f);
	if (!isnan(r->waited_s)) {
		fputs(" for ", f);
		put_duration(f, r->waited_s);
	}
	if (r->dump)
		fputs("  (its dump)", f);
	else if (r->line >= 0) {
		fprintf(f, "  (line %lld)", (long long)r->line + 1);
	}
	fputc('\n', f);
}

char *report_summary(const struct diagnosis *d)
{
	char *text = NULL;
	size_t len = 0;
	struct out o = { open_memstream(&text, &len), 0, 120, 0 };
	if (!o.f)
		return NULL;
	struct ms_key *ix = ms_index(d);
	struct row r = { .d = d, .ix = ix };
	verdict_sentence(&o, &r, 60);   /* as report_lines quotes at 120 columns */
	free(ix);
	if (fclose(o.f) != 0) {
		free(text);
		return NULL;
	}
	if (len && text[len - 1] == '\n')
		text[len - 1] = '\0';
	return text;
}

/* The report, its lines not yet fitted to o's width. */
static void report_lines(const struct out *o, const struct diagnosis *d, const struct log *logs,
			 size_t nlogs, const struct live_report *live)
{
	FILE *f = o->f;
	const struct log *bad = d->bad_log, *good = d->good_log;
	struct ms_key *ix = ms_index(d);
	struct row r = { .d = d, .ix = ix };
	size_t q = o->width / 2 < 60 ? o->width / 2 : 60;   /* a sentence's quotes */
	verdict_sentence(o, &r, q);
	second_sentence(f, &r, q);
	if (d->seen) {
		struct buf b = { 0 };
		signature_seen_sentence(d->seen, &b);
		put_text(f, b.p, b.len);
		fputc('\n', f);
		buf_free(&b);
	}
	for (size_t k = 0; k < d->ncauses && k < CAUSES_MAX; k++) {
		const struct cause *c = d->causes[k].cause;
		fputs("likely cause: ", f), put_text(f, c->title, strlen(c->title));
		fputs(" -- fix: ", f), put_text(f, c->fix, strlen(c->fix));
		fprintf(f, "\n    line %lld: ", (long long)d->causes[k].line + 1);
		put_line(f, bad, d->causes[k].line, q + 20);
		fputc('\n', f);
	}
	for (size_t k = 0; k < d->nwarnings; k++) {
		fprintf(f, "%swarning:%s ", SGR_RED(o), SGR_RESET(o));
		put_text(f, d->warnings[k].text, strlen(d->warnings[k].text));
		fputc('\n', f);
	}
	section(o, "lines");
	fprintf(f, "bad %zu    good ", bad->nlines);
	for (size_t g = 0; g + 1 < nlogs; g++)
		fprintf(f, "%s%zu", g ? ", " : "", logs[g].nlines);
	fputc('\n', f);
	section(o, "reached");
	if (d->bad_line < 0) {
		fprintf(f, "nothing in common with ");
		put_path(f, good);
		fputc('\n', f);
	} else {
		fprintf(f, "line %lld", (long long)d->bad_line + 1);
		put_origin(f, bad, d->bad_line, " (", ")");
		fputs(" ≙ ", f);
		put_path(f, good);
		size_t gl;
		if (log_origin(good, (size_t)d->good_line, &gl))
			put_origin(f, good, d->good_line, "/", "");
		else
			fprintf(f, ":%lld", (long long)d->good_line + 1);
		fprintf(f, " (%.0f%% of the good run)\n", 100.0 * d->good_fraction);
		fprintf(f, "    %sbad  %5lld%s │ ", SGR_RED(o), (long long)d->bad_line + 1, SGR_RESET(o));
		put_divergence(f, d, 0, 1, left(o, 17));
		fprintf(f, "\n    %sgood %5lld%s │ ", SGR_GREEN(o), (long long)d->good_line + 1, SGR_RESET(o));
		put_divergence(f, d, 1, 1, left(o, 17));
		fputc('\n', f);
	}
	if (d->nnext && d->verdict != DX_SAME && d->verdict != DX_DIFFERENT && d->verdict != DX_FAILED) {
		fprintf(f, "\n  %snext in the good run (%s)%s\n", SGR_BOLD(o),
			d->verdict == DX_RUNNING ? "not reached yet" : "never reached", SGR_RESET(o));
		uint8_t *show = xmalloc(d->nnext);
		next_shown(d, ix, show);
		size_t hidden = 0;
		for (size_t k = 0; k < d->nnext; k++) {
			if (show[k] == NEXT_HIDDEN) {
				hidden++;
				continue;
			}
			if (show[k] == NEXT_FINAL && hidden)
				fprintf(f, "    ... %zu more (--json lists them)\n", hidden), hidden = 0;
			put_next(o, d, d->next[k]);
		}
		free(show);
		if (hidden)
			fprintf(f, "    ... %zu more (--json lists them)\n", hidden);
	}
	if (d->crash != DX_NONE) {
		const struct dx_novel *c = &d->novel[d->crash];
		section(o, d->verdict == DX_FAILED ? "failed"
			   : d->verdict == DX_INTERRUPTED || d->verdict == DX_STOPPED ? "ended by" : "crash");
		fprintf(f, "line %lld", (long long)c->line + 1);
		put_origin(f, bad, c->line, " (", ")");
		if (c->traceback)
			fprintf(f, ", a traceback of %u lines ending at line %lld", c->nlines,
				(long long)c->summary + 1);
		fprintf(f, "\n    %5lld │ ", (long long)c->line + 1);
		put_line(f, bad, c->line, left(o, 12));
		if (c->summary != c->line) {
			fprintf(f, "\n    %5lld │ ", (long long)c->summary + 1);
			put_line(f, bad, c->summary, left(o, 12));
		}
		fputc('\n', f);
	}
	for (size_t k = 0; k < d->nchanged && k < CHANGED_MAX; k++) {
		const struct dx_change *c = &d->changed[k];
		if (k == 0 || c->bad_line != d->changed[k - 1].bad_line) {
			section(o, k == 0 ? "changed" : "");
			/* A line named by no words is named by its place. */
			const char *open = *c->label ? " (" : "", *close = *c->label ? ")" : "";
			put_text(f, c->label, strlen(c->label));
			if (c->good_line < 0)
				fprintf(f, "%sbad line %lld; not in the good run%s\n", open,
					(long long)c->bad_line + 1, close);
			else if (c->bad_line == c->good_line)
				fprintf(f, "%sline %lld in both%s\n", open, (long long)c->bad_line + 1, close);
			else
				fprintf(f, "%sbad line %lld, good line %lld%s\n", open,
					(long long)c->bad_line + 1, (long long)c->good_line + 1, close);
		}
		/* "    KEY GOOD -> BAD": the values share what the key leaves. */
		size_t q = left(o, 37) / 2 < 40 ? left(o, 37) / 2 : 40;
		fputs("    ", f);
		put_text_padded(f, c->key, 28);
		fputc(' ', f);
		put_short(f, c->good, strlen(c->good), q);
		fprintf(f, " -> ");
		put_short(f, c->bad, strlen(c->bad), q);
		fputc('\n', f);
	}
	if (d->nchanged > CHANGED_MAX)
		fprintf(f, "    ... %zu more\n", d->nchanged - CHANGED_MAX);
	if (d->nnovel) {
		section(o, "new in bad");
		fprintf(f, "%zu template%s, %zu line%s (%s)\n", d->novel_templates,
			d->novel_templates == 1 ? "" : "s", d->novel_lines, d->novel_lines == 1 ? "" : "s",
			dx_weak_reference(d) ? "a weak fit, no reduction" : "errors and warnings first");
		for (size_t k = 0; k < d->nnovel && k < NOVEL_MAX; k++)
			put_fitting(o, novel_row, &(struct row){ .d = d, .k = k }, left(o, 19));
		if (d->nnovel > NOVEL_MAX)
			fprintf(f, "    ... %zu more\n", d->nnovel - NOVEL_MAX);
	}
	if (d->nslow) {
		section(o, "slow steps");
		fputc('\n', f);
		for (size_t k = 0; k < d->nslow; k++)
			put_fitting(o, slow_row, &(struct row){ .d = d, .k = k }, 60);
	}
	if (d->nranks > 1 && d->ranks_same) {
		put_fitting(o, ranks_same_row, &(struct row){ .d = d }, 50);
	} else if (d->nranks > 1) {
		section(o, "ranks");
		fputc('\n', f);
		for (size_t k = 0; k < d->nranks; k++)
			put_fitting(o, rank_row, &(struct row){ .d = d, .k = k }, 50);
	}
	if (d->coll.n) {
		section(o, "collectives");
		fprintf(f, "%s\n", dx_hang_kind_name(d->coll.kind) ? dx_hang_kind_name(d->coll.kind) : "");
		for (size_t k = 0; k < d->coll.n; k++)
			put_fitting(o, coll_row, &(struct row){ .d = d, .k = k }, 0);
	}
	if (live && live->nprocs)
		live_section(o, live);
	free(ix);
}

void report_text(const struct out *o, const struct diagnosis *d, const struct log *logs,
		 size_t nlogs, const struct live_report *live)
{
	char *text = NULL;
	size_t len = 0;
	/* Lines written whole (width 0) quote as many columns as 120 do. */
	struct out lines = { open_memstream(&text, &len), o->colour, o->width ? o->width : 120, o->wrap };
	if (!lines.f)
		return;
	report_lines(&lines, d, logs, nlogs, live);
	/* The opening sentences, up to the first blank line, are wrapped at
	 * blanks (the second line of a sentence indented) on a terminal, and
	 * stay a line each off one; the rest, rows of columns, are cut. */
	FILE *f = o->f;
	size_t width = o->width;
	int prose = 1, wrap = o->wrap;
	if (fclose(lines.f) == 0)
		for (size_t i = 0; i < len;) {
			const char *nl = memchr(text + i, '\n', len - i);
			size_t k = nl ? (size_t)(nl - text) : len;
			prose &= k > i;
			if (!width)
				fwrite(text + i, 1, k - i, f);
			else if (prose && wrap)
				put_wrapped(f, text + i, k - i, width, 0, 2);
			else if (prose)
				fwrite(text + i, 1, k - i, f);
			else
				put_fitted(f, text + i, k - i, width);
			if (nl)
				fputc('\n', f);
			i = k + 1;
		}
	free(text);
}
