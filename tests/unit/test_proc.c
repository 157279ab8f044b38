/* test_proc.c — the /proc parsers of proc.c, and the port a log names. */
#include <math.h>
#include <stdlib.h>

#include "live.h"
#include "test.h"

static void test_stat(void)
{
	struct proc_stat st;
	const char *plain = "4711 (python3) S 4700 4711 4700 0 -1 4194560 1000 0 0 0 "
			    "250 50 0 0 20 0 12 0 123456 1000000 2048 18446744073709551615 1 1 0 0 0 0";
	CHECK_INT(proc_parse_stat(plain, strlen(plain), &st), 0);
	CHECK_STR(st.comm, "python3");
	CHECK_INT(st.state, 'S');
	CHECK_INT(st.ppid, 4700);
	CHECK_INT(st.utime, 250);
	CHECK_INT(st.stime, 50);
	CHECK_INT(st.threads, 12);
	CHECK_INT(st.starttime, 123456);
	CHECK_INT(st.rss_pages, 2048);
	CHECK_INT(st.flags, 4194560);

	/* A kernel thread: PF_KTHREAD (0x00200000) among its flags. */
	const char *kworker = "9 (kworker/0:1-events) I 2 0 0 0 -1 69238880 0 0 0 0 0 40 0 0 20 0 1 0 30 0 0 0";
	CHECK_INT(proc_parse_stat(kworker, strlen(kworker), &st), 0);
	CHECK_INT((st.flags & 0x00200000u) != 0, 1);
	CHECK_INT(st.state, 'I');

	/* A name with spaces and parentheses, even ") S 1 (": only the last
	 * ')' ends it. */
	const char *evil = "77 (a) S 1 (b c) R) D 1 77 77 0 -1 0 0 0 0 0 5 6 0 0 20 0 3 0 99 0 10 0";
	CHECK_INT(proc_parse_stat(evil, strlen(evil), &st), 0);
	CHECK_STR(st.comm, "a) S 1 (b c) R");
	CHECK_INT(st.state, 'D');
	CHECK_INT(st.ppid, 1);
	CHECK_INT(st.utime, 5);
	CHECK_INT(st.threads, 3);

	const char *zombie = "9 (sglang::sched) Z 8 8 8 0 -1 4227148 0 0 0 0 0 0 0 0 20 0 1 0 500 0 0 0";
	CHECK_INT(proc_parse_stat(zombie, strlen(zombie), &st), 0);
	CHECK_INT(st.state, 'Z');
	CHECK_STR(st.comm, "sglang::sched");

	CHECK_INT(proc_parse_stat("12 (cut", 7, &st), -1);
	CHECK_INT(proc_parse_stat("12 (x) S", 8, &st), -1);
	CHECK_INT(proc_parse_stat("", 0, &st), -1);
}

static void test_syscall(void)
{
	long nr;
	unsigned long a[6];
	CHECK_INT(proc_parse_syscall("202 0x7f0000001000 0x80 0x0 0x0 0x0 0x0 0x7ffd 0x7f00\n", &nr, a), 0);
	CHECK_INT(nr, 202);
	CHECK_INT(a[0], 0x7f0000001000UL);
	CHECK_INT(a[1], 0x80);
	CHECK_INT(proc_parse_syscall("running\n", &nr, a), 0);
	CHECK_INT(nr, -2);
	CHECK_INT(proc_parse_syscall("-1 0x7ffd5 0x7f00\n", &nr, a), 0);
	CHECK_INT(nr, -1);
	CHECK_INT(proc_parse_syscall("0 0x3\n", &nr, a), -1);
	CHECK_INT(proc_parse_syscall("", &nr, a), -1);

	CHECK_STR(proc_syscall_name("x86_64", 202), "futex");
	CHECK_STR(proc_syscall_name("x86_64", 232), "epoll_wait");
	CHECK_STR(proc_syscall_name("x86_64", 0), "read");
	CHECK_STR(proc_syscall_name("x86_64", 61), "wait4");
	CHECK_STR(proc_syscall_name("aarch64", 98), "futex");
	CHECK_STR(proc_syscall_name("aarch64", 22), "epoll_pwait");
	CHECK_STR(proc_syscall_name("aarch64", 63), "read");
	CHECK_STR(proc_syscall_name("aarch64", 73), "ppoll");
	CHECK(proc_syscall_name("aarch64", 232) == NULL);   /* no epoll_wait there */
	CHECK(proc_syscall_name("x86_64", 9999) == NULL);
	CHECK(proc_syscall_name("riscv64", 98) == NULL);
}

