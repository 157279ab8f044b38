/* report_proc.c — printing what live.c found behind a log: `ddx proc`'s
 * text and JSON (schema 1, see cmd_proc.c), and the "processes" array
 * that `ddx diff --json` embeds.  All text from the processes and the
 * log goes through put_text or the JSON writer. */
#include "report_proc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "prefix.h"
#include "util.h"

/* The "processes" rows a line each, the bracket closing them on its own. */
static const struct jw_layout procs = { JW_LINES | JW_CLOSE_LINE, 4, 2 };

/* v, or null when it is not known. */
static void int_or_null(struct jw *jw, const char *key, long long v, int known)
{
	if (known)
		jw_object_int(jw, key, v);
	else
		jw_object_null(jw, key);
}

static void json_sock(struct jw *jw, const struct proc_sock *s)
{
	jw_object_begin(jw, NULL);
	jw_object_string(jw, "proto", s->proto);
	if (strcmp(s->proto, "unix") == 0) {
		jw_object_string(jw, "path", s->addr);
	} else {
		jw_object_string(jw, "addr", s->addr);
		jw_object_int(jw, "port", s->port);
	}
	jw_end(jw);
}

/* What p is doing: its state, where it waits, its CPU and memory. */
static void json_state(struct jw *jw, const struct proc_info *p)
{
	char state[2] = { p->state, '\0' };
	jw_object_string(jw, "state", p->state == '?' ? NULL : state);
	jw_object_string(jw, "wchan", p->wchan);
	jw_object_string(jw, "syscall", p->syscall);
	jw_object_string(jw, "syscall_arg", p->syscall_arg);
	jw_object_double(jw, "cpu_s", p->gone ? NAN : p->cpu_s, 2);
	jw_object_double(jw, "cpu_s_delta", p->cpu_s_delta, 2);
	jw_object_int(jw, "threads", p->threads);
	jw_object_string(jw, "thread_states", p->thread_states[0] ? p->thread_states : NULL);
	jw_object_int(jw, "rss_kb", p->rss_kb);
	jw_object_time(jw, "start_time", p->start_epoch > 0 ? (int64_t)(p->start_epoch * 1000) : TS_NONE);
	jw_object_double(jw, "age_s", p->age_s < 0 ? NAN : p->age_s, 0);
}

/* The threads of p that burn CPU. */
static void json_hot_threads(struct jw *jw, const struct live_report *r, const struct proc_info *p)
{
	jw_object_array(jw, "hot_threads", NULL);
	for (size_t k = 0; k < p->nthr; k++) {
		if (!live_thread_hot(&p->thr[k], r->sample_s))
			continue;
		jw_object_begin(jw, NULL);
		jw_object_int(jw, "tid", p->thr[k].tid);
		jw_object_string(jw, "comm", p->thr[k].comm);
		jw_object_double(jw, "cpu_pct", 100.0 * p->thr[k].cpu_s_delta / r->sample_s, 0);
		jw_end(jw);
	}
	jw_end(jw);
}

static void json_process(struct jw *jw, const struct live_report *r, const struct proc_info *p)
{
	jw_object_begin(jw, NULL);
	jw_object_int(jw, "pid", p->pid);
	jw_object_int(jw, "ppid", p->ppid);
	jw_object_int(jw, "depth", p->depth);
	jw_object_string(jw, "comm", p->gone ? NULL : p->comm);
	jw_object_string(jw, "cmdline", p->cmdline);
	jw_object_bool(jw, "holds_log", p->holds_log);
	jw_object_array(jw, "log_fds", NULL);
	for (int k = 0; k < p->nlog_fds; k++)
		jw_array_int(jw, p->log_fds[k]);
	jw_end(jw);
	json_state(jw, p);
	jw_object_array(jw, "listening", NULL);
	for (size_t k = 0; k < p->nlistening; k++)
		json_sock(jw, &p->listening[k]);
	jw_end(jw);
	int_or_null(jw, "gpu_mem_mib", p->gpu_mem_mib, p->gpu_mem_mib >= 0);
	int_or_null(jw, "gpu_util_pct", p->gpu_util_pct, p->gpu_util_pct >= 0);
	jw_object_string(jw, "rank", p->rank[0] ? p->rank : NULL);
	jw_object_string(jw, "rank_from", p->rank[0] ? p->rank_from : NULL);
	jw_object_bool(jw, "kernel_thread", p->kernel_thread);
	int_or_null(jw, "io_delta", p->io_delta, p->io_delta >= 0);
	if (p->gone || p->state == 'Z') {
		jw_object_null(jw, "activity");
	} else {
		char act[96];
		live_activity(p, r->sample_s, act, sizeof(act));
		jw_object_string(jw, "activity", act);
	}
	json_hot_threads(jw, r, p);
	jw_object_string(jw, "stack", p->stack);
	jw_object_strings(jw, "unreadable", p->unreadable, p->nunreadable);
	jw_end(jw);
}

