/* diagnose_verdict.c — the verdict passes (see diagnose_passes.h): which
 * new error is the crash and what caused it, whether bad reached the good
 * run's end and where it got, the verdict (same, different, crashed,
 * stopped, diverged, failed, interrupted), what the good run did next,
 * and whether a stop is overdue yet (running).  Each rule is a
 * function of its own; its comment says what it guarantees. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "classify.h"
#include "diagnose_passes.h"
#include "mask.h"

/* Lines of a dump printed right after a retry notice that may still
 * be part of it ("Exception raised from ...", the first frame). */
#define RETRY_DUMP 3
/* Lines at work, and their templates, that a run printed after an error
 * it lived on (lived_on). */
#define LIVED_LINES 10
#define LIVED_KINDS 3
/* ... and for how long its log went on after it. */
#define LIVED_MS (10 * 60 * 1000)
/* How far lived_on reads after an error, and back for its time. */
#define LIVED_SCAN 100000

/* ---- the crash ---- */

/* Whether bad survived its line i: other ranks may finish a step after
 * one rank died, but a run that goes on following the good one at
 * length did.  fbefore[i] counts the following lines before line i. */
static int survived(const size_t *fbefore, size_t n, int64_t i)
{
	size_t before = fbefore[i], after = fbefore[n] - before;
	return after >= 10 && 4 * after > before;
}

/* Per line of bad, the stream whose message it belongs to: its own, or
 * for an untagged line without a time, that of the line before it -- a
 * rank's error printed over many lines ("[rank0]:[E...] ... remote
 * process exited", then "ncclRemoteError: ...", "Last error:", a stack)
 * tags and times only its first.  The caller frees it. */
static uint16_t *message_streams(const struct dx_state *st)
{
	const struct log *bad = &st->logs[st->bad];
	const uint16_t *stream = st->stream[st->bad];
	uint16_t *says = xmalloc((bad->nlines ? bad->nlines : 1) * sizeof(*says));
	for (size_t i = 0; i < bad->nlines; i++)
		says[i] = stream[i] == 0 && i > 0 && bad->ts[i] == TS_NONE ? says[i - 1] : stream[i];
	return says;
}

/* Whether what bad's line i says comes after its line at as the walk
 * followed it: a later line, or at itself when at followed by the bar in
 * front of its text ("  2%|###  | 11/489 [...]Traceback": by_bar). */
static int says_after(const struct dx_state *st, int64_t i, int64_t at)
{
	return i > at || (i == at && at >= 0 && st->w->follow[at] && st->w->by_bar[at]);
}

/* A run killed from outside (a timeout's SIGTERM, ^C) after it stopped
 * following the good run says so before anything else fails: the errors
 * after that notice (the launcher's SignalException) are the kill's, not
 * a crash.  A kill notice after a new error (the launcher stopping the
 * other workers once one died) is no such.  The notice's line, else
 * bad's line count. */
static int64_t killed_from_outside(const struct dx_state *st, const struct diagnosis *d)
{
	int64_t n = (int64_t)st->logs[st->bad].nlines, killed = n, failed = n;
	for (size_t k = 0; k < d->nnovel; k++) {
		const struct dx_novel *nv = &d->novel[k];
		if (!says_after(st, nv->line, st->w->last))
			continue;
		if (classify_is_killed(st->rs, st->ctext[st->id[st->bad][nv->summary]]))
			killed = nv->line < killed ? nv->line : killed;
		else if (nv->severity == DX_ERROR && nv->line < failed)
			failed = nv->line;
	}
	return failed < killed ? n : killed;
}

/* Whether a line of template c is the run at work: a line at info of
 * its own shape (not indented, no part of a traceback, not blank), that
 * is no heartbeat, no retry and no word of shutting down.  What a dying
 * process prints after its error is none: frames, the error again, its
 * teardown. */
static int at_work(const struct dx_state *st, uint32_t c)
{
	const char *t = st->ctext[c];
	return st->sev[c] == DX_INFO && st->tb[c] == CLASSIFY_TB_NO && !st->hb[c] && !st->retry[c] &&
	       !st->stop[c] && !is_blank(t) && t[0] != ' ' && t[0] != '\t' && !classify_names_failure(st->rs, t);
}

/* What the crash rules read of bad's lines. */
struct crash_lines {
	int64_t *lastf;         /* per stream: its last following line */
	size_t *fbefore;        /* [i]: following lines before line i (n + 1) */
	size_t *familiar;       /* [i]: lines before line i of templates a
				 * good run printed, heartbeats aside (n + 1) */
	int64_t *retry_after;   /* [i]: the first retry notice at or after
				 * line i, or -1 */
	uint8_t *work;          /* per template: 0 unknown, 1 not at work,
				 * 2 at work (at_work) */
	int64_t last_ts;        /* the time of bad's last timed line */
	uint16_t *says;         /* message_streams */
	int64_t *lost;          /* per stream of says: its first line that
				 * reports a lost peer, in a run that did not
				 * survive it; DX_NONE */
	int64_t killed;         /* killed_from_outside */
};

static void crash_lines_init(struct crash_lines *cl, const struct dx_state *st, const struct diagnosis *d)
{
	const struct log *bad = &st->logs[st->bad];
	const uint32_t *id = st->id[st->bad];
	const uint8_t *follow = st->w->follow;
	size_t nb = bad->nlines;
	cl->lastf = xmalloc(st->nstreams * sizeof(*cl->lastf));
	cl->lost = xmalloc(st->nstreams * sizeof(*cl->lost));
	for (size_t s = 0; s < st->nstreams; s++)
		cl->lastf[s] = cl->lost[s] = DX_NONE;
	cl->fbefore = xmalloc((nb + 1) * sizeof(*cl->fbefore));
	cl->familiar = xmalloc((nb + 1) * sizeof(*cl->familiar));
	cl->fbefore[0] = cl->familiar[0] = 0;
	/* Frames of a bar a process draws as it exits (tqdm closes its bars
	 * after the traceback) are no going on: a frame counts only when a
	 * line of its stream that is none follows the good run after it.
	 * Nor are the lines of a traceback bad's findings hold: frames of
	 * library code a good run's traceback went through too are an
	 * error's dump, not work. */
	int64_t *lastline = xmalloc(st->nstreams * sizeof(*lastline));
	uint8_t *dump = xcalloc(nb ? nb : 1, 1);
	for (size_t s = 0; s < st->nstreams; s++)
		lastline[s] = DX_NONE;
	for (size_t k = 0; k < d->nnovel; k++)
		if (d->novel[k].traceback)
			memset(dump + d->novel[k].line, 1, d->novel[k].nlines);
	for (size_t i = 0; i < nb; i++)
		if (follow[i] && !st->is_bar[id[i]])
			lastline[st->stream[st->bad][i]] = (int64_t)i;
	for (size_t i = 0; i < nb; i++) {
		int on = follow[i] && !dump[i] &&
			 (!st->is_bar[id[i]] || (int64_t)i < lastline[st->stream[st->bad][i]]);
		if (on)
			cl->lastf[st->stream[st->bad][i]] = (int64_t)i;
		cl->fbefore[i + 1] = cl->fbefore[i] + on;
		cl->familiar[i + 1] = cl->familiar[i] + (!st->hb[id[i]] && !is_novel_template(st, id[i]));
	}
	free(lastline);
	free(dump);
	cl->retry_after = xmalloc((nb ? nb : 1) * sizeof(*cl->retry_after));
	for (int64_t i = (int64_t)nb, r = -1; i-- > 0;) {
		if (st->retry[id[i]])
			r = i;
		cl->retry_after[i] = r;
	}
	cl->work = xcalloc(st->nc ? st->nc : 1, 1);
	cl->last_ts = TS_NONE;
	for (size_t i = nb; i-- > 0 && cl->last_ts == TS_NONE;)
		cl->last_ts = bad->ts[i];
	cl->says = message_streams(st);
	/* By line: one finding holds every rank's copy of a message. */
	for (size_t i = nb; i-- > 0;)
		if (st->new_error[id[i]] && classify_is_peer_loss(st->rs, st->ctext[id[i]]) &&
		    !survived(cl->fbefore, nb, (int64_t)i))
			cl->lost[cl->says[i]] = (int64_t)i;
	cl->killed = killed_from_outside(st, d);
}

static void crash_lines_free(struct crash_lines *cl)
{
	free(cl->lastf);
	free(cl->fbefore);
	free(cl->familiar);
	free(cl->retry_after);
	free(cl->work);
	free(cl->says);
	free(cl->lost);
}

/* An error its stream later says it retries ("failed to connect -
 * retrying"), like the dump printed just after such a notice (a
 * traceback's lines: "Exception raised from ...", a frame), did not end
 * the run: a log that ends there is waiting, not crashed.  An error of
 * another kind after the last notice is the run giving up ("Can't
 * connect to ..."): it did. */
static int retried_error(const struct dx_state *st, const struct crash_lines *cl, int64_t line)
{
	const uint16_t *stream = st->stream[st->bad];
	int64_t r = cl->retry_after[line];
	if (r >= 0 && stream[r] == stream[line])
		return 1;
	r = cl->retry_after[line >= RETRY_DUMP ? line - RETRY_DUMP : 0];
	return r >= 0 && r < line && stream[r] == stream[line] && st->tb[st->id[st->bad][line]] != CLASSIFY_TB_NO;
}

