/* classify.c — what one line's text says on its own.  See classify.h.
 * The words of each kind are rules (rules_says); the tables left here
 * are the algorithm: how a traceback, an exception and an access log's
 * line are shaped, and the English of naming a failure or denying one,
 * which no rule file could say more simply. */
#include "classify.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mask.h"
#include "prefix.h"
#include "rules.h"
#include "util.h"

/* Whether t starts with prefix p, after leading blanks. */
static const char *after(const char *t, const char *p)
{
	while (*t == ' ' || *t == '\t')
		t++;
	size_t n = strlen(p);
	return strncmp(t, p, n) == 0 ? t + n : NULL;
}

/* Whether t says a process failed whatever level its line was logged
 * at: a program that logs "bind: Address already in use" at INFO, or a
 * shell that prints "Killed" with no level at all, still died.  The
 * words are the failure rules' (rules/generic.rules); a process's exit
 * status other than 0 ("exited with code 137", which the template
 * keeps) is mask.c's to read. */
static int says_failure(const struct ruleset *rs, const char *t)
{
	return rules_says(rs, RULE_FAILURE, t) || mask_exit_status(t) > 0;
}

/* Whether the word at p of t is counted zero: "0 failed", "0 errors",
 * "Failures: 0", automake's aligned "# FAIL:  0", Ansible's "failed=0"
 * (mask keeps such a 0 in the template).  None of it happened. */
static int counted_zero(const char *t, const char *p, const char *end)
{
	if (p - t >= 2 && p[-1] == ' ' && p[-2] == '0' &&
	    (p - t == 2 || (!isalnum((unsigned char)p[-3]) && p[-3] != '=')))
		return 1;   /* "0 failed", not "changed=0 failed=1": that 0 is changed's */
	if (end[0] == '=')   /* Ansible's recap: "failed=0" */
		return end[1] == '0' && !isalnum((unsigned char)end[2]) && end[2] != '.';
	if (end[0] != ':' || end[1] != ' ')
		return 0;
	const char *n = end + 1 + strspn(end + 1, " ");
	return n[0] == '0' && !isalnum((unsigned char)n[1]) && n[1] != '.';
}

/* Whether the sentence of t that p is in tells the reader what to do:
 * it opens with "Press", "Hit", "Type" or "Use" (conda's "This can take
 * several minutes.  Press CTRL-C to abort."). */
static int instructs(const char *t, const char *p)
{
	static const char *const verbs[] = { "Press ", "Hit ", "Type ", "Use ", NULL };
	const char *s = p;
	while (s > t && !strchr(".!?", s[-1]))
		s--;
	s += strspn(s, " ");
	for (size_t k = 0; verbs[k]; k++)
		if (strncmp(s, verbs[k], strlen(verbs[k])) == 0)
			return 1;
	return 0;
}

/* Whether the word at p, one of len letters starting t, is denied: "no
 * errors", "without error", "<int> errors" (a count that may be 0),
 * "Errors: 0" (counted_zero) -- or is what a reader may do, not what
 * happened: "abort" in an instruction (instructs: "Press CTRL-C to
 * abort"). */
static int denied(const char *t, const char *p, const char *end)
{
	if (end - p == 5 && strncasecmp(p, "abort", 5) == 0 && instructs(t, p))
		return 1;
	static const char *const before[] = { "no ", "No ", "without ", "<int> ", NULL };
	for (size_t k = 0; before[k]; k++) {
		size_t n = strlen(before[k]);
		if ((size_t)(p - t) >= n && memcmp(p - n, before[k], n) == 0)
			return 1;
	}
	return counted_zero(t, p, end);
}

