/* store_impl.h — what the files of the store share, and no other file
 * includes: the open store, its limits, the SQL helpers that name the
 * store in their errors, and the steps one file's job takes from
 * another's.  store.c opens a store and keeps its schema, store_runs.c
 * its baselines and runs, store_transfer.c exports and imports,
 * store_failures.c the failure memory. */
#ifndef DDX_STORE_IMPL_H
#define DDX_STORE_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "prefix.h"
#include "store.h"
#include "util.h"

/* "ddx1", written in the file header (PRAGMA application_id) so that a
 * ddx store is recognised without trusting its table names. */
#define APP_ID 0x64647831
/* Content is compressed in independent frames of this many bytes, so that
 * no row is near SQLite's 1 GB limit and a run is written and read back
 * a piece at a time. */
#define CHUNK_RAW ((size_t)8 << 20)
/* How long a writer waits for another one before giving up, in ms. */
#define BUSY_MS 60000
/* No string or blob may exceed what ddx writes (a chunk, or a template of
 * at most INPUT_LINE_MAX bytes). */
#define VALUE_MAX ((int)(2 * CHUNK_RAW))
/* The PostgreSQL schema a store's tables are in. */
#define PG_SCHEMA "ddx"
/* The columns of run, by version. */
#define RUN_COLS_V1 "name, hash, size, lines, first_ts, last_ts, format, mtime, added, pipeline"

struct store {
	struct db *db;
	char *path;    /* a file's path or a URL, as given */
	char *shown;   /* path for messages: a URL without its password */
	int quiet;     /* errors are not reported: a cache being written */
	int64_t version;   /* of the schema; an import's may be older */
};

/* store.c */

/* "Now" in seconds; SOURCE_DATE_EPOCH when set, for reproducible output. */
int64_t now_s(void);
/* The error of st's last call to db.h, as a message naming the store
 * after what failed ("store error", "cannot read runs"); nothing is said
 * when st is quiet.  Returns -1. */
int db_error(struct store *st, const char *what);
/* One integer from a query without parameters; -1 on error. */
int64_t query_int(struct store *st, const char *sql);
/* Decide from the file's first 100 bytes (the SQLite header) whether path
 * may be opened as a store, before SQLite touches it: a foreign file must
 * not gain a journal or WAL, or be "recovered".  Returns 1 for a ddx
 * store, its schema version in *version, 0 for an empty file or a blank
 * SQLite database (no table ever created, no version set: both become a
 * store), -1 after an error. */
int check_header(const char *path, uint32_t *version);
/* Whether the schema of an SQLite store of version ver is exactly ddx's:
 * its tables with their columns, their indexes, and nothing else (no
 * view, no trigger, no virtual table).  Errors quote nothing of the
 * file's.  Returns -1 after saying what is wrong. */
int check_tables(struct store *st, int64_t ver);
/* Create the schema of STORE_VERSION from version ver, and mark it so,
 * inside the write transaction begun. */
int create_schema(struct store *st, int64_t ver);
/* A store named path, and shown in messages (store_shown), not yet
 * open: the caller opens st->db. */
struct store *new_store(const char *path, const char *shown);
/* A connection of st's own to write through, into w, for a write that a
 * reader makes too (st's connection is then read-only), waiting up to
 * wait_ms for another writer.  Quiet: the caller says what failed, and
 * closes w->db (db_err tells whether it opened).  -1, with errno set,
 * when st is a file that cannot be written, and nothing was opened. */
int open_writer(const struct store *st, int wait_ms, struct store *w);
/* Fill the version-2 data of runs stored without it (a migrated version-1
 * store, or a version-1 import): the engine from the templates, the
 * configuration from the content. */
int fill_v2(struct store *st);

/* store_failures.c */

/* Whether st holds f already: a record of its signature and content, or
 * for f without content (of a store of version 4 or older) of its
 * signature, name, host and time: 1 yes, 0 no (always, in a store of
 * version 4 or older), -1 after an error. */
int failure_held(struct store *st, const struct failure *f);
/* Store f; its content only in a store of version 5. */
int failure_insert(struct store *st, const struct failure *f);
/* Whether st holds a fix of key with text, recorded at fixed: 1 yes, 0
 * no, -1 after an error (version 5). */
int fix_held(struct store *st, const char *key, const char *text, int64_t fixed);
/* Store a fix (version 5). */
int fix_insert(struct store *st, const char *key, const char *text, const char *host,
	       int64_t fixed);

/* store_runs.c */

/* The templates of run r->id, and its configuration when the store has
 * any (version 2). */
int load_detail(struct store *st, struct run *r, struct arena *a);
/* The runs whose column key ("baseline" or "id") is v; as store_runs. */
int read_runs(struct store *st, const char *key, int64_t v, int want_detail,
	      struct run **out, size_t *n, struct arena *a);
/* The chunks of run id, compressed. */
int load_chunks(struct store *st, int64_t id, struct chunk **out, size_t *n);
/* Decompress one chunk into out (raw_size bytes, malloc'd). */
int unchunk(const char *shown, const struct chunk *c, char **out);
/* Whether baseline holds a run with the same content as chunks: 1 yes,
 * 0 no, -1 error. */
