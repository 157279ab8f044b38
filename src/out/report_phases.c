/* report_phases.c — printing a timeline (timeline.h): `ddx phases`'s
 * text and its JSON.
 *
 * Each milestone (rule) that occurs is one row, however many ranks print
 * it: its first and last line over the ranks, the time it was first
 * reached, the step since the previous milestone, and how many ranks of
 * the kind that print it got there.  Above the table a summary answers the
 * question of someone looking at a silent server: is it up, and if not,
 * what was the last thing it did and how long ago.  All text from the log
 * goes through put_text or the JSON writer. */
#include "report_phases.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "json.h"
#include "log.h"
#include "prefix.h"
#include "rules.h"
#include "util.h"

/* Longest message shown in a text row, in characters. */
#define MSG_WIDTH 64
/* Most missing ranks named in text under a row, and ranks in the header. */
#define MISSING_SHOWN 8
#define RANKS_SHOWN 16

/* Tag t's name; the untagged lines are a rank too when, say, a driver
 * process logs untagged beside tagged workers. */
static const char *tag_name(const struct timeline *tl, size_t t)
{
	return t ? tl->lg->tags[t] : "(untagged)";
}

/* The time of row k (a line without a timestamp takes that of the last
 * line before it that had one), and of the last row before it that has
 * one (for the step); TS_NONE before the log's first timestamp. */
static int64_t row_ts(const struct timeline *tl, size_t k)
{
	return tl->lg->when[tl->rows[k].first];
}

static int64_t prev_ts(const struct timeline *tl, size_t k)
{
	while (k-- > 0)
		if (row_ts(tl, k) != TS_NONE)
			return row_ts(tl, k);
	return TS_NONE;
}

/* ms as fmt_seconds writes it, after sign ("+" marks an offset) or "-". */
static void fmt_dur(char *out, size_t n, int64_t ms, const char *sign)
{
	size_t k = (size_t)snprintf(out, n, "%s", ms < 0 ? "-" : sign);
	if (k < n)
		fmt_seconds(out + k, n - k, ms < 0 ? -(double)ms / 1000 : (double)ms / 1000);
}

/* ts as "2025-03-08 12:29:07" (prefix_format_ts's form, to the second,
 * without the T), or "-".  Returns the time of day in it ("12:29:07"), or
 * all of it for a form it does not know (a year past 9999). */
static const char *fmt_ts(char out[PREFIX_TS_SIZE], int64_t ts)
{
	if (ts == TS_NONE) {
		strcpy(out, "-");
		return out;
	}
	prefix_format_ts(ts, out);
	if (strlen(out) < 20 || out[10] != 'T')
		return out;
	out[10] = ' ';
	out[19] = '\0';
	return out + 11;
}

/* Seconds since the file was last written, or -1 for stdin and pipes. */
static double silent_s(const struct log *lg)
{
	struct stat st;
	if (strcmp(lg->in.path, "-") == 0 || stat(lg->in.path, &st) < 0 || !S_ISREG(st.st_mode))
		return -1;
	int64_t now = (int64_t)time(NULL) * 1000;
	int64_t mt = (int64_t)st.st_mtim.tv_sec * 1000 + st.st_mtim.tv_nsec / 1000000;
	return now > mt ? (double)(now - mt) / 1000 : 0;
}

/* The message of line i (its text after the header). */
static void line_message(const struct log *lg, size_t i, struct buf *scratch,
			 const char **s, size_t *n)
{
	struct line ln;
	struct header h;
	log_line(lg, i, &ln, &h, scratch);
	*s = ln.text + h.msg_off;
	*n = ln.len - h.msg_off;
}

/* Write s[0..n) cut to at most width characters, the last being "…" when
 * it was cut. */
static void put_short(const struct out *o, const char *s, size_t n, size_t width)
{
	size_t pos = 0, chars = 0, cut = 0;
	while (pos < n) {
		size_t l = utf8_seq_len((const unsigned char *)s + pos, n - pos);
		if (l == 0)
			l = 1;
		if (chars == width - 1)
			cut = pos;
		if (++chars > width) {
			put_text(o->f, s, cut);
			fputs("\xe2\x80\xa6", o->f);
			return;
		}
		pos += l;
	}
	put_text(o->f, s, n);
}

