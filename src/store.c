/* store.c — the baseline store in SQLite.  See store.h.
 *
 * Layout (version 3):
 *   baseline(id, name, created, updated)
 *   run(id, baseline, name, hash, size, lines, first_ts, last_ts, format,
 *       mtime, added, pipeline, engine)
 *   chunk(run, seq, raw_size, data)       one zstd frame per CHUNK_RAW bytes
 *   template(run, level, text, count, first_line)
 *   config(run, key, value)               (version 2)
 *   failure(id, signature, summary, verdict, name, host, seen, baseline)
 *                                         (version 3)
 * Runs, chunks, templates and config go with their baseline (ON DELETE
 * CASCADE). */
#include "store.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

#include "logmeta.h"
#include "prefix.h"

/* "ddx1", written in the file header (PRAGMA application_id) so that a
 * ddx store is recognised without trusting its table names. */
#define APP_ID 0x64647831
/* Content is compressed in independent frames of this many bytes, so that
 * no row is near SQLite's 1 GB limit and a run is written and read back
 * a piece at a time. */
#define CHUNK_RAW ((size_t)8 << 20)
#define ZSTD_LEVEL 6
/* How long a writer waits for another one before giving up, in ms. */
#define BUSY_MS 60000

/* A store file may come from anywhere (--store FILE, import), so every
 * query on it is bounded: SQLite's virtual machine may run at most
 * OPS_BASE + OPS_PER_BYTE * (bytes of the files open) operations in one
 * statement, which ddx's own queries, linear in the store, never reach.
 * No string or blob may exceed what ddx writes (a chunk, or a template
 * of at most INPUT_LINE_MAX bytes). */
#define OPS_BASE 200000000ull
#define OPS_PER_BYTE 64ull
#define OPS_TICK 1000            /* operations between two progress calls */
#define VALUE_MAX ((int)(2 * CHUNK_RAW))

struct store {
	sqlite3 *db;
	char *path;
	int quiet;   /* errors are not reported: a cache being written */
	const char *importing;   /* the file being imported, to blame */
	uint64_t budget;   /* operations a statement may run, in OPS_TICKs */
	uint64_t left;     /* of the budget, for the statement running */
	int no_memory;     /* a version-2 store read as it is: no failure table */
};

/* The schema, one script per version; applying scripts[v] moves a store
 * from version v to v + 1.  '@' stands for the schema ("" or "exp."), so
 * that export can create the same tables in an attached file. */
static const char *const scripts[STORE_VERSION] = {
	"CREATE TABLE @baseline ("
	"  id INTEGER PRIMARY KEY,"
	"  name TEXT NOT NULL UNIQUE,"
	"  created INTEGER NOT NULL,"
	"  updated INTEGER NOT NULL);"
	"CREATE TABLE @run ("
	"  id INTEGER PRIMARY KEY,"
	"  baseline INTEGER NOT NULL REFERENCES baseline(id) ON DELETE CASCADE,"
	"  name TEXT NOT NULL,"
	"  hash TEXT NOT NULL,"
	"  size INTEGER NOT NULL,"
	"  lines INTEGER NOT NULL,"
	"  first_ts INTEGER,"
	"  last_ts INTEGER,"
	"  format TEXT NOT NULL,"
	"  mtime INTEGER NOT NULL,"
	"  added INTEGER NOT NULL,"
	"  pipeline TEXT NOT NULL);"
	"CREATE INDEX @run_hash ON run(baseline, hash);"
	"CREATE TABLE @chunk ("
	"  run INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,"
	"  seq INTEGER NOT NULL,"
	"  raw_size INTEGER NOT NULL,"
	"  data BLOB NOT NULL,"
	"  UNIQUE (run, seq));"
	"CREATE TABLE @template ("
	"  run INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,"
	"  level INTEGER NOT NULL,"
	"  text TEXT NOT NULL,"
	"  count INTEGER NOT NULL,"
	"  first_line INTEGER NOT NULL,"
	"  PRIMARY KEY (run, level, text)) WITHOUT ROWID;",
	/* 2: what check needs to pick a baseline beyond template overlap.
	 * engine is NULL for runs stored before; fill_v2 computes it. */
	"ALTER TABLE @run ADD COLUMN engine TEXT;"
	"CREATE TABLE @config ("
	"  run INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,"
	"  key TEXT NOT NULL,"
	"  value TEXT NOT NULL,"
	"  PRIMARY KEY (run, key)) WITHOUT ROWID;",
	/* 3: the failure memory.  baseline is a name, not a reference: the
	 * memory of a failure outlives the baseline it was checked with. */
	"CREATE TABLE @failure ("
	"  id INTEGER PRIMARY KEY,"
	"  signature TEXT NOT NULL,"
	"  summary TEXT NOT NULL,"
	"  verdict TEXT NOT NULL,"
	"  name TEXT NOT NULL,"
	"  host TEXT NOT NULL,"
	"  seen INTEGER NOT NULL,"
	"  baseline TEXT NOT NULL);",
};

/* The columns of run copied by export and import, by version. */
#define RUN_COLS_V1 "name, hash, size, lines, first_ts, last_ts, format, mtime, added, pipeline"

/* The tables of each version and their columns, as scripts[] makes them:
 * a store's schema must be exactly this before anything else is asked of
 * it.  A view or trigger in a crafted store would run a query of its
 * author's (a recursive one spins forever) where ddx reads a table. */
static const struct {
	const char *name;
	int since, until;        /* versions that have it */
	const char *columns;     /* in order, space-separated */
} tables[] = {
	{ "baseline", 1, STORE_VERSION, "id name created updated" },
	{ "run", 1, 1, "id baseline " RUN_COLS_V1 },
	{ "run", 2, STORE_VERSION, "id baseline " RUN_COLS_V1 " engine" },
	{ "chunk", 1, STORE_VERSION, "run seq raw_size data" },
	{ "template", 1, STORE_VERSION, "run level text count first_line" },
	{ "config", 2, STORE_VERSION, "run key value" },
	{ "failure", 3, STORE_VERSION, "id signature summary verdict name host seen baseline" },
};
/* The one index ddx names itself; SQLite names the others
 * sqlite_autoindex_TABLE_N. */
#define RUN_HASH_INDEX "CREATE INDEX run_hash ON run(baseline, hash)"

/* "Now" in seconds; SOURCE_DATE_EPOCH when set, for reproducible output. */
static int64_t now_s(void)
{
	const char *s = getenv("SOURCE_DATE_EPOCH");
	if (s && *s) {
		char *end;
		long long v = strtoll(s, &end, 10);
		if (!*end)
			return v;
	}
	return (int64_t)time(NULL);
}

static int db_error(struct store *st, const char *what)
{
	if (st->quiet)
		return -1;
	int code = sqlite3_errcode(st->db);
	const char *file = st->importing ? st->importing : st->path;
	if (code == SQLITE_INTERRUPT)
		return error("'%s': not a ddx store this ddx can read (a query on it ran past "
			     "the work its size allows)", file);
	if (code == SQLITE_TOOBIG)
		return error("'%s': not a ddx store this ddx can read (a value of over %d bytes)",
			     file, VALUE_MAX);
	if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
		return error("'%s': %s: the store is locked by another process", st->path, what);
	if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB)
		return error("'%s': not a ddx store (corrupt: %s)", st->path, sqlite3_errmsg(st->db));
	return error("'%s': %s: %s", st->path, what, sqlite3_errmsg(st->db));
}

/* SQLite's progress handler: interrupts a statement past its budget. */
static int over_budget(void *ctx)
{
	struct store *st = ctx;
	if (st->left == 0)
		return 1;
	st->left--;
	return 0;
}

/* Give the statement about to run the whole budget. */
static void fresh_budget(struct store *st)
{
	st->left = st->budget;
}

/* Bound every statement on st by the size of the file at path, added to
 * what the files open already allow. */
static void add_budget(struct store *st, const char *path)
{
	struct stat sb;
	uint64_t bytes = stat(path, &sb) == 0 && sb.st_size > 0 ? (uint64_t)sb.st_size : 0;
	if (!st->budget)
		st->budget = OPS_BASE / OPS_TICK;
	st->budget += bytes * OPS_PER_BYTE / OPS_TICK;
	sqlite3_progress_handler(st->db, OPS_TICK, over_budget, st);
	sqlite3_limit(st->db, SQLITE_LIMIT_LENGTH, VALUE_MAX);
	fresh_budget(st);
}

