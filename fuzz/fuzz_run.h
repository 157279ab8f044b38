/* fuzz_run.h — ddx's commands run inside a fuzz target, and what they
 * print checked.  The targets that include it (fuzz_cmd, fuzz_names,
 * fuzz_store_sql) link main.c compiled with main renamed to ddx_main. */
#ifndef DDX_FUZZ_RUN_H
#define DDX_FUZZ_RUN_H

#include <getopt.h>
#include <unistd.h>

#include "fuzz.h"

int ddx_main(int argc, char **argv);

/* Check the bytes of fd from its start: as JSON, or as text for a
 * terminal (JSON with messages around it counts as text). */
static inline void fuzz_check_fd(int fd, int json)
{
	off_t n = lseek(fd, 0, SEEK_END);
	unsigned char *p = xmalloc(n > 0 ? (size_t)n : 1);
	FUZZ_CHECK(pread(fd, p, (size_t)n, 0) == n);
	fuzz_check_text(p, (size_t)n, json);
	free(p);
}

/* Run ddx with the NULL-ended argv, its standard output (and standard
 * error too, with_err) written into out_fd from its start, and check
 * that it exits as ddx exits: 0, 1 or 2. */
static inline void fuzz_run_ddx(char **argv, int out_fd, int with_err)
{
	int argc = 0;
	while (argv[argc])
		argc++;
	if (ftruncate(out_fd, 0) < 0 || lseek(out_fd, 0, SEEK_SET) < 0)
		abort();
	fflush(stdout);
	fflush(stderr);
	int saved_out = dup(STDOUT_FILENO), saved_err = with_err ? dup(STDERR_FILENO) : -1;
	dup2(out_fd, STDOUT_FILENO);
	if (with_err)
		dup2(out_fd, STDERR_FILENO);
	optind = 0;  /* getopt starts afresh */
	int rc = ddx_main(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, STDOUT_FILENO);
	close(saved_out);
	if (with_err) {
		dup2(saved_err, STDERR_FILENO);
		close(saved_err);
	}
	FUZZ_CHECK(rc == 0 || rc == 1 || rc == 2);
}

#endif
