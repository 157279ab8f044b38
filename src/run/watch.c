/* watch.c — the watch engine: polling the log, analysing it, deciding
 * when it hangs.  See watch.h. */
#include "watch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "diffrun.h"
#include "goodcheck.h"
#include "log.h"

/* The files of a watched folder asked after for their writers, at most:
 * each is a walk over every process's descriptors. */
#define FOLDER_INSPECT_MAX 16
/* An analysis waits this many times its predecessor's cost after it. */
#define THROTTLE 9

static void tell(struct watch *w, int what)
{
	w->say(w->ctx, &(struct watch_event){ .what = what });
}

/* Whether the sorted (natural order) list has path. */
static int listed(char **list, size_t n, const char *path)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(list[i], path) == 0)
			return 1;
	return 0;
}

/* One poll of a folder: its files now, their sizes and times hashed into
 * w->stamp; a file that appeared after the first poll is told. */
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
		if (w->polled && !listed(w->files, w->nfiles, files[i]))
			w->say(w->ctx, &(struct watch_event){ .what = WATCH_NEW_FILE, .file = files[i] });
	}
	strv_free(w->files, w->nfiles);
	w->files = files;
	w->nfiles = n;
	w->stamp = stamp;
	w->folder_mtime = newest;
	w->polled = 1;
	return 0;
}

/* One poll of the log, telling what happened to it. */
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
		tell(w, WATCH_WAITING);
	if (ev & FOLLOW_TRUNCATED)
		tell(w, WATCH_TRUNCATED);
	if (ev & FOLLOW_ROTATED)
		tell(w, WATCH_ROTATED);
	if (ev & FOLLOW_GONE)
		tell(w, WATCH_GONE);
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
	if (w->good_paths && diff_open_goods(w->good_paths, n, w->goods, w->o.jobs, w->o.run_flags) < 0)
		return -1;
	w->nopen = n;
	struct tmpl_table tt;
	tmpl_init(&tt);
	struct log *logs = xcalloc(n, sizeof(*logs));
	for (size_t i = 0; i < n; i++) {
		struct input good;
		input_borrow(&good, &w->goods[i]);
		log_load_input(&logs[i], &good, (int)i, LOG_FULL, w->o.jobs, &tt);
	}
	uint8_t *doubted = xcalloc(n, 1);
	size_t *keep = xmalloc(n * sizeof(*keep)), nkeep;
	size_t ndoubted = goodcheck_select(logs, n, &tt, w->o.rs, doubted, keep, &nkeep, &w->ws,
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
		log_load_input(&w->logs[n], &good, (int)n, LOG_FULL, w->o.jobs, &w->tt);
	}
	struct input in;
	int rc;
	if (w->folder && w->nfiles) {
		rc = log_open_run(&in, w->path, w->o.jobs, w->o.run_flags);
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
	log_load_input(&w->logs[n], &in, (int)n, LOG_FULL, w->o.jobs, &w->tt);
	struct dx_options o = { .now_ms = TS_NONE };
	diagnose(w->logs, w->ngood + 1, &w->tt, w->o.rs, &o, &w->d);
	w->d.warnings = w->ws;
	w->d.nwarnings = w->nws;
	w->have = 1;
	w->analysed = w->stamp;
	int64_t t1 = now_ms();
	w->next_ms = t1 + THROTTLE * (t1 - t0);
	return 0;
}

int watch_counts(const struct diagnosis *d, const struct dx_milestone *m)
{
	for (size_t k = 0; k < d->nms; k++)
		if (d->ms[k].name)
			return m->name != NULL;
	return 1;
}

