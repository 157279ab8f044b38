/* mask.c — masking variable tokens.  See mask.h.
 *
 * One hand-written pass over the message.  At each token start the
 * scanner tries, cheapest first, the shapes a variable can take (a key=
 * value pair, a number with its unit, a date, a time, an address, a path,
 * a URL); anything else is a word, masked only when it holds a digit.
 * Literal text is copied in runs, so a line costs one append per
 * placeholder, not one per byte.  Every look-ahead is bounded by len: the
 * message has no terminator and may hold NUL bytes or invalid UTF-8. */
#include "mask.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

static const char *const placeholders[V_NTYPES] = {
	"<int>", "<float>", "<size>", "<dur>", "<pct>", "<hex>", "<id>",
	"<ip>", "<url>", "<path>", "<date>", "<time>", "<host>", "<*>", "<*>",
};
static const uint8_t placeholder_len[V_NTYPES] = {
	5, 7, 6, 5, 5, 5, 4, 4, 5, 6, 6, 6, 6, 3, 3,
};

int mask_is_progress_bar(const char *t)
{
	const char *pct = strstr(t, "<pct>");
	return pct && strstr(pct, "<int>/<int>");
}

int mask_bar_count(const struct masked *m, const char *msg, uint64_t *pos, uint64_t *total)
{
	for (size_t k = 0; k + 1 < m->nv; k++) {
		const struct value *a = &m->v[k], *b = &m->v[k + 1];
		if (a->type != V_INT || b->type != V_INT || b->off != a->off + a->len + 1 ||
		    msg[a->off + a->len] != '/' || a->len > 18 || b->len > 18)
			continue;
		*pos = *total = 0;
		for (uint32_t d = 0; d < a->len; d++)
			*pos = *pos * 10 + (uint64_t)(msg[a->off + d] - '0');
		for (uint32_t d = 0; d < b->len; d++)
			*total = *total * 10 + (uint64_t)(msg[b->off + d] - '0');
		return 1;
	}
	return 0;
}

/* Byte classes: one table look-up per byte on the hot path. */
enum { K_DIGIT = 1, K_ALPHA = 2, K_HEX = 4, K_WORD = 8, K_IDENT = 16, K_SPACE = 32 };
/* Word bytes are letters, digits, "_-." and every non-ASCII byte (so
 * UTF-8 text, valid or not, stays in words); identifier bytes are the
 * ASCII ones among them. */
static const uint8_t kind[256] = {
	 0,  0,  0,  0,  0,  0,  0,  0,  0, 32,  0,  0,  0,  0,  0,  0,
	 0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
	32,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 24, 24,  0,
	29, 29, 29, 29, 29, 29, 29, 29, 29, 29,  0,  0,  0,  0,  0,  0,
	 0, 30, 30, 30, 30, 30, 30, 26, 26, 26, 26, 26, 26, 26, 26, 26,
	26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26,  0,  0,  0,  0, 24,
	 0, 30, 30, 30, 30, 30, 30, 26, 26, 26, 26, 26, 26, 26, 26, 26,
	26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26,  0,  0,  0,  0,  0,
	 8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,
	 8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,
	 8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,
	 8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,
	 8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,
	 8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,
	 8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,
	 8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,
};

static inline int is_digit(unsigned char c) { return kind[c] & K_DIGIT; }
static inline int is_alpha(unsigned char c) { return kind[c] & K_ALPHA; }
static inline int is_alnum(unsigned char c) { return kind[c] & (K_DIGIT | K_ALPHA); }
static inline int is_hex(unsigned char c) { return kind[c] & K_HEX; }
static inline int is_space(unsigned char c) { return kind[c] & K_SPACE; }
static inline int is_word(unsigned char c) { return kind[c] & K_WORD; }
static inline int is_ident(unsigned char c) { return kind[c] & K_IDENT; }
static inline int is_open(unsigned char c) { return c == '(' || c == '[' || c == '{'; }
static inline int is_close(unsigned char c) { return c == ')' || c == ']' || c == '}'; }

struct scan {
	const unsigned char *s;
	size_t len;
	size_t lit;          /* start of literal text not yet copied */
	struct masked *m;
};

#define AT(sc, i) ((i) < (sc)->len ? (sc)->s[i] : 0)

/* Append to the text: inline while it fits, which is nearly always once
 * the buffer has grown to the longest line. */
static inline void put(struct buf *b, const void *p, size_t n)
{
	if (!b->max && b->len + n < b->cap) {
		memcpy(b->p + b->len, p, n);
		b->len += n;
		b->p[b->len] = '\0';
	} else {
		buf_append(b, p, n);
	}
}

static inline void add_value(struct masked *m, size_t off, size_t n, int type,
			     size_t koff, size_t klen)
{
	if (m->nv == m->cap)
		GROW(m->v, m->cap, m->nv + 1);
	m->v[m->nv++] = (struct value){
		.off = (uint32_t)off, .len = (uint32_t)n,
		.key_off = (uint32_t)koff, .key_len = (uint32_t)klen,
		.type = (uint8_t)type,
	};
}

/* Replace s[off..off+n) by type's placeholder. */
static void emit(struct scan *sc, size_t off, size_t n, int type, size_t koff, size_t klen)
{
	struct masked *m = sc->m;
	put(&m->text, sc->s + sc->lit, off - sc->lit);
	put(&m->text, placeholders[type], placeholder_len[type]);
	add_value(m, off, n, type, koff, klen);
	sc->lit = off + n;
}

/* A bare key=value value: masked, unless it is a short lower-case word
 * ("user=root", "force=false"), which reads as part of the message:
 * that one is kept in the text as well as in the values, and clustering
 * decides whether it varies. */
static void emit_kv(struct scan *sc, size_t off, size_t n, size_t koff, size_t klen)
{
	size_t k = 0, hex = 0;
	while (k < n && k <= 16) {
		unsigned char c = sc->s[off + k];
		if (!((unsigned)(c - 'a') < 26 || (k > 0 && (c == '_' || c == '-' || c == '.'))))
			break;
		hex += is_hex(c);
		k++;
	}
	/* "mask=ffffffff" is a number all the same. */
	if (k < n || n > 16 || (hex == n && n >= 8)) {
		emit(sc, off, n, V_KV, koff, klen);
		return;
	}
	add_value(sc->m, off, n, V_WORD, koff, klen);
}

static size_t digits(const struct scan *sc, size_t i)
{
	size_t j = i;
	while (j < sc->len && is_digit(sc->s[j]))
		j++;
	return j - i;
}

/* Does a token end at i: end of message, or a byte that cannot continue a
 * word?  A '.' or '-' continues a word only when a word byte follows it
 * ("1.2.3", "0-9"), so "took 12." ends at the dot. */
static int ends_at(const struct scan *sc, size_t i)
{
	unsigned char c = AT(sc, i);
	if (i >= sc->len)
		return 1;
	if (c == '.' || c == '-')
		return !is_alnum(AT(sc, i + 1)) && AT(sc, i + 1) != '_';
	return !is_word(c);
}

