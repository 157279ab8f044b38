/* align.c — aligning template-id sequences.  See align.h.
 *
 * Patience first: ids that occur exactly once in both ranges (milestones,
 * config dumps) are the anchors a reader would use, and the longest
 * increasing run of them fixes the alignment.  Only the gaps between
 * anchors need a general LCS, and they are small in practice. */
#include "align.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Gaps up to this many cells get an exact LCS (4 bytes a cell). */
#define DP_CELLS (1u << 20)
/* How far ahead the greedy fallback looks for the next match. */
#define GREEDY_WINDOW 256

struct slot {
	uint32_t id, ca, cb, pa, pb;
};

struct ctx {
	const uint32_t *a, *b;
	const uint32_t *fa, *fb;   /* fine ids, or NULL */
	const uint8_t *weight;
	uint32_t *ma;
	size_t matches;
	uint32_t *dp;
};

static void match(struct ctx *c, size_t i, size_t j)
{
	c->ma[i] = (uint32_t)j;
	c->matches++;
}

static void greedy(struct ctx *c, size_t a0, size_t a1, size_t b0, size_t b1)
{
	size_t j = b0;
	for (size_t i = a0; i < a1 && j < b1; i++) {
		size_t end = j + GREEDY_WINDOW < b1 ? j + GREEDY_WINDOW : b1;
		for (size_t k = j; k < end; k++)
			if (c->b[k] == c->a[i]) {
				match(c, i, k);
				j = k + 1;
				break;
			}
	}
}

/* Exact heaviest common subsequence by suffix scores; ties skip a's
 * element first, so matches stay as early in b as possible. */
static void lcs(struct ctx *c, size_t a0, size_t a1, size_t b0, size_t b1)
{
	size_t na = a1 - a0, nb = b1 - b0, w = nb + 1;
	uint32_t *L = c->dp;
	for (size_t j = 0; j <= nb; j++)
		L[na * w + j] = 0;
	for (size_t i = na; i-- > 0;) {
		uint32_t wt = c->weight ? c->weight[c->a[a0 + i]] : 1;
		L[i * w + nb] = 0;
		for (size_t j = nb; j-- > 0;) {
			uint32_t x = L[(i + 1) * w + j], y = L[i * w + j + 1], best = x > y ? x : y;
			if (c->a[a0 + i] == c->b[b0 + j] && L[(i + 1) * w + j + 1] + wt > best)
				best = L[(i + 1) * w + j + 1] + wt;
			L[i * w + j] = best;
		}
	}
	size_t i = 0, j = 0;
	while (i < na && j < nb) {
		uint32_t wt = c->weight ? c->weight[c->a[a0 + i]] : 1;
		if (c->a[a0 + i] == c->b[b0 + j] && L[i * w + j] == L[(i + 1) * w + j + 1] + wt) {
			match(c, a0 + i, b0 + j);
			i++, j++;
		} else if (L[(i + 1) * w + j] >= L[i * w + j + 1]) {
			i++;
		} else {
			j++;
		}
	}
}

/* How often each id occurs in a[a0..a1) and b[b0..b1), and where last,
 * in an open-addressing table of n slots. */
struct counts {
	struct slot *slots;
	size_t n;
};

static struct slot *slot_of(const struct counts *t, uint32_t id)
{
	size_t mask = t->n - 1, k = (size_t)(id * 0x9e3779b1u) & mask;
	while (t->slots[k].ca + t->slots[k].cb && t->slots[k].id != id)
		k = (k + 1) & mask;
	t->slots[k].id = id;
	return &t->slots[k];
}

static void counts_alloc(struct counts *t, size_t elems)
{
	t->n = 64;
	while (t->n < 2 * elems)
		t->n *= 2;
	t->slots = xcalloc(t->n, sizeof(*t->slots));
}

static void count_a(struct counts *t, uint32_t id, size_t i)
{
	struct slot *s = slot_of(t, id);
	s->ca++;
	s->pa = (uint32_t)i;
}

static void count_b(struct counts *t, uint32_t id, size_t j)
{
	struct slot *s = slot_of(t, id);
	s->cb++;
	s->pb = (uint32_t)j;
}

static void count_ids(struct counts *t, const struct ctx *c, size_t a0, size_t a1, size_t b0, size_t b1)
{
	counts_alloc(t, a1 - a0 + b1 - b0);
	for (size_t i = a0; i < a1; i++)
		count_a(t, c->a[i], i);
	for (size_t j = b0; j < b1; j++)
		count_b(t, c->b[j], j);
}

