/* cmd_phases.c — `ddx phases`: the milestone timeline of one log.
 *
 * Each milestone (rule) that occurs is one row, however many ranks print
 * it: its first and last line over the ranks, the time it was first
 * reached, the step since the previous milestone, and how many ranks of
 * the kind that print it got there.  Above the table a summary answers the
 * question of someone looking at a silent server: is it up, and if not,
 * what was the last thing it did and how long ago.  With --html, the
 * timelines of several logs side by side as a picture (html.c).  The timeline itself is
 * timeline.c's; this file parses the options and prints. */
#include <errno.h>
#include <math.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cmd.h"
#include "html.h"
#include "json.h"
#include "log.h"
#include "prefix.h"
#include "rules.h"
#include "timeline.h"

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
static void put_short(const char *s, size_t n, size_t width)
{
	size_t pos = 0, chars = 0, cut = 0;
	while (pos < n) {
		size_t l = utf8_seq_len((const unsigned char *)s + pos, n - pos);
		if (l == 0)
			l = 1;
		if (chars == width - 1)
			cut = pos;
		if (++chars > width) {
			put_text(stdout, s, cut);
			fputs("\xe2\x80\xa6", stdout);
			return;
		}
		pos += l;
	}
	put_text(stdout, s, n);
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
static void put_tags(const struct timeline *tl, const struct timeline_row *w, size_t max,
		     int (*keep)(const struct timeline_row *, size_t))
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
		printf("%s", shown++ ? ", " : "");
		put_text(stdout, tag_name(tl, t), strlen(tag_name(tl, t)));
	}
	if (more)
		printf(" and %zu more", more);
}

static void print_missing(const struct timeline *tl, const struct timeline_row *w, int indent)
{
	if (w->reached < 2 || w->reached == w->total)
		return;
	printf("%*s%snot reached by ", indent, "", C_YELLOW);
	put_tags(tl, w, MISSING_SHOWN, timeline_missing);
	printf("%s\n", C_RESET);
}

/* For the ranks that did not reach the last milestone w, where each group
 * of them stopped: the rank that hangs is usually the one to look at. */
static void print_behind(const struct timeline *tl, const struct timeline_row *w)
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
			printf("%s", shown++ ? ", " : "behind: ");
			put_text(stdout, tag_name(tl, t), strlen(tag_name(tl, t)));
			if (key < tl->nrows) {
				size_t line = tl->rows[key].tag_first[t];
				lo = line < lo ? line : lo;
				hi = line > hi ? line : hi;
			}
		}
		if (!shown)
			continue;
		if (key == tl->nrows) {
			printf(" reached no milestone\n");
			continue;
		}
		const char *name = tl->rs->r[tl->rows[key].rule].name;
		printf(" stopped after \"");
		put_text(stdout, name, strlen(name));
		printf(lo == hi ? "\" (line %zu)\n" : "\" (lines %zu-%zu)\n", lo + 1, hi + 1);
	}
	free(stop);
}

