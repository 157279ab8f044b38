/* log.c — running a log through input, prefix, mask and template, in
 * parallel pieces whose results are merged in input order.  See log.h.
 *
 * Each thread interns into a table of its own; the merge interns each
 * piece's templates into the shared table in the piece's first-occurrence
 * order, so template ids (and every output) are the same for any number of
 * threads. */
#include "log.h"

#include <pthread.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "mask.h"
#include "prefix.h"

#define SAMPLE_LINES 400
#define SAMPLE_PARTS 9
#define MAX_THREADS 64
/* Most a folder run may hold merged in memory (its files' total): far
 * more than one input may (INPUT_MAX_SIZE), for a job of many ranks. */
#define RUN_MAX_SIZE ((size_t)256 << 30)
/* A folder's merge lets go of each file's copied part by this much. */
#define DROP_STEP ((size_t)16 << 20)
/* Below this a second thread costs more than it saves. */
#define MIN_PIECE (1u << 20)

/* Distinct tags, numbered from 1 (0 = no tag), in a hash table: a log
 * with thousands of distinct tags (a hostile one, or many processes)
 * costs no more per line than one with a few. */
struct tagset {
	char **tags;           /* [1..n), malloc'd; NULL while n is 0 */
	size_t n, cap;
	uint32_t *slots;       /* open addressing: index into tags, 0 = empty */
	size_t nslots;
};

static void tagset_insert_slot(struct tagset *ts, const char *s, size_t n, uint32_t k)
{
	size_t mask = ts->nslots - 1;
	size_t i = hash_bytes(s, n) & mask;
	while (ts->slots[i])
		i = (i + 1) & mask;
	ts->slots[i] = k;
}

/* The number of tag s[0..n) (which holds no NUL), adding it; 0 once
 * UINT16_MAX - 1 tags are taken. */
static uint16_t tagset_index(struct tagset *ts, const char *s, size_t n)
{
	if (ts->nslots) {
		size_t mask = ts->nslots - 1;
		for (size_t i = hash_bytes(s, n) & mask; ts->slots[i]; i = (i + 1) & mask) {
			const char *t = ts->tags[ts->slots[i]];
			if (strncmp(t, s, n) == 0 && t[n] == '\0')
				return (uint16_t)ts->slots[i];
		}
	}
	if (ts->n >= UINT16_MAX)
		return 0;
	if (ts->n == 0)
		ts->n = 1;
	if (2 * (ts->n + 1) > ts->nslots) {
		/* At most half full: rebuild twice as large. */
		free(ts->slots);
		ts->nslots = ts->nslots ? 2 * ts->nslots : 64;
		ts->slots = xcalloc(ts->nslots, sizeof(*ts->slots));
		for (size_t k = 1; k < ts->n; k++)
			tagset_insert_slot(ts, ts->tags[k], strlen(ts->tags[k]), (uint32_t)k);
	}
	GROW(ts->tags, ts->cap, ts->n + 1);
	char *t = xmalloc(n + 1);
	memcpy(t, s, n);
	t[n] = '\0';
	ts->tags[ts->n] = t;
	tagset_insert_slot(ts, s, n, (uint32_t)ts->n);
	return (uint16_t)ts->n++;
}

/* Free the table, and the tags unless they were handed over. */
static void tagset_free(struct tagset *ts, int with_tags)
{
	if (with_tags) {
		for (size_t i = 1; i < ts->n; i++)
			free(ts->tags[i]);
		free(ts->tags);
	}
	free(ts->slots);
	memset(ts, 0, sizeof(*ts));
}

struct piece {
	const struct log *lg;
	size_t begin, end;     /* byte range of whole lines */
	unsigned flags;
	int64_t year_ms;       /* added to year-less timestamps */
	int show_progress;
	struct tmpl_table tt;  /* local ids */
	/* Masking keys seen (see mask_key) and the template each gives,
	 * TMPL_NONE where the key does not decide the template. */
	struct tmpl_table keys;
	uint32_t *key_tid;
	size_t key_cap;
	size_t n, cap;
	uint32_t *tid;
	uint32_t *bar;         /* LOG_FULL: as lg->bar, NULL until a line has one */
	uint64_t *offset;
	int64_t *ts;
	uint8_t *level;
	uint16_t *tag;
	struct tagset tags;    /* local tags */
};

static uint16_t piece_tag(struct piece *pc, const char *s, size_t n)
{
	/* Tags are C strings: one with a NUL in it is garbage, not a tag
	 * (and strncmp would stop at the NUL and match a shorter tag). */
	if (memchr(s, '\0', n))
		return 0;
	return tagset_index(&pc->tags, s, n);
}

