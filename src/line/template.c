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

/* The slot holding (level, text), or the empty slot where it would go. */
static size_t probe(const struct tmpl_table *tt, const char *text, size_t len, int level,
		    uint64_t hash)
{
	size_t mask = tt->nslots - 1;
	size_t i = hash & mask;
	for (;;) {
		uint32_t s = tt->slots[i];
		if (!s)
			return i;
		const struct tmpl *t = &tt->t[s - 1];
		if (t->hash == hash && t->len == len && t->level == level &&
		    memcmp(t->text, text, len) == 0)
			return i;
		i = (i + 1) & mask;
	}
}

uint32_t tmpl_find(const struct tmpl_table *tt, const char *text, size_t len, int level,
		   uint64_t hash)
{
	uint32_t s = tt->slots[probe(tt, text, len, level, hash)];
	return s ? s - 1 : TMPL_NONE;
}

uint32_t tmpl_intern(struct tmpl_table *tt, const char *text, size_t len, int level, uint64_t hash)
{
	size_t i = probe(tt, text, len, level, hash);
	if (tt->slots[i])
		return tt->slots[i] - 1;
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
 * token count.  Within a bucket, templates are taken in id order and each
 * joins the most similar cluster, as in Drain, if at least SIM_MIN of
 * their constant tokens agree; positions where members differ become
 * variable.  A constant token is one with a word besides placeholders:
 * "port=<int>" is, "<int>," is not.
 *
 * Similarity alone would merge "Load weight begin." with "Load weight
 * end.": a word that marks a step differs in one token exactly like a user
 * name does.  What tells them apart is how many values the position takes:
 * a user name takes many, a step marker two or three (begin/end,
 * Paused/Resumed/Stopped).  So a cluster is then split again on every
 * variable position that holds at most STEP_VALUES distinct plain tokens,
 * in lines short enough for one word to name the event.  A position whose
 * tokens are all a program's state names (state_name: WORKER_STARTED,
 * WORKER_MODEL_LOADED) names the step however many states it has, up to
 * STATE_VALUES: "State change WORKER_STARTED -> WORKER_MODEL_LOADED" is
 * the step the model loaded in, not one more state change.  So does a
 * position of capitalised verbs (action_word: Initializing, Starting,
 * Pausing, Stopping; Started, Stopped): "Starting ProtocolHandler [x]"
 * is not the step "Stopping ProtocolHandler [x]" is.
 */

#define SIM_MIN 0.5
#define STEP_VALUES 3
#define STATE_VALUES 16
/* In a longer line one differing word is a parameter of the event
 * ("disable_cuda_graph=False" in a 100-word configuration dump), not the
 * event itself. */
#define STEP_MAX_TOKENS 16
/* A template is compared with at most this many clusters of its bucket
 * (the latest ones), which bounds the work on logs whose templates do not
 * cluster at all; ordinary logs have far fewer clusters per bucket. */
#define MAX_COMPARE 1024

struct tok {
	uint32_t off, len;
	uint64_t h;
	uint8_t masked;        /* only placeholders and punctuation */
	uint8_t plain;         /* no placeholder at all */
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

/* Is the token nothing but placeholders and punctuation ("<id>",
 * "[<ip>]:<int>,")?  "core.<id>" and "port=<int>" still have words. */
static int only_placeholders(const char *s, size_t n)
{
	int any = 0, in = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '<')
			in = any = 1;
		else if (s[i] == '>')
			in = 0;
		else if (!in && ((unsigned)((s[i] | 32) - 'a') < 26 || (unsigned char)s[i] >= 0x80))
			return 0;
	}
	return any;
}

static void tokenize(struct ctx *cx)
{
	size_t ntotal = 0, cap = 0;
	/* Never NULL, even with no tokens at all: cx->tok + 0 on a NULL
	 * pointer is undefined behaviour. */
	GROW(cx->tok, cap, 1);
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
			cx->tok[ntotal++] = (struct tok){ b, i - b, hash_bytes(t->text + b, i - b),
							  only_placeholders(t->text + b, i - b),
							  !memchr(t->text + b, '<', i - b) };
			n++;
		}
		cx->ntok[id] = n;
	}
}

