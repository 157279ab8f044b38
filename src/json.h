/* json.h — the one JSON writer.  Every --json report writes through it,
 * so a value of one kind looks the same in every command:
 *
 *   strings  valid UTF-8 (invalid bytes become U+FFFD), control characters
 *            as \u escapes: safe to print on a terminal
 *   missing  null, never "" or 0
 *   times    "2026-02-23T00:36:54.000Z": ISO 8601 with milliseconds; a
 *            log's own times as it wrote them (its zone is not applied)
 *   numbers  fixed decimals; NaN and infinities are null
 *   lines    1-based, as editors and grep -n count; none is null
 *
 * A keyed writer (after git's json-writer.h): the caller opens objects
 * and arrays and names each member; the writer alone puts the commas,
 * colons and brackets, so no report can write a key twice-quoted, drop a
 * comma or leave a bracket open.  Where the lines break is each
 * container's layout (below): the reports keep the forms they had. */
#ifndef DDX_JSON_H
#define DDX_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Where a container breaks its lines.  Items are ", "-separated on one
 * line unless flags say otherwise; a broken line is indented by indent
 * spaces, a closing bracket on its own line by close spaces.  NULL for a
 * layout is all on one line. */
struct jw_layout {
	unsigned flags;
	int indent, close;
};
enum {
	JW_LINES = 1,        /* each item starts a line of its own... */
	JW_FIRST_SAME = 2,   /* ...but the first, which follows the bracket */
	JW_CLOSE_LINE = 4,   /* the closing bracket on a line of its own, after items */
	JW_CLOSE_ALWAYS = 8, /* ...even when there were none */
};

/* Most containers open at once; deeper is a BUG. */
#define JW_DEPTH 8

/* The writer's state: the stream and, for each open container, its
 * layout and whether it has items yet.  Owns nothing. */
struct jw {
	FILE *f;
	int depth;
	int newline;         /* jw_newline: the next item on a line of its own */
	struct jw_level {
		const struct jw_layout *layout;
		char close;  /* '}' or ']' */
		size_t items;
	} lv[JW_DEPTH];
};

/* A writer to f, with nothing open. */
void jw_init(struct jw *jw, FILE *f);

/* An object or an array as the next value: the document itself, or the
 * next item of the current array.  Each is closed by jw_end. */
void jw_object_begin(struct jw *jw, const struct jw_layout *layout);
void jw_array_begin(struct jw *jw, const struct jw_layout *layout);
/* Close the innermost open object or array. */
void jw_end(struct jw *jw);
/* The next item of the current container starts a line of its own, at
 * its layout's indent, whatever the layout says of the others. */
void jw_newline(struct jw *jw);

/* Members of the current object, named key (a literal of the caller's).
 * A string, NULL being null. */
void jw_object_string(struct jw *jw, const char *key, const char *s);
/* s[0..n) as a string ("" when n is 0); NULL s is null. */
void jw_object_string_n(struct jw *jw, const char *key, const char *s, size_t n);
void jw_object_int(struct jw *jw, const char *key, long long v);
/* x with the given number of decimals; NaN or infinite is null. */
void jw_object_double(struct jw *jw, const char *key, double x, int decimals);
void jw_object_bool(struct jw *jw, const char *key, int b);
void jw_object_null(struct jw *jw, const char *key);
/* A 0-based line index as its 1-based number; a negative index is null. */
void jw_object_line(struct jw *jw, const char *key, int64_t i);
/* ms since the epoch as an ISO 8601 time; TS_NONE is null. */
void jw_object_time(struct jw *jw, const char *key, int64_t ms);
/* An array of n strings on one line (NULL entries are null). */
void jw_object_strings(struct jw *jw, const char *key, char *const *v, size_t n);
/* An object or array member, open until its jw_end. */
void jw_object_object(struct jw *jw, const char *key, const struct jw_layout *layout);
void jw_object_array(struct jw *jw, const char *key, const struct jw_layout *layout);

/* Items of the current array, as the members above. */
void jw_array_string(struct jw *jw, const char *s);
void jw_array_int(struct jw *jw, long long v);
void jw_array_null(struct jw *jw);

#endif
