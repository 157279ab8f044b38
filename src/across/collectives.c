/* collectives.c — each rank's collective progress and the kind of hang
 * it shows (pass_collectives, diagnose_passes.h).
 *
 * A distributed job hangs in a collective when its ranks disagree on
 * which one they are in.  torch says where each rank stood: its
 * ProcessGroupNCCL watchdog prints the sequence number and op of the
 * work that timed out ("WorkNCCL(SeqNum=11, OpType=ALLREDUCE, ...) ran
 * for 15017 milliseconds") and each rank's last enqueued and completed
 * work ("last enqueued work: 11, last completed work: 10"), and its
 * Flight Recorder dump (frdump.c) says the same with the op of every
 * entry.  From those numbers, per rank, the hang has one of a few
 * shapes (enum dx_hang_kind), and the rank it singles out is the
 * culprit where the log's own evidence named none.
 *
 * Only templates whose text names such work are looked at, and only
 * their lines are re-read. */
#include "diagnose_passes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frdump.h"
#include "util.h"

/* torch's OpType names (ProcessGroupNCCL's opTypeToString) as its
 * Flight Recorder names the same ops, so that a log's op and a dump's
 * compare equal; an op not here is its lowercase name. */
static const char *const op_names[][2] = {
	{ "ALLREDUCE", "all_reduce" }, { "ALLREDUCE_COALESCED", "all_reduce" },
	{ "BROADCAST", "broadcast" }, { "REDUCE", "reduce" },
	{ "ALLGATHER", "all_gather" }, { "_ALLGATHER_BASE", "all_gather" },
	{ "ALLGATHER_COALESCED", "all_gather" }, { "GATHER", "gather" },
	{ "SCATTER", "scatter" }, { "REDUCE_SCATTER", "reduce_scatter" },
	{ "_REDUCE_SCATTER_BASE", "reduce_scatter" }, { "ALLTOALL", "all_to_all" },
	{ "ALLTOALL_BASE", "all_to_all" }, { "BARRIER", "barrier" },
	{ "SEND", "send" }, { "RECV", "recv" }, { "RECVANYSOURCE", "recv" },
};

static void op_from_log(const char *s, size_t n, char *out)
{
	for (size_t k = 0; k < sizeof(op_names) / sizeof(op_names[0]); k++)
		if (strlen(op_names[k][0]) == n && memcmp(s, op_names[k][0], n) == 0) {
			snprintf(out, DX_OP_MAX, "%s", op_names[k][1]);
			return;
		}
	size_t m = 0;
	for (size_t j = 0; j < n && m + 1 < DX_OP_MAX; j++)
		if ((s[j] >= 'A' && s[j] <= 'Z') || (s[j] >= 'a' && s[j] <= 'z') || s[j] == '_')
			out[m++] = (char)(s[j] | 0x20);
	out[m] = '\0';
}

/* The number after the first occurrence of key in s, or -1. */
static int64_t number_after(const char *s, const char *key)
{
	const char *p = strstr(s, key);
	if (!p)
		return -1;
	p += strlen(key);
	while (*p == ' ')
		p++;
	if (*p < '0' || *p > '9')
		return -1;
	int64_t x = 0;
	while (*p >= '0' && *p <= '9' && x < ((int64_t)1 << 56))
		x = x * 10 + (*p++ - '0');
	return x;
}

/* Whether a template's text names a rank's collective work: only those
 * templates' lines are re-read. */
static int names_work(const char *t)
{
	static const char *const words[] = { "WorkNCCL(SeqNum=", "last enqueued work",
					     "Last enqueued NCCL work", NULL };
	return contains_any(t, words);
}

/* The trailing number of a rank's stream name ("TP2", "rank2"), or -1. */
static int stream_rank(const char *name)
{
	size_t n = strlen(name), k = n;
	while (k > 0 && name[k - 1] >= '0' && name[k - 1] <= '9')
		k--;
	if (k == n || n - k > 6)
		return -1;
	return atoi(name + k);
}

