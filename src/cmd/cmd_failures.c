/* cmd_failures.c — `ddx failures`: the failure memory, the signatures of
 * the runs `ddx check` found failing, most frequent first; `ddx failures
 * fix` records what fixed one; export and import move the memory between
 * stores. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "json.h"
#include "report.h"
#include "store.h"

/* A column of untrusted text, cut to width characters' room. */
static void column(const char *s, size_t width)
{
	size_t n = strlen(s);
	if (n <= width) {
		put_text_padded(stdout, s, width);
		return;
	}
	/* Cut on a character's first byte; the ellipsis takes 3 bytes, one
	 * column. */
	size_t k = width - 1;
	while (k > 0 && ((unsigned char)s[k] & 0xc0) == 0x80)
		k--;
	char *cut = xasprintf("%.*s…", (int)k, s);
	put_text_padded(stdout, cut, width + 2);
	free(cut);
}

static void print_text(const struct failure_sig *fs, size_t n)
{
	if (n == 0) {
		printf("no failures recorded (`ddx check` records each run it finds failing)\n");
		return;
	}
	printf("%5s  %-20s  %-20s  %-16s  %-16s  %s\n", "COUNT", "FIRST SEEN", "LAST SEEN", "LAST HOST",
	       "BASELINES", "SIGNATURE");
	for (size_t i = 0; i < n; i++) {
		char first[SEEN_TIME_SIZE], last[SEEN_TIME_SIZE];
		signature_time(fs[i].first, first);
		signature_time(fs[i].last, last);
		printf("%5llu  %-20s  %-20s  ", (unsigned long long)fs[i].count, first, last);
		column(fs[i].last_host, 16);
		fputs("  ", stdout);
		struct buf names = { 0 };
		buf_append(&names, "", 0);
		for (size_t k = 0; k < fs[i].nbaselines; k++)
			buf_printf(&names, "%s%s", k ? ", " : "", fs[i].baselines[k]);
		column(names.p, 16);
		buf_free(&names);
		fputs("  ", stdout);
		put_text(stdout, fs[i].key, strlen(fs[i].key));
		fputs("\n       ", stdout);
		put_text(stdout, fs[i].summary, strlen(fs[i].summary));
		fputc('\n', stdout);
		if (fs[i].fix.text) {
			char when[SEEN_TIME_SIZE];
			signature_time(fs[i].fix.fixed, when);
			fputs("       fixed last time by: ", stdout);
			put_text(stdout, fs[i].fix.text, strlen(fs[i].fix.text));
			printf(" (%s, on ", when);
			put_text(stdout, fs[i].fix.host, strlen(fs[i].fix.host));
			fputs(")\n", stdout);
		}
	}
}

static void print_json(const struct failure_sig *fs, size_t n)
{
	static const struct jw_layout doc = { JW_LINES | JW_CLOSE_ALWAYS, 2, 0 };
	static const struct jw_layout rows = { JW_LINES | JW_CLOSE_LINE, 4, 2 };
	struct jw jw;
	jw_init(&jw, stdout);
	jw_object_begin(&jw, &doc);
	jw_object_int(&jw, "schema", 1);
	jw_object_array(&jw, "failures", &rows);
	for (size_t i = 0; i < n; i++) {
		jw_object_begin(&jw, NULL);
		jw_object_string(&jw, "signature", fs[i].key);
		jw_object_string(&jw, "summary", fs[i].summary);
		jw_object_string(&jw, "verdict", fs[i].verdict);
		jw_object_int(&jw, "count", (long long)fs[i].count);
		jw_object_time(&jw, "first", fs[i].first * 1000);
		jw_object_time(&jw, "last", fs[i].last * 1000);
		jw_object_string(&jw, "last_host", fs[i].last_host);
		jw_object_string(&jw, "last_run", fs[i].last_name);
		jw_object_array(&jw, "baselines", NULL);
		for (size_t k = 0; k < fs[i].nbaselines; k++)
			jw_array_string(&jw, fs[i].baselines[k]);
		jw_end(&jw);
		report_json_fix(&jw, &fs[i].fix);
		jw_end(&jw);
	}
	jw_end(&jw);
	jw_end(&jw);
	putchar('\n');
}

