/* cmd_diff.c — `ddx diff GOOD... BAD`: the differential report.
 *
 * When the bad log is a file, the report also says whether it is still
 * alive: live_inspect() looks for the processes that hold it open for
 * writing.  That is one scan of /proc when nobody does; only when some
 * process does is its CPU time sampled (--sample, 1 s by default). */
#include <errno.h>
#include <getopt.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "diagnose.h"
#include "log.h"
#include "prefix.h"
#include "live.h"
#include "report.h"
#include "rules.h"

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
	case 'H': a->html = arg; return 1;
	default: return 0;
	}
}

void diff_args_init(struct diff_args *a)
{
	memset(a, 0, sizeof(*a));
	a->jobs = default_jobs();
	a->po = (struct live_opts){ .sample_ms = 1000, .gpu = 1, .quick = 1 };
	a->o = (struct dx_options){ .now_ms = TS_NONE };
}

/* Write the HTML report to path whole or not at all: into a temporary file
 * beside it, renamed over it once complete. */
static int write_html(const char *path, const struct diagnosis *d, const struct log *logs,
		      size_t nlogs, const struct live_report *live)
{
	struct buf tmp = { 0 };
	buf_printf(&tmp, "%s.XXXXXX", path);
	int fd = mkstemp(tmp.p);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		int e = errno;
		if (fd >= 0)
			close(fd), unlink(tmp.p);
		buf_free(&tmp);
		return error("cannot write '%s': %s", path, strerror(e));
	}
	fchmod(fd, 0644);
	int ok = report_html(f, d, logs, nlogs, live) == 0;
	int e = errno;
	ok = (fclose(f) == 0) && ok;
	if (ok && rename(tmp.p, path) < 0) {
		e = errno;
		ok = 0;
	}
	if (!ok) {
		unlink(tmp.p);
		error("cannot write '%s': %s", path, strerror(e ? e : EIO));
	}
	buf_free(&tmp);
	return ok ? 0 : -1;
}

int diff_run(char **paths, char **labels, size_t nlogs, const char *live_path,
	     const struct diff_args *a)
{
	if (nlogs > DIFF_MAX_LOGS)
		return error("too many logs (%zu): at most %d good ones and a bad one", nlogs,
			     DIFF_MAX_LOGS - 1);
	struct ruleset rs = { 0 };
	if (rules_init(&rs, a->rules, a->nrules) < 0) {
		rules_free(&rs);
		return EXIT_TROUBLE;
	}
	struct tmpl_table tt;
	tmpl_init(&tt);
	struct log *logs = xcalloc(nlogs, sizeof(*logs));
	int rc = EXIT_TROUBLE;
	size_t loaded = 0;
	for (; loaded < nlogs; loaded++) {
		if (log_load(&logs[loaded], paths[loaded], (int)loaded, LOG_FULL, a->jobs, &tt) < 0)
			goto out;
		if (labels && labels[loaded]) {
			free(logs[loaded].in.path);
			logs[loaded].in.path = xstrdup(labels[loaded]);
		}
	}
	struct diagnosis d;
	diagnose(logs, nlogs, &tt, &rs, &a->o, &d);
	/* A log read from stdin has no holders to find; /proc trouble costs
	 * the live section, not the report. */
	struct live_report pr, *live = NULL;
	if (!a->no_proc && live_path && strcmp(live_path, "-") != 0 &&
	    live_inspect(live_path, &a->po, &pr) == 0)
		live = &pr;
	if (a->json)
		report_json(stdout, &d, logs, nlogs, live);
	else
		report_text(stdout, &d, logs, nlogs, live);
	rc = d.verdict == DX_SAME ? EXIT_SAME : EXIT_DIVERGED;
	if (a->html && write_html(a->html, &d, logs, nlogs, live) < 0)
		rc = EXIT_TROUBLE;
	live_report_free(live);
	diagnosis_free(&d);
out:
	for (size_t i = 0; i < loaded; i++)
		log_free(&logs[i]);
	free(logs);
	tmpl_free(&tt);
	rules_free(&rs);
	return rc;
}

int cmd_diff(int argc, char **argv)
{
	static const struct option opts[] = {
		DIFF_OPTIONS,
		{ "jobs", required_argument, NULL, 'j' },
		{ "baseline", required_argument, NULL, 'b' },
		{ "store", required_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 },
	};
	struct diff_args a;
	diff_args_init(&a);
	int c, rc = EXIT_TROUBLE, baseline = 0;
	while ((c = getopt_long(argc, argv, "j:", opts, NULL)) != -1) {
		if (c == 'j') {
			a.jobs = parse_jobs(optarg);
			continue;
		}
		if (c == 'b' || c == 'S') {
			baseline |= c == 'b';
			continue;
		}
		if (diff_option(c, optarg, &a) <= 0)
			goto out;
	}
	int nlogs = argc - optind;
	if (baseline) {
		/* The good runs are a stored baseline's: that is `ddx check
		 * --baseline NAME BAD`, which takes every option of diff. */
		if (nlogs != 1) {
			error("with --baseline, give only BAD");
			goto out;
		}
		free(a.rules);
		optind = 0;
		return cmd_check(argc, argv);
	}
	if (nlogs < 2) {
		print_command_help(find_command("diff"));
		goto out;
	}
	rc = diff_run(argv + optind, NULL, (size_t)nlogs, argv[argc - 1], &a);
out:
	free(a.rules);
	return rc;
}
