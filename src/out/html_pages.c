/* html_pages.c — the pages of `ddx diff --html` and `ddx phases --html`.
 *
 * A page is a verdict card, a timeline picture and the evidence: tables of
 * what the diagnosis found, and excerpts of the logs in which every line
 * shown has an id ("b217": bad line 217, "g215": the good log's line
 * 215), so that every line number elsewhere on the page is a link to it.
 *
 * The sentences are the text report's (report_text, without colour): the
 * page says what the terminal says, in the same words. */
#include "html.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "causes.h"
#include "culprit.h"
#include "html_impl.h"
#include "report.h"
#include "report_impl.h"
#include "report_proc.h"
#include "util.h"

/* Lines of context around each point the evidence shows. */
#define CONTEXT 3
/* Most lines of one finding shown (a traceback longer than this is cut). */
#define FINDING_LINES 60
/* Most novel findings on the page (the JSON report has them all). */
#define NOVEL_SHOWN 40
/* Bytes of one log line shown. */
#define LINE_BYTES 400
/* Ranks drawn one lane each; more are grouped by where they stopped. */
#define RANK_LANES 16
/* Most milestones in the timeline and the table, slow steps and ranks
 * listed: the page's own lists, capped as the text report caps its
 * (report_impl.h), so that a page stays bounded whatever the logs. */
#define MS_SHOWN 40
#define SLOW_SHOWN 20
#define RANK_ROWS 64

/* ---- what the page lists ---- */

/* What of the diagnosis's lists the page shows; the JSON report has
 * them all, and each list cut says how many more there are. */
struct shown {
	struct ms_key *ix;   /* d->ms by template id */
	uint8_t *next;       /* per d->next: NEXT_* (next_shown) */
	uint8_t *ms;         /* per d->ms: shown or not */
	size_t nms;          /* how many are */
};

static void keep_ms(struct shown *sh, const struct diagnosis *d, int64_t m)
{
	if (m >= 0 && (size_t)m < d->nms && !sh->ms[m] && sh->nms < MS_SHOWN)
		sh->ms[m] = 1, sh->nms++;
}

/* MS_SHOWN milestones, or all when there are no more: the one where
 * the good run is up, the last bad reached and the first it then
 * missed, those rules name, then others evenly spaced, then the first
 * left. */
static void shown_init(struct shown *sh, const struct diagnosis *d)
{
	sh->ix = ms_index(d);
	sh->next = xmalloc(d->nnext ? d->nnext : 1);
	next_shown(d, sh->ix, sh->next);
	sh->ms = xcalloc(d->nms ? d->nms : 1, 1);
	sh->nms = 0;
	int64_t reached = DX_NONE;
	for (size_t m = 0; m < d->nms; m++)
		if (d->ms[m].bad_line >= 0)
			reached = (int64_t)m;
	keep_ms(sh, d, d->up);
	keep_ms(sh, d, reached);
	keep_ms(sh, d, reached < 0 ? DX_NONE : reached + 1);
	for (size_t m = 0; m < d->nms; m++)
		if (d->ms[m].name || d->nms <= MS_SHOWN)
			keep_ms(sh, d, (int64_t)m);
	for (size_t j = 0; j < MS_SHOWN; j++)
		keep_ms(sh, d, (int64_t)(j * d->nms / MS_SHOWN));
	for (size_t m = 0; m < d->nms && sh->nms < MS_SHOWN; m++)
		keep_ms(sh, d, (int64_t)m);
}

static void shown_free(struct shown *sh)
{
	free(sh->ix);
	free(sh->next);
	free(sh->ms);
}

/* The note under a list cut at shown of n entries. */
static void more(FILE *f, size_t n, size_t shown)
{
	if (n > shown)
		fprintf(f, "<p class=\"mute\">%zu more in the JSON report.</p>\n", n - shown);
}

/* The name of template id's milestone, when it is one. */
static void milestone_name(FILE *f, const struct diagnosis *d, const struct shown *sh, uint32_t id)
{
	const struct dx_milestone *ms = milestone_of(d, sh->ix, id);
	if (ms)
		html_str(f, dx_milestone_name(d, ms));
}

/* ---- excerpts of the logs ---- */

enum { SHOW_NO, SHOW_CONTEXT, SHOW_MARK, SHOW_WARNING, SHOW_ERROR };

/* The lines of one log the page shows, each with how: a line number on
 * the page links to its line only when the line is shown. */
struct excerpt {
	const struct log *lg;
	char prefix;          /* of the ids: 'b' bad, 'g' good */
	uint8_t *how;         /* per line: SHOW_* */
};

static void excerpt_init(struct excerpt *e, const struct log *lg, char prefix)
{
	e->lg = lg;
	e->prefix = prefix;
	e->how = xcalloc(lg->nlines ? lg->nlines : 1, 1);
}

