/* diagnose_timing.c — the timing passes (see diagnose_passes.h): the good
 * run's milestones and when each run reached them, the steps bad took
 * much longer over, the notice a stalled run repeats as it waits, how
 * long bad has been silent, and how long the good runs took where bad
 * stands, against which a silence is long or not. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "align.h"
#include "classify.h"
#include "diagnose_passes.h"
#include "streams.h"
#include "timeline.h"

/* A waiting notice: printed at least this many times (bursts a second
 * apart or more), at a steady pace (no interval over WAIT_STEADY times
 * the shortest). */
#define WAIT_MIN 3
#define WAIT_STEADY 2
/* A step is slow when it took this many times the slowest good run ... */
#define SLOW_FACTOR 3.0
/* ... and this many seconds more: a few times the second that most
 * timestamps resolve, so that "4.9 s where good runs took 0.0 s" counts. */
#define SLOW_MIN_S 3.0

static double secs(int64_t a, int64_t b)
{
	return a == TS_NONE || b == TS_NONE ? NAN : (double)(b - a) / 1000.0;
}

static int64_t first_ts(const struct log *lg)
{
	for (size_t i = 0; i < lg->nlines; i++)
		if (lg->ts[i] != TS_NONE)
			return lg->ts[i];
	return TS_NONE;
}

/* *most = x when x is known and more (NAN: not known yet). */
static void raise_to(double *most, double x)
{
	if (!isnan(x) && (isnan(*most) || x > *most))
		*most = x;
}

/* ---- milestones ---- */

void pass_milestones(struct dx_state *st, struct diagnosis *d)
{
	const struct following *w = st->w;
	const struct log *good = &st->logs[d->good], *bad = &st->logs[st->bad];
	int64_t *bfirst = xmalloc((st->nc ? st->nc : 1) * sizeof(*bfirst));
	for (size_t c = 0; c < st->nc; c++)
		bfirst[c] = DX_NONE;
	for (size_t i = bad->nlines; i-- > 0;)
		if (w->follow[i])
			bfirst[st->id[st->bad][i]] = (int64_t)i;
	uint8_t *seen = xcalloc(st->nc ? st->nc : 1, 1);
	size_t cap = 0;
	int64_t g0 = first_ts(good), b0 = first_ts(bad);
	for (size_t j = 0; j < good->nlines; j++) {
		uint32_t c = st->id[d->good][j];
		if (!st->ms[c] || seen[c])
			continue;
		seen[c] = 1;
		GROW(d->ms, cap, d->nms + 1);
		int r = st->rule[c];
		int64_t bl = bfirst[c];
		d->ms[d->nms++] = (struct dx_milestone){
			.id = c, .name = r >= 0 ? st->rs->r[r].name : NULL,
			.final = r >= 0 && st->rs->r[r].final,
			.good_line = (int64_t)j, .bad_line = bl,
			.good_off_s = secs(g0, good->when[j]),
			.bad_off_s = bl >= 0 ? secs(b0, bad->when[bl]) : NAN,
		};
	}
	free(seen);
	st->ms_line = xcalloc(d->nms ? d->nms : 1, sizeof(*st->ms_line));
	int32_t *rule = xmalloc((d->nms ? d->nms : 1) * sizeof(*rule));
	for (size_t m = 0; m < d->nms; m++)
		rule[m] = st->rule[d->ms[m].id];
	size_t up = timeline_up(st->rs, rule, d->nms);
	d->up = up == SIZE_MAX ? DX_NONE : (int64_t)up;
	free(rule);
	free(bfirst);
}

/* Whether template text t opens with how far a build is, in brackets,
 * then says what it did: make's and CMake's "[ 39%] Built target x",
 * "[  7%] Building C object y.o".  Each such line is a step done. */
static int build_step(const char *t)
{
	if (*t++ != '[')
		return 0;
	t += strspn(t, " ");
	return strncmp(t, "<pct>] ", 7) == 0 && isalpha((unsigned char)t[7]);
}

