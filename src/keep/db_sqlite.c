/* db_sqlite.c — db.h on an SQLite file.
 *
 * A store file may come from anywhere (--store FILE, import), so every
 * statement on it is bounded: SQLite's virtual machine may run at most
 * OPS_BASE + OPS_PER_BYTE * (the file's bytes) operations in one
 * statement, which ddx's own queries, linear in the store, never reach;
 * and no string or blob may exceed the value_max given to open. */
#include "db.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "util.h"

#define OPS_BASE 200000000ull
#define OPS_PER_BYTE 64ull
#define OPS_TICK 1000            /* operations between two progress calls */

struct lite {
	struct db base;
	sqlite3 *db;
	uint64_t budget;   /* operations a statement may run, in OPS_TICKs */
	uint64_t left;     /* of the budget, for the statement running */
};

struct lite_stmt {
	struct db_stmt base;
	sqlite3_stmt *s;
};

static struct lite *lite(struct db *db)
{
	return (struct lite *)db;
}

static sqlite3_stmt *stmt(struct db_stmt *s)
{
	return ((struct lite_stmt *)s)->s;
}

/* Record SQLite's last error on db. */
static int lite_fail(struct lite *l)
{
	int code = sqlite3_errcode(l->db) & 0xff;
	enum db_err e = code == SQLITE_INTERRUPT ? DB_EWORK :
			code == SQLITE_TOOBIG ? DB_ETOOBIG :
			code == SQLITE_BUSY || code == SQLITE_LOCKED ? DB_EBUSY :
			code == SQLITE_CORRUPT || code == SQLITE_NOTADB ? DB_ECORRUPT : DB_EOTHER;
	return db_fail(&l->base, e, sqlite3_errmsg(l->db));
}

/* SQLite's progress handler: interrupts a statement past its budget. */
static int over_budget(void *ctx)
{
	struct lite *l = ctx;
	if (l->left == 0)
		return 1;
	l->left--;
	return 0;
}

