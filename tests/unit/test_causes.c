/* test_causes.c — the catalogue of known causes: its parser, one
 * realistic failing line per built-in cause, and no cause on any line of
 * the healthy logs of the fixtures and of ../shared/data. */
#include "causes.h"

#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "test.h"

static int parses(const char *text)
{
	struct causeset cs = { 0 };
	int rc = causes_parse(&cs, "t.causes", text, strlen(text));
	causes_free(&cs);
	return rc;
}

#define GOOD "[port]\ntitle: t\nline: in use\nexplain: e\nfix: f\nurl: https://x\n"

static void test_parse(void)
{
	CHECK_INT(parses(GOOD), 0);
	CHECK_INT(parses("# only a comment\n\n"), 0);
	CHECK_INT(parses("title: t\n"), -1);                         /* before any [CAUSE] */
	CHECK_INT(parses("[a]\ntitle: t\nexplain: e\nfix: f\nurl: u\n"), -1);   /* no pattern */
	CHECK_INT(parses("[a]\nline: x\nexplain: e\nfix: f\nurl: u\n"), -1);    /* no title */
	CHECK_INT(parses(GOOD "[b]\nline: x\n"), -1);               /* b lacks the rest */
	CHECK_INT(parses(GOOD "[port]\n"), -1);                     /* a second [port] */
	CHECK_INT(parses("[a]\ntitle: t\ntitle: u\n"), -1);         /* a second title */
	CHECK_INT(parses("[a]\ncolour: red\n"), -1);                /* an unknown key */
	CHECK_INT(parses("[a]\nline: (unclosed\n"), -1);            /* a bad pattern */
	CHECK_INT(parses("[a]\nline:\n"), -1);                      /* an empty value */
	CHECK_INT(parses("[a b]\n"), -1);
	CHECK_INT(parses("[a]\nno colon here\n"), -1);

	struct causeset cs = { 0 };
	const char *two = GOOD "explain: more\n";
	CHECK_INT(causes_parse(&cs, "t", two, strlen(two)), 0);
	CHECK_INT(cs.n, 1);
	CHECK_STR(cs.c[0].explain, "e more");   /* explain lines are one paragraph */
	/* A later text replaces a cause of the same id, in its place. */
	const char *over = "[port]\ntitle: new\nline: x\nexplain: e\nfix: f\nurl: u\n"
			   "[other]\ntitle: o\ntemplate: y\nexplain: e\nfix: f\nurl: u\n";
	CHECK_INT(causes_parse(&cs, "u", over, strlen(over)), 0);
	CHECK_INT(cs.n, 2);
	CHECK_STR(cs.c[0].title, "new");
	CHECK_STR(cs.c[1].id, "other");
	/* A text that fails leaves the set as it was. */
	CHECK_INT(causes_parse(&cs, "v", "[port]\n", 7), -1);
	CHECK_INT(cs.n, 2);
	CHECK_STR(cs.c[0].title, "new");
	causes_free(&cs);
}

static void test_context(void)
{
	struct causeset cs = { 0 };
	const char *t = "[a]\ntitle: t\nline: boom\ntemplate: tmpl <int>\nengine: vllm\n"
			"step: ^weights\nexplain: e\nfix: f\nurl: u\n";
	CHECK_INT(causes_parse(&cs, "t", t, strlen(t)), 0);
	const struct cause *c = &cs.c[0];
	CHECK(cause_matches(c, "x boom y", 8, "", 0, "vllm", "weights loaded", 0));
	CHECK(cause_matches(c, "nothing", 7, "tmpl <int>", 10, "vllm", "weights loaded", 0));
	CHECK(!cause_matches(c, "nothing", 7, "tmpl", 4, "vllm", "weights loaded", 0));
	CHECK(!cause_matches(c, "boom", 4, "", 0, "sglang", "weights loaded", 0));   /* engine */
	CHECK(!cause_matches(c, "boom", 4, "", 0, NULL, "weights loaded", 0));       /* unknown */
	CHECK(!cause_matches(c, "boom", 4, "", 0, "vllm", "", 0));                   /* step */
	causes_free(&cs);
	const char *w = "[b]\ntitle: t\nline: boom\nwhere: crash\nexplain: e\nfix: f\nurl: u\n";
	CHECK_INT(causes_parse(&cs, "t", w, strlen(w)), 0);
	CHECK(cause_matches(&cs.c[0], "boom", 4, "", 0, NULL, "", 1));
	CHECK(!cause_matches(&cs.c[0], "boom", 4, "", 0, NULL, "", 0));   /* not the crash's */
	causes_free(&cs);
	CHECK_INT(parses("[b]\nwhere: anywhere\n"), -1);
}

