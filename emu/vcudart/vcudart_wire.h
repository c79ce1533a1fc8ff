/* vcudart_wire.h - what vcudart.cpp, the program's CUDA runtime on the
 * executor, lends the runtime's other files (symbols.cpp): a request to the
 * executor, the sticky-error bookkeeping, whether a pointer is device
 * memory, and a copy as cudaMemcpy makes it. */
#ifndef CUGRADE_VCUDART_WIRE_H
#define CUGRADE_VCUDART_WIRE_H

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

/* op with payload to the executor: its error; its reply's bytes into out (out_len of them). */
cudaError_t vcudart_call(uint32_t op, const void *payload, size_t len, void *out, size_t out_len);
/* e kept as the runtime's last error (cudaGetLastError), and returned. */
cudaError_t vcudart_note(cudaError_t e);
/* p is an address of the executor's device memory. */
bool vcudart_on_device(const void *p);
/* A copy of n bytes as cudaMemcpy makes it, called from called_from (for a host array's overflow). */
cudaError_t vcudart_copy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind, const void *called_from);

#endif
