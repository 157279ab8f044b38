/* diagnose_steps.c — the skeleton pass's steps told apart by a value
 * (see diagnose_passes.h): a template printed once per step, with a value
 * that says which step ("Loading shard 3/8", "Preparing region for
 * nether"), is as many steps as it has values.  Both splits here give each
 * step an id of its own, past the canonical ids, so that milestones,
 * alignment and the walk see "shard 3" and "region nether" as steps the
 * bad run did or did not take, in their order. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "classify.h"
#include "diagnose_passes.h"
#include "mask.h"

/* Append the ids st->nc .. st->nc + n to st, split off templates
 * parent[0..n) with texts text[0..n) (st->counted takes them), each with
 * its parent's level and no rule: a rule names the template, not its
 * steps. */
static void add_steps(struct dx_state *st, const uint32_t *parent, char **text, size_t n)
{
	size_t nc = st->nc, total = nc + n;
	if (!n)
		return;
	st->ctext = xrealloc(st->ctext, total * sizeof(*st->ctext));
	st->clevel = xrealloc(st->clevel, total);
	st->rule = xrealloc(st->rule, total * sizeof(*st->rule));
	st->parent = xrealloc(st->parent, total * sizeof(*st->parent));
	st->counted = xrealloc(st->counted, (st->ncounted + n) * sizeof(*st->counted));
	for (size_t k = 0; k < n; k++) {
		st->parent[nc + k] = parent[k];
		st->ctext[nc + k] = text[k];
		st->clevel[nc + k] = st->clevel[parent[k]];
		st->rule[nc + k] = -1;
		st->counted[st->ncounted++] = text[k];
	}
	st->nc = total;
}

/* What each_line calls for line i of log l, with the line's message. */
typedef void line_fn(const struct dx_state *st, size_t l, size_t i, const char *msg, size_t len, void *arg);

/* Call fn for each line of the templates cand marks, log by log, in
 * order: the only re-reading of lines the splits do. */
static void each_line(const struct dx_state *st, const uint8_t *cand, line_fn *fn, void *arg)
{
	struct buf scratch = { 0 };
	for (size_t l = 0; l < st->nlogs; l++)
		for (size_t i = 0; i < st->logs[l].nlines; i++) {
			if (!cand[st->id[l][i]])
				continue;
			struct line ln;
			struct header h;
			log_line(&st->logs[l], i, &ln, &h, &scratch);
			fn(st, l, i, ln.text + h.msg_off, ln.len - h.msg_off, arg);
		}
	buf_free(&scratch);
}

/* ---- counted steps ---- */

/* A template that counts ("step <int>/<int>", "epoch <int>/<int>",
 * "Loading shard <int>/<int>") is one step per count: "step 3/8" is
 * where a run got, and what it should print next.  Such templates are
 * split into one id per count, so that milestones, alignment and the
 * walk see each count as its own step.  Only templates every log prints,
 * bad too, and at most COUNT_MAX times, are split: a count only one run
 * makes (another loader, another build) is no step the other missed; a
 * counter per request or per token in a big log is progress, not a step,
 * and re-reading its lines would cost a pass over the log. */
#define COUNT_MAX 4096

/* The decimal number at s[*k..n) (saturating past UINT32_MAX); *k moves
 * past its digits. */
static uint64_t number_at(const char *s, size_t n, size_t *k)
{
	uint64_t x = 0;
	for (; *k < n && isdigit((unsigned char)s[*k]); (*k)++)
		if (x < UINT32_MAX)
			x = x * 10 + (uint64_t)(s[*k] - '0');
	return x;
}

/* Whether s[i] may end a number written N/M: the end, or neither a word,
 * a path nor a decimal goes on there. */
static int count_ends(const char *s, size_t n, size_t i)
{
	return i == n || (!isalnum((unsigned char)s[i]) && s[i] != '/' && s[i] != '.');
}

/* The count and total of "<int>/<int>" in a message: the first numbers
 * written N/M, not inside a word, a path or a decimal. */
static int count_of(const char *s, size_t n, uint64_t *count, uint64_t *total)
{
	for (size_t i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			continue;
		size_t k = i;
		uint64_t x = number_at(s, n, &k);
		int starts = i == 0 || (!isalnum((unsigned char)s[i - 1]) && s[i - 1] != '/' && s[i - 1] != '.');
		if (starts && k + 1 < n && s[k] == '/' && isdigit((unsigned char)s[k + 1])) {
			size_t e = k + 1;
			uint64_t y = number_at(s, n, &e);
			if (count_ends(s, n, e)) {
				*count = x;
				*total = y;
				return 1;
			}
		}
		i = k;
	}
	return 0;
}

