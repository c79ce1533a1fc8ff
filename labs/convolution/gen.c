/* gen.c - the convolution lab's datasets (labs/common/gen_lab.h): an image
 * I of height x width floats and a mask M of mask x mask (mask odd, 3 to
 * 7); P[r][c] = sum of M[i][j] * I[r - mask/2 + i][c - mask/2 + j] over the
 * mask, the cells outside the image (the halo) counting 0. Values in steps
 * of 1/8, so every product and sum is exact in float. The hidden families:
 * images within one 16 x 16 tile, and uneven images over many tiles. Its
 * classic mistake, named (lab_explain): the halo left out of the tile. */
#define LAB_PARAMS 3
#define LAB_INPUTS 2
#define LAB_EXPLAIN
#include "gen_lab.h"

void lab_inputs(const long *p, gen_rng_t *rng, int signed_values, gen_array_t *in)
{
    double *img = gen_alloc(&in[0], p[0], p[1], 0, 0), *mask = gen_alloc(&in[1], p[2], p[2], 0, 0);
    for (long i = 0; i < p[0] * p[1]; i++)
        img[i] = gen_float(rng, signed_values ? -4 : 0, 4);
    for (long i = 0; i < p[2] * p[2]; i++)
        mask[i] = gen_float(rng, 0, 1);
}

void lab_expected(const long *p, const gen_array_t *in, gen_array_t *out)
{
    long h = p[0], w = p[1], k = p[2], r = k / 2;
    double *o = gen_alloc(out, h, w, 0, 0);
    for (long y = 0; y < h; y++)
        for (long x = 0; x < w; x++) {
            double sum = 0;
            for (long i = 0; i < k; i++)
                for (long j = 0; j < k; j++) {
                    long yy = y - r + i, xx = x - r + j;
                    if (yy >= 0 && yy < h && xx >= 0 && xx < w)
                        sum += in[1].v[i * k + j] * in[0].v[yy * w + xx];
                }
            o[y * w + x] = (double)(float)sum;
        }
}

void lab_params(const gen_array_t *in, long *p) { p[0] = in[0].rows, p[1] = in[0].cols, p[2] = in[1].rows; }

void lab_hidden_shape(int family, gen_rng_t *rng, char *shape, size_t len)
{
    long h = family == 0 ? gen_between(rng, 1, 16) : gen_between(rng, 17, 150);
    long w = family == 0 ? gen_between(rng, 1, 16) : gen_between(rng, 17, 150);
    snprintf(shape, len, "%ldx%ldx%ld", h, w, 2 * gen_between(rng, 1, 3) + 1);
}

/* The output of a tiled kernel that loads no halo: cells outside its own
 * tile x tile output tile count 0. */
static double tile_only(const long *p, const gen_array_t *in, long tile, long y, long x)
{
    long w = p[1], k = p[2], r = k / 2, ty = y / tile * tile, tx = x / tile * tile;
    double sum = 0;
    for (long i = 0; i < k; i++)
        for (long j = 0; j < k; j++) {
            long yy = y - r + i, xx = x - r + j;
            if (yy >= ty && yy < ty + tile && yy < p[0] && xx >= tx && xx < tx + tile && xx < w)
                sum += in[1].v[i * k + j] * in[0].v[yy * w + xx];
        }
    return sum;
}

int lab_explain(const long *p, const gen_array_t *in, const gen_array_t *want, const gen_array_t *got, char *hint,
                size_t len)
{
    if (got->rows * got->cols != p[0] * p[1])
        return 0;
    for (long tile = 8; tile <= 32; tile *= 2) {
        int fits = 1, differs = 0;
        for (long c = 0; c < p[0] * p[1] && fits; c++) {
            double v = tile_only(p, in, tile, c / p[1], c % p[1]);
            fits = fabs(got->v[c] - v) <= 1e-4 * fabs(v) + 1e-4;
            differs |= !(fabs(want->v[c] - v) <= 1e-4 * fabs(v) + 1e-4);
        }
        if (fits && differs) {
            snprintf(hint, len, "no-halo: every output cell sums only the image cells inside its own %ld x %ld tile: "
                                "the halo, the mask / 2 cells around the tile, was never loaded (it counted 0). "
                                "Load the (TILE_WIDTH + mask - 1)^2 cells of the tile and its halo into shared "
                                "memory, 0 only outside the image", tile, tile);
            return 1;
        }
    }
    return 0;
}