/* Sort ids by key, then id: keeps each bucket in first-occurrence order. */
static int by_key(const void *a, const void *b, void *keys)
{
	const uint64_t *k = keys;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	if (k[x] != k[y])
		return k[x] < k[y] ? -1 : 1;
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
	uint8_t *masked;       /* positions holding only placeholders */
};

/* How alike cluster c and template t are: the constant tokens they
 * share, against the larger of their constant token counts.  Pure
 * placeholders count neither way: "<*> <id>" must not join any two-word
 * line, and a line with many numbers is as similar as its words are.
 * Returns the share, or -1 if too low to join. */
static double similar(const struct cluster *c, const struct tok *t)
{
	size_t same = 0, tconst = 0, cconst = 0;
	for (uint32_t p = 0; p < c->ntok; p++) {
		tconst += !t[p].masked;
		cconst += !c->wild[p] && !c->masked[p];
		same += !c->wild[p] && !t[p].masked && c->h[p] == t[p].h;
	}
	size_t most = tconst > cconst ? tconst : cconst;
	if (most == 0)
		return 1;   /* only placeholders on both sides */
	double sim = (double)same / (double)most;
	return same && sim >= SIM_MIN ? sim : -1;
}

/* Greedy Drain-like pass over one bucket: ids[0..n) in id order. */
static size_t group(struct ctx *cx, const uint32_t *ids, size_t n, struct cluster **cl, size_t *cap, struct arena *a)
{
	size_t nc = 0;
	for (size_t k = 0; k < n; k++) {
		uint32_t id = ids[k], nt = cx->ntok[id];
		const struct tok *t = cx->tok + cx->base[id];
		size_t best = NONE;
		double best_sim = -1;
		/* Latest clusters first; a tie goes to the older one. */
		for (size_t c = nc; c-- > (nc > MAX_COMPARE ? nc - MAX_COMPARE : 0); ) {
			double sim = similar(&(*cl)[c], t);
			if (sim >= 0 && sim >= best_sim)
				best = c, best_sim = sim;
		}
		cx->next[id] = NONE;
		if (best != NONE) {
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
		c->masked = arena_alloc(a, nt + 1);
		for (uint32_t p = 0; p < nt; p++) {
			c->h[p] = t[p].h;
			c->wild[p] = 0;
			c->masked[p] = t[p].masked;
		}
	}
	return nc;
}

/* Whether token t is a number mask kept in the text ("0", "0;", "137",
 * a key's "failed=0"):
 * an exit status or a count of zero failures, which says what the line
 * reports. */
static int kept_number(const struct tmpl *tm, const struct tok *t)
{
	int digit = 0;
	uint32_t from = 0;
	const char *eq = memchr(tm->text + t->off, '=', t->len);
	if (eq)
		from = (uint32_t)(eq - (tm->text + t->off)) + 1;   /* Ansible's "failed=0" */
	for (uint32_t i = from; i < t->len; i++) {
		char ch = tm->text[t->off + i];
		if ((unsigned)((ch | 32) - 'a') < 26 || ch == '<')
			return 0;
		digit |= ch >= '0' && ch <= '9';
	}
	return digit;
}

/* Whether token t is a state's name, an enum constant's shape: capitals
 * and digits in two or more words joined by '_' ("WORKER_MODEL_LOADED",
 * "TASK_RUNNING,"), a trailing comma or period aside. */
static int state_name(const struct tmpl *tm, const struct tok *t)
{
	uint32_t n = t->len, caps = 0, joins = 0;
	const char *s = tm->text + t->off;
	if (n > 1 && (s[n - 1] == ',' || s[n - 1] == '.'))
		n--;
	for (uint32_t i = 0; i < n; i++) {
		char ch = s[i];
		if (ch >= 'A' && ch <= 'Z')
			caps++;
		else if (ch == '_' && i > 0 && i + 1 < n && s[i - 1] != '_')
			joins++;
		else if (ch < '0' || ch > '9')
			return 0;
	}
	return joins > 0 && caps >= 2;
}

/* Whether token t is a capitalised verb that names an action, as its
 * "-ing" or "-ed" says: "Starting", "Stopping", "Initialized", a
 * trailing ':' or '.' aside.  At least five letters: no short name
 * ("Fred", "Bing") ends so by chance. */
static int action_word(const struct tmpl *tm, const struct tok *t)
{
	uint32_t n = t->len;
	const char *s = tm->text + t->off;
	if (n > 1 && (s[n - 1] == ':' || s[n - 1] == '.'))
		n--;
	if (n < 5 || s[0] < 'A' || s[0] > 'Z')
		return 0;
	for (uint32_t i = 1; i < n; i++)
		if (s[i] < 'a' || s[i] > 'z')
			return 0;
	return (s[n - 3] == 'i' && s[n - 2] == 'n' && s[n - 1] == 'g') ||
	       (s[n - 2] == 'e' && s[n - 1] == 'd');
}

/* Whether the n bytes at s hold a letter: a step's marker is a word. */
static int has_letter(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned)((s[i] | 32) - 'a') < 26 || (unsigned char)s[i] >= 0x80)
			return 1;
	return 0;
}

