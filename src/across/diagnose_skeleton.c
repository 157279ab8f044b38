/* diagnose_skeleton.c — the skeleton pass: what the logs teach before
 * any alignment (see diagnose_passes.h).  Templates reworded between
 * builds become one id (templates that never occur in the same log and
 * share most words: "Load weight end. type=.." reworded as "Load weight
 * end. elapsed=.., type=.."), every line gets a stream (a normalised rank
 * or process tag), each template its facts (in which logs, severity,
 * traceback role, heartbeat, rule), the good runs their learned
 * milestones (the skeleton: lines every good log printed once per
 * stream, in order), steps told apart by a value their own ids
 * (diagnose_steps.c), and a bad log its attempts. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "align.h"
#include "classify.h"
#include "diagnose_passes.h"
#include "mask.h"
#include "streams.h"
#include "timeline.h"

/* Words two templates must share (Jaccard) to be one reworded step. */
#define SIMILAR 0.6

/* ---- canonical ids: reworded steps ---- */

struct words {
	uint64_t *w;      /* sorted, unique hashes of the words */
	size_t n;
	uint64_t lead;    /* hash of the first two words, in order, of a
			     template of three words or more */
	uint64_t pair;    /* the same, of a template of two words only */
};

/* The end of the group that opens at t ('(', '[' or '{'): past its
 * balanced close, or t + 1 when it never closes. */
static const char *group_end(const char *t)
{
	size_t depth = 0;
	for (const char *p = t; *p; p++) {
		if (strchr("([{", *p))
			depth++;
		else if (strchr(")]}", *p) && --depth == 0)
			return p + 1;
	}
	return t + 1;
}

/* A template's words compared at most: a line of a million words (a
 * dumped array) says no more of what it is than its first thousand, and
 * costs no more. */
#define WORDS_MAX 1024

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* The hash of word w of n lower-case letters, a plural taken as its
 * singular: "flows file" reworded as "flow file" is one step. */
static uint64_t word_hash(const char *w, size_t n)
{
	if (n > 3 && w[n - 1] == 's' && w[n - 2] != 's')
		n--;
	return hash_bytes(w, n);
}

/* The words of template text t (the first WORDS_MAX); without asides, none inside a group in
 * parentheses, brackets or braces: those detail a value ("using device
 * Metal (Apple M4)" where another build says "(NVIDIA GeForce RTX 3060
 * Laptop GPU)"; "non-default args: {'host': .., 'lora_modules': ..}"
 * where another run set other arguments). */
static void words_of(const char *t, int asides, struct words *ws)
{
	size_t cap = 0, order = 0;
	uint64_t lead = 0;
	ws->w = NULL;
	ws->n = 0;
	while (*t) {
		if (*t == '<') {   /* a placeholder */
			const char *e = strchr(t, '>');
			t = e ? e + 1 : t + 1;
			continue;
		}
		if (*t && strchr("([{", *t) && !asides) {
			t = group_end(t);
			continue;
		}
		if (!isalpha((unsigned char)*t)) {
			t++;
			continue;
		}
		char low[64];
		size_t n = 0;
		while (isalpha((unsigned char)*t)) {
			if (n < sizeof(low))
				low[n++] = (char)tolower((unsigned char)*t);
			t++;
		}
		if (n < 2)
			continue;
		uint64_t h = word_hash(low, n);
		if (order++ < 2)
			lead = lead * 31 + h;
		if (ws->n == WORDS_MAX)
			continue;
		GROW(ws->w, cap, ws->n + 1);
		ws->w[ws->n++] = h;
	}
	ws->lead = order >= 3 ? lead : 0;
	ws->pair = order == 2 ? lead : 0;
	if (ws->n)
		qsort(ws->w, ws->n, sizeof(*ws->w), cmp_u64);
	size_t u = 0;
	for (size_t i = 0; i < ws->n; i++)
		if (u == 0 || ws->w[u - 1] != ws->w[i])
			ws->w[u++] = ws->w[i];
	ws->n = u;
}

static double jaccard(const struct words *a, const struct words *b)
{
	size_t i = 0, j = 0, common = 0;
	while (i < a->n && j < b->n) {
		if (a->w[i] == b->w[j])
			common++, i++, j++;
		else if (a->w[i] < b->w[j])
			i++;
		else
			j++;
	}
	size_t all = a->n + b->n - common;
	return all ? (double)common / (double)all : 0.0;
}

