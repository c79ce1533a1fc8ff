/* html_common.c - what every HTML page of the reports shares (html_common.h):
 * the page's start with the common style, escaping, URL segments, numbers,
 * and the error map's picture and key. */
#include "report/html_common.h"

#include <stdlib.h>
#include <string.h>

#include "report/png.h"

static const char base_css[] =
    ":root{--bg:#f4f5f8;--line:#dde1e8;--ink:#1c2230;--muted:#5b6474;--pass:#1e8449;"
    "--passbg:#e3f3e8;--fail:#c0392b;--failbg:#fbe6e4;--skip:#8b93a1}"
    "*{box-sizing:border-box}"
    "body{margin:0;background:var(--bg);color:var(--ink);"
    "font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif}"
    "header{background:#1d2943;color:#fff;padding:18px 0 16px}"
    "header h1{margin:0;font-size:22px;font-weight:600}"
    "header .sub{color:#c3cce0;margin-top:3px}"
    "header a{color:#cfe0ff}"
    ".wrap{max-width:1240px;margin:0 auto;padding:0 24px}"
    "main.wrap{padding-top:18px;padding-bottom:40px}"
    "h2{font-size:16px;margin:0 0 10px}"
    ".card{background:#fff;border:1px solid var(--line);border-radius:8px;padding:12px 16px}"
    "pre{white-space:pre-wrap;word-break:break-word;margin:0;"
    "font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,'DejaVu Sans Mono',monospace}"
    ".badge{display:inline-block;min-width:46px;text-align:center;border-radius:4px;"
    "padding:1px 6px;font-size:12px;font-weight:700;color:#fff;letter-spacing:.03em}"
    ".badge.pass{background:var(--pass)}.badge.fail{background:var(--fail)}"
    ".badge.skip{background:var(--skip)}"
    "img.map,img.thumb{image-rendering:crisp-edges;image-rendering:pixelated;"
    "border:1px solid #c9ced8;background:#fff}"
    ".legend{color:var(--muted);font-size:12.5px}"
    ".key{display:inline-block;width:11px;height:11px;border-radius:2px;vertical-align:-1px;"
    "margin:0 4px 0 10px}.legend .key:first-child{margin-left:0}"
    ".key.right{background:#d5e3d8;border:1px solid #b3c4b7}.key.wrong{background:#d62728}"
    ".key.unwritten{background:#2e123d}";

void html_escape(strbuf_t *sb, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '&': sb_append(sb, "&amp;"); break;
        case '<': sb_append(sb, "&lt;"); break;
        case '>': sb_append(sb, "&gt;"); break;
        case '"': sb_append(sb, "&quot;"); break;
        case '\'': sb_append(sb, "&#39;"); break;
        default:
            if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F)
                sb_append(sb, "&#xFFFD;");
            else
                sb_appendn(sb, s, 1);
        }
    }
}

void html_url_segment(strbuf_t *sb, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
            strchr("-._~", c))
            sb_appendn(sb, s, 1);
        else
            sb_appendf(sb, "%%%02X", c);
    }
}

void html_number(strbuf_t *sb, double v) { sb_appendf(sb, "%g", v); }

void html_error_map_img(strbuf_t *sb, const error_map_t *m, int max_px, const char *cls,
                        const char *alt)
{
    if (!m || m->map_rows <= 0 || m->map_cols <= 0)
        return;
    int side = m->map_rows > m->map_cols ? m->map_rows : m->map_cols;
    int scale = max_px / side > 1 ? max_px / side : 1;
    char *uri = png_error_map_uri(m, scale);
    if (!uri)
        return;
    sb_appendf(sb, "<img class=\"%s\" width=\"%d\" height=\"%d\" alt=\"", cls,
               m->map_cols * scale, m->map_rows * scale);
    html_escape(sb, alt);
    sb_appendf(sb, "\" src=\"%s\">", uri);
    free(uri);
}

void html_error_map_legend(strbuf_t *sb)
{
    sb_append(sb, "<span class=\"legend\"><span class=\"key right\"></span>all right"
                  "<span class=\"key wrong\"></span>some wrong"
                  "<span class=\"key unwritten\"></span>some never written</span>");
}

void html_page_start(strbuf_t *sb, const char *title, const char *extra_css)
{
    sb_append(sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                  "<title>");
    html_escape(sb, title);
    sb_appendf(sb, "</title>\n<style>%s%s</style>\n</head>\n<body>\n", base_css,
               extra_css ? extra_css : "");
}
