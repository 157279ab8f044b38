/* rules.c — parsing rule files and matching rules against templates.  See
 * rules.h for the file format.
 *
 * Patterns are compiled in PCRE2's byte mode (no UTF checks: log text may
 * be any bytes) and JIT-compiled where the library supports it; pcre2_match
 * then uses the JIT code by itself. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "rules.h"

#include <pcre2.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input.h"
#include "prefix.h"


static void rule_free(struct rule *r)
{
	free(r->name);
	free(r->engine);
	free(r->pattern);
	pcre2_code_free(r->re);
}

void rules_free(struct ruleset *rs)
{
	if (!rs)
		return;
	for (size_t i = 0; i < rs->n; i++)
		rule_free(&rs->r[i]);
	free(rs->r);
	memset(rs, 0, sizeof(*rs));
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Trim blanks from both ends of [*s, *s + *n). */
static void trim(const char **s, size_t *n)
{
	while (*n && is_blank(**s))
		(*s)++, (*n)--;
	while (*n && is_blank((*s)[*n - 1]))
		(*n)--;
}

static char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

static int has_control(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return 1;
	return 0;
}

int rules_section(const char *s, size_t n, const char *what, char **name, const char *path,
		  size_t lineno)
{
	if (n < 3 || s[n - 1] != ']')
		return error("%s:%zu: expected '[%s]'", path, lineno, what);
	s++, n -= 2;
	trim(&s, &n);
	for (size_t i = 0; i < n; i++)
		if (is_blank(s[i]) || s[i] == '[' || s[i] == ']' || (unsigned char)s[i] < 0x20)
			return error("%s:%zu: a [%s] name is one word, like [sglang]", path, lineno,
				     what);
	if (n == 0)
		return error("%s:%zu: empty [%s] name", path, lineno, what);
	free(*name);
	*name = xstrndup(s, n);
	return 0;
}

void *rules_compile(const char *pat, size_t len, const char *path, size_t lineno)
{
	int errcode;
	PCRE2_SIZE erroff;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)pat, len, 0, &errcode, &erroff, NULL);
	if (!re) {
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(errcode, msg, sizeof(msg));
		error("%s:%zu: bad pattern: %s at offset %zu", path, lineno, (const char *)msg,
		      (size_t)erroff);
		return NULL;
	}
	/* Without JIT support this fails and matching is interpreted. */
	pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
	return re;
}

int rules_each_line(const char *path, const char *text, size_t len,
		    int (*fn)(void *ctx, const char *s, size_t n, size_t lineno), void *ctx)
{
	size_t pos = 0, lineno = 0;
	int rc = 0;
	while (pos < len && rc == 0) {
		const char *s = text + pos, *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;
		pos += n + 1;
		lineno++;
		trim(&s, &n);
		if (n == 0 || s[0] == '#')
			continue;
		if (memchr(s, '\0', n))
			rc = error("%s:%zu: NUL byte in a rule file", path, lineno);
		else
			rc = fn(ctx, s, n, lineno);
	}
	return rc;
}

/* The kinds of rules (rules.h): milestones (step, final, done, fail)
 * and the rest. */
static const struct kind {
	const char *word;
	int final, done, fail, stop, mark, config, words;
} kinds[] = {
	{ .word = "step" },
	{ .word = "final", .final = 1 },
	{ .word = "done", .final = 1, .done = 1 },
	{ .word = "fail", .fail = 1 },
	{ .word = "stop", .stop = 1 },
	{ .word = "mark", .mark = 1 },
	{ .word = "config", .config = 1 },
	{ .word = "heartbeat", .words = RULE_HEARTBEAT },
	{ .word = "failure", .words = RULE_FAILURE },
	{ .word = "error", .words = RULE_ERROR },
	{ .word = "warning", .words = RULE_WARNING },
	{ .word = "killed", .words = RULE_KILLED },
	{ .word = "signalled", .words = RULE_SIGNALLED },
	{ .word = "peer-loss", .words = RULE_PEER_LOSS },
	{ .word = "timeout", .words = RULE_TIMEOUT },
	{ .word = "advice", .words = RULE_ADVICE },
	{ .word = "wait", .words = RULE_WAIT },
};