/* The time of bad's line i, or of the nearest timed line before it
 * (step -1) or after it (step 1), within `within` lines; TS_NONE. */
static int64_t time_near(const struct log *bad, int64_t i, int step, int64_t within)
{
	for (int64_t k = i, n = 0; k >= 0 && k < (int64_t)bad->nlines && n < within; k += step, n++)
		if (bad->ts[k] != TS_NONE)
			return bad->ts[k];
	return TS_NONE;
}

/* Whether the run lived on after its line: it went on working at length
 * (at least LIVED_LINES lines at work, of LIVED_KINDS templates or more,
 * within LIVED_SCAN lines) and its log went on for LIVED_MS or more,
 * whether or not the good run did the same work -- a web server's
 * request traceback, then hours of the app's own output.  What a dying
 * process prints after its error, however long (a launcher's report of
 * the failed ranks), comes in the moment it dies; an untimed log cannot
 * tell. */
static int lived_on(const struct dx_state *st, const struct crash_lines *cl, int64_t line)
{
	const struct log *bad = &st->logs[st->bad];
	const uint32_t *id = st->id[st->bad];
	int64_t at = time_near(bad, line, -1, LIVED_SCAN);
	if (at == TS_NONE || cl->last_ts == TS_NONE || cl->last_ts - at < LIVED_MS)
		return 0;
	uint32_t kinds[LIVED_KINDS];
	size_t lines = 0, nk = 0;
	for (size_t i = (size_t)line + 1; i < bad->nlines && i <= (size_t)line + LIVED_SCAN; i++) {
		uint32_t c = id[i];
		if (!cl->work[c])
			cl->work[c] = (uint8_t)(1 + at_work(st, c));
		if (cl->work[c] != 2)
			continue;
		lines++;
		size_t k = 0;
		while (k < nk && kinds[k] != c)
			k++;
		if (k == nk && nk < LIVED_KINDS)
			kinds[nk++] = c;
		if (lines >= LIVED_LINES && nk >= LIVED_KINDS)
			return 1;
	}
	return 0;
}

/* A run went on after its line: it lived on (lived_on), its rank
 * followed the good run again, or the run survived it (survived).  Where bad follows the good run
 * nowhere (the walk found no path through a log of another build or
 * platform), the lines it printed that the good runs print too say how
 * far it went on instead. */
static int went_on(const struct dx_state *st, const struct crash_lines *cl, int64_t line)
{
	size_t nb = st->logs[st->bad].nlines;
	if (lived_on(st, cl, line))
		return 1;
	if (cl->fbefore[nb] == 0)
		return survived(cl->familiar, nb, line);
	return cl->lastf[st->stream[st->bad][line]] > line || survived(cl->fbefore, nb, line);
}

/* Whether finding nv is a traceback its output printed before the run
 * had started: before the first line of bad's attempt that is the good
 * run's start banner (start_banner), which comes after it bearing no
 * time.  A program whose stdout is no terminal buffers it and writes it
 * out as it exits, after the traceback stderr printed unbuffered as it
 * died: what follows is the run's output flushed, not progress after
 * it.  (A banner with a time says when it was printed: a run that
 * started after the error, as another attempt of a restart loop does.) */
static int flushed_after(const struct dx_state *st, const struct dx_novel *nv)
{
	int64_t g = start_banner(st, 0), line = nv->line;
	if (g < 0 || !nv->traceback)
		return 0;
	uint32_t banner = st->id[0][g];
	const struct log *bad = &st->logs[st->bad];
	for (size_t i = st->from; i < bad->nlines; i++)
		if (st->id[st->bad][i] == banner)
			return (int64_t)i > line && bad->ts[i] == TS_NONE;
	return 0;
}

/* Whether the run waits at its end (d->waiting, pass_waiting) after
 * finding nv: a run that says it waits, then nothing, is stuck in that
 * wait; what it noted before, in words and not logged as an error (no
 * error level, no traceback), did not end it -- the kernel's "unable to
 * open rtc device (rtc0)" before "Waiting for root device
 * /dev/mmcblk0p2...". */
static int waits_after(const struct dx_state *st, const struct diagnosis *d, const struct dx_novel *nv)
{
	return d->waiting.first != DX_NONE && d->waiting.first >= nv->line + nv->nlines && !nv->traceback &&
	       st->clevel[st->id[st->bad][nv->summary]] < LV_ERROR;
}

/* The crash is a new error after which its rank never followed the good
 * run again and the run did not survive (went_on), or one the run's
 * flushed output follows (flushed_after); not one it retried
 * (retried_error), not a kill notice, nor an error after the run was
 * killed from outside (killed_from_outside).  An error is what a line
 * says, not only its level: a line logged at info that says an
 * exception, an error, a non-zero exit status (classify_names_failure)
 * is one when the run did not go on after it -- a line of its own, not
 * a frame or an indented field of a record ("throw er; // Unhandled
 * 'error' event", "  severity: 'ERROR',"), and not one the run went
 * on to wait after (waits_after). */
static int crash_candidate(const struct dx_state *st, const struct diagnosis *d, const struct dx_novel *nv,
			   const struct crash_lines *cl)
{
	uint32_t c = st->id[st->bad][nv->summary];
	const char *sum = st->ctext[c];
	if (nv->line > cl->killed || classify_is_killed(st->rs, sum))
		return 0;
	if (nv->severity != DX_ERROR && (st->tb[c] != CLASSIFY_TB_NO || !classify_names_failure(st->rs, sum)))
		return 0;
	return !retried_error(st, cl, nv->line) && !waits_after(st, d, nv) &&
	       (flushed_after(st, nv) || !went_on(st, cl, nv->line));
}

/* A member that lost its peer reports the death of another: the crash is
 * where that one died, when the log says so.  What it reports after (the
 * rest of that message, the watchdog's abort) follows from the loss too.
 * Such an error is the crash only when no other is. */
static int peer_loss_symptom(const struct dx_state *st, const struct dx_novel *nv, const struct crash_lines *cl)
{
	int64_t loss = cl->lost[cl->says[nv->line]];
	return classify_is_peer_loss(st->rs, st->ctext[st->id[st->bad][nv->summary]]) || (loss != DX_NONE && loss <= nv->line);
}

/* Whether text t ends with text q, q long enough to say something. */
static int ends_with_quote(const char *t, const char *q)
{
	q += strspn(q, " \t");
	size_t nt = strlen(t), nq = strlen(q);
	while (nq && q[nq - 1] == ' ')
		nq--;
	while (nt && t[nt - 1] == ' ')
		nt--;
	if (nq < 20 || nq > nt || !memchr(q, ' ', nq))
		return 0;
	return memcmp(t + nt - nq, q, nq) == 0;
}

/* The earliest novel line before novel[best] and before bad's line
 * before, of any level and no traceback, that bad's line q quotes (see
 * quoted_cause); best when there is none.  Another line of the same
 * template (a second rank's copy of the message) repeats it, not quotes
 * it. */
static int64_t quoted_line(const struct dx_state *st, const struct diagnosis *d, int64_t q, int64_t before,
			   int64_t best)
{
	const uint32_t *id = st->id[st->bad];
	/* An exception line quotes with its message. */
	const char *quote = st->ctext[id[q]];
	if (st->tb[id[q]] == CLASSIFY_TB_EXC && strstr(quote, ": "))
		quote = strstr(quote, ": ") + 2;
	for (size_t c = 0; c < d->nnovel; c++) {
		const struct dx_novel *cv = &d->novel[c];
		if (cv->traceback || cv->line >= before || cv->line >= d->novel[best].line ||
		    id[cv->line] == id[q] || !ends_with_quote(st->ctext[id[cv->line]], quote))
			continue;
		best = (int64_t)c;
	}
	return best;
}

/* A wrapper error often repeats the message of the line that started it:
 * NCCL's "Last error:\n Bootstrap : no socket interface found" after its
 * "NCCL WARN Bootstrap : no socket interface found", llama.cpp's "what():
 * <why>" after "llama_model_load: error loading model: <why>" logged
 * without a level.  Returns the earliest novel line, of any level, quoted
 * by the crash (novel[crash]) or by an error before it that the run did
 * not survive, else crash.  A verbatim quote ties the two however far
 * apart they are (a warning may come long before the error that gives up
 * on it).  What quotes: an error's lines and, for a traceback, the
 * message lines printed after it. */
static int64_t quoted_cause(const struct dx_state *st, const struct diagnosis *d, const size_t *fbefore,
			    int64_t crash)
{
	const struct log *bad = &st->logs[st->bad];
	const uint32_t *id = st->id[st->bad];
	int64_t best = crash;
	for (size_t e = 0; e < d->nnovel; e++) {
		const struct dx_novel *ev = &d->novel[e];
		if (ev->severity != DX_ERROR || ev->line > d->novel[crash].line ||
		    ((int64_t)e != crash && survived(fbefore, bad->nlines, ev->line)))
			continue;
		int64_t end = ev->traceback ? ev->line + ev->nlines + 8 : ev->line + 1;
		for (int64_t q = ev->line; q < end && q < (int64_t)bad->nlines; q++)
			if (st->tb[id[q]] == CLASSIFY_TB_NO || st->tb[id[q]] == CLASSIFY_TB_EXC)
				best = quoted_line(st, d, q, ev->line, best);
	}
	return best;
}

