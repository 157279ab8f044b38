/* test_diagnose.c — the diagnosis's rules, a test each.  The logs are
 * built in memory from short scripts and go through the real per-line
 * stages (input_from_memory, log_load_input into one template table),
 * then diagnose() with an empty ruleset or rules parsed from a string;
 * each test checks the property its rule's comment states (the rule's
 * name is in the test's comment).  Line numbers are 0-based, as in the
 * diagnosis. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "diagnose.h"
#include "frdump.h"
#include "input.h"
#include "log.h"
#include "rules.h"
#include "template.h"
#include "test.h"
#include "util.h"

/* ---- the harness ---- */

#define MAXLOGS 4

struct dx {
	struct tmpl_table tt;
	struct ruleset rs;
	struct log logs[MAXLOGS];
	size_t n;
	struct diagnosis d;
};

/* A log from a script, a line per '\n':
 *   "LEVEL text"     a line of the log, stamped one second after the last
 *   "+N LEVEL text"  ... N seconds after it
 *   "@R LEVEL text"  ... written by rank R (0-9), as vLLM's workers write
 *   "|text"          a line as it is, without header (a traceback's)
 * The caller frees it. */
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
			long step = 1;
			if (*q == '+') {
				char *e;
				step = strtol(q + 1, &e, 10);
				q = e + 1;
			}
			t += step;
			int rank = -1;
			if (*q == '@') {
				rank = q[1] - '0';
				q += 3;
			}
			size_t lv = strcspn(q, " ");
			if (rank >= 0)
				buf_printf(&b, "(Worker rank=%d pid=%d) %.*s 03-08 %02ld:%02ld:%02ld [w.py:1] ",
					   rank, 100 + rank, (int)lv, q, 10 + t / 3600, t / 60 % 60, t % 60);
			else
				buf_printf(&b, "2025-03-08 %02ld:%02ld:%02ld %.*s ", 10 + t / 3600, t / 60 % 60,
					   t % 60, (int)lv, q);
			q += lv + (q[lv] == ' ');
			buf_append(&b, q, (size_t)(end - q));
		}
		buf_append(&b, "\n", 1);
		p = *end ? end + 1 : end;
	}
	*len = b.len;
	return b.p;
}

/* The rules argument that stands for ddx's generic words
 * (rules/generic.rules, as `--rules none` leaves them). */
static const char GENERIC[] = "";

/* The word rules of the built-in generic file (heartbeat, ...), without
 * its milestones: words every ruleset has, what a test without rules
 * still reads lines by. */
static void generic_words(struct ruleset *rs)
{
	static const char *const kinds[] = {
		"heartbeat ", "failure ", "error ", "warning ", "killed ", "signalled ", "peer-loss ", "timeout ", "advice ", "wait ",
		NULL,
	};
	struct buf b = { 0 };
	buf_printf(&b, "[%s]\n", RULES_GENERIC);
	for (size_t f = 0; f < rules_builtin_count; f++) {
		if (strcmp(rules_builtin_files[f].path, "rules/generic.rules") != 0)
			continue;
		for (const char *l = rules_builtin_files[f].text; *l;) {
			size_t n = strcspn(l, "\n");
			for (size_t k = 0; kinds[k]; k++)
				if (strncmp(l, kinds[k], strlen(kinds[k])) == 0)
					buf_printf(&b, "%.*s\n", (int)n, l);
			l += n + (l[n] == '\n');
		}
	}
	CHECK_INT(rules_parse(rs, "generic words", b.p, b.len), 0);
	buf_free(&b);
}

/* How long before its mtime each log diagnose_scripts makes was born
 * (input.btime; 0: a copy, written at once as a download makes it); NAN:
 * not known, as where the file system keeps no birth time. */
static double scripts_written_s = NAN;

/* The bad run's Flight Recorder dumps diagnose_scripts passes, as --dumps
 * would. */
static const struct frdump *scripts_dumps;
static size_t scripts_ndumps;

/* Diagnose the last of scripts[] (NULL-terminated) against the others,
 * with the rules in text rules (NULL: none but generic_words; GENERIC:
 * the generic words);
 * --now is the bad log's last line plus now_s; with now_s NAN, there is
 * no --now and the logs were written (their mtime) just now. */
static void diagnose_scripts(struct dx *x, const char *rules, double now_s, const char *const *scripts)
{
	memset(x, 0, sizeof(*x));
	tmpl_init(&x->tt);
	if (rules == GENERIC)
		CHECK_INT(rules_init(&x->rs, (char *[]){ RULES_NONE }, 1), 0);
	else
		generic_words(&x->rs);
	if (rules && rules != GENERIC)
		CHECK_INT(rules_parse(&x->rs, "t.rules", rules, strlen(rules)), 0);
	for (x->n = 0; scripts[x->n] && x->n < MAXLOGS; x->n++) {
		size_t len;
		char *data = script_log(scripts[x->n], &len), path[32];
		struct input in;
		snprintf(path, sizeof(path), "%s%zu.log", scripts[x->n + 1] ? "good" : "bad", x->n);
		CHECK_INT(input_from_memory(&in, path, data, len, isnan(now_s) ? time(NULL) : 0), 0);
		if (!isnan(scripts_written_s))
			in.btime = in.mtime - (time_t)scripts_written_s;
		log_load_input(&x->logs[x->n], &in, (int)x->n, LOG_FULL, 1, &x->tt);
	}
	struct dx_options o = { .now_ms = isnan(now_s) ? TS_NONE : (int64_t)(now_s * 1000), .now_relative = 1,
				.dumps = scripts_dumps, .ndumps = scripts_ndumps };
	diagnose(x->logs, x->n, &x->tt, &x->rs, &o, &x->d);
}

/* DIAGNOSE's bad log is a finished one: diagnosed a day after its last
 * line, beyond any step of these scripts (a log written less than the
 * good runs' step time ago is still running: still_in_step). */
#define FINISHED_S 86400.0
#define DIAGNOSE(x, rules, ...) \
	diagnose_scripts((x), (rules), FINISHED_S, (const char *const[]){ __VA_ARGS__, NULL })

static void dx_free(struct dx *x)
{
	diagnosis_free(&x->d);
	for (size_t i = 0; i < x->n; i++)
		log_free(&x->logs[i]);
	tmpl_free(&x->tt);
	rules_free(&x->rs);
}

/* The finding whose first line is bad's line, or NULL. */
static const struct dx_novel *finding_at(const struct diagnosis *d, int64_t line)
{
	for (size_t k = 0; k < d->nnovel; k++)
		if (d->novel[k].line == line)
			return &d->novel[k];
	return NULL;
}

/* The line the crash's finding says what happened on, or DX_NONE. */
static int64_t crash_summary(const struct diagnosis *d)
{
	return d->crash == DX_NONE ? DX_NONE : d->novel[d->crash].summary;
}

/* The milestone of template text t, or NULL. */
static const struct dx_milestone *milestone(const struct diagnosis *d, const char *t)
{
	for (size_t k = 0; k < d->nms; k++)
		if (strcmp(dx_template_text(d, d->ms[k].id), t) == 0)
			return &d->ms[k];
	return NULL;
}

/* ---- the logs ---- */

/* A good run of 22 steps, each line its own template and milestone. */
#define L00 "INFO launching the application server\n"
#define L01 "INFO parsing command line flags\n"
#define L02 "INFO reading configuration from disk\n"
#define L03 "INFO connecting to the postgres database\n"
#define L04 "INFO database schema verified\n"
#define L05 "INFO starting background scheduler\n"
#define L06 "INFO loading tokenizer vocabulary\n"
#define L07 "INFO allocating the memory pool\n"
#define L08 "INFO compiling kernels for the accelerator\n"
#define L09 "INFO capturing execution graphs\n"
#define L10 "INFO registering http routes\n"
#define L11 "INFO binding socket on port\n"
#define L12 "INFO spawning worker threads\n"
#define L13 "INFO health endpoint online\n"
#define L14 "INFO warmup request served\n"
#define L15 "INFO metrics exporter attached\n"
#define L16 "INFO cache directory mounted\n"
#define L17 "INFO license check passed\n"
#define L18 "INFO telemetry disabled by policy\n"
#define L19 "INFO scheduler queue drained\n"
#define L20 "INFO replica announced to cluster\n"
#define L21 "INFO application fully initialized\n"
#define UPTO04 L00 L01 L02 L03 L04
#define UPTO09 UPTO04 L05 L06 L07 L08 L09
#define UPTO14 UPTO09 L10 L11 L12 L13 L14
#define FROM15 L15 L16 L17 L18 L19 L20 L21
#define GOOD UPTO14 FROM15

/* A health check: a heartbeat, by its words. */
#define BEAT "INFO heartbeat ok from the monitor\n"

/* A Python traceback that ends in an exception of its own. */
#define TRACEBACK(exc) \
	"|Traceback (most recent call last):\n" \
	"|  File \"/app/main.py\", line 5, in <module>\n" \
	"|    start()\n" \
	"|" exc "\n"

/* ---- the verdict ---- */

/* stopped_or_diverged, last_following: a run that stopped after line k
 * of the good run, printing nothing of its own, is STOPPED at bad line k,
 * good line k, with no crash; one that printed nothing, too. */
static void test_stopped(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, UPTO04);
	CHECK_INT(x.d.verdict, DX_STOPPED);
	CHECK_INT(x.d.bad_line, 4);
	CHECK_INT(x.d.good_line, 4);
	CHECK(fabs(x.d.good_fraction - 5.0 / 22) < 1e-9);
	CHECK_INT(x.d.crash, DX_NONE);
	CHECK_INT(x.d.nnovel, 0);
	dx_free(&x);
	/* An empty bad log stopped before the good run's first line. */
	DIAGNOSE(&x, NULL, GOOD, "");
	CHECK_INT(x.d.verdict, DX_STOPPED);
	CHECK_INT(x.d.crash, DX_NONE);
	dx_free(&x);
}

/* reached_good_end: good runs that printed nothing end where they begin,
 * so an empty bad log beside them reached their end (a job that logs
 * only to files of its own leaves an empty console); one that printed
 * anything is judged by what it printed. */
static void test_empty_beside_empty(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, "", "");
	CHECK_INT(x.d.verdict, DX_SAME);
	CHECK_INT(x.d.crash, DX_NONE);
	dx_free(&x);
	DIAGNOSE(&x, NULL, "", "INFO starting\nERROR boom: disk full\n");
	CHECK(x.d.verdict != DX_SAME);
	dx_free(&x);
}

/* reached_good_end, clean_match: a run that printed all the good run did
 * and nothing new is SAME. */
static void test_same(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, GOOD);
	CHECK_INT(x.d.verdict, DX_SAME);
	CHECK_INT(x.d.bad_line, 21);
	CHECK_INT(x.d.good_line, 21);
	dx_free(&x);
}

/* clean_match: a run that reached the end but printed a new warning is
 * DIFFERENT; a new line at info level is no difference. */
static void test_different_warning(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, UPTO09 "WARNING the disk is almost full\n" L10 L11 L12 L13 L14 FROM15);
	CHECK_INT(x.d.verdict, DX_DIFFERENT);
	CHECK_INT(x.d.nnovel, 1);
	dx_free(&x);
	DIAGNOSE(&x, NULL, GOOD, UPTO09 "INFO the disk has room to spare\n" L10 L11 L12 L13 L14 FROM15);
	CHECK_INT(x.d.verdict, DX_SAME);
	CHECK_INT(x.d.nnovel, 1);
	dx_free(&x);
}

/* clean_match: a run that reached the end with a value changed against
 * the good run is DIFFERENT, and says what changed. */
static void test_different_changed(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, L00 "INFO server_args batch_size=8, dtype=float16, tp_size=1\n" L02 L03 L04 L05 FROM15,
		 L00 "INFO server_args batch_size=16, dtype=float16, tp_size=1\n" L02 L03 L04 L05 FROM15);
	CHECK_INT(x.d.verdict, DX_DIFFERENT);
	CHECK_INT(x.d.nchanged, 1);
	if (x.d.nchanged == 1) {
		CHECK_STR(x.d.changed[0].key, "batch_size");
		CHECK_STR(x.d.changed[0].good, "8");
		CHECK_STR(x.d.changed[0].bad, "16");
	}
	dx_free(&x);
}

/* is_slow, clean_match: a step that took SLOW_FACTOR times the good
 * run's, and SLOW_MIN_S more, is slow, and makes the run DIFFERENT; one a
 * little slower is not. */
static void test_slow_step(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, UPTO09 "+30 " L10 L11 L12 L13 L14 FROM15);
	CHECK_INT(x.d.verdict, DX_DIFFERENT);
	CHECK_INT(x.d.nslow, 1);
	if (x.d.nslow == 1) {
		CHECK_INT(x.d.slow[0].from_good, 9);
		CHECK_INT(x.d.slow[0].to_good, 10);
		CHECK(x.d.slow[0].bad_s == 30.0);
	}
	dx_free(&x);
	DIAGNOSE(&x, NULL, GOOD, UPTO09 "+3 " L10 L11 L12 L13 L14 FROM15);
	CHECK_INT(x.d.verdict, DX_SAME);
	CHECK_INT(x.d.nslow, 0);
	dx_free(&x);
}

/* crash_candidate, pass_reach: a new error after which the run printed
 * nothing the good run did is the crash; the run is CRASHED where it was
 * before the error. */
static void test_crashed(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "ERROR cannot allocate memory for the weights\n");
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK_INT(crash_summary(&x.d), 5);
	CHECK_INT(x.d.bad_line, 4);
	dx_free(&x);
}

/* crash_candidate, went_on: an error after which its rank followed the
 * good run again is no crash. */
static void test_error_then_follows(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, UPTO09 "ERROR the optional plugin failed to load\n" L10 L11 L12);
	CHECK_INT(x.d.crash, DX_NONE);
	CHECK_INT(x.d.verdict, DX_STOPPED);
	CHECK_INT(x.d.bad_line, 13);
	dx_free(&x);
}

/* lived_on: a server that went on working for long after an error (a
 * request's traceback, then an hour of the app's own lines, none the
 * good run printed) lived on: no crash; it went its own way.  The same lines printed in the
 * moment the run died (a launcher's report of the failure) are no life
 * after it. */
#define APP_WORK "|payment 17 accepted\n|order 17 shipped\n|invoice 17 sent\n" \
	"|payment 18 accepted\n|order 18 shipped\n|invoice 18 sent\n" \
	"|payment 19 accepted\n|order 19 shipped\n|invoice 19 sent\n|payment 20 accepted\n"
static void test_lived_on(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD,
		 UPTO14 "ERROR exception on /webhook [POST]\n" TRACEBACK("KeyError: 'order'") APP_WORK
		 "+3600 INFO payment 21 accepted\n");
	CHECK_INT(x.d.crash, DX_NONE);
	CHECK_INT(x.d.verdict, DX_DIVERGED);
	dx_free(&x);
	DIAGNOSE(&x, NULL, GOOD,
		 UPTO14 "ERROR exception on /webhook [POST]\n" TRACEBACK("KeyError: 'order'") APP_WORK
		 "INFO payment 21 accepted\n");
	CHECK_INT(x.d.verdict, DX_CRASHED);
	dx_free(&x);
}

/* pass_hung: a run that sat in a step far longer than the good runs
 * did, then was killed from outside, hung there: STOPPED where it hung,
 * the kill what ended it.  Killed in the moment, or given up by its own
 * watchdog within a minute, it crashed; given up after minutes, it hung. */
static void test_hung_then_killed(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, UPTO09 "+120 ERROR failed (exitcode: -9) local_rank: 0 (pid: 81)\n");
	CHECK_INT(x.d.verdict, DX_STOPPED);
	CHECK_INT(x.d.bad_line, 9);
	CHECK_INT(crash_summary(&x.d), 10);
	CHECK(fabs(x.d.hung_s - 120) < 1e-9);
	dx_free(&x);
	DIAGNOSE(&x, NULL, GOOD, UPTO09 "ERROR failed (exitcode: -9) local_rank: 0 (pid: 81)\n");
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK(isnan(x.d.hung_s));
	dx_free(&x);
	DIAGNOSE(&x, NULL, GOOD, UPTO09 "+60 ERROR Watchdog caught collective operation timeout\n");
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK(!x.d.hang_gave_up);
	dx_free(&x);
	DIAGNOSE(&x, NULL, GOOD, UPTO09 "+200 ERROR Watchdog caught collective operation timeout\n");
	CHECK_INT(x.d.verdict, DX_STOPPED);
	CHECK(x.d.hang_gave_up);
	dx_free(&x);
	/* The timeout said in a quoted value, which the template masks. */
	DIAGNOSE(&x, NULL, GOOD, UPTO09 "+600 ERROR msg=\"error loading runner\" error=\"timed out waiting for it\"\n");
	CHECK_INT(x.d.verdict, DX_STOPPED);
	CHECK(x.d.hang_gave_up);
	dx_free(&x);
	/* A run of another version, with no line in common with the good
	 * run, hung in the silence its timeout broke. */
	DIAGNOSE(&x, NULL, GOOD, "INFO another version's own banner\nINFO its own loading step\n"
		 "+600 ERROR timed out waiting for the runner to start\n");
	CHECK_INT(x.d.bad_line, DX_NONE);
	CHECK_INT(x.d.verdict, DX_STOPPED);
	CHECK(fabs(x.d.hung_s - 600) < 1e-9);
	dx_free(&x);
	DIAGNOSE(&x, NULL, GOOD, UPTO09 "+600 ERROR Watchdog caught collective operation timeout\n");
	CHECK_INT(x.d.verdict, DX_STOPPED);
	CHECK_INT(crash_summary(&x.d), 10);
	CHECK(fabs(x.d.hung_s - 600) < 1e-9);
	CHECK(x.d.hang_gave_up);
	dx_free(&x);
}

/* Two ranks, as vLLM's workers write them. */
#define R2(t) "@0 INFO " t "\n@1 INFO " t "\n"
#define RANKS_HEAD "INFO launcher starting two workers\n" R2("worker process started") \
	R2("loading the model shard") R2("model shard loaded")
