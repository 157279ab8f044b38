/* fuzz_frdump.c — a Flight Recorder dump: frdump_parse of the bytes as
 * given (pickle or JSON by the first byte), then as a pickle and as JSON
 * whatever they start with.  It returns 0 or -1 with a reason, in
 * bounded time and memory, and what it read is within its limits. */
#include "dumpval.h"
#include "frdump.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A heap copy of exactly size bytes, so a read past the end is
	 * caught. */
	unsigned char *p = xmalloc(size ? size : 1);
	memcpy(p, data, size);
	char why[200];
	struct frdump fr = { 0 };
	if (frdump_parse(p, size, &fr, why, sizeof(why)) == 0) {
		FUZZ_CHECK(fr.ngroups <= FR_GROUPS_MAX);
		for (size_t k = 0; k <= fr.ngroups && k <= FR_GROUPS_MAX; k++) {
			const struct fr_group *g = k < fr.ngroups ? &fr.groups[k] : &fr.latest;
			FUZZ_CHECK(strlen(g->enq_op) < FR_OP_MAX && strlen(g->pending_op) < FR_OP_MAX);
			FUZZ_CHECK(strlen(g->name) < FR_NAME_MAX);
			FUZZ_CHECK(g->pending < 0 || g->pending > g->completed);
		}
	} else {
		FUZZ_CHECK(why[0] != '\0');
	}
	struct dv_doc doc = { 0 };
	if (dv_read_pickle(&doc, p, size, why, sizeof(why)) == 0)
		FUZZ_CHECK(doc.root && doc.nvalues <= DV_MAX_VALUES);
	dv_free(&doc);
	if (dv_read_json(&doc, p, size, why, sizeof(why)) == 0)
		FUZZ_CHECK(doc.root && doc.root->depth <= DV_MAX_DEPTH);
	dv_free(&doc);
	free(p);
	return 0;
}