/* Whether word w (lower case, as words_of keeps it) is in ws. */
static int has_word(const struct words *ws, const char *w)
{
	uint64_t h = word_hash(w, strlen(w));
	size_t lo = 0, hi = ws->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ws->w[mid] == h)
			return 1;
		if (ws->w[mid] < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* Whether the words of ws say a thing finished: a job's or a step's
 * end, "Done", "Successfully completed". */
static int says_finished(const struct words *ws)
{
	static const char *const finished[] = {
		"done", "finished", "completed", "complete", "success", "successful", "successfully",
		"succeeded", "passed", "ended",
	};
	for (size_t k = 0; k < sizeof(finished) / sizeof(finished[0]); k++)
		if (has_word(ws, finished[k]))
			return 1;
	return 0;
}

/* Whether templates of words a and b say opposite things: one has a
 * word the other lacks that says a thing stopped, failed or did not
 * happen, and the other does not say it finished.  "Process[web] is up"
 * and "Process [web] is stopped", or "Connected to the broker" and
 * "Disconnected from the broker", share most words, but the one is no
 * rewording of the other.  A job's summary that says "Exited" where the
 * good run's says "Done" is the same end with another outcome: the step
 * was done. */
static int opposite(const struct words *a, const struct words *b)
{
	static const char *const ended[] = {
		"stopped", "stopping", "down", "failed", "failure", "closed", "disconnected", "disabled",
		"exited", "exiting", "killed", "terminated", "aborted", "shutdown", "unhealthy", "lost",
		"refused", "unable", "cannot", "not", "no", "error", "timeout",
	};
	for (size_t k = 0; k < sizeof(ended) / sizeof(ended[0]); k++) {
		int ina = has_word(a, ended[k]), inb = has_word(b, ended[k]);
		if (ina != inb && !says_finished(ina ? b : a))
			return 1;
	}
	return 0;
}

struct cand {
	uint64_t lead;
	uint32_t c;
};

/* Two templates that may merge: how alike, and their places in the
 * sorted candidates, c after r. */
struct pair {
	double x;
	size_t c, r;
};

/* Most alike first; of equals, the earlier c, then the nearer r. */
static int pair_cmp(const void *x, const void *y)
{
	const struct pair *a = x, *b = y;
	if (a->x != b->x)
		return a->x > b->x ? -1 : 1;
	if (a->c != b->c)
		return a->c < b->c ? -1 : 1;
	return a->r > b->r ? -1 : a->r < b->r;
}

static int cand_cmp(const void *x, const void *y)
{
	const struct cand *a = x, *b = y;
	if (a->lead != b->lead)
		return a->lead < b->lead ? -1 : 1;
	return a->c < b->c ? -1 : a->c > b->c;
}

/* Whether templates r and c are at one level: the same, or one line
 * says none (an older build without the header, llama.cpp's before its
 * "0.00.042.720 I" prefix) and its text reads as the other's level.
 * Lines whose words tell failure from success ("exited with code 1",
 * "... code 0") are at different levels whatever their header said. */
static int same_level(const struct dx_state *st, uint32_t r, uint32_t c)
{
	int a = st->clevel[r], b = st->clevel[c];
	if (a == b)
		return classify_severity(st->rs, st->ctext[r], a) == classify_severity(st->rs, st->ctext[c], b);
	if (a != LV_NONE && b != LV_NONE)
		return 0;
	uint32_t none = a == LV_NONE ? r : c, other = a == LV_NONE ? c : r;
	return classify_severity(st->rs, st->ctext[none], LV_NONE) ==
	       classify_severity(st->rs, st->ctext[none], st->clevel[other]);
}

/* Whether templates r and c are of one severity, each read at its own
 * level: an error is never the step a rule names in a line at info
 * (Consul's "[ERROR] agent: Error starting agent: ..." is no "[INFO]
 * agent: Starting server: ..."), whatever the rule's words. */
static int same_severity(const struct dx_state *st, uint32_t r, uint32_t c)
{
	return classify_severity(st->rs, st->ctext[r], st->clevel[r]) ==
	       classify_severity(st->rs, st->ctext[c], st->clevel[c]);
}

/* canon[c] = the id c is merged into (itself when none).  Only templates
 * missing from some log are candidates, and two merge only when no log
 * has both: within one log they are different steps.  Two that a rule
 * names alike are one step ("Capture cuda graph begin" and DFlash's
 * "Capture target prefill CUDA graph begin") when of one severity
 * (same_severity) and they share a word at least (a line of
 * a status file bad quoted, "Started at: <date>", is no "Starting up
 * tables."); others must share most
 * words, or most words outside groups (see words_of), and their first
 * two -- and a template of two words outside groups both of them and
 * no other -- and not say opposite things (opposite): Poetry's "Resolving dependencies..." is the step its
 * finished run prints as "Resolving dependencies... (0.9s)".  One whose
 * message is on the lines after it (ends_open) merges with none. */
/* Whether template t ends in a separator with nothing after it ("[x.py:
 * _check_ready()] - "): its message is on the lines that follow, and it
 * is no step that a line says in words ("... - Klippy ready"). */
static int ends_open(const char *t)
{
	size_t n = strlen(t);
	while (n > 0 && isspace((unsigned char)t[n - 1]))
		n--;
	size_t k = n;
	while (k > 0 && !isspace((unsigned char)t[k - 1]))
		k--;
	return k < n && strspn(t + k, "-:|=>") == n - k && k > 0;
}

static void canonicalise(struct dx_state *st, const uint64_t *logset, const int32_t *crule,
			 uint32_t *canon)
{
	uint64_t all = st->nlogs >= 64 ? ~0ull : (1ull << st->nlogs) - 1;
	struct cand *cs = xmalloc((st->nc ? st->nc : 1) * sizeof(*cs));
	struct words *ws = xcalloc(st->nc ? st->nc : 1, sizeof(*ws));
	struct words *plain = xcalloc(st->nc ? st->nc : 1, sizeof(*plain));
	size_t n = 0;
	for (size_t c = 0; c < st->nc; c++) {
		canon[c] = (uint32_t)c;
		if ((logset[c] & all) == all || !logset[c] || ends_open(st->ctext[c]))
			continue;
		words_of(st->ctext[c], 1, &ws[c]);
		words_of(st->ctext[c], 0, &plain[c]);
		if (crule[c] >= 0)
			cs[n++] = (struct cand){ 0x9e3779b97f4a7c15ull * ((uint64_t)crule[c] + 1), (uint32_t)c };
		else if (ws[c].lead)
			cs[n++] = (struct cand){ ws[c].lead, (uint32_t)c };
		else if (plain[c].pair)
			cs[n++] = (struct cand){ ~plain[c].pair, (uint32_t)c };
	}
	if (n)
		qsort(cs, n, sizeof(*cs), cand_cmp);
	/* Every pair of the bucket that may merge, nearest first: at most
	 * 32 earlier templates that share no log with c, of 256 looked at. */
	struct pair *ps = NULL;
	size_t np = 0, pcap = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t c = cs[i].c;
		size_t tries = 0, looked = 0;
		for (size_t k = i; k-- > 0 && cs[k].lead == cs[i].lead && tries < 32 && looked++ < 256;) {
			uint32_t r = cs[k].c;
			if (logset[r] & logset[c])
				continue;
			tries++;
			if (crule[c] >= 0 ? crule[r] != crule[c] || !same_severity(st, r, c)
					  : crule[r] >= 0 || !same_level(st, r, c))
				continue;
			double x = jaccard(&ws[r], &ws[c]), y = jaccard(&plain[r], &plain[c]);
			x = strcmp(st->ctext[r], st->ctext[c]) == 0 ? 2 : x > y ? x : y;
			if (crule[c] < 0 && (x < SIMILAR || opposite(&ws[r], &ws[c])))
				continue;
			if (crule[c] >= 0 && x == 0)
				continue;   /* a rule's word alone */
			if (crule[c] < 0 && !ws[c].lead && y < 1)
				continue;   /* two words: the same two */
			GROW(ps, pcap, np + 1);
			ps[np++] = (struct pair){ x, i, k };
		}
	}
	/* The most alike pairs merge first (one text at another level, then
	 * most words shared): a build's "n_batch = 2048" is its "n_batch",
	 * not the first line of the same function that shares enough words,
	 * and a look-alike never takes the step from the line that is it.
	 * A template merges once, into one that is still its own and has
	 * no log of it. */
	if (np)
		qsort(ps, np, sizeof(*ps), pair_cmp);
	uint64_t *group = xcalloc(st->nc ? st->nc : 1, sizeof(*group));
	uint8_t *taken = xcalloc(st->nc ? st->nc : 1, 1);
	for (size_t c = 0; c < st->nc; c++)
		group[c] = logset[c];
	for (size_t p = 0; p < np; p++) {
		uint32_t r = cs[ps[p].r].c, c = cs[ps[p].c].c;
		if (canon[r] != r || canon[c] != c || taken[c] || group[r] & logset[c])
			continue;
		canon[c] = r;
		taken[r] = 1;
		group[r] |= logset[c];
	}
	free(ps);
	free(taken);
	for (size_t c = 0; c < st->nc; c++) {
		free(ws[c].w);
		free(plain[c].w);
	}
	free(ws);
	free(plain);
	free(cs);
	free(group);
}

