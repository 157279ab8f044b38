/* rules.c — STUB until the `rules` branch is merged: no built-in rules,
 * no rule files, nothing ever matches.  Learned milestones still work. */
#include "rules.h"

#include <stdlib.h>

#include "util.h"

int rules_builtin(struct ruleset *rs)
{
	rs->r = NULL;
	rs->n = rs->cap = 0;
	return 0;
}

int rules_load(struct ruleset *rs, const char *path)
{
	(void)rs;
	return error("cannot read rules from '%s': rule files are not supported yet", path);
}

void rules_free(struct ruleset *rs)
{
	if (!rs)
		return;
	free(rs->r);
	rs->r = NULL;
	rs->n = rs->cap = 0;
}

void rules_match(const struct ruleset *rs, const struct tmpl_table *tt, int32_t *out)
{
	(void)rs;
	for (size_t id = 0; id < tt->n; id++)
		out[id] = -1;
}
