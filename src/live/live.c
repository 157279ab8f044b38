/* live.c — the live processes behind a log, put together from /proc
 * (proc.c), NVML (nvml.c) and py-spy (pyspy.c): the process tree,
 * the CPU sample and the verdict.  See live.h. */
#include "live.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "input.h"
#include "logmeta.h"
#include "nvml.h"
#include "pyspy.h"
#include "source.h"
#include "util.h"

/* The most ranks whose pids a log's lines are read for. */
#define LIVE_MAX_RANKS 1024

/* The inspection under way: the options and the /proc reading. */
struct live_ctx {
	const struct live_opts *o;
	struct proc_scan ps;
	int via_holder;   /* the log is read through a holder's fd: its name
			   * is gone, or names another file (o->ident_ino) */
	struct logmeta_pid_rank ranks[LIVE_MAX_RANKS];  /* the log's pid-to-rank lines */
	size_t nranks;
};

static double mtime_of(const struct stat *st)
{
	return (double)st->st_mtim.tv_sec + st->st_mtim.tv_nsec / 1e9;
}

int live_parse_interval(const char *s)
{
	double v = parse_duration(s);
	return v < 0 || v > 3600 ? -1 : (int)(v * 1000 + 0.5);
}

/* Total the GPU memory NVML sees per inspected process, its highest
 * utilisation of any GPU, and every GPU's. */
static void read_gpu(struct live_report *r)
{
	struct nvml_use *use;
	size_t n;
	const char *why = nvml_read(&use, &n, &r->gpus, &r->ngpus);
	if (why)
		strv_push(&r->notes, &r->nnotes, xstrdup(why));
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < r->nprocs; k++) {
			struct proc_info *p = &r->procs[k];
			if (p->pid != use[i].pid)
				continue;
			if (use[i].mib >= 0)
				p->gpu_mem_mib = (p->gpu_mem_mib < 0 ? 0 : p->gpu_mem_mib) + use[i].mib;
			if (use[i].util_pct > p->gpu_util_pct)
				p->gpu_util_pct = use[i].util_pct;
		}
	free(use);
}

static void read_stacks(const struct live_opts *o, struct live_report *r)
{
	char *exe = pyspy_find();
	if (!exe) {
		strv_push(&r->notes, &r->nnotes, xstrdup("stacks: py-spy not found on PATH"));
		return;
	}
	int timeout = o->stack_timeout_ms > 0 ? o->stack_timeout_ms : 5000;
	for (size_t i = 0; i < r->nprocs; i++) {
		struct proc_info *p = &r->procs[i];
		if (p->gone || p->state == 'Z')
			continue;
		char *out;
		int rc = pyspy_dump(exe, p->pid, timeout, o->native_stacks, &out);
		if (rc == 0) {
			p->stack = out;
			continue;
		}
		size_t n = strcspn(out, "\n");
		if (rc < 0 && !*out)
			strv_push(&p->unreadable, &p->nunreadable,
				 xasprintf("stack: py-spy gave no answer within %d ms", timeout));
		else
			strv_push(&p->unreadable, &p->nunreadable,
				 xasprintf("stack: py-spy: %.*s", (int)(n > 160 ? 160 : n), out));
		free(out);
	}
	free(exe);
}

/* ---- putting it together ---- */

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return x < y ? -1 : x > y;
}

static int in_set(const int *set, size_t n, int pid)
{
	for (size_t i = 0; i < n; i++)
		if (set[i] == pid)
			return 1;
	return 0;
}

/* Emit the processes of set whose parent is ppid (or, at depth 0, whose
 * parent is not in the set), in pid order, each followed by its
 * descendants. */
static void order_tree(const struct live_ctx *c, const int *set, size_t n, int ppid, int depth,
		       int *out, size_t *nout, int *depths)
{
	for (size_t i = 0; i < n; i++) {
		int pp = proc_ppid(&c->ps, set[i]);
		int root = !in_set(set, n, pp);
		if (depth == 0 ? !root : pp != ppid)
			continue;
		if (in_set(out, *nout, set[i]))
			continue;
		depths[*nout] = depth;
		out[(*nout)++] = set[i];
		order_tree(c, set, n, set[i], depth + 1, out, nout, depths);
	}
}

/* A process counts as making progress when it used at least 5% of one
 * CPU over the sample (and at least 20 ms): a Python process whose
 * threads are all blocked still gets the odd clock tick. */
int live_cpu_moving(const struct proc_info *p, double sample_s)
{
	double min = 0.05 * sample_s;
	return !isnan(p->cpu_s_delta) && p->cpu_s_delta >= (min < 0.02 ? 0.02 : min);
}

/* A quarter of a CPU: a spinning thread takes a whole one, but on a
 * loaded machine it gets its share only, which can be less.  So a thread
 * that was runnable (on a CPU or waiting for one) nine tenths of the
 * sample spins too, whatever share it got: it never blocked. */
int live_thread_hot(const struct proc_thread *t, double sample_s)
{
	if (sample_s <= 0 || isnan(t->cpu_s_delta))
		return 0;
	return t->cpu_s_delta >= 0.25 * sample_s ||
	       (!isnan(t->runnable_s_delta) && t->runnable_s_delta >= 0.9 * sample_s);
}

/* Whether p's I/O moved over the sample: more than 4 KiB per second read
 * or written through any file, pipe or socket.  A thread that checks a
 * status file now and then is no output; a spinning rank does none at
 * all.  Unknown (another user's process) counts as still. */
static int io_moving(const struct proc_info *p, double sample_s)
{
	return p->io_delta >= 0 && (double)p->io_delta > 4096.0 * (sample_s > 1 ? sample_s : 1);
}

