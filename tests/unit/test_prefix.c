/* test_prefix.c — the header formats, levels, tags, timestamps, detection
 * and hostile input of the prefix stage. */
#include <stdlib.h>

#include "prefix.h"
#include "test.h"

/* Parse from an exact-size heap copy, so that AddressSanitizer catches a
 * read past len (lines are not NUL-terminated). */
static struct header parse_n(int fmt, const char *s, size_t n, char **copy)
{
	struct header h;
	*copy = malloc(n ? n : 1);
	memcpy(*copy, s, n);
	prefix_parse(fmt, *copy, n, &h);
	return h;
}

struct want {
	const char *line;
	const char *format;
	const char *ts;       /* ISO, NULL for none */
	int level;
	const char *tag;      /* "" for none */
	const char *msg;
};

static const struct want cases[] = {
	/* SGLang */
	{ "[2025-03-08 12:29:29 TP1] Load weight begin. avail mem=78.77 GB", "sglang",
	  "2025-03-08T12:29:29.000Z", LV_NONE, "TP1", "Load weight begin. avail mem=78.77 GB" },
	{ "[2025-03-08 12:29:29 DP0 TP3 EP3] msg", "sglang",
	  "2025-03-08T12:29:29.000Z", LV_NONE, "DP0 TP3 EP3", "msg" },
	{ "[2025-03-08 12:29:29] server_args=ServerArgs(x=1)", "sglang",
	  "2025-03-08T12:29:29.000Z", LV_NONE, "", "server_args=ServerArgs(x=1)" },
	{ "[2026-03-08 12:29:29] INFO file.py:123: msg", "sglang",
	  "2026-03-08T12:29:29.000Z", LV_INFO, "", "msg" },
	{ "[2026-02-26 05:19:58 TP0] WARNING model_config.py:1025: Transformers 5.3", "sglang",
	  "2026-02-26T05:19:58.000Z", LV_WARN, "TP0", "Transformers 5.3" },
	{ "[2025-03-08 12:29:29] INFO:     127.0.0.1:50 - \"GET /health HTTP/1.1\" 200 OK", "sglang",
	  "2025-03-08T12:29:29.000Z", LV_INFO, "", "127.0.0.1:50 - \"GET /health HTTP/1.1\" 200 OK" },
	{ "[2026-02-26 05:20:07 TP7] [AR] All-reduce call path: NCCL", "sglang",
	  "2026-02-26T05:20:07.000Z", LV_NONE, "TP7", "[AR] All-reduce call path: NCCL" },
	{ "[2025-03-08 12:29:29 TP0] INFO is not a header here", "sglang",
	  "2025-03-08T12:29:29.000Z", LV_NONE, "TP0", "INFO is not a header here" },
	/* vLLM, and its process prefixes as tags without the pid */
	{ "INFO 03-07 12:29:02 __init__.py:190] Automatically detected platform cuda.", "vllm",
	  "1970-03-07T12:29:02.000Z", LV_INFO, "", "Automatically detected platform cuda." },
	{ "INFO 03-07 12:29:02 [core.py:61] msg", "vllm",
	  "1970-03-07T12:29:02.000Z", LV_INFO, "", "msg" },
	{ "(VllmWorker rank=2 pid=4711) INFO 03-07 12:29:02 [core.py:61] msg", "vllm",
	  "1970-03-07T12:29:02.000Z", LV_INFO, "VllmWorker rank=2", "msg" },
	{ "(EngineCore_0 pid=812) WARNING 08-01 17:36:24 [x.py:1] w", "vllm",
	  "1970-08-01T17:36:24.000Z", LV_WARN, "EngineCore_0", "w" },
	{ "(EngineCore_DP0 pid=812) ERROR 08-01 17:36:24 [x.py:1] e", "vllm",
	  "1970-08-01T17:36:24.000Z", LV_ERROR, "EngineCore_DP0", "e" },
	{ "(Worker_TP1 pid=99) DEBUG 08-01 17:36:24 [x.py:1] d", "vllm",
	  "1970-08-01T17:36:24.000Z", LV_DEBUG, "Worker_TP1", "d" },
	{ "(RayWorkerWrapper pid=5512, ip=10.0.0.2) CRITICAL 08-01 17:36:24 [x.py:1] c", "vllm",
	  "1970-08-01T17:36:24.000Z", LV_FATAL, "RayWorkerWrapper", "c" },
	/* A role after the pid is part of the tag; a host is not. */
	{ "(Worker pid=4632, rank=1) ERROR 08-01 17:36:24 [x.py:1] e", "vllm",
	  "1970-08-01T17:36:24.000Z", LV_ERROR, "Worker pid=4632, rank=1", "e" },
	{ "(Worker pid=4632, rank=1, ip=10.0.0.2) ERROR 08-01 17:36:24 [x.py:1] e", "vllm",
	  "1970-08-01T17:36:24.000Z", LV_ERROR, "Worker pid=4632, rank=1", "e" },
	{ "(VllmWorkerProcess pid=1646375) INFO 04-18 14:12:27 x.py:5] ok", "vllm",
	  "1970-04-18T14:12:27.000Z", LV_INFO, "VllmWorkerProcess", "ok" },
	{ "(APIServer pid=1) INFO 04-16 11:16:06 [utils.py:299] ", "vllm",
	  "1970-04-16T11:16:06.000Z", LV_INFO, "APIServer", "" },
	{ "(APIServer pid=1) INFO 04-16 11:16:06 [utils.py:299]        art", "vllm",
	  "1970-04-16T11:16:06.000Z", LV_INFO, "APIServer", "       art" },
	{ "(VllmWorker rank=0 pid=12)   File \"x.py\", line 1, in f", "none",
	  NULL, LV_NONE, "VllmWorker rank=0", "  File \"x.py\", line 1, in f" },
	{ "(APIServer pid=1) INFO:     Started server process [1]", "uvicorn",
	  NULL, LV_INFO, "APIServer", "Started server process [1]" },
	{ "(pid=77) plain", "none", NULL, LV_NONE, "", "plain" },
	{ "(root) CMD (run-parts)", "none", NULL, LV_NONE, "", "(root) CMD (run-parts)" },
	/* torchrun, alone and around other headers */
	{ "[rank3]: Traceback (most recent call last):", "none",
	  NULL, LV_NONE, "rank3", "Traceback (most recent call last):" },
	{ "[default0]:[2025-03-08 12:29:29 TP0] msg", "sglang",
	  "2025-03-08T12:29:29.000Z", LV_NONE, "default0", "msg" },
	{ "[rank5]:[W117 10:35:51.960159117 compiler_depend.ts:207] Warning: x", "glog",
	  "1970-01-17T10:35:51.960Z", LV_WARN, "rank5", "Warning: x" },
	{ "(EngineCore pid=6890) [rank0]:W0803 21:48:43.773000 6890 torch/_inductor/utils.py:1731] SMs",
	  "glog", "1970-08-03T21:48:43.773Z", LV_WARN, "EngineCore", "SMs" },
	/* glog and c10 */
	{ "I0223 00:36:54.123456  1234 file.cc:12] msg", "glog",
	  "1970-02-23T00:36:54.123Z", LV_INFO, "", "msg" },
	{ "F0223 00:36:54.123456 1 a/b.cc:12] boom", "glog",
	  "1970-02-23T00:36:54.123Z", LV_FATAL, "", "boom" },
	{ "[W socket.cpp:436] [c10d] The server socket has failed", "glog",
	  NULL, LV_WARN, "", "[c10d] The server socket has failed" },
	/* Python logging, uvicorn, loguru */
	{ "INFO:root:msg", "python-basic", NULL, LV_INFO, "", "msg" },
	{ "[    1.905677] Waiting for root device /dev/mmcblk0p2...", "kernel",
	  "1970-01-01T00:00:01.905Z", LV_NONE, "", "Waiting for root device /dev/mmcblk0p2..." },
	{ "[12345.000001] usb 1-1: new device", "kernel",
	  "1970-01-01T03:25:45.000Z", LV_NONE, "", "usb 1-1: new device" },
	{ "[ 1.5] x", "none", NULL, LV_NONE, "", "[ 1.5] x" },
	{ "[INFO|tokenization_utils_base.py:2060] 2025-05-15 07:22:26,470 >> loading file x", "level-bar",
	  "2025-05-15T07:22:26.470Z", LV_INFO, "", "loading file x" },
	{ "[WARNING|2025-05-15 07:22:26] llamafactory.data.template:148 >> New tokens", "level-bar",
	  "2025-05-15T07:22:26.000Z", LV_WARN, "", "New tokens" },
	{ "[INFO|x] done >> y", "none", NULL, LV_NONE, "", "[INFO|x] done >> y" },
	{ "WARNING:torch.distributed.run:x y", "python-basic", NULL, LV_WARN, "", "x y" },
	{ "2024-01-02 03:04:05,678 - name - INFO - msg", "python",
	  "2024-01-02T03:04:05.678Z", LV_INFO, "", "msg" },
	{ "2023-09-25 11:42:05,651 - synapse.server - 304 - INFO - main - Setting up.", "python",
	  "2023-09-25T11:42:05.651Z", LV_INFO, "", "Setting up." },
	{ "2023-09-25 11:42:05,651 - a - b - c - d - INFO - deep", "iso",
	  "2023-09-25T11:42:05.651Z", LV_NONE, "", "- a - b - c - d - INFO - deep" },
	{ "2024-01-02 03:04:05,678 - INFO - root - hello there", "python",
	  "2024-01-02T03:04:05.678Z", LV_INFO, "", "hello there" },
	{ "06/02/2024 00:04:27 - INFO - llamafactory.data.loader - Loading dataset x.json...", "python",
	  "2024-06-02T00:04:27.000Z", LV_INFO, "", "Loading dataset x.json..." },
	{ "[2024-01-02 03:04:05,678] INFO - kafka.server - started", "bracket-iso",
	  "2024-01-02T03:04:05.678Z", LV_INFO, "", "started" },
	{ "2024-01-02 03:04:05,678 - INFO - Loading model - done", "python",
	  "2024-01-02T03:04:05.678Z", LV_INFO, "", "Loading model - done" },
	{ "2024-01-02 03:04:05,678 - ERROR - msg", "python",
	  "2024-01-02T03:04:05.678Z", LV_ERROR, "", "msg" },
	{ "2026-08-01 21:21:48,181 - INFO - autotuner.py:651 - flashinfer.jit: go", "python",
	  "2026-08-01T21:21:48.181Z", LV_INFO, "", "flashinfer.jit: go" },
	{ "2024-01-02 03:04:05,678 INFO msg", "iso",
	  "2024-01-02T03:04:05.678Z", LV_INFO, "", "msg" },
	{ "2024-01-02 03:04:05,678 [WARNING] msg", "iso",
	  "2024-01-02T03:04:05.678Z", LV_WARN, "", "msg" },
	{ "INFO:     Started server process [1234]", "uvicorn",
	  NULL, LV_INFO, "", "Started server process [1234]" },
	{ "WARNING:  Invalid HTTP request received.", "uvicorn",
	  NULL, LV_WARN, "", "Invalid HTTP request received." },
	{ "ERROR:    Exception in ASGI application", "uvicorn",
	  NULL, LV_ERROR, "", "Exception in ASGI application" },
	{ "CRITICAL: x", "uvicorn", NULL, LV_FATAL, "", "x" },
	{ "ERROR: not uvicorn's padding", "none", NULL, LV_ERROR, "", "not uvicorn's padding" },
	/* Go's loggers: logrus's text, zerolog's console */
	{ "ERRO[0001] failed to start daemon: pid file found", "none", NULL, LV_ERROR, "",
	  "failed to start daemon: pid file found" },
	{ "INFO[2024-05-01T10:00:00Z] Starting up", "none", NULL, LV_INFO, "", "Starting up" },
	{ "2026-04-20T18:16:43Z INF Starting metrics server", "iso",
	  "2026-04-20T18:16:43.000Z", LV_INFO, "", "Starting metrics server" },
	{ "2026-04-20T18:16:43Z WRN Your version is outdated", "iso",
	  "2026-04-20T18:16:43.000Z", LV_WARN, "", "Your version is outdated" },
	/* A level word in capitals with no time before it; prose's "Error"
	 * and a word run on are no level */
	{ "ERROR boom", "none", NULL, LV_ERROR, "", "boom" },
	{ "WARN  [main] slow", "none", NULL, LV_WARN, "", "[main] slow" },
	{ "Error: CUDA out of memory", "none", NULL, LV_NONE, "", "Error: CUDA out of memory" },
	{ "ERRORS found", "none", NULL, LV_NONE, "", "ERRORS found" },
	{ "INFO=1 python x.py", "none", NULL, LV_NONE, "", "INFO=1 python x.py" },
	{ "ERROR", "none", NULL, LV_NONE, "", "ERROR" },
	{ "Traceback (most recent call last):", "none", NULL, LV_NONE, "",
	  "Traceback (most recent call last):" },
	{ "2024-01-02 03:04:05.678 | INFO     | mod:fn:12 - msg", "loguru",
	  "2024-01-02T03:04:05.678Z", LV_INFO, "", "msg" },
	/* ISO-8601 with fractions and zones, journalctl, syslog */
	{ "2024-01-02T03:04:05.123+02:00 msg", "iso",
	  "2024-01-02T03:04:05.123Z", LV_NONE, "", "msg" },
	{ "2024-01-02T03:04:05Z msg", "iso", "2024-01-02T03:04:05.000Z", LV_NONE, "", "msg" },
	{ "2024-01-02T03:04:05.123456789-0530 msg", "iso",
	  "2024-01-02T03:04:05.123Z", LV_NONE, "", "msg" },
	{ "2024-01-02 03:04:05.5 msg", "iso", "2024-01-02T03:04:05.500Z", LV_NONE, "", "msg" },
	{ "2025-11-15T01:59:00: PM2 log: App online", "iso", "2025-11-15T01:59:00.000Z", LV_NONE, "",
	  "PM2 log: App online" },
	{ "2025-11-15T01:59:00:x", "none", NULL, LV_NONE, "", "2025-11-15T01:59:00:x" },
	{ "2024-01-02T03:04:05+0000 host unit[1]: msg", "journal",
	  "2024-01-02T03:04:05.000Z", LV_NONE, "", "msg" },
	{ "2024-01-02T03:04:05.5+01:00 host kernel: oops", "journal",
	  "2024-01-02T03:04:05.500Z", LV_NONE, "", "oops" },
	/* a level where the host would stand makes no journal line (hclog) */
	{ "2025-09-20T14:48:00.098+0600 [DEBUG] agent.grpc: switching server", "iso",
	  "2025-09-20T14:48:00.098Z", LV_DEBUG, "", "agent.grpc: switching server" },
	{ "Jun 14 15:16:01 host prog[123]: msg", "syslog",
	  "1970-06-14T15:16:01.000Z", LV_NONE, "", "msg" },
	{ "Jun  4 15:16:01 combo sshd(pam_unix)[19939]: check pass; user unknown", "syslog",
	  "1970-06-04T15:16:01.000Z", LV_NONE, "", "check pass; user unknown" },
	{ "Jun 19 04:09:11 combo syslogd 1.4.1: restart.", "syslog",
	  "1970-06-19T04:09:11.000Z", LV_NONE, "", "restart." },
	/* journalctl and syslog in other locales: the month as strftime's %b
	 * writes it there */
	{ "авг 29 10:34:14 wg-client wg-quick[2540]: [#] ip link add wg0", "syslog",
	  "1970-08-29T10:34:14.000Z", LV_NONE, "", "[#] ip link add wg0" },
	{ "Mär  3 09:00:01 host cron[7]: job", "syslog", "1970-03-03T09:00:01.000Z", LV_NONE, "", "job" },
	/* a time of day that opens a wrapped program's text is its text */
	{ "Jul  7 21:58:33 host coreaudiod[1]: 21:58:33.765 ERROR:    177: timed out", "syslog",
	  "1970-07-07T21:58:33.000Z", LV_NONE, "", "21:58:33.765 ERROR:    177: timed out" },
	{ "déc. 24 23:59:59 host sshd[9]: bye", "syslog", "1970-12-24T23:59:59.000Z", LV_NONE, "", "bye" },
	{ "12월 04 10:34:14 host dockerd[1]: up", "syslog", "1970-12-04T10:34:14.000Z", LV_NONE, "", "up" },
	{ "8月 29 10:34:14 host systemd[1]: Started x.", "syslog", "1970-08-29T10:34:14.000Z", LV_NONE, "",
	  "Started x." },
	{ "13월 04 10:34:14 host d[1]: no", "none", NULL, LV_NONE, "", "13월 04 10:34:14 host d[1]: no" },
	/* a syslog time without a host: the program's text follows, its own
	 * header read as behind a host's tag */
	{ "Dec  1 10:00:00 Traceback (most recent call last):", "syslog",
	  "1970-12-01T10:00:00.000Z", LV_NONE, "", "Traceback (most recent call last):" },
	{ "Dec  1 10:00:00 (APIServer pid=7) INFO 12-01 10:00:00 [api_server.py:9] up", "syslog",
	  "1970-12-01T10:00:00.000Z", LV_INFO, "APIServer", "up" },
	{ "Dec  1 10:00:00 RuntimeError: CUDA error: out of memory", "syslog",
	  "1970-12-01T10:00:00.000Z", LV_NONE, "", "RuntimeError: CUDA error: out of memory" },
	{ "Dec  1 10:00:00 Loading weights took 3.2 GiB", "syslog",
	  "1970-12-01T10:00:00.000Z", LV_NONE, "", "Loading weights took 3.2 GiB" },
	{ "Dec  1 10:00:00   File \"/x.py\", line 3, in f", "syslog",
	  "1970-12-01T10:00:00.000Z", LV_NONE, "", "  File \"/x.py\", line 3, in f" },
	{ "Dec  1 10:00:00 UTC [3187] LOG:  starting", "syslog",
	  "1970-12-01T10:00:00.000Z", LV_NONE, "", "UTC [3187] LOG:  starting" },
	/* Loghub formats, on lines written for this test */
	{ "03-17 16:13:38.811  1702  2395 D WindowManager: opening app", "android",
	  "1970-03-17T16:13:38.811Z", LV_DEBUG, "", "opening app" },
	{ "03-17 16:13:50.107 23650 23685 V AudioManager: isMusicActive...", "android",
	  "1970-03-17T16:13:50.107Z", LV_TRACE, "", "isMusicActive..." },
	{ "[Sun Dec 04 04:47:44 2005] [notice] workerEnv.init() ok", "apache",
	  "2005-12-04T04:47:44.000Z", LV_NOTICE, "", "workerEnv.init() ok" },
	{ "[Sun Dec 04 04:47:44.123456 2005] [core:error] [pid 12:tid 3] AH00001: x", "apache",
	  "2005-12-04T04:47:44.123Z", LV_ERROR, "", "AH00001: x" },
	{ "- 1117838570 2005.06.03 R02-M1-N0-C:J12-U11 2005-06-03-15.42.50.675872 "
	  "R02-M1-N0-C:J12-U11 RAS KERNEL INFO cache parity error corrected", "bgl",
	  "2005-06-03T15:42:50.675Z", LV_INFO, "", "cache parity error corrected" },
	{ "081109 203615 148 INFO dfs.DataNode$PacketResponder: PacketResponder 1 ends", "hdfs",
	  "2008-11-09T20:36:15.000Z", LV_INFO, "", "PacketResponder 1 ends" },
	{ "134681 node-246 unix.hw state_change.unavailable 1077804742 1 Component x", "hpc",
	  "2004-02-26T14:12:22.000Z", LV_NONE, "", "Component x" },
	{ "2273811 full partition status 1060324505 -1 running", "hpc",
	  "2003-08-08T06:35:05.000Z", LV_NONE, "", "running" },
	{ "2015-10-18 18:01:47,978 INFO [main] org.apache.MRAppMaster: Created x", "hadoop",
	  "2015-10-18T18:01:47.978Z", LV_INFO, "", "Created x" },
	{ "20171223-22:15:29:606|Step_LSC|30002312|onStandStepChanged 3579", "healthapp",
	  "2017-12-23T22:15:29.606Z", LV_NONE, "", "onStandStepChanged 3579" },
	{ "20171223-22:16:0:19|Step_SPUtils|30002312| getToday", "healthapp",
	  "2017-12-23T22:16:00.019Z", LV_NONE, "", " getToday" },
	{ "Jul  1 09:01:06 calvisitor-10 Microsoft Word[10018]: FA||Url dealloc", "syslog",
	  "1970-07-01T09:01:06.000Z", LV_NONE, "", "FA||Url dealloc" },
	{ "nova-api.log.1.2017-05-16_13:53:08 2017-05-16 00:00:00.008 25746 INFO "
	  "nova.osapi_compute.wsgi.server [req-38 113d - - -] 10.11.10.1 \"GET /v2\"", "openstack",
	  "2017-05-16T00:00:00.008Z", LV_INFO, "", "10.11.10.1 \"GET /v2\"" },
	{ "2017-05-16 00:00:10.302 2931 WARNING nova.virt.libvirt.driver [-] [instance: b9] x",
	  "openstack", "2017-05-16T00:00:10.302Z", LV_WARN, "", "[instance: b9] x" },
	{ "[10.30 16:49:06] chrome.exe - proxy.cse.cuhk.edu.hk:5070 open through proxy", "proxifier",
	  "1970-10-30T16:49:06.000Z", LV_NONE, "", "proxy.cse.cuhk.edu.hk:5070 open through proxy" },
	{ "17/06/09 20:10:40 INFO executor.CoarseGrainedExecutorBackend: Registered", "spark",
	  "2017-06-09T20:10:40.000Z", LV_INFO, "", "Registered" },
	{ "- 1131566461 2005.11.09 dn228 Nov 9 12:01:01 dn228/dn228 crond(pam_unix)[2915]: "
	  "session closed", "thunderbird",
	  "2005-11-09T12:01:01.000Z", LV_NONE, "", "session closed" },
	{ "2016-09-28 04:30:30, Info                  CBS    Loaded Servicing Stack", "windows",
	  "2016-09-28T04:30:30.000Z", LV_INFO, "", "Loaded Servicing Stack" },
	{ "2015-07-29 19:04:29,071 - WARN  [SendWorker:1:QuorumCnxManager$SendWorker@688] - "
	  "Send worker leaving thread", "zookeeper",
	  "2015-07-29T19:04:29.071Z", LV_WARN, "", "Send worker leaving thread" },
	/* Ascend */
	{ "[ERROR] 2026-06-09-03:35:23 (PID:428723, Device:0, RankID:-1) ERR00100 PTA failed.",
	  "ascend", "2026-06-09T03:35:23.000Z", LV_ERROR, "", "ERR00100 PTA failed." },
	{ "[PID: 428723] 2026-06-09-03:35:23.635.715 AclNN_Parameter_Error(EZ1001): x", "ascend",
	  "2026-06-09T03:35:23.635Z", LV_NONE, "", "AclNN_Parameter_Error(EZ1001): x" },
	/* Structured records: logfmt and JSON lines, found by key name */
	{ "time=2025-01-02T10:00:00.123Z level=INFO source=server.go:123 msg=\"llama-server "
	  "terminated\" err=\"exit status 1\"", "logfmt", "2025-01-02T10:00:00.123Z", LV_INFO, "",
	  "llama-server terminated\" err=\"exit status 1\"" },
	{ "ts=2024-01-02T03:04:05+02:00 lvl=warning caller=x.go:1 msg=offload rank=2 k=v", "logfmt",
	  "2024-01-02T03:04:05.000Z", LV_WARN, "rank=2", "offload rank=2 k=v" },
	{ "level=err time=1704189600123 component=raft term=3", "logfmt",
	  "2024-01-02T10:00:00.123Z", LV_ERROR, "", "component=raft term=3" },
	{ "time=\"2024-01-02 03:04:05\" level=Fatal text after pairs", "logfmt",
	  "2024-01-02T03:04:05.000Z", LV_FATAL, "", "text after pairs" },
	{ "a=b c=d no time or level", "none", NULL, LV_NONE, "", "a=b c=d no time or level" },
	{ "level=bogus msg=x", "none", NULL, LV_NONE, "", "level=bogus msg=x" },
	{ "server_args=ServerArgs(x=1, y=2)", "none", NULL, LV_NONE, "", "server_args=ServerArgs(x=1, y=2)" },
	{ "{\"timestamp\": \"2024-05-01T10:00:00.123Z\", \"level\": \"INFO\", \"message\": \"up\"}",
	  "json", "2024-05-01T10:00:00.123Z", LV_INFO, "", "up\"}" },
	{ "{\"timestamp\":\"2024-05-01T10:00:00.123456Z\",\"level\":\"ERROR\",\"fields\":{\"message\":"
	  "\"failed\"},\"target\":\"launcher\",\"span\":{\"rank\":1,\"name\":\"shard-manager\"}}",
	  "json", "2024-05-01T10:00:00.123Z", LV_ERROR, "1",
	  "failed\"},\"target\":\"launcher\",\"span\":{\"rank\":1,\"name\":\"shard-manager\"}}" },
	{ "{\"level\":\"debug\",\"ts\":1704189600.25,\"msg\":\"tick\",\"n\":1}", "json",
	  "2024-01-02T10:00:00.250Z", LV_DEBUG, "", "tick\",\"n\":1}" },
	{ "{\"@timestamp\":\"2024-05-01T10:00:00.123Z\",\"log.level\":\"warn\",\"message\":\"m\"}",
	  "json", "2024-05-01T10:00:00.123Z", LV_WARN, "", "m\"}" },
	{ "{\"@t\":\"2024-05-01T10:00:00Z\",\"@l\":\"Error\",\"@m\":\"serilog\"}", "json",
	  "2024-05-01T10:00:00.000Z", LV_ERROR, "", "serilog\"}" },
	{ "{\"level\":50,\"time\":1752516971543,\"pid\":10104,\"msg\":\"boom\"}", "json",
	  "2025-07-14T18:16:11.543Z", LV_ERROR, "", "boom\"}" },
	{ "{\"event\": \"node lost\", \"severity\": \"crit\", \"local_rank\": \"3\"}", "json",
	  NULL, LV_FATAL, "3", "node lost\", \"severity\": \"crit\", \"local_rank\": \"3\"}" },
	{ "{\"error\": {\"message\": \"not the message\"}, \"level\": \"warn\", \"msg\": \"m\"}",
	  "json", NULL, LV_WARN, "", "m\"}" },
	{ "{\"level\": \"info\", \"logger\": \"x\"}", "json", NULL, LV_INFO, "", "\"logger\": \"x\"}" },
	{ "{\"level\": \"info\", \"msg\": \"cut sh", "json", NULL, LV_INFO, "", "cut sh" },
	{ "{'level': 'info'}", "none", NULL, LV_NONE, "", "{'level': 'info'}" },
	{ "{\"a\": 1}", "none", NULL, LV_NONE, "", "{\"a\": 1}" },
	/* ... and behind another header that gave no level */
	{ "Sep 26 18:08:31 host ollama[3886]: time=2024-09-26T18:08:31.326+02:00 level=INFO "
	  "source=sched.go:445 msg=\"loaded runners\" count=1", "syslog",
	  "1970-09-26T18:08:31.000Z", LV_INFO, "", "loaded runners\" count=1" },
	{ "Jul 28 14:31:48 jetson ollama[202633]: [GIN] 2024/07/28 - 14:31:48 | 500 |  5m0s | "
	  "127.0.0.1 | POST \"/api/chat\"", "syslog", "1970-07-28T14:31:48.000Z", LV_ERROR, "",
	  "500 |  5m0s | 127.0.0.1 | POST \"/api/chat\"" },
	/* vLLM run as a systemd unit: its process prefix gives the tag, also
	 * on a traceback's line, which has no header of its own */
	{ "Dec 01 10:00:00 gpu3 vllm[42]: (EngineCore pid=7) INFO 04-16 11:16:06 [core.py:9] up",
	  "syslog", "1970-12-01T10:00:00.000Z", LV_INFO, "EngineCore", "up" },
	{ "Dec 01 10:00:00 gpu3 vllm[42]: (EngineCore pid=7) Traceback (most recent call last):",
	  "syslog", "1970-12-01T10:00:00.000Z", LV_NONE, "EngineCore",
	  "Traceback (most recent call last):" },
	{ "Jun 14 15:16:01 host prog[123]: [x] not a header", "syslog",
	  "1970-06-14T15:16:01.000Z", LV_NONE, "", "[x] not a header" },
	{ "2025-03-05 08:19:02 time=2025-03-05T06:19:02.176Z level=WARN msg=\"total blobs: 6\"", "logfmt",
	  "2025-03-05T08:19:02.000Z", LV_WARN, "", "total blobs: 6\"" },
	{ "2024-01-02 03:04:05 {\"level\": \"error\", \"msg\": \"inner\"}", "iso",
	  "2024-01-02T03:04:05.000Z", LV_ERROR, "", "inner\"}" },
	/* docker compose's service prefix, taken off */
	{ "llm-api-ollama  | time=2024-06-02T18:43:45.633Z level=INFO source=images.go:729 "
	  "msg=\"total blobs: 47\"", "logfmt", "2024-06-02T18:43:45.633Z", LV_INFO, "",
	  "total blobs: 47\"" },
	{ "vllm-1  | (EngineCore_DP0 pid=271) ERROR 04-16 11:18:41 [core.py:436] failed", "vllm",
	  "1970-04-16T11:18:41.000Z", LV_ERROR, "EngineCore_DP0", "failed" },
	{ "web_1    | 2024-01-02 03:04:05,678 ERROR boom", "iso",
	  "2024-01-02T03:04:05.678Z", LV_ERROR, "", "boom" },
	{ "[pod/vllm-7d9f/main] INFO 04-16 11:18:41 [core.py:436] up", "vllm",
	  "1970-04-16T11:18:41.000Z", LV_INFO, "", "up" },
	/* ... behind a CI runner's stamp or a service's syslog header too */
	{ "2025-05-01T10:00:00.1234567Z web-1  | 2024-01-02 03:04:05,678 ERROR boom", "iso",
	  "2025-05-01T10:00:00.123Z", LV_ERROR, "", "boom" },
	{ "2025-05-01T10:00:00.1234567Z web-1  | Traceback (most recent call last):", "none",
	  "2025-05-01T10:00:00.123Z", LV_NONE, "", "Traceback (most recent call last):" },
	{ "2025-05-01T10:00:00.1234567Z stderr:   File \"/x.py\", line 3", "none",
	  "2025-05-01T10:00:00.123Z", LV_NONE, "", "  File \"/x.py\", line 3" },
	{ "Jun 14 15:16:01 host docker-compose[9]: web-1  | ERROR 04-16 11:18:41 [core.py:436] failed", "syslog",
	  "1970-06-14T15:16:01.000Z", LV_ERROR, "", "failed" },
	/* a program's header behind a wrapper's gives its rank's tag */
	{ "Jun 14 15:16:01 host python[9]: [2026-03-27 09:31:24 TP1] Load weight begin.", "syslog",
	  "1970-06-14T15:16:01.000Z", LV_NONE, "TP1", "Load weight begin." },
	{ "Jun 14 15:16:01 host python[9]: [2026-03-27 09:31:24] Load weight end.", "syslog",
	  "1970-06-14T15:16:01.000Z", LV_NONE, "", "Load weight end." },
	{ "Jun 14 15:16:01 host docker-compose[9]: web-1  |   File \"/x.py\", line 3", "syslog",
	  "1970-06-14T15:16:01.000Z", LV_NONE, "", "  File \"/x.py\", line 3" },
	/* a relay's stream label, taken off */
	{ "stderr: Traceback (most recent call last):", "none", "", LV_NONE, "",
	  "Traceback (most recent call last):" },
	{ "stdout: 2024-01-02 03:04:05,678 ERROR boom", "iso", "2024-01-02T03:04:05.678Z", LV_ERROR, "",
	  "boom" },
	{ "[STDERR] ValueError: x", "none", "", LV_NONE, "", "ValueError: x" },
	{ "stdout:", "none", "", LV_NONE, "", "" },
	{ "stdoutx: y", "none", "", LV_NONE, "", "stdoutx: y" },
	/* docker logs -t: the stamp's clock, the program's header */
	{ "2025-05-01T10:00:00.123456789Z 2026-12-01 05:03:17,854 [rank1] INFO train: step 2/8", "iso",
	  "2025-05-01T10:00:00.123Z", LV_INFO, "rank1", "train: step 2/8" },
	{ "2025-05-01T10:00:00.123456789Z (EngineCore_DP0 pid=27) ERROR 04-16 11:18:41 [core.py:1] x",
	  "vllm", "2025-05-01T10:00:00.123Z", LV_ERROR, "EngineCore_DP0", "x" },
	{ "2025-05-01T10:00:00.123456789Z Traceback (most recent call last):", "none",
	  "2025-05-01T10:00:00.123Z", LV_NONE, "", "Traceback (most recent call last):" },
	{ "svc-1  | 2025-05-01T10:00:00.123456789Z   File \"x.py\", line 1", "none",
	  "2025-05-01T10:00:00.123Z", LV_NONE, "", "  File \"x.py\", line 1" },
	/* The CRI format (containerd, CRI-O): time, stream, tag, line */
	{ "2024-05-01T10:00:00.123Z stdout F hello world", "none",
	  "2024-05-01T10:00:00.123Z", LV_NONE, "", "hello world" },
	{ "2024-05-01T10:00:00.123456789+00:00 stderr P part of a long ", "none",
	  "2024-05-01T10:00:00.123Z", LV_NONE, "", "part of a long " },
	{ "2024-05-01T10:00:00.1Z stdout F ERROR boom", "none",
	  "2024-05-01T10:00:00.100Z", LV_ERROR, "", "boom" },
	{ "2024-05-01T10:00:00.1Z stdout F INFO 04-16 11:18:41 [core.py:1] up", "vllm",
	  "2024-05-01T10:00:00.100Z", LV_INFO, "", "up" },
	{ "2024-05-01T10:00:00Z stdout F", "none", "2024-05-01T10:00:00.000Z", LV_NONE, "", "" },
	{ "2024-05-01T10:00:00Z stdout X y", "iso", "2024-05-01T10:00:00.000Z", LV_NONE, "",
	  "stdout X y" },
	/* a time since the epoch a capture or the program put first */
	{ "1764583200.137 hello", "none", "2025-12-01T10:00:00.137Z", LV_NONE, "", "hello" },
	{ "[1764583200137] hello", "none", "2025-12-01T10:00:00.137Z", LV_NONE, "", "hello" },
	{ "1418872412: New client connected", "none", "2014-12-18T03:13:32.000Z", LV_NONE, "",
	  "New client connected" },
	/* GitHub Actions' 100 ns stamp is a capture's as docker's is */
	{ "2025-05-01T10:00:00.1234567Z 2025-04-14T15:51:31.134585Z  INFO text_generation_launcher: "
	  "Args {", "tracing", "2025-05-01T10:00:00.123Z", LV_INFO, "", "Args {" },
	{ "2025-05-01T10:00:00.1234567Z     model_id: \"zephyr\",", "none",
	  "2025-05-01T10:00:00.123Z", LV_NONE, "", "    model_id: \"zephyr\"," },
	{ "2025-05-01T10:00:00.1234567Z [rank0] step 1/8 loss 0.33", "none",
	  "2025-05-01T10:00:00.123Z", LV_NONE, "[rank0]", "step 1/8 loss 0.33" },
	{ "[rank1] step 1/8 loss 0.33", "none", NULL, LV_NONE, "[rank1]", "step 1/8 loss 0.33" },
	{ "[Rank 2] step 1", "none", NULL, LV_NONE, "[Rank 2]", "step 1" },
	{ "[default0] step 1", "none", NULL, LV_NONE, "", "[default0] step 1" },
	{ "[rank1]step 1", "none", NULL, LV_NONE, "", "[rank1]step 1" },
	{ "2025-05-01T10:00:00.1234567Z ##[error]Process completed with exit code 1.", "none",
	  "2025-05-01T10:00:00.123Z", LV_ERROR, "", "Process completed with exit code 1." },
	/* a header's separator is one blank: the message keeps its own
	 * indentation behind any time or wrapper (a traceback's frames, a
	 * record's continuation lines), as in the program's plain output */
	{ "2025-05-01T10:00:00.123456Z     model_id", "iso",
	  "2025-05-01T10:00:00.123Z", LV_NONE, "", "    model_id" },
	{ "2025-05-01T10:00:00.123Z \tat java.base/X.run(X.java:1)", "iso",
	  "2025-05-01T10:00:00.123Z", LV_NONE, "", "\tat java.base/X.run(X.java:1)" },
	{ "2025-05-01T10:00:00.123Z   INFO padded level", "iso",
	  "2025-05-01T10:00:00.123Z", LV_INFO, "", "padded level" },
	{ "Jun 14 15:16:01 host prog[123]:   File \"/x.py\", line 3, in f", "syslog",
	  "1970-06-14T15:16:01.000Z", LV_NONE, "", "  File \"/x.py\", line 3, in f" },
	{ "Jun 14 15:16:01 host java[123]: \tat X.run(X.java:1)", "syslog",
	  "1970-06-14T15:16:01.000Z", LV_NONE, "", "\tat X.run(X.java:1)" },
	{ "2024-01-02T03:04:05+0000 host unit[1]:     at f (/app/x.js:1:2)", "journal",
	  "2024-01-02T03:04:05.000Z", LV_NONE, "", "    at f (/app/x.js:1:2)" },
	/* Docker Desktop's time before a line with a header and time of its own */
	{ "2025-03-05 08:19:02 W1201 05:03:06.906000 1496 torch/distributed/run.py:851] x", "glog",
	  "2025-03-05T08:19:02.000Z", LV_WARN, "", "x" },
	{ "2025-03-05 08:19:02 INFO 04-16 11:18:41 [gpu_worker.py:436] Available KV cache memory", "vllm",
	  "2025-03-05T08:19:02.000Z", LV_INFO, "", "Available KV cache memory" },
	{ "2025-03-05 08:19:02 INFO plain iso header", "iso",
	  "2025-03-05T08:19:02.000Z", LV_INFO, "", "plain iso header" },
	{ "INFO | not a service", "none", NULL, LV_NONE, "", "INFO | not a service" },
	{ "foo |bar", "none", NULL, LV_NONE, "", "foo |bar" },
	/* Rust tracing (TGI), Go's log package, gin */
	{ "2024-05-01T10:00:00.123456Z  INFO text_generation_launcher: Starting shard rank=0", "tracing",
	  "2024-05-01T10:00:00.123Z", LV_INFO, "rank=0", "Starting shard rank=0" },
	{ "2024-10-16T10:48:41.374381Z  INFO shard-manager: text_generation_launcher: Waiting for shard "
	  "to be ready... rank=2", "tracing", "2024-10-16T10:48:41.374Z", LV_INFO, "rank=2",
	  "Waiting for shard to be ready... rank=2" },
	{ "2024-05-01T10:00:12.5Z  WARN text_generation_router::server: router/src/server.rs:1852: "
	  "Invalid hostname", "tracing", "2024-05-01T10:00:12.500Z", LV_WARN, "", "Invalid hostname" },
	{ "2024-05-01T10:00:11Z ERROR text_generation_launcher: Error: Shard 0 failed", "tracing",
	  "2024-05-01T10:00:11.000Z", LV_ERROR, "", "Error: Shard 0 failed" },
	{ "2024-05-01T10:00:11Z ERROR x: worker_rank=7", "tracing",
	  "2024-05-01T10:00:11.000Z", LV_ERROR, "", "worker_rank=7" },
	{ "2024/05/12 06:47:18 routes.go:1006: INFO server config env=\"map[]\"", "golog",
	  "2024-05-12T06:47:18.000Z", LV_INFO, "", "server config env=\"map[]\"" },
	{ "2024/05/12 06:47:18.123456 listening on :8080", "golog",
	  "2024-05-12T06:47:18.123Z", LV_NONE, "", "listening on :8080" },
	{ "[GIN] 2025/01/02 - 10:00:00 | 200 |   1.2ms |       127.0.0.1 | GET      \"/api/tags\"", "gin",
	  "2025-01-02T10:00:00.000Z", LV_INFO, "", "200 |   1.2ms |       127.0.0.1 | GET      \"/api/tags\"" },
	{ "[GIN] 2025/01/02 - 10:00:01 | 500 |  12.5s | ::1 | POST \"/api/generate\"", "gin",
	  "2025-01-02T10:00:01.000Z", LV_ERROR, "", "500 |  12.5s | ::1 | POST \"/api/generate\"" },
	{ "[GIN] 2025/01/02 - 10:00:01 | 404 | 1ms | ::1 | GET \"/x\"", "gin",
	  "2025-01-02T10:00:01.000Z", LV_WARN, "", "404 | 1ms | ::1 | GET \"/x\"" },
	{ "[GIN-debug] [WARNING] Running in \"debug\" mode.", "gin",
	  NULL, LV_WARN, "", "Running in \"debug\" mode." },
	{ "[GIN-debug] POST   /api/pull  --> server.PullHandler (5 handlers)", "gin",
	  NULL, LV_DEBUG, "", "POST   /api/pull  --> server.PullHandler (5 handlers)" },
	/* Redis: pid:role, a named date, a one-character level */
	{ "1:M 02 Jan 2024 10:00:00.123 * Ready to accept connections tcp", "redis",
	  "2024-01-02T10:00:00.123Z", LV_INFO, "", "Ready to accept connections tcp" },
	{ "18044:C 28 Apr 2025 09:39:35.218 # Configuration loaded", "redis",
	  "2025-04-28T09:39:35.218Z", LV_WARN, "", "Configuration loaded" },
	{ "7:S 02 Jan 2024 10:00:00.123 - Accepted 10.0.0.1:5000", "redis",
	  "2024-01-02T10:00:00.123Z", LV_DEBUG, "", "Accepted 10.0.0.1:5000" },
	/* a date with the month's name leading the line */
	{ "02-Jan-2024 10:00:00.123 INFO [main] Server startup in 120 ms", "named-date",
	  "2024-01-02T10:00:00.123Z", LV_INFO, "", "[main] Server startup in 120 ms" },
	{ "Jan 02 2024 10:00:00 started", "named-date",
	  "2024-01-02T10:00:00.000Z", LV_NONE, "", "started" },
	/* a day-first one may leave out the year when the time follows;
	 * a number and a month in a message are no date without one */
	{ "6 Feb 15:04:54 - [error] Error: port in use", "named-date",
	  "1970-02-06T15:04:54.000Z", LV_ERROR, "", "Error: port in use" },
	{ "6 Feb was the day it broke", "none", NULL, LV_NONE, "", "6 Feb was the day it broke" },
	/* asctime and date(1): a weekday, a zone before the year, a padded day */
	{ "Sat May 28 17:09:55 2016 UDPv4 link remote: [AF_INET]10.0.0.1:1194", "ctime",
	  "2016-05-28T17:09:55.000Z", LV_NONE, "", "UDPv4 link remote: [AF_INET]10.0.0.1:1194" },
	{ "Sat May 28 17:09:55 UTC 2016 ERROR disk full", "ctime",
	  "2016-05-28T17:09:55.000Z", LV_ERROR, "", "disk full" },
	{ "Sun May  8 07:09:55 2016 started", "ctime",
	  "2016-05-08T07:09:55.000Z", LV_NONE, "", "started" },
	/* an hour of one digit, as Windows programs write it */
	{ "2015/10/12 0:36:08 Initialization Sequence Completed", "golog",
	  "2015-10-12T00:36:08.000Z", LV_NONE, "", "Initialization Sequence Completed" },
	{ "2025/07/17 12:26:12 [emerg] 2609#2609: bind() failed", "golog",
	  "2025-07-17T12:26:12.000Z", LV_FATAL, "", "2609#2609: bind() failed" },
	{ "2024-05-01T10:00:11Z  INFO no target here", "iso",
	  "2024-05-01T10:00:11.000Z", LV_INFO, "", "no target here" },
	/* the level after a time, in any shape, behind header fields */
	{ "2020-05-30T13:45:57.806238Z 0 [Note] InnoDB: x", "iso",
	  "2020-05-30T13:45:57.806Z", LV_INFO, "", "InnoDB: x" },
	{ "2018-06-27T00:55:46.812425Z 0 [System] [MY-010116] [Server] up", "iso",
	  "2018-06-27T00:55:46.812Z", LV_INFO, "", "[MY-010116] [Server] up" },
	{ "2018-06-27T01:24:47.081279Z 0 [ERROR] [MY-010338] [Server] e", "iso",
	  "2018-06-27T01:24:47.081Z", LV_ERROR, "", "[MY-010338] [Server] e" },
	{ "2022-03-01 08:26:05.206 GMT [3187] LOG:  listening", "iso",
	  "2022-03-01T08:26:05.206Z", LV_INFO, "", "listening" },
	{ "2022-03-01 08:26:05.206 GMT [3187] PANIC:  could not", "iso",
	  "2022-03-01T08:26:05.206Z", LV_FATAL, "", "could not" },
	{ "2022-03-01 08:26:05.206 GMT [3187] STATEMENT:  select", "iso",
	  "2022-03-01T08:26:05.206Z", LV_NONE, "", "GMT [3187] STATEMENT:  select" },
	{ "2024-01-02 03:04:05 <warning> w", "iso", "2024-01-02T03:04:05.000Z", LV_WARN, "", "w" },
	{ "2024-01-02 03:04:05 1234 Note that", "iso",
	  "2024-01-02T03:04:05.000Z", LV_NONE, "", "1234 Note that" },
	{ "2024-01-02 03:04:05 ERRORS: 3", "iso",
	  "2024-01-02T03:04:05.000Z", LV_NONE, "", "ERRORS: 3" },
	{ "2024-01-02 03:04:05 [a] [b] [c] [d] INFO deep", "iso",
	  "2024-01-02T03:04:05.000Z", LV_NONE, "", "[a] [b] [c] [d] INFO deep" },
	{ "2026-12-01 05:02:17,559 [rank3] INFO train: init", "iso",
	  "2026-12-01T05:02:17.559Z", LV_INFO, "rank3", "train: init" },
	/* A rank right after the level is the logger's tag, written apart
	 * too; one further on is the message's (DeepSpeed's log_dist). */
	{ "2026-12-03 11:58:42,973 INFO [rank 1] train.py:94 step 4", "iso",
	  "2026-12-03T11:58:42.973Z", LV_INFO, "rank 1", "[rank 1] train.py:94 step 4" },
	{ "2026-12-03 11:58:42,973 WARNING [Rank: 3] x", "iso",
	  "2026-12-03T11:58:42.973Z", LV_WARN, "Rank: 3", "[Rank: 3] x" },
	{ "2026-12-03 11:58:42,973 INFO [main] x", "iso",
	  "2026-12-03T11:58:42.973Z", LV_INFO, "", "[main] x" },
	{ "2026-12-03 11:58:42,973 INFO [ranks 1] x", "iso",
	  "2026-12-03T11:58:42.973Z", LV_INFO, "", "[ranks 1] x" },
	{ "2026-12-01 05:02:17,559 [main] [worker2] hello", "iso",
	  "2026-12-01T05:02:17.559Z", LV_NONE, "", "[main] [worker2] hello" },
	{ "2026-12-01 05:02:17,559 [rank0] step 1", "iso",
	  "2026-12-01T05:02:17.559Z", LV_NONE, "", "[rank0] step 1" },
	{ "2026-12-01 05:02:17,559 [Rank 0] INFO x", "iso",
	  "2026-12-01T05:02:17.559Z", LV_INFO, "Rank 0", "x" },
	/* log4j's "%t %c - %m" after the level: the thread and logger are
	 * header (code names); a message's own words before " - " are not */
	{ "2021-05-17 16:02:24,735 [INFO ] main org.pytorch.serve.ModelServer - Initialize server", "iso",
	  "2021-05-17T16:02:24.735Z", LV_INFO, "", "Initialize server" },
	{ "2025-04-25T17:03:13,526 [INFO ] W-9000-c_1.0-stdout MODEL_LOG - RuntimeError: bad", "iso",
	  "2025-04-25T17:03:13.526Z", LV_INFO, "", "RuntimeError: bad" },
	{ "2024-01-02 03:04:05,678 INFO com.example.App - Started", "iso",
	  "2024-01-02T03:04:05.678Z", LV_INFO, "", "Started" },
	{ "2024-01-02 03:04:05,678 INFO Epoch 3 - loss 0.5", "iso",
	  "2024-01-02T03:04:05.678Z", LV_INFO, "", "Epoch 3 - loss 0.5" },
	{ "2024-01-02 03:04:05,678 INFO root - msg", "iso",
	  "2024-01-02T03:04:05.678Z", LV_INFO, "", "root - msg" },
	/* bracketed times with a fraction: log4j, DeepSpeed, Elasticsearch */
	{ "[2024-03-13 01:13:55,747] INFO starting (kafka.server.KafkaServer)", "bracket-iso",
	  "2024-03-13T01:13:55.747Z", LV_INFO, "", "starting (kafka.server.KafkaServer)" },
	{ "[2023-05-10 10:00:00,123] [WARNING] [engine.py:123:func] msg", "bracket-iso",
	  "2023-05-10T10:00:00.123Z", LV_WARN, "", "msg" },
	/* where the program printed is header, after any level */
	{ "[2023-05-10 10:00:00,123] [INFO] [engine.py:12] [x] msg", "bracket-iso",
	  "2023-05-10T10:00:00.123Z", LV_INFO, "", "[x] msg" },
	{ "[2023-05-10 10:00:00,123] [INFO] [not a place] msg", "bracket-iso",
	  "2023-05-10T10:00:00.123Z", LV_INFO, "", "[not a place] msg" },
	/* Ruby's Logger, alone and behind a log drain's time and source */
	{ "I, [2021-11-17T07:29:15.077253 #4]  INFO -- : [4cb7] Started GET \"/\"", "ruby",
	  "2021-11-17T07:29:15.077Z", LV_INFO, "", "[4cb7] Started GET \"/\"" },
	{ "E, [2021-11-17T07:29:15.077253 #4] ERROR -- sidekiq: job failed", "ruby",
	  "2021-11-17T07:29:15.077Z", LV_ERROR, "", "job failed" },
	{ "2021-11-17T07:29:15.340717+00:00 app[web.1]: F, [2021-11-17T07:29:15.340671 #4] FATAL -- : boom",
	  "ruby", "2021-11-17T07:29:15.340Z", LV_FATAL, "", "boom" },
	{ "I, [not a time #4]  INFO -- : x", "none", NULL, LV_NONE, "", "I, [not a time #4]  INFO -- : x" },
	/* glog's letters bracketed alone, behind another program's time */
	{ "[2025-01-28 08:49:37][I][recipes/full_finetune:141:__main__] Loss is initialized.",
	  "sglang", "2025-01-28T08:49:37.000Z", LV_INFO, "", "Loss is initialized." },
	{ "[2025-01-28 08:49:55][W][training/_profiler:53:torchtune.utils._logging]  Profiling",
	  "sglang", "2025-01-28T08:49:55.000Z", LV_WARN, "", "Profiling" },
	{ "[2025-01-28 08:49:55] [E] boom", "sglang", "2025-01-28T08:49:55.000Z", LV_ERROR, "", "boom" },
	{ "[2025-01-28 08:49:55] [X] not a level", "sglang", "2025-01-28T08:49:55.000Z", LV_NONE, "",
	  "[X] not a level" },
	{ "[2022-06-25T11:06:39,909][INFO ][o.e.n.Node    ] [node] msg", "bracket-iso",
	  "2022-06-25T11:06:39.909Z", LV_INFO, "", "[o.e.n.Node    ] [node] msg" },
	{ "[2024-03-13 01:13:55,747] Not a level", "bracket-iso",
	  "2024-03-13T01:13:55.747Z", LV_NONE, "", "Not a level" },
	/* strftime's "%H:%M:%S %z": a zone after a blank (gunicorn) */
	{ "[2023-03-18 16:02:18 +0000] [296827] [INFO] Starting gunicorn 20.1.0", "bracket-iso",
	  "2023-03-18T16:02:18.000Z", LV_INFO, "", "Starting gunicorn 20.1.0" },
	{ "[2023-03-18 16:02:18 -0700] [72199] [CRITICAL] WORKER TIMEOUT (pid:72200)", "bracket-iso",
	  "2023-03-18T16:02:18.000Z", LV_FATAL, "", "WORKER TIMEOUT (pid:72200)" },
	{ "2023-03-18 16:02:18 +05:30 ERROR x", "iso", "2023-03-18T16:02:18.000Z", LV_ERROR, "", "x" },
	{ "2023-03-18 16:02:18 +1 step", "iso", "2023-03-18T16:02:18.000Z", LV_NONE, "", "+1 step" },
	{ "2023-03-18 16:02:18 -- 1234 x", "iso", "2023-03-18T16:02:18.000Z", LV_NONE, "", "-- 1234 x" },
	{ "2023-03-18 16:02:18 +12345 x", "iso", "2023-03-18T16:02:18.000Z", LV_NONE, "", "+12345 x" },
	/* GitHub Actions: job and step fields, a BOM, ##[level] markers */
	{ "publish\tRun tests\t\xEF\xBB\xBF" "2025-09-18T11:04:17.3480655Z Current runner", "tsv-iso",
	  "2025-09-18T11:04:17.348Z", LV_NONE, "", "Current runner" },
	{ "publish\tRun tests\t2025-09-18T11:04:18.1Z ##[error]Process completed", "tsv-iso",
	  "2025-09-18T11:04:18.100Z", LV_ERROR, "", "Process completed" },
	{ "job\tstep\t2025-09-18T11:04:18.1Z ##[warning]  9:5  warning x", "tsv-iso",
	  "2025-09-18T11:04:18.100Z", LV_WARN, "", "9:5  warning x" },
	{ "job\tstep\t2025-09-18T11:04:18.1Z ##[group]Run npm test", "tsv-iso",
	  "2025-09-18T11:04:18.100Z", LV_NONE, "", "##[group]Run npm test" },
	{ "job\tstep\tno time", "none", NULL, LV_NONE, "", "job\tstep\tno time" },
	{ "\xEF\xBB\xBF" "2024-01-02 03:04:05 ERROR bom", "iso",
	  "2024-01-02T03:04:05.000Z", LV_ERROR, "", "bom" },
	/* llama.cpp: elapsed time and a level letter */
	{ "0.00.042.720 I llama_model_loader: x", "elapsed",
	  "1970-01-01T00:00:00.042Z", LV_INFO, "", "llama_model_loader: x" },
	{ "2.05.001.000 E main: failed", "elapsed",
	  "1970-01-01T00:02:05.001Z", LV_ERROR, "", "main: failed" },
	{ "0.00.042.720 X nope", "none", NULL, LV_NONE, "", "0.00.042.720 X nope" },
	/* a time of day alone: logback's console pattern, Erlang lager */
	{ "13:14:23.613 [main] ERROR c.e.App - BOOT FAILED", "clock",
	  "1970-01-01T13:14:23.613Z", LV_ERROR, "", "BOOT FAILED" },
	{ "13:14:23.613 [error] ERROR: distribution port 25672 in use", "clock",
	  "1970-01-01T13:14:23.613Z", LV_ERROR, "", "ERROR: distribution port 25672 in use" },
	{ "09:00:01 INFO step one", "clock", "1970-01-01T09:00:01.000Z", LV_INFO, "", "step one" },
	{ "09:00:01 plain text", "clock", "1970-01-01T09:00:01.000Z", LV_NONE, "", "plain text" },
	{ "25:00:01 not a time", "none", NULL, LV_NONE, "", "25:00:01 not a time" },
	{ "09:00:01", "none", NULL, LV_NONE, "", "09:00:01" },
	/* Spring Boot */
	{ "2024-06-01T07:51:05.555+02:00  INFO 49468 --- [restartedMain] o.s.b.w.Tomcat  : "
	  "Tomcat initialized", "spring", "2024-06-01T07:51:05.555Z", LV_INFO, "", "Tomcat initialized" },
	{ "2019-03-01 10:00:00.001 ERROR 7 --- [  main] o.s.boot.SpringApplication : failed", "spring",
	  "2019-03-01T10:00:00.001Z", LV_ERROR, "", "failed" },
	/* loguru's own levels, and without the module part */
	{ "2024-05-01 10:00:00.124 | SUCCESS  | __main__:<module>:7 - done", "loguru",
	  "2024-05-01T10:00:00.124Z", LV_INFO, "", "done" },
	{ "2024-05-01 10:00:00.125 | ERROR    | no module part - here", "loguru",
	  "2024-05-01T10:00:00.125Z", LV_ERROR, "", "no module part - here" },
	/* a logger's name in a field of its own, FastChat's; a field of a
	 * message is none */
	{ "2025-03-19 11:15:59 | ERROR | stderr |   File \"x.py\", line 2, in f", "loguru",
	  "2025-03-19T11:15:59.000Z", LV_ERROR, "", "  File \"x.py\", line 2, in f" },
	{ "2025-03-19 11:15:59 | ERROR | stderr |", "loguru", "2025-03-19T11:15:59.000Z", LV_ERROR, "", "" },
	{ "2025-03-19 11:15:32 | INFO | model_worker | Register to controller", "loguru",
	  "2025-03-19T11:15:32.000Z", LV_INFO, "", "Register to controller" },
	{ "2025-03-19 11:15:32 | INFO | step 3 | loss 0.5", "loguru",
	  "2025-03-19T11:15:32.000Z", LV_INFO, "", "step 3 | loss 0.5" },
	/* columns between bars: the Java Service Wrapper's console, with
	 * the program's own header behind it, its level the line's; a
	 * table's row has no time and stays message */
	{ "INFO   | jvm 1    | 2017/10/04 22:04:32 | Wrapper Manager: JVM #1", "columns",
	  "2017-10-04T22:04:32.000Z", LV_INFO, "", "Wrapper Manager: JVM #1" },
	{ "STATUS | wrapper  | 2017/10/04 22:04:31 | --> Wrapper Started as Daemon", "columns",
	  "2017-10-04T22:04:31.000Z", LV_NONE, "", "--> Wrapper Started as Daemon" },
	{ "INFO   | jvm 1    | 2017/10/04 22:04:32 |", "columns",
	  "2017-10-04T22:04:32.000Z", LV_INFO, "", "" },
	{ "INFO   | jvm 1    | 2017/10/04 22:04:41 | 2017.10.04 22:04:41 ERROR web[] boom", "columns",
	  "2017-10-04T22:04:41.000Z", LV_ERROR, "", "web[] boom" },
	{ "| name | 2017/10/04 22:04:41 | value |", "none", NULL, LV_NONE, "", "| name | 2017/10/04 22:04:41 | value |" },
	/* dates in digits other than ISO's */
	{ "2020.03.14 16:18:44 INFO  app started", "numeric-date",
	  "2020-03-14T16:18:44.000Z", LV_INFO, "", "app started" },
	{ "06.12.2026 14:00:00 ERROR disk full", "numeric-date",
	  "2026-12-06T14:00:00.000Z", LV_ERROR, "", "disk full" },
	{ "10/24/2017 09:00:01 WARN low memory", "numeric-date",
	  "2017-10-24T09:00:01.000Z", LV_WARN, "", "low memory" },
	{ "06.13.2026x14:00:00 msg", "none", NULL, LV_NONE, "", "06.13.2026x14:00:00 msg" },
	/* ClickHouse: a thread, a braced query id, a level spelled out */
	{ "2019.01.11 15:25:11.156673 [ 1 ] {} <Error> Application: DB::Exception: x", "numeric-date",
	  "2019-01-11T15:25:11.156Z", LV_ERROR, "", "Application: DB::Exception: x" },
	{ "2019.01.11 15:25:11.154578 [ 1 ] {abc-1} <Information> Application: starting up", "numeric-date",
	  "2019-01-11T15:25:11.154Z", LV_INFO, "", "Application: starting up" },
	{ "2019-01-11 15:25:11 INFORMATIONAL msg", "iso", "2019-01-11T15:25:11.000Z", LV_NONE, "",
	  "INFORMATIONAL msg" },
	/* no header, garbage, truncated headers, impossible dates */
	{ "", "none", NULL, LV_NONE, "", "" },
	{ "Traceback (most recent call last):", "none",
	  NULL, LV_NONE, "", "Traceback (most recent call last):" },
	{ "  File \"/a.py\", line 3, in <module>", "none",
	  NULL, LV_NONE, "", "  File \"/a.py\", line 3, in <module>" },
	{ "[2025-03-08 12:29", "none", NULL, LV_NONE, "", "[2025-03-08 12:29" },
	{ "[2025-03-08 12:29:29 TP1", "none", NULL, LV_NONE, "", "[2025-03-08 12:29:29 TP1" },
	{ "[2025-13-08 12:29:29] month 13", "none", NULL, LV_NONE, "", "[2025-13-08 12:29:29] month 13" },
	{ "[2025-03-08 25:29:29] hour 25", "none", NULL, LV_NONE, "", "[2025-03-08 25:29:29] hour 25" },
	{ "INFO 03-07 12:29:02", "none", NULL, LV_NONE, "", "INFO 03-07 12:29:02" },
	{ "(VllmWorker rank=2 pid=47", "none", NULL, LV_NONE, "", "(VllmWorker rank=2 pid=47" },
	{ "[rank: 1] Seed set to 1234", "none", NULL, LV_NONE, "[rank: 1]", "Seed set to 1234" },
	{ "[rank3]", "none", NULL, LV_NONE, "", "[rank3]" },
	{ "[rank3]:", "none", NULL, LV_NONE, "rank3", "" },
	{ "[aiter] import [module_aiter_enum]", "none",
	  NULL, LV_NONE, "", "[aiter] import [module_aiter_enum]" },
	{ "Jun 14", "none", NULL, LV_NONE, "", "Jun 14" },
	{ "\xff\xfe[2025-03-08\x80", "none", NULL, LV_NONE, "", "\xff\xfe[2025-03-08\x80" },
};

