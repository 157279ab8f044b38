/* cmd_parse.c — `ddx parse`: what ddx understood of each line's header.
 * A plumbing command: users run it to see why a line got no timestamp,
 * level or rank, and the end-to-end tests use it to check the prefix
 * stage. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "json.h"
#include "log.h"
#include "prefix.h"
#include "terminal.h"

/* Print "-" for an empty field, else the text made safe. */
static void put_field(const char *s, size_t n)
{
	if (n)
		put_text(stdout, s, n);
	else
		putchar('-');
}

static void print_text(const struct log *lg, int with_path)
{
	struct buf scratch = { 0 };
	for (size_t i = 0; i < lg->nlines; i++) {
		struct line ln;
		struct header h;
		char ts[PREFIX_TS_SIZE] = "-";
		log_line(lg, i, &ln, &h, &scratch);
		if (with_path) {
			put_text(stdout, lg->in.path, strlen(lg->in.path));
			putchar('\t');
		}
		if (lg->ts[i] != TS_NONE)
			prefix_format_ts(lg->ts[i], ts);
		const char *lv = level_name(lg->level[i]);
		printf("%zu\t%s\t", i + 1, ts);
		put_field(lv, strlen(lv));
		putchar('\t');
		put_field(ln.text + h.tag_off, h.tag_len);
		putchar('\t');
		put_text(stdout, ln.text + h.msg_off, ln.len - h.msg_off);
		putchar('\n');
	}
	buf_free(&scratch);
}

/* A file's object in "files": its lines a line each. */
static void print_json(struct jw *jw, const struct log *lg)
{
	static const struct jw_layout lines = { JW_LINES | JW_CLOSE_ALWAYS, 2, 1 };
	struct buf scratch = { 0 };
	jw_object_begin(jw, NULL);
	jw_object_string(jw, "path", lg->in.path);
	jw_object_string(jw, "format", prefix_format_name(lg->format));
	jw_object_array(jw, "lines", &lines);
	for (size_t i = 0; i < lg->nlines; i++) {
		struct line ln;
		struct header h;
		log_line(lg, i, &ln, &h, &scratch);
		const char *lv = level_name(lg->level[i]);
		jw_object_begin(jw, NULL);
		jw_object_int(jw, "line", (long long)i + 1);
		jw_object_time(jw, "ts", lg->ts[i]);
		jw_object_string(jw, "level", *lv ? lv : NULL);
		jw_object_string_n(jw, "tag", h.tag_len ? ln.text + h.tag_off : NULL, h.tag_len);
		jw_object_string(jw, "format", prefix_format_name(h.format));
		jw_object_int(jw, "msg_off", h.msg_off);
		jw_object_string_n(jw, "msg", ln.text + h.msg_off, ln.len - h.msg_off);
		jw_end(jw);
	}
	jw_end(jw);
	jw_end(jw);
	buf_free(&scratch);
}

static int parse(int argc, char **argv, const struct out *out)
{
	(void)out; /* prints no colour, nor lines to fit */
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'J' },
		{ "jobs", required_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	int json = 0, jobs = default_jobs(), c;
	while ((c = cmd_getopt(argc, argv, "j:", opts, &cmd_parse_entry)) != -1) {
		switch (c) {
		case 'J': json = 1; break;
		case 'j': jobs = parse_jobs(optarg); break;
		default: return EXIT_TROUBLE;
		}
	}
	int nlogs = argc - optind;
	if (nlogs < 1)
		return usage_error(&cmd_parse_entry, "parse needs at least one LOG");
	if (stdin_once(&cmd_parse_entry, argv + optind, (size_t)nlogs) < 0)
		return EXIT_TROUBLE;
	/* One log at a time: the output of each is complete before the next
	 * is read, and the templates are not needed.  JSON starts once the
	 * first log is read, so a log that cannot be read prints none. */
	static const struct jw_layout files = { JW_LINES | JW_FIRST_SAME, 1, 0 };
	struct jw jw;
	jw_init(&jw, stdout);
	for (int i = 0; i < nlogs; i++) {
		struct tmpl_table tt;
		struct log lg;
		tmpl_init(&tt);
		if (log_load(&lg, argv[optind + i], i, LOG_FULL | LOG_ONE_RUN, jobs, &tt) < 0) {
			tmpl_free(&tt);
			return EXIT_TROUBLE;
		}
		pager_start(); /* once a log is read: stdin may be it */
		if (json && i == 0) {
			jw_object_begin(&jw, NULL);
			jw_object_int(&jw, "schema", 1);
			jw_object_array(&jw, "files", &files);
		}
		if (json)
			print_json(&jw, &lg);
		else
			print_text(&lg, nlogs > 1);
		log_free(&lg);
		tmpl_free(&tt);
	}
	if (json) {
		jw_end(&jw);
		jw_end(&jw);
		putchar('\n');
	}
	return 0;
}

const struct cmd cmd_parse_entry = {
	.name = "parse",
	.run = parse,
	.usage = "[-j N] [--json] LOG...",
	.help =
	"Show what ddx understood of each line's header: per line, the line\n"
	"number, the timestamp (ISO-8601 UTC), the level, the rank or process\n"
	"tag and the message, tab-separated, '-' for what the line lacks.\n"
	"With several logs each line starts with the log's path.\n"
	"\n"
	"  --json       print the same as JSON, with the detected format\n"
	"  -j, --jobs N use N threads (default: the CPUs, at most 8)\n",
	.status = "0",
};
