/* prefix_record.c — structured line headers: logfmt and JSON lines.
 * See prefix_record.h; the overview is below. */
#include "prefix_record.h"

#include <string.h>

/* ---- Structured records: logfmt and JSON lines ----
 *
 * A logfmt line (time=... level=info msg="..." err="...") or a JSON
 * object ({"ts": ..., "level": ..., "msg": ...}) names its fields, so
 * the header is found by key name, whatever the system: one small table
 * of names per role, not one format per logger.  In a line as written
 * the message starts at the message value and runs to the end of the
 * line.  Input rewrites records first (record_unwrap) so that the
 * message is the message value alone, as text (unquoted, unescaped),
 * followed by the fields that say what failed (err="exit status 1": a
 * cause's line keeps its detail, and differences in it show in diffs);
 * the other fields, the time, level and source among them, go before
 * it as the line's header, kept as fields rather than glued into the
 * message (ids, hosts and thread names there would make every line its
 * own template).  A line without a message key has its message from
 * its first field of no role. */

enum role { R_NONE, R_TIME, R_LEVEL, R_MSG, R_RANK, R_FIELDS, R_ERROR };

/* Matched without regard to case.  pid is not a rank: it differs between
 * runs, so streams keyed by it would never line up (see prefix.h). */
static const struct {
	char key[12];
	uint8_t role;
} role_keys[] = {
	{ "time", R_TIME }, { "timestamp", R_TIME }, { "ts", R_TIME },
	{ "@timestamp", R_TIME }, { "datetime", R_TIME }, { "asctime", R_TIME },
	{ "@t", R_TIME },
	{ "level", R_LEVEL }, { "lvl", R_LEVEL }, { "severity", R_LEVEL },
	{ "levelname", R_LEVEL }, { "loglevel", R_LEVEL }, { "log.level", R_LEVEL },
	{ "@l", R_LEVEL },
	{ "msg", R_MSG }, { "message", R_MSG }, { "@m", R_MSG }, { "event", R_MSG },
	{ "log", R_MSG },         /* docker's json-file driver: {"log": "line\n", ...} */
	{ "rank", R_RANK }, { "local_rank", R_RANK }, { "global_rank", R_RANK },
	{ "node_rank", R_RANK }, { "worker", R_RANK }, { "worker_id", R_RANK },
	{ "shard", R_RANK }, { "tp_rank", R_RANK }, { "dp_rank", R_RANK },
	{ "fields", R_FIELDS },   /* tracing's JSON: "fields": {"message": ...} */
	/* What failed: said with the message (see record_unwrap) */
	{ "err", R_ERROR }, { "error", R_ERROR }, { "errors", R_ERROR },
	{ "exception", R_ERROR }, { "exc_info", R_ERROR }, { "stack", R_ERROR },
	{ "stacktrace", R_ERROR }, { "stack_trace", R_ERROR }, { "reason", R_ERROR },
	{ "cause", R_ERROR }, { "panic", R_ERROR },
};

static int key_role(const char *k, size_t n)
{
	if (n < 2 || n > 11)
		return R_NONE;
	for (size_t r = 0; r < sizeof(role_keys) / sizeof(role_keys[0]); r++) {
		const char *w = role_keys[r].key;
		if ((is_alpha(k[0]) ? k[0] | 32 : k[0]) != w[0] || w[n - 1] == 0 ||
		    w[n] != 0)   /* w is NUL-padded; "@timestamp" is no letter's */
			continue;
		size_t j = 1;
		while (j < n && (is_alpha(k[j]) ? k[j] | 32 : k[j]) == w[j])
			j++;
		if (j == n)
			return role_keys[r].role;
	}
	return R_NONE;
}

/* What a record's keys gave; each role's first usable value wins. */
#define RECORD_MEMBERS 32
struct record {
	int64_t ts_ms;
	int level;
	size_t msg, tag, tag_len, first_plain;
	int has_msg, has_plain;
	/* JSON: the message string member, from its key's quote to past
	 * its value's closing quote (0, 0: none, or the value is no
	 * closed string).  logfmt: the message pair, from its key to past
	 * its value (and closing quote). */
	size_t msg_member, msg_member_end;
	int msg_top;            /* the member is the object's own */
	int msg_quoted;         /* logfmt: the value was quoted */
	/* The object's own members (logfmt: the pairs), up to
	 * RECORD_MEMBERS; nmem counts them all. */
	struct member { uint32_t b, e; uint8_t role; } mem[RECORD_MEMBERS];
	size_t nmem;
};

