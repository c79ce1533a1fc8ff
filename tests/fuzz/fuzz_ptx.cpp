/* fuzz_ptx.cpp - libFuzzer harness of the executor (emu/ptx/): PTX text is
 * hostile input (a student's inline asm lands in it). Each input is loaded;
 * every kernel that loads is launched on 2 blocks of 33 threads with 64
 * bytes of dynamic shared memory, every parameter zero (null pointers: the
 * accesses become findings), a budget of 20000 instructions, and the checks
 * on or off by the input's length. Whatever the input, no crash, no
 * sanitizer report, no hang. Seeds: tests/fuzz/corpus/ptx/ (nvcc's PTX of
 * lab 3's reference and of emu/tests/ptx/). */
#include "ptx.h"

#include <cstddef>
#include <cstdint>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 17))
        return 0;
    ptx_device_t *d = ptx_device_new();
    char err[256];
    if (ptx_load(d, (const char *)data, size, err, sizeof err) == PTX_OK) {
        ptx_set_checks(d, size % 2 ? PTX_CHECK_RACES | PTX_CHECK_UNINIT : 0);
        static std::vector<uint8_t> zeros(32768, 0);
        std::vector<void *> args(16384, zeros.data());
        for (int i = 0; i < 8; i++) {
            const char *name = ptx_kernel_name(d, i);
            if (!name)
                break;
            ptx_launch_result_t r;
            ptx_launch(d, name, {2, 1, 1}, {33, 1, 1}, 64, args.data(), 20000, &r);
        }
    }
    ptx_device_free(d);
    return 0;
}