#define RANKS_TAIL R2("joining the collective group") R2("collective group ready") RANKS_REST
#define RANKS_REST R2("capturing execution graphs") R2("execution graphs captured") \
	R2("warming up the kernels") R2("kernels are warm") R2("allocating the request pool") \
	R2("request pool ready") R2("loading the tokenizer") R2("tokenizer loaded") \
	R2("opening the http port") R2("http port open") "INFO all workers ready to serve\n"
/* Rank 0's lines of RANKS_REST alone. */
#define RANK0_REST "@0 INFO capturing execution graphs\n@0 INFO execution graphs captured\n" \
	"@0 INFO warming up the kernels\n@0 INFO kernels are warm\n" \
	"@0 INFO allocating the request pool\n@0 INFO request pool ready\n" \
	"@0 INFO loading the tokenizer\n@0 INFO tokenizer loaded\n" \
	"@0 INFO opening the http port\n@0 INFO http port open\nINFO all workers ready to serve\n"

/* survived, failed_step: an error on one rank after which the run went
 * on following the good run at length (the other rank) is no crash: a
 * step failed on the way (FAILED, that error its cause). */
static void test_survived(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, RANKS_HEAD RANKS_TAIL,
		 RANKS_HEAD R2("joining the collective group") R2("collective group ready")
		 "@1 ERROR the rank lost its scratch file\n" RANK0_REST);
	CHECK_INT(x.d.attempts, 1);
	CHECK_INT(x.d.verdict, DX_FAILED);
	CHECK_INT(crash_summary(&x.d), 11);
	dx_free(&x);
	/* When the rest is short, the run did not survive the error. */
	DIAGNOSE(&x, NULL, RANKS_HEAD RANKS_TAIL,
		 RANKS_HEAD R2("joining the collective group") R2("collective group ready")
		 "@1 ERROR the rank lost its scratch file\n"
		 "@0 INFO capturing execution graphs\n@0 INFO execution graphs captured\n");
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK_INT(crash_summary(&x.d), 11);
	dx_free(&x);
}

/* peer_loss_symptom: a rank that reports losing its peer is a symptom;
 * the crash is the error of the rank that failed on its own, though it
 * came later. */
static void test_peer_loss(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, RANKS_HEAD RANKS_TAIL,
		 RANKS_HEAD "@0 ERROR connection reset by peer while joining\n"
		 "@1 ERROR out of memory while joining the group\n");
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK_INT(crash_summary(&x.d), 8);
	dx_free(&x);
	/* With no other error, the symptom is the crash. */
	DIAGNOSE(&x, NULL, RANKS_HEAD RANKS_TAIL, RANKS_HEAD "@0 ERROR connection reset by peer while joining\n");
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK_INT(crash_summary(&x.d), 7);
	dx_free(&x);
}

/* killed_from_outside, interrupted_at: a run killed from outside after
 * it stopped following says so first; the errors after the notice are
 * the kill's: it is INTERRUPTED, by that notice, not crashed. */
static void test_killed_from_outside(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "WARNING received SIGTERM, shutting down\n"
		 "ERROR worker exited with a failure status\nERROR the pool was torn down\n");
	CHECK_INT(x.d.verdict, DX_INTERRUPTED);
	CHECK_INT(crash_summary(&x.d), 5);
	dx_free(&x);
	/* A kill notice after a new error (the launcher stopping the rest
	 * once one died) excuses nothing. */
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "ERROR worker exited with a failure status\n"
		 "WARNING received SIGTERM, shutting down\n");
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK_INT(crash_summary(&x.d), 5);
	dx_free(&x);
}

/* pass_verdict: a run that got as far as the good run, then was stopped
 * from outside where no good run was, was interrupted; a stop every good
 * run got too is no news: the same. */
static void test_done_then_killed(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, GOOD "Signal (15) received.\nINFO unloading models\n");
	CHECK_INT(x.d.verdict, DX_INTERRUPTED);
	CHECK_INT(crash_summary(&x.d), 22);
	dx_free(&x);
	DIAGNOSE(&x, NULL, GOOD "Signal (15) received.\nINFO unloading models\n",
		 GOOD "Signal (15) received.\nINFO unloading models\n");
	CHECK_INT(x.d.verdict, DX_SAME);
	dx_free(&x);
}

/* cut_short: a server stopped by a signal before it did what the good
 * run did next (served a client), whose shutdown lines then follow the
 * good run's own shutdown after a signal, was INTERRUPTED there: it got
 * no further than the line before the notice.  One stopped where the
 * good run was stopped, with the same shutdown, was not cut short. */
#define SRV_UP "INFO starting\nINFO config loaded\nINFO waiting for connections on port 27017\n"
#define SRV_DOWN "INFO shutdown: closing listening sockets\nINFO shutdown: removing fs lock\nINFO dbexit: rc: 0\n"
static void test_cut_short(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, SRV_UP "INFO connection accepted from 127.0.0.1:55494\n"
		 "INFO got signal 15 (Terminated), will terminate after current cmd ends\n" SRV_DOWN,
		 SRV_UP "INFO got signal 2 (Interrupt), will terminate after current cmd ends\n" SRV_DOWN);
	CHECK_INT(x.d.verdict, DX_INTERRUPTED);
	CHECK_INT(x.d.bad_line, 2);
	CHECK_INT(x.d.good_line, 2);
	CHECK_INT(crash_summary(&x.d), 3);
	dx_free(&x);
	DIAGNOSE(&x, NULL, SRV_UP "INFO got signal 15 (Terminated), will terminate after current cmd ends\n" SRV_DOWN,
		 SRV_UP "INFO got signal 2 (Interrupt), will terminate after current cmd ends\n" SRV_DOWN);
	CHECK(x.d.verdict != DX_INTERRUPTED);
	dx_free(&x);
}

/* traceback_summary, crash_candidate, interrupted_at: a Ctrl-C chain is
 * INTERRUPTED, not crashed: its summary is the KeyboardInterrupt. */
static void test_ctrl_c(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, UPTO04 TRACEBACK("KeyboardInterrupt"));
	CHECK_INT(x.d.verdict, DX_INTERRUPTED);
	CHECK_INT(crash_summary(&x.d), 8);
	CHECK_INT(x.d.nnovel, 1);
	if (x.d.nnovel == 1)
		CHECK_INT(x.d.novel[0].summary, 8);
	dx_free(&x);
	/* A chain that ends in Ctrl-C was interrupted, whatever it was doing. */
	DIAGNOSE(&x, NULL, GOOD, UPTO04 TRACEBACK("TimeoutError: the lock is busy")
		 "|\n|During handling of the above exception, another exception occurred:\n|\n"
		 TRACEBACK("KeyboardInterrupt"));
	CHECK_INT(x.d.nnovel, 1);
	if (x.d.nnovel == 1)
		CHECK_INT(x.d.novel[0].summary, 15);
	CHECK_INT(x.d.verdict, DX_INTERRUPTED);
	dx_free(&x);
}

/* exited_early: a run whose last line, new, says it exits right after
 * where it got, before it got where the good run got, is over: CRASHED
 * at that line, not STOPPED.  The same line inside the run, with steps after it, is no
 * ending; nor is an exit line the good run printed too. */
static void test_exited_early(void)
{
	struct dx x;
	DIAGNOSE(&x, GENERIC, GOOD, UPTO04 "INFO Exiting\n");
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK_INT(crash_summary(&x.d), 5);
	dx_free(&x);
	/* After a way of its own, an exit ends that way: no early end. */
	DIAGNOSE(&x, GENERIC, GOOD, UPTO04 "INFO warming the disk cache\n" "INFO cache warm\n"
		 "INFO serving from the cache\n" "INFO Exiting\n");
	CHECK(x.d.verdict != DX_CRASHED);
	dx_free(&x);
	DIAGNOSE(&x, GENERIC, GOOD, UPTO04 "INFO Exiting\n" L05 L06);
	CHECK_INT(x.d.verdict, DX_STOPPED);
	dx_free(&x);
	DIAGNOSE(&x, GENERIC, UPTO09 "INFO Exiting\n" L10 L11, UPTO04 "INFO Exiting\n");
	CHECK(x.d.verdict != DX_CRASHED);
	dx_free(&x);
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "INFO Exiting\n");   /* no stop words */
	CHECK_INT(x.d.verdict, DX_STOPPED);
	dx_free(&x);
}

/* failed_step_after_step: a job whose steps failed one after another,
 * each failure followed by the good run's next step, FAILED at its
 * first failure, not CRASHED at the summary it ended with, and
 * INTERRUPTED when a Ctrl-C ended it; errors of different kinds the run
 * went on after are no such job. */
#define GO_TEST(t, verdict) "|=== RUN   Test" t "\n" "|--- " verdict ": Test" t " (0.00s)\n"
#define GO_TESTS(v) GO_TEST("Alpha", v) GO_TEST("Bravo", v) GO_TEST("Charlie", v) GO_TEST("Delta", v) \
	GO_TEST("Echo", v) GO_TEST("Foxtrot", v)
static void test_failed_step_after_step(void)
{
	struct dx x;
	DIAGNOSE(&x, GENERIC, GO_TESTS("PASS") "|PASS\n" "|ok  example.com/pkg 0.002s\n",
		 GO_TESTS("FAIL") "|FAIL\n" "|FAIL example.com/pkg 0.001s\n");
	CHECK_INT(x.d.verdict, DX_FAILED);
	CHECK_INT(crash_summary(&x.d), 1);
	CHECK_INT(x.d.bad_line, 0);
	dx_free(&x);
	/* Stopped from outside after its failures: how it ended comes first. */
	DIAGNOSE(&x, GENERIC, GO_TESTS("PASS") "|PASS\n" "|ok  example.com/pkg 0.002s\n",
		 GO_TESTS("FAIL") "|^CERROR: got KeyboardInterrupt signal\n");
	CHECK_INT(x.d.verdict, DX_INTERRUPTED);
	dx_free(&x);
	DIAGNOSE(&x, GENERIC, GOOD, L00 L01 "ERROR optional plugin zstd is missing\n" L02 L03
		 "ERROR the cache folder is not writable\n" L04 L05 "ERROR the pool gave out\n");
	CHECK_INT(x.d.verdict, DX_CRASHED);
	dx_free(&x);
}

/* record_cause: an error line that says no word (a request id heading
 * its record), or no failure but a verdict ("FAIL  test > name"), leaves
 * the cause to the next line of the record that says what failed; a
 * line that says what failed stays the cause. */
static void test_record_cause(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "FATAL [4cb7227f-642a-4326]\n" "ERROR the asset application.css is missing\n");
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK_INT(crash_summary(&x.d), 6);
	dx_free(&x);
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "FATAL the request failed\n" "ERROR the asset application.css is missing\n");
	CHECK_INT(crash_summary(&x.d), 5);
	dx_free(&x);
	/* A test runner's verdict names what failed, the next line how. */
	DIAGNOSE(&x, GENERIC, GOOD, UPTO04 "|FAIL  tests/pricing.test.ts > applies the discount\n"
		 "|AssertionError: expected 90 to be 81\n");
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK_INT(crash_summary(&x.d), 6);
	dx_free(&x);
	DIAGNOSE(&x, GENERIC, GOOD, UPTO04 "|FAIL: the fixture failed to load\n" "|AssertionError: expected 90 to be 81\n");
	CHECK_INT(crash_summary(&x.d), 5);
	dx_free(&x);
}

/* retried_error, still_retrying: an error its stream says it retries did
 * not end the run: a log that ends retrying is STOPPED, not crashed. */
static void test_retried_error(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "ERROR the cache server refused the connection\n"
		 "INFO will retry in 5 seconds\n+5 ERROR the cache server refused the connection\n"
		 "INFO will retry in 5 seconds\n");
	CHECK_INT(x.d.crash, DX_NONE);
	CHECK_INT(x.d.verdict, DX_STOPPED);
	dx_free(&x);
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "ERROR consumer: cannot connect to amqp://127.0.0.1:5672: refused\n"
		 "|Trying again in 2.00 seconds...\n+2 ERROR consumer: cannot connect to amqp://127.0.0.1:5672: refused\n"
		 "|Trying again in 4.00 seconds...\n");
	CHECK_INT(x.d.crash, DX_NONE);
	CHECK_INT(x.d.verdict, DX_STOPPED);
	dx_free(&x);
}

/* retried_error: an error of its own after the last retry notice is the
 * run giving up: CRASHED there. */
static void test_gave_up_after_retries(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "ERROR the cache server refused the connection\n"
		 "ERROR retrying in 1 second\n+1 ERROR the cache server refused the connection\n"
		 "ERROR retrying in 1 second\n+1 ERROR cannot reach the cache server, giving up\n");
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK_INT(crash_summary(&x.d), 9);
	dx_free(&x);
}

/* retried_error: only the error's own stream retrying excuses it. */
static void test_retry_other_stream(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, RANKS_HEAD RANKS_TAIL,
		 RANKS_HEAD "@0 ERROR the shard checksum does not match\n@1 INFO will retry in 5 seconds\n");
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK_INT(crash_summary(&x.d), 7);
	dx_free(&x);
	DIAGNOSE(&x, NULL, RANKS_HEAD RANKS_TAIL,
		 RANKS_HEAD "@0 ERROR the shard checksum does not match\n@0 INFO will retry in 5 seconds\n");
	CHECK_INT(x.d.crash, DX_NONE);
	dx_free(&x);
}

/* ---- findings and causes ---- */

/* find_tracebacks, traceback_severity: a traceback is one finding, of
 * its lines' highest severity, its summary the exception. */
static void test_traceback_one_finding(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, UPTO04 TRACEBACK("RuntimeError: could not start the service"));
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK_INT(x.d.nnovel, 1);
	if (x.d.nnovel == 1) {
		CHECK_INT(x.d.novel[0].line, 5);
		CHECK_INT(x.d.novel[0].nlines, 4);
		CHECK_INT(x.d.novel[0].traceback, 1);
		CHECK_INT(x.d.novel[0].severity, DX_ERROR);
		CHECK_INT(x.d.novel[0].summary, 8);
	}
	dx_free(&x);
}

/* traceback_extent, traceback_summary: a crash chain's cause is the last
 * exception it printed, whatever its class is named: the line after the
 * frames of each traceback of the chain is its exception. */
static void test_chain_last(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, UPTO04
		 TRACEBACK("KeyError: 'p6'")
		 "|\n|During handling of the above exception, another exception occurred:\n|\n"
		 TRACEBACK("jupyter_client.kernelspec.NoSuchKernel: No such kernel named p6"));
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK_INT(x.d.nnovel, 1);
	CHECK_INT(crash_summary(&x.d), 15);
	dx_free(&x);
	DIAGNOSE(&x, NULL, GOOD, UPTO04
		 TRACEBACK("ConnectionRefusedError: [Errno 111] Connection refused")
		 "|\n|The above exception was the direct cause of the following exception:\n|\n"
		 TRACEBACK("RuntimeError: could not start the service"));
	CHECK_INT(x.d.nnovel, 1);
	CHECK_INT(crash_summary(&x.d), 15);
	dx_free(&x);
}

/* traceback_summary: an exception that names itself and nothing else
 * has its message on the next line; a sentence there is the cause. */
static void test_message_below(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, UPTO04
		 TRACEBACK("RuntimeError: ")
		 "|        An attempt has been made to start a new process before the\n"
		 "|        current process has finished its bootstrapping phase.\n");
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK_INT(crash_summary(&x.d), 9);
	dx_free(&x);
}

/* message_after: an exception that leaves its message to the lines
 * after it ("Error raised in subprocess:") has its cause in the
 * traceback printed right after it. */
static void test_message_after(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, UPTO04
		 TRACEBACK("RuntimeError: Error raised in subprocess:")
		 TRACEBACK("ImportError: the flash attention extensions are missing"));
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK_INT(crash_summary(&x.d), 12);
	dx_free(&x);
}

/* traceback_headline: "EngineCore failed to start." right before a
 * traceback is its headline, part of the one finding. */
static void test_traceback_headline(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "ERROR EngineCore failed to start.\n"
		 TRACEBACK("RuntimeError: could not start the service"));
	CHECK_INT(x.d.nnovel, 1);
	if (x.d.nnovel == 1) {
		CHECK_INT(x.d.novel[0].line, 5);
		CHECK_INT(x.d.novel[0].nlines, 5);
		CHECK_INT(x.d.novel[0].summary, 9);
	}
	dx_free(&x);
	/* ... over a blank line between them: the traceback's exception is
	 * the cause, not the headline that announces it. */
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "ERROR application run failed\n|\n"
		 TRACEBACK("RuntimeError: could not start the service"));
	CHECK(finding_at(&x.d, 5) && finding_at(&x.d, 5)->traceback);
	CHECK_INT(crash_summary(&x.d), 10);
	dx_free(&x);
}

/* traced_cause: a line that introduces a traceback (spaCy's "Encountered
 * exception:" and the exception's repr over two lines) says what was
 * being done; the traceback's exception is the cause. */
static void test_traced_cause(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "ERROR Aborting and saving the final model. Encountered exception:\n"
		 "|KeyError(\"[E900] Could not run the full pipeline for\n|evaluation of the model\")\n"
		 TRACEBACK("KeyError: \"[E900] Could not run the full pipeline for evaluation of the model\""));
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK_INT(crash_summary(&x.d), 11);
	dx_free(&x);
}

/* classify_traceback_role: the quote marks around the child's traceback
 * that multiprocessing's RemoteTraceback quotes belong to the chain, so
 * that its cause is the last exception, the parent's. */
static void test_remote_traceback_chain(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "|multiprocess.pool.RemoteTraceback: \n|\"\"\"\n"
		 TRACEBACK("TypeError: the input must be a sequence of words")
		 "|\"\"\"\n|\n|The above exception was the direct cause of the following exception:\n|\n"
		 TRACEBACK("TypeError: the input must be a sequence of words"));
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK_INT(crash_summary(&x.d), 18);
	dx_free(&x);
}

/* traceback_summary: an exception that names itself and nothing else
 * ("ChildFailedError: ") says nothing; its headline does. */
static void test_says_nothing(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "ERROR the trainer child process failed\n" TRACEBACK("ChildFailedError: "));
	CHECK_INT(x.d.nnovel, 1);
	CHECK_INT(crash_summary(&x.d), 5);
	dx_free(&x);
}

/* traceback_severity: a traceback logged at WARNING (vLLM's "failed to
 * import" notices) is a warning, and no crash. */
