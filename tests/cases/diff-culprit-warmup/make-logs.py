#!/usr/bin/env python3
# Writes good-1.log, good-2.log and bad.log: an SGLang-style 4-rank server
# on torch gloo, modelled on the real torchrun logs of tests/fixtures/gpu
# (issue 15's case).  The good runs warm up and serve; in bad, TP2 prints
# "Preparing warmup batch" and nothing more, the others "Warmup begin.",
# and 15 s later TP0, TP3 and TP1 time out in gloo's recv; torchrun then
# stops the rest.
import datetime


def ts(t):
    return (datetime.datetime(2026, 12, 1, 10, 0, 0) + datetime.timedelta(seconds=t)).strftime('%Y-%m-%d %H:%M:%S')


HEAD = [
    "W1201 10:00:00.100000 4100 torch/distributed/run.py:851] ",
    "W1201 10:00:00.100000 4100 torch/distributed/run.py:851] *****************************************",
    "W1201 10:00:00.100000 4100 torch/distributed/run.py:851] Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being overloaded, please further tune the variable for optimal performance in your application as needed. ",
    "W1201 10:00:00.100000 4100 torch/distributed/run.py:851] *****************************************",
]
STEPS = [
    (1, "Init torch distributed begin."),
    (2, "Init torch distributed ends. mem usage=0.00 GB"),
    (3, "Load weight begin. avail mem=78.50 GB"),
    (9, "Load weight end. type=LlamaForCausalLM, dtype=torch.bfloat16, avail mem=63.20 GB, mem usage=15.30 GB."),
    (10, "KV Cache is allocated. #tokens: 412000, K size: 24.10 GB, V size: 24.10 GB"),
    (10, "Memory pool end. avail mem=14.60 GB"),
    (11, "Preparing warmup batch"),
    (11, "Warmup begin."),
    (12, "Warmup end. elapsed=0.41 s"),
    (12, "Capture cuda graph begin. This can take up to several minutes. avail mem=14.50 GB"),
    (20, "Capture cuda graph end. Time elapsed: 7.90 s. mem usage=0.52 GB. avail mem=13.98 GB."),
]
WARMUP = 7          # STEPS[WARMUP]: "Warmup begin.", which TP2 never prints


def run(seed, bad):
    out = list(HEAD)
    order = [[0, 1, 2, 3], [2, 0, 3, 1], [1, 3, 0, 2]]
    for k, (t, msg) in enumerate(STEPS):
        for r in order[(k + seed) % 3]:
            if bad and (k > WARMUP or (k == WARMUP and r == 2)):
                continue
            out.append("[%s TP%d] %s" % (ts(t + seed), r, msg))
    if not bad:
        out.append("[%s TP0] INFO:     Started server process [4101]" % ts(21 + seed))
        out.append("[%s TP0] INFO:     Uvicorn running on http://127.0.0.1:30000 (Press CTRL+C to quit)" % ts(21 + seed))
        out.append("[%s TP0] The server is fired up and ready to roll!" % ts(22 + seed))
        return out
    for r, port in ((0, 129), (3, 78), (1, 78)):
        out += ["[rank%d]: Traceback (most recent call last):" % r,
                '[rank%d]:   File "/srv/app/launch_server.py", line 88, in warmup' % r,
                "[rank%d]:     dist.all_reduce(batch_sizes, group=cpu_group)" % r,
                '[rank%d]:   File "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/distributed_c10d.py", line 3075, in all_reduce' % r,
                "[rank%d]:     work.wait()" % r,
                "[rank%d]: RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:%d] Timed out waiting 15000ms for recv operation to complete" % (r, port)]
    out += ["W1201 10:00:28.300000 4100 torch/distributed/elastic/multiprocessing/api.py:1012] Sending process %d closing signal SIGTERM" % pid
            for pid in (4103, 4104, 4105)]
    out += ["E1201 10:00:28.400000 4100 torch/distributed/elastic/multiprocessing/api.py:986] failed (exitcode: 1) local_rank: 0 (pid: 4102) of binary: /opt/torch/.venv/bin/python",
            "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
            "============================================================",
            "/srv/app/launch_server.py FAILED",
            "============================================================"]
    return out


for name, seed, bad in (("good-1.log", 0, False), ("good-2.log", 1, False), ("bad.log", 2, True)):
    with open(name, "w") as f:
        f.write("\n".join(run(seed, bad)) + "\n")