/* Whether p sleeps on purpose (a timer), rather than waits for something. */
static int sleeping(const struct proc_info *p)
{
	static const char *const calls[] = { "nanosleep", "clock_nanosleep", "pause" };
	for (size_t i = 0; p->syscall && i < sizeof(calls) / sizeof(calls[0]); i++)
		if (strcmp(p->syscall, calls[i]) == 0)
			return 1;
	return 0;
}

/* What a blocked process waits in: its syscall, else its wchan. */
static const char *blocked_in(const struct proc_info *p)
{
	return p->syscall && strcmp(p->syscall, "none") != 0 ? p->syscall :
	       p->wchan && *p->wchan ? p->wchan : "unreadable";
}

void live_activity(const struct proc_info *p, double sample_s, char *out, size_t cap)
{
	if (p->kernel_thread) {
		snprintf(out, cap, "is a kernel thread");
	} else if (isnan(p->cpu_s_delta)) {
		snprintf(out, cap, "was not sampled");
	} else if (live_cpu_moving(p, sample_s)) {
		size_t hot = 0;
		double pct = 0;
		for (size_t i = 0; i < p->nthr; i++)
			if (live_thread_hot(&p->thr[i], sample_s)) {
				hot++;
				pct += 100.0 * p->thr[i].cpu_s_delta / sample_s;
			}
		double all = 100.0 * p->cpu_s_delta / sample_s;
		/* A GPU kept busy while nothing comes out is a kernel
		 * spinning too, often on the same absent peer. */
		char gpu[32] = "";
		if (p->gpu_util_pct >= 50)
			snprintf(gpu, sizeof(gpu), ", GPU %d%%", p->gpu_util_pct);
		if (io_moving(p, sample_s))
			snprintf(out, cap, "works (%.0f%% CPU, I/O moving%s)", all, gpu);
		else if (hot)
			snprintf(out, cap, "spins (%zu thread%s at %.0f%% CPU%s)", hot, hot == 1 ? "" : "s", pct, gpu);
		else
			snprintf(out, cap, "uses %.0f%% CPU%s", all, gpu);
	} else if (sleeping(p)) {
		snprintf(out, cap, "sleeps");
	} else if (p->syscall_arg && strstr(p->syscall_arg, ": pipe") && strncmp(p->syscall_arg, "fd ", 3) == 0) {
		snprintf(out, cap, "waits on a pipe");
	} else {
		snprintf(out, cap, "blocked in %s", blocked_in(p));
	}
}

/* The activity without its numbers: what peers are compared by. */
static void activity_kind(const struct proc_info *p, double sample_s, char *out, size_t cap)
{
	live_activity(p, sample_s, out, cap);
	char *paren = strstr(out, " (");
	if (paren)
		*paren = '\0';
	if (strncmp(out, "uses ", 5) == 0)
		snprintf(out, cap, "use CPU");
}

/* An activity kind said of several: "spin", "are blocked in futex". */
static void plural_kind(const char *kind, char *out, size_t cap)
{
	static const struct {
		const char *one, *many;
	} verbs[] = { { "spins", "spin" }, { "sleeps", "sleep" }, { "works", "work" },
		      { "waits", "wait" }, { "blocked", "are blocked" } };
	for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++) {
		size_t n = strlen(verbs[i].one);
		if (strncmp(kind, verbs[i].one, n) == 0 && (kind[n] == ' ' || !kind[n])) {
			snprintf(out, cap, "%s%s", verbs[i].many, kind + n);
			return;
		}
	}
	snprintf(out, cap, "%s", kind);
}

/* "rank 3" when its launcher named its rank, else "pid 4711". */
static void who(const struct proc_info *p, char *out, size_t cap)
{
	if (p->rank[0])
		snprintf(out, cap, "rank %s", p->rank);
	else
		snprintf(out, cap, "pid %d", p->pid);
}

static int alive(const struct proc_info *p)
{
	return !p->gone && p->state != 'Z';
}

/* "futex", or "futex 8, wait4 1": what the blocked processes wait in. */
static void blocked_summary(const struct live_report *r, struct buf *b, size_t nblocked)
{
	const char *names[16];
	int counts[16], n = 0;
	for (size_t i = 0; i < r->nprocs; i++) {
		const struct proc_info *p = &r->procs[i];
		if (!alive(p) || p->kernel_thread || live_cpu_moving(p, r->sample_s))
			continue;
		const char *w = blocked_in(p);
		int k;
		for (k = 0; k < n && strcmp(names[k], w) != 0; k++)
			;
		if (k == n) {
			if (n == 16)
				continue;
			names[n] = w;
			counts[n++] = 0;
		}
		counts[k]++;
	}
	if (n == 1) {
		buf_printf(b, "%sblocked in %s", nblocked == 1 ? "" : nblocked == 2 ? "both " : "all ", names[0]);
		return;
	}
	buf_printf(b, "blocked in ");
	for (int k = 0; k < n; k++)
		buf_printf(b, "%s%s %d", k ? ", " : "", names[k], counts[k]);
}

/* ---- the job: its workers, their ranks, the one the others wait for ---- */

/* Two command lines alike up to their numbers: the workers a launcher
 * starts differ only in the fds, ports and ranks they are handed
 * ("spawn_main(tracker_fd=4, pipe_handle=6)" and "... pipe_handle=8",
 * "--local-rank=3") and in the titles they give themselves
 * ("scheduler_TP0"). */
static int same_shape(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			while (isdigit((unsigned char)*a))
				a++;
			while (isdigit((unsigned char)*b))
				b++;
		} else if (*a++ != *b++) {
			return 0;
		}
	}
	return *a == *b;
}

/* A worker that died and stays dead: a zombie through the whole sample,
 * which its parent (the launcher, blocked on another worker) does not
 * reap.  One reaped within the sample is a worker's normal end. */
