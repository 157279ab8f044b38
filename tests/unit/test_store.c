/* test_store.c — the baseline store, on real SQLite files in a temporary
 * directory. */
#include <fcntl.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "logmeta.h"
#include "prefix.h"
#include "rules.h"
#include "store.h"
#include "test.h"

static char dir[] = "/tmp/ddx-test-store-XXXXXX";

static char *tmp_path(const char *name)
{
	struct buf b = { 0 };
	buf_printf(&b, "%s/%s", dir, name);
	return b.p;
}

static void write_file(const char *path, const char *data, size_t n)
{
	FILE *f = fopen(path, "wb");
	fwrite(data, 1, n, f);
	fclose(f);
}

/* The whole file, malloc'd; *n its size. */
static char *read_file(const char *path, size_t *n)
{
	struct buf b = { 0 };
	FILE *f = fopen(path, "rb");
	char tmp[4096];
	size_t k;
	while (f && (k = fread(tmp, 1, sizeof(tmp), f)) > 0)
		buf_append(&b, tmp, k);
	if (f)
		fclose(f);
	buf_append(&b, "", 0);
	*n = b.len;
	return b.p;
}

static int exists(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0;
}

static const char sglang_log[] =
	"[2026-02-23 00:36:50] server_args=ServerArgs(model_path='Qwen/Qwen2.5-7B', tp_size=2, "
	"dtype='auto', cuda_graph_config=CudaGraphConfig(bs=[1, 2]), port=30000)\n"
	"[2026-02-23 00:36:54 TP0] Load weight begin. avail mem=61.20 GB\n"
	"[2026-02-23 00:36:54 TP1] Load weight begin. avail mem=61.18 GB\n"
	"[2026-02-23 00:36:58 TP0] Load weight end. avail mem=45.02 GB\n"
	"[2026-02-23 00:36:58 TP1] Load weight end. avail mem=45.00 GB\n"
	"[2026-02-23 00:37:02] INFO:     Application startup complete.\n"
	"[2026-02-23 00:37:03] The server is fired up and ready to roll!\n";

/* A run of the log at path as learn makes it, templates in tt. */
/* The built-in rules, by which runs find their engine. */
static struct ruleset builtin;

static int make_run(const char *path, struct run *r, struct log *lg, struct tmpl_table *tt,
		    struct arena *a)
{
	memset(r, 0, sizeof(*r));
	tmpl_init(tt);
	if (log_load(lg, path, 0, LOG_FULL, 1, tt) < 0)
		return -1;
	r->name = path;
	r->lines = lg->nlines;
	r->first_ts = lg->ts[0];
	r->last_ts = lg->ts[lg->nlines - 1];
	r->mtime = lg->in.mtime;
	r->format = prefix_format_name(lg->format);
	r->pipeline = "test";
	r->ntmpl = tt->n;
	r->tmpl = xcalloc(tt->n, sizeof(*r->tmpl));
	for (size_t i = 0; i < tt->n; i++)
		r->tmpl[i] = (struct run_tmpl){ tt->t[i].text, tt->t[i].len, tt->t[i].level,
						tt->t[i].count, tt->t[i].first_line };
	r->engine = logmeta_engine(&builtin, r->tmpl, r->ntmpl, r->format);
	logmeta_config(&builtin, r->engine, lg->in.data, lg->in.size, &r->cfg, &r->ncfg, a);
	store_compress(r, lg->in.data, lg->in.size);
	return 0;
}

static void free_run(struct run *r, struct log *lg, struct tmpl_table *tt)
{
	free(r->tmpl);
	free(r->cfg);
	store_run_release(r);
	log_free(lg);
	tmpl_free(tt);
}

