/* cugrade_emu.h - the header emucc forces into every student .cu file
 * (g++ -include cugrade_emu.h). It makes visible what nvcc makes visible
 * without an #include: the CUDA runtime (here the emulator's shim) and the C
 * standard headers students rely on (printf, malloc, memcpy, sqrtf...).
 * It also defines __CUDACC__, as nvcc does, and __CUGRADE_EMU__. */
#ifndef CUGRADE_EMU_H
#define CUGRADE_EMU_H

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_runtime.h"

#define __CUGRADE_EMU__ 1
#ifndef __CUDACC__
#define __CUDACC__ 1
#endif

#endif
