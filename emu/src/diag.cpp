/* diag.cpp - the emulator's diagnostics channel, read by the grader.
 *
 * Every diagnostic is printed to stderr as
 *     cugrade-emu: <severity>: <message>
 * and written to the grader's report channel (the descriptor
 * CUGRADE_REPORT_FD names, which code in the submission cannot write), or,
 * without one, appended to the file CUGRADE_EMU_DIAG names, as one line
 *     <severity>\t<kind>\t<message>
 * Each line is written with a single write(2) on an O_APPEND descriptor, so
 * it is on disk before the process can die and lines never interleave.
 * Within one launch at most kDiagPerKind diagnostics of a kind are written;
 * the rest are counted and summarised when the launch ends.
 *
 * Two more kinds of line carry no fault: statistics, "stat\t<key>\t<value>"
 * (diagnostics file only), and explanations, "info\t<kind>\t<message>"
 * (also printed on stderr as "cugrade-emu: info: <message>"). */
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <unistd.h>

#include "emu_internal.h"

namespace cugrade::emu {
namespace {

const char *const kKindNames[] = {"launch",         "barrier-divergence", "barrier-mismatch", "stack-overflow",
                                  "race",           "shared-oob",         "global-oob",       "invalid-address",
                                  "host-pointer",   "uninit-shared",      "uninit-global"};
static_assert(sizeof kKindNames / sizeof kKindNames[0] == size_t(diag_kind::count), "kind names");

unsigned g_launch_counts[size_t(diag_kind::count)];
bool g_suppressed_error[size_t(diag_kind::count)]; /* an error among the suppressed */
unsigned long long g_total;

const char *severity_name(severity sev) { return sev == severity::error ? "error" : "warning"; }

/* Tabs and line breaks would break the one-line, tab-separated format. */
void flatten(char *text)
{
    for (char *p = text; *p; p++)
        if (*p == '\t' || *p == '\n' || *p == '\r')
            *p = ' ';
}

void write_all(int fd, const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, buf, len);
        if (n <= 0)
            return;
        buf += n;
        len -= size_t(n);
    }
}

/* The grader's report channel (grader/run/runner.h): a descriptor it opened
 * before the program started, named by CUGRADE_REPORT_FD. It is looked up
 * once, by a static initialiser of this library, before any code of the
 * submission runs (which may call neither getenv nor setenv: the grader's
 * object check refuses them). */
int lookup_report_fd()
{
    const char *v = getenv("CUGRADE_REPORT_FD");
    if (!v || !*v)
        return -1;
    char *end;
    long fd = strtol(v, &end, 10);
    if (*end || fd < 0 || fd > 1024 || fcntl(int(fd), F_GETFD) < 0)
        return -1;
    return int(fd);
}

const int g_report_fd = lookup_report_fd();

/* One line to the report channel, or, for the emulator's own tests and
 * standalone use, appended to the file CUGRADE_EMU_DIAG names. */
void append_to_diag_file(const char *line, size_t len)
{
    if (g_report_fd >= 0) {
        write_all(g_report_fd, line, len);
        return;
    }
    const char *path = getenv("CUGRADE_EMU_DIAG");
    if (!path || !*path)
        return;
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return;
    write_all(fd, line, len);
    close(fd);
}

/* Writes "<label>\t<kind>\t<text>" to the diagnostics file and, when
 * to_stderr, "cugrade-emu: <label>: <text>" to stderr. */
void emit_line(const char *label, const char *kind, const char *message, bool to_stderr)
{
    char text[1024];
    snprintf(text, sizeof text, "%s", message);
    flatten(text);
    char line[1200];
    int len;
    if (to_stderr) {
        len = snprintf(line, sizeof line, "cugrade-emu: %s: %s\n", label, text);
        if (len > 0)
            write_all(STDERR_FILENO, line, size_t(len) < sizeof line ? size_t(len) : sizeof line - 1);
    }
    len = snprintf(line, sizeof line, "%s\t%s\t%s\n", label, kind, text);
    if (len > 0)
        append_to_diag_file(line, size_t(len) < sizeof line ? size_t(len) : sizeof line - 1);
}

} // namespace

const char *diag_kind_name(diag_kind kind) { return kKindNames[size_t(kind)]; }

void diag_emit(severity sev, diag_kind kind, const char *message)
{
    emit_line(severity_name(sev), diag_kind_name(kind), message, true);
    g_total++;
}

void diag_stat(const char *key, unsigned long long value)
{
    char text[32];
    snprintf(text, sizeof text, "%llu", value);
    emit_line("stat", key, text, false);
}

void diag_info(const char *kind, const char *message) { emit_line("info", kind, message, true); }

unsigned diag_launch_count(diag_kind kind) { return g_launch_counts[size_t(kind)]; }

void diag_report(severity sev, diag_kind kind, const char *fmt, ...)
{
    if (++g_launch_counts[size_t(kind)] > unsigned(kDiagPerKind)) {
        g_suppressed_error[size_t(kind)] |= sev == severity::error;
        g_total++;
        return;
    }
    char message[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    diag_emit(sev, kind, message);
}

void diag_launch_begin()
{
    for (size_t k = 0; k < size_t(diag_kind::count); k++) {
        g_launch_counts[k] = 0;
        g_suppressed_error[k] = false;
    }
}

void diag_launch_end(const launch_site &site)
{
    for (size_t k = 0; k < size_t(diag_kind::count); k++) {
        if (g_launch_counts[k] <= unsigned(kDiagPerKind))
            continue;
        char message[512];
        snprintf(message, sizeof message,
                 "%u more %s diagnostics for the launch of %s at %s:%d were not shown.",
                 g_launch_counts[k] - unsigned(kDiagPerKind), kKindNames[k], site.name, site.file,
                 site.line);
        diag_emit(g_suppressed_error[k] ? severity::error : severity::warning, diag_kind(k), message);
        g_total--; /* the summary is not a diagnostic of its own */
    }
}

unsigned long long diag_total() { return g_total; }

} // namespace cugrade::emu
