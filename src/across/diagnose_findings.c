/* diagnose_findings.c — the findings passes (see diagnose_passes.h): what
 * bad printed that no good run did (new lines, a traceback as one
 * finding, its summary the line that names the failure), what changed
 * against the good run (changes.c), and where each rank got and the one
 * the failure started on (streams.c, culprit.c). */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "align.h"
#include "changes.h"
#include "classify.h"
#include "culprit.h"
#include "diagnose_passes.h"
#include "streams.h"

/* ---- new lines and tracebacks ---- */

/* Errors first, then warnings, then the rest; each by line. */
static int novel_cmp(const void *x, const void *y)
{
	const struct dx_novel *a = x, *b = y;
	if (a->severity != b->severity)
		return a->severity > b->severity ? -1 : 1;
	return a->line < b->line ? -1 : a->line > b->line;
}

/* Whether bad's line i starts a traceback: "Traceback (most recent call
 * last):" and the like, or an exception line that frames follow (Java,
 * Go, faulthandler print the exception first). */
static int starts_traceback(const struct dx_state *st, size_t i)
{
	const uint32_t *id = st->id[st->bad];
	size_t nb = st->logs[st->bad].nlines;
	if (st->tb[id[i]] == CLASSIFY_TB_START)
		return 1;
	if (st->tb[id[i]] != CLASSIFY_TB_EXC)
		return 0;
	if (classify_message_follows(st->ctext[id[i]]))
		return 1;
	for (size_t j = i + 1; j < nb && j <= i + 2; j++)
		if (!is_blank(st->ctext[id[j]]))
			return st->tb[id[j]] == CLASSIFY_TB_BODY || st->tb[id[j]] == CLASSIFY_TB_CAUSE;
	return 0;
}

/* Whether exception line t names the exception and nothing else
 * ("ChildFailedError: "): what went wrong was printed elsewhere. */
static int says_nothing(const char *t)
{
	t += strspn(t, " \t");
	const char *colon = strrchr(t, ':');
	return colon && is_blank(colon + 1) && !memchr(t, ' ', (size_t)(colon - t));
}

/* A traceback of bad: lines [start, end), its exception lines (the first
 * and the last of a chain), the line that says what caused it. */
struct traceback {
	size_t start, end;
	int64_t first, last, cause;   /* DX_NONE when it has none */
	int64_t part;                 /* the line that starts its last part
				       * (a header after "During handling of
				       * ..."), or start */
	int isnew;                    /* a line of it no good run printed */
};

/* The traceback role of bad's line j in the traceback that starts at
 * line i: the line under a Python frame is the frame's source line,
 * whatever it reads like. */
static int traceback_role(const struct dx_state *st, size_t i, size_t j)
{
	const uint32_t *id = st->id[st->bad];
	if (j > i && classify_is_source_frame(st->ctext[id[j - 1]]))
		return CLASSIFY_TB_BODY;
	return st->tb[id[j]];
}

/* Whether bad's line j may be part of the traceback that starts at line
 * i: a line of a traceback, or a frame's source line. */
static int in_traceback(const struct dx_state *st, size_t i, size_t j)
{
	const uint32_t *id = st->id[st->bad];
	return j < st->logs[st->bad].nlines &&
	       (st->tb[id[j]] != CLASSIFY_TB_NO || (j > i && classify_is_source_frame(st->ctext[id[j - 1]])));
}

/* Line j of bad as the last of tb's lines. */
static void traceback_take(const struct dx_state *st, struct traceback *tb, size_t j)
{
	tb->isnew |= is_novel_template(st, st->id[st->bad][j]);
	tb->end = j + 1;
}

/* Python prints the exception right after the frames, whatever its name
 * ("BackendCompilerFailed: ...", "jupyter_client.kernelspec.NoSuchKernel:
 * ..."): the line after frames without one is the exception -- after
 * those of each traceback of a chain, the last one's too. */
