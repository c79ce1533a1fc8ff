/* host_lines.c - a program address in a run's report turned into its
 * source line (host_lines.h). */
#include "run/host_lines.h"
#include "run/runner.h"
#include "util/util.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MARK "at program address 0x"
#define MAX_ADDRESSES 16

/* The addresses the text names, in order, as "0x..." strings. */
static int addresses(const char *text, char found[][24], int max)
{
    int n = 0;
    for (const char *p = strstr(text, MARK); p && n < max; p = strstr(p + 1, MARK)) {
        const char *hex = p + strlen(MARK) - 2;
        size_t len = strspn(hex + 2, "0123456789abcdef") + 2;
        if (len > 2 && len < 24)
            snprintf(found[n++], 24, "%.*s", (int)len, hex);
    }
    return n;
}

/* "dir/matmul.cu:42 (discriminator 3)" -> "matmul.cu:42"; "" for "??:0" or "??:?" */
static void tidy(const char *answer, size_t len, char *out, size_t outlen)
{
    char line[512];
    snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line ? len : sizeof line - 1), answer);
    line[strcspn(line, " \r")] = '\0';
    const char *colon = strrchr(line, ':'), *slash = strrchr(line, '/');
    out[0] = '\0';
    if (!colon || strncmp(line, "??", 2) == 0 || colon[1] < '1' || colon[1] > '9')
        return;
    snprintf(out, outlen, "%.200s", slash && slash < colon ? slash + 1 : line);
}

char *host_lines_apply(const char *text, const char *answers)
{
    if (!strstr(text, MARK))
        return NULL;
    strbuf_t sb = {0};
    const char *p = text, *a = answers ? answers : "";
    for (const char *m; (m = strstr(p, MARK)) != NULL;) {
        const char *hex = m + strlen(MARK);
        size_t len = strspn(hex, "0123456789abcdef");
        const char *nl = strchr(a, '\n');
        size_t alen = nl ? (size_t)(nl - a) : strlen(a);
        char where[256];
        tidy(a, alen, where, sizeof where);
        a = nl ? nl + 1 : a + alen;
        sb_appendn(&sb, p, (size_t)(m - p));
        if (where[0])
            sb_appendf(&sb, "at %s", where);
        else /* addr2line knew nothing of it: the address, as the executor said it */
            sb_appendn(&sb, m, strlen(MARK) + len);
        p = hex + len;
    }
    sb_append(&sb, p);
    return sb_detach(&sb);
}

void host_lines_resolve(const ds_run_t *r, const char *program)
{
    char *text = read_file(r->diag_path, NULL, NULL, 0), found[MAX_ADDRESSES][24], tool[PATH_MAX];
    int n = text ? addresses(text, found, MAX_ADDRESSES) : 0;
    if (n == 0 || find_program("addr2line", tool, sizeof tool) != 0) { /* no binutils: the address stays */
        free(text);
        return;
    }
    char *argv[MAX_ADDRESSES + 5] = {tool, "-e", (char *)program};
    for (int i = 0; i < n; i++)
        argv[3 + i] = found[i];
    const char *shown[] = {program, NULL};
    run_spec_t spec = {.argv = argv, .cwd = r->dir, .timeout_s = 20, .sandboxed = 1, .tool = 1,
                       .no_gpu = 1, .ro_paths = shown};
    run_result_t rr;
    run_one(&spec, &rr);
    char *done = rr.exited && rr.exit_code == 0 ? host_lines_apply(text, rr.output) : NULL;
    if (done)
        write_file_atomic(r->diag_path, done, strlen(done), NULL, 0); /* else the addresses stay */
    free(done);
    run_result_free(&rr);
    free(text);
}
