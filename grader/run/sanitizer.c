/* sanitizer.c - compute-sanitizer's reports as cugrade findings. */
#include "run/sanitizer.h"
#include "run/runner.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const prefix = "========= ";

/* What sanitizer_parse has kept so far: each finding's message ("m\t"
 * MESSAGE) and each access finding's kind and source line ("w\t" KIND "\t"
 * LINE), so that telling a repeat costs O(1) whatever the output's length. */
typedef struct {
    emu_report_t *out;
    strmap_t seen;
} found_t;

/* Whether key was seen before; it is from now on. */
static int seen_before(found_t *found, const char *tag, const char *a, const char *b)
{
    strbuf_t key = {0};
    sb_appendf(&key, "%s\t%s%s%s", tag, a, b ? "\t" : "", b ? b : "");
    int added = 0;
    strmap_put(&found->seen, sb_str(&key), &added);
    sb_free(&key);
    return !added;
}

static void add_finding(found_t *found, const char *kind, const char *message)
{
    if (seen_before(found, "m", message, NULL))
        return; /* one finding per distinct report */
    emu_report_add_finding(found->out, "error", kind, message);
}

/* "... in matmul.cu:43 ..." -> "matmul.cu:43" (or "" if none). */
static void source_of(const char *line, char *out, size_t len)
{
    const char *in = strstr(line, " in ");
    out[0] = '\0';
    if (!in)
        return;
    in += 4;
    size_t n = strcspn(in, " [\n");
    snprintf(out, len, "%.*s", (int)n, in);
}

/* The text of the next line of a report (after the "=========" prefix). */
static const char *next_line(const char *p, char *out, size_t len)
{
    const char *nl = strchr(p, '\n');
    if (!nl)
        return NULL;
    p = nl + 1;
    const char *end = strchr(p, '\n');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    if (strncmp(p, prefix, strlen(prefix)) == 0) {
        p += strlen(prefix);
        n -= strlen(prefix);
    }
    while (n > 0 && *p == ' ') {
        p++;
        n--;
    }
    snprintf(out, len, "%.*s", (int)n, p);
    return p;
}

/* "Race reported between Write access at K+0x360 in f.cu:44" + "and Read access at ... in f.cu:47" */
static void parse_race(const char *p, const char *first, found_t *out)
{
    char writer[256], reader[256], second[512];
    source_of(first, writer, sizeof writer);
    reader[0] = '\0';
    if (next_line(p, second, sizeof second))
        source_of(second, reader, sizeof reader);
    char msg[1024];
    snprintf(msg, sizeof msg, "compute-sanitizer racecheck on the GPU: a shared-memory race between "
                              "the access at %s and the one at %s (no __syncthreads() between them)",
             writer, reader[0] ? reader : "another line");
    add_finding(out, "race", msg);
}

/* "Invalid __global__ read of size 4 bytes" / "Uninitialized __global__ memory read ..." */
static void parse_access(const char *p, const char *first, const char *kind, const char *tool,
                         found_t *out)
{
    char at[512] = "", by[512] = "", where[256] = "", detail[512] = "", line[512];
    const char *q = p;
    for (int i = 0; i < 4 && (q = next_line(q, line, sizeof line)) != NULL; i++) {
        if (strncmp(line, "at ", 3) == 0)
            snprintf(at, sizeof at, "%s", line);
        else if (strncmp(line, "by thread", 9) == 0)
            snprintf(by, sizeof by, "%s", line);
        else if (strncmp(line, "and is ", 7) == 0)
            snprintf(detail, sizeof detail, "%s", line + 4);
    }
    source_of(at, where, sizeof where);
    char msg[2048];
    snprintf(msg, sizeof msg, "compute-sanitizer %s on the GPU: %s at %s %s%s%s", tool, first,
             where[0] ? where : "?", by, detail[0] ? ": " : "", detail);
    /* one finding per source line: threads differ, the bug does not */
    if (where[0] && seen_before(out, "w", kind, where))
        return;
    add_finding(out, kind, msg);
}

/* One tool's output into found->out. */
static void parse_tool(const char *tool, const char *output, found_t *out)
{
    for (const char *p = output; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line - 1 ? n : sizeof line - 1), p);
        const char *text = strncmp(line, prefix, strlen(prefix)) == 0 ? line + strlen(prefix) : NULL;
        if (text && strstr(text, "Race reported between"))
            parse_race(p, text, out);
        else if (text && strncmp(text, "Invalid __", 10) == 0)
            parse_access(p, text, "global-oob", tool, out);
        else if (text && strncmp(text, "Uninitialized __global__", 24) == 0)
            parse_access(p, text, "uninit-global", tool, out);
        else if (text && strcmp(tool, "synccheck") == 0 && strstr(text, "Barrier error"))
            parse_access(p, text, "barrier-divergence", tool, out);
        p = nl ? nl + 1 : NULL;
    }
}

