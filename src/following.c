/* following.c — which lines of the bad log follow a good run (see
 * diagnose_passes.h): bad is aligned with the good log stream by stream,
 * then a walk keeps the matches that do not jump over the good run's
 * pending milestones, so that a crashed run's shutdown lines, which match
 * the good run's, do not pass for progress. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "align.h"
#include "classify.h"
#include "diagnose_passes.h"
#include "streams.h"
#include "timeline.h"

/* ---- following the good run ---- */

/* The good run's milestones that no bad line has reached yet, per good
 * stream, in a Fenwick tree over the lines in stream order: "how many
 * steps would this match jump over" is a range count.  Milestones another
 * bad stream reached do not count (eight bad ranks may share one good
 * stream, and the launcher's lines skip over the ranks'). */
struct pending {
	uint32_t *pos;      /* good line -> index in stream order (1-based) */
	uint32_t *line;     /* index in stream order (1-based) -> good line */
	uint32_t *start;    /* per stream: index of its first line */
	int32_t *tree;      /* over stream order */
	int32_t *all;       /* over line order, for ALIGN_ALL streams */
	uint8_t *done;
	size_t n;
};

static void tree_add(int32_t *tree, size_t n, size_t k, int32_t x)
{
	for (; k <= n; k += k & -k)
		tree[k] += x;
}

static int32_t tree_sum(const int32_t *tree, size_t k)
{
	int32_t x = 0;
	for (; k > 0; k -= k & -k)
		x += tree[k];
	return x;
}

static void pending_add(struct pending *p, size_t j, int32_t x)
{
	tree_add(p->tree, p->n, p->pos[j], x);
	tree_add(p->all, p->n, j + 1, x);
}

static void pending_init(struct pending *p, const struct dx_state *st, size_t g)
{
	size_t ng = st->logs[g].nlines, ns = st->nstreams;
	p->n = ng;
	p->pos = xmalloc((ng ? ng : 1) * sizeof(*p->pos));
	p->line = xmalloc((ng + 1) * sizeof(*p->line));
	p->start = xcalloc(ns + 1, sizeof(*p->start));
	p->tree = xcalloc(ng + 1, sizeof(*p->tree));
	p->all = xcalloc(ng + 1, sizeof(*p->all));
	p->done = xcalloc(ng ? ng : 1, 1);
	for (size_t j = 0; j < ng; j++)
		p->start[st->stream[g][j] + 1]++;
	for (size_t s = 0; s < ns; s++)
		p->start[s + 1] += p->start[s];
	uint32_t *fill = xmalloc((ns + 1) * sizeof(*fill));
	memcpy(fill, p->start, (ns + 1) * sizeof(*fill));
	for (size_t j = 0; j < ng; j++) {
		p->pos[j] = ++fill[st->stream[g][j]];
		p->line[p->pos[j]] = (uint32_t)j;
		if (st->step[st->id[g][j]])
			p->tree[p->pos[j]] = p->all[j + 1] = 1;
	}
	free(fill);
	/* Each node adds itself into its parent: the trees in one pass,
	 * where a tree_add per milestone would cost a walk of log n random
	 * accesses into arrays of millions of lines. */
	for (size_t k = 1; k <= ng; k++) {
		size_t up = k + (k & -k);
		if (up <= ng) {
			p->tree[up] += p->tree[k];
			p->all[up] += p->all[k];
		}
	}
}

/* Milestones not yet reached strictly between good lines last (-1: the
 * start) and j: in j's stream, or in all of good when all is set. */
static uint32_t pending_between(const struct pending *p, const struct dx_state *st, size_t g,
				int64_t last, uint32_t j, int all)
{
	if (all) {
		size_t from = last >= 0 ? (size_t)last + 1 : 0;
		return j <= from ? 0 : (uint32_t)(tree_sum(p->all, j) - tree_sum(p->all, from));
	}
	size_t from = last >= 0 ? p->pos[last] : p->start[st->stream[g][j]];
	if (p->pos[j] <= from + 1)
		return 0;
	return (uint32_t)(tree_sum(p->tree, p->pos[j] - 1) - tree_sum(p->tree, from));
}

