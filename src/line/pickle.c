/* pickle.c — a bounded reader of Python pickles that only builds data
 * (dumpval.h): what torch's Flight Recorder writes with protocol 2, and
 * the data opcodes of protocols 2 to 5.  Every opcode that would import
 * a module or call something (GLOBAL, STACK_GLOBAL, REDUCE, BUILD, INST,
 * OBJ, NEWOBJ, the extension registry, persistent ids, out-of-band
 * buffers) is refused by name, never skipped: a dump is untrusted input,
 * and what follows such an opcode means nothing without it. */
#include "dumpval.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Most values the pickle stack may hold at once: pickle batches its
 * APPENDS and SETITEMS by 1000, so real data stays far below. */
#define STACK_MAX (1u << 16)

struct pk {
	struct dv_doc *doc;
	const unsigned char *p;
	size_t n, i;
	struct dv **stack;
	size_t sp, scap;
	size_t marks[DV_MAX_DEPTH];
	size_t nmarks;
	struct dv **memo;
	size_t nmemo;         /* slots allocated */
	char *why;
	size_t cap;
};

static int fail(struct pk *k, size_t at, const char *fmt, const char *what)
{
	char msg[128];
	snprintf(msg, sizeof(msg), fmt, what);
	snprintf(k->why, k->cap, "at byte %zu: %s", at, msg);
	return -1;
}

/* The opcodes refused because they run or import code, by name, so the
 * error says what the input tried. */
static const char *code_opcode(unsigned char op)
{
	switch (op) {
	case 'c': return "GLOBAL";
	case 0x93: return "STACK_GLOBAL";
	case 'R': return "REDUCE";
	case 'b': return "BUILD";
	case 'i': return "INST";
	case 'o': return "OBJ";
	case 0x81: return "NEWOBJ";
	case 0x92: return "NEWOBJ_EX";
	case 0x82: return "EXT1";
	case 0x83: return "EXT2";
	case 0x84: return "EXT4";
	case 'P': return "PERSID";
	case 'Q': return "BINPERSID";
	case 0x97: return "NEXT_BUFFER";
	case 0x98: return "READONLY_BUFFER";
	default: return NULL;
	}
}

/* The next w bytes of the opcode's argument, or NULL when the input ends
 * first (a truncated dump). */
static const unsigned char *arg(struct pk *k, size_t w)
{
	if (w > k->n - k->i)
		return NULL;
	const unsigned char *a = k->p + k->i;
	k->i += w;
	return a;
}

static uint64_t le(const unsigned char *a, size_t w)
{
	uint64_t x = 0;
	for (size_t j = w; j-- > 0;)
		x = x << 8 | a[j];
	return x;
}

static int push_again(struct pk *k, struct dv *v, size_t at);

/* Push a new value; NULL is dv_new's answer past DV_MAX_VALUES. */
static int push(struct pk *k, struct dv *v, size_t at)
{
	if (!v)
		return fail(k, at, "more than %s values", "4194304");
	return push_again(k, v, at);
}

/* The values above the topmost mark: their count, with the mark popped. */
static int pop_mark(struct pk *k, size_t at, size_t *from)
{
	if (!k->nmarks)
		return fail(k, at, "%s without a MARK", "a batch opcode");
	*from = k->marks[--k->nmarks];
	return 0;
}

/* Add stack[from, sp) to container c (pairs for a dict), then drop them. */
static int fill(struct pk *k, struct dv *c, size_t from, size_t at)
{
	if (c->kind == DV_DICT && (k->sp - from) % 2)
		return fail(k, at, "%s with a key and no value", "SETITEMS");
	for (size_t j = from; j < k->sp; j++)
		if (dv_push(k->doc, c, k->stack[j]) < 0)
			return fail(k, at, "nested deeper than %s", "64");
	k->sp = from;
	return 0;
}

/* A string, bytes or unicode of w-byte length. */
static int string(struct pk *k, size_t w, size_t at)
{
	const unsigned char *a = arg(k, w);
	if (!a)
		return fail(k, at, "%s", "the dump ends inside a string's length");
	uint64_t len = le(a, w);
	if (len > k->n - k->i)
		return fail(k, at, "%s", "a string longer than the rest of the dump");
	struct dv *v = dv_new(k->doc, DV_STR);
	if (v) {
		v->s = (const char *)k->p + k->i;
		v->n = (size_t)len;
	}
	k->i += (size_t)len;
	return push(k, v, at);
}

