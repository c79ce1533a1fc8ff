/* test_student_report_browser.c - end to end: the student's HTML report (what
 * `cugrade run --html` writes, and each report.html of `cugrade batch`) in a
 * real browser, Debian's headless chromium, opened from a file:// URL. For the
 * failing intdiv_grid.cu (error maps) and the reference it asserts, from
 * inside the page: no console error, no network request, every test of
 * results.json shown with its name, its score and its hint, and every
 * error-map picture decoded with a non-zero natural size (the PNG's own size,
 * the one the <img> asks for). A broken copy of the page (a corrupt data URI,
 * a remote image, a console.error) proves each check can fail.
 *
 * How: browser.h's client, chromium spoken to over --remote-debugging-pipe
 * (its log on stderr is noisy and its format unstable; --dump-dom sees no
 * console at all): the PROBE script below waits for every picture to decode
 * and returns what the page shows as JSON. Skipped, as test_html_report.c's
 * browser tests are, when chromium is not in PATH. Runs
 * from the repository root. */
#include "browser.h"

/* What the page shows, read from inside it once every picture has decoded
 * (or failed to): the header's score, and for each test section its name,
 * score, output text, whether that text is on screen, and its pictures.
 * "On screen" is checkVisibility(): a closed <details> keeps its content laid
 * out (content-visibility: hidden), so getClientRects() would say yes. */
static const char PROBE[] =
    "(async () => {\n"
    "  const imgs = [...document.images];\n"
    "  await Promise.all(imgs.map(i => i.decode().catch(() => null)));\n"
    "  const pic = i => ({alt: i.alt, complete: i.complete, naturalWidth: i.naturalWidth,\n"
    "    naturalHeight: i.naturalHeight, width: +i.getAttribute('width'),\n"
    "    height: +i.getAttribute('height'),\n"
    "    onScreen: i.checkVisibility()});\n"
    "  const text = (e, sel) => { const x = e.querySelector(sel); return x ? x.textContent : null; };\n"
    "  return {\n"
    "    readyState: document.readyState,\n"
    "    score: text(document, 'header .scorebox b'),\n"
    "    outOf: text(document, 'header .scorebox span'),\n"
    "    pictures: imgs.map(pic),\n"
    "    tests: [...document.querySelectorAll('details.test')].map(d => ({\n"
    "      id: d.id, open: d.open, name: text(d, 'summary .name'), pts: text(d, 'summary .pts'),\n"
    "      output: text(d, 'pre'),\n"
    "      outputOnScreen: !!d.querySelector('pre') && d.querySelector('pre').checkVisibility(),\n"
    "      pictures: [...d.querySelectorAll('img')].map(pic)}))\n"
    "  };\n"
    "})()";

/* ---- the checks ----------------------------------------------------------------------- */

/* The pictures that did not render: not decoded, zero natural size, or not
 * the size its <img> asks for (width and height attributes); each named in
 * why. */
static int broken_pictures(json_object *pictures, strbuf_t *why)
{
    int broken = 0;
    for (size_t i = 0; i < json_object_array_length(pictures); i++) {
        json_object *p = json_object_array_get_idx(pictures, i);
        int w = (int)json_object_get_int(at(p, "naturalWidth"));
        int h = (int)json_object_get_int(at(p, "naturalHeight"));
        if (!json_object_get_boolean(at(p, "complete")) || w <= 0 || h <= 0 ||
            w != json_object_get_int(at(p, "width")) || h != json_object_get_int(at(p, "height"))) {
            sb_appendf(why, "  \"%s\": naturalWidth %d, naturalHeight %d (<img> %dx%d)\n",
                       text_at(p, "alt"), w, h, json_object_get_int(at(p, "width")),
                       json_object_get_int(at(p, "height")));
            broken++;
        }
    }
    return broken;
}

/* The "hint: ..." line of a test's output, into line ("" if none). */
static void hint_of(const char *output, char *line, size_t size)
{
    const char *h = strncmp(output, "hint: ", 6) == 0 ? output : strstr(output, "\nhint: ");
    if (h && *h == '\n')
        h++;
    snprintf(line, size, "%.*s", h ? (int)strcspn(h, "\n") : 0, h ? h : "");
}

/* The page, as the browser showed it, against the results.json it came from;
 * returns how many pictures it has, and in *hints how many hints it shows. */
