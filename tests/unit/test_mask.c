/* test_mask.c — masking: every value type, key=value styles, words that
 * must stay, and bounds (no terminator, NUL bytes, invalid UTF-8). */
#include <stdlib.h>

#include "mask.h"
#include "test.h"

static struct masked m;
static const char *msg;

/* Mask s and compare the template text. */
#define MASK(s, want) do { \
	msg = (s); \
	mask_message(msg, strlen(msg), &m); \
	CHECK_STR(m.text.p, (want)); \
} while (0)

/* Value k of the last MASK: its type, text and key ("" for none). */
#define VALUE(k, t, val, key) do { \
	CHECK((size_t)(k) < m.nv); \
	if ((size_t)(k) < m.nv) { \
		CHECK_INT(m.v[k].type, (t)); \
		CHECK_MEM(msg + m.v[k].off, m.v[k].len, (val)); \
		CHECK_MEM(msg + m.v[k].key_off, m.v[k].key_len, (key)); \
	} \
} while (0)

static void test_numbers(void)
{
	MASK("took 12 steps", "took <int> steps");
	VALUE(0, V_INT, "12", "");
	MASK("loss -0.25 at 1e-3", "loss <float> at <float>");
	VALUE(0, V_FLOAT, "-0.25", "");
	VALUE(1, V_FLOAT, "1e-3", "");
	MASK("took 12.", "took <int>.");
	MASK("0x7f3a00c0 freed", "<hex> freed");
	VALUE(0, V_HEX, "0x7f3a00c0", "");
	MASK("100% done, 3.5% left", "<pct> done, <pct> left");
	VALUE(1, V_PERCENT, "3.5%", "");
}

/* A process's exit status says success or failure: it stays. */
static void test_exit_status(void)
{
	MASK("app-1 exited with code 1", "<id> exited with code 1");
	MASK("==> Exited with status 3", "==> Exited with status 3");
	MASK("returned non-zero exit status 137.", "returned non-zero exit status 137.");
	MASK("exitcode: 1 (pid: 42)", "exitcode: 1 (pid: <int>)");
	MASK("exit code 40000", "exit code <int>");
	MASK("error code 1", "error code <int>");
	/* A count of zero failures says none failed: it stays too. */
	MASK("test result: ok. 63 passed; 0 failed; 0 ignored", "test result: ok. <int> passed; 0 failed; <int> ignored");
	MASK("Tests run: 4, Failures: 0, Errors: 0, Skipped: 1", "Tests run: <int>, Failures: 0, Errors: 0, Skipped: <int>");
	MASK("# PASS:  12", "# PASS:  <int>");
	MASK("# FAIL:  0", "# FAIL:  0");
	MASK("# FAIL:  1", "# FAIL:  <int>");
	MASK("web1 : ok=3 changed=0 failed=0 skipped=2", "<id> : ok=<int> changed=0 failed=0 skipped=<int>");
	MASK("web1 : ok=3 changed=1 failed=1 skipped=2", "<id> : ok=<int> changed=<int> failed=<int> skipped=<int>");
	MASK("Tests run: 4, Failures: 1, Errors: 0", "Tests run: <int>, Failures: <int>, Errors: 0");
	MASK("compiled with 0 warnings", "compiled with 0 warnings");
	MASK("10 failed", "<int> failed");
	MASK("0 files failed", "<int> files failed");
	MASK("worker 0 failed: CUDA out of memory", "worker <int> failed: CUDA out of memory");
	MASK("3 passed, 0 failed", "<int> passed, 0 failed");
}

/* A qualified name of code stays, though a module's name holds a digit:
 * the exception's name is what its line says. */
