/* cmd_baselines.c — `ddx baselines`: list, show, cat, remove, export and
 * import the baselines `ddx learn` keeps. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "json.h"
#include "prefix.h"
#include "store.h"

/* "2026-11-29 10:42" (UTC); "?" for a time gmtime cannot place. */
static void date_str(int64_t s, char *buf, size_t n)
{
	time_t t = (time_t)s;
	struct tm tm;
	if (!gmtime_r(&t, &tm) || strftime(buf, n, "%Y-%m-%d %H:%M", &tm) == 0)
		snprintf(buf, n, "?");
}

/* The list as JSON, schema 1: {"schema": 1, "baselines": [{"name",
 * "runs", "lines", "size", "stored", "engine", "created", "updated"}]},
 * sizes in bytes, times ISO 8601 (UTC); a baseline a line. */
static void list_json(const struct baseline *bs, size_t n)
{
	static const struct jw_layout doc = { JW_LINES | JW_CLOSE_ALWAYS, 1, 0 };
	static const struct jw_layout rows = { JW_LINES | JW_CLOSE_ALWAYS, 2, 0 };
	struct jw jw;
	jw_init(&jw, stdout);
	jw_object_begin(&jw, &doc);
	jw_object_int(&jw, "schema", 1);
	jw_object_array(&jw, "baselines", &rows);
	for (size_t i = 0; i < n; i++) {
		jw_object_begin(&jw, NULL);
		jw_object_string(&jw, "name", bs[i].name);
		jw_object_int(&jw, "runs", (long long)bs[i].nruns);
		jw_object_int(&jw, "lines", (long long)bs[i].lines);
		jw_object_int(&jw, "size", (long long)bs[i].size);
		jw_object_int(&jw, "stored", (long long)bs[i].stored);
		jw_object_string(&jw, "engine", bs[i].engine);
		jw_object_time(&jw, "created", bs[i].created * 1000);
		jw_object_time(&jw, "updated", bs[i].updated * 1000);
		jw_end(&jw);
	}
	jw_end(&jw);
	jw_end(&jw);
	putchar('\n');
}

/* names_only: one name a line, for shell completion. */
static int list(struct store *st, int names_only, int json)
{
	struct arena a = { 0 };
	struct baseline *bs;
	size_t n;
	if (store_list(st, &bs, &n, &a) < 0) {
		arena_free(&a);
		return EXIT_TROUBLE;
	}
	if (json) {
		list_json(bs, n);
		free(bs);
		arena_free(&a);
		return EXIT_SAME;
	}
	for (size_t i = 0; names_only && i < n; i++) {
		put_text(stdout, bs[i].name, strlen(bs[i].name));
		putchar('\n');
	}
	int width = 4;
	for (size_t i = 0; !names_only && i < n; i++)
		if (strlen(bs[i].name) > (size_t)width)
			width = strlen(bs[i].name) > 60 ? 60 : (int)strlen(bs[i].name);
	if (names_only)
		n = 0;
	else if (n == 0)
		printf("no baselines yet (see 'ddx help learn')\n");
	else
		printf("%-*s %4s %9s %9s %9s  %-7s %s\n", width, "NAME", "RUNS", "LINES", "SIZE",
		       "STORED", "ENGINE", "UPDATED (UTC)");
	for (size_t i = 0; i < n; i++) {
		char sz[16], stored[16], date[32];
		fmt_size(sz, sizeof(sz), bs[i].size);
		fmt_size(stored, sizeof(stored), bs[i].stored);
		date_str(bs[i].updated, date, sizeof(date));
		put_text_padded(stdout, bs[i].name, (size_t)width);
		printf(" %4zu %9llu %9s %9s  ", bs[i].nruns, (unsigned long long)bs[i].lines, sz, stored);
		put_text_padded(stdout, bs[i].engine, 7);
		printf(" %s\n", date);
	}
	free(bs);
	arena_free(&a);
	return EXIT_SAME;
}

/* The configuration values worth a line in `show`: what tells two
 * deployments apart at a glance. */
static int notable(const char *key)
{
	static const char *const keys[] = {
		"model", "model_path", "vllm_version", "tp_size", "tensor_parallel_size",
		"dp_size", "pipeline_parallel_size", "dtype", "quantization", "kv_cache_dtype",
		"max_model_len", "context_length", "port", NULL,
	};
	for (int i = 0; keys[i]; i++)
		if (strcmp(key, keys[i]) == 0)
			return 1;
	return 0;
}

static int find_or_complain(struct store *st, const char *name, struct baseline *b, struct arena *a)
{
	int r = store_find(st, name, b, a);
	if (r == 0)
		error("no baseline '%s' (see 'ddx baselines')", name);
	return r;
}

/* Baseline name and its runs (with their templates and configuration when
 * meta), or -1 after saying what is wrong. */
static int baseline_runs(struct store *st, const char *name, int meta, struct baseline *b,
			 struct run **runs, size_t *n, struct arena *a)
{
	if (find_or_complain(st, name, b, a) != 1)
		return -1;
	return store_runs(st, b->id, meta, runs, n, a);
}

