/* store_runs.c — baselines and their runs in the store: listing and
 * reading them, compressing a run's content into chunks and back,
 * learning runs (each content once per baseline), refreshing their
 * templates, removing a baseline.  See store.h. */
#include "store_impl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#define ZSTD_LEVEL 6

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

int load_detail(struct store *st, struct run *r, struct arena *a)
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

int read_runs(struct store *st, const char *key, int64_t v, int want_detail,
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

int load_chunks(struct store *st, int64_t id, struct chunk **out, size_t *n)
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

int unchunk(const char *shown, const struct chunk *c, char **out)
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

int has_content(struct store *st, int64_t baseline, uint64_t hash, uint64_t size,
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

int64_t baseline_id(struct store *st, const char *name, int64_t now)
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

int touch(struct store *st, int64_t id, int64_t now)
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

int insert_config(struct store *st, int64_t run, const struct kv *cfg, size_t n)
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

int insert_run(struct store *st, int64_t baseline, struct run *r)
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
	struct store w;
	if (open_writer(st, 1000, &w) < 0)
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
