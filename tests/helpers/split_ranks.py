#!/usr/bin/env python3
"""split_ranks.py LOG DIR: write LOG's lines into one file per stream in DIR,
as a job writing one log per rank would: a line goes to the file of its
rank tag (as `ddx parse` reads it: "[rank2]:" gives rank2.log); a rank the
program prints itself ("[rank2] msg", which parse shows with its
brackets) splits nothing: such a line goes as an untagged one; an untagged
line with a timestamp (the launcher's) to launcher.log; an untagged line
without one (a traceback's, a print's) follows the line before it."""
import os, subprocess, sys

log, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
parsed = subprocess.run(["ddx", "parse", log], capture_output=True, check=True).stdout
raw = open(log, "rb").read().split(b"\n")
if raw and raw[-1] == b"":
    raw.pop()
files, name = {}, "launcher"
for row, line in zip(parsed.split(b"\n"), raw):
    cols = row.split(b"\t")
    tag, ts = cols[3].decode(), cols[1].decode()
    if tag != "-" and not tag.startswith("["):
        name = tag
    elif ts != "-" and tag == "-":
        name = "launcher"
    files.setdefault(name, []).append(line)
for name, lines in files.items():
    with open(os.path.join(out, name + ".log"), "wb") as f:
        f.write(b"".join(l + b"\n" for l in lines))
