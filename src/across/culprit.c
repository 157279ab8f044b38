/* culprit.c — the rank a distributed job's failure started on.  See
 * culprit.h.
 *
 * A "unit" is one rank of the job.  Its lines may carry two tags: a
 * job's own ("TP1") and torch's "[rank1]:" on what torch prints for it.
 * Two families of tags numbered alike (TP0..TP3 and rank0, rank1, rank3)
 * name the same processes, so the smaller family's streams join the
 * larger's ranks of the same number. */
#include "culprit.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "classify.h"
#include "util.h"

struct unit {
	const char *name;
	long num;
	int64_t first_error;  /* its first new error that is no kill notice */
	int64_t error_summary;
	int waits;            /* DX_WAIT_* of that error; 0: an error of its own */
	int64_t last_ok;      /* its last line before first_error */
	int64_t *fl;          /* its lines that follow the good run */
	size_t nfl;
};

/* The number in a stream's name when it has exactly one ("TP3",
 * "rank=2"), else -1 ("DP0 TP3", "APIServer"). */
static long name_number(const char *s)
{
	long num = -1;
	int runs = 0;
	while (*s) {
		if (!isdigit((unsigned char)*s)) {
			s++;
			continue;
		}
		long v = 0;
		for (; isdigit((unsigned char)*s); s++)
			v = v < 1000000 ? v * 10 + (*s - '0') : v;
		num = v;
		runs++;
	}
	return runs == 1 ? num : -1;
}

/* For sorting: a rank's kind (its name without digits) and index, a
 * stream name's address, a unit's number. */
struct key {
	const void *p;
	long v;
	size_t k;
};

static int by_kind(const void *x, const void *y)
{
	const struct key *a = x, *b = y;
	int c = strcmp(a->p, b->p);
	return c ? c : (a->k > b->k) - (a->k < b->k);
}

static int by_value(const void *x, const void *y)
{
	const struct key *a = x, *b = y;
	uintptr_t p = (uintptr_t)a->p, q = (uintptr_t)b->p;
	return p != q ? (p > q) - (p < q) : (a->v > b->v) - (a->v < b->v);
}

/* stream[k]: the stream of d->ranks[k], whose name is one of in->names
 * (the same address).  kk: room for d->nranks keys. */
static void rank_streams(const struct culprit_input *in, const struct diagnosis *d, struct key *kk,
			 size_t *stream)
{
	size_t nr = d->nranks;
	for (size_t k = 0; k < nr; k++)
		kk[k] = (struct key){ .p = d->ranks[k].name, .k = k };
	qsort(kk, nr, sizeof(*kk), by_value);
	for (size_t s = 0; s < in->nstreams; s++) {
		struct key q = { .p = in->names[s] }, *hit = bsearch(&q, kk, nr, sizeof(*kk), by_value);
		if (hit)
			stream[hit->k] = s;
	}
}

/* Families: names alike but for their digits.  num[k]: the number in
 * d->ranks[k]'s name, or -1; root[k]: for a numbered rank, the first
 * numbered rank of its family in d->ranks' order, else k.  kk: room for
 * d->nranks keys. */
static void find_families(const struct diagnosis *d, struct key *kk, long *num, size_t *root)
{
	size_t nr = d->nranks;
	char **kind = xmalloc(nr * sizeof(*kind));
	for (size_t k = 0; k < nr; k++) {
		num[k] = name_number(d->ranks[k].name);
		kind[k] = xstrdup(d->ranks[k].name);
		char *w = kind[k];
		for (const char *r = kind[k]; *r; r++)
			if (!isdigit((unsigned char)*r))
				*w++ = *r;
		*w = 0;
		kk[k] = (struct key){ .p = kind[k], .k = k };
		root[k] = k;
	}
	qsort(kk, nr, sizeof(*kk), by_kind);
	for (size_t a = 0, b; a < nr; a = b) {
		size_t first = nr;
		for (b = a; b < nr && strcmp(kk[b].p, kk[a].p) == 0; b++)
			if (num[kk[b].k] >= 0 && first == nr)
				first = kk[b].k;
		for (size_t j = a; j < b; j++)
			if (num[kk[j].k] >= 0)
				root[kk[j].k] = first;
	}
	for (size_t k = 0; k < nr; k++)
		free(kind[k]);
	free(kind);
}

/* The root of the job's own family: the one of the most numbered names,
 * two at least, ties to the one whose streams have more following lines
 * (nfollow), then to the first; d->nranks for none. */
