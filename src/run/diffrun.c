/* diffrun.c — load, diagnose, report: the job of `ddx diff` (see
 * diffrun.h).
 *
 * When the bad log is a file, the report also says whether it is still
 * alive: live_inspect() looks for the processes that hold it open for
 * writing.  That is one scan of /proc when nobody does; only when some
 * process does is its CPU time sampled (--sample, 1 s by default). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "baseline.h"
#include "causes_find.h"
#include "culprit.h"
#include "diffrun.h"
#include "goodcheck.h"
#include "html.h"
#include "log.h"
#include "report.h"
#include "rules.h"
#include "signature.h"
#include "source.h"

/* --now: "+SECONDS" after bad's last line, or a time in the logs' clock
 * ("2026-02-23 00:55:24", "2026-02-23T00:55:24"), taken as UTC like the
 * timestamps prefix reads. */
static int parse_now(const char *s, struct dx_options *o)
{
	char *end;
	if (*s == '+') {
		double x = strtod(s + 1, &end);
		if (end == s + 1 || *end || x < 0)
			goto bad;
		o->now_ms = (int64_t)(x * 1000);
		o->now_relative = 1;
		return 0;
	}
	struct tm tm = { 0 };
	end = strptime(s, "%Y-%m-%d %H:%M:%S", &tm);
	if (!end)
		end = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!end || *end)
		goto bad;
	o->now_ms = (int64_t)timegm(&tm) * 1000;
	o->now_relative = 0;
	return 0;
bad:
	return error("invalid --now '%s' (expected +SECONDS or YYYY-MM-DD HH:MM:SS)", s);
}

int diff_option(int c, char *arg, struct diff_args *a)
{
	switch (c) {
	case 'J': a->json = 1; return 1;
	case 'F':
		if (strcmp(arg, "json") == 0)
			a->json = 1;
		else if (strcmp(arg, "github") == 0)
			a->github = 1;
		else if (strcmp(arg, "text") != 0)
			return error("invalid --format '%s' (expected text, json or github)", arg);
		return 1;
	case 'q': a->quiet = 1; return 1;
	case 'N': return parse_now(arg, &a->o) < 0 ? -1 : 1;
	case 'r':
		a->rules = xrealloc(a->rules, (a->nrules + 1) * sizeof(*a->rules));
		a->rules[a->nrules++] = arg;
		return 1;
	case 's':
		if ((a->po.sample_ms = live_parse_interval(arg)) < 0)
			return error("invalid --sample '%s' (expected e.g. 1s or 500ms)", arg);
		return 1;
	case 'P': a->no_proc = 1; return 1;
	case 'O': a->run_flags |= LOG_ONE_RUN; return 1;
	case 'R': a->po.root = arg; return 1;
	case 'H': a->html = arg; return 1;
	case 'D': a->dumps = arg; return 1;
	case 'C':
		a->causes = xrealloc(a->causes, (a->ncauses + 1) * sizeof(*a->causes));
		a->causes[a->ncauses++] = arg;
		return 1;
	default: return 0;
	}
}

void diff_args_init(struct diff_args *a, int jobs, const struct out *out)
{
	memset(a, 0, sizeof(*a));
	a->jobs = jobs;
	a->out = out;
	a->po = (struct live_opts){ .sample_ms = 1000, .gpu = 1, .quick = 1 };
	a->o = (struct dx_options){ .now_ms = TS_NONE };
}

void diff_args_free(struct diff_args *a)
{
	outfile_abort(&a->html_out);
	free(a->rules);
	a->rules = NULL;
	a->nrules = 0;
	free(a->causes);
	a->causes = NULL;
	a->ncauses = 0;
}

int diff_open_html(struct diff_args *a, char *const *logs, size_t n, int stored,
		   const char *store_opt)
{
	if (!a->html)
		return 0;
	if (a->json && strcmp(a->html, "-") == 0)
		return error("--html - and --json would both write to standard output");
	for (size_t i = 0; i < n; i++)
		outfile_protect(logs[i], "one of the inputs");
	for (size_t i = 0; i < a->nrules; i++)
		outfile_protect(a->rules[i], "one of the inputs");
	for (size_t i = 0; i < a->ncauses; i++)
		outfile_protect(a->causes[i], "one of the inputs");
	if (stored) {
		char *path = store_path(store_opt);
		store_protect(path);
		free(path);
	}
	return outfile_open(&a->html_out, "--html", a->html, &html_page_kind);
}