/* fix SIGNATURE TEXT: record TEXT as what fixed the signature given
 * (whole, or a unique prefix of it). */
static int fix(const char *path, const char *given, const char *text)
{
	int missing, rc = EXIT_TROUBLE;
	struct store *st = store_open(path, STORE_EXPORT, &missing);
	struct arena a = { 0 };
	const char *key;
	int found = st ? store_failure_find(st, given, &key, &a) : 0;
	if (found == 0 && (st || missing)) {
		char *shown = store_shown(path);
		error("'%s': no failure has the signature '%s' (`ddx failures` lists them)", shown,
		      given);
		free(shown);
	} else if (found == 1) {
		char host[256];
		failure_host(host, sizeof(host));
		if (store_fix_record(st, key, text, host) == 0) {
			printf("recorded the fix of %s: ", key);
			put_text(stdout, text, strlen(text));
			putchar('\n');
			rc = EXIT_SAME;
		}
	}
	arena_free(&a);
	store_close(st);
	return rc;
}

/* The list, of the runs checked with baseline name when not NULL, of the
 * last days when not negative. */
static int list(const char *path, const char *name, double days, int json)
{
	int missing, rc = EXIT_TROUBLE;
	struct store *st = store_open(path, STORE_READ, &missing);
	struct arena a = { 0 };
	struct failure_sig *fs = NULL;
	size_t n = 0;
	if (st || missing) {
		int64_t since = days >= 0 ? (int64_t)(days * 86400) : -1;
		if (!st || store_failures(st, name, since, &fs, &n, &a) == 0) {
			if (json)
				print_json(fs, n);
			else
				print_text(fs, n);
			rc = EXIT_SAME;
		}
	}
	free(fs);
	arena_free(&a);
	store_close(st);
	return rc;
}

/* The error of a store that holds no failure: said as fix's. */
static void none_recorded(const char *path)
{
	char *shown = store_shown(path);
	error("'%s': no failures recorded (`ddx check` records each run it finds failing)", shown);
	free(shown);
}

/* export FILE: the failure memory alone, a store of its own. */
static int export(const char *path, const char *file)
{
	int missing, rc = EXIT_TROUBLE;
	struct store *st = store_open(path, STORE_EXPORT, &missing);
	struct outfile out;
	size_t nrec, nfix;
	if (missing) {
		none_recorded(path);
	} else if (st && export_open(&out, path, file) == 0) {
		int r = export_close(&out, store_export_failures(st, file, out.tmp, &nrec, &nfix));
		if (r == 0)
			none_recorded(path);
		if (r == 1) {
			printf("exported %zu failure record%s and %zu fix%s to '%s'\n", nrec,
			       nrec == 1 ? "" : "s", nfix, nfix == 1 ? "" : "es", file);
			rc = EXIT_SAME;
		}
	}
	store_close(st);
	return rc;
}

/* import FILE: the failure memory of an exported FILE, added. */
static int import(const char *path, const char *file)
{
	int missing, rc = EXIT_TROUBLE;
	struct store *st = store_open(path, STORE_WRITE, &missing);
	size_t nrec, nfix;
	if (st && store_import_failures(st, file, &nrec, &nfix) == 0) {
		printf("imported %zu failure record%s and %zu fix%s from '%s'\n", nrec,
		       nrec == 1 ? "" : "s", nfix, nfix == 1 ? "" : "es", file);
		rc = EXIT_SAME;
	}
	store_close(st);
	return rc;
}

