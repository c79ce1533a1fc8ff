/* cuda.h - CUDA's driver API header as the CPU emulator sees it: students
 * include it for the runtime declarations, so it is the runtime shim. */
#ifndef CUGRADE_CUDA_H
#define CUGRADE_CUDA_H
#include "cuda_runtime.h"
#endif