static int dead(const struct proc_info *p)
{
	return !p->gone && p->state == 'Z' && p->unreaped;
}

/* Whether k is a worker of the job of g (a live worker): a child of g's
 * parent alike in command line (same_shape), or one that died (a zombie
 * keeps its name, not its command line). */
static int same_job(const struct proc_info *g, const struct proc_info *k)
{
	if (k->gone || k->kernel_thread || k->ppid != g->ppid)
		return 0;
	if (dead(k))
		return strcmp(k->comm, g->comm) == 0;
	return alive(k) && g->cmdline && k->cmdline && same_shape(g->cmdline, k->cmdline);
}

/* A live worker of g's job. */
static int live_peer(const struct proc_info *g, const struct proc_info *k)
{
	return alive(k) && same_job(g, k);
}

/* The job's workers: the largest set of at least two processes of one
 * job (same_job), at least one of them alive.  Sets *first to its first
 * live member and returns its size, the dead counted. */
static size_t peer_group(const struct live_report *r, size_t *first)
{
	size_t best = 0;
	for (size_t i = 0; i < r->nprocs; i++) {
		const struct proc_info *g = &r->procs[i];
		if (!alive(g) || g->kernel_thread)
			continue;
		size_t n = 0, before = 0;
		for (size_t k = 0; k < r->nprocs; k++) {
			n += same_job(g, &r->procs[k]);
			before += k < i && live_peer(g, &r->procs[k]);
		}
		if (n >= 2 && !before && n > best) {
			best = n;
			*first = i;
		}
	}
	return best;
}

/* Give each worker of the job at first a rank where its environment gave
 * none: the one the log names its pid with (logmeta_pid_ranks), else --
 * when no worker has a rank either way, and the workers hold GPUs, so
 * are a job's ranks rather than a server's pool -- its place in the
 * order they started, the dead included: launchers start ranks in
 * order (multiprocessing spawn, torchrun's local ranks). */
static void job_ranks(struct live_report *r, size_t first, const struct logmeta_pid_rank *map,
		      size_t nmap)
{
	const struct proc_info *g = &r->procs[first];
	size_t known = 0, gpu = 0;
	for (size_t i = 0; i < r->nprocs; i++) {
		struct proc_info *p = &r->procs[i];
		if (!same_job(g, p))
			continue;
		for (size_t k = 0; k < nmap && !p->rank[0]; k++)
			if (map[k].pid == p->pid) {
				snprintf(p->rank, sizeof(p->rank), "%d", map[k].rank);
				p->rank_from = "log";
			}
		known += p->rank[0] != 0;
		gpu += p->uses_gpu;
	}
	if (known || !gpu)
		return;
	for (size_t i = 0; i < r->nprocs; i++) {
		struct proc_info *p = &r->procs[i];
		if (!same_job(g, p))
			continue;
		int order = 0;
		for (size_t k = 0; k < r->nprocs; k++) {
			const struct proc_info *q = &r->procs[k];
			order += k != i && same_job(g, q) &&
				 (q->starttime < p->starttime || (q->starttime == p->starttime && q->pid < p->pid));
		}
		snprintf(p->rank, sizeof(p->rank), "%d", order);
		p->rank_from = "start order";
	}
}

/* Whether the live peers starting at first do different things. */
static int peers_differ(const struct live_report *r, size_t first)
{
	char k0[48], k[48];
	activity_kind(&r->procs[first], r->sample_s, k0, sizeof(k0));
	for (size_t i = first + 1; i < r->nprocs; i++)
		if (live_peer(&r->procs[first], &r->procs[i])) {
			activity_kind(&r->procs[i], r->sample_s, k, sizeof(k));
			if (strcmp(k, k0) != 0)
				return 1;
		}
	return 0;
}

/* The live peers of the job at first (64 at most): their indexes in
 * r->procs and what each does, without numbers; returns how many. */
static size_t peer_kinds(const struct live_report *r, size_t first, char kinds[64][48], size_t idx[64])
{
	const struct proc_info *g = &r->procs[first];
	size_t m = 0;
	for (size_t k = first; k < r->nprocs && m < 64; k++)
		if (live_peer(g, &r->procs[k])) {
			idx[m] = k;
			activity_kind(&r->procs[k], r->sample_s, kinds[m], sizeof(kinds[m]));
			m++;
		}
	return m;
}

/* Of m texts t[k][0, n[k]), three or more, the one that differs from
 * all the others, which agree: its index, or -1. */
static ssize_t lone_differ(const char *const *t, const size_t *n, size_t m)
{
	for (size_t i = 0; m >= 3 && i < m; i++) {
		size_t o = (i + 1) % m, same = 0;
		for (size_t k = 0; k < m; k++)
			same += k != i && n[k] == n[o] && memcmp(t[k], t[o], n[o]) == 0;
		if (same == m - 1 && !(n[i] == n[o] && memcmp(t[i], t[o], n[o]) == 0))
			return (ssize_t)i;
	}
	return -1;
}

/* The live peer whose activity differs from all the others', which
 * agree, of three or more; its index in r->procs, or -1. */
static ssize_t odd_one_out(const struct live_report *r, size_t first)
{
	char kinds[64][48];
	const char *t[64];
	size_t idx[64], n[64], m = peer_kinds(r, first, kinds, idx);
	for (size_t k = 0; k < m; k++)
		t[k] = kinds[k], n[k] = strlen(kinds[k]);
	ssize_t i = lone_differ(t, n, m);
	return i < 0 ? -1 : (ssize_t)idx[i];
}

/* The frames of py-spy dump s's main thread ("MainThread", else its
 * first thread): the indented lines under its "Thread ..." line, as
 * [*at, *at + *n).  Thread ids and the "Process" line differ between
 * peers at one place; frames do not.  0 when s names no thread. */
