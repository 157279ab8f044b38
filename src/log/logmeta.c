/* logmeta.c — what a log says about itself: configuration dumps, the
 * engine (as the rules' marks say), the port.  See logmeta.h.  These
 * scan a whole log once (the dumps and the port announcement are printed
 * once, at startup); the
 * per-line key=value recognition that masks values is mask.c's own fast
 * scanner, which shares nothing here but the idea. */
#include "logmeta.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "input.h"
#include "rules.h"

/* ---- the engine ---- */

const char *logmeta_engine(const struct ruleset *rs, const struct run_tmpl *t, size_t n,
			   const char *format)
{
	const char **texts = xmalloc((n ? n : 1) * sizeof(*texts));
	size_t *lens = xmalloc((n ? n : 1) * sizeof(*lens));
	for (size_t i = 0; i < n; i++)
		texts[i] = t[i].text, lens[i] = t[i].len;
	const char *e = rules_engine(rs, texts, lens, n, format);
	free(texts);
	free(lens);
	return e ? e : "other";
}

/* ---- the configuration ---- */

/* Add key=value to the configuration unless the key has a value already:
 * the first value wins. */
static void config_add(const char *k, size_t kl, const char *v, size_t vl, struct kv **out,
		       size_t *nout, size_t *cap, struct arena *a)
{
	for (size_t j = 0; j < *nout; j++)
		if (strlen((*out)[j].key) == kl && memcmp((*out)[j].key, k, kl) == 0)
			return;
	GROW(*out, *cap, *nout + 1);
	(*out)[*nout].key = arena_strndup(a, k, kl);
	(*out)[(*nout)++].value = arena_strndup(a, v, vl);
}

/* Add one "key=value" or "'key': value" item to the configuration. */
static void config_item(const char *p, size_t n, struct kv **out, size_t *nout, size_t *cap,
			struct arena *a)
{
	while (n && (*p == ' ' || *p == '\t'))
		p++, n--;
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	size_t i = 0;
	while (i < n && p[i] != '=' && p[i] != ':')
		i++;
	if (i == 0 || i + 1 >= n)
		return;
	const char *k = p, *v = p + i + 1;
	size_t kl = i, vl = n - i - 1;
	if (kl >= 2 && (k[0] == '\'' || k[0] == '"') && k[kl - 1] == k[0])
		k++, kl -= 2;
	while (vl && *v == ' ')
		v++, vl--;
	if (vl >= 2 && (v[0] == '\'' || v[0] == '"') && v[vl - 1] == v[0])
		v++, vl -= 2;
	for (size_t j = 0; j < kl; j++)
		if (!(k[j] == '_' || k[j] == '-' || k[j] == '.' ||
		      (k[j] >= 'a' && k[j] <= 'z') || (k[j] >= 'A' && k[j] <= 'Z') ||
		      (k[j] >= '0' && k[j] <= '9')))
			return;
	config_add(k, kl, v, vl, out, nout, cap, a);
}

/* Split p[0..n) at top-level ", " (outside brackets and quotes) into
 * items. */
static void config_items(const char *p, size_t n, struct kv **out, size_t *nout, size_t *cap,
			 struct arena *a)
{
	int depth = 0;
	char quote = 0;
	size_t start = 0;
	for (size_t i = 0; i < n; i++) {
		char c = p[i];
		if (quote) {
			if (c == '\\')
				i++;
			else if (c == quote)
				quote = 0;
		} else if (c == '\'' || c == '"') {
			quote = c;
		} else if (c == '(' || c == '[' || c == '{') {
			depth++;
		} else if (c == ')' || c == ']' || c == '}') {
			if (--depth < 0)
				n = i;
		} else if (c == ',' && depth == 0) {
			config_item(p + start, i - start, out, nout, cap, a);
			start = i + 1;
		}
	}
	if (start < n)
		config_item(p + start, n - start, out, nout, cap, a);
}