/* Whether template c shows how far something got rather than a step
 * done: a progress display (a percentage: tqdm's "<pct>| | <int>/<int>";
 * not a build's step, build_step), a heartbeat or a line that counts at
 * a steady pace.  Each run draws one wherever it is, the first frame as
 * the last: bad printing it says nothing of whether bad got to the end. */
int shows_progress(const struct dx_state *st, uint32_t c)
{
	const char *t = st->ctext[c];
	return st->hb[c] || st->counter[c] || st->bars[c] || (strstr(t, "<pct>") && !build_step(t));
}

/* Where a good run that never came up (a crashed run given as good) got
 * furthest among d->ms[0..n): its last final milestone of another engine
 * (uvicorn's, when SGLang's own never came), else its last learned one
 * that is no warning, no continuation line (a resource_tracker warning at
 * exit is its tail, not its end), no retry notice (which says the run
 * had yet to get somewhere: "429 encountered, retrying request") and no
 * progress display (shows_progress), else its last one that is no
 * progress display and no retry notice; NULL when every one is. */
static const struct dx_milestone *furthest_of(const struct dx_state *st, const struct diagnosis *d,
					     size_t n)
{
	for (size_t m = n; m-- > 0;)
		if (d->ms[m].final)
			return &d->ms[m];
	const struct dx_milestone *any = NULL;
	for (size_t m = n; m-- > 0;) {
		uint32_t c = d->ms[m].id;
		if (shows_progress(st, c) || st->retry[c])
			continue;
		if (st->sev[c] == DX_INFO && !line_continues(st, d->good, (size_t)d->ms[m].good_line))
			return &d->ms[m];
		any = any ? any : &d->ms[m];
	}
	return any;
}

/* The good run's end is where it is up (d->up), else where it got
 * furthest. */
const struct dx_milestone *good_end(const struct dx_state *st, const struct diagnosis *d)
{
	return d->up != DX_NONE ? &d->ms[d->up] : furthest_of(st, d, d->nms);
}

/* Where the good run's teardown begins, as an index into d->ms: its
 * earliest milestone that says the run shuts down (st->stop) from which
 * on such lines are at least half of its milestones; d->nms when it has
 * none.  A word a run prints in passing ("closing a connection") earlier
 * is outweighed there by the steps after it. */
static size_t teardown_start(const struct dx_state *st, const struct diagnosis *d)
{
	size_t start = d->nms, says = 0;
	for (size_t m = d->nms; m-- > 0;) {
		if (!st->stop[d->ms[m].id])
			continue;
		says++;
		if (2 * says >= d->nms - m)
			start = m;
	}
	return start;
}

/* named_end: "went on to X" names the good run's up milestone, or the
 * last milestone it reached before its shutdown began, never a shutdown
 * or teardown line: a run that was shut down after its work went on to
 * its work, not to "closing ...". */
const struct dx_milestone *named_end(const struct dx_state *st, const struct diagnosis *d)
{
	size_t before = teardown_start(st, d);
	if (d->up != DX_NONE || before == 0)
		return good_end(st, d);
	return furthest_of(st, d, before);
}

/* ---- slow steps ---- */

/* Slow steps in the good run's order. */
static int slow_cmp(const void *x, const void *y)
{
	const struct dx_slow *a = x, *b = y;
	if (a->from_good != b->from_good)
		return a->from_good < b->from_good ? -1 : 1;
	return (a->to_good > b->to_good) - (a->to_good < b->to_good);
}

/* Per stream s and milestone m of d->ms: the first line of log l where
 * stream s reached m, or -1; [s * nms + m].  With follow, only lines that
 * follow the good run count (a health check in a stalled run is no step). */
static int64_t *stream_firsts(const struct dx_state *st, const struct diagnosis *d,
			      const int32_t *msof, size_t l, const uint8_t *follow)
{
	size_t n = st->nstreams * d->nms;
	int64_t *first = xmalloc((n ? n : 1) * sizeof(*first));
	for (size_t k = 0; k < n; k++)
		first[k] = -1;
	for (size_t i = 0; i < st->logs[l].nlines; i++) {
		int32_t m = msof[st->id[l][i]];
		if (m < 0 || (follow && !follow[i]))
			continue;
		size_t k = st->stream[l][i] * d->nms + (size_t)m;
		if (first[k] < 0)
			first[k] = (int64_t)i;
	}
	return first;
}

