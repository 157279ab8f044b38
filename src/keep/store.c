/* store.c — the baseline store: opening one, its schema and migrations,
 * and the SQL helpers its files share (store_impl.h).  The runs are
 * store_runs.c's, export and import store_transfer.c's, the failure
 * memory store_failures.c's.  See store.h.
 *
 * Layout (version 4):
 *   baseline(id, name, created, updated)
 *   run(id, baseline, name, hash, size, lines, first_ts, last_ts, format,
 *       mtime, added, pipeline, engine)
 *   chunk(run, seq, raw_size, data)       one zstd frame per CHUNK_RAW bytes
 *   template(run, level, text, count, first_line)
 *   config(run, key, value)               (version 2)
 *   failure(id, signature, summary, verdict, name, host, seen, baseline,
 *           content)                      (version 3; content 5), indexed
 *                                         by signature (version 4)
 *   fix(id, signature, text, host, fixed) (version 5), indexed by
 *                                         signature
 * Runs, chunks, templates and config go with their baseline (ON DELETE
 * CASCADE).
 *
 * Everything here speaks db.h, in SQL both engines run; only the schema
 * scripts, the keeping of the schema's version and the vetting of a file
 * (which may come from anywhere) are an engine's own.  An SQLite store is
 * marked as ddx's (PRAGMA application_id) and keeps its version in PRAGMA
 * user_version; a PostgreSQL store lives in the schema "ddx" of its
 * database, its version in ddx.schema_version. */
#include "store_impl.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "db.h"
#include "logmeta.h"
#include "outfile.h"
#include "rules.h"

/* The indexes ddx names itself, each in the SQL that made it; SQLite
 * names the others sqlite_autoindex_TABLE_N.  An index is never required
 * (a store without is read, only slower), but one ddx does not make is
 * refused.  The failure memory's: every query of it asks for one
 * signature's records, so that `ddx failures` and check's lookup read
 * those, not the whole memory once per signature. */
#define RUN_HASH_INDEX "CREATE INDEX run_hash ON run(baseline, hash)"
#define FAILURE_INDEX "CREATE INDEX failure_signature ON failure(signature, seen)"
#define FIX_INDEX "CREATE INDEX fix_signature ON fix(signature, fixed)"

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
	/* 4: FAILURE_INDEX. */
	FAILURE_INDEX ";",
	/* 5: a failure's content, "HASH-SIZE" of its log (NULL in records
	 * of version 4), and what fixed a signature. */
	"ALTER TABLE failure ADD COLUMN content TEXT;"
	"CREATE TABLE fix ("
	"  id INTEGER PRIMARY KEY,"
	"  signature TEXT NOT NULL,"
	"  text TEXT NOT NULL,"
	"  host TEXT NOT NULL,"
	"  fixed INTEGER NOT NULL);"
	FIX_INDEX ";",
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
	/* A hash index: a B-tree entry cannot hold a long signature, and
	 * the failure memory only asks for one signature's records. */
	"CREATE INDEX failure_signature ON failure USING hash (signature);",
	"ALTER TABLE failure ADD COLUMN content BYTEA;"
	"CREATE TABLE fix ("
	"  id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
	"  signature BYTEA NOT NULL,"
	"  text BYTEA NOT NULL,"
	"  host BYTEA NOT NULL,"
	"  fixed BIGINT NOT NULL);"
	"CREATE INDEX fix_signature ON fix USING hash (signature);",
};

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
	{ "failure", 3, 4, "id signature summary verdict name host seen baseline" },
	{ "failure", 5, STORE_VERSION, "id signature summary verdict name host seen baseline content" },
	{ "fix", 5, STORE_VERSION, "id signature text host fixed" },
};

int64_t now_s(void)
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

int db_error(struct store *st, const char *what)
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

int64_t query_int(struct store *st, const char *sql)
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

int check_header(const char *path, uint32_t *version)
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

/* The schema version of the open file, 0 for a blank database that is
 * to become a store; -1 after saying why it is no store this ddx can
 * use.  Asked of SQLite, where the header may be stale (a WAL holds the
 * newer one), and in one statement, so that the three answers come from
 * one snapshot: read one by one, a learn creating the store between them
 * shows a version and tables with no application id yet, which looks like
 * another program's database. */
