/* report_proc.h — printing a live report (live.h): `ddx proc`'s text
 * for a terminal and its JSON, and the "processes" array that `ddx diff
 * --json` embeds. */
#ifndef DDX_REPORT_PROC_H
#define DDX_REPORT_PROC_H

#include <stdio.h>

#include "json.h"
#include "live.h"
#include "out.h"

/* The report as JSON (`ddx proc --json` schema 1, one object, no
 * trailing newline), or as text for a terminal, to o. */
void report_proc_json(FILE *f, const struct live_report *r);
void report_proc_text(const struct out *o, const struct live_report *r);
/* Just the "processes" member of the JSON report, into the object jw
 * has open, for `ddx diff`. */
void report_proc_processes_json(struct jw *jw, const struct live_report *r);
/* "culprit": the worker the others wait for (live.h), or null. */
void report_proc_culprit_json(struct jw *jw, const struct live_report *r);

#endif