static void python_exception(const struct dx_state *st, struct traceback *tb)
{
	size_t j = tb->end;
	if ((tb->last != DX_NONE && tb->last > tb->part) || tb->cause != DX_NONE || j <= (size_t)tb->part + 1 ||
	    j >= st->logs[st->bad].nlines || !classify_is_exception_shaped(st->ctext[st->id[st->bad][j]]) ||
	    (tb->last != DX_NONE && starts_traceback(st, j)))
		return;
	if (tb->first == DX_NONE)
		tb->first = (int64_t)j;
	tb->last = (int64_t)j;
	traceback_take(st, tb, j);
}

/* Rust's panic says what went wrong on the line after it: that line is
 * the exception. */
static void rust_panic(const struct dx_state *st, struct traceback *tb)
{
	const uint32_t *id = st->id[st->bad];
	size_t j = tb->end;
	if (tb->first == DX_NONE || tb->first != tb->last || j != (size_t)tb->first + 1 ||
	    j >= st->logs[st->bad].nlines || !classify_message_follows(st->ctext[id[tb->first]]) ||
	    is_blank(st->ctext[id[j]]))
		return;
	tb->first = tb->last = (int64_t)j;
	traceback_take(st, tb, j);
}

/* The traceback that starts at bad's line i (starts_traceback), into tb:
 * its frames, exception lines and chained tracebacks, up to the next
 * traceback of its own.  The cause is the chain's root: Python's first
 * exception ("The above exception was the direct cause of ...", "During
 * handling of ..."), Java's deepest "Caused by:". */
static void traceback_extent(const struct dx_state *st, size_t i, struct traceback *tb)
{
	size_t j = i;
	int chained = 0;
	*tb = (struct traceback){ .start = i, .end = i, .first = DX_NONE, .last = DX_NONE, .cause = DX_NONE,
				  .part = (int64_t)i };
	for (; in_traceback(st, i, j); j++) {
		int r = traceback_role(st, i, j);
		/* The next traceback: a header after an exception, or an
		 * exception with frames below it after this part's own (the
		 * exception that ends a part may be followed by lines that
		 * read as frames: the box of stars around its message). */
		if (j > i && !chained &&
		    ((r == CLASSIFY_TB_START && tb->first != DX_NONE) ||
		     (r == CLASSIFY_TB_EXC && tb->last != DX_NONE && tb->last >= tb->part && starts_traceback(st, j))))
			break;
		if (r == CLASSIFY_TB_CHAIN)
			chained = 1;
		if (r == CLASSIFY_TB_START) {
			chained = 0;
			tb->part = (int64_t)j;
		}
		if (r == CLASSIFY_TB_EXC && tb->first == DX_NONE)
			tb->first = (int64_t)j;
		if (r == CLASSIFY_TB_EXC)
			tb->last = (int64_t)j;
		if (r == CLASSIFY_TB_CAUSE)
			tb->cause = (int64_t)j;
		traceback_take(st, tb, j);
	}
	tb->end = j;
	python_exception(st, tb);
	rust_panic(st, tb);
}

/* "EngineCore failed to start." just before the traceback is its
 * headline, not another finding: the first of the new errors of its
 * stream right before tb (within bad's last attempt, and not part of a
 * finding already), blank lines between them aside (Spring's
 * "Application run failed", a blank line, then the exception): the
 * traceback says what the headline only announces. */
static size_t traceback_headline(const struct dx_state *st, const uint8_t *used, const struct traceback *tb)
{
	const uint32_t *id = st->id[st->bad];
	const uint16_t *stream = st->stream[st->bad];
	size_t i = tb->start, j = i;
	while (j > st->from && !used[j - 1] && is_blank(st->ctext[id[j - 1]]))
		j--;
	size_t k = j;
	while (k > st->from && !used[k - 1] && st->new_error[id[k - 1]] && stream[k - 1] == stream[i])
		k--;
	return k < j ? k : i;
}

/* A traceback's severity is its lines' highest, from its headline on: one
 * logged at WARNING (vLLM's "failed to import" notices) is a warning. */
static uint8_t traceback_severity(const struct dx_state *st, size_t from, size_t to)
{
	uint8_t sev = DX_INFO;
	for (size_t k = from; k < to; k++)
		if (st->sev[st->id[st->bad][k]] > sev)
			sev = st->sev[st->id[st->bad][k]];
	return sev;
}

/* Whether t is an exception's name alone on its line, as cleo (Poetry)
 * and Rich print one above its message: "  SolverProblemError". */
