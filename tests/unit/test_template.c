/* test_template.c — interning, and clustering: positions with many values
 * merge, step words stay apart, levels never mix, numbering follows first
 * occurrence, and 100k distinct templates stay fast. */
#include <stdio.h>
#include <stdlib.h>

#include "template.h"
#include "test.h"

static struct tmpl_table tt;
static uint32_t map[8192];
static const char **texts;
static size_t nclusters;

static uint32_t add(const char *text, int level)
{
	size_t n = strlen(text);
	uint32_t id = tmpl_intern(&tt, text, n, level, tmpl_hash(text, n, level));
	tt.t[id].count++;
	return id;
}

static void cluster(void)
{
	free(texts);
	nclusters = tmpl_cluster(&tt, map, &texts);
}

static void reset(void)
{
	tmpl_free(&tt);
	tmpl_init(&tt);
	free(texts);
	texts = NULL;
}

static void test_intern(void)
{
	reset();
	uint32_t a = add("Load weight begin.", 3);
	uint32_t b = add("Load weight end.", 3);
	CHECK_INT(add("Load weight begin.", 3), a);
	CHECK_INT(add("Load weight begin.", 5), 2);   /* another level */
	CHECK_INT(a, 0);
	CHECK_INT(b, 1);
	CHECK_INT(tt.t[a].count, 2);
	for (int i = 0; i < 3000; i++) {   /* through several rehashes */
		char s[32];
		snprintf(s, sizeof(s), "t%d", i);
		add(s, 0);
	}
	CHECK_INT(add("Load weight end.", 3), b);
	CHECK_INT(tt.n, 3003);
}

/* A position that takes many values is a variable. */
static void test_merge_many_values(void)
{
	static const char *const users[] = { "admin", "oracle", "test", "guest", "postgres", "ubnt" };
	reset();
	add("Connection closed by <ip> [preauth]", 0);
	for (size_t i = 0; i < 6; i++) {
		char s[64];
		snprintf(s, sizeof(s), "Invalid user %s from <ip>", users[i]);
		add(s, 0);
	}
	cluster();
	CHECK_INT(nclusters, 2);
	CHECK_STR(texts[0], "Connection closed by <ip> [preauth]");
	CHECK_STR(texts[1], "Invalid user <*> from <ip>");
	for (uint32_t id = 1; id < 7; id++)
		CHECK_INT(map[id], 1);
}

/* A word with two values that marks a step stays: begin/end of the same
 * phase are two templates. */
static void test_steps_stay_apart(void)
{
	reset();
	add("Init torch distributed begin.", 3);
	add("Init torch distributed ends.", 3);
	add("Load weight begin.", 3);
	add("Load weight end.", 3);
	add("Capture cuda graph begin.", 3);
	add("Capture cuda graph end.", 3);
	add("Load weight begin.", 3);
	cluster();
	CHECK_INT(nclusters, 6);
	for (uint32_t id = 0; id < 6; id++)
		CHECK_INT(map[id], id);
	CHECK_STR(texts[3], "Load weight end.");
	/* Values that are numbers or ids merge, even when there are two. */
	reset();
	add("Rank <int> joined group <id>", 3);
	add("Rank <int> joined group <hex>", 3);
	cluster();
	CHECK_INT(nclusters, 1);
	CHECK_STR(texts[0], "Rank <int> joined group <*>");
}

/* A position where one member holds no word (an empty "[]" where
 * another run names its node) is a value's slot, not a step marker:
 * a step is marked by a word. */
static void test_wordless_value_merges(void)
{
	reset();
	add("[o.e.n.Node ] [] initializing ...", 3);
	add("[o.e.n.Node ] [graphikart] initializing ...", 3);
	cluster();
	CHECK_INT(nclusters, 1);
	CHECK_STR(texts[0], "[o.e.n.Node ] <*> initializing ...");
}

/* In a long line one differing word is a parameter: a configuration dump
 * with disable_cuda_graph=False in one run and True in another is one
 * template, so that diff can compare the values. */
