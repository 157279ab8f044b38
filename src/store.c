/* store.c — the baseline store.  See store.h.
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
 * CASCADE).
 *
 * Everything here speaks db.h, in SQL both engines run; only the schema
 * scripts, the keeping of the schema's version and the vetting of a file
 * (which may come from anywhere) are an engine's own.  An SQLite store is
 * marked as ddx's (PRAGMA application_id) and keeps its version in PRAGMA
 * user_version; a PostgreSQL store lives in the schema "ddx" of its
 * database, its version in ddx.schema_version. */
#include "store.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

#include "db.h"
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
/* No string or blob may exceed what ddx writes (a chunk, or a template of
 * at most INPUT_LINE_MAX bytes). */
#define VALUE_MAX ((int)(2 * CHUNK_RAW))
/* The PostgreSQL schema a store's tables are in. */
#define PG_SCHEMA "ddx"

struct store {
	struct db *db;
	char *path;    /* a file's path or a URL, as given */
	char *shown;   /* path for messages: a URL without its password */
	int quiet;     /* errors are not reported: a cache being written */
	int64_t version;   /* of the schema; an import's may be older */
};

/* The schema, one script per version and engine; applying scripts[v]
 * moves a store from version v to v + 1.  SQLite's strings are TEXT
 * (which keeps any bytes, compared bytewise); PostgreSQL's are bytea,
 * since TEXT there refuses bytes that are not UTF-8 and sorts by locale.
 * PostgreSQL's B-trees cannot hold a long template, so its uniqueness is
 * kept on a digest; and it gains SQLite's total(), a sum that never
 * overflows, so that the queries read the same. */
static const char *const sqlite_scripts[STORE_VERSION] = {
	"CREATE TABLE baseline ("
	"  id INTEGER PRIMARY KEY,"
	"  name TEXT NOT NULL UNIQUE,"
	"  created INTEGER NOT NULL,"
	"  updated INTEGER NOT NULL);"
	"CREATE TABLE run ("
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
	"CREATE INDEX run_hash ON run(baseline, hash);"
	"CREATE TABLE chunk ("
	"  run INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,"
	"  seq INTEGER NOT NULL,"
	"  raw_size INTEGER NOT NULL,"
	"  data BLOB NOT NULL,"
	"  UNIQUE (run, seq));"
	"CREATE TABLE template ("
	"  run INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,"
	"  level INTEGER NOT NULL,"
	"  text TEXT NOT NULL,"
	"  count INTEGER NOT NULL,"
	"  first_line INTEGER NOT NULL,"
	"  PRIMARY KEY (run, level, text)) WITHOUT ROWID;",
	/* 2: what check needs to pick a baseline beyond template overlap.
	 * engine is NULL for runs stored before; fill_v2 computes it. */
	"ALTER TABLE run ADD COLUMN engine TEXT;"
	"CREATE TABLE config ("
	"  run INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,"
	"  key TEXT NOT NULL,"
	"  value TEXT NOT NULL,"
	"  PRIMARY KEY (run, key)) WITHOUT ROWID;",
	/* 3: the failure memory.  baseline is a name, not a reference: the
	 * memory of a failure outlives the baseline it was checked with. */
	"CREATE TABLE failure ("
	"  id INTEGER PRIMARY KEY,"
	"  signature TEXT NOT NULL,"
	"  summary TEXT NOT NULL,"
	"  verdict TEXT NOT NULL,"
	"  name TEXT NOT NULL,"
	"  host TEXT NOT NULL,"
	"  seen INTEGER NOT NULL,"
	"  baseline TEXT NOT NULL);",
};

static const char *const pg_scripts[STORE_VERSION] = {
	"CREATE SCHEMA IF NOT EXISTS " PG_SCHEMA ";"
	"CREATE TABLE schema_version (version BIGINT NOT NULL);"
	"CREATE FUNCTION total_step(float8, bigint) RETURNS float8"
	"  LANGUAGE sql IMMUTABLE STRICT AS 'SELECT $1 + $2';"
	"CREATE AGGREGATE total(bigint) (SFUNC = total_step, STYPE = float8, INITCOND = '0');"
	"CREATE TABLE baseline ("
	"  id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
	"  name BYTEA NOT NULL UNIQUE,"
	"  created BIGINT NOT NULL,"
	"  updated BIGINT NOT NULL);"
	"CREATE TABLE run ("
	"  id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
	"  baseline BIGINT NOT NULL REFERENCES baseline(id) ON DELETE CASCADE,"
	"  name BYTEA NOT NULL,"
	"  hash BYTEA NOT NULL,"
	"  size BIGINT NOT NULL,"
	"  lines BIGINT NOT NULL,"
	"  first_ts BIGINT,"
	"  last_ts BIGINT,"
	"  format BYTEA NOT NULL,"
	"  mtime BIGINT NOT NULL,"
	"  added BIGINT NOT NULL,"
	"  pipeline BYTEA NOT NULL);"
	"CREATE INDEX run_hash ON run(baseline, hash);"
	"CREATE TABLE chunk ("
	"  run BIGINT NOT NULL REFERENCES run(id) ON DELETE CASCADE,"
	"  seq BIGINT NOT NULL,"
	"  raw_size BIGINT NOT NULL,"
	"  data BYTEA NOT NULL,"
	"  UNIQUE (run, seq));"
	"CREATE TABLE template ("
	"  run BIGINT NOT NULL REFERENCES run(id) ON DELETE CASCADE,"
	"  level BIGINT NOT NULL,"
	"  text BYTEA NOT NULL,"
	"  count BIGINT NOT NULL,"
	"  first_line BIGINT NOT NULL);"
	"CREATE UNIQUE INDEX template_key ON template (run, level, sha256(text));",
	"ALTER TABLE run ADD COLUMN engine BYTEA;"
	"CREATE TABLE config ("
	"  run BIGINT NOT NULL REFERENCES run(id) ON DELETE CASCADE,"
	"  key BYTEA NOT NULL,"
	"  value BYTEA NOT NULL);"
	"CREATE UNIQUE INDEX config_key ON config (run, sha256(key));",
	"CREATE TABLE failure ("
	"  id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
	"  signature BYTEA NOT NULL,"
	"  summary BYTEA NOT NULL,"
	"  verdict BYTEA NOT NULL,"
	"  name BYTEA NOT NULL,"
	"  host BYTEA NOT NULL,"
	"  seen BIGINT NOT NULL,"
	"  baseline BYTEA NOT NULL);",
};

