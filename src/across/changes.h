/* changes.h — values that changed between a bad line and the good line
 * it matches: a setting in a configuration dump, a size or time that
 * moved far more than it does between good runs.
 *
 * Each template is compared once, on its first line in bad that follows
 * the good run; only those few lines (and, for the templates whose values
 * differ, their first line in each good log) are re-read and masked.
 * Only named values count (key=value, "key: value"): an unnamed number is
 * a pid, a count, a rank as often as it is a setting; values that differ
 * by nature (seeds, ports, ids, dates) never count. */
#ifndef DDX_CHANGES_H
#define DDX_CHANGES_H

#include <stddef.h>
#include <stdint.h>

#include "diagnosis.h"
#include "log.h"
#include "mask.h"
#include "util.h"

/* A number changed when it moved by this factor ... */
#define CHANGES_FACTOR 2.0
/* ... a setting in a configuration dump by this one. */
#define CHANGES_CONFIG_FACTOR 1.01
/* "key value" pairs with no '=' or ':' name values in lines of this many
 * of them ("rank 0 nranks 2 cudaDev 0"). */
#define SPACED_PAIRS 3

struct changes_input {
	const struct log *logs;   /* the good logs, logs[0..ngood) */
	size_t ngood;
	size_t good;              /* the good log bad is compared with */
	const struct log *bad;
	const int64_t *first;     /* [g * nc + c]: first line of template c in good log g, or -1 */
	size_t nc;
	const uint32_t *bad_id;   /* bad's canonical template id per line */
	const uint8_t *follow;    /* bad's line follows the good run */
	const uint32_t *b2g;      /* bad's line -> the good line it matches */
	const uint32_t *const *ids;  /* ids[g][j]: template of good log g's line j */
	const uint16_t *bad_stream;  /* bad's stream per line */
	const uint16_t *good_stream; /* logs[good]'s stream per line */
	char *const *names;       /* stream names, shared by all logs */
	const char *const *ctext; /* each template's text */
	const uint8_t *sev;       /* each template's severity (enum dx_severity) */
};

/* The changes of bad against logs[good], in bad's line order: the values
 * of each template's first line in bad that follows the good run, against
 * the good line it matches when both are of one stream; and the
 * environment settings (NCCL_SOCKET_IFNAME) of info lines no good run
 * printed.  Into a new array *out of *n entries; the caller frees it and each entry's fields. */
void changes_find(const struct changes_input *in, struct dx_change **out, size_t *n);

/* One masked message, the side of a comparison. */
struct changes_side {
	struct buf scratch;   /* the line's text, when re-read */
	struct masked m;
	const char *msg;
	size_t len;
	int spaced;           /* "key value" pairs name its numbers */
};

/* Mask message msg[0..len) into sd (zeroed first); msg must outlive sd.
 * Free with changes_side_free. */
void changes_side_text(struct changes_side *sd, const char *msg, size_t len);
void changes_side_free(struct changes_side *sd);

/* The key of sd's value k: the mask's key, else the word before '=' or
 * ': ' ("tp_size: 4"; "host:48170" is none), else in a line of "key
 * value" pairs the word before it, else an environment variable named
 * right before it ("NCCL_SOCKET_IFNAME set by environment to bogus0");
 * a key starts with a letter.  *n = 0 when it has none. */
void changes_value_key(const struct changes_side *sd, size_t k, const char **key, size_t *n);

/* Whether key is an environment variable's name (NCCL_SOCKET_IFNAME). */
int changes_env_key(const char *key, size_t n);

/* The value of b whose key is that of a's value k (its n-th, when the
 * key repeats): dicts list keys in any order, reworded lines move them.
 * SIZE_MAX when b has none. */
size_t changes_partner(const struct changes_side *a, const struct changes_side *b, size_t k);

/* What a line is named by, for the report ("server_args"; "" for
 * none): see changes.c.  malloc'd. */
char *changes_line_label(const char *msg, size_t len);

/* How many of sd's values have a key. */
size_t changes_keyed(const struct changes_side *sd);

/* The number a value's text says: "67,024" -> 67024, "4.5 GB" -> 4.5e9,
 * "12ms" -> 0.012. */
double changes_number(const char *s, size_t n);

/* The factor between the magnitudes of a and b, at least 1 (INFINITY when
 * one is zero and the other not). */
double changes_ratio(double a, double b);

/* Whether key names a value that differs between runs by nature (seed,
 * pid, port, uuid, ...) or is no name at all ("is", "of"). */
int changes_volatile_key(const char *key, size_t n);

/* Whether value k of bad, against good's value of the same key, is a
 * change worth reporting.  keyed: how many of bad's values are named
 * (four or more make a configuration dump, where every setting counts);
 * vary[j] and spread[j], indexed by good's value: whether the good runs
 * differ in the value as a word, and by what factor as a number (NULL:
 * they agree). */
int changes_value_changed(const struct changes_side *bad, const struct changes_side *good, size_t k,
			  size_t keyed, const uint8_t *vary, const double *spread);

#endif