static void test_code_name(void)
{
	MASK("psycopg2.OperationalError: could not connect", "psycopg2.OperationalError: could not connect");
	MASK("urllib3.exceptions.MaxRetryError: pool", "urllib3.exceptions.MaxRetryError: pool");
	MASK("model.layers.3.Attention", "<id>");
	MASK("ip-10-0-0-1.ec2.Internal up", "<id> up");
	MASK("file2.txt", "<id>");
	MASK("v1.2.3 released", "<id> released");
	CHECK_INT(mask_exit_status("<id> exited with code 137"), 137);
	CHECK_INT(mask_exit_status("Process completed with exit code 0."), 0);
	CHECK_INT(mask_exit_status("exit code <int>"), -1);
	CHECK_INT(mask_exit_status("took 3 steps"), -1);
	/* Phrases that say the process ends, with its status after ":". */
	MASK("shutting down with code:100", "shutting down with code:100");
	CHECK_INT(mask_exit_status("shutting down with code:100"), 100);
	CHECK_INT(mask_exit_status("worker exiting with code 3"), 3);
	CHECK_INT(mask_exit_status("responded with code 404"), -1);
	MASK("# Ended (code 1) at Wed May  1 14:24:20 CST 2019", "# Ended (code 1) at <date> CST <int>");
	CHECK_INT(mask_exit_status("# Ended (code 1) at <date> CST <int>"), 1);
	MASK("Exited (137) 3 seconds ago", "Exited (137) <dur> ago");
	CHECK_INT(mask_exit_status("Exited (137) 3 seconds ago"), 137);
	CHECK_INT(mask_exit_status("exited (see above)"), -1);
	/* The signal that ended a process stays too, but is no exit status:
	 * a SIGTERM is no failure. */
	MASK("Signal (15) received.", "Signal (15) received.");
	MASK("got signal: 9", "got signal: 9");
	MASK("Received signal 2, exiting", "Received signal 2, exiting");
	MASK("mysignal 5 raised", "mysignal <int> raised");
	CHECK_INT(mask_exit_status("Signal (15) received."), -1);
}

static void test_units(void)
{
	MASK("K size: 76.3 GB", "K size: <size>");
	VALUE(0, V_SIZE, "76.3 GB", "");
	MASK("limit 512MiB", "limit <size>");
	VALUE(0, V_SIZE, "512MiB", "");
	MASK("Time elapsed: 12.68 s", "Time elapsed: <dur>");
	VALUE(0, V_DURATION, "12.68 s", "");
	/* tqdm's rate bracket is one value, whatever the rate's unit. */
	MASK("[00:11<00:00,  3.1it/s]", "[<dur>]");
	VALUE(0, V_DURATION, "00:11<00:00,  3.1it/s", "");
	MASK("[00:00<?, ?it/s]", "[<dur>]");
	MASK("[00:29<06:47, 29.12s/it]", "[<dur>]");
	MASK("[00:01, 2/s]", "[<time>, <int>/s]");
	/* ... and a bar's body: one bar at any progress is one template. */
	MASK("  2%|\xe2\x96\x8f      | 11/489 [00:30<20:11,  2.53s/it]", "  <pct>|<*>| <int>/<int> [<dur>]");
	MASK("100%|\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88| 489/489 [20:21<00:00,  2.50s/it]", "<pct>|<*>| <int>/<int> [<dur>]");
	MASK("Train:   0%|          | 0/30 [00:00<?, ?it/s]", "Train:   <pct>|<*>| <int>/<int> [<dur>]");
	{
		/* A full bar as wide as a wide terminal: 200 columns of three
		 * bytes each. */
		char wide[700] = "100%|";
		for (int k = 0; k < 200; k++)
			strcat(wide, "\xe2\x96\x88");
		strcat(wide, "| 489/489 [20:19<00:00,  2.49s/it]");
		MASK(wide, "<pct>|<*>| <int>/<int> [<dur>]");
	}
	MASK("40%|####      | 4/10", "<pct>|<*>| <int>/<int>");
	MASK("a 5%|x| b", "a <pct>|x| b");
	MASK("after 5m0s, 1h2m3.5s", "after <dur>, <dur>");
	VALUE(0, V_DURATION, "5m0s", "");
	VALUE(1, V_DURATION, "1h2m3.5s", "");
	MASK("5m 3m2", "<id> <id>");
	MASK("1.27s/it", "<dur>");
	VALUE(0, V_DURATION, "1.27s/it", "");
	MASK("lifetime <1 sec", "lifetime <dur>");
	VALUE(0, V_DURATION, "<1 sec", "");
	/* One quantity given twice is one value. */
	MASK("1190 bytes (1.16 KB) sent", "<size> sent");
	VALUE(0, V_SIZE, "1190 bytes (1.16 KB)", "");
	/* A following word that is no unit stays. */
	MASK("0 peer ranks", "<int> peer ranks");
}

