/* rules.h — milestone rules: named steps of a run (weights loaded, KV cache
 * allocated, server ready), recognised by a PCRE2 pattern on the template.
 *
 * Built-in rule files (rules/ENGINE.rules) are compiled into the binary;
 * --rules FILE adds rules or overrides built-in ones of the same name.
 * Rules run once per distinct template, never per line.  An engine is a
 * section of rules: which engine wrote a log is what its marks say
 * (rules_engine), which engine a run's milestones are mostly of is
 * timeline_main_engine's.
 *
 * A rule file is lines of text:
 *
 *   # a comment (also blank lines)
 *   [sglang]                              the engine of the rules below
 *   step  weights loaded: Load weight end\b
 *   final server ready: fired up and ready to roll
 *   mark  its name: (?i)sglang
 *
 * "step NAME: PATTERN" is a milestone, "final NAME: PATTERN" one that means
 * the run is up (a server serves), "done NAME: PATTERN" one that means a
 * job finished (a training run, a CI job), and "fail NAME: PATTERN" one
 * that means the job failed: a job whose log has a fail milestone did not
 * finish, whatever done milestone follows (a CI runner cleans up after a
 * failed step as after a good one).  "stop NAME: PATTERN" is no
 * milestone: it marks a line that says the run is shutting down
 * ("closing ...", "Stopped", "exiting"), of whatever engine (rules_stops),
 * which a sentence never names as where the good run went.  "mark NAME:
 * PATTERN" is no milestone either: a template it matches names the
 * section's engine ("sglang", "EngineCore"), whichever line it is; the
 * engine most templates name wrote the log (rules_engine).  "config NAME:
 * PATTERN" is none either: where PATTERN first matches in a log's bytes
 * (not its templates, whose values are masked), a configuration dump
 * follows, the rest of the line, KEY=VALUE or 'KEY': VALUE items
 * ("server_args=ServerArgs\("); or, when PATTERN has a group, that group
 * is the value of the key NAME ("vllm_version: vLLM API server version
 * (\S*)"); see rules_config.  "heartbeat NAME: PATTERN" is none
 * either: words for what a healthy process keeps printing while idle or
 * serving ("/health", "throughput"), whatever the engine (rules_says,
 * classify.h); nor are "failure NAME: PATTERN", words that say a process
 * failed at whatever level its line was logged ("Segmentation fault",
 * "[emerg]"), "error NAME: PATTERN" and "warning NAME: PATTERN", words
 * that make a line without a level an error ("Traceback", "ERR!") or a
 * warning ("deprecat"), "killed NAME: PATTERN" (the process was stopped
 * from outside: "SIGTERM", a CI cancel), "peer-loss NAME: PATTERN" (the
 * other end of a connection went away: "Broken pipe"), "timeout NAME:
 * PATTERN" (an operation gave up waiting: "timed out") and "advice NAME:
 * PATTERN" (what to run or read to learn more: "For more details run
 * the same command passing the '--verbose' option").  NAME runs to the first ':' and may not contain
 * one;
 * PATTERN is the rest of the line without surrounding blanks, a PCRE2
 * pattern searched (not anchored) in the template text: the message with
 * variable tokens replaced by placeholders, so patterns should name the
 * constant words.  Engine and milestone names are compared exactly.
 * PATTERN may start with "level=LEVEL " (error, warn, ...): then only
 * templates of that level match, and the rest of PATTERN may be empty.
 * "weak step ..." or "weak final ..." marks a rule too loose to trust on
 * its own (`"GET <path> HTTP`): it counts only in logs where a rule of its
 * engine without "weak" matched.  "server step ..." marks a milestone
 * that only a server prints, for an engine that also runs in jobs and has
 * no final rule of its own: vLLM's API server banner, where the offline
 * LLM() of a script prints none (timeline_state: a server must come up). */
#ifndef DDX_RULES_H
#define DDX_RULES_H

#include <stddef.h>
#include <stdint.h>

#include "template.h"

struct rule {
	char *name;       /* "kv cache allocated" */
	char *engine;     /* "sglang", "vllm", "generic", ... */
	int final;        /* reaching it means the run is up (server ready) or,
			     with done, finished (job ended cleanly) */
	int done;         /* a job's clean end, not a server's start */
	int fail;         /* reaching it means the job failed */
	int stop;         /* no milestone: the line says the run shuts down */
	int mark;         /* no milestone: the template names the engine */
	int config;       /* no milestone: a configuration dump or value */
	int words;        /* no milestone: words of a kind (enum rule_words), or 0 */
	int level;        /* enum level the template must have, or LV_NONE */
	void *re;         /* compiled pattern (pcre2_code *) */
	char *pattern;    /* its source text */
	int weak;         /* counts only where a strong rule of its engine matched */
	int server;       /* only a server prints it: see timeline_state */
};

/* The kinds of words a line may say, whoever printed it (rules_says). */
enum rule_words {
	RULE_WORDS_NONE,
	RULE_HEARTBEAT,   /* "heartbeat": a healthy process idling or serving */
	RULE_FAILURE,     /* "failure": a process failed, whatever the level */
	RULE_ERROR,       /* "error": an error, for a line without a level */
	RULE_WARNING,     /* "warning": a warning, for a line without a level */
	RULE_KILLED,      /* "killed": the process was stopped from outside */
	RULE_SIGNALLED,   /* "signalled": a process died by a signal, any signal */
	RULE_PEER_LOSS,   /* "peer-loss": the other end of a connection went away */
	RULE_TIMEOUT,     /* "timeout": an operation gave up waiting */
	RULE_ADVICE,      /* "advice": what to run or read to learn more */
	RULE_WAIT,        /* "wait": the process waits for something to happen */
};

