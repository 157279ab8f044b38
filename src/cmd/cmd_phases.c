/* cmd_phases.c — `ddx phases`: the milestone timeline of one log, as
 * text or JSON (report_phases.c), or with --html the timelines of several
 * logs side by side as a picture (html_pages.c).  The timeline itself is
 * timeline.c's; this file parses the options and prints. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "html.h"
#include "log.h"
#include "report_phases.h"
#include "rules.h"
#include "timeline.h"

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
				report_phases_json(stdout, &tls[k]);
			else
				report_phases_text(o, &tls[k]);
		}
		/* As the footer says: 0 only for runs that came up or
		 * finished (timeline_state, the test goodcheck makes). */
		rc = EXIT_SAME;
		for (size_t k = 0; k < n; k++) {
			enum timeline_state st = timeline_state(&tls[k]);
			if (st != TIMELINE_UP && st != TIMELINE_FINISHED)
				rc = EXIT_DIVERGED;
		}
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
	"the last milestone it reached and what followed.  A server that reached\n"
	"two milestones or more but not up is NOT UP, and no good run for\n"
	"learn, diff, check or watch; a job (training run, CI job, script) has\n"
	"no \"up\": short of its end it is neither up nor finished.\n"
	"\n"
	"Milestones come from the built-in rules (SGLang, vLLM, TGI, torchrun/\n"
	"NCCL, uvicorn, generic words), the file $XDG_CONFIG_HOME/ddx/rules\n"
	"(~/.config/ddx/rules) if it exists, and each --rules FILE, in that\n"
	"order; a rule of the same name and engine as an earlier one replaces it.\n"
	"A rule file holds '[ENGINE]' lines, each followed by rules\n"
	"'step NAME: PATTERN', 'final NAME: PATTERN' (a milestone meaning the\n"
	"run is up), 'done NAME: PATTERN' (a job finished) or 'fail NAME:\n"
	"PATTERN' (a job failed), PATTERN being a PCRE2 pattern searched in the line's\n"
	"template; 'server step ...' marks a milestone only a server prints (a\n"
	"run that reaches it must come up).  No milestones: 'mark NAME:\n"
	"PATTERN' (a template that names the engine), 'config NAME: PATTERN'\n"
	"(where a configuration dump starts), 'heartbeat NAME: PATTERN' (what\n"
	"a healthy process keeps printing), 'failure', 'error' and 'warning\n"
	"NAME: PATTERN' (words of a failure at any level, of an error or a\n"
	"warning in a line without a level), 'killed', 'peer-loss' and\n"
	"'timeout NAME: PATTERN' (stopped from outside, a connection lost, a\n"
	"wait given up; see ddx(1), RULES);\n"
	"'#' starts a comment line.\n"
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
