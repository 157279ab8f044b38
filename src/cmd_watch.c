/* cmd_watch.c — `ddx watch LOG --ref GOOD...`: follow a growing log
 * against good runs, say where the run is, and call a hang when it has
 * been quiet for longer than the good runs ever were at that point.
 *
 * Trusting.  The good logs are checked once, before the watch starts, as
 * `ddx diff` checks them (goodcheck_select): the same runs are left out,
 * the same warnings said.  They must be regular files: a FIFO would block
 * the watch before its --timeout could hold.
 *
 * Following.  follow.c reads the log by path, incrementally, into one
 * buffer that holds everything read so far, across truncation, rotation
 * and removal, so the run's earlier milestones stay reached.  A folder
 * (a file per rank or node) is one run, as for `ddx diff`: each poll
 * lists it and looks at its files' sizes and times, files that appear
 * included; an analysis reads them all again (log_open_run), merged.
 *
 * Analysing.  When the buffer grew, the whole pipeline runs again over the
 * good logs and the buffer, exactly as `ddx diff` does (log_load,
 * diagnose): simple, and for a startup log of a few thousand lines a few
 * milliseconds.  For a log that grows without end, an analysis waits at
 * least nine times as long as the previous one took after it, so the
 * analyses take at most a tenth of the time, however long the log gets.
 *
 * Deciding.  Progress is a new line that is not a heartbeat (diagnose
 * tells them apart); the wall clock since the last progress is the
 * silence.  A hang is a silence longer than --factor times the good runs'
 * longest gap after the point the run reached (see allowed_gap), plus
 * --min-silence.  A
 * crash (a new error after which the run made no progress) ends the watch
 * once it has been quiet for --min-silence.  Reaching the good run's final
 * milestone ends it with success.
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
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "baseline.h"
#include "cmd.h"
#include "diagnose.h"
#include "diffrun.h"
#include "follow.h"
#include "goodcheck.h"
#include "log.h"
#include "report_proc.h"
#include "report.h"
#include "rules.h"
#include "terminal.h"

/* The files of a watched folder asked after for their writers, at most:
 * each is a walk over every process's descriptors. */
#define FOLDER_INSPECT_MAX 16
/* An analysis waits this many times its predecessor's cost after it. */
#define THROTTLE 9

struct watch {
	const char *path;
	char **good_paths;     /* good logs to open once the watch starts */
	struct input *goods;   /* the good logs, opened: the first ngood, those
				* kept after the check, loaded at each analysis */
	size_t ngood, nopen;   /* goods kept, goods open */
	int all_doubted;       /* every good run was found wanting (goodcheck.h),
				* and kept: no goal to reach */
	struct dx_warning *ws; /* what was found, said at the start and in the
				* report */
	size_t nws;
	const struct ruleset *rs;
	double factor, min_silence, timeout;
	int interval_ms, jobs;
	struct live_opts po;
	struct follow f;       /* a file's */
	int folder;            /* path is a folder: its files are the run */
	char **files;          /* a folder's files at the last poll */
	size_t nfiles;
	int polled;            /* a folder was listed once */
	uint64_t stamp;        /* what was read: a folder's files' names,
				* sizes and times, hashed; a file's length */
	double folder_mtime;   /* a folder's newest file's, seconds */
	int status;            /* stderr is a terminal: draw a status line */
	int status_shown;
	double start;          /* wall clock, seconds */
	double last_read;      /* when the buffer last grew */
	double last_progress;  /* when its last non-heartbeat line came */
	int64_t progress_line; /* that line, as of the last analysis */
	uint64_t analysed;     /* stamp at the last analysis */
	int64_t next_ms;       /* monotonic: no analysis before this */
	int have;              /* the fields below hold an analysis */
	struct tmpl_table tt;
	struct log *logs;      /* goods, then the watched log */
	struct diagnosis d;
	dev_t rot_dev;         /* the file last rotated away from the path */
	ino_t rot_ino;         /* 0: none */
	char **said;           /* milestones announced, by name */
	size_t nsaid, saidcap;
};

/* ---- output ---- */

static void clear_status(struct watch *w)
{
	if (w->status_shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		w->status_shown = 0;
	}
}

/* A progress line on stdout, the status line out of its way, naming the
 * log: before, its path, after.  The path is untrusted like log text (a
 * glob in a hostile directory names it). */
