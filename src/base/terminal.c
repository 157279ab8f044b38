/* terminal.c — the terminal's width and the pager (see terminal.h). */
#include "terminal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

enum { WIDTH_DEFAULT = 120, WIDTH_MIN = 40, WIDTH_MAX = 512 };

static int width, sized;

int term_width(void)
{
	if (width)
		return width;
	const char *env = getenv("COLUMNS");
	char *end;
	long n = env ? strtol(env, &end, 10) : 0;
	struct winsize ws;
	sized = 1;
	if (!env || *env == '\0' || *end != '\0' || n <= 0) {
		n = WIDTH_DEFAULT;
		sized = isatty(STDOUT_FILENO);
		if (sized && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
			n = ws.ws_col;
	}
	width = n < WIDTH_MIN ? WIDTH_MIN : n > WIDTH_MAX ? WIDTH_MAX : (int)n;
	return width;
}

int term_sized(void)
{
	term_width();
	return sized;
}

int term_colour(enum color_mode mode)
{
	const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");
	if (mode != COLOR_AUTO)
		return mode == COLOR_ALWAYS;
	if ((nc && *nc) || (term && strcmp(term, "dumb") == 0))
		return 0;
	return isatty(STDOUT_FILENO);
}

/* Columns of the character at s (len bytes, valid UTF-8). */
static size_t char_cols(const unsigned char *s, size_t len)
{
	uint32_t c = len == 1 ? s[0] : s[0] & (0x7f >> len);
	for (size_t k = 1; k < len; k++)
		c = c << 6 | (s[k] & 0x3f);
	if ((c >= 0x300 && c <= 0x36f) || (c >= 0x200b && c <= 0x200f) || (c >= 0xfe00 && c <= 0xfe0f))
		return 0;
	if ((c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0xa4cf && c != 0x303f) ||
	    (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0xfe30 && c <= 0xfe4f) ||
	    (c >= 0xff00 && c <= 0xff60) || (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x1f300 && c <= 0x1f64f) ||
	    (c >= 0x1f680 && c <= 0x1f6ff) || (c >= 0x1f900 && c <= 0x1faff) || (c >= 0x20000 && c <= 0x3fffd))
		return 2;
	return 1;
}

/* The bytes at s[i..n) that are one step of the line: an escape
 * sequence, a character (an invalid byte alone), *cols set to the
 * columns it takes at column col. */
static size_t step(const char *s, size_t i, size_t n, size_t col, size_t *cols)
{
	const unsigned char *u = (const unsigned char *)s;
	*cols = 0;
	if (u[i] == 0x1b && i + 1 < n && u[i + 1] == '[') {
		size_t k = i + 2;
		while (k < n && (u[k] < 0x40 || u[k] > 0x7e))
			k++;
		return (k < n ? k + 1 : n) - i;
	}
	if (u[i] == '\t') {
		*cols = 8 - col % 8;
		return 1;
	}
	size_t len = utf8_seq_len(u + i, n - i);
	*cols = len ? char_cols(u + i, len) : 1;
	return len ? len : 1;
}

size_t text_cols(const char *s, size_t n)
{
	size_t col = 0, w;
	for (size_t i = 0; i < n; col += w)
		i += step(s, i, n, col, &w);
	return col;
}

void put_fitted(FILE *f, const char *s, size_t n, size_t cols)
{
	if (text_cols(s, n) <= cols) {
		fwrite(s, 1, n, f);
		return;
	}
	/* fit: the bytes that leave a column for "…"; word: those before the
	 * last blank among them. */
	size_t col = 0, fit = 0, word = 0, w;
	int escaped = 0;
	for (size_t i = 0; i < n;) {
		size_t len = step(s, i, n, col, &w);
		if (col + w + 1 > cols)
			break;
		escaped |= s[i] == 0x1b;
		if (s[i] == ' ' && i > 0 && s[i - 1] != ' ')
			word = i;
		col += w;
		i += len;
		fit = i;
	}
	size_t cut = word * 2 >= fit && word > 0 ? word : fit;
	fwrite(s, 1, cut, f);
	fputs(escaped ? "…\033[0m" : "…", f);
}

void put_wrapped(FILE *f, const char *s, size_t n, size_t cols, size_t start, size_t indent)
{
	size_t at = 0, lead = start, w;
	if (indent >= cols / 2)
		indent = 0;
	while (at < n) {
		/* fit: the bytes of s[at..) that fit; word: up to its last blank. */
		size_t col = lead, fit = at, word = 0;
		for (size_t i = at; i < n;) {
			size_t len = step(s, i, n, col, &w);
			if (col + w > cols && fit > at)
				break;
			if (s[i] == ' ')
				word = i;
			col += w;
			i += len;
			fit = i;
		}
		size_t end = fit == n || !word ? fit : word;
		fwrite(s + at, 1, end - at, f);
		for (at = end; at < n && s[at] == ' '; at++)
			;
		if (at < n)
			fprintf(f, "\n%*s", (int)indent, "");
		lead = indent;
	}
}

static int pager_allowed = 1;
static pid_t pager_pid;

void pager_init(int allowed)
{
	pager_allowed = allowed;
}

/* Close our end of the pipe so the pager sees the end, then wait for the
 * user to quit it.  Only a signal's interruption is waited through: any
 * other failure (ECHILD: the pager was reaped elsewhere, or ddx was
 * orphaned when its terminal hung up) ends the wait, which would
 * otherwise spin forever.  Async-signal-safe: pager_signal calls it. */
static void pager_close(void)
{
	close(STDOUT_FILENO);
	while (pager_pid > 0 && waitpid(pager_pid, NULL, 0) < 0 && errno == EINTR)
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

/* The pager's words, when it is plain words that need no shell: run
 * straight, a pager that cannot start is known before any output goes
 * to it (see pager_start).  argv holds PAGER_WORDS + 1 entries; the
 * words are cut out of buf.  0 when the command needs a shell. */
#define PAGER_WORDS 16
static int pager_words(const char *cmd, char *buf, size_t size, char **argv)
{
	if (strlen(cmd) >= size || strpbrk(cmd, "|&;<>()$`\\\"'*?[#~=%\n"))
		return 0;
	strcpy(buf, cmd);
	int n = 0;
	for (char *w = strtok(buf, " \t"); w; w = strtok(NULL, " \t")) {
		if (n == PAGER_WORDS)
			return 0;
		argv[n++] = w;
	}
	argv[n] = NULL;
	return n;
}

void pager_start(void)
{
	if (!pager_allowed || pager_pid || !isatty(STDOUT_FILENO))
		return;
	const char *pager = getenv("DDX_PAGER");
	if (!pager)
		pager = getenv("PAGER");
	int named = pager != NULL;
	if (!pager)
		pager = "less -FRX";
	if (*pager == '\0' || strcmp(pager, "cat") == 0)
		return;
	char buf[1024], *argv[PAGER_WORDS + 1];
	int direct = pager_words(pager, buf, sizeof(buf), argv);
	term_width(); /* of the terminal, before stdout becomes the pipe */
	/* The child tells through status, closed on exec, that its exec
	 * failed: then the output stays on the terminal, unpaged, as git
	 * does when its pager is missing (a container without less). */
	int fd[2], status[2];
	if (pipe(fd) < 0)
		return; /* unpaged output is still output */
	if (pipe2(status, O_CLOEXEC) < 0) {
		close(fd[0]);
		close(fd[1]);
		return;
	}
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		close(status[0]);
		close(status[1]);
		return;
	}
	if (pid == 0) {
		dup2(fd[0], STDIN_FILENO);
		close(fd[0]);
		close(fd[1]);
		close(status[0]);
		if (direct)
			execvp(argv[0], argv);
		else
			execl("/bin/sh", "sh", "-c", pager, (char *)NULL);
		int e = errno;
		ssize_t told = write(status[1], &e, sizeof(e));
		_exit(told < 0 ? 126 : 127);   /* the parent reads what was told */
	}
	close(fd[0]);
	close(status[1]);
	int e;
	ssize_t got;
	while ((got = read(status[0], &e, sizeof(e))) < 0 && errno == EINTR)
		;
	close(status[0]);
	if (got > 0) {
		close(fd[1]);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		if (named)
			error("cannot run the pager '%s': %s; not paging", pager,
			      strerror(got == sizeof(e) ? e : EIO));
		return;
	}
	dup2(fd[1], STDOUT_FILENO);
	close(fd[1]);
	pager_pid = pid;
	atexit(pager_wait);
	signal(SIGINT, pager_signal);
	signal(SIGTERM, pager_signal);
	signal(SIGHUP, pager_signal);
}
