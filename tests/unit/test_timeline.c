/* test_timeline.c — the milestone timeline of a small log, and the rule
 * for "the run is up". */
#include <stdlib.h>
#include <unistd.h>

#include "log.h"
#include "rules.h"
#include "test.h"
#include "timeline.h"

static const char *const RULES =
	"[app]\n"
	"step loaded: Model loaded\n"
	"step warm: Warmup done\n"
	"final ready: Server ready\n"
	"[web]\n"
	"final listening: Listening on port\n"
	"[tool]\n"
	"step begin: Tool begins\n"
	"step end: Tool ends\n"
	"[job]\n"
	"step ran: Job step ran\n"
	"fail failed: Job step failed\n"
	"done finished: Job finished\n";

/* Index of rule name in rs (names are unique here). */
static int32_t rule(const struct ruleset *rs, const char *name)
{
	for (size_t i = 0; i < rs->n; i++)
		if (strcmp(rs->r[i].name, name) == 0)
			return (int32_t)i;
	return -1;
}

static void test_up(void)
{
	struct ruleset rs = { 0 };
	CHECK_INT(rules_parse(&rs, "t.rules", RULES, strlen(RULES)), 0);
	int32_t loaded = rule(&rs, "loaded"), warm = rule(&rs, "warm"), ready = rule(&rs, "ready"),
		listening = rule(&rs, "listening"), begin = rule(&rs, "begin"), end = rule(&rs, "end");
	/* The main engine (app) has final rules: it is up at its own final
	 * milestone, not at the web server's that came after. */
	int32_t a[] = { loaded, warm, ready, listening };
	CHECK_INT(timeline_up(&rs, a, 4), 2);
	/* Not yet ready: the web server listening is not "up". */
	int32_t b[] = { loaded, listening, warm };
	CHECK_INT(timeline_up(&rs, b, 3), SIZE_MAX);
	/* A main engine without final rules (tool): any engine's final. */
	int32_t c[] = { begin, end, listening, -1 };
	CHECK_INT(timeline_up(&rs, c, 4), 2);
	/* Learned milestones (-1) are never up. */
	int32_t d[] = { -1, -1 };
	CHECK_INT(timeline_up(&rs, d, 2), SIZE_MAX);
	CHECK_INT(timeline_up(&rs, d, 0), SIZE_MAX);
	/* A job is finished at its done milestone, unless it failed first:
	 * the runner's cleanup is the same after a failed step. */
	int32_t ran = rule(&rs, "ran"), failed = rule(&rs, "failed"),
		finished = rule(&rs, "finished");
	int32_t e[] = { ran, finished };
	CHECK_INT(timeline_up(&rs, e, 2), 1);
	CHECK_INT(rs.r[finished].done, 1);
	int32_t f[] = { ran, failed, finished };
	CHECK_INT(timeline_up(&rs, f, 3), SIZE_MAX);
	/* A job's end counts though another engine (app) is the main one. */
	int32_t g[] = { loaded, warm, ran, finished };
	CHECK_INT(timeline_up(&rs, g, 4), 3);
	rules_free(&rs);
}

/* Three ranks and a launcher, as SGLang writes them; TP3 never gets warm. */
static const char *const LOG =
	"[2025-03-08 12:00:00] launcher starting\n"
	"[2025-03-08 12:00:01 TP3] Model loaded\n"
	"[2025-03-08 12:00:01 TP2] Model loaded\n"
	"[2025-03-08 12:00:02 TP10] Model loaded\n"
	"[2025-03-08 12:00:05 TP2] Warmup done\n"
	"[2025-03-08 12:00:06] Listening on port 8000\n"
	"[2025-03-08 12:00:07] Server ready\n";

static void test_build(void)
{
	struct ruleset rs = { 0 };
	CHECK_INT(rules_parse(&rs, "t.rules", RULES, strlen(RULES)), 0);
	char path[] = "/tmp/ddx-test-timeline-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	CHECK_INT(write(fd, LOG, strlen(LOG)), (long long)strlen(LOG));
	close(fd);
	struct tmpl_table tt;
	struct log lg;
	tmpl_init(&tt);
	CHECK_INT(log_load(&lg, path, 0, LOG_FULL, 1, &tt), 0);
	unlink(path);
	int32_t *match = malloc((tt.n ? tt.n : 1) * sizeof(*match));
	rules_match(&rs, &tt, match);
	struct timeline tl;
	timeline_build(&tl, &lg, &rs, match);
	CHECK_INT(tl.nrows, 4);
	CHECK_INT(tl.ntags, 4);
	if (tl.nrows == 4 && tl.ntags == 4) {
		CHECK_INT(tl.rows[0].rule, rule(&rs, "loaded"));
		CHECK_INT(tl.rows[0].first, 1);
		CHECK_INT(tl.rows[0].last, 3);
		CHECK_INT(tl.rows[0].reached, 3);
		CHECK_INT(tl.rows[0].count, 3);
		/* Natural order: the untagged lines, then TP2, TP3, TP10. */
		size_t t2 = timeline_tag_at(&tl, 1), t3 = timeline_tag_at(&tl, 2);
		CHECK_INT(timeline_tag_at(&tl, 0), 0);
		CHECK_STR(lg.tags[t2], "TP2");
		CHECK_STR(lg.tags[t3], "TP3");
		CHECK_STR(lg.tags[timeline_tag_at(&tl, 3)], "TP10");
		/* Warmup: TP2 of its kind, TP3 missing; the launcher is not a
		 * rank of that kind. */
		CHECK_INT(tl.rows[1].rule, rule(&rs, "warm"));
		CHECK_INT(tl.rows[1].reached, 1);
		CHECK(!timeline_missing(&tl.rows[1], t2));
		CHECK(timeline_missing(&tl.rows[1], t3));
		CHECK(!timeline_missing(&tl.rows[1], 0));
		CHECK_INT(timeline_last_row(&tl, t3), 0);
		CHECK_INT(timeline_last_row(&tl, t2), 1);
		CHECK_INT(timeline_last_row(&tl, 0), 3);
		/* Up at the app's "ready", not at the web server's listening. */
		CHECK_INT(tl.rows[3].rule, rule(&rs, "ready"));
		CHECK_INT(tl.up, 3);
	}
	CHECK(tl.first_ts != TS_NONE && tl.last_ts - tl.first_ts == 7000);
	timeline_free(&tl);
	free(match);
	log_free(&lg);
	tmpl_free(&tt);
	rules_free(&rs);
}

int main(void)
{
	test_up();
	test_build();
	return test_report();
}
