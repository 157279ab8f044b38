/* causes_find.c — matching the catalogue of known causes against what is
 * new in a failed run (causes_find.h). */
#include "causes_find.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The engine that wrote bad: rules_engine over its distinct templates. */
static const char *bad_engine(const struct diagnosis *d, const struct tmpl_table *tt,
			      const struct ruleset *rs)
{
	const struct log *bad = d->bad_log;
	uint8_t *seen = xcalloc(tt->n ? tt->n : 1, 1);
	const char **texts = xmalloc((bad->nlines ? bad->nlines : 1) * sizeof(*texts));
	size_t *lens = xmalloc((bad->nlines ? bad->nlines : 1) * sizeof(*lens));
	size_t n = 0;
	for (size_t i = 0; i < bad->nlines; i++) {
		uint32_t id = dx_bad_id(d, (int64_t)i);
		if (id >= tt->n || seen[id])
			continue;
		seen[id] = 1;
		texts[n] = tt->t[id].text;
		lens[n++] = tt->t[id].len;
	}
	const char *e = rules_engine(rs, texts, lens, n, prefix_format_name(bad->format));
	free(seen);
	free(texts);
	free(lens);
	return e;
}

/* The rule name of bad's last milestone reached, or "". */
static const char *last_step(const struct diagnosis *d)
{
	const struct dx_milestone *last = NULL;
	for (size_t k = 0; k < d->nms; k++)
		if (d->ms[k].bad_line != DX_NONE && (!last || d->ms[k].bad_line > last->bad_line))
			last = &d->ms[k];
	return last && last->name ? last->name : "";
}

/* What the search carries from line to line. */
struct search {
	const struct causeset *cs;
	const struct diagnosis *d;
	const char *engine, *step;
	uint8_t *named;       /* per cause: already found */
	uint8_t *tried;       /* per line of bad: already matched */
	struct dx_cause_hit *hits;
	size_t n, cap;
	struct buf scratch;
};

/* Try line i of bad (one of the crash's when crash): the first cause
 * that names it, if not named yet. */
static void try_line(struct search *s, int64_t i, int crash)
{
	if (i < 0 || (size_t)i >= s->d->bad_log->nlines || s->tried[i])
		return;
	s->tried[i] = 1;
	struct line ln;
	struct header h;
	log_line(s->d->bad_log, (size_t)i, &ln, &h, &s->scratch);
	const char *t = dx_template_text(s->d, dx_bad_id(s->d, i));
	for (size_t k = 0; k < s->cs->n; k++) {
		const struct cause *c = &s->cs->c[k];
		if (!cause_matches(c, ln.text, ln.len, t, strlen(t), s->engine, s->step,
				   crash))
			continue;
		if (!s->named[k]) {
			s->named[k] = 1;
			GROW(s->hits, s->cap, s->n + 1);
			s->hits[s->n++] = (struct dx_cause_hit){ c, i };
		}
		return;
	}
}

/* A finding's lines: what it says, where it starts, then a traceback's
 * other lines (a chained traceback's "During handling..." part runs past
 * its summary: the exception that explains it often comes last). */
static void try_novel(struct search *s, const struct dx_novel *v, int crash)
{
	try_line(s, v->summary, crash);
	try_line(s, v->line, crash);
	if (v->traceback)
		for (int64_t i = v->line + 1; i < v->line + (int64_t)v->nlines; i++)
			try_line(s, i, crash);
}

size_t causes_find(const struct causeset *cs, const struct diagnosis *d,
		   const struct tmpl_table *tt, const struct ruleset *rs,
		   struct dx_cause_hit **out)
{
	*out = NULL;
	if (!cs->n || d->verdict == DX_SAME || d->verdict == DX_DIFFERENT || !d->nnovel)
		return 0;
	struct search s = { .cs = cs, .d = d };
	s.engine = bad_engine(d, tt, rs);
	s.step = last_step(d);
	s.named = xcalloc(cs->n, 1);
	s.tried = xcalloc(d->bad_log->nlines ? d->bad_log->nlines : 1, 1);
	/* A run that hung (d->hung_s) was ended by its crash line: what it
	 * printed from there on says how it was ended (a kill, a lost
	 * peer), not why it hung -- unless its own timeout ended it, whose
	 * words are of the wait that hung. */
	int hung = !isnan(d->hung_s) && !d->hang_gave_up;
	if (d->crash != DX_NONE && !hung)
		try_novel(&s, &d->novel[d->crash], 1);
	for (size_t k = 0; k < d->nnovel; k++)
		if (!hung || d->novel[k].line < d->novel[d->crash].line)
			try_novel(&s, &d->novel[k], 0);
	free(s.named);
	free(s.tried);
	buf_free(&s.scratch);
	*out = s.hits;
	return s.n;
}
