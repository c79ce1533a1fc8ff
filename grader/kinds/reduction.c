/* reduction.c - the "reduction" lab kind: the dot product of two vectors.
 *
 * A dataset holds input0.raw and input1.raw, libwb vectors of the same
 * length n, and output.raw, a vector of one element: sum a_i*b_i computed in
 * double and rounded once. The driver (labs/kinds/reduction/driver.cu)
 * writes the partial sums the student's launch function says it wrote (a
 * 1 x count matbin); the grader sums them in double and compares.
 *
 * The tolerance is the error bound of a float tree reduction, not a fixed
 * constant. With u = 2^-24 (the unit roundoff of float): each product a_i*b_i
 * is rounded once (relative error <= u); a tree of depth d = ceil(log2 n)
 * adds each product into d partial sums, each rounded (<= u of that partial
 * sum, whose magnitude is at most the sum of |a_i*b_i| below it); summing the
 * block results in double adds nothing that matters; output.raw itself is
 * rounded once (<= u |sum|). So |got - exact| <= (d + 2) u sum|a_i*b_i|
 * (to first order), which is the tolerance, plus lab.json's atol and
 * rtol*|expected| (0 for dotprod). A sequential float loop over n elements
 * has a bound of n u sum|a_i*b_i| instead; on 2^24 same-sign values its error
 * is far above the tree's bound (the running sum stops growing), so it fails
 * where a tree passes.
 *
 * Hints: the error is explained by computing what classic wrong programs
 * would have returned from the inputs (only block 0's sum; the elements
 * past the last full block dropped; a block size that is not a power of
 * two under a halving tree; a sequential float sum) and naming the one that
 * matches within the tolerance; else the partial sums are checked block by
 * block (for the handout's BLOCK_SIZE, lab.json "tile_width") to say which
 * blocks are wrong. */
#include "kinds/reduction.h"
#include "course/lab.h"
#include "matbin.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UNIT_ROUNDOFF 0x1p-24
#define MAX_BLOCK 1024

static long length_of(const matrix_t *m) { return (long)m->rows * m->cols; }

static int check_shapes(const struct lab *lab, const dataset_ref_t *ref, const dataset_t *d, char *err, size_t errlen)
{
    (void)lab;
    if (d->ninputs != 2)
        return fail(err, errlen, "%s: a dot product needs input0.raw and input1.raw", ref->dir);
    long n = length_of(&d->inputs[0]), n1 = length_of(&d->inputs[1]);
    if (d->inputs[0].cols != 1 && d->inputs[0].rows != 1)
        return fail(err, errlen, "%s/input0.raw:1: a %dx%d matrix, not a vector", ref->dir,
                    d->inputs[0].rows, d->inputs[0].cols);
    if (n1 != n)
        return fail(err, errlen, "%s/input1.raw:1: %ld elements but input0.raw has %ld: the "
                    "vectors must have the same length", ref->dir, n1, n);
    if (length_of(&d->expected) != 1)
        return fail(err, errlen, "%s/output.raw:1: %ld elements; a dot product is one number",
                    ref->dir, length_of(&d->expected));
    return 0;
}

static void shape_text(const struct lab *lab, const dataset_t *d, char *buf, size_t len)
{
    (void)lab;
    snprintf(buf, len, "n=%ld", length_of(&d->inputs[0]));
}

static double flop(const struct lab *lab, const dataset_t *d) { (void)lab; return 2.0 * (double)length_of(&d->inputs[0]); }

double reduction_sum_abs(const matrix_t *a, const matrix_t *b, double *exact)
{
    double sum = 0, mag = 0;
    for (long i = 0; i < length_of(a); i++) {
        double p = (double)a->data[i] * (double)b->data[i];
        sum += p;
        mag += fabs(p);
    }
    if (exact)
        *exact = sum;
    return mag;
}

double reduction_tolerance(long n, double sum_abs)
{
    int depth = 0;
    while ((1L << depth) < n)
        depth++;
    return (depth + 2) * UNIT_ROUNDOFF * sum_abs;
}