/* The slowest good run over the step from milestone pm to m of d->ms on
 * stream s, or over the whole log where that good run's stream lacks
 * either end (a milestone only rank 0 prints); NAN when none took it.
 * gfirst: stream_firsts of each good run. */
static double slowest_good(const struct dx_state *st, const struct diagnosis *d, int64_t *const *gfirst,
			   size_t s, size_t pm, size_t m)
{
	size_t nm = d->nms, nc = st->nc;
	double gs = NAN;
	for (size_t g = 0; g < st->ngood; g++) {
		int64_t ga = gfirst[g][s * nm + pm], gb = gfirst[g][s * nm + m];
		if (ga < 0 || gb < 0) {
			ga = st->first[g * nc + d->ms[pm].id];
			gb = st->first[g * nc + d->ms[m].id];
		}
		if (ga < 0 || gb < 0)
			continue;
		double x = log_span_s(&st->logs[g], (size_t)ga, (size_t)gb);
		if (!isnan(x) && x >= 0 && (isnan(gs) || x > gs))
			gs = x;
	}
	return gs;
}

/* Whether a step bad took bs seconds over, where the slowest good run
 * took gs, is slow: SLOW_FACTOR times as long, and SLOW_MIN_S more. */
static int is_slow(double bs, double gs)
{
	return !isnan(bs) && !isnan(gs) && bs > SLOW_FACTOR * gs && bs - gs >= SLOW_MIN_S;
}

/* One entry per step: its slowest stream, the one that took the most
 * longer than the good run. */
static void keep_slowest(struct diagnosis *d, size_t *cap, const struct dx_slow *x)
{
	size_t k = 0;
	while (k < d->nslow && (d->slow[k].from_good != x->from_good || d->slow[k].to_good != x->to_good))
		k++;
	if (k == d->nslow) {
		GROW(d->slow, *cap, d->nslow + 1);
		d->nslow++;
	} else if (d->slow[k].bad_s - d->slow[k].good_s >= x->bad_s - x->good_s) {
		return;
	}
	d->slow[k] = *x;
}

/* The slow steps of bad's stream s: between consecutive milestones it
 * reached.  bfirst, gfirst: stream_firsts of bad and of each good run. */
static void slow_stream(const struct dx_state *st, struct diagnosis *d, const int64_t *bfirst,
			int64_t *const *gfirst, size_t s, size_t *cap)
{
	size_t nm = d->nms;
	int64_t prev = -1;   /* the last milestone stream s reached */
	for (size_t m = 0; m < nm; m++) {
		int64_t to = bfirst[s * nm + m];
		if (to < 0)
			continue;
		int64_t pm = prev;
		prev = (int64_t)m;
		int64_t from = pm >= 0 ? bfirst[s * nm + (size_t)pm] : -1;
		if (from < 0 || from >= to)
			continue;
		double bs = log_span_s(&st->logs[st->bad], (size_t)from, (size_t)to);
		double gs = slowest_good(st, d, gfirst, s, (size_t)pm, m);
		if (!is_slow(bs, gs))
			continue;
		struct dx_slow x = {
			.from_good = d->ms[pm].good_line,
			.to_good = d->ms[m].good_line, .from_bad = from, .to_bad = to,
			.good_s = gs, .bad_s = bs, .stream = st->snames[s], .peers_s = NAN,
		};
		keep_slowest(d, cap, &x);
	}
}

/* ---- stragglers ---- */

/* A rank's step is a straggler's when it took STRAGGLER_FACTOR times
 * its peers' median over the same step, and STRAGGLER_MIN_S more, plus
 * the clock's tick: of a log stamped in whole seconds, a step of no time
 * may read 1 s. */
#define STRAGGLER_FACTOR 3.0
#define STRAGGLER_MIN_S 1.0

/* One step of one rank: from its previous following line to the next,
 * named by both lines' templates and how many times the rank took it
 * before (the 7th round of a loop's "step N" lines). */
