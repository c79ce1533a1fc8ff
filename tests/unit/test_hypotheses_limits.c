/* test_hypotheses_limits.c - the hypothesis tests over all the mistakes and
 * at their limits: the model itself without a bug, every mistake on every
 * shape, outputs no classic mistake made (no hypothesis may claim them),
 * never-written elements, shapes that do not fit, large problems and a long
 * K. The model of the buggy kernels and the checks are hypotheses_case.h's. */
#include "hypotheses_case.h"

/* ---- the model itself ------------------------------------------------------------------------ */

Test(model, without_a_bug_computes_the_product)
{
    const int shapes[][3] = {{100, 128, 64}, {97, 89, 101}, {40, 7, 33}, {1, 200, 1}, {16, 16, 16}};
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        for (int t = 8; t <= 32; t *= 2) {
            mm_t p = problem(shapes[s][0], shapes[s][1], shapes[s][2], (int)s & 1);
            matrix_t got = run_kernel(&p, t, (bugs_t){0});
            compare_result_t cr = compare_with_inputs(&p, &got);
            cr_assert(cr.passed, "shape %zu, T = %d: %s", s, t, cr.hint_text);
            free(got.data);
            free_problem(&p);
        }
}

/* ---- every mistake on every shape ------------------------------------------------------ */

/* Every mistake on every shape where it shows and can be simulated: the
 * mistake made must be among the hypotheses named (an output two mistakes
 * explain equally, e.g. A·Bᵀ and the B tile transposed on one 16x16 tile,
 * names both), and the hint must never be empty. */
Test(hypothesis, every_mistake_on_every_shape_names_it, .timeout = 60)
{
    static const struct {
        bugs_t bug;
        const char *id;
    } bugs[] = {
        {{.b_transposed = 1}, "b-transposed"},
        {{.a_transposed = 1}, "a-transposed"},
        {{.a_transposed = 1, .b_transposed = 1}, "both-transposed"},
        {{.c_transposed = 1}, "c-transposed"},
        {{.intdiv = 1}, NULL}, /* phases-intdiv, or all-zero when K < T */
        {{.one_phase_short = 1}, NULL},
        {{.reset_each_phase = 1}, "sum-reset-each-phase"},
        {{.totals_kept = 1}, "phase-totals-kept"},
        {{.tile_a_transposed = 1}, "tile-a-transposed"},
        {{.tile_b_transposed = 1}, "tile-b-transposed"},
        {{.tile_a_transposed = 1, .tile_b_transposed = 1}, "tiles-transposed"},
        {{.blocks_swapped = 1}, "blocks-swapped"},
        {{.b_stride_k = 1}, "b-stride-k"},
        {{.a_stride_n = 1}, "a-stride-n"},
        {{.inner_guard_tx = 1}, "inner-guard-tx"},
        {{.inner_guard_ty = 1}, "inner-guard-ty"},
    };
    static const int shapes[][3] = {{100, 128, 64}, {256, 300, 256}, {97, 89, 101}, {40, 7, 33},
                                    {64, 64, 64},   {16, 16, 16},    {1, 200, 1},   {200, 100, 256},
                                    {65, 33, 17},   {2, 1000, 3},    {64, 1, 48}};
    static const int tiles[] = {16, 32, 8};
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        int m = shapes[s][0], k = shapes[s][1], n = shapes[s][2];
        mm_t p = problem(m, k, n, (int)s % 3 == 2);
        for (size_t b = 0; b < sizeof bugs / sizeof *bugs; b++)
            for (size_t ti = 0; ti < sizeof tiles / sizeof *tiles; ti++) {
                int t = tiles[ti];
                bugs_t bug = bugs[b].bug;
                if (bug.a_stride_n && (long)(m - 1) * n + k - 1 >= (long)m * k)
                    continue; /* the kernel would read past A */
                if (bug.b_stride_k && (long)(k - 1) * k + n - 1 >= (long)k * n)
                    continue;
                const char *id = bugs[b].id;
                if (bug.intdiv)
                    id = k < t ? "all-zero" : "phases-intdiv";
                if (bug.one_phase_short) { /* sums k = 0..x-1 */
                    int x = ((k + t - 1) / t - 1) * t;
                    /* a partial phase left out is a phase count rounded down, and so
                     * is a full one when x is also K rounded down to the lab's tile
                     * (K = 200, T = 8: k = 0..191, the hint names TILE_WIDTH 16) */
                    int rounded = k % t || (k % LAB_TILE && x == k / LAB_TILE * LAB_TILE);
                    id = x == 0 ? "all-zero" : rounded ? "phases-intdiv" : "phases-partial";
                }
                matrix_t got = run_kernel(&p, t, bug);
                compare_result_t cr = compare_with_inputs(&p, &got);
                if (!cr.passed) {
                    hypothesis_result_t r;
                    explain(&p, &got, &r);
                    int found = 0, tiles_only = r.nmatched > 0;
                    for (int i = 0; i < r.nmatched; i++) {
                        found |= strcmp(r.id[i], id) == 0;
                        tiles_only &= strncmp(r.id[i], "tile", 4) == 0;
                    }
                    /* on a 1x1 output the three tile hypotheses are one number,
                     * sum over p of A[0][p*T] * B[p*T][0]; two are named */
                    found |= m == 1 && n == 1 && tiles_only && strncmp(id, "tile", 4) == 0;
                    cr_expect(found, "%dx%dx%d, T = %d, bug %s: matched %d (%s, %s): %s", m, k, n,
                              t, id, r.nmatched, r.nmatched > 0 ? r.id[0] : "-",
                              r.nmatched > 1 ? r.id[1] : "-", r.nmatched ? r.hint : r.ruled_out);
                    cr_expect_eq(cr.hint, HINT_HYPOTHESIS, "%dx%dx%d, T = %d, bug %s: %s", m, k, n,
                                 t, id, cr.hint_text);
                    cr_expect(cr.hint_text[0] != '\0');
                }
                free(got.data);
            }
        free_problem(&p);
    }
}

