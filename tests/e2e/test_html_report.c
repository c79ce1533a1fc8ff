/* test_html_report.c - end to end: the pictures of the report. The error
 * map of the integer-division grid (intdiv_grid.cu) in results.json (only on
 * failing datasets; never-written cells only in the last rows and columns of
 * cells), its terminal picture under the first failing dataset, `run
 * --html`; a batch's class.html and report.html files (one row per student,
 * every link pointing at a file that exists); and, when Debian's chromium is
 * installed, the class page in a headless browser: sorted by the URL hash,
 * the histogram drawn, and a screenshot (build/class_report.png). Runs from
 * the repository root. */
#include "browser.h"

#include <sys/stat.h>

#define SCREENSHOT "build/class_report.png"
#define STUDENT_SCREENSHOT "build/student_report.png"

static json_object *error_map_of(json_object *test)
{
    json_object *extra, *map;
    if (!json_object_object_get_ex(test, "extra_data", &extra))
        return NULL;
    cr_assert(json_object_object_get_ex(extra, "error_map", &map), "extra_data without error_map");
    return map;
}

/* The map is rows x cols elements in cells; exactly the cells from cell row
 * first_row or cell column first_col on are never written, the rest right. */
static void assert_stripe_map(json_object *map, int rows, int cols, int map_rows, int map_cols,
                              int first_row, int first_col)
{
    cr_assert_not_null(map);
    cr_assert_eq((int)num(map, "rows"), rows);
    cr_assert_eq((int)num(map, "cols"), cols);
    cr_assert_eq((int)num(map, "map_rows"), map_rows);
    cr_assert_eq((int)num(map, "map_cols"), map_cols);
    const char *cells = str(map, "cells");
    cr_assert_eq(strlen(cells), (size_t)(map_rows * map_cols));
    for (int r = 0; r < map_rows; r++)
        for (int c = 0; c < map_cols; c++)
            cr_assert_eq(cells[r * map_cols + c], r >= first_row || c >= first_col ? 'o' : '.',
                         "cell (%d, %d) of the %dx%d map", r, c, map_rows, map_cols);
}

/* The lines of the terminal picture after its legend. */
static void picture_lines(const char *out, char lines[][64], int *n)
{
    const char *p = strstr(out, "error map of the 200x150 output");
    cr_assert_not_null(p, "no terminal picture:\n%s", out);
    p = strchr(p, '\n') + 1;
    while (strncmp(p, "             ", 13) == 0) /* the legend's wrapped lines */
        p = strchr(p, '\n') + 1;
    *n = 0;
    while (*n < 20 && strncmp(p, "           ", 11) == 0 && strchr(".xo", p[11])) {
        sscanf(p + 11, "%63s", lines[*n]);
        (*n)++;
        p = strchr(p, '\n') + 1;
    }
}