static void test_warning_traceback(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "WARNING Traceback (most recent call last):\n"
		 "WARNING   File \"/app/fastpath.py\", line 117, in find\n"
		 "WARNING     assert cuda_home is not None\nWARNING AssertionError\n" L05 L06);
	const struct dx_novel *nv = finding_at(&x.d, 5);
	CHECK(nv != NULL);
	if (nv) {
		CHECK_INT(nv->severity, DX_WARNING);
		CHECK_INT(nv->traceback, 1);
		CHECK_INT(nv->nlines, 4);
	}
	CHECK_INT(x.d.crash, DX_NONE);
	CHECK_INT(x.d.verdict, DX_STOPPED);
	dx_free(&x);
}

/* python_exception: the line right after the frames is the exception,
 * whatever its name. */
static void test_python_exception_after_frames(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "|Traceback (most recent call last):\n"
		 "|  File \"/app/main.py\", line 5, in <module>\n|    compile()\n"
		 "|torch._dynamo.exc.BackendCompilerFailed: backend raised an error\n");
	CHECK_INT(x.d.nnovel, 1);
	if (x.d.nnovel == 1) {
		CHECK_INT(x.d.novel[0].nlines, 4);
		CHECK_INT(x.d.novel[0].summary, 8);
	}
	dx_free(&x);
}

/* crash_lines_init: a traceback's frames that match those of a
 * traceback the good run survived (library code both went through) are
 * an error's dump, not the run going on: bad crashed where its own
 * traceback began, and got as far as the line before it. */
static void test_frames_no_going_on(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, UPTO04 TRACEBACK("AttributeError: module 'bcrypt' has no attribute '__about__'") L05 L06 L07,
		 UPTO04 TRACEBACK("ModuleNotFoundError: No module named 'passlib'"));
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK_INT(crash_summary(&x.d), 8);
	CHECK_INT(x.d.bad_line, 4);
	CHECK_INT(x.d.good_line, 4);
	dx_free(&x);
}

/* quoted_cause: a wrapper error that quotes an earlier line verbatim
 * names that line as the cause, however far before it came. */
static void test_quoted_cause(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, L00 L01 L02 "WARNING NCCL WARN Bootstrap : no socket interface found\n" L03 L04
		 TRACEBACK("DistBackendError: NCCL error in: init.cpp:1, internal error")
		 "|Last error:\n|Bootstrap : no socket interface found\n");
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK_INT(crash_summary(&x.d), 3);
	dx_free(&x);
}

/* choose_cause: a warning right before the crash, speaking of what it
 * reports, is not its cause: the error is. */
static void test_warning_before_crash(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "WARNING client session timed out, have not heard from server\n"
		 "ERROR fatal error during server startup: timed out waiting for the server\n");
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK_INT(crash_summary(&x.d), 6);
	dx_free(&x);
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "WARNING the database connection was refused\n"
		 TRACEBACK("ConnectionRefusedError: [Errno 111] Connection refused")
		 "|\n|The above exception was the direct cause of the following exception:\n|\n"
		 TRACEBACK("RuntimeError: could not start the service"));
	CHECK_INT(crash_summary(&x.d), 16);
	dx_free(&x);
}

/* burst_cause, classify_is_advice: an error that says only what failed
 * heads a report whose last line, in the same moment, says why; advice
 * after it is none.  A crash line with a value of its own says why
 * itself, and lines in another moment are no part of its report. */
static void test_burst_cause(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "ERROR failed to start the server in production mode\n"
		 "+0 ERROR failed to obtain the database connection\n"
		 "+0 ERROR no suitable driver found for jdbc:postgresql://localhost/app\n"
		 "+0 ERROR for more details run the same command passing the '--verbose' option\n");
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK_INT(crash_summary(&x.d), 7);
	dx_free(&x);
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "ERROR main.c:3: 'count' undeclared in this function\n"
		 "+0 ERROR the build failed with 1 error\n");
	CHECK_INT(crash_summary(&x.d), 5);
	dx_free(&x);
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "ERROR failed to start the server in production mode\n"
		 "+5 ERROR the monitor lost the server at 10.0.0.7\n");
	CHECK_INT(crash_summary(&x.d), 5);
	dx_free(&x);
	/* Lines without a time tell no moment: a program may log its
	 * errors as they unwind, the innermost first. */
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "|gguf_init_from_file_impl: failed to read magic\n"
		 "|llama_model_load: error loading model: failed to load model from /models/x.gguf\n");
	CHECK_INT(crash_summary(&x.d), 5);
	dx_free(&x);
}

/* record_cause, place_after: an error that says only when it happened
 * ("error during build:") has its message on the next new line, error
 * or not; one that says more than that keeps its own, colon or not. */
static void test_error_during(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "|error during build:\n"
		 "|src/readable.js (8:8): \"StringDecoder\" is not exported by \"string_decoder.js\"\n");
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK_INT(crash_summary(&x.d), 6);
	dx_free(&x);
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "|error: the authority failed to verify some domains during the build:\n"
		 "|  Domain: example.com\n");
	CHECK_INT(crash_summary(&x.d), 5);
	dx_free(&x);
}

/* ---- reaching the end ---- */

static const char *const JOB_RULES =
	"[job]\n"
	"step ran: job step ran\n"
	"fail failed: the job has failed\n"
	"done finished: job finished\n";

#define JOB_HEAD "INFO runner picked up the job\nINFO checking out the repository\n" \
	"INFO restoring the dependency cache\nINFO installing the toolchain\n" \
	"INFO configuring the build tree\nINFO generating protocol stubs\n"
#define JOB_TAIL "INFO uploading the artifacts\nINFO cleaning up the workspace\nINFO job finished\n"

/* job_said: a job that says it finished, and never that it failed,
 * reached the good run's end, whatever steps it ran. */
static void test_job_finished(void)
{
	struct dx x;
	DIAGNOSE(&x, JOB_RULES, JOB_HEAD "INFO job step ran compile\nINFO linking the binaries\n"
		 "INFO job step ran unit tests\n" JOB_TAIL,
		 JOB_HEAD "INFO job step ran lint\nINFO lint output says all good\n" JOB_TAIL);
	CHECK_INT(x.d.verdict, DX_SAME);
	dx_free(&x);
	/* ... its tests' output quoting errors too. */
	DIAGNOSE(&x, JOB_RULES, JOB_HEAD "INFO job step ran compile\nINFO linking the binaries\n"
		 "INFO job step ran unit tests\n" JOB_TAIL,
		 JOB_HEAD "ERROR expected: connection refused (a test's output)\n" JOB_TAIL);
	CHECK_INT(x.d.verdict, DX_DIFFERENT);
	dx_free(&x);
}

/* failed_job_end: after a job says it failed, the runner's cleanup,
 * which matches the good run's, is no progress. */
static void test_failed_job_end(void)
{
	struct dx x;
	DIAGNOSE(&x, JOB_RULES, JOB_HEAD "INFO job step ran compile\nINFO linking the binaries\n"
		 "INFO job step ran unit tests\n" JOB_TAIL,
		 JOB_HEAD "INFO job step ran compile\nINFO the job has failed, see above\n" JOB_TAIL);
	CHECK_INT(x.d.bad_line, 6);
	CHECK(x.d.verdict != DX_SAME && x.d.verdict != DX_DIFFERENT);
	dx_free(&x);
}

/* job_said, failed_job_end: a job that says it failed did not reach the
 * end, and the runner's cleanup after it, which matches the good run's,
 * is no progress. */
static void test_job_failed(void)
{
	struct dx x;
	DIAGNOSE(&x, JOB_RULES, JOB_HEAD "INFO job step ran compile\nINFO linking the binaries\n"
		 "INFO job step ran unit tests\n" JOB_TAIL,
		 JOB_HEAD "INFO job step ran compile\nERROR the job has failed with exit code 2\n" JOB_TAIL);
	CHECK(x.d.verdict != DX_SAME && x.d.verdict != DX_DIFFERENT);
	CHECK_INT(x.d.bad_line, 6);
	dx_free(&x);
}

static const char *const SERVER_RULES =
	"[srv]\n"
	"step loaded: model weights loaded\n"
	"final listening: server listening on port\n";

#define SERVER_HEAD L00 L01 L02 "INFO server listening on port 11434\n"

/* died_after_up: a server that came up, then failed in a step the good
 * run took after it was up, did not reach the good run's end. */
static void test_died_after_up(void)
{
	struct dx x;
	DIAGNOSE(&x, SERVER_RULES, SERVER_HEAD "INFO runner subprocess started\nINFO model weights loaded\n"
		 "INFO request served in time\n",
		 SERVER_HEAD "ERROR runner terminated: error loading model\n");
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK_INT(crash_summary(&x.d), 4);
	dx_free(&x);
	/* One that went on through the good run's steps after the error (a
	 * request's traceback, then the same work and the same shutdown)
	 * did not die there: the error failed a step, the run went on. */
	DIAGNOSE(&x, SERVER_RULES, SERVER_HEAD "INFO runner subprocess started\nINFO model weights loaded\n"
		 "INFO request served in time\nINFO shutting down the server\n",
		 SERVER_HEAD "ERROR request handler raised: no row was found\nINFO runner subprocess started\n"
		 "INFO shutting down the server\n");
	CHECK_INT(x.d.verdict, DX_FAILED);
	CHECK_INT(crash_summary(&x.d), 4);
	dx_free(&x);
}

/* failed_and_went_on: a run that printed a new error, then went on
 * through the good run's steps and took a way of its own at its end (a
 * pipeline's later stages after its tests failed) failed a step: the
 * error is its cause.  One that stopped after going on stays STOPPED. */
static void test_failed_and_went_on(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, L00 L01 L02 L03 L04 L05 L06 L07 L08 L09,
		 L00 L01 "ERROR test_add failed: expected 4, got 5\n" L03 L04 L05 L06
		 "INFO skipping the deploy stage\nINFO sending the report by mail\nINFO tagging the release\n");
	CHECK_INT(x.d.verdict, DX_FAILED);
	CHECK_INT(crash_summary(&x.d), 2);
	dx_free(&x);
	DIAGNOSE(&x, NULL, L00 L01 L02 L03 L04 L05 L06 L07 L08 L09,
		 L00 L01 "ERROR test_add failed: expected 4, got 5\n" L03 L04 L05 L06);
	CHECK_INT(x.d.verdict, DX_STOPPED);
	dx_free(&x);
}

static const char *const READY_RULES = "[srv]\nfinal ready: the engine reports ready\n";

#define READY "INFO the engine reports ready\n"

/* reached_last_print: a final step the good run prints all along is
 * reached only where it printed it last. */
static void test_reached_last_print(void)
{
	struct dx x;
	DIAGNOSE(&x, READY_RULES, L00 L01 L02 READY L08 L09 READY L14, L00 L01 L02 READY);
	CHECK_INT(x.d.verdict, DX_STOPPED);
	dx_free(&x);
	DIAGNOSE(&x, READY_RULES, L00 L01 L02 READY L08 L09 READY L14, L00 L01 L02 READY L08 L09 READY);
	CHECK_INT(x.d.verdict, DX_SAME);
	dx_free(&x);
}

/* reached_last_print: a line like the end, printed (by another stream)
 * before bad's own steps that lead there, is no end the run got to: a
 * supervisor's "Started X." as it launched X, which then stopped. */
static void test_end_before_its_steps(void)
{
	struct dx x;
	DIAGNOSE(&x, READY_RULES, L00 L01 L02 L03 READY, "@1 " READY "@0 " L00 "@0 " L01 "@0 " L02);
	CHECK_INT(x.d.verdict, DX_STOPPED);
	CHECK_INT(x.d.bad_line, 3);
	dx_free(&x);
	/* Printed after them, it is reached. */
	DIAGNOSE(&x, READY_RULES, L00 L01 L02 L03 READY, "@0 " L00 "@0 " L01 "@0 " L02 "@0 " L03 "@1 " READY);
	CHECK_INT(x.d.verdict, DX_SAME);
	dx_free(&x);
}

/* reached_last_print: in a good log of two runs, the end is where the
 * first run printed it last: the next start banner ends that run. */
static void test_good_log_of_two_runs(void)
{
	struct dx x;
	DIAGNOSE(&x, READY_RULES, L00 L01 L02 READY L08 L00 L01 L02 READY L08, L00 L01 L02 READY L08);
	CHECK_INT(x.d.verdict, DX_SAME);
	dx_free(&x);
}

/* last_following: a blank line says nothing of where bad got, nor a
 * drawn rule around a section of bad's own; the line before does.  A
 * rule under a section that follows does, and so does a line of
 * digits. */
static void test_blank_line(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, L00 L01 L02 "|\n" L03 L04 L05, L00 L01 L02 "|\n");
	CHECK_INT(x.d.bad_line, 2);
	CHECK_INT(x.d.good_line, 2);
	dx_free(&x);
	DIAGNOSE(&x, NULL, L00 L01 "|========\n" L02 "|========\n" L03 L04 L05,
		 L00 L01 "|========\n" L02 "|========\n");
	CHECK_INT(x.d.bad_line, 4);
	CHECK_INT(x.d.good_line, 4);
	dx_free(&x);
	DIAGNOSE(&x, NULL, L00 L01 L02 "|Upsampling minority classes\n" "|========\n",
		 L00 L01 "|========\n" L02 "|========\n");
	CHECK_INT(x.d.bad_line, 2);
	dx_free(&x);
	DIAGNOSE(&x, NULL, L00 L01 L02 "|   11500 / 11554\n" L03 L04 L05, L00 L01 L02 "|   11500 / 11554\n");
	CHECK_INT(x.d.bad_line, 3);
	dx_free(&x);
}

/* further_stream: where bad got is the stream furthest on in the good
 * run, not a line the launcher printed late. */
static void test_further_stream(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL,
		 "INFO launcher starting the shards\nINFO launcher found a config file\n"
		 "@0 INFO shard loading weights from disk\n@0 INFO shard waiting for its peers\n"
		 "@0 INFO shard connected to its peers\n@0 INFO shard serving requests now\n"
		 "INFO launcher reports all shards up\n",
		 "INFO launcher starting the shards\n@0 INFO shard loading weights from disk\n"
		 "@0 INFO shard waiting for its peers\nINFO launcher found a config file\n");
	CHECK_INT(x.d.bad_line, 2);
	dx_free(&x);
}

/* stopped_or_diverged, own_lines_after: a few lines of its own after
 * where it got still make a stop; more make another path: DIVERGED. */
static void test_diverged(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "INFO choosing another backend\nINFO the other backend is loading\n");
	CHECK_INT(x.d.verdict, DX_STOPPED);
	dx_free(&x);
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "INFO choosing another backend\nINFO the other backend is loading\n"
		 "INFO the other backend serves now\n");
	CHECK_INT(x.d.verdict, DX_DIVERGED);
	CHECK_INT(x.d.bad_line, 4);
	dx_free(&x);
}

/* ends_before_stable_part, good_end: a training run that stopped at
 * step 0 of its loop is no match, though the last milestone learned is
 * its progress bar, which it drew: the good run printed the loop's
 * rounds after it, and a progress display is never the good run's end. */
static void test_stable_part(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, UPTO04 "INFO Training Progress: 100%| | 1000/1000 [00:10<00:00]\n"
		 "INFO epoch 1 finished with loss 0.52\nINFO epoch 2 finished with loss 0.41\n"
		 "INFO epoch 3 finished with loss 0.33\n",
		 UPTO04 "INFO Training Progress: 0%| | 0/1000 [00:00<?]\n");
	CHECK_INT(x.d.verdict, DX_STOPPED);
	const struct dx_milestone *fin = dx_final_milestone(&x.d);
	CHECK(fin && !strstr(dx_milestone_name(&x.d, fin), "<pct>"));
	dx_free(&x);
	/* A run that printed the rounds too reached the end. */
	DIAGNOSE(&x, NULL, UPTO04 "INFO Training Progress: 100%| | 1000/1000 [00:10<00:00]\n"
		 "INFO epoch 1 finished with loss 0.52\nINFO epoch 2 finished with loss 0.41\n",
		 UPTO04 "INFO Training Progress: 100%| | 1000/1000 [00:12<00:00]\n"
		 "INFO epoch 1 finished with loss 0.55\nINFO epoch 2 finished with loss 0.44\n");
	CHECK_INT(x.d.verdict, DX_SAME);
	dx_free(&x);
	/* Requests a server answered come when its clients do: one up and
	 * idle printed all it prints of its own. */
	DIAGNOSE(&x, NULL, UPTO04 "INFO \"GET /todos HTTP/1.1\" 200 4139\nINFO \"GET /todos HTTP/1.1\" 200 4139\n",
		 UPTO04);
	CHECK_INT(x.d.verdict, DX_SAME);
	dx_free(&x);
	/* continues: an indented line after a blank one (the header of each
	 * round, column-aligned as YOLOv5 prints it) is a step of its own,
	 * no continuation: a run that ended before the first round did not
	 * finish, whether its last line was learned or a step a rule names
	 * but no final one ("Starting ..."). */
	static const char *const ends[] = { "|Training for 10 epochs\n", "|Starting training for 10 epochs\n" };
	for (size_t k = 0; k < 2; k++) {
		char good[512];
		snprintf(good, sizeof(good), "%s%s|\n|      Epoch    GPU_mem   box_loss\n|      0/9      2.26G     0.0874\n"
			 "|\n|      Epoch    GPU_mem   box_loss\n|      1/9      2.77G     0.0584\n", UPTO04, ends[k]);
		char bad[256];
		snprintf(bad, sizeof(bad), "%s%s|\n", UPTO04, ends[k]);
		DIAGNOSE(&x, NULL, good, bad);
		CHECK_INT(x.d.verdict, DX_STOPPED);
		dx_free(&x);
	}
	/* line_continues: a line indented as the one above continues
	 * nothing: a run whose every line is indented (a log pasted so, a
	 * runner that indents all it prints) that stopped before the good
	 * run's last line did not finish. */
	/* build_step: a build's "[ 39%] Built target x" is a step done, no
	 * progress display: a build that stopped after its first target
	 * did not finish. */