/* ---- no classic mistake: no hypothesis may claim the output --------------------------------- */

static const char *const tried_prefix = "none of the classic mistakes reproduces it (tried: ";

/* The ruled-out list whole: every family named, the ")" at the end (the
 * list goes through 256-byte buffers in hypotheses.h and compare.c). */
static void expect_whole_ruled_out(const char *text)
{
    static const char *const families[] = {"A·Bᵀ and Aᵀ·B", "C stored transposed",
                                           "partial phase sums", "a tile read transposed",
                                           "a wrong row stride"};
    for (size_t i = 0; i < sizeof families / sizeof *families; i++)
        cr_assert_not_null(strstr(text, families[i]), "'%s' missing: %s", families[i], text);
    size_t len = strlen(text);
    cr_assert(len > 0 && text[len - 1] == ')', "cut short: %s", text);
}

Test(no_match, noise_of_one_percent_everywhere)
{
    mm_t p = problem(100, 128, 64, 0);
    matrix_t got = copy_of(&p.exp);
    uint64_t seed = 99;
    for (int i = 0; i < 100 * 64; i++) {
        double u = (double)(splitmix(&seed) >> 11) / 9007199254740992.0; /* [0, 1) */
        got.data[i] *= (float)(1.0 + (u < 0.5 ? -0.01 : 0.01) * (0.5 + u));
    }
    hypothesis_result_t r;
    cr_assert_eq(explain(&p, &got, &r), 0, "matched %s: %s", r.id[0], r.hint);
    cr_assert_eq(r.nmatched, 0);
    cr_assert_str_eq(r.hint, "");
    cr_assert_eq(strncmp(r.ruled_out, tried_prefix, strlen(tried_prefix)), 0, "%s", r.ruled_out);
    cr_assert_gt(r.ntried, 10);
    compare_result_t cr = compare_with_inputs(&p, &got);
    cr_assert_eq(cr.hint, HINT_ALL_WRONG, "%s", cr.hint_text);
    cr_assert_str_eq(cr.hypothesis, "");
    cr_assert_not_null(strstr(cr.hint_text, r.ruled_out), "%s", cr.hint_text);
    expect_whole_ruled_out(r.ruled_out);
    expect_whole_ruled_out(cr.hint_text);
    free(got.data);
    free_problem(&p);
}

