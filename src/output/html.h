/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Self-contained HTML pages (report --html, compare --html): the page
 * frame with its inline CSS and script, escaping, and the pieces every
 * page uses. Nothing is loaded from elsewhere: the page opens offline.
 */
#ifndef MMTOP_HTML_H
#define MMTOP_HTML_H

#include <stdbool.h>
#include <stdio.h>

/*
 * @s as HTML text, safe in element content and quoted attributes alike:
 * markup characters become entities, and what is not plain UTF-8 text
 * (control characters, bytes that are not UTF-8) becomes \xNN, as the
 * text sinks print it. Process names are whatever a user chose.
 */
void html_text(FILE *f, const char *s);

/* <!DOCTYPE html> ... <body>, the page's heading and @subtitle. */
void html_page_begin(FILE *f, const char *title, const char *subtitle);
/* The page's end, flushed: 0, or -errno of a write that failed. */
int html_page_end(FILE *f);
/* A section with an anchor, for the page's table of contents. */
void html_section(FILE *f, const char *id, const char *title);
void html_section_end(FILE *f);
/* A paragraph of explanation (escaped). */
void html_note(FILE *f, const char *text);
/* Preformatted text (escaped), e.g. the text report. */
void html_pre(FILE *f, const char *text);

#endif
