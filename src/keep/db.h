/* db.h — the SQL the store speaks, to either of its database engines.
 *
 * The store (store*.c) keeps its logic in SQL that both engines run the
 * same: parameters are written $1, $2, ... (SQLite takes them as named
 * parameters, bound here by name), ids come back through RETURNING, and
 * conflicts are ON CONFLICT clauses.  What differs lies below this
 * interface: db_sqlite.c opens a file through SQLite, db_pg.c a
 * PostgreSQL server through libpq.  Nothing here knows ddx's tables; the
 * schema each engine creates is the store's (store.c).
 *
 * Strings are bytes: logs need not be UTF-8, so a back-end stores text
 * however keeps every byte and orders it bytewise (SQLite: TEXT with its
 * BINARY collation; PostgreSQL: bytea).
 *
 * A connection that fails keeps the failure: db_err says what kind,
 * db_errmsg the engine's words (one line).  Functions here print nothing:
 * the store names itself in its messages. */
#ifndef DDX_DB_H
#define DDX_DB_H

#include <stddef.h>
#include <stdint.h>

struct db;
struct db_stmt;

/* What went wrong, as far as the store cares. */
enum db_err {
	DB_OK = 0,
	DB_EBUSY,      /* another writer held the lock past the wait allowed */
	DB_EWORK,      /* a query ran past the work allowed (a crafted file) */
	DB_ETOOBIG,    /* a value larger than allowed (a crafted file) */
	DB_ECORRUPT,   /* the file is damaged, or no database */
	DB_EDOWN,      /* the server cannot be reached, or went away */
	DB_EOTHER,
};

/* The type of a column's value in the current row. */
enum { DB_NULL, DB_INT, DB_FLOAT, DB_TEXT, DB_BLOB };

/* db_step's answers besides -1 (an error). */
enum { DB_DONE = 0, DB_ROW = 1 };

/* How db_sqlite_open opens a file. */
enum {
	DB_READONLY = 1,   /* else read-write */
	DB_CREATE = 2,     /* create the file when missing */
};

/* Open the SQLite file at path.  Every statement's work is bounded by the
 * file's size (see db_sqlite.c), and values by value_max bytes; a writer
 * waits up to wait_ms for another.  Never NULL: check db_err. */
struct db *db_sqlite_open(const char *path, int flags, int wait_ms, int value_max);
/* Connect to the PostgreSQL server a libpq URL names, with tables looked
 * for in schema (created by the caller).  A writer waits up to wait_ms
 * for another; a value of over value_max bytes is an error.  Never NULL:
 * check db_err. */
struct db *db_pg_open(const char *url, const char *schema, int wait_ms, int value_max);
/* Close db; NULL is fine. */
void db_close(struct db *db);

enum db_err db_err(const struct db *db);
const char *db_errmsg(const struct db *db);
/* Whether db is a PostgreSQL connection: for the per-engine schema. */
int db_is_pg(const struct db *db);

/* Run sql, one or more statements without parameters or rows wanted. */
int db_exec(struct db *db, const char *sql);
/* Begin a write transaction, holding the store's one write lock until
 * db_commit or db_rollback: writers queue (up to the wait given to open)
 * rather than interleave, so a read-then-write inside sees no other
 * writer's work appear. */
int db_begin_write(struct db *db);
int db_commit(struct db *db);
/* Undo the transaction in progress, if any; keeps the error that led
 * here. */
void db_rollback(struct db *db);

/* A statement; NULL after an error. */
struct db_stmt *db_prepare(struct db *db, const char *sql);
/* Parameter $i (from 1).  Text and blobs are not copied: they must stay
 * as they are until the statement is stepped. */
void db_bind_int(struct db_stmt *s, int i, int64_t v);
void db_bind_text(struct db_stmt *s, int i, const char *p, size_t n);
void db_bind_blob(struct db_stmt *s, int i, const void *p, size_t n);
void db_bind_null(struct db_stmt *s, int i);
/* The next row: DB_ROW, DB_DONE, or -1 after an error. */
int db_step(struct db_stmt *s);
/* Make s ready to run again with new parameters. */
void db_reset(struct db_stmt *s);
void db_finalize(struct db_stmt *s);

/* Column i (from 0) of the current row.  Text and blobs stay valid until
 * the next step, reset or finalize; text is NUL-terminated. */
int db_col_type(struct db_stmt *s, int i);
int64_t db_col_int(struct db_stmt *s, int i);
double db_col_double(struct db_stmt *s, int i);
const char *db_col_text(struct db_stmt *s, int i);   /* NULL for a NULL */
const void *db_col_blob(struct db_stmt *s, int i);
size_t db_col_bytes(struct db_stmt *s, int i);

/* ---- for the back-ends (db_sqlite.c, db_pg.c) ---- */

/* A back-end: db.c checks and dispatches, and keeps the error. */
struct db_ops {
	void (*close)(struct db *db);
	int (*exec)(struct db *db, const char *sql);
	int (*begin_write)(struct db *db);
	int (*commit)(struct db *db);
	void (*rollback)(struct db *db);
	struct db_stmt *(*prepare)(struct db *db, const char *sql);
	/* type DB_INT: v; DB_TEXT, DB_BLOB: p and n; DB_NULL: nothing. */
	void (*bind)(struct db_stmt *s, int i, int type, int64_t v, const void *p, size_t n);
	int (*step)(struct db_stmt *s);
	void (*reset)(struct db_stmt *s);
	void (*finalize)(struct db_stmt *s);
	int (*col_type)(struct db_stmt *s, int i);
	int64_t (*col_int)(struct db_stmt *s, int i);
	double (*col_double)(struct db_stmt *s, int i);
	const void *(*col_blob)(struct db_stmt *s, int i);   /* NUL-terminated */
	size_t (*col_bytes)(struct db_stmt *s, int i);
};

struct db {
	const struct db_ops *ops;
	enum db_err err;
	char msg[512];
};

struct db_stmt {
	struct db *db;
};

/* Record a failure of db: its kind, and the first line of msg. */
int db_fail(struct db *db, enum db_err err, const char *msg);

#endif
