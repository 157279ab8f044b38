/* fuzz_log.c — the whole per-line pipeline (input, prefix, mask,
 * template) through log_load on a file, then clustering, milestone rules
 * and re-reading every line as the reports do.
 *
 * The file is a memfd: no disk, and log_load maps it as it maps a log.
 * Compressed inputs are left to fuzz_input, which can cap their expansion
 * (log_load allows 256 MiB, too slow to fuzz). */
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "log.h"
#include "prefix.h"
#include "rules.h"

static int fd = -1;
static char path[64];
static struct ruleset rules;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	fd = memfd_create("fuzz.log", 0);
	if (fd < 0 || rules_builtin(&rules) < 0)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return 0;
}

static void check(const struct log *lg, const struct tmpl_table *tt)
{
	struct buf scratch = { 0 };
	FUZZ_CHECK(lg->nlines == input_count_lines(lg->in.data, lg->in.size));
	for (size_t i = 0; i < lg->nlines; i++) {
		FUZZ_CHECK(lg->tid[i] < tt->n);
		FUZZ_CHECK(lg->offset[i] < lg->in.size);
		FUZZ_CHECK(i == 0 || lg->offset[i] > lg->offset[i - 1]);
		FUZZ_CHECK(lg->tag[i] == 0 || lg->tag[i] < lg->ntags);
		FUZZ_CHECK(lg->level[i] <= LV_FATAL);
		struct line ln;
		struct header h;
		log_line(lg, i, &ln, &h, &scratch);
		FUZZ_CHECK(h.msg_off <= ln.len && h.tag_off + h.tag_len <= ln.len);
	}
	buf_free(&scratch);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if ((size >= 2 && memcmp(data, "\x1f\x8b", 2) == 0) ||
	    (size >= 4 && memcmp(data, "\x28\xb5\x2f\xfd", 4) == 0))
		return -1;  /* not added to the corpus */
	if (ftruncate(fd, 0) < 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	struct tmpl_table tt;
	tmpl_init(&tt);
	struct log lg[2];
	int n = 0;
	/* The same file twice, as two logs sharing one table. */
	for (; n < 2; n++)
		if (log_load(&lg[n], path, n, LOG_FULL, 1 + n, &tt) < 0)
			break;
	for (int i = 0; i < n; i++)
		check(&lg[i], &tt);
	if (n == 2) {
		FUZZ_CHECK(lg[0].nlines == lg[1].nlines);
		for (size_t i = 0; i < lg[0].nlines; i++)
			FUZZ_CHECK(lg[0].tid[i] == lg[1].tid[i]);
		uint32_t *map = xmalloc((tt.n ? tt.n : 1) * sizeof(*map));
		const char **texts = NULL;
		size_t nc = tmpl_cluster(&tt, map, &texts);
		for (size_t id = 0; id < tt.n; id++)
			FUZZ_CHECK(map[id] < nc);
		int32_t *ms = xmalloc((tt.n ? tt.n : 1) * sizeof(*ms));
		rules_match(&rules, &tt, ms);
		free(ms);
		free(texts);
		free(map);
	}
	for (int i = 0; i < n; i++)
		log_free(&lg[i]);
	tmpl_free(&tt);
	return 0;
}
