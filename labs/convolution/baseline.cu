/* baseline.cu - lab convolution's library baseline (lab.json "baseline";
 * timed beside the reference by bench/gpu_labs.sh): cuDNN's forward
 * convolution of one 1-channel image by one mask, cross-correlation as the
 * lab computes it, zero padding of mask / 2 (the ghost cells), in FP32
 * arithmetic (CUDNN_FMA_MATH: no TF32), the fastest algorithm cuDNN finds
 * at the first call (the bench's untimed warm-up). Never graded. */
#include <cudnn.h>
#include <stdio.h>
#include <stdlib.h>

#include "library.h"

void launchConvolution(const float *deviceI, const float *deviceM, float *deviceP, int height, int width, int mask)
{
    static cudnnHandle_t handle;
    static cudnnTensorDescriptor_t in, out;
    static cudnnFilterDescriptor_t filter;
    static cudnnConvolutionDescriptor_t conv;
    static cudnnConvolutionFwdAlgo_t algo;
    static void *workspace;
    static size_t workspace_bytes;
    static const float *made_for;
    const float one = 1.0f, zero = 0.0f;
    if (made_for != deviceI) {
        BENCH_CHECK(cudnnCreate(&handle));
        BENCH_CHECK(cudnnCreateTensorDescriptor(&in));
        BENCH_CHECK(cudnnCreateTensorDescriptor(&out));
        BENCH_CHECK(cudnnCreateFilterDescriptor(&filter));
        BENCH_CHECK(cudnnCreateConvolutionDescriptor(&conv));
        BENCH_CHECK(cudnnSetTensor4dDescriptor(in, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, 1, height, width));
        BENCH_CHECK(cudnnSetTensor4dDescriptor(out, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, 1, height, width));
        BENCH_CHECK(cudnnSetFilter4dDescriptor(filter, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 1, 1, mask, mask));
        BENCH_CHECK(cudnnSetConvolution2dDescriptor(conv, mask / 2, mask / 2, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                                                    CUDNN_DATA_FLOAT));
        BENCH_CHECK(cudnnSetConvolutionMathType(conv, CUDNN_FMA_MATH));
        cudnnConvolutionFwdAlgoPerf_t perf[8];
        int found = 0;
        BENCH_CHECK(cudnnFindConvolutionForwardAlgorithm(handle, in, filter, conv, out, 8, &found, perf));
        int best = -1;
        for (int i = 0; i < found && best < 0; i++)
            if (perf[i].status == CUDNN_STATUS_SUCCESS && perf[i].mathType == CUDNN_FMA_MATH)
                best = i;
        if (best < 0) {
            fprintf(stderr, "baseline: cuDNN found no FP32 forward algorithm for %dx%d, mask %d\n", height, width, mask);
            exit(1);
        }
        algo = perf[best].algo;
        workspace_bytes = perf[best].memory;
        BENCH_CHECK(cudaMalloc(&workspace, workspace_bytes ? workspace_bytes : 4));
        made_for = deviceI;
    }
    BENCH_CHECK(cudnnConvolutionForward(handle, &one, in, deviceI, filter, deviceM, conv, algo, workspace,
                                        workspace_bytes, &zero, out, deviceP));
}
