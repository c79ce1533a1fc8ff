/* prairielearn.c - `cugrade export prairielearn`: a PrairieLearn question
 * folder. info.json (v3, external grading), question.html (the handout's
 * opening, a file editor for the student's file started from the stub, the
 * grader's results), the stub, tests/ (the grading script run.sh, its
 * results helper, the hidden datasets' secret and the lab's reference: tests/
 * stays on the server), and the external grader image: Dockerfile and
 * image/cugrade/ (the cugrade tree without the reference). */
#include "export/export.h"
#include "export/export_tree.h"
#include "util/util.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

/* The grading's wall time: lab 3 takes seconds on the executor, an endless
 * kernel costs the rubric's budget (90 s) once, plus building. */
#define PL_TIMEOUT_S 300

/* A random (version 4) UUID. */
static void new_uuid(char *out, size_t len)
{
    unsigned char b[16] = {0};
    if (getrandom(b, sizeof b, 0) != (ssize_t)sizeof b)
        for (size_t i = 0; i < sizeof b; i++)
            b[i] = (unsigned char)rand();
    b[6] = (unsigned char)((b[6] & 0x0f) | 0x40);
    b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);
    snprintf(out, len,
             "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
             b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
             b[14], b[15]);
}

static char *info_json(const export_job_t *j)
{
    char uuid[40], image[128];
    new_uuid(uuid, sizeof uuid);
    snprintf(image, sizeof image, "cugrade-pl-%s", j->lab.name);
    json_object *o = json_object_new_object(), *tags = json_object_new_array();
    json_object_object_add(o, "uuid", json_object_new_string(uuid));
    json_object_object_add(o, "title", json_object_new_string(j->lab.title));
    json_object_object_add(o, "topic", json_object_new_string("CUDA"));
    json_object_array_add(tags, json_object_new_string("cuda"));
    json_object_array_add(tags, json_object_new_string("cugrade"));
    json_object_array_add(tags, json_object_new_string(j->lab.name));
    json_object_object_add(o, "tags", tags);
    json_object_object_add(o, "type", json_object_new_string("v3"));
    json_object_object_add(o, "gradingMethod", json_object_new_string("External"));
    json_object_object_add(o, "singleVariant", json_object_new_boolean(1));
    json_object *ext = json_object_new_object();
    json_object_object_add(ext, "enabled", json_object_new_boolean(1));
    json_object_object_add(ext, "image", json_object_new_string(image));
    json_object_object_add(ext, "entrypoint", json_object_new_string("/grade/tests/run.sh"));
    json_object_object_add(ext, "timeout", json_object_new_int(PL_TIMEOUT_S));
    json_object_object_add(o, "externalGradingOptions", ext);
    strbuf_t sb = {0};
    sb_append(&sb, json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
                                                         JSON_C_TO_STRING_NOSLASHESCAPE));
    sb_append(&sb, "\n");
    json_object_put(o);
    return sb_detach(&sb);
}

/* One line of the handout, HTML-escaped, with `code` as <code> and **this**
 * as <strong>. */
static void html_line(strbuf_t *sb, const char *s, size_t n)
{
    int code = 0, strong = 0;
    for (size_t i = 0; i < n; i++) {
        if (!code && s[i] == '*' && i + 1 < n && s[i + 1] == '*') {
            sb_append(sb, strong ? "</strong>" : "<strong>");
            strong = !strong;
            i++;
            continue;
        }
        switch (s[i]) {
        case '<': sb_append(sb, "&lt;"); break;
        case '>': sb_append(sb, "&gt;"); break;
        case '&': sb_append(sb, "&amp;"); break;
        case '"': sb_append(sb, "&quot;"); break;
        case '`': sb_append(sb, code ? "</code>" : "<code>"); code = !code; break;
        default: sb_appendn(sb, s + i, 1);
        }
    }
    if (code)
        sb_append(sb, "</code>");
    if (strong)
        sb_append(sb, "</strong>");
}

/* A handout line as html_line writes it, the checkout's path of the file
 * (student/<lab>/matmul.cu) named as the question's editor names it
 * (matmul.cu): there is no student/ folder in PrairieLearn. */
