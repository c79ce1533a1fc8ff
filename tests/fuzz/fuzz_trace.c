/* fuzz_trace.c - libFuzzer harness of the launch-record reader
 * (replay/trace.c) and its replay (replay/replay.c): the input is a record
 * beside a 64-byte byte file. Besides the sanitizers, it checks the
 * promise the runners rely on: a record that reads is replayed on a
 * pretend device that aborts on any address outside what it allocated,
 * any copy past an allocation's end, and any pointer argument that is not
 * one of its own addresses (or one past an end). */
#include "fuzz_common.h"
#include "replay/replay.h"
#include "replay/trace.h"

#define BLOB 64
#define SLOTS 64
#define MAX_BYTES (1u << 20)

typedef struct {
    uint8_t *mem[SLOTS];
    uint64_t size[SLOTS];
} dev_t_;

#define BASE 0x100000000ull
#define STRIDE 0x10000000ull

/* The bytes at [addr, addr + n) of an allocation; aborts when outside. */
static uint8_t *at(dev_t_ *d, uint64_t addr, uint64_t n)
{
    if (addr < BASE)
        abort();
    uint64_t i = (addr - BASE) / STRIDE, off = (addr - BASE) % STRIDE;
    if (i >= SLOTS || !d->mem[i] || off > d->size[i] || n > d->size[i] - off)
        abort();
    return d->mem[i] + off;
}

static int f_alloc(void *self, uint64_t bytes, uint64_t *addr, char *err, size_t errlen)
{
    dev_t_ *d = self;
    for (int i = 0; i < SLOTS && bytes <= MAX_BYTES; i++)
        if (!d->mem[i]) {
            d->mem[i] = malloc(bytes), d->size[i] = bytes;
            *addr = BASE + (uint64_t)i * STRIDE;
            return d->mem[i] ? 0 : -1;
        }
    snprintf(err, errlen, "too much");
    return -1;
}

static int f_release(void *self, uint64_t addr, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    dev_t_ *d = self;
    at(d, addr, 0);
    uint64_t i = (addr - BASE) / STRIDE;
    if ((addr - BASE) % STRIDE)
        abort(); /* only an allocation's own address is freed */
    free(d->mem[i]);
    d->mem[i] = NULL;
    return 0;
}

static int f_to(void *self, uint64_t addr, const void *src, uint64_t n, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    memcpy(at(self, addr, n), src, n);
    return 0;
}

static int f_from(void *self, void *dst, uint64_t addr, uint64_t n, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    memcpy(dst, at(self, addr, n), n);
    return 0;
}

static int f_fill(void *self, uint64_t addr, int value, uint64_t n, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    memset(at(self, addr, n), value, n);
    return 0;
}

static int f_launch(void *self, const trace_op_t *op, void **args, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    for (int i = 0; i < op->nargs; i++)
        for (int k = 0; k < op->args[i].nrelocs; k++) {
            uint64_t p;
            memcpy(&p, (uint8_t *)args[i] + op->args[i].relocs[k].at, sizeof p);
            at(self, p, 0); /* a pointer into one of the device's allocations */
        }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[128];
    snprintf(path, sizeof path, "%s/fuzz.trace", fuzz_scratch());
    fuzz_write(path, data, size);
    trace_t t;
    char err[512];
    if (trace_read(path, BLOB, &t, err, sizeof err) != 0) {
        if (strncmp(err, path, strlen(path)) != 0)
            abort(); /* every refusal names the file */
        return 0;
    }
    static const uint8_t blob[BLOB];
    dev_t_ d = {0};
    replay_device_t dev = {&d, f_alloc, f_release, f_to, f_from, f_fill, f_launch, NULL, NULL};
    matrix_t out;
    replay_run(&t, blob, NULL, &dev, &out, err, sizeof err);
    matrix_free(&out);
    for (int i = 0; i < SLOTS; i++)
        if (d.mem[i])
            abort(); /* replay_run frees what the record left */
    trace_free(&t);
    return 0;
}
