/* cuda_pipeline.h - CUDA's asynchronous copies from global to shared memory
 * (cp.async) for the CPU emulator: the primitives of
 * cuda_pipeline_primitives.h and the C++ pipeline of
 * nvcuda::experimental, as nvcc's <cuda_pipeline.h> offers them.
 *
 *   __pipeline_memcpy_async(dst_shared, src_global, size, zfill = 0)
 *       starts a copy of size bytes (4, 8 or 16; both addresses aligned to
 *       it), of which the last zfill are zeros instead of source bytes;
 *   __pipeline_commit()      closes the thread's copies since the last
 *                            commit into a group;
 *   __pipeline_wait_prior(N) waits until at most the N most recent groups
 *                            of the thread are still in flight.
 *
 * As on a GPU a copy may land at any moment until the wait that covers it;
 * the emulator makes it land as late as it may: at that wait (or when the
 * thread ends), never before. A kernel that reads the shared memory before
 * waiting (or without the __syncthreads() that makes another thread's
 * copies visible) sees the old contents, and the checking mode reports the
 * read as a race with the copy. See docs/emulator.md, "Asynchronous
 * copies". The copies live in the runtime (emu/src/pipeline.cpp); part of
 * the emulator's shim. */
#ifndef CUGRADE_CUDA_PIPELINE_H
#define CUGRADE_CUDA_PIPELINE_H
#define _CUDA_PIPELINE_H_
#define _CUDA_PIPELINE_PRIMITIVES_H_

#include <cstddef>

#include "cuda_runtime.h"

/* The runtime's entry points (their names start with __cuda, as the CUDA
 * runtime's do). file and line are the caller's, for the messages. */
extern "C" {
void __cudaEmuPipelineMemcpyAsync(const char *file, int line, void *dst_shared, const void *src_global,
                                  size_t size_and_align, size_t zfill = 0);
void __cudaEmuPipelineCopy(const char *file, int line, void *dst_shared, const void *src_global, size_t size,
                           size_t src_size, size_t align);
void __cudaEmuPipelineCommit(void);
void __cudaEmuPipelineWaitPrior(size_t prior);
}

/* A macro, so that the runtime sees the student's call site (its return
 * address and __FILE__:__LINE__) rather than a line of this header. */
#define __pipeline_memcpy_async(...) __cudaEmuPipelineMemcpyAsync(__FILE__, __LINE__, __VA_ARGS__)

inline void __pipeline_commit() { __cudaEmuPipelineCommit(); }
inline void __pipeline_wait_prior(size_t prior) { __cudaEmuPipelineWaitPrior(prior); }

namespace nvcuda {
namespace experimental {

/* One thread's sequence of copy groups (batches), numbered from 0. */
class pipeline {
  public:
    pipeline() = default;
    pipeline(const pipeline &) = delete;
    pipeline(pipeline &&) = delete;
    pipeline &operator=(const pipeline &) = delete;
    pipeline &operator=(pipeline &&) = delete;

    size_t commit()
    {
        __cudaEmuPipelineCommit();
        return current_batch_++;
    }
    void commit_and_wait()
    {
        (void)commit();
        wait_prior<0>();
    }
    /* CUDA's own arithmetic (cuda_pipeline.h of CUDA 13), kept as it is. */
    void wait(size_t batch) { __cudaEmuPipelineWaitPrior(current_batch_ > batch ? current_batch_ - batch : 0); }
    template <unsigned N> void wait_prior() { __cudaEmuPipelineWaitPrior(N); }

  private:
    size_t current_batch_ = 0;
};

template <size_t N, typename T> inline auto segment(T *ptr) -> T (*)[N] { return (T(*)[N])ptr; }

/* Copies src to dst (sizeof(T) bytes, both aligned to alignof(T)). */
template <class T>
inline void memcpy_async(T &dst, const T &src, pipeline &pipe, const char *file = __builtin_FILE(),
                         int line = __builtin_LINE())
{
    (void)pipe;
    __cudaEmuPipelineCopy(file, line, &dst, &src, sizeof(T), sizeof(T), alignof(T));
}

/* Copies the SrcN elements of src to dst and zeroes the rest of its DstN. */
template <class T, size_t DstN, size_t SrcN>
inline void memcpy_async(T (*dst)[DstN], const T (*src)[SrcN], pipeline &pipe, const char *file = __builtin_FILE(),
                         int line = __builtin_LINE())
{
    constexpr size_t dst_size = sizeof(*dst), src_size = sizeof(*src);
    static_assert(dst_size == 4 || dst_size == 8 || dst_size == 16, "Unsupported copy size.");
    static_assert(src_size <= dst_size, "Source size must be less than or equal to destination size.");
    (void)pipe;
    __cudaEmuPipelineCopy(file, line, dst, src, dst_size, src_size, dst_size);
}

} // namespace experimental
} // namespace nvcuda

#endif
