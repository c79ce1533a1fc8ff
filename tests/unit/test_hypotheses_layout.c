/* test_hypotheses_layout.c - the hypotheses of a kernel that reads or writes
 * the wrong place: A, B or C indexed transposed, a tile read transposed
 * inside the tile, the block indices swapped, a wrong row stride. The model
 * of the buggy kernels and the checks are hypotheses_case.h's. */
#include "hypotheses_case.h"

/* ---- each mistake, named with its fix ------------------------------------------------------- */

Test(hypothesis, b_transposed)
{
    const int shapes[][4] = {{100, 128, 64, 0}, {256, 300, 256, 0}, {97, 89, 101, 0},
                             {40, 7, 33, 0},    {97, 89, 101, 1},   {64, 64, 64, 1}};
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        expect_diagnosis(shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3], 16,
                         (bugs_t){.b_transposed = 1}, "b-transposed",
                         PHRASES("every element equals A·Bᵀ", "B[col*numBRows + k]",
                                 "B[k*numBColumns + col]"));
}

Test(hypothesis, b_transposed_is_invisible_when_b_is_a_vector)
{
    expect_invisible(1, 200, 1, 16, (bugs_t){.b_transposed = 1});
    expect_invisible(64, 1, 48, 16, (bugs_t){.b_transposed = 1});
}

Test(hypothesis, a_transposed)
{
    const int shapes[][4] = {{100, 128, 64, 0}, {256, 300, 256, 0}, {97, 89, 101, 1}, {40, 7, 33, 0}};
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        expect_diagnosis(shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3], 16,
                         (bugs_t){.a_transposed = 1}, "a-transposed",
                         PHRASES("every element equals Aᵀ·B", "A[k*numARows + row]",
                                 "A[row*numAColumns + k]"));
}

Test(hypothesis, both_transposed)
{
    const int shapes[][4] = {{100, 128, 64, 0}, {97, 89, 101, 0}, {40, 7, 33, 1}};
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        expect_diagnosis(shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3], 16,
                         (bugs_t){.a_transposed = 1, .b_transposed = 1}, "both-transposed",
                         PHRASES("every element equals Aᵀ·Bᵀ", "A[row*numAColumns + k]",
                                 "B[k*numBColumns + col]"));
}

Test(hypothesis, c_transposed)
{
    const int shapes[][4] = {{100, 128, 64, 0}, {97, 89, 101, 0}, {64, 64, 64, 1}, {40, 7, 33, 0},
                             {2, 1000, 3, 0}};
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        expect_diagnosis(shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3], 16,
                         (bugs_t){.c_transposed = 1}, "c-transposed",
                         PHRASES("computed right but stored in the wrong place",
                                 "C[col*numCRows + row]", "C[row*numCColumns + col]"));
    expect_invisible(1, 200, 1, 16, (bugs_t){.c_transposed = 1});
}

Test(hypothesis, tile_b_transposed)
{
    const int shapes[][4] = {{100, 128, 64, 0}, {256, 300, 256, 0}, {97, 89, 101, 1}, {40, 7, 33, 0}};
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        expect_diagnosis(shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3], 16,
                         (bugs_t){.tile_b_transposed = 1}, "tile-b-transposed",
                         PHRASES("when the B tile is read transposed inside the tile",
                                 "read tileB[k][tx]"));
    expect_diagnosis(100, 128, 64, 0, 8, (bugs_t){.tile_b_transposed = 1}, "tile-b-transposed",
                     PHRASES("the B tile is read transposed inside the tile (with TILE_WIDTH = 8)"));
}

Test(hypothesis, tile_a_transposed)
{
    const int shapes[][4] = {{100, 128, 64, 0}, {256, 300, 256, 0}, {97, 89, 101, 1}};
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        expect_diagnosis(shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3], 16,
                         (bugs_t){.tile_a_transposed = 1}, "tile-a-transposed",
                         PHRASES("when the A tile is read transposed inside the tile",
                                 "read tileA[ty][k]"));
}

Test(hypothesis, both_tiles_transposed)
{
    expect_diagnosis(100, 128, 64, 0, 16, (bugs_t){.tile_a_transposed = 1, .tile_b_transposed = 1},
                     "tiles-transposed",
                     PHRASES("when both tiles are read transposed", "tileA[ty][k] * tileB[k][tx]"));
    expect_diagnosis(97, 89, 101, 1, 32, (bugs_t){.tile_a_transposed = 1, .tile_b_transposed = 1},
                     "tiles-transposed", PHRASES("(with TILE_WIDTH = 32)"));
}

Test(hypothesis, blocks_swapped)
{
    const int shapes[][4] = {{100, 128, 64, 0}, {97, 89, 101, 0}, {64, 64, 64, 1},
                             {256, 300, 256, 0}, {40, 7, 33, 0}};
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        expect_diagnosis(shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3], 16,
                         (bugs_t){.blocks_swapped = 1}, "blocks-swapped",
                         PHRASES("every element holds the result of another block's tile",
                                 "blockIdx.x for the row and blockIdx.y for the column",
                                 "row = blockIdx.y*TILE_WIDTH + threadIdx.y"));
    expect_diagnosis(100, 128, 64, 0, 32, (bugs_t){.blocks_swapped = 1}, "blocks-swapped",
                     PHRASES("for the column (with TILE_WIDTH = 32)"));
    expect_invisible(16, 16, 16, 16, (bugs_t){.blocks_swapped = 1});
    expect_invisible(2, 1000, 3, 16, (bugs_t){.blocks_swapped = 1});
}

