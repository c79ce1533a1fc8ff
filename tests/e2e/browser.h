/* browser.h - a headless chromium for the end-to-end tests of the HTML
 * pages (test_student_report_browser.c, test_html_report.c), spoken to
 * over --remote-debugging-pipe with the DevTools protocol: JSON messages
 * ending in '\0', commands on its fd 3, answers and events on its fd 4. It
 * sees the page as it is, without adding a script to it, and sees
 * everything: Network.requestWillBeSent for every request (a page of ours is
 * file:, its pictures data:; anything else is a network request),
 * Runtime.consoleAPICalled, Runtime.exceptionThrown and Log.entryAdded for
 * the errors. After Page.loadEventFired one Runtime.evaluate of the caller's
 * probe returns what the page shows as JSON. DNS is mapped to nowhere too
 * (--host-resolver-rules), so a request that slipped through would still
 * never leave the machine. Each browser run takes about a second; it is
 * killed after BROWSER_S seconds. Callers skip their test when chromium is
 * not in PATH (have_chromium). */
#ifndef CUGRADE_E2E_BROWSER_H
#define CUGRADE_E2E_BROWSER_H

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
    json_object *shown; /* the probe's answer */
} page_t;

/* Starts chromium on about:blank, its profile in profile, its window width
 * pixels wide (0: chromium's own). If an assertion ends the test before
 * browser_stop, the test's process goes and with it our ends of the pipe:
 * chromium quits when its pipe closes (0.1 s here). */
static inline void browser_start(browser_t *b, const char *profile, int width)
{
    char exe[4096];
    cr_assert_eq(find_program("chromium", exe, sizeof exe), 0);
    memset(b, 0, sizeof *b);
    int cmd[2], ans[2];
    cr_assert_eq(pipe2(cmd, O_CLOEXEC), 0);
    cr_assert_eq(pipe2(ans, O_CLOEXEC), 0);
    char dir[4200], size[64];
    snprintf(dir, sizeof dir, "--user-data-dir=%s", profile);
    snprintf(size, sizeof size, "--window-size=%d,1000", width);
    char *argv[] = {exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                    "--disable-extensions", "--remote-debugging-pipe",
                    "--host-resolver-rules=MAP * ~NOTFOUND", dir,
                    width > 0 ? size : "about:blank", width > 0 ? "about:blank" : NULL, NULL};
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
static inline json_object *browser_next(browser_t *b)
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

static inline json_object *at(json_object *o, const char *path) /* "a.b.c" */
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

static inline void add_error(browser_t *b, const char *kind, const char *text)
{
    sb_appendf(&b->errors, "  %s: %s\n", kind, text);
    b->nerrors++;
}

/* Notes what an event says about the page. */
static inline void browser_event(browser_t *b, json_object *m)
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
static inline json_object *browser_call(browser_t *b, const char *method, json_object *params)
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

static inline void browser_stop(browser_t *b)
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

/* Opens url in a fresh headless chromium (profile under scratch, its window
 * width pixels wide, 0: chromium's own), runs probe in the page once it has
 * loaded (an expression whose value, a promise or not, is returned as JSON)
 * and returns what the page did and showed; the caller frees it with
 * page_free. */
static inline page_t visit(const char *scratch, const char *url, const char *probe, int width)
{
    char profile[512];
    snprintf(profile, sizeof profile, "%s/profile", scratch);
    browser_t b;
    browser_start(&b, profile, width);
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
    json_object_object_add(params, "expression", json_object_new_string(probe));
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

static inline void page_free(page_t *p)
{
    sb_free(&p->errors);
    sb_free(&p->remote);
    json_object_put(p->shown);
}

/* 1 if Debian's chromium is in PATH. */
static inline int have_chromium(void)
{
    char exe[4096];
    return find_program("chromium", exe, sizeof exe) == 0;
}

#endif
