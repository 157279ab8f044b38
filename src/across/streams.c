/* streams.c — rank and process streams.  See streams.h. */
#include "streams.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "prefix_record.h"
#include "util.h"

/* A tag that is only a rank written apart, "rank 1", "Rank: 1",
 * "rank=1", bracketed or not, as the one word torchrun writes, "rank1": a logger's tag and
 * torchrun's prefix on the same rank's traceback are one stream.  NULL
 * for any other tag. */
static char *joined_rank(const char *t)
{
	size_t n = strlen(t), k, d;
	if (n >= 2 && t[0] == '[' && t[n - 1] == ']')
		t++, n -= 2;
	if (!record_rank_name(t, n, &k, &d))
		return NULL;
	char *r = xasprintf("%.*s%.*s", (int)k, t, (int)(n - d), t + d);
	for (size_t i = 0; i < k; i++)
		r[i] = (char)tolower((unsigned char)r[i]);
	return r;
}

char *streams_norm_tag(const char *t)
{
	char *rank = joined_rank(t);
	if (rank)
		return rank;
	struct buf b = { 0 };
	while (*t) {
		while (*t == ' ' || *t == '(' || *t == ')' || *t == '[' || *t == ']')
			t++;
		const char *w = t;
		while (*t && *t != ' ' && *t != ')' && *t != ']')
			t++;
		size_t n = (size_t)(t - w);
		while (n && w[n - 1] == ',')
			n--;
		if (n == 0)
			continue;
		if (n > 4 && strncmp(w, "pid=", 4) == 0)
			continue;
		if (b.len)
			buf_putc(&b, ' ');
		buf_append(&b, w, n);
	}
	if (!b.p)
		buf_append(&b, "", 0);
	return b.p;
}

uint16_t streams_intern(char ***names, size_t *n, const char *name)
{
	for (size_t s = 0; s < *n; s++)
		if (strcmp((*names)[s], name) == 0)
			return (uint16_t)s;
	if (*n >= UINT16_MAX)
		return 0;
	*names = xrealloc(*names, (*n + 1) * sizeof(**names));
	(*names)[*n] = xstrdup(name);
	return (uint16_t)(*n)++;
}

/* The names compared without their digits: "TP3" -> "TP", to pair TP3 of
 * an 8-rank bad run with a rank of a 4-rank good one. */
int streams_same_kind(const char *a, const char *b)
{
	for (;;) {
		while (isdigit((unsigned char)*a))
			a++;
		while (isdigit((unsigned char)*b))
			b++;
		if (*a != *b)
			return 0;
		if (!*a)
			return 1;
		a++, b++;
	}
}

/* Names change between versions: vLLM's EngineCore_DP0 became EngineCore,
 * workers gained a _TPn; hence pairing by shared templates first. */
void streams_map(const struct align_log *bad, const struct align_log *good,
		 const uint8_t *good_has, const uint32_t *good_cnt, size_t nc,
		 char *const *names, uint32_t *smap)
{
	size_t ns = bad->nstreams;
	const uint8_t *gh = good_has;
	uint64_t *in = xcalloc(nc ? nc : 1, sizeof(*in));     /* good streams holding c */
	for (size_t j = 0; j < good->n; j++)
		if (good->stream[j] < 64)
			in[good->id[j]] |= 1ull << good->stream[j];
	/* Distinct (stream, template) pairs of bad, counted once each. */
	uint64_t *done = xcalloc(nc ? nc : 1, sizeof(*done));
	uint32_t *score = xcalloc(ns * (ns < 64 ? ns : 64), sizeof(*score));
	size_t w = ns < 64 ? ns : 64;
	for (size_t i = 0; i < bad->n; i++) {
		uint16_t s = bad->stream[i];
		uint32_t c = bad->id[i];
		if (s >= 64 || (done[c] >> s & 1))
			continue;
		done[c] |= 1ull << s;
		for (uint64_t m = in[c]; m; m &= m - 1)
			score[s * w + (size_t)__builtin_ctzll(m)]++;
	}
	/* total[s]: bad stream s's templates that good has at all. */
	uint32_t *total = xcalloc(ns, sizeof(*total));
	size_t gstreams = 0;
	for (size_t t = 0; t < ns; t++)
		gstreams += gh[t];
	for (size_t c = 0; c < nc; c++)
		if (good_cnt[c])
			for (uint64_t m = done[c]; m; m &= m - 1)
				total[__builtin_ctzll(m)]++;
	for (size_t s = 0; s < ns; s++) {
		smap[s] = ALIGN_NONE;
		uint32_t best = 0;
		for (size_t t = 0; t < w && s < 64; t++) {
			uint32_t x = score[s * w + t];
			if (!gh[t] || x < best || x == 0)
				continue;
			if (x == best && smap[s] != ALIGN_NONE) {
				const char *cur = names[smap[s]];
				if (strcmp(cur, names[s]) == 0)
					continue;
				if (strcmp(names[t], names[s]) != 0 &&
				    (streams_same_kind(cur, names[s]) || !streams_same_kind(names[t], names[s])))
					continue;
			}
			best = x;
			smap[s] = (uint32_t)t;
		}
		/* One bad stream whose lines good spreads over processes (an
		 * untagged v0.8 log against a v0.19 one with APIServer,
		 * EngineCore and Worker tags) is aligned with all of good. */
		if (s < 64 && gstreams > 1 && total[s] >= 4 && 10 * best < 6 * total[s])
			smap[s] = ALIGN_ALL;
		if (smap[s] == ALIGN_NONE && gh[s])
			smap[s] = (uint32_t)s;
		for (size_t t = 0; t < ns && smap[s] == ALIGN_NONE; t++)
			if (gh[t] && streams_same_kind(names[s], names[t]))
				smap[s] = (uint32_t)t;
		if (smap[s] == ALIGN_NONE && gh[0])
			smap[s] = 0;
	}
	free(in);
	free(done);
	free(score);
	free(total);
}

