/* signature.c — the signature of a failure.  See signature.h. */
#include "signature.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "util.h"

static int token_char(char c)
{
	return isalnum((unsigned char)c) || c == '.' || c == '_' || c == '-';
}

/* Whether t[0..n) reads as a host name: dotted lower-case labels of
 * letters, digits and '-', the last of letters only and not a source
 * file's extension ("nccl.cpp:1970" is a file and a line). */
static int host_like(const char *t, size_t n)
{
	static const char *const ext[] = { "c", "cc", "cpp", "cu", "h", "hpp", "py", "go", "rs",
					   "java", "js", "ts", "rb", "so" };
	size_t last = 0, dots = 0;
	for (size_t i = 0; i < n; i++) {
		if (t[i] == '.') {
			if (i == last)
				return 0;
			last = i + 1;
			dots++;
		} else if (!islower((unsigned char)t[i]) && !isdigit((unsigned char)t[i]) && t[i] != '-') {
			return 0;
		}
	}
	if (!dots || last == n)
		return 0;
	for (size_t i = last; i < n; i++)
		if (!islower((unsigned char)t[i]))
			return 0;
	for (size_t k = 0; k < sizeof(ext) / sizeof(ext[0]); k++)
		if (strlen(ext[k]) == n - last && memcmp(ext[k], t + last, n - last) == 0)
			return 0;
	return 1;
}

/* The separator after "host" that makes the next word its value: " ",
 * "=", ": "; its length, or 0. */
static size_t host_separator(const char *p)
{
	if (p[0] == ' ' || p[0] == '=')
		return 1;
	return p[0] == ':' && p[1] == ' ' ? 2 : 0;
}

void signature_mask_hosts(const char *text, struct buf *out)
{
	buf_reset(out);
	buf_append(out, "", 0);
	int value_next = 0;   /* the token at p is the value of "host" */
	for (const char *p = text; *p;) {
		if (!token_char(*p)) {
			buf_putc(out, *p++);
			continue;
		}
		size_t n = 1;
		while (token_char(p[n]))
			n++;
		int host = value_next || (p[n] == ':' && p[n + 1] == '<' && host_like(p, n));
		if (host)
			buf_append(out, "<host>", 6);
		else
			buf_append(out, p, n);
		value_next = 0;
		if ((n == 4 && strncasecmp(p, "host", 4) == 0) ||
		    (n == 8 && strncasecmp(p, "hostname", 8) == 0)) {
			size_t sep = host_separator(p + n);
			if (sep && token_char(p[n + sep])) {
				buf_append(out, p + n, sep);
				p += sep;
				value_next = 1;
			}
		}
		p += n;
	}
}

int signature_make(int verdict, const char *step, const char *cause, struct signature *sig)
{
	memset(sig, 0, sizeof(*sig));
	if (verdict == DX_SAME || verdict == DX_RUNNING || (verdict == DX_DIFFERENT && !cause))
		return -1;
	struct buf s = { 0 }, t = { 0 };
	if (step)
		signature_mask_hosts(step, &t);
	switch (verdict) {
	case DX_CRASHED:
		/* The same exception is the same fault wherever it came; the
		 * step names a crash only when its cause is unknown. */
		buf_printf(&s, step && !cause ? "crashed after: %s" : "crashed", step ? t.p : "");
		break;
	case DX_STOPPED:
		buf_printf(&s, step ? "stopped after: %s" : "stopped before its first step",
			   step ? t.p : "");
		break;
	case DX_DIVERGED:
		buf_printf(&s, step ? "diverged after: %s" : "diverged from its first step",
			   step ? t.p : "");
		break;
	case DX_FAILED:
		/* The failed step's error is the fault, wherever the run got. */
		buf_printf(&s, "a step failed");
		break;
	case DX_INTERRUPTED:
		buf_printf(&s, step ? "interrupted after: %s" : "interrupted before its first step",
			   step ? t.p : "");
		break;
	default:
		buf_printf(&s, "finished but differs");
		break;
	}
	if (cause) {
		signature_mask_hosts(cause, &t);
		buf_printf(&s, "%s%s", verdict == DX_DIVERGED ? "; new: " : ": ", t.p);
	}
	snprintf(sig->key, sizeof(sig->key), "%016llx",
		 (unsigned long long)hash_bytes(s.p, s.len));
	/* Cut on a character's first byte, so the summary stays UTF-8. */
	size_t n = s.len;
	if (n > SIGNATURE_SUMMARY_MAX) {
		n = SIGNATURE_SUMMARY_MAX;
		while (n > 0 && ((unsigned char)s.p[n] & 0xc0) == 0x80)
			n--;
		s.p[n] = '\0';
	}
	sig->summary = xstrdup(s.p);
	buf_free(&s);
	buf_free(&t);
	return 0;
}