/* ---- building the state ---- */

/* The (template, stream) pairs seen in one log, in an open-addressing
 * set: keys are id << 16 | stream, plus one so that 0 marks a free slot. */
struct pairset {
	uint64_t *slot;
	size_t n, mask;
};

/* Put a key that is not there yet into ps's slots. */
static void pairset_put(struct pairset *ps, uint64_t key)
{
	size_t h = (size_t)(key * 0x9e3779b97f4a7c15ull >> 20) & ps->mask;
	while (ps->slot[h])
		h = (h + 1) & ps->mask;
	ps->slot[h] = key;
}

/* Add key; returns 1 when it was there already. */
static int pairset_add(struct pairset *ps, uint64_t key)
{
	key++;
	if (2 * (ps->n + 1) > ps->mask + 1) {
		/* At most half full: rebuild twice as large. */
		size_t nslots = ps->mask ? 2 * (ps->mask + 1) : 1024;
		uint64_t *old = ps->slot;
		size_t oldn = ps->mask ? ps->mask + 1 : 0;
		ps->slot = xcalloc(nslots, sizeof(*ps->slot));
		ps->mask = nslots - 1;
		for (size_t i = 0; i < oldn; i++)
			if (old[i])
				pairset_put(ps, old[i]);
		free(old);
	}
	size_t h = (size_t)(key * 0x9e3779b97f4a7c15ull >> 20) & ps->mask;
	for (; ps->slot[h]; h = (h + 1) & ps->mask)
		if (ps->slot[h] == key)
			return 1;
	ps->slot[h] = key;
	ps->n++;
	return 0;
}

/* Learned milestones: in every good log, in every stream where it occurs,
 * exactly once.  A template seen twice in one stream is out for good, so
 * its later lines (most lines of a big log: requests, progress) cost a
 * byte's lookup; only the others go through the set of pairs. */
static void learn_skeleton(struct dx_state *st, uint8_t *skel)
{
	uint8_t *bad = xcalloc(st->nc ? st->nc : 1, 1);
	for (size_t c = 0; c < st->nc; c++)
		skel[c] = 1;
	for (size_t g = 0; g < st->ngood; g++) {
		struct log *lg = &st->logs[g];
		struct pairset ps = { 0 };
		for (size_t i = 0; i < lg->nlines; i++) {
			uint32_t c = st->id[g][i];
			if (!bad[c] && pairset_add(&ps, (uint64_t)c << 16 | st->stream[g][i]))
				bad[c] = 1;
		}
		free(ps.slot);
		for (size_t c = 0; c < st->nc; c++)
			if (!st->cnt[g * st->nc + c])
				skel[c] = 0;
	}
	for (size_t c = 0; c < st->nc; c++)
		if (bad[c] || st->ngood == 0)
			skel[c] = 0;
	free(bad);
}