static int exec(struct store *st, const char *sql)
{
	fresh_budget(st);
	if (sqlite3_exec(st->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return db_error(st, "store error");
	return 0;
}

/* Run script with '@' replaced by prefix. */
static int exec_script(struct store *st, const char *script, const char *prefix)
{
	struct buf b = { 0 };
	for (const char *p = script; *p; p++)
		if (*p == '@')
			buf_append(&b, prefix, strlen(prefix));
		else
			buf_putc(&b, *p);
	int r = exec(st, b.p);
	buf_free(&b);
	return r;
}

static sqlite3_stmt *prepare(struct store *st, const char *sql)
{
	sqlite3_stmt *s = NULL;
	fresh_budget(st);
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK) {
		db_error(st, "store error");
		return NULL;
	}
	return s;
}

/* Step a statement that returns no rows, and finalize it. */
static int step_done(struct store *st, sqlite3_stmt *s)
{
	int rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return db_error(st, "store error");
	return 0;
}

/* One integer from a query without parameters; -1 on error. */
static int64_t query_int(struct store *st, const char *sql)
{
	sqlite3_stmt *s = prepare(st, sql);
	if (!s)
		return -1;
	int64_t v = -1;
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int64(s, 0);
	else
		db_error(st, "store error");
	sqlite3_finalize(s);
	return v;
}

/* Run sql with one integer parameter bound to every '?'. */
static int exec_id(struct store *st, const char *sql, int64_t id)
{
	sqlite3_stmt *s = prepare(st, sql);
	if (!s)
		return -1;
	for (int i = 1; i <= sqlite3_bind_parameter_count(s); i++)
		sqlite3_bind_int64(s, i, id);
	return step_done(st, s);
}

static void bind_text(sqlite3_stmt *s, int i, const char *p, size_t n)
{
	sqlite3_bind_text64(s, i, p, n, SQLITE_TRANSIENT, SQLITE_UTF8);
}

static void bind_str(sqlite3_stmt *s, int i, const char *p)
{
	if (p)
		bind_text(s, i, p, strlen(p));
	else
		sqlite3_bind_null(s, i);
}

/* A text column; "" for a NULL, which a store file made by anything but
 * ddx may hold where ddx's schema says NOT NULL. */
static const char *col_str(sqlite3_stmt *s, int i, struct arena *a)
{
	const char *p = (const char *)sqlite3_column_text(s, i);
	if (!p)
		return "";
	return arena_strndup(a, p, (size_t)sqlite3_column_bytes(s, i));
}

/* A content hash, stored as hex text; 0 for a NULL. */
static uint64_t col_hash(sqlite3_stmt *s, int i)
{
	const char *p = (const char *)sqlite3_column_text(s, i);
	return p ? strtoull(p, NULL, 16) : 0;
}

/* A store file may hold any value where ddx wrote a count or a time: each
 * is read within the range ddx can have written, so that no sum or
 * difference of them overflows and no date fails to format.  Counts and
 * sizes: 0 to 2^53 (sums too, which SQLite's total() makes without
 * overflowing).  Times: the years 0 to 9999. */
#define COUNT_MAX ((uint64_t)1 << 53)
#define SECONDS_MAX 253402300799ll    /* 9999-12-31 23:59:59 UTC */
#define SECONDS_MIN -62167219200ll    /* 0000-01-01 00:00:00 UTC */

static uint64_t col_count(sqlite3_stmt *s, int i)
{
	if (sqlite3_column_type(s, i) == SQLITE_INTEGER) {
		int64_t v = sqlite3_column_int64(s, i);
		return v < 0 ? 0 : (uint64_t)v > COUNT_MAX ? COUNT_MAX : (uint64_t)v;
	}
	double v = sqlite3_column_double(s, i);
	return !(v > 0) ? 0 : v >= (double)COUNT_MAX ? COUNT_MAX : (uint64_t)v;
}

/* A time in s; 0 when out of range. */
static int64_t col_seconds(sqlite3_stmt *s, int i)
{
	int64_t v = sqlite3_column_int64(s, i);
	return v < SECONDS_MIN || v > SECONDS_MAX ? 0 : v;
}

/* A log timestamp in ms; TS_NONE for NULL or out of range. */
static int64_t col_ts(sqlite3_stmt *s, int i)
{
	if (sqlite3_column_type(s, i) == SQLITE_NULL)
		return TS_NONE;
	int64_t v = sqlite3_column_int64(s, i);
	return v < SECONDS_MIN * 1000 || v > SECONDS_MAX * 1000 ? TS_NONE : v;
}

static void bind_ts(sqlite3_stmt *s, int i, int64_t ts)
{
	if (ts == TS_NONE)
		sqlite3_bind_null(s, i);
	else
		sqlite3_bind_int64(s, i, ts);
}

char *store_path(const char *opt)
{
	if (opt)
		return xstrdup(opt);
	const char *env = getenv("DDX_STORE");
	if (env && *env)
		return xstrdup(env);
	struct buf b = { 0 };
	const char *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");
	/* The XDG spec says a relative XDG_DATA_HOME is invalid: ignore it. */
	if (xdg && xdg[0] == '/')
		buf_printf(&b, "%s/ddx/baselines.db", xdg);
	else
		buf_printf(&b, "%s/.local/share/ddx/baselines.db", home && *home ? home : ".");
	return b.p;
}

/* Create the directories leading to path, like mkdir -p. */
static int make_parents(const char *path)
{
	char *d = xstrdup(path);
	for (char *p = d + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(d, 0777) < 0 && errno != EEXIST) {
			int e = errno;
			error("cannot create directory '%s': %s", d, strerror(e));
			free(d);
			return -1;
		}
		*p = '/';
	}
	free(d);
	return 0;
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Whether path has a write-ahead log with something in it. */
static int has_wal(const char *path)
{
	struct buf wal = { 0 };
	buf_printf(&wal, "%s-wal", path);
	struct stat ws;
	int r = stat(wal.p, &ws) == 0 && ws.st_size > 0;
	buf_free(&wal);
	return r;
}

/* Decide from the file's first 100 bytes (the SQLite header) whether path
 * may be opened as a store, before SQLite touches it: a foreign file must
 * not gain a journal or WAL, or be "recovered".  Returns 1 for a ddx
 * store, its schema version in *version, 0 for an empty file or a blank
 * SQLite database (no table ever created, no version set: both become a
 * store), -1 after an error. */
static int check_header(const char *path, uint32_t *version)
{
	/* Non-blocking: opening a FIFO or a device must not wait for a
	 * writer or a carrier before its type is known. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return error("cannot open '%s': %s", path, strerror(errno));
	struct stat sb = { 0 };
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		return error("'%s': not a ddx store (%s, not a regular file)", path,
			     file_type(sb.st_mode));
	}
	unsigned char h[100];
	ssize_t n = read(fd, h, sizeof(h));
	int e = errno;
	close(fd);
	if (n < 0)
		return error("cannot read '%s': %s", path, strerror(e));
	if (n == 0)
		return 0;
	if (n < (ssize_t)sizeof(h) || memcmp(h, "SQLite format 3", 16) != 0)
		return error("'%s': not a ddx store (not an SQLite database)", path);
	uint32_t app = be32(h + 68), cookie = be32(h + 40);
	*version = be32(h + 60);
	if (app == APP_ID) {
		/* The page count is valid when the header says so (SQLite
		 * 3.7.0+), and is what the file holds unless a WAL holds more. */
		uint64_t psize = (uint64_t)h[16] << 8 | h[17];
		uint64_t pages = be32(h + 92) == be32(h + 24) ? be32(h + 28) : 0;
		if (psize == 1)
			psize = 65536;
		if ((uint64_t)sb.st_size < pages * psize && !has_wal(path))
			return error("'%s': not a ddx store (truncated: %llu of %llu bytes)", path,
				     (unsigned long long)sb.st_size, (unsigned long long)(pages * psize));
		if (*version > STORE_VERSION)
			return error("'%s': not a ddx store this ddx can read (schema version %u; "
				     "this ddx knows up to %d: upgrade ddx)", path, *version, STORE_VERSION);
		return 1;
	}
	if (app != 0)
		return error("'%s': not a ddx store (an SQLite database of another application, "
			     "application id 0x%08x)", path, app);
	/* A WAL-mode store killed before its first checkpoint may still show
	 * an empty header: its schema is in the WAL, and open re-checks.  A
	 * user version with no application id is another program's mark. */
	if (cookie != 0 || *version != 0)
		return error("'%s': not a ddx store (an SQLite database of another application)", path);
	return 0;
}