/* Split cluster c on its step positions, those holding at most
 * STEP_VALUES distinct plain tokens: tokens that read as words of the
 * message ("end.", "user=root", "isOverlap:false", "SOCKS5"), for mask
 * found no number or identifier in them; or a number mask kept
 * (kept_number) beside masked ones: "0 failed" is no "<int> failed",
 * in a line of any length; or up to STATE_VALUES state names or action words, in a short
 * line.  Members get key = hash of their tokens there; returns 1 if there
 * is any such position. */
static int step_keys(struct ctx *cx, const struct cluster *c)
{
	int any = 0, long_line = c->ntok > STEP_MAX_TOKENS;
	for (uint32_t id = c->head; id != NONE; id = cx->next[id])
		cx->key[id] = 0;
	for (uint32_t p = 0; p < c->ntok; p++) {
		if (!c->wild[p])
			continue;
		uint64_t vals[STATE_VALUES];
		size_t nv = 0;
		int step = 1, masked = 0, kept = 0, states = 1;
		for (uint32_t id = c->head; id != NONE && step; id = cx->next[id]) {
			const struct tok *t = cx->tok + cx->base[id] + p;
			int number = t->plain && kept_number(&cx->tt->t[id], t);
			if (!t->plain || (!number && !has_letter(cx->tt->t[id].text + t->off, t->len))) {
				masked = 1;   /* a value, or an empty "[]" where one was */
				continue;
			}
			kept |= number;
			states = states && (state_name(&cx->tt->t[id], t) || action_word(&cx->tt->t[id], t));
			size_t v = 0;
			while (v < nv && vals[v] != t->h)
				v++;
			if (v == nv) {
				if (nv == (states ? STATE_VALUES : STEP_VALUES))
					step = 0;
				else
					vals[nv++] = t->h;
			}
		}
		if (!step || (!states && nv > STEP_VALUES) || ((masked || long_line) && !kept))
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
	qsort_r(order, n, sizeof(*order), by_key, cx.key);

	/* heads[] collects every final cluster by its first member. */
	uint32_t *heads = xmalloc((n ? n : 1) * sizeof(*heads));
	size_t nheads = 0, cap = 0;
	struct cluster *cl = NULL;
	struct arena scratch = { 0 };
	for (size_t a = 0, b; a < n; a = b) {
		for (b = a + 1; b < n && cx.key[order[b]] == cx.key[order[a]]; b++)
			;
		size_t nc = group(&cx, order + a, b - a, &cl, &cap, &scratch);
		for (size_t c = 0; c < nc; c++) {
			if (!step_keys(&cx, &cl[c])) {
				heads[nheads++] = cl[c].head;
				continue;
			}
			/* One cluster per step key, members relinked in id order
			 * (order[a..b) is free again: the bucket is grouped). */
			uint32_t *mem = order + a;
			size_t m = 0;
			for (uint32_t id = cl[c].head; id != NONE; id = cx.next[id])
				mem[m++] = id;
			qsort_r(mem, m, sizeof(*mem), by_key, cx.key);
			for (size_t k = 0; k < m; k++) {
				uint32_t id = mem[k];
				int last = k + 1 == m || cx.key[mem[k + 1]] != cx.key[id];
				if (k == 0 || cx.key[mem[k - 1]] != cx.key[id])
					heads[nheads++] = id;
				cx.next[id] = last ? NONE : mem[k + 1];
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
