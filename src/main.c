/* main.c — ddx's entry point: global options and the command table. */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "util.h"

static const struct cmd commands[] = {
	{ "diff", cmd_diff, "[--json] [--now TIME] [--rules FILE] [-j N] [--sample T | --no-proc] GOOD... BAD | --baseline NAME BAD",
	  "Compare the log of a failed or silent run (the last argument) with logs\n"
	  "of good runs: say whether it stopped, crashed or went another way, the\n"
	  "good line its last step corresponds to, the good run's next milestones,\n"
	  "lines only it has, configuration values that changed, slow steps, and\n"
	  "how far each rank got.  When processes still hold the bad log open for\n"
	  "writing, a last section says what they are blocked in, whether their\n"
	  "CPU time moves and whether the port the log names listens (as `ddx\n"
	  "proc` does): hung, busy or idle.\n"
	  "\n"
	  "  --json        print the report as JSON (schema 1)\n"
	  "  --now TIME    take TIME as now for \"silent for\": +SECONDS after the\n"
	  "                bad log's last line, or YYYY-MM-DD HH:MM:SS in the logs'\n"
	  "                clock (default: the wall clock against the file's mtime)\n"
	  "  --rules FILE  add or override milestone rules (repeatable; see\n"
	  "                `ddx help phases`); without rules, milestones are\n"
	  "                learned: lines every good log prints once per rank\n"
	  "  -j, --jobs N  use N threads to read each log\n"
	  "  --sample T    sample the CPU time of the processes that hold the bad\n"
	  "                log over T (default 1s; 500ms; 0); nobody holding it\n"
	  "                costs one scan of /proc and no wait\n"
	  "  --no-proc     do not look for the processes behind the bad log\n"
	  "  --html FILE   also write the report as a self-contained HTML page\n"
	  "  --baseline NAME [--store PATH]\n"
	  "                take the good runs from a stored baseline (see `ddx\n"
	  "                help learn`): the same as `ddx check --baseline NAME`\n"
	  "\n"
	  "Exit status: 0 when the bad log matches the good runs, 1 otherwise.\n" },
	{ "phases", cmd_phases, "[--json] [--rules FILE]... LOG",
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
	  "'step NAME: PATTERN' or 'final NAME: PATTERN' (a milestone meaning the\n"
	  "run is up), PATTERN being a PCRE2 pattern searched in the line's\n"
	  "template; '#' starts a comment line.\n"
	  "\n"
	  "  --json        print the timeline as JSON\n"
	  "  --rules FILE  add or override milestone rules\n"
	  "  -j, --jobs N  use N threads (default: the CPUs, at most 8)\n" },
	{ "templates", cmd_templates, "[-j N] [--ids | --json] LOG...",
	  "Print the line templates of the logs, with their counts and the first\n"
	  "line where each occurs, in order of first occurrence.\n"
	  "\n"
	  "  --ids        print one template id per input line instead\n"
	  "  --json       print the templates as JSON\n"
	  "  -j, --jobs N use N threads (default: the CPUs, at most 8);\n"
	  "               the output does not depend on N\n" },
	{ "parse", cmd_parse, "[-j N] [--json] LOG...",
	  "Show what ddx understood of each line's header: per line, the line\n"
	  "number, the timestamp (ISO-8601 UTC), the level, the rank or process\n"
	  "tag and the message, tab-separated, '-' for what the line lacks.\n"
	  "With several logs each line starts with the log's path.\n"
	  "\n"
	  "  --json       print the same as JSON, with the detected format\n"
	  "  -j, --jobs N use N threads (default: the CPUs, at most 8)\n" },
	{ "proc", cmd_proc, "[--json] [--sample T] [--stacks] LOG | PID...",
	  "Forensics of the live processes behind a log: every process that\n"
	  "holds LOG open (found by device and inode, so also after a rename or\n"
	  "delete) and their descendants, or the PIDs given and theirs.  For\n"
	  "each: command line, state, wchan, the syscall it is in and what its\n"
	  "first argument is, threads and their states, CPU time used over a\n"
	  "short sample, RSS, age, listening sockets, GPU memory (when NVML is\n"
	  "there).  Also the port the log names (port=8000, Uvicorn running on\n"
	  "...) and whether anything listens on it.  Ends with a verdict:\n"
	  "hung, busy, idle (blocked but its port listens), exited or unknown.\n"
	  "Reads /proc only: never stops or traces the processes.\n"
	  "\n"
	  "  --json            print the report as JSON\n"
	  "  --sample T        sample CPU time over T (default 1s; 500ms, 0)\n"
	  "  --stacks          add Python stacks from `py-spy dump --nonblocking`\n"
	  "  --stack-timeout T give py-spy at most T per process (default 5s)\n"
	  "  --proc-root DIR   read DIR instead of /proc (for testing)\n"
	  "\n"
	  "Exit status 1 means hung or exited; busy, idle and unknown exit 0.\n" },
	{ "watch", cmd_watch, "[OPTIONS] LOG --ref GOOD [GOOD...] | --baseline NAME",
	  "Follow LOG while a run writes it, against logs of good runs: print a\n"
	  "line for each milestone it reaches (k of n, where the good run was at\n"
	  "it, the next one and when the good run reached it), and on a terminal\n"
	  "a status line on stderr.  Follows the log through truncation, rotation\n"
	  "and renaming.  Ends when the run reaches the good run's final milestone\n"
	  "(exit 0), or when it hangs: no line but heartbeats for longer than\n"
	  "FACTOR times the good runs' longest gap at that point plus the\n"
	  "minimum silence; or when it crashed and stayed quiet for the minimum\n"
	  "silence; or at the timeout.  Then it prints the report `ddx diff`\n"
	  "would and what `ddx proc` says of the processes that hold the log,\n"
	  "and exits 1.\n"
	  "\n"
	  "  --ref GOOD        a log of a good run (repeatable; more GOODs may\n"
	  "                    follow LOG)\n"
	  "  --baseline NAME [--store PATH]\n"
	  "                    the good runs of a stored baseline instead\n"
	  "  --factor F        times the good runs' longest gap (default 5)\n"
	  "  --min-silence T   plus this much quiet (default 60s; 500ms, 2m)\n"
	  "  --timeout T       give up after T (default never): exit 1, with a\n"
	  "                    message saying it is not a hang\n"
	  "  --interval T      look at the log every T (default 1s)\n"
	  "  --sample T        CPU sample of the processes on a hang (default 1s)\n"
	  "  --rules FILE      add or override milestone rules\n"
	  "\n"
	  "As a startup watchdog:\n"
	  "  server ... >log 2>&1 & ddx watch log --ref good.log || kill $!\n" },
	{ "learn", cmd_learn, "[--store PATH] [-j N] NAME GOOD...",
	  "Keep the good logs as the baseline NAME in the store: their content,\n"
	  "compressed, and what was learned from them (templates with counts,\n"
	  "lines, first and last timestamps, header format, engine, the\n"
	  "configuration they print).  Learning more runs under an existing NAME\n"
	  "adds them; a run whose content is already there is not added twice.\n"
	  "\n"
	  "  --store PATH the store (default: $DDX_STORE, else\n"
	  "               $XDG_DATA_HOME/ddx/baselines.db, else\n"
	  "               ~/.local/share/ddx/baselines.db)\n"
	  "  -j, --jobs N use N threads (default: the CPUs, at most 8)\n" },
	{ "check", cmd_check, "[--store PATH] [--baseline NAME] [diff options] BAD",
	  "Compare BAD with a stored baseline: the report of `ddx diff` against\n"
	  "the baseline's runs, read from the store.  Without --baseline, pick\n"
	  "the baseline that fits BAD best (the share of BAD's templates it\n"
	  "knows, rarer templates counting more; the engine; the configuration)\n"
	  "and say which and why first (on stderr with --json).\n"
	  "\n"
	  "  --baseline NAME  compare with this baseline\n"
	  "  --store PATH     the store (as for learn)\n"
	  "  --json, --now TIME, --rules FILE, --sample T, --no-proc, --html FILE\n"
	  "                   as for `ddx diff`\n"
	  "  -j, --jobs N     use N threads (default: the CPUs, at most 8)\n" },
	{ "baselines", cmd_baselines, "[--store PATH] [list | show NAME | cat NAME [RUN] | rm NAME | export NAME FILE | import FILE]",
	  "Manage the stored baselines.\n"
	  "\n"
	  "  list              name, runs, lines, size, engine, last update (default)\n"
	  "  show NAME         each run: lines, size, templates, format, engine,\n"
	  "                    time span and main configuration (--config: all of it)\n"
	  "  cat NAME [RUN]    write run RUN (1, 2, ...) as it was learned to stdout\n"
	  "  rm NAME           remove a baseline\n"
	  "  export NAME FILE  write the baseline alone to FILE, a store of its own\n"
	  "                    (a SQLite file) to share or keep beside a deployment\n"
	  "  import FILE       add the baselines of an exported FILE; runs already\n"
	  "                    stored under the same name are not added twice\n" },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

const struct cmd *find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

void print_command_help(const struct cmd *c)
{
	printf("usage: ddx %s %s\n\n%s", c->name, c->usage, c->help);
	printf("\nCommon options: --color=always|never|auto, -h/--help.\n"
	       "Exit status: 0 same or healthy, 1 diverged or hung, 2 error.\n");
}

static void usage(FILE *f)
{
	fprintf(f, "usage: ddx [--version] [--help] [--color=WHEN] COMMAND [ARGS]\n\n"
		   "ddx does differential diagnosis of logs.  Commands:\n\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].usage);
	fprintf(f, "\n'ddx help COMMAND' describes one command; 'man ddx' all of them.\n");
}

/* Whether s is printable ASCII, as every option is. */
static int plain_ascii(const char *s)
{
	for (const unsigned char *u = (const unsigned char *)s; *u; u++)
		if (*u < 0x20 || *u >= 0x7f)
			return 0;
	return 1;
}

int parse_jobs(const char *s)
{
	char *end;
	long n = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || n < 1 || n > 64)
		die("invalid job count '%s' (expected 1 to 64)", s);
	return (int)n;
}

int default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 8 ? 8 : (int)n;
}