/* Fill the version-2 data of runs stored without it (a migrated version-1
 * store, or a version-1 import): the engine from the templates, the
 * configuration from the content. */
static int fill_v2(struct store *st);

/* The schema version of the open file, 0 for a blank database that is
 * to become a store; -1 after saying why it is no store this ddx can
 * use.  Asked of SQLite, where the header may be stale (a WAL holds the
 * newer one). */
static int64_t store_version(struct store *st)
{
	int64_t app = query_int(st, "PRAGMA application_id");
	int64_t ver = query_int(st, "PRAGMA user_version");
	int64_t ntables = query_int(st, "SELECT count(*) FROM sqlite_master");
	if (app < 0 || ver < 0 || ntables < 0)
		return -1;
	if (app != APP_ID && (app != 0 || ver != 0 || ntables > 0))
		return error("'%s': not a ddx store (an SQLite database of another application)", st->path);
	if (ver > STORE_VERSION)
		return error("'%s': not a ddx store this ddx can read (schema version %lld; "
			     "this ddx knows up to %d: upgrade ddx)", st->path, (long long)ver, STORE_VERSION);
	return app == APP_ID ? ver : 0;
}

/* Bring the store to STORE_VERSION inside one write transaction; a second
 * process doing the same waits for the first and then finds nothing to
 * do. */
static int migrate(struct store *st)
{
	if (exec(st, "BEGIN IMMEDIATE") < 0)
		return -1;
	int64_t ver = store_version(st);
	if (ver < 0)
		goto fail;
	for (int64_t v = ver; v < STORE_VERSION; v++)
		if (exec_script(st, scripts[v], "") < 0)
			goto fail;
	if (ver < 2 && ver > 0 && fill_v2(st) < 0)
		goto fail;
	char sql[96];
	snprintf(sql, sizeof(sql), "PRAGMA application_id = %d; PRAGMA user_version = %d",
		 APP_ID, STORE_VERSION);
	if (exec(st, sql) < 0 || exec(st, "COMMIT") < 0)
		goto fail;
	return 0;
fail:
	sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

/* Whether table in schema ("main", "imp") has exactly the columns cols
 * (space- and comma-separated, in order), none of them hidden or
 * generated: 1 yes, 0 no, -1 after an error. */
static int same_columns(struct store *st, const char *schema, const char *table, const char *cols)
{
	sqlite3_stmt *s = prepare(st, "SELECT name, hidden FROM pragma_table_xinfo(?, ?) ORDER BY cid");
	if (!s)
		return -1;
	bind_str(s, 1, table);
	bind_str(s, 2, schema);
	int rc, same = 1;
	const char *p = cols;
	while (same && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(s, 0);
		p += strspn(p, " ,");
		size_t n = strcspn(p, " ,");
		same = name && sqlite3_column_int(s, 1) == 0 && n == strlen(name) && strncmp(p, name, n) == 0;
		p += n;
	}
	if (same && rc != SQLITE_DONE)
		same = db_error(st, "cannot read the schema");
	sqlite3_finalize(s);
	return same == 1 && p[strspn(p, " ,")] != '\0' ? 0 : same;
}

/* Whether the schema ("main" or "imp") of a store of version ver is
 * exactly ddx's: its tables with their columns, their indexes, and
 * nothing else (no view, no trigger, no virtual table).  shown names the
 * file in errors, which quote nothing of the file's.  Returns -1 after
 * saying what is wrong. */
static int check_tables(struct store *st, const char *schema, int64_t ver, const char *shown)
{
	char sql[96];
	snprintf(sql, sizeof(sql), "SELECT type, name, tbl_name, sql FROM %s.sqlite_master", schema);
	sqlite3_stmt *s = prepare(st, sql);
	if (!s)
		return -1;
	size_t ntables = sizeof(tables) / sizeof(tables[0]), found = 0, expected = 0;
	for (size_t i = 0; i < ntables; i++)
		expected += tables[i].since <= ver && ver <= tables[i].until;
	const char *bad = NULL, *table = "";
	int rc;
	while (!bad && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *type = (const char *)sqlite3_column_text(s, 0);
		const char *name = (const char *)sqlite3_column_text(s, 1);
		const char *tbl = (const char *)sqlite3_column_text(s, 2);
		const char *def = (const char *)sqlite3_column_text(s, 3);
		size_t k = 0;
		while (tbl && k < ntables && !(strcmp(tables[k].name, tbl) == 0 &&
					       tables[k].since <= ver && ver <= tables[k].until))
			k++;
		if (!type || !name || !tbl) {
			bad = "an entry without a name";
		} else if (strcmp(type, "view") == 0 || strcmp(type, "trigger") == 0) {
			bad = strcmp(type, "view") == 0 ? "a view" : "a trigger";
		} else if (k == ntables) {
			bad = "a table ddx does not make";
		} else if (strcmp(type, "table") == 0) {
			int same = strcmp(name, tbl) == 0 && def && strncmp(def, "CREATE TABLE", 12) == 0 ?
				   same_columns(st, schema, name, tables[k].columns) : 0;
			if (same < 0) {
				sqlite3_finalize(s);
				return -1;
			}
			if (!same) {
				bad = "other columns in table ";
				table = tables[k].name;
			}
			found++;
		} else if (strcmp(type, "index") == 0) {
			/* SQLite's own indexes have no SQL. */
			int ok = def ? strcmp(name, "run_hash") == 0 && strcmp(def, RUN_HASH_INDEX) == 0 :
				       strncmp(name, "sqlite_autoindex_", 17) == 0;
			if (!ok)
				bad = "an index ddx does not make";
		} else {
			bad = "an entry of unknown type";
		}
	}
	sqlite3_finalize(s);
	if (bad)
		return error("'%s': not a ddx store this ddx can read (its schema has %s%s)", shown, bad,
			     table);
	if (rc != SQLITE_DONE)
		return db_error(st, "cannot read the schema");
	if (found != expected)
		return error("'%s': not a ddx store this ddx can read (tables are missing)", shown);
	return 0;
}

/* Read the schema, the first thing SQLite needs from the file: damage
 * there makes the file unusable as a store, and is said so.  Damage
 * further in shows up in the query that meets it. */
static int check_schema(struct store *st)
{
	sqlite3_stmt *s = NULL;
	int rc = sqlite3_prepare_v2(st->db, "SELECT count(*) FROM sqlite_master", -1, &s, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(s);
	sqlite3_finalize(s);
	return rc == SQLITE_ROW ? 0 : db_error(st, "cannot open the store");
}

/* Put the store in WAL mode.  SQLite answers BUSY at once, without its
 * busy handler, when another process is changing the mode of the same new
 * file at that moment (two `ddx learn`s creating a store): wait and try
 * again, up to the busy timeout. */
static int wal(struct store *st)
{
	for (int waited = 0;; waited += 20) {
		int rc = sqlite3_exec(st->db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL);
		if (rc != SQLITE_BUSY || waited >= BUSY_MS)
			return rc == SQLITE_OK ? 0 : exec(st, "PRAGMA journal_mode = WAL");
		nanosleep(&(struct timespec){ 0, 20 * 1000000L }, NULL);
	}
}

/* The length of the URL scheme path starts with ("postgresql" in
 * "postgresql://host/db"), 0 when it is no URL. */
static size_t url_scheme(const char *path)
{
	const unsigned char *p = (const unsigned char *)path;
	size_t n = 0;
	if (!isalpha(p[0]))
		return 0;
	while (isalnum(p[n]) || (p[n] && strchr("+-.", p[n])))
		n++;
	return strncmp(path + n, "://", 3) == 0 ? n : 0;
}

/* Keep the WAL and its index after the last connection closes, so that a
 * reader finds them and need write nothing: on a full disk, creating the
 * index fails, and `ddx baselines` would say "disk I/O error". */
static void persist_wal(sqlite3 *db)
{
	int on = 1;
	sqlite3_file_control(db, "main", SQLITE_FCNTL_PERSIST_WAL, &on);
	/* Emptied, though, once copied back: a learn of a large log would
	 * otherwise leave a WAL its size behind. */
	sqlite3_exec(db, "PRAGMA journal_size_limit = 0", NULL, NULL, NULL);
}

struct store *store_open(const char *path, int mode, int *missing)
{
	struct stat sb;
	*missing = 0;
	/* A URL names a database server ddx cannot talk to: taken as a
	 * path, it would become a folder "postgresql:" here. */
	size_t scheme = url_scheme(path);
	if (scheme) {
		error("'%s': no such store: ddx keeps baselines in an SQLite file, and has no "
		      "'%.*s' back-end (give a file's path)", path, (int)scheme, path);
		return NULL;
	}
	/* A reader opens the file read-only, unless it must be changed to
	 * be read: migrated, or recovered from a WAL. */
	int readonly = 0;
	if (stat(path, &sb) < 0) {
		if (errno != ENOENT) {
			error("cannot open '%s': %s", path, strerror(errno));
			return NULL;
		}
		if (mode != STORE_WRITE) {
			*missing = 1;
			return NULL;
		}
		if (make_parents(path) < 0)
			return NULL;
	} else {
		uint32_t version = 0;
		int r = check_header(path, &version);
		if (r < 0)
			return NULL;
		/* An empty header with a WAL: a store whose first learn was
		 * killed before SQLite copied the WAL back; opening recovers it. */
		if (r == 0 && mode != STORE_WRITE && !has_wal(path)) {
			*missing = 1;
			return NULL;
		}
		readonly = mode == STORE_READ && r == 1 && version == STORE_VERSION;
		/* A version-2 store that cannot be written (shipped read-only
		 * beside a deployment) is read as it is: it lacks only the
		 * failure memory (version 3), which the reader then goes
		 * without. */
		if (mode == STORE_READ && r == 1 && version == 2 && access(path, W_OK) < 0)
			readonly = 2;
	}
	struct store *st = xcalloc(1, sizeof(*st));
	st->path = xstrdup(path);
	/* CREATE for an exporter, whose file exists by now: export attaches
	 * a new file, which takes the main connection's flags. */
	int flags = (readonly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) |
		    SQLITE_OPEN_NOMUTEX;
	if (sqlite3_open_v2(path, &st->db, flags, NULL) != SQLITE_OK) {
		error("cannot open '%s': %s", path, st->db ? sqlite3_errmsg(st->db) : "out of memory");
		store_close(st);
		return NULL;
	}
	sqlite3_busy_timeout(st->db, BUSY_MS);
	sqlite3_extended_result_codes(st->db, 0);
	persist_wal(st->db);
	/* The file is checked before anything is written to it.  WAL:
	 * readers never block the writer (a reader leaves the journal mode
	 * alone: an exported store stays one file).  synchronous=FULL: a
	 * committed learn survives a power cut too, not only a kill. */
	add_budget(st, path);
	int64_t ver = -1;
	if (exec(st, "PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON") < 0 ||
	    check_schema(st) < 0 || (ver = store_version(st)) < 0 ||
	    (ver > 0 && check_tables(st, "main", ver, path) < 0) ||
	    (mode == STORE_WRITE && wal(st) < 0) ||
	    (ver != STORE_VERSION && !(readonly == 2 && ver == 2) && migrate(st) < 0)) {
		store_close(st);
		return NULL;
	}
	st->no_memory = readonly == 2 && ver == 2;
	return st;
}

void store_close(struct store *st)
{
	if (!st)
		return;
	sqlite3_close(st->db);
	free(st->path);
	free(st);
}

int store_list(struct store *st, struct baseline **out, size_t *n, struct arena *a)
{
	sqlite3_stmt *s = prepare(st,
		"SELECT b.id, b.name, b.created, b.updated,"
		" (SELECT count(*) FROM run WHERE baseline = b.id),"
		" (SELECT total(size) FROM run WHERE baseline = b.id),"
		" (SELECT total(length(c.data)) FROM chunk c JOIN run r ON c.run = r.id"
		"   WHERE r.baseline = b.id),"
		" (SELECT total(lines) FROM run WHERE baseline = b.id),"
		" (SELECT engine FROM run WHERE baseline = b.id GROUP BY engine"
		"   ORDER BY count(*) DESC, engine LIMIT 1)"
		" FROM baseline b ORDER BY b.name");
	if (!s)
		return -1;
	struct baseline *v = NULL;
	size_t cap = 0, k = 0;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		GROW(v, cap, k + 1);
		struct baseline *b = &v[k++];
		b->id = sqlite3_column_int64(s, 0);
		b->name = col_str(s, 1, a);
		b->created = col_seconds(s, 2);
		b->updated = col_seconds(s, 3);
		b->nruns = (size_t)col_count(s, 4);
		b->size = col_count(s, 5);
		b->stored = col_count(s, 6);
		b->lines = col_count(s, 7);
		b->engine = sqlite3_column_type(s, 8) == SQLITE_NULL ? "other" : col_str(s, 8, a);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		free(v);
		return db_error(st, "cannot list baselines");
	}
	*out = v;
	*n = k;
	return 0;
}

int store_find(struct store *st, const char *name, struct baseline *b, struct arena *a)
{
	struct baseline *v;
	size_t n;
	if (store_list(st, &v, &n, a) < 0)
		return -1;
	int found = 0;
	for (size_t i = 0; i < n && !found; i++)
		if (strcmp(v[i].name, name) == 0) {
			*b = v[i];
			found = 1;
		}
	free(v);
	return found;
}

static int load_detail(struct store *st, struct run *r, struct arena *a)
{
	sqlite3_stmt *s = prepare(st, "SELECT level, text, count, first_line FROM template"
				      " WHERE run = ? ORDER BY first_line, level, text");
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, r->id);
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		GROW(r->tmpl, cap, r->ntmpl + 1);
		struct run_tmpl *t = &r->tmpl[r->ntmpl++];
		t->level = sqlite3_column_int(s, 0);
		if (t->level < LV_NONE || t->level > LV_FATAL)
			t->level = LV_NONE;
		t->text = col_str(s, 1, a);
		t->len = (size_t)sqlite3_column_bytes(s, 1);
		t->count = col_count(s, 2);
		t->first_line = col_count(s, 3);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return db_error(st, "cannot read templates");
	s = prepare(st, "SELECT key, value FROM config WHERE run = ? ORDER BY key");
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, r->id);
	cap = 0;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		GROW(r->cfg, cap, r->ncfg + 1);
		r->cfg[r->ncfg].key = col_str(s, 0, a);
		r->cfg[r->ncfg++].value = col_str(s, 1, a);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return db_error(st, "cannot read configuration");
	return 0;
}

