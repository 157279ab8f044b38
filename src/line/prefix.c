/* prefix.c — line header recognition.  See prefix.h.
 *
 * Each format is one small hand-written parser over a bounded cursor (no
 * regex, no allocation; lines are not NUL-terminated).  A parser returns
 * where the message starts, or 0 when the line is not in its format.
 *
 * The Loghub formats take the message exactly where the Loghub benchmark's
 * `Content` column starts (its logformat regexes in logpai/logparser):
 * the component or program before "name: " is header, not message, and
 * whitespace that the regexes match with \s+ is skipped.  The formats of
 * the engines ddx is for (SGLang, vLLM, torch) skip one separating space
 * only, so indentation (tracebacks, ASCII art) stays in the message. */
#include "prefix.h"

#include "prefix_record.h"
#include "prefix_scan.h"

#include <stdio.h>
#include <string.h>


static const char *const level_names[] = {
	"", "trace", "debug", "info", "notice", "warning", "error", "fatal",
};

const char *level_name(int level)
{
	return level >= 0 && level <= LV_FATAL ? level_names[level] : "";
}

/* A tracing span or target before the message: a lower-case name of
 * letters, digits and _-./: ("text_generation_router::server",
 * "router/src/server.rs:12"), a span's "{fields}", ending in ": ". */
static int tracing_target(struct cur *c)
{
	size_t i0 = c->i;
	if (c->i >= c->n || c->s[c->i] < 'a' || c->s[c->i] > 'z')
		return 0;
	while (c->i < c->n && !is_space(c->s[c->i])) {
		char ch = c->s[c->i];
		if (ch == '{') {
			if (!skip_past(c, "}"))
				return 0;
		} else if (is_alpha(ch) || is_digit(ch) || in_set(ch, "_-./:")) {
			c->i++;
		} else {
			return 0;
		}
	}
	return c->i - i0 >= 2 && c->s[c->i - 1] == ':' && eat(c, ' ');
}

/* Rust tracing-subscriber's default, TGI's launcher and router:
 * 2024-05-01T10:00:00.123456Z  INFO shard-manager: text_generation_launcher:
 * msg rank=0, the level right-aligned in five columns.  Spans and target
 * (one at least) are header; a trailing rank=N field is the tag. */
static size_t fmt_tracing(struct cur *c, struct header *h)
{
	struct stamp t = { 0 };
	if (!iso_stamp(c, &t, "T") || !t.has_zone || !spaces(c) || !stamp_set(&t, h))
		return 0;
	int lv = level_word(c, 0);
	if (!lv || !eat(c, ' ') || !tracing_target(c))
		return 0;   /* the target is what tells tracing from other ISO formats */
	for (int k = 0; k < 3; k++) {
		struct cur tg = *c;
		if (!tracing_target(&tg))
			break;
		*c = tg;
	}
	record_rank_suffix(c, h);
	h->level = (uint8_t)lv;
	return c->i;
}

/* Spring Boot's default console format (logback):
 * 2024-06-01T07:51:04.554+02:00  INFO 49468 --- [main] o.s.b.App  : msg,
 * "[  main]" padded in Spring Boot 2, "[app] [main]" from 3.4. */
static size_t fmt_spring(struct cur *c, struct header *h)
{
	struct stamp t = { 0 };
	int64_t pid;
	if (!iso(c, &t) || !spaces(c) || !stamp_set(&t, h))
		return 0;
	int lv = level_word(c, 0);
	if (!lv || !spaces(c) || !num(c, 1, 10, &pid) || !eat_str(c, " --- ") || !at(c, '[') ||
	    !skip_past(c, "] ") || !skip_past(c, " : "))
		return 0;
	h->level = (uint8_t)lv;
	return c->i;
}

/* YYYY/MM/DD, the date of Go's log package. */
static int slash_date(struct cur *c, struct stamp *t)
{
	return fixed(c, 4, &t->y) && eat(c, '/') && fixed(c, 2, &t->mo) && eat(c, '/') &&
	       fixed(c, 2, &t->d);
}

/* Go's log package: 2024/05/12 06:47:18[.123456] [file.go:123: ][LEVEL ]msg
 * (Ollama before slog wrote "routes.go:1006: INFO server config"); nginx's
 * error log has the same date: 2025/07/17 12:26:12 [emerg] 2609#2609: msg.
 * nginx's "pid#tid: " stays in the message: rules anchor on it. */
static size_t fmt_golog(struct cur *c, struct header *h)
{
	struct stamp t = { 0 };
	if (!slash_date(c, &t) || !eat(c, ' ') || !clock_time(c, &t, ".") ||
	    (c->i < c->n && !eat(c, ' ')) || !stamp_set(&t, h))
		return 0;
	struct cur br = *c;
	int blv = eat(&br, '[') ? level_word(&br, 1) : LV_NONE;
	if (blv && eat_str(&br, "] ")) {
		*c = br;
		h->level = (uint8_t)blv;
		return c->i;
	}
	struct cur loc = *c;
	if (src_loc(&loc) && eat_str(&loc, ": "))
		*c = loc;
	struct cur w = *c;
	int lv = level_word(&w, 0);
	if (lv && (w.i == w.n || eat(&w, ' '))) {
		*c = w;
		h->level = (uint8_t)lv;
	}
	return c->i;
}

static size_t stamp_level(struct cur *c, struct header *h);

/* Whether a time of day starts at c: one or two digits, then ':'. */
static int clock_ahead(struct cur c)
{
	int64_t h;
	return num(&c, 1, 2, &h) && eat(&c, ':');
}

/* A date with the month's name, as servers write it: "02 Jan 2024",
 * "02-Jan-2024" (Tomcat, BIND), "Jan 02 2024" or "Jan 2, 2024"; the
 * month's full name may follow its first three letters ("January").  A
 * day-first date may leave the year out when the time follows it
 * (Node-RED's "6 Feb 15:04:54"), as BSD syslog's month-first one does. */
static int named_date(struct cur *c, struct stamp *t)
{
	int64_t d;
	struct cur w = *c;
	if (num(&w, 1, 2, &d)) {
		char sep = w.i < w.n ? w.s[w.i] : 0;
		if ((sep != ' ' && sep != '-') || !eat(&w, sep) || !month_name(&w, &t->mo))
			return 0;
		while (w.i < w.n && is_alpha(w.s[w.i]))
			w.i++;
		struct cur y = w;
		if (sep == ' ' && eat(&y, ' ') && clock_ahead(y))
			t->no_year = 1;
		else if (!eat(&w, sep) || !fixed(&w, 4, &t->y))
			return 0;
	} else {
		if (!month_name(&w, &t->mo))
			return 0;
		while (w.i < w.n && is_alpha(w.s[w.i]))
			w.i++;
		if (!spaces(&w) || !num(&w, 1, 2, &d))
			return 0;
		eat(&w, ',');
		if (!eat(&w, ' ') || !fixed(&w, 4, &t->y))
			return 0;
	}
	t->d = (int)d;
	*c = w;
	return 1;
}

/* A named date and a time at the start of the line (named_date), then
 * the level in any shape (stamp_level): "02-Jan-2024 10:00:00.123 INFO
 * [main] msg", "Jan 02 2024 10:00:00 msg".  The date is the line's time,
 * never words of its message. */
static size_t fmt_named_date(struct cur *c, struct header *h)
{
	struct stamp t = { 0 };
	if (!named_date(c, &t) || !(eat(c, ' ') || eat(c, ':')) || !clock_time(c, &t, ".,") ||
	    !stamp_set(&t, h))
		return 0;
	if (c->i < c->n && !spaces(c))
		return 0;
	return stamp_level(c, h);
}

/* A date in digits other than ISO's: year first with dots or slashes
 * ("2017.10.04", "2017/10/04"), or the year last: with slashes month
 * first ("10/24/2017", C's and Python's "%m/%d/%Y"), with dots or dashes
 * day first ("04.10.2017", as German and Russian locales write it),
 * unless the number that would be the month cannot be one.  Which comes
 * first is ambiguous up to the 12th: runs are compared by durations, and
 * a log's dates are read one way throughout. */
static int numeric_date(struct cur *c, struct stamp *t)
{
	struct cur w = *c;
	int a, b, y;
	if (fixed(&w, 4, &t->y)) {
		char sep = w.i < w.n ? w.s[w.i] : 0;
		if ((sep != '.' && sep != '/') || !eat(&w, sep) || !fixed(&w, 2, &t->mo) || !eat(&w, sep) ||
		    !fixed(&w, 2, &t->d))
			return 0;
		*c = w;
		return 1;
	}
	if (!fixed(&w, 2, &a))
		return 0;
	char sep = w.i < w.n ? w.s[w.i] : 0;
	if ((sep != '.' && sep != '/' && sep != '-') || !eat(&w, sep) || !fixed(&w, 2, &b) || !eat(&w, sep) ||
	    !fixed(&w, 4, &y))
		return 0;
	int month_first = sep == '/' ? a <= 12 : b > 12;
	t->y = y;
	t->d = month_first ? b : a;
	t->mo = month_first ? a : b;
	*c = w;
	return 1;
}

/* A date in digits (numeric_date) and a time, then the level in any
 * shape (stamp_level): SonarQube's "2020.03.14 16:18:44 INFO  app[]
 * msg", "06.12.2026 14:00:00 ERROR msg". */
static size_t fmt_numeric_date(struct cur *c, struct header *h)
{
	struct stamp t = { 0 };
	if (!numeric_date(c, &t) || !eat(c, ' ') || !clock_time(c, &t, ".,") || !stamp_set(&t, h))
		return 0;
	if (c->i < c->n && !spaces(c))
		return 0;
	return stamp_level(c, h);
}

/* An English weekday's name, abbreviated or whole ("Sat", "Saturday"). */
static int weekday(struct cur *c)
{
	static const char days[] = "MonTueWedThuFriSatSun";
	if (c->n - c->i < 3)
		return 0;
	for (int k = 0; k < 7; k++) {
		if (memcmp(c->s + c->i, days + 3 * k, 3) == 0) {
			c->i += 3;
			while (c->i < c->n && is_alpha(c->s[c->i]))
				c->i++;
			return 1;
		}
	}
	return 0;
}

/* The C library's asctime and date(1) at the start of the line: "Sat May
 * 28 17:09:55 2016 msg" (OpenVPN and many C daemons), a zone before the
 * year ("Sat May 28 17:09:55 UTC 2016"), the day padded with a blank
 * ("May  8"), bracketed or not; then the level in any shape.  Every part
 * must be there, so that a message starting with a weekday stays
 * message. */
static size_t fmt_ctime(struct cur *c, struct header *h)
{
	struct stamp t = { 0 };
	int64_t d;
	int bracket = eat(c, '[');
	if (!weekday(c) || !spaces(c) || !month_name(c, &t.mo))
		return 0;
	while (c->i < c->n && is_alpha(c->s[c->i]))
		c->i++;
	if (!spaces(c) || !num(c, 1, 2, &d) || !eat(c, ' ') || !clock_time(c, &t, ".,") ||
	    !eat(c, ' '))
		return 0;
	if (c->i < c->n && !is_digit(c->s[c->i]) && (!token(c) || !eat(c, ' ')))
		return 0;   /* the zone: "UTC", "CEST", "+0200" */
	if (!fixed(c, 4, &t.y) || (bracket && !eat(c, ']')))
		return 0;
	t.d = (int)d;
	if (!stamp_set(&t, h) || (c->i < c->n && !spaces(c)))
		return 0;
	return stamp_level(c, h);
}

/* Redis: "1:M 02 Jan 2024 10:00:00.123 * msg", the pid and the role
 * (X sentinel, C child, S replica, M master), or before 3.0 "[1] 02 Jan
 * 10:00:00.123 # msg" without the year.  The level is one character:
 * '.' debug, '-' verbose, '*' notice, '#' warning.  The pid is header:
 * it differs from run to run. */