static void test_cases(void)
{
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		const struct want *w = &cases[k];
		char *copy, ts[PREFIX_TS_SIZE] = "";
		struct header h = parse_n(-1, w->line, strlen(w->line), &copy);
		if (h.ts_ms != TS_NONE)
			prefix_format_ts(h.ts_ms, ts);
		int ok = strcmp(prefix_format_name(h.format == PREFIX_NONE ? -1 : h.format), w->format) == 0 &&
			 strcmp(ts, w->ts ? w->ts : "") == 0 && h.level == w->level &&
			 h.tag_len == strlen(w->tag) && memcmp(copy + h.tag_off, w->tag, h.tag_len) == 0 &&
			 h.msg_off <= strlen(w->line) && strcmp(w->line + h.msg_off, w->msg) == 0 &&
			 h.ts_no_year == (w->ts && strncmp(w->ts, "1970", 4) == 0 &&
					  strcmp(w->format, "elapsed") != 0 && strcmp(w->format, "clock") != 0 &&
					  strcmp(w->format, "kernel") != 0);
		CHECK(ok);
		if (!ok)
			fprintf(stderr, "  line %zu \"%s\": format %s ts %s level %d tag \"%.*s\" msg \"%s\"\n",
				k, w->line, prefix_format_name(h.format), ts, h.level, (int)h.tag_len,
				copy + h.tag_off, w->line + h.msg_off);
		free(copy);
	}
}