#define CONFIGURED "|-- Configuring done\n|-- Generating done\n|[  8%] Building C object a.o\n" \
		   "|[ 25%] Linking C shared module liba.so\n|[ 39%] Built target a\n"
	DIAGNOSE(&x, NULL, CONFIGURED "|[ 46%] Building C object b.o\n|[ 53%] Building C object c.o\n"
		 "|[ 96%] Linking C executable b\n|[100%] Built target b\n", CONFIGURED);
	CHECK_INT(x.d.verdict, DX_STOPPED);
	dx_free(&x);
#undef CONFIGURED
#define DEPRECATED "|  /app/x.py:12: DeprecationWarning: np.object is a deprecated alias\n"
	DIAGNOSE(&x, NULL, DEPRECATED "|  [07/15 10:35:33] engine INFO: Best test accuracy is 0.858.\n", DEPRECATED);
#undef DEPRECATED
	CHECK_INT(x.d.verdict, DX_STOPPED);
	dx_free(&x);
}

/* interrupted_at: a run killed after where it got is INTERRUPTED,
 * however many lines of its own it printed; so is one whose runner
 * reports SIGINT's or SIGTERM's exit status, or a CI cancel. */
static void test_killed_after(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "INFO choosing another backend\nINFO the other backend is loading\n"
		 "INFO the other backend serves now\nWARNING received SIGTERM, shutting down\n");
	CHECK_INT(x.d.verdict, DX_INTERRUPTED);
	CHECK_INT(crash_summary(&x.d), 8);
	dx_free(&x);
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "ERROR Process completed with exit code 130.\n");
	CHECK_INT(x.d.verdict, DX_INTERRUPTED);
	dx_free(&x);
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "|##[error]The operation was canceled.\n");
	CHECK_INT(x.d.verdict, DX_INTERRUPTED);
	dx_free(&x);
	/* SIGKILL's 137 is the OOM killer's too: no interruption. */
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "ERROR Process completed with exit code 137.\n");
	CHECK_INT(x.d.verdict, DX_CRASHED);
	dx_free(&x);
}

/* failed_step: a run that reached the good run's end after an error no
 * good run printed (a request, a test that failed while the run went
 * on) is FAILED, never the same, with that error as its cause; an error
 * it retried is none. */
static void test_failed_step(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, UPTO09 "|Traceback (most recent call last):\n|  File \"/app/step.py\", line 3\n"
		 "|torch.OutOfMemoryError: Allocation on device\n" L10 L11 L12 L13 L14 FROM15);
	CHECK_INT(x.d.verdict, DX_FAILED);
	CHECK_INT(crash_summary(&x.d), 12);
	dx_free(&x);
	DIAGNOSE(&x, NULL, GOOD, UPTO09 "ERROR the upload failed, retrying in 2 s\n" L10 L11 L12 L13 L14 FROM15);
	CHECK_INT(x.d.verdict, DX_DIFFERENT);
	dx_free(&x);
	/* A level the header parser did not take is a word of the line:
	 * gunicorn's "[pid] [CRITICAL] WORKER TIMEOUT" is an error. */
	DIAGNOSE(&x, NULL, GOOD, UPTO09 "|[72199] [CRITICAL] WORKER TIMEOUT (pid:72200)\n" L10 L11 L12 L13 L14 FROM15);
	CHECK_INT(x.d.verdict, DX_FAILED);
	CHECK_INT(crash_summary(&x.d), 10);
	dx_free(&x);
}

/* align_runs, bar_ahead, bar_at_exit: a progress bar is progress of its
 * own, also where a log whose CRs were lost glued the next output to it.
 * A run that crashed as its loop began reached the loop's first frame
 * (by the bar in front of its traceback, quoted as the bar); one that
 * crashed at step 2 reached the good run's step 2, not the good run's
 * later frame that the aligner paired with its bar; a bar closed after
 * the traceback says how far the loop got. */
#define LOOP_START "INFO model loaded, starting the training loop\n"
#define BAR(n, total) "|  2%|#      | " #n "/" #total " [00:08<1:45:11,  3.02s/it]"
#define LOSS(x) "|{'loss': " #x ", 'epoch': 0.01}\n"
#define GLUED_TRACEBACK(exc) "Traceback (most recent call last):\n" "|  File \"/app/main.py\", line 5, in <module>\n" \
	"|    start()\n" "|" exc "\n"
static void test_glued_bar(void)
{
	struct dx x;
	const char *good = LOOP_START BAR(0, 300) "/opt/torch/checkpoint.py:90: UserWarning: None of the inputs\n"
		LOSS(35.0) LOSS(33.5) LOSS(32.5) LOSS(28.6) BAR(4, 300) "\n" LOSS(23.0) LOSS(18.7)
		BAR(8, 300) "\n" LOSS(12.0);
	DIAGNOSE(&x, NULL, good, LOOP_START BAR(0, 242731) GLUED_TRACEBACK("TypeError: 'Model' object is not subscriptable"));
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK_INT(x.d.bad_line, 1);
	CHECK_INT(x.d.good_line, 1);
	CHECK(x.d.bad_by_bar && x.d.good_by_bar);
	dx_free(&x);
	DIAGNOSE(&x, NULL, good, LOOP_START BAR(0, 242731) "/opt/torch/checkpoint.py:90: UserWarning: None of the inputs\n"
		 LOSS(35.0) LOSS(35.0) BAR(2, 242731) GLUED_TRACEBACK("torch.OutOfMemoryError: CUDA out of memory"));
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK_INT(x.d.bad_line, 3);
	CHECK_INT(x.d.good_line, 3);
	dx_free(&x);
	DIAGNOSE(&x, NULL, BAR(0, 30) "[INFO:trainer] use_logits_to_keep: False\n"
		 BAR(1, 30) "{'loss': 1.9, 'epoch': 0.01}\n" BAR(2, 30) "{'loss': 1.7, 'epoch': 0.02}\n",
		 TRACEBACK("AttributeError: 'dict' object has no attribute 'shape'") BAR(0, 30) "\n");
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK_INT(x.d.bad_line, 4);
	CHECK_INT(x.d.good_line, 0);
	dx_free(&x);
}

/* bar_ahead, caught_up, says_after: a good log that kept only its bar's
 * first and last frames (its carriage-return frames collapsed in the
 * copy) has no frame where bad's loop stopped: a run ^C'd at step 11,
 * right after all the good run printed before the bar's last frame, is
 * in that bar's stretch -- and the KeyboardInterrupt glued behind its
 * bar comes after it: INTERRUPTED, not DIVERGED. */
static void test_bar_last_frame_only(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, LOOP_START BAR(0, 489) "\n|/opt/torch/amp.py:79: FutureWarning: autocast is deprecated\n"
		 BAR(489, 489) "\n" LOSS(0.69) LOSS(0.68) LOSS(0.66) "|{'train_runtime': 1221.0, 'epoch': 1.0}\n",
		 LOOP_START BAR(0, 489) "\n|/opt/torch/amp.py:79: FutureWarning: autocast is deprecated\n"
		 BAR(11, 489) GLUED_TRACEBACK("KeyboardInterrupt"));
	CHECK_INT(x.d.verdict, DX_INTERRUPTED);
	CHECK_INT(x.d.bad_line, 3);
	CHECK_INT(x.d.good_line, 3);
	dx_free(&x);
}

/* failed_departure: a run that failed and went on diverged where it
 * left the good run's path: before the first good step it skipped (the
 * good run's "application fully initialized" where bad said its job was
 * killed), even when its failure's line came before that (a worker's
 * stderr written ahead of the job's report); before its failure when it skipped none.  It
 * still went on to its end (end_line). */
static void test_failed_departure(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD "INFO the batch job report follows\n",
		 L00 "|fatal: the worker ran out of memory\n" L01 L02 L03 L04 L05 L06 L07 L08 L09 L10 L11 L12 L13
		 L14 L15 L16 L17 L18 L19 L20 "INFO job killed after reaching the memory limit\n"
		 "INFO the batch job report follows\n");
	CHECK_INT(x.d.verdict, DX_FAILED);
	CHECK_INT(crash_summary(&x.d), 1);
	CHECK_INT(x.d.good_line, 20);
	CHECK_INT(x.d.bad_line, 21);
	CHECK_INT(x.d.end_line, 23);
	CHECK(x.d.nnext > 0 && x.d.next[0] == 21);
	dx_free(&x);
	DIAGNOSE(&x, NULL, GOOD, UPTO09 "ERROR test_upload failed: expected 200, got 500\n" L10 L11 L12 L13 L14 FROM15);
	CHECK_INT(x.d.verdict, DX_FAILED);
	CHECK_INT(x.d.bad_line, 9);
	CHECK_INT(x.d.good_line, 9);
	CHECK_INT(x.d.end_line, 22);
	dx_free(&x);
	/* first_skipped: a line of bad's own in a step's place before the
	 * failure is that step reworded, not one bad skipped */
	DIAGNOSE(&x, NULL, GOOD,
		 L00 "INFO handling the flags of the widget build\n" L02 L03 L04 L05 L06 L07 L08 L09
		 "ERROR test_upload failed: expected 200, got 500\n" L10 L11 L12 L13 L14 FROM15);
	CHECK_INT(x.d.verdict, DX_FAILED);
	CHECK_INT(x.d.bad_line, 9);
	CHECK_INT(x.d.good_line, 9);
	dx_free(&x);
}

/* find_non_finite: a number that became nan or inf where the good run
 * printed a number is an error, though the run went on to its end; not
 * when a good run printed nan there too. */
static void test_non_finite(void)
{
	struct dx x;
	const char *good = "INFO epoch 1 loss=2.31 acc=0.11\nINFO epoch 2 loss=1.90 acc=0.31\n"
			   "INFO epoch 3 loss=1.50 acc=0.45\nINFO epoch 4 loss=1.21 acc=0.52\nINFO training done\n";
	DIAGNOSE(&x, NULL, good, "INFO epoch 1 loss=2.31 acc=0.11\nINFO epoch 2 loss=nan acc=0.10\n"
		 "INFO epoch 3 loss=nan acc=0.10\nINFO epoch 4 loss=nan acc=0.10\nINFO training done\n");
	CHECK_INT(x.d.verdict, DX_FAILED);
	CHECK_INT(crash_summary(&x.d), 1);
	dx_free(&x);
	DIAGNOSE(&x, NULL, good, "INFO epoch 1 loss=2.31 acc=0.11\nINFO epoch 2 loss=-inf acc=0.10\n"
		 "INFO epoch 3 loss=1.50 acc=0.45\nINFO epoch 4 loss=1.21 acc=0.52\nINFO training done\n");
	CHECK_INT(x.d.verdict, DX_FAILED);
	CHECK_INT(crash_summary(&x.d), 1);
	dx_free(&x);
	DIAGNOSE(&x, NULL, "INFO epoch 1 loss=2.31 acc=0.11\nINFO epoch 2 loss=nan acc=0.31\n"
		 "INFO epoch 3 loss=1.50 acc=0.45\nINFO epoch 4 loss=1.21 acc=0.52\nINFO training done\n",
		 "INFO epoch 1 loss=2.31 acc=0.11\nINFO epoch 2 loss=1.90 acc=0.31\n"
		 "INFO epoch 3 loss=nan acc=0.45\nINFO epoch 4 loss=1.21 acc=0.52\nINFO training done\n");
	CHECK(x.d.verdict != DX_FAILED);
	dx_free(&x);
}

/* failed_step: a service that came up after an error it printed on the
 * way recovered from it (a finding, never FAILED); an error once it was
 * up is a failed step.  count_attempts: a line of the good run's start
 * that bad printed once, after an error and after the good run's first
 * line, is a step, not a restart. */
static void test_recovered_before_up(void)
{
	struct dx x;
	const char *good = "INFO loading config\nINFO loading model\nINFO Application startup complete.\n"
			   "INFO GET /health 200\n";
	DIAGNOSE(&x, GENERIC, good, "INFO loading config\nERROR the tokenizer download failed, status 404\n"
		 "INFO loading model\nINFO Application startup complete.\nINFO GET /health 200\n");
	CHECK_INT(x.d.attempts, 1);
	CHECK_INT(x.d.verdict, DX_DIFFERENT);
	CHECK(finding_at(&x.d, 1) != NULL);
	dx_free(&x);
	DIAGNOSE(&x, GENERIC, good, "INFO loading config\nINFO loading model\nINFO Application startup complete.\n"
		 "ERROR the model worker died: CUDA error\nINFO GET /health 200\n");
	CHECK_INT(x.d.verdict, DX_FAILED);
	CHECK_INT(crash_summary(&x.d), 3);
	dx_free(&x);
}

/* find_attempts: a restart loop's last attempt is diagnosed: the log's
 * attempts are counted, and the findings are the last attempt's. */
static void test_restart_loop(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, L00 L01 L02 "ERROR the data directory is not writable\n"
		 L00 L01 L02 "ERROR the data directory is not writable\n"
		 L00 L01 L02 L03 "ERROR the database refused the login\n");
	CHECK_INT(x.d.attempts, 3);
	CHECK_INT(x.d.attempt, 3);
	CHECK_INT(x.d.attempt_line, 8);
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK_INT(crash_summary(&x.d), 12);
	CHECK_INT(x.d.nnovel, 1);
	CHECK_INT(x.d.bad_line, 11);
	dx_free(&x);
}

/* find_attempts: a line the good run prints again after its prelude (a
 * test suite's header, one per suite) is a step of the run, no start
 * banner: a suite that starts after a failed test is the same run. */
static void test_suite_header_no_banner(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, "|[==========] Running 3 tests from 2 test suites.\n|[----------] 2 tests from LinearModelTest\n"
		 "|[ RUN      ] LinearModelTest.BasicCalculation\n|[       OK ] LinearModelTest.BasicCalculation (0 ms)\n"
		 "|[ RUN      ] LinearModelTest.OneStep\n|[       OK ] LinearModelTest.OneStep (0 ms)\n"
		 "|[----------] 1 tests from NonlinearModelTest\n|[ RUN      ] NonlinearModelTest.TwoStepsCase\n"
		 "|[       OK ] NonlinearModelTest.TwoStepsCase (0 ms)\n|[  PASSED  ] 3 tests.\n",
		 "|[==========] Running 3 tests from 2 test suites.\n|[----------] 2 tests from CalcTestSuite\n"
		 "|[ RUN      ] CalcTestSuite.SumAddsTwoInts\n|[       OK ] CalcTestSuite.SumAddsTwoInts (0 ms)\n"
		 "|[ RUN      ] CalcTestSuite.MultiplyMultipliesTwoInts\n|calc_test.cpp:14: Failure\n"
		 "|[----------] 1 tests from RunTest\n|[ RUN      ] RunTest.RunOutputsCorrectEquations\n"
		 "|[       OK ] RunTest.RunOutputsCorrectEquations (0 ms)\n|[  PASSED  ] 2 tests.\n");
	CHECK_INT(x.d.attempts, 1);
	CHECK_INT(x.d.verdict, DX_FAILED);
	CHECK_INT(crash_summary(&x.d), 5);
	dx_free(&x);
}

/* find_attempts: a run starts before it is up; a server that is up and
 * boots a new worker in place of one that timed out has not restarted,
 * though that line and the next recur after an error. */
static void test_up_then_worker_again(void)
{
	struct dx x;
	DIAGNOSE(&x, GENERIC, "INFO Starting server 2.0\nINFO Listening at: http://0.0.0.0:8000\n"
		 "INFO Booting worker with pid: 17\nINFO Handling signal: term\nINFO Shutting down: Master\n",
		 "INFO Starting server 2.0\nINFO Listening at: http://0.0.0.0:8000\n"
		 "INFO Booting worker with pid: 17\n+600 CRITICAL WORKER TIMEOUT (pid:17)\n"
		 "INFO Booting worker with pid: 18\nINFO Handling signal: term\nINFO Shutting down: Master\n");
	CHECK_INT(x.d.attempts, 1);
	CHECK_INT(crash_summary(&x.d), 3);
	dx_free(&x);
}

/* record_cause: a step's cross mark names what failed, "A SystemError
 * occurred." only that something did; the line after them that no good
 * run printed says what: the cause.  A line that says more is its own
 * cause. */
static void test_record_says_what_failed(void)
{
	struct dx x;
	const char *good = "|✔ Checking folder\n|✔ Setting up install directory\n"
			   "|✔ Downloading and installing Ghost v3.33.0\n|✔ Finishing install process\n";
	DIAGNOSE(&x, GENERIC, good, "|✔ Checking folder\n|✔ Setting up install directory\n"
		 "|✖ Downloading and installing Ghost v4.6.4\n|A SystemError occurred.\n|\n"
		 "|Message: Ghost v4.6.4 is not compatible with the current Node version.\n|\n"
		 "|Try running ghost doctor to check your system for known issues.\n");
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK_INT(crash_summary(&x.d), 5);
	CHECK_INT(x.d.bad_line, 1);
	dx_free(&x);
	DIAGNOSE(&x, GENERIC, good, "|✔ Checking folder\n|✔ Setting up install directory\n"
		 "|A SystemError occurred while unpacking ghost-4.6.4.tgz\n|Message: see above\n");
	CHECK_INT(crash_summary(&x.d), 2);
	dx_free(&x);
	/* An error that says only where it was raised, once per frame. */
	DIAGNOSE(&x, GENERIC, good, "|✔ Checking folder\n|✔ Setting up install directory\n"
		 "|[ ERROR ] Exception from src/cpp/core.cpp:104:\n|Exception from src/dev/plugin.cpp:53:\n"
		 "|Exception from src/cpu/config.cpp:226:\n|Exception from src/cpu/node.cpp:12:\n"
		 "|Wrong value for property key RATE. Expected only float numbers\n");
	CHECK_INT(crash_summary(&x.d), 6);
	dx_free(&x);
}

/* traceback_summary: an exception named alone on its line (cleo's, in
 * Poetry) has its message on the next line that is not blank: that is
 * what the crash says. */
static void test_exception_named_alone(void)
{
	struct dx x;
	DIAGNOSE(&x, GENERIC, "|Updating dependencies\n|Resolving dependencies...\n|Writing lock file\n",
		 "|Updating dependencies\n|Resolving dependencies...\n|\n|  SolverProblemError\n|\n"
		 "|  The current project's Python requirement is not compatible with pytest:\n"
		 "|    - pytest requires Python >=3.6\n");
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK_INT(crash_summary(&x.d), 5);
	dx_free(&x);
}

/* canonicalise: a line of two words is the step another run printed
 * with the same two and an aside ("Resolving dependencies... (0.9s)"),
 * and no step that shares one word of the two. */
