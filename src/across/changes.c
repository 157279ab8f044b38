/* changes.c — changed values.  See changes.h. */
#include "changes.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "streams.h"

/* Whether value k stands right after "word " (an identifier that starts
 * with a letter): NCCL's "rank 0 nranks 2 cudaDev 0". */
static size_t spaced_key(const struct changes_side *sd, size_t k, size_t *kb)
{
	size_t e = sd->m.v[k].off;
	if (e < 2 || sd->msg[e - 1] != ' ')
		return 0;
	e--;
	size_t b = e;
	while (b > 0 && (isalnum((unsigned char)sd->msg[b - 1]) || sd->msg[b - 1] == '_'))
		b--;
	if (b == e || !isalpha((unsigned char)sd->msg[b]) || (b > 0 && sd->msg[b - 1] != ' '))
		return 0;
	*kb = b;
	return e - b;
}

void changes_side_text(struct changes_side *sd, const char *msg, size_t len)
{
	sd->msg = msg;
	sd->len = len;
	mask_message(sd->msg, sd->len, &sd->m);
	/* "key value" pairs name their values only where a line is made of
	 * them: three or more numbers each after a word. */
	size_t pairs = 0, kb;
	for (size_t k = 0; k < sd->m.nv; k++)
		pairs += sd->m.v[k].type == V_INT && spaced_key(sd, k, &kb) > 0;
	sd->spaced = pairs >= SPACED_PAIRS;
}

/* Line i of lg, re-read. */
static void side_load(struct changes_side *sd, const struct log *lg, int64_t i)
{
	struct line ln;
	struct header h;
	log_line(lg, (size_t)i, &ln, &h, &sd->scratch);
	/* The text may live in scratch, which mask does not touch. */
	changes_side_text(sd, ln.text + h.msg_off, ln.len - h.msg_off);
}

void changes_side_free(struct changes_side *sd)
{
	buf_free(&sd->scratch);
	masked_free(&sd->m);
}

/* An environment variable's name: upper case, digits and '_', at least
 * one '_' inside (NCCL_SOCKET_IFNAME, CUDA_VISIBLE_DEVICES). */
static int env_name(const char *s, size_t n)
{
	int under = 0;
	if (n < 4 || !isupper((unsigned char)s[0]) || s[n - 1] == '_')
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '_')
			under = 1;
		else if (!isupper((unsigned char)s[i]) && !isdigit((unsigned char)s[i]))
			return 0;
	}
	return under;
}

int changes_env_key(const char *key, size_t n)
{
	return env_name(key, n);
}

/* The last environment variable named in msg[start..end), or n = 0. */
static void env_before(const char *msg, size_t start, size_t end, const char **key, size_t *n)
{
	*n = 0;
	for (size_t i = start; i < end;) {
		while (i < end && !isupper((unsigned char)msg[i]))
			i++;
		size_t b = i;
		while (i < end && (isupper((unsigned char)msg[i]) || isdigit((unsigned char)msg[i]) || msg[i] == '_'))
			i++;
		int word = (b == start || !isalnum((unsigned char)msg[b - 1])) &&
			   (i == end || !isalnum((unsigned char)msg[i]));
		if (word && env_name(msg + b, i - b)) {
			*key = msg + b;
			*n = i - b;
		}
		if (i == b)
			i++;
	}
}

