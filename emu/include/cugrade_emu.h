/* cugrade_emu.h - the header emucc forces into every student .cu file
 * (g++ -include cugrade_emu.h). It makes visible what nvcc makes visible
 * without an #include: the CUDA runtime (here the emulator's shim) and the C
 * standard headers students rely on (printf, malloc, memcpy, sqrtf, assert,
 * FLT_MAX, INT_MAX...).
 * It also defines __CUDACC__ (first, as nvcc does for the host pass, so the
 * system headers see it too: they then leave out __float128) and
 * __CUGRADE_EMU__. __CUDA_ARCH__ stays undefined: this is host code. */
#ifndef CUGRADE_EMU_H
#define CUGRADE_EMU_H

#define __CUGRADE_EMU__ 1
#ifndef __CUDACC__
#define __CUDACC__ 1
#endif

#include <cassert>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_runtime.h"

#endif