/* Whether an element of id may anchor by its fine id: its id is in both
 * ranges, and more than once in one of them. */
static int fine_may_anchor(const struct counts *ids, uint32_t id)
{
	const struct slot *s = slot_of(ids, id);
	return s->ca && s->cb && (s->ca > 1 || s->cb > 1);
}

/* Ranges of more elements than this look for no fine anchors: in a
 * million lines, the ids' anchors cut the range into gaps, and those
 * look for them; counting a million fine ids would cost more than the
 * rest of aligning. */
#define FINE_MAX (1u << 16)

/* The fine ids of the elements that fine_may_anchor, counted as
 * count_ids counts ids; none (t->slots NULL) when there are none. */
static void count_fine(struct counts *t, const struct counts *ids, const struct ctx *c, size_t a0, size_t a1,
		       size_t b0, size_t b1)
{
	size_t n = 0;
	t->slots = NULL;
	if (a1 - a0 + b1 - b0 > FINE_MAX)
		return;
	for (size_t i = a0; i < a1; i++)
		n += c->fa[i] != ALIGN_NONE && fine_may_anchor(ids, c->a[i]);
	for (size_t j = b0; j < b1; j++)
		n += c->fb[j] != ALIGN_NONE && fine_may_anchor(ids, c->b[j]);
	if (!n)
		return;
	counts_alloc(t, n);
	for (size_t i = a0; i < a1; i++)
		if (c->fa[i] != ALIGN_NONE && fine_may_anchor(ids, c->a[i]))
			count_a(t, c->fa[i], i);
	for (size_t j = b0; j < b1; j++)
		if (c->fb[j] != ALIGN_NONE && fine_may_anchor(ids, c->b[j]))
			count_b(t, c->fb[j], j);
}

/* The element of b that a[i] anchors to (its id, or else its fine id,
 * once in each range), or ALIGN_NONE. */
static uint32_t anchor_of(const struct ctx *c, const struct counts *ids, const struct counts *fine, size_t i)
{
	const struct slot *s = slot_of(ids, c->a[i]);
	if (s->ca == 1 && s->cb == 1)
		return s->pb;
	if (!fine->slots || c->fa[i] == ALIGN_NONE || !fine_may_anchor(ids, c->a[i]))
		return ALIGN_NONE;
	s = slot_of(fine, c->fa[i]);
	return s->ca == 1 && s->cb == 1 ? s->pb : ALIGN_NONE;
}

static void align_range(struct ctx *c, size_t a0, size_t a1, size_t b0, size_t b1);

/* Longest increasing subsequence of anchor b-positions (anchors come in
 * a order), by patience sorting; recurse into the gaps between the kept
 * anchors.  Returns 0 when there are no anchors. */
static int anchor(struct ctx *c, size_t a0, size_t a1, size_t b0, size_t b1)
{
	size_t na = a1 - a0;
	struct counts ids, fine = { 0 };
	count_ids(&ids, c, a0, a1, b0, b1);
	if (c->fa)
		count_fine(&fine, &ids, c, a0, a1, b0, b1);
	uint32_t *pa = xmalloc(na * sizeof(*pa)), *pb = xmalloc(na * sizeof(*pb));
	size_t k = 0;
	for (size_t i = a0; i < a1; i++) {
		uint32_t j = anchor_of(c, &ids, &fine, i);
		if (j != ALIGN_NONE && c->a[i] == c->b[j]) {
			pa[k] = (uint32_t)i;
			pb[k++] = j;
		}
	}
	free(ids.slots);
	free(fine.slots);
	if (k == 0) {
		free(pa);
		free(pb);
		return 0;
	}
	/* tail[l] = index of the smallest b-end of an increasing run of
	 * length l+1; prev links runs back. */
	size_t *tail = xmalloc(k * sizeof(*tail)), *prev = xmalloc(k * sizeof(*prev)), len = 0;
	for (size_t x = 0; x < k; x++) {
		size_t lo = 0, hi = len;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (pb[tail[mid]] < pb[x])
				lo = mid + 1;
			else
				hi = mid;
		}
		prev[x] = lo ? tail[lo - 1] : SIZE_MAX;
		tail[lo] = x;
		if (lo == len)
			len++;
	}
	size_t *keep = xmalloc(len * sizeof(*keep));
	for (size_t x = tail[len - 1], l = len; l-- > 0; x = prev[x])
		keep[l] = x;
	size_t ca = a0, cb = b0;
	for (size_t l = 0; l < len; l++) {
		size_t i = pa[keep[l]], j = pb[keep[l]];
		align_range(c, ca, i, cb, j);
		match(c, i, j);
		ca = i + 1, cb = j + 1;
	}
	align_range(c, ca, a1, cb, b1);
	free(keep);
	free(tail);
	free(prev);
	free(pa);
	free(pb);
	return 1;
}