int store_runs(struct store *st, int64_t baseline, int want_detail,
	       struct run **out, size_t *n, struct arena *a)
{
	sqlite3_stmt *s = prepare(st,
		"SELECT id, name, hash, size, lines, first_ts, last_ts, mtime, added, format,"
		" engine, pipeline, (SELECT total(length(data)) FROM chunk WHERE run = run.id)"
		" FROM run WHERE baseline = ? ORDER BY id");
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, baseline);
	struct run *v = NULL;
	size_t cap = 0, k = 0;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		GROW(v, cap, k + 1);
		struct run *r = &v[k++];
		memset(r, 0, sizeof(*r));
		r->id = sqlite3_column_int64(s, 0);
		r->name = col_str(s, 1, a);
		r->hash = col_hash(s, 2);
		r->size = col_count(s, 3);
		r->lines = col_count(s, 4);
		r->first_ts = col_ts(s, 5);
		r->last_ts = col_ts(s, 6);
		r->mtime = col_seconds(s, 7);
		r->added = col_seconds(s, 8);
		r->format = col_str(s, 9, a);
		r->engine = col_str(s, 10, a);
		r->pipeline = col_str(s, 11, a);
		r->stored = col_count(s, 12);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		free(v);
		return db_error(st, "cannot read runs");
	}
	for (size_t i = 0; want_detail && i < k; i++)
		if (load_detail(st, &v[i], a) < 0) {
			store_runs_free(v, k);
			return -1;
		}
	*out = v;
	*n = k;
	return 0;
}

void store_runs_free(struct run *runs, size_t n)
{
	for (size_t i = 0; runs && i < n; i++) {
		free(runs[i].tmpl);
		free(runs[i].cfg);
		store_run_release(&runs[i]);
	}
	free(runs);
}

void store_compress(struct run *r, const char *data, size_t size)
{
	r->size = size;
	r->hash = hash_bytes(data, size);
	r->stored = 0;
	size_t n = size ? (size + CHUNK_RAW - 1) / CHUNK_RAW : 0;
	r->chunks = xcalloc(n ? n : 1, sizeof(*r->chunks));
	r->nchunks = n;
	for (size_t i = 0; i < n; i++) {
		struct chunk *c = &r->chunks[i];
		c->raw_size = i + 1 < n ? CHUNK_RAW : size - i * CHUNK_RAW;
		size_t cap = ZSTD_compressBound(c->raw_size);
		c->data = xmalloc(cap);
		c->size = ZSTD_compress(c->data, cap, data + i * CHUNK_RAW, c->raw_size, ZSTD_LEVEL);
		if (ZSTD_isError(c->size))
			die("cannot compress: %s", ZSTD_getErrorName(c->size));
		r->stored += c->size;
	}
}