static size_t main_family(const struct diagnosis *d, const long *num, const size_t *root,
			  const int64_t *nfollow, const size_t *stream)
{
	size_t nr = d->nranks;
	size_t *members = xcalloc(nr, sizeof(*members));
	int64_t *lines = xcalloc(nr, sizeof(*lines));
	for (size_t k = 0; k < nr; k++)
		if (num[k] >= 0)
			members[root[k]]++, lines[root[k]] += nfollow[stream[k]];
	size_t main = nr;
	for (size_t k = 0; k < nr; k++)
		if (members[k] >= 2 && (main == nr || members[k] > members[main] ||
					(members[k] == members[main] && lines[k] > lines[main])))
			main = k;
	free(members);
	free(lines);
	return main;
}

/* The units: the numbered ranks of family main, in d->ranks' order, each
 * its stream's unit (unit_of).  kk[0..n): their numbers and indices,
 * sorted by number for join_families.  Returns n, 0 for no family. */
static size_t main_units(const struct diagnosis *d, const long *num, const size_t *root, const size_t *stream,
			 size_t main, struct unit *u, long *unit_of, struct key *kk)
{
	size_t n = 0;
	for (size_t k = 0; k < d->nranks && main < d->nranks; k++)
		if (root[k] == main && num[k] >= 0) {
			unit_of[stream[k]] = (long)n;
			kk[n] = (struct key){ .v = num[k], .k = n };
			u[n++] = (struct unit){ .name = d->ranks[k].name, .num = num[k], .first_error = DX_NONE,
						.error_summary = DX_NONE, .last_ok = DX_NONE };
		}
	qsort(kk, n, sizeof(*kk), by_value);
	return n;
}

/* The other families join, when all their numbers are the job's ranks:
 * each of their streams is the unit of its number (unit_of).  fits[f]:
 * family f does; kk[0..n): the units' numbers, sorted. */
static void join_families(const struct diagnosis *d, const long *num, const size_t *root, const size_t *stream,
			  size_t main, const struct key *kk, size_t n, long *unit_of)
{
	size_t nr = d->nranks;
	uint8_t *fits = xmalloc(nr);
	long *to = xmalloc(nr * sizeof(*to));
	memset(fits, 1, nr);
	for (size_t k = 0; k < nr; k++) {
		struct key q = { .v = num[k] };
		const struct key *hit = num[k] >= 0 ? bsearch(&q, kk, n, sizeof(*kk), by_value) : NULL;
		to[k] = hit ? (long)hit->k : -1;
		if (!hit)
			fits[root[k]] = 0;
	}
	for (size_t k = 0; k < nr && main < nr; k++)
		if (root[k] != main && num[k] >= 0 && fits[root[k]])
			unit_of[stream[k]] = to[k];
	free(fits);
	free(to);
}

/* The ranks of the job, from d->ranks: the largest family of names of
 * one kind, each numbered once (ties to the family with more following
 * lines: the job's own tags over torch's error prefixes), with the
 * streams of the other families whose numbers all occur in it.
 * unit_of[s]: the unit of stream s, or -1; stream[k]: the stream of
 * d->ranks[k].  Returns the unit count.
 * Sorted lookups: a job may have thousands of ranks. */
static size_t find_units(const struct culprit_input *in, const struct diagnosis *d,
			 const int64_t *nfollow, struct unit *u, long *unit_of, size_t *stream)
{
	size_t nr = d->nranks;
	size_t *root = xmalloc(nr * sizeof(*root));
	long *num = xmalloc(nr * sizeof(*num));
	struct key *kk = xmalloc(nr * sizeof(*kk));
	rank_streams(in, d, kk, stream);
	find_families(d, kk, num, root);
	size_t main = main_family(d, num, root, nfollow, stream);
	size_t n = main_units(d, num, root, stream, main, u, unit_of, kk);
	join_families(d, num, root, stream, main, kk, n, unit_of);
	free(kk);
	free(root);
	free(num);
	return n;
}

/* Whether unit a stopped before b: b printed a's last following step
 * (the same template, as many times) and followed the good run further,
 * to a line every rank of the good run printed (a step only rank 0
 * takes puts no other rank behind). */
static int behind(const struct culprit_input *in, const struct unit *a, const struct unit *b)
{
	size_t k = 0;
	if (a->nfl) {
		uint32_t c = in->id[a->fl[a->nfl - 1]];
		size_t times = 0, seen = 0;
		for (size_t j = 0; j < a->nfl; j++)
			times += in->id[a->fl[j]] == c;
		while (k < b->nfl && !(in->id[b->fl[k]] == c && ++seen == times))
			k++;
		if (k++ == b->nfl)
			return 0;
	}
	for (; k < b->nfl; k++)
		if (in->shared[in->id[b->fl[k]]])
			return 1;
	return 0;
}

/* Whether unit x's last line before it failed is one of its own: no good
 * run printed it, and no other unit did.  printer[c]: the one unit that
 * printed template c, -1 for none, -2 for several. */
