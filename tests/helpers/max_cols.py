#!/usr/bin/env python3
"""max_cols.py COLS [LABEL]: read text on stdin and print "FAIL LABEL: ..."
for each line wider than COLS display columns, as a terminal shows it:
a wide (East Asian W or F) character takes two columns, a combining mark
or a zero-width one none, a tab goes on to the next multiple of 8, and
colour escapes (ESC [ ... final byte) none.  Prints "LABEL: fits in
COLS" when every line does."""
import re, sys, unicodedata

cols = int(sys.argv[1])
label = sys.argv[2] if len(sys.argv) > 2 else "output"
csi = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")


def width(line):
    col = 0
    for ch in csi.sub("", line):
        if ch == "\t":
            col += 8 - col % 8
        elif unicodedata.combining(ch) or ch in "\u200b\u200c\u200d\u200e\u200f" or \
                "\ufe00" <= ch <= "\ufe0f":
            pass
        elif unicodedata.east_asian_width(ch) in "WF":
            col += 2
        else:
            col += 1
    return col


widest = 0
for n, line in enumerate(sys.stdin.buffer.read().decode("utf-8", "replace").split("\n"), 1):
    w = width(line)
    widest = max(widest, w)
    if w > cols:
        print("FAIL %s: line %d is %d columns wide (> %d): %s" % (label, n, w, cols, line))
if widest <= cols:
    print("%s: fits in %d" % (label, cols))
