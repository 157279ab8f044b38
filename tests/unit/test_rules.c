/* test_rules.c — rule files: parsing, errors, overrides, and matching
 * against template texts, including the built-in rules. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rules.h"
#include "test.h"

static int parse(struct ruleset *rs, const char *text)
{
	return rules_parse(rs, "t.rules", text, strlen(text));
}

/* Index of the rule (name, engine) in rs, or -1. */
static int find(const struct ruleset *rs, const char *name, const char *engine)
{
	for (size_t i = 0; i < rs->n; i++)
		if (strcmp(rs->r[i].name, name) == 0 && strcmp(rs->r[i].engine, engine) == 0)
			return (int)i;
	return -1;
}

/* The name of the rule that matches text in a template table that holds
 * the template ctx too (if not NULL), or "" when none does. */
static const char *match_in(const struct ruleset *rs, const char *ctx, const char *text)
{
	struct tmpl_table tt;
	tmpl_init(&tt);
	tmpl_intern(&tt, text, strlen(text), 0, tmpl_hash(text, strlen(text), 0));
	if (ctx)
		tmpl_intern(&tt, ctx, strlen(ctx), 0, tmpl_hash(ctx, strlen(ctx), 0));
	int32_t out[2];
	rules_match(rs, &tt, out);
	tmpl_free(&tt);
	return out[0] < 0 ? "" : rs->r[out[0]].name;
}

static const char *match_one(const struct ruleset *rs, const char *text)
{
	return match_in(rs, NULL, text);
}

static void test_parse(void)
{
	struct ruleset rs = { 0 };
	CHECK_INT(parse(&rs,
		"# comment\n"
		"\n"
		"[app]\r\n"
		"step  db connected:   Connected to database\\b\r\n"
		"   # indented comment\n"
		"final  serving :  Listening on (?:port|socket) \n"
		"[  other  ]\n"
		"step x: a:b"), 0);
	CHECK_INT(rs.n, 3);
	CHECK_STR(rs.r[0].name, "db connected");
	CHECK_STR(rs.r[0].engine, "app");
	CHECK_STR(rs.r[0].pattern, "Connected to database\\b");
	CHECK_INT(rs.r[0].final, 0);
	CHECK_STR(rs.r[1].name, "serving");
	CHECK_STR(rs.r[1].pattern, "Listening on (?:port|socket)");
	CHECK_INT(rs.r[1].final, 1);
	CHECK_STR(rs.r[2].engine, "other");
	CHECK_STR(rs.r[2].pattern, "a:b");
	CHECK_STR(match_one(&rs, "Listening on socket /tmp/x"), "serving");
	CHECK_STR(match_one(&rs, "Connected to databases"), "");
	rules_free(&rs);
	rules_free(&rs);
}

static void test_errors(void)
{
	static const char *const bad[] = {
		"step a: b\n",                          /* before any [engine] */
		"[e]\nstep a b\n",                      /* no colon */
		"[e]\nstep : b\n",                      /* no name */
		"[e]\nstep a:\n",                       /* no pattern */
		"[e]\nstep a: (unclosed\n",             /* bad pattern */
		"[e]\nmilestone a: b\n",                /* unknown keyword */
		"[e]\nstep a: b\nstep a: c\n",          /* defined twice */
		"[two words]\nstep a: b\n",             /* bad engine */
		"[]\n",                                 /* empty engine */
		"[e\n",                                 /* unclosed section */
	};
	struct ruleset rs = { 0 };
	CHECK_INT(parse(&rs, "[e]\nstep keep: x\n"), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_INT(parse(&rs, bad[i]), -1);
		/* A failed file leaves the rules as they were. */
		CHECK_INT(rs.n, 1);
	}
	CHECK_STR(rs.r[0].name, "keep");
	/* The same name in another engine is another rule. */
	CHECK_INT(parse(&rs, "[e]\nstep a: b\n[f]\nstep a: b\n"), 0);
	CHECK_INT(rs.n, 3);
	CHECK_INT(rules_load(&rs, "/nonexistent/ddx.rules"), -1);
	rules_free(&rs);
}