/* Log l's first line that is no heartbeat: its program's start banner,
 * which recurs once per run in a log of several (a restart loop, a log
 * each start appends to); -1 for none. */
int64_t start_banner(const struct dx_state *st, size_t l)
{
	for (size_t i = 0; i < st->logs[l].nlines; i++)
		if (!st->hb[st->id[l][i]])
			return (int64_t)i;
	return -1;
}

/* How many of a template's lines counters_rise reads. */
#define COUNTER_SAMPLE 16
/* ... and how many of each line's integers it follows. */
#define COUNTER_INTS 8

/* Whether template c's lines in log l count: one of their integers (the
 * same one on every line: "Step at 4 with ...", "check 13312", "Epoch 0:
 * global_step=42") is larger on each line than on the last, as a
 * training loop's steps are, which come as steadily as a heartbeat but
 * are progress.  Reads up to COUNTER_SAMPLE of them. */
static int counters_rise(const struct dx_state *st, size_t l, uint32_t c)
{
	const struct log *lg = &st->logs[l];
	struct buf scratch = { 0 };
	struct masked m = { 0 };
	uint64_t last[COUNTER_INTS];
	size_t seen = 0, nints = 0;
	unsigned rise = (1u << COUNTER_INTS) - 1;   /* the integers still rising */
	for (size_t i = 0; i < lg->nlines && seen < COUNTER_SAMPLE && rise; i++) {
		if (st->id[l][i] != c)
			continue;
		struct line ln;
		struct header h;
		log_line(lg, i, &ln, &h, &scratch);
		mask_message(ln.text + h.msg_off, ln.len - h.msg_off, &m);
		const char *msg = ln.text + h.msg_off;
		size_t n = 0;
		for (size_t k = 0; k < m.nv && n < COUNTER_INTS; k++) {
			if (m.v[k].type != V_INT)
				continue;
			uint64_t x = 0;
			for (uint32_t d = 0; d < m.v[k].len && d < 18; d++)
				x = x * 10 + (uint64_t)(msg[m.v[k].off + d] - '0');
			if (seen && !(x > last[n]))
				rise &= ~(1u << n);
			last[n++] = x;
		}
		if (seen && n != nints)
			rise = 0;   /* another shape: no counter */
		nints = n;
		rise &= (1u << n) - 1;
		seen++;
	}
	masked_free(&m);
	buf_free(&scratch);
	return rise && seen >= 2;
}

/* Templates that recur at a steady pace in some log: heartbeats (health
 * checks, idle throughput reports), even when nothing else is printed in
 * between.  Needs timestamps; classify_is_heartbeat covers the usual ones.
 * A log that holds several runs (a restart loop) repeats each run's lines
 * at the pace of its restarts: a heartbeat beats more than twice as often
 * as a log's first line, its start banner, recurs.  Lines that count
 * (counters_rise) are steps, however steady: a training run hung at step
 * 40 of 100 is in step 41. */
static void learn_heartbeats(struct dx_state *st)
{
	size_t nc = st->nc ? st->nc : 1;
	int64_t *last = xmalloc(nc * sizeof(*last)), *firstts = xmalloc(nc * sizeof(*firstts));
	uint32_t *beats = xmalloc(nc * sizeof(*beats));
	uint32_t *runs = xmalloc((st->nlogs ? st->nlogs : 1) * sizeof(*runs));
	/* A log cut in the middle of a run (the first attempt of a restart
	 * loop died before its banner) starts with no banner: every log's
	 * banner counts in every log. */
	for (size_t l = 0; l < st->nlogs; l++)
		runs[l] = 1;
	for (size_t k = 0; k < st->nlogs; k++) {
		int64_t b = start_banner(st, k);
		if (b < 0)
			continue;
		for (size_t l = 0; l < st->nlogs; l++)
			if (st->cnt[l * nc + st->id[k][b]] > runs[l])
				runs[l] = st->cnt[l * nc + st->id[k][b]];
	}
	for (size_t l = 0; l < st->nlogs; l++) {
		struct log *lg = &st->logs[l];
		for (size_t c = 0; c < st->nc; c++) {
			last[c] = firstts[c] = TS_NONE;
			beats[c] = 0;
		}
		for (size_t i = 0; i < lg->nlines; i++) {
			uint32_t c = st->id[l][i];
			int64_t ts = lg->ts[i];
			if (ts == TS_NONE || (last[c] != TS_NONE && ts - last[c] < 1000))
				continue;   /* the same burst */
			if (firstts[c] == TS_NONE)
				firstts[c] = ts;
			last[c] = ts;
			beats[c]++;
		}
		for (size_t c = 0; c < st->nc; c++) {
			if (st->hb[c] || beats[c] < 4 || beats[c] <= 2 * runs[l] ||
			    (last[c] - firstts[c]) / (beats[c] - 1) < 2000)
				continue;
			if (counters_rise(st, l, (uint32_t)c))
				st->counter[c] = 1;
			else
				st->hb[c] = 1;
		}
	}
	/* A line that counts in one log counts in all (a log whose first
	 * beats were cut off). */
	for (size_t c = 0; c < st->nc; c++)
		if (st->counter[c])
			st->hb[c] = 0;
	free(runs);
	free(last);
	free(firstts);
	free(beats);
}