void store_run_release(struct run *r)
{
	for (size_t i = 0; i < r->nchunks; i++)
		free(r->chunks[i].data);
	free(r->chunks);
	r->chunks = NULL;
	r->nchunks = 0;
}

/* The chunks of run id in schema ("main" or "imp"), compressed. */
static int load_chunks(struct store *st, const char *schema, int64_t id,
		       struct chunk **out, size_t *n)
{
	char sql[128];
	snprintf(sql, sizeof(sql), "SELECT raw_size, data FROM %s.chunk WHERE run = ? ORDER BY seq", schema);
	sqlite3_stmt *s = prepare(st, sql);
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, id);
	struct chunk *v = NULL;
	size_t cap = 0, k = 0;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		GROW(v, cap, k + 1);
		v[k].raw_size = (size_t)col_count(s, 0);
		v[k].size = (size_t)sqlite3_column_bytes(s, 1);
		v[k].data = xmalloc(v[k].size ? v[k].size : 1);
		if (v[k].size)
			memcpy(v[k].data, sqlite3_column_blob(s, 1), v[k].size);
		k++;
	}
	sqlite3_finalize(s);
	struct run tmp = { .chunks = v, .nchunks = k };
	if (rc != SQLITE_DONE) {
		store_run_release(&tmp);
		return db_error(st, "cannot read a stored run");
	}
	*out = v;
	*n = k;
	return 0;
}

/* Decompress one chunk into out (raw_size bytes, malloc'd). */
static int unchunk(const char *path, const struct chunk *c, char **out)
{
	/* No chunk of ddx's is larger: a store from elsewhere must not make
	 * it allocate whatever raw_size says. */
	if (c->raw_size > CHUNK_RAW) {
		*out = NULL;
		return error("'%s': a stored run is corrupt (a chunk of %zu bytes)", path,
			     c->raw_size);
	}
	*out = xmalloc(c->raw_size ? c->raw_size : 1);
	size_t r = ZSTD_decompress(*out, c->raw_size, c->data, c->size);
	if (ZSTD_isError(r) || r != c->raw_size) {
		free(*out);
		*out = NULL;
		return error("'%s': a stored run is corrupt (%s)", path,
			     ZSTD_isError(r) ? ZSTD_getErrorName(r) : "wrong size");
	}
	return 0;
}

/* Whether two runs' chunks hold the same bytes: 1 yes, 0 no, -1 error.
 * Equal compressed frames prove it at once; frames made by another zstd
 * version differ and are compared decompressed.  A hash match alone never
 * counts: logs are untrusted, and a collision must not drop a run. */
static int same_content(struct store *st, const struct chunk *a, size_t na,
			const struct chunk *b, size_t nb)
{
	if (na != nb)
		return 0;
	for (size_t i = 0; i < na; i++) {
		if (a[i].raw_size != b[i].raw_size)
			return 0;
		if (a[i].size == b[i].size && memcmp(a[i].data, b[i].data, a[i].size) == 0)
			continue;
		char *x, *y = NULL;
		if (unchunk(st->path, &a[i], &x) < 0 || unchunk(st->path, &b[i], &y) < 0) {
			free(x);
			return -1;
		}
		int eq = memcmp(x, y, a[i].raw_size) == 0;
		free(x);
		free(y);
		if (!eq)
			return 0;
	}
	return 1;
}

/* Whether baseline holds a run with the same content as chunks: 1 yes,
 * 0 no, -1 error. */
static int has_content(struct store *st, int64_t baseline, uint64_t hash, uint64_t size,
		       const struct chunk *chunks, size_t nchunks)
{
	char hex[17];
	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)hash);
	sqlite3_stmt *s = prepare(st, "SELECT id FROM run WHERE baseline = ? AND hash = ? AND size = ?");
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, baseline);
	bind_str(s, 2, hex);
	sqlite3_bind_int64(s, 3, (sqlite3_int64)size);
	int rc, found = 0;
	while (!found && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct run other = { 0 };
		if (load_chunks(st, "main", sqlite3_column_int64(s, 0), &other.chunks, &other.nchunks) < 0) {
			found = -1;
			break;
		}
		found = same_content(st, chunks, nchunks, other.chunks, other.nchunks);
		store_run_release(&other);
	}
	if (!found && rc != SQLITE_DONE)
		found = db_error(st, "cannot read runs");
	sqlite3_finalize(s);
	return found;
}

/* The id of baseline name, created if missing; -1 on error. */
static int64_t baseline_id(struct store *st, const char *name, int64_t now)
{
	sqlite3_stmt *s = prepare(st, "INSERT INTO baseline (name, created, updated) VALUES (?, ?, ?)"
				      " ON CONFLICT (name) DO NOTHING");
	if (!s)
		return -1;
	bind_str(s, 1, name);
	sqlite3_bind_int64(s, 2, now);
	sqlite3_bind_int64(s, 3, now);
	if (step_done(st, s) < 0 || !(s = prepare(st, "SELECT id FROM baseline WHERE name = ?")))
		return -1;
	bind_str(s, 1, name);
	int64_t id = -1;
	if (sqlite3_step(s) == SQLITE_ROW)
		id = sqlite3_column_int64(s, 0);
	else
		db_error(st, "cannot create the baseline");
	sqlite3_finalize(s);
	return id;
}

/* Record that baseline id changed now. */
static int touch(struct store *st, int64_t id, int64_t now)
{
	sqlite3_stmt *s = prepare(st, "UPDATE baseline SET updated = ? WHERE id = ?");
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, now);
	sqlite3_bind_int64(s, 2, id);
	return step_done(st, s);
}

static int insert_chunks(struct store *st, int64_t run, const struct chunk *c, size_t n)
{
	sqlite3_stmt *s = prepare(st, "INSERT INTO chunk (run, seq, raw_size, data) VALUES (?, ?, ?, ?)");
	if (!s)
		return -1;
	for (size_t i = 0; i < n; i++) {
		sqlite3_bind_int64(s, 1, run);
		sqlite3_bind_int64(s, 2, (sqlite3_int64)i);
		sqlite3_bind_int64(s, 3, (sqlite3_int64)c[i].raw_size);
		sqlite3_bind_blob64(s, 4, c[i].data, c[i].size, SQLITE_STATIC);
		if (sqlite3_step(s) != SQLITE_DONE) {
			sqlite3_finalize(s);
			return db_error(st, "cannot store a run");
		}
		sqlite3_reset(s);
	}
	sqlite3_finalize(s);
	return 0;
}

static int insert_config(struct store *st, int64_t run, const struct kv *cfg, size_t n)
{
	sqlite3_stmt *s = prepare(st, "INSERT OR IGNORE INTO config (run, key, value) VALUES (?, ?, ?)");
	if (!s)
		return -1;
	for (size_t i = 0; i < n; i++) {
		sqlite3_bind_int64(s, 1, run);
		bind_str(s, 2, cfg[i].key);
		bind_str(s, 3, cfg[i].value);
		if (sqlite3_step(s) != SQLITE_DONE) {
			sqlite3_finalize(s);
			return db_error(st, "cannot store the configuration");
		}
		sqlite3_reset(s);
	}
	sqlite3_finalize(s);
	return 0;
}

static int insert_templates(struct store *st, const struct run *r)
{
	sqlite3_stmt *s = prepare(st, "INSERT INTO template (run, level, text, count, first_line)"
				      " VALUES (?, ?, ?, ?, ?)");
	if (!s)
		return -1;
	for (size_t i = 0; i < r->ntmpl; i++) {
		const struct run_tmpl *t = &r->tmpl[i];
		sqlite3_bind_int64(s, 1, r->id);
		sqlite3_bind_int(s, 2, t->level);
		bind_text(s, 3, t->text, t->len);
		sqlite3_bind_int64(s, 4, (sqlite3_int64)t->count);
		sqlite3_bind_int64(s, 5, (sqlite3_int64)t->first_line);
		if (sqlite3_step(s) != SQLITE_DONE) {
			sqlite3_finalize(s);
			return db_error(st, "cannot store the templates");
		}
		sqlite3_reset(s);
	}
	sqlite3_finalize(s);
	return 0;
}

