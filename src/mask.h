/* mask.h — turning a message into a template by replacing its variable
 * tokens with typed placeholders, keeping the values.
 *
 * "Load weight end. type=Qwen2ForCausalLM, avail mem=61.20 GB" becomes
 * "Load weight end. type=<*>, avail mem=<size>" with the values
 * "Qwen2ForCausalLM" (kv) and "61.20 GB" (size).  Words that carry meaning
 * are never masked: severity words, short upper-case tokens like OOM, GPU,
 * NCCL. */
#ifndef DDX_MASK_H
#define DDX_MASK_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

enum vtype {
	V_INT, V_FLOAT, V_SIZE, V_DURATION, V_PERCENT, V_HEX, V_ID,
	V_IP, V_URL, V_PATH, V_DATE, V_TIME, V_KV, V_WORD,
	V_NTYPES
};
const char *vtype_placeholder(int type);   /* "<int>", "<size>", ... */

struct value {
	uint32_t off, len;   /* within the message */
	uint32_t key_off, key_len; /* for V_KV and key=number: the key, else 0 */
	uint8_t type;        /* enum vtype */
};

struct masked {
	struct buf text;     /* the template text */
	struct value *v;
	size_t nv, cap;
};

/* Mask msg[0..len) into m (whose buffers are reused between calls). */
void mask_message(const char *msg, size_t len, struct masked *m);
void masked_free(struct masked *m);

#endif