struct unit {
	const char *name;
	uint8_t len, type;
};
static const struct unit units[] = {
	{ "B", 1, V_SIZE }, { "K", 1, V_SIZE }, { "M", 1, V_SIZE }, { "G", 1, V_SIZE },
	{ "T", 1, V_SIZE }, { "KB", 2, V_SIZE }, { "MB", 2, V_SIZE }, { "GB", 2, V_SIZE },
	{ "TB", 2, V_SIZE }, { "PB", 2, V_SIZE }, { "kB", 2, V_SIZE }, { "KiB", 3, V_SIZE },
	{ "MiB", 3, V_SIZE }, { "GiB", 3, V_SIZE }, { "TiB", 3, V_SIZE }, { "PiB", 3, V_SIZE },
	{ "bytes", 5, V_SIZE },
	{ "s", 1, V_DURATION }, { "h", 1, V_DURATION }, { "ms", 2, V_DURATION },
	{ "us", 2, V_DURATION }, { "ns", 2, V_DURATION }, { "sec", 3, V_DURATION },
	{ "min", 3, V_DURATION }, { "µs", 3, V_DURATION }, { "secs", 4, V_DURATION },
	{ "mins", 4, V_DURATION }, { "it/s", 4, V_DURATION }, { "s/it", 4, V_DURATION },
	{ "hours", 5, V_DURATION }, { "second", 6, V_DURATION }, { "seconds", 7, V_DURATION },
	{ "minutes", 7, V_DURATION },
};

/* The unit word at i ("GB", "it/s"), ending there: its length and *type,
 * or 0. */
static size_t unit_at(const struct scan *sc, size_t i, int *type)
{
	size_t j = i;
	while (j < sc->len && j - i < 8 && (is_alpha(sc->s[j]) || sc->s[j] == '/' ||
					     sc->s[j] == 0xc2 || sc->s[j] == 0xb5))
		j++;
	if (j == i || !ends_at(sc, j))
		return 0;
	for (size_t k = 0; k < sizeof(units) / sizeof(units[0]); k++)
		if (units[k].len == j - i && memcmp(sc->s + i, units[k].name, j - i) == 0) {
			*type = units[k].type;
			return j - i;
		}
	return 0;
}

/* A plain decimal number at i (digits, fraction, exponent): its length. */
static size_t number_at(const struct scan *sc, size_t i, int *is_float)
{
	size_t j = i + digits(sc, i);
	*is_float = 0;
	if (j == i)
		return 0;
	if (AT(sc, j) == '.' && is_digit(AT(sc, j + 1))) {
		j += 1 + digits(sc, j + 1);
		*is_float = 1;
	}
	if ((AT(sc, j) | 32) == 'e') {
		size_t k = j + 1;
		if (AT(sc, k) == '+' || AT(sc, k) == '-')
			k++;
		if (is_digit(AT(sc, k))) {
			j = k + digits(sc, k);
			*is_float = 1;
		}
	}
	return j - i;
}

/* YYYY-MM-DD or YYYY/MM/DD (optionally joined by 'T' to a time, with a
 * zone), or DD/MM/YYYY. */
static size_t time_at(const struct scan *sc, size_t i);
static size_t date_at(const struct scan *sc, size_t i)
{
	size_t a = digits(sc, i), j;
	unsigned char sep = AT(sc, i + a);
	if (sep != '-' && sep != '/')
		return 0;
	size_t b = digits(sc, i + a + 1);
	if (b < 1 || b > 2 || AT(sc, i + a + 1 + b) != sep)
		return 0;
	size_t c = digits(sc, i + a + b + 2);
	if (!((a == 4 && c >= 1 && c <= 2) || (a >= 1 && a <= 2 && c == 4)))
		return 0;
	j = i + a + b + c + 2;
	if (AT(sc, j) == 'T' && is_digit(AT(sc, j + 1))) {
		size_t t = time_at(sc, j + 1);
		if (t) {
			j += 1 + t;
			if (AT(sc, j) == 'Z')
				j++;
			else if ((AT(sc, j) == '+' || AT(sc, j) == '-') && digits(sc, j + 1) == 2 &&
				 AT(sc, j + 3) == ':' && digits(sc, j + 4) == 2)
				j += 6;
		}
	}
	return j - i;
}

static int name_in(const struct scan *sc, size_t i, const char *names)
{
	if (i + 3 > sc->len || (i + 3 < sc->len && is_alnum(sc->s[i + 3])))
		return 0;
	for (const char *n = names; *n; n += 3)
		if (memcmp(sc->s + i, n, 3) == 0)
			return 1;
	return 0;
}

/* A written-out date: "[Sun ]Jul 10[ 03:55:21[ 2005]]", with the month
 * as three letters and a day number after it. */
static size_t date_words_at(const struct scan *sc, size_t i)
{
	size_t j = i, d;
	if (name_in(sc, j, "MonTueWedThuFriSatSun") && AT(sc, j + 3) == ' ')
		j += 4;
	if (!name_in(sc, j, "JanFebMarAprMayJunJulAugSepOctNovDec"))
		return 0;
	j += 3;
	while (AT(sc, j) == ' ' && j < i + 16)
		j++;
	d = digits(sc, j);
	if (j == i + 3 || d < 1 || d > 2 || !ends_at(sc, j + d))
		return 0;
	j += d;
	/* "Jan 02 2024", "Jan 2, 2024": the year before the time. */
	size_t y = AT(sc, j) == ',' ? j + 2 : j + 1;
	if (AT(sc, y - 1) == ' ' && digits(sc, y) == 4 && ends_at(sc, y + 4))
		j = y + 4;
	if (AT(sc, j) == ' ' && (d = time_at(sc, j + 1)) && ends_at(sc, j + 1 + d)) {
		j += 1 + d;
		if (AT(sc, j) == ' ' && digits(sc, j + 1) == 4 && ends_at(sc, j + 5))
			j += 5;
	}
	return j - i;
}

/* A date that names its month after the day: "02 Jan 2024" or
 * "02-Jan-2024" (a longer name, "02 January 2024", too), with the time
 * after it, when there is one, after a blank or a colon. */
static size_t day_month_at(const struct scan *sc, size_t i)
{
	size_t d = digits(sc, i), j = i + d, t;
	unsigned char sep = AT(sc, j);
	if (d < 1 || d > 2 || (sep != ' ' && sep != '-') ||
	    !is_alpha(AT(sc, j + 1)) || j + 4 > sc->len)
		return 0;
	j++;
	int named = 0;
	for (const char *n = "JanFebMarAprMayJunJulAugSepOctNovDec"; *n && !named; n += 3)
		named = memcmp(sc->s + j, n, 3) == 0;
	if (!named)
		return 0;
	j += 3;
	while (j < sc->len && is_alpha(sc->s[j]) && j < i + 16)
		j++;
	if (AT(sc, j) != sep || digits(sc, j + 1) != 4 || !ends_at(sc, j + 5))
		return 0;
	j += 5;
	if ((AT(sc, j) == ' ' || AT(sc, j) == ':') && (t = time_at(sc, j + 1)) && ends_at(sc, j + 1 + t))
		j += 1 + t;
	return j - i;
}

