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

/* The ranks of the job, from d->ranks: the largest family of names of
 * one kind, each numbered once (ties to the family with more following
 * lines: the job's own tags over torch's error prefixes), with the
 * streams of the other families whose numbers all occur in it.
 * unit_of[s]: the unit of stream s, or -1.  Returns the unit count.
 * Sorted lookups: a job may have thousands of ranks. */
static size_t find_units(const struct culprit_input *in, const struct diagnosis *d,
			 const int64_t *nfollow, struct unit *u, long *unit_of)
{
	size_t nr = d->nranks, n = 0;
	size_t *root = xmalloc(nr * sizeof(*root));
	size_t *stream = xcalloc(nr, sizeof(*stream));
	long *num = xmalloc(nr * sizeof(*num));
	size_t *members = xcalloc(nr, sizeof(*members));
	int64_t *lines = xcalloc(nr, sizeof(*lines));
	struct key *kk = xmalloc(nr * sizeof(*kk));
	/* Each rank's stream: its name is one of in->names. */
	for (size_t k = 0; k < nr; k++)
		kk[k] = (struct key){ .p = d->ranks[k].name, .k = k };
	qsort(kk, nr, sizeof(*kk), by_value);
	for (size_t s = 0; s < in->nstreams; s++) {
		struct key q = { .p = in->names[s] }, *hit = bsearch(&q, kk, nr, sizeof(*kk), by_value);
		if (hit)
			stream[hit->k] = s;
	}
	/* Families: names alike but for their digits. */
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
	for (size_t k = 0; k < nr; k++) {
		free(kind[k]);
		if (num[k] >= 0)
			members[root[k]]++, lines[root[k]] += nfollow[stream[k]];
	}
	free(kind);
	size_t main = nr;
	for (size_t k = 0; k < nr; k++)
		if (members[k] >= 2 && (main == nr || members[k] > members[main] ||
					(members[k] == members[main] && lines[k] > lines[main])))
			main = k;
	for (size_t k = 0; k < nr && main < nr; k++)
		if (root[k] == main && num[k] >= 0) {
			unit_of[stream[k]] = (long)n;
			kk[n] = (struct key){ .v = num[k], .k = n };
			u[n++] = (struct unit){ .name = d->ranks[k].name, .num = num[k], .first_error = DX_NONE,
						.error_summary = DX_NONE, .last_ok = DX_NONE };
		}
	/* The other families join, when all their numbers are the job's
	 * ranks.  fits[f]: family f does. */
	qsort(kk, n, sizeof(*kk), by_value);
	uint8_t *fits = xmalloc(nr);
	long *to = xmalloc(nr * sizeof(*to));
	memset(fits, 1, nr);
	for (size_t k = 0; k < nr; k++) {
		struct key q = { .v = num[k] }, *hit = num[k] >= 0 ? bsearch(&q, kk, n, sizeof(*kk), by_value) : NULL;
		to[k] = hit ? (long)hit->k : -1;
		if (!hit)
			fits[root[k]] = 0;
	}
	for (size_t k = 0; k < nr && main < nr; k++)
		if (root[k] != main && num[k] >= 0 && fits[root[k]])
			unit_of[stream[k]] = to[k];
	free(fits);
	free(to);
	free(kk);
	free(root);
	free(stream);
	free(num);
	free(members);
	free(lines);
	return n;
}

/* Whether unit a stopped before b: b printed a's last following step
 * (the same template, as many times) and followed the good run further. */
static int behind(const struct culprit_input *in, const struct unit *a, const struct unit *b)
{
	if (!a->nfl)
		return b->nfl > 0;
	uint32_t c = in->id[a->fl[a->nfl - 1]];
	size_t times = 0, seen = 0;
	for (size_t k = 0; k < a->nfl; k++)
		times += in->id[a->fl[k]] == c;
	for (size_t k = 0; k < b->nfl; k++)
		if (in->id[b->fl[k]] == c && ++seen == times)
			return k + 1 < b->nfl;
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
 * their lines' times, ties (and lines without a time of their own, which
 * go with the line before them) in the order of the files' names, so
 * there a tie, or a missing time, leaves the order unknown: a rank's
 * traceback printed a second before its peer's timeout may follow it. */
static int may_precede(const struct log *bad, int64_t a, int64_t b)
{
	size_t ln;
	if (a < b)
		return 1;
	if (!log_origin(bad, 0, &ln) || !bad->when)
		return 0;
	int64_t ta = bad->when[a], tb = bad->when[b];
	return ta == TS_NONE || tb == TS_NONE || ta <= tb;
}

