/* diagnose.c — differential diagnosis.  See diagnose.h.
 *
 * The steps, each over ids:
 *  1. diagnose_skeleton.c indexes the logs: canonical ids (clusters, then
 *     templates that never occur in the same log and share most words,
 *     "Load weight end. type=.." reworded as "Load weight end. elapsed=..,
 *     type=..", become one id), a stream per normalised rank/process tag
 *     (streams.c), and per template: in which logs, severity, traceback
 *     role, heartbeat (classify.c), rule, learned milestone (once per
 *     stream in every good log); and the attempts of a restart loop;
 *  2. diagnose_follow.c aligns bad with every good log, stream by stream, and
 *     keeps the matched lines that "follow" the good run: a match that
 *     jumps over good milestones bad never printed does not follow,
 *     unless bad printed about as many lines of its own there (a reworded
 *     or reordered stretch) and no new error among them.  This is what
 *     keeps a crashed run's shutdown lines, which match the good run's,
 *     from passing for progress;
 *  3. here: the good log with the most following lines is reported
 *     against: what is new, what changed (changes.c), the milestones,
 *     what comes next, what was slow, how long it has been silent, where
 *     each rank got (streams.c), and the verdict. */
#include "diagnose.h"
#include "diagnose_passes.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "align.h"
#include "changes.h"
#include "classify.h"
#include "culprit.h"
#include "streams.h"
#include "timeline.h"

/* Lines of a dump printed right after a retry notice that may still
 * be part of it ("Exception raised from ...", the first frame). */
#define RETRY_DUMP 3

const char *dx_verdict_name(int v)
{
	static const char *const names[] = { "same", "different", "stopped", "crashed", "diverged" };
	return v >= 0 && v <= DX_DIVERGED ? names[v] : "?";
}

const char *dx_severity_name(int s)
{
	static const char *const names[] = { "info", "warning", "error" };
	return s >= 0 && s <= DX_ERROR ? names[s] : "?";
}

/* Whether text t is empty but for blanks. */
static int blank(const char *t)
{
	return is_blank(t);
}

/* Whether template c is a step of the good run worth naming as the one
 * it took next: a line a rule names is; else not a blank line, not one
 * bare word and no value (markup that closes a group, a separator:
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
	if (t[n + strspn(t + n, " \t")] == '\0' && !memchr(t, '<', n))
		return 0;
	if (classify_is_heartbeat(t))
		return 0;
	if (st->sev[c] != DX_INFO)
		return 0;
	return !st->hb[c] || !st->cnt[st->bad * st->nc + c];
}

/* What the good run did after the divergence: first the very step it
 * took next, then its milestone lines whose template bad never reached,
 * one per template.  The step taken next is often no milestone: the next
 * round of a loop bad was in ("Step at 9"), or a line the good run prints
 * more than once (a per-epoch evaluation, a config line of a kind it
 * prints several of); the first milestone after it may lie far beyond. */
static void find_next(struct dx_state *st, struct diagnosis *d, const struct following *w)
{
	const struct log *good = &st->logs[d->good];
	uint8_t *seen = xcalloc(st->nc ? st->nc : 1, 1);
	for (size_t i = 0; i < st->logs[st->bad].nlines; i++)
		if (w->follow[i])
			seen[st->id[st->bad][i]] = 1;
	size_t cap = 0;
	/* Until the step taken next, lines that are none say nothing of what
	 * the good run did, nor do the indented lines that go with them (the
	 * source line Python prints under a warning). */
	int took = 0, skipped = 0;
	for (size_t j = d->good_line >= 0 ? (size_t)d->good_line + 1 : 0; j < good->nlines; j++) {
		uint32_t c = st->id[d->good][j];
		if (!took) {
			const char *t = st->ctext[c];
			if ((skipped && (t[0] == ' ' || t[0] == '\t')) || !is_step(st, c)) {
				skipped = 1;
				continue;
			}
			took = 1;
			seen[c] = 1;
			GROW(d->next, cap, d->nnext + 1);
			d->next[d->nnext++] = (int64_t)j;
			continue;
		}
		if (!st->ms[c] || seen[c])
			continue;
		seen[c] = 1;
		GROW(d->next, cap, d->nnext + 1);
		d->next[d->nnext++] = (int64_t)j;
	}
	free(seen);
}

/* ---- the verdict ---- */

