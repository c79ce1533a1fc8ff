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
 * How: chromium runs with --remote-debugging-pipe and the test speaks the
 * DevTools protocol to it (JSON messages ending in '\0', commands on its fd 3,
 * answers and events on its fd 4). That sees the page as it is, without
 * adding a script to it, and sees everything: Network.requestWillBeSent for
 * every request (the page itself is file:, its pictures data:; anything else
 * is a network request), Runtime.consoleAPICalled, Runtime.exceptionThrown
 * and Log.entryAdded for the errors (its log on stderr, the other way, is
 * noisy and its format unstable; --dump-dom sees no console at all). After
 * Page.loadEventFired, one Runtime.evaluate (the PROBE script below) waits for
 * every picture to decode and returns what the page shows as JSON. DNS is
 * mapped to nowhere too (--host-resolver-rules), so a request that slipped
 * through would still never leave the machine. Each browser run takes about
 * a second; it is killed after BROWSER_S seconds. Skipped, as
 * test_html_report.c's browser test is, when chromium is not in PATH. Runs
 * from the repository root. */
#include "e2e.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>

#define BROWSER_S 30 /* the most one browser run may take, start to close */

/* ---- a headless chromium spoken to over --remote-debugging-pipe ------------------ */

typedef struct {
    pid_t pid;
    int to, from; /* our ends of its fd 3 (commands) and fd 4 (answers, events) */
    char *in;
    size_t len, cap;
    int next_id, loaded;
    char session[128];
    double deadline;
    strbuf_t errors, remote; /* a line each: console errors; requests not file: or data: */
    int nerrors, nremote, nrequests;
} browser_t;

/* What the page did and showed. */
typedef struct {
    strbuf_t errors, remote;
    int nerrors, nremote, nrequests;
    json_object *shown; /* PROBE's answer */
} page_t;

/* Starts chromium on about:blank, its profile in profile. If an assertion
 * ends the test before browser_stop, the test's process goes and with it our
 * ends of the pipe: chromium quits when its pipe closes (0.1 s here). */
static void browser_start(browser_t *b, const char *profile)
{
    char exe[4096];
    cr_assert_eq(find_program("chromium", exe, sizeof exe), 0);
    memset(b, 0, sizeof *b);
    int cmd[2], ans[2];
    cr_assert_eq(pipe2(cmd, O_CLOEXEC), 0);
    cr_assert_eq(pipe2(ans, O_CLOEXEC), 0);
    char dir[4200];
    snprintf(dir, sizeof dir, "--user-data-dir=%s", profile);
    char *argv[] = {exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                    "--disable-extensions", "--remote-debugging-pipe",
                    "--host-resolver-rules=MAP * ~NOTFOUND", dir, "about:blank", NULL};
    b->pid = fork();
    cr_assert_geq(b->pid, 0);
    if (b->pid == 0) {
        setpgid(0, 0); /* its helper processes go with it (browser_stop) */
        int r = fcntl(cmd[0], F_DUPFD, 10), w = fcntl(ans[1], F_DUPFD, 10);
        int null = open("/dev/null", O_RDWR);
        if (r < 0 || w < 0 || null < 0 || dup2(r, 3) < 0 || dup2(w, 4) < 0 || dup2(null, 0) < 0 ||
            dup2(null, 1) < 0 || dup2(null, 2) < 0)
            _exit(126);
        close_range(5, ~0U, 0);
        execv(exe, argv);
        _exit(127);
    }
    setpgid(b->pid, b->pid);
    close(cmd[0]);
    close(ans[1]);
    b->to = cmd[1];
    b->from = ans[0];
    signal(SIGPIPE, SIG_IGN); /* a dead browser is an assertion, not a signal */
    b->deadline = now_seconds() + BROWSER_S;
}

/* The next message, parsed; fails the test at the deadline or if the browser
 * went away. */
