/* baseline.c — picking and scoring stored baselines, and reading their
 * runs back as inputs (see baseline.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "logmeta.h"
#include "mask.h"
#include "prefix.h"

/* Lines that exercise prefix and mask the way real logs do.  Their
 * templates, hashed, name the pipeline that made a run's stored
 * templates: when prefix or mask change, stored templates no longer
 * compare with fresh ones, and check recomputes them from the stored
 * content instead of trusting them. */
static const char *const probe[] = {
	"[2026-02-23 00:36:54 TP3] Load weight end. type=Qwen2ForCausalLM, avail mem=61.20 GB, mem usage=15.31 GB.",
	"[2026-02-23 00:36:56 TP0] KV Cache is allocated. #tokens: 491520, K size: 27.12 GB, V size: 27.12 GB",
	"INFO 02-23 00:36:54 [gpu_model_runner.py:1234] Model loading took 14.9 GiB and 41.2 seconds",
	"(VllmWorker rank=2 pid=4711) WARNING 02-23 00:37:01 [custom_all_reduce.py:136] Custom allreduce is disabled",
	"INFO:     127.0.0.1:53422 - \"POST /generate HTTP/1.1\" 200 OK",
	"Traceback (most recent call last):",
	"  File \"/usr/lib/python3/dist-packages/sglang/srt/managers/scheduler.py\", line 2381, in run_scheduler_process",
	"RuntimeError: CUDA error: out of memory at 0x7f3a2c001000 after 12.5s (rank 3, 10.0.0.12:29500)",
	"2026-02-23T00:36:54.123Z step 1200/5000 loss=0.4312 lr=3e-4 80% done",
};

/* The fingerprint of the pipeline (16 hex digits, static storage). */
static const char *pipeline_id(void)
{
	static char id[17];
	if (id[0])
		return id;
	size_t n = sizeof(probe) / sizeof(probe[0]);
	size_t lens[sizeof(probe) / sizeof(probe[0])];
	for (size_t i = 0; i < n; i++)
		lens[i] = strlen(probe[i]);
	int fmt = prefix_detect(probe, lens, n, NULL);
	struct masked m = { 0 };
	uint64_t h = (uint64_t)fmt;
	for (size_t i = 0; i < n; i++) {
		struct header hd;
		prefix_parse(fmt, probe[i], lens[i], &hd);
		mask_message(probe[i] + hd.msg_off, lens[i] - hd.msg_off, &m);
		h = h * 31 + tmpl_hash(m.text.p, m.text.len, hd.level);
		h ^= (uint64_t)hd.ts_ms * 17 + hd.tag_len;
	}
	masked_free(&m);
	snprintf(id, sizeof(id), "%016llx", (unsigned long long)h);
	return id;
}

/* Fill r's templates from tt, one per interned template; the texts stay
 * in tt. */
static void templates_of(struct run *r, const struct tmpl_table *tt)
{
	r->ntmpl = tt->n;
	r->tmpl = xcalloc(tt->n ? tt->n : 1, sizeof(*r->tmpl));
	for (size_t i = 0; i < tt->n; i++)
		r->tmpl[i] = (struct run_tmpl){ .text = tt->t[i].text, .len = tt->t[i].len,
						.level = tt->t[i].level, .count = tt->t[i].count,
						.first_line = tt->t[i].first_line };
}

void baseline_describe(struct run *r, const struct log *lg, const struct tmpl_table *tt,
		       const struct ruleset *rs, struct arena *a)
{
	r->name = arena_strndup(a, lg->in.path, strlen(lg->in.path));
	r->lines = lg->nlines;
	r->first_ts = r->last_ts = TS_NONE;
	for (size_t i = 0; i < lg->nlines && r->first_ts == TS_NONE; i++)
		r->first_ts = lg->ts[i];
	for (size_t i = lg->nlines; i > 0 && r->last_ts == TS_NONE; i--)
		r->last_ts = lg->ts[i - 1];
	r->mtime = lg->in.mtime;
	r->format = prefix_format_name(lg->format);
	r->pipeline = pipeline_id();
	templates_of(r, tt);
	r->engine = logmeta_engine(rs, r->tmpl, r->ntmpl, r->format);
	logmeta_config(rs, r->engine, lg->in.data, lg->in.size, &r->cfg, &r->ncfg, a);
}