static void test_long_line_parameter(void)
{
	char a[1024], b[1024];
	const char *head = "server_args=ServerArgs(model_path='<*>', tp_size=<int>, dp_size=<int>, "
		"host='<*>', port=<int>, mem_fraction_static=<float>, chunked_prefill_size=<int>, "
		"schedule_policy=fcfs, random_seed=<int>, log_level=info, attention_backend=triton, "
		"sampling_backend=flashinfer, grammar_backend=xgrammar, "
		"speculative_algorithm=None, ep_size=<int>, enable_ep_moe=False, "
		"enable_torch_compile=False, torch_compile_max_bs=<int>, cuda_graph_max_bs=<int>, "
		"enable_dp_attention=";
	snprintf(a, sizeof(a), "%s%s)", head, "false");
	snprintf(b, sizeof(b), "%s%s)", head, "true");
	reset();
	add(a, 3);
	add(b, 3);
	cluster();
	CHECK_INT(nclusters, 1);
}

static void test_levels_never_merge(void)
{
	reset();
	add("worker <int> exited with code <int>", 3);
	add("worker <int> exited with code <int>", 6);
	add("worker <int> exited with signal <int>", 6);
	add("worker <int> exited after timeout <int>", 6);
	cluster();
	CHECK(map[0] != map[1]);
	CHECK_INT(nclusters, 4);   /* code/signal/after: few words, kept apart */
}

/* A number mask kept (a count of zero failures, an exit status) beside
 * masked ones is a step position: "0 failed" and "<int> failed" are two
 * lines, a success and a failure. */
static void test_kept_number_splits(void)
{
	reset();
	add("test result: ok. <int> passed; 0 failed; <int> ignored", 0);
	add("test result: ok. <int> passed; <int> failed; <int> ignored", 0);
	add("test result: ok. <int> passed; <int> failed; <int> skipped", 0);
	add("test result: ok. <int> passed; <int> failed; <int> skipped", 0);
	cluster();
	CHECK(map[0] != map[1]);
	CHECK_INT(nclusters, 3);
	/* In a line of any length. */
	reset();
	add("test result: ok. <int> passed; 0 failed; <int> ignored; <int> measured; <int> filtered out; "
	    "finished in <dur> (all of them)", 0);
	add("test result: ok. <int> passed; <int> failed; <int> ignored; <int> measured; <int> filtered out; "
	    "finished in <dur> (all of them)", 0);
	cluster();
	CHECK(map[0] != map[1]);
}

/* A count of zero failures kept in a key ("failed=0") is a step
 * position as a bare kept 0 is: Ansible's recap of a play that failed
 * is not the recap of one that did not. */
static void test_kept_key_zero_split(void)
{
	static const char *const hosts[] = { "alpha", "bravo", "charlie", "delta", "echo" };
	char b[128];
	reset();
	for (size_t k = 0; k < 5; k++) {
		snprintf(b, sizeof(b), "%s : ok=<int> changed=<int> unreachable=0 failed=%s skipped=<int>", hosts[k],
			 k == 4 ? "<int>" : "0");
		add(b, 0);
	}
	cluster();
	CHECK_INT(map[0], map[3]);
	CHECK(map[0] != map[4]);
}

/* A position of state names is a step position however many states it
 * takes: each state a worker enters is a step of its own.  Words of
 * another shape past STEP_VALUES are a parameter. */
static void test_state_names_split(void)
{
	static const char *const states[] = { "WORKER_STARTED", "WORKER_MODEL_LOADED", "WORKER_SCALED_DOWN",
					      "WORKER_STOPPED", "WORKER_STOPPED." };
	char b[128];
	reset();
	for (size_t k = 0; k < 5; k++) {
		snprintf(b, sizeof(b), "<id> State change null -> %s", states[k]);
		add(b, 0);
	}
	cluster();
	CHECK_INT(nclusters, 5);
	static const char *const words[] = { "alpha", "bravo", "charlie", "delta", "echo" };
	reset();
	for (size_t k = 0; k < 5; k++) {
		snprintf(b, sizeof(b), "<id> State change null -> %s", words[k]);
		add(b, 0);
	}
	add("<id> State change null -> WORKER_STARTED", 0);
	cluster();
	CHECK_INT(nclusters, 1);
}

