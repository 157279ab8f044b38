/* terminal.h — fitting output to the terminal it goes to: its width, and
 * a pager for long output, as git does.  Both are decided from stdout as
 * the command started, so output piped to a file or another program is
 * the same on every machine (120 columns, not paged). */
#ifndef DDX_TERMINAL_H
#define DDX_TERMINAL_H

#include <stddef.h>
#include <stdio.h>

/* Columns of the output: $COLUMNS when set to a number, else the width
 * of the terminal stdout is (TIOCGWINSZ), else 120; never below 40 (the
 * layout's fixed columns need room) nor above 512. */
int term_width(void);
/* Whether that width is a terminal's: stdout is one, or $COLUMNS names
 * one.  Sentences are wrapped to it only then; off a terminal each stays
 * one line, as scripts and grep read them. */
int term_sized(void);

/* Display columns of s[0..n) on a terminal, for text put_text wrote: a
 * UTF-8 character takes one column, an East Asian wide one two, a
 * combining mark none; a tab goes on to the next multiple of 8; ddx's
 * own escape sequences (ESC [ ... final byte: colours) take none. */
size_t text_cols(const char *s, size_t n);
/* Write s[0..n) (put_text's output, without a newline) in at most cols
 * columns: when wider, cut after the last whole word that keeps at
 * least half of it, else after the last character that fits, and end
 * with "…" (and a colour reset when it held a colour). */
void put_fitted(FILE *f, const char *s, size_t n, size_t cols);

/* Write s[0..n) (put_text's output, without a newline) as lines of at
 * most cols columns, broken at the last blank that fits (within a word
 * too long for a line): the first line starts at column start (what is
 * before it on its line), the others after indent blanks. */
void put_wrapped(FILE *f, const char *s, size_t n, size_t cols, size_t start, size_t indent);

/* Whether stdout gets colour, for --color=WHEN: always (even with
 * NO_COLOR set: asked for by name), never, or auto: when stdout is a
 * terminal, unless NO_COLOR is set or TERM=dumb (which shows escapes as
 * garbage). */
enum color_mode { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };
int term_colour(enum color_mode mode);

/* Whether a later pager_start may page: 0 for --no-pager. */
void pager_init(int allowed);
/* Send the rest of stdout through a pager when stdout is a terminal:
 * $DDX_PAGER, else $PAGER, else "less -FRX" (which quits when the output
 * fits one screen and keeps colours); an empty one or "cat" pages
 * nothing.  A pager of plain words is run straight (PATH searched),
 * others through sh.  One that cannot start (no less on a plain
 * container) pages nothing: the output goes to the terminal as it
 * would unpaged, as git does, with a warning on stderr when the pager
 * was named by the environment.  (Through sh, a missing program is
 * sh's failure, after the output went to it.)  ddx waits for the
 * pager before it exits, also on SIGINT, SIGTERM or SIGHUP, so the
 * shell's prompt never comes back under it. */
void pager_start(void);

#endif
