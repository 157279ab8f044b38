/* input.h — getting a log's bytes and splitting them into clean lines.
 *
 * A regular uncompressed file of 1 MiB or more is mapped; smaller ones,
 * stdin, pipes and compressed files (.gz and .zst, recognised by their
 * magic bytes) are read or decompressed into memory, up to INPUT_MAX_SIZE.
 * Binary data (an ELF file, or mostly NUL, control or invalid UTF-8 bytes
 * in the first 64 KiB) is refused.
 * Lines are then split with memchr and cleaned: trailing CRs dropped,
 * progress-bar frames reduced to the last one, ANSI escape sequences
 * removed.  NUL bytes and invalid UTF-8 are kept: output escapes them.  A
 * clean line points straight into the input unless escapes were removed
 * or a label kept (see input_clean_line), in which case it points into a
 * caller-provided scratch buffer. */
#ifndef DDX_INPUT_H
#define DDX_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "util.h"

/* Longest line ddx looks at: the rest of a longer line is cut (counted in
 * struct line.flags as LINE_CUT), so a 100 MB line costs no more memory
 * than this. */
#define INPUT_LINE_MAX (1u << 20)
/* Most bytes ddx will hold in memory for one unmappable or compressed
 * input; past it the input is an error ("too large"), which also bounds a
 * decompression bomb. */
#define INPUT_MAX_SIZE ((size_t)4 << 30)
/* A compressed input may expand at most INPUT_MAX_RATIO times its
 * compressed size once past INPUT_RATIO_FLOOR bytes: real logs compress
 * 5-50x, a decompression bomb 1000x. */
#define INPUT_MAX_RATIO 200
#define INPUT_RATIO_FLOOR ((size_t)256 << 20)
/* Most decompressed bytes the open inputs hold together, unless
 * $DDX_MAX_DECOMPRESSED says otherwise: past it an input is an error, so
 * that many compressed inputs, each within its own limits, cannot fill
 * memory together. */
#define INPUT_MAX_DECOMPRESSED ((size_t)8 << 30)

/* Where each line of a run read from a folder came from: the folder's
 * files are merged into one content (see log_open_run), and line i of it
 * is line line[i] (1-based) of files[file[i]]. */
struct input_origin {
	char **files;        /* names relative to the folder, natural order */
	size_t nfiles;
	uint32_t *file;      /* per line of the merged content */
	uint32_t *line;
	size_t nlines;
};

/* Free o and what it holds; NULL is nothing. */
void input_origin_free(struct input_origin *o);

struct input {
	char *path;          /* as given; "-" is stdin */
	const char *data;    /* the whole content, decompressed */
	size_t size;
	time_t mtime;        /* modification time, or the time it was read */
	time_t btime;        /* a file's birth (creation) time; 0 unknown */
	int mapped;          /* data is an mmap (else malloc'd) */
	int borrowed;        /* data belongs to another input (input_borrow) */
	const char *kind;    /* "file", "pipe", "gzip", "zstd" */
	struct input_guard *guard; /* watches the mapping (see input.c) */
	struct input_origin *origin; /* a folder's lines' files, else NULL */
};

/* Open and read path ("-" for stdin).  A FIFO is read as a stream, from
 * when its writer comes; a directory is refused.  On failure prints
 * "ddx: cannot open 'path': reason" (or another message naming the file)
 * and returns -1; nothing is left allocated.  max_size 0 = INPUT_MAX_SIZE. */
int input_open(struct input *in, const char *path, size_t max_size);
/* The same for a file that must be a regular one (or "-"): a FIFO or a
 * device is refused, before anything waits on it. */
int input_open_file(struct input *in, const char *path, size_t max_size);
void input_close(struct input *in);
/* Make data[0..size) (malloc'd; in takes it over, also on failure) the
 * content of in, named path, as if read from a file last written at
 * mtime: for text ddx gathered itself, such as the growing log `ddx
 * watch` follows or a run read back from the store (named as reports
 * show it, "NAME:FILE").  Decompresses and refuses binary data as
 * input_open does.  Returns 0, or -1 after printing an error. */
int input_from_memory(struct input *in, const char *path, char *data, size_t size,
		      time_t mtime);