/* "4/4", or the one tag that printed it ("" for untagged lines).  A
 * milestone that one rank prints is usually one only rank 0 reports (vLLM
 * logs most steps from TP0 alone): "1/4" would cry wolf. */
static void fmt_ranks(const struct timeline *tl, const struct timeline_row *w, char *out, size_t n)
{
	if (w->reached > 1)
		snprintf(out, n, "%zu/%zu", w->reached, w->total);
	else
		snprintf(out, n, "%s", tl->lg->tag[w->first] ? tl->lg->tags[tl->lg->tag[w->first]] : "");
}

/* Print tags (natural order) for which keep() holds, separated by ", ",
 * at most max of them (0 = all). */
static void put_tags(const struct out *o, const struct timeline *tl, const struct timeline_row *w,
		     size_t max, int (*keep)(const struct timeline_row *, size_t))
{
	size_t shown = 0, more = 0;
	for (size_t i = keep ? 0 : 1; i < tl->ntags; i++) {
		size_t t = timeline_tag_at(tl, i);
		if (keep && !keep(w, t))
			continue;
		if (max && shown == max) {
			more++;
			continue;
		}
		fputs(shown++ ? ", " : "", o->f);
		put_text(o->f, tag_name(tl, t), strlen(tag_name(tl, t)));
	}
	if (more)
		fprintf(o->f, " and %zu more", more);
}

static void print_missing(const struct out *o, const struct timeline *tl,
			  const struct timeline_row *w, int indent)
{
	if (w->reached < 2 || w->reached == w->total)
		return;
	fprintf(o->f, "%*s%snot reached by ", indent, "", SGR_YELLOW(o));
	put_tags(o, tl, w, MISSING_SHOWN, timeline_missing);
	fprintf(o->f, "%s\n", SGR_RESET(o));
}

/* For the ranks that did not reach the last milestone w, where each group
 * of them stopped: the rank that hangs is usually the one to look at. */
static void print_behind(const struct out *o, const struct timeline *tl,
			 const struct timeline_row *w)
{
	if (w->reached < 2 || w->reached == w->total)
		return;
	/* stop[t]: index of the last row t reached, nrows for none, or
	 * SIZE_MAX for the tags that are not behind. */
	size_t *stop = xmalloc(tl->ntags * sizeof(*stop));
	for (size_t t = 0; t < tl->ntags; t++) {
		size_t k = timeline_last_row(tl, t);
		stop[t] = !timeline_missing(w, t) ? SIZE_MAX : k == SIZE_MAX ? tl->nrows : k;
	}
	for (size_t key = 0; key <= tl->nrows; key++) {
		size_t shown = 0, lo = SIZE_MAX, hi = 0;
		for (size_t i = 0; i < tl->ntags; i++) {
			size_t t = timeline_tag_at(tl, i);
			if (stop[t] != key)
				continue;
			fputs(shown++ ? ", " : "behind: ", o->f);
			put_text(o->f, tag_name(tl, t), strlen(tag_name(tl, t)));
			if (key < tl->nrows) {
				size_t line = tl->rows[key].tag_first[t];
				lo = line < lo ? line : lo;
				hi = line > hi ? line : hi;
			}
		}
		if (!shown)
			continue;
		if (key == tl->nrows) {
			fputs(" reached no milestone\n", o->f);
			continue;
		}
		const char *name = tl->rs->r[tl->rows[key].rule].name;
		fputs(" stopped after \"", o->f);
		put_text(o->f, name, strlen(name));
		fprintf(o->f, lo == hi ? "\" (line %zu)\n" : "\" (lines %zu-%zu)\n", lo + 1, hi + 1);
	}
	free(stop);
}