/* Starts with the messages already in out (an earlier call's). */
static void found_open(found_t *found, emu_report_t *out)
{
    *found = (found_t){.out = out};
    for (int i = 0; i < out->nfindings; i++)
        seen_before(found, "m", out->findings[i].message, NULL);
}

int sanitizer_parse(const char *tool, const char *output, emu_report_t *out)
{
    int before = out->nfindings;
    found_t found;
    found_open(&found, out);
    parse_tool(tool, output, &found);
    strmap_free(&found.seen);
    return out->nfindings - before;
}

static const char *const tool_names[] = {"memcheck", "racecheck", "synccheck", "initcheck"};
#define NTOOLS 4

void sanitizer_tools_named(unsigned tools, char *buf, size_t buflen)
{
    int left = 0;
    for (int t = 0; t < NTOOLS; t++)
        left += (tools >> t) & 1;
    buf[0] = '\0';
    for (int t = 0; t < NTOOLS; t++) {
        if (!((tools >> t) & 1))
            continue;
        left--;
        size_t len = strlen(buf);
        snprintf(buf + len, buflen - len, "%s%s", tool_names[t],
                 left > 1 ? ", " : left == 1 ? " and " : "");
    }
}

/* The tools of the set (at once) on the program cmd; a student's program
 * (sandboxed) with shown besides the tool and env added. Findings to out. */
static int run_tools(char *const *cmd, const char *cwd, double timeout_s, unsigned tools, int sandboxed,
                     char **shown, char *const *env, emu_report_t *out)
{
    enum { MAXARGS = DATASET_MAX_INPUTS + 16 };
    char sanitizer[PATH_MAX];
    if (find_program("compute-sanitizer", sanitizer, sizeof sanitizer) != 0)
        return -1;
    char *argv[NTOOLS][MAXARGS];
    run_spec_t specs[NTOOLS];
    const char *which[NTOOLS];
    run_result_t results[NTOOLS];
    int nspecs = 0;
    for (int t = 0; t < NTOOLS; t++) {
        if (!((tools >> t) & 1))
            continue;
        char **a = argv[nspecs];
        int n = 0;
        a[n++] = sanitizer, a[n++] = "--tool", a[n++] = (char *)tool_names[t];
        a[n++] = "--print-limit", a[n++] = "20";
        for (int k = 0; cmd[k] && n < MAXARGS - 1; k++)
            a[n++] = cmd[k];
        a[n] = NULL;
        which[nspecs] = tool_names[t];
        specs[nspecs++] = (run_spec_t){.argv = a, .cwd = cwd, .timeout_s = timeout_s,
                                       .output_cap = 512 * 1024, .sandboxed = sandboxed,
                                       .tool = 1, /* it runs the program as its child */
                                       .ro_paths = (const char *const *)shown,
                                       .extra_env = env};
    }
    run_many(specs, results, nspecs, nspecs); /* the tools at once */
    found_t found; /* one source line one finding, across the tools too */
    found_open(&found, out);
    for (int t = 0; t < nspecs; t++) {
        parse_tool(which[t], results[t].output ? results[t].output : "", &found);
        run_result_free(&results[t]);
    }
    strmap_free(&found.seen);
    return 0;
}

int sanitizer_check_run(const ds_run_t *run, double timeout_s, unsigned tools, emu_report_t *out)
{
    char *shown[] = {run->argv[0], NULL}; /* the student's program, besides the tool */
    /* the driver's arrays without their guards (labs/common/harness_device.h):
     * a read past one is memcheck's to see, not a read of a guard */
    static char *const unguarded[] = {"CUGRADE_GUARDS=off", NULL};
    /* the student's program, so in the sandbox like its dataset runs */
    return run_tools(run->argv, run->dir, timeout_s, tools, 1, shown, unguarded, out);
}

int sanitizer_check_command(char *const *argv, const char *cwd, double timeout_s, unsigned tools,
                            emu_report_t *out)
{
    return run_tools(argv, cwd, timeout_s, tools, 0, NULL, NULL, out);
}
