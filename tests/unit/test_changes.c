/* test_changes.c — keys, numbers and whether a value changed. */
#include <math.h>
#include <stdlib.h>

#include "changes.h"
#include "test.h"

static void test_number(void)
{
	CHECK(changes_number("67,024", 6) == 67024.0);
	CHECK(changes_number("4.5 GB", 6) == 4.5e9);
	CHECK(changes_number("12ms", 4) == 12e-3);
	CHECK(changes_number("3M", 2) == 3e6);
	CHECK(changes_number("2k", 2) == 2e3);
	CHECK(changes_number("-7", 2) == -7.0);
	CHECK(changes_ratio(2, 8) == 4.0);
	CHECK(changes_ratio(-8, 2) == 4.0);
	CHECK(changes_ratio(5, 5) == 1.0);
	CHECK(isinf(changes_ratio(0, 3)));
}

static void test_volatile(void)
{
	CHECK(changes_volatile_key("seed", 4));
	CHECK(changes_volatile_key("random_seed", 11));
	CHECK(changes_volatile_key("PORT", 4));
	CHECK(changes_volatile_key("request_id", 10));
	CHECK(changes_volatile_key("is", 2));
	CHECK(!changes_volatile_key("tp_size", 7));
	CHECK(!changes_volatile_key("max_model_len", 13));
	/* Who printed the line is no setting; how many there are is. */
	CHECK(changes_volatile_key("rank", 4));
	CHECK(!changes_volatile_key("nranks", 6));
	CHECK(changes_env_key("NCCL_SOCKET_IFNAME", 18));
	CHECK(!changes_env_key("NCCL", 4));
	CHECK(!changes_env_key("tp_size", 7));
}

/* Mask both messages, compare value k as in a diagnosis where the good
 * runs agree. */
static int changed(const char *bad, const char *good, size_t k)
{
	struct changes_side b = { 0 }, g = { 0 };
	changes_side_text(&b, bad, strlen(bad));
	changes_side_text(&g, good, strlen(good));
	int r = b.m.nv == g.m.nv && k < b.m.nv &&
		changes_value_changed(&b, &g, k, changes_keyed(&b), NULL, NULL);
	changes_side_free(&b);
	changes_side_free(&g);
	return r;
}

static void test_key(void)
{
	struct changes_side s = { 0 };
	const char *msg = "tp_size: 4, dtype 'bf16' took 3 s";
	changes_side_text(&s, msg, strlen(msg));
	CHECK(s.m.nv >= 1);
	const char *k;
	size_t n;
	changes_value_key(&s, 0, &k, &n);
	CHECK_MEM(k, n, "tp_size");
	changes_value_key(&s, s.m.nv - 1, &k, &n);
	CHECK_INT(n, 0);   /* "took 3 s": no key */
	CHECK_INT(changes_keyed(&s), 1);   /* only tp_size: the others have no key */
	changes_side_free(&s);
}

/* The key of msg's value k, "" when none. */
static void check_key(const char *msg, size_t k, const char *want)
{
	struct changes_side s = { 0 };
	changes_side_text(&s, msg, strlen(msg));
	const char *key = "";
	size_t n = 0;
	if (k < s.m.nv)
		changes_value_key(&s, k, &key, &n);
	if (!n)
		key = "";
	CHECK_MEM(key, n, want);
	changes_side_free(&s);
}

static void test_key_kinds(void)
{
	/* "host:pid", "file:line" and times are no "key: value". */
	check_key("[azwus2f200000C6:48170] started", 0, "");
	check_key("vm:1072:1072 [0] NCCL INFO ready", 0, "");
	/* A line of "key value" pairs names its numbers ... */
	check_key("NCCL INFO comm 0x3fff rank 1 nranks 2 cudaDev 0 busId 60", 2, "nranks");
	/* ... free text does not. */
	check_key("loaded 80 shards in 3 s", 0, "");
	/* A key starts with a letter: a date is none. */
	check_key("2025-09-14T06: 04 done", 0, "");
	/* An environment variable named before its value. */
	check_key("NCCL INFO NCCL_SOCKET_IFNAME set by environment to eth0", 0, "NCCL_SOCKET_IFNAME");
}

