/* cuda_pipeline_primitives.h - the __pipeline_* primitives for the CPU
 * emulator; they live in cuda_pipeline.h (see there). */
#include "cuda_pipeline.h"
