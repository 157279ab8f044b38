/* report_json.c — the JSON report of `ddx diff`, schema 1.
 *
 * docs/ddx-json.5 (ddx-json(5)) documents every field, for users.  A
 * field added here is added there; none is renamed or removed once
 * released.  Line numbers are 1-based; a missing one is null. */
#include "report.h"
#include "report_impl.h"

#include <stdlib.h>

#include "json.h"
#include "prefix.h"
#include "report_proc.h"
#include "signature.h"

/* For a folder run, `, "KEY": "FILE:LINE"` for line i. */
static void json_origin(FILE *f, const char *key, const struct log *lg, int64_t i)
{
	size_t line;
	const char *file = i >= 0 ? log_origin(lg, (size_t)i, &line) : NULL;
	if (!file)
		return;
	char *at = xasprintf("%s:%zu", file, line);
	fprintf(f, ", \"%s\": ", key);
	json_str(f, at);
	free(at);
}

/* JSON's culprit.why: how the rank stood out, then what its peers did. */
static void culprit_why(FILE *f, const struct dx_culprit *c)
{
	static const char *const why[] = {
		[DX_CULPRIT_ERROR] = "failed first, with an error of its own",
		[DX_CULPRIT_BEHIND] = "stopped first, at a step every other rank went past",
		[DX_CULPRIT_OWN_STEP] = "stopped at a line no other rank and no good run printed",
		[DX_CULPRIT_SILENT] = "the only rank that did not fail",
		[DX_CULPRIT_LAUNCHER] = "named by the launcher's first error; its own lines show none",
	};
	fputs(why[c->how], f);
	culprit_peers(f, c);
}

