/* terminal.c — the terminal's width and the pager (see terminal.h). */
#include "terminal.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

enum { WIDTH_DEFAULT = 120, WIDTH_MIN = 80, WIDTH_MAX = 512 };

int term_width(void)
{
	static int width;
	if (width)
		return width;
	const char *env = getenv("COLUMNS");
	char *end;
	long n = env ? strtol(env, &end, 10) : 0;
	struct winsize ws;
	if (!env || *env == '\0' || *end != '\0' || n <= 0) {
		n = WIDTH_DEFAULT;
		if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 &&
		    ws.ws_col > 0)
			n = ws.ws_col;
	}
	width = n < WIDTH_MIN ? WIDTH_MIN : n > WIDTH_MAX ? WIDTH_MAX : (int)n;
	return width;
}

static int pager_allowed = 1;
static pid_t pager_pid;

void pager_init(int allowed)
{
	pager_allowed = allowed;
}

/* Close our end of the pipe so the pager sees the end, then wait for the
 * user to quit it.  Async-signal-safe: pager_signal calls it. */
static void pager_close(void)
{
	close(STDOUT_FILENO);
	while (pager_pid > 0 && waitpid(pager_pid, NULL, 0) < 0)
		;
	pager_pid = 0;
}

static void pager_wait(void)
{
	fflush(stdout);
	pager_close();
}

static void pager_signal(int sig)
{
	pager_close();
	signal(sig, SIG_DFL);
	raise(sig);
}

void pager_start(void)
{
	if (!pager_allowed || pager_pid || !isatty(STDOUT_FILENO))
		return;
	const char *pager = getenv("DDX_PAGER");
	if (!pager)
		pager = getenv("PAGER");
	if (!pager)
		pager = "less -FRX";
	if (*pager == '\0' || strcmp(pager, "cat") == 0)
		return;
	term_width(); /* of the terminal, before stdout becomes the pipe */
	int fd[2];
	if (pipe(fd) < 0)
		return; /* unpaged output is still output */
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return;
	}
	if (pid == 0) {
		dup2(fd[0], STDIN_FILENO);
		close(fd[0]);
		close(fd[1]);
		execl("/bin/sh", "sh", "-c", pager, (char *)NULL);
		error("cannot run the pager '%s'", pager);
		_exit(127);
	}
	dup2(fd[1], STDOUT_FILENO);
	close(fd[0]);
	close(fd[1]);
	pager_pid = pid;
	atexit(pager_wait);
	signal(SIGINT, pager_signal);
	signal(SIGTERM, pager_signal);
	signal(SIGHUP, pager_signal);
}
