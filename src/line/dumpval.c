/* dumpval.c — the value tree the dump readers build (dumpval.h): values
 * in one arena, counted against DV_MAX_VALUES, and the lookups the dump's
 * reader uses. */
#include "dumpval.h"

#include <string.h>

struct dv *dv_new(struct dv_doc *doc, int kind)
{
	if (doc->nvalues >= DV_MAX_VALUES)
		return NULL;
	doc->nvalues++;
	struct dv *v = arena_alloc(&doc->a, sizeof(*v));
	memset(v, 0, sizeof(*v));
	v->kind = (uint8_t)kind;
	return v;
}

/* Items grow by doubling within the arena: what the old arrays waste is
 * at most what the list holds, and every value counts against
 * DV_MAX_VALUES, so a list's memory is bounded by the input's. */
int dv_push(struct dv_doc *doc, struct dv *v, struct dv *item)
{
	if (item->depth + 1 > v->depth)
		v->depth = item->depth + 1;
	if (v->depth > DV_MAX_DEPTH)
		return -1;
	if (v->n == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 4;
		struct dv **items = arena_alloc(&doc->a, cap * sizeof(*items));
		if (v->n)
			memcpy(items, v->items, v->n * sizeof(*items));
		v->items = items;
		v->cap = cap;
	}
	v->items[v->n++] = item;
	return 0;
}

const struct dv *dv_get(const struct dv *d, const char *key)
{
	if (!d || d->kind != DV_DICT)
		return NULL;
	for (size_t k = 0; k + 1 < d->n; k += 2)
		if (dv_is(d->items[k], key))
			return d->items[k + 1];
	return NULL;
}

int dv_int(const struct dv *v, int64_t *out)
{
	if (v && v->kind == DV_INT) {
		*out = v->i;
		return 0;
	}
	if (!v || v->kind != DV_STR || v->n == 0 || v->n > 18)
		return -1;
	size_t k = v->s[0] == '-';
	if (k == v->n)
		return -1;
	int64_t x = 0;
	for (size_t j = k; j < v->n; j++) {
		if (v->s[j] < '0' || v->s[j] > '9')
			return -1;
		x = x * 10 + (v->s[j] - '0');
	}
	*out = k ? -x : x;
	return 0;
}

int dv_is(const struct dv *v, const char *s)
{
	size_t n = strlen(s);
	return v && v->kind == DV_STR && v->n == n && memcmp(v->s, s, n) == 0;
}

void dv_free(struct dv_doc *doc)
{
	if (!doc)
		return;
	arena_free(&doc->a);
	memset(doc, 0, sizeof(*doc));
}