static void json_msg(FILE *f, const struct log *lg, int64_t i)
{
	if (i < 0) {
		fputs("null", f);
		return;
	}
	struct quote q = { 0 };
	quote_line(&q, lg, i);
	put_json_string(f, q.ln.text + q.h.msg_off, q.ln.len - q.h.msg_off);
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

/* What the failure memory knew of this failure; null when it was not
 * asked. */
static void json_seen(FILE *f, const struct failure_seen *s)
{
	if (!s) {
		fputs("null", f);
		return;
	}
	fprintf(f, "{\"signature\": ");
	json_str(f, s->key);
	fprintf(f, ", \"summary\": ");
	json_str(f, s->summary);
	fprintf(f, ", \"count\": %llu, \"first\": ", (unsigned long long)s->count);
	json_time(f, s->nruns ? s->first * 1000 : TS_NONE);
	fprintf(f, ", \"last\": ");
	json_time(f, s->nruns ? s->runs[0].seen * 1000 : TS_NONE);
	fprintf(f, ", \"last_host\": ");
	json_str(f, s->nruns ? s->runs[0].host : NULL);
	fprintf(f, ", \"last_baseline\": ");
	json_str(f, s->nruns ? s->runs[0].baseline : NULL);
	fprintf(f, ", \"runs\": [");
	for (size_t k = 0; k < s->nruns; k++) {
		fprintf(f, "%s{\"name\": ", k ? ", " : "");
		json_str(f, s->runs[k].name);
		fprintf(f, ", \"host\": ");
		json_str(f, s->runs[k].host);
		fprintf(f, ", \"baseline\": ");
		json_str(f, s->runs[k].baseline);
		fprintf(f, ", \"time\": ");
		json_time(f, s->runs[k].seen * 1000);
		fputc('}', f);
	}
	fputs("]}", f);
}

void report_json(FILE *f, const struct diagnosis *d, const struct log *logs, size_t nlogs,
		 const struct live_report *live)
{
	const struct log *bad = d->bad_log, *good = d->good_log;
	struct ms_key *ix = ms_index(d);
	fprintf(f, "{\n  \"schema\": 1,\n  \"bad\": {\"path\": ");
	json_str(f, bad->in.path);
	fprintf(f, ", \"lines\": %zu, \"first_ts\": ", bad->nlines);
	json_time(f, first_ts(bad));
	fprintf(f, ", \"last_ts\": ");
	json_time(f, last_ts(bad));
	fprintf(f, ", \"silent_s\": ");
	json_num(f, d->silent_s, 3);
	fprintf(f, ", \"good_gap_s\": ");
	json_num(f, d->good_gap_s, 3);
	fprintf(f, ", \"good_step_s\": ");
	json_num(f, d->good_step_s, 3);
	fprintf(f, ", \"attempts\": %zu, \"attempt_line\": ", d->attempts);
	json_line(f, d->attempt_line);
	fprintf(f, "},\n  \"good\": [");
	for (size_t g = 0; g + 1 < nlogs; g++) {
		fprintf(f, "%s\n    {\"path\": ", g ? "," : "");
		json_str(f, logs[g].in.path);
		fprintf(f, ", \"lines\": %zu, \"first_ts\": ", logs[g].nlines);
		json_time(f, first_ts(&logs[g]));
		fprintf(f, ", \"last_ts\": ");
		json_time(f, last_ts(&logs[g]));
		fprintf(f, ", \"closest\": %s}", g == d->good ? "true" : "false");
	}
	fprintf(f, "],\n  \"verdict\": \"%s\",\n  \"divergence\": {\"bad_line\": ", dx_verdict_name(d->verdict));
	json_line(f, d->bad_line);
	json_origin(f, "bad_at", bad, d->bad_line);
	fprintf(f, ", \"good_path\": ");
	json_str(f, good->in.path);
	fprintf(f, ", \"good_line\": ");
	json_line(f, d->good_line);
	fprintf(f, ", \"good_fraction\": %.3f,\n    \"last_common\": ", d->good_fraction);
	json_msg(f, good, d->good_line);
	fprintf(f, ",\n    \"bad_text\": ");
	json_msg(f, bad, d->bad_line);
	fprintf(f, ",\n    \"next_expected\": [");
	for (size_t k = 0; k < d->nnext; k++) {
		fprintf(f, "%s\n      {\"good_line\": ", k ? "," : "");
		json_line(f, d->next[k]);
		fprintf(f, ", \"offset_s\": ");
		json_num(f, offset(good, d->good_line, d->next[k]), 3);
		uint32_t id = dx_good_id(d, d->next[k]);
		const struct dx_milestone *ms = milestone_of(d, ix, id);
		const char *name = ms ? dx_milestone_name(d, ms) : dx_template_text(d, id);
		int learned = !ms || ms->name == NULL;
		fprintf(f, ", \"name\": ");
		json_str(f, name);
		fprintf(f, ", \"learned\": %s", learned ? "true" : "false");
		fprintf(f, ", \"text\": ");
		json_msg(f, good, d->next[k]);
		fputc('}', f);
	}
	fprintf(f, "]},\n  \"waiting\": ");
	if (d->waiting.first >= 0) {
		fprintf(f, "{\"line\": ");
		json_line(f, d->waiting.first);
		fprintf(f, ", \"last_line\": ");
		json_line(f, d->waiting.last);
		fprintf(f, ", \"text\": ");
		json_msg(f, bad, d->waiting.first);
		fprintf(f, ", \"count\": %llu, \"span_s\": ", (unsigned long long)d->waiting.count);
		json_num(f, d->waiting.span_s, 3);
		fputc('}', f);
	} else {
		fprintf(f, "null");
	}
	fprintf(f, ",\n  \"crash\": ");
	if (d->crash == DX_NONE) {
		fputs("null", f);
	} else {
		const struct dx_novel *c = &d->novel[d->crash];
		fprintf(f, "{\"bad_line\": ");
		json_line(f, c->line);
		json_origin(f, "bad_at", bad, c->line);
		fprintf(f, ", \"text\": ");
		json_msg(f, bad, c->line);
		fprintf(f, ", \"summary_line\": ");
		json_line(f, c->summary);
		json_origin(f, "summary_at", bad, c->summary);
		fprintf(f, ", \"summary\": ");
		json_msg(f, bad, c->summary);
		fputc('}', f);
	}
	fprintf(f, ",\n  \"milestones\": [");
	for (size_t m = 0; m < d->nms; m++) {
		const struct dx_milestone *ms = &d->ms[m];
		fprintf(f, "%s\n    {\"name\": ", m ? "," : "");
		json_str(f, dx_milestone_name(d, ms));
		fprintf(f, ", \"good_line\": ");
		json_line(f, ms->good_line);
		fprintf(f, ", \"bad_line\": ");
		json_line(f, ms->bad_line);
		fprintf(f, ", \"good_offset_s\": ");
		json_num(f, ms->good_off_s, 3);
		fprintf(f, ", \"bad_offset_s\": ");
		json_num(f, ms->bad_off_s, 3);
		fprintf(f, ", \"status\": \"%s\", \"learned\": %s}", ms->bad_line >= 0 ? "reached" : "missing",
			ms->name ? "false" : "true");
	}
	fprintf(f, "],\n  \"novel\": [");
	for (size_t k = 0; k < d->nnovel; k++) {
		const struct dx_novel *n = &d->novel[k];
		fprintf(f, "%s\n    {\"bad_line\": ", k ? "," : "");
		json_line(f, n->line);
		json_origin(f, "bad_at", bad, n->line);
		fprintf(f, ", \"text\": ");
		json_msg(f, bad, n->line);
		fprintf(f, ", \"severity\": \"%s\", \"lines\": %u, \"traceback\": %s, \"summary_line\": ",
			dx_severity_name(n->severity), n->nlines, n->traceback ? "true" : "false");
		json_line(f, n->summary);
		json_origin(f, "summary_at", bad, n->summary);
		fprintf(f, ", \"summary\": ");
		json_msg(f, bad, n->summary);
		fputc('}', f);
	}
	fprintf(f, "],\n  \"changed\": [");
	for (size_t k = 0; k < d->nchanged; k++) {
		const struct dx_change *c = &d->changed[k];
		fprintf(f, "%s\n    {\"key\": ", k ? "," : "");
		json_str(f, c->key);
		fprintf(f, ", \"good\": ");
		json_str(f, c->good);
		fprintf(f, ", \"bad\": ");
		json_str(f, c->bad);
		fprintf(f, ", \"bad_line\": ");
		json_line(f, c->bad_line);
		fprintf(f, ", \"good_line\": ");
		json_line(f, c->good_line);
		fprintf(f, ", \"label\": ");
		json_str(f, c->label);
		fputc('}', f);
	}
	fprintf(f, "],\n  \"slow\": [");
	for (size_t k = 0; k < d->nslow; k++) {
		const struct dx_slow *s = &d->slow[k];
		fprintf(f, "%s\n    {\"from\": ", k ? "," : "");
		json_msg(f, good, s->from_good);
		fprintf(f, ", \"to\": ");
		json_msg(f, good, s->to_good);
		fprintf(f, ", \"good_s\": ");
		json_num(f, s->good_s, 3);
		fprintf(f, ", \"bad_s\": ");
		json_num(f, s->bad_s, 3);
		fprintf(f, ", \"from_line\": ");
		json_line(f, s->from_good);
		fprintf(f, ", \"to_line\": ");
		json_line(f, s->to_good);
		fprintf(f, ", \"stream\": ");
		if (s->stream && *s->stream)
			json_str(f, s->stream);
		else
			fprintf(f, "null");
		fputc('}', f);
	}
	fprintf(f, "],\n  \"ranks\": [");
	for (size_t k = 0; k < d->nranks; k++) {
		const struct dx_rank *r = &d->ranks[k];
		fprintf(f, "%s\n    {\"rank\": ", k ? "," : "");
		json_str(f, r->name);
		fprintf(f, ", \"last_bad_line\": ");
		json_line(f, r->last_follow);
		fprintf(f, ", \"last_milestone\": ");
		const char *name = NULL;
		if (r->last_milestone >= 0) {
			uint32_t id = dx_bad_id(d, r->last_milestone);
			const struct dx_milestone *ms = milestone_of(d, ix, id);
			name = ms ? dx_milestone_name(d, ms) : dx_template_text(d, id);
		}
		json_str(f, name);
		fprintf(f, ", \"last_milestone_line\": ");
		json_line(f, r->last_milestone);
		fprintf(f, ", \"last_line\": ");
		json_line(f, r->last_line);
		fprintf(f, ", \"last_follow_line\": ");
		json_line(f, r->last_follow);
		fprintf(f, ", \"errors\": %u, \"first_error_line\": ", r->errors);
		json_line(f, r->first_error);
		fputc('}', f);
	}
	fprintf(f, "],\n  \"ranks_same\": %s,", d->ranks_same ? "true" : "false");
	fprintf(f, "\n  \"culprit\": ");
	if (d->culprit.rank) {
		fputs("{\"rank\": ", f);
		json_str(f, d->culprit.rank);
		fprintf(f, ", \"line\": ");
		json_line(f, d->culprit.line);
		size_t line;
		const char *file = d->culprit.line >= 0 ? log_origin(d->bad_log, (size_t)d->culprit.line, &line) : NULL;
		fprintf(f, ", \"file\": ");
		json_str(f, file);
		fprintf(f, ", \"file_line\": ");
		json_line(f, file ? (int64_t)line - 1 : -1);
		fprintf(f, ", \"why\": ");
		char *why = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&why, &len);
		if (m) {
			culprit_why(m, &d->culprit);
			fclose(m);
		}
		json_str(f, why);
		free(why);
		fprintf(f, ", \"peers\": [");
		for (size_t k = 0; k < d->culprit.npeers; k++) {
			fputs(k ? ", " : "", f);
			json_str(f, d->culprit.peers[k]);
		}
		fputs("]}", f);
	} else {
		fputs("null", f);
	}
	fputc(',', f);
	fprintf(f, "\n  \"warnings\": [");
	for (size_t k = 0; k < d->nwarnings; k++) {
		const struct dx_warning *w = &d->warnings[k];
		fprintf(f, "%s\n    {\"kind\": ", k ? "," : "");
		json_str(f, w->kind);
		fprintf(f, ", \"path\": ");
		json_str(f, w->path);
		fprintf(f, ", \"line\": ");
		json_line(f, w->line);
		fprintf(f, ", \"text\": ");
		json_str(f, w->text);
		fputc('}', f);
	}
	fprintf(f, "],\n  \"seen_before\": ");
	json_seen(f, d->seen);
	fprintf(f, ",\n  \"processes\": ");
	if (live)
		report_proc_processes_json(f, live);
	else
		fputs("[]", f);
	fprintf(f, ",\n  \"liveness\": ");
	json_str(f, live ? live->liveness : NULL);
	fprintf(f, ",\n  \"live_verdict\": ");
	json_str(f, live && live->nprocs ? live->verdict : NULL);
	fprintf(f, "\n}\n");
	free(ix);
}
