/* html_common.h - the helpers every HTML page of the reports shares (the
 * student's, html_report.h; the class's, html_class.h; the roofline's
 * picture, html_roofline.h): the page's start and common style, escaping,
 * and the error map's picture. */
#ifndef CUGRADE_HTML_COMMON_H
#define CUGRADE_HTML_COMMON_H

#include "compare/compare.h"
#include "util/util.h"

/* Text as HTML: & < > " ' become entities, control characters other than
 * newline and tab become U+FFFD; safe in element content and quoted
 * attributes. */
void html_escape(strbuf_t *sb, const char *s);
/* One URL path segment: everything but A-Z a-z 0-9 - . _ ~ percent-encoded. */
void html_url_segment(strbuf_t *sb, const char *s);
/* An <img> of the error map, at most max_px pixels a side (at least one
 * pixel a cell), shown with crisp pixels. Nothing when m has no map. */
void html_error_map_img(strbuf_t *sb, const error_map_t *m, int max_px, const char *cls,
                        const char *alt);
/* The colour key of the error map. */
void html_error_map_legend(strbuf_t *sb);
/* <!DOCTYPE html> ... <body>, with the shared style and extra_css. */
void html_page_start(strbuf_t *sb, const char *title, const char *extra_css);
/* A number as the reports print it (%g). */
void html_number(strbuf_t *sb, double v);

#endif
