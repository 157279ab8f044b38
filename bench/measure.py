#!/usr/bin/env python3
"""measure.py [-o FILE] [-e NAME=VALUE]... -- COMMAND [ARG...]

Runs COMMAND once, its standard output going to FILE (default /dev/null),
and prints one line: "SECONDS PEAK_RSS_KB PEAK_ANON_KB EXIT".

SECONDS is wall-clock time.  PEAK_RSS_KB is the kernel's high-water mark
of the resident set (ru_maxrss from wait4, so it is exact; for a program
that maps its input it includes the mapped file's pages).  PEAK_ANON_KB is
the largest RssAnon seen in /proc/PID/status, sampled every 2 ms from a
second thread: the process's own memory beyond mapped files (heap, stacks,
anonymous mmaps).  Being sampled, it can miss a spike shorter than the
interval; for a program whose tables only grow, as ddx's, it is the peak.
"""
import os
import sys
import threading
import time


def main():
    args = sys.argv[1:]
    out = "/dev/null"
    env = dict(os.environ)
    while args and args[0] != "--":
        if args[0] == "-o" and len(args) > 1:
            out = args[1]
            args = args[2:]
        elif args[0] == "-e" and len(args) > 1 and "=" in args[1]:
            k, v = args[1].split("=", 1)
            env[k] = v
            args = args[2:]
        else:
            sys.exit(__doc__)
    if not args or len(args) < 2:
        sys.exit(__doc__)
    cmd = args[1:]
    fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        os.dup2(fd, 1)
        try:
            os.execvpe(cmd[0], cmd, env)
        except OSError as e:
            os.write(2, ("measure.py: cannot run %s: %s\n" % (cmd[0], e)).encode())
            os._exit(127)
    os.close(fd)
    peak = [0]
    done = threading.Event()

    def sample():
        path = "/proc/%d/status" % pid
        while not done.is_set():
            try:
                with open(path, "rb") as f:
                    for line in f:
                        if line.startswith(b"RssAnon:"):
                            kb = int(line.split()[1])
                            if kb > peak[0]:
                                peak[0] = kb
                            break
            except (OSError, ValueError):
                pass
            time.sleep(0.002)

    th = threading.Thread(target=sample, daemon=True)
    th.start()
    _, status, ru = os.wait4(pid, 0)
    t1 = time.perf_counter()
    done.set()
    th.join()
    code = os.waitstatus_to_exitcode(status)
    print("%.3f %d %d %d" % (t1 - t0, ru.ru_maxrss, peak[0], code))


if __name__ == "__main__":
    main()