static int main_frames(const char *s, const char **at, size_t *n)
{
	const char *first = NULL, *main = NULL;
	for (const char *l = s; *l && !main;) {
		size_t len = strcspn(l, "\n");
		if (strncmp(l, "Thread ", 7) == 0) {
			first = first ? first : l;
			main = memmem(l, len, "\"MainThread\"", 12) ? l : NULL;
		}
		l += len + (l[len] == '\n');
	}
	const char *t = main ? main : first;
	if (!t)
		return 0;
	*at = t + strcspn(t, "\n");
	*at += **at == '\n';
	const char *e = *at;
	while (*e == ' ' || *e == '\t')
		e += strcspn(e, "\n"), e += *e == '\n';
	*n = (size_t)(e - *at);
	return 1;
}

/* The live peer whose main thread's Python stack (py-spy's) differs from
 * all the others', which agree, of three or more: where the others wait,
 * it is not.  Only when every peer's stack was read: an unread one could
 * be the odd one.  Its index in r->procs, or -1. */
static ssize_t odd_stack(const struct live_report *r, size_t first)
{
	const struct proc_info *g = &r->procs[first];
	const char *at[64];
	size_t n[64], idx[64], m = 0;
	for (size_t k = first; k < r->nprocs; k++)
		if (live_peer(g, &r->procs[k])) {
			if (m == 64 || !r->procs[k].stack || !main_frames(r->procs[k].stack, &at[m], &n[m]))
				return -1;
			idx[m++] = k;
		}
	ssize_t i = lone_differ(at, n, m);
	return i < 0 ? -1 : (ssize_t)idx[i];
}

/* Of exactly two live peers, the one blocked while the other spins on a
 * GPU: a rank waiting in a GPU collective polls for its absent peer at a
 * whole CPU, so the one that does not is where that peer is.  On a CPU
 * (gloo) a waiting rank blocks as well, so two CPU workers tell nothing.
 * Its index in r->procs, or -1. */
static ssize_t waited_for(const struct live_report *r, size_t first)
{
	const struct proc_info *g = &r->procs[first];
	ssize_t w[2];
	size_t m = 0;
	for (size_t k = first; k < r->nprocs; k++)
		if (live_peer(g, &r->procs[k])) {
			if (m == 2)
				return -1;
			w[m++] = (ssize_t)k;
		}
	if (m != 2)
		return -1;
	for (int i = 0; i < 2; i++) {
		const struct proc_info *a = &r->procs[w[i]], *b = &r->procs[w[1 - i]];
		char act[96];
		live_activity(b, r->sample_s, act, sizeof(act));
		if (!live_cpu_moving(a, r->sample_s) && !isnan(a->cpu_s_delta) && b->uses_gpu &&
		    strncmp(act, "spins", 5) == 0)
			return w[i];
	}
	return -1;
}

/* The worker the others wait for, in a job that is stuck (hung or
 * spinning) or lost a worker: one that died while its peers live (they
 * wait in collectives it will never join; of several dead, none is
 * named), else the odd one out, by what it does or else by its Python
 * stack, else of two the one a GPU spinner waits for.  A job that makes progress has no culprit, whatever its workers
 * do. */
static void job_culprit(struct live_report *r, size_t first)
{
	const struct proc_info *g = &r->procs[first];
	ssize_t c = -1;
	const char *why = NULL;
	if (r->dead_workers) {
		for (size_t k = 0; k < r->nprocs && r->dead_workers == 1; k++)
			if (same_job(g, &r->procs[k]) && dead(&r->procs[k]))
				c = (ssize_t)k;
		why = "died while its peers live";
	} else if (strcmp(r->liveness, "hung") == 0 || strcmp(r->liveness, "spinning") == 0) {
		if ((c = odd_one_out(r, first)) >= 0)
			why = "does other than all its peers, which agree: the odd one out";
		else if ((c = odd_stack(r, first)) >= 0)
			why = "its Python stack differs from all its peers', which agree: the odd one out";
		else if ((c = waited_for(r, first)) >= 0)
			why = "blocked while its peer spins on a GPU, waiting for it";
	}
	if (c >= 0) {
		r->culprit_pid = r->procs[c].pid;
		r->culprit_why = why;
	}
}

/* What the live peers do: each of up to four ("rank 0 spins (...), rank
 * 1 sleeps"), or, of more, how many do what; and the odd one out. */
static void describe_peers(struct live_report *r, struct buf *b, size_t first)
{
	char kinds[64][48], act[96], name[32];
	size_t idx[64], m = peer_kinds(r, first, kinds, idx);
	/* A dead worker is the story (job_culprit): the live ones' small
	 * differences then are no odd one out. */
	ssize_t odd = r->dead_workers ? -1 : odd_one_out(r, first);
	if (odd >= 0) {
		const struct proc_info *p = &r->procs[odd];
		r->odd_pid = p->pid;
		who(p, name, sizeof(name));
		live_activity(p, r->sample_s, act, sizeof(act));
		char others[64];
		size_t o = idx[0] == (size_t)odd ? 1 : 0;
		plural_kind(kinds[o], others, sizeof(others));
		buf_printf(b, "%s %s while the %zu others %s: the odd one out", name, act, m - 1, others);
		return;
	}
	if (m <= 4) {
		for (size_t i = 0; i < m; i++) {
			who(&r->procs[idx[i]], name, sizeof(name));
			live_activity(&r->procs[idx[i]], r->sample_s, act, sizeof(act));
			buf_printf(b, "%s%s %s", i ? ", " : "", name, act);
		}
		return;
	}
	/* Many: count each kind. */
	int done[64] = { 0 };
	for (size_t i = 0, said = 0; i < m; i++) {
		if (done[i])
			continue;
		size_t c = 0;
		for (size_t k = i; k < m; k++)
			if (!done[k] && strcmp(kinds[k], kinds[i]) == 0) {
				done[k] = 1;
				c++;
			}
		char k[64];
		plural_kind(kinds[i], k, sizeof(k));
		buf_printf(b, "%s%zu of %zu %s", said++ ? ", " : "", c, m, c > 1 ? k : kinds[i]);
	}
}