/* A position of capitalised verbs in -ing or -ed is a step position
 * however many it takes (a server's lifecycle: Initializing, Starting,
 * Pausing, Stopping, Destroying one handler); capitalised names of
 * another shape past STEP_VALUES are a parameter. */
static void test_action_words_split(void)
{
	static const char *const verbs[] = { "Initializing", "Starting", "Pausing", "Stopping", "Destroying",
					     "Started" };
	char b[128];
	reset();
	for (size_t k = 0; k < 6; k++) {
		snprintf(b, sizeof(b), "[main] Protocol.%zu %s ProtocolHandler [\"<id>\"]", k, verbs[k]);
		add(b, 0);
	}
	cluster();
	CHECK_INT(nclusters, 6);
	static const char *const names[] = { "Alice", "Bob", "Carol", "Dave", "Erin", "Fred" };
	reset();
	for (size_t k = 0; k < 6; k++) {
		snprintf(b, sizeof(b), "[main] Protocol.%zu %s ProtocolHandler [\"<id>\"]", k, names[k]);
		add(b, 0);
	}
	cluster();
	CHECK_INT(nclusters, 1);
}

/* Clusters are numbered by their first member; texts keep the first
 * member's spacing. */
static void test_numbering(void)
{
	static const char *const names[] = { "alpha", "bravo", "charlie", "delta", "echo", "foxtrot" };
	reset();
	add("Started job <id>", 0);
	add("Accepted  %s  now", 0);                 /* id 1 */
	for (size_t i = 0; i < 6; i++) {
		char s[64];
		snprintf(s, sizeof(s), "Accepted  %s  now", names[i]);
		add(s, 0);
	}
	add("Stopped job <id>", 0);
	cluster();
	CHECK_INT(nclusters, 3);
	CHECK_INT(map[0], 0);
	CHECK_INT(map[1], 1);
	CHECK_INT(map[7], 1);
	CHECK_INT(map[8], 2);
	CHECK_STR(texts[1], "Accepted  <*>  now");
	CHECK_STR(texts[2], "Stopped job <id>");
	reset();
	cluster();
	CHECK_INT(nclusters, 0);
}

/* 100k distinct templates: ones that merge, and ones that cannot (every
 * word differs), in one bucket.  Not timed here (bench/ measures speed);
 * a quadratic clustering would run past the suite's time limit. */
static void test_many(void)
{
	static uint32_t big[200000];
	reset();
	char s[96];
	for (int i = 0; i < 100000; i++) {
		int x = i * 7919 % 100000;
		snprintf(s, sizeof(s), "user %c%c%c%c logged in from <ip>",
			 'a' + x % 26, 'a' + x / 26 % 26, 'a' + x / 676 % 26, 'a' + x / 17576 % 26);
		add(s, 0);
	}
	for (int i = 0; i < 100000; i++) {
		int x = i;
		snprintf(s, sizeof(s), "q%c%c%c%c %c%c%c%c z",
			 'a' + x % 26, 'a' + x / 26 % 26, 'a' + x / 676 % 26, 'a' + x / 17576 % 26,
			 'a' + x / 26 % 26, 'a' + x % 26, 'a' + x / 17576 % 26, 'a' + x / 676 % 26);
		add(s, 0);
	}
	free(texts);
	nclusters = tmpl_cluster(&tt, big, &texts);
	CHECK_INT(big[0], 0);
	CHECK_INT(big[99999], 0);
	CHECK_STR(texts[0], "user <*> logged in from <ip>");
	CHECK(nclusters > 1000);
}

int main(void)
{
	tmpl_init(&tt);
	test_intern();
	test_merge_many_values();
	test_steps_stay_apart();
	test_wordless_value_merges();
	test_long_line_parameter();
	test_levels_never_merge();
	test_kept_number_splits();
	test_kept_key_zero_split();
	test_state_names_split();
	test_action_words_split();
	test_numbering();
	test_many();
	tmpl_free(&tt);
	free(texts);
	return test_report();
}