static int rank_cmp(const void *x, const void *y)
{
	return natcmp(((const struct dx_rank *)x)->name, ((const struct dx_rank *)y)->name);
}

uint8_t *streams_shared(const struct align_log *good, const uint8_t *only, size_t nc)
{
	size_t ns = good->nstreams, tagged = 0;
	uint8_t *has = xcalloc(ns ? ns : 1, 1);
	uint32_t *by = xcalloc(nc ? nc : 1, sizeof(*by));
	uint8_t *seen = xcalloc((nc ? nc : 1) * (ns ? ns : 1), 1);
	for (size_t j = 0; j < good->n; j++) {
		uint16_t s = good->stream[j];
		uint32_t c = good->id[j];
		if (s == 0 || (only && !only[c]))
			continue;
		tagged += !has[s];
		has[s] = 1;
		if (!seen[(size_t)c * ns + s]++)
			by[c]++;
	}
	uint8_t *shared = xmalloc(nc ? nc : 1);
	for (size_t c = 0; c < nc; c++)
		shared[c] = (!only || only[c]) && (tagged <= 1 || by[c] == 0 || by[c] == tagged);
	free(has);
	free(by);
	free(seen);
	return shared;
}

void streams_rank_progress(const struct align_log *bad, const struct align_log *good, size_t nc,
			   char *const *names, const uint8_t *follow, const uint8_t *step,
			   const uint8_t *new_error, struct diagnosis *d)
{
	size_t ns = bad->nstreams;
	uint8_t *shared = streams_shared(good, step, nc);
	struct dx_rank *r = xcalloc(ns ? ns : 1, sizeof(*r));
	for (size_t s = 0; s < ns; s++)
		r[s] = (struct dx_rank){ .name = names[s], .last_line = DX_NONE, .last_follow = DX_NONE,
					 .last_milestone = DX_NONE, .first_error = DX_NONE };
	for (size_t i = 0; i < bad->n; i++) {
		uint16_t s = bad->stream[i];
		uint32_t c = bad->id[i];
		r[s].last_line = (int64_t)i;
		if (follow[i]) {
			r[s].last_follow = (int64_t)i;
			if (shared[c])
				r[s].last_milestone = (int64_t)i;
		}
		if (new_error[c]) {
			if (r[s].errors++ == 0)
				r[s].first_error = (int64_t)i;
		}
	}
	/* Traceback bodies are untagged: charge them to the rank that
	 * started the traceback. */
	for (size_t k = 0; k < d->nnovel; k++) {
		struct dx_novel *nv = &d->novel[k];
		uint16_t s = bad->stream[nv->line];
		if (!nv->traceback || s == 0)
			continue;
		if (r[s].first_error == DX_NONE || r[s].first_error > nv->line)
			r[s].first_error = nv->line;
		if (!r[s].errors)
			r[s].errors = 1;
	}
	free(shared);
	d->ranks = xcalloc(ns ? ns : 1, sizeof(*d->ranks));
	for (size_t s = 1; s < ns; s++)
		if (r[s].last_line != DX_NONE)
			d->ranks[d->nranks++] = r[s];
	free(r);
	if (d->nranks)
		qsort(d->ranks, d->nranks, sizeof(*d->ranks), rank_cmp);
	d->ranks_alike = d->nranks > 1;
	for (size_t k = 1; k < d->nranks; k++)
		if (!streams_same_kind(d->ranks[0].name, d->ranks[k].name))
			d->ranks_alike = 0;
	d->ranks_same = d->nranks > 1;
	for (size_t k = 1; k < d->nranks && d->ranks_same; k++) {
		const struct dx_rank *a = &d->ranks[0], *b = &d->ranks[k];
		const uint32_t *id = bad->id;
		if ((a->last_milestone < 0) != (b->last_milestone < 0) ||
		    (a->last_milestone >= 0 && id[a->last_milestone] != id[b->last_milestone]) ||
		    id[a->last_line] != id[b->last_line] || a->errors || b->errors)
			d->ranks_same = 0;
	}
}
