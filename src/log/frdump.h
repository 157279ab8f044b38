/* frdump.h — PyTorch Flight Recorder dumps: what each rank's trace
 * (nccl_trace_rank_N, torch's pickle, or its JSON form) says of its
 * collectives.  The dump is read by the bounded readers of dumpval.h,
 * which never run anything; a crafted or truncated dump is an error
 * naming the file. */
#ifndef DDX_FRDUMP_H
#define DDX_FRDUMP_H

#include <stddef.h>
#include <stdint.h>

#include "dumpval.h"

/* Most bytes one dump may hold: torch's ring of 2000 entries with their
 * stack frames is a few MiB. */
#define FR_MAX_SIZE ((size_t)256 << 20)
/* Most dumps one folder may give (one per rank). */
#define FR_MAX_DUMPS 4096

#define FR_OP_MAX 32
/* Most process groups read per rank, and the longest name kept. */
#define FR_GROUPS_MAX 32
#define FR_NAME_MAX 48

/* One rank's collectives in one process group.  Sequence numbers are
 * torch's collective_seq_id; -1 when unknown; an op is torch's name
 * without its "nccl:" ("all_reduce"), "" when unknown. */
struct fr_group {
	char name[FR_NAME_MAX];  /* its name (process_group's first field,
				  * else its pg_id): the same on every rank,
				  * where pg_id is the rank's own */
	int64_t id;              /* this rank's pg_id of it, or -1 */
	int64_t enqueued, completed;
	char enq_op[FR_OP_MAX], done_op[FR_OP_MAX];
	int64_t pending;         /* the first collective it had not completed */
	char pending_op[FR_OP_MAX];
	/* The elements each of those three took in (input_sizes), -1 when
	 * unknown. */
	int64_t enq_numel, done_numel, pending_numel;
	int64_t pending_ns;      /* when pending was created, or -1 */
	int pending_started;     /* its GPU work began ("started"): 1;
				  * "scheduled": 0; no state: -1.  Only a run
				  * with TORCH_NCCL_ENABLE_TIMING=1 records
				  * "started" */
};

/* One rank's dump. */
struct frdump {
	char *path;           /* owned */
	int rank;             /* from the file name's trailing number */
	struct fr_group latest;  /* its latest entry's group (id -1: none) */
	/* Every group it has collectives in (the first FR_GROUPS_MAX): a
	 * subgroup's hang (tensor parallel's) is not its latest entry's. */
	struct fr_group groups[FR_GROUPS_MAX];
	size_t ngroups;
};

/* Read dump p[0, n) (a pickle or JSON, told by its first byte) into *fr,
 * whose path and rank the caller sets.  0, or -1 with why in why[0, cap). */
int frdump_parse(const unsigned char *p, size_t n, struct frdump *fr, char *why, size_t cap);
/* The dumps in folder dir: every file whose name ends in "rank_N" or
 * "rankN" (with an optional .json or .pickle), in rank order, into *out
 * (frdump_free frees them).  0 (also for none), or -1 after printing an
 * error that names the file. */
int frdump_dir(const char *dir, struct frdump **out, size_t *n);
/* The rank a dump's file name gives, or -1. */
int frdump_rank_of(const char *name);
void frdump_free(struct frdump *fr, size_t n);

#endif
