/* launch.h - how the matmul kind's harness (driver.cu, perf.cu) declares and
 * calls a lab's launch function (lab.json "launch", -DCUGRADE_LAUNCH=name).
 * lab.json "launch_args" picks its parameters; the grader passes
 * -DCUGRADE_LAUNCH_MNK to every compile of the driver and the timing program
 * for "m-n-k":
 *
 *   "rows-cols" (default; lab 2, lab 3):
 *       void launch(const float *A, const float *B, float *C,
 *                   int numARows, int numAColumns, int numBRows,
 *                   int numBColumns, int numCRows, int numCColumns);
 *   "m-n-k" (the challenge lab):
 *       void launch(const float *A, const float *B, float *C, int M, int N, int K);
 *
 * A is M x K, B is K x N and C is M x N, all row-major device pointers.
 * MATMUL_LAUNCH_PARAMS is the parameter list (for declarations and function
 * pointers); MATMUL_LAUNCH_CALL(fn, A, B, C, M, K, N) calls fn on a product
 * given, as everywhere in the harness, by M, K and N. */
#ifndef CUGRADE_MATMUL_LAUNCH_H
#define CUGRADE_MATMUL_LAUNCH_H

#ifdef CUGRADE_LAUNCH_MNK
#define MATMUL_LAUNCH_PARAMS const float *, const float *, float *, int, int, int
#define MATMUL_LAUNCH_CALL(fn, A, B, C, M, K, N) (fn)((A), (B), (C), (M), (N), (K))
#else
#define MATMUL_LAUNCH_PARAMS \
    const float *, const float *, float *, int, int, int, int, int, int
#define MATMUL_LAUNCH_CALL(fn, A, B, C, M, K, N) \
    (fn)((A), (B), (C), (M), (K), (K), (N), (M), (N))
#endif

#endif
