/* store_transfer.c — moving baselines and the failure memory between
 * stores: an export is a new SQLite store holding one baseline, or the
 * failure memory; an import merges every baseline of such a file into
 * the store, as learn would, or its failure memory, as check would.  See
 * store.h. */
#include "store_impl.h"

#include <stdlib.h>
#include <string.h>

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

/* Copy the failure records and fixes of from into to, in to's
 * transaction; with dedupe, those to holds already (failure_held; a fix of
 * the same signature, text and time) are skipped.  *nrec and *nfix count
 * those added.  One statement walks each table, its rows read one at a
 * time. */
static int copy_failures(struct store *from, struct store *to, int dedupe, size_t *nrec,
			 size_t *nfix)
{
	*nrec = *nfix = 0;
	if (from->version < 3)
		return 0;
	struct db_stmt *s = prepare(from, from->version >= 5 ?
				    "SELECT signature, summary, verdict, name, host, seen, baseline,"
				    " content FROM failure ORDER BY id" :
				    "SELECT signature, summary, verdict, name, host, seen, baseline,"
				    " NULL FROM failure ORDER BY id");
	if (!s)
		return -1;
	int rc, r = 0;
	while (r == 0 && (rc = db_step(s)) == DB_ROW) {
		struct arena a = { 0 };
		struct failure f = { col_str(s, 0, &a), col_str(s, 1, &a), col_str(s, 2, &a),
				     col_str(s, 3, &a), col_str(s, 4, &a), col_str(s, 6, &a),
				     col_seconds(s, 5),
				     db_col_type(s, 7) == DB_NULL ? NULL : col_str(s, 7, &a) };
		int dup = dedupe ? failure_held(to, &f) : 0;
		if (dup < 0 || (!dup && failure_insert(to, &f) < 0))
			r = -1;
		else
			*nrec += !dup;
		arena_free(&a);
	}
	db_finalize(s);
	if (r == 0 && rc != DB_DONE)
		return db_error(from, "cannot read the failure memory");
	if (r < 0 || from->version < 5)
		return r;
	if (!(s = prepare(from, "SELECT signature, text, host, fixed FROM fix ORDER BY id")))
		return -1;
	while (r == 0 && (rc = db_step(s)) == DB_ROW) {
		struct arena a = { 0 };
		const char *key = col_str(s, 0, &a), *text = col_str(s, 1, &a);
		const char *host = col_str(s, 2, &a);
		int64_t fixed = col_seconds(s, 3);
		int dup = dedupe ? fix_held(to, key, text, fixed) : 0;
		if (dup < 0 || (!dup && fix_insert(to, key, text, host, fixed) < 0))
			r = -1;
		else
			*nfix += !dup;
		arena_free(&a);
	}
	db_finalize(s);
	if (r == 0 && rc != DB_DONE)
		return db_error(from, "cannot read the fixes");
	return r;
}

/* Begin an export of st, held still in a write transaction of its own
 * (a learn, rm or check meanwhile waits, so that the copy is st at one
 * moment), into the empty file into (shown as file): a new store, in a
 * write transaction.  NULL after an error, st let go. */
static struct store *export_begin(struct store *st, const char *file, const char *into)
{
	/* A plain rollback-journal file: one file to hand over, no -wal. */
	struct store *out = new_store(into, file);
	out->db = db_sqlite_open(into, DB_CREATE, BUSY_MS, VALUE_MAX);
	out->version = STORE_VERSION;
	if (db_err(out->db))
		error("cannot open '%s': %s", file, db_errmsg(out->db));
	else if (exec(out, "PRAGMA journal_mode = DELETE") == 0 && begin_write(out) == 0 &&
		 create_schema(out, 0) == 0)
		return out;
	db_rollback(out->db);
	store_close(out);
	db_rollback(st->db);
	return NULL;
}

/* End an export begun by export_begin: out committed when ok, st let go
 * (nothing was written to it).  1 when written, else -1. */
static int export_end(struct store *st, struct store *out, int ok)
{
	if (ok && commit(out) < 0)
		ok = 0;
	if (!ok)
		db_rollback(out->db);
	db_rollback(st->db);
	store_close(out);
	return ok ? 1 : -1;
}

int store_export_failures(struct store *st, const char *file, const char *into, size_t *nrec,
			  size_t *nfix)
{
	*nrec = *nfix = 0;
	if (st->version < 3)
		return 0;
	if (begin_write(st) < 0)
		return -1;
	int64_t n = query_int(st, "SELECT count(*) FROM failure");
	if (n <= 0) {
		db_rollback(st->db);
		return n < 0 ? -1 : 0;
	}
	struct store *out = export_begin(st, file, into);
	if (!out)
		return -1;
	return export_end(st, out, copy_failures(st, out, 0, nrec, nfix) == 0);
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
	struct store *out = export_begin(st, file, into);
	if (!out) {
		arena_free(&a);
		return -1;
	}
	size_t nr = 0;
	struct db_stmt *s;
	int64_t id = -1;
	if ((s = prepare(out, "INSERT INTO baseline (name, created, updated) VALUES ($1, $2, $3)"
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
	arena_free(&a);
	return export_end(st, out, ok);
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

int store_import_failures(struct store *st, const char *file, size_t *nrec, size_t *nfix)
{
	*nrec = *nfix = 0;
	struct store *in = open_import(file);
	if (!in)
		return -1;
	int r = begin_write(st) == 0 && copy_failures(in, st, 1, nrec, nfix) == 0 &&
		commit(st) == 0 ? 0 : -1;
	if (r < 0) {
		db_rollback(st->db);
		*nrec = *nfix = 0;
	}
	store_close(in);
	return r;
}