/* Where the text or JSON report goes: stdout, unless the page does. */
static FILE *report_stream(const struct diff_args *a)
{
	return a->html && strcmp(a->html, "-") == 0 ? stderr : a->out->f;
}

/* The order looks swapped when bad, which did not crash, stop, get
 * interrupted or is still running, went further than a good run found
 * wanting: a warning
 * naming the first such. */
static void check_order(const struct diagnosis *d, const struct log *logs, size_t ngood,
			const uint8_t *doubted, struct tmpl_table *tt, const struct ruleset *rs,
			struct dx_warning **ws, size_t *nws)
{
	if (d->verdict == DX_CRASHED || d->verdict == DX_STOPPED || d->verdict == DX_INTERRUPTED ||
	    d->verdict == DX_RUNNING)
		return;
	for (size_t g = 0; g < ngood; g++)
		if (doubted[g] && goodcheck_further(&logs[ngood], &logs[g], tt, rs)) {
			goodcheck_warn(ws, nws, "swapped", logs[g].in.path, DX_NONE,
				       "the order looks swapped: %s went further than good run %s "
				       "(the BAD log goes last)", logs[ngood].in.path, logs[g].in.path);
			return;
		}
}

/* A good run given by hand that is a weak reference (dx_weak_reference)
 * is named in a warning, as a stored baseline's weak fit is: its
 * findings are not to be read as what went wrong. */
static void check_fit(const struct diagnosis *d, struct dx_warning **ws, size_t *nws)
{
	if (dx_weak_reference(d))
		goodcheck_warn(ws, nws, "weak_fit", d->good_log->in.path, DX_NONE,
			       "good run %s fits weakly: it printed %.0f%% of bad's %zu templates, "
			       "so \"new in bad\" is most of bad, not what went wrong",
			       d->good_log->in.path, floor(d->good_known * 100), d->bad_templates);
}

/* What a report compares: ins[0..n) (good runs, then the bad one) loaded
 * into logs[0..n) with tt, the good runs checked (goodcheck_select, its
 * warnings appended to *ws, doubted[0..n-1) and *ndoubted as it sets
 * them), and ref[0..return) the logs compared: the good runs kept, then
 * the bad one, copies of logs' (which keeps and frees them). */
static size_t load_compared(struct input *ins, size_t n, int jobs, struct tmpl_table *tt,
			    const struct ruleset *rs, struct log *logs, struct log *ref,
			    uint8_t *doubted, size_t *ndoubted, struct dx_warning **ws, size_t *nws)
{
	for (size_t i = 0; i < n; i++)
		log_load_input(&logs[i], &ins[i], (int)i, LOG_FULL, jobs, tt);
	size_t *keep = xmalloc(n * sizeof(*keep));
	size_t nkeep;
	*ndoubted = goodcheck_select(logs, n - 1, tt, rs, doubted, keep, &nkeep, ws, nws);
	for (size_t k = 0; k < nkeep; k++)
		ref[k] = logs[keep[k]];
	ref[nkeep] = logs[n - 1];
	free(keep);
	return nkeep + 1;
}

/* The name a run is remembered by: its file's or folder's base name. */
static char *run_name(const char *path)
{
	size_t n = strlen(path);
	while (n > 1 && path[n - 1] == '/')
		n--;
	size_t b = n;
	while (b > 0 && path[b - 1] != '/')
		b--;
	return xasprintf("%.*s", (int)(n - b), path + b);
}

/* Look d's failure up in a->memory for the report (d->seen, in *seen)
 * and record it.  The store's trouble is said on stderr, on one line,
 * and costs nothing else. */
static void remember(const struct diff_args *a, struct diagnosis *d, const struct tmpl_table *tt,
		     struct signature *sig, struct failure_seen *seen, struct arena *ar)
{
	if (signature_of(d, tt, sig) < 0)
		return;
	const struct input *in = &d->bad_log->in;
	char content[40];
	snprintf(content, sizeof(content), "%016llx-%llu",
		 (unsigned long long)hash_bytes(in->data, in->size), (unsigned long long)in->size);
	if (store_failure_seen(a->memory, sig->key, content, seen, ar) < 0)
		return;
	seen->key = sig->key;
	seen->summary = sig->summary;
	d->seen = seen;
	char host[256], *name = run_name(d->bad_log->in.path);
	failure_host(host, sizeof(host));
	struct failure f = { sig->key, sig->summary, dx_verdict_name(d->verdict), name, host,
			     a->baseline, seen->now, content };
	store_failure_record(a->memory, &f);
	free(name);
}