void changes_value_key(const struct changes_side *sd, size_t k, const char **key, size_t *n)
{
	const struct value *v = &sd->m.v[k];
	*key = NULL;
	*n = 0;
	if (v->key_len) {
		*key = sd->msg + v->key_off;
		*n = v->key_len;
	} else {
		size_t e = v->off, gap = 0;
		while (e > 0 && (sd->msg[e - 1] == ' ' || sd->msg[e - 1] == '\'' || sd->msg[e - 1] == '"'))
			e--, gap++;
		/* "host:48170", "06:04", "file.py:12" are no "key: value". */
		if (e > 0 && (sd->msg[e - 1] == '=' || (sd->msg[e - 1] == ':' && gap))) {
			e--;
			while (e > 0 && sd->msg[e - 1] == ' ')
				e--;
			size_t b = e;
			while (b > 0 && (isalnum((unsigned char)sd->msg[b - 1]) || sd->msg[b - 1] == '_' ||
					 sd->msg[b - 1] == '-' || sd->msg[b - 1] == '.' || sd->msg[b - 1] == '#'))
				b--;
			*key = sd->msg + b;
			*n = e - b;
		} else if (sd->spaced && v->type == V_INT) {
			size_t b = 0;
			*n = spaced_key(sd, k, &b);
			*key = sd->msg + b;
		}
	}
	/* A key names something: a number or a date is none. */
	if (*n) {
		size_t i = 0;
		while (i < *n && ((*key)[i] == '#' || (*key)[i] == '-' || (*key)[i] == '_'))
			i++;
		if (i == *n || !isalpha((unsigned char)(*key)[i]))
			*n = 0;
	}
	/* "NCCL_SOCKET_IFNAME set by environment to bogus0": the setting
	 * is named before the value, in words. */
	if (!*n)
		env_before(sd->msg, k ? sd->m.v[k - 1].off + sd->m.v[k - 1].len : 0, v->off, key, n);
	if (!*n)
		*key = NULL;
}

size_t changes_keyed(const struct changes_side *sd)
{
	size_t keyed = 0;
	for (size_t k = 0; k < sd->m.nv; k++) {
		const char *kn;
		size_t kl;
		changes_value_key(sd, k, &kn, &kl);
		keyed += kl > 0;
	}
	return keyed;
}

static int numeric(int type)
{
	return type == V_INT || type == V_FLOAT || type == V_SIZE || type == V_DURATION || type == V_PERCENT;
}

double changes_number(const char *s, size_t n)
{
	char tmp[64];
	if (n >= sizeof(tmp))
		n = sizeof(tmp) - 1;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	size_t j = 0;
	for (size_t i = 0; i < n; i++)   /* "67,024" */
		if (tmp[i] != ',')
			tmp[j++] = tmp[i];
	tmp[j] = '\0';
	char *end;
	double x = strtod(tmp, &end);
	while (*end == ' ')
		end++;
	switch (toupper((unsigned char)*end)) {
	case 'K': x *= 1e3; break;
	case 'M': x *= end[1] == 's' ? 1e-3 : 1e6; break;
	case 'G': x *= 1e9; break;
	case 'T': x *= 1e12; break;
	}
	return x;
}

double changes_ratio(double a, double b)
{
	a = fabs(a), b = fabs(b);
	if (a == b)
		return 1.0;
	double lo = a < b ? a : b, hi = a < b ? b : a;
	return lo > 0 ? hi / lo : INFINITY;
}

int changes_volatile_key(const char *k, size_t n)
{
	static const char *const vk[] = { "seed", "pid", "port", "uuid", "nonce", "timestamp", "date", "_id", NULL };
	char low[64];
	if (n >= sizeof(low))
		n = sizeof(low) - 1;
	for (size_t i = 0; i < n; i++)
		low[i] = (char)tolower((unsigned char)k[i]);
	low[n] = '\0';
	/* Not names at all, or who printed the line rather than a setting
	 * (the lines of two ranks may be compared). */
	static const char *const stop[] = { "id", "is", "are", "was", "of", "to", "in", "at",
					    "rank", "local_rank", "localrank", "global_rank", "tid", NULL };
	for (const char *const *w = stop; *w; w++)
		if (strcmp(low, *w) == 0)
			return 1;
	return contains_any(low, vk);
}

static int same_text(const struct changes_side *a, size_t ka, const struct changes_side *b, size_t kb)
{
	const struct value *va = &a->m.v[ka], *vb = &b->m.v[kb];
	return va->len == vb->len && memcmp(a->msg + va->off, b->msg + vb->off, va->len) == 0;
}