void report_proc_processes_json(struct jw *jw, const struct live_report *r)
{
	jw_object_array(jw, "processes", &procs);
	for (size_t i = 0; i < r->nprocs; i++)
		json_process(jw, r, &r->procs[i]);
	jw_end(jw);
}

/* The port the log named, and who listens on it; null when none. */
static void json_port(struct jw *jw, const struct live_report *r)
{
	if (!r->port) {
		jw_object_null(jw, "port");
		return;
	}
	jw_object_object(jw, "port", NULL);
	jw_object_int(jw, "expected", r->port);
	jw_object_int(jw, "from_line", (long long)r->port_line);
	jw_object_string(jw, "text", r->port_text);
	jw_object_bool(jw, "listening", r->port_listening);
	jw_object_bool(jw, "in_tree", r->port_in_tree);
	int_or_null(jw, "pid", r->port_pid, r->port_pid != 0);
	jw_end(jw);
}

static void json_gpus(struct jw *jw, const struct live_report *r)
{
	jw_object_array(jw, "gpus", NULL);
	for (size_t k = 0; k < r->ngpus; k++) {
		const struct nvml_gpu *g = &r->gpus[k];
		jw_object_begin(jw, NULL);
		jw_object_int(jw, "index", g->index);
		jw_object_double(jw, "util_pct", g->util_pct < 0 ? NAN : g->util_pct, 0);
		jw_object_double(jw, "mem_used_mib", g->mem_used_mib < 0 ? NAN : (double)g->mem_used_mib, 0);
		jw_object_double(jw, "mem_total_mib", g->mem_total_mib < 0 ? NAN : (double)g->mem_total_mib, 0);
		jw_end(jw);
	}
	jw_end(jw);
}

void report_proc_culprit_json(struct jw *jw, const struct live_report *r)
{
	const struct proc_info *c = NULL;
	for (size_t i = 0; r->culprit_pid && i < r->nprocs && !c; i++)
		if (r->procs[i].pid == r->culprit_pid)
			c = &r->procs[i];
	if (!c) {
		jw_object_null(jw, "culprit");
		return;
	}
	jw_object_object(jw, "culprit", NULL);
	jw_object_int(jw, "pid", c->pid);
	jw_object_string(jw, "rank", c->rank[0] ? c->rank : NULL);
	jw_object_string(jw, "rank_from", c->rank[0] ? c->rank_from : NULL);
	jw_object_string(jw, "why", r->culprit_why);
	jw_end(jw);
}

void report_proc_json(FILE *f, const struct live_report *r)
{
	static const struct jw_layout doc = { JW_LINES | JW_CLOSE_ALWAYS, 2, 0 };
	struct jw jw;
	jw_init(&jw, f);
	jw_object_begin(&jw, &doc);
	jw_object_int(&jw, "schema", 1);
	jw_object_object(&jw, "log", NULL);
	jw_object_string(&jw, "path", r->log_path);
	jw_object_double(&jw, "silent_s", r->silent_s, 1);
	jw_object_bool(&jw, "deleted", r->log_deleted);
	jw_object_bool(&jw, "grew", r->log_grew);
	jw_end(&jw);
	report_proc_processes_json(&jw, r);
	json_port(&jw, r);
	if (r->have_ref) {
		jw_object_object(&jw, "reference", NULL);
		jw_object_double(&jw, "gap_s", r->ref_gap_s, 1);
		jw_object_double(&jw, "limit_s", r->ref_limit_s, 1);
		jw_end(&jw);
	} else {
		jw_object_null(&jw, "reference");
	}
	json_gpus(&jw, r);
	int_or_null(&jw, "odd_one_out", r->odd_pid, r->odd_pid != 0);
	report_proc_culprit_json(&jw, r);
	jw_object_double(&jw, "sample_s", r->sample_s, 3);
	jw_object_string(&jw, "liveness", r->liveness);
	jw_object_string(&jw, "verdict", r->verdict);
	/* The text report's first sentence, as there. */
	char *summary = r->log_path ? xasprintf("%s%s%s", r->log_path,
						r->log_deleted ? " (deleted): " : ": ", r->verdict)
				    : xstrdup(r->verdict);
	jw_object_string(&jw, "summary", summary);
	free(summary);
	jw_object_strings(&jw, "notes", r->notes, r->nnotes);
	jw_end(&jw);
}

