/* terminal.h — fitting output to the terminal it goes to: its width, and
 * a pager for long output, as git does.  Both are decided from stdout as
 * the command started, so output piped to a file or another program is
 * the same on every machine (120 columns, not paged). */
#ifndef DDX_TERMINAL_H
#define DDX_TERMINAL_H

/* Columns of the output: $COLUMNS when set to a number, else the width
 * of the terminal stdout is (TIOCGWINSZ), else 120; never below 80 (the
 * layout's fixed columns need room) nor above 512. */
int term_width(void);

/* Whether a later pager_start may page: 0 for --no-pager. */
void pager_init(int allowed);
/* Send the rest of stdout through a pager when stdout is a terminal:
 * $DDX_PAGER, else $PAGER, else "less -FRX" (which quits when the output
 * fits one screen and keeps colours); an empty one or "cat" pages
 * nothing.  ddx waits for the pager before it exits, also on SIGINT,
 * SIGTERM or SIGHUP, so the shell's prompt never comes back under it. */
void pager_start(void);

#endif