struct counted {
	uint32_t c;
	uint32_t x, total;
	uint32_t log;
	uint32_t line;
};

static int counted_cmp(const void *p, const void *q)
{
	const struct counted *a = p, *b = q;
	if (a->c != b->c)
		return a->c < b->c ? -1 : 1;
	return a->x < b->x ? -1 : a->x > b->x;
}

/* The templates split_counters may split (see COUNT_MAX): no rule names
 * them, they count ("<int>/<int>", no progress bar's "<pct>"), and every
 * log prints them, at most COUNT_MAX times, and some log more than once:
 * a count printed once per run is a tally ("Score: 1/70", "12/12 tests
 * passed"), the run's result, not the step it got to.  NULL when none
 * is. */
static uint8_t *counter_candidates(const struct dx_state *st)
{
	size_t nc = st->nc, ncand = 0;
	uint8_t *cand = xcalloc(nc ? nc : 1, 1);
	for (size_t c = 0; c < nc; c++)
		if (st->rule[c] < 0 && strstr(st->ctext[c], "<int>/<int>") && !strstr(st->ctext[c], "<pct>"))
			cand[c] = 1, ncand++;
	if (!ncand) {
		free(cand);
		return NULL;
	}
	uint32_t *n = xcalloc(nc, sizeof(*n));
	uint8_t *again = xcalloc(nc, 1);
	for (size_t l = 0; l < st->nlogs; l++) {
		memset(n, 0, nc * sizeof(*n));
		for (size_t i = 0; i < st->logs[l].nlines; i++) {
			uint32_t c = st->id[l][i];
			if (cand[c] && ++n[c] > COUNT_MAX)
				cand[c] = 0;
		}
		for (size_t c = 0; c < nc; c++) {
			if (!n[c])
				cand[c] = 0;
			again[c] |= n[c] > 1;
		}
	}
	for (size_t c = 0; c < nc; c++)
		cand[c] &= again[c];
	free(again);
	free(n);
	return cand;
}

struct counted_list {
	struct counted *e;
	size_t n, cap;
};

static void add_counted(const struct dx_state *st, size_t l, size_t i, const char *msg, size_t len, void *arg)
{
	struct counted_list *cl = arg;
	uint64_t x, total;
	if (!count_of(msg, len, &x, &total))
		return;
	GROW(cl->e, cl->cap, cl->n + 1);
	cl->e[cl->n++] = (struct counted){ st->id[l][i], (uint32_t)x, (uint32_t)total, (uint32_t)l, (uint32_t)i };
}

/* The lines of the candidate templates that say a count, with it, into
 * *out (sorted by template, then count); returns how many. */
static size_t counted_lines(const struct dx_state *st, const uint8_t *cand, struct counted **out)
{
	struct counted_list cl = { 0 };
	each_line(st, cand, add_counted, &cl);
	if (cl.n)
		qsort(cl.e, cl.n, sizeof(*cl.e), counted_cmp);
	*out = cl.e;
	return cl.n;
}

/* Counts toward different totals (4 shards here, 2 there; 67 graph
 * sizes, 35) are not the same steps: such a template stays one.  Keeps
 * in e[0..ne) the lines of templates that count toward one total;
 * returns how many. */
static size_t one_total(struct counted *e, size_t ne)
{
	size_t kept = 0;
	for (size_t a = 0, b; a < ne; a = b) {
		int same = 1;
		for (b = a; b < ne && e[b].c == e[a].c; b++)
			same &= e[b].total == e[a].total;
		if (!same)
			continue;
		for (size_t k = a; k < b; k++)
			e[kept++] = e[k];
	}
	return kept;
}

/* Template text t with the count x written in for its "<int>/<int>"'s
 * first number.  The caller frees it. */
static char *counted_text(const char *t, uint32_t x)
{
	const char *at = strstr(t, "<int>/<int>");
	char num[24];
	int w = snprintf(num, sizeof(num), "%u", (unsigned)x);
	size_t pre = (size_t)(at - t), len = strlen(t);
	char *txt = xmalloc(len + (size_t)w + 1);
	memcpy(txt, t, pre);
	memcpy(txt + pre, num, (size_t)w);
	memcpy(txt + pre + (size_t)w, at + 5, len - pre - 5 + 1);
	return txt;
}