/* Beside a log NAME.log is NAME.dumps/, where the launcher is told to
 * put them (TORCH_FR_DUMP_TEMP_FILE=NAME.dumps/nccl_trace_rank_). */
int diff_load_dumps(const char *dir, const char *bad, struct frdump **dumps, size_t *n)
{
	*dumps = NULL;
	*n = 0;
	if (dir)
		return frdump_dir(dir, dumps, n);
	if (!bad || strcmp(bad, "-") == 0)
		return 0;
	struct stat st;
	if (stat(bad, &st) == 0 && S_ISDIR(st.st_mode))
		return frdump_dir(bad, dumps, n);
	size_t len = strlen(bad);
	const char *dot = strrchr(bad, '.'), *slash = strrchr(bad, '/');
	if (dot && (!slash || dot > slash + 1))
		len = (size_t)(dot - bad);
	char *beside = xasprintf("%.*s.dumps", (int)len, bad);
	int rc = stat(beside, &st) == 0 && S_ISDIR(st.st_mode) ? frdump_dir(beside, dumps, n) : 0;
	free(beside);
	return rc;
}

int diff_run(struct input *ins, size_t n, const char *live_path, struct diff_args *a,
	     const struct dx_warning *pre, size_t npre)
{
	struct frdump *dumps;
	size_t ndumps;
	if (diff_load_dumps(a->dumps, ins[n - 1].path, &dumps, &ndumps) < 0) {
		for (size_t i = 0; i < n; i++)
			input_close(&ins[i]);
		return EXIT_TROUBLE;
	}
	a->o.dumps = dumps;
	a->o.ndumps = ndumps;
	struct ruleset rs = { 0 };
	struct causeset cs = { 0 };
	if (rules_init(&rs, a->rules, a->nrules) < 0 ||
	    causes_init(&cs, a->causes, a->ncauses) < 0) {
		rules_free(&rs);
		causes_free(&cs);
		frdump_free(dumps, ndumps);
		a->o.dumps = NULL;
		a->o.ndumps = 0;
		for (size_t i = 0; i < n; i++)
			input_close(&ins[i]);
		return EXIT_TROUBLE;
	}
	struct tmpl_table tt;
	tmpl_init(&tt);
	struct log *logs = xcalloc(n, sizeof(*logs));
	struct log *ref = xmalloc(n * sizeof(*ref));
	struct dx_warning *ws = NULL;
	size_t nws = 0, ndoubted;
	for (size_t k = 0; k < npre; k++)
		goodcheck_warn(&ws, &nws, pre[k].kind, pre[k].path, pre[k].line, "%s", pre[k].text);
	uint8_t *doubted = xcalloc(n, 1);
	size_t nref = load_compared(ins, n, a->jobs, &tt, &rs, logs, ref, doubted, &ndoubted, &ws,
				    &nws);
	struct diagnosis d;
	diagnose(ref, nref, &tt, &rs, &a->o, &d);
	if (!a->stored_goods) {
		check_order(&d, logs, n - 1, doubted, &tt, &rs, &ws, &nws);
		check_fit(&d, &ws, &nws);
	}
	/* Good runs in doubt make no clean match, whatever the others say. */
	if (ndoubted && d.verdict == DX_SAME)
		d.verdict = DX_DIFFERENT;
	d.warnings = ws;
	d.nwarnings = nws;
	struct dx_cause_hit *hits;
	d.ncauses = causes_find(&cs, &d, &tt, &rs, &hits);
	d.causes = hits;
	struct signature sig = { 0 };
	struct failure_seen seen;
	struct arena mem = { 0 };
	if (a->memory)
		remember(a, &d, &tt, &sig, &seen, &mem);
	/* A log read from stdin or from elsewhere has no holders to find
	 * here; /proc trouble costs the live section, not the report.  The good runs' gap where bad
	 * stands tells a hang from a long step. */
	struct live_report pr, *live = NULL;
	struct live_opts po = a->po;
	live_set_ref(&po, d.good_gap_s, d.good_step_s, LIVE_REF_FACTOR, LIVE_REF_MIN_S);
	if (!a->no_proc && live_path && strcmp(live_path, "-") != 0 && !source_is_remote(live_path) &&
	    live_inspect(live_path, &po, &pr) == 0)
		live = &pr;
	/* Where the log cannot tell which rank the others wait for, the
	 * live processes may (a dead worker, the odd one out). */
	for (size_t i = 0; live && live->culprit_pid && i < live->nprocs; i++)
		if (live->procs[i].pid == live->culprit_pid && live->procs[i].rank[0])
			culprit_from_live(&d, strtol(live->procs[i].rank, NULL, 10));
	if (a->quiet)
		;   /* the exit status says it */
	else if (a->json)
		report_json(stdout, &d, ref, nref, live);
	else if (report_stream(a) == a->out->f)
		report_text(a->out, &d, ref, nref, live);
	/* A run still in its step has not failed yet: no divergence so far. */
	int rc = d.verdict == DX_SAME || d.verdict == DX_RUNNING ? EXIT_SAME : EXIT_DIVERGED;
	if (a->github && report_github(stdout, &d, logs, n) < 0)
		rc = EXIT_TROUBLE;
	if (a->html_out.f) {
		if (html_diff_page(a->html_out.f, &d, ref, nref, live) < 0) {
			error("--html %s: %s", a->html, strerror(errno ? errno : EIO));
			outfile_abort(&a->html_out);
			rc = EXIT_TROUBLE;
		} else if (outfile_commit(&a->html_out) < 0) {
			rc = EXIT_TROUBLE;
		}
	}
	live_report_free(live);
	free(hits);
	diagnosis_free(&d);
	signature_free(&sig);
	arena_free(&mem);
	goodcheck_free(ws, nws);
	free(doubted);
	free(ref);
	for (size_t i = 0; i < n; i++)
		log_free(&logs[i]);
	free(logs);
	tmpl_free(&tt);
	rules_free(&rs);
	causes_free(&cs);
	frdump_free(dumps, ndumps);
	a->o.dumps = NULL;
	a->o.ndumps = 0;
	return rc;
}

