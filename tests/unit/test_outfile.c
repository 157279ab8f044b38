/* test_outfile.c — what outfile.c may replace, and that its temporary
 * files never outlive a run: committed, abandoned, exited or killed. */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "outfile.h"
#include "test.h"
#include "util.h"

static const struct outfile_kind page = { "<!DOCTYPE html", "an HTML page", 1 };
static const struct outfile_kind db = { "SQLite format 3", "an SQLite database", 0 };

static char dir[] = "/tmp/ddx-test-outfile-XXXXXX";

static char *at(const char *name)
{
	return xasprintf("%s/%s", dir, name);
}

static void put(const char *name, const char *text)
{
	char *p = at(name);
	FILE *f = fopen(p, "w");
	fputs(text, f);
	fclose(f);
	free(p);
}

/* Files in the directory whose name holds ".tmp-". */
static int temps_left(void)
{
	DIR *d = opendir(dir);
	int n = 0;
	for (struct dirent *e; (e = readdir(d));)
		n += strstr(e->d_name, ".tmp-") != NULL;
	closedir(d);
	return n;
}

/* In a child: open name as an export, make the journal beside it, then
 * end as how says; returns the child's wait status. */
static int child(const char *name, int how)
{
	pid_t pid = fork();
	if (pid == 0) {
		struct outfile o;
		char *p = at(name);
		int r = outfile_open(&o, "export", p, &db);
		free(p);
		if (r < 0)
			_exit(3);
		outfile_also_remove(&o, "-journal");
		close(open(o.also[0], O_WRONLY | O_CREAT, 0644));
		if (how)
			raise(how);
		exit(2);   /* as die() would, mid-write */
	}
	int st;
	waitpid(pid, &st, 0);
	return st;
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	signal(SIGHUP, SIG_IGN);   /* as nohup does, before any output */
	/* SIGINT and SIGTERM as a terminal gives them, however this test was
	 * started: a background job of a shell starts with SIGINT ignored,
	 * which ddx would rightly keep. */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	struct outfile o;
	/* An input (by inode, under another name too) is never replaced. */
	put("in.log", "a log line\n");
	char *in = at("in.log"), *link = at("link.log");
	CHECK(symlink(in, link) == 0);
	outfile_protect(link, "one of the inputs");
	CHECK(outfile_open(&o, "--html", in, &page) < 0);
	CHECK(temps_left() == 0);
	/* Nor a file that holds something else; an empty one or a page is. */
	put("other.txt", "not a page\n");
	char *other = at("other.txt");
	CHECK(outfile_open(&o, "--html", other, &page) < 0);
	put("old.html", "<!doctype html><p>old\n");
	char *old = at("old.html");
	CHECK(outfile_open(&o, "--html", old, &page) == 0);
	CHECK(o.f && o.tmp && temps_left() == 1);
	fputs("<!DOCTYPE html><p>new\n", o.f);
	CHECK(outfile_commit(&o) == 0);
	CHECK(temps_left() == 0);
	FILE *f = fopen(old, "r");
	char line[64] = "";
	CHECK(fgets(line, sizeof(line), f) != NULL);
	fclose(f);
	CHECK_STR(line, "<!DOCTYPE html><p>new\n");
	/* Abandoned: nothing left, the old page as it was. */
	CHECK(outfile_open(&o, "--html", old, &page) == 0);
	outfile_abort(&o);
	CHECK(temps_left() == 0);
	outfile_abort(&o);   /* twice is harmless */
	/* A directory is no file to write; a new file is fine. */
	CHECK(outfile_open(&o, "export", dir, &db) < 0);
	char *fresh = at("new.db");
	CHECK(outfile_open(&o, "export", fresh, &db) == 0);
	CHECK(o.f == NULL && o.tmp);
	outfile_abort(&o);
	/* Exited or killed while writing: neither the file nor its journal. */
	CHECK(WIFEXITED(child("a.db", 0)));
	CHECK(temps_left() == 0);
	int st = child("b.db", SIGINT);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGINT);
	CHECK(temps_left() == 0);
	st = child("c.db", SIGTERM);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
	CHECK(temps_left() == 0);
	/* A signal ignored when ddx started stays ignored. */
	st = child("d.db", SIGHUP);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 2);
	CHECK(temps_left() == 0);
	free(in), free(link), free(other), free(old), free(fresh);
	char *rm = xasprintf("rm -rf '%s'", dir);
	CHECK(system(rm) == 0);
	free(rm);
	return test_report();
}