static int assert_page_shows(const page_t *page, json_object *results, const char *what, int *hints)
{
    cr_assert_eq(page->nerrors, 0, "%s: console errors:\n%s", what, sb_str(&page->errors));
    cr_assert_eq(page->nremote, 0, "%s: network requests:\n%s", what, sb_str(&page->remote));
    cr_assert_geq(page->nrequests, 1, "%s: the browser saw no request at all (not even the page)", what);
    json_object *shown = page->shown;
    cr_assert_str_eq(text_at(shown, "readyState"), "complete", "%s", what);

    json_object *tests = at(results, "tests"), *sections = at(shown, "tests");
    double max = 0;
    char want[512];
    cr_assert_not_null(sections);
    cr_assert_eq(json_object_array_length(sections), json_object_array_length(tests),
                 "%s: a section per test of results.json", what);
    int pictures = 0;
    *hints = 0;
    for (size_t i = 0; i < json_object_array_length(tests); i++) {
        json_object *t = json_object_array_get_idx(tests, i), *s = json_object_array_get_idx(sections, i);
        const char *name = str(t, "name");
        max += num(t, "max_score");
        cr_assert_str_eq(text_at(s, "name"), name, "%s: test %zu", what, i);
        snprintf(want, sizeof want, "%g / %g", num(t, "score"), num(t, "max_score"));
        cr_assert_str_eq(text_at(s, "pts"), want, "%s: %s's score", what, name);
        hint_of(str(t, "output"), want, sizeof want);
        if (*want) {
            cr_assert(strstr(text_at(s, "output"), want), "%s: %s's hint is not shown:\n%s", what,
                      name, want);
            cr_assert(json_object_get_boolean(at(s, "outputOnScreen")),
                      "%s: %s's hint is in the page but folded away", what, name);
            (*hints)++;
        }
        json_object *pics = at(s, "pictures");
        int maps = at(t, "extra_data.error_map") != NULL;
        cr_assert_eq((int)json_object_array_length(pics), maps, "%s: %s: a picture per error map",
                     what, name);
        if (maps) {
            cr_assert(json_object_get_boolean(at(json_object_array_get_idx(pics, 0), "onScreen")),
                      "%s: %s's error map is folded away", what, name);
            cr_assert(!passed(t), "%s: %s: a map on a passing test", what, name);
        }
        pictures += maps;
    }
    strbuf_t why = {0};
    cr_assert_eq(broken_pictures(at(shown, "pictures"), &why), 0, "%s: pictures that did not render:\n%s",
                 what, sb_str(&why));
    cr_assert_eq((int)json_object_array_length(at(shown, "pictures")), pictures,
                 "%s: no picture besides the error maps", what);
    sb_free(&why);
    snprintf(want, sizeof want, "%g", num(results, "score"));
    cr_assert_str_eq(text_at(shown, "score"), want, "%s: the total", what);
    snprintf(want, sizeof want, "of %g points", max);
    cr_assert_str_eq(text_at(shown, "outOf"), want, "%s", what);
    return pictures;
}

/* Grades submission with `cugrade run --html` (all of lab3's datasets, the
 * tests' hidden seed), opens the page in the browser, and checks it against
 * the results.json of the same run; returns how many error maps it shows,
 * and in *hints how many hints. */
static int grade_and_browse(const char *submission, const char *scratch, const char *html, int *hints)
{
    const char *extra[] = {"--html", html, NULL};
    graded_t g = grade(submission, extra);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    cr_assert_not_null(g.json, "%s", g.run.output);
    char url[600];
    snprintf(url, sizeof url, "file://%s", html);
    double t0 = now_seconds();
    page_t page = visit(scratch, url, PROBE, 0);
    cr_log_info("%s: %s in chromium in %.1f s", submission, html, now_seconds() - t0);
    int maps = assert_page_shows(&page, g.json, submission, hints);
    page_free(&page);
    release(&g);
    return maps;
}

static void need_chromium(void)
{
    if (!have_chromium())
        cr_skip("chromium is not installed (apt-get install chromium): no browser test");
}

Test(student_report_browser, run_html_of_a_failing_kernel_and_the_reference, .timeout = 300)
{
    need_chromium();
    char dir[] = "/tmp/cugrade-browser-XXXXXX", html[128];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(html, sizeof html, "%s/intdiv_grid.html", dir);
    int hints, maps = grade_and_browse(SUB "intdiv_grid.cu", dir, html, &hints);
    cr_assert_geq(maps, 5, "intdiv_grid.cu leaves cells unwritten on many datasets: %d maps", maps);
    cr_assert_geq(hints, maps, "a hint on every dataset with a map, and on the CUDA errors");
    snprintf(html, sizeof html, "%s/reference.html", dir);
    cr_assert_eq(grade_and_browse("reference/lab3/matmul.cu", dir, html, &hints), 0,
                 "the reference fails nothing");
    cr_assert_eq(hints, 0);
    rm_rf(dir);
}

