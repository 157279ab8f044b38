/* html_timeline.c — the timeline picture of an HTML page: inline SVG
 * scaled to the page's width (viewBox), so it needs no script; on a
 * screen too narrow for its text to stay readable it keeps that width
 * and scrolls sideways in its own box, the page does not.  One lane per run (or rank), milestones as ticks
 * joined across the lanes; its x axis is the time since each log's first
 * timestamp, or the line number when a run has no times.  The pages
 * (html_pages.c) fill a struct picture; this file only draws it. */
#include "html.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "html_impl.h"
#include "util.h"

/* Characters of a milestone's label in the picture (its <title> has all). */
#define LABEL_CHARS 34
/* Rows of milestone labels above the lanes, at most. */
#define LABEL_ROWS 12

/* The picture's geometry, in SVG user units (the viewBox is W wide). */
#define W 1000.0
#define X0 190.0      /* where time 0 is; lane names to its left */
#define X1 940.0      /* where the axis ends; a longer run's length after it */
#define LABEL_H 13.0  /* one row of milestone labels */
#define LANE_H 24.0
#define AXIS_H 22.0
#define CHAR_W 6.0    /* a label character's width, roughly (11px sans) */

/* A timestamp is an outlier when it lies more than OUTLIER_MS on one side
 * of the times just before it and of those just after it (the median of
 * up to NEAR timed lines each way, within SCAN lines): a line dated a day
 * off, a clock of another zone.  Lines are written in time order, so such
 * a time is wrong, not the run's, and scaled by it the picture would
 * squeeze the run into a corner.  The first line is one when it is later
 * than what follows, the last when it is earlier than what precedes; a
 * last line long after the others is the run's own silence, and stays. */
#define OUTLIER_MS (10 * 60 * 1000)
#define NEAR 5
#define SCAN 256

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* The median time of up to NEAR timed lines from line i on, stepping by
 * dir (-1 or 1), into *m; 0 when there is none. */
static int near_median(const struct log *lg, size_t i, int dir, int64_t *m)
{
	int64_t t[NEAR];
	size_t n = 0;
	for (size_t k = 1; k <= SCAN && n < NEAR; k++) {
		if (dir < 0 ? k > i : i + k >= lg->nlines)
			break;
		int64_t w = lg->when[dir < 0 ? i - k : i + k];
		if (w != TS_NONE)
			t[n++] = w;
	}
	if (!n)
		return 0;
	qsort(t, n, sizeof(*t), cmp_i64);
	*m = n % 2 ? t[n / 2] : t[n / 2 - 1] + (t[n / 2] - t[n / 2 - 1]) / 2;
	return 1;
}

int time_outlier(const struct log *lg, size_t i)
{
	int64_t t = lg->when[i], before, after;
	int b = near_median(lg, i, -1, &before), a = near_median(lg, i, 1, &after);
	if (t == TS_NONE || (!a && !b))
		return 0;
	if (!b)
		return t - after > OUTLIER_MS;
	if (!a)
		return before - t > OUTLIER_MS;
	return (t - before > OUTLIER_MS && t - after > OUTLIER_MS) ||
	       (before - t > OUTLIER_MS && after - t > OUTLIER_MS);
}

/* Line i's time for the picture: its own, or for an outlier the time of
 * the line before it that is none; TS_NONE when it has no time. */
static int64_t when_shown(const struct log *lg, size_t i)
{
	if (lg->when[i] == TS_NONE || !time_outlier(lg, i))
		return lg->when[i];
	for (size_t k = i; k-- > 0;)
		if (lg->when[k] != TS_NONE && !time_outlier(lg, k))
			return lg->when[k];
	return TS_NONE;
}

static int64_t first_when(const struct log *lg)
{
	for (size_t i = 0; i < lg->nlines; i++)
		if (lg->when[i] != TS_NONE && !time_outlier(lg, i))
			return lg->when[i];
	return TS_NONE;
}

double since_start(const struct log *lg, int64_t i)
{
	int64_t t0 = first_when(lg), t;
	if (i < 0 || (size_t)i >= lg->nlines || t0 == TS_NONE ||
	    (t = when_shown(lg, (size_t)i)) == TS_NONE)
		return NAN;
	return (double)(t - t0) / 1000;
}

