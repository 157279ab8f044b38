/* baseline.h — stored baselines seen from a log: what learn keeps of a
 * run, which baseline fits a bad log best and why, and a baseline's runs
 * handed over as inputs, read back from the store into memory.
 *
 * Picking scores each baseline against the bad log's templates, a
 * template counting the more the fewer baselines have it; the engine and
 * the configuration the log prints weigh in (see score in baseline.c).
 * Stored templates compare with fresh ones only when the same pipeline
 * (prefix, mask) made them: runs stored by a ddx whose pipeline differs
 * are templated afresh from their content, and the store is updated. */
#ifndef DDX_BASELINE_H
#define DDX_BASELINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "input.h"
#include "log.h"
#include "rules.h"
#include "store.h"

/* Open the store at opt (see store_path) in mode; when reading one that
 * does not exist, say there are no baselines yet.  NULL after an error. */
struct store *baseline_store(const char *opt, int mode);

/* What learn keeps of a loaded log besides its content: name, lines,
 * times, format, engine (as the rules rs say: rs from rules_init
 * without files, here and wherever runs are compared, so that every
 * stored engine means the same), configuration (strings in a) and
 * templates (r->tmpl, malloc'd, their texts in tt).  Free r->tmpl and
 * r->cfg. */
void baseline_describe(struct run *r, const struct log *lg, const struct tmpl_table *tt,
		       const struct ruleset *rs, struct arena *a);

/* A baseline as a candidate for a bad log. */
struct baseline_cand {
	struct baseline b;
	struct run *runs;
	size_t nruns;
	uint32_t *ids;        /* its templates in the shared table (repeats) */
	size_t nids, capids;
	double known;         /* fraction of bad's templates it has */
	double score;
	int same_engine;
	size_t cfg_common, cfg_same;
};

/* Every baseline of st, or only the one called name, best first for the
 * bad log (loaded from path into bad, template ids only, with threads
 * jobs and log_load's flags).  *engine is bad's engine, as the rules rs say (those of
 * baseline_describe); it lives in rs or is static.  Returns 0 (*n is 0 when there is no
 * such baseline), or -1 after printing an error; free *cs with
 * baseline_cands_free and bad with log_free either way. */
int baseline_rank(struct store *st, const char *name, const char *path, int jobs, unsigned flags,
		  const struct ruleset *rs, struct log *bad, const char **engine,
		  struct baseline_cand **cs, size_t *n, struct arena *a);
void baseline_cands_free(struct baseline_cand *cs, size_t n);
/* Why c fits: "97% of bad's templates known, same engine (sglang), ...". */
void baseline_print_why(FILE *f, const struct baseline_cand *c, const char *engine);

/* The latest runs of c (at most max) as inputs named "NAME:FILE", in
 * *ins (malloc'd, with room for extra more after them), *n of them.
 * Returns 0, or -1 after printing an error (nothing left open). */
int baseline_open_runs(struct store *st, const struct baseline_cand *c, size_t max,
		       size_t extra, struct input **ins, size_t *n);
/* The same for the baseline called name in the store at store_opt. */
int baseline_open(const char *store_opt, const char *name, size_t max, struct input **ins,
		  size_t *n);

#endif
