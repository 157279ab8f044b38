/* fuzz_mask.c — masking one message: the template text and the spans of
 * the values and their keys. */
#include "fuzz.h"
#include "mask.h"

static void check(const char *msg, size_t len, const struct masked *m)
{
	FUZZ_CHECK(m->text.p && m->text.p[m->text.len] == '\0');
	/* Template texts are used as C strings. */
	FUZZ_CHECK(strlen(m->text.p) == m->text.len);
	uint32_t prev = 0;
	for (size_t i = 0; i < m->nv; i++) {
		const struct value *v = &m->v[i];
		FUZZ_CHECK(v->type < V_NTYPES);
		FUZZ_CHECK(v->off <= len && v->len <= len - v->off);
		FUZZ_CHECK(v->key_off <= len && v->key_len <= len - v->key_off);
		FUZZ_CHECK(v->off >= prev);
		prev = v->off;
		/* A value kept in the text never holds a NUL. */
		FUZZ_CHECK(v->type != V_WORD || !memchr(msg + v->off, '\0', v->len));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* One struct for both calls: the second reuses the first's buffers. */
	struct masked m = { 0 };
	const char *msg = (const char *)data;
	mask_message(msg + size / 2, size - size / 2, &m);
	check(msg + size / 2, size - size / 2, &m);
	mask_message(msg, size, &m);
	check(msg, size, &m);
	masked_free(&m);
	return 0;
}
