/* cmd_proc.c — `ddx proc LOG | PID...`: forensics of the live processes
 * behind a log (live.c inspects them, report_proc.c prints the report).
 *
 * Exit status: 0 when the processes are busy (CPU moving or the log
 * growing), idle (see liveness in ddx-json(5)) or their state is
 * unknown; 1 when they are hung, or exited (nobody holds the log: like pgrep(1), "found nothing
 * alive"); 2 on error.
 *
 * `--json` prints schema 1, documented field by field in docs/ddx-json.5
 * (ddx-json(5)): a field added here is added there.
 * With good runs (--ref, --baseline) silence decides: see live.h. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "baseline.h"
#include "cmd.h"
#include "diffrun.h"
#include "report_proc.h"
#include "util.h"

/* A PID argument: all digits, and not the name of an existing file. */
static int pid_arg(const char *s)
{
	struct stat st;
	char *end;
	long v = strtol(s, &end, 10);
	if (!*s || *end || v <= 0 || v > 1 << 30 || stat(s, &st) == 0)
		return -1;
	return (int)v;
}

/* With good runs (--ref, --baseline): the reference for the log at
 * path, set in o.  Returns 0, or -1 after printing an error. */
static int set_reference(struct live_opts *o, const char *path, char **refs, size_t nrefs,
			 const char *baseline, const char *store, unsigned run_flags)
{
	struct diff_args a;
	diff_args_init(&a, default_jobs(), NULL); /* for the gap: no report */
	a.run_flags = run_flags;
	struct input *goods = NULL;
	size_t n = nrefs;
	int rc = -1;
	if (baseline) {
		if (baseline_open(store, baseline, DIFF_MAX_LOGS - 1, &goods, &n) < 0)
			goto out;
	} else {
		goods = xcalloc(nrefs, sizeof(*goods));
		if (diff_open_goods(refs, nrefs, goods, a.jobs, a.run_flags) < 0)
			goto out;
	}
	double gap, step;
	if (diff_reference_gap(goods, n, path, &a, &gap, &step) == 0) {
		live_set_ref(o, gap, step, LIVE_REF_FACTOR, LIVE_REF_MIN_S);
		rc = 0;
	}
out:
	free(goods);
	diff_args_free(&a);
	return rc;
}

static int proc(int argc, char **argv, const struct out *out)
{
	static const struct option opts[] = {
		{ "ref", required_argument, NULL, 'g' },
		{ "baseline", required_argument, NULL, 'b' },
		{ "store", required_argument, NULL, 'B' },
		{ "json", no_argument, NULL, 'J' },
		{ "sample", required_argument, NULL, 's' },
		{ "stacks", no_argument, NULL, 'S' },
		{ "native-stacks", no_argument, NULL, 'N' },
		{ "stack-timeout", required_argument, NULL, 'T' },
		{ "proc-root", required_argument, NULL, 'R' },
		{ "one-run", no_argument, NULL, 'O' },
		{ NULL, 0, NULL, 0 },
	};
	struct live_opts o = { .sample_ms = 1000, .gpu = 1 };
	int json = 0, c;
	unsigned run_flags = 0;
	char **refs = xcalloc((size_t)argc + 1, sizeof(*refs));
	size_t nrefs = 0;
	const char *baseline = NULL, *store = NULL;
	while ((c = cmd_getopt(argc, argv, "", opts, &cmd_proc_entry)) != -1) {
		switch (c) {
		case 'g': refs[nrefs++] = optarg; break;
		case 'b': baseline = optarg; break;
		case 'B': store = optarg; break;
		case 'J': json = 1; break;
		case 'O': run_flags = LOG_ONE_RUN; break;
		case 'S': o.stacks = 1; break;
		case 'N': o.stacks = o.native_stacks = 1; break;
		case 's':
			if ((o.sample_ms = live_parse_interval(optarg)) < 0)
				die("invalid --sample '%s' (expected e.g. 1s or 500ms)", optarg);
			break;
		case 'T':
			if ((o.stack_timeout_ms = live_parse_interval(optarg)) <= 0)
				die("invalid --stack-timeout '%s' (expected e.g. 5s)", optarg);
			break;
		case 'R':
			/* A fixture tree's pids are not this machine's: NVML
			 * would answer about other processes. */
			o.root = optarg;
			o.gpu = 0;
			break;
		default:
			free(refs);
			return EXIT_TROUBLE;
		}
	}
	int nargs = argc - optind;
	int want_ref = nrefs || baseline;
	/* `--ref A B C`: the arguments after LOG are more good logs. */
	for (int i = optind + 1; want_ref && !baseline && i < argc; i++)
		refs[nrefs++] = argv[i];
	if (want_ref)
		nargs = nargs > 1 ? 1 : nargs;
	if (nargs < 1 || (baseline && argc - optind > 1) || (nrefs && baseline)) {
		if (baseline && nrefs)
			usage_error(&cmd_proc_entry, "give either --baseline or good logs, not both");
		else if (nargs < 1)
			usage_error(&cmd_proc_entry, "proc needs a LOG or a PID");
		else
			usage_error(&cmd_proc_entry, "with --baseline, give only the LOG");
		free(refs);
		return EXIT_TROUBLE;
	}
	if (nrefs + 1 > DIFF_MAX_LOGS) {
		error("too many good logs (%zu): at most %d", nrefs, DIFF_MAX_LOGS - 1);
		free(refs);
		return EXIT_TROUBLE;
	}
	const char *log = NULL;
	int *pids = xmalloc((size_t)nargs * sizeof(int));
	for (int i = 0; i < nargs; i++) {
		const char *a = argv[optind + i];
		pids[i] = pid_arg(a);
		if (pids[i] > 0)
			continue;
		if (nargs > 1) {
			free(pids);
			die("'%s' is not a pid (give one LOG, or PIDs)", a);
		}
		log = a;
	}
	if (!log) {
		o.pids = pids;
		o.npids = (size_t)nargs;
	}
	if (want_ref && !log) {
		free(pids);
		free(refs);
		die("good runs are compared with a LOG, not with PIDs");
	}
	if (want_ref && set_reference(&o, log, refs, nrefs, baseline, store, run_flags) < 0) {
		free(pids);
		free(refs);
		return EXIT_TROUBLE;
	}
	free(refs);
	struct live_report r;
	int rc = live_inspect(log, &o, &r);
	free(pids);
	if (rc < 0)
		return EXIT_TROUBLE;
	if (json) {
		report_proc_json(stdout, &r);
		putchar('\n');
	} else {
		report_proc_text(out, &r);
	}
	int hung = strcmp(r.liveness, "hung") == 0 || strcmp(r.liveness, "exited") == 0 ||
		   strcmp(r.liveness, "spinning") == 0 || strcmp(r.liveness, "dead-rank") == 0;
	live_report_free(&r);
	return hung ? EXIT_DIVERGED : EXIT_SAME;
}

