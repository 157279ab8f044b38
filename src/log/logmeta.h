/* logmeta.h — what a log says about itself: the configuration an engine
 * dumps once at startup, which engine wrote the log, and the port the
 * server announces.  The one reader of these in ddx: the store keeps the
 * configuration and engine of each run learned, `ddx proc` (live.c) looks
 * for who listens on the port.
 *
 * Everything here reads untrusted log bytes (not NUL-terminated, any
 * size) and never fails: what is not found is simply absent. */
#ifndef DDX_LOGMETA_H
#define DDX_LOGMETA_H

#include <stddef.h>

#include <stdint.h>

#include "util.h"

struct ruleset;

/* One template of a run: the masked text and level, its line count and
 * its first line (0-based). */
struct run_tmpl {
	const char *text;
	size_t len;
	int level;
	uint64_t count;
	uint64_t first_line;
};

/* One configuration value of a run ("tp_size" = "8"). */
struct kv {
	const char *key;
	const char *value;
};

/* The engine that wrote a run, from its templates and header format
 * (prefix_format_name), as the mark rules of rs say (rules_engine):
 * "sglang", "vllm", ..., or "other" when none does.  The string lives in
 * rs, or is static. */
const char *logmeta_engine(const struct ruleset *rs, const struct run_tmpl *t, size_t n,
			   const char *format);

/* The configuration a log written by engine (logmeta_engine) prints
 * about itself, where the config rules of rs say (rules_config): key=
 * values of dumps (SGLang's server_args=ServerArgs(...), vLLM's
 * "non-default args: {...}" and "with config: ...", argparse
 * Namespace(...)) and single values (vLLM's version line, as
 * "vllm_version").  The first value of a key wins, the engine's own
 * rules first, then the others in their order.  *out is malloc'd (NULL
 * when none), its strings in a. */
void logmeta_config(const struct ruleset *rs, const char *engine, const char *data, size_t size,
		    struct kv **out, size_t *n, struct arena *a);

/* The port a server log names for itself. */
struct logmeta_port {
	unsigned port;       /* 1..65535 */
	size_t off;          /* offset in the log where the mention starts */
	size_t line;         /* 1-based number of the line holding it */
	const char *text;    /* that line, in the log's bytes, without '\n' */
	size_t text_len;
};

/* The last port the log names: `port=8000` (as in SGLang's server_args
 * or vLLM's Namespace), `'port': 8000`, `--port 8000` / `--port=8000`,
 * `running on http://0.0.0.0:8000` (uvicorn), `server on http://...:8000`
 * (vLLM).  "port" must be a whole word (nccl_port=, --nccl-port are not
 * it).  Returns 1 and fills *out when found, else 0. */
int logmeta_port(const char *data, size_t n, struct logmeta_port *out);

/* A process the log names with its rank: NCCL's debug lines carry the
 * writer's pid ("HOST:PID:TID [DEV] NCCL INFO ... rank R nranks N").
 * A process in several communicators is given the rank of its largest
 * (the world's; a tensor-parallel group's rank 0 is another rank of the
 * world). */
struct logmeta_pid_rank {
	int pid;
	int rank;
	int nranks;
};

/* The pids of the first max ranks data[0..n) names, one entry per pid;
 * returns how many. */
size_t logmeta_pid_ranks(const char *data, size_t n, struct logmeta_pid_rank *out, size_t max);

#endif