static struct dx_coll_rank *rank_slot(struct dx_collectives *c, size_t *cap, int rank)
{
	for (size_t k = 0; k < c->n; k++)
		if (c->r[k].rank == rank)
			return &c->r[k];
	GROW(c->r, *cap, c->n + 1);
	struct dx_coll_rank *r = &c->r[c->n++];
	memset(r, 0, sizeof(*r));
	r->rank = rank;
	r->pg = r->enqueued = r->completed = r->pending = -1;
	r->enq_numel = r->done_numel = r->pending_numel = -1;
	r->waited_s = NAN;
	r->started = -1;
	r->line = DX_NONE;
	return r;
}

/* What one watchdog line says of its rank, into r: later lines say
 * where it stood later, so each overrides what came before. */
static void read_line(const char *m, struct dx_coll_rank *r, int64_t line)
{
	int64_t pg = number_after(m, "[PG ID");
	if (pg >= 0)
		r->pg = pg;
	int64_t seq = number_after(m, "WorkNCCL(SeqNum=");
	const char *op = strstr(m, "OpType=");
	if (seq >= 0) {
		r->pending = seq;
		r->pending_op[0] = '\0';
		r->pending_numel = number_after(m, "NumelIn=");
		if (op) {
			op += 7;
			op_from_log(op, strcspn(op, ", )"), r->pending_op);
		}
		int64_t ms = number_after(m, "ran for");
		if (ms >= 0)
			r->waited_s = (double)ms / 1000;
	}
	int64_t enq = number_after(m, "last enqueued work:");
	int64_t done = number_after(m, "last completed work:");
	if (enq < 0) {
		enq = number_after(m, "Last enqueued NCCL work:");
		done = number_after(m, "last completed NCCL work:");
	}
	if (enq >= 0)
		r->enqueued = enq;
	if (done >= 0)
		r->completed = done;
	r->line = line;
}

/* A log's ops name what a rank's numbers point at: the pending work is
 * the last enqueued when nothing came after it. */
static void log_ops(struct dx_coll_rank *r)
{
	if (r->pending >= 0 && r->pending <= r->completed)
		r->pending = -1;        /* a later line says it completed */
	if (r->pending >= 0 && r->pending == r->enqueued) {
		memcpy(r->enq_op, r->pending_op, DX_OP_MAX);
		r->enq_numel = r->pending_numel;
	}
	if (r->pending < 0 && r->enqueued > r->completed && r->completed >= 0)
		r->pending = r->completed + 1;
}

/* Rank r's numbers in group g, from dump path. */
static void from_dump(struct dx_coll_rank *r, const struct fr_group *g, const char *path)
{
	r->pg = g->id;
	r->enqueued = g->enqueued;
	r->completed = g->completed;
	r->pending = g->pending;
	memcpy(r->enq_op, g->enq_op, DX_OP_MAX);
	memcpy(r->done_op, g->done_op, DX_OP_MAX);
	memcpy(r->pending_op, g->pending_op, DX_OP_MAX);
	r->enq_numel = g->enq_numel;
	r->done_numel = g->done_numel;
	r->pending_numel = g->pending_numel;
	r->started = g->pending_started;
	r->dump = path;
}

/* Whether rank r waits in a collective: it called one it has not
 * completed. */
static int waits(const struct dx_coll_rank *r)
{
	return r->pending >= 0 || (r->enqueued >= 0 && r->enqueued > r->completed);
}

static int64_t waits_in(const struct dx_coll_rank *r)
{
	return r->pending >= 0 ? r->pending : r->completed + 1;
}

/* The op rank r called at sequence number seq, or "" when unknown. */
static const char *op_at(const struct dx_coll_rank *r, int64_t seq)
{
	if (seq == r->pending && r->pending_op[0])
		return r->pending_op;
	if (seq == r->enqueued && r->enq_op[0])
		return r->enq_op;
	if (seq == r->completed && r->done_op[0])
		return r->done_op;
	return "";
}

/* The elements rank r's call at seq took in, or -1 when unknown. */
static int64_t numel_at(const struct dx_coll_rank *r, int64_t seq)
{
	if (seq == r->pending && r->pending_op[0])
		return r->pending_numel;
	if (seq == r->enqueued && r->enq_op[0])
		return r->enq_numel;
	if (seq == r->completed && r->done_op[0])
		return r->done_numel;
	return -1;
}