static void test_partner(void)
{
	/* Keys in another order pair by name. */
	struct changes_side a = { 0 }, b = { 0 };
	const char *x = "params: {'top_k': 20, 'top_p': 0.8}", *y = "params: {'top_p': 0.8, 'top_k': 20}";
	changes_side_text(&a, x, strlen(x));
	changes_side_text(&b, y, strlen(y));
	CHECK_INT(changes_partner(&a, &b, 0), 1);
	CHECK_INT(changes_partner(&a, &b, 1), 0);
	changes_side_free(&a);
	changes_side_free(&b);
}

/* changes_line_label: a label is a name the line opens with, never a
 * fragment of it: no tags, values, quotes, dots, numbers or host names,
 * and no word cut in half. */
static void test_label(void)
{
	static const char *const cases[][2] = {
		{ "server_args=ServerArgs(model_path='x')", "server_args" },
		{ "non-default args: {'model': 'x'}", "non-default args" },
		{ "[Rank 0] step=12, skipped=6, lr=[0.1]", "step" },
		{ "azwus2f200000C6:1234:1234 [0] NCCL INFO busId 200000", "" },
		{ "{'random_ltd': {'max_value': 1}}", "" },
		{ "                \"max_value\": 1", "" },
		{ "dynamic_train_config ......... {'random_ltd': 1}", "dynamic_train_config" },
		{ "  node-version: v20", "node-version" },
		{ "rank 0 in world size 8 is assigned as DP", "rank" },
		{ "Initializing a V1 LLM engine (v0.19) with config: model=x", "Initializing a V1 LLM engine" },
		{ "Use sliding window memory pool. full_layer_tokens=1, swa_layer_tokens=2",
		  "Use sliding window memory pool" },
		{ "KV Cache is allocated. #tokens: 491520", "KV Cache is allocated. #tokens" },
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		char *l = changes_line_label(cases[k][0], strlen(cases[k][0]));
		CHECK_STR(l, cases[k][1]);
		free(l);
	}
}

static void test_changed(void)
{
	/* A named measure that doubled changed; one that moved a little did
	 * not; nothing changed at all when the text is the same. */
	CHECK(changed("KV cache size=8000 tokens", "KV cache size=2000 tokens", 0));
	CHECK(!changed("KV cache size=2100 tokens", "KV cache size=2000 tokens", 0));
	CHECK(!changed("KV cache size=2000 tokens", "KV cache size=2000 tokens", 0));
	/* In a configuration dump (four named values or more) any setting
	 * counts. */
	CHECK(changed("args: tp=2, pp=1, dp=1, ep=1", "args: tp=4, pp=1, dp=1, ep=1", 0));
	/* Values that differ by nature never count. */
	CHECK(!changed("started with seed=41", "started with seed=1234", 0));
	CHECK(!changed("listening port=8001", "listening port=8000", 0));
	/* An unnamed number is not a setting. */
	CHECK(!changed("loaded 80 shards", "loaded 20 shards", 0));
	/* A word that changed, where the good runs agree, counts. */
	CHECK(changed("dtype=float16 loaded", "dtype=bfloat16 loaded", 0));
	/* Values that differ from run to run by kind: an ephemeral port in
	 * an address, an object's address, a duration, a count measured
	 * beside the settings of a dump. */
	CHECK(!changed("init method=tcp://10.0.0.1:48303 ok", "init method=tcp://10.0.0.1:36439 ok", 0));
	CHECK(!changed("watcher=Watcher@48bba4f2 ok", "watcher=Watcher@402bba4f ok", 0));
	CHECK(!changed("compile time=5.66 s", "compile time=2.07 s", 0));
	CHECK(!changed("kv: tokens=185894, tp=1, pp=1, dp=1", "kv: tokens=185897, tp=1, pp=1, dp=1", 0));
	/* A setting of a line of "key value" pairs counts; the rank that
	 * printed it does not. */
	CHECK(changed("INFO comm 0x3f rank 0 nranks 2 cudaDev 0 busId 60", "INFO comm 0x1d rank 0 nranks 1 cudaDev 0 busId 60", 2));
	CHECK(!changed("INFO comm 0x3f rank 1 nranks 1 cudaDev 0 busId 60", "INFO comm 0x1d rank 0 nranks 1 cudaDev 0 busId 60", 1));
}

int main(void)
{
	test_number();
	test_volatile();
	test_key();
	test_key_kinds();
	test_partner();
	test_label();
	test_changed();
	return test_report();
}