static void test_two_words_and_an_aside(void)
{
	struct dx x;
	const char *good = "|Updating dependencies\n|Resolving dependencies... (0.9s)\n"
			   "|Package operations: 5 installs\n|Writing lock file\n";
	DIAGNOSE(&x, GENERIC, good, "|Updating dependencies\n|Resolving dependencies...\n");
	CHECK_INT(x.d.bad_line, 1);
	dx_free(&x);
	DIAGNOSE(&x, GENERIC, good, "|Updating dependencies\n|Resolving conflicts... (0.9s)\n");
	CHECK_INT(x.d.bad_line, 0);
	dx_free(&x);
}

/* canonicalise: of two lines that each read as one step of the good run,
 * the more alike is that step: Tomcat 9's "Catalina.load Server
 * initialization in [N] milliseconds" shares enough words with 8.0's
 * "Catalina.start Server startup in N ms" to merge, but its own "Server
 * startup in [N] milliseconds" shares more, so that is the step reached. */
static void test_more_alike_merges(void)
{
	struct dx x;
	DIAGNOSE(&x, GENERIC,
		 "INFO [main] org.apache.catalina.startup.Catalina.start Server startup in 812 ms\n"
		 "INFO [main] org.apache.coyote.AbstractProtocol.start Starting ProtocolHandler\n"
		 "INFO [main] org.apache.catalina.core.StandardServer.await Ready for requests\n",
		 "INFO [main] org.apache.catalina.startup.Catalina.load Server initialization in [412] milliseconds\n"
		 "INFO [main] org.apache.catalina.startup.Catalina.start Server startup in [812] milliseconds\n");
	CHECK_INT(x.d.bad_line, 1);
	CHECK_INT(x.d.good_line, 0);
	dx_free(&x);
}

/* end_jump_follows: a step the good run printed once more right before
 * its end (a second connector: Tomcat's "Starting ProtocolHandler" for
 * http and for ajp) is the step bad printed already: going on from it to
 * the good run's next line jumps over no end. */
static void test_repeat_is_no_end(void)
{
	struct dx x;
	DIAGNOSE(&x, GENERIC,
		 "INFO Starting service [Catalina]\nINFO Starting Servlet engine\n"
		 "INFO Starting ProtocolHandler [\"http-nio-8080\"]\nINFO Starting ProtocolHandler [\"ajp-nio-8009\"]\n"
		 "INFO Server startup in 1170 ms\n",
		 "INFO Starting service [Catalina]\nINFO Starting Servlet engine\n"
		 "INFO Starting ProtocolHandler [\"http-nio-8080\"]\nINFO Server startup in 980 ms\n"
		 "SEVERE Failed to create server shutdown socket on port 8005\n");
	CHECK_INT(x.d.bad_line, 3);
	CHECK_INT(x.d.good_line, 4);
	dx_free(&x);
}

/* jumps_coming_step: a template whose printings name their step
 * (ZenML's "Step <name> has started.") has a copy of a pending step only
 * in a line that names it: good ran cleaner and trainer, which bad's
 * pipeline lacks, so bad's next step is no copy of theirs, and bad got
 * as far as the good run's deployer. */
static void test_named_step_copy(void)
{
	struct dx x;
	DIAGNOSE(&x, GENERIC,
		 "Step loader has started.\nStep cleaner has started.\nStep trainer has started.\n"
		 "Step evaluator has started.\nStep evaluator has finished in 1s.\nCaching disabled for deployer.\n"
		 "Step deployer has started.\nStep deployer has finished in 1s.\nRun done in 2s.\n",
		 "Step loader has started.\nStep loader has finished in 1s.\nStep splitter has started.\n"
		 "Step splitter has finished in 1s.\nStep evaluator has started.\nStep evaluator has finished in 1s.\n"
		 "Step model_deployer has started.\nFailed to run step model_deployer.\n");
	CHECK_INT(x.d.bad_line, 6);
	CHECK_INT(x.d.good_line, 6);
	dx_free(&x);
}

/* find_attempts: a start banner is printed once per run: a line the
 * good run prints both as it starts and as it tears down (GStreamer's
 * "Setting pipeline to PAUSED ...") starts no attempt when bad prints it
 * again after an error, and the error is the failure. */
static void test_banner_printed_twice(void)
{
	struct dx x;
	DIAGNOSE(&x, GENERIC, "Setting pipeline to PAUSED ...\nPipeline is live\nGot EOS\n"
		 "Setting pipeline to PAUSED ...\nSetting pipeline to NULL ...\nFreeing pipeline ...\n",
		 "Setting pipeline to PAUSED ...\nPipeline is live\nERROR: Failed to decode JPEG image\n"
		 "Setting pipeline to PAUSED ...\nSetting pipeline to NULL ...\nFreeing pipeline ...\n");
	CHECK_INT(x.d.attempts, 1);
	CHECK_INT(crash_summary(&x.d), 2);
	dx_free(&x);
}

/* count_attempts: an error that says it will be retried fails no
 * attempt: the banner printed again after it is the retry, one run,
 * and a run that then goes silent stopped. */
static void test_retried_error_no_attempt(void)
{
	struct dx x;
	DIAGNOSE(&x, GENERIC, "Collecting metadata: done\nSolving: frozen solve\nSolving: done\n"
		 "Fetching packages\nPreparing transaction: done\n",
		 "Collecting metadata: done\nSolving: frozen solve\n"
		 "Solving: failed with the first source, will retry with the next source\n"
		 "Collecting metadata: done\nSolving: frozen solve\n");
	CHECK_INT(x.d.attempts, 1);
	CHECK_INT(x.d.verdict, DX_STOPPED);
	dx_free(&x);
}

/* count_attempts: a last attempt that printed no more than the banner
 * (the log was cut there) shows nothing: the one before is diagnosed,
 * and d.attempt says which it is (no "this is the last"). */
static void test_restart_cut(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, L00 L01 L02 "ERROR the data directory is not writable\n"
		 L00 L01 L02 L03 "ERROR the database refused the login\n" L00 L01);
	CHECK_INT(x.d.attempts, 3);
	CHECK_INT(x.d.attempt, 2);
	CHECK_INT(x.d.attempt_line, 4);
	CHECK_INT(crash_summary(&x.d), 8);
	dx_free(&x);
}

/* crash_candidate, classify_names_failure: a line logged at info that
 * says an exception, then one that says a non-zero exit status, and the
 * run went no further: CRASHED, the exception's line the cause.  A line
 * that denies an error ("no errors") is none. */
static void test_crash_from_words(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "INFO exception in the storage layer: unable to lock the data directory\n"
		 "INFO shutting down with code:100\n");
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK_INT(crash_summary(&x.d), 5);
	CHECK_INT(x.d.bad_line, 4);
	dx_free(&x);
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "INFO no errors found in the schema\n");
	CHECK_INT(x.d.verdict, DX_STOPPED);
	dx_free(&x);
	/* A line logged as an error says more than one read from its
	 * words before it; an exit status after an error is its wrapper. */
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "INFO creating the web container ... error\n"
		 "ERROR cannot create the web container: invalid address\n");
	CHECK_INT(crash_summary(&x.d), 6);
	dx_free(&x);
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "ERROR worker exited with code 1\n" TRACEBACK("KeyError: 'model'"));
	CHECK_INT(crash_summary(&x.d), 9);
	dx_free(&x);
	/* A frame that says "error" is no error line of its own. */
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "|      throw er; // Unhandled 'error' event\n");
	CHECK_INT(x.d.crash, DX_NONE);
	dx_free(&x);
}

/* Plain stdout, without times or levels. */
#define P00 "|Loading dataset from data/train.csv\n"
#define P01 "|Loaded 1200 rows, 8 columns\n"
#define P02 "|Splitting into train and test sets\n"
#define P03 "|Training the model\n"
#define P04 "|fold 1 accuracy done\n"
#define P05 "|Evaluating on the test set\n"
#define P06 "|Saved model to model.pkl\n"
#define P07 "|Done.\n"
#define P08 "|Writing the report to report.html\n"
#define P09 "|Uploading the report\n"
#define P10 "|Cleaning up the temporary files\n"
#define P11 "|All finished in good order\n"
#define PLAIN P00 P01 P02 P03 P04 P05 P06 P07 P08 P09 P10 P11

/* flushed_after, count_attempts: a script's traceback, then the stdout
 * it had buffered, flushed as it died (no times, no levels): one
 * attempt, CRASHED with the exception as its cause, and the run got as
 * far as its flushed output. */
static void test_flushed_after_traceback(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, P00 P01 P02 P03 P04 P05 P06 P07,
		 TRACEBACK("NameError: name 'evalute' is not defined") P00 P01 P02 P03 P04);
	CHECK_INT(x.d.attempts, 1);
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK_INT(crash_summary(&x.d), 3);
	CHECK_INT(x.d.bad_line, 8);
	CHECK_INT(x.d.good_line, 4);
	dx_free(&x);
}

/* went_on: where bad follows the good run nowhere (an error before a
 * first line that leaps over the good run's first steps stops the walk),
 * the good run's lines it printed after an error say it went on: no
 * crash. */
static void test_went_on_familiar(void)
{
	struct dx x;
#define PAGAIN "|round two\n" P05 P06 P07 P08 P09 P10 P11
	DIAGNOSE(&x, NULL, PLAIN PAGAIN,
		 "|error: could not fetch the remote preset\n" P05 P06 P07 P08 P09 P10 P11 PAGAIN);
#undef PAGAIN
	CHECK_INT(x.d.crash, DX_NONE);
	CHECK(x.d.verdict != DX_CRASHED);
	dx_free(&x);
}

/* ---- what came next ---- */

/* pass_next: what the good run did next: the step it took next, then
 * the milestones bad never reached. */
static void test_next(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, UPTO04);
	CHECK_INT(x.d.nnext, 17);
	if (x.d.nnext == 17) {
		CHECK_INT(x.d.next[0], 5);
		CHECK_INT(x.d.next[16], 21);
	}
	dx_free(&x);
}

/* next_step, is_step: a separator, a warning, or a health check the
 * good run printed next is no step it took: the step after is; a word
 * alone is one. */
static void test_next_skips_non_steps(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, UPTO04 "INFO -----\nWARNING the cache is cold\n|    cache.load(path, fast=True)\n" BEAT L05 L06,
		 UPTO04);
	CHECK(x.d.nnext >= 1);
	if (x.d.nnext >= 1)
		CHECK_INT(x.d.next[0], 9);
	dx_free(&x);
	/* A word alone is a step the run says it takes ("Resizing");
	 * markup is none. */
	DIAGNOSE(&x, NULL, UPTO04 "|}\n|Resizing\n" L05 L06, UPTO04);
	CHECK(x.d.nnext >= 1);
	if (x.d.nnext >= 1)
		CHECK_INT(x.d.next[0], 6);
	dx_free(&x);
}

/* canonicalise, words_of: two lines that differ only inside a group
 * (the arguments a run set, in braces or brackets) and never share a log
 * are one step, reworded: bad got to the good run's "non-default args". */
static void test_reworded_group(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, UPTO04 "INFO non-default args: {'model': 'Qwen/Qwen2.5-72B', 'max_model_len': 8192}\n" L05 L06,
		 UPTO04 "INFO non-default args: {'host': '0.0.0.0', 'lora_modules': [a, b], 'enable_lora': True}\n");
	CHECK_INT(x.d.bad_line, 5);
	CHECK_INT(x.d.good_line, 5);
	dx_free(&x);
}

/* canonicalise, opposite: a line that says a thing stopped is no
 * rewording of one that says it is up, however many words they share;
 * one that says a job "Exited" where the good run's says "Done" is the
 * same end with another outcome. */
static void test_reworded_opposite(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, UPTO04 "INFO the web process is up and serving\n" L05 L06,
		 UPTO04 "INFO the web process is stopped and serving\n");
	CHECK_INT(x.d.bad_line, 4);
	CHECK(x.d.verdict != DX_SAME);
	dx_free(&x);
	DIAGNOSE(&x, NULL, UPTO04 "INFO job 7 in cluster dcc Done\n" L05 L06,
		 UPTO04 "INFO job 7 in cluster dcc Exited\n");
	CHECK_INT(x.d.bad_line, 5);
	dx_free(&x);
}

/* canonicalise, words_of: a plural and its singular are one word, so
 * that a step a later build reworded by a plural ("Creating new flows
 * file : flows.json" for "Creating new flow file") is still that step. */
static void test_reworded_plural(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, UPTO04 "INFO Creating new flows file : flows_noltop.json\n" L05 L06,
		 UPTO04 "INFO Creating new flow file\n");
	CHECK_INT(x.d.bad_line, 5);
	CHECK_INT(x.d.good_line, 5);
	dx_free(&x);
}

/* outcome_steps, one_word_apart: an error that reads as the good run's
 * step but for its outcome ("FAIL" for "PASS") is that step done, not a
 * teardown: the suite went on with its tests, and bad got to the one
 * after it.  A line that shares only a placeholder is no such step; a
 * wildcard stands for any word. */
static void test_failed_step_is_done(void)
{
	struct dx x;
	DIAGNOSE(&x, GENERIC, UPTO04 "|PASS  tests/math.test.js\n|  checked Hello World\n" L05 L06,
		 UPTO04 "|FAIL  tests/math.test.js\n|  checked Hello World\n|Error: Failure!\n");
	CHECK_INT(x.d.bad_line, 6);
	CHECK_INT(x.d.good_line, 6);
	dx_free(&x);
	DIAGNOSE(&x, GENERIC, UPTO04 "|Loading 1234\n|  checked Hello World\n" L05 L06,
		 UPTO04 "|Error 5678\n|  checked Hello World\n|Error: Failure!\n");
	CHECK_INT(x.d.bad_line, 4);
	dx_free(&x);
	/* A results table: the good run's rows are one template with a
	 * wildcard for the test's name, which stands for the failed row's
	 * name; the job went on to its last line, so it failed, not
	 * crashed. */
	DIAGNOSE(&x, GENERIC,
		 UPTO04 "|    accessible-namespaces-test... success [16m 12s]\n"
		 "|                      api-test... success [10m 28s]\n"
		 "|          rolling-restart-test... success [11m 0s]\n"
		 "|                    token-test... success [8m 1s]\n|\n"
		 "|Test logs can be found at: /tmp/logs-1\n",
		 UPTO04 "|    accessible-namespaces-test... success [17m 32s]\n"
		 "|                      api-test... success [10m 48s]\n"
		 "|          rolling-restart-test... success [10m 41s]\n"
		 "|                    token-test... FAILURE [14m 49s]\n|\n"
		 "|Test logs can be found at: /tmp/logs-2\n");
	CHECK_INT(x.d.verdict, DX_FAILED);
	CHECK_INT(crash_summary(&x.d), 8);
	dx_free(&x);
	/* The failed step says one word more, the way it failed; the
	 * grader went on with its next test, which failed too, and to its
	 * score. */
	DIAGNOSE(&x, GENERIC,
		 UPTO04 "|== Test sbrkmuch ==\n|sbrkmuch: OK (18.3s)\n|== Test bcache ==\n"
		 "|$ make qemu\n|bcache: OK (31.1s)\n|== Test time ==\n|time: OK\n|Score: 2/2\n",
		 UPTO04 "|== Test sbrkmuch ==\n|Timeout! sbrkmuch: FAIL (90.2s)\n|== Test bcache ==\n"
		 "|$ make qemu\n|Timeout! bcache: FAIL (90.0s)\n|== Test time ==\n|time: OK\n|Score: 0/2\n");
	CHECK_INT(x.d.verdict, DX_FAILED);
	CHECK_INT(crash_summary(&x.d), 6);
	const struct dx_milestone *bcache = milestone(&x.d, "== Test bcache ==");
	CHECK(bcache && bcache->bad_line == 7);
	dx_free(&x);
}

/* counter_candidates: a count printed once per run is a tally, the
 * run's result ("Score: 1/2"), not the step it got to: a suite that
 * failed a test got to its score, as the good run did. */
static void test_tally_is_no_step(void)
{
	struct dx x;
	DIAGNOSE(&x, GENERIC,
		 UPTO04 "|== Test a ==\n|a: OK\n|== Test b ==\n|b: OK\n|Score: 2/2\n",
		 UPTO04 "|== Test a ==\n|a: FAIL\n|== Test b ==\n|b: OK\n|Score: 1/2\n");
	CHECK_INT(x.d.verdict, DX_FAILED);
	const struct dx_milestone *score = milestone(&x.d, "Score: <int>/<int>");
	CHECK(score && score->bad_line == 9);
	dx_free(&x);
}

/* ends_open: a line that ends in its separator ("[conn.py:check_ready()]
 * - ") has its message on the lines after it, so it is not the step the
 * good run said in words ("... - Klippy ready"): a host whose config
 * check failed diverged after its last subscription, where the good run
 * went on to initialise its job state. */
static void test_open_line_is_no_step(void)
{
	struct dx x;
	DIAGNOSE(&x, GENERIC,
		 UPTO04 "|[conn.py:init()] - Subscribed\n"
		 "|[state.py:started()] - Job state initialized: standby\n"
		 "|[conn.py:check_ready()] - Klippy ready\n"
		 "|[store.py:sensors()] - Configuring sensors\n",
		 UPTO04 "|[conn.py:init()] - Subscribed\n"
		 "|[conn.py:check_ready()] - \n"
		 "|Option 'position_endstop' in section 'stepper_z' must be specified\n"
		 "|Printer is halted\n");
	CHECK_INT(x.d.bad_line, 5);
	CHECK_INT(x.d.good_line, 5);
	dx_free(&x);
}

/* n lines of a program of its own, each of three words no other line
 * has ("INFO kab kac kad"), after prefix; malloc'd. */
static char *own_lines(const char *prefix, size_t n)
{
	struct buf b = { 0 };
	buf_printf(&b, "%s", prefix);
	for (size_t i = 0; i < 3 * n; i += 3)
		for (size_t k = i; k < i + 3; k++)
			buf_printf(&b, "%sk%c%c%s", k == i ? "INFO " : " ", (char)('a' + k / 26 % 26),
				   (char)('a' + k % 26), k == i + 2 ? "\n" : "");
	return b.p;
}