/* Whether ranks a and b made one call at seq: the same op, on as many
 * elements where both say how many (an all_reduce of 1048580 elements
 * where the peers reduce 4 waits for a call no peer makes).  Both must
 * name the op. */
static int same_call(const struct dx_coll_rank *a, const struct dx_coll_rank *b, int64_t seq)
{
	int64_t x = numel_at(a, seq), y = numel_at(b, seq);
	return *op_at(a, seq) && strcmp(op_at(a, seq), op_at(b, seq)) == 0 && (x < 0 || y < 0 || x == y);
}

/* How many ranks made rank a's call at seq. */
static size_t callers(const struct dx_collectives *c, int64_t seq, const struct dx_coll_rank *a)
{
	size_t n = 0;
	for (size_t b = 0; b < c->n; b++)
		n += same_call(a, &c->r[b], seq);
	return n;
}

/* Mark odd the ranks whose call at seq fewer ranks made than the most
 * made one; none when two calls tie for the most. */
static void mark_minority(struct dx_collectives *c, int64_t seq)
{
	size_t most = 0, tied = 0;
	const struct dx_coll_rank *top = NULL;
	for (size_t b = 0; b < c->n; b++) {
		size_t n = callers(c, seq, &c->r[b]);
		if (n > most) {
			most = n;
			top = &c->r[b];
			tied = 0;
		} else if (n && n == most && !same_call(top, &c->r[b], seq)) {
			tied = 1;
		}
	}
	for (size_t b = 0; b < c->n && !tied; b++)
		c->r[b].odd = *op_at(&c->r[b], seq) && callers(c, seq, &c->r[b]) < most;
}

/* mismatch: two ranks made different calls at one sequence number
 * (another op, or the same op on another number of elements).  The odd
 * ranks are those whose call fewer ranks made (none on a tie).
 * Property: ranks that agree on every sequence number they share are
 * never a mismatch. */
static int find_mismatch(struct dx_collectives *c)
{
	for (size_t a = 0; a < c->n; a++) {
		int64_t seq = waits_in(&c->r[a]);
		if (!waits(&c->r[a]) || !*op_at(&c->r[a], seq))
			continue;
		size_t other = 0;
		for (size_t b = 0; b < c->n; b++)
			other += *op_at(&c->r[b], seq) && !same_call(&c->r[a], &c->r[b], seq);
		if (!other)
			continue;
		c->seq = seq;
		mark_minority(c, seq);
		return 1;
	}
	return 0;
}

/* not-started: every rank waits in collective c->seq, every rank's
 * dump says whether its GPU began it, and some did while others did
 * not: those are odd.  A collective's kernel starts once its stream
 * reaches it, and then waits inside for its peers, so the peers that
 * started it wait for the rank whose GPU is still busy with earlier
 * work (a hung kernel).  Property: no rank is odd unless some peer's
 * GPU started the very collective it did not, and a dump that does not
 * record starts (all "scheduled", without TORCH_NCCL_ENABLE_TIMING)
 * singles out none. */
static int not_started(struct dx_collectives *c)
{
	size_t started = 0;
	for (size_t k = 0; k < c->n; k++) {
		const struct dx_coll_rank *r = &c->r[k];
		if (r->started < 0 || r->pending != c->seq)
			return 0;
		started += r->started == 1;
	}
	if (!started || started == c->n)
		return 0;
	for (size_t k = 0; k < c->n; k++)
		c->r[k].odd = c->r[k].started == 0;
	return 1;
}

/* The shape of the hang from the ranks' numbers (see dx_hang_kind), the
 * collective in question (c->seq), and the ranks it singles out (odd).
 * never-entered: some ranks wait in collective S (the lowest any waits
 * in) while others never called it (their last enqueued is below S and
 * they wait in nothing).  stuck-inside: a rank waits in a collective a
 * peer completed.  all-stuck: every rank waits, not-started when their
 * GPUs say who has not begun (not_started).  not-collective: none
 * waits. */