/* Split the counting templates of st (see COUNT_MAX) into one id per
 * count.  A template a rule names keeps its one id: the rule says what it
 * is; so does a progress bar, which says its percentage: the bar is the
 * step, not each frame. */
static void split_counters(struct dx_state *st)
{
	uint8_t *cand = counter_candidates(st);
	if (!cand)
		return;
	struct counted *e;
	size_t ne = counted_lines(st, cand, &e);
	free(cand);
	ne = one_total(e, ne);
	size_t n = 0, cap = 0;
	uint32_t *parent = NULL;
	char **text = NULL;
	for (size_t k = 0; k < ne; k++) {
		if (k == 0 || e[k].c != e[k - 1].c || e[k].x != e[k - 1].x) {
			GROW(parent, cap, n + 1);
			text = xrealloc(text, cap * sizeof(*text));
			parent[n] = e[k].c;
			text[n++] = counted_text(st->ctext[e[k].c], e[k].x);
		}
		st->id[e[k].log][e[k].line] = (uint32_t)(st->nc + n - 1);
	}
	free(e);
	add_steps(st, parent, text, n);
	free(parent);
	free(text);
}

/* ---- steps named by a value ---- */

/* A template printed once per step with a value that names the step
 * ("Preparing start region for <*>", "Chunked prefill is enabled with
 * max_num_batched_tokens=<int>", "Epoch <int>: loss=<float>"): the value
 * differs between steps and repeats between runs.  Such a template is one
 * step per value, as a counted one is, so that a bad run that died in its
 * third region is aligned with the good run's third, not its fifth.
 *
 * A field of the template's lines (which of the cluster's templates a line
 * is, or its k-th masked value; never a measurement: a number with a
 * fraction, a size, duration, percentage, time, date, address or hex)
 * names the step when
 *   - in every log and stream (rank), each of its values is printed in one
 *     unbroken run of the template's lines: a step, once left, is not come
 *     back to (a field that goes back to a value counts requests or
 *     measures something);
 *   - a good run printed two values or more in one stream; and
 *   - the values the bad run printed, in order, are the first a good run
 *     printed: the steps bad took are the good run's first ones.
 * The step is the values of the fields that name it, and every step bad
 * took a good run took too, or the template stays one.  Only templates
 * every log prints, at most NAMED_MAX times each, are looked at: a line
 * printed more is progress, not a step, and re-reading it would cost a pass
 * over the log; NAMED_LINES bounds the lines re-read in all. */
#define NAMED_MAX 256
#define NAMED_LINES 65536
#define NAMED_FIELDS 6

struct named {
	uint32_t c, log, line;
	uint16_t stream;
	uint64_t f[NAMED_FIELDS];   /* f[0] its template, f[1..] its values; 0: none */
	uint64_t key;               /* the values of the fields naming the step */
};

static int named_cmp(const void *p, const void *q)
{
	const struct named *a = p, *b = q;
	if (a->c != b->c)
		return a->c < b->c ? -1 : 1;
	if (a->log != b->log)
		return a->log < b->log ? -1 : 1;
	if (a->stream != b->stream)
		return a->stream < b->stream ? -1 : 1;
	return a->line < b->line ? -1 : a->line > b->line;
}

/* Whether a value of type t may name a step (see above). */
static int names_step(uint8_t t)
{
	return t == V_INT || t == V_ID || t == V_KV || t == V_WORD || t == V_PATH || t == V_URL;
}

/* The templates to look at (see NAMED_MAX): none a rule names, no count
 * (split_counters' domain), heartbeat or progress bar; every log prints
 * them, at most NAMED_MAX times, a good one twice or more.  NULL when
 * none is. */
static uint8_t *named_candidates(const struct dx_state *st)
{
	size_t nc = st->nc, lines = 0;
	uint8_t *cand = xcalloc(nc ? nc : 1, 1);
	uint32_t *n = xcalloc(nc ? nc : 1, sizeof(*n));
	uint32_t *total = xcalloc(nc ? nc : 1, sizeof(*total));
	uint8_t *twice = xcalloc(nc ? nc : 1, 1);
	for (size_t c = 0; c < nc; c++)
		cand[c] = st->rule[c] < 0 && !strstr(st->ctext[c], "<int>/<int>") &&
			  !mask_is_progress_bar(st->ctext[c]) && !classify_is_heartbeat(st->rs, st->ctext[c]) &&
			  !is_blank(st->ctext[c]);
	for (size_t l = 0; l < st->nlogs; l++) {
		memset(n, 0, nc * sizeof(*n));
		for (size_t i = 0; i < st->logs[l].nlines; i++)
			n[st->id[l][i]]++;
		for (size_t c = 0; c < nc; c++) {
			if (!n[c] || n[c] > NAMED_MAX)
				cand[c] = 0;
			total[c] += n[c];
			if (l != st->bad && n[c] >= 2)
				twice[c] = 1;
		}
	}
	size_t ncand = 0;
	for (size_t c = 0; c < nc; c++) {
		cand[c] &= twice[c];
		if (cand[c] && lines + total[c] > NAMED_LINES)
			cand[c] = 0;
		if (cand[c])
			lines += total[c], ncand++;
	}
	free(n);
	free(total);
	free(twice);
	if (!ncand) {
		free(cand);
		return NULL;
	}
	return cand;
}

