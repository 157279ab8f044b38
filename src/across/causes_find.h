/* causes_find.h — which known causes (causes.h) a diagnosed failure
 * matches, and the line of the bad log that shows each. */
#ifndef DDX_CAUSES_FIND_H
#define DDX_CAUSES_FIND_H

#include <stddef.h>

#include "causes.h"
#include "diagnose.h"

/* The causes of cs that d's failure matches, into *out (malloc'd; the
 * caller frees it), likeliest first; returns how many.  Only a run that
 * failed (a verdict other than same or different) is matched, and only
 * on what is new in it: the crash's lines first (its summary, its first
 * line, the traceback between), then the other new lines, errors first
 * (d->novel's order).  Lines every good run printed never name a cause,
 * so a cause needs no pattern against healthy text beyond its own words.
 * Each line names at most one cause, the first of cs that matches it, and
 * each cause is named once, for its first line.  The context a cause
 * asks for is the engine that wrote bad (rules_engine over its templates,
 * with rs's marks) and the name of its last milestone reached. */
size_t causes_find(const struct causeset *cs, const struct diagnosis *d,
		   const struct tmpl_table *tt, const struct ruleset *rs,
		   struct dx_cause_hit **out);

#endif
