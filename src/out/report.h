/* report.h — printing a diagnosis: text for people, JSON (schema 1) for
 * programs.  All log text goes through put_text / put_json_string. */
#ifndef DDX_REPORT_H
#define DDX_REPORT_H

#include <stdio.h>

#include "diagnose.h"
#include "live.h"
#include "out.h"

/* The text report, to o; the first line is a one-sentence verdict.
 * live, when not NULL, is what live_inspect() found behind the bad log: a
 * "live" section when processes still hold it.  Every line fits in o's
 * width: its opening sentences wrapped when o wraps, else a line each; a
 * width of 0 cuts only quoted log text, as for 120 columns, for a page
 * that wraps lines itself. */
void report_text(const struct out *o, const struct diagnosis *d, const struct log *logs,
		 size_t nlogs, const struct live_report *live);
/* The JSON report, schema 1 (see the top of report_json.c); live as above
 * fills "processes" and "liveness". */
void report_json(FILE *f, const struct diagnosis *d, const struct log *logs, size_t nlogs,
		 const struct live_report *live);

/* A recorded fix as the JSON reports say it, key "fix": {"text", "host",
 * "time"}, or null when fix->text is NULL. */
struct jw;
struct failure_fix;
void report_json_fix(struct jw *jw, const struct failure_fix *fix);

/* For GitHub Actions (--format github): the annotation, a workflow
 * command on f pointing at the bad log's line that says what happened,
 * and the first sentence with that line appended to the job summary
 * ($GITHUB_STEP_SUMMARY, when set; never one of logs[0..nlogs)).
 * Returns 0, or -1 after an error when the summary cannot be written. */
int report_github(FILE *f, const struct diagnosis *d, const struct log *logs, size_t nlogs);

#endif