/* Parse "[weak] [server] KIND NAME: PATTERN" into r. */
static int parse_rule(const char *s, size_t n, const char *engine, struct rule *r,
		      const char *path, size_t lineno)
{
	size_t kw = 0;
	while (kw < n && !is_blank(s[kw]))
		kw++;
	int weak = 0, server = 0;
	/* "weak step ...", "server step ...": the keyword after them
	 * decides the rest. */
	for (;;) {
		int *mod = kw == 4 && memcmp(s, "weak", 4) == 0 ? &weak
			: kw == 6 && memcmp(s, "server", 6) == 0 ? &server : NULL;
		if (!mod || *mod)
			break;
		*mod = 1;
		s += kw, n -= kw;
		trim(&s, &n);
		for (kw = 0; kw < n && !is_blank(s[kw]);)
			kw++;
	}
	const struct kind *k = kinds;
	while (k < kinds + sizeof(kinds) / sizeof(kinds[0]) &&
	       !(strlen(k->word) == kw && memcmp(s, k->word, kw) == 0))
		k++;
	if (k == kinds + sizeof(kinds) / sizeof(kinds[0]))
		return error("%s:%zu: expected '[weak] [server] KIND NAME: PATTERN' (KIND: step, final, done, fail, stop, mark, config, heartbeat, failure, error, warning, killed, signalled, peer-loss, timeout, advice) or '[ENGINE]'",
			     path, lineno);
	if (!engine)
		return error("%s:%zu: rule before the first [ENGINE] line", path, lineno);
	const char *name = s + kw, *colon = memchr(name, ':', n - kw);
	if (!colon)
		return error("%s:%zu: missing ':' between the milestone name and the pattern",
			     path, lineno);
	size_t name_len = (size_t)(colon - name);
	const char *pat = colon + 1;
	size_t pat_len = n - (size_t)(pat - s);
	trim(&name, &name_len);
	trim(&pat, &pat_len);
	if (name_len == 0 || has_control(name, name_len))
		return error("%s:%zu: missing or invalid milestone name", path, lineno);
	/* "level=error PATTERN": only templates of that level (a runner's
	 * "##[error]" annotation is the line's level, not its text). */
	int level = LV_NONE;
	if (pat_len > 6 && memcmp(pat, "level=", 6) == 0) {
		size_t w = 6;
		while (w < pat_len && !is_blank(pat[w]))
			w++;
		for (int l = LV_TRACE; l <= LV_FATAL && level == LV_NONE; l++)
			if (strlen(level_name(l)) == w - 6 && memcmp(pat + 6, level_name(l), w - 6) == 0)
				level = l;
		if (level == LV_NONE)
			return error("%s:%zu: unknown level in '%.*s'", path, lineno, (int)w, pat);
		pat += w, pat_len -= w;
		trim(&pat, &pat_len);
	} else if (pat_len == 0) {
		return error("%s:%zu: empty pattern", path, lineno);
	}
	pcre2_code *re = rules_compile(pat, pat_len, path, lineno);
	if (!re)
		return -1;
	r->name = xstrndup(name, name_len);
	r->engine = xstrdup(engine);
	r->final = k->final;
	r->done = k->done;
	r->fail = k->fail;
	r->stop = k->stop;
	r->mark = k->mark;
	r->config = k->config;
	r->words = k->words;
	r->level = level;
	r->weak = weak;
	r->server = server;
	r->re = re;
	r->pattern = xstrndup(pat, pat_len);
	return 0;
}

static int same_rule(const struct rule *a, const struct rule *b)
{
	return strcmp(a->name, b->name) == 0 && strcmp(a->engine, b->engine) == 0;
}

/* What rules_parse gathers line by line. */
struct parse_ctx {
	const char *path;
	struct ruleset add;
	size_t *lines, lines_cap;   /* the line of each rule of add */
	char *engine;
};

static int parse_line(void *ctx, const char *s, size_t n, size_t lineno)
{
	struct parse_ctx *p = ctx;
	if (s[0] == '[')
		return rules_section(s, n, "ENGINE", &p->engine, p->path, lineno);
	struct rule r;
	if (parse_rule(s, n, p->engine, &r, p->path, lineno) < 0)
		return -1;
	for (size_t i = 0; i < p->add.n; i++)
		if (same_rule(&p->add.r[i], &r)) {
			error("%s:%zu: milestone '%s' of [%s] is already defined on line %zu", p->path,
			      lineno, r.name, r.engine, p->lines[i]);
			rule_free(&r);
			return -1;
		}
	GROW(p->add.r, p->add.cap, p->add.n + 1);
	GROW(p->lines, p->lines_cap, p->add.n + 1);
	p->lines[p->add.n] = lineno;
	p->add.r[p->add.n++] = r;
	return 0;
}