static int shape(struct dx_collectives *c)
{
	if (find_mismatch(c))
		return DX_HANG_MISMATCH;
	int64_t s = -1;
	size_t nwait = 0;
	for (size_t k = 0; k < c->n; k++)
		if (waits(&c->r[k])) {
			nwait++;
			if (s < 0 || waits_in(&c->r[k]) < s)
				s = waits_in(&c->r[k]);
		}
	if (!nwait)
		return DX_HANG_NOT_COLLECTIVE;
	c->seq = s;
	int behind = 0;
	for (size_t k = 0; k < c->n; k++)
		if (!waits(&c->r[k]) && c->r[k].enqueued < s)
			behind = c->r[k].odd = 1;
	if (behind)
		return DX_HANG_NEVER_ENTERED;
	int inside = 0;
	for (size_t k = 0; k < c->n; k++)
		for (size_t j = 0; j < c->n; j++)
			if (waits(&c->r[k]) && c->r[j].completed >= waits_in(&c->r[k])) {
				inside = c->r[k].odd = 1;
				c->seq = waits_in(&c->r[k]);
			}
	if (inside)
		return DX_HANG_STUCK_INSIDE;
	if (nwait != c->n)
		return DX_HANG_NOT_COLLECTIVE;
	return not_started(c) ? DX_HANG_NOT_STARTED : DX_HANG_ALL_STUCK;
}

/* "ranks 0, 1, 3" of those with odd == want that wait or not, as asked. */
static size_t rank_list(struct buf *b, const struct dx_collectives *c, int want, int waiting)
{
	size_t n = 0;
	for (size_t k = 0; k < c->n; k++)
		if (c->r[k].odd == want && (waiting < 0 || waits(&c->r[k]) == waiting))
			n++;
	buf_printf(b, n == 1 ? "rank " : "ranks ");
	size_t m = 0;
	for (size_t k = 0; k < c->n; k++)
		if (c->r[k].odd == want && (waiting < 0 || waits(&c->r[k]) == waiting))
			buf_printf(b, "%s%d", m++ ? ", " : "", c->r[k].rank);
	return n;
}

static void what(struct buf *b, const struct dx_collectives *c)
{
	buf_printf(b, "collective %lld (%s%spg %lld)", (long long)c->seq, c->op, c->op[0] ? ", " : "",
		   (long long)c->pg);
}

static void waited(struct buf *b, const struct dx_collectives *c)
{
	if (!isnan(c->waited_s)) {
		char t[32];
		fmt_seconds(t, sizeof(t), c->waited_s);
		buf_printf(b, " for %s", t);
	}
}

/* The ranks of d->ranks that said nothing of their collectives, as
 * "; rank 3 said nothing of its collectives": a rank that died before
 * it could print or dump is the one a reader looks for. */
static void silent_ranks(struct buf *b, const struct diagnosis *d)
{
	size_t n = 0;
	for (size_t j = 0; j < d->nranks; j++) {
		int r = stream_rank(d->ranks[j].name), found = 0;
		for (size_t k = 0; k < d->coll.n && r >= 0; k++)
			found |= d->coll.r[k].rank == r;
		if (r >= 0 && !found)
			buf_printf(b, "%s%d", n++ ? ", " : "; no word of its collectives from rank ", r);
	}
}