static int memo_put(struct pk *k, uint64_t slot, size_t at)
{
	if (!k->sp)
		return fail(k, at, "%s with an empty stack", "a memo store");
	if (slot >= DV_MAX_MEMO)
		return fail(k, at, "memo slot past %s", "1048576");
	if (slot >= k->nmemo) {
		size_t n = k->nmemo ? k->nmemo : 64;
		while (n <= slot)
			n *= 2;
		k->memo = xrealloc(k->memo, n * sizeof(*k->memo));
		memset(k->memo + k->nmemo, 0, (n - k->nmemo) * sizeof(*k->memo));
		k->nmemo = n;
	}
	k->memo[slot] = k->stack[k->sp - 1];
	return 0;
}

/* Push a value the stack or memo already holds (DUP, the memo fetches):
 * a reference, not a new value. */
static int push_again(struct pk *k, struct dv *v, size_t at)
{
	if (k->sp == STACK_MAX)
		return fail(k, at, "more than %s values on the stack", "65536");
	GROW(k->stack, k->scap, k->sp + 1);
	k->stack[k->sp++] = v;
	return 0;
}

static int memo_get(struct pk *k, uint64_t slot, size_t at)
{
	if (slot >= k->nmemo || !k->memo[slot])
		return fail(k, at, "%s of an empty memo slot", "a memo fetch");
	return push_again(k, k->memo[slot], at);
}

static int integer(struct pk *k, int64_t x, size_t at)
{
	struct dv *v = dv_new(k->doc, DV_INT);
	if (v)
		v->i = x;
	return push(k, v, at);
}