const struct cmd cmd_proc_entry = {
	.name = "proc",
	.run = proc,
	.usage = "[--json] [--sample T] [--stacks | --native-stacks] LOG [--ref GOOD... | --baseline NAME] | PID...",
	.help =
	"Forensics of the live processes behind a log: every process that\n"
	"holds LOG open (found by device and inode, so also after a rename or\n"
	"delete) and their descendants, or the PIDs given and theirs.  For\n"
	"each: command line, state, wchan, the syscall it is in and what its\n"
	"first argument is, threads and their states, CPU time used over a\n"
	"short sample, RSS, age, listening sockets, GPU memory (when NVML is\n"
	"there).  Also the port the log names (port=8000, Uvicorn running on\n"
	"...) and whether anything listens on it.  Ends with a verdict:\n"
	"hung (blocked, the log quiet for 60 s), busy, busy or spinning, idle\n"
	"(blocked but its port listens, or the log written less than 60 s\n"
	"ago), exited or unknown.  Reads /proc only: never stops or traces the\n"
	"processes, and never reads a LOG that is not a regular file.\n"
	"\n"
	"With good runs, silence decides: a log quiet for more than 5 times\n"
	"the good runs' longest gap at the point it reached, plus 60 s, and\n"
	"for more than they spent in the step it is in, is hung whatever the\n"
	"CPU does; quiet for less it is never hung (busy, or idle).  Without\n"
	"them, CPU burning while the log has been quiet for 60 s, the I/O\n"
	"stands still and no port listens is \"busy or spinning\" (exit 1):\n"
	"ddx cannot tell which.\n"
	"\n"
	"  --ref GOOD        a log of a good run (repeatable; more GOODs may\n"
	"                    follow LOG)\n"
	"  --baseline NAME [--store PATH]\n"
	"                    the good runs of a stored baseline instead\n"
	"  --json            print the report as JSON\n"
	"  --sample T        sample CPU time over T (default 1s; 500ms, 0)\n"
	"  --stacks          add Python stacks from `py-spy dump --nonblocking`\n"
	"  --native-stacks   with the C/C++ frames too (`py-spy dump --native`):\n"
	"                    the one option that pauses each process, for the\n"
	"                    moment py-spy reads its stack\n"
	"  --stack-timeout T give py-spy at most T per process (default 5s)\n"
	"  --one-run         read a --ref folder of several whole runs as one\n"
	"  --proc-root DIR   read DIR instead of /proc (for testing)\n",
	.status = "1 when the processes are hung, busy or spinning, or\nexited; 0 when busy, idle or unknown",
};
