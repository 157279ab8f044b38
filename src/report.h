/* report.h — printing a diagnosis: text for people, JSON (schema 1) for
 * programs.  All log text goes through put_text / put_json_string. */
#ifndef DDX_REPORT_H
#define DDX_REPORT_H

#include <stdio.h>

#include "diagnose.h"
#include "live.h"

/* The text report; the first line is a one-sentence verdict.  live, when
 * not NULL, is what live_inspect() found behind the bad log: a "live"
 * section when processes still hold it. */
void report_text(FILE *f, const struct diagnosis *d, const struct log *logs, size_t nlogs,
		 const struct live_report *live);
/* The JSON report, schema 1 (see the top of report.c); live as above
 * fills "processes" and "liveness". */
void report_json(FILE *f, const struct diagnosis *d, const struct log *logs, size_t nlogs,
		 const struct live_report *live);

#endif