static double value_number(const struct changes_side *sd, size_t k)
{
	return changes_number(sd->msg + sd->m.v[k].off, sd->m.v[k].len);
}

static int same_key(const struct changes_side *a, size_t ka, const struct changes_side *b, size_t kb)
{
	const char *x, *y;
	size_t nx, ny;
	changes_value_key(a, ka, &x, &nx);
	changes_value_key(b, kb, &y, &ny);
	return nx && nx == ny && memcmp(x, y, nx) == 0;
}

size_t changes_partner(const struct changes_side *a, const struct changes_side *b, size_t k)
{
	const char *key;
	size_t kn;
	changes_value_key(a, k, &key, &kn);
	if (!kn)
		return SIZE_MAX;   /* no key, no partner: and no scan for one */
	if (k < b->m.nv && same_key(a, k, b, k))
		return k;
	size_t nth = 0;
	for (size_t i = 0; i < k; i++)
		nth += same_key(a, i, a, k);
	for (size_t j = 0; j < b->m.nv; j++)
		if (same_key(a, k, b, j) && nth-- == 0)
			return j;
	return SIZE_MAX;
}

/* A run of hex digits with both digits and letters (a uuid, a hash, an
 * object's address "@402bba4f"). */
static int has_hex_id(const char *s, size_t n)
{
	size_t run = 0;
	int digit = 0, letter = 0;
	for (size_t i = 0; i <= n; i++) {
		if (i < n && isxdigit((unsigned char)s[i])) {
			run++;
			digit |= isdigit((unsigned char)s[i]) != 0;
			letter |= isalpha((unsigned char)s[i]) != 0;
			continue;
		}
		if (run >= 8 && digit && letter)
			return 1;
		run = 0;
		digit = letter = 0;
	}
	return 0;
}

/* The length of s without a trailing ":port". */
static size_t without_port(const char *s, size_t n)
{
	size_t e = n;
	while (e > 0 && isdigit((unsigned char)s[e - 1]))
		e--;
	return e < n && n - e >= 2 && e > 0 && s[e - 1] == ':' ? e - 1 : n;
}

/* Whether a and b differ only as what changes from run to run does: an
 * id or address inside them, or the port of an address. */
static int differ_by_nature(const char *a, size_t na, const char *b, size_t nb)
{
	if (has_hex_id(a, na) || has_hex_id(b, nb))
		return 1;
	size_t pa = without_port(a, na), pb = without_port(b, nb);
	return (pa < na || pb < nb) && pa == pb && memcmp(a, b, pa) == 0;
}

/* Whether bad's value k, against good's value j (the same key), may be a
 * change at all before asking the good runs: its text differs, it is not
 * of a kind that differs by nature (an address, an id, a date, a
 * duration: slow steps tell about time), and its key is not volatile. */
static int candidate(const struct changes_side *b, const struct changes_side *g, size_t k, size_t j)
{
	if (same_text(b, k, g, j))
		return 0;
	int t = b->m.v[k].type;
	if (t == V_HEX || t == V_ID || t == V_IP || t == V_HOST || t == V_URL || t == V_PATH || t == V_DATE || t == V_TIME ||
	    t == V_DURATION || g->m.v[j].type == V_DURATION)
		return 0;
	const struct value *vb = &b->m.v[k], *vg = &g->m.v[j];
	if (differ_by_nature(b->msg + vb->off, vb->len, g->msg + vg->off, vg->len))
		return 0;
	const char *kn;
	size_t kl;
	changes_value_key(b, k, &kn, &kl);
	return kl && !changes_volatile_key(kn, kl);
}