static int names_alone(const char *t)
{
	t += strspn(t, " \t");
	size_t n = strspn(t, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.");
	if (!is_blank(t + n) || n < 5)
		return 0;
	return (n >= 5 && strncmp(t + n - 5, "Error", 5) == 0) || (n >= 9 && strncmp(t + n - 9, "Exception", 9) == 0);
}

/* The line that says what happened in tb, headed from line head: the
 * last exception its chain printed, else its last line.  That is what
 * the run died of, as the chain reads down: Python's last exception
 * ("During handling of the above exception, another exception
 * occurred:" then "NoSuchKernel: No such kernel named p6", which says
 * more than the KeyError before it; a chain that ends in Ctrl-C or
 * SIGTERM was stopped from outside, whatever it was doing then), Java's
 * deepest "Caused by:".  An exception that names itself and nothing
 * else ("RuntimeError: ", or its name alone: names_alone) has its
 * message on the next line that is not blank (nor a row of stars) when
 * that is a sentence ("        An attempt has been made to start a new
 * process ...", "   CMake must be installed ...", "  The
 * current project's Python requirement ... is not compatible ..."); with
 * none ("ChildFailedError: "), its headline says what happened. */
static int64_t traceback_summary(const struct dx_state *st, const struct traceback *tb, size_t head)
{
	const uint32_t *id = st->id[st->bad];
	int64_t summary = tb->last != DX_NONE ? tb->last : (int64_t)tb->end - 1;
	if (tb->cause != DX_NONE && (tb->last == DX_NONE || tb->cause > tb->last))
		summary = tb->cause;
	const char *t = st->ctext[id[summary]];
	if (names_alone(t) || (summary != tb->cause && says_nothing(t))) {
		size_t j = (size_t)summary + 1;
		while (j < tb->end && j <= (size_t)summary + 2 &&
		       st->ctext[id[j]][strspn(st->ctext[id[j]], " \t*")] == '\0')
			j++;
		const char *m = j < tb->end ? st->ctext[id[j]] : "";
		m += strspn(m, " \t");
		if (m[0] >= 'A' && m[0] <= 'Z' && strchr(m, ' ') && strncmp(m, "File \"", 6) != 0)
			return (int64_t)j;
	}
	if (summary != tb->cause && head < tb->start && says_nothing(t))
		summary = (int64_t)head;
	return summary;
}

/* What the findings passes count as they go. */
struct novel_count {
	size_t cap;
	uint8_t *used;      /* per bad line: part of a finding */
	uint8_t *seen;      /* per template: counted (1), its finding at where (2) */
	uint32_t *where;
};

/* The finding of traceback tb, from its headline head on. */
static void add_traceback(const struct dx_state *st, struct diagnosis *d, struct novel_count *n,
			  const struct traceback *tb, size_t head)
{
	const uint32_t *id = st->id[st->bad];
	GROW(d->novel, n->cap, d->nnovel + 1);
	d->novel[d->nnovel++] = (struct dx_novel){
		.line = (int64_t)head, .summary = traceback_summary(st, tb, head),
		.nlines = (uint32_t)(tb->end - head), .severity = traceback_severity(st, head, tb->end),
		.traceback = 1,
	};
	d->novel_lines += tb->end - head;
	for (size_t k = head; k < tb->end; k++) {
		n->used[k] = 1;
		if (is_novel_template(st, id[k]) && !n->seen[id[k]]) {
			n->seen[id[k]] = 1;
			d->novel_templates++;
		}
	}
}

/* A traceback is one finding, when a line of it is new: what the last
 * attempt printed (earlier attempts are counted). */
static void find_tracebacks(const struct dx_state *st, struct diagnosis *d, struct novel_count *n)
{
	size_t nb = st->logs[st->bad].nlines;
	for (size_t i = st->from; i < nb; i++) {
		if (!starts_traceback(st, i))
			continue;
		struct traceback tb;
		traceback_extent(st, i, &tb);
		if (!tb.isnew)
			continue;
		add_traceback(st, d, n, &tb, traceback_headline(st, n->used, &tb));
		i = tb.end - 1;
	}
}

/* Every other line no good run printed: a finding per template, at its
 * first line, counting its lines. */
static void find_new_lines(const struct dx_state *st, struct diagnosis *d, struct novel_count *n)
{
	const uint32_t *id = st->id[st->bad];
	for (size_t i = st->from; i < st->logs[st->bad].nlines; i++) {
		uint32_t c = id[i];
		if (n->used[i] || !is_novel_template(st, c))
			continue;
		d->novel_lines++;
		if (n->seen[c] == 2) {
			d->novel[n->where[c]].nlines++;
			continue;
		}
		if (!n->seen[c])
			d->novel_templates++;
		n->seen[c] = 2;
		GROW(d->novel, n->cap, d->nnovel + 1);
		n->where[c] = (uint32_t)d->nnovel;
		d->novel[d->nnovel++] = (struct dx_novel){
			.line = (int64_t)i, .summary = (int64_t)i, .nlines = 1,
			.severity = st->sev[c], .traceback = 0,
		};
	}
}

/* ---- numbers that stopped being finite ---- */

/* Line i of lg as its raw bytes. */
static const char *raw_line(const struct log *lg, size_t i, size_t *len)
{
	const char *p = lg->in.data + lg->offset[i];
	size_t end = i + 1 < lg->nlines ? lg->offset[i + 1] : lg->in.size;
	*len = end - lg->offset[i];
	while (*len && (p[*len - 1] == '\n' || p[*len - 1] == '\r'))
		(*len)--;
	return p;
}

/* A token: a run of bytes between blanks and the punctuation that sets
 * values apart ("loss=nan," "acc: 0.5"). */
static int value_sep(char c)
{
	return c == ' ' || c == '\t' || c == '=' || c == ':' || c == ',' || c == ';' || c == '(' ||
	       c == ')' || c == '[' || c == ']' || c == '{' || c == '}' || c == '|' || c == '"' || c == '\'';
}

/* The k-th token of p[0..n): its start and length; 0 when there is none. */
static int token(const char *p, size_t n, size_t k, const char **t, size_t *tn)
{
	size_t i = 0;
	for (;;) {
		while (i < n && value_sep(p[i]))
			i++;
		if (i == n)
			return 0;
		size_t j = i;
		while (j < n && !value_sep(p[j]))
			j++;
		if (k-- == 0) {
			*t = p + i, *tn = j - i;
			return 1;
		}
		i = j;
	}
}

/* Whether t[0..n) is nan or inf (any case, signed, "infinity"). */
static int is_non_finite(const char *t, size_t n)
{
	if (n && (*t == '-' || *t == '+'))
		t++, n--;
	return (n == 3 && (strncasecmp(t, "nan", 3) == 0 || strncasecmp(t, "inf", 3) == 0)) ||
	       (n == 8 && strncasecmp(t, "infinity", 8) == 0);
}

/* Whether t[0..n) is a finite number, all of it. */
static int is_finite_number(const char *t, size_t n)
{
	char v[64], *end;
	if (n == 0 || n >= sizeof(v))
		return 0;
	memcpy(v, t, n);
	v[n] = '\0';
	double x = strtod(v, &end);
	return *end == '\0' && isfinite(x) && (isdigit((unsigned char)v[0]) || v[0] == '-' || v[0] == '.');
}

/* The index of the first token of p[0..n) that is nan or inf, or -1:
 * one pass over the line, as every line of a template with a variable
 * part is looked at. */
static int64_t first_non_finite(const char *p, size_t n)
{
	/* Most lines hold neither "nan" nor "inf", in any case: a cheap look
	 * for either spares them the tokens. */
	size_t at = 0;
	while (at + 2 < n && !((p[at] | 0x20) == 'n' && (p[at + 1] | 0x20) == 'a' && (p[at + 2] | 0x20) == 'n') &&
	       !((p[at] | 0x20) == 'i' && (p[at + 1] | 0x20) == 'n' && (p[at + 2] | 0x20) == 'f'))
		at++;
	if (at + 2 >= n)
		return -1;
	int64_t k = 0;
	for (size_t i = 0;; k++) {
		while (i < n && value_sep(p[i]))
			i++;
		if (i == n)
			return -1;
		size_t j = i;
		while (j < n && !value_sep(p[j]))
			j++;
		if (is_non_finite(p + i, j - i))
			return k;
		i = j;
	}
}

/* Which token of bad's line i is nan or inf where good's line j, of the
 * same template, holds a finite number (counted from the line's start in
 * both), or -1. */
static int64_t value_became_non_finite(const struct log *bad, size_t i, const struct log *good, size_t j)
{
	size_t bn, gn, un;
	const char *b = raw_line(bad, i, &bn), *g, *u;
	int64_t k = first_non_finite(b, bn);
	if (k < 0)
		return -1;
	g = raw_line(good, j, &gn);
	return token(g, gn, (size_t)k, &u, &un) && is_finite_number(u, un) ? k : -1;
}

/* Whether a good run printed nan or inf as token k of a line of template
 * c, at any of its steps (st->parent): then it is how good runs go (a
 * loss scaler's skipped step, at another step in every run). */
static int good_prints_non_finite(const struct dx_state *st, uint32_t c, size_t k)
{
	for (size_t g = 0; g < st->ngood; g++)
		for (size_t j = 0; j < st->logs[g].nlines; j++) {
			size_t n, tn;
			const char *p, *t;
			if (st->parent[st->id[g][j]] == st->parent[c] && (p = raw_line(&st->logs[g], j, &n)) && token(p, n, k, &t, &tn) &&
			    is_non_finite(t, tn))
				return 1;
		}
	return 0;
}

/* find_non_finite: a number that became nan or inf where the good run
 * printed a number on the same line ("loss: nan" for "loss: 0.31") is an
 * error, whatever the line's level, even when the run went on to its
 * end, unless a good run printed nan or inf there too: a finding at the
 * first such line of bad.  Masking gives both the
 * same template, so no other finding sees it. */
static void find_non_finite(const struct dx_state *st, struct diagnosis *d, struct novel_count *n)
{
	const struct log *bad = &st->logs[st->bad], *good = &st->logs[d->good];
	const uint32_t *id = st->id[st->bad];
	/* Templates passed over: those a good run printed nan or inf in,
	 * found once ... */
	uint8_t *as_good = xcalloc(st->nc ? st->nc : 1, 1);
	/* ... and those with no variable part, where no value can differ. */
	for (size_t c = 0; c < st->nc; c++)
		as_good[c] = strstr(st->ctext[c], "<*>") == NULL;
	for (size_t i = st->from; i < bad->nlines; i++) {
		uint32_t c = id[i];
		int64_t j = st->first[d->good * st->nc + c];
		int64_t k;
		if (n->used[i] || j < 0 || as_good[c] ||
		    (k = value_became_non_finite(bad, i, good, (size_t)j)) < 0)
			continue;
		if (good_prints_non_finite(st, c, (size_t)k)) {
			as_good[c] = 1;
			continue;
		}
		GROW(d->novel, n->cap, d->nnovel + 1);
		d->novel[d->nnovel++] = (struct dx_novel){
			.line = (int64_t)i, .summary = (int64_t)i, .nlines = 1, .severity = DX_ERROR,
		};
		break;
	}
	free(as_good);
}

/* The share of bad's templates the closest good run printed too, into
 * d->good_known of d->bad_templates: templates by the step they are of
 * (a counted step's values are one), of the lines a run prints as it
 * goes.  Left out are the lines of a failure (errors, warnings, the
 * frames and continuation lines of a traceback), which are bad's own
 * whatever the reference, and blank and drawn lines, which say nothing
 * of which program wrote them. */
static void reference_fit(const struct dx_state *st, struct diagnosis *d)
{
	uint8_t *in = xcalloc(st->nc ? st->nc : 1, 1);   /* bit 1: bad, 2: good */
	const size_t logs[2] = { st->bad, d->good };
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < st->logs[logs[k]].nlines; i++)
			if (k == 1 || !line_continues(st, logs[k], i))
				in[st->parent[st->id[logs[k]][i]]] |= (uint8_t)(1u << k);
	size_t nbad = 0, known = 0;
	for (size_t c = 0; c < st->nc; c++)
		if ((in[c] & 1) && st->sev[c] == DX_INFO && st->tb[c] == CLASSIFY_TB_NO &&
		    !is_blank(st->ctext[c]) && !is_drawn(st->ctext[c])) {
			nbad++;
			known += (in[c] & 2) != 0;
		}
	free(in);
	d->bad_templates = nbad;
	d->good_known = nbad ? (double)known / (double)nbad : 1.0;
}