static void pending_reach(struct pending *p, const struct dx_state *st, size_t g, uint32_t j)
{
	if (p->done[j] || !st->step[st->id[g][j]])
		return;
	p->done[j] = 1;
	pending_add(p, j, -1);
}

/* The smallest k with tree_sum(tree, k) >= x, or n + 1. */
static size_t tree_find(const int32_t *tree, size_t n, int32_t x)
{
	size_t k = 0, bit = 1;
	while (bit * 2 <= n)
		bit *= 2;
	for (; bit; bit /= 2)
		if (k + bit <= n && tree[k + bit] < x) {
			k += bit;
			x -= tree[k];
		}
	return k + 1;
}

/* The n-th (from 1) milestone not yet reached after good line last (-1:
 * the start), in stream s's order or in all of good when all is set: its
 * good line, or ALIGN_NONE. */
static uint32_t pending_nth(const struct pending *p, int64_t last, size_t s, uint32_t n, int all)
{
	if (all) {
		size_t from = last >= 0 ? (size_t)last + 1 : 0;
		size_t k = tree_find(p->all, p->n, tree_sum(p->all, from) + (int32_t)n);
		return k <= p->n ? (uint32_t)(k - 1) : ALIGN_NONE;
	}
	size_t from = last >= 0 ? p->pos[last] : p->start[s];
	size_t k = tree_find(p->tree, p->n, tree_sum(p->tree, from) + (int32_t)n);
	return k <= p->start[s + 1] ? p->line[k] : ALIGN_NONE;
}

static void pending_free(struct pending *p)
{
	free(p->pos);
	free(p->line);
	free(p->start);
	free(p->tree);
	free(p->all);
	free(p->done);
}

/* May bad's stream, at good line last (-1: nothing yet), go on to good
 * line j?  It may jump over SKIP_FREE pending milestones freely; over
 * more only when it printed about as many lines of its own meanwhile (a
 * reworded stretch) and no new error among them.  The first match of a
 * stream may skip the good run's start: bad may be an excerpt, or a build
 * with another preamble. */
static int follows(uint32_t skipped, int64_t last, uint32_t own, int err)
{
	if (skipped <= SKIP_FREE)
		return 1;
	return !err && (last < 0 || 2 * own >= skipped);
}

/* A jump over a few milestones is a build that lacks those steps (no
 * piecewise capture in an older SGLang) when bad then goes on step by step
 * with the good run: its next LOOKAHEAD matched lines in the stream each
 * follow the one before, with no new error among them.  A stalled run
 * killed later prints a shutdown sequence that matches too, but only
 * after jumping over most of the run, which JUMP_MAX keeps out. */
#define LOOKAHEAD 3
#define JUMP_MAX 8
#define LOOKAHEAD_LINES 200

static int steps_on(const struct dx_state *st, const struct following *w, const struct pending *p, size_t g,
		    size_t i, uint32_t j, int all)
{
	const struct log *bad = &st->logs[st->bad];
	uint16_t s = st->stream[st->bad][i];
	uint32_t prev = j;
	int n = 0;
	for (size_t k = i + 1; k < bad->nlines && k <= i + LOOKAHEAD_LINES && n < LOOKAHEAD; k++) {
		uint32_t c = st->id[st->bad][k];
		if (st->stream[st->bad][k] != s || st->hb[c])
			continue;
		if (st->new_error[c])
			return 0;
		uint32_t jj = w->b2g[k];
		if (jj == ALIGN_NONE)
			continue;
		if (jj <= prev || (!all && st->stream[g][jj] != st->stream[g][prev]) ||
		    pending_between(p, st, g, prev, jj, all) > SKIP_FREE)
			return 0;
		prev = jj;
		n++;
	}
	return n >= LOOKAHEAD;
}

/* Whether going from good line last to j leaps over more good lines (of
 * the stream, or of all of good) than bad printed of its own meanwhile. */
