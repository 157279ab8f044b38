/* main.c — ddx's entry point: the command table, the global options,
 * and handing the command line to the command it names.  What the
 * commands share is cmd_util.c's. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "terminal.h"
#include "util.h"

/* In the order `ddx --help` lists them. */
static const struct cmd *const commands[] = {
	&cmd_diff_entry, &cmd_phases_entry, &cmd_templates_entry, &cmd_parse_entry,
	&cmd_proc_entry, &cmd_watch_entry, &cmd_learn_entry, &cmd_check_entry,
	&cmd_baselines_entry, &cmd_failures_entry,
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static const struct cmd *find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i]->name, name) == 0)
			return commands[i];
	return NULL;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: ddx [--version] [--help] [--color=WHEN] [--no-pager] COMMAND [ARGS]\n\n"
		   "ddx does differential diagnosis of logs.  Commands:\n\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-10s %s\n", commands[i]->name, commands[i]->usage);
	fprintf(f, "\n'ddx help COMMAND' describes one command; 'man ddx' all of them.\n");
}

static int no_such_command(const char *name)
{
	const char *names[NCOMMANDS + 1];
	for (size_t i = 0; i < NCOMMANDS; i++)
		names[i] = commands[i]->name;
	names[NCOMMANDS] = "help";
	const char *hint = did_you_mean(name, names, NCOMMANDS + 1);
	if (hint)
		return usage_error(NULL, "no such command '%s' (did you mean '%s'?)", name, hint);
	return usage_error(NULL, "no such command '%s'", name);
}

/* An option before the command that is none of ddx's own. */
static int unknown_global_option(const char *arg)
{
	static const char *const names[] = { "version", "help", "color", "no-pager" };
	const char *hint = NULL;
	if (strncmp(arg, "--", 2) == 0) {
		char *name = xasprintf("%.*s", (int)strcspn(arg + 2, "="), arg + 2);
		hint = did_you_mean(name, names, sizeof(names) / sizeof(names[0]));
		free(name);
	}
	if (hint)
		return usage_error(NULL, "unknown option '%s' (did you mean '--%s'?)", arg, hint);
	return usage_error(NULL, "unknown option '%s'", arg);
}

/* Whether s is printable ASCII, as every option is. */
static int plain_ascii(const char *s)
{
	for (const unsigned char *u = (const unsigned char *)s; *u; u++)
		if (*u < 0x20 || *u >= 0x7f)
			return 0;
	return 1;
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

/* Parse the global options and run the command: its exit status. */
static int run_command(int argc, char **argv)
{
	enum color_mode color = COLOR_AUTO;
	int i = 1, paged = 1;
	/* Global options come before the command; --color and --no-pager are
	 * also accepted after it (removed here so commands need not know
	 * them). */
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
		} else if (strcmp(argv[i], "--no-pager") == 0) {
			paged = 0;
		} else {
			return unknown_global_option(argv[i]);
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
		} else if (strcmp(argv[k], "--no-pager") == 0) {
			paged = 0;
		} else if (argv[k][0] == '-' && !plain_ascii(argv[k])) {
			/* getopt would quote it raw: a file named with an escape
			 * sequence, reaching us through a glob, could then drive
			 * the terminal.  error() escapes it.  The command is
			 * argv[0] by now. */
			return usage_error(find_command(argv[0]), "unknown option '%s'", argv[k]);
		} else {
			argv[n++] = argv[k];
		}
	}
	argv[n] = NULL;
	pager_init(paged);
	struct out out = { stdout, term_colour(color), (size_t)term_width(), term_sized() };
	if (strcmp(argv[0], "help") == 0) {
		if (n < 2) {
			usage(stdout);
			return 0;
		}
		const struct cmd *c = find_command(argv[1]);
		if (!c)
			return no_such_command(argv[1]);
		print_command_help(c);
		return 0;
	}
	const struct cmd *c = find_command(argv[0]);
	if (!c)
		return no_such_command(argv[0]);
	for (int k = 1; k < n && strcmp(argv[k], "--") != 0; k++)
		if (strcmp(argv[k], "-h") == 0 || strcmp(argv[k], "--help") == 0) {
			print_command_help(c);
			return 0;
		}
	/* getopt names argv[0] in its messages: "ddx: unrecognized option". */
	argv[0] = "ddx";
	return c->run(n, argv, &out);
}

int main(int argc, char **argv)
{
	/* `ddx ... | head` must end quietly even when the parent ignored
	 * SIGPIPE (some CI runners and language runtimes do). */
	signal(SIGPIPE, SIG_DFL);
	/* A file grown past the file size limit (ulimit -f: a page, an
	 * export, the store, redirected output) would kill ddx mid-write,
	 * with no word and its temporary files left.  Ignored, the write
	 * fails with EFBIG, which is said and cleaned up as any write error. */
	signal(SIGXFSZ, SIG_IGN);
	int rc = run_command(argc, argv);
	/* Output that never arrived (stdout closed, a full disk) is an
	 * error for every command, --version and help included, as in git:
	 * a script must not take a truncated answer for a whole one. */
	int e = fflush(stdout) != 0 ? errno : ferror(stdout) ? EIO : 0;
	if (e)
		die("cannot write to standard output: %s", strerror(e));
	return rc;
}
