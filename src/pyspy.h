/* pyspy.h — Python stacks of a live process through py-spy, run as a
 * child with `dump --nonblocking`, which reads the target's memory
 * without pausing it (no signal, no ptrace stop).  For `ddx proc
 * --stacks`. */
#ifndef DDX_PYSPY_H
#define DDX_PYSPY_H

/* The py-spy executable on $PATH (malloc'd), or NULL. */
char *pyspy_find(void);

/* Run `py-spy dump --nonblocking --pid PID` with exe, killing it (our
 * own child) after timeout_ms.  Sets *out to its output (malloc'd, ""
 * when none); returns its exit status, or -1 when it could not run or
 * timed out. */
int pyspy_dump(const char *exe, int pid, int timeout_ms, char **out);

#endif
