/* test_frdump.c — the Flight Recorder dump reader: real dumps (pickle and
 * JSON) read to the numbers torch wrote, and crafted, truncated, deep and
 * oversized ones refused with a reason, never run. */
#include <stdlib.h>
#include <string.h>

#include "dumpval.h"
#include "frdump.h"
#include "test.h"

#define FIX "tests/fixtures/gpu-spawn/"

static unsigned char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	unsigned char *p = malloc(1 << 20);
	*n = fread(p, 1, 1 << 20, f);
	fclose(f);
	return p;
}

static int parse(const void *p, size_t n, struct frdump *fr, char *why)
{
	memset(fr, 0, sizeof(*fr));
	return frdump_parse(p, n, fr, why, 200);
}

/* The real dumps say what torch's own reader says of them. */
static void real_dumps(void)
{
	size_t n;
	char why[200];
	struct frdump fr;
	unsigned char *p = slurp(FIX "s4-srv-quiet-warmup-tp2.dumps/nccl_trace_rank_2", &n);
	CHECK(p != NULL);
	if (!p)
		return;
	CHECK_INT(parse(p, n, &fr, why), 0);
	CHECK_INT(fr.latest.id, 0);
	CHECK_INT(fr.latest.enqueued, 10);
	CHECK_INT(fr.latest.completed, 10);
	CHECK_STR(fr.latest.done_op, "all_reduce");
	CHECK_INT(fr.latest.pending, -1);
	/* Every cut of a real dump is refused: truncated, never half read. */
	int all_refused = 1;
	for (size_t cut = 0; cut < n; cut++)
		all_refused &= parse(p, cut, &fr, why) < 0;
	CHECK(all_refused);
	CHECK(strstr(why, "truncated") != NULL);
	free(p);

	p = slurp(FIX "s4-srv-mismatch-warmup-tp1.dumps/nccl_trace_rank_1", &n);
	CHECK_INT(parse(p, n, &fr, why), 0);
	CHECK_INT(fr.latest.enqueued, 11);
	CHECK_STR(fr.latest.enq_op, "broadcast");
	CHECK_INT(fr.latest.pending, 11);
	CHECK_STR(fr.latest.pending_op, "broadcast");
	CHECK(fr.latest.pending_ns > 0);
	free(p);

	p = slurp(FIX "s4-trn-quiet-step12-rank1.dumps/nccl_trace_rank_0", &n);
	CHECK_INT(parse(p, n, &fr, why), 0);
	CHECK_INT(fr.latest.enqueued, 29);
	CHECK_INT(fr.latest.completed, 27);
	CHECK_INT(fr.latest.pending, 28);
	CHECK_INT(fr.latest.pending_started, 0);   /* no timing: "scheduled" */
	free(p);

	/* A run with TORCH_NCCL_ENABLE_TIMING=1 records whether each op's GPU
	 * work began: rank 0's GPU, busy with a spin kernel, never started
	 * the all_gather rank 1's did; without it, every op waiting is
	 * "scheduled" (above). */
	p = slurp("tests/fixtures/gpu-holdout2/rlog2-cudaspin-step6-rank0.dumps/nccl_trace_rank_0", &n);
	CHECK_INT(parse(p, n, &fr, why), 0);
	CHECK_INT(fr.latest.pending, 15);
	CHECK_INT(fr.latest.pending_started, 0);
	free(p);
	p = slurp("tests/fixtures/gpu-holdout2/rlog2-cudaspin-step6-rank0.dumps/nccl_trace_rank_1", &n);
	CHECK_INT(parse(p, n, &fr, why), 0);
	CHECK_INT(fr.latest.pending_started, 1);
	free(p);

	/* Each named group's own numbers: Megatron-style rank 1 skipped its
	 * tensor-parallel all_reduce 13 in group "1", where rank 0 waits,
	 * while both wait in the world's collective 9, their latest. */
	p = slurp("tests/fixtures/gpu-holdout2/mega4-tpskip-it7-rank1.dumps/nccl_trace_rank_0", &n);
	CHECK_INT(parse(p, n, &fr, why), 0);
	CHECK_INT(fr.latest.id, 0);
	CHECK_INT(fr.latest.pending, 9);
	const struct fr_group *g = NULL;
	for (size_t k = 0; k < fr.ngroups; k++)
		g = strcmp(fr.groups[k].name, "1") == 0 ? &fr.groups[k] : g;
	CHECK(g != NULL);
	if (g) {
		CHECK_INT(g->pending, 13);
		CHECK_INT(g->completed, 12);
		CHECK(g->pending_ns > 0);
	}
	free(p);
	p = slurp("tests/fixtures/gpu-holdout2/mega4-tpskip-it7-rank1.dumps/nccl_trace_rank_1", &n);
	CHECK_INT(parse(p, n, &fr, why), 0);
	g = NULL;
	for (size_t k = 0; k < fr.ngroups; k++)
		g = strcmp(fr.groups[k].name, "1") == 0 ? &fr.groups[k] : g;
	CHECK(g != NULL);
	if (g) {
		CHECK_INT(g->enqueued, 12);
		CHECK_INT(g->pending, -1);
	}
	free(p);

	/* The JSON form, whose pg_status numbers are strings. */
	p = slurp(FIX "fr-sample/fr-sample.json", &n);
	CHECK_INT(parse(p, n, &fr, why), 0);
	CHECK_INT(fr.latest.enqueued, 12);
	CHECK_INT(fr.latest.completed, 12);
	CHECK_STR(fr.latest.done_op, "all_reduce_barrier");
	free(p);
	p = slurp(FIX "fr-sample/fr-sample.pickle", &n);
	CHECK_INT(parse(p, n, &fr, why), 0);
	CHECK_INT(fr.latest.enqueued, 12);
	free(p);
}