static void test_path(void)
{
	setenv("HOME", "/home/u", 1);
	unsetenv("DDX_STORE");
	unsetenv("XDG_DATA_HOME");
	char *p = store_path(NULL);
	CHECK_STR(p, "/home/u/.local/share/ddx/baselines.db");
	free(p);
	setenv("XDG_DATA_HOME", "relative/ignored", 1);
	p = store_path(NULL);
	CHECK_STR(p, "/home/u/.local/share/ddx/baselines.db");
	free(p);
	setenv("XDG_DATA_HOME", "/xdg", 1);
	p = store_path(NULL);
	CHECK_STR(p, "/xdg/ddx/baselines.db");
	free(p);
	setenv("DDX_STORE", "/env.db", 1);
	p = store_path(NULL);
	CHECK_STR(p, "/env.db");
	free(p);
	p = store_path("opt.db");
	CHECK_STR(p, "opt.db");
	free(p);
	unsetenv("DDX_STORE");
}

/* A URL's password never reaches a message; anything else is kept. */
static void test_shown(void)
{
	static const char *const cases[][2] = {
		{ "/var/lib/ddx.db", "/var/lib/ddx.db" },
		{ "postgresql://ci@db.example/ddx", "postgresql://ci@db.example/ddx" },
		{ "postgresql://ci:s3cret@db.example:5433/ddx", "postgresql://ci:***@db.example:5433/ddx" },
		{ "postgres://ci:p@ss:w@rd@db/ddx", "postgres://ci:***@db/ddx" },
		{ "postgresql://ci:x@/ddx?host=/run/pg&password=s3cret&sslmode=require",
		  "postgresql://ci:***@/ddx?host=/run/pg&password=***&sslmode=require" },
		{ "postgresql:///ddx?password=s3cret", "postgresql:///ddx?password=***" },
		{ "postgresql://db/ddx?xpassword=1", "postgresql://db/ddx?xpassword=1" },
		{ "s3://key:secret@bucket/x", "s3://key:***@bucket/x" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *p = store_shown(cases[i][0]);
		CHECK_STR(p, cases[i][1]);
		free(p);
	}
}

/* Learn, read back byte for byte, and run the pipeline on what came back:
 * the same lines, templates and timestamps as from the original file. */
static void test_round_trip(void)
{
	char *db = tmp_path("sub/dir/store.db"), *logp = tmp_path("good.log");
	write_file(logp, sglang_log, sizeof(sglang_log) - 1);
	/* A year-less timestamp takes its year from the file's mtime, which
	 * the stored run keeps. */
	struct timespec old[2] = { { .tv_sec = 1700000000 }, { .tv_sec = 1700000000 } };
	utimensat(AT_FDCWD, logp, old, 0);
	int missing;
	CHECK(store_open(db, STORE_READ, &missing) == NULL && missing);
	struct store *st = store_open(db, STORE_WRITE, &missing);
	CHECK(st != NULL);
	if (!st)
		return;
	struct arena a = { 0 };
	struct run r[2];
	struct log lg[2];
	struct tmpl_table tt[2];
	CHECK(make_run(logp, &r[0], &lg[0], &tt[0], &a) == 0);
	CHECK(make_run(logp, &r[1], &lg[1], &tt[1], &a) == 0);
	CHECK_STR(r[0].engine, "sglang");
	size_t added;
	/* The same content twice in one learn: stored once. */
	CHECK(store_learn(st, "sg", r, 2, &added) == 0);
	CHECK_INT(added, 1);
	CHECK(r[0].id > 0 && r[1].id == 0);
	CHECK(store_learn(st, "sg", r, 1, &added) == 0);
	CHECK_INT(added, 0);
	/* Same hash and size, other bytes: a collision must not drop it. */
	struct run fake = r[1];
	char *other = xmalloc(r[0].size);
	memcpy(other, lg[0].in.data, r[0].size);
	other[r[0].size - 2] = '?';
	fake.chunks = NULL;
	store_compress(&fake, other, r[0].size);
	fake.hash = r[0].hash;
	CHECK(store_learn(st, "sg", &fake, 1, &added) == 0);
	CHECK_INT(added, 1);
	store_run_release(&fake);
	free(other);

	struct baseline b;
	CHECK_INT(store_find(st, "sg", &b, &a), 1);
	CHECK_INT(b.nruns, 2);
	CHECK_STR(b.engine, "sglang");
	CHECK_INT(store_find(st, "nope", &b, &a), 0);
	struct run *runs;
	size_t n;
	CHECK(store_runs(st, b.id, 1, &runs, &n, &a) == 0);
	CHECK_INT(n, 2);
	CHECK_INT(runs[0].lines, 7);
	CHECK_INT(runs[0].ntmpl, r[0].ntmpl);
	CHECK_INT(runs[0].ncfg, 5);
	CHECK_INT(runs[0].first_ts, lg[0].ts[0]);
	CHECK_INT(runs[0].mtime, 1700000000);
	CHECK_STR(runs[0].format, "sglang");
	uint64_t total = 0;
	for (size_t i = 0; i < runs[0].ntmpl; i++)
		total += runs[0].tmpl[i].count;
	CHECK_INT(total, 7);

	int fd = memfd_create("t", 0);
	CHECK(store_run_write(st, runs[0].id, fd) == 0);
	futimens(fd, old);
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	size_t sz;
	char *back = read_file(path, &sz);
	CHECK(sz == sizeof(sglang_log) - 1 && memcmp(back, sglang_log, sz) == 0);
	free(back);
	struct log again;
	struct tmpl_table tt2;
	tmpl_init(&tt2);
	CHECK(log_load(&again, path, 0, LOG_FULL, 1, &tt2) == 0);
	CHECK_INT(again.nlines, lg[0].nlines);
	CHECK_INT(again.format, lg[0].format);
	CHECK_INT(tt2.n, tt[0].n);
	for (size_t i = 0; i < again.nlines && i < lg[0].nlines; i++) {
		CHECK_STR(tt2.t[again.tid[i]].text, tt[0].t[lg[0].tid[i]].text);
		CHECK_INT(again.ts[i], lg[0].ts[i]);
	}
	log_free(&again);
	tmpl_free(&tt2);
	close(fd);

	/* Export, import into another store, import again: nothing new. */
	char *exp = tmp_path("sg.ddx"), *db2 = tmp_path("other.db");
	CHECK_INT(store_export(st, "sg", exp, exp), 1);
	CHECK_INT(store_export(st, "nope", exp, exp), 0);
	struct store *st2 = store_open(db2, STORE_WRITE, &missing);
	size_t nb, nr;
	CHECK(store_import(st2, exp, &nb, &nr) == 0);
	CHECK(nb == 1 && nr == 2);
	CHECK(store_import(st2, exp, &nb, &nr) == 0);
	CHECK(nb == 1 && nr == 0);
	CHECK(store_import(st2, logp, &nb, &nr) < 0);
	struct baseline b2;
	CHECK_INT(store_find(st2, "sg", &b2, &a), 1);
	CHECK(b2.nruns == 2 && b2.size == b.size && b2.lines == b.lines);
	store_close(st2);
	/* The exported file is a store of its own, read in place. */
	struct stat before, after;
	stat(exp, &before);
	st2 = store_open(exp, STORE_READ, &missing);
	CHECK(st2 != NULL);
	CHECK_INT(store_find(st2, "sg", &b2, &a), 1);
	store_close(st2);
	stat(exp, &after);
	CHECK(before.st_mtime == after.st_mtime && before.st_size == after.st_size);
	char *wal = tmp_path("sg.ddx-wal");
	CHECK(!exists(wal));
	free(wal);

	CHECK_INT(store_remove(st, "sg"), 1);
	CHECK_INT(store_remove(st, "sg"), 0);
	CHECK_INT(store_find(st, "sg", &b, &a), 0);
	store_runs_free(runs, n);
	for (int i = 0; i < 2; i++)
		free_run(&r[i], &lg[i], &tt[i]);
	store_close(st);
	arena_free(&a);
	free(db);
	free(logp);
	free(exp);
	free(db2);
}

/* Opening path must fail, leaving the file byte for byte as it was and
 * no journal beside it. */
static void refused(const char *path, int mode)
{
	size_t n1, n2;
	char *before = read_file(path, &n1);
	int missing;
	struct store *st = store_open(path, mode, &missing);
	CHECK(st == NULL && !missing);
	store_close(st);
	char *after = read_file(path, &n2);
	CHECK(n1 == n2 && memcmp(before, after, n1) == 0);
	struct buf j = { 0 };
	buf_printf(&j, "%s-wal", path);
	CHECK(!exists(j.p));
	buf_reset(&j);
	buf_printf(&j, "%s-journal", path);
	CHECK(!exists(j.p));
	buf_free(&j);
	free(before);
	free(after);
}

static void test_foreign(void)
{
	char *p = tmp_path("text.db");
	write_file(p, "just some text\n", 15);
	refused(p, STORE_WRITE);
	refused(p, STORE_READ);
	free(p);
	p = tmp_path("image.db");
	static const char png[] = "\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10\0\0\0\x10\x08\x06\0\0\0"
				  "\x1f\xf3\xff" "a\0\0\0\0IEND\xae\x42\x60\x82";
	write_file(p, png, sizeof(png) - 1);
	refused(p, STORE_WRITE);
	free(p);
	/* SQLite databases of another application: with an application id,
	 * and without one but with tables. */
	const char *sqls[] = {
		"PRAGMA application_id = 1234; CREATE TABLE t (x); INSERT INTO t VALUES (1);",
		"CREATE TABLE baseline (x); INSERT INTO baseline VALUES (1);",
	};
	for (int i = 0; i < 2; i++) {
		p = tmp_path(i ? "app0.db" : "app.db");
		sqlite3 *db;
		sqlite3_open(p, &db);
		sqlite3_exec(db, sqls[i], NULL, NULL, NULL);
		sqlite3_close(db);
		refused(p, STORE_WRITE);
		refused(p, STORE_READ);
		free(p);
	}
	/* An empty file becomes a store; for a reader it holds nothing yet. */
	p = tmp_path("empty.db");
	write_file(p, "", 0);
	int missing;
	CHECK(store_open(p, STORE_READ, &missing) == NULL && missing);
	struct store *st = store_open(p, STORE_WRITE, &missing);
	CHECK(st != NULL);
	store_close(st);
	st = store_open(p, STORE_READ, &missing);
	CHECK(st != NULL);
	store_close(st);
	free(p);
}

/* The failure memory: what a signature was seen with, latest first, and
 * the list by count; a run (a content) counts once, however often it is
 * recorded, and is no earlier run of itself; the latest fix is told; a
 * read-only store refuses the record. */
static void test_failures(void)
{
	char *db = tmp_path("failures.db");
	int missing;
	struct store *st = store_open(db, STORE_WRITE, &missing);
	CHECK(st != NULL);
	if (!st) {
		free(db);
		return;
	}
	struct failure f[] = {
		{ "aaaa", "stopped after: x", "stopped", "run-1.log", "runner-1", "sg", 1000, "c1" },
		{ "bbbb", "crashed: y", "crashed", "run-2.log", "runner-2", "vl", 2000, "c2" },
		{ "aaaa", "stopped after: x", "stopped", "run-3.log", "runner-3", "sg", 3000, "c3" },
		{ "aaaa", "stopped after: x", "stopped", "run-4.log", "runner-4", "other", 3000, "c4" },
		/* run-1 checked again, later: the same run. */
		{ "aaaa", "stopped after: x", "stopped", "run-1.log", "runner-5", "sg", 4000, "c1" },
	};
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		CHECK_INT(store_failure_record(st, &f[i]), 0);
	struct arena a = { 0 };
	struct failure_seen seen;
	CHECK_INT(store_failure_seen(st, "aaaa", "c9", &seen, &a), 0);
	CHECK_INT(seen.count, 3);
	CHECK_INT(seen.first, 1000);
	CHECK_INT(seen.nruns, 3);
	CHECK(seen.fix.text == NULL);
	/* The same second: the later record first. */
	CHECK_STR(seen.runs[0].name, "run-4.log");
	CHECK_STR(seen.runs[1].host, "runner-3");
	CHECK_STR(seen.runs[2].baseline, "sg");
	/* Run-1's own content: the other two. */
	CHECK_INT(store_failure_seen(st, "aaaa", "c1", &seen, &a), 0);
	CHECK_INT(seen.count, 2);
	CHECK_INT(seen.first, 3000);
	CHECK_INT(seen.nruns, 2);
	CHECK_INT(store_failure_seen(st, "cccc", "c9", &seen, &a), 0);
	CHECK_INT(seen.count, 0);
	CHECK_INT(seen.nruns, 0);
	/* Fixes: found whole or by a prefix of 4 or more, the latest told. */
	const char *key;
	CHECK_INT(store_failure_find(st, "aaaa", &key, &a), 1);
	CHECK_STR(key, "aaaa");
	CHECK_INT(store_failure_find(st, "aaa", &key, &a), 0);
	CHECK_INT(store_failure_find(st, "dddd", &key, &a), 0);
	setenv("SOURCE_DATE_EPOCH", "5000", 1);
	CHECK_INT(store_fix_record(st, "bbbb", "first fix", "laptop"), 0);
	setenv("SOURCE_DATE_EPOCH", "6000", 1);
	CHECK_INT(store_fix_record(st, "bbbb", "second fix", "desk"), 0);
	unsetenv("SOURCE_DATE_EPOCH");
	CHECK_INT(store_failure_seen(st, "bbbb", "c9", &seen, &a), 0);
	CHECK_STR(seen.fix.text, "second fix");
	CHECK_STR(seen.fix.host, "desk");
	CHECK_INT(seen.fix.fixed, 6000);
	struct buf b = { 0 };
	signature_seen_sentence(&seen, &b);
	CHECK(b.p && strstr(b.p, "; fixed last time by: second fix (1970-01-01 01:40 UTC)") != NULL);
	/* Told even beside no earlier run. */
	CHECK_INT(store_failure_seen(st, "bbbb", "c2", &seen, &a), 0);
	CHECK_INT(seen.count, 0);
	seen.key = "bbbb";
	signature_seen_sentence(&seen, &b);
	CHECK_STR(b.p, "seen before: never (signature bbbb); fixed last time by: second fix "
		  "(1970-01-01 01:40 UTC)");
	buf_free(&b);
	struct failure_sig *fs;
	size_t n;
	CHECK_INT(store_failures(st, NULL, -1, &fs, &n, &a), 0);
	CHECK_INT(n, 2);
	if (n == 2) {
		CHECK_STR(fs[0].key, "aaaa");
		CHECK_INT(fs[0].count, 3);
		CHECK_INT(fs[0].last, 3000);
		CHECK_STR(fs[0].last_host, "runner-4");
		CHECK_INT(fs[0].nbaselines, 2);
		if (fs[0].nbaselines == 2) {
			CHECK_STR(fs[0].baselines[0], "other");
			CHECK_STR(fs[0].baselines[1], "sg");
		}
		CHECK(fs[0].fix.text == NULL);
		CHECK_STR(fs[1].summary, "crashed: y");
		CHECK_STR(fs[1].fix.text, "second fix");
	}
	free(fs);
	/* now_s() is SOURCE_DATE_EPOCH's: 3000 - 1000 reaches back to 2000. */
	setenv("SOURCE_DATE_EPOCH", "3000", 1);
	CHECK_INT(store_failures(st, "sg", 1000, &fs, &n, &a), 0);
	unsetenv("SOURCE_DATE_EPOCH");
	CHECK_INT(n, 1);
	if (n == 1) {
		CHECK_INT(fs[0].count, 1);
		CHECK_STR(fs[0].last_name, "run-3.log");
		CHECK_INT(fs[0].nbaselines, 1);
	}
	free(fs);
	store_close(st);
	/* Read-only: said on one line, nothing else. */
	if (geteuid() != 0) {
		CHECK_INT(chmod(db, 0444), 0);
		st = store_open(db, STORE_READ, &missing);
		CHECK(st != NULL);
		if (st) {
			fprintf(stderr, "(a note on the read-only store is expected:)\n");
			CHECK_INT(store_failure_record(st, &f[0]), -1);
			CHECK_INT(store_failure_seen(st, "aaaa", "c9", &seen, &a), 0);
			CHECK_INT(seen.count, 3);
			store_close(st);
		}
	}
	arena_free(&a);
	free(db);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	if (rules_builtin(&builtin) < 0)
		return 1;
	test_path();
	test_shown();
	test_round_trip();
	test_foreign();
	test_failures();
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", dir);
	rules_free(&builtin);
	return test_report();
}