/* Every prefix of every case line parses within its bounds (run under
 * ASan, an over-read is a crash). */
static void test_truncated(void)
{
	int bad = 0;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		size_t n = strlen(cases[k].line);
		for (size_t len = 0; len <= n; len++) {
			char *copy;
			struct header h = parse_n(-1, cases[k].line, len, &copy);
			bad += h.msg_off > len || h.tag_off + h.tag_len > len;
			free(copy);
		}
	}
	CHECK_INT(bad, 0);
}

/* Case lines with random bytes overwritten (a fixed xorshift sequence, so
 * failures reproduce): the results stay within the line. */
static void test_mutated(void)
{
	static const char alphabet[] = "[]():- .,|0123456789TZ+\0\t\xff";
	uint64_t x = 88172645463325252ULL;
	int bad = 0;
	for (int round = 0; round < 20000; round++) {
		const char *src = cases[round % (sizeof(cases) / sizeof(cases[0]))].line;
		size_t n = strlen(src);
		char *buf = malloc(n ? n : 1);
		memcpy(buf, src, n);
		for (int k = 0; k < 3 && n; k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			buf[x % n] = alphabet[(x >> 32) % (sizeof(alphabet) - 1)];
		}
		struct header h;
		prefix_parse((int)(round % 30) - 2, buf, n, &h);
		bad += h.msg_off > n || h.tag_off + h.tag_len > n ||
		       (h.format != PREFIX_NONE && !strcmp(prefix_format_name(h.format), "none"));
		free(buf);
	}
	CHECK_INT(bad, 0);
}

