/* matmul_hints.c - what a matmul hypothesis that reproduced a student's
 * output says (matmul_wrong.h): the fact about the output ("every element
 * equals A·Bᵀ"), the code that gives it and the fix, in the lab's terms
 * (TILE_WIDTH, numARows, the phases of the tiled loop). */
#include "kinds/matmul_wrong.h"

#include <stdio.h>
#include <string.h>

#include "util/util.h"

/* " (TILE_WIDTH = 32)" when the tile is not the lab's. */
static const char *tile_note(int tile, int lab_tile, char *buf, size_t len)
{
    if (tile == lab_tile)
        return "";
    snprintf(buf, len, " (with TILE_WIDTH = %d)", tile);
    return buf;
}

const char *hypothesis_short(const char *id)
{
    static const char *const names[][2] = {
        {"all-zero", "nothing summed"},
        {"b-transposed", "A·Bᵀ (B read as B[col*numBRows + k])"},
        {"a-transposed", "Aᵀ·B (A read as A[k*numARows + row])"},
        {"both-transposed", "Aᵀ·Bᵀ (A and B read transposed)"},
        {"c-transposed", "C stored transposed"},
        {"a-stride-n", "A read with row stride numBColumns"},
        {"b-stride-k", "B read with row stride numAColumns"},
        {"sum-reset-each-phase", "the sum reset every phase"},
        {"phase-totals-kept", "each phase's running sum added to a total"},
        {"tile-a-transposed", "the A tile read transposed (tileA[k][ty])"},
        {"tile-b-transposed", "the B tile read transposed (tileB[tx][k])"},
        {"tiles-transposed", "both tiles read transposed"},
        {"blocks-swapped", "blockIdx.x and blockIdx.y swapped in the loads"},
        {"zero-rows", "the last rows left 0"},
        {"zero-cols", "the last columns left 0"},
        {"phases-intdiv", "the phase count rounded down"},
        {"phases-partial", "a sum over part of k"},
        {"k-off-by-one", "the loop over k one short"},
        {"inner-guard-tx", "the k loop guarded by tx instead of k (if (ph*TILE_WIDTH + tx < K))"},
        {"inner-guard-ty", "the k loop guarded by ty instead of k (if (ph*TILE_WIDTH + ty < K))"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(names[i][0], id) == 0)
            return names[i][1];
    return id;
}

void say_b_transposed(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf,
                      size_t len)
{
    (void)p, (void)h, (void)lab_tile;
    snprintf(buf, len, "every element equals A·Bᵀ: B is read as B[col*numBRows + k], as if it were "
                       "stored transposed; row-major B is B[k*numBColumns + col]");
}

void say_a_transposed(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf,
                      size_t len)
{
    (void)p, (void)h, (void)lab_tile;
    snprintf(buf, len, "every element equals Aᵀ·B: A is read as A[k*numARows + row], as if it were "
                       "stored transposed; row-major A is A[row*numAColumns + k]");
}

void say_both_transposed(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf,
                         size_t len)
{
    (void)p, (void)h, (void)lab_tile;
    snprintf(buf, len, "every element equals Aᵀ·Bᵀ: A is read as A[k*numARows + row] and B as "
                       "B[col*numBRows + k]; row-major they are A[row*numAColumns + k] and "
                       "B[k*numBColumns + col]");
}

void say_c_transposed(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf,
                      size_t len)
{
    (void)p, (void)h, (void)lab_tile;
    snprintf(buf, len, "every element is computed right but stored in the wrong place: C is written "
                       "as C[col*numCRows + row] (transposed); row-major C is C[row*numCColumns + col]");
}

/* "k = 7" or "k = 7..9". */
static const char *k_range(int first, int last, char *buf, size_t len)
{
    if (first == last)
        snprintf(buf, len, "k = %d", first);
    else
        snprintf(buf, len, "k = %d..%d", first, last);
    return buf;
}

/* The phase-loop cause that sums exactly k = 0..x-1 with tile t, or "":
 * with specific, a classic loop bound (the phase count rounded down, the
 * loop one phase short); else only how many phases are summed. */
static void phase_cause(const problem_t *p, int x, int t, int lab_tile, int specific, char *buf,
                        size_t len)
{
    char note[48], ks[48];
    const char *tn = tile_note(t, lab_tile, note, sizeof note);
    buf[0] = '\0';
    if (specific) {
        if (p->k % t != 0 && x == p->k / t * t)
            snprintf(buf, len, "the last, partial phase (%s) never runs: the phase count "
                               "K / TILE_WIDTH rounds down%s; use (K + TILE_WIDTH - 1) / TILE_WIDTH",
                     k_range(x, p->k - 1, ks, sizeof ks), tn);
        else if (p->k % t == 0 && x == p->k - t)
            snprintf(buf, len, "the last phase never runs: the phase loop stops one phase early%s",
                     tn);
    } else if (x == t)
        snprintf(buf, len, "only the first phase is summed%s", tn);
    else if (x % t == 0)
        snprintf(buf, len, "only the first %d phases are summed%s", x / t, tn);
}

/* The causes that sum exactly k = 0..x-1, joined by "; or ": the phase
 * loop's (a classic loop bound with any tile, the lab's tile first, before
 * a bare count of phases: a cut that is "the first 4 phases" of 16 is also
 * K = 89 rounded down with TILE_WIDTH 32) and loads guarded with the wrong
 * dimension. */
static void prefix_causes(const problem_t *p, int x, int lab_tile, char *buf, size_t len)
{
    const int tiles[] = {lab_tile, 8, 16, 32};
    strbuf_t sb = {0};
    char one[300] = "";
    for (int specific = 1; specific >= 0 && !one[0]; specific--)
        for (size_t i = 0; i < sizeof tiles / sizeof tiles[0] && !one[0]; i++)
            if (tiles[i] > 0)
                phase_cause(p, x, tiles[i], lab_tile, specific, one, sizeof one);
    sb_append(&sb, one);
    if (x == p->m)
        sb_appendf(&sb, "%sthe loads treat k >= numARows (%d) as outside the matrix: compare the "
                        "column of A and the row of B with numAColumns, not numARows",
                   sb.len ? "; or " : "", p->m);
    if (x == p->n)
        sb_appendf(&sb, "%sthe loads treat k >= numBColumns (%d) as outside the matrix: compare "
                        "the column of A and the row of B with numAColumns, not numBColumns",
                   sb.len ? "; or " : "", p->n);
    snprintf(buf, len, "%s", sb_str(&sb));
    sb_free(&sb);
}

void say_prefix(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf,
                size_t len)
{
    char causes[700]; /* up to three causes: the phase loop and both guards */
    prefix_causes(p, h->x, lab_tile, causes, sizeof causes);
    char ks[48];
    snprintf(buf, len, "every element equals the sum over %s only, not over all K = %d: %s",
             k_range(0, h->x - 1, ks, sizeof ks), p->k,
             causes[0] ? causes : "the later products are left out");
}

void say_all_zero(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf,
                  size_t len)
{
    (void)h;
    if (lab_tile > 0 && p->k < lab_tile)
        snprintf(buf, len, "every element is 0, as if no product were summed: if the phase count "
                           "is K / TILE_WIDTH, it is 0 here (K = %d < %d); use (K + TILE_WIDTH - 1) "
                           "/ TILE_WIDTH", p->k, lab_tile);
    else
        snprintf(buf, len, "every element is 0, as if no product were summed: does the loop over k "
                           "run (k = 0..K-1), does the sum reach C, and (in a whole program) does C "
                           "come back from the device?");
}

void say_k_off_by_one(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf, size_t len)
{
    (void)lab_tile; /* tile 1: the loop from k = 1; else to k = K - 2 */
    if (h->tile == 1)
        snprintf(buf, len, "every element equals the sum over k = 1..%d only, not over all K = %d: the loop "
                           "over k starts at 1; start it at 0 (for (int k = 0; k < numAColumns; k++))",
                 p->k - 1, p->k);
    else
        snprintf(buf, len, "every element equals the sum over k = 0..%d only, not over all K = %d: the loop "
                           "over k stops one short (k < numAColumns - 1, or k + 1 < ...); it must run to "
                           "k = K - 1 (k < numAColumns)", p->k - 2, p->k);
}

void say_suffix(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf,
                size_t len)
{
    char note[48], ks[48];
    snprintf(buf, len, "every element equals the sum over the last phase only (%s)%s: the "
                       "sum is reset to 0 inside the phase loop; set it to 0 once, before the loop",
             k_range(h->x, p->k - 1, ks, sizeof ks), tile_note(h->tile, lab_tile, note, sizeof note));
}

void say_running_totals(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf,
                        size_t len)
{
    (void)p;
    char note[48];
    snprintf(buf, len, "every element equals the running sum after phase 1, plus the one after "
                       "phase 2, and so on%s: a phase's partial sum is added to the total but not "
                       "reset to 0 before the next phase; reset it, or accumulate in one sum",
             tile_note(h->tile, lab_tile, note, sizeof note));
}

void say_tile_transposed(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf,
                         size_t len)
{
    (void)p;
    char note[48];
    const char *which = h->x == 1 ? "the A tile is" : h->x == 2 ? "the B tile is" : "both tiles are";
    const char *fix = h->x == 1   ? "tileA[ty][k]"
                      : h->x == 2 ? "tileB[k][tx]"
                                  : "tileA[ty][k] * tileB[k][tx]";
    snprintf(buf, len, "every element equals what the tiled loop gives when %s read transposed "
                       "inside the tile%s (tileA[k][ty] for tileA[ty][k], tileB[tx][k] for "
                       "tileB[k][tx], or a tile stored as tile[tx][ty]): store tile[ty][tx] and "
                       "read %s",
             which, tile_note(h->tile, lab_tile, note, sizeof note), fix);
}

void say_inner_guard(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf, size_t len)
{
    char note[48];
    const char *own = h->x == 1 ? "tx" : "ty";
    snprintf(buf, len, "every element equals what the tiled loop gives when its k loop is guarded by "
                       "the thread's %s instead of the loop's index%s (if (ph*TILE_WIDTH + %s < %s) "
                       "around the loop over k): threads with %s >= %d skip the last phase. The "
                       "loads already write 0 past K, so the loop needs no guard; if it has one, it "
                       "must test ph*TILE_WIDTH + k",
             own, tile_note(h->tile, lab_tile, note, sizeof note), own, "numAColumns", own,
             p->k % h->tile);
}

void say_blocks_swapped(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf,
                        size_t len)
{
    (void)p;
    char note[48];
    snprintf(buf, len, "every element holds the result of another block's tile: the tile loads use "
                       "blockIdx.x for the row and blockIdx.y for the column%s; use row = "
                       "blockIdx.y*TILE_WIDTH + threadIdx.y and col = blockIdx.x*TILE_WIDTH + "
                       "threadIdx.x in the loads as in the store",
             tile_note(h->tile, lab_tile, note, sizeof note));
}

void say_a_stride_n(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf,
                    size_t len)
{
    (void)p, (void)h, (void)lab_tile;
    snprintf(buf, len, "every element equals the product with A read as A[row*numBColumns + k] (a "
                       "row stride of N): row-major A is A[row*numAColumns + k]");
}

void say_b_stride_k(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf,
                    size_t len)
{
    (void)p, (void)h, (void)lab_tile;
    snprintf(buf, len, "every element equals the product with B read as B[k*numAColumns + col] (a "
                       "row stride of K): row-major B is B[k*numBColumns + col]");
}

void say_zeros(const problem_t *p, const hypothesis_t *h, int lab_tile, char *buf,
               size_t len)
{
    int rows = strcmp(h->id, "zero-rows") == 0;
    int last = rows ? p->m - 1 : p->n - 1, t = h->tile;
    char note[48], what[200];
    if (t > 0 && h->x == (last + 1) / t * t)
        snprintf(what, sizeof what, "the last partial tile%s is read as zeros: check the guards "
                                    "of the loads (%s)",
                 tile_note(t, lab_tile, note, sizeof note),
                 rows ? "row < numARows for A" : "col < numBColumns for B");
    else
        snprintf(what, sizeof what, "the loads treat %s >= %d as outside the matrix: compare %s",
                 rows ? "rows" : "columns", h->x,
                 rows ? "the row of A with numARows" : "the column of B with numBColumns");
    snprintf(buf, len, "every element is right but %s %d..%d, which are 0: %s",
             rows ? "rows" : "columns", h->x, last, what);
}