static void print_summary(const struct out *o, const struct timeline *tl)
{
	const struct log *lg = tl->lg;
	char a[PREFIX_TS_SIZE], b[PREFIX_TS_SIZE], d[32];
	put_text(o->f, lg->in.path, strlen(lg->in.path));
	fprintf(o->f, ": %zu lines", lg->nlines);
	if (tl->first_ts != TS_NONE) {
		fmt_ts(a, tl->first_ts);
		fmt_ts(b, tl->last_ts);
		fmt_dur(d, sizeof(d), tl->last_ts - tl->first_ts, "");
		fprintf(o->f, ", %s to %s (%s)", a, b, d);
	}
	fputc('\n', o->f);
	if (tl->ntags > 1) {
		fprintf(o->f, "%zu ranks/processes: ", tl->ntags - 1);
		put_tags(o, tl, NULL, RANKS_SHOWN, NULL);
		fputc('\n', o->f);
	}
	if (tl->nrows == 0) {
		fputs("no milestones recognised; rules can be added with --rules FILE\n", o->f);
		return;
	}
	const struct timeline_row *last = &tl->rows[tl->nrows - 1];
	enum timeline_state st = timeline_state(tl);
	int reached = st == TIMELINE_UP || st == TIMELINE_FINISHED || st == TIMELINE_FAILED;
	const struct timeline_row *w = st == TIMELINE_FAILED ? &tl->rows[tl->failed]
		: reached ? &tl->rows[tl->up] : last;
	const char *name = tl->rs->r[w->rule].name;
	/* A server is up; a job (training run, CI job) finishes; a run
	 * not judged (a job still going, generic words) is neither. */
	static const char *const state[] = {
		[TIMELINE_UP] = "up", [TIMELINE_FINISHED] = "finished", [TIMELINE_FAILED] = "FAILED",
		[TIMELINE_NOT_UP] = "NOT UP", [TIMELINE_UNJUDGED] = "neither up nor finished",
	};
	const char *sgr = st == TIMELINE_UP || st == TIMELINE_FINISHED ? SGR_GREEN(o)
		: st == TIMELINE_UNJUDGED ? SGR_YELLOW(o) : SGR_RED(o);
	fprintf(o->f, "%s%s%s: %s\"", sgr, state[st], SGR_RESET(o), reached ? "" : "last milestone ");
	put_text(o->f, name, strlen(name));
	fprintf(o->f, "\" at line %zu", w->first + 1);
	if (lg->when[w->first] != TS_NONE && tl->first_ts != TS_NONE) {
		fmt_dur(d, sizeof(d), lg->when[w->first] - tl->first_ts, "+");
		fprintf(o->f, " (%s)", d);
	}
	if (w->total > 1)
		fprintf(o->f, ", %zu/%zu ranks", w->reached, w->total);
	fputc('\n', o->f);
	if (reached) {
		/* Up or failed, and the log went on to other milestones
		 * (shutdown, the CI runner's cleanup). */
		if (last != w) {
			name = tl->rs->r[last->rule].name;
			fputs("last milestone \"", o->f);
			put_text(o->f, name, strlen(name));
			fprintf(o->f, "\" at line %zu", last->first + 1);
			if (lg->when[last->first] != TS_NONE) {
				fmt_dur(d, sizeof(d), lg->when[last->first] - tl->first_ts, "+");
				fprintf(o->f, " (%s)", d);
			}
			fputc('\n', o->f);
		}
		return;
	}
	print_behind(o, tl, last);
	size_t after = lg->nlines - 1 - last->last;
	if (after == 0) {
		fputs("it is the last line of the log\n", o->f);
	} else {
		fprintf(o->f, "then %zu more line%s", after, after == 1 ? "" : "s");
		if (lg->when[last->last] != TS_NONE && tl->last_ts != TS_NONE) {
			fmt_dur(d, sizeof(d), tl->last_ts - lg->when[last->last], "");
			fprintf(o->f, " over %s", d);
		}
		/* The last line that says something (a few back at most):
		 * logs often end in blank lines. */
		struct buf scratch = { 0 };
		const char *msg;
		size_t n, i = lg->nlines;
		do {
			line_message(lg, --i, &scratch, &msg, &n);
			while (n && (*msg == ' ' || *msg == '\t'))
				msg++, n--;
		} while (n == 0 && i > last->last + 1 && i + 20 > lg->nlines);
		fprintf(o->f, "; the last, line %zu: ", i + 1);
		put_short(o, msg, n, MSG_WIDTH);
		buf_free(&scratch);
		fputc('\n', o->f);
	}
	double silent = silent_s(lg);
	if (silent >= 86400) {
		fputs("file last written over a day ago\n", o->f);
	} else if (silent >= 0) {
		fmt_dur(d, sizeof(d), (int64_t)(silent * 1000), "");
		fprintf(o->f, "file last written %s ago\n", d);
	}
}