/* The sentence a person would say of c's shape. */
static char *sentence(const struct diagnosis *d, int kind)
{
	const struct dx_collectives *c = &d->coll;
	struct buf b = { 0 };
	switch (kind) {
	case DX_HANG_NEVER_ENTERED:
		rank_list(&b, c, 1, -1);
		buf_printf(&b, " never joined ");
		what(&b, c);
		buf_printf(&b, "; ");
		rank_list(&b, c, 0, 1);
		buf_printf(&b, " waited in it");
		waited(&b, c);
		break;
	case DX_HANG_MISMATCH: {
		/* "rank 1 called broadcast as collective 11 (pg 0) where
		 * ranks 0, 2, 3 called all_reduce"; each rank's op when no
		 * op is the odd one. */
		const struct dx_coll_rank *odd = NULL, *peer = NULL;
		for (size_t k = 0; k < c->n; k++)
			if (*op_at(&c->r[k], c->seq))
				*(c->r[k].odd ? &odd : &peer) = &c->r[k];
		if (odd && peer) {
			/* Ops alike: the sizes are what differs. */
			int sizes = strcmp(op_at(odd, c->seq), op_at(peer, c->seq)) == 0;
			rank_list(&b, c, 1, -1);
			buf_printf(&b, " called %s", op_at(odd, c->seq));
			if (sizes)
				buf_printf(&b, " of %lld elements", (long long)numel_at(odd, c->seq));
			buf_printf(&b, " as collective %lld (pg %lld) where ", (long long)c->seq, (long long)c->pg);
			rank_list(&b, c, 0, -1);
			buf_printf(&b, " called %s", op_at(peer, c->seq));
			if (sizes)
				buf_printf(&b, " of %lld", (long long)numel_at(peer, c->seq));
			break;
		}
		buf_printf(&b, "ranks called different collectives at sequence number %lld (pg %lld):",
			   (long long)c->seq, (long long)c->pg);
		const char *sep = " ";
		for (size_t k = 0; k < c->n; k++) {
			const char *op = op_at(&c->r[k], c->seq);
			buf_printf(&b, "%srank %d %s", sep, c->r[k].rank, *op ? op : "(unknown)");
			sep = ", ";
		}
		break;
	}
	case DX_HANG_NOT_STARTED:
		rank_list(&b, c, 1, -1);
		buf_printf(&b, " called ");
		what(&b, c);
		buf_printf(&b, " but its GPU never started it (still busy with earlier work); ");
		rank_list(&b, c, 0, -1);
		buf_printf(&b, " started it and waited");
		waited(&b, c);
		break;
	case DX_HANG_STUCK_INSIDE:
		rank_list(&b, c, 1, -1);
		buf_printf(&b, " waited in ");
		what(&b, c);
		buf_printf(&b, ", which its peers completed");
		break;
	case DX_HANG_ALL_STUCK:
	case DX_HANG_SLOW:
	{
		size_t n = rank_list(&b, c, 0, -1);
		buf_printf(&b, kind == DX_HANG_SLOW ? (n == 1 ? " is in " : " are in ")
			   : n == 1 ? " waited in " : " all waited in ");
		what(&b, c);
		if (kind == DX_HANG_SLOW)
			buf_printf(&b, ", within the good runs' time for this step");
		else
			waited(&b, c);
		silent_ranks(&b, d);
		break;
	}
	case DX_HANG_NOT_COLLECTIVE:
		buf_printf(&b, "no rank waited in a collective: each had completed every one it called");
		break;
	default:
		return NULL;
	}
	return b.p;
}

void collectives_kind(struct diagnosis *d)
{
	struct dx_collectives *c = &d->coll;
	if (!c->n)
		return;
	/* A hang kind is said of a run that did not get to the end: one
	 * that did (same, different, failed on the way) hung nowhere. */
	c->kind = d->verdict == DX_SAME || d->verdict == DX_DIFFERENT || d->verdict == DX_FAILED ? DX_HANG_NONE
		: d->verdict == DX_RUNNING && c->shape != DX_HANG_NONE ? DX_HANG_SLOW
		: c->shape;
	free(c->sentence);
	c->sentence = sentence(d, c->kind);
}

/* The culprit from the hang's shape, where the log's evidence named
 * none: the one rank that never joined, or called another op in, the
 * collective its peers waited in, or whose GPU never started it.
 * Property: never a rank that waits in the collective as its peers do,
 * and never one of several odd ranks. */
