/* prefix_scan.h — the small parsers a line header is read with, shared by
 * prefix.c and prefix_record.c: a bounded cursor over one line's bytes
 * (lines are not NUL-terminated; every helper checks i < n before it
 * reads), numbers, dates and times, zones, month names and level words.
 * All static inline: they run once or more per line, on the hot path. */
#ifndef DDX_PREFIX_SCAN_H
#define DDX_PREFIX_SCAN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "prefix_types.h"

#define MS_PER_DAY 86400000LL

/* A read position in a line; every helper checks i < n before reading. */
struct cur {
	const char *s;
	size_t n, i;
};

static inline int is_digit(int c)
{
	return (unsigned)(c - '0') < 10;
}

static inline int is_alpha(int c)
{
	return (unsigned)((c | 32) - 'a') < 26;
}

static inline int is_space(int c)
{
	return c == ' ' || c == '\t';
}

static inline int at(const struct cur *c, char ch)
{
	return c->i < c->n && c->s[c->i] == ch;
}

static inline int eat(struct cur *c, char ch)
{
	if (!at(c, ch))
		return 0;
	c->i++;
	return 1;
}

static inline int eat_str(struct cur *c, const char *lit)
{
	size_t k = strlen(lit);
	if (c->n - c->i < k || memcmp(c->s + c->i, lit, k) != 0)
		return 0;
	c->i += k;
	return 1;
}

/* Skip spaces and tabs; returns how many. */
static inline size_t spaces(struct cur *c)
{
	size_t i0 = c->i;
	while (c->i < c->n && is_space(c->s[c->i]))
		c->i++;
	return c->i - i0;
}

/* Skip a run of non-blank bytes; fails when it is empty. */
static inline int token(struct cur *c)
{
	size_t i0 = c->i;
	while (c->i < c->n && !is_space(c->s[c->i]))
		c->i++;
	return c->i > i0;
}

/* Move past the first occurrence of lit at or after the cursor. */
static inline int skip_past(struct cur *c, const char *lit)
{
	size_t k = strlen(lit);
	for (size_t i = c->i; i + k <= c->n; i++) {
		if (c->s[i] == lit[0] && memcmp(c->s + i, lit, k) == 0) {
			c->i = i + k;
			return 1;
		}
	}
	return 0;
}

/* Between min and max digits (a digit must not follow); their value. */
static inline int num(struct cur *c, int min, int max, int64_t *v)
{
	size_t i = c->i;
	int64_t x = 0;
	while (i < c->n && is_digit(c->s[i]) && (int)(i - c->i) < max)
		x = x * 10 + (c->s[i++] - '0');
	if ((int)(i - c->i) < min || (i < c->n && is_digit(c->s[i])))
		return 0;
	c->i = i;
	*v = x;
	return 1;
}