static int insert_run(struct store *st, int64_t baseline, struct run *r)
{
	char hex[17];
	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)r->hash);
	sqlite3_stmt *s = prepare(st,
		"INSERT INTO run (baseline, " RUN_COLS_V1 ", engine)"
		" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, baseline);
	bind_str(s, 2, r->name);
	bind_str(s, 3, hex);
	sqlite3_bind_int64(s, 4, (sqlite3_int64)r->size);
	sqlite3_bind_int64(s, 5, (sqlite3_int64)r->lines);
	bind_ts(s, 6, r->first_ts);
	bind_ts(s, 7, r->last_ts);
	bind_str(s, 8, r->format);
	sqlite3_bind_int64(s, 9, r->mtime);
	sqlite3_bind_int64(s, 10, r->added);
	bind_str(s, 11, r->pipeline);
	bind_str(s, 12, r->engine);
	if (step_done(st, s) < 0)
		return -1;
	r->id = sqlite3_last_insert_rowid(st->db);
	if (insert_chunks(st, r->id, r->chunks, r->nchunks) < 0 || insert_templates(st, r) < 0)
		return -1;
	return insert_config(st, r->id, r->cfg, r->ncfg);
}

/* Whether two runs may hold the same content: equal hash and size. */
static int alike(const struct run *a, const struct run *b)
{
	return a->hash == b->hash && a->size == b->size;
}

/* Order runs by content hash and size, so that alike runs sit side by
 * side, and alike ones in argument order (their addresses). */
static int by_content(const void *x, const void *y)
{
	const struct run *a = *(const struct run *const *)x, *b = *(const struct run *const *)y;
	if (a->hash != b->hash)
		return a->hash < b->hash ? -1 : 1;
	if (a->size != b->size)
		return a->size < b->size ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* Set dup[i] for each of runs whose content an earlier one has: two GOOD
 * arguments naming the same content count once.  Only alike runs are
 * compared, so n distinct runs cost n log n however close their sizes.
 * Returns -1 after an error. */
static int mark_repeats(struct store *st, const struct run *runs, size_t n, char *dup)
{
	const struct run **v = xmalloc((n ? n : 1) * sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[i] = &runs[i];
	qsort(v, n, sizeof(*v), by_content);
	int r = 0;
	for (size_t i = 1; i < n && r >= 0; i++)
		for (size_t k = i; k-- > 0 && alike(v[k], v[i]) && !dup[v[i] - runs];) {
			if (dup[v[k] - runs])
				continue;
			r = same_content(st, v[i]->chunks, v[i]->nchunks, v[k]->chunks, v[k]->nchunks);
			if (r < 0)
				break;
			dup[v[i] - runs] = (char)r;
		}
	free(v);
	return r < 0 ? -1 : 0;
}

int store_learn(struct store *st, const char *name, struct run *runs, size_t n, size_t *added)
{
	*added = 0;
	for (size_t i = 0; i < n; i++)
		runs[i].id = 0;
	/* Everything that needs no store is done before the write lock is
	 * taken: other learns wait on it. */
	char *dup = xcalloc(n ? n : 1, 1);
	if (mark_repeats(st, runs, n, dup) < 0 || exec(st, "BEGIN IMMEDIATE") < 0) {
		free(dup);
		return -1;
	}
	int64_t now = now_s(), b = baseline_id(st, name, now);
	if (b < 0)
		goto fail;
	for (size_t i = 0; i < n; i++) {
		if (dup[i])
			continue;
		int stored = has_content(st, b, runs[i].hash, runs[i].size, runs[i].chunks, runs[i].nchunks);
		if (stored < 0)
			goto fail;
		if (stored)
			continue;
		runs[i].added = now;
		if (insert_run(st, b, &runs[i]) < 0)
			goto fail;
		++*added;
	}
	if ((*added && touch(st, b, now) < 0) || exec(st, "COMMIT") < 0)
		goto fail;
	free(dup);
	return 0;
fail:
	sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	for (size_t i = 0; i < n; i++)
		runs[i].id = 0;
	*added = 0;
	free(dup);
	return -1;
}

int store_refresh(struct store *st, const struct run *r)
{
	/* A reader's connection is read-only: the templates are written
	 * through one of their own, if the file can be written at all (a
	 * store shipped read-only beside a deployment keeps its templates,
	 * and check remakes them each time).  Quietly: what fails here only
	 * costs the next check some time. */
	if (access(st->path, W_OK) < 0)
		return -1;
	struct store w = { .path = st->path, .quiet = 1 };
	if (sqlite3_open_v2(st->path, &w.db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) !=
	    SQLITE_OK) {
		sqlite3_close(w.db);
		return -1;
	}
	persist_wal(w.db);
	add_budget(&w, w.path);
	/* Nor does a check wait long behind a learn for it. */
	sqlite3_busy_timeout(w.db, 1000);
	sqlite3_stmt *s;
	int rc = -1;
	if (exec(&w, "PRAGMA foreign_keys = ON; BEGIN IMMEDIATE") < 0)
		goto out;
	if (!(s = prepare(&w, "UPDATE run SET pipeline = ? WHERE id = ?")))
		goto rollback;
	bind_str(s, 1, r->pipeline);
	sqlite3_bind_int64(s, 2, r->id);
	if (step_done(&w, s) == 0 && exec_id(&w, "DELETE FROM template WHERE run = ?", r->id) == 0 &&
	    insert_templates(&w, r) == 0 && exec(&w, "COMMIT") == 0) {
		rc = 0;
		goto out;
	}
rollback:
	sqlite3_exec(w.db, "ROLLBACK", NULL, NULL, NULL);
out:
	sqlite3_close(w.db);
	return rc;
}

/* Hand each decompressed chunk of run id, in order, to put; stops at the
 * first failure, which put reports. */
static int each_chunk(struct store *st, int64_t id, int (*put)(void *ctx, const char *p, size_t n),
		      void *ctx)
{
	sqlite3_stmt *s = prepare(st, "SELECT raw_size, data FROM chunk WHERE run = ? ORDER BY seq");
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, id);
	int rc, r = 0;
	while (r == 0 && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct chunk c = {
			.raw_size = (size_t)col_count(s, 0),
			.data = (void *)sqlite3_column_blob(s, 1),
			.size = (size_t)sqlite3_column_bytes(s, 1),
		};
		char *raw;
		r = unchunk(st->path, &c, &raw);
		if (r == 0)
			r = put(ctx, raw, c.raw_size);
		free(raw);
	}
	if (r == 0 && rc != SQLITE_DONE)
		r = db_error(st, "cannot read a stored run");
	sqlite3_finalize(s);
	return r;
}

static int put_fd(void *ctx, const char *p, size_t n)
{
	int fd = *(int *)ctx;
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return error("cannot write a stored run: %s", strerror(errno));
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int store_run_write(struct store *st, int64_t id, int fd)
{
	return each_chunk(st, id, put_fd, &fd);
}

static int put_buf(void *ctx, const char *p, size_t n)
{
	return buf_append(ctx, p, n);
}

int store_run_read(struct store *st, int64_t id, char **data, size_t *size)
{
	struct buf b = { 0 };
	if (each_chunk(st, id, put_buf, &b) < 0) {
		buf_free(&b);
		return -1;
	}
	*data = b.p ? b.p : xstrdup("");
	*size = b.len;
	return 0;
}

int store_remove(struct store *st, const char *name)
{
	if (exec(st, "BEGIN IMMEDIATE") < 0)
		return -1;
	sqlite3_stmt *s = prepare(st, "DELETE FROM baseline WHERE name = ?");
	if (!s)
		goto fail;
	bind_str(s, 1, name);
	if (step_done(st, s) < 0)
		goto fail;
	int removed = sqlite3_changes(st->db) > 0;
	if (exec(st, "COMMIT") < 0)
		goto fail;
	return removed;
fail:
	sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}


/* Attach file as schema `as`; errors name shown, the file the user
 * named. */
static int attach(struct store *st, const char *file, const char *as, const char *shown)
{
	char sql[64];
	snprintf(sql, sizeof(sql), "ATTACH DATABASE ? AS %s", as);
	sqlite3_stmt *s = prepare(st, sql);
	if (!s)
		return -1;
	bind_str(s, 1, file);
	int rc = sqlite3_step(s);
	sqlite3_finalize(s);
	/* errstr, not errmsg: the message names the file we chose. */
	if (rc != SQLITE_DONE)
		return error("cannot open '%s': %s", shown, sqlite3_errstr(sqlite3_errcode(st->db)));
	return 0;
}

int store_export(struct store *st, const char *name, const char *file, const char *into)
{
	struct arena a = { 0 };
	struct baseline b;
	int found = store_find(st, name, &b, &a);
	arena_free(&a);
	if (found <= 0)
		return found;
	if (attach(st, into, "exp", file) < 0)
		return -1;
	int r = -1;
	char sql[96];
	/* A plain rollback-journal file: one file to hand over, no -wal. */
	if (exec(st, "PRAGMA exp.journal_mode = DELETE") < 0 || exec(st, "BEGIN IMMEDIATE") < 0)
		goto out;
	for (int v = 0; v < STORE_VERSION; v++)
		if (exec_script(st, scripts[v], "exp.") < 0)
			goto rollback;
	snprintf(sql, sizeof(sql), "PRAGMA exp.application_id = %d; PRAGMA exp.user_version = %d",
		 APP_ID, STORE_VERSION);
	if (exec(st, sql) < 0 ||
	    exec_id(st, "INSERT INTO exp.baseline SELECT id, name, created, updated"
			" FROM main.baseline WHERE id = ?", b.id) < 0 ||
	    exec_id(st, "INSERT INTO exp.run (id, baseline, " RUN_COLS_V1 ", engine)"
			" SELECT id, baseline, " RUN_COLS_V1 ", engine FROM main.run WHERE baseline = ?",
		    b.id) < 0 ||
	    exec_id(st, "INSERT INTO exp.chunk SELECT run, seq, raw_size, data FROM main.chunk"
			" WHERE run IN (SELECT id FROM main.run WHERE baseline = ?)", b.id) < 0 ||
	    exec_id(st, "INSERT INTO exp.template SELECT run, level, text, count, first_line"
			" FROM main.template WHERE run IN (SELECT id FROM main.run WHERE baseline = ?)",
		    b.id) < 0 ||
	    exec_id(st, "INSERT INTO exp.config SELECT run, key, value FROM main.config"
			" WHERE run IN (SELECT id FROM main.run WHERE baseline = ?)", b.id) < 0 ||
	    exec(st, "COMMIT") < 0)
		goto rollback;
	r = 1;
	goto out;
rollback:
	sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
out:
	sqlite3_exec(st->db, "DETACH DATABASE exp", NULL, NULL, NULL);
	return r;
}

/* Whether the attached import is a ddx store this ddx reads, undamaged;
 * sets *version to its schema version. */
static int import_check(struct store *st, const char *file, int64_t *version)
{
	int64_t app = query_int(st, "PRAGMA imp.application_id");
	*version = query_int(st, "PRAGMA imp.user_version");
	if (app < 0 || *version < 0)
		return -1;
	if (app != APP_ID || *version < 1)
		return error("'%s': not a ddx store (no ddx baseline in it)", file);
	if (*version > STORE_VERSION)
		return error("'%s': not a ddx store this ddx can read (schema version %lld; "
			     "this ddx knows up to %d: upgrade ddx)", file, (long long)*version, STORE_VERSION);
	if (check_tables(st, "imp", *version, file) < 0)
		return -1;
	sqlite3_stmt *s = prepare(st, "PRAGMA imp.quick_check");
	if (!s)
		return -1;
	const char *verdict = sqlite3_step(s) == SQLITE_ROW ?
			      (const char *)sqlite3_column_text(s, 0) : NULL;
	int ok = verdict && strcmp(verdict, "ok") == 0;
	sqlite3_finalize(s);
	if (!ok)
		return error("'%s': not a ddx store (corrupt: it fails SQLite's integrity check)", file);
	return 0;
}

/* Copy run id of the import into baseline, unless its content is there. */
static int import_run(struct store *st, const char *file, int64_t id, int64_t baseline,
		      int64_t version, size_t *nr)
{
	sqlite3_stmt *s = prepare(st, "SELECT hash, size FROM imp.run WHERE id = ?");
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, id);
	if (sqlite3_step(s) != SQLITE_ROW) {
		sqlite3_finalize(s);
		return db_error(st, "cannot read the import");
	}
	uint64_t hash = col_hash(s, 0);
	uint64_t size = col_count(s, 1);
	sqlite3_finalize(s);
	struct run r = { 0 };
	if (load_chunks(st, "imp", id, &r.chunks, &r.nchunks) < 0)
		return -1;
	/* Damage surfaces now rather than when the baseline is used. */
	uint64_t total = 0;
	for (size_t i = 0; i < r.nchunks; i++) {
		char *raw;
		if (unchunk(file, &r.chunks[i], &raw) < 0) {
			store_run_release(&r);
			return -1;
		}
		free(raw);
		total += r.chunks[i].raw_size;
	}
	if (total != size) {
		store_run_release(&r);
		return error("'%s': a stored run is corrupt (%llu bytes, %llu expected)", file,
			     (unsigned long long)total, (unsigned long long)size);
	}
	int dup = has_content(st, baseline, hash, size, r.chunks, r.nchunks);
	store_run_release(&r);
	if (dup)
		return dup < 0 ? -1 : 0;
	s = prepare(st, version >= 2 ?
		"INSERT INTO run (baseline, " RUN_COLS_V1 ", engine)"
		" SELECT ?, " RUN_COLS_V1 ", engine FROM imp.run WHERE id = ?" :
		"INSERT INTO run (baseline, " RUN_COLS_V1 ")"
		" SELECT ?, " RUN_COLS_V1 " FROM imp.run WHERE id = ?");
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, baseline);
	sqlite3_bind_int64(s, 2, id);
	if (step_done(st, s) < 0)
		return -1;
	int64_t nid = sqlite3_last_insert_rowid(st->db);
	const char *copies[] = {
		"INSERT INTO chunk SELECT ?, seq, raw_size, data FROM imp.chunk WHERE run = ?",
		"INSERT INTO template SELECT ?, level, text, count, first_line FROM imp.template WHERE run = ?",
		"INSERT INTO config SELECT ?, key, value FROM imp.config WHERE run = ?",
	};
	for (size_t i = 0; i < (version >= 2 ? 3u : 2u); i++) {
		s = prepare(st, copies[i]);
		if (!s)
			return -1;
		sqlite3_bind_int64(s, 1, nid);
		sqlite3_bind_int64(s, 2, id);
		if (step_done(st, s) < 0)
			return -1;
	}
	++*nr;
	return 0;
}

