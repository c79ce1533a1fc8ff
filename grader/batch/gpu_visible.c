/* gpu_visible.c - which GPU a batch worker's children are shown. A batch
 * that itself sees only some GPUs (a Slurm task given GPU 3 of a node gets
 * CUDA_VISIBLE_DEVICES=3, and the driver shows it as device 0) must hand
 * its children the GPU it was given, not "0": that is another GPU of the
 * node, perhaps another task's. And the GPU's device file, so that the
 * children's sandbox can leave the others out (run/sandbox.h). */
#include "batch/gpu_visible.h"

#include "util/util.h"

#include <limits.h>
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

int gpu_device_node(const char *proc, const char *bus_id, char *node, size_t len)
{
    unsigned domain, bus, device, function;
    char end;
    if (sscanf(bus_id, "%x:%x:%x.%x%c", &domain, &bus, &device, &function, &end) != 4)
        return -1;
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/driver/nvidia/gpus/%04x:%02x:%02x.%x/information", proc,
             domain, bus, device, function);
    char *text = read_file(path, NULL, NULL, 0);
    const char *at = text ? strstr(text, "Device Minor:") : NULL;
    int minor = -1;
    if (at && (at == text || at[-1] == '\n') &&
        sscanf(at + strlen("Device Minor:"), " %d", &minor) == 1 && minor >= 0 && minor < 1000)
        snprintf(node, len, "/dev/nvidia%d", minor);
    free(text);
    return minor >= 0 && minor < 1000 ? 0 : -1;
}
