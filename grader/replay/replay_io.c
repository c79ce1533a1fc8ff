/* replay_io.c - a dataset's inputs and an output, as files (replay_io.h). */
#include "replay/replay_io.h"
#include "matbin.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int replay_read_input(const char *dir, int i, matrix_t *m, char *err, size_t errlen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/input%d.bin", dir, i);
    float *data = NULL;
    matbin_header_t h;
    int rc = matbin_read(path, &data, &h);
    if (rc == 0) {
        *m = (matrix_t){(int)h.rows, (int)h.cols, data, 0};
        return 0;
    }
    if (rc == -2) {
        snprintf(err, errlen, "%s: truncated or malformed", path);
        return -1;
    }
    snprintf(path, sizeof path, "%s/input%d.raw", dir, i);
    return raw_read(path, m, err, errlen);
}

int replay_write_output(const char *path, const matrix_t *m, char *err, size_t errlen)
{
    size_t n = strlen(path);
    if (n > 4 && strcmp(path + n - 4, ".bin") == 0) {
        if (matbin_write(path, m->data, (uint32_t)m->rows, (uint32_t)m->cols, -1.0) == 0)
            return 0;
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    return raw_write_solution(path, m, err, errlen); /* a kernel's output may hold NaN, the poison */
}