/* The report.html pages of `cugrade batch`, one per student, each against the
 * results.json next to it (their link back to class.html is not a request). */
Test(student_report_browser, batch_report_pages, .timeout = 300)
{
    need_chromium();
    batch_class_t k = make_batch_class("browser-batch");
    const char *shapes[] = {"16x16x16", "33x17x9", "40x7x33", NULL}; /* the class's two, and */
    make_datasets(k.datasets, shapes); /* one where bob's grid leaves cells unwritten */
    const char *const students[][2] = {{"alice", "reference/lab3/matmul.cu"},
                                       {"bob", SUB "intdiv_grid.cu"}};
    for (int i = 0; i < 2; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s/lab3", k.subs, students[i][0]);
        cr_assert_eq(mkdir_p(path, NULL, 0), 0);
        snprintf(path, sizeof path, "%s/%s/lab3/matmul.cu", k.subs, students[i][0]);
        char *code = read_file(students[i][1], NULL, NULL, 0);
        cr_assert_not_null(code);
        write_text(path, code);
        free(code);
    }
    run_result_t r = run_class_batch(&k);
    run_result_free(&r);
    for (int i = 0; i < 2; i++) {
        char url[600];
        snprintf(url, sizeof url, "file://%s/%s/report.html", k.out, students[i][0]);
        json_object *results = class_results(&k, students[i][0]);
        page_t page = visit(k.dir, url, PROBE, 0);
        int hints, maps = assert_page_shows(&page, results, url, &hints);
        cr_assert_eq(maps, i, "%s: a map for bob's failing dataset, none for alice", students[i][0]);
        cr_assert_geq(hints, i, "%s", students[i][0]);
        page_free(&page);
        json_object_put(results);
    }
    rm_rf(k.dir);
}

/* The checks can fail: a copy of intdiv_grid.cu's page with its first picture
 * corrupted (a data URI whose bytes are no PNG), an image from the network
 * and a console.error is reported on all three counts. */
Test(student_report_browser, a_broken_page_fails_the_checks, .timeout = 300)
{
    need_chromium();
    char dir[] = "/tmp/cugrade-browser-XXXXXX", html[128], broken[128], url[600];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(html, sizeof html, "%s/report.html", dir);
    snprintf(broken, sizeof broken, "%s/broken.html", dir);
    const char *extra[] = {"--html", html, NULL};
    graded_t g = grade(SUB "intdiv_grid.cu", extra);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);

    char *text = read_file(html, NULL, NULL, 0);
    cr_assert_not_null(text);
    const char *prefix = "data:image/png;base64,";
    char *uri = strstr(text, prefix), *alt = strstr(text, "<img class=\"map\"");
    cr_assert(uri && alt && alt < uri, "no error map in the page");
    memset(uri + strlen(prefix), 'A', 40); /* still base64; no longer a PNG */
    char first[128];
    cr_assert_eq(sscanf(strstr(alt, "alt=\"") + 5, "%127[^\"]", first), 1);
    char *end = strstr(text, "</body>");
    cr_assert_not_null(end);
    *end = '\0';
    strbuf_t page_text = {0};
    sb_appendf(&page_text, "%s<img alt=\"remote\" width=\"8\" height=\"8\" "
                           "src=\"http://cugrade.invalid/x.png\">"
                           "<script>console.error('planted error')</script></body>\n</html>\n",
               text);
    write_text(broken, sb_str(&page_text));
    sb_free(&page_text);
    free(text);

    snprintf(url, sizeof url, "file://%s", broken);
    page_t page = visit(dir, url, PROBE, 0);
    strbuf_t why = {0};
    cr_assert_eq(broken_pictures(at(page.shown, "pictures"), &why), 2, "%s", sb_str(&why));
    char want[200];
    snprintf(want, sizeof want, "\"%s\": naturalWidth 0", first);
    cr_assert(strstr(sb_str(&why), want), "the corrupt map is not named:\n%s", sb_str(&why));
    cr_assert(strstr(sb_str(&why), "\"remote\": naturalWidth 0"), "%s", sb_str(&why));
    cr_assert_eq(page.nremote, 1, "%s", sb_str(&page.remote));
    cr_assert(strstr(sb_str(&page.remote), "http://cugrade.invalid/x.png"), "%s", sb_str(&page.remote));
    cr_assert(strstr(sb_str(&page.errors), "console.error: planted error"), "%s", sb_str(&page.errors));
    cr_log_info("what the broken page reported:\n%s%s%s", sb_str(&why), sb_str(&page.remote),
                sb_str(&page.errors));
    sb_free(&why);
    page_free(&page);
    release(&g);
    rm_rf(dir);
}
