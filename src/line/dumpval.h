/* dumpval.h — a value tree read from untrusted serialised data: the
 * pickle (pickle.c) and JSON (jsonval.c) forms of a PyTorch Flight
 * Recorder dump.  Both readers only build data (none, bools, numbers,
 * strings, lists, dicts); neither can run code, import a module or call
 * a constructor.  Every limit below is checked, so a crafted or truncated
 * input is an error with a reason, never a crash, a hang or an unbounded
 * allocation. */
#ifndef DDX_DUMPVAL_H
#define DDX_DUMPVAL_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

/* Deepest nesting of lists and dicts (and open pickle MARKs). */
#define DV_MAX_DEPTH 64
/* Most values one input may make: a real dump of 2000 entries with their
 * stack frames makes some 200 000. */
#define DV_MAX_VALUES (1u << 22)
/* Most memo slots a pickle may name. */
#define DV_MAX_MEMO (1u << 20)

enum dv_kind { DV_NONE, DV_BOOL, DV_INT, DV_FLOAT, DV_STR, DV_LIST, DV_DICT };

/* A value.  DV_STR: s[0, n), in the input's bytes or, for a JSON string
 * with escapes, in the arena; never NUL-terminated.  DV_LIST: items[0, n); DV_DICT: items[2k] the k-th key, items[2k + 1]
 * its value.  A pickle's tuples are lists. */
struct dv {
	uint8_t kind;
	int64_t i;            /* DV_INT, DV_BOOL */
	double f;             /* DV_FLOAT */
	const char *s;
	size_t n, cap;
	struct dv **items;
	uint32_t depth;       /* 1 + its deepest item's, as items were added */
};

/* Where a reader's values live: freed at once with dv_free. */
struct dv_doc {
	struct arena a;
	size_t nvalues;
	struct dv *root;
};

/* Read a pickle (protocols 2 to 5; only data opcodes) or a JSON text
 * from p[0, n) into doc->root.  Returns 0, or -1 with why (a sentence
 * naming the byte offset) in why[0, cap).  p must outlive doc. */
int dv_read_pickle(struct dv_doc *doc, const unsigned char *p, size_t n, char *why, size_t cap);
int dv_read_json(struct dv_doc *doc, const unsigned char *p, size_t n, char *why, size_t cap);
void dv_free(struct dv_doc *doc);

/* A new value of kind in doc, or NULL past DV_MAX_VALUES. */
struct dv *dv_new(struct dv_doc *doc, int kind);
/* Append item to list or dict v (a dict takes key and value in turn).
 * Returns 0, or -1 when that nests v deeper than DV_MAX_DEPTH.  Depth is
 * counted as items are added, which is exact for data built bottom-up
 * (as pickle and JSON build it); a crafted pickle can make a cycle
 * through its memo, so no reader of the tree recurses through it. */
int dv_push(struct dv_doc *doc, struct dv *v, struct dv *item);
/* Dict d's value under key (a string), or NULL: also when d is no dict. */
const struct dv *dv_get(const struct dv *d, const char *key);
/* v as an integer into *out: an int, or a string of decimal digits
 * (torch's JSON writes pg_status numbers as strings).  0, or -1. */
int dv_int(const struct dv *v, int64_t *out);
/* Whether v is a string equal to s. */
int dv_is(const struct dv *v, const char *s);

#endif
