/* fuzz_rules.c — parsing a rule file, then matching its rules against
 * templates made of its own lines: milestones, marks, words, and config
 * rules against the file's bytes. */
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
		const char **texts = xmalloc((tt.n ? tt.n : 1) * sizeof(*texts));
		size_t *lens = xmalloc((tt.n ? tt.n : 1) * sizeof(*lens));
		for (size_t id = 0; id < tt.n; id++) {
			texts[id] = tt.t[id].text, lens[id] = tt.t[id].len;
			for (int w = RULE_HEARTBEAT; w <= RULE_TIMEOUT; w++)
				rules_says(&rs, (enum rule_words)w, texts[id]);
		}
		const char *e = rules_engine(&rs, texts, lens, tt.n, "sglang");
		for (size_t i = 0; e && i < rs.n && e != rs.r[i].engine; i++)
			FUZZ_CHECK(i + 1 < rs.n);   /* an engine of rs */
		free(texts);
		free(lens);
		for (size_t i = 0; i < rs.n; i++) {
			size_t from, to;
			int one;
			if (rs.r[i].config && rules_config(&rs.r[i], (const char *)data, size, &from, &to, &one))
				FUZZ_CHECK(from <= to && to <= size);
		}
		tmpl_free(&tt);
		fuzz_lines_free(&fl);
	}
	rules_free(&rs);
	return 0;
}