/* reference_fit, dx_weak_reference: a good run that printed next to
 * none of what bad printed as it ran is a weak reference, and one that
 * printed all of it is not, however long the traceback bad ends in; a
 * bad run too short to judge is not judged. */
static void test_weak_reference(void)
{
	struct dx x;
	char *other = own_lines("", DX_WEAK_MIN + 5);
	DIAGNOSE(&x, NULL, GOOD, other);
	CHECK_INT(x.d.bad_templates, DX_WEAK_MIN + 5);
	CHECK(x.d.good_known < 0.01);
	CHECK(dx_weak_reference(&x.d));
	dx_free(&x);

	char *few = own_lines("", DX_WEAK_MIN - 1);
	DIAGNOSE(&x, NULL, GOOD, few);
	CHECK(!dx_weak_reference(&x.d));
	dx_free(&x);

	struct buf tb = { 0 };
	buf_printf(&tb, "%sTraceback (most recent call last):\n", other);
	for (int k = 0; k < 40; k++)
		buf_printf(&tb, "  File \"/app/m%c%c.py\", line %d, in f%c\n    g%c()\n", 'a' + k / 26,
			   'a' + k % 26, k + 1, 'a' + k % 26, 'a' + k % 26);
	buf_printf(&tb, "RuntimeError: no device\n");
	DIAGNOSE(&x, NULL, other, tb.p);
	CHECK_INT(x.d.bad_templates, DX_WEAK_MIN + 5);
	CHECK(x.d.good_known > 0.99);
	CHECK(!dx_weak_reference(&x.d));
	dx_free(&x);
	buf_free(&tb);
	free(few);
	free(other);
}

/* teardown_skipped: after a new error, a match that jumps over what the
 * good run did once is the teardown, though the rules name other steps
 * and none of those: a server that aborted at its data directory and
 * then printed the "Initialization - end." the good run printed after
 * InnoDB started crashed; it never got that far.  The rules name three
 * steps, and those are the only steps a single good run has. */
#define MYSQL_START "INFO [Server] /usr/sbin/mysqld (mysqld 8.4.0) starting as process 80\n"
static void test_teardown_over_unnamed_steps(void)
{
	struct dx x;
	DIAGNOSE(&x,
		 "[mysqlish]\nstep  starting: starting as process\nstep  socket: Server socket created\n"
		 "final ready: ready for connections\n",
		 MYSQL_START "INFO [InnoDB] InnoDB initialization has started.\n"
		 "INFO [InnoDB] InnoDB initialization has ended.\n"
		 "INFO [Server] MySQL Server Initialization - end.\n"
		 "INFO [Server] Server socket created on IP: '::'.\n"
		 "INFO [Server] /usr/sbin/mysqld: ready for connections. Version: '8.4.0'\n",
		 MYSQL_START "ERROR [Server] --initialize specified but the data directory has files in it.\n"
		 "INFO [Server] MySQL Server Initialization - end.\n");
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK_INT(x.d.bad_line, 0);
	dx_free(&x);
}

/* end_jump_follows: where the rules name the steps, the last one they
 * name is an end of the good run, though steps told apart by a value
 * come after it: a server that failed before it started printed its
 * folders as the good one did once started, and jumping there over the
 * start it never made is no progress.  It crashed where it left the
 * good run, at its context. */
#define FOLDER(w) "INFO App folder: /srv/app/" w "\n"
static void test_named_end_before_valued_steps(void)
{
	struct dx x;
	DIAGNOSE(&x,
		 "[appish]\nstep  init: Web server initialized\nstep  context: Context initialized\n"
		 "step  started: Web server started\n",
		 "INFO Web server initialized on port 8080\nINFO Context initialized in 300 ms\n"
		 "INFO Creating filter chain for /api\nINFO Exposing 16 endpoints\n"
		 "INFO Web server started on port 8080\n" FOLDER("logs") FOLDER("conf") FOLDER("data")
		 "INFO App is up and serving\n",
		 "INFO Web server initialized on port 8080\nINFO Context initialized in 700 ms\n"
		 "WARN Exception during context initialization, cancelling refresh\n"
		 FOLDER("logs") FOLDER("conf") FOLDER("data") "ERROR Startup errors\n");
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK_INT(x.d.bad_line, 1);
	CHECK_INT(x.d.good_line, 1);
	dx_free(&x);
}

/* pass_fold: a traceback that several ranks printed alike is one finding,
 * with how many copies and on which ranks; another exception on another
 * rank stays a finding of its own, and the crash is still one of them. */
#define RANK_TB(r, exc) \
	"|[rank" #r "]: Traceback (most recent call last):\n" \
	"|[rank" #r "]:   File \"/app/w.py\", line 5, in <module>\n" \
	"|[rank" #r "]:     step()\n" \
	"|[rank" #r "]: " exc "\n"
#define RANKS_READY "|[rank0]: worker ready\n|[rank1]: worker ready\n|[rank2]: worker ready\n"
static void test_copies_folded(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL,
		 RANKS_READY "|[rank0]: step 1 done\n|[rank1]: step 1 done\n|[rank2]: step 1 done\n",
		 RANKS_READY RANK_TB(0, "RuntimeError: connection reset by peer 10.0.0.1")
		 RANK_TB(1, "RuntimeError: connection reset by peer 10.0.0.2")
		 RANK_TB(2, "ValueError: bad shape (3, 4)"));
	size_t tracebacks = 0;
	const struct dx_novel *reset = NULL, *shape = NULL;
	for (size_t k = 0; k < x.d.nnovel; k++) {
		const struct dx_novel *n = &x.d.novel[k];
		tracebacks += n->traceback;
		if (n->traceback && n->summary == 6)
			reset = n;
		if (n->traceback && n->summary == 14)
			shape = n;
	}
	CHECK_INT(tracebacks, 2);
	CHECK(reset && reset->count == 2 && reset->nstreams == 2);
	if (reset && reset->nstreams == 2) {
		CHECK_STR(x.d.stream_names[reset->streams[0]], "rank0");
		CHECK_STR(x.d.stream_names[reset->streams[1]], "rank1");
	}
	CHECK(shape && shape->count == 1 && shape->nstreams == 1);
	CHECK(x.d.crash != DX_NONE && x.d.crash < (int64_t)x.d.nnovel);
	dx_free(&x);
}

/* tally_cause: a recap that counts a failure ("failed=1") is no cause;
 * the failure it counted, earlier, which the play went on after, is. */
static void test_tally_is_no_cause(void)
{
	struct dx x;
	DIAGNOSE(&x, GENERIC, UPTO04 "|TASK [restart the database]\n|changed: [web1]\n|changed: [web2]\n" L05
		 "|TASK [install samba]\n|changed: [web1]\n|PLAY RECAP\n|web2 : ok=3 changed=1 failed=0\n"
		 "|web1 : ok=3 changed=2 failed=0\n" L06,
		 UPTO04 "|TASK [restart the database]\n|fatal: [web1]: FAILED! => {\"msg\": \"no such service\"}\n"
		 "|changed: [web2]\n" L05 "|PLAY RECAP\n|web2 : ok=3 changed=1 failed=0\n"
		 "|web1 : ok=2 changed=0 failed=1\n");
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK_INT(crash_summary(&x.d), 6);
	dx_free(&x);
}

/* canonicalise, same_severity: an error a rule's words name like a step
 * ("Error starting agent", the good run's "Starting server") is not that
 * step reworded: the run crashed there, it did not get there. */
static void test_error_is_no_reworded_step(void)
{
	struct dx x;
	DIAGNOSE(&x, GENERIC, UPTO04 "INFO agent: Starting server: address=[::]:8500 network=tcp\n" L05 L06,
		 UPTO04 "ERROR agent: Error starting agent: listen tcp 127.0.0.1:8300: bind\n");
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK_INT(x.d.bad_line, 4);
	CHECK_INT(crash_summary(&x.d), 5);
	dx_free(&x);
}

/* canonicalise: two lines a rule names alike but that share no word
 * ("Started at: <date>" in a status file bad quoted, the good run's
 * "DatabaseOrdinary: Starting up tables.") are not one step: the rule's
 * word alone does not make them so.  Ones that share a word are. */
static void test_rule_word_alone(void)
{
	struct dx x;
	DIAGNOSE(&x, GENERIC, UPTO04 "INFO DatabaseOrdinary: Starting up tables.\n" L05 L06,
		 UPTO04 "|Started at: 2019-01-11 15:24:23\n");
	CHECK_INT(x.d.bad_line, 4);
	dx_free(&x);
	DIAGNOSE(&x, GENERIC, UPTO04 "INFO DatabaseOrdinary: Starting up tables.\n" L05 L06,
		 UPTO04 "INFO Tables: starting\n");
	CHECK_INT(x.d.bad_line, 5);
	dx_free(&x);
}

/* labelled_cause: a report that labels its explanation ("Description:",
 * as Spring Boot's failure analysis does) says why below the label: that
 * line is the cause, not the report's headline. */
static void test_labelled_cause(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, UPTO04 L05 L06,
		 UPTO04 "ERROR Error starting ApplicationContext.\n|\n|***************************\n"
		 "|APPLICATION FAILED TO START\n|***************************\n|\n|Description:\n|\n"
		 "|Parameter 1 of method f required a bean of type 'X' that could not be found.\n|\n"
		 "|Action:\n|\n|Consider defining a bean of type 'X'.\n");
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK_INT(crash_summary(&x.d), 13);
	dx_free(&x);
}

/* learn_asides: the source a compiler quotes under a warning only the
 * good build printed is no milestone of the run, and a test run that
 * failed its third test got to its second. */
#define CARGO_HEAD "|   Compiling app v0.1.0 (/src/app)\n"
#define CARGO_WARNING "|warning: unused import: `crate::db::Pool`\n|  --> src/tests.rs:11:5\n|   |\n" \
	"|11 | use crate::db::Pool;\n|   |     ^^^^^^^^^^^^^^^^\n|\n"
#define CARGO_RUN "|    Finished `test` profile [unoptimized] target(s) in 0.71s\n" \
	"|     Running unittests src/main.rs\n|\n|running 3 tests\n|test t1 ... ok\n|test t2 ... ok\n"
#define CARGO_DOCS "|   Doc-tests app\n|\n|running 0 tests\n|\n|test result: ok. 0 passed; 0 failed; 0 ignored\n"
static void test_warning_aside(void)
{
	struct dx x;
	DIAGNOSE(&x, GENERIC, CARGO_HEAD CARGO_WARNING CARGO_RUN "|test t3 ... ok\n|\n"
		 "|test result: ok. 3 passed; 0 failed; 0 ignored\n" CARGO_DOCS,
		 CARGO_HEAD CARGO_RUN "|test t3 ... FAILED\n|\n|test result: FAILED. 2 passed; 1 failed; 0 ignored\n"
		 CARGO_DOCS);
	CHECK(milestone(&x.d, "<int> | use crate::db::Pool;") == NULL);
	CHECK(milestone(&x.d, "  --> src/tests.rs:<int>:<int>") == NULL);
	CHECK(milestone(&x.d, "running <int> tests") != NULL);
	CHECK_INT(x.d.bad_line, 6);
	CHECK_INT(x.d.good_line, 12);
	dx_free(&x);
}

/* split_named_steps: a template printed once per step, with a value that
 * names the step and repeats between runs, is one step per value: a run
 * that died after its second such line got to the good run's second, not
 * its first, though a line in between made them no one run; and the good
 * run's next step is the one after, not a repeat. */
static void test_steps_named_by_value(void)
{
	struct dx x;
#define PREFILL(n) "INFO chunked prefill is enabled with max_num_batched_tokens=" #n "\n"
	DIAGNOSE(&x, NULL, UPTO04 PREFILL(2048) "WARNING using awq quantization on this device\n" PREFILL(8192) L05 L06,
		 UPTO04 PREFILL(2048) PREFILL(8192) TRACEBACK("TypeError: not a string"));
	CHECK_INT(x.d.bad_line, 6);
	CHECK_INT(x.d.good_line, 7);
	CHECK(x.d.nnext >= 1);
	if (x.d.nnext >= 1)
		CHECK_INT(x.d.next[0], 8);
	dx_free(&x);
	/* Named by a word, with a step of its own after each. */
#define REGION(w) "INFO preparing start region for dimension " w "\nINFO region saved to disk\n"
	DIAGNOSE(&x, NULL, UPTO04 REGION("overworld") REGION("nether") REGION("end") REGION("void") L05,
		 UPTO04 REGION("overworld") REGION("nether") "INFO preparing start region for dimension end\n");
	CHECK_INT(x.d.bad_line, 9);
	CHECK_INT(x.d.good_line, 9);
	CHECK(x.d.nnext >= 1);
	if (x.d.nnext >= 1)   /* the next region (saving one is no step) */
		CHECK_INT(x.d.next[0], 11);
	dx_free(&x);
}

/* field_names_step: a value the bad run printed that no good run did,
 * or one a log comes back to, names no step: the template stays one, and
 * bad's last line of it is where it got, as before. */
static void test_steps_not_named(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, UPTO04 PREFILL(2048) "WARNING using awq quantization on this device\n" PREFILL(8192) L05 L06,
		 UPTO04 PREFILL(4096) PREFILL(1024) TRACEBACK("TypeError: not a string"));
	CHECK_INT(x.d.bad_line, 6);
	CHECK_INT(x.d.good_line, 5);
	dx_free(&x);
	/* A value that comes back measures or counts something: bad's
	 * second batch line is the good run's second, whatever it says. */
#define BATCH(n) "INFO scheduled a batch of " #n " requests\n"
	DIAGNOSE(&x, NULL, UPTO04 BATCH(1) BATCH(2) BATCH(1) BATCH(3) L05 L06, UPTO04 BATCH(2) BATCH(1));
	CHECK_INT(x.d.bad_line, 6);
	CHECK_INT(x.d.good_line, 6);
	dx_free(&x);
}

/* begins: values a bad run printed that are not, in order, the first a
 * good run printed (two of its five routes, in another order) name no
 * steps: the run that printed them and went on to the end is no run that
 * skipped steps. */
static void test_steps_other_config(void)
{
	struct dx x;
#define ROUTE(r) "INFO route " r ", methods: GET\n"
	DIAGNOSE(&x, NULL, UPTO14 ROUTE("/openapi.json") ROUTE("/docs") ROUTE("/health") ROUTE("/tokenize")
		 ROUTE("/metrics") FROM15,
		 UPTO14 "ERROR flash attention 2 is not supported here\n" ROUTE("/metrics") ROUTE("/docs") FROM15);
	CHECK_INT(x.d.verdict, DX_FAILED);
	CHECK_INT(x.d.end_line, 24);
	CHECK_INT(x.d.bad_line, 14);
	CHECK_INT(x.d.good_line, 14);
	dx_free(&x);
}

/* next_step, shaped_like_a_step: an indented line after a warning that
 * begins as the run's own earlier steps did (Flask's " * Running on")
 * is the next step, not a line of the warning's. */
static void test_next_after_warning(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, "| * Serving Flask app 'app'\n| * Debug mode: off\n"
		 "|WARNING: This is a development server. Do not use it in a production deployment.\n"
		 "| * Running on http://127.0.0.1:5000\n|Press CTRL+C to quit\n",
		 "| * Serving Flask app 'app'\n| * Debug mode: off\n");
	CHECK(x.d.nnext >= 1);
	if (x.d.nnext >= 1)
		CHECK_INT(x.d.next[0], 3);
	dx_free(&x);
	/* The source line Python prints under a warning goes with it. */
	DIAGNOSE(&x, NULL, UPTO04 "|/app/main.py:12: UserWarning: the cache is cold\n|  warnings.warn(msg)\n" L05 L06,
		 UPTO04);
	CHECK(x.d.nnext >= 1);
	if (x.d.nnext >= 1)
		CHECK_INT(x.d.next[0], 7);
	dx_free(&x);
	/* After a blank line an indented line goes with nothing above: a
	 * test runner's summary is the next step. */
	DIAGNOSE(&x, NULL, UPTO04 "|/app/main.py:12: UserWarning: the cache is cold\n|\n|  Test Files  4 passed\n" L05,
		 UPTO04);
	CHECK(x.d.nnext >= 1);
	if (x.d.nnext >= 1)
		CHECK_INT(x.d.next[0], 7);
	dx_free(&x);
}

/* own_lines_after: one line printed over and over after where a run got
 * is a run stuck there (STOPPED), not on a path of its own; three lines
 * of its own are one (DIVERGED). */
static void test_repeated_line_is_no_path(void)
{
	struct dx x;
#define SHARD "INFO loading shard from the object store\n"
	DIAGNOSE(&x, NULL, GOOD, UPTO04 SHARD "+0 " SHARD "+0 " SHARD "+0 " SHARD);
	CHECK_INT(x.d.verdict, DX_STOPPED);
	CHECK_INT(x.d.bad_line, 4);
	dx_free(&x);
	DIAGNOSE(&x, NULL, GOOD, UPTO04 SHARD "INFO fetching the index of the bucket\n"
		 "INFO resolving the mirror for the region\n");
	CHECK_INT(x.d.verdict, DX_DIVERGED);
	dx_free(&x);
}

/* ---- timing ---- */

/* pass_waiting: a notice no good run printed, repeated at a steady pace
 * at the end of a stalled run, is what it waits for, and no progress. */
static void test_waiting(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "INFO no broadcast block found in 60 seconds\n"
		 "+60 INFO no broadcast block found in 60 seconds\n+60 INFO no broadcast block found in 60 seconds\n");
	CHECK_INT(x.d.waiting.first, 5);
	CHECK_INT(x.d.waiting.last, 7);
	CHECK_INT(x.d.waiting.count, 3);
	CHECK_INT(x.d.last_progress, 4);
	CHECK_INT(x.d.verdict, DX_STOPPED);
	dx_free(&x);
	/* At an unsteady pace it is no such notice. */
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "INFO no broadcast block found in 60 seconds\n"
		 "+2 INFO no broadcast block found in 60 seconds\n+60 INFO no broadcast block found in 60 seconds\n");
	CHECK_INT(x.d.waiting.first, DX_NONE);
	CHECK_INT(x.d.last_progress, 7);
	dx_free(&x);
}

/* learn_heartbeats: a line that recurs at a steady pace is a heartbeat,
 * whatever it says: no progress ... */