Test(html_report, intdiv_grid_error_maps_terminal_picture_and_html, .timeout = 300)
{
    char dir[] = "/tmp/cugrade-maps-XXXXXX", html[128], rubric[128];
    cr_assert_not_null(mkdtemp(dir));
    const char *shapes[] = {"16x16x16", "200x20x150", "40x7x33", NULL};
    make_datasets(dir, shapes);
    snprintf(html, sizeof html, "%s/report.html", dir);
    snprintf(rubric, sizeof rubric, "%s/rubric.json", dir); /* these three datasets only */
    write_text(rubric, "{\"version\": 1, \"labs\": {\"lab3\": {\"datasets\": {\"points\": 3.5},"
                       " \"hidden\": {\"count\": 0}}}}");
    const char *extra[] = {"--datasets", dir, "--rubric", rubric, "--checks", "none", "--html", html,
                           "--verbose", NULL};
    graded_t g = grade(SUB "intdiv_grid.cu", extra);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    json_object *d0 = test_named(&g, "dataset 0"), *d1 = test_named(&g, "dataset 1");
    json_object *d2 = test_named(&g, "dataset 2"), *v;
    cr_assert(passed(d0));
    cr_assert(!json_object_object_get_ex(d0, "extra_data", &v), "a passing dataset has no map");
    cr_assert(!json_object_object_get_ex(test_named(&g, "compiles"), "extra_data", &v));
    /* 200x150: cells of 4x3 elements; rows 192.. and columns 144.. unwritten */
    assert_stripe_map(error_map_of(d1), 200, 150, 50, 50, 48, 48);
    /* 40x33: one element a cell; rows 32.. and column 32 unwritten */
    assert_stripe_map(error_map_of(d2), 40, 33, 40, 33, 32, 32);

    const char *out = g.run.output;
    cr_assert_eq(strstr(strstr(out, "error map of the") + 1, "error map of the"), NULL,
                 "a picture only under the first failing dataset:\n%s", out);
    char lines[20][64];
    int n;
    picture_lines(out, lines, &n);
    cr_assert_eq(n, 13, "50 cell rows shown 4 to a line:\n%s", out);
    cr_assert_str_eq(lines[0], "........................o", "the unwritten columns on the right");
    cr_assert_str_eq(lines[12], "ooooooooooooooooooooooooo", "the unwritten rows at the bottom");

    /* the short report: the two datasets are one block, with a smaller picture */
    const char *short_extra[] = {"--datasets", dir, "--rubric", rubric, "--checks", "none", NULL};
    graded_t s = grade(SUB "intdiv_grid.cu", short_extra);
    cr_assert_eq(strstr(strstr(s.run.output, "error map of the") + 1, "error map of the"), NULL,
                 "%s", s.run.output);
    cr_assert(strstr(s.run.output, "FAIL      0/7    datasets 1, 2 (2 datasets)\n"), "%s",
              s.run.output);
    picture_lines(s.run.output, lines, &n);
    cr_assert_eq(n, 8, "50 cell rows shown 7 to a line:\n%s", s.run.output);
    cr_assert_str_eq(lines[7], "ooooooooooooooooooooooooo", "the unwritten rows at the bottom");
    release(&s);

    char printed[256];
    snprintf(printed, sizeof printed, "  report: %s\n", html);
    cr_assert(strstr(out, printed), "%s", out);
    char *page = read_file(html, NULL, NULL, 0);
    cr_assert_not_null(page);
    int uris = 0;
    for (const char *p = strstr(page, "data:image/png;base64,"); p; p = strstr(p + 1, "data:image/png;base64,"))
        uris++;
    cr_assert_eq(uris, 2, "one picture per failing dataset");
    free(page);
    release(&g);
    rm_rf(dir);
}

/* ---- a graded class --------------------------------------------------------------- */

#define NSTUDENTS 6
static const char *const students[NSTUDENTS][2] = {{"alice", "reference/lab3/matmul.cu"},
                                                   {"bob", SUB "intdiv_grid.cu"},
                                                   {"carol", SUB "compile_error.cu"},
                                                   {"dave", SUB "host_segfault.cu"},
                                                   {"eve", SUB "endless_kernel.cu"},
                                                   {"mallory", NULL}}; /* a damaged .zip */
/* 32 datasets: with a column each, the table would not fit 1400 pixels */
#define NSHAPES 32

typedef struct {
    char dir[64], out[128];
} klass_t;

static run_result_t run_batch(const klass_t *k, int resume)
{
    char subs[128], datasets[128], rubric[128];
    snprintf(subs, sizeof subs, "%s/subs", k->dir);
    snprintf(datasets, sizeof datasets, "%s/datasets", k->dir);
    snprintf(rubric, sizeof rubric, "%s/rubric.json", k->dir);
    char *argv[20] = {"bin/cugrade", "batch", "--lab", "lab3", "--out", (char *)k->out,
                      "--backend", "emu", "--checks", "none", "--datasets", datasets,
                      "--rubric", rubric};
    int n = 14;
    if (resume)
        argv[n++] = "--resume";
    argv[n++] = subs;
    argv[n] = NULL;
    run_spec_t spec = {.argv = argv, .timeout_s = 300, .output_cap = 1 << 20};
    run_result_t r;
    run_one(&spec, &r);
    cr_assert(r.exited && r.exit_code == 0, "batch failed:\n%s", r.output);
    return r;
}

