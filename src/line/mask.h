/* mask.h — turning a message into a template by replacing its variable
 * tokens with typed placeholders, keeping the values.
 *
 * "Load weight end. type=Qwen2ForCausalLM, avail mem=61.20 GB" becomes
 * "Load weight end. type=<*>, avail mem=<size>" with the values
 * "Qwen2ForCausalLM" (kv, key "type") and "61.20 GB" (size, key "mem").
 *
 * Masked: numbers (with their unit: sizes, durations, percentages), hex,
 * identifiers (any word holding a digit: hashes, UUIDs, "blk_-123",
 * "node-246"), IPv4/IPv6 addresses with ports, host names, URLs, paths,
 * dates and times, and the values of key=value pairs in every common style
 * (k=v, 'k': v, "k": v; a value may be quoted or a balanced group; a group
 * of pairs such as "ServerArgs(a=1, b=2)" or "{'a': 1}" is entered and
 * each pair kept on its own).  Words that carry meaning are never masked:
 * severity words, short upper-case names (OOM, NCCL, SOCKS5) and plain
 * words.  A bare value that is a short lower-case word ("user=root",
 * "force=false") stays in the text (and is recorded as V_WORD): it reads
 * as part of the message, and clustering decides whether it varies. */
#ifndef DDX_MASK_H
#define DDX_MASK_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

enum vtype {
	V_INT, V_FLOAT, V_SIZE, V_DURATION, V_PERCENT, V_HEX, V_ID,
	V_IP, V_URL, V_PATH, V_DATE, V_TIME,
	V_HOST,              /* a host name: "db-1.example.org" */
	V_KV,                /* any other value of a key=value pair */
	V_WORD,              /* a value kept in the text (see above) */
	V_NTYPES
};

struct value {
	uint32_t off, len;   /* within the message, quotes excluded */
	uint32_t key_off, key_len; /* the key of a key=value pair, else 0 */
	uint8_t type;        /* enum vtype */
};

struct masked {
	struct buf text;     /* the template text */
	struct value *v;
	size_t nv, cap;
};

/* Mask msg[0..len) into m: the template text (NUL-terminated) and the
 * values in message order.  m's buffers are reused between calls and owned
 * by m; start from a zeroed struct masked.  Never reads past len; any bytes
 * (NUL, invalid UTF-8) are fine. */
void mask_message(const char *msg, size_t len, struct masked *m);
/* Free m's buffers (m itself is the caller's); accepts a zeroed m. */
void masked_free(struct masked *m);

/* Whether template t (mask_message's text) is a progress bar's frame:
 * a percentage and a count done of a total ("Loading: <pct>|###| <int>/<int>
 * [...]", "shards: <pct> Completed | <int>/<int>"), as tqdm and its kin
 * draw them.  A bar that is redrawn on new lines shows how far a step
 * got, not a step of its own. */
int mask_is_progress_bar(const char *t);
/* A progress bar's count, from its masked line m of text msg: the first
 * "<int>/<int>", as position and total ("11/489").  0 when there is
 * none. */
int mask_bar_count(const struct masked *m, const char *msg, uint64_t *pos, uint64_t *total);

/* The exit status a template states ("exited with code 1", "exit status
 * 137", "exitcode: 0", "Exited with status 3", "shutting down with
 * code:100"), or -1.  mask_message keeps
 * such a status (of up to three digits) in the text, so that a clean exit
 * and a failure are different lines; so too a count of zero failures
 * ("0 failed", "Errors: 0"), which classify reads as none. */
int mask_exit_status(const char *t);
/* The masking key of a message: the message with every digit replaced by
 * '1', except a lone "0".  mask_message looks at digits only through the
 * lengths of their runs and whether a run is a lone "0", so two messages
 * with the same key get the same values at the same places; when no digit
 * stays literal in the template (mask_cacheable), they get the same
 * template.  That lets the pipeline skip masking for the many lines that
 * differ from an earlier one only in their numbers.  tests/unit/test_mask.c
 * holds mask_message to this promise. */
void mask_key(const char *msg, size_t len, struct buf *key);
/* Whether m (the masking of some message) holds for every message with
 * the same key: no digit left in the text, and no identifier or hex value,
 * whose letters would make the key of nearly every line unique. */
int mask_cacheable(const struct masked *m);

#endif