static double last_offset(const struct log *lg)
{
	for (size_t i = lg->nlines; i-- > 0;)
		if (lg->when[i] != TS_NONE && !time_outlier(lg, i))
			return since_start(lg, (int64_t)i);
	return NAN;
}

double picture_pos(const struct picture *p, const struct log *lg, int64_t i)
{
	if (p->by_line)
		return i >= 0 && (size_t)i < lg->nlines ? (double)i : NAN;
	return since_start(lg, i);
}

double picture_end_pos(const struct picture *p, const struct log *lg)
{
	return p->by_line ? (lg->nlines ? (double)(lg->nlines - 1) : NAN) : last_offset(lg);
}

int picture_timed(const struct log *lg, const int64_t *lines, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (lines[k] >= 0 && isnan(since_start(lg, lines[k])))
			return 0;
	return first_when(lg) != TS_NONE;
}

static double xpos(const struct picture *p, double t)
{
	return X0 + (X1 - X0) * (t / p->tmax);
}

/* How far lane l needs the x axis: to its last milestone, crash and
 * silence; a bad run (or a rank) to its last line too.  A good run goes
 * on long after the milestones (a server serves for hours), and drawn
 * whole it would squeeze them into a corner: its bar is cut at the
 * axis's end, with its length written there. */
static double lane_extent(const struct lane *l, size_t ncols)
{
	double t = 0;
	for (size_t c = 0; c < ncols; c++)
		if (!isnan(l->at[c]) && l->at[c] > t)
			t = l->at[c];
	if (!isnan(l->crash_s) && l->crash_s > t)
		t = l->crash_s;
	if (!isnan(l->now_s) && l->now_s > t)
		t = l->now_s;
	if ((l->kind != LANE_GOOD || ncols == 0) && !isnan(l->end_s) && l->end_s > t)
		t = l->end_s;
	return t;
}

double picture_extent(const struct picture *p, double t)
{
	for (size_t k = 0; k < p->nlanes; k++) {
		double e = lane_extent(&p->lanes[k], p->ncols);
		t = e > t ? e : t;
	}
	return t;
}

double axis_end(double t)
{
	return t > 0 ? t * 1.04 : 1;
}

/* Characters of s to show as a label, at most max (UTF-8 aware). */
static size_t label_bytes(const char *s, size_t max, size_t *chars)
{
	size_t n = strlen(s), pos = 0, k = 0;
	while (pos < n && k < max) {
		size_t l = utf8_seq_len((const unsigned char *)s + pos, n - pos);
		pos += l ? l : 1;
		k++;
	}
	*chars = k + (pos < n);
	return pos;
}

static void svg_label(FILE *f, const char *s, size_t max)
{
	size_t chars, n = label_bytes(s, max, &chars);
	html_text(f, s, n);
	if (n < strlen(s))
		fputs("…", f);
}

/* A time axis step of 1, 2 or 5 times a power of ten seconds (or the
 * minute and hour steps above a minute), for at most about 8 ticks. */
static double axis_step(double tmax)
{
	static const double steps[] = { 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5,
		1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600,
		43200, 86400, 172800, 432000, 864000 };
	for (size_t k = 0; k < sizeof(steps) / sizeof(*steps); k++)
		if (tmax / steps[k] <= 8)
			return steps[k];
	return tmax / 8;
}

/* A line axis step of 1, 2 or 5 times a power of ten lines. */
static double line_step(double lmax)
{
	static const double mult[] = { 2, 2.5, 2 };  /* 1, 2, 5, 10, 20, 50, ... */
	double step = 1;
	for (size_t k = 0; lmax / step > 8; k++)
		step *= mult[k % 3];
	return step;
}

/* Draw p.  The labels of the milestones sit in rows above the lanes, each
 * in the first row where it overlaps no other, with a leader down to its
 * tick; the ticks of one milestone are joined lane to lane, so a step
 * that took longer in one run leans. */