/* The two vectors of length shape, values of the kind, from the seed. */
static int make_inputs(const char *shape, uint64_t seed, value_kind_t values, dataset_t *out, char *err,
                       size_t errlen)
{
    char *end;
    long n = strtol(shape, &end, 10);
    if (*shape < '0' || *shape > '9' || *end || n < 1 || n > RAW_MAX_ELEMS)
        return fail(err, errlen, "bad length '%s' (expected N, 1..%ld)", shape, RAW_MAX_ELEMS);
    memset(out, 0, sizeof *out);
    out->ninputs = 2;
    uint64_t state = seed;
    for (int i = 0; i < 2; i++) {
        gen_fill_random(&out->inputs[i], (int)n, 1, &state, values);
        out->inputs[i].vector = 1;
    }
    return 0;
}

static int generate(const struct lab *lab, const char *shape, uint64_t seed, value_kind_t values, dataset_t *out,
                    char *err, size_t errlen)
{
    (void)lab;
    if (make_inputs(shape, seed, values, out, err, errlen) != 0)
        return -1;
    double exact;
    reduction_sum_abs(&out->inputs[0], &out->inputs[1], &exact);
    out->expected = (matrix_t){.rows = 1, .cols = 1, .vector = 1, .data = malloc(sizeof(float))};
    out->expected.data[0] = (float)exact;
    return 0;
}

/* n multiply-adds over two vectors of n floats */
static int shape_work(const struct lab *lab, const char *shape, double *flop, double *compulsory_bytes)
{
    (void)lab;
    char *end;
    long n = strtol(shape, &end, 10);
    if (*shape < '0' || *shape > '9' || *end || n < 1)
        return -1;
    *flop = 2.0 * (double)n;
    *compulsory_bytes = 8.0 * (double)n + 4.0;
    return 0;
}

static int timing_inputs(const struct lab *lab, const char *shape, uint64_t seed, dataset_t *out, char *err, size_t errlen)
{
    (void)lab;
    return make_inputs(shape, seed, VALUES_SIGNED, out, err, errlen);
}

/* Two sums, the submission's and the reference's, each within the dot
 * product's tolerance of the exact one: within twice it of each other. */
static void timing_compare(const struct lab *lab, const dataset_t *d, int *sum, double *rtol, double *atol)
{
    double exact, mag = reduction_sum_abs(&d->inputs[0], &d->inputs[1], &exact);
    long n = (long)d->inputs[0].rows * d->inputs[0].cols;
    *sum = 1;
    *rtol = 0;
    *atol = 2 * (reduction_tolerance(n, mag) + lab->tol.atol + lab->tol.rtol * fabs(exact));
}

static int verify(const struct lab *lab, const dataset_ref_t *ref, const dataset_t *d, char *err, size_t errlen)
{
    (void)lab;
    double exact, mag = reduction_sum_abs(&d->inputs[0], &d->inputs[1], &exact);
    double stored = d->expected.data[0];
    if (!(fabs(stored - exact) <= 1e-5 * mag + 1e-6))
        return fail(err, errlen, "%s/output.raw: holds %.9g but input0.raw . input1.raw is %.9g. "
                    "Is it from another dataset?", ref->dir, stored, exact);
    return 0;
}

/* ---- the hidden set's lengths --------------------------------------------------- */

#define HIDDEN_MAX_LENGTH (1L << 18) /* the emulator sums it in a fraction of a second */

static const char *const hidden_names[] = {"one",        "below-power-of-two", "above-power-of-two",
                                           "one-partial-block", "block-plus-few", "block-minus-few",
                                           "uneven",     "large"};

/* Nudged off a multiple of the block, within 1..HIDDEN_MAX_LENGTH. */
static long off_block(long n, long block)
{
    if (block > 1 && n % block == 0)
        n += n > 1 ? -1 : 1;
    return n < 1 ? 1 : n > HIDDEN_MAX_LENGTH ? HIDDEN_MAX_LENGTH - 1 : n;
}