/* Opcodes that import or call are refused by name, wherever they are. */
static void code_refused(void)
{
	char why[200];
	struct frdump fr;
	/* pickle.dumps(os.system) with protocol 2: GLOBAL 'posix system'. */
	static const char global[] = "\x80\x02" "cposix\nsystem\nq\x00.";
	CHECK_INT(parse(global, sizeof(global) - 1, &fr, why), -1);
	CHECK(strstr(why, "GLOBAL") != NULL && strstr(why, "refused") != NULL);
	/* STACK_GLOBAL then REDUCE, as protocol 4 writes a call. */
	static const char stack[] = "\x80\x04\x8c\x02os\x8c\x06system\x93\x8c\x02id\x85R.";
	CHECK_INT(parse(stack, sizeof(stack) - 1, &fr, why), -1);
	CHECK(strstr(why, "STACK_GLOBAL") != NULL);
	static const char reduce[] = "\x80\x02}R.";
	CHECK_INT(parse(reduce, sizeof(reduce) - 1, &fr, why), -1);
	CHECK(strstr(why, "REDUCE") != NULL);
	static const char build[] = "\x80\x02}}b.";
	CHECK_INT(parse(build, sizeof(build) - 1, &fr, why), -1);
	CHECK(strstr(why, "BUILD") != NULL);
	/* Protocol 0's text opcodes are no part of what torch writes. */
	static const char text[] = "\x80\x02I1\n.";
	CHECK_INT(parse(text, sizeof(text) - 1, &fr, why), -1);
	CHECK(strstr(why, "not one of") != NULL);
}