static size_t fmt_redis(struct cur *c, struct header *h)
{
	int64_t pid, d;
	struct stamp t = { 0 };
	if (eat(c, '[')) {
		if (!num(c, 1, 10, &pid) || !eat_str(c, "] ") || !num(c, 1, 2, &d) || !eat(c, ' ') ||
		    !month_name(c, &t.mo) || !eat(c, ' '))
			return 0;
		t.d = (int)d;
		t.no_year = 1;
	} else if (!num(c, 1, 10, &pid) || !eat(c, ':') || c->i >= c->n ||
		   !in_set(c->s[c->i++], "XCSM") || !eat(c, ' ') || !named_date(c, &t) ||
		   !eat(c, ' ')) {
		return 0;
	}
	if (!clock_time(c, &t, ".") || !eat(c, ' ') || c->i + 1 >= c->n || c->s[c->i + 1] != ' ')
		return 0;
	static const char marks[] = ".-*#";
	static const uint8_t levels[] = { LV_DEBUG, LV_DEBUG, LV_INFO, LV_WARN };
	const char *m = memchr(marks, c->s[c->i], 4);
	if (!m || !stamp_set(&t, h))
		return 0;
	h->level = levels[m - marks];
	c->i += 2;
	return c->i;
}

/* Go gin's access log: [GIN] 2025/01/02 - 10:00:00 | 200 |  1.2ms | ip |
 * GET "/path", the message from the status on.  The level follows gin's
 * own colours of the status: 4xx warning, 5xx error.  Its debug lines,
 * "[GIN-debug] [WARNING] msg" or "[GIN-debug] GET /x --> handler", have
 * no time; their level is the bracketed one, else debug. */
static size_t fmt_gin(struct cur *c, struct header *h)
{
	if (!eat(c, '['))
		return 0;
	size_t name = c->i;
	while (c->i < c->n && (is_alpha(c->s[c->i]) || c->s[c->i] == '-' || c->s[c->i] == '_'))
		c->i++;
	size_t name_end = c->i;
	if (name_end == name || !eat_str(c, "] "))
		return 0;
	struct stamp t = { 0 };
	if (slash_date(c, &t)) {
		if (!eat_str(c, " - ") || !clock_time(c, &t, ".") || !eat_str(c, " |") ||
		    !stamp_set(&t, h))
			return 0;
		spaces(c);
		size_t msg = c->i;
		int64_t status;
		if (num(c, 3, 3, &status))
			h->level = status >= 500 ? LV_ERROR : status >= 400 ? LV_WARN : LV_INFO;
		return msg;
	}
	if (name_end - name < 7 || memcmp(c->s + name_end - 6, "-debug", 6) != 0)
		return 0;
	struct cur w = *c;
	int lv = eat(&w, '[') ? level_word(&w, 0) : LV_NONE;
	if (lv && eat(&w, ']')) {
		eat(&w, ' ');
		*c = w;
	} else {
		lv = LV_DEBUG;
	}
	h->level = (uint8_t)lv;
	return c->i;
}

/* One separating space, when there is one. */
static size_t msg_after_space(struct cur *c)
{
	eat(c, ' ');
	return c->i;
}

/* The rest of uvicorn's levelprefix after its level word lv, which
 * started at i0: "LEVEL:" padded with spaces to column 10. */
static int uvicorn_rest(struct cur *c, size_t i0, int lv, struct header *h)
{
	if (!eat(c, ':') || !spaces(c) || c->i - i0 != 10)
		return 0;
	h->level = (uint8_t)lv;
	return 1;
}

/* [2025-03-08 12:29:29 DP0 TP3 EP3] msg, with the 2026 form's
 * "INFO file.py:123: " and uvicorn lines after it.  SGLang's time has no
 * fraction: a bracketed one with a fraction is bracket_iso's (log4j,
 * DeepSpeed), which must not make the log's engine SGLang. */
static size_t fmt_sglang(struct cur *c, struct header *h)
{
	struct stamp t = { 0 };
	if (!eat(c, '[') || !iso_date(c, &t) || !eat(c, ' ') || !clock_time(c, &t, "") ||
	    spaced_zone(c) || !stamp_set(&t, h))   /* a zone is no rank tag */
		return 0;
	size_t tag = c->i, end = c->i;
	if (eat(c, ' ')) {
		tag = c->i;
		while (c->i < c->n && (is_alpha(c->s[c->i]) || is_digit(c->s[c->i]) ||
				       c->s[c->i] == ' ' || c->s[c->i] == '_' || c->s[c->i] == '-'))
			c->i++;
		end = c->i;
		while (end > tag && c->s[end - 1] == ' ')
			end--;
	}
	if (!eat(c, ']'))
		return 0;
	if (end > tag && !h->tag_len) {   /* a process prefix's tag wins */
		h->tag_off = (uint32_t)tag;
		h->tag_len = (uint32_t)(end - tag);
	}
	eat(c, ' ');
	/* Another program's bracketed time, then its level in any shape
	 * (stamp_level): "[2025-01-28 08:49:37][I][train.py:141:f] msg". */
	if (at(c, '['))
		return stamp_level(c, h);
	size_t msg = c->i;
	int lv = level_word(c, 0);
	if (!lv)
		return msg;
	size_t word_end = c->i;
	if (eat(c, ' ') && src_loc(c) && eat(c, ':')) {
		h->level = (uint8_t)lv;
		return msg_after_space(c);
	}
	c->i = word_end;
	return uvicorn_rest(c, msg, lv, h) ? c->i : msg;
}

/* INFO 03-07 12:29:02 [core.py:61] msg, or (before vLLM 0.8)
 * INFO 03-07 12:29:02 __init__.py:190] msg. */
static size_t fmt_vllm(struct cur *c, struct header *h)
{
	struct stamp t = { .no_year = 1 };
	int lv = level_word(c, 0);
	if (!lv || !eat(c, ' ') || !fixed(c, 2, &t.mo) || !eat(c, '-') || !fixed(c, 2, &t.d) ||
	    !eat(c, ' ') || !clock_time(c, &t, ".,") || !eat(c, ' '))
		return 0;
	eat(c, '[');
	if (!src_loc(c) || !eat(c, ']') || !stamp_set(&t, h))
		return 0;
	h->level = (uint8_t)lv;
	return msg_after_space(c);
}

/* glog: I0223 00:36:54.123456  1234 file.cc:12] msg; PyTorch's c10 logging
 * brackets it, drops the thread id and may not pad the month:
 * [W117 10:35:51.960159117 compiler_depend.ts:207] msg, or has no time at
 * all: [W socket.cpp:436] msg. */
static size_t fmt_glog(struct cur *c, struct header *h)
{
	int bracket = eat(c, '[');
	if (c->i >= c->n)
		return 0;
	int lv = level_letter(c->s[c->i]);
	if (!lv || lv == LV_TRACE || lv == LV_DEBUG)
		return 0;
	c->i++;
	struct stamp t = { .no_year = 1 };
	int64_t mmdd;
	if (num(c, bracket ? 3 : 4, 4, &mmdd)) {
		t.mo = (int)(mmdd / 100);
		t.d = (int)(mmdd % 100);
		if (!eat(c, ' ') || !clock_time(c, &t, ".") || !stamp_set(&t, h))
			return 0;
	} else if (!bracket) {
		return 0;
	}
	if (!spaces(c))
		return 0;
	struct cur tid = *c;
	int64_t v;
	if (num(&tid, 1, 10, &v) && spaces(&tid))
		*c = tid;
	if (!src_loc(c) || !eat(c, ']'))
		return 0;
	h->level = (uint8_t)lv;
	return msg_after_space(c);
}

/* Ascend CANN / torch_npu: [ERROR] 2026-06-09-03:35:23 (PID:428723,
 * Device:0, RankID:-1) msg, and [PID: 428723] 2026-06-09-03:35:23.635.715
 * msg. */
static size_t fmt_ascend(struct cur *c, struct header *h)
{
	if (!eat(c, '['))
		return 0;
	int lv = level_word(c, 0);
	if (!lv) {
		int64_t pid;
		if (!eat_str(c, "PID:"))
			return 0;
		spaces(c);
		if (!num(c, 1, 10, &pid))
			return 0;
	}
	struct stamp t = { 0 };
	if (!eat(c, ']') || !eat(c, ' ') || !iso_stamp(c, &t, "-") || !stamp_set(&t, h))
		return 0;
	struct cur sub = *c;   /* the microseconds after the milliseconds */
	int us;
	if (eat(&sub, '.') && fixed(&sub, 3, &us))
		*c = sub;
	eat(c, ' ');
	if (eat_str(c, "(PID:")) {
		if (!skip_past(c, ")"))
			return 0;
		eat(c, ' ');
	}
	h->level = (uint8_t)lv;
	return c->i;
}

/* Python logging.basicConfig's default: INFO:root:msg. */
static size_t fmt_pylog(struct cur *c, struct header *h)
{
	int lv = level_word(c, 0);
	if (!lv || !eat(c, ':'))
		return 0;
	size_t name = c->i;
	while (c->i < c->n && !is_space(c->s[c->i]) && c->s[c->i] != ':')
		c->i++;
	if (c->i == name || !eat(c, ':'))
		return 0;
	h->level = (uint8_t)lv;
	return c->i;
}

/* A level and, split from it by a bar in one bracket, the place or the
 * time; then the other and " >> ": transformers' explicit format
 * "[INFO|file.py:12] 2025-05-15 07:22:26,470 >> msg" and LLaMA-Factory's
 * "[INFO|2025-05-15 07:22:26] name:12 >> msg". */
static size_t fmt_level_bar(struct cur *c, struct header *h)
{
	struct stamp t = { 0 };
	if (!eat(c, '['))
		return 0;
	int lv = level_word(c, 0);
	if (!lv || !eat(c, '|'))
		return 0;
	if (iso(c, &t)) {
		if (!eat(c, ']') || !spaces(c) || !src_loc(c))
			return 0;
	} else if (!src_loc(c) || !eat(c, ']') || !spaces(c) || !iso(c, &t)) {
		return 0;
	}
	if (!eat_str(c, " >> ") || !stamp_set(&t, h))
		return 0;
	h->level = (uint8_t)lv;
	return c->i;
}

/* Ruby's Logger (Rails, Sidekiq, Puma's apps): "I, [2021-11-17T07:29:15.
 * 077253 #4]  INFO -- progname: msg", the progname often empty ("-- :").
 * The level's letter comes first, its word after the pid. */
static size_t fmt_ruby(struct cur *c, struct header *h)
{
	struct stamp t = { 0 };
	if (c->i + 3 >= c->n || !level_letter(c->s[c->i]))
		return 0;
	c->i++;
	if (!eat_str(c, ", [") || !iso(c, &t) || !eat_str(c, " #"))
		return 0;
	size_t pid = c->i;
	while (c->i < c->n && is_digit(c->s[c->i]))
		c->i++;
	if (c->i == pid || !eat(c, ']') || !spaces(c) || !stamp_set(&t, h))
		return 0;
	int lv = level_word(c, 0);
	if (!lv)
		eat_str(c, "ANY");
	if (!eat_str(c, " -- "))
		return 0;
	while (c->i < c->n && c->s[c->i] != ':' && c->i - pid < 128)
		c->i++;
	if (!eat(c, ':'))
		return 0;
	h->level = (uint8_t)lv;
	return msg_after_space(c);
}

/* uvicorn: "INFO:     msg". */
static size_t fmt_uvicorn(struct cur *c, struct header *h)
{
	size_t i0 = c->i;
	int lv = level_word(c, 0);
	return lv && uvicorn_rest(c, i0, lv, h) ? c->i : 0;
}

/* A field of a header whose fields are separated by " - ", after the
 * level: one word of a code name's characters (letters, digits, '.',
 * '_', '-') holding a letter, then " - ".  Python's "%(levelname)s -
 * %(name)s - %(message)s" writes the logger's name there ("INFO - root -
 * msg", "INFO - llamafactory.data.loader - msg"), a format with the
 * request after the level its id (Synapse's "INFO - main - msg").  Moves
 * c past it.  One word only: "INFO - Loading model - done" is message. */
static int dashed_name(struct cur *c)
{
	size_t i = c->i;
	int letters = 0;
	for (; i < c->n && (is_alpha(c->s[i]) || is_digit(c->s[i]) || c->s[i] == '.' || c->s[i] == '_' ||
			    c->s[i] == '-'); i++)
		letters += is_alpha(c->s[i]);
	if (!letters || i + 3 > c->n || memcmp(c->s + i, " - ", 3) != 0)
		return 0;
	c->i = i + 3;
	return 1;
}