int classify_names_failure(const struct ruleset *rs, const char *t)
{
	/* Each stem, then the endings its forms take ("errors", "aborted",
	 * "panicked"); an identifier's part ("error_rate", "on_error") is
	 * no word.  The English of failure and its denials, not any
	 * system's words: the algorithm, kept here. */
	static const char *const stem[] = { "exception", "error", "fatal", "panic", "abort", NULL };
	static const char *const end[] = { "", "s", "ed", "ing", "ked", NULL };
	if (says_failure(rs, t))
		return 1;
	for (const char *p = t; *p; p++) {
		if (p > t && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
			continue;
		for (size_t k = 0; stem[k]; k++) {
			size_t n = strlen(stem[k]);
			if (strncasecmp(p, stem[k], n) != 0)
				continue;
			for (size_t e = 0; end[e]; e++) {
				size_t m = strlen(end[e]);
				const char *q = p + n + m;
				if (strncmp(p + n, end[e], m) == 0 && !isalnum((unsigned char)*q) && *q != '_' &&
				    !denied(t, p, q))
					return 1;
			}
		}
	}
	return 0;
}

/* Whether the word at p..end of t is counted, whatever the number:
 * counted_zero's shapes ("3 failed", "failed=1", "Failures: 2") with
 * any number or its placeholder. */
static int counted(const char *t, const char *p, const char *end)
{
	const char *n;
	if (p - t >= 2 && p[-1] == ' ' &&
	    (isdigit((unsigned char)p[-2]) || (p - t >= 6 && !memcmp(p - 6, "<int>", 5))))
		return 1;
	if (end[0] == '=')
		n = end + 1;
	else if (end[0] == ':' && end[1] == ' ')
		n = end + 1 + strspn(end + 1, " ");
	else
		return 0;
	return isdigit((unsigned char)n[0]) || strncmp(n, "<int>", 5) == 0;
}

/* t with every word that counts says of it blanked out, or NULL when
 * it has none: the words left say what went wrong, if anything did.
 * The caller frees it. */
static char *without_counted(const char *t, int (*counts)(const char *t, const char *p, const char *end))
{
	char *copy = NULL;
	for (const char *p = t; *p;) {
		if (!isalpha((unsigned char)*p) || (p > t && isalnum((unsigned char)p[-1]))) {
			p++;
			continue;
		}
		const char *e = p;
		while (isalpha((unsigned char)*e))
			e++;
		if (counts(t, p, e)) {
			if (!copy)
				copy = xstrdup(t);
			memset(copy + (p - t), ' ', (size_t)(e - p));
		}
		p = e;
	}
	return copy;
}

int classify_is_tally(const struct ruleset *rs, const char *t)
{
	char *rest = without_counted(t, counted);
	int tally = rest && classify_severity(rs, t, LV_NONE) == CLASSIFY_ERROR &&
		    classify_severity(rs, rest, LV_NONE) != CLASSIFY_ERROR;
	free(rest);
	return tally;
}

/* Whether rs's rules of kind say so of t, but for words counted zero. */
static int says_of_counts(const struct ruleset *rs, int kind, const char *t)
{
	if (!rules_says(rs, kind, t))
		return 0;
	char *rest = without_counted(t, counted_zero);
	if (!rest)
		return 1;
	int says = rules_says(rs, kind, rest);
	free(rest);
	return says;
}

enum classify_severity classify_severity(const struct ruleset *rs, const char *t, int level)
{
	/* The level the program gave wins; words decide only for lines
	 * without one (SGLang's, tracebacks, shell messages), except words
	 * that always mean the process failed. */
	if (level >= LV_ERROR || says_failure(rs, t))
		return CLASSIFY_ERROR;
	if (level == LV_WARN)
		return CLASSIFY_WARNING;
	if (level != LV_NONE)
		return classify_traceback_role(t) == CLASSIFY_TB_EXC ? CLASSIFY_ERROR : CLASSIFY_INFO;
	if (says_of_counts(rs, RULE_ERROR, t))
		return CLASSIFY_ERROR;
	if (says_of_counts(rs, RULE_WARNING, t))
		return CLASSIFY_WARNING;
	return CLASSIFY_INFO;
}

int classify_is_exception(const char *t)
{
	while (*t == ' ' || *t == '\t')
		t++;
	/* C++'s "what():", Go's "panic: ", Rust's "thread 'main' panicked
	 * at", CPython's own "Fatal Python error: ..." and Java's "Exception
	 * in thread" name what went wrong as an exception line does. */
	if (strncmp(t, "what():", 7) == 0 || strncmp(t, "panic: ", 7) == 0 ||
	    strncmp(t, "Fatal Python error:", 19) == 0 ||
	    (strncmp(t, "thread '", 8) == 0 && strstr(t, "' panicked at")))
		return 1;
	const char *p = t;
	while (isalnum((unsigned char)*p) || *p == '_' || *p == '.' || *p == ':' || *p == '$')
		p++;
	if (p == t)
		return 0;   /* no word at all: "<int> ..." */
	if (*p != '\0' && *p != ' ')
		p--;   /* the word ended in ':' */
	size_t n = (size_t)(p - t);
	while (n && t[n - 1] == ':')
		n--;
	static const char *const ends[] = { "Error", "Exception", "Exit", "Interrupt", "Fault" };
	for (size_t k = 0; k < sizeof(ends) / sizeof(ends[0]); k++) {
		size_t e = strlen(ends[k]);
		if (n >= e && memcmp(t + n - e, ends[k], e) == 0)
			return 1;
	}
	return 0;
}

int classify_message_follows(const char *t)
{
	size_t n = strlen(t);
	return strstr(t, "' panicked at ") && n && t[n - 1] == ':';
}

int classify_is_exception_shaped(const char *t)
{
	const char *p = t, *name = t;   /* name: the last dotted part */
	int lower = 0;                  /* a class name, not "INFO:" */
	while (isalnum((unsigned char)*p) || *p == '_' || *p == '.') {
		lower = *p == '.' ? 0 : lower | islower((unsigned char)*p);
		if (*p++ == '.')
			name = p;
	}
	return p > name && isupper((unsigned char)*name) && lower && p[0] == ':' && (p[1] == ' ' || p[1] == '\0');
}

/* A Go stack frame's function line: "main.main()", "created by
 * net/http.(*Server).Serve in goroutine 1", "panic({0x4a, 0x5c})". */
static int is_go_frame(const char *t)
{
	if (strncmp(t, "created by ", 11) == 0)
		return 1;
	const char *paren = strchr(t, '(');
	size_t n = strlen(t);
	return paren && paren > t && n && t[n - 1] == ')' && !memchr(t, ' ', (size_t)(paren - t));
}

/* multiprocessing's "Process SpawnProcess-1:" before a child's
 * traceback: "Process", one word, a colon, nothing else. */
static int is_process_header(const char *t)
{
	const char *p = after(t, "Process ");
	if (!p || !*p)
		return 0;
	size_t w = strcspn(p, " \t");
	return w >= 2 && p[w - 1] == ':' && p[w] == '\0';
}

enum classify_tb classify_traceback_role(const char *t)
{
	if (strstr(t, "Traceback (most recent call last)") || strstr(t, "terminate called after throwing") ||
	    is_process_header(t))
		return CLASSIFY_TB_START;
	if (after(t, "Caused by: "))
		return CLASSIFY_TB_CAUSE;
	if (classify_is_exception(t))
		return CLASSIFY_TB_EXC;
	if (strstr(t, "During handling of the above exception") || strstr(t, "The above exception was the direct cause"))
		return CLASSIFY_TB_CHAIN;
	/* Frames: indented lines (Python, Java's "\tat", Go's file lines),
	 * loguru's "> File" marker and "│ └" annotations, C++/torch "frame
	 * #3", Go's goroutine headers and function lines, faulthandler's
	 * "Current thread 0x... (most recent call first):"; the lines of
	 * quote marks that multiprocessing's RemoteTraceback puts around
	 * the child's traceback it quotes ('"""'). */
	if (*t == ' ' || *t == '\t' || *t == '\0' || strncmp(t, "File \"", 6) == 0 ||
	    strncmp(t, "> File \"", 8) == 0 || strncmp(t, "│", strlen("│")) == 0 ||
	    strncmp(t, "└", strlen("└")) == 0 || strncmp(t, "frame #", 7) == 0 ||
	    strncmp(t, "Exception raised from", 21) == 0 || strncmp(t, "goroutine ", 10) == 0 ||
	    strncmp(t, "[signal ", 8) == 0 || strstr(t, "(most recent call first)") || is_go_frame(t) ||
	    t[strspn(t, "^~ ")] == '\0' || strcmp(t, "\"\"\"") == 0)
		return CLASSIFY_TB_BODY;
	return CLASSIFY_TB_NO;
}

int classify_is_source_frame(const char *t)
{
	return after(t, "File \"") || after(t, "> File \"");
}

int classify_is_heartbeat(const struct ruleset *rs, const char *t)
{
	return rules_says(rs, RULE_HEARTBEAT, t);
}

int classify_is_request(const char *t)
{
	/* An access log's line quotes the request's protocol: "GET /todos
	 * HTTP/1.1" 200, whatever the server and the line's shape. */
	return strstr(t, " HTTP/") != NULL;
}

int classify_is_killed(const struct ruleset *rs, const char *t)
{
	/* Ctrl-C, and SIGTERM however it is reported: by name, or by torch
	 * elastic, whose SignalException and "Received 15 death signal"
	 * only ever report the signals it handles, all sent from outside
	 * (the number is masked in a template); by the exit status a shell
	 * or runner reports for them (128 + 2, 128 + 15); and a CI job
	 * cancelled by hand or by a newer push.  Not SIGKILL's 137 nor
	 * "Killed": the kernel's OOM killer and memory limits kill so too,
	 * which is a crash.  The words are the killed rules'. */
	return rules_says(rs, RULE_KILLED, t);
}

int classify_is_signalled(const struct ruleset *rs, const char *t)
{
	/* Any death by a signal, the kernel's SIGKILL too: what ended a
	 * process, not why (classify_is_killed's words say it came from
	 * outside). */
	return rules_says(rs, RULE_SIGNALLED, t);
}

int classify_is_peer_loss(const struct ruleset *rs, const char *t)
{
	return rules_says(rs, RULE_PEER_LOSS, t);
}

int classify_is_timeout(const struct ruleset *rs, const char *t)
{
	return rules_says(rs, RULE_TIMEOUT, t);
}

int classify_is_advice(const struct ruleset *rs, const char *t)
{
	return rules_says(rs, RULE_ADVICE, t);
}

int classify_is_wait(const struct ruleset *rs, const char *t)
{
	return rules_says(rs, RULE_WAIT, t);
}
