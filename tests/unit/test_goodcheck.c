/* test_goodcheck.c — the check of good runs says "never came up" of
 * exactly the runs `ddx phases` calls NOT UP (timeline_state), for every
 * engine and for the generic words alone (--rules none): a server that
 * hung before coming up is no good run, a job short of its end is. */
#include <stdlib.h>
#include <unistd.h>

#include "goodcheck.h"
#include "log.h"
#include "rules.h"
#include "test.h"
#include "timeline.h"

/* vLLM's API server, hung after loading the weights: its rules have no
 * final milestone of their own (uvicorn's says it is up). */
#define VLLM_START \
	"INFO 08-01 17:36:24 [api_server.py:1] vLLM API server version 0.9.1\n" \
	"INFO 08-01 17:36:24 [utils.py:1] non-default args: {'model': 'm'}\n" \
	"INFO 08-01 17:36:31 [core.py:1] Initializing a V1 LLM engine (v0.9.1) with config: model='m'\n" \
	"INFO 08-01 17:36:32 [gpu_model_runner.py:1] Starting to load model m...\n" \
	"INFO 08-01 17:48:36 [default_loader.py:1] Loading weights took 716.49 seconds\n"

struct sample {
	const char *what, *rules, *text;
	enum timeline_state state;
};

static const struct sample SAMPLES[] = {
	{ "vLLM server that never came up", NULL, VLLM_START, TIMELINE_NOT_UP },
	{ "vLLM server up at uvicorn's line", NULL,
	  VLLM_START
	  "INFO 08-01 17:49:00 [api_server.py:2] Starting vLLM API server on http://0.0.0.0:8000\n"
	  "INFO:     Application startup complete.\n",
	  TIMELINE_UP },
	/* The offline LLM() of a script prints no server banner. */
	{ "vLLM in a script", NULL,
	  "INFO 08-01 17:36:24 [utils.py:1] non-default args: {'model': 'm'}\n"
	  "INFO 08-01 17:36:31 [core.py:1] Initializing a V1 LLM engine (v0.9.1) with config: model='m'\n"
	  "INFO 08-01 17:36:32 [gpu_model_runner.py:1] Starting to load model m...\n"
	  "INFO 08-01 17:48:36 [default_loader.py:1] Loading weights took 716.49 seconds\n"
	  "Throughput: 2.28 tokens/s\n",
	  TIMELINE_UNJUDGED },
	{ "SGLang server that never came up", NULL,
	  "[2025-03-08 12:00:00] server_args=ServerArgs(model_path='m')\n"
	  "[2025-03-08 12:00:01 TP0] Init torch distributed begin.\n"
	  "[2025-03-08 12:00:05 TP0] Load weight end. elapsed=3.98 s\n",
	  TIMELINE_NOT_UP },
	/* One milestone alone: a log begun after the server came up. */
	{ "SGLang steady state", NULL,
	  "[2025-03-08 12:00:05 TP0] Load weight end. elapsed=3.98 s\n"
	  "[2025-03-08 12:00:06 TP0] Decode batch. #running-req: 1\n",
	  TIMELINE_UNJUDGED },
	/* A training job has no "up", only an end not reached yet. */
	{ "torchrun job still training", NULL,
	  "I1201 10:00:00.000000 1 api.py:1] Starting elastic_operator with launch configs:\n"
	  "I1201 10:00:01.000000 1 api.py:2] [default] Rendezvous'ing worker group\n"
	  "I1201 10:00:02.000000 1 api.py:3] [default] Starting worker group\n"
	  "I1201 10:00:03.000000 1 train.py:1] step 10 loss 1.25\n",
	  TIMELINE_UNJUDGED },
	{ "torchrun job finished", NULL,
	  "I1201 10:00:00.000000 1 api.py:1] Starting elastic_operator with launch configs:\n"
	  "I1201 10:00:02.000000 1 api.py:3] [default] Starting worker group\n"
	  "I1201 10:00:09.000000 1 api.py:4] [default] worker group successfully finished.\n",
	  TIMELINE_FINISHED },
	/* The generic path: its words match any long-running program, so
	 * only "listening"/"ready" say anything. */
	{ "generic words, never listening", RULES_NONE,
	  "2024-01-01 00:00:00 INFO starting worker\n"
	  "2024-01-01 00:00:05 INFO model loaded\n"
	  "2024-01-01 00:00:06 INFO waiting\n",
	  TIMELINE_UNJUDGED },
	{ "generic words, listening", RULES_NONE,
	  "2024-01-01 00:00:00 INFO starting worker\n"
	  "2024-01-01 00:00:05 INFO model loaded\n"
	  "2024-01-01 00:00:06 INFO listening on port 8000\n",
	  TIMELINE_UP },
	{ "a CI job that failed", NULL,
	  "2024-01-01T00:00:00.0000000Z ##[group]Run make test\n"
	  "2024-01-01T00:00:05.0000000Z ##[error]Process completed with exit code 2.\n"
	  "2024-01-01T00:00:06.0000000Z Cleaning up orphan processes\n",
	  TIMELINE_FAILED },
};

/* Judge one sample both ways: its state, and whether goodcheck doubts it
 * by the rules ("not_up": failed or never came up). */
static void check_sample(const struct sample *s)
{
	char *files[] = { (char *)s->rules };
	struct ruleset rs;
	CHECK_INT(rules_init(&rs, files, s->rules ? 1 : 0), 0);
	char path[] = "/tmp/ddx-test-goodcheck-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	CHECK_INT(write(fd, s->text, strlen(s->text)), (long long)strlen(s->text));
	close(fd);
	struct tmpl_table tt;
	struct log lg;
	tmpl_init(&tt);
	CHECK_INT(log_load(&lg, path, 0, LOG_FULL, 1, &tt), 0);
	unlink(path);
	int32_t *match = malloc((tt.n ? tt.n : 1) * sizeof(*match));
	rules_match(&rs, &tt, match);
	struct timeline tl;
	timeline_build(&tl, &lg, &rs, match);
	enum timeline_state st = timeline_state(&tl);
	if (st != s->state)
		fprintf(stderr, "%s: state %d, want %d\n", s->what, (int)st, (int)s->state);
	CHECK_INT(st, s->state);
	uint8_t doubted = 0;
	struct dx_warning *ws = NULL;
	size_t nws = 0;
	goodcheck_goods(&lg, 1, &tt, &rs, &doubted, &ws, &nws);
	int not_up = nws == 1 && strcmp(ws[0].kind, "not_up") == 0;
	int want = st == TIMELINE_NOT_UP || st == TIMELINE_FAILED;
	if (not_up != want)
		fprintf(stderr, "%s: goodcheck says %s, phases %d\n", s->what,
			nws ? ws[0].text : "good", (int)st);
	CHECK_INT(not_up, want);
	CHECK_INT(doubted, want);
	goodcheck_free(ws, nws);
	timeline_free(&tl);
	free(match);
	log_free(&lg);
	tmpl_free(&tt);
	rules_free(&rs);
}

int main(void)
{
	/* The built-in rules only, whatever the user's file says. */
	setenv("XDG_CONFIG_HOME", "/nonexistent", 1);
	for (size_t k = 0; k < sizeof(SAMPLES) / sizeof(SAMPLES[0]); k++)
		check_sample(&SAMPLES[k]);
	return test_report();
}