static void text(FILE *f, const char *s)
{
	put_text(f, s, strlen(s));
}

static void fmt_kb(char *out, size_t cap, long kb)
{
	if (kb < 1024)
		snprintf(out, cap, "%ld KiB", kb);
	else if (kb < 1024 * 1024)
		snprintf(out, cap, "%.1f MiB", kb / 1024.0);
	else
		snprintf(out, cap, "%.1f GiB", kb / (1024.0 * 1024.0));
}

static void text_process(const struct out *o, const struct live_report *r, const struct proc_info *p)
{
	FILE *f = o->f;
	int ind = 2 + 2 * p->depth;
	fprintf(f, "%*s%spid %d%s  ", ind, "", SGR_BOLD(o), p->pid, SGR_RESET(o));
	if (p->rank[0])
		fprintf(f, "[rank %s] ", p->rank);
	text(f, p->cmdline ? p->cmdline : "?");
	fputc('\n', f);
	ind += 4;
	if (p->gone) {
		for (size_t k = 0; k < p->nunreadable; k++) {
			fprintf(f, "%*s", ind, "");
			text(f, p->unreadable[k]);
			fputc('\n', f);
		}
		return;
	}
	if (p->holds_log) {
		fprintf(f, "%*slog        ", ind, "");
		for (int k = 0; k < p->nlog_fds; k++) {
			int fd = p->log_fds[k];
			fprintf(f, "%sfd %d%s", k ? ", " : "", fd,
				fd == 1 ? " (stdout)" : fd == 2 ? " (stderr)" : fd == 0 ? " (stdin)" : "");
		}
		fputc('\n', f);
	}
	char rss[32], age[32] = "?";
	fmt_kb(rss, sizeof(rss), p->rss_kb);
	if (p->age_s >= 0)
		fmt_seconds(age, sizeof(age), p->age_s);
	fprintf(f, "%*sstate      %c%s, ppid %d, %d thread%s", ind, "", p->state,
		p->kernel_thread ? " (kernel thread)" :
		p->state == 'Z' ? " (zombie: exited, not reaped by its parent)" :
		p->state == 'D' ? " (uninterruptible sleep)" : p->state == 'T' ? " (stopped)" : "",
		p->ppid, p->threads, p->threads == 1 ? "" : "s");
	if (p->thread_states[0])
		fprintf(f, " (%s)", p->thread_states);
	fprintf(f, ", rss %s, age %s\n", rss, age);
	fprintf(f, "%*scpu        %.2f s", ind, "", p->cpu_s);
	if (!isnan(p->cpu_s_delta)) {
		char iv[32];
		fmt_seconds(iv, sizeof(iv), r->sample_s);
		fprintf(f, ", +%.2f s in the last %s%s", p->cpu_s_delta, iv,
			live_cpu_moving(p, r->sample_s) ? "" : " (no progress)");
	}
	fputc('\n', f);
	if (p->io_delta >= 0) {
		char iv[32];
		fmt_seconds(iv, sizeof(iv), r->sample_s);
		fprintf(f, "%*sio         +%lld bytes read or written in the last %s\n", ind, "", p->io_delta, iv);
	}
	/* The threads that burn CPU, hottest first (three at most). */
	int said[3] = { -1, -1, -1 };
	for (int n = 0; n < 3; n++) {
		for (size_t k = 0; k < p->nthr; k++) {
			const struct proc_thread *t = &p->thr[k];
			if (!live_thread_hot(t, r->sample_s) || (int)k == said[0] || (int)k == said[1])
				continue;
			if (said[n] < 0 || t->cpu_s_delta > p->thr[said[n]].cpu_s_delta)
				said[n] = (int)k;
		}
		if (said[n] < 0)
			break;
		const struct proc_thread *t = &p->thr[said[n]];
		fprintf(f, "%*s%s tid %d ", ind, "", n ? "          " : "hot thread", t->tid);
		fputc('(', f);
		text(f, t->comm);
		fprintf(f, ") at %.0f%% CPU, state %c\n", 100.0 * t->cpu_s_delta / r->sample_s, t->state);
	}
	if (p->syscall || (p->wchan && *p->wchan)) {
		fprintf(f, "%*sin         ", ind, "");
		if (p->syscall) {
			text(f, p->syscall);
			if (p->syscall_arg) {
				fputs(" (", f);
				text(f, p->syscall_arg);
				fputc(')', f);
			}
		}
		if (p->wchan && *p->wchan) {
			fprintf(f, "%swchan ", p->syscall ? ", " : "");
			text(f, p->wchan);
		}
		fputc('\n', f);
	}
	for (size_t k = 0; k < p->nlistening; k++) {
		char *name = proc_sock_name(&p->listening[k]);
		fprintf(f, "%*slistens    ", ind, "");
		text(f, name);
		fputc('\n', f);
		free(name);
	}
	if (p->gpu_mem_mib >= 0 || p->gpu_util_pct >= 0) {
		fprintf(f, "%*sgpu        ", ind, "");
		if (p->gpu_mem_mib >= 0)
			fprintf(f, "%ld MiB", p->gpu_mem_mib);
		if (p->gpu_util_pct >= 0)
			fprintf(f, "%sSM %d%%", p->gpu_mem_mib >= 0 ? ", " : "", p->gpu_util_pct);
		fputc('\n', f);
	}
	for (size_t k = 0; k < p->nunreadable; k++) {
		fprintf(f, "%*sunreadable ", ind, "");
		text(f, p->unreadable[k]);
		fputc('\n', f);
	}
	if (p->stack) {
		fprintf(f, "%*sstack\n", ind, "");
		for (const char *s = p->stack; *s;) {
			size_t n = strcspn(s, "\n");
			fprintf(f, "%*s  ", ind, "");
			put_text(f, s, n);
			fputc('\n', f);
			s += n + (s[n] == '\n');
		}
	}
}

