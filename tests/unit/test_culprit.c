/* test_culprit.c — the culprit rank and each rank's role (culprit.c),
 * and the straggler: a rank whose step took far longer than its peers'
 * (diagnose_timing.c).  The logs are SGLang-shaped multi-rank logs built
 * in memory from short scripts and go through the real stages
 * (input_from_memory, log_load_input, diagnose with the generic rules);
 * each test checks the property its rule's comment states.  Line numbers
 * are 0-based, as in the diagnosis. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "diagnose.h"
#include "input.h"
#include "log.h"
#include "rules.h"
#include "template.h"
#include "test.h"
#include "util.h"

/* ---- the harness ---- */

struct dx {
	struct tmpl_table tt;
	struct ruleset rs;
	struct log logs[2];
	struct diagnosis d;
};

/* A log from a script, a line per '\n':
 *   "R text"     a line of rank R (0-9), tagged "[... TPR]" as SGLang does
 *   ". text"     an untagged line with a time ("[2026-12-01 11:51:00]")
 *   "|text"      a line as it is (a traceback's, faulthandler's)
 * each stamped the second of the line before, or "+N" seconds after
 * it as in "+5 R text".  The caller frees it. */
static char *script_log(const char *script, size_t *len)
{
	struct buf b = { 0 };
	long t = 0;
	for (const char *p = script; *p;) {
		size_t n = strcspn(p, "\n");
		const char *q = p, *end = p + n;
		if (*q == '|') {
			buf_append(&b, q + 1, n - 1);
		} else {
			if (*q == '+') {
				char *e;
				t += strtol(q + 1, &e, 10);
				q = e + 1;
			}
			buf_printf(&b, "[2026-12-01 %02ld:%02ld:%02ld", 11 + t / 3600, t / 60 % 60, t % 60);
			if (*q == '.')
				buf_printf(&b, "] ");
			else
				buf_printf(&b, " TP%c] ", *q);
			q += 2;
			buf_append(&b, q, (size_t)(end - q));
		}
		buf_append(&b, "\n", 1);
		p = *end ? end + 1 : end;
	}
	*len = b.len;
	return b.p;
}

/* Diagnose bad against good, as a finished run (a day after its end). */
static void diagnose_pair(struct dx *x, const char *good, const char *bad)
{
	memset(x, 0, sizeof(*x));
	tmpl_init(&x->tt);
	CHECK_INT(rules_init(&x->rs, (char *[]){ RULES_NONE }, 1), 0);
	const char *scripts[] = { good, bad };
	for (size_t k = 0; k < 2; k++) {
		size_t len;
		char *data = script_log(scripts[k], &len);
		struct input in;
		CHECK_INT(input_from_memory(&in, k ? "bad.log" : "good.log", data, len, 0), 0);
		log_load_input(&x->logs[k], &in, (int)k, LOG_FULL, 1, &x->tt);
	}
	struct dx_options o = { .now_ms = 86400000, .now_relative = 1 };
	diagnose(x->logs, 2, &x->tt, &x->rs, &o, &x->d);
}

static void dx_free(struct dx *x)
{
	diagnosis_free(&x->d);
	for (size_t i = 0; i < 2; i++)
		log_free(&x->logs[i]);
	tmpl_free(&x->tt);
	rules_free(&x->rs);
}

/* The culprit's name, or "none". */
static const char *culprit(const struct dx *x)
{
	return x->d.culprit.rank ? x->d.culprit.rank : "none";
}

/* ---- the logs ---- */

