/* cmd_templates.c — `ddx templates`: the templates of one or more logs. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "json.h"
#include "log.h"
#include "prefix.h"
#include "terminal.h"

enum { OUT_TEXT, OUT_IDS, OUT_JSON };

/* Per cluster: its line count, and its smallest member id, which gives its
 * first line (ids are numbered in order of first occurrence). */
struct clusters {
	size_t n;
	const char **text;
	uint64_t *count;
	uint32_t *first;
};

static void clusters_make(struct clusters *cl, const struct tmpl_table *tt, const uint32_t *map)
{
	cl->count = xcalloc(cl->n ? cl->n : 1, sizeof(*cl->count));
	cl->first = xmalloc((cl->n ? cl->n : 1) * sizeof(*cl->first));
	for (size_t c = 0; c < cl->n; c++)
		cl->first[c] = UINT32_MAX;
	for (size_t id = 0; id < tt->n; id++) {
		cl->count[map[id]] += tt->t[id].count;
		if (cl->first[map[id]] == UINT32_MAX)
			cl->first[map[id]] = (uint32_t)id;
	}
}

static void print_text(const struct out *o, struct log *logs, int nlogs,
		       const struct tmpl_table *tt, const struct clusters *cl)
{
	for (size_t c = 0; c < cl->n; c++) {
		const struct tmpl *t = &tt->t[cl->first[c]];
		fprintf(o->f, "%s%8llu%s  ", SGR_BOLD(o), (unsigned long long)cl->count[c], SGR_RESET(o));
		if (nlogs > 1) {
			put_text(o->f, logs[t->first_file].in.path, strlen(logs[t->first_file].in.path));
			fputc(':', o->f);
		}
		fprintf(o->f, "%-6llu %s%-7s%s ", (unsigned long long)t->first_line + 1,
			t->level >= LV_WARN ? SGR_YELLOW(o) : SGR_DIM(o),
			t->level ? level_name(t->level) : "-", SGR_RESET(o));
		put_text(o->f, cl->text[c], strlen(cl->text[c]));
		fputc('\n', o->f);
	}
}

static void print_json(struct log *logs, int nlogs, const struct tmpl_table *tt,
		       const struct clusters *cl)
{
	/* The files on the first line, then the templates a line each. */
	static const struct jw_layout doc = { 0, 1, 0 };
	static const struct jw_layout rows = { JW_LINES | JW_CLOSE_ALWAYS, 2, 0 };
	struct jw jw;
	jw_init(&jw, stdout);
	jw_object_begin(&jw, &doc);
	jw_object_int(&jw, "schema", 1);
	jw_object_array(&jw, "files", NULL);
	for (int i = 0; i < nlogs; i++) {
		jw_object_begin(&jw, NULL);
		jw_object_string(&jw, "path", logs[i].in.path);
		jw_object_int(&jw, "lines", (long long)logs[i].nlines);
		jw_end(&jw);
	}
	jw_end(&jw);
	jw_newline(&jw);
	jw_object_array(&jw, "templates", &rows);
	for (size_t c = 0; c < cl->n; c++) {
		const struct tmpl *t = &tt->t[cl->first[c]];
		const char *lv = level_name(t->level);
		jw_object_begin(&jw, NULL);
		jw_object_int(&jw, "id", (long long)c + 1);
		jw_object_int(&jw, "count", (long long)cl->count[c]);
		jw_object_int(&jw, "file", t->first_file);
		jw_object_int(&jw, "first_line", (long long)t->first_line + 1);
		jw_object_string(&jw, "level", *lv ? lv : NULL);
		jw_object_string(&jw, "text", cl->text[c]);
		jw_end(&jw);
	}
	jw_end(&jw);
	jw_end(&jw);
	putchar('\n');
}

static int templates(int argc, char **argv, const struct out *out)
{
	static const struct option opts[] = {
		{ "ids", no_argument, NULL, 'i' },
		{ "json", no_argument, NULL, 'J' },
		{ "jobs", required_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	int format = OUT_TEXT, jobs = default_jobs(), c;
	while ((c = cmd_getopt(argc, argv, "j:", opts, &cmd_templates_entry)) != -1) {
		switch (c) {
		case 'i': format = OUT_IDS; break;
		case 'J': format = OUT_JSON; break;
		case 'j': jobs = parse_jobs(optarg); break;
		default: return EXIT_TROUBLE;
		}
	}
	int nlogs = argc - optind;
	if (nlogs < 1)
		return usage_error(&cmd_templates_entry, "templates needs at least one LOG");
	if (stdin_once(&cmd_templates_entry, argv + optind, (size_t)nlogs) < 0)
		return EXIT_TROUBLE;
	struct tmpl_table tt;
	tmpl_init(&tt);
	struct log *logs = xcalloc((size_t)nlogs, sizeof(*logs));
	for (int i = 0; i < nlogs; i++) {
		if (log_load(&logs[i], argv[optind + i], i, LOG_IDS_ONLY | LOG_ONE_RUN, jobs, &tt) < 0) {
			for (int k = 0; k < i; k++)
				log_free(&logs[k]);
			free(logs);
			tmpl_free(&tt);
			return EXIT_TROUBLE;
		}
	}
	pager_start(); /* once every log is read: stdin may be one */
	uint32_t *map = xmalloc((tt.n ? tt.n : 1) * sizeof(*map));
	struct clusters cl;
	cl.n = tmpl_cluster(&tt, map, &cl.text);
	clusters_make(&cl, &tt, map);
	if (format == OUT_IDS) {
		for (int i = 0; i < nlogs; i++)
			for (size_t k = 0; k < logs[i].nlines; k++)
				printf("%u\n", map[logs[i].tid[k]] + 1);
	} else if (format == OUT_JSON) {
		print_json(logs, nlogs, &tt, &cl);
	} else {
		print_text(out, logs, nlogs, &tt, &cl);
	}
	free(cl.text);
	free(cl.count);
	free(cl.first);
	free(map);
	for (int i = 0; i < nlogs; i++)
		log_free(&logs[i]);
	free(logs);
	tmpl_free(&tt);
	return 0;
}

const struct cmd cmd_templates_entry = {
	.name = "templates",
	.run = templates,
	.usage = "[-j N] [--ids | --json] LOG...",
	.help =
	"Print the line templates of the logs, with their counts and the first\n"
	"line where each occurs, in order of first occurrence.\n"
	"\n"
	"  --ids        print one template id per input line instead\n"
	"  --json       print the templates as JSON\n"
	"  -j, --jobs N use N threads (default: the CPUs, at most 8);\n"
	"               the output does not depend on N\n",
	.status = "0",
};