static void editor_line(strbuf_t *sb, const char *s, size_t n, const char *lab)
{
    char prefix[128];
    snprintf(prefix, sizeof prefix, "student/%s/", lab);
    size_t k = strlen(prefix);
    strbuf_t line = {0};
    for (size_t i = 0; i < n; i++) {
        if (i + k <= n && strncmp(s + i, prefix, k) == 0)
            i += k - 1;
        else
            sb_appendn(&line, s + i, 1);
    }
    html_line(sb, line.buf ? line.buf : "", line.len);
    sb_free(&line);
}

/* The handout's opening (labs/<lab>/README.md up to its first "## "), as
 * paragraphs. */
static void handout_summary(const export_job_t *j, strbuf_t *sb)
{
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/README.md", j->lab.dir);
    char *text = read_file(path, NULL, NULL, 0);
    int open = 0;
    for (const char *p = text ? text : ""; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        if (strncmp(p, "## ", 3) == 0)
            break;
        if (n == 0 || p[0] == '#') {
            if (open)
                sb_append(sb, "</p>\n");
            open = 0;
        } else {
            sb_append(sb, open ? "\n" : "  <p>");
            editor_line(sb, p, n, j->lab.name);
            open = 1;
        }
        p += n + (nl ? 1 : 0);
    }
    if (open)
        sb_append(sb, "</p>\n");
    free(text);
}

static char *question_html(const export_job_t *j)
{
    strbuf_t sb = {0};
    sb_append(&sb, "<pl-question-panel>\n  <h2>");
    html_line(&sb, j->lab.title, strlen(j->lab.title));
    sb_append(&sb, "</h2>\n");
    handout_summary(j, &sb);
    int emu = strcmp(export_backend(j->o), "emu") == 0;
    sb_appendf(&sb,
               "  <p>Graded without a GPU, %s: the public and hidden datasets, and the %s's "
               "checks.</p>\n</pl-question-panel>\n\n",
               emu ? "on cugrade's CPU emulator" : "by cugrade's executor, which runs the PTX nvcc makes of your kernels",
               emu ? "emulator" : "executor");
    sb_appendf(&sb,
               
               "<pl-file-editor file-name=\"%s\" ace-mode=\"ace/mode/c_cpp\" "
               "source-file-name=\"%s\"></pl-file-editor>\n\n"
               "<pl-submission-panel>\n  <pl-external-grader-results></pl-external-grader-results>\n"
               "  <pl-file-preview></pl-file-preview>\n</pl-submission-panel>\n",
               j->lab.student_file, j->lab.student_file);
    return sb_detach(&sb);
}

static int write_generated(const export_job_t *j, char *err, size_t errlen)
{
    char *info = info_json(j), *html = question_html(j);
    int rc = export_write(j, "info.json", info, 0644, err, errlen);
    if (rc == 0)
        rc = export_write(j, "question.html", html, 0644, err, errlen);
    free(info);
    free(html);
    return rc;
}

/* The reference goes to tests/ (private to the course), not into the image. */
static int move_reference(const export_job_t *j, char *err, size_t errlen)
{
    char src[PATH_MAX], dst[PATH_MAX], in_image[2 * PATH_MAX];
    snprintf(src, sizeof src, "reference/%s", j->lab.name);
    snprintf(dst, sizeof dst, "tests/reference/%s", j->lab.name);
    if (export_copy_file(j, src, dst, err, errlen) != 0)
        return -1;
    snprintf(in_image, sizeof in_image, "%s/image/cugrade/reference/%s", j->stage, j->lab.name);
    rm_rf(in_image);
    return 0;
}

int export_prairielearn(const export_opts_t *o, char *err, size_t errlen)
{
    export_job_t j;
    if (export_begin(o, &j, err, errlen) != 0)
        return -1;
    char stub[PATH_MAX];
    snprintf(stub, sizeof stub, "student/%s/%s", j.lab.name, j.lab.student_file);
    if (write_generated(&j, err, errlen) != 0 ||
        export_copy_file(&j, stub, j.lab.student_file, err, errlen) ||
        export_template(&j, "prairielearn/run.sh", "tests/run.sh", 0755, err, errlen) ||
        export_template(&j, "prairielearn/pl_results.py", "tests/pl_results.py", 0644, err,
                        errlen) ||
        export_template(&j, "prairielearn/Dockerfile", "Dockerfile", 0644, err, errlen) ||
        export_copy_tree(&j, "image/cugrade", 1, err, errlen) || move_reference(&j, err, errlen) ||
        export_copy_secret(&j, "tests/hidden-seed", err, errlen)) {
        export_abort(&j);
        return -1;
    }
    return export_finish_dir(&j, err, errlen);
}
