/* cmd_learn.c — `ddx learn NAME GOOD...`: keep good runs as a baseline;
 * `ddx check BAD`: compare a log with the best-matching baseline. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "log.h"
#include "mask.h"
#include "logmeta.h"
#include "prefix.h"
#include "store.h"

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

/* What learn keeps of a loaded log, besides its content; strings in a. */
static void describe(struct run *r, const struct log *lg, const struct tmpl_table *tt,
		     struct arena *a)
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
	r->engine = logmeta_engine(r->tmpl, r->ntmpl, r->format);
	logmeta_config(lg->in.data, lg->in.size, &r->cfg, &r->ncfg, a);
}

/* A name a shell and a listing show as typed. */
static void check_name(const char *name)
{
	if (!*name || name[0] == '-' || strlen(name) > 200)
		die("invalid baseline name '%s'", name);
	for (const char *p = name; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			die("invalid baseline name (control characters)");
}

static struct store *open_store(const char *opt, int mode)
{
	char *path = store_path(opt);
	int missing;
	struct store *st = store_open(path, mode, &missing);
	if (missing)
		error("no baselines yet in '%s' (see 'ddx help learn')", path);
	free(path);
	return st;
}

int cmd_learn(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "store", required_argument, NULL, 's' },
		{ "jobs", required_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	const char *store_opt = NULL;
	int jobs = default_jobs(), c;
	while ((c = getopt_long(argc, argv, "j:", opts, NULL)) != -1) {
		switch (c) {
		case 's': store_opt = optarg; break;
		case 'j': jobs = parse_jobs(optarg); break;
		default: return EXIT_TROUBLE;
		}
	}
	if (argc - optind < 2) {
		print_command_help(find_command("learn"));
		return EXIT_TROUBLE;
	}
	const char *name = argv[optind++];
	check_name(name);
	size_t n = (size_t)(argc - optind);
	/* Read and compress everything before opening the store: the write
	 * transaction then holds the lock only for the inserts. */
	struct run *runs = xcalloc(n, sizeof(*runs));
	struct tmpl_table *tts = xcalloc(n, sizeof(*tts));
	struct arena a = { 0 };
	int rc = EXIT_SAME;
	for (size_t i = 0; i < n && rc == EXIT_SAME; i++) {
		struct log lg;
		tmpl_init(&tts[i]);
		if (log_load(&lg, argv[optind + i], 0, LOG_FULL, jobs, &tts[i]) < 0) {
			rc = EXIT_TROUBLE;
			break;
		}
		describe(&runs[i], &lg, &tts[i], &a);
		store_compress(&runs[i], lg.in.data, lg.in.size);
		log_free(&lg);
	}
	struct store *st = rc == EXIT_SAME ? open_store(store_opt, STORE_WRITE) : NULL;
	size_t added = 0;
	if (!st || store_learn(st, name, runs, n, &added) < 0)
		rc = EXIT_TROUBLE;
	if (rc == EXIT_SAME) {
		for (size_t i = 0; i < n; i++) {
			put_text(stdout, runs[i].name, strlen(runs[i].name));
			if (runs[i].id)
				printf(": %llu lines, %zu templates, %s\n", (unsigned long long)runs[i].lines,
				       runs[i].ntmpl, runs[i].engine);
			else
				printf(": already in '%s'\n", name);
		}
		struct baseline b;
		if (store_find(st, name, &b, &a) == 1) {
			char sz[16], stored[16];
			human_size(b.size, sz);
			human_size(b.stored, stored);
			printf("baseline '%s': %zu run%s added, %zu run%s (%s, %s stored)\n", name,
			       added, added == 1 ? "" : "s", b.nruns, b.nruns == 1 ? "" : "s", sz, stored);
		}
	}
	store_close(st);
	for (size_t i = 0; i < n; i++) {
		free(runs[i].tmpl);
		free(runs[i].cfg);
		store_run_release(&runs[i]);
		tmpl_free(&tts[i]);
	}
	free(runs);
	free(tts);
	arena_free(&a);
	return rc;
}

/* ------------------------------------------------------------------ */
/* check */

/* A run's content as a file: an anonymous in-memory file with the run's
 * modification time (year-less timestamps take their year from it), so
 * that the pipeline reads it exactly as it read the original.  Returns
 * the fd, whose /proc/self/fd path opens it, or -1. */
static int run_file(struct store *st, const struct run *r)
{
	int fd = memfd_create("ddx-run", MFD_CLOEXEC);
	if (fd < 0)
		return error("cannot make a file for a stored run: %s", strerror(errno));
	struct timespec ts[2] = { { .tv_sec = r->mtime }, { .tv_sec = r->mtime } };
	if (store_run_write(st, r->id, fd) < 0) {
		close(fd);
		return -1;
	}
	futimens(fd, ts);
	return fd;
}

/* bad read from a pipe cannot be read twice: keep what was read as a run
 * of its own, to hand on as a file. */
static int keep_input(const struct input *in)
{
	int fd = memfd_create("ddx-bad", MFD_CLOEXEC);
	if (fd < 0)
		return error("cannot keep '%s': %s", in->path, strerror(errno));
	struct timespec ts[2] = { { .tv_sec = in->mtime }, { .tv_sec = in->mtime } };
	for (size_t off = 0; off < in->size;) {
		ssize_t w = write(fd, in->data + off, in->size - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			error("cannot keep '%s': %s", in->path, strerror(errno));
			close(fd);
			return -1;
		}
		off += (size_t)w;
	}
	futimens(fd, ts);
	return fd;
}

/* Good runs a comparison takes at most (ddx diff's limit). */

/* A baseline as a candidate for a bad log. */
struct cand {
	struct baseline b;
	struct run *runs;
	size_t nruns;
	uint32_t *ids;        /* its templates in the shared table (repeats) */
	size_t nids, capids;
	double known;         /* fraction of bad's templates it has */
	double score;
	int same_engine;
	size_t cfg_common, cfg_same;
};

static void add_ids(struct cand *c, struct tmpl_table *all, const struct run_tmpl *t, size_t n)
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
static int cand_templates(struct store *st, struct cand *c, struct tmpl_table *all, int jobs)
{
	for (size_t i = 0; i < c->nruns; i++) {
		struct run *r = &c->runs[i];
		if (strcmp(r->pipeline, pipeline_id()) == 0) {
			add_ids(c, all, r->tmpl, r->ntmpl);
			continue;
		}
		int fd = run_file(st, r);
		if (fd < 0)
			return -1;
		char path[64];
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		struct tmpl_table tt;
		struct log lg;
		struct run fresh = { 0 };
		tmpl_init(&tt);
		int ok = log_load(&lg, path, 0, LOG_IDS_ONLY, jobs, &tt) == 0;
		close(fd);
		if (ok) {
			templates_of(&fresh, &tt);
			fresh.id = r->id;
			fresh.pipeline = pipeline_id();
			store_refresh(st, &fresh);
			add_ids(c, all, fresh.tmpl, fresh.ntmpl);
			free(fresh.tmpl);
			log_free(&lg);
		}
		tmpl_free(&tt);
		if (!ok)
			return -1;
	}
	return 0;
}

/* Configuration values c shares with bad's. */
static void cand_config(struct cand *c, const struct kv *cfg, size_t ncfg)
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
static void score(struct cand *cs, size_t nc, size_t ntmpl, const uint32_t *bad, size_t nbad,
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
		struct cand *c = &cs[k];
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
	const struct cand *a = x, *b = y;
	if (a->score != b->score)
		return a->score > b->score ? -1 : 1;
	return strcmp(a->b.name, b->b.name);
}

static void print_why(FILE *f, const struct cand *c, const char *engine)
{
	fprintf(f, "%.0f%% of bad's templates known, ", floor(c->known * 100));
	if (c->same_engine)
		fprintf(f, "same engine (%s)", engine);
	else
		fprintf(f, "other engine (%s, bad %s)", c->b.engine, engine);
	if (c->cfg_common)
		fprintf(f, ", %zu of %zu configuration values equal", c->cfg_same, c->cfg_common);
}

/* Load the candidates: every baseline, or the one called name. */
static int load_cands(struct store *st, const char *name, struct cand **out, size_t *n,
		      struct arena *a)
{
	struct baseline *bs;
	size_t nb;
	if (store_list(st, &bs, &nb, a) < 0)
		return -1;
	struct cand *cs = xcalloc(nb ? nb : 1, sizeof(*cs));
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
		k++;
	}
	free(bs);
	*out = cs;
	*n = k;
	return 0;
}

