/* cmd_watch.c — `ddx watch LOG --ref GOOD...`: follow a growing log
 * against good runs, say where the run is, and call a hang when it has
 * been quiet for longer than the good runs ever were at that point.  The
 * watching is watch.c's (see watch.h); this file takes the options and
 * says what the watch tells it.
 *
 * Output.  One line on stdout per milestone reached and per rotation or
 * truncation; on a terminal, also a status line on stderr, redrawn in
 * place.  On a hang, crash or --timeout, a sentence (HUNG, CRASHED, TIMED
 * OUT, or STOPPED for a quiet log that nobody holds open any more), the
 * report `ddx diff` would print, what `ddx proc` says of the processes
 * that hold the log, and exit 1.  A timeout is a failure too, since a watchdog asks "did it
 * come up in time", but the message says it is no hang. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "baseline.h"
#include "cmd.h"
#include "diffrun.h"
#include "report_proc.h"
#include "report.h"
#include "rules.h"
#include "source.h"
#include "watch.h"

/* What the command said of a watch, and how. */
struct view {
	struct watch *w;
	const struct out *o;    /* where the lines go: stdout */
	int status;            /* stderr is a terminal: draw a status line */
	int status_shown;
	char **said;           /* milestones announced, by name */
	size_t nsaid, saidcap;
};

static void clear_status(struct view *v)
{
	if (v->status_shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		v->status_shown = 0;
	}
}

/* A progress line on stdout, the status line out of its way, naming the
 * log: before, its path, after.  The path is untrusted like log text (a
 * glob in a hostile directory names it). */
static void say_path(struct view *v, const char *before, const char *after)
{
	const struct out *o = v->o;
	clear_status(v);
	fputs(before, o->f);
	put_text(o->f, v->w->path, strlen(v->w->path));
	fputs(after, o->f);
	fflush(o->f);
}

/* Untrusted text (a learned milestone is a log line's template) in a
 * progress line. */
static void say_name(const struct out *o, const char *s)
{
	fputc('"', o->f);
	put_text(o->f, s, strlen(s) > 80 ? 80 : strlen(s));
	fputc('"', o->f);
}

static int said(const struct view *v, const char *name)
{
	for (size_t i = 0; i < v->nsaid; i++)
		if (strcmp(v->said[i], name) == 0)
			return 1;
	return 0;
}

/* " at +41.2 s" when the offset is known. */
static void say_offset(const struct out *o, const char *what, double s)
{
	if (!isnan(s))
		fprintf(o->f, "%s+%.1f s", what, s);
}

/* One line per milestone reached since the last analysis, in the good
 * run's order, with where the good run was at it and what comes next. */
static void announce(struct view *v)
{
	const struct out *o = v->o;
	const struct diagnosis *d = &v->w->d;
	size_t n = 0, k = 0;
	for (size_t m = 0; m < d->nms; m++)
		n += watch_counts(d, &d->ms[m]);
	for (size_t m = 0; m < d->nms; m++) {
		const struct dx_milestone *ms = &d->ms[m];
		if (!watch_counts(d, ms))
			continue;
		k++;
		const char *name = dx_milestone_name(d, ms);
		if (ms->bad_line < 0 || said(v, name))
			continue;
		GROW(v->said, v->saidcap, v->nsaid + 1);
		v->said[v->nsaid++] = xstrdup(name);
		clear_status(v);
		fprintf(o->f, "[%zu/%zu] ", k, n);
		say_name(o, name);
		fprintf(o->f, " at line %lld", (long long)ms->bad_line + 1);
		say_offset(o, ", ", ms->bad_off_s);
		fprintf(o->f, " (good run: line %lld, %.0f%%", (long long)ms->good_line + 1,
			100.0 * (double)(ms->good_line + 1) / (double)d->good_log->nlines);
		say_offset(o, ", ", ms->good_off_s);
		fputs(")", o->f);
		for (size_t x = m + 1; x < d->nms; x++)
			if (watch_counts(d, &d->ms[x])) {
				fputs("; next ", o->f);
				say_name(o, dx_milestone_name(d, &d->ms[x]));
				say_offset(o, " at good ", d->ms[x].good_off_s);
				break;
			}
		fputc('\n', o->f);
	}
	fflush(o->f);
}