int store_import(struct store *st, const char *file, size_t *nb, size_t *nr)
{
	*nb = *nr = 0;
	uint32_t header_version;
	int h = check_header(file, &header_version);
	if (h <= 0)
		return h < 0 ? -1 : error("'%s': not a ddx store (empty)", file);
	if (attach(st, file, "imp", file) < 0)
		return -1;
	add_budget(st, file);
	st->importing = file;
	int64_t version;
	int r = -1;
	if (import_check(st, file, &version) < 0 || exec(st, "BEGIN IMMEDIATE") < 0)
		goto out;
	sqlite3_stmt *s = prepare(st, "SELECT b.id, b.name, r.id FROM imp.baseline b"
				      " LEFT JOIN imp.run r ON r.baseline = b.id ORDER BY b.name, r.id");
	if (!s)
		goto rollback;
	int64_t last = -1, into = -1, now = now_s();
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (sqlite3_column_int64(s, 0) != last) {
			last = sqlite3_column_int64(s, 0);
			const char *text = (const char *)sqlite3_column_text(s, 1);
			if (!text) {
				error("'%s': not a ddx store (a baseline without a name)", file);
				break;
			}
			char *name = xstrdup(text);
			into = baseline_id(st, name, now);
			free(name);
			if (into < 0)
				break;
			++*nb;
		}
		size_t before = *nr;
		if (sqlite3_column_type(s, 2) != SQLITE_NULL &&
		    import_run(st, file, sqlite3_column_int64(s, 2), into, version, nr) < 0)
			break;
		if (*nr > before && touch(st, into, now) < 0)
			break;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		if (rc != SQLITE_ROW)
			db_error(st, "cannot read the import");
		goto rollback;
	}
	if ((version < 2 && fill_v2(st) < 0) || exec(st, "COMMIT") < 0)
		goto rollback;
	r = 0;
	goto out;
rollback:
	sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	*nb = *nr = 0;
out:
	sqlite3_exec(st->db, "DETACH DATABASE imp", NULL, NULL, NULL);
	st->importing = NULL;
	return r;
}