static klass_t graded_class(void)
{
    klass_t k;
    snprintf(k.dir, sizeof k.dir, "/tmp/cugrade-class-XXXXXX");
    cr_assert_not_null(mkdtemp(k.dir));
    snprintf(k.out, sizeof k.out, "%s/results", k.dir);
    for (int i = 0; i < NSTUDENTS; i++) {
        char path[256];
        if (!students[i][1]) {
            snprintf(path, sizeof path, "%s/subs", k.dir);
            cr_assert_eq(mkdir_p(path, NULL, 0), 0);
            snprintf(path, sizeof path, "%s/subs/%s.zip", k.dir, students[i][0]);
            write_text(path, "PK\003\004 cut short");
            continue;
        }
        snprintf(path, sizeof path, "%s/subs/%s/lab3", k.dir, students[i][0]);
        cr_assert_eq(mkdir_p(path, NULL, 0), 0);
        snprintf(path, sizeof path, "%s/subs/%s/lab3/matmul.cu", k.dir, students[i][0]);
        copy_file_to(students[i][1], path);
    }
    char path[256], more[NSHAPES][16];
    const char *shapes[NSHAPES + 1] = {"16x16x16", "40x7x33"};
    for (int i = 2; i < NSHAPES; i++) { /* small: bob's intdiv_grid passes those 16 x 16 wide,
                                          * and its grid of 0 rows is refused on the others */
        snprintf(more[i], sizeof more[i], "%dx%dx16", i % 3 == 0 ? 1 + i % 5 : 16 * (1 + i % 2),
                 1 + i % 7);
        shapes[i] = more[i];
    }
    snprintf(path, sizeof path, "%s/datasets", k.dir);
    make_datasets(path, shapes);
    snprintf(path, sizeof path, "%s/rubric.json", k.dir);
    /* eve's endless kernel: stopped when her budget of 10 s is spent, the rest not run
     * (the others' 32 runs take about 1 s together) */
    write_text(path, "{\"version\": 1, \"labs\": {\"lab3\": {\"compile\": {\"name\": \"compiles\","
                     " \"points\": 0}, \"datasets\": {\"points\": 1, \"time_limit_s\": 5,"
                     " \"budget_s\": 10},"
                       " \"hidden\": {\"count\": 0}}}}");
    run_result_t r = run_batch(&k, 0);
    run_result_free(&r);
    return k;
}