/* How every HTML page ddx writes begins, byte for byte (html_frame.c
 * writes it): a file that begins so is ddx's report, never a log.  Kept
 * as it is, so that pages written before are known too. */
#define INPUT_DDX_PAGE_HEAD                                                         \
	"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"       \
	"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"      \
	"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "     \
	"style-src 'unsafe-inline'; img-src data:\">\n"                                   \
	"<meta name=\"color-scheme\" content=\"light dark\">\n<title>"

/* The files under folder dir, as paths dir/NAME, in natural order of
 * their names (rank-2.log before rank-10.log), subfolders' files
 * included (a folder per node, a file per rank); names starting with a
 * dot are skipped, and so are ddx's own pages (INPUT_DDX_PAGE_HEAD,
 * whatever their names: a report saved beside the logs).  Returns 0 with *paths malloc'd (each too), or -1
 * after printing an error naming what could not be read. */
int input_list_folder(const char *dir, char ***paths, size_t *n);
/* Whether path names a folder (following links). */
int input_is_folder(const char *path);

/* Let in's mapped pages before byte end go from this process's memory
 * (the kernel keeps them cached, and reads them back if touched again):
 * for an input read front to back once.  Nothing for unmapped data. */
void input_drop(const struct input *in, size_t end);

/* A second handle on in's content, to load it again (`ddx watch` loads
 * its good runs at each analysis): view is named as in is and borrows
 * its data, which in must keep until view is closed. */
void input_borrow(struct input *view, const struct input *in);

enum {
	LINE_CUT = 1,        /* longer than INPUT_LINE_MAX: the rest was dropped */
	LINE_CLEANED = 2,    /* progress frames or escapes removed */
};

struct line {
	const char *text;    /* clean text, not NUL-terminated */
	uint32_t len;
	uint32_t frames;     /* progress frames in the raw line, the kept text
				counting as one: 1 for an ordinary line */
	uint32_t flags;
	uint64_t offset;     /* byte offset of the raw line in input.data */
	uint64_t raw_len;    /* length of the raw line, without its newline */
	/* A progress bar pasted in front of the text, its last frame (see
	 * input_clean_line), in the same memory as text; NULL, 0 for none. */
	const char *bar;
	uint32_t bar_len;
};

/* Split off the line that starts at *pos in data[0..size), clean it, and
 * advance *pos past its newline.  Returns 0 at the end.  The text may live
 * in scratch, so it stays valid until the next call with that scratch. */
int input_next_line(const char *data, size_t size, size_t *pos,
		    struct line *ln, struct buf *scratch);

/* Clean one raw line (no newline in it) into ln, as input_next_line does:
 * - trailing CRs (CRLF, CRCRLF) are dropped;
 * - bare CRs separate progress frames (tqdm redraws); the line keeps the
 *   last frame that is not blank, without its padding spaces; a label in
 *   front of the first CR, such as vLLM's "(EngineCore pid=7) ", is kept
 *   before it, since it names the writer;
 * - frames pasted without a CR, each ending in a rate bracket such as
 *   "[00:29<06:47, 29.12s/it]", are dropped up to the last one that more
 *   text follows (often a log line glued on); the last one dropped is
 *   kept in bar, for the bar is progress the run made;
 * - ANSI escape sequences (CSI, OSC, DCS, ...; unterminated ones too) are
 *   removed;
 * - the kept text is cut at INPUT_LINE_MAX bytes (LINE_CUT).
 * scratch must have no max, or one of at least INPUT_LINE_MAX + 256. */
void input_clean_line(const char *raw, size_t raw_len, struct line *ln,
		      struct buf *scratch);

/* Cut data into at most n pieces that start at line starts, for threads:
 * piece k is [starts[k], starts[k + 1]).  starts must hold n + 1 entries
 * (2 if n < 1, which counts as 1); starts[0] = 0 and starts[k] = size for
 * k >= the returned count, which is the number of non-empty pieces (0 for
 * empty data). */
int input_split(const char *data, size_t size, int n, size_t *starts);

/* Count lines the way `wc -l` would, plus one for a final unterminated
 * line. */
size_t input_count_lines(const char *data, size_t size);

#endif