static void hidden_shape(const struct lab *lab, int family, int tile, uint64_t *st, char *shape, size_t len)
{
    (void)lab;
    long b = tile > 1 && tile < HIDDEN_MAX_LENGTH / 64 ? tile : 256, n = 1;
    long few = gen_between(st, 1, 7), blocks = gen_between(st, 2, 64);
    switch (family) {
    case 0: break; /* a single element */
    case 1: n = (1L << gen_between(st, 2, 17)) - 1; break;
    case 2: n = (1L << gen_between(st, 1, 17)) + 1; break;
    case 3: n = gen_between(st, 2, (int)b - 1); break;
    case 4: n = b * blocks + few; break;
    case 5: n = b * blocks - few; break;
    case 6: n = off_block(gen_between(st, 1000, 50000), b); break;
    default: n = off_block(gen_between(st, (int)(HIDDEN_MAX_LENGTH / 2), (int)HIDDEN_MAX_LENGTH), b);
    }
    snprintf(shape, len, "%ld", n);
}

/* ---- what the student returned ------------------------------------------------ */

typedef struct {
    const float *a, *b;
    long n;
    const float *partial; /* the student's partial sums */
    long count;
    double sum;           /* of the partial sums, in double */
    double expected, tol;
} reduction_view_t;

static int near(const reduction_view_t *v, double value)
{
    return fabs(v->sum - value) <= v->tol;
}

static double products(const reduction_view_t *v, long from, long to)
{
    double s = 0;
    for (long i = from; i < to && i < v->n; i++)
        s += (double)v->a[i] * (double)v->b[i];
    return s;
}

static int is_pow2(long b) { return b > 0 && (b & (b - 1)) == 0; }

/* One block of size b under the handout's tree, for (s = b/2; s > 0; s /= 2)
 * if (tid < s) x[tid] += x[tid + s]: with b not a power of two, the odd
 * element of a level is never added. */
static double halving_tree(const reduction_view_t *v, long first, long b, double *x)
{
    for (long t = 0; t < b; t++)
        x[t] = first + t < v->n ? (double)v->a[first + t] * (double)v->b[first + t] : 0;
    for (long s = b / 2; s > 0; s /= 2)
        for (long t = 0; t < s; t++)
            x[t] += x[t + s];
    return x[0];
}

/* A block size that is not a power of two, consistent with the count. */
static long non_pow2_block(const reduction_view_t *v)
{
    double *x = malloc(MAX_BLOCK * sizeof *x);
    long found = 0;
    for (long b = 3; b <= MAX_BLOCK && !found; b++) {
        if (is_pow2(b) || (v->n + b - 1) / b != v->count)
            continue;
        double s = 0;
        for (long first = 0; first < v->n; first += b)
            s += halving_tree(v, first, b, x);
        if (near(v, s))
            found = b;
    }
    free(x);
    return found;
}

/* A float running sum of the products in index order, each product rounded
 * (fused = 0) or fused into the add (fused = 1: what nvcc makes of
 * sum += a[i] * b[i] on a GPU, an fmaf). */
static double sequential_float(const reduction_view_t *v, int fused)
{
    float s = 0;
    for (long i = 0; i < v->n; i++)
        s = fused ? fmaf(v->a[i], v->b[i], s) : s + v->a[i] * v->b[i];
    return s;
}

static int is_sequential_float(const reduction_view_t *v)
{
    for (int fused = 0; fused < 2; fused++) {
        double seq = sequential_float(v, fused);
        if (fabs(v->sum - seq) <= 1e-6 * fabs(seq) + 1e-30)
            return 1;
    }
    return 0;
}

static int set_hint(compare_result_t *r, hint_t hint, const char *id, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int set_hint(compare_result_t *r, hint_t hint, const char *id, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->hint_text, sizeof r->hint_text, fmt, ap);
    va_end(ap);
    r->hint = hint;
    snprintf(r->hypothesis, sizeof r->hypothesis, "%s", id);
    return 1;
}

