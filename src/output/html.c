// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>

#include "html.h"
#include "util.h"

/* The series colours and the page's, per theme (CSS custom properties). */
static const char light_vars[] =
	"--bg:#ffffff;--fg:#1d1d1f;--dim:#5f6368;--grid:#e3e3e3;--axis:#888;"
	"--panel:#f6f7f9;--hl:rgba(0,0,0,.08);--gap:rgba(160,160,160,.25);"
	"--c0:#1f6fb4;--c1:#c62828;--c2:#2e8b2e;--c3:#e07000;--c4:#7b4fb0;"
	"--c5:#8c564b;--c6:#d0428f;--c7:#0f8fa0;--mark:#c62828;";
static const char dark_vars[] =
	"--bg:#131416;--fg:#e4e4e6;--dim:#a0a4aa;--grid:#2e3034;--axis:#777;"
	"--panel:#1c1e21;--hl:rgba(255,255,255,.10);--gap:rgba(120,120,120,.30);"
	"--c0:#5aa9e6;--c1:#ff6b6b;--c2:#5cd65c;--c3:#ffa94d;--c4:#b197fc;"
	"--c5:#d4a373;--c6:#f783ac;--c7:#3bc9db;--mark:#ff8787;";

static const char style[] =
	"*{box-sizing:border-box}"
	"body{margin:0 auto;max-width:1240px;padding:8px 16px 40px;background:var(--bg);"
	"color:var(--fg);font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif}"
	"h1{font-size:1.5em;margin:.4em 0 .1em}h2{font-size:1.2em;margin:1.6em 0 .4em;"
	"border-bottom:1px solid var(--grid)}h3{font-size:1em;margin:1em 0 .2em}"
	".sub,.note,figcaption .what{color:var(--dim)}.note{margin:.3em 0}"
	"nav{display:flex;flex-wrap:wrap;gap:.2em 1.2em}a{color:var(--c0)}"
	"#theme{float:right;margin-top:.6em;background:var(--panel);color:var(--fg);"
	"border:1px solid var(--grid);border-radius:4px;padding:2px 10px;cursor:pointer}"
	"figure{margin:.8em 0 1.4em}figcaption{font-weight:600}"
	".wide{overflow-x:auto}"
	"svg.plot{display:block;width:100%;height:auto;min-width:520px}"
	"svg.plot text{fill:var(--fg);font-size:13px;font-family:inherit}"
	"svg.plot .tick{fill:var(--dim);font-size:12px}"
	".grid{stroke:var(--grid);stroke-width:1}.frame{stroke:var(--axis);fill:none}"
	".line{fill:none;stroke-width:1.6;stroke-linejoin:round}.dash{stroke-dasharray:6 3}"
	".gap{fill:var(--gap)}.hov rect{fill:transparent}.hov rect:hover{fill:var(--hl)}"
	".pt{stroke-width:1.2}.hollow{fill:none!important}.bar{stroke:none}"
	".s0{stroke:var(--c0);fill:var(--c0)}.s1{stroke:var(--c1);fill:var(--c1)}"
	".s2{stroke:var(--c2);fill:var(--c2)}.s3{stroke:var(--c3);fill:var(--c3)}"
	".s4{stroke:var(--c4);fill:var(--c4)}.s5{stroke:var(--c5);fill:var(--c5)}"
	".s6{stroke:var(--c6);fill:var(--c6)}.s7{stroke:var(--c7);fill:var(--c7)}"
	".line.s0,.line.s1,.line.s2,.line.s3,.line.s4,.line.s5,.line.s6,.line.s7{fill:none}"
	"ul.legend{list-style:none;padding:0;margin:.2em 0;display:flex;flex-wrap:wrap;gap:.2em 1.2em;"
	"font-size:.9em}ul.legend svg{width:22px;height:10px;vertical-align:middle;margin-right:4px}"
	"table{border-collapse:collapse;font-size:.9em;margin:.4em 0}"
	"th,td{padding:3px 8px;border-bottom:1px solid var(--grid);text-align:right;white-space:nowrap}"
	"th{background:var(--panel)}td.t,th.t{text-align:left}"
	".sig{color:var(--mark);font-weight:700}.foreign{color:var(--mark)}"
	"pre{background:var(--panel);padding:8px;overflow-x:auto;font-size:12.5px;line-height:1.3}"
	/* Plots shrink to a phone's width: larger text keeps their ticks readable. */
	"@media (max-width:600px){body{padding:6px;font-size:14px}"
	"svg.plot text{font-size:17px}svg.plot .tick{font-size:16px}}";