static void test_ids(void)
{
	MASK("Request req-38101a0b-2096-447d-96ea-a692162415ae done",
	     "Request <id> done");
	VALUE(0, V_ID, "req-38101a0b-2096-447d-96ea-a692162415ae", "");
	MASK("block blk_-6952295868487656571 terminating", "block <id> terminating");
	VALUE(0, V_ID, "blk_-6952295868487656571", "");
	MASK("for application appattempt_1445144423722_0020_000001",
	     "for application <id>");
	MASK("MD5 9e107d9d372bb6826bd81d3542a419d6 sha 2fd4e1c67a2d28fced849ee1bb76e7391b93eb12",
	     "MD5 <id> sha <id>");
	MASK("node-246 up", "<id> up");
	MASK("version 6.1.7601.23505", "version <id>");
}

static void test_addresses(void)
{
	MASK("from 173.234.31.186 port 22", "from <ip> port <int>");
	VALUE(0, V_IP, "173.234.31.186", "");
	MASK("connect 10.10.34.11:45307 ok", "connect <ip> ok");
	VALUE(0, V_IP, "10.10.34.11:45307", "");
	MASK("request /10.10.34.11:45307", "request /<ip>");
	MASK("bind fe80::1ff:fe23:4567:890a failed", "bind <ip> failed");
	MASK("bind [::1]:8000", "bind [<ip>]:<int>");
	MASK("listen 2001:db8:0:0:0:0:2:1", "listen <ip>");
	/* Host names are values; files and code names are not. */
	MASK("Requesting a certificate for awsu.duckdns.org", "Requesting a certificate for <host>");
	VALUE(0, V_HOST, "awsu.duckdns.org", "");
	MASK("connect to db-main.prod.internal:5432.", "connect to <host>:<int>.");
	MASK("mail user@example.com", "mail user@<host>");
	MASK("run setup.py and main.rs", "run setup.py and main.rs");
	MASK("read mosquitto.conf", "read mosquitto.conf");
	MASK("raised java.io.IOException", "raised java.io.IOException");
	MASK("bad -x.example.org and a..example.org", "bad -x.example.org and a..example.org");
	MASK("at 12:30:01 on", "at <time> on");
	VALUE(0, V_TIME, "12:30:01", "");
	MASK("std::vector", "std::vector");
	MASK("Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)",
	     "Uvicorn running on <url> (Press CTRL+C to quit)");
	VALUE(0, V_URL, "http://0.0.0.0:8000", "");
	MASK("see https://docs.vllm.ai/en/latest.", "see <url>.");
}

/* A date that names its month is one value, whatever its order. */
static void test_named_dates(void)
{
	MASK("backup at 02 Jan 2024 10:00:00 done", "backup at <date> done");
	MASK("expires 02-Jan-2024 ok", "expires <date> ok");
	MASK("built Jan 02 2024 10:00:00 ok", "built <date> ok");
	MASK("built Jan 2, 2024 ok", "built <date> ok");
	MASK("took 12 Janitors", "took <int> Janitors");
}

static void test_paths(void)
{
	MASK("File \"/usr/lib/python3/site.py\", line 12, in main",
	     "File \"<path>\", line <int>, in main");
	VALUE(0, V_PATH, "/usr/lib/python3/site.py", "");
	MASK("ok /etc/httpd/conf/workers2.properties", "ok <path>");
	MASK("cd ./build and ~/x", "cd <path> and <path>");
	MASK("Core: C:\\Windows\\winsxs\\cbscore.dll", "Core: <path>");
	/* A slash inside a word is no path. */
	MASK("TCP/IP it/s", "TCP/IP it/s");
}

static void test_dates(void)
{
	MASK("started 2024-12-31 22:37:55,123 here", "started <date> <time> here");
	VALUE(0, V_DATE, "2024-12-31", "");
	VALUE(1, V_TIME, "22:37:55,123", "");
	MASK("at 2024-12-31T22:37:55.5Z", "at <date>");
	MASK("at 31/12/2024", "at <date>");
	MASK("connection from 1.2.3.4 () at Sun Jul 10 03:55:21 2005",
	     "connection from <ip> () at <date>");
	VALUE(1, V_DATE, "Sun Jul 10 03:55:21 2005", "");
	/* A month name alone is a word. */
	MASK("May I", "May I");
}