void pass_novel(struct dx_state *st, struct diagnosis *d)
{
	reference_fit(st, d);
	size_t nb = st->logs[st->bad].nlines;
	struct novel_count n = {
		.used = xcalloc(nb ? nb : 1, 1),
		.seen = xcalloc(st->nc ? st->nc : 1, 1),
		.where = xmalloc((st->nc ? st->nc : 1) * sizeof(*n.where)),
	};
	find_tracebacks(st, d, &n);
	find_new_lines(st, d, &n);
	find_non_finite(st, d, &n);
	free(n.used);
	free(n.seen);
	free(n.where);
	if (d->nnovel)
		qsort(d->novel, d->nnovel, sizeof(*d->novel), novel_cmp);
}

/* ---- copies folded ---- */

/* Whether tracebacks a and b are copies: the same lines, template for
 * template, at one severity. */
static int copies(const struct dx_state *st, const struct dx_novel *a, const struct dx_novel *b)
{
	const uint32_t *id = st->id[st->bad];
	if (!a->traceback || !b->traceback || a->nlines != b->nlines || a->severity != b->severity ||
	    a->summary - a->line != b->summary - b->line)
		return 0;
	for (uint32_t k = 0; k < a->nlines; k++)
		if (id[a->line + k] != id[b->line + k])
			return 0;
	return 1;
}