static void test_nul_bytes(void)
{
	char *copy;
	static const char line[] = "[2025-03-08 12:29:29 TP1] a\0b";
	struct header h = parse_n(-1, line, sizeof(line) - 1, &copy);
	CHECK_STR(prefix_format_name(h.format), "sglang");
	CHECK_INT(h.msg_off, 26);
	CHECK_MEM(copy + h.tag_off, h.tag_len, "TP1");
	free(copy);
	static const char nul_ts[] = "[2025-03-08 12:\0" "9:29] x";
	h = parse_n(-1, nul_ts, sizeof(nul_ts) - 1, &copy);
	CHECK_INT(h.format, PREFIX_NONE);
	CHECK_INT(h.msg_off, 0);
	free(copy);
	static const char nuls[] = "\0\0\0\0";
	h = parse_n(-1, nuls, sizeof(nuls) - 1, &copy);
	CHECK(h.ts_ms == TS_NONE);
	CHECK_INT(h.msg_off, 0);
	free(copy);
}

static void test_levels(void)
{
	static const struct { const char *line; int level; } lv[] = {
		{ "INFO:r:m", LV_INFO }, { "WARN:r:m", LV_WARN }, { "WARNING:r:m", LV_WARN },
		{ "ERROR:r:m", LV_ERROR }, { "CRITICAL:r:m", LV_FATAL }, { "FATAL:r:m", LV_FATAL },
		{ "DEBUG:r:m", LV_DEBUG }, { "TRACE:r:m", LV_TRACE }, { "NOTICE:r:m", LV_NOTICE },
		{ "info:r:m", LV_NONE },   /* Python writes levels in upper case */
		{ "[Sun Dec 04 04:47:44 2005] [warn] m", LV_WARN },
		{ "[Sun Dec 04 04:47:44 2005] [crit] m", LV_FATAL },
		{ "[Sun Dec 04 04:47:44 2005] [emerg] m", LV_FATAL },
		{ "[Sun Dec 04 04:47:44 2005] [debug] m", LV_DEBUG },
		{ "[Sun Dec 04 04:47:44 2005] [bogus] m", LV_NONE },
		{ "W0223 00:36:54.1 1 f.cc:1] m", LV_WARN },
		{ "E0223 00:36:54.1 1 f.cc:1] m", LV_ERROR },
		{ "03-17 16:13:38.811 1 2 I T: m", LV_INFO },
		{ "03-17 16:13:38.811 1 2 W T: m", LV_WARN },
		{ "03-17 16:13:38.811 1 2 E T: m", LV_ERROR },
		{ "03-17 16:13:38.811 1 2 F T: m", LV_FATAL },
		{ "03-17 16:13:38.811 1 2 A T: m", LV_FATAL },
		{ "- 1 2005.06.03 R 2005-06-03-15.42.50.675872 R RAS APP SEVERE m", LV_NONE },
		{ "- 1117838570 2005.06.03 R 2005-06-03-15.42.50.675872 R RAS APP SEVERE m", LV_ERROR },
		{ "- 1117838570 2005.06.03 R 2005-06-03-15.42.50.675872 R RAS APP FAILURE m", LV_ERROR },
		{ "2016-09-28 04:30:30, Warning   CBS  m", LV_WARN },
		{ "2016-09-28 04:30:30, Error   CBS  m", LV_ERROR },
		/* structured records: any case, and pino's numbers */
		{ "level=info a=b", LV_INFO }, { "level=INFO a=b", LV_INFO },
		{ "level=Info a=b", LV_INFO }, { "level=warn a=b", LV_WARN },
		{ "level=warning a=b", LV_WARN }, { "level=err a=b", LV_ERROR },
		{ "level=error a=b", LV_ERROR }, { "level=fatal a=b", LV_FATAL },
		{ "level=crit a=b", LV_FATAL }, { "level=debug a=b", LV_DEBUG },
		{ "level=trace a=b", LV_TRACE }, { "level=panic a=b", LV_FATAL },
		{ "level=\"WARN\" a=b", LV_WARN }, { "level=information a=b", LV_INFO },
		{ "level=informal a=b", LV_NONE }, { "level=informations a=b", LV_NONE },
		{ "{\"level\": 10}", LV_TRACE }, { "{\"level\": 20}", LV_DEBUG },
		{ "{\"level\": 30}", LV_INFO }, { "{\"level\": 40}", LV_WARN },
		{ "{\"level\": 60}", LV_FATAL }, { "{\"level\": 70}", LV_NONE },
		{ "{\"Level\": \"Warning\"}", LV_WARN }, { "{\"levelname\": \"CRITICAL\"}", LV_FATAL },
	};
	for (size_t k = 0; k < sizeof(lv) / sizeof(lv[0]); k++) {
		char *copy;
		struct header h = parse_n(-1, lv[k].line, strlen(lv[k].line), &copy);
		CHECK_INT(h.level, lv[k].level);
		if (h.level != lv[k].level)
			fprintf(stderr, "  in \"%s\"\n", lv[k].line);
		free(copy);
	}
	CHECK_STR(level_name(LV_WARN), "warning");
	CHECK_STR(level_name(LV_NONE), "");
	CHECK_STR(level_name(99), "");
}