/* Whether a[i] and b[j] are one line: one id, and one fine id if any. */
static int same(const struct ctx *c, size_t i, size_t j)
{
	return c->a[i] == c->b[j] && (!c->fa || c->fa[i] == c->fb[j]);
}

/* A common head and tail are matched as they stand only where the lines
 * are one by their fine ids too: "Step a has finished" heading both
 * ranges is no match for "Step b has finished" when b's comes later. */
static void align_range(struct ctx *c, size_t a0, size_t a1, size_t b0, size_t b1)
{
	while (a0 < a1 && b0 < b1 && same(c, a0, b0))
		match(c, a0++, b0++);
	while (a0 < a1 && b0 < b1 && same(c, a1 - 1, b1 - 1))
		match(c, --a1, --b1);
	if (a0 == a1 || b0 == b1)
		return;
	if (anchor(c, a0, a1, b0, b1))
		return;
	if ((a1 - a0 + 1) * (b1 - b0 + 1) <= DP_CELLS) {
		if (!c->dp)
			c->dp = xmalloc(DP_CELLS * sizeof(*c->dp));
		lcs(c, a0, a1, b0, b1);
	}
	else
		greedy(c, a0, a1, b0, b1);
}

size_t align_seq(const uint32_t *a, size_t n, const uint32_t *b, size_t m,
		 const uint8_t *weight, uint32_t *ma)
{
	return align_seq_fine(a, NULL, n, b, NULL, m, weight, ma);
}

size_t align_seq_fine(const uint32_t *a, const uint32_t *fa, size_t n, const uint32_t *b,
		      const uint32_t *fb, size_t m, const uint8_t *weight, uint32_t *ma)
{
	struct ctx c = { .a = a, .b = b, .fa = fa && fb ? fa : NULL, .fb = fa && fb ? fb : NULL,
			 .weight = weight, .ma = ma };
	for (size_t i = 0; i < n; i++)
		ma[i] = ALIGN_NONE;
	align_range(&c, 0, n, 0, m);
	free(c.dp);
	return c.matches;
}

/* The lines of each stream, and their collapsed runs. */
struct runs {
	size_t *start;      /* per stream: first index into line[] */
	uint32_t *line;     /* line numbers grouped by stream, in order */
	/* filled per stream by collapse(): */
	uint32_t *id, *first, *len;
	size_t n;
};

/* All lines of lg as one stream. */
static void bucket_all(const struct align_log *lg, struct runs *r)
{
	r->start = xcalloc(2, sizeof(*r->start));
	r->start[1] = lg->n;
	r->line = xmalloc((lg->n ? lg->n : 1) * sizeof(*r->line));
	for (size_t i = 0; i < lg->n; i++)
		r->line[i] = (uint32_t)i;
	r->id = xmalloc((lg->n ? lg->n : 1) * sizeof(*r->id));
	r->first = xmalloc((lg->n ? lg->n : 1) * sizeof(*r->first));
	r->len = xmalloc((lg->n ? lg->n : 1) * sizeof(*r->len));
}

static void bucket(const struct align_log *lg, struct runs *r)
{
	r->start = xcalloc(lg->nstreams + 1, sizeof(*r->start));
	r->line = xmalloc((lg->n ? lg->n : 1) * sizeof(*r->line));
	for (size_t i = 0; i < lg->n; i++)
		r->start[lg->stream[i] + 1]++;
	for (size_t s = 0; s < lg->nstreams; s++)
		r->start[s + 1] += r->start[s];
	size_t *fill = xmalloc((lg->nstreams + 1) * sizeof(*fill));
	memcpy(fill, r->start, (lg->nstreams + 1) * sizeof(*fill));
	for (size_t i = 0; i < lg->n; i++)
		r->line[fill[lg->stream[i]]++] = (uint32_t)i;
	free(fill);
	r->id = xmalloc((lg->n ? lg->n : 1) * sizeof(*r->id));
	r->first = xmalloc((lg->n ? lg->n : 1) * sizeof(*r->first));
	r->len = xmalloc((lg->n ? lg->n : 1) * sizeof(*r->len));
}