/* Theme: the reader's preference, the button, or #dark / #light in the URL. */
static const char script[] =
	"(function(){var d=document.documentElement;"
	"function set(t){d.setAttribute('data-theme',t)}"
	"if(location.hash=='#dark'||location.hash=='#light')set(location.hash.slice(1));"
	"var b=document.getElementById('theme');if(b)b.onclick=function(){"
	"var t=d.getAttribute('data-theme')||(matchMedia('(prefers-color-scheme: dark)')"
	".matches?'dark':'light');set(t=='dark'?'light':'dark')}})();";

/* Characters that are markup in element content or attribute values. */
static const char *const entities[128] = {
	['<'] = "&lt;", ['>'] = "&gt;", ['&'] = "&amp;", ['"'] = "&quot;", ['\''] = "&#39;",
};

static void put_char(FILE *f, const char *s, int n, bool plain, unsigned int cp)
{
	int i;

	if (!plain) {
		for (i = 0; i < n; i++)
			fprintf(f, "\\x%02x", (unsigned char)s[i]);
	} else if (cp < 128 && entities[cp]) {
		fputs(entities[cp], f);
	} else {
		fwrite(s, 1, n, f);
	}
}

/* Newlines kept in preformatted text; everything else escaped alike. */
static void escape(FILE *f, const char *s, bool keep_newlines)
{
	unsigned int cp;
	bool plain;
	int n;

	for (; (n = text_char(s, &plain, &cp)); s += n)
		put_char(f, s, n, plain || (keep_newlines && cp == '\n'), cp);
}

void html_text(FILE *f, const char *s)
{
	escape(f, s, false);
}

void html_page_begin(FILE *f, const char *title, const char *subtitle)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\n"
	      "<meta name=\"generator\" content=\"mmtop " MMTOP_VERSION "\">\n<title>", f);
	html_text(f, title);
	fprintf(f, "</title>\n<style>:root{%s}@media (prefers-color-scheme:dark){"
		":root:not([data-theme=light]){%s}}:root[data-theme=dark]{%s}%s</style>\n"
		"</head><body>\n<button id=\"theme\" type=\"button\">light / dark</button>\n<h1>",
		light_vars, dark_vars, dark_vars, style);
	html_text(f, title);
	fputs("</h1>\n<p class=\"sub\">", f);
	html_text(f, subtitle);
	fputs("</p>\n", f);
}

int html_page_end(FILE *f)
{
	fprintf(f, "<p class=\"note\">Made by mmtop %s; see mmtop(8).</p>\n"
		"<script>%s</script>\n</body></html>\n", MMTOP_VERSION, script);
	/* A write that failed on the way (a full disk) left its errno. */
	if (fflush(f) || ferror(f))
		return errno ? -errno : -EIO;
	return 0;
}

void html_section(FILE *f, const char *id, const char *title)
{
	fprintf(f, "<section id=\"%s\"><h2>", id);
	html_text(f, title);
	fputs("</h2>\n", f);
}

void html_section_end(FILE *f)
{
	fputs("</section>\n", f);
}

void html_note(FILE *f, const char *text)
{
	fputs("<p class=\"note\">", f);
	html_text(f, text);
	fputs("</p>\n", f);
}

void html_pre(FILE *f, const char *text)
{
	fputs("<div class=\"wide\"><pre>", f);
	escape(f, text, true);
	fputs("</pre></div>\n", f);
}