/* A traceback's key: the hash of its templates, so that only tracebacks
 * alike are compared. */
struct fold_key {
	uint64_t hash;
	size_t k;
};

static int fold_key_cmp(const void *x, const void *y)
{
	const struct fold_key *a = x, *b = y;
	if (a->hash != b->hash)
		return a->hash < b->hash ? -1 : 1;
	return (a->k > b->k) - (a->k < b->k);
}

/* Which stream printed a line of which finding. */
struct fold_pair {
	size_t k;
	uint16_t s;
};

/* By finding, then by stream name in natural order (TP2 before TP10);
 * names: the streams' names (qsort_r's argument). */
static int fold_pair_cmp(const void *x, const void *y, void *names)
{
	const struct fold_pair *a = x, *b = y;
	const char *const *name = names;
	if (a->k != b->k)
		return (a->k > b->k) - (a->k < b->k);
	return natcmp(name[a->s], name[b->s]);
}

/* Each finding's group: the first of its copies, by index. */
static size_t *fold_groups(const struct dx_state *st, const struct diagnosis *d)
{
	size_t *group = xmalloc(d->nnovel * sizeof(*group));
	struct fold_key *keys = xmalloc(d->nnovel * sizeof(*keys));
	size_t nk = 0;
	for (size_t k = 0; k < d->nnovel; k++) {
		group[k] = k;
		const struct dx_novel *n = &d->novel[k];
		if (n->traceback)
			keys[nk++] = (struct fold_key){
				hash_bytes(st->id[st->bad] + n->line, n->nlines * sizeof(uint32_t)), k };
	}
	qsort(keys, nk, sizeof(*keys), fold_key_cmp);
	for (size_t a = 0; a < nk; a++)
		for (size_t b = a + 1; b < nk && keys[b].hash == keys[a].hash; b++)
			if (group[keys[b].k] == keys[b].k &&
			    copies(st, &d->novel[keys[a].k], &d->novel[keys[b].k]))
				group[keys[b].k] = group[keys[a].k];
	free(keys);
	return group;
}

