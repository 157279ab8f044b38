/* report_proc.c — printing what live.c found behind a log: `ddx proc`'s
 * text and JSON (schema 1, see cmd_proc.c), and the "processes" array
 * that `ddx diff --json` embeds.  All text from the processes and the
 * log goes through put_text / put_json_string. */
#include "report_proc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "prefix.h"
#include "util.h"

static void json_sock(FILE *f, const struct proc_sock *s)
{
	fprintf(f, "{\"proto\": \"%s\", ", s->proto);
	if (strcmp(s->proto, "unix") == 0) {
		fputs("\"path\": ", f);
		json_str(f, s->addr);
	} else {
		fputs("\"addr\": ", f);
		json_str(f, s->addr);
		fprintf(f, ", \"port\": %u", s->port);
	}
	fputc('}', f);
}

void report_proc_processes_json(FILE *f, const struct live_report *r)
{
	fputc('[', f);
	for (size_t i = 0; i < r->nprocs; i++) {
		const struct proc_info *p = &r->procs[i];
		fprintf(f, "%s\n    {\"pid\": %d, \"ppid\": %d, \"depth\": %d, \"comm\": ",
			i ? "," : "", p->pid, p->ppid, p->depth);
		json_str(f, p->gone ? NULL : p->comm);
		fputs(", \"cmdline\": ", f);
		json_str(f, p->cmdline);
		fprintf(f, ", \"holds_log\": %s, \"log_fds\": [", p->holds_log ? "true" : "false");
		for (int k = 0; k < p->nlog_fds; k++)
			fprintf(f, "%s%d", k ? ", " : "", p->log_fds[k]);
		fputs("], \"state\": ", f);
		if (p->state == '?')
			fputs("null", f);
		else
			fprintf(f, "\"%c\"", p->state);
		fputs(", \"wchan\": ", f);
		json_str(f, p->wchan);
		fputs(", \"syscall\": ", f);
		json_str(f, p->syscall);
		fputs(", \"syscall_arg\": ", f);
		json_str(f, p->syscall_arg);
		fputs(", \"cpu_s\": ", f);
		json_num(f, p->gone ? NAN : p->cpu_s, 2);
		fputs(", \"cpu_s_delta\": ", f);
		json_num(f, p->cpu_s_delta, 2);
		fprintf(f, ", \"threads\": %d, \"thread_states\": ", p->threads);
		json_str(f, p->thread_states[0] ? p->thread_states : NULL);
		fprintf(f, ", \"rss_kb\": %ld, \"start_time\": ", p->rss_kb);
		json_time(f, p->start_epoch > 0 ? (int64_t)(p->start_epoch * 1000) : TS_NONE);
		fputs(", \"age_s\": ", f);
		json_num(f, p->age_s < 0 ? NAN : p->age_s, 0);
		fputs(", \"listening\": [", f);
		for (size_t k = 0; k < p->nlistening; k++) {
			if (k)
				fputs(", ", f);
			json_sock(f, &p->listening[k]);
		}
		fputs("], \"gpu_mem_mib\": ", f);
		if (p->gpu_mem_mib < 0)
			fputs("null", f);
		else
			fprintf(f, "%ld", p->gpu_mem_mib);
		fputs(", \"gpu_util_pct\": ", f);
		if (p->gpu_util_pct < 0)
			fputs("null", f);
		else
			fprintf(f, "%d", p->gpu_util_pct);
		fputs(", \"rank\": ", f);
		json_str(f, p->rank[0] ? p->rank : NULL);
		fprintf(f, ", \"kernel_thread\": %s, \"io_delta\": ", p->kernel_thread ? "true" : "false");
		if (p->io_delta < 0)
			fputs("null", f);
		else
			fprintf(f, "%lld", p->io_delta);
		fputs(", \"activity\": ", f);
		if (p->gone || p->state == 'Z') {
			fputs("null", f);
		} else {
			char act[96];
			live_activity(p, r->sample_s, act, sizeof(act));
			json_str(f, act);
		}
		fputs(", \"hot_threads\": [", f);
		for (size_t k = 0, n = 0; k < p->nthr; k++) {
			if (!live_thread_hot(&p->thr[k], r->sample_s))
				continue;
			fprintf(f, "%s{\"tid\": %d, \"comm\": ", n++ ? ", " : "", p->thr[k].tid);
			json_str(f, p->thr[k].comm);
			fputs(", \"cpu_pct\": ", f);
			json_num(f, 100.0 * p->thr[k].cpu_s_delta / r->sample_s, 0);
			fputc('}', f);
		}
		fputs("], \"stack\": ", f);
		json_str(f, p->stack);
		fputs(", \"unreadable\": ", f);
		json_strs(f, p->unreadable, p->nunreadable);
		fputc('}', f);
	}
	fputs(r->nprocs ? "\n  ]" : "]", f);
}

