/* test_logmeta.c — what a log says about itself: configuration dumps,
 * the engine, the port. */
#include <stdlib.h>

#include "log.h"
#include "logmeta.h"
#include "rules.h"
#include "test.h"

/* The built-in rules, whose config rules say where the dumps are. */
static struct ruleset builtin;

static const char sglang_log[] =
	"[2026-02-23 00:36:50] server_args=ServerArgs(model_path='Qwen/Qwen2.5-7B', tp_size=2, "
	"dtype='auto', cuda_graph_config=CudaGraphConfig(bs=[1, 2]), port=30000)\n"
	"[2026-02-23 00:37:02] INFO:     Application startup complete.\n";

static void test_engine_config(void)
{
	struct run_tmpl sg[] = {
		{ "Load weight end. <int>", 22, LV_INFO, 1, 0 },
		{ "  File \"/usr/lib/sglang/srt/managers/scheduler.py\"", 51, 0, 1, 1 },
		{ "WARNING vllm kernels not found", 30, LV_WARN, 1, 2 },
		{ "The server is fired up and ready to roll!", 41, LV_INFO, 1, 3 },
	};
	struct ruleset rs = { 0 };
	CHECK_INT(rules_builtin(&rs), 0);
	CHECK_STR(logmeta_engine(&rs, sg, 4, "none"), "sglang");
	CHECK_STR(logmeta_engine(&rs, sg, 1, "none"), "other");
	CHECK_STR(logmeta_engine(&rs, sg, 1, "vllm"), "vllm");
	struct run_tmpl vl[] = {
		{ "vLLM API server version <int>", 29, LV_INFO, 1, 0 },
		{ "(EngineCore_DP0) Initializing", 29, LV_INFO, 1, 1 },
	};
	CHECK_STR(logmeta_engine(&rs, vl, 2, "python"), "vllm");
	/* A tie goes to the first name: one template each. */
	CHECK_STR(logmeta_engine(&rs, sg + 1, 2, "none"), "sglang");
	rules_free(&rs);
	/* Without marks no engine is known, whatever the format says. */
	CHECK_STR(logmeta_engine(&rs, sg, 4, "sglang"), "other");

	struct arena a = { 0 };
	struct kv *cfg;
	size_t n;
	static const char log[] =
		"INFO 01-01 00:00:00 [api_server.py:1] vLLM API server version 0.8.5.post1\n"
		"INFO 01-01 00:00:00 [utils.py:2] non-default args: {'model': 'Qwen/Q', "
		"'tensor_parallel_size': 2, 'lora_modules': [LoRA(name='a', path='b')], 'x': \"q,'r\"}\n";
	logmeta_config(&builtin, "vllm", log, sizeof(log) - 1, &cfg, &n, &a);
	CHECK_INT(n, 5);
	if (n == 5) {
		CHECK_STR(cfg[0].key, "model");
		CHECK_STR(cfg[0].value, "Qwen/Q");
		CHECK_STR(cfg[1].key, "tensor_parallel_size");
		CHECK_STR(cfg[1].value, "2");
		CHECK_STR(cfg[2].key, "lora_modules");
		CHECK_STR(cfg[2].value, "[LoRA(name='a', path='b')]");
		CHECK_STR(cfg[3].key, "x");
		CHECK_STR(cfg[3].value, "q,'r");
		CHECK_STR(cfg[4].key, "vllm_version");
		CHECK_STR(cfg[4].value, "0.8.5.post1");
	}
	free(cfg);
	logmeta_config(&builtin, "sglang", sglang_log, sizeof(sglang_log) - 1, &cfg, &n, &a);
	CHECK_INT(n, 5);
	if (n == 5) {
		CHECK_STR(cfg[1].key, "tp_size");
		CHECK_STR(cfg[3].key, "cuda_graph_config");
		CHECK_STR(cfg[3].value, "CudaGraphConfig(bs=[1, 2])");
		CHECK_STR(cfg[4].value, "30000");
	}
	free(cfg);
	logmeta_config(&builtin, "other", "no config here\n", 15, &cfg, &n, &a);
	CHECK_INT(n, 0);
	free(cfg);
	arena_free(&a);
}

