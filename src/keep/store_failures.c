/* store_failures.c — the failure memory (version 3): every run `check`
 * found failing, by signature, and (version 5) what fixed it.  A store
 * of version 2 read as it is (see open_file) has none, one of version 3
 * or 4 no fixes, and its records no content.  See store.h. */
#include "store_impl.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The latest fix of key into *fix (text NULL when none, or in a store
 * of version 4 or older). */
static int latest_fix(struct store *st, const char *key, struct failure_fix *fix, struct arena *a)
{
	fix->text = NULL;
	if (st->version < 5)
		return 0;
	struct db_stmt *s = prepare(st, "SELECT text, host, fixed FROM fix WHERE signature = $1"
				    " ORDER BY fixed DESC, id DESC LIMIT 1");
	if (!s)
		return -1;
	bind_str(s, 1, key);
	int rc = db_step(s);
	if (rc == DB_ROW) {
		fix->text = col_str(s, 0, a);
		fix->host = col_str(s, 1, a);
		fix->fixed = col_seconds(s, 2);
	}
	db_finalize(s);
	return rc == DB_ROW || rc == DB_DONE ? 0 : db_error(st, "cannot read the failure memory");
}

/* The condition on a record that makes it another run than the one of
 * content (parameter $i): every record of a store of version 4 or older,
 * whose records have no content. */
static const char *other_run(const struct store *st, int i, char *cond, size_t size)
{
	if (st->version < 5)
		return "";
	snprintf(cond, size, " AND (content IS NULL OR content <> $%d)", i);
	return cond;
}

void failure_host(char *out, size_t size)
{
	const char *env = getenv("DDX_HOST");
	if (env && *env)
		snprintf(out, size, "%s", env);
	else if (gethostname(out, size) < 0 || !*out)
		snprintf(out, size, "unknown");
	out[size - 1] = '\0';
}

int store_failure_seen(struct store *st, const char *key, const char *content,
		       struct failure_seen *out, struct arena *a)
{
	out->count = 0;
	out->first = 0;
	out->nruns = 0;
	out->fix.text = NULL;
	out->now = now_s();
	if (st->version < 3)
		return error("'%s': no failure memory: the store is of schema version 2 and read-only "
			     "(a learn into it upgrades it)", st->shown);
	/* The same content checked again is the same run: it is no
	 * earlier run of its own signature. */
	char cond[64], sql[256];
	snprintf(sql, sizeof(sql), "SELECT count(*), min(seen) FROM failure WHERE signature = $1%s",
		 other_run(st, 2, cond, sizeof(cond)));
	struct db_stmt *s = prepare(st, sql);
	if (!s)
		return -1;
	bind_str(s, 1, key);
	if (st->version >= 5)
		bind_str(s, 2, content);
	if (db_step(s) != DB_ROW) {
		db_finalize(s);
		return db_error(st, "cannot read the failure memory");
	}
	out->count = col_count(s, 0);
	out->first = col_seconds(s, 1);
	db_finalize(s);
	snprintf(sql, sizeof(sql), "SELECT name, host, baseline, seen FROM failure WHERE signature = $1%s"
		 " ORDER BY seen DESC, id DESC LIMIT $2", other_run(st, 3, cond, sizeof(cond)));
	if (!(s = prepare(st, sql)))
		return -1;
	/* A run of one name on one host, checked again after a change to
	 * its content, is named once: the latest of each name and host,
	 * among a few more records than are shown. */
	bind_str(s, 1, key);
	db_bind_int(s, 2, SEEN_RUNS_MAX * 8);
	if (st->version >= 5)
		bind_str(s, 3, content);
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
	return latest_fix(st, key, &out->fix, a);
}

int failure_held(struct store *st, const struct failure *f)
{
	if (st->version < 5)
		return 0;
	struct db_stmt *s = prepare(st, f->content ?
				    "SELECT 1 FROM failure WHERE signature = $1 AND content = $2 LIMIT 1" :
				    "SELECT 1 FROM failure WHERE signature = $1 AND content IS NULL"
				    " AND name = $2 AND host = $3 AND seen = $4 LIMIT 1");
	if (!s)
		return -1;
	bind_str(s, 1, f->key);
	if (f->content) {
		bind_str(s, 2, f->content);
	} else {
		bind_str(s, 2, f->name);
		bind_str(s, 3, f->host);
		db_bind_int(s, 4, f->seen);
	}
	int rc = db_step(s);
	db_finalize(s);
	return rc == DB_ROW ? 1 : rc == DB_DONE ? 0 : db_error(st, "cannot read the failure memory");
}

