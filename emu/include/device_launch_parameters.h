/* device_launch_parameters.h - threadIdx and friends in the CPU emulator;
 * they live in cuda_runtime.h. */
#ifndef CUGRADE_DEVICE_LAUNCH_PARAMETERS_H
#define CUGRADE_DEVICE_LAUNCH_PARAMETERS_H
#include "cuda_runtime.h"
#endif