static int show(struct store *st, const char *name, int all_config)
{
	struct arena a = { 0 };
	struct baseline b;
	struct run *runs = NULL;
	size_t n = 0;
	int rc = EXIT_TROUBLE;
	if (baseline_runs(st, name, 1, &b, &runs, &n, &a) < 0)
		goto out;
	char sz[16], stored[16], created[32], updated[32];
	fmt_size(sz, sizeof(sz), b.size);
	fmt_size(stored, sizeof(stored), b.stored);
	date_str(b.created, created, sizeof(created));
	date_str(b.updated, updated, sizeof(updated));
	printf("baseline '");
	put_text(stdout, b.name, strlen(b.name));
	printf("': %zu run%s, %llu lines, %s (%s stored), engine ", b.nruns,
	       b.nruns == 1 ? "" : "s", (unsigned long long)b.lines, sz, stored);
	put_text(stdout, b.engine, strlen(b.engine));
	putchar('\n');
	printf("  created %s, updated %s (UTC)\n", created, updated);
	for (size_t i = 0; i < n; i++) {
		const struct run *r = &runs[i];
		char first[PREFIX_TS_SIZE], last[PREFIX_TS_SIZE];
		fmt_size(sz, sizeof(sz), r->size);
		printf("run %zu: ", i + 1);
		put_text(stdout, r->name, strlen(r->name));
		printf("\n  %llu lines, %s, %zu templates, format ", (unsigned long long)r->lines, sz,
		       r->ntmpl);
		put_text(stdout, r->format, strlen(r->format));
		fputs(", engine ", stdout);
		put_text(stdout, r->engine, strlen(r->engine));
		printf(", hash %016llx\n", (unsigned long long)r->hash);
		if (r->first_ts != TS_NONE && r->last_ts != TS_NONE) {
			prefix_format_ts(r->first_ts, first);
			prefix_format_ts(r->last_ts, last);
			/* In double: two timestamps far apart overflow int64. */
			printf("  from %s to %s (%.1f s)\n", first, last,
			       ((double)r->last_ts - (double)r->first_ts) / 1000.0);
		}
		size_t shown = 0;
		for (size_t k = 0; k < r->ncfg; k++) {
			if (!all_config && !notable(r->cfg[k].key))
				continue;
			printf("  %-8s", shown++ ? "" : "config");
			put_text_padded(stdout, r->cfg[k].key, 24);
			putchar(' ');
			put_text(stdout, r->cfg[k].value, strlen(r->cfg[k].value));
			putchar('\n');
		}
		if (!all_config && r->ncfg > shown)
			printf("  (%zu configuration values in all: --config shows them)\n", r->ncfg);
	}
	rc = EXIT_SAME;
out:
	store_runs_free(runs, n);
	arena_free(&a);
	return rc;
}

/* Write run `which` (1-based; 0 = the only one) of baseline name to
 * stdout. */
static int cat(struct store *st, const char *name, const char *which)
{
	struct arena a = { 0 };
	struct baseline b;
	struct run *runs = NULL;
	size_t n = 0;
	int rc = EXIT_TROUBLE;
	if (baseline_runs(st, name, 0, &b, &runs, &n, &a) < 0)
		goto out;
	char *end;
	long k = which ? strtol(which, &end, 10) : 1;
	if (which && (*end || k < 1 || (size_t)k > n)) {
		error("baseline '%s' has no run '%s' (runs 1 to %zu)", name, which, n);
		goto out;
	}
	if (!which && n != 1) {
		error("baseline '%s' has %zu runs: say which (1 to %zu)", name, n, n);
		goto out;
	}
	fflush(stdout);
	if (store_run_write(st, runs[k - 1].id, STDOUT_FILENO) == 0)
		rc = EXIT_SAME;
out:
	store_runs_free(runs, n);
	arena_free(&a);
	return rc;
}

/* export NAME FILE: 1 written, 0 no such baseline, -1 error. */
static int export(struct store *st, const char *store, const char *name, const char *file)
{
	struct outfile out;
	if (export_open(&out, store, file) < 0)
		return -1;
	return export_close(&out, store_export(st, name, file, out.tmp));
}