void pass_fold(struct dx_state *st, struct diagnosis *d)
{
	if (!d->nnovel)
		return;
	const uint32_t *id = st->id[st->bad];
	const uint16_t *stream = st->stream[st->bad];
	size_t nb = st->logs[st->bad].nlines;
	size_t *group = fold_groups(st, d);
	/* The streams behind each group: a traceback's head line's, every
	 * line's of a template's finding. */
	struct fold_pair *pairs = NULL;
	size_t np = 0, cap = 0;
	uint32_t *of = xmalloc((st->nc ? st->nc : 1) * sizeof(*of));
	for (size_t c = 0; c < st->nc; c++)
		of[c] = UINT32_MAX;
	for (size_t k = 0; k < d->nnovel; k++) {
		struct dx_novel *n = &d->novel[k];
		n->count = n->traceback ? 0 : n->nlines;
		if (!n->traceback) {
			of[id[n->line]] = (uint32_t)k;
			continue;
		}
		d->novel[group[k]].count++;
		GROW(pairs, cap, np + 1);
		pairs[np++] = (struct fold_pair){ group[k], stream[n->line] };
	}
	for (size_t i = st->from; i < nb; i++)
		if (of[id[i]] != UINT32_MAX && stream[i] &&
		    (!np || pairs[np - 1].k != of[id[i]] || pairs[np - 1].s != stream[i])) {
			GROW(pairs, cap, np + 1);
			pairs[np++] = (struct fold_pair){ of[id[i]], stream[i] };
		}
	free(of);
	if (np)
		qsort_r(pairs, np, sizeof(*pairs), fold_pair_cmp, st->snames);
	/* Each group at its first finding's place, as its crash's copy
	 * when the crash is one, with its streams. */
	size_t m = 0, p = 0;
	int64_t crash = DX_NONE;
	for (size_t k = 0; k < d->nnovel; k++) {
		if (group[k] != k)
			continue;
		size_t rep = k;
		if (d->crash != DX_NONE && group[d->crash] == k) {
			rep = (size_t)d->crash;
			crash = (int64_t)m;
		}
		struct dx_novel n = d->novel[rep];
		n.count = d->novel[k].count;
		n.streams = NULL;
		n.nstreams = 0;
		while (p < np && pairs[p].k < k)
			p++;
		for (; p < np && pairs[p].k == k; p++)
			if (st->snames[pairs[p].s][0] &&
			    (!n.nstreams || n.streams[n.nstreams - 1] != pairs[p].s) && n.nstreams < UINT16_MAX) {
				n.streams = xrealloc(n.streams, (n.nstreams + 1u) * sizeof(*n.streams));
				n.streams[n.nstreams++] = pairs[p].s;
			}
		d->novel[k].streams = NULL;
		d->novel[m++] = n;
	}
	d->nnovel = m;
	d->crash = crash;
	free(pairs);
	free(group);
}