/* Has bad reached the end of the good run: its final rule milestone, or
 * else its last learned one, as far as the good run printed it? */
static int reached_good_end(const struct dx_state *st, const struct diagnosis *d, const struct following *w)
{
	const struct dx_milestone *last = dx_final_milestone(d);
	if (!last)
		return 0;
	/* A job that failed (a CI step's error) ends in the same cleanup as
	 * a good one: it did not reach the good run's clean end.  One that
	 * says it finished, and never that it failed, did, whatever steps it
	 * ran (another job, or its tests' output quoting errors). */
	int32_t r = st->rule[last->id];
	if (r >= 0 && st->rs->r[r].done) {
		int finished = 0;
		for (size_t i = st->from; i < st->logs[st->bad].nlines; i++) {
			int32_t f = st->rule[st->id[st->bad][i]];
			if (f >= 0 && st->rs->r[f].fail)
				return 0;
			finished |= f == r;
		}
		if (finished)
			return 1;
	}
	if (last->bad_line < 0)
		return 0;
	/* A server up before its work (Ollama listens, then loads each model
	 * on demand) has not reached the good run's end when it then failed
	 * where the good run went on through steps (the runner started, a
	 * model ready), named or learned: the run died in a step after "up". */
	for (size_t m = 0; m < d->nms; m++) {
		if (!is_step(st, d->ms[m].id) || d->ms[m].good_line <= last->good_line || d->ms[m].bad_line >= 0)
			continue;
		for (int64_t i = last->bad_line + 1; i < (int64_t)st->logs[st->bad].nlines; i++)
			if (st->new_error[st->id[st->bad][i]])
				return 0;
		break;
	}
	/* Reached where the good run printed it last: a step printed all
	 * along (every rank, every epoch) is not reached by its first.  In
	 * a good log of several runs (a server started twice), where it
	 * printed it last in its first run: the next start banner ends that. */
	const struct log *good = d->good_log;
	size_t lastline = (size_t)last->good_line;
	int64_t b = start_banner(st, d->good);
	uint32_t banner = b >= 0 ? st->id[d->good][b] : UINT32_MAX;
	for (size_t j = lastline; j < good->nlines && st->id[d->good][j] != banner; j++)
		if (st->id[d->good][j] == last->id)
			lastline = j;
	for (size_t i = 0; i < st->logs[st->bad].nlines; i++)
		if (w->follow[i] && w->b2g[i] >= lastline)
			return 1;
	return 0;
}

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

/* A wrapper error often repeats the message of the line that started it:
 * NCCL's "Last error:\n Bootstrap : no socket interface found" after its
 * "NCCL WARN Bootstrap : no socket interface found", llama.cpp's "what():
 * <why>" after "llama_model_load: error loading model: <why>" logged
 * without a level.  Returns the earliest novel line, of any level, quoted
 * by the crash (novel[crash]) or by an error before it that the run did
 * not survive, else crash.  A verbatim quote ties the two however far
 * apart they are (a warning may come long before the error that gives up
 * on it). */
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
		/* The error's lines and the message lines printed after it. */
		int64_t end = ev->line + ev->nlines + 8;
		if (!ev->traceback)
			end = ev->line + 1;
		for (int64_t q = ev->line; q < end && q < (int64_t)bad->nlines; q++) {
			int r = st->tb[id[q]];
			if (r != CLASSIFY_TB_NO && r != CLASSIFY_TB_EXC)
				continue;
			/* An exception line quotes with its message. */
			const char *quote = st->ctext[id[q]];
			if (r == CLASSIFY_TB_EXC && strstr(quote, ": "))
				quote = strstr(quote, ": ") + 2;
			for (size_t c = 0; c < d->nnovel; c++) {
				const struct dx_novel *cv = &d->novel[c];
				/* Another line of the same template (a second
				 * rank's copy of the message) repeats it, not
				 * quotes it. */
				if (cv->traceback || cv->line >= ev->line || cv->line >= d->novel[best].line ||
				    id[cv->line] == id[q] || !ends_with_quote(st->ctext[id[cv->line]], quote))
					continue;
				best = (int64_t)c;
			}
		}
	}
	return best;
}

/* Whether texts a and b share a word of five letters or more other than
 * a severity ("error", "warning"): what a warning and an error say of one
 * event ("Client session timed out" ... "Timed out waiting for
 * connection"). */
