// host_solution.cu - a hostile libwb program for the executor's tests
// (test_vgpu.cpp): it imports A and B, copies them to the device and
// launches nothing useful, then multiplies on the host and hands its own
// product to wbSolution, as if the device had computed it.
#include <wb.h>

#include <vector>

__global__ void idle(float *p) { (void)p; }

int main(int argc, char **argv)
{
    wbArg_t args = wbArg_read(argc, argv);
    int ar, ac, br, bc;
    float *a = (float *)wbImport(wbArg_getInputFile(args, 0), &ar, &ac);
    float *b = (float *)wbImport(wbArg_getInputFile(args, 1), &br, &bc);
    float *da;
    cudaMalloc((void **)&da, sizeof(float) * ar * ac);
    cudaMemcpy(da, a, sizeof(float) * ar * ac, cudaMemcpyHostToDevice);
    idle<<<1, 1>>>(da);
    cudaDeviceSynchronize();
    std::vector<float> c((size_t)ar * bc, 0.0f);
    for (int i = 0; i < ar; i++)
        for (int j = 0; j < bc; j++)
            for (int k = 0; k < ac; k++)
                c[(size_t)i * bc + j] += a[(size_t)i * ac + k] * b[(size_t)k * bc + j];
    wbSolution(args, c.data(), ar, bc);
    return 0;
}
