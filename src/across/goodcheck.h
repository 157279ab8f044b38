/* goodcheck.h — whether the good runs a report is given are good, before
 * it trusts them: a "good" run that crashed or never came up turns every
 * verdict against it into nonsense (a hung server MATCHES a good run that
 * hung too), and the likeliest cause is a slip (the bad log put first).
 *
 * Each good run is judged by itself (empty; by the rules of its engine,
 * failed or a server never up, as `ddx phases` says: timeline_state; its
 * log ends in an error that nothing ran after) and, when there are
 * others, against them: the diagnosis of it as the bad run against the
 * rest (crashed, or stopped before their final milestone).  One found
 * wanting is left out of the reference while others remain.  All logs
 * are loaded with LOG_FULL into one template table. */
#ifndef DDX_GOODCHECK_H
#define DDX_GOODCHECK_H

#include <stddef.h>
#include <stdint.h>

#include "diagnosis.h"
#include "log.h"
#include "rules.h"
#include "template.h"

/* Judge logs[0..ngood): doubted[g] is set for each found wanting, with a
 * warning appended to *ws (*nws of them, grown with realloc) that names
 * it and says why ("good run PATH crashed at line 59 (...)").  Returns
 * how many were doubted. */
size_t goodcheck_goods(const struct log *logs, size_t ngood, struct tmpl_table *tt,
		       const struct ruleset *rs, uint8_t *doubted, struct dx_warning **ws,
		       size_t *nws);

/* goodcheck_goods, and what a comparison makes of it, the same for every
 * command: the good runs found wanting are left out while others remain,
 * and each warning says so ("; left out of the comparison", or "; kept,
 * as no good run is better").  keep[0..*nkeep) are the indices of the
 * good runs to compare with, in order.  Returns how many were doubted;
 * the caller decides what doubt costs (no clean match, for diff). */
size_t goodcheck_select(const struct log *logs, size_t ngood, struct tmpl_table *tt,
			const struct ruleset *rs, uint8_t *doubted, size_t *keep, size_t *nkeep,
			struct dx_warning **ws, size_t *nws);

/* Whether good, diagnosed as a bad run against bad, fell short of it:
 * bad went further (the order of the logs looks swapped).  Not for an
 * empty log, which is another slip. */
int goodcheck_further(const struct log *bad, const struct log *good, struct tmpl_table *tt,
		      const struct ruleset *rs);

/* A doubt that goodcheck_goods does not judge (the fit of a baseline,
 * the order of the logs), appended to *ws as goodcheck_goods does;
 * text is printf's. */
void goodcheck_warn(struct dx_warning **ws, size_t *nws, const char *kind, const char *path,
		    int64_t line, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* Free warnings made here. */
void goodcheck_free(struct dx_warning *ws, size_t n);

#endif