/* The latest runs of c (at most DIFF_MAX_LOGS - 1) as in-memory files,
 * with room for extra more entries after them in bf. */
static int runs_as_files(struct store *st, const struct cand *c, size_t extra,
			 struct baseline_files *bf)
{
	size_t first = c->nruns > DIFF_MAX_LOGS - 1 ? c->nruns - (DIFF_MAX_LOGS - 1) : 0;
	bf->paths = xcalloc(c->nruns - first + extra, sizeof(*bf->paths));
	bf->labels = xcalloc(c->nruns - first + extra, sizeof(*bf->labels));
	for (bf->n = 0; first + bf->n < c->nruns; bf->n++) {
		const struct run *r = &c->runs[first + bf->n];
		int fd = run_file(st, r);
		if (fd < 0)
			return -1;
		struct buf p = { 0 }, l = { 0 };
		buf_printf(&p, "/proc/self/fd/%d", fd);
		const char *base = strrchr(r->name, '/');
		buf_printf(&l, "%s:%s", c->b.name, base ? base + 1 : r->name);
		bf->paths[bf->n] = p.p;
		bf->labels[bf->n] = l.p;
	}
	return 0;
}

int baseline_files(const char *store_opt, const char *name, struct baseline_files *bf)
{
	memset(bf, 0, sizeof(*bf));
	struct store *st = open_store(store_opt, STORE_READ);
	if (!st)
		return -1;
	struct arena a = { 0 };
	struct cand *cs = NULL;
	size_t nc = 0;
	int rc = load_cands(st, name, &cs, &nc, &a);
	if (rc == 0 && nc == 0)
		rc = error("no baseline '%s' (see 'ddx baselines')", name);
	if (rc == 0)
		rc = runs_as_files(st, &cs[0], 0, bf);
	for (size_t k = 0; k < nc; k++)
		store_runs_free(cs[k].runs, cs[k].nruns);
	free(cs);
	arena_free(&a);
	store_close(st);
	return rc;
}