static void piece_push(struct piece *pc, uint32_t tid, uint32_t bar, const struct line *ln,
		       const struct header *h)
{
	if (pc->n == pc->cap) {
		size_t cap = pc->cap;
		GROW(pc->tid, cap, pc->n + 1);
		if (pc->flags & LOG_FULL) {
			if (pc->bar)
				pc->bar = xrealloc(pc->bar, cap * sizeof(*pc->bar));
			pc->offset = xrealloc(pc->offset, cap * sizeof(*pc->offset));
			pc->ts = xrealloc(pc->ts, cap * sizeof(*pc->ts));
			pc->level = xrealloc(pc->level, cap * sizeof(*pc->level));
			pc->tag = xrealloc(pc->tag, cap * sizeof(*pc->tag));
		}
		pc->cap = cap;
	}
	size_t i = pc->n++;
	pc->tid[i] = tid;
	if (bar != TMPL_NONE && !pc->bar) {
		pc->bar = xmalloc(pc->cap * sizeof(*pc->bar));
		for (size_t k = 0; k < i; k++)
			pc->bar[k] = TMPL_NONE;
	}
	if (pc->bar)
		pc->bar[i] = bar;
	if (pc->flags & LOG_FULL) {
		pc->offset[i] = ln->offset;
		pc->ts[i] = h->ts_ms != TS_NONE && h->ts_no_year ? h->ts_ms + pc->year_ms : h->ts_ms;
		pc->level[i] = h->level;
		pc->tag[i] = h->tag_len ? piece_tag(pc, ln->text + h->tag_off, h->tag_len) : 0;
	}
}

/* Most distinct masking keys a piece remembers: keys of lines that carry
 * unique words are not kept, and this bounds the rest. */
#define MAX_KEYS (1u << 16)

/* The local template id of a message: from the masking key when a line
 * with the same key was seen, else by masking it. */
static uint32_t piece_template(struct piece *pc, const char *msg, size_t len, int level,
			       struct masked *m, struct buf *key)
{
	mask_key(msg, len, key);
	uint64_t kh = tmpl_hash(key->p, key->len, level);
	uint32_t k = tmpl_find(&pc->keys, key->p, key->len, level, kh);
	if (k != TMPL_NONE)
		return pc->key_tid[k];
	mask_message(msg, len, m);
	uint64_t hash = tmpl_hash(m->text.p, m->text.len, level);
	uint32_t id = tmpl_intern(&pc->tt, m->text.p, m->text.len, level, hash);
	/* Keys of lines with an identifier or hex value are nearly all unique:
	 * remembering them would only fill the table. */
	if (pc->keys.n < MAX_KEYS && mask_cacheable(m)) {
		k = tmpl_intern(&pc->keys, key->p, key->len, level, kh);
		GROW(pc->key_tid, pc->key_cap, pc->keys.n);
		pc->key_tid[k] = id;
	}
	return id;
}

static void *piece_run(void *arg)
{
	struct piece *pc = arg;
	const struct log *lg = pc->lg;
	const char *data = lg->in.data;
	struct buf scratch = { 0 }, key = { 0 };
	struct masked m = { 0 };
	struct line ln;
	struct header h;
	size_t pos = pc->begin;
	tmpl_init(&pc->tt);
	tmpl_init(&pc->keys);
	while (input_next_line(data, pc->end, &pos, &ln, &scratch)) {
		uint32_t bar = TMPL_NONE;
		if (ln.bar_len && (pc->flags & LOG_FULL)) {
			/* Masked before the line: both live in scratch. */
			prefix_parse_in(&lg->order, ln.bar, ln.bar_len, &h);
			bar = piece_template(pc, ln.bar + h.msg_off, ln.bar_len - h.msg_off, h.level, &m, &key);
			struct tmpl *t = &pc->tt.t[bar];
			if (t->count++ == 0)
				t->first_line = pc->n;
		}
		prefix_parse_in(&lg->order, ln.text, ln.len, &h);
		uint32_t id = piece_template(pc, ln.text + h.msg_off, ln.len - h.msg_off, h.level,
					     &m, &key);
		struct tmpl *t = &pc->tt.t[id];
		if (t->count++ == 0)
			t->first_line = pc->n;
		piece_push(pc, id, bar, &ln, &h);
		/* The first piece stands for all: the pieces are of a size. */
		if (pc->show_progress && (pc->n & 0xffff) == 0)
			progress_update((uint64_t)((double)(pos - pc->begin) * (double)lg->in.size /
						   (double)(pc->end - pc->begin)), lg->in.size);
	}
	buf_free(&scratch);
	buf_free(&key);
	masked_free(&m);
	tmpl_free(&pc->keys);
	free(pc->key_tid);
	pc->key_tid = NULL;
	return NULL;
}

/* The header format and the year for year-less timestamps, from the first
 * lines of the file. */