static int column_time(struct cur *c, struct stamp *t);

/* Python "%(asctime)s - %(name)s - %(levelname)s - %(message)s", also
 * without the name, with up to PY_FIELDS fields of one word each before
 * the level (Synapse's "%(name)s - %(lineno)d - %(levelname)s"), with
 * the source location or the name after the level (dashed_name), and
 * the time ISO's or a date in digits of another order: the
 * transformers examples' "06/02/2024 00:04:27 - INFO - name - msg". */
#define PY_FIELDS 3
static size_t fmt_python(struct cur *c, struct header *h)
{
	struct stamp t = { 0 };
	if (!column_time(c, &t) || !eat_str(c, " - ") || !stamp_set(&t, h))
		return 0;
	int lv = 0;
	for (int k = 0; k <= PY_FIELDS && !lv; k++) {
		size_t field = c->i;
		lv = level_word(c, 0);
		if (lv && eat_str(c, " - "))
			break;
		lv = 0;
		c->i = field;
		while (c->i < c->n && !is_space(c->s[c->i]))
			c->i++;
		if (c->i == field || !eat_str(c, " - "))
			return 0;
	}
	if (!lv)
		return 0;
	/* FlashInfer's "%(filename)s:%(lineno)d - " after the level. */
	struct cur loc = *c;
	if (src_loc(&loc) && eat_str(&loc, " - "))
		*c = loc;
	else
		dashed_name(c);
	h->level = (uint8_t)lv;
	return c->i;
}

/* A name that ends with a bar: one word of a code name's characters
 * (letters, digits, '-', '_', '.') holding a lower-case letter, padding,
 * then '|' and a blank or the line's end.  docker compose puts one
 * before each line of a service ("vllm-1  | ", v1's "web_1    | "); a
 * format of fields between bars writes a logger's name so after the
 * level ("%(levelname)s | %(name)s | %(message)s": FastChat's
 * "model_worker | ", its "stderr | " for what it relays).  Moves c past
 * it.  The lower-case letter tells a name from a level: "INFO | msg" is
 * a message. */
static inline __attribute__((always_inline)) int name_bar(struct cur *c)
{
	size_t i = c->i, e = c->n < i + 64 ? c->n : i + 64;
	int lower = 0;
	if (i >= e || !(is_alpha(c->s[i]) || is_digit(c->s[i]) || c->s[i] == '_'))
		return 0;
	for (; i < e && (is_alpha(c->s[i]) || is_digit(c->s[i]) || c->s[i] == '-' || c->s[i] == '_' ||
			 c->s[i] == '.'); i++)
		lower |= c->s[i] >= 'a' && c->s[i] <= 'z';
	if (!lower || i >= c->n || c->s[i] != ' ')
		return 0;
	while (i < c->n && c->s[i] == ' ')
		i++;
	if (i >= c->n || c->s[i] != '|' || (i + 1 < c->n && c->s[i + 1] != ' '))
		return 0;
	c->i = i + 1 < c->n ? i + 2 : i + 1;
	return 1;
}

/* loguru: 2024-01-02 03:04:05.678 | INFO     | module:func:12 - msg; a
 * custom format may leave out the module part, or write a logger's name
 * in a field of its own (name_bar). */
static size_t fmt_loguru(struct cur *c, struct header *h)
{
	struct stamp t = { 0 };
	if (!iso(c, &t) || !eat_str(c, " | ") || !stamp_set(&t, h))
		return 0;
	int lv = level_word(c, 0);
	spaces(c);
	if (!lv || !eat_str(c, "| "))
		return 0;
	struct cur where = *c;   /* "module:function:line - ", when the format has it */
	if (token(&where) && eat_str(&where, " - "))
		*c = where;
	else
		name_bar(c);
	h->level = (uint8_t)lv;
	return c->i;
}

/* A time in a column of a header (fmt_columns): ISO's, or a date in
 * digits of another order (numeric_date) and a time. */
static int column_time(struct cur *c, struct stamp *t)
{
	struct cur w = *c, d = *c;
	if (iso(&w, t)) {
		*c = w;
		return 1;
	}
	if (numeric_date(&d, t) && eat(&d, ' ') && clock_time(&d, t, ".,")) {
		*c = d;
		return 1;
	}
	return 0;
}

/* A header of columns between bars, each padded with blanks: the Java
 * Service Wrapper's console "INFO   | jvm 1    | 2017/10/04 22:04:32 |
 * msg", where the program's own line follows (wraps), or a Python
 * format's "2024-01-02 03:04:05 | WARNING | msg".  Up to four columns,
 * each a level word, a time (column_time) or a short name; a time and
 * another column at least, so that the rows of a table a program
 * prints ("| name | value |") stay message.  The message follows the
 * last bar and one blank. */
static size_t fmt_columns(struct cur *c, struct header *h)
{
	struct stamp t = { 0 };
	int lv = LV_NONE, timed = 0, ncol = 0;
	for (; ncol < 4; ncol++) {
		struct cur w = *c;
		int l = lv ? LV_NONE : level_word(&w, 0);
		if (l) {
			lv = l;
		} else if (timed || !column_time(&w, &t)) {
			size_t i0 = w.i;   /* a name, up to its bar */
			while (w.i < w.n && w.i - i0 < 24 && w.s[w.i] != '|')
				w.i++;
			if (w.i == i0 || is_space(w.s[i0]))
				break;
		} else {
			timed = 1;
		}
		spaces(&w);
		if (!eat(&w, '|') || (w.i < w.n && !eat(&w, ' ')))
			break;
		*c = w;
	}
	if (!timed || ncol < 2 || !stamp_set(&t, h))
		return 0;
	h->level = (uint8_t)lv;
	return c->i;
}

/* log4j as ZooKeeper writes it:
 * 2015-07-29 17:41:44,747 - INFO  [thread:Component@774] - msg. */
static size_t fmt_zookeeper(struct cur *c, struct header *h)
{
	struct stamp t = { 0 };
	if (!iso(c, &t) || !eat_str(c, " - ") || !stamp_set(&t, h))
		return 0;
	int lv = level_word(c, 1);
	if (!lv || !spaces(c) || !at(c, '[') || !skip_past(c, "] - "))
		return 0;
	spaces(c);
	h->level = (uint8_t)lv;
	return c->i;
}

/* log4j as Hadoop writes it:
 * 2015-10-18 18:01:47,978 INFO [main] org.apache.Class: msg. */
static size_t fmt_hadoop(struct cur *c, struct header *h)
{
	struct stamp t = { 0 };
	if (!iso(c, &t) || !eat(c, ' ') || !stamp_set(&t, h))
		return 0;
	int lv = level_word(c, 1);
	if (!lv || !spaces(c) || !at(c, '[') || !skip_past(c, "] ") || !skip_past(c, ": "))
		return 0;
	spaces(c);
	h->level = (uint8_t)lv;
	return c->i;
}

/* OpenStack (oslo.log), Loghub's lines starting with the file name:
 * [nova-api.log.1 ]2017-05-16 00:00:00.008 25746 INFO nova.x [req-...] msg. */
static size_t fmt_openstack(struct cur *c, struct header *h)
{
	struct stamp t = { 0 };
	if (c->i < c->n && !is_digit(c->s[c->i]) && !(token(c) && spaces(c)))
		return 0;
	int64_t pid;
	if (!iso(c, &t) || !spaces(c) || !num(c, 1, 10, &pid) || !spaces(c) ||
	    !stamp_set(&t, h))
		return 0;
	int lv = level_word(c, 1);
	if (!lv || !spaces(c) || !token(c) || !spaces(c) || !eat(c, '['))
		return 0;
	/* The context ends at the first ']' followed by a blank. */
	while (c->i < c->n && !(c->s[c->i] == ']' && c->i + 1 < c->n && is_space(c->s[c->i + 1])))
		c->i++;
	if (!eat(c, ']'))
		return 0;
	spaces(c);
	h->level = (uint8_t)lv;
	return c->i;
}

/* Windows CBS: 2016-09-28 04:30:30, Info                  CBS    msg. */
static size_t fmt_windows(struct cur *c, struct header *h)
{
	struct stamp t = { 0 };
	if (!iso(c, &t) || !eat_str(c, ", ") || !stamp_set(&t, h))
		return 0;
	int lv = level_word(c, 1);
	if (!lv || !spaces(c) || !token(c) || !spaces(c))
		return 0;
	h->level = (uint8_t)lv;
	return c->i;
}

/* Where the message starts at c, right after a header's separating
 * blank: blanks beyond it are the message's own, the indentation that
 * makes a line a traceback's frame or a continuation as it does in the
 * program's plain output -- a tab, or two blanks or more.  One more
 * blank alone is the header's padding (the kernel's "kernel:  BIOS-e820:
 * ...", macOS's "[326]:  SOSAccount..."). */
static size_t indented_message(const struct cur *c)
{
	size_t i = c->i;
	if (i + 1 < c->n && c->s[i] == ' ' && c->s[i + 1] != ' ' && c->s[i + 1] != '\t')
		i++;
	return i;
}

/* The end of a syslog header after the host: "prog[123]: msg" or
 * "prog: msg"; the program runs to the first ": ", and the message keeps
 * its indentation (indented_message).  Without one, the message starts
 * after the host. */
static size_t syslog_tail(struct cur *c)
{
	size_t prog = c->i;
	if (!skip_past(c, ": "))
		c->i = prog;
	c->i = indented_message(c);
	return c->i;
}

/* Whether a syslog host and the program's tag are at c: a host name
 * (letters, digits, "._-") and blanks, then the text before the first
 * ": " (or a closing ':'), which is one word ("sshd[12]", "kernel"), or
 * words with the pid in brackets after a name ("Microsoft Word[10018]",
 * "launchd[1] (com.apple.x)") or ending in the program's version
 * ("syslogd 1.4.1").  A line written without a host, as a program that
 * stamps its output the syslog way does ("Dec  1 10:00:00 Traceback (most
 * recent call last):"), has the program's own text there instead. */
static int syslog_host(struct cur c)
{
	size_t h0 = c.i;
	struct cur lv = c;
	if (level_word(&lv, 0) && lv.i < lv.n && lv.s[lv.i] == ' ')
		return 0;   /* "INFO target: msg": a level, no host */
	while (c.i < c.n && (is_alpha(c.s[c.i]) || is_digit(c.s[c.i]) || in_set(c.s[c.i], "._-")))
		c.i++;
	if (c.i == h0 || !(is_alpha(c.s[h0]) || is_digit(c.s[h0])) || !spaces(&c))
		return 0;
	size_t tag = c.i, word = c.i, e = c.n < c.i + 128 ? c.n : c.i + 128;
	int blank = 0, pid = 0;
	for (; c.i < e && !(c.s[c.i] == ':' && (c.i + 1 == c.n || c.s[c.i + 1] == ' ')); c.i++) {
		if (is_space(c.s[c.i])) {
			blank = 1;
			word = c.i + 1;
		} else if (c.s[c.i] == '[' && c.i > word && c.i + 1 < e && is_digit(c.s[c.i + 1])) {
			struct cur p = { c.s, e, c.i + 1 };
			while (p.i < e && is_digit(p.s[p.i]))
				p.i++;
			pid |= at(&p, ']');
		}
	}
	if (c.i == e || c.i == tag)
		return 0;
	if (!blank || pid)
		return 1;
	if (word == c.i || !is_digit(c.s[word]))
		return 0;
	while (word < c.i && (is_digit(c.s[word]) || c.s[word] == '.'))
		word++;
	return word == c.i;   /* a version */
}

/* journalctl -o short-iso / RFC 3339 syslog:
 * 2024-01-02T03:04:05+0000 host unit[1]: msg (a zone is required).  The
 * host is a host name (syslog_host): what stands there in a program's
 * own stamped lines, a level ("[DEBUG] agent.grpc: msg", hclog), makes
 * them no journal lines. */
