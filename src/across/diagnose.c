/* diagnose.c — differential diagnosis: the driver and the accessors.
 * See diagnose.h.
 *
 * diagnose() runs named passes over one state, in order, as git's
 * diffcore_std runs its passes over one queue.  Each pass is declared in
 * diagnose_passes.h with what it reads and what it fills, and lives with
 * its kind in a file of its own:
 *
 *   diagnose_skeleton.c  what the logs teach before any alignment:
 *                        canonical ids, streams, per-template facts,
 *                        learned milestones, heartbeats, attempts
 *   diagnose_follow.c    which bad lines follow each good run: the
 *                        alignment, then the walk and its rules
 *   diagnose_findings.c  new lines and tracebacks, changed values, ranks
 *   diagnose_timing.c    milestones, slow steps, waiting, silence, the
 *                        good runs' time where bad stands
 *   diagnose_verdict.c   the crash and its cause, where bad got, the
 *                        verdict, what the good run did next
 *
 * Each rule a pass applies is a named function there, its comment the
 * property it guarantees; tests/unit/test_diagnose.c holds a test per
 * rule.  Everything works on template ids and touches each distinct
 * template once. */
#include "diagnose.h"
#include "diagnose_passes.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

const char *dx_verdict_name(int v)
{
	static const char *const names[] = { "same", "different", "stopped", "crashed", "diverged", "failed",
					     "interrupted", "running" };
	return v >= 0 && v <= DX_RUNNING ? names[v] : "?";
}

const char *dx_severity_name(int s)
{
	static const char *const names[] = { "info", "warning", "error" };
	return s >= 0 && s <= DX_ERROR ? names[s] : "?";
}

const char *dx_hang_kind_name(int k)
{
	static const char *const names[] = { NULL, "never-entered", "stuck-inside", "all-stuck", "mismatch",
					     "not-collective", "slow", "not-started" };
	return k > 0 && k <= DX_HANG_NOT_STARTED ? names[k] : NULL;
}

void diagnose(struct log *logs, size_t nlogs, struct tmpl_table *tt,
	      const struct ruleset *rs, const struct dx_options *opt,
	      struct diagnosis *d)
{
	memset(d, 0, sizeof(*d));
	struct dx_state *st = xmalloc(sizeof(*st));
	/* Canonical ids, streams, per-template facts, milestones, steps and
	 * bad's attempts; d's good runs, attempts and stream names. */
	pass_skeleton(st, logs, nlogs, tt, rs, d);
	d->st = st;
	st->opt = opt;
	/* Which bad lines follow each good run (st->ws), and the good run
	 * reported against (st->w, d->good). */
	pass_follow(st, d);
	/* What is new in bad (d->novel), what changed (d->changed). */
	pass_novel(st, d);
	pass_changes(st, d);
	/* The good run's milestones (d->ms, d->up), the slow steps
	 * (d->slow), and what a stalled run waits for (d->waiting; the
	 * notice is a heartbeat from here on). */
	pass_milestones(st, d);
	pass_slow(st, d);
	pass_waiting(st, d);
	/* The crash and its cause (d->crash); whether bad reached the good
	 * run's end and where it got (d->bad_line, good_line); the verdict;
	 * what the good run did next (d->next). */
	pass_crash(st, d);
	pass_reach(st, d);
	pass_verdict(st, d);
	pass_next(st, d);
	/* How long bad has been silent (d->silent_s), against the good
	 * runs' gap and step time where it stands (d->good_gap_s,
	 * good_step_s). */
	pass_silence(st, d);
	pass_good_time(st, d);
	/* Where each rank got, the culprit (d->ranks, d->culprit), and the
	 * step time of a rank that holds the run (d->good_step_s). */
	pass_ranks(st, d);
	pass_rank_behind(st, d);
	/* Each rank's collectives and the shape of the hang
	 * (d->coll), and the culprit it names where none was found. */
	pass_collectives(st, d);
	/* A crash that only ended a hang is a stop (d->hung_s); a stop that
	 * is not overdue yet is a run still in its step; the hang kind says
	 * so too. */
	pass_hung(st, d);
	pass_running(d);
	collectives_kind(d);
	pass_fold(st, d);
	followings_free(st);
	st->opt = NULL;
}