static void detect(struct log *lg, int64_t *year_ms)
{
	const char *lines[SAMPLE_LINES];
	size_t lens[SAMPLE_LINES], n = 0;
	struct buf scratch[SAMPLE_LINES];
	memset(scratch, 0, sizeof(scratch));
	struct line ln;
	/* Half the sample from the head (where the year and the engine's
	 * startup are), half spread over the rest: a server's log is mostly
	 * request lines in another format than its startup. */
	size_t pos = 0;
	for (int part = 0; part < SAMPLE_PARTS && pos < lg->in.size; part++) {
		size_t want = part == 0 ? SAMPLE_LINES / 2 : SAMPLE_LINES / 2 / (SAMPLE_PARTS - 1);
		size_t at = lg->in.size / SAMPLE_PARTS * (size_t)part;
		/* Parts never overlap, so no line votes twice. */
		if (at > pos) {
			pos = at;
			const char *nl = memchr(lg->in.data + pos, '\n', lg->in.size - pos);
			pos = nl ? (size_t)(nl - lg->in.data) + 1 : lg->in.size;
		}
		for (size_t k = 0; k < want && n < SAMPLE_LINES &&
		     input_next_line(lg->in.data, lg->in.size, &pos, &ln, &scratch[n]); k++) {
			lines[n] = ln.text;
			lens[n++] = ln.len;
		}
	}
	lg->format = prefix_detect(lines, lens, n, &lg->order);
	int year = 0;
	for (size_t i = 0; i < n && !year; i++) {
		struct header h;
		prefix_parse_in(&lg->order, lines[i], lens[i], &h);
		if (h.ts_ms != TS_NONE && !h.ts_no_year)
			year = year_of_time((time_t)(h.ts_ms / 1000));
	}
	if (!year)
		year = year_of_time(lg->in.mtime);
	*year_ms = prefix_year_offset_ms(year);
	for (size_t i = 0; i < SAMPLE_LINES; i++)
		buf_free(&scratch[i]);
}

/* One file of a folder run, as log_open_run reads it: its lines' raw
 * extents and the times they sort by. */
struct run_file {
	const char *path;
	struct input in;
	int failed;
	size_t n;
	uint64_t *off;         /* raw line start in in.data */
	int64_t *key;          /* ms: the line's time, else that of the last
				  line before it with one; TS_NONE before
				  the first, but for a traceback there
				  (run_file_scan) */
	uint8_t *own;          /* the line has a time of its own */
	int timed;             /* some line has a time */
	uint64_t head;         /* hash of its first line's template */
	int64_t death;         /* key of its first error line (an error
				  level, or the untimed traceback it starts
				  with), else TS_NONE */
};

/* How a Python traceback starts (classify.c reads tracebacks; a file's
 * first line is all a folder's merge needs to know of one). */
#define TRACEBACK "Traceback (most recent call last)"

/* Open rf and find its lines and their times (the header format is the
 * file's own: a folder may mix formats).  A FIFO or a device in a folder
 * is refused: a run's files are complete, and reading one would block. */
static void run_file_scan(struct run_file *rf)
{
	if (input_open_file(&rf->in, rf->path, 0) < 0) {
		rf->failed = 1;
		return;
	}
	struct log probe = { .in = rf->in };
	int64_t year_ms;
	detect(&probe, &year_ms);
	struct buf scratch = { 0 };
	struct line ln;
	struct header h;
	size_t pos = 0, cap = 0;
	int64_t last = TS_NONE;
	int error_head = 0;
	size_t first_error = SIZE_MAX;
	while (input_next_line(rf->in.data, rf->in.size, &pos, &ln, &scratch)) {
		if (rf->n == cap) {
			size_t c = cap;
			GROW(rf->off, c, rf->n + 1);
			rf->key = xrealloc(rf->key, c * sizeof(*rf->key));
			rf->own = xrealloc(rf->own, c * sizeof(*rf->own));
			cap = c;
		}
		prefix_parse_in(&probe.order, ln.text, ln.len, &h);
		if (h.ts_ms != TS_NONE) {
			last = h.ts_no_year ? h.ts_ms + year_ms : h.ts_ms;
			rf->timed = 1;
		}
		if (rf->n == 0) {
			struct masked m = { 0 };
			mask_message(ln.text + h.msg_off, ln.len - h.msg_off, &m);
			rf->head = hash_bytes(m.text.p, m.text.len);
			masked_free(&m);
		}
		if (rf->n == 0 && h.ts_ms == TS_NONE)
			error_head = ln.len - h.msg_off >= sizeof(TRACEBACK) - 1 &&
				     memcmp(ln.text + h.msg_off, TRACEBACK, sizeof(TRACEBACK) - 1) == 0;
		if (first_error == SIZE_MAX && h.level >= LV_ERROR)
			first_error = rf->n;
		rf->off[rf->n] = ln.offset;
		rf->own[rf->n] = h.ts_ms != TS_NONE;
		rf->key[rf->n++] = last;
	}
	/* A traceback before the file's first time (a stderr file that
	 * stamps only the warning after it) was written with what that time
	 * stamps, not before every line of the other files: it takes that
	 * time.  Other lines there (a banner, untimed prints) go first. */
	size_t head = 0;
	while (error_head && head < rf->n && !rf->own[head])
		head++;
	for (size_t i = 0; i < head && head < rf->n; i++)
		rf->key[i] = rf->key[head];
	if (error_head && head < rf->n)
		first_error = 0;
	rf->death = first_error < rf->n ? rf->key[first_error] : TS_NONE;
	/* Read again when merged: meanwhile its pages need not be ours. */
	input_drop(&rf->in, rf->in.size);
	buf_free(&scratch);
}

struct run_scan {
	struct run_file *files;
	size_t n;
	atomic_size_t next;
};

