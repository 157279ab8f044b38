/* report_json.c — the JSON report of `ddx diff`, schema 1, a function a
 * section.
 *
 * docs/ddx-json.5 (ddx-json(5)) documents every field, for users.  A
 * field added here is added there; none is renamed or removed once
 * released.  Line numbers are 1-based; a missing one is null. */
#include "report.h"
#include "report_impl.h"

#include <math.h>
#include <stdlib.h>

#include "causes.h"
#include "culprit.h"
#include "json.h"
#include "prefix.h"
#include "report_proc.h"
#include "signature.h"

/* The report: a member a line; the sections' rows a line each. */
static const struct jw_layout doc = { JW_LINES | JW_CLOSE_ALWAYS, 2, 0 };
static const struct jw_layout rows = { JW_LINES, 4, 0 };

/* For a folder run, KEY: "FILE:LINE" for line i; nothing for a run of
 * one file. */
static void json_origin(struct jw *jw, const char *key, const struct log *lg, int64_t i)
{
	size_t line;
	const char *file = i >= 0 ? log_origin(lg, (size_t)i, &line) : NULL;
	if (!file)
		return;
	char *at = xasprintf("%s:%zu", file, line);
	jw_object_string(jw, key, at);
	free(at);
}

/* The message of line i (its text after the header); null for none. */
static void json_msg(struct jw *jw, const char *key, const struct log *lg, int64_t i)
{
	if (i < 0) {
		jw_object_null(jw, key);
		return;
	}
	struct quote q = { 0 };
	quote_line(&q, lg, i);
	jw_object_string_n(jw, key, q.ln.text + q.h.msg_off, q.ln.len - q.h.msg_off);
	buf_free(&q.scratch);
}


static int64_t last_ts(const struct log *lg)
{
	for (size_t i = lg->nlines; i-- > 0;)
		if (lg->ts[i] != TS_NONE)
			return lg->ts[i];
	return TS_NONE;
}

static int64_t first_ts(const struct log *lg)
{
	for (size_t i = 0; i < lg->nlines; i++)
		if (lg->ts[i] != TS_NONE)
			return lg->ts[i];
	return TS_NONE;
}

/* "path", "lines", "first_ts", "last_ts" of a log. */
static void json_log(struct jw *jw, const struct log *lg)
{
	jw_object_string(jw, "path", lg->in.path);
	jw_object_int(jw, "lines", (long long)lg->nlines);
	jw_object_time(jw, "first_ts", first_ts(lg));
	jw_object_time(jw, "last_ts", last_ts(lg));
}

static void json_bad(struct jw *jw, const struct diagnosis *d)
{
	jw_object_object(jw, "bad", NULL);
	json_log(jw, d->bad_log);
	jw_object_double(jw, "silent_s", d->silent_s, 3);
	jw_object_double(jw, "good_gap_s", d->good_gap_s, 3);
	jw_object_double(jw, "good_step_s", d->good_step_s, 3);
	jw_object_double(jw, "hung_s", d->hung_s, 3);
	jw_object_int(jw, "attempts", (long long)d->attempts);
	jw_object_line(jw, "attempt_line", d->attempt_line);
	jw_end(jw);
}

/* The good logs: every log but the last, the bad one. */
static void json_good(struct jw *jw, const struct diagnosis *d, const struct log *logs, size_t nlogs)
{
	jw_object_array(jw, "good", &rows);
	for (size_t g = 0; g + 1 < nlogs; g++) {
		jw_object_begin(jw, NULL);
		json_log(jw, &logs[g]);
		jw_object_bool(jw, "closest", g == d->good);
		jw_end(jw);
	}
	jw_end(jw);
}

/* The message of where bad diverged (good: the good line there); see
 * quote_divergence. */
static void json_divergence_msg(struct jw *jw, const char *key, const struct diagnosis *d, int good)
{
	if (!(good ? d->good_by_bar : d->bad_by_bar)) {
		json_msg(jw, key, good ? d->good_log : d->bad_log, good ? d->good_line : d->bad_line);
		return;
	}
	struct quote q = { 0 };
	quote_divergence(&q, d, good);
	jw_object_string_n(jw, key, q.ln.text, q.ln.len);
	buf_free(&q.scratch);
}

