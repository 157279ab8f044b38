/* test_classify.c — severity, traceback roles, heartbeats and "killed"
 * on lines as Python, C++ and shells print them. */
#include <stdlib.h>

#include "classify.h"
#include "prefix.h"
#include "rules.h"
#include "test.h"

/* The built-in rules, which hold the words of each kind. */
static struct ruleset builtin;

static void test_severity(void)
{
	/* Without a level, words decide. */
	CHECK_INT(classify_severity(&builtin, "RuntimeError: CUDA error: out of memory", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "Traceback (most recent call last):", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "ERROR 05-01 12:00:00 engine died", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "Segmentation fault (core dumped)", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "WARNING: the flag is deprecated", LV_NONE), CLASSIFY_WARNING);
	CHECK_INT(classify_severity(&builtin, "FutureWarning: `resume_download` is deprecated", LV_NONE), CLASSIFY_WARNING);
	CHECK_INT(classify_severity(&builtin, "Loading weights took 3.2 s", LV_NONE), CLASSIFY_INFO);
	/* The name of a failed system call's errno is an error word; a word
	 * that only starts like one is not. */
	CHECK_INT(classify_severity(&builtin, "connect ECONNREFUSED 127.0.0.1:<int>", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "open '<path>': ENOENT", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "ENOENTRY_COUNT reached, EPERMS listed", LV_NONE), CLASSIFY_INFO);
	CHECK_INT(classify_severity(&builtin, "retry after ECONNRESET", LV_INFO), CLASSIFY_INFO);
	/* So are the C library's words for it, in any case; not a word
	 * that only contains them. */
	CHECK_INT(classify_severity(&builtin, "(<int>)Permission denied: AH00072: make_sock: could not bind to address <ip>:<int>",
				    LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "open <path>: no such file or directory", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "dial tcp <ip>:<int>: connect: connection refused", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "Permission denied: checked at startup", LV_INFO), CLASSIFY_INFO);
	CHECK_INT(classify_severity(&builtin, "set permissions denied_list", LV_NONE), CLASSIFY_INFO);
	/* A line saying the program could not do an act it attempted is an
	 * error when it has no level; a failed search is no failed act,
	 * and being unable is no act. */
	CHECK_INT(classify_severity(&builtin, "Couldn't open file: <path>", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "Unable to connect to the server: dial tcp <ip>:<int>", LV_NONE),
		  CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "could not bind to a free port", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "Cannot locate TCMalloc. Do you have tcmalloc installed?", LV_NONE),
		  CLASSIFY_INFO);
	CHECK_INT(classify_severity(&builtin, "Unable to find image '<id>' locally", LV_INFO), CLASSIFY_INFO);
	CHECK_INT(classify_severity(&builtin, "cannot be empty when set", LV_NONE), CLASSIFY_INFO);
	CHECK_INT(classify_severity(&builtin, "a capable runner opens <path>", LV_NONE), CLASSIFY_INFO);
	/* A cross mark that opens a line says its step failed. */
	CHECK_INT(classify_severity(&builtin, "✖ Downloading and installing Ghost <id>", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "  ✕ adds numbers (<dur>)", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "✔ Downloading and installing Ghost <id>", LV_NONE), CLASSIFY_INFO);
	CHECK_INT(classify_severity(&builtin, "press ✖ to close", LV_NONE), CLASSIFY_INFO);
	/* Perl's die without a message is a failure at any level. */
	CHECK_INT(classify_severity(&builtin, "Died at <path> line <int>.", LV_INFO), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "Undied at home", LV_NONE), CLASSIFY_INFO);
	/* So is a command line the program refused. */
	CHECK_INT(classify_severity(&builtin, "Unknown command: '<id>'", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "main.py: error: unrecognized arguments: --tp", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "Known commands: serve, run", LV_NONE), CLASSIFY_INFO);
	/* systemd's and a shell's words for a failure, capitalised or not */
	CHECK_INT(classify_severity(&builtin, "Failed to start WireGuard via wg-quick(<int>) for <id>.", LV_NONE),
		  CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "<path>: line <int>: resolvconf: command not found", LV_NONE),
		  CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "FailedOver to the standby", LV_NONE), CLASSIFY_INFO);
	/* A failed assertion's heading, as GoogleTest prints it; a count of
	 * failures or a rate says none. */
	CHECK_INT(classify_severity(&builtin, "<path>:<int>: Failure", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "Failure: expected <int>, got <int>", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "Failure rate of the probe is low", LV_NONE), CLASSIFY_INFO);
	/* In capitals it is a result: a results table's row, Maven's. */
	CHECK_INT(classify_severity(&builtin, "rolling-restart-test... FAILURE [<id> <dur>]", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "[INFO] BUILD FAILURE", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "=== FAILURES ===", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "avrdude: stk500_recv(): programmer is not responding", LV_NONE),
		  CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "<int> failures in <int> runs", LV_NONE), CLASSIFY_INFO);
	/* A zero counts the word after it only when it is no other key's value. */
	CHECK_INT(classify_severity(&builtin, "<id> : ok=<int> changed=0 failed=<int>", LV_NONE), CLASSIFY_ERROR);
	/* A tally counts failures; it does not say what failed. */
	CHECK(classify_is_tally(&builtin, "<ip> : ok=<int> changed=<int> unreachable=<int> failed=<int> skipped=<int>"));
	CHECK(classify_is_tally(&builtin, "<int> failed, <int> passed in <dur>"));
	CHECK(classify_is_tally(&builtin, "Errors: 2"));
	CHECK(!classify_is_tally(&builtin, "Error: 2 replicas failed to start"));
	CHECK(!classify_is_tally(&builtin, "fatal: [<ip>]: FAILED! => {\"msg\": \"no service\"}"));
	CHECK(!classify_is_tally(&builtin, "ok=<int> changed=<int> failed=0"));
	/* The level the program gave wins over the words ... */
	CHECK_INT(classify_severity(&builtin, "retrying after error: timeout", LV_INFO), CLASSIFY_INFO);
	CHECK_INT(classify_severity(&builtin, "all good", LV_ERROR), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "all good", LV_FATAL), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "Error budget is fine", LV_WARN), CLASSIFY_WARNING);
	/* ... except that a logged exception is an error at any level. */
	CHECK_INT(classify_severity(&builtin, "ValueError: bad shape", LV_INFO), CLASSIFY_ERROR);
	/* ... and so are words that always mean a failure. */
	CHECK_INT(classify_severity(&builtin, "bind() to 0.0.0.0:80 failed (98: Address already in use)", LV_INFO),
		  CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "Address already in use", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "[emerg] 1#1: unknown directive \"lisen\"", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "FATAL: password authentication failed", LV_INFO), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "panic: runtime error: index out of range", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "llama_model_load: error loading model: unknown pre-tokenizer", LV_NONE),
		  CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "error while reading the config", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "errors: 0 in 12 files", LV_NONE), CLASSIFY_INFO);
	/* A count of zero failures says none happened; another count does not. */
	CHECK_INT(classify_severity(&builtin, "test result: ok. <int> passed; 0 failed; <int> ignored", LV_NONE),
		  CLASSIFY_INFO);
	CHECK_INT(classify_severity(&builtin, "Tests run: <int>, Failures: 0, Errors: 0", LV_NONE), CLASSIFY_INFO);
	CHECK_INT(classify_severity(&builtin, "compiled with 0 warnings", LV_NONE), CLASSIFY_INFO);
	CHECK_INT(classify_severity(&builtin, "test result: ok. <int> passed; <int> failed", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "test result: FAILED. <int> passed; 0 failed", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "10 failed", LV_NONE), CLASSIFY_ERROR);
	/* NCCL's peer loss, each line of its message on its own. */
	CHECK_INT(classify_is_peer_loss(&builtin, "ncclRemoteError: A call failed possibly due to a network error or a "
					"remote process exiting prematurely."), 1);
	CHECK_INT(classify_is_peer_loss(&builtin, "socketProgress: Connection closed by remote peer"), 1);
	CHECK_INT(classify_is_peer_loss(&builtin, "ncclInvalidUsage: This usually reflects invalid usage"), 0);
	CHECK_INT(classify_severity(&builtin, "thread 'main' panicked at src/main.rs:10:5:", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "Out of memory: Killed process 1234 (python)", LV_WARN), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "worker exited with code 137", LV_INFO), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "FATAL_ERRORS_SEEN=0", LV_INFO), CLASSIFY_INFO);
	CHECK_INT(classify_severity(&builtin, "PANIC:  could not write to file \"pg_wal/xlogtemp\"", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "config: PANIC_MODE=off", LV_INFO), CLASSIFY_INFO);
	CHECK_INT(classify_severity(&builtin, "kernel.panic = 0", LV_INFO), CLASSIFY_INFO);
	/* A program's own word for an error opening its line. */
	CHECK_INT(classify_severity(&builtin, "npm ERR! code ELIFECYCLE", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "npm error code 1", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "error[E0425]: cannot find value `x` in this scope", LV_NONE), CLASSIFY_ERROR);
	/* A command line the program refused, in Go's flag package's words. */
	CHECK_INT(classify_severity(&builtin, "flag provided but not defined: -access-key", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "Incorrect Usage: flag provided but not defined: -x", LV_NONE),
		  CLASSIFY_ERROR);
	/* A test runner's FAIL, a word alone; not inside a name. */
	CHECK_INT(classify_severity(&builtin, "--- FAIL: TestBrooderDocSections (<dur>)", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "FAIL src/math.test.js", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "set FAIL_FAST=1 and FAILOVER=on", LV_NONE), CLASSIFY_INFO);
	CHECK_INT(classify_severity(&builtin, "# FAIL:  0", LV_NONE), CLASSIFY_INFO);
	CHECK_INT(classify_severity(&builtin, "# FAIL:  1", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "web1 : ok=<int> changed=<int> failed=0 skipped=<int>", LV_NONE),
		  CLASSIFY_INFO);
	CHECK_INT(classify_severity(&builtin, "web1 : ok=<int> changed=<int> failed=<int> skipped=<int>", LV_NONE),
		  CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&builtin, "no error in 12 files", LV_NONE), CLASSIFY_INFO);
	CHECK_INT(classify_severity(&builtin, "the error budget is fine", LV_NONE), CLASSIFY_INFO);
	CHECK_INT(classify_message_follows("thread 'main' panicked at src/main.rs:10:5:"), 1);
	CHECK_INT(classify_message_follows("thread 'main' panicked at 'boom', src/main.rs:10:5"), 0);
}

