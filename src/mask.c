/* mask.c — masking variable tokens.  See mask.h.  (Stub: digits only.) */
#include "mask.h"

#include <ctype.h>
#include <stdlib.h>

static const char *const placeholders[V_NTYPES] = {
	"<int>", "<float>", "<size>", "<dur>", "<pct>", "<hex>", "<id>",
	"<ip>", "<url>", "<path>", "<date>", "<time>", "<*>", "<*>",
};

const char *vtype_placeholder(int type)
{
	return type >= 0 && type < V_NTYPES ? placeholders[type] : "<*>";
}

void mask_message(const char *msg, size_t len, struct masked *m)
{
	buf_reset(&m->text);
	m->nv = 0;
	size_t i = 0;
	while (i < len) {
		if (isdigit((unsigned char)msg[i])) {
			size_t j = i;
			while (j < len && isdigit((unsigned char)msg[j]))
				j++;
			GROW(m->v, m->cap, m->nv + 1);
			m->v[m->nv++] = (struct value){ .off = (uint32_t)i, .len = (uint32_t)(j - i), .type = V_INT };
			buf_append(&m->text, "<int>", 5);
			i = j;
		} else {
			buf_putc(&m->text, msg[i++]);
		}
	}
	if (!m->text.p)
		buf_append(&m->text, "", 0);
}

void masked_free(struct masked *m)
{
	buf_free(&m->text);
	free(m->v);
	m->v = NULL;
	m->nv = m->cap = 0;
}