/* Where bad diverged, and the good run's next steps from there. */
static void json_divergence(struct jw *jw, const struct diagnosis *d, const struct ms_key *ix)
{
	static const struct jw_layout divergence = { 0, 4, 0 };
	static const struct jw_layout next = { JW_LINES, 6, 0 };
	const struct log *bad = d->bad_log, *good = d->good_log;
	jw_object_object(jw, "divergence", &divergence);
	jw_object_line(jw, "bad_line", d->bad_line);
	json_origin(jw, "bad_at", bad, d->bad_line);
	jw_object_string(jw, "good_path", good->in.path);
	jw_object_line(jw, "good_line", d->good_line);
	json_origin(jw, "good_at", good, d->good_line);
	jw_object_double(jw, "good_fraction", d->good_fraction, 3);
	jw_newline(jw);
	json_divergence_msg(jw, "last_common", d, 1);
	jw_newline(jw);
	json_divergence_msg(jw, "bad_text", d, 0);
	jw_newline(jw);
	jw_object_array(jw, "next_expected", &next);
	for (size_t k = 0; k < d->nnext; k++) {
		uint32_t id = dx_good_id(d, d->next[k]);
		const struct dx_milestone *ms = milestone_of(d, ix, id);
		jw_object_begin(jw, NULL);
		jw_object_line(jw, "good_line", d->next[k]);
		json_origin(jw, "good_at", good, d->next[k]);
		jw_object_double(jw, "offset_s", offset(good, d->good_line, d->next[k]), 3);
		if (ms)
			jw_object_string(jw, "name", dx_milestone_name(d, ms));
		else
			json_msg(jw, "name", good, d->next[k]);
		jw_object_bool(jw, "learned", !ms || ms->name == NULL);
		json_msg(jw, "text", good, d->next[k]);
		jw_end(jw);
	}
	jw_end(jw);
	jw_end(jw);
}

/* The lines bad repeated while it waited, or null. */
static void json_waiting(struct jw *jw, const struct diagnosis *d)
{
	if (d->waiting.first < 0) {
		jw_object_null(jw, "waiting");
		return;
	}
	jw_object_object(jw, "waiting", NULL);
	jw_object_line(jw, "line", d->waiting.first);
	jw_object_line(jw, "last_line", d->waiting.last);
	json_msg(jw, "text", d->bad_log, d->waiting.first);
	jw_object_int(jw, "count", (long long)d->waiting.count);
	jw_object_double(jw, "span_s", d->waiting.span_s, 3);
	jw_end(jw);
}

/* A novel line's place, and that of the line that sums it up. */
static void json_novel_lines(struct jw *jw, const struct diagnosis *d, const struct dx_novel *n,
			     int detail)
{
	const struct log *bad = d->bad_log;
	jw_object_line(jw, "bad_line", n->line);
	json_origin(jw, "bad_at", bad, n->line);
	json_msg(jw, "text", bad, n->line);
	if (detail) {
		jw_object_string(jw, "severity", dx_severity_name(n->severity));
		jw_object_int(jw, "lines", n->nlines);
		jw_object_bool(jw, "traceback", n->traceback);
		jw_object_int(jw, "count", n->count);
		jw_object_array(jw, "ranks", NULL);
		for (uint16_t k = 0; k < n->nstreams; k++)
			jw_array_string(jw, d->stream_names[n->streams[k]]);
		jw_end(jw);
	}
	jw_object_line(jw, "summary_line", n->summary);
	json_origin(jw, "summary_at", bad, n->summary);
	json_msg(jw, "summary", bad, n->summary);
}

static void json_crash(struct jw *jw, const struct diagnosis *d)
{
	if (d->crash == DX_NONE) {
		jw_object_null(jw, "crash");
		return;
	}
	jw_object_object(jw, "crash", NULL);
	json_novel_lines(jw, d, &d->novel[d->crash], 0);
	jw_end(jw);
}

static void json_novel(struct jw *jw, const struct diagnosis *d)
{
	jw_object_array(jw, "novel", &rows);
	for (size_t k = 0; k < d->nnovel; k++) {
		jw_object_begin(jw, NULL);
		json_novel_lines(jw, d, &d->novel[k], 1);
		jw_end(jw);
	}
	jw_end(jw);
}