/* The classic wrong programs, for block sizes the handout's first. */
static int explain_by_hypothesis(const reduction_view_t *v, int tile, compare_result_t *r)
{
    long sizes[] = {tile, 32, 64, 128, 256, 512, 1024};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        long b = sizes[i], full = v->n / b * b;
        int block0 = v->count == 1 && v->n > b && near(v, products(v, 0, b));
        int tail = full < v->n && v->count == v->n / b && near(v, products(v, 0, full));
        if (block0 && tail) { /* n < 2b: the two programs return the same: neither is named */
            r->nhypotheses = 2;
            return set_hint(r, HINT_HYPOTHESIS, "block0-only,tail-dropped",
                            "the result is the sum of the first %ld products only: either the "
                            "launch function returned 1 (it must return the number of blocks), "
                            "or the grid is n / %ld rounded down (round it up, "
                            "(n + BLOCK_SIZE - 1) / BLOCK_SIZE)", b, b);
        }
        if (block0)
            return set_hint(r, HINT_HYPOTHESIS, "block0-only",
                            "the result is block 0's sum alone (the first %ld products): the "
                            "launch function returned 1, but every block writes a partial sum; "
                            "return the number of blocks (the grid size)", b);
        if (tail)
            return set_hint(r, HINT_HYPOTHESIS, "tail-dropped",
                            "the %ld elements past the last full block of %ld are missing from the "
                            "sum: the grid is n / %ld rounded down; round it up, "
                            "(n + BLOCK_SIZE - 1) / BLOCK_SIZE, and zero-pad the loads past n",
                            v->n - full, b, b);
    }
    long b = non_pow2_block(v);
    if (b)
        return set_hint(r, HINT_HYPOTHESIS, "block-not-power-of-two",
                        "the result is what blocks of %ld threads give under the halving tree "
                        "(stride = blockDim.x / 2, then / 2 ...): with a block size that is not a "
                        "power of two, the odd element at some level is never added; use a power "
                        "of two (256)", b);
    if (!near(v, v->expected) && is_sequential_float(v)) {
        snprintf(r->hint_hidden, sizeof r->hint_hidden, "the result is a sequential float sum of "
                 "the products (its error is above what a float tree reduction may make here): "
                 "reduce in a tree in shared memory, so that each value passes through log2(n) "
                 "additions, not n");
        return set_hint(r, HINT_HYPOTHESIS, "sequential-float",
                        "the result is a sequential float sum of the products (error %.3g, "
                        "above the %.3g a float tree reduction may make here): reduce in a tree "
                        "in shared memory, so that each value passes through log2(n) additions, "
                        "not n", fabs(v->sum - v->expected), v->tol);
    }
    return 0;
}

/* Which of the handout's blocks are wrong, when the count says BLOCK_SIZE. */
static int explain_by_block(const reduction_view_t *v, int tile, compare_result_t *r)
{
    long blocks = (v->n + tile - 1) / tile, wrong = 0, first = -1;
    if (v->count != blocks)
        return 0;
    for (long k = 0; k < blocks; k++) {
        double exact = products(v, k * tile, (k + 1) * tile);
        double mag = 0;
        for (long i = k * tile; i < (k + 1) * tile && i < v->n; i++)
            mag += fabs((double)v->a[i] * (double)v->b[i]);
        if (!(fabs(v->partial[k] - exact) <= reduction_tolerance(tile, mag) + 1e-30)) {
            error_map_mark(&r->map, 0, (int)k, MAP_WRONG);
            wrong++;
            if (first < 0)
                first = k;
        }
    }
    if (wrong == 1 && first == blocks - 1 && v->n % tile)
        return set_hint(r, HINT_BOUNDARY_WRONG, "",
                        "only the last, partial block's sum (partial[%ld]) is wrong: the loads "
                        "past n must add 0 (if (i < n) ... else 0)", first);
    if (wrong > 0) {
        snprintf(r->hint_hidden, sizeof r->hint_hidden, "%ld of %ld block sums are wrong, the "
                 "first partial[%ld]", wrong, blocks, first);
        return set_hint(r, HINT_SOME_WRONG, "",
                        "%ld of %ld block sums are wrong, the first partial[%ld] (%.9g; its "
                        "elements give %.9g)", wrong, blocks, first, (double)v->partial[first],
                        products(v, first * tile, (first + 1) * tile));
    }
    return 0;
}