#define START4 \
	"0 Init torch distributed begin.\n1 Init torch distributed begin.\n" \
	"2 Init torch distributed begin.\n3 Init torch distributed begin.\n" \
	"0 Load weight begin. avail mem=250.00 GB\n1 Load weight begin. avail mem=250.00 GB\n" \
	"2 Load weight begin. avail mem=250.00 GB\n3 Load weight begin. avail mem=250.00 GB\n" \
	"0 Load weight end. mem usage=0.25 GB\n1 Load weight end. mem usage=0.25 GB\n" \
	"2 Load weight end. mem usage=0.25 GB\n3 Load weight end. mem usage=0.25 GB\n" \
	"0 KV Cache is allocated. #tokens: 2621120\n1 KV Cache is allocated. #tokens: 2621120\n" \
	"2 KV Cache is allocated. #tokens: 2621120\n3 KV Cache is allocated. #tokens: 2621120\n"
#define WARMUP4 \
	"0 Warmup begin.\n1 Warmup begin.\n2 Warmup begin.\n3 Warmup begin.\n" \
	"0 Warmup end. elapsed=0.41 s\n1 Warmup end. elapsed=0.41 s\n" \
	"2 Warmup end. elapsed=0.41 s\n3 Warmup end. elapsed=0.41 s\n"
#define UP ". The server is fired up and ready to roll!\n"
#define GOOD4 START4 WARMUP4 UP

/* A gloo timeout's traceback as torch prints it without "[rankN]:". */
#define GLOO_TIMEOUT \
	"|Traceback (most recent call last):\n" \
	"|  File \"/srv/app/srv.py\", line 89, in <module>\n" \
	"|    dist.all_reduce(x)\n" \
	"|RuntimeError: [gloo/transport/tcp/unbound_buffer.cc:78] Timed out waiting 15000ms for recv operation to complete\n"

/* The role of rank name, or -1 when there is no such rank. */
static int role_of(const struct dx *x, const char *name)
{
	for (size_t k = 0; k < x->d.nranks; k++)
		if (strcmp(x->d.ranks[k].name, name) == 0)
			return x->d.ranks[k].role;
	return -1;
}

/* ---- the culprit ---- */

/* anon_error, first_wait_of: untagged tracebacks of timeouts are peers
 * that failed waiting, whichever rank printed them.  TP2 never printed
 * "Warmup begin." that TP0, TP1, TP3 printed, then come untagged gloo
 * timeouts: TP2 is the culprit, and the untagged peers count as one. */
static void test_untagged_waits(void)
{
	struct dx x;
	diagnose_pair(&x, GOOD4,
		      START4 "0 Warmup begin.\n1 Warmup begin.\n3 Warmup begin.\n"
		      GLOO_TIMEOUT GLOO_TIMEOUT GLOO_TIMEOUT);
	CHECK_STR(culprit(&x), "TP2");
	CHECK_INT(x.d.culprit.how, DX_CULPRIT_BEHIND);
	CHECK_INT(x.d.culprit.npeers, 0);
	CHECK_INT(x.d.culprit.anon_peers, 3);
	CHECK_INT(x.d.culprit.symptoms, DX_WAIT_TIMEOUT);
	/* role: as many untagged timeouts as quiet ranks are theirs. */
	CHECK_INT(role_of(&x, "TP2"), DX_ROLE_CULPRIT);
	CHECK_INT(role_of(&x, "TP0"), DX_ROLE_WAITING);
	CHECK_INT(role_of(&x, "TP3"), DX_ROLE_WAITING);
	dx_free(&x);
}

/* find_missed: a rank that never printed a step every other rank and
 * every rank of the good run printed is the culprit, whatever it
 * printed after: TP1 skipped "Warmup begin." yet printed "Warmup end.",
 * so it is behind no one. */
static void test_missed_step(void)
{
	struct dx x;
	diagnose_pair(&x, GOOD4,
		      START4 "0 Warmup begin.\n2 Warmup begin.\n3 Warmup begin.\n"
		      "0 Warmup end. elapsed=0.41 s\n1 Warmup end. elapsed=0.41 s\n"
		      "2 Warmup end. elapsed=0.41 s\n3 Warmup end. elapsed=0.41 s\n"
		      "+15 " "0 RuntimeError: Timed out waiting 15000ms for recv operation to complete\n");
	CHECK_STR(culprit(&x), "TP1");
	CHECK_INT(x.d.culprit.how, DX_CULPRIT_MISSED);
	dx_free(&x);
}

