/* fuzz_common.h - what the harnesses share: a scratch folder under /dev/shm
 * (or /tmp) made once per process and removed at exit, and writing the
 * input to a file there (for loaders that only take a path). */
#ifndef CUGRADE_FUZZ_COMMON_H
#define CUGRADE_FUZZ_COMMON_H

#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/util.h"

static char fuzz_scratch_dir[64];

static inline void fuzz_remove_scratch(void) { rm_rf(fuzz_scratch_dir); }

/* A fresh folder for this process, removed when it exits normally (a crash
 * leaves it, beside the crashing input). */
static inline const char *fuzz_scratch(void)
{
    if (!fuzz_scratch_dir[0]) {
        snprintf(fuzz_scratch_dir, sizeof fuzz_scratch_dir, "%s/cugrade-fuzz-XXXXXX",
                 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
        if (!mkdtemp(fuzz_scratch_dir))
            abort();
        atexit(fuzz_remove_scratch);
    }
    return fuzz_scratch_dir;
}

/* Writes data to path (whole, truncating); aborts when it cannot. */
static inline void fuzz_write(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        abort();
}

#endif
