/* template.h — interning masked messages into 32-bit ids, and clustering
 * ids that differ only in variable-looking words.
 *
 * Interning is the hot path: one open-addressing probe per line.  The key
 * is (level, masked text), so lines that differ in severity never share a
 * template.  Clustering runs once over the distinct templates, never per
 * line, and maps each interned id to a cluster id. */
#ifndef DDX_TEMPLATE_H
#define DDX_TEMPLATE_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

struct tmpl {
	const char *text;     /* masked text, NUL-terminated, in the arena */
	uint32_t len;
	uint8_t level;
	uint64_t hash;
	uint64_t count;       /* lines with this template */
	uint64_t first_line;  /* 0-based index of the first such line ... */
	uint32_t first_file;  /* ... in this log (struct log.index) */
};

struct tmpl_table {
	struct tmpl *t;       /* by id, in first-occurrence order */
	size_t n, cap;
	uint32_t *slots;      /* open addressing: id + 1, 0 = empty */
	size_t nslots;
	struct arena arena;
};

void tmpl_init(struct tmpl_table *tt);
void tmpl_free(struct tmpl_table *tt);

/* The id of (level, text), adding it if new; hash = tmpl_hash(...). */
uint64_t tmpl_hash(const char *text, size_t len, int level);
uint32_t tmpl_intern(struct tmpl_table *tt, const char *text, size_t len,
		     int level, uint64_t hash);
/* The id of (level, text), or TMPL_NONE when it is not in the table. */
#define TMPL_NONE UINT32_MAX
uint32_t tmpl_find(const struct tmpl_table *tt, const char *text, size_t len,
		   int level, uint64_t hash);

/* Clustering (see template.c for the method).  Fills map[id] = cluster id
 * for every id of tt (map has tt->n entries), numbering clusters in order
 * of their smallest member id, i.e. of first occurrence, and returns the
 * cluster count.  Never merges different levels; deterministic.  *texts
 * receives one malloc'd array of cluster texts (the first member's text
 * with <*> at merged positions), owned by the caller, each string in tt's
 * arena (or a member's own text). */
size_t tmpl_cluster(struct tmpl_table *tt, uint32_t *map, const char ***texts);

#endif
