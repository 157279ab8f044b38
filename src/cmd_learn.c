/* cmd_learn.c — `ddx learn NAME GOOD...`: keep good runs as a baseline
 * (baseline.c says what is kept of each). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "cmd.h"
#include "log.h"

/* A name a shell and a listing show as typed. */
static void check_name(const char *name)
{
	if (!*name || name[0] == '-' || strlen(name) > 200)
		die("invalid baseline name '%s'", name);
	for (const char *p = name; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			die("invalid baseline name (control characters)");
}

static int learn(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "store", required_argument, NULL, 's' },
		{ "jobs", required_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	const char *store_opt = NULL;
	int jobs = default_jobs(), c;
	while ((c = getopt_long(argc, argv, "j:", opts, NULL)) != -1) {
		switch (c) {
		case 's': store_opt = optarg; break;
		case 'j': jobs = parse_jobs(optarg); break;
		default: return EXIT_TROUBLE;
		}
	}
	if (argc - optind < 2) {
		print_command_help(&cmd_learn_entry);
		return EXIT_TROUBLE;
	}
	const char *name = argv[optind++];
	check_name(name);
	size_t n = (size_t)(argc - optind);
	/* Read and compress everything before opening the store: the write
	 * transaction then holds the lock only for the inserts. */
	struct run *runs = xcalloc(n, sizeof(*runs));
	struct tmpl_table *tts = xcalloc(n, sizeof(*tts));
	struct arena a = { 0 };
	int rc = EXIT_SAME;
	for (size_t i = 0; i < n && rc == EXIT_SAME; i++) {
		struct log lg;
		tmpl_init(&tts[i]);
		if (log_load(&lg, argv[optind + i], 0, LOG_FULL, jobs, &tts[i]) < 0) {
			rc = EXIT_TROUBLE;
			break;
		}
		baseline_describe(&runs[i], &lg, &tts[i], &a);
		store_compress(&runs[i], lg.in.data, lg.in.size);
		log_free(&lg);
	}
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
	return rc;
}

const struct cmd cmd_learn_entry = {
	.name = "learn",
	.run = learn,
	.usage = "[--store PATH] [-j N] NAME GOOD...",
	.help =
	"Keep the good logs as the baseline NAME in the store: their content,\n"
	"compressed, and what was learned from them (templates with counts,\n"
	"lines, first and last timestamps, header format, engine, the\n"
	"configuration they print).  Learning more runs under an existing NAME\n"
	"adds them; a run whose content is already there is not added twice.\n"
	"\n"
	"  --store PATH the store (default: $DDX_STORE, else\n"
	"               $XDG_DATA_HOME/ddx/baselines.db, else\n"
	"               ~/.local/share/ddx/baselines.db)\n"
	"  -j, --jobs N use N threads (default: the CPUs, at most 8)\n",
};