static int own_step(const struct culprit_input *in, const long *printer, const struct unit *u, size_t x)
{
	int64_t l = u[x].last_ok;
	return l >= 0 && !in->follow[l] && !in->in_good[in->id[l]] && printer[in->id[l]] == (long)x;
}

/* The rank number line i names ("local_rank: 1", "on rank 3"), or -1. */
static long line_rank(const struct log *bad, size_t i)
{
	struct line ln;
	struct header h;
	struct buf scratch = { 0 };
	long num = -1;
	log_line(bad, i, &ln, &h, &scratch);
	for (size_t k = 0; k + 4 <= ln.len && num < 0; k++) {
		if (strncasecmp(ln.text + k, "rank", 4) != 0)
			continue;
		size_t j = k + 4;
		while (j < ln.len && (ln.text[j] == ' ' || ln.text[j] == ':' || ln.text[j] == '='))
			j++;
		if (j < ln.len && isdigit((unsigned char)ln.text[j]))
			for (num = 0; j < ln.len && isdigit((unsigned char)ln.text[j]) && num < 1000000; j++)
				num = num * 10 + (ln.text[j] - '0');
	}
	buf_free(&scratch);
	return num;
}

/* The rank number the launcher's first untagged error naming a rank
 * names ("failed (exitcode: -9) local_rank: 1", "MPI_ABORT was invoked
 * on rank 3"), or -1; *line: that line.  The survivors' untagged
 * message lines (NCCL's "Last error:") come first and name none.  On
 * one node a local rank is the rank. */
static long launcher_rank(const struct culprit_input *in, const struct diagnosis *d, int64_t *line)
{
	int64_t best = DX_NONE;
	long num = -1;
	for (size_t k = 0; k < d->nnovel; k++) {
		const struct dx_novel *nv = &d->novel[k];
		const char *t = in->ctext[in->id[nv->summary]];
		if (nv->severity != DX_ERROR || in->stream[nv->summary] != 0 || classify_is_killed(in->rs, t) ||
		    classify_is_timeout(in->rs, t) || classify_is_peer_loss(in->rs, t) || (best >= 0 && nv->summary > best))
			continue;
		long r = line_rank(in->bad, (size_t)nv->summary);
		if (r >= 0)
			best = nv->summary, num = r;
	}
	*line = best;
	return num;
}

/* Whether error line a may have come before error line b.  One file
 * keeps the order its writers wrote in.  A folder's files are merged by
 * their lines' times, ties (and lines without a time of their own,
 * placed by their file's other lines, or after every timed file when it
 * has none) in the order of the files' names, so there a tie, or a
 * missing time of the line's own, leaves the order unknown: a rank's
 * traceback printed a second before its peer's timeout may follow it. */
static int may_precede(const struct log *bad, int64_t a, int64_t b)
{
	size_t ln;
	if (a < b)
		return 1;
	if (!log_origin(bad, 0, &ln) || !bad->ts)
		return 0;
	int64_t ta = bad->ts[a], tb = bad->ts[b];
	return ta == TS_NONE || tb == TS_NONE || ta <= tb;
}

/* Error findings no unit's tag holds: Python tracebacks printed without
 * torch's "[rankN]:" prefix, faulthandler's "Fatal Python error" block,
 * the launcher's lines.  A timeout or lost peer among them is a peer
 * that failed waiting, whichever rank it was; an error of its own is
 * kept for the one rank that can have printed it (pick_anon_error). */
struct anon {
	int64_t first_wait;   /* the first waiting error's line, or DX_NONE */
	int waits;            /* DX_WAIT_* of those */
	size_t nwaits;
	int64_t own, own_summary;  /* the first error of its own, or DX_NONE */
};

/* Notes an untagged error at line (t: its summary's text) in *an.  A
 * launcher's line that names a rank ("failed (exitcode: 1) local_rank:
 * 0") speaks of a rank, not as one: launcher_rank reads those. */
static void anon_error(const struct culprit_input *in, struct anon *an, int64_t line, int64_t summary,
		       const char *t)
{
	int waits = (classify_is_timeout(in->rs, t) ? DX_WAIT_TIMEOUT : 0) | (classify_is_peer_loss(in->rs, t) ? DX_WAIT_PEER_LOSS : 0);
	if (waits) {
		if (an->first_wait < 0 || line < an->first_wait)
			an->first_wait = line;
		an->waits |= waits;
		an->nwaits++;
	} else if ((an->own < 0 || line < an->own) && line_rank(in->bad, (size_t)summary) < 0) {
		an->own = line;
		an->own_summary = summary;
	}
}