int diff_open_goods(char *const *paths, size_t n, struct input *goods, int jobs, unsigned flags)
{
	for (size_t i = 0; i < n; i++)
		if (input_is_folder(paths[i]) ? log_open_run(&goods[i], paths[i], jobs, flags) < 0
		    : input_open_file(&goods[i], paths[i], 0) < 0) {
			while (i-- > 0)
				input_close(&goods[i]);
			return -1;
		}
	return 0;
}

int diff_reference_gap(struct input *goods, size_t n, const char *path, const struct diff_args *a,
		       double *gap, double *step)
{
	struct stat st;
	int rc = -1;
	struct input *ins = xcalloc(n + 1, sizeof(*ins));
	memcpy(ins, goods, n * sizeof(*ins));
	/* Typed before it is opened: opening a FIFO blocks, and reading it
	 * steals lines from its real reader. */
	if (stat(path, &st) < 0)
		error("cannot open '%s': %s", path, strerror(errno));
	else if (!S_ISREG(st.st_mode))
		error("'%s' is not a regular file: comparing it with good runs would take its lines from its reader", path);
	else if (input_open(&ins[n], path, 0) == 0)
		rc = 0;
	struct ruleset rs = { 0 };
	if (rc == 0 && rules_init(&rs, a->rules, a->nrules) == 0) {
		/* Good runs found wanting are left out here as in diff: a
		 * crashed "good" run's last gap is no pace to hold a run to. */
		struct tmpl_table tt;
		tmpl_init(&tt);
		struct log *logs = xcalloc(n + 1, sizeof(*logs));
		struct log *ref = xmalloc((n + 1) * sizeof(*ref));
		uint8_t *doubted = xcalloc(n + 1, 1);
		struct dx_warning *ws = NULL;
		size_t nws = 0, ndoubted;
		size_t nref = load_compared(ins, n + 1, a->jobs, &tt, &rs, logs, ref, doubted,
					    &ndoubted, &ws, &nws);
		for (size_t k = 0; k < nws; k++) {
			fprintf(stderr, "ddx: warning: ");
			put_text(stderr, ws[k].text, strlen(ws[k].text));
			fputc('\n', stderr);
		}
		struct diagnosis d;
		diagnose(ref, nref, &tt, &rs, &a->o, &d);
		*gap = d.good_gap_s;
		*step = d.good_step_s;
		diagnosis_free(&d);
		goodcheck_free(ws, nws);
		free(doubted);
		free(ref);
		for (size_t i = 0; i <= n; i++)
			log_free(&logs[i]);
		free(logs);
		tmpl_free(&tt);
	} else {
		for (size_t i = 0; i < n + (rc == 0); i++)
			input_close(&ins[i]);
		rc = -1;
	}
	rules_free(&rs);
	free(ins);
	return rc;
}