/* H:MM, HH:MM:SS, with an optional fraction (".123" or ",123"). */
static size_t time_at(const struct scan *sc, size_t i)
{
	size_t h = digits(sc, i);
	if (h < 1 || h > 2 || AT(sc, i + h) != ':' || digits(sc, i + h + 1) != 2)
		return 0;
	size_t j = i + h + 3;
	if (AT(sc, j) == ':' && digits(sc, j + 1) == 2 && !is_digit(AT(sc, j + 3)))
		j += 3;
	if ((AT(sc, j) == '.' || AT(sc, j) == ',') && is_digit(AT(sc, j + 1)))
		j += 1 + digits(sc, j + 1);
	return j - i;
}

/* Dotted IPv4 with an optional port. */
static size_t ipv4_at(const struct scan *sc, size_t i)
{
	size_t j = i;
	for (int k = 0; k < 4; k++) {
		size_t d = digits(sc, j);
		if (d < 1 || d > 3)
			return 0;
		j += d;
		if (k < 3) {
			if (AT(sc, j) != '.')
				return 0;
			j++;
		}
	}
	if (AT(sc, j) == ':' && is_digit(AT(sc, j + 1)))
		j += 1 + digits(sc, j + 1);
	return j - i;
}

/* IPv6: hex groups and colons with a "::" or all eight groups, so that
 * times ("12:30:01") and C++ scopes ("a::b") are not taken. */
static size_t ipv6_at(const struct scan *sc, size_t i)
{
	size_t j = i, colons = 0, group = 0;
	int dbl = 0;
	while (j < sc->len) {
		unsigned char c = sc->s[j];
		if (c == ':') {
			if (AT(sc, j + 1) == ':') {
				if (dbl)
					return 0;
				dbl = 1;
			}
			colons++;
			group = 0;
		} else if (is_hex(c)) {
			if (++group > 4)
				return 0;
		} else {
			break;
		}
		j++;
	}
	if (colons < 2 || (!dbl && colons != 7) || colons > 8)
		return 0;
	if (j < sc->len && (is_word(sc->s[j]) && sc->s[j] != '.'))
		return 0;
	return j - i;
}

/* scheme://... up to a space, a quote or an angle bracket, without
 * trailing punctuation. */
static size_t url_at(const struct scan *sc, size_t i)
{
	size_t j = i;
	while (j < sc->len && (is_alnum(sc->s[j]) || sc->s[j] == '+' || sc->s[j] == '-' || sc->s[j] == '.'))
		j++;
	if (j == i || j - i > 16 || AT(sc, j) != ':' || AT(sc, j + 1) != '/' || AT(sc, j + 2) != '/')
		return 0;
	j += 3;
	while (j < sc->len && !is_space(sc->s[j]) && sc->s[j] != '"' && sc->s[j] != '\'' &&
	       sc->s[j] != '<' && sc->s[j] != '>' && sc->s[j] != '\0')
		j++;
	while (j > i && strchr(".,;:)]}", sc->s[j - 1]) && sc->s[j - 1])
		j--;
	return j - i;
}

static int path_byte(unsigned char c)
{
	switch (c) {
	case ' ': case '\t': case '\0': case '"': case '\'': case '`': case ',':
	case ';': case ':': case '(': case ')': case '[': case ']': case '{':
	case '}': case '<': case '>': case '|': case '=':
		return 0;
	}
	return 1;
}

/* An absolute or relative path: "/a/b", "./a", "../a", "~/a", "C:\a". */
static size_t path_at(const struct scan *sc, size_t i)
{
	size_t j = i;
	unsigned char c = sc->s[i];
	if (c == '/') {
		unsigned char d = AT(sc, i + 1);
		if (!(is_alnum(d) || d == '_' || d == '.' || d == '~' || d == '-' || d >= 0x80))
			return 0;
		if (is_digit(d) && ipv4_at(sc, i + 1))
			return 0;   /* "/10.0.0.1:80": the address is the value */
	} else if (c == '~' && AT(sc, i + 1) == '/') {
		j++;
	} else if (c == '.') {
		if (AT(sc, i + 1) == '.')
			j++;
		if (AT(sc, j + 1) != '/')
			return 0;
		j++;
	} else if (is_alpha(c) && AT(sc, i + 1) == ':' && AT(sc, i + 2) == '\\') {
		j += 2;
	} else {
		return 0;
	}
	while (j < sc->len && (path_byte(sc->s[j]) || sc->s[j] == '\\'))
		j++;
	while (j > i + 1 && sc->s[j - 1] == '.')
		j--;
	return j - i;
}

/* A number at i with what follows it: a unit ("12 s", "76.3 GB",
 * "512MiB", "3.1it/s"), a percent sign.  0 unless the whole token is
 * numeric. */
/* The rest of a compound duration as Go prints it ("5m0s", "1h2m3.5s",
 * "24h0m0s"), from j just after its first number: its length, or 0.  A
 * part of it is an "h" or "m" followed by the next number, so "5m" alone
 * (meters, minutes?) is not one; the last part has any duration unit. */
static size_t compound_duration_at(const struct scan *sc, size_t j)
{
	size_t k = j;
	int is_float, ut;
	while ((AT(sc, k) == 'h' || AT(sc, k) == 'm') && is_digit(AT(sc, k + 1))) {
		size_t n = number_at(sc, k + 1, &is_float);
		k += 1 + n;
		size_t u = unit_at(sc, k, &ut);
		if (u && ut == V_DURATION)
			return k + u - j;
	}
	return 0;
}

static size_t quantity_at(const struct scan *sc, size_t i, int *type)
{
	size_t j = i, n;
	int is_float;
	if (sc->s[j] == '-' || sc->s[j] == '+')
		j++;
	n = number_at(sc, j, &is_float);
	if (!n)
		return 0;
	j += n;
	*type = is_float ? V_FLOAT : V_INT;
	if (AT(sc, j) == '%')
		return *type = V_PERCENT, j + 1 - i;
	int ut;
	size_t u = compound_duration_at(sc, j);
	if (u)
		return *type = V_DURATION, j + u - i;
	u = unit_at(sc, j, &ut);
	if (u)
		return *type = ut, j + u - i;
	if (!ends_at(sc, j))
		return 0;
	if (AT(sc, j) == ' ' && (u = unit_at(sc, j + 1, &ut)))
		return *type = ut, j + 1 + u - i;
	return j - i;
}

/* A typed value starting with a letter, whose run of identifier bytes
 * ends at j: a URL, a Windows path, an IPv6 address, a written date. */