/* Notes the error at line (its summary: the line that says what
 * happened) on its unit, or in *an when no unit's tag holds it.  Kill
 * notices are no failure of a rank's own: how a hang ends. */
static void note_error(const struct culprit_input *in, struct unit *u, const long *unit_of, struct anon *an,
		       int64_t line, int64_t summary)
{
	long x = unit_of[in->stream[line]];
	const char *t = in->ctext[in->id[summary]];
	if (classify_is_killed(in->rs, t))
		return;
	if (x < 0) {
		anon_error(in, an, line, summary, t);
		return;
	}
	if (u[x].first_error < 0 || line < u[x].first_error) {
		u[x].first_error = line;
		u[x].error_summary = summary;
		u[x].waits = (classify_is_timeout(in->rs, t) ? DX_WAIT_TIMEOUT : 0) |
			     (classify_is_peer_loss(in->rs, t) ? DX_WAIT_PEER_LOSS : 0);
	}
}

/* The first line on which a peer failed waiting, tagged or not, or
 * DX_NONE. */
static int64_t first_wait_of(const struct unit *u, size_t n, const struct anon *an)
{
	int64_t first = an->first_wait;
	for (size_t x = 0; x < n; x++)
		if (u[x].waits && (first < 0 || u[x].first_error < first))
			first = u[x].first_error;
	return first;
}

/* Whether line a surely came before line b: in one file, by its order;
 * in a folder's merge, only by both lines' own times, a before b (a
 * line without a time of its own, as a traceback's, may be placed
 * anywhere). */
static int surely_precedes(const struct log *bad, int64_t a, int64_t b)
{
	size_t ln;
	if (!log_origin(bad, 0, &ln))
		return a < b;
	return bad->ts && bad->ts[a] != TS_NONE && bad->ts[b] != TS_NONE && bad->ts[a] < bad->ts[b];
}

/* Whether error line e came before the first peer failed waiting
 * (first_wait; DX_NONE: none did, so any error did). */
static int before_wait(const struct log *bad, int64_t e, int64_t first_wait)
{
	return first_wait < 0 || may_precede(bad, e, first_wait);
}

/* Whether the run ended short of the good run's end: only then is a
 * rank's stopping early a failure when no peer failed waiting (a
 * finished run's ranks may end on different lines). */
static int ended_early(const struct diagnosis *d)
{
	return d->verdict != DX_SAME && d->verdict != DX_DIFFERENT && d->verdict != DX_FAILED &&
	       d->verdict != DX_RUNNING;
}

/* missed[x]: how many steps unit x never printed that every other unit
 * printed and every rank of the good run prints (a rank that never
 * printed "Warmup begin." while its three peers did, whatever it
 * printed after).  Only
 * with three units or more: of two, a step only one prints may be a
 * step only rank 0 takes. */
static void find_missed(const struct culprit_input *in, const struct unit *u, size_t n, size_t *missed)
{
	memset(missed, 0, n * sizeof(*missed));
	if (n < 3)
		return;
	size_t nc = in->nc;
	uint32_t *cnt = xcalloc(nc ? nc : 1, sizeof(*cnt));
	long *last = xmalloc((nc ? nc : 1) * sizeof(*last));
	for (size_t c = 0; c < nc; c++)
		last[c] = -1;
	/* cnt[c]: the units that printed template c (each once). */
	for (size_t x = 0; x < n; x++)
		for (size_t k = 0; k < u[x].nfl; k++) {
			uint32_t c = in->id[u[x].fl[k]];
			if (last[c] != (long)x)
				last[c] = (long)x, cnt[c]++;
		}
	size_t all_but_one = 0;
	for (size_t c = 0; c < nc; c++)
		all_but_one += cnt[c] == n - 1 && in->in_good[c] && in->shared[c];
	/* A unit misses each such step it did not print itself. */
	for (size_t c = 0; c < nc; c++)
		last[c] = -1;
	for (size_t x = 0; x < n; x++) {
		size_t hit = 0;
		for (size_t k = 0; k < u[x].nfl; k++) {
			uint32_t c = in->id[u[x].fl[k]];
			if (last[c] != (long)x && cnt[c] == n - 1 && in->in_good[c] && in->shared[c])
				hit++;
			last[c] = (long)x;
		}
		missed[x] = all_but_one - hit;
	}
	free(cnt);
	free(last);
}

/* Whether unit x had not failed when the first peer failed waiting
 * (first_wait): it printed no error, or an error of its own that cannot
 * have come before first_wait (before_wait). */
static int still_up(const struct culprit_input *in, const struct unit *x, int64_t first_wait)
{
	return x->first_error < 0 || (!x->waits && !before_wait(in->bad, x->first_error, first_wait));
}

