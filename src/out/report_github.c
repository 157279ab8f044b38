/* report_github.c — the finding where GitHub Actions users look: an
 * annotation on the bad log's line (a workflow command on stdout, which
 * the runner shows on the job's page), and the first sentence with the
 * line that says what happened appended to the job's Markdown summary
 * ($GITHUB_STEP_SUMMARY).  See report.h.
 *
 * Log text reaches both.  In the workflow command it is escaped as the
 * runner unescapes it (%25, %0D, %0A; in a property also %3A, %2C), so
 * no line of a log can end the command and start another ("::add-mask::",
 * "::stop-commands::"); other control bytes become '?', as no terminal
 * escape may pass.  In the Markdown, HTML's characters are escaped and a
 * quoted line sits in a code fence longer than any run of backticks in
 * it, so it cannot close the fence. */
#include "report.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "report_impl.h"
#include "util.h"

/* s escaped for a workflow command: its message (prop 0) or a property. */
static void put_command_text(FILE *f, const char *s, int prop)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '%')
			fputs("%25", f);
		else if (c == '\r')
			fputs("%0D", f);
		else if (c == '\n')
			fputs("%0A", f);
		else if (prop && c == ':')
			fputs("%3A", f);
		else if (prop && c == ',')
			fputs("%2C", f);
		else if (c < 0x20 || c == 0x7f)
			fputc('?', f);
		else
			fputc(c, f);
	}
}

/* The annotation's level: a run that failed is an error, one that
 * differs a warning, a clean one a notice. */
static const char *level(int verdict)
{
	switch (verdict) {
	case DX_SAME:
	case DX_RUNNING:
		return "notice";
	case DX_DIFFERENT:
	case DX_INTERRUPTED:
		return "warning";
	default:
		return "error";
	}
}

/* The bad log's line the finding points at (0-based): the crash's
 * summary line, else where it left the good run; -1 for none. */
static int64_t point(const struct diagnosis *d)
{
	if (d->crash != DX_NONE)
		return d->novel[d->crash].summary;
	return d->bad_line;
}

/* Where line i is as a file and a 1-based line: a folder run's file
 * under its folder, else the log itself.  *file malloc'd. */
static size_t where(const struct diagnosis *d, int64_t i, char **file)
{
	size_t line;
	const char *f = i >= 0 ? log_origin(d->bad_log, (size_t)i, &line) : NULL;
	if (f) {
		*file = xasprintf("%s/%s", d->bad_log->in.path, f);
		return line;
	}
	*file = xstrdup(d->bad_log->in.path);
	return i >= 0 ? (size_t)i + 1 : 0;
}

static void put_html_text(FILE *f, const char *s, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		unsigned char c = (unsigned char)s[k];
		if (c == '<')
			fputs("&lt;", f);
		else if (c == '>')
			fputs("&gt;", f);
		else if (c == '&')
			fputs("&amp;", f);
		else if (c < 0x20 && c != '\t')
			fputc('?', f);
		else
			fputc(c, f);
	}
}

/* The Markdown summary of d, to f. */
static void summary_markdown(FILE *f, const struct diagnosis *d, const char *sentence)
{
	fprintf(f, "### ddx: %s\n\n", dx_verdict_name(d->verdict));
	put_html_text(f, sentence, strlen(sentence));
	fputs("\n\n", f);
	int64_t i = point(d);
	if (i < 0)
		return;
	struct quote q = { 0 };
	quote_line(&q, d->bad_log, i);
	size_t run = 0, most = 0;
	for (size_t k = 0; k < q.ln.len; k++) {
		run = q.ln.text[k] == '`' ? run + 1 : 0;
		if (run > most)
			most = run;
	}
	char *file;
	size_t line = where(d, i, &file);
	fputs("`", f);
	put_html_text(f, file, strlen(file));
	fprintf(f, ":%zu`\n\n", line);
	free(file);
	for (size_t k = 0; k < (most < 3 ? 3 : most + 1); k++)
		fputc('`', f);
	fputc('\n', f);
	for (size_t k = 0; k < q.ln.len; k++) {
		unsigned char c = (unsigned char)q.ln.text[k];
		fputc(c < 0x20 && c != '\t' ? '?' : c, f);
	}
	fputc('\n', f);
	for (size_t k = 0; k < (most < 3 ? 3 : most + 1); k++)
		fputc('`', f);
	fputs("\n\n", f);
	buf_free(&q.scratch);
}

/* Append the summary to the file $GITHUB_STEP_SUMMARY names, which the
 * runner made for it; never to one of the logs read. */
static int append_summary(const struct diagnosis *d, const struct log *logs, size_t nlogs,
			  const char *sentence)
{
	const char *path = getenv("GITHUB_STEP_SUMMARY");
	if (!path || !*path)
		return 0;
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return error("cannot write the job summary '%s': %s", path, strerror(errno));
	struct stat st, ls;
	if (fstat(fd, &st) == 0)
		for (size_t k = 0; k < nlogs; k++)
			if (stat(logs[k].in.path, &ls) == 0 && ls.st_dev == st.st_dev && ls.st_ino == st.st_ino) {
				close(fd);
				return error("the job summary '%s' is a log ddx reads: not written", path);
			}
	FILE *f = fdopen(fd, "a");
	if (!f) {
		close(fd);
		return error("cannot write the job summary '%s': %s", path, strerror(errno));
	}
	summary_markdown(f, d, sentence);
	if (fclose(f) != 0)
		return error("cannot write the job summary '%s': %s", path, strerror(errno));
	return 0;
}

int report_github(FILE *f, const struct diagnosis *d, const struct log *logs, size_t nlogs)
{
	char *sentence = report_summary(d);
	int64_t i = point(d);
	char *file;
	size_t line = where(d, i, &file);
	fprintf(f, "::%s file=", level(d->verdict));
	put_command_text(f, file, 1);
	if (line)
		fprintf(f, ",line=%zu", line);
	fprintf(f, ",title=ddx%%3A %s::", dx_verdict_name(d->verdict));
	put_command_text(f, sentence, 0);
	fputc('\n', f);
	free(file);
	int rc = append_summary(d, logs, nlogs, sentence);
	free(sentence);
	return rc;
}