static void *run_scan_worker(void *arg)
{
	struct run_scan *rs = arg;
	for (size_t i; (i = atomic_fetch_add(&rs->next, 1)) < rs->n;)
		run_file_scan(&rs->files[i]);
	return NULL;
}

/* Length of rf's raw line i, without its newline. */
static size_t run_line_len(const struct run_file *rf, size_t i)
{
	size_t end = i + 1 < rf->n ? rf->off[i + 1] - 1 : rf->in.size;
	if (i + 1 == rf->n && end > rf->off[i] && rf->in.data[end - 1] == '\n')
		end--;
	return end - rf->off[i];
}

/* Whether file a's next line goes before file b's: the earlier time;
 * at the same time, a line stamped with it before one that only follows
 * such a line (a traceback's, written after its file's stamped line and
 * likely after the other files' lines of that moment); then the file
 * first in order. */
static int run_before(const struct run_file *fs, const size_t *at, size_t a, size_t b)
{
	int64_t ka = fs[a].key[at[a]], kb = fs[b].key[at[b]];
	if (ka != kb)
		return ka < kb;
	int oa = fs[a].own[at[a]], ob = fs[b].own[at[b]];
	return oa != ob ? oa > ob : a < b;
}

static void heap_down(size_t *heap, size_t n, size_t i, const struct run_file *fs,
		      const size_t *at)
{
	for (;;) {
		size_t m = i, l = 2 * i + 1, r = l + 1;
		if (l < n && run_before(fs, at, heap[l], heap[m]))
			m = l;
		if (r < n && run_before(fs, at, heap[r], heap[m]))
			m = r;
		if (m == i)
			return;
		size_t t = heap[i];
		heap[i] = heap[m];
		heap[m] = t;
		i = m;
	}
}

/* Whether files a and b lie in one folder (a rank's stdout.log and
 * stderr.log in torchrun's log folder). */
static int siblings(const char *a, const char *b)
{
	const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');
	return sa && sb && sa - a == sb - b && memcmp(a, b, (size_t)(sa - a)) == 0;
}

/* A file without any time beside a timed sibling (a process's
 * stdout.log beside its stderr.log) is that process's other stream:
 * it was written while the process lived, so before it died.  Its lines
 * are dated just before the sibling's first error (an error is what a
 * process prints as it dies), else at the sibling's last time, so that
 * the merge puts the process's output ahead of its death, not after
 * every timed file, and the same way in a good run and a bad one. */
static void date_by_death(struct run_file *fs, size_t nf)
{
	for (size_t f = 0; f < nf; f++)
		for (size_t g = 0; g < nf && fs[f].n && !fs[f].timed; g++)
			if (g != f && fs[g].timed && siblings(fs[f].path, fs[g].path)) {
				int64_t at = fs[g].death != TS_NONE ? fs[g].death - 1
								    : fs[g].key[fs[g].n - 1];
				for (size_t i = 0; i < fs[f].n; i++)
					fs[f].key[i] = at;
				fs[f].timed = 1;
			}
}

/* The order of the merged lines, as (file, line) pairs into o: files
 * with times interleaved by time (stable: a file's lines keep their
 * order; see run_before for ties; lines before a file's first
 * time go first, as a launcher's banner does, but for a traceback), then
 * the files without any time, whole, in order. */
static void run_order(struct run_file *fs, size_t nf, struct input_origin *o)
{
	date_by_death(fs, nf);
	size_t *at = xcalloc(nf ? nf : 1, sizeof(*at));
	size_t *heap = xmalloc((nf ? nf : 1) * sizeof(*heap));
	size_t nh = 0, k = 0;
	for (size_t f = 0; f < nf; f++)
		if (fs[f].n && fs[f].timed)
			heap[nh++] = f;
	for (size_t i = nh / 2; i-- > 0;)
		heap_down(heap, nh, i, fs, at);
	while (nh) {
		size_t f = heap[0];
		o->file[k] = (uint32_t)f;
		o->line[k++] = (uint32_t)++at[f];
		if (at[f] == fs[f].n)
			heap[0] = heap[--nh];
		heap_down(heap, nh, 0, fs, at);
	}
	for (size_t f = 0; f < nf; f++)
		if (fs[f].n && !fs[f].timed)
			for (size_t i = 0; i < fs[f].n; i++) {
				o->file[k] = (uint32_t)f;
				o->line[k++] = (uint32_t)i + 1;
			}
	free(at);
	free(heap);
}

/* Lines [from, to) of a merge, copied into data from pos on by a thread. */
struct run_copy_part {
	const struct run_file *fs;
	size_t nf;
	const struct input_origin *o;
	char *data;
	size_t from, to, pos;
};

