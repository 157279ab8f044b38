/* diagnose_follow.c — the follow pass: which lines of the bad log follow
 * each good run (see diagnose_passes.h).  Bad is aligned with the good
 * log stream by stream, then a walk over bad's lines keeps the matches
 * that do not jump over the good run's pending milestones, so that a
 * crashed run's shutdown lines, which match the good run's, do not pass
 * for progress.  Each test a match must pass is a rule of its own below
 * ("the walk's rules"); follow_good_run is the walk that applies them. */
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

/* A match may jump over this many good milestones without more ado. */
#define SKIP_FREE 2

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

/* The first line from line i on where bad's stream s prints template c,
 * as the text tid if that is not ALIGN_NONE; ALIGN_NONE when it does
 * not, or prints c too often to look. */
static uint32_t bad_next(const struct dx_state *st, const struct bad_index *bx, uint32_t c, uint32_t tid,
			 size_t i, uint16_t s)
{
	uint32_t found = ALIGN_NONE;
	int steps = 0;
	for (uint32_t k = bx->lastof[c]; k != ALIGN_NONE && k >= i; k = bx->prevsame[k]) {
		if (steps++ == 64)
			return ALIGN_NONE;
		if (st->stream[st->bad][k] == s && (tid == ALIGN_NONE || st->logs[st->bad].tid[k] == tid))
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
 * the counts is the right one.  A step whose printings name what they
 * are of (ZenML's "Step trainer has started.", "Step evaluator has
 * started.": texts that differ) has a copy only in a line that names
 * the same: bad's "Step evaluator has started." takes no step of the
 * trainer's that bad's build never ran. */
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
		const uint32_t *tid = st->logs[g].tid;
		uint32_t again = nextsame[k];
		int named = 0;
		for (int steps = 0; again != ALIGN_NONE; steps++) {
			named |= tid[again] != tid[k];
			if (again >= j && (all || st->stream[g][again] == gs))
				break;
			again = steps < 64 ? nextsame[again] : ALIGN_NONE;
		}
		if (again == ALIGN_NONE)
			continue;
		uint32_t b = bad_next(st, bx, st->id[g][k], named ? tid[k] : ALIGN_NONE, i, s);
		if (b != ALIGN_NONE && bx->errs[b] == bx->errs[i])
			return 1;
	}
	return 0;
}

/* ---- the walk ---- */

/* Where the walk over bad's lines stands against good log g. */
struct walk {
	const struct dx_state *st;
	size_t g;
	struct following *w;
	struct pending pend;
	struct bad_index bx;
	uint32_t *smap;         /* bad stream -> good stream (streams_map) */
	uint32_t *nextsame;     /* good line -> the next good line of its template */
	uint32_t *firstof;      /* template -> its first good line */
	uint8_t *reached;       /* template: a step reached on every rank of good */
	int64_t gend;           /* the good run's last step (good_last_step) */
	int64_t gnamed;         /* its last step a rule names, where rules
				 * name the steps (st->steps_named); else -1 */
	int64_t msend;          /* ... and its last milestone */
	/* Per bad stream: the last good line followed, lastg before its last
	 * move, the bad line that followed it, and what bad printed since
	 * that was not matched (a new error among it). */
	int64_t *lastg, *prevg, *lastb;
	uint32_t *own;
	uint8_t *err;
	int64_t lasterr;        /* bad's last new error line not followed */
	/* Per good stream, and in all of good: the furthest good line any
	 * bad stream followed. */
	int64_t *far, farall;
};

/* Bad's line the walk is at: line i of stream s, template c, which the
 * aligner (or a re-match) put at good line j. */
struct match {
	size_t i;
	uint16_t s;
	uint32_t c, j;
	int all;     /* s is aligned with all of good (ALIGN_ALL) */
	int order;   /* s is judged in good's line order */
};

/* ---- the walk's rules ---- */

/* The template of the bar frame on good log g's line j: its own text's,
 * else the one in front of it; ALIGN_NONE for a line without one. */
static uint32_t bar_of(const struct dx_state *st, size_t g, size_t j)
{
	if (st->is_bar[st->id[g][j]])
		return st->id[g][j];
	return st->bar[g] ? st->bar[g][j] : ALIGN_NONE;
}

/* Whether bad's stream, at good line since, printed all the good run did
 * before good line j: j is the next line of its good stream after since
 * (looking back 256 lines at most), and bad printed since's template as
 * often as the good run did (else bad may be in an earlier round of a
 * loop the aligner mapped last to last). */
static int caught_up(const struct walk *k, int64_t since, uint32_t j)
{
	const struct dx_state *st = k->st;
	uint16_t gs = st->stream[k->g][j];
	if (since < 0 || (int64_t)j - since > 256)
		return 0;
	for (int64_t x = (int64_t)j - 1; x > since; x--)
		if (st->stream[k->g][x] == gs)
			return 0;
	uint32_t c = st->id[k->g][since];
	return st->cnt[st->bad * st->nc + c] >= st->cnt[k->g * st->nc + c];
}

/* A progress bar's frame follows the good run only at a frame of the
 * good run's bar that counts no further than bad's: a run that crashed
 * at step 17 of its loop reached the good run's step 17, not whatever
 * frame (step 23) the aligner paired with its last one.  Frames are
 * compared by their position, whatever their totals (a debug run of 300
 * steps and a full one of 485,461 count their steps alike).  A frame
 * ahead follows where bad caught up with the good run before it
 * (caught_up): the good log kept no frame that bad's could stop at (a
 * copy that kept only the last of a stretch's carriage-return frames,
 * "0%" as the loop began and then "100%"), and bad is in the stretch
 * that ends there. */
static int bar_ahead(const struct walk *k, const struct match *m, uint32_t j)
{
	const struct dx_state *st = k->st;
	uint64_t pos, gpos, total;
	return st->is_bar[m->c] && bar_of(st, k->g, j) == m->c && !caught_up(k, k->lastg[m->s], j) &&
	       dx_bar_count(st, st->bad, m->i, m->c, &pos, &total) &&
	       dx_bar_count(st, k->g, j, m->c, &gpos, &total) && gpos > pos;
}

/* A heartbeat follows the good run only where the good run beats too and
 * bad gets there in order, from where its stream was, over nothing the
 * good run did meanwhile: a run that waits ("Waiting for shard to be
 * ready...") is in the step the good run waited in, while a beat says
 * nothing of progress past it.  Never after a new error (polls of a dead
 * server match the polls of a loading one).  A beat a rule names a step
 * ("step=N" every few steps) is known by its template, which one beat
 * would mark reached for the whole run: it never follows as a beat.
 * ok: the aligner's match may be judged at all (walk_match). */
static int beat_follows(const struct walk *k, const struct match *m, int ok)
{
	int64_t last = k->lastg[m->s];
	if (!ok || k->st->ms[m->c] || last < 0 || (int64_t)m->j <= last || k->lasterr > k->lastb[m->s])
		return 0;
	return !pending_between(&k->pend, k->st, k->g, last, m->j, m->order) &&
	       !leaps(&k->pend, last, m->j, k->own[m->s], m->order);
}

/* A match that jumps over pending milestones follows when the jump is
 * free (follows: a few, or a reworded stretch), or when it is a build
 * that lacks up to JUMP_MAX of the good run's steps and bad then goes on
 * step by step (steps_on), with no new error since its stream last
 * followed. */
static int jump_follows(const struct walk *k, const struct match *m, uint32_t skipped)
{
	int err = k->err[m->s];
	return follows(skipped, k->lastg[m->s], k->own[m->s], err) ||
	       (!err && skipped <= JUMP_MAX && steps_on(k->st, k->w, &k->pend, k->g, m->i, m->j, m->order));
}

/* Whether the pending steps a jump from good line since to m->j passes
 * over are all printings of since's own template, within REPEAT_SPAN
 * lines: the good run printed the step bad is at once more (a second
 * connector, a second shard), which is the same step done, not one to
 * come. */
#define REPEAT_SPAN 64

static int repeats_only(const struct walk *k, const struct match *m, int64_t since)
{
	const struct dx_state *st = k->st;
	if (since < 0 || m->j - since > REPEAT_SPAN)
		return 0;
	uint32_t at = st->id[k->g][since];
	for (uint32_t x = (uint32_t)since + 1; x < m->j; x++) {
		if (!m->order && st->stream[k->g][x] != st->stream[k->g][m->j])
			continue;
		if (st->step[st->id[k->g][x]] && !k->pend.done[x] && st->id[k->g][x] != at)
			return 0;
	}
	return 1;
}

/* Whether going from good line since to j passes over the good run's
 * last step, or its last one a rule names (see end_jump_follows). */
static int passes_an_end(const struct walk *k, int64_t since, uint32_t j, int all)
{
	return passes_end(k->st, &k->pend, k->g, k->gend, since, j, all) ||
	       passes_end(k->st, &k->pend, k->g, k->gnamed, since, j, all);
}

/* A jump over the good run's last step lands in its tail, which a run
 * that stopped short prints too: it follows only when bad goes on from
 * there step by step, with no new error since its stream last followed,
 * or when the last step is a repeat of the one bad is at (repeats_only).
 * Where the rules name the steps, the last one they name is such an end
 * too, though steps told apart by a value come after it: what follows
 * it is the run's tail as they see it (a server that prints its log
 * folders once started prints them when it fails to start as well).
 * since: where the jump starts (walk_since). */
static int end_jump_follows(const struct walk *k, const struct match *m, int64_t since)
{
	if (!passes_an_end(k, since, m->j, m->order) || repeats_only(k, m, since))
		return 1;
	return !k->err[m->s] && steps_on(k->st, k->w, &k->pend, k->g, m->i, m->j, m->order);
}

/* A warning or an error the good run printed too is the same trouble,
 * not the same progress: it follows only from where its stream was, over
 * no step.  skipped: the pending milestones the match jumps over. */
static int trouble_jumps(const struct walk *k, const struct match *m, uint32_t skipped)
{
	return skipped && k->st->clevel[m->c] >= LV_WARN;
}

/* Whether word w (n bytes) is the wildcard a template puts where its
 * lines printed different words ("<*> success [<dur>]" of a results
 * table's "api-test... success [10m 28s]" lines). */
static int is_wild(const char *w, size_t n)
{
	return n == 3 && memcmp(w, "<*>", 3) == 0;
}

/* Whether templates a and b read alike but for one word, the outcome
 * one says and the other does not: "FAIL  tests/x.test.js" where the
 * good run printed "PASS  tests/x.test.js", "--- FAIL: TestX" for "---
 * PASS: TestX", "token-test... FAILURE [<dur>]" for "<*> success
 * [<dur>]" (a wildcard stands for any word of the other).  The words
 * compared are split at blanks; the one that differs has a letter on
 * both sides, and a word that is no placeholder is the same on both, so
 * that "Error <int>" is no "Loading <int>".  One of them may say one
 * word more, the way it failed: "Timeout! sbrkmuch: FAIL (<dur>)" for
 * "sbrkmuch: OK (<dur>)".  skip, when set, is that word of a or of b,
 * passed over. */
static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

static int alike_but_outcome(const char *a, const char *b, const char *skip)
{
	int differ = 0, shared = 0;
	for (;;) {
		while (*a == ' ' || *a == '\t')
			a++;
		while (*b == ' ' || *b == '\t')
			b++;
		size_t na = strcspn(a, " \t"), nb = strcspn(b, " \t");
		if (a == skip || b == skip) {
			a += a == skip ? na : 0;
			b += b == skip ? nb : 0;
			continue;
		}
		if (!*a || !*b)
			return !*a && !*b && differ == 1 && shared;
		if (na == nb && memcmp(a, b, na) == 0) {
			shared |= *a != '<' && strcspn(a, letters) < na;
		} else if (is_wild(a, na) || is_wild(b, nb)) {
			; /* a value the other run printed there */
		} else {
			if (++differ > 1 || strcspn(a, letters) >= na || strcspn(b, letters) >= nb)
				return 0;
		}
		a += na;
		b += nb;
	}
}

static size_t count_words(const char *s)
{
	size_t n = 0;
	for (;;) {
		s += strspn(s, " \t");
		if (!*s)
			return n;
		n++;
		s += strcspn(s, " \t");
	}
}

/* The word more of longer, where it has one more than shorter: each
 * one of its words with a letter that is no placeholder, tried. */
static int one_more_word(const char *longer, const char *shorter, int a_longer)
{
	for (const char *w = longer + strspn(longer, " \t"); *w; w += strspn(w, " \t")) {
		size_t n = strcspn(w, " \t");
		if (*w != '<' && strcspn(w, letters) < n &&
		    (a_longer ? alike_but_outcome(longer, shorter, w) : alike_but_outcome(shorter, longer, w)))
			return 1;
		w += n;
	}
	return 0;
}

static int one_word_apart(const char *a, const char *b)
{
	if (alike_but_outcome(a, b, NULL))
		return 1;
	size_t wa = count_words(a), wb = count_words(b);
	return wa == wb + 1 ? one_more_word(a, b, 1) : wb == wa + 1 ? one_more_word(b, a, 0) : 0;
}

/* Whether bad's stream goes on with the good run after line m->i: the
 * aligner matched LOOKAHEAD more of its lines within LOOKAHEAD_LINES.  A
 * dying run's teardown is the last it prints. */
static int aligned_after(const struct walk *k, const struct match *m)
{
	const struct dx_state *st = k->st;
	size_t n = st->logs[st->bad].nlines, found = 0;
	for (size_t i = m->i + 1; i < n && i <= m->i + LOOKAHEAD_LINES && found < LOOKAHEAD; i++)
		found += st->stream[st->bad][i] == m->s && k->w->b2g[i] != ALIGN_NONE;
	return found >= LOOKAHEAD;
}

/* How many of the good run's milestones a match of m to good line to
 * jumps over from good line since, in its stream (or in all of good): every learned
 * milestone counts, not only the steps a rule names, for after an error
 * whatever the good run did once and bad did not is progress it never
 * made (MySQL's "InnoDB initialization has started" before the
 * "Initialization - end" an aborting server prints too).  A milestone
 * bad did with another outcome is no milestone skipped: a new error in
 * bad's stream since it last followed took its place, reading as it
 * but for one word (one_word_apart), as a failed suite's "FAIL" header
 * takes the place of "PASS".  A match at a line the good run printed
 * more than once (a unit of work done) or at its last milestone ("Prompt
 * executed") is the job gone on to its end (a failed request, and the
 * next one served), a first match may skip the good run's start (a
 * build with another preamble), and a run whose lines go on matching
 * the good run's after it (aligned_after) went on past its error ("...
 * Proceeding"): there only the steps count, as everywhere without an
 * error.
 * Looks at the last 64 lines of the stream's own; a jump over more than
 * 256 good lines skips many. */
static uint32_t teardown_skipped(const struct walk *k, const struct match *m, int64_t since, uint32_t to)
{
	const struct dx_state *st = k->st;
	const uint32_t *gid = st->id[k->g];
	size_t j0 = since >= 0 ? (size_t)since + 1 : 0;
	if (to > j0 + 256)
		return 256;
	size_t from = k->lastb[m->s] >= 0 ? (size_t)k->lastb[m->s] + 1 : 0;
	if (m->i - from > 64)
		from = m->i - 64;
	int strict = since >= 0 && st->ms[gid[to]] && (int64_t)to < k->msend && !aligned_after(k, m);
	uint32_t n = 0;
	for (size_t j = j0; j < to; j++) {
		if ((!m->order && st->stream[k->g][j] != st->stream[k->g][to]) ||
		    !(strict ? st->ms : st->step)[gid[j]] || is_blank(st->ctext[gid[j]]))
			continue;
		int other = 0;
		for (size_t i = from; i < m->i && !other; i++) {
			uint32_t c = st->id[st->bad][i];
			other = st->stream[st->bad][i] == m->s && st->new_error[c] &&
				one_word_apart(st->ctext[c], st->ctext[gid[j]]);
		}
		n += !other;
	}
	return n;
}

/* After a new error anywhere since this stream last followed, a leap
 * ahead is the dying run's teardown matching the good run's (closing
 * plugins, destroying comms, "Shutdown complete" without "ready"): it
 * follows only by the lines it skipped and over no step, or when bad
 * goes on from there step by step (see teardown_skipped).  Errors
 * before bad followed the good run at all came before its run began (a
 * shell's "ls: cannot access ..." in a terminal's transcript, a
 * supervisor's report of the attempt before): what follows first is
 * the run's start, no teardown.  A leap from there over the good run's
 * last step is still judged (end_jump_follows). */
static int teardown_follows(const struct walk *k, const struct match *m, int64_t since)
{
	if (k->lasterr <= k->lastb[m->s] || k->w->last == DX_NONE)
		return 1;
	return (!teardown_skipped(k, m, since, m->j) &&
		!leaps(&k->pend, k->lastg[m->s], m->j, k->own[m->s], m->order)) ||
	       steps_on(k->st, k->w, &k->pend, k->g, m->i, m->j, m->order);
}

/* Where a jump to m's good line starts: where its stream was, or further
 * on where another bad stream has gone past the steps this one missed in
 * j's good stream.  Those were judged when that stream went past them: a
 * line the launcher prints late (an untagged progress bar) counts only
 * what no bad stream got to. */
static int64_t walk_since(const struct walk *k, const struct match *m)
{
	int64_t last = k->lastg[m->s];
	int64_t f = m->order ? k->farall : k->far[k->st->stream[k->g][m->j]];
	return last >= 0 && f > last && f < (int64_t)m->j ? f : last;
}

/* Whether the aligner's match of m follows the good run: every rule a
 * jump ahead must pass. */
static int match_follows(const struct walk *k, const struct match *m)
{
	int64_t since = walk_since(k, m);
	uint32_t skipped = pending_between(&k->pend, k->st, k->g, since, m->j, m->order);
	if (!jump_follows(k, m, skipped) || !end_jump_follows(k, m, since))
		return 0;
	if (skipped && jumps_coming_step(k->st, &k->pend, &k->bx, k->g, k->nextsame, m->i, since, m->j, m->order))
		return 0;
	if (trouble_jumps(k, m, skipped) || bar_ahead(k, m, m->j))
		return 0;
	return teardown_follows(k, m, since);
}

/* The aligner may have matched a line further on (a look-alike after
 * steps bad never took): the same step right after where bad's stream is
 * in the good run, in its good stream unless it is aligned with all of
 * good.  Its good line, or ALIGN_NONE; looks at 64 at most. */
static uint32_t lookalike(const struct walk *k, const struct match *m)
{
	const struct dx_state *st = k->st;
	uint32_t j = k->firstof[m->c];
	for (int steps = 0; j != ALIGN_NONE; steps++) {
		if ((int64_t)j > k->lastg[m->s] && (m->all || st->stream[k->g][j] == k->smap[m->s]))
			break;
		j = steps < 64 ? k->nextsame[j] : ALIGN_NONE;
	}
	return j;
}

/* A step the good run's counterpart of this stream never prints, another
 * of its processes does: vLLM's EngineCore sizes the KV cache in both
 * runs, but the rest of a one-process EngineCore's lines are a TP
 * worker's in a TP4 run, and the map chose the worker.  Only for a
 * stream that followed already, with no new error since, and over no
 * more than SKIP_FREE steps that the other process has yet to take.  Its
 * good line, or ALIGN_NONE. */
static uint32_t foreign_match(const struct walk *k, const struct match *m)
{
	const struct dx_state *st = k->st;
	int64_t last = k->lastg[m->s];
	if (m->all || last < 0 || k->err[m->s] || k->lasterr > k->lastb[m->s])
		return ALIGN_NONE;
	uint32_t j = foreign_step(st, k->g, k->firstof, k->nextsame, m->c, k->smap[m->s], last);
	if (j != ALIGN_NONE && pending_between(&k->pend, st, k->g, k->far[st->stream[k->g][j]], j, 0) > SKIP_FREE)
		return ALIGN_NONE;
	return j;
}

/* A re-match (lookalike, foreign_match) at good line j follows on the
 * terms of a match, but stricter, for it is a guess: from a stream that
 * followed already or has no new error; over SKIP_FREE pending steps at
 * most, none for a warning; not past the good run's end nor over a step
 * bad is yet to take; and after a new error, over no step and no leap. */
static int rematch_follows(const struct walk *k, const struct match *m, uint32_t j)
{
	const struct dx_state *st = k->st;
	int64_t last = k->lastg[m->s];
	uint32_t pk = pending_between(&k->pend, st, k->g, last, j, m->order);
	if (last < 0 && k->err[m->s])
		return 0;
	if (pk > (st->clevel[m->c] >= LV_WARN ? 0 : SKIP_FREE))
		return 0;
	if (pk && passes_an_end(k, last, j, m->order))
		return 0;
	if ((pk && jumps_coming_step(st, &k->pend, &k->bx, k->g, k->nextsame, m->i, last, j, m->order)) ||
	    bar_ahead(k, m, j))
		return 0;
	return k->lasterr <= k->lastb[m->s] ||
	       (!teardown_skipped(k, m, last, j) && !leaps(&k->pend, last, j, k->own[m->s], m->order));
}

/* The good line a line the aligner's match did not carry follows after
 * all (see lookalike, foreign_match, rematch_follows), or ALIGN_NONE. */
static uint32_t rematch(const struct walk *k, const struct match *m)
{
	uint32_t j = lookalike(k, m);
	if (j == ALIGN_NONE)
		j = foreign_match(k, m);
	return j != ALIGN_NONE && rematch_follows(k, m, j) ? j : ALIGN_NONE;
}

/* A line the good run printed between where this stream was and where
 * its last match took it, over a few lines only: bad printed a block of
 * steps in another order (containers created in parallel, "Creating
 * mariadb" before "Creating nginx").  The stream stays at the furthest
 * step; the line is no progress past it.  After a leap over more, the
 * leap was the mistake (a look-alike further on) and the line says where
 * the stream is. */
static int reordered(const struct walk *k, const struct match *m)
{
	int64_t prev = k->prevg[m->s], last = k->lastg[m->s];
	return prev >= 0 && (int64_t)m->j < last && (int64_t)m->j > prev &&
	       !leaps(&k->pend, prev, (uint32_t)last, 0, m->order);
}

/* ---- the walk's moves ---- */

/* The good run's last step: its last line of a template that is[] marks
 * (st->step: a step; st->ms: any milestone; NULL: one a rule names) and
 * that is no warning and no continuation line.  What it printed after
 * that (a resource_tracker warning at exit, cleanup) is its tail.  -1 for
 * none. */
static int64_t good_last_step(const struct dx_state *st, size_t g, const uint8_t *is)
{
	for (size_t j = st->logs[g].nlines; j-- > 0;) {
		uint32_t c = st->id[g][j];
		if ((is ? is[c] : st->rule[c] >= 0) && st->sev[c] == DX_INFO &&
		    !isspace((unsigned char)st->ctext[c][0]))
			return (int64_t)j;
	}
	return -1;
}

/* Where the walk ends: a job that says it failed (its rules' fail
 * milestone: a CI step's error) is over, and the runner's cleanup after
 * it matches the good run's and is no progress.  The line after that
 * milestone, else the end of bad. */
static size_t failed_job_end(const struct dx_state *st)
{
	const uint32_t *id = st->id[st->bad];
	size_t end = st->logs[st->bad].nlines;
	for (size_t i = st->from; i < end; i++)
		if (st->rule[id[i]] >= 0 && st->rs->r[st->rule[id[i]]].fail)
			end = i + 1;
	return end;
}

/* A log as aligning sees it when some of its lines carry a progress bar
 * in front of their text: such a line is two entries, the bar, then the
 * text, each a line of its own for the aligner; line[] maps them back. */
struct bar_entries {
	uint32_t *id;
	uint32_t *fine;     /* the text's own id (log.tid); none for a bar */
	uint16_t *stream;
	uint32_t *line;
	uint8_t *is_bar;
	size_t n;
};

static void bar_entries_init(struct bar_entries *e, const struct dx_state *st, size_t l, size_t from)
{
	size_t nl = st->logs[l].nlines, cap = 2 * (nl - from) + 1;
	const uint32_t *bar = st->bar[l];
	e->id = xmalloc(cap * sizeof(*e->id));
	e->fine = xmalloc(cap * sizeof(*e->fine));
	e->stream = xmalloc(cap * sizeof(*e->stream));
	e->line = xmalloc(cap * sizeof(*e->line));
	e->is_bar = xmalloc(cap);
	e->n = 0;
	for (size_t i = from; i < nl; i++)
		for (int part = bar && bar[i] != ALIGN_NONE ? 0 : 1; part < 2; part++) {
			e->id[e->n] = part ? st->id[l][i] : bar[i];
			e->fine[e->n] = part ? st->logs[l].tid[i] : ALIGN_NONE;
			e->stream[e->n] = st->stream[l][i];
			e->line[e->n] = (uint32_t)i;
			e->is_bar[e->n++] = (uint8_t)!part;
		}
}

static void bar_entries_free(struct bar_entries *e)
{
	free(e->id);
	free(e->fine);
	free(e->stream);
	free(e->line);
	free(e->is_bar);
}

/* Align bad's lines from `from` on with good log g into b2g (indexed by
 * bad line), as align_logs does.  A bar drawn in front of a line's text
 * (a log whose CRs were lost: "  0%| | 0/300 [00:00<?, ?it/s]Traceback
 * (most recent call last):") is progress of its own: the line follows
 * the good run by its text, else by its bar (by_bar), so that a run that
 * crashed as its loop began got as far as that loop's first bar. */
static void align_runs(const struct dx_state *st, size_t g, size_t from, const uint32_t *smap,
		       uint32_t *b2g, uint8_t *by_bar)
{
	size_t nb = st->logs[st->bad].nlines, ns = st->nstreams;
	const uint32_t *btid = st->logs[st->bad].tid;   /* NULL for a log of no lines */
	if (!st->bar[st->bad] && !st->bar[g]) {
		struct align_log a = { st->id[st->bad] + from, st->stream[st->bad] + from, nb - from, ns,
				       btid ? btid + from : NULL };
		struct align_log b = { st->id[g], st->stream[g], st->logs[g].nlines, ns, st->logs[g].tid };
		align_logs(&a, &b, smap, st->weight, b2g + from);
		return;
	}
	struct bar_entries ea, eb;
	bar_entries_init(&ea, st, st->bad, from);
	bar_entries_init(&eb, st, g, 0);
	struct align_log a = { ea.id, ea.stream, ea.n, ns, ea.fine }, b = { eb.id, eb.stream, eb.n, ns, eb.fine };
	uint32_t *a2b = xmalloc((ea.n ? ea.n : 1) * sizeof(*a2b));
	align_logs(&a, &b, smap, st->weight, a2b);
	for (size_t i = from; i < nb; i++)
		b2g[i] = ALIGN_NONE;
	for (size_t k = 0; k < ea.n; k++) {
		uint32_t i = ea.line[k];
		if (a2b[k] == ALIGN_NONE || (ea.is_bar[k] && b2g[i] != ALIGN_NONE))
			continue;
		b2g[i] = eb.line[a2b[k]];
		by_bar[i] = ea.is_bar[k];
	}
	free(a2b);
	bar_entries_free(&ea);
	bar_entries_free(&eb);
}

/* Align bad with good log g into k->w->b2g and set the walk up. */
static void walk_init(struct walk *k, const struct dx_state *st, size_t g, struct following *w)
{
	const struct log *bad = &st->logs[st->bad], *good = &st->logs[g];
	size_t nb = bad->nlines, ng = good->nlines, ns = st->nstreams;
	*k = (struct walk){ .st = st, .g = g, .w = w, .lasterr = -1, .farall = -1 };
	k->smap = xmalloc(ns * sizeof(*k->smap));
	/* Only bad's last attempt is aligned; earlier ones follow nothing. */
	size_t from = st->from;
	struct align_log a = { st->id[st->bad] + from, st->stream[st->bad] + from, nb - from, ns, NULL };
	struct align_log b = { st->id[g], st->stream[g], ng, ns, NULL };
	streams_map(&a, &b, st->has + g * ns, st->cnt + g * st->nc, st->nc, st->snames, k->smap);
	w->b2g = xmalloc((nb ? nb : 1) * sizeof(*w->b2g));
	w->follow = xcalloc(nb ? nb : 1, 1);
	w->steady = xcalloc(nb ? nb : 1, 1);
	w->by_bar = xcalloc(nb ? nb : 1, 1);
	for (size_t i = 0; i < from; i++)
		w->b2g[i] = ALIGN_NONE;
	align_runs(st, g, from, k->smap, w->b2g, w->by_bar);
	pending_init(&k->pend, st, g);
	bad_index_init(&k->bx, st);
	k->lastg = xmalloc(ns * sizeof(*k->lastg));
	k->lastb = xmalloc(ns * sizeof(*k->lastb));
	k->prevg = xmalloc(ns * sizeof(*k->prevg));
	k->far = xmalloc(ns * sizeof(*k->far));
	k->own = xcalloc(ns, sizeof(*k->own));
	k->err = xcalloc(ns, 1);
	for (size_t s = 0; s < ns; s++)
		k->lastg[s] = k->lastb[s] = k->prevg[s] = k->far[s] = -1;
	k->nextsame = xmalloc((ng ? ng : 1) * sizeof(*k->nextsame));
	k->firstof = xmalloc((st->nc ? st->nc : 1) * sizeof(*k->firstof));
	k->reached = xcalloc(st->nc ? st->nc : 1, 1);
	for (size_t c = 0; c < st->nc; c++)
		k->firstof[c] = ALIGN_NONE;
	for (size_t j = ng; j-- > 0;) {
		k->nextsame[j] = k->firstof[st->id[g][j]];
		k->firstof[st->id[g][j]] = (uint32_t)j;
	}
	k->gend = good_last_step(st, g, st->step);
	k->gnamed = st->steps_named ? good_last_step(st, g, NULL) : -1;
	k->msend = good_last_step(st, g, st->ms);
	w->score = 0;
	w->last = DX_NONE;
}

static void walk_free(struct walk *k)
{
	free(k->nextsame);
	free(k->firstof);
	free(k->reached);
	free(k->smap);
	pending_free(&k->pend);
	bad_index_free(&k->bx);
	free(k->lastg);
	free(k->prevg);
	free(k->lastb);
	free(k->far);
	free(k->own);
	free(k->err);
}

/* Bad's line i as the walk sees it, into m; returns whether the
 * aligner's match may be judged: there is one, and in the good stream
 * bad's stream was in.  A stream that went on in another good stream
 * than its own (foreign_match) is judged in good's line order, as one
 * aligned with all. */
static int walk_match(const struct walk *k, size_t i, struct match *m)
{
	const struct dx_state *st = k->st;
	uint16_t s = st->stream[st->bad][i];
	int64_t last = k->lastg[s];
	uint32_t c = k->w->by_bar[i] ? st->bar[st->bad][i] : st->id[st->bad][i];
	*m = (struct match){ .i = i, .s = s, .c = c, .j = k->w->b2g[i] };
	m->all = k->smap[s] == ALIGN_ALL;
	m->order = m->all || (last >= 0 && st->stream[k->g][last] != k->smap[s]);
	return m->j != ALIGN_NONE &&
	       (m->order || last < 0 || st->stream[k->g][last] == st->stream[k->g][m->j]);
}

/* A heartbeat that follows (beat_follows): its stream moves on, nothing
 * else. */
static void walk_beat(struct walk *k, const struct match *m)
{
	k->w->follow[m->i] = k->w->steady[m->i] = 1;
	k->w->last = (int64_t)m->i;
	k->prevg[m->s] = k->lastg[m->s];
	k->lastg[m->s] = m->j;
	k->lastb[m->s] = (int64_t)m->i;
}

/* A line that follows nothing: its stream's own line. */
static void walk_own(struct walk *k, const struct match *m)
{
	k->own[m->s]++;
	if (k->st->new_error[m->c]) {
		k->err[m->s] = 1;
		k->lasterr = (int64_t)m->i;
	}
}

/* A line that follows good line m->j: its stream moves on, and the good
 * run's milestones it reached are pending no more. */
static void walk_on(struct walk *k, const struct match *m)
{
	const struct dx_state *st = k->st;
	struct following *w = k->w;
	size_t s = m->s, gs = st->stream[k->g][m->j];
	if ((int64_t)m->j != k->lastg[s])
		k->prevg[s] = k->lastg[s];
	w->follow[m->i] = 1;
	w->steady[m->i] = k->lastg[s] >= 0 && !leaps(&k->pend, k->lastg[s], m->j, k->own[s], m->order);
	w->score++;
	w->last = (int64_t)m->i;
	k->lastg[s] = m->j;
	k->lastb[s] = (int64_t)m->i;
	if ((int64_t)m->j > k->far[gs])
		k->far[gs] = m->j;
	if ((int64_t)m->j > k->farall)
		k->farall = m->j;
	k->own[s] = 0;
	k->err[s] = 0;
	if (m->all && st->step[m->c] && !k->reached[m->c]) {
		/* One bad stream stands for every rank of good: the step is
		 * reached on all of them, once and for all (a step repeated
		 * on every line of both logs would otherwise cost their
		 * product). */
		k->reached[m->c] = 1;
		for (uint32_t j = k->firstof[m->c]; j != ALIGN_NONE; j = k->nextsame[j])
			pending_reach(&k->pend, st, k->g, j);
	}
	pending_reach(&k->pend, st, k->g, m->j);
}

/* A loop's line that bad printed fewer times than the good run, after
 * which bad's stream followed the good run no further, is the loop's
 * first rounds, not rounds spread over all of the good run's (the
 * aligner maps a run of one line first to first and last to last): a
 * run that crashed at step 2 of its loop reached the good run's step 2.
 * The stream's last following line and the lines of its template that
 * followed right before it, heartbeats and other streams aside, map to
 * the good run's lines of that template one after another from the
 * first, never further than the aligner put them. */
static void cut_short_runs(const struct walk *k)
{
	const struct dx_state *st = k->st;
	const struct following *w = k->w;
	const uint32_t *id = st->id[st->bad];
	const uint16_t *bs = st->stream[st->bad];
	for (size_t s = 0; s < st->nstreams; s++) {
		int64_t last = k->lastb[s];
		if (last < 0 || w->by_bar[last])
			continue;
		uint32_t c = id[last];
		int64_t first = last;
		for (int64_t i = last - 1; i >= (int64_t)st->from; i--) {
			if (bs[i] != s || st->hb[id[i]])
				continue;
			if (id[i] != c || !w->follow[i] || w->by_bar[i])
				break;
			first = i;
		}
		uint32_t j = w->b2g[first];
		for (int64_t i = first + 1; i <= last; i++) {
			if (bs[i] != s || id[i] != c)
				continue;
			uint32_t next = k->nextsame[j];
			if (next == ALIGN_NONE || next >= w->b2g[i])
				break;
			w->b2g[i] = j = next;
		}
	}
}

/* Which lines of bad follow good log g, into w (followings_free frees it):
 * bad's last attempt, aligned with g, then walked line by line, each
 * match judged by the walk's rules. */
static void follow_good_run(const struct dx_state *st, size_t g, struct following *w)
{
	struct walk k;
	walk_init(&k, st, g, w);
	size_t end = failed_job_end(st);
	for (size_t i = st->from; i < end; i++) {
		struct match m;
		int ok = walk_match(&k, i, &m);
		if (st->hb[m.c]) {
			if (beat_follows(&k, &m, ok))
				walk_beat(&k, &m);
			continue;
		}
		if (!ok || !match_follows(&k, &m)) {
			uint32_t j = rematch(&k, &m);
			if (j == ALIGN_NONE) {
				walk_own(&k, &m);
				continue;
			}
			m.j = w->b2g[i] = j;
		}
		if (!reordered(&k, &m))
			walk_on(&k, &m);
	}
	cut_short_runs(&k);
	walk_free(&k);
}

/* ---- the pass ---- */

void pass_follow(struct dx_state *st, struct diagnosis *d)
{
	st->ws = xcalloc(st->ngood, sizeof(*st->ws));
	size_t best = 0;
	for (size_t g = 0; g < st->ngood; g++) {
		follow_good_run(st, g, &st->ws[g]);
		if (st->ws[g].score > st->ws[best].score)
			best = g;
	}
	d->good = best;
	d->good_log = &st->logs[best];
	st->w = &st->ws[best];
}

void followings_free(struct dx_state *st)
{
	for (size_t g = 0; st->ws && g < st->ngood; g++) {
		free(st->ws[g].b2g);
		free(st->ws[g].follow);
		free(st->ws[g].steady);
		free(st->ws[g].by_bar);
	}
	free(st->ws);
	st->ws = NULL;
	st->w = NULL;
}