static json_object *browser_next(browser_t *b)
{
    for (;;) {
        char *end = b->len ? memchr(b->in, '\0', b->len) : NULL;
        if (end) {
            json_object *m = json_tokener_parse(b->in);
            size_t used = (size_t)(end - b->in) + 1;
            memmove(b->in, end + 1, b->len - used);
            b->len -= used;
            cr_assert_not_null(m, "the browser sent a message that is not JSON");
            return m;
        }
        double left = b->deadline - now_seconds();
        cr_assert_gt(left, 0, "the browser took more than %d s", BROWSER_S);
        struct pollfd p = {.fd = b->from, .events = POLLIN};
        int n = poll(&p, 1, (int)(left * 1000) + 1);
        if (n < 0 && errno == EINTR)
            continue;
        cr_assert_geq(n, 0);
        if (n == 0)
            continue;
        if (b->cap - b->len < 65536) {
            b->cap = b->cap * 2 + 65536;
            b->in = realloc(b->in, b->cap);
            cr_assert_not_null(b->in);
        }
        ssize_t got = read(b->from, b->in + b->len, b->cap - b->len);
        cr_assert_gt(got, 0, "the browser closed its pipe (did it start?)");
        b->len += (size_t)got;
    }
}

static json_object *at(json_object *o, const char *path) /* "a.b.c" */
{
    char key[64];
    while (o && *path) {
        size_t n = strcspn(path, ".");
        snprintf(key, sizeof key, "%.*s", (int)n, path);
        if (!json_object_object_get_ex(o, key, &o))
            return NULL;
        path += n + (path[n] == '.');
    }
    return o;
}

static const char *text_at(json_object *o, const char *path)
{
    json_object *v = at(o, path);
    return v ? json_object_get_string(v) : "";
}

static void add_error(browser_t *b, const char *kind, const char *text)
{
    sb_appendf(&b->errors, "  %s: %s\n", kind, text);
    b->nerrors++;
}

/* Notes what an event says about the page. */
static void browser_event(browser_t *b, json_object *m)
{
    const char *method = text_at(m, "method");
    json_object *p = at(m, "params");
    if (strcmp(method, "Page.loadEventFired") == 0) {
        b->loaded = 1;
    } else if (strcmp(method, "Network.requestWillBeSent") == 0) {
        const char *url = text_at(p, "request.url");
        b->nrequests++;
        if (strncmp(url, "file:", 5) != 0 && strncmp(url, "data:", 5) != 0) {
            sb_appendf(&b->remote, "  %.200s\n", url);
            b->nremote++;
        }
    } else if (strcmp(method, "Runtime.consoleAPICalled") == 0) {
        const char *type = text_at(p, "type");
        json_object *args = at(p, "args");
        json_object *first = args && json_object_array_length(args) > 0
                                 ? json_object_array_get_idx(args, 0) : NULL;
        if (strcmp(type, "error") == 0 || strcmp(type, "assert") == 0)
            add_error(b, "console.error", at(first, "value") ? text_at(first, "value")
                                                             : text_at(first, "description"));
    } else if (strcmp(method, "Runtime.exceptionThrown") == 0) {
        const char *d = text_at(p, "exceptionDetails.exception.description");
        add_error(b, "exception", *d ? d : text_at(p, "exceptionDetails.text"));
    } else if (strcmp(method, "Log.entryAdded") == 0) {
        if (strcmp(text_at(p, "entry.level"), "error") == 0)
            add_error(b, "log", text_at(p, "entry.text"));
    } else if (strcmp(method, "Inspector.targetCrashed") == 0) {
        cr_assert_fail("the page crashed");
    }
}

/* Sends method(params) (to the page when b->session is set) and returns its
 * result, noting the events that come first; fails the test on an error. */
static json_object *browser_call(browser_t *b, const char *method, json_object *params)
{
    json_object *msg = json_object_new_object();
    int id = ++b->next_id;
    json_object_object_add(msg, "id", json_object_new_int(id));
    json_object_object_add(msg, "method", json_object_new_string(method));
    json_object_object_add(msg, "params", params ? params : json_object_new_object());
    if (*b->session)
        json_object_object_add(msg, "sessionId", json_object_new_string(b->session));
    const char *text = json_object_to_json_string_ext(msg, JSON_C_TO_STRING_PLAIN);
    size_t len = strlen(text) + 1; /* with its '\0' */
    for (size_t off = 0; off < len;) {
        ssize_t put = write(b->to, text + off, len - off);
        cr_assert_gt(put, 0, "cannot write to the browser: %s", strerror(errno));
        off += (size_t)put;
    }
    json_object_put(msg);
    for (;;) {
        json_object *m = browser_next(b), *v;
        if (json_object_object_get_ex(m, "id", &v) && json_object_get_int(v) == id) {
            cr_assert_null(at(m, "error"), "%s: %s", method, json_object_to_json_string(m));
            json_object *result = json_object_get(at(m, "result"));
            json_object_put(m);
            return result;
        }
        browser_event(b, m);
        json_object_put(m);
    }
}