/* A baseline fits bad weakly when it knows less than DX_WEAK_FIT of
 * bad's templates.  On the dev folders, a baseline of another program
 * scores 0-1% (nothing else of bad's program stored); one of bad's
 * program scores 1-98%, mostly over 10%: under it are crashes of another
 * version (a traceback and a config dump of their own), whose findings
 * against that baseline are mostly noise.  Said, not refused. */

/* Which baseline and why, with the runners-up; whether it fits weakly. */
static void say_pick(FILE *f, const struct baseline_cand *cs, size_t nc, const char *engine,
		     int asked)
{
	const struct baseline_cand *pick = &cs[0];
	fputs("baseline '", f), put_text(f, pick->b.name, strlen(pick->b.name));
	fprintf(f, "' (%zu run%s)%s: ", pick->nruns, pick->nruns == 1 ? "" : "s",
		asked ? ", as asked" : "");
	baseline_print_why(f, pick, engine);
	if (pick->known < DX_WEAK_FIT)
		fprintf(f, "; a weak fit");
	fputc('\n', f);
	for (size_t k = 1; k < nc && k < 4; k++) {
		fputs("  then '", f), put_text(f, cs[k].b.name, strlen(cs[k].b.name)), fputs("': ", f);
		baseline_print_why(f, &cs[k], engine);
		fputc('\n', f);
	}
	if (pick->nruns > DIFF_MAX_LOGS - 1)
		fprintf(f, "  (compared with its %d latest runs of %zu)\n", DIFF_MAX_LOGS - 1,
			pick->nruns);
}

int diff_baseline(const char *store_opt, const char *name, const char *badpath,
		  struct diff_args *a)
{
	struct store *st = baseline_store(store_opt, STORE_READ);
	if (!st)
		return EXIT_TROUBLE;
	struct arena ar = { 0 };
	struct baseline_cand *cs = NULL;
	size_t nc = 0, n = 0;
	struct log bad = { 0 };
	const char *engine = NULL;
	struct input *ins = NULL;
	int rc = EXIT_TROUBLE;
	/* Engines compare with the stored ones, which learn found with the
	 * rules every command has (not this command's --rules). */
	struct ruleset rs = { 0 };
	if (rules_init(&rs, NULL, 0) < 0 ||
	    baseline_rank(st, name, badpath, a->jobs, a->run_flags, &rs, &bad, &engine, &cs, &nc, &ar) < 0)
		goto out;
	if (nc == 0) {
		if (name)
			error("no baseline '%s' (see 'ddx baselines')", name);
		else
			error("no baselines yet (see 'ddx help learn')");
		goto out;
	}
	if (!a->quiet)
		say_pick(a->json ? stderr : report_stream(a), cs, nc, engine, name != NULL);
	if (baseline_open_runs(st, &cs[0], DIFF_MAX_LOGS - 1, 1, &ins, &n) < 0)
		goto out;
	/* bad as it was read (a pipe cannot be read twice) follows the runs. */
	ins[n++] = bad.in;
	memset(&bad.in, 0, sizeof(bad.in));
	struct dx_warning weak = { .kind = "weak_fit", .line = DX_NONE };
	if (cs[0].known < DX_WEAK_FIT)
		weak.text = xasprintf("baseline '%s' fits weakly: %.0f%% of bad's templates known",
				      cs[0].b.name, floor(cs[0].known * 100));
	/* Not a copy of a: the page it holds open must be written once. */
	a->stored_goods = 1;
	a->memory = st;
	a->baseline = cs[0].b.name;
	rc = diff_run(ins, n, badpath, a, &weak, weak.text != NULL);
	free(weak.text);
out:
	free(ins);
	log_free(&bad);
	rules_free(&rs);
	baseline_cands_free(cs, nc);
	arena_free(&ar);
	store_close(st);
	return rc;
}
