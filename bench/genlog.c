/* genlog — deterministic synthetic inference-server logs for ddx's
 * benchmarks.
 *
 * usage: genlog [--size N[K|M|G]] [--kind sglang|vllm|mixed] [--seed N]
 *               [--stop-after-fraction F] [-o FILE]
 *
 *   --size N    stop once N bytes are written (default 1G; K, M, G are
 *               powers of 1024).  The last line is finished, so the file
 *               is a few hundred bytes longer than N at most.
 *   --kind K    sglang, vllm, or mixed (default: each run picks one).
 *   --seed N    PRNG seed (default 1).  Same seed, same bytes, on every
 *               machine: only integer arithmetic and fixed formats.
 *   --stop-after-fraction F
 *               write the "bad" variant: the same bytes as without the
 *               option up to the start of the last run, whose startup is
 *               then cut after F (0..1) of its lines, as a server that hung
 *               there; no serving phase follows.  With the same seed the
 *               bad file is a prefix of the good one.
 *   -o FILE     write to FILE instead of standard output.
 *
 * The log is several runs of a server, one after the other in one file, as
 * a restarting service writes them: each run is a startup (a long
 * server_args / engine-config dump, per-rank lines in shuffled rank order,
 * tqdm bars as bare-CR frames, frames pasted in front of the next line,
 * weight loading, KV cache, CUDA graph capture, the HTTP server coming up)
 * and then serving (request lines, prefill and decode batch statistics,
 * health checks and metric scrapes, periodic engine statistics, a few
 * warnings, ERROR lines and one or two Python tracebacks), ended by a
 * shutdown.  The line shapes follow the SGLang and vLLM logs described in
 * PHASES.md of the shared real-log corpus.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { K_SGLANG, K_VLLM, K_MIXED };

/* ---- PRNG: xoshiro256**, seeded by splitmix64 ---- */

static uint64_t rs[4];

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t rnext(void)
{
	uint64_t r = rotl(rs[1] * 5, 7) * 9, t = rs[1] << 17;
	rs[2] ^= rs[0];
	rs[3] ^= rs[1];
	rs[1] ^= rs[2];
	rs[0] ^= rs[3];
	rs[2] ^= t;
	rs[3] = rotl(rs[3], 45);
	return r;
}

/* Uniform in [0, n); the tiny modulo bias does not matter here. */
static uint64_t rnd(uint64_t n)
{
	return n ? rnext() % n : 0;
}

/* Uniform in [lo, hi]. */
static int64_t range(int64_t lo, int64_t hi)
{
	return lo + (int64_t)rnd((uint64_t)(hi - lo + 1));
}

static int chance(unsigned per_mille)
{
	return rnd(1000) < per_mille;
}

#define PICK(arr) (arr[rnd(sizeof(arr) / sizeof(arr[0]))])

/* ---- output: one buffer, flushed in big writes unless held ---- */

static FILE *outf;
static char *ob;
static size_t olen, ocap;
static uint64_t written;   /* bytes already handed to outf */
static int hold;           /* keep everything in ob (a startup that may be cut) */

static void flush_out(void)
{
	if (olen && fwrite(ob, 1, olen, outf) != olen) {
		fprintf(stderr, "genlog: write error: %s\n", strerror(errno));
		exit(2);
	}
	written += olen;
	olen = 0;
}

static void reserve(size_t n)
{
	if (olen + n <= ocap)
		return;
	while (olen + n > ocap)
		ocap = ocap ? ocap * 2 : 1 << 22;
	ob = realloc(ob, ocap);
	if (!ob) {
		fprintf(stderr, "genlog: out of memory\n");
		exit(2);
	}
}

static void put(const char *s, size_t n)
{
	reserve(n);
	memcpy(ob + olen, s, n);
	olen += n;
}

static void puts_(const char *s)
{
	put(s, strlen(s));
}

static void vputf(const char *fmt, va_list ap)
{
	va_list aq;
	va_copy(aq, ap);
	int n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	reserve((size_t)n + 1);
	vsnprintf(ob + olen, (size_t)n + 1, fmt, ap);
	olen += (size_t)n;
}

static void putf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void putf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vputf(fmt, ap);
	va_end(ap);
}

static void eol(void)
{
	put("\n", 1);
	if (!hold && olen >= (1u << 21))
		flush_out();
}

static uint64_t total(void)
{
	return written + olen;
}

/* Fixed-point numbers as text: v / 10^dec with dec decimals.  A ring of
 * buffers, so a few can appear in one printf. */
static const char *fx(int64_t v, int dec)
{
	static char ring[16][32];
	static int k;
	char *b = ring[k++ & 15];
	int64_t p = 1;
	for (int i = 0; i < dec; i++)
		p *= 10;
	const char *sign = v < 0 ? "-" : "";
	if (v < 0)
		v = -v;
	if (dec)
		snprintf(b, 32, "%s%lld.%0*lld", sign, (long long)(v / p), dec, (long long)(v % p));
	else
		snprintf(b, 32, "%s%lld", sign, (long long)v);
	return b;
}

/* 1234567 -> "1,234,567" */
static const char *commas(int64_t v)
{
	static char ring[4][32];
	static int k;
	char tmp[32], *b = ring[k++ & 3];
	int n = snprintf(tmp, sizeof(tmp), "%lld", (long long)v), o = 0;
	for (int i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			b[o++] = ',';
		b[o++] = tmp[i];
	}
	b[o] = '\0';
	return b;
}

static const char *hex(int nibbles)
{
	static char ring[4][72];
	static int k;
	char *b = ring[k++ & 3];
	for (int i = 0; i < nibbles; i++)
		b[i] = "0123456789abcdef"[rnd(16)];
	b[nibbles] = '\0';
	return b;
}

/* ---- the simulated clock ---- */

static int64_t now;  /* ms since the epoch, UTC */

static void tick(int64_t lo_ms, int64_t hi_ms)
{
	now += range(lo_ms, hi_ms);
}

static struct tm now_tm(void)
{
	time_t t = (time_t)(now / 1000);
	struct tm tm;
	gmtime_r(&t, &tm);
	return tm;
}

/* ---- run configuration ---- */

struct model {
	const char *name, *arch;
	int weight_gb;   /* bf16 weights, all ranks together */
	int shards;
	int context;
};

static const struct model models[] = {
	{ "Qwen/Qwen2.5-72B-Instruct", "Qwen2ForCausalLM", 136, 37, 32768 },
	{ "meta-llama/Llama-3.1-8B-Instruct", "LlamaForCausalLM", 15, 4, 131072 },
	{ "Qwen/QwQ-32B", "Qwen2ForCausalLM", 61, 14, 131072 },
	{ "deepseek-ai/DeepSeek-R1-Distill-Qwen-14B", "Qwen2ForCausalLM", 28, 4, 131072 },
	{ "mistralai/Mistral-Small-24B-Instruct-2501", "MistralForCausalLM", 44, 10, 32768 },
	{ "Qwen/Qwen3-30B-A3B", "Qwen3MoeForCausalLM", 57, 16, 40960 },
	{ "meta-llama/Llama-3.3-70B-Instruct", "LlamaForCausalLM", 132, 30, 131072 },
};

struct gpu {
	const char *name;
	int mem_mb;
	int pcie;       /* PCIe-only boxes disable custom allreduce at tp > 2 */
};

static const struct gpu gpus[] = {
	{ "NVIDIA L4", 23034, 1 },
	{ "NVIDIA L40S", 46068, 1 },
	{ "NVIDIA A100-SXM4-80GB", 81920, 0 },
	{ "NVIDIA H100 80GB HBM3", 81559, 0 },
	{ "NVIDIA H200", 143771, 0 },
};