static int fill_v2(struct store *st)
{
	sqlite3_stmt *s = prepare(st, "SELECT id, format FROM run WHERE engine IS NULL");
	if (!s)
		return -1;
	struct arena a = { 0 };
	struct run *v = NULL;
	size_t cap = 0, n = 0;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		GROW(v, cap, n + 1);
		memset(&v[n], 0, sizeof(v[n]));
		v[n].id = sqlite3_column_int64(s, 0);
		v[n++].format = col_str(s, 1, &a);
	}
	sqlite3_finalize(s);
	int r = rc == SQLITE_DONE ? 0 : db_error(st, "cannot migrate the store");
	for (size_t i = 0; i < n && r == 0; i++) {
		char *content = NULL;
		size_t size = 0;
		r = load_detail(st, &v[i], &a);
		if (r == 0)
			r = store_run_read(st, v[i].id, &content, &size);
		if (r == 0) {
			v[i].engine = logmeta_engine(v[i].tmpl, v[i].ntmpl, v[i].format);
			logmeta_config(content, size, &v[i].cfg, &v[i].ncfg, &a);
			r = insert_config(st, v[i].id, v[i].cfg, v[i].ncfg);
		}
		free(content);
		if (r == 0 && (s = prepare(st, "UPDATE run SET engine = ? WHERE id = ?")) != NULL) {
			bind_str(s, 1, v[i].engine);
			sqlite3_bind_int64(s, 2, v[i].id);
			r = step_done(st, s);
		} else if (r == 0) {
			r = -1;
		}
	}
	store_runs_free(v, n);
	arena_free(&a);
	return r;
}

/* The failure memory (version 3).  Plain SQL, parameters in order. */

int store_failure_seen(struct store *st, const char *key, struct failure_seen *out,
		       struct arena *a)
{
	out->count = 0;
	out->first = 0;
	out->nruns = 0;
	out->now = now_s();
	if (st->no_memory)
		return error("'%s': no failure memory: the store is of schema version 2 and read-only "
			     "(a learn into it upgrades it)", st->path);
	sqlite3_stmt *s = prepare(st, "SELECT count(*), min(seen) FROM failure WHERE signature = ?");
	if (!s)
		return -1;
	bind_str(s, 1, key);
	if (sqlite3_step(s) != SQLITE_ROW) {
		sqlite3_finalize(s);
		return db_error(st, "cannot read the failure memory");
	}
	out->count = col_count(s, 0);
	out->first = col_seconds(s, 1);
	sqlite3_finalize(s);
	s = prepare(st, "SELECT name, host, baseline, seen FROM failure WHERE signature = ?"
			" ORDER BY seen DESC, id DESC LIMIT ?");
	if (!s)
		return -1;
	/* A run checked again names no new run: the latest of each name
	 * and host, among a few more records than are shown. */
	bind_str(s, 1, key);
	sqlite3_bind_int(s, 2, SEEN_RUNS_MAX * 8);
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW && out->nruns < SEEN_RUNS_MAX) {
		struct failure_run *r = &out->runs[out->nruns];
		r->name = col_str(s, 0, a);
		r->host = col_str(s, 1, a);
		size_t k = 0;
		while (k < out->nruns && !(strcmp(out->runs[k].name, r->name) == 0 &&
					   strcmp(out->runs[k].host, r->host) == 0))
			k++;
		if (k < out->nruns)
			continue;
		r->baseline = col_str(s, 2, a);
		r->seen = col_seconds(s, 3);
		out->nruns++;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return db_error(st, "cannot read the failure memory");
	return 0;
}

int store_failure_record(struct store *st, const struct failure *f)
{
	/* A reader's connection is read-only: the record is written
	 * through one of its own, as store_refresh does, quietly: the one
	 * line said is the one below. */
	if (access(st->path, W_OK) < 0)
		return error("'%s': failure not recorded: %s", st->path, strerror(errno));
	struct store w = { .path = st->path, .quiet = 1 };
	sqlite3_stmt *s = NULL;
	int ok = sqlite3_open_v2(st->path, &w.db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX,
				 NULL) == SQLITE_OK;
	if (ok) {
		persist_wal(w.db);
		add_budget(&w, w.path);
		sqlite3_busy_timeout(w.db, BUSY_MS);
		ok = exec(&w, "BEGIN IMMEDIATE") == 0 &&
		     (s = prepare(&w, "INSERT INTO failure (signature, summary, verdict, name, host,"
				      " seen, baseline) VALUES (?, ?, ?, ?, ?, ?, ?)")) != NULL;
	}
	if (ok) {
		bind_str(s, 1, f->key);
		bind_str(s, 2, f->summary);
		bind_str(s, 3, f->verdict);
		bind_str(s, 4, f->name);
		bind_str(s, 5, f->host);
		sqlite3_bind_int64(s, 6, f->seen);
		bind_str(s, 7, f->baseline);
		ok = step_done(&w, s) == 0 && exec(&w, "COMMIT") == 0;
	}
	if (!ok) {
		error("'%s': failure not recorded: %s", st->path,
		      w.db ? sqlite3_errmsg(w.db) : "out of memory");
		sqlite3_exec(w.db, "ROLLBACK", NULL, NULL, NULL);
	}
	sqlite3_close(w.db);
	return ok ? 0 : -1;
}

/* Bind the conditions of store_failures' queries from index i on: the
 * time, then the baseline when there is one. */
static void bind_since(sqlite3_stmt *s, int i, int64_t since, const char *baseline)
{
	sqlite3_bind_int64(s, i, since);
	if (baseline)
		bind_str(s, i + 1, baseline);
}

int store_failures(struct store *st, const char *baseline, int64_t within,
		   struct failure_sig **out, size_t *n, struct arena *a)
{
	*out = NULL;
	*n = 0;
	int64_t since = within < 0 ? INT64_MIN : now_s() - within;
	if (st->no_memory)
		return 0;
	const char *cond = baseline ? "seen >= ? AND baseline = ?" : "seen >= ?";
	char sql[512];
	snprintf(sql, sizeof(sql), "SELECT signature, count(*), min(seen), max(seen) FROM failure"
		 " WHERE %s GROUP BY signature ORDER BY count(*) DESC, max(seen) DESC, signature",
		 cond);
	sqlite3_stmt *s = prepare(st, sql);
	if (!s)
		return -1;
	bind_since(s, 1, since, baseline);
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		GROW(*out, cap, *n + 1);
		struct failure_sig *f = &(*out)[(*n)++];
		memset(f, 0, sizeof(*f));
		f->key = col_str(s, 0, a);
		f->count = col_count(s, 1);
		f->first = col_seconds(s, 2);
		f->last = col_seconds(s, 3);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return db_error(st, "cannot read the failure memory");
	/* The latest record of each, and its baselines. */
	snprintf(sql, sizeof(sql), "SELECT summary, verdict, host, name FROM failure"
		 " WHERE signature = ? AND %s ORDER BY seen DESC, id DESC LIMIT 1", cond);
	char sql2[256];
	snprintf(sql2, sizeof(sql2), "SELECT DISTINCT baseline FROM failure"
		 " WHERE signature = ? AND %s ORDER BY baseline", cond);
	for (size_t i = 0; i < *n; i++) {
		struct failure_sig *f = &(*out)[i];
		if (!(s = prepare(st, sql)))
			return -1;
		bind_str(s, 1, f->key);
		bind_since(s, 2, since, baseline);
		if ((rc = sqlite3_step(s)) == SQLITE_ROW) {
			f->summary = col_str(s, 0, a);
			f->verdict = col_str(s, 1, a);
			f->last_host = col_str(s, 2, a);
			f->last_name = col_str(s, 3, a);
		}
		sqlite3_finalize(s);
		if (rc != SQLITE_ROW || !(s = prepare(st, sql2)))
			return rc != SQLITE_ROW ? db_error(st, "cannot read the failure memory") : -1;
		bind_str(s, 1, f->key);
		bind_since(s, 2, since, baseline);
		const char **names = NULL;
		size_t nn = 0, ncap = 0;
		while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
			GROW(names, ncap, nn + 1);
			names[nn++] = col_str(s, 0, a);
		}
		sqlite3_finalize(s);
		f->baselines = arena_alloc(a, (nn ? nn : 1) * sizeof(*names));
		if (nn)
			memcpy(f->baselines, names, nn * sizeof(*names));
		f->nbaselines = nn;
		free(names);
		if (rc != SQLITE_DONE)
			return db_error(st, "cannot read the failure memory");
	}
	return 0;
}