struct named_list {
	struct named *e;
	size_t n, cap;
	struct masked m;
};

static void add_named(const struct dx_state *st, size_t l, size_t i, const char *msg, size_t len, void *arg)
{
	struct named_list *nl = arg;
	mask_message(msg, len, &nl->m);
	GROW(nl->e, nl->cap, nl->n + 1);
	struct named *x = &nl->e[nl->n++];
	memset(x, 0, sizeof(*x));
	x->c = st->id[l][i], x->log = (uint32_t)l, x->line = (uint32_t)i;
	x->stream = st->stream[l][i];
	x->f[0] = (uint64_t)st->logs[l].tid[i] + 1;
	for (size_t k = 0; k < nl->m.nv && k + 1 < NAMED_FIELDS; k++)
		if (names_step(nl->m.v[k].type))
			x->f[k + 1] = hash_bytes(msg + nl->m.v[k].off, nl->m.v[k].len) | 1;
}

/* The lines of the candidate templates with their fields into *out,
 * sorted by template, log, stream and line; returns how many. */
static size_t named_lines(const struct dx_state *st, const uint8_t *cand, struct named **out)
{
	struct named_list nl = { 0 };
	each_line(st, cand, add_named, &nl);
	masked_free(&nl.m);
	if (nl.n)
		qsort(nl.e, nl.n, sizeof(*nl.e), named_cmp);
	*out = nl.e;
	return nl.n;
}

static int u64_cmp(const void *p, const void *q)
{
	uint64_t a = *(const uint64_t *)p, b = *(const uint64_t *)q;
	return a < b ? -1 : a > b;
}

/* Whether v[0..n) is sorted and holds x. */
static int holds(const uint64_t *v, size_t n, uint64_t x)
{
	return n && bsearch(&x, v, n, sizeof(*v), u64_cmp) != NULL;
}

/* The distinct values of one log's run of values v[0..n), each the value
 * of one unbroken run, sorted into out (n entries); how many, or -1 when
 * a value comes back after another. */
static long value_runs(const uint64_t *v, size_t n, uint64_t *out)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (i == 0 || v[i] != v[i - 1])
			out[k++] = v[i];
	qsort(out, k, sizeof(*out), u64_cmp);
	for (size_t i = 1; i < k; i++)
		if (out[i] == out[i - 1])
			return -1;
	return (long)k;
}

/* Whether the values of field f in x[0..nx), each run of one value taken
 * once, begin the values of y[0..ny) so taken: bad's steps so far are
 * the good run's first ones. */
static int begins(const struct named *x, size_t nx, const struct named *y, size_t ny, size_t f)
{
	size_t j = 0;
	for (size_t i = 0; i < nx; i++) {
		if (i > 0 && x[i].f[f] == x[i - 1].f[f])
			continue;
		while (j > 0 && j < ny && y[j].f[f] == y[j - 1].f[f])
			j++;
		if (j == ny || y[j].f[f] != x[i].f[f])
			return 0;
		j++;
	}
	return 1;
}

/* Whether field f of the lines e[0..n) of one template (sorted by log
 * and stream) names its step (see above).  Each rank is looked at by
 * itself: a value that only tells ranks apart ("loading shard 1" on rank
 * 1, "shard 0" on rank 0) names no step, as every rank takes the same
 * one.  Bad's values in a stream must begin a good run's in that stream
 * (in any, when no good run has it), in order: a run that died in its
 * third region printed the first two, while one that lists five routes
 * where the good run lists twelve, in another order, has no steps in
 * them but another configuration. */