static void feed_culprit(struct diagnosis *d)
{
	struct dx_collectives *c = &d->coll;
	if (d->culprit.rank)
		return;
	/* Where none is found, the collectives may say why. */
	if (d->culprit.unknown && c->shape == DX_HANG_ALL_STUCK)
		d->culprit.unknown = "every rank waited in the same collective";
	if (c->shape != DX_HANG_NEVER_ENTERED && c->shape != DX_HANG_MISMATCH && c->shape != DX_HANG_NOT_STARTED)
		return;
	const struct dx_coll_rank *odd = NULL;
	size_t nodd = 0;
	for (size_t k = 0; k < c->n; k++)
		if (c->r[k].odd)
			odd = &c->r[k], nodd++;
	if (d->culprit.unknown && c->shape == DX_HANG_MISMATCH && nodd != 1)
		d->culprit.unknown = "the ranks called different collectives, none of them the odd one";
	if (nodd != 1 || !odd->stream)
		return;
	d->culprit.rank = odd->stream;
	d->culprit.unknown = NULL;
	d->culprit.how = DX_CULPRIT_COLLECTIVE;
	d->culprit.line = odd->line;
	for (size_t k = 0; k < d->nranks; k++)
		if (d->ranks[k].name == odd->stream && odd->line == DX_NONE)
			d->culprit.line = d->ranks[k].last_line;
	for (size_t k = 0; k < c->n; k++)
		if (!c->r[k].odd && c->r[k].stream && waits(&c->r[k])) {
			d->culprit.peers = xrealloc(d->culprit.peers, (d->culprit.npeers + 1) * sizeof(char *));
			d->culprit.peers[d->culprit.npeers++] = c->r[k].stream;
		}
	d->culprit.symptoms = DX_WAIT_TIMEOUT;
}

/* Dump d's numbers in the group named name, or NULL when d has none:
 * its rank is no member, or called nothing in it the dump kept. */
static const struct fr_group *dump_group(const struct frdump *d, const char *name)
{
	for (size_t g = 0; g < d->ngroups; g++)
		if (strcmp(d->groups[g].name, name) == 0)
			return &d->groups[g];
	return NULL;
}

/* Whether group g of dumps[0..n) shows a member that never entered the
 * collective another waits in: the lowest sequence number s any member
 * waits in, and a member whose last enqueued is below s with nothing
 * pending in the group. */
static int group_never_entered(const struct frdump *dumps, size_t n, const char *name, int64_t *s)
{
	*s = -1;
	for (size_t j = 0; j < n; j++) {
		const struct fr_group *g = dump_group(&dumps[j], name);
		if (g && g->pending >= 0 && (*s < 0 || g->pending < *s))
			*s = g->pending;
	}
	for (size_t j = 0; j < n && *s >= 0; j++) {
		const struct fr_group *g = dump_group(&dumps[j], name);
		if (g && g->pending < 0 && g->enqueued >= 0 && g->enqueued < *s)
			return 1;
	}
	return 0;
}

static int by_age(const void *a, const void *b)
{
	const struct fr_group *x = *(const struct fr_group *const *)a, *y = *(const struct fr_group *const *)b;
	return (x->pending_ns > y->pending_ns) - (x->pending_ns < y->pending_ns);
}

static int by_name_then_age(const void *a, const void *b)
{
	const struct fr_group *x = *(const struct fr_group *const *)a, *y = *(const struct fr_group *const *)b;
	int c = strcmp(x->name, y->name);
	return c ? c : by_age(a, b);
}

/* never-entered in a subgroup, from the dumps: every rank's latest entry
 * (the world's, where all wait) looks all-stuck while a tensor-parallel
 * pair's all_reduce shows who never called it.  Of the groups any rank
 * waits in, taken by when their oldest waiting collective was created
 * (the first to block waited on the culprit; later ones wait on its
 * waiters), the first where a member never entered (group_never_entered)
 * is the group in question; the rows become its members' numbers in it.
 * Property: a rank that is no member of that group, or whose numbers in
 * it are unknown, is never odd; a group whose members all called the
 * collective makes no never-entered. */