static void *run_copy_part(void *arg)
{
	struct run_copy_part *p = arg;
	/* Each file is read front to back: what was copied is let go as it
	 * goes, so the merge holds little more than its result.  (A page
	 * another part still needs is read back from the file.) */
	size_t pos = p->pos, *dropped = xcalloc(p->nf, sizeof(*dropped));
	for (size_t k = p->from; k < p->to; k++) {
		uint32_t f = p->o->file[k];
		const struct run_file *rf = &p->fs[f];
		size_t i = p->o->line[k] - 1, len = run_line_len(rf, i);
		memcpy(p->data + pos, rf->in.data + rf->off[i], len);
		pos += len;
		p->data[pos++] = '\n';
		if (rf->off[i] - dropped[f] >= DROP_STEP) {
			input_drop(&rf->in, rf->off[i]);
			dropped[f] = rf->off[i];
		}
	}
	free(dropped);
	return NULL;
}

/* Copy the lines in o's order into data, each with a newline, in nt
 * parts of as many lines run by as many threads. */
static void run_copy(const struct run_file *fs, size_t nf, const struct input_origin *o,
		     char *data, int nt)
{
	struct run_copy_part parts[MAX_THREADS];
	pthread_t tids[MAX_THREADS];
	size_t pos = 0;
	for (int t = 0; t < nt; t++) {
		struct run_copy_part *p = &parts[t];
		*p = (struct run_copy_part){ .fs = fs, .nf = nf, .o = o, .data = data,
					     .from = o->nlines / (size_t)nt * (size_t)t,
					     .to = t + 1 < nt ? o->nlines / (size_t)nt * (size_t)(t + 1)
							      : o->nlines,
					     .pos = pos };
		for (size_t k = p->from; k < p->to; k++)
			pos += run_line_len(&fs[o->file[k]], o->line[k] - 1) + 1;
	}
	for (int t = 1; t < nt; t++)
		if (pthread_create(&tids[t], NULL, run_copy_part, &parts[t]) != 0)
			die("cannot start a thread");
	run_copy_part(&parts[0]);
	for (int t = 1; t < nt; t++)
		pthread_join(tids[t], NULL);
}

/* When file rf began: its first line's own time, else TS_NONE.  A file
 * whose first line has no time cannot say so: a rank's output that is
 * timed only at its end (torch's warnings) began long before that. */
static int64_t start_time(const struct run_file *rf)
{
	return rf->n && rf->own[0] ? rf->key[0] : TS_NONE;
}

struct file_span {
	int64_t from, to;      /* its start and its last time */
};

static int span_cmp(const void *a, const void *b)
{
	int64_t x = ((const struct file_span *)a)->from, y = ((const struct file_span *)b)->from;
	return (x > y) - (x < y);
}

/* How many whole runs files fs[0..nf) hold: as many as files when each
 * starts as the others do (the same template first) and their times do
 * not overlap (each ends before the next begins: a job run again, a
 * service restarted, each into its own file), else 1.  A run's streams
 * (ranks, stdout beside stderr) overlap in time; a rotated log's later
 * files begin mid-run, with another line; files not dated at their
 * start (start_time) cannot tell and are one run. */
static size_t whole_runs(const struct run_file *fs, size_t nf)
{
	struct file_span *sp = xmalloc((nf ? nf : 1) * sizeof(*sp));
	size_t m = 0, runs = 0;
	const struct run_file *first = NULL;
	for (size_t f = 0; f < nf; f++) {
		if (!fs[f].n)
			continue;
		if (!first)
			first = &fs[f];
		int64_t from = start_time(&fs[f]);
		if (from == TS_NONE || fs[f].head != first->head)
			goto one;
		sp[m++] = (struct file_span){ from, fs[f].key[fs[f].n - 1] };
	}
	qsort(sp, m, sizeof(*sp), span_cmp);
	for (size_t i = 1; i < m; i++)
		if (sp[i].from < sp[i - 1].to)
			goto one;
	runs = m;
one:
	free(sp);
	return runs < 2 ? 1 : runs;
}