static void json_milestones(struct jw *jw, const struct diagnosis *d)
{
	jw_object_array(jw, "milestones", &rows);
	for (size_t m = 0; m < d->nms; m++) {
		const struct dx_milestone *ms = &d->ms[m];
		jw_object_begin(jw, NULL);
		jw_object_string(jw, "name", dx_milestone_name(d, ms));
		jw_object_line(jw, "good_line", ms->good_line);
		jw_object_line(jw, "bad_line", ms->bad_line);
		jw_object_double(jw, "good_offset_s", ms->good_off_s, 3);
		jw_object_double(jw, "bad_offset_s", ms->bad_off_s, 3);
		jw_object_string(jw, "status", ms->bad_line >= 0 ? "reached" : "missing");
		jw_object_bool(jw, "learned", !ms->name);
		jw_object_string(jw, "template", dx_template_text(d, ms->id));
		jw_end(jw);
	}
	jw_end(jw);
}

static void json_changed(struct jw *jw, const struct diagnosis *d)
{
	jw_object_array(jw, "changed", &rows);
	for (size_t k = 0; k < d->nchanged; k++) {
		const struct dx_change *c = &d->changed[k];
		jw_object_begin(jw, NULL);
		jw_object_string(jw, "key", c->key);
		jw_object_string(jw, "good", c->good);
		jw_object_string(jw, "bad", c->bad);
		jw_object_line(jw, "bad_line", c->bad_line);
		jw_object_line(jw, "good_line", c->good_line);
		jw_object_string(jw, "label", c->label);
		jw_end(jw);
	}
	jw_end(jw);
}

static void json_slow(struct jw *jw, const struct diagnosis *d)
{
	jw_object_array(jw, "slow", &rows);
	for (size_t k = 0; k < d->nslow; k++) {
		const struct dx_slow *s = &d->slow[k];
		jw_object_begin(jw, NULL);
		json_msg(jw, "from", d->good_log, s->from_good);
		json_msg(jw, "to", d->good_log, s->to_good);
		jw_object_double(jw, "good_s", s->good_s, 3);
		jw_object_double(jw, "bad_s", s->bad_s, 3);
		jw_object_line(jw, "from_line", s->from_good);
		jw_object_line(jw, "to_line", s->to_good);
		jw_object_string(jw, "stream", s->stream && *s->stream ? s->stream : NULL);
		jw_object_string(jw, "rank", s->rank);
		jw_object_double(jw, "peers_s", s->rank ? s->peers_s : NAN, 3);
		jw_end(jw);
	}
	jw_end(jw);
}

static void json_ranks(struct jw *jw, const struct diagnosis *d, const struct ms_key *ix)
{
	jw_object_array(jw, "ranks", &rows);
	for (size_t k = 0; k < d->nranks; k++) {
		const struct dx_rank *r = &d->ranks[k];
		jw_object_begin(jw, NULL);
		jw_object_string(jw, "rank", r->name);
		jw_object_line(jw, "last_bad_line", r->last_follow);
		const struct dx_milestone *ms =
			r->last_milestone >= 0 ? milestone_of(d, ix, dx_bad_id(d, r->last_milestone)) : NULL;
		if (ms && dx_milestone_by_rule(d, ms))
			jw_object_string(jw, "last_milestone", ms->name);
		else
			json_msg(jw, "last_milestone", d->bad_log, r->last_milestone);
		jw_object_line(jw, "last_milestone_line", r->last_milestone);
		jw_object_line(jw, "last_line", r->last_line);
		jw_object_line(jw, "last_follow_line", r->last_follow);
		jw_object_int(jw, "errors", r->errors);
		jw_object_line(jw, "first_error_line", r->first_error);
		jw_object_string(jw, "role", r->role ? culprit_role_name[r->role] : NULL);
		jw_end(jw);
	}
	jw_end(jw);
	jw_object_bool(jw, "ranks_same", d->ranks_same);
}

