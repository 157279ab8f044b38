/* cmd_diff.c — `ddx diff GOOD... BAD`: the differential report (diffrun.c
 * makes it), or `ddx diff --baseline NAME BAD` with the good runs of a
 * stored baseline. */
#include <getopt.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "cmd.h"
#include "diffrun.h"
#include "log.h"

/* Whether a good run given as a folder holds the bad log itself (`ddx
 * diff logs/ logs/bad.log`): compared with itself, the bad run would
 * look like one of the good ones.  Says so. */
static int bad_among_goods(char **paths, size_t n, const struct input *ins)
{
	struct stat st;
	if (n < 2 || stat(paths[n - 1], &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	for (size_t i = 0; i + 1 < n; i++)
		if (log_run_holds(&ins[i], paths[i], &st)) {
			error("'%s' is the bad run, and also a file of the good run '%s': give the good runs without it",
			      paths[n - 1], paths[i]);
			return 1;
		}
	return 0;
}

/* Open the logs (files or folders) named on the command line, good ones
 * then bad. */
static int open_logs(char **paths, size_t n, struct input *ins, const struct diff_args *a)
{
	for (size_t i = 0; i < n; i++)
		if (log_open_run(&ins[i], paths[i], a->jobs, a->run_flags) < 0) {
			while (i-- > 0)
				input_close(&ins[i]);
			return -1;
		}
	if (bad_among_goods(paths, n, ins)) {
		for (size_t i = 0; i < n; i++)
			input_close(&ins[i]);
		return -1;
	}
	return 0;
}

static int diff(int argc, char **argv, const struct out *out)
{
	static const struct option opts[] = {
		DIFF_OPTIONS,
		{ "jobs", required_argument, NULL, 'j' },
		{ "baseline", required_argument, NULL, 'b' },
		{ "store", required_argument, NULL, 'S' },
		{ "label", required_argument, NULL, 'L' },
		{ NULL, 0, NULL, 0 },
	};
	struct diff_args a;
	diff_args_init(&a, default_jobs(), out);
	const char *baseline = NULL, *store_opt = NULL;
	struct input *ins = NULL;
	/* As diff(1)'s: the Nth names the Nth log in place of its path. */
	char **labels = xcalloc((size_t)argc, sizeof(*labels));
	size_t nlabels = 0;
	int c, rc = EXIT_TROUBLE;
	while ((c = cmd_getopt(argc, argv, "j:q", opts, &cmd_diff_entry)) != -1) {
		if (c == 'j')
			a.jobs = parse_jobs(optarg);
		else if (c == 'b')
			baseline = optarg;
		else if (c == 'S')
			store_opt = optarg;
		else if (c == 'L')
			labels[nlabels++] = optarg;
		else if (diff_option(c, optarg, &a) <= 0)
			goto out;
	}
	size_t nlogs = (size_t)(argc - optind);
	if (nlabels > nlogs) {
		usage_error(&cmd_diff_entry, "%zu labels for %zu logs", nlabels, nlogs);
	} else if (baseline && nlabels) {
		usage_error(&cmd_diff_entry, "--label names logs given as GOOD... BAD, not a baseline's");
	} else if (stdin_once(&cmd_diff_entry, argv + optind, nlogs) < 0) {
		;
	} else if (baseline && nlogs != 1) {
		usage_error(&cmd_diff_entry, "with --baseline, give only BAD");
	} else if (baseline) {
		/* The good runs are a stored baseline's: `ddx check
		 * --baseline NAME BAD`. */
		if (diff_open_html(&a, argv + optind, 1, 1, store_opt) == 0)
			rc = diff_baseline(store_opt, baseline, argv[optind], &a);
	} else if (nlogs < 2) {
		usage_error(&cmd_diff_entry, "diff needs at least one GOOD and one BAD log");
	} else if (nlogs > DIFF_MAX_LOGS) {
		error("too many logs (%zu): at most %d good ones and a bad one", nlogs,
		      DIFF_MAX_LOGS - 1);
	} else {
		ins = xcalloc(nlogs, sizeof(*ins));
		if (diff_open_html(&a, argv + optind, nlogs, 0, NULL) == 0 &&
		    open_logs(argv + optind, nlogs, ins, &a) == 0) {
			for (size_t i = 0; i < nlabels; i++) {
				free(ins[i].path);
				ins[i].path = xstrdup(labels[i]);
			}
			rc = diff_run(ins, nlogs, argv[argc - 1], &a, NULL, 0);
		}
	}
out:
	free(labels);
	free(ins);
	diff_args_free(&a);
	return rc;
}

const struct cmd cmd_diff_entry = {
	.name = "diff",
	.run = diff,
	.usage = "[--json | -q] [--now TIME] [--rules FILE] [--causes FILE] [-j N] [--sample T | --no-proc] [--label NAME]... GOOD... BAD | --baseline NAME BAD",
	.help =
	"Compare the log of a failed or silent run (the last argument) with logs\n"
	"of good runs: say whether it stopped, crashed or went another way, or\n"
	"is still running (silent for less than the good runs spent in its\n"
	"step: exit 0), the good line its last step corresponds to, the good\n"
	"run's next milestones, lines only it has, configuration values that\n"
	"changed, slow steps, and how far each rank got.  When processes still\n"
	"hold the bad log open for writing, a last section says what they are\n"
	"blocked in, whether their CPU time moves and whether the port the log\n"
	"names listens (as `ddx proc` does): hung, busy or idle.  Good logs\n"
	"that crashed, never came up or are empty are named in a warning and\n"
	"left out while others remain; a bad log that went further than one\n"
	"says the order looks swapped (BAD goes last).\n"
	"\n"
	"  --json        print the report as JSON (schema 1)\n"
	"  -q, --quiet   print no report: the exit status says it (errors\n"
	"                still go to stderr; --html FILE is still written)\n"
	"  --now TIME    take TIME as now for \"silent for\": +SECONDS after the\n"
	"                bad log's last line, or YYYY-MM-DD HH:MM:SS in the logs'\n"
	"                clock (default: the wall clock against the file's mtime)\n"
	"  --rules FILE  add or override milestone rules (repeatable; see\n"
	"                `ddx help phases`); `--rules none` keeps of the\n"
	"                built-in rules only the generic words.  Without rules,\n"
	"                milestones are learned: lines every good log prints\n"
	"                once per rank\n"
	"  --causes FILE add or replace known causes (repeatable; see\n"
	"                ddx-causes(5)): a failure that matches one is named\n"
	"                with its fix (\"likely cause: ...\")\n"
	"  -j, --jobs N  use N threads to read each log\n"
	"  --sample T    sample the CPU time of the processes that hold the bad\n"
	"                log over T (default 1s; 500ms; 0); nobody holding it\n"
	"                costs one scan of /proc and no wait\n"
	"  --no-proc     do not look for the processes behind the bad log\n"
	"  --one-run     read a folder whose files are several whole runs (each\n"
	"                starts the run, one after another) as one run, not\n"
	"                refuse it\n"
	"  --proc-root DIR  read DIR instead of /proc (for testing)\n"
	"  --html FILE   also write the report as a self-contained HTML page (-:\n"
	"                to stdout, instead of the text); never over an input,\n"
	"                the store or an existing file that is not a page\n"
	"  --label NAME  show NAME instead of the path of the next log, in order\n"
	"                (repeatable, as diff(1)'s: for `<(...)` inputs)\n"
	"  --baseline NAME [--store PATH]\n"
	"                take the good runs from a stored baseline (see `ddx\n"
	"                help learn`): the same as `ddx check --baseline NAME`\n",
	.status = "0 when the bad log matches the good runs, 1 when it\ndoes not",
};
