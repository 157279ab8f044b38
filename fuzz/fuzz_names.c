/* fuzz_names.c — the strings from files that are not log lines: file
 * names, a rule file's engine and milestone names, the tags (ranks,
 * processes) of a log's lines.  The input is lines: a file name, an
 * engine, a milestone name, a tag and a message, any bytes but '\n'.
 * They make a rule file, a good log and a bad one (named after the file
 * name, so a name may hold escape sequences, C1 controls or
 * right-to-left overrides), and every command that prints them runs as
 * a user runs it: templates and parse (text, JSON), phases and diff with
 * the rule file (text, JSON, the HTML page) and watch.  Each must end
 * with exit 0, 1 or 2, and print nothing a terminal would act on, on
 * stdout or stderr (messages name files and quote rule files), nor put
 * it in the page: every such string goes through the escaping writer.
 *
 * main.c is compiled with main renamed to ddx_main for this target. */
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_run.h"


/* Longest file name made (NAME_MAX is 255, with room for suffixes). */
#define NAME_LEN 200

static char dir[200];
static int out_fd = -1;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" :
			   getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	snprintf(dir, sizeof(dir), "%s/ddx-fuzz-names-XXXXXX", base);
	if (!mkdtemp(dir))
		abort();
	out_fd = memfd_create("fuzz.out", 0);
	if (out_fd < 0)
		abort();
	setenv("XDG_CONFIG_HOME", "/nonexistent", 1);
	setenv("NO_COLOR", "1", 1);
	return 0;
}

static void run(char **argv)
{
	fuzz_run_ddx(argv, out_fd, 1);
	fuzz_check_fd(out_fd, 0);
}

static void write_file(const char *path, const struct buf *b)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, b->p ? b->p : "", b->len) != (ssize_t)b->len)
		abort();
	close(fd);
}

/* Field k of the input, or "" past its last line. */
static struct buf field(const struct fuzz_lines *fl, size_t k)
{
	struct buf b = { 0 };
	buf_append(&b, "", 0);
	if (k < fl->n)
		buf_append(&b, fl->p[k], fl->len[k]);
	return b;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_lines fl;
	fuzz_lines_split(&fl, data, size, 5);
	struct buf name = field(&fl, 0), engine = field(&fl, 1), ms = field(&fl, 2),
		   tag = field(&fl, 3), msg = field(&fl, 4);
	fuzz_lines_free(&fl);
	/* A file name: no '/' or NUL, not "." or "..", at most NAME_LEN. */
	if (name.len > NAME_LEN)
		name.len = NAME_LEN, name.p[NAME_LEN] = '\0';
	for (size_t i = 0; i < name.len; i++)
		if (name.p[i] == '/' || name.p[i] == '\0')
			name.p[i] = '_';
	if (name.len == 0 || strcmp(name.p, ".") == 0 || strcmp(name.p, "..") == 0)
		buf_append(&name, "_", 1);
	char *bad = xasprintf("%s/%s", dir, name.p), *good = xasprintf("%s.good", bad),
	     *rules = xasprintf("%s.rules", bad), *page = xasprintf("%s.html", bad);

	struct buf b = { 0 };
	buf_putc(&b, '[');
	buf_append(&b, engine.p, engine.len);
	buf_append(&b, "]\nstep ", 7);
	buf_append(&b, ms.p, ms.len);
	buf_printf(&b, ": weights loaded\nfinal ");
	buf_append(&b, ms.p, ms.len);
	buf_printf(&b, " up: server ready\n");
	write_file(rules, &b);
	/* Lines tagged as SGLang's ranks are ("[time TP0] message"). */
	static const char *const good_msgs[] = { "starting", "weights loaded", "server ready" };
	buf_reset(&b);
	for (int i = 0; i < 3; i++) {
		buf_printf(&b, "[2026-01-01 00:00:0%d ", i);
		buf_append(&b, tag.p, tag.len);
		buf_printf(&b, "] %s ", good_msgs[i]);
		buf_append(&b, msg.p, msg.len);
		buf_putc(&b, '\n');
	}
	write_file(good, &b);
	buf_reset(&b);
	for (int i = 0; i < 2; i++) {
		buf_printf(&b, "[2026-01-01 00:01:0%d ", i);
		buf_append(&b, tag.p, tag.len);
		buf_printf(&b, "] %s ", good_msgs[i]);
		buf_append(&b, msg.p, msg.len);
		buf_putc(&b, '\n');
	}
	buf_printf(&b, "[2026-01-01 00:01:02 ");
	buf_append(&b, tag.p, tag.len);
	buf_printf(&b, "] ERROR ");
	buf_append(&b, msg.p, msg.len);
	buf_putc(&b, '\n');
	write_file(bad, &b);
	buf_free(&b);

	run((char *[]){ "ddx", "templates", good, bad, NULL });
	run((char *[]){ "ddx", "templates", "--json", good, bad, NULL });
	run((char *[]){ "ddx", "parse", good, bad, NULL });
	run((char *[]){ "ddx", "parse", "--json", bad, NULL });
	run((char *[]){ "ddx", "phases", "--rules", rules, good, NULL });
	run((char *[]){ "ddx", "phases", "--rules", rules, "--json", bad, NULL });
	run((char *[]){ "ddx", "diff", "--rules", rules, "--no-proc", "--now=+60", good, bad, NULL });
	run((char *[]){ "ddx", "diff", "--rules", rules, "--no-proc", "--json", good, bad, NULL });
	unlink(page);
	run((char *[]){ "ddx", "diff", "--rules", rules, "--no-proc", "--html", page, good, bad, NULL });
	int fd = open(page, O_RDONLY);
	if (fd >= 0) {
		fuzz_check_fd(fd, 0);
		close(fd);
	}
	run((char *[]){ "ddx", "watch", "--rules", rules, "--interval", "1ms", "--timeout", "1ms",
			bad, "--ref", good, NULL });
	/* A log that never appears: watch names it while it waits. */
	unlink(bad);
	run((char *[]){ "ddx", "watch", "--interval", "1ms", "--timeout", "1ms", bad, "--ref", good,
			NULL });

	unlink(good);
	unlink(rules);
	unlink(page);
	free(bad), free(good), free(rules), free(page);
	buf_free(&name), buf_free(&engine), buf_free(&ms), buf_free(&tag), buf_free(&msg);
	return 0;
}