/* The culprit among units u[0..n), or -1; *how and *line say why. */
static long pick(const struct culprit_input *in, const struct diagnosis *d, const long *printer,
		 const struct unit *u, size_t n, int *how, int64_t *line)
{
	int64_t first_wait = DX_NONE;
	for (size_t x = 0; x < n; x++)
		if (u[x].waits && (first_wait < 0 || u[x].first_error < first_wait))
			first_wait = u[x].first_error;
	if (first_wait < 0)
		return -1;   /* no rank failed waiting */
	/* A rank that failed on its own before anyone failed waiting, when
	 * it was the only one. */
	long own = -1;
	size_t nown = 0;
	for (size_t x = 0; x < n; x++)
		if (u[x].first_error >= 0 && !u[x].waits && may_precede(in->bad, u[x].first_error, first_wait))
			own = (long)x, nown++;
	if (nown > 1)
		return -1;   /* several failed at once */
	if (own >= 0) {
		*how = DX_CULPRIT_ERROR, *line = u[own].error_summary;
		return own;
	}
	/* Else one of the ranks that had not failed when the first peer gave
	 * up waiting: the one left behind, or the one at a line of its own,
	 * or the only one. */
	long cand = -1, back = -1, mine = -1;
	size_t ncand = 0, nback = 0, nmine = 0;
	for (size_t x = 0; x < n; x++) {
		if (u[x].first_error >= 0 && (u[x].waits || may_precede(in->bad, u[x].first_error, first_wait)))
			continue;
		cand = (long)x, ncand++;
		int all = 1;
		for (size_t y = 0; y < n && all; y++)
			all = y == x || behind(in, &u[x], &u[y]);
		if (all)
			back = (long)x, nback++;
		if (own_step(in, printer, u, x))
			mine = (long)x, nmine++;
	}
	*line = cand >= 0 ? u[cand].last_ok : DX_NONE;
	if (nback == 1) {
		*how = DX_CULPRIT_BEHIND, *line = u[back].last_ok;
		return back;
	}
	if (nmine == 1) {
		*how = DX_CULPRIT_OWN_STEP, *line = u[mine].last_ok;
		return mine;
	}
	if (ncand == 1) {
		*how = DX_CULPRIT_SILENT;
		return cand;
	}
	if (ncand == 0)
		return -1;
	/* Ranks alike in their own lines: the launcher may say which died. */
	int64_t at = DX_NONE;
	long num = launcher_rank(in, d, &at);
	for (size_t x = 0; x < n && num >= 0; x++)
		if (u[x].num == num && (u[x].first_error < 0 ||
					     (!u[x].waits && !may_precede(in->bad, u[x].first_error, first_wait)))) {
			*how = DX_CULPRIT_LAUNCHER, *line = at;
			return (long)x;
		}
	return -1;
}

void culprit_find(const struct culprit_input *in, struct diagnosis *d)
{
	memset(&d->culprit, 0, sizeof(d->culprit));
	d->culprit.line = DX_NONE;
	if (d->nranks < 2)
		return;
	size_t ns = in->nstreams, from = (size_t)d->attempt_line;
	const struct log *bad = in->bad;
	int64_t *nfollow = xcalloc(ns ? ns : 1, sizeof(*nfollow));
	for (size_t i = from; i < bad->nlines; i++)
		nfollow[in->stream[i]] += in->follow[i];
	long *unit_of = xmalloc((ns ? ns : 1) * sizeof(*unit_of));
	for (size_t s = 0; s < ns; s++)
		unit_of[s] = -1;
	struct unit *u = xcalloc(d->nranks, sizeof(*u));
	size_t n = find_units(in, d, nfollow, u, unit_of);
	free(nfollow);
	for (size_t k = 0; k < d->nnovel; k++) {
		const struct dx_novel *nv = &d->novel[k];
		long x = unit_of[in->stream[nv->line]];
		const char *t = in->ctext[in->id[nv->summary]];
		if (x < 0 || nv->severity != DX_ERROR || nv->line < (int64_t)from || classify_is_killed(in->rs, t))
			continue;
		if (u[x].first_error < 0 || nv->line < u[x].first_error) {
			u[x].first_error = nv->line;
			u[x].error_summary = nv->summary;
			u[x].waits = (classify_is_timeout(in->rs, t) ? DX_WAIT_TIMEOUT : 0) |
				     (classify_is_peer_loss(in->rs, t) ? DX_WAIT_PEER_LOSS : 0);
		}
	}
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
	long *printer = xmalloc((in->nc ? in->nc : 1) * sizeof(*printer));
	for (size_t c = 0; c < in->nc; c++)
		printer[c] = -1;
	for (size_t i = from; i < bad->nlines; i++) {
		long x = unit_of[in->stream[i]], *p = &printer[in->id[i]];
		if (x >= 0)
			*p = *p == -1 || *p == x ? x : -2;
	}
	int how = 0;
	int64_t line = DX_NONE;
	long c = n >= 2 ? pick(in, d, printer, u, n, &how, &line) : -1;
	free(printer);
	if (c >= 0 && line >= 0) {
		struct dx_culprit *cu = &d->culprit;
		*cu = (struct dx_culprit){ .rank = u[c].name, .line = line, .how = how };
		cu->peers = xcalloc(n, sizeof(*cu->peers));
		for (size_t x = 0; x < n; x++)
			if (u[x].waits && (long)x != c) {
				cu->peers[cu->npeers++] = u[x].name;
				cu->symptoms |= u[x].waits;
			}
	}
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
