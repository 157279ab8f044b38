/* jsonval.c — a bounded JSON reader into the value tree (dumpval.h), for
 * the JSON form of a Flight Recorder dump (torch's
 * _dump_nccl_trace_json).  ddx's other JSON reading (prefix_record.c)
 * only skims one log line's members for a message; a dump needs the
 * values themselves.  Nesting stops at DV_MAX_DEPTH, so the recursion
 * here is bounded too. */
#include "dumpval.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct js {
	struct dv_doc *doc;
	const unsigned char *p;
	size_t n, i;
	char *why;
	size_t cap;
};

static int fail(struct js *j, const char *what)
{
	snprintf(j->why, j->cap, "at byte %zu: %s", j->i, what);
	return -1;
}

static void space(struct js *j)
{
	while (j->i < j->n && strchr(" \t\r\n", j->p[j->i]) && j->p[j->i])
		j->i++;
}

static int hex4(const unsigned char *p, unsigned *out)
{
	unsigned x = 0;
	for (int k = 0; k < 4; k++) {
		unsigned char c = p[k];
		x <<= 4;
		if (c >= '0' && c <= '9')
			x |= c - '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			x |= (c | 0x20) - 'a' + 10;
		else
			return -1;
	}
	*out = x;
	return 0;
}

/* A string at its quote.  Without escapes it points into the input;
 * with them it is decoded into the arena (a \u escape as UTF-8; a lone
 * surrogate as U+FFFD). */
static struct dv *string(struct js *j)
{
	size_t from = ++j->i, esc = 0;
	while (j->i < j->n && j->p[j->i] != '"') {
		if (j->p[j->i] == '\\') {
			esc = 1;
			j->i++;
		}
		j->i++;
	}
	if (j->i >= j->n) {
		fail(j, "the dump ends inside a string (truncated)");
		return NULL;
	}
	size_t to = j->i++;
	struct dv *v = dv_new(j->doc, DV_STR);
	if (!v) {
		fail(j, "more than 4194304 values");
		return NULL;
	}
	if (!esc) {
		v->s = (const char *)j->p + from;
		v->n = to - from;
		return v;
	}
	/* Decoded, a string is never longer than its escaped form. */
	char *o = arena_alloc(&j->doc->a, to - from + 1);
	size_t m = 0;
	for (size_t k = from; k < to; k++) {
		if (j->p[k] != '\\') {
			o[m++] = (char)j->p[k];
			continue;
		}
		unsigned char c = j->p[++k];
		char e = c == '"' || c == '\\' || c == '/' ? (char)c : c == 'b' ? '\b' : c == 'f' ? '\f' :
			 c == 'n' ? '\n' : c == 'r' ? '\r' : c == 't' ? '\t' : 0;
		if (e) {
			o[m++] = e;
			continue;
		}
		unsigned u;
		if (c != 'u' || to - k < 5 || hex4(j->p + k + 1, &u) < 0) {
			j->i = k;
			fail(j, "a bad escape in a string");
			return NULL;
		}
		k += 4;
		if (u >= 0xd800 && u <= 0xdfff)
			u = 0xfffd;
		/* U+FFFD is three bytes, as is any \uXXXX: within the six
		 * bytes the escape took. */
		if (u < 0x80) {
			o[m++] = (char)u;
		} else if (u < 0x800) {
			o[m++] = (char)(0xc0 | u >> 6);
			o[m++] = (char)(0x80 | (u & 0x3f));
		} else {
			o[m++] = (char)(0xe0 | u >> 12);
			o[m++] = (char)(0x80 | (u >> 6 & 0x3f));
			o[m++] = (char)(0x80 | (u & 0x3f));
		}
	}
	v->s = o;
	v->n = m;
	return v;
}