/* The own template text of bad's line i, or NULL for no line. */
static const char *line_template(const struct diagnosis *d, const struct tmpl_table *tt, int64_t i)
{
	if (i < 0 || (size_t)i >= d->bad_log->nlines)
		return NULL;
	return tt->t[d->bad_log->tid[i]].text;
}

int signature_of(const struct diagnosis *d, const struct tmpl_table *tt, struct signature *sig)
{
	const char *step = line_template(d, tt, d->bad_line), *cause = NULL;
	char *changed = NULL;
	if ((d->verdict == DX_CRASHED || d->verdict == DX_FAILED) && d->crash != DX_NONE)
		cause = line_template(d, tt, d->novel[d->crash].summary);
	else if ((d->verdict == DX_DIVERGED || d->verdict == DX_DIFFERENT) && d->nnovel)
		cause = line_template(d, tt, d->novel[0].summary);
	else if (d->verdict == DX_DIFFERENT && d->nchanged)
		cause = changed = xasprintf("%s %s changed", d->changed[0].label ? d->changed[0].label : "",
					    d->changed[0].key ? d->changed[0].key : "");
	int r = signature_make(d->verdict, step, cause, sig);
	free(changed);
	return r;
}

void signature_free(struct signature *sig)
{
	free(sig->summary);
	sig->summary = NULL;
}

void signature_time(int64_t t, char *out)
{
	time_t tt = (time_t)t;
	struct tm tm;
	if (!gmtime_r(&tt, &tm) || !strftime(out, SEEN_TIME_SIZE, "%Y-%m-%d %H:%M UTC", &tm))
		snprintf(out, SEEN_TIME_SIZE, "%lld s", (long long)t);
}

/* The earlier runs of s, at least one, as signature_seen_sentence says
 * them. */
static void seen_runs(const struct failure_seen *s, struct buf *out)
{
	const struct failure_run *last = &s->runs[0];
	char when[SEEN_TIME_SIZE];
	signature_time(last->seen, when);
	if (s->count == 1) {
		buf_printf(out, "seen before: once, on %s at %s, baseline '%s'", last->host, when,
			   last->baseline);
	} else {
		/* Days begun since the first, so that a day ago is "in 1 day". */
		int64_t span = s->now > s->first ? s->now - s->first : 0;
		long long days = span / 86400 + 1;
		buf_printf(out, "seen before: %llu times in %lld day%s, last on %s at %s, baseline '%s'",
			   (unsigned long long)s->count, days, days == 1 ? "" : "s", last->host, when,
			   last->baseline);
	}
	buf_printf(out, "; %s: ", s->count > s->nruns ? "latest runs" : s->count == 1 ? "run" : "runs");
	for (size_t k = 0; k < s->nruns; k++)
		buf_printf(out, "%s%s", k ? ", " : "", s->runs[k].name);
}

void signature_seen_sentence(const struct failure_seen *s, struct buf *out)
{
	buf_reset(out);
	if (s->count == 0 || s->nruns == 0)
		buf_printf(out, "seen before: never (signature %s)", s->key);
	else
		seen_runs(s, out);
	/* A fix is told even when no other run failed so: it may have been
	 * recorded after this very run's first check. */
	if (s->fix.text) {
		char when[SEEN_TIME_SIZE];
		signature_time(s->fix.fixed, when);
		buf_printf(out, "; fixed last time by: %s (%s)", s->fix.text, when);
	}
}
