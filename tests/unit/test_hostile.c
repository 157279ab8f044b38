/* Unit tests of input that changes or lies under ddx: a file that shrinks
 * while mapped (which would raise SIGBUS), and error messages that name
 * hostile paths. */
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

/* Truncated after the mapping: every read past the new end sees NULs
 * instead of killing the process, and input_check says what happened. */
static void test_shrink(void)
{
	char path[64];
	snprintf(path, sizeof(path), "%s/a.log", dir);
	write_file(path, BIG);
	struct input in;
	CHECK_INT(input_open(&in, path, 0), 0);
	CHECK(in.mapped);
	CHECK_INT(input_check(&in), 0);
	CHECK_INT(truncate(path, 100), 0);
	size_t zeros = 0;
	for (size_t i = 100; i < in.size; i++)
		zeros += in.data[i] == '\0';
	CHECK(zeros >= in.size - 4096);
	CHECK_INT(input_check(&in), -1);
	input_close(&in);

	/* A later input starts clean (its guard is reused). */
	write_file(path, 1000);
	CHECK_INT(input_open(&in, path, 0), 0);
	CHECK_INT(input_check(&in), 0);
	input_close(&in);

	/* Truncated to nothing: the last byte is past the end. */
	write_file(path, BIG);
	struct input keep;
	CHECK_INT(input_open(&keep, path, 0), 0);
	CHECK_INT(truncate(path, 0), 0);
	CHECK(keep.data[BIG - 1] == '\0');
	CHECK_INT(input_check(&keep), -1);
	input_close(&keep);
	unlink(path);
}

/* A SIGBUS outside any input still ends the process. */
static void test_other_sigbus(void)
{
	char path[64];
	snprintf(path, sizeof(path), "%s/b.log", dir);
	write_file(path, 1000);
	struct input in;
	CHECK_INT(input_open(&in, path, 0), 0);   /* installs the handler */
	pid_t pid = fork();
	if (pid == 0) {
		raise(SIGBUS);
		_exit(0);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS);
	input_close(&in);
	unlink(path);
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	test_shrink();
	test_other_sigbus();
	rmdir(dir);
	return test_report();
}