static size_t alpha_typed_at(const struct scan *sc, size_t i, size_t j, int *type)
{
	size_t n;
	if (AT(sc, j) == ':') {
		if ((n = url_at(sc, i)))
			return *type = V_URL, n;
		if ((n = path_at(sc, i)))
			return *type = V_PATH, n;
		if ((n = ipv6_at(sc, i)))
			return *type = V_IP, n;
	} else if (j - i == 3 && sc->s[i] >= 'A' && sc->s[i] <= 'Z' &&
		   (n = date_words_at(sc, i))) {
		return *type = V_DATE, n;
	}
	return 0;
}

static size_t ident_end(const struct scan *sc, size_t i)
{
	while (i < sc->len && is_ident(sc->s[i]))
		i++;
	return i;
}

/* The phrases after which a program writes a process's exit status
 * ("app-1 exited with code 1", "exit status 137", "==> Exited with
 * status 3", "exitcode: 1", "shutting down with code:100", "exiting with
 * code 2", "terminated with code 1", the "# Ended (code 1) at ..." of a
 * job runner such as Kaldi's run.pl, docker's "Exited (137)"), lower
 * case, each then a blank, ":" or ": " unless it ends in "(".  A bare
 * "with code" would take HTTP's ("responded with code 404") too: each
 * phrase says the process ends. */
static const char *const exit_phrases[] = {
	"exit code", "exited with code", "exit status", "exitcode", "exited with status",
	"down with code", "exiting with code", "terminated with code", "ended (code", "exited (",
};

/* Whether c (any case) may start an exit phrase. */
static int starts_exit_phrase(int c)
{
	c |= 32;
	for (size_t k = 0; k < sizeof(exit_phrases) / sizeof(exit_phrases[0]); k++)
		if (exit_phrases[k][0] == c)
			return 1;
	return 0;
}

/* The end of an exit phrase at s[i] (any case), past its blank, ":" or
 * ": ", or 0. */
static size_t exit_phrase_at(const char *s, size_t len, size_t i)
{
	for (size_t k = 0; k < sizeof(exit_phrases) / sizeof(exit_phrases[0]); k++) {
		size_t n = strlen(exit_phrases[k]), j = i + n;
		if (j >= len || strncasecmp(s + i, exit_phrases[k], n) != 0)
			continue;
		if (s[j - 1] == '(')
			return j;
		if (s[j] == ':')
			return j + 1 + (j + 1 < len && s[j + 1] == ' ');
		if (s[j] == ' ')
			return j + 1;
	}
	return 0;
}

/* Does an exit phrase end just before the number at i?  Its status,
 * 0 for success and anything else for failure, is what the line says:
 * it stays in the template (see mask.h). */
static int exit_status_at(const struct scan *sc, size_t i)
{
	size_t from = i > 24 ? i - 24 : 0;
	for (size_t b = from; b + 8 <= i; b++)
		if (starts_exit_phrase(sc->s[b]) && (b == 0 || !is_alnum(sc->s[b - 1])) &&
		    exit_phrase_at((const char *)sc->s, sc->len, b) == i)
			return 1;
	return 0;
}

/* Does "signal" (any case) end just before the number at i, after a
 * blank, ": ", " (" or "("?  The signal that ended a process, 15 from a
 * supervisor or 9 from the kernel, is what the line says: "Signal (15)
 * received." stays in the template as an exit status does. */
static int signal_number_at(const struct scan *sc, size_t i)
{
	size_t b = i;
	if (b > 0 && sc->s[b - 1] == '(')
		b--;
	if (b > 0 && sc->s[b - 1] == ' ')
		b--;
	if (b > 0 && sc->s[b - 1] == ':')
		b--;
	return b < i && b >= 6 && strncasecmp((const char *)sc->s + b - 6, "signal", 6) == 0 &&
	       (b == 6 || !is_alnum(sc->s[b - 7]));
}

int mask_exit_status(const char *t)
{
	size_t len = strlen(t);
	for (size_t i = 0; i < len; i++) {
		if (!starts_exit_phrase((unsigned char)t[i]) || (i > 0 && is_alnum((unsigned char)t[i - 1])))
			continue;
		size_t j = exit_phrase_at(t, len, i), d = j;
		while (d < len && d - j < 4 && is_digit((unsigned char)t[d]))
			d++;
		if (j && d > j && d - j <= 3 && (d == len || !is_alnum((unsigned char)t[d])))
			return atoi(t + j);
	}
	return -1;
}

/* Whether the word at s[i..len) names failures ("failed", "errors",
 * "Failures", "warnings"), in any case. */
static int failure_word_at(const unsigned char *s, size_t len, size_t i)
{
	static const char *const words[] = { "fail", "error", "warn", NULL };
	for (size_t k = 0; words[k]; k++) {
		size_t n = strlen(words[k]);
		if (i + n <= len && strncasecmp((const char *)s + i, words[k], n) == 0)
			return 1;
	}
	return 0;
}

/* Whether the word before the blank at s[i] joins a count to what it
 * counts ("with 0 warnings", "and 0 errors"), or no word comes before it
 * at all ("; 0 failed", ": 0 errors", the line's start). */
static int count_before(const unsigned char *s, size_t i)
{
	if (i == 0)
		return 1;
	size_t b = i;
	while (b > 0 && is_alpha(s[b - 1]))
		b--;
	if (b == i)
		return !is_alnum(s[i - 1]);
	size_t n = i - b;
	return (b == 0 || !is_alnum(s[b - 1])) && ((n == 4 && strncasecmp((const char *)s + b, "with", 4) == 0) ||
						   (n == 3 && strncasecmp((const char *)s + b, "and", 3) == 0));
}

/* Is the number at i a count of zero failures: a lone "0" that counts
 * (count_before) a word that names them ("; 0 failed", "with 0 errors")
 * or after one and ": " or "=" ("Failures: 0", "# FAIL:  0", "failed=0")?  None failed: the
 * line says all went well, unlike the same line with a count of one, so
 * the 0 stays in the template (see mask.h).  "worker 0 failed" names
 * worker 0. */
static int zero_failures_at(const struct scan *sc, size_t i)
{
	const unsigned char *s = sc->s;
	if (s[i] != '0' || is_alnum(AT(sc, i + 1)) || AT(sc, i + 1) == '.')
		return 0;
	if (AT(sc, i + 1) == ' ' && failure_word_at(s, sc->len, i + 2) &&
	    (i == 0 || (s[i - 1] == ' ' ? count_before(s, i - 1) : !is_alnum(s[i - 1]))))
		return 1;
	size_t c = i;
	while (c > 0 && s[c - 1] == ' ')
		c--;   /* aligned in columns: automake's "# FAIL:  0" */
	if (c < 2 || (c == i) != (s[c - 1] == '=') || (s[c - 1] != ':' && s[c - 1] != '='))
		return 0;   /* "Failures: 0", or Ansible's "failed=0" */
	size_t b = c - 1;
	while (b > 0 && is_alpha(s[b - 1]))
		b--;
	return (b == 0 || !is_alnum(s[b - 1])) && failure_word_at(s, c - 1, b);
}

