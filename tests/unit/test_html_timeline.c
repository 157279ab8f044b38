/* test_html_timeline.c — the HTML picture's clock: a timestamp far out of
 * line with the lines around it (a day off, another zone's clock) is not
 * trusted, and a real gap or a long last silence is. */
#include <math.h>

#include "html.h"
#include "html_impl.h"
#include "log.h"
#include "test.h"

#define MIN 60000LL
#define DAY (24 * 60 * MIN)

/* Seconds since the start of line i of a log whose lines have times t. */
static double at(const int64_t *t, size_t n, size_t i)
{
	struct log lg = { 0 };
	lg.nlines = n;
	lg.when = (int64_t *)t;
	return since_start(&lg, (int64_t)i);
}

int main(void)
{
	/* One line dated a day late among lines a minute apart: it counts as
	 * the line before it, and the run still ends 4 minutes in. */
	int64_t spike[] = { 0, MIN, DAY + 2 * MIN, 3 * MIN, 4 * MIN };
	CHECK(at(spike, 5, 2) == 60);
	CHECK(at(spike, 5, 4) == 240);
	/* Two lines of another zone's clock (5 hours ahead) together. */
	int64_t zone[] = { 0, MIN, 300 * MIN + 2 * MIN, 300 * MIN + 3 * MIN, 4 * MIN, 5 * MIN };
	CHECK(at(zone, 6, 2) == 60 && at(zone, 6, 3) == 60);
	CHECK(at(zone, 6, 5) == 300);
	/* A first line later than what follows is no start. */
	int64_t first[] = { DAY, 0, MIN, 2 * MIN };
	CHECK(at(first, 4, 3) == 120);
	/* A two-hour gap is the run's, and so is a last line a day after
	 * the rest (a run silent for a day, then killed). */
	int64_t gap[] = { 0, MIN, 120 * MIN, 121 * MIN, 122 * MIN };
	CHECK(at(gap, 5, 2) == 120 * 60);
	int64_t late[] = { 0, MIN, 2 * MIN, DAY };
	CHECK(at(late, 4, 3) == DAY / 1000);
	/* Lines without times stay without. */
	int64_t none[] = { 0, TS_NONE, MIN };
	CHECK(isnan(at(none, 3, 1)));
	return test_report();
}
