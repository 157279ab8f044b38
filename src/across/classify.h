/* classify.h — what one line's text says on its own: how severe it is,
 * what part of a traceback it is, whether it is a heartbeat, whether it
 * says the process was stopped from outside.
 *
 * Pure functions of a template's (or a line's) text, without state; the
 * diagnosis calls them once per distinct template, never per line.  The
 * words of each kind (failure, error, warning, heartbeat, killed, peer
 * loss, timeout) are rules of those kinds (rules.h), the generic ones in
 * rules/generic.rules, which --rules none keeps; what stays here are the
 * shapes of the log formats ddx has met (Python tracebacks, Java stack
 * traces, C++ exceptions, Rust and Go panics), which are how text is
 * read, not words a system says. */
#ifndef DDX_CLASSIFY_H
#define DDX_CLASSIFY_H

struct ruleset;

enum classify_severity { CLASSIFY_INFO, CLASSIFY_WARNING, CLASSIFY_ERROR };

/* The part of a traceback a line is. */
enum classify_tb {
	CLASSIFY_TB_NO,     /* not part of one */
	CLASSIFY_TB_START,  /* "Traceback (most recent call last):",
			     * "terminate called after throwing ...", and
			     * multiprocessing's "Process SpawnProcess-1:" */
	CLASSIFY_TB_BODY,   /* frames: indented lines, "File \"...\"", loguru's
			     * "> File", "frame #3", "^^^", "goroutine 1
			     * [running]:", Go's "main.main()" */
	CLASSIFY_TB_EXC,    /* what was raised: "RuntimeError: ...", "panic: ...",
			     * "thread 'main' panicked at ...", "what(): ..." */
	CLASSIFY_TB_CHAIN,  /* "During handling of the above exception ...",
			     * "The above exception was the direct cause ..." */
	CLASSIFY_TB_CAUSE,  /* Java's "Caused by: java.io.IOException: ..." */
};

/* The severity of text t whose level the prefix parser found (LV_* of
 * prefix.h, LV_NONE when the line has none): the level wins when there
 * is one; words ("Error", "Traceback", "WARN": the error and warning
 * rules of rs) decide only for lines without one.  Words that always
 * mean a failure ("Address already in use", "[emerg]", "FATAL", "panic:
 * ", "Segmentation fault": the failure rules) make an error at any
 * level, and so do a non-zero exit status and an exception line. */
enum classify_severity classify_severity(const struct ruleset *rs, const char *t, int level);

/* Whether t says in words that something failed, whatever level its
 * line was logged at: "exception", "error", "fatal", "panic" or "abort"
 * as a word (or "errors", "panicked", "aborted", ...), not denied ("no
 * errors", "<int> errors", "without error"), or a failure
 * classify_severity reads at any level (a non-zero exit status, a
 * signal: "Segmentation fault", "core dumped"). */
int classify_names_failure(const struct ruleset *rs, const char *t);

/* Whether t is an error only by the failures it counts: a tally
 * ("failed=1" in Ansible's recap, "3 failed, 10 passed", "Errors: 2")
 * that says how many steps failed, not what went wrong.  Its words
 * counted, the rest of it says no error. */
int classify_is_tally(const struct ruleset *rs, const char *t);

/* Which part of a traceback t is (classify_tb). */
enum classify_tb classify_traceback_role(const char *t);

/* Whether t names a raised exception: "RuntimeError: ...",
 * "torch.OutOfMemoryError: ...", "KeyError: 'x'", C++'s "what():  ...",
 * Go's "panic: ...", Rust's "thread 'main' panicked at ...", "Fatal
 * Python error: ...", Java's "Exception in thread \"main\" ...". */
int classify_is_exception(const char *t);

/* Whether exception line t leaves what went wrong to the next line:
 * Rust since 1.73 prints "thread 'main' panicked at src/x.rs:4:5:" and
 * the panic's message on the line after it. */
int classify_message_follows(const char *t);

/* Whether t is a Python frame, 'File "x.py", line 3, in f': the line
 * after it is its source, indented or not (logs pasted into web pages
 * lose the indentation). */
int classify_is_source_frame(const char *t);

/* Whether t has the shape of a raised exception whatever its name:
 * "torch._dynamo.exc.BackendCompilerFailed: ...", "TimeoutExpired: ...",
 * a dotted name whose last part is capitalised, then ": ".  Only where
 * the format puts the exception (after a traceback's frames) does the
 * shape say it is one. */
int classify_is_exception_shaped(const char *t);

/* Whether t is what a healthy process keeps printing while idle or
 * serving (health checks, metrics, throughput reports), as the heartbeat
 * rules of rs say (rules/generic.rules). */
int classify_is_heartbeat(const struct ruleset *rs, const char *t);

/* Whether t logs a request a server answered (an access log's line):
 * when one comes depends on its clients, not on the run. */
int classify_is_request(const char *t);

/* Whether t says the process was stopped from outside (Ctrl-C, SIGTERM
 * from a supervisor, their exit statuses, a CI cancel): how a hang ends,
 * not a crash.  The words of this and the next three are the killed,
 * signalled, peer-loss and timeout rules of rs (rules/generic.rules). */
int classify_is_killed(const struct ruleset *rs, const char *t);

/* Whether t says a process died by a signal, whoever sent it (SIGKILL,
 * "exitcode: -9"): what ended it, not why. */
int classify_is_signalled(const struct ruleset *rs, const char *t);

/* Whether t says the other end of a connection went away ("Connection
 * reset by peer", "Broken pipe"): what the survivors of a distributed
 * job report when one member dies, a symptom rather than a cause. */
int classify_is_peer_loss(const struct ruleset *rs, const char *t);

/* Whether t says an operation gave up waiting ("Timed out waiting
 * 15000ms for recv", a watchdog's "collective operation timeout"): what
 * the members of a distributed job report when another stopped
 * answering. */
int classify_is_timeout(const struct ruleset *rs, const char *t);

/* Whether t tells what to run or read to learn more ("For more details
 * run the same command passing the '--verbose' option", "See the log
 * above"): advice, which says nothing of what failed.  The words are
 * the advice rules of rs (rules/generic.rules). */
int classify_is_advice(const struct ruleset *rs, const char *t);
/* Whether t says the process waits for something to happen ("Waiting
 * for root device /dev/mmcblk0p2...", "waiting for the lock"), not for
 * its own end ("waiting for workers to exit"): the wait rules' words. */
int classify_is_wait(const struct ruleset *rs, const char *t);

#endif
