/* cmd_diff.c — `ddx diff GOOD... BAD`: the differential report.
 *
 * When the bad log is a file, the report also says whether it is still
 * alive: proc_inspect() looks for the processes that hold it open for
 * writing.  That is one scan of /proc when nobody does; only when some
 * process does is its CPU time sampled (--sample, 1 s by default). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "diagnose.h"
#include "log.h"
#include "prefix.h"
#include "proc.h"
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

int cmd_diff(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'J' },
		{ "now", required_argument, NULL, 'N' },
		{ "rules", required_argument, NULL, 'r' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "sample", required_argument, NULL, 's' },
		{ "no-proc", no_argument, NULL, 'P' },
		{ NULL, 0, NULL, 0 },
	};
	int json = 0, jobs = default_jobs(), c, no_proc = 0;
	struct proc_opts po = { .sample_ms = 1000, .gpu = 1 };
	struct dx_options o = { .now_ms = TS_NONE };
	char **rulefiles = xcalloc((size_t)argc + 1, sizeof(*rulefiles));
	size_t nrules = 0;
	while ((c = getopt_long(argc, argv, "j:", opts, NULL)) != -1) {
		switch (c) {
		case 'J': json = 1; break;
		case 'N':
			if (parse_now(optarg, &o) < 0) {
				free(rulefiles);
				return EXIT_TROUBLE;
			}
			break;
		case 'r': rulefiles[nrules++] = optarg; break;
		case 'j': jobs = parse_jobs(optarg); break;
		case 's':
			if ((po.sample_ms = proc_parse_interval(optarg)) < 0)
				die("invalid --sample '%s' (expected e.g. 1s or 500ms)", optarg);
			break;
		case 'P': no_proc = 1; break;
		default:
			free(rulefiles);
			return EXIT_TROUBLE;
		}
	}
	int nlogs = argc - optind;
	if (nlogs < 2) {
		free(rulefiles);
		print_command_help(find_command("diff"));
		return EXIT_TROUBLE;
	}
	if (nlogs > 64)
		die("too many logs (%d): at most 63 good ones and a bad one", nlogs);
	struct ruleset rs = { 0 };
	int rc = rules_init(&rs, rulefiles, nrules);
	free(rulefiles);
	if (rc < 0) {
		rules_free(&rs);
		return EXIT_TROUBLE;
	}
	struct tmpl_table tt;
	tmpl_init(&tt);
	struct log *logs = xcalloc((size_t)nlogs, sizeof(*logs));
	for (int i = 0; i < nlogs; i++) {
		if (log_load(&logs[i], argv[optind + i], i, LOG_FULL, jobs, &tt) < 0) {
			for (int k = 0; k < i; k++)
				log_free(&logs[k]);
			free(logs);
			tmpl_free(&tt);
			rules_free(&rs);
			return EXIT_TROUBLE;
		}
	}
	struct diagnosis d;
	diagnose(logs, (size_t)nlogs, &tt, &rs, &o, &d);
	/* A log read from stdin has no holders to find; /proc trouble costs
	 * the live section, not the report. */
	const char *bad = argv[argc - 1];
	struct proc_report pr, *live = NULL;
	if (!no_proc && strcmp(bad, "-") != 0 && proc_inspect(bad, &po, &pr) == 0)
		live = &pr;
	if (json)
		report_json(stdout, &d, logs, (size_t)nlogs, live);
	else
		report_text(stdout, &d, logs, (size_t)nlogs, live);
	rc = d.verdict == DX_SAME ? EXIT_SAME : EXIT_DIVERGED;
	proc_report_free(live);
	diagnosis_free(&d);
	for (int i = 0; i < nlogs; i++)
		log_free(&logs[i]);
	free(logs);
	tmpl_free(&tt);
	rules_free(&rs);
	return rc;
}
