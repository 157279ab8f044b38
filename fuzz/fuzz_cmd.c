/* fuzz_cmd.c — the commands as a user runs them (ddx templates, parse,
 * phases and diff, as text and as JSON) on logs of any bytes (diff: the
 * input's first half as the good log, all of it as the bad one; and the
 * HTML report, which must hold no raw control byte either), checking what they
 * print: text output holds no escape or other control character a
 * terminal would act on, JSON output no raw control character and only
 * valid UTF-8.
 */
#include <sys/mman.h>

#include "fuzz_run.h"

static int in_fd = -1, half_fd = -1, out_fd = -1;
static char path[64], half[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	in_fd = memfd_create("fuzz.log", 0);
	half_fd = memfd_create("fuzz-half.log", 0);
	out_fd = memfd_create("fuzz.out", 0);
	if (in_fd < 0 || half_fd < 0 || out_fd < 0)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", in_fd);
	snprintf(half, sizeof(half), "/proc/self/fd/%d", half_fd);
	/* No user rule file, no colour. */
	setenv("XDG_CONFIG_HOME", "/nonexistent", 1);
	setenv("NO_COLOR", "1", 1);
	return 0;
}

/* Run `ddx cmd [opt] [good] path` with stdout captured, and check it. */
static void run(const char *cmd, const char *opt, const char *good)
{
	char *argv[8];
	int argc = 0;
	argv[argc++] = "ddx";
	argv[argc++] = "--color=never";
	argv[argc++] = (char *)cmd;
	if (opt)
		argv[argc++] = (char *)opt;
	if (good) {
		argv[argc++] = "--no-proc";
		argv[argc++] = (char *)good;
	}
	argv[argc++] = path;
	argv[argc] = NULL;
	fuzz_run_ddx(argv, out_fd, 0);
	fuzz_check_fd(out_fd, opt && strcmp(opt, "--json") == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Compressed data is fuzz_input's (see fuzz_log.c). */
	if ((size >= 2 && memcmp(data, "\x1f\x8b", 2) == 0) ||
	    (size >= 4 && memcmp(data, "\x28\xb5\x2f\xfd", 4) == 0))
		return -1;
	if (ftruncate(in_fd, 0) < 0 || pwrite(in_fd, data, size, 0) != (ssize_t)size)
		abort();
	static const char *const cmds[] = { "templates", "parse", "phases" };
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		run(cmds[i], NULL, NULL);
		run(cmds[i], "--json", NULL);
	}
	if (ftruncate(half_fd, 0) < 0 || pwrite(half_fd, data, size / 2, 0) != (ssize_t)(size / 2))
		abort();
	run("diff", "--now=+60", half);
	run("diff", "--json", half);
	return 0;
}