int dx_bar_count(const struct dx_state *st, size_t l, size_t i, uint32_t c, uint64_t *pos, uint64_t *total)
{
	const struct log *lg = &st->logs[l];
	int own = st->id[l][i] == c;
	if (!own && !(st->bar[l] && st->bar[l][i] == c))
		return 0;
	struct buf scratch = { 0 };
	struct masked m = { 0 };
	struct line ln;
	struct header h;
	log_line(lg, i, &ln, &h, &scratch);
	if (!own)
		prefix_parse_in(&lg->order, ln.bar, ln.bar_len, &h);
	const char *t = (own ? ln.text : ln.bar) + h.msg_off;
	size_t n = (own ? ln.len : ln.bar_len) - h.msg_off;
	mask_message(t, n, &m);
	int ok = mask_bar_count(&m, t, pos, total);
	masked_free(&m);
	buf_free(&scratch);
	return ok;
}

/* How many of a bar's frames learn_progress_bars reads in a log, at most. */
#define BAR_SAMPLE 64

/* Where a bar's frames stand in one log, as learn_progress_bars reads
 * them: the last frame's count and line, and how many it read. */
struct bar_seen {
	uint64_t pos, total;
	size_t n, line;
};

/* Bar template c's frame on log l's line i, after the frames *b read
 * before it: c is drawn anew when the count starts over (its position
 * goes back), counts to another total, or a bar that was complete is
 * complete again on a later line that does not follow it (a bar drawn
 * whole each time, its frames pasted on one line). */
static void bar_frame(struct dx_state *st, size_t l, size_t i, uint32_t c, struct bar_seen *b)
{
	uint64_t pos, total;
	if (st->bars[c] || b->n >= BAR_SAMPLE || !dx_bar_count(st, l, i, c, &pos, &total))
		return;
	int whole_again = pos == total && b->pos == b->total && i > b->line + 1;
	if (b->n++ && (pos < b->pos || total != b->total || whole_again))
		st->hb[c] = st->bars[c] = 1;
	*b = (struct bar_seen){ pos, total, b->n, i };
}

/* A progress bar that some log draws anew (a bar per request, per epoch,
 * per retry: bar_frame) shows how far something got there, like a
 * heartbeat, and is no step: matching one of its drawings would tie bad
 * to whichever drawing came first.  One bar redrawn as it counts on, on
 * new lines or between the lines a loop prints ("shards: 33% | 1/3" ...
 * "100% | 3/3", a training bar between its loss reports) stays the
 * progress it is, as does a bar every run draws once.  Frames come as
 * lines of their own or in front of a line's text (st->bar); each log
 * is read once, at most BAR_SAMPLE frames of each bar: a bar drawn
 * again shows itself early. */
static void learn_progress_bars(struct dx_state *st)
{
	size_t nc = st->nc ? st->nc : 1;
	int any = 0;
	for (size_t c = 0; c < st->nc; c++)
		any |= st->is_bar[c] = (uint8_t)mask_is_progress_bar(st->ctext[c]);
	if (!any)
		return;
	struct bar_seen *b = xmalloc(nc * sizeof(*b));
	for (size_t l = 0; l < st->nlogs; l++) {
		memset(b, 0, nc * sizeof(*b));
		for (size_t i = 0; i < st->logs[l].nlines; i++) {
			uint32_t c = st->id[l][i], front = st->bar[l] ? st->bar[l][i] : ALIGN_NONE;
			if (front != ALIGN_NONE && front != c)
				bar_frame(st, l, i, front, &b[front]);
			if (st->is_bar[c])
				bar_frame(st, l, i, c, &b[c]);
		}
	}
	free(b);
}

/* Whether a template announces a retry: "Retrying in 5s", "will retry",
 * "retry in 2 s", Celery's "Trying again in 2.00 seconds...", "try again
 * in 10s". */
static int is_retry(const char *t)
{
	return strcasestr(t, "retrying") || strcasestr(t, "will retry") || strcasestr(t, "retry in") ||
	       strcasestr(t, "trying again") || strcasestr(t, "try again in");
}

/* Whether no good log printed template c. */
int is_novel_template(const struct dx_state *st, uint32_t c)
{
	for (size_t g = 0; g < st->ngood; g++)
		if (st->cnt[g * st->nc + c])
			return 0;
	return 1;
}

/* ---- attempts ---- */

/* How many of the good run's first lines are tried as its start banner:
 * a prelude may come once before it (a CI runner's group header, a
 * launcher's echo of its command). */
#define BANNER_SCAN 8

/* Whether bad printed, before its line i, a template that the good run
 * (good log 0) first printed before its line j. */
static int begun_before(const struct dx_state *st, size_t j, size_t i)
{
	const uint32_t *id = st->id[st->bad];
	for (size_t k = 0; k < i; k++) {
		int64_t g = st->first[id[k]];
		if (g >= 0 && (size_t)g < j)
			return 1;
	}
	return 0;
}

/* Bad's attempts when a run starts with the lines banner[0], banner[1]
 * (see find_attempts); where the one to diagnose starts into *from, and
 * which one it is (from 1) into *which.
 * An error before bad's first banner failed an attempt of its own only
 * when that banner bears a time, which says it was printed after the
 * error: without one, it is the output of the run that failed, flushed
 * after the error (flushed_after, diagnose_verdict.c), not a restart.
 * Nor when bad printed, before it, a line the good run printed before
 * its banner (good's lines before j): the run had begun, so that
 * "banner" is a step of it, printed once, and no start again.  An
 * error that says it will be retried (conda's "Solving environment:
 * failed with repodata from current_repodata.json, will retry with
 * next repodata source") failed no attempt: the run goes on by its own
 * word. */
