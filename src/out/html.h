/* html.h — the HTML report: one self-contained page for a browser or a
 * CI artifact, of a diagnosis (`ddx diff --html`) or of milestone
 * timelines side by side (`ddx phases --html`).
 *
 * The page holds no script and forbids scripts and every fetch
 * (Content-Security-Policy), fits a phone's width without sideways
 * scrolling, follows the reader's dark or light scheme and prints.  Its
 * centre is a timeline drawn in inline SVG: one lane per run, milestones
 * as ticks joined across lanes.  Every byte of log text and every name
 * goes through html_text, so nothing from a log or a file name becomes
 * markup. */
#ifndef DDX_HTML_H
#define DDX_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "diagnose.h"
#include "live.h"
#include "outfile.h"
#include "timeline.h"

/* What --html writes, and may replace: a page. */
extern const struct outfile_kind html_page_kind;

/* Untrusted s[0..n) as HTML text or attribute value: put_text's escapes,
 * then the five characters HTML gives meaning as entities. */
void html_text(FILE *f, const char *s, size_t n);

/* The page of a diagnosis of logs[nlogs-1] against the others (the logs
 * diagnose was given); live as for report_text.  Returns 0, or -1 on a
 * write error (errno is the write's). */
int html_diff_page(FILE *f, const struct diagnosis *d, const struct log *logs, size_t nlogs,
		   const struct live_report *live);

/* The page of n milestone timelines (timeline.h), one lane per log,
 * the same rule's milestone joined across them.  Returns as above. */
int html_phases_page(FILE *f, const struct timeline *tls, size_t n);

#endif