static void test_net(void)
{
	struct proc_sock s;
	int listen;
	CHECK_INT(proc_parse_tcp_line("  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
				      0, &s, &listen), -1);
	CHECK_INT(proc_parse_tcp_line("   0: 0100007F:1F40 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 51234 1 0000000000000000 100 0 0 10 0",
				      0, &s, &listen), 0);
	CHECK_STR(s.proto, "tcp");
	CHECK_STR(s.addr, "127.0.0.1");
	CHECK_INT(s.port, 8000);
	CHECK_INT(s.inode, 51234);
	CHECK_INT(listen, 1);
	CHECK_INT(proc_parse_tcp_line("   3: 00000000:7530 0100007F:D431 01 00000000:00000000 00:00000000 00000000     0        0 777 1 0 20 4 30 10 -1",
				      0, &s, &listen), 0);
	CHECK_STR(s.addr, "0.0.0.0");
	CHECK_INT(s.port, 30000);
	CHECK_INT(listen, 0);
	CHECK_INT(proc_parse_tcp_line("   0: 00000000000000000000000000000000:1F40 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 999 1 0 100 0 0 10 0",
				      1, &s, &listen), 0);
	CHECK_STR(s.proto, "tcp6");
	CHECK_STR(s.addr, "::");
	CHECK_INT(s.port, 8000);
	CHECK_INT(listen, 1);
	CHECK_INT(proc_parse_tcp_line("   1: 00000000000000000000000001000000:2328 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 998 1 0 100 0 0 10 0",
				      1, &s, &listen), 0);
	CHECK_STR(s.addr, "::1");
	CHECK_INT(s.port, 9000);
	/* A v4 line read as v6 is malformed, not a wrong address. */
	CHECK_INT(proc_parse_tcp_line("   0: 0100007F:1F40 00000000:0000 0A 00000000:00000000 00:00000000 00000000 0 0 1 1",
				      1, &s, &listen), -1);

	CHECK_INT(proc_parse_unix_line("Num       RefCount Protocol Flags    Type St Inode Path", &s, &listen), -1);
	CHECK_INT(proc_parse_unix_line("0000000000000000: 00000002 00000000 00010000 0001 01 4242 /run/sglang.sock", &s, &listen), 0);
	CHECK_STR(s.proto, "unix");
	CHECK_STR(s.addr, "/run/sglang.sock");
	CHECK_INT(s.inode, 4242);
	CHECK_INT(listen, 1);
	CHECK_INT(proc_parse_unix_line("0000000000000000: 00000003 00000000 00000000 0001 03 4243", &s, &listen), 0);
	CHECK_STR(s.addr, "");
	CHECK_INT(listen, 0);
}

/* live_ref_limit: with good runs, hung beyond 5 x their gap + 60 s, and
 * never before their time in the step. */
static void test_ref_limit(void)
{
	CHECK(live_ref_limit(3.0, NAN, LIVE_REF_FACTOR, LIVE_REF_MIN_S) == 75.0);
	CHECK(live_ref_limit(3.0, 60.0, LIVE_REF_FACTOR, LIVE_REF_MIN_S) == 75.0);
	CHECK(live_ref_limit(3.0, 629.0, LIVE_REF_FACTOR, LIVE_REF_MIN_S) == 629.0);
}

/* live_blocked_hung: blocked processes are never hung on a few seconds
 * of silence: a minute without good runs, their limit with them. */
static void test_blocked_hung(void)
{
	CHECK(!live_blocked_hung(5.0, 0, NAN));
	CHECK(!live_blocked_hung(59.0, 0, NAN));
	CHECK(live_blocked_hung(LIVE_QUIET_S, 0, NAN));
	CHECK(live_blocked_hung(NAN, 0, NAN));
	CHECK(!live_blocked_hung(300.0, 1, 629.0));
	CHECK(live_blocked_hung(700.0, 1, 629.0));
}

static void test_interval(void)
{
	CHECK_INT(live_parse_interval("1s"), 1000);
	CHECK_INT(live_parse_interval("500ms"), 500);
	CHECK_INT(live_parse_interval("2"), 2000);
	CHECK_INT(live_parse_interval("0"), 0);
	CHECK_INT(live_parse_interval("1.5s"), 1500);
	CHECK_INT(live_parse_interval("-1s"), -1);
	CHECK_INT(live_parse_interval("1m"), 60000);
	CHECK_INT(live_parse_interval("s"), -1);
	CHECK_INT(live_parse_interval("2h"), -1);   /* more than an hour */
	CHECK_INT(live_parse_interval("7200s"), -1);
	CHECK_INT(live_parse_interval("nan"), -1);
}

int main(void)
{
	test_stat();
	test_syscall();
	test_net();
	test_interval();
	test_ref_limit();
	test_blocked_hung();
	return test_report();
}