/* The processes that spin, outside a peer group, named (two at most). */
static void describe_spinners(const struct live_report *r, struct buf *b)
{
	char act[96], name[32];
	size_t said = 0;
	for (size_t i = 0; i < r->nprocs && said < 2; i++) {
		const struct proc_info *p = &r->procs[i];
		if (!alive(p) || p->kernel_thread || !live_cpu_moving(p, r->sample_s))
			continue;
		live_activity(p, r->sample_s, act, sizeof(act));
		if (strncmp(act, "spins", 5) != 0)
			continue;
		who(p, name, sizeof(name));
		buf_printf(b, "; %s %s", name, act);
		said++;
	}
}

int live_blocked_hung(double silent_s, int have_ref, double limit_s)
{
	if (isnan(silent_s))
		return 1;
	return have_ref ? silent_s > limit_s : silent_s >= LIVE_QUIET_S;
}

static void make_verdict(struct live_report *r, const struct live_ctx *c, int by_pid)
{
	struct buf b = { 0 };
	size_t live = 0, zombies = 0, dstate = 0, moving = 0, sampled = 0, kthreads = 0, working = 0;
	for (size_t i = 0; i < r->nprocs; i++) {
		const struct proc_info *p = &r->procs[i];
		if (p->gone)
			continue;
		if (p->state == 'Z') {
			zombies++;
			continue;
		}
		live++;
		if (p->kernel_thread) {
			kthreads++;
			continue;
		}
		dstate += p->state == 'D';
		sampled += !isnan(p->cpu_s_delta);
		moving += live_cpu_moving(p, r->sample_s);
		working += live_cpu_moving(p, r->sample_s) && io_moving(p, r->sample_s);
	}
	size_t progs = live - kthreads;
	const char *words = NULL;   /* the liveness in words, when not its name */
	int hung_by_ref = r->have_ref && !isnan(r->silent_s) && r->silent_s > r->ref_limit_s;
	if (live == 0 && !by_pid && r->denied) {
		/* Another user's process may hold it: nothing seen is not
		 * nothing there. */
		r->liveness = "unknown";
		buf_printf(&b, "nobody ddx may inspect holds the log; %zu process%s could not be checked",
			   r->denied, r->denied == 1 ? "" : "es");
	} else if (live == 0) {
		r->liveness = "exited";
		buf_printf(&b, by_pid ? "no process alive" : "nobody holds the log");
		if (zombies)
			buf_printf(&b, " (%zu zombie%s left)", zombies, zombies == 1 ? "" : "s");
	} else if (progs == 0) {
		r->liveness = "unknown";
		buf_printf(&b, "%zu kernel thread%s, no program", kthreads, kthreads == 1 ? "" : "s");
	} else {
		buf_printf(&b, "%zu process%s alive", progs, progs == 1 ? "" : "es");
		if (kthreads)
			buf_printf(&b, ", %zu kernel thread%s", kthreads, kthreads == 1 ? "" : "s");
		if (zombies)
			buf_printf(&b, ", %zu zombie%s", zombies, zombies == 1 ? "" : "s");
		if (dstate)
			buf_printf(&b, ", %zu in D state", dstate);
		size_t first = 0, npeers = peer_group(r, &first);
		if (npeers) {
			job_ranks(r, first, c->ranks, c->nranks);
			for (size_t i = 0; i < r->nprocs; i++)
				r->dead_workers += same_job(&r->procs[first], &r->procs[i]) &&
						   dead(&r->procs[i]);
		}
		int quiet = !isnan(r->silent_s) && r->silent_s >= LIVE_QUIET_S;
		int port_up = r->port && r->port_in_tree;
		if (r->log_grew) {
			r->liveness = "busy";
			buf_printf(&b, ", log growing");
		} else if (moving) {
			r->liveness = !r->have_ref && quiet && !port_up && !working ? "spinning" : "busy";
			buf_printf(&b, ", CPU moving in %zu of %zu", moving, progs);
		} else if (sampled < progs) {
			r->liveness = "unknown";
			buf_printf(&b, ", CPU time not sampled");
		} else {
			buf_printf(&b, ", ");
			blocked_summary(r, &b, progs);
			char iv[32];
			fmt_seconds(iv, sizeof(iv), r->sample_s);
			buf_printf(&b, ", no CPU progress in %s", iv);
			r->liveness = port_up || !live_blocked_hung(r->silent_s, r->have_ref, r->ref_limit_s)
				? "idle" : "hung";
		}
		/* Silence far beyond the good runs' decides, whatever the CPU
		 * does: a rank spinning on a peer that never joins burns it. */
		if (hung_by_ref)
			r->liveness = "hung";
		/* A worker dead while its peers live stops the job, whatever
		 * the others still print or burn: they wait for it. */
		if (r->dead_workers)
			r->liveness = "dead-rank", words = "a worker of the job died";
		if (strcmp(r->liveness, "spinning") == 0)
			words = "busy or spinning";
		if (npeers)
			job_culprit(r, first);
		/* What each does, when it tells more than the counts: peers
		 * that do different things, or spin. */
		if (npeers && !r->log_grew && sampled == progs && (moving || peers_differ(r, first))) {
			buf_printf(&b, "; ");
			describe_peers(r, &b, first);
		} else if (!r->log_grew) {
			describe_spinners(r, &b);
		}
		if (r->culprit_pid && r->culprit_pid != r->odd_pid)
			for (size_t i = 0; i < r->nprocs; i++)
				if (r->procs[i].pid == r->culprit_pid) {
					char name[32];
					who(&r->procs[i], name, sizeof(name));
					buf_printf(&b, "; %s %s", name, r->culprit_why);
				}
	}
	if (!isnan(r->silent_s)) {
		char d[32], g[32];
		fmt_seconds(d, sizeof(d), r->silent_s);
		if (r->have_ref) {
			fmt_seconds(g, sizeof(g), r->ref_gap_s);
			if (hung_by_ref)
				buf_printf(&b, ", silent %s where the good runs went on after at most %s", d, g);
			else
				buf_printf(&b, ", log silent for %s (the good runs up to %s here)", d, g);
		} else {
			buf_printf(&b, ", log silent for %s", d);
		}
	}
	if (r->port) {
		buf_printf(&b, ", port %u ", r->port);
		if (!r->port_listening)
			buf_printf(&b, "not listening");
		else if (r->port_in_tree)
			buf_printf(&b, "listening");
		else if (r->port_pid)
			buf_printf(&b, "held by pid %d outside the tree", r->port_pid);
		else
			buf_printf(&b, "listening, not by these processes");
	}
	buf_printf(&b, ": %s", words ? words : r->liveness);
	r->verdict = b.p;
}

