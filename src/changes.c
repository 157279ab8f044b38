/* changes.c — changed values.  See changes.h. */
#include "changes.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void changes_side_text(struct changes_side *sd, const char *msg, size_t len)
{
	sd->msg = msg;
	sd->len = len;
	mask_message(sd->msg, sd->len, &sd->m);
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

void changes_value_key(const struct changes_side *sd, size_t k, const char **key, size_t *n)
{
	const struct value *v = &sd->m.v[k];
	if (v->key_len) {
		*key = sd->msg + v->key_off;
		*n = v->key_len;
		return;
	}
	size_t e = v->off;
	while (e > 0 && (sd->msg[e - 1] == ' ' || sd->msg[e - 1] == '\'' || sd->msg[e - 1] == '"'))
		e--;
	if (e == 0 || (sd->msg[e - 1] != '=' && sd->msg[e - 1] != ':')) {
		*key = NULL;
		*n = 0;
		return;
	}
	e--;
	while (e > 0 && sd->msg[e - 1] == ' ')
		e--;
	size_t b = e;
	while (b > 0 && (isalnum((unsigned char)sd->msg[b - 1]) || sd->msg[b - 1] == '_' ||
			 sd->msg[b - 1] == '-' || sd->msg[b - 1] == '.' || sd->msg[b - 1] == '#'))
		b--;
	*key = sd->msg + b;
	*n = e - b;
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
	static const char *const stop[] = { "id", "is", "are", "was", "of", "to", "in", "at", NULL };
	for (const char *const *w = stop; *w; w++)
		if (strcmp(low, *w) == 0)
			return 1;
	return contains_any(low, vk);
}

static int same_text(const struct changes_side *a, const struct changes_side *b, size_t k)
{
	const struct value *va = &a->m.v[k], *vb = &b->m.v[k];
	return va->len == vb->len && memcmp(a->msg + va->off, b->msg + vb->off, va->len) == 0;
}

static double value_number(const struct changes_side *sd, size_t k)
{
	return changes_number(sd->msg + sd->m.v[k].off, sd->m.v[k].len);
}

/* Whether value k may be a change at all, before asking the good runs:
 * its text differs, it is not an address or an id, and it is named by a
 * key that is not volatile. */
static int candidate(const struct changes_side *b, const struct changes_side *g, size_t k)
{
	if (same_text(b, g, k))
		return 0;
	int t = b->m.v[k].type;
	if (t == V_HEX || t == V_ID || t == V_IP || t == V_URL || t == V_PATH || t == V_DATE || t == V_TIME)
		return 0;
	const char *kn;
	size_t kl;
	changes_value_key(b, k, &kn, &kl);
	return kl && !changes_volatile_key(kn, kl);
}

/* Whether candidate value k moved more than the good runs let it. */
static int moved(const struct changes_side *b, const struct changes_side *g, size_t k,
		 size_t keyed, const uint8_t *vary, const double *spread)
{
	int t = b->m.v[k].type;
	double sp = spread ? spread[k] : 1.0;
	if (numeric(t) && numeric(g->m.v[k].type)) {
		double x = value_number(b, k), y = value_number(g, k), r = changes_ratio(x, y);
		/* In a config dump every setting counts; measured sizes and
		 * times only when they moved a lot. */
		int config = (t == V_INT || t == V_FLOAT) && keyed >= 4;
		if (config ? sp > 1.0 : (r < CHANGES_FACTOR || r < 2 * sp))
			return 0;
		return config || !(fmax(fabs(x), fabs(y)) < 1.0);
	}
	return !(vary && vary[k]);
}

int changes_value_changed(const struct changes_side *bad, const struct changes_side *good, size_t k,
			  size_t keyed, const uint8_t *vary, const double *spread)
{
	return candidate(bad, good, k) && moved(bad, good, k, keyed, vary, spread);
}

/* What the good runs say about the n values of template c: vary[k] when
 * value k differs between them (a word), spread[k] the factor by which it
 * moves (a number).  Compares the first line of c in each good log with
 * the first good log's. */
static void good_variation(const struct changes_input *in, uint32_t c, size_t n, uint8_t *vary, double *spread)
{
	for (size_t k = 0; k < n; k++) {
		vary[k] = 0;
		spread[k] = 1.0;
	}
	int64_t l0 = -1;
	struct changes_side a = { 0 }, b = { 0 };
	for (size_t g = 0; g < in->ngood; g++) {
		int64_t l = in->first[g * in->nc + c];
		if (l < 0)
			continue;
		if (l0 < 0) {
			l0 = l;
			side_load(&a, &in->logs[g], l0);
			continue;
		}
		side_load(&b, &in->logs[g], l);
		if (a.m.nv != n || b.m.nv != n)
			continue;
		for (size_t k = 0; k < n; k++) {
			if (same_text(&a, &b, k))
				continue;
			if (numeric(a.m.v[k].type) && numeric(b.m.v[k].type)) {
				double r = changes_ratio(value_number(&a, k), value_number(&b, k));
				if (r > spread[k])
					spread[k] = r;
			} else {
				vary[k] = 1;
			}
		}
	}
	changes_side_free(&a);
	changes_side_free(&b);
}

static char *dup_n(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

/* What a line is, for the report: its message up to the first '=', ':'
 * or '(' ("server_args"), at most 40 bytes. */
static char *line_label(const struct changes_side *sd)
{
	size_t n = strcspn(sd->msg, "=:(");
	if (n > sd->len)
		n = sd->len;
	if (n > 40)
		n = 40;
	while (n && (sd->msg[n - 1] == ' ' || sd->msg[n - 1] == '.'))
		n--;
	return dup_n(sd->msg, n);
}

/* Compare bad's line bl (template c) with good's line gl. */
static void compare_pair(const struct changes_input *in, uint32_t c, int64_t bl, int64_t gl,
			 struct dx_change **out, size_t *nout, size_t *cap)
{
	struct changes_side b = { 0 }, g = { 0 };
	side_load(&b, in->bad, bl);
	side_load(&g, &in->logs[in->good], gl);
	if (b.m.nv != g.m.nv || b.m.nv == 0)
		goto out;
	size_t keyed = changes_keyed(&b);
	char *label = NULL;
	uint8_t *vary = NULL;
	double *spread = NULL;
	for (size_t k = 0; k < b.m.nv; k++) {
		if (!candidate(&b, &g, k))
			continue;
		/* Only now ask the good runs: their lines are re-read. */
		if (!vary) {
			vary = xmalloc(b.m.nv);
			spread = xmalloc(b.m.nv * sizeof(*spread));
			good_variation(in, c, b.m.nv, vary, spread);
		}
		if (!moved(&b, &g, k, keyed, vary, spread))
			continue;
		if (!label)
			label = line_label(&b);
		const char *kn;
		size_t kl;
		changes_value_key(&b, k, &kn, &kl);
		const struct value *vb = &b.m.v[k], *vg = &g.m.v[k];
		GROW(*out, *cap, *nout + 1);
		(*out)[(*nout)++] = (struct dx_change){
			.label = xstrdup(label),
			.key = dup_n(kn, kl),
			.good = dup_n(g.msg + vg->off, vg->len),
			.bad = dup_n(b.msg + vb->off, vb->len),
			.good_line = gl, .bad_line = bl,
		};
	}
	free(label);
	free(vary);
	free(spread);
out:
	changes_side_free(&b);
	changes_side_free(&g);
}

void changes_find(const struct changes_input *in, struct dx_change **out, size_t *n)
{
	size_t cap = 0;
	*out = NULL;
	*n = 0;
	uint8_t *done = xcalloc(in->nc ? in->nc : 1, 1);
	for (size_t i = 0; i < in->bad->nlines; i++) {
		uint32_t c = in->bad_id[i];
		if (!in->follow[i] || done[c])
			continue;
		done[c] = 1;
		compare_pair(in, c, (int64_t)i, in->b2g[i], out, n, &cap);
	}
	free(done);
}
