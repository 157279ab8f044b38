/* test_signature.c — two runs that failed the same way share a
 * signature whatever their numbers, paths, hosts, pids, ports and times;
 * different faults do not.  Lines go through mask_message first, as the
 * pipeline does. */
#include <stdlib.h>

#include "mask.h"
#include "signature.h"
#include "test.h"

static struct masked m1, m2;

/* The template of a raw message. */
static const char *tmpl(struct masked *m, const char *msg)
{
	mask_message(msg, strlen(msg), m);
	return m->text.p;
}

/* The key of a failure given as raw messages (either NULL). */
static char *key(int verdict, const char *step, const char *cause)
{
	struct signature sig;
	static char keys[8][17];
	static int next;
	char *k = keys[next++ % 8];
	if (signature_make(verdict, step ? tmpl(&m1, step) : NULL, cause ? tmpl(&m2, cause) : NULL,
			   &sig) < 0)
		return strcpy(k, "none");
	strcpy(k, sig.key);
	signature_free(&sig);
	return k;
}

static void test_hang_same(void)
{
	/* Two hangs after weight loading: other memory, pid, port, time. */
	const char *a = key(DX_STOPPED, "Load weight end. type=Qwen2ForCausalLM, dtype=torch.bfloat16, avail mem=45.02 GB", NULL);
	const char *b = key(DX_STOPPED, "Load weight end. type=Qwen2ForCausalLM, dtype=torch.bfloat16, avail mem=44.87 GB", NULL);
	CHECK_STR(a, b);
	a = key(DX_STOPPED, "Started server process [12345] on 10.0.0.7:30000 at 2026-02-23 02:40:58", NULL);
	b = key(DX_STOPPED, "Started server process [777] on 10.1.4.9:31002 at 2026-11-30 19:02:11", NULL);
	CHECK_STR(a, b);
	/* Host names without digits, before a port or after "host". */
	a = key(DX_STOPPED, "Connecting to gpu-alpha.cluster.local:29500 from host alpha", NULL);
	b = key(DX_STOPPED, "Connecting to beta.example.org:29511 from host beta", NULL);
	CHECK_STR(a, b);
}

static void test_hang_different(void)
{
	const char *a = key(DX_STOPPED, "Load weight end. avail mem=45.02 GB", NULL);
	const char *b = key(DX_STOPPED, "Capture cuda graph begin. avail mem=45.02 GB", NULL);
	CHECK(strcmp(a, b) != 0);
	/* The same step, another kind of failure. */
	b = key(DX_DIVERGED, "Load weight end. avail mem=45.02 GB", "Retrying in 5 s");
	CHECK(strcmp(a, b) != 0);
	CHECK_STR(key(DX_SAME, "Load weight end. avail mem=45.02 GB", NULL), "none");
}

static void test_crash(void)
{
	/* The same exception with other sizes, paths and pids. */
	const char *a = key(DX_CRASHED, "Load weight end.",
			    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 26.24 GiB in /home/ci/run-17/model.py pid 4411");
	const char *b = key(DX_CRASHED, "Init torch distributed ends.",
			    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.10 GiB in /scratch/u/model.py pid 98");
	CHECK_STR(a, b);
	/* Another exception. */
	b = key(DX_CRASHED, "Load weight end.",
		"RuntimeError: NCCL error in: /opt/pytorch/ProcessGroupNCCL.cpp:1970, unhandled system error");
	CHECK(strcmp(a, b) != 0);
	/* A file and its line before the port-like ":<int>" stay: not a host. */
	a = key(DX_CRASHED, NULL, "error in nccl.cpp:1970");
	b = key(DX_CRASHED, NULL, "error in ring.cpp:1970");
	CHECK(strcmp(a, b) != 0);
}

static void test_mask_hosts(void)
{
	struct buf b = { 0 };
	signature_mask_hosts("to a-b.c.local:<int> host=alpha hostname: beta torch.cuda.is_available", &b);
	CHECK_STR(b.p, "to <host>:<int> host=<host> hostname: <host> torch.cuda.is_available");
	signature_mask_hosts("torch.distributed.DistBackendError at x.py:<int>", &b);
	CHECK_STR(b.p, "torch.distributed.DistBackendError at x.py:<int>");
	signature_mask_hosts("", &b);
	CHECK_STR(b.p, "");
	buf_free(&b);
}

static void test_summary(void)
{
	struct signature sig;
	CHECK_INT(signature_make(DX_STOPPED, "Load weight end. avail mem=<size>", NULL, &sig), 0);
	CHECK_STR(sig.summary, "stopped after: Load weight end. avail mem=<size>");
	CHECK_INT(strlen(sig.key), 16);
	signature_free(&sig);
	CHECK_INT(signature_make(DX_CRASHED, "x", "boom <int>", &sig), 0);
	CHECK_STR(sig.summary, "crashed: boom <int>");
	signature_free(&sig);
	/* A long text is cut on a character boundary; its key is of it all. */
	char longer[600];
	memset(longer, 'a', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	memcpy(longer + 280, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 12);
	CHECK_INT(signature_make(DX_STOPPED, longer, NULL, &sig), 0);
	CHECK(strlen(sig.summary) <= SIGNATURE_SUMMARY_MAX);
	CHECK(((unsigned char)sig.summary[strlen(sig.summary) - 1] & 0xc0) != 0xc0);
	char k[17];
	strcpy(k, sig.key);
	signature_free(&sig);
	longer[590] = 'b';
	CHECK_INT(signature_make(DX_STOPPED, longer, NULL, &sig), 0);
	CHECK(strcmp(k, sig.key) != 0);
	signature_free(&sig);
}

int main(void)
{
	test_hang_same();
	test_hang_different();
	test_crash();
	test_mask_hosts();
	test_summary();
	masked_free(&m1);
	masked_free(&m2);
	return test_report();
}