/* Exactly w digits, as an int; more digits may follow ("20171223"). */
static inline int fixed(struct cur *c, int w, int *v)
{
	if (c->n - c->i < (size_t)w)
		return 0;
	int x = 0;
	for (int k = 0; k < w; k++) {
		if (!is_digit(c->s[c->i + k]))
			return 0;
		x = x * 10 + (c->s[c->i + k] - '0');
	}
	c->i += w;
	*v = x;
	return 1;
}

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar
 * (H. Hinnant's days_from_civil); days past the month's end roll over. */
static inline int64_t days_from_civil(int64_t y, int m, int d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	int64_t yoe = y - era * 400;
	int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* A broken-down time being parsed. */
struct stamp {
	int y, mo, d, H, M, S, ms;
	int has_zone;        /* the time named its zone (read, not applied) */
	int no_year;
};

static inline int stamp_ok(const struct stamp *t)
{
	return t->mo >= 1 && t->mo <= 12 && t->d >= 1 && t->d <= 31 &&
	       t->H <= 23 && t->M <= 59 && t->S <= 60;
}

/* Store t into h (as 1970 when it has no year); fails on nonsense. */
static inline int stamp_set(const struct stamp *t, struct header *h)
{
	if (!stamp_ok(t))
		return 0;
	int64_t days = days_from_civil(t->no_year ? 1970 : t->y, t->mo, t->d);
	h->ts_ms = days * MS_PER_DAY + t->H * 3600000LL + t->M * 60000LL +
		   t->S * 1000LL + t->ms;
	h->ts_no_year = (uint8_t)t->no_year;
	return 1;
}

/* Is ch one of the bytes of set?  (strchr would also match a NUL.) */
static inline int in_set(char ch, const char *set)
{
	for (; *set; set++)
		if (*set == ch)
			return 1;
	return 0;
}

/* A fraction of a second after one of the separators in seps: its first
 * three digits are the milliseconds. */
static inline int frac(struct cur *c, const char *seps, int *ms)
{
	*ms = 0;
	if (c->i + 1 >= c->n || !in_set(c->s[c->i], seps) || !is_digit(c->s[c->i + 1]))
		return 1;
	c->i++;
	int k = 0;
	for (; c->i < c->n && is_digit(c->s[c->i]); c->i++, k++)
		if (k < 3)
			*ms = *ms * 10 + (c->s[c->i] - '0');
	for (; k < 3; k++)
		*ms *= 10;
	return 1;
}

/* HH:MM:SS with an optional fraction after a byte of seps ("" for none). */
static inline int clock_time(struct cur *c, struct stamp *t, const char *seps)
{
	int64_t hour;
	if (!num(c, 1, 2, &hour))
		return 0;
	t->H = (int)hour;
	return eat(c, ':') && fixed(c, 2, &t->M) && eat(c, ':') &&
	       fixed(c, 2, &t->S) && frac(c, seps, &t->ms);
}

/* A numeric zone written after a blank, as strftime's "%H:%M:%S %z" does
 * (gunicorn's "[2023-03-18 16:02:18 +0000] [296827] [INFO]"): " +HHMM"
 * or " +HH:MM" and then a blank, a ']' or the end.  Only that whole
 * shape is a zone; " +1 ..." and " -- ..." are message. */
static inline int spaced_zone(const struct cur *c)
{
	size_t i = c->i, n = c->n;
	const char *s = c->s;
	if (i + 6 > n || s[i] != ' ' || (s[i + 1] != '+' && s[i + 1] != '-'))
		return 0;
	size_t k = i + 2;
	if (!is_digit(s[k]) || !is_digit(s[k + 1]))
		return 0;
	k += 2;
	k += k < n && s[k] == ':';
	if (k + 2 > n || !is_digit(s[k]) || !is_digit(s[k + 1]))
		return 0;
	k += 2;
	return k == n || s[k] == ' ' || s[k] == ']' || s[k] == '\t';
}

/* A zone after a time: Z, +HH:MM, +HHMM or +HH, or a spaced one
 * (spaced_zone).  It is read past but not applied: times are kept as the
 * log wrote them, so that one log whose lines come from several writers
 * (Ollama's logfmt lines with -06:00 beside gin's lines with none) keeps
 * one clock, and durations hold. */
static inline void zone(struct cur *c, struct stamp *t)
{
	if (eat(c, 'Z')) {
		t->has_zone = 1;
		return;
	}
	if (spaced_zone(c))
		c->i++;
	if (!at(c, '+') && !at(c, '-'))
		return;
	struct cur save = *c;
	c->i++;
	int hh, mm = 0;
	if (!fixed(c, 2, &hh) || hh > 14) {
		*c = save;
		return;
	}
	struct cur m = *c;
	eat(&m, ':');
	if (fixed(&m, 2, &mm) && mm <= 59)
		*c = m;
	t->has_zone = 1;
}

/* YYYY-MM-DD. */
static inline int iso_date(struct cur *c, struct stamp *t)
{
	return fixed(c, 4, &t->y) && eat(c, '-') && fixed(c, 2, &t->mo) && eat(c, '-') &&
	       fixed(c, 2, &t->d);
}

/* YYYY-MM-DD then a byte of seps then HH:MM:SS[.,frac][zone]. */
static inline int iso_stamp(struct cur *c, struct stamp *t, const char *seps)
{
	if (!iso_date(c, t))
		return 0;
	if (c->i >= c->n || !in_set(c->s[c->i], seps))
		return 0;
	c->i++;
	if (!clock_time(c, t, ".,"))
		return 0;
	zone(c, t);
	return 1;
}

/* The usual ISO-8601 timestamp of logs, with 'T' or a space. */
static inline int iso(struct cur *c, struct stamp *t)
{
	return iso_stamp(c, t, "T ");
}

static const char month_abbr[12][4] = {
	"Jan", "Feb", "Mar", "Apr", "May", "Jun",
	"Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
};

/* Month abbreviations as other locales write them where syslog and
 * journalctl put "Aug" (strftime's %b): Russian, German, French,
 * Spanish; the ones English shares are in month_abbr.  Longer first
 * where one begins another ("mars" before "mar"). */
static const struct {
	const char *name;
	uint8_t mo;
} month_local_names[] = {
	{ "янв", 1 }, { "фев", 2 }, { "мар", 3 }, { "апр", 4 }, { "мая", 5 }, { "май", 5 },
	{ "июн", 6 }, { "июл", 7 }, { "авг", 8 }, { "сен", 9 }, { "окт", 10 }, { "ноя", 11 },
	{ "дек", 12 },
	{ "Mär", 3 }, { "Mai", 5 }, { "Okt", 10 }, { "Dez", 12 },
	{ "janv", 1 }, { "févr", 2 }, { "mars", 3 }, { "avr", 4 }, { "mai", 5 }, { "juin", 6 },
	{ "juil", 7 }, { "août", 8 }, { "sept", 9 }, { "déc", 12 },
	{ "ene", 1 }, { "feb", 2 }, { "mar", 3 }, { "abr", 4 }, { "may", 5 }, { "jun", 6 },
	{ "jul", 7 }, { "ago", 8 }, { "sep", 9 }, { "oct", 10 }, { "nov", 11 }, { "dic", 12 },
};

/* A month as another locale names it (month_local_names, with or
 * without a closing '.'), or as Korean, Chinese and Japanese number it
 * ("8월", "8月"); a blank must follow.  Cold: English is the rule. */
static __attribute__((noinline, cold)) int month_local(struct cur *c, int *mo)
{
	const char *s = c->s + c->i;
	size_t left = c->n - c->i, n = 0;
	int m = 0;
	if (left && is_digit(s[0])) {
		while (n < 2 && n < left && is_digit(s[n]))
			m = m * 10 + (s[n++] - '0');
		if (m < 1 || m > 12 || left - n < 3 ||
		    (memcmp(s + n, "월", 3) != 0 && memcmp(s + n, "月", 3) != 0))
			return 0;
		n += 3;
	} else {
		for (size_t k = 0; k < sizeof(month_local_names) / sizeof(month_local_names[0]) && !m; k++) {
			size_t len = strlen(month_local_names[k].name);
			if (len <= left && memcmp(s, month_local_names[k].name, len) == 0) {
				m = month_local_names[k].mo;
				n = len + (len < left && s[len] == '.');
			}
		}
	}
	if (!m || n >= left || s[n] != ' ')
		return 0;
	c->i += n;
	*mo = m;
	return 1;
}

/* A month's abbreviation: English, "Jan" to "Dec", or another locale's
 * (month_local). */
static inline int month_name(struct cur *c, int *mo)
{
	if (c->n - c->i < 3)
		return 0;
	for (int k = 0; k < 12; k++) {
		if (memcmp(c->s + c->i, month_abbr[k], 3) == 0) {
			c->i += 3;
			*mo = k + 1;
			return 1;
		}
	}
	return month_local(c, mo);
}

/* Level words packed little-end first into a 64-bit integer, so a word
 * is matched with one comparison per candidate. */
#define PK(a, b, c, d, e, f, g, h) \
	((uint64_t)(a) | (uint64_t)(b) << 8 | (uint64_t)(c) << 16 | (uint64_t)(d) << 24 | \
	 (uint64_t)(e) << 32 | (uint64_t)(f) << 40 | (uint64_t)(g) << 48 | (uint64_t)(h) << 56)
static const struct {
	uint64_t word;
	uint8_t level;
} level_words[] = {
	{ PK('T', 'R', 'A', 'C', 'E', 0, 0, 0), LV_TRACE },
	{ PK('V', 'E', 'R', 'B', 'O', 'S', 'E', 0), LV_TRACE },
	{ PK('D', 'E', 'B', 'U', 'G', 0, 0, 0), LV_DEBUG },
	{ PK('I', 'N', 'F', 'O', 0, 0, 0, 0), LV_INFO },
	/* Go's loggers cut the word: zerolog's console to three letters
	 * ("INF", "WRN"), logrus's text to four ("ERRO", "FATA") */
	{ PK('T', 'R', 'C', 0, 0, 0, 0, 0), LV_TRACE },
	{ PK('T', 'R', 'A', 'C', 0, 0, 0, 0), LV_TRACE },
	{ PK('D', 'B', 'G', 0, 0, 0, 0, 0), LV_DEBUG },
	{ PK('D', 'E', 'B', 'U', 0, 0, 0, 0), LV_DEBUG },
	{ PK('I', 'N', 'F', 0, 0, 0, 0, 0), LV_INFO },
	{ PK('W', 'R', 'N', 0, 0, 0, 0, 0), LV_WARN },
	{ PK('E', 'R', 'R', 'O', 0, 0, 0, 0), LV_ERROR },
	{ PK('F', 'T', 'L', 0, 0, 0, 0, 0), LV_FATAL },
	{ PK('F', 'A', 'T', 'A', 0, 0, 0, 0), LV_FATAL },
	{ PK('P', 'N', 'C', 0, 0, 0, 0, 0), LV_FATAL },
	{ PK('P', 'A', 'N', 'I', 0, 0, 0, 0), LV_FATAL },
	{ PK('N', 'O', 'T', 'E', 0, 0, 0, 0), LV_INFO },         /* MySQL 5.7 */
	{ PK('S', 'Y', 'S', 'T', 'E', 'M', 0, 0), LV_INFO },     /* MySQL 8 */
	{ PK('L', 'O', 'G', 0, 0, 0, 0, 0), LV_INFO },           /* PostgreSQL */
	{ PK('S', 'U', 'C', 'C', 'E', 'S', 'S', 0), LV_INFO },   /* loguru */
	{ PK('N', 'O', 'T', 'I', 'C', 'E', 0, 0), LV_NOTICE },
	{ PK('W', 'A', 'R', 'N', 0, 0, 0, 0), LV_WARN },
	{ PK('W', 'A', 'R', 'N', 'I', 'N', 'G', 0), LV_WARN },
	{ PK('E', 'R', 'R', 'O', 'R', 0, 0, 0), LV_ERROR },
	{ PK('E', 'R', 'R', 0, 0, 0, 0, 0), LV_ERROR },
	{ PK('S', 'E', 'V', 'E', 'R', 'E', 0, 0), LV_ERROR },
	{ PK('F', 'A', 'I', 'L', 'U', 'R', 'E', 0), LV_ERROR },
	{ PK('C', 'R', 'I', 'T', 'I', 'C', 'A', 'L'), LV_FATAL },
	{ PK('C', 'R', 'I', 'T', 0, 0, 0, 0), LV_FATAL },
	{ PK('F', 'A', 'T', 'A', 'L', 0, 0, 0), LV_FATAL },
	{ PK('A', 'L', 'E', 'R', 'T', 0, 0, 0), LV_FATAL },
	{ PK('E', 'M', 'E', 'R', 'G', 0, 0, 0), LV_FATAL },
	{ PK('P', 'A', 'N', 'I', 'C', 0, 0, 0), LV_FATAL },
};
#undef PK

/* A level word longer than level_word packs, at the cursor:
 * "Information" (ClickHouse, Windows' event logs), "INFORMATION". */
static __attribute__((noinline, cold, unused)) int long_level_word(struct cur *c, int icase)
{
	static const char word[] = "INFORMATION";
	size_t n = sizeof(word) - 1;
	if (c->n - c->i < n || (c->i + n < c->n && is_alpha(c->s[c->i + n])))
		return LV_NONE;
	for (size_t k = 0; k < n; k++) {
		char ch = c->s[c->i + k];
		if (ch != word[k] && (!icase || ch != word[k] + ('a' - 'A')))
			return LV_NONE;
	}
	c->i += n;
	return LV_INFO;
}

/* The level word at the cursor (a whole run of letters).  Upper case only
 * unless icase: Python and the engines write INFO, Windows "Info" and
 * Apache "notice". */
static inline int level_word(struct cur *c, int icase)
{
	uint64_t w = 0;
	size_t len = 0;
	while (c->i + len < c->n && is_alpha(c->s[c->i + len])) {
		if (len == 8)
			return long_level_word(c, icase);
		unsigned ch = (unsigned char)c->s[c->i + len];
		if (ch >= 'a') {
			if (!icase)
				return LV_NONE;   /* "Prefill": most words end here */
			ch -= 'a' - 'A';
		}
		w |= (uint64_t)ch << (8 * len++);
	}
	if (len < 3)
		return LV_NONE;
	for (size_t k = 0; k < sizeof(level_words) / sizeof(level_words[0]); k++) {
		if (level_words[k].word == w) {
			c->i += len;
			return level_words[k].level;
		}
	}
	return LV_NONE;
}

/* glog's and Android's one-letter levels. */
static inline int level_letter(int ch)
{
	switch (ch) {
	case 'V': return LV_TRACE;
	case 'D': return LV_DEBUG;
	case 'I': return LV_INFO;
	case 'W': return LV_WARN;
	case 'E': return LV_ERROR;
	case 'F': case 'A': return LV_FATAL;
	default: return LV_NONE;
	}
}

/* A source location "path/file.py:123" ending at a blank, ']' or ':'
 * followed by a blank; the cursor ends after the digits. */
static inline int src_loc(struct cur *c)
{
	size_t i = c->i, colon = 0;
	while (i < c->n && !is_space(c->s[i]) && c->s[i] != ']') {
		if (c->s[i] == ':') {
			if (colon && colon + 1 < i)
				break;  /* "file.py:123:" ends at the second colon */
			colon = i;
		} else if (colon && !is_digit(c->s[i])) {
			colon = 0;
		}
		i++;
	}
	if (!colon || colon == c->i || colon + 1 >= i)
		return 0;
	c->i = i;
	return 1;
}


#endif
