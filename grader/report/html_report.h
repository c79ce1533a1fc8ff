/* html_report.h - the HTML reports. A student's page (report.html) is
 * rendered from that student's results.json: the score, every test with its
 * output (HTML-escaped: student output is untrusted) and the error map of
 * each failing dataset as an inline PNG. The class page is in html_class.h.
 * Every page is one self-contained file: inline CSS, data: URIs, no network.
 * The helpers every page shares are html_common.h's. */
#ifndef CUGRADE_HTML_REPORT_H
#define CUGRADE_HTML_REPORT_H

#include <stddef.h>

#include "compare/compare.h"
#include "report/html_common.h"
#include "report/results.h"
#include "util/util.h"

struct json_object;

/* The student page of one results.json object. who names the submission
 * in the title (the student id, or the file); class_href, if not NULL, is
 * the link back to the class page. Caller frees. */
char *html_student_page(struct json_object *results, const char *who, const char *class_href);

/* Reads results_path, renders it, writes html_path atomically. */
int html_write_student_page(const char *results_path, const char *who, const char *html_path,
                            const char *class_href, char *err, size_t errlen);

/* The page of a grade just produced (`cugrade run --html FILE`). */
int html_write_grade_page(const grade_t *g, const char *who, const char *html_path, char *err,
                          size_t errlen);

#endif
