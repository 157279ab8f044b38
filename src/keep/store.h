/* store.h — the baseline store: known-good runs kept by name, with what
 * was learned from them, in an SQLite file or a PostgreSQL database.
 *
 * A baseline is a name and one or more runs.  A run keeps the log's bytes
 * (as read: decompressed, byte-identical), compressed with zstd in chunks,
 * and what ddx learned from it: its templates with counts, line count,
 * first and last timestamps, header format, engine and configuration.
 * Reports can therefore quote the good run's lines long after its file is
 * gone, and `ddx check` can pick a baseline without reading any log.
 *
 * One interface, two back-ends.  A path is an SQLite file, the embedded
 * default; a postgresql:// (or postgres://) URL is a database a team
 * shares, through libpq.  store.c and its parts (store_*.c) hold the
 * logic, in SQL both engines run (db.h); db_sqlite.c and db_pg.c are the
 * only files that talk to an engine.  Both keep the same tables and a schema version, and migrate an
 * older store when it is opened.  An export is always an SQLite file, so
 * that baselines move between back-ends as between files.
 *
 * An SQLite file is marked as ddx's (PRAGMA application_id), so a foreign
 * database is refused rather than written to, and every query on a file
 * is bounded (a store file may come from anywhere).  PostgreSQL keeps the
 * tables in the schema "ddx" of the database named.
 *
 * Every write is one transaction, holding the store's one write lock
 * (BEGIN IMMEDIATE in SQLite, an advisory lock in PostgreSQL): a crash or
 * a kill -- of ddx, or of the connection -- loses at most the write in
 * progress, never what was stored before, and concurrent learns queue up
 * (for up to a minute) instead of failing or interleaving.  Readers never
 * wait for writers.  A server that cannot be reached or goes away is an
 * error naming the store, never its password. */
#ifndef DDX_STORE_H
#define DDX_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "logmeta.h"
#include "signature.h"
#include "util.h"

/* The schema this ddx writes.  1: baselines, runs, chunks, templates.
 * 2: adds the engine of each run and its configuration key=values.
 * 3: adds the failure memory.  4: indexes it by signature.  5: adds
 * each failure's content (a run checked twice is one run) and the fixes
 * a team recorded for a signature. */
#define STORE_VERSION 5

struct store;

/* A compressed piece of a run's content (one zstd frame). */
struct chunk {
	void *data;          /* malloc'd */
	size_t size;         /* compressed */
	size_t raw_size;
};

/* A run as stored.  Strings point into the arena given to whoever filled
 * the struct, or, for a run being learned, into memory the caller owns. */
struct run {
	int64_t id;          /* 0 until stored */
	const char *name;    /* file name it was learned from */
	uint64_t hash;       /* of the content, hash_bytes */
	uint64_t size;       /* content bytes */
	uint64_t stored;     /* compressed bytes */
	uint64_t lines;
	int64_t first_ts, last_ts;  /* ms, or TS_NONE */
	int64_t mtime;       /* the file's modification time, s */
	int64_t added;       /* when it was learned, s (store_learn sets it) */
	const char *format;  /* header format name, "sglang" */
	const char *engine;  /* "sglang", "vllm" or "other" */
	const char *pipeline;  /* fingerprint of the ddx that made tmpl */
	struct run_tmpl *tmpl;
	size_t ntmpl;
	struct kv *cfg;
	size_t ncfg;
	struct chunk *chunks;  /* only for a run being learned */
	size_t nchunks;
};

struct baseline {
	int64_t id;
	const char *name;
	int64_t created, updated;   /* s since the epoch */
	size_t nruns;
	uint64_t size, stored;      /* content and compressed bytes, all runs */
	uint64_t lines;
	const char *engine;         /* of most runs */
};

/* How a store is opened.  STORE_READ: read-only (a file opened
 * SQLITE_OPEN_READONLY, unless an older store must be migrated first), so
 * reading needs no disk space.  STORE_WRITE: read-write, created when
 * missing.  STORE_EXPORT: read, on a connection that may hold the write
 * lock (export holds the store still while it copies). */
enum { STORE_READ = 0, STORE_WRITE = 1, STORE_EXPORT = 2 };

/* The store's path or URL: opt if given, else $DDX_STORE, else
 * $XDG_DATA_HOME/ddx/baselines.db, else ~/.local/share/ddx/baselines.db.
 * Returns a malloc'd string. */
char *store_path(const char *opt);
/* No output file of this run (outfile.h) replaces the store at path nor
 * the files SQLite keeps beside it (-wal, -shm, -journal), whether they
 * exist yet or not: replacing one loses what was written there.  A
 * database URL has no file to protect. */
void store_protect(const char *path);
/* path as messages name it: a URL's password (user:PASSWORD@,
 * password=PASSWORD) becomes "***".  Returns a malloc'd string. */
char *store_shown(const char *path);

/* Open the store at path.  STORE_WRITE creates it (a file and its
 * directory; a database's tables) when missing; STORE_READ does not, and
 * *missing is then set to 1 and NULL returned without a message, so
 * callers can say "no baselines".  A file that is not a ddx store is
 * refused without being modified: "'x.db': not a ddx store (reason)"; so
 * is a URL of another scheme than postgresql, which names a back-end ddx
 * lacks.  A server that cannot be reached: "cannot open 'URL': why".  An
 * older store is migrated.  Returns NULL after error(). */
struct store *store_open(const char *path, int mode, int *missing);
/* Close st; NULL is fine. */
void store_close(struct store *st);

/* All baselines, by name; *out is malloc'd, its strings in a. */
int store_list(struct store *st, struct baseline **out, size_t *n, struct arena *a);
/* The baseline called name: 1 found, 0 not found, -1 error. */
int store_find(struct store *st, const char *name, struct baseline *b, struct arena *a);
/* The runs of a baseline in the order they were added, with templates and
 * configuration when want_detail.  *out and the arrays in it are
 * malloc'd (free with store_runs_free), strings in a. */