static void test_kv(void)
{
	MASK("port=8000 disable_cuda_graph=False", "port=<int> disable_cuda_graph=<*>");
	VALUE(0, V_INT, "8000", "port");
	VALUE(1, V_KV, "False", "disable_cuda_graph");
	MASK("model_path='/models/x', dtype=torch.bfloat16",
	     "model_path='<*>', dtype=<*>");
	VALUE(0, V_KV, "/models/x", "model_path");
	VALUE(1, V_KV, "torch.bfloat16", "dtype");
	MASK("elapsed=109.33 s, mem usage=1.06 GB.", "elapsed=<dur>, mem usage=<size>.");
	VALUE(0, V_DURATION, "109.33 s", "elapsed");
	VALUE(1, V_SIZE, "1.06 GB", "usage");
	MASK("server_args=ServerArgs(model_path='x', tp_size=8, cuda_graph_bs=[1, 2, 4], "
	     "disable_cuda_graph=True)",
	     "server_args=ServerArgs(model_path='<*>', tp_size=<int>, cuda_graph_bs=<*>, "
	     "disable_cuda_graph=<*>)");
	CHECK_INT(m.nv, 4);
	VALUE(2, V_KV, "[1, 2, 4]", "cuda_graph_bs");
	VALUE(3, V_KV, "True", "disable_cuda_graph");
	MASK("non-default args: {'model': 'x', 'port': 8000, 'enforce_eager': True, "
	     "'spec': {'n': 2}}",
	     "non-default args: {'model': '<*>', 'port': <int>, 'enforce_eager': <*>, "
	     "'spec': {'n': <int>}}");
	VALUE(1, V_INT, "8000", "port");
	VALUE(3, V_INT, "2", "n");
	MASK("{\"port\": 8000, \"host\": \"::\"}", "{\"port\": <int>, \"host\": \"<*>\"}");
	VALUE(1, V_KV, "::", "host");
	MASK("tag=\"View Lock\", ws=null", "tag=\"<*>\", ws=null");
	VALUE(0, V_KV, "View Lock", "tag");
	/* Lower-case words stay in the text, and are values all the same. */
	VALUE(1, V_WORD, "null", "ws");
	MASK("logname= uid=0 user=root", "logname= uid=<int> user=root");
	VALUE(1, V_WORD, "root", "user");
	MASK("a == b", "a == b");
	MASK("x==1", "x==<int>");
}

static void test_words_stay(void)
{
	MASK("ERROR CUDA OOM on GPU: NCCL WARN TP rank", "ERROR CUDA OOM on GPU: NCCL WARN TP rank");
	MASK("open through proxy SOCKS5", "open through proxy SOCKS5");
	MASK("Load weight begin.", "Load weight begin.");
	MASK("", "");
	CHECK_INT(m.nv, 0);
	MASK("héllo wörld 12", "héllo wörld <int>");
}

/* The message is not terminated and may hold NUL and invalid bytes: a
 * buffer cut exactly at len, in a malloc'd block, lets ASan see any read
 * past it. */
static void test_bounds(void)
{
	static const char *const cases[] = {
		"x=", "x='abc", "x=(1, 2", "'k':", "12", "1.", "0x", "12:3", "1.2.3.",
		"Jul 1", "Jul", "/", "http://", "[00:11<", "fe80::", "1190 bytes (1", "<1",
		"a=b(c=", "{'a': {'b': [1, {", "\"\\", "12 G", "1e", "2024-01-", "C:\\",
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		size_t n = strlen(cases[k]);
		for (size_t cut = 0; cut <= n; cut++) {
			char *p = malloc(cut ? cut : 1);
			memcpy(p, cases[k], cut);
			mask_message(p, cut, &m);
			CHECK(m.text.p != NULL && m.text.len == strlen(m.text.p));
			free(p);
		}
	}
	char bin[] = { 'a', '\0', '1', (char)0xff, ' ', (char)0xc3, '2', '=', '\0' };
	char *p = malloc(sizeof(bin));
	memcpy(p, bin, sizeof(bin));
	mask_message(p, sizeof(bin), &m);
	CHECK_STR(m.text.p, "a\xef\xbf\xbd<id> <id>=\xef\xbf\xbd");
	free(p);
}