static int failures(int argc, char **argv, const struct out *out)
{
	(void)out; /* prints no colour, nor lines to fit */
	static const struct option opts[] = {
		{ "store", required_argument, NULL, 'S' },
		{ "baseline", required_argument, NULL, 'b' },
		{ "since", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'J' },
		{ NULL, 0, NULL, 0 },
	};
	const char *store_opt = NULL, *name = NULL;
	int json = 0, c;
	double days = -1;
	while ((c = cmd_getopt(argc, argv, "b:", opts, &cmd_failures_entry)) != -1) {
		switch (c) {
		case 'S': store_opt = optarg; break;
		case 'b': name = optarg; break;
		case 'J': json = 1; break;
		case 'd': {
			char *end;
			days = strtod(optarg, &end);
			if (end == optarg || *end || !(days >= 0) || days > 1e6)
				return usage_error(&cmd_failures_entry, "invalid --since '%s' (expected DAYS)",
						   optarg);
			break;
		}
		default: return EXIT_TROUBLE;
		}
	}
	const char *sub = optind < argc ? argv[optind++] : "list";
	static const char *const subs[] = { "list", "fix", "export", "import" };
	static const int nargs[] = { 0, 2, 1, 1 };
	size_t k = 0, nsubs = sizeof(subs) / sizeof(subs[0]);
	while (k < nsubs && strcmp(subs[k], sub) != 0)
		k++;
	if (k == nsubs) {
		const char *hint = did_you_mean(sub, subs, nsubs);
		if (hint)
			return usage_error(&cmd_failures_entry, "no such subcommand 'failures %s' "
					   "(did you mean '%s'?)", sub, hint);
		return usage_error(&cmd_failures_entry, "no such subcommand 'failures %s'", sub);
	}
	if (argc - optind != nargs[k])
		return usage_error(&cmd_failures_entry, "%s", k == 0 ? "failures takes no arguments" :
				   k == 1 ? "failures fix needs a SIGNATURE and one TEXT (quote it)" :
				   k == 2 ? "failures export needs a FILE" : "failures import needs a FILE");
	if (k > 0 && (json || name || days >= 0))
		return usage_error(&cmd_failures_entry, "--json, --baseline and --since list the "
				   "failures: not for 'failures %s'", sub);
	if (k == 1 && !argv[optind + 1][0])
		return usage_error(&cmd_failures_entry, "failures fix: the TEXT is empty");
	char *path = store_path(store_opt);
	int rc = k == 0 ? list(path, name, days, json) :
		 k == 1 ? fix(path, argv[optind], argv[optind + 1]) :
		 k == 2 ? export(path, argv[optind]) : import(path, argv[optind]);
	free(path);
	return rc;
}

const struct cmd cmd_failures_entry = {
	.name = "failures",
	.run = failures,
	.usage = "[--store PATH] [[list] [--json] [--baseline NAME] [--since DAYS] | fix SIGNATURE TEXT | export FILE | import FILE]",
	.help =
	"List the failure memory: each way runs failed, as `ddx check` and\n"
	"`ddx diff --baseline` recorded them, most frequent first, then most\n"
	"recent.  A failure's signature is its crash's cause, or the last step\n"
	"it reached, as a template: runs that failed the same way share one\n"
	"whatever their numbers, paths, hosts and times.  Each line gives the\n"
	"count, the first and last time (UTC), the host of the last run, the\n"
	"baselines they were checked with, the signature, and the fix last\n"
	"recorded for it.  A run is counted once, however often it is checked.\n"
	"\n"
	"`ddx failures fix SIGNATURE TEXT` records TEXT as what fixed the runs\n"
	"of SIGNATURE (the whole of it, or a unique beginning of 4 characters\n"
	"or more): the next run that fails so is told \"fixed last time by:\n"
	"TEXT\".  It is kept with the host ($DDX_HOST, else the machine's name)\n"
	"and the time; a later fix of the same signature is told instead.\n"
	"\n"
	"`ddx failures export FILE` writes the failure memory (its records and\n"
	"fixes) alone to FILE, a store of its own, as `baselines export` writes\n"
	"a baseline; `ddx failures import FILE` adds such a file's to the store,\n"
	"skipping the runs and fixes it holds already.\n"
	"\n"
	"  --baseline NAME  only the runs checked with this baseline\n"
	"  --since DAYS     only the runs of the last DAYS days\n"
	"  --json           print JSON (see ddx-json(5))\n"
	"  --store PATH     the store (as for learn)\n",
	.status = "0",
};