static const char *fmt_of(const char *const *lines, size_t n)
{
	size_t lens[16];
	for (size_t i = 0; i < n; i++)
		lens[i] = strlen(lines[i]);
	return prefix_format_name(prefix_detect(lines, lens, n, NULL));
}

static void test_detect(void)
{
	const char *sglang[] = {
		"[2025-03-08 12:29:29] server_args=ServerArgs()",
		"INFO 03-07 12:29:02 __init__.py:190] Automatically detected platform cuda.",
		"[2025-03-08 12:29:30 TP0] Init torch distributed begin.",
		"[2025-03-08 12:29:30 TP1] Init torch distributed begin.",
		"INFO:     Started server process [1]",
		"Traceback (most recent call last):",
	};
	CHECK_STR(fmt_of(sglang, 6), "sglang");
	const char *vllm[] = {
		"INFO 03-07 12:29:02 [__init__.py:239] Automatically detected platform cuda.",
		"(VllmWorker rank=0 pid=1) INFO 03-07 12:29:03 [core.py:61] x",
		"(VllmWorker rank=1 pid=2) INFO 03-07 12:29:03 [core.py:61] x",
		"INFO:     Started server process [1]",
	};
	CHECK_STR(fmt_of(vllm, 4), "vllm");
	/* Hadoop lines are also "iso": the specific one wins. */
	const char *hadoop[] = {
		"2015-10-18 18:01:47,978 INFO [main] org.apache.A: Created",
		"2015-10-18 18:01:48,963 INFO [main] org.apache.A: Executing",
	};
	CHECK_STR(fmt_of(hadoop, 2), "hadoop");
	const char *plain[] = { "2024-01-02 03:04:05,678 INFO [x] msg", "2024-01-02 03:04:06,000 INFO y" };
	CHECK_STR(fmt_of(plain, 2), "iso");
	const char *json[] = {
		"{\"level\":\"info\",\"ts\":1704189600.1,\"msg\":\"a\"}",
		"{\"level\":\"info\",\"ts\":1704189600.2,\"msg\":\"b\"}",
		"time=2024-01-02T03:04:05Z level=info msg=c",
		"Traceback (most recent call last):",
	};
	CHECK_STR(fmt_of(json, 4), "json");
	const char *tgi[] = {
		"2024-05-01T10:00:00.1Z  INFO text_generation_launcher: Starting shard rank=0",
		"2024-05-01T10:00:00.2Z  INFO shard-manager: text_generation_launcher: Waiting rank=0",
	};
	CHECK_STR(fmt_of(tgi, 2), "tracing");
	const char *none[] = { "hello", "", "  File \"x\"" };
	CHECK_INT(prefix_detect(none, (size_t[]){ 5, 0, 11 }, 3, NULL), -1);
	CHECK_INT(prefix_detect(none, NULL, 0, NULL), -1);
	CHECK_STR(prefix_format_name(-1), "none");

	/* A file indented as a whole (a pasted block) reads as it would
	 * unindented; a line's own indentation beyond it stays in the
	 * message, and one line behind a progress bar that lost it does not
	 * undo it. */
	const char *indented[] = {
		"  2024-01-02 03:04:05 INFO start",
		"  2024-01-02 03:04:06 ERROR boom",
		"      at Main.run(Main.java:3)",
		"",
		"no indent behind a bar",
	};
	size_t ilens[5];
	for (int i = 0; i < 5; i++)
		ilens[i] = strlen(indented[i]);
	struct prefix_order io;
	struct header ih;
	for (int i = 0; i < 20; i++) {   /* one line in 20 lost it */
		const char *many[20];
		size_t mlens[20];
		for (int k = 0; k < 20; k++) {
			many[k] = k == i ? indented[4] : indented[k % 3];
			mlens[k] = strlen(many[k]);
		}
		prefix_detect(many, mlens, 20, &io);
		CHECK_INT(io.indent, 2);
	}
	const char *five[6] = { indented[0], indented[1], indented[2], indented[0], indented[1], "" };
	size_t flens[6];
	for (int i = 0; i < 6; i++)
		flens[i] = strlen(five[i]);
	prefix_detect(five, flens, 6, &io);
	CHECK_INT(io.indent, 2);
	prefix_parse_in(&io, indented[1], ilens[1], &ih);
	CHECK_INT(ih.level, LV_ERROR);
	CHECK(ih.ts_ms != TS_NONE);
	CHECK(memcmp(indented[1] + ih.msg_off, "boom", 5) == 0);
	prefix_parse_in(&io, indented[2], ilens[2], &ih);
	CHECK_INT(ih.msg_off, 2);   /* the frame is indented still */
	prefix_parse_in(&io, indented[4], ilens[4], &ih);
	CHECK_INT(ih.msg_off, 0);
	/* One line in four unindented: the file is not indented. */
	prefix_detect(indented, ilens, 5, &io);
	CHECK_INT(io.indent, 0);
	/* Four lines are no evidence. */
	prefix_detect(five, flens, 4, &io);
	CHECK_INT(io.indent, 0);
	/* A first line that lost some or all of its indentation (the copy
	 * began inside it) leaves the file indented. */
	const char *cut[6] = { "Welcome", indented[0], indented[1], indented[2], indented[0], indented[1] };
	size_t clens[6];
	for (int i = 0; i < 6; i++)
		clens[i] = strlen(cut[i]);
	prefix_detect(cut, clens, 6, &io);
	CHECK_INT(io.indent, 2);
	cut[0] = " Welcome";
	clens[0] = strlen(cut[0]);
	prefix_detect(cut, clens, 6, &io);
	CHECK_INT(io.indent, 2);
	CHECK_STR(prefix_format_name(PREFIX_NONE), "none");

	/* The detected format goes first, then the others. */
	char *copy;
	const char *v = "INFO 03-07 12:29:02 [core.py:61] x";
	struct header h;
	for (int f = 0; f < 3; f++) {
		h = parse_n(f, v, strlen(v), &copy);
		CHECK_STR(prefix_format_name(h.format), "vllm");
		free(copy);
	}
	h = parse_n(1000, v, strlen(v), &copy);
	CHECK_STR(prefix_format_name(h.format), "vllm");
	free(copy);
}

