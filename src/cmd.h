/* cmd.h — the commands, one cmd_*.c each, and what they share. */
#ifndef DDX_CMD_H
#define DDX_CMD_H

#include <stdint.h>

struct cmd {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *usage;   /* one line: arguments after "ddx NAME" */
	const char *help;    /* the rest of `ddx help NAME` */
};

int cmd_diff(int argc, char **argv);
int cmd_phases(int argc, char **argv);
int cmd_templates(int argc, char **argv);
int cmd_parse(int argc, char **argv);
int cmd_proc(int argc, char **argv);
int cmd_learn(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_baselines(int argc, char **argv);

/* Parse "-j N" / "--jobs=N" style counts; dies on nonsense. */
int parse_jobs(const char *s);
/* Number of threads to use by default: the online CPUs, at most 8. */
int default_jobs(void);
/* Print `ddx help NAME` to stdout. */
void print_command_help(const struct cmd *c);
const struct cmd *find_command(const char *name);
/* n bytes as "1.2 MB" into buf (16 bytes). */
void human_size(uint64_t n, char *buf);

#endif