double live_ref_limit(double gap_s, double step_s, double factor, double min_s)
{
	double limit = factor * gap_s + min_s;
	return step_s > limit ? step_s : limit;
}

void live_set_ref(struct live_opts *o, double gap_s, double step_s, double factor, double min_s)
{
	o->have_ref = !isnan(gap_s) && gap_s >= 0;
	o->ref_gap_s = o->have_ref ? gap_s : NAN;
	o->ref_limit_s = o->have_ref ? live_ref_limit(gap_s, step_s, factor, min_s) : NAN;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* The log's stat, by name or through a holder's fd when its name is
 * gone or came from an fd link. */
static int stat_log(const struct live_ctx *c, const struct live_report *r, struct stat *st)
{
	if (!r->log_deleted && !c->o->npids && !c->via_holder)
		return stat(r->log_path, st);
	/* Any holder will do: the first may be gone by now (a short-lived
	 * child that inherited the writer's fd, a `sleep` in a shell loop). */
	for (size_t i = 0; i < c->ps.nholders; i++)
		if (c->ps.holders[i].nfds &&
		    proc_fd_stat(&c->ps, c->ps.holders[i].pid, c->ps.holders[i].fds[0], st) == 0)
			return 0;
	return -1;
}

/* Find the port the log names, and who listens on it. */
static int in_report(const struct live_report *r, int pid)
{
	for (size_t i = 0; i < r->nprocs; i++)
		if (r->procs[i].pid == pid)
			return 1;
	return 0;
}

static void check_port(struct live_ctx *c, struct live_report *r)
{
	char *path = NULL;
	if (r->log_deleted || c->o->npids || c->via_holder) {
		if (!c->ps.nholders)
			return;
		path = xasprintf("%s/%d/fd/%d", c->o->root, c->ps.holders[0].pid, c->ps.holders[0].fds[0]);
	}
	/* Only a regular file is read: opening a FIFO for reading would
	 * block until a writer comes, and reading it would take lines from
	 * its real reader.  Typed through a non-blocking open, then read
	 * through that very file. */
	struct stat st;
	const char *name = path ? path : r->log_path;
	int fd = stat(name, &st) == 0 && S_ISREG(st.st_mode) ?
		 open(name, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC) : -2;
	free(path);
	if (fd == -2 || (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)))) {
		strv_push(&r->notes, &r->nnotes, xstrdup("the log is not a regular file: not read for its port"));
		if (fd >= 0)
			close(fd);
		return;
	}
	if (fd < 0) {
		strv_push(&r->notes, &r->nnotes, xstrdup("could not read the log for its port"));
		return;
	}
	char self[64];
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	struct input in;
	int ok = input_open(&in, self, 0) == 0;
	close(fd);
	if (!ok) {
		strv_push(&r->notes, &r->nnotes, xstrdup("could not read the log for its port"));
		return;
	}
	c->nranks = logmeta_pid_ranks(in.data, in.size, c->ranks, LIVE_MAX_RANKS);
	struct logmeta_port lp;
	if (logmeta_port(in.data, in.size, &lp)) {
		r->port = lp.port;
		r->port_line = lp.line;
		r->port_text = xasprintf("%.*s", (int)(lp.text_len > 200 ? 200 : lp.text_len), lp.text);
		for (size_t i = 0; i < c->ps.nsocks; i++) {
			const struct proc_sock_ent *se = &c->ps.socks[i];
			if (!se->listen || se->s.port != r->port || strcmp(se->s.proto, "unix") == 0)
				continue;
			r->port_listening = 1;
			for (size_t k = 0; k < c->ps.nowners; k++)
				if (c->ps.owners[k].inode == se->s.inode) {
					int mine = in_report(r, c->ps.owners[k].pid);
					r->port_in_tree |= mine;
					if (!r->port_pid || mine)
						r->port_pid = c->ps.owners[k].pid;
				}
		}
	}
	input_close(&in);
}

/* Identify the log: by device and inode, or, when its name is gone, by
 * the "PATH (deleted)" text of the fd links; in pid mode, from the pids'
 * stdout. */