/* Dumps of other shapes, and what is not a dump. */
static void test_config_shapes(void)
{
	struct arena a = { 0 };
	struct kv *cfg;
	size_t n;
	static const char ns[] =
		"INFO 04-18 14:12:51 api_server.py:841] args: Namespace(host=None, port=8000, "
		"uvicorn_log_level='info')\r\n";
	logmeta_config(&builtin, "other", ns, sizeof(ns) - 1, &cfg, &n, &a);
	CHECK_INT(n, 3);
	if (n == 3) {
		CHECK_STR(cfg[0].key, "host");
		CHECK_STR(cfg[0].value, "None");
		CHECK_STR(cfg[1].value, "8000");
		CHECK_STR(cfg[2].value, "info");
	}
	free(cfg);
	/* The first value of a key wins, across dumps too. */
	static const char two[] =
		"non-default args: {'model': 'a', 'model': 'b'}\n"
		"with config: model='c', seed=0\n";
	logmeta_config(&builtin, "other", two, sizeof(two) - 1, &cfg, &n, &a);
	CHECK_INT(n, 2);
	if (n == 2) {
		CHECK_STR(cfg[0].value, "a");
		CHECK_STR(cfg[1].key, "seed");
	}
	free(cfg);
	/* Plain key=value text outside a dump is a log line, not the
	 * configuration (mask.c masks its values). */
	/* A user's rule file names the value of a key of its own. */
	struct ruleset user = { 0 };
	static const char mine[] = "[myserve]\nconfig myserve_build: myserve build (\\S*)\n";
	CHECK_INT(rules_parse(&user, "mine.rules", mine, sizeof(mine) - 1), 0);
	logmeta_config(&user, "other", "myserve build 42 up\n", 20, &cfg, &n, &a);
	CHECK_INT(n, 1);
	if (n == 1) {
		CHECK_STR(cfg[0].key, "myserve_build");
		CHECK_STR(cfg[0].value, "42");
	}
	free(cfg);
	rules_free(&user);
	/* Both engines' dumps: the log's own engine's values win. */
	static const char both[] =
		"server_args=ServerArgs(port=8000)\n"
		"non-default args: {'port': 11457}\n";
	logmeta_config(&builtin, "sglang", both, sizeof(both) - 1, &cfg, &n, &a);
	CHECK_INT(n, 1);
	CHECK_STR(n ? cfg[0].value : "", "8000");
	free(cfg);
	logmeta_config(&builtin, "vllm", both, sizeof(both) - 1, &cfg, &n, &a);
	CHECK_STR(n ? cfg[0].value : "", "11457");
	free(cfg);
	logmeta_config(&builtin, "other", "step=3 loss=0.5 lr=1e-4\n", 24, &cfg, &n, &a);
	CHECK_INT(n, 0);
	free(cfg);
	logmeta_config(&builtin, "other", NULL, 0, &cfg, &n, &a);
	CHECK_INT(n, 0);
	free(cfg);
	arena_free(&a);
}

/* The port found in text, or 0; *line gets the 1-based line of it. */
static unsigned port_of(const char *text, size_t *line)
{
	struct logmeta_port lp;
	if (!logmeta_port(text, strlen(text), &lp))
		return 0;
	*line = lp.line;
	return lp.port;
}