static void explain(const reduction_view_t *v, int tile, compare_result_t *r)
{
    if (explain_by_hypothesis(v, tile, r) || explain_by_block(v, tile, r))
        return;
    if (v->count == 1 && v->n > tile) /* a fact, whatever the kernel's loop: one sum taken */
        return (void)set_hint(r, HINT_HYPOTHESIS, "block0-only",
                              "the launch function returned 1, so only partial[0] was added up, and it "
                              "is not the whole sum (%.9g of %.9g): unless one block sums all n "
                              "elements, return the number of blocks, each of whose sums the kernel "
                              "writes to partial[blockIdx.x]", v->sum, v->expected);
    const char *uncounted = v->count == (v->n + tile - 1) / tile
                                ? "" : "; the returned count does not match the handout's "
                                       "BLOCK_SIZE, so the blocks could not be checked one by one";
    snprintf(r->hint_hidden, sizeof r->hint_hidden, "the sum is outside the tolerance; ruled out: "
             "the first block's products alone, the tail past the last full block dropped, a "
             "block size not a power of two, a sequential float sum%s", uncounted);
    set_hint(r, HINT_ALL_WRONG, "",
             "the sum is %.9g, expected %.9g (tolerance %.3g); ruled out: the first block's "
             "products alone, the tail past the last full block dropped, a block size not a "
             "power of two, a sequential float sum%s",
             v->sum, v->expected, v->tol, uncounted);
}

/* n max|A| max|B|: no sum of A's and B's products is larger, however a
 * kernel pairs them (compare.h's foreign values). */
static double product_bound(const reduction_view_t *v)
{
    return (double)v->n * compare_largest(v->a, (size_t)v->n) * compare_largest(v->b, (size_t)v->n);
}

/* A sum no sum of A's and B's products can be (NaN, infinite, or over
 * COMPARE_FOREIGN_FACTOR times the bound): said, 1; else 0. */
static int foreign_sum(const reduction_view_t *v, compare_result_t *r)
{
    double bound = product_bound(v);
    if (isfinite(v->sum) && !(fabs(v->sum) > COMPARE_FOREIGN_FACTOR * bound))
        return 0;
    r->nonfinite = !isfinite(v->sum);
    return set_hint(r, HINT_SOME_WRONG, "", "the partial sums add up to %g, which no sum of "
                    "A's and B's products can be (at most %.3g in size): " COMPARE_FOREIGN_CAUSES,
                    v->sum, bound);
}

/* The summary line: the sum against the expected one. */
static void summarize(const reduction_view_t *v, long poisoned, compare_result_t *r)
{
    if (r->passed)
        snprintf(r->summary, sizeof r->summary, "%s %.9g, within %.3g of %.9g (error %.3g)",
                 v->count == 1 ? "the one partial sum returned is" : "the partial sums add up to",
                 v->sum, v->tol, v->expected, fabs(v->sum - v->expected));
    else if (v->count == 1 && poisoned == 1)
        snprintf(r->summary, sizeof r->summary, "the one partial sum returned was never written");
    else if (v->count > 0 && poisoned == v->count)
        snprintf(r->summary, sizeof r->summary, "none of the %ld partial sums was written",
                 v->count);
    else if (poisoned > 0)
        snprintf(r->summary, sizeof r->summary, "%ld of the %ld partial sums never written",
                 poisoned, v->count);
    else if (!isfinite(v->sum))
        snprintf(r->summary, sizeof r->summary, "%s %g, expected %.9g",
                 v->count == 1 ? "the one partial sum returned is" : "the partial sums add up to",
                 v->sum, v->expected);
    else
        snprintf(r->summary, sizeof r->summary, "%s %.9g, expected %.9g (error %.3g, tolerance %.3g)",
                 v->count == 1 ? "the one partial sum returned is" : "the partial sums add up to",
                 v->sum, v->expected, fabs(v->sum - v->expected), v->tol);
}