static int baselines(int argc, char **argv, const struct out *out)
{
	(void)out; /* prints no colour, nor lines to fit */
	static const struct option opts[] = {
		{ "store", required_argument, NULL, 's' },
		{ "config", no_argument, NULL, 'c' },
		{ "names", no_argument, NULL, 'n' },
		{ "json", no_argument, NULL, 'J' },
		{ NULL, 0, NULL, 0 },
	};
	const char *store_opt = NULL;
	int all_config = 0, names_only = 0, json = 0, c;
	while ((c = cmd_getopt(argc, argv, "", opts, &cmd_baselines_entry)) != -1) {
		switch (c) {
		case 's': store_opt = optarg; break;
		case 'c': all_config = 1; break;
		case 'n': names_only = 1; break;
		case 'J': json = 1; break;
		default: return EXIT_TROUBLE;
		}
	}
	const char *sub = optind < argc ? argv[optind++] : "list";
	int nargs = argc - optind;
	static const struct { const char *name; int min, max, mode; } subs[] = {
		{ "list", 0, 0, STORE_READ }, { "show", 1, 1, STORE_READ },
		{ "cat", 1, 2, STORE_READ }, { "rm", 1, 1, STORE_WRITE },
		{ "export", 2, 2, STORE_EXPORT }, { "import", 1, 1, STORE_WRITE },
	};
	size_t s = 0;
	while (s < sizeof(subs) / sizeof(subs[0]) && strcmp(subs[s].name, sub) != 0)
		s++;
	if (s == sizeof(subs) / sizeof(subs[0])) {
		const char *names[sizeof(subs) / sizeof(subs[0])];
		for (size_t k = 0; k < s; k++)
			names[k] = subs[k].name;
		const char *hint = did_you_mean(sub, names, s);
		if (hint)
			return usage_error(&cmd_baselines_entry, "no such subcommand 'baselines %s' "
					   "(did you mean '%s'?)", sub, hint);
		return usage_error(&cmd_baselines_entry, "no such subcommand 'baselines %s'", sub);
	}
	if (nargs < subs[s].min)
		return usage_error(&cmd_baselines_entry, "baselines %s needs %s", sub,
				   subs[s].min == 2 ? "a NAME and a FILE"
				   : strcmp(sub, "import") == 0 ? "a FILE" : "a NAME");
	if (json && s != 0)
		return usage_error(&cmd_baselines_entry, "--json lists the baselines: not for 'baselines %s'", sub);
	if (nargs > subs[s].max)
		return usage_error(&cmd_baselines_entry, "too many arguments to 'baselines %s'", sub);
	char *path = store_path(store_opt);
	int missing;
	struct store *st = store_open(path, subs[s].mode, &missing);
	int rc = EXIT_TROUBLE;
	if (missing && s == 0) {
		if (json)
			list_json(NULL, 0);
		else if (!names_only)
			printf("no baselines yet (see 'ddx help learn')\n");
		rc = EXIT_SAME;
	} else if (missing) {
		char *shown = store_shown(path);
		error("no baselines yet in '%s' (see 'ddx help learn')", shown);
		free(shown);
	} else if (!st) {
		/* store_open said why */
	} else if (s == 0) {
		rc = list(st, names_only, json);
	} else if (s == 1) {
		rc = show(st, argv[optind], all_config);
	} else if (s == 2) {
		rc = cat(st, argv[optind], nargs > 1 ? argv[optind + 1] : NULL);
	} else if (s == 3) {
		int r = store_remove(st, argv[optind]);
		if (r == 0)
			error("no baseline '%s' (see 'ddx baselines')", argv[optind]);
		else if (r == 1)
			printf("removed baseline '%s'\n", argv[optind]);
		rc = r == 1 ? EXIT_SAME : EXIT_TROUBLE;
	} else if (s == 4) {
		int r = export(st, path, argv[optind], argv[optind + 1]);
		if (r == 0)
			error("no baseline '%s' (see 'ddx baselines')", argv[optind]);
		else if (r == 1)
			printf("exported baseline '%s' to '%s'\n", argv[optind], argv[optind + 1]);
		rc = r == 1 ? EXIT_SAME : EXIT_TROUBLE;
	} else {
		size_t nb, nr;
		if (store_import(st, argv[optind], &nb, &nr) == 0) {
			printf("imported %zu baseline%s (%zu run%s added) from '%s'\n", nb,
			       nb == 1 ? "" : "s", nr, nr == 1 ? "" : "s", argv[optind]);
			rc = EXIT_SAME;
		}
	}
	store_close(st);
	free(path);
	return rc;
}

const struct cmd cmd_baselines_entry = {
	.name = "baselines",
	.run = baselines,
	.usage = "[--store PATH] [list | show NAME | cat NAME [RUN] | rm NAME | export NAME FILE | import FILE]",
	.help =
	"Manage the stored baselines.\n"
	"\n"
	"  list              name, runs, lines, size, engine, last update (default)\n"
	"                    (--names: the names alone, one a line, for completion;\n"
	"                    --json: as JSON, sizes in bytes, times ISO 8601)\n"
	"  show NAME         each run: lines, size, templates, format, engine,\n"
	"                    time span and main configuration (--config: all of it)\n"
	"  cat NAME [RUN]    write run RUN (1, 2, ...) as it was learned to stdout\n"
	"  rm NAME           remove a baseline\n"
	"  export NAME FILE  write the baseline alone to FILE, a store of its own\n"
	"                    (a SQLite file) to share or keep beside a deployment\n"
	"  import FILE       add the baselines of an exported FILE; runs already\n"
	"                    stored under the same name are not added twice\n",
	.status = "0",
};