void report_phases_text(const struct out *o, const struct timeline *tl)
{
	const struct log *lg = tl->lg;
	print_summary(o, tl);
	if (tl->nrows == 0)
		return;
	/* The ranks column only when some row has something to say there. */
	size_t wline = 4, wname = 9, wranks = 0;
	char s[64];
	for (size_t k = 0; k < tl->nrows; k++) {
		const struct timeline_row *w = &tl->rows[k];
		size_t n = strlen(tl->rs->r[w->rule].name);
		wname = n > wname ? n : wname;
		n = (size_t)snprintf(s, sizeof(s), w->last > w->first ? "%zu-%zu" : "%zu",
				     w->first + 1, w->last + 1);
		wline = n > wline ? n : wline;
		fmt_ranks(tl, w, s, sizeof(s));
		n = strlen(s);
		wranks = n > wranks ? n : wranks;
	}
	if (wranks && wranks < 5)
		wranks = 5;
	fprintf(o->f, "\n%s%*s  %-8s  %8s  %8s  %-*s  ", SGR_BOLD(o), (int)wline, "line",
		"time", "offset", "step", (int)wname, "milestone");
	if (wranks)
		fprintf(o->f, "%-*s  ", (int)wranks, "ranks");
	fprintf(o->f, "message%s\n", SGR_RESET(o));
	struct buf scratch = { 0 };
	for (size_t k = 0; k < tl->nrows; k++) {
		const struct timeline_row *w = &tl->rows[k];
		const struct rule *r = &tl->rs->r[w->rule];
		int64_t ts = row_ts(tl, k), prev = prev_ts(tl, k);
		char line[48], full[PREFIX_TS_SIZE], off[32] = "-", step[32] = "", ranks[64];
		snprintf(line, sizeof(line), w->last > w->first ? "%zu-%zu" : "%zu",
			 w->first + 1, w->last + 1);
		const char *clock = fmt_ts(full, ts);
		if (ts != TS_NONE) {
			fmt_dur(off, sizeof(off), ts - tl->first_ts, "+");
			if (prev != TS_NONE)
				fmt_dur(step, sizeof(step), ts - prev, "+");
		}
		fmt_ranks(tl, w, ranks, sizeof(ranks));
		fprintf(o->f, "%*s  %-8s  %8s  %8s  %s", (int)wline, line, clock, off, step,
			r->final ? SGR_GREEN(o) : "");
		put_text_padded(o->f, r->name, wname);
		fprintf(o->f, "%s  ", r->final ? SGR_RESET(o) : "");
		if (wranks) {
			fputs(w->reached < w->total ? SGR_YELLOW(o) : "", o->f);
			put_text_padded(o->f, ranks, wranks);
			fprintf(o->f, "%s  ", w->reached < w->total ? SGR_RESET(o) : "");
		}
		const char *msg;
		size_t n;
		line_message(lg, w->first, &scratch, &msg, &n);
		while (n && (*msg == ' ' || *msg == '\t'))
			msg++, n--;
		put_short(o, msg, n, MSG_WIDTH);
		fputc('\n', o->f);
		print_missing(o, tl, w, (int)wline + 2);
	}
	buf_free(&scratch);
}

/* "log": the file, its span and its ranks. */
static void json_log(struct jw *jw, const struct timeline *tl)
{
	const struct log *lg = tl->lg;
	double silent = silent_s(lg);
	jw_object_object(jw, "log", NULL);
	jw_object_string(jw, "path", lg->in.path);
	jw_object_int(jw, "lines", (long long)lg->nlines);
	jw_object_time(jw, "first_ts", tl->first_ts);
	jw_object_time(jw, "last_ts", tl->last_ts);
	jw_object_double(jw, "silent_s", silent >= 0 ? silent : NAN, 3);
	jw_object_array(jw, "ranks", NULL);
	for (size_t k = 0; k + 1 < tl->ntags; k++)
		jw_array_string(jw, lg->tags[tl->order[k]]);
	jw_end(jw);
	jw_end(jw);
}

