/* prefix_record.h — structured headers: logfmt and JSON-lines records,
 * read by key name (see prefix_record.c).  Used by prefix.c, and by
 * input_clean.c for record_unwrap. */
#ifndef DDX_PREFIX_RECORD_H
#define DDX_PREFIX_RECORD_H

#include <stddef.h>

#include "util.h"

#include "prefix_scan.h"
#include "prefix_types.h"

/* A logfmt line (time=... level=... msg="..."): fills h, returns where
 * the message starts, or 0 when the line is not logfmt. */
size_t record_logfmt(struct cur *c, struct header *h);
/* A JSON object line: as record_logfmt. */
size_t record_json(struct cur *c, struct header *h);
/* A record, s[0, n) (one whole JSON object, or a logfmt line), rewritten
 * into out (appended) so that its message reads as text, alone: the
 * fields but the message and those that say what failed (err, error,
 * exception, ...), then the message unquoted and unescaped, then those
 * fields ({"ts": 1, "msg": "a \"b\"", "k": 2, "err": "x"} gives
 * {"ts": 1,"k": 2} a "b" "err": "x"; msg="a b" k=v gives k=v msg=a b).
 * CRs and escapes are kept for input to clean.  record_json and
 * record_logfmt read such a line as the record it was.  Returns where
 * the message starts in what was appended, or 0, with nothing appended,
 * for any other line, or one that needs no rewriting (a bare logfmt
 * message already last). */
size_t record_unwrap(const char *s, size_t n, struct buf *out);
/* The message of a line whose header gave no level, when it is itself a
 * logfmt or JSON record: fills in h from its fields. */
size_t record_body(struct cur *c, struct header *h);
/* A rank field at the very end of the line ("... rank=3"), as tracing
 * writes a span's fields after the message: into h's tag, unless a
 * process prefix gave one. */
void record_rank_suffix(const struct cur *c, struct header *h);
/* s[0, n) as a time since the epoch: seconds (with or without a
 * fraction), milliseconds, microseconds or nanoseconds, told apart by
 * their 10, 13, 16 or 19 digits (2001 to 2286).  Into *ms; 0 when it is
 * none. */
int record_epoch(const char *s, size_t n, int64_t *ms);
/* Is k[0, n) a key that names a rank ("rank", "local_rank", "worker"),
 * in any case? */
int record_is_rank_key(const char *k, size_t n);
/* Is s[0, n) a rank key and a number, "rank3", "worker12", or the two
 * apart as loggers write them, "rank 3", "Rank: 3", "rank=3"?  Then the
 * key is s[0, *key_len) and the number starts at s + *num_off. */
int record_rank_name(const char *s, size_t n, size_t *key_len, size_t *num_off);

#endif