static struct dv *number(struct js *j)
{
	size_t from = j->i;
	int frac = 0;
	while (j->i < j->n && strchr("+-0123456789.eE", j->p[j->i]) && j->p[j->i]) {
		frac |= strchr(".eE", j->p[j->i]) != NULL;
		j->i++;
	}
	char tmp[64];
	size_t len = j->i - from;
	if (len == 0 || len >= sizeof(tmp)) {
		fail(j, len ? "a number too long" : "not a JSON value");
		return NULL;
	}
	memcpy(tmp, j->p + from, len);
	tmp[len] = '\0';
	char *end;
	struct dv *v = dv_new(j->doc, frac ? DV_FLOAT : DV_INT);
	if (!v) {
		fail(j, "more than 4194304 values");
		return NULL;
	}
	if (frac)
		v->f = strtod(tmp, &end);
	else
		v->i = strtoll(tmp, &end, 10);
	if (*end) {
		j->i = from;
		fail(j, "a bad number");
		return NULL;
	}
	return v;
}

static struct dv *value(struct js *j, unsigned depth);

/* An array or object at its bracket: items (or key, value pairs). */
static struct dv *container(struct js *j, unsigned depth)
{
	int obj = j->p[j->i] == '{';
	char close = obj ? '}' : ']';
	if (depth >= DV_MAX_DEPTH) {
		fail(j, "nested deeper than 64");
		return NULL;
	}
	struct dv *c = dv_new(j->doc, obj ? DV_DICT : DV_LIST);
	if (!c) {
		fail(j, "more than 4194304 values");
		return NULL;
	}
	j->i++;
	space(j);
	if (j->i < j->n && j->p[j->i] == close) {
		j->i++;
		return c;
	}
	for (;;) {
		space(j);
		if (obj && (j->i >= j->n || j->p[j->i] != '"')) {
			fail(j, j->i >= j->n ? "the dump ends inside an object (truncated)" : "an object key that is no string");
			return NULL;
		}
		struct dv *key = obj ? string(j) : NULL;
		if (obj) {
			if (!key)
				return NULL;
			space(j);
			if (j->i >= j->n || j->p[j->i] != ':') {
				fail(j, "no ':' after an object key");
				return NULL;
			}
			j->i++;
			dv_push(j->doc, c, key);
		}
		struct dv *v = value(j, depth + 1);
		if (!v)
			return NULL;
		if (dv_push(j->doc, c, v) < 0) {
			fail(j, "nested deeper than 64");
			return NULL;
		}
		space(j);
		if (j->i >= j->n) {
			fail(j, "the dump ends inside an array or object (truncated)");
			return NULL;
		}
		if (j->p[j->i] == close) {
			j->i++;
			return c;
		}
		if (j->p[j->i] != ',') {
			fail(j, "no ',' between items");
			return NULL;
		}
		j->i++;
	}
}

static struct dv *word(struct js *j, const char *w, int kind, int64_t x)
{
	size_t len = strlen(w);
	if (j->n - j->i < len || memcmp(j->p + j->i, w, len) != 0) {
		fail(j, "not a JSON value");
		return NULL;
	}
	j->i += len;
	struct dv *v = dv_new(j->doc, kind);
	if (!v)
		fail(j, "more than 4194304 values");
	else
		v->i = x;
	return v;
}

static struct dv *value(struct js *j, unsigned depth)
{
	space(j);
	if (j->i >= j->n) {
		fail(j, "the dump ends where a value should be (truncated)");
		return NULL;
	}
	switch (j->p[j->i]) {
	case '{': case '[': return container(j, depth);
	case '"': return string(j);
	case 't': return word(j, "true", DV_BOOL, 1);
	case 'f': return word(j, "false", DV_BOOL, 0);
	case 'n': return word(j, "null", DV_NONE, 0);
	default: return number(j);
	}
}

int dv_read_json(struct dv_doc *doc, const unsigned char *p, size_t n, char *why, size_t cap)
{
	struct js j = { .doc = doc, .p = p, .n = n, .why = why, .cap = cap };
	struct dv *v = value(&j, 0);
	if (!v)
		return -1;
	space(&j);
	if (j.i != n)
		return fail(&j, "text after the JSON value");
	doc->root = v;
	return 0;
}