/* The hint may name phases only among what was ruled out, never as a cause. */
static void expect_no_blame(const char *hint)
{
    const char *tried = strstr(hint, "(tried: ");
    size_t cause = tried ? (size_t)(tried - hint) : strlen(hint);
    cr_assert_null(strstr(hint, "K ="), "%s", hint);
    cr_assert_null(strstr(hint, "K /"), "%s", hint);
    cr_assert_null(strstr(hint, "TILE_WIDTH"), "%s", hint);
    cr_assert_null(memmem(hint, cause, "phase", 5), "%s", hint);
}

Test(no_match, one_element_changed)
{
    mm_t p = problem(100, 128, 64, 0);
    matrix_t got = copy_of(&p.exp);
    got.data[5 * 64 + 7] += 1.0f;
    hypothesis_result_t r;
    cr_assert_eq(explain(&p, &got, &r), 0, "matched %s: %s", r.id[0], r.hint);
    compare_result_t cr = compare_with_inputs(&p, &got);
    cr_assert_eq(cr.hint, HINT_SOME_WRONG, "%s", cr.hint_text);
    cr_assert_eq(strncmp(cr.hint_text, "1 of 6400 elements are wrong, the first at row 5, column 7",
                         58),
                 0, "%s", cr.hint_text);
    cr_assert_not_null(strstr(cr.hint_text, tried_prefix), "%s", cr.hint_text);
    expect_whole_ruled_out(cr.hint_text);
    expect_no_blame(cr.hint_text);
    free(got.data);
    free_problem(&p);
}

Test(no_match, one_element_changed_with_k_uneven)
{
    mm_t p = problem(256, 300, 256, 1);
    matrix_t got = copy_of(&p.exp);
    got.data[100 * 256 + 31] = 0.0f;
    hypothesis_result_t r;
    cr_assert_eq(explain(&p, &got, &r), 0, "matched %s: %s", r.id[0], r.hint);
    compare_result_t cr = compare_with_inputs(&p, &got);
    expect_no_blame(cr.hint_text);
    free(got.data);
    free_problem(&p);
}

Test(no_match, half_the_rows_b_transposed)
{
    mm_t p = problem(100, 128, 64, 0);
    matrix_t bt = run_kernel(&p, 16, (bugs_t){.b_transposed = 1});
    matrix_t got = copy_of(&p.exp);
    memcpy(got.data, bt.data, sizeof(float) * 50 * 64); /* rows 0..49 A·Bᵀ, 50..99 right */
    hypothesis_result_t r;
    cr_assert_eq(explain(&p, &got, &r), 0, "matched %s: %s", r.id[0], r.hint);
    cr_assert_eq(strncmp(r.ruled_out, tried_prefix, strlen(tried_prefix)), 0, "%s", r.ruled_out);
    compare_result_t cr = compare_with_inputs(&p, &got);
    cr_assert_neq(cr.hint, HINT_HYPOTHESIS, "%s", cr.hint_text);
    expect_no_blame(cr.hint_text);
    free(bt.data);
    free(got.data);
    free_problem(&p);
}

Test(no_match, output_scaled_with_k_uneven_does_not_blame_k)
{
    mm_t p = problem(256, 300, 256, 0);
    matrix_t got = copy_of(&p.exp);
    for (int i = 0; i < 256 * 256; i++)
        got.data[i] *= 1.001f;
    hypothesis_result_t r;
    cr_assert_eq(explain(&p, &got, &r), 0, "matched %s: %s", r.id[0], r.hint);
    compare_result_t cr = compare_with_inputs(&p, &got);
    cr_assert_not(cr.passed);
    cr_assert_eq(cr.hint, HINT_ALL_WRONG, "%s", cr.hint_text);
    cr_assert_null(strstr(cr.hint_text, "K ="), "%s", cr.hint_text);
    expect_no_blame(cr.hint_text);
    free(got.data);
    free_problem(&p);
}

/* ---- never-written elements, bad shapes, large problems ---------------------------------------- */