/* The columns of run, by version. */
#define RUN_COLS_V1 "name, hash, size, lines, first_ts, last_ts, format, mtime, added, pipeline"

/* The tables of each version of an SQLite store and their columns, as
 * sqlite_scripts[] makes them: a file's schema must be exactly this
 * before anything else is asked of it.  A view or trigger in a crafted
 * store would run a query of its author's (a recursive one spins
 * forever) where ddx reads a table. */
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
	const char *msg = db_errmsg(st->db);
	switch (db_err(st->db)) {
	case DB_EWORK:
		return error("'%s': not a ddx store this ddx can read (a query on it ran past "
			     "the work its size allows)", st->shown);
	case DB_ETOOBIG:
		return error("'%s': not a ddx store this ddx can read (a value of over %d bytes)",
			     st->shown, VALUE_MAX);
	case DB_EBUSY:
		return error("'%s': %s: the store is locked by another process", st->shown, what);
	case DB_ECORRUPT:
		return error("'%s': not a ddx store (corrupt: %s)", st->shown, msg);
	case DB_EDOWN:
		return error("'%s': %s: lost the connection to the server (%s)", st->shown, what, msg);
	default:
		return error("'%s': %s: %s", st->shown, what, msg);
	}
}

static int exec(struct store *st, const char *sql)
{
	return db_exec(st->db, sql) < 0 ? db_error(st, "store error") : 0;
}

static int begin_write(struct store *st)
{
	return db_begin_write(st->db) < 0 ? db_error(st, "store error") : 0;
}

static int commit(struct store *st)
{
	return db_commit(st->db) < 0 ? db_error(st, "store error") : 0;
}

static struct db_stmt *prepare(struct store *st, const char *sql)
{
	struct db_stmt *s = db_prepare(st->db, sql);
	if (!s)
		db_error(st, "store error");
	return s;
}

/* Step a statement that returns no rows, and finalize it. */
static int step_done(struct store *st, struct db_stmt *s)
{
	int rc = db_step(s);
	db_finalize(s);
	return rc == DB_DONE ? 0 : db_error(st, "store error");
}

/* Step a statement that returns one id (INSERT ... RETURNING id), and
 * finalize it; -1 on error. */
static int64_t step_id(struct store *st, struct db_stmt *s)
{
	int64_t id = db_step(s) == DB_ROW ? db_col_int(s, 0) : -1;
	db_finalize(s);
	if (id < 0)
		db_error(st, "store error");
	return id;
}

/* One integer from a query without parameters; -1 on error. */
static int64_t query_int(struct store *st, const char *sql)
{
	struct db_stmt *s = prepare(st, sql);
	if (!s)
		return -1;
	int64_t v = -1;
	if (db_step(s) == DB_ROW)
		v = db_col_int(s, 0);
	else
		db_error(st, "store error");
	db_finalize(s);
	return v;
}

/* Run sql with parameter $1 bound to id. */
static int exec_id(struct store *st, const char *sql, int64_t id)
{
	struct db_stmt *s = prepare(st, sql);
	if (!s)
		return -1;
	db_bind_int(s, 1, id);
	return step_done(st, s);
}

static void bind_str(struct db_stmt *s, int i, const char *p)
{
	if (p)
		db_bind_text(s, i, p, strlen(p));
	else
		db_bind_null(s, i);
}

/* A text column; "" for a NULL, which a store file made by anything but
 * ddx may hold where ddx's schema says NOT NULL. */
static const char *col_str(struct db_stmt *s, int i, struct arena *a)
{
	const char *p = db_col_text(s, i);
	if (!p)
		return "";
	return arena_strndup(a, p, db_col_bytes(s, i));
}

/* A content hash, stored as hex text; 0 for a NULL. */
static uint64_t col_hash(struct db_stmt *s, int i)
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

static uint64_t col_count(struct db_stmt *s, int i)
{
	if (db_col_type(s, i) == DB_INT) {
		int64_t v = db_col_int(s, i);
		return v < 0 ? 0 : (uint64_t)v > COUNT_MAX ? COUNT_MAX : (uint64_t)v;
	}
	double v = db_col_double(s, i);
	return !(v > 0) ? 0 : v >= (double)COUNT_MAX ? COUNT_MAX : (uint64_t)v;
}

/* A time in s; 0 when out of range. */
static int64_t col_seconds(struct db_stmt *s, int i)
{
	int64_t v = db_col_int(s, i);
	return v < SECONDS_MIN || v > SECONDS_MAX ? 0 : v;
}

/* A log timestamp in ms; TS_NONE for NULL or out of range. */
static int64_t col_ts(struct db_stmt *s, int i)
{
	if (db_col_type(s, i) == DB_NULL)
		return TS_NONE;
	int64_t v = db_col_int(s, i);
	return v < SECONDS_MIN * 1000 || v > SECONDS_MAX * 1000 ? TS_NONE : v;
}