static void draw_status(struct view *v, double silence)
{
	const struct watch *w = v->w;
	if (!v->status || !w->have)
		return;
	struct watch_where wh;
	watch_where(&w->d, &wh);
	struct buf b = { 0 };
	char q[32], lim[32];
	fmt_seconds(q, sizeof(q), silence);
	fmt_seconds(lim, sizeof(lim), watch_limit_s(w));
	/* Most telling first: a narrow terminal cuts the end. */
	buf_printf(&b, "[%zu/%zu] %s, quiet %s of %s, %.0f%% of the good run", wh.k, wh.n,
		   wh.at ? dx_milestone_name(&w->d, wh.at) : "nothing yet", q, lim,
		   100.0 * w->d.good_fraction);
	if (wh.next) {
		buf_printf(&b, "; next %s", dx_milestone_name(&w->d, wh.next));
		if (!isnan(wh.next->good_off_s))
			buf_printf(&b, " (good +%.0f s)", wh.next->good_off_s);
	}
	struct winsize ws;
	size_t cols = ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 10 ? ws.ws_col : 80;
	size_t len = b.len;
	if (len > cols - 1) {
		len = cols - 1;
		while (len > 0 && ((unsigned char)b.p[len] & 0xc0) == 0x80)
			len--;
	}
	fputs("\r\033[K", stderr);
	put_text(stderr, b.p, len);
	fflush(stderr);
	v->status_shown = 1;
	buf_free(&b);
}

/* The start: the good run watched against, how far it went, and what its
 * check found. */
static void say_start(struct view *v)
{
	const struct out *o = v->o;
	const struct watch *w = v->w;
	const struct dx_milestone *fin = dx_final_milestone(&w->d);
	const char *good = w->logs[w->d.good].in.path;
	say_path(v, "watching ", " against ");
	put_text(o->f, good, strlen(good));
	if (fin) {
		struct watch_where wh;
		watch_where(&w->d, &wh);
		fprintf(o->f, ": %zu milestones, the last ", wh.n);
		say_name(o, dx_milestone_name(&w->d, fin));
		say_offset(o, " at ", fin->good_off_s);
		fputs(" into it", o->f);
	}
	fputc('\n', o->f);
	for (size_t k = 0; k < w->nws; k++) {
		fprintf(o->f, "%swarning:%s ", SGR_RED(o), SGR_RESET(o));
		put_text(o->f, w->ws[k].text, strlen(w->ws[k].text));
		fputc('\n', o->f);
	}
}

/* What the watch tells, said (watch_run's say). */
static void hear(void *ctx, const struct watch_event *ev)
{
	struct view *v = ctx;
	const struct out *o = v->o;
	switch (ev->what) {
	case WATCH_WAITING:
		say_path(v, "waiting for '", "' to appear\n");
		break;
	case WATCH_TRUNCATED:
		say_path(v, "'", "' was truncated: reading it again from its start\n");
		break;
	case WATCH_ROTATED:
		say_path(v, "'", "' is a new file (rotated or replaced): reading it from its start\n");
		break;
	case WATCH_GONE:
		say_path(v, "'", "' was removed or renamed: following the file still open\n");
		break;
	case WATCH_NEW_FILE:
		clear_status(v);
		fputs("'", o->f);
		put_text(o->f, ev->file, strlen(ev->file));
		fputs("' is a new file of the run: following it too\n", o->f);
		fflush(o->f);
		break;
	case WATCH_STARTED:
		say_start(v);
		break;
	case WATCH_ANALYSED:
		announce(v);
		break;
	case WATCH_QUIET:
		draw_status(v, ev->silence);
		break;
	}
}

/* The end: a sentence, then the report `ddx diff` would print.  kind is
 * what happened ("HUNG", "CRASHED", "TIMED OUT"), detail the numbers
 * after it; who holds the log may tell more (STOPPED, ROTATED AWAY). */
