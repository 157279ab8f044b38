/* rules.h — milestone rules: named steps of a run (weights loaded, KV cache
 * allocated, server ready), recognised by a PCRE2 pattern on the template.
 *
 * Built-in rule files (rules/ENGINE.rules) are compiled into the binary;
 * --rules FILE adds rules or overrides built-in ones of the same name.
 * Rules run once per distinct template, never per line. */
#ifndef DDX_RULES_H
#define DDX_RULES_H

#include <stddef.h>
#include <stdint.h>

#include "template.h"

struct rule {
	char *name;       /* "kv cache allocated" */
	char *engine;     /* "sglang", "vllm", "generic", ... */
	int final;        /* reaching it means the run is up (server ready) */
	void *re;         /* compiled pattern (pcre2_code *) */
};

struct ruleset {
	struct rule *r;
	size_t n, cap;
};

/* Load the built-in rules.  Returns 0, or -1 after printing an error. */
int rules_builtin(struct ruleset *rs);
/* Add the rules of a file; a rule with the name and engine of an existing
 * one replaces it.  Errors name the file and line, return -1. */
int rules_load(struct ruleset *rs, const char *path);
void rules_free(struct ruleset *rs);

/* For every template of tt: out[id] = index of the first rule whose
 * pattern matches its text, or -1. */
void rules_match(const struct ruleset *rs, const struct tmpl_table *tt, int32_t *out);

#endif