static int share_word(const char *a, const char *b)
{
	static const char *const sev[] = { "error", "errors", "warning", "fatal", "exception", "failed", NULL };
	for (const char *p = a; *p;) {
		if (!isalpha((unsigned char)*p)) {
			p++;
			continue;
		}
		const char *e = p;
		while (isalpha((unsigned char)*e))
			e++;
		size_t n = (size_t)(e - p);
		int skip = n < 5;
		for (size_t k = 0; sev[k] && !skip; k++)
			skip = strlen(sev[k]) == n && strncasecmp(p, sev[k], n) == 0;
		for (const char *q = b; *q && !skip; q++)
			if (strncasecmp(q, p, n) == 0 && (q == b || !isalpha((unsigned char)q[-1])) &&
			    !isalpha((unsigned char)q[n]))
				return 1;
		p = e;
	}
	return 0;
}

/* Lines a warning may come before the crash and still be its cause. */
#define CAUSE_WINDOW 10
/* ... and how long before it, when lines the good runs print lie between. */
#define CAUSE_MS 1000

/* A warning no good run printed, right before the crash in its stream,
 * and speaking of what the crash reports (share_word), is where the
 * failure began: Kafka's "WARN Client session timed out" before its
 * "Fatal error during KafkaServer startup" and "ZooKeeperClientTimeout-
 * Exception: Timed out waiting for connection".  Right before: at
 * most CAUSE_WINDOW lines earlier, and nothing between but lines of bad's
 * own, or else within CAUSE_MS of the crash (its client's "Closing."
 * lines, which the good run prints at its end, come in the same moment).
 * Deprecation notices say nothing of a failure, and a launcher's
 * "Sending process 7 closing signal SIGTERM" follows it.  A crash whose
 * exception chain names its own root ("Caused by:", "The above exception
 * was the direct cause ...") needs no guess.  Returns that warning's
 * finding, else crash. */