/* Whether unit x stopped before every other unit (behind). */
static int behind_all(const struct culprit_input *in, const struct unit *u, size_t n, size_t x)
{
	int all = 1;
	for (size_t y = 0; y < n && all; y++)
		all = y == x || behind(in, &u[x], &u[y]);
	return all;
}

/* The unit that failed on its own before anyone failed waiting
 * (first_wait), when it was the only one; -1 for none, -2 for several:
 * they failed at once. */
static long lone_own_error(const struct culprit_input *in, const struct unit *u, size_t n, int64_t first_wait)
{
	long own = -1;
	size_t nown = 0;
	for (size_t x = 0; x < n; x++)
		if (u[x].first_error >= 0 && !u[x].waits && before_wait(in->bad, u[x].first_error, first_wait))
			own = (long)x, nown++;
	return nown > 1 ? -2 : own;
}

/* The ranks that had not failed when the first peer gave up waiting
 * (still_up), and those of them pick may single out, each the last such
 * unit or -1: cand, any, ncand of them; back, one left behind every other
 * (behind_all), nback of them; mine, one at a line of its own (own_step),
 * nmine of them; miss, the one unit of all that missed steps its peers
 * printed (find_missed), when it is still up. */
struct still_up_units {
	long cand, back, mine, miss;
	size_t ncand, nback, nmine;
};

/* Fills *su from units u[0..n) and first_wait (first_wait_of). */
static void find_still_up(const struct culprit_input *in, const long *printer, const struct unit *u, size_t n,
			  int64_t first_wait, struct still_up_units *su)
{
	size_t *missed = xmalloc(n * sizeof(*missed));
	find_missed(in, u, n, missed);
	*su = (struct still_up_units){ .cand = -1, .back = -1, .mine = -1, .miss = -1 };
	size_t nmiss = 0;
	for (size_t x = 0; x < n; x++)
		nmiss += missed[x] > 0;
	for (size_t x = 0; x < n; x++) {
		if (!still_up(in, &u[x], first_wait))
			continue;
		su->cand = (long)x, su->ncand++;
		if (missed[x] && nmiss == 1)
			su->miss = (long)x;
		if (behind_all(in, u, n, x))
			su->back = (long)x, su->nback++;
		/* A line of its own is no failure where no peer failed
		 * waiting: a rank may wait with a notice of its own. */
		if (first_wait >= 0 && own_step(in, printer, u, x))
			su->mine = (long)x, su->nmine++;
	}
	free(missed);
}

/* Ranks alike in their own lines: the launcher may say which died.  The
 * unit of the rank number launcher_rank reads, when it was still up at
 * first_wait (still_up), else -1; *how and *line: why, set only for a
 * unit.  pick asks only where a peer failed waiting: ranks that all died
 * at once (every one segfaulted) are listed in the order it noticed. */
static long launcher_pick(const struct culprit_input *in, const struct diagnosis *d, const struct unit *u,
			  size_t n, int64_t first_wait, int *how, int64_t *line)
{
	int64_t at = DX_NONE;
	long num = launcher_rank(in, d, &at);
	for (size_t x = 0; x < n && num >= 0; x++)
		if (u[x].num == num && still_up(in, &u[x], first_wait)) {
			*how = DX_CULPRIT_LAUNCHER, *line = at;
			return (long)x;
		}
	return -1;
}

/* Whether unit x sat waiting when it stopped: it failed waiting, or,
 * still up, its last line says it timed out or lost a peer (a store's
 * "timed out after 10004ms" warning). */
static int sat_waiting(const struct culprit_input *in, const struct unit *x)
{
	if (x->first_error >= 0)
		return x->waits != 0;
	if (x->last_ok < 0)
		return 0;
	const char *t = in->ctext[in->id[x->last_ok]];
	return classify_is_timeout(in->rs, t) || classify_is_peer_loss(in->rs, t);
}

/* Unit name like's name with its one number made num ("rank0", 3:
 * "rank3").  The caller frees it. */
static char *name_like(const char *like, long num)
{
	size_t a = strcspn(like, "0123456789"), b = a;
	while (isdigit((unsigned char)like[b]))
		b++;
	return xasprintf("%.*s%ld%s", (int)a, like, num, like + b);
}

/* A rank that printed nothing in this log, for when each rank that did
 * sat waiting (sat_waiting) and a peer failed waiting: it is whom they
 * waited for.  Its number: the one the launcher's first error names
 * when no unit has it, else the one number below the highest unit's
 * that no unit has (ranks count from 0, so a gap is a rank).  -1 when
 * there is none, or several could be it; *how and *line: why.
 * Property: never a rank that printed a line, never one of several
 * silent ranks the evidence does not tell apart. */