#define START2 \
	"0 Init torch distributed begin.\n1 Init torch distributed begin.\n" \
	"0 Load weight begin. avail mem=250.00 GB\n1 Load weight begin. avail mem=250.00 GB\n" \
	"0 Load weight end. mem usage=0.25 GB\n1 Load weight end. mem usage=0.25 GB\n"
#define GOOD2 START2 "0 Model loading took 0.25 GiB\n" \
	"0 Warmup begin.\n1 Warmup begin.\n0 Warmup end. elapsed=0.41 s\n1 Warmup end. elapsed=0.41 s\n" UP

/* pick's untagged error of its own: faulthandler's untagged block,
 * after TP1's last line and before TP0 failed waiting, is TP1's, the
 * one rank left that can have printed it: TP1 failed first, with it. */
static void test_faulthandler_block(void)
{
	struct dx x;
	diagnose_pair(&x, GOOD2,
		      START2 "0 Model loading took 0.25 GiB\n0 Warmup begin.\n"
		      "|Fatal Python error: Segmentation fault\n"
		      "|\n"
		      "|Current thread 0x00007f1c2a5ff740 (most recent call first):\n"
		      "|  File \"/srv/app/srv.py\", line 77 in warmup\n"
		      "|\n|Extension modules: numpy.core._multiarray_umath (total: 1)\n|\n"
		      "+15 0 RuntimeError: Timed out waiting 15000ms for recv operation to complete\n");
	CHECK_STR(culprit(&x), "TP1");
	CHECK_INT(x.d.culprit.how, DX_CULPRIT_ERROR);
	CHECK_INT(x.d.culprit.line, 8);
	CHECK_INT(role_of(&x, "TP0"), DX_ROLE_WAITING);
	dx_free(&x);
}

/* ended_early, behind: with no peer failing at all, a run that stopped
 * short has for culprit the rank left behind at a step every other rank
 * went past. */
static void test_stopped_behind(void)
{
	struct dx x;
	diagnose_pair(&x, GOOD4, START4 "0 Warmup begin.\n1 Warmup begin.\n3 Warmup begin.\n");
	CHECK_INT(x.d.verdict, DX_STOPPED);
	CHECK_STR(culprit(&x), "TP2");
	CHECK_INT(x.d.culprit.how, DX_CULPRIT_BEHIND);
	CHECK_INT(role_of(&x, "TP0"), DX_ROLE_WAITING);
	dx_free(&x);
}

/* role: a crash's culprit raised; of the others, one that failed waiting
 * waits, one with an error of its own after the first wait failed on
 * its own, and one with none was torn down. */
static void test_roles_crash(void)
{
	struct dx x;
	diagnose_pair(&x, GOOD4, START4
		      "2 ValueError: bad batch: loss is not finite\n"
		      "+5 0 RuntimeError: Connection closed by peer [127.0.0.1]:41234\n"
		      "1 RuntimeError: Connection closed by peer [127.0.0.1]:41236\n"
		      "3 MemoryError: out of host memory in the allocator\n");
	CHECK_STR(culprit(&x), "TP2");
	CHECK_INT(role_of(&x, "TP2"), DX_ROLE_CULPRIT);
	CHECK_INT(role_of(&x, "TP0"), DX_ROLE_WAITING);
	CHECK_INT(role_of(&x, "TP1"), DX_ROLE_WAITING);
	CHECK_INT(role_of(&x, "TP3"), DX_ROLE_FAILED_OWN);
	dx_free(&x);
	diagnose_pair(&x, GOOD4, START4
		      "2 ValueError: bad batch: loss is not finite\n"
		      "+5 0 RuntimeError: Connection closed by peer [127.0.0.1]:41234\n");
	CHECK_INT(role_of(&x, "TP1"), DX_ROLE_TORN_DOWN);
	dx_free(&x);
}