void report_proc_text(const struct out *o, const struct live_report *r)
{
	FILE *f = o->f;
	const char *col = strcmp(r->liveness, "hung") == 0 || strcmp(r->liveness, "exited") == 0
		? SGR_RED(o) : strcmp(r->liveness, "busy") == 0 || strcmp(r->liveness, "idle") == 0
		? SGR_GREEN(o) : SGR_YELLOW(o);
	if (r->log_path) {
		text(f, r->log_path);
		fputs(r->log_deleted ? " (deleted): " : ": ", f);
	}
	fprintf(f, "%s", col);
	text(f, r->verdict);
	fprintf(f, "%s\n", SGR_RESET(o));
	if (r->nprocs)
		fputc('\n', f);
	for (size_t i = 0; i < r->nprocs; i++)
		text_process(o, r, &r->procs[i]);
	if (r->port || r->nnotes || r->ngpus)
		fputc('\n', f);
	if (r->port) {
		fprintf(f, "  port      %u, from line %zu: ", r->port, r->port_line);
		text(f, r->port_text);
		fputc('\n', f);
		fprintf(f, "            ");
		if (!r->port_listening)
			fputs("nobody on this machine listens on it\n", f);
		else if (r->port_in_tree)
			fprintf(f, "listening (pid %d)\n", r->port_pid);
		else if (r->port_pid)
			fprintf(f, "listening, but by pid %d, which is not one of these processes\n", r->port_pid);
		else
			fputs("listening, by a process ddx may not inspect\n", f);
	}
	for (size_t k = 0; k < r->ngpus; k++) {
		const struct nvml_gpu *g = &r->gpus[k];
		fprintf(f, "  gpu %-5u ", g->index);
		if (g->util_pct >= 0)
			fprintf(f, "%d%% busy", g->util_pct);
		else
			fputs("utilisation unknown", f);
		if (g->mem_used_mib >= 0)
			fprintf(f, ", %ld of %ld MiB used", g->mem_used_mib, g->mem_total_mib);
		fputc('\n', f);
	}
	for (size_t k = 0; k < r->nnotes; k++) {
		fputs("  note      ", f);
		text(f, r->notes[k]);
		fputc('\n', f);
	}
}