static long silent_rank(const struct culprit_input *in, const struct diagnosis *d, const struct unit *u,
			size_t n, int *how, int64_t *line)
{
	long top = -1;
	for (size_t x = 0; x < n; x++) {
		if (!sat_waiting(in, &u[x]) || u[x].num < 0)
			return -1;
		top = u[x].num > top ? u[x].num : top;
	}
	int64_t at = DX_NONE;
	long num = launcher_rank(in, d, &at);
	for (size_t x = 0; x < n && num >= 0; x++)
		if (u[x].num == num)
			num = -1;
	if (num >= 0) {
		*how = DX_CULPRIT_LAUNCHER, *line = at;
		return num;
	}
	/* Units are distinct ranks: n of them below top + 1 leave one gap
	 * exactly when top == n. */
	if (top != (long)n)
		return -1;
	uint8_t *seen = xcalloc(n + 1, 1);
	for (size_t x = 0; x < n; x++)
		seen[u[x].num] = 1;
	for (num = 0; seen[num]; num++)
		;
	free(seen);
	*how = DX_CULPRIT_SILENT, *line = DX_NONE;
	return num;
}

/* The culprit among units u[0..n), or n for one that printed nothing
 * (silent_rank), made u[n] with its name owned; -1 for none, *none then
 * saying why (a static phrase).  *how and *line say why.  *ncand: how
 * many ranks had not failed when the first peer failed waiting. */
static long pick(const struct culprit_input *in, const struct diagnosis *d, const long *printer,
		 struct unit *u, size_t n, const struct anon *an, int *how, int64_t *line,
		 size_t *ncand, const char **none)
{
	int64_t first_wait = first_wait_of(u, n, an);
	/* No rank failed waiting: a finished run has no culprit, and one
	 * that stopped short has one only by what its ranks did. */
	*none = "no rank failed waiting for another";
	if (first_wait < 0 && !ended_early(d))
		return -1;
	/* A rank that failed on its own before anyone failed waiting, when
	 * it was the only one. */
	long own = lone_own_error(in, u, n, first_wait);
	*none = "several ranks failed on their own at once";
	if (own == -2)
		return -1;
	if (own >= 0) {
		*how = DX_CULPRIT_ERROR, *line = u[own].error_summary;
		return own;
	}
	/* Else one of the ranks that had not failed when the first peer gave
	 * up waiting: the one left behind, or the one at a line of its own,
	 * or the only one. */
	struct still_up_units su;
	find_still_up(in, printer, u, n, first_wait, &su);
	*ncand = su.ncand;
	*line = su.cand >= 0 ? u[su.cand].last_ok : DX_NONE;
	if (su.nback == 1) {
		*how = DX_CULPRIT_BEHIND, *line = u[su.back].last_ok;
		return su.back;
	}
	if (su.miss >= 0) {
		*how = DX_CULPRIT_MISSED, *line = u[su.miss].last_ok;
		return su.miss;
	}
	if (su.nmine == 1) {
		*how = DX_CULPRIT_OWN_STEP, *line = u[su.mine].last_ok;
		return su.mine;
	}
	/* The one rank that did not fail, only where its peers failed
	 * waiting: with no waiting, every rank may have been torn down. */
	if (su.ncand == 1 && first_wait >= 0) {
		*how = DX_CULPRIT_SILENT;
		return su.cand;
	}
	*none = "the ranks stopped alike: none stayed behind, missed a step or stopped at a line of its own";
	if (first_wait < 0)
		return -1;
	long l = su.ncand ? launcher_pick(in, d, u, n, first_wait, how, line) : -1;
	if (l >= 0)
		return l;
	/* Else a rank that printed nothing, as u[n]. */
	long num = silent_rank(in, d, u, n, how, line);
	*none = su.ncand ? "several ranks were still up when a peer failed waiting, and nothing tells them apart"
			 : "every rank failed waiting, and nothing names the one they waited for";
	if (num < 0)
		return -1;
	u[n] = (struct unit){ .name = name_like(u[0].name, num), .num = num, .first_error = DX_NONE,
			      .error_summary = DX_NONE, .last_ok = DX_NONE };
	return (long)n;
}

const char *const culprit_role_name[] = {
	[DX_ROLE_CULPRIT] = "culprit", [DX_ROLE_WAITING] = "waiting", [DX_ROLE_FAILED_OWN] = "failed-own",
	[DX_ROLE_TORN_DOWN] = "torn-down", [DX_ROLE_FINISHED] = "finished",
};

/* What unit x did in the failure (enum dx_role): the culprit; a rank
 * that failed waiting, or, with no error, sat waiting in a run that hung
 * or is still running; one that failed with an error of its own but was
 * not the culprit; one ended from outside (the launcher's SIGTERM after
 * a peer crashed); or one that finished with the run.  untagged: the
 * ranks of no error of their own are as many as the untagged waiting
 * errors, or fewer: those are theirs.  A victim is never the culprit:
 * that is pick's, and only the culprit has that role. */
