/* causes.c — parsing cause files and matching a cause against a line.
 * See causes.h for the format; the syntax and the patterns are rule
 * files' (rules.h), so parsing goes through rules_each_line. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "causes.h"

#include <pcre2.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input.h"

static void cause_free(struct cause *c)
{
	free(c->id);
	free(c->title);
	free(c->explain);
	free(c->fix);
	free(c->url);
	free(c->engine);
	pcre2_code_free(c->step);
	for (size_t i = 0; i < c->nline; i++)
		pcre2_code_free(c->line[i]);
	free(c->line);
	for (size_t i = 0; i < c->ntmpl; i++)
		pcre2_code_free(c->tmpl[i]);
	free(c->tmpl);
	memset(c, 0, sizeof(*c));
}

void causes_free(struct causeset *cs)
{
	if (!cs)
		return;
	for (size_t i = 0; i < cs->n; i++)
		cause_free(&cs->c[i]);
	free(cs->c);
	memset(cs, 0, sizeof(*cs));
}

/* What causes_parse gathers line by line: the causes of the text, the
 * one being read last, and the line each starts on. */
struct parse_ctx {
	const char *path;
	struct causeset add;
	size_t *lines, lines_cap;
	char *id;             /* the current section's, for rules_section */
};

static char *dup_n(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

/* A cause is whole once its section ends: what it lacks is an error on
 * the line that started it. */
static int check_cause(const struct parse_ctx *p)
{
	if (!p->add.n)
		return 0;
	const struct cause *c = &p->add.c[p->add.n - 1];
	size_t at = p->lines[p->add.n - 1];
	const char *missing = !c->title ? "'title:'" : !c->explain ? "'explain:'" : !c->fix ? "'fix:'"
		: !c->url ? "'url:'" : !c->nline && !c->ntmpl ? "'line:' or 'template:'" : NULL;
	if (missing)
		return error("%s:%zu: cause '%s' has no %s", p->path, at, c->id, missing);
	return 0;
}

/* One of a cause's single-line texts: a second one is a mistake. */
static int set_once(char **field, const char *key, const char *v, size_t n,
		    const struct parse_ctx *p, size_t lineno)
{
	if (*field)
		return error("%s:%zu: a second '%s:' in one cause", p->path, lineno, key);
	*field = dup_n(v, n);
	return 0;
}

static int add_pattern(void ***res, size_t *n, const char *v, size_t len,
		       const struct parse_ctx *p, size_t lineno)
{
	void *re = rules_compile(v, len, p->path, lineno);
	if (!re)
		return -1;
	*res = xrealloc(*res, (*n + 1) * sizeof(**res));
	(*res)[(*n)++] = re;
	return 0;
}

static int parse_line(void *ctx, const char *s, size_t n, size_t lineno)
{
	struct parse_ctx *p = ctx;
	if (s[0] == '[') {
		if (check_cause(p) < 0 || rules_section(s, n, "CAUSE", &p->id, p->path, lineno) < 0)
			return -1;
		for (size_t i = 0; i < p->add.n; i++)
			if (strcmp(p->add.c[i].id, p->id) == 0)
				return error("%s:%zu: cause '%s' is already defined on line %zu",
					     p->path, lineno, p->id, p->lines[i]);
		GROW(p->add.c, p->add.cap, p->add.n + 1);
		GROW(p->lines, p->lines_cap, p->add.n + 1);
		p->lines[p->add.n] = lineno;
		p->add.c[p->add.n++] = (struct cause){ .id = xstrdup(p->id), .path = p->path };
		return 0;
	}
	const char *colon = memchr(s, ':', n);
	size_t kl = colon ? (size_t)(colon - s) : 0;
	if (!colon || kl == 0 || memchr(s, ' ', kl) || memchr(s, '\t', kl))
		return error("%s:%zu: expected 'KEY: VALUE' (KEY: title, line, template, engine, step, where, explain, fix, url) or '[CAUSE]'",
			     p->path, lineno);
	if (!p->add.n)
		return error("%s:%zu: '%.*s:' before the first [CAUSE] line", p->path, lineno,
			     (int)kl, s);
	const char *v = colon + 1;
	size_t vn = n - kl - 1;
	while (vn && (*v == ' ' || *v == '\t'))
		v++, vn--;
	if (vn == 0)
		return error("%s:%zu: empty '%.*s:'", p->path, lineno, (int)kl, s);
	struct cause *c = &p->add.c[p->add.n - 1];
#define KEY(k) (kl == sizeof(k) - 1 && memcmp(s, k, kl) == 0)
	if (KEY("title"))
		return set_once(&c->title, "title", v, vn, p, lineno);
	if (KEY("fix"))
		return set_once(&c->fix, "fix", v, vn, p, lineno);
	if (KEY("url"))
		return set_once(&c->url, "url", v, vn, p, lineno);
	if (KEY("engine"))
		return set_once(&c->engine, "engine", v, vn, p, lineno);
	if (KEY("line"))
		return add_pattern(&c->line, &c->nline, v, vn, p, lineno);
	if (KEY("template"))
		return add_pattern(&c->tmpl, &c->ntmpl, v, vn, p, lineno);
	if (KEY("step")) {
		if (c->step)
			return error("%s:%zu: a second 'step:' in one cause", p->path, lineno);
		return (c->step = rules_compile(v, vn, p->path, lineno)) ? 0 : -1;
	}
	if (KEY("where")) {
		if (vn != 5 || memcmp(v, "crash", 5) != 0)
			return error("%s:%zu: 'where:' takes only 'crash'", p->path, lineno);
		c->crash_only = 1;
		return 0;
	}
	if (KEY("explain")) {
		/* Lines of one paragraph, joined by a blank. */
		struct buf b = { 0 };
		if (c->explain)
			buf_printf(&b, "%s ", c->explain);
		buf_printf(&b, "%.*s", (int)vn, v);
		free(c->explain);
		c->explain = b.p;
		return 0;
	}
#undef KEY
	return error("%s:%zu: unknown key '%.*s' (expected title, line, template, engine, step, where, explain, fix or url)",
		     p->path, lineno, (int)kl, s);
}

int causes_parse(struct causeset *cs, const char *path, const char *text, size_t len)
{
	struct parse_ctx p = { .path = path };
	int rc = rules_each_line(path, text, len, parse_line, &p);
	if (rc == 0)
		rc = check_cause(&p);
	free(p.id);
	free(p.lines);
	if (rc < 0) {
		causes_free(&p.add);
		return -1;
	}
	/* The new causes replace those of the same id, in their place. */
	for (size_t k = 0; k < p.add.n; k++) {
		size_t i = 0;
		while (i < cs->n && strcmp(cs->c[i].id, p.add.c[k].id) != 0)
			i++;
		if (i < cs->n) {
			cause_free(&cs->c[i]);
		} else {
			GROW(cs->c, cs->cap, cs->n + 1);
			cs->n++;
		}
		cs->c[i] = p.add.c[k];
	}
	free(p.add.c);
	return 0;
}

int causes_load(struct causeset *cs, const char *path)
{
	struct input in;
	if (input_open_file(&in, path, RULES_MAX_SIZE) < 0)
		return -1;
	int rc = causes_parse(cs, path, in.data, in.size);
	input_close(&in);
	return rc;
}

int causes_init(struct causeset *cs, char *const *files, size_t nfiles)
{
	memset(cs, 0, sizeof(*cs));
	for (size_t i = 0; i < causes_builtin_count; i++) {
		const struct rules_file *f = &causes_builtin_files[i];
		if (causes_parse(cs, f->path, f->text, strlen(f->text)) < 0)
			goto fail;
	}
	char *user = rules_user_path("causes");
	int bad = user && access(user, F_OK) == 0 && causes_load(cs, user) < 0;
	free(user);
	if (bad)
		goto fail;
	for (size_t i = 0; i < nfiles; i++)
		if (causes_load(cs, files[i]) < 0)
			goto fail;
	return 0;
fail:
	causes_free(cs);
	return -1;
}

static int any_match(void *const *res, size_t n, const char *s, size_t len,
		     pcre2_match_data *md)
{
	for (size_t i = 0; i < n; i++)
		if (pcre2_match(res[i], (PCRE2_SPTR)s, len, 0, 0, md, NULL) >= 0)
			return 1;
	return 0;
}

int cause_matches(const struct cause *c, const char *line, size_t len, const char *tmpl,
		  size_t tlen, const char *engine, const char *step, int crash)
{
	if (c->crash_only && !crash)
		return 0;
	if (c->engine && (!engine || strcmp(c->engine, engine) != 0))
		return 0;
	pcre2_match_data *md = pcre2_match_data_create(1, NULL);
	if (!md)
		die("out of memory");
	int hit = (!c->step || pcre2_match(c->step, (PCRE2_SPTR)step, strlen(step), 0, 0, md,
					   NULL) >= 0) &&
		  (any_match(c->line, c->nline, line, len, md) ||
		   any_match(c->tmpl, c->ntmpl, tmpl, tlen, md));
	pcre2_match_data_free(md);
	return hit;
}