static void test_traceback(void)
{
	CHECK_INT(classify_traceback_role("Traceback (most recent call last):"), CLASSIFY_TB_START);
	CHECK_INT(classify_traceback_role("terminate called after throwing an instance of 'c10::Error'"),
		  CLASSIFY_TB_START);
	CHECK_INT(classify_traceback_role("  File \"/app/server.py\", line 12, in main"), CLASSIFY_TB_BODY);
	CHECK_INT(classify_traceback_role("File \"/app/server.py\", line 12, in main"), CLASSIFY_TB_BODY);
	CHECK_INT(classify_traceback_role("    ^^^^^^^^^^^^"), CLASSIFY_TB_BODY);
	CHECK_INT(classify_traceback_role("^^^~~~"), CLASSIFY_TB_BODY);
	CHECK_INT(classify_traceback_role("frame #3: <unknown function> + 0x1234"), CLASSIFY_TB_BODY);
	CHECK_INT(classify_traceback_role(""), CLASSIFY_TB_BODY);
	CHECK_INT(classify_traceback_role("RuntimeError: NCCL error"), CLASSIFY_TB_EXC);
	CHECK_INT(classify_traceback_role("torch.OutOfMemoryError: CUDA out of memory."), CLASSIFY_TB_EXC);
	CHECK_INT(classify_traceback_role("During handling of the above exception, another exception occurred:"),
		  CLASSIFY_TB_CHAIN);
	CHECK_INT(classify_traceback_role("The above exception was the direct cause of the following exception:"),
		  CLASSIFY_TB_CHAIN);
	CHECK_INT(classify_traceback_role("Server started on port 8000"), CLASSIFY_TB_NO);
	/* multiprocessing names the child before its traceback. */
	CHECK_INT(classify_traceback_role("Process SpawnProcess-1:"), CLASSIFY_TB_START);
	CHECK_INT(classify_traceback_role("Process EngineCore_0:"), CLASSIFY_TB_START);
	CHECK_INT(classify_traceback_role("Process started: pid 7"), CLASSIFY_TB_NO);
	/* loguru's frame marker and annotations. */
	CHECK_INT(classify_traceback_role("> File \"/app/main.py\", line 3, in <module>"), CLASSIFY_TB_BODY);
	CHECK_INT(classify_traceback_role("    └ <function main at 0x7f>"), CLASSIFY_TB_BODY);
	/* Java. */
	CHECK_INT(classify_traceback_role("Exception in thread \"main\" java.lang.IllegalStateException: x"),
		  CLASSIFY_TB_EXC);
	CHECK_INT(classify_traceback_role("\tat com.example.Main.main(Main.java:10)"), CLASSIFY_TB_BODY);
	CHECK_INT(classify_traceback_role("Caused by: java.net.BindException: Address already in use"),
		  CLASSIFY_TB_CAUSE);
	/* Go. */
	CHECK_INT(classify_traceback_role("panic: runtime error: invalid memory address"), CLASSIFY_TB_EXC);
	CHECK_INT(classify_traceback_role("[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x48f]"),
		  CLASSIFY_TB_BODY);
	CHECK_INT(classify_traceback_role("goroutine 1 [running]:"), CLASSIFY_TB_BODY);
	CHECK_INT(classify_traceback_role("main.main()"), CLASSIFY_TB_BODY);
	CHECK_INT(classify_traceback_role("created by net/http.(*Server).Serve in goroutine 1"), CLASSIFY_TB_BODY);
	/* Rust, CPython's faulthandler. */
	CHECK_INT(classify_traceback_role("thread 'main' panicked at src/main.rs:10:5:"), CLASSIFY_TB_EXC);
	CHECK_INT(classify_traceback_role("Fatal Python error: Segmentation fault"), CLASSIFY_TB_EXC);
	CHECK_INT(classify_traceback_role("Current thread 0x00007f (most recent call first):"), CLASSIFY_TB_BODY);
	CHECK_INT(classify_traceback_role("Loading model (step 2 of 3)"), CLASSIFY_TB_NO);
}