static enum color_mode parse_color(const char *s)
{
	if (!s || strcmp(s, "always") == 0)
		return COLOR_ALWAYS;
	if (strcmp(s, "never") == 0)
		return COLOR_NEVER;
	if (strcmp(s, "auto") == 0)
		return COLOR_AUTO;
	die("invalid --color value '%s' (expected always, never or auto)", s);
}

int main(int argc, char **argv)
{
	enum color_mode color = COLOR_AUTO;
	int i = 1;
	/* `ddx ... | head` must end quietly even when the parent ignored
	 * SIGPIPE (some CI runners and language runtimes do). */
	signal(SIGPIPE, SIG_DFL);
	/* Global options come before the command; --color is also accepted
	 * after it (removed here so commands need not know it). */
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--version") == 0) {
			printf("ddx %s\n", DDX_VERSION);
			return 0;
		} else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			usage(stdout);
			return 0;
		} else if (strncmp(argv[i], "--color", 7) == 0 &&
			   (argv[i][7] == '\0' || argv[i][7] == '=')) {
			color = parse_color(argv[i][7] ? argv[i] + 8 : NULL);
		} else {
			error("unknown option '%s'", argv[i]);
			usage(stderr);
			return EXIT_TROUBLE;
		}
	}
	if (i >= argc) {
		usage(stderr);
		return EXIT_TROUBLE;
	}
	int n = 0;
	for (int k = i; k < argc; k++) {
		if (strcmp(argv[k], "--") == 0) {
			while (k < argc)
				argv[n++] = argv[k++];
			break;
		}
		if (strncmp(argv[k], "--color", 7) == 0 && (argv[k][7] == '\0' || argv[k][7] == '=')) {
			color = parse_color(argv[k][7] ? argv[k] + 8 : NULL);
		} else if (argv[k][0] == '-' && !plain_ascii(argv[k])) {
			/* getopt would quote it raw: a file named with an escape
			 * sequence, reaching us through a glob, could then drive
			 * the terminal.  error() escapes it. */
			error("unknown option '%s'", argv[k]);
			return EXIT_TROUBLE;
		} else {
			argv[n++] = argv[k];
		}
	}
	argv[n] = NULL;
	color_init(color);
	if (strcmp(argv[0], "help") == 0) {
		if (n < 2) {
			usage(stdout);
			return 0;
		}
		const struct cmd *c = find_command(argv[1]);
		if (!c)
			die("no such command '%s' (see 'ddx --help')", argv[1]);
		print_command_help(c);
		return 0;
	}
	const struct cmd *c = find_command(argv[0]);
	if (!c) {
		error("no such command '%s'", argv[0]);
		usage(stderr);
		return EXIT_TROUBLE;
	}
	for (int k = 1; k < n && strcmp(argv[k], "--") != 0; k++)
		if (strcmp(argv[k], "-h") == 0 || strcmp(argv[k], "--help") == 0) {
			print_command_help(c);
			return 0;
		}
	/* getopt names argv[0] in its messages: "ddx: unrecognized option". */
	argv[0] = "ddx";
	int rc = c->run(n, argv);
	if (fflush(stdout) != 0 || ferror(stdout))
		die("cannot write to standard output");
	return rc;
}
