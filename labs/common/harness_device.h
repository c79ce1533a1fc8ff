/* harness_device.h - a driver's device arrays, each between two guards,
 * kept from one dataset of a list run to the next.
 *
 * A kernel that reads past its arrays (a tile load without its bounds check)
 * reads whatever the driver happens to have there: the dataset before's data
 * in a list run, other memory in a process of its own. Its outputs, and so
 * its grade, would then depend on where the allocations fell: the same
 * kernel scored 49.5 in separate runs and 65.5 in a list on one H200
 * (docs/benchmarks.md). So on a GPU every array a driver uses has
 * HARNESS_GUARD_BYTES before and after it, and all of it is set for every
 * dataset:
 *
 *   harness_to_device(&a, host, bytes)   an input: its guards (and whatever
 *                                        room it has past the data) hold
 *                                        HARNESS_GUARD_BYTE, then the data
 *   harness_output(&a, bytes)            the output: all of it, guards too,
 *                                        the never-written NaN pattern
 *   harness_array_done(&a)               the dataset's end: kept for the next
 *                                        one (made anew only when too small)
 *
 * A read up to HARNESS_GUARD_BYTES past an input finds 0x7F7F7F7F
 * (3.39e38, finite and not the poison), the same in every run: a kernel
 * multiplying it in gets huge or infinite elements, and fails the same
 * datasets wherever it runs. A write past the output lands in its guard.
 * Kept arrays spare a list run three cudaMalloc and three cudaFree a
 * dataset, calls every process on the host waits for in turn (the lists'
 * round trips: bench/gpu_context.sh lists); since every byte of an array is
 * set again, nothing of one dataset reaches the next.
 *
 * Off (no guards, each array made to the dataset's size and freed at its
 * end, as before) where a read past an array must be seen for what it is: on
 * the CPU emulator (its checks measure each access against the
 * allocation's size; -DHARNESS_GUARDS=1 puts them back, for tests) and under
 * compute-sanitizer (the grader sets CUGRADE_GUARDS=off for its runs). */
#ifndef CUGRADE_HARNESS_DEVICE_H
#define CUGRADE_HARNESS_DEVICE_H

#include "harness.h"

#define HARNESS_GUARD_BYTE 0x7F
#define HARNESS_GUARD_BYTES ((size_t)4 << 20) /* 128 rows of 8192 floats */

#ifndef HARNESS_GUARDS
#ifdef __CUGRADE_EMU__
#define HARNESS_GUARDS 0
#else
#define HARNESS_GUARDS 1
#endif
#endif

/* Each guard's size: HARNESS_GUARD_BYTES, or 0 when guards are off. Read
 * once, in main's first dataset (the submission's code cannot read or set
 * the environment: the grader's object check refuses getenv and setenv). */
static inline size_t harness_guard_bytes(void)
{
    static int on = -1;
    if (on < 0) {
        const char *v = getenv("CUGRADE_GUARDS");
        on = HARNESS_GUARDS && !(v && strcmp(v, "off") == 0);
    }
    return on ? HARNESS_GUARD_BYTES : 0;
}

/* A device array and the room it has (bytes of data between its guards). */
typedef struct {
    char *base; /* its leading guard's first byte; NULL: none yet */
    size_t room;
} harness_array_t;

/* a ready for bytes of data, every byte of it (guards and room too) set to
 * fill unless fill < 0; returns the data's first byte. */
static inline void *harness_array_fill(harness_array_t *a, size_t bytes, int fill, const char *what)
{
    size_t guard = harness_guard_bytes();
    /* without guards, the dataset's own size always (one that failed left its
     * array unfreed) */
    if (!a->base || bytes > a->room || (guard == 0 && bytes != a->room)) {
        if (a->base)
            HARNESS_CHECK(cudaFree(a->base));
        a->base = NULL;
        HARNESS_CHECK(cudaMalloc((void **)&a->base, bytes + 2 * guard));
        a->room = bytes;
    }
    if (fill >= 0)
        harness_check(cudaMemset(a->base, fill, a->room + 2 * guard), what, __FILE__, __LINE__);
    return a->base + guard;
}

/* A device copy of bytes of host data in a, between guards of
 * HARNESS_GUARD_BYTE (one cudaMemset of the whole, then the data). */
static inline void *harness_to_device(harness_array_t *a, const void *host, size_t bytes)
{
    int guarded = harness_guard_bytes() > 0;
    void *dev = harness_array_fill(a, bytes, guarded ? HARNESS_GUARD_BYTE : -1,
                                   "cudaMemset (an input's guards)");
    HARNESS_CHECK(cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice));
    return dev;
}

/* An output buffer of bytes in a, all of it (its guards too) the
 * never-written NaN pattern, so the grader reports what no thread wrote. */
static inline void *harness_output(harness_array_t *a, size_t bytes)
{
    return harness_array_fill(a, bytes, POISON_BYTE, "cudaMemset (poisoning the output)");
}

/* At a dataset's end: a is kept for the next dataset when guards are on,
 * else freed (an emulator's or compute-sanitizer's check of the next
 * dataset measures its accesses against an array of its own size). */
static inline void harness_array_done(harness_array_t *a)
{
    if (harness_guard_bytes() > 0 || !a->base)
        return;
    HARNESS_CHECK(cudaFree(a->base));
    a->base = NULL;
    a->room = 0;
}

#endif