/* A random variant of s: one run of digits (the pick-th, counted
 * cyclically) replaced by 1 to 12 random digits.  Returns its length; out
 * has room for 12 * n bytes. */
static size_t digit_variant(const char *s, size_t n, char *out, unsigned *seed)
{
	size_t o = 0, runs = 0;
	for (size_t i = 0; i < n; i++)
		runs += s[i] >= '0' && s[i] <= '9' && (i == 0 || s[i - 1] < '0' || s[i - 1] > '9');
	*seed = *seed * 1103515245u + 12345u;
	size_t pick = runs ? (*seed >> 16) % runs : 0, run = 0;
	for (size_t i = 0; i < n;) {
		if (s[i] < '0' || s[i] > '9') {
			out[o++] = s[i++];
			continue;
		}
		size_t j = i;
		while (j < n && s[j] >= '0' && s[j] <= '9')
			j++;
		if (run++ != pick) {
			memcpy(out + o, s + i, j - i);
			o += j - i;
			i = j;
			continue;
		}
		*seed = *seed * 1103515245u + 12345u;
		size_t len = 1 + (*seed >> 16) % 12;
		for (size_t k = 0; k < len; k++) {
			*seed = *seed * 1103515245u + 12345u;
			out[o++] = (char)('0' + (*seed >> 16) % 10);
		}
		i = j;
	}
	return o;
}

/* mask_key's promise: messages with the same key mask alike, and when the
 * masking is cacheable their templates are the same.  Random variants of
 * the line that happen to share its key are checked. */
static size_t key_checks, key_fails;
static struct masked a, b;
static struct buf ka, kb;
static void check_key_promise(const char *line, size_t n, unsigned *seed)
{
	char *copy = malloc(12 * n + 1);
	mask_key(line, n, &ka);
	mask_message(line, n, &a);
	for (int round = 0; round < 8; round++) {
		size_t cn = digit_variant(line, n, copy, seed);
		mask_key(copy, cn, &kb);
		if (ka.len != kb.len || memcmp(ka.p, kb.p, ka.len) != 0)
			continue;
		mask_message(copy, cn, &b);
		int ok = a.nv == b.nv;
		for (size_t k = 0; ok && k < a.nv; k++)
			ok = a.v[k].type == b.v[k].type;
		if (ok && mask_cacheable(&a))
			ok = a.text.len == b.text.len && memcmp(a.text.p, b.text.p, a.text.len) == 0;
		key_checks++;
		if (!ok && key_fails++ < 5)
			fprintf(stderr, "key promise broken:\n  %.*s\n  %.*s\n", (int)n, line,
				(int)cn, copy);
	}
	free(copy);
}

static void check_key_file(const char *path, unsigned *seed)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	while ((n = getline(&line, &cap, f)) > 0) {
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			n--;
		check_key_promise(line, (size_t)n, seed);
	}
	free(line);
	fclose(f);
}

/* mask_key against its definition, byte by byte, on random strings of
 * every length around the word and block sizes. */
static void test_key_bytes(void)
{
	static const char alphabet[] = "0123456789 0a.:x0";
	struct buf k = { 0 };
	char s[80], want[80];
	unsigned seed = 7;
	int bad = 0;
	for (int round = 0; round < 20000; round++) {
		size_t n = (size_t)round % 70;
		for (size_t i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			s[i] = alphabet[(seed >> 16) % (sizeof(alphabet) - 1)];
		}
		for (size_t i = 0; i < n; i++) {
			int d = s[i] >= '0' && s[i] <= '9';
			int dp = i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9';
			int dn = i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '9';
			want[i] = !d ? s[i] : s[i] == '0' && !dp && !dn ? '0' : '1';
		}
		mask_key(s, n, &k);
		if (k.len != n || memcmp(k.p, want, n) != 0)
			bad++;
	}
	CHECK_INT(bad, 0);
	buf_free(&k);
}