static size_t count_attempts(const struct dx_state *st, const uint32_t banner[2], size_t j, size_t *from,
			     size_t *which)
{
	const struct log *bad = &st->logs[st->bad];
	const uint32_t *id = st->id[st->bad];
	const uint16_t *bs = st->stream[st->bad];
	int started = 0, failed = 0;
	size_t attempts = 1, prev = 0, said = 0;   /* lines besides the banner since *from */
	*from = 0;
	for (size_t i = 0; i < bad->nlines; i++) {
		uint32_t c = id[i];
		said += !st->hb[c] && c != banner[0] && c != banner[1];
		if (st->new_error[c] && !st->retry[c])
			failed = 1;
		if (c != banner[0])
			continue;
		int first = !started;
		started = 1;
		if (first && (bad->ts[i] == TS_NONE || begun_before(st, j, i)))
			failed = 0;
		if (!failed)
			continue;
		size_t k = i + 1;
		while (k < bad->nlines && (st->hb[id[k]] || bs[k] != bs[i]))
			k++;
		if (k < bad->nlines && id[k] == banner[1]) {
			prev = *from;
			*from = i;
			attempts++;
			failed = 0;
			said = 0;
		}
	}
	/* A last attempt that printed no more than the banner (the log was
	 * cut there; each rank may have printed it) shows nothing to
	 * compare: the one before is diagnosed. */
	*which = attempts;
	if (attempts > 1 && said == 0) {
		*from = prev;
		*which = attempts - 1;
	}
	return attempts;
}

/* Whether template c says the run is up (a final rule's: listening,
 * ready). */
static int is_up_line(const struct dx_state *st, uint32_t c)
{
	return st->rule[c] >= 0 && st->rs->r[st->rule[c]].final;
}

/* A log may hold several runs: a service restarted by its supervisor
 * after each failure writes every attempt into one file.  The last one is
 * what went wrong now; it is compared with the good run from its start.
 * A run starts where bad prints the good run's first two lines (its start
 * banner, heartbeats, blank lines and a prelude aside); a recurrence of the banner
 * starts another attempt only after the attempt before it printed the
 * banner and then a new error (count_attempts), so ranks that each print
 * the banner, or a healthy run restarted on purpose, stay one run. */
static void find_attempts(struct dx_state *st)
{
	st->from = 0;
	st->attempts = st->attempt = 1;
	if (st->ngood == 0)
		return;
	/* The banner is two lines of one stream (eight ranks that each
	 * print the first line are no restart): the good run's first, or
	 * after a prelude, the first that bad printed again after failing. */
	const uint32_t *gid = st->id[0];
	const uint16_t *gs = st->stream[0];
	size_t n = st->logs[0].nlines, tried = 0;
	for (size_t j = 0; j < n && tried < BANNER_SCAN; j++) {
		/* A run starts before it is up: what it prints once up (a
		 * server booting a worker in place of one that died) is the
		 * running run's work, however often it recurs. */
		if (j > 0 && is_up_line(st, gid[j - 1]))
			return;
		if (st->hb[gid[j]])
			continue;
		tried++;
		/* A start banner is printed once per run: a line the good
		 * run printed before (GStreamer's "Setting pipeline to
		 * PAUSED ...", which opens and closes each run) is a step
		 * of it, and so is one it prints again after its prelude
		 * (a test suite's "[ RUN ] X.y", one per test): a good log
		 * of two runs prints its prelude again with its banner. */
		if (st->first[gid[j]] != (int64_t)j || (j > 0 && st->cnt[gid[j]] > 1))
			continue;
		size_t k = j + 1;
		while (k < n && (st->hb[gid[k]] || gs[k] != gs[j]))
			k++;
		if (k == n)
			return;
		uint32_t banner[2] = { gid[j], gid[k] };
		size_t from, which, attempts = count_attempts(st, banner, j, &from, &which);
		if (attempts > 1) {
			st->attempts = attempts;
			st->attempt = which;
			st->from = from;
			return;
		}
	}
}

/* ---- the pass ---- */

/* Every template of tt's canonical id (the caller frees the array): its
 * cluster's (tmpl_cluster), or that of the cluster a reworded one merges
 * into (canonicalise).  Fills st's cluster texts, levels and rules: a
 * cluster's first member decides its level; a merged cluster keeps the
 * rule of the first that has one. */
static uint32_t *canonical_ids(struct dx_state *st, struct tmpl_table *tt)
{
	uint32_t *map = xmalloc((tt->n ? tt->n : 1) * sizeof(*map));
	st->nc = tmpl_cluster(tt, map, &st->ctext);
	size_t nc = st->nc ? st->nc : 1;
	st->clevel = xcalloc(nc, 1);
	int32_t *trule = xmalloc((tt->n ? tt->n : 1) * sizeof(*trule));
	rules_match(st->rs, tt, trule);
	int32_t *crule = xmalloc(nc * sizeof(*crule));
	for (size_t c = 0; c < nc; c++)
		crule[c] = -1;
	for (size_t id = tt->n; id-- > 0;) {   /* the first member decides */
		st->clevel[map[id]] = tt->t[id].level;
		if (trule[id] >= 0)
			crule[map[id]] = trule[id];
	}
	free(trule);
	/* Which logs hold each cluster. */
	uint64_t *logset = xcalloc(nc, sizeof(*logset));
	for (size_t l = 0; l < st->nlogs; l++)
		for (size_t i = 0; i < st->logs[l].nlines; i++)
			logset[map[st->logs[l].tid[i]]] |= 1ull << (l < 63 ? l : 63);
	uint32_t *canon = xmalloc(nc * sizeof(*canon));
	canonicalise(st, logset, crule, canon);
	free(logset);
	st->rule = xmalloc(nc * sizeof(*st->rule));
	for (size_t c = 0; c < nc; c++)
		st->rule[c] = -1;
	for (size_t c = 0; c < st->nc; c++)
		if (crule[c] >= 0 && st->rule[canon[c]] < 0)
			st->rule[canon[c]] = crule[c];
	free(crule);
	for (size_t id = 0; id < tt->n; id++)
		map[id] = canon[map[id]];
	free(canon);
	return map;
}