/* behind, streams_shared: a step only rank 0 takes in the good run
 * ("Model loading took") puts no other rank behind. */
static void test_rank0_step(void)
{
	struct dx x;
	diagnose_pair(&x, GOOD2, START2 "0 Model loading took 0.25 GiB\n");
	CHECK_INT(x.d.verdict, DX_STOPPED);
	CHECK_STR(culprit(&x), "none");
	dx_free(&x);
}

/* ended_early: a run that finished has no culprit, however its ranks'
 * last lines differ. */
static void test_finished(void)
{
	struct dx x;
	diagnose_pair(&x, GOOD4, START4 "0 Warmup begin.\n1 Warmup begin.\n2 Warmup begin.\n3 Warmup begin.\n"
		      "0 Warmup end. elapsed=0.41 s\n1 Warmup end. elapsed=0.41 s\n"
		      "2 Warmup end. elapsed=0.41 s\n" UP);
	CHECK_STR(culprit(&x), "none");
	CHECK(x.d.culprit.unknown == NULL);   /* nothing failed: nothing to say */
	CHECK_INT(role_of(&x, "TP3"), DX_ROLE_FINISHED);
	dx_free(&x);
}

/* pick's launcher rule: with no peer failing waiting, ranks that died
 * together are listed by the launcher in the order it noticed them: it
 * names no culprit. */
static void test_launcher_without_waits(void)
{
	struct dx x;
	diagnose_pair(&x, GOOD4, START4
		      ". E1201 torch/distributed/elastic/multiprocessing/api.py:986] failed (exitcode: -11) local_rank: 0 (pid: 597) of binary: python\n");
	CHECK_STR(culprit(&x), "none");
	dx_free(&x);
}

/* The start of a run of ranks a, b, c: START4's first lines, for those
 * ranks only. */
#define START_OF(a, b, c) \
	a " Init torch distributed begin.\n" b " Init torch distributed begin.\n" \
	c " Init torch distributed begin.\n" \
	a " Load weight begin. avail mem=250.00 GB\n" b " Load weight begin. avail mem=250.00 GB\n" \
	c " Load weight begin. avail mem=250.00 GB\n"
#define TIMES_OUT(r) "+15 " r " RuntimeError: Timed out waiting 15000ms for recv operation to complete\n"

/* silent_rank: a rank that printed nothing is the culprit when each rank
 * that printed sat waiting and its number is the one gap below the
 * highest (TP2 among TP0, TP1, TP3), or the launcher's first error names
 * it (TP3 among TP0, TP1); its name is made like its peers', and it has
 * no line of its own.  Never a rank that printed, and never one of
 * several silent ranks: with TP1 and TP2 silent there is none, and with
 * a printing rank that neither failed nor waited, none. */
static void test_silent_rank(void)
{
	struct dx x;
	diagnose_pair(&x, GOOD4, START_OF("0", "1", "3") TIMES_OUT("0") TIMES_OUT("1") TIMES_OUT("3"));
	CHECK_STR(culprit(&x), "TP2");
	CHECK_INT(x.d.culprit.how, DX_CULPRIT_SILENT);
	CHECK_INT(x.d.culprit.line, DX_NONE);
	CHECK(x.d.culprit.unheard && x.d.culprit.rank == x.d.culprit.unheard);
	CHECK_INT(x.d.culprit.npeers, 3);
	CHECK_INT(role_of(&x, "TP2"), -1);
	dx_free(&x);
	diagnose_pair(&x, GOOD4, START_OF("0", "1", "0") TIMES_OUT("0") TIMES_OUT("1")
		      ". E1201 torch/distributed/elastic/multiprocessing/api.py:986] failed (exitcode: -15) local_rank: 3 (pid: 597) of binary: python\n");
	CHECK_STR(culprit(&x), "TP3");
	CHECK_INT(x.d.culprit.how, DX_CULPRIT_LAUNCHER);
	CHECK(x.d.culprit.line >= 0);
	dx_free(&x);
	diagnose_pair(&x, GOOD4, START_OF("0", "3", "0") TIMES_OUT("0") TIMES_OUT("3"));
	CHECK_STR(culprit(&x), "none");
	/* pick: a failed run with no culprit says why. */
	CHECK(x.d.culprit.unknown && strstr(x.d.culprit.unknown, "nothing names the one they waited for"));
	dx_free(&x);
	diagnose_pair(&x, GOOD4, START_OF("0", "1", "3") TIMES_OUT("0") "1 Load weight end. mem usage=0.25 GB\n"
		      "3 Load weight end. mem usage=0.25 GB\n");
	CHECK_STR(culprit(&x), "none");
	dx_free(&x);
}

