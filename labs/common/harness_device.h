/* harness_device.h - a driver's device arrays, each between two guards.
 *
 * A kernel that reads past its arrays (a tile load without its bounds check)
 * reads whatever the driver happens to have there: the dataset before's data
 * in a list run, other memory in a process of its own. Its outputs, and so
 * its grade, would then depend on where the allocations fell: the same
 * kernel scored 49.5 in separate runs and 65.5 in a list on one H200
 * (docs/benchmarks.md). So on a GPU every array a driver makes has
 * HARNESS_GUARD_BYTES before and after it, set each time it is made:
 *
 *   harness_to_device(host, bytes)   an input: its guards hold
 *                                    HARNESS_GUARD_BYTE, then the data
 *   harness_output(bytes)            the output: all of it, guards too, the
 *                                    never-written NaN pattern (POISON_BYTE)
 *   harness_device_free(dptr)        either, freed
 *
 * A read up to HARNESS_GUARD_BYTES past an input finds 0x7F7F7F7F
 * (3.39e38, finite and not the poison), the same in every run: a kernel
 * multiplying it in gets huge or infinite elements, and fails the same
 * datasets wherever it runs. A write past the output lands in its guard.
 *
 * Off (no guards) where a read past an array must be seen for what it is:
 * on the CPU emulator (its checks find such reads against each allocation's
 * size; -DHARNESS_GUARDS=1 puts them back, for tests) and under
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

/* bytes of device memory between guards, every byte of it (guards too) set
 * to fill unless fill < 0; returns the first byte after the leading guard. */
static inline void *harness_device_array(size_t bytes, int fill, const char *what)
{
    size_t guard = harness_guard_bytes();
    char *base = NULL;
    HARNESS_CHECK(cudaMalloc((void **)&base, bytes + 2 * guard));
    if (fill >= 0)
        harness_check(cudaMemset(base, fill, bytes + 2 * guard), what, __FILE__, __LINE__);
    return base + guard;
}

/* A device copy of bytes of host data, between guards of HARNESS_GUARD_BYTE
 * (one cudaMemset of the whole, then the data over its middle). */
static inline void *harness_to_device(const void *host, size_t bytes)
{
    int guarded = harness_guard_bytes() > 0;
    void *dev = harness_device_array(bytes, guarded ? HARNESS_GUARD_BYTE : -1,
                                     "cudaMemset (an input's guards)");
    HARNESS_CHECK(cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice));
    return dev;
}

/* An output buffer of bytes, all of it (its guards too) the never-written
 * NaN pattern, so the grader reports what no thread wrote (harness_poison). */
static inline void *harness_output(size_t bytes)
{
    return harness_device_array(bytes, POISON_BYTE, "cudaMemset (poisoning the output)");
}

static inline void harness_device_free(void *dev)
{
    HARNESS_CHECK(cudaFree((char *)dev - harness_guard_bytes()));
}

#endif