/* A typed value starting at token start i: its length and *type, or 0.
 * The bytes after the leading digits pick the shapes worth trying. */
static size_t typed_at(const struct scan *sc, size_t i, int *type)
{
	unsigned char c = sc->s[i];
	size_t n;
	if (is_digit(c)) {
		size_t d = digits(sc, i);
		unsigned char next = AT(sc, i + d);
		if (c == '0' && d == 1 && (next | 32) == 'x' && is_hex(AT(sc, i + 2))) {
			n = 2;
			while (i + n < sc->len && is_hex(sc->s[i + n]))
				n++;
			if (ends_at(sc, i + n))
				return *type = V_HEX, n;
			return 0;
		}
		if ((next == '-' || next == '/') && (n = date_at(sc, i)) && ends_at(sc, i + n))
			return *type = V_DATE, n;
		if ((next == ' ' || next == '-') && d <= 2 && (n = day_month_at(sc, i)))
			return *type = V_DATE, n;
		if (next == '.' && d <= 3 && (n = ipv4_at(sc, i)) && ends_at(sc, i + n))
			return *type = V_IP, n;
		if (next == ':' && (n = time_at(sc, i)) && ends_at(sc, i + n)) {
			size_t k;
			/* tqdm's "elapsed<remaining" is one duration. */
			if (AT(sc, i + n) == '<' && is_digit(AT(sc, i + n + 1)) &&
			    (k = time_at(sc, i + n + 1)) && ends_at(sc, i + n + 1 + k))
				return *type = V_DURATION, n + 1 + k;
			return *type = V_TIME, n;
		}
		if ((next == ':' || (is_hex(next) && !is_digit(next))) && (n = ipv6_at(sc, i)))
			return *type = V_IP, n;
		return quantity_at(sc, i, type);
	}
	if ((c == '-' || c == '+') && is_digit(AT(sc, i + 1)))
		return quantity_at(sc, i, type);
	/* A bound: "<1 sec", "~3 GB". */
	if ((c == '<' || c == '>' || c == '~') && is_digit(AT(sc, i + 1)) &&
	    (n = quantity_at(sc, i + 1, type)))
		return n + 1;
	if (c == '/' || c == '.' || c == '~')
		return (n = path_at(sc, i)) ? (*type = V_PATH, n) : 0;
	if (c == ':')
		return (n = ipv6_at(sc, i)) ? (*type = V_IP, n) : 0;
	if (is_alpha(c))
		return alpha_typed_at(sc, i, ident_end(sc, i), type);
	return 0;
}

/* A progress bar, as tqdm and its kin draw it, is one template at any
 * progress: its body between the '|' after the percentage and the next
 * '|' (block glyphs, '#', '=', '>', spaces: "▏      ", "█████", "##  ")
 * and its rate bracket ("[00:30<20:11,  2.53s/it]", "[00:00<?, ?it/s]")
 * are values of their own.  The body's length at i (just after the
 * first '|'), the closing '|' excluded, or SIZE_MAX when there is none.
 * A bar is as wide as the terminal it was drawn for, BAR_COLUMNS at
 * most; a column of block glyphs takes three bytes. */
#define BAR_COLUMNS 512
static size_t bar_body_at(const struct scan *sc, size_t i)
{
	for (size_t j = i, cols = 0; j < sc->len && cols++ <= BAR_COLUMNS;) {
		unsigned char c = sc->s[j];
		if (c == '|')
			return j - i;
		if (c == ' ' || c == '#' || c == '=' || c == '>' || c == '-')
			j++;
		else if (c == 0xe2 && AT(sc, j + 1) == 0x96 && AT(sc, j + 2) >= 0x80 && AT(sc, j + 2) <= 0x9f)
			j += 3;   /* U+2580..U+259F, block elements */
		else
			return SIZE_MAX;
	}
	return SIZE_MAX;
}

/* The length of a rate bracket's content at i (just after its '['): an
 * elapsed time, '<', what remains, ',', a rate in units/s or s/unit,
 * then ']'; 0 for any other bracket. */
static size_t rate_bracket_at(const struct scan *sc, size_t i)
{
	if (!is_digit(AT(sc, i)))
		return 0;
	int lt = 0, comma = 0, slash = 0;
	for (size_t j = i; j < sc->len && j - i <= 64; j++) {
		switch (sc->s[j]) {
		case '<': lt = 1; break;
		case ',': comma = lt; break;
		case '/': slash = comma; break;
		case '[': return 0;
		case ']': return slash ? j - i : 0;
		}
	}
	return 0;
}

/* The end of the balanced group opening at i (one past its closer), or 0
 * when it does not close on this line.  Quotes inside are skipped. */
static size_t group_end(const struct scan *sc, size_t i)
{
	char stack[64];
	int depth = 0;
	size_t j = i;
	while (j < sc->len) {
		unsigned char c = sc->s[j++];
		if (is_open(c)) {
			if (depth == (int)sizeof(stack))
				return 0;
			stack[depth++] = (char)(c == '(' ? ')' : c == '[' ? ']' : '}');
		} else if (is_close(c)) {
			if (depth == 0 || stack[depth - 1] != (char)c)
				return 0;
			if (--depth == 0)
				return j;
		} else if (c == '\'' || c == '"') {
			while (j < sc->len && sc->s[j] != c)
				j += sc->s[j] == '\\' ? 2 : 1;
			if (j >= sc->len)
				return 0;
			j++;
		}
	}
	return 0;
}

/* A key at i: an identifier followed by '=' (not "=="), or a quoted
 * identifier followed by ':' (dict and JSON style).  Returns the length of
 * the key with its quotes and separator (and the space after a ':'), and
 * the key itself in *koff, *klen; 0 when there is none. */
static size_t key_at(const struct scan *sc, size_t i, size_t *koff, size_t *klen)
{
	unsigned char q = sc->s[i];
	size_t j = i;
	if (q == '\'' || q == '"') {
		j++;
		if (!is_alpha(AT(sc, j)) && AT(sc, j) != '_')
			return 0;
		while (j < sc->len && is_ident(sc->s[j]))
			j++;
		if (AT(sc, j) != q || AT(sc, j + 1) != ':')
			return 0;
		*koff = i + 1;
		*klen = j - i - 1;
		j += 2;
		while (j < sc->len && sc->s[j] == ' ')
			j++;
		return j - i;
	}
	if (!is_alpha(q) && q != '_')
		return 0;
	while (j < sc->len && is_ident(sc->s[j]))
		j++;
	if (AT(sc, j) != '=' || AT(sc, j + 1) == '=')
		return 0;
	*koff = i;
	*klen = j - i;
	return j + 1 - i;
}

/* Does the group opening at i hold key=value pairs (a dict, a call with
 * keyword arguments)?  Then the scanner enters it rather than masking it
 * whole, so that each inner value is kept on its own. */