static void test_override(void)
{
	struct ruleset rs = { 0 };
	CHECK_INT(rules_builtin(&rs), 0);
	size_t n = rs.n;
	int i = find(&rs, "weights loaded", "sglang");
	CHECK(i >= 0);
	CHECK_INT(parse(&rs, "[sglang]\nstep weights loaded: Weights are in\n"
			     "[myapp]\nfinal up: All systems go\n"), 0);
	CHECK_INT(rs.n, n + 1);
	/* The later file's rules come first, in their order. */
	CHECK_STR(rs.r[0].name, "weights loaded");
	CHECK_STR(rs.r[0].pattern, "Weights are in");
	CHECK_STR(rs.r[1].name, "up");
	CHECK_INT(find(&rs, "weights loaded", "vllm") >= 0, 1);
	CHECK_STR(match_one(&rs, "Weights are in"), "weights loaded");
	/* Alone in its table, the old text falls to the generic rules, which
	 * have no milestone for "end": the word fires on noise. */
	CHECK_STR(match_one(&rs, "Load weight end. type=<*>"), "");
	CHECK_STR(match_one(&rs, "All systems go"), "up");
	rules_free(&rs);
}

static void test_builtin(void)
{
	struct ruleset rs = { 0 };
	CHECK_INT(rules_builtin(&rs), 0);
	CHECK(rs.n > 50);
	CHECK(find(&rs, "server ready", "sglang") >= 0);
	CHECK_INT(rs.r[find(&rs, "server ready", "sglang")].final, 1);
	CHECK_INT(rs.r[find(&rs, "weights loaded", "sglang")].final, 0);
	/* Whatever the masking stage calls its placeholders. */
	static const struct { const char *text, *name; } cases[] = {
		{ "Load weight end. type=<*>, dtype=<*>, avail mem=<size>", "weights loaded" },
		{ "Load weight end. elapsed=<float> s, type=LagunaForCausalLM, avail mem=<int>.<int> GB", "weights loaded" },
		{ "Load weight begin. avail mem=<size>", "weights loading" },
		{ "Init torch distributed ends. mem usage=<*>", "distributed init done" },
		{ "KV Cache is allocated. #tokens: <int>, K size: <size>, V size: <size>", "kv cache allocated" },
		{ "Capture cuda graph begin. This can take up to several minutes. avail mem=<size>", "cuda graph capture begin" },
		{ "Capture npu graph end. Time elapsed: <dur>. mem usage=<size>.", "cuda graph captured" },
		{ "Capture target prefill CUDA graph begin. backend=breakable, num_tokens=<*>", "cuda graph capture begin" },
		{ "Capture piecewise CUDA graph end. Time elapsed: <dur>.", "piecewise cuda graph captured" },
		{ "max_total_num_tokens=<int>, chunked_prefill_size=<int>", "scheduler ready" },
		{ "<ip>:<int> - \"POST /generate HTTP/<float>\" <int> OK", "warmup request served" },
		{ "<*> - \"POST /generate HTTP/1.1\" 200 OK", "warmup request served" },
		{ "<*> - \"POST /generate HTTP/1.1\" 500 Internal Server Error", "" },
		{ "<ip> - \"POST <path> HTTP/<float>\" <int> OK", "warmup request served" },
		{ "<ip> - \"GET <path> HTTP/<float>\" <int> OK", "warmup model info" },
		{ "<ip> - \"GET /get_model_info HTTP/1.1\" 200 OK", "warmup model info" },
		{ "The server is fired up and ready to roll!", "server ready" },
		{ "Initializing a V<int> LLM engine (v<*>) with config: model=<*>", "engine config" },
		{ "Initializing a V1 LLM engine (v0.19.0) with config: model=<*>", "engine config" },
		{ "Loading model weights took <float> GB", "weights loaded" },
		{ "Model loading took <size> memory and <float> seconds", "weights loaded" },
		{ "torch.compile takes <dur> in total", "torch.compile done" },
		{ "Directly load the compiled graph(s) for dynamic shape from the cache, took <dur>", "compiled graph ready" },
		{ "Cache the graph for dynamic shape for later use", "compiled graph ready" },
		{ "Cache the graph of compile range (<int>, <int>) for later use", "compiled graph ready" },
		{ "Initial profiling/warmup run took <dur>", "profiling run done" },
		{ "# CUDA blocks: <int>, # CPU blocks: <int>", "kv cache sized" },
		{ "GPU KV cache size: <*> tokens", "kv cache sized" },
		{ "Capturing CUDA graphs (decode, FULL): <pct>|<*>| <int>/<int>", "cuda graph capture begin" },
		{ "init engine (profile, create kv cache, warmup model) took <dur> (compilation: <dur>)", "engine initialized" },
		{ "Core engine process <int> ready.", "engine core ready" },
		{ "Starting vLLM API server <int> on <url>", "api server starting" },
		{ "Started server process [<int>]", "server process started" },
		{ "INFO:     Application startup complete.", "application startup complete" },
		{ "Uvicorn running on <url> (Press CTRL+C to quit)", "http listening" },
		{ "text_generation_launcher: Shard ready in <dur> rank=<int>", "shard ready" },
		{ "text_generation_router::server: router/src/server.rs:<int>: Connected", "server ready" },
		{ "[default] Rendezvous complete for workers. Result:", "rendezvous complete" },
		{ "<*> [<int>] NCCL INFO comm <hex> rank <int> nranks <int> cudaDev <int> busId <hex> - Init COMPLETE", "nccl comm initialized" },
		{ "NCCL version <*>+cuda<float>", "nccl version" },
		{ "ProcessGroupNCCL initialization options: size: <int>, global rank: <int>", "process group init" },
	};
	/* In an SGLang log, so that its weak rules count. */
	const char *sglang = "Load weight begin. avail mem=<size>";
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *got = match_in(&rs, sglang, cases[i].text);
		if (strcmp(got, cases[i].name) != 0)
			fprintf(stderr, "text: %s\n", cases[i].text);
		CHECK_STR(got, cases[i].name);
	}
	rules_free(&rs);
}

