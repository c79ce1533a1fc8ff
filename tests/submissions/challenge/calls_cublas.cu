/* calls_cublas.cu - challenge: hands the product to cuBLAS (cublasSgemm),
 * which the lab's rule fp32-simt forbids: the kernel must be the
 * submission's own.
 *
 * The grader should say: "rule fp32-simt: the submission uses cuBLAS, a
 * library (...calls_cublas.cu:11: #include <cublas_v2.h>)" in the compiles
 * test, before the compiler's messages (the emulator has no cuBLAS; on a
 * GPU the object check refuses cublasSgemm_v2 and the link would lack
 * -lcublas anyway); every other test not run; performance 0 with the
 * rule's message. */
#include <cublas_v2.h>

void launchSgemm(const float *A, const float *B, float *C, int M, int N, int K)
{
    static cublasHandle_t handle;
    if (!handle)
        cublasCreate(&handle);
    const float one = 1.0f, zero = 0.0f;
    /* row-major C = A.B is column-major C^T = B^T.A^T */
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, N, A, K, &zero, C, N);
}
