/* cugrade_replay_cublas.c - cuBLAS's SGEMM, opened at run time, for the
 * GPU's trusted runner (cugrade_replay_cublas.h). The library of the
 * toolkit the runner was built with is tried first (CUGRADE_CUDA_LIB),
 * then the loader's. Its four functions are declared here, from cuBLAS's
 * documented C API (cublas_api.h), so that the runner builds with a
 * toolkit that has no cuBLAS (NVIDIA's compiler wheels, tools/cuda_pip.sh):
 * the handle is opaque, the status and the enums are ints of fixed value. */
#include "replay/cugrade_replay_cublas.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef CUGRADE_CUDA_LIB
#define CUGRADE_CUDA_LIB "/usr/local/cuda/lib64"
#endif

typedef struct cublas_context *cublas_handle_t;
enum {
    CUBLAS_OK = 0,             /* CUBLAS_STATUS_SUCCESS */
    CUBLAS_NOT_INITIALIZED = 1, /* CUBLAS_STATUS_NOT_INITIALIZED */
    CUBLAS_NO_TRANSPOSE = 0,   /* CUBLAS_OP_N */
    CUBLAS_FP32_PEDANTIC = 2   /* CUBLAS_PEDANTIC_MATH: never TF32 */
};

struct replay_cublas {
    void *lib;
    cublas_handle_t handle;
    int (*create)(cublas_handle_t *handle);
    int (*destroy)(cublas_handle_t handle);
    int (*set_math_mode)(cublas_handle_t handle, int mode);
    int (*sgemm)(cublas_handle_t handle, int transa, int transb, int m, int n, int k, const float *alpha,
                 const float *a, int lda, const float *b, int ldb, const float *beta, float *c, int ldc);
};

static void *open_library(char *err, size_t errlen)
{
    static const char *const names[] = {CUGRADE_CUDA_LIB "/libcublas.so", "libcublas.so.13", "libcublas.so.12",
                                        "libcublas.so"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        void *lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (lib)
            return lib;
    }
    snprintf(err, errlen, "no cuBLAS on this machine (libcublas.so: %s), which this lab's performance is "
                          "measured against", dlerror());
    return NULL;
}

replay_cublas_t *replay_cublas_open(char *err, size_t errlen)
{
    replay_cublas_t *h = calloc(1, sizeof *h);
    if (!h || !(h->lib = open_library(err, errlen))) {
        free(h);
        return NULL;
    }
    *(void **)&h->create = dlsym(h->lib, "cublasCreate_v2");
    *(void **)&h->destroy = dlsym(h->lib, "cublasDestroy_v2");
    *(void **)&h->set_math_mode = dlsym(h->lib, "cublasSetMathMode");
    *(void **)&h->sgemm = dlsym(h->lib, "cublasSgemm_v2");
    int s = CUBLAS_NOT_INITIALIZED;
    if (!h->create || !h->destroy || !h->set_math_mode || !h->sgemm)
        snprintf(err, errlen, "libcublas lacks cublasCreate_v2, cublasSetMathMode or cublasSgemm_v2");
    else if ((s = h->create(&h->handle)) != CUBLAS_OK)
        snprintf(err, errlen, "cublasCreate: status %d", s);
    else if ((s = h->set_math_mode(h->handle, CUBLAS_FP32_PEDANTIC)) != CUBLAS_OK)
        snprintf(err, errlen, "cublasSetMathMode: status %d", s);
    if (s != CUBLAS_OK) {
        replay_cublas_close(h);
        return NULL;
    }
    return h;
}

int replay_cublas_sgemm(replay_cublas_t *h, int m, int n, int k, uint64_t a, uint64_t b, uint64_t c, char *err,
                        size_t errlen)
{
    const float one = 1.0f, zero = 0.0f;
    /* row-major C = A B is column-major C^T = B^T A^T: B and A swapped, no transposes */
    int s = h->sgemm(h->handle, CUBLAS_NO_TRANSPOSE, CUBLAS_NO_TRANSPOSE, n, m, k, &one,
                     (const float *)(uintptr_t)b, n, (const float *)(uintptr_t)a, k, &zero, (float *)(uintptr_t)c, n);
    if (s == CUBLAS_OK)
        return 0;
    snprintf(err, errlen, "cublasSgemm: status %d", s);
    return -1;
}

void replay_cublas_close(replay_cublas_t *h)
{
    if (!h)
        return;
    if (h->handle && h->destroy)
        h->destroy(h->handle);
    /* the library stays loaded: cuBLAS's own teardown runs at exit */
    free(h);
}