static void test_learned_heartbeat(void)
{
	struct dx x;
#define QUEUE "+10 INFO the queue holds 3 requests\n"
	DIAGNOSE(&x, NULL, UPTO04 QUEUE QUEUE QUEUE QUEUE QUEUE L05 L06, UPTO04 QUEUE QUEUE QUEUE QUEUE QUEUE);
	CHECK_INT(x.d.last_progress, 4);
	dx_free(&x);
}

/* counters_rise: ... unless it counts ("step 41"): a training loop's
 * steps come as steadily, but are progress. */
static void test_counter_is_progress(void)
{
	struct dx x;
#define STEPS "+10 INFO training step 41 loss 0.5\n+10 INFO training step 42 loss 0.4\n" \
	"+10 INFO training step 43 loss 0.4\n+10 INFO training step 44 loss 0.3\n" \
	"+10 INFO training step 45 loss 0.3\n"
	DIAGNOSE(&x, NULL, UPTO04 STEPS L05 L06, UPTO04 STEPS);
	CHECK_INT(x.d.last_progress, 9);
	dx_free(&x);
}

/* pass_silence: silent for the time since bad's last line that is no
 * heartbeat, to now. */
static void test_silence(void)
{
	struct dx x;
	diagnose_scripts(&x, NULL, 40, (const char *const[]){ GOOD, UPTO04 "+10 " BEAT, NULL });
	CHECK_INT(x.d.last_progress, 4);
	CHECK(x.d.silent_s == 50.0);
	dx_free(&x);
}

/* good_gap, good_step: the good runs' longest gap where bad stands, and
 * the time they spent in its step, from the line bad last followed to
 * the next milestone. */
static void test_good_gap_and_step(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, UPTO04 "+40 " L05 L06, UPTO04);
	CHECK(x.d.good_gap_s == 40.0);
	CHECK(x.d.good_step_s == 40.0);
	dx_free(&x);
}

/* still_in_step: a run that stopped where the good runs spent 40 s is
 * still running while its log was written less than that ago, and
 * STOPPED once its silence is beyond it; a crash is a crash however
 * recent. */
static void test_still_in_step(void)
{
	struct dx x;
	const char *const stalled[] = { UPTO04 "+40 " L05 L06, UPTO04, NULL };
	diagnose_scripts(&x, NULL, 10, stalled);
	CHECK(x.d.good_step_s == 40.0);
	CHECK(x.d.silent_s == 10.0);
	CHECK_INT(x.d.verdict, DX_RUNNING);
	dx_free(&x);
	diagnose_scripts(&x, NULL, 41, stalled);
	CHECK_INT(x.d.verdict, DX_STOPPED);
	dx_free(&x);
	diagnose_scripts(&x, NULL, 10, (const char *const[]){ UPTO04 "+40 " L05 L06,
							    UPTO04 "ERROR RuntimeError: device lost\n", NULL });
	CHECK_INT(x.d.verdict, DX_CRASHED);
	dx_free(&x);	/* copied_log: a log copied just now (its mtime) whose lines are
	 * from long ago stopped long ago. */
	diagnose_scripts(&x, NULL, NAN, stalled);
	CHECK(x.d.silent_s > 86400.0 * 300);
	CHECK_INT(x.d.verdict, DX_STOPPED);
	dx_free(&x);
	/* ... but a clock counted from the run's start (llama.cpp's, read
	 * as 1970) dates nothing: a finished run copied just now is silent
	 * for as long as its mtime says, not for fifty years. */
#define ELAPSED "|0.00.001.000 I loading the model file\n|0.00.002.000 I model loaded\n" \
		"|0.00.003.000 I all slots are idle\n"
	diagnose_scripts(&x, NULL, NAN, (const char *const[]){ ELAPSED, ELAPSED, NULL });
	CHECK(x.d.silent_s < 3600.0);
	CHECK(x.d.verdict != DX_STOPPED);
	dx_free(&x);
#undef ELAPSED
	/* Such a log stopped 30 s into a step the good run took 60 s over:
	 * written as it ran (born 30 s before its mtime), it is still in
	 * its step; written at once, a copy, how long it has been silent
	 * is not known, and it is no longer called running. */
#define WARMING "|0.00.001.000 I loading the model file\n|0.20.000.000 I model loaded\n" \
		"|0.30.000.000 I warming up the model\n"
	const char *const warming[] = { WARMING "|1.30.000.000 I warmup done, slots ready\n"
					"|1.31.000.000 I server is listening\n", WARMING, NULL };
	scripts_written_s = 30;
	diagnose_scripts(&x, NULL, NAN, warming);
	CHECK_INT(x.d.verdict, DX_RUNNING);
	dx_free(&x);
	scripts_written_s = 0;
	diagnose_scripts(&x, NULL, NAN, warming);
	CHECK(isnan(x.d.silent_s));
	CHECK_INT(x.d.verdict, DX_STOPPED);
	dx_free(&x);
	/* ... but a file modified before it was born kept its original's
	 * mtime (cp -p, tar): that is the run's, and it is in its step. */
	scripts_written_s = -60;
	diagnose_scripts(&x, NULL, NAN, warming);
	scripts_written_s = NAN;
	CHECK_INT(x.d.verdict, DX_RUNNING);
	dx_free(&x);
#undef WARMING
}

/* rank_behind: a rank that stopped at a step every other rank went past
 * holds the run in its step: the good runs' time there counts, though
 * the step the others are in took no time. */
static void test_rank_behind(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, RANKS_HEAD "@0 INFO joining the collective group\n@1 INFO joining the collective group\n"
		 "@1 INFO collective group ready\n+60 @0 INFO collective group ready\n" RANKS_REST,
		 RANKS_HEAD "@0 INFO joining the collective group\n@1 INFO joining the collective group\n"
		 "@1 INFO collective group ready\n@1 INFO capturing execution graphs\n");
	CHECK(x.d.ranks_alike);
	CHECK(x.d.good_step_s >= 60.0);
	dx_free(&x);
}

/* pass_follow: the good run bad follows furthest is reported against. */
static void test_best_good_run(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, L00 L01 L02 "INFO a path this run took alone\n", GOOD, UPTO09);
	CHECK_INT(x.d.good, 1);
	CHECK_INT(x.d.good_line, 9);
	dx_free(&x);
}

/* ---- the walk ---- */

/* beat_follows: a heartbeat follows only where the good run beat too,
 * in order: a run that waits is in the step the good run waited in ... */
static void test_beat_in_step(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, UPTO04 BEAT "+5 " BEAT "+5 " BEAT L05 L06, UPTO04 BEAT "+5 " BEAT);
	CHECK_INT(x.d.bad_line, 6);
	CHECK_INT(x.d.good_line, 6);
	CHECK_INT(x.d.last_progress, 4);
	dx_free(&x);
}

/* beat_follows: ... but says nothing of progress past a step the good
 * run took first ... */
static void test_beat_after_step(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, UPTO04 L05 BEAT L06, UPTO04 BEAT);
	CHECK_INT(x.d.bad_line, 4);
	CHECK_INT(x.d.verdict, DX_STOPPED);
	dx_free(&x);
}

/* beat_follows: ... nor after a new error: the polls of a dead server
 * match those of a loading one. */
static void test_beat_after_error(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, UPTO04 BEAT L05, UPTO04 "ERROR the loader process died\n" BEAT);
	CHECK_INT(x.d.bad_line, 4);
	CHECK_INT(x.d.verdict, DX_CRASHED);
	dx_free(&x);
}

/* jump_follows, follows: a match that leaps over many pending milestones
 * does not follow ... */
static void test_leap(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, UPTO04 L21);
	CHECK_INT(x.d.bad_line, 4);
	CHECK_INT(x.d.verdict, DX_STOPPED);
	dx_free(&x);
}

/* follows: ... unless bad printed about as many lines of its own
 * meanwhile (a reworded stretch) ... */
static void test_reworded_stretch(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "INFO own line one\nINFO own line two two\nINFO own line three three\n"
		 "INFO own line four\nINFO own line five five\nINFO own line six\n" FROM15);
	CHECK_INT(x.d.good_line, 21);
	CHECK_INT(x.d.verdict, DX_SAME);
	dx_free(&x);
	DIAGNOSE(&x, NULL, GOOD, UPTO04 FROM15);
	CHECK_INT(x.d.bad_line, 4);
	dx_free(&x);
}

/* jump_follows, steps_on: ... or the jump is over a few steps a build
 * lacks, and bad then goes on step by step. */
static void test_lacking_steps(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, UPTO04 L10 L11 L12 L13 L14);
	CHECK_INT(x.d.bad_line, 9);
	CHECK_INT(x.d.good_line, 14);
	dx_free(&x);
	DIAGNOSE(&x, NULL, GOOD, UPTO04 L10 L11);
	CHECK_INT(x.d.bad_line, 4);
	dx_free(&x);
}

/* end_jump_follows: a jump over the good run's last step into its tail,
 * which a run that stopped short prints too, is no progress. */
static void test_tail_after_end(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD "INFO closing the connection pool\nINFO closing the connection pool\n",
		 UPTO14 L15 L16 L17 L18 L19 "INFO closing the connection pool\n");
	CHECK_INT(x.d.bad_line, 19);
	CHECK_INT(x.d.good_line, 19);
	dx_free(&x);
}

static const char *const COMPILE_RULES = "[eng]\nstep compiled: torch.compile took\n";

/* jumps_coming_step: a match that would leave a step bad is yet to take
 * unreached for good does not follow: bad's "torch.compile took", after
 * a compile the good run made later, is the good run's first. */
static void test_coming_step(void)
{
	struct dx x;
	DIAGNOSE(&x, COMPILE_RULES,
		 L00 L02 "INFO torch.compile took 1.5 s in total\nINFO compiling a fresh graph for the model\n"
		 "INFO torch.compile took 9.5 s in total\n" L10 L21,
		 L00 L02 "INFO compiling a fresh graph for the model\nINFO torch.compile took 9.5 s in total\n");
	CHECK_INT(x.d.bad_line, 3);
	CHECK_INT(x.d.good_line, 2);
	const struct dx_milestone *m = milestone(&x.d, "compiling a fresh graph for the model");
	CHECK(m != NULL && m->bad_line == DX_NONE);
	dx_free(&x);
}

/* trouble_jumps: a warning the good run printed too, after a skip, is
 * the same trouble, not the same progress. */
static void test_shared_warning(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, UPTO04 L05 L06 "WARNING the memory pool is nearly exhausted\n" L08 L09,
		 UPTO04 "WARNING the memory pool is nearly exhausted\n");
	CHECK_INT(x.d.bad_line, 4);
	dx_free(&x);
	DIAGNOSE(&x, NULL, UPTO04 L05 L06 L07 L08 L09, UPTO04 L07);
	CHECK_INT(x.d.bad_line, 5);
	dx_free(&x);
}

#define TEARDOWN "INFO closing the plugins\nINFO destroying the communicators\nINFO shutdown complete\n"

/* teardown_follows: shutdown lines after a new error are no progress:
 * the dying run's teardown matches the good run's, over a step or two,
 * and the run is CRASHED where it was. */
static void test_teardown(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD TEARDOWN, GOOD "ERROR the worker died unexpectedly\n"
		 "INFO destroying the communicators\nINFO shutdown complete\n");
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK_INT(x.d.bad_line, 21);
	dx_free(&x);
}

/* teardown_follows: an error before bad followed the good run at all
 * came before its run began (a shell's error in a terminal's
 * transcript): the run's start after it follows, over the good log's
 * own preamble, and the crash is the run's error, not that one.  (Lines
 * without a time: a time would say when the run started.) */
static void test_error_before_start(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, "|INFO listing the settings file\n|INFO printing the model name\n|INFO launching the server\n"
		 "|INFO parsing command line flags\n|INFO reading configuration from disk\n|INFO starting the scheduler\n",
		 "|ERROR ls: cannot access the model directory\n|INFO launching the server\n"
		 "|INFO parsing command line flags\n|INFO reading configuration from disk\n"
		 "|ERROR the path to the model does not exist, exiting\n");
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK_INT(x.d.bad_line, 3);
	CHECK_INT(x.d.good_line, 4);
	CHECK_INT(crash_summary(&x.d), 4);
	dx_free(&x);
}

#define TICK "INFO tick of the loader\n"

/* lookalike, rematch_follows: a line the aligner matched further on (a
 * look-alike after steps bad never took) follows as the same step right
 * after where bad is. */
static void test_lookalike(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, UPTO04 TICK L05 L06 L07 L08 L09 TICK L10 L11, UPTO04 L09 TICK);
	CHECK_INT(x.d.bad_line, 6);
	CHECK_INT(x.d.good_line, 5);
	dx_free(&x);
}

/* foreign_match: a step the good run's counterpart of a stream never
 * prints, another of its processes does, follows. */
static void test_foreign_step(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL,
		 "INFO launcher starting the engine\n@0 INFO engine process started\n"
		 "@0 INFO engine loading the weights\n@0 INFO engine weights are loaded\n"
		 "INFO sizing the key value cache\n@0 INFO engine capturing the graphs\n"
		 "@0 INFO engine graphs are captured\nINFO launcher reports the engine ready\n",
		 "INFO launcher starting the engine\n@0 INFO engine process started\n"
		 "@0 INFO engine loading the weights\n@0 INFO engine weights are loaded\n"
		 "@0 INFO sizing the key value cache\n");
	CHECK_INT(x.d.bad_line, 4);
	CHECK_INT(x.d.good_line, 4);
	dx_free(&x);
}

/* reordered: a block of steps printed in another order leaves the
 * stream at the furthest step. */
static void test_reordered(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, UPTO04 L06 L05);
	CHECK_INT(x.d.bad_line, 5);
	CHECK_INT(x.d.good_line, 6);
	dx_free(&x);
	DIAGNOSE(&x, NULL, GOOD, UPTO04 L06 L05 L07 L08 L09 L10 L11 L12 L13 L14 FROM15);
	CHECK_INT(x.d.verdict, DX_SAME);
	dx_free(&x);
}

/* ---- the sentences ---- */

/* Whether s holds a template placeholder ("<int>", "<path>", "<*>"). */
static int has_placeholder(const char *s)
{
	for (const char *p = strchr(s, '<'); p; p = strchr(p + 1, '<')) {
		size_t n = strspn(p + 1, "abcdefghijklmnopqrstuvwxyz*");
		if (n && p[1 + n] == '>')
			return 1;
	}
	return 0;
}

#define SAVED "INFO saved checkpoint to /srv/run/ckpt-500 after 12.5 s\n"

/* dx_milestone_name: a learned milestone is named by the good run's own
 * line, never by its template: "went on to" and every milestone name
 * quote a line the run printed. */
static void test_milestone_real_line(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, UPTO04 SAVED, UPTO04);
	const struct dx_milestone *fin = dx_final_milestone(&x.d);
	CHECK(fin != NULL);
	if (fin) {
		CHECK(has_placeholder(dx_template_text(&x.d, fin->id)));
		CHECK_STR(dx_milestone_name(&x.d, fin), "saved checkpoint to /srv/run/ckpt-500 after 12.5 s");
	}
	for (size_t k = 0; k < x.d.nms; k++)
		CHECK(!has_placeholder(dx_milestone_name(&x.d, &x.d.ms[k])));
	dx_free(&x);
	/* A rule's milestone keeps the rule's name. */
	DIAGNOSE(&x, "[t]\nfinal saved: saved checkpoint to\n", UPTO04 SAVED, UPTO04);
	fin = dx_final_milestone(&x.d);
	CHECK(fin != NULL);
	if (fin)
		CHECK_STR(dx_milestone_name(&x.d, fin), "saved");
	dx_free(&x);
}

/* named_end: "went on to" never names the good run's shutdown: a good
 * run that never came up and was shut down after its work is named by
 * the last thing it did before, by the generic words' stop rules ... */
static void test_went_on_to_no_shutdown(void)
{
	struct dx x;
	DIAGNOSE(&x, GENERIC, UPTO04 "INFO wrote the results to the output table\n"
		 "INFO received SIGTERM, shutting down\nINFO closing the database pool\n"
		 "INFO stopping the worker threads\nINFO exiting\n",
		 L00 L01 L02);
	const struct dx_milestone *fin = dx_final_milestone(&x.d);
	CHECK(fin != NULL);
	if (fin)
		CHECK_STR(dx_milestone_name(&x.d, fin), "wrote the results to the output table");
	dx_free(&x);
	/* ... while a shutdown word in passing, with steps after it, is no
	 * teardown. */
	DIAGNOSE(&x, GENERIC, L00 "INFO closing the stale connection\n" L01 L02 L03 L04, L00 L01);
	fin = dx_final_milestone(&x.d);
	CHECK(fin != NULL);
	if (fin)
		CHECK_STR(dx_milestone_name(&x.d, fin), "database schema verified");
	dx_free(&x);
}

/* The generic words know a server is up from the words servers use,
 * without rules for it (timeline_up over the generic rules): the good
 * run's end is its up line, which "went on to" quotes. */
static void test_generic_up_words(void)
{
	static const char *const up[] = {
		"Starting development server at http://127.0.0.1:8000/",
		"Waiting for connections on port 27017",
		"Application startup complete.",
		"Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)",
		"Listening on http://0.0.0.0:3000",
		"database system is ready to accept connections",
		"Started DemoApplication in 3.456 seconds (JVM running for 4.1)",
		"Running on http://127.0.0.1:5000 (Press CTRL+C to quit)",
	};
	for (size_t k = 0; k < sizeof(up) / sizeof(*up); k++) {
		char good[512];
		snprintf(good, sizeof(good), "%sINFO %s\nINFO request served in time\n", L00 L01 L02, up[k]);
		struct dx x;
		DIAGNOSE(&x, GENERIC, good, L00 L01);
		CHECK(x.d.up != DX_NONE);
		const struct dx_milestone *fin = dx_final_milestone(&x.d);
		CHECK(fin != NULL);
		if (fin)
			CHECK_STR(dx_milestone_name(&x.d, fin), up[k]);
		dx_free(&x);
	}
}

/* ---- collectives (collectives.c) ---- */


#define WD(r, seq, op) "@" #r " ERROR [Rank " #r "] Watchdog caught collective operation timeout: " \
	"WorkNCCL(SeqNum=" #seq ", OpType=" #op ", NumelIn=8, NumelOut=8, Timeout(ms)=600000) ran for 600010 milliseconds before timing out.\n"