void dx_set_silence(struct diagnosis *d, double silent_s)
{
	d->silent_s = silent_s;
	pass_running(d);
	collectives_kind(d);
}

/* A learned milestone is named by the good run's own line, never by its
 * template: people read what the run printed ("Saved checkpoint to
 * out/ckpt-500"), not "Saved checkpoint to <path>".  So is one of the
 * generic words' rules: their names are the words any program uses
 * ("started", "listening"), and the line says what.  The line is read
 * the first time it is asked for: a good log of distinct lines learns a
 * milestone per line, and a report names a few. */
int dx_milestone_by_rule(const struct diagnosis *d, const struct dx_milestone *m)
{
	int32_t r = d->st->rule[m->id];
	return m->name && (r < 0 || strcmp(d->st->rs->r[r].engine, RULES_GENERIC) != 0);
}

const char *dx_milestone_name(const struct diagnosis *d, const struct dx_milestone *m)
{
	if (dx_milestone_by_rule(d, m))
		return m->name;
	char **line = &d->st->ms_line[m - d->ms];
	if (!*line) {
		/* Named from its first word: indentation is layout. */
		*line = log_message(d->good_log, (size_t)m->good_line);
		size_t lead = strspn(*line, " \t");
		memmove(*line, *line + lead, strlen(*line + lead) + 1);
	}
	return *line;
}

const struct dx_milestone *dx_final_milestone(const struct diagnosis *d)
{
	return named_end(d->st, d);
}

const char *dx_template_text(const struct diagnosis *d, uint32_t id)
{
	return id < d->st->nc ? d->st->ctext[id] : "";
}

uint32_t dx_bad_id(const struct diagnosis *d, int64_t i)
{
	return d->st->id[d->st->bad][i];
}

uint32_t dx_good_id(const struct diagnosis *d, int64_t j)
{
	return d->st->id[d->good][j];
}

int64_t dx_first_line(const struct diagnosis *d, size_t l, uint32_t id)
{
	int64_t i = d->st->first[l * d->st->nc + id];
	return i < 0 ? DX_NONE : i;
}

void diagnosis_free(struct diagnosis *d)
{
	if (!d)
		return;
	if (d->st)
		strv_free(d->st->ms_line, d->nms);
	skeleton_free(d->st);
	for (size_t k = 0; k < d->nchanged; k++) {
		free(d->changed[k].label);
		free(d->changed[k].key);
		free(d->changed[k].good);
		free(d->changed[k].bad);
	}
	free(d->changed);
	for (size_t k = 0; k < d->nnovel; k++)
		free(d->novel[k].streams);
	free(d->novel);
	free(d->next);
	free(d->ms);
	free(d->slow);
	free(d->ranks);
	free(d->culprit.peers);
	free(d->culprit.unheard);
	free(d->coll.r);
	free(d->coll.sentence);
	memset(d, 0, sizeof(*d));
}

/* The number name ends in, into *num, and the length before it; the
 * whole length when it ends in none. */
static size_t name_number(const char *name, unsigned long *num)
{
	size_t n = strlen(name), k = n;
	while (k > 0 && isdigit((unsigned char)name[k - 1]))
		k--;
	*num = k < n && n - k < 9 ? strtoul(name + k, NULL, 10) : 0;
	return k < n && n - k < 9 ? k : n;
}

void dx_streams_text(struct buf *b, const struct diagnosis *d, const struct dx_novel *n)
{
	size_t items = 0, k = 0;
	while (k < n->nstreams) {
		const char *a = d->stream_names[n->streams[k]];
		unsigned long x, y;
		size_t pa = name_number(a, &x), e = k + 1;
		/* The run of names one prefix counting up from a. */
		while (pa < strlen(a) && e < n->nstreams) {
			const char *z = d->stream_names[n->streams[e]];
			if (name_number(z, &y) != pa || memcmp(a, z, pa) != 0 || y != x + (e - k))
				break;
			e++;
		}
		if (items == 4) {
			buf_printf(b, " and %zu more", (size_t)n->nstreams - k);
			return;
		}
		buf_printf(b, "%s%s", items++ ? ", " : "", a);
		if (e - k >= 3)
			buf_printf(b, "..%s", d->stream_names[n->streams[e - 1]]);
		else
			e = k + 1;
		k = e;
	}
}