static int role(const struct diagnosis *d, const struct unit *x, int is_culprit, int untagged)
{
	if (is_culprit)
		return DX_ROLE_CULPRIT;
	if (x->first_error >= 0)
		return x->waits ? DX_ROLE_WAITING : DX_ROLE_FAILED_OWN;
	if (d->verdict == DX_SAME || d->verdict == DX_DIFFERENT || d->verdict == DX_FAILED)
		return DX_ROLE_FINISHED;
	if (d->verdict == DX_STOPPED || d->verdict == DX_RUNNING || untagged)
		return DX_ROLE_WAITING;
	return DX_ROLE_TORN_DOWN;
}

/* nfollow[s]: how many of stream s's lines from line from on follow the
 * good run.  The caller frees it. */
static int64_t *follow_counts(const struct culprit_input *in, size_t from)
{
	size_t ns = in->nstreams;
	int64_t *nfollow = xcalloc(ns ? ns : 1, sizeof(*nfollow));
	for (size_t i = from; i < in->bad->nlines; i++)
		nfollow[in->stream[i]] += in->follow[i];
	return nfollow;
}

/* Notes each error finding from line from on (note_error), and each
 * later line of a one-line error template that is a finding's: a
 * finding is a template's first line, and each rank that printed it
 * failed so.  one[c]: the finding of one-line error template c. */
static void note_errors(const struct culprit_input *in, const struct diagnosis *d, struct unit *u,
			const long *unit_of, struct anon *an, size_t from)
{
	long *one = xmalloc((in->nc ? in->nc : 1) * sizeof(*one));
	for (size_t c = 0; c < in->nc; c++)
		one[c] = -1;
	for (size_t k = 0; k < d->nnovel; k++) {
		const struct dx_novel *nv = &d->novel[k];
		if (nv->severity != DX_ERROR || nv->line < (int64_t)from)
			continue;
		note_error(in, u, unit_of, an, nv->line, nv->summary);
		if (!nv->traceback)
			one[in->id[nv->line]] = (long)k;
	}
	for (size_t i = from; i < in->bad->nlines; i++)
		if (one[in->id[i]] >= 0 && d->novel[one[in->id[i]]].line != (int64_t)i)
			note_error(in, u, unit_of, an, (int64_t)i, (int64_t)i);
	free(one);
}

/* Each unit's lines from line from on, once its first error is known
 * (note_errors): last_ok, its last line before that error, and fl[0..nfl),
 * its lines that follow the good run, in order. */
static void unit_lines(const struct culprit_input *in, struct unit *u, size_t n, const long *unit_of,
		       size_t from)
{
	const struct log *bad = in->bad;
	for (size_t i = from; i < bad->nlines; i++)
		if (in->follow[i] && unit_of[in->stream[i]] >= 0)
			u[unit_of[in->stream[i]]].nfl++;
	for (size_t x = 0; x < n; x++) {
		u[x].fl = xmalloc((u[x].nfl ? u[x].nfl : 1) * sizeof(*u[x].fl));
		u[x].nfl = 0;
	}
	for (size_t i = from; i < bad->nlines; i++) {
		long x = unit_of[in->stream[i]];
		if (x < 0)
			continue;
		if (u[x].first_error < 0 || (int64_t)i < u[x].first_error)
			u[x].last_ok = (int64_t)i;
		if (in->follow[i])
			u[x].fl[u[x].nfl++] = (int64_t)i;
	}
}

/* printer[c]: the one unit that printed template c from line from on,
 * -1 for none, -2 for several (own_step).  The caller frees it. */
static long *find_printers(const struct culprit_input *in, const long *unit_of, size_t from)
{
	long *printer = xmalloc((in->nc ? in->nc : 1) * sizeof(*printer));
	for (size_t c = 0; c < in->nc; c++)
		printer[c] = -1;
	for (size_t i = from; i < in->bad->nlines; i++) {
		long x = unit_of[in->stream[i]], *p = &printer[in->id[i]];
		if (x >= 0)
			*p = *p == -1 || *p == x ? x : -2;
	}
	return printer;
}

/* Whether the untagged error of its own (an->own: faulthandler's "Fatal
 * Python error: Segmentation fault") is culprit c's, found by pick as
 * how with ncand ranks still up: printed after c's last line and before
 * any peer failed waiting, when c was the one rank left that can have
 * printed it: the others had failed already or failed waiting after it.
 * Surely so: a folder's merge may place a launcher's untimed traceback
 * anywhere. */
