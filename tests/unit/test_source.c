/* Unit tests of source.c: which arguments name logs that live elsewhere,
 * the command each becomes, and a host's clock never taken for ours.
 * The tools are stand-ins given through $DDX_SSH_COMMAND and friends:
 * shell functions that write down their arguments and answer as the real
 * tool would (the real sshd and journal are the cases source-ssh and
 * source-journal). */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "source.h"
#include "test.h"
#include "util.h"

static char dir[] = "/tmp/ddx-test-source-XXXXXX";

/* The file the stand-ins write their arguments to, one a line. */
static char *args_file(void)
{
	return xasprintf("%s/args", dir);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return xstrdup("");
	struct buf b = { 0 };
	char chunk[4096];
	size_t n;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_append(&b, chunk, n);
	fclose(f);
	return b.p ? b.p : xstrdup("");
}

/* Set var to a stand-in that records its arguments after skip of them,
 * then runs reply (a shell command). */
static void stand_in(const char *var, int skip, const char *reply)
{
	char *a = args_file();
	char *cmd = xasprintf("f() { shift %d; printf '%%s\\n' \"$@\" >%s; %s; }; f", skip, a, reply);
	setenv(var, cmd, 1);
	free(cmd);
	free(a);
}

static void check_remote(void)
{
	/* scp's rule, and ssh:// */
	CHECK(source_is_remote("host:/var/log/x.log"));
	CHECK(source_is_remote("root@10.0.0.5:logs/x.log"));
	CHECK(source_is_remote("user@[fe80::1]:/x.log"));
	CHECK(source_is_remote("ssh://host/var/log/x.log"));
	CHECK(source_is_remote("ssh://u@host:2222/x.log"));
	CHECK(!source_is_remote("ssh://host:22x/x.log"));
	CHECK(!source_is_remote("ssh://host"));
	/* A slash before the colon, a URL, an option, or nothing after the
	 * colon: local. */
	CHECK(!source_is_remote("./host:x.log"));
	CHECK(!source_is_remote("logs/run:1.log"));
	CHECK(!source_is_remote("postgresql://u@h/db"));
	CHECK(!source_is_remote("-oProxyCommand=sh:x"));
	CHECK(!source_is_remote("host:"));
	CHECK(!source_is_remote("plain.log"));
	CHECK(!source_is_remote("-"));
	/* The tools, with a name that is no option. */
	CHECK(source_is_remote("journal:nginx.service"));
	CHECK(source_is_remote("docker:web"));
	CHECK(source_is_remote("k8s:web-1"));
	CHECK(source_is_remote("k8s:prod/web-1/app:previous"));
	CHECK(!source_is_remote("journal:-ffoo"));
	CHECK(!source_is_remote("k8s:a/b/c/d"));
	CHECK(!source_is_remote("k8s:prod//app"));
	/* An existing local file stays local, whatever its name. */
	char *local = xasprintf("%s/host:x.log", dir);
	FILE *f = fopen(local, "w");
	fclose(f);
	CHECK(!source_is_remote(local));
	char *cwd = getcwd(NULL, 0);
	CHECK(chdir(dir) == 0);
	CHECK(!source_is_remote("host:x.log"));
	CHECK(chdir(cwd) == 0);
	free(cwd);
	free(local);
}

/* The ssh command line: options first, "--", the host, then the remote
 * command with the path quoted for the remote shell. */
static void check_ssh_command(void)
{
	/* ssh's own arguments before the host are ours: skip them all up
	 * to "--". */
	stand_in("DDX_SSH_COMMAND", 0, "exit 255");
	char *data;
	size_t n;
	time_t mtime, btime;
	CHECK_INT(source_fetch("ssh://u@h:2222/var/it's here.log", 1 << 20, &data, &n, &mtime, &btime), -1);
	char *a = args_file(), *got = slurp(a);
	CHECK(strstr(got, "\n-p\n2222\n--\nu@h\nsh -c ") != NULL);
	CHECK(strstr(got, " ddx '/var/it'\\''s here.log'\n") != NULL);
	CHECK(strstr(got, "BatchMode=yes") != NULL);
	free(got);
	free(a);
}

