#!/usr/bin/env python3
"""measure.py [-o FILE] [-t SECONDS] [-e NAME=VALUE]... -- COMMAND [ARG...]

Runs COMMAND once, its standard output going to FILE (default /dev/null),
killing it after SECONDS if given (EXIT is then 124, as timeout(1)'s), and
prints one line: "SECONDS PEAK_RSS_KB PEAK_ANON_KB EXIT CPU_SECONDS".

SECONDS is wall-clock time; CPU_SECONDS is user + system time of the
command and its threads (steadier than wall time on a busy machine).

Both memory figures come from /proc/PID/status, sampled every 2 ms from a
second thread once the child has exec'd.  PEAK_RSS_KB is the last VmHWM
seen, the kernel's high-water mark of the resident set (for a program that
maps its input it includes the mapped file's pages).  ru_maxrss is not
used: Linux carries it across exec, so it would report the forked Python.
PEAK_ANON_KB is the largest RssAnon seen: the process's own memory beyond
mapped files (heap, stacks, anonymous mmaps).  Being sampled, both can miss
growth in the last 2 ms or a shorter spike; for a program whose tables only
grow, as ddx's, that is a small error.
"""
import os
import sys
import threading
import time


def main():
    args = sys.argv[1:]
    out = "/dev/null"
    env = dict(os.environ)
    limit = None
    while args and args[0] != "--":
        if args[0] == "-o" and len(args) > 1:
            out = args[1]
            args = args[2:]
        elif args[0] == "-t" and len(args) > 1:
            limit = float(args[1])
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
    # The pipe closes (close-on-exec) when the child has become COMMAND:
    # sampling starts then, so the forked Python's own memory is not seen.
    r, w = os.pipe()
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        os.dup2(fd, 1)
        try:
            os.execvpe(cmd[0], cmd, env)
        except OSError as e:
            os.write(2, ("measure.py: cannot run %s: %s\n" % (cmd[0], e)).encode())
            os._exit(127)
    os.close(fd)
    os.close(w)
    os.read(r, 1)
    os.close(r)
    peak = [0, 0]   # RssAnon, VmHWM
    done = threading.Event()
    killed = [False]

    def sample():
        path = "/proc/%d/status" % pid
        while not done.is_set():
            if limit is not None and not killed[0] and time.perf_counter() - t0 > limit:
                killed[0] = True
                os.kill(pid, 9)
            try:
                with open(path, "rb") as f:
                    for line in f:
                        if line.startswith(b"VmHWM:"):
                            peak[1] = max(peak[1], int(line.split()[1]))
                        elif line.startswith(b"RssAnon:"):
                            peak[0] = max(peak[0], int(line.split()[1]))
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
    code = 124 if killed[0] else os.waitstatus_to_exitcode(status)
    print("%.3f %d %d %d %.3f" % (t1 - t0, peak[1], peak[0], code,
                                  ru.ru_utime + ru.ru_stime))


if __name__ == "__main__":
    main()