/* Whether candidate value k moved more than the good runs let it. */
static int moved(const struct changes_side *b, const struct changes_side *g, size_t k, size_t j,
		 size_t keyed, const uint8_t *vary, const double *spread)
{
	int t = b->m.v[k].type;
	double sp = spread ? spread[j] : 1.0;
	if (numeric(t) && numeric(g->m.v[j].type)) {
		double x = value_number(b, k), y = value_number(g, j), r = changes_ratio(x, y);
		/* In a config dump every setting counts, but for counts
		 * measured beside the settings (a KV cache's tokens), which
		 * move by a hair; measured sizes and times count only when
		 * they moved a lot. */
		int config = (t == V_INT || t == V_FLOAT) && keyed >= 4;
		if (config ? sp > 1.0 || r < CHANGES_CONFIG_FACTOR : (r < CHANGES_FACTOR || r < 2 * sp))
			return 0;
		return config || !(fmax(fabs(x), fabs(y)) < 1.0);
	}
	return !(vary && vary[j]);
}

int changes_value_changed(const struct changes_side *bad, const struct changes_side *good, size_t k,
			  size_t keyed, const uint8_t *vary, const double *spread)
{
	size_t j = changes_partner(bad, good, k);
	return j != SIZE_MAX && candidate(bad, good, k, j) && moved(bad, good, k, j, keyed, vary, spread);
}

/* The good lines of template c to learn from: the first in each good log
 * and up to VARY_LINES more in it, calling fn for each. */
#define VARY_LINES 32

/* What the good runs say about the values of g, a good line of template
 * c: vary[j] when value j differs between the good lines of c (a word),
 * spread[j] the factor by which it moves (a number).  Every good log's
 * lines of c count, the one g is from too: a value its own good run
 * prints differently (one line per rank, per request) is no setting. */
static void good_variation(const struct changes_input *in, uint32_t c, const struct changes_side *g,
			   uint8_t *vary, double *spread)
{
	size_t n = g->m.nv;
	for (size_t j = 0; j < n; j++) {
		vary[j] = 0;
		spread[j] = 1.0;
	}
	struct changes_side o = { 0 };
	for (size_t lg = 0; lg < in->ngood; lg++) {
		int64_t l = in->first[lg * in->nc + c];
		const struct log *log = &in->logs[lg];
		for (size_t seen = 0; l >= 0 && (size_t)l < log->nlines && seen <= VARY_LINES; l++) {
			if (in->ids[lg][l] != c)
				continue;
			seen++;
			changes_side_free(&o);
			o = (struct changes_side){ 0 };
			side_load(&o, log, l);
			for (size_t j = 0; j < n; j++) {
				size_t x = changes_partner(g, &o, j);
				if (x == SIZE_MAX || same_text(g, j, &o, x))
					continue;
				if (numeric(g->m.v[j].type) && numeric(o.m.v[x].type)) {
					double r = changes_ratio(value_number(g, j), value_number(&o, x));
					if (r > spread[j])
						spread[j] = r;
				} else {
					vary[j] = 1;
				}
			}
		}
	}
	changes_side_free(&o);
}