static int64_t warned_cause(const struct dx_state *st, const struct diagnosis *d, int64_t crash)
{
	const uint32_t *id = st->id[st->bad];
	const uint16_t *stream = st->stream[st->bad];
	const int64_t *ts = st->logs[st->bad].ts;
	int64_t at = d->novel[crash].line;
	for (int64_t i = at; i < at + d->novel[crash].nlines && d->novel[crash].traceback; i++)
		if (st->tb[id[i]] == CLASSIFY_TB_CAUSE || st->tb[id[i]] == CLASSIFY_TB_CHAIN)
			return crash;
	int n = 0, own = 1;
	for (int64_t i = at - 1; i >= 0 && n < CAUSE_WINDOW; i--) {
		uint32_t c = id[i];
		if (stream[i] != stream[at] || blank(st->ctext[c]))
			continue;
		n++;
		own &= is_novel_template(st, c);
		if (!own && (ts[i] == TS_NONE || ts[at] == TS_NONE || ts[at] - ts[i] > CAUSE_MS))
			break;
		if (st->sev[c] != DX_WARNING || !is_novel_template(st, c) || classify_is_killed(st->ctext[c]) ||
		    strstr(st->ctext[c], "deprecat") || strstr(st->ctext[c], "Deprecat") ||
		    !(share_word(st->ctext[c], st->ctext[id[at]]) ||
		      share_word(st->ctext[c], st->ctext[id[d->novel[crash].summary]])))
			continue;
		for (size_t k = 0; k < d->nnovel; k++)
			if (!d->novel[k].traceback && id[d->novel[k].line] == c)
				return (int64_t)k;
	}
	return crash;
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
	for (int64_t i = 0; i < limit; i++)
		if (w->follow[i]) {
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

static void decide_verdict(struct dx_state *st, struct diagnosis *d, const struct following *w)
{
	const struct log *bad = &st->logs[st->bad];
	/* The crash: the first new error after which its rank never followed
	 * the good run again. */
	int64_t *lastf = xmalloc(st->nstreams * sizeof(*lastf));
	for (size_t s = 0; s < st->nstreams; s++)
		lastf[s] = DX_NONE;
	for (size_t i = 0; i < bad->nlines; i++)
		if (w->follow[i])
			lastf[st->stream[st->bad][i]] = (int64_t)i;
	/* fbefore[i]: following lines before line i. */
	size_t *fbefore = xmalloc((bad->nlines + 1) * sizeof(*fbefore));
	fbefore[0] = 0;
	for (size_t i = 0; i < bad->nlines; i++)
		fbefore[i + 1] = fbefore[i] + w->follow[i];
	/* A run killed from outside (a timeout's SIGTERM, ^C) after it
	 * stopped following the good run says so before anything else fails:
	 * the errors after that notice (the launcher's SignalException) are
	 * the kill's, not a crash.  A kill notice after a new error (the
	 * launcher stopping the other workers once one died) is no such. */
	int64_t killed = (int64_t)bad->nlines, failed = (int64_t)bad->nlines;
	for (size_t k = 0; k < d->nnovel; k++) {
		const struct dx_novel *nv = &d->novel[k];
		if (nv->line <= w->last)
			continue;
		if (classify_is_killed(st->ctext[st->id[st->bad][nv->summary]]))
			killed = nv->line < killed ? nv->line : killed;
		else if (nv->severity == DX_ERROR && nv->line < failed)
			failed = nv->line;
	}
	if (failed < killed)
		killed = (int64_t)bad->nlines;
	/* An error its stream later says it retries ("failed to connect -
	 * retrying"), like the dump printed just after such a notice, did not
	 * end the run: a log that ends there is waiting, not crashed.
	 * retry_after[i]: the first retry notice at or after line i. */
	int64_t *retry_after = xmalloc((bad->nlines ? bad->nlines : 1) * sizeof(*retry_after));
	for (int64_t i = (int64_t)bad->nlines, r = -1; i-- > 0;) {
		if (st->retry[st->id[st->bad][i]])
			r = i;
		retry_after[i] = r;
	}
	d->crash = DX_NONE;
	int64_t symptom = DX_NONE;
	uint16_t *says = message_streams(st);
	int64_t *lost = xmalloc(st->nstreams * sizeof(*lost));
	for (size_t s = 0; s < st->nstreams; s++)
		lost[s] = DX_NONE;
	/* By line: one finding holds every rank's copy of a message. */
	for (size_t i = bad->nlines; i-- > 0;) {
		uint32_t c = st->id[st->bad][i];
		if (st->new_error[c] && classify_is_peer_loss(st->ctext[c]) && !survived(fbefore, bad->nlines, (int64_t)i))
			lost[says[i]] = (int64_t)i;
	}
	for (size_t k = 0; k < d->nnovel; k++) {
		const struct dx_novel *nv = &d->novel[k];
		const char *sum = st->ctext[st->id[st->bad][nv->summary]];
		if (nv->severity != DX_ERROR || nv->line > killed || classify_is_killed(sum))
			continue;
		int64_t r = retry_after[nv->line >= RETRY_DUMP ? nv->line - RETRY_DUMP : 0];
		if (r >= 0 && st->stream[st->bad][r] == st->stream[st->bad][nv->line])
			continue;
		if (lastf[st->stream[st->bad][nv->line]] > nv->line || survived(fbefore, bad->nlines, nv->line))
			continue;
		/* A member that lost its peer reports the death of another:
		 * the crash is where that one died, when the log says so.
		 * What it reports after (the rest of that message, the
		 * watchdog's abort) follows from the loss too. */
		int64_t loss = lost[says[nv->line]];
		int64_t *to = classify_is_peer_loss(sum) || (loss != DX_NONE && loss <= nv->line) ? &symptom : &d->crash;
		if (*to == DX_NONE || nv->line < d->novel[*to].line)
			*to = (int64_t)k;
	}
	free(says);
	free(lost);
	if (d->crash == DX_NONE)
		d->crash = symptom;
	if (d->crash != DX_NONE) {
		int64_t quoted = quoted_cause(st, d, fbefore, d->crash);
		d->crash = quoted != d->crash ? quoted : warned_cause(st, d, d->crash);
	}
	free(lastf);
	free(fbefore);
	free(retry_after);
	int done = reached_good_end(st, d, w);
	int64_t limit = d->crash != DX_NONE && !done ? d->novel[d->crash].line : (int64_t)bad->nlines;
	/* A blank line says nothing of where bad got: the line before it
	 * does ("after \"\"" would be no answer). */
	d->bad_line = DX_NONE;
	for (int64_t i = 0; i < limit; i++)
		if (w->follow[i] && (d->bad_line == DX_NONE || !blank(st->ctext[st->id[st->bad][i]])))
			d->bad_line = i;
	further_stream(st, w, limit, &d->bad_line);
	d->good_line = d->bad_line >= 0 ? (int64_t)w->b2g[d->bad_line] : DX_NONE;
	size_t ng = d->good_log->nlines;
	d->good_fraction = d->good_line >= 0 && ng ? (double)(d->good_line + 1) / (double)ng : 0.0;
	if (done) {
		int clean = d->nchanged == 0 && d->nslow == 0;
		for (size_t k = 0; k < d->nnovel && clean; k++)
			if (d->novel[k].severity >= DX_WARNING)
				clean = 0;
		d->verdict = clean ? DX_SAME : DX_DIFFERENT;
	} else if (d->crash != DX_NONE) {
		d->verdict = DX_CRASHED;
	} else {
		/* After the last following line: a few lines of its own (a
		 * SIGTERM notice) still make a stop, more make another path. */
		size_t own = 0;
		for (size_t i = d->bad_line + 1; i < bad->nlines; i++)
			if (!w->follow[i] && !st->hb[st->id[st->bad][i]])
				own++;
		int stopped = own < 3;
		/* Or it was still retrying when the log ended. */
		int64_t retry = DX_NONE;
		for (int64_t i = d->bad_line + 1; i < (int64_t)bad->nlines; i++) {
			uint32_t c = st->id[st->bad][i];
			if (st->retry[c])
				retry = i;
			else if (st->new_error[c] && (retry == DX_NONE || i > retry + RETRY_DUMP))
				retry = DX_NONE;
		}
		if (retry != DX_NONE)
			stopped = 1;
		for (size_t k = 0; k < d->nnovel; k++)
			if (d->novel[k].line > d->bad_line && classify_is_killed(st->ctext[st->id[st->bad][d->novel[k].summary]]))
				stopped = 1;
		d->verdict = stopped ? DX_STOPPED : DX_DIVERGED;
	}
}

void diagnose(struct log *logs, size_t nlogs, struct tmpl_table *tt,
	      const struct ruleset *rs, const struct dx_options *opt,
	      struct diagnosis *d)
{
	memset(d, 0, sizeof(*d));
	struct dx_state *st = xmalloc(sizeof(*st));
	pass_skeleton(st, logs, nlogs, tt, rs, d);
	d->st = st;
	st->opt = opt;
	pass_follow(st, d);
	const struct following *w = st->w;
	pass_novel(st, d);
	pass_changes(st, d);
	pass_milestones(st, d);
	pass_slow(st, d);
	pass_waiting(st, d);
	decide_verdict(st, d, w);
	find_next(st, d, w);
	pass_silence(st, d);
	pass_good_time(st, d);
	pass_ranks(st, d);
	pass_rank_behind(st, d);
	followings_free(st);
}

const char *dx_milestone_name(const struct diagnosis *d, const struct dx_milestone *m)
{
	return m->name ? m->name : dx_template_text(d, m->id);
}

const struct dx_milestone *dx_final_milestone(const struct diagnosis *d)
{
	return good_end(d->st, d);
}

const char *dx_template_text(const struct diagnosis *d, uint32_t id)
{
	return id < d->st->nc ? d->st->ctext[id] : "";
}

uint32_t dx_bad_id(const struct diagnosis *d, int64_t i)
{
	return d->st->id[d->st->bad][i];
}

uint32_t dx_good_id(const struct diagnosis *d, int64_t j)
{
	return d->st->id[d->good][j];
}

int64_t dx_first_line(const struct diagnosis *d, size_t l, uint32_t id)
{
	int64_t i = d->st->first[l * d->st->nc + id];
	return i < 0 ? DX_NONE : i;
}

void diagnosis_free(struct diagnosis *d)
{
	if (!d)
		return;
	skeleton_free(d->st);
	for (size_t k = 0; k < d->nchanged; k++) {
		free(d->changed[k].label);
		free(d->changed[k].key);
		free(d->changed[k].good);
		free(d->changed[k].bad);
	}
	free(d->changed);
	free(d->novel);
	free(d->next);
	free(d->ms);
	free(d->slow);
	free(d->ranks);
	free(d->culprit.peers);
	memset(d, 0, sizeof(*d));
}