/* "last": the last milestone, and how much of the log came after it. */
static void json_last(struct jw *jw, const struct timeline *tl)
{
	const struct log *lg = tl->lg;
	if (!tl->nrows) {
		jw_object_null(jw, "last");
		return;
	}
	const struct timeline_row *w = &tl->rows[tl->nrows - 1];
	jw_object_object(jw, "last", NULL);
	jw_object_string(jw, "name", tl->rs->r[w->rule].name);
	jw_object_line(jw, "line", (int64_t)w->last);
	jw_object_int(jw, "lines_after", (long long)(lg->nlines - 1 - w->last));
	jw_object_double(jw, "seconds_after", lg->when[w->last] != TS_NONE
			 ? (double)(tl->last_ts - lg->when[w->last]) / 1000 : NAN, 3);
	jw_end(jw);
}

/* Row k of "milestones". */
static void json_row(struct jw *jw, const struct timeline *tl, size_t k, struct buf *scratch)
{
	const struct log *lg = tl->lg;
	const struct timeline_row *w = &tl->rows[k];
	const struct rule *r = &tl->rs->r[w->rule];
	int64_t ts = row_ts(tl, k), prev = prev_ts(tl, k);
	jw_object_begin(jw, NULL);
	jw_object_string(jw, "name", r->name);
	jw_object_string(jw, "engine", r->engine);
	jw_object_bool(jw, "final", r->final);
	jw_object_line(jw, "line", (int64_t)w->first);
	jw_object_line(jw, "last_line", (int64_t)w->last);
	jw_object_time(jw, "ts", ts);
	jw_object_time(jw, "last_ts", lg->when[w->last]);
	jw_object_double(jw, "offset_s", ts != TS_NONE ? (double)(ts - tl->first_ts) / 1000 : NAN, 3);
	jw_object_double(jw, "step_s", ts != TS_NONE && prev != TS_NONE
			 ? (double)(ts - prev) / 1000 : NAN, 3);
	jw_object_int(jw, "count", (long long)w->count);
	jw_object_int(jw, "ranks_reached", (long long)w->reached);
	jw_object_int(jw, "ranks_total", (long long)w->total);
	/* The untagged lines, a rank of no name, are null. */
	jw_object_array(jw, "missing", NULL);
	if (timeline_missing(w, 0))
		jw_array_null(jw);
	for (size_t i = 0; i + 1 < tl->ntags; i++)
		if (timeline_missing(w, tl->order[i]))
			jw_array_string(jw, lg->tags[tl->order[i]]);
	jw_end(jw);
	const char *msg;
	size_t n;
	line_message(lg, w->first, scratch, &msg, &n);
	jw_object_string_n(jw, "text", msg, n);
	jw_end(jw);
}

void report_phases_json(FILE *f, const struct timeline *tl)
{
	/* The schema on the first line, then a member a line, the rows of
	 * the milestones too. */
	static const struct jw_layout doc = { JW_LINES | JW_FIRST_SAME, 1, 0 };
	static const struct jw_layout rows = { JW_LINES | JW_CLOSE_ALWAYS, 2, 0 };
	struct jw jw;
	jw_init(&jw, f);
	jw_object_begin(&jw, &doc);
	jw_object_int(&jw, "schema", 1);
	json_log(&jw, tl);
	enum timeline_state st = timeline_state(tl);
	jw_object_bool(&jw, "up", st == TIMELINE_UP || st == TIMELINE_FINISHED);
	jw_object_bool(&jw, "finished", st == TIMELINE_FINISHED);
	jw_object_bool(&jw, "failed", st == TIMELINE_FAILED);
	jw_object_bool(&jw, "not_up", st == TIMELINE_NOT_UP);
	json_last(&jw, tl);
	jw_object_array(&jw, "milestones", &rows);
	struct buf scratch = { 0 };
	for (size_t k = 0; k < tl->nrows; k++)
		json_row(&jw, tl, k, &scratch);
	buf_free(&scratch);
	jw_end(&jw);
	jw_end(&jw);
	fputc('\n', f);
}