static void say_path(struct watch *w, const char *before, const char *after)
{
	clear_status(w);
	fputs(before, stdout);
	put_text(stdout, w->path, strlen(w->path));
	fputs(after, stdout);
	fflush(stdout);
}

/* Untrusted text (a learned milestone is a log line's template) in a
 * progress line. */
static void say_name(const char *s)
{
	putchar('"');
	put_text(stdout, s, strlen(s) > 80 ? 80 : strlen(s));
	putchar('"');
}

/* ---- following ---- */

/* Whether the sorted (natural order) list has path. */
static int listed(char **list, size_t n, const char *path)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(list[i], path) == 0)
			return 1;
	return 0;
}

/* One poll of a folder: its files now, their sizes and times hashed into
 * w->stamp; a file that appeared after the first poll is said. */
static int poll_folder(struct watch *w)
{
	char **files;
	size_t n;
	if (input_list_folder(w->path, &files, &n) < 0)
		return -1;
	uint64_t stamp = hash_bytes(&n, sizeof(n));
	double newest = -1;
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		uint64_t v[3] = { hash_bytes(files[i], strlen(files[i])) };
		if (stat(files[i], &st) == 0) {
			v[1] = (uint64_t)st.st_size;
			v[2] = (uint64_t)st.st_mtim.tv_sec * 1000000000u + (uint64_t)st.st_mtim.tv_nsec;
			double t = (double)st.st_mtim.tv_sec + st.st_mtim.tv_nsec / 1e9;
			newest = t > newest ? t : newest;
		}
		stamp = stamp * 31 + hash_bytes(v, sizeof(v));
		if (w->polled && !listed(w->files, w->nfiles, files[i])) {
			clear_status(w);
			fputs("'", stdout);
			put_text(stdout, files[i], strlen(files[i]));
			fputs("' is a new file of the run: following it too\n", stdout);
			fflush(stdout);
		}
	}
	strv_free(w->files, w->nfiles);
	w->files = files;
	w->nfiles = n;
	w->stamp = stamp;
	w->folder_mtime = newest;
	w->polled = 1;
	return 0;
}

/* One poll of the log, saying what happened to it. */
static int poll_log(struct watch *w)
{
	if (w->folder)
		return poll_folder(w);
	unsigned ev;
	dev_t dev = w->f.dev;
	ino_t ino = w->f.ino;
	int had = w->f.fd >= 0;
	int rc = follow_poll(&w->f, &ev);
	if ((ev & FOLLOW_ROTATED) && had) {
		/* Its writer may go on writing it (a rotation that did not
		 * tell the writer): asked after on a hang. */
		w->rot_dev = dev;
		w->rot_ino = ino;
	}
	if (ev & FOLLOW_WAITING)
		say_path(w, "waiting for '", "' to appear\n");
	if (ev & FOLLOW_TRUNCATED)
		say_path(w, "'", "' was truncated: reading it again from its start\n");
	if (ev & FOLLOW_ROTATED)
		say_path(w, "'", "' is a new file (rotated or replaced): reading it from its start\n");
	if (ev & FOLLOW_GONE)
		say_path(w, "'", "' was removed or renamed: following the file still open\n");
	w->stamp = w->f.text.len;
	return rc;
}

/* The good logs given as files, opened once the log was first polled (a
 * FIFO or a device refused: see diff_open_goods), then checked as `ddx
 * diff` checks them, once, since they do not change: those found wanting
 * (goodcheck_select) are named in warnings and left out while others
 * remain, moved past the first ngood goods (open, as the warnings point
 * at their names). */
static int open_goods(struct watch *w)
{
	size_t n = w->ngood;
	if (w->good_paths && diff_open_goods(w->good_paths, n, w->goods, w->jobs) < 0)
		return -1;
	w->nopen = n;
	struct tmpl_table tt;
	tmpl_init(&tt);
	struct log *logs = xcalloc(n, sizeof(*logs));
	for (size_t i = 0; i < n; i++) {
		struct input good;
		input_borrow(&good, &w->goods[i]);
		log_load_input(&logs[i], &good, (int)i, LOG_FULL, w->jobs, &tt);
	}
	uint8_t *doubted = xcalloc(n, 1);
	size_t *keep = xmalloc(n * sizeof(*keep)), nkeep;
	size_t ndoubted = goodcheck_select(logs, n, &tt, w->rs, doubted, keep, &nkeep, &w->ws,
					   &w->nws);
	w->all_doubted = ndoubted && ndoubted == n;
	/* The warnings name the goods' inputs, which outlive logs. */
	for (size_t k = 0; k < w->nws; k++)
		for (size_t g = 0; g < n; g++)
			if (w->ws[k].path == logs[g].in.path)
				w->ws[k].path = w->goods[g].path;
	struct input *order = xmalloc(n * sizeof(*order));
	size_t m = 0;
	for (size_t k = 0; k < nkeep; k++)
		order[m++] = w->goods[keep[k]];
	for (size_t g = 0; g < n && nkeep < n; g++)
		if (doubted[g])
			order[m++] = w->goods[g];
	memcpy(w->goods, order, n * sizeof(*order));
	w->ngood = nkeep;
	free(order);
	free(keep);
	free(doubted);
	for (size_t i = 0; i < n; i++)
		log_free(&logs[i]);
	free(logs);
	tmpl_free(&tt);
	return 0;
}