struct run {
	int kind;
	int style;      /* sglang 0: 2025 (rank tag always, "Prefill batch.");
			 *        1: 2026 (no tag at tp 1, "Prefill batch,").
			 * vllm   0: v0.10 ("(VllmWorker rank=N pid=M)", request logging);
			 *        1: v0.19 ("(Worker_TPn pid=M)", APIServer tags). */
	int tp;
	const struct model *m;
	const struct gpu *g;
	int port;
	int api_pid, engine_pid, worker_pid;
	int64_t avail_mb;        /* free GPU memory per rank, MB, as it drops */
	int64_t max_tokens;      /* KV cache capacity */
	int max_running;
	int cuda_graph_bs;
	int tagged;              /* sglang: print " TPn" */
	int worker_named;        /* vllm v0.19: Worker_TPn once ranks are known */
	/* serving state */
	int running, queued;
	int64_t tokens;
	int load;                /* 0..1000, slow random walk */
	int64_t next_health, next_metrics, next_stats, next_decode;
	int errors, tracebacks;
	uint64_t error_at[8];    /* byte positions of planned errors */
	int64_t prompt_tps, gen_tps;   /* for vLLM's engine statistics */
	int64_t prefix_hits, prefix_queries;
};

static struct run R;

/* ---- line headers ---- */

/* SGLang: "[2026-02-23 00:36:54 TP3] " (rank < 0: no tag). */
static void sg(int rank)
{
	struct tm tm = now_tm();
	putf("[%04d-%02d-%02d %02d:%02d:%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
	     tm.tm_hour, tm.tm_min, tm.tm_sec);
	if (rank >= 0 && R.tagged)
		putf(" TP%d", rank);
	puts_("] ");
}