Test(hypothesis, poison_is_not_compared)
{
    mm_t p = problem(100, 128, 64, 0);
    matrix_t got = run_kernel(&p, 16, (bugs_t){.b_transposed = 1});
    for (int i = 96; i < 100; i++) /* the last 4 rows never written */
        for (int j = 0; j < 64; j++)
            got.data[i * 64 + j] = poison();
    hypothesis_result_t r;
    cr_assert_geq(explain(&p, &got, &r), 1, "%s", r.ruled_out);
    cr_assert_str_eq(r.id[0], "b-transposed");
    /* the 6144 written elements, with the first wrong ones and a 16 x 16 grid tried first;
     * the 256 never written are not among them */
    cr_assert(r.checked >= 96 * 64 && r.checked <= 8 + 16 * 16 + 96 * 64, "%ld", r.checked);
    compare_result_t cr = compare_with_inputs(&p, &got);
    cr_assert_eq(cr.never_written, 256);
    cr_assert_eq(cr.hint, HINT_HYPOTHESIS, "%s", cr.hint_text);
    cr_assert_str_eq(cr.hypothesis, "b-transposed");
    const char *tail = "; also, 256 elements were never written";
    size_t len = strlen(cr.hint_text), tl = strlen(tail);
    cr_assert(len > tl && strcmp(cr.hint_text + len - tl, tail) == 0, "%s", cr.hint_text);
    cr_assert_eq(strncmp(cr.hint_text, r.hint, strlen(r.hint)), 0, "%s", cr.hint_text);
    free(got.data);
    free_problem(&p);
}

Test(hypothesis, shape_mismatch_returns_nothing)
{
    mm_t p = problem(20, 30, 10, 0);
    matrix_t got = copy_of(&p.exp);
    got.data[0] += 5.0f;
    hypothesis_result_t r;
    matrix_t b_wrong = {29, 10, p.b.data}; /* A's columns != B's rows */
    cr_assert_eq(hypotheses_explain(&p.a, &b_wrong, &p.exp, &got, lab_tol, 16, &r), 0);
    cr_assert_eq(r.nmatched, 0);
    cr_assert_str_eq(r.hint, "");
    matrix_t exp_wrong = {20, 9, p.exp.data}; /* C's columns != B's */
    cr_assert_eq(hypotheses_explain(&p.a, &p.b, &exp_wrong, &got, lab_tol, 16, &r), 0);
    matrix_t got_wrong = {10, 20, got.data}; /* the student's C is another shape */
    cr_assert_eq(hypotheses_explain(&p.a, &p.b, &p.exp, &got_wrong, lab_tol, 16, &r), 0);
    matrix_t empty = {0, 0, NULL};
    cr_assert_eq(hypotheses_explain(&empty, &empty, &empty, &empty, lab_tol, 16, &r), 0);
    /* compare on inputs that do not fit: no hypothesis, no crash */
    compare_result_t cr;
    compare_explainer_t ex = matmul_explainer(&(matmul_inputs_t){&p.a, &b_wrong});
    compare_matrices(&p.exp, &got, lab_tol, 16, &ex, &cr);
    cr_assert_not(cr.passed);
    cr_assert_neq(cr.hint, HINT_HYPOTHESIS);
    free(got.data);
    free_problem(&p);
}

Test(hypothesis, large_problem_is_verified_on_a_sample, .timeout = 60)
{
    /* 600^3 = 216M multiply-adds, past WORK_LIMIT (2^27) */
    mm_t p = problem(600, 600, 600, 0);
    matrix_t got = run_kernel(&p, 16, (bugs_t){.b_transposed = 1});
    hypothesis_result_t r;
    cr_assert_geq(explain(&p, &got, &r), 1, "%s", r.ruled_out);
    cr_assert_str_eq(r.id[0], "b-transposed");
    cr_assert_eq(r.sampled, 1);
    cr_assert(r.checked > 1000 && r.checked < 600 * 600, "%ld", r.checked);
    compare_result_t cr = compare_with_inputs(&p, &got);
    cr_assert_str_eq(cr.hypothesis, "b-transposed");
    cr_assert_not_null(strstr(cr.hint_text, " (checked on "), "%s", cr.hint_text);
    cr_assert_not_null(strstr(cr.hint_text, " of the written elements)"), "%s", cr.hint_text);
    free(got.data);
    free_problem(&p);
}

