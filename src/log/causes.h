/* causes.h — the catalogue of known causes: failures that repeat from
 * run to run and from team to team (CUDA out of memory while the KV
 * cache is sized, NCCL finding no network interface, a port in use),
 * each with what to do about it.
 *
 * Built-in cause files (causes/TOPIC.rules) are compiled into the binary;
 * the user's file $XDG_CONFIG_HOME/ddx/causes (~/.config/ddx/causes),
 * when it exists, and each --causes FILE add causes or replace built-in
 * ones of the same id.  A cause file has the syntax of a rule file
 * (rules.h: comments, blank lines, "[NAME]" sections) with one section
 * per cause and "KEY: VALUE" lines in it:
 *
 *   [nccl-no-socket-interface]
 *   title:    NCCL found no usable network interface
 *   line:     NCCL WARN Bootstrap : no socket interface found
 *   engine:   vllm
 *   explain:  NCCL picks the interface ...
 *   fix:      export NCCL_SOCKET_IFNAME=eth0
 *   url:      https://docs.nvidia.com/...
 *
 * "line: PATTERN" is a PCRE2 pattern searched in a line's clean text
 * (the whole line, header included, as printed), "template: PATTERN" one
 * searched in its template (rules.h); a cause has at least one of them,
 * either repeatable, and matches a line when any of them does.  "engine:
 * NAME" (optional) restricts it to logs that engine wrote (rules_engine);
 * "step: PATTERN" (optional) to runs whose last milestone reached has a
 * name PATTERN matches ("" when none was); "where: crash" (optional) to
 * the lines of the error that ended the run, for words that healthy runs
 * also print on their way (an optional plugin's import error).  "title:", "fix:" and "url:"
 * are required, one line each; "explain:" is required and may repeat,
 * its lines joined by a blank into one paragraph. */
#ifndef DDX_CAUSES_H
#define DDX_CAUSES_H

#include <stddef.h>

#include "rules.h"

struct cause {
	char *id;             /* "cuda-oom-kv-cache" */
	char *title, *explain, *fix, *url;
	char *engine;         /* or NULL: any */
	void *step;           /* pcre2_code * on the last milestone's name, or NULL */
	void **line;          /* pcre2_code * on the clean line text */
	size_t nline;
	void **tmpl;          /* pcre2_code * on the template */
	size_t ntmpl;
	int crash_only;       /* "where: crash" */
	const char *path;     /* the file it came from (its text is static or
			       * outlives the set: only for messages) */
};

struct causeset {
	struct cause *c;
	size_t n, cap;
};

/* Add the causes of text[0..len) (path names it in errors, "ddx:
 * path:12: ..."); a cause with the id of an existing one replaces it.
 * Returns 0, or -1 after an error naming the file and line; cs is then
 * as it was. */
int causes_parse(struct causeset *cs, const char *path, const char *text, size_t len);
/* The same for the file at path. */
int causes_load(struct causeset *cs, const char *path);
/* The built-in causes, then the user's file if it exists, then each of
 * files[0..nfiles).  Returns 0, or -1 after printing an error; cs is
 * then empty but must still be freed. */
int causes_init(struct causeset *cs, char *const *files, size_t nfiles);
void causes_free(struct causeset *cs);

/* Whether cause c names a line: clean text line[0..len) of template
 * tmpl[0..tlen), in a log of engine (NULL: unknown) whose last milestone
 * reached is step ("" for none); crash says whether the line is one of
 * the error that ended the run.  Context (engine, step, where) a cause
 * asks for and the log does not give fails it. */
int cause_matches(const struct cause *c, const char *line, size_t len, const char *tmpl,
		  size_t tlen, const char *engine, const char *step, int crash);

/* The built-in cause files, generated from causes/TOPIC.rules. */
extern const struct rules_file causes_builtin_files[];
extern const size_t causes_builtin_count;

#endif
