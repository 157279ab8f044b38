/* test_classify.c — severity, traceback roles, heartbeats and "killed"
 * on lines as Python, C++ and shells print them. */
#include "classify.h"
#include "prefix.h"
#include "test.h"

static void test_severity(void)
{
	/* Without a level, words decide. */
	CHECK_INT(classify_severity("RuntimeError: CUDA error: out of memory", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity("Traceback (most recent call last):", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity("ERROR 05-01 12:00:00 engine died", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity("Segmentation fault (core dumped)", LV_NONE), CLASSIFY_ERROR);
	CHECK_INT(classify_severity("WARNING: the flag is deprecated", LV_NONE), CLASSIFY_WARNING);
	CHECK_INT(classify_severity("FutureWarning: `resume_download` is deprecated", LV_NONE), CLASSIFY_WARNING);
	CHECK_INT(classify_severity("Loading weights took 3.2 s", LV_NONE), CLASSIFY_INFO);
	/* The level the program gave wins over the words ... */
	CHECK_INT(classify_severity("retrying after error: timeout", LV_INFO), CLASSIFY_INFO);
	CHECK_INT(classify_severity("all good", LV_ERROR), CLASSIFY_ERROR);
	CHECK_INT(classify_severity("all good", LV_FATAL), CLASSIFY_ERROR);
	CHECK_INT(classify_severity("Error budget is fine", LV_WARN), CLASSIFY_WARNING);
	/* ... except that a logged exception is an error at any level. */
	CHECK_INT(classify_severity("ValueError: bad shape", LV_INFO), CLASSIFY_ERROR);
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
}

static void test_words(void)
{
	CHECK(classify_is_heartbeat("\"GET /health HTTP/1.1\" 200 OK"));
	CHECK(classify_is_heartbeat("Avg prompt throughput: 0.0 tokens/s"));
	CHECK(!classify_is_heartbeat("Capture cuda graph begin"));
	CHECK(classify_is_killed("KeyboardInterrupt"));
	CHECK(classify_is_killed("Received SIGTERM, shutting down"));
	CHECK(!classify_is_killed("RuntimeError: NCCL error"));
}

int main(void)
{
	test_severity();
	test_traceback();
	test_exception();
	test_words();
	return test_report();
}