/* ---- analysing ---- */

static void drop_analysis(struct watch *w)
{
	if (!w->have)
		return;
	diagnosis_free(&w->d);
	for (size_t i = 0; i <= w->ngood; i++)
		log_free(&w->logs[i]);
	tmpl_free(&w->tt);
	w->have = 0;
}

/* Run the pipeline over the good logs and what was read, as `ddx diff`
 * does.  Returns 0, or -1 after printing an error. */
static int analyse(struct watch *w)
{
	int64_t t0 = now_ms();
	drop_analysis(w);
	tmpl_init(&w->tt);
	size_t n = 0;
	for (; n < w->ngood; n++) {
		struct input good;
		input_borrow(&good, &w->goods[n]);
		log_load_input(&w->logs[n], &good, (int)n, LOG_FULL, w->jobs, &w->tt);
	}
	struct input in;
	int rc;
	if (w->folder && w->nfiles) {
		rc = log_open_run(&in, w->path, w->jobs);
	} else {
		/* A folder without files yet is a run that printed nothing. */
		char *copy = xmalloc(w->f.text.len + 1);
		memcpy(copy, w->f.text.p ? w->f.text.p : "", w->f.text.len);
		rc = input_from_memory(&in, w->path, copy, w->f.text.len, (time_t)w->last_read);
	}
	if (rc < 0) {
		while (n-- > 0)
			log_free(&w->logs[n]);
		tmpl_free(&w->tt);
		return -1;
	}
	log_load_input(&w->logs[n], &in, (int)n, LOG_FULL, w->jobs, &w->tt);
	struct dx_options o = { .now_ms = TS_NONE };
	diagnose(w->logs, w->ngood + 1, &w->tt, w->rs, &o, &w->d);
	w->d.warnings = w->ws;
	w->d.nwarnings = w->nws;
	w->have = 1;
	w->analysed = w->stamp;
	int64_t t1 = now_ms();
	w->next_ms = t1 + THROTTLE * (t1 - t0);
	return 0;
}

/* The milestones that count: those rules name when there are any (the
 * learned ones are then mostly incidental lines), else all. */
static int counts(const struct diagnosis *d, const struct dx_milestone *m)
{
	for (size_t k = 0; k < d->nms; k++)
		if (d->ms[k].name)
			return m->name != NULL;
	return 1;
}

struct where {
	size_t n, k;                     /* k of n reached (the furthest) */
	const struct dx_milestone *at;   /* the furthest reached, or NULL */
	const struct dx_milestone *next; /* the next one after it, or NULL */
};

static void where_is(const struct diagnosis *d, struct where *wh)
{
	memset(wh, 0, sizeof(*wh));
	for (size_t m = 0; m < d->nms; m++) {
		if (!counts(d, &d->ms[m]))
			continue;
		wh->n++;
		if (d->ms[m].bad_line >= 0) {
			wh->k = wh->n;
			wh->at = &d->ms[m];
			wh->next = NULL;
		} else if (!wh->next) {
			wh->next = &d->ms[m];
		}
	}
}

static int said(const struct watch *w, const char *name)
{
	for (size_t i = 0; i < w->nsaid; i++)
		if (strcmp(w->said[i], name) == 0)
			return 1;
	return 0;
}

/* " at +41.2 s" when the offset is known. */
static void say_offset(const char *what, double s)
{
	if (!isnan(s))
		printf("%s+%.1f s", what, s);
}

/* One line per milestone reached since the last analysis, in the good
 * run's order, with where the good run was at it and what comes next. */