static size_t fmt_journal(struct cur *c, struct header *h)
{
	struct stamp t = { 0 };
	if (!iso(c, &t) || !t.has_zone || !eat(c, ' ') || !syslog_host(*c) || !token(c) ||
	    !eat(c, ' ') || !stamp_set(&t, h))
		return 0;
	size_t prog = c->i;
	while (c->i < c->n && !is_space(c->s[c->i]) && c->s[c->i] != ':')
		c->i++;
	if (c->i == prog || !eat(c, ':'))
		return 0;
	c->i = prog;
	return syslog_tail(c);
}

/* BSD syslog: Jun 14 15:16:01 host prog[123]: msg (no year); without a
 * host (see syslog_host) the message follows the time and one blank. */
static size_t fmt_syslog(struct cur *c, struct header *h)
{
	struct stamp t = { .no_year = 1 };
	int64_t d;
	if (!month_name(c, &t.mo) || !spaces(c) || !num(c, 1, 2, &d) || !eat(c, ' ') ||
	    !clock_time(c, &t, ".") || !eat(c, ' '))
		return 0;
	t.d = (int)d;
	if (!stamp_set(&t, h))
		return 0;
	size_t msg = c->i;
	spaces(c);
	if (!syslog_host(*c))
		return msg;
	token(c);
	spaces(c);
	return syslog_tail(c);
}

/* Loghub Thunderbird: - 1131566461 2005.11.09 dn228 Nov 9 12:01:01
 * dn228/dn228 crond[2916]: msg.  The time is taken as written. */
static size_t fmt_thunderbird(struct cur *c, struct header *h)
{
	struct stamp t = { 0 };
	int64_t epoch, d;
	int mo;
	if (!token(c) || !eat(c, ' ') || !num(c, 9, 11, &epoch) || !eat(c, ' ') ||
	    !fixed(c, 4, &t.y) || !eat(c, '.') || !fixed(c, 2, &t.mo) || !eat(c, '.') ||
	    !fixed(c, 2, &t.d) || !eat(c, ' ') || !token(c) || !eat(c, ' ') ||
	    !month_name(c, &mo) || !spaces(c) || !num(c, 1, 2, &d) || !eat(c, ' ') ||
	    !clock_time(c, &t, "") || !spaces(c) || !token(c) || !spaces(c) ||
	    !stamp_set(&t, h))
		return 0;
	return syslog_tail(c);
}

/* Loghub BGL: - 1117838570 2005.06.03 R02-M1-N0-C:J12-U11
 * 2005-06-03-15.42.50.675872 R02-M1-N0-C:J12-U11 RAS KERNEL INFO msg.
 * The time is the written one, which has a fraction, not the epoch
 * seconds. */
static size_t fmt_bgl(struct cur *c, struct header *h)
{
	struct stamp t = { 0 };
	int64_t epoch;
	int y, mo, d;
	if (!token(c) || !eat(c, ' ') || !num(c, 9, 11, &epoch) || !eat(c, ' ') ||
	    !fixed(c, 4, &y) || !eat(c, '.') || !fixed(c, 2, &mo) || !eat(c, '.') ||
	    !fixed(c, 2, &d) || !eat(c, ' ') || !token(c) || !eat(c, ' ') ||
	    !fixed(c, 4, &t.y) || !eat(c, '-') || !fixed(c, 2, &t.mo) || !eat(c, '-') ||
	    !fixed(c, 2, &t.d) || !eat(c, '-') || !fixed(c, 2, &t.H) || !eat(c, '.') ||
	    !fixed(c, 2, &t.M) || !eat(c, '.') || !fixed(c, 2, &t.S) || !frac(c, ".", &t.ms) ||
	    !eat(c, ' ') || !stamp_set(&t, h))
		return 0;
	for (int k = 0; k < 3; k++)   /* node, type, component */
		if (!token(c) || !spaces(c))
			return 0;
	int lv = level_word(c, 1);
	if (!lv || (c->i < c->n && !spaces(c)))
		return 0;
	h->level = (uint8_t)lv;
	return c->i;
}

/* Loghub HPC: 134681 node-246 unix.hw state_change.unavailable 1077804742
 * 1 msg (the time is in seconds since the epoch). */
static size_t fmt_hpc(struct cur *c, struct header *h)
{
	int64_t id, epoch, flag;
	if (!num(c, 1, 12, &id) || !eat(c, ' '))
		return 0;
	for (int k = 0; k < 3; k++)   /* node, component, state */
		if (!token(c) || !eat(c, ' '))
			return 0;
	if (!num(c, 9, 11, &epoch) || !eat(c, ' '))
		return 0;
	eat(c, '-');   /* the flag may be -1 */
	if (!num(c, 1, 3, &flag) || !spaces(c))
		return 0;
	h->ts_ms = epoch * 1000;
	return c->i;
}

/* "LEVEL Component: " of HDFS and Spark; the component runs to the first
 * ": ". */
static size_t level_component(struct cur *c, struct header *h)
{
	int lv = level_word(c, 1);
	if (!lv || !spaces(c) || !skip_past(c, ": "))
		return 0;
	spaces(c);
	h->level = (uint8_t)lv;
	return c->i;
}

/* Loghub HDFS: 081109 203615 148 INFO dfs.DataNode$PacketResponder: msg. */
static size_t fmt_hdfs(struct cur *c, struct header *h)
{
	struct stamp t = { 0 };
	int64_t pid;
	if (!fixed(c, 2, &t.y) || !fixed(c, 2, &t.mo) || !fixed(c, 2, &t.d) || !eat(c, ' ') ||
	    !fixed(c, 2, &t.H) || !fixed(c, 2, &t.M) || !fixed(c, 2, &t.S) || !eat(c, ' ') ||
	    !num(c, 1, 10, &pid) || !eat(c, ' '))
		return 0;
	t.y += 2000;
	if (!stamp_set(&t, h))
		return 0;
	return level_component(c, h);
}

/* Spark (log4j): 17/06/09 20:10:40 INFO spark.SecurityManager: msg. */
static size_t fmt_spark(struct cur *c, struct header *h)
{
	struct stamp t = { 0 };
	if (!fixed(c, 2, &t.y) || !eat(c, '/') || !fixed(c, 2, &t.mo) || !eat(c, '/') ||
	    !fixed(c, 2, &t.d) || !eat(c, ' ') || !clock_time(c, &t, ",.") || !eat(c, ' '))
		return 0;
	t.y += 2000;
	if (!stamp_set(&t, h))
		return 0;
	return level_component(c, h);
}

/* Android logcat -v threadtime: 03-17 16:13:38.811  1702  2395 D Tag: msg. */
static size_t fmt_android(struct cur *c, struct header *h)
{
	struct stamp t = { .no_year = 1 };
	int64_t pid, tid;
	if (!fixed(c, 2, &t.mo) || !eat(c, '-') || !fixed(c, 2, &t.d) || !eat(c, ' ') ||
	    !clock_time(c, &t, ".") || !spaces(c) || !num(c, 1, 10, &pid) || !spaces(c) ||
	    !num(c, 1, 10, &tid) || !eat(c, ' ') || c->i + 1 >= c->n)
		return 0;
	int lv = level_letter(c->s[c->i]);
	c->i++;
	if (!lv || !eat(c, ' ') || !stamp_set(&t, h) || !skip_past(c, ": "))
		return 0;
	spaces(c);
	h->level = (uint8_t)lv;
	return c->i;
}

/* Apache: [Sun Dec 04 04:47:44 2005] [notice] msg; 2.4 also writes
 * [module:level] and [pid N] (skipped). */
static size_t fmt_apache(struct cur *c, struct header *h)
{
	struct stamp t = { 0 };
	if (!eat(c, '[') || !token(c) || !eat(c, ' ') || !month_name(c, &t.mo) ||
	    !spaces(c) || !fixed(c, 2, &t.d) || !eat(c, ' ') || !clock_time(c, &t, ".") ||
	    !eat(c, ' ') || !fixed(c, 4, &t.y) || !eat(c, ']') || !spaces(c) || !eat(c, '['))
		return 0;
	struct cur module = *c;   /* 2.4's "core:notice" */
	while (module.i < module.n && module.s[module.i] != ']' && module.s[module.i] != ':')
		module.i++;
	if (eat(&module, ':'))
		*c = module;
	int lv = level_word(c, 1);
	if (!lv || !eat(c, ']') || !stamp_set(&t, h))
		return 0;
	spaces(c);
	if (eat_str(c, "[pid ") && skip_past(c, "]"))
		spaces(c);
	h->level = (uint8_t)lv;
	return c->i;
}

/* Proxifier: [10.30 16:49:06] chrome.exe - msg (no year). */
static size_t fmt_proxifier(struct cur *c, struct header *h)
{
	struct stamp t = { .no_year = 1 };
	if (!eat(c, '[') || !fixed(c, 2, &t.mo) || !eat(c, '.') || !fixed(c, 2, &t.d) ||
	    !eat(c, ' ') || !clock_time(c, &t, "") || !eat(c, ']') || !spaces(c) ||
	    !stamp_set(&t, h) || !skip_past(c, " - "))
		return 0;
	spaces(c);
	return c->i;
}

/* HealthApp: 20171223-22:15:29:606|Step_LSC|30002312|msg. */
static size_t fmt_healthapp(struct cur *c, struct header *h)
{
	struct stamp t = { 0 };
	int64_t f[4];   /* H:M:S:ms, not zero-padded: "22:16:0:119" */
	if (!fixed(c, 4, &t.y) || !fixed(c, 2, &t.mo) || !fixed(c, 2, &t.d) || !eat(c, '-'))
		return 0;
	for (int k = 0; k < 4; k++)
		if (!num(c, 1, k == 3 ? 3 : 2, &f[k]) || !eat(c, k == 3 ? '|' : ':'))
			return 0;
	t.H = (int)f[0], t.M = (int)f[1], t.S = (int)f[2], t.ms = (int)f[3];
	if (!stamp_set(&t, h))
		return 0;
	for (int k = 0; k < 2; k++) {   /* component, pid */
		while (c->i < c->n && c->s[c->i] != '|')
			c->i++;
		if (!eat(c, '|'))
			return 0;
	}
	return c->i;
}

/* A level in one of the shapes headers write it: INFO, LOG:, [INFO ],
 * [Note], [I], <error>, and GitHub Actions' ##[error].  A bare word must be
 * upper case (a capitalised one is more often the message's first word)
 * and end at a blank or a colon; in brackets any case goes.  The cursor
 * ends past the level and its colon. */
static int level_shape(struct cur *c)
{
	struct cur w = *c;
	int hash = eat_str(&w, "##");
	char close = eat(&w, '[') ? ']' : eat(&w, '<') ? '>' : 0;
	int lv;
	if (close) {
		spaces(&w);
		lv = level_word(&w, 1);
		/* glog's letters, bracketed alone: "[I]", "[W]" */
		if (!lv && w.i + 1 < w.n && w.s[w.i + 1] == close && (lv = level_letter(w.s[w.i])))
			w.i++;
		spaces(&w);
		if (!lv || !eat(&w, close))
			return LV_NONE;
	} else {
		lv = level_word(&w, 0);
		if (hash || !lv)
			return LV_NONE;
		eat(&w, ':');
		if (w.i < w.n && !is_space(w.s[w.i]))
			return LV_NONE;   /* "ERRORS", "INFO:root" */
	}
	eat(&w, ':');
	*c = w;
	return lv;
}

/* Is s[0, n) a rank-like name and a number, "rank3", "worker12", or the
 * two apart as loggers write them, "rank 3", "Rank: 3", "rank=3"?  The
 * name by the rank keys of structured records. */
static int rank_name(const char *s, size_t n)
{
	size_t k, d;
	return record_rank_name(s, n, &k, &d);
}

/* A bracketed rank right after the level is the line's tag, as one
 * before it is: a logger's format put it there ("%(levelname)s [rank %d]
 * %(filename)s:%(lineno)d": "INFO [rank 1] train.py:94 msg").  Further
 * on it is the message's (DeepSpeed's log_dist writes "[Rank 0]" into
 * the messages rank 0 alone prints, among the prints of every rank).
 * The message keeps it: only the line's stream is learned. */