static void compare(const lab_t *lab, const dataset_t *d, const matrix_t *got, compare_result_t *r)
{
    memset(r, 0, sizeof *r);
    reduction_view_t v = {.a = d->inputs[0].data, .b = d->inputs[1].data,
                          .n = length_of(&d->inputs[0]), .partial = got->data,
                          .count = length_of(got), .expected = d->expected.data[0]};
    r->total = v.count;
    long poisoned = 0;
    if (v.count > 0)
        error_map_start(&r->map, 1, (int)v.count); /* a cell per partial sum (or group) */
    for (long i = 0; i < v.count; i++) {
        if (matbin_is_poison(v.partial[i])) {
            poisoned++;
            error_map_mark(&r->map, 0, (int)i, MAP_UNWRITTEN);
        }
        v.sum += v.partial[i];
    }
    double mag = reduction_sum_abs(&d->inputs[0], &d->inputs[1], NULL);
    v.tol = reduction_tolerance(v.n, mag) + lab->tol.atol + lab->tol.rtol * fabs(v.expected);
    double err = fabs(v.sum - v.expected);
    r->passed = v.count > 0 && poisoned == 0 && err <= v.tol;
    r->never_written = poisoned;
    if (poisoned == 0 && isfinite(v.sum)) {
        r->max_abs_err = err;
        r->max_rel_err = v.expected != 0 ? err / fabs(v.expected) : 0;
    }
    summarize(&v, poisoned, r);
    if (r->passed)
        return;
    r->wrong = poisoned > 0 ? poisoned : 1;
    if (v.count > 0 && poisoned == v.count) {
        set_hint(r, HINT_NEVER_WRITTEN, "",
                 "no partial sum was written: %s the launch function says it wrote still %s the "
                 "NaN poison; does it launch the kernel, and does thread 0 of each block store "
                 "the block's sum in partial[blockIdx.x]?",
                 v.count == 1 ? "the one" : "all those", v.count == 1 ? "holds" : "hold");
    } else if (poisoned > 0) {
        long first = 0;
        while (!matbin_is_poison(v.partial[first]))
            first++;
        set_hint(r, HINT_PARTLY_UNWRITTEN, "",
                 "%ld of the %ld partial sums the launch function returned were never written "
                 "(partial[%ld] still holds the NaN poison): return exactly the number of blocks "
                 "that write a sum", poisoned, v.count, first);
    } else if (!foreign_sum(&v, r)) {
        explain(&v, lab->tile_width, r);
    }
}

/* Several blocks, the last one partial: the boundary and the barriers show. */
static int sanitize_tier(const dataset_t *d, int tile)
{
    long n = length_of(&d->inputs[0]);
    return n % tile == 0 ? 0 : n > tile ? 2 : 1;
}

static void perf_bound(const lab_t *lab, const perf_result_t *r, const perf_shape_t *s,
                       const perf_impl_t *student, strbuf_t *out)
{
    (void)lab;
    if (s->copy_gbs > 0)
        sb_appendf(out, "  the device copies memory at %.0f GB/s (cudaMemcpy, device to device): "
                        "the kernel reads its inputs at %.0f%% of that\n",
                   s->copy_gbs, 100 * student->rate / s->copy_gbs);
    else if (r->bandwidth_gbs > 0)
        sb_appendf(out, "  the memory's peak bandwidth is %.0f GB/s: %.0f%% of it\n",
                   r->bandwidth_gbs, 100 * student->rate / r->bandwidth_gbs);
}

const lab_kind_t kind_reduction = {
    .name = "reduction",
    .inputs = 2,
    .check_shapes = check_shapes,
    .shape_text = shape_text,
    .flop = flop,
    .generate = generate,
    .timing_inputs = timing_inputs,
    .shape_work = shape_work,
    .timing_compare = timing_compare,
    .verify = verify,
    .hidden_families = sizeof hidden_names / sizeof hidden_names[0],
    .hidden_family_names = hidden_names,
    .hidden_shape = hidden_shape,
    .compare = compare,
    .sanitize_tier = sanitize_tier,
    .vgpu_main = "labs/kinds/reduction/vgpu_main.cu",
    .vgpu_call = "in0,in1,out,n0", /* A, B, the partial sums, n */
    .vgpu_out_shape = "1,n0",
    .vgpu_out_returned = 1,
    .input_names = "A,B",
    .output_name = "the partial sums",
    .rate_unit = "GB/s",
    .perf_bound = perf_bound,
};