/* The same with the elements the call took in. */
#define WDN(r, seq, op, n) "@" #r " ERROR [Rank " #r "] Watchdog caught collective operation timeout: " \
	"WorkNCCL(SeqNum=" #seq ", OpType=" #op ", NumelIn=" #n ", NumelOut=" #n ", Timeout(ms)=600000) ran for 600010 milliseconds before timing out.\n"
#define PG(r, e, c) "@" #r " ERROR [PG ID 0 PG GUID 0(default_pg) Rank " #r "] Received a dump signal. " \
	"Last enqueued NCCL work: " #e ", last completed NCCL work: " #c ".\n"
#define COLL_GOOD "@0 INFO start\n@1 INFO start\n@2 INFO start\n@0 INFO step done\n@1 INFO step done\n@2 INFO step done\n"
#define COLL_BAD "@0 INFO start\n@1 INFO start\n@2 INFO start\n"

static int coll_odd(const struct diagnosis *d)
{
	int mask = 0;
	for (size_t k = 0; k < d->coll.n; k++)
		mask |= d->coll.r[k].odd << d->coll.r[k].rank;
	return mask;
}

/* Each shape of hang, from the watchdog's lines alone, with the ranks it
 * singles out: never-entered names the rank behind (and only it),
 * mismatch the rank whose op fewer ranks called, stuck-inside the rank
 * that waits in what its peers completed; all-stuck and not-collective
 * single out none. */
static void test_collectives(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, COLL_GOOD, COLL_BAD WD(0, 5, ALLREDUCE) PG(0, 5, 4) WD(1, 5, ALLREDUCE) PG(1, 5, 4) PG(2, 4, 4));
	CHECK_INT(x.d.coll.kind, DX_HANG_NEVER_ENTERED);
	CHECK_INT(x.d.coll.seq, 5);
	CHECK_STR(x.d.coll.op, "all_reduce");
	CHECK_INT(coll_odd(&x.d), 1 << 2);
	CHECK(x.d.coll.sentence && strstr(x.d.coll.sentence, "rank 2 never joined collective 5 (all_reduce, pg 0)"));
	dx_free(&x);
	DIAGNOSE(&x, NULL, COLL_GOOD, COLL_BAD WD(0, 5, ALLREDUCE) WD(1, 5, BROADCAST) WD(2, 5, ALLREDUCE));
	CHECK_INT(x.d.coll.kind, DX_HANG_MISMATCH);
	CHECK_INT(coll_odd(&x.d), 1 << 1);
	dx_free(&x);
	/* The same op on another number of elements is another call: the
	 * rank that made it is the odd one, and the sentence says the sizes. */
	DIAGNOSE(&x, NULL, COLL_GOOD, COLL_BAD WDN(0, 5, ALLREDUCE, 1048580) WDN(1, 5, ALLREDUCE, 4) WDN(2, 5, ALLREDUCE, 4));
	CHECK_INT(x.d.coll.kind, DX_HANG_MISMATCH);
	CHECK_INT(coll_odd(&x.d), 1 << 0);
	CHECK(x.d.coll.sentence && strstr(x.d.coll.sentence, "rank 0 called all_reduce of 1048580 elements as collective 5"));
	dx_free(&x);
	/* Sizes alike (a rank's later line says where it stood last): one call. */
	DIAGNOSE(&x, NULL, COLL_GOOD, COLL_BAD WDN(0, 5, ALLREDUCE, 4) WD(1, 5, ALLREDUCE) WDN(2, 5, ALLREDUCE, 4) WDN(1, 5, ALLREDUCE, 4));
	CHECK_INT(x.d.coll.kind, DX_HANG_ALL_STUCK);
	dx_free(&x);
	/* One rank heard from: it waited, not "all waited". */
	DIAGNOSE(&x, NULL, COLL_GOOD, COLL_BAD WD(0, 5, ALLREDUCE));
	CHECK_INT(x.d.coll.kind, DX_HANG_ALL_STUCK);
	CHECK(x.d.coll.sentence && strstr(x.d.coll.sentence, "rank 0 waited in collective 5"));
	dx_free(&x);
	/* Two ops, one rank each: no odd one. */
	DIAGNOSE(&x, NULL, COLL_GOOD, COLL_BAD WD(0, 5, ALLREDUCE) WD(1, 5, BROADCAST));
	CHECK_INT(x.d.coll.kind, DX_HANG_MISMATCH);
	CHECK_INT(coll_odd(&x.d), 0);
	dx_free(&x);
	DIAGNOSE(&x, NULL, COLL_GOOD, COLL_BAD WD(0, 5, ALLREDUCE) WD(1, 5, ALLREDUCE) WD(2, 5, ALLREDUCE));
	CHECK_INT(x.d.coll.kind, DX_HANG_ALL_STUCK);
	CHECK_INT(coll_odd(&x.d), 0);
	dx_free(&x);
	DIAGNOSE(&x, NULL, COLL_GOOD, COLL_BAD PG(0, 6, 5) PG(1, 6, 5) WD(2, 5, ALLREDUCE) PG(2, 5, 4));
	CHECK_INT(x.d.coll.kind, DX_HANG_STUCK_INSIDE);
	CHECK_INT(coll_odd(&x.d), 1 << 2);
	dx_free(&x);
	DIAGNOSE(&x, NULL, COLL_GOOD, COLL_BAD PG(0, 5, 5) PG(1, 5, 5) PG(2, 5, 5));
	CHECK_INT(x.d.coll.kind, DX_HANG_NOT_COLLECTIVE);
	dx_free(&x);
	/* A run that got to the end has no hang kind. */
	DIAGNOSE(&x, NULL, COLL_GOOD, COLL_GOOD PG(0, 5, 5));
	CHECK_INT(x.d.coll.n, 1);
	CHECK_INT(x.d.coll.kind, DX_HANG_NONE);
	dx_free(&x);
}

/* A dump of rank r waiting in all_reduce seq, its GPU work begun (started
 * 1), not yet (0) or not recorded (-1). */
static struct frdump fr_waiting(int r, int64_t seq, int started)
{
	struct frdump f = { .rank = r };
	f.latest = (struct fr_group){ .name = "0", .id = 0, .enqueued = seq, .completed = seq - 1, .pending = seq,
				      .pending_started = started, .enq_numel = 8, .done_numel = 8,
				      .pending_numel = 8, .pending_ns = -1 };
	strcpy(f.latest.enq_op, "all_reduce");
	strcpy(f.latest.done_op, "all_reduce");
	strcpy(f.latest.pending_op, "all_reduce");
	return f;
}

/* Group name of dump f: last enqueued enq, completed done, waiting in
 * pending (-1: none) since ns. */
static void fr_group_add(struct frdump *f, const char *name, int64_t enq, int64_t done, int64_t pending, int64_t ns)
{
	struct fr_group *g = &f->groups[f->ngroups++];
	memset(g, 0, sizeof(*g));
	snprintf(g->name, sizeof(g->name), "%s", name);
	g->id = f->ngroups - 1;
	g->enqueued = enq, g->completed = done, g->pending = pending, g->pending_ns = pending >= 0 ? ns : -1;
	g->enq_numel = g->done_numel = g->pending_numel = -1;
	g->pending_started = -1;
	strcpy(g->enq_op, "all_reduce");
	strcpy(g->pending_op, pending >= 0 ? "all_reduce" : "");
}

/* subgroup_never_entered: four ranks all wait in the world's collective
 * 9, but in tensor-parallel group "1" {0, 1}, whose collective 13 rank 0
 * has waited in since before any other wait began, rank 1 never called
 * it: the hang is that group's, rank 1 is odd and the culprit, and the
 * rows are the group's two members.  Group "2" {2, 3}, whose members
 * both called 19, singles out none.  Where rank 1 called 13 too, or its
 * dump kept nothing of group "1", no rank is odd. */
static void test_subgroup_never_entered(void)
{
	struct dx x;
	struct frdump f[4];
	for (int pass = 0; pass < 3; pass++) {
		for (int r = 0; r < 4; r++) {
			f[r] = fr_waiting(r, 9, -1);
			f[r].ngroups = 0;
			fr_group_add(&f[r], "0", 9, 8, 9, 200 + r);
		}
		fr_group_add(&f[0], "1", 14, 12, 13, 100);
		if (pass == 0)
			fr_group_add(&f[1], "1", 12, 12, -1, 0);
		else if (pass == 1)
			fr_group_add(&f[1], "1", 13, 12, 13, 110);
		fr_group_add(&f[2], "2", 21, 18, 19, 150);
		fr_group_add(&f[3], "2", 21, 18, 19, 160);
		scripts_dumps = f, scripts_ndumps = 4;
		DIAGNOSE(&x, NULL, COLL_GOOD, COLL_BAD);
		if (pass == 0) {
			CHECK_INT(x.d.coll.kind, DX_HANG_NEVER_ENTERED);
			CHECK_INT(x.d.coll.seq, 13);
			CHECK_INT(x.d.coll.n, 2);
			CHECK_INT(coll_odd(&x.d), 1 << 1);
			CHECK_INT(x.d.culprit.how, DX_CULPRIT_COLLECTIVE);
			CHECK(x.d.culprit.rank && strchr(x.d.culprit.rank, '1'));
		} else {
			CHECK_INT(x.d.coll.kind, DX_HANG_ALL_STUCK);
			CHECK_INT(x.d.coll.n, 4);
			CHECK_INT(coll_odd(&x.d), 0);
			/* feed_culprit: no culprit, and the collectives say why. */
			CHECK(x.d.culprit.unknown && strcmp(x.d.culprit.unknown,
							    "every rank waited in the same collective") == 0);
		}
		dx_free(&x);
	}
	scripts_dumps = NULL, scripts_ndumps = 0;
}

/* not_started: ranks all waiting in one collective, whose dumps say rank
 * 0's GPU never started it while its peers' did, single out rank 0, the
 * culprit; dumps that record no start (all "scheduled"), or where every
 * GPU started it, single out none. */
static void test_not_started(void)
{
	struct dx x;
	struct frdump f[3] = { fr_waiting(0, 15, 0), fr_waiting(1, 15, 1), fr_waiting(2, 15, 1) };
	scripts_dumps = f, scripts_ndumps = 3;
	DIAGNOSE(&x, NULL, COLL_GOOD, COLL_BAD);
	CHECK_INT(x.d.coll.kind, DX_HANG_NOT_STARTED);
	CHECK_INT(coll_odd(&x.d), 1 << 0);
	CHECK_INT(x.d.culprit.how, DX_CULPRIT_COLLECTIVE);
	CHECK(x.d.culprit.rank && strchr(x.d.culprit.rank, '0'));
	CHECK(x.d.coll.sentence && strstr(x.d.coll.sentence, "rank 0 called collective 15 (all_reduce, pg 0) but its GPU never started it"));
	dx_free(&x);
	f[1].latest.pending_started = f[2].latest.pending_started = 0;
	DIAGNOSE(&x, NULL, COLL_GOOD, COLL_BAD);
	CHECK_INT(x.d.coll.kind, DX_HANG_ALL_STUCK);
	CHECK_INT(coll_odd(&x.d), 0);
	dx_free(&x);
	f[0].latest.pending_started = f[1].latest.pending_started = f[2].latest.pending_started = 1;
	DIAGNOSE(&x, NULL, COLL_GOOD, COLL_BAD);
	CHECK_INT(x.d.coll.kind, DX_HANG_ALL_STUCK);
	CHECK_INT(coll_odd(&x.d), 0);
	dx_free(&x);
	scripts_dumps = NULL, scripts_ndumps = 0;
}

/* pass_waiting, waits_after, stopped_or_diverged: a run whose last words
 * say it waits is STOPPED in that wait, the wait quoted; what it noted
 * in words before, not logged as an error, is no crash.  Logged as an
 * error, it is. */
static void test_waits_at_end(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "INFO disabling unused clocks\n"
		 "INFO hctosys: unable to open rtc device (rtc0)\n"
		 "INFO Waiting for root device /dev/mmcblk0p2...\n");
	CHECK_INT(x.d.verdict, DX_STOPPED);
	CHECK_INT(x.d.crash, DX_NONE);
	CHECK_INT(x.d.waiting.first, 7);
	CHECK_INT((int)x.d.waiting.count, 1);
	dx_free(&x);
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "INFO disabling unused clocks\n"
		 "ERROR hctosys: unable to open rtc device (rtc0)\n"
		 "INFO Waiting for root device /dev/mmcblk0p2...\n");
	CHECK_INT(x.d.verdict, DX_CRASHED);
	dx_free(&x);
	/* A wait for its own end is no wait of a stuck run. */
	DIAGNOSE(&x, NULL, GOOD, UPTO04 "INFO disabling unused clocks\n"
		 "INFO hctosys: unable to open rtc device (rtc0)\n"
		 "INFO waiting for the workers to exit\n");
	CHECK_INT(x.d.waiting.first, DX_NONE);
	dx_free(&x);
}

/* traceback_extent, traceback_summary: the exception that ends a
 * chain's last part, with lines below it that read as frames (the stars
 * that box its message, in a chain pip quotes with an indent), ends the
 * chain, and is no traceback of its own: the cause is its message below
 * the stars, not the chain's first exception. */
#define PIP_TB(exc) "|  Traceback (most recent call last):\n|    File \"setup.py\", line 5, in <module>\n" \
	"|      check()\n|  " exc "\n"
static void test_indented_traceback(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, GOOD, UPTO04 PIP_TB("FileNotFoundError: [WinError 2] no such file")
		 "|\n|  During handling of the above exception, another exception occurred:\n|\n"
		 PIP_TB("RuntimeError:") "|  ****\n|   CMake must be installed to build the extensions\n"
		 "|  ****\n|\n|  ----\n|ERROR: Failed building wheel for dlib\n");
	CHECK_INT(x.d.verdict, DX_CRASHED);
	CHECK_INT(crash_summary(&x.d), 17);
	dx_free(&x);
}

/* log.c's when: a line stamped less than a second before the line
 * above it (a logger of whole seconds after one of milliseconds) takes
 * that line's time, so that no offset is negative; a clock set back
 * further is told as it is. */
static void test_time_does_not_run_back(void)
{
	struct dx x;
	DIAGNOSE(&x, NULL, "|2025-03-08 10:00:00,470 INFO a first step\n"
			   "|2025-03-08 10:00:00 INFO a second step\n"
			   "|2025-03-08 10:00:02,000 INFO a third step\n"
			   "|2025-03-08 09:00:00 INFO a fourth step\n",
		 "|2025-03-08 10:00:00 INFO a first step\n");
	CHECK(log_span_s(&x.logs[0], 0, 1) == 0.0);
	CHECK(log_span_s(&x.logs[0], 1, 2) > 1.5);
	CHECK(log_span_s(&x.logs[0], 2, 3) < -3000.0);
	dx_free(&x);
}

int main(void)
{
	test_collectives();
	test_not_started();
	test_subgroup_never_entered();
	test_stopped();
	test_empty_beside_empty();
	test_same();
	test_different_warning();
	test_different_changed();
	test_slow_step();
	test_crashed();
	test_error_then_follows();
	test_survived();
	test_peer_loss();
	test_killed_from_outside();
	test_done_then_killed();
	test_ctrl_c();
	test_cut_short();
	test_exited_early();
	test_record_cause();
	test_failed_step_after_step();
	test_retried_error();
	test_retry_other_stream();
	test_gave_up_after_retries();
	test_traceback_one_finding();
	test_chain_last();
	test_message_after();
	test_message_below();
	test_traceback_headline();
	test_says_nothing();
	test_warning_traceback();
	test_python_exception_after_frames();
	test_frames_no_going_on();
	test_quoted_cause();
	test_warning_before_crash();
	test_burst_cause();
	test_error_during();
	test_job_finished();
	test_job_failed();
	test_failed_job_end();
	test_died_after_up();
	test_lived_on();
	test_hung_then_killed();
	test_reached_last_print();
	test_failed_and_went_on();
	test_end_before_its_steps();
	test_good_log_of_two_runs();
	test_blank_line();
	test_further_stream();
	test_diverged();
	test_killed_after();
	test_failed_step();
	test_failed_departure();
	test_glued_bar();
	test_bar_last_frame_only();
	test_non_finite();
	test_recovered_before_up();
	test_stable_part();
	test_restart_loop();
	test_suite_header_no_banner();
	test_up_then_worker_again();
	test_record_says_what_failed();
	test_exception_named_alone();
	test_two_words_and_an_aside();
	test_more_alike_merges();
	test_repeat_is_no_end();
	test_named_step_copy();
	test_banner_printed_twice();
	test_retried_error_no_attempt();
	test_restart_cut();
	test_flushed_after_traceback();
	test_crash_from_words();
	test_went_on_familiar();
	test_next();
	test_next_skips_non_steps();
	test_next_after_warning();
	test_reworded_group();
	test_reworded_plural();
	test_reworded_opposite();
	test_failed_step_is_done();
	test_teardown_over_unnamed_steps();
	test_named_end_before_valued_steps();
	test_copies_folded();
	test_tally_is_no_step();
	test_open_line_is_no_step();
	test_weak_reference();
	test_tally_is_no_cause();
	test_error_is_no_reworded_step();
	test_rule_word_alone();
	test_labelled_cause();
	test_warning_aside();
	test_steps_named_by_value();
	test_steps_not_named();
	test_steps_other_config();
	test_repeated_line_is_no_path();
	test_waiting();
	test_learned_heartbeat();
	test_counter_is_progress();
	test_silence();
	test_good_gap_and_step();
	test_still_in_step();
	test_rank_behind();
	test_best_good_run();
	test_beat_in_step();
	test_beat_after_step();
	test_beat_after_error();
	test_leap();
	test_reworded_stretch();
	test_lacking_steps();
	test_tail_after_end();
	test_coming_step();
	test_shared_warning();
	test_teardown();
	test_error_before_start();
	test_lookalike();
	test_foreign_step();
	test_reordered();
	test_milestone_real_line();
	test_went_on_to_no_shutdown();
	test_generic_up_words();
	test_time_does_not_run_back();
	test_traced_cause();
	test_waits_at_end();
	test_indented_traceback();
	test_remote_traceback_chain();
	return test_report();
}