/* Per line of each log: its canonical id (canon, by template) and its
 * stream, one per normalised rank or process tag (streams.c), 0 for an
 * untagged line. */
static void line_ids(struct dx_state *st, const uint32_t *canon)
{
	st->id = xcalloc(st->nlogs, sizeof(*st->id));
	st->bar = xcalloc(st->nlogs, sizeof(*st->bar));
	st->stream = xcalloc(st->nlogs, sizeof(*st->stream));
	streams_intern(&st->snames, &st->nstreams, "");
	for (size_t l = 0; l < st->nlogs; l++) {
		struct log *lg = &st->logs[l];
		uint16_t *tagmap = xmalloc((lg->ntags + 1) * sizeof(*tagmap));
		tagmap[0] = 0;
		for (size_t t = 1; t < lg->ntags; t++) {
			char *n = streams_norm_tag(lg->tags[t]);
			tagmap[t] = streams_intern(&st->snames, &st->nstreams, n);
			free(n);
		}
		if (lg->bar) {
			st->bar[l] = xmalloc((lg->nlines ? lg->nlines : 1) * sizeof(**st->bar));
			for (size_t i = 0; i < lg->nlines; i++)
				st->bar[l][i] = lg->bar[i] == TMPL_NONE ? ALIGN_NONE : canon[lg->bar[i]];
		}
		st->id[l] = xmalloc((lg->nlines ? lg->nlines : 1) * sizeof(**st->id));
		st->stream[l] = xmalloc((lg->nlines ? lg->nlines : 1) * sizeof(**st->stream));
		for (size_t i = 0; i < lg->nlines; i++) {
			st->id[l][i] = canon[lg->tid[i]];
			st->stream[l][i] = lg->tag[i] < lg->ntags ? tagmap[lg->tag[i]] : 0;
		}
		free(tagmap);
	}
}

/* Per log: which streams have lines, each template's count and first
 * line. */
static void count_lines(struct dx_state *st)
{
	size_t nc = st->nc ? st->nc : 1, nlogs = st->nlogs;
	st->has = xcalloc(nlogs * st->nstreams, 1);
	st->cnt = xcalloc(nlogs * nc, sizeof(*st->cnt));
	st->first = xmalloc(nlogs * nc * sizeof(*st->first));
	for (size_t x = 0; x < nlogs * nc; x++)
		st->first[x] = -1;
	for (size_t l = 0; l < nlogs; l++)
		for (size_t i = 0; i < st->logs[l].nlines; i++) {
			uint32_t c = st->id[l][i];
			st->has[l * st->nstreams + st->stream[l][i]] = 1;
			if (st->cnt[l * nc + c]++ == 0)
				st->first[l * nc + c] = (int64_t)i;
		}
}

/* What each template is: its severity, traceback role, whether it is a
 * heartbeat (learned, or a progress bar drawn at several places) or a
 * counter, a new error, a retry notice, a shutdown. */
static void template_facts(struct dx_state *st)
{
	size_t nc = st->nc ? st->nc : 1;
	st->sev = xcalloc(nc, 1);
	st->tb = xcalloc(nc, 1);
	st->hb = xcalloc(nc, 1);
	st->ms = xcalloc(nc, 1);
	st->bars = xcalloc(nc, 1);
	st->is_bar = xcalloc(nc, 1);
	st->counter = xcalloc(nc, 1);
	for (size_t c = 0; c < st->nc; c++) {
		st->sev[c] = (uint8_t)classify_severity(st->rs, st->ctext[c], st->clevel[c]);
		st->tb[c] = (uint8_t)classify_traceback_role(st->ctext[c]);
		/* Blank lines and heartbeats say nothing about progress. */
		st->hb[c] = (uint8_t)(classify_is_heartbeat(st->rs, st->ctext[c]) ||
				      st->ctext[c][strspn(st->ctext[c], " \t")] == '\0');
	}
	learn_heartbeats(st);
	learn_progress_bars(st);
	st->new_error = xmalloc(nc);
	for (size_t c = 0; c < st->nc; c++)
		st->new_error[c] = st->sev[c] == DX_ERROR && is_novel_template(st, c);
	st->retry = xmalloc(nc);
	for (size_t c = 0; c < st->nc; c++)
		st->retry[c] = (uint8_t)is_retry(st->ctext[c]);
	st->stop = xmalloc(nc);
	rules_stops(st->rs, st->ctext, st->nc, st->stop);
}

/* Whether template text t is shaped to go with the line above it: it is
 * indented ("  --> src/db.rs:32:14", "    warnings.warn(") or opens with
 * a gutter, a line number and a bar ("11 | use crate::x;", "   |"), as
 * compilers quote source under a diagnostic. */