/* A host whose clock is far off: the file's age is the host's own
 * now - mtime, put on this host's clock. */
static void check_clock(void)
{
	stand_in("DDX_SSH_COMMAND", 0,
		 "now=$(( $(date +%s) + 100000 )); printf 'ddx %s %s\\nline one\\n' $now $(( now - 60 ))");
	char *data = NULL;
	size_t n = 0;
	time_t mtime = 0, btime = 1;
	time_t before = time(NULL);
	CHECK_INT(source_fetch("h:/x.log", 1 << 20, &data, &n, &mtime, &btime), 0);
	CHECK_MEM(data, n, "line one\n");
	CHECK(mtime >= before - 61 && mtime <= time(NULL) - 59);
	CHECK_INT(btime, 0);
	free(data);
	/* A reply that is not the script's: refused, not read as the log. */
	stand_in("DDX_SSH_COMMAND", 0, "echo 'Welcome to the host'");
	data = NULL;
	CHECK_INT(source_fetch("h2:/x.log", 1 << 20, &data, &n, &mtime, &btime), -1);
	CHECK(data == NULL);
}

/* journalctl, docker, kubectl: the arguments each is given, and its
 * output taken as written at once. */
static void check_tools(void)
{
	char *data, *a = args_file(), *got;
	size_t n;
	time_t mtime, btime;
	stand_in("DDX_JOURNALCTL", 0, "echo '2025-01-01T00:00:00.000000+0000 h x[1]: up'");
	CHECK_INT(source_fetch("journal:nginx.service", 1 << 20, &data, &n, &mtime, &btime), 0);
	CHECK_INT(mtime, btime);
	free(data);
	got = slurp(a);
	CHECK_STR(got, "-q\n--no-pager\n-o\nshort-iso-precise\n-u\nnginx.service\n");
	free(got);
	stand_in("DDX_DOCKER", 0, "echo out; echo err >&2");
	CHECK_INT(source_fetch("docker:web", 1 << 20, &data, &n, &mtime, &btime), 0);
	CHECK_MEM(data, n, "out\nerr\n");   /* both of the container's streams */
	free(data);
	got = slurp(a);
	CHECK_STR(got, "logs\n--timestamps\n--\nweb\n");
	free(got);
	stand_in("DDX_KUBECTL", 0, "echo x");
	CHECK_INT(source_fetch("k8s:prod/web-1/app:previous", 1 << 20, &data, &n, &mtime, &btime), 0);
	free(data);
	got = slurp(a);
	CHECK_STR(got, "logs\n--timestamps\n-n\nprod\n-c\napp\n--previous\nweb-1\n");
	free(got);
	/* A tool that fails says why in its own words; one that prints
	 * nothing is no log. */
	stand_in("DDX_KUBECTL", 0, "echo 'Error from server (NotFound): pods \"x\" not found' >&2; exit 1");
	CHECK_INT(source_fetch("k8s:x", 1 << 20, &data, &n, &mtime, &btime), -1);
	stand_in("DDX_JOURNALCTL", 0, "true");
	CHECK_INT(source_fetch("journal:none.service", 1 << 20, &data, &n, &mtime, &btime), -1);
	/* More than the most ddx holds: refused. */
	stand_in("DDX_DOCKER", 0, "head -c 100000 /dev/zero | tr '\\\\0' x");
	CHECK_INT(source_fetch("docker:big", 1000, &data, &n, &mtime, &btime), -1);
	free(a);
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	check_remote();
	check_ssh_command();
	check_clock();
	check_tools();
	char *cmd = xasprintf("rm -rf %s", dir);
	CHECK(system(cmd) == 0);
	free(cmd);
	return test_report();
}