/* Limits: nesting, lengths, memo slots, stack values. */
static void bounds(void)
{
	char why[200];
	struct frdump fr;
	/* 100 nested MARKs. */
	char deep[256] = "\x80\x02";
	memset(deep + 2, '(', 100);
	CHECK_INT(parse(deep, 102, &fr, why), -1);
	CHECK(strstr(why, "deeper") != NULL);
	/* 100 lists each appended into the one before: nesting without MARKs. */
	char chain[512] = "\x80\x02";
	size_t k = 2;
	for (int j = 0; j < 100; j++)
		chain[k++] = ']';
	for (int j = 0; j < 99; j++)
		chain[k++] = 'a';
	chain[k++] = '.';
	CHECK_INT(parse(chain, k, &fr, why), -1);
	CHECK(strstr(why, "deeper") != NULL);
	/* A string that claims 4 GiB. */
	static const char huge[] = "\x80\x02X\xff\xff\xff\xff" "abc.";
	CHECK_INT(parse(huge, sizeof(huge) - 1, &fr, why), -1);
	CHECK(strstr(why, "longer") != NULL);
	static const char huge8[] = "\x80\x04\x8d\xff\xff\xff\xff\xff\xff\xff\xff.";
	CHECK_INT(parse(huge8, sizeof(huge8) - 1, &fr, why), -1);
	static const char memo[] = "\x80\x02Nr\xff\xff\xff\x7f.";
	CHECK_INT(parse(memo, sizeof(memo) - 1, &fr, why), -1);
	CHECK(strstr(why, "memo") != NULL);
	static const char get[] = "\x80\x02h\x05.";
	CHECK_INT(parse(get, sizeof(get) - 1, &fr, why), -1);
	static const char wide[] = "\x80\x02\x8b\x00\x00\x01\x00.";
	CHECK_INT(parse(wide, sizeof(wide) - 1, &fr, why), -1);
	/* A cycle through the memo (a list holding itself) reads, and
	 * nothing walks it forever. */
	static const char cyc[] = "\x80\x02}q\x00(X\x07\x00\x00\x00" "entries]q\x01h\x01" "a" "u.";
	CHECK_INT(parse(cyc, sizeof(cyc) - 1, &fr, why), 0);
	/* JSON: deep, truncated, trailing text, not a trace. */
	char jdeep[200];
	memset(jdeep, '[', 100);
	CHECK_INT(parse(jdeep, 100, &fr, why), -1);
	static const char jcut[] = "{\"entries\": [{\"collective_seq_id\": 3";
	CHECK_INT(parse(jcut, sizeof(jcut) - 1, &fr, why), -1);
	CHECK(strstr(why, "truncated") != NULL);
	static const char jnot[] = "{\"version\": \"2.10\"}";
	CHECK_INT(parse(jnot, sizeof(jnot) - 1, &fr, why), -1);
	CHECK(strstr(why, "entries") != NULL);
	static const char jesc[] = "{\"entries\": [{\"pg_id\": 0, \"collective_seq_id\": 4, "
				   "\"profiling_name\": \"nccl:all\\u005fgather\\n\", \"state\": \"completed\"}]}";
	CHECK_INT(parse(jesc, sizeof(jesc) - 1, &fr, why), 0);
	CHECK_STR(fr.latest.done_op, "all_gather");
	CHECK_INT(fr.latest.done_numel, -1);        /* no input_sizes: unknown */
	/* The elements a call took in: its tensors' products, summed; a
	 * size that would overflow is unknown, never a wrapped number. */
	static const char jsize[] = "{\"entries\": [{\"pg_id\": 0, \"collective_seq_id\": 4, "
				    "\"profiling_name\": \"nccl:all_reduce\", \"input_sizes\": [[2, 3], [4]]}, "
				    "{\"pg_id\": 0, \"collective_seq_id\": 5, \"profiling_name\": \"nccl:all_reduce\", "
				    "\"input_sizes\": [[4294967296, 4294967296]]}]}";
	CHECK_INT(parse(jsize, sizeof(jsize) - 1, &fr, why), 0);
	CHECK_INT(fr.latest.pending, 4);
	CHECK_INT(fr.latest.pending_numel, 10);
	CHECK_INT(fr.latest.enqueued, 5);
	CHECK_INT(fr.latest.enq_numel, -1);
	CHECK_INT(parse("junk", 4, &fr, why), -1);
}

static void names(void)
{
	CHECK_INT(frdump_rank_of("nccl_trace_rank_3"), 3);
	CHECK_INT(frdump_rank_of("fr_rank12.json"), 12);
	CHECK_INT(frdump_rank_of("nccl_trace_rank_3.txt"), -1);
	CHECK_INT(frdump_rank_of("ranking"), -1);
	CHECK_INT(frdump_rank_of("README.md"), -1);
}

int main(void)
{
	real_dumps();
	code_refused();
	bounds();
	names();
	return test_report();
}