/* Merge folder dir's files into in (see log_open_run). */
static int open_folder(struct input *in, const char *dir, int threads, unsigned flags)
{
	char **paths;
	size_t nf;
	if (input_list_folder(dir, &paths, &nf) < 0)
		return -1;
	if (nf == 0) {
		free(paths);
		return error("cannot read '%s': a folder without files", dir);
	}
	struct run_scan rs = { .files = xcalloc(nf, sizeof(struct run_file)), .n = nf };
	for (size_t i = 0; i < nf; i++)
		rs.files[i].path = paths[i];
	int nt = threads < 1 ? 1 : threads > MAX_THREADS ? MAX_THREADS : threads;
	if ((size_t)nt > nf)
		nt = (int)nf;
	pthread_t tids[MAX_THREADS];
	for (int t = 1; t < nt; t++)
		if (pthread_create(&tids[t], NULL, run_scan_worker, &rs) != 0)
			die("cannot start a thread");
	run_scan_worker(&rs);
	for (int t = 1; t < nt; t++)
		pthread_join(tids[t], NULL);
	int rc = 0;
	size_t nlines = 0, size = 0;
	time_t mtime = 0;
	for (size_t f = 0; f < nf; f++) {
		struct run_file *rf = &rs.files[f];
		if (rf->failed) {
			rc = -1;
			continue;
		}
		nlines += rf->n;
		for (size_t i = 0; i < rf->n; i++)
			size += run_line_len(rf, i) + 1;
		if (rf->in.mtime > mtime)
			mtime = rf->in.mtime;
	}
	if (rc == 0 && (size > RUN_MAX_SIZE || nlines > UINT32_MAX))
		rc = error("cannot read '%s': too large (over %zu GiB in all)", dir,
			   RUN_MAX_SIZE >> 30);
	size_t runs = rc == 0 && !(flags & LOG_ONE_RUN) ? whole_runs(rs.files, nf) : 1;
	/* Names as the user knows them: relative to the folder. */
	size_t skip = strlen(dir) + (dir[strlen(dir) - 1] == '/' ? 0 : 1);
	if (runs > 1)
		rc = error("cannot read '%s' as one run: its %zu files each start the run, one after "
			   "another (%s, %s%s): give them as logs of their own, or --one-run to read "
			   "them as one", dir, runs, paths[0] + skip, paths[1] + skip,
			   runs > 2 ? ", ..." : "");
	struct input_origin *o = NULL;
	char *data = NULL;
	if (rc == 0) {
		o = xcalloc(1, sizeof(*o));
		o->nfiles = nf;
		o->files = xcalloc(nf, sizeof(*o->files));
		o->nlines = nlines;
		o->file = xmalloc((nlines ? nlines : 1) * sizeof(*o->file));
		o->line = xmalloc((nlines ? nlines : 1) * sizeof(*o->line));
		run_order(rs.files, nf, o);
		data = malloc(size ? size : 1);
		if (!data)
			rc = error("cannot read '%s': %zu MiB do not fit in memory", dir, size >> 20);
	}
	if (rc == 0) {
		/* Threads as for one log: past a few MiB each. */
		size_t ct = size / MIN_PIECE + 1;
		run_copy(rs.files, nf, o, data, ct < (size_t)nt ? (int)ct : nt);
		for (size_t f = 0; f < nf; f++)
			o->files[f] = xstrdup(paths[f] + skip);
	}
	for (size_t f = 0; f < nf; f++) {
		struct run_file *rf = &rs.files[f];
		if (!rf->failed)
			input_close(&rf->in);
		free(rf->off);
		free(rf->key);
		free(rf->own);
		free(paths[f]);
	}
	free(rs.files);
	free(paths);
	if (rc == 0 && input_from_memory(in, dir, data, size, mtime) == 0) {
		in->origin = o;
		return 0;
	}
	input_origin_free(o);
	return -1;
}

int log_open_run(struct input *in, const char *path, int threads, unsigned flags)
{
	if (!input_is_folder(path))
		return input_open(in, path, 0);
	memset(in, 0, sizeof(*in));
	return open_folder(in, path, threads, flags);
}

int log_run_holds(const struct input *run, const char *dir, const struct stat *st)
{
	const struct input_origin *o = run->origin;
	for (size_t f = 0; o && f < o->nfiles; f++) {
		char *p = xasprintf("%s/%s", dir, o->files[f]);
		struct stat fs;
		int same = stat(p, &fs) == 0 && fs.st_dev == st->st_dev && fs.st_ino == st->st_ino;
		free(p);
		if (same)
			return 1;
	}
	return 0;
}

const char *log_origin(const struct log *lg, size_t i, size_t *line)
{
	const struct input_origin *o = lg->in.origin;
	if (!o || i >= o->nlines)
		return NULL;
	*line = o->line[i];
	return o->files[o->file[i]];
}

/* A folder's file name without its folder-free extensions: the stream
 * name for a file whose lines name none ("node0/rank-3.log.gz" gives
 * "node0/rank-3"). */
static char *file_stem(const char *name)
{
	size_t n = strlen(name);
	static const char *const comp[] = { ".gz", ".zst" };
	for (size_t k = 0; k < sizeof(comp) / sizeof(*comp); k++) {
		size_t c = strlen(comp[k]);
		if (n > c && strcmp(name + n - c, comp[k]) == 0)
			n -= c;
	}
	const char *slash = memrchr(name, '/', n);
	const char *dot = memrchr(slash ? slash + 1 : name, '.', n - (size_t)(slash ? slash + 1 - name : 0));
	if (dot && dot > (slash ? slash + 1 : name))
		n = (size_t)(dot - name);
	char *stem = xmalloc(n + 1);
	memcpy(stem, name, n);
	stem[n] = '\0';
	return stem;
}

/* In a folder of several files whose lines name no stream (no tag in
 * any), each file is a stream of its own, named after the file: per-rank
 * logs without a rank in their lines still read as ranks.  Where lines
 * carry tags, those name the streams, and an untagged file (a launcher's)
 * stays untagged, as it would be in one file holding them all. */