static int64_t civil_ms(const char *iso)
{
	/* Through the parser itself: "YYYY-MM-DDTHH:MM:SS.mmmZ". */
	struct header h;
	prefix_parse(-1, iso, strlen(iso), &h);
	return h.ts_ms;
}

static void test_year(void)
{
	char buf[PREFIX_TS_SIZE];
	struct { const char *ts1970; int year; const char *want; } ys[] = {
		{ "1970-03-07T12:29:02Z", 2025, "2025-03-07T12:29:02.000Z" },
		{ "1970-01-01T00:00:00Z", 2025, "2025-01-01T00:00:00.000Z" },
		{ "1970-12-31T23:59:59.999Z", 2023, "2023-12-31T23:59:59.999Z" },
		{ "1970-02-28T10:00:00Z", 2023, "2023-02-28T10:00:00.000Z" },
		/* leap years: exact from March on ... */
		{ "1970-03-01T00:00:00Z", 2024, "2024-03-01T00:00:00.000Z" },
		{ "1970-12-31T12:00:00Z", 2024, "2024-12-31T12:00:00.000Z" },
		{ "1970-03-07T12:29:02Z", 2000, "2000-03-07T12:29:02.000Z" },
		/* ... January and February one day late (documented) */
		{ "1970-01-15T08:00:00Z", 2024, "2024-01-16T08:00:00.000Z" },
		{ "1970-06-14T15:16:01Z", 1970, "1970-06-14T15:16:01.000Z" },
		{ "1970-06-14T15:16:01Z", 1969, "1969-06-14T15:16:01.000Z" },
	};
	for (size_t k = 0; k < sizeof(ys) / sizeof(ys[0]); k++) {
		prefix_format_ts(civil_ms(ys[k].ts1970) + prefix_year_offset_ms(ys[k].year), buf);
		CHECK_STR(buf, ys[k].want);
	}
	/* A year-less Feb 29 is 1970-03-01, so March 1 in any year. */
	char *copy;
	struct header h = parse_n(-1, "Feb 29 10:00:00 h p: m", 22, &copy);
	prefix_format_ts(h.ts_ms + prefix_year_offset_ms(2024), buf);
	CHECK_STR(buf, "2024-03-01T10:00:00.000Z");
	free(copy);
	CHECK_INT(year_of_time(0), 1970);
	CHECK_INT(year_of_time(1741436969), 2025);
}