static void browser_stop(browser_t *b)
{
    if (b->pid > 0) {
        *b->session = '\0';
        json_object_put(browser_call(b, "Browser.close", NULL));
        int status, gone = 0; /* 5 s to close, then killed */
        for (int i = 0; i < 100 && !(gone = waitpid(b->pid, &status, WNOHANG) == b->pid); i++)
            usleep(50000);
        kill(-b->pid, SIGKILL); /* what is left of it: its own process group */
        if (!gone)
            waitpid(b->pid, &status, 0);
    }
    close(b->to);
    close(b->from);
    free(b->in);
}

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

/* Opens url in a fresh headless chromium (profile under scratch) and returns
 * what the page did and showed; the caller frees it with page_free. */
static page_t visit(const char *scratch, const char *url)
{
    char profile[512];
    snprintf(profile, sizeof profile, "%s/profile", scratch);
    browser_t b;
    browser_start(&b, profile);
    json_object *targets = browser_call(&b, "Target.getTargets", NULL), *infos = at(targets, "targetInfos");
    const char *target = NULL;
    for (size_t i = 0; infos && i < json_object_array_length(infos) && !target; i++)
        if (strcmp(text_at(json_object_array_get_idx(infos, i), "type"), "page") == 0)
            target = text_at(json_object_array_get_idx(infos, i), "targetId");
    cr_assert_not_null(target, "no page in the browser: %s", json_object_to_json_string(targets));
    json_object *params = json_object_new_object();
    json_object_object_add(params, "targetId", json_object_new_string(target));
    json_object_object_add(params, "flatten", json_object_new_boolean(1));
    json_object *attached = browser_call(&b, "Target.attachToTarget", params);
    snprintf(b.session, sizeof b.session, "%s", text_at(attached, "sessionId"));
    cr_assert(*b.session);
    json_object_put(attached);
    json_object_put(targets);
    const char *domains[] = {"Runtime.enable", "Log.enable", "Network.enable", "Page.enable"};
    for (size_t i = 0; i < sizeof domains / sizeof *domains; i++)
        json_object_put(browser_call(&b, domains[i], NULL));

    params = json_object_new_object();
    json_object_object_add(params, "url", json_object_new_string(url));
    json_object *nav = browser_call(&b, "Page.navigate", params);
    cr_assert_null(at(nav, "errorText"), "%s: %s", url, text_at(nav, "errorText"));
    json_object_put(nav);
    while (!b.loaded) {
        json_object *m = browser_next(&b);
        browser_event(&b, m);
        json_object_put(m);
    }
    params = json_object_new_object();
    json_object_object_add(params, "expression", json_object_new_string(PROBE));
    json_object_object_add(params, "awaitPromise", json_object_new_boolean(1));
    json_object_object_add(params, "returnByValue", json_object_new_boolean(1));
    json_object *eval = browser_call(&b, "Runtime.evaluate", params);
    cr_assert_null(at(eval, "exceptionDetails"), "the probe failed: %s", json_object_to_json_string(eval));
    page_t page = {.shown = json_object_get(at(eval, "result.value"))};
    json_object_put(eval);
    browser_stop(&b);
    cr_assert_not_null(page.shown, "the probe returned nothing");
    page.errors = b.errors;
    page.remote = b.remote;
    page.nerrors = b.nerrors;
    page.nremote = b.nremote;
    page.nrequests = b.nrequests;
    return page;
}

static void page_free(page_t *p)
{
    sb_free(&p->errors);
    sb_free(&p->remote);
    json_object_put(p->shown);
}

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
    page_t page = visit(scratch, url);
    cr_log_info("%s: %s in chromium in %.1f s", submission, html, now_seconds() - t0);
    int maps = assert_page_shows(&page, g.json, submission, hints);
    page_free(&page);
    release(&g);
    return maps;
}

static void need_chromium(void)
{
    char exe[4096];
    if (find_program("chromium", exe, sizeof exe) != 0)
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
        page_t page = visit(k.dir, url);
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
    page_t page = visit(dir, url);
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