int has_content(struct store *st, int64_t baseline, uint64_t hash, uint64_t size,
		const struct chunk *chunks, size_t nchunks);
/* The id of baseline name, created if missing; -1 on error. */
int64_t baseline_id(struct store *st, const char *name, int64_t now);
/* Record that baseline id changed now. */
int touch(struct store *st, int64_t id, int64_t now);
/* Store cfg[0..n), the configuration of run. */
int insert_config(struct store *st, int64_t run, const struct kv *cfg, size_t n);
/* Store r, chunks, templates and configuration, in baseline; sets
 * r->id.  r->engine NULL stores none (a version-1 import's, which
 * fill_v2 computes). */
int insert_run(struct store *st, int64_t baseline, struct run *r);

/* The helpers every file runs its SQL through, reporting errors with
 * db_error.  Static inline, as each file's own: short, and names as
 * plain as exec and commit stay out of the program's global ones. */

static inline int exec(struct store *st, const char *sql)
{
	return db_exec(st->db, sql) < 0 ? db_error(st, "store error") : 0;
}

static inline int begin_write(struct store *st)
{
	return db_begin_write(st->db) < 0 ? db_error(st, "store error") : 0;
}

static inline int commit(struct store *st)
{
	return db_commit(st->db) < 0 ? db_error(st, "store error") : 0;
}

static inline struct db_stmt *prepare(struct store *st, const char *sql)
{
	struct db_stmt *s = db_prepare(st->db, sql);
	if (!s)
		db_error(st, "store error");
	return s;
}

/* Step a statement that returns no rows, and finalize it. */
static inline int step_done(struct store *st, struct db_stmt *s)
{
	int rc = db_step(s);
	db_finalize(s);
	return rc == DB_DONE ? 0 : db_error(st, "store error");
}

/* Step a statement that returns one id (INSERT ... RETURNING id), and
 * finalize it; -1 on error. */
static inline int64_t step_id(struct store *st, struct db_stmt *s)
{
	int64_t id = db_step(s) == DB_ROW ? db_col_int(s, 0) : -1;
	db_finalize(s);
	if (id < 0)
		db_error(st, "store error");
	return id;
}

/* Run sql with parameter $1 bound to id. */
static inline int exec_id(struct store *st, const char *sql, int64_t id)
{
	struct db_stmt *s = prepare(st, sql);
	if (!s)
		return -1;
	db_bind_int(s, 1, id);
	return step_done(st, s);
}

static inline void bind_str(struct db_stmt *s, int i, const char *p)
{
	if (p)
		db_bind_text(s, i, p, strlen(p));
	else
		db_bind_null(s, i);
}

/* A text column; "" for a NULL, which a store file made by anything but
 * ddx may hold where ddx's schema says NOT NULL. */
static inline const char *col_str(struct db_stmt *s, int i, struct arena *a)
{
	const char *p = db_col_text(s, i);
	if (!p)
		return "";
	return arena_strndup(a, p, db_col_bytes(s, i));
}

/* A content hash, stored as hex text; 0 for a NULL. */
static inline uint64_t col_hash(struct db_stmt *s, int i)
{
	const char *p = db_col_text(s, i);
	return p ? strtoull(p, NULL, 16) : 0;
}

/* A store file may hold any value where ddx wrote a count or a time: each
 * is read within the range ddx can have written, so that no sum or
 * difference of them overflows and no date fails to format.  Counts and
 * sizes: 0 to 2^53 (sums too, which total() makes without overflowing).
 * Times: the years 0 to 9999. */
#define COUNT_MAX ((uint64_t)1 << 53)
#define SECONDS_MAX 253402300799ll    /* 9999-12-31 23:59:59 UTC */
#define SECONDS_MIN -62167219200ll    /* 0000-01-01 00:00:00 UTC */

static inline uint64_t col_count(struct db_stmt *s, int i)
{
	if (db_col_type(s, i) == DB_INT) {
		int64_t v = db_col_int(s, i);
		return v < 0 ? 0 : (uint64_t)v > COUNT_MAX ? COUNT_MAX : (uint64_t)v;
	}
	double v = db_col_double(s, i);
	return !(v > 0) ? 0 : v >= (double)COUNT_MAX ? COUNT_MAX : (uint64_t)v;
}

/* A time in s; 0 when out of range. */
static inline int64_t col_seconds(struct db_stmt *s, int i)
{
	int64_t v = db_col_int(s, i);
	return v < SECONDS_MIN || v > SECONDS_MAX ? 0 : v;
}

/* A log timestamp in ms; TS_NONE for NULL or out of range. */
static inline int64_t col_ts(struct db_stmt *s, int i)
{
	if (db_col_type(s, i) == DB_NULL)
		return TS_NONE;
	int64_t v = db_col_int(s, i);
	return v < SECONDS_MIN * 1000 || v > SECONDS_MAX * 1000 ? TS_NONE : v;
}

static inline void bind_ts(struct db_stmt *s, int i, int64_t ts)
{
	if (ts == TS_NONE)
		db_bind_null(s, i);
	else
		db_bind_int(s, i, ts);
}

#endif
