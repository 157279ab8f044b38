/* fuzz_store.c — the store's file format and the configuration dumps
 * learn keeps.  The input is written to a file, opened as a store
 * (`ddx --store FILE`) and imported into a fresh one (`ddx baselines
 * import`); each is then read back the ways `ddx baselines` and `ddx
 * check` read a store (baselines, runs with templates and configuration,
 * content decompressed).  The same bytes, as a log, go through
 * logmeta_config.  Seeds: small exports (page size 512) and logs.
 *
 * Files live in a directory of their own under /dev/shm (or $TMPDIR):
 * SQLite wants real files for its locks and journal. */
#include <fcntl.h>
#include <unistd.h>

#include "fuzz.h"
#include "logmeta.h"
#include "rules.h"
#include "store.h"

static char import_path[256], store_path_[256], journal[300];
static struct ruleset rules;   /* the built-in ones: their config rules */
static int null_fd = -1;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" :
			   getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char dir[200];
	snprintf(dir, sizeof(dir), "%s/ddx-fuzz-store-XXXXXX", base);
	if (!mkdtemp(dir))
		abort();
	snprintf(import_path, sizeof(import_path), "%s/import.ddx", dir);
	snprintf(store_path_, sizeof(store_path_), "%s/store.db", dir);
	snprintf(journal, sizeof(journal), "%s-journal", store_path_);
	null_fd = open("/dev/null", O_WRONLY);
	if (null_fd < 0 || rules_builtin(&rules) < 0)
		abort();
	return 0;
}

static void parse_config(const uint8_t *data, size_t size)
{
	struct arena a = { 0 };
	struct kv *kv = NULL;
	size_t n = 0;
	logmeta_config(&rules, "other", (const char *)data, size, &kv, &n, &a);
	for (size_t i = 0; i < n; i++)
		FUZZ_CHECK(kv[i].key && kv[i].value && kv[i].key[0]);
	free(kv);
	arena_free(&a);
}

/* Everything a reader of the store looks at. */
static void read_back(struct store *st)
{
	struct arena a = { 0 };
	struct baseline *b = NULL;
	size_t nb = 0;
	if (store_list(st, &b, &nb, &a) == 0) {
		for (size_t i = 0; i < nb; i++) {
			FUZZ_CHECK(b[i].name);
			struct run *runs = NULL;
			size_t nr = 0;
			if (store_runs(st, b[i].id, 1, &runs, &nr, &a) < 0)
				continue;
			for (size_t k = 0; k < nr; k++) {
				FUZZ_CHECK(runs[k].name && runs[k].format && runs[k].engine);
				for (size_t t = 0; t < runs[k].ntmpl; t++)
					FUZZ_CHECK(runs[k].tmpl[t].text);
				store_run_write(st, runs[k].id, null_fd);
			}
			store_runs_free(runs, nr);
		}
	}
	free(b);
	arena_free(&a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	parse_config(data, size);

	int fd = open(import_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	close(fd);
	unlink(store_path_);
	unlink(journal);
	/* The file as a store of its own (`ddx --store FILE`), read-only... */
	int missing = 0;
	struct store *st = store_open(import_path, STORE_READ, &missing);
	if (st)
		read_back(st);
	store_close(st);
	/* ...and imported into a fresh one. */
	st = store_open(store_path_, STORE_WRITE, &missing);
	FUZZ_CHECK(st != NULL);
	size_t nb, nr;
	if (store_import(st, import_path, &nb, &nr) == 0)
		read_back(st);
	store_close(st);
	return 0;
}