struct ruleset {
	struct rule *r;
	size_t n, cap;
};

/* The engine whose rules are a fallback: see rules_match. */
#define RULES_GENERIC "generic"

/* Load the built-in rules.  Returns 0, or -1 after printing an error. */
int rules_builtin(struct ruleset *rs);
/* Add the rules of a file; a rule with the name and engine of an existing
 * one replaces it.  Errors name the file and line, return -1. */
int rules_load(struct ruleset *rs, const char *path);
/* Add the rules in text[0..len), as rules_load does for a file; path only
 * names the text in errors ("ddx: path:12: ...").  The rules of one text
 * are tried in their order, before those of earlier texts. */
int rules_parse(struct ruleset *rs, const char *path, const char *text, size_t len);
/* Everything a command uses: the built-in rules, then the user's file
 * $XDG_CONFIG_HOME/ddx/rules (~/.config/ddx/rules) if it exists, then each
 * of files[0..nfiles).  A file named RULES_NONE ("none"; a file of that
 * name is "./none") leaves out the user's file and every built-in rule but
 * the generic words' (engine RULES_GENERIC: "listening on", "ready"): what
 * ddx does without any per-system knowledge, the generic path that must
 * stand on its own.  Returns 0, or -1 after printing an error; rs is
 * then empty but must still be freed. */
#define RULES_NONE "none"
int rules_init(struct ruleset *rs, char *const *files, size_t nfiles);
/* Free the rules (rs itself belongs to the caller).  Accepts an empty or
 * zeroed ruleset. */
void rules_free(struct ruleset *rs);

/* For every template of tt: out[id] = index of the first rule whose
 * pattern matches its text, or -1.  Weak rules are tried after the others,
 * and only those of engines that a strong rule recognised in tt.  Rules of
 * the engine "generic" count only when no rule of another engine matched
 * any template of tt but done and fail rules: generic words ("started",
 * "ready") would otherwise crowd a log that has real milestones, and a
 * job's end tells nothing of the steps before it. */
void rules_match(const struct ruleset *rs, const struct tmpl_table *tt, int32_t *out);

/* For each of texts[0..n) (templates): out[k] = 1 when a stop rule of
 * any engine matches it (the run is shutting down), else 0.  Shutdown
 * words are the same whatever the program, so unlike milestones they
 * need no engine recognised. */
void rules_stops(const struct ruleset *rs, const char *const *texts, size_t n, uint8_t *out);

/* The engine that wrote a log: of the engines with mark rules, the one
 * whose marks match the most of its distinct templates texts[0..n)
 * (lens[k] bytes each), a template counting for the first mark that
 * matches it, as a milestone is the first rule's.  Engines name each
 * other (SGLang imports vLLM's kernels, both print torch's warnings), so
 * a count, not one template, decides.  format, the log's header format
 * (prefix_format_name) or NULL, counts as five templates for the engine
 * of its name (SGLang's and vLLM's own headers); ties go to the first
 * name in byte order, whatever order the rules were loaded in.  NULL
 * when no mark matched and the format names no engine that has marks. */
const char *rules_engine(const struct ruleset *rs, const char *const *texts, const size_t *lens,
			 size_t n, const char *format);

/* Where config rule r first matches in a log's bytes data[0..size):
 * 0 when nowhere, else 1 with [*from, *to) the offsets of what it gives:
 * the value of the key r->name when its pattern has a group (*one = 1),
 * else the dump of items that follows the match to the end of its line
 * (without a '\r'; *one = 0).  The dumps are printed once, at startup,
 * and looked for once per log (logmeta_config), not per template. */
int rules_config(const struct rule *r, const char *data, size_t size, size_t *from, size_t *to,
		 int *one);

/* Whether a rule of kind words (of any engine) matches text t: words
 * mean the same whatever program prints them, so, like stop rules, they
 * need no engine recognised.  The built-in ones are the generic
 * engine's, which --rules none keeps. */
int rules_says(const struct ruleset *rs, enum rule_words words, const char *t);

/* What cause files (causes.h) share with rule files: their syntax of
 * comments, blank lines and "[NAME]" sections, their PCRE2 patterns and
 * where the user's files are. */
/* Rule files are small; this only bounds a mistaken --rules huge.log. */
#define RULES_MAX_SIZE ((size_t)16 << 20)
/* Call fn on each line of text[0..len) that is not blank or a comment,
 * trimmed, with its 1-based number, until fn returns < 0 (returned). */
int rules_each_line(const char *path, const char *text, size_t len,
		    int (*fn)(void *ctx, const char *s, size_t n, size_t lineno), void *ctx);
/* Parse "[NAME]" s[0..n) into *name (replacing the previous one); what
 * names what NAME is in errors ("ENGINE"). */
int rules_section(const char *s, size_t n, const char *what, char **name, const char *path,
		  size_t lineno);
/* pat[0..len) compiled (pcre2_code *), or NULL after an error naming
 * path:lineno. */
void *rules_compile(const char *pat, size_t len, const char *path, size_t lineno);
/* $XDG_CONFIG_HOME/ddx/FILE (~/.config/ddx/FILE), malloc'd, or NULL when
 * there is no place for it. */
char *rules_user_path(const char *file);

/* The built-in rule files, generated from rules/ENGINE.rules by the Makefile. */
struct rules_file {
	const char *path;   /* "rules/sglang.rules" */
	const char *text;
};
extern const struct rules_file rules_builtin_files[];
extern const size_t rules_builtin_count;

#endif
