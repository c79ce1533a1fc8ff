/* calls_cublas_hidden.cu - challenge: calls cuBLAS without naming it
 * anywhere the source check could see (no header, the names pasted
 * together by a macro), so the first stage that sees it is the compiled
 * object: its undefined symbols (nm) include cublasCreate_v2 and
 * cublasSgemm_v2.
 *
 * The grader should say: "rule fp32-simt: the submission uses cuBLAS, a
 * library (calls cublasCreate_v2, in its compiled object)" in the compiles
 * test, ahead of the object check's refusal of the same call (which stops
 * the build); every other test not run; performance 0 with the rule's
 * message. */
#define LIBRARY(name) cu##name

typedef struct opaque *handle_t;
extern "C" int LIBRARY(blasCreate_v2)(handle_t *handle);
extern "C" int LIBRARY(blasSgemm_v2)(handle_t handle, int opa, int opb, int m, int n, int k,
                                     const float *alpha, const float *a, int lda, const float *b,
                                     int ldb, const float *beta, float *c, int ldc);

void launchSgemm(const float *A, const float *B, float *C, int M, int N, int K)
{
    static handle_t handle;
    if (!handle)
        LIBRARY(blasCreate_v2)(&handle);
    const float one = 1.0f, zero = 0.0f;
    LIBRARY(blasSgemm_v2)(handle, 0, 0, N, M, K, &one, B, N, A, K, &zero, C, N);
}