static int continues_above(const char *t)
{
	if (t[0] == ' ' || t[0] == '\t')
		return 1;
	size_t n = strcspn(t, " \t");
	return n && t[n] == ' ' && t[n + 1] == '|' && (t[n + 2] == ' ' || t[n + 2] == '\0') &&
	       (strspn(t, "0123456789") == n || strncmp(t, "<int>", n) == 0);
}

/* A line's shape: its indentation and first character, as far as
 * SHAPES tells them apart. */
#define SHAPES (32 * 256)
static size_t shape_of(const char *t)
{
	size_t n = strspn(t, " \t");
	return (n < 31 ? n : 31) * 256 + (unsigned char)t[n];
}

/* Templates every good log printed only as part of a warning or an
 * error: on lines shaped to go with the one above (continues_above),
 * without a time of their own, right under such a diagnostic, unless
 * the log printed a line of that shape on its own before (Flask's
 * " * Running on ..." under its warning, after " * Serving Flask app").
 * A compiler's quoted source under a warning only one build printed is
 * no step of the run, and no milestone a run must reach. */
static void learn_asides(struct dx_state *st)
{
	size_t nc = st->nc ? st->nc : 1;
	uint8_t *outside = xcalloc(nc, 1);
	uint8_t *own = xmalloc(SHAPES);
	st->aside = xcalloc(nc, 1);
	for (size_t l = 0; l + 1 < st->nlogs; l++) {
		const struct log *lg = &st->logs[l];
		int under = 0;
		memset(own, 0, SHAPES);
		for (size_t i = 0; i < lg->nlines; i++) {
			uint32_t c = st->id[l][i];
			const char *t = st->ctext[c];
			if (under && lg->ts[i] == TS_NONE && !is_blank(t) && continues_above(t) && !own[shape_of(t)]) {
				st->aside[c] = 1;
				continue;
			}
			under = st->sev[c] != DX_INFO && !is_blank(t);
			own[shape_of(t)] = 1;
			outside[c] = 1;
		}
	}
	free(own);
	for (size_t c = 0; c < st->nc; c++)
		st->aside[c] &= !outside[c];
	free(outside);
}

/* The milestones (learned, or named by a rule; no heartbeat is one),
 * what aligning each template is worth, and the steps a match must not
 * jump over. */
static void milestone_steps(struct dx_state *st)
{
	size_t nc = st->nc ? st->nc : 1;
	learn_skeleton(st, st->ms);
	learn_asides(st);
	st->weight = xmalloc(nc);
	for (size_t c = 0; c < st->nc; c++) {
		if (st->hb[c] || st->aside[c])
			st->ms[c] = 0;
		if (st->rule[c] >= 0)
			st->ms[c] = 1;
		/* A recurring bar is left out of the alignment, as if bad
		 * and good had not drawn it (see learn_progress_bars). */
		st->weight[c] = st->rule[c] >= 0 ? 8 : st->ms[c] ? 2 : st->bars[c] ? 0 : 1;
	}
	/* What one good log printed once is mostly incidental (every config
	 * line); when rules name enough of its steps, only those and counted
	 * steps ("step 3/8") count as steps bad may not jump over. */
	st->step = xmalloc(nc);
	size_t named = 0;
	for (size_t c = 0; c < st->nc; c++)
		named += st->rule[c] >= 0 && st->cnt[c];
	st->steps_named = st->ngood == 1 && named >= 3;
	for (size_t c = 0; c < st->nc; c++)
		st->step[c] = st->steps_named && c < st->nc - st->ncounted ? st->rule[c] >= 0 : st->ms[c];
}

void pass_skeleton(struct dx_state *st, struct log *logs, size_t nlogs, struct tmpl_table *tt,
		   const struct ruleset *rs, struct diagnosis *d)
{
	memset(st, 0, sizeof(*st));
	st->logs = logs;
	st->nlogs = nlogs;
	st->ngood = nlogs - 1;
	st->bad = nlogs - 1;
	st->rs = rs;
	uint32_t *canon = canonical_ids(st, tt);
	line_ids(st, canon);
	free(canon);
	split_steps(st);
	count_lines(st);
	template_facts(st);
	milestone_steps(st);
	find_attempts(st);
	d->ngood = st->ngood;
	d->bad_log = &logs[st->bad];
	d->attempts = st->attempts;
	d->attempt = st->attempt;
	d->attempt_line = (int64_t)st->from;
	d->stream_names = st->snames;
	d->nstreams = st->nstreams;
}

void skeleton_free(struct dx_state *st)
{
	if (!st)
		return;
	for (size_t l = 0; l < st->nlogs; l++) {
		free(st->id[l]);
		free(st->bar[l]);
		free(st->stream[l]);
	}
	free(st->id);
	free(st->bar);
	free(st->stream);
	strv_free(st->snames, st->nstreams);
	free(st->ctext);
	free(st->clevel);
	free(st->has);
	free(st->cnt);
	free(st->first);
	free(st->sev);
	free(st->new_error);
	free(st->retry);
	free(st->stop);
	free(st->tb);
	free(st->hb);
	free(st->ms);
	free(st->bars);
	free(st->aside);
	free(st->is_bar);
	free(st->counter);
	free(st->weight);
	free(st->step);
	free(st->rule);
	free(st->parent);
	strv_free(st->counted, st->ncounted);
	free(st);
}
