/* culprit.h — the rank a distributed job's failure started on.  When one
 * rank stops, its peers block in their next collective and fail later
 * with timeouts, lost connections and watchdog aborts; those are what a
 * log shows first and loudest.  The culprit is the rank that failed on
 * its own before any peer failed waiting, or, when none did, the one
 * that did not fail: the rank that stopped at a step its peers went
 * past, or at a line of its own.
 *
 * It works on the ranks streams.c found (d->ranks), the novel findings
 * (d->novel) and which bad lines follow the good run; it reads the text
 * of templates and, to tell silent ranks apart, of the launcher's
 * untagged error lines. */
#ifndef DDX_CULPRIT_H
#define DDX_CULPRIT_H

#include <stddef.h>
#include <stdint.h>

#include "diagnosis.h"
#include "log.h"

struct culprit_input {
	const struct log *bad;
	const uint32_t *id;         /* bad's template per line */
	const uint16_t *stream;     /* bad's stream per line */
	const uint8_t *follow;      /* bad's line follows the good run */
	const uint8_t *in_good;     /* per template: a good log printed it */
	const uint8_t *shared;      /* per template: every rank of the good
				     * log printed it (streams_shared) */
	const char *const *ctext;   /* per template: its text */
	size_t nc;                  /* templates */
	char *const *names;         /* stream names (d->ranks[].name point here) */
	size_t nstreams;
	const struct ruleset *rs;   /* whose words say killed, timeout, peer loss */
};

/* The names of enum dx_role as the reports write them ("culprit",
 * "waiting", "failed-own", "torn-down", "finished"); NULL for 0. */
extern const char *const culprit_role_name[];

/* Fills d->culprit from d->ranks and d->novel (rank NULL for none), and
 * each rank's role (d->ranks[].role).
 * diagnosis_free frees its peers. */
void culprit_find(const struct culprit_input *in, struct diagnosis *d);

/* When the log names no culprit (d->culprit.rank NULL), the rank the
 * live processes single out is it: the rank of d->ranks whose name holds
 * the number rank ("TP2" for 2), with its last line.  Returns whether
 * one was set. */
int culprit_from_live(struct diagnosis *d, long rank);

#endif