static int64_t file_version(struct store *st)
{
	struct db_stmt *s = prepare(st, "SELECT (SELECT application_id FROM pragma_application_id),"
				    " (SELECT user_version FROM pragma_user_version),"
				    " (SELECT count(*) FROM sqlite_master)");
	if (!s)
		return -1;
	int rc = db_step(s);
	int64_t app = rc == DB_ROW ? db_col_int(s, 0) : -1;
	int64_t ver = rc == DB_ROW ? db_col_int(s, 1) : -1;
	int64_t ntables = rc == DB_ROW ? db_col_int(s, 2) : -1;
	db_finalize(s);
	if (rc != DB_ROW)
		return db_error(st, "store error");
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

int create_schema(struct store *st, int64_t ver)
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

int fill_v2(struct store *st)
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
	/* The engine as learn finds it now (baseline_describe's rules). */
	struct ruleset rs = { 0 };
	if (r == 0 && n)
		r = rules_init(&rs, NULL, 0);
	for (size_t i = 0; i < n && r == 0; i++) {
		char *content = NULL;
		size_t size = 0;
		r = load_detail(st, &v[i], &a);
		if (r == 0)
			r = store_run_read(st, v[i].id, &content, &size);
		if (r == 0) {
			v[i].engine = logmeta_engine(&rs, v[i].tmpl, v[i].ntmpl, v[i].format);
			logmeta_config(&rs, v[i].engine, content, size, &v[i].cfg, &v[i].ncfg, &a);
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
	rules_free(&rs);
	arena_free(&a);
	return r;
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

/* What a schema check found, as the store's checks say it: the first
 * thing of the schema that ddx does not make (bad, in table), a failed
 * read, tables missing, or 0 when the schema is ddx's. */
static int schema_verdict(struct store *st, const char *bad, const char *table, int rc, size_t found,
			  size_t expected)
{
	if (bad)
		return error("'%s': not a ddx store this ddx can read (its schema has %s%s)", st->shown,
			     bad, table);
	if (rc != DB_DONE)
		return db_error(st, "cannot read the schema");
	if (found != expected)
		return error("'%s': not a ddx store this ddx can read (tables are missing)", st->shown);
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

int check_tables(struct store *st, int64_t ver)
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
			int ok = def ? (strcmp(name, "run_hash") == 0 && strcmp(def, RUN_HASH_INDEX) == 0) ||
					       (strcmp(name, "failure_signature") == 0 &&
						strcmp(def, FAILURE_INDEX) == 0) ||
					       (strcmp(name, "fix_signature") == 0 && strcmp(def, FIX_INDEX) == 0) :
				       strncmp(name, "sqlite_autoindex_", 17) == 0;
			if (!ok)
				bad = "an index ddx does not make";
		} else {
			bad = "an entry of unknown type";
		}
	}
	db_finalize(s);
	return schema_verdict(st, bad, table, rc, found, expected);
}

/* The indexes of a PostgreSQL store, as the server describes them
 * (pg_get_indexdef): its scripts' and its keys'. */
#define PG_INDEXES \
	"'CREATE UNIQUE INDEX baseline_pkey ON ddx.baseline USING btree (id)'," \
	"'CREATE UNIQUE INDEX baseline_name_key ON ddx.baseline USING btree (name)'," \
	"'CREATE UNIQUE INDEX run_pkey ON ddx.run USING btree (id)'," \
	"'CREATE INDEX run_hash ON ddx.run USING btree (baseline, hash)'," \
	"'CREATE UNIQUE INDEX chunk_run_seq_key ON ddx.chunk USING btree (run, seq)'," \
	"'CREATE UNIQUE INDEX template_key ON ddx.template USING btree (run, level, sha256(text))'," \
	"'CREATE UNIQUE INDEX config_key ON ddx.config USING btree (run, sha256(key))'," \
	"'CREATE UNIQUE INDEX failure_pkey ON ddx.failure USING btree (id)'," \
	"'CREATE INDEX failure_signature ON ddx.failure USING hash (signature)'," \
	"'CREATE UNIQUE INDEX fix_pkey ON ddx.fix USING btree (id)'," \
	"'CREATE INDEX fix_signature ON ddx.fix USING hash (signature)'"

/* The first thing in the schema PG_SCHEMA that ddx does not make, in
 * words: every way a crafted database could run code of its author's
 * where ddx reads or writes a table (a view, a rule, a trigger, row
 * security, a default, a constraint or an index calling a function, a
 * child table, a function, operator or type of its own), or a function
 * of ddx's name that is not ddx's. */
static const char *const pg_foreign_sql =
	"WITH ns AS (SELECT oid FROM pg_namespace WHERE nspname = '" PG_SCHEMA "'),"
	" rel AS (SELECT c.* FROM pg_class c, ns WHERE c.relnamespace = ns.oid)"
	" SELECT what FROM ("
	"  SELECT CASE relkind WHEN 'v' THEN 'a view' WHEN 'm' THEN 'a materialized view'"
	"   WHEN 'f' THEN 'a foreign table' WHEN 'p' THEN 'a partitioned table'"
	"   ELSE 'an entry of unknown type' END FROM rel WHERE relkind NOT IN ('r', 'i', 'S')"
	"  UNION ALL SELECT 'a trigger' FROM pg_trigger t JOIN rel ON rel.oid = t.tgrelid"
	"   WHERE NOT t.tgisinternal"
	"  UNION ALL SELECT 'a rule' FROM pg_rewrite r JOIN rel ON rel.oid = r.ev_class"
	"  UNION ALL SELECT 'row security' FROM rel WHERE relrowsecurity OR relforcerowsecurity"
	"  UNION ALL SELECT 'a policy' FROM pg_policy p JOIN rel ON rel.oid = p.polrelid"
	"  UNION ALL SELECT 'a child table' FROM pg_inherits i JOIN rel"
	"   ON rel.oid IN (i.inhrelid, i.inhparent)"
	"  UNION ALL SELECT 'a column default' FROM pg_attrdef d JOIN rel ON rel.oid = d.adrelid"
	"  UNION ALL SELECT 'a column of a type ddx does not use' FROM pg_attribute a"
	"   JOIN rel ON rel.oid = a.attrelid WHERE rel.relkind = 'r' AND a.attnum > 0"
	"   AND NOT a.attisdropped AND a.atttypid NOT IN ('bytea'::regtype, 'int8'::regtype)"
	"  UNION ALL SELECT 'a constraint ddx does not make' FROM pg_constraint k, ns"
	"   WHERE k.connamespace = ns.oid AND NOT (k.contype IN ('p', 'u')"
	"   OR (k.contype = 'f' AND k.confrelid IN (SELECT oid FROM rel)))"
	"  UNION ALL SELECT 'an index ddx does not make' FROM rel"
	"   WHERE relkind = 'i' AND pg_get_indexdef(oid) NOT IN (" PG_INDEXES ")"
	"  UNION ALL SELECT 'a function ddx does not make' FROM pg_proc p, ns"
	"   WHERE p.pronamespace = ns.oid AND NOT ("
	"    (p.proname = 'total_step' AND p.prokind = 'f' AND p.prosrc = 'SELECT $1 + $2'"
	"     AND p.prolang = (SELECT oid FROM pg_language WHERE lanname = 'sql')"
	"     AND p.proargtypes = '701 20'::oidvector AND p.prorettype = 'float8'::regtype"
	"     AND NOT p.prosecdef AND p.proconfig IS NULL)"
	"    OR (p.proname = 'total' AND p.prokind = 'a' AND EXISTS (SELECT 1 FROM pg_aggregate g"
	"     JOIN pg_proc f ON f.oid = g.aggtransfn WHERE g.aggfnoid = p.oid"
	"     AND f.pronamespace = ns.oid AND f.proname = 'total_step'"
	"     AND f.proargtypes = '701 20'::oidvector AND g.aggfinalfn::oid = 0"
	"     AND g.aggcombinefn::oid = 0 AND g.aggserialfn::oid = 0"
	"     AND g.aggdeserialfn::oid = 0 AND g.aggmtransfn::oid = 0"
	"     AND g.aggminvtransfn::oid = 0 AND g.aggmfinalfn::oid = 0)))"
	"  UNION ALL SELECT 'an operator' FROM pg_operator o, ns WHERE o.oprnamespace = ns.oid"
	"  UNION ALL SELECT 'a type ddx does not make' FROM pg_type t, ns"
	"   WHERE t.typnamespace = ns.oid AND t.typrelid NOT IN (SELECT oid FROM rel)"
	"   AND t.typelem NOT IN (SELECT reltype FROM rel)"
	" ) bad(what) LIMIT 1";

/* Whether the words of have and want (separated by spaces and commas)
 * are the same, in the same order. */
static int same_words(const char *have, const char *want)
{
	for (;;) {
		have += strspn(have, " ,");
		want += strspn(want, " ,");
		size_t n = strcspn(have, " ,"), m = strcspn(want, " ,");
		if (n != m || strncmp(have, want, n) != 0)
			return 0;
		if (n == 0)
			return 1;
		have += n;
		want += m;
	}
}

/* Refuse a PostgreSQL store of which the schema holds anything ddx
 * does not make (pg_foreign_sql), before anything is read from its
 * tables, its version included: then no statement of ddx's runs code of
 * another's.  Errors quote nothing of the database's. */
static int check_server_objects(struct store *st)
{
	struct db_stmt *s = prepare(st, pg_foreign_sql);
	if (!s)
		return -1;
	int rc = db_step(s);
	if (rc == DB_ROW) {
		error("'%s': not a ddx store this ddx can read (its schema has %s)", st->shown,
		      db_col_text(s, 0));
		db_finalize(s);
		return -1;
	}
	db_finalize(s);
	return rc == DB_DONE ? 0 : db_error(st, "cannot read the schema");
}

/* Whether the tables of a PostgreSQL store of version ver are ddx's:
 * each of them, with its columns in order, and no other.  Returns -1
 * after saying what is wrong. */
static int check_server_tables(struct store *st, int64_t ver)
{
	struct db_stmt *s = prepare(st, "SELECT c.relname::text, string_agg(a.attname::text, ' '"
				    " ORDER BY a.attnum) FROM pg_class c JOIN pg_attribute a"
				    " ON a.attrelid = c.oid WHERE c.relnamespace = (SELECT oid"
				    " FROM pg_namespace WHERE nspname = '" PG_SCHEMA "')"
				    " AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped"
				    " GROUP BY c.relname");
	if (!s)
		return -1;
	size_t ntables = sizeof(tables) / sizeof(tables[0]), found = 0, expected = 1;
	for (size_t i = 0; i < ntables; i++)
		expected += tables[i].since <= ver && ver <= tables[i].until;
	const char *bad = NULL, *table = "";
	int rc;
	while (!bad && (rc = db_step(s)) == DB_ROW) {
		const char *name = db_col_text(s, 0), *cols = db_col_text(s, 1);
		size_t k = 0;
		while (k < ntables && !(strcmp(tables[k].name, name) == 0 &&
					tables[k].since <= ver && ver <= tables[k].until))
			k++;
		/* The server keeps the version in a table of its own. */
		const char *want = k < ntables ? tables[k].columns :
				   strcmp(name, "schema_version") == 0 ? "version" : NULL;
		if (!want) {
			bad = "a table ddx does not make";
		} else if (!same_words(cols, want)) {
			bad = "other columns in table ";
			table = k < ntables ? tables[k].name : "schema_version";
		}
		found++;
	}
	db_finalize(s);
	return schema_verdict(st, bad, table, rc, found, expected);
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

void store_protect(const char *path)
{
	if (url_scheme(path))
		return;
	outfile_protect(path, "the open store");
	/* SQLite names its files after the store's, through its links. */
	static const char *const beside[] = { "-wal", "-shm", "-journal" };
	char *real = realpath(path, NULL);
	for (size_t i = 0; i < sizeof(beside) / sizeof(beside[0]); i++) {
		char *side = xasprintf("%s%s", real ? real : path, beside[i]);
		outfile_protect(side, "part of the open store");
		free(side);
	}
	free(real);
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

struct store *new_store(const char *path, const char *shown)
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
	if (check_server_objects(st) < 0 ||
	    ((st->version = store_version(st)) > 0 && check_server_tables(st, st->version) < 0)) {
		store_close(st);
		return NULL;
	}
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
		/* An older store, of version 2 or later, that cannot be
		 * written (shipped read-only beside a deployment) is read as
		 * it is: it lacks only the failure memory (version 3), which
		 * the reader then goes without, its index (version 4), which
		 * only makes the memory slower to read, or the fixes and the
		 * records' contents (version 5), which it then goes without. */
		if (mode == STORE_READ && r == 1 && version >= 2 && version < STORE_VERSION &&
		    access(path, W_OK) < 0)
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
	    (st->version != STORE_VERSION && !(readonly == 2 && st->version >= 2) &&
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

int open_writer(const struct store *st, int wait_ms, struct store *w)
{
	*w = (struct store){ .path = st->path, .shown = st->shown, .quiet = 1, .version = st->version };
	if (db_is_pg(st->db))
		w->db = db_pg_open(st->path, PG_SCHEMA, wait_ms, VALUE_MAX);
	else if (access(st->path, W_OK) == 0)
		w->db = db_sqlite_open(st->path, 0, wait_ms, VALUE_MAX);
	else
		return -1;
	return 0;
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
