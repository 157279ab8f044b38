/* pyspy.h — Python stacks of a live process through py-spy, run as a
 * child with `dump --nonblocking`, which reads the target's memory
 * without pausing it (no signal, no ptrace stop); or, when asked, with
 * `dump --native`, which adds the C/C++ frames (the NCCL or CUDA call a
 * rank spins in) but must pause the process while it reads them, as
 * py-spy cannot do native frames without.  For `ddx proc --stacks`. */
#ifndef DDX_PYSPY_H
#define DDX_PYSPY_H

/* The py-spy executable on $PATH (malloc'd), or NULL. */
char *pyspy_find(void);

/* Run `py-spy dump --nonblocking --pid PID` (native: `dump --native`)
 * with exe, killing it (our own child) after timeout_ms.  Sets *out to its output (malloc'd, ""
 * when none); returns its exit status, or -1 when it could not run or
 * timed out. */
int pyspy_dump(const char *exe, int pid, int timeout_ms, int native, char **out);

#endif