static void bind_ts(struct db_stmt *s, int i, int64_t ts)
{
	if (ts == TS_NONE)
		db_bind_null(s, i);
	else
		db_bind_int(s, i, ts);
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
static int64_t file_version(struct store *st)
{
	int64_t app = query_int(st, "PRAGMA application_id");
	int64_t ver = query_int(st, "PRAGMA user_version");
	int64_t ntables = query_int(st, "SELECT count(*) FROM sqlite_master");
	if (app < 0 || ver < 0 || ntables < 0)
		return -1;
	if (app != APP_ID && (app != 0 || ver != 0 || ntables > 0))
		return error("'%s': not a ddx store (an SQLite database of another application)", st->shown);
	return app == APP_ID ? ver : 0;
}

/* The schema version of the store on a server, 0 when it has none yet. */
static int64_t server_version(struct store *st)
{
	int64_t has = query_int(st, "SELECT to_regclass('schema_version') IS NOT NULL");
	if (has <= 0)
		return has;
	return query_int(st, "SELECT coalesce(max(version), 0) FROM schema_version");
}

/* The schema version of st, either engine's; -1 after an error, and for
 * a store newer than this ddx. */
static int64_t store_version(struct store *st)
{
	int64_t ver = db_is_pg(st->db) ? server_version(st) : file_version(st);
	if (ver > STORE_VERSION)
		return error("'%s': not a ddx store this ddx can read (schema version %lld; "
			     "this ddx knows up to %d: upgrade ddx)", st->shown, (long long)ver, STORE_VERSION);
	return ver;
}

/* Create the schema of STORE_VERSION from version ver, and mark it so,
 * inside the write transaction begun. */
static int create_schema(struct store *st, int64_t ver)
{
	int pg = db_is_pg(st->db);
	for (int64_t v = ver; v < STORE_VERSION; v++)
		if (exec(st, pg ? pg_scripts[v] : sqlite_scripts[v]) < 0)
			return -1;
	char sql[96];
	if (pg)
		snprintf(sql, sizeof(sql), "DELETE FROM schema_version;"
			 " INSERT INTO schema_version VALUES (%d)", STORE_VERSION);
	else
		snprintf(sql, sizeof(sql), "PRAGMA application_id = %d; PRAGMA user_version = %d",
			 APP_ID, STORE_VERSION);
	return exec(st, sql);
}

/* Bring the store to STORE_VERSION inside one write transaction; a second
 * process doing the same waits for the first and then finds nothing to
 * do. */
static int migrate(struct store *st)
{
	if (begin_write(st) < 0)
		return -1;
	int64_t ver = store_version(st);
	if (ver < 0 || create_schema(st, ver) < 0 || (ver < 2 && ver > 0 && fill_v2(st) < 0) ||
	    commit(st) < 0) {
		db_rollback(st->db);
		return -1;
	}
	st->version = STORE_VERSION;
	return 0;
}

/* Whether table has exactly the columns cols (space- and
 * comma-separated, in order), none of them hidden or generated: 1 yes, 0
 * no, -1 after an error. */
static int same_columns(struct store *st, const char *table, const char *cols)
{
	struct db_stmt *s = prepare(st, "SELECT name, hidden FROM pragma_table_xinfo($1) ORDER BY cid");
	if (!s)
		return -1;
	bind_str(s, 1, table);
	int rc, same = 1;
	const char *p = cols;
	while (same && (rc = db_step(s)) == DB_ROW) {
		const char *name = db_col_text(s, 0);
		p += strspn(p, " ,");
		size_t n = strcspn(p, " ,");
		same = name && db_col_int(s, 1) == 0 && n == strlen(name) && strncmp(p, name, n) == 0;
		p += n;
	}
	if (same && rc != DB_DONE)
		same = db_error(st, "cannot read the schema");
	db_finalize(s);
	return same == 1 && p[strspn(p, " ,")] != '\0' ? 0 : same;
}

/* Whether the schema of an SQLite store of version ver is exactly ddx's:
 * its tables with their columns, their indexes, and nothing else (no
 * view, no trigger, no virtual table).  Errors quote nothing of the
 * file's.  Returns -1 after saying what is wrong. */
static int check_tables(struct store *st, int64_t ver)
{
	struct db_stmt *s = prepare(st, "SELECT type, name, tbl_name, sql FROM sqlite_master");
	if (!s)
		return -1;
	size_t ntables = sizeof(tables) / sizeof(tables[0]), found = 0, expected = 0;
	for (size_t i = 0; i < ntables; i++)
		expected += tables[i].since <= ver && ver <= tables[i].until;
	const char *bad = NULL, *table = "";
	int rc;
	while (!bad && (rc = db_step(s)) == DB_ROW) {
		const char *type = db_col_text(s, 0);
		const char *name = db_col_text(s, 1);
		const char *tbl = db_col_text(s, 2);
		const char *def = db_col_text(s, 3);
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
				   same_columns(st, name, tables[k].columns) : 0;
			if (same < 0) {
				db_finalize(s);
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
	db_finalize(s);
	if (bad)
		return error("'%s': not a ddx store this ddx can read (its schema has %s%s)", st->shown,
			     bad, table);
	if (rc != DB_DONE)
		return db_error(st, "cannot read the schema");
	if (found != expected)
		return error("'%s': not a ddx store this ddx can read (tables are missing)", st->shown);
	return 0;
}

/* Read the schema, the first thing SQLite needs from the file: damage
 * there makes the file unusable as a store, and is said so.  Damage
 * further in shows up in the query that meets it. */
static int check_schema(struct store *st)
{
	struct db_stmt *s = db_prepare(st->db, "SELECT count(*) FROM sqlite_master");
	int rc = s ? db_step(s) : -1;
	db_finalize(s);
	return rc == DB_ROW ? 0 : db_error(st, "cannot open the store");
}

/* Put the store in WAL mode.  SQLite answers BUSY at once, without its
 * busy handler, when another process is changing the mode of the same new
 * file at that moment (two `ddx learn`s creating a store): wait and try
 * again, up to the busy timeout. */
static int wal(struct store *st)
{
	for (int waited = 0;; waited += 20) {
		int rc = db_exec(st->db, "PRAGMA journal_mode = WAL");
		if (rc == 0)
			return 0;
		if (db_err(st->db) != DB_EBUSY || waited >= BUSY_MS)
			return db_error(st, "store error");
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

/* Whether path names a PostgreSQL database, as libpq's URLs do. */
static int is_pg(const char *path)
{
	size_t n = url_scheme(path);
	return (n == 10 && strncmp(path, "postgresql", n) == 0) ||
	       (n == 8 && strncmp(path, "postgres", n) == 0);
}

char *store_shown(const char *path)
{
	size_t scheme = url_scheme(path);
	if (!scheme)
		return xstrdup(path);
	struct buf b = { 0 };
	const char *p = path + scheme + 3;
	buf_append(&b, path, scheme + 3);
	/* user:password@ in the authority: the password goes. */
	size_t auth = strcspn(p, "/?#");
	const char *at = memrchr(p, '@', auth);
	const char *colon = at ? memchr(p, ':', (size_t)(at - p)) : NULL;
	if (colon) {
		buf_append(&b, p, (size_t)(colon - p));
		buf_printf(&b, ":***");
		p = at;
	}
	/* And so does a password=... among the parameters. */
	while (*p) {
		size_t n = strcspn(p, "?&");
		buf_append(&b, p, n);
		p += n;
		if (!*p)
			break;
		buf_putc(&b, *p++);
		if (strncmp(p, "password=", 9) == 0) {
			buf_printf(&b, "password=***");
			p += strcspn(p, "&#");
		}
	}
	return b.p;
}

static struct store *new_store(const char *path, const char *shown)
{
	struct store *st = xcalloc(1, sizeof(*st));
	st->path = xstrdup(path);
	st->shown = store_shown(shown);
	return st;
}

/* Open the store on a PostgreSQL server; as store_open. */
static struct store *open_server(const char *url, int mode, int *missing)
{
	struct store *st = new_store(url, url);
	st->db = db_pg_open(url, PG_SCHEMA, BUSY_MS, VALUE_MAX);
	if (db_err(st->db)) {
		error("cannot open '%s': %s", st->shown, db_errmsg(st->db));
		store_close(st);
		return NULL;
	}
	st->version = store_version(st);
	if (st->version == 0 && mode != STORE_WRITE) {
		*missing = 1;
		store_close(st);
		return NULL;
	}
	if (st->version < 0 || (st->version != STORE_VERSION && migrate(st) < 0)) {
		store_close(st);
		return NULL;
	}
	return st;
}

/* Open the store in an SQLite file; as store_open. */
static struct store *open_file(const char *path, int mode, int *missing)
{
	struct stat sb;
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
	struct store *st = new_store(path, path);
	st->db = db_sqlite_open(path, readonly ? DB_READONLY : DB_CREATE, BUSY_MS, VALUE_MAX);
	if (db_err(st->db)) {
		error("cannot open '%s': %s", path, db_errmsg(st->db));
		store_close(st);
		return NULL;
	}
	/* The file is checked before anything is written to it.  WAL:
	 * readers never block the writer (a reader leaves the journal mode
	 * alone: an exported store stays one file). */
	if (check_schema(st) < 0 || (st->version = store_version(st)) < 0 ||
	    (st->version > 0 && check_tables(st, st->version) < 0) ||
	    (mode == STORE_WRITE && wal(st) < 0) ||
	    (st->version != STORE_VERSION && !(readonly == 2 && st->version == 2) &&
	     migrate(st) < 0)) {
		store_close(st);
		return NULL;
	}
	return st;
}

struct store *store_open(const char *path, int mode, int *missing)
{
	*missing = 0;
	if (is_pg(path))
		return open_server(path, mode, missing);
	/* Any other URL names a back-end ddx lacks: taken as a path, it
	 * would become a folder "postgresql:" here. */
	size_t scheme = url_scheme(path);
	if (scheme) {
		char *shown = store_shown(path);
		error("'%s': no such store: ddx keeps baselines in an SQLite file or a PostgreSQL "
		      "database, and has no '%.*s' back-end (give a file's path or a postgresql:// "
		      "URL)", shown, (int)scheme, path);
		free(shown);
		return NULL;
	}
	return open_file(path, mode, missing);
}

void store_close(struct store *st)
{
	if (!st)
		return;
	db_close(st->db);
	free(st->path);
	free(st->shown);
	free(st);
}

int store_list(struct store *st, struct baseline **out, size_t *n, struct arena *a)
{
	struct db_stmt *s = prepare(st,
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
	while ((rc = db_step(s)) == DB_ROW) {
		GROW(v, cap, k + 1);
		struct baseline *b = &v[k++];
		b->id = db_col_int(s, 0);
		b->name = col_str(s, 1, a);
		b->created = col_seconds(s, 2);
		b->updated = col_seconds(s, 3);
		b->nruns = (size_t)col_count(s, 4);
		b->size = col_count(s, 5);
		b->stored = col_count(s, 6);
		b->lines = col_count(s, 7);
		b->engine = db_col_type(s, 8) == DB_NULL ? "other" : col_str(s, 8, a);
	}
	db_finalize(s);
	if (rc != DB_DONE) {
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

/* The templates of run r->id, and its configuration when the store has
 * any (version 2). */
static int load_detail(struct store *st, struct run *r, struct arena *a)
{
	struct db_stmt *s = prepare(st, "SELECT level, text, count, first_line FROM template"
				       " WHERE run = $1 ORDER BY first_line, level, text");
	if (!s)
		return -1;
	db_bind_int(s, 1, r->id);
	size_t cap = 0;
	int rc;
	while ((rc = db_step(s)) == DB_ROW) {
		GROW(r->tmpl, cap, r->ntmpl + 1);
		struct run_tmpl *t = &r->tmpl[r->ntmpl++];
		int64_t level = db_col_int(s, 0);
		t->level = level < LV_NONE || level > LV_FATAL ? LV_NONE : (int)level;
		t->text = col_str(s, 1, a);
		t->len = db_col_bytes(s, 1);
		t->count = col_count(s, 2);
		t->first_line = col_count(s, 3);
	}
	db_finalize(s);
	if (rc != DB_DONE)
		return db_error(st, "cannot read templates");
	if (st->version < 2)
		return 0;
	s = prepare(st, "SELECT key, value FROM config WHERE run = $1 ORDER BY key");
	if (!s)
		return -1;
	db_bind_int(s, 1, r->id);
	cap = 0;
	while ((rc = db_step(s)) == DB_ROW) {
		GROW(r->cfg, cap, r->ncfg + 1);
		r->cfg[r->ncfg].key = col_str(s, 0, a);
		r->cfg[r->ncfg++].value = col_str(s, 1, a);
	}
	db_finalize(s);
	if (rc != DB_DONE)
		return db_error(st, "cannot read configuration");
	return 0;
}

/* The runs whose column key ("baseline" or "id") is v; as store_runs. */
static int read_runs(struct store *st, const char *key, int64_t v, int want_detail,
		     struct run **out, size_t *n, struct arena *a)
{
	/* A version-1 store (an import) has no engine yet. */
	char sql[320];
	snprintf(sql, sizeof(sql),
		 "SELECT id, name, hash, size, lines, first_ts, last_ts, mtime, added, format,"
		 " %s, pipeline, (SELECT total(length(data)) FROM chunk WHERE run = r.id)"
		 " FROM run r WHERE %s = $1 ORDER BY id", st->version < 2 ? "NULL" : "engine", key);
	struct db_stmt *s = prepare(st, sql);
	if (!s)
		return -1;
	db_bind_int(s, 1, v);
	struct run *runs = NULL;
	size_t cap = 0, k = 0;
	int rc;
	while ((rc = db_step(s)) == DB_ROW) {
		GROW(runs, cap, k + 1);
		struct run *r = &runs[k++];
		memset(r, 0, sizeof(*r));
		r->id = db_col_int(s, 0);
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
	db_finalize(s);
	if (rc != DB_DONE) {
		free(runs);
		return db_error(st, "cannot read runs");
	}
	for (size_t i = 0; want_detail && i < k; i++)
		if (load_detail(st, &runs[i], a) < 0) {
			store_runs_free(runs, k);
			return -1;
		}
	*out = runs;
	*n = k;
	return 0;
}

int store_runs(struct store *st, int64_t baseline, int want_detail,
	       struct run **out, size_t *n, struct arena *a)
{
	return read_runs(st, "baseline", baseline, want_detail, out, n, a);
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

/* The chunks of run id, compressed. */
static int load_chunks(struct store *st, int64_t id, struct chunk **out, size_t *n)
{
	struct db_stmt *s = prepare(st, "SELECT raw_size, data FROM chunk WHERE run = $1 ORDER BY seq");
	if (!s)
		return -1;
	db_bind_int(s, 1, id);
	struct chunk *v = NULL;
	size_t cap = 0, k = 0;
	int rc;
	while ((rc = db_step(s)) == DB_ROW) {
		GROW(v, cap, k + 1);
		v[k].raw_size = (size_t)col_count(s, 0);
		const void *data = db_col_blob(s, 1);
		v[k].size = db_col_bytes(s, 1);
		v[k].data = xmalloc(v[k].size ? v[k].size : 1);
		if (v[k].size)
			memcpy(v[k].data, data, v[k].size);
		k++;
	}
	db_finalize(s);
	struct run tmp = { .chunks = v, .nchunks = k };
	if (rc != DB_DONE) {
		store_run_release(&tmp);
		return db_error(st, "cannot read a stored run");
	}
	*out = v;
	*n = k;
	return 0;
}

/* Decompress one chunk into out (raw_size bytes, malloc'd). */
static int unchunk(const char *shown, const struct chunk *c, char **out)
{
	/* No chunk of ddx's is larger: a store from elsewhere must not make
	 * it allocate whatever raw_size says. */
	if (c->raw_size > CHUNK_RAW) {
		*out = NULL;
		return error("'%s': a stored run is corrupt (a chunk of %zu bytes)", shown,
			     c->raw_size);
	}
	*out = xmalloc(c->raw_size ? c->raw_size : 1);
	size_t r = ZSTD_decompress(*out, c->raw_size, c->data, c->size);
	if (ZSTD_isError(r) || r != c->raw_size) {
		free(*out);
		*out = NULL;
		return error("'%s': a stored run is corrupt (%s)", shown,
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
		if (unchunk(st->shown, &a[i], &x) < 0 || unchunk(st->shown, &b[i], &y) < 0) {
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
	struct db_stmt *s = prepare(st, "SELECT id FROM run WHERE baseline = $1 AND hash = $2 AND size = $3");
	if (!s)
		return -1;
	db_bind_int(s, 1, baseline);
	bind_str(s, 2, hex);
	db_bind_int(s, 3, (int64_t)size);
	int rc, found = 0;
	while (!found && (rc = db_step(s)) == DB_ROW) {
		struct run other = { 0 };
		if (load_chunks(st, db_col_int(s, 0), &other.chunks, &other.nchunks) < 0) {
			found = -1;
			break;
		}
		found = same_content(st, chunks, nchunks, other.chunks, other.nchunks);
		store_run_release(&other);
	}
	if (!found && rc != DB_DONE)
		found = db_error(st, "cannot read runs");
	db_finalize(s);
	return found;
}

/* The id of baseline name, created if missing; -1 on error. */
static int64_t baseline_id(struct store *st, const char *name, int64_t now)
{
	struct db_stmt *s = prepare(st, "INSERT INTO baseline (name, created, updated) VALUES ($1, $2, $3)"
				       " ON CONFLICT (name) DO NOTHING");
	if (!s)
		return -1;
	bind_str(s, 1, name);
	db_bind_int(s, 2, now);
	db_bind_int(s, 3, now);
	if (step_done(st, s) < 0 || !(s = prepare(st, "SELECT id FROM baseline WHERE name = $1")))
		return -1;
	bind_str(s, 1, name);
	int64_t id = -1;
	if (db_step(s) == DB_ROW)
		id = db_col_int(s, 0);
	else
		db_error(st, "cannot create the baseline");
	db_finalize(s);
	return id;
}

/* Record that baseline id changed now. */
static int touch(struct store *st, int64_t id, int64_t now)
{
	struct db_stmt *s = prepare(st, "UPDATE baseline SET updated = $1 WHERE id = $2");
	if (!s)
		return -1;
	db_bind_int(s, 1, now);
	db_bind_int(s, 2, id);
	return step_done(st, s);
}

static int insert_chunks(struct store *st, int64_t run, const struct chunk *c, size_t n)
{
	struct db_stmt *s = prepare(st, "INSERT INTO chunk (run, seq, raw_size, data) VALUES ($1, $2, $3, $4)");
	if (!s)
		return -1;
	for (size_t i = 0; i < n; i++) {
		db_bind_int(s, 1, run);
		db_bind_int(s, 2, (int64_t)i);
		db_bind_int(s, 3, (int64_t)c[i].raw_size);
		db_bind_blob(s, 4, c[i].data, c[i].size);
		if (db_step(s) != DB_DONE) {
			db_finalize(s);
			return db_error(st, "cannot store a run");
		}
		db_reset(s);
	}
	db_finalize(s);
	return 0;
}

static int insert_config(struct store *st, int64_t run, const struct kv *cfg, size_t n)
{
	struct db_stmt *s = prepare(st, "INSERT INTO config (run, key, value) VALUES ($1, $2, $3)"
				       " ON CONFLICT DO NOTHING");
	if (!s)
		return -1;
	for (size_t i = 0; i < n; i++) {
		db_bind_int(s, 1, run);
		bind_str(s, 2, cfg[i].key);
		bind_str(s, 3, cfg[i].value);
		if (db_step(s) != DB_DONE) {
			db_finalize(s);
			return db_error(st, "cannot store the configuration");
		}
		db_reset(s);
	}
	db_finalize(s);
	return 0;
}

static int insert_templates(struct store *st, const struct run *r)
{
	struct db_stmt *s = prepare(st, "INSERT INTO template (run, level, text, count, first_line)"
				       " VALUES ($1, $2, $3, $4, $5)");
	if (!s)
		return -1;
	for (size_t i = 0; i < r->ntmpl; i++) {
		const struct run_tmpl *t = &r->tmpl[i];
		db_bind_int(s, 1, r->id);
		db_bind_int(s, 2, t->level);
		db_bind_text(s, 3, t->text, t->len);
		db_bind_int(s, 4, (int64_t)t->count);
		db_bind_int(s, 5, (int64_t)t->first_line);
		if (db_step(s) != DB_DONE) {
			db_finalize(s);
			return db_error(st, "cannot store the templates");
		}
		db_reset(s);
	}
	db_finalize(s);
	return 0;
}

/* Store r, chunks, templates and configuration, in baseline; sets
 * r->id.  r->engine NULL stores none (a version-1 import's, which
 * fill_v2 computes). */
static int insert_run(struct store *st, int64_t baseline, struct run *r)
{
	char hex[17];
	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)r->hash);
	struct db_stmt *s = prepare(st,
		"INSERT INTO run (baseline, " RUN_COLS_V1 ", engine)"
		" VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id");
	if (!s)
		return -1;
	db_bind_int(s, 1, baseline);
	bind_str(s, 2, r->name);
	bind_str(s, 3, hex);
	db_bind_int(s, 4, (int64_t)r->size);
	db_bind_int(s, 5, (int64_t)r->lines);
	bind_ts(s, 6, r->first_ts);
	bind_ts(s, 7, r->last_ts);
	bind_str(s, 8, r->format);
	db_bind_int(s, 9, r->mtime);
	db_bind_int(s, 10, r->added);
	bind_str(s, 11, r->pipeline);
	bind_str(s, 12, r->engine);
	if ((r->id = step_id(st, s)) < 0)
		return -1;
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
	if (mark_repeats(st, runs, n, dup) < 0 || begin_write(st) < 0) {
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
	if ((*added && touch(st, b, now) < 0) || commit(st) < 0)
		goto fail;
	free(dup);
	return 0;
fail:
	db_rollback(st->db);
	for (size_t i = 0; i < n; i++)
		runs[i].id = 0;
	*added = 0;
	free(dup);
	return -1;
}

int store_refresh(struct store *st, const struct run *r)
{
	/* A reader's connection is read-only: the templates are written
	 * through one of their own, if the store can be written at all (a
	 * store shipped read-only beside a deployment keeps its templates,
	 * and check remakes them each time).  Quietly: what fails here only
	 * costs the next check some time; nor does a check wait long behind
	 * a learn for it. */
	struct store w = { .path = st->path, .shown = st->shown, .quiet = 1, .version = st->version };
	if (db_is_pg(st->db))
		w.db = db_pg_open(st->path, PG_SCHEMA, 1000, VALUE_MAX);
	else if (access(st->path, W_OK) == 0)
		w.db = db_sqlite_open(st->path, 0, 1000, VALUE_MAX);
	else
		return -1;
	struct db_stmt *s;
	int rc = -1;
	if (db_err(w.db) || begin_write(&w) < 0)
		goto out;
	if (!(s = prepare(&w, "UPDATE run SET pipeline = $1 WHERE id = $2")))
		goto rollback;
	bind_str(s, 1, r->pipeline);
	db_bind_int(s, 2, r->id);
	if (step_done(&w, s) == 0 && exec_id(&w, "DELETE FROM template WHERE run = $1", r->id) == 0 &&
	    insert_templates(&w, r) == 0 && commit(&w) == 0) {
		rc = 0;
		goto out;
	}
rollback:
	db_rollback(w.db);
out:
	db_close(w.db);
	return rc;
}

/* Hand each decompressed chunk of run id, in order, to put; stops at the
 * first failure, which put reports. */
static int each_chunk(struct store *st, int64_t id, int (*put)(void *ctx, const char *p, size_t n),
		      void *ctx)
{
	struct db_stmt *s = prepare(st, "SELECT raw_size, data FROM chunk WHERE run = $1 ORDER BY seq");
	if (!s)
		return -1;
	db_bind_int(s, 1, id);
	int rc, r = 0;
	while (r == 0 && (rc = db_step(s)) == DB_ROW) {
		struct chunk c = {
			.raw_size = (size_t)col_count(s, 0),
			.data = (void *)db_col_blob(s, 1),
		};
		c.size = db_col_bytes(s, 1);
		char *raw;
		r = unchunk(st->shown, &c, &raw);
		if (r == 0)
			r = put(ctx, raw, c.raw_size);
		free(raw);
	}
	if (r == 0 && rc != DB_DONE)
		r = db_error(st, "cannot read a stored run");
	db_finalize(s);
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
	if (begin_write(st) < 0)
		return -1;
	struct db_stmt *s = prepare(st, "DELETE FROM baseline WHERE name = $1 RETURNING id");
	if (!s)
		goto fail;
	bind_str(s, 1, name);
	int rc = db_step(s);
	db_finalize(s);
	if (rc < 0) {
		db_error(st, "store error");
		goto fail;
	}
	if (commit(st) < 0)
		goto fail;
	return rc == DB_ROW;
fail:
	db_rollback(st->db);
	return -1;
}

/* Copy run id of one store into baseline into of another, unless its
 * content is there (when dedupe), with its chunks, templates and
 * configuration.  The run is checked whole first: damage in an import
 * surfaces now rather than when the baseline is used.  *nr counts the
 * runs added. */
static int copy_run(struct store *from, int64_t id, struct store *to, int64_t into, int dedupe,
		    size_t *nr)
{
	struct arena a = { 0 };
	struct run *run;
	size_t n;
	if (read_runs(from, "id", id, 1, &run, &n, &a) < 0) {
		arena_free(&a);
		return -1;
	}
	int r = n == 1 ? load_chunks(from, run->id, &run->chunks, &run->nchunks) : 0;
	uint64_t total = 0;
	for (size_t k = 0; n == 1 && k < run->nchunks && r == 0; k++) {
		char *raw;
		r = unchunk(from->shown, &run->chunks[k], &raw);
		free(raw);
		total += run->chunks[k].raw_size;
	}
	if (n == 1 && r == 0 && total != run->size)
		r = error("'%s': a stored run is corrupt (%llu bytes, %llu expected)", from->shown,
			  (unsigned long long)total, (unsigned long long)run->size);
	if (n == 1 && r == 0) {
		/* A version-1 store knows no engine: fill_v2 computes it. */
		if (from->version < 2)
			run->engine = NULL;
		int dup = dedupe ? has_content(to, into, run->hash, run->size, run->chunks,
					       run->nchunks) : 0;
		if (dup < 0)
			r = -1;
		else if (!dup && (r = insert_run(to, into, run)) == 0)
			++*nr;
	}
	store_runs_free(run, n);
	arena_free(&a);
	return r;
}

int store_export(struct store *st, const char *name, const char *file, const char *into)
{
	/* The store is held still while the baseline is copied (a learn or
	 * rm meanwhile waits): the copy is the baseline at one moment. */
	if (begin_write(st) < 0)
		return -1;
	struct arena a = { 0 };
	struct baseline b;
	int found = store_find(st, name, &b, &a);
	if (found <= 0) {
		db_rollback(st->db);
		arena_free(&a);
		return found;
	}
	/* A plain rollback-journal file: one file to hand over, no -wal. */
	struct store *out = new_store(into, file);
	out->db = db_sqlite_open(into, DB_CREATE, BUSY_MS, VALUE_MAX);
	out->version = STORE_VERSION;
	int r = -1;
	size_t nr = 0;
	if (db_err(out->db)) {
		error("cannot open '%s': %s", file, db_errmsg(out->db));
		goto out;
	}
	if (exec(out, "PRAGMA journal_mode = DELETE") < 0 || begin_write(out) < 0)
		goto out;
	struct db_stmt *s;
	int64_t id = -1;
	if (create_schema(out, 0) == 0 &&
	    (s = prepare(out, "INSERT INTO baseline (name, created, updated) VALUES ($1, $2, $3)"
			      " RETURNING id"))) {
		bind_str(s, 1, b.name);
		db_bind_int(s, 2, b.created);
		db_bind_int(s, 3, b.updated);
		id = step_id(out, s);
	}
	struct run *runs = NULL;
	size_t n = 0;
	int ok = id >= 0 && store_runs(st, b.id, 0, &runs, &n, &a) == 0;
	for (size_t i = 0; i < n && ok; i++)
		ok = copy_run(st, runs[i].id, out, id, 0, &nr) == 0;
	store_runs_free(runs, n);
	if (!ok || commit(out) < 0) {
		db_rollback(out->db);
		goto out;
	}
	r = 1;
out:
	/* Nothing was written to st: this only lets go of it. */
	db_rollback(st->db);
	store_close(out);
	arena_free(&a);
	return r;
}

/* Open file, to be imported, read-only: it must be a ddx store this ddx
 * reads, undamaged.  It is never migrated: an older one is read as it
 * is. */
static struct store *open_import(const char *file)
{
	uint32_t header_version;
	int h = check_header(file, &header_version);
	if (h <= 0) {
		if (h == 0)
			error("'%s': not a ddx store (empty)", file);
		return NULL;
	}
	struct store *in = new_store(file, file);
	in->db = db_sqlite_open(file, DB_READONLY, BUSY_MS, VALUE_MAX);
	if (db_err(in->db)) {
		error("cannot open '%s': %s", file, db_errmsg(in->db));
		goto fail;
	}
	int64_t app = query_int(in, "PRAGMA application_id");
	in->version = query_int(in, "PRAGMA user_version");
	if (app < 0 || in->version < 0)
		goto fail;
	if (app != APP_ID || in->version < 1) {
		error("'%s': not a ddx store (no ddx baseline in it)", file);
		goto fail;
	}
	if (in->version > STORE_VERSION) {
		error("'%s': not a ddx store this ddx can read (schema version %lld; "
		      "this ddx knows up to %d: upgrade ddx)", file, (long long)in->version, STORE_VERSION);
		goto fail;
	}
	if (check_tables(in, in->version) < 0)
		goto fail;
	struct db_stmt *s = prepare(in, "PRAGMA quick_check");
	if (!s)
		goto fail;
	const char *verdict = db_step(s) == DB_ROW ? db_col_text(s, 0) : NULL;
	int ok = verdict && strcmp(verdict, "ok") == 0;
	db_finalize(s);
	if (!ok) {
		error("'%s': not a ddx store (corrupt: it fails SQLite's integrity check)", file);
		goto fail;
	}
	return in;
fail:
	store_close(in);
	return NULL;
}

int store_import(struct store *st, const char *file, size_t *nb, size_t *nr)
{
	*nb = *nr = 0;
	struct store *in = open_import(file);
	if (!in)
		return -1;
	int r = -1;
	if (begin_write(st) < 0)
		goto out;
	/* One statement walks the whole import, so that its work is bounded
	 * as one (a crafted file may make it quadratic); each run is then
	 * read by its id. */
	struct db_stmt *s = prepare(in, "SELECT b.id, b.name, r.id FROM baseline b"
				       " LEFT JOIN run r ON r.baseline = b.id ORDER BY b.name, r.id");
	if (!s)
		goto rollback;
	int64_t last = -1, into = -1, now = now_s();
	int rc;
	while ((rc = db_step(s)) == DB_ROW) {
		if (db_col_int(s, 0) != last) {
			last = db_col_int(s, 0);
			const char *name = db_col_text(s, 1);
			if (!name) {
				error("'%s': not a ddx store (a baseline without a name)", file);
				break;
			}
			char *copy = xstrdup(name);
			into = baseline_id(st, copy, now);
			free(copy);
			if (into < 0)
				break;
			++*nb;
		}
		size_t before = *nr;
		if (db_col_type(s, 2) != DB_NULL &&
		    copy_run(in, db_col_int(s, 2), st, into, 1, nr) < 0)
			break;
		if (*nr > before && touch(st, into, now) < 0)
			break;
	}
	db_finalize(s);
	if (rc != DB_DONE) {
		if (rc != DB_ROW)
			db_error(in, "cannot read the import");
		goto rollback;
	}
	if ((in->version < 2 && fill_v2(st) < 0) || commit(st) < 0)
		goto rollback;
	r = 0;
	goto out;
rollback:
	db_rollback(st->db);
	*nb = *nr = 0;
out:
	store_close(in);
	return r;
}

static int fill_v2(struct store *st)
{
	struct db_stmt *s = prepare(st, "SELECT id, format FROM run WHERE engine IS NULL");
	if (!s)
		return -1;
	struct arena a = { 0 };
	struct run *v = NULL;
	size_t cap = 0, n = 0;
	int rc;
	while ((rc = db_step(s)) == DB_ROW) {
		GROW(v, cap, n + 1);
		memset(&v[n], 0, sizeof(v[n]));
		v[n].id = db_col_int(s, 0);
		v[n++].format = col_str(s, 1, &a);
	}
	db_finalize(s);
	int r = rc == DB_DONE ? 0 : db_error(st, "cannot migrate the store");
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
		if (r == 0 && (s = prepare(st, "UPDATE run SET engine = $1 WHERE id = $2")) != NULL) {
			bind_str(s, 1, v[i].engine);
			db_bind_int(s, 2, v[i].id);
			r = step_done(st, s);
		} else if (r == 0) {
			r = -1;
		}
	}
	store_runs_free(v, n);
	arena_free(&a);
	return r;
}

/* The failure memory (version 3).  A store of version 2 read as it is
 * (see open_file) has none. */

int store_failure_seen(struct store *st, const char *key, struct failure_seen *out,
		       struct arena *a)
{
	out->count = 0;
	out->first = 0;
	out->nruns = 0;
	out->now = now_s();
	if (st->version < 3)
		return error("'%s': no failure memory: the store is of schema version 2 and read-only "
			     "(a learn into it upgrades it)", st->shown);
	struct db_stmt *s = prepare(st, "SELECT count(*), min(seen) FROM failure WHERE signature = $1");
	if (!s)
		return -1;
	bind_str(s, 1, key);
	if (db_step(s) != DB_ROW) {
		db_finalize(s);
		return db_error(st, "cannot read the failure memory");
	}
	out->count = col_count(s, 0);
	out->first = col_seconds(s, 1);
	db_finalize(s);
	s = prepare(st, "SELECT name, host, baseline, seen FROM failure WHERE signature = $1"
			" ORDER BY seen DESC, id DESC LIMIT $2");
	if (!s)
		return -1;
	/* A run checked again names no new run: the latest of each name
	 * and host, among a few more records than are shown. */
	bind_str(s, 1, key);
	db_bind_int(s, 2, SEEN_RUNS_MAX * 8);
	int rc;
	while ((rc = db_step(s)) == DB_ROW && out->nruns < SEEN_RUNS_MAX) {
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
	db_finalize(s);
	if (rc != DB_DONE && rc != DB_ROW)
		return db_error(st, "cannot read the failure memory");
	return 0;
}

int store_failure_record(struct store *st, const struct failure *f)
{
	/* A reader's connection is read-only: the record is written
	 * through one of its own, as store_refresh does, quietly: the one
	 * line said is the one below. */
	struct store w = { .path = st->path, .shown = st->shown, .quiet = 1, .version = st->version };
	if (db_is_pg(st->db))
		w.db = db_pg_open(st->path, PG_SCHEMA, BUSY_MS, VALUE_MAX);
	else if (access(st->path, W_OK) == 0)
		w.db = db_sqlite_open(st->path, 0, BUSY_MS, VALUE_MAX);
	else
		return error("'%s': failure not recorded: %s", st->shown, strerror(errno));
	struct db_stmt *s = NULL;
	int ok = !db_err(w.db) && begin_write(&w) == 0 &&
		 (s = prepare(&w, "INSERT INTO failure (signature, summary, verdict, name, host,"
				  " seen, baseline) VALUES ($1, $2, $3, $4, $5, $6, $7)")) != NULL;
	if (ok) {
		bind_str(s, 1, f->key);
		bind_str(s, 2, f->summary);
		bind_str(s, 3, f->verdict);
		bind_str(s, 4, f->name);
		bind_str(s, 5, f->host);
		db_bind_int(s, 6, f->seen);
		bind_str(s, 7, f->baseline);
		ok = step_done(&w, s) == 0 && commit(&w) == 0;
	}
	if (!ok) {
		error("'%s': failure not recorded: %s", st->shown, db_errmsg(w.db));
		db_rollback(w.db);
	}
	db_close(w.db);
	return ok ? 0 : -1;
}

/* Bind the conditions of store_failures' queries from parameter $i on:
 * the time, then the baseline when there is one. */
static void bind_since(struct db_stmt *s, int i, int64_t since, const char *baseline)
{
	db_bind_int(s, i, since);
	if (baseline)
		bind_str(s, i + 1, baseline);
}

int store_failures(struct store *st, const char *baseline, int64_t within,
		   struct failure_sig **out, size_t *n, struct arena *a)
{
	*out = NULL;
	*n = 0;
	int64_t since = within < 0 ? INT64_MIN : now_s() - within;
	if (st->version < 3)
		return 0;
	char sql[512];
	snprintf(sql, sizeof(sql), "SELECT signature, count(*), min(seen), max(seen) FROM failure"
		 " WHERE %s GROUP BY signature ORDER BY count(*) DESC, max(seen) DESC, signature",
		 baseline ? "seen >= $1 AND baseline = $2" : "seen >= $1");
	struct db_stmt *s = prepare(st, sql);
	if (!s)
		return -1;
	bind_since(s, 1, since, baseline);
	size_t cap = 0;
	int rc;
	while ((rc = db_step(s)) == DB_ROW) {
		GROW(*out, cap, *n + 1);
		struct failure_sig *f = &(*out)[(*n)++];
		memset(f, 0, sizeof(*f));
		f->key = col_str(s, 0, a);
		f->count = col_count(s, 1);
		f->first = col_seconds(s, 2);
		f->last = col_seconds(s, 3);
	}
	db_finalize(s);
	if (rc != DB_DONE)
		return db_error(st, "cannot read the failure memory");
	/* The latest record of each, and its baselines. */
	const char *cond = baseline ? "seen >= $2 AND baseline = $3" : "seen >= $2";
	snprintf(sql, sizeof(sql), "SELECT summary, verdict, host, name FROM failure"
		 " WHERE signature = $1 AND %s ORDER BY seen DESC, id DESC LIMIT 1", cond);
	char sql2[256];
	snprintf(sql2, sizeof(sql2), "SELECT DISTINCT baseline FROM failure"
		 " WHERE signature = $1 AND %s ORDER BY baseline", cond);
	for (size_t i = 0; i < *n; i++) {
		struct failure_sig *f = &(*out)[i];
		if (!(s = prepare(st, sql)))
			return -1;
		bind_str(s, 1, f->key);
		bind_since(s, 2, since, baseline);
		if ((rc = db_step(s)) == DB_ROW) {
			f->summary = col_str(s, 0, a);
			f->verdict = col_str(s, 1, a);
			f->last_host = col_str(s, 2, a);
			f->last_name = col_str(s, 3, a);
		}
		db_finalize(s);
		if (rc != DB_ROW || !(s = prepare(st, sql2)))
			return rc != DB_ROW ? db_error(st, "cannot read the failure memory") : -1;
		bind_str(s, 1, f->key);
		bind_since(s, 2, since, baseline);
		const char **names = NULL;
		size_t nn = 0, ncap = 0;
		while ((rc = db_step(s)) == DB_ROW) {
			GROW(names, ncap, nn + 1);
			names[nn++] = col_str(s, 0, a);
		}
		db_finalize(s);
		f->baselines = arena_alloc(a, (nn ? nn : 1) * sizeof(*names));
		if (nn)
			memcpy(f->baselines, names, nn * sizeof(*names));
		f->nbaselines = nn;
		free(names);
		if (rc != DB_DONE)
			return db_error(st, "cannot read the failure memory");
	}
	return 0;
}
