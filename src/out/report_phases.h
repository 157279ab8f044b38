/* report_phases.h — printing a timeline (timeline.h): the text of `ddx
 * phases` for people, and its JSON (schema 1) for programs. */
#ifndef DDX_REPORT_PHASES_H
#define DDX_REPORT_PHASES_H

#include <stdio.h>

#include "out.h"
#include "timeline.h"

/* The summary (up or not, and where it stopped), then a row a milestone,
 * to o. */
void report_phases_text(const struct out *o, const struct timeline *tl);
/* The timeline as one JSON object, a newline after it. */
void report_phases_json(FILE *f, const struct timeline *tl);

#endif
