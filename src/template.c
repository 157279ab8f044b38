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

size_t tmpl_cluster(struct tmpl_table *tt, uint32_t *map, const char ***texts)
{
	const char **tx = xmalloc(tt->n * sizeof(*tx));
	for (size_t id = 0; id < tt->n; id++) {
		map[id] = (uint32_t)id;
		tx[id] = tt->t[id].text;
	}
	*texts = tx;
	return tt->n;
}