/* ---- stragglers ---- */

/* The slow step naming rank name, or NULL. */
static const struct dx_slow *straggler(const struct dx *x, const char *name)
{
	for (size_t k = 0; k < x->d.nslow; k++)
		if (x->d.slow[k].rank && strcmp(x->d.slow[k].rank, name) == 0)
			return &x->d.slow[k];
	return NULL;
}

#define LOADS(slow) \
	"0 Init torch distributed begin.\n1 Init torch distributed begin.\n" \
	"2 Init torch distributed begin.\n3 Init torch distributed begin.\n" \
	"0 Load weight begin. avail mem=250.00 GB\n1 Load weight begin. avail mem=250.00 GB\n" \
	"2 Load weight begin. avail mem=250.00 GB\n3 Load weight begin. avail mem=250.00 GB\n" \
	"0 Load weight end. mem usage=0.25 GB\n2 Load weight end. mem usage=0.25 GB\n" \
	"3 Load weight end. mem usage=0.25 GB\n" slow " 1 Load weight end. mem usage=0.25 GB\n" \
	"0 KV Cache is allocated. #tokens: 2621120\n1 KV Cache is allocated. #tokens: 2621120\n" \
	"2 KV Cache is allocated. #tokens: 2621120\n3 KV Cache is allocated. #tokens: 2621120\n" \
	WARMUP4 UP

/* find_stragglers: a rank that took a step far longer than its peers
 * did in the same run (5 s where they took none) is a slow step naming
 * it, and a finished run with one is "different", not "same". */
static void test_straggler(void)
{
	struct dx x;
	diagnose_pair(&x, GOOD4, LOADS("+5"));
	const struct dx_slow *s = straggler(&x, "TP1");
	CHECK(s != NULL);
	CHECK(s && s->bad_s >= 5.0 && s->peers_s == 0.0);
	CHECK_INT(x.d.verdict, DX_DIFFERENT);
	dx_free(&x);
	/* A second more on a clock of whole seconds may be no time. */
	diagnose_pair(&x, GOOD4, LOADS("+1"));
	CHECK(straggler(&x, "TP1") == NULL);
	dx_free(&x);
}

/* find_stragglers: the rank that reached a rendezvous first waits there
 * longest, but ends the step with its peers: it is no straggler. */
#define RENDEZVOUS(late) \
	"2 Init torch distributed begin.\n" late " 0 Init torch distributed begin.\n" \
	"1 Init torch distributed begin.\n3 Init torch distributed begin.\n" \
	"0 Init torch distributed ends.\n1 Init torch distributed ends.\n" \
	"2 Init torch distributed ends.\n3 Init torch distributed ends.\n" UP

static void test_early_waiter(void)
{
	struct dx x;
	diagnose_pair(&x, RENDEZVOUS("+0"), RENDEZVOUS("+5"));
	CHECK(straggler(&x, "TP2") == NULL);
	dx_free(&x);
}

int main(void)
{
	test_untagged_waits();
	test_missed_step();
	test_faulthandler_block();
	test_stopped_behind();
	test_roles_crash();
	test_rank0_step();
	test_finished();
	test_launcher_without_waits();
	test_silent_rank();
	test_straggler();
	test_early_waiter();
	return test_report();
}