static int lite_exec(struct db *db, const char *sql)
{
	struct lite *l = lite(db);
	l->left = l->budget;
	return sqlite3_exec(l->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : lite_fail(l);
}

static int lite_begin_write(struct db *db)
{
	return lite_exec(db, "BEGIN IMMEDIATE");
}

static int lite_commit(struct db *db)
{
	return lite_exec(db, "COMMIT");
}

static void lite_rollback(struct db *db)
{
	lite_exec(db, "ROLLBACK");
}

static struct db_stmt *lite_prepare(struct db *db, const char *sql)
{
	struct lite *l = lite(db);
	sqlite3_stmt *s = NULL;
	l->left = l->budget;
	if (sqlite3_prepare_v2(l->db, sql, -1, &s, NULL) != SQLITE_OK) {
		lite_fail(l);
		return NULL;
	}
	struct lite_stmt *ls = xcalloc(1, sizeof(*ls));
	ls->base.db = db;
	ls->s = s;
	return &ls->base;
}

/* Parameters are named $1, $2, ...: bound by name, so that one may be
 * used twice and the SQL reads as PostgreSQL's. */
static void lite_bind(struct db_stmt *s, int i, int type, int64_t v, const void *p, size_t n)
{
	char name[16];
	snprintf(name, sizeof(name), "$%d", i);
	int k = sqlite3_bind_parameter_index(stmt(s), name);
	if (k == 0)
		BUG("binding a parameter the statement lacks");
	if (type == DB_INT)
		sqlite3_bind_int64(stmt(s), k, v);
	else if (type == DB_TEXT)
		sqlite3_bind_text64(stmt(s), k, p, n, SQLITE_STATIC, SQLITE_UTF8);
	else if (type == DB_BLOB)
		sqlite3_bind_blob64(stmt(s), k, p, n, SQLITE_STATIC);
	else
		sqlite3_bind_null(stmt(s), k);
}

static int lite_step(struct db_stmt *s)
{
	int rc = sqlite3_step(stmt(s));
	if (rc == SQLITE_ROW)
		return DB_ROW;
	if (rc == SQLITE_DONE)
		return DB_DONE;
	return lite_fail(lite(s->db));
}

static void lite_reset(struct db_stmt *s)
{
	sqlite3_reset(stmt(s));
}

static void lite_finalize(struct db_stmt *s)
{
	sqlite3_finalize(stmt(s));
	free(s);
}

static int lite_col_type(struct db_stmt *s, int i)
{
	switch (sqlite3_column_type(stmt(s), i)) {
	case SQLITE_INTEGER: return DB_INT;
	case SQLITE_FLOAT: return DB_FLOAT;
	case SQLITE_TEXT: return DB_TEXT;
	case SQLITE_BLOB: return DB_BLOB;
	default: return DB_NULL;
	}
}

static int64_t lite_col_int(struct db_stmt *s, int i)
{
	return sqlite3_column_int64(stmt(s), i);
}

static double lite_col_double(struct db_stmt *s, int i)
{
	return sqlite3_column_double(stmt(s), i);
}

/* A blob as it is; anything else as text, NUL-terminated. */
static const void *lite_col_blob(struct db_stmt *s, int i)
{
	if (sqlite3_column_type(stmt(s), i) == SQLITE_BLOB)
		return sqlite3_column_blob(stmt(s), i);
	return sqlite3_column_text(stmt(s), i);
}

static size_t lite_col_bytes(struct db_stmt *s, int i)
{
	return (size_t)sqlite3_column_bytes(stmt(s), i);
}

static void lite_close(struct db *db)
{
	sqlite3_close(lite(db)->db);
	free(db);
}

static const struct db_ops lite_ops = {
	.close = lite_close,
	.exec = lite_exec,
	.begin_write = lite_begin_write,
	.commit = lite_commit,
	.rollback = lite_rollback,
	.prepare = lite_prepare,
	.bind = lite_bind,
	.step = lite_step,
	.reset = lite_reset,
	.finalize = lite_finalize,
	.col_type = lite_col_type,
	.col_int = lite_col_int,
	.col_double = lite_col_double,
	.col_blob = lite_col_blob,
	.col_bytes = lite_col_bytes,
};

struct db *db_sqlite_open(const char *path, int flags, int wait_ms, int value_max)
{
	struct lite *l = xcalloc(1, sizeof(*l));
	l->base.ops = &lite_ops;
	int f = (flags & DB_READONLY ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) |
		(flags & DB_CREATE ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX;
	if (sqlite3_open_v2(path, &l->db, f, NULL) != SQLITE_OK) {
		if (l->db)
			lite_fail(l);
		else
			db_fail(&l->base, DB_EOTHER, "out of memory");
		return &l->base;
	}
	sqlite3_busy_timeout(l->db, wait_ms);
	/* Constraints hold as declared, as in any other engine; and a
	 * committed write survives a power cut too, not only a kill. */
	sqlite3_exec(l->db, "PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL", NULL, NULL, NULL);
	sqlite3_extended_result_codes(l->db, 0);
	/* Keep the WAL and its index after the last connection closes, so
	 * that a reader finds them and need write nothing: on a full disk,
	 * creating the index fails, and `ddx baselines` would say "disk I/O
	 * error".  Emptied, though, once copied back: a learn of a large log
	 * would otherwise leave a WAL its size behind. */
	int on = 1;
	sqlite3_file_control(l->db, "main", SQLITE_FCNTL_PERSIST_WAL, &on);
	sqlite3_exec(l->db, "PRAGMA journal_size_limit = 0", NULL, NULL, NULL);
	struct stat sb;
	uint64_t bytes = stat(path, &sb) == 0 && sb.st_size > 0 ? (uint64_t)sb.st_size : 0;
	l->budget = OPS_BASE / OPS_TICK + bytes * OPS_PER_BYTE / OPS_TICK;
	sqlite3_progress_handler(l->db, OPS_TICK, over_budget, l);
	sqlite3_limit(l->db, SQLITE_LIMIT_LENGTH, value_max);
	l->left = l->budget;
	return &l->base;
}
