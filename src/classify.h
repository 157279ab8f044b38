/* classify.h — what one line's text says on its own: how severe it is,
 * what part of a traceback it is, whether it is a heartbeat, whether it
 * says the process was stopped from outside.
 *
 * Pure functions of a template's (or a line's) text, without state; the
 * diagnosis calls them once per distinct template, never per line.  The
 * words they look for are those of the log formats ddx has met (Python
 * tracebacks, C++ exceptions, shell messages) and hold for any program
 * that prints them. */
#ifndef DDX_CLASSIFY_H
#define DDX_CLASSIFY_H

enum classify_severity { CLASSIFY_INFO, CLASSIFY_WARNING, CLASSIFY_ERROR };

/* The part of a traceback a line is. */
enum classify_tb {
	CLASSIFY_TB_NO,     /* not part of one */
	CLASSIFY_TB_START,  /* "Traceback (most recent call last):" */
	CLASSIFY_TB_BODY,   /* indented frames, "File \"...\"", "frame #3", "^^^" */
	CLASSIFY_TB_EXC,    /* the exception raised: "RuntimeError: ..." */
	CLASSIFY_TB_CHAIN,  /* "During handling of the above exception ..." */
};

/* The severity of text t whose level the prefix parser found (LV_* of
 * prefix.h, LV_NONE when the line has none): the level wins when there
 * is one; words ("Error", "Traceback", "WARN") decide only for lines
 * without one. */
enum classify_severity classify_severity(const char *t, int level);

/* Which part of a traceback t is (classify_tb). */
enum classify_tb classify_traceback_role(const char *t);

/* Whether t names a raised exception: "RuntimeError: ...",
 * "torch.OutOfMemoryError: ...", "KeyError: 'x'", C++'s "what():  ...". */
int classify_is_exception(const char *t);

/* Whether t is what a healthy process keeps printing while idle or
 * serving (health checks, metrics, throughput reports). */
int classify_is_heartbeat(const char *t);

/* Whether t says the process was stopped from outside (Ctrl-C, SIGTERM
 * from a supervisor): how a hang ends, not a crash. */
int classify_is_killed(const char *t);

#endif