static void rank_after_level(const struct cur *c, struct header *h)
{
	size_t i = c->i, j = i + 1;
	if (h->tag_len || i >= c->n || c->s[i] != '[')
		return;
	while (j < c->n && c->s[j] != ']' && j - i < 64)
		j++;
	if (j < c->n && c->s[j] == ']' && rank_name(c->s + i + 1, j - i - 1)) {
		h->tag_off = (uint32_t)(i + 1);
		h->tag_len = (uint32_t)(j - i - 1);
	}
}

/* A field that headers put between the time and the level: a pid or
 * thread id ("0", MySQL), a zone name ("GMT", PostgreSQL), a bracketed
 * pid or thread ("[3187]", "[main]", ClickHouse's "[ 1 ]"), a braced
 * context ("{}"), a "-" or "|" separator.  Skips it
 * and the blanks after it.  A bracketed rank ("[rank3]") is the tag,
 * as torchrun's prefix is, unless the line has one already. */
static int header_field(struct cur *c, struct header *h)
{
	size_t i0 = c->i;
	if (eat(c, '{')) {   /* a context's fields, ClickHouse's query id "{}" */
		while (c->i < c->n && c->s[c->i] != '}' && c->i - i0 < 64)
			c->i++;
		if (!eat(c, '}') || (c->i < c->n && !is_space(c->s[c->i]))) {
			c->i = i0;
			return 0;
		}
		spaces(c);
		return 1;
	}
	if (eat(c, '[')) {
		while (c->i < c->n && c->s[c->i] != ']' && c->i - i0 < 64)
			c->i++;
		if (!eat(c, ']') || (c->i < c->n && !is_space(c->s[c->i]) && c->s[c->i] != '[')) {
			c->i = i0;
			return 0;
		}
		if (!h->tag_len && rank_name(c->s + i0 + 1, c->i - i0 - 2)) {
			h->tag_off = (uint32_t)(i0 + 1);
			h->tag_len = (uint32_t)(c->i - i0 - 2);
		}
		spaces(c);
		return 1;
	}
	size_t digits = 0, upper = 0;
	while (c->i < c->n && !is_space(c->s[c->i])) {
		char ch = c->s[c->i++];
		digits += is_digit(ch);
		upper += ch >= 'A' && ch <= 'Z';
	}
	size_t len = c->i - i0;
	if (!((len && len <= 10 && digits == len) || (len >= 2 && len <= 5 && upper == len) ||
	      (len == 1 && (c->s[i0] == '-' || c->s[i0] == '|')))) {
		c->i = i0;
		return 0;
	}
	spaces(c);
	return 1;
}

/* Where the program printed, as a logger writes it after the level in
 * brackets: "[engine.py:12]", "[engine.py:12:step]", "[recipes/train:141:
 * __main__]".  Header, as the file and line of "INFO file.py:12: msg"
 * are (timeless_header): the message is what the program said, and two
 * releases print it from other lines, two logger setups with or without
 * the place. */
static void source_field(struct cur *c)
{
	struct cur w = *c;
	if (!eat(&w, '[') || !src_loc(&w))
		return;
	if (eat(&w, ':'))
		while (w.i < w.n && (is_alpha(w.s[w.i]) || is_digit(w.s[w.i]) || w.s[w.i] == '_' ||
				     w.s[w.i] == '.' || w.s[w.i] == '<' || w.s[w.i] == '>'))
			w.i++;
	if (!eat(&w, ']') || (w.i < w.n && !is_space(w.s[w.i])))
		return;
	spaces(&w);
	*c = w;
}

/* log4j's and logback's "%t %c - %m" after the level: one or two fields
 * of one word, the last a code name (a class, a logger, a thread:
 * "org.pytorch.serve.ModelServer", "MODEL_LOG", "W-9000-stdout"), then
 * " - " and the message.  Skips them: the message is what the program
 * said, a traceback it relays starts there ("MODEL_LOG - Traceback ...").
 * Words of a message ("Epoch 3 - loss") are no code names. */
#define LOGGER_FIELDS 2
static void logger_fields(struct cur *c)
{
	struct cur w = *c;
	for (int k = 0; k < LOGGER_FIELDS; k++) {
		size_t i0 = w.i;
		int letters = 0, marks = 0;
		while (w.i < w.n && !is_space(w.s[w.i])) {
			char ch = w.s[w.i++];
			letters += is_alpha(ch);
			marks += ch == '.' || ch == '_' || ch == '-' || ch == '$';
			if (!is_alpha(ch) && !is_digit(ch) && ch != '.' && ch != '_' && ch != '-' && ch != '$')
				return;
		}
		if (w.i - i0 < 2 || !letters || w.i + 3 > w.n || w.s[w.i] != ' ')
			return;
		w.i++;
		if (w.s[w.i] == '-' && w.s[w.i + 1] == ' ') {
			if (!marks)
				return;
			w.i += 2;
			spaces(&w);
			*c = w;
			return;
		}
	}
}

/* The level after a timestamp, found in any common shape among the next
 * few header fields (see level_shape, header_field), whatever the system:
 * "GMT [3187] LOG:  msg", "0 [Note] msg", "[INFO ][o.e.Node] msg",
 * "[INFO] [engine.py:12:f] msg", "INFO msg".  The fields before it are
 * header; what follows it is message.  Without a level the message
 * starts at c: those fields cannot be told from message words then, so a
 * rank among them is no tag either ("[rank0] step 1" behind a capture's
 * time reads as it does without one). */
static size_t stamp_level(struct cur *c, struct header *h)
{
	struct cur w = *c;
	uint32_t tag_off = h->tag_off, tag_len = h->tag_len;
	for (int k = 0; k < 4; k++) {
		int lv = level_shape(&w);
		if (lv) {
			spaces(&w);
			if (eat_str(&w, "- "))   /* fields separated by " - " */
				dashed_name(&w);
			rank_after_level(&w, h);
			source_field(&w);
			logger_fields(&w);
			*c = w;
			h->level = (uint8_t)lv;
			return c->i;
		}
		if (!header_field(&w, h))
			break;
	}
	h->tag_off = tag_off;
	h->tag_len = tag_len;
	return c->i;
}

/* A bracketed ISO timestamp, then the level in any shape (stamp_level):
 * log4j's "[2024-03-13 01:13:55,747] INFO msg (class)" (Kafka,
 * ZooKeeper), DeepSpeed's "[2023-05-10 10:00:00,123] [INFO] [f.py:1:g]
 * msg", Elasticsearch's "[2022-06-25T11:06:39,909][INFO ][o.e.Node] msg". */
static size_t fmt_bracket_iso(struct cur *c, struct header *h)
{
	struct stamp t = { 0 };
	if (!eat(c, '[') || !iso(c, &t) || !eat(c, ']') || !stamp_set(&t, h))
		return 0;
	spaces(c);
	return stamp_level(c, h);
}

/* Any ISO-8601 timestamp: 2024-01-02T03:04:05.123+02:00 msg, or with a
 * colon after it as PM2 writes its own log ("2025-11-15T01:59:00: PM2
 * log: msg"), and the level after it in any shape (stamp_level), which
 * may be padded to its column.  Without a level, one blank separates the
 * time and the message, which keeps its indentation (indented_message:
 * a traceback's frame that a collector stamped). */
static size_t fmt_iso(struct cur *c, struct header *h)
{
	struct stamp t = { 0 };
	if (!iso(c, &t) || !stamp_set(&t, h))
		return 0;
	if (c->i + 1 < c->n && c->s[c->i] == ':' && c->s[c->i + 1] == ' ')
		c->i++;
	struct cur one = { c->s, c->n, c->i + (c->i < c->n) };
	if (c->i < c->n && !spaces(c))
		return 0;
	size_t off = stamp_level(c, h);
	return h->level ? off : indented_message(&one);
}

/* The byte order mark that starts a UTF-8 file, and in a GitHub Actions
 * log each step's first line. */
static int bom(struct cur *c)
{
	return eat_str(c, "\xEF\xBB\xBF");
}

/* A timestamp after tab-separated leading fields, as `gh run view --log`
 * writes: job<TAB>step<TAB>2025-09-18T11:04:17.3480655Z msg, a step's
 * first line with a byte order mark before the time.  The fields are
 * header, not a tag: a job's steps are its phases one after the other,
 * not concurrent streams, and each step's own "##[group]Run ..." line
 * marks in the message where it starts. */
static size_t fmt_tsv_iso(struct cur *c, struct header *h)
{
	for (int k = 0; k < 3; k++) {
		size_t left = c->n - c->i;
		const char *tab = memchr(c->s + c->i, '\t', left < 256 ? left : 256);
		if (!tab)
			return 0;
		c->i = (size_t)(tab - c->s) + 1;
		bom(c);
		if (c->i < c->n && is_digit(c->s[c->i]))
			return fmt_iso(c, h);
	}
	return 0;
}

/* llama.cpp's common log: the time since start as minutes.seconds.ms.us
 * and a one-letter level, "0.00.042.720 I llama_model_loader: msg".  The
 * time is kept as that elapsed time (from the epoch): runs are compared by
 * durations, and the log says nothing of the wall clock. */
static size_t fmt_elapsed(struct cur *c, struct header *h)
{
	int64_t min;
	int s, ms, us;
	if (!num(c, 1, 6, &min) || !eat(c, '.') || !fixed(c, 2, &s) || !eat(c, '.') ||
	    !fixed(c, 3, &ms) || !eat(c, '.') || !fixed(c, 3, &us) || !eat(c, ' ') ||
	    s > 59 || c->n - c->i < 2 || c->s[c->i + 1] != ' ')
		return 0;
	int lv = level_letter(c->s[c->i]);
	if (!lv)
		return 0;
	c->i += 2;
	h->ts_ms = min * 60000 + s * 1000 + ms;
	h->ts_no_year = 0;
	h->level = (uint8_t)lv;
	return c->i;
}

/* The kernel's printk time, seconds since boot in brackets padded to
 * five places: "[    1.905677] Waiting for root device ...", as dmesg
 * and a board's serial console print it.  Kept from the epoch, as
 * fmt_elapsed keeps its own. */
static size_t fmt_kernel(struct cur *c, struct header *h)
{
	int64_t sec;
	int us;
	if (!eat(c, '['))
		return 0;
	spaces(c);
	if (!num(c, 1, 10, &sec) || !eat(c, '.') || !fixed(c, 6, &us) || !eat(c, ']') ||
	    (c->i < c->n && !spaces(c)))
		return 0;
	h->ts_ms = sec * 1000 + us / 1000;
	h->ts_no_year = 0;
	return c->i;
}

/* A time of day alone, as programs print it to a console: logback's
 * default "%d{HH:mm:ss.SSS} [main] INFO  c.e.App - msg", Erlang lager's
 * "13:14:23.613 [error] msg", Python's datefmt="%H:%M:%S"; the level
 * after it in any shape (stamp_level).  The time is kept from the
 * epoch's first day, as fmt_elapsed keeps its own: runs are compared
 * by durations, and the log names no day. */
static size_t fmt_clock(struct cur *c, struct header *h)
{
	struct stamp t = { .y = 1970, .mo = 1, .d = 1 };
	if (!clock_time(c, &t, ".,") || !spaces(c) || !stamp_set(&t, h))
		return 0;
	return stamp_level(c, h);
}

/* The classes of a format's first byte, to skip formats that cannot
 * match without calling them (most lines of a traceback match none). */
enum { K_DIGIT, K_UPPER, K_BRACKET, K_BRACE, K_OTHER };
enum {
	B_DIGIT = 1 << K_DIGIT, B_UPPER = 1 << K_UPPER, B_BRACKET = 1 << K_BRACKET,
	B_BRACE = 1 << K_BRACE, B_OTHER = 1 << K_OTHER,
	B_NONBLANK = B_DIGIT | B_UPPER | B_BRACKET | B_BRACE | B_OTHER,
};
_Static_assert(K_OTHER + 1 == PREFIX_CLASSES, "PREFIX_CLASSES");