static void test_key(void)
{
	static const char *const lines[] = {
		"Load weight end. type=Qwen2ForCausalLM, avail mem=61.20 GB",
		"127.0.0.1:50122 - \"GET /health HTTP/1.1\" 200 OK",
		"Decode batch. #running-req: 12, #token: 8123, token usage: 0.05, gen throughput (token/s): 1234.56",
		"addr 0x7f3a12 and 0x0 at 2024-01-02T03:04:05.123Z for 12.5s, 3.1it/s, 00:11<00:00",
		"user HTTP2 SOCKS5 MD5 blk_-6952295868487656571 req-38101a0b-2096 port=8000 seed=0",
		"Jul 10 03:55:21 2005 fe80::1234:5678 10.251.73.220:50010 50% 512MiB",
		"\x01 marker 1\x01 2 \x00 3",
	};
	unsigned seed = 1;
	for (int round = 0; round < 50; round++)
		for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
			check_key_promise(lines[i], strlen(lines[i]), &seed);
	/* The real logs and Loghub, when ../shared/data is beside the
	 * checkout: every line of them. */
	const char *shared = getenv("SHARED");
	if (shared) {
		static const char *const files[] = {
			"real-logs/sglang-ok-qwq32b-tp4-l4.log", "real-logs/vllm-ok-qwen72b-tp4-l40s-v0.19.log",
			"real-logs/vllm-crash-qwen25coder7b-16gb-oom-profile-autotune.log",
			"loghub-2k/HDFS/HDFS_2k.log", "loghub-2k/Linux/Linux_2k.log", "loghub-2k/Mac/Mac_2k.log",
			"loghub-2k/Android/Android_2k.log", "loghub-2k/OpenStack/OpenStack_2k.log",
			"loghub-2k/Windows/Windows_2k.log", "loghub-2k/Thunderbird/Thunderbird_2k.log",
			"loghub-2k/HPC/HPC_2k.log", "loghub-2k/BGL/BGL_2k.log", "loghub-2k/Hadoop/Hadoop_2k.log",
		};
		char path[4096];
		for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
			snprintf(path, sizeof(path), "%s/%s", shared, files[i]);
			check_key_file(path, &seed);
		}
	}
	masked_free(&a);
	masked_free(&b);
	buf_free(&ka);
	buf_free(&kb);
	CHECK(key_checks > 100);
	CHECK_INT(key_fails, 0);
}

/* A command typed at a shell prompt is the step "run this program":
 * its prompt (user, host, folder) and its arguments differ between two
 * runs of it, its name and subcommands do not. */
static void test_commands(void)
{
	MASK("$ mypy 08.py", "$ mypy <*>");
	VALUE(0, V_KV, "08.py", "");
	MASK("roman@roman-VirtualBox:~$ vault server -dev -dev-root-token-id root", "$ vault server <*>");
	VALUE(0, V_KV, "-dev -dev-root-token-id root", "");
	MASK("ubuntu@ip-172-31-12-4:~$ vault server -dev -dev-listen-address=0.0.0.0:8200",
	     "$ vault server <*>");
	MASK("root@host:/srv# make -j8 all", "$ make <*>");
	MASK("[me@box src]$ sudo -E uv run --no-sync mypy src/a.py", "$ mypy <*>");
	MASK("(venv) $ python -m pytest -x tests/", "$ pytest <*>");
	MASK("PS C:\\Users\\me> npm run lint -- --fix", "$ npm run lint <*>");
	MASK("C:\\work>python train.py", "$ python <*>");
	MASK("$ FOO=1 npm ci", "$ npm ci");
	MASK("$ npm test", "$ npm test");
	/* Not prompts: a comment, a quote, an address, a bare dollar. */
	MASK("# not a prompt", "# not a prompt");
	MASK("> quoted", "> quoted");
	MASK("user@example.com: hello", "user@<host>: hello");
	MASK("$5 paid", "$<int> paid");
	MASK("$ ", "$ ");
	MASK("(venv) ", "(venv) ");   /* a prompt's start, and the line ends */
}

int main(void)
{
	test_numbers();
	test_exit_status();
	test_code_name();
	test_named_dates();
	test_units();
	test_ids();
	test_addresses();
	test_paths();
	test_dates();
	test_kv();
	test_words_stay();
	test_bounds();
	test_key_bytes();
	test_key();
	test_commands();
	masked_free(&m);
	masked_free(&m);
	return test_report();
}
