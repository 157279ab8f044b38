/* cmd_util.c — what the commands share, declared in cmd.h: their option
 * parsing with its messages (cmd_getopt, usage_error, did_you_mean),
 * `ddx help NAME`, job counts, and the file an export writes.  Apart from
 * main.c, so that a command needs nothing of the entry point. */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "store.h"
#include "util.h"

/* Levenshtein distance between a and b, stopping at 3: only near misses
 * are worth suggesting. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 64 || lb > 64)
		return 3;
	size_t row[65];
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb] > 3 ? 3 : row[lb];
}

const char *did_you_mean(const char *typed, const char *const *names, size_t n)
{
	/* One or two edits on a word of four letters or more, one edit on a
	 * shorter one; else a unique prefix ("ddx ph" for phases). */
	const char *best = NULL, *prefixed = NULL;
	size_t best_d = strlen(typed) >= 4 ? 3 : 2, nprefixed = 0;
	for (size_t i = 0; i < n; i++) {
		size_t d = edit_distance(typed, names[i]);
		if (d < best_d) {
			best_d = d;
			best = names[i];
		}
		if (*typed && strncmp(names[i], typed, strlen(typed)) == 0) {
			prefixed = names[i];
			nprefixed++;
		}
	}
	return best ? best : nprefixed == 1 ? prefixed : NULL;
}

int usage_error(const struct cmd *c, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	error("%s", msg);
	if (c)
		fprintf(stderr, "see 'ddx help %s'\n", c->name);
	else
		fprintf(stderr, "see 'ddx --help'\n");
	return EXIT_TROUBLE;
}

int stdin_once(const struct cmd *c, char *const *paths, size_t n)
{
	size_t dashes = 0;
	for (size_t i = 0; i < n; i++)
		dashes += strcmp(paths[i], "-") == 0;
	if (dashes > 1) {
		usage_error(c, "standard input ('-') can be read only once");
		return -1;
	}
	return 0;
}

/* The long option of opts that arg ("--name" or "--name=value") names, or
 * its near miss in *hint; NULL when unknown.  *nprefix counts the options
 * it abbreviates. */
static const struct option *long_option(const char *arg, const struct option *opts,
					 const char **hint, size_t *nprefix)
{
	size_t len = strcspn(arg + 2, "=");
	char *name = xasprintf("%.*s", (int)len, arg + 2);
	const char *names[64];
	size_t n = 0;
	const struct option *exact = NULL;
	*nprefix = 0;
	for (const struct option *o = opts; o->name && n < 64; o++) {
		names[n++] = o->name;
		if (strcmp(o->name, name) == 0)
			exact = o;
		if (strncmp(o->name, name, len) == 0)
			(*nprefix)++;
	}
	*hint = exact ? NULL : did_you_mean(name, names, n);
	free(name);
	return exact;
}

int cmd_getopt(int argc, char **argv, const char *shortopts, const struct option *opts,
	       const struct cmd *c)
{
	/* ':' first: a missing value comes back as ':', told apart from an
	 * unknown option, and getopt itself stays quiet. */
	char spec[32];
	snprintf(spec, sizeof(spec), ":%s", shortopts);
	opterr = 0;
	int ch = getopt_long(argc, argv, spec, opts, NULL);
	if (ch != '?' && ch != ':')
		return ch;
	const char *arg = argv[optind - 1];
	if (strncmp(arg, "--", 2) == 0) {
		const char *hint;
		size_t nprefix;
		const struct option *o = long_option(arg, opts, &hint, &nprefix);
		if (ch == ':')
			usage_error(c, "option '%s' needs a value", arg);
		else if (o && o->has_arg == no_argument)
			usage_error(c, "option '--%s' takes no value", o->name);
		else if (nprefix > 1)
			usage_error(c, "option '%s' is ambiguous", arg);
		else if (hint)
			usage_error(c, "unknown option '%s' (did you mean '--%s'?)", arg, hint);
		else
			usage_error(c, "unknown option '%s'", arg);
	} else if (ch == ':') {
		usage_error(c, "option '-%c' needs a value", optopt);
	} else {
		usage_error(c, "unknown option '-%c'", optopt);
	}
	return '?';
}

void print_command_help(const struct cmd *c)
{
	printf("usage: ddx %s %s\n\n%s", c->name, c->usage, c->help);
	printf("\nCommon options: --color=always|never|auto, --no-pager, -h/--help.\n"
	       "Exit status: %s; 2 on an error.\n", c->status);
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

int export_open(struct outfile *out, const char *store, const char *file)
{
	static const struct outfile_kind store_file = { "SQLite format 3", "an SQLite database", 0 };
	store_protect(store);
	if (outfile_open(out, "export", file, &store_file) < 0)
		return -1;
	outfile_also_remove(out, "-journal");
	return 0;
}

int export_close(struct outfile *out, int r)
{
	if (r == 1 && outfile_commit(out) < 0)
		r = -1;
	outfile_abort(out);
	return r;
}
