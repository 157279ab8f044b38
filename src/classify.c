/* classify.c — what one line's text says on its own.  See classify.h. */
#include "classify.h"

#include <ctype.h>
#include <string.h>

#include "prefix.h"
#include "util.h"

enum classify_severity classify_severity(const char *t, int level)
{
	static const char *const err[] = {
		"Error", "ERROR", "error:", "Exception", "Traceback", "FAILED", "failed",
		"Fatal", "FATAL", "fatal", "Segmentation fault", "core dumped", "Killed",
		"out of memory", "terminate called", "what():", "Aborted", "sigquit",
		"SIGKILL", "panic", NULL,
	};
	static const char *const warn[] = { "WARN", "Warn", "warn", "deprecat", "Deprecat", NULL };
	/* The level the program gave wins; words decide only for lines
	 * without one (SGLang's, tracebacks, shell messages). */
	if (level >= LV_ERROR)
		return CLASSIFY_ERROR;
	if (level == LV_WARN)
		return CLASSIFY_WARNING;
	if (level != LV_NONE)
		return classify_traceback_role(t) == CLASSIFY_TB_EXC ? CLASSIFY_ERROR : CLASSIFY_INFO;
	if (contains_any(t, err))
		return CLASSIFY_ERROR;
	if (contains_any(t, warn))
		return CLASSIFY_WARNING;
	return CLASSIFY_INFO;
}

int classify_is_exception(const char *t)
{
	while (*t == ' ' || *t == '\t')
		t++;
	if (strncmp(t, "what():", 7) == 0)
		return 1;
	const char *p = t;
	while (isalnum((unsigned char)*p) || *p == '_' || *p == '.' || *p == ':')
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

enum classify_tb classify_traceback_role(const char *t)
{
	if (strstr(t, "Traceback (most recent call last)") || strstr(t, "terminate called after throwing"))
		return CLASSIFY_TB_START;
	if (classify_is_exception(t))
		return CLASSIFY_TB_EXC;
	if (strstr(t, "During handling of the above exception") || strstr(t, "The above exception was the direct cause"))
		return CLASSIFY_TB_CHAIN;
	if (*t == ' ' || *t == '\t' || *t == '\0' || strncmp(t, "File \"", 6) == 0 ||
	    strncmp(t, "frame #", 7) == 0 || strncmp(t, "Exception raised from", 21) == 0 ||
	    t[strspn(t, "^~ ")] == '\0')
		return CLASSIFY_TB_BODY;
	return CLASSIFY_TB_NO;
}

int classify_is_heartbeat(const char *t)
{
	static const char *const hb[] = {
		"/health", "/metrics", "/ping", "heartbeat", "Heartbeat", "throughput", NULL,
	};
	return contains_any(t, hb);
}

int classify_is_killed(const char *t)
{
	static const char *const k[] = { "KeyboardInterrupt", "SIGTERM", "SIGINT", NULL };
	return contains_any(t, k);
}