/* A weak rule counts only where a strong rule of its engine matched. */
static void test_weak(void)
{
	struct ruleset rs = { 0 };
	CHECK_INT(parse(&rs, "[a]\nstep strong: Strong\nweak final loose: Loose\n"
			     "[b]\nstep other: Other\n"), 0);
	CHECK_INT(rs.r[1].weak, 1);
	CHECK_INT(rs.r[1].final, 1);
	CHECK_INT(rs.r[0].weak, 0);
	CHECK_STR(match_one(&rs, "Loose"), "");
	CHECK_STR(match_in(&rs, "Other", "Loose"), "");
	CHECK_STR(match_in(&rs, "Strong", "Loose"), "loose");
	CHECK_INT(parse(&rs, "[c]\nweak x: y\n"), -1);
	CHECK_INT(parse(&rs, "[c]\nweak  weak step x: y\n"), -1);
	rules_free(&rs);
	CHECK_INT(rules_builtin(&rs), 0);
	const char *get = "<ip> - \"GET <path> HTTP/<float>\" <int> OK";
	CHECK_STR(match_in(&rs, "Starting vLLM API server <int> on <url>", get), "");
	CHECK_STR(match_in(&rs, "Started server process [<int>]", get), "");
	CHECK_STR(match_in(&rs, "Init torch distributed begin.", get), "warmup model info");
	rules_free(&rs);
}

