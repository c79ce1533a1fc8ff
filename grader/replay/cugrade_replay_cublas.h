/* cugrade_replay_cublas.h - cuBLAS's SGEMM for bin/cugrade-replay, the
 * baseline a lab's performance may be measured against (rubric
 * performance.relative_to "cublas": the challenge). libcublas is opened at
 * run time, so that the runner starts where it is missing and says so
 * only when asked for it. Built with the runner, where the toolkit is. */
#ifndef CUGRADE_REPLAY_CUBLAS_H
#define CUGRADE_REPLAY_CUBLAS_H

#include <stddef.h>
#include <stdint.h>

typedef struct replay_cublas replay_cublas_t;

/* libcublas opened and a handle made on the current context, in FP32 on
 * the CUDA cores (CUBLAS_PEDANTIC_MATH: never TF32, as the lab's rule
 * asks of submissions). NULL with err when it cannot be. */
replay_cublas_t *replay_cublas_open(char *err, size_t errlen);

/* C = A B for row-major A (m x k), B (k x n), C (m x n) at device
 * addresses a, b, c, on the default stream (not waited for). 0, or -1
 * with err. */
int replay_cublas_sgemm(replay_cublas_t *h, int m, int n, int k, uint64_t a, uint64_t b, uint64_t c, char *err,
                        size_t errlen);

void replay_cublas_close(replay_cublas_t *h);

#endif