int failure_insert(struct store *st, const struct failure *f)
{
	struct db_stmt *s = prepare(st, st->version >= 5 ?
				    "INSERT INTO failure (signature, summary, verdict, name, host, seen,"
				    " baseline, content) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)" :
				    "INSERT INTO failure (signature, summary, verdict, name, host, seen,"
				    " baseline) VALUES ($1, $2, $3, $4, $5, $6, $7)");
	if (!s)
		return -1;
	bind_str(s, 1, f->key);
	bind_str(s, 2, f->summary);
	bind_str(s, 3, f->verdict);
	bind_str(s, 4, f->name);
	bind_str(s, 5, f->host);
	db_bind_int(s, 6, f->seen);
	bind_str(s, 7, f->baseline);
	if (st->version >= 5)
		bind_str(s, 8, f->content);
	return step_done(st, s);
}

int fix_held(struct store *st, const char *key, const char *text, int64_t fixed)
{
	struct db_stmt *s = prepare(st, "SELECT 1 FROM fix WHERE signature = $1 AND text = $2"
				    " AND fixed = $3 LIMIT 1");
	if (!s)
		return -1;
	bind_str(s, 1, key);
	bind_str(s, 2, text);
	db_bind_int(s, 3, fixed);
	int rc = db_step(s);
	db_finalize(s);
	return rc == DB_ROW ? 1 : rc == DB_DONE ? 0 : db_error(st, "cannot read the fixes");
}

int fix_insert(struct store *st, const char *key, const char *text, const char *host,
	       int64_t fixed)
{
	struct db_stmt *s = prepare(st, "INSERT INTO fix (signature, text, host, fixed)"
				    " VALUES ($1, $2, $3, $4)");
	if (!s)
		return -1;
	bind_str(s, 1, key);
	bind_str(s, 2, text);
	bind_str(s, 3, host);
	db_bind_int(s, 4, fixed);
	return step_done(st, s);
}

int store_failure_record(struct store *st, const struct failure *f)
{
	/* A reader's connection is read-only: the record is written
	 * through one of its own, as store_refresh does, quietly: the one
	 * line said is the one below. */
	struct store w;
	if (open_writer(st, BUSY_MS, &w) < 0)
		return error("'%s': failure not recorded: %s", st->shown, strerror(errno));
	int dup = -1;
	/* A run is recorded once, however often it is checked. */
	int ok = !db_err(w.db) && begin_write(&w) == 0 && (dup = failure_held(&w, f)) >= 0 &&
		 (dup || failure_insert(&w, f) == 0) && commit(&w) == 0;
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
		if (latest_fix(st, f->key, &f->fix, a) < 0)
			return -1;
	}
	return 0;
}

int store_failure_find(struct store *st, const char *given, const char **key, struct arena *a)
{
	*key = NULL;
	if (st->version < 3)
		return 0;
	/* The whole signature, else a prefix of it, as git takes a commit's. */
	struct db_stmt *s = prepare(st, "SELECT DISTINCT signature FROM failure WHERE signature = $1"
				    " OR ($2 >= 4 AND substr(signature, 1, CAST($2 AS INTEGER)) = $1) LIMIT 2");
	if (!s)
		return -1;
	bind_str(s, 1, given);
	db_bind_int(s, 2, (int64_t)strlen(given));
	int rc, n = 0;
	while ((rc = db_step(s)) == DB_ROW) {
		const char *k = col_str(s, 0, a);
		if (strcmp(k, given) == 0 || !*key)
			*key = k;
		n++;
	}
	db_finalize(s);
	if (rc != DB_DONE)
		return db_error(st, "cannot read the failure memory");
	if (n == 2 && strcmp(*key, given) != 0)
		return error("'%s': '%s' begins more than one signature: give more of it", st->shown,
			     given);
	return *key ? 1 : 0;
}

int store_fix_record(struct store *st, const char *key, const char *text, const char *host)
{
	if (begin_write(st) < 0 || fix_insert(st, key, text, host, now_s()) < 0 || commit(st) < 0) {
		db_rollback(st->db);
		return -1;
	}
	return 0;
}

