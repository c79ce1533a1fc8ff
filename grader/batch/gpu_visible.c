/* gpu_visible.c - which GPU a batch worker's children are shown. A batch
 * that itself sees only some GPUs (a Slurm task given GPU 3 of a node gets
 * CUDA_VISIBLE_DEVICES=3, and the driver shows it as device 0) must hand
 * its children the GPU it was given, not "0": that is another GPU of the
 * node, perhaps another task's. */
#include "batch/gpu_visible.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void batch_visible_gpu(int index, char *buf, size_t len)
{
    const char *seen = getenv("CUDA_VISIBLE_DEVICES");
    snprintf(buf, len, "%d", index);
    if (!seen || !*seen || index < 0)
        return;
    const char *p = seen;
    for (int i = 0; i < index && p; i++) {
        p = strchr(p, ',');
        p = p ? p + 1 : NULL;
    }
    size_t n = p ? strcspn(p, ",") : 0;
    if (n > 0 && n < len)
        snprintf(buf, len, "%.*s", (int)n, p);
}
