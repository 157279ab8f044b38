/* template.c — interning masked messages and clustering them.  See
 * template.h. */
#include "template.h"

#include <stdlib.h>
#include <string.h>

void tmpl_init(struct tmpl_table *tt)
{
	memset(tt, 0, sizeof(*tt));
	tt->nslots = 1024;
	tt->slots = xcalloc(tt->nslots, sizeof(*tt->slots));
}

void tmpl_free(struct tmpl_table *tt)
{
	if (!tt)
		return;
	free(tt->t);
	free(tt->slots);
	arena_free(&tt->arena);
	memset(tt, 0, sizeof(*tt));
}

uint64_t tmpl_hash(const char *text, size_t len, int level)
{
	return hash_bytes(text, len) ^ ((uint64_t)level * 0x9e3779b97f4a7c15ull);
}

static void rehash(struct tmpl_table *tt)
{
	size_t n = tt->nslots * 2;
	uint32_t *s = xcalloc(n, sizeof(*s));
	for (size_t id = 0; id < tt->n; id++) {
		size_t i = tt->t[id].hash & (n - 1);
		while (s[i])
			i = (i + 1) & (n - 1);
		s[i] = (uint32_t)id + 1;
	}
	free(tt->slots);
	tt->slots = s;
	tt->nslots = n;
}

uint32_t tmpl_intern(struct tmpl_table *tt, const char *text, size_t len, int level, uint64_t hash)
{
	size_t mask = tt->nslots - 1;
	size_t i = hash & mask;
	for (;;) {
		uint32_t s = tt->slots[i];
		if (!s)
			break;
		struct tmpl *t = &tt->t[s - 1];
		if (t->hash == hash && t->len == len && t->level == level &&
		    memcmp(t->text, text, len) == 0)
			return s - 1;
		i = (i + 1) & mask;
	}
	if (tt->n >= UINT32_MAX - 1)
		die("too many distinct templates (more than 2^32)");
	GROW(tt->t, tt->cap, tt->n + 1);
	uint32_t id = (uint32_t)tt->n++;
	struct tmpl *t = &tt->t[id];
	t->text = arena_strndup(&tt->arena, text, len);
	t->len = (uint32_t)len;
	t->level = (uint8_t)level;
	t->hash = hash;
	t->count = 0;
	t->first_line = 0;
	t->first_file = 0;
	tt->slots[i] = id + 1;
	/* Keep the load under one half: probes stay short. */
	if (tt->n * 2 > tt->nslots)
		rehash(tt);
	return id;
}

/*
 * Clustering.
 *
 * Templates are split into whitespace tokens and bucketed by level and
 * token count (a bucket too big to compare within is split further by its
 * first token).  Within a bucket, templates are taken in id order and each
 * joins the most similar cluster (the share of its tokens equal to the
 * cluster's constant tokens) if that share reaches SIM_MIN, as Drain does;
 * positions where members differ become variable.
 *
 * Similarity alone would merge "Load weight begin." with "Load weight
 * end.": a word that marks a step differs in one token exactly like a user
 * name does.  What tells them apart is how many values the position takes:
 * a user name takes many, a step marker two.  So a cluster is then split
 * again on every variable position that holds at most STEP_VALUES distinct
 * plain words.
 */

#define SIM_MIN 0.5
#define STEP_VALUES 4
/* In a longer line one differing word is a parameter of the event
 * ("disable_cuda_graph=False" in a 100-word configuration dump), not the
 * event itself. */
#define STEP_MAX_TOKENS 16
/* Buckets bigger than this are split by their first token, which bounds
 * the pairwise comparisons on logs with very many distinct templates. */
#define BIG_BUCKET 2048

struct tok {
	uint32_t off, len;
	uint64_t h;
};

struct ctx {
	const struct tmpl_table *tt;
	struct tok *tok;       /* all tokens, template by template */
	size_t *base;          /* tok index of each template's first token */
	uint32_t *ntok;
	uint64_t *key;         /* sort key of each template */
	uint32_t *next;        /* next member of the same cluster, or NONE */
};

#define NONE UINT32_MAX

static int is_blank(char c) { return c == ' ' || c == '\t'; }