static void announce(struct watch *w)
{
	const struct diagnosis *d = &w->d;
	size_t n = 0, k = 0;
	for (size_t m = 0; m < d->nms; m++)
		n += counts(d, &d->ms[m]);
	for (size_t m = 0; m < d->nms; m++) {
		const struct dx_milestone *ms = &d->ms[m];
		if (!counts(d, ms))
			continue;
		k++;
		const char *name = dx_milestone_name(d, ms);
		if (ms->bad_line < 0 || said(w, name))
			continue;
		GROW(w->said, w->saidcap, w->nsaid + 1);
		w->said[w->nsaid++] = xstrdup(name);
		clear_status(w);
		printf("[%zu/%zu] ", k, n);
		say_name(name);
		printf(" at line %lld", (long long)ms->bad_line + 1);
		say_offset(", ", ms->bad_off_s);
		printf(" (good run: line %lld, %.0f%%", (long long)ms->good_line + 1,
		       100.0 * (double)(ms->good_line + 1) / (double)d->good_log->nlines);
		say_offset(", ", ms->good_off_s);
		printf(")");
		for (size_t x = m + 1; x < d->nms; x++)
			if (counts(d, &d->ms[x])) {
				printf("; next ");
				say_name(dx_milestone_name(d, &d->ms[x]));
				say_offset(" at good ", d->ms[x].good_off_s);
				break;
			}
		putchar('\n');
	}
	fflush(stdout);
}

/* The quiet the good run allows where the run is: the longest gap
 * diagnose found after the good line the run reached, or, when longer,
 * the longest gap in the good run between the milestone the run reached
 * last and the next one.  The second guards against a step that lines up
 * with a later, shorter one (a run that compiles twice: the profiling run
 * after the first compile took ten minutes, after the second one second).
 * NAN when the logs have no timestamps. */
static double allowed_gap(const struct watch *w)
{
	if (!w->have)
		return NAN;
	const struct diagnosis *d = &w->d;
	const struct log *g = d->good_log;
	struct where wh;
	where_is(d, &wh);
	double gap = d->good_gap_s;
	int64_t prev = TS_NONE;
	int64_t end = wh.next ? wh.next->good_line : -1;
	for (int64_t j = wh.at ? wh.at->good_line : 0; j <= end; j++) {
		if (g->ts[j] == TS_NONE)
			continue;
		/* prev is TS_NONE (INT64_MIN) at the first timestamp: no gap,
		 * and no subtraction, which would overflow. */
		double x = prev != TS_NONE ? (double)(g->ts[j] - prev) / 1000.0 : NAN;
		if (!isnan(x) && (isnan(gap) || x > gap))
			gap = x;
		prev = g->ts[j];
	}
	return gap;
}

/* The silence after which the run counts as hung, at the point it is. */
static double limit_s(const struct watch *w)
{
	double gap = allowed_gap(w);
	return w->factor * (isnan(gap) ? 0 : gap) + w->min_silence;
}

static void draw_status(struct watch *w, double silence)
{
	if (!w->status || !w->have)
		return;
	struct where wh;
	where_is(&w->d, &wh);
	struct buf b = { 0 };
	char q[32], lim[32];
	fmt_seconds(q, sizeof(q), silence);
	fmt_seconds(lim, sizeof(lim), limit_s(w));
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
	w->status_shown = 1;
	buf_free(&b);
}

/* The end: a sentence, then the report `ddx diff` would print.  kind is
 * what happened ("HUNG", "CRASHED", "TIMED OUT"), detail the numbers
 * after it. */
