/* html_impl.h — what the files of the HTML page share, and no other file
 * includes: html_frame.c writes the frame of a page and escapes its text,
 * html_timeline.c draws the timeline picture, html_pages.c makes the
 * pages (html.h) of those. */
#ifndef DDX_HTML_IMPL_H
#define DDX_HTML_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "log.h"

/* html_frame.c */

/* s as html_text, to its NUL. */
void html_str(FILE *f, const char *s);
/* s[0..n) as html_text, cut to at most max bytes at a UTF-8 boundary,
 * "…" marking the cut. */
void html_short(FILE *f, const char *s, size_t n, size_t max);
/* s seconds as a duration (fmt_seconds). */
void put_dur(FILE *f, double s);
/* The page's head, titled title (escaped), up to the opened <body>. */
void page_head(FILE *f, const char *title);
/* The footer, naming paths[0..n) (as "BAD against GOOD, ..." when
 * against, the last being bad); closes the page and frees paths.
 * Returns 0, or -1 on a write error (errno is the write's). */
int page_foot(FILE *f, const char **paths, size_t n, int against);

/* html_timeline.c */

enum lane_kind { LANE_GOOD, LANE_BAD, LANE_RANK };

struct lane {
	int kind;
	const char *name;     /* shown, cut; title holds all of it */
	const char *title;
	double end_s;         /* its last timestamped line, or NAN */
	double now_s;         /* silent up to here (bad), or NAN */
	double crash_s;       /* its crash, or NAN */
	const char *end_word; /* what its end is: "stopped", "crashed", "failed", NULL */
	double *at;           /* per milestone column: when reached, or NAN */
	const double *slow;   /* pairs (from, to) of slow steps */
	size_t nslow;
};

struct picture {
	size_t ncols;
	const char **names;   /* per column */
	uint8_t *final;       /* per column: the run is up there */
	uint8_t *named;       /* per column: a rule names it (labelled first) */
	struct lane *lanes;
	size_t nlanes;
	double tmax;          /* the x axis's end, shared by the pictures of a page */
	int by_line;          /* x is the line number, not the time: some run
				 has no times at its milestones */
};

/* Whether line i's timestamp is an outlier (html_timeline.c says when),
 * a time the picture does not trust. */
int time_outlier(const struct log *lg, size_t i);
/* Seconds from lg's first timestamp to line i, or NAN; an outlier
 * counts as the time of the line before it. */
double since_start(const struct log *lg, int64_t i);
/* Where line i of lg goes on p's x axis, or NAN. */
double picture_pos(const struct picture *p, const struct log *lg, int64_t i);
/* Where lg's end goes on p's x axis, or NAN. */
double picture_end_pos(const struct picture *p, const struct log *lg);
/* Whether each of lines[0..n) of lg (DX_NONE for none) has a time. */
int picture_timed(const struct log *lg, const int64_t *lines, size_t n);
/* The largest extent of p's lanes and t, so that pictures drawn one after
 * the other share their scale. */
double picture_extent(const struct picture *p, double t);
/* The axis's end for extent t: a little room after the last event. */
double axis_end(double t);
/* Draw p as an inline <svg>, with the milestones' labels when labels. */
void draw_picture(FILE *f, const struct picture *p, int labels);
/* Frees what p holds, not p. */
void picture_free(struct picture *p);

#endif