/* A long K (phase cuts for every tile: K / 8 = 625 of them) leaves room for
 * every other hypothesis: the loads guarded with the wrong dimension, and
 * TILE_WIDTH 8 and 32. */
Test(hypothesis, long_k_still_tries_every_mistake, .timeout = 60)
{
    expect_diagnosis(4, 5000, 40, 0, 16, (bugs_t){.k_guard_m = 1}, "phases-partial",
                     PHRASES("k = 0..3 only", "the loads treat k >= numARows (4)"));
    expect_diagnosis(4, 5000, 40, 0, 8, (bugs_t){.tile_b_transposed = 1}, "tile-b-transposed",
                     PHRASES("(with TILE_WIDTH = 8)"));
    expect_diagnosis(40, 4000, 40, 0, 32, (bugs_t){.blocks_swapped = 1}, "blocks-swapped",
                     PHRASES("(with TILE_WIDTH = 32)"));
    expect_diagnosis(3, 5000, 2, 0, 16, (bugs_t){.intdiv = 1, .one_phase_short = 1},
                     "phases-partial",
                     PHRASES("k = 0..4975 only", "only the first 311 phases are summed"));
}

/* ---- elements no sum of A's and B's products can be ------------------------------------------- */

static double largest(const matrix_t *m)
{
    double top = 0;
    for (int i = 0; i < m->rows * m->cols; i++)
        top = fabs(m->data[i]) > top ? fabs(m->data[i]) : top;
    return top;
}

/* An infinite element and one of 3.39e38 (what a read of the drivers' guard
 * makes, labs/common/harness_device.h) cannot come from A and B, however a
 * kernel pairs their elements: the hint says so, with the bound (K max|A|
 * max|B|), and names what can add in something else; a hidden dataset's hint
 * leaves the bound out. A wrong element within the bound's reach, or the
 * poison, is not such a value. */
Test(no_match, values_beyond_any_sum_of_products_are_named)
{
    mm_t p = problem(100, 128, 64, 0);
    matrix_t got = copy_of(&p.exp);
    got.data[3 * 64 + 4] = INFINITY;
    got.data[9 * 64 + 1] = 3.39e38f;
    compare_result_t cr = compare_with_inputs(&p, &got);
    cr_assert_eq(cr.hint, HINT_FOREIGN_VALUES, "%s", cr.hint_text);
    char bound[64];
    snprintf(bound, sizeof bound, "(at most %.3g)", 128 * largest(&p.a) * largest(&p.b));
    cr_assert_not_null(strstr(cr.hint_text, "2 of 6400 elements are NaN, infinite or beyond any "
                                            "sum of A's and B's products "),
                       "%s", cr.hint_text);
    cr_assert_not_null(strstr(cr.hint_text, bound), "%s not in: %s", bound, cr.hint_text);
    cr_assert_not_null(strstr(cr.hint_text, "a read past their ends"), "%s", cr.hint_text);
    cr_assert_null(strstr(cr.hint_hidden, "at most"), "%s", cr.hint_hidden);
    cr_assert_not_null(strstr(cr.hint_hidden, "a read past their ends"), "%s", cr.hint_hidden);

    got.data[3 * 64 + 4] = p.exp.data[3 * 64 + 4]; /* within reach: 1000 times an element */
    got.data[9 * 64 + 1] = 1000 * p.exp.data[9 * 64 + 1];
    cr = compare_with_inputs(&p, &got);
    cr_assert_eq(cr.hint, HINT_SOME_WRONG, "%s", cr.hint_text);

    uint32_t poison = POISON_BITS; /* never written: said as such, not as a foreign value */
    memcpy(&got.data[9 * 64 + 1], &poison, sizeof poison);
    cr = compare_with_inputs(&p, &got);
    cr_assert_eq(cr.hint, HINT_PARTLY_UNWRITTEN, "%s", cr.hint_text);
    free(got.data);
    free_problem(&p);
}