/* culprit.why: how the rank stood out, then what its peers did. */
static char *culprit_why(const struct diagnosis *d)
{
	const struct dx_culprit *c = &d->culprit;
	static const char *const why[] = {
		[DX_CULPRIT_ERROR] = "failed first, with an error of its own",
		[DX_CULPRIT_BEHIND] = "stopped first, at a step every other rank went past",
		[DX_CULPRIT_OWN_STEP] = "stopped at a line no other rank and no good run printed",
		[DX_CULPRIT_SILENT] = "the only rank that did not fail",
		[DX_CULPRIT_LAUNCHER] = "named by the launcher's first error; its own lines show none",
		[DX_CULPRIT_MISSED] = "never printed a step every other rank printed",
		[DX_CULPRIT_LIVE] = "its live process stands out among its peers' (see processes)",
		[DX_CULPRIT_COLLECTIVE] = "the collectives say so: ",
	};
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (m) {
		/* A rank that printed nothing has no lines to show anything. */
		if (c->unheard && c->how == DX_CULPRIT_LAUNCHER)
			fputs("named by the launcher's first error", m);
		else
			fputs(why[c->how], m);
		if (c->unheard)
			fputs("; it printed nothing in this log", m);
		/* The hang's sentence says which collective and who waited. */
		if (c->how == DX_CULPRIT_COLLECTIVE)
			fputs(d->coll.sentence ? d->coll.sentence : "", m);
		else if (c->how != DX_CULPRIT_LIVE)
			culprit_peers(m, c);
		fclose(m);
	}
	return text;
}

static void json_culprit(struct jw *jw, const struct diagnosis *d)
{
	const struct dx_culprit *c = &d->culprit;
	if (!c->rank) {
		jw_object_null(jw, "culprit");
		return;
	}
	size_t line;
	const char *file = c->line >= 0 ? log_origin(d->bad_log, (size_t)c->line, &line) : NULL;
	char *why = culprit_why(d);
	jw_object_object(jw, "culprit", NULL);
	jw_object_string(jw, "rank", c->rank);
	jw_object_line(jw, "line", c->line);
	jw_object_string(jw, "file", file);
	jw_object_line(jw, "file_line", file ? (int64_t)line - 1 : -1);
	jw_object_string(jw, "why", why);
	jw_object_array(jw, "peers", NULL);
	for (size_t k = 0; k < c->npeers; k++)
		jw_array_string(jw, c->peers[k]);
	jw_end(jw);
	jw_end(jw);
	free(why);
}

static void json_coll_op(struct jw *jw, const char *key, int64_t seq, const char *op)
{
	if (seq < 0) {
		jw_object_null(jw, key);
		return;
	}
	jw_object_object(jw, key, NULL);
	jw_object_int(jw, "seq", (long long)seq);
	jw_object_string(jw, "op", *op ? op : NULL);
	jw_end(jw);
}

/* hang_kind, hang and collectives: each rank's collectives and the kind
 * of hang they show (collectives.c). */
static void json_collectives(struct jw *jw, const struct diagnosis *d)
{
	const struct dx_collectives *c = &d->coll;
	jw_object_string(jw, "hang_kind", dx_hang_kind_name(c->kind));
	jw_object_string(jw, "hang", c->kind ? c->sentence : NULL);
	jw_object_array(jw, "collectives", &rows);
	for (size_t k = 0; k < c->n; k++) {
		const struct dx_coll_rank *r = &c->r[k];
		jw_object_begin(jw, NULL);
		jw_object_int(jw, "rank", r->rank);
		jw_object_string(jw, "stream", r->stream);
		if (r->pg >= 0)
			jw_object_int(jw, "pg", (long long)r->pg);
		else
			jw_object_null(jw, "pg");
		json_coll_op(jw, "last_enqueued", r->enqueued, r->enq_op);
		json_coll_op(jw, "last_completed", r->completed, r->done_op);
		json_coll_op(jw, "waiting_in", r->pending, r->pending_op);
		jw_object_double(jw, "waited_s", r->waited_s, 1);
		if (r->started >= 0)
			jw_object_bool(jw, "started", r->started);
		else
			jw_object_null(jw, "started");
		jw_object_string(jw, "source", r->dump ? "dump" : "log");
		jw_object_string(jw, "dump", r->dump);
		jw_object_line(jw, "line", r->line);
		jw_object_bool(jw, "odd", r->odd);
		jw_end(jw);
	}
	jw_end(jw);
}

static void json_warnings(struct jw *jw, const struct diagnosis *d)
{
	jw_object_array(jw, "warnings", &rows);
	for (size_t k = 0; k < d->nwarnings; k++) {
		const struct dx_warning *w = &d->warnings[k];
		jw_object_begin(jw, NULL);
		jw_object_string(jw, "kind", w->kind);
		jw_object_string(jw, "path", w->path);
		jw_object_line(jw, "line", w->line);
		jw_object_string(jw, "text", w->text);
		jw_end(jw);
	}
	jw_end(jw);
}