struct store *baseline_store(const char *opt, int mode)
{
	char *path = store_path(opt);
	int missing;
	struct store *st = store_open(path, mode, &missing);
	if (missing) {
		char *shown = store_shown(path);
		error("no baselines yet in '%s' (see 'ddx help learn')", shown);
		free(shown);
	}
	free(path);
	return st;
}

/* A run's content as an input named label, with the run's modification
 * time (year-less timestamps take their year from it), so that the
 * pipeline reads it exactly as it read the original. */
static int run_input(struct store *st, const struct run *r, const char *label,
		     struct input *in)
{
	char *data;
	size_t size;
	if (store_run_read(st, r->id, &data, &size) < 0)
		return -1;
	return input_from_memory(in, label, data, size, (time_t)r->mtime);
}

static void add_ids(struct baseline_cand *c, struct tmpl_table *all, const struct run_tmpl *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		GROW(c->ids, c->capids, c->nids + 1);
		c->ids[c->nids++] = tmpl_intern(all, t[i].text, t[i].len, t[i].level,
						tmpl_hash(t[i].text, t[i].len, t[i].level));
	}
}

/* Intern the templates of c's runs into all: the stored ones, or, for a
 * run stored by a ddx whose pipeline differs, ones made afresh from its
 * content, which replace the stored ones (so that this happens once; a
 * failure to store them only costs time and is not fatal). */
static int cand_templates(struct store *st, struct baseline_cand *c, struct tmpl_table *all,
			  int jobs)
{
	for (size_t i = 0; i < c->nruns; i++) {
		struct run *r = &c->runs[i];
		if (strcmp(r->pipeline, pipeline_id()) == 0) {
			add_ids(c, all, r->tmpl, r->ntmpl);
			continue;
		}
		struct input in;
		if (run_input(st, r, r->name, &in) < 0)
			return -1;
		struct tmpl_table tt;
		struct log lg;
		struct run fresh = { 0 };
		tmpl_init(&tt);
		log_load_input(&lg, &in, 0, LOG_IDS_ONLY, jobs, &tt);
		templates_of(&fresh, &tt);
		fresh.id = r->id;
		fresh.pipeline = pipeline_id();
		store_refresh(st, &fresh);
		add_ids(c, all, fresh.tmpl, fresh.ntmpl);
		free(fresh.tmpl);
		log_free(&lg);
		tmpl_free(&tt);
	}
	return 0;
}

/* Configuration values c shares with bad's. */
static void cand_config(struct baseline_cand *c, const struct kv *cfg, size_t ncfg)
{
	const struct run *r = NULL;
	for (size_t i = 0; i < c->nruns && !r; i++)
		if (c->runs[i].ncfg)
			r = &c->runs[i];
	for (size_t i = 0; r && i < ncfg; i++)
		for (size_t k = 0; k < r->ncfg; k++)
			if (strcmp(cfg[i].key, r->cfg[k].key) == 0) {
				c->cfg_common++;
				c->cfg_same += strcmp(cfg[i].value, r->cfg[k].value) == 0;
				break;
			}
}

/* Score every candidate against bad's templates (ids bad[0..nbad), all
 * distinct).  A template counts the more the fewer baselines have it
 * (inverse document frequency): the Python traceback and uvicorn lines
 * every server prints say nothing about which baseline fits.  The score
 * mixes how much of bad a baseline explains (containment: a failing run
 * stops early, so it is a prefix of a good one), how alike the two sets
 * are overall (Jaccard: among baselines that explain bad equally, the
 * one with least else), the engine and the configuration. */