static int finish_bad(struct view *v, const char *kind, const char *detail)
{
	const struct out *o = v->o;
	struct watch *w = v->w;
	clear_status(v);
	fflush(o->f);
	struct watch_holders h;
	watch_holders(w, &h);
	char rot_ago[32] = "";
	if (h.rotated_away) {
		kind = "ROTATED AWAY";
		if (!isnan(h.rot_silent_s))
			fmt_seconds(rot_ago, sizeof(rot_ago), h.rot_silent_s);
		detail = "";
	}
	if (h.exited && strcmp(kind, "HUNG") == 0)
		kind = "STOPPED";
	struct watch_where wh;
	watch_where(&w->d, &wh);
	fputs(SGR_BOLD(o), o->f);
	put_text(o->f, w->path, strlen(w->path));
	fprintf(o->f, " %s%s%s%s: ", SGR_RED(o), kind, detail, SGR_RESET(o));
	if (wh.at) {
		fputs("last milestone ", o->f);
		say_name(o, dx_milestone_name(&w->d, wh.at));
		fprintf(o->f, " (%zu of %zu, line %lld)", wh.k, wh.n, (long long)wh.at->bad_line + 1);
	} else {
		fprintf(o->f, "no milestone reached (of %zu)", wh.n);
	}
	fprintf(o->f, ", %zu lines%s", w->logs[w->ngood].nlines,
		h.exited ? "; nobody holds the log any more" : "");
	if (rot_ago[0])
		fprintf(o->f, "; its writer still holds the file rotated away from the path, "
			"written %s ago, which this watch no longer reads", rot_ago);
	fputs(".\n\n", o->f);
	/* The silence as the watch measured it, up to now, rather than
	 * diagnose's guess from when the log was last read; the verdict
	 * goes with it. */
	dx_set_silence(&w->d, wall_clock_s() - w->last_progress);
	/* The processes in full, not the summary diff gives: a watchdog
	 * may kill them next, and then nobody can look any more. */
	report_text(o, &w->d, w->logs, w->ngood + 1, NULL);
	if (h.found && h.report.nprocs) {
		fputc('\n', o->f);
		report_proc_text(o, &h.report);
	}
	watch_holders_free(&h);
	return EXIT_DIVERGED;
}

/* A watch that ended, end (not WATCH_UP), quiet for silence: the
 * sentence's numbers, then finish_bad. */
static int finish_end(struct view *v, int end, double silence)
{
	const struct watch *w = v->w;
	char q[32], gap[32], lim[32], detail[160];
	fmt_seconds(q, sizeof(q), silence);
	fmt_seconds(lim, sizeof(lim), watch_limit_s(w));
	double g = watch_allowed_gap(w);
	fmt_seconds(gap, sizeof(gap), g);
	if (end == WATCH_CRASHED)
		snprintf(detail, sizeof(detail), ", then quiet for %s", q);
	else if (end == WATCH_HUNG && isnan(g))
		snprintf(detail, sizeof(detail), ", no progress for %s (limit %s)", q, lim);
	else if (end == WATCH_HUNG && watch_limit_s(w) == w->d.good_step_s)
		snprintf(detail, sizeof(detail), ", no progress for %s (limit: the good runs' %s in this step)",
			 q, lim);
	else if (end == WATCH_HUNG)
		snprintf(detail, sizeof(detail), ", no progress for %s (limit %g x %s + %g s = %s)",
			 q, w->o.factor, gap, w->o.min_silence, lim);
	else
		snprintf(detail, sizeof(detail), " after %s, before the final milestone (not a hang)",
			 (fmt_seconds(q, sizeof(q), w->o.timeout), q));
	return finish_bad(v, end == WATCH_CRASHED ? "CRASHED" : end == WATCH_HUNG ? "HUNG" : "TIMED OUT",
			  detail);
}

static int finish_good(struct view *v)
{
	const struct out *o = v->o;
	const struct watch *w = v->w;
	clear_status(v);
	const struct dx_milestone *fin = dx_final_milestone(&w->d);
	fprintf(o->f, "%s%s", SGR_BOLD(o), SGR_GREEN(o));
	put_text(o->f, w->path, strlen(w->path));
	fprintf(o->f, "%s reached the final milestone ", SGR_RESET(o));
	say_name(o, dx_milestone_name(&w->d, fin));
	fprintf(o->f, " at line %lld", (long long)fin->bad_line + 1);
	say_offset(o, ", ", fin->bad_off_s);
	say_offset(o, " (good run: ", fin->good_off_s);
	fputs(isnan(fin->good_off_s) ? "" : ")", o->f);
	if (w->d.verdict == DX_DIFFERENT)
		fprintf(o->f, "; it differs from the good runs: %zu new findings, %zu changed values, "
			"%zu slow steps (ddx diff tells)", w->d.nnovel, w->d.nchanged, w->d.nslow);
	/* A straggler is named here too: a healthy end may hide a slow rank. */
	for (size_t k = 0; k < w->d.nslow; k++)
		if (w->d.slow[k].rank) {
			fputs("; ", o->f);
			put_text(o->f, w->d.slow[k].rank, strlen(w->d.slow[k].rank));
			fprintf(o->f, " took %.1f s over a step its peers took in %.2f s (line %lld)",
				w->d.slow[k].bad_s, w->d.slow[k].peers_s, (long long)w->d.slow[k].to_bad + 1);
			break;
		}
	if (w->d.verdict == DX_FAILED)
		fprintf(o->f, "; but a step failed on the way, at line %lld (ddx diff tells)",
			(long long)w->d.novel[w->d.crash].summary + 1);
	/* Good runs all in doubt are no goal to reach: their last milestone
	 * may be where they crashed or hung. */
	if (w->all_doubted)
		fputs("; but every good run is in doubt (see the warnings): no success", o->f);
	fputs(".\n", o->f);
	return w->all_doubted || w->d.verdict == DX_FAILED ? EXIT_DIVERGED : EXIT_SAME;
}

