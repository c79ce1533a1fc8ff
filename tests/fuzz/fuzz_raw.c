/* fuzz_raw.c - libFuzzer harness of the libwb .raw reader (dataset/rawio.c):
 * the input is parsed as a dataset (raw_parse, from memory) and as a
 * program's answer (raw_read_solution, from a memfd by its /proc path, the
 * only way into that mode). Besides the sanitizers, it checks what rawio.h
 * promises of an accepted file: a sane shape, every element there, and, for
 * a dataset, only finite values. */
#include "dataset/rawio.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static int memfd = -1;
static char memfd_path[64];

static void check_matrix(const matrix_t *m, int dataset)
{
    if (m->rows < 0 || m->cols < 0 || m->rows > RAW_MAX_DIM || m->cols > RAW_MAX_DIM ||
        (long)m->rows * m->cols > RAW_MAX_ELEMS)
        abort();
    if (m->vector && m->cols != 1)
        abort();
    long n = (long)m->rows * m->cols;
    if (n > 0 && !m->data)
        abort();
    for (long i = 0; i < n; i++) /* reads every element: ASan sees a short buffer */
        if (dataset && !isfinite(m->data[i]))
            abort();
}

static void parse_memory(const uint8_t *data, size_t size)
{
    matrix_t m;
    char err[256];
    if (raw_parse("fuzz.raw", (const char *)data, size, &m, err, sizeof err) == 0) {
        check_matrix(&m, 1);
        matrix_free(&m);
    }
}

static void read_solution(const uint8_t *data, size_t size)
{
    matrix_t m;
    char err[256];
    if (memfd < 0) {
        memfd = memfd_create("fuzz-raw", MFD_CLOEXEC);
        snprintf(memfd_path, sizeof memfd_path, "/proc/self/fd/%d", memfd);
    }
    if (memfd < 0 || ftruncate(memfd, 0) != 0 || pwrite(memfd, data, size, 0) != (ssize_t)size)
        abort();
    if (raw_read_solution(memfd_path, &m, err, sizeof err) == 0) {
        check_matrix(&m, 0);
        matrix_free(&m);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    parse_memory(data, size);
    read_solution(data, size);
    return 0;
}