/* Show lines [from, to] as how, and ctx lines of context around them. */
static void excerpt_add(struct excerpt *e, int64_t from, int64_t to, int how, int64_t ctx)
{
	if (!e || from < 0)
		return;
	int64_t n = (int64_t)e->lg->nlines;
	for (int64_t i = from - ctx; i <= to + ctx; i++) {
		if (i < 0 || i >= n)
			continue;
		int h = i >= from && i <= to ? how : SHOW_CONTEXT;
		if (e->how[i] < h)
			e->how[i] = (uint8_t)h;
	}
}

/* Line i (0-based) as its number, a link when the page shows it. */
static void line_link(FILE *f, const struct excerpt *e, int64_t i)
{
	if (i < 0) {
		fputs("-", f);
		return;
	}
	if (e && (size_t)i < e->lg->nlines && e->how[i])
		fprintf(f, "<a href=\"#%c%lld\">%lld</a>", e->prefix, (long long)i + 1, (long long)i + 1);
	else
		fprintf(f, "%lld", (long long)i + 1);
}

/* Line i's text (whole, or its message after the header), cut. */
static void line_text(FILE *f, const struct log *lg, int64_t i, int message, size_t max)
{
	struct buf scratch = { 0 };
	struct line ln;
	struct header h;
	log_line(lg, (size_t)i, &ln, &h, &scratch);
	size_t off = message ? h.msg_off : 0;
	const char *s = ln.text + off;
	size_t n = ln.len - off;
	while (message && n && (*s == ' ' || *s == '\t'))
		s++, n--;
	html_short(f, s, n, max);
	buf_free(&scratch);
}

static void excerpt_write(FILE *f, const struct excerpt *e, const char *title)
{
	static const char *const cls[] = { "", "", " mark", " warning", " error" };
	size_t n = e->lg->nlines, i = 0;
	while (i < n && !e->how[i])
		i++;
	if (i == n)
		return;
	fputs("<h3>", f);
	html_str(f, title);
	fputs("</h3>\n<pre>", f);
	size_t last = SIZE_MAX;
	for (; i < n; i++) {
		if (!e->how[i])
			continue;
		if (last != SIZE_MAX && i > last + 1)
			fprintf(f, "<span class=\"l gap\">  ⋮ %zu line%s</span>", i - last - 1,
				i - last - 1 == 1 ? "" : "s");
		fprintf(f, "<span class=\"l%s\" id=\"%c%zu\"><a href=\"#%c%zu\">%6zu</a>  ",
			cls[e->how[i]], e->prefix, i + 1, e->prefix, i + 1, i + 1);
		line_text(f, e->lg, (int64_t)i, 0, LINE_BYTES);
		fputs("</span>", f);
		last = i;
	}
	fputs("</pre>\n", f);
}

/* ---- the diff page ---- */

/* A text report, the diff's (d) or the live one, as the terminal would
 * show it without colour, in a string of *len bytes; NULL on failure. */
struct plain {
	const struct diagnosis *d;
	const struct log *logs;
	size_t nlogs;
	const struct live_report *live;
};