/* One realistic failing line per built-in cause, as the program prints
 * it (header included): the first cause that matches it must be that
 * one, the one the report would name; "-": a failing line that is no
 * cause's (near one in its words). */
static const struct { const char *id, *line; } samples[] = {
	{ "nvcc-missing", "(EngineCore pid=1551593) ERROR 06-23 15:43:19 [core.py:1195] RuntimeError: Could not find nvcc and default cuda_home='/usr/local/cuda' doesn't exist" },
	{ "ninja-missing", "RuntimeError: Ninja is required to load C++ extensions" },
	{ "jit-build-failed", "RuntimeError: Error building extension 'fused_adam'" },
	{ "triton-no-c-compiler", "RuntimeError: Failed to find C compiler. Please specify via CC environment variable." },
	{ "triton-cache-unwritable", "PermissionError: [Errno 13] Permission denied: '/home/user/.triton/cache/4f2a'" },
	{ "inductor-compile-error", "torch._inductor.exc.InductorError: LoweringException: AssertionError: " },
	{ "vllm-kv-cache-max-model-len", "(EngineCore pid=6890) ValueError: To serve at least one request with the model's max seq len (262144), (18.35 GiB KV cache is needed, which is larger than the available KV cache memory (8.72 GiB). Based on the available memory, the estimated maximum model length is 121840." },
	{ "vllm-no-kv-cache-memory", "ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine." },
	{ "vllm-free-memory-below-utilization", "(EngineCore_DP0 pid=941609) ValueError: Free memory on device (13.58/15.99 GiB) on startup is less than desired GPU memory utilization (0.85, 13.59 GiB)." },
	{ "vllm-sampler-warmup-oom", "ERROR 03-27 17:34:18 [core.py:343] RuntimeError: CUDA out of memory occurred when warming up sampler with 1024 dummy requests." },
	{ "sglang-mem-fraction", "[2025-01-10 10:00:00 TP0] RuntimeError: Not enough memory. Please try to increase --mem-fraction-static." },
	{ "sglang-cuda-graph-oom", "Exception: Capture cuda graph failed: CUDA out of memory. Tried to allocate 20.00 MiB." },
	{ "tgi-prefill-tokens-oom", "Error: Warmup(Generation(\"Not enough memory to handle 4096 prefill tokens. You need to decrease `--max-batch-prefill-tokens`\"))" },
	{ "ollama-kv-cache-alloc", "llama_init_from_model: failed to initialize the context: failed to allocate buffer for kv cache" },
	{ "llamacpp-cuda-alloc", "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 4096.00 MiB on device 0: cudaMalloc failed: out of memory" },
	{ "torch-inductor-autotune-oom", "(EngineCore_DP0 pid=558551) torch._inductor.exc.InductorError: RuntimeError: Failed to run autotuning code block: CUDA out of memory. Tried to allocate 1.02 GiB." },
	{ "cuda-oom", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.07 GiB. GPU 0 has a total capacity of 23.65 GiB of which 1.27 GiB is free." },
	{ "cuda-oom", "RuntimeError: CUDA error: out of memory" },
	{ "cublas-alloc-failed", "RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`" },
	{ "cuda-illegal-memory-access", "RuntimeError: CUDA error: an illegal memory access was encountered" },
	{ "cuda-device-side-assert", "RuntimeError: CUDA error: device-side assert triggered" },
	{ "cuda-no-kernel-image", "RuntimeError: CUDA error: no kernel image is available for execution on the device" },
	{ "cuda-driver-too-old", "RuntimeError: The NVIDIA driver on your system is too old (found version 11040)." },
	{ "cuda-no-gpu-visible", "RuntimeError: No CUDA GPUs are available" },
	{ "cuda-invalid-device-ordinal", "RuntimeError: HIP error: invalid device ordinal" },
	{ "cuda-fork-reinit", "RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method" },
	{ "gpu-ecc-xid", "NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus." },
	{ "bf16-unsupported-gpu", "ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your Tesla T4 GPU has compute capability 7.5." },
	{ "flash-attn-unsupported-gpu", "RuntimeError: FlashAttention only supports Ampere GPUs or newer." },
	{ "tp-heads-not-divisible", "ValueError: Total number of attention heads (28) must be divisible by tensor parallel size (8)." },
	{ "hf-gated-repo", "huggingface_hub.errors.GatedRepoError: 401 Client Error. Cannot access gated repo for url https://huggingface.co/meta-llama/Llama-3.1-8B/resolve/main/config.json." },
	{ "hf-unauthorized", "requests.exceptions.HTTPError: 401 Client Error: Unauthorized for url: https://huggingface.co/api/models/org/private-model" },
	{ "hf-offline-not-cached", "OSError: We couldn't connect to 'https://huggingface.co' to load this file, couldn't find it in the cached files" },
	{ "hf-repo-id-is-path", "huggingface_hub.errors.HFValidationError: Repo id must be in the form 'repo_name' or 'namespace/repo_name': '/models/llama-3-8b'. Use `repo_type` argument if needed." },
	{ "trust-remote-code", "ValueError: The repository for THUDM/chatglm3-6b contains custom code which must be executed to correctly load the model. Please pass the argument `trust_remote_code=True` to allow custom code to be run." },
	{ "transformers-unknown-architecture", "ValueError: The checkpoint you are trying to load has model type `glm_moe_dsa` but Transformers does not recognize this architecture." },
	{ "vllm-architecture-unsupported", "ValueError: Model architectures ['FooForCausalLM'] are not supported for now." },
	{ "tokenizer-sentencepiece-missing", "ImportError: LlamaTokenizer requires the SentencePiece library but it was not found in your environment." },
	{ "llamacpp-unknown-pretokenizer", "llama_model_load: error loading model: error loading model vocabulary: unknown pre-tokenizer type: 'qwen2'" },
	{ "gguf-bad-magic", "gguf_init_from_file_impl: failed to read magic" },
	{ "sentencepiece-model-missing", "    return _sentencepiece.SentencePieceProcessor_LoadFromFile(self, arg)" },
	{ "fp16-loss-scale-minimum", "Exception: Current loss scale already at minimum - cannot decrease scale anymore. Exiting run." },
	{ "tgi-quantize-on-cpu", "ValueError: quantization is not available on CPU" },
	{ "ollama-runner-start-timeout", "time=2024-07-28T14:31:48.554-04:00 level=ERROR source=sched.go:443 msg=\"error loading llama server\" error=\"timed out waiting for llama runner to start - progress 0.00 - \"" },
	{ "gcp-default-credentials", "google.auth.exceptions.DefaultCredentialsError: Your default credentials were not found." },
	{ "github-token-permissions", "##[error]Resource not accessible by integration" },
	{ "nccl-no-socket-interface", "node-1:123:456 [0] NCCL WARN Bootstrap : no socket interface found" },
	{ "nccl-no-socket-interface", "Bootstrap : no socket interface found" },
	{ "gloo-no-interface", "RuntimeError: [enforce fail at ../third_party/gloo/gloo/transport/tcp/device.cc:83] ifa != nullptr. Unable to find address for: eth0" },
	{ "nccl-shm-too-small", "node-1:123:456 [0] NCCL WARN Error while creating shared memory segment /dev/shm/nccl-abc (size 9637888)" },
	{ "nccl-p2p-failure", "RuntimeError: peer access is not supported between these two devices" },
	{ "nccl-ib-failure", "node-1:123:456 [1] NCCL WARN Call to ibv_reg_mr failed with error Cannot allocate memory" },
	{ "nccl-watchdog-timeout", "[rank0]:[E1218 20:27:21.426415540 ProcessGroupNCCL.cpp:629] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=BROADCAST, NumelIn=13107200, Timeout(ms)=600000)" },
	{ "nccl-unhandled-cuda-error", "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:219, unhandled cuda error" },
	{ "nccl-system-error", "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1275, unhandled system error, NCCL version 2.14.3" },
	{ "c10d-store-timeout", "torch.distributed.DistNetworkError: The client socket has timed out after 1800s while trying to connect to (10.0.0.1, 29500)." },
	{ "c10d-store-port-in-use", "torch.distributed.DistNetworkError: The server socket has failed to listen on any local network address. port: 29500, useIpv6: 0, code: -98, name: EADDRINUSE, message: address already in use" },
	{ "torchrun-child-sigkill", "  exitcode  : -9 (pid: 2845)" },
	{ "postgres-data-dir-ownership", "2021-11-23 23:18:05.101 EST [64397] FATAL:  data directory \"/Library/PostgreSQL/14/data\" has wrong ownership" },
	{ "postgres-data-dir-ownership", "initdb: error: could not change permissions of directory \"/var/lib/postgresql/data\": Operation not permitted" },
	{ "postgres-lock-file-exists", "2024-01-01 10:00:00.000 UTC [1] FATAL:  lock file \"postmaster.pid\" already exists" },
	{ "postgres-socket-dir-missing", "2022-01-05 10:00:01.000 UTC [99] FATAL:  could not create lock file \"/var/run/postgresql/.s.PGSQL.5432.lock\": No such file or directory" },
	{ "postgres-no-tcp-sockets", "2021-10-11 09:58:04.530 CST [18458] FATAL:  could not create any TCP/IP sockets" },
	{ "postgres-catalog-mismatch", "2022-01-05 10:00:00.000 UTC [98] FATAL:  database files are incompatible with server" },
	{ "mysql-data-file-locked", "2020-05-30T13:33:00.218813Z 0 [ERROR] InnoDB: Unable to lock ./ibdata1 error: 11" },
	{ "mysql-data-permission", "2020-05-30T13:33:00.218813Z 0 [ERROR] InnoDB: Operating system error number 13 in a file operation." },
	{ "mysql-unknown-variable", "2018-06-28T02:21:33.520932Z 0 [ERROR] [MY-000067] [Server] unknown variable 'sql_model=STRICT_TRANS_TABLES'." },
	{ "database-access-denied", "java.sql.SQLException: Access denied for user 'root'@'localhost' (using password: YES)" },
	{ "elasticsearch-node-lock", "java.lang.IllegalStateException: failed to obtain node locks, tried [/var/lib/elasticsearch]; maybe these locations are not writable" },
	{ "elasticsearch-max-map-count", "ERROR: [1] bootstrap checks failed. You must address the points described in the following [1] lines before starting Elasticsearch. bootstrap check failure [1] of [1]: max virtual memory areas vm.max_map_count [65530] is too low, increase to at least [262144]" },
	{ "kafka-log-dir-locked", "org.apache.kafka.common.KafkaException: Failed to acquire lock on file .lock in /tmp/kafka-logs. A Kafka instance in another process or thread is using this directory." },
	{ "kafka-zookeeper-unreachable", "kafka.zookeeper.ZooKeeperClientTimeoutException: Timed out waiting for connection while in state: CONNECTING" },
	{ "config-file-missing", "java.nio.file.NoSuchFileException: .\\config\\server.properties" },
	{ "postgres-image-no-password", "2025-07-24 21:44:58.843 | Error: Database is uninitialized and superuser password is not specified." },
	{ "nginx-config-invalid", "Jun 22 16:01:44 cone nginx[3846]: nginx: [emerg] \"user\" directive is not allowed here in /etc/nginx/conf.d/wok.conf:25" },
	{ "nginx-config-invalid", "nginx: configuration file /etc/nginx/nginx.conf test failed" },
	{ "-", "2019/01/10 12:00:00 [emerg] 1#1: host not found in upstream \"api:8000\" in /etc/nginx/conf.d/default.conf:5" },
	{ "-", "nginx: [emerg] host not found in upstream \"api:8000\" in /etc/nginx/conf.d/default.conf:5" },
	{ "port-in-use", "2024/05/01 10:00:00 [emerg] 1#1: bind() to 0.0.0.0:80 failed (98: Address already in use)" },
	{ "python-module-not-found", "ModuleNotFoundError: No module named 'email_utility'" },
	{ "python-module-not-found", "ImportError: This modeling file requires the following packages that were not found in your environment: flash_attn. Run `pip install flash_attn`" },
	{ "node-module-not-found", "Error: Cannot find module '/app/server.js'" },
	{ "java-class-not-found", "Caused by: java.lang.ClassNotFoundException: com.kakao.cafe.persistence.user.UserRepository" },
	{ "tls-certificate-verify", "requests.exceptions.SSLError: HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded (Caused by SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate')))" },
	{ "spring-datasource-url", "Reason: Failed to determine a suitable driver class" },
	{ "gunicorn-worker-timeout", "[2021-06-01 10:17:23 +0000] [7] [CRITICAL] WORKER TIMEOUT (pid:12)" },
	{ "connection-refused-dependency", "connect ECONNREFUSED 127.0.0.1:27017" },
	{ "connection-refused-dependency", "[2022-07-11 07:43:17,745: ERROR/MainProcess] consumer: Cannot connect to amqp://guest:**@127.0.0.1:5672//: [Errno 111] Connection refused." },
	{ "oom-killer", "/zhome/ee/d/137643/.lsbatch/1586903179.6180387.shell: line 12: 24905 Killed                  python main.py $LSB_PROJECT_NAME" },
	{ "ray-oom", "ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory." },
	{ "java-heap-oom", "java.lang.OutOfMemoryError: Java heap space" },
	{ "disk-full", "OSError: [Errno 28] No space left on device: '/root/.cache/huggingface/hub/models--x/blobs/abc.incomplete'" },
	{ "inotify-watch-limit", "Error: ENOSPC: System limit for number of file watchers reached, watch '/app/src'" },
	{ "too-many-open-files", "OSError: [Errno 24] Too many open files: '/data/shard-00042.arrow'" },
	{ "port-in-use", "2025/07/17 12:26:12 [emerg] 2609#2609: bind() to 0.0.0.0:80 failed (98: Address already in use)" },
	{ "port-in-use", "Sep 17 00:27:07.251 [warn] Could not bind to 127.0.0.1:9050: Address already in use. Is Tor already running?" },
	{ "port-in-use", "{\"s\":\"E\", \"msg\":\"Error setting up listener\",\"attr\":{\"error\":{\"code\":9001,\"errmsg\":\"Address already in use\"}}}" },
	{ "bind-permission-denied", "2025/01/01 10:00:00 [emerg] 1#1: bind() to 0.0.0.0:80 failed (13: Permission denied)" },
	{ "bind-permission-denied", "(13)Permission denied: AH00072: make_sock: could not bind to address [::]:80" },
	{ "port-in-use", "13:14:23.613 [error] ERROR: distribution port 25672 in use by another node: rabbit@prod" },
	{ "docker-no-gpu-driver", "docker: Error response from daemon: could not select device driver \"\" with capabilities: [[gpu]]." },
	{ "docker-daemon-unreachable", "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?" },
	{ "exec-format-error", "exec /usr/local/bin/python3: exec format error" },
	{ "dns-resolution-failure", "socket.gaierror: [Errno -3] Temporary failure in name resolution" },
	{ "wandb-login-prompt", "wandb: Enter your choice: " },
	{ "wandb-login-prompt", "wandb: Enter your choice: W0731 11:08:41.198000 3253423 api.py:897] Sending process 3253490 closing signal SIGTERM" },
	{ "apt-prompt", "#6 9.645 Do you want to continue? [Y/n] Abort." },
};

/* The first cause of cs that matches line (its own engine granted; crash:
 * the line is the crash's): the one the report names for it; NULL for
 * none. */
static const struct cause *first_cause(const struct causeset *cs, const char *line, size_t len,
				       const char *tmpl, size_t tlen, int crash)
{
	for (size_t k = 0; k < cs->n; k++)
		if (cause_matches(&cs->c[k], line, len, tmpl, tlen, cs->c[k].engine, "", crash))
			return &cs->c[k];
	return NULL;
}

static void test_samples(const struct causeset *cs)
{
	size_t n = sizeof(samples) / sizeof(samples[0]);
	for (size_t i = 0; i < n; i++) {
		const struct cause *c = first_cause(cs, samples[i].line, strlen(samples[i].line),
						    samples[i].line, strlen(samples[i].line), 1);
		const char *want = strcmp(samples[i].id, "-") == 0 ? NULL : samples[i].id;
		if (want ? !c || strcmp(c->id, want) != 0 : c != NULL)
			fprintf(stderr, "sample of %s: named %s\n", samples[i].id, c ? c->id : "nothing");
		CHECK(want ? c && strcmp(c->id, want) == 0 : c == NULL);
	}
	/* Every built-in cause has its sample. */
	for (size_t k = 0; k < cs->n; k++) {
		size_t i = 0;
		while (i < n && strcmp(samples[i].id, cs->c[k].id) != 0)
			i++;
		if (i == n)
			fprintf(stderr, "cause %s has no sample line\n", cs->c[k].id);
		CHECK(i < n);
	}
	CHECK(cs->n >= 50);
}

static size_t healthy_lines, healthy_hits;

/* Every line of the log at path, with its template: no cause. */
static void check_healthy(const struct causeset *cs, const char *path)
{
	struct tmpl_table tt;
	tmpl_init(&tt);
	struct log lg = { 0 };
	if (log_load(&lg, path, 0, LOG_FULL, 1, &tt) < 0) {
		CHECK(!"healthy log loads");
		tmpl_free(&tt);
		return;
	}
	struct buf scratch = { 0 };
	for (size_t i = 0; i < lg.nlines; i++) {
		struct line ln;
		struct header h;
		log_line(&lg, i, &ln, &h, &scratch);
		const struct tmpl *t = &tt.t[lg.tid[i]];
		/* A healthy run has no crash: causes that count only there
		 * (where: crash) cannot name its lines. */
		const struct cause *c = first_cause(cs, ln.text, ln.len, t->text, t->len, 0);
		healthy_lines++;
		if (c) {
			healthy_hits++;
			fprintf(stderr, "%s:%zu: healthy line named %s: %.*s\n", path, i + 1, c->id,
				(int)(ln.len < 200 ? ln.len : 200), ln.text);
		}
	}
	buf_free(&scratch);
	log_free(&lg);
	tmpl_free(&tt);
}

/* The healthy logs a MANIFEST.tsv lists: column 4 "healthy" or "ok".
 * Returns how many; a folder without one has none. */
static size_t check_manifest(const struct causeset *cs, const char *dir)
{
	char path[16384];
	snprintf(path, sizeof(path), "%s/MANIFEST.tsv", dir);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	char row[8192];
	size_t n = 0;
	while (fgets(row, sizeof(row), f)) {
		char *col[4] = { row };
		size_t k = 1;
		for (char *p = row; *p && k < 4; p++)
			if (*p == '\t')
				*p = '\0', col[k++] = p + 1;
		if (k < 4)
			continue;
		char *tab = strchr(col[3], '\t');
		if (tab)
			*tab = '\0';
		if (strcmp(col[3], "healthy") != 0 && strcmp(col[3], "ok") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, col[0]);
		check_healthy(cs, path);
		n++;
	}
	fclose(f);
	return n;
}

static void test_healthy(const struct causeset *cs)
{
	static const char *const fixtures[] = {
		"tests/fixtures/public", "tests/fixtures/public-ml", "tests/fixtures/public-ml2",
		"tests/fixtures/public-svc",
	};
	size_t logs = 0;
	for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++)
		logs += check_manifest(cs, fixtures[i]);
	CHECK(logs > 20);
	/* The dev folders beside the checkout, when they are there. */
	const char *shared = getenv("SHARED");
	static const char *const dev[] = { "real-logs", "real-logs-2", "real-logs-3" };
	for (size_t i = 0; shared && i < sizeof(dev) / sizeof(dev[0]); i++) {
		char dir[4096];
		snprintf(dir, sizeof(dir), "%s/%s", shared, dev[i]);
		check_manifest(cs, dir);
	}
	CHECK(healthy_lines > 1000);
	CHECK_INT(healthy_hits, 0);
}

int main(void)
{
	test_parse();
	test_context();
	/* The built-in catalogue alone: no user file of the machine's. */
	setenv("XDG_CONFIG_HOME", "/nonexistent", 1);
	struct causeset cs;
	CHECK_INT(causes_init(&cs, NULL, 0), 0);
	test_samples(&cs);
	test_healthy(&cs);
	causes_free(&cs);
	return test_report();
}