Test(hypothesis, a_stride_n)
{
    /* (M-1)*N + K-1 < M*K: every read stays inside A */
    expect_diagnosis(100, 128, 64, 0, 16, (bugs_t){.a_stride_n = 1}, "a-stride-n",
                     PHRASES("A read as A[row*numBColumns + k] (a row stride of N)",
                             "row-major A is A[row*numAColumns + k]"));
    expect_diagnosis(200, 100, 56, 1, 16, (bugs_t){.a_stride_n = 1}, "a-stride-n",
                     PHRASES("a row stride of N"));
}

Test(hypothesis, b_stride_k)
{
    /* (K-1)*K + N-1 < K*N: every read stays inside B */
    expect_diagnosis(97, 89, 101, 0, 16, (bugs_t){.b_stride_k = 1}, "b-stride-k",
                     PHRASES("B read as B[k*numAColumns + col] (a row stride of K)",
                             "row-major B is B[k*numBColumns + col]"));
    expect_diagnosis(200, 100, 256, 1, 16, (bugs_t){.b_stride_k = 1}, "b-stride-k",
                     PHRASES("a row stride of K"));
}

/* A guard on the thread's index instead of the loop's (if (ph*16 + tx < K)
 * around the k loop): threads past K % 16 skip the last phase. */
Test(hypothesis, inner_guard_on_tx_is_named_where_k_is_not_a_multiple_of_the_tile)
{
    expect_diagnosis(100, 56, 64, 0, 16, (bugs_t){.inner_guard_tx = 1}, "inner-guard-tx",
                     PHRASES("guarded by the thread's tx instead of the loop's index",
                             "threads with tx >= 8 skip the last phase", "must test ph*TILE_WIDTH + k"));
    expect_diagnosis(97, 89, 101, 1, 16, (bugs_t){.inner_guard_ty = 1}, "inner-guard-ty",
                     PHRASES("guarded by the thread's ty", "threads with ty >= 9 skip the last phase"));
    expect_invisible(64, 64, 64, 16, (bugs_t){.inner_guard_tx = 1});
}

/* With K = 1 a B tile read transposed and a guard on tx write the same
 * output (column tx = 0 of each tile gets A[i][0]·B[0][j], the rest 0): no
 * hypothesis is named; the hint lists both, says the dataset cannot tell
 * them apart, and the failure is "consistent:", not "hypothesis:". */
Test(hypothesis, k_of_one_names_neither_a_transposed_b_tile_nor_a_guard_on_tx)
{
    const bugs_t bugs[] = {{.tile_b_transposed = 1}, {.inner_guard_tx = 1}};
    for (int b = 0; b < 2; b++) {
        mm_t p = problem(64, 1, 48, 0);
        matrix_t got = run_kernel(&p, 16, bugs[b]);
        compare_result_t cr = compare_with_inputs(&p, &got);
        cr_assert_not(cr.passed);
        cr_assert_eq(cr.hint, HINT_HYPOTHESIS, "%s", cr.hint_text);
        cr_assert_geq(cr.nhypotheses, 2, "bug %d: %s", b, cr.hint_text);
        cr_assert(strstr(cr.hypothesis, "tile-b-transposed") && strstr(cr.hypothesis, "inner-guard-tx"),
                  "bug %d: %s", b, cr.hypothesis);
        cr_assert(strstr(cr.hint_text, "which this dataset cannot tell apart"), "%s", cr.hint_text);
        cr_assert(strstr(cr.hint_text, "the B tile read transposed (tileB[tx][k])") &&
                      strstr(cr.hint_text, "the k loop guarded by tx instead of k"), "%s", cr.hint_text);
        cr_assert_null(strstr(cr.hint_text, "every element equals"), "nothing named: %s", cr.hint_text);
        free(got.data);
        free_problem(&p);
    }
}

/* On one 16x16 tile A·Bᵀ and a transposed B tile write the same output: a
 * run whose kernels touched no shared memory (the executor's statistics)
 * has no tile, so A·Bᵀ alone fits and is named. */
Test(hypothesis, a_kernel_without_shared_memory_rules_out_the_tiled_loops_mistakes)
{
    mm_t p = problem(16, 16, 16, 0);
    matrix_t got = run_kernel(&p, 16, (bugs_t){.b_transposed = 1});
    hypothesis_result_t r;
    cr_assert_geq(hypotheses_explain(&p.a, &p.b, &p.exp, &got, lab_tol, LAB_TILE, &r), 2, "%s", r.hint);
    cr_assert_eq(hypotheses_explain_seen(&p.a, &p.b, &p.exp, &got, lab_tol, LAB_TILE, (hypotheses_seen_t){1, 16}, &r),
                 1, "%s", r.hint);
    cr_assert_str_eq(r.id[0], "b-transposed");
    cr_assert(strstr(r.hint, "every element equals A·Bᵀ") == r.hint, "%s", r.hint);
    free(got.data);
    free_problem(&p);
}