static void print_summary(const struct timeline *tl)
{
	const struct log *lg = tl->lg;
	char a[PREFIX_TS_SIZE], b[PREFIX_TS_SIZE], d[32];
	put_text(stdout, lg->in.path, strlen(lg->in.path));
	printf(": %zu lines", lg->nlines);
	if (tl->first_ts != TS_NONE) {
		fmt_ts(a, tl->first_ts);
		fmt_ts(b, tl->last_ts);
		fmt_dur(d, sizeof(d), tl->last_ts - tl->first_ts, "");
		printf(", %s to %s (%s)", a, b, d);
	}
	putchar('\n');
	if (tl->ntags > 1) {
		printf("%zu ranks/processes: ", tl->ntags - 1);
		put_tags(tl, NULL, RANKS_SHOWN, NULL);
		putchar('\n');
	}
	if (tl->nrows == 0) {
		printf("no milestones recognised; rules can be added with --rules FILE\n");
		return;
	}
	const struct timeline_row *last = &tl->rows[tl->nrows - 1];
	const struct timeline_row *w = tl->up != SIZE_MAX ? &tl->rows[tl->up]
		: tl->failed != SIZE_MAX ? &tl->rows[tl->failed] : last;
	const char *name = tl->rs->r[w->rule].name;
	/* A server is up; a job (training run, CI job) finishes. */
	const char *state = tl->up != SIZE_MAX
		? (tl->rs->r[w->rule].done ? "finished" : "up")
		: tl->failed != SIZE_MAX ? "FAILED" : "NOT UP";
	printf("%s%s%s: %s\"", tl->up != SIZE_MAX ? C_GREEN : C_RED, state, C_RESET,
	       tl->up != SIZE_MAX || tl->failed != SIZE_MAX ? "" : "last milestone ");
	put_text(stdout, name, strlen(name));
	printf("\" at line %zu", w->first + 1);
	if (lg->when[w->first] != TS_NONE && tl->first_ts != TS_NONE) {
		fmt_dur(d, sizeof(d), lg->when[w->first] - tl->first_ts, "+");
		printf(" (%s)", d);
	}
	if (w->total > 1)
		printf(", %zu/%zu ranks", w->reached, w->total);
	putchar('\n');
	if (tl->up != SIZE_MAX || tl->failed != SIZE_MAX) {
		/* Up or failed, and the log went on to other milestones
		 * (shutdown, the CI runner's cleanup). */
		if (last != w) {
			name = tl->rs->r[last->rule].name;
			printf("last milestone \"");
			put_text(stdout, name, strlen(name));
			printf("\" at line %zu", last->first + 1);
			if (lg->when[last->first] != TS_NONE) {
				fmt_dur(d, sizeof(d), lg->when[last->first] - tl->first_ts, "+");
				printf(" (%s)", d);
			}
			putchar('\n');
		}
		return;
	}
	print_behind(tl, last);
	size_t after = lg->nlines - 1 - last->last;
	if (after == 0) {
		printf("it is the last line of the log\n");
	} else {
		printf("then %zu more line%s", after, after == 1 ? "" : "s");
		if (lg->when[last->last] != TS_NONE && tl->last_ts != TS_NONE) {
			fmt_dur(d, sizeof(d), tl->last_ts - lg->when[last->last], "");
			printf(" over %s", d);
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
		printf("; the last, line %zu: ", i + 1);
		put_short(msg, n, MSG_WIDTH);
		buf_free(&scratch);
		putchar('\n');
	}
	double silent = silent_s(lg);
	if (silent >= 86400) {
		printf("file last written over a day ago\n");
	} else if (silent >= 0) {
		fmt_dur(d, sizeof(d), (int64_t)(silent * 1000), "");
		printf("file last written %s ago\n", d);
	}
}

static void print_text(const struct timeline *tl)
{
	const struct log *lg = tl->lg;
	print_summary(tl);
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
	printf("\n%s%*s  %-8s  %8s  %8s  %-*s  ", C_BOLD, (int)wline, "line",
	       "time", "offset", "step", (int)wname, "milestone");
	if (wranks)
		printf("%-*s  ", (int)wranks, "ranks");
	printf("message%s\n", C_RESET);
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
		printf("%*s  %-8s  %8s  %8s  %s", (int)wline, line, clock, off, step,
		       r->final ? C_GREEN : "");
		put_text_padded(stdout, r->name, wname);
		printf("%s  ", r->final ? C_RESET : "");
		if (wranks) {
			printf("%s", w->reached < w->total ? C_YELLOW : "");
			put_text_padded(stdout, ranks, wranks);
			printf("%s  ", w->reached < w->total ? C_RESET : "");
		}
		const char *msg;
		size_t n;
		line_message(lg, w->first, &scratch, &msg, &n);
		while (n && (*msg == ' ' || *msg == '\t'))
			msg++, n--;
		put_short(msg, n, MSG_WIDTH);
		putchar('\n');
		print_missing(tl, w, (int)wline + 2);
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

static void print_json(const struct timeline *tl)
{
	/* The schema on the first line, then a member a line, the rows of
	 * the milestones too. */
	static const struct jw_layout doc = { JW_LINES | JW_FIRST_SAME, 1, 0 };
	static const struct jw_layout rows = { JW_LINES | JW_CLOSE_ALWAYS, 2, 0 };
	struct jw jw;
	jw_init(&jw, stdout);
	jw_object_begin(&jw, &doc);
	jw_object_int(&jw, "schema", 1);
	json_log(&jw, tl);
	jw_object_bool(&jw, "up", tl->up != SIZE_MAX);
	jw_object_bool(&jw, "finished", tl->up != SIZE_MAX && tl->rs->r[tl->rows[tl->up].rule].done);
	jw_object_bool(&jw, "failed", tl->failed != SIZE_MAX);
	json_last(&jw, tl);
	jw_object_array(&jw, "milestones", &rows);
	struct buf scratch = { 0 };
	for (size_t k = 0; k < tl->nrows; k++)
		json_row(&jw, tl, k, &scratch);
	buf_free(&scratch);
	jw_end(&jw);
	jw_end(&jw);
	putchar('\n');
}

/* Write the page of the n timelines to o (opened by phases_open_html). */
static int write_html(struct outfile *o, const char *path, const struct timeline *tls, size_t n)
{
	if (html_phases_page(o->f, tls, n) < 0) {
		error("--html %s: %s", path, strerror(errno ? errno : EIO));
		outfile_abort(o);
		return -1;
	}
	return outfile_commit(o);
}

static int phases(int argc, char **argv, const struct out *o)
{
	(void)o; /* until its renderers take it, after report.c is split */
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'J' },
		{ "rules", required_argument, NULL, 'r' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "html", required_argument, NULL, 'H' },
		{ NULL, 0, NULL, 0 },
	};
	int json = 0, jobs = default_jobs(), c;
	const char *html = NULL;
	char **files = xmalloc((size_t)argc * sizeof(*files));
	size_t nfiles = 0;
	while ((c = cmd_getopt(argc, argv, "j:", opts, &cmd_phases_entry)) != -1) {
		switch (c) {
		case 'J': json = 1; break;
		case 'r': files[nfiles++] = optarg; break;
		case 'j': jobs = parse_jobs(optarg); break;
		case 'H': html = optarg; break;
		default: free(files); return EXIT_TROUBLE;
		}
	}
	/* Several logs side by side are a picture: --html. */
	size_t n = argc > optind ? (size_t)(argc - optind) : 0;
	if (n == 0) {
		free(files);
		return usage_error(&cmd_phases_entry, "phases needs a LOG");
	}
	if (n > 1 && !html) {
		free(files);
		return usage_error(&cmd_phases_entry, "phases takes several logs only with --html FILE");
	}
	struct outfile out = { 0 };
	int to_stdout = html && strcmp(html, "-") == 0;
	if (html) {
		int bad = json && (to_stdout || n > 1)
			? error(to_stdout ? "--html - and --json would both write to standard output"
				: "--json takes one log")
			: 0;
		for (size_t k = 0; !bad && k < n; k++)
			outfile_protect(argv[optind + k], "one of the inputs");
		for (size_t k = 0; !bad && k < nfiles; k++)
			outfile_protect(files[k], "one of the inputs");
		if (bad || outfile_open(&out, "--html", html, &html_page_kind) < 0) {
			free(files);
			return EXIT_TROUBLE;
		}
	}
	struct ruleset rs;
	int rc = rules_init(&rs, files, nfiles);
	free(files);
	if (rc < 0) {
		outfile_abort(&out);
		rules_free(&rs);
		return EXIT_TROUBLE;
	}
	struct tmpl_table tt;
	struct log *lgs = xcalloc(n, sizeof(*lgs));
	tmpl_init(&tt);
	size_t loaded = 0;
	while (loaded < n && log_load(&lgs[loaded], argv[optind + loaded], (int)loaded, LOG_FULL,
				      jobs, &tt) == 0)
		loaded++;
	rc = loaded < n ? EXIT_TROUBLE : 0;
	int32_t *match = xmalloc((tt.n ? tt.n : 1) * sizeof(*match));
	struct timeline *tls = xcalloc(n, sizeof(*tls));
	if (rc == 0) {
		rules_match(&rs, &tt, match);
		for (size_t k = 0; k < n; k++)
			timeline_build(&tls[k], &lgs[k], &rs, match);
		for (size_t k = 0; k < n && !to_stdout; k++) {
			if (k)
				putchar('\n');
			if (json)
				print_json(&tls[k]);
			else
				print_text(&tls[k]);
		}
		/* As the footer says: a run that never came up (NOT UP,
		 * FAILED) is one that went wrong. */
		rc = EXIT_SAME;
		for (size_t k = 0; k < n; k++)
			if (tls[k].up == SIZE_MAX)
				rc = EXIT_DIVERGED;
		if (html && write_html(&out, html, tls, n) < 0)
			rc = EXIT_TROUBLE;
		for (size_t k = 0; k < n; k++)
			timeline_free(&tls[k]);
	} else {
		outfile_abort(&out);
	}
	free(tls);
	free(match);
	for (size_t k = 0; k < loaded; k++)
		log_free(&lgs[k]);
	free(lgs);
	tmpl_free(&tt);
	rules_free(&rs);
	return rc;
}