/* The class of the byte at c, or -1 for a blank or the end. */
static inline int byte_class(const struct cur *c)
{
	if (c->i >= c->n || is_space(c->s[c->i]))
		return -1;
	char ch = c->s[c->i];
	return is_digit(ch) ? K_DIGIT : ch >= 'A' && ch <= 'Z' ? K_UPPER :
	       ch == '[' ? K_BRACKET : ch == '{' ? K_BRACE : K_OTHER;
}

/* Most specific first: a line votes in detection for the first format
 * that parses it, and the per-line fallback tries them in this order, so a
 * format whose lines another also accepts (every ISO-stamped line is
 * "iso") must come before that one. */
static const struct format {
	const char *name;
	size_t (*parse)(struct cur *c, struct header *h);
	int first;   /* byte_class()es a line in it can start with */
	int wraps;   /* a line of it carries another program's line (syslog) */
} formats[] = {
	{ "json", record_json, B_BRACE, 0 },
	{ "logfmt", record_logfmt, B_OTHER, 0 },
	{ "sglang", fmt_sglang, B_BRACKET, 0 },
	{ "bracket-iso", fmt_bracket_iso, B_BRACKET, 0 },
	{ "vllm", fmt_vllm, B_UPPER, 0 },
	{ "glog", fmt_glog, B_BRACKET | B_UPPER, 0 },
	{ "ascend", fmt_ascend, B_BRACKET, 0 },
	{ "gin", fmt_gin, B_BRACKET, 0 },
	{ "level-bar", fmt_level_bar, B_BRACKET, 0 },
	{ "python-basic", fmt_pylog, B_UPPER, 0 },
	{ "ruby", fmt_ruby, B_UPPER, 0 },
	{ "uvicorn", fmt_uvicorn, B_UPPER, 0 },
	{ "python", fmt_python, B_DIGIT, 0 },
	{ "loguru", fmt_loguru, B_DIGIT, 0 },
	{ "columns", fmt_columns, B_UPPER | B_DIGIT, 1 },
	{ "spring", fmt_spring, B_DIGIT, 0 },
	{ "tracing", fmt_tracing, B_DIGIT, 0 },
	{ "zookeeper", fmt_zookeeper, B_DIGIT, 0 },
	{ "hadoop", fmt_hadoop, B_DIGIT, 0 },
	{ "openstack", fmt_openstack, B_NONBLANK, 0 },
	{ "windows", fmt_windows, B_DIGIT, 0 },
	{ "journal", fmt_journal, B_DIGIT, 1 },
	{ "syslog", fmt_syslog, B_UPPER | B_OTHER | B_DIGIT, 1 },
	{ "thunderbird", fmt_thunderbird, B_NONBLANK, 1 },
	{ "bgl", fmt_bgl, B_NONBLANK, 0 },
	{ "hdfs", fmt_hdfs, B_DIGIT, 0 },
	{ "spark", fmt_spark, B_DIGIT, 0 },
	{ "android", fmt_android, B_DIGIT, 0 },
	{ "apache", fmt_apache, B_BRACKET, 0 },
	{ "proxifier", fmt_proxifier, B_BRACKET, 0 },
	{ "healthapp", fmt_healthapp, B_DIGIT, 0 },
	{ "hpc", fmt_hpc, B_DIGIT, 0 },
	{ "redis", fmt_redis, B_DIGIT | B_BRACKET, 0 },
	{ "golog", fmt_golog, B_DIGIT, 0 },
	{ "iso", fmt_iso, B_DIGIT, 0 },
	{ "named-date", fmt_named_date, B_DIGIT | B_UPPER, 0 },
	{ "numeric-date", fmt_numeric_date, B_DIGIT, 0 },
	{ "ctime", fmt_ctime, B_UPPER | B_BRACKET, 0 },
	{ "elapsed", fmt_elapsed, B_DIGIT, 0 },
	{ "kernel", fmt_kernel, B_BRACKET, 0 },
	{ "clock", fmt_clock, B_DIGIT, 0 },
	{ "tsv-iso", fmt_tsv_iso, B_NONBLANK, 0 },
};

#define NFORMATS ((int)(sizeof(formats) / sizeof(formats[0])))
_Static_assert(sizeof(formats) / sizeof(formats[0]) <= PREFIX_MAX_FORMATS, "prefix_order too small");

const char *prefix_format_name(int fmt)
{
	return fmt >= 0 && fmt < NFORMATS ? formats[fmt].name : "none";
}

/* vLLM's process prefix "(VllmWorker rank=2 pid=4711) " and Ray's
 * "(RayTrainWorker pid=4711, ip=10.0.0.1) ": a name, then key=value
 * fields separated by blanks or ", ", one of them pid=N.  The tag is the
 * name and the fields that say the process's role: those before pid=,
 * and any after it but ip= ("(Worker pid=7, rank=1)" is rank 1 as much
 * as "(Worker rank=1 pid=7)"; the stream's name leaves the pid out,
 * streams_norm_tag).  A pid or host alone changes from run to run. */
static inline __attribute__((always_inline)) size_t vllm_process(struct cur *pc, size_t *tag, size_t *tag_len)
{
	struct cur c = *pc;   /* moved back into *pc on success only */
	if (!eat(&c, '('))
		return 0;
	size_t name = c.i, tag_end = 0;
	int pid = 0, closed = 0;
	while (!closed && c.i < c.n && c.i - pc->i < 200) {
		size_t key = c.i;
		while (c.i < c.n && (is_alpha(c.s[c.i]) || is_digit(c.s[c.i]) || c.s[c.i] == '_'))
			c.i++;
		if (c.i == key)
			return 0;
		if (eat(&c, '=')) {
			int is_pid = c.i - key == 4 && memcmp(c.s + key, "pid", 3) == 0;
			int is_ip = c.i - key == 3 && memcmp(c.s + key, "ip", 2) == 0;
			size_t val = c.i;
			while (c.i < c.n && c.s[c.i] != ' ' && c.s[c.i] != ',' && c.s[c.i] != ')')
				c.i++;
			if (c.i == val)
				return 0;
			if (is_pid && !pid) {
				pid = 1;
				tag_end = key;
			} else if (!is_pid && !is_ip && pid) {
				tag_end = c.i;
			}
		} else if (key != name) {
			return 0;  /* only the name stands without a value */
		}
		closed = eat(&c, ')');
		if (!closed) {
			eat(&c, ',');
			if (!eat(&c, ' '))
				return 0;
		}
	}
	if (!pid || !closed)
		return 0;
	while (tag_end > name && (c.s[tag_end - 1] == ' ' || c.s[tag_end - 1] == ','))
		tag_end--;
	*tag = name;
	*tag_len = tag_end - name;
	eat(&c, ' ');
	*pc = c;
	return 1;
}

/* torchrun's per-rank prefix "[rank3]:" or "[default0]:", and the rank
 * a program prints itself at the start of its lines, "[rank1] msg",
 * "[Rank 1] msg", "[rank: 1] msg", "[worker 2] msg": a name that structured records use
 * for a rank (record_is_rank_key), a number, no colon.  The latter's tag
 * keeps its brackets ("[rank1]"), as log.c tells the two apart. */
static inline __attribute__((always_inline)) size_t torchrun(struct cur *c, size_t *tag, size_t *tag_len)
{
	size_t i0 = c->i;
	if (!eat(c, '['))
		return 0;
	while (c->i < c->n && (is_alpha(c->s[c->i]) || c->s[c->i] == '_'))
		c->i++;
	size_t name_len = c->i - i0 - 1;
	/* Lightning's "[rank: 1] msg" is one of the spaced ones. */
	if (c->i + 1 < c->n && c->s[c->i] == ':' && c->s[c->i + 1] == ' ')
		c->i++;
	int spaced = eat(c, ' ');
	int64_t rank;
	if (name_len == 0 || !num(c, 1, 6, &rank) || !eat(c, ']')) {
		c->i = i0;
		return 0;
	}
	*tag = i0 + 1;
	*tag_len = c->i - 1 - *tag;
	if (spaced || !eat(c, ':')) {
		if (c->i >= c->n || c->s[c->i] != ' ' || !record_is_rank_key(c->s + i0 + 1, name_len)) {
			c->i = i0;
			return 0;
		}
		*tag = i0;
		*tag_len = c->i - i0;
	}
	eat(c, ' ');
	return 1;
}

/* kubectl logs --prefix's "[pod/vllm-7d9f/main] ": taken off as
 * compose's is. */
static inline __attribute__((always_inline)) size_t kubectl_pod(struct cur *c)
{
	if (c->n - c->i < 8 || memcmp(c->s + c->i, "[pod/", 5) != 0)
		return 0;
	size_t i = c->i + 5, e = c->n < c->i + 256 ? c->n : c->i + 256;
	while (i < e && c->s[i] != ']' && c->s[i] != ' ')
		i++;
	if (i + 1 >= c->n || c->s[i] != ']' || c->s[i + 1] != ' ')
		return 0;
	c->i = i + 2;
	return 1;
}

/* A relay's label of the stream a line came from, "stdout: " or
 * "stderr: " (lower or upper case, or in brackets: "[stderr] "), before
 * every line of a child it ran (accelerate's test launcher, a CI step's
 * runner): taken off as compose's prefix is, so that a traceback relayed
 * on stderr reads as one, and a run relayed so compares with one that
 * was not.  The label alone is a blank line of the child. */
static inline __attribute__((always_inline)) int stream_label(struct cur *c)
{
	size_t i = c->i, b = i < c->n && c->s[i] == '[';
	if (c->n - i < 6 + 2 * b || (c->s[i + b] | 0x20) != 's' || (c->s[i + b + 1] | 0x20) != 't' ||
	    (c->s[i + b + 2] | 0x20) != 'd')
		return 0;
	const char *w = c->s + i + b + 3;
	if (!((strncmp(w, "out", 3) == 0 || strncmp(w, "err", 3) == 0 || strncmp(w, "OUT", 3) == 0 ||
	       strncmp(w, "ERR", 3) == 0)))
		return 0;
	i += b + 6;
	if (i >= c->n || c->s[i] != (b ? ']' : ':') || (i + 1 < c->n && c->s[i + 1] != ' '))
		return 0;
	c->i = i + 1 < c->n ? i + 2 : i + 1;
	return 1;
}

/* Take off what a relay put before a line: compose's service prefix or
 * kubectl's pod prefix, then a stream label.  In front of a capture's
 * stamp, behind it (docker compose run in a CI job: "...1234567Z web-1
 * | msg") and behind a syslog header (one run by a systemd unit) alike. */
static inline __attribute__((always_inline)) void relay_prefixes(struct cur *c)
{
	if (!name_bar(c))
		kubectl_pod(c);
	stream_label(c);
}

/* Take off the per-process prefixes a program's launcher puts before its
 * lines, vLLM's (which may carry torchrun's), outermost first; the
 * outermost gives h's tag when h has none. */
static inline __attribute__((always_inline)) void program_prefixes(struct cur *c, struct header *h)
{
	for (int k = 0; k < 2; k++) {
		size_t tag, tag_len;
		if (!vllm_process(c, &tag, &tag_len) && !torchrun(c, &tag, &tag_len))
			break;
		if (!h->tag_len) {
			h->tag_off = (uint32_t)tag;
			h->tag_len = (uint32_t)tag_len;
		}
	}
}

/* What is left of a program's header when a capture's or a wrapper's
 * time stands in for the program's own (a program that logs without one
 * under journald, or lines a collector stamped again), or when there is
 * no time at all: a rank tag that closed the header's bracket ("TP3] ",
 * "DP0 TP3 EP3] ": each word a name and a number); the time and source
 * location of a header whose level went to a record's field ("06-13
 * 14:12:46 [cli_args.py:309] ", vLLM's); then a bracketed level ("[INFO]
 * ", DeepSpeed's), a level and its source location ("INFO file.py:12: ",
 * "INFO [file.py:12] "), or a level and tracing targets (" INFO router:
 * msg rank=0", Rust's tracing without time, whose rank field is the
 * tag); with bare_level, a level word alone (see below).  The tag goes
 * to h unless it has one, the level too.  Returns where the message
 * starts, or 0 when none of it is there. */
