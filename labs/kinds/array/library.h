/* library.h - what labs/kinds/array/library_timer.cu gives a lab's library
 * baseline (labs/<lab>/baseline.cu) beside its launch function's arguments:
 * the element count of each input, which a signature need not pass (the
 * columns of a sparse matrix, its nonzeros). */
#ifndef CUGRADE_ARRAY_LIBRARY_H
#define CUGRADE_ARRAY_LIBRARY_H

/* Input k's elements (in lab.json's order), or -1 past the last. */
long bench_input_elements(int k);

/* Dies with the call and CUDA's message unless rc is cudaSuccess (or the
 * library's own success, 0): a baseline never fails silently. */
#define BENCH_CHECK(call)                                                                                   \
    do {                                                                                                    \
        long rc_ = (long)(call);                                                                            \
        if (rc_ != 0) {                                                                                     \
            fprintf(stderr, "baseline: %s failed (%ld) at %s:%d\n", #call, rc_, __FILE__, __LINE__);        \
            exit(1);                                                                                        \
        }                                                                                                   \
    } while (0)

#endif
