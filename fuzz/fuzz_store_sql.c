/* fuzz_store_sql.c — a store of any schema and values, as a user meets
 * one: `ddx --store FILE` from elsewhere.  The input is SQL, run on a
 * fresh file marked as a ddx store of the current version (so the
 * fuzzer works with tables, views, triggers, indexes and values rather
 * than with SQLite's page format, which fuzz_store covers); then
 * `ddx baselines`, `baselines show NAME` (for the first names the file
 * holds, with --config), `ddx check` (text and --json) and `ddx
 * failures` (text and --json) run on it,
 * as commands.  Each must end with exit 0, 1 or 2, in bounded time, and
 * print nothing a terminal would act on, on stdout or stderr: every
 * string from a store goes through the escaping writer.  Seeds: dumps of
 * stores ddx made (`sqlite3 FILE .dump`) and crafted ones.
 *
 * main.c is compiled with main renamed to ddx_main for this target.
 * Files live in a directory of their own under /dev/shm (or $TMPDIR):
 * SQLite wants real files for its locks and WAL. */
#include <fcntl.h>
#include <sqlite3.h>
#include <strings.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_run.h"
#include "store.h"


/* What the input's SQL may do in building the file: bounded, so that the
 * fuzzer spends its time in ddx. */
#define SETUP_OPS 1000000
#define SETUP_VALUE_MAX 100000

static char dir[200], store[256], bad[256];
static int out_fd = -1;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" :
			   getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	snprintf(dir, sizeof(dir), "%s/ddx-fuzz-store-sql-XXXXXX", base);
	if (!mkdtemp(dir))
		abort();
	snprintf(store, sizeof(store), "%s/crafted.ddx", dir);
	snprintf(bad, sizeof(bad), "%s/bad.log", dir);
	/* The bad log check compares: a server that started and stopped. */
	static const char log[] =
		"2026-02-20 09:12:01,102 INFO starting server on port 8080\n"
		"2026-02-20 09:12:02,500 INFO loading model weights\n"
		"2026-02-20 09:12:05,000 ERROR CUDA out of memory\n";
	int fd = open(bad, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, log, sizeof(log) - 1) != (ssize_t)(sizeof(log) - 1))
		abort();
	close(fd);
	out_fd = memfd_create("fuzz.out", 0);
	if (out_fd < 0)
		abort();
	setenv("XDG_CONFIG_HOME", "/nonexistent", 1);
	setenv("NO_COLOR", "1", 1);
	unsetenv("DDX_STORE");
	return 0;
}

/* Stops the input's SQL past SETUP_OPS operations. */
static int setup_progress(void *ctx)
{
	return ++*(int *)ctx > SETUP_OPS / 1000;
}

/* The input may build tables, not reach outside its file. */
static int setup_auth(void *ctx, int action, const char *a, const char *b, const char *c,
		      const char *d)
{
	(void)ctx, (void)a, (void)b, (void)c, (void)d;
	return action == SQLITE_ATTACH || action == SQLITE_DETACH ? SQLITE_DENY : SQLITE_OK;
}

/* Make the store file from sql; the names of up to max baselines go to
 * names (malloc'd, NUL-terminated, as SQLite hands them). */
static size_t make_store(const char *sql, char **names, size_t max)
{
	sqlite3 *db;
	if (sqlite3_open_v2(store, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK)
		abort();
	int ticks = 0;
	sqlite3_progress_handler(db, 1000, setup_progress, &ticks);
	sqlite3_limit(db, SQLITE_LIMIT_LENGTH, SETUP_VALUE_MAX);
	sqlite3_set_authorizer(db, setup_auth, NULL);
	char head[96];
	snprintf(head, sizeof(head), "PRAGMA application_id = %d; PRAGMA user_version = %d",
		 0x64647831, STORE_VERSION);
	sqlite3_exec(db, head, NULL, NULL, NULL);
	sqlite3_exec(db, sql, NULL, NULL, NULL);
	sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	size_t n = 0;
	sqlite3_stmt *s = NULL;
	ticks = 0;
	if (sqlite3_prepare_v2(db, "SELECT name FROM baseline", -1, &s, NULL) == SQLITE_OK)
		while (n < max && sqlite3_step(s) == SQLITE_ROW) {
			const char *name = (const char *)sqlite3_column_text(s, 0);
			if (name)
				names[n++] = xstrdup(name);
		}
	sqlite3_finalize(s);
	sqlite3_close(db);
	return n;
}

static void run(char **argv)
{
	fuzz_run_ddx(argv, out_fd, 1);
	fuzz_check_fd(out_fd, 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *sql = xmalloc(size + 1);
	memcpy(sql, data, size);
	sql[size] = '\0';
	/* VACUUM INTO writes a file of the input's naming. */
	if (strcasestr(sql, "vacuum")) {
		free(sql);
		return -1;
	}
	static const char *const suffixes[] = { "", "-wal", "-shm", "-journal" };
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		char p[300];
		snprintf(p, sizeof(p), "%s%s", store, suffixes[i]);
		unlink(p);
	}
	char *names[3];
	size_t n = make_store(sql, names, 3);
	free(sql);

	run((char *[]){ "ddx", "baselines", "--store", store, NULL });
	for (size_t i = 0; i < n; i++) {
		run((char *[]){ "ddx", "baselines", "--store", store, "show", names[i], NULL });
		run((char *[]){ "ddx", "baselines", "--store", store, "--config", "show", names[i], NULL });
		free(names[i]);
	}
	run((char *[]){ "ddx", "check", "--store", store, "--no-proc", bad, NULL });
	run((char *[]){ "ddx", "check", "--store", store, "--no-proc", "--json", bad, NULL });
	run((char *[]){ "ddx", "failures", "--store", store, NULL });
	run((char *[]){ "ddx", "failures", "--store", store, "--json", NULL });
	return 0;
}