static void score(struct baseline_cand *cs, size_t nc, size_t ntmpl, const uint32_t *bad, size_t nbad,
		  const char *engine)
{
	uint32_t *df = xcalloc(ntmpl ? ntmpl : 1, sizeof(*df));
	uint32_t *stamp = xcalloc(ntmpl ? ntmpl : 1, sizeof(*stamp));
	for (size_t k = 0; k < nc; k++)
		for (size_t i = 0; i < cs[k].nids; i++)
			if (stamp[cs[k].ids[i]] != k + 1) {
				stamp[cs[k].ids[i]] = (uint32_t)k + 1;
				df[cs[k].ids[i]]++;
			}
	double *w = xmalloc((ntmpl ? ntmpl : 1) * sizeof(*w));
	for (size_t t = 0; t < ntmpl; t++)
		w[t] = log(1.0 + (double)nc / (df[t] ? df[t] : 0.5));
	double wbad = 0;
	for (size_t i = 0; i < nbad; i++)
		wbad += w[bad[i]];
	memset(stamp, 0, (ntmpl ? ntmpl : 1) * sizeof(*stamp));
	for (size_t k = 0; k < nc; k++) {
		struct baseline_cand *c = &cs[k];
		double wg = 0, wboth = 0;
		size_t known = 0;
		for (size_t i = 0; i < c->nids; i++)
			if (stamp[c->ids[i]] != k + 1) {
				stamp[c->ids[i]] = (uint32_t)k + 1;
				wg += w[c->ids[i]];
			}
		for (size_t i = 0; i < nbad; i++)
			if (stamp[bad[i]] == k + 1) {
				known++;
				wboth += w[bad[i]];
			}
		double contain = wbad > 0 ? wboth / wbad : 0;
		double jaccard = wbad + wg - wboth > 0 ? wboth / (wbad + wg - wboth) : 0;
		c->known = nbad ? (double)known / (double)nbad : 0;
		c->same_engine = strcmp(c->b.engine, engine) == 0;
		double cfg = c->cfg_common ? (double)c->cfg_same / (double)c->cfg_common : 0;
		c->score = 0.55 * contain + 0.25 * jaccard + 0.1 * c->same_engine + 0.1 * cfg;
	}
	free(df);
	free(stamp);
	free(w);
}

static int by_score(const void *x, const void *y)
{
	const struct baseline_cand *a = x, *b = y;
	if (a->score != b->score)
		return a->score > b->score ? -1 : 1;
	return strcmp(a->b.name, b->b.name);
}

void baseline_print_why(FILE *f, const struct baseline_cand *c, const char *engine)
{
	fprintf(f, "%.0f%% of bad's templates known, ", floor(c->known * 100));
	if (c->same_engine)
		fprintf(f, "same engine (%s)", engine);
	else {
		fputs("other engine (", f);
		put_text(f, c->b.engine, strlen(c->b.engine));
		fprintf(f, ", bad %s)", engine);
	}
	if (c->cfg_common)
		fprintf(f, ", %zu of %zu configuration values equal", c->cfg_same, c->cfg_common);
}

/* Load the candidates: every baseline, or the one called name. */
static int load_cands(struct store *st, const char *name, struct baseline_cand **out, size_t *n,
		      struct arena *a)
{
	struct baseline *bs;
	size_t nb;
	if (store_list(st, &bs, &nb, a) < 0)
		return -1;
	struct baseline_cand *cs = xcalloc(nb ? nb : 1, sizeof(*cs));
	size_t k = 0;
	for (size_t i = 0; i < nb; i++) {
		if (name && strcmp(bs[i].name, name) != 0)
			continue;
		cs[k].b = bs[i];
		if (store_runs(st, bs[i].id, 1, &cs[k].runs, &cs[k].nruns, a) < 0) {
			free(bs);
			*out = cs;
			*n = k;
			return -1;
		}
		/* A baseline without runs (imported so) has nothing to compare. */
		if (cs[k].nruns)
			k++;
		else
			store_runs_free(cs[k].runs, 0);
	}
	free(bs);
	*out = cs;
	*n = k;
	return 0;
}