void report_proc_json(FILE *f, const struct live_report *r)
{
	fputs("{\n  \"schema\": 1,\n  \"log\": {\"path\": ", f);
	json_str(f, r->log_path);
	fputs(", \"silent_s\": ", f);
	json_num(f, r->silent_s, 1);
	fprintf(f, ", \"deleted\": %s, \"grew\": %s},\n  \"processes\": ",
		r->log_deleted ? "true" : "false", r->log_grew ? "true" : "false");
	report_proc_processes_json(f, r);
	fputs(",\n  \"port\": ", f);
	if (r->port) {
		fprintf(f, "{\"expected\": %u, \"from_line\": %zu, \"text\": ", r->port, r->port_line);
		json_str(f, r->port_text);
		fprintf(f, ", \"listening\": %s, \"in_tree\": %s, \"pid\": ",
			r->port_listening ? "true" : "false", r->port_in_tree ? "true" : "false");
		if (r->port_pid)
			fprintf(f, "%d}", r->port_pid);
		else
			fputs("null}", f);
	} else {
		fputs("null", f);
	}
	fputs(",\n  \"reference\": ", f);
	if (r->have_ref) {
		fputs("{\"gap_s\": ", f);
		json_num(f, r->ref_gap_s, 1);
		fputs(", \"limit_s\": ", f);
		json_num(f, r->ref_limit_s, 1);
		fputc('}', f);
	} else {
		fputs("null", f);
	}
	fputs(",\n  \"gpus\": [", f);
	for (size_t k = 0; k < r->ngpus; k++) {
		const struct nvml_gpu *g = &r->gpus[k];
		fprintf(f, "%s{\"index\": %u, \"util_pct\": ", k ? ", " : "", g->index);
		json_num(f, g->util_pct < 0 ? NAN : g->util_pct, 0);
		fputs(", \"mem_used_mib\": ", f);
		json_num(f, g->mem_used_mib < 0 ? NAN : (double)g->mem_used_mib, 0);
		fputs(", \"mem_total_mib\": ", f);
		json_num(f, g->mem_total_mib < 0 ? NAN : (double)g->mem_total_mib, 0);
		fputc('}', f);
	}
	fputs("],\n  \"odd_one_out\": ", f);
	if (r->odd_pid)
		fprintf(f, "%d", r->odd_pid);
	else
		fputs("null", f);
	fprintf(f, ",\n  \"sample_s\": %.3f,\n  \"liveness\": \"%s\",\n  \"verdict\": ",
		r->sample_s, r->liveness);
	json_str(f, r->verdict);
	fputs(",\n  \"notes\": ", f);
	json_strs(f, r->notes, r->nnotes);
	fputs("\n}", f);
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

static void text_process(FILE *f, const struct live_report *r, const struct proc_info *p)
{
	int ind = 2 + 2 * p->depth;
	fprintf(f, "%*s%spid %d%s  ", ind, "", C_BOLD, p->pid, C_RESET);
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

void report_proc_text(FILE *f, const struct live_report *r)
{
	const char *col = strcmp(r->liveness, "hung") == 0 || strcmp(r->liveness, "exited") == 0 ? C_RED :
			  strcmp(r->liveness, "busy") == 0 || strcmp(r->liveness, "idle") == 0 ? C_GREEN : C_YELLOW;
	if (r->log_path) {
		text(f, r->log_path);
		fputs(r->log_deleted ? " (deleted): " : ": ", f);
	}
	fprintf(f, "%s", col);
	text(f, r->verdict);
	fprintf(f, "%s\n", C_RESET);
	if (r->nprocs)
		fputc('\n', f);
	for (size_t i = 0; i < r->nprocs; i++)
		text_process(f, r, &r->procs[i]);
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