void watch_where(const struct diagnosis *d, struct watch_where *wh)
{
	memset(wh, 0, sizeof(*wh));
	for (size_t m = 0; m < d->nms; m++) {
		if (!watch_counts(d, &d->ms[m]))
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

/* The longest gap diagnose found after the good line the run reached,
 * or, when longer, the longest gap in the good run between the milestone
 * the run reached last and the next one.  The second guards against a
 * step that lines up with a later, shorter one (a run that compiles
 * twice: the profiling run after the first compile took ten minutes,
 * after the second one second). */
double watch_allowed_gap(const struct watch *w)
{
	if (!w->have)
		return NAN;
	const struct diagnosis *d = &w->d;
	const struct log *g = d->good_log;
	struct watch_where wh;
	watch_where(d, &wh);
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

/* Never short of the good runs' time in the step: a run is hung only
 * once its silence is beyond what they took there (diff says RUNNING
 * before that), however quiet they were inside it. */
double watch_limit_s(const struct watch *w)
{
	double gap = watch_allowed_gap(w);
	return live_ref_limit(isnan(gap) ? 0 : gap, w->have ? w->d.good_step_s : NAN, w->o.factor,
			      w->o.min_silence);
}

/* After an analysis: did the run make progress?  Then the caller is told
 * of it, to say what was reached. */
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
	tell(w, WATCH_ANALYSED);
}

/* The first poll, the good runs' check and the first analysis. */
static int start(struct watch *w)
{
	w->start = wall_clock_s();
	w->last_read = w->last_progress = w->start;
	w->progress_line = DX_NONE;
	if (poll_log(w) < 0)
		return -1;
	double mtime = w->folder ? w->folder_mtime : w->f.text.len ? follow_mtime(&w->f) : -1;
	if (mtime < 0)
		mtime = w->start;
	w->last_read = mtime;
	if (open_goods(w) < 0 || analyse(w) < 0)
		return -1;
	tell(w, WATCH_STARTED);
	took_in(w, 1, mtime);
	return 0;
}

int watch_run(struct watch *w, void (*say)(void *ctx, const struct watch_event *ev),
	      void *ctx, double *silence_out)
{
	w->say = say;
	w->ctx = ctx;
	if (start(w) < 0)
		return -1;
	for (;;) {
		/* A run that failed a step on the way reached the end too. */
		if (w->d.verdict == DX_SAME || w->d.verdict == DX_DIFFERENT || w->d.verdict == DX_FAILED)
			return WATCH_UP;
		double now = wall_clock_s(), silence = now - w->last_progress;
		int timed_out = w->o.timeout > 0 && now - w->start >= w->o.timeout;
		int crashed = w->d.verdict == DX_CRASHED && silence > w->o.min_silence;
		int hung = silence > watch_limit_s(w);
		if ((timed_out || crashed || hung) && w->stamp != w->analysed) {
			/* Lines not analysed yet may be the progress that clears
			 * it. */
			if (analyse(w) < 0)
				return -1;
			took_in(w, 0, now);
			continue;
		}
		if (crashed || hung || timed_out) {
			*silence_out = silence;
			return crashed ? WATCH_CRASHED : hung ? WATCH_HUNG : WATCH_TIMED_OUT;
		}
		w->say(w->ctx, &(struct watch_event){ .what = WATCH_QUIET, .silence = silence });
		/* Wake for the timeout, not an interval later. */
		int64_t ms = w->o.interval_ms;
		if (w->o.timeout > 0 && (w->start + w->o.timeout - now) * 1000 < ms)
			ms = (int64_t)((w->start + w->o.timeout - now) * 1000) + 1;
		struct timespec ts = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000L };
		nanosleep(&ts, NULL);
		uint64_t before = w->stamp;
		if (poll_log(w) < 0)
			return -1;
		if (w->stamp != before)
			w->last_read = wall_clock_s();
		if (w->stamp != w->analysed && now_ms() >= w->next_ms) {
			if (analyse(w) < 0)
				return -1;
			took_in(w, 0, w->last_read);
		}
	}
}

/* The processes of the file held (see watch_holders) into h. */
static void inspect(const struct watch *w, struct watch_holders *h)
{
	struct live_opts po = w->o.po;
	live_set_ref(&po, watch_allowed_gap(w), w->have ? w->d.good_step_s : NAN, w->o.factor, w->o.min_silence);
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
	h->found = held && live_inspect(held, &po, &h->report) == 0;
}

void watch_holders(const struct watch *w, struct watch_holders *h)
{
	memset(h, 0, sizeof(*h));
	h->rot_silent_s = NAN;
	inspect(w, h);
	/* Quiet because whoever wrote the log is gone is no hang. */
	h->exited = h->found && strcmp(h->report.liveness, "exited") == 0;
	/* Unless the writer writes on into the file rotated away from the
	 * path, which the watch no longer reads: then it cannot tell. */
	struct live_report rot;
	if (h->exited && w->rot_ino) {
		struct live_opts ro = w->o.po;
		ro.ident_dev = w->rot_dev;
		ro.ident_ino = w->rot_ino;
		if (live_inspect(w->path, &ro, &rot) == 0) {
			if (strcmp(rot.liveness, "exited") != 0 && strcmp(rot.liveness, "unknown") != 0) {
				live_report_free(&h->report);
				h->report = rot;
				h->exited = 0;
				h->rotated_away = 1;
				h->rot_silent_s = rot.silent_s;
			} else {
				live_report_free(&rot);
			}
		}
	}
}

void watch_holders_free(struct watch_holders *h)
{
	if (h->found)
		live_report_free(&h->report);
}

void watch_init(struct watch *w, const char *path, const struct watch_opts *o,
		char **good_paths, struct input *goods, size_t n)
{
	memset(w, 0, sizeof(*w));
	w->path = path;
	w->o = *o;
	w->good_paths = good_paths;
	w->goods = good_paths ? xcalloc(n, sizeof(*w->goods)) : goods;
	w->ngood = n;
	w->nopen = good_paths ? 0 : n;
	w->logs = xcalloc(n + 1, sizeof(*w->logs));
	follow_init(&w->f, path, INPUT_MAX_SIZE);
	w->folder = input_is_folder(path);
}

void watch_free(struct watch *w)
{
	follow_free(&w->f);
	strv_free(w->files, w->nfiles);
	drop_analysis(w);
	free(w->logs);
	for (size_t i = 0; i < w->nopen; i++)
		input_close(&w->goods[i]);
	free(w->goods);
	goodcheck_free(w->ws, w->nws);
}