static int anon_error_is_culprits(const struct culprit_input *in, const struct unit *u, size_t n,
				  const struct anon *an, long c, int how, size_t ncand)
{
	int64_t fw = first_wait_of(u, n, an);
	return c >= 0 && (size_t)c < n && ncand == 1 && how != DX_CULPRIT_ERROR && how != DX_CULPRIT_LAUNCHER &&
	       an->own >= 0 && surely_precedes(in->bad, u[c].last_ok, an->own) &&
	       (fw < 0 || surely_precedes(in->bad, an->own, fw));
}

/* Fills d->culprit with unit c, found as how at line, and its peers: the
 * other units that failed waiting, with their symptoms and those of the
 * untagged waiting errors (an).  c == n: the unit that printed nothing,
 * whose name d->culprit takes. */
static void set_culprit(struct diagnosis *d, const struct unit *u, size_t n, const struct anon *an, long c,
			int how, int64_t line)
{
	struct dx_culprit *cu = &d->culprit;
	*cu = (struct dx_culprit){ .rank = u[c].name, .line = line, .how = how,
				   .anon_peers = an->nwaits, .symptoms = an->waits,
				   .unheard = (size_t)c == n ? (char *)u[c].name : NULL };
	cu->peers = xcalloc(n, sizeof(*cu->peers));
	for (size_t x = 0; x < n; x++)
		if (u[x].waits && (long)x != c) {
			cu->peers[cu->npeers++] = u[x].name;
			cu->symptoms |= u[x].waits;
		}
}

/* Each rank's role (role), 0 for a stream that is no unit's; c: the
 * culprit's unit, when d->culprit names one.  quiet: the units of no
 * error but the culprit, whose roles the untagged waiting errors decide. */
static void set_roles(struct diagnosis *d, const struct unit *u, size_t n, const long *unit_of,
		      const size_t *stream, const struct anon *an, long c)
{
	size_t quiet = 0;
	for (size_t x = 0; x < n; x++)
		quiet += u[x].first_error < 0 && !(d->culprit.rank && (long)x == c);
	for (size_t k = 0; k < d->nranks; k++) {
		long x = unit_of[stream[k]];
		d->ranks[k].role = x < 0 ? 0 : role(d, &u[x], d->culprit.rank && x == c, an->nwaits >= quiet);
	}
}

void culprit_find(const struct culprit_input *in, struct diagnosis *d)
{
	memset(&d->culprit, 0, sizeof(d->culprit));
	d->culprit.line = DX_NONE;
	if (d->nranks < 2)
		return;
	size_t ns = in->nstreams, from = (size_t)d->attempt_line;
	int64_t *nfollow = follow_counts(in, from);
	long *unit_of = xmalloc((ns ? ns : 1) * sizeof(*unit_of));
	for (size_t s = 0; s < ns; s++)
		unit_of[s] = -1;
	struct unit *u = xcalloc(d->nranks + 1, sizeof(*u));   /* u[n]: pick's */
	size_t *stream = xcalloc(d->nranks, sizeof(*stream));
	size_t n = find_units(in, d, nfollow, u, unit_of, stream);
	free(nfollow);
	struct anon an = { .first_wait = DX_NONE, .own = DX_NONE, .own_summary = DX_NONE };
	note_errors(in, d, u, unit_of, &an, from);
	unit_lines(in, u, n, unit_of, from);
	long *printer = find_printers(in, unit_of, from);
	int how = 0;
	int64_t line = DX_NONE;
	size_t ncand = 0;
	const char *none = NULL;
	long c = n >= 2 ? pick(in, d, printer, u, n, &an, &how, &line, &ncand, &none) : -1;
	free(printer);
	if (anon_error_is_culprits(in, u, n, &an, c, how, ncand))
		how = DX_CULPRIT_ERROR, line = an.own_summary;
	if (c >= 0 && (line >= 0 || (size_t)c == n))
		set_culprit(d, u, n, &an, c, how, line);
	else if (d->verdict != DX_SAME && d->verdict != DX_DIFFERENT && d->verdict != DX_RUNNING)
		d->culprit.unknown = none;
	set_roles(d, u, n, unit_of, stream, &an, c);
	free(stream);
	for (size_t x = 0; x < n; x++)
		free(u[x].fl);
	free(u);
	free(unit_of);
}

int culprit_from_live(struct diagnosis *d, long rank)
{
	if (d->culprit.rank || rank < 0)
		return 0;
	for (size_t k = 0; k < d->nranks; k++)
		if (name_number(d->ranks[k].name) == rank) {
			d->culprit.rank = d->ranks[k].name;
			d->culprit.line = d->ranks[k].last_line;
			d->culprit.how = DX_CULPRIT_LIVE;
			return 1;
		}
	return 0;
}
