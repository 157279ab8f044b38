/* db_pg.c — db.h on a PostgreSQL server, through libpq.
 *
 * Each statement is sent whole when first stepped (PQexecParams), its
 * parameters and results in binary: integers as int8, strings and blobs
 * as bytea, so that no byte is escaped or refused as bad UTF-8.  The
 * rows come back at once and are stepped through here.  The server runs
 * every statement in a transaction of its own unless the store began one:
 * a client that dies mid-write leaves nothing of it behind.
 *
 * Writers serialise on one advisory lock (WRITE_LOCK), as SQLite's BEGIN
 * IMMEDIATE does: a learn that reads whether a run is stored and then
 * stores it sees no other learn's write in between.  The lock is the
 * session's, taken before the transaction begins and let go after it
 * ends (and by the server when the client dies): a transaction begun
 * before the wait would see the catalog as it was then, and a store made
 * meanwhile by the lock's previous holder would look missing.
 *
 * No statement waits for ever, on either side.  The server cancels any
 * of ddx's statements that runs past STATEMENT_MS beyond the wait for
 * the lock (statement_timeout), and, where it can (PostgreSQL 14+),
 * checks every second that ddx is still there, cancelling the statement
 * of a ddx that was killed (client_connection_check_interval).  And ddx
 * waits for an answer no longer than the server may work plus the
 * connect timeout (only the connect timeout for the first statement,
 * part of connecting): a server that stalls, or a network that drops its
 * packets, is an error, DB_EDOWN, never a hang.  Statements are sent
 * without blocking for that, and after one went unanswered the
 * connection is used no more. */
#include "db.h"

#include <dlfcn.h>
#include <libpq-fe.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* libpq is loaded when the first PostgreSQL store is opened, not linked:
 * it brings GSSAPI, LDAP and TLS, some twenty libraries that every ddx
 * would otherwise load at its start (a few milliseconds each time), and
 * most runs never touch a server.  Its header still declares each
 * function, so every pointer below has the header's type.  PQ_FUNCTIONS
 * is every libpq function this file calls, the one list both the table
 * and the loader are made from; a call is pq.NAME(...). */
#define LIBPQ "libpq.so.5"
#define PQ_FUNCTIONS(X)                                                                   \
	X(PQclear) X(PQconnectdbParams) X(PQconninfo) X(PQconninfoFree) X(PQconsumeInput) \
	X(PQerrorMessage) X(PQescapeIdentifier) X(PQfinish) X(PQflush) X(PQfreemem)       \
	X(PQftype) X(PQgetResult) X(PQgetisnull) X(PQgetlength) X(PQgetvalue) X(PQisBusy) \
	X(PQnfields) X(PQntuples) X(PQresultErrorField) X(PQresultStatus) X(PQsendQuery)  \
	X(PQsendQueryParams) X(PQsetNoticeProcessor) X(PQsetnonblocking) X(PQsocket)      \
	X(PQstatus)

static struct {
#define PQ_POINTER(name) __typeof__(name) *name;
	PQ_FUNCTIONS(PQ_POINTER)
#undef PQ_POINTER
} pq;

static pthread_once_t pq_once = PTHREAD_ONCE_INIT;
/* Set by load_libpq: empty when pq is filled, else why it is not. */
static char pq_error[256];

/* Open libpq, once, and fill pq from it.  The library stays loaded: the
 * process may open another store. */