static void tokenize(struct ctx *cx)
{
	size_t ntotal = 0, cap = 0;
	for (size_t id = 0; id < cx->tt->n; id++) {
		const struct tmpl *t = &cx->tt->t[id];
		cx->base[id] = ntotal;
		uint32_t i = 0, n = 0;
		while (i < t->len) {
			while (i < t->len && is_blank(t->text[i]))
				i++;
			if (i == t->len)
				break;
			uint32_t b = i;
			while (i < t->len && !is_blank(t->text[i]))
				i++;
			GROW(cx->tok, cap, ntotal + 1);
			cx->tok[ntotal++] = (struct tok){ b, i - b, hash_bytes(t->text + b, i - b) };
			n++;
		}
		cx->ntok[id] = n;
	}
}

/* Sort by key, then id: keeps each bucket in first-occurrence order. */
static const uint64_t *sort_keys;
static int by_key(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	if (sort_keys[x] != sort_keys[y])
		return sort_keys[x] < sort_keys[y] ? -1 : 1;
	return x < y ? -1 : x > y;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

struct cluster {
	uint32_t head, tail;   /* members, linked by ctx.next, in id order */
	uint32_t ntok;
	uint64_t *h;           /* token hashes of the first member */
	uint8_t *wild;         /* positions where members differ */
};

static size_t similar(const struct cluster *c, const struct tok *t)
{
	size_t same = 0;
	for (uint32_t p = 0; p < c->ntok; p++)
		same += !c->wild[p] && c->h[p] == t[p].h;
	return same;
}

/* A token that reads as words of the message rather than as a value: no
 * placeholder ("end.", "user=root", "isOverlap:false", "SOCKS5"); mask
 * decided already that it holds no number or identifier. */
static int plain_token(const struct tmpl_table *tt, uint32_t id, const struct tok *t)
{
	return !memchr(tt->t[id].text + t->off, '<', t->len);
}

/* Greedy Drain-like pass over one bucket: ids[0..n) in id order. */
static size_t group(struct ctx *cx, const uint32_t *ids, size_t n, struct cluster **cl, size_t *cap, struct arena *a)
{
	size_t nc = 0;
	for (size_t k = 0; k < n; k++) {
		uint32_t id = ids[k], nt = cx->ntok[id];
		const struct tok *t = cx->tok + cx->base[id];
		size_t best = NONE, best_same = 0;
		for (size_t c = 0; c < nc; c++) {
			size_t same = similar(&(*cl)[c], t);
			if (best == NONE || same > best_same)
				best = c, best_same = same;
		}
		cx->next[id] = NONE;
		if (best != NONE && best_same >= SIM_MIN * nt) {
			struct cluster *c = &(*cl)[best];
			for (uint32_t p = 0; p < nt; p++)
				if (c->h[p] != t[p].h)
					c->wild[p] = 1;
			cx->next[c->tail] = id;
			c->tail = id;
			continue;
		}
		GROW(*cl, *cap, nc + 1);
		struct cluster *c = &(*cl)[nc++];
		c->head = c->tail = id;
		c->ntok = nt;
		c->h = arena_alloc(a, nt * sizeof(*c->h) + 1);
		c->wild = arena_alloc(a, nt + 1);
		for (uint32_t p = 0; p < nt; p++) {
			c->h[p] = t[p].h;
			c->wild[p] = 0;
		}
	}
	return nc;
}

/* Split cluster c on its step positions: members get key = hash of their
 * tokens there; returns 1 if there is any such position. */
static int step_keys(struct ctx *cx, const struct cluster *c)
{
	int any = 0;
	if (c->ntok > STEP_MAX_TOKENS)
		return 0;
	for (uint32_t id = c->head; id != NONE; id = cx->next[id])
		cx->key[id] = 0;
	for (uint32_t p = 0; p < c->ntok; p++) {
		if (!c->wild[p])
			continue;
		uint64_t vals[STEP_VALUES];
		size_t nv = 0;
		int step = 1;
		for (uint32_t id = c->head; id != NONE && step; id = cx->next[id]) {
			const struct tok *t = cx->tok + cx->base[id] + p;
			size_t v = 0;
			while (v < nv && vals[v] != t->h)
				v++;
			if (v == nv) {
				if (nv == STEP_VALUES || !plain_token(cx->tt, id, t))
					step = 0;
				else
					vals[nv++] = t->h;
			}
		}
		if (!step)
			continue;
		any = 1;
		for (uint32_t id = c->head; id != NONE; id = cx->next[id])
			cx->key[id] = (cx->key[id] ^ cx->tok[cx->base[id] + p].h) * 0x9e3779b97f4a7c15ull + p;
	}
	return any;
}

/* The text of the cluster whose members are listed from head: the first
 * member's text with <*> where members differ. */
static const char *cluster_text(struct ctx *cx, uint32_t head, struct buf *b, struct arena *a)
{
	const struct tmpl *t0 = &cx->tt->t[head];
	const struct tok *t = cx->tok + cx->base[head];
	uint32_t nt = cx->ntok[head], last = 0;
	if (cx->next[head] == NONE)
		return t0->text;
	buf_reset(b);
	for (uint32_t p = 0; p < nt; p++) {
		int wild = 0;
		for (uint32_t id = cx->next[head]; id != NONE && !wild; id = cx->next[id])
			wild = cx->tok[cx->base[id] + p].h != t[p].h;
		if (!wild)
			continue;
		buf_append(b, t0->text + last, t[p].off - last);
		buf_append(b, "<*>", 3);
		last = t[p].off + t[p].len;
	}
	buf_append(b, t0->text + last, t0->len - last);
	return arena_strndup(a, b->p, b->len);
}

size_t tmpl_cluster(struct tmpl_table *tt, uint32_t *map, const char ***texts)
{
	size_t n = tt->n;
	struct ctx cx = { .tt = tt };
	cx.base = xmalloc((n ? n : 1) * sizeof(*cx.base));
	cx.ntok = xmalloc((n ? n : 1) * sizeof(*cx.ntok));
	cx.key = xmalloc((n ? n : 1) * sizeof(*cx.key));
	cx.next = xmalloc((n ? n : 1) * sizeof(*cx.next));
	uint32_t *order = xmalloc((n ? n : 1) * sizeof(*order));
	tokenize(&cx);

	for (size_t id = 0; id < n; id++) {
		order[id] = (uint32_t)id;
		cx.key[id] = (uint64_t)tt->t[id].level << 56 | (uint64_t)cx.ntok[id] << 24;
	}
	sort_keys = cx.key;
	qsort(order, n, sizeof(*order), by_key);

	/* heads[] collects every final cluster by its first member. */
	uint32_t *heads = xmalloc((n ? n : 1) * sizeof(*heads));
	size_t nheads = 0, cap = 0;
	struct cluster *cl = NULL;
	struct arena scratch = { 0 };
	for (size_t a = 0, b; a < n; a = b) {
		for (b = a + 1; b < n && cx.key[order[b]] == cx.key[order[a]]; b++)
			;
		if (b - a > BIG_BUCKET) {
			/* Sub-buckets by first token; the key keeps level and count. */
			for (size_t k = a; k < b; k++) {
				uint32_t id = order[k];
				uint64_t h = cx.ntok[id] ? cx.tok[cx.base[id]].h : 0;
				cx.key[id] = (cx.key[id] & ~0xffffffull) | (h & 0xffffff);
			}
			qsort(order + a, b - a, sizeof(*order), by_key);
		}
		for (size_t s = a, e; s < b; s = e) {
			for (e = s + 1; e < b && cx.key[order[e]] == cx.key[order[s]]; e++)
				;
			size_t nc = group(&cx, order + s, e - s, &cl, &cap, &scratch);
			for (size_t c = 0; c < nc; c++) {
				if (!step_keys(&cx, &cl[c])) {
					heads[nheads++] = cl[c].head;
					continue;
				}
				/* Relink members into one list per step key. */
				size_t m = 0;
				for (uint32_t id = cl[c].head; id != NONE; id = cx.next[id])
					order[s + m++] = id;   /* this sub-range is done with */
				qsort(order + s, m, sizeof(*order), by_key);
				for (size_t k = 0; k < m; k++) {
					uint32_t id = order[s + k];
					if (k == 0 || cx.key[id] != cx.key[order[s + k - 1]])
						heads[nheads++] = id;
					cx.next[id] = k + 1 < m && cx.key[order[s + k + 1]] == cx.key[id] ? order[s + k + 1] : NONE;
				}
			}
		}
	}
	free(cl);
	arena_free(&scratch);

	/* Number clusters by their first member, i.e. by first occurrence. */
	qsort(heads, nheads, sizeof(*heads), cmp_u32);
	const char **tx = xmalloc((nheads ? nheads : 1) * sizeof(*tx));
	struct buf b = { 0 };
	for (size_t c = 0; c < nheads; c++) {
		for (uint32_t id = heads[c]; id != NONE; id = cx.next[id])
			map[id] = (uint32_t)c;
		tx[c] = cluster_text(&cx, heads[c], &b, &tt->arena);
	}
	buf_free(&b);
	*texts = tx;
	free(heads);
	free(order);
	free(cx.tok);
	free(cx.base);
	free(cx.ntok);
	free(cx.key);
	free(cx.next);
	return nheads;
}