static char *plain_text(const struct plain *p, size_t *len)
{
	char *text = NULL;
	/* No colour, and lines whole: the page wraps them. */
	struct out mem = { open_memstream(&text, len), 0, 0, 0 };
	if (!mem.f)
		return NULL;
	if (p->d)
		report_text(&mem, p->d, p->logs, p->nlogs, NULL);
	else
		report_proc_text(&mem, p->live);
	if (fclose(mem.f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* The text report's opening sentences (up to its first blank line), made
 * without colour: the card says what the terminal says. */
static int headline(FILE *f, const struct diagnosis *d, const struct log *logs, size_t nlogs)
{
	size_t len;
	char *text = plain_text(&(struct plain){ d, logs, nlogs, NULL }, &len);
	if (!text)
		return -1;
	const char *end = strstr(text, "\n\n");
	size_t n = end ? (size_t)(end - text) : len;
	for (size_t i = 0; i < n;) {
		const char *nl = memchr(text + i, '\n', n - i);
		size_t k = nl ? (size_t)(nl - text) : n;
		fputs(i ? "<p>" : "<h1>", f);
		html_text(f, text + i, k - i);
		fputs(i ? "</p>\n" : "</h1>\n", f);
		i = k + 1;
	}
	free(text);
	return 0;
}

static void verdict_card(FILE *f, const struct diagnosis *d, const struct log *logs, size_t nlogs,
			 const struct live_report *live)
{
	const char *v = dx_verdict_name(d->verdict);
	fprintf(f, "<section class=\"card v-%s\">\n<div class=\"verdict\">", v);
	for (const char *c = v; *c; c++)
		fputc(*c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c, f);
	fputs("</div>\n", f);
	headline(f, d, logs, nlogs);
	fputs("<dl>\n<dt>bad</dt><dd><code>", f);
	html_str(f, d->bad_log->in.path);
	fprintf(f, "</code>, %zu lines</dd>\n<dt>good</dt><dd>", d->bad_log->nlines);
	for (size_t g = 0; g + 1 < nlogs; g++) {
		fputs(g ? "<br>" : "", f);
		fputs("<code>", f);
		html_str(f, logs[g].in.path);
		fprintf(f, "</code>, %zu lines%s", logs[g].nlines,
			&logs[g] == d->good_log && nlogs > 2 ? " (closest)" : "");
	}
	fputs("</dd>\n", f);
	if ((d->verdict == DX_STOPPED || d->verdict == DX_RUNNING) && !isnan(d->silent_s)) {
		fputs("<dt>silent</dt><dd>", f);
		put_dur(f, d->silent_s);
		fputs("</dd>\n", f);
	}
	if (live && live->nprocs) {
		fputs("<dt>live</dt><dd>", f);
		html_str(f, live->verdict);
		fputs("</dd>\n", f);
	}
	fputs("</dl>\n</section>\n", f);
}

/* A card for each known cause the failure matches: what it is, why it
 * happens, the fix, the line that shows it and where to read more.  A
 * link is made only of an http(s) address (a user's catalogue may hold
 * anything). */
static void cause_cards(FILE *f, const struct diagnosis *d)
{
	for (size_t k = 0; k < d->ncauses && k < CAUSES_MAX; k++) {
		const struct cause *c = d->causes[k].cause;
		fputs("<section class=\"card cause\">\n<h2>Likely cause: ", f);
		html_str(f, c->title);
		fputs("</h2>\n<p>", f);
		html_str(f, c->explain);
		fputs("</p>\n<p><b>Fix:</b> <code>", f);
		html_str(f, c->fix);
		fprintf(f, "</code></p>\n<p>Line %lld: <code>", (long long)d->causes[k].line + 1);
		struct quote q = { 0 };
		quote_line(&q, d->bad_log, d->causes[k].line);
		html_short(f, q.ln.text, q.ln.len, 200);
		buf_free(&q.scratch);
		fputs("</code></p>\n<p>", f);
		int link = strncmp(c->url, "https://", 8) == 0 || strncmp(c->url, "http://", 7) == 0;
		if (link) {
			fputs("<a href=\"", f);
			html_str(f, c->url);
			fputs("\">", f);
		}
		html_str(f, c->url);
		fputs(link ? "</a></p>\n</section>\n" : "</p>\n</section>\n", f);
	}
	more(f, d->ncauses, CAUSES_MAX);
}

/* Log k's line of milestone m, or DX_NONE. */
static int64_t ms_line(const struct diagnosis *d, const struct log *logs, size_t nlogs, size_t k,
		       size_t m)
{
	return k + 1 == nlogs ? d->ms[m].bad_line : &logs[k] == d->good_log ? d->ms[m].good_line
		: dx_first_line(d, k, d->ms[m].id);
}

/* The lanes of the runs: each good log, then bad.  By time when every
 * run has one at each of its milestones, else by line. */
static void run_lanes(const struct diagnosis *d, const struct shown *sh, const struct log *logs,
		      size_t nlogs, struct picture *p, double *slow)
{
	/* Columns: the milestones shown, col[c] each. */
	size_t *col = xmalloc((sh->nms ? sh->nms : 1) * sizeof(*col));
	p->ncols = 0;
	for (size_t m = 0; m < d->nms; m++)
		if (sh->ms[m])
			col[p->ncols++] = m;
	p->names = xmalloc((p->ncols ? p->ncols : 1) * sizeof(*p->names));
	p->final = xcalloc(p->ncols ? p->ncols : 1, 1);
	p->named = xcalloc(p->ncols ? p->ncols : 1, 1);
	for (size_t c = 0; c < p->ncols; c++) {
		p->names[c] = dx_milestone_name(d, &d->ms[col[c]]);
		p->final[c] = (int64_t)col[c] == d->up;
		p->named[c] = d->ms[col[c]].name != NULL;
	}
	int64_t *lines = xmalloc((p->ncols ? p->ncols : 1) * sizeof(*lines));
	p->by_line = 0;
	for (size_t k = 0; k < nlogs && !p->by_line; k++) {
		for (size_t c = 0; c < p->ncols; c++)
			lines[c] = ms_line(d, logs, nlogs, k, col[c]);
		p->by_line = !picture_timed(&logs[k], lines, p->ncols);
	}
	free(lines);
	p->nlanes = nlogs;
	p->lanes = xcalloc(nlogs, sizeof(*p->lanes));
	for (size_t k = 0; k < nlogs; k++) {
		const struct log *lg = &logs[k];
		struct lane *l = &p->lanes[k];
		int bad = k + 1 == nlogs;
		l->kind = bad ? LANE_BAD : LANE_GOOD;
		l->name = lg->in.path;
		const char *slash = strrchr(l->name, '/');
		if (slash && slash[1])
			l->name = slash + 1;
		l->title = lg->in.path;
		l->end_s = picture_end_pos(p, lg);
		l->now_s = l->crash_s = NAN;
		l->at = xmalloc((p->ncols ? p->ncols : 1) * sizeof(*l->at));
		for (size_t c = 0; c < p->ncols; c++)
			l->at[c] = picture_pos(p, lg, ms_line(d, logs, nlogs, k, col[c]));
		if (!bad)
			continue;
		if ((d->verdict == DX_STOPPED || d->verdict == DX_RUNNING) && !isnan(d->silent_s) &&
		    d->last_progress >= 0 &&
		    !p->by_line)
			l->now_s = since_start(lg, d->last_progress) + d->silent_s;
		if (d->crash != DX_NONE)
			l->crash_s = picture_pos(p, lg, d->novel[d->crash].summary);
		l->end_word = d->verdict == DX_SAME || d->verdict == DX_DIFFERENT ? NULL
			: dx_verdict_name(d->verdict);
		l->nslow = d->nslow < SLOW_SHOWN ? d->nslow : SLOW_SHOWN;
		for (size_t s = 0; s < l->nslow; s++) {
			slow[2 * s] = picture_pos(p, lg, d->slow[s].from_bad);
			slow[2 * s + 1] = picture_pos(p, lg, d->slow[s].to_bad);
		}
		l->slow = slow;
	}
	free(col);
}

/* The lanes of bad's ranks: one each, or when there are many, one per
 * group of ranks that stopped at the same milestone and had errors or
 * none (a group named by its first and last rank and its size). */
static void rank_lanes(const struct diagnosis *d, const struct shown *sh, struct picture *p,
		       char ***names, size_t *nnames)
{
	const struct log *bad = d->bad_log;
	/* p->by_line: as the runs' picture. */
	p->ncols = 0;
	p->nlanes = 0;
	p->lanes = xcalloc(d->nranks ? d->nranks : 1, sizeof(*p->lanes));
	/* Columns: the milestones shown that some rank stopped at. */
	p->names = xmalloc((d->nms ? d->nms : 1) * sizeof(*p->names));
	p->final = xcalloc(d->nms ? d->nms : 1, 1);
	p->named = xcalloc(d->nms ? d->nms : 1, 1);
	size_t *col = xmalloc((d->nms ? d->nms : 1) * sizeof(*col));
	for (size_t m = 0; m < d->nms; m++) {
		col[m] = SIZE_MAX;
		for (size_t r = 0; sh->ms[m] && r < d->nranks; r++)
			if (d->ranks[r].last_milestone >= 0 &&
			    dx_bad_id(d, d->ranks[r].last_milestone) == d->ms[m].id) {
				col[m] = p->ncols;
				p->final[p->ncols] = (int64_t)m == d->up;
				p->named[p->ncols] = d->ms[m].name != NULL;
				p->names[p->ncols++] = dx_milestone_name(d, &d->ms[m]);
				break;
			}
	}
	int group = d->nranks > RANK_LANES;
	uint8_t *done = xcalloc(d->nranks ? d->nranks : 1, 1);
	for (size_t r = 0; r < d->nranks; r++) {
		if (done[r])
			continue;
		const struct dx_rank *a = &d->ranks[r];
		struct lane *l = &p->lanes[p->nlanes++];
		l->kind = LANE_RANK;
		l->at = xmalloc((p->ncols ? p->ncols : 1) * sizeof(*l->at));
		for (size_t c = 0; c < p->ncols; c++)
			l->at[c] = NAN;
		l->now_s = NAN;
		l->crash_s = a->errors ? picture_pos(p, bad, a->first_error) : NAN;
		l->end_s = picture_pos(p, bad, a->last_line);
		size_t count = 1, lastr = r;
		uint32_t mid = a->last_milestone >= 0 ? dx_bad_id(d, a->last_milestone) : UINT32_MAX;
		double ms_s = picture_pos(p, bad, a->last_milestone);
		for (size_t q = r + 1; group && q < d->nranks; q++) {
			const struct dx_rank *b = &d->ranks[q];
			uint32_t bid = b->last_milestone >= 0 ? dx_bad_id(d, b->last_milestone) : UINT32_MAX;
			if (done[q] || bid != mid || !b->errors != !a->errors)
				continue;
			done[q] = 1;
			count++;
			lastr = q;
			double e = picture_pos(p, bad, b->last_line), t = picture_pos(p, bad, b->last_milestone);
			if (!isnan(e) && (isnan(l->end_s) || e > l->end_s))
				l->end_s = e;
			if (!isnan(t) && (isnan(ms_s) || t < ms_s))
				ms_s = t;
		}
		for (size_t m = 0; m < d->nms; m++)
			if (col[m] != SIZE_MAX && d->ms[m].id == mid)
				l->at[col[m]] = ms_s;
		char *name = count > 1 ? xasprintf("%s..%s (%zu)", a->name, d->ranks[lastr].name, count)
			: xstrdup(a->name);
		strv_push(names, nnames, name);
		l->name = l->title = name;
	}
	free(done);
	free(col);
}

static void timeline_section(FILE *f, const struct diagnosis *d, const struct shown *sh,
			     const struct log *logs, size_t nlogs)
{
	struct picture runs = { 0 }, ranks = { 0 };
	double *slow = xmalloc((2 * SLOW_SHOWN) * sizeof(*slow));
	char **names = NULL;
	size_t nnames = 0;
	run_lanes(d, sh, logs, nlogs, &runs, slow);
	ranks.by_line = runs.by_line;
	if (d->nranks > 1)
		rank_lanes(d, sh, &ranks, &names, &nnames);
	runs.tmax = ranks.tmax = axis_end(picture_extent(&ranks, picture_extent(&runs, 0)));
	fprintf(f, "<h2 id=\"timeline\">Timeline</h2>\n<p class=\"mute\">%s; milestones of the "
		"good run joined across the runs", runs.by_line
		? "Line numbers (a run has no times at its milestones)"
		: "Time since each log's first line");
	if (d->nslow)
		fputs(", slow steps in red", f);
	fputs(".</p>\n", f);
	draw_picture(f, &runs, 1);
	if (d->nranks > 1) {
		fprintf(f, "<details%s><summary>%zu ranks of the bad run%s</summary>\n",
			ranks.nlanes <= 8 ? " open" : "", d->nranks,
			d->nranks > RANK_LANES ? ", grouped by where they stopped" : "");
		draw_picture(f, &ranks, 1);
		fputs("</details>\n", f);
	}
	picture_free(&runs);
	picture_free(&ranks);
	strv_free(names, nnames);
	free(slow);
}

static void put_offset(FILE *f, double s)
{
	if (isnan(s)) {
		fputs("-", f);
		return;
	}
	fputs(s < 0 ? "-" : "+", f);
	put_dur(f, fabs(s));
}

static void findings(FILE *f, const struct diagnosis *d, const struct shown *sh,
		     struct excerpt *be, struct excerpt *ge)
{
	const struct log *bad = d->bad_log, *good = d->good_log;
	fputs("<h2>Where it left the good run</h2>\n<p>", f);
	if (d->bad_line < 0) {
		fputs("Nothing in common with <code>", f);
		html_str(f, good->in.path);
		fputs("</code>.</p>\n", f);
	} else {
		fputs("Bad line ", f);
		line_link(f, be, d->bad_line);
		fputs(" is <code>", f);
		html_str(f, good->in.path);
		fputs("</code> line ", f);
		line_link(f, ge, d->good_line);
		fprintf(f, " (%.0f%% of the good run).</p>\n", d->good_fraction * 100);
	}
	if (d->nnext) {
		fputs("<h2>Next in the good run</h2>\n<table><tr><th>after</th><th>line</th>"
		      "<th>milestone</th><th>text</th></tr>\n", f);
		size_t listed = 0;
		for (size_t k = 0; k < d->nnext; k++) {
			int64_t j = d->next[k];
			if (sh->next[k] == NEXT_HIDDEN)
				continue;
			listed++;
			fputs("<tr><td class=\"n\">", f);
			put_offset(f, d->good_line >= 0 ? log_span_s(good, (size_t)d->good_line, (size_t)j) : NAN);
			fputs("</td><td class=\"n\">", f);
			line_link(f, ge, j);
			fputs("</td><td>", f);
			milestone_name(f, d, sh, dx_good_id(d, j));
			fputs("</td><td><code>", f);
			line_text(f, good, j, 1, 200);
			fputs("</code></td></tr>\n", f);
		}
		fputs("</table>\n", f);
		more(f, d->nnext, listed);
	}
	if (d->nchanged) {
		fputs("<h2>Changed values</h2>\n<table><tr><th>what</th><th>key</th><th>good</th>"
		      "<th>bad</th><th>lines</th></tr>\n", f);
		for (size_t k = 0; k < d->nchanged && k < CHANGED_MAX; k++) {
			const struct dx_change *c = &d->changed[k];
			fputs("<tr><td>", f);
			html_str(f, c->label ? c->label : "");
			fputs("</td><td><code>", f);
			html_str(f, c->key ? c->key : "");
			fputs("</code></td><td><code>", f);
			html_short(f, c->good ? c->good : "", c->good ? strlen(c->good) : 0, 200);
			fputs("</code></td><td><code>", f);
			html_short(f, c->bad ? c->bad : "", c->bad ? strlen(c->bad) : 0, 200);
			fputs("</code></td><td class=\"n\">", f);
			line_link(f, ge, c->good_line);
			fputs(" / ", f);
			line_link(f, be, c->bad_line);
			fputs("</td></tr>\n", f);
		}
		fputs("</table>\n", f);
		more(f, d->nchanged, CHANGED_MAX);
	}
	if (d->nnovel) {
		fprintf(f, "<h2>New in the bad run</h2>\n<p class=\"mute\">%zu template%s, %zu line%s "
			"no good run printed; errors first.%s</p>\n<table><tr><th>line</th>"
			"<th>severity</th><th>text</th></tr>\n", d->novel_templates,
			d->novel_templates == 1 ? "" : "s", d->novel_lines, d->novel_lines == 1 ? "" : "s",
			dx_weak_reference(d) ? " The good run fits weakly: this is most of the bad run, "
			"not what went wrong." : "");
		for (size_t k = 0; k < d->nnovel && k < NOVEL_SHOWN; k++) {
			const struct dx_novel *n = &d->novel[k];
			const char *sev = dx_severity_name(n->severity);
			fputs("<tr><td class=\"n\">", f);
			line_link(f, be, n->summary);
			fprintf(f, "</td><td class=\"%s\">%s%s</td><td><code>", sev,
				(int64_t)k == d->crash ? "crash: " : "", sev);
			line_text(f, bad, n->summary, 1, 300);
			fputs("</code>", f);
			if (n->traceback)
				fprintf(f, " <span class=\"mute\">(traceback of %u lines from ", n->nlines),
				line_link(f, be, n->line),
				fprintf(f, n->count > 1 ? ", %u copies)</span>" : ")</span>", n->count);
			if (n->nstreams > 1) {
				struct buf b = { 0 };
				dx_streams_text(&b, d, n);
				fputs(" <span class=\"mute\">on ", f);
				html_text(f, b.p, b.len);
				fputs("</span>", f);
				buf_free(&b);
			}
			fputs("</td></tr>\n", f);
		}
		fputs("</table>\n", f);
		more(f, d->nnovel, NOVEL_SHOWN);
	}
	if (d->nslow) {
		fputs("<h2>Slow steps</h2>\n<table><tr><th>step (bad lines)</th><th>bad</th>"
		      "<th>good at most</th><th>rank</th></tr>\n", f);
		for (size_t k = 0; k < d->nslow && k < SLOW_SHOWN; k++) {
			const struct dx_slow *s = &d->slow[k];
			fputs("<tr><td>", f);
			line_link(f, be, s->from_bad);
			fputs(" → ", f);
			line_link(f, be, s->to_bad);
			fputs("</td><td class=\"n error\">", f);
			put_dur(f, s->bad_s);
			fputs("</td><td class=\"n\">", f);
			put_dur(f, s->good_s);
			fputs("</td><td>", f);
			html_str(f, s->stream ? s->stream : "");
			fputs("</td></tr>\n", f);
		}
		fputs("</table>\n", f);
		more(f, d->nslow, SLOW_SHOWN);
	}
}

static void milestone_table(FILE *f, const struct diagnosis *d, const struct shown *sh,
			    const struct log *logs, size_t nlogs, const struct excerpt *be)
{
	if (!d->nms)
		return;
	fputs("<h2>Milestones</h2>\n<table><tr><th>milestone</th>", f);
	for (size_t g = 0; g + 1 < nlogs; g++)
		fprintf(f, "<th>good %zu</th>", g + 1);
	fputs("<th>bad</th><th>bad line</th></tr>\n", f);
	for (size_t m = 0; m < d->nms; m++) {
		const struct dx_milestone *ms = &d->ms[m];
		if (!sh->ms[m])
			continue;
		fprintf(f, "<tr%s><td>", ms->bad_line < 0 ? " class=\"mute\"" : "");
		html_str(f, dx_milestone_name(d, ms));
		fputs("</td>", f);
		for (size_t g = 0; g + 1 < nlogs; g++) {
			int64_t i = &logs[g] == d->good_log ? ms->good_line : dx_first_line(d, g, ms->id);
			fputs("<td class=\"n\">", f);
			put_offset(f, since_start(&logs[g], i));
			fputs("</td>", f);
		}
		fputs("<td class=\"n\">", f);
		if (ms->bad_line < 0)
			fputs("<span class=\"error\">never</span>", f);
		else
			put_offset(f, since_start(d->bad_log, ms->bad_line));
		fputs("</td><td class=\"n\">", f);
		line_link(f, be, ms->bad_line);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
	more(f, d->nms, sh->nms);
}

static void ranks_table(FILE *f, const struct diagnosis *d, const struct shown *sh,
			const struct excerpt *be)
{
	if (d->nranks < 2)
		return;
	fputs("<h2>Ranks</h2>\n<table><tr><th>rank</th><th>last line</th><th>last milestone</th>"
	      "<th>errors</th><th>role</th></tr>\n", f);
	for (size_t r = 0; r < d->nranks && r < RANK_ROWS; r++) {
		const struct dx_rank *k = &d->ranks[r];
		fputs("<tr><td>", f);
		html_str(f, k->name);
		fputs("</td><td class=\"n\">", f);
		line_link(f, be, k->last_line);
		fputs("</td><td>", f);
		if (k->last_milestone >= 0) {
			milestone_name(f, d, sh, dx_bad_id(d, k->last_milestone));
			fputs(" (", f);
			line_link(f, be, k->last_milestone);
			fputs(")", f);
		}
		fprintf(f, "</td><td class=\"n%s\">%u", k->errors ? " error" : "", k->errors);
		if (k->errors)
			fputs(" from ", f), line_link(f, be, k->first_error);
		fprintf(f, "</td><td%s>", k->role == DX_ROLE_CULPRIT ? " class=\"error\"" : "");
		html_str(f, k->role ? culprit_role_name[k->role] : "");
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
	more(f, d->nranks, RANK_ROWS);
}

static int live_section(FILE *f, const struct live_report *live)
{
	if (!live || !live->nprocs)
		return 0;
	size_t len;
	char *text = plain_text(&(struct plain){ NULL, NULL, 0, live }, &len);
	if (!text)
		return -1;
	fputs("<h2>Processes</h2>\n<pre>", f);
	html_text(f, text, len);
	fputs("</pre>\n", f);
	free(text);
	return 0;
}

/* What the evidence shows: context around the divergence point in both
 * logs, each novel finding (the crash whole), what bad waits for, the
 * lines of a change, the good run's next steps, and bad's last lines. */
static void pick_lines(const struct diagnosis *d, const struct shown *sh, struct excerpt *be,
		       struct excerpt *ge)
{
	int64_t nb = (int64_t)d->bad_log->nlines;
	excerpt_add(be, d->bad_line, d->bad_line, SHOW_MARK, CONTEXT);
	excerpt_add(ge, d->good_line, d->good_line, SHOW_MARK, CONTEXT);
	for (size_t k = 0; k < d->nnovel && k < NOVEL_SHOWN; k++) {
		const struct dx_novel *n = &d->novel[k];
		int how = n->severity == DX_ERROR ? SHOW_ERROR : n->severity == DX_WARNING ? SHOW_WARNING
			: SHOW_MARK;
		int64_t last = n->line + (int64_t)n->nlines - 1;
		if ((int64_t)k != d->crash && last - n->line >= FINDING_LINES)
			last = n->line + FINDING_LINES - 1;
		if (n->traceback || (int64_t)k == d->crash)
			excerpt_add(be, n->line, last, how, (int64_t)k == d->crash ? CONTEXT : 1);
		else
			excerpt_add(be, n->summary, n->summary, how, 1);
	}
	if (d->waiting.first >= 0) {
		excerpt_add(be, d->waiting.first, d->waiting.first, SHOW_MARK, 1);
		excerpt_add(be, d->waiting.last, d->waiting.last, SHOW_MARK, 1);
	}
	for (size_t k = 0; k < d->nchanged && k < CHANGED_MAX; k++) {
		excerpt_add(be, d->changed[k].bad_line, d->changed[k].bad_line, SHOW_MARK, 0);
		excerpt_add(ge, d->changed[k].good_line, d->changed[k].good_line, SHOW_MARK, 0);
	}
	for (size_t k = 0; k < d->nnext; k++)
		if (sh->next[k] != NEXT_HIDDEN)
			excerpt_add(ge, d->next[k], d->next[k], SHOW_CONTEXT, 0);
	for (size_t k = 0; k < d->nslow && k < SLOW_SHOWN; k++) {
		excerpt_add(be, d->slow[k].from_bad, d->slow[k].from_bad, SHOW_MARK, 0);
		excerpt_add(be, d->slow[k].to_bad, d->slow[k].to_bad, SHOW_MARK, 0);
	}
	for (size_t r = 0; r < d->nranks && r < RANK_LANES; r++)
		excerpt_add(be, d->ranks[r].last_line, d->ranks[r].last_line, SHOW_CONTEXT, 0);
	excerpt_add(be, nb - CONTEXT, nb - 1, SHOW_CONTEXT, 0);
}

int html_diff_page(FILE *f, const struct diagnosis *d, const struct log *logs, size_t nlogs,
		   const struct live_report *live)
{
	char *title = xasprintf("ddx diff: %s", d->bad_log->in.path);
	page_head(f, title);
	free(title);
	struct shown sh;
	shown_init(&sh, d);
	struct excerpt be, ge;
	excerpt_init(&be, d->bad_log, 'b');
	excerpt_init(&ge, d->good_log, 'g');
	pick_lines(d, &sh, &be, &ge);
	int rc = 0;
	verdict_card(f, d, logs, nlogs, live);
	cause_cards(f, d);
	timeline_section(f, d, &sh, logs, nlogs);
	findings(f, d, &sh, &be, &ge);
	milestone_table(f, d, &sh, logs, nlogs, &be);
	ranks_table(f, d, &sh, &be);
	if (live_section(f, live) < 0)
		rc = -1;
	fputs("<h2>Evidence</h2>\n", f);
	char *t = xasprintf("bad: %s", d->bad_log->in.path);
	excerpt_write(f, &be, t);
	free(t);
	t = xasprintf("good: %s", d->good_log->in.path);
	excerpt_write(f, &ge, t);
	free(t);
	free(be.how);
	free(ge.how);
	shown_free(&sh);
	const char **paths = xmalloc(nlogs * sizeof(*paths));
	for (size_t k = 0; k < nlogs; k++)
		paths[k] = logs[k].in.path;
	if (page_foot(f, paths, nlogs, 1) < 0)
		rc = -1;
	return rc;
}

/* ---- the phases page ---- */

int html_phases_page(FILE *f, const struct timeline *tls, size_t n)
{
	char *title = xasprintf("ddx phases: %s%s", tls[0].lg->in.path, n > 1 ? ", ..." : "");
	page_head(f, title);
	free(title);
	/* Columns: each rule any log reached, in the order the logs reached
	 * them (the first log's order, then what the others add). */
	struct picture p = { 0 };
	int32_t *rule = NULL;
	size_t cap = 0;
	for (size_t k = 0; k < n; k++)
		for (size_t r = 0; r < tls[k].nrows; r++) {
			size_t c = 0;
			while (c < p.ncols && rule[c] != tls[k].rows[r].rule)
				c++;
			if (c < p.ncols)
				continue;
			GROW(rule, cap, p.ncols + 1);
			rule[p.ncols++] = tls[k].rows[r].rule;
		}
	const struct ruleset *rs = tls[0].rs;
	p.names = xmalloc((p.ncols ? p.ncols : 1) * sizeof(*p.names));
	p.final = xcalloc(p.ncols ? p.ncols : 1, 1);
	p.named = xcalloc(p.ncols ? p.ncols : 1, 1);
	for (size_t c = 0; c < p.ncols; c++) {
		p.names[c] = rs->r[rule[c]].name;
		p.final[c] = rs->r[rule[c]].final || rs->r[rule[c]].done;
		p.named[c] = 1;
	}
	/* By time when every log has one at each of its milestones. */
	for (size_t k = 0; k < n && !p.by_line; k++) {
		int64_t *lines = xmalloc((tls[k].nrows ? tls[k].nrows : 1) * sizeof(*lines));
		for (size_t r = 0; r < tls[k].nrows; r++)
			lines[r] = (int64_t)tls[k].rows[r].first;
		p.by_line = !picture_timed(tls[k].lg, lines, tls[k].nrows);
		free(lines);
	}
	p.nlanes = n;
	p.lanes = xcalloc(n, sizeof(*p.lanes));
	for (size_t k = 0; k < n; k++) {
		const struct timeline *tl = &tls[k];
		struct lane *l = &p.lanes[k];
		/* As `ddx phases` says it. */
		enum timeline_state st = timeline_state(tl);
		l->kind = st == TIMELINE_UP || st == TIMELINE_FINISHED ? LANE_GOOD : LANE_BAD;
		l->name = tl->lg->in.path;
		const char *slash = strrchr(l->name, '/');
		if (slash && slash[1])
			l->name = slash + 1;
		l->title = tl->lg->in.path;
		l->end_s = picture_end_pos(&p, tl->lg);
		l->now_s = l->crash_s = NAN;
		l->end_word = st == TIMELINE_FAILED ? "failed" : st == TIMELINE_NOT_UP ? "not up" : NULL;
		l->at = xmalloc((p.ncols ? p.ncols : 1) * sizeof(*l->at));
		for (size_t c = 0; c < p.ncols; c++) {
			l->at[c] = NAN;
			for (size_t r = 0; r < tl->nrows; r++)
				if (tl->rows[r].rule == rule[c])
					l->at[c] = picture_pos(&p, tl->lg, (int64_t)tl->rows[r].first);
		}
	}
	p.tmax = axis_end(picture_extent(&p, 0));
	fprintf(f, "<h1>Milestones</h1>\n<p class=\"mute\">%s; the same milestone joined across "
		"the logs, where the run is up in green.</p>\n", p.by_line
		? "Line numbers (a log has no times at its milestones)" : "Time since each log's first line");
	draw_picture(f, &p, 1);
	fputs("<h2>Milestones by log</h2>\n<table><tr><th>milestone</th>", f);
	for (size_t k = 0; k < n; k++) {
		fputs("<th>", f);
		html_str(f, p.lanes[k].name);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (size_t c = 0; c < p.ncols; c++) {
		fputs("<tr><td>", f);
		html_str(f, p.names[c]);
		fputs("</td>", f);
		for (size_t k = 0; k < n; k++) {
			size_t r = 0;
			while (r < tls[k].nrows && tls[k].rows[r].rule != rule[c])
				r++;
			fputs("<td class=\"n\">", f);
			if (r < tls[k].nrows) {
				put_offset(f, since_start(tls[k].lg, (int64_t)tls[k].rows[r].first));
				fprintf(f, " <span class=\"mute\">line %zu</span>", tls[k].rows[r].first + 1);
			} else {
				fputs("-", f);
			}
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	picture_free(&p);
	free(rule);
	const char **paths = xmalloc(n * sizeof(*paths));
	for (size_t k = 0; k < n; k++)
		paths[k] = tls[k].lg->in.path;
	return page_foot(f, paths, n, 0);
}