static char *dup_n(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

/* What a line is, for the report: the words its message opens with,
 * a name and not a fragment of the line.  Bracketed tags in front
 * ("[Rank 0] step=12") are skipped; the name ends before the first
 * '=', ':', a bracket or a quote (where the values start), before a run
 * of dots (DeepSpeed's "dynamic_train_config ....... {...}"), before
 * the first word a mask would call a variable (a number, a host name
 * such as "azwus2f200000C6": three digits or more), and at a word's end
 * within 40 bytes.  "" when the line opens with none of that. */
char *changes_line_label(const char *msg, size_t len)
{
	size_t i = 0;
	for (;;) {
		while (i < len && (msg[i] == ' ' || msg[i] == '\t'))
			i++;
		const char *close = i < len && msg[i] == '[' ? memchr(msg + i, ']', len - i) : NULL;
		if (!close)
			break;
		i = (size_t)(close - msg) + 1;
	}
	size_t end = i, w = i;      /* end: after the last word taken */
	while (w < len && w - i <= 40) {
		size_t e = w, digits = 0;
		while (e < len && !strchr(" \t=:([{\"'", msg[e]) && !(msg[e] == '.' && e + 1 < len &&
									 msg[e + 1] == '.'))
			digits += isdigit((unsigned char)msg[e++]) != 0;
		if (e == w || digits >= 3 || digits == e - w || e - i > 40)
			break;
		end = e;
		if (e >= len || msg[e] != ' ')
			break;
		w = e + 1;
	}
	while (end > i && msg[end - 1] == '.')
		end--;
	return dup_n(msg + i, end - i);
}

/* A change of what label says (NULL: what line b is). */
static void add_change(struct dx_change **out, size_t *nout, size_t *cap, const struct changes_side *b,
		       const char *label, const char *key, size_t kl, const char *good, size_t gl,
		       const char *bad, size_t bl, int64_t good_line, int64_t bad_line)
{
	GROW(*out, *cap, *nout + 1);
	(*out)[(*nout)++] = (struct dx_change){
		.label = label ? xstrdup(label) : changes_line_label(b->msg, b->len),
		.key = dup_n(key, kl),
		.good = dup_n(good, gl),
		.bad = dup_n(bad, bl),
		.good_line = good_line, .bad_line = bad_line,
	};
}

/* The most values a line may hold to be compared value by value (each
 * looks for its key's partner among the others): a configuration dump
 * holds a few hundred; a line of more (a dumped array) is data, and
 * would cost the square of its length. */
#define VALUES_MAX 2048

/* Compare bad's line bl (template c) with good's line gl. */
static void compare_pair(const struct changes_input *in, uint32_t c, int64_t bl, int64_t gl,
			 struct dx_change **out, size_t *nout, size_t *cap)
{
	struct changes_side b = { 0 }, g = { 0 };
	side_load(&b, in->bad, bl);
	side_load(&g, &in->logs[in->good], gl);
	/* Lines of other shapes (a dump of another version, with other
	 * keys) tell other things, not changed ones. */
	size_t keyed = b.m.nv == g.m.nv ? changes_keyed(&b) : 0;
	uint8_t *vary = NULL;
	double *spread = NULL;
	for (size_t k = 0; k < b.m.nv && b.m.nv == g.m.nv && b.m.nv <= VALUES_MAX; k++) {
		size_t j = changes_partner(&b, &g, k);
		if (j == SIZE_MAX || !candidate(&b, &g, k, j))
			continue;
		/* Only now ask the good runs: their lines are re-read. */
		if (!vary) {
			vary = xmalloc(g.m.nv);
			spread = xmalloc(g.m.nv * sizeof(*spread));
			good_variation(in, c, &g, vary, spread);
		}
		if (!moved(&b, &g, k, j, keyed, vary, spread))
			continue;
		const char *kn;
		size_t kl;
		changes_value_key(&b, k, &kn, &kl);
		const struct value *vb = &b.m.v[k], *vg = &g.m.v[j];
		add_change(out, nout, cap, &b, NULL, kn, kl, g.msg + vg->off, vg->len, b.msg + vb->off, vb->len, gl, bl);
	}
	free(vary);
	free(spread);
	changes_side_free(&b);
	changes_side_free(&g);
}

static int value_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.' || c == '/' || c == ':' || c == ',';
}

/* The value a line sets environment variable name[0..n) to, when the line
 * is a setting and not a hint that mentions one: "NAME=value" at the
 * start of the message or after "word: " / "export ", or "NAME set ... to
 * value" ending the message (NCCL's "NCCL_SOCKET_IFNAME set by
 * environment to bogus0").  *vl = 0 when it is none. */
static void env_value(const char *msg, size_t len, const char *name, size_t n, const char **v, size_t *vl)
{
	*vl = 0;
	const char *at = memmem(msg, len, name, n), *end = msg + len;
	if (!at)
		return;
	const char *p = at + n;
	while (end > p && (end[-1] == ' ' || end[-1] == '.' || end[-1] == '\r'))
		end--;
	const char *b = p;
	if (p < end && *p == '=') {
		int lead = at == msg || (at - msg >= 2 && at[-1] == ' ' && at[-2] == ':') ||
			   (at - msg >= 7 && memcmp(at - 7, "export ", 7) == 0);
		if (!lead)
			return;
		b = ++p;
		while (p < end && value_char(*p))
			p++;
		if (p < end && *p != ' ')
			return;
		end = p;
	} else {
		b = end;
		while (b > p && value_char(b[-1]))
			b--;
		if (b - p < 8 || memcmp(b - 4, " to ", 4) != 0 || !memmem(p, (size_t)(b - p), " set ", 5))
			return;
	}
	*v = b;
	*vl = (size_t)(end - b);
}

