/* replay — a pretend server for the `ddx watch` and `ddx diff` tests:
 * writes the lines of a recorded log again, with the gaps between their
 * timestamps divided by a speed-up, the way the run that wrote them did.
 *
 * usage: replay [-x SPEEDUP] [-n LINES] [-H] [-o PATH] [-R N] [-T N]
 *               [-a SEC] LOG
 *   -x SPEEDUP  divide the gaps by this (default 100); a gap is the
 *               difference of the first HH:MM:SS[.fff] in consecutive
 *               lines that have one, and is capped at 5 s after dividing
 *   -n LINES    write only the first LINES lines
 *   -H          after the last line, hang (block in futex, holding the
 *               output open) instead of exiting
 *   -o PATH     append each line to PATH, opened anew for every line
 *               (O_APPEND | O_CREAT), like a logger that reopens its
 *               file: it follows a rotation and a truncation; without
 *               -o, lines go to stdout
 *   -R N        after line N, rotate PATH: rename it to PATH.1, so the
 *               next line creates a new PATH (needs -o)
 *   -T N        after line N, truncate PATH to nothing (needs -o)
 *   -a SEC      end after SEC seconds whatever happens (default 120),
 *               so a test that fails to clean up leaves nothing behind
 * Writes each line with one write(2), so a reader never sees half of
 * one unless it is longer than a pipe buffer.  Leads a process group of
 * its own, so `kill -- -PID` ends it whatever its parent does. */
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int futex_word;

static void die(const char *what)
{
	fprintf(stderr, "replay: %s: %s\n", what, strerror(errno));
	exit(2);
}

/* Seconds since midnight of the first HH:MM:SS[.fff] in s, or -1. */
static double time_of(const char *s, size_t n)
{
	for (size_t i = 0; i + 8 <= n; i++) {
		const char *p = s + i;
		int ok = 1;
		for (int k = 0; k < 8 && ok; k++)
			ok = k == 2 || k == 5 ? p[k] == ':' : p[k] >= '0' && p[k] <= '9';
		if (!ok || (i > 0 && p[-1] >= '0' && p[-1] <= '9'))
			continue;
		double t = ((p[0] - '0') * 10 + p[1] - '0') * 3600.0 +
			   ((p[3] - '0') * 10 + p[4] - '0') * 60.0 + (p[6] - '0') * 10 + p[7] - '0';
		if (i + 9 < n && (p[8] == '.' || p[8] == ',')) {
			double scale = 0.1;
			for (size_t k = i + 9; k < n && s[k] >= '0' && s[k] <= '9'; k++, scale /= 10)
				t += (s[k] - '0') * scale;
		}
		return t;
	}
	return -1;
}

static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static void put(const char *path, const char *line, size_t n)
{
	int fd = path ? open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644) : 1;
	if (fd < 0)
		die(path);
	if (write(fd, line, n) != (ssize_t)n)
		die("write");
	if (path)
		close(fd);
}

int main(int argc, char **argv)
{
	double speed = 100;
	long nmax = -1, rotate = -1, trunc_at = -1;
	int hang = 0, c;
	const char *out = NULL;
	unsigned alarm_s = 120;
	while ((c = getopt(argc, argv, "x:n:Ho:R:T:a:")) != -1) {
		switch (c) {
		case 'x': speed = atof(optarg); break;
		case 'n': nmax = atol(optarg); break;
		case 'H': hang = 1; break;
		case 'o': out = optarg; break;
		case 'R': rotate = atol(optarg); break;
		case 'T': trunc_at = atol(optarg); break;
		case 'a': alarm_s = (unsigned)atoi(optarg); break;
		default: return 2;
		}
	}
	if (optind + 1 != argc || speed <= 0 || ((rotate >= 0 || trunc_at >= 0) && !out)) {
		fprintf(stderr, "usage: replay [-x SPEEDUP] [-n LINES] [-H] [-o PATH] [-R N] [-T N] [-a SEC] LOG\n");
		return 2;
	}
	setpgid(0, 0);
	alarm(alarm_s);
	FILE *in = fopen(argv[optind], "r");
	if (!in)
		die(argv[optind]);
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	double prev = -1;
	for (long k = 1; (nmax < 0 || k <= nmax) && (n = getline(&line, &cap, in)) > 0; k++) {
		double t = time_of(line, (size_t)n);
		if (t >= 0 && prev >= 0) {
			double gap = t - prev;
			if (gap < -43200)
				gap += 86400;   /* past midnight */
			if (gap > 0)
				sleep_s(gap / speed > 5 ? 5 : gap / speed);
		}
		if (t >= 0)
			prev = t;
		put(out, line, (size_t)n);
		if (k == rotate) {
			char *to = malloc(strlen(out) + 3);
			sprintf(to, "%s.1", out);
			if (rename(out, to) < 0)
				die("rename");
			free(to);
		}
		if (k == trunc_at && truncate(out, 0) < 0)
			die("truncate");
	}
	free(line);
	fclose(in);
	while (hang)
		syscall(SYS_futex, &futex_word, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
	return 0;
}