/* ---- what changed ---- */

void pass_changes(struct dx_state *st, struct diagnosis *d)
{
	const struct following *w = st->w;
	struct changes_input ci = {
		.logs = st->logs, .ngood = st->ngood, .good = d->good, .bad = &st->logs[st->bad],
		.first = st->first, .nc = st->nc, .bad_id = st->id[st->bad],
		.follow = w->follow, .b2g = w->b2g, .ids = (const uint32_t *const *)st->id,
		.bad_stream = st->stream[st->bad], .good_stream = st->stream[d->good],
		.names = st->snames, .ctext = st->ctext, .sev = st->sev,
	};
	changes_find(&ci, &d->changed, &d->nchanged);
}

/* ---- ranks ---- */

void pass_ranks(struct dx_state *st, struct diagnosis *d)
{
	const struct following *w = st->w;
	struct align_log bad = { st->id[st->bad], st->stream[st->bad], st->logs[st->bad].nlines, st->nstreams,
				 NULL };
	struct align_log good = { st->id[d->good], st->stream[d->good], st->logs[d->good].nlines, st->nstreams,
				  NULL };
	streams_rank_progress(&bad, &good, st->nc, st->snames, w->follow, st->step, st->new_error, d);
	uint8_t *in_good = xmalloc(st->nc ? st->nc : 1);
	for (size_t c = 0; c < st->nc; c++)
		in_good[c] = !is_novel_template(st, (uint32_t)c);
	uint8_t *shared = streams_shared(&good, NULL, st->nc);
	struct culprit_input ci = {
		.bad = &st->logs[st->bad], .id = bad.id, .stream = bad.stream, .follow = w->follow,
		.in_good = in_good, .shared = shared, .ctext = st->ctext,
		.nc = st->nc, .names = st->snames, .nstreams = st->nstreams, .rs = st->rs,
	};
	culprit_find(&ci, d);
	free(in_good);
	free(shared);
}
