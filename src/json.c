/* json.c — the one JSON writer (see json.h for the forms).  item() is
 * the one place that decides commas, line breaks and keys. */
#include "json.h"

#include <math.h>
#include <string.h>

#include "prefix.h"
#include "util.h"

/* The values, as json.h describes their forms. */
static void json_str(FILE *f, const char *s)
{
	if (s)
		put_json_string(f, s, strlen(s));
	else
		fputs("null", f);
}

static void json_num(FILE *f, double x, int decimals)
{
	if (isnan(x) || isinf(x))
		fputs("null", f);
	else
		fprintf(f, "%.*f", decimals, x);
}

static void json_line(FILE *f, int64_t i)
{
	if (i < 0)
		fputs("null", f);
	else
		fprintf(f, "%lld", (long long)i + 1);
}

static void json_time(FILE *f, int64_t ms)
{
	if (ms == TS_NONE) {
		fputs("null", f);
		return;
	}
	char s[PREFIX_TS_SIZE];
	prefix_format_ts(ms, s);
	fprintf(f, "\"%s\"", s);
}

void jw_init(struct jw *jw, FILE *f)
{
	*jw = (struct jw){ .f = f };
}

/* Before a value: the comma after the item before it, the line break or
 * blank its container's layout asks for, and its key inside an object
 * (and none inside an array, or for the document itself). */
static void item(struct jw *jw, const char *key)
{
	if (jw->depth) {
		struct jw_level *l = &jw->lv[jw->depth - 1];
		unsigned flags = l->layout ? l->layout->flags : 0;
		if ((key != NULL) != (l->close == '}'))
			BUG(key ? "a key inside a JSON array" : "a JSON object member without a key");
		if (l->items)
			fputc(',', jw->f);
		if (jw->newline || ((flags & JW_LINES) && (l->items || !(flags & JW_FIRST_SAME))))
			fprintf(jw->f, "\n%*s", l->layout ? l->layout->indent : 0, "");
		else if (l->items)
			fputc(' ', jw->f);
		l->items++;
	} else if (key) {
		BUG("a key outside a JSON object");
	}
	jw->newline = 0;
	if (key) {
		put_json_string(jw->f, key, strlen(key));
		fputs(": ", jw->f);
	}
}

static void open_container(struct jw *jw, const char *key, const struct jw_layout *layout,
			   char open, char close)
{
	item(jw, key);
	if (jw->depth == JW_DEPTH)
		BUG("JSON nested too deep");
	jw->lv[jw->depth++] = (struct jw_level){ layout, close, 0 };
	fputc(open, jw->f);
}

void jw_object_begin(struct jw *jw, const struct jw_layout *layout)
{
	open_container(jw, NULL, layout, '{', '}');
}

void jw_array_begin(struct jw *jw, const struct jw_layout *layout)
{
	open_container(jw, NULL, layout, '[', ']');
}

void jw_object_object(struct jw *jw, const char *key, const struct jw_layout *layout)
{
	open_container(jw, key, layout, '{', '}');
}

void jw_object_array(struct jw *jw, const char *key, const struct jw_layout *layout)
{
	open_container(jw, key, layout, '[', ']');
}

void jw_end(struct jw *jw)
{
	if (jw->depth == 0)
		BUG("jw_end with no JSON container open");
	const struct jw_level *l = &jw->lv[--jw->depth];
	unsigned flags = l->layout ? l->layout->flags : 0;
	if ((flags & JW_CLOSE_ALWAYS) || ((flags & JW_CLOSE_LINE) && l->items))
		fprintf(jw->f, "\n%*s", l->layout->close, "");
	fputc(l->close, jw->f);
	jw->newline = 0;
}

void jw_newline(struct jw *jw)
{
	jw->newline = 1;
}

void jw_object_string(struct jw *jw, const char *key, const char *s)
{
	item(jw, key);
	json_str(jw->f, s);
}

void jw_object_string_n(struct jw *jw, const char *key, const char *s, size_t n)
{
	item(jw, key);
	if (s)
		put_json_string(jw->f, s, n);
	else
		fputs("null", jw->f);
}

void jw_object_int(struct jw *jw, const char *key, long long v)
{
	item(jw, key);
	fprintf(jw->f, "%lld", v);
}

void jw_object_double(struct jw *jw, const char *key, double x, int decimals)
{
	item(jw, key);
	json_num(jw->f, x, decimals);
}

void jw_object_bool(struct jw *jw, const char *key, int b)
{
	item(jw, key);
	fputs(b ? "true" : "false", jw->f);
}

void jw_object_null(struct jw *jw, const char *key)
{
	item(jw, key);
	fputs("null", jw->f);
}

void jw_object_line(struct jw *jw, const char *key, int64_t i)
{
	item(jw, key);
	json_line(jw->f, i);
}

void jw_object_time(struct jw *jw, const char *key, int64_t ms)
{
	item(jw, key);
	json_time(jw->f, ms);
}

void jw_object_strings(struct jw *jw, const char *key, char *const *v, size_t n)
{
	jw_object_array(jw, key, NULL);
	for (size_t k = 0; k < n; k++)
		jw_array_string(jw, v[k]);
	jw_end(jw);
}

void jw_array_string(struct jw *jw, const char *s)
{
	item(jw, NULL);
	json_str(jw->f, s);
}

void jw_array_int(struct jw *jw, long long v)
{
	item(jw, NULL);
	fprintf(jw->f, "%lld", v);
}

void jw_array_null(struct jw *jw)
{
	item(jw, NULL);
	fputs("null", jw->f);
}