static void sgl(int rank, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sgl(int rank, const char *fmt, ...)
{
	sg(rank);
	va_list ap;
	va_start(ap, fmt);
	vputf(fmt, ap);
	va_end(ap);
	eol();
}

enum { P_NONE = -3, P_ENGINE = -2, P_API = -1 };

/* vLLM's process tag for who (P_API, P_ENGINE or a worker rank). */
static void vtag(int who)
{
	if (who == P_API) {
		if (R.style)
			putf("(APIServer pid=%d) ", R.api_pid);
	} else if (who == P_ENGINE) {
		putf(R.style ? "(EngineCore pid=%d) " : "(EngineCore_0 pid=%d) ", R.engine_pid);
	} else if (who >= 0) {
		if (!R.style)
			putf("(VllmWorker rank=%d pid=%d) ", who, R.worker_pid + who);
		else if (R.worker_named)
			putf("(Worker_TP%d pid=%d) ", who, R.worker_pid + who);
		else
			putf("(Worker pid=%d) ", R.worker_pid + who);
	}
}

/* "(tag) INFO 02-23 00:36:54 [file.py:123] " */
static void vh(int who, const char *level, const char *file, int line)
{
	struct tm tm = now_tm();
	vtag(who);
	putf("%s %02d-%02d %02d:%02d:%02d [%s:%d] ", level, tm.tm_mon + 1, tm.tm_mday,
	     tm.tm_hour, tm.tm_min, tm.tm_sec, file, line);
}

static void vl(int who, const char *level, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static void vl(int who, const char *level, const char *file, int line, const char *fmt, ...)
{
	vh(who, level, file, line);
	va_list ap;
	va_start(ap, fmt);
	vputf(fmt, ap);
	va_end(ap);
	eol();
}

/* A line of the run's own kind from the HTTP server (uvicorn). */
static void http_head(void)
{
	if (R.kind == K_SGLANG)
		sg(-1);
	else
		vtag(P_API);
}

/* ---- tqdm ---- */

static void mmss(int64_t s)
{
	if (s >= 3600)
		putf("%lld:%02lld:%02lld", (long long)(s / 3600), (long long)(s / 60 % 60), (long long)(s % 60));
	else
		putf("%02lld:%02lld", (long long)(s / 60), (long long)(s % 60));
}

/* One frame "desc:  42%|████▏     | 5/12 [00:03<00:04,  1.62it/s]".
 * completed: the " Completed | " style of weight-loading bars. */
static void frame(const char *desc, int i, int n, int64_t elapsed_ms, int completed)
{
	int pct = n ? i * 100 / n : 100;
	if (desc)
		putf("%s: ", desc);
	putf("%3d%%", pct);
	if (completed) {
		puts_(" Completed | ");
	} else {
		puts_("|");
		int eighths = n ? i * 80 / n : 80;
		for (int k = 0; k < 10; k++) {
			int f = eighths - k * 8;
			if (f >= 8)
				puts_("\xe2\x96\x88");
			else if (f > 0)
				put((const char[]){ '\xe2', '\x96', (char)(0x90 - f) }, 3);
			else
				puts_(" ");
		}
		puts_("| ");
	}
	putf("%d/%d [", i, n);
	mmss(elapsed_ms / 1000);
	puts_("<");
	if (i == 0) {
		puts_("?, ?it/s]");
		return;
	}
	int64_t per = elapsed_ms / i;                 /* ms per item */
	mmss(per * (n - i) / 1000);
	if (per >= 1000)
		putf(", %5ss/it]", fx(per / 10, 2));
	else
		putf(", %5sit/s]", fx(per ? 100000 / per : 99999, 2));
}

enum { BAR_LINES, BAR_CR, BAR_PASTED };

/* A whole bar of n steps taking about ms in total.  BAR_LINES: each frame
 * on its own line (tqdm writing to a file); BAR_CR: bare-CR frames, one LF
 * at the end; BAR_PASTED: CR frames with no LF, the next line of the log
 * follows the last frame directly. */
static void bar(int who, const char *desc, int n, int64_t ms, int completed, int how)
{
	int64_t el = 0;
	int step = n > 60 ? n / 30 : 1;
	for (int i = 0;;) {
		if (how == BAR_LINES) {
			if (who != P_NONE)
				vtag(who);
		} else {
			if (i == 0 && who != P_NONE)
				vtag(who);
			puts_("\r");
		}
		frame(desc, i, n, el, completed);
		if (how == BAR_LINES)
			eol();
		el += ms / (n ? n : 1) * step * range(80, 120) / 100;
		if (i == n)
			break;
		i = i + step > n ? n : i + step;
	}
	now += ms;
	if (how == BAR_CR)
		eol();
}

/* ---- ranks in a shuffled order, as concurrent processes print ---- */

static int order[64];

static void shuffle(void)
{
	for (int i = 0; i < R.tp; i++)
		order[i] = i;
	for (int i = R.tp - 1; i > 0; i--) {
		int j = (int)rnd((uint64_t)i + 1), t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
}

/* ---- SGLang startup ---- */

static const char *tf(int b)
{
	return b ? "True" : "False";
}

static void sglang_server_args(void)
{
	const struct model *m = R.m;
	/* Draws first: the order of evaluation of arguments is unspecified,
	 * and the bytes must not depend on the compiler. */
	int remote = chance(300), mem = (int)range(80, 90), seed = (int)range(1, 999999999);
	const char *attn = PICK(((const char *[]){ "flashinfer", "fa3", "triton" }));
	sg(-1);
	putf("server_args=ServerArgs(model_path='%s', tokenizer_path='%s', tokenizer_mode='auto', "
	     "tokenizer_worker_num=1, skip_tokenizer_init=False, load_format='auto', "
	     "model_loader_extra_config='{}', trust_remote_code=%s, context_length=None, "
	     "is_embedding=False, enable_multimodal=None, revision=None, "
	     "model_impl='auto', host='0.0.0.0', port=%d, skip_server_warmup=False, warmups=None, "
	     "nccl_port=None, dtype='auto', quantization=None, quantization_param_path=None, "
	     "kv_cache_dtype='auto', mem_fraction_static=0.%d, max_running_requests=%d, "
	     "max_queued_requests=None, max_total_tokens=None, chunked_prefill_size=%d, "
	     "max_prefill_tokens=16384, schedule_policy='fcfs', schedule_conservativeness=1.0, "
	     "page_size=1, hybrid_kvcache_ratio=None, swa_full_tokens_ratio=0.8, "
	     "disable_hybrid_swa_memory=False, device='cuda', tp_size=%d, pp_size=1, "
	     "max_micro_batch_size=None, stream_interval=1, stream_output=False, random_seed=%d, "
	     "constrained_json_whitespace_pattern=None, watchdog_timeout=300, dist_timeout=None, "
	     "download_dir=None, base_gpu_id=0, gpu_id_step=1, sleep_on_idle=False, "
	     "log_level='info', log_level_http=None, log_requests=False, log_requests_level=2, "
	     "crash_dump_folder=None, show_time_cost=False, enable_metrics=True, "
	     "enable_metrics_for_all_schedulers=False, bucket_time_to_first_token=None, "
	     "bucket_inter_token_latency=None, bucket_e2e_request_latency=None, "
	     "collect_tokens_histogram=False, decode_log_interval=40, enable_request_time_stats_logging=False, "
	     "kv_events_config=None, api_key=None, served_model_name='%s', weight_version='default', "
	     "chat_template=None, completion_template=None, file_storage_path='sglang_storage', "
	     "enable_cache_report=False, reasoning_parser=None, tool_call_parser=None, "
	     "tool_server=None, dp_size=1, load_balance_method='round_robin', "
	     "dist_init_addr=None, nnodes=1, node_rank=0, json_model_override_args='{}', "
	     "preferred_sampling_params=None, enable_lora=None, max_lora_rank=None, "
	     "lora_target_modules=None, lora_paths=None, max_loaded_loras=None, max_loras_per_batch=8, "
	     "lora_backend='triton', attention_backend='%s', decode_attention_backend=None, "
	     "prefill_attention_backend=None, sampling_backend='flashinfer', grammar_backend='xgrammar', "
	     "mm_attention_backend=None, speculative_algorithm=None, speculative_draft_model_path=None, "
	     "speculative_num_steps=None, speculative_eagle_topk=None, speculative_num_draft_tokens=None, "
	     "speculative_accept_threshold_single=1.0, speculative_accept_threshold_acc=1.0, "
	     "ep_size=1, moe_a2a_backend='none', moe_runner_backend='auto', enable_flashinfer_allreduce_fusion=False, "
	     "deepep_mode='auto', ep_num_redundant_experts=0, init_expert_location='trivial', "
	     "enable_eplb=False, eplb_algorithm='auto', eplb_rebalance_num_iterations=1000, "
	     "enable_hierarchical_cache=False, hicache_ratio=2.0, hicache_size=0, "
	     "hicache_write_policy='write_through', hicache_io_backend='kernel', "
	     "hicache_mem_layout='layer_first', hicache_storage_backend=None, "
	     "enable_double_sparsity=False, ds_channel_config_path=None, ds_heavy_channel_num=32, "
	     "ds_heavy_token_num=256, ds_heavy_channel_type='qk', ds_sparse_decode_threshold=4096, "
	     "cpu_offload_gb=0, offload_group_size=-1, offload_num_in_group=1, offload_prefetch_step=1, "
	     "disable_radix_cache=False, cuda_graph_max_bs=%d, cuda_graph_bs=None, "
	     "disable_cuda_graph=False, disable_cuda_graph_padding=False, enable_profile_cuda_graph=False, "
	     "enable_cudagraph_gc=False, enable_nccl_nvls=False, enable_symm_mem=False, "
	     "disable_flashinfer_cutlass_moe_fp4_allgather=False, enable_tokenizer_batch_encode=False, "
	     "disable_outlines_disk_cache=False, disable_custom_all_reduce=%s, enable_mscclpp=False, "
	     "disable_overlap_schedule=False, enable_mixed_chunk=False, enable_dp_attention=False, "
	     "enable_dp_lm_head=False, enable_two_batch_overlap=False, tbo_token_distribution_threshold=0.48, "
	     "enable_torch_compile=False, torch_compile_max_bs=32, torchao_config='', "
	     "enable_nan_detection=False, enable_p2p_check=False, triton_attention_reduce_in_fp32=False, "
	     "triton_attention_num_kv_splits=8, num_continuous_decode_steps=1, "
	     "delete_ckpt_after_loading=False, enable_memory_saver=False, allow_auto_truncate=False, "
	     "enable_custom_logit_processor=False, flashinfer_mla_disable_ragged=False, "
	     "disable_shared_experts_fusion=False, disable_chunked_prefix_cache=False, "
	     "disable_fast_image_processor=False, enable_return_hidden_states=False, "
	     "scheduler_recv_interval=1, debug_tensor_dump_output_folder=None, "
	     "debug_tensor_dump_input_file=None, debug_tensor_dump_inject=False, "
	     "debug_tensor_dump_prefill_only=False, disaggregation_mode='null', "
	     "disaggregation_transfer_backend='mooncake', disaggregation_bootstrap_port=8998, "
	     "disaggregation_decode_tp=None, disaggregation_decode_dp=None, "
	     "disaggregation_prefill_pp=1, disaggregation_ib_device=None, num_reserved_decode_tokens=512, "
	     "pdlb_url=None, custom_weight_loader=[], weight_loader_disable_mmap=False, "
	     "enable_pdmux=False, sm_group_num=3, enable_ep_moe=False, enable_deepep_moe=False, "
	     "enable_flashinfer_cutlass_moe=False, enable_triton_kernel_moe=False)",
	     m->name, m->name, tf(remote), R.port, mem, R.max_running,
	     R.g->mem_mb > 40000 ? 8192 : 2048, R.tp, seed, m->name, attn, R.cuda_graph_bs,
	     tf(R.g->pcie && R.tp > 2));
	eol();
}

static void sglang_startup(void)
{
	const struct model *m = R.m;
	int s = R.style;
	if (!s)
		for (int i = 0; i <= R.tp; i++) {
			struct tm tm = now_tm();
			putf("INFO %02d-%02d %02d:%02d:%02d __init__.py:190] Automatically detected platform cuda.",
			     tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
			eol();
			tick(0, 900);
		}
	tick(1000, 3000);
	sglang_server_args();
	if (s) {
		sgl(-1, "Using default HuggingFace chat template with detected content format: string");
		if (chance(500))
			sgl(-1, "Attention backend not specified. Use flashinfer backend by default.");
	}
	tick(2000, 6000);
	shuffle();
	for (int i = 0; i < R.tp; i++)
		sgl(order[i], "Init torch distributed begin.");
	tick(300, 1500);
	if (!s) {
		shuffle();
		for (int i = 0; i < R.tp; i++)
			sgl(order[i], "sglang is using nccl==2.21.5");
	}
	if (R.g->pcie && R.tp > 2) {
		shuffle();
		for (int i = 0; i < R.tp; i++)
			sgl(order[i], "Custom allreduce is disabled because it's not supported on more than two "
				      "PCIe-only GPUs. To silence this warning, specify disable_custom_all_reduce=True "
				      "explicitly.");
	}
	shuffle();
	int64_t dist_mb = range(30, 200);
	for (int i = 0; i < R.tp; i++) {
		if (s)
			sgl(order[i], "Init torch distributed ends. elapsed=%s s, mem usage=%s GB",
			    fx(range(5, 90), 2), fx(dist_mb / 10, 2));
		else
			sgl(order[i], "Init torch distributed ends. mem usage=%s GB", fx(dist_mb / 10, 2));
	}
	R.avail_mb -= dist_mb;
	shuffle();
	for (int i = 0; i < R.tp; i++)
		sgl(order[i], "Load weight begin. avail mem=%s GB", fx(R.avail_mb / 10, 2));
	tick(200, 800);
	int64_t load_ms = (int64_t)m->weight_gb * range(150, 900);
	if (s)
		bar(P_NONE, "Loading safetensors checkpoint shards", m->shards, load_ms, 1,
		    chance(500) ? BAR_CR : BAR_PASTED);
	else
		bar(P_NONE, "Loading safetensors checkpoint shards", m->shards, load_ms, 1, BAR_LINES);
	if (!s)
		eol();   /* tqdm's closing newline */
	int64_t w_mb = (int64_t)m->weight_gb * 1024 / R.tp;
	R.avail_mb -= w_mb;
	shuffle();
	for (int i = 0; i < R.tp; i++) {
		if (s)
			sgl(order[i], "Load weight end. elapsed=%s s, type=%s, dtype=torch.bfloat16, avail mem=%s GB, mem usage=%s GB.",
			    fx(load_ms / 10 + range(0, 99), 2), m->arch, fx(R.avail_mb / 10, 2), fx(w_mb / 10, 2));
		else
			sgl(order[i], "Load weight end. type=%s, dtype=torch.bfloat16, avail mem=%s GB, mem usage=%s GB.",
			    m->arch, fx(R.avail_mb / 10, 2), fx(w_mb / 10, 2));
	}
	int64_t kv_mb = R.avail_mb * range(70, 85) / 100;
	if (kv_mb < 512)
		kv_mb = 512;
	R.max_tokens = kv_mb * 1024 / range(80, 320);
	shuffle();
	for (int i = 0; i < R.tp; i++)
		sgl(order[i], "KV Cache is allocated. %s#tokens: %lld, K size: %s GB, V size: %s GB",
		    s ? "dtype: torch.bfloat16, " : "", (long long)R.max_tokens, fx(kv_mb / 20, 2), fx(kv_mb / 20, 2));
	R.avail_mb -= kv_mb;
	shuffle();
	for (int i = 0; i < R.tp; i++)
		sgl(order[i], "Memory pool end. avail mem=%s GB", fx(R.avail_mb / 10, 2));
	tick(300, 2000);
	static const int bss[] = { 1, 2, 4, 8, 12, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104, 112,
				   120, 128, 136, 144, 152, 160, 168, 176, 184, 192, 200, 208, 216, 224,
				   232, 240, 248, 256 };
	int nbs = 0;
	while (nbs < (int)(sizeof(bss) / sizeof(bss[0])) && bss[nbs] <= R.cuda_graph_bs)
		nbs++;
	int64_t cap_ms = nbs * range(150, 700);
	shuffle();
	if (s) {
		for (int i = 0; i < R.tp; i++)
			sgl(order[i], "Capture cuda graph begin. This can take up to several minutes. avail mem=%s GB",
			    fx(R.avail_mb / 10, 2));
		sg(R.tp > 1 ? 0 : -1);
		puts_("Capture cuda graph bs [");
		for (int k = 0; k < nbs; k++)
			putf("%s%d", k ? ", " : "", bss[k]);
		puts_("]");
		eol();
		/* Capturing batches, largest first, the description changing per frame. */
		int64_t el = 0;
		int64_t mb = R.avail_mb;
		for (int i = 0; i <= nbs; i++) {
			puts_("\r");
			if (i == 0) {
				frame(NULL, 0, nbs, 0, 0);
				puts_("\r");
			}
			char desc[80];
			snprintf(desc, sizeof(desc), "Capturing batches (bs=%d avail_mem=%s GB)",
				 bss[nbs - 1 - (i < nbs ? i : nbs - 1)], fx(mb / 10, 2));
			frame(desc, i, nbs, el, 0);
			el += cap_ms / nbs;
			mb -= range(0, 30);
		}
		/* The bar's last frame runs into the next line, as in the real logs. */
		now += cap_ms;
	} else {
		sgl(order[0], "Capture cuda graph begin. This can take up to several minutes. avail mem=%s GB",
		    fx(R.avail_mb / 10, 2));
		frame(NULL, 0, nbs, 0, 0);
		for (int i = 1; i < R.tp; i++)
			sgl(order[i], "Capture cuda graph begin. This can take up to several minutes. avail mem=%s GB",
			    fx(R.avail_mb / 10, 2));
		now += cap_ms;
		frame(NULL, nbs, nbs, cap_ms, 0);
		eol();
	}
	int64_t graph_mb = range(50, 2500);
	R.avail_mb -= graph_mb;
	shuffle();
	for (int i = 0; i < R.tp; i++) {
		if (s)
			sgl(order[i], "Capture cuda graph end. Time elapsed: %s s. mem usage=%s GB. avail mem=%s GB.",
			    fx(cap_ms / 10 + range(-20, 20), 2), fx(graph_mb / 10, 2), fx(R.avail_mb / 10, 2));
		else
			sgl(order[i], "Capture cuda graph end. Time elapsed: %s s. avail mem=%s GB. mem usage=%s GB.",
			    fx(cap_ms / 10 + range(-20, 20), 2), fx(R.avail_mb / 10, 2), fx(graph_mb / 10, 2));
	}
	tick(200, 1200);
	if (s) {
		sgl(0, "max_total_num_tokens=%lld, chunked_prefill_size=8192, max_prefill_tokens=16384, "
		       "max_running_requests=%d, context_len=%d, available_gpu_mem=%s GB",
		    (long long)R.max_tokens, R.max_running, m->context, fx(R.avail_mb / 10, 2));
	} else {
		shuffle();
		for (int i = 0; i < R.tp; i++)
			sgl(order[i], "max_total_num_tokens=%lld, chunked_prefill_size=2048, max_prefill_tokens=16384, "
				      "max_running_requests=%d, context_len=%d",
			    (long long)R.max_tokens, R.max_running, m->context);
	}
	tick(100, 900);
	sgl(-1, "INFO:     Started server process [%d]", R.api_pid);
	sgl(-1, "INFO:     Waiting for application startup.");
	sgl(-1, "INFO:     Application startup complete.");
	sgl(-1, "INFO:     Uvicorn running on http://0.0.0.0:%d (Press CTRL+C to quit)", R.port);
	tick(300, 1200);
	sgl(-1, "INFO:     127.0.0.1:%d - \"GET %s HTTP/1.1\" 200 OK", (int)range(32768, 60999),
	    s ? "/model_info" : "/get_model_info");
	if (s)
		sgl(0, "Prefill batch, #new-seq: 1, #new-token: 6, #cached-token: 0, token usage: 0.00, "
		       "#running-req: 0, #queue-req: 0, input throughput (token/s): 0.00, cuda graph: True");
	else
		sgl(0, "Prefill batch. #new-seq: 1, #new-token: 6, #cached-token: 0, token usage: 0.00, "
		       "#running-req: 0, #queue-req: 0, ");
	tick(500, 3000);
	sgl(-1, "INFO:     127.0.0.1:%d - \"POST /generate HTTP/1.1\" 200 OK", (int)range(32768, 60999));
	sgl(-1, "The server is fired up and ready to roll!");
}

/* ---- vLLM startup ---- */

static void vllm_config_dump(void)
{
	const struct model *m = R.m;
	vh(P_ENGINE, "INFO", "core.py", R.style ? 105 : 75);
	putf("Initializing a V1 LLM engine (v%s) with config: model='%s', speculative_config=None, "
	     "tokenizer='%s', skip_tokenizer_init=False, tokenizer_mode=auto, revision=None, "
	     "tokenizer_revision=None, trust_remote_code=False, dtype=torch.bfloat16, max_seq_len=%d, "
	     "download_dir=None, load_format=auto, tensor_parallel_size=%d, pipeline_parallel_size=1, "
	     "data_parallel_size=1, disable_custom_all_reduce=False, quantization=None, "
	     "enforce_eager=False, kv_cache_dtype=auto, device_config=cuda, "
	     "structured_outputs_config=StructuredOutputsConfig(backend='auto', disable_fallback=False, "
	     "disable_any_whitespace=False, disable_additional_properties=False, reasoning_parser=''), "
	     "observability_config=ObservabilityConfig(show_hidden_metrics_for_version=None, "
	     "otlp_traces_endpoint=None, collect_detailed_traces=None), seed=0, served_model_name=%s, "
	     "enable_prefix_caching=True, chunked_prefill_enabled=True, pooler_config=None, "
	     "compilation_config={'level': 3, 'debug_dump_path': None, 'cache_dir': '', 'backend': '', "
	     "'custom_ops': [], 'splitting_ops': ['vllm.unified_attention', "
	     "'vllm.unified_attention_with_output', 'vllm.mamba_mixer2'], 'use_inductor': True, "
	     "'compile_sizes': [], 'inductor_compile_config': {'enable_auto_functionalized_v2': False}, "
	     "'inductor_passes': {}, 'cudagraph_mode': 'FULL_AND_PIECEWISE', 'use_cudagraph': True, "
	     "'cudagraph_num_of_warmups': 1, 'cudagraph_capture_sizes': [512, 504, 496, 488, 480, 472, "
	     "464, 456, 448, 440, 432, 424, 416, 408, 400, 392, 384, 376, 368, 360, 352, 344, 336, 328, "
	     "320, 312, 304, 296, 288, 280, 272, 264, 256, 248, 240, 232, 224, 216, 208, 200, 192, 184, "
	     "176, 168, 160, 152, 144, 136, 128, 120, 112, 104, 96, 88, 80, 72, 64, 56, 48, 40, 32, 24, "
	     "16, 8, 4, 2, 1], 'cudagraph_copy_inputs': False, 'full_cuda_graph': False, "
	     "'pass_config': {}, 'max_capture_size': 512, 'local_cache_dir': None}",
	     R.style ? "0.19.0" : "0.10.1.1", m->name, m->name, m->context > 32768 ? 32768 : m->context,
	     R.tp, m->name);
	eol();
}

static void vllm_startup(void)
{
	const struct model *m = R.m;
	int s = R.style;
	int maxlen = m->context > 32768 ? 32768 : m->context;
	R.worker_named = 0;
	if (s) {
		static const char *const banner[] = {
			"",
			"       \xe2\x96\x88     \xe2\x96\x88     \xe2\x96\x88\xe2\x96\x84   \xe2\x96\x84\xe2\x96\x88",
			" \xe2\x96\x84\xe2\x96\x84 \xe2\x96\x84\xe2\x96\x88 \xe2\x96\x88     \xe2\x96\x88     \xe2\x96\x88 \xe2\x96\x80\xe2\x96\x84\xe2\x96\x80 \xe2\x96\x88  version 0.19.0",
			"  \xe2\x96\x88\xe2\x96\x84\xe2\x96\x88\xe2\x96\x80 \xe2\x96\x88     \xe2\x96\x88     \xe2\x96\x88     \xe2\x96\x88  model   %s",
			"   \xe2\x96\x80\xe2\x96\x80  \xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80 \xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80\xe2\x96\x80 \xe2\x96\x80     \xe2\x96\x80",
			"",
		};
		for (size_t i = 0; i < sizeof(banner) / sizeof(banner[0]); i++) {
			vh(P_API, "INFO", "utils.py", 299);
			putf(banner[i], m->name);
			eol();
		}
		vl(P_API, "INFO", "utils.py", 233, "non-default args: {'model': '%s', 'max_model_len': %d, "
		   "'served_model_name': ['%s'], 'tensor_parallel_size': %d, 'port': %d}",
		   m->name, maxlen, strchr(m->name, '/') + 1, R.tp, R.port);
	} else {
		vl(P_API, "INFO", "api_server.py", 1805, "vLLM API server version 0.10.1.1");
		vl(P_API, "INFO", "utils.py", 326, "non-default args: {'model': '%s', 'max_model_len': %d, "
		   "'tensor_parallel_size': %d, 'enable_log_requests': True, 'port': %d}",
		   m->name, maxlen, R.tp, R.port);
	}
	static const char *const envs[] = { "SVC_SERVICE_PORT", "SVC_PORT", "SVC_PORT_80_TCP",
					    "SVC_PORT_80_TCP_PROTO", "SVC_SERVICE_HOST" };
	int nenv = (int)rnd(6);
	for (int i = 0; i < nenv; i++)
		vl(P_API, "WARNING", "envs.py", 1744, "Unknown vLLM environment variable detected: VLLM_%s",
		   envs[i % 5]);
	tick(5000, 12000);
	vl(P_API, "INFO", "model.py", 549, "Resolved architecture: %s", m->arch);
	vl(P_API, "INFO", "model.py", 1678, "Using max model len %d", maxlen);
	vl(P_API, "INFO", "scheduler.py", 222, "Chunked prefill is enabled with max_num_batched_tokens=%d.",
	   R.g->mem_mb > 40000 ? 8192 : 2048);
	tick(3000, 7000);
	vllm_config_dump();
	if (R.tp > 1)
		vl(P_ENGINE, "WARNING", "multiproc_executor.py", 720, "Reducing Torch parallelism from %d threads "
		   "to 1 to avoid unnecessary CPU contention. Set OMP_NUM_THREADS in the external environment "
		   "to tune this value as needed.", (int)range(2, 16) * 8);
	tick(3000, 8000);
	int dport = (int)range(30000, 60000);
	shuffle();
	for (int i = 0; i < R.tp; i++)
		vl(order[i], "INFO", "parallel_state.py", 1400, "world_size=%d rank=%d local_rank=%d "
		   "distributed_init_method=tcp://127.0.0.1:%d backend=nccl", R.tp, order[i], order[i], dport);
	tick(300, 1500);
	if (R.tp > 1) {
		vl(0, "INFO", "pynccl.py", 111, "vLLM is using nccl==2.27.5");
		if (R.g->pcie && R.tp > 2) {
			shuffle();
			for (int i = 0; i < R.tp; i++)
				vl(order[i], "WARNING", "custom_all_reduce.py", 154, "Custom allreduce is disabled "
				   "because it's not supported on more than two PCIe-only GPUs. To silence this "
				   "warning, specify disable_custom_all_reduce=True explicitly.");
		}
	}
	shuffle();
	for (int i = 0; i < R.tp; i++)
		vl(order[i], "INFO", "parallel_state.py", 1716, "rank %d in world size %d is assigned as DP rank 0, "
		   "PP rank 0, TP rank %d, EP rank %d", order[i], R.tp, order[i], order[i]);
	R.worker_named = 1;
	tick(300, 1500);
	shuffle();
	for (int i = 0; i < R.tp; i++)
		vl(order[i], "INFO", "gpu_model_runner.py", 2368, "Starting to load model %s...", m->name);
	vl(0, "INFO", "cuda.py", 334, "Using FLASH_ATTN attention backend out of potential backends: "
	   "['FLASH_ATTN', 'FLASHINFER', 'TRITON_ATTN', 'FLEX_ATTENTION'].");
	int64_t load_ms = (int64_t)m->weight_gb * range(150, 900);
	if (s)
		bar(P_NONE, "Loading safetensors checkpoint shards", m->shards, load_ms, 1, BAR_LINES);
	else
		bar(0, "Loading safetensors checkpoint shards", m->shards, load_ms, 1, BAR_CR);
	vtag(0);
	eol();
	int64_t w_mb = (int64_t)m->weight_gb * 1024 / R.tp;
	shuffle();
	for (int i = 0; i < R.tp; i++)
		vl(order[i], "INFO", "default_loader.py", 384, "Loading weights took %s seconds",
		   fx(load_ms / 10 + range(-50, 50), 2));
	shuffle();
	for (int i = 0; i < R.tp; i++)
		vl(order[i], "INFO", "gpu_model_runner.py", 2392, "Model loading took %s GiB and %s seconds",
		   fx(w_mb / 10, 2), fx(load_ms * 1000 + range(0, 999999), 6));
	R.avail_mb -= w_mb;
	tick(5000, 20000);
	const char *hash = hex(10);
	int64_t dyn = range(200, 2500), comp = range(500, 3000);
	shuffle();
	for (int i = 0; i < R.tp; i++) {
		vl(order[i], "INFO", "backends.py", 539, "Using cache directory: /root/.cache/vllm/torch_compile_cache/%s/"
		   "rank_%d_0/backbone for vLLM's torch.compile", hash, order[i]);
		vl(order[i], "INFO", "backends.py", 550, "Dynamo bytecode transform time: %s s", fx(dyn + range(-30, 30), 2));
	}
	tick(3000, 12000);
	shuffle();
	for (int i = 0; i < R.tp; i++) {
		vl(order[i], "INFO", "backends.py", 194, "Cache the graph for dynamic shape for later use");
		vl(order[i], "INFO", "backends.py", 215, "Compiling a graph for dynamic shape takes %s s",
		   fx(comp + range(-30, 30), 2));
		vl(order[i], "INFO", "monitor.py", 34, "torch.compile takes %s s in total", fx(dyn + comp, 2));
	}
	tick(2000, 6000);
	shuffle();
	for (int i = 0; i < R.tp; i++)
		vl(order[i], "INFO", "monitor.py", 76, "Initial profiling/warmup run took %s s", fx(range(100, 900), 2));
	int64_t kv_mb = R.avail_mb * range(70, 85) / 100;
	if (kv_mb < 512)
		kv_mb = 512;
	shuffle();
	for (int i = 0; i < R.tp; i++)
		vl(order[i], "INFO", "gpu_worker.py", 276, "Available KV cache memory: %s GiB", fx(kv_mb / 10, 2));
	R.avail_mb -= kv_mb;
	R.max_tokens = kv_mb * 1024 / range(80, 320);
	vl(P_ENGINE, "INFO", "kv_cache_utils.py", 849, "GPU KV cache size: %s tokens", commas(R.max_tokens));
	vl(P_ENGINE, "INFO", "kv_cache_utils.py", 853, "Maximum concurrency for %s tokens per request: %sx",
	   commas(maxlen), fx(R.max_tokens * 100 / maxlen, 2));
	int64_t cap1 = range(5000, 20000), cap2 = range(3000, 10000);
	bar(s ? P_NONE : 0, "Capturing CUDA graphs (mixed prefill-decode, PIECEWISE)", 67, cap1, 0, BAR_CR);
	bar(s ? P_NONE : 0, "Capturing CUDA graphs (decode, FULL)", 35, cap2, 0, BAR_CR);
	int64_t graph_mb = range(300, 3000);
	shuffle();
	for (int i = 0; i < R.tp; i++)
		vl(order[i], "INFO", "gpu_model_runner.py", 3118, "Graph capturing finished in %d secs, took %s GiB",
		   (int)((cap1 + cap2) / 1000), fx(graph_mb / 10, 2));
	vl(P_ENGINE, "INFO", "core.py", 214, "init engine (profile, create kv cache, warmup model) took %s seconds",
	   fx(range(3000, 15000), 2));
	tick(1000, 4000);
	vl(P_API, "INFO", "api_server.py", 1611, "Supported tasks: ['generate']");
	vl(P_API, "WARNING", "__init__.py", 1625, "Default sampling parameters have been overridden by the "
	   "model's Hugging Face generation config recommended from the model creator. If this is not intended, "
	   "please relaunch vLLM instance with `--generation-config vllm`.");
	vl(P_API, "INFO", "serving_responses.py", 120, "Using default chat sampling params from model: "
	   "{'repetition_penalty': 1.05, 'temperature': 0.7, 'top_k': 20, 'top_p': 0.8}");
	vl(P_API, "INFO", "api_server.py", 1880, "Starting vLLM API server 0 on http://0.0.0.0:%d", R.port);
	vl(P_API, "INFO", "launcher.py", 29, "Available routes are:");
	static const char *const routes[][2] = {
		{ "/openapi.json", "HEAD, GET" }, { "/docs", "HEAD, GET" },
		{ "/docs/oauth2-redirect", "HEAD, GET" }, { "/redoc", "HEAD, GET" },
		{ "/health", "GET" }, { "/load", "GET" }, { "/ping", "POST" }, { "/ping", "GET" },
		{ "/tokenize", "POST" }, { "/detokenize", "POST" }, { "/v1/models", "GET" },
		{ "/version", "GET" }, { "/v1/responses", "POST" },
		{ "/v1/responses/{response_id}", "GET" }, { "/v1/chat/completions", "POST" },
		{ "/v1/completions", "POST" }, { "/v1/embeddings", "POST" }, { "/pooling", "POST" },
		{ "/classify", "POST" }, { "/score", "POST" }, { "/v1/score", "POST" },
		{ "/rerank", "POST" }, { "/v1/rerank", "POST" }, { "/invocations", "POST" },
		{ "/metrics", "GET" },
	};
	for (size_t i = 0; i < sizeof(routes) / sizeof(routes[0]); i++)
		vl(P_API, "INFO", "launcher.py", 37, "Route: %s, Methods: %s", routes[i][0], routes[i][1]);
	vtag(P_API);
	putf("INFO:     Started server process [%d]", R.api_pid);
	eol();
	vtag(P_API);
	puts_("INFO:     Waiting for application startup.");
	eol();
	vtag(P_API);
	puts_("INFO:     Application startup complete.");
	eol();
}

/* ---- serving ---- */

static const char *const paths[] = {
	"/v1/chat/completions", "/v1/chat/completions", "/v1/chat/completions",
	"/v1/chat/completions", "/v1/chat/completions", "/v1/completions", "/v1/completions",
	"/generate",
};

static const char *const prompts[] = {
	"Summarize the following article in three sentences.",
	"Write a Python function that checks whether a string is a palindrome.",
	"What is the capital of Australia?",
	"Translate to French: The meeting has been moved to Thursday.",
	"Explain the difference between TCP and UDP.",
	"You are a helpful assistant. List five uses of a paperclip.",
	"Solve for x: 3x + 7 = 22. Show your steps.",
	"Write a haiku about autumn leaves.",
	"Give me a SQL query that returns the ten most recent orders.",
	"Why is the sky blue?",
	"Refactor this code to use a dictionary instead of a chain of if statements.",
	"Draft a polite email declining a meeting invitation.",
};

static void client(void)
{
	static const int nets[][3] = { { 10, 0, 2 }, { 10, 0, 3 }, { 10, 12, 7 }, { 172, 16, 4 } };
	const int *n = nets[rnd(4)];
	if (chance(150))
		puts_("127.0.0.1");
	else
		putf("%d.%d.%d.%d", n[0], n[1], n[2], (int)range(2, 254));
	putf(":%d", (int)range(1024, 65535));
}

static void request_line(const char *method, const char *path, int status)
{
	http_head();
	puts_("INFO:     ");
	client();
	const char *reason = status == 200 ? "OK" : status == 400 ? "Bad Request" :
			     status == 404 ? "Not Found" : status == 422 ? "Unprocessable Entity" :
			     "Internal Server Error";
	putf(" - \"%s %s HTTP/1.1\" %d %s", method, path, status, reason);
	eol();
}

static void traceback_sglang(void)
{
	sgl(-1, "ERROR:    Exception in ASGI application");
	puts_("Traceback (most recent call last):");
	eol();
	static const char *const frames[][3] = {
		{ "uvicorn/protocols/http/httptools_impl.py", "409", "run_asgi\n    result = await app(  # type: ignore[func-returns-value]" },
		{ "uvicorn/middleware/proxy_headers.py", "60", "__call__\n    return await self.app(scope, receive, send)" },
		{ "fastapi/applications.py", "1054", "__call__\n    await super().__call__(scope, receive, send)" },
		{ "starlette/routing.py", "714", "__call__\n    await self.middleware_stack(scope, receive, send)" },
		{ "sglang/srt/entrypoints/http_server.py", "631", "openai_v1_chat_completions\n    return await raw_request.app.state.openai_serving_chat.handle_request(" },
		{ "sglang/srt/entrypoints/openai/serving_base.py", "66", "handle_request\n    adapted_request, processed_request = self._convert_to_internal_request(" },
		{ "sglang/srt/entrypoints/openai/serving_chat.py", "112", "_convert_to_internal_request\n    ) = self._process_messages(request, is_multimodal)" },
	};
	for (size_t i = 0; i < sizeof(frames) / sizeof(frames[0]); i++) {
		putf("  File \"/usr/local/lib/python3.12/dist-packages/%s\", line %s, in %s", frames[i][0],
		     frames[i][1], frames[i][2]);
		eol();
	}
	putf("ValueError: Requested token count exceeds the model's maximum context length of %d tokens. "
	     "You requested a total of %d tokens", R.m->context, R.m->context + (int)range(1, 9000));
	eol();
}

static void traceback_vllm(void)
{
	static const char *const lines[] = {
		"Error in preprocessing prompt inputs",
		"Traceback (most recent call last):",
		"  File \"/usr/local/lib/python3.12/dist-packages/vllm/entrypoints/openai/serving_chat.py\", line 227, in create_chat_completion",
		"    ) = await self._preprocess_chat(",
		"        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
		"  File \"/usr/local/lib/python3.12/dist-packages/vllm/entrypoints/openai/serving_engine.py\", line 1032, in _preprocess_chat",
		"    prompt_inputs = await self._tokenize_prompt_input_async(",
		"                    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
		"  File \"/usr/local/lib/python3.12/dist-packages/vllm/entrypoints/openai/serving_engine.py\", line 820, in _tokenize_prompt_input_async",
		"    async for result in self._tokenize_prompt_inputs_async(",
		"  File \"/usr/local/lib/python3.12/dist-packages/vllm/entrypoints/openai/serving_engine.py\", line 585, in _validate_input",
		"    raise ValueError(",
	};
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		vl(P_API, "ERROR", "serving_chat.py", 231, "%s", lines[i]);
	vl(P_API, "ERROR", "serving_chat.py", 231, "ValueError: This model's maximum context length is %d "
	   "tokens. However, you requested %d tokens (%d in the messages, %d in the completion). Please "
	   "reduce the length of the messages or completion.", R.m->context, R.m->context + 1000,
	   R.m->context - 24, 1024);
	request_line("POST", "/v1/chat/completions", 400);
}

/* One error event: a traceback, or a single ERROR line. */
static void error_event(int traceback)
{
	if (traceback) {
		if (R.kind == K_SGLANG) {
			traceback_sglang();
			request_line("POST", "/v1/chat/completions", 500);
		} else {
			traceback_vllm();
		}
		return;
	}
	if (R.kind == K_SGLANG)
		sgl(-1, "ERROR:    Error in request %s: client disconnected before the response was sent", hex(32));
	else
		vl(P_ENGINE, "ERROR", "core.py", 828, "Aborted request chatcmpl-%s: stream closed by client", hex(32));
}

static void warning_event(void)
{
	if (R.kind == K_SGLANG) {
		int ratio = (int)range(2000, 7000), up = (int)range(500, 3000), n = (int)range(1, 4);
		sgl(0, "KV cache pool is full. Retract requests. #retracted_reqs: %d, #new_token_ratio: %s -> %s",
		    n, fx(ratio, 4), fx(ratio + up, 4));
	} else {
		vl(P_API, "WARNING", "protocol.py", 66, "The following fields were present in the request but ignored: {'%s'}",
		   PICK(((const char *[]){ "stream_options", "metadata", "store", "parallel_tool_calls" })));
	}
}

/* A vLLM request being received, with --enable-log-requests (v0.10 runs). */
static void vllm_request_log(void)
{
	const char *id = hex(32);
	int max_tokens = (int)PICK(((const int[]){ 256, 512, 1024, 2048, 4096 }));
	vl(P_API, "INFO", "logger.py", 43, "Received request chatcmpl-%s: prompt: '<|im_start|>system\\nYou are "
	   "a helpful assistant.<|im_end|>\\n<|im_start|>user\\n%s<|im_end|>\\n<|im_start|>assistant\\n', "
	   "params: SamplingParams(n=1, presence_penalty=0.0, frequency_penalty=0.0, repetition_penalty=1.05, "
	   "temperature=0.7, top_p=0.8, top_k=20, min_p=0.0, seed=None, stop=[], stop_token_ids=[], bad_words=[], "
	   "include_stop_str_in_output=False, ignore_eos=False, max_tokens=%d, min_tokens=0, logprobs=None, "
	   "prompt_logprobs=None, skip_special_tokens=True, spaces_between_special_tokens=True, "
	   "truncate_prompt_tokens=None, guided_decoding=None, extra_args=None), prompt_token_ids: None, "
	   "prompt_embeds shape: None, lora_request: None.", id, PICK(prompts), max_tokens);
	vl(P_API, "INFO", "async_llm.py", 273, "Added request chatcmpl-%s.", id);
}

static void sglang_prefill(int seqs)
{
	int64_t newtok = seqs * range(20, 3000), cached = rnd(3) ? range(0, newtok) : 0;
	int64_t usage = R.max_tokens ? R.tokens * 100 / R.max_tokens : 0;
	if (R.style)
		sgl(0, "Prefill batch, #new-seq: %d, #new-token: %lld, #cached-token: %lld, token usage: %s, "
		       "#running-req: %d, #queue-req: %d, input throughput (token/s): %s, cuda graph: False",
		    seqs, (long long)newtok, (long long)cached, fx(usage, 2), R.running, R.queued,
		    fx(range(1000, 2000000), 2));
	else
		sgl(0, "Prefill batch. #new-seq: %d, #new-token: %lld, #cached-token: %lld, token usage: %s, "
		       "#running-req: %d, #queue-req: %d, ",
		    seqs, (long long)newtok, (long long)cached, fx(usage, 2), R.running, R.queued);
	R.tokens += newtok;
}

static void sglang_decode(void)
{
	int64_t usage = R.max_tokens ? R.tokens * 100 / R.max_tokens : 0;
	int64_t tput = R.running * range(2500, 6500);   /* hundredths */
	tput += range(0, 99);
	if (R.style)
		sgl(0, "Decode batch, #running-req: %d, #token: %lld, token usage: %s, cuda graph: %s, "
		       "gen throughput (token/s): %s, #queue-req: %d",
		    R.running, (long long)R.tokens, fx(usage, 2), tf(R.running <= R.cuda_graph_bs),
		    fx(tput, 2), R.queued);
	else
		sgl(0, "Decode batch. #running-req: %d, #token: %lld, token usage: %s, "
		       "gen throughput (token/s): %s, #queue-req: %d",
		    R.running, (long long)R.tokens, fx(usage, 2), fx(tput, 2), R.queued);
}

static void vllm_stats(void)
{
	int64_t q = R.prefix_queries ? R.prefix_queries : 1;
	vl(P_API, "INFO", "loggers.py", 123, "Engine 000: Avg prompt throughput: %s tokens/s, Avg generation "
	   "throughput: %s tokens/s, Running: %d reqs, Waiting: %d reqs, GPU KV cache usage: %s%%, "
	   "Prefix cache hit rate: %s%%", fx(R.prompt_tps, 1), fx(R.gen_tps, 1), R.running, R.queued,
	   fx(R.max_tokens ? R.tokens * 1000 / R.max_tokens : 0, 1), fx(R.prefix_hits * 1000 / q, 1));
	R.prompt_tps = R.gen_tps = 0;
}

/* Serve until total() reaches stop; returns 1 when the file is full. */
static int serve(uint64_t stop, uint64_t size)
{
	R.running = R.queued = 0;
	R.tokens = 0;
	R.load = (int)range(100, 900);
	R.next_health = now + 5000;
	R.next_metrics = now + 15000;
	R.next_stats = now + 10000;
	R.next_decode = now;
	uint64_t start = total();
	R.tracebacks = (int)range(1, 2);
	R.errors = (int)range(3, 6);
	for (int i = 0; i < R.errors; i++)
		R.error_at[i] = start + rnd(stop > start ? stop - start : 1);
	int health_probe = 0;
	while (total() < stop) {
		if (total() >= size)
			return 1;
		tick(20, 400);
		R.load += (int)range(-15, 15);
		R.load = R.load < 0 ? 0 : R.load > 1000 ? 1000 : R.load;
		/* arrivals */
		int arrivals = chance((unsigned)(R.load / 3)) ? (int)range(1, 1 + R.load / 150) : 0;
		if (arrivals) {
			int admit = arrivals;
			if (R.running + admit > R.max_running)
				admit = R.max_running - R.running;
			R.queued += arrivals - admit;
			R.running += admit;
			if (R.kind == K_SGLANG && admit > 0)
				sglang_prefill(admit);
			if (R.kind == K_VLLM) {
				for (int i = 0; i < arrivals && !R.style; i++)
					vllm_request_log();
				R.prompt_tps += arrivals * range(20, 3000) / 10 * 10;
				R.prefix_queries += arrivals;
				R.prefix_hits += rnd((uint64_t)arrivals + 1);
			}
		}
		/* decoding */
		if (R.running) {
			R.tokens += R.running * range(5, 40);
			if (R.tokens > R.max_tokens * 95 / 100) {
				R.tokens = R.max_tokens * 90 / 100;
				if (chance(300))
					warning_event();
			}
			R.gen_tps += R.running * range(5, 40);
		}
		if (R.kind == K_SGLANG && R.running && now >= R.next_decode) {
			sglang_decode();
			R.next_decode = now + range(400, 2500);
		}
		/* completions */
		int done = R.running ? (int)rnd((uint64_t)R.running / 4 + 2) : 0;
		if (done > R.running)
			done = R.running;
		for (int i = 0; i < done; i++) {
			R.running--;
			R.tokens -= R.running ? R.tokens / (R.running + 1) : R.tokens;
			if (R.queued) {
				R.queued--;
				R.running++;
				if (R.kind == K_SGLANG)
					sglang_prefill(1);
			}
			int status = chance(4) ? (chance(500) ? 400 : 422) : 200;
			request_line("POST", PICK(paths), status);
			if (R.kind == K_VLLM && !R.style && status == 200 && chance(20)) {
				const char *id = hex(32);
				vl(P_ENGINE, "INFO", "core.py", 795, "Finished request chatcmpl-%s after %d tokens.",
				   id, (int)range(1, 4096));
			}
		}
		/* periodic traffic */
		if (now >= R.next_health) {
			http_head();
			putf("INFO:     10.0.%d.%d:%d - \"GET /health HTTP/1.1\" 200 OK", health_probe ? 0 : 2,
			     health_probe ? 207 : 141, (int)range(10000, 60000));
			eol();
			health_probe ^= 1;
			R.next_health += 2500;
		}
		if (now >= R.next_metrics) {
			request_line("GET", "/metrics", 200);
			R.next_metrics += 15000;
		}
		if (R.kind == K_VLLM && now >= R.next_stats) {
			vllm_stats();
			R.next_stats += 10000;
		}
		if (chance(2)) {
			const char *p = PICK(((const char *[]){ "/v1/models", "/favicon.ico", "/version" }));
			request_line("GET", p, chance(300) ? 404 : 200);
		}
		if (chance(1))
			warning_event();
		for (int i = 0; i < R.errors; i++)
			if (R.error_at[i] && total() >= R.error_at[i]) {
				R.error_at[i] = 0;
				error_event(i < R.tracebacks);
			}
	}
	return total() >= size;
}

static void shutdown_run(void)
{
	tick(1000, 20000);
	if (chance(300)) {
		/* killed: no goodbye, as after an OOM kill or SIGKILL */
		return;
	}
	if (R.kind == K_SGLANG) {
		sgl(-1, "INFO:     Shutting down");
		sgl(-1, "INFO:     Waiting for application shutdown.");
		sgl(-1, "INFO:     Application shutdown complete.");
		sgl(-1, "INFO:     Finished server process [%d]", R.api_pid);
	} else {
		vl(P_API, "INFO", "launcher.py", 101, "Shutting down FastAPI HTTP server.");
		static const char *const l[] = { "Shutting down", "Waiting for application shutdown.",
						 "Application shutdown complete." };
		for (int i = 0; i < 3; i++) {
			vtag(P_API);
			putf("INFO:     %s", l[i]);
			eol();
		}
	}
}

static void new_run(int kind)
{
	memset(&R, 0, sizeof(R));
	R.kind = kind;
	R.style = (int)rnd(2);
	R.m = &PICK(models);
	do
		R.g = &PICK(gpus);
	while ((int64_t)R.m->weight_gb * 1024 / 8 > R.g->mem_mb * 7 / 10);
	static const int tps[] = { 1, 2, 4, 4, 8 };
	do
		R.tp = tps[rnd(5)];
	while ((int64_t)R.m->weight_gb * 1024 / R.tp > R.g->mem_mb * 7 / 10);
	R.tagged = R.kind == K_SGLANG && (R.tp > 1 || R.style == 0);
	R.port = R.kind == K_SGLANG ? (int)PICK(((const int[]){ 30000, 30000, 8000, 31053 }))
				    : (int)PICK(((const int[]){ 8000, 8000, 8080, 11457 }));
	R.api_pid = chance(300) ? 1 : (int)range(1000, 4000000);
	R.engine_pid = R.api_pid + (int)range(50, 400);
	R.worker_pid = R.engine_pid + (int)range(50, 400);
	R.avail_mb = R.g->mem_mb - range(200, 1500);
	R.max_running = (int)PICK(((const int[]){ 48, 128, 256, 1024, 2049 }));
	R.cuda_graph_bs = (int)PICK(((const int[]){ 8, 32, 80, 160, 256 }));
}

static uint64_t parse_size(const char *s)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || end == s)
		return 0;
	switch (*end) {
	case 'k': case 'K': v <<= 10; end++; break;
	case 'm': case 'M': v <<= 20; end++; break;
	case 'g': case 'G': v <<= 30; end++; break;
	}
	return *end ? 0 : v;
}

static _Noreturn void usage(void)
{
	fprintf(stderr, "usage: genlog [--size N[K|M|G]] [--kind sglang|vllm|mixed] [--seed N]\n"
			"              [--stop-after-fraction F] [-o FILE]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	uint64_t size = 1ull << 30, seed = 1;
	int kind = K_MIXED;
	long stop_permille = -1;   /* fraction in 1/1000000 */
	const char *path = NULL;
	for (int i = 1; i < argc; i += 2) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!v)
			usage();
		if (strcmp(a, "--size") == 0) {
			if (!(size = parse_size(v)))
				usage();
		} else if (strcmp(a, "--kind") == 0) {
			if (strcmp(v, "sglang") == 0)
				kind = K_SGLANG;
			else if (strcmp(v, "vllm") == 0)
				kind = K_VLLM;
			else if (strcmp(v, "mixed") == 0)
				kind = K_MIXED;
			else
				usage();
		} else if (strcmp(a, "--seed") == 0) {
			char *end;
			seed = strtoull(v, &end, 10);
			if (*end)
				usage();
		} else if (strcmp(a, "--stop-after-fraction") == 0) {
			/* parsed by hand: no floating point anywhere */
			const char *p = v;
			long whole = 0, frac = 0, scale = 1000000;
			while (*p >= '0' && *p <= '9')
				whole = whole * 10 + (*p++ - '0');
			if (*p == '.')
				for (p++; *p >= '0' && *p <= '9'; p++)
					if (scale > 1)
						frac += (*p - '0') * (scale /= 10);
			if (*p || whole > 1 || (whole == 1 && frac))
				usage();
			stop_permille = whole * 1000000 + frac;
		} else if (strcmp(a, "-o") == 0) {
			path = v;
		} else {
			usage();
		}
	}
	outf = stdout;
	if (path && !(outf = fopen(path, "wb"))) {
		fprintf(stderr, "genlog: cannot open '%s': %s\n", path, strerror(errno));
		return 2;
	}
	uint64_t x = seed;
	for (int i = 0; i < 4; i++)
		rs[i] = splitmix(&x);
	/* Plan the runs: each gets a share of the size for its serving phase. */
	int nruns = 2 + (int)(size >> 28);
	if (nruns > 8)
		nruns = 8;
	uint64_t w[8], wsum = 0;
	for (int i = 0; i < nruns; i++)
		wsum += w[i] = (uint64_t)range(100, 300);
	now = ((int64_t)1735689600 + range(0, 365 * 86400)) * 1000;  /* some time in 2025 */
	int first_kind = (int)rnd(2);
	uint64_t end = 0;
	for (int r = 0; r < nruns; r++) {
		int k = kind == K_MIXED ? (first_kind + r) % 2 : kind;
		new_run(k);
		int last = r == nruns - 1;
		if (last && stop_permille >= 0) {
			flush_out();
			hold = 1;
		}
		if (k == K_SGLANG)
			sglang_startup();
		else
			vllm_startup();
		if (last && stop_permille >= 0) {
			size_t lines = 0, keep = 0, cut;
			for (size_t i = 0; i < olen; i++)
				lines += ob[i] == '\n';
			cut = (size_t)((uint64_t)lines * (uint64_t)stop_permille / 1000000);
			for (size_t i = 0, n = 0; i < olen && n < cut; i++)
				if (ob[i] == '\n' && ++n == cut)
					keep = i + 1;
			olen = keep;
			break;
		}
		end = last ? size : end + size * w[r] / wsum;
		if (serve(end, size))
			break;
		shutdown_run();
		tick(60000, 4 * 3600000);
	}
	flush_out();
	if (path && fclose(outf) != 0) {
		fprintf(stderr, "genlog: write error: %s\n", strerror(errno));
		return 2;
	}
	return 0;
}