void baseline_files_free(struct baseline_files *bf)
{
	for (size_t i = 0; i < bf->n; i++) {
		if (bf->paths[i] && strncmp(bf->paths[i], "/proc/self/fd/", 14) == 0)
			close(atoi(bf->paths[i] + 14));
		free(bf->paths[i]);
		free(bf->labels[i]);
	}
	free(bf->paths);
	free(bf->labels);
	memset(bf, 0, sizeof(*bf));
}

int cmd_check(int argc, char **argv)
{
	static const struct option opts[] = {
		DIFF_OPTIONS,
		{ "store", required_argument, NULL, 'S' },
		{ "baseline", required_argument, NULL, 'b' },
		{ "jobs", required_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	const char *store_opt = NULL, *name = NULL;
	struct diff_args da;
	diff_args_init(&da);
	int jobs = da.jobs, c;
	while ((c = getopt_long(argc, argv, "b:j:", opts, NULL)) != -1) {
		switch (c) {
		case 'S': store_opt = optarg; break;
		case 'b': name = optarg; break;
		case 'j': jobs = da.jobs = parse_jobs(optarg); break;
		default:
			if (diff_option(c, optarg, &da) <= 0) {
				free(da.rules);
				return EXIT_TROUBLE;
			}
		}
	}
	if (argc - optind != 1) {
		free(da.rules);
		print_command_help(find_command("check"));
		return EXIT_TROUBLE;
	}
	const char *badpath = argv[optind];
	struct store *st = open_store(store_opt, STORE_READ);
	if (!st)
		return EXIT_TROUBLE;
	struct arena a = { 0 };
	struct tmpl_table all, badtt;
	tmpl_init(&all);
	tmpl_init(&badtt);
	struct cand *cs = NULL;
	size_t nc = 0;
	struct log bad = { 0 };
	struct run badrun = { 0 };
	uint32_t *badids = NULL;
	char **paths = NULL, **labels = NULL;
	size_t npaths = 0;
	struct baseline_files bf = { 0 };
	int rc = EXIT_TROUBLE;
	if (load_cands(st, name, &cs, &nc, &a) < 0)
		goto out;
	if (nc == 0) {
		if (name)
			error("no baseline '%s' (see 'ddx baselines')", name);
		else
			error("no baselines yet (see 'ddx help learn')");
		goto out;
	}
	if (log_load(&bad, badpath, 0, LOG_IDS_ONLY, jobs, &badtt) < 0)
		goto out;
	templates_of(&badrun, &badtt);
	const char *engine = logmeta_engine(badrun.tmpl, badrun.ntmpl, prefix_format_name(bad.format));
	logmeta_config(bad.in.data, bad.in.size, &badrun.cfg, &badrun.ncfg, &a);
	badids = xmalloc((badtt.n ? badtt.n : 1) * sizeof(*badids));
	for (size_t i = 0; i < badtt.n; i++)
		badids[i] = tmpl_intern(&all, badtt.t[i].text, badtt.t[i].len, badtt.t[i].level,
					badtt.t[i].hash);
	for (size_t k = 0; k < nc; k++) {
		if (cand_templates(st, &cs[k], &all, jobs) < 0)
			goto out;
		cand_config(&cs[k], badrun.cfg, badrun.ncfg);
	}
	score(cs, nc, all.n, badids, badtt.n, engine);
	qsort(cs, nc, sizeof(*cs), by_score);
	const struct cand *pick = &cs[0];
	/* Which baseline and why: on stdout before the report, or on stderr
	 * when stdout is to hold nothing but JSON. */
	FILE *why = da.json ? stderr : stdout;
	fprintf(why, "baseline '%s' (%zu run%s)%s: ", pick->b.name, pick->nruns, pick->nruns == 1 ? "" : "s",
	       name ? ", as asked" : "");
	print_why(why, pick, engine);
	fputc('\n', why);
	for (size_t k = 1; k < nc && k < 4; k++) {
		fprintf(why, "  then '%s': ", cs[k].b.name);
		print_why(why, &cs[k], engine);
		fputc('\n', why);
	}
	/* The good runs as files, then bad: what `ddx diff` takes. */
	if (pick->nruns > DIFF_MAX_LOGS - 1)
		fprintf(why, "  (compared with its %d latest runs of %zu)\n", DIFF_MAX_LOGS - 1, pick->nruns);
	if (runs_as_files(st, pick, 1, &bf) < 0)
		goto out;
	npaths = bf.n + 1;
	paths = bf.paths;
	labels = bf.labels;
	labels[npaths - 1] = xstrdup(badpath);
	struct stat sb;
	int again = strcmp(badpath, "-") == 0 ? fstat(STDIN_FILENO, &sb) == 0 : stat(badpath, &sb) == 0;
	if (!again || !S_ISREG(sb.st_mode)) {
		int fd = keep_input(&bad.in);
		if (fd < 0)
			goto out;
		struct buf p = { 0 };
		buf_printf(&p, "/proc/self/fd/%d", fd);
		paths[npaths - 1] = p.p;
	} else {
		paths[npaths - 1] = xstrdup(badpath);
	}
	log_free(&bad);
	rc = diff_run(paths, labels, npaths, badpath, &da);
out:
	free(da.rules);
	if (npaths)
		bf.n = npaths;   /* bad's path and label go with the runs' */
	baseline_files_free(&bf);
	for (size_t k = 0; k < nc; k++) {
		store_runs_free(cs[k].runs, cs[k].nruns);
		free(cs[k].ids);
	}
	free(cs);
	free(badids);
	free(badrun.tmpl);
	free(badrun.cfg);
	log_free(&bad);
	tmpl_free(&badtt);
	tmpl_free(&all);
	arena_free(&a);
	store_close(st);
	return rc;
}
