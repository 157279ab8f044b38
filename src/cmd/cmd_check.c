/* cmd_check.c — `ddx check BAD`: compare a log with the stored baseline
 * that fits it best, or with the one named (diffrun.c does both). */
#include <getopt.h>

#include "cmd.h"
#include "diffrun.h"

static int check(int argc, char **argv, const struct out *out)
{
	static const struct option opts[] = {
		DIFF_OPTIONS,
		{ "store", required_argument, NULL, 'S' },
		{ "baseline", required_argument, NULL, 'b' },
		{ "jobs", required_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	const char *store_opt = NULL, *name = NULL;
	struct diff_args a;
	diff_args_init(&a, default_jobs(), out);
	int c, rc = EXIT_TROUBLE;
	while ((c = cmd_getopt(argc, argv, "b:j:q", opts, &cmd_check_entry)) != -1) {
		switch (c) {
		case 'S': store_opt = optarg; break;
		case 'b': name = optarg; break;
		case 'j': a.jobs = parse_jobs(optarg); break;
		default:
			if (diff_option(c, optarg, &a) <= 0)
				goto out;
		}
	}
	if (argc - optind != 1)
		usage_error(&cmd_check_entry, "check needs one log, the BAD run's");
	else if (diff_open_html(&a, argv + optind, 1, 1, store_opt) == 0)
		rc = diff_baseline(store_opt, name, argv[optind], &a);
out:
	diff_args_free(&a);
	return rc;
}

const struct cmd cmd_check_entry = {
	.name = "check",
	.run = check,
	.usage = "[--store PATH] [--baseline NAME] [diff options] BAD",
	.help =
	"Compare BAD with a stored baseline: the report of `ddx diff` against\n"
	"the baseline's runs, read from the store.  Without --baseline, pick\n"
	"the baseline that fits BAD best (the share of BAD's templates it\n"
	"knows, rarer templates counting more; the engine; the configuration)\n"
	"and say which and why first (on stderr with --json); a baseline that\n"
	"knows under 10% of BAD's templates is said to be a weak fit, there\n"
	"and in the report's warnings.  A run that fails is looked up in the\n"
	"store's failure memory (\"seen before: ...\") and recorded there, with\n"
	"the host ($DDX_HOST, else the machine's name): see `ddx help failures`.\n"
	"\n"
	"  --baseline NAME  compare with this baseline\n"
	"  --store PATH     the store (as for learn)\n"
	"  --json, -q, --now TIME, --rules FILE, --causes FILE, --sample T, --no-proc,\n"
	"  --one-run, --html FILE\n"
	"                   as for `ddx diff`\n"
	"  -j, --jobs N     use N threads (default: the CPUs, at most 8)\n",
	.status = "0 when the bad log matches the baseline's runs, 1 when\nit does not",
};
