/* test_emu_memory.cpp - device memory in the emulator: cudaMalloc gives
 * 256-byte-aligned memory that round-trips through cudaMemcpy and
 * cudaMemset; copies to or from a pointer that is not device memory, or
 * past the end of an allocation, and frees of such pointers fail with
 * cudaErrorInvalidValue and set the last error; __constant__ symbols. */
#include <criterion/criterion.h>
#include <vector>

#include "emu_test_helpers.h"

Test(emu_memory, malloc_copy_round_trip)
{
    const size_t n = 1000;
    float *d = nullptr;
    cr_assert_eq(cudaMalloc(&d, n * sizeof(float)), cudaSuccess);
    cr_assert_not_null(d);
    cr_assert_eq(reinterpret_cast<uintptr_t>(d) % 256, 0u);
    std::vector<float> host(n), back(n);
    for (size_t i = 0; i < n; i++)
        host[i] = float(i) * 1.5f;
    cr_assert_eq(cudaMemcpy(d, host.data(), n * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
    cr_assert_eq(cudaMemcpy(back.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
    cr_assert(back == host);
    cr_assert_eq(cudaMemset(d, 0xFF, n * sizeof(float)), cudaSuccess);
    cr_assert_eq(cudaMemcpy(back.data(), d, n * sizeof(float), cudaMemcpyDefault), cudaSuccess);
    unsigned bits;
    memcpy(&bits, &back[17], 4);
    cr_assert_eq(bits, 0xFFFFFFFFu);
    cr_assert_eq(cudaFree(d), cudaSuccess);
}

Test(emu_memory, copies_need_device_pointers)
{
    float *d;
    cudaMalloc((void **)&d, 64 * sizeof(float));
    std::vector<float> host(64, 1.0f), other(64);
    /* Host pointer where the kind says device: refused, nothing copied. */
    cr_assert_eq(cudaMemcpy(other.data(), host.data(), 64 * sizeof(float), cudaMemcpyHostToDevice),
                 cudaErrorInvalidValue);
    cr_assert_eq(other[0], 0.0f);
    cr_assert_eq(cudaGetLastError(), cudaErrorInvalidValue);
    cr_assert_eq(cudaGetLastError(), cudaSuccess);
    /* Arguments swapped (a classic): the source is not device memory. */
    cr_assert_eq(cudaMemcpy(d, host.data(), 64 * sizeof(float), cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
    cr_assert_eq(cudaMemcpy(d, host.data(), 64 * sizeof(float), cudaMemcpyDeviceToDevice), cudaErrorInvalidValue);
    cr_assert_eq(cudaMemset(host.data(), 0, 16), cudaErrorInvalidValue);
    cr_assert_eq(cudaMemcpy(d, host.data(), 16, cudaMemcpyKind(7)), cudaErrorInvalidMemcpyDirection);
    cr_assert_eq(cudaMemcpy(nullptr, host.data(), 16, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    cr_assert_eq(cudaMemcpy(other.data(), host.data(), 64 * sizeof(float), cudaMemcpyHostToHost), cudaSuccess);
    cr_assert_eq(cudaMemcpy(d, host.data(), 0, cudaMemcpyHostToDevice), cudaSuccess);
    cudaGetLastError();
    cudaFree(d);
}

Test(emu_memory, copies_must_stay_inside_the_allocation)
{
    float *d;
    cudaMalloc(&d, 100 * sizeof(float));
    std::vector<float> host(200, 2.0f);
    cr_assert_eq(cudaMemcpy(d, host.data(), 100 * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
    cr_assert_eq(cudaMemcpy(d + 50, host.data(), 50 * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
    cr_assert_eq(cudaMemcpy(d + 50, host.data(), 51 * sizeof(float), cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    cr_assert_eq(cudaMemcpy(d, host.data(), 101 * sizeof(float), cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    cr_assert_eq(cudaMemcpy(host.data(), d, 101 * sizeof(float), cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
    cr_assert_eq(cudaMemset(d + 99, 0, 8), cudaErrorInvalidValue);
    cudaFree(d);
    cudaGetLastError();
}

Test(emu_memory, free_checks_its_pointer)
{
    int x = 0;
    float *d;
    cudaMalloc(&d, 64);
    cr_assert_eq(cudaFree(nullptr), cudaSuccess);
    cr_assert_eq(cudaFree(&x), cudaErrorInvalidValue);
    cr_assert_eq(cudaFree(d + 1), cudaErrorInvalidValue, "not the start of the allocation");
    cr_assert_eq(cudaFree(d), cudaSuccess);
    cr_assert_eq(cudaFree(d), cudaErrorInvalidValue, "double free");
    cr_assert_eq(cudaMemcpy(d, &x, sizeof x, cudaMemcpyHostToDevice), cudaErrorInvalidValue, "use after free");
    cudaGetLastError();
}

Test(emu_memory, allocation_limits)
{
    void *p = &p;
    cr_assert_eq(cudaMalloc(&p, 0), cudaSuccess);
    cr_assert_null(p);
    cr_assert_eq(cudaMalloc(&p, size_t(1) << 40), cudaErrorMemoryAllocation);
    cr_assert_eq(cudaGetLastError(), cudaErrorMemoryAllocation);
    cr_assert_eq(cudaMalloc((void **)nullptr, 16), cudaErrorInvalidValue);
    size_t free_bytes, total;
    cr_assert_eq(cudaMemGetInfo(&free_bytes, &total), cudaSuccess);
    cr_assert_eq(total, size_t(16) << 30);
    cudaGetLastError();
}

Test(emu_memory, pinned_host_memory)
{
    float *h;
    cr_assert_eq(cudaMallocHost(&h, 256), cudaSuccess);
    cr_assert_eq(cudaMemset(h, 0, 256), cudaErrorInvalidValue, "pinned host memory is not device memory");
    cr_assert_eq(cudaFree(h), cudaErrorInvalidValue);
    cr_assert_eq(cudaFreeHost(h), cudaSuccess);
    cudaGetLastError();
}

__constant__ float coefficients[8];
__device__ int device_counter;

__global__ void apply_coefficients(float *out)
{
    out[threadIdx.x] = coefficients[threadIdx.x] * 2.0f;
    atomicAdd(&device_counter, 1);
}

Test(emu_memory, constant_and_device_symbols)
{
    float host[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    float *out;
    cudaMallocManaged(&out, 8 * sizeof(float));
    cr_assert_eq(cudaMemcpyToSymbol(coefficients, host, sizeof host), cudaSuccess);
    cr_assert_eq(cudaMemcpyToSymbol(coefficients, host, 2 * sizeof(float), 6 * sizeof(float)), cudaSuccess);
    cr_assert_eq(cudaMemcpyToSymbol(coefficients, host, sizeof host, 4), cudaErrorInvalidValue);
    cr_assert_eq(cudaMemcpyToSymbol(coefficients, host, 4, 0, cudaMemcpyDeviceToHost), cudaErrorInvalidMemcpyDirection);
    int zero = 0;
    cr_assert_eq(cudaMemcpyToSymbol(device_counter, &zero, sizeof zero), cudaSuccess);
    ::cugrade::kernel_launch(apply_coefficients, "apply_coefficients", __FILE__, __LINE__).config(1, 8)(out);
    float expected[8] = {2, 4, 6, 8, 10, 12, 2, 4};
    for (int i = 0; i < 8; i++)
        cr_assert_eq(out[i], expected[i], "element %d", i);
    int count = 0;
    cr_assert_eq(cudaMemcpyFromSymbol(&count, device_counter, sizeof count), cudaSuccess);
    cr_assert_eq(count, 8);
    void *address;
    cr_assert_eq(cudaGetSymbolAddress(&address, coefficients), cudaSuccess);
    cr_assert_eq(address, (void *)coefficients);
    cudaGetLastError();
}

Test(emu_memory, device_reset_frees_everything)
{
    float *d;
    cudaMalloc(&d, 1024);
    cr_assert_eq(cudaDeviceReset(), cudaSuccess);
    cr_assert_eq(cudaMemset(d, 0, 4), cudaErrorInvalidValue);
    size_t free_bytes, total;
    cudaMemGetInfo(&free_bytes, &total);
    cr_assert_eq(free_bytes, total);
}