static void test_exception(void)
{
	CHECK(classify_is_exception("RuntimeError: CUDA error"));
	CHECK(classify_is_exception("KeyError: 'x'"));
	CHECK(classify_is_exception("KeyboardInterrupt"));
	CHECK(classify_is_exception("SystemExit: 1"));
	CHECK(classify_is_exception("  what():  std::bad_alloc"));
	CHECK(classify_is_exception("asyncio.exceptions.CancelledError"));
	CHECK(classify_is_exception("torch.distributed.DistBackendError: NCCL error"));
	CHECK(!classify_is_exception("Engine core failed to start"));
	CHECK(!classify_is_exception("Loading model weights"));
	CHECK(!classify_is_exception("<int> errors"));
	CHECK(!classify_is_exception(""));
	CHECK(classify_is_exception("panic: assignment to entry in nil map"));
	CHECK(classify_is_exception("thread 'main' panicked at src/main.rs:10:5:"));
	CHECK(classify_is_exception("Fatal Python error: Aborted"));
	CHECK(classify_is_exception("Exception in thread \"main\" java.lang.NullPointerException"));
	CHECK(!classify_is_exception("panicking is not an option"));
	CHECK(classify_is_exception_shaped("torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:"));
	CHECK(classify_is_exception_shaped("subprocess.TimeoutExpired: Command '['nvcc']' timed out"));
	CHECK(classify_is_exception_shaped("StopAsyncIteration:"));
	CHECK(!classify_is_exception_shaped("torch.cuda: ready"));
	CHECK(!classify_is_exception_shaped("Loading model: qwen"));
	CHECK(!classify_is_exception_shaped("INFO: started"));
	CHECK(classify_is_source_frame("  File \"/app/x.py\", line 3, in f"));
	CHECK(classify_is_source_frame("> File \"/app/x.py\", line 3, in f"));
	CHECK(!classify_is_source_frame("    x = f()"));
}

