/* json.c — the one JSON writer (see json.h for the forms). */
#include "json.h"

#include <math.h>
#include <string.h>

#include "prefix.h"
#include "util.h"

void json_str(FILE *f, const char *s)
{
	if (s)
		put_json_string(f, s, strlen(s));
	else
		fputs("null", f);
}

void json_str_or_null(FILE *f, const char *s, size_t n)
{
	if (s && n)
		put_json_string(f, s, n);
	else
		fputs("null", f);
}

void json_strs(FILE *f, char *const *v, size_t n)
{
	fputc('[', f);
	for (size_t k = 0; k < n; k++) {
		if (k)
			fputs(", ", f);
		json_str(f, v[k]);
	}
	fputc(']', f);
}

void json_num(FILE *f, double x, int decimals)
{
	if (isnan(x) || isinf(x))
		fputs("null", f);
	else
		fprintf(f, "%.*f", decimals, x);
}

void json_line(FILE *f, int64_t i)
{
	if (i < 0)
		fputs("null", f);
	else
		fprintf(f, "%lld", (long long)i + 1);
}

void json_time(FILE *f, int64_t ms)
{
	if (ms == TS_NONE) {
		fputs("null", f);
		return;
	}
	char s[PREFIX_TS_SIZE];
	prefix_format_ts(ms, s);
	fprintf(f, "\"%s\"", s);
}
