/* test_changes.c — keys, numbers and whether a value changed. */
#include <math.h>

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
}

int main(void)
{
	test_number();
	test_volatile();
	test_key();
	test_changed();
	return test_report();
}