int store_runs(struct store *st, int64_t baseline, int want_detail,
	       struct run **out, size_t *n, struct arena *a);
void store_runs_free(struct run *runs, size_t n);

/* Compress data[0..size) into r->chunks and set r->size, r->stored and
 * r->hash.  The chunks are freed by store_run_release. */
void store_compress(struct run *r, const char *data, size_t size);
void store_run_release(struct run *r);

/* Add runs to the baseline called name, creating it if needed, in one
 * transaction.  A run whose content is already in that baseline is
 * skipped: its id is left 0.  *added counts the runs stored. */
int store_learn(struct store *st, const char *name, struct run *runs, size_t n,
		size_t *added);

/* Replace the stored templates of run r->id by r's, made by the pipeline
 * r->pipeline, in one transaction, through a connection of its own (st
 * may be read-only).  They are a cache: when the file is read-only,
 * another process has held the store for a second, or the write fails,
 * nothing is said and -1 returned. */
int store_refresh(struct store *st, const struct run *r);

/* Write the content of run id to fd, decompressed: the bytes learned. */
int store_run_write(struct store *st, int64_t id, int fd);
/* The same into memory: *data (malloc'd, NUL-terminated) holds the
 * *size bytes learned. */
int store_run_read(struct store *st, int64_t id, char **data, size_t *size);

/* Remove a baseline and its runs.  1 removed, 0 no such baseline, -1
 * error. */
int store_remove(struct store *st, const char *name);

/* Write baseline name alone into the empty file into, which becomes a
 * ddx store in SQLite, whichever st's back-end (so `ddx --store FILE
 * baselines` reads it, and `baselines import` anywhere); messages name it
 * file, where the caller puts it once complete (see outfile.h: into is
 * its temporary file, and into-journal the journal written beside it).
 * Learns and removals wait meanwhile.  1 written, 0 no such baseline, -1
 * error. */
int store_export(struct store *st, const char *name, const char *file, const char *into);
/* Add every baseline of the SQLite store file to st, merging runs into
 * baselines of the same name as learn would, in one transaction.  file is
 * validated as a ddx store first, and only read (an older one is not
 * migrated, its runs are, on their way in). *nb counts the baselines
 * in it, *nr the runs added. */
int store_import(struct store *st, const char *file, size_t *nb, size_t *nr);
/* Write st's failure memory (its records and fixes) into the empty file
 * into, as store_export writes a baseline; *nrec and *nfix count them.
 * 1 written, 0 no failure recorded, -1 error. */
int store_export_failures(struct store *st, const char *file, const char *into, size_t *nrec,
			  size_t *nfix);
/* Add the failure records and fixes of the SQLite store file (validated
 * as for store_import) to st, in one transaction, skipping those st holds
 * already (a run's record, by its signature and content; a fix, by its
 * signature, text and time): importing twice adds nothing.  *nrec and
 * *nfix count those added. */
int store_import_failures(struct store *st, const char *file, size_t *nrec, size_t *nfix);

/* The failure memory: every run `check` found failing, with its
 * signature (signature.h).  A record names its baseline by name, so it
 * outlives the baseline. */
struct failure {
	const char *key, *summary;   /* the signature */
	const char *verdict;         /* "stopped", "crashed", ... */
	const char *name, *host, *baseline;
	int64_t seen;                /* s since the epoch */
	const char *content;         /* "HASH-SIZE" of the run's log: the
				      * same content checked again is the
				      * same run */
};

/* A signature as `ddx failures` lists it. */
struct failure_sig {
	const char *key, *summary, *verdict;   /* as last recorded */
	uint64_t count;
	int64_t first, last;
	const char *last_host, *last_name;
	const char **baselines;  /* the names its runs were checked with, sorted,
				  * in the arena */
	size_t nbaselines;
	struct failure_fix fix;  /* the latest recorded */
};

/* The host a failure or a fix is recorded on: $DDX_HOST (a CI runner's
 * name, say), else the machine's, into out[size]. */
void failure_host(char *out, size_t size);
/* What the store knows of signature key into *out (key and summary are
 * left alone): how many other runs had it (a record of content is this
 * run's own), the first time, the latest SEEN_RUNS_MAX runs (strings in
 * a; a name checked again on the same host once, as its latest), the
 * latest fix, and now as the store tells time (SOURCE_DATE_EPOCH when
 * set, for reproducible output). */
int store_failure_seen(struct store *st, const char *key, const char *content,
		       struct failure_seen *out, struct arena *a);
/* Record f, in one transaction, through a connection of its own (st may
 * be read-only), unless a record of its signature and content is there.
 * -1 after an error naming the store ("'x.db': failure not recorded:
 * ..."), which costs the caller nothing else. */
int store_failure_record(struct store *st, const struct failure *f);
/* The signatures recorded in the last within seconds (all when
 * negative), with baseline when not NULL, most frequent first, then most
 * recent; *out is malloc'd, its strings in a. */
int store_failures(struct store *st, const char *baseline, int64_t within,
		   struct failure_sig **out, size_t *n, struct arena *a);
/* The recorded signature given names, whole or by a unique prefix of 4
 * characters or more, into *key (in a): 1, or 0 when none is recorded;
 * -1 after an error (a prefix of two). */
int store_failure_find(struct store *st, const char *given, const char **key, struct arena *a);
/* Record text as what fixed signature key, on host, now (as
 * store_failure_seen tells time), in one transaction of st (opened to
 * write: STORE_WRITE or STORE_EXPORT). */
int store_fix_record(struct store *st, const char *key, const char *text, const char *host);

#endif
