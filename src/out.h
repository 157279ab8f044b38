/* out.h — where text output goes and how: one context that every text
 * renderer takes, built once by the command layer (main.c) from --color,
 * the environment and the terminal stdout is as the command starts.  A
 * renderer asked for text without colour (the HTML page's sentences)
 * gets a context saying so, instead of a global flipped and restored. */
#ifndef DDX_OUT_H
#define DDX_OUT_H

#include <stddef.h>
#include <stdio.h>

struct out {
	FILE *f;
	int colour;     /* SGR escapes may be written */
	size_t width;   /* columns every line fits in (term_width()); 0 for a
			 * page that wraps lines itself: lines kept whole,
			 * quoted log text cut as for 120 columns */
	int wrap;       /* the width is a terminal's (term_sized()): prose is
			 * wrapped to it, not kept a line a sentence */
};

/* The escape sequences, empty when o has no colour. */
#define SGR(o, seq) ((o)->colour ? (seq) : "")
#define SGR_BOLD(o)   SGR(o, "\033[1m")
#define SGR_RED(o)    SGR(o, "\033[31m")
#define SGR_GREEN(o)  SGR(o, "\033[32m")
#define SGR_YELLOW(o) SGR(o, "\033[33m")
#define SGR_DIM(o)    SGR(o, "\033[2m")
#define SGR_RESET(o)  SGR(o, "\033[0m")

#endif
