/* timeline.c — the milestone timeline of one log.  See timeline.h. */
#include "timeline.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

static char **family_keys;   /* for cmp_keys: qsort has no context */

static int cmp_keys(const void *a, const void *b)
{
	return strcmp(family_keys[*(const size_t *)a], family_keys[*(const size_t *)b]);
}

/* Tags that differ only in their digits ("TP3", "TP7"; "Worker pid=41",
 * "Worker pid=57") are ranks of one kind; the untagged lines are a kind of
 * their own.  Sorting the digit-less keys finds the kinds in n log n. */
static void make_families(struct timeline *tl)
{
	const struct log *lg = tl->lg;
	char **keys = xcalloc(tl->ntags, sizeof(*keys));
	size_t *idx = xmalloc(tl->ntags * sizeof(*idx));
	tl->family = xcalloc(tl->ntags, sizeof(*tl->family));
	for (size_t t = 1; t < tl->ntags; t++) {
		keys[t] = xstrdup(lg->tags[t]);
		for (char *p = keys[t]; *p; p++)
			if (*p >= '0' && *p <= '9')
				*p = '#';
		idx[t - 1] = t;
	}
	family_keys = keys;
	qsort(idx, tl->ntags - 1, sizeof(*idx), cmp_keys);
	for (size_t i = 0; i + 1 < tl->ntags; i++)
		tl->family[idx[i]] = i > 0 && strcmp(keys[idx[i]], keys[idx[i - 1]]) == 0
			? tl->family[idx[i - 1]] : (uint32_t)(i + 1);
	for (size_t t = 1; t < tl->ntags; t++)
		free(keys[t]);
	free(keys);
	free(idx);
}

/* Which tags are expected to print row w: those of the kinds of the tags
 * that did. */
static void find_expected(struct timeline *tl, struct timeline_row *w)
{
	uint8_t *hit = xcalloc(tl->ntags, 1);
	for (size_t t = 0; t < tl->ntags; t++)
		if (w->tag_first[t] != SIZE_MAX)
			hit[tl->family[t]] = 1;
	w->expected = xmalloc(tl->ntags);
	for (size_t t = 0; t < tl->ntags; t++) {
		w->expected[t] = hit[tl->family[t]];
		w->total += w->expected[t];
	}
	free(hit);
}

size_t timeline_tag_at(const struct timeline *tl, size_t i)
{
	return i == 0 ? 0 : tl->order[i - 1];
}

static const struct log *sort_log;   /* for cmp_tags: qsort has no context */

static int cmp_tags(const void *a, const void *b)
{
	return natcmp(sort_log->tags[*(const size_t *)a], sort_log->tags[*(const size_t *)b]);
}

const char *timeline_main_engine(const struct ruleset *rs, const int32_t *rule, size_t n)
{
	const char *best = NULL;
	size_t most = 0;
	for (size_t k = 0; k < n; k++) {
		if (rule[k] < 0)
			continue;
		const char *e = rs->r[rule[k]].engine;
		size_t count = 0;
		for (size_t j = 0; j < n; j++)
			count += rule[j] >= 0 && strcmp(rs->r[rule[j]].engine, e) == 0;
		if (count > most)
			best = e, most = count;
	}
	return best;
}

size_t timeline_up(const struct ruleset *rs, const int32_t *rule, size_t n)
{
	const char *main = timeline_main_engine(rs, rule, n);
	int main_has_final = 0, failed = 0;
	for (size_t i = 0; main && i < rs->n; i++)
		main_has_final |= rs->r[i].final && strcmp(rs->r[i].engine, main) == 0;
	for (size_t k = 0; k < n; k++)
		failed |= rule[k] >= 0 && rs->r[rule[k]].fail;
	size_t up = SIZE_MAX;
	for (size_t k = 0; k < n; k++) {
		if (rule[k] < 0)
			continue;
		const struct rule *r = &rs->r[rule[k]];
		if (r->final && !(r->done && failed) &&
		    (!main_has_final || strcmp(r->engine, main) == 0))
			up = k;
	}
	/* A job's clean end counts whoever printed it: a training script
	 * recognised by generic words ends in torch's teardown. */
	for (size_t k = 0; up == SIZE_MAX && !failed && k < n; k++)
		if (rule[n - 1 - k] >= 0 && rs->r[rule[n - 1 - k]].done)
			up = n - 1 - k;
	return up;
}

