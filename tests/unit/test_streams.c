/* test_streams.c — stream names, kinds, the stream map and rank
 * progress. */
#include <stdlib.h>

#include "streams.h"
#include "test.h"

static void check_norm(const char *tag, const char *want)
{
	char *n = streams_norm_tag(tag);
	CHECK_STR(n, want);
	free(n);
}

static void test_norm(void)
{
	check_norm("VllmWorker rank=2 pid=4711", "VllmWorker rank=2");
	check_norm("(APIServer pid=1)", "APIServer");
	check_norm("Worker pid=7, rank=1", "Worker rank=1");   /* a field's comma */
	check_norm("[TP0]", "TP0");
	check_norm("DP0 TP3", "DP0 TP3");
	check_norm("  [DP1  TP2] ", "DP1 TP2");
	check_norm("pid=7", "");       /* nothing but a pid */
	check_norm("pid=", "pid=");    /* not a pid: no number */
	check_norm("", "");
	/* A rank written apart is torchrun's one word: one stream. */
	check_norm("rank 1", "rank1");
	check_norm("Rank: 3", "rank3");
	check_norm("rank=2", "rank2");
	check_norm("rank3", "rank3");
	check_norm("[rank: 1]", "rank1");    /* Lightning's, at a line's start */
	check_norm("TP 3", "TP 3");          /* no rank key */
	check_norm("rank 1 2", "rank 1 2");  /* not a rank alone */
}

static void test_kind(void)
{
	CHECK(streams_same_kind("TP0", "TP1"));
	CHECK(streams_same_kind("TP3", "TP10"));
	CHECK(streams_same_kind("DP0 TP3", "DP1 TP0"));
	CHECK(streams_same_kind("VllmWorker rank=2", "VllmWorker rank=0"));
	CHECK(!streams_same_kind("TP0", "DP0"));
	CHECK(!streams_same_kind("APIServer", "EngineCore"));
	CHECK(!streams_same_kind("TP0", "DP0 TP0"));
	CHECK(streams_same_kind("", ""));
}

static void test_intern(void)
{
	char **names = NULL;
	size_t n = 0;
	CHECK_INT(streams_intern(&names, &n, ""), 0);
	CHECK_INT(streams_intern(&names, &n, "TP0"), 1);
	CHECK_INT(streams_intern(&names, &n, "TP1"), 2);
	CHECK_INT(streams_intern(&names, &n, "TP0"), 1);
	CHECK_INT(n, 3);
	for (size_t s = 0; s < n; s++)
		free(names[s]);
	free(names);
}

/* Bad's TP1 prints what good prints in TP0: they pair up by templates;
 * bad's TP0 has nothing in common with good and pairs by name. */
static void test_map(void)
{
	char *names[] = { "", "TP0", "TP1" };
	uint32_t bid[] = { 1, 2, 7 };
	uint16_t bst[] = { 2, 2, 1 };
	uint32_t gid[] = { 1, 2, 3 };
	uint16_t gst[] = { 1, 1, 1 };
	struct align_log bad = { bid, bst, 3, 3, NULL }, good = { gid, gst, 3, 3, NULL };
	uint8_t has[] = { 0, 1, 0 };
	uint32_t cnt[8] = { 0, 1, 1, 1 };
	uint32_t smap[3];
	streams_map(&bad, &good, has, cnt, 8, names, smap);
	CHECK_INT(smap[2], 1);
	CHECK_INT(smap[1], 1);
	/* The untagged stream, absent from good and of no kind it has. */
	CHECK_INT(smap[0], ALIGN_NONE);
}

/* Ranks sort in natural order, and ranks stopped at the same line are
 * "same". */
static void test_ranks(void)
{
	char *names[] = { "", "TP10", "TP2" };
	uint32_t id[] = { 1, 1, 2, 2 };
	uint16_t st[] = { 1, 2, 1, 2 };
	struct align_log bad = { id, st, 4, 3, NULL }, good = bad;
	uint8_t follow[] = { 1, 1, 1, 1 }, step[] = { 0, 1, 0 }, err[] = { 0, 0, 0 };
	struct diagnosis d = { 0 };
	streams_rank_progress(&bad, &good, 3, names, follow, step, err, &d);
	CHECK_INT(d.nranks, 2);
	CHECK_STR(d.ranks[0].name, "TP2");
	CHECK_STR(d.ranks[1].name, "TP10");
	CHECK_INT(d.ranks[0].last_milestone, 1);
	CHECK_INT(d.ranks[1].last_milestone, 0);
	CHECK_INT(d.ranks[0].last_line, 3);
	CHECK(d.ranks_alike);
	CHECK(d.ranks_same);
	free(d.ranks);
	/* A new error on one rank: no longer the same. */
	uint8_t err2[] = { 0, 0, 1 };
	struct diagnosis e = { 0 };
	streams_rank_progress(&bad, &good, 3, names, follow, step, err2, &e);
	CHECK(!e.ranks_same);
	CHECK_INT(e.ranks[0].errors, 1);
	CHECK_INT(e.ranks[0].first_error, 3);
	free(e.ranks);
}

/* A milestone one rank alone prints in the good run (rank 0 loads the
 * model, serves HTTP) puts no other rank behind. */
static void test_rank_only_step(void)
{
	char *names[] = { "", "TP0", "TP1" };
	/* Both ranks print step 1; TP0 alone then prints step 2. */
	uint32_t id[] = { 1, 1, 2 };
	uint16_t st[] = { 1, 2, 1 };
	struct align_log bad = { id, st, 3, 3, NULL }, good = bad;
	uint8_t follow[] = { 1, 1, 1 }, step[] = { 0, 1, 1 }, err[] = { 0, 0, 0 };
	struct diagnosis d = { 0 };
	streams_rank_progress(&bad, &good, 3, names, follow, step, err, &d);
	CHECK_INT(d.nranks, 2);
	CHECK_INT(d.ranks[0].last_milestone, 0);
	CHECK_INT(d.ranks[1].last_milestone, 1);
	free(d.ranks);
}

int main(void)
{
	test_norm();
	test_kind();
	test_intern();
	test_map();
	test_ranks();
	test_rank_only_step();
	return test_report();
}
