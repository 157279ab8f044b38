/* proc_helper — real processes for the `ddx proc` tests: a pretend server
 * that writes a log to stdout, forks children that inherit it, maybe
 * listens on a loopback port, then blocks or spins the way hung and busy
 * servers do.
 *
 * usage: proc_helper [-c N] [-o MODE2] [-t N] [-l | -p] [-w] [-z] [-a SEC] MODE
 *   -c N    fork N children (they inherit stdout and do MODE too)
 *   -o MODE2  the last child does MODE2 instead: a peer that never joins
 *   -t N    every process also starts N threads blocked in futex
 *   -l      listen on 127.0.0.1, on a free port, and log "port=N"
 *   -p      log "port=N" for a port that is free and NOT listening
 *   -w      the parent waits for its first child (wait4) instead of MODE
 *   -z      fork one more child that exits at once and is never reaped
 *   -a SEC  every process ends itself after SEC seconds (default 120),
 *           so a test that fails to clean up leaves nothing behind
 * MODE is futex, eventfd (read() on an eventfd), epoll (epoll_wait on an
 * eventfd), sleep or spin.  The parent logs "ready" once every child has
 * started.  All processes are in one process group led by the parent, so
 * `kill -- -PID` ends them all. */
#include <errno.h>
#include <linux/futex.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static int futex_word;

static void block_futex(void)
{
	for (;;)
		syscall(SYS_futex, &futex_word, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
}

static void *thread_main(void *arg)
{
	(void)arg;
	block_futex();
	return NULL;
}

static void do_mode(const char *mode)
{
	if (strcmp(mode, "futex") == 0) {
		block_futex();
	} else if (strcmp(mode, "eventfd") == 0 || strcmp(mode, "epoll") == 0) {
		int efd = eventfd(0, 0);
		uint64_t v;
		if (strcmp(mode, "epoll") == 0) {
			int ep = epoll_create1(0);
			struct epoll_event ev = { .events = EPOLLIN };
			epoll_ctl(ep, EPOLL_CTL_ADD, efd, &ev);
			for (;;)
				epoll_wait(ep, &ev, 1, -1);
		}
		for (;;)
			if (read(efd, &v, sizeof(v)) < 0 && errno != EINTR)
				break;
	} else if (strcmp(mode, "sleep") == 0) {
		for (;;)
			sleep(1000);
	} else if (strcmp(mode, "spin") == 0) {
		volatile unsigned long x = 0;
		for (;;)
			x++;
	}
	fprintf(stderr, "proc_helper: unknown mode '%s'\n", mode);
	exit(2);
}

static void start_threads(int n)
{
	for (int i = 0; i < n; i++) {
		pthread_t t;
		pthread_create(&t, NULL, thread_main, NULL);
	}
}

/* Bind 127.0.0.1:0; returns the socket and sets *port. */
static int bind_free(unsigned *port)
{
	int s = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    getsockname(s, (struct sockaddr *)&a, &len) < 0) {
		perror("proc_helper: bind");
		exit(2);
	}
	*port = ntohs(a.sin_port);
	return s;
}

int main(int argc, char **argv)
{
	int children = 0, threads = 0, listen_port = 0, fake_port = 0, wait_kids = 0;
	int zombie = 0, alarm_s = 120, c;
	const char *odd = NULL;
	while ((c = getopt(argc, argv, "c:o:t:lpwza:")) != -1) {
		switch (c) {
		case 'c': children = atoi(optarg); break;
		case 'o': odd = optarg; break;
		case 't': threads = atoi(optarg); break;
		case 'l': listen_port = 1; break;
		case 'p': fake_port = 1; break;
		case 'w': wait_kids = 1; break;
		case 'z': zombie = 1; break;
		case 'a': alarm_s = atoi(optarg); break;
		default: return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: proc_helper [-c N] [-o MODE2] [-t N] [-l | -p] [-w] [-z] [-a SEC] MODE\n");
		return 2;
	}
	const char *mode = argv[optind];
	setvbuf(stdout, NULL, _IONBF, 0);
	setpgid(0, 0);
	alarm((unsigned)alarm_s);
	printf("[helper] INFO starting pid=%d mode=%s children=%d\n", (int)getpid(), mode, children);
	int ready[2];
	if (pipe(ready) < 0)
		return 2;
	pid_t first = 0;
	for (int i = 0; i < children; i++) {
		pid_t pid = fork();
		if (pid < 0)
			return 2;
		if (!first)
			first = pid;
		if (pid == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			alarm((unsigned)alarm_s);
			close(ready[0]);
			start_threads(threads);
			printf("[helper TP%d] INFO child started pid=%d\n", i, (int)getpid());
			if (write(ready[1], "x", 1) != 1)
				_exit(2);
			close(ready[1]);
			do_mode(odd && i == children - 1 ? odd : mode);
		}
	}
	close(ready[1]);
	for (int i = 0; i < children; i++) {
		char b;
		if (read(ready[0], &b, 1) != 1)
			return 2;
	}
	close(ready[0]);
	if (zombie && fork() == 0)
		_exit(0);
	if (listen_port || fake_port) {
		unsigned port;
		int s = bind_free(&port);
		if (fake_port)
			close(s);
		else if (listen(s, 16) < 0)
			return 2;
		printf("[helper] INFO server_args=ServerArgs(host='127.0.0.1', port=%u, nccl_port=None)\n", port);
	}
	start_threads(threads);
	printf("[helper] INFO ready\n");
	if (wait_kids) {
		/* The first child only, as a launcher would: a wait for any
		 * child would reap the zombie of -z. */
		while (waitpid(first, NULL, 0) < 0 && errno == EINTR)
			;
		return 0;
	}
	do_mode(mode);
	return 0;
}