/* Collapse stream s of lg into runs of one id and one fine id, leaving
 * out the lines of ids that weigh nothing: they stay unmatched, and the
 * lines on either side are aligned as if they were not there. */
static void collapse(const struct align_log *lg, struct runs *r, size_t s, const uint8_t *weight)
{
	r->n = 0;
	int gap = 0;
	for (size_t k = r->start[s]; k < r->start[s + 1]; k++) {
		uint32_t id = lg->id[r->line[k]];
		if (weight && !weight[id]) {
			gap = 1;
			continue;
		}
		if (r->n && r->id[r->n - 1] == id && !gap &&
		    (!lg->fine || lg->fine[r->line[k]] == lg->fine[r->line[r->first[r->n - 1]]])) {
			r->len[r->n - 1]++;
			continue;
		}
		gap = 0;
		r->id[r->n] = id;
		r->first[r->n] = (uint32_t)k;
		r->len[r->n++] = 1;
	}
}

static void runs_free(struct runs *r)
{
	free(r->start);
	free(r->line);
	free(r->id);
	free(r->first);
	free(r->len);
}

/* The fine ids of r's runs (the caller frees them), or NULL. */
static uint32_t *run_fine(const struct align_log *lg, const struct runs *r)
{
	if (!lg->fine)
		return NULL;
	uint32_t *f = xmalloc((r->n ? r->n : 1) * sizeof(*f));
	for (size_t x = 0; x < r->n; x++)
		f[x] = lg->fine[r->line[r->first[x]]];
	return f;
}

void align_logs(const struct align_log *a, const struct align_log *b,
		const uint32_t *smap, const uint8_t *weight, uint32_t *a2b)
{
	struct runs ra, rbs, rball, *rb;
	bucket(a, &ra);
	bucket(b, &rbs);
	bucket_all(b, &rball);
	uint32_t *ma = xmalloc((a->n ? a->n : 1) * sizeof(*ma));
	for (size_t i = 0; i < a->n; i++)
		a2b[i] = ALIGN_NONE;
	for (size_t s = 0; s < a->nstreams; s++) {
		if (ra.start[s] == ra.start[s + 1] || smap[s] == ALIGN_NONE ||
		    (smap[s] >= b->nstreams && smap[s] != ALIGN_ALL))
			continue;
		collapse(a, &ra, s, weight);
		rb = smap[s] == ALIGN_ALL ? &rball : &rbs;
		collapse(b, rb, smap[s] == ALIGN_ALL ? 0 : smap[s], weight);
		uint32_t *fa = run_fine(a, &ra), *fb = run_fine(b, rb);
		align_seq_fine(ra.id, fa, ra.n, rb->id, fb, rb->n, weight, ma);
		free(fa);
		free(fb);
		size_t lastmatch = 0;
		for (size_t x = 0; x < ra.n; x++)
			if (ma[x] != ALIGN_NONE)
				lastmatch = x;
		for (size_t x = 0; x < ra.n; x++) {
			if (ma[x] == ALIGN_NONE)
				continue;
			/* A finished run maps first to first and last to last; the
			 * stream's last run may be cut short (a stalled progress
			 * bar), so it maps line for line.  So does its last matched
			 * run when shorter than b's: a training loop killed at step
			 * 40 of 100 prints a kill notice that matches nothing. */
			size_t y = ma[x];
			int last = x + 1 == ra.n || (x == lastmatch && ra.len[x] < rb->len[y]);
			for (uint32_t k = 0; k < ra.len[x]; k++) {
				uint32_t kb = last || ra.len[x] == 1 ? k
					      : (uint32_t)((uint64_t)k * (rb->len[y] - 1) / (ra.len[x] - 1));
				if (kb >= rb->len[y])
					kb = rb->len[y] - 1;
				a2b[ra.line[ra.first[x] + k]] = rb->line[rb->first[y] + kb];
			}
		}
	}
	free(ma);
	runs_free(&ra);
	runs_free(&rbs);
	runs_free(&rball);
}