static int find_log(struct live_ctx *c, struct live_report *r, const char *log_path)
{
	struct stat st;
	if (c->o->ident_ino) {
		c->ps.have_log = 1;
		c->ps.log_dev = c->o->ident_dev;
		c->ps.log_ino = c->o->ident_ino;
		c->via_holder = 1;
		r->log_path = xstrdup(log_path);
		return 0;
	}
	if (c->o->npids) {
		for (size_t i = 0; i < c->o->npids && !proc_output_file(&c->ps, c->o->pids[i], &r->log_path, &r->log_deleted); i++)
			;
		return 0;
	}
	if (stat(log_path, &st) == 0) {
		c->ps.have_log = 1;
		c->ps.log_dev = st.st_dev;
		c->ps.log_ino = st.st_ino;
		r->log_path = xstrdup(log_path);
		return 0;
	}
	if (errno != ENOENT)
		return error("cannot stat '%s': %s", log_path, strerror(errno));
	char *dir = xstrdup(log_path), *slash = strrchr(dir, '/');
	const char *base = slash ? slash + 1 : log_path;
	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	char real[PATH_MAX];
	if (realpath(slash ? dir : ".", real))
		c->ps.deleted_link = xasprintf("%s%s%s (deleted)", real,
					  strcmp(real, "/") == 0 ? "" : "/", base);
	free(dir);
	r->log_path = xstrdup(log_path);
	r->log_deleted = 1;
	return 0;
}

/* Whether no process at all has the regular file path open for writing,
 * known without reading /proc: Linux grants a read lease only on a file
 * nobody has open for writing (any process, any user, any namespace).
 * The lease is dropped at once.  A writer opening the file meanwhile
 * breaks it, which signals SIGIO, fatal by default: ignored for that
 * moment (the writer waits only for the F_UNLCK).  0 when the lease is
 * refused for any reason (a writer, a file we do not own, a filesystem
 * without leases): then only the scan can tell. */
static int nobody_writes(const char *path)
{
	/* Not even opened unless regular: a FIFO's writer waiting for a
	 * reader would be let through, then die on its first write. */
	struct stat st0;
	if (stat(path, &st0) < 0 || !S_ISREG(st0.st_mode))
		return 0;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return 0;
	struct stat st;
	int ok = 0;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		struct sigaction ign = { .sa_handler = SIG_IGN }, old;
		sigemptyset(&ign.sa_mask);
		sigaction(SIGIO, &ign, &old);
		ok = fcntl(fd, F_SETLEASE, F_RDLCK) == 0;
		if (ok)
			fcntl(fd, F_SETLEASE, F_UNLCK);
		sigaction(SIGIO, &old, NULL);
	}
	close(fd);
	return ok;
}

/* Fill r->procs with the roots (holders, or the pids given) and every
 * descendant, such as the workers a launcher forked, parents before
 * children. */
static void build_tree(const struct live_ctx *c, struct live_report *r)
{
	const struct live_opts *o = c->o;
	int *set = xmalloc((c->ps.nall + o->npids + 1) * sizeof(int));
	size_t nset = 0;
	for (size_t i = 0; i < o->npids; i++)
		if (!in_set(set, nset, o->pids[i]))
			set[nset++] = o->pids[i];
	for (size_t i = 0; !o->npids && i < c->ps.nholders; i++)
		set[nset++] = c->ps.holders[i].pid;
	for (size_t added = 1; added;) {
		added = 0;
		for (size_t k = 0; k < c->ps.nall; k++)
			if (in_set(set, nset, c->ps.all[k].ppid) && !in_set(set, nset, c->ps.all[k].pid)) {
				set[nset++] = c->ps.all[k].pid;
				added++;
			}
	}
	qsort(set, nset, sizeof(int), cmp_int);
	int *order = xmalloc((nset + 1) * sizeof(int)), *depths = xmalloc((nset + 1) * sizeof(int));
	size_t norder = 0;
	order_tree(c, set, nset, 0, 0, order, &norder, depths);
	for (size_t i = 0; i < nset; i++)   /* pids given that are not in /proc */
		if (!in_set(order, norder, set[i])) {
			depths[norder] = 0;
			order[norder++] = set[i];
		}
	r->procs = xcalloc(norder + 1, sizeof(*r->procs));
	r->nprocs = norder;
	for (size_t i = 0; i < norder; i++) {
		struct proc_info *p = &r->procs[i];
		p->pid = order[i];
		p->depth = depths[i];
		p->state = '?';
		p->cpu_s_delta = NAN;
		p->age_s = -1;
		p->gpu_mem_mib = -1;
		p->gpu_util_pct = -1;
		p->io_bytes = p->io_delta = -1;
		p->uses_gpu = proc_uses_gpu(&c->ps, p->pid);
		for (size_t k = 0; k < c->ps.nholders; k++)
			if (c->ps.holders[k].pid == p->pid) {
				p->holds_log = 1;
				p->nlog_fds = c->ps.holders[k].nfds;
				memcpy(p->log_fds, c->ps.holders[k].fds, sizeof(p->log_fds));
			}
	}
	free(set);
	free(order);
	free(depths);
}

/* The threads' CPU deltas: t1 (now) against t0 (at the sample's start),
 * both by tid. */
static void thread_deltas(struct proc_info *p, const struct proc_sample *s0)
{
	for (size_t i = 0, k = 0; i < p->nthr; i++) {
		while (k < s0->nthr && s0->thr[k].tid < p->thr[i].tid)
			k++;
		if (k < s0->nthr && s0->thr[k].tid == p->thr[i].tid) {
			p->thr[i].cpu_s_delta = p->thr[i].cpu_s - s0->thr[k].cpu_s;
			p->thr[i].runnable_s_delta = p->thr[i].runnable_s - s0->thr[k].runnable_s;
		}
	}
}

/* Read every process twice, sample_ms apart, for its CPU time, its
 * threads' and its I/O counters, and the log's size and mtime the same
 * way; the details come from the second reading, so they say where the
 * processes are after the sample.  A pid whose start time changed in
 * between now names another process: the one inspected is gone. */