/* Watch w, saying what happens on o: the exit status. */
static int show(struct watch *w, const struct out *o)
{
	struct view v = { .w = w, .o = o, .status = isatty(STDERR_FILENO) };
	double silence;
	int end = watch_run(w, hear, &v, &silence);
	int rc = end < 0 ? EXIT_TROUBLE : end == WATCH_UP ? finish_good(&v) :
		 finish_end(&v, end, silence);
	clear_status(&v);
	strv_free(v.said, v.nsaid);
	return rc;
}

/* What the command line says. */
struct args {
	struct watch_opts o;
	struct diff_args a;    /* --rules and --sample mean what they mean for diff */
	char **refs;           /* the good logs named */
	size_t nrefs;
	const char *baseline, *store;
};

/* The options, into g; the arguments after LOG are more good logs
 * (`--ref A B C`).  Returns 0, or -1 after an error. */
static int parse_args(int argc, char **argv, struct args *g)
{
	static const struct option opts[] = {
		{ "ref", required_argument, NULL, 'g' },
		{ "factor", required_argument, NULL, 'f' },
		{ "min-silence", required_argument, NULL, 'm' },
		{ "timeout", required_argument, NULL, 't' },
		{ "interval", required_argument, NULL, 'i' },
		{ "sample", required_argument, NULL, 's' },
		{ "rules", required_argument, NULL, 'r' },
		{ "baseline", required_argument, NULL, 'b' },
		{ "store", required_argument, NULL, 'S' },
		{ "one-run", no_argument, NULL, 'O' },
		{ NULL, 0, NULL, 0 },
	};
	double x;
	int c;
	while ((c = cmd_getopt(argc, argv, "", opts, &cmd_watch_entry)) != -1) {
		switch (c) {
		case 'g': g->refs[g->nrefs++] = optarg; break;
		case 'b': g->baseline = optarg; break;
		case 'S': g->store = optarg; break;
		case 'f': {
			char *end;
			g->o.factor = strtod(optarg, &end);
			if (end == optarg || *end || !(g->o.factor >= 0) || isinf(g->o.factor))
				return error("invalid --factor '%s' (expected a number such as 5 or 2.5)", optarg);
			break;
		}
		case 'm':
			if ((g->o.min_silence = parse_duration(optarg)) < 0)
				return error("invalid --min-silence '%s' (expected e.g. 60s, 2m or 500ms)", optarg);
			break;
		case 't':
			if ((g->o.timeout = parse_duration(optarg)) <= 0)
				return error("invalid --timeout '%s' (expected e.g. 30m, 1h or 90s)", optarg);
			break;
		case 'i':
			if ((x = parse_duration(optarg)) <= 0 || x > 3600)
				return error("invalid --interval '%s' (expected e.g. 1s or 200ms)", optarg);
			g->o.interval_ms = x * 1000 < 1 ? 1 : (int)(x * 1000);
			break;
		default:
			if (diff_option(c, optarg, &g->a) <= 0)
				return -1;
		}
	}
	for (int i = optind + 1; i < argc; i++)
		g->refs[g->nrefs++] = argv[i];
	return 0;
}