static void load_libpq(void)
{
	void *h = dlopen(LIBPQ, RTLD_NOW | RTLD_LOCAL);
	int ok = h != NULL;
#define PQ_RESOLVE(name) \
	if (ok && !(pq.name = (__typeof__(name) *)dlsym(h, #name))) \
		ok = 0;
	PQ_FUNCTIONS(PQ_RESOLVE)
#undef PQ_RESOLVE
	if (ok)
		return;
	/* dlerror names the file and what is wrong with it, or the function
	 * it lacks (a libpq older than ddx's). */
	snprintf(pq_error, sizeof(pq_error), "PostgreSQL store needs " LIBPQ ": %s", dlerror());
	if (h)
		dlclose(h);
}

/* The advisory lock's key: "ddx1" (0x64647831), as the SQLite store's
 * application id. */
#define WRITE_LOCK "1684305969"
/* How long a statement of ddx's may run on the server beyond the wait for
 * the write lock: none takes near that long on a server that works. */
#define STATEMENT_MS 60000
/* How long to wait for a server to answer, in s, unless the URL says. */
#define CONNECT_TIMEOUT 30
#define STR(x) STR_(x)
#define STR_(x) #x
/* The most parameters a statement of the store's has, and then some. */
#define MAX_PARAMS 16
/* Type oids (pg_type.h, stable across versions). */
enum { BOOLOID = 16, BYTEAOID = 17, INT8OID = 20, INT2OID = 21, INT4OID = 23, TEXTOID = 25,
       FLOAT4OID = 700, FLOAT8OID = 701, VARCHAROID = 1043 };

struct pg {
	struct db base;
	PGconn *c;
	int value_max;
	int answer_ms;     /* the longest wait for a statement's answer */
	int stalled;       /* a statement went unanswered: the connection is done */
};

struct pg_stmt {
	struct db_stmt base;
	char *sql;
	int nparams;
	Oid types[MAX_PARAMS];
	const char *values[MAX_PARAMS];
	int lengths[MAX_PARAMS];
	int formats[MAX_PARAMS];
	unsigned char ints[MAX_PARAMS][8];
	PGresult *res;     /* NULL until stepped */
	int row, nrows;
};

static const struct db_ops pg_ops;

static struct pg *pg(struct db *db)
{
	return (struct pg *)db;
}

static struct pg_stmt *ps(struct db_stmt *s)
{
	return (struct pg_stmt *)s;
}

/* Record why res (or the connection, for a NULL res) failed.  A lost
 * connection, or a server shutting down (SQLSTATE class 08 and 57P), is
 * DB_EDOWN; a lock waited on past lock_timeout, a deadlock or a
 * serialisation failure, DB_EBUSY. */
static int pg_fail(struct pg *p, const PGresult *res)
{
	const char *state = res ? pq.PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
	const char *msg = res ? pq.PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;
	enum db_err e = DB_EOTHER;
	if (pq.PQstatus(p->c) == CONNECTION_BAD || (state && (strncmp(state, "08", 2) == 0 ||
							    strncmp(state, "57P", 3) == 0)))
		e = DB_EDOWN;
	else if (state && (strcmp(state, "55P03") == 0 || strcmp(state, "40P01") == 0 ||
			   strcmp(state, "40001") == 0))
		e = DB_EBUSY;
	if (!msg || !*msg) {
		/* libpq's own words, which may start with the severity. */
		msg = pq.PQerrorMessage(p->c);
		for (const char *sev = "FATAL:  \0ERROR:  \0"; *sev; sev += strlen(sev) + 1)
			if (strncmp(msg, sev, strlen(sev)) == 0)
				msg += strlen(sev);
	}
	return db_fail(&p->base, e, msg);
}

/* Record that the server did not answer in time; the connection, with
 * a statement in flight, is used no more. */
static PGresult *stalled(struct pg *p)
{
	char msg[96];
	p->stalled = 1;
	snprintf(msg, sizeof(msg), "the server did not answer within %d s", p->answer_ms / 1000);
	db_fail(&p->base, DB_EDOWN, msg);
	return NULL;
}

/* Wait until the connection's socket is ready for events, or the
 * deadline (now_ms) passes: 1 ready, 0 past the deadline. */
static int ready(struct pg *p, short events, int64_t deadline)
{
	struct pollfd pfd = { .fd = pq.PQsocket(p->c), .events = events };
	for (;;) {
		int64_t left = deadline - now_ms();
		if (left <= 0)
			return 0;
		int n = poll(&pfd, 1, (int)(left < 1000000 ? left : 1000000));
		if (n != 0)
			return 1;   /* ready, or an error libpq's next call reports */
	}
}

/* The result of the statement sent (sent: whether it went), as PQexec
 * gives it: the last, or the first error; within p->answer_ms.  NULL
 * when nothing came: a lost connection (the error in libpq), or a stall,
 * which is recorded here. */
static PGresult *answer(struct pg *p, int sent)
{
	if (!sent)
		return NULL;
	int64_t deadline = now_ms() + p->answer_ms;
	int f;
	while ((f = pq.PQflush(p->c)) == 1)
		if (!ready(p, POLLIN | POLLOUT, deadline))
			return stalled(p);
		else if (!pq.PQconsumeInput(p->c))
			return NULL;
	if (f < 0)
		return NULL;
	PGresult *res = NULL, *r;
	for (;;) {
		while (pq.PQisBusy(p->c)) {
			if (!ready(p, POLLIN, deadline)) {
				pq.PQclear(res);
				return stalled(p);
			}
			if (!pq.PQconsumeInput(p->c)) {
				pq.PQclear(res);
				return NULL;
			}
		}
		if (!(r = pq.PQgetResult(p->c)))
			return res;
		ExecStatusType st = pq.PQresultStatus(res);
		if (res && st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
			pq.PQclear(r);
		} else {
			pq.PQclear(res);
			res = r;
		}
	}
}

/* Send sql (one or more statements) and wait for its result, as
 * answer. */
static PGresult *run(struct pg *p, const char *sql)
{
	return p->stalled ? stalled(p) : answer(p, pq.PQsendQuery(p->c, sql));
}

/* Run res's command and keep whether it worked; res is cleared. */
static int pg_done(struct pg *p, PGresult *res)
{
	if (!res && p->stalled)
		return -1;
	ExecStatusType st = pq.PQresultStatus(res);
	int r = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK ? 0 : pg_fail(p, res);
	pq.PQclear(res);
	return r;
}

static int pg_exec(struct db *db, const char *sql)
{
	return pg_done(pg(db), run(pg(db), sql));
}

/* Let go of the write lock; a failure here (the connection lost) has let
 * go of it already. */
static void unlock(struct db *db)
{
	pq.PQclear(run(pg(db), "SELECT pg_advisory_unlock(" WRITE_LOCK ")"));
}

static int pg_begin_write(struct db *db)
{
	if (pg_exec(db, "SELECT pg_advisory_lock(" WRITE_LOCK ")") < 0)
		return -1;
	if (pg_exec(db, "BEGIN") < 0) {
		unlock(db);
		return -1;
	}
	return 0;
}

static int pg_commit(struct db *db)
{
	if (pg_exec(db, "COMMIT") < 0)
		return -1;
	unlock(db);
	return 0;
}

static void pg_rollback(struct db *db)
{
	pg_exec(db, "ROLLBACK");
	unlock(db);
}

static struct db_stmt *pg_prepare(struct db *db, const char *sql)
{
	struct pg_stmt *s = xcalloc(1, sizeof(*s));
	s->base.db = db;
	s->sql = xstrdup(sql);
	return &s->base;
}

static void pg_bind(struct db_stmt *st, int i, int type, int64_t v, const void *p, size_t n)
{
	struct pg_stmt *s = ps(st);
	if (i < 1 || i > MAX_PARAMS || n > INT32_MAX)
		BUG("a parameter out of range");
	int k = i - 1;
	if (s->nparams < i)
		s->nparams = i;
	s->formats[k] = 1;
	if (type == DB_INT) {
		for (int b = 0; b < 8; b++)
			s->ints[k][b] = (unsigned char)((uint64_t)v >> (56 - 8 * b));
		s->types[k] = INT8OID;
		s->values[k] = (const char *)s->ints[k];
		s->lengths[k] = 8;
	} else if (type == DB_NULL) {
		/* Of whatever type the statement gives it. */
		s->types[k] = 0;
		s->values[k] = NULL;
		s->lengths[k] = 0;
	} else {
		s->types[k] = BYTEAOID;
		/* libpq reads a zero-length value from a non-NULL pointer. */
		s->values[k] = p ? p : "";
		s->lengths[k] = (int)n;
	}
}

static int pg_step(struct db_stmt *st)
{
	struct pg_stmt *s = ps(st);
	struct pg *p = pg(st->db);
	if (!s->res) {
		s->res = p->stalled ? stalled(p) :
			 answer(p, pq.PQsendQueryParams(p->c, s->sql, s->nparams, s->types, s->values,
						     s->lengths, s->formats, 1));
		ExecStatusType rs = pq.PQresultStatus(s->res);
		if (rs != PGRES_TUPLES_OK && rs != PGRES_COMMAND_OK) {
			if (!p->stalled)
				pg_fail(p, s->res);
			pq.PQclear(s->res);
			s->res = NULL;
			return -1;
		}
		s->row = -1;
		s->nrows = pq.PQntuples(s->res);
	}
	if (s->row + 1 >= s->nrows) {
		s->row = s->nrows;
		return DB_DONE;
	}
	s->row++;
	/* The store reads no value larger than it writes, from a server as
	 * from a file. */
	for (int i = 0; i < pq.PQnfields(s->res); i++)
		if (pq.PQgetlength(s->res, s->row, i) > p->value_max)
			return db_fail(&p->base, DB_ETOOBIG, "a value too large");
	return DB_ROW;
}

static void pg_reset(struct db_stmt *st)
{
	pq.PQclear(ps(st)->res);
	ps(st)->res = NULL;
}

static void pg_finalize(struct db_stmt *st)
{
	pg_reset(st);
	free(ps(st)->sql);
	free(st);
}

/* Whether column i of the current row is there; a statement stepped past
 * its rows, or a column it lacks, reads as NULL. */
static int has(struct pg_stmt *s, int i)
{
	return s->res && s->row >= 0 && s->row < s->nrows && i >= 0 && i < pq.PQnfields(s->res) &&
	       !pq.PQgetisnull(s->res, s->row, i);
}

static uint64_t be(const char *p, int n)
{
	uint64_t v = 0;
	for (int b = 0; b < n; b++)
		v = v << 8 | (unsigned char)p[b];
	return v;
}

static int pg_col_type(struct db_stmt *st, int i)
{
	struct pg_stmt *s = ps(st);
	if (!has(s, i))
		return DB_NULL;
	switch (pq.PQftype(s->res, i)) {
	case BOOLOID: case INT2OID: case INT4OID: case INT8OID: return DB_INT;
	case FLOAT4OID: case FLOAT8OID: return DB_FLOAT;
	case TEXTOID: case VARCHAROID: return DB_TEXT;
	default: return DB_BLOB;
	}
}

/* A number of the current row, converted as SQLite converts: a float's
 * integer part, 0 for what is no number. */
static double pg_col_double(struct db_stmt *st, int i);

static int64_t pg_col_int(struct db_stmt *st, int i)
{
	struct pg_stmt *s = ps(st);
	int type = pg_col_type(st, i);
	if (type == DB_FLOAT) {
		double d = pg_col_double(st, i);
		return d >= 9.2e18 ? INT64_MAX : d <= -9.2e18 ? INT64_MIN : (int64_t)d;
	}
	if (type != DB_INT)
		return 0;
	const char *p = pq.PQgetvalue(s->res, s->row, i);
	int n = pq.PQgetlength(s->res, s->row, i);
	if (n != 1 && n != 2 && n != 4 && n != 8)
		return 0;
	uint64_t v = be(p, n);
	/* Sign-extend the narrower integers. */
	if (n < 8 && pq.PQftype(s->res, i) != BOOLOID && v >> (8 * n - 1))
		v |= ~(uint64_t)0 << (8 * n);
	return (int64_t)v;
}

static double pg_col_double(struct db_stmt *st, int i)
{
	struct pg_stmt *s = ps(st);
	int type = pg_col_type(st, i);
	if (type == DB_INT)
		return (double)pg_col_int(st, i);
	if (type != DB_FLOAT)
		return 0;
	const char *p = pq.PQgetvalue(s->res, s->row, i);
	int n = pq.PQgetlength(s->res, s->row, i);
	if (n == 8) {
		uint64_t v = be(p, 8);
		double d;
		memcpy(&d, &v, sizeof(d));
		return d;
	}
	if (n == 4) {
		uint32_t v = (uint32_t)be(p, 4);
		float f;
		memcpy(&f, &v, sizeof(f));
		return f;
	}
	return 0;
}

static const void *pg_col_blob(struct db_stmt *st, int i)
{
	struct pg_stmt *s = ps(st);
	/* libpq ends every value with a NUL, binary ones too. */
	return has(s, i) ? pq.PQgetvalue(s->res, s->row, i) : "";
}

static size_t pg_col_bytes(struct db_stmt *st, int i)
{
	struct pg_stmt *s = ps(st);
	return has(s, i) ? (size_t)pq.PQgetlength(s->res, s->row, i) : 0;
}

static void pg_close(struct db *db)
{
	/* No connection when libpq could not be loaded. */
	if (pg(db)->c)
		pq.PQfinish(pg(db)->c);
	free(db);
}

static const struct db_ops pg_ops = {
	.close = pg_close,
	.exec = pg_exec,
	.begin_write = pg_begin_write,
	.commit = pg_commit,
	.rollback = pg_rollback,
	.prepare = pg_prepare,
	.bind = pg_bind,
	.step = pg_step,
	.reset = pg_reset,
	.finalize = pg_finalize,
	.col_type = pg_col_type,
	.col_int = pg_col_int,
	.col_double = pg_col_double,
	.col_blob = pg_col_blob,
	.col_bytes = pg_col_bytes,
};

int db_is_pg(const struct db *db)
{
	return db->ops == &pg_ops;
}

static void quiet(void *ctx, const char *message)
{
	(void)ctx;
	(void)message;
}

/* The connect timeout in effect on c, in seconds, as libpq counts it (at
 * least 2); ddx's own when the URL says to wait for ever. */
static int connect_timeout(PGconn *c)
{
	int t = 0;
	PQconninfoOption *opts = pq.PQconninfo(c);
	for (PQconninfoOption *o = opts; o && o->keyword; o++)
		if (strcmp(o->keyword, "connect_timeout") == 0 && o->val)
			t = atoi(o->val);
	pq.PQconninfoFree(opts);
	return t <= 0 ? CONNECT_TIMEOUT : t < 2 ? 2 : t;
}

struct db *db_pg_open(const char *url, const char *schema, int wait_ms, int value_max)
{
	struct pg *p = xcalloc(1, sizeof(*p));
	p->base.ops = &pg_ops;
	p->value_max = value_max;
	pthread_once(&pq_once, load_libpq);
	if (pq_error[0]) {
		db_fail(&p->base, DB_EOTHER, pq_error);
		return &p->base;
	}
	/* What the URL does not say: a server that does not answer is
	 * given up on (a URL's connect_timeout wins), and the session shows
	 * as ddx's in pg_stat_activity. */
	const char *keys[] = { "connect_timeout", "dbname", "fallback_application_name", NULL };
	const char *vals[] = { STR(CONNECT_TIMEOUT), url, "ddx", NULL };
	p->c = pq.PQconnectdbParams(keys, vals, 1);
	if (!p->c) {
		db_fail(&p->base, DB_EDOWN, "out of memory");
		return &p->base;
	}
	if (pq.PQstatus(p->c) != CONNECTION_OK) {
		db_fail(&p->base, DB_EDOWN, pq.PQerrorMessage(p->c));
		return &p->base;
	}
	/* The server's notices and warnings are not the user's concern. */
	pq.PQsetNoticeProcessor(p->c, quiet, NULL);
	pq.PQsetnonblocking(p->c, 1);
	int connect_ms = connect_timeout(p->c) * 1000;
	p->answer_ms = connect_ms;
	char *escaped = pq.PQescapeIdentifier(p->c, schema, strlen(schema));
	char *sql = xasprintf("SET search_path TO %s; SET lock_timeout = %d;"
			      " SET statement_timeout = %d;"
			      " SELECT set_config('client_connection_check_interval', '1000', false)"
			      " WHERE current_setting('client_connection_check_interval', true)"
			      " IS NOT NULL",
			      escaped ? escaped : "ddx", wait_ms, wait_ms + STATEMENT_MS);
	pq.PQfreemem(escaped);
	pg_exec(&p->base, sql);
	free(sql);
	p->answer_ms = wait_ms + STATEMENT_MS + connect_ms;
	return &p->base;
}