static char *slurp(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *text = read_file(path, NULL, NULL, 0);
    cr_assert_not_null(text, "missing %s", path);
    return text;
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* Every href="..." of page (not an anchor in it) names a file under dir. */
static int assert_links_exist(const char *page, const char *dir)
{
    int n = 0;
    for (const char *p = strstr(page, "href=\""); p; p = strstr(p + 1, "href=\"")) {
        char target[256], path[512];
        p += 6;
        size_t len = strcspn(p, "\"#");
        cr_assert_lt(len, sizeof target);
        if (len == 0)
            continue; /* "#t3": this page */
        memcpy(target, p, len);
        target[len] = '\0';
        cr_assert_null(strchr(target, '%'), "ids here need no escaping: %s", target);
        snprintf(path, sizeof path, "%s/%s", dir, target);
        cr_assert(is_file(path), "link to %s, which does not exist", path);
        n++;
    }
    return n;
}

/* Student id's row of the class table (malloc'd). */
static char *row_of(const char *page, const char *id)
{
    char start[64];
    snprintf(start, sizeof start, "<tr data-id=\"%s\">", id);
    const char *p = strstr(page, start), *end = p ? strstr(p, "</tr>") : NULL;
    cr_assert_not_null(end, "no row for %s", id);
    return strndup(p, (size_t)(end - p));
}

/* Row id has status (its cell's data-v) and text somewhere in it. */
static void expect_row(const char *page, const char *id, const char *status, const char *text)
{
    char *row = row_of(page, id), cell[96];
    snprintf(cell, sizeof cell, "<td class=\"wraps st\" data-v=\"%s\">", status);
    cr_expect(strstr(row, cell), "%s: not '%s':\n%.3000s", id, status, row);
    cr_expect(strstr(row, text), "%s: no '%s':\n%.3000s", id, text, row);
    free(row);
}

Test(html_report, class_page_has_a_row_per_student_and_links_that_exist, .timeout = 300)
{
    klass_t k = graded_class();
    char *page = slurp(k.out, "class.html");
    cr_assert_eq(count(page, "<tr data-id="), NSTUDENTS);
    cr_assert_eq(assert_links_exist(page, k.out), NSTUDENTS + 4,
                 "a link per student, and to the first failure of bob, carol, dave and eve");
    /* a status for everyone, and the first failure's reason: none left empty */
    expect_row(page, "alice", "all passed", "<span class=\"n\">32/32</span>");
    expect_row(page, "bob", "11 tests failed", "<span class=\"n\">21/32</span>");
    expect_row(page, "carol", "did not compile", "<a href=\"carol/report.html#t0\">compiles</a>"
               "<span class=\"why\">matmul.cu:");
    expect_row(page, "carol", "did not compile", ": error: ");
    expect_row(page, "dave", "crashed", "dataset 0</a><span class=\"why\">the program crashed: "
               "killed by signal 11");
    expect_row(page, "eve", "timed out", "dataset 0</a><span class=\"why\">the program exceeded "
               "the time limit");
    expect_row(page, "mallory", "not graded", "<span class=\"why\">mallory.zip: ");
    cr_expect(strstr(page, "<i class=\"na\" title=\"dataset 1 (40x7x33): 0 / 1, not run\">"),
              "carol's datasets were not run: grey squares");
    cr_assert_null(strstr(page, "id=\"leaderboard\""), "the rubric has no performance test");
    cr_assert(strstr(page, "<a href=\"bob/report.html#t2\"><img class=\"thumb\""),
              "bob's thumbnail is the first failing dataset");
    cr_assert(strstr(page, "id=\"perf-none\""), "the emu backend times nothing: said so");
    cr_assert(strstr(page, "<div class=\"card bad\" id=\"n-no-compile\"><b>1</b>"));
    cr_assert(strstr(page, "<div class=\"card bad\" id=\"n-crashed\"><b>1</b>"));
    cr_assert_null(strstr(page, "http:"), "self-contained");
    cr_assert_null(strstr(page, "https:"));
    for (int i = 0; i < NSTUDENTS; i++) {
        char dir[256];
        snprintf(dir, sizeof dir, "%s/%s", k.out, students[i][0]);
        char *report = slurp(dir, "report.html");
        cr_assert(strstr(report, "<a href=\"../class.html\">"), "%s", students[i][0]);
        cr_assert_eq(assert_links_exist(report, dir), 1);
        cr_assert_eq(count(report, "data:image/png;base64,"), strcmp(students[i][0], "bob") == 0,
                     "%s: a picture only for the failing dataset with output", students[i][0]);
        if (strcmp(students[i][0], "carol") == 0) { /* did not compile: one card for the rest */
            cr_expect_eq(count(report, "not run: does not compile"), 0, "a card per test left");
            cr_expect_eq(count(report, "not run, the submission does not compile"), 1);
        }
        free(report);
    }
    run_result_t r = run_batch(&k, 1); /* --resume: nothing regraded, the same pages */
    cr_assert(strstr(r.output, "0 to grade"), "%s", r.output);
    char *again = slurp(k.out, "class.html");
    cr_assert_str_eq(again, page);
    free(again);
    run_result_free(&r);
    free(page);
    rm_rf(k.dir);
}

/* ---- in a browser ----------------------------------------------------------------- */

/* Runs headless chromium on url with args; returns what it printed on
 * stdout (its log goes to /dev/null; its exit status is only logged, the
 * callers check the DOM or the screenshot it produced). */
static char *chromium(const klass_t *k, const char *args, const char *url)
{
    strbuf_t cmd = {0};
    sb_appendf(&cmd, "chromium --headless --no-sandbox --disable-gpu --no-first-run "
                     "--user-data-dir='%s/profile' %s '%s' 2>/dev/null",
               k->dir, args, url);
    char *argv[] = {"/bin/sh", "-c", (char *)sb_str(&cmd), NULL};
    run_spec_t spec = {.argv = argv, .timeout_s = 120, .output_cap = 1 << 24};
    run_result_t r;
    run_one(&spec, &r);
    cr_assert(r.started && !r.timed_out, "%s: %s", sb_str(&cmd), r.output);
    if (!r.exited || r.exit_code != 0) /* the callers check what it produced */
        cr_log_warn("%s: exit status %d", sb_str(&cmd), r.exited ? r.exit_code : -1);
    char *out = r.output;
    r.output = NULL;
    run_result_free(&r);
    sb_free(&cmd);
    return out;
}

/* The table's rows in DOM order: id and total. */
static int dom_rows(const char *dom, char ids[][32], double *totals)
{
    int n = 0;
    for (const char *p = strstr(dom, "<tr data-id=\""); p && n < 16; p = strstr(p + 1, "<tr data-id=\"")) {
        sscanf(p + 13, "%31[^\"]", ids[n]);
        const char *td = strstr(p, "<td data-v=\"");
        td = td ? strstr(td + 1, "<td data-v=\"") : NULL;
        cr_assert_not_null(td);
        totals[n++] = atof(td + 12);
    }
    return n;
}

static void assert_order(const klass_t *k, const char *hash, const char *const *want)
{
    char url[256], ids[16][32];
    double totals[16];
    snprintf(url, sizeof url, "file://%s/class.html%s", k->out, hash);
    char *dom = chromium(k, "--dump-dom", url);
    cr_assert(strstr(dom, "<body data-ready=\"1\">"), "the script did not finish:\n%.2000s", dom);
    int n = dom_rows(dom, ids, totals);
    cr_assert_eq(n, NSTUDENTS);
    for (int i = 0; i < n; i++)
        cr_assert_str_eq(ids[i], want[i], "%s: row %d", hash, i);
    if (strcmp(hash, "#sort=-total") == 0)
        for (int i = 1; i < n; i++)
            cr_assert_geq(totals[i - 1], totals[i], "not sorted by total");
    cr_assert(strstr(dom, "<svg id=\"histogram\""), "no histogram");
    const char *bar = strstr(dom, "<rect class=\"bar\"");
    int tall = 0;
    for (; bar; bar = strstr(bar + 1, "<rect class=\"bar\"")) {
        const char *h = strstr(bar, "height=\"");
        tall += h && atof(h + 8) > 0;
    }
    cr_assert_geq(tall, 2, "the histogram has no bars");
    free(dom);
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* A screenshot of url into path, width pixels wide; returns its size after
 * checking it is a width x 1000 PNG. */
static long screenshot(const klass_t *k, const char *url, const char *path, unsigned width)
{
    char args[512];
    snprintf(args, sizeof args, "--screenshot='%s' --window-size=%u,1000 --hide-scrollbars", path,
             width);
    unlink(path);
    free(chromium(k, args, url));
    size_t len;
    unsigned char *png = (unsigned char *)read_file(path, &len, NULL, 0);
    cr_assert_not_null(png, "no screenshot %s", path);
    cr_assert_gt(len, 24);
    cr_assert_eq(memcmp(png, "\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR", 16), 0, "not a PNG");
    unsigned w = png[16] << 24 | png[17] << 16 | png[18] << 8 | png[19];
    unsigned h = png[20] << 24 | png[21] << 16 | png[22] << 8 | png[23];
    cr_assert_eq(w, width);
    cr_assert_eq(h, 1000);
    free(png);
    return (long)len;
}

/* The class table as laid out: the page's and the table's widths against
 * the window's, and each row's status and first failure as shown. */
static const char LAYOUT[] =
    "(() => {\n"
    "  const table = document.getElementById('students'), wrap = table.parentElement;\n"
    "  const heads = [...table.tHead.rows[0].cells];\n"
    "  const cell = (r, key) => r.cells[heads.findIndex(h => h.dataset.key === key)];\n"
    "  return {viewport: window.innerWidth, page: document.documentElement.scrollWidth,\n"
    "    tableScroll: wrap.scrollWidth, tableShown: wrap.clientWidth,\n"
    "    rows: [...table.tBodies[0].rows].map(r => ({id: r.dataset.id,\n"
    "      status: cell(r, 'status').innerText.trim(),\n"
    "      statusShown: cell(r, 'status').checkVisibility(),\n"
    "      first: cell(r, 'map').innerText.trim()}))};\n"
    "})()";

/* At 1400 pixels the class table fits the window (no sideways scrolling:
 * the datasets are a strip each, the reasons wrap), and every row shows a
 * status and, where something failed and was graded, its first failure. */
static void assert_table_fits(const klass_t *k)
{
    char url[256];
    snprintf(url, sizeof url, "file://%s/class.html", k->out);
    page_t page = visit(k->dir, url, LAYOUT, 1400);
    json_object *shown = page.shown, *rows = at(shown, "rows");
    int viewport = json_object_get_int(at(shown, "viewport"));
    cr_assert_eq(viewport, 1400, "%s", json_object_to_json_string(shown));
    cr_expect_leq(json_object_get_int(at(shown, "page")), viewport, "the page scrolls sideways");
    cr_expect_leq(json_object_get_int(at(shown, "tableScroll")),
                  json_object_get_int(at(shown, "tableShown")),
                  "the table scrolls sideways: %s", json_object_to_json_string(shown));
    cr_assert_eq(json_object_array_length(rows), NSTUDENTS);
    for (size_t i = 0; i < NSTUDENTS; i++) {
        json_object *r = json_object_array_get_idx(rows, i);
        const char *id = text_at(r, "id");
        int graded_and_failed = strcmp(id, "alice") != 0 && strcmp(id, "mallory") != 0;
        cr_expect(*text_at(r, "status") && json_object_get_boolean(at(r, "statusShown")),
                  "%s: no status shown", id);
        cr_expect_eq(*text_at(r, "first") != '\0', graded_and_failed, "%s: first failure '%s'",
                     id, text_at(r, "first"));
    }
    cr_expect_eq(page.nerrors, 0, "%s", sb_str(&page.errors));
    page_free(&page);
}

Test(html_report, chromium_sorts_by_the_hash_and_draws_the_page, .timeout = 300)
{
    if (!have_chromium())
        cr_skip("chromium is not installed (apt-get install chromium): no browser test");
    klass_t k = graded_class();
    const char *by_total[] = {"alice", "bob", "carol", "dave", "eve", "mallory"};
    const char *by_id_desc[] = {"mallory", "eve", "dave", "carol", "bob", "alice"};
    assert_order(&k, "#sort=-total", by_total);
    assert_order(&k, "#sort=-id", by_id_desc);
    assert_order(&k, "#sort=id", by_total);

    assert_table_fits(&k);

    char url[256], blank[256];
    snprintf(url, sizeof url, "file://%s/class.html#sort=-total", k.out);
    snprintf(blank, sizeof blank, "%s/blank.png", k.dir);
    long page = screenshot(&k, url, SCREENSHOT, 1400);
    long empty = screenshot(&k, "about:blank", blank, 1400);
    cr_assert_gt(page, 4 * empty, "the page looks blank: %ld bytes, a blank page %ld", page, empty);
    cr_log_info("class page screenshot: %s (%ld bytes)", SCREENSHOT, file_size(SCREENSHOT));
    /* carol's report: her compile error, and one card for the tests it kept from running */
    snprintf(url, sizeof url, "file://%s/carol/report.html", k.out);
    long report = screenshot(&k, url, STUDENT_SCREENSHOT, 1400);
    cr_assert_gt(report, 4 * empty, "the report looks blank: %ld bytes", report);
    char *dom = chromium(&k, "--dump-dom", url);
    cr_expect_eq(count(dom, "<details class=\"test"), 2, "compiles, then one card for the rest");
    cr_expect_eq(count(dom, "id=\"not-run\""), 1);
    free(dom);
    cr_log_info("report screenshot: %s (%ld bytes)", STUDENT_SCREENSHOT, file_size(STUDENT_SCREENSHOT));
    rm_rf(k.dir);
}