static int finish_bad(struct watch *w, const char *kind, const char *detail)
{
	clear_status(w);
	fflush(stdout);
	/* The processes, against the same reference the watch used. */
	struct live_opts po = w->po;
	live_set_ref(&po, allowed_gap(w), w->factor, w->min_silence);
	po.silent_s = wall_clock_s() - w->last_progress;
	/* A folder's files are held each by its own writer: the processes
	 * of the first of them (of the first few) still held, else of the
	 * first; looked for without sampling CPU, which takes time. */
	const char *held = w->folder ? (w->nfiles ? w->files[0] : NULL) : w->path;
	struct live_opts quick = po;
	quick.sample_ms = 0;
	for (size_t i = 0; w->folder && i < w->nfiles && i < FOLDER_INSPECT_MAX; i++) {
		struct live_report r;
		if (live_inspect(w->files[i], &quick, &r) < 0)
			continue;
		int found = strcmp(r.liveness, "exited") != 0;
		live_report_free(&r);
		if (found) {
			held = w->files[i];
			break;
		}
	}
	struct live_report pr, *live = NULL;
	if (held && live_inspect(held, &po, &pr) == 0)
		live = &pr;
	/* Quiet because whoever wrote the log is gone is no hang. */
	int exited = live && strcmp(live->liveness, "exited") == 0;
	/* Unless the writer writes on into the file rotated away from the
	 * path, which the watch no longer reads: then it cannot tell. */
	struct live_report rot;
	char rot_ago[32] = "";
	if (exited && w->rot_ino) {
		struct live_opts ro = w->po;
		ro.ident_dev = w->rot_dev;
		ro.ident_ino = w->rot_ino;
		if (live_inspect(w->path, &ro, &rot) == 0) {
			if (strcmp(rot.liveness, "exited") != 0 && strcmp(rot.liveness, "unknown") != 0) {
				live_report_free(live);
				pr = rot;
				exited = 0;
				kind = "ROTATED AWAY";
				if (!isnan(rot.silent_s))
					fmt_seconds(rot_ago, sizeof(rot_ago), rot.silent_s);
				detail = "";
			} else {
				live_report_free(&rot);
			}
		}
	}
	if (exited && strcmp(kind, "HUNG") == 0)
		kind = "STOPPED";
	struct where wh;
	where_is(&w->d, &wh);
	fputs(C_BOLD, stdout);
	put_text(stdout, w->path, strlen(w->path));
	printf(" %s%s%s%s: ", C_RED, kind, detail, C_RESET);
	if (wh.at) {
		printf("last milestone ");
		say_name(dx_milestone_name(&w->d, wh.at));
		printf(" (%zu of %zu, line %lld)", wh.k, wh.n, (long long)wh.at->bad_line + 1);
	} else {
		printf("no milestone reached (of %zu)", wh.n);
	}
	printf(", %zu lines%s", w->logs[w->ngood].nlines,
	       exited ? "; nobody holds the log any more" : "");
	if (rot_ago[0])
		printf("; its writer still holds the file rotated away from the path, written %s ago,"
		       " which this watch no longer reads", rot_ago);
	printf(".\n\n");
	/* The silence as the watch measured it, up to now, rather than
	 * diagnose's guess from when the log was last read. */
	w->d.silent_s = wall_clock_s() - w->last_progress;
	/* The processes in full, not the summary diff gives: a watchdog
	 * may kill them next, and then nobody can look any more. */
	report_text(stdout, &w->d, w->logs, w->ngood + 1, NULL, (size_t)term_width());
	if (live && live->nprocs) {
		putchar('\n');
		report_proc_text(stdout, live);
	}
	live_report_free(live);
	return EXIT_DIVERGED;
}

static int finish_good(struct watch *w)
{
	clear_status(w);
	const struct dx_milestone *fin = dx_final_milestone(&w->d);
	printf("%s%s", C_BOLD, C_GREEN);
	put_text(stdout, w->path, strlen(w->path));
	printf("%s reached the final milestone ", C_RESET);
	say_name(dx_milestone_name(&w->d, fin));
	printf(" at line %lld", (long long)fin->bad_line + 1);
	say_offset(", ", fin->bad_off_s);
	say_offset(" (good run: ", fin->good_off_s);
	printf("%s", isnan(fin->good_off_s) ? "" : ")");
	if (w->d.verdict == DX_DIFFERENT)
		printf("; it differs from the good runs: %zu new findings, %zu changed values, %zu slow steps"
		       " (ddx diff tells)", w->d.nnovel, w->d.nchanged, w->d.nslow);
	/* Good runs all in doubt are no goal to reach: their last milestone
	 * may be where they crashed or hung. */
	if (w->all_doubted)
		printf("; but every good run is in doubt (see the warnings): no success");
	printf(".\n");
	return w->all_doubted ? EXIT_DIVERGED : EXIT_SAME;
}

/* After an analysis: did the run make progress, is it up? */
static void took_in(struct watch *w, int first, double mtime)
{
	const struct diagnosis *d = &w->d;
	if (d->last_progress != w->progress_line) {
		w->progress_line = d->last_progress;
		w->last_progress = w->last_read;
		/* Watching a log that was already quiet: heartbeats since
		 * its last step do not make it fresher. */
		if (first && d->last_ts_bad != TS_NONE && d->last_progress_ts != TS_NONE)
			w->last_progress = mtime - (double)(d->last_ts_bad - d->last_progress_ts) / 1000.0;
	}
	announce(w);
}

