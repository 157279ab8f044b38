/* Unit tests of input that changes under ddx: a mapped file that shrinks
 * while it is read, which would otherwise kill ddx with SIGBUS. */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "input.h"
#include "test.h"

#define BIG (3 << 20)

static char dir[] = "/tmp/ddx-test-hostile-XXXXXX";

static void write_file(const char *path, size_t size)
{
	char *p = malloc(size);
	for (size_t i = 0; i < size; i++)
		p[i] = i % 64 == 63 ? '\n' : 'a' + (char)(i % 26);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0 && write(fd, p, size) == (ssize_t)size);
	close(fd);
	free(p);
}

/* Run fn(in) in a child with stderr in a pipe: its exit status, and its
 * stderr in err. */
static int in_child(void (*fn)(struct input *), struct input *in, char *err, size_t errsize)
{
	int fds[2];
	if (pipe(fds) < 0)
		return -1;
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(fds[1], STDERR_FILENO);
		fn(in);
		_exit(0);
	}
	close(fds[1]);
	ssize_t n = read(fds[0], err, errsize - 1);
	err[n > 0 ? n : 0] = '\0';
	close(fds[0]);
	int status = 0;
	waitpid(pid, &status, 0);
	return status;
}

static void read_all_bytes(struct input *in)
{
	volatile unsigned sum = 0;
	for (size_t i = 0; i < in->size; i++)
		sum += (unsigned char)in->data[i];
}

static void raise_sigbus(struct input *in)
{
	(void)in;
	raise(SIGBUS);
}

/* Truncated after it was mapped: a read past the new end ends the
 * process with exit 2 and a message naming the file, escaped. */
static void test_shrink(void)
{
	char path[96], err[512], want[256];
	snprintf(path, sizeof(path), "%s/a\033]0;x\007.log", dir);
	write_file(path, BIG);
	struct input in;
	CHECK_INT(input_open(&in, path, 0), 0);
	CHECK(in.mapped);
	CHECK_INT(truncate(path, 100), 0);
	int status = in_child(read_all_bytes, &in, err, sizeof(err));
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 2);
	snprintf(want, sizeof(want), "ddx: cannot read '%s/a\\e]0;x\\x07.log': it shrank "
		 "while being read (truncated or rewritten?)\n", dir);
	CHECK_STR(err, want);
	input_close(&in);

	/* A later mapping of the same guard names its own file. */
	snprintf(path, sizeof(path), "%s/b.log", dir);
	write_file(path, BIG);
	CHECK_INT(input_open(&in, path, 0), 0);
	CHECK_INT(truncate(path, 0), 0);
	status = in_child(read_all_bytes, &in, err, sizeof(err));
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 2);
	CHECK(strstr(err, "/b.log': it shrank") != NULL);

	/* A SIGBUS that is not a read of an input still ends the process. */
	status = in_child(raise_sigbus, &in, err, sizeof(err));
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS);
	input_close(&in);
	unlink(path);
	snprintf(path, sizeof(path), "%s/a\033]0;x\007.log", dir);
	unlink(path);
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	test_shrink();
	rmdir(dir);
	return test_report();
}