static void record_member(struct record *r, size_t b, size_t e, int role)
{
	if (r->nmem < RECORD_MEMBERS)
		r->mem[r->nmem] = (struct member){ (uint32_t)b, (uint32_t)e, (uint8_t)role };
	r->nmem++;
}

/* Seconds (with or without a fraction), milliseconds, microseconds or
 * nanoseconds since the epoch, told apart by their 10, 13, 16 or 19
 * digits (2001 to 2286). */
int record_epoch(const char *s, size_t n, int64_t *ms)
{
	size_t i = 0;
	int64_t x = 0;
	while (i < n && is_digit(s[i]) && i < 19)
		x = x * 10 + (s[i++] - '0');
	int frac_ms = 0;
	if (i == 10 && i + 1 < n && s[i] == '.') {
		struct cur f = { s, n, i };
		frac(&f, ".", &frac_ms);
		i = f.i;
		if (i < n)
			return 0;
		*ms = x * 1000 + frac_ms;
		return 1;
	}
	if (i < n)
		return 0;
	switch (i) {
	case 10: *ms = x * 1000; return 1;
	case 13: *ms = x; return 1;
	case 16: *ms = x / 1000; return 1;
	case 19: *ms = x / 1000000; return 1;
	default: return 0;
	}
}

/* Give the key at line[key] of role `role` its value at line[v], n bytes
 * (without the quotes of a quoted one).  key_end is 0 for JSON, where key
 * and value are not one span of the line. */
static void record_value(struct record *r, int role, const char *line, size_t v, size_t n,
			 int quoted, size_t key, size_t key_end)
{
	const char *s = line + v;
	switch (role) {
	case R_TIME:
		if (r->ts_ms == TS_NONE) {
			struct cur c = { s, n, 0 };
			struct stamp t = { 0 };
			struct header h;
			if (iso(&c, &t) && c.i == n && stamp_set(&t, &h))
				r->ts_ms = h.ts_ms;
			else if (!quoted)
				record_epoch(s, n, &r->ts_ms);
		}
		break;
	case R_LEVEL:
		if (!r->level) {
			struct cur c = { s, n, 0 };
			int lv = level_word(&c, 1);
			if (lv && c.i == n)
				r->level = lv;
			else if (!quoted && n == 2 && is_digit(s[0]) && s[1] == '0' &&
				 s[0] >= '1' && s[0] <= '6')   /* pino, bunyan: 10 .. 60 */
				r->level = (int[]){ LV_TRACE, LV_DEBUG, LV_INFO, LV_WARN,
						    LV_ERROR, LV_FATAL }[s[0] - '1'];
		}
		break;
	case R_MSG:
		if (!r->has_msg) {
			r->msg = v;
			r->has_msg = 1;
		}
		break;
	case R_RANK:
		if (!r->tag_len && n && n <= 32) {
			/* logfmt's "rank=0" reads as a tag; JSON's key and
			 * value are not one span of the line, so the value. */
			r->tag = key_end ? key : v;
			r->tag_len = key_end ? v + n + (size_t)quoted - key : n;
		}
		break;
	case R_FIELDS:
		break;
	default:   /* R_NONE, R_ERROR */
		if (!r->has_plain) {
			r->first_plain = key;
			r->has_plain = 1;
		}
	}
}

static void record_init(struct record *r)
{
	memset(r, 0, sizeof(*r));
	r->ts_ms = TS_NONE;
}

/* Copy what a record gave into h; the message offset it gives. */
static size_t record_set(const struct record *r, size_t end, struct header *h)
{
	if (r->ts_ms != TS_NONE) {
		h->ts_ms = r->ts_ms;
		h->ts_no_year = 0;
	}
	if (r->level)
		h->level = (uint8_t)r->level;
	if (r->tag_len && !h->tag_len) {   /* a process prefix's tag wins */
		h->tag_off = (uint32_t)r->tag;
		h->tag_len = (uint32_t)r->tag_len;
	}
	return r->has_msg ? r->msg : r->has_plain ? r->first_plain : end;
}

/* The bytes of a logfmt key: letters, digits and "_.@-".  A table,
 * since every line starting with a lower-case word is scanned with it. */