static void tag_files(struct log *lg)
{
	const struct input_origin *o = lg->in.origin;
	if (!o || o->nfiles < 2 || !lg->tag)
		return;
	for (size_t i = 0; i < lg->nlines; i++)
		if (lg->tag[i])
			return;
	uint16_t *stem = xcalloc(o->nfiles, sizeof(*stem));
	for (size_t f = 0; f < o->nfiles; f++) {
		char *s = file_stem(o->files[f]);
		size_t t = 1;
		while (t < lg->ntags && strcmp(lg->tags[t], s) != 0)
			t++;
		if (t >= lg->ntags && t < UINT16_MAX) {
			/* tags[0] stands for no tag and is never read. */
			lg->ntags = t;
			lg->tags = xrealloc(lg->tags, (lg->ntags + 1) * sizeof(*lg->tags));
			lg->tags[0] = NULL;
			lg->tags[lg->ntags++] = s;
		} else {
			free(s);
		}
		stem[f] = t < UINT16_MAX ? (uint16_t)t : 0;
	}
	for (size_t i = 0; i < lg->nlines; i++)
		lg->tag[i] = stem[o->file[i]];
	free(stem);
}

/* A rank a program prints itself at the start of its lines ("[rank0]
 * step 1", a tag that keeps its brackets: prefix.c) names a stream only
 * where the log holds several ranks: the untagged lines of a log with
 * one are that process's other prints, of the same stream. */
static void drop_lone_rank(struct log *lg)
{
	size_t bare = 0, nbare = 0;
	for (size_t t = 1; t < lg->ntags && nbare < 2; t++)
		if (lg->tags[t][0] == '[')
			bare = t, nbare++;
	if (!lg->tag || nbare != 1)
		return;
	for (size_t i = 0; i < lg->nlines; i++)
		if (lg->tag[i] == bare)
			lg->tag[i] = 0;
}

static void piece_free(struct piece *pc)
{
	tmpl_free(&pc->tt);
	free(pc->tid);
	free(pc->bar);
	free(pc->offset);
	free(pc->ts);
	free(pc->level);
	free(pc->tag);
	tagset_free(&pc->tags, 1);
}

/* Append piece pc's bars (ids already tt's) to lg's, which exist once a
 * piece has one: TMPL_NONE for the lines of those that have none. */
static void merge_bars(struct log *lg, const struct piece *pc)
{
	size_t n = lg->nlines;
	if (!pc->bar && !lg->bar)
		return;
	int fresh = !lg->bar;
	lg->bar = xrealloc(lg->bar, (n + pc->n ? n + pc->n : 1) * sizeof(*lg->bar));
	for (size_t i = 0; fresh && i < n; i++)
		lg->bar[i] = TMPL_NONE;
	for (size_t i = 0; i < pc->n; i++)
		lg->bar[n + i] = pc->bar ? pc->bar[i] : TMPL_NONE;
}

/* Append piece pc's lines to lg, translating local ids into tt's and
 * local tags into tags, the log's. */
static void merge(struct log *lg, struct piece *pc, struct tmpl_table *tt,
		  struct tagset *tags, int only)
{
	uint32_t *remap = xmalloc((pc->tt.n ? pc->tt.n : 1) * sizeof(*remap));
	for (size_t id = 0; id < pc->tt.n; id++) {
		struct tmpl *lt = &pc->tt.t[id];
		uint32_t g = tmpl_intern(tt, lt->text, lt->len, lt->level, lt->hash);
		struct tmpl *gt = &tt->t[g];
		if (gt->count == 0) {
			gt->first_line = lg->nlines + lt->first_line;
			gt->first_file = (uint32_t)lg->index;
		}
		gt->count += lt->count;
		remap[id] = g;
	}
	uint16_t *tagmap = xmalloc((pc->tags.n ? pc->tags.n : 1) * sizeof(*tagmap));
	tagmap[0] = 0;
	for (size_t i = 1; i < pc->tags.n; i++)
		tagmap[i] = tagset_index(tags, pc->tags.tags[i], strlen(pc->tags.tags[i]));
	for (size_t i = 0; i < pc->n; i++)
		pc->tid[i] = remap[pc->tid[i]];
	for (size_t i = 0; pc->bar && i < pc->n; i++)
		if (pc->bar[i] != TMPL_NONE)
			pc->bar[i] = remap[pc->bar[i]];
	merge_bars(lg, pc);
	if (pc->flags & LOG_FULL)
		for (size_t i = 0; i < pc->n; i++)
			pc->tag[i] = tagmap[pc->tag[i]];
	free(remap);
	free(tagmap);
	if (only) {
		/* One piece: take its arrays as they are. */
		lg->tid = pc->tid, pc->tid = NULL;
		lg->offset = pc->offset, pc->offset = NULL;
		lg->ts = pc->ts, pc->ts = NULL;
		lg->level = pc->level, pc->level = NULL;
		lg->tag = pc->tag, pc->tag = NULL;
	} else {
		size_t n = lg->nlines;
		lg->tid = xrealloc(lg->tid, (n + pc->n) * sizeof(*lg->tid));
		memcpy(lg->tid + n, pc->tid, pc->n * sizeof(*lg->tid));
		if (pc->flags & LOG_FULL) {
			lg->offset = xrealloc(lg->offset, (n + pc->n) * sizeof(*lg->offset));
			lg->ts = xrealloc(lg->ts, (n + pc->n) * sizeof(*lg->ts));
			lg->level = xrealloc(lg->level, (n + pc->n) * sizeof(*lg->level));
			lg->tag = xrealloc(lg->tag, (n + pc->n) * sizeof(*lg->tag));
			memcpy(lg->offset + n, pc->offset, pc->n * sizeof(*lg->offset));
			memcpy(lg->ts + n, pc->ts, pc->n * sizeof(*lg->ts));
			memcpy(lg->level + n, pc->level, pc->n * sizeof(*lg->level));
			memcpy(lg->tag + n, pc->tag, pc->n * sizeof(*lg->tag));
		}
	}
	lg->nlines += pc->n;
}

