/* timeline.h — the milestone timeline of one log, and the one rule for
 * "the run is up".
 *
 * Each rule that matched some line is one row, however many ranks (tags)
 * print it: its first and last line over the tags, and which tags printed
 * it of those expected to (tags alike but for their numbers, "TP3" and
 * "TP7", are one kind: when one prints a milestone, the others should
 * too).  The log must be loaded with its templates; rule matches come from
 * rules_match.  Line numbers are 0-based.
 *
 * timeline_up is what `ddx phases` (the row where the run came up) and
 * the diagnosis (the good run's final milestone) both call;
 * timeline_state, whether a run is up or should have been, is what every
 * command asks. */
#ifndef DDX_TIMELINE_H
#define DDX_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include "log.h"
#include "rules.h"

struct timeline_row {
	int32_t rule;
	size_t first, last;    /* earliest and latest first occurrence over the tags */
	uint64_t count;        /* lines matching, over all tags */
	size_t reached, total; /* tags that printed it, of the tags of their kinds */
	size_t *tag_first;     /* per tag (0 = untagged): first line, or SIZE_MAX */
	uint8_t *expected;     /* per tag: of a kind (family) some tag of which
				  printed it, so expected to print it too */
};

struct timeline {
	const struct log *lg;
	const struct ruleset *rs;
	size_t ntags;          /* lg->ntags, at least 1 (tag 0 = untagged) */
	uint32_t *family;      /* per tag: tags alike but for their numbers share one */
	size_t *order;         /* tags 1..ntags-1 in natural order (TP2 before TP10) */
	struct timeline_row *rows;  /* in order of first line */
	size_t nrows, rowcap;
	int64_t first_ts, last_ts;  /* the log's first and last timestamps, or TS_NONE */
	size_t up;             /* the row that shows the run is up, or SIZE_MAX */
	size_t failed;         /* the first fail row (the job failed), or SIZE_MAX */
};

/* The timeline of lg; match[tid] is the rule of template tid or -1 (from
 * rules_match).  lg and rs must outlive tl; free with timeline_free. */
void timeline_build(struct timeline *tl, const struct log *lg,
		    const struct ruleset *rs, const int32_t *match);
void timeline_free(struct timeline *tl);

/* The i-th tag in display order: untagged (0) first, then natural order. */
size_t timeline_tag_at(const struct timeline *tl, size_t i);

/* Whether tag t should have printed row w and did not. */
int timeline_missing(const struct timeline_row *w, size_t t);

/* The last row tag t reached, or SIZE_MAX. */
size_t timeline_last_row(const struct timeline *tl, size_t t);

/* The run is up: of n milestones in the order the run reached them
 * (rule[k]: milestone k's rule in rs, or -1 for one no rule names), the
 * index of the last final milestone of the main engine (the one with the
 * most milestones) when that engine has final rules (SGLang is up at
 * "server ready", after its warmup, not at uvicorn's "application startup
 * complete" before it), else the last final milestone of any engine (vLLM
 * is up when uvicorn is).  Failing those, the last done milestone (a
 * job's clean end) of any engine.  A done milestone counts only when no
 * fail milestone was reached: a CI runner cleans up after a failed step as
 * after a good one.  SIZE_MAX when no final milestone was reached. */
size_t timeline_up(const struct ruleset *rs, const int32_t *rule, size_t n);

/* Where a run stands, as every command says it: `ddx phases` (its NOT UP
 * and exit status), and the check of good runs (goodcheck.h) that diff,
 * check, watch and learn make.  One test, so that they cannot disagree. */
enum timeline_state {
	TIMELINE_UP,        /* reached the final milestone of timeline_up */
	TIMELINE_FINISHED,  /* reached a done one: a job that ended cleanly */
	TIMELINE_FAILED,    /* reached a fail one (tl->failed), up or not */
	TIMELINE_NOT_UP,    /* a server that never came up */
	TIMELINE_UNJUDGED,  /* none of those, with nothing to say it should have */
};

/* The run of tl is up when it reached a final milestone (timeline_up),
 * finished when that milestone is a done one, failed when it reached a
 * fail milestone, whatever came after.  It is NOT UP when, short of
 * those, it is a server and reached two milestones or more (one alone is
 * no startup: a log begun after the server came up, rotated or cut,
 * prints only its steady state).  A server is a run whose main engine
 * (timeline_main_engine) has a final rule that is not a done one (SGLang,
 * TGI, PostgreSQL), or that reached a "server" milestone (vLLM's API
 * server banner: vLLM has no final rule, uvicorn's says it is up, and
 * its offline LLM() runs in scripts that never serve).  Other
 * runs are not judged: a job (training run, CI job, script) has no "up",
 * only an end it may not have reached yet, and the generic words (all
 * that `--rules none` leaves) match any long-running program, so only
 * their final milestones ("listening on", "ready") say anything. */
enum timeline_state timeline_state(const struct timeline *tl);

/* The engine with the most milestones of those n (rule[k] as for
 * timeline_up): an SGLang server also logs uvicorn's and maybe NCCL's,
 * but is an SGLang server.  Ties go to the engine reached first; NULL
 * when no rule names one. */
const char *timeline_main_engine(const struct ruleset *rs, const int32_t *rule, size_t n);

#endif