static void test_words(void)
{
	CHECK(classify_is_heartbeat(&builtin, "\"GET /health HTTP/1.1\" 200 OK"));
	CHECK(classify_is_heartbeat(&builtin, "| 200 | 1.2ms | 127.0.0.1 | GET \"/api/health\""));
	CHECK(!classify_is_heartbeat(&builtin, "INF Starting metrics server on 127.0.0.1:20241/metrics"));
	CHECK(!classify_is_heartbeat(&builtin, "Starting metrics server on <ip>/metrics"));
	CHECK(classify_is_heartbeat(&builtin, "Avg prompt throughput: 0.0 tokens/s"));
	CHECK(!classify_is_heartbeat(&builtin, "Capture cuda graph begin"));
	/* With --rules none the generic heartbeat words stay; a rule file
	 * adds words of its own. */
	struct ruleset rs;
	char *none[] = { "none" };
	CHECK_INT(rules_init(&rs, none, 1), 0);
	CHECK(classify_is_heartbeat(&rs, "Avg prompt throughput: 0.0 tokens/s"));
	CHECK(!classify_is_heartbeat(&rs, "myserve: still alive"));
	static const char mine[] = "[myserve]\nheartbeat alive: ^myserve: still alive$\n";
	CHECK_INT(rules_parse(&rs, "mine.rules", mine, sizeof(mine) - 1), 0);
	CHECK(classify_is_heartbeat(&rs, "myserve: still alive"));
	CHECK_STR(rs.r[0].name, "alive");
	/* So do the severity words; a rule file's error word makes an error
	 * of a line without a level, and its failure word one at any level. */
	CHECK_INT(classify_severity(&rs, "Traceback (most recent call last):", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&rs, "the flag is deprecated", LV_NONE), CLASSIFY_WARNING);
	CHECK_INT(classify_severity(&rs, "myserve: OOPS in the pool", LV_NONE), CLASSIFY_INFO);
	static const char oops[] = "[myserve]\nerror oops: \\bOOPS\\b\nfailure wedged: \\bWEDGED\\b\n";
	CHECK_INT(rules_parse(&rs, "oops.rules", oops, sizeof(oops) - 1), 0);
	CHECK_INT(classify_severity(&rs, "myserve: OOPS in the pool", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity(&rs, "myserve: OOPS in the pool", LV_INFO), CLASSIFY_INFO);
	CHECK_INT(classify_severity(&rs, "myserve: pool WEDGED", LV_INFO), CLASSIFY_ERROR);
	CHECK(classify_names_failure(&rs, "myserve: pool WEDGED"));
	rules_free(&rs);
	CHECK(classify_is_killed(&builtin, "KeyboardInterrupt"));
	CHECK(classify_is_killed(&builtin, "Received SIGTERM, shutting down"));
	CHECK(!classify_is_killed(&builtin, "RuntimeError: NCCL error"));
	CHECK(classify_is_killed(&builtin, "torch.distributed.elastic.multiprocessing.api.SignalException: Process 7 got signal: 15"));
	CHECK(classify_is_killed(&builtin, "Received 15 death signal, shutting down workers"));
	/* the terminal's echo of Ctrl-C, alone or before the next line */
	CHECK(classify_is_killed(&builtin, "^C"));
	CHECK(classify_is_killed(&builtin, "^CERROR: got KeyboardInterrupt signal"));
	CHECK(classify_is_killed(&builtin, "^C[12/20/23 02:36:10] INFO     engine.py:238 loop"));
	CHECK(!classify_is_killed(&builtin, "grep ^Creating network"));
	CHECK(classify_is_killed(&builtin, "torch.distributed.elastic.multiprocessing.api.SignalException: Process <int> got signal: <int>"));
	CHECK(!classify_is_killed(&builtin, "traceback : Signal 9 (SIGKILL) received by PID 1571"));
	/* Any death by a signal is one, whoever sent it; an exit status
	 * is not. */
	CHECK(classify_is_signalled(&builtin, "traceback : Signal 9 (SIGKILL) received by PID 1571"));
	CHECK(classify_is_signalled(&builtin, "Process 2 exited with exitcode: -<int>"));
	CHECK(classify_is_signalled(&builtin, "Command died with returncode -<int>"));
	CHECK(!classify_is_signalled(&builtin, "failed (exitcode: <int>) local_rank: <int>"));
	CHECK(!classify_is_signalled(&builtin, "Received SIGTERM, shutting down"));
	/* A signal by its number: 2 and 15 come from outside, 9 may be the
	 * kernel's. */
	CHECK(classify_is_killed(&builtin, "Signal (15) received."));
	CHECK(classify_is_killed(&builtin, "Received signal 2, exiting"));
	CHECK(!classify_is_killed(&builtin, "got signal: 9"));
	CHECK(!classify_is_killed(&builtin, "Signal (<int>) received."));
	/* A graceful stop was asked for, whatever the signal was. */
	CHECK(classify_is_killed(&builtin, "AH00492: caught SIGWINCH, shutting down gracefully"));
	CHECK(classify_is_killed(&builtin, "Stopping server gracefully"));
	CHECK(!classify_is_killed(&builtin, "stopping event stream following graceful shutdown"));
	CHECK(!classify_is_killed(&builtin, "Shutting down"));
	CHECK(!classify_is_killed(&builtin, "the worker degrades gracefully when the cache is cold"));
	CHECK(classify_is_signalled(&builtin, "got signal: 9"));
	CHECK(!classify_is_signalled(&builtin, "signal 91 ignored"));
	CHECK(classify_is_peer_loss(&builtin, "RuntimeError: [pair.cc:538] Read error [127.0.0.1]:6049: Connection reset by peer"));
	CHECK(classify_is_peer_loss(&builtin, "BrokenPipeError: [Errno 32] Broken pipe"));
	CHECK(!classify_is_peer_loss(&builtin, "RuntimeError: bad batch at step 3"));
	CHECK(classify_is_timeout(&builtin, "RuntimeError: [unbound_buffer.cc:78] Timed out waiting 15000ms for recv operation to complete"));
	CHECK(classify_is_timeout(&builtin, "[Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=2, OpType=ALLREDUCE)"));
	CHECK(!classify_is_timeout(&builtin, "RuntimeError: bad batch at step 3"));
	/* classify_names_failure: the words, whatever the level. */
	CHECK(classify_names_failure(&builtin, "exception in 'DatabasePathFeature::start': Unable to lock the lock file"));
	CHECK(classify_names_failure(&builtin, "shutting down with code:100"));
	CHECK(classify_names_failure(&builtin, "Segmentation fault (core dumped)"));
	CHECK(classify_names_failure(&builtin, "child process aborted"));
	CHECK(classify_names_failure(&builtin, "App [api:0] errored"));
	CHECK(!classify_names_failure(&builtin, "no errors found, 0 errors in 3 files"));
	CHECK(!classify_names_failure(&builtin, "<int> errors, <int> warnings"));
	CHECK(!classify_names_failure(&builtin, "error_rate=<float> on_error=retry"));
	CHECK(!classify_names_failure(&builtin, "This can take several minutes.  Press CTRL-C to abort."));
	CHECK(classify_names_failure(&builtin, "the job had to abort: disk full"));
	CHECK(classify_names_failure(&builtin, "Press any key. The upload had to abort: disk full"));
	CHECK(!classify_names_failure(&builtin, "ErrorHandler registered"));
	CHECK(!classify_names_failure(&builtin, "exited with code 0"));
}

int main(void)
{
	setenv("XDG_CONFIG_HOME", "/nonexistent", 1);
	if (rules_builtin(&builtin) < 0)
		return 1;
	test_severity();
	test_traceback();
	test_exception();
	test_words();
	rules_free(&builtin);
	return test_report();
}