int log_load(struct log *lg, const char *path, int index, unsigned flags,
	     int threads, struct tmpl_table *tt)
{
	struct input in;
	if (log_open_run(&in, path, threads, flags) < 0) {
		memset(lg, 0, sizeof(*lg));
		return -1;
	}
	log_load_input(lg, &in, index, flags, threads, tt);
	return 0;
}

void log_load_input(struct log *lg, struct input *in, int index, unsigned flags,
		    int threads, struct tmpl_table *tt)
{
	memset(lg, 0, sizeof(*lg));
	lg->index = index;
	lg->in = *in;
	int64_t year_ms;
	detect(lg, &year_ms);
	if (threads < 1)
		threads = 1;
	if (threads > MAX_THREADS)
		threads = MAX_THREADS;
	if ((size_t)threads > lg->in.size / MIN_PIECE + 1)
		threads = (int)(lg->in.size / MIN_PIECE + 1);
	size_t starts[MAX_THREADS + 1];
	int np = input_split(lg->in.data, lg->in.size, threads, starts);
	struct piece *pcs = xcalloc((size_t)(np ? np : 1), sizeof(*pcs));
	pthread_t tids[MAX_THREADS];
	progress_start("reading", lg->in.path);
	for (int i = 0; i < np; i++) {
		pcs[i] = (struct piece){ .lg = lg, .begin = starts[i], .end = starts[i + 1],
					 .flags = flags, .year_ms = year_ms,
					 .show_progress = i == 0 };
		if (i > 0 && pthread_create(&tids[i], NULL, piece_run, &pcs[i]) != 0)
			die("cannot start a thread");
	}
	if (np > 0)
		piece_run(&pcs[0]);
	for (int i = 1; i < np; i++)
		pthread_join(tids[i], NULL);
	progress_end();
	struct tagset tags = { 0 };
	for (int i = 0; i < np; i++) {
		merge(lg, &pcs[i], tt, &tags, np == 1);
		piece_free(&pcs[i]);
	}
	lg->tags = tags.tags;
	lg->ntags = tags.n;
	tagset_free(&tags, 0);
	free(pcs);
	drop_lone_rank(lg);
	tag_files(lg);
	/* A line without a timestamp (an NCCL INFO line, a bare print, a
	 * traceback) was written after the last line that had one: timing
	 * (steps, gaps, silence) takes that time for it.  So does a line
	 * stamped less than a second before it: two loggers of one program
	 * that stamp in whole seconds and in milliseconds ("07:22:26" after
	 * "07:22:26,470") wrote in order, and time does not run back. */
	if (lg->ts) {
		lg->when = xmalloc((lg->nlines ? lg->nlines : 1) * sizeof(*lg->when));
		int64_t last = TS_NONE;
		for (size_t i = 0; i < lg->nlines; i++) {
			int64_t t = lg->ts[i];
			if (t != TS_NONE && (last == TS_NONE || t > last || last - t >= 1000))
				last = t;
			lg->when[i] = last;
		}
	}
}

void log_free(struct log *lg)
{
	if (!lg)
		return;
	input_close(&lg->in);
	free(lg->tid);
	free(lg->bar);
	free(lg->offset);
	free(lg->ts);
	free(lg->when);
	free(lg->level);
	free(lg->tag);
	for (size_t i = 1; i < lg->ntags; i++)
		free(lg->tags[i]);
	free(lg->tags);
	memset(lg, 0, sizeof(*lg));
}

void log_line(const struct log *lg, size_t i, struct line *ln, struct header *h,
	      struct buf *scratch)
{
	size_t pos = lg->offset[i];
	input_next_line(lg->in.data, lg->in.size, &pos, ln, scratch);
	prefix_parse_in(&lg->order, ln->text, ln->len, h);
}

char *log_message(const struct log *lg, size_t i)
{
	struct buf scratch = { 0 };
	struct line ln;
	struct header h;
	log_line(lg, i, &ln, &h, &scratch);
	char *s = xmalloc(ln.len - h.msg_off + 1);
	memcpy(s, ln.text + h.msg_off, ln.len - h.msg_off);
	s[ln.len - h.msg_off] = '\0';
	buf_free(&scratch);
	return s;
}

double log_span_s(const struct log *lg, size_t from, size_t to)
{
	if (to < from || lg->when[from] == TS_NONE || lg->when[to] == TS_NONE)
		return NAN;
	size_t k = to;
	while (k > from && lg->ts[k] == TS_NONE)
		k--;
	if (k == from && to != from)
		return NAN;
	return (double)(lg->when[to] - lg->when[from]) / 1000.0;
}