/* The environment settings bad's line bl names that the good line gl
 * (DX_NONE: none) does not name in the same place, against what the good
 * run says of them elsewhere ("(not set)" when nowhere): one template
 * may stand for NCCL's lines of every variable it reads, "X set by
 * environment to V".  Environment settings are configuration. */
static void compare_env(const struct changes_input *in, int64_t bl, int64_t gl, struct dx_change **out,
			size_t *nout, size_t *cap)
{
	struct changes_side b = { 0 }, g = { 0 };
	side_load(&b, in->bad, bl);
	if (gl != DX_NONE)
		side_load(&g, &in->logs[in->good], gl);
	for (size_t k = 0; k < b.m.nv; k++) {
		const char *kn, *bv, *gv = "(not set)";
		size_t kl, bvl, gvl = strlen(gv);
		changes_value_key(&b, k, &kn, &kl);
		if (!kl || !changes_env_key(kn, kl) || (gl != DX_NONE && changes_partner(&b, &g, k) != SIZE_MAX))
			continue;
		env_value(b.msg, b.len, kn, kl, &bv, &bvl);
		if (!bvl)
			continue;
		int64_t gline = DX_NONE;
		struct changes_side o = { 0 };
		char *name = dup_n(kn, kl);
		for (size_t c = 0; c < in->nc && gline == DX_NONE; c++) {
			int64_t l = in->first[in->good * in->nc + c];
			if (l < 0 || !strstr(in->ctext[c], name))
				continue;
			changes_side_free(&o);
			o = (struct changes_side){ 0 };
			side_load(&o, &in->logs[in->good], l);
			const char *v;
			size_t vl;
			env_value(o.msg, o.len, kn, kl, &v, &vl);
			if (vl)
				gv = v, gvl = vl, gline = l;
		}
		free(name);
		if (gvl != bvl || memcmp(gv, bv, bvl) != 0)
			add_change(out, nout, cap, &b, "environment", kn, kl, gv, gvl, bv, bvl, gline, bl);
		changes_side_free(&o);
	}
	changes_side_free(&b);
	changes_side_free(&g);
}

/* Two ranks of one kind (rank0, rank1) print the same lines with their
 * own values: only lines of one stream compare. */
static int same_stream(const struct changes_input *in, int64_t bl, int64_t gl)
{
	const char *a = in->names[in->bad_stream[bl]], *b = in->names[in->good_stream[gl]];
	return strcmp(a, b) == 0 || !streams_same_kind(a, b);
}

/* Lines of one template read for environment settings: NCCL prints one
 * line of one template per variable it reads. */
#define ENV_LINES 16

void changes_find(const struct changes_input *in, struct dx_change **out, size_t *n)
{
	size_t cap = 0;
	*out = NULL;
	*n = 0;
	uint8_t *done = xcalloc(in->nc ? in->nc : 1, 1);
	uint8_t *env = xcalloc(in->nc ? in->nc : 1, 1);
	for (size_t i = 0; i < in->bad->nlines; i++) {
		uint32_t c = in->bad_id[i];
		int follow = in->follow[i] && same_stream(in, (int64_t)i, in->b2g[i]);
		if (follow && !done[c]) {
			done[c] = 1;
			compare_pair(in, c, (int64_t)i, in->b2g[i], out, n, &cap);
		}
		if (in->sev[c] == DX_INFO && env[c] < ENV_LINES) {
			env[c]++;
			compare_env(in, (int64_t)i, follow ? (int64_t)in->b2g[i] : DX_NONE, out, n, &cap);
		}
	}
	free(done);
	free(env);
}
