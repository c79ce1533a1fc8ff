/* cuda_runtime_api.h - CUDA's runtime API header as the CPU emulator sees
 * it: the declarations live in cuda_runtime.h. */
#ifndef CUGRADE_CUDA_RUNTIME_API_H
#define CUGRADE_CUDA_RUNTIME_API_H
#include "cuda_runtime.h"
#endif