static int watch(int argc, char **argv, const struct out *out)
{
	struct args g = { .o = { .factor = 5, .min_silence = 60, .interval_ms = 1000 } };
	diff_args_init(&g.a, default_jobs(), out);
	g.refs = xcalloc((size_t)argc + 1, sizeof(*g.refs));
	struct input *stored = NULL;
	int rc = EXIT_TROUBLE;
	if (parse_args(argc, argv, &g) < 0)
		goto out;
	if (g.baseline) {
		/* The good runs of a stored baseline, instead of files. */
		if (g.nrefs) {
			usage_error(&cmd_watch_entry, "give either --baseline or good logs, not both");
			goto out;
		}
		if (baseline_open(g.store, g.baseline, DIFF_MAX_LOGS - 1, &stored, &g.nrefs) < 0)
			goto out;
	}
	if (optind >= argc || g.nrefs == 0) {
		usage_error(&cmd_watch_entry, optind >= argc ? "watch needs the LOG to watch"
			    : "watch needs good runs to compare with: --ref GOOD... or --baseline NAME");
		goto out;
	}
	if (g.nrefs + 1 > DIFF_MAX_LOGS) {
		error("too many good logs (%zu): at most %d", g.nrefs, DIFF_MAX_LOGS - 1);
		goto out;
	}
	const char *path = argv[optind];
	if (strcmp(path, "-") == 0) {
		error("cannot follow standard input: give the log's path");
		goto out;
	}
	if (!*path) {
		/* No file ever appears by that name: do not wait for one. */
		error("the log's path is empty");
		goto out;
	}
	if (source_is_remote(path)) {
		error("cannot follow '%s': it lives elsewhere (run ddx watch on that host)", path);
		goto out;
	}
	struct ruleset rs = { 0 };
	if (rules_init(&rs, g.a.rules, g.a.nrules) == 0) {
		g.o.rs = &rs;
		g.o.jobs = g.a.jobs;
		g.o.run_flags = g.a.run_flags;
		g.o.po = g.a.po;
		struct watch w;
		watch_init(&w, path, &g.o, stored ? NULL : g.refs, stored, g.nrefs);
		stored = NULL;
		rc = show(&w, out);
		watch_free(&w);
	}
	rules_free(&rs);
out:
	diff_args_free(&g.a);
	for (size_t i = 0; stored && i < g.nrefs; i++)
		input_close(&stored[i]);
	free(stored);
	free(g.refs);
	return rc;
}

const struct cmd cmd_watch_entry = {
	.name = "watch",
	.run = watch,
	.usage = "[OPTIONS] LOG --ref GOOD [GOOD...] | --baseline NAME",
	.help =
	"Follow LOG while a run writes it, against logs of good runs: print a\n"
	"line for each milestone it reaches (k of n, where the good run was at\n"
	"it, the next one and when the good run reached it), and on a terminal\n"
	"a status line on stderr.  Follows the log through truncation, rotation\n"
	"and renaming; LOG may be a folder, one run of the files in it (those\n"
	"that appear too), as for diff.  Ends when the run reaches the good run's final milestone\n"
	"(exit 0), or when it hangs: no line but heartbeats for longer than\n"
	"FACTOR times the good runs' longest gap at that point plus the\n"
	"minimum silence; or when it crashed and stayed quiet for the minimum\n"
	"silence; or at the timeout.  Then it prints the report `ddx diff`\n"
	"would and what `ddx proc` says of the processes that hold the log,\n"
	"and exits 1.  The good logs are checked first, as `ddx diff` checks\n"
	"them: those found wanting are named and left out while others remain.\n"
	"\n"
	"  --ref GOOD        a log of a good run, a regular file (repeatable;\n"
	"                    more GOODs may follow LOG)\n"
	"  --baseline NAME [--store PATH]\n"
	"                    the good runs of a stored baseline instead\n"
	"  --factor F        times the good runs' longest gap (default 5)\n"
	"  --min-silence T   plus this much quiet (default 60s; 500ms, 2m)\n"
	"  --timeout T       give up after T (default never): exit 1, with a\n"
	"                    message saying it is not a hang\n"
	"  --interval T      look at the log every T (default 1s)\n"
	"  --sample T        CPU sample of the processes on a hang (default 1s)\n"
	"  --rules FILE      add or override milestone rules (none: of the\n"
	"                    built-in rules only the generic words)\n"
	"  --one-run         read a folder of several whole runs as one\n"
	"\n"
	"As a startup watchdog:\n"
	"  server ... >log 2>&1 & ddx watch log --ref good.log || kill $!\n",
	.status = "0 when the run reached the good run's final milestone,\n1 on a hang, a crash or the timeout",
};