void report_json_fix(struct jw *jw, const struct failure_fix *fix)
{
	if (!fix->text) {
		jw_object_null(jw, "fix");
		return;
	}
	jw_object_object(jw, "fix", NULL);
	jw_object_string(jw, "text", fix->text);
	jw_object_string(jw, "host", fix->host);
	jw_object_time(jw, "time", fix->fixed * 1000);
	jw_end(jw);
}

/* What the failure memory knew of this failure; null when it was not
 * asked. */
static void json_seen(struct jw *jw, const struct failure_seen *s)
{
	if (!s) {
		jw_object_null(jw, "seen_before");
		return;
	}
	jw_object_object(jw, "seen_before", NULL);
	jw_object_string(jw, "signature", s->key);
	jw_object_string(jw, "summary", s->summary);
	jw_object_int(jw, "count", (long long)s->count);
	jw_object_time(jw, "first", s->nruns ? s->first * 1000 : TS_NONE);
	jw_object_time(jw, "last", s->nruns ? s->runs[0].seen * 1000 : TS_NONE);
	jw_object_string(jw, "last_host", s->nruns ? s->runs[0].host : NULL);
	jw_object_string(jw, "last_baseline", s->nruns ? s->runs[0].baseline : NULL);
	jw_object_array(jw, "runs", NULL);
	for (size_t k = 0; k < s->nruns; k++) {
		jw_object_begin(jw, NULL);
		jw_object_string(jw, "name", s->runs[k].name);
		jw_object_string(jw, "host", s->runs[k].host);
		jw_object_string(jw, "baseline", s->runs[k].baseline);
		jw_object_time(jw, "time", s->runs[k].seen * 1000);
		jw_end(jw);
	}
	jw_end(jw);
	report_json_fix(jw, &s->fix);
	jw_end(jw);
}

/* The known causes the failure matches, likeliest first, each with the
 * line of bad that shows it. */
static void json_causes(struct jw *jw, const struct diagnosis *d)
{
	jw_object_array(jw, "known_causes", &rows);
	for (size_t k = 0; k < d->ncauses; k++) {
		const struct cause *c = d->causes[k].cause;
		jw_object_begin(jw, NULL);
		jw_object_string(jw, "id", c->id);
		jw_object_string(jw, "title", c->title);
		jw_object_string(jw, "fix", c->fix);
		jw_object_string(jw, "url", c->url);
		jw_object_line(jw, "line", d->causes[k].line);
		json_msg(jw, "text", d->bad_log, d->causes[k].line);
		jw_object_string(jw, "explain", c->explain);
		jw_end(jw);
	}
	jw_end(jw);
}

/* What live.c found behind the bad log: nothing when it was not asked. */
static void json_live(struct jw *jw, const struct live_report *live)
{
	if (live) {
		report_proc_processes_json(jw, live);
	} else {
		jw_object_array(jw, "processes", NULL);
		jw_end(jw);
	}
	jw_object_string(jw, "liveness", live ? live->liveness : NULL);
	jw_object_string(jw, "live_verdict", live && live->nprocs ? live->verdict : NULL);
}

void report_json(FILE *f, const struct diagnosis *d, const struct log *logs, size_t nlogs,
		 const struct live_report *live)
{
	struct ms_key *ix = ms_index(d);
	struct jw jw;
	jw_init(&jw, f);
	jw_object_begin(&jw, &doc);
	jw_object_int(&jw, "schema", 1);
	json_bad(&jw, d);
	json_good(&jw, d, logs, nlogs);
	jw_object_string(&jw, "verdict", dx_verdict_name(d->verdict));
	char *summary = report_summary(d);
	jw_object_string(&jw, "summary", summary);
	free(summary);
	json_divergence(&jw, d, ix);
	json_waiting(&jw, d);
	json_crash(&jw, d);
	json_milestones(&jw, d);
	json_novel(&jw, d);
	json_changed(&jw, d);
	json_slow(&jw, d);
	json_ranks(&jw, d, ix);
	json_culprit(&jw, d);
	jw_object_string(&jw, "culprit_unknown", d->culprit.rank ? NULL : d->culprit.unknown);
	json_collectives(&jw, d);
	json_warnings(&jw, d);
	json_seen(&jw, d->seen);
	json_causes(&jw, d);
	json_live(&jw, live);
	jw_end(&jw);
	fputc('\n', f);
	free(ix);
}