static void sample(const struct live_ctx *c, struct live_report *r)
{
	struct stat st0, st1;
	int have0 = r->log_path && stat_log(c, r, &st0) == 0;
	struct proc_sample *s0 = xcalloc(r->nprocs + 1, sizeof(*s0));
	int *ok0 = xcalloc(r->nprocs + 1, sizeof(int));
	int64_t t0 = now_ms();
	for (size_t i = 0; i < r->nprocs; i++)
		ok0[i] = proc_read_sample(&c->ps, r->procs[i].pid, &s0[i]) == 0;
	if (c->o->sample_ms > 0 && r->nprocs) {
		int64_t left = t0 + c->o->sample_ms - now_ms();
		if (left > 0)
			sleep_ms((int)left);
	}
	/* Only the processes' details need them (/proc/stat is long on a
	 * machine with many CPUs). */
	double uptime = r->nprocs ? proc_uptime(&c->ps) : -1;
	double btime = r->nprocs ? proc_btime(&c->ps) : 0;
	for (size_t i = 0; i < r->nprocs; i++) {
		struct proc_info *p = &r->procs[i];
		proc_read_details(&c->ps, p, uptime, btime);
		p->unreaped = ok0[i] && s0[i].state == 'Z' && p->state == 'Z';
		if (ok0[i] && !p->gone && s0[i].starttime != p->starttime) {
			p->gone = 1;
			strv_push(&p->unreadable, &p->nunreadable,
				  xstrdup("exited during inspection; its pid now names another process"));
		}
		if (c->o->sample_ms > 0 && ok0[i] && !p->gone) {
			p->cpu_s_delta = p->cpu_s - s0[i].cpu_s;
			p->io_delta = p->io_bytes >= 0 && s0[i].io_bytes >= 0 ? p->io_bytes - s0[i].io_bytes : -1;
			thread_deltas(p, &s0[i]);
		}
		free(s0[i].thr);
	}
	if (r->log_path && stat_log(c, r, &st1) == 0) {
		r->silent_s = wall_clock_s() - mtime_of(&st1);
		if (r->silent_s < 0)
			r->silent_s = 0;
		if (c->o->silent_s > r->silent_s)
			r->silent_s = c->o->silent_s;
		r->log_grew = c->o->sample_ms > 0 && have0 &&
			      (st1.st_size != st0.st_size || mtime_of(&st1) != mtime_of(&st0));
	}
	free(s0);
	free(ok0);
}

int live_inspect(const char *log_path, const struct live_opts *o, struct live_report *r)
{
	struct live_opts opts = *o;
	if (!opts.root)
		opts.root = "/proc";
	struct live_ctx c = { .o = &opts };
	memset(r, 0, sizeof(*r));
	/* Another host's processes are in its own /proc. */
	if (!o->root && log_path && source_is_remote(log_path))
		return error("'%s' lives elsewhere: the processes behind it are seen there (run ddx proc on that host)",
			     log_path);
	r->silent_s = NAN;
	r->sample_s = opts.sample_ms / 1000.0;
	r->have_ref = opts.have_ref;
	r->ref_gap_s = opts.ref_gap_s;
	r->ref_limit_s = opts.ref_limit_s;
	if (proc_open(&c.ps, opts.root) < 0)
		return -1;

	/* The socket tables cost more than the rest of a scan (the kernel
	 * walks every connection): with opts.quick, only read them when some
	 * process holds the log. */
	int rc = find_log(&c, r, log_path);
	/* Scanning every process's fds costs milliseconds, ddx diff's whole
	 * budget on small logs; when nobody writes the log there are no
	 * holders to find, and a quick report says no more than that. */
	int skip = opts.quick && !o->root && !opts.npids && !r->log_deleted && !c.via_holder &&
		   rc == 0 && nobody_writes(log_path);
	if (rc == 0 && !skip)
		rc = proc_scan_all(&c.ps);
	if (rc == 0 && (c.ps.nholders || !opts.quick)) {
		proc_load_sockets(&c.ps, &r->notes, &r->nnotes);
	}
	if (rc == 0 && r->log_deleted && !opts.npids && !c.ps.nholders)
		rc = error("cannot open '%s': No such file or directory", log_path);
	if (rc < 0) {
		proc_close(&c.ps);
		live_report_free(r);
		return -1;
	}
	if (c.ps.nreaders)
		strv_push(&r->notes, &r->nnotes,
			 xasprintf("not counted, as they only read the log: %s", c.ps.readers.p));
	r->denied = c.ps.denied;
	if (c.ps.denied)
		strv_push(&r->notes, &r->nnotes,
			 xasprintf("%zu process%s could not be checked for the log: permission denied",
				 c.ps.denied, c.ps.denied == 1 ? "" : "es"));
	build_tree(&c, r);
	sample(&c, r);
	/* The port the log names matters only for who is alive behind it. */
	if (r->log_path && (c.ps.nholders || !opts.quick))
		check_port(&c, r);
	if (opts.gpu && r->nprocs)
		read_gpu(r);
	if (opts.stacks && r->nprocs)
		read_stacks(&opts, r);
	make_verdict(r, &c, opts.npids > 0);
	proc_close(&c.ps);
	return 0;
}

void live_report_free(struct live_report *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nprocs; i++) {
		struct proc_info *p = &r->procs[i];
		free(p->cmdline);
		free(p->wchan);
		free(p->syscall);
		free(p->syscall_arg);
		free(p->listening);
		free(p->stack);
		free(p->thr);
		strv_free(p->unreadable, p->nunreadable);
	}
	free(r->procs);
	free(r->gpus);
	strv_free(r->notes, r->nnotes);
	free(r->log_path);
	free(r->port_text);
	free(r->verdict);
	memset(r, 0, sizeof(*r));
}