void baseline_cands_free(struct baseline_cand *cs, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		store_runs_free(cs[k].runs, cs[k].nruns);
		free(cs[k].ids);
	}
	free(cs);
}

int baseline_rank(struct store *st, const char *name, const char *path, int jobs, unsigned flags,
		  const struct ruleset *rs, struct log *bad, const char **engine,
		  struct baseline_cand **cs, size_t *n, struct arena *a)
{
	memset(bad, 0, sizeof(*bad));
	if (load_cands(st, name, cs, n, a) < 0)
		return -1;
	if (*n == 0)
		return 0;
	struct tmpl_table all, badtt;
	tmpl_init(&all);
	tmpl_init(&badtt);
	struct run badrun = { 0 };
	uint32_t *badids = NULL;
	int rc = -1;
	if (log_load(bad, path, 0, LOG_IDS_ONLY | flags, jobs, &badtt) < 0)
		goto out;
	templates_of(&badrun, &badtt);
	*engine = logmeta_engine(rs, badrun.tmpl, badrun.ntmpl, prefix_format_name(bad->format));
	logmeta_config(rs, *engine, bad->in.data, bad->in.size, &badrun.cfg, &badrun.ncfg, a);
	badids = xmalloc((badtt.n ? badtt.n : 1) * sizeof(*badids));
	for (size_t i = 0; i < badtt.n; i++)
		badids[i] = tmpl_intern(&all, badtt.t[i].text, badtt.t[i].len, badtt.t[i].level,
					badtt.t[i].hash);
	for (size_t k = 0; k < *n; k++) {
		if (cand_templates(st, &(*cs)[k], &all, jobs) < 0)
			goto out;
		cand_config(&(*cs)[k], badrun.cfg, badrun.ncfg);
	}
	score(*cs, *n, all.n, badids, badtt.n, *engine);
	qsort(*cs, *n, sizeof(**cs), by_score);
	rc = 0;
out:
	free(badids);
	free(badrun.tmpl);
	free(badrun.cfg);
	tmpl_free(&badtt);
	tmpl_free(&all);
	return rc;
}

int baseline_open_runs(struct store *st, const struct baseline_cand *c, size_t max,
		       size_t extra, struct input **ins, size_t *n)
{
	size_t first = c->nruns > max ? c->nruns - max : 0;
	*ins = xcalloc(c->nruns - first + extra, sizeof(**ins));
	for (*n = 0; first + *n < c->nruns; ++*n) {
		const struct run *r = &c->runs[first + *n];
		struct buf label = { 0 };
		const char *base = strrchr(r->name, '/');
		buf_printf(&label, "%s:%s", c->b.name, base ? base + 1 : r->name);
		int ok = run_input(st, r, label.p, &(*ins)[*n]) == 0;
		buf_free(&label);
		if (!ok) {
			while (*n > 0)
				input_close(&(*ins)[--*n]);
			free(*ins);
			*ins = NULL;
			return -1;
		}
	}
	return 0;
}

int baseline_open(const char *store_opt, const char *name, size_t max, struct input **ins,
		  size_t *n)
{
	*ins = NULL;
	*n = 0;
	struct store *st = baseline_store(store_opt, STORE_READ);
	if (!st)
		return -1;
	struct arena a = { 0 };
	struct baseline_cand *cs = NULL;
	size_t nc = 0;
	int rc = load_cands(st, name, &cs, &nc, &a);
	if (rc == 0 && nc == 0)
		rc = error("no baseline '%s' (see 'ddx baselines')", name);
	if (rc == 0)
		rc = baseline_open_runs(st, &cs[0], max, 0, ins, n);
	baseline_cands_free(cs, nc);
	arena_free(&a);
	store_close(st);
	return rc;
}