void logmeta_config(const struct ruleset *rs, const char *engine, const char *data, size_t size,
		    struct kv **out, size_t *n, struct arena *a)
{
	size_t cap = 0;
	*out = NULL;
	*n = 0;
	/* The engine's own dumps first, so that its values win over those
	 * of a dump another engine's rule finds (an SGLang log that quotes
	 * vLLM's arguments); then the rest, in the rules' order. */
	for (size_t k = 0; data && k < 2 * rs->n; k++) {
		const struct rule *r = &rs->r[k % rs->n];
		size_t from, to;
		int one;
		if (!r->config || (strcmp(r->engine, engine) == 0) != (k < rs->n) ||
		    !rules_config(r, data, size, &from, &to, &one))
			continue;
		if (one)
			config_add(r->name, strlen(r->name), data + from, to - from, out, n, &cap, a);
		else
			config_items(data + from, to - from, out, n, &cap, a);
	}
}

/* ---- the port ---- */

static int is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* A port number of 1..65535 at p (not followed by another digit). */
static int port_at(const char *p, const char *end, unsigned *port)
{
	unsigned v = 0;
	int k = 0;
	while (p + k < end && isdigit((unsigned char)p[k]) && k < 6)
		v = v * 10 + (unsigned)(p[k++] - '0');
	if (k == 0 || k > 5 || v == 0 || v > 65535)
		return 0;
	if (p + k < end && isdigit((unsigned char)p[k]))
		return 0;
	*port = v;
	return 1;
}

/* `port=N`, `'port': N`, `"port": N`, `--port N` / `--port=N`, with
 * "port" a whole word (so nccl_port=, --nccl-port are not it). */
static int port_word_at(const char *d, size_t i, const char *end, unsigned *port)
{
	char prev = i ? d[i - 1] : ' ';
	const char *q = d + i + 4;
	if (is_ident(prev))
		return 0;
	int dashes = prev == '-';
	if (dashes && (i < 2 || d[i - 2] != '-' || (i > 2 && (is_ident(d[i - 3]) || d[i - 3] == '-'))))
		return 0;
	if (q < end && *q == '=')
		return port_at(q + 1, end, port);
	if ((prev == '\'' || prev == '"') && q < end && *q == prev) {
		q++;
		while (q < end && *q == ' ')
			q++;
		if (q >= end || *q != ':')
			return 0;
		q++;
		while (q < end && *q == ' ')
			q++;
		return port_at(q, end, port);
	}
	if (dashes && q < end && *q == ' ')
		return port_at(q + 1, end, port);
	return 0;
}

/* `running on http://HOST:N` (uvicorn) and `server on http://HOST:N`
 * (vLLM); i is where "on http" starts. */
static int port_url_at(const char *d, size_t i, const char *end, unsigned *port)
{
	if (!((i >= 8 && memcmp(d + i - 8, "running ", 8) == 0) ||
	      (i >= 7 && memcmp(d + i - 7, "server ", 7) == 0)))
		return 0;
	const char *q = d + i + 7;
	if (q < end && *q == 's')
		q++;
	if (end - q < 3 || memcmp(q, "://", 3) != 0)
		return 0;
	q += 3;
	if (q < end && *q == '[') {
		while (q < end && *q != ']' && *q != '\n')
			q++;
		q++;
	} else {
		while (q < end && *q != ':' && *q != '/' && *q != ' ' && *q != '\n')
			q++;
	}
	if (q >= end || *q != ':')
		return 0;
	return port_at(q + 1, end, port);
}

static int find_port(const char *data, size_t n, unsigned *port, size_t *off)
{
	const char *end = data + n;
	int found = 0;
	static const char *needles[] = { "port", "on http" };
	for (int k = 0; k < 2; k++) {
		size_t nl = strlen(needles[k]);
		const char *p = data;
		while (p < end && (p = memmem(p, (size_t)(end - p), needles[k], nl))) {
			size_t i = (size_t)(p - data);
			unsigned v;
			int ok = k == 0 ? port_word_at(data, i, end, &v) : port_url_at(data, i, end, &v);
			if (ok && (!found || i > *off)) {
				found = 1;
				*port = v;
				*off = i;
			}
			p += nl;
		}
	}
	return found;
}

