/* vgpu_main.cu - the reduction kind's program on the executor (issue 39):
 * the whole of what runs beside the student's file in the student's
 * process. It asks the executor for each call of the lab's launch function
 * (A, B and the partial sums as device pointers, and n) and makes it,
 * telling the executor, with the next request, how many partial sums the
 * function says it wrote; the executor reads the datasets, owns the
 * memory, and checks and sums the partial sums. Built with
 * -DCUGRADE_LAUNCH=<lab.json "launch">, linked with emu/vcudart/. */
#include <cstdint>

extern "C" int cugrade_vgpu_next(uint64_t *v, int max);
extern "C" int cugrade_vgpu_next_after(int64_t returned, uint64_t *v, int max);

int CUGRADE_LAUNCH(const float *deviceA, const float *deviceB, float *devicePartial, int n);

int main()
{
    uint64_t v[4];
    for (int got = cugrade_vgpu_next(v, 4); got == 4;) {
        int count = CUGRADE_LAUNCH((const float *)(uintptr_t)v[0], (const float *)(uintptr_t)v[1],
                                   (float *)(uintptr_t)v[2], (int)v[3]);
        got = cugrade_vgpu_next_after(count, v, 4);
    }
    return 0;
}