static size_t timeless_header(struct cur c, struct header *h, int bare_level)
{
	size_t start = c.i, e = c.i;
	for (;;) {
		size_t w = e;
		while (e < c.n && e - start < 40 && is_alpha(c.s[e]))
			e++;
		size_t d = e;
		while (e < c.n && e - start < 40 && is_digit(c.s[e]))
			e++;
		if (d == w || e == d || e >= c.n || c.s[e] != ' ')
			break;
		e++;
	}
	if (e > start && e + 1 < c.n && c.s[e] == ']' && c.s[e + 1] == ' ' && is_digit(c.s[e - 1])) {
		if (!h->tag_len) {
			h->tag_off = (uint32_t)start;
			h->tag_len = (uint32_t)(e - start);
		}
		c.i = e + 2;
	}
	struct cur v = c;
	struct stamp t = { .no_year = 1 };
	spaces(&v);
	if (fixed(&v, 2, &t.mo) && eat(&v, '-') && fixed(&v, 2, &t.d) && eat(&v, ' ') &&
	    clock_time(&v, &t, ".,") && eat(&v, ' ') && eat(&v, '[') && src_loc(&v) && eat(&v, ']')) {
		eat(&v, ' ');
		c = v;
	}
	size_t msg = c.i;
	struct cur padded = c;
	spaces(&padded);   /* tracing pads its level to five columns */
	int lv = at(&c, '[') ? level_shape(&c) : LV_NONE;
	if (lv) {   /* a bracketed level is one wherever it stands */
		if (!h->level)
			h->level = (uint8_t)lv;
		spaces(&c);
		return c.i;
	}
	c = padded;
	lv = level_word(&c, 0);
	if (lv && eat(&c, ' ') && tracing_target(&c)) {
		for (int k = 0; k < 3; k++) {   /* spans and targets, as fmt_tracing */
			struct cur tg = c;
			if (!tracing_target(&tg))
				break;
			c = tg;
		}
		record_rank_suffix(&c, h);
		if (!h->level)
			h->level = (uint8_t)lv;
		return c.i;
	}
	if (lv && eat(&c, ' ')) {
		int bracket = eat(&c, '[');
		if (src_loc(&c) && eat(&c, bracket ? ']' : ':')) {
			if (!h->level)
				h->level = (uint8_t)lv;
			eat(&c, ' ');
			return c.i;
		}
	}
	/* logrus's text: "INFO[0000] msg", "ERRO[2024-05-01T10:00:00Z]
	 * msg", a level word and right after it, bracketed, the seconds
	 * since the start or the time. */
	c.i = msg;
	lv = level_word(&c, 0);
	if (lv && eat(&c, '[')) {
		size_t k = c.i;
		while (k < c.n && (is_digit(c.s[k]) || in_set(c.s[k], "-:.TZ+")))
			k++;
		if (k > c.i && k + 1 < c.n && c.s[k] == ']' && c.s[k + 1] == ' ') {
			if (!h->level)
				h->level = (uint8_t)lv;
			c.i = k + 1;
			spaces(&c);
			return c.i;
		}
	}
	/* A level word in capitals first, then a blank or ": " and text
	 * ("ERROR boom", pip's "ERROR: No matching distribution"), is a
	 * level wherever the program wrote no time.  Prose capitalises
	 * only the first letter ("Error: x" of a traceback), so it stays
	 * text, and a word run on ("ERRORS", "INFO=1") is none.  The text
	 * must start as words do, with a letter, a quote or a bracket: a
	 * number or a sign after the word is more often the rest of a
	 * header cut short (vLLM's "INFO 03-07 12:29:02") or a table.
	 * Not in a line a syslog or journal header wraps: a program there
	 * writes such a word as its text (logrotate's "ALERT exited
	 * abnormally"), and Loghub's messages keep it. */
	c.i = msg;
	lv = bare_level ? level_word(&c, 0) : LV_NONE;
	if (lv && (eat(&c, ' ') || eat_str(&c, ": "))) {
		spaces(&c);
		if (c.i < c.n && (is_alpha(c.s[c.i]) || in_set(c.s[c.i], "\"'([{<`"))) {
			if (!h->level)
				h->level = (uint8_t)lv;
			return c.i;
		}
	}
	return msg > start ? msg : 0;
}

/* The header of the program whose line a wrapping format (syslog, the
 * journal) carries, when the wrapper gave no level: a gin access line or
 * a glog line reads the same wherever its output went, so it must give
 * the same message either way; so does a `gh run view --log` line, whose
 * job and step names lead to its time.  The wrapper's clock stays, as it is the
 * one of the file's other lines.  Records were tried (record_body), and
 * formats led by a file or host name are no program's own header.  Only
 * a header that gives a level or a rank's tag, or whose time is in
 * brackets (SGLang's "[2026-03-27 09:31:24 TP1] ", "[2026-03-27
 * 09:31:24] "), is taken: a bare time at the start of the
 * message is as often the program's text (macOS's syslog keeps it), and
 * a time of day alone (fmt_clock) is taken not even with a level
 * ("21:58:33.765 ERROR:    177: timed out" in a macOS line).
 * The program's process prefixes (vLLM's "(EngineCore pid=1) ") are
 * taken off first, as in a plain capture, with or without a header
 * behind them, and before them a relay's (relay_prefixes).  Returns
 * where the message starts, or 0. */
static size_t inner_header(struct cur body, struct header *h)
{
	size_t start = body.i;
	relay_prefixes(&body);
	program_prefixes(&body, h);
	size_t plain = body.i > start ? body.i : 0;
	int k = byte_class(&body);
	if (k < 0) {
		size_t rest = timeless_header(body, h, 0);
		return rest ? rest : plain;
	}
	int64_t ts = h->ts_ms;
	uint8_t no_year = h->ts_no_year;
	for (int g = 0; g < NFORMATS; g++) {
		if (formats[g].wraps || (formats[g].first == B_NONBLANK && formats[g].parse != fmt_tsv_iso) ||
		    formats[g].parse == record_json || formats[g].parse == record_logfmt ||
		    formats[g].parse == fmt_clock || !(formats[g].first & (1 << k)))
			continue;
		struct cur c = body;
		uint32_t tag_off = h->tag_off, tag_len = h->tag_len;
		size_t off = formats[g].parse(&c, h);
		h->ts_ms = ts;
		h->ts_no_year = no_year;
		if (off && (h->level || h->tag_len != tag_len || body.s[body.i] == '[' ||
			    formats[g].parse == fmt_tsv_iso))
			return off;   /* a bracketed time, tabs then a time: no program's text */
		h->level = LV_NONE;
		h->tag_off = tag_off;
		h->tag_len = tag_len;
	}
	size_t rest = timeless_header(body, h, 0);
	return rest ? rest : plain;
}

/* The header of the program whose line a record or a wrapper carries
 * at body (inner_header), its level the line's when it gives one, else
 * the carrier's.  Returns where the message starts, or 0. */
static size_t carried_header(struct cur body, struct header *h)
{
	uint8_t lv = h->level;
	h->level = LV_NONE;
	size_t inner = inner_header(body, h);
	if (!h->level)
		h->level = lv;
	return inner;
}

/* Try format f on the text at c (after any process prefix).  The parser writes into h itself: going through
 * a temporary made the copy of its byte-sized fields stall on store
 * forwarding, a fifth of the time of this function.  A parser writes only
 * ts, level and (sglang, once it has matched) the tag, so a failed one is
 * undone by resetting those two.  Inlined in both its callers: called,
 * it takes the cursor through the stack and stalls the same way. */
static inline __attribute__((always_inline)) int try_format(int f, struct cur c, struct header *h)
{
	size_t off = formats[f].parse(&c, h);
	if (!off) {
		h->ts_ms = TS_NONE;
		h->ts_no_year = 0;
		h->level = LV_NONE;
		return 0;
	}
	if (formats[f].parse == record_json) {
		/* A record's message may be a program's whole line, as a
		 * JSON handler or docker's json-file driver keeps it
		 * ({"log": "(EngineCore pid=7) INFO ... msg"}): its process
		 * prefix gives the tag and its header is header, as in a
		 * plain capture, its level the program's own. */
		struct cur body = { c.s, c.n, off };
		size_t inner = carried_header(body, h);
		if (inner)
			off = inner;
		/* A rank field the message ends in (tracing's span fields
		 * written after it) names the stream, as in fmt_tracing. */
		body.i = off;
		record_rank_suffix(&body, h);
	} else if (!h->level) {
		struct cur body = { c.s, c.n, off };
		size_t inner = record_body(&body, h);
		if (!inner && formats[f].wraps)
			inner = inner_header(body, h);
		if (inner)
			off = inner;
	} else if (formats[f].wraps) {
		/* A wrapper's level is the stream it read the line from (the
		 * Java Service Wrapper's INFO for all of a JVM's output): the
		 * program's own header behind it says more, its level too. */
		struct cur body = { c.s, c.n, off };
		size_t inner = carried_header(body, h);
		if (inner)
			off = inner;
	}
	h->format = (uint16_t)f;
	h->msg_off = (uint32_t)off;
	return 1;
}

/* The stream and tag the CRI log format (containerd's and CRI-O's files
 * under /var/log/pods) writes after its time, "stdout F " or "stderr P
 * ", at s[i..n): their length, 0 for none.  A partial line (P, the
 * runtime's cut of a long one) reads as a line of its own. */
static size_t cri_stream(const char *s, size_t n, size_t i)
{
	if (n - i < 8 || (memcmp(s + i, "stdout ", 7) != 0 && memcmp(s + i, "stderr ", 7) != 0) ||
	    (s[i + 7] != 'F' && s[i + 7] != 'P'))
		return 0;
	return i + 8 == n ? 8 : s[i + 8] == ' ' ? 9 : 0;
}

/* The length of the source a log drain puts after its time, Heroku's
 * "app[web.1]: " and "heroku[router]: " (syslog's "tag[pid]: " without
 * the host), at s[i..n); 0 for none.  The program's line follows. */
static size_t drain_tag(const char *s, size_t n, size_t i)
{
	size_t k = i;
	while (k < n && k - i < 32 && (is_alpha(s[k]) || is_digit(s[k]) || s[k] == '-' || s[k] == '_'))
		k++;
	if (k == i || k >= n || s[k] != '[')
		return 0;
	for (size_t e = k + 1; e < n && e - k < 32 && s[e] != ' '; e++)
		if (s[e] == ']')
			return e + 2 < n && s[e + 1] == ':' && s[e + 2] == ' ' ? e + 3 - i : 0;
	return 0;
}

/* A time a capture put before each line: RFC 3339 in UTC finer than
 * the microseconds programs write, `docker logs -t`'s and `kubectl logs
 * --timestamps`'s nanoseconds ("2025-05-01T10:00:00.123456789Z "), GitHub
 * Actions' 100 ns ("2025-05-01T10:00:00.1234567Z "), or any ISO time and a blank (Docker
 * Desktop's "2025-03-05 08:19:02 ") when the program's own header with a
 * time of its own follows.  At s[i..n).  Its time into h->ts_ms, and
 * h->ts_no_year = 1 for one of the second kind, which the line must
 * confirm (see parse_stamped); returns where the line goes on: past the
 * time, or i without one.  Takes no cursor, so that the caller's stays
 * in registers. */
static __attribute__((noinline, cold)) size_t capture_stamp(const char *s, size_t n, size_t i,
							    struct header *h)
{
	struct cur d = { s, n, i };
	struct stamp t = { 0 };
	struct header x;
	if (!iso(&d, &t) || d.i + 1 >= n || s[d.i] != ' ' || !stamp_set(&t, &x))
		return i;
	size_t cri = cri_stream(s, n, d.i + 1);
	int weak = !cri && !(d.i >= i + 28 && d.i <= i + 30 && s[i + 10] == 'T' && s[i + 19] == '.' &&
			     s[d.i - 1] == 'Z');
	if (weak && s[d.i + 1] == ' ')
		return i;   /* "2024-05-01T10:00:00Z  INFO": TGI's own header */
	h->ts_ms = x.ts_ms;
	h->ts_no_year = (uint8_t)weak;
	return d.i + 1 + cri + (cri ? 0 : drain_tag(s, n, d.i + 1));
}

