/* fuzz_template.c — interning masked lines and clustering the
 * templates. */
#include "fuzz.h"
#include "mask.h"
#include "template.h"

#define MAX_LINES 2000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_lines fl;
	fuzz_lines_split(&fl, data, size, MAX_LINES);
	struct tmpl_table tt;
	tmpl_init(&tt);
	struct masked m = { 0 };
	for (size_t i = 0; i < fl.n; i++) {
		mask_message(fl.p[i], fl.len[i], &m);
		/* A level the line picks itself, so that equal texts meet with
		 * different levels. */
		int level = fl.len[i] ? (unsigned char)fl.p[i][0] % 8 : 0;
		uint64_t h = tmpl_hash(m.text.p, m.text.len, level);
		uint32_t id = tmpl_intern(&tt, m.text.p, m.text.len, level, h);
		FUZZ_CHECK(id < tt.n);
		const struct tmpl *t = &tt.t[id];
		FUZZ_CHECK(t->len == m.text.len && t->level == level && t->hash == h);
		FUZZ_CHECK(memcmp(t->text, m.text.p, m.text.len) == 0 && t->text[t->len] == '\0');
		FUZZ_CHECK(tmpl_intern(&tt, m.text.p, m.text.len, level, h) == id);
		tt.t[id].count++;
	}
	uint32_t *map = xmalloc((tt.n ? tt.n : 1) * sizeof(*map));
	const char **texts = NULL;
	size_t nc = tmpl_cluster(&tt, map, &texts);
	FUZZ_CHECK(nc <= tt.n && (nc > 0 || tt.n == 0));
	uint8_t *level = xmalloc(nc ? nc : 1);
	size_t next = 0;
	for (size_t id = 0; id < tt.n; id++) {
		FUZZ_CHECK(map[id] < nc);
		/* Clusters are numbered in order of their smallest member. */
		FUZZ_CHECK(map[id] <= next);
		if (map[id] == next) {
			level[next++] = tt.t[id].level;
			FUZZ_CHECK(texts[map[id]] != NULL);
			(void)strlen(texts[map[id]]);
		}
		FUZZ_CHECK(level[map[id]] == tt.t[id].level);
	}
	FUZZ_CHECK(next == nc);
	free(level);
	free(texts);
	free(map);
	masked_free(&m);
	tmpl_free(&tt);
	fuzz_lines_free(&fl);
	return 0;
}
