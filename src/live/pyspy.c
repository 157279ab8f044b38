/* pyspy.c — Python stacks through py-spy.  See pyspy.h. */
#include "pyspy.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

static char *find_on_path(const char *prog)
{
	const char *path = getenv("PATH");
	if (!path)
		return NULL;
	while (*path) {
		size_t n = strcspn(path, ":");
		char *cand = xasprintf("%.*s/%s", (int)n, path, prog);
		if (n && access(cand, X_OK) == 0)
			return cand;
		free(cand);
		path += n + (path[n] == ':');
	}
	return NULL;
}

char *pyspy_find(void)
{
	return find_on_path("py-spy");
}

int pyspy_dump(const char *exe, int pid, int timeout_ms, int native, char **out)
{
	int pfd[2];
	*out = NULL;
	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -1;
	pid_t child = fork();
	if (child < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	if (child == 0) {
		char spid[16];
		snprintf(spid, sizeof(spid), "%d", pid);
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		int devnull = open("/dev/null", O_RDONLY);
		if (devnull >= 0)
			dup2(devnull, 0);
		if (native)
			execl(exe, "py-spy", "dump", "--native", "--pid", spid, (char *)NULL);
		else
			execl(exe, "py-spy", "dump", "--nonblocking", "--pid", spid, (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	struct buf b = { .max = 1 << 16 };
	int64_t deadline = now_ms() + timeout_ms;
	int timed_out = 0;
	for (;;) {
		int64_t left = deadline - now_ms();
		if (left <= 0) {
			timed_out = 1;
			break;
		}
		struct pollfd pf = { pfd[0], POLLIN, 0 };
		int k = poll(&pf, 1, (int)left);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			timed_out = k == 0;
			break;
		}
		char chunk[4096];
		ssize_t n = read(pfd[0], chunk, sizeof(chunk));
		if (n <= 0)
			break;
		buf_append(&b, chunk, (size_t)n);
	}
	close(pfd[0]);
	if (timed_out)
		kill(child, SIGKILL);
	int status = 0;
	while (waitpid(child, &status, 0) < 0 && errno == EINTR)
		;
	*out = b.len ? xasprintf("%.*s", (int)b.len, b.p) : xstrdup("");
	buf_free(&b);
	if (timed_out)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