void timeline_build(struct timeline *tl, const struct log *lg,
		    const struct ruleset *rs, const int32_t *match)
{
	memset(tl, 0, sizeof(*tl));
	tl->lg = lg;
	tl->rs = rs;
	tl->ntags = lg->ntags ? lg->ntags : 1;
	tl->first_ts = tl->last_ts = TS_NONE;
	make_families(tl);
	tl->order = xmalloc(tl->ntags * sizeof(*tl->order));
	for (size_t t = 1; t < tl->ntags; t++)
		tl->order[t - 1] = t;
	sort_log = lg;
	qsort(tl->order, tl->ntags - 1, sizeof(*tl->order), cmp_tags);
	size_t *row_of = xmalloc((rs->n ? rs->n : 1) * sizeof(*row_of));
	for (size_t i = 0; i < rs->n; i++)
		row_of[i] = SIZE_MAX;
	for (size_t i = 0; i < lg->nlines; i++) {
		if (lg->ts[i] != TS_NONE) {
			if (tl->first_ts == TS_NONE)
				tl->first_ts = lg->ts[i];
			tl->last_ts = lg->ts[i];
		}
		int32_t r = match[lg->tid[i]];
		if (r < 0)
			continue;
		if (row_of[r] == SIZE_MAX) {
			GROW(tl->rows, tl->rowcap, tl->nrows + 1);
			struct timeline_row *w = &tl->rows[tl->nrows];
			memset(w, 0, sizeof(*w));
			w->rule = r;
			w->tag_first = xmalloc(tl->ntags * sizeof(*w->tag_first));
			for (size_t t = 0; t < tl->ntags; t++)
				w->tag_first[t] = SIZE_MAX;
			row_of[r] = tl->nrows++;
		}
		struct timeline_row *w = &tl->rows[row_of[r]];
		w->count++;
		if (w->tag_first[lg->tag[i]] == SIZE_MAX) {
			w->tag_first[lg->tag[i]] = i;
			if (w->reached++ == 0)
				w->first = i;
			w->last = i;
		}
	}
	free(row_of);
	for (size_t k = 0; k < tl->nrows; k++)
		find_expected(tl, &tl->rows[k]);
	int32_t *rule = xmalloc((tl->nrows ? tl->nrows : 1) * sizeof(*rule));
	for (size_t k = 0; k < tl->nrows; k++)
		rule[k] = tl->rows[k].rule;
	tl->up = timeline_up(rs, rule, tl->nrows);
	free(rule);
	tl->failed = SIZE_MAX;
	for (size_t k = 0; k < tl->nrows && tl->failed == SIZE_MAX; k++)
		if (rs->r[tl->rows[k].rule].fail)
			tl->failed = k;
}

void timeline_free(struct timeline *tl)
{
	for (size_t k = 0; k < tl->nrows; k++) {
		free(tl->rows[k].tag_first);
		free(tl->rows[k].expected);
	}
	free(tl->rows);
	free(tl->family);
	free(tl->order);
}


int timeline_missing(const struct timeline_row *w, size_t t)
{
	return w->tag_first[t] == SIZE_MAX && w->expected[t];
}

size_t timeline_last_row(const struct timeline *tl, size_t t)
{
	for (size_t k = tl->nrows; k-- > 0;)
		if (tl->rows[k].tag_first[t] != SIZE_MAX)
			return k;
	return SIZE_MAX;
}

/* Whether the run of tl is a server: see timeline_state. */
static int is_server(const struct timeline *tl)
{
	const struct ruleset *rs = tl->rs;
	int32_t *rule = xmalloc(tl->nrows * sizeof(*rule));
	int server = 0;
	for (size_t k = 0; k < tl->nrows; k++) {
		rule[k] = tl->rows[k].rule;
		server |= rs->r[rule[k]].server;
	}
	const char *main = timeline_main_engine(rs, rule, tl->nrows);
	free(rule);
	for (size_t i = 0; !server && main && strcmp(main, RULES_GENERIC) != 0 && i < rs->n; i++)
		server = rs->r[i].final && !rs->r[i].done && strcmp(rs->r[i].engine, main) == 0;
	return server;
}

enum timeline_state timeline_state(const struct timeline *tl)
{
	if (tl->failed != SIZE_MAX)
		return TIMELINE_FAILED;
	if (tl->up != SIZE_MAX)
		return tl->rs->r[tl->rows[tl->up].rule].done ? TIMELINE_FINISHED : TIMELINE_UP;
	return tl->nrows >= 2 && is_server(tl) ? TIMELINE_NOT_UP : TIMELINE_UNJUDGED;
}
