/* html_frame.c — the frame every HTML page shares: its head (the
 * Content-Security-Policy, the style sheet for light, dark and print),
 * its footer, and the escaping every byte of log text and every name
 * goes through (html_text), so nothing from a log becomes markup.  The
 * footer flushes the page, so that a write error is found where it
 * happened. */
#include "html.h"

#include <stdlib.h>
#include <string.h>

#include "html_impl.h"
#include "input.h"
#include "util.h"

const struct outfile_kind html_page_kind = { "<!DOCTYPE html", "an HTML page", 1 };

void html_text(FILE *f, const char *s, size_t n)
{
	/* put_text's escapes first (a page is read, and copied, as a terminal
	 * is), then entities for the five characters HTML gives meaning.
	 * They are ASCII, so cutting s at them never splits a UTF-8
	 * sequence, and put_text sees every other byte as it would unsplit. */
	static const char special[] = "&<>\"'";
	static const char *const entity[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&#39;" };
	size_t i = 0;
	while (i < n) {
		size_t run = i;
		while (run < n && (s[run] == '\0' || !strchr(special, s[run])))
			run++;
		put_text(f, s + i, run - i);
		if (run < n)
			fputs(entity[strchr(special, s[run]) - special], f), run++;
		i = run;
	}
}

void html_str(FILE *f, const char *s)
{
	html_text(f, s, strlen(s));
}

void html_short(FILE *f, const char *s, size_t n, size_t max)
{
	if (n <= max) {
		html_text(f, s, n);
		return;
	}
	size_t k = max;
	while (k > 0 && ((unsigned char)s[k] & 0xc0) == 0x80)
		k--;
	html_text(f, s, k);
	fputs("…", f);
}

void put_dur(FILE *f, double s)
{
	char b[48];
	fmt_seconds(b, sizeof(b), s);
	fputs(b, f);
}

/* ---- the page around the content ---- */

static const char style[] =
	":root{--fg:#1f2328;--mute:#656d76;--bg:#fff;--card:#f6f8fa;--line:#d0d7de;"
	"--good:#1a7f37;--bad:#cf222e;--warn:#9a6700;--info:#0969da;--slow:#fff1c2;"
	"--lane:#8c959f;--badlane:#d4a72c;--hl:#fff8c5}\n"
	"@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--mute:#8d96a0;--bg:#0d1117;"
	"--card:#161b22;--line:#30363d;--good:#3fb950;--bad:#f85149;--warn:#d29922;"
	"--info:#58a6ff;--slow:#3d2e00;--lane:#6e7681;--badlane:#bb8009;--hl:#2f2a10}}\n"
	"*{box-sizing:border-box}\n"
	"body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:72em;padding:1em;"
	"color:var(--fg);background:var(--bg);overflow-wrap:anywhere}\n"
	"h1{font-size:1.05em;margin:0 0 .4em}h2{font-size:1.05em;margin:1.6em 0 .5em;"
	"border-bottom:1px solid var(--line);padding-bottom:.2em}\n"
	".card{background:var(--card);border:1px solid var(--line);border-left:6px solid var(--v);"
	"border-radius:6px;padding:.8em 1em}\n"
	".verdict{font-weight:700;color:var(--v);letter-spacing:.04em}\n"
	".v-same{--v:var(--good)}.v-different{--v:var(--warn)}.v-stopped{--v:var(--warn)}"
	".v-crashed{--v:var(--bad)}.v-diverged{--v:var(--bad)}.v-failed{--v:var(--bad)}"
	".v-interrupted{--v:var(--warn)}.v-running{--v:var(--warn)}\n"
	".cause{--v:var(--info);margin-top:.8em}.cause h2{margin:0 0 .4em;border:0}.cause p{margin:.3em 0}\n"
	"dl{display:grid;grid-template-columns:max-content 1fr;gap:.1em 1em;margin:.6em 0 0}"
	"dt{color:var(--mute)}dd{margin:0}\n"
	"table{border-collapse:collapse;width:100%;font-size:.92em}"
	"th,td{text-align:left;vertical-align:top;padding:.2em .5em;border-bottom:1px solid var(--line)}"
	"th{color:var(--mute);font-weight:600;overflow-wrap:normal}td.n{text-align:right;white-space:nowrap}\n"
	"code,pre{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace}\n"
	"pre{background:var(--card);border:1px solid var(--line);border-radius:6px;padding:.5em;"
	"white-space:pre-wrap;overflow-wrap:anywhere;margin:.4em 0}\n"
	"pre .l{display:block}pre .l:target{background:var(--hl)}"
	"pre a{color:var(--mute);text-decoration:none}pre .gap{color:var(--mute)}\n"
	".error{color:var(--bad)}.warning{color:var(--warn)}.info{color:var(--info)}"
	".mark{background:var(--hl)}\n"
	"a{color:var(--info)}.mute{color:var(--mute)}\n"
	/* The picture's text is 11 of its 1000 units: never narrower than
	 * 920 px keeps it 10 px high at least, its box scrolling instead. */
	".pic{overflow-x:auto}"
	"svg{width:100%;min-width:920px;height:auto;display:block;font:11px system-ui,sans-serif}"
	"svg text{fill:var(--fg)}svg .axis{fill:var(--mute)}"
	"svg .grid{stroke:var(--line)}svg .bar{fill:var(--lane)}svg .bar.bad{fill:var(--badlane)}"
	"svg .join{stroke:var(--lane);fill:none;stroke-dasharray:3 2}"
	"svg .tick{stroke:var(--fg);stroke-width:2}svg .tick.final{stroke:var(--good);stroke-width:3}"
	"svg .tick.miss{stroke:var(--bad)}"
	"svg .slowband{fill:var(--bad);opacity:.35}svg .silence{stroke:var(--bad);stroke-dasharray:5 4;"
	"stroke-width:2}svg .crash{fill:var(--bad)}svg .end{fill:var(--fg)}svg text.hot{fill:var(--bad)}\n"
	"details>summary{cursor:pointer;color:var(--info)}\n"
	"footer{color:var(--mute);font-size:.85em;margin-top:2em}\n"
	"@media print{body{max-width:none;font-size:11pt}pre{break-inside:auto}"
	"svg{break-inside:avoid;min-width:0}a{color:inherit}}\n";

void page_head(FILE *f, const char *title)
{
	/* A run's folder knows the page by this head (input_list_folder). */
	fputs(INPUT_DDX_PAGE_HEAD, f);
	html_str(f, title);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", style);
}

int page_foot(FILE *f, const char **paths, size_t n, int against)
{
	fputs("<footer>ddx " DDX_VERSION ": ", f);
	if (against) {
		html_str(f, paths[--n]);
		fputs(" against ", f);
	}
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ", " : "", f);
		html_str(f, paths[i]);
	}
	free(paths);
	fputs("</footer>\n</body>\n</html>\n", f);
	/* Flushed here, so that a write error (a full disk) is found with
	 * its errno still the write's. */
	return fflush(f) != 0 || ferror(f) ? -1 : 0;
}