int rules_parse(struct ruleset *rs, const char *path, const char *text, size_t len)
{
	struct parse_ctx p = { .path = path };
	int rc = rules_each_line(path, text, len, parse_line, &p);
	struct ruleset add = p.add;
	free(p.engine);
	free(p.lines);
	if (rc < 0) {
		rules_free(&add);
		return -1;
	}
	/* The new rules go first, so that a user's rule wins over a built-in
	 * one matching the same template; the rules they replace go away. */
	for (size_t i = 0; i < rs->n; i++) {
		size_t k = 0;
		while (k < add.n && !same_rule(&add.r[k], &rs->r[i]))
			k++;
		if (k < add.n) {
			rule_free(&rs->r[i]);
		} else {
			GROW(add.r, add.cap, add.n + 1);
			add.r[add.n++] = rs->r[i];
		}
	}
	free(rs->r);
	*rs = add;
	return 0;
}

int rules_load(struct ruleset *rs, const char *path)
{
	struct input in;
	if (input_open_file(&in, path, RULES_MAX_SIZE) < 0)
		return -1;
	int rc = rules_parse(rs, path, in.data, in.size);
	input_close(&in);
	return rc;
}

int rules_builtin(struct ruleset *rs)
{
	for (size_t i = 0; i < rules_builtin_count; i++) {
		const struct rules_file *f = &rules_builtin_files[i];
		if (rules_parse(rs, f->path, f->text, strlen(f->text)) < 0)
			return -1;
	}
	return 0;
}

/* The XDG spec says a relative XDG_CONFIG_HOME is to be ignored. */
char *rules_user_path(const char *file)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	struct buf b = { 0 };
	if (xdg && xdg[0] == '/')
		buf_printf(&b, "%s/ddx/%s", xdg, file);
	else if (home && home[0])
		buf_printf(&b, "%s/.config/ddx/%s", home, file);
	return b.p;
}

/* Drop every rule of rs but the generic words': what no system owns. */
static void keep_generic(struct ruleset *rs)
{
	size_t k = 0;
	for (size_t i = 0; i < rs->n; i++) {
		if (strcmp(rs->r[i].engine, RULES_GENERIC) == 0)
			rs->r[k++] = rs->r[i];
		else
			rule_free(&rs->r[i]);
	}
	rs->n = k;
}

/* Whether a --rules argument is RULES_NONE: the generic path alone. */
static int is_none(const char *file)
{
	return strcmp(file, RULES_NONE) == 0;
}

int rules_init(struct ruleset *rs, char *const *files, size_t nfiles)
{
	memset(rs, 0, sizeof(*rs));
	int none = 0;
	for (size_t i = 0; i < nfiles; i++)
		none |= is_none(files[i]);
	if (rules_builtin(rs) < 0)
		goto fail;
	if (none) {
		keep_generic(rs);
	} else {
		char *user = rules_user_path("rules");
		if (user && access(user, F_OK) == 0 && rules_load(rs, user) < 0) {
			free(user);
			goto fail;
		}
		free(user);
	}
	for (size_t i = 0; i < nfiles; i++)
		if (!is_none(files[i]) && rules_load(rs, files[i]) < 0)
			goto fail;
	return 0;
fail:
	rules_free(rs);
	return -1;
}

enum pass { PASS_STRONG, PASS_WEAK, PASS_GENERIC };

/* Which rules a pass tries: the strong rules of the engines, then the weak
 * ones of the engines a strong rule recognised (confirmed[i]), then the
 * generic ones. */
static int in_pass(const struct rule *r, enum pass pass, int confirmed)
{
	int generic = strcmp(r->engine, RULES_GENERIC) == 0;
	if (r->stop || r->mark || r->config || r->words)
		return 0;   /* no milestone (rules_stops, rules_engine, rules_config, rules_says) */
	switch (pass) {
	case PASS_STRONG: return !generic && !r->weak;
	case PASS_WEAK: return !generic && r->weak && confirmed;
	default: return generic;
	}
}

/* Give every template of tt still unmatched (out[id] < 0) the first rule
 * of the pass that matches it; returns whether any did. */
static int match_pass(const struct ruleset *rs, const struct tmpl_table *tt, int32_t *out,
		      enum pass pass, const char *confirmed, pcre2_match_data *md)
{
	int any = 0;
	for (size_t id = 0; id < tt->n; id++) {
		const struct tmpl *t = &tt->t[id];
		for (size_t i = 0; i < rs->n && out[id] < 0; i++) {
			const struct rule *r = &rs->r[i];
			if (!in_pass(r, pass, confirmed[i]) || (r->level && t->level != r->level))
				continue;
			if (pcre2_match(r->re, (PCRE2_SPTR)t->text, t->len, 0, 0, md, NULL) >= 0) {
				out[id] = (int32_t)i;
				any = 1;
			}
		}
	}
	return any;
}

