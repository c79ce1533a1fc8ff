/* vgpu_replay.cpp - the executor as the device of a replay (vgpu_replay.h). */
#include "vgpu_replay.h"

extern "C" {
#include "replay/replay.h"
#include "replay/replay_io.h"
#include "util/util.h"
}

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

const char *const statuses[] = {"ok", "a parse error", "no such kernel", "a launch configuration error",
                                "an illegal address", "its instruction budget", "a barrier error",
                                "an invalid launch", "an unsupported instruction"};

int said(char *err, size_t errlen, const char *what)
{
    snprintf(err, errlen, "%s", what);
    return -1;
}

int alloc(void *self, uint64_t bytes, uint64_t *addr, char *err, size_t errlen)
{
    *addr = ptx_malloc((ptx_device_t *)self, bytes);
    return *addr ? 0 : said(err, errlen, "the executor has no memory for it");
}

int release(void *self, uint64_t addr, char *err, size_t errlen)
{
    return ptx_free((ptx_device_t *)self, addr) == PTX_OK ? 0 : said(err, errlen, "not an allocation");
}

int to_device(void *self, uint64_t addr, const void *src, uint64_t n, char *err, size_t errlen)
{
    return ptx_copy_to_device((ptx_device_t *)self, addr, src, n) == PTX_OK ? 0 : said(err, errlen, "a bad copy");
}

int from_device(void *self, void *dst, uint64_t addr, uint64_t n, char *err, size_t errlen)
{
    return ptx_copy_from_device((ptx_device_t *)self, dst, addr, n) == PTX_OK ? 0 : said(err, errlen, "a bad copy");
}

int fill(void *self, uint64_t addr, int value, uint64_t n, char *err, size_t errlen)
{
    return ptx_memset((ptx_device_t *)self, addr, value, n) == PTX_OK ? 0 : said(err, errlen, "a bad memset");
}

int launch(void *self, const trace_op_t *op, void **args, char *err, size_t errlen)
{
    ptx_launch_result_t r;
    ptx_dim3_t g = {op->grid[0], op->grid[1], op->grid[2]}, b = {op->block[0], op->block[1], op->block[2]};
    ptx_status_t s = ptx_launch((ptx_device_t *)self, op->kernel, g, b, op->shared, args, 0, &r);
    if (s == PTX_OK || s == PTX_ERR_BARRIER)
        return 0;
    snprintf(err, errlen, "it stopped at %s%s%s", statuses[s], r.message[0] ? ": " : "", r.message);
    return s == PTX_ERR_NO_KERNEL || s == PTX_ERR_PARSE ? -1 : 1;
}

int global(void *self, const char *name, uint64_t bytes, uint64_t *addr, char *err, size_t errlen)
{
    size_t size = 0;
    if (ptx_symbol((ptx_device_t *)self, name, addr, &size) != PTX_OK)
        return said(err, errlen, "the module has no such variable");
    return size >= bytes ? 0 : said(err, errlen, "the module's is smaller than the record's");
}

} // namespace

int vgpu_replay(ptx_device_t *d, const char *trace_path, const char *inputs_dir, const char *out_path)
{
    char err[1024], *blob;
    trace_t t;
    if (trace_load(trace_path, &t, &blob, err, sizeof err) != 0) {
        fprintf(stderr, "cugrade-vgpu: %s\n", err);
        return 2;
    }
    replay_device_t dev = {d, alloc, release, to_device, from_device, fill, launch, nullptr, global};
    matrix_t out;
    int rc = replay_run(&t, (const uint8_t *)blob, inputs_dir, &dev, &out, err, sizeof err);
    if (rc == 0 && replay_write_output(out_path, &out, err, sizeof err) != 0)
        rc = 2;
    if (rc != 0)
        fprintf(stderr, "cugrade-vgpu: %s: %s\n", trace_path, err);
    matrix_free(&out);
    trace_free(&t);
    free(blob);
    return rc;
}