/* A time since the epoch a capture put before each line, as a collector
 * or `ts '%.s'` writes it: "1764583200.137 " (seconds with any fraction,
 * or milliseconds, micro- or nanoseconds), bare or in brackets, then a
 * blank; or whole seconds and a colon, as mosquitto stamps its own lines
 * ("1418872412: msg").  At s[i..n), starting with a digit; its time into h->ts_ms as a
 * capture's (see capture_stamp), returns where the line goes on, or i. */
static __attribute__((noinline, cold)) size_t epoch_stamp(const char *s, size_t n, size_t i,
							  struct header *h)
{
	size_t b = i + (s[i] == '['), e = b;
	while (e < n && e - b < 24 && (is_digit(s[e]) || s[e] == '.'))
		e++;
	int64_t ms;
	if (e >= n)
		return i;
	size_t end = e + (s[i] == '[' || (s[e] == ':' && e - b == 10));
	if (end >= n || (s[i] == '[' && s[e] != ']') || (s[end] != ' ' && s[end] != '\t') ||
	    !record_epoch(s + b, e - b, &ms))
		return i;
	h->ts_ms = ms;
	h->ts_no_year = 0;
	return end + 1;
}

/* Whether s[i..n) may start with a time since the epoch: ten digits at
 * least, the first "1" (2001 to 2033), bare or after a bracket.  Cheap,
 * for every line that starts with a digit. */
static inline int epoch_start(const char *s, size_t n, size_t i)
{
	i += i < n && s[i] == '[';
	return n - i > 11 && s[i] == '1' && is_digit(s[i + 5]) && is_digit(s[i + 9]) &&
	       is_digit(s[i + 1]) && (s[i + 10] == '.' || s[i + 10] == ' ' || is_digit(s[i + 10]) ||
				      s[i + 10] == ']' || s[i + 10] == '\t' || s[i + 10] == ':');
}

/* Reset h and take off what a capture put before the line: a byte order
 * mark, compose's or kubectl's prefix. */
static inline __attribute__((always_inline)) struct cur capture_prefixes(const char *line, size_t len,
									  struct header *h)
{
	memset(h, 0, sizeof(*h));
	h->ts_ms = TS_NONE;
	h->format = PREFIX_NONE;
	struct cur c = { line, len, 0 };
	bom(&c);
	/* compose's service prefix goes, so that the line reads as the
	 * program wrote it; it gives no tag, as one service's capture must
	 * compare with a plain one. */
	relay_prefixes(&c);
	return c;
}

/* Reset h and take off what a capture put before the line: its
 * prefixes, then a capture stamp, whose time goes to h->ts_ms. */
static inline __attribute__((always_inline)) struct cur captures(const char *line, size_t len,
								  struct header *h)
{
	struct cur c = capture_prefixes(line, len, h);
	size_t at = c.i;
	if (__builtin_expect(c.n - c.i > 20 && c.s[c.i + 4] == '-' && c.s[c.i + 13] == ':', 0))
		c.i = capture_stamp(c.s, c.n, c.i, h);
	else if (__builtin_expect(epoch_start(c.s, c.n, c.i), 0))
		c.i = epoch_stamp(c.s, c.n, c.i, h);
	if (c.i > at)
		relay_prefixes(&c);
	return c;
}

size_t prefix_capture_len(const char *line, size_t len)
{
	struct header h;
	return captures(line, len, &h).i;
}

/* Reset h and take off the process prefixes, outermost first (compose's
 * or kubectl's may carry a capture stamp, which may carry vLLM's, which
 * may carry torchrun's); the outermost that has one gives the tag.  A
 * capture stamp's time goes to h->ts_ms. */
static struct cur process_prefixes(const char *line, size_t len, struct header *h)
{
	struct cur c = captures(line, len, h);
	program_prefixes(&c, h);
	h->msg_off = (uint32_t)c.i;
	return c;
}

/* A line behind a capture's time reads as the program wrote it: its own
 * header gives the level, the tag and the message; the capture the time,
 * the clock all of the file's lines share, as a wrapper's does.  Behind
 * a capture's own stamp (docker's, GitHub Actions'), a line with no
 * header of its own (a traceback's) has the stamp for its header, and
 * the runner's "##[error]" for its level.  Any other time is a capture's
 * only when the program's header behind it has a time too ("2024-01-02
 * 03:04:05 INFO msg" is one header); else the line is read as it comes.  Out of line:
 * most files have no capture times, and their lines must not pay. */
static __attribute__((noinline, cold)) void parse_stamped(const struct prefix_order *o, const char *line,
							  size_t len, struct cur c, struct header *h)
{
	int64_t stamp = h->ts_ms;
	int weak = h->ts_no_year;
	h->ts_ms = TS_NONE;
	h->ts_no_year = 0;
	int k = byte_class(&c);
	for (size_t j = 0; k >= 0 && j < o->nk[k]; j++)
		if (try_format(o->fk[k][j], c, h)) {
			if (h->ts_ms == TS_NONE && (weak || !h->level))
				break;
			h->ts_ms = stamp;
			h->ts_no_year = 0;
			return;
		}
	if (weak) {
		/* The time is the line's own header's. */
		c = capture_prefixes(line, len, h);
		h->msg_off = (uint32_t)c.i;
		k = byte_class(&c);
		for (size_t j = 0; k >= 0 && j < o->nk[k]; j++)
			if (try_format(o->fk[k][j], c, h))
				return;
		return;
	}
	h->ts_ms = stamp;
	h->level = LV_NONE;
	h->format = PREFIX_NONE;
	size_t rest = timeless_header(c, h, 1);
	if (rest)
		c.i = rest;
	/* The runner's annotation after its own time ("##[error]") is the
	 * line's level, as it is in `gh run view --log`'s lines (iso). */
	if (at(&c, '#'))
		h->level = (uint8_t)level_shape(&c);
	h->msg_off = (uint32_t)c.i;
}

/* The spaces a file indents its lines by, from its sample lines: the
 * most that nearly all lines that are not blank start with (a line
 * behind a progress bar's frames may have lost them).  The first of
 * them counts as indented as far as need be: a block copied from a page
 * starts where the selection did, often inside its first line's
 * indentation.  Five lines are the least evidence of a whole file
 * indented: a few lines that each say " * Running on ..." are a
 * program's indented text. */
#define INDENT_SHARE 0.95
#define INDENT_LINES 5
static uint8_t common_indent(const char *const *lines, const size_t *lens, size_t n)
{
	size_t at_least[UINT8_MAX + 1] = { 0 }, seen = 0;
	for (size_t i = 0; i < n; i++) {
		size_t b = 0;
		while (b < lens[i] && b < UINT8_MAX && lines[i][b] == ' ')
			b++;
		size_t e = b;
		while (e < lens[i] && (lines[i][e] == ' ' || lines[i][e] == '\t'))
			e++;
		if (e == lens[i])
			continue;   /* blank lines say nothing */
		at_least[seen ? b : UINT8_MAX]++;
		seen++;
	}
	size_t count = 0;
	for (size_t k = UINT8_MAX; k > 0; k--) {
		count += at_least[k];
		if (count >= INDENT_LINES && (double)count >= INDENT_SHARE * (double)seen)
			return (uint8_t)k;
	}
	return 0;
}

static void parse_line(const struct prefix_order *o, const char *line, size_t len,
		       struct header *h)
{
	struct cur c = process_prefixes(line, len, h);
	if (__builtin_expect(h->ts_ms != TS_NONE, 0)) {
		parse_stamped(o, line, len, c, h);
		return;
	}
	int k = byte_class(&c);
	for (size_t j = 0; k >= 0 && j < o->nk[k]; j++)
		if (try_format(o->fk[k][j], c, h))
			return;
	/* A program that writes no time ("INFO file.py:12: msg", Rust's
	 * tracing without time) still writes the rest of its header. */
	size_t rest = timeless_header(c, h, 1);
	if (rest)
		h->msg_off = (uint32_t)rest;
}

void prefix_parse_in(const struct prefix_order *o, const char *line, size_t len,
		     struct header *h)
{
	/* A line of an indented file reads from where its lines start. */
	size_t lead = 0;
	while (lead < o->indent && lead < len && line[lead] == ' ')
		lead++;
	if (__builtin_expect(lead == 0, 1)) {
		parse_line(o, line, len, h);
		return;
	}
	parse_line(o, line + lead, len - lead, h);
	h->msg_off += (uint32_t)lead;
	if (h->tag_len)
		h->tag_off += (uint32_t)lead;
}

/* Fill o's per-class lists from o->f. */
static void order_by_class(struct prefix_order *o)
{
	for (int k = 0; k < PREFIX_CLASSES; k++) {
		o->nk[k] = 0;
		for (size_t j = 0; j < o->n; j++)
			if (formats[o->f[j]].first & (1 << k))
				o->fk[k][o->nk[k]++] = o->f[j];
	}
}

/* Formats in table order, with fmt (if any) moved to the front. */
static void order_from(int fmt, struct prefix_order *o)
{
	o->n = 0;
	o->indent = 0;
	if (fmt >= 0 && fmt < NFORMATS)
		o->f[o->n++] = (uint8_t)fmt;
	for (int f = 0; f < NFORMATS; f++)
		if (f != fmt)
			o->f[o->n++] = (uint8_t)f;
	order_by_class(o);
}

void prefix_parse(int fmt, const char *line, size_t len, struct header *h)
{
	struct prefix_order o;
	order_from(fmt, &o);
	prefix_parse_in(&o, line, len, h);
}

int prefix_detect(const char *const *lines, const size_t *lens, size_t n,
		  struct prefix_order *order)
{
	/* Each line votes for the first format in the table that parses it:
	 * counting every format that parses a line would let the generic
	 * "iso" outvote the specific formats of an ISO-stamped file. */
	size_t votes[NFORMATS] = { 0 };
	struct prefix_order table;
	order_from(-1, &table);
	table.indent = common_indent(lines, lens, n);
	for (size_t i = 0; i < n; i++) {
		struct header h;
		prefix_parse_in(&table, lines[i], lens[i], &h);
		if (h.format != PREFIX_NONE)
			votes[h.format]++;
	}
	int best = -1;
	for (int f = 0; f < NFORMATS; f++)
		if (votes[f] && (best < 0 || votes[f] > votes[best]))
			best = f;
	if (order) {
		/* Voted formats by votes (ties in table order), then the rest. */
		order_from(-1, order);
		for (int a = 1; a < NFORMATS; a++)
			for (int b = a; b > 0 && votes[order->f[b]] > votes[order->f[b - 1]]; b--) {
				uint8_t t = order->f[b];
				order->f[b] = order->f[b - 1];
				order->f[b - 1] = t;
			}
		order_by_class(order);
		order->indent = table.indent;
	}
	return best;
}

int64_t prefix_year_offset_ms(int year)
{
	/* Aligned on March 1: see prefix.h for what that means in leap years. */
	return (days_from_civil(year, 3, 1) - days_from_civil(1970, 3, 1)) * MS_PER_DAY;
}

int year_of_time(time_t t)
{
	struct tm tm;
	gmtime_r(&t, &tm);
	return tm.tm_year + 1900;
}

void prefix_format_ts(int64_t ms, char *buf)
{
	int64_t days = ms / MS_PER_DAY, rem = ms % MS_PER_DAY;
	if (rem < 0) {
		rem += MS_PER_DAY;
		days--;
	}
	/* civil_from_days, the inverse of days_from_civil. */
	int64_t z = days + 719468;
	int64_t era = (z >= 0 ? z : z - 146096) / 146097;
	int64_t doe = z - era * 146097;
	int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64_t mp = (5 * doy + 2) / 153;
	int64_t d = doy - (153 * mp + 2) / 5 + 1;
	int64_t m = mp < 10 ? mp + 3 : mp - 9;
	int64_t y = yoe + era * 400 + (m <= 2);
	snprintf(buf, PREFIX_TS_SIZE, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lld.%03lldZ",
		 (long long)y, (long long)m, (long long)d, (long long)(rem / 3600000),
		 (long long)(rem / 60000 % 60), (long long)(rem / 1000 % 60),
		 (long long)(rem % 1000));
}
