/* diagnose.h — the differential diagnosis of one bad log against good
 * ones: where it stopped following them, what should have come next, what
 * is new, what changed, what was slow, how far each rank got.
 *
 * Everything here works on arrays of template ids and touches each
 * distinct template once; the only lines re-read are the few the report
 * quotes and, once per template, a line pair whose values are compared.
 * Line numbers in this interface are 0-based; the report adds one. */
#ifndef DDX_DIAGNOSE_H
#define DDX_DIAGNOSE_H

#include <stddef.h>
#include <stdint.h>

#include "diagnosis.h"
#include "log.h"
#include "rules.h"
#include "template.h"

const char *dx_verdict_name(int v);   /* "same", "different", ... */
const char *dx_severity_name(int s);  /* "info", "warning", "error" */
/* "never-entered", "stuck-inside", ... (enum dx_hang_kind); NULL for none. */
const char *dx_hang_kind_name(int k);

/* Diagnose logs[nlogs-1] (bad) against logs[0..nlogs-1) (good), all
 * loaded with LOG_FULL into tt.  rs may be empty.  Fills d, which the
 * caller frees with diagnosis_free; d points into logs and tt, which must
 * outlive it. */
void diagnose(struct log *logs, size_t nlogs, struct tmpl_table *tt,
	      const struct ruleset *rs, const struct dx_options *opt,
	      struct diagnosis *d);
void diagnosis_free(struct diagnosis *d);
/* Set d's silence to silent_s, as a caller that follows the log measured
 * it since (`ddx watch`), and the verdict with it: a stop is RUNNING
 * while that is short of the good runs' step time, STOPPED after. */
void dx_set_silence(struct diagnosis *d, double silent_s);

/* A milestone's name: its rule's, or for a learned one or one of the
 * generic words' rules the good run's line that names it (its message,
 * as printed).  m is one of d->ms. */
/* Whether milestone m goes by its rule's name (an engine's rule names
 * the step better than a line) rather than by the good run's line. */
int dx_milestone_by_rule(const struct diagnosis *d, const struct dx_milestone *m);
const char *dx_milestone_name(const struct diagnosis *d, const struct dx_milestone *m);
/* The good run's final milestone, as sentences name it: where it is up
 * (timeline_up, the rule `ddx phases` uses too); for a good run that
 * never came up, its last milestone a final rule names, else its last
 * milestone, before its shutdown began (never a teardown line); NULL
 * when there are none. */
const struct dx_milestone *dx_final_milestone(const struct diagnosis *d);
/* The text of canonical template id (names learned milestones). */
const char *dx_template_text(const struct diagnosis *d, uint32_t id);
/* Canonical template id of bad's line i (0-based). */
uint32_t dx_bad_id(const struct diagnosis *d, int64_t i);
/* Canonical template id of the chosen good log's line j (0-based). */
uint32_t dx_good_id(const struct diagnosis *d, int64_t j);
/* The first line of canonical template id in log l (an index into the
 * logs diagnose was given), or DX_NONE: when another good run reached a
 * milestone. */
int64_t dx_first_line(const struct diagnosis *d, size_t l, uint32_t id);
/* Finding n's streams into b as people read them, "rank0, rank2, rank3"
 * or "TP0..TP15" (a run of one name counting up), at most 4 items and
 * then "and N more"; nothing when it has none. */
void dx_streams_text(struct buf *b, const struct diagnosis *d, const struct dx_novel *n);

#endif