static int group_has_keys(const struct scan *sc, size_t i)
{
	size_t j = i + 1, ko, kl;
	while (j < sc->len && is_space(sc->s[j]))
		j++;
	return j < sc->len && key_at(sc, j, &ko, &kl) > 0;
}

/* Can a value end at i?  At a separator, a closer, a quote or a full
 * stop ("mem usage=1.06 GB."). */
static int value_ends_at(const struct scan *sc, size_t i)
{
	unsigned char c = AT(sc, i);
	if (i >= sc->len || is_space(c) || (c && strchr(",;)]}'\"", c)))
		return 1;
	return c == '.' && !is_alnum(AT(sc, i + 1));
}

/* The value after a key, at i: masks it and returns where scanning goes
 * on.  A group of key=value pairs is entered instead (returns i). */
static size_t value_at(struct scan *sc, size_t i, size_t koff, size_t klen)
{
	unsigned char c = AT(sc, i);
	size_t j, n;
	int type;
	if (i >= sc->len || is_space(c) || c == ',' || c == ';' || is_close(c))
		return i;
	if (c == '\'' || c == '"') {
		for (j = i + 1; j < sc->len && sc->s[j] != c; j += sc->s[j] == '\\' ? 2 : 1)
			;
		if (j >= sc->len)
			return i;
		emit(sc, i + 1, j - i - 1, V_KV, koff, klen);
		return j + 1;
	}
	if (is_open(c) && group_has_keys(sc, i))
		return i;
	if ((n = typed_at(sc, i, &type)) && value_ends_at(sc, i + n)) {
		if (type == V_INT && n == 1 && zero_failures_at(sc, i))
			return i + n;   /* "failed=0": literal text */
		emit(sc, i, n, type, koff, klen);
		return i + n;
	}
	/* A bare value: up to a separator outside any group.  "Name(" opening
	 * keyword arguments is entered like a group. */
	for (j = i; j < sc->len; ) {
		c = sc->s[j];
		if (is_space(c) || c == ',' || c == ';' || is_close(c))
			break;
		if (is_open(c)) {
			if (group_has_keys(sc, j))
				return i;
			size_t e = group_end(sc, j);
			if (!e)
				break;
			j = e;
		} else {
			j++;
		}
	}
	if (j > i)
		emit_kv(sc, i, j - i, koff, klen);
	return j;
}

/* A short upper-case name ending in a digit or two ("SOCKS5", "MD5",
 * "HTTP2"): a word of the message, not a value. */
static int upper_name(const struct scan *sc, size_t i, size_t j)
{
	size_t k = i;
	while (k < j && sc->s[k] >= 'A' && sc->s[k] <= 'Z')
		k++;
	return k - i >= 2 && j - i <= 8 && j - k <= 2 && digits(sc, k) == j - k;
}

/* A qualified name of code whose module names hold digits
 * ("psycopg2.OperationalError", "urllib3.exceptions.MaxRetryError",
 * "h2.connection.H2Connection"): identifiers joined by dots, the last a
 * class name (an upper-case letter first, a lower-case one in it).  An
 * exception's name is what its line says, not a value. */
static int code_name(const struct scan *sc, size_t i, size_t j)
{
	size_t last = i, dots = 0;
	for (size_t k = i; k < j; k++) {
		unsigned char c = sc->s[k];
		if (c == '.') {
			if (k == last || k + 1 == j)
				return 0;
			dots++;
			last = k + 1;
		} else if (!is_ident(c) || c == '-' || (k == last && is_digit(c))) {
			return 0;
		}
	}
	if (!dots || sc->s[last] < 'A' || sc->s[last] > 'Z')
		return 0;
	for (size_t k = last; k < j; k++)
		if (sc->s[k] >= 'a' && sc->s[k] <= 'z')
			return 1;
	return 0;
}

/* Top-level domains a host name ends in.  Those that are also the
 * extensions of files a log names ("setup.py", "run.sh", "main.rs",
 * "README.md", "lib.so", "x.pl") are left out: a file is no host. */
static const char *const host_tlds[] = {
	"ai", "app", "arpa", "au", "biz", "ca", "ch", "cloud", "cn", "co",
	"com", "de", "dev", "edu", "eu", "fr", "gov", "home", "info", "int",
	"internal", "io", "jp", "kr", "lan", "local", "localdomain", "mil",
	"net", "nl", "org", "ru", "se", "site", "tech", "uk", "us", "xyz",
};

/* A host name ("awsu.duckdns.org", "db-1.prod.internal"): ASCII labels of
 * letters, digits and inner dashes joined by dots, the last a top-level
 * domain (host_tlds).  Hosts differ from run to run as addresses do, so
 * "Requesting a certificate for a.example.org" on one machine is the
 * step another prints for b.example.net. */
static int host_name(const struct scan *sc, size_t i, size_t j)
{
	size_t last = i, dots = 0;
	for (size_t k = i; k < j; k++) {
		unsigned char c = sc->s[k];
		if (c == '.') {
			if (k == last || sc->s[k - 1] == '-')
				return 0;
			dots++;
			last = k + 1;
		} else if (!is_alnum(c) && !(c == '-' && k > last)) {
			return 0;
		}
	}
	if (!dots || last == j)
		return 0;
	size_t n = j - last;
	for (size_t t = 0; t < sizeof(host_tlds) / sizeof(*host_tlds); t++)
		if (strlen(host_tlds[t]) == n && memcmp(host_tlds[t], sc->s + last, n) == 0)
			return 1;
	return 0;
}

/* The length of the shell prompt msg starts with, or 0: "$ ", a
 * "user@host:dir$ " or "# " (bash's), "[user@host dir]$ " (Red Hat's),
 * each behind an optional "(venv) ", PowerShell's "PS C:\\dir> ",
 * cmd.exe's "C:\\dir>", zsh themes' "❯ " and "➜  dir ".  A bare "# " or
 * "> " is no prompt: comments and quotes start so. */
