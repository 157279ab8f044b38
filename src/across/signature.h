/* signature.h — the signature of a failure, for the failure memory: what
 * two runs that failed the same way share, computed from the diagnosis
 * (which lines matter) and the templates of those lines (ddx's masked
 * text), never from the raw text.
 *
 * A crash is its cause's template ("crashed: torch.OutOfMemoryError: CUDA
 * out of memory. Tried to allocate <size>...").  A run that stopped is
 * the last step of the good run it reached ("stopped after: Load weight
 * end. type=<*>, ..."); one that diverged, that step and its first new
 * line; one that finished but differs, its first new line or changed
 * value.  Masking already turns numbers, paths, addresses, ports, hex,
 * times and words holding digits into placeholders; the signature also
 * turns host names (a dotted name before a port, the word after "host")
 * into "<host>", so runs on different machines share one.  A run that
 * matches has no signature.  Everything here is pure: no I/O. */
#ifndef DDX_SIGNATURE_H
#define DDX_SIGNATURE_H

#include <stddef.h>
#include <stdint.h>

#include "diagnosis.h"
#include "template.h"

/* The readable summary of a signature is cut to this many bytes. */
#define SIGNATURE_SUMMARY_MAX 300
/* The earlier runs a report names, most recent first. */
#define SEEN_RUNS_MAX 3

struct signature {
	char key[17];        /* 16 hex digits: the hash of the whole text */
	char *summary;       /* malloc'd: "stopped after: ...", cut */
};

/* The signature of a failure of kind verdict (enum dx_verdict, not
 * DX_SAME) whose step (the last step reached) and cause (the crash's or
 * the first new line's) are template texts, either NULL.  Returns 0, or
 * -1 with nothing made when there is nothing to name (a DX_SAME, a
 * DX_RUNNING, which has not failed yet, or neither text). */
int signature_make(int verdict, const char *step, const char *cause, struct signature *sig);
/* The signature of d's failure; tt is the table d's logs were loaded
 * into (a line's own template, not its cluster's, which depends on what
 * else was compared).  -1 when d names none (see signature_make). */
int signature_of(const struct diagnosis *d, const struct tmpl_table *tt, struct signature *sig);
void signature_free(struct signature *sig);

/* Host names in a template text replaced by "<host>", into out (reset
 * first): a dotted lower-case name followed by ":<" (host:<int>), and the
 * word after "host" or "hostname" (" ", "=" or ": " between). */
void signature_mask_hosts(const char *text, struct buf *out);

/* One earlier run recorded with a signature. */
struct failure_run {
	const char *name;    /* the run's name: its file's base name */
	const char *host;
	const char *baseline;
	int64_t seen;        /* s since the epoch */
};

/* What a team recorded as the fix of a signature (`ddx failures fix`);
 * text is NULL when none was. */
struct failure_fix {
	const char *text;
	const char *host;    /* where it was recorded */
	int64_t fixed;       /* when, s since the epoch */
};

/* What the failure memory knows of a signature before this run: set by
 * diffrun.c into struct diagnosis for the report. */
struct failure_seen {
	const char *key, *summary;   /* this run's signature */
	uint64_t count;              /* earlier runs with it */
	int64_t first;               /* the earliest of them, s */
	int64_t now;                 /* when this run was checked, s */
	struct failure_run runs[SEEN_RUNS_MAX];  /* the latest, most recent first */
	size_t nruns;
	struct failure_fix fix;      /* the latest recorded */
};

/* What a report says of s, raw (callers escape it): "seen before: 3
 * times in 14 days, last on runner-7 at 2026-11-30 09:12 UTC, baseline
 * 'sg'; latest runs: c.log, b.log, a.log", or "seen before: never
 * (signature KEY)", then "; fixed last time by: TEXT (TIME)" when a fix
 * was recorded, into out (reset first). */
void signature_seen_sentence(const struct failure_seen *s, struct buf *out);
/* A time in s as "2026-11-30 09:12 UTC" into out[SEEN_TIME_SIZE]. */
#define SEEN_TIME_SIZE 32
void signature_time(int64_t t, char *out);

#endif
