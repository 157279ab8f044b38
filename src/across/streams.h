/* streams.h — the streams of a log (one per rank or process tag) and how
 * far each got: naming them so that runs compare (pids dropped), telling
 * ranks of one kind (TP0, TP1) from different processes (APIServer,
 * EngineCore), pairing each stream of a bad log with one of a good log,
 * and each rank's progress for the report.
 *
 * Streams are small numbers (uint16_t), 0 for untagged lines; a template
 * is a canonical id < nc.  Nothing here reads log text: it works on the
 * per-line id and stream arrays of struct align_log. */
#ifndef DDX_STREAMS_H
#define DDX_STREAMS_H

#include <stddef.h>
#include <stdint.h>

#include "align.h"
#include "diagnosis.h"

/* A tag's stream name: the words of the tag without brackets and without
 * "pid=N" (pids differ between runs, ranks do not): "VllmWorker rank=2
 * pid=4711" -> "VllmWorker rank=2", "(APIServer pid=1)" -> "APIServer".
 * The caller frees it. */
char *streams_norm_tag(const char *tag);

/* The number of stream name in (*names)[0..*n), added when new (the
 * table grows; the caller frees the names and the table).  A table full
 * at UINT16_MAX names answers 0. */
uint16_t streams_intern(char ***names, size_t *n, const char *name);

/* Whether a and b are the same kind of stream, differing only in their
 * numbers: "TP3" and "TP10", "DP0 TP3" and "DP1 TP0". */
int streams_same_kind(const char *a, const char *b);

/* Which stream of good each stream of bad is aligned with (smap, one
 * entry per stream; ALIGN_ALL and ALIGN_NONE as align_logs takes them):
 * the one that shares most of its templates (names change between
 * versions), ties going to the same name, then the same kind.  good_has[s]:
 * good has lines in stream s; good_cnt[c]: good's lines of template c;
 * names: the bad->nstreams stream names, shared by both logs. */
void streams_map(const struct align_log *bad, const struct align_log *good,
		 const uint8_t *good_has, const uint32_t *good_cnt, size_t nc,
		 char *const *names, uint32_t *smap);

/* shared[c] (nc entries, the caller frees them): template c is one
 * that every tagged stream of good printed, of the templates only[c]
 * marks (NULL: all); one good printed on no tagged stream, or a good
 * log of one tagged stream at most, counts as shared.  A step one rank
 * alone takes (rank 0 loads the model, serves HTTP) puts no other rank
 * behind. */
uint8_t *streams_shared(const struct align_log *good, const uint8_t *only, size_t nc);

/* How far each tagged stream of bad got, into d->ranks (sorted in
 * natural order, TP2 before TP10), d->nranks, d->ranks_alike and
 * d->ranks_same.  follow[i]: bad's line i follows the good run; step[c]:
 * template c (< nc) is a milestone; new_error[c]: an error the good runs
 * never printed.  A rank's last milestone is one of those every tagged
 * stream of good printed: a step one rank alone takes (rank 0 loads the
 * model, serves HTTP) puts no other rank behind.  Reads d->novel to
 * charge untagged traceback lines to the rank that started the
 * traceback. */
void streams_rank_progress(const struct align_log *bad, const struct align_log *good, size_t nc,
			   char *const *names, const uint8_t *follow, const uint8_t *step,
			   const uint8_t *new_error, struct diagnosis *d);

#endif