static size_t prompt_at(const unsigned char *s, size_t len)
{
	size_t i = 0;
	if (len > 2 && s[0] == '(') {   /* a virtualenv's or conda's name */
		while (i < len && i < 64 && s[i] != ')' && s[i] != ' ')
			i++;
		if (i + 1 >= len || s[i] != ')' || s[i + 1] != ' ')
			i = 0;
		else
			i += 2;
	}
	size_t p = i;
	if (p >= len)
		return 0;
	if (len - p > 2 && s[p] == '$' && s[p + 1] == ' ')
		return p + 2;
	if (len - p > 4 && (!memcmp(s + p, "\xe2\x9d\xaf ", 4)))   /* ❯ */
		return p + 4;
	if (len - p > 4 && !memcmp(s + p, "\xe2\x9e\x9c ", 4)) {   /* ➜  dir */
		size_t k = p + 4;
		while (k < len && s[k] == ' ')
			k++;
		while (k < len && s[k] != ' ')
			k++;
		return k + 1 < len ? k + 1 : 0;
	}
	if (len - p > 5 && !memcmp(s + p, "PS ", 3) && is_alpha(s[p + 3]) && s[p + 4] == ':') {
		for (size_t k = p + 5; k + 1 < len && k < p + 200; k++)
			if (s[k] == '>' && s[k + 1] == ' ')
				return k + 2;
		return 0;
	}
	if (len - p > 4 && is_alpha(s[p]) && s[p + 1] == ':' && s[p + 2] == '\\') {
		for (size_t k = p + 3; k + 1 < len && k < p + 200 && s[k] != ' '; k++)
			if (s[k] == '>' && is_alpha(s[k + 1]))
				return k + 1;
		return 0;
	}
	/* user@host:dir$ and [user@host dir]$: an '@' in the first word, a
	 * '$' or '#' ending it or the bracket, then a blank. */
	size_t k = p + (s[p] == '[');
	int at = 0;
	for (; k < len && k < p + 200 && s[k] != ' '; k++)
		at |= s[k] == '@';
	if (s[p] == '[')
		while (k < len && k < p + 200 && s[k] != ']')
			k++;
	if (!at || k < 2 || k >= len)
		return 0;
	size_t e = k;   /* "user@host:~$" or "...]$" */
	if (s[p] == '[' && s[e] == ']')
		e++;
	if (e + 1 < len && (s[e] == '$' || s[e] == '#') && s[e + 1] == ' ')
		return e + 2;
	if (e >= 1 && (s[e - 1] == '$' || s[e - 1] == '#') && s[e] == ' ' && s[p] != '[')
		return e + 1;
	return 0;
}

/* When the word s[i..j) starts a wrapper, a command that only runs what
 * follows it (sudo, env, time, nohup and their kin, "uv run", "poetry
 * run", "python -m": the words after them name the program), where the
 * wrapper ends; else 0. */
static size_t wrapper_at(const unsigned char *s, size_t len, size_t i, size_t j)
{
	static const char *const alone[] = { "sudo", "env", "time", "nohup", "exec", "nice", "npx",
					     "command", NULL };
	static const char *const with_run[] = { "uv", "poetry", "pipenv", "pdm", "hatch", "rye",
						"conda", "pixi", NULL };
	for (int k = 0; alone[k]; k++)
		if (j - i == strlen(alone[k]) && !memcmp(s + i, alone[k], j - i))
			return j;
	for (int k = 0; with_run[k]; k++)
		if (j - i == strlen(with_run[k]) && !memcmp(s + i, with_run[k], j - i) &&
		    len - j > 4 && !memcmp(s + j, " run", 4) && (j + 4 == len || s[j + 4] == ' '))
			return j + 4;
	if (j - i >= 6 && !memcmp(s + i, "python", 6) && len - j > 3 && !memcmp(s + j, " -m", 3) &&
	    (j + 3 == len || s[j + 3] == ' '))
		return j + 3;
	return 0;
}

/* A command typed at a shell prompt: its template is the prompt's "$"
 * and the command's name and subcommands ("$ vault server <*>", "$ npm
 * run lint <*>"), the rest one value.  Two runs of one step differ in
 * their prompt (user and host) and in their arguments (files, flags),
 * so that the command that started each run is one step of both.
 * Wrappers (sudo, "uv run", "python -m") and variables set for the
 * command are skipped; the name ends at the first word that is no plain
 * word (an option, a path, a file, a number, an assignment).  Returns
 * 0 when msg is no such line. */
static int mask_command(const char *msg, size_t len, struct masked *m)
{
	const unsigned char *s = (const unsigned char *)msg;
	size_t i = len > 2 ? prompt_at(s, len) : 0;
	if (!i)
		return 0;
	size_t name = SIZE_MAX, end = i;
	buf_append(&m->text, "$", 1);
	while (i < len) {
		while (i < len && s[i] == ' ')
			i++;
		size_t j = i;
		int plain = 1, assign = 0;
		while (j < len && s[j] != ' ') {
			plain &= is_alpha(s[j]) || s[j] == '-' || s[j] == '_' || s[j] == ':' ||
				 (is_digit(s[j]) && name == SIZE_MAX);
			assign |= s[j] == '=';
			j++;
		}
		if (j == i)
			break;
		size_t wrapped = name == SIZE_MAX ? wrapper_at(s, len, i, j) : 0;
		if (name == SIZE_MAX && (assign || s[i] == '-'))   /* VAR=1 cmd, sudo -E */
			;
		else if (wrapped)
			j = wrapped;
		else if (plain && s[i] != '-')
			name = name == SIZE_MAX ? i : name;
		else
			break;
		if (name != SIZE_MAX) {
			buf_append(&m->text, " ", 1);
			buf_append(&m->text, msg + i, j - i);
		}
		end = i = j;
	}
	if (name == SIZE_MAX) {
		buf_reset(&m->text);
		return 0;
	}
	while (end < len && s[end] == ' ')
		end++;
	if (end < len) {
		buf_append(&m->text, " ", 1);
		buf_append(&m->text, placeholders[V_KV], placeholder_len[V_KV]);
		add_value(m, end, len - end, V_KV, 0, 0);
	}
	return 1;
}