static void test_port(void)
{
	size_t line = 0;
	CHECK_INT(port_of("[2026-02-23 00:36:54] server_args=ServerArgs(model_path='m', "
			  "host='127.0.0.1', port=30000, nccl_port=None, dist_init_addr=None)", &line), 30000);
	CHECK_INT(line, 1);
	CHECK_INT(port_of("INFO 04-18 14:12:51 api_server.py:841] args: Namespace(host=None, "
			  "port=8000, uvicorn_log_level='info')", &line), 8000);
	CHECK_INT(port_of("{'model_tag': '/m', 'host': '::', 'port': 11457, 'x': 1}", &line), 11457);
	CHECK_INT(port_of("{\"host\": \"::\", \"port\": 8001}", &line), 8001);
	CHECK_INT(port_of("python -m sglang.launch_server --model-path m --port 30012 --tp 2", &line), 30012);
	CHECK_INT(port_of("vllm serve m --port=8002", &line), 8002);
	CHECK_INT(port_of("line one\nline two\n[2025-03-08 12:29:29] INFO:     Uvicorn running on "
			  "http://0.0.0.0:30000 (Press CTRL+C to quit)\n", &line), 30000);
	CHECK_INT(line, 3);
	CHECK_INT(port_of("INFO 05-12 02:46:33 [api_server.py:1090] Starting vLLM API server on "
			  "http://0.0.0.0:8000", &line), 8000);
	CHECK_INT(port_of("(APIServer pid=1) INFO [api_server.py:594] Starting vLLM server on "
			  "http://[::]:8003", &line), 8003);
	/* Not the server's own port. */
	CHECK_INT(port_of("nccl_port=29500, disaggregation_bootstrap_port=8998", &line), 0);
	CHECK_INT(port_of("--nccl-port 29500 --master-port=1234", &line), 0);
	CHECK_INT(port_of("report=1 import=2 support=3 port=", &line), 0);
	CHECK_INT(port_of("port=99999 port=0", &line), 0);
	CHECK_INT(port_of("connecting to http://10.0.0.1:8000", &line), 0);
	CHECK_INT(port_of("port=123456", &line), 0);
	/* The last mention wins: a restarted server logs its new port. */
	CHECK_INT(port_of("port=8000\nrestart\nport=8001\n", &line), 8001);
	CHECK_INT(line, 3);
	CHECK_INT(port_of("running on http://x:8000", &line), 8000);
	CHECK_INT(port_of("port", &line), 0);
	CHECK_INT(port_of("", &line), 0);
}

/* The line a port came from, as `ddx proc` quotes it. */
static void test_port_line(void)
{
	static const char log[] = "a\nINFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C)\nb\n";
	struct logmeta_port lp;
	CHECK_INT(logmeta_port(log, sizeof(log) - 1, &lp), 1);
	CHECK_INT(lp.port, 8000);
	CHECK_INT(lp.line, 2);
	CHECK_MEM(lp.text, lp.text_len, "INFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C)");
	CHECK_INT(lp.off, 28);   /* where "on http" starts */
	static const char last[] = "x\n--port 8000";
	CHECK_INT(logmeta_port(last, sizeof(last) - 1, &lp), 1);
	CHECK_MEM(lp.text, lp.text_len, "--port 8000");
	CHECK_INT(logmeta_port(NULL, 0, &lp), 0);
}

/* A pid takes the rank of its largest communicator: a tensor-parallel
 * group's rank 0 is not the world's; prefixes before the NCCL header
 * ("[default1]:") and lines without a pid are no matter. */
static void test_pid_ranks(void)
{
	static const char log[] =
		"[default1]:vm:8166:8166 [0] NCCL INFO ncclCommInitRankConfig comm 0x2 rank 1 nranks 2 cudaDev 0 busId 60 - Init START\n"
		"vm:8170:8201 [0] NCCL INFO comm 0x3 rank 0 nRanks 1 nNodes 1 localRanks 1 localRank 0\n"
		"vm:8170:8170 [0] NCCL INFO comm 0x4 rank 3 nRanks 4 nNodes 1 localRanks 4 localRank 3\n"
		"[0] NCCL INFO comm 0x5 rank 2 nranks 4 (no pid)\n"
		"vm:8171:8171 [0] NCCL INFO rank 5 nranks 4 (rank past nranks)\n";
	struct logmeta_pid_rank m[8];
	size_t n = logmeta_pid_ranks(log, sizeof(log) - 1, m, 8);
	CHECK(n == 2);
	CHECK(n == 2 && m[0].pid == 8166 && m[0].rank == 1 && m[0].nranks == 2);
	CHECK(n == 2 && m[1].pid == 8170 && m[1].rank == 3 && m[1].nranks == 4);
}

int main(void)
{
	if (rules_builtin(&builtin) < 0)
		return 1;
	test_engine_config();
	test_config_shapes();
	test_port();
	test_port_line();
	test_pid_ranks();
	rules_free(&builtin);
	return test_report();
}