static int watch_loop(struct watch *w)
{
	w->start = wall_clock_s();
	w->last_read = w->last_progress = w->start;
	w->progress_line = DX_NONE;
	if (poll_log(w) < 0)
		return EXIT_TROUBLE;
	double mtime = w->folder ? w->folder_mtime : w->f.text.len ? follow_mtime(&w->f) : -1;
	if (mtime < 0)
		mtime = w->start;
	w->last_read = mtime;
	if (open_goods(w) < 0 || analyse(w) < 0)
		return EXIT_TROUBLE;
	const struct dx_milestone *fin = dx_final_milestone(&w->d);
	const char *good = w->logs[w->d.good].in.path;
	say_path(w, "watching ", " against ");
	put_text(stdout, good, strlen(good));
	if (fin) {
		struct where wh;
		where_is(&w->d, &wh);
		printf(": %zu milestones, the last ", wh.n);
		say_name(dx_milestone_name(&w->d, fin));
		say_offset(" at ", fin->good_off_s);
		printf(" into it");
	}
	printf("\n");
	for (size_t k = 0; k < w->nws; k++) {
		printf("%swarning:%s ", C_RED, C_RESET);
		put_text(stdout, w->ws[k].text, strlen(w->ws[k].text));
		putchar('\n');
	}
	took_in(w, 1, mtime);
	for (;;) {
		if (w->d.verdict == DX_SAME || w->d.verdict == DX_DIFFERENT)
			return finish_good(w);
		double now = wall_clock_s(), silence = now - w->last_progress;
		int timed_out = w->timeout > 0 && now - w->start >= w->timeout;
		int crashed = w->d.verdict == DX_CRASHED && silence > w->min_silence;
		int hung = silence > limit_s(w);
		if ((timed_out || crashed || hung) && w->stamp != w->analysed) {
			/* Lines not analysed yet may be the progress that clears
			 * it. */
			if (analyse(w) < 0)
				return EXIT_TROUBLE;
			took_in(w, 0, now);
			continue;
		}
		if (crashed || hung || timed_out) {
			char q[32], gap[32], lim[32], detail[160];
			fmt_seconds(q, sizeof(q), silence);
			fmt_seconds(lim, sizeof(lim), limit_s(w));
			double g = allowed_gap(w);
			fmt_seconds(gap, sizeof(gap), g);
			if (crashed)
				snprintf(detail, sizeof(detail), ", then quiet for %s", q);
			else if (hung && isnan(g))
				snprintf(detail, sizeof(detail), ", no progress for %s (limit %s)", q, lim);
			else if (hung)
				snprintf(detail, sizeof(detail), ", no progress for %s (limit %g x %s + %g s = %s)",
					 q, w->factor, gap, w->min_silence, lim);
			else
				snprintf(detail, sizeof(detail), " after %s, before the final milestone (not a hang)",
					 (fmt_seconds(q, sizeof(q), w->timeout), q));
			return finish_bad(w, crashed ? "CRASHED" : hung ? "HUNG" : "TIMED OUT", detail);
		}
		draw_status(w, silence);
		/* Wake for the timeout, not an interval later. */
		int64_t ms = w->interval_ms;
		if (w->timeout > 0 && (w->start + w->timeout - now) * 1000 < ms)
			ms = (int64_t)((w->start + w->timeout - now) * 1000) + 1;
		struct timespec ts = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000L };
		nanosleep(&ts, NULL);
		uint64_t before = w->stamp;
		if (poll_log(w) < 0)
			return EXIT_TROUBLE;
		if (w->stamp != before)
			w->last_read = wall_clock_s();
		if (w->stamp != w->analysed && now_ms() >= w->next_ms) {
			if (analyse(w) < 0)
				return EXIT_TROUBLE;
			took_in(w, 0, w->last_read);
		}
	}
}

