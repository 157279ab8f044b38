/* live.c — the live processes behind a log, put together from /proc
 * (proc.c), NVML (nvml.c) and py-spy (pyspy.c): the process tree,
 * the CPU sample and the verdict.  See live.h. */
#include "live.h"

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
#include "util.h"

/* The inspection under way: the options and the /proc reading. */
struct live_ctx {
	const struct live_opts *o;
	struct proc_scan ps;
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

/* Total the GPU memory NVML sees per inspected process. */
static void read_gpu(struct live_report *r)
{
	struct nvml_use *use;
	size_t n;
	const char *why = nvml_gpu_memory(&use, &n);
	if (why)
		strv_push(&r->notes, &r->nnotes, xstrdup(why));
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < r->nprocs; k++)
			if (r->procs[k].pid == use[i].pid)
				r->procs[k].gpu_mem_mib = (r->procs[k].gpu_mem_mib < 0 ? 0 : r->procs[k].gpu_mem_mib) + use[i].mib;
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
		int rc = pyspy_dump(exe, p->pid, timeout, &out);
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

/* "futex", or "futex 8, wait4 1": what the blocked processes wait in. */
static void blocked_summary(const struct live_report *r, struct buf *b, size_t nblocked)
{
	const char *names[16];
	int counts[16], n = 0;
	for (size_t i = 0; i < r->nprocs; i++) {
		const struct proc_info *p = &r->procs[i];
		if (p->gone || p->state == 'Z' || live_cpu_moving(p, r->sample_s))
			continue;
		const char *w = p->syscall && strcmp(p->syscall, "none") != 0 ? p->syscall :
				p->wchan && *p->wchan ? p->wchan : "unreadable";
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

static void make_verdict(struct live_report *r, int by_pid)
{
	struct buf b = { 0 };
	size_t alive = 0, zombies = 0, dstate = 0, moving = 0, sampled = 0;
	for (size_t i = 0; i < r->nprocs; i++) {
		const struct proc_info *p = &r->procs[i];
		if (p->gone)
			continue;
		if (p->state == 'Z') {
			zombies++;
			continue;
		}
		alive++;
		dstate += p->state == 'D';
		sampled += !isnan(p->cpu_s_delta);
		moving += live_cpu_moving(p, r->sample_s);
	}
	if (alive == 0) {
		r->liveness = "exited";
		buf_printf(&b, by_pid ? "no process alive" : "nobody holds the log");
		if (zombies)
			buf_printf(&b, " (%zu zombie%s left)", zombies, zombies == 1 ? "" : "s");
	} else {
		buf_printf(&b, "%zu process%s alive", alive, alive == 1 ? "" : "es");
		if (zombies)
			buf_printf(&b, ", %zu zombie%s", zombies, zombies == 1 ? "" : "s");
		if (dstate)
			buf_printf(&b, ", %zu in D state", dstate);
		if (r->log_grew) {
			r->liveness = "busy";
			buf_printf(&b, ", log growing");
		} else if (moving) {
			r->liveness = "busy";
			buf_printf(&b, ", CPU moving in %zu of %zu", moving, alive);
		} else if (sampled < alive) {
			r->liveness = "unknown";
			buf_printf(&b, ", CPU time not sampled");
		} else {
			buf_printf(&b, ", ");
			blocked_summary(r, &b, alive);
			char iv[32];
			fmt_seconds(iv, sizeof(iv), r->sample_s);
			buf_printf(&b, ", no CPU progress in %s", iv);
			r->liveness = r->port && r->port_in_tree ? "idle" : "hung";
		}
	}
	if (!isnan(r->silent_s)) {
		char d[32];
		fmt_seconds(d, sizeof(d), r->silent_s);
		buf_printf(&b, ", log silent for %s", d);
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
	buf_printf(&b, ": %s", r->liveness);
	r->verdict = b.p;
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
	if (!r->log_deleted && !c->o->npids)
		return stat(r->log_path, st);
	if (!c->ps.nholders)
		return -1;
	return proc_fd_stat(&c->ps, c->ps.holders[0].pid, c->ps.holders[0].fds[0], st);
}

/* Find the port the log names, and who listens on it. */
static int in_report(const struct live_report *r, int pid)
{
	for (size_t i = 0; i < r->nprocs; i++)
		if (r->procs[i].pid == pid)
			return 1;
	return 0;
}

static void check_port(const struct live_ctx *c, struct live_report *r)
{
	char *path = NULL;
	if (r->log_deleted || c->o->npids) {
		if (!c->ps.nholders)
			return;
		path = xasprintf("%s/%d/fd/%d", c->o->root, c->ps.holders[0].pid, c->ps.holders[0].fds[0]);
	}
	struct input in;
	if (input_open(&in, path ? path : r->log_path, 0) < 0) {
		strv_push(&r->notes, &r->nnotes, xstrdup("could not read the log for its port"));
		free(path);
		return;
	}
	free(path);
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

/* Read every process twice, sample_ms apart, for its CPU time, and the
 * log's size and mtime the same way; the details come from the second
 * reading, so they say where the processes are after the sample. */
static void sample(const struct live_ctx *c, struct live_report *r)
{
	struct stat st0, st1;
	int have0 = r->log_path && stat_log(c, r, &st0) == 0;
	double *cpu0 = xcalloc(r->nprocs + 1, sizeof(double));
	int *ok0 = xcalloc(r->nprocs + 1, sizeof(int));
	int64_t t0 = now_ms();
	for (size_t i = 0; i < r->nprocs; i++)
		ok0[i] = proc_read_cpu(&c->ps, r->procs[i].pid, &cpu0[i]) == 0;
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
		if (c->o->sample_ms > 0 && ok0[i] && !p->gone)
			p->cpu_s_delta = p->cpu_s - cpu0[i];
	}
	if (r->log_path && stat_log(c, r, &st1) == 0) {
		r->silent_s = wall_clock_s() - mtime_of(&st1);
		if (r->silent_s < 0)
			r->silent_s = 0;
		r->log_grew = c->o->sample_ms > 0 && have0 &&
			      (st1.st_size != st0.st_size || mtime_of(&st1) != mtime_of(&st0));
	}
	free(cpu0);
	free(ok0);
}

int live_inspect(const char *log_path, const struct live_opts *o, struct live_report *r)
{
	struct live_opts opts = *o;
	if (!opts.root)
		opts.root = "/proc";
	struct live_ctx c = { .o = &opts };
	memset(r, 0, sizeof(*r));
	r->silent_s = NAN;
	r->sample_s = opts.sample_ms / 1000.0;
	if (proc_open(&c.ps, opts.root) < 0)
		return -1;

	/* The socket tables cost more than the rest of a scan (the kernel
	 * walks every connection): with opts.quick, only read them when some
	 * process holds the log. */
	int rc = find_log(&c, r, log_path);
	/* Scanning every process's fds costs milliseconds, ddx diff's whole
	 * budget on small logs; when nobody writes the log there are no
	 * holders to find, and a quick report says no more than that. */
	int skip = opts.quick && !o->root && !opts.npids && !r->log_deleted &&
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
	make_verdict(r, opts.npids > 0);
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
		strv_free(p->unreadable, p->nunreadable);
	}
	free(r->procs);
	strv_free(r->notes, r->nnotes);
	free(r->log_path);
	free(r->port_text);
	free(r->verdict);
	memset(r, 0, sizeof(*r));
}