void rules_match(const struct ruleset *rs, const struct tmpl_table *tt, int32_t *out)
{
	pcre2_match_data *md = pcre2_match_data_create(1, NULL);
	if (!md)
		die("out of memory");
	char *confirmed = xcalloc(rs->n ? rs->n : 1, 1);
	for (size_t id = 0; id < tt->n; id++)
		out[id] = -1;
	match_pass(rs, tt, out, PASS_STRONG, confirmed, md);
	/* An engine is recognised when one of its strong rules matched. */
	for (size_t id = 0; id < tt->n; id++)
		for (size_t i = 0; out[id] >= 0 && i < rs->n; i++)
			if (strcmp(rs->r[i].engine, rs->r[out[id]].engine) == 0)
				confirmed[i] = 1;
	match_pass(rs, tt, out, PASS_WEAK, confirmed, md);
	/* A job's end alone (done, fail) says nothing of its steps: the
	 * generic words still mark them. */
	int any = 0;
	for (size_t id = 0; id < tt->n; id++)
		any |= out[id] >= 0 && !rs->r[out[id]].done && !rs->r[out[id]].fail;
	if (!any)
		match_pass(rs, tt, out, PASS_GENERIC, confirmed, md);
	free(confirmed);
	pcre2_match_data_free(md);
}

void rules_stops(const struct ruleset *rs, const char *const *texts, size_t n, uint8_t *out)
{
	pcre2_match_data *md = pcre2_match_data_create(1, NULL);
	if (!md)
		die("out of memory");
	for (size_t k = 0; k < n; k++) {
		out[k] = 0;
		for (size_t i = 0; i < rs->n && !out[k]; i++)
			out[k] = rs->r[i].stop &&
				 pcre2_match(rs->r[i].re, (PCRE2_SPTR)texts[k], strlen(texts[k]), 0, 0, md, NULL) >= 0;
	}
	pcre2_match_data_free(md);
}

/* A format's name, when it is an engine's, weighs as many templates. */
#define FORMAT_VOTES 5

const char *rules_engine(const struct ruleset *rs, const char *const *texts, const size_t *lens,
			 size_t n, const char *format)
{
	pcre2_match_data *md = pcre2_match_data_create(1, NULL);
	if (!md)
		die("out of memory");
	size_t *votes = xcalloc(rs->n ? rs->n : 1, sizeof(*votes));   /* per mark rule */
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < rs->n; i++)
			if (rs->r[i].mark &&
			    pcre2_match(rs->r[i].re, (PCRE2_SPTR)texts[k], lens[k], 0, 0, md, NULL) >= 0) {
				votes[i]++;
				break;
			}
	const char *best = NULL;
	size_t most = 0;
	for (size_t i = 0; i < rs->n; i++) {
		if (!rs->r[i].mark)
			continue;
		const char *e = rs->r[i].engine;
		size_t v = format && strcmp(format, e) == 0 ? FORMAT_VOTES : 0;
		for (size_t j = 0; j < rs->n; j++)
			v += rs->r[j].mark && strcmp(rs->r[j].engine, e) == 0 ? votes[j] : 0;
		if (v > most || (v && v == most && strcmp(e, best) < 0))
			best = e, most = v;
	}
	free(votes);
	pcre2_match_data_free(md);
	return best;
}

int rules_config(const struct rule *r, const char *data, size_t size, size_t *from, size_t *to,
		 int *one)
{
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(r->re, NULL);
	if (!md)
		die("out of memory");
	uint32_t groups = 0;
	pcre2_pattern_info(r->re, PCRE2_INFO_CAPTURECOUNT, &groups);
	*one = groups > 0;
	int rc = pcre2_match(r->re, (PCRE2_SPTR)data, size, 0, 0, md, NULL);
	if (rc > 0) {
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
		int unset = *one && (rc < 2 || ov[2] == PCRE2_UNSET);   /* (a)?b: an empty value */
		*from = *one && !unset ? ov[2] : ov[1];
		*to = *one && !unset ? ov[3] : ov[1];
		if (!*one) {
			const char *eol = memchr(data + *to, '\n', size - *to);
			*to = eol ? (size_t)(eol - data) : size;
			if (*to > *from && data[*to - 1] == '\r')
				--*to;
		}
	}
	pcre2_match_data_free(md);
	return rc > 0;
}

int rules_says(const struct ruleset *rs, enum rule_words words, const char *t)
{
	pcre2_match_data *md = pcre2_match_data_create(1, NULL);
	if (!md)
		die("out of memory");
	int says = 0;
	for (size_t i = 0; i < rs->n && !says; i++)
		says = rs->r[i].words == (int)words &&
		       pcre2_match(rs->r[i].re, (PCRE2_SPTR)t, strlen(t), 0, 0, md, NULL) >= 0;
	pcre2_match_data_free(md);
	return says;
}
