/* fuzz_srccheck.c - libFuzzer harness of the source check
 * (build/srccheck.c on build/srclex.c): the submission's source is the
 * student's, so any bytes reach it before the compiler does. The input is
 * written as <scratch>/sub/main.cu, the submission's folder holding one
 * more file, inc.h (so quoted includes and probes that find it are
 * followed). Besides the sanitizers, it checks what srccheck.h promises:
 * 0 allowed, 1 refused with the file and what was refused said (the file
 * one of the folder's, the line within the file's), -1 only with a reason;
 * and the answer is the same when asked twice. */
#include "build/srccheck.h"
#include "fuzz_common.h"

static int lines_in(const uint8_t *data, size_t size)
{
    int n = 1;
    for (size_t i = 0; i < size; i++)
        n += data[i] == '\n';
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char sub[PATH_MAX], src[PATH_MAX + 16];
    if (!sub[0]) {
        snprintf(sub, sizeof sub, "%s/sub", fuzz_scratch());
        snprintf(src, sizeof src, "%s/main.cu", sub);
        char inc[PATH_MAX + 16];
        snprintf(inc, sizeof inc, "%s/inc.h", sub);
        if (mkdir(sub, 0700) != 0)
            abort();
        fuzz_write(inc, (const uint8_t *)"int from_inc;\n", 14);
    }
    fuzz_write(src, data, size);
    srccheck_result_t r, again;
    int rc = srccheck_source(src, NULL, &r);
    if (rc != srccheck_source(src, NULL, &again) || strcmp(r.what, again.what) != 0)
        abort(); /* the same source, another answer */
    if (rc == 1) {
        if (!r.what[0] || strncmp(r.file, sub, strlen(sub)) != 0 || r.line < 0)
            abort();
        if (strcmp(path_base(r.file), "main.cu") == 0 && r.line > lines_in(data, size))
            abort(); /* a line the file does not have */
    } else if (rc == -1) {
        if (!r.what[0])
            abort();
    } else if (rc != 0) {
        abort();
    }
    return 0;
}