/* Generic rules count only when no engine's rule matched any template. */
static void test_generic_fallback(void)
{
	struct ruleset rs = { 0 };
	CHECK_INT(rules_builtin(&rs), 0);
	static const char *const app[] = {
		"Starting backup service", "Loaded <int> jobs", "Listening on <ip>:<int>",
		"Service is ready",
	};
	struct tmpl_table tt;
	tmpl_init(&tt);
	for (size_t i = 0; i < 4; i++)
		tmpl_intern(&tt, app[i], strlen(app[i]), 0, tmpl_hash(app[i], strlen(app[i]), 0));
	int32_t out[5];
	rules_match(&rs, &tt, out);
	CHECK(out[0] >= 0 && strcmp(rs.r[out[0]].name, "started") == 0);
	CHECK(out[1] >= 0 && strcmp(rs.r[out[1]].name, "loaded") == 0);
	CHECK(out[2] >= 0 && strcmp(rs.r[out[2]].name, "listening") == 0);
	CHECK(out[3] >= 0 && strcmp(rs.r[out[3]].name, "ready") == 0 && rs.r[out[3]].final);
	/* A name then "ready" says up too; a step of a job does not. */
	CHECK_STR(match_one(&rs, "celery@<id> ready."), "ready");
	CHECK_STR(match_one(&rs, "Bot ready!"), "ready");
	CHECK_STR(match_one(&rs, "replica not ready"), "");
	CHECK_STR(match_one(&rs, "train: process group ready"), "");
	const char *s = "Load weight end. type=<*>";
	tmpl_intern(&tt, s, strlen(s), 0, tmpl_hash(s, strlen(s), 0));
	rules_match(&rs, &tt, out);
	for (size_t i = 0; i < 4; i++)
		CHECK_INT(out[i], -1);
	CHECK(out[4] >= 0 && strcmp(rs.r[out[4]].name, "weights loaded") == 0);
	tmpl_free(&tt);
	rules_free(&rs);
}