int logmeta_port(const char *data, size_t n, struct logmeta_port *out)
{
	unsigned port = 0;
	size_t off = 0;
	if (!data || !find_port(data, n, &port, &off))
		return 0;
	const char *ls = off ? memrchr(data, '\n', off) : NULL;
	ls = ls ? ls + 1 : data;
	const char *le = memchr(ls, '\n', n - (size_t)(ls - data));
	out->port = port;
	out->off = off;
	out->line = input_count_lines(data, (size_t)(ls - data)) + 1;
	out->text = ls;
	out->text_len = le ? (size_t)(le - ls) : n - (size_t)(ls - data);
	return 1;
}

/* ---- which process is which rank ---- */

/* The number at *p, moving *p past it; -1 when none or too long. */
static long number_at(const char **p, const char *end)
{
	long v = 0;
	int k = 0;
	while (*p < end && isdigit((unsigned char)**p) && k < 9)
		v = v * 10 + (**p - '0'), (*p)++, k++;
	return k && (*p >= end || !isdigit((unsigned char)**p)) ? v : -1;
}

/* The pid of "HOST:PID:TID [DEV] NCCL INFO" ending at q (where " [DEV]"
 * starts), or -1. */
static long nccl_pid(const char *ls, const char *q)
{
	const char *t = q;
	while (t > ls && t[-1] != ' ' && t[-1] != ':')   /* TID */
		t--;
	if (t == q || t == ls || t[-1] != ':')
		return -1;
	const char *pe = t - 1, *ps = pe;
	while (ps > ls && isdigit((unsigned char)ps[-1]))
		ps--;
	if (ps == pe || ps == ls || ps[-1] != ':')
		return -1;
	return number_at(&ps, pe);
}

/* "rank R nranks N" (or "nRanks") in ls[0..le), or 0. */
static int rank_words(const char *ls, const char *le, long *rank, long *nranks)
{
	for (const char *p = ls; p && p + 6 < le; p = memmem(p + 1, (size_t)(le - p - 1), " rank ", 6)) {
		if (memcmp(p, " rank ", 6) != 0)
			continue;
		const char *q = p + 6;
		long r = number_at(&q, le);
		if (r < 0 || le - q < 8 || (memcmp(q, " nranks ", 8) != 0 && memcmp(q, " nRanks ", 8) != 0))
			continue;
		q += 8;
		long n = number_at(&q, le);
		if (n <= 0 || r >= n)
			continue;
		*rank = r;
		*nranks = n;
		return 1;
	}
	return 0;
}

size_t logmeta_pid_ranks(const char *data, size_t n, struct logmeta_pid_rank *out, size_t max)
{
	static const char mark[] = "] NCCL INFO ";
	const char *end = data + n, *p = data;
	size_t got = 0;
	while (data && p < end && (p = memmem(p, (size_t)(end - p), mark, sizeof(mark) - 1))) {
		const char *ls = p > data ? memrchr(data, '\n', (size_t)(p - data)) : NULL;
		ls = ls ? ls + 1 : data;
		const char *le = memchr(p, '\n', (size_t)(end - p));
		le = le ? le : end;
		const char *q = p;
		while (q > ls && q[-1] != '[')
			q--;
		long pid = q > ls + 1 && q[-2] == ' ' ? nccl_pid(ls, q - 2) : -1;
		long rank, nranks;
		if (pid > 0 && rank_words(p, le, &rank, &nranks)) {
			size_t k = 0;
			while (k < got && out[k].pid != pid)
				k++;
			if (k == got && got < max)
				out[got++] = (struct logmeta_pid_rank){ (int)pid, (int)rank, (int)nranks };
			else if (k < got && nranks > out[k].nranks)
				out[k] = (struct logmeta_pid_rank){ (int)pid, (int)rank, (int)nranks };
		}
		p = le;
	}
	return got;
}