void mask_message(const char *msg, size_t len, struct masked *m)
{
	struct scan sc = { .s = (const unsigned char *)msg, .len = len, .m = m };
	size_t i = 0;
	buf_reset(&m->text);
	m->nv = 0;
	if (mask_command(msg, len, m))
		return;
	while (i < len) {
		unsigned char c = sc.s[i];
		size_t n, koff, klen;
		int type;
		if (c == '\0') {
			/* Template texts are C strings: a NUL byte shows as U+FFFD. */
			put(&m->text, sc.s + sc.lit, i - sc.lit);
			put(&m->text, "\xef\xbf\xbd", 3);
			sc.lit = ++i;
			continue;
		}
		if (is_space(c) || (i > 0 && is_word(sc.s[i - 1]) && c != '\'' && c != '"')) {
			i++;
			continue;
		}
		/* At a token start.  A letter starts a key, a typed value or a
		 * word, told apart by what ends its run of identifier bytes. */
		size_t j = i;        /* the word's end, as far as scanned */
		unsigned kinds = 0;  /* the kinds of its bytes up to j */
		if (is_alpha(c) || c == '_') {
			/* The identifier run, scanned once for both uses. */
			while (j < len && is_ident(sc.s[j]))
				kinds |= kind[sc.s[j++]];
			if (AT(&sc, j) == '=' && AT(&sc, j + 1) != '=') {
				i = value_at(&sc, j + 1, i, j - i);
				continue;
			}
			if ((AT(&sc, j) == ':' || j - i == 3) &&
			    (n = alpha_typed_at(&sc, i, j, &type))) {
				emit(&sc, i, n, type, 0, 0);
				i += n;
				continue;
			}
		} else if ((c == '\'' || c == '"') && (n = key_at(&sc, i, &koff, &klen))) {
			i = value_at(&sc, i + n, koff, klen);
			continue;
		} else if ((n = typed_at(&sc, i, &type))) {
			if (type == V_INT && n <= 3 && (exit_status_at(&sc, i) || signal_number_at(&sc, i) || zero_failures_at(&sc, i))) {
				i += n;   /* literal text */
				continue;
			}
			/* "1190 bytes (1.16 KB)": the same value twice is one. */
			size_t e = i + n, k;
			int t2;
			if (AT(&sc, e) == ' ' && AT(&sc, e + 1) == '(' && is_digit(AT(&sc, e + 2)) &&
			    (k = typed_at(&sc, e + 2, &t2)) && AT(&sc, e + 2 + k) == ')')
				n += 3 + k;
			emit(&sc, i, n, type, 0, 0);
			i += n;
			continue;
		}
		if (c == '|' && i > 0 && sc.s[i - 1] == '%' && (n = bar_body_at(&sc, i + 1)) != SIZE_MAX) {
			if (n)
				emit(&sc, i + 1, n, V_KV, 0, 0);
			i += n + 2;
			continue;
		}
		if (c == '[' && (n = rate_bracket_at(&sc, i + 1))) {
			emit(&sc, i + 1, n, V_DURATION, 0, 0);
			i += n + 2;
			continue;
		}
		if (!is_word(c)) {
			i++;
			continue;
		}
		/* A word: variable when it holds a digit ("blk_-69522",
		 * "req-38101a0b-...", "node-246"); trailing dots and dashes
		 * stay literal. */
		while (j < len && is_word(sc.s[j]))
			kinds |= kind[sc.s[j++]];
		while (j > i + 1 && (sc.s[j - 1] == '.' || sc.s[j - 1] == '-'))
			j--;
		if ((kinds & K_DIGIT) && !upper_name(&sc, i, j) && !code_name(&sc, i, j))
			emit(&sc, i, j - i, V_ID, 0, 0);
		else if (host_name(&sc, i, j))
			emit(&sc, i, j - i, V_HOST, 0, 0);
		i = j;
	}
	put(&m->text, sc.s + sc.lit, len - sc.lit);
	if (!m->text.p)
		buf_append(&m->text, "", 0);   /* an empty message: "" */
}

void masked_free(struct masked *m)
{
	buf_free(&m->text);
	free(m->v);
	m->v = NULL;
	m->nv = m->cap = 0;
}

/* The SWAR byte tests below set the high bit of each byte of a 64-bit word
 * that passes, exactly (no borrow or carry crosses a byte). */
#define ONES  0x0101010101010101ull
#define LOW7  0x7f7f7f7f7f7f7f7full
static inline uint64_t digit_bytes(uint64_t x)
{
	uint64_t low = x & LOW7;
	return (ONES * (127 + ':') - low) & ~x & (low + ONES * (127 - '/')) & ~LOW7;
}

static inline uint64_t zero_char_bytes(uint64_t x)
{
	uint64_t y = x ^ (ONES * '0');
	return ~(((y & LOW7) + LOW7) | y) & ~LOW7;
}

static inline char key_byte(const unsigned char *s, size_t len, size_t i)
{
	if (!is_digit(s[i]))
		return (char)s[i];
	int lone0 = s[i] == '0' && (i == 0 || !is_digit(s[i - 1])) &&
		    (i + 1 == len || !is_digit(s[i + 1]));
	return lone0 ? '0' : '1';
}

/* Key bytes i..i+7 (i >= 1), given the word after them: a digit becomes
 * '1', a lone '0' stays. */
static inline void key_word(const unsigned char *s, size_t i, uint64_t next, char *o)
{
	uint64_t w, prev;
	memcpy(&w, s + i, 8);
	memcpy(&prev, s + i - 1, 8);
	uint64_t dig = (digit_bytes(w) >> 7) * 0xff;
	uint64_t lone0 = (zero_char_bytes(w) & ~digit_bytes(prev) & ~digit_bytes(next)) >> 7;
	w = (w & ~dig) | (ONES * '1' & dig);
	w ^= lone0 * ('1' ^ '0');
	memcpy(o + i, &w, 8);
}

#ifdef __SSE2__
static inline __m128i digits16(__m128i x)
{
	return _mm_and_si128(_mm_cmpgt_epi8(x, _mm_set1_epi8('0' - 1)),
			     _mm_cmplt_epi8(x, _mm_set1_epi8('9' + 1)));
}

/* key_word for sixteen bytes i..i+15 (i >= 1, byte i+16 readable). */
static inline void key_block(const unsigned char *s, size_t i, char *o)
{
	__m128i w = _mm_loadu_si128((const __m128i *)(s + i));
	__m128i prev = _mm_loadu_si128((const __m128i *)(s + i - 1));
	__m128i next = _mm_loadu_si128((const __m128i *)(s + i + 1));
	__m128i dig = digits16(w);
	__m128i lone0 = _mm_andnot_si128(_mm_or_si128(digits16(prev), digits16(next)),
					 _mm_cmpeq_epi8(w, _mm_set1_epi8('0')));
	w = _mm_or_si128(_mm_andnot_si128(dig, w), _mm_and_si128(dig, _mm_set1_epi8('1')));
	w = _mm_xor_si128(w, _mm_and_si128(lone0, _mm_set1_epi8('1' ^ '0')));
	_mm_storeu_si128((__m128i *)(o + i), w);
}
#endif

void mask_key(const char *msg, size_t len, struct buf *key)
{
	const unsigned char *s = (const unsigned char *)msg;
	buf_reset(key);
	buf_reserve(key, len);
	char *o = key->p;
	size_t i = 0;
	if (len < 9) {
		for (; i < len; i++)
			o[i] = key_byte(s, len, i);
	} else {
		o[0] = key_byte(s, len, 0);
		i = 1;
#ifdef __SSE2__
		/* Sixteen bytes at a time where SSE2 is (every x86-64). */
		for (; i + 17 <= len; i += 16)
			key_block(s, i, o);
#endif
		/* Eight bytes at a time; the last word overlaps the one before
		 * it and has no byte after it. */
		uint64_t next;
		for (; i + 9 <= len; i += 8) {
			memcpy(&next, s + i + 1, 8);
			key_word(s, i, next, o);
		}
		if (i < len) {
			next = 0;
			memcpy(&next, s + len - 7, 7);
			key_word(s, len - 8, next, o);
		}
	}
	key->len = len;
	o[len] = '\0';
}

int mask_cacheable(const struct masked *m)
{
	for (size_t k = 0; k < m->nv; k++)
		if (m->v[k].type == V_ID || m->v[k].type == V_HEX)
			return 0;
	for (size_t i = 0; i < m->text.len; i++)
		if (is_digit((unsigned char)m->text.p[i]))
			return 0;
	return 1;
}