static const uint8_t key_bytes[256] = {
	['-'] = 1, ['.'] = 1, ['@'] = 1, ['_'] = 1,
	['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1,
	['5'] = 1, ['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1,
	['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1, ['G'] = 1,
	['H'] = 1, ['I'] = 1, ['J'] = 1, ['K'] = 1, ['L'] = 1, ['M'] = 1, ['N'] = 1,
	['O'] = 1, ['P'] = 1, ['Q'] = 1, ['R'] = 1, ['S'] = 1, ['T'] = 1, ['U'] = 1,
	['V'] = 1, ['W'] = 1, ['X'] = 1, ['Y'] = 1, ['Z'] = 1,
	['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1, ['g'] = 1,
	['h'] = 1, ['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1,
	['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1, ['u'] = 1,
	['v'] = 1, ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1,
};

static int is_key_byte(char ch)
{
	return key_bytes[(unsigned char)ch];
}


/* logfmt: key=value pairs separated by blanks, values bare or quoted
 * with backslash escapes.  Needs two pairs and a time or level; stops at
 * the first word that is not a pair. */
static int logfmt_record(struct cur *c, struct record *r)
{
	size_t pairs = 0, roles = 0;
	while (c->i < c->n && (roles || pairs < 3)) {   /* a role among the first three */
		size_t key = c->i;
		if (!is_alpha(c->s[key]) && c->s[key] != '_' && c->s[key] != '@')
			break;
		while (c->i < c->n && is_key_byte(c->s[c->i]))
			c->i++;
		size_t key_end = c->i;
		if (!eat(c, '=')) {
			c->i = key;
			break;
		}
		size_t v = c->i, vn;
		int quoted = eat(c, '"');
		if (quoted) {
			v = c->i;
			while (c->i < c->n && c->s[c->i] != '"')
				c->i += c->s[c->i] == '\\' && c->i + 1 < c->n ? 2 : 1;
			vn = c->i - v;
			eat(c, '"');
		} else {
			token(c);
			vn = c->i - v;
		}
		int role = key_role(c->s + key, key_end - key);
		int had_msg = r->has_msg;
		record_value(r, role, c->s, v, vn, quoted, key, key_end);
		if (r->has_msg && !had_msg) {
			r->msg_member = key;
			r->msg_member_end = c->i;
			r->msg_quoted = quoted;
		}
		record_member(r, key, c->i, role);
		roles += role != R_NONE && role != R_ERROR;
		pairs++;
		if (!spaces(c) && c->i < c->n)
			return 0;   /* "a=b=c" or a="x"y: not logfmt */
	}
	return pairs >= 2 && (r->ts_ms != TS_NONE || r->level);
}

/* Skip a JSON string at c (at its quote); the content is [v, c->i - 1). */
static int json_string(struct cur *c)
{
	if (!eat(c, '"'))
		return 0;
	while (c->i < c->n && c->s[c->i] != '"')
		c->i += c->s[c->i] == '\\' && c->i + 1 < c->n ? 2 : 1;
	return eat(c, '"');
}

static void json_space(struct cur *c)
{
	while (c->i < c->n && (is_space(c->s[c->i]) || c->s[c->i] == '\r'))
		c->i++;
}

/* Skip a JSON value that is an object or array, strings included. */
static int json_skip_nested(struct cur *c)
{
	size_t depth = 0;
	while (c->i < c->n) {
		char ch = c->s[c->i];
		if (ch == '"') {
			if (!json_string(c))
				return 0;
			continue;
		}
		c->i++;
		if (ch == '{' || ch == '[')
			depth++;
		else if ((ch == '}' || ch == ']') && --depth == 0)
			return 1;
	}
	return 0;
}

/* A JSON object at c: the keys of its members by role, and of the
 * objects one level down, the ranks (tracing's "span": {"rank": 0}) and,
 * in "fields", the message.  A line cut short keeps what was read. */
static int json_object(struct cur *c, int depth, int in_fields, struct record *r)
{
	if (!eat(c, '{'))
		return 0;
	json_space(c);
	if (eat(c, '}'))
		return 1;
	for (;;) {
		json_space(c);
		size_t key = c->i + 1;
		if (!json_string(c))
			return 0;
		size_t key_end = c->i - 1;
		json_space(c);
		if (!eat(c, ':'))
			return 0;
		json_space(c);
		int role = key_role(c->s + key, key_end - key);
		if (at(c, '{') && depth < 2) {
			if (!json_object(c, depth + 1, role == R_FIELDS, r))
				return 0;
		} else if (at(c, '{') || at(c, '[')) {
			if (!json_skip_nested(c))
				return 0;
		} else if (at(c, '"')) {
			size_t v = c->i + 1;
			int closed = json_string(c);   /* unclosed: the line was cut */
			int had_msg = r->has_msg;
			if (depth == 1 || (role == R_MSG && in_fields) || role == R_RANK)
				record_value(r, role, c->s, v, c->i - (size_t)closed - v, 1, key - 1, 0);
			if (r->has_msg && !had_msg && closed) {
				r->msg_member = key - 1;
				r->msg_member_end = c->i;
				r->msg_top = depth == 1;
			}
			if (!closed)
				return 0;
		} else {
			size_t v = c->i;
			while (c->i < c->n && !in_set(c->s[c->i], ",}] \t"))
				c->i++;
			if (c->i == v)
				return 0;
			if (depth == 1 || role == R_RANK)
				record_value(r, role, c->s, v, c->i - v, 0, key - 1, 0);
		}
		if (depth == 1)
			record_member(r, key - 1, c->i, role);
		json_space(c);
		if (eat(c, '}'))
			return 1;
		if (!eat(c, ','))
			return 0;
	}
}

/* Does a logfmt key and '=' start at c?  The cheap test first: most
 * lines start with a word and a blank. */
static int logfmt_start(const struct cur *c)
{
	size_t i = c->i;
	if (i >= c->n || !((c->s[i] >= 'a' && c->s[i] <= 'z') || c->s[i] == '_' || c->s[i] == '@'))
		return 0;   /* keys are lower case: "Loading x=1" is a message */
	while (i < c->n && is_key_byte(c->s[i]))
		i++;
	return i < c->n && c->s[i] == '=';
}

size_t record_logfmt(struct cur *c, struct header *h)
{
	if (!logfmt_start(c))
		return 0;
	struct record r;
	record_init(&r);
	if (!logfmt_record(c, &r))
		return 0;
	return record_set(&r, c->i, h);
}

size_t record_json(struct cur *c, struct header *h)
{
	struct record r;
	record_init(&r);
	int whole = json_object(c, 1, 0, &r);
	size_t end = c->n;
	if (whole && !r.has_msg && c->i + 1 < c->n && c->s[c->i] == ' ') {
		/* "{fields} message": the object is the header (see
		 * record_unwrap) */
		r.msg = c->i + 1;
		r.has_msg = 1;
	} else if (!whole && c->i < c->n) {
		return 0;   /* not JSON; a line cut short is read as far as it goes */
	}
	if (r.ts_ms == TS_NONE && !r.level && !r.has_msg)
		return 0;
	return record_set(&r, end, h);
}

/* The character of JSON escape \uXXXX at s (past the 'u'), or -1. */
static long json_hex4(const char *s, size_t n)
{
	long x = 0;
	for (size_t k = 0; k < 4; k++) {
		if (k >= n)
			return -1;
		char ch = s[k];
		int d = is_digit(ch) ? ch - '0' : (ch | 32) >= 'a' && (ch | 32) <= 'f' ? (ch | 32) - 'a' + 10 : -1;
		if (d < 0)
			return -1;
		x = x * 16 + d;
	}
	return x;
}

/* Append the JSON string content s[0, n) to out, unescaped.  A line
 * break at the end (docker's "log": "text\n") is dropped, one inside
 * becomes a blank, as does any control character but a tab, a CR and an
 * escape, which input cleans as it does in any line. */
static void json_unescape(const char *s, size_t n, struct buf *out)
{
	while (n >= 2 && s[n - 2] == '\\' && (s[n - 1] == 'n' || s[n - 1] == 'r'))
		n -= 2;
	for (size_t i = 0; i < n; i++) {
		if (s[i] != '\\' || i + 1 >= n) {
			buf_putc(out, s[i]);
			continue;
		}
		char e = s[++i];
		long u;
		switch (e) {
		case 't': buf_putc(out, '\t'); break;
		case 'r': buf_putc(out, '\r'); break;
		case 'n': case 'b': case 'f': buf_putc(out, ' '); break;
		case 'u':
			u = json_hex4(s + i + 1, n - i - 1);
			if (u < 0) {
				buf_append(out, "\\u", 2);
				break;
			}
			i += 4;
			if (u >= 0xd800 && u < 0xdc00 && i + 6 < n && s[i + 1] == '\\' && s[i + 2] == 'u') {
				long lo = json_hex4(s + i + 3, n - i - 3);
				if (lo >= 0xdc00 && lo < 0xe000) {
					u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
					i += 6;
				}
			}
			if (u < 0x20) {   /* input cleans CRs and escapes */
				buf_putc(out, u == '\t' || u == '\r' || u == 0x1b ? (char)u : ' ');
			} else if (u < 0x80) {
				buf_putc(out, (char)u);
			} else if (u < 0x800) {
				buf_putc(out, (char)(0xc0 | (u >> 6)));
				buf_putc(out, (char)(0x80 | (u & 0x3f)));
			} else if (u < 0x10000) {
				buf_putc(out, (char)(0xe0 | (u >> 12)));
				buf_putc(out, (char)(0x80 | ((u >> 6) & 0x3f)));
				buf_putc(out, (char)(0x80 | (u & 0x3f)));
			} else {
				buf_putc(out, (char)(0xf0 | (u >> 18)));
				buf_putc(out, (char)(0x80 | ((u >> 12) & 0x3f)));
				buf_putc(out, (char)(0x80 | ((u >> 6) & 0x3f)));
				buf_putc(out, (char)(0x80 | (u & 0x3f)));
			}
			break;
		default: buf_putc(out, e); break;   /* \" \\ \/ */
		}
	}
}

/* Append the members (pairs) of r over s whose role is R_ERROR, or all
 * others but the message's, each after sep but the first (*first). */
static void append_members(const char *s, const struct record *r, int errors, const char *sep,
			   int *first, struct buf *out)
{
	for (size_t k = 0; k < r->nmem; k++) {
		const struct member *m = &r->mem[k];
		if (m->b == r->msg_member || (m->role == R_ERROR) != errors)
			continue;
		if (!*first)
			buf_append(out, sep, strlen(sep));
		buf_append(out, s + m->b, m->e - m->b);
		*first = 0;
	}
}

/* A JSON record: the object without the message member nor those that
 * say what failed, a blank, the message unescaped, then those members
 * ({"ts": 1, "msg": "a \"b\"", "k": 2, "err": "x"} gives {"ts": 1,"k":
 * 2} a "b" "err": "x").  A message in a member's object (tracing's
 * "fields") is taken out of it, and the rest left as it is. */
static size_t json_unwrap(const char *s, size_t n, struct buf *out)
{
	struct cur c = { s, n, 0 };
	struct record r;
	record_init(&r);
	if (!json_object(&c, 1, 0, &r) || !r.msg_member_end)
		return 0;
	json_space(&c);
	if (c.i < c.n)
		return 0;
	size_t end = n;
	while (end > 0 && is_space(s[end - 1]))
		end--;
	size_t from = out->len, msg;
	if (r.msg_top && r.nmem <= RECORD_MEMBERS) {
		int first = 1;
		buf_putc(out, '{');
		append_members(s, &r, 0, ",", &first, out);
		buf_append(out, "} ", 2);
		msg = out->len - from;
		json_unescape(s + r.msg, r.msg_member_end - 1 - r.msg, out);
		first = 0;
		append_members(s, &r, 1, " ", &first, out);
		return msg;
	}
	/* The member goes with one comma: the one before it, else after. */
	size_t b = r.msg_member, e = r.msg_member_end, p = b, q = e;
	while (p > 0 && (is_space(s[p - 1]) || s[p - 1] == '\r'))
		p--;
	while (q < n && is_space(s[q]))
		q++;
	if (p > 0 && s[p - 1] == ',')
		b = p - 1;
	else if (q < n && s[q] == ',')
		for (e = q + 1; e < n && is_space(s[e]); e++)
			;
	buf_append(out, s, b);
	buf_append(out, s + e, end - e);
	buf_putc(out, ' ');
	msg = out->len - from;
	json_unescape(s + r.msg, r.msg_member_end - 1 - r.msg, out);
	return msg;
}

/* A logfmt record: the pairs but the message's and those that say what
 * failed, then the message pair with its value unquoted and unescaped,
 * which record_logfmt reads as running to the end of the line, then
 * those pairs and any words after the pairs ('msg="a b" k=v err=x'
 * gives 'k=v msg=a b err=x').  A bare message pair already last, with
 * no such pair, is left as it is, as is a message that starts with a
 * quote (it would read as quoted again). */
static size_t logfmt_unwrap(const char *s, size_t n, struct buf *out)
{
	struct cur c = { s, n, 0 };
	struct record r;
	record_init(&r);
	if (!logfmt_start(&c) || !logfmt_record(&c, &r) || !r.has_msg || r.nmem > RECORD_MEMBERS ||
	    (r.msg_quoted && r.msg + 1 < n && s[r.msg] == '\\' && s[r.msg + 1] == '"'))
		return 0;
	int errors = 0;
	for (size_t k = 0; k < r.nmem; k++)
		errors |= r.mem[k].role == R_ERROR;
	if (!r.msg_quoted && !errors && r.mem[r.nmem - 1].b == r.msg_member)
		return 0;
	size_t end = r.msg_member_end;
	if (r.msg_quoted && end > r.msg && s[end - 1] == '"')
		end--;   /* else unclosed: the line was cut */
	size_t from = out->len;
	int first = 1;
	append_members(s, &r, 0, " ", &first, out);
	if (!first)
		buf_putc(out, ' ');
	buf_append(out, s + r.msg_member, r.msg - (size_t)r.msg_quoted - r.msg_member);
	size_t msg = out->len - from;
	if (r.msg_quoted)
		json_unescape(s + r.msg, end - r.msg, out);
	else
		buf_append(out, s + r.msg, end - r.msg);
	first = 0;
	append_members(s, &r, 1, " ", &first, out);
	size_t rest = c.i;
	while (rest < n && is_space(s[rest]))
		rest++;
	if (rest < n) {
		buf_putc(out, ' ');
		buf_append(out, s + rest, n - rest);
	}
	/* The rewritten line must read as the same record, its message
	 * where it was put (not so when the message pair was the only
	 * field of a role among the first three). */
	struct cur w = { out->p + from, out->len - from, 0 };
	struct record rw;
	record_init(&rw);
	if (!logfmt_record(&w, &rw) || !rw.has_msg || rw.msg != msg) {
		out->len = from;
		return 0;
	}
	return msg;
}

size_t record_unwrap(const char *s, size_t n, struct buf *out)
{
	if (n > 1 && s[0] == '{' && s[n - 1] == '}')
		return json_unwrap(s, n, out);
	return logfmt_unwrap(s, n, out);
}

/* The message of a line whose header gave no level may be a structured
 * record itself: logfmt behind journald's or docker compose's prefix,
 * JSON behind a timestamp.  Its fields then fill in the header. */
size_t record_body(struct cur *c, struct header *h)
{
	if (c->i >= c->n)
		return 0;
	size_t end = c->n;
	struct record r;
	if (c->s[c->i] == '{') {
		record_init(&r);
		struct cur j = *c;
		if ((!json_object(&j, 1, 0, &r) && j.i < j.n) ||
		    (r.ts_ms == TS_NONE && !r.level && !r.has_msg))
			return 0;
	} else if (logfmt_start(c)) {
		record_init(&r);
		struct cur l = *c;
		if (!logfmt_record(&l, &r))
			return 0;
		end = l.i;
	} else {
		return 0;
	}
	if (h->ts_ms != TS_NONE)
		r.ts_ms = TS_NONE;   /* the outer clock is the one of the file's other lines */
	return record_set(&r, end, h);
}

/* A rank field at the very end of the line ("... rank=3"), as tracing
 * writes a span's fields after the message: the tag, unless a process
 * prefix gave one. */
void record_rank_suffix(const struct cur *c, struct header *h)
{
	size_t e = c->n, i = e;
	while (i > c->i && is_digit(c->s[i - 1]))
		i--;
	if (i == e || i <= c->i + 1 || c->s[i - 1] != '=' || h->tag_len)
		return;
	size_t eq = i - 1, k = eq;
	while (k > c->i && is_key_byte(c->s[k - 1]))
		k--;
	if (k == eq || (k > c->i && !is_space(c->s[k - 1])) ||
	    key_role(c->s + k, eq - k) != R_RANK)
		return;
	h->tag_off = (uint32_t)k;
	h->tag_len = (uint32_t)(e - k);
}

int record_is_rank_key(const char *k, size_t n)
{
	return key_role(k, n) == R_RANK;
}

int record_rank_name(const char *s, size_t n, size_t *key_len, size_t *num_off)
{
	size_t k = 0;
	while (k < n && (is_alpha(s[k]) || s[k] == '_'))
		k++;
	size_t d = k;
	if (d < n && (s[d] == ':' || s[d] == '='))
		d++;
	if (d < n && s[d] == ' ')
		d++;
	size_t digits = d;
	while (d < n && is_digit(s[d]))
		d++;
	if (!k || d == digits || d != n || !record_is_rank_key(s, k))
		return 0;
	*key_len = k;
	*num_off = digits;
	return 1;
}