struct rank_step {
	uint32_t from_id, to_id, nth;
	uint16_t stream;
	int64_t from, to;
	double s;
};

/* By stream, step, line: to count each stream's rounds of a step. */
static int by_stream(const void *x, const void *y)
{
	const struct rank_step *a = x, *b = y;
	if (a->stream != b->stream)
		return a->stream < b->stream ? -1 : 1;
	if (a->from_id != b->from_id)
		return a->from_id < b->from_id ? -1 : 1;
	if (a->to_id != b->to_id)
		return a->to_id < b->to_id ? -1 : 1;
	return (a->to > b->to) - (a->to < b->to);
}

/* By step and round, the slowest last: a group per step of the job. */
static int by_step(const void *x, const void *y)
{
	const struct rank_step *a = x, *b = y;
	if (a->from_id != b->from_id)
		return a->from_id < b->from_id ? -1 : 1;
	if (a->to_id != b->to_id)
		return a->to_id < b->to_id ? -1 : 1;
	if (a->nth != b->nth)
		return a->nth < b->nth ? -1 : 1;
	return (a->s > b->s) - (a->s < b->s);
}

/* Whether bad's line i is stamped on a whole second: a step between two
 * such lines may read a second more than it took. */
static int whole_seconds(const struct log *bad, int64_t i)
{
	return bad->when[i] % 1000 == 0;
}

