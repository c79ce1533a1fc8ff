/* gpu_visible.h - which GPU a batch worker's children are shown
 * (gpu_visible.c). */
#ifndef CUGRADE_GPU_VISIBLE_H
#define CUGRADE_GPU_VISIBLE_H

#include <stddef.h>

/* The GPU to show the children of worker index mod ngpu: that entry of the
 * batch's own CUDA_VISIBLE_DEVICES when it has one, else the index itself. */
void batch_visible_gpu(int index, char *buf, size_t len);

/* The device file ("/dev/nvidiaN") of the GPU at PCI bus id bus_id (as the
 * CUDA driver writes it, "0000:1B:00.0"), from the NVIDIA driver's
 * <proc>/driver/nvidia/gpus/<id>/information ("Device Minor: N"); 0, or -1
 * when the id is malformed or the file or line is not there. */
int gpu_device_node(const char *proc, const char *bus_id, char *node, size_t len);

#endif
