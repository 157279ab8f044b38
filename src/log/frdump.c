/* frdump.c — one rank's collectives from its Flight Recorder dump
 * (frdump.h): the dump's value tree, then its pg_status and entries. */
#include "frdump.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* s[0, n)'s characters of a name (letters, digits, '_', and those in
 * more) into out[0, cap), NUL-terminated; its length.  Names are quoted
 * in reports, and a crafted dump must not put controls there. */
static size_t name_chars(const char *s, size_t n, const char *more, char *out, size_t cap)
{
	size_t k = 0;
	for (size_t j = 0; j < n && k + 1 < cap; j++)
		if ((s[j] >= 'a' && s[j] <= 'z') || (s[j] >= 'A' && s[j] <= 'Z') || (s[j] >= '0' && s[j] <= '9') ||
		    s[j] == '_' || (s[j] && strchr(more, s[j])))
			out[k++] = s[j];
	out[k] = '\0';
	return k;
}

/* An entry's op as torch's analyser names it: its profiling_name without
 * the backend's prefix ("nccl:all_reduce" is all_reduce). */
static void op_name(const struct dv *e, char *out)
{
	const struct dv *v = dv_get(e, "profiling_name");
	out[0] = '\0';
	if (!v || v->kind != DV_STR)
		return;
	const char *s = v->s;
	size_t n = v->n;
	const char *colon = memchr(s, ':', n);
	if (colon) {
		n -= (size_t)(colon + 1 - s);
		s = colon + 1;
	}
	name_chars(s, n, "", out, FR_OP_MAX);
}

static int64_t field(const struct dv *e, const char *key)
{
	int64_t x;
	return dv_int(dv_get(e, key), &x) == 0 ? x : -1;
}

/* The elements entry e took in: the sum over its input tensors
 * (input_sizes, a list of shapes) of their dimensions' product, or -1
 * when the dump does not say or a crafted one overflows. */
static int64_t numel(const struct dv *e)
{
	const struct dv *sizes = dv_get(e, "input_sizes");
	if (!sizes || sizes->kind != DV_LIST)
		return -1;
	int64_t total = 0;
	for (size_t t = 0; t < sizes->n; t++) {
		const struct dv *shape = sizes->items[t];
		if (!shape || shape->kind != DV_LIST)
			return -1;
		int64_t prod = 1, dim;
		for (size_t k = 0; k < shape->n; k++) {
			if (dv_int(shape->items[k], &dim) < 0 || dim < 0 ||
			    (dim && prod > ((int64_t)1 << 56) / dim))
				return -1;
			prod *= dim;
		}
		if (total > ((int64_t)1 << 56) - prod)
			return -1;
		total += prod;
	}
	return total;
}

/* Whether entry e is a collective of its group's sequence: point-to-point
 * sends and receives count their own (p2p_seq_id). */
static int is_collective(const struct dv *e)
{
	const struct dv *p2p = dv_get(e, "is_p2p");
	return field(e, "collective_seq_id") >= 0 && !(p2p && p2p->kind == DV_BOOL && p2p->i);
}

/* A group with nothing known. */
static void group_init(struct fr_group *g)
{
	memset(g, 0, sizeof(*g));
	g->id = g->enqueued = g->completed = g->pending = g->pending_ns = -1;
	g->enq_numel = g->done_numel = g->pending_numel = -1;
	g->pending_started = -1;
}

/* The group of entry e in fr->groups, by its name (process_group's first
 * field, its name_chars and '-', else its pg_id), added when add is set
 * and it is new; NULL past FR_GROUPS_MAX. */
static struct fr_group *group_of(struct frdump *fr, const struct dv *e, int add)
{
	const struct dv *pg = dv_get(e, "process_group");
	char name[FR_NAME_MAX];
	size_t k = 0;
	if (pg && pg->kind == DV_LIST && pg->n && pg->items[0]->kind == DV_STR) {
		k = name_chars(pg->items[0]->s, pg->items[0]->n, "-", name, sizeof(name));
	} else {
		k = (size_t)snprintf(name, sizeof(name), "%lld", (long long)field(e, "pg_id"));
	}
	for (size_t g = 0; g < fr->ngroups; g++)
		if (strcmp(fr->groups[g].name, name) == 0)
			return &fr->groups[g];
	if (!add || fr->ngroups == FR_GROUPS_MAX)
		return NULL;
	struct fr_group *g = &fr->groups[fr->ngroups++];
	group_init(g);
	memcpy(g->name, name, k + 1);
	g->id = field(e, "pg_id");
	return g;
}

/* Fill fr->groups from the entries (newest last): each group's last
 * enqueued and completed collectives, and the first not completed.
 * pg_status (by this rank's pg_id), where the dump has it, says the
 * numbers even when the ring dropped the entries; entries say the ops.
 * fr->latest: the group of the latest entry (added first, so kept,
 * even when that entry is a send or receive). */