static void test_format_ts(void)
{
	char buf[PREFIX_TS_SIZE];
	prefix_format_ts(0, buf);
	CHECK_STR(buf, "1970-01-01T00:00:00.000Z");
	prefix_format_ts(-1, buf);
	CHECK_STR(buf, "1969-12-31T23:59:59.999Z");
	prefix_format_ts(951782400123LL, buf);
	CHECK_STR(buf, "2000-02-29T00:00:00.123Z");
	prefix_format_ts(civil_ms("2025-03-08 12:29:29,456"), buf);
	CHECK_STR(buf, "2025-03-08T12:29:29.456Z");
	/* A zone is read past, not applied: times stay as the log wrote them. */
	CHECK(civil_ms("2024-01-02T03:04:05+02:00") == civil_ms("2024-01-02T03:04:05Z"));
	CHECK(civil_ms("2024-01-02T03:04:05-02:30") == civil_ms("2024-01-02T03:04:05Z"));
	CHECK(civil_ms("2024-01-01T00:30:00+01") == civil_ms("2024-01-01T00:30:00"));
}

int main(void)
{
	test_cases();
	test_truncated();
	test_mutated();
	test_nul_bytes();
	test_levels();
	test_detect();
	test_year();
	test_format_ts();
	return test_report();
}
