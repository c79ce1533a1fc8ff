/* vgpu_main.cu - the array kind's program on the executor (issue 41): the
 * whole of what runs beside the student's file in the student's process.
 * It asks the executor for each call of the lab's launch function (the
 * arrays as device pointers and the params, in the order of lab.json's
 * signature) and makes it; the executor reads the datasets, owns the
 * memory, and reads the output back. Built with the lab's prototype,
 * CUGRADE_ARRAY_CALL(v) and CUGRADE_ARRAY_NARGS
 * (the header grader/build/harness_flags.c makes from the signature,
 * -include'd), linked with emu/vcudart/. */
#include <cstdint>

extern "C" int cugrade_vgpu_next(uint64_t *v, int max);

int main()
{
    uint64_t v[CUGRADE_ARRAY_NARGS];
    while (cugrade_vgpu_next(v, CUGRADE_ARRAY_NARGS) == CUGRADE_ARRAY_NARGS)
        CUGRADE_ARRAY_CALL(v);
    return 0;
}