static void read_groups(const struct dv *root, struct frdump *fr)
{
	const struct dv *entries = dv_get(root, "entries");
	size_t n = entries && entries->kind == DV_LIST ? entries->n : 0;
	const struct fr_group *latest = n ? group_of(fr, entries->items[n - 1], 1) : NULL;
	for (size_t k = 0; k < n; k++) {
		const struct dv *e = entries->items[k];
		struct fr_group *g = is_collective(e) ? group_of(fr, e, 1) : NULL;
		int64_t seq = field(e, "collective_seq_id");
		if (!g)
			continue;
		if (seq >= g->enqueued) {
			g->enqueued = seq;
			op_name(e, g->enq_op);
			g->enq_numel = numel(e);
		}
		if (dv_is(dv_get(e, "state"), "completed") && seq >= g->completed) {
			g->completed = seq;
			op_name(e, g->done_op);
			g->done_numel = numel(e);
		}
	}
	for (size_t x = 0; x < fr->ngroups; x++) {
		struct fr_group *g = &fr->groups[x];
		char key[24];
		snprintf(key, sizeof(key), "%lld", (long long)g->id);
		const struct dv *st = dv_get(dv_get(root, "pg_status"), key);
		int64_t enq = field(st, "last_enqueued_collective"), done = field(st, "last_completed_collective");
		if (enq >= 0 && enq != g->enqueued) {
			g->enqueued = enq;
			g->enq_op[0] = '\0';
			g->enq_numel = -1;
		}
		if (done >= 0 && done != g->completed) {
			g->completed = done;
			g->done_op[0] = '\0';
			g->done_numel = -1;
		}
	}
	for (size_t k = 0; k < n; k++) {
		const struct dv *e = entries->items[k];
		struct fr_group *g = is_collective(e) ? group_of(fr, e, 0) : NULL;
		int64_t seq = field(e, "collective_seq_id");
		if (g && seq > g->completed && (g->pending < 0 || seq < g->pending)) {
			g->pending = seq;
			op_name(e, g->pending_op);
			g->pending_numel = numel(e);
			g->pending_ns = field(e, "time_created_ns");
			const struct dv *state = dv_get(e, "state");
			g->pending_started = dv_is(state, "started") ? 1 : dv_is(state, "scheduled") ? 0 : -1;
		}
	}
	if (latest)
		fr->latest = *latest;
}

int frdump_parse(const unsigned char *p, size_t n, struct frdump *fr, char *why, size_t cap)
{
	group_init(&fr->latest);
	fr->ngroups = 0;
	size_t i = 0;
	while (i < n && strchr(" \t\r\n", p[i]) && p[i])
		i++;
	struct dv_doc doc = { 0 };
	int rc;
	if (n && p[0] == 0x80)
		rc = dv_read_pickle(&doc, p, n, why, cap);
	else if (i < n && p[i] == '{')
		rc = dv_read_json(&doc, p, n, why, cap);
	else {
		snprintf(why, cap, "neither a pickle nor JSON");
		rc = -1;
	}
	if (rc == 0 && (doc.root->kind != DV_DICT || !dv_get(doc.root, "entries"))) {
		snprintf(why, cap, "no Flight Recorder trace (no 'entries')");
		rc = -1;
	}
	if (rc == 0)
		read_groups(doc.root, fr);
	dv_free(&doc);
	return rc;
}

int frdump_rank_of(const char *name)
{
	const char *r = NULL;
	for (const char *s = strstr(name, "rank"); s; s = strstr(s + 1, "rank"))
		r = s + 4;
	if (!r)
		return -1;
	if (*r == '_')
		r++;
	long x = 0;
	const char *d = r;
	while (*d >= '0' && *d <= '9' && x < 1000000)
		x = x * 10 + (*d++ - '0');
	if (d == r || x >= 1000000 || (*d && strcmp(d, ".json") != 0 && strcmp(d, ".pickle") != 0))
		return -1;
	return (int)x;
}

/* Read one dump file into *fr, at most FR_MAX_SIZE bytes. */
static int read_one(const char *path, int rank, struct frdump *fr)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat sb;
	if (fd < 0 || fstat(fd, &sb) < 0) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		return error("cannot read dump '%s': %s", path, strerror(e));
	}
	if (!S_ISREG(sb.st_mode) || (size_t)sb.st_size > FR_MAX_SIZE) {
		close(fd);
		return error("cannot read dump '%s': %s", path,
			     S_ISREG(sb.st_mode) ? "larger than 256 MiB" : "not a regular file");
	}
	size_t n = (size_t)sb.st_size, got = 0;
	unsigned char *p = xmalloc(n ? n : 1);
	while (got < n) {
		ssize_t r = read(fd, p + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	char why[200];
	fr->path = xstrdup(path);
	fr->rank = rank;
	int rc = frdump_parse(p, got, fr, why, sizeof(why));
	free(p);
	return rc < 0 ? error("cannot read dump '%s': %s", path, why) : 0;
}

static int by_rank(const void *a, const void *b)
{
	const struct frdump *x = a, *y = b;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

int frdump_dir(const char *dir, struct frdump **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	DIR *dh = opendir(dir);
	if (!dh)
		return error("cannot read dumps in '%s': %s", dir, strerror(errno));
	size_t cap = 0;
	int rc = 0;
	struct dirent *de;
	while (rc == 0 && (de = readdir(dh))) {
		int rank = frdump_rank_of(de->d_name);
		if (rank < 0)
			continue;
		if (*n == FR_MAX_DUMPS) {
			rc = error("cannot read dumps in '%s': more than %d", dir, FR_MAX_DUMPS);
			break;
		}
		GROW(*out, cap, *n + 1);
		char *path = xasprintf("%s/%s", dir, de->d_name);
		memset(&(*out)[*n], 0, sizeof(**out));
		rc = read_one(path, rank, &(*out)[*n]);
		free(path);
		(*n)++;
	}
	closedir(dh);
	if (rc < 0) {
		frdump_free(*out, *n);
		*out = NULL;
		*n = 0;
		return -1;
	}
	if (*n)
		qsort(*out, *n, sizeof(**out), by_rank);
	return 0;
}

void frdump_free(struct frdump *fr, size_t n)
{
	for (size_t k = 0; k < n; k++)
		free(fr[k].path);
	free(fr);
}
