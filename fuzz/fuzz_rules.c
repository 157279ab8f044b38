/* fuzz_rules.c — parsing a rule file, then matching its rules against
 * templates made of its own lines. */
#include "fuzz.h"
#include "rules.h"

#define MAX_LINES 200

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ruleset rs = { 0 };
	/* Twice: the second text replaces the first's rules by name. */
	if (rules_parse(&rs, "fuzz.rules", (const char *)data, size) == 0 &&
	    rules_parse(&rs, "again.rules", (const char *)data, size) == 0) {
		for (size_t i = 0; i < rs.n; i++)
			FUZZ_CHECK(rs.r[i].name && rs.r[i].engine && rs.r[i].re && rs.r[i].pattern);
		struct fuzz_lines fl;
		fuzz_lines_split(&fl, data, size, MAX_LINES);
		struct tmpl_table tt;
		tmpl_init(&tt);
		for (size_t i = 0; i < fl.n; i++) {
			int level = (int)(i % 8);
			tmpl_intern(&tt, fl.p[i], fl.len[i], level,
				    tmpl_hash(fl.p[i], fl.len[i], level));
		}
		int32_t *out = xmalloc((tt.n ? tt.n : 1) * sizeof(*out));
		rules_match(&rs, &tt, out);
		for (size_t id = 0; id < tt.n; id++)
			FUZZ_CHECK(out[id] >= -1 && out[id] < (int32_t)rs.n);
		free(out);
		tmpl_free(&tt);
		fuzz_lines_free(&fl);
	}
	rules_free(&rs);
	return 0;
}