/* The median of x[0..n), sorted, n > 0. */
static double median(const double *x, size_t n)
{
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

static int double_cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* The timed steps of bad's tagged streams over lines that follow the
 * good run, from line `from` on, grouped by step (by_step); *n: their
 * count. */
static struct rank_step *rank_steps(const struct dx_state *st, size_t from, size_t *n)
{
	const struct log *bad = &st->logs[st->bad];
	const uint32_t *id = st->id[st->bad];
	const uint16_t *stream = st->stream[st->bad];
	size_t ns = st->nstreams, k = 0;
	int64_t *prev = xmalloc((ns ? ns : 1) * sizeof(*prev));
	for (size_t s = 0; s < ns; s++)
		prev[s] = -1;
	struct rank_step *r = xmalloc((bad->nlines ? bad->nlines : 1) * sizeof(*r));
	for (size_t i = from; i < bad->nlines; i++) {
		uint16_t sm = stream[i];
		if (sm == 0 || !st->w->follow[i])
			continue;
		double x = prev[sm] >= 0 ? log_span_s(bad, (size_t)prev[sm], i) : NAN;
		if (!isnan(x))
			r[k++] = (struct rank_step){ .from_id = id[prev[sm]], .to_id = id[i], .stream = sm,
						     .from = prev[sm], .to = (int64_t)i, .s = x };
		prev[sm] = (int64_t)i;
	}
	free(prev);
	if (k)
		qsort(r, k, sizeof(*r), by_stream);
	for (size_t j = 1; j < k; j++)
		if (r[j].stream == r[j - 1].stream && r[j].from_id == r[j - 1].from_id && r[j].to_id == r[j - 1].to_id)
			r[j].nth = r[j - 1].nth + 1;
	if (k)
		qsort(r, k, sizeof(*r), by_step);
	*n = k;
	return r;
}

/* Stragglers: a rank whose step took far longer than the same step of
 * its peers (the ranks of its kind that took it too, two at least), in
 * the same run, whatever the good runs took there: a rank that loads its
 * weights in 4.9 s while its three peers take 0.01 s.  When the peers
 * wait for it in a collective, every rank's step is as slow and none
 * stands out: the log cannot tell which held the rest (slow steps
 * against the good runs still show the step).  Each names its rank
 * (dx_slow.rank), on the entry of the same lines or a new one. */
static void find_stragglers(const struct dx_state *st, struct diagnosis *d, size_t *cap)
{
	size_t n;
	struct rank_step *r = rank_steps(st, (size_t)d->attempt_line, &n);
	const struct log *bad = &st->logs[st->bad];
	double *peer = xmalloc((n ? n : 1) * sizeof(*peer));
	const uint32_t *b2g = st->w->b2g;
	for (size_t a = 0, b; a < n; a = b) {
		for (b = a + 1; b < n && r[b].from_id == r[a].from_id && r[b].to_id == r[a].to_id && r[b].nth == r[a].nth; b++)
			;
		const struct rank_step *x = &r[b - 1];   /* the slowest */
		size_t np = 0;
		for (size_t j = a; j + 1 < b; j++)
			if (streams_same_kind(st->snames[r[j].stream], st->snames[x->stream]))
				peer[np++] = r[j].s;   /* ascending, as sorted */
		if (np < 2)
			continue;
		double med = median(peer, np);
		double tick = whole_seconds(bad, x->from) && whole_seconds(bad, x->to);
		if (x->s < STRAGGLER_FACTOR * med || x->s - med < STRAGGLER_MIN_S + tick)
			continue;
		/* It held the step rather than waited in it: it ended the step
		 * later than its peers did, not began it earlier (the rank that
		 * reached a rendezvous first waits longest there). */
		np = 0;
		for (size_t j = a; j + 1 < b; j++)
			if (streams_same_kind(st->snames[r[j].stream], st->snames[x->stream]))
				peer[np++] = (double)(bad->when[r[j].to] - bad->when[x->to]) / -1000.0;
		qsort(peer, np, sizeof(*peer), double_cmp);
		if (median(peer, np) < STRAGGLER_MIN_S + tick)
			continue;
		struct dx_slow y = {
			.from_good = b2g[x->from] != ALIGN_NONE ? (int64_t)b2g[x->from] : DX_NONE,
			.to_good = b2g[x->to] != ALIGN_NONE ? (int64_t)b2g[x->to] : DX_NONE,
			.from_bad = x->from, .to_bad = x->to, .good_s = NAN, .bad_s = x->s,
			.stream = st->snames[x->stream], .rank = st->snames[x->stream], .peers_s = med,
		};
		size_t k = 0;
		while (k < d->nslow && !(d->slow[k].from_bad == x->from && d->slow[k].to_bad == x->to))
			k++;
		if (k < d->nslow) {
			/* The same step, slow against the good runs too. */
			y.from_good = d->slow[k].from_good, y.to_good = d->slow[k].to_good;
			y.good_s = d->slow[k].good_s;
			d->slow[k] = y;
		} else {
			GROW(d->slow, *cap, d->nslow + 1);
			d->slow[d->nslow++] = y;
		}
	}
	free(peer);
	free(r);
}

/* Slow steps, per stream: one rank may load its weights slowly while the
 * others do not.  One entry per step (keep_slowest). */
void pass_slow(struct dx_state *st, struct diagnosis *d)
{
	size_t nm = d->nms, nc = st->nc, cap = 0;
	if (nm >= 2) {
		int32_t *msof = xmalloc((nc ? nc : 1) * sizeof(*msof));
		for (size_t c = 0; c < nc; c++)
			msof[c] = -1;
		for (size_t m = 0; m < nm; m++)
			msof[d->ms[m].id] = (int32_t)m;
		int64_t *bfirst = stream_firsts(st, d, msof, st->bad, st->w->follow);
		int64_t **gfirst = xmalloc(st->ngood * sizeof(*gfirst));
		for (size_t g = 0; g < st->ngood; g++)
			gfirst[g] = stream_firsts(st, d, msof, g, NULL);
		for (size_t s = 0; s < st->nstreams; s++)
			slow_stream(st, d, bfirst, gfirst, s, &cap);
		for (size_t g = 0; g < st->ngood; g++)
			free(gfirst[g]);
		free(gfirst);
		free(bfirst);
		free(msof);
	}
	find_stragglers(st, d, &cap);
	if (d->nslow > 1)
		qsort(d->slow, d->nslow, sizeof(*d->slow), slow_cmp);
}

/* ---- waiting and silence ---- */

/* The notice a stalled run waits with: the line it printed last (blank
 * lines and the good runs' heartbeats aside) when no good run printed it
 * and it is no error; UINT32_MAX for none. */
static uint32_t last_notice(const struct dx_state *st)
{
	const uint32_t *id = st->id[st->bad];
	size_t end = st->logs[st->bad].nlines;
	while (end > 0 && st->hb[id[end - 1]] &&
	       (!is_novel_template(st, id[end - 1]) || is_blank(st->ctext[id[end - 1]])))
		end--;
	if (end == 0)
		return UINT32_MAX;
	uint32_t c = id[end - 1];
	return !is_novel_template(st, c) || st->sev[c] == DX_ERROR ? UINT32_MAX : c;
}

/* What a stalled run waits for: its last notice (last_notice) when bad
 * repeats it after its last step at a steady pace -- vLLM's "No
 * available shared memory broadcast block found in 60 seconds", a
 * "Waiting for ..." retry.  Such a notice is the run waiting, not taking
 * another path: it counts as a heartbeat from here on (no progress, no
 * own line).  A last notice that says it waits (classify_is_wait) is
 * one too, said once: its last copy. */
void pass_waiting(struct dx_state *st, struct diagnosis *d)
{
	const struct log *bad = &st->logs[st->bad];
	const uint32_t *id = st->id[st->bad];
	d->waiting = (struct dx_waiting){ .first = DX_NONE, .last = DX_NONE, .span_s = NAN };
	uint32_t c = last_notice(st);
	if (c == UINT32_MAX)
		return;
	size_t from = st->w->last >= 0 ? (size_t)st->w->last + 1 : 0, beats = 0;
	int64_t first = DX_NONE, prev = TS_NONE, lo = INT64_MAX, hi = 0;
	uint64_t count = 0;
	for (size_t i = from; i < bad->nlines; i++) {
		if (id[i] != c)
			continue;
		count++;
		if (first == DX_NONE)
			first = (int64_t)i;
		d->waiting.last = (int64_t)i;
		int64_t t = bad->when[i];
		if (t == TS_NONE || (prev != TS_NONE && t - prev < 1000))
			continue;   /* the same burst (every rank says it at once) */
		if (prev != TS_NONE) {
			lo = t - prev < lo ? t - prev : lo;
			hi = t - prev > hi ? t - prev : hi;
		}
		prev = t;
		beats++;
	}
	if (beats < WAIT_MIN || hi > WAIT_STEADY * lo) {
		/* Or its last words say it waits, once or at no steady pace
		 * ("Waiting for root device /dev/mmcblk0p2..."): stuck in that
		 * wait, whatever it printed of its own before. */
		if (count && classify_is_wait(st->rs, st->ctext[c])) {
			d->waiting.first = d->waiting.last;
			d->waiting.count = 1;
			return;
		}
		d->waiting.last = DX_NONE;
		return;
	}
	d->waiting.first = first;
	d->waiting.count = count;
	d->waiting.span_s = log_span_s(bad, (size_t)first, (size_t)d->waiting.last);
	st->hb[c] = 1;
}

/* How far a log's own clock may be off the wall clock: its time zone
 * (UTC-12 to UTC+14) and then some. */
#define CLOCK_SLACK_S (26 * 3600.0)

/* A copy of a log (scp, a download, a checkout) is written anew: its
 * mtime says nothing of when the run printed its last line.  When the
 * log's own last timestamp is older than its mtime by more than any time
 * zone explains, the run's silence is measured on the log's clock: a run
 * that stopped last week and was copied a minute ago is silent for a
 * week, not a minute (and never "still in its step").  Only a wall
 * clock tells: a log timed from its start (llama.cpp's minutes and
 * seconds since it began, read as 1970) is no date. */
#define WALL_CLOCK_MIN_MS 946684800000LL   /* 2000-01-01 */
/* A file that took less time to write than its lines span was written
 * at once: a copy, seen by its birth time where the file system keeps
 * one.  A log written as its run went on took as long as the run.  A
 * file last modified before it was born kept its original's mtime (cp
 * -p, tar, rsync -t, touch): that mtime is the run's own. */
#define COPY_SLACK_S 10.0
static int written_at_once(const struct log *bad, const struct diagnosis *d)
{
	if (!bad->in.btime || d->first_ts_bad == TS_NONE || d->last_ts_bad == TS_NONE)
		return 0;
	double span = (double)(d->last_ts_bad - d->first_ts_bad) / 1000.0;
	double written = difftime(bad->in.mtime, bad->in.btime);
	return written >= 0 && span - written > COPY_SLACK_S;
}

static void copied_log(const struct log *bad, struct diagnosis *d)
{
	if (d->last_progress_ts == TS_NONE)
		return;
	double by_clock = NAN;
	if (d->last_progress_ts >= WALL_CLOCK_MIN_MS)
		by_clock = ((double)time(NULL) * 1000.0 - (double)d->last_progress_ts) / 1000.0;
	if (by_clock - d->silent_s > CLOCK_SLACK_S)
		d->silent_s = by_clock;
	else if (written_at_once(bad, d))
		/* A copy whose own clock does not say it is old: how long
		 * the run has been silent is not known. */
		d->silent_s = NAN;
}

void pass_silence(struct dx_state *st, struct diagnosis *d)
{
	const struct log *bad = &st->logs[st->bad];
	const struct dx_options *opt = st->opt;
	d->first_ts_bad = first_ts(bad);
	d->last_progress = DX_NONE;
	for (size_t i = bad->nlines; i-- > 0 && d->last_progress == DX_NONE;)
		if (!st->hb[st->id[st->bad][i]])
			d->last_progress = (int64_t)i;
	d->last_ts_bad = d->last_progress_ts = TS_NONE;
	for (size_t i = bad->nlines; i-- > 0;) {
		if (bad->when[i] == TS_NONE)
			continue;
		if (d->last_ts_bad == TS_NONE)
			d->last_ts_bad = bad->when[i];
		if (!st->hb[st->id[st->bad][i]]) {
			d->last_progress_ts = bad->when[i];
			break;
		}
	}
	d->silent_s = NAN;
	if (opt->now_ms != TS_NONE) {
		if (d->last_progress_ts == TS_NONE)
			return;
		int64_t now = opt->now_relative ? d->last_ts_bad + opt->now_ms : opt->now_ms;
		d->silent_s = (double)(now - d->last_progress_ts) / 1000.0;
	} else if (strcmp(bad->in.path, "-") != 0) {
		/* The file was last written when its last line was: the wall
		 * clock against mtime needs no time zone. */
		d->silent_s = difftime(time(NULL), bad->in.mtime);
		if (d->last_progress_ts != TS_NONE)
			d->silent_s += (double)(d->last_ts_bad - d->last_progress_ts) / 1000.0;
		copied_log(bad, d);
	}
}

/* ---- the good runs' time where bad stands ---- */

/* Whether good run g's line k is a milestone of stream s (any stream
 * when s is SIZE_MAX). */
static int good_step_line(const struct dx_state *st, size_t g, size_t k, size_t s)
{
	uint32_t c = st->id[g][k];
	return st->ms[c] && !st->hb[c] && (s == SIZE_MAX || st->stream[g][k] == s);
}

/* Good run g's milestone lines around line j on stream s: the last at or
 * before j (*from) and the first after it of another template (*to); -1
 * where there is none. */
static void good_step_around(const struct dx_state *st, size_t g, size_t j, size_t s,
			     int64_t *from, int64_t *to)
{
	*from = *to = -1;
	for (size_t k = j + 1; k-- > 0 && *from < 0;)
		if (good_step_line(st, g, k, s))
			*from = (int64_t)k;
	for (size_t k = j + 1; k < st->logs[g].nlines && *to < 0; k++)
		if (good_step_line(st, g, k, s) && st->id[g][k] != st->id[g][j])
			*to = (int64_t)k;
}

/* The good runs' longest silence between the divergence point and their
 * next milestone: good run g's, from the good line bad last followed. */
static double good_gap(const struct dx_state *st, size_t g)
{
	const struct log *lg = &st->logs[g];
	const struct following *w = &st->ws[g];
	if (w->last < 0)
		return NAN;
	size_t j = w->b2g[w->last];
	int64_t prev = lg->when[j];
	double gap = NAN;
	for (size_t k = j + 1; k < lg->nlines; k++) {
		uint32_t c = st->id[g][k];
		if (lg->when[k] == TS_NONE || st->hb[c])
			continue;
		if (prev != TS_NONE)
			raise_to(&gap, (double)(lg->when[k] - prev) / 1000.0);
		prev = lg->when[k];
		if (st->ms[c] && st->id[g][k] != st->id[g][j])
			break;
	}
	return gap;
}

/* In a loop that counts ("step 45 loss=..."), the step is one round:
 * from good run g's line j up to its stream's next count, when that
 * comes before *to. */
static void counted_round(const struct dx_state *st, size_t g, size_t j, int64_t *from, int64_t *to)
{
	if (!st->counter[st->id[g][j]])
		return;
	for (size_t k = j + 1; k < st->logs[g].nlines && (*to < 0 || (int64_t)k < *to); k++)
		if (st->id[g][k] == st->id[g][j] && st->stream[g][k] == st->stream[g][j]) {
			*from = (int64_t)j;
			*to = (int64_t)k;
		}
}

/* How long good run g took over the step the bad run is in: from its
 * milestone before the good line bad last followed to the one after it,
 * on that line's stream where it has both (ranks interleave), else over
 * the whole log.  An untagged line amid ranks' (a launcher's "training
 * step 40") is no rank's: its step is bounded by any stream's steps, not
 * by the few the untagged lines take.  A silence is long only against
 * this: the good run may print little for minutes inside one step. */
static double good_step(const struct dx_state *st, size_t g, size_t j)
{
	const struct log *lg = &st->logs[g];
	size_t s = st->stream[g][j];
	int64_t from = -1, to = -1;
	if (s != 0)
		good_step_around(st, g, j, s, &from, &to);
	if (from < 0 || to < 0)
		good_step_around(st, g, j, SIZE_MAX, &from, &to);
	counted_round(st, g, j, &from, &to);
	if (to < 0)
		return NAN;
	return log_span_s(lg, from >= 0 ? (size_t)from : j, (size_t)to);
}

void pass_good_time(struct dx_state *st, struct diagnosis *d)
{
	d->good_gap_s = d->good_step_s = NAN;
	for (size_t g = 0; g < st->ngood; g++) {
		const struct following *w = &st->ws[g];
		raise_to(&d->good_gap_s, good_gap(st, g));
		raise_to(&d->good_step_s, w->last >= 0 ? good_step(st, g, w->b2g[w->last]) : NAN);
	}
}

/* A rank that stopped first, at a step every other rank went past, holds
 * the run in its step: the good runs' time there counts too (a rank stuck
 * loading its weights, where the rest went on at once to a step of no
 * time).  Only when the others took its next step: ranks alike, and the
 * step that rank's stream takes next in the good run followed by some
 * other rank.  That rank's last following line, or DX_NONE. */
static int64_t rank_behind(const struct dx_state *st, const struct diagnosis *d)
{
	const struct following *w = st->w;
	int64_t behind = DX_NONE;
	size_t nbehind = 0;
	for (size_t k = 0; k < d->nranks; k++) {
		int64_t i = d->ranks[k].last_follow;
		if (i < 0)
			continue;
		if (behind < 0 || w->b2g[i] < w->b2g[behind])
			behind = i, nbehind = 0;
		nbehind += st->id[st->bad][i] == st->id[st->bad][behind];
	}
	if (nbehind != 1 || !d->ranks_alike)
		return DX_NONE;
	size_t j = w->b2g[behind];
	int64_t from, to, took = 0;
	good_step_around(st, d->good, j, st->stream[d->good][j], &from, &to);
	for (size_t i = 0; to >= 0 && i < st->logs[st->bad].nlines && !took; i++)
		took = w->follow[i] && st->id[st->bad][i] == st->id[d->good][to];
	return took ? behind : DX_NONE;
}

void pass_rank_behind(struct dx_state *st, struct diagnosis *d)
{
	int64_t behind = rank_behind(st, d);
	for (size_t g = 0; g < st->ngood && behind >= 0; g++) {
		const struct following *w = &st->ws[g];
		raise_to(&d->good_step_s, w->b2g[behind] != ALIGN_NONE ? good_step(st, g, w->b2g[behind]) : NAN);
	}
}
