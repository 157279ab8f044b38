/* cmd_learn.c — `ddx learn NAME GOOD...`: keep good runs as a baseline
 * (baseline.c says what is kept of each). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "baseline.h"
#include "cmd.h"
#include "goodcheck.h"
#include "log.h"

/* A name a shell and a listing show as typed: 1 to 200 bytes of valid
 * UTF-8, not starting with '-', with no control character (C0, DEL, C1
 * such as U+009B, which terminals take for ESC [) and no invisible
 * character that reorders or hides text (bidirectional marks, embeddings,
 * overrides and isolates, zero-width characters, line separators). */
static int valid_name(const char *name)
{
	const unsigned char *p = (const unsigned char *)name;
	size_t n = strlen(name);
	if (n == 0 || n > 200 || name[0] == '-')
		return 0;
	for (size_t i = 0; i < n;) {
		if (p[i] < 0x20 || p[i] == 0x7f)
			return 0;
		size_t len = p[i] < 0x80 ? 1 : utf8_seq_len(p + i, n - i);
		if (len == 0)
			return 0;
		unsigned cp = len == 1 ? p[i] : p[i] & (0x3fu >> (len - 1));
		for (size_t k = 1; k < len; k++)
			cp = cp << 6 | (p[i + k] & 0x3fu);
		if ((cp >= 0x80 && cp <= 0x9f) || cp == 0x061c || (cp >= 0x200b && cp <= 0x200f) ||
		    (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0xfeff)
			return 0;
		i += len;
	}
	return 1;
}

static void check_name(const char *name)
{
	if (!valid_name(name)) {
		fputs("ddx: invalid baseline name '", stderr);
		put_text(stderr, name, strlen(name));
		fputs("' (1 to 200 printable characters, not starting with '-')\n", stderr);
		exit(EXIT_TROUBLE);
	}
}

/* Check the runs as `ddx diff` checks its good ones (goodcheck.h), by
 * the rules rs: load them into one table, judge, say why each doubted
 * one is.  Returns how many are, or -1 after an error; the logs stay in
 * logs[0..n), whose templates live in *tt. */
static int check_runs(char **paths, size_t n, int jobs, unsigned run_flags, const struct ruleset *rs,
		      struct log *logs, struct tmpl_table *tt, int force)
{
	for (size_t i = 0; i < n; i++)
		if (log_load(&logs[i], paths[i], (int)i, LOG_FULL | run_flags, jobs, tt) < 0)
			return -1;
	uint8_t *doubted = xcalloc(n, 1);
	struct dx_warning *ws = NULL;
	size_t nws = 0, bad = goodcheck_goods(logs, n, tt, rs, doubted, &ws, &nws);
	for (size_t k = 0; k < nws; k++) {
		fprintf(stderr, "ddx: %s", force ? "kept (--force): " : "");
		put_text(stderr, ws[k].text, strlen(ws[k].text));
		fputc('\n', stderr);
	}
	goodcheck_free(ws, nws);
	free(doubted);
	return (int)bad;
}

static int learn(int argc, char **argv, const struct out *out)
{
	(void)out; /* prints no colour, nor lines to fit */
	static const struct option opts[] = {
		{ "store", required_argument, NULL, 's' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "force", no_argument, NULL, 'f' },
		{ "one-run", no_argument, NULL, 'O' },
		{ NULL, 0, NULL, 0 },
	};
	const char *store_opt = NULL;
	int jobs = default_jobs(), force = 0, c;
	unsigned run_flags = 0;
	while ((c = cmd_getopt(argc, argv, "j:", opts, &cmd_learn_entry)) != -1) {
		switch (c) {
		case 's': store_opt = optarg; break;
		case 'j': jobs = parse_jobs(optarg); break;
		case 'f': force = 1; break;
		case 'O': run_flags = LOG_ONE_RUN; break;
		default: return EXIT_TROUBLE;
		}
	}
	if (argc - optind < 2)
		return usage_error(&cmd_learn_entry, "learn needs a NAME and at least one good LOG");
	if (stdin_once(&cmd_learn_entry, argv + optind, (size_t)(argc - optind)) < 0)
		return EXIT_TROUBLE;
	const char *name = argv[optind++];
	/* `ddx learn run-1.log run-2.log`: the name was forgotten. */
	struct stat sb;
	if (stat(name, &sb) == 0)
		die("NAME is missing: '%s' is a file (ddx learn NAME GOOD...)", name);
	check_name(name);
	size_t n = (size_t)(argc - optind);
	/* Runs that crashed or never came up would make a baseline that
	 * every failure matches: refused unless --force. */
	struct log *logs = xcalloc(n, sizeof(*logs));
	struct tmpl_table shared;
	tmpl_init(&shared);
	/* The rules every command has: those check compares engines by. */
	struct ruleset rs = { 0 };
	int doubted = rules_init(&rs, NULL, 0) < 0 ? -1
		: check_runs(argv + optind, n, jobs, run_flags, &rs, logs, &shared, force);
	int rc = doubted < 0 ? EXIT_TROUBLE : EXIT_SAME;
	if (doubted > 0 && !force) {
		error("not learned: %d of the runs %s no good (--force keeps them)", doubted,
		      doubted == 1 ? "is" : "are");
		rc = EXIT_TROUBLE;
	}
	/* Read and compress everything before opening the store: the write
	 * transaction then holds the lock only for the inserts.  Each run's
	 * templates are its own, in a table of its own. */
	struct run *runs = xcalloc(n, sizeof(*runs));
	struct tmpl_table *tts = xcalloc(n, sizeof(*tts));
	struct arena a = { 0 };
	for (size_t i = 0; i < n && rc == EXIT_SAME; i++) {
		struct log lg;
		struct input view;
		tmpl_init(&tts[i]);
		input_borrow(&view, &logs[i].in);
		log_load_input(&lg, &view, 0, LOG_FULL, jobs, &tts[i]);
		baseline_describe(&runs[i], &lg, &tts[i], &rs, &a);
		store_compress(&runs[i], lg.in.data, lg.in.size);
		log_free(&lg);
	}
	for (size_t i = 0; i < n; i++)
		log_free(&logs[i]);
	free(logs);
	tmpl_free(&shared);
	struct store *st = rc == EXIT_SAME ? baseline_store(store_opt, STORE_WRITE) : NULL;
	size_t added = 0;
	if (!st || store_learn(st, name, runs, n, &added) < 0)
		rc = EXIT_TROUBLE;
	if (rc == EXIT_SAME) {
		for (size_t i = 0; i < n; i++) {
			put_text(stdout, runs[i].name, strlen(runs[i].name));
			if (runs[i].id)
				printf(": %llu lines, %zu templates, %s\n", (unsigned long long)runs[i].lines,
				       runs[i].ntmpl, runs[i].engine);
			else
				printf(": already in '%s'\n", name);
		}
		struct baseline b;
		if (store_find(st, name, &b, &a) == 1) {
			char sz[16], stored[16];
			fmt_size(sz, sizeof(sz), b.size);
			fmt_size(stored, sizeof(stored), b.stored);
			printf("baseline '%s': %zu run%s added, %zu run%s (%s, %s stored)\n", name,
			       added, added == 1 ? "" : "s", b.nruns, b.nruns == 1 ? "" : "s", sz, stored);
		}
	}
	store_close(st);
	for (size_t i = 0; i < n; i++) {
		free(runs[i].tmpl);
		free(runs[i].cfg);
		store_run_release(&runs[i]);
		tmpl_free(&tts[i]);
	}
	free(runs);
	free(tts);
	arena_free(&a);
	rules_free(&rs);
	return rc;
}

const struct cmd cmd_learn_entry = {
	.name = "learn",
	.run = learn,
	.usage = "[--store PATH] [-j N] [--force] NAME GOOD...",
	.help =
	"Keep the good logs as the baseline NAME in the store: their content,\n"
	"compressed, and what was learned from them (templates with counts,\n"
	"lines, first and last timestamps, header format, engine, the\n"
	"configuration they print).  Learning more runs under an existing NAME\n"
	"adds them; a run whose content is already there is not added twice.\n"
	"Runs are checked first, as `ddx diff` checks its good runs: one that\n"
	"is empty, crashed or never came up is named, with why, and nothing is\n"
	"learned (exit 2).  NAME must not be an existing file (a forgotten\n"
	"NAME).\n"
	"\n"
	"  --force      learn such runs all the same; the store does not mark\n"
	"               them, but check and diff --baseline check the runs\n"
	"               again and leave them out of the comparison\n"
	"  --one-run    read a folder whose files are several whole runs as one\n"
	"  --store PATH the store: a file, or a postgresql://USER@HOST/DB\n"
	"               URL for a team's (default: $DDX_STORE, else\n"
	"               $XDG_DATA_HOME/ddx/baselines.db, else\n"
	"               ~/.local/share/ddx/baselines.db)\n"
	"  -j, --jobs N use N threads (default: the CPUs, at most 8)\n",
	.status = "0 when the baseline was learned",
};