/* Whether template text t says no word: nothing but placeholders,
 * brackets and marks ("[<id>]", Rails' request id that heads its FATAL
 * record before the message on the next line). */
static int says_no_word(const char *t)
{
	for (const char *p = t; *p; p++) {
		if (*p == '<') {
			const char *e = strchr(p, '>');
			if (e) {
				p = e;
				continue;
			}
		}
		if (isalpha((unsigned char)p[0]) && isalpha((unsigned char)p[1]))
			return 0;
	}
	return 1;
}

/* Whether template text t is an error only by a verdict in capitals
 * ("FAIL", "FAILED", "ERROR" as a word) or a cross mark ("✖"): without
 * them it says no failure.  A test runner's "FAIL  tests/pricing.test.ts
 * > applies the discount" names what failed, not how, and so does
 * Ghost-CLI's "✖ Downloading and installing Ghost v4.6.4". */
static int says_only_a_verdict(const struct dx_state *st, const char *t)
{
	static const char *const verdicts[] = { "FAILED", "FAIL", "ERROR", "✖", "✗", "✘", "✕", "❌", NULL };
	char *rest = xstrdup(t);
	int found = 0;
	for (char *p = rest; *p; p++) {
		if (p > rest && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
			continue;
		for (size_t k = 0; verdicts[k]; k++) {
			size_t n = strlen(verdicts[k]);
			if (strncmp(p, verdicts[k], n) == 0 && !isalnum((unsigned char)p[n]) && p[n] != '_') {
				memset(p, ' ', n);
				found = 1;
				break;
			}
		}
	}
	int only = found && classify_severity(st->rs, rest, LV_NONE) != CLASSIFY_ERROR;
	free(rest);
	return only;
}

/* Whether the word of n letters at p says where ("from", "at", "in"),
 * and the word after it is a place: a path, a file and line, a
 * placeholder ("src/cpp/core.cpp:104:", "<*>"); or when ("during",
 * "while"), and a word follows: the step it happened in ("error during
 * build:").  Returns the place's end, else NULL. */
static const char *place_after(const char *p, size_t n)
{
	static const char *const where[] = { "from", "at", "in", NULL }, *const when[] = { "during", "while", NULL };
	const char *q = p + n + strspn(p + n, " "), *e = q + strcspn(q, " ");
	if (e == q || q == p + n)
		return NULL;
	for (size_t k = 0; where[k]; k++)
		if (strlen(where[k]) == n && strncasecmp(p, where[k], n) == 0 &&
		    (memchr(q, '/', (size_t)(e - q)) || *q == '<'))
			return e;
	for (size_t k = 0; when[k]; k++)
		if (strlen(when[k]) == n && strncasecmp(p, when[k], n) == 0 && isalpha((unsigned char)*q))
			return q + strcspn(q, " :");
	return NULL;
}

/* Whether template text t says only that an error occurred, and at most
 * where or when (place_after): besides a word for one ("error", "SystemError",
 * "exception"), its words are articles and the verbs of happening ("A
 * SystemError occurred.", "An unexpected error has occurred", OpenVINO's
 * "Exception from src/inference/src/cpp/core.cpp:104:").  What error,
 * the next line says. */
static int says_only_an_error(const char *t)
{
	static const char *const filler[] = {
		"a", "an", "the", "has", "have", "had", "been", "was", "there", "is",
		"unexpected", "unknown", "internal", "occurred", "happened", NULL,
	};
	int errors = 0;
	for (const char *p = t; *p;) {
		if (!isalpha((unsigned char)*p)) {
			if (!strchr(" .:!,", *p))
				return 0;   /* a value, a quote: it says more */
			p++;
			continue;
		}
		size_t n = 0;
		while (isalpha((unsigned char)p[n]))
			n++;
		const char *place = errors ? place_after(p, n) : NULL;
		if (place) {
			p = place;
			continue;
		}
		int filled = 0;
		for (size_t k = 0; filler[k] && !filled; k++)
			filled = strlen(filler[k]) == n && strncasecmp(p, filler[k], n) == 0;
		if (!filled) {
			if ((n < 5 || strncasecmp(p + n - 5, "error", 5) != 0) &&
			    (n < 9 || strncasecmp(p + n - 9, "exception", 9) != 0))
				return 0;
			errors++;
		}
		p += n;
	}
	return errors > 0;
}

/* Lines after a record's head, or a traceback's end, that may say
 * what it left to them. */
#define RECORD_LINES 2

/* The finding that starts at bad's line i and is no traceback, else
 * DX_NONE. */
static int64_t line_finding(const struct diagnosis *d, int64_t i)
{
	for (size_t k = 0; k < d->nnovel; k++)
		if (d->novel[k].line == i && !d->novel[k].traceback)
			return (int64_t)k;
	return DX_NONE;
}

/* Whether exception line t leaves its message to the lines after it:
 * it ends in a colon after words of its own ("RuntimeError: Error
 * raised in subprocess:"), or as a Rust panic does. */
static int leaves_message_after(const char *t)
{
	size_t n = strlen(t);
	while (n && (t[n - 1] == ' ' || t[n - 1] == '\t'))
		n--;
	const char *colon = strchr(t, ':');
	return classify_message_follows(t) ||
	       (classify_is_exception_shaped(t) && n && t[n - 1] == ':' && colon && colon < t + n - 1);
}

/* A traceback whose exception leaves its message to the lines after it
 * (leaves_message_after; then the subprocess's own traceback) says what
 * failed in the finding right after it: the first new error of its
 * stream within RECORD_LINES after its end.  Returns it, else crash. */
static int64_t message_after(const struct dx_state *st, const struct diagnosis *d, int64_t crash)
{
	const struct dx_novel *cr = &d->novel[crash];
	const uint16_t *stream = st->stream[st->bad];
	if (!leaves_message_after(st->ctext[st->id[st->bad][cr->summary]]))
		return crash;
	int64_t end = cr->line + cr->nlines, best = crash;
	for (size_t k = 0; k < d->nnovel; k++) {
		const struct dx_novel *nv = &d->novel[k];
		if (nv->line >= end && nv->line < end + RECORD_LINES && stream[nv->line] == stream[cr->summary] &&
		    nv->severity == DX_ERROR && (best == crash || nv->line < d->novel[best].line))
			best = (int64_t)k;
	}
	return best;
}

/* An error line that says no word, or no failure but a verdict
 * (says_only_a_verdict), is the head of a record whose next line says
 * what failed: the cause is the first new error of its stream within
 * RECORD_LINES after it, when there is one -- or, after a line that
 * says only that an error occurred (says_only_an_error), the first line
 * of its stream no good run printed, error or not ("Message: Ghost
 * v4.6.4 is not compatible with the current Node version.").  A cause
 * found so that is itself such a head leads on to the next.  A kill or
 * a signal that follows says how the process ended, not what failed.
 * A traceback's message after it: message_after. */
static int64_t record_cause(const struct dx_state *st, const struct diagnosis *d, int64_t crash)
{
	const uint32_t *id = st->id[st->bad];
	const uint16_t *stream = st->stream[st->bad];
	for (int hops = 0; hops < 4 && d->novel[crash].traceback; hops++) {
		int64_t next = message_after(st, d, crash);
		if (next == crash)
			break;
		crash = next;
	}
	for (int hops = 0; hops < 4 && !d->novel[crash].traceback; hops++) {
		int64_t at = d->novel[crash].summary, next = crash;
		const char *t = st->ctext[id[at]];
		int error_only = says_only_an_error(t);
		if (!(error_only || says_no_word(t) || says_only_a_verdict(st, t)))
			break;
		int64_t upto = at + RECORD_LINES;
		for (int64_t i = at + 1; i <= upto && i < (int64_t)st->logs[st->bad].nlines && next == crash; i++) {
			uint32_t c = id[i];
			if (c == id[at] && upto < at + RECORD_LINES * 4)
				upto++;   /* more of the same: "Exception from ..." per frame */
			if (stream[i] != stream[at] || is_blank(st->ctext[c]) ||
			    classify_is_killed(st->rs, st->ctext[c]) || classify_is_signalled(st->rs, st->ctext[c]) ||
			    !(st->new_error[c] || (error_only && is_novel_template(st, c))))
				continue;
			int64_t k = line_finding(d, i);
			if (k != DX_NONE)
				next = k;
		}
		if (next == crash)
			break;
		crash = next;
	}
	return crash;
}

/* A crash whose line only tallies failures (classify_is_tally: Ansible's
 * recap "failed=1") counts what failed before it: the cause is the
 * first error no good run printed in bad's attempt before it, no tally
 * itself and no kill, when there is one. */
static int64_t tally_cause(const struct dx_state *st, const struct diagnosis *d, int64_t crash)
{
	const uint32_t *id = st->id[st->bad];
	const struct dx_novel *cr = &d->novel[crash];
	if (cr->traceback || !classify_is_tally(st->rs, st->ctext[id[cr->summary]]))
		return crash;
	int64_t best = crash;
	for (size_t k = 0; k < d->nnovel; k++) {
		const struct dx_novel *nv = &d->novel[k];
		const char *t = st->ctext[id[nv->summary]];
		if (nv->severity != DX_ERROR || nv->line >= cr->line || nv->line < (int64_t)st->from ||
		    classify_is_tally(st->rs, t) || classify_is_killed(st->rs, t))
			continue;
		if (best == crash || nv->line < d->novel[best].line)
			best = (int64_t)k;
	}
	return best;
}

/* Whether template text t says only what failed, not why: no value of
 * its own (no placeholder but a duration, no quote: an apostrophe
 * within a word is none), as the outermost line of a layered report
 * reads ("Failed to start server in (production) mode", "Error parsing
 * listener configuration.", "x Build failed in <dur>"). */
static int says_what_not_why(const char *t)
{
	for (const char *p = t; *p; p++) {
		if (*p == '"' || *p == '`' || (*p == '\'' && (p == t || !isalpha((unsigned char)p[-1]))))
			return 0;
		if (*p == '<' && strncmp(p, "<dur>", 5) != 0)
			return 0;
	}
	return 1;
}

/* An error that says only what failed (says_what_not_why) heads a
 * layered report, whose later lines say what it was doing when it
 * failed, down to why: Keycloak's "Failed to start server in
 * (production) mode", "Failed to obtain JDBC connection", "No suitable
 * driver found for jdbc:postgresql://...": a cause chain its logger
 * prints in one go).  The report: the lines of the crash's stream right
 * after it that are new errors of one line of their own, not indented,
 * in the same moment (the crash's time: lines without one tell no
 * moment, and a program may log its errors as they unwind, the
 * innermost first, as llama.cpp's "failed to read magic" before its
 * "failed to load model"), up to BURST_LINES; the first line that is
 * none ends it, and so does advice ("For more details run the same
 * command passing the '--verbose' option": classify_is_advice).  Its
 * last line is the cause.  A crash line with a value of its own ("x.c:3:
 * error: 'n' undeclared") says why itself: the summary after it ("make:
 * *** [all] Error 1") is no deeper.  Returns that line's finding, else
 * crash. */
#define BURST_LINES 8
static int64_t burst_cause(const struct dx_state *st, const struct diagnosis *d, int64_t crash)
{
	const struct dx_novel *cr = &d->novel[crash];
	const uint32_t *id = st->id[st->bad];
	const uint16_t *stream = st->stream[st->bad];
	const int64_t *ts = st->logs[st->bad].ts;
	if (cr->traceback || cr->nlines != 1 || ts[cr->line] == TS_NONE ||
	    !says_what_not_why(st->ctext[id[cr->line]]))
		return crash;
	int64_t at = cr->line, best = crash;
	for (int64_t i = at + 1; i < (int64_t)st->logs[st->bad].nlines && i <= at + BURST_LINES; i++) {
		const char *t = st->ctext[id[i]];
		if (stream[i] != stream[at] || ts[i] != ts[at] || !st->new_error[id[i]] || t[0] == ' ' ||
		    t[0] == '\t' || classify_is_advice(st->rs, t))
			break;
		int64_t k = line_finding(d, i);
		if (k == DX_NONE || d->novel[k].nlines != 1)
			break;
		best = k;
	}
	return best;
}

/* Whether template text t is a label that heads the explanation of a
 * report, and nothing else: "Description:" (Spring Boot's failure
 * analysis), "Reason:", "Cause:", "* What went wrong:" (Gradle), with
 * blanks, '*' or '-' before it. */
static int is_cause_label(const char *t)
{
	static const char *const label[] = { "description", "reason", "cause", "problem", "what went wrong",
					     "error", "details" };
	t += strspn(t, " \t*-");
	for (size_t k = 0; k < sizeof(label) / sizeof(label[0]); k++) {
		size_t n = strlen(label[k]);
		if (strncasecmp(t, label[k], n) == 0 && t[n] == ':' && t[n + 1 + strspn(t + n + 1, " \t")] == '\0')
			return 1;
	}
	return 0;
}

/* A report that puts its explanation under a label (is_cause_label)
 * says why there: Spring Boot's "APPLICATION FAILED TO START" banner
 * after "Error starting ApplicationContext. ...", then "Description:"
 * and, below it, "Parameter 1 of method ... required a bean of type
 * ... that could not be found."  The cause is the first line after the
 * first such label within REPORT_LINES after the crash's line that is
 * no blank, when it starts a finding; lines that follow the good run
 * again end the report.  No traceback: its exception says why. */
#define REPORT_LINES 16
static int64_t labelled_cause(const struct dx_state *st, const struct diagnosis *d, int64_t crash)
{
	const struct dx_novel *cr = &d->novel[crash];
	const uint32_t *id = st->id[st->bad];
	int64_t n = (int64_t)st->logs[st->bad].nlines;
	if (cr->traceback)
		return crash;
	for (int64_t i = cr->summary + 1; i < n && i <= cr->summary + REPORT_LINES && !st->w->follow[i]; i++) {
		if (!is_cause_label(st->ctext[id[i]]))
			continue;
		int64_t j = i + 1;
		while (j < n && is_blank(st->ctext[id[j]]))
			j++;
		int64_t k = j < n ? line_finding(d, j) : DX_NONE;
		return k != DX_NONE ? k : crash;
	}
	return crash;
}

/* A line that introduces a traceback says what the program was doing,
 * or repeats what failed, in its own words: spaCy's "Encountered
 * exception:" and "KeyError(...)", multiprocess's "RemoteTraceback:",
 * "Exception in ASGI application".  The traceback's exception, the last
 * of its chain, says why.  When the crash is such a line, a traceback
 * that starts within TRACE_LEAD lines after it, none of the lines
 * between following the good run, is the cause. */
#define TRACE_LEAD 4
static int64_t traced_cause(const struct dx_state *st, const struct diagnosis *d, int64_t crash)
{
	const struct dx_novel *cr = &d->novel[crash];
	if (cr->traceback)
		return crash;
	int64_t best = crash;
	for (size_t k = 0; k < d->nnovel; k++) {
		const struct dx_novel *nv = &d->novel[k];
		if (nv->traceback && nv->line > cr->line && nv->line <= cr->line + TRACE_LEAD &&
		    (best == crash || nv->line < d->novel[best].line))
			best = (int64_t)k;
	}
	for (int64_t i = cr->line + 1; best != crash && i < d->novel[best].line; i++)
		if (st->w->follow[i])
			return crash;
	return best;
}

/* The crash's cause: the traceback its line introduces (traced_cause);
 * then the line its error quotes (quoted_cause), else the
 * explanation its report labels (labelled_cause), else the
 * last line of its burst (burst_cause) -- or, when that says no word,
 * the line of its record that does (record_cause), and when it counts
 * failures, the first it counted (tally_cause).  Never a warning before it, however near and whatever
 * it shares with it: a warning says what might go wrong, the error what
 * did ("LMDeploy requires transformers version ..., but found ..."
 * before "ValueError: ... Transformers does not recognize this
 * architecture"); the warning stays among the new lines. */
static int64_t choose_cause(const struct dx_state *st, const struct diagnosis *d, const size_t *fbefore,
			    int64_t crash)
{
	crash = traced_cause(st, d, crash);
	int64_t quoted = quoted_cause(st, d, fbefore, crash);
	if (quoted != crash)
		return quoted;
	int64_t labelled = labelled_cause(st, d, crash);
	if (labelled != crash)
		return labelled;
	crash = burst_cause(st, d, crash);
	int64_t record = record_cause(st, d, crash);
	return record != crash ? record : tally_cause(st, d, crash);
}

/* Whether a crash candidate only names a failure that a line of the
 * program's own may say better: a line read as an error from its words
 * alone (logged at info: compose's "Creating wordpress ... error" before
 * its "ERROR: for wordpress  Cannot create container ..."), or one that
 * states an exit status (the process ended; why it did is said above it,
 * if anywhere).  Such a line is the crash only when no other is. */
static int names_failure_only(const struct dx_state *st, const struct dx_novel *nv)
{
	return nv->severity != DX_ERROR || mask_exit_status(st->ctext[st->id[st->bad][nv->summary]]) > 0;
}

void pass_crash(struct dx_state *st, struct diagnosis *d)
{
	struct crash_lines cl;
	crash_lines_init(&cl, st, d);
	d->crash = DX_NONE;
	int64_t said = DX_NONE, symptom = DX_NONE;
	for (size_t k = 0; k < d->nnovel; k++) {
		const struct dx_novel *nv = &d->novel[k];
		if (!crash_candidate(st, d, nv, &cl))
			continue;
		int64_t *to = peer_loss_symptom(st, nv, &cl) ? &symptom : names_failure_only(st, nv) ? &said : &d->crash;
		if (*to == DX_NONE || nv->line < d->novel[*to].line)
			*to = (int64_t)k;
	}
	if (d->crash == DX_NONE)
		d->crash = said;
	if (d->crash == DX_NONE)
		d->crash = symptom;
	if (d->crash != DX_NONE)
		d->crash = choose_cause(st, d, cl.fbefore, d->crash);
	crash_lines_free(&cl);
}

/* ---- where bad got ---- */

/* Whether the n bytes at t are a word of letters, four at least, and
 * the dots that may end it: "Resizing", "Loading...".  What a program
 * says it does, where markup and separators ("##[endgroup]", "}",
 * "-----", "OK") say nothing. */
static int is_word(const char *t, size_t n)
{
	size_t k = 0;
	while (k < n && ((t[k] >= 'a' && t[k] <= 'z') || (t[k] >= 'A' && t[k] <= 'Z')))
		k++;
	size_t letters = k;
	while (k < n && t[k] == '.')
		k++;
	return letters >= 4 && k == n;
}

/* Whether template c is a step of the good run worth naming as the one
 * it took next: a line a rule names is; else not a blank line, not one
 * bare word and no value unless it is a word (is_word: darknet's
 * "Resizing"; not markup that closes a group, nor a separator:
 * "##[endgroup]", "}", "-----"), not a health check or throughput report,
 * not a warning (printed on the way, incidental), and not a line that
 * recurs at a steady pace in bad too (which goes on whatever the run is
 * doing).  A recurring line bad never printed ("Grad overflow" every few
 * steps) is something bad never got to. */
static int is_step(const struct dx_state *st, uint32_t c)
{
	if (st->rule[c] >= 0)
		return 1;
	const char *t = st->ctext[c] + strspn(st->ctext[c], " \t");
	size_t n = strcspn(t, " \t");
	if (t[n + strspn(t + n, " \t")] == '\0' && !memchr(t, '<', n) && !is_word(t, n))
		return 0;
	if (classify_is_heartbeat(st->rs, t))
		return 0;
	if (st->sev[c] != DX_INFO || st->aside[c])
		return 0;
	return !st->hb[c] || !st->cnt[st->bad * st->nc + c];
}

/* A job that failed (a CI step's error) ends in the same cleanup as a
 * good one: it did not reach the good run's clean end.  One that says it
 * finished, and never that it failed, did, whatever steps it ran
 * (another job, or its tests' output quoting errors).  Where the good
 * run's end (last) is a done rule's: -1 when bad's last attempt says it
 * failed, 1 when it says it finished, else 0. */
static int job_said(const struct dx_state *st, const struct dx_milestone *last)
{
	int32_t r = st->rule[last->id];
	if (r < 0 || !st->rs->r[r].done)
		return 0;
	int finished = 0;
	for (size_t i = st->from; i < st->logs[st->bad].nlines; i++) {
		int32_t f = st->rule[st->id[st->bad][i]];
		if (f >= 0 && st->rs->r[f].fail)
			return -1;
		finished |= f == r;
	}
	return finished;
}

/* A server up before its work (Ollama listens, then loads each model on
 * demand) has not reached the good run's end when it then failed where
 * the good run went on through steps (the runner started, a model
 * ready), named or learned: the run died in a step after "up".  Whether
 * bad missed a step the good run took after last, and printed a new
 * error after it reached last after which it followed the good run no
 * further than before it: a server that went on through the good run's
 * steps after an error (a request's traceback, then more requests and
 * the same shutdown) did not die there. */
static int died_after_up(const struct dx_state *st, const struct diagnosis *d, const struct dx_milestone *last)
{
	const uint32_t *id = st->id[st->bad];
	size_t n = st->logs[st->bad].nlines;
	int missed = 0;
	for (size_t m = 0; m < d->nms && !missed; m++)
		missed = is_step(st, d->ms[m].id) && d->ms[m].good_line > last->good_line && d->ms[m].bad_line < 0;
	if (!missed)
		return 0;
	int64_t far = DX_NONE, error = DX_NONE;
	for (size_t i = 0; i < n; i++) {
		if (error == DX_NONE && (int64_t)i > last->bad_line && st->new_error[id[i]])
			error = (int64_t)i;
		if (!st->w->follow[i])
			continue;
		if ((int64_t)st->w->b2g[i] > far) {
			far = st->w->b2g[i];
			error = DX_NONE; /* it went on past where it was */
		}
	}
	return error != DX_NONE;
}

/* Bad's last line that follows a step the good run took only before
 * good line end (is_step; a template good never printed from end on):
 * a step that leads to the end.  DX_NONE when bad printed none. */
static int64_t last_step_before(const struct dx_state *st, const struct diagnosis *d, size_t end)
{
	const uint32_t *gid = st->id[d->good];
	uint8_t *later = xcalloc(st->nc ? st->nc : 1, 1);
	for (size_t j = end; j < d->good_log->nlines; j++)
		later[gid[j]] = 1;
	int64_t back = DX_NONE;
	for (size_t i = st->from; i < st->logs[st->bad].nlines; i++) {
		if (!st->w->follow[i] || st->w->b2g[i] >= end)
			continue;
		uint32_t c = gid[st->w->b2g[i]];
		if (!later[c] && is_step(st, c))
			back = (int64_t)i;
	}
	free(later);
	return back;
}

/* Bad reached the good run's end last where the good run printed it
 * last: a step printed all along (every rank, every epoch) is not
 * reached by its first.  In a good log of several runs (a server started
 * twice), where it printed it last in its first run: the next start
 * banner ends that.  And it reached it after the steps that lead there,
 * as far as bad took them (last_step_before): a line like the end that
 * comes before bad's own "Starting agent..." is no end the run got to
 * (a supervisor's "Started Nomad." as it launched the process). */
static int reached_last_print(const struct dx_state *st, const struct diagnosis *d, const struct dx_milestone *last)
{
	const struct log *good = d->good_log;
	const uint32_t *gid = st->id[d->good];
	size_t lastline = (size_t)last->good_line;
	int64_t b = start_banner(st, d->good);
	uint32_t banner = b >= 0 ? gid[b] : UINT32_MAX;
	for (size_t j = lastline; j < good->nlines && gid[j] != banner; j++)
		if (gid[j] == last->id)
			lastline = j;
	int64_t back = last_step_before(st, d, (size_t)last->good_line);
	for (size_t i = (size_t)(back + 1); i < st->logs[st->bad].nlines; i++)
		if (st->w->follow[i] && st->w->b2g[i] >= lastline)
			return 1;
	return 0;
}

/* Whether template c is part of what every good run prints, as a step:
 * each good log printed it; it is no progress display (shows_progress),
 * no blank line, no warning or error (incidental), and no request a
 * server answered (which comes when its clients do: a server up and idle
 * has printed all it prints of its own). */
static int stable_step(const struct dx_state *st, uint32_t c)
{
	const char *t = st->ctext[c];
	if (shows_progress(st, c) || is_blank(t) || st->sev[c] != DX_INFO || classify_is_request(t))
		return 0;
	for (size_t g = 0; g < st->ngood; g++)
		if (!st->cnt[g * st->nc + c])
			return 0;
	return 1;
}

/* A run whose end no final rule names (a learned end, or a step a rule
 * names) ends before the good run's end when, after the furthest line
 * bad's last attempt followed, the good run prints a step every good run
 * prints (stable_step, on a line that continues no other) that bad never
 * printed after that line: whatever milestone was learned last, bad's
 * log ended before the stable part did.  A loop's line counts too: a run
 * that crashed in the second round of a loop the good run went round 300
 * times printed the loop's lines, but not after where it got. */
static int ends_before_stable_part(const struct dx_state *st, const struct diagnosis *d)
{
	const struct log *bad = &st->logs[st->bad];
	int64_t far = -1, at = -1;
	for (size_t i = st->from; i < bad->nlines; i++)
		if (st->w->follow[i] && (int64_t)st->w->b2g[i] > far)
			far = st->w->b2g[i], at = (int64_t)i;
	uint8_t *after = xcalloc(st->nc ? st->nc : 1, 1);
	for (size_t i = (size_t)(at + 1); i < bad->nlines; i++)
		after[st->id[st->bad][i]] = 1;
	int before = 0;
	for (size_t j = (size_t)(far + 1); j < d->good_log->nlines && !before; j++) {
		uint32_t c = st->id[d->good][j];
		before = stable_step(st, c) && !line_continues(st, d->good, j) && !after[c];
	}
	free(after);
	return before;
}

/* Has bad reached the end of the good run (good_end): its final rule
 * milestone, or else its last learned one, as far as the good run
 * printed it?  A job's own word decides first (job_said); a server that
 * died after up did not (died_after_up); an end that no final rule names
 * (learned, or a step a rule names: "Starting training ...") is not
 * reached before the stable part ends (ends_before_stable_part); else bad
 * followed the good run to where it printed its end last
 * (reached_last_print).  Good runs that all printed nothing end where
 * they begin, so a run that printed nothing too has reached their end:
 * an empty log beside empty good runs is no evidence of a stop. */
static int reached_good_end(const struct dx_state *st, const struct diagnosis *d)
{
	size_t printed = st->logs[st->bad].nlines;
	for (size_t g = 0; g < st->ngood; g++)
		printed += st->logs[g].nlines;
	if (!printed)
		return 1;
	const struct dx_milestone *last = good_end(st, d);
	if (!last)
		return 0;
	int job = job_said(st, last);
	if (job)
		return job > 0;
	if (last->bad_line < 0 || died_after_up(st, d, last))
		return 0;
	if (!last->final && ends_before_stable_part(st, d))
		return 0;
	return reached_last_print(st, d, last);
}

/* Bad's last line before limit that follows the good run.  A blank line
 * says nothing of where bad got: the line before it does ("after \"\""
 * would be no answer).  A drawn rule (is_drawn) says where bad got only
 * when the written line above it follows too: it closes a section bad
 * printed as the good run did (a launcher's banner), while one drawn
 * around a section of bad's own matches the good run's rules by their
 * shape alone.  DX_NONE when none follows. */
static int64_t last_following(const struct dx_state *st, int64_t limit)
{
	int64_t at = DX_NONE;
	int above = 0;   /* the written line above follows */
	for (int64_t i = 0; i < limit; i++) {
		const char *t = st->ctext[st->id[st->bad][i]];
		int blank = is_blank(t), drawn = !blank && is_drawn(t);
		if (st->w->follow[i] && (at == DX_NONE || (!blank && (!drawn || above))))
			at = i;
		if (!blank && !drawn)
			above = st->w->follow[i];
	}
	return at;
}

/* Where bad got: its last following line *at, unless another stream's
 * last following line is further on in the good run and got there step
 * by step (TGI's shard-manager waits for the shard in the good run's
 * wait step, then the launcher prints a warning the good run printed
 * before it waited).  Further means a step *at's stream did not take:
 * two ranks that both finished a step are as far, whichever the good
 * run printed first.  Lines from limit on do not count. */
static void further_stream(const struct dx_state *st, const struct following *w, int64_t limit,
			   int64_t *at)
{
	if (*at < 0)
		return;
	int64_t *lastf = xmalloc(st->nstreams * sizeof(*lastf));
	uint8_t *took = xcalloc(st->nc ? st->nc : 1, 1);
	const uint32_t *id = st->id[st->bad];
	uint16_t home = st->stream[st->bad][*at];
	for (size_t s = 0; s < st->nstreams; s++)
		lastf[s] = DX_NONE;
	for (int64_t i = 0; i < limit; i++) {
		if (!w->follow[i])
			continue;
		lastf[st->stream[st->bad][i]] = i;
		if (st->stream[st->bad][i] == home)
			took[id[i]] = 1;
	}
	int64_t best = *at;
	for (size_t s = 0; s < st->nstreams; s++)
		if (lastf[s] >= 0 && w->steady[lastf[s]] && w->b2g[lastf[s]] > w->b2g[best] && !took[id[lastf[s]]])
			best = lastf[s];
	*at = best;
	free(took);
	free(lastf);
}

/* A progress bar drawn after the crash is its loop's state as the
 * process exited (tqdm closes its bars then): where such a frame
 * follows the good run further than *at, the run got that far before it
 * crashed.  A frame follows only where it counts no further than the
 * good run's (bar_ahead, diagnose_follow.c). */
static void bar_at_exit(const struct dx_state *st, int64_t limit, int64_t *at)
{
	const struct following *w = st->w;
	for (int64_t i = limit; i < (int64_t)st->logs[st->bad].nlines; i++)
		if (w->follow[i] && st->is_bar[st->id[st->bad][i]] && (*at < 0 || w->b2g[i] > w->b2g[*at]))
			*at = i;
}

/* The good line bad's line d->bad_line follows, and how far into the
 * good run that is. */
static void set_good_line(const struct dx_state *st, struct diagnosis *d)
{
	d->good_line = d->bad_line >= 0 ? (int64_t)st->w->b2g[d->bad_line] : DX_NONE;
	d->bad_by_bar = d->good_by_bar = 0;
	if (d->good_line >= 0) {
		d->bad_by_bar = st->w->by_bar[d->bad_line];
		uint32_t c = d->bad_by_bar ? st->bar[st->bad][d->bad_line] : st->id[st->bad][d->bad_line];
		const uint32_t *gbar = st->bar[d->good];
		d->good_by_bar = st->id[d->good][d->good_line] != c && gbar && gbar[d->good_line] == c;
	}
	size_t ng = d->good_log->nlines;
	d->good_fraction = d->good_line >= 0 && ng ? (double)(d->good_line + 1) / (double)ng : 0.0;
}

void pass_reach(struct dx_state *st, struct diagnosis *d)
{
	st->done = reached_good_end(st, d);
	/* A crashed run got no further than its crash, but for the output it
	 * printed before it, flushed after it (flushed_after), and a bar it
	 * drew on the crash's first line before the crash (by_bar). */
	int64_t limit = (int64_t)st->logs[st->bad].nlines;
	if (d->crash != DX_NONE && !st->done && !flushed_after(st, &d->novel[d->crash])) {
		limit = d->novel[d->crash].line;
		limit += st->w->follow[limit] && st->w->by_bar[limit];
	}
	d->bad_line = last_following(st, limit);
	further_stream(st, st->w, limit, &d->bad_line);
	bar_at_exit(st, limit, &d->bad_line);
	d->end_line = d->bad_line;
	set_good_line(st, d);
}

/* ---- the verdict ---- */

/* A run that reached the good run's end is the same when nothing it
 * printed anew is a warning or an error, no value changed and no step
 * was slow; else different. */
static int clean_match(const struct diagnosis *d)
{
	if (d->nchanged || d->nslow)
		return 0;
	for (size_t k = 0; k < d->nnovel; k++)
		if (d->novel[k].severity >= DX_WARNING)
			return 0;
	return 1;
}

/* After the last following line: a few lines of its own (a SIGTERM
 * notice) still make a stop, more make another path.  How many lines no
 * good run printed there, heartbeats aside, and a line printed again
 * counted once: a run that prints one line over and over is stuck in
 * one place, not on a path of its own. */
static size_t own_lines_after(const struct dx_state *st, const struct diagnosis *d)
{
	const uint32_t *id = st->id[st->bad];
	uint8_t *seen = xcalloc(st->nc ? st->nc : 1, 1);
	size_t own = 0;
	for (size_t i = d->bad_line + 1; i < st->logs[st->bad].nlines; i++)
		if (!st->w->follow[i] && !st->hb[id[i]] && !seen[id[i]]) {
			seen[id[i]] = 1;
			own++;
		}
	free(seen);
	return own;
}

/* Or it was still retrying when the log ended: a retry notice after the
 * last following line, and no new error after it (but for its dump). */
static int still_retrying(const struct dx_state *st, const struct diagnosis *d)
{
	int64_t retry = DX_NONE;
	for (int64_t i = d->bad_line + 1; i < (int64_t)st->logs[st->bad].nlines; i++) {
		uint32_t c = st->id[st->bad][i];
		if (st->retry[c])
			retry = i;
		else if (st->new_error[c] && (retry == DX_NONE || i > retry + RETRY_DUMP))
			retry = DX_NONE;
	}
	return retry != DX_NONE;
}

/* Whether a kill notice at bad line k cut the run short where its
 * shutdown then followed the good run's: where bad's last line before k
 * that follows stands in the good run, the good run's next line is one
 * bad never printed and no kill notice of its own (a server served a
 * client, then was stopped).  A run killed where the good run was
 * killed was not cut short. */
static int cut_short(const struct dx_state *st, const struct diagnosis *d, int64_t k)
{
	int64_t b = last_following(st, k);
	size_t g = b >= 0 ? (size_t)st->w->b2g[b] + 1 : 0;
	if (b < 0 || g >= st->logs[d->good].nlines)
		return 0;
	uint32_t c = st->id[d->good][g];
	return !st->cnt[st->bad * st->nc + c] && !classify_is_killed(st->rs, st->ctext[c]);
}

/* A run that neither reached the good run's end nor crashed was
 * interrupted when it was ended from outside after it got there: a kill
 * notice (^C's KeyboardInterrupt, SIGTERM, SIGINT, an exit status of 130
 * or 143, a CI cancel: classify_is_killed) among what it printed after,
 * however many lines of its own it printed.  So was a run that reached
 * the end: a server up like the good runs, then stopped where they went
 * on (the notice is a finding, which no good run printed: a good run's
 * own ^C at its end is no news), or cut short before its shutdown
 * followed the good run's (cut_short).  The first such notice's finding,
 * else DX_NONE. */
static int64_t interrupted_at(const struct dx_state *st, const struct diagnosis *d)
{
	int64_t at = DX_NONE;
	for (size_t k = 0; k < d->nnovel; k++)
		if (classify_is_killed(st->rs, st->ctext[st->id[st->bad][d->novel[k].summary]]) &&
		    (says_after(st, d->novel[k].line, d->bad_line) || cut_short(st, d, d->novel[k].line)) &&
		    (at == DX_NONE || d->novel[k].line < d->novel[at].line))
			at = (int64_t)k;
	return at;
}

/* A run that ended on its own word before it got where the good runs
 * got: its last line, one no good run printed, says it exits
 * ("Exiting", "shutting down": st->stop), no kill made it
 * (interrupted_at), it printed at most a few lines of its own after
 * where it got (as stopped_or_diverged counts them: more are a way of
 * its own), and the good run took a step after that point which it never
 * reached (no error or warning: a good run that crashed sooner is no
 * measure).  Such a run is over, not stopped (which says it may be alive
 * still) and not silent: CRASHED, that line the cause.  The finding of
 * its template takes its last copy for its line: a run that exits after
 * each of its tries ended at the last.  The finding, else DX_NONE. */
static int64_t exited_early(const struct dx_state *st, struct diagnosis *d)
{
	const struct log *bad = &st->logs[st->bad];
	int64_t last = (int64_t)bad->nlines - 1;
	while (last > d->bad_line && is_blank(st->ctext[st->id[st->bad][last]]))
		last--;
	if (last <= d->bad_line || st->w->follow[last] || !st->stop[st->id[st->bad][last]])
		return DX_NONE;
	if (own_lines_after(st, d) >= 3)
		return DX_NONE;   /* it went a way of its own first */
	size_t m = 0;   /* a step the good run took after where bad got */
	while (m < d->nms && (d->ms[m].bad_line != DX_NONE || d->ms[m].good_line <= d->good_line ||
			      !is_step(st, d->ms[m].id) || st->sev[d->ms[m].id] >= DX_WARNING))
		m++;
	if (m == d->nms)
		return DX_NONE;
	for (size_t k = 0; k < d->nnovel; k++)
		if (st->id[st->bad][d->novel[k].line] == st->id[st->bad][last] && !d->novel[k].traceback) {
			d->novel[k].line = d->novel[k].summary = last;
			return (int64_t)k;
		}
	return DX_NONE;
}

/* Else it stopped (printed little of its own after where it got, was
 * still retrying, or its last words say it waits: d->waiting) or
 * went another way: diverged. */
static int stopped_or_diverged(const struct dx_state *st, const struct diagnosis *d)
{
	int stopped = own_lines_after(st, d) < 3 || still_retrying(st, d) || d->waiting.first != DX_NONE;
	return stopped ? DX_STOPPED : DX_DIVERGED;
}

/* Whether finding nv is an error that failed a step: no kill made it,
 * and the run did not retry it. */
static int failing_error(const struct dx_state *st, const struct crash_lines *cl, const struct dx_novel *nv)
{
	return nv->severity == DX_ERROR && !classify_is_killed(st->rs, st->ctext[st->id[st->bad][nv->summary]]) &&
	       !retried_error(st, cl, nv->line);
}

/* A run that reached the good run's end failed a step on the way when
 * it printed an error no good run printed (a test, a lint check, a
 * build step, a request) that it did not retry and that no kill made:
 * FAILED, never the same, with that error as its cause.  A job whose own
 * word says it finished, and never that it failed (job_said), is taken
 * at its word: its tests' output may quote errors.  A service that came
 * up after an error it printed on the way recovered from it: an error
 * before bad's line where it was up is a finding, never a failed step
 * (a download that fell back, an optional import).  The first such
 * error's finding, else DX_NONE. */
static int64_t failed_step(const struct dx_state *st, const struct diagnosis *d)
{
	const struct dx_milestone *last = good_end(st, d);
	if (last && job_said(st, last) > 0)
		return DX_NONE;
	int64_t up_at = d->up != DX_NONE ? d->ms[d->up].bad_line : DX_NONE;
	struct crash_lines cl;
	crash_lines_init(&cl, st, d);
	int64_t first = DX_NONE;
	for (size_t k = 0; k < d->nnovel; k++) {
		const struct dx_novel *nv = &d->novel[k];
		if (!failing_error(st, &cl, nv) || (up_at >= 0 && nv->line < up_at))
			continue;
		if (first == DX_NONE || nv->line < d->novel[first].line)
			first = (int64_t)k;
	}
	crash_lines_free(&cl);
	return first;
}

/* A job that failed step after step and went on, as a test suite whose
 * tests fail one by one: one stream printed the same new error
 * FAILED_STEPS times or more ("--- FAIL: TestX"), each time followed
 * by a step of the good run in that stream (the next test started as
 * the good run started it) before the error came again.  Its first
 * failure is the cause, whatever it ended with (go test's "FAIL pkg"
 * summary): FAILED -- unless it was then stopped from outside, for how
 * it ended (Ctrl-C, a cancel) is what the verdict says first.  Errors of
 * different kinds the run went on after are findings (an optional
 * import that failed, a fallback), and ranks that print one error each
 * are one failure; an error it retried or a kill is no failure of a
 * step.  The first failure's finding, else DX_NONE. */
#define FAILED_STEPS 2
static int64_t failed_step_after_step(const struct dx_state *st, const struct diagnosis *d)
{
	const struct log *bad = &st->logs[st->bad];
	const uint32_t *id = st->id[st->bad];
	const uint16_t *stream = st->stream[st->bad];
	struct crash_lines cl;
	crash_lines_init(&cl, st, d);
	int64_t first = DX_NONE, pending = DX_NONE;
	int failures = 0;
	for (size_t i = st->from; i < bad->nlines; i++) {
		uint32_t c = id[i];
		if (first != DX_NONE && stream[i] != stream[first])
			continue;
		if (st->new_error[c] && !classify_is_killed(st->rs, st->ctext[c]) &&
		    !retried_error(st, &cl, (int64_t)i)) {
			if (pending == DX_NONE && (first == DX_NONE || c == id[first]))
				pending = (int64_t)i;
		} else if (pending != DX_NONE && st->w->follow[i] && stream[i] == stream[pending] && st->step[c] &&
			   is_step(st, c)) {
			if (first == DX_NONE)
				first = pending;
			failures++;
			pending = DX_NONE;
		}
	}
	crash_lines_free(&cl);
	if (failures < FAILED_STEPS)
		return DX_NONE;
	int64_t at = DX_NONE;
	for (size_t k = 0; k < d->nnovel; k++) {
		const struct dx_novel *nv = &d->novel[k];
		if (nv->line <= first && first < nv->line + (int64_t)nv->nlines && nv->severity == DX_ERROR &&
		    (at == DX_NONE || nv->line > d->novel[at].line))
			at = (int64_t)k;
	}
	return at;
}

/* The first step of the good run that a run which failed a step and
 * went on skipped on the way to its end: a step of good d->good, before
 * the furthest line bad followed, whose template bad never printed where
 * it followed the good run.  Before its first failure, as many lines of
 * bad's own in the place of such steps are those steps reworded (the
 * project's name in Maven's header), as follows() has it for a jump;
 * from its failure on, what bad printed in a step's place is what the
 * failure made of it ("job killed ..." for "Successfully completed.").
 * Its good line, or DX_NONE. */
static int64_t first_skipped(const struct dx_state *st, const struct diagnosis *d)
{
	const struct following *w = st->w;
	const struct log *bad = &st->logs[st->bad];
	const uint32_t *gid = st->id[d->good], *bid = st->id[st->bad];
	uint8_t *printed = xcalloc(st->nc ? st->nc : 1, 1);
	for (size_t i = st->from; i < bad->nlines; i++)
		if (w->follow[i])
			printed[bid[i]] = 1;
	int64_t skip = DX_NONE, pg = -1;
	size_t own = 0;
	int failed = 0;
	for (size_t i = st->from; i < bad->nlines && skip == DX_NONE; i++) {
		if (!w->follow[i]) {
			failed |= st->new_error[bid[i]];
			own += !is_blank(st->ctext[bid[i]]);
			continue;
		}
		int64_t g = w->b2g[i];
		if (g <= pg)
			continue;
		int64_t first = DX_NONE;
		size_t steps = 0;
		for (int64_t j = pg + 1; j < g; j++)
			if (st->step[gid[j]] && is_step(st, gid[j]) && !printed[gid[j]]) {
				steps++;
				if (first == DX_NONE)
					first = j;
			}
		if (first != DX_NONE && (own < steps || failed))
			skip = first;
		pg = g;
		own = 0;
	}
	free(printed);
	return skip;
}

/* A run that failed a step and went on left the good run's path where
 * it failed and came back to it after: it diverged at the first step of
 * the good run it skipped on the way to its end (the good run's
 * "Successfully completed." where bad printed its failure, a model the
 * good run loaded where bad ran out of memory), or at its failure when
 * it skipped none (a failed test among passing ones).  Where it diverged
 * is bad's last line before that which follows the good run; the good
 * run's next step is then the one it skipped.  A step is skipped when
 * bad, following the good run past it, never printed its template (see
 * first_skipped).  The failure's own line may come before (a shell's
 * "Killed" written ahead of the batch system's report that says the job
 * did not complete). */
static void failed_departure(const struct dx_state *st, struct diagnosis *d)
{
	const struct following *w = st->w;
	const struct log *bad = &st->logs[st->bad];
	int64_t skip = first_skipped(st, d);
	int64_t limit = skip != DX_NONE ? (int64_t)bad->nlines : d->novel[d->crash].line, at = DX_NONE;
	for (int64_t i = st->from; i < limit; i++) {
		if (!w->follow[i])
			continue;
		if (skip != DX_NONE && (int64_t)w->b2g[i] > skip)
			break;
		if (at == DX_NONE || !is_blank(st->ctext[st->id[st->bad][i]]))
			at = i;
	}
	d->bad_line = at;
	set_good_line(st, d);
}

/* A run that went a way of its own at its end (stopped_or_diverged's
 * DIVERGED) after it printed a new error and then took WENT_ON more
 * milestones of the good run failed a step and went on, as a CI
 * pipeline runs its later stages after its tests failed: the error
 * says more than where it ended.  The error is one failed_step would
 * take (no kill, not retried); a run that stopped keeps STOPPED, as
 * its silence is the news, and so does one whose last words say it
 * waits (d->waiting): it did not end, it is stuck there.  The first
 * such error's finding, else DX_NONE. */
#define WENT_ON 3
static int64_t failed_and_went_on(const struct dx_state *st, const struct diagnosis *d)
{
	if (d->waiting.first != DX_NONE)
		return DX_NONE;
	struct crash_lines cl;
	crash_lines_init(&cl, st, d);
	int64_t first = DX_NONE;
	for (size_t k = 0; k < d->nnovel; k++) {
		const struct dx_novel *nv = &d->novel[k];
		if (!failing_error(st, &cl, nv) || (first != DX_NONE && nv->line >= d->novel[first].line))
			continue;
		size_t steps = 0;
		for (size_t m = 0; m < d->nms; m++)
			steps += d->ms[m].bad_line > nv->line && is_step(st, d->ms[m].id);
		if (steps >= WENT_ON)
			first = (int64_t)k;
	}
	crash_lines_free(&cl);
	return first;
}

/* Interrupted by finding at: a run cut short (cut_short) got no further
 * than its last following line before the notice, whatever of the good
 * run's shutdown it printed after. */
static void interrupted(const struct dx_state *st, struct diagnosis *d, int64_t at)
{
	d->verdict = DX_INTERRUPTED;
	d->crash = at;
	if (d->novel[at].line < d->bad_line) {
		d->bad_line = last_following(st, d->novel[at].line);
		set_good_line(st, d);
	}
}

void pass_verdict(struct dx_state *st, struct diagnosis *d)
{
	int64_t at;
	if (st->done && (at = failed_step(st, d)) != DX_NONE) {
		d->verdict = DX_FAILED;
		d->crash = at;
		failed_departure(st, d);
	} else if (st->done && (at = interrupted_at(st, d)) != DX_NONE) {
		interrupted(st, d, at);
	} else if (st->done) {
		d->verdict = clean_match(d) ? DX_SAME : DX_DIFFERENT;
	} else if ((at = failed_step_after_step(st, d)) != DX_NONE && interrupted_at(st, d) == DX_NONE) {
		d->verdict = DX_FAILED;
		d->crash = at;
		failed_departure(st, d);
	} else if (d->crash != DX_NONE) {
		d->verdict = DX_CRASHED;
	} else if ((at = interrupted_at(st, d)) != DX_NONE) {
		interrupted(st, d, at);
	} else if ((at = exited_early(st, d)) != DX_NONE) {
		d->verdict = DX_CRASHED;
		d->crash = at;
	} else if ((d->verdict = stopped_or_diverged(st, d)) == DX_DIVERGED &&
		   (at = failed_and_went_on(st, d)) != DX_NONE) {
		d->verdict = DX_FAILED;
		d->crash = at;
		failed_departure(st, d);
	}
}

/* ---- what came next ---- */

/* Whether indented template text t begins as a step the good run took
 * before its line from began: the same indentation and first character
 * (Flask's " * Running on ..." after its " * Serving Flask app ..." and
 * " * Debug mode: off").  Such a line is one of the run's own, not one
 * that goes with the line above it. */
static int shaped_like_a_step(const struct dx_state *st, const struct diagnosis *d, const char *t, size_t from)
{
	size_t n = strspn(t, " \t") + 1;
	for (size_t j = 0; j < from; j++) {
		uint32_t c = st->id[d->good][j];
		if (strncmp(st->ctext[c], t, n) == 0 && is_step(st, c))
			return 1;
	}
	return 0;
}

/* The step the good run took next after its line from: the first that
 * is one (is_step).  Until then, lines that are none say nothing of
 * what the good run did, nor do the indented lines that go with them
 * (line_continues: the source line Python prints under a warning), unless
 * they begin as the run's own steps did (shaped_like_a_step).  After a
 * blank line an indented one goes with nothing above: a test runner's
 * summary (" Test Files  86 passed") is a step of its own.  The good
 * log's line count for none. */
static size_t next_step(const struct dx_state *st, const struct diagnosis *d, size_t from)
{
	int skipped = 0;
	for (size_t j = from; j < d->good_log->nlines; j++) {
		uint32_t c = st->id[d->good][j];
		const char *t = st->ctext[c];
		int goes_with = skipped && line_continues(st, d->good, j) && !shaped_like_a_step(st, d, t, from);
		if (goes_with || !is_step(st, c)) {
			skipped = 1;
			continue;
		}
		return j;
	}
	return d->good_log->nlines;
}

/* What the good run did after the divergence: first the very step it
 * took next, then its milestone lines whose template bad never reached,
 * one per template.  The step taken next is often no milestone: the next
 * round of a loop bad was in ("Step at 9"), or a line the good run prints
 * more than once (a per-epoch evaluation, a config line of a kind it
 * prints several of); the first milestone after it may lie far beyond. */
void pass_next(struct dx_state *st, struct diagnosis *d)
{
	const struct log *good = d->good_log;
	uint8_t *seen = xcalloc(st->nc ? st->nc : 1, 1);
	for (size_t i = 0; i < st->logs[st->bad].nlines; i++)
		if (st->w->follow[i])
			seen[st->id[st->bad][i]] = 1;
	size_t cap = 0;
	size_t first = next_step(st, d, d->good_line >= 0 ? (size_t)d->good_line + 1 : 0);
	for (size_t j = first; j < good->nlines; j++) {
		uint32_t c = st->id[d->good][j];
		if (j > first && (!st->ms[c] || seen[c]))
			continue;
		seen[c] = 1;
		GROW(d->next, cap, d->nnext + 1);
		d->next[d->nnext++] = (int64_t)j;
	}
	free(seen);
}

/* ---- not overdue yet ---- */

/* A run is stopped only once its silence is beyond what the good runs
 * took in the step it is in: a log written (its mtime, or --now) less
 * than d->good_step_s ago is a run still in that step, whether a process
 * here holds it or another machine writes it (a log on shared storage).
 * A log nobody wrote for longer stays STOPPED; so does one whose silence
 * or step time is unknown (standard input, untimed logs): there is
 * nothing to hold it to. */
static int still_in_step(const struct diagnosis *d)
{
	return !isnan(d->silent_s) && !isnan(d->good_step_s) && d->silent_s < d->good_step_s;
}

/* ---- a hang that was ended ---- */

/* Whether text t says the run was ended from outside rather than that
 * it failed: a peer went away, it was killed (a kill notice), or it died
 * by a signal (SIGKILL, or a negative exit code as Python and torch
 * elastic report it).  A run's own timeout ("Watchdog caught collective
 * operation timeout") is its own verdict on the wait: a crash. */
static int ends_a_hang(const struct dx_state *st, const char *t)
{
	return classify_is_peer_loss(st->rs, t) || classify_is_killed(st->rs, t) || classify_is_signalled(st->rs, t);
}

/* How far hung_for looks for a line's time. */
#define HANG_NEAR 256

/* How long bad sat in its step before the hang ended: from its last line
 * that follows the good run to the first new error after it (a
 * traceback bears no time: the first time at or after it), or the
 * longest a peer waited in the collective (a watchdog's own count);
 * NAN when neither is known.  A run that follows no good run at all (of
 * another version) sat in its step from the line before the crash's
 * first: the silence the ending broke. */
static double hung_for(const struct dx_state *st, const struct diagnosis *d)
{
	const struct log *bad = &st->logs[st->bad];
	double hung = d->coll.waited_s;
	int64_t last = d->bad_line >= 0 ? d->bad_line : d->novel[d->crash].line - 1;
	if (last < 0)
		return hung;
	int64_t from = time_near(bad, last, -1, HANG_NEAR), to = TS_NONE;
	for (int64_t i = last + 1; i < (int64_t)bad->nlines && to == TS_NONE; i++)
		if (st->new_error[st->id[st->bad][i]])
			to = time_near(bad, i, 1, HANG_NEAR);
	if (from != TS_NONE && to != TS_NONE && to > from) {
		double gap = (double)(to - from) / 1000.0;
		if (isnan(hung) || gap > hung)
			hung = gap;
	}
	return hung;
}

/* A run that hung, then was ended, stopped where it hung: the crash was
 * no failure of a step but its end -- a lost peer, a kill (ends_a_hang),
 * or the run's own timeout after minutes (HANG_GAVE_UP_S) -- after the
 * run sat in its step longer than the good runs ever did there (their
 * step time or longest gap, and HANG_MIN_S at least).  STOPPED, with
 * that line as what ended it and d->hung_s how long it hung;
 * d->hang_gave_up when its own timeout ended it.  A timeout of seconds
 * (a test's 15 s collective timeout) is a failure of its step: a crash. */
#define HANG_MIN_S 20.0
#define HANG_GAVE_UP_S 120.0
void pass_hung(struct dx_state *st, struct diagnosis *d)
{
	d->hung_s = NAN;
	d->hang_gave_up = 0;
	if (d->verdict != DX_CRASHED || d->crash == DX_NONE)
		return;
	/* The ending's kind, in its template's words or its own: a quoted
	 * value the template masks (error="timed out waiting ...") can be
	 * what says it. */
	int64_t end = d->novel[d->crash].summary;
	const char *t = st->ctext[st->id[st->bad][end]];
	char *m = log_message(&st->logs[st->bad], (size_t)end);
	int ended = ends_a_hang(st, t) || ends_a_hang(st, m);
	int gave_up = !ended && (classify_is_timeout(st->rs, t) || classify_is_timeout(st->rs, m));
	free(m);
	if (!gave_up && !ended)
		return;
	double limit = gave_up ? HANG_GAVE_UP_S : HANG_MIN_S;
	if (!isnan(d->good_step_s) && d->good_step_s > limit)
		limit = d->good_step_s;
	if (!isnan(d->good_gap_s) && d->good_gap_s > limit)
		limit = d->good_gap_s;
	double hung = hung_for(st, d);
	if (isnan(hung) || hung <= limit)
		return;
	d->verdict = DX_STOPPED;
	d->hung_s = hung;
	d->hang_gave_up = gave_up;
}

void pass_running(struct diagnosis *d)
{
	if (d->crash != DX_NONE)
		return;   /* a line ended it */
	if (d->verdict == DX_STOPPED || d->verdict == DX_RUNNING)
		d->verdict = still_in_step(d) ? DX_RUNNING : DX_STOPPED;
}