/* One opcode at k->i; 1 at STOP, 0 to go on, -1 on error. */
static int step(struct pk *k)
{
	size_t at = k->i;
	unsigned char op = k->p[k->i++];
	const unsigned char *a;
	const char *code = code_opcode(op);
	if (code)
		return fail(k, at, "opcode %s would import or run code: refused", code);
	switch (op) {
	case 0x80:            /* PROTO */
		if (!(a = arg(k, 1)))
			break;
		if (a[0] < 2 || a[0] > 5)
			return fail(k, at, "pickle protocol %s: only 2 to 5 are read",
				    a[0] < 2 ? "0 or 1" : "past 5");
		return 0;
	case 0x95:            /* FRAME: a length hint, nothing to build */
		return arg(k, 8) ? 0 : fail(k, at, "%s", "the dump ends inside a FRAME");
	case '.':
		return 1;
	case '(':
		if (k->nmarks == DV_MAX_DEPTH)
			return fail(k, at, "MARKs nested deeper than %s", "64");
		k->marks[k->nmarks++] = k->sp;
		return 0;
	case '0':             /* POP */
		if (!k->sp)
			return fail(k, at, "%s with an empty stack", "POP");
		k->sp--;
		return 0;
	case '1': {           /* POP_MARK */
		size_t from;
		if (pop_mark(k, at, &from) < 0)
			return -1;
		k->sp = from;
		return 0;
	}
	case '2':             /* DUP */
		if (!k->sp)
			return fail(k, at, "%s with an empty stack", "DUP");
		return push_again(k, k->stack[k->sp - 1], at);
	case 'N':
		return push(k, dv_new(k->doc, DV_NONE), at);
	case 0x88: case 0x89: {  /* NEWTRUE, NEWFALSE */
		struct dv *v = dv_new(k->doc, DV_BOOL);
		if (v)
			v->i = op == 0x88;
		return push(k, v, at);
	}
	case 'J':
		if (!(a = arg(k, 4)))
			break;
		return integer(k, (int32_t)(uint32_t)le(a, 4), at);
	case 'K':
		if (!(a = arg(k, 1)))
			break;
		return integer(k, a[0], at);
	case 'M':
		if (!(a = arg(k, 2)))
			break;
		return integer(k, (int64_t)le(a, 2), at);
	case 0x8a: case 0x8b: {  /* LONG1, LONG4: two's complement, little-endian */
		size_t w = op == 0x8a ? 1 : 4;
		if (!(a = arg(k, w)))
			break;
		uint64_t len = le(a, w);
		if (len > 8)
			return fail(k, at, "%s", "an integer wider than 64 bits");
		if (!(a = arg(k, (size_t)len)))
			break;
		uint64_t x = le(a, (size_t)len);
		if (len && len < 8 && (a[len - 1] & 0x80))
			x |= ~(uint64_t)0 << (8 * len);
		return integer(k, (int64_t)x, at);
	}
	case 'G': {           /* BINFLOAT: big-endian IEEE 754 */
		if (!(a = arg(k, 8)))
			break;
		uint64_t bits = 0;
		for (int j = 0; j < 8; j++)
			bits = bits << 8 | a[j];
		struct dv *v = dv_new(k->doc, DV_FLOAT);
		if (v)
			memcpy(&v->f, &bits, sizeof(v->f));
		return push(k, v, at);
	}
	case 'X': case 'B': case 'T':   /* BINUNICODE, BINBYTES, BINSTRING */
		return string(k, 4, at);
	case 0x8c: case 'C': case 'U':  /* SHORT_BINUNICODE, SHORT_BINBYTES, SHORT_BINSTRING */
		return string(k, 1, at);
	case 0x8d: case 0x8e:           /* BINUNICODE8, BINBYTES8 */
		return string(k, 8, at);
	case '}': case ']': case ')':
		return push(k, dv_new(k->doc, op == '}' ? DV_DICT : DV_LIST), at);
	case 'd': case 'l': case 't': {  /* DICT, LIST, TUPLE from the mark */
		size_t from;
		if (pop_mark(k, at, &from) < 0)
			return -1;
		struct dv *c = dv_new(k->doc, op == 'd' ? DV_DICT : DV_LIST);
		if (!c)
			return push(k, c, at);
		if (fill(k, c, from, at) < 0)
			return -1;
		return push(k, c, at);
	}
	case 0x85: case 0x86: case 0x87: {  /* TUPLE1..3 */
		size_t w = (size_t)(op - 0x84);
		if (k->sp < w)
			return fail(k, at, "%s with too few values", "a TUPLE");
		struct dv *c = dv_new(k->doc, DV_LIST);
		if (!c)
			return push(k, c, at);
		if (fill(k, c, k->sp - w, at) < 0)
			return -1;
		return push(k, c, at);
	}
	case 's': case 'a': {  /* SETITEM, APPEND */
		size_t w = op == 's' ? 2 : 1;
		if (k->sp < w + 1)
			return fail(k, at, "%s with too few values", op == 's' ? "SETITEM" : "APPEND");
		struct dv *c = k->stack[k->sp - w - 1];
		if (c->kind != (op == 's' ? DV_DICT : DV_LIST))
			return fail(k, at, "%s into a value of the wrong kind", op == 's' ? "SETITEM" : "APPEND");
		return fill(k, c, k->sp - w, at);
	}
	case 'u': case 'e': {  /* SETITEMS, APPENDS */
		size_t from;
		if (pop_mark(k, at, &from) < 0)
			return -1;
		if (from == 0)
			return fail(k, at, "%s with nothing to add to", op == 'u' ? "SETITEMS" : "APPENDS");
		struct dv *c = k->stack[from - 1];
		if (c->kind != (op == 'u' ? DV_DICT : DV_LIST))
			return fail(k, at, "%s into a value of the wrong kind", op == 'u' ? "SETITEMS" : "APPENDS");
		return fill(k, c, from, at);
	}
	case 'q':
		if (!(a = arg(k, 1)))
			break;
		return memo_put(k, a[0], at);
	case 'r':
		if (!(a = arg(k, 4)))
			break;
		return memo_put(k, le(a, 4), at);
	case 0x94:            /* MEMOIZE: the next free slot */
		return memo_put(k, k->nmemo, at);
	case 'h':
		if (!(a = arg(k, 1)))
			break;
		return memo_get(k, a[0], at);
	case 'j':
		if (!(a = arg(k, 4)))
			break;
		return memo_get(k, le(a, 4), at);
	default: {
		char hex[8];
		snprintf(hex, sizeof(hex), "0x%02x", op);
		return fail(k, at, "opcode %s is not one of pickle's data opcodes: refused", hex);
	}
	}
	return fail(k, at, "%s", "the dump ends inside an opcode's argument");
}

int dv_read_pickle(struct dv_doc *doc, const unsigned char *p, size_t n, char *why, size_t cap)
{
	struct pk k = { .doc = doc, .p = p, .n = n, .why = why, .cap = cap };
	int rc = 0;
	while (rc == 0) {
		if (k.i == n) {
			rc = fail(&k, n, "%s", "the dump ends before its STOP (truncated)");
			break;
		}
		rc = step(&k);
	}
	if (rc == 1 && k.sp != 1)
		rc = fail(&k, k.i, "%s", "STOP with other than one value on the stack");
	if (rc == 1) {
		doc->root = k.stack[0];
		rc = 0;
	}
	free(k.stack);
	free(k.memo);
	return rc;
}