/* rules_init reads the user's file from $XDG_CONFIG_HOME/ddx/rules. */
static void test_user_file(void)
{
	char dir[] = "/tmp/ddx-test-rules-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char path[128];
	snprintf(path, sizeof(path), "%s/ddx", dir);
	CHECK_INT(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/ddx/rules", dir);
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	fputs("[sglang]\nfinal server ready: All good\n", f);
	fclose(f);
	setenv("XDG_CONFIG_HOME", dir, 1);
	struct ruleset rs;
	CHECK_INT(rules_init(&rs, NULL, 0), 0);
	CHECK_STR(match_one(&rs, "All good"), "server ready");
	CHECK_STR(match_one(&rs, "The server is fired up and ready to roll!"), "ready");
	rules_free(&rs);
	/* A broken user file is an error, naming it. */
	f = fopen(path, "w");
	fputs("[sglang]\nfinal server ready\n", f);
	fclose(f);
	CHECK_INT(rules_init(&rs, NULL, 0), -1);
	CHECK_INT(rs.n, 0);
	rules_free(&rs);
	unlink(path);
	snprintf(path, sizeof(path), "%s/ddx", dir);
	rmdir(path);
	rmdir(dir);
	/* No file: the built-in rules alone. */
	setenv("XDG_CONFIG_HOME", "/nonexistent", 1);
	CHECK_INT(rules_init(&rs, NULL, 0), 0);
	CHECK_STR(match_one(&rs, "The server is fired up and ready to roll!"), "server ready");
	rules_free(&rs);
}

/* "none" leaves out every built-in rule but the generic words, and the
 * user's file; files given beside it still count. */
static void test_none(void)
{
	char dir[] = "/tmp/ddx-test-rules-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char path[128];
	snprintf(path, sizeof(path), "%s/mine.rules", dir);
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	fputs("[mine]\nfinal up: All good\n", f);
	fclose(f);
	struct ruleset rs;
	char *none[] = { "none" };
	CHECK_INT(rules_init(&rs, none, 1), 0);
	for (size_t i = 0; i < rs.n; i++)
		CHECK_STR(rs.r[i].engine, RULES_GENERIC);
	CHECK_STR(match_one(&rs, "Load weight end. type=<*>"), "");
	CHECK_STR(match_one(&rs, "Uvicorn running on <url> (Press CTRL+C to quit)"), "listening");
	size_t generic = rs.n;
	rules_free(&rs);
	char *both[] = { path, "none" };
	CHECK_INT(rules_init(&rs, both, 2), 0);
	CHECK_INT(rs.n, generic + 1);
	CHECK_STR(match_one(&rs, "All good"), "up");
	rules_free(&rs);
	unlink(path);
	rmdir(dir);
}

/* The engine of a log is what its mark rules say most: a mark is no
 * milestone, a rule file's marks can name a new engine, and the header
 * format counts for the engine of its name. */
static void test_marks(void)
{
	struct ruleset rs = { 0 };
	CHECK_INT(rules_builtin(&rs), 0);
	const char *texts[] = {
		"WARNING vllm kernels not found", "Starting <path> on sglang", "The server is fired up and ready to roll!",
		"myserve v<int> booting", "myserve worker <int> up",
	};
	size_t lens[5];
	for (size_t k = 0; k < 5; k++)
		lens[k] = strlen(texts[k]);
	CHECK_STR(rules_engine(&rs, texts, lens, 3, NULL), "sglang");
	CHECK_STR(rules_engine(&rs, texts, lens, 1, NULL), "vllm");
	CHECK_STR(rules_engine(&rs, texts, lens, 3, "vllm"), "vllm");
	CHECK(rules_engine(&rs, texts + 3, lens + 3, 2, NULL) == NULL);
	CHECK(rules_engine(&rs, texts + 3, lens + 3, 2, "myserve") == NULL);
	/* A mark matches no milestone. */
	CHECK_STR(match_one(&rs, "WARNING vllm kernels not found"), "");
	/* A user's file names an engine of its own: its two templates tie
	 * with SGLang's two, and a tie goes to the first name; with the
	 * format, one template of it is enough. */
	CHECK_INT(parse(&rs, "[myserve]\nmark its name: ^myserve\\b\n"), 0);
	CHECK_STR(rules_engine(&rs, texts + 3, lens + 3, 2, NULL), "myserve");
	CHECK_STR(rules_engine(&rs, texts, lens, 5, NULL), "myserve");
	CHECK_STR(rules_engine(&rs, texts, lens, 4, NULL), "sglang");
	CHECK_STR(rules_engine(&rs, texts, lens, 4, "myserve"), "myserve");
	/* A template counts once, for the first mark that matches it: the
	 * user's, which come first. */
	CHECK_INT(parse(&rs, "[other]\nmark all: .\n"), 0);
	CHECK_STR(rules_engine(&rs, texts, lens, 5, NULL), "other");
	rules_free(&rs);
}

/* Config rules find where a configuration dump or value is, in a log's
 * bytes; they match no milestone. */
static void test_config(void)
{
	struct ruleset rs = { 0 };
	CHECK_INT(parse(&rs, "[myserve]\n"
			     "config build: build id (\\w*)\n"
			     "config flags: FLAGS:[ ]\n"), 0);
	CHECK_INT(rs.r[0].config, 1);
	static const char log[] = "start\nFLAGS: a=1, b=2\r\nbuild id 7f3 here\n";
	size_t from = 0, to = 0;
	int one = -1;
	CHECK_INT(rules_config(&rs.r[0], log, sizeof(log) - 1, &from, &to, &one), 1);
	CHECK_INT(one, 1);
	CHECK_INT(to - from, 3);
	CHECK(memcmp(log + from, "7f3", 3) == 0);
	CHECK_INT(rules_config(&rs.r[1], log, sizeof(log) - 1, &from, &to, &one), 1);
	CHECK_INT(one, 0);
	CHECK_INT(to - from, 8);   /* the rest of the line, without its '\r' */
	CHECK(memcmp(log + from, "a=1, b=2", 8) == 0);
	CHECK_INT(rules_config(&rs.r[1], "FLAGS:x\n", 8, &from, &to, &one), 0);
	CHECK_STR(match_one(&rs, "FLAGS: <*>"), "");
	rules_free(&rs);
}

int main(void)
{
	test_parse();
	test_errors();
	test_override();
	test_builtin();
	test_weak();
	test_generic_fallback();
	test_user_file();
	test_none();
	test_marks();
	test_config();
	return test_report();
}