static int subgroup_never_entered(struct dx_collectives *c, const struct frdump *dumps, size_t n)
{
	/* Each group's oldest waiting collective, oldest first; a name
	 * is tried once, at its oldest. */
	size_t m = 0;
	for (size_t j = 0; j < n; j++)
		m += dumps[j].ngroups;
	const struct fr_group **w = xmalloc((m ? m : 1) * sizeof(*w));
	m = 0;
	for (size_t j = 0; j < n; j++)
		for (size_t k = 0; k < dumps[j].ngroups; k++)
			if (dumps[j].groups[k].pending >= 0 && dumps[j].groups[k].pending_ns >= 0)
				w[m++] = &dumps[j].groups[k];
	qsort(w, m, sizeof(*w), by_name_then_age);
	size_t u = 0;
	for (size_t k = 0; k < m; k++)
		if (!u || strcmp(w[u - 1]->name, w[k]->name) != 0)
			w[u++] = w[k];
	qsort(w, u, sizeof(*w), by_age);
	const char *best = NULL;
	int64_t seq = -1;
	for (size_t k = 0; k < u && !best; k++)
		if (group_never_entered(dumps, n, w[k]->name, &seq))
			best = w[k]->name;
	free(w);
	if (!best)
		return 0;
	c->seq = seq;
	size_t kept = 0;
	for (size_t k = 0; k < c->n; k++) {
		const struct frdump *d = NULL;
		for (size_t j = 0; j < n && !d; j++)
			d = dumps[j].rank == c->r[k].rank ? &dumps[j] : NULL;
		const struct fr_group *g = d ? dump_group(d, best) : NULL;
		if (!g)
			continue;
		struct dx_coll_rank *r = &c->r[kept++];
		*r = c->r[k];
		from_dump(r, g, d->path);
		r->waited_s = NAN;   /* the log's is the latest group's */
		r->odd = g->pending < 0 && g->enqueued >= 0 && g->enqueued < c->seq;
	}
	c->n = kept;
	return 1;
}

static int by_rank(const void *a, const void *b)
{
	const struct dx_coll_rank *x = a, *y = b;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

void pass_collectives(struct dx_state *st, struct diagnosis *d)
{
	struct dx_collectives *c = &d->coll;
	memset(c, 0, sizeof(*c));
	c->seq = c->pg = -1;
	c->waited_s = NAN;
	size_t cap = 0;
	const struct log *bad = &st->logs[st->bad];
	uint8_t *want = xcalloc(st->nc ? st->nc : 1, 1);
	int any = 0;
	for (size_t t = 0; t < st->nc; t++)
		any |= want[t] = (uint8_t)names_work(st->ctext[t]);
	for (size_t i = st->from; any && i < bad->nlines; i++) {
		if (!want[st->id[st->bad][i]])
			continue;
		char *m = log_message(bad, i);
		int64_t rank = number_after(m, "Rank ");
		uint16_t s = st->stream[st->bad][i];
		if (rank < 0 && s)
			rank = stream_rank(st->snames[s]);
		if (rank >= 0 && rank < 1000000)
			read_line(m, rank_slot(c, &cap, (int)rank), (int64_t)i);
		free(m);
	}
	free(want);
	for (size_t k = 0; k < c->n; k++)
		log_ops(&c->r[k]);
	/* A dump says more than the log (every op), so it wins for its rank;
	 * the log still says how long the rank waited. */
	for (size_t k = 0; k < (st->opt ? st->opt->ndumps : 0); k++)
		from_dump(rank_slot(c, &cap, st->opt->dumps[k].rank), &st->opt->dumps[k].latest,
			  st->opt->dumps[k].path);
	if (!c->n)
		return;
	qsort(c->r, c->n, sizeof(*c->r), by_rank);
	for (size_t k = 0; k < c->n; k++)
		for (size_t j = 0; j < d->nranks; j++)
			if (stream_rank(d->ranks[j].name) == c->r[k].rank) {
				c->r[k].stream = d->ranks[j].name;
				break;
			}
	c->shape = shape(c);
	if ((c->shape == DX_HANG_ALL_STUCK || c->shape == DX_HANG_NOT_COLLECTIVE) && st->opt &&
	    subgroup_never_entered(c, st->opt->dumps, st->opt->ndumps))
		c->shape = DX_HANG_NEVER_ENTERED;
	for (size_t k = 0; k < c->n; k++) {
		const struct dx_coll_rank *r = &c->r[k];
		if (c->pg < 0 && r->pg >= 0)
			c->pg = r->pg;
		if (!c->op[0] && !r->odd && *op_at(r, c->seq))
			snprintf(c->op, sizeof(c->op), "%s", op_at(r, c->seq));
		if (!r->odd && waits(r) && !isnan(r->waited_s) && (isnan(c->waited_s) || r->waited_s > c->waited_s))
			c->waited_s = r->waited_s;
	}
	feed_culprit(d);
}
