/* test_json.c — the keyed JSON writer: commas, nesting, layouts, escaping
 * and the forms of numbers, lines and times. */
#include <math.h>
#include <stdlib.h>

#include "json.h"
#include "prefix.h"
#include "test.h"

static char *text;
static size_t len;

static struct jw *start(struct jw *jw)
{
	free(text);
	text = NULL;
	jw_init(jw, open_memstream(&text, &len));
	return jw;
}

/* What the writer wrote since start(). */
static const char *got(struct jw *jw)
{
	fflush(jw->f);
	return text;
}

static void nesting(void)
{
	struct jw jw;
	jw_object_begin(start(&jw), NULL);
	jw_end(&jw);
	CHECK_STR(got(&jw), "{}");
	fclose(jw.f);

	jw_object_begin(start(&jw), NULL);
	jw_object_int(&jw, "a", 1);
	jw_object_array(&jw, "b", NULL);
	jw_end(&jw);
	jw_object_object(&jw, "c", NULL);
	jw_object_array(&jw, "d", NULL);
	jw_array_int(&jw, 2);
	jw_object_begin(&jw, NULL);
	jw_object_null(&jw, "e");
	jw_end(&jw);
	jw_array_null(&jw);
	jw_array_string(&jw, "f");
	jw_end(&jw);
	jw_end(&jw);
	jw_object_bool(&jw, "g", 0);
	jw_object_bool(&jw, "h", 7);
	jw_end(&jw);
	CHECK_STR(got(&jw), "{\"a\": 1, \"b\": [], \"c\": {\"d\": [2, {\"e\": null}, null, \"f\"]}, "
		  "\"g\": false, \"h\": true}");
	CHECK_INT(jw.depth, 0);
	fclose(jw.f);

	jw_array_begin(start(&jw), NULL);
	jw_array_begin(&jw, NULL);
	jw_end(&jw);
	jw_array_begin(&jw, NULL);
	jw_array_int(&jw, -3);
	jw_end(&jw);
	jw_end(&jw);
	CHECK_STR(got(&jw), "[[], [-3]]");
	fclose(jw.f);
}

static void layouts(void)
{
	static const struct jw_layout doc = { JW_LINES | JW_CLOSE_ALWAYS, 2, 0 };
	static const struct jw_layout rows = { JW_LINES | JW_CLOSE_LINE, 4, 2 };
	static const struct jw_layout tail = { JW_LINES | JW_FIRST_SAME, 1, 0 };
	static const struct jw_layout broken = { 0, 4, 0 };
	struct jw jw;
	jw_object_begin(start(&jw), &doc);
	jw_object_int(&jw, "schema", 1);
	jw_object_array(&jw, "none", &rows);
	jw_end(&jw);
	jw_object_array(&jw, "rows", &rows);
	jw_object_begin(&jw, NULL);
	jw_object_int(&jw, "x", 1);
	jw_object_int(&jw, "y", 2);
	jw_end(&jw);
	jw_array_int(&jw, 3);
	jw_end(&jw);
	jw_object_object(&jw, "o", &broken);
	jw_object_int(&jw, "p", 1);
	jw_newline(&jw);
	jw_object_int(&jw, "q", 2);
	jw_object_int(&jw, "r", 3);
	jw_end(&jw);
	jw_end(&jw);
	CHECK_STR(got(&jw), "{\n  \"schema\": 1,\n  \"none\": [],\n  \"rows\": [\n    {\"x\": 1, \"y\": 2},"
		  "\n    3\n  ],\n  \"o\": {\"p\": 1,\n    \"q\": 2, \"r\": 3}\n}");
	fclose(jw.f);

	jw_object_begin(start(&jw), &tail);
	jw_object_int(&jw, "a", 1);
	jw_object_int(&jw, "b", 2);
	jw_end(&jw);
	CHECK_STR(got(&jw), "{\"a\": 1,\n \"b\": 2}");
	fclose(jw.f);

	static const struct jw_layout closed = { JW_LINES | JW_CLOSE_ALWAYS, 2, 1 };
	jw_array_begin(start(&jw), &closed);
	jw_end(&jw);
	CHECK_STR(got(&jw), "[\n ]");
	fclose(jw.f);
}

static void escaping(void)
{
	struct jw jw;
	jw_object_begin(start(&jw), NULL);
	jw_object_string(&jw, "q", "a\"b\\c");
	jw_object_string(&jw, "c", "\n\t\r\x1b\x7f\x01");
	jw_object_string(&jw, "u", "caf\xc3\xa9 \xff");
	jw_object_string(&jw, "bidi", "\xe2\x80\xae");
	jw_object_string(&jw, "k\"ey", "v");
	jw_object_string(&jw, "null", NULL);
	jw_object_string_n(&jw, "n", "abc", 2);
	jw_object_string_n(&jw, "nul", "a\0b", 3);
	jw_object_string_n(&jw, "empty", "", 0);
	jw_object_string_n(&jw, "none", NULL, 0);
	char *v[] = { "x", NULL, "\x1b[31m" };
	jw_object_strings(&jw, "v", v, 3);
	jw_object_strings(&jw, "w", v, 0);
	jw_end(&jw);
	CHECK_STR(got(&jw), "{\"q\": \"a\\\"b\\\\c\", \"c\": \"\\n\\t\\r\\u001b\\u007f\\u0001\", "
		  "\"u\": \"caf\xc3\xa9 \\ufffd\", \"bidi\": \"\\u202e\", \"k\\\"ey\": \"v\", "
		  "\"null\": null, \"n\": \"ab\", \"nul\": \"a\\u0000b\", \"empty\": \"\", "
		  "\"none\": null, \"v\": [\"x\", null, \"\\u001b[31m\"], \"w\": []}");
	fclose(jw.f);
}

static void numbers(void)
{
	struct jw jw;
	jw_object_begin(start(&jw), NULL);
	jw_object_double(&jw, "d", 2.0 / 3, 3);
	jw_object_double(&jw, "z", 41.25, 0);
	jw_object_double(&jw, "nan", NAN, 3);
	jw_object_double(&jw, "inf", -INFINITY, 1);
	jw_object_int(&jw, "big", 9007199254740993LL);
	jw_object_line(&jw, "l0", 0);
	jw_object_line(&jw, "none", -1);
	jw_object_time(&jw, "t", 0);
	jw_object_time(&jw, "no_t", TS_NONE);
	jw_end(&jw);
	CHECK_STR(got(&jw), "{\"d\": 0.667, \"z\": 41, \"nan\": null, \"inf\": null, "
		  "\"big\": 9007199254740993, \"l0\": 1, \"none\": null, "
		  "\"t\": \"1970-01-01T00:00:00.000Z\", \"no_t\": null}");
	fclose(jw.f);
}

int main(void)
{
	nesting();
	layouts();
	escaping();
	numbers();
	free(text);
	return test_report();
}