void draw_picture(FILE *f, const struct picture *p, int labels)
{
	size_t nrows = 0;
	size_t *row = xcalloc(p->ncols ? p->ncols : 1, sizeof(*row));
	double *lx = xcalloc(p->ncols ? p->ncols : 1, sizeof(*lx));
	/* Each column's x where its label points: its first lane's tick. */
	for (size_t c = 0; c < p->ncols; c++) {
		lx[c] = NAN;
		for (size_t k = 0; k < p->nlanes && isnan(lx[c]); k++)
			if (!isnan(p->lanes[k].at[c]))
				lx[c] = xpos(p, p->lanes[k].at[c]);
	}
	/* Each label in the first row where it overlaps none, named
	 * milestones first; one that finds no row among LABEL_ROWS keeps
	 * its tick and its <title> (learned milestones can be most lines
	 * of a short log). */
	double *from = xcalloc(p->ncols ? p->ncols : 1, sizeof(*from));
	double *to = xcalloc(p->ncols ? p->ncols : 1, sizeof(*to));
	for (int pass = 0; labels && pass < 2; pass++) {
		for (size_t c = 0; c < p->ncols; c++) {
			row[c] = pass ? row[c] : SIZE_MAX;
			if (isnan(lx[c]) || (p->named[c] != 0) == (pass != 0))
				continue;
			size_t chars;
			label_bytes(p->names[c], LABEL_CHARS, &chars);
			double w = (double)chars * CHAR_W + 8;
			from[c] = lx[c] + w > W ? lx[c] - w : lx[c];
			to[c] = from[c] + w;
			for (size_t r = 0; r < LABEL_ROWS && row[c] == SIZE_MAX; r++) {
				size_t o = 0;
				while (o < p->ncols && (row[o] != r || to[o] <= from[c] || from[o] >= to[c]))
					o++;
				if (o == p->ncols)
					row[c] = r;
			}
			if (row[c] != SIZE_MAX && row[c] + 1 > nrows)
				nrows = row[c] + 1;
		}
	}
	free(from);
	free(to);
	double top = (double)nrows * LABEL_H + 6;
	double h = top + (double)p->nlanes * LANE_H + AXIS_H;
	fprintf(f, "<div class=\"pic\"><svg viewBox=\"0 0 %.0f %.0f\" role=\"img\" "
		"xmlns=\"http://www.w3.org/2000/svg\">\n", W, h);
	/* The time grid and axis. */
	double step = p->by_line ? line_step(p->tmax) : axis_step(p->tmax);
	for (double t = 0; t <= p->tmax * 1.0001; t += step) {
		double x = xpos(p, t);
		fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			"<text class=\"axis\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x, top, x,
			h - AXIS_H + 2, x, h - 6);
		if (p->by_line)
			fprintf(f, "line %.0f", t + 1);
		else if (t == 0)
			fputs("0", f);
		else
			fputs("+", f), put_dur(f, t);
		fputs("</text>\n", f);
	}
	/* Lanes: a bar to the last line, slow steps, silence, the end. */
	for (size_t k = 0; k < p->nlanes; k++) {
		const struct lane *l = &p->lanes[k];
		double y = top + (double)k * LANE_H, mid = y + LANE_H / 2;
		fputs("<g class=\"lane\">", f);
		if (l->title) {
			fputs("<title>", f);
			html_str(f, l->title);
			fputs("</title>", f);
		}
		fprintf(f, "<text x=\"4\" y=\"%.1f\"%s>", mid + 4, l->kind == LANE_BAD ? " class=\"hot\"" : "");
		svg_label(f, l->name, 30);
		fputs("</text>", f);
		if (!isnan(l->end_s)) {
			double e = l->end_s < p->tmax ? l->end_s : p->tmax;
			fprintf(f, "<rect class=\"bar%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"8\" rx=\"2\"/>",
				l->kind == LANE_BAD ? " bad" : "", X0, mid - 4, xpos(p, e) - X0);
			if (l->end_s > p->tmax) {
				fprintf(f, "<text class=\"axis\" x=\"%.1f\" y=\"%.1f\">→ +", X1 + 3, mid + 4);
				if (p->by_line)
					fprintf(f, "%.0f", l->end_s + 1);
				else
					put_dur(f, l->end_s);
				fputs("</text>", f);
			}
		}
		for (size_t s = 0; s < l->nslow; s++) {
			double a = l->slow[2 * s], b = l->slow[2 * s + 1];
			if (!isnan(a) && !isnan(b) && b > a)
				fprintf(f, "<rect class=\"slowband\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
					"height=\"%.1f\"><title>slow step</title></rect>", xpos(p, a), y + 2,
					xpos(p, b) - xpos(p, a), LANE_H - 4);
		}
		if (!isnan(l->now_s) && !isnan(l->end_s) && l->now_s > l->end_s) {
			fprintf(f, "<line class=\"silence\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\">"
				"<title>silent for ", xpos(p, l->end_s), mid, xpos(p, l->now_s), mid);
			put_dur(f, l->now_s - l->end_s);
			fprintf(f, "</title></line><text class=\"hot\" x=\"%.1f\" y=\"%.1f\" "
				"text-anchor=\"end\">now</text>", xpos(p, l->now_s), mid - 5);
		}
		if (!isnan(l->crash_s)) {
			double x = xpos(p, l->crash_s);
			fprintf(f, "<path class=\"crash\" d=\"M%.1f %.1fl6 -7l-6 -7l-6 7z\"><title>crash</title></path>",
				x, mid + 7);
		}
		if (!isnan(l->end_s) && l->end_word) {
			double x = xpos(p, l->end_s);
			fprintf(f, "<rect class=\"end\" x=\"%.1f\" y=\"%.1f\" width=\"3\" height=\"%.1f\"/>"
				"<text class=\"hot\" x=\"%.1f\" y=\"%.1f\"%s>%s</text>", x - 1, y + 2,
				LANE_H - 4, x + (x > X1 - 60 ? -4 : 4), mid + 10,
				x > X1 - 60 ? " text-anchor=\"end\"" : "", l->end_word);
		}
		fputs("</g>\n", f);
	}
	/* Milestones: leader, joins, ticks. */
	for (size_t c = 0; c < p->ncols; c++) {
		if (isnan(lx[c]))
			continue;
		fputs("<g class=\"milestone\"><title>", f);
		html_str(f, p->names[c]);
		fputs("</title>", f);
		if (labels && row[c] != SIZE_MAX) {
			double ly = (double)row[c] * LABEL_H + LABEL_H;
			size_t chars;
			label_bytes(p->names[c], LABEL_CHARS, &chars);
			int left = lx[c] + (double)chars * CHAR_W + 8 > W;
			fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
				"<text x=\"%.1f\" y=\"%.1f\"%s>", lx[c], ly + 2, lx[c], top + 4,
				lx[c] + (left ? -2 : 2), ly, left ? " text-anchor=\"end\"" : "");
			svg_label(f, p->names[c], LABEL_CHARS);
			fputs("</text>", f);
		}
		int open = 0;
		for (size_t k = 0; k < p->nlanes; k++) {
			double t = p->lanes[k].at[c];
			if (isnan(t))
				continue;
			double mid = top + (double)k * LANE_H + LANE_H / 2;
			fprintf(f, "%s%.1f %.1f", open ? " L" : "<path class=\"join\" d=\"M", xpos(p, t), mid);
			open++;
		}
		if (open)
			fputs("\"/>", f);
		for (size_t k = 0; k < p->nlanes; k++) {
			double t = p->lanes[k].at[c];
			if (isnan(t))
				continue;
			double mid = top + (double)k * LANE_H + LANE_H / 2;
			fprintf(f, "<line class=\"tick%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
				p->final[c] ? " final" : "", xpos(p, t), mid - 8, xpos(p, t), mid + 8);
		}
		fputs("</g>\n", f);
	}
	fputs("</svg></div>\n", f);
	free(row);
	free(lx);
}

void picture_free(struct picture *p)
{
	for (size_t k = 0; k < p->nlanes; k++)
		free(p->lanes[k].at);
	free(p->lanes);
	free(p->names);
	free(p->final);
	free(p->named);
}