const struct cmd cmd_phases_entry = {
	.name = "phases",
	.run = phases,
	.usage = "[--json] [--rules FILE]... [--html FILE] LOG...",
	.help =
	"Print the milestone timeline of a log: each milestone (weights loaded,\n"
	"KV cache allocated, server ready, ...) with its line, time, offset from\n"
	"the first timestamp, the step since the previous milestone, and how\n"
	"many ranks reached it; above it, whether the run came up and, if not,\n"
	"the last milestone it reached and what followed.\n"
	"\n"
	"Milestones come from the built-in rules (SGLang, vLLM, TGI, torchrun/\n"
	"NCCL, uvicorn, generic words), the file $XDG_CONFIG_HOME/ddx/rules\n"
	"(~/.config/ddx/rules) if it exists, and each --rules FILE, in that\n"
	"order; a rule of the same name and engine as an earlier one replaces it.\n"
	"A rule file holds '[ENGINE]' lines, each followed by rules\n"
	"'step NAME: PATTERN', 'final NAME: PATTERN' (a milestone meaning the\n"
	"run is up), 'done NAME: PATTERN' (a job finished) or 'fail NAME:\n"
	"PATTERN' (a job failed), PATTERN being a PCRE2 pattern searched in the line's\n"
	"template; '#' starts a comment line.\n"
	"\n"
	"  --json        print the timeline as JSON\n"
	"  --html FILE   also write the timeline as a self-contained HTML page\n"
	"                (-: standard output, alone), a picture with one lane\n"
	"                per LOG: only with --html may several logs be given\n"
	"  --rules FILE  add or override milestone rules (none: of the built-in\n"
	"                rules only the generic words)\n"
	"  -j, --jobs N  use N threads (default: the CPUs, at most 8)\n",
	.status = "0 when the run came up or finished, 1 when it did not\n(NOT UP, FAILED)",
};
