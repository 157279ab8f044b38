/* align.h — aligning sequences of template ids: a bad log against a good
 * one, stream by stream (a stream is the lines of one rank or process), so
 * that the interleaving of ranks in a shared file does not matter.
 *
 * Works on ids only, never on text.  Runs of one id (progress bars,
 * per-layer lines) are collapsed before aligning, so a bar drawn 160 times
 * in one run and 164 in another still lines up. */
#ifndef DDX_ALIGN_H
#define DDX_ALIGN_H

#include <stddef.h>
#include <stdint.h>

#define ALIGN_NONE UINT32_MAX
/* In a stream map: align with all of b's lines, whatever their stream. */
#define ALIGN_ALL (UINT32_MAX - 1)

/* Align a[0..n) with b[0..m): ma[i] = the index in b matched with a[i],
 * or ALIGN_NONE; matched indices increase with i.  Unique common ids anchor
 * the alignment (patience), gaps between anchors get an exact heaviest
 * common subsequence when small and a greedy one when not.  weight[id]
 * (NULL: all 1) is what matching id is worth: a milestone outweighs a few
 * incidental lines; align_logs leaves ids that weigh 0 out.  Returns the number of matches.  ma is the caller's,
 * n entries. */
size_t align_seq(const uint32_t *a, size_t n, const uint32_t *b, size_t m,
		 const uint8_t *weight, uint32_t *ma);
/* align_seq with finer ids fa, fb beside a and b (ALIGN_NONE: none): an
 * element whose fine id is in each range once anchors as an element
 * whose id is does.  A template printed once per named step ("Step
 * <*> has started.") pairs its steps by name: the step both runs name,
 * not the n-th printing. */
size_t align_seq_fine(const uint32_t *a, const uint32_t *fa, size_t n, const uint32_t *b,
		      const uint32_t *fb, size_t m, const uint8_t *weight, uint32_t *ma);

/* One log as aligning sees it: an id and a stream number per line. */
struct align_log {
	const uint32_t *id;
	const uint16_t *stream;
	size_t n;
	size_t nstreams;        /* stream numbers are < nstreams */
	/* Per line, the id of its own text, finer than id (the masked
	 * text before clustering: "Step trainer has started." where id is
	 * "Step <*> has started."); NULL when there is none. */
	const uint32_t *fine;
};

/* Align log a with log b line by line: a2b[i] = the line of b matched with
 * line i of a, or ALIGN_NONE.  Stream s of a is aligned with stream
 * smap[s] of b (ALIGN_NONE there: leave the stream unmatched; ALIGN_ALL:
 * all of b, for a bad log that prints in one stream what a good one
 * spreads over processes).  A
 * collapsed run of a maps onto b's proportionally, first to first and
 * last to last, except a's last run in the stream, which may have been
 * cut short: its k-th line maps to b's k-th (or last).  weight as for
 * align_seq; a run's fine id is the one its lines share, if they do
 * (align_seq_fine).  a2b is the caller's, a->n entries. */
void align_logs(const struct align_log *a, const struct align_log *b,
		const uint32_t *smap, const uint8_t *weight, uint32_t *a2b);

#endif