static int leaps(const struct pending *p, int64_t last, uint32_t j, uint32_t own, int all)
{
	if (last < 0 || (int64_t)j <= last)
		return 0;
	uint32_t gap = all ? j - (uint32_t)last - 1 : p->pos[j] - p->pos[last] - 1;
	return gap > own + SKIP_FREE;
}

/* The first good line after line last printing template c, when none of
 * c's good lines (as far as a look goes) is in good stream t: a step
 * another process of the good run takes.  ALIGN_NONE otherwise. */
static uint32_t foreign_step(const struct dx_state *st, size_t g, const uint32_t *firstof,
			     const uint32_t *nextsame, uint32_t c, uint32_t t, int64_t last)
{
	uint32_t found = ALIGN_NONE;
	int steps = 0;
	for (uint32_t k = firstof[c]; k != ALIGN_NONE; k = nextsame[k]) {
		if (st->stream[g][k] == t || steps++ == 64)
			return ALIGN_NONE;
		if (found == ALIGN_NONE && (int64_t)k > last)
			found = k;
	}
	return found;
}

/* Whether going from good line since to j passes over good line gend,
 * not yet reached, in j's stream or in all of good. */
static int passes_end(const struct dx_state *st, const struct pending *p, size_t g, int64_t gend, int64_t since,
		      uint32_t j, int all)
{
	return gend >= 0 && since < gend && gend < (int64_t)j && !p->done[gend] &&
	       (all || st->stream[g][gend] == st->stream[g][j]);
}

/* Bad's lines by template: does a stream print a template from some line
 * on? */
struct bad_index {
	uint32_t *lastof;   /* per template: bad's last line, or ALIGN_NONE */
	uint32_t *prevsame; /* per bad line: the previous line of its template */
	uint32_t *errs;     /* errs[i]: new errors on bad's lines before i */
};

static void bad_index_init(struct bad_index *bx, const struct dx_state *st)
{
	size_t nb = st->logs[st->bad].nlines;
	bx->lastof = xmalloc((st->nc ? st->nc : 1) * sizeof(*bx->lastof));
	bx->prevsame = xmalloc((nb ? nb : 1) * sizeof(*bx->prevsame));
	bx->errs = xmalloc((nb + 1) * sizeof(*bx->errs));
	for (size_t c = 0; c < st->nc; c++)
		bx->lastof[c] = ALIGN_NONE;
	bx->errs[0] = 0;
	for (size_t i = 0; i < nb; i++) {
		uint32_t c = st->id[st->bad][i];
		bx->prevsame[i] = bx->lastof[c];
		bx->lastof[c] = (uint32_t)i;
		bx->errs[i + 1] = bx->errs[i] + st->new_error[c];
	}
}

static void bad_index_free(struct bad_index *bx)
{
	free(bx->lastof);
	free(bx->prevsame);
	free(bx->errs);
}

/* The first line from line i on where bad's stream s prints template c;
 * ALIGN_NONE when it does not, or prints it too often to look. */
static uint32_t bad_next(const struct dx_state *st, const struct bad_index *bx, uint32_t c, size_t i,
			 uint16_t s)
{
	uint32_t found = ALIGN_NONE;
	int steps = 0;
	for (uint32_t k = bx->lastof[c]; k != ALIGN_NONE && k >= i; k = bx->prevsame[k]) {
		if (steps++ == 64)
			return ALIGN_NONE;
		if (st->stream[st->bad][k] == s)
			found = k;
	}
	return found;
}

/* Pending milestones a jump looks at, at most. */
#define SKIP_LOOK 16

/* Whether bad's line i, matched with good line j after good line since
 * (in j's stream, or in all of good), jumps over a step bad is yet to
 * take: a pending milestone that the good run prints again from j on,
 * and that bad's stream prints from line i on, before any new error.
 * Bad's coming copy would match the good run's later one and leave the
 * first unreached for good: vLLM compiles its backbone, then its draft
 * head; a run that compiles the backbone where the good run loaded it
 * from cache prints what the good run printed compiling the head, but its
 * "torch.compile took" is the backbone's.  The earliest match that keeps
 * the counts is the right one. */
