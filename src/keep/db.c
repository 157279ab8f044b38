/* db.c — the parts of db.h both back-ends share: dispatch, and keeping
 * a connection's last error.  See db.h. */
#include "db.h"

#include <stdio.h>
#include <string.h>

int db_fail(struct db *db, enum db_err err, const char *msg)
{
	db->err = err;
	/* The first line: engines add hints on lines of their own. */
	size_t n = msg ? strcspn(msg, "\n") : 0;
	while (n > 0 && (msg[n - 1] == ' ' || msg[n - 1] == '\r'))
		n--;
	snprintf(db->msg, sizeof(db->msg), "%.*s", (int)n, msg ? msg : "");
	return -1;
}

void db_close(struct db *db)
{
	if (db)
		db->ops->close(db);
}

enum db_err db_err(const struct db *db)
{
	return db->err;
}

const char *db_errmsg(const struct db *db)
{
	return db->msg;
}

int db_exec(struct db *db, const char *sql)
{
	return db->ops->exec(db, sql);
}

int db_begin_write(struct db *db)
{
	return db->ops->begin_write(db);
}

int db_commit(struct db *db)
{
	return db->ops->commit(db);
}

void db_rollback(struct db *db)
{
	enum db_err err = db->err;
	char msg[sizeof(db->msg)];
	memcpy(msg, db->msg, sizeof(msg));
	db->ops->rollback(db);
	db->err = err;
	memcpy(db->msg, msg, sizeof(msg));
}

struct db_stmt *db_prepare(struct db *db, const char *sql)
{
	return db->ops->prepare(db, sql);
}

void db_bind_int(struct db_stmt *s, int i, int64_t v)
{
	s->db->ops->bind(s, i, DB_INT, v, NULL, 0);
}

void db_bind_text(struct db_stmt *s, int i, const char *p, size_t n)
{
	s->db->ops->bind(s, i, DB_TEXT, 0, p, n);
}

void db_bind_blob(struct db_stmt *s, int i, const void *p, size_t n)
{
	s->db->ops->bind(s, i, DB_BLOB, 0, p, n);
}

void db_bind_null(struct db_stmt *s, int i)
{
	s->db->ops->bind(s, i, DB_NULL, 0, NULL, 0);
}

int db_step(struct db_stmt *s)
{
	return s->db->ops->step(s);
}

void db_reset(struct db_stmt *s)
{
	s->db->ops->reset(s);
}

void db_finalize(struct db_stmt *s)
{
	if (s)
		s->db->ops->finalize(s);
}

int db_col_type(struct db_stmt *s, int i)
{
	return s->db->ops->col_type(s, i);
}

int64_t db_col_int(struct db_stmt *s, int i)
{
	return s->db->ops->col_int(s, i);
}

double db_col_double(struct db_stmt *s, int i)
{
	return s->db->ops->col_double(s, i);
}

const char *db_col_text(struct db_stmt *s, int i)
{
	if (s->db->ops->col_type(s, i) == DB_NULL)
		return NULL;
	return s->db->ops->col_blob(s, i);
}

const void *db_col_blob(struct db_stmt *s, int i)
{
	return s->db->ops->col_blob(s, i);
}

size_t db_col_bytes(struct db_stmt *s, int i)
{
	return s->db->ops->col_bytes(s, i);
}