static int field_names_step(const struct dx_state *st, const struct named *e, size_t n, size_t f)
{
	size_t *at = xmalloc((n + 1) * sizeof(*at)), ng = 0;   /* runs of one log and stream */
	uint64_t *runs = xmalloc(n * sizeof(*runs)), *v = xmalloc(n * sizeof(*v));
	int ok = 1, two = 0;
	for (size_t a = 0, b; a < n; a = b) {
		for (b = a; b < n && e[b].log == e[a].log && e[b].stream == e[a].stream; b++)
			v[b - a] = e[b].f[f];
		long k = value_runs(v, b - a, runs);
		ok &= k >= 0;
		if (k >= 0 && e[a].log != st->bad)
			two |= k - (runs[0] == 0) >= 2;   /* 0: lines without it */
		at[ng++] = a;
	}
	at[ng] = n;
	for (size_t g = 0; g < ng && ok; g++) {
		const struct named *x = &e[at[g]];
		if (x->log != st->bad)
			continue;
		int same = 0, found = 0;
		for (size_t h = 0; h < ng; h++)
			same |= e[at[h]].log != st->bad && e[at[h]].stream == x->stream;
		for (size_t h = 0; h < ng && !found; h++) {
			const struct named *y = &e[at[h]];
			if (y->log != st->bad && (!same || y->stream == x->stream))
				found = begins(x, at[g + 1] - at[g], y, at[h + 1] - at[h], f);
		}
		ok = found;
	}
	free(at);
	free(runs);
	free(v);
	return ok && two;
}

/* Split the template of lines e[0..n) (sorted by log, bad's last) by the
 * fields that name its step; the new ids' parents and texts are appended
 * to *parent, *text (*np of them, room for *cap). */
static void split_named(struct dx_state *st, struct named *e, size_t n, uint32_t **parent,
			char ***text, size_t *np, size_t *cap)
{
	uint64_t fmask = 0;
	for (size_t f = 0; f < NAMED_FIELDS; f++)
		if (field_names_step(st, e, n, f))
			fmask |= 1u << f;
	if (!fmask)
		return;
	size_t ngood = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t key = 0x9e3779b97f4a7c15ull;
		for (size_t f = 0; f < NAMED_FIELDS; f++)
			if (fmask >> f & 1)
				key = (key ^ e[i].f[f]) * 0x100000001b3ull;
		e[i].key = key;
		ngood += e[i].log != st->bad;
	}
	/* Every step bad took, a good run took. */
	uint64_t *keys = xmalloc((ngood ? ngood : 1) * sizeof(*keys));
	for (size_t i = 0; i < ngood; i++)
		keys[i] = e[i].key;
	qsort(keys, ngood, sizeof(*keys), u64_cmp);
	for (size_t i = ngood; i < n; i++)
		if (!holds(keys, ngood, e[i].key)) {
			free(keys);
			return;
		}
	/* One id per step, numbered in the order keys sort. */
	size_t nk = 0;
	for (size_t i = 0; i < ngood; i++)
		if (i == 0 || keys[i] != keys[i - 1])
			keys[nk++] = keys[i];
	size_t base = st->nc + *np;
	for (size_t k = 0; k < nk; k++) {
		GROW(*parent, *cap, *np + 1);
		*text = xrealloc(*text, *cap * sizeof(**text));
		(*parent)[*np] = e[0].c;
		(*text)[(*np)++] = xstrdup(st->ctext[e[0].c]);
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t *at = bsearch(&e[i].key, keys, nk, sizeof(*keys), u64_cmp);
		st->id[e[i].log][e[i].line] = (uint32_t)(base + (size_t)(at - keys));
	}
	free(keys);
}

/* Split the templates of st whose steps a value names (see NAMED_MAX). */
static void split_named_steps(struct dx_state *st)
{
	uint8_t *cand = named_candidates(st);
	if (!cand)
		return;
	struct named *e;
	size_t ne = named_lines(st, cand, &e);
	free(cand);
	size_t np = 0, cap = 0;
	uint32_t *parent = NULL;
	char **text = NULL;
	for (size_t a = 0, b; a < ne; a = b) {
		for (b = a; b < ne && e[b].c == e[a].c; b++)
			;
		split_named(st, e + a, b - a, &parent, &text, &np, &cap);
	}
	free(e);
	add_steps(st, parent, text, np);
	free(parent);
	free(text);
}

void split_steps(struct dx_state *st)
{
	st->parent = xmalloc((st->nc ? st->nc : 1) * sizeof(*st->parent));
	for (size_t c = 0; c < st->nc; c++)
		st->parent[c] = (uint32_t)c;
	split_counters(st);
	split_named_steps(st);
}