static int jumps_coming_step(const struct dx_state *st, const struct pending *p, const struct bad_index *bx,
			     size_t g, const uint32_t *nextsame, size_t i, int64_t since, uint32_t j, int all)
{
	uint16_t s = st->stream[st->bad][i];
	size_t gs = st->stream[g][j];
	if (!all && since >= 0 && st->stream[g][since] != gs)
		return 0;
	for (uint32_t n = 1; n <= SKIP_LOOK; n++) {
		uint32_t k = pending_nth(p, since, gs, n, all);
		if (k == ALIGN_NONE || k >= j)
			return 0;
		uint32_t again = nextsame[k];
		for (int steps = 0; again != ALIGN_NONE && (again < j || (!all && st->stream[g][again] != gs));
		     steps++)
			again = steps < 64 ? nextsame[again] : ALIGN_NONE;
		if (again == ALIGN_NONE)
			continue;
		uint32_t b = bad_next(st, bx, st->id[g][k], i, s);
		if (b != ALIGN_NONE && bx->errs[b] == bx->errs[i])
			return 1;
	}
	return 0;
}

void follow_good_run(struct dx_state *st, size_t g, struct following *w)
{
	const struct log *bad = &st->logs[st->bad], *good = &st->logs[g];
	size_t nb = bad->nlines, ng = good->nlines, ns = st->nstreams;
	uint32_t *smap = xmalloc(ns * sizeof(*smap));
	/* Only bad's last attempt is aligned; earlier ones follow nothing. */
	size_t from = st->from;
	struct align_log a = { st->id[st->bad] + from, st->stream[st->bad] + from, nb - from, ns };
	struct align_log b = { st->id[g], st->stream[g], ng, ns };
	streams_map(&a, &b, st->has + g * ns, st->cnt + g * st->nc, st->nc, st->snames, smap);
	w->b2g = xmalloc((nb ? nb : 1) * sizeof(*w->b2g));
	w->follow = xcalloc(nb ? nb : 1, 1);
	w->steady = xcalloc(nb ? nb : 1, 1);
	for (size_t i = 0; i < from; i++)
		w->b2g[i] = ALIGN_NONE;
	align_logs(&a, &b, smap, st->weight, w->b2g + from);
	struct pending pend;
	pending_init(&pend, st, g);
	struct bad_index bx;
	bad_index_init(&bx, st);
	/* Per bad stream: the last good line followed, and what bad printed
	 * since that was not matched. */
	int64_t *lastg = xmalloc(ns * sizeof(*lastg)), *lastb = xmalloc(ns * sizeof(*lastb));
	int64_t *prevg = xmalloc(ns * sizeof(*prevg));  /* lastg before its last move */
	int64_t lasterr = -1;   /* bad's last new error line not followed */
	/* Per good stream, and in all of good: the furthest good line any
	 * bad stream followed. */
	int64_t *far = xmalloc(ns * sizeof(*far)), farall = -1;
	uint32_t *own = xcalloc(ns, sizeof(*own));
	uint8_t *err = xcalloc(ns, 1);
	for (size_t s = 0; s < ns; s++)
		lastg[s] = lastb[s] = prevg[s] = far[s] = -1;
	/* nextsame[j]: the next good line with line j's template. */
	uint32_t *nextsame = xmalloc((ng ? ng : 1) * sizeof(*nextsame));
	uint32_t *firstof = xmalloc((st->nc ? st->nc : 1) * sizeof(*firstof));
	uint8_t *reached = xcalloc(st->nc ? st->nc : 1, 1);
	for (size_t c = 0; c < st->nc; c++)
		firstof[c] = ALIGN_NONE;
	for (size_t j = ng; j-- > 0;) {
		nextsame[j] = firstof[st->id[g][j]];
		firstof[st->id[g][j]] = (uint32_t)j;
	}
	/* The good run's last step: its last milestone that is no warning
	 * and no continuation line.  What it printed after that (a
	 * resource_tracker warning at exit, cleanup) is its tail. */
	int64_t gend = -1;
	for (size_t j = ng; j-- > 0 && gend < 0;) {
		uint32_t c = st->id[g][j];
		if (st->step[c] && st->sev[c] == DX_INFO && !isspace((unsigned char)st->ctext[c][0]))
			gend = (int64_t)j;
	}
	w->score = 0;
	w->last = DX_NONE;
	const uint32_t *id = st->id[st->bad];
	/* A job that says it failed (its rules' fail milestone: a CI step's
	 * error) is over: the runner's cleanup after it matches the good
	 * run's and is no progress. */
	size_t end = nb;
	for (size_t i = from; i < end; i++)
		if (st->rule[id[i]] >= 0 && st->rs->r[st->rule[id[i]]].fail)
			end = i + 1;
	for (size_t i = from; i < end; i++) {
		uint16_t s = st->stream[st->bad][i];
		uint32_t c = id[i];
		uint32_t j = w->b2g[i], skipped = 0;
		int all = smap[s] == ALIGN_ALL;
		/* A stream that went on in another good stream (below) is
		 * judged in good's line order, as one aligned with all. */
		int order = all || (lastg[s] >= 0 && st->stream[g][lastg[s]] != smap[s]);
		int ok = j != ALIGN_NONE && (order || lastg[s] < 0 || st->stream[g][lastg[s]] == st->stream[g][j]);
		if (st->hb[c]) {
			/* A beat says nothing of progress, except where the good
			 * run beats too, and bad gets there in order: a run that
			 * waits ("Waiting for shard to be ready...") is in the
			 * step the good run waited in.  Only when it goes on
			 * from where this stream was, over nothing the good run
			 * did meanwhile, and not after a new error (polls of a
			 * dead server match the polls of a loading one).  A
			 * beat a rule names a step ("step=N" every few steps) is
			 * known by its template, which one beat would mark
			 * reached for the whole run. */
			if (!ok || st->ms[c] || lastg[s] < 0 || (int64_t)j <= lastg[s] || lasterr > lastb[s] ||
			    pending_between(&pend, st, g, lastg[s], j, order) ||
			    leaps(&pend, lastg[s], j, own[s], order))
				continue;
			w->follow[i] = w->steady[i] = 1;
			w->last = (int64_t)i;
			prevg[s] = lastg[s];
			lastg[s] = j;
			lastb[s] = (int64_t)i;
			continue;
		}
		if (ok) {
			/* The steps this stream missed that another bad
			 * stream has gone past, in j's good stream, were
			 * judged when that one went past them: a line the
			 * launcher prints late (an untagged progress bar)
			 * counts only what no bad stream got to. */
			int64_t f = order ? farall : far[st->stream[g][j]];
			int64_t since = lastg[s] >= 0 && f > lastg[s] && f < (int64_t)j ? f : lastg[s];
			skipped = pending_between(&pend, st, g, since, j, order);
			ok = follows(skipped, lastg[s], own[s], err[s]) ||
			     (!err[s] && skipped <= JUMP_MAX && steps_on(st, w, &pend, g, i, j, order));
			/* A jump over the good run's last step lands in its
			 * tail, which a run that stopped short prints too: it
			 * follows only when bad goes on from there step by step. */
			if (ok && passes_end(st, &pend, g, gend, since, j, order))
				ok = !err[s] && steps_on(st, w, &pend, g, i, j, order);
			if (ok && skipped && jumps_coming_step(st, &pend, &bx, g, nextsame, i, since, j, order))
				ok = 0;
			/* A warning or an error the good run printed too is the
			 * same trouble, not the same progress: it goes on from
			 * where this stream was, over no step. */
			if (ok && skipped && st->clevel[c] >= LV_WARN)
				ok = 0;
			/* After a new error anywhere since this stream last
			 * followed, a leap ahead is the dying run's teardown
			 * matching the good run's (closing plugins, destroying
			 * comms, "Shutdown complete" without "ready"): it
			 * follows only by the lines it skipped and over no step,
			 * or when bad goes on from there step by step. */
			if (ok && lasterr > lastb[s])
				ok = (!skipped && !leaps(&pend, lastg[s], j, own[s], order)) ||
				     steps_on(st, w, &pend, g, i, j, order);
		}
		if (!ok) {
			/* The aligner may have matched this line further on (a
			 * look-alike after steps bad never took); the same step
			 * right after where bad is in the good run follows. */
			uint32_t k = firstof[c];
			for (int steps = 0; k != ALIGN_NONE &&
			     ((int64_t)k <= lastg[s] || (!all && st->stream[g][k] != smap[s])); steps++)
				k = steps < 64 ? nextsame[k] : ALIGN_NONE;
			/* A step the good run's counterpart of this stream never
			 * prints, another of its processes does: vLLM's
			 * EngineCore sizes the KV cache in both runs, but the
			 * rest of a one-process EngineCore's lines are a TP
			 * worker's in a TP4 run, and the map chose the worker. */
			if (k == ALIGN_NONE && !all && lastg[s] >= 0 && !err[s] && lasterr <= lastb[s]) {
				k = foreign_step(st, g, firstof, nextsame, c, smap[s], lastg[s]);
				if (k != ALIGN_NONE &&
				    pending_between(&pend, st, g, far[st->stream[g][k]], k, 0) > SKIP_FREE)
					k = ALIGN_NONE;
			}
			uint32_t pk = k != ALIGN_NONE ? pending_between(&pend, st, g, lastg[s], k, order) : 0;
			if (k != ALIGN_NONE && (lastg[s] >= 0 || !err[s]) && pk <= (st->clevel[c] >= LV_WARN ? 0 : SKIP_FREE) &&
			    !(pk && passes_end(st, &pend, g, gend, lastg[s], k, order)) &&
			    !(pk && jumps_coming_step(st, &pend, &bx, g, nextsame, i, lastg[s], k, order)) &&
			    (lasterr <= lastb[s] || (!pending_between(&pend, st, g, lastg[s], k, order) &&
						     !leaps(&pend, lastg[s], k, own[s], order)))) {
				j = k;
				w->b2g[i] = k;
			} else {
				own[s]++;
				if (st->new_error[c])
					err[s] = 1, lasterr = (int64_t)i;
				continue;
			}
		}
		/* A line the good run printed between where this stream was
		 * and where its last match took it, over a few lines only:
		 * bad printed a block of steps in another order (containers
		 * created in parallel, "Creating mariadb" before "Creating
		 * nginx").  The stream stays at the furthest step; the line
		 * is no progress past it.  After a leap over more, the leap
		 * was the mistake (a look-alike further on) and the line
		 * says where the stream is. */
		if (prevg[s] >= 0 && (int64_t)j < lastg[s] && (int64_t)j > prevg[s] &&
		    !leaps(&pend, prevg[s], (uint32_t)lastg[s], 0, order))
			continue;
		if ((int64_t)j != lastg[s])
			prevg[s] = lastg[s];
		w->follow[i] = 1;
		w->steady[i] = lastg[s] >= 0 && !leaps(&pend, lastg[s], j, own[s], order);
		w->score++;
		w->last = (int64_t)i;
		lastg[s] = j;
		lastb[s] = (int64_t)i;
		if ((int64_t)j > far[st->stream[g][j]])
			far[st->stream[g][j]] = j;
		if ((int64_t)j > farall)
			farall = j;
		own[s] = 0;
		err[s] = 0;
		if (all && st->step[c] && !reached[c]) {
			/* One bad stream stands for every rank of good: the
			 * step is reached on all of them, once and for all (a
			 * step repeated on every line of both logs would
			 * otherwise cost their product). */
			reached[c] = 1;
			for (uint32_t k = firstof[c]; k != ALIGN_NONE; k = nextsame[k])
				pending_reach(&pend, st, g, k);
		}
		pending_reach(&pend, st, g, j);
	}
	free(nextsame);
	free(firstof);
	free(reached);
	free(smap);
	pending_free(&pend);
	bad_index_free(&bx);
	free(lastg);
	free(prevg);
	free(lastb);
	free(far);
	free(own);
	free(err);
}