static int watch(int argc, char **argv)
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
		{ NULL, 0, NULL, 0 },
	};
	struct watch w = { .factor = 5, .min_silence = 60, .interval_ms = 1000 };
	/* --rules and --sample mean what they mean for diff. */
	struct diff_args a;
	diff_args_init(&a, default_jobs());
	char **refs = xcalloc((size_t)argc + 1, sizeof(*refs));
	size_t nrefs = 0;
	const char *baseline = NULL, *store = NULL;
	struct input *stored = NULL;
	double x;
	int c, rc = EXIT_TROUBLE;
	while ((c = cmd_getopt(argc, argv, "", opts, &cmd_watch_entry)) != -1) {
		switch (c) {
		case 'g': refs[nrefs++] = optarg; break;
		case 'b': baseline = optarg; break;
		case 'S': store = optarg; break;
		case 'f': {
			char *end;
			w.factor = strtod(optarg, &end);
			if (end == optarg || *end || !(w.factor >= 0) || isinf(w.factor)) {
				error("invalid --factor '%s' (expected a number such as 5 or 2.5)", optarg);
				goto out;
			}
			break;
		}
		case 'm':
			if ((w.min_silence = parse_duration(optarg)) < 0) {
				error("invalid --min-silence '%s' (expected e.g. 60s, 2m or 500ms)", optarg);
				goto out;
			}
			break;
		case 't':
			if ((w.timeout = parse_duration(optarg)) <= 0) {
				error("invalid --timeout '%s' (expected e.g. 30m, 1h or 90s)", optarg);
				goto out;
			}
			break;
		case 'i':
			if ((x = parse_duration(optarg)) <= 0 || x > 3600) {
				error("invalid --interval '%s' (expected e.g. 1s or 200ms)", optarg);
				goto out;
			}
			w.interval_ms = x * 1000 < 1 ? 1 : (int)(x * 1000);
			break;
		default:
			if (diff_option(c, optarg, &a) <= 0)
				goto out;
		}
	}
	/* `--ref A B C`: the arguments after LOG are more good logs. */
	for (int i = optind + 1; i < argc; i++)
		refs[nrefs++] = argv[i];
	if (baseline) {
		/* The good runs of a stored baseline, instead of files. */
		if (nrefs) {
			usage_error(&cmd_watch_entry, "give either --baseline or good logs, not both");
			goto out;
		}
		if (baseline_open(store, baseline, DIFF_MAX_LOGS - 1, &stored, &nrefs) < 0)
			goto out;
	}
	if (optind >= argc || nrefs == 0) {
		usage_error(&cmd_watch_entry, optind >= argc ? "watch needs the LOG to watch"
			    : "watch needs good runs to compare with: --ref GOOD... or --baseline NAME");
		goto out;
	}
	if (nrefs + 1 > DIFF_MAX_LOGS) {
		error("too many good logs (%zu): at most %d", nrefs, DIFF_MAX_LOGS - 1);
		goto out;
	}
	w.path = argv[optind];
	if (strcmp(w.path, "-") == 0) {
		error("cannot follow standard input: give the log's path");
		goto out;
	}
	if (!*w.path) {
		/* No file ever appears by that name: do not wait for one. */
		error("the log's path is empty");
		goto out;
	}
	struct ruleset rs = { 0 };
	if (rules_init(&rs, a.rules, a.nrules) == 0) {
		w.rs = &rs;
		w.jobs = a.jobs;
		w.po = a.po;
		w.good_paths = stored ? NULL : refs;
		w.goods = stored ? stored : xcalloc(nrefs, sizeof(*w.goods));
		stored = NULL;
		w.ngood = nrefs;
		w.nopen = w.good_paths ? 0 : nrefs;
		w.logs = xcalloc(nrefs + 1, sizeof(*w.logs));
		follow_init(&w.f, w.path, INPUT_MAX_SIZE);
		w.folder = input_is_folder(w.path);
		w.status = isatty(STDERR_FILENO);
		rc = watch_loop(&w);
		clear_status(&w);
		follow_free(&w.f);
		strv_free(w.files, w.nfiles);
	}
	drop_analysis(&w);
	free(w.logs);
	for (size_t i = 0; i < w.nopen; i++)
		input_close(&w.goods[i]);
	free(w.goods);
	goodcheck_free(w.ws, w.nws);
	strv_free(w.said, w.nsaid);
	rules_free(&rs);
out:
	diff_args_free(&a);
	for (size_t i = 0; stored && i < nrefs; i++)
		input_close(&stored[i]);
	free(stored);
	free(refs);
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
	"\n"
	"As a startup watchdog:\n"
	"  server ... >log 2>&1 & ddx watch log --ref good.log || kill $!\n",
	.status = "0 when the run reached the good run's final milestone,\n1 on a hang, a crash or the timeout",
};
