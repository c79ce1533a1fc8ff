/* gpu_visible.h - which GPU a batch worker's children are shown
 * (gpu_visible.c). */
#ifndef CUGRADE_GPU_VISIBLE_H
#define CUGRADE_GPU_VISIBLE_H

#include <stddef.h>

/* The GPU to show the children of worker index mod ngpu: that entry of the
 * batch's own CUDA_VISIBLE_DEVICES when it has one, else the index itself. */
void batch_visible_gpu(int index, char *buf, size_t len);

#endif
